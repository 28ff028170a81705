<?php
// tests/gpu/dist_check.php: one rank of tests/gpu/distributed.sh's world (run by `gtc run`):
// NCCL collectives with known answers for any world size, and the sharding rule across ranks.
use Cuda\{CudaArray, Distributed};
Distributed::init();
$r = Distributed::rank();
$w = Distributed::worldSize();
$ok = true;
$expect = function (string $what, $got, $want) use (&$ok, $r) {
    if ($got !== $want) {
        $ok = false;
        fprintf(STDERR, "rank %d: %s: got %s, want %s\n", $r, $what, json_encode($got), json_encode($want));
    }
};
$expect('device', (new CudaArray([1]))->device(), "cuda:" . Distributed::localRank());
$expect('backend', Distributed::backend(), 'nccl');
$x = new CudaArray([$r + 1.0, -($r + 1.0), 2.0 * $r]);
Distributed::allReduce($x, 'sum');
$s = $w * ($w + 1) / 2;
$expect('sum', $x->toArray(), [(float)$s, (float)-$s, (float)($w * ($w - 1))]);
$m = new CudaArray([$r + 1.0]);
Distributed::allReduce($m, 'mean');
$expect('mean', $m->toArray(), [($w + 1) / 2.0]);
foreach (['max' => $w - 1, 'min' => 0] as $op => $want) {
    $t = new CudaArray([$r], 'int64');
    Distributed::allReduce($t, $op);
    $expect($op, $t->toArray(), [$want]);
}
$b = new CudaArray([[$r * 10.0, 1.0]]);
Distributed::broadcast($b, $w - 1);
$expect('broadcast', $b->toArray(), [[($w - 1) * 10.0, 1.0]]);
// every rank's shard, gathered through an all-reduce of a one-hot count
$n = 37;
$mine = Distributed::shard($n, 3, true, 11);
$expect('shard count', count($mine), intdiv($n + $w - 1, $w));
$hits = array_fill(0, $n, 0);
foreach ($mine as $i) $hits[$i]++;
$count = new CudaArray($hits, 'int32');
Distributed::allReduce($count);
$seen = $count->toArray();
$expect('every index seen', min($seen) >= 1, true);
$expect('padding', array_sum($seen), intdiv($n + $w - 1, $w) * $w);
Distributed::barrier();
Distributed::destroy();
echo $ok ? "rank $r of $w: ok\n" : "rank $r of $w: FAILED\n";
exit($ok ? 0 : 1);
