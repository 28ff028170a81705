--TEST--
unary methods on ints and bools: signed ops keep ints, float ops give float32
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
$i = new CudaArray([-3, 0, 5], 'int32');
foreach (['neg', 'abs', 'relu', 'floor', 'ceil', 'round', 'sign'] as $op) {
    echo str_pad($op, 6), ' ';
    show($i->$op());
}
show($i->exp(), 3);
show((new CudaArray([4, 9], 'int64'))->sqrt());
$b = new CudaArray([true, false], 'bool');
show($b->neg());
show($b->abs());
show($b->sigmoid(), 4);
$l = new CudaArray([PHP_INT_MIN + 1, -2], 'int64');
show($l->abs());
?>
--EXPECT--
neg    int32 [3] [3,0,-5]
abs    int32 [3] [3,0,5]
relu   int32 [3] [0,0,5]
floor  int32 [3] [-3,0,5]
ceil   int32 [3] [-3,0,5]
round  int32 [3] [-3,0,5]
sign   int32 [3] [-1,0,1]
float32 [3] [0.05,1.0,148.413]
float32 [2] [2.0,3.0]
int32 [2] [-1,0]
int32 [2] [1,0]
float32 [2] [0.7311,0.5]
int64 [2] [9223372036854775807,2]
