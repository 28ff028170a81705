--TEST--
every array's memory is given back: views, temporaries, exceptions, clones, serialisation
--FILE--
<?php
use Cuda\CudaArray;
function used(): int
{
    ob_start();
    phpinfo(INFO_MODULES);
    preg_match('/^Memory used => (\d+) bytes$/m', ob_get_clean(), $m);
    return (int)$m[1];
}
$base = used();
$a = CudaArray::zeros([1000]);                   // 4000 bytes
echo used() - $base, "\n";
$v = $a->reshape([10, 100])->transpose()->slice('1:3');
echo used() - $base, "\n";                       // views allocate nothing
for ($i = 0; $i < 50; $i++) {
    $t = ($a + $i) * 2 - $a->sum();
    $c = clone $v;
    $u = unserialize(serialize($t));
    $h = $t->toHost()->toDevice();
    try { $a->add(CudaArray::zeros([3])); } catch (Cuda\Exception $e) {}
    try { new CudaArray([[1], [1, 2]]); } catch (Cuda\Exception $e) {}
    try { $a->reshape([7]); } catch (Cuda\Exception $e) {}
    $a += 0;
}
unset($t, $c, $u, $h, $e);
echo used() - $base, "\n";                       // the new $a, and the old storage $v holds
unset($a);
echo used() - $base, "\n";
unset($v);
echo used() - $base, "\n";
?>
--EXPECT--
4000
4000
8000
4000
0
