--TEST--
fromNpy against NumPy: every file of a generated corpus (valid files in every descr spelling, version, byte order and layout; single-byte header mutations; odd spellings of the header literal) is loaded by gtc exactly when np.load loads it, with the same dtype, shape and values
--SKIPIF--
<?php
exec('/usr/bin/python3 -c "import numpy" 2>/dev/null', $out, $rc);
if ($rc !== 0) die('skip NumPy is not available to /usr/bin/python3');
?>
--FILE--
<?php
use Cuda\CudaArray;
$dir = sys_get_temp_dir() . '/gtc_npy_diff_' . getmypid();
@mkdir($dir);
exec('/usr/bin/python3 ' . escapeshellarg(__DIR__ . '/npy_differential.py') . ' ' . escapeshellarg($dir), $o, $rc);
echo "corpus: rc=$rc\n";
$count = ['load' => 0, 'refuse' => 0, 'skip' => 0];
$bad = [];
foreach (file("$dir/manifest.tsv", FILE_IGNORE_NEW_LINES) as $line) {
    [$name, $verdict, $detail] = explode("\t", $line);
    $count[$verdict]++;
    try {
        $a = CudaArray::fromNpy("$dir/$name.npy");
        $got = $a->dtype() . ' ' . json_encode($a->getShape()) . ' ' . md5($a->toBuffer());
        if ($verdict !== 'load' || $got !== $detail) $bad[] = "$name: NumPy $verdict ($detail), gtc loads $got";
    } catch (Cuda\Exception $e) {
        if ($verdict === 'load') $bad[] = "$name: NumPy loads ($detail), gtc throws " . $e->getMessage();
    }
    unlink("$dir/$name.npy");
}
unlink("$dir/manifest.tsv");
rmdir($dir);
echo "NumPy loads {$count['load']}, refuses {$count['refuse']}, loads in a form gtc refuses {$count['skip']}\n";
echo count($bad), " disagreements\n";
foreach (array_slice($bad, 0, 200) as $b) echo "  $b\n";
?>
--EXPECTF--
corpus: rc=0
NumPy loads %d, refuses %d, loads in a form gtc refuses %d
0 disagreements
