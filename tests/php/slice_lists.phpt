--TEST--
slice with ONNX-style lists as named arguments (starts:, ends:, steps:, axes:); negative indices; clamping
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
$a = new CudaArray([[0, 1, 2, 3, 4], [10, 11, 12, 13, 14], [20, 21, 22, 23, 24]], 'int32');
show($a->slice(starts: [1], ends: [3]));                                // rows 1..2
show($a->slice(starts: [0, 1], ends: [2, 4]));
show($a->slice(starts: [1], ends: [5], steps: [2], axes: [1]));                      // columns 1, 3
show($a->slice(starts: [-1], ends: [-6], steps: [-2], axes: [1]));                   // columns 4, 2, 0
show($a->slice(starts: [-2], ends: [100]));                             // clamped
show($a->slice(starts: [0, 0], ends: [3, 5], steps: [2, 2]));
show($a->slice(starts: [3], ends: [1], axes: [1]));                     // empty: start past end
show($a->slice(starts: [4], ends: [-100], steps: [-1], axes: [-1]));                 // whole row reversed
show($a->slice(starts: [], ends: []));                                  // nothing sliced
show($a->slice(starts: [1], ends: [2], axes: [0]));
throws(fn() => $a->slice(starts: [0], ends: [1], steps: [0]));
throws(fn() => $a->slice(starts: [0, 0, 0], ends: [1, 1, 1]));
throws(fn() => $a->slice(starts: [0], ends: [1], axes: [2]));
throws(fn() => $a->slice(starts: [0, 0], ends: [1, 1], axes: [1, 1]));
throws(fn() => $a->slice(starts: [0], ends: [1, 2]));
throws(fn() => $a->slice(starts: [0], ends: [1], steps: [1, 1]));
throws(fn() => $a->slice(starts: [0], ends: [1], axes: [0, 1]));
throws(fn() => $a->slice(starts: [0]));
throws(fn() => $a->slice(starts: [0.5], ends: [1]));
?>
--EXPECT--
int32 [2,5] [[10,11,12,13,14],[20,21,22,23,24]]
int32 [2,3] [[1,2,3],[11,12,13]]
int32 [3,2] [[1,3],[11,13],[21,23]]
int32 [3,3] [[4,2,0],[14,12,10],[24,22,20]]
int32 [2,5] [[10,11,12,13,14],[20,21,22,23,24]]
int32 [2,3] [[0,2,4],[20,22,24]]
int32 [3,0] [[],[],[]]
int32 [3,5] [[4,3,2,1,0],[14,13,12,11,10],[24,23,22,21,20]]
int32 [3,5] [[0,1,2,3,4],[10,11,12,13,14],[20,21,22,23,24]]
int32 [1,5] [[10,11,12,13,14]]
Cuda\InvalidArgumentException: slice: slice step is 0 on axis 0
Cuda\InvalidArgumentException: slice: slice has 3 starts for rank 2
Cuda\InvalidArgumentException: slice: axis 2 is out of range for rank 2
Cuda\InvalidArgumentException: slice: axis 1 is repeated
ValueError: Cuda\CudaArray::slice(): Argument $ends must have as many elements as $starts
ValueError: Cuda\CudaArray::slice(): Argument $steps must have as many elements as $starts
ValueError: Cuda\CudaArray::slice(): Argument $axes must have as many elements as $starts
ArgumentCountError: Cuda\CudaArray::slice(): the named form needs $starts and $ends (and optionally $steps, $axes); positional arguments are per-axis selectors
TypeError: Cuda\CudaArray::slice(): Argument $starts must contain only integers, float given
