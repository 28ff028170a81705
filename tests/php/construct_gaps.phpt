--TEST--
new CudaArray / HostArray ignore keys, as php-gpu-tensors does: values are read in order (as array_values() gives them) at every depth, so lists with gaps from array_filter() or unset() work
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
foreach ([['a' => 1, 'b' => 2], [1 => 1, 0 => 2], [[1, 2], [5 => 3, 2 => 4]], ['x' => [1], 'y' => [2]]] as $keyed) {
    echo json_encode((new CudaArray($keyed, 'int32'))->toArray()), "\n";
}
try { new CudaArray(['a' => [1, 2], 'b' => [3]]); } catch (Cuda\InvalidArgumentException $e) { echo $e->getMessage(), "\n"; }
?>
--EXPECT--
[1,3]
[5,6,7]
[2,2] [[3,4],[8,9]]
[1,2]
[1,2]
[[1,2],[3,4]]
[[1],[2]]
ragged array: $data[1] has 1 elements, expected 2
