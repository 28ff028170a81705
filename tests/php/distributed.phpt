--TEST--
Cuda\Distributed in a world of 1 on the CPU backend: rank 0 of 1, identity collectives, the sharding rule, destroy and init again
--INI--
gtc.device=cpu
--ENV--
GTC_DEVICE=cpu
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\{CudaArray, Distributed};

foreach (['RANK', 'WORLD_SIZE', 'LOCAL_RANK', 'LOCAL_WORLD_SIZE', 'GTC_DIST_DIR'] as $v) putenv($v);
var_dump(Distributed::isInitialized());
Distributed::init();
var_dump(Distributed::isInitialized(), Distributed::rank(), Distributed::worldSize(), Distributed::localRank(),
         Distributed::backend());

// every reduction over one rank is the identity (mean divides by 1)
$x = new CudaArray([[1.5, -2.0], [3.25, 4.0]]);
foreach (['sum', 'mean', 'max', 'min'] as $op) {
    Distributed::allReduce($x, $op);
    echo $op, ': '; show($x);
}
$i = new CudaArray([7, -3], 'int64');
Distributed::allReduce($i);
Distributed::allReduce($i, 'max');
show($i);
Distributed::broadcast($x);
Distributed::broadcast($x, 0);
show($x);
Distributed::barrier();

// the sharding rule with a world of 1: every index, the permutation of CudaArray::permutation
// seeded seed + epoch (the same list on every rank), in order without shuffling
echo json_encode(Distributed::shard(6, 0, false)), "\n";
echo json_encode(Distributed::shard(0)), "\n";
var_dump(Distributed::shard(10, 3, true, 5) === CudaArray::permutation(10, 8)->toArray());
var_dump(Distributed::shard(10, 3, true, 5) === Distributed::shard(10, 3, true, 5));
var_dump(Distributed::shard(10, 0) !== Distributed::shard(10, 1));
$s = Distributed::shard(1000, 2, true, 9);
sort($s);
var_dump($s === range(0, 999));

// destroy() leaves the world; init() joins it again
Distributed::destroy();
var_dump(Distributed::isInitialized());
Distributed::destroy(); // harmless twice
putenv('WORLD_SIZE=1');
putenv('RANK=0');
Distributed::init();
var_dump(Distributed::worldSize());
?>
--EXPECT--
bool(false)
bool(true)
int(0)
int(1)
int(0)
NULL
sum: float32 [2,2] [[1.5,-2.0],[3.25,4.0]]
mean: float32 [2,2] [[1.5,-2.0],[3.25,4.0]]
max: float32 [2,2] [[1.5,-2.0],[3.25,4.0]]
min: float32 [2,2] [[1.5,-2.0],[3.25,4.0]]
int64 [2] [7,-3]
float32 [2,2] [[1.5,-2.0],[3.25,4.0]]
[0,1,2,3,4,5]
[]
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
int(1)
