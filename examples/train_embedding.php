<?php
/*
 * examples/train_embedding.php: an embedding model (categorical ids -> gather -> concat -> MLP)
 * trained with the step that `gtc compile` builds from examples/embedding_step.json, on data
 * this script generates (no download), then evaluated with eager Cuda\CudaArray ops.
 *
 *   build/gtc compile examples/embedding_step.json -o build/models/embedding.so
 *   php -d extension=build/gtc.so -d extension=build/models/embedding.so examples/train_embedding.php
 *
 * The task: 40 users and 30 items, each with a hidden preference vector over 4 classes; the
 * label of a (user, item) pair is the class where the two vectors' sum is largest. The model
 * learns an 8-wide embedding per user and per item (two tables, two `gather`s, one `concat`), a
 * 16-32-4 ReLU MLP over them, and cross-entropy on the class index (the `cross_entropy`
 * composite with an int32 target). The compiled step (class EmbeddingStep) does forward,
 * gradients (a scatter_add per table: gather's gradient) and SGD with momentum 0.9 in one call:
 * $model->run(user:, item:, label:, emb_user:, ..., lr:) returns the loss and the batch's
 * predictions and updates the parameters in place; the model owns the momentum buffers
 * (optimizerState() reads them, saveCheckpoint() saves them with the parameters).
 *
 * Options: --epochs=N [40]  --learning-rate=F [0.1]  --seed=N [7]  --device=auto|cpu|cuda
 *          --min-accuracy=F  exit 1 when the test accuracy is below F (the e2e test uses it)
 * Prints one line per reporting epoch and a final line "test accuracy: P% (K of N)".
 */
use Cuda\CudaArray;

const USERS = 40, ITEMS = 30, CLASSES = 4, DIM = 8, HIDDEN = 32, BATCH = 256;
const TRAIN = 8192, TEST = 2048;

$opt = getopt('', ['epochs:', 'learning-rate:', 'seed:', 'device:', 'min-accuracy:', 'help']);
if (isset($opt['help'])) {
    fwrite(STDOUT, "usage: php -d extension=gtc.so -d extension=embedding.so examples/train_embedding.php "
        . "[--epochs=N] [--learning-rate=F] [--seed=N] [--device=auto|cpu|cuda] [--min-accuracy=F]\n");
    exit(0);
}
$epochs = (int)($opt['epochs'] ?? 40);
$lr = (float)($opt['learning-rate'] ?? 0.1);
$seed = (int)($opt['seed'] ?? 7);
if (isset($opt['device']) && $opt['device'] !== 'auto') putenv('GTC_DEVICE=' . $opt['device']);
if ($epochs < 1 || !($lr > 0)) {
    fwrite(STDERR, "train_embedding.php: --epochs must be >= 1 and --learning-rate > 0\n");
    exit(2);
}
if (!class_exists('EmbeddingStep')) {
    fwrite(STDERR, "train_embedding.php: class EmbeddingStep not found: compile examples/embedding_step.json with "
        . "`gtc compile` and load it with -d extension=embedding.so after gtc.so\n");
    exit(2);
}

/* The data: hidden preferences, then uniformly drawn pairs labelled by them (mt_rand, seeded). */
mt_srand($seed);
$pref = fn(int $n) => array_map(fn() => array_map(fn() => mt_rand() / mt_getrandmax(), range(1, CLASSES)), range(1, $n));
$pu = $pref(USERS);
$pi = $pref(ITEMS);
$make = function (int $n) use ($pu, $pi): array {
    $u = $i = $y = [];
    for ($k = 0; $k < $n; $k++) {
        $a = mt_rand(0, USERS - 1);
        $b = mt_rand(0, ITEMS - 1);
        $s = array_map(fn($p, $q) => $p + $q, $pu[$a], $pi[$b]);
        $u[] = $a;
        $i[] = $b;
        $y[] = array_search(max($s), $s, true);
    }
    return [$u, $i, $y];
};
[$trU, $trI, $trY] = $make(TRAIN);
[$teU, $teI, $teY] = $make(TEST);

/* Parameters: small normal embeddings, He-scaled weights (seeded on the device's generator). */
$p = [
    'emb_user' => CudaArray::randn([USERS, DIM], $seed + 1) * 0.1,
    'emb_item' => CudaArray::randn([ITEMS, DIM], $seed + 2) * 0.1,
    'w1' => CudaArray::randn([2 * DIM, HIDDEN], $seed + 3) * sqrt(2 / (2 * DIM)),
    'b1' => CudaArray::zeros([HIDDEN]),
    'w2' => CudaArray::randn([HIDDEN, CLASSES], $seed + 4) * sqrt(2 / HIDDEN),
    'b2' => CudaArray::zeros([CLASSES]),
];

$ids = fn(array $v) => CudaArray::fromFlatArray($v, [count($v)], 'int32');
$batches = [];
for ($s = 0; $s + BATCH <= TRAIN; $s += BATCH) {
    $batches[] = [
        'user' => $ids(array_slice($trU, $s, BATCH)),
        'item' => $ids(array_slice($trI, $s, BATCH)),
        'label' => $ids(array_slice($trY, $s, BATCH)),
    ];
}

$model = new EmbeddingStep();
$t0 = hrtime(true);
$steps = 0;
for ($e = 1; $e <= $epochs; $e++) {
    foreach ($batches as $b) {
        $out = $model->run(...$b, ...$p, lr: $lr);
        $steps++;
    }
    if ($e === 1 || $e % 10 === 0 || $e === $epochs) {
        printf("epoch %3d  loss %.4f\n", $e, $out['loss']->item());
    }
}
$us = (hrtime(true) - $t0) / 1e3 / $steps;

/* Test accuracy with eager ops: the forward pass of the graph, written as CudaArray methods. */
$x = $p['emb_user']->gather($ids($teU))->concat([$p['emb_item']->gather($ids($teI))], 1);
$logits = ($x->matmul($p['w1']) + $p['b1'])->relu()->matmul($p['w2']) + $p['b2'];
$correct = (int)$logits->argMax(1)->eq($ids($teY))->sum()->item();
printf("%d steps, %.1f us/step (including the loss read-backs)\n", $steps, $us);
printf("test accuracy: %.2f%% (%d of %d)\n", 100 * $correct / TEST, $correct, TEST);
if (isset($opt['min-accuracy']) && $correct / TEST < (float)$opt['min-accuracy']) {
    fwrite(STDERR, "train_embedding.php: test accuracy below --min-accuracy=" . $opt['min-accuracy'] . "\n");
    exit(1);
}
