--TEST--
rank-0 arrays and empty arrays through construction, ops, reductions and conversion
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
$s = CudaArray::full([], 3, 'int32');
var_dump($s->getShape(), $s->getStrides(), $s->getSize(), $s->toArray(), $s->item());
show($s + 1);
show($s * $s);
show($s->exp(), 4);
show($s->sum());
show($s->sum(null, true));
show($s->reshape([1]));
show($s->unsqueeze(0));
show($s->broadcastTo([3]));
show($s->astype('bool', casting: 'unsafe'));
show($s->slice(''));
show((new CudaArray([5]))->sum()->reshape([]));
$e = CudaArray::zeros([0, 3]);
var_dump($e->getSize(), $e->toArray(), strlen($e->toBuffer()));
show($e + 1);
show($e->exp());
show($e->sum(0));
show($e->sum(1));
show($e->mean(0));
show($e->prod());
show($e->transpose());
show($e->reshape([3, 0]));
show($e->slice('::-1'));
show($e->matmul(CudaArray::zeros([3, 2])));
show($e->astype('int64', casting: 'unsafe'));
show(CudaArray::where($e->gt(0), $e, 1));
show(clone $e);
?>
--EXPECT--
array(0) {
}
array(0) {
}
int(1)
array(1) {
  [0]=>
  int(3)
}
int(3)
int32 [] [4]
int32 [] [9]
float32 [] [20.0855]
int64 [] [3]
int64 [] [3]
int32 [1] [3]
int32 [1] [3]
int32 [3] [3,3,3]
bool [] [true]
int32 [] [3]
float32 [] [5.0]
int(0)
array(0) {
}
int(0)
float32 [0,3] []
float32 [0,3] []
float32 [3] [0.0,0.0,0.0]
float32 [0] []
float32 [3] [NAN,NAN,NAN]
float32 [] [1.0]
float32 [3,0] [[],[],[]]
float32 [3,0] [[],[],[]]
float32 [0,3] []
float32 [0,2] []
int64 [0,3] []
float32 [0,3] []
float32 [0,3] []
