--TEST--
Cuda\Optimizer refuses bad hyper-parameters, parameters, gradients, state, learning rates, decay masks and checkpoints with exact messages
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\Optimizer;

function attempt(string $what, callable $f): void {
    try {
        $f();
        echo "$what: accepted\n";
    } catch (Throwable $e) {
        echo "$what: ", get_class($e), ": ", $e->getMessage(), "\n";
    }
}
// hyper-parameters
attempt('sgd lr < 0', fn() => Optimizer::sgd(-0.1));
attempt('sgd lr NaN', fn() => Optimizer::sgd(NAN));
attempt('sgd lr INF', fn() => Optimizer::sgd(INF));
attempt('sgd momentum < 0', fn() => Optimizer::sgd(0.1, -0.5));
attempt('sgd weight decay < 0', fn() => Optimizer::sgd(0.1, 0.9, -1.0));
attempt('sgd nesterov without momentum', fn() => Optimizer::sgd(0.1, 0.0, 0.0, true));
attempt('sgd clipValue 0', fn() => Optimizer::sgd(0.1, clipValue: 0.0));
attempt('sgd clipNorm NaN', fn() => Optimizer::sgd(0.1, clipNorm: NAN));
attempt('adamW beta1 = 1', fn() => Optimizer::adamW(0.1, 1.0));
attempt('adamW beta2 < 0', fn() => Optimizer::adamW(0.1, 0.9, -0.1));
attempt('adam eps 0', fn() => Optimizer::adam(0.1, 0.9, 0.999, 0.0));
attempt('adam eps < 0', fn() => Optimizer::adam(0.1, 0.9, 0.999, -1e-8));
attempt('adamW weight decay NaN', fn() => Optimizer::adamW(weightDecay: NAN));
attempt('setLearningRate < 0', fn() => Optimizer::sgd()->setLearningRate(-1.0));
attempt('new', fn() => new Optimizer());
attempt('clone', fn() => clone Optimizer::sgd());
attempt('serialize', fn() => serialize(Optimizer::sgd()));
attempt('lr 0 is allowed', fn() => Optimizer::sgd(0.0));
print_r(Optimizer::sgd(0.1, 0.9, 0.01, true, 0.5)->getOptions());
print_r(Optimizer::adamW()->getOptions());

$p = CudaArray::fromFlatArray([1.0, 2.0], [2]);
$g = CudaArray::fromFlatArray([0.5, 0.5], [2]);
$sgd = Optimizer::sgd(0.1, 0.9);
$adam = Optimizer::adamW(0.1);
$ss = $sgd->initState([$p]);
$as = $adam->initState([$p]);
// parameters and gradients
attempt('no parameters', fn() => $sgd->step([], [], $ss));
attempt('parameters not a list', fn() => $sgd->step(['w' => $p], [$g], $ss));
attempt('parameter not a tensor', fn() => $sgd->step([1.0], [$g], $ss));
attempt('int parameter', fn() => $sgd->step([CudaArray::fromFlatArray([1, 2], [2], 'int64')], [$g], $ss));
attempt('same parameter twice', fn() => $sgd->step([$p, $p], [$g, $g], ['velocity' => [$ss['velocity'][0], $ss['velocity'][0]]]));
attempt('fewer gradients', fn() => $sgd->step([$p], [], $ss));
attempt('more gradients', fn() => $sgd->step([$p], [$g, $g], $ss));
attempt('gradient shape', fn() => $sgd->step([$p], [CudaArray::fromFlatArray([1.0, 2.0, 3.0], [3])], $ss));
attempt('gradient dtype', fn() => $sgd->step([$p], [CudaArray::fromFlatArray([1.0, 2.0], [2], 'float64')], $ss));
attempt('gradient a string', fn() => $sgd->step([$p], ['x'], $ss));
// state
attempt('state missing key', fn() => $sgd->step([$p], [$g], []));
attempt('state unknown key', fn() => $sgd->step([$p], [$g], $ss + ['extra' => 1]));
attempt('adam state to sgd', fn() => $sgd->step([$p], [$g], $as));
attempt('state int key', fn() => $sgd->step([$p], [$g], $ss + [0 => 1]));
attempt('velocity shape', fn() => $sgd->step([$p], [$g], ['velocity' => [CudaArray::zeros([3])]]));
attempt('velocity not a list', fn() => $sgd->step([$p], [$g], ['velocity' => $ss['velocity'][0]]));
attempt('velocity count', fn() => $sgd->step([$p], [$g], ['velocity' => []]));
attempt('velocity dtype', fn() => $sgd->step([$p], [$g], ['velocity' => [CudaArray::zeros([2], 'float64')]]));
attempt('sgd without momentum, state given', fn() => Optimizer::sgd(0.1)->step([$p], [$g], $ss));
attempt('beta power shape', fn() => $adam->step([$p], [$g], ['beta1Power' => CudaArray::ones([2])] + $as));
attempt('beta power int', fn() => $adam->step([$p], [$g], ['beta2Power' => CudaArray::ones([1], 'int64')] + $as));
attempt('beta power > 1', fn() => $adam->step([$p], [$g], ['beta1Power' => CudaArray::fromFlatArray([1.5], [1])] + $as));
attempt('beta power < 0', fn() => $adam->step([$p], [$g], ['beta2Power' => CudaArray::fromFlatArray([-0.5], [1])] + $as));
attempt('beta power NaN', fn() => $adam->step([$p], [$g], ['beta2Power' => CudaArray::fromFlatArray([NAN], [1])] + $as));
attempt('beta powers disagree', fn() => $adam->step([$p], [$g], ['beta1Power' => CudaArray::fromFlatArray([0.9], [1])] + $as));
attempt('beta power not a tensor', fn() => $adam->step([$p], [$g], ['beta1Power' => 1.0] + $as));
// learning rate tensor and decay mask
attempt('lr tensor of 2', fn() => $sgd->step([$p], [$g], $ss, CudaArray::ones([2])));
attempt('lr tensor int', fn() => $sgd->step([$p], [$g], $ss, CudaArray::ones([1], 'int64')));
attempt('mask too short', fn() => $adam->step([$p], [$g], $as, null, []));
attempt('mask not a bool', fn() => $adam->step([$p], [$g], $as, null, [1]));
attempt('mask not a list', fn() => $adam->step([$p], [$g], $as, null, ['a' => true]));
// without eager autograd (CudaArray::zeroGrad) zeroGrad() says so; with it, optimizer_autograd.phpt tests it
if (!method_exists(CudaArray::class, 'zeroGrad')) {
    try {
        $sgd->zeroGrad([$p]);
    } catch (Cuda\RuntimeException $e) {
        echo $e->getMessage() === "Cuda\\Optimizer::zeroGrad(): Cuda\\CudaArray::zeroGrad() (eager autograd) is not available in this build; pass gradients to step() yourself" ? "zeroGrad: ok\n" : $e->getMessage() . "\n";
    }
} else {
    echo "zeroGrad: ok\n";
}
attempt('zeroGrad bad list', fn() => $sgd->zeroGrad([1]));
// saveState / loadState
$dir = sys_get_temp_dir() . '/gtc_opt_err_' . getmypid();
@mkdir($dir);
attempt('save sgd without momentum', fn() => Optimizer::sgd(0.1)->saveState("$dir/a.npz", []));
attempt('save bad state', fn() => $adam->saveState("$dir/a.npz", ['firstMoment' => [$p]]));
attempt('save to a stream', fn() => $adam->saveState("php://memory", $as));
$adam->saveState("$dir/adam.npz", $as);
$sgd->saveState("$dir/sgd.npz", $ss);
attempt('load sgd state into adam', fn() => $adam->loadState("$dir/sgd.npz", [$p]));
attempt('load adam state into sgd', fn() => $sgd->loadState("$dir/adam.npz", [$p]));
attempt('load for other shapes', fn() => $adam->loadState("$dir/adam.npz", [CudaArray::zeros([3])]));
attempt('load for more parameters', fn() => $adam->loadState("$dir/adam.npz", [$p, CudaArray::zeros([3])]));
attempt('load for fewer parameters', fn() => $sgd->loadState("$dir/sgd.npz", []));
CudaArray::saveNpz("$dir/bad.npz", ['firstMoment.0' => $p, 'secondMoment.0' => $p, 'beta1Power' => CudaArray::fromFlatArray([2.0], [1]), 'beta2Power' => CudaArray::ones([1])]);
attempt('load impossible beta power', fn() => $adam->loadState("$dir/bad.npz", [$p]));
CudaArray::saveNpz("$dir/extra.npz", ['velocity.0' => $p, 'velocity.1' => $p]);
attempt('load extra member', fn() => $sgd->loadState("$dir/extra.npz", [$p]));
attempt('load missing file', fn() => $sgd->loadState("$dir/none.npz", [$p]));
$l = $adam->loadState("$dir/adam.npz", [$p]);
echo "loaded keys: ", implode(',', array_keys($l)), "\n";
array_map('unlink', glob("$dir/*"));
rmdir($dir);
// inside a trace: saveState and loadState are refused
attempt('saveState while tracing', fn() => Cuda\Fusion::compile(function ($x) use ($adam, $as) { $adam->saveState('/tmp/x.npz', $as); return $x; }, [$p]));
// more parameters than one graph holds
$many = [];
for ($i = 0; $i < 6000; $i++) $many[] = CudaArray::zeros([1]);
attempt('6000 parameters', fn() => $adam->step($many, $many, $adam->initState($many)));
// placeholders: left over from a finished trace (no data), or from another trace while tracing
$keep = null;
Cuda\Fusion::compile(function ($x) use (&$keep) { $keep = $x * 2.0; return $x; }, [$p]);
attempt('leftover placeholder parameter', fn() => $adam->step([$keep], [$g], $as));
attempt('leftover placeholder gradient', fn() => $adam->step([$p], [$keep], $as));
attempt('placeholder of another trace', fn() => Cuda\Fusion::compile(fn($x) => $adam->step([$x], [$keep], $as)['parameters'][0], [$p]));
echo "done\n";
?>
--EXPECTF--
sgd lr < 0: Cuda\InvalidArgumentException: Cuda\Optimizer::sgd(): learningRate must be a finite number >= 0, -0.1 given
sgd lr NaN: Cuda\InvalidArgumentException: Cuda\Optimizer::sgd(): learningRate must be a finite number >= 0, NAN given
sgd lr INF: Cuda\InvalidArgumentException: Cuda\Optimizer::sgd(): learningRate must be a finite number >= 0, INF given
sgd momentum < 0: Cuda\InvalidArgumentException: Cuda\Optimizer::sgd(): momentum must be a finite number >= 0, -0.5 given
sgd weight decay < 0: Cuda\InvalidArgumentException: Cuda\Optimizer::sgd(): weightDecay must be a finite number >= 0, -1 given
sgd nesterov without momentum: Cuda\InvalidArgumentException: Cuda\Optimizer::sgd(): nesterov needs a momentum > 0
sgd clipValue 0: Cuda\InvalidArgumentException: Cuda\Optimizer::sgd(): clipValue must be a finite number > 0, 0 given
sgd clipNorm NaN: Cuda\InvalidArgumentException: Cuda\Optimizer::sgd(): clipNorm must be a finite number > 0, NAN given
adamW beta1 = 1: Cuda\InvalidArgumentException: Cuda\Optimizer::adamW(): beta1 must be in [0, 1), 1 given
adamW beta2 < 0: Cuda\InvalidArgumentException: Cuda\Optimizer::adamW(): beta2 must be in [0, 1), -0.1 given
adam eps 0: Cuda\InvalidArgumentException: Cuda\Optimizer::adam(): epsilon must be a finite number > 0, 0 given
adam eps < 0: Cuda\InvalidArgumentException: Cuda\Optimizer::adam(): epsilon must be a finite number > 0, -1.0e-8 given
adamW weight decay NaN: Cuda\InvalidArgumentException: Cuda\Optimizer::adamW(): weightDecay must be a finite number >= 0, NAN given
setLearningRate < 0: Cuda\InvalidArgumentException: Cuda\Optimizer::setLearningRate(): learningRate must be a finite number >= 0, -1 given
new: Error: Call to private Cuda\Optimizer::__construct() from global scope
clone: Error: Trying to clone an uncloneable object of class Cuda\Optimizer
serialize: Exception: Serialization of 'Cuda\Optimizer' is not allowed
lr 0 is allowed: accepted
Array
(
    [type] => sgd
    [learningRate] => 0.1
    [momentum] => 0.9
    [nesterov] => 1
    [weightDecay] => 0.01
    [clipValue] => 0.5
    [clipNorm] => 
)
Array
(
    [type] => adamW
    [learningRate] => 0.001
    [beta1] => 0.9
    [beta2] => 0.999
    [epsilon] => 1.0E-8
    [weightDecay] => 0.01
    [clipValue] => 
    [clipNorm] => 
)
no parameters: Cuda\InvalidArgumentException: Cuda\Optimizer::step(): parameters must be a non-empty list of Cuda\CudaArray, 0 entries given
parameters not a list: Cuda\InvalidArgumentException: Cuda\Optimizer::step(): parameters must be a non-empty list of Cuda\CudaArray, an array that is not a list given
parameter not a tensor: Cuda\InvalidArgumentException: Cuda\Optimizer::step(): parameters[0] must be a Cuda\CudaArray, float given
int parameter: Cuda\InvalidArgumentException: Cuda\Optimizer::step(): parameters[0] is int64 [2]; an optimizer updates float32 or float64 tensors
same parameter twice: Cuda\InvalidArgumentException: Cuda\Optimizer::step(): parameters[1] is the same tensor as parameters[0]
fewer gradients: Cuda\InvalidArgumentException: Cuda\Optimizer::step(): gradients must be a list of 1 Cuda\CudaArray, one per parameter, 0 entries given
more gradients: Cuda\InvalidArgumentException: Cuda\Optimizer::step(): gradients must be a list of 1 Cuda\CudaArray, one per parameter, 2 entries given
gradient shape: Cuda\InvalidArgumentException: Cuda\Optimizer::step(): gradients[0] is float32 [3] but parameters[0] is float32 [2]: it needs its parameter's shape and dtype
gradient dtype: Cuda\InvalidArgumentException: Cuda\Optimizer::step(): gradients[0] is float64 [2] but parameters[0] is float32 [2]: it needs its parameter's shape and dtype
gradient a string: Cuda\InvalidArgumentException: Cuda\Optimizer::step(): gradients[0] must be a Cuda\CudaArray, string given
state missing key: Cuda\InvalidArgumentException: Cuda\Optimizer::step(): state has no 'velocity' (initState() makes an sgd optimizer's state)
state unknown key: Cuda\InvalidArgumentException: Cuda\Optimizer::step(): state has an unknown key 'extra'; an sgd optimizer's state is 'velocity'
adam state to sgd: Cuda\InvalidArgumentException: Cuda\Optimizer::step(): state has an unknown key 'firstMoment'; an sgd optimizer's state is 'velocity'
state int key: Cuda\InvalidArgumentException: Cuda\Optimizer::step(): state has an unknown key '(an integer)'; an sgd optimizer's state is 'velocity'
velocity shape: Cuda\InvalidArgumentException: Cuda\Optimizer::step(): state['velocity'][0] is float32 [3] but parameters[0] is float32 [2]: it needs its parameter's shape and dtype
velocity not a list: Cuda\InvalidArgumentException: Cuda\Optimizer::step(): state['velocity'] must be a list of 1 Cuda\CudaArray, one per parameter, Cuda\CudaArray given
velocity count: Cuda\InvalidArgumentException: Cuda\Optimizer::step(): state['velocity'] must be a list of 1 Cuda\CudaArray, one per parameter, 0 entries given
velocity dtype: Cuda\InvalidArgumentException: Cuda\Optimizer::step(): state['velocity'][0] is float64 [2] but parameters[0] is float32 [2]: it needs its parameter's shape and dtype
sgd without momentum, state given: Cuda\InvalidArgumentException: Cuda\Optimizer::step(): state has an unknown key 'velocity'; an sgd optimizer's state is empty (no momentum)
beta power shape: Cuda\InvalidArgumentException: Cuda\Optimizer::step(): state['beta1Power'] is float32 [2]; it must be a float32 or float64 tensor of one element (initState() makes it)
beta power int: Cuda\InvalidArgumentException: Cuda\Optimizer::step(): state['beta2Power'] is int64 [1]; it must be a float32 or float64 tensor of one element (initState() makes it)
beta power > 1: Cuda\InvalidArgumentException: Cuda\Optimizer::step(): state['beta1Power'] is 1.5; a beta power is beta to the number of steps taken, in [0, 1]
beta power < 0: Cuda\InvalidArgumentException: Cuda\Optimizer::step(): state['beta2Power'] is -0.5; a beta power is beta to the number of steps taken, in [0, 1]
beta power NaN: Cuda\InvalidArgumentException: Cuda\Optimizer::step(): state['beta2Power'] is NAN; a beta power is beta to the number of steps taken, in [0, 1]
beta powers disagree: Cuda\InvalidArgumentException: Cuda\Optimizer::step(): state['beta1Power'] (0.9, 1 steps of beta1 0.9) and state['beta2Power'] (1, 0 steps of beta2 0.999) disagree about the number of steps taken
beta power not a tensor: Cuda\InvalidArgumentException: Cuda\Optimizer::step(): state['beta1Power'] must be a Cuda\CudaArray, float given
lr tensor of 2: Cuda\InvalidArgumentException: Cuda\Optimizer::step(): learningRate is float32 [2]; it must be a float32 or float64 tensor of one element
lr tensor int: Cuda\InvalidArgumentException: Cuda\Optimizer::step(): learningRate is int64 [1]; it must be a float32 or float64 tensor of one element
mask too short: Cuda\InvalidArgumentException: Cuda\Optimizer::step(): weightDecayMask must be a list of 1 bools, one per parameter, a list of another length given
mask not a bool: Cuda\InvalidArgumentException: Cuda\Optimizer::step(): weightDecayMask[0] must be a bool, int given
mask not a list: Cuda\InvalidArgumentException: Cuda\Optimizer::step(): weightDecayMask must be a list of 1 bools, one per parameter, not a list given
zeroGrad: ok
zeroGrad bad list: Cuda\InvalidArgumentException: Cuda\Optimizer::zeroGrad(): parameters[0] must be a Cuda\CudaArray, int given
save sgd without momentum: Cuda\InvalidArgumentException: Cuda\Optimizer::saveState(): an sgd optimizer without momentum has no state to save
save bad state: Cuda\InvalidArgumentException: Cuda\Optimizer::saveState(): state has no 'secondMoment' (initState() makes an adamW optimizer's state)
save to a stream: Cuda\InvalidArgumentException: saveState: php://memory: stream wrappers are not supported; give a local file path
load sgd state into adam: Cuda\InvalidArgumentException: Cuda\Optimizer::loadState(): %s/sgd.npz has no member "firstMoment.0" (an adamW state for 1 parameters, as saveState() writes it)
load adam state into sgd: Cuda\InvalidArgumentException: Cuda\Optimizer::loadState(): %s/adam.npz has no member "velocity.0" (an sgd state for 1 parameters, as saveState() writes it)
load for other shapes: Cuda\InvalidArgumentException: Cuda\Optimizer::loadState(): state['firstMoment'][0] is float32 [2] but parameters[0] is float32 [3]: it needs its parameter's shape and dtype
load for more parameters: Cuda\InvalidArgumentException: Cuda\Optimizer::loadState(): %s/adam.npz has no member "firstMoment.1" (an adamW state for 2 parameters, as saveState() writes it)
load for fewer parameters: Cuda\InvalidArgumentException: Cuda\Optimizer::loadState(): parameters must be a non-empty list of Cuda\CudaArray, 0 entries given
load impossible beta power: Cuda\InvalidArgumentException: Cuda\Optimizer::loadState(): state['beta1Power'] is 2; a beta power is beta to the number of steps taken, in [0, 1]
load extra member: Cuda\InvalidArgumentException: Cuda\Optimizer::loadState(): %s/extra.npz holds "velocity.1", which is not part of an sgd state for 1 parameters
load missing file: Cuda\RuntimeException: loadState: cannot open %s/none.npz for reading: No such file or directory
loaded keys: firstMoment,secondMoment,beta1Power,beta2Power
saveState while tracing: Cuda\RuntimeException: Cuda\Optimizer::saveState(): not supported while Cuda\Fusion is tracing
6000 parameters: Cuda\InvalidArgumentException: Cuda\Optimizer::step(): 6000 parameters make a step graph of more than 100000 values; step them in groups (one step() per group)
leftover placeholder parameter: Cuda\RuntimeException: placeholder tensors have no data (it is left over from a trace)
leftover placeholder gradient: Cuda\RuntimeException: placeholder tensors have no data (it is left over from a trace)
placeholder of another trace: Cuda\RuntimeException: a placeholder tensor of another trace was used
done
