<?php
/*
 * bench/cpu_graph.php: writes the MLP training step bench/cpu.sh times, as a gtc graph (docs/graph-format.md):
 * dense layers with ReLU between them, softmax cross-entropy against one-hot targets (mean), and a
 * plain SGD update of every weight and bias ("train" section: the gradients by pass_autodiff).
 *
 *   php bench/cpu_graph.php 784-1024-1024-10 1024 > mlp.json
 *   php bench/cpu_graph.php 64-64-10 1 infer > mlp_infer.json    (the forward pass: softmax probabilities)
 *
 * Graph names: mlp_<layers>_b<batch>_step, mlp_<layers>_b<batch>_infer (gtc makes the class name
 * from it: Mlp6464_10B256Step, ...; `gtc compile` prints it).
 */
$infer = $argc === 4 && $argv[3] === 'infer';
if (($argc !== 3 && !$infer) || !preg_match('/^\d+(-\d+)+$/', $argv[1]) || !preg_match('/^[1-9]\d*$/', $argv[2])) {
    fwrite(STDERR, "usage: php bench/cpu_graph.php LAYERS BATCH [infer]   (e.g. 64-64-10 256)\n");
    exit(2);
}
$dims = array_map('intval', explode('-', $argv[1]));
$b = (int)$argv[2];
$nl = count($dims) - 1;
$in = [['name' => 'x', 'dtype' => 'float32', 'shape' => [$b, $dims[0]]]];
if (!$infer) $in[] = ['name' => 'y', 'dtype' => 'float32', 'shape' => [$b, $dims[$nl]]];
$nodes = [];
$params = [];
$h = 'x';
for ($l = 1; $l <= $nl; $l++) {
    $in[] = ['name' => "w$l", 'dtype' => 'float32', 'shape' => [$dims[$l - 1], $dims[$l]]];
    $in[] = ['name' => "b$l", 'dtype' => 'float32', 'shape' => [$dims[$l]]];
    array_push($params, "w$l", "b$l");
    $nodes[] = ['name' => "z$l", 'op' => 'matmul', 'inputs' => [$h, "w$l"]];
    $nodes[] = ['name' => "h$l", 'op' => 'add', 'inputs' => ["z$l", "b$l"]];
    $h = "h$l";
    if ($l < $nl) {
        $nodes[] = ['name' => "a$l", 'op' => 'relu', 'inputs' => [$h]];
        $h = "a$l";
    }
}
if ($infer) {
    array_push($nodes,
        ['name' => 'm', 'op' => 'max', 'inputs' => [$h], 'axes' => [1], 'keepdims' => true],
        ['name' => 'sh', 'op' => 'sub', 'inputs' => [$h, 'm']],
        ['name' => 'e', 'op' => 'exp', 'inputs' => ['sh']],
        ['name' => 'se', 'op' => 'sum', 'inputs' => ['e'], 'axes' => [1], 'keepdims' => true],
        ['name' => 'p', 'op' => 'div', 'inputs' => ['e', 'se']]);
    echo json_encode(['format' => 'gtc-graph', 'version' => 1, 'name' => 'mlp_' . str_replace('-', '_', $argv[1]) . "_b{$b}_infer",
                      'inputs' => $in, 'nodes' => $nodes, 'outputs' => ['p' => 'p']], JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES), "\n";
    exit(0);
}
$in[] = ['name' => 'lr', 'dtype' => 'float32', 'shape' => []];
array_push($nodes,
    ['name' => 'm', 'op' => 'max', 'inputs' => [$h], 'axes' => [1], 'keepdims' => true],
    ['name' => 'sh', 'op' => 'sub', 'inputs' => [$h, 'm']],
    ['name' => 'e', 'op' => 'exp', 'inputs' => ['sh']],
    ['name' => 'se', 'op' => 'sum', 'inputs' => ['e'], 'axes' => [1], 'keepdims' => true],
    ['name' => 'lse', 'op' => 'log', 'inputs' => ['se']],
    ['name' => 'ysh', 'op' => 'mul', 'inputs' => ['y', 'sh']],
    ['name' => 'ysh_row', 'op' => 'sum', 'inputs' => ['ysh'], 'axes' => [1], 'keepdims' => true],
    ['name' => 'nll_row', 'op' => 'sub', 'inputs' => ['lse', 'ysh_row']],
    ['name' => 'loss', 'op' => 'mean', 'inputs' => ['nll_row']]);
$g = ['format' => 'gtc-graph', 'version' => 1, 'name' => 'mlp_' . str_replace('-', '_', $argv[1]) . "_b{$b}_step",
      'inputs' => $in, 'nodes' => $nodes, 'outputs' => ['loss' => 'loss'],
      'train' => ['loss' => 'loss', 'params' => $params, 'stop_gradient' => ['m'],
                  'optimizer' => ['type' => 'sgd', 'lr' => 'lr']]];
echo json_encode($g, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES), "\n";
