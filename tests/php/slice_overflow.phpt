--TEST--
slice steps at the ends of the 64-bit range: an axis of one element takes the input's stride whatever the step (no wrapped strides), as NumPy's a[::-2**63]; a view's stride or offset never wraps
--FILE--
<?php
use Cuda\CudaArray;
$t = CudaArray::fromFlatArray(range(0, 11), [4, 3]);
foreach (['::-9223372036854775808', '::9223372036854775807', '1::4611686018427387904', '-1::-4611686018427387904',
          ':, ::-9223372036854775807', '::-9223372036854775807, 2::9223372036854775807'] as $spec) {
    $v = $t->slice($spec);
    printf("%-48s %s %s %s\n", var_export($spec, true), json_encode($v->getShape()), json_encode($v->getStrides()), json_encode($v->toArray()));
}
// the named ONNX form and the per-axis form with the same steps
foreach ([fn() => $t->slice(starts: [0], ends: [4], steps: [PHP_INT_MAX]), fn() => $t->slice(starts: [3], ends: [-5], steps: [-(2 ** 62)]),
          fn() => $t->slice([null, null, PHP_INT_MIN]), fn() => $t->slice(null, [2, null, PHP_INT_MAX])] as $f) {
    $v = $f();
    echo json_encode($v->getShape()), ' ', json_encode($v->getStrides()), ' ', json_encode($v->toArray()), "\n";
}
// a view of a view keeps sane strides
$v = $t->slice('::-9223372036854775808')->slice(':, ::-1');
echo json_encode($v->getStrides()), ' ', json_encode($v->toArray()), "\n";
// the same through Cuda\Fusion
echo json_encode(Cuda\Fusion::run(fn() => $t->slice('::-9223372036854775808') * 2)->toArray()), "\n";
?>
--EXPECT--
'::-9223372036854775808'                         [1,3] [3,1] [[9,10,11]]
'::9223372036854775807'                          [1,3] [3,1] [[0,1,2]]
'1::4611686018427387904'                         [1,3] [3,1] [[3,4,5]]
'-1::-4611686018427387904'                       [1,3] [3,1] [[9,10,11]]
':, ::-9223372036854775807'                      [4,1] [3,1] [[2],[5],[8],[11]]
'::-9223372036854775807, 2::9223372036854775807' [1,1] [3,1] [[11]]
[1,3] [3,1] [[0,1,2]]
[1,3] [3,1] [[9,10,11]]
[1,3] [3,1] [[9,10,11]]
[4,1] [3,1] [[2],[5],[8],[11]]
[3,-1] [[11,10,9]]
[[18,20,22]]
