--TEST--
slice: a start before the first element with a negative step selects nothing in the Python forms (as NumPy: np.arange(3)[-4::-1] is empty), one element in the ONNX-style named lists; messages escape what they quote
--FILE--
<?php
// found by tests/fuzz/fuzz_runtime.c (the slice text against Python's slicing)
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
$a = CudaArray::arange(3);
// expected values from NumPy: a[-4::-1] [], a[-10:-20:-1] [], a[-3::-1] [0], a[5:-10:-1] [2,1,0], a[-4:1:-1] []
foreach (['-4::-1', '-10:-20:-1', '-3::-1', '5:-10:-1', '-4:1:-1', '-9223372036854775808::-1'] as $s)
    echo str_pad($s, 26), json_encode($a->slice($s)->toArray()), ' ', json_encode($a->slice(array_map(
        fn($v) => $v === '' ? null : (int)$v, explode(':', $s)))->toArray()), "\n";
$m = CudaArray::arange(6)->reshape([2, 3]);
echo json_encode($m->slice(null, '-4::-1')->toArray()), "\n";           // [[],[]]
echo json_encode($m->slice('..., -5:0:-1')->toArray()), "\n";           // [[],[]]
// the ONNX-style named lists clamp the start to 0 (docs/compat.md): one element
echo json_encode($a->slice(starts: [-4], ends: [PHP_INT_MIN], steps: [-1])->toArray()), "\n";
// a quoted spec never shows a control character, an invisible one or a byte that is not UTF-8
foreach (["a\tb", "1\n:2", "\u{202e}1", "\x80"] as $s) throws(fn() => $a->slice($s));
?>
--EXPECT--
-4::-1                    [] []
-10:-20:-1                [] []
-3::-1                    [0] [0]
5:-10:-1                  [2,1,0] [2,1,0]
-4:1:-1                   [] []
-9223372036854775808::-1  [] []
[[],[]]
[[],[]]
[0]
Cuda\InvalidArgumentException: slice: "a\x09b" is not an index in "a\x09b"
Cuda\InvalidArgumentException: slice: "1\x0a" is not an integer in "1\x0a:2"
Cuda\InvalidArgumentException: slice: "\u202e1" is not an index in "\u202e1"
Cuda\InvalidArgumentException: slice: "\x80" is not an index in "\x80"
