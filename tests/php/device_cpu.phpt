--TEST--
gtc.device=cpu: every array reports the cpu device
--INI--
gtc.device=cpu
--ENV--
GTC_DEVICE=
--FILE--
<?php
use Cuda\CudaArray;
var_dump(ini_get('gtc.device'));
var_dump((new CudaArray([1]))->device(), CudaArray::zeros([2])->device(), CudaArray::rand([2], 1)->device());
var_dump(Cuda\HostArray::fromArray([1])->toDevice()->device());
var_dump(@ini_set('gtc.device', 'tpu'), ini_get('gtc.device'));
var_dump(ini_set('gtc.device', 'auto'), in_array((new CudaArray([1]))->device(), ['cpu', 'cuda:0'], true));
?>
--EXPECT--
string(3) "cpu"
string(3) "cpu"
string(3) "cpu"
string(3) "cpu"
string(3) "cpu"
bool(false)
string(3) "cpu"
string(3) "cpu"
bool(true)
