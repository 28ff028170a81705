--TEST--
saveNpz/loadNpz: every dtype, rank 0, empty arrays, views, HostArray, compressed, key order; bad arguments
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\HostArray;
$f = sys_get_temp_dir() . '/gtc_npz_rt_' . getmypid() . '.npz';
$dts = ['bool', 'int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'uint64', 'float32', 'float64'];
$t = [];
foreach ($dts as $dt) $t[$dt] = CudaArray::arange(6, dtype: $dt === 'bool' ? 'int64' : $dt)->astype($dt, casting: 'unsafe')->reshape([2, 3]);
$t['scalar'] = CudaArray::full([], 3.5);
$t['empty'] = CudaArray::zeros([0, 4], 'int32');
$t['view'] = CudaArray::arange(12, dtype: 'float32')->reshape([3, 4])->transpose();
$t['layer1/w'] = CudaArray::ones([2]);
foreach ([false, true] as $compress) {
    CudaArray::saveNpz($f, $t, $compress);
    $back = CudaArray::loadNpz($f);
    echo ($compress ? 'compressed' : 'stored'), ': ', implode(',', array_keys($back)) === implode(',', array_keys($t)) ? 'same keys in order' : 'keys differ', "\n";
    foreach ($t as $k => $v) {
        $b = $back[$k];
        if ($b->dtype() !== $v->dtype() || $b->getShape() !== $v->getShape() || $b->toArray() !== $v->toArray())
            echo "MISMATCH $k\n";
    }
}
echo $back['scalar']->item(), ' ', json_encode($back['empty']->getShape()), ' ', json_encode($back['view']->toArray()[0]), "\n";
CudaArray::saveNpz($f, ['h' => HostArray::fromArray([1, 2, 3])]);
echo json_encode(CudaArray::loadNpz($f)['h']->toArray()), "\n";
CudaArray::saveNpz($f, []);
var_dump(CudaArray::loadNpz($f), filesize($f));
CudaArray::saveNpz($f, [5 => CudaArray::ones([1])]);
echo json_encode(array_keys(CudaArray::loadNpz($f))), "\n";
foreach ([['../x' => $t['scalar']], ['/abs' => $t['scalar']], ['' => $t['scalar']], ['a\\b' => $t['scalar']],
          ['a//b' => $t['scalar']], ['x' => 1], ['x' => new stdClass]] as $bad) {
    try { CudaArray::saveNpz($f, $bad); echo "no error\n"; }
    catch (Cuda\Exception $e) { echo get_class($e), ': ', str_replace($f, 'F', $e->getMessage()), "\n"; }
}
foreach (['php://memory', '/nonexistent/dir/x.npz', sys_get_temp_dir()] as $p) {
    try { CudaArray::loadNpz($p); echo "no error\n"; }
    catch (Cuda\Exception $e) { echo get_class($e), ': ', str_replace(sys_get_temp_dir(), 'TMP', $e->getMessage()), "\n"; }
}
@unlink($f);
?>
--EXPECTF--
stored: same keys in order
compressed: same keys in order
3.5 [0,4] [0,4,8]
[1,2,3]
array(0) {
}
int(22)
["5"]
Cuda\InvalidArgumentException: saveNpz: F: the name "../x" has a "." or ".." path component
Cuda\InvalidArgumentException: saveNpz: F: the name "/abs" is an absolute path
Cuda\InvalidArgumentException: saveNpz: F: the name "" is empty
Cuda\InvalidArgumentException: saveNpz: F: the name "a\b" holds a backslash
Cuda\InvalidArgumentException: saveNpz: F: the name "a//b" has an empty path component
Cuda\InvalidArgumentException: saveNpz: "x" must be a Cuda\CudaArray or Cuda\HostArray, int given
Cuda\InvalidArgumentException: saveNpz: "x" must be a Cuda\CudaArray or Cuda\HostArray, stdClass given
Cuda\InvalidArgumentException: loadNpz: php://memory: stream wrappers are not supported; give a local file path
Cuda\RuntimeException: loadNpz: cannot open /nonexistent/dir/x.npz for reading: No such file or directory
Cuda\InvalidArgumentException: loadNpz: TMP is not a regular file
