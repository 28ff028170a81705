--TEST--
comparisons eq ne lt le gt ge give bool arrays, computed in the promoted dtype
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
$a = new CudaArray([1, 2, 3]);
$b = new CudaArray([3, 2, 1]);
show($a->eq($b));
show($a->ne($b));
show($a->lt($b));
show($a->le($b));
show($a->gt($b));
show($a->ge($b));
$i = new CudaArray([0, 1, 2], 'int32');
show($i->gt(0.5));                  // int vs float constant compares as float
show($i->eq(1));
show($i->lt(new CudaArray([0.5, 1.5, 2.5], 'float64')));
show((new CudaArray([NAN]))->eq(new CudaArray([NAN])));
show((new CudaArray([NAN]))->ne(new CudaArray([NAN])));
show((new CudaArray([true, false], 'bool'))->eq(new CudaArray([true, true], 'bool')));
show($a->eq(new CudaArray([[1], [3]])));   // broadcasting
?>
--EXPECT--
bool [3] [false,true,false]
bool [3] [true,false,true]
bool [3] [true,false,false]
bool [3] [true,true,false]
bool [3] [false,false,true]
bool [3] [false,true,true]
bool [3] [false,true,true]
bool [3] [false,true,false]
bool [3] [true,true,true]
bool [1] [false]
bool [1] [true]
bool [2] [true,false]
bool [2,3] [[true,false,false],[false,false,true]]
