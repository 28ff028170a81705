--TEST--
FusionGraph saveCheckpoint/loadCheckpoint: the inputs updated in place (parameters) to .npz and back, checked against inputs(); the plan class's one implementation; a trace owns no optimizer state
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\{CudaArray, Fusion};
putenv('GTC_CACHE_DIR=' . sys_get_temp_dir() . '/gtc-ckpt-' . getmypid());
$f = sys_get_temp_dir() . '/gtc_ckpt_' . getmypid() . '.npz';
$step = Fusion::compile(
    fn($x, $w, $b, $lr) => ['loss' => $x->matmul($w)->sum(), 'w' => $w - $lr * 2, 'b' => $b - $lr],
    ['x' => [[4, 3], 'float32'], 'w' => [[3, 2], 'float32'], 'b' => [[2], 'float32'], 'lr' => 'float32'],
    'ckpt_step', ['w' => 'w', 'b' => 'b'],
);
$in = ['x' => CudaArray::ones([4, 3]), 'w' => CudaArray::randn([3, 2], 1), 'b' => CudaArray::zeros([2]), 'lr' => 0.5];
$step->run(...$in);
$step->saveCheckpoint($f, $in);
$ck = CudaArray::loadNpz($f);
echo implode(',', array_keys($ck)), "\n";
$loaded = $step->loadCheckpoint($f);
echo implode(',', array_keys($loaded)), ' ', $loaded['w']->toArray() === $in['w']->toArray() ? 'same w' : 'w differs', "\n";
show($loaded['b']);
$out = $step->run(...$loaded + ["x" => $in["x"], "lr" => 0.5]);
show($out['b']);
throws(fn() => $step->saveCheckpoint($f, ['w' => $in['w']]));
throws(fn() => $step->saveCheckpoint($f, ['w' => CudaArray::zeros([2, 3]), 'b' => $in['b']]));
throws(fn() => $step->saveCheckpoint($f, ['w' => 1.0, 'b' => $in['b']]));
CudaArray::saveNpz($f, ['w' => $in['w']]);
throws(fn() => $step->loadCheckpoint($f));
CudaArray::saveNpz($f, ['w' => $in['w'], 'b' => $in['b'], 'x' => $in['x']]);
throws(fn() => $step->loadCheckpoint($f));
CudaArray::saveNpz($f, ['w' => $in['w'], 'b' => CudaArray::zeros([2], 'float64')]);
throws(fn() => $step->loadCheckpoint($f));
var_dump($step->optimizerState());
throws(fn() => $step->setOptimizerState(['w' => $in['w']]));
throws(fn() => $step->setOptimizerState(['step' => 3]));
$step->setOptimizerState([]);
$step->resetOptimizerState();
echo "empty set and reset: ok\n";
$pure = Fusion::compile(fn($a) => $a + 1, ['a' => [[2], 'float32']]);
throws(fn() => $pure->saveCheckpoint($f, []));
@unlink($f);
?>
--EXPECTF--
w,b
w,b same w
float32 [2] [-0.5,-0.5]
float32 [2] [-1.0,-1.0]
Cuda\InvalidArgumentException: saveCheckpoint: input "b" (updated in place) is missing from the array
Cuda\InvalidArgumentException: saveCheckpoint: input "w" must be float32 [3,2], got float32 [2,3]
Cuda\InvalidArgumentException: input "w" (float32) must be a Cuda\CudaArray, float given
Cuda\InvalidArgumentException: loadCheckpoint: %s has no "b"
Cuda\InvalidArgumentException: loadCheckpoint: %s: "x" is not an input Cuda\FusionGraph updates in place
Cuda\InvalidArgumentException: loadCheckpoint: input "b" must be float32 [2], got float64 [2]
array(0) {
}
Cuda\InvalidArgumentException: setOptimizerState: Cuda\FusionGraph has no optimizer state ("w" given)
Cuda\InvalidArgumentException: setOptimizerState: Cuda\FusionGraph has no optimizer state ("step" given)
empty set and reset: ok
Cuda\InvalidArgumentException: saveCheckpoint: Cuda\FusionGraph updates no input in place: it has no state to save
