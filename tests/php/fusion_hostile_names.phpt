--TEST--
Cuda\Fusion: hostile input, graph, output and donation names from PHP are refused with a clear exception or kept out of the generated code (tests/hostile covers gtc itself)
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
use Cuda\Fusion;
$cache = sys_get_temp_dir() . '/gtc-fusion-hostile-' . getmypid();
putenv("GTC_CACHE_DIR=$cache");
chdir(sys_get_temp_dir());
@unlink('PWNED');
$two = new CudaArray([1, 2]);

echo "input names (array keys of inputs:) that are not identifiers:\n";
foreach (['a"b', 'a\\b', 'a*/b', 'a/*b', "\n#include <stdlib.h>", '"); system("touch PWNED', '$x', '`touch PWNED`',
          'naïve', '', '1x', str_repeat('n', 129), "x\0y", "x\0"] as $k) {
    throws(fn() => Fusion::compile(fn($x) => $x * 2, [$k => [[2], 'float32']]));
}

echo "input names that are identifiers, however they look, compile and run:\n";
foreach (['int', 'class', '__halt_compiler', 'v17', 'gtc_k3', 'gtc_plan', 'zend_object', 'a', 'args',
          str_repeat('n', 128)] as $k) {
    $g = Fusion::compile(fn($x) => $x * 2, [$k => [[2], 'float32']]);
    echo '  ', strlen($k) > 20 ? substr($k, 0, 8) . '...(' . strlen($k) . ')' : $k, ': ',
        fmt($g->run($two)->toArray()), ' ', fmt($g->run(...[$k => $two])->toArray()), "\n";
}
$g = Fusion::compile(fn($x, $X) => ['d' => $x - $X, 'D' => $X - $x], ['x' => [[2], 'float32'], 'X' => [[2], 'float32']]);
foreach ($g->run(x: $two, X: $two * 3) as $k => $t) echo "  x and X: $k ", fmt($t->toArray()), "\n";

echo "graph names:\n";
foreach (['a"b', "fusion\0x", str_repeat('g', 129), '*/'] as $n) {
    throws(fn() => Fusion::compile(fn($x) => $x + 1, ['x' => [[2], 'float32']], $n));
    throws(fn() => Fusion::export(fn($x) => $x + 1, ['x' => [[2], 'float32']], $n));
}
echo '  ', strlen(json_decode(Fusion::export(fn($x) => $x + 1, ['x' => [[2], 'float32']], str_repeat('g', 128)), true)['name']), "\n";

echo "output keys are returned as given; the graph names them with identifiers (a NUL ends a key path):\n";
$f = fn($x) => ['a"); system("touch PWNED' => $x * 2, "b\0c" => $x + 1, '*/' => $x - 1, '' => -$x, '0' => $x];
$g = Fusion::compile($f, ['x' => [[2], 'float32']]);
foreach ($g->run($two) as $k => $t) echo '  ', json_encode((string)$k), ' ', fmt($t->toArray()), "\n";
echo '  ', json_encode(array_keys(json_decode(Fusion::export($f, ['x' => [[2], 'float32']]), true)['outputs'])), "\n";

echo "named run() inputs:\n";
$g = Fusion::compile(fn($x) => $x * 2, ['x' => [[2], 'float32']]);
throws(fn() => $g->run(...["x\0y" => $two]));
throws(fn() => $g->run(...['x"); system("touch PWNED' => $two]));

echo "donate names:\n";
throws(fn() => Fusion::compile(fn($w) => ['w' => $w - 1], ['w' => [[2], 'float32']], 'g', ['w' => "w\0junk"]));
throws(fn() => Fusion::compile(fn($w) => ['w' => $w - 1], ['w' => [[2], 'float32']], 'g', ['w' => 'w"); system("touch PWNED']));

var_dump(file_exists('PWNED'));
foreach (glob("$cache/*") ?: [] as $f) unlink($f);
@rmdir($cache);
?>
--EXPECT--
input names (array keys of inputs:) that are not identifiers:
Cuda\InvalidArgumentException: input name "a"b" is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most 128 characters)
Cuda\InvalidArgumentException: input name "a\b" is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most 128 characters)
Cuda\InvalidArgumentException: input name "a*/b" is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most 128 characters)
Cuda\InvalidArgumentException: input name "a/*b" is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most 128 characters)
Cuda\InvalidArgumentException: input name "
#include <stdlib.h>" is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most 128 characters)
Cuda\InvalidArgumentException: input name ""); system("touch PWNED" is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most 128 characters)
Cuda\InvalidArgumentException: input name "$x" is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most 128 characters)
Cuda\InvalidArgumentException: input name "`touch PWNED`" is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most 128 characters)
Cuda\InvalidArgumentException: input name "naïve" is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most 128 characters)
Cuda\InvalidArgumentException: input name "" is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most 128 characters)
Cuda\InvalidArgumentException: input name "1x" is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most 128 characters)
Cuda\InvalidArgumentException: input name "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn" is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most 128 characters)
Cuda\InvalidArgumentException: input name "x\0..." holds a NUL byte; names are [A-Za-z_][A-Za-z0-9_]*
Cuda\InvalidArgumentException: input name "x\0..." holds a NUL byte; names are [A-Za-z_][A-Za-z0-9_]*
input names that are identifiers, however they look, compile and run:
  int: [2.0,4.0] [2.0,4.0]
  class: [2.0,4.0] [2.0,4.0]
  __halt_compiler: [2.0,4.0] [2.0,4.0]
  v17: [2.0,4.0] [2.0,4.0]
  gtc_k3: [2.0,4.0] [2.0,4.0]
  gtc_plan: [2.0,4.0] [2.0,4.0]
  zend_object: [2.0,4.0] [2.0,4.0]
  a: [2.0,4.0] [2.0,4.0]
  args: [2.0,4.0] [2.0,4.0]
  nnnnnnnn...(128): [2.0,4.0] [2.0,4.0]
  x and X: d [-2.0,-4.0]
  x and X: D [2.0,4.0]
graph names:
Cuda\InvalidArgumentException: graph name "a"b" is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most 128 characters)
Cuda\InvalidArgumentException: graph name "a"b" is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most 128 characters)
Cuda\InvalidArgumentException: graph name "fusion\0..." holds a NUL byte; names are [A-Za-z_][A-Za-z0-9_]*
Cuda\InvalidArgumentException: graph name "fusion\0..." holds a NUL byte; names are [A-Za-z_][A-Za-z0-9_]*
Cuda\InvalidArgumentException: graph name "gggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggg" is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most 128 characters)
Cuda\InvalidArgumentException: graph name "gggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggg" is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most 128 characters)
Cuda\InvalidArgumentException: graph name "*/" is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most 128 characters)
Cuda\InvalidArgumentException: graph name "*/" is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most 128 characters)
  128
output keys are returned as given; the graph names them with identifiers (a NUL ends a key path):
  "a\"); system(\"touch PWNED" [2.0,4.0]
  "b\u0000c" [2.0,3.0]
  "*\/" [0.0,1.0]
  "" [-1.0,-2.0]
  "0" [1.0,2.0]
  ["a____system__touch_PWNED","b","__","out","out_0"]
named run() inputs:
Cuda\InvalidArgumentException: input name "x\0..." holds a NUL byte; names are [A-Za-z_][A-Za-z0-9_]*
Cuda\InvalidArgumentException: unknown input "x"); system("touch PWNED"; Cuda\FusionGraph's inputs are x
donate names:
Cuda\InvalidArgumentException: donate: input name "w\0..." holds a NUL byte; names are [A-Za-z_][A-Za-z0-9_]*
Cuda\InvalidArgumentException: donate: input "w"); system("touch PWNED" does not exist
bool(false)
