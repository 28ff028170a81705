--TEST--
Runtime messages escape control and invisible format characters that come from the caller (bidi overrides, zero-width characters, ANSI escapes), so an exception message never reorders or hides what a terminal shows
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\Fusion;
function show(callable $f): void {
    try { $f(); echo "MISSED\n"; }
    catch (Throwable $e) {
        $m = $e->getMessage();
        echo get_class($e), ': ', $m, "\n";
        if (preg_match('/[\x00-\x1f\x7f]|\xe2\x80[\x8b-\x8f\xaa-\xae]|\xe2\x81[\xa6-\xa9]|\xef\xbb\xbf/', $m)) echo "RAW CHARACTER LEFT\n";
    }
}
show(fn() => Fusion::compile(fn($x) => $x, ["a\u{202E}b" => [[1], 'float32']]));
show(fn() => Fusion::compile(fn($x) => $x, ["z\u{200B}w\u{2066}" => [[1], 'float32']]));
show(fn() => CudaArray::fromFile("/no/such\x1b[31mfile", [1]));
show(fn() => CudaArray::fromNpy("/no/such\u{FEFF}\u{202D}file.npy"));
// visible text is untouched
show(fn() => CudaArray::fromFile("/no/such/café", [1]));
?>
--EXPECT--
Cuda\InvalidArgumentException: input name "a\u202eb" is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most 128 characters)
Cuda\InvalidArgumentException: input name "z\u200bw\u2066" is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most 128 characters)
Cuda\RuntimeException: fromFile: cannot open /no/such\x1b[31mfile for reading: No such file or directory
Cuda\RuntimeException: fromNpy: cannot open /no/such\ufeff\u202dfile.npy for reading: No such file or directory
Cuda\RuntimeException: fromFile: cannot open /no/such/café for reading: No such file or directory
