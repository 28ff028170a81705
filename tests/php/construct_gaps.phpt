--TEST--
new CudaArray / HostArray from lists with gaps (what array_filter() and unset() leave): int keys in increasing order are read in order, at every depth; string keys and keys out of order are refused
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\HostArray;
$h = [0 => 1, 1 => 99, 2 => 3];
unset($h[1]);
echo json_encode((new CudaArray($h, 'int32'))->toArray()), "\n";
echo json_encode((new CudaArray(array_filter([5, 0, 6, 0, 7]), 'int64'))->toArray()), "\n";
$rows = [[1, 2], [3, 4], [5, 6]];
unset($rows[0]);
$rows[2] = array_filter([0, 8, 9]);
echo json_encode((new CudaArray($rows))->getShape()), ' ', json_encode((new HostArray($rows, 'int32'))->toArray()), "\n";
foreach ([['a' => 1, 'b' => 2], [1 => 1, 0 => 2], [[1, 2], [5 => 3, 2 => 4]]] as $bad) {
    try { new CudaArray($bad); echo "MISSED\n"; } catch (Cuda\InvalidArgumentException $e) { echo $e->getMessage(), "\n"; }
}
?>
--EXPECT--
[1,3]
[5,6,7]
[2,2] [[3,4],[8,9]]
$data must be a list: int keys in increasing order (keys with gaps, as array_filter() or unset() leave them, are read in order)
$data must be a list: int keys in increasing order (keys with gaps, as array_filter() or unset() leave them, are read in order)
$data[1] must be a list: int keys in increasing order (keys with gaps, as array_filter() or unset() leave them, are read in order)
