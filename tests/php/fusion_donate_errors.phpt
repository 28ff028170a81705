--TEST--
Cuda\Fusion donation errors name what the user wrote: the output key path and the input, with both types (not a traced value's internal name); unknown outputs and inputs
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\Fusion;
$w = new CudaArray([1.0, 2.0]);
$x = new CudaArray([[1.0, 2.0]]);
$cases = [
    [fn($w, $x) => ['params' => ['w' => $w + $x]], ['params.w' => 'w']],          // shape
    [fn($w, $x) => ['nw' => ($w * 2)->astype('float64')], ['nw' => 'w']],         // dtype
    [fn($w, $x) => ['nw' => $w * 2], ['other' => 'w']],                            // no such output
    [fn($w, $x) => ['nw' => $w * 2], ['nw' => 'q']],                               // no such input
];
foreach ($cases as [$f, $donate]) {
    try { Fusion::compile($f, ['w' => $w, 'x' => $x], 'g', $donate); echo "MISSED\n"; }
    catch (Cuda\InvalidArgumentException $e) { echo $e->getMessage(), "\n"; }
}
// a good donation still works: the input is updated in place and returned
$g = Fusion::compile(fn($w, $x) => ['params' => ['w' => $w * 2]], ['w' => $w, 'x' => $x], 'g', ['params.w' => 'w']);
$out = $g->run($w, $x);
var_dump($out['params']['w'] === $w, json_encode($w->toArray()));
?>
--EXPECT--
donate: output "params.w" (float32 [1,2]) cannot reuse input "w" (float32 [2]): it needs the same dtype and shape
donate: output "nw" (float64 [2]) cannot reuse input "w" (float32 [2]): it needs the same dtype and shape
donate: output "other" does not exist
donate: input "q" does not exist
bool(true)
string(5) "[2,4]"
