--TEST--
HostArray / ContiguousArray serialize and unserialize (php-gpu-tensors' ContiguousArray is serializable), in CudaArray's format: either class reads the other's data; bad data is refused
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\HostArray;
use Cuda\ContiguousArray;
$h = new ContiguousArray([[1, 2, 3], [4, 5, 6]], 'int32');
$s = serialize($h);
$back = unserialize($s);
echo get_class($back), ' ', $back->getDtype(), ' ', json_encode($back->getShape()), ' ', json_encode($back->toArray()), "\n";
// a strided host array (from a transposed device array) serializes its values in C order
$t = (new CudaArray([[1.5, 2.5], [3.5, 4.5]]))->transpose()->toHost();
echo json_encode(unserialize(serialize($t))->toArray()), "\n";
// rank 0, empty, bool
foreach ([CudaArray::full([], 7, 'int64')->toHost(), CudaArray::zeros([2, 0])->toHost(), HostArray::fromArray([true, false], 'bool')] as $x) {
    $y = unserialize(serialize($x));
    echo $y->getDtype(), ' ', json_encode($y->getShape()), ' ', json_encode($y->toArray()), "\n";
}
// the two classes share the format: a CudaArray's data unserializes as a HostArray and back
$c = new CudaArray([[1, 2], [3, 4]], 'float64');
$asHost = unserialize(str_replace('O:14:"Cuda\CudaArray"', 'O:14:"Cuda\HostArray"', serialize($c)));
echo get_class($asHost), ' ', json_encode($asHost->toArray()), "\n";
$asDevice = unserialize(str_replace('O:14:"Cuda\HostArray"', 'O:14:"Cuda\CudaArray"', serialize($asHost)));
echo get_class($asDevice), ' ', json_encode($asDevice->toArray()), "\n";
// bad data
$bad = [
    'missing key' => ['dtype' => 'float32', 'shape' => [1]],
    'bad dtype' => ['dtype' => 'float128', 'shape' => [1], 'data' => 'xxxx'],
    'short data' => ['dtype' => 'float32', 'shape' => [2], 'data' => 'xxxx'],
    'negative dim' => ['dtype' => 'float32', 'shape' => [-1], 'data' => ''],
];
foreach ($bad as $what => $data) {
    try {
        unserialize('O:14:"Cuda\HostArray"' . substr(serialize($data), 1));
        echo "$what: MISSED\n";
    } catch (Cuda\Exception $e) { echo "$what: ", $e->getMessage(), "\n"; }
}
try { $h->__unserialize(['dtype' => 'int32', 'shape' => [1], 'data' => "\0\0\0\0"]); } catch (Error $e) { echo $e->getMessage(), "\n"; }
?>
--EXPECT--
Cuda\HostArray int32 [2,3] [[1,2,3],[4,5,6]]
[[1.5,3.5],[2.5,4.5]]
int64 [] [7]
float32 [2,0] [[],[]]
bool [2] [true,false]
Cuda\HostArray [[1,2],[3,4]]
Cuda\CudaArray [[1,2],[3,4]]
missing key: Invalid serialization data for Cuda\HostArray object: expected the keys dtype, shape and data
bad dtype: Invalid serialization data for Cuda\HostArray object: dtype is not a dtype name
short data: Invalid serialization data for Cuda\HostArray object: data must be a string of 8 bytes
negative dim: Invalid serialization data for Cuda\HostArray object: shape[0] must be an int from 0 to 2^31-1
Cannot unserialize an initialized Cuda\HostArray
