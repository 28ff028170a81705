--TEST--
astype's $casting (NumPy's np.can_cast rules): 'same_kind' by default refuses float to int and int or float to bool with Cuda\InvalidArgumentException; 'safe', 'equiv', 'no'; 'unsafe' converts; checked on dtypes, so a traced astype refuses the same
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
use Cuda\Fusion;
$dts = ['bool', 'int32', 'int64', 'float32', 'float64'];
foreach (['no', 'equiv', 'safe', 'same_kind', 'unsafe'] as $casting) {
    echo str_pad($casting, 10);
    foreach ($dts as $from) {
        $a = CudaArray::ones([2], $from);
        $row = '';
        foreach ($dts as $to) {
            try { $a->astype($to, $casting); $row .= 'y'; }
            catch (Cuda\InvalidArgumentException $e) { $row .= '.'; }
        }
        echo ' ', $row;
    }
    echo "\n";
}
show((new CudaArray([1, 2], 'int64'))->astype('float32'));       // same_kind: int to float
show((new CudaArray([true, false], 'bool'))->astype('int32'));
show((new CudaArray([2.7, -1.5, NAN]))->astype('int32', casting: 'unsafe'));
throws(fn() => (new CudaArray([1.0]))->astype('int32'));
throws(fn() => (new CudaArray([1], 'int32'))->astype('bool'));
throws(fn() => (new CudaArray([1.0]))->astype('int32', 'Unsafe'));
$x = new CudaArray([1.5, 2.5]);
throws(fn() => Fusion::compile(fn($t) => $t->astype('int32'), [$x]));
$g = Fusion::compile(fn($t) => $t->astype('int32', casting: 'unsafe') + 1, [$x]);
show($g->run($x));
?>
--EXPECT--
no         y.... .y... ..y.. ...y. ....y
equiv      y.... .y... ..y.. ...y. ....y
safe       yyyyy .yy.y ..y.y ...yy ....y
same_kind  yyyyy .yyyy .yyyy ...yy ...yy
unsafe     yyyyy yyyyy yyyyy yyyyy yyyyy
float32 [2] [1.0,2.0]
int32 [2] [1,0]
int32 [3] [2,-1,0]
Cuda\InvalidArgumentException: astype: unsafe cast from float32 to int32 under casting 'same_kind'; pass casting: 'unsafe' for the saturating conversion
Cuda\InvalidArgumentException: astype: unsafe cast from int32 to bool under casting 'same_kind'; pass casting: 'unsafe' for the saturating conversion
ValueError: Cuda\CudaArray::astype(): Argument #2 ($casting) must be one of "no", "equiv", "safe", "same_kind", "unsafe"
Cuda\InvalidArgumentException: astype: unsafe cast from float32 to int32 under casting 'same_kind'; pass casting: 'unsafe' for the saturating conversion
int32 [2] [2,3]
