--TEST--
views: reshape of contiguous, transpose, slice and broadcastTo share storage (strides show it) and read right
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
$a = new CudaArray([[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]], 'int32');
echo json_encode($a->getStrides()), "\n";
$t = $a->transpose();
echo 'transpose ', json_encode($t->getStrides()), "\n";
$s = $a->slice('::2, 1::2');
echo 'slice ', json_encode($s->getShape()), ' ', json_encode($s->getStrides()), "\n";
show($s);
$r = $a->slice('::-1, ::-1');
echo 'reversed ', json_encode($r->getStrides()), "\n";
show($r);
$tt = $t->slice('1:3');                                 // a view of a view
echo 'view of view ', json_encode($tt->getStrides()), "\n";
show($tt);
show($tt->transpose());
$b = $a->slice(':, 1')->broadcastTo([2, 3]);          // the index drop is a reshape of a strided view: still a view
echo 'broadcast ', json_encode($b->getStrides()), "\n";
show($b);
show($r->add($t->transpose()));                         // ops on views
show($s->sum(1));
show($r->astype('float32')->matmul($t->slice(':, 0:1')->astype('float32')));
$keep = $a->slice('1');                                 // a view outlives its base
unset($a, $t, $s, $r, $tt, $b);
show($keep);
?>
--EXPECT--
[4,1]
transpose [1,4]
slice [2,2] [8,2]
int32 [2,2] [[1,3],[9,11]]
reversed [-4,-1]
int32 [3,4] [[11,10,9,8],[7,6,5,4],[3,2,1,0]]
view of view [1,4]
int32 [2,3] [[1,5,9],[2,6,10]]
int32 [3,2] [[1,2],[5,6],[9,10]]
broadcast [0,4]
int32 [2,3] [[1,5,9],[1,5,9]]
int32 [3,4] [[11,11,11,11],[11,11,11,11],[11,11,11,11]]
int64 [2] [4,20]
float32 [3,1] [[52.0],[28.0],[4.0]]
int32 [4] [4,5,6,7]
