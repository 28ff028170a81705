--TEST--
clone gives an independent contiguous copy, also of views
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
$a = new CudaArray([[1, 2, 3], [4, 5, 6]], 'int64');
$c = clone $a;
show($c);
var_dump($c !== $a, $c->getStrides());
$t = clone $a->transpose();
show($t);
echo json_encode($t->getStrides()), "\n";                 // contiguous again
$s = clone $a->slice('::-1, 1');
show($s);
echo json_encode($s->getStrides()), "\n";
$b = clone CudaArray::full([], 3)->broadcastTo([2, 2]);
echo json_encode($b->getStrides()), "\n";
unset($a);
show($c);
$h = Cuda\HostArray::fromArray([1, 2]);
$h2 = clone $h;
var_dump($h2->toArray());
?>
--EXPECT--
int64 [2,3] [[1,2,3],[4,5,6]]
bool(true)
array(2) {
  [0]=>
  int(3)
  [1]=>
  int(1)
}
int64 [3,2] [[1,4],[2,5],[3,6]]
[2,1]
int64 [2] [5,2]
[1]
[2,1]
int64 [2,3] [[1,2,3],[4,5,6]]
array(2) {
  [0]=>
  float(1)
  [1]=>
  float(2)
}
