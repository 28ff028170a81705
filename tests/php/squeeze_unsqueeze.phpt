--TEST--
squeeze (all size-1 axes, one axis, several axes) and unsqueeze (positive and negative axes)
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
$a = CudaArray::ones([1, 3, 1, 2], 'int32');
echo json_encode($a->squeeze()->getShape()), "\n";
echo json_encode($a->squeeze(0)->getShape()), "\n";
echo json_encode($a->squeeze(-2)->getShape()), "\n";
echo json_encode($a->squeeze([0, 2])->getShape()), "\n";
echo json_encode($a->squeeze([])->getShape()), "\n";
echo json_encode(CudaArray::ones([1, 1])->squeeze()->getShape()), "\n";
echo json_encode(CudaArray::full([], 1)->squeeze()->getShape()), "\n";
$v = new CudaArray([1, 2, 3], 'int32');
show($v->unsqueeze(0));
show($v->unsqueeze(1));
show($v->unsqueeze(-1));
show($v->unsqueeze(-2));
echo json_encode(CudaArray::full([], 1)->unsqueeze(0)->getShape()), "\n";
echo json_encode(CudaArray::zeros([2, 3])->unsqueeze(1)->getShape()), "\n";
show($v->unsqueeze(0)->squeeze(0));
throws(fn() => $a->squeeze(1));
throws(fn() => $a->squeeze(4));
throws(fn() => $a->squeeze([-5]));
throws(fn() => $v->unsqueeze(2));
throws(fn() => $v->unsqueeze(-3));
throws(fn() => CudaArray::zeros([1, 1, 1, 1, 1, 1, 1, 1])->unsqueeze(0));
?>
--EXPECT--
[3,2]
[3,1,2]
[1,3,2]
[3,2]
[1,3,1,2]
[]
[]
int32 [1,3] [[1,2,3]]
int32 [3,1] [[1],[2],[3]]
int32 [3,1] [[1],[2],[3]]
int32 [1,3] [[1,2,3]]
[1]
[2,1,3]
int32 [3] [1,2,3]
Cuda\InvalidArgumentException: squeeze: axis 1 has size 3, not 1
Cuda\InvalidArgumentException: squeeze: axis 4 is out of range for rank 4
Cuda\InvalidArgumentException: squeeze: axis -5 is out of range for rank 4
Cuda\InvalidArgumentException: unsqueeze: axis 2 is out of range for rank 1
Cuda\InvalidArgumentException: unsqueeze: axis -3 is out of range for rank 1
Cuda\InvalidArgumentException: unsqueeze: rank 9 exceeds the limit of 8
