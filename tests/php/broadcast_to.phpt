--TEST--
broadcastTo: a view with zero strides on broadcast axes; incompatible shapes throw
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
$r = new CudaArray([1, 2, 3], 'int32');
$b = $r->broadcastTo([2, 3]);
show($b);
var_dump($b->getStrides() === [0, 1]);
$c = (new CudaArray([[1], [2]], 'int32'))->broadcastTo([2, 2, 4]);
show($c);
echo json_encode($c->getStrides()), "\n";
show(CudaArray::full([], 5, 'int32')->broadcastTo([2, 2]));
show($r->broadcastTo([0, 3]));
show($b->add(1));                                // ops read broadcast views
show($b->sum(0));
throws(fn() => $r->broadcastTo([2, 4]));
throws(fn() => $r->broadcastTo([]));
throws(fn() => $r->broadcastTo([-1, 3]));
?>
--EXPECT--
int32 [2,3] [[1,2,3],[1,2,3]]
bool(true)
int32 [2,2,4] [[[1,1,1,1],[2,2,2,2]],[[1,1,1,1],[2,2,2,2]]]
[0,1,0]
int32 [2,2] [[5,5],[5,5]]
int32 [0,3] []
int32 [2,3] [[2,3,4],[2,3,4]]
int64 [3] [2,4,6]
Cuda\InvalidArgumentException: broadcast_to: cannot broadcast [3] to [2,4]
Cuda\InvalidArgumentException: broadcast_to: cannot broadcast [3] to []
Cuda\InvalidArgumentException: Cuda\CudaArray::broadcastTo(): Argument #1 ($shape) must contain only non-negative dimensions, -1 given
