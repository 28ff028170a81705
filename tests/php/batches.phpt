--TEST--
Cuda\Batches: batches in order (views) and shuffled on the device (permutation(n, seed + epoch)), every row once per epoch, the partial last batch or dropLast, keys kept, the Iterator protocol, bad arguments
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\{Batches, CudaArray};
$x = CudaArray::arange(20)->reshape([10, 2]);          // row r = [2r, 2r+1]
$y = CudaArray::arange(100, 110);                      // row r = 100 + r
$rows = fn(array $b) => array_map(fn($r) => intdiv($r[0], 2), $b['x']->toArray());

echo "-- in order, batch 4\n";
$b = new Batches(['x' => $x, 'y' => $y], batchSize: 4);
echo count($b), " batches, epoch ", $b->epoch(), "\n";
foreach ($b as $k => $batch) {
    echo $k, ': ', implode(',', array_keys($batch)), ' ';
    show($batch['y']);
    if ($batch['x']->getShape() !== [count($batch['y']), 2]) echo "x and y disagree\n";
}
echo "epoch ", $b->epoch(), "\n";
echo "-- dropLast\n";
$d = new Batches([$x, $y], 4, dropLast: true);
echo count($d), ' batches:';
foreach ($d as $batch) echo ' ', json_encode($batch[1]->toArray());
echo "\n";
echo "-- batch larger than the set, and batch 1\n";
echo count(new Batches([$y], 64)), ' ', count(new Batches([$y], 64, dropLast: true)), ' ', count(new Batches([$y], 1)), "\n";
foreach (new Batches([$y], 64) as $batch) show($batch[0]);

echo "-- shuffled\n";
$s = new Batches(['x' => $x, 'y' => $y], 3, shuffle: true, seed: 5);
$epochs = [];
for ($e = 0; $e < 3; $e++) {
    $seen = [];
    $aligned = true;
    $sizes = [];
    foreach ($s as $batch) {
        $r = $rows($batch);
        $aligned = $aligned && array_map(fn($i) => 100 + $i, $r) === $batch['y']->toArray();
        $seen = array_merge($seen, $r);
        $sizes[] = count($r);
    }
    $sorted = $seen;
    sort($sorted);
    echo "epoch ", $s->epoch(), ": sizes ", implode(',', $sizes), ', every row once: ', $sorted === range(0, 9) ? 'yes' : 'no',
         ', x and y rows aligned: ', $aligned ? 'yes' : 'no',
         ', order = permutation(10, 5 + epoch): ', $seen === CudaArray::permutation(10, 5 + $e)->toArray() ? 'yes' : 'no', "\n";
    $epochs[] = $seen;
}
echo 'epochs differ: ', $epochs[0] !== $epochs[1] && $epochs[1] !== $epochs[2] ? 'yes' : 'no', "\n";
$again = [];
foreach (new Batches(['x' => $x, 'y' => $y], 3, shuffle: true, seed: 5) as $batch) $again = array_merge($again, $rows($batch));
echo 'same seed, same order: ', $again === $epochs[0] ? 'yes' : 'no', "\n";
$other = [];
foreach (new Batches(['x' => $x, 'y' => $y], 3, shuffle: true, seed: 6) as $batch) $other = array_merge($other, $rows($batch));
echo 'seed 6 = seed 5 epoch 1: ', $other === $epochs[1] ? 'yes' : 'no', "\n";
$sd = new Batches([$y], 3, shuffle: true, seed: 5, dropLast: true);
$n = 0;
foreach ($sd as $batch) $n += count($batch[0]);
echo "shuffled dropLast: ", count($sd), " batches, $n rows\n";

echo "-- the Iterator protocol by hand\n";
$it = new Batches([$y], 4);
var_dump($it->valid(), $it->key());
show($it->current()[0]);
$it->next(); $it->next();
show($it->current()[0]);
$it->next();
var_dump($it->valid(), $it->key(), $it->current());
$it->next();
var_dump($it->key());
$it->rewind();
echo 'after rewind: epoch ', $it->epoch(), ' key ', $it->key(), "\n";
echo "-- a batch in order is a view of the rows\n";
$m = CudaArray::zeros([4, 2]);
foreach (new Batches([$m], 2) as $batch) $batch[0][0] = new CudaArray([7.0, 7.0]);
show($m);

echo "-- bad arguments\n";
throws(fn() => new Batches([], 2));
throws(fn() => new Batches([$y], 0));
throws(fn() => new Batches([$y], -5));
throws(fn() => new Batches(['x' => $x, 'y' => [1, 2]], 2));
throws(fn() => new Batches(['x' => $x, 's' => CudaArray::zeros([])], 2));
throws(fn() => new Batches(['x' => $x, 'y' => CudaArray::arange(9)], 2));
throws(fn() => new Batches([$x, CudaArray::arange(11)], 2));
throws(fn() => new Batches([$y], 'two'));
throws(fn() => $b->__construct([$y], 2));
throws(fn() => clone $b);
throws(fn() => serialize($b));
?>
--EXPECT--
-- in order, batch 4
3 batches, epoch -1
0: x,y int64 [4] [100,101,102,103]
1: x,y int64 [4] [104,105,106,107]
2: x,y int64 [2] [108,109]
epoch 0
-- dropLast
2 batches: [100,101,102,103] [104,105,106,107]
-- batch larger than the set, and batch 1
1 0 10
int64 [10] [100,101,102,103,104,105,106,107,108,109]
-- shuffled
epoch 0: sizes 3,3,3,1, every row once: yes, x and y rows aligned: yes, order = permutation(10, 5 + epoch): yes
epoch 1: sizes 3,3,3,1, every row once: yes, x and y rows aligned: yes, order = permutation(10, 5 + epoch): yes
epoch 2: sizes 3,3,3,1, every row once: yes, x and y rows aligned: yes, order = permutation(10, 5 + epoch): yes
epochs differ: yes
same seed, same order: yes
seed 6 = seed 5 epoch 1: yes
shuffled dropLast: 3 batches, 9 rows
-- the Iterator protocol by hand
bool(true)
int(0)
int64 [4] [100,101,102,103]
int64 [2] [108,109]
bool(false)
NULL
NULL
NULL
after rewind: epoch 1 key 0
-- a batch in order is a view of the rows
float32 [4,2] [[7.0,7.0],[0.0,0.0],[7.0,7.0],[0.0,0.0]]
-- bad arguments
ValueError: Cuda\Batches::__construct(): Argument #1 ($arrays) must not be empty
ValueError: Cuda\Batches::__construct(): Argument #2 ($batchSize) must be greater than 0, 0 given
ValueError: Cuda\Batches::__construct(): Argument #2 ($batchSize) must be greater than 0, -5 given
TypeError: Cuda\Batches::__construct(): Argument #1 ($arrays) must hold Cuda\CudaArray values, array given at "y"
ValueError: Cuda\Batches::__construct(): Argument #1 ($arrays) must hold arrays of rank 1 or more (batches are rows), "s" is a scalar
ValueError: Cuda\Batches::__construct(): Argument #1 ($arrays) must hold arrays with the same number of rows, "x" has 10 and "y" 9
ValueError: Cuda\Batches::__construct(): Argument #1 ($arrays) must hold arrays with the same number of rows, 0 has 10 and 1 11
TypeError: Cuda\Batches::__construct(): Argument #2 ($batchSize) must be of type int, string given
Error: Cuda\Batches is already constructed
Error: Trying to clone an uncloneable object of class Cuda\Batches
Exception: Serialization of 'Cuda\Batches' is not allowed
