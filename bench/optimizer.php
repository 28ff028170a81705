<?php
// bench/optimizer.php: Cuda\Optimizer's step for the 480-256-2 MLP's four parameters, eager
// (op by op) against the same step compiled with Cuda\Fusion::compile (one plan; one CUDA Graph
// on a GPU). Not a test. php -n -d extension=build/gtc.so bench/optimizer.php [N]
// Prints one line per optimizer: microseconds per step, median of 5 repeats of N steps, each
// repeat ended by reading one element (which waits for the device).
use Cuda\CudaArray;
use Cuda\Fusion;
use Cuda\Optimizer;

$n = (int)($argv[1] ?? 200);
$shapes = [[480, 256], [256], [256, 2], [2]];
$p = $g = [];
foreach ($shapes as $i => $s) {
    $p[] = CudaArray::randn($s, seed: $i);
    $g[] = CudaArray::randn($s, seed: 10 + $i);
}
// the state as a flat list of tensors and back (Fusion::compile takes tensors as inputs)
$flat = function (array $st): array {
    $o = [];
    foreach ($st as $v) foreach (is_array($v) ? $v : [$v] as $x) $o[] = $x;
    return $o;
};
$median = function (callable $f) use ($n): float {
    $t = [];
    for ($r = 0; $r < 5; $r++) {
        $t0 = hrtime(true);
        $last = null;
        for ($k = 0; $k < $n; $k++) $last = $f();
        $last['parameters'][3][0];
        $t[] = (hrtime(true) - $t0) / $n / 1000;
    }
    sort($t);
    return $t[2];
};
foreach (['sgd(momentum 0.9)' => Optimizer::sgd(0.01, 0.9), 'adamW' => Optimizer::adamW()] as $name => $opt) {
    $st = $opt->initState($p);
    $np = count($p);
    $graph = Fusion::compile(function (...$a) use ($opt, $np, $st) {
        $s = [];
        $j = 2 * $np;
        foreach ($st as $k => $v) {
            if (is_array($v)) { $s[$k] = array_slice($a, $j, $np); $j += $np; } else { $s[$k] = $a[$j++]; }
        }
        return $opt->step(array_slice($a, 0, $np), array_slice($a, $np, $np), $s);
    }, [...$p, ...$g, ...$flat($st)]);
    $args = [...$p, ...$g, ...$flat($st)];
    for ($k = 0; $k < 5; $k++) { $opt->step($p, $g, $st); $graph->run(...$args); }
    $eager = $median(fn() => $opt->step($p, $g, $st));
    $fused = $median(fn() => $graph->run(...$args));
    printf("%-18s eager %8.1f us/step   Fusion::compile %8.1f us/step   (%s)\n", $name, $eager, $fused,
           $p[0]->device());
}
