<?php
// tests/hostile/accept.php: loads the model class named on the command line (compiled by a
// hostile/<case> with gtc compile), runs it once on fixed inputs passed by name, and prints what
// run() returned, so that the case's `accept` file pins the result.
//   php -n -d extension=gtc.so -d extension=./model.so accept.php CLASS
use Cuda\CudaArray;

$cls = $argv[1] ?? '';
if (!class_exists($cls, false)) {
    echo "no class '$cls'\n";
    exit(1);
}
$m = new $cls();
echo "class $cls\n";
$args = [];
$k = 0;
foreach ($m->inputs() as $name => $in) {
    $k++; // input k gets the value k (a scalar input: k / 4)
    $args[$name] = $in['shape'] ? CudaArray::full($in['shape'], $k, $in['dtype']) : $k / 4;
    echo "input $name ", $in['dtype'], ' ', json_encode($in['shape']), "\n";
}
// Values as text: 7 significant digits, INF and NAN spelled out (json_encode refuses them).
function fmt(mixed $v): string
{
    if (is_array($v)) return '[' . implode(',', array_map('fmt', $v)) . ']';
    if (is_float($v) && is_nan($v)) return 'NAN';
    if (is_float($v) && is_infinite($v)) return $v > 0 ? 'INF' : '-INF';
    return is_bool($v) ? var_export($v, true) : sprintf('%.7g', $v);
}

$out = $m->run(...$args); // by name: the names are PHP named arguments
foreach ($out as $name => $t) {
    echo "output $name ", $t->dtype(), ' ', json_encode($t->getShape()), ' ', fmt($t->toArray()), "\n";
}
