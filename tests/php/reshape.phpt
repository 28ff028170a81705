--TEST--
reshape: a view of contiguous arrays, a copy of others, one -1, errors
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
$a = new CudaArray([[1, 2, 3], [4, 5, 6]], 'int32');
$r = $a->reshape([3, 2]);
show($r);
var_dump($r->getStrides());
show($a->reshape([-1]));
show($a->reshape([1, -1, 1]));
show($a->reshape([6, 1])->reshape([2, 3]));
show($a->transpose()->reshape([6]));          // not contiguous: copied in C order of the view
show(CudaArray::full([], 7)->reshape([1, 1]));
show((new CudaArray([7]))->reshape([]));
show(CudaArray::zeros([0, 3])->reshape([3, 0, 5]));
show($a->reshape([2, 3]));
throws(fn() => $a->reshape([4, 2]));
throws(fn() => $a->reshape([-1, -1]));
throws(fn() => $a->reshape([4, -1]));
throws(fn() => $a->reshape([-2, 3]));
throws(fn() => $a->reshape(['2', 3]));
throws(fn() => CudaArray::zeros([0, 3])->reshape([-1, 0]));
?>
--EXPECT--
int32 [3,2] [[1,2],[3,4],[5,6]]
array(2) {
  [0]=>
  int(2)
  [1]=>
  int(1)
}
int32 [6] [1,2,3,4,5,6]
int32 [1,6,1] [[[1],[2],[3],[4],[5],[6]]]
int32 [2,3] [[1,2,3],[4,5,6]]
int32 [6] [1,4,2,5,3,6]
float32 [1,1] [[7.0]]
float32 [] [7.0]
float32 [3,0,5] [[],[],[]]
int32 [2,3] [[1,2,3],[4,5,6]]
Cuda\InvalidArgumentException: reshape: cannot reshape [2,3] (6 elements) into [4,2] (8 elements)
Cuda\InvalidArgumentException: reshape: reshape allows one -1, got two
Cuda\InvalidArgumentException: reshape: cannot reshape [2,3] (6 elements) with a -1 into a multiple of 4
Cuda\InvalidArgumentException: Cuda\CudaArray::reshape(): Argument #1 ($shape) must contain only non-negative dimensions (or one -1), -2 given
TypeError: Cuda\CudaArray::reshape(): Argument #1 ($shape) must contain only integers, string given
Cuda\InvalidArgumentException: reshape: cannot reshape [0,3] (0 elements) with a -1 into a multiple of 0
