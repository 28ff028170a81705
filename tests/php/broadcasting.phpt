--TEST--
NumPy broadcasting: rank extension, size-1 axes, rank 0, empty axes
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
$col = new CudaArray([[0], [10], [20]], 'int32');   // [3,1]
$row = new CudaArray([1, 2, 3, 4], 'int32');        // [4]
show($col->add($row));
show($row->add($col));
show($col->subtract($row));
show($row->subtract($col));
$s = CudaArray::full([], 100, 'int32');              // rank 0
show($s->add($row));
show($row->add($s));
show($s->add($s));
$e = CudaArray::zeros([0, 4], 'int32');
show($e->add($row));
show(CudaArray::zeros([0])->add(CudaArray::ones([1])));
show(CudaArray::ones([2, 1, 3])->add(CudaArray::ones([4, 1])));
show(CudaArray::ones([1, 1])->add(CudaArray::ones([1])));
show((new CudaArray([[1, 2, 3]]))->multiply(new CudaArray([[2], [3]])));
?>
--EXPECT--
int32 [3,4] [[1,2,3,4],[11,12,13,14],[21,22,23,24]]
int32 [3,4] [[1,2,3,4],[11,12,13,14],[21,22,23,24]]
int32 [3,4] [[-1,-2,-3,-4],[9,8,7,6],[19,18,17,16]]
int32 [3,4] [[1,2,3,4],[-9,-8,-7,-6],[-19,-18,-17,-16]]
int32 [4] [101,102,103,104]
int32 [4] [101,102,103,104]
int32 [] [200]
int32 [0,4] []
float32 [0] []
float32 [2,4,3] [[[2.0,2.0,2.0],[2.0,2.0,2.0],[2.0,2.0,2.0],[2.0,2.0,2.0]],[[2.0,2.0,2.0],[2.0,2.0,2.0],[2.0,2.0,2.0],[2.0,2.0,2.0]]]
float32 [1,1] [[2.0]]
float32 [2,3] [[2.0,4.0,6.0],[3.0,6.0,9.0]]
