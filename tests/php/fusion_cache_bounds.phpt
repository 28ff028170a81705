--TEST--
Cuda\Fusion's plan cache as php-gpu-tensors' users see it: getCacheStats() counts, cacheHit, clearCache() keeps compiled graphs working, the cache is bounded (least recently used out), captured tensors share a plan
--ENV--
GTC_DEVICE=cpu
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\Fusion;
Fusion::clearCache();
$s0 = Fusion::getCacheStats();
echo implode(',', array_keys($s0)), ' entries ', $s0['entries'], "\n";
$a = new CudaArray([[1, 2], [3, 4]]);
$b = new CudaArray([[5, 6], [7, 8]]);
$first = Fusion::compile(fn($x) => $x * 2 + 1, [$a]);
$second = Fusion::compile(fn($x) => $x * 2 + 1, [$b]);
var_dump($first->getStats()['cacheHit'], $second->getStats()['cacheHit']);
$s = Fusion::getCacheStats();
echo 'compilations ', $s['compilations'] - $s0['compilations'], ', entries ', $s['entries'], ', hits ', $s['hits'] - $s0['hits'], "\n";
$before = Fusion::getCacheStats()['compilations'];
Fusion::run(fn() => $a * 2 + 1);   // the tensors are captured inputs: one plan for both
Fusion::run(fn() => $b * 2 + 1);
echo 'captured: compilations ', Fusion::getCacheStats()['compilations'] - $before, "\n";
Fusion::clearCache();
echo json_encode($first->run($b)->toArray()), ' entries ', Fusion::getCacheStats()['entries'], "\n";
unset($second);
echo json_encode($first->run($a)->toArray()), "\n";
$again = Fusion::compile(fn($x) => $x * 2 + 1, [$a]);   // compiled afresh after the clear
var_dump($again->getStats()['cacheHit']);
// bounded: 300 distinct plans leave at most maxEntries, the oldest evicted; live graphs keep working
$keep = [];
for ($i = 0; $i < 300; $i++) {
    $g = Fusion::compile(fn($x) => $x + $i, [$a]);
    if ($i % 100 === 0) $keep[] = [$i, $g];
}
$s = Fusion::getCacheStats();
var_dump($s['entries'] <= $s['maxEntries'], $s['evictions'] >= 300 - $s['maxEntries'], $s['bytes'] > 0 && $s['bytes'] <= $s['maxBytes']);
foreach ($keep as [$i, $g]) echo $g->run($a)->toArray()[0][0], ' ';
echo "\n";
try { Fusion::compile(function ($x) { Fusion::clearCache(); return $x; }, [$a]); } catch (Cuda\Exception $e) { echo $e->getMessage(), "\n"; }
?>
--EXPECT--
entries,bytes,maxEntries,maxBytes,compilations,hits,misses,evictions entries 0
bool(false)
bool(true)
compilations 1, entries 1, hits 1
captured: compilations 1
[[11,13],[15,17]] entries 0
[[3,5],[7,9]]
bool(false)
bool(true)
bool(true)
bool(true)
1 101 201 
Cuda\Fusion::clearCache(): not supported while Cuda\Fusion is tracing
