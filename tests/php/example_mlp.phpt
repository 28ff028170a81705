--TEST--
a small two-layer network forward pass and softmax, written with methods and operators
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
$x = new CudaArray([[1, 2], [3, 4], [-1, 0]]);              // [3,2]
$w1 = new CudaArray([[0.5, -1, 0.25], [0.5, 1, -0.5]]);      // [2,3]
$b1 = new CudaArray([0.1, 0.2, 0.3]);
$w2 = new CudaArray([[1, 0], [0, 1], [1, -1]]);              // [3,2]
$h = ($x->matmul($w1) + $b1)->relu();
show($h, 4);
$logits = $h->matmul($w2);
$m = $logits->max(1, true);
$e = ($logits - $m)->exp();
$p = $e / $e->sum(1, true);
show($p, 4);
show($p->sum(1), 4);
show($p->argMax(1));
$y = new CudaArray([1, 0, 1], 'int64');
$onehot = CudaArray::where($y->unsqueeze(1)->eq(new CudaArray([0, 1], 'int64')), 1.0, 0.0);
$loss = -(($p->log() * $onehot)->sum(1))->mean();
show($loss, 4);                                 // the same numbers as NumPy
?>
--EXPECT--
float32 [3,3] [[1.6,1.2,0.0],[3.6,1.2,0.0],[0.0,1.2,0.05]]
float32 [3,2] [[0.5987,0.4013],[0.9168,0.0832],[0.2497,0.7503]]
float32 [3] [1.0,1.0,1.0]
int64 [3] [0,0,1]
float32 [] [0.4291]
