--TEST--
slice spec strings: every malformed spec throws with the spec in the message
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
$a = CudaArray::zeros([3, 4]);
foreach (['a', '1:b', '1:2:3:4', '1,,2', '1,', ',', '1, 2, 3', '..., ...', '3', '-4', '0, 4', '::0', '1.5', '1 2', '--1', '+', '99999999999999999999', "1\0"] as $s) {
    echo str_pad(json_encode($s), 24);
    throws(fn() => $a->slice($s));
}
throws(fn() => $a->slice('1:2', [3]));
throws(fn() => $a->slice('1:2', null, [1]));
throws(fn() => $a->slice('1:2', axes: [0]));
throws(fn() => $a->slice(1));
?>
--EXPECT--
"a"                     Cuda\InvalidArgumentException: slice: "a" is not an index in "a"
"1:b"                   Cuda\InvalidArgumentException: slice: "b" is not an integer in "1:b"
"1:2:3:4"               Cuda\InvalidArgumentException: slice: "1:2:3:4" has more than two ':' in "1:2:3:4"
"1,,2"                  Cuda\InvalidArgumentException: slice: empty index 1 in "1,,2"
"1,"                    Cuda\InvalidArgumentException: slice: empty index 1 in "1,"
","                     Cuda\InvalidArgumentException: slice: empty index 0 in ","
"1, 2, 3"               Cuda\InvalidArgumentException: slice: 3 indices for rank 2 in "1, 2, 3"
"..., ..."              Cuda\InvalidArgumentException: slice: more than one "..." in "..., ..."
"3"                     Cuda\InvalidArgumentException: slice: index 3 is out of range for axis 0 of size 3
"-4"                    Cuda\InvalidArgumentException: slice: index -4 is out of range for axis 0 of size 3
"0, 4"                  Cuda\InvalidArgumentException: slice: index 4 is out of range for axis 1 of size 4
"::0"                   Cuda\InvalidArgumentException: slice: step is 0 on axis 0 in "::0"
"1.5"                   Cuda\InvalidArgumentException: slice: "1.5" is not an index in "1.5"
"1 2"                   Cuda\InvalidArgumentException: slice: "1 2" is not an index in "1 2"
"--1"                   Cuda\InvalidArgumentException: slice: "--1" is not an index in "--1"
"+"                     Cuda\InvalidArgumentException: slice: "+" is not an index in "+"
"99999999999999999999"  Cuda\InvalidArgumentException: slice: "99999999999999999999" is not an index in "99999999999999999999"
"1\u0000"               Cuda\InvalidArgumentException: slice: the spec contains a NUL byte
Cuda\InvalidArgumentException: slice: selector 2 must be [start, end] or [start, end, step] of ints (null for a default)
Cuda\InvalidArgumentException: slice: 3 selectors for a rank-2 array
ArgumentCountError: Cuda\CudaArray::slice(): pass either per-axis selectors (positional) or the named lists starts:, ends:, steps:, axes:, not both
no exception
