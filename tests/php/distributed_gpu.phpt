--TEST--
Cuda\Distributed in a world of 1 on a CUDA device: NCCL's communicator of one rank (where NCCL loads), identity collectives on device arrays, CPU arrays refused
--SKIPIF--
<?php
putenv('GTC_DEVICE');
ini_set('gtc.device', 'auto');
if ((new Cuda\CudaArray([1]))->device() !== 'cuda:0') die('skip needs a CUDA device');
?>
--ENV--
GTC_DEVICE=
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\{CudaArray, Distributed};

foreach (['RANK', 'WORLD_SIZE', 'LOCAL_RANK', 'LOCAL_WORLD_SIZE', 'GTC_DIST_DIR'] as $v) putenv($v);
ob_start();
phpinfo(INFO_MODULES);
$nccl = preg_match('/^NCCL => \d+\.\d+\.\d+ /m', ob_get_clean()) === 1;
Distributed::init();
var_dump(Distributed::rank(), Distributed::worldSize(), Distributed::backend() === ($nccl ? 'nccl' : null));
$x = new CudaArray([[1.5, -2.0], [3.25, 4.0]]);
foreach (['sum', 'mean', 'max', 'min'] as $op) {
    Distributed::allReduce($x, $op);
    echo $op, ': '; show($x);
}
foreach (['float64', 'bfloat16', 'float16', 'int32', 'int64', 'uint8'] as $dt) {
    $t = (new CudaArray([1, 2, 3]))->astype($dt, casting: 'unsafe');
    Distributed::allReduce($t, 'sum');
    Distributed::broadcast($t);
    echo $dt, ': ', fmt($t->toArray()), "\n";
}
Distributed::barrier();
ini_set('gtc.device', 'cpu');
$cpu = new CudaArray([1.0]);
ini_set('gtc.device', 'auto');
throws(fn() => Distributed::allReduce($cpu));
Distributed::destroy();
Distributed::init(); // a second communicator after the first is gone
Distributed::allReduce($x);
show($x);
?>
--EXPECT--
int(0)
int(1)
bool(true)
sum: float32 [2,2] [[1.5,-2.0],[3.25,4.0]]
mean: float32 [2,2] [[1.5,-2.0],[3.25,4.0]]
max: float32 [2,2] [[1.5,-2.0],[3.25,4.0]]
min: float32 [2,2] [[1.5,-2.0],[3.25,4.0]]
float64: [1.0,2.0,3.0]
bfloat16: [1.0,2.0,3.0]
float16: [1.0,2.0,3.0]
int32: [1,2,3]
int64: [1,2,3]
uint8: [1,2,3]
Cuda\InvalidArgumentException: allReduce: the tensor lives on cpu but the world was joined on cuda
float32 [2,2] [[1.5,-2.0],[3.25,4.0]]
