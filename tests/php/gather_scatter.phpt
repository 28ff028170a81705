--TEST--
gather (ONNX semantics) and scatterAdd eagerly, in Cuda\Fusion (same values) and their errors
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
use Cuda\Fusion;
$d = new CudaArray([[10.0, 20.0, 30.0], [40.0, 50.0, 60.0]]);
$i = CudaArray::fromFlatArray([2, 0, -1, 1], [2, 2], 'int32');
show($d->gather($i, 1));                                   // [2] + [2,2]
show($d->gather(CudaArray::fromFlatArray([1, 0, -2], [3], 'int64')));
show($d->gather(CudaArray::full([], 1, 'int64'), axis: -1)); // a rank-0 index drops the axis
show((new CudaArray([[1, 2], [3, 4]], 'int64'))->gather(CudaArray::fromFlatArray([1, 1], [2], 'int32')));
show((new CudaArray([true, false]))->astype('bool', casting: 'unsafe')->gather(CudaArray::fromFlatArray([1, 0, 0], [3], 'int32')));
show($d->gather(CudaArray::zeros([0], 'int32'), 1));
// scatterAdd: repeated indices accumulate, negatives count from the end
$u = new CudaArray([[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]);
show(CudaArray::zeros([2, 3])->scatterAdd($i, $u, axis: 1));
show((new CudaArray([1, 2, 3], 'int32'))->scatterAdd(CudaArray::fromFlatArray([0, 0, 2], [3], 'int64'),
    new CudaArray([5, 6, 7], 'int32')));
// the adjoint: <gather(d), u> == <d, scatterAdd(0, u)>
$g = CudaArray::rand([4, 5], seed: 3, dtype: 'float64');
$idx = CudaArray::fromFlatArray([3, 3, -1, 0, 2, 1], [2, 3], 'int32');
$w = CudaArray::rand([2, 3, 5], seed: 4, dtype: 'float64');
$lhs = ($g->gather($idx) * $w)->sum()->item();
$rhs = ($g * CudaArray::zeros([4, 5], 'float64')->scatterAdd($idx, $w))->sum()->item();
echo abs($lhs - $rhs) < 1e-12 ? "adjoint ok\n" : "adjoint differs: $lhs $rhs\n";
// Cuda\Fusion: the compiled plan agrees with eager, and a bad index fails run() naming the node
$f = Fusion::compile(fn($x, $ix) => ($x->gather($ix, 1) * 2)->relu(), [$d, $i]);
echo json_encode($f->run($d, $i)->toArray() === ($d->gather($i, 1) * 2)->relu()->toArray()), "\n";
$f2 = Fusion::compile(fn($x, $ix, $up) => $x->scatterAdd($ix, $up, 1)->sum(0), [CudaArray::zeros([2, 3]), $i, $u]);
echo json_encode($f2->run(CudaArray::zeros([2, 3]), $i, $u)->toArray()), "\n";
throws(fn() => $f->run($d, CudaArray::fromFlatArray([2, 0, 3, 1], [2, 2], 'int32')));
throws(fn() => $f2->run(CudaArray::zeros([2, 3]), CudaArray::fromFlatArray([2, -4, 0, 1], [2, 2], 'int32'), $u));
echo json_encode($f->run($d, $i)->toArray()), "\n";         // the flag was cleared
// bad input
throws(fn() => $d->gather(CudaArray::fromFlatArray([3, 0], [1, 2], 'int32'), 1));
throws(fn() => $d->gather(CudaArray::fromFlatArray([-3], [1], 'int64')));
throws(fn() => $d->gather($i, 2));
throws(fn() => $d->gather($i, -3));
throws(fn() => $d->gather($d));
throws(fn() => $d->gather($i, PHP_INT_MAX));
throws(fn() => CudaArray::full([], 1.0)->gather($i));
throws(fn() => CudaArray::zeros([2, 3])->scatterAdd($i, $d, 1));
throws(fn() => CudaArray::zeros([2, 3])->scatterAdd($i, $u->astype('float64'), 1));
throws(fn() => CudaArray::zeros([2, 3])->scatterAdd(CudaArray::fromFlatArray([5], [1], 'int32'), new CudaArray([[1.0, 2.0, 3.0]])));
throws(fn() => $d->gather([1, 2]));
// found by tests/fuzz/fuzz_runtime.c: int16 data passed inference, then no backend could add it
throws(fn() => CudaArray::zeros([2, 3], 'int16')->scatterAdd($i, $u->astype('int16', 'unsafe'), 1));
?>
--EXPECT--
float32 [2,2,2] [[[30.0,10.0],[30.0,20.0]],[[60.0,40.0],[60.0,50.0]]]
float32 [3,3] [[40.0,50.0,60.0],[10.0,20.0,30.0],[10.0,20.0,30.0]]
float32 [2] [20.0,50.0]
int64 [2,2] [[3,4],[3,4]]
bool [3] [false,true,true]
float32 [2,0] [[],[]]
float32 [2,3] [[2.0,4.0,4.0],[6.0,8.0,12.0]]
int32 [3] [12,2,10]
adjoint ok
true
[8,12,16]
Cuda\InvalidArgumentException: gather "t0": index 3 is out of range for axis 1 of size 3
Cuda\InvalidArgumentException: scatter_add "t0": index -4 is out of range for axis 1 of size 3
[[[60,20],[60,40]],[[120,80],[120,100]]]
Cuda\InvalidArgumentException: gather: index 3 is out of range for axis 1 of size 3
Cuda\InvalidArgumentException: gather: index -3 is out of range for axis 0 of size 2
Cuda\InvalidArgumentException: gather: axis 2 is out of range for rank 2
Cuda\InvalidArgumentException: gather: axis -3 is out of range for rank 2
Cuda\InvalidArgumentException: gather: indices must be int32 or int64, got float32
Cuda\InvalidArgumentException: gather: axis 9223372036854775807 is out of range for rank 2
Cuda\InvalidArgumentException: gather: data must have rank >= 1, got a rank-0 tensor
Cuda\InvalidArgumentException: scatter_add: updates must have the shape of gather(data, indices, axis 1), [2,2,2], got [2,3]
Cuda\InvalidArgumentException: scatter_add: updates (float64) would change the dtype of data (float32); cast them first
Cuda\InvalidArgumentException: scatter_add: index 5 is out of range for axis 0 of size 2
TypeError: Cuda\CudaArray::gather(): Argument #1 ($indices) must be of type Cuda\CudaArray, array given
Cuda\InvalidArgumentException: scatter_add: data must be int32, int64, float32 or float64, got int16; cast it first
