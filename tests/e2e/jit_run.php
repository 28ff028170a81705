<?php
/* tests/e2e/jit_run.php: a few training steps of a compiled model with deterministic inputs, for
 * tests/gpu/plan_jit.sh, which runs it in fresh processes with and without GTC_FORCE_JIT:
 *
 *   php -n -d extension=gtc.so -d extension=MODEL.so jit_run.php CLASS [STEPS]
 *
 * The last line is JSON: where the kernels came from (getStats()['kernels'] of this object, and
 * of a second object run once after it), the backend, and the SHA-256 of every output's bytes
 * after the last step (the donated parameters carry each step into the next). */
declare(strict_types=1);

use Cuda\CudaArray;

$class = $argv[1] ?? '';
$steps = (int)($argv[2] ?? 3);
if (!class_exists($class)) {
    fwrite(STDERR, "usage: jit_run.php CLASS [STEPS] (the model's class; load its extension)\n");
    exit(2);
}
$m = new $class();
$in = [];
foreach ($m->inputs() as $name => $i) {
    $in[$name] = $i['shape']
        ? (CudaArray::rand($i['shape'], seed: crc32($name), dtype: $i['dtype']) - 0.5) * 0.1
        : 0.01;
}
$s0 = $m->getStats();
$before = array_key_exists('kernels', $s0) ? $s0['kernels'] : 'missing';
for ($s = 0; $s < $steps; $s++) $out = $m->run(...$in);
$stats = $m->getStats();
$hashes = [];
foreach ($out as $name => $t) $hashes[$name] = hash('sha256', $t->toBuffer());
$m2 = new $class();
$copy = array_map(fn($v) => $v instanceof CudaArray ? clone $v : $v, $in);
$m2->run(...$copy);
echo json_encode([
    'kernels' => $stats['kernels'] ?? 'missing',
    'kernels2' => $m2->getStats()['kernels'] ?? 'missing',
    'before' => $before,
    'backend' => $stats['backend'],
    'loss' => isset($out['loss']) ? $out['loss']->item() : null,
    'outputs' => $hashes,
]), "\n";
