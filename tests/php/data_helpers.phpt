--TEST--
randn, randint, permutation (seeded), arange, linspace, take (= gather), oneHot, contiguous; bad input
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
$a = CudaArray::randn([1000], seed: 7);
$b = CudaArray::randn([1000], 7);
echo 'randn same seed: ', $a->toArray() === $b->toArray() ? 'same' : 'differ', ', other seed: ', $a->toArray() === CudaArray::randn([1000], 8)->toArray() ? 'same' : 'differ', "\n";
printf("randn mean %.1f std %.1f %s\n", abs($a->mean()->item()), $a->std()->item(), $a->dtype());
echo CudaArray::randn([2], 1, 'float64')->dtype(), "\n";
$r = CudaArray::randint(-3, 4, [2000], seed: 1);
echo 'randint ', $r->dtype(), ' min ', $r->min()->item(), ' max ', $r->max()->item(), "\n";
show(CudaArray::randint(0, 2, [3], 5, 'uint8')->astype('int64')->clamp(0, 1)->sum()->reshape([1])->gt(-1));
$p = CudaArray::permutation(10, seed: 3)->toArray();
$s = $p; sort($s);
echo 'permutation ', $s === range(0, 9) ? 'of 0..9' : 'wrong', ', deterministic ', $p === CudaArray::permutation(10, 3)->toArray() ? 'yes' : 'no', "\n";
show(CudaArray::permutation(0, 1));
show(CudaArray::arange(5));
show(CudaArray::arange(1, 2, 0.25));
show(CudaArray::arange(10, 0, -3));
show(CudaArray::arange(3, dtype: 'float64'));
show(CudaArray::arange(5, 1));
show(CudaArray::linspace(0, 1, 5));
show(CudaArray::linspace(0, 1, 4, endpoint: false, dtype: 'float64'));
show(CudaArray::linspace(2, 3, 1));
show(CudaArray::linspace(2, 3, 0));
$x = new CudaArray([[1, 2], [3, 4], [5, 6]]);
$i = new CudaArray([2, 0], 'int64');
show($x->take($i));
show($x->take(new CudaArray([1], 'int32'), axis: 1));
echo 'take is gather: ', $x->take($i)->toArray() === $x->gather($i)->toArray() ? 'yes' : 'no', "\n";
show((new CudaArray([0, 2, 1], 'int64'))->oneHot(3));
show((new CudaArray([1, 0], 'int32'))->oneHot(2, 'int32'));
show((new CudaArray([3, -1], 'int64'))->oneHot(2));
$t = $x->transpose();
echo 'contiguous view copies: ', $t->contiguous() !== $t ? "yes" : "no", ', already contiguous is itself: ', $x->contiguous() === $x ? 'yes' : 'no', "\n";
show($t->contiguous());
throws(fn() => CudaArray::randint(3, 3, [2], 1));
throws(fn() => CudaArray::randint(0, 300, [2], 1, 'uint8'));
throws(fn() => CudaArray::randint(0, 3, [2], 1, 'float32'));
throws(fn() => CudaArray::randn([2], 1, 'int32'));
throws(fn() => CudaArray::randn([-1], 1));
throws(fn() => CudaArray::permutation(-1, 1));
throws(fn() => CudaArray::arange(0, 1, 0));
throws(fn() => CudaArray::arange(0, INF));
throws(fn() => CudaArray::linspace(0, 1, -1));
throws(fn() => CudaArray::linspace(0, 1, 3, dtype: 'int32'));
throws(fn() => (new CudaArray([1], 'int64'))->oneHot(0));
throws(fn() => (new CudaArray([1.0]))->oneHot(2));
throws(fn() => $x->take(new CudaArray([3], 'int64')));
?>
--EXPECTF--
randn same seed: same, other seed: differ
randn mean 0.0 std 1.0 float32
float64
randint int64 min -3 max 3
bool [1] [true]
permutation of 0..9, deterministic yes
int64 [0] []
int64 [5] [0,1,2,3,4]
float32 [4] [1.0,1.25,1.5,1.75]
int64 [4] [10,7,4,1]
float64 [3] [0.0,1.0,2.0]
int64 [0] []
float32 [5] [0.0,0.25,0.5,0.75,1.0]
float64 [4] [0.0,0.25,0.5,0.75]
float32 [1] [2.0]
float32 [0] []
float32 [2,2] [[5.0,6.0],[1.0,2.0]]
float32 [3,1] [[2.0],[4.0],[6.0]]
take is gather: yes
float32 [3,3] [[1.0,0.0,0.0],[0.0,0.0,1.0],[0.0,1.0,0.0]]
int32 [2,2] [[0,1],[1,0]]
float32 [2,2] [[0.0,0.0],[0.0,0.0]]
contiguous view copies: yes, already contiguous is itself: yes
float32 [2,3] [[1.0,3.0,5.0],[2.0,4.0,6.0]]
Cuda\InvalidArgumentException: randint: low (3) must be less than high (3)
Cuda\InvalidArgumentException: randint: [0, 300) does not fit uint8
Cuda\InvalidArgumentException: randint: dtype must be an integer type, got float32
Cuda\InvalidArgumentException: randn: dtype must be float32 or float64, got int32
%s
ValueError: Cuda\CudaArray::permutation(): Argument #1 ($n) must not be negative, -1 given
ValueError: Cuda\CudaArray::arange(): Argument #3 ($step) must not be 0
Cuda\InvalidArgumentException: arange: start, stop and step must be finite
ValueError: Cuda\CudaArray::linspace(): Argument #3 ($num) must not be negative, -1 given
ValueError: Cuda\CudaArray::linspace(): Argument #5 ($dtype) must be "float32" or "float64", "int32" given
ValueError: Cuda\CudaArray::oneHot(): Argument #1 ($depth) must be from 1 to 2^31-1, 0 given
Cuda\InvalidArgumentException: %s
Cuda\InvalidArgumentException: %s
