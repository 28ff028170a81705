--TEST--
float32 matmul by gtc's own GEMM kernel (templates/kernels_cpu_gemm.h): Cuda\Fusion's generated CPU code (-O3 -ffp-contract=off, GEMM steps with transposed operands, batches one by one) and eager matmul (gtc.so's flags, transposed views copied, batches against a shared b stacked) give the same bits, with and without an epilogue, on odd shapes and at 1 and 2 threads (a product past GTC_CPU_GEMM_PAR_MIN split over threads)
--SKIPIF--
<?php if ((new Cuda\CudaArray([1]))->device() !== 'cpu') die('skip the CPU backend only'); ?>
--ENV--
GTC_CPU_THREADS=
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\Fusion;
putenv('GTC_CACHE_DIR=' . sys_get_temp_dir() . '/gtc-mmje-' . getmypid());

$f = fn($a, $b) => ['p' => $a->matmul($b), 'relu' => ($a->matmul($b) + 0.5)->relu(),
                    'at' => $a->transpose()->transpose()->matmul($b), 'bt' => $a->matmul($b->transpose()->contiguous()->transpose())];
$ft = fn($a, $b) => ['abt' => $a->matmul($b->transpose()), 'atb' => $a->transpose()->matmul($b)];
// [a shape, b shape]: the digits MLP's products, tails of every vector width, k past a panel (256),
// a batch against a shared b, a batch of both, and one past GTC_CPU_GEMM_PAR_MIN (2^22)
$cases = [[[256, 64], [64, 64]], [[256, 64], [64, 10]], [[1, 64], [64, 10]], [[7, 13], [13, 33]], [[67, 61], [61, 47]],
          [[17, 300], [300, 31]], [[3, 5, 17], [17, 9]], [[2, 9, 11], [2, 11, 40]], [[300, 200], [200, 100]]];
$tcases = [[[33, 67], [17, 67], [33, 17]], [[64, 256], [10, 256], [64, 10]]]; // [a, b of abt, b of atb]
foreach (['1', '2'] as $t) {
    ini_set('gtc.cpu_threads', $t);
    foreach ($cases as $i => [$sa, $sb]) {
        $a = CudaArray::randn($sa, 10 + $i);
        $b = CudaArray::randn($sb, 20 + $i);
        $jit = Fusion::compile($f, ['a' => [$sa], 'b' => [$sb]])->run($a, $b);
        $bad = [];
        foreach ($f($a, $b) as $k => $v) if ($v->toBuffer() !== $jit[$k]->toBuffer()) $bad[] = $k;
        echo "$t ", json_encode([$sa, $sb]), ' ', $bad ? 'DIFFERENT: ' . implode(' ', $bad) : 'same', "\n";
    }
    foreach ($tcases as $i => [$sa, $sbt, $sbn]) {
        $a = CudaArray::randn($sa, 30 + $i);
        $bt = CudaArray::randn($sbt, 40 + $i);
        $bn = CudaArray::randn($sbn, 50 + $i);
        $g = fn($a, $bt, $bn) => ['abt' => $a->matmul($bt->transpose()), 'atb' => $a->transpose()->matmul($bn)];
        $jit = Fusion::compile($g, ['a' => [$sa], 'bt' => [$sbt], 'bn' => [$sbn]])->run($a, $bt, $bn);
        $bad = [];
        foreach ($g($a, $bt, $bn) as $k => $v) if ($v->toBuffer() !== $jit[$k]->toBuffer()) $bad[] = $k;
        echo "$t T ", json_encode($sa), ' ', $bad ? 'DIFFERENT: ' . implode(' ', $bad) : 'same', "\n";
    }
}
// the generated code passes the transposes to the GEMM call rather than copying
$src = Fusion::compile($ft, ['a' => [[8, 8]], 'b' => [[8, 8]]])->getSource('cpu');
var_dump(str_contains($src, 'gtc_cpu_sgemm(0, 1,'), str_contains($src, 'gtc_cpu_sgemm(1, 0,'));
?>
--EXPECT--
1 [[256,64],[64,64]] same
1 [[256,64],[64,10]] same
1 [[1,64],[64,10]] same
1 [[7,13],[13,33]] same
1 [[67,61],[61,47]] same
1 [[17,300],[300,31]] same
1 [[3,5,17],[17,9]] same
1 [[2,9,11],[2,11,40]] same
1 [[300,200],[200,100]] same
1 T [33,67] same
1 T [64,256] same
2 [[256,64],[64,64]] same
2 [[256,64],[64,10]] same
2 [[1,64],[64,10]] same
2 [[7,13],[13,33]] same
2 [[67,61],[61,47]] same
2 [[17,300],[300,31]] same
2 [[3,5,17],[17,9]] same
2 [[2,9,11],[2,11,40]] same
2 [[300,200],[200,100]] same
2 T [33,67] same
2 T [64,256] same
bool(true)
bool(true)
