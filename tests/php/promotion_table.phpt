--TEST--
dtype promotion of two tensors: bool < int32 < int64 < float32 < float64, int with float gives the float
--FILE--
<?php
use Cuda\CudaArray;
$dts = ['bool', 'int32', 'int64', 'float32', 'float64'];
$t = [];
foreach ($dts as $d) $t[$d] = CudaArray::ones([2], $d);
echo str_pad('', 8);
foreach ($dts as $d) echo str_pad($d, 8);
echo "\n";
foreach (['add', 'multiply', 'divide', 'maximum', 'power'] as $op) {
    echo "$op\n";
    foreach ($dts as $a) {
        echo str_pad($a, 8);
        foreach ($dts as $b) echo str_pad($t[$a]->$op($t[$b])->dtype(), 8);
        echo "\n";
    }
}
echo "eq: ", $t['int32']->eq($t['float64'])->dtype(), "\n";
echo "mean int32: ", $t['int32']->mean()->dtype(), ", sum bool: ", $t['bool']->sum()->dtype(), "\n";
?>
--EXPECT--
        bool    int32   int64   float32 float64 
add
bool    int32   int32   int64   float32 float64 
int32   int32   int32   int64   float32 float64 
int64   int64   int64   int64   float32 float64 
float32 float32 float32 float32 float32 float64 
float64 float64 float64 float64 float64 float64 
multiply
bool    int32   int32   int64   float32 float64 
int32   int32   int32   int64   float32 float64 
int64   int64   int64   int64   float32 float64 
float32 float32 float32 float32 float32 float64 
float64 float64 float64 float64 float64 float64 
divide
bool    float32 float32 float32 float32 float64 
int32   float32 float32 float32 float32 float64 
int64   float32 float32 float32 float32 float64 
float32 float32 float32 float32 float32 float64 
float64 float64 float64 float64 float64 float64 
maximum
bool    int32   int32   int64   float32 float64 
int32   int32   int32   int64   float32 float64 
int64   int64   int64   int64   float32 float64 
float32 float32 float32 float32 float32 float64 
float64 float64 float64 float64 float64 float64 
power
bool    int32   int32   int64   float32 float64 
int32   int32   int32   int64   float32 float64 
int64   int64   int64   int64   float32 float64 
float32 float32 float32 float32 float32 float64 
float64 float64 float64 float64 float64 float64 
eq: bool
mean int32: float32, sum bool: int64
