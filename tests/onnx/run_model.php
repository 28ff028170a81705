<?php
// tests/onnx/run_model.php: runs a compiled ONNX model (gtc compile --cpu-only) on the inputs of
// an .npz (data, and the weights gtc compile wrote beside the model), writes the outputs to an .npz.
//   php -n -d extension=gtc.so -d extension=model.so run_model.php CLASS OUT.npz IN.npz [IN2.npz ...]
// With --steps=N (after CLASS) it runs a training step N times, feeding the updated parameters
// back, and prints the loss of each step (one per line).
use Cuda\CudaArray;

$args = array_slice($argv, 1);
$class = array_shift($args);
$steps = 0;
if (isset($args[0]) && str_starts_with($args[0], '--steps=')) $steps = (int)substr(array_shift($args), 8);
$out = array_shift($args);
$inputs = [];
foreach ($args as $f) $inputs += CudaArray::loadNpz($f);
$m = new $class();
$names = array_keys($m->inputs());
$call = [];
foreach ($names as $n) {
    // a training step's optimizer state (P_m, P_v, adamw_step) is the object's own: not passed
    if (isset($inputs[$n])) $call[$n] = $inputs[$n];
}
if ($steps === 0) {
    $res = $m->run(...$call);
    CudaArray::saveNpz($out, $res);
    exit(0);
}
for ($i = 0; $i < $steps; $i++) {
    $res = $m->run(...$call);
    echo $res['loss']->item(), "\n";
    foreach ($res as $k => $v) if (isset($call[$k]) && $k !== 'loss') $call[$k] = $v;
}
CudaArray::saveNpz($out, $call);
