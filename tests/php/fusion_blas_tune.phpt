--TEST--
on a CUDA device: products through cuBLASLt (GTC_GEMM=cublaslt) with the algorithm chosen by timing the heuristic's candidates (runtime/cuda/cuda_plan_blas.cu), in every precision and operand layout, match the CPU backend within the precision's bound; two layouts of one shape do not share a choice; GTC_BLAS_TUNE=0 (the heuristic's first pick) too
--SKIPIF--
<?php
putenv('GTC_DEVICE');
ini_set('gtc.device', 'auto');
if ((new Cuda\CudaArray([1]))->device() !== 'cuda:0') die('skip needs a CUDA device');
?>
--ENV--
GTC_DEVICE=
GTC_GEMM=cublaslt
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\Fusion;

function flat($a): array {
    return iterator_to_array(new RecursiveIteratorIterator(new RecursiveArrayIterator($a)), false);
}
/* max |gpu - cpu| / max |cpu| */
function rel(CudaArray $cpu, CudaArray $gpu): float {
    $a = flat($cpu->toArray());
    $b = flat($gpu->toHost()->toArray());
    $e = $m = 0.0;
    foreach ($a as $i => $v) {
        $e = max($e, abs($v - $b[$i]));
        $m = max($m, abs($v));
    }
    return $e / $m;
}
$layouts = [ // one shape, three layouts: 192 x 160 outputs, K = 96
    'A @ B + b' => [fn($x, $w, $b) => $x->matmul($w)->add($b), [[192, 96], [96, 160], [160]]],
    'A^T @ B' => [fn($x, $w) => $x->transpose([1, 0])->matmul($w), [[96, 192], [96, 160]]],
    'A @ B^T' => [fn($x, $w) => $x->matmul($w->transpose([1, 0])), [[192, 96], [160, 96]]],
];
$bound = ['fp32' => 1e-5, 'tf32' => 5e-3, 'bf16' => 1e-2];
foreach (['tuned' => null, 'GTC_BLAS_TUNE=0' => '0'] as $mode => $tune) {
    putenv($tune === null ? 'GTC_BLAS_TUNE' : "GTC_BLAS_TUNE=$tune");
    foreach ($bound as $p => $b) {
        foreach ($layouts as $name => [$fn, $shapes]) {
            $r = [];
            foreach (['cpu', 'cuda'] as $dev) {
                ini_set('gtc.device', $dev);
                /* each mode its own sizes (the choice is kept per process and shape); odd ones the second time */
                $args = array_map(fn($s, $i) => CudaArray::rand($mode === 'tuned' ? $s : array_map(fn($d) => $d + 7, $s), $i + 1)->subtract(0.5),
                    $shapes, array_keys($shapes));
                $g = Fusion::compile($fn, $args, name: 'tune', precision: $p);
                $r[$dev] = $g->run(...$args);
                $plan = json_encode($g->getPlan());
            }
            $e = rel($r['cpu'], $r['cuda']);
            echo str_pad("$mode, $p, $name:", 34), $e <= $b ? 'ok' : "MISMATCH $e", str_contains($plan, 'cuBLASLt') ? ', cuBLASLt' : ', not cuBLASLt', "\n";
        }
    }
}
// one value read by several products is staged once (bf16 copies; tf32/bf16: A transposed for
// A^T @ B): w by two products as B, x as A of one and B of two, a transposed twice
putenv('GTC_BLAS_TUNE');
$fn = fn($x, $w, $a) => $x->matmul($w)->matmul($w->transpose([1, 0]))
    ->add($a->transpose([1, 0])->matmul($x))->add($a->transpose([1, 0])->matmul($x->multiply(2.0)));
foreach (['fp32' => 1e-5, 'tf32' => 5e-3, 'bf16' => 2e-2] as $p => $b) {
    $r = [];
    foreach (['cpu', 'cuda'] as $dev) {
        ini_set('gtc.device', $dev);
        $args = [CudaArray::rand([136, 72], 11)->subtract(0.5), CudaArray::rand([72, 104], 12)->subtract(0.5),
                 CudaArray::rand([136, 136], 13)->subtract(0.5)];
        $g = Fusion::compile($fn, $args, name: 'shared', precision: $p);
        $r[$dev] = [$g->run(...$args), $g->run(...$args)];
    }
    foreach ([0, 1] as $run) {
        $e = rel($r['cpu'][$run], $r['cuda'][$run]);
        echo str_pad("shared operands, $p, run $run:", 34), $e <= $b ? 'ok' : "MISMATCH $e", "\n";
    }
}
// the bias added by cuBLASLt's epilogue (the plan says so), from its own pointer or, for a view
// starting 4 bytes into its allocation, from an aligned copy; the graph updated between runs
// (with a relu after it: cuBLASLt's RELU_BIAS epilogue, no kernel after the product)
$fns = ['bias' => fn($x, $w, $b) => $x->matmul($w)->add($b)->subtract(0.25),
        'bias+relu' => fn($x, $w, $b) => $x->matmul($w)->add($b)->relu()];
foreach ($fns as $name => $fn) foreach (['fp32' => 1e-5, 'bf16' => 1e-2] as $p => $bound) {
    $r = [];
    foreach (['cpu', 'cuda'] as $dev) {
        ini_set('gtc.device', $dev);
        $x = CudaArray::rand([160, 80], 21)->subtract(0.5);
        $w = CudaArray::rand([80, 120], 22)->subtract(0.5);
        $flat = CudaArray::rand([121], 23);
        $view = $flat->slice([1, 121]);
        $own = $view->add(0.0);
        $g = Fusion::compile($fn, [$x, $w, $own], name: 'bias', precision: $p);
        foreach (['own' => $own, 'view' => $view, 'own again' => $own] as $k => $b) $r[$dev][$k] = $g->run($x, $w, $b);
        $plan = $g->getPlan()[0]['gemm_epilogue'] ?? '?';
    }
    foreach ($r['cpu'] as $k => $v) {
        $e = rel($v, $r['cuda'][$k]);
        echo str_pad("$name, $p, $k:", 34), $e <= $bound ? 'ok' : "MISMATCH $e", "\n";
    }
    echo "cuBLASLt's epilogue: $plan\n";
}
// w - lr * (x^T @ dy) by cuBLASLt's alpha and beta (no kernel after the product), into a fresh
// output and, donated, into w itself, run twice (the second from the first's w)
foreach (['fresh' => [], 'donated' => ['w' => 'w']] as $mode => $donate) {
    $r = [];
    foreach (['cpu', 'cuda'] as $dev) {
        ini_set('gtc.device', $dev);
        $in = ['x' => CudaArray::rand([96, 72], 31)->subtract(0.5), 'dy' => CudaArray::rand([96, 40], 32)->subtract(0.5),
               'w' => CudaArray::rand([72, 40], 33)];
        $g = Fusion::compile(fn($x, $dy, $w) => ['w' => $w->subtract($x->transpose([1, 0])->matmul($dy)->multiply(0.05))],
            $in, name: 'update', donate: $donate);
        $r[$dev][0] = $g->run(...$in)['w']->add(0.0);
        $r[$dev][1] = $g->run(...($donate ? $in : ['x' => $in['x'], 'dy' => $in['dy'], 'w' => $r[$dev][0]]))['w'];
        $plan = $g->getPlan()[0];
    }
    foreach ([0, 1] as $run) {
        $e = rel($r['cpu'][$run], $r['cuda'][$run]);
        echo str_pad("update, $mode, run $run:", 34), $e <= 1e-5 ? 'ok' : "MISMATCH $e", "\n";
    }
    echo "cuBLASLt's epilogue: ", $plan['gemm_epilogue'] ?? '?', "\n";
}
?>
--EXPECT--
tuned, fp32, A @ B + b:           ok, cuBLASLt
tuned, fp32, A^T @ B:             ok, cuBLASLt
tuned, fp32, A @ B^T:             ok, cuBLASLt
tuned, tf32, A @ B + b:           ok, cuBLASLt
tuned, tf32, A^T @ B:             ok, cuBLASLt
tuned, tf32, A @ B^T:             ok, cuBLASLt
tuned, bf16, A @ B + b:           ok, cuBLASLt
tuned, bf16, A^T @ B:             ok, cuBLASLt
tuned, bf16, A @ B^T:             ok, cuBLASLt
GTC_BLAS_TUNE=0, fp32, A @ B + b: ok, cuBLASLt
GTC_BLAS_TUNE=0, fp32, A^T @ B:   ok, cuBLASLt
GTC_BLAS_TUNE=0, fp32, A @ B^T:   ok, cuBLASLt
GTC_BLAS_TUNE=0, tf32, A @ B + b: ok, cuBLASLt
GTC_BLAS_TUNE=0, tf32, A^T @ B:   ok, cuBLASLt
GTC_BLAS_TUNE=0, tf32, A @ B^T:   ok, cuBLASLt
GTC_BLAS_TUNE=0, bf16, A @ B + b: ok, cuBLASLt
GTC_BLAS_TUNE=0, bf16, A^T @ B:   ok, cuBLASLt
GTC_BLAS_TUNE=0, bf16, A @ B^T:   ok, cuBLASLt
shared operands, fp32, run 0:     ok
shared operands, fp32, run 1:     ok
shared operands, tf32, run 0:     ok
shared operands, tf32, run 1:     ok
shared operands, bf16, run 0:     ok
shared operands, bf16, run 1:     ok
bias, fp32, own:                  ok
bias, fp32, view:                 ok
bias, fp32, own again:            ok
cuBLASLt's epilogue: bias
bias, bf16, own:                  ok
bias, bf16, view:                 ok
bias, bf16, own again:            ok
cuBLASLt's epilogue: bias
bias+relu, fp32, own:             ok
bias+relu, fp32, view:            ok
bias+relu, fp32, own again:       ok
cuBLASLt's epilogue: bias+relu
bias+relu, bf16, own:             ok
bias+relu, bf16, view:            ok
bias+relu, bf16, own again:       ok
cuBLASLt's epilogue: bias+relu
update, fresh, run 0:             ok
update, fresh, run 1:             ok
cuBLASLt's epilogue: update
update, donated, run 0:           ok
update, donated, run 1:           ok
cuBLASLt's epilogue: update
