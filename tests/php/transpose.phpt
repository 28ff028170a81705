--TEST--
transpose: reverse by default, explicit perm (negative entries), strides of the view, errors
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
$a = new CudaArray([[1, 2, 3], [4, 5, 6]], 'int32');
$t = $a->transpose();
show($t);
echo json_encode($a->getStrides()), ' ', json_encode($t->getStrides()), "\n";
$b = CudaArray::zeros([2, 3, 4]);
$p = $b->transpose([1, 2, 0]);
echo json_encode($p->getShape()), ' ', json_encode($p->getStrides()), "\n";
$q = $b->transpose([-1, 0, 1]);
echo json_encode($q->getShape()), ' ', json_encode($q->getStrides()), "\n";
echo json_encode($b->transpose()->getShape()), ' ', json_encode($b->transpose(null)->getStrides()), "\n";
show($a->transpose()->transpose());
show((new CudaArray([1, 2, 3], 'int32'))->transpose());
show(CudaArray::full([], 3)->transpose());
show(CudaArray::full([], 3)->transpose([]));
show($a->transpose([0, 1]));
throws(fn() => $a->transpose([0]));
throws(fn() => $a->transpose([]));
throws(fn() => $a->transpose([0, 0]));
throws(fn() => $a->transpose([0, 2]));
throws(fn() => $a->transpose([0, 99]));
?>
--EXPECT--
int32 [3,2] [[1,4],[2,5],[3,6]]
[3,1] [1,3]
[3,4,2] [4,1,12]
[4,2,3] [1,12,4]
[4,3,2] [1,4,12]
int32 [2,3] [[1,2,3],[4,5,6]]
int32 [3] [1,2,3]
float32 [] [3.0]
float32 [] [3.0]
int32 [2,3] [[1,2,3],[4,5,6]]
Cuda\InvalidArgumentException: transpose: perm has 1 entries for rank 2
Cuda\InvalidArgumentException: transpose: perm has 0 entries for rank 2
Cuda\InvalidArgumentException: transpose: perm is not a permutation (0 repeats)
Cuda\InvalidArgumentException: transpose: perm entry 2 is out of range for rank 2
Cuda\InvalidArgumentException: transpose: axis 99 is out of range for rank 2
