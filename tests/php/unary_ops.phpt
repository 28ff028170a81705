--TEST--
unary methods on floats
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
$a = new CudaArray([-1.5, 0, 0.25, 2], 'float64');
foreach (['neg', 'abs', 'exp', 'sin', 'cos', 'tanh', 'sigmoid', 'relu', 'floor', 'ceil', 'round', 'sign'] as $op) {
    echo str_pad($op, 8), ' ';
    show($a->$op(), 6);
}
$p = new CudaArray([0.25, 1, 4]);
show($p->log(), 6);
show($p->sqrt(), 6);
show($p->rsqrt(), 6);
show((new CudaArray([-1, 0]))->log());
show((new CudaArray([-1]))->sqrt());
show((new CudaArray([NAN, -0.0]))->sign());
?>
--EXPECT--
neg      float64 [4] [1.5,-0.0,-0.25,-2.0]
abs      float64 [4] [1.5,0.0,0.25,2.0]
exp      float64 [4] [0.22313,1.0,1.284025,7.389056]
sin      float64 [4] [-0.997495,0.0,0.247404,0.909297]
cos      float64 [4] [0.070737,1.0,0.968912,-0.416147]
tanh     float64 [4] [-0.905148,0.0,0.244919,0.964028]
sigmoid  float64 [4] [0.182426,0.5,0.562177,0.880797]
relu     float64 [4] [0.0,0.0,0.25,2.0]
floor    float64 [4] [-2.0,0.0,0.0,2.0]
ceil     float64 [4] [-1.0,0.0,1.0,2.0]
round    float64 [4] [-2.0,0.0,0.0,2.0]
sign     float64 [4] [-1.0,0.0,1.0,1.0]
float32 [3] [-1.386294,0.0,1.386294]
float32 [3] [0.5,1.0,2.0]
float32 [3] [2.0,1.0,0.5]
float32 [2] [NAN,-INF]
float32 [1] [NAN]
float32 [2] [NAN,0.0]
