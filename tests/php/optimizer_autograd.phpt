--TEST--
Cuda\Optimizer with eager autograd: zeroGrad(), backward() and grad() feed step(), eager and traced (php-gpu-tensors' own usage)
--SKIPIF--
<?php
if (!method_exists(Cuda\CudaArray::class, 'backward')) die('skip eager autograd (CudaArray::backward) is not in this build yet');
?>
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\Fusion;
use Cuda\Optimizer;

// loss = sum(p * p): the gradient is 2p, so each step is checked against the explicit one
$p = CudaArray::fromFlatArray([2.0, -1.0], [2], 'float64')->requiresGrad();
$sgd = Optimizer::sgd(0.1, 0.9, 0.0, true);
$state = $sgd->initState([$p]);
$sgd->zeroGrad([$p]);
($p * $p)->sum()->backward();
$auto = $sgd->step([$p], [$p->grad()], $state);
$hand = $sgd->step([$p], [CudaArray::fromFlatArray([4.0, -2.0], [2], 'float64')], $state);
echo json_encode($auto['parameters'][0]->toArray() === $hand['parameters'][0]->toArray()), "\n";
// zeroGrad clears: a second backward gives the same gradient, not twice it
$sgd->zeroGrad([$p]);
($p * $p)->sum()->backward();
echo json_encode($p->grad()->toArray()), "\n";

// traced: the gradient and the update in one compiled closure
$q = CudaArray::fromFlatArray([2.0], [1])->requiresGrad();
$adam = Optimizer::adamW(0.1, 0.9, 0.999, 1e-8, 0.0);
$s = $adam->initState([$q]);
$graph = Fusion::compile(function ($q, $m, $v, $b1, $b2) use ($adam) {
    $adam->zeroGrad([$q]);
    ($q * $q)->sum()->backward();
    return $adam->step([$q], [$q->grad()], ['firstMoment' => [$m], 'secondMoment' => [$v], 'beta1Power' => $b1, 'beta2Power' => $b2]);
}, [$q, $s['firstMoment'][0], $s['secondMoment'][0], $s['beta1Power'], $s['beta2Power']]);
$r = $graph->run($q, $s['firstMoment'][0], $s['secondMoment'][0], $s['beta1Power'], $s['beta2Power']);
// float32 beta powers (0.9f, 0.999f) leave the update about 1e-6 off 1.9: the peer checks to 1e-5
printf("%.5f %.5f\n", $r['parameters'][0]->toArray()[0], $r['state']['firstMoment'][0]->toArray()[0]);
?>
--EXPECT--
true
[4,-2]
1.90000 0.40000
