--TEST--
matmul: 2-D, vector cases, batched with broadcasting, float64, views as operands
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
$a = new CudaArray([[1, 2, 3], [4, 5, 6]]);          // [2,3]
$b = new CudaArray([[1, 0], [0, 1], [1, 1]]);        // [3,2]
show($a->matmul($b));
show($b->matmul($a));
show($a->matmul(new CudaArray([1, 1, 1])));          // [2,3] @ [3] = [2]
show((new CudaArray([1, 1]))->matmul($a));          // [2] @ [2,3] = [3]
show((new CudaArray([1, 2, 3]))->matmul(new CudaArray([4, 5, 6])));   // dot: rank 0
$batch = new CudaArray([[[1, 0], [0, 1]], [[2, 0], [0, 2]]]);        // [2,2,2]
show($batch->matmul(new CudaArray([[1, 2], [3, 4]])));               // broadcast [2,2]
show((new CudaArray([[[1, 1]]]))->matmul($batch));                   // [1,1,2] @ [2,2,2]
show($a->matmul($a->transpose()));                                   // a transposed view
show($a->astype('float64')->matmul($b->astype('float64')));
show($a->matmul($b->astype('float64')));                             // promoted to float64
show(CudaArray::zeros([2, 0])->matmul(CudaArray::zeros([0, 3])));    // k = 0 gives zeros
show(CudaArray::zeros([0, 4])->matmul(CudaArray::zeros([4, 2])));
?>
--EXPECT--
float32 [2,2] [[4.0,5.0],[10.0,11.0]]
float32 [3,3] [[1.0,2.0,3.0],[4.0,5.0,6.0],[5.0,7.0,9.0]]
float32 [2] [6.0,15.0]
float32 [3] [5.0,7.0,9.0]
float32 [] [32.0]
float32 [2,2,2] [[[1.0,2.0],[3.0,4.0]],[[2.0,4.0],[6.0,8.0]]]
float32 [2,1,2] [[[1.0,1.0]],[[2.0,2.0]]]
float32 [2,2] [[14.0,32.0],[32.0,77.0]]
float64 [2,2] [[4.0,5.0],[10.0,11.0]]
float64 [2,2] [[4.0,5.0],[10.0,11.0]]
float32 [2,3] [[0.0,0.0,0.0],[0.0,0.0,0.0]]
float32 [0,2] []
