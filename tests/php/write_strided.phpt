--TEST--
$t[i] = ... writes through views of any layout: rows of stepped slices, of transposed arrays, of negative-step slices, nested rows; a source overlapping the destination (another row of the same array, the row itself reversed) is read whole first; every dtype; same results on CPU and CUDA
--FILE--
<?php
use Cuda\CudaArray;
$j = fn($x) => json_encode($x->toArray());
$a = CudaArray::fromFlatArray(range(0, 11), [3, 4]);
$s = $a->slice('::2, ::2');                 // rows 0 and 2, columns 0 and 2
$s[1] = new CudaArray([80, 100]);
echo $j($a), "\n";
$s[1][1] = 7;                               // a row of a row
echo $j($a), "\n";
$s[0] = $s[1];                              // overlapping source: another row of the same array
echo $j($a), "\n";
$t = $a->transpose();                       // rows of the transpose are columns
$t[3] = -1;
echo $j($a), "\n";
$r = $a->slice('::-1, ::-1');               // negative steps
$r[0] = new CudaArray([1, 2, 3, 4]);
echo $j($a), "\n";
$row = $a[1];
$rev = $row->slice('::-1');
$a[1] = $rev;                               // the row itself, reversed: read whole before written
echo $j($a), "\n";
foreach (['int8', 'uint16', 'int64', 'float64', 'bool'] as $dt) {
    $m = CudaArray::zeros([2, 3], $dt);
    $mt = $m->transpose();
    $mt[1] = 1;
    echo $dt, ' ', $j($m), "\n";
}
// shapes still checked, and a broadcast view is refused
try { $s[0] = new CudaArray([1, 2, 3]); } catch (Cuda\Exception $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
try { $b = $a[0]->broadcastTo([2, 4]); $b[1] = 0; } catch (Cuda\Exception $e) { echo $e->getMessage(), "\n"; }
?>
--EXPECT--
[[0,1,2,3],[4,5,6,7],[80,9,100,11]]
[[0,1,2,3],[4,5,6,7],[80,9,7,11]]
[[80,1,7,3],[4,5,6,7],[80,9,7,11]]
[[80,1,7,-1],[4,5,6,-1],[80,9,7,-1]]
[[80,1,7,-1],[4,5,6,-1],[4,3,2,1]]
[[80,1,7,-1],[-1,6,5,4],[4,3,2,1]]
int8 [[0,1,0],[0,1,0]]
uint16 [[0,1,0],[0,1,0]]
int64 [[0,1,0],[0,1,0]]
float64 [[0,1,0],[0,1,0]]
bool [[false,true,false],[false,true,false]]
Cuda\InvalidArgumentException: broadcast_to: cannot broadcast [3] to [2]
cannot write through $t[1]: $t is a broadcast view, whose rows share elements; write to a copy
