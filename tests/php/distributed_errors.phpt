--TEST--
Cuda\Distributed refuses bad arguments, bad launcher variables, calls before init(), a world over 1 on the CPU backend and collectives while tracing
--INI--
gtc.device=cpu
--ENV--
GTC_DEVICE=cpu
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\{CudaArray, Distributed, Fusion};

foreach (['RANK', 'WORLD_SIZE', 'LOCAL_RANK', 'LOCAL_WORLD_SIZE', 'GTC_DIST_DIR', 'GTC_DIST_TIMEOUT'] as $v) putenv($v);
$x = new CudaArray([1.0, 2.0]);
echo "-- before init\n";
throws(fn() => Distributed::rank());
throws(fn() => Distributed::worldSize());
throws(fn() => Distributed::localRank());
throws(fn() => Distributed::barrier());
throws(fn() => Distributed::allReduce($x));
throws(fn() => Distributed::broadcast($x));
throws(fn() => Distributed::shard(4));

echo "-- the environment\n";
$cases = [
    ['RANK=2', 'WORLD_SIZE=2'], ['RANK=x'], ['RANK=-1'], ['RANK=1.0', 'WORLD_SIZE=2'], ['RANK= 1', 'WORLD_SIZE=2'],
    ['WORLD_SIZE=0'], ['WORLD_SIZE=99999999999'], ['LOCAL_RANK=1'], ['WORLD_SIZE=2', 'LOCAL_WORLD_SIZE=3'],
    ['GTC_DIST_TIMEOUT=0'], ['GTC_DIST_TIMEOUT=soon'],
    ['WORLD_SIZE=2', 'RANK=1', 'GTC_DIST_DIR=/tmp'],
];
foreach ($cases as $env) {
    foreach ($env as $kv) putenv($kv);
    echo implode(' ', $env), ': ';
    throws(fn() => Distributed::init());
    foreach ($env as $kv) putenv(explode('=', $kv)[0]);
}
var_dump(Distributed::isInitialized());

echo "-- arguments\n";
Distributed::init();
throws(fn() => Distributed::init());
throws(fn() => Distributed::allReduce($x, 'avg'));
throws(fn() => Distributed::allReduce($x, "sum\0"));
throws(fn() => Distributed::allReduce(new CudaArray([1, 2], 'int32'), 'mean'));
throws(fn() => Distributed::allReduce((new CudaArray([[1.0, 2.0], [3.0, 4.0]]))->transpose()));
throws(fn() => Distributed::broadcast($x, 1));
throws(fn() => Distributed::broadcast($x, -1));
throws(fn() => Distributed::shard(-1));
throws(fn() => Distributed::shard(1 << 41));
throws(fn() => Distributed::shard(4, -1));
throws(fn() => Distributed::allReduce([1.0]));

echo "-- tracing\n";
throws(fn() => Fusion::compile(function ($a) { Distributed::allReduce($a); return $a; }, ['a' => [[2], 'float32']]));
throws(fn() => Fusion::compile(function ($a) { Distributed::barrier(); return $a * 2; }, ['a' => [[2], 'float32']]));
var_dump(Fusion::isTracing());
?>
--EXPECT--
-- before init
Cuda\RuntimeException: the distributed world is not initialised: call Cuda\Distributed::init() first
Cuda\RuntimeException: the distributed world is not initialised: call Cuda\Distributed::init() first
Cuda\RuntimeException: the distributed world is not initialised: call Cuda\Distributed::init() first
Cuda\RuntimeException: the distributed world is not initialised: call Cuda\Distributed::init() first
Cuda\RuntimeException: the distributed world is not initialised: call Cuda\Distributed::init() first
Cuda\RuntimeException: the distributed world is not initialised: call Cuda\Distributed::init() first
Cuda\RuntimeException: the distributed world is not initialised: call Cuda\Distributed::init() first
-- the environment
RANK=2 WORLD_SIZE=2: Cuda\RuntimeException: RANK=2 is not below WORLD_SIZE=2 (ranks count from 0)
RANK=x: Cuda\RuntimeException: RANK="x" is not a whole number from 0 to 65536
RANK=-1: Cuda\RuntimeException: RANK="-1" is not a whole number from 0 to 65536
RANK=1.0 WORLD_SIZE=2: Cuda\RuntimeException: RANK="1.0" is not a whole number from 0 to 65536
RANK= 1 WORLD_SIZE=2: Cuda\RuntimeException: RANK=" 1" is not a whole number from 0 to 65536
WORLD_SIZE=0: Cuda\RuntimeException: WORLD_SIZE="0" is not a whole number from 1 to 65536
WORLD_SIZE=99999999999: Cuda\RuntimeException: WORLD_SIZE="99999999999" is not a whole number from 1 to 65536
LOCAL_RANK=1: Cuda\RuntimeException: LOCAL_RANK=1 is not below LOCAL_WORLD_SIZE=1
WORLD_SIZE=2 LOCAL_WORLD_SIZE=3: Cuda\RuntimeException: LOCAL_WORLD_SIZE=3 is larger than WORLD_SIZE=2
GTC_DIST_TIMEOUT=0: Cuda\RuntimeException: GTC_DIST_TIMEOUT="0" is not a number of seconds from 0 to 86400 (more than 0)
GTC_DIST_TIMEOUT=soon: Cuda\RuntimeException: GTC_DIST_TIMEOUT="soon" is not a number of seconds from 0 to 86400 (more than 0)
WORLD_SIZE=2 RANK=1 GTC_DIST_DIR=/tmp: Cuda\RuntimeException: WORLD_SIZE=2: the cpu backend has no collective library, so it runs a world of 1 only (data-parallel runs need CUDA devices and NCCL)
bool(false)
-- arguments
Cuda\RuntimeException: the distributed world is already initialised (rank 0 of 1); destroy() it first
ValueError: Cuda\Distributed::allReduce(): Argument #2 ($op) must be "sum", "mean", "max" or "min"
ValueError: Cuda\Distributed::allReduce(): Argument #2 ($op) must be "sum", "mean", "max" or "min"
Cuda\InvalidArgumentException: allReduce: mean needs a float tensor, got int32 (use sum)
Cuda\InvalidArgumentException: allReduce: the tensor is a strided view; collectives work in place on contiguous arrays (copy it first)
ValueError: Cuda\Distributed::broadcast(): Argument #2 ($root) must be a rank of this world (0 to 0), 1 given
ValueError: Cuda\Distributed::broadcast(): Argument #2 ($root) must be a rank of this world (0 to 0), -1 given
ValueError: Cuda\Distributed::shard(): Argument #1 ($n) must be from 0 to 2^40, -1 given
ValueError: Cuda\Distributed::shard(): Argument #1 ($n) must be from 0 to 2^40, 2199023255552 given
ValueError: Cuda\Distributed::shard(): Argument #2 ($epoch) must not be negative, -1 given
TypeError: Cuda\Distributed::allReduce(): Argument #1 ($array) must be of type Cuda\CudaArray, array given
-- tracing
Cuda\RuntimeException: Cuda\Distributed::allReduce(): not supported while Cuda\Fusion is tracing
Cuda\RuntimeException: Cuda\Distributed::barrier(): not supported while Cuda\Fusion is tracing
bool(false)
