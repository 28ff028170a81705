--TEST--
Eager autograd (php-gpu-tensors' API): broadcast gradients, max ties, where, seeds, accumulation over two backward() calls, zeroGrad, detach, leaves that need no gradient, non-leaves, requiresGrad(false)
--FILE--
<?php
use Cuda\CudaArray;
$j = fn($t) => $t === null ? 'null' : json_encode($t->toArray());

// a broadcast product: each operand's gradient is the other, summed over the broadcast axis
$p = CudaArray::fromFlatArray([1, 2, 3, 4], [2, 2])->requiresGrad();
$q = CudaArray::fromFlatArray([10, 20], [1, 2])->requiresGrad();
$r = $q->requiresGrad();
var_dump($r === $q);
($p * $q)->sum()->backward();
echo $j($p->grad()), ' ', $j($q->grad()), ' ', $p->grad()->dtype(), "\n";

// max over a vector with a tie: the two largest share the gradient
$v = CudaArray::fromFlatArray([4, 4, 2], [3])->requiresGrad();
$v->max()->backward();
echo $j($v->grad()), "\n";

// where: each branch's gradient where it was chosen; the condition has none
$c = CudaArray::fromFlatArray([-2, 3], [2])->requiresGrad();
CudaArray::where($c->gt(0), $c * $c, $c->neg())->sum()->backward();
echo $j($c->grad()), "\n";

// explicit seeds and accumulation
$s = CudaArray::fromFlatArray([3, 5], [2])->requiresGrad();
$sq = $s * $s;
$sq->backward(CudaArray::fromFlatArray([1, 2], [2]));
echo $j($s->grad()), "\n";
$sq->backward(CudaArray::fromFlatArray([1, 1], [2]));
echo $j($s->grad()), "\n";
$s->zeroGrad();
echo $j($s->grad()), "\n";
$s->zeroGrad(); // twice is fine
$sq->backward(CudaArray::fromFlatArray([1, 0], [2]));
echo $j($s->grad()), "\n";

// detach: the same values, no history; a detached tensor can be a new leaf
$s->zeroGrad();
$d = ($s * 3)->detach();
echo $j($d), ' ', $j($d->grad()), "\n";
try { $d->sum()->backward(); } catch (Cuda\RuntimeException $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
$d->requiresGrad();
($d * $d)->sum()->backward();
echo $j($d->grad()), ' ', $j($s->grad()), "\n";

// a tensor that does not require gradients gets none; neither does a non-leaf
$x = CudaArray::fromFlatArray([1, 2], [2]);
$w = CudaArray::fromFlatArray([3, 4], [2])->requiresGrad();
$h = $x * $w;
$h->sum()->backward();
echo $j($x->grad()), ' ', $j($h->grad()), ' ', $j($w->grad()), "\n";

// a leaf unrelated to the loss keeps null
$other = CudaArray::fromFlatArray([1.0], [1])->requiresGrad();
$w->zeroGrad();
($w * 2)->sum()->backward();
echo $j($other->grad()), ' ', $j($w->grad()), "\n";

// requiresGrad(false) on a leaf stops its gradient; on a computed tensor it is refused
$w->zeroGrad();
$w->requiresGrad(false);
try { ($w * 2)->sum()->backward(); } catch (Cuda\RuntimeException $e) { echo $e->getMessage(), "\n"; }
$w->requiresGrad();
$y = $w * 2;
try { $y->requiresGrad(false); } catch (Cuda\InvalidArgumentException $e) { echo $e->getMessage(), "\n"; }
var_dump($y->requiresGrad() === $y);

// a shared sub-expression, a value used twice, a chain through views
$a = CudaArray::fromFlatArray([1, 2, 3, 4, 5, 6], [2, 3], 'float64')->requiresGrad();
$t = $a->transpose()->reshape([6]);
(($t * $t)->sum() + $a->sum() * 2)->backward();
echo $j($a->grad()), "\n";

// backward on a leaf itself (a one-element tensor)
$one = CudaArray::fromFlatArray([7.0], [1])->requiresGrad();
$one->backward();
echo $j($one->grad()), "\n";

// a rank-0 loss from item-sized reductions and operators on numbers
$z = CudaArray::fromFlatArray([0.5, -0.5], [2], 'float64')->requiresGrad();
$l = (1 - $z) ** 2;
$l->mean()->backward();
echo $j($z->grad()), "\n";

// promotion: a float32 leaf with a float64 or int64 tensor gets a float32 gradient; a [1] leaf broadcast
$f = CudaArray::fromFlatArray([1, 2], [2])->requiresGrad();
($f * CudaArray::fromFlatArray([3, 4], [2], 'float64'))->sum()->backward();
echo $f->grad()->dtype(), ' ', $j($f->grad()), "\n";
$c = CudaArray::fromFlatArray([0.5, 1.5], [2])->requiresGrad();
(($c * CudaArray::fromFlatArray([1, 2], [2], 'int64')) ** 2)->sum()->backward();
echo $c->grad()->dtype(), ' ', $j($c->grad()), "\n";
$one = CudaArray::fromFlatArray([2.0], [1])->requiresGrad();
(CudaArray::fromFlatArray([1, 2, 3], [3]) * $one)->sum()->backward();
echo $j($one->grad()), "\n";
?>
--EXPECT--
bool(true)
[[10,20],[10,20]] [[4,6]] float32
[0.5,0.5,0]
[-1,6]
[6,20]
[12,30]
null
[6,0]
[9,15] null
Cuda\RuntimeException: backward(): the tensor has no gradient history: no tensor it is computed from requires gradients (call requiresGrad() on the leaves first)
[18,30] null
null null [1,2]
null [2,2]
backward(): the tensor has no gradient history: no tensor it is computed from requires gradients (call requiresGrad() on the leaves first)
requiresGrad(false): the tensor is computed from tensors that require gradients; detach() gives one without that history
bool(true)
[[4,6,8],[10,12,14]]
[1]
[-0.5,-1.5]
float32 [3,4]
float32 [1,12]
[6]
