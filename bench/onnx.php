<?php
// bench/onnx.php: times a compiled ONNX model's run() from PHP (bench/onnx.sh).
//   php -d extension=gtc.so -d extension=MODEL.so onnx.php CLASS MODEL.npz IN.npz ITERS NAME
// Prints one JSON line: {"model": NAME, "runner": "gtc (php, DEVICE)", "us_per_run": ...}; the
// output is read back (item of one element) after the timed loop, so queued GPU work is counted.
use Cuda\CudaArray;

[, $class, $weights, $inputs, $iters, $name] = $argv;
$args = CudaArray::loadNpz($inputs) + CudaArray::loadNpz($weights);
$m = new $class();
$call = [];
foreach (array_keys($m->inputs()) as $k) $call[$k] = $args[$k];
for ($i = 0; $i < max(3, intdiv((int)$iters, 10)); $i++) $out = $m->run(...$call);
$out['y']->toArray();
$t = hrtime(true);
for ($i = 0; $i < (int)$iters; $i++) $out = $m->run(...$call);
$out['y']->toArray();
$us = (hrtime(true) - $t) / 1e3 / (int)$iters;
echo json_encode(['model' => $name, 'runner' => 'gtc (php, ' . $out['y']->device() . ')', 'us_per_run' => $us]), "\n";
