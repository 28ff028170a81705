--TEST--
dtype promotion of two tensors: bool < int32 < int64 < float32 < float64, the small and unsigned integers by NumPy's lattice, int with float gives the float
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
// every dtype with every dtype under add (NumPy's integer lattice; an integer with a float
// gives the float)
$all = ['bool', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64', 'float32', 'float64'];
foreach ($all as $d) $t[$d] = CudaArray::ones([2], $d);
echo "add, all dtypes\n", str_pad('', 8);
foreach ($all as $d) echo str_pad($d, 8);
echo "\n";
foreach ($all as $a) {
    echo str_pad($a, 8);
    foreach ($all as $b) echo str_pad($t[$a]->add($t[$b])->dtype(), 8);
    echo "\n";
}
foreach (['int8', 'uint8', 'uint64'] as $d)
    echo "$d: + 1 ", $t[$d]->add(1)->dtype(), ", + 0.5 ", $t[$d]->add(0.5)->dtype(), ", / ",
        $t[$d]->divide($t[$d])->dtype(), ", eq uint8 ", $t[$d]->eq($t['uint8'])->dtype(), "\n";
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
add, all dtypes
        bool    int8    int16   int32   int64   uint8   uint16  uint32  uint64  float32 float64 
bool    int32   int8    int16   int32   int64   uint8   uint16  uint32  uint64  float32 float64 
int8    int8    int8    int16   int32   int64   int16   int32   int64   float64 float32 float64 
int16   int16   int16   int16   int32   int64   int16   int32   int64   float64 float32 float64 
int32   int32   int32   int32   int32   int64   int32   int32   int64   float64 float32 float64 
int64   int64   int64   int64   int64   int64   int64   int64   int64   float64 float32 float64 
uint8   uint8   int16   int16   int32   int64   uint8   uint16  uint32  uint64  float32 float64 
uint16  uint16  int32   int32   int32   int64   uint16  uint16  uint32  uint64  float32 float64 
uint32  uint32  int64   int64   int64   int64   uint32  uint32  uint32  uint64  float32 float64 
uint64  uint64  float64 float64 float64 float64 uint64  uint64  uint64  uint64  float32 float64 
float32 float32 float32 float32 float32 float32 float32 float32 float32 float32 float32 float64 
float64 float64 float64 float64 float64 float64 float64 float64 float64 float64 float64 float64 
int8: + 1 int8, + 0.5 float32, / float32, eq uint8 bool
uint8: + 1 uint8, + 0.5 float32, / float32, eq uint8 bool
uint64: + 1 uint64, + 0.5 float32, / float32, eq uint8 bool
