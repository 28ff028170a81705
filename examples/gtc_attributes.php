<?php
/* examples/gtc_attributes.php: the attribute classes of PHP graph files (docs/php-graphs.md).
 * `gtc compile step.php` reads these attributes from the source text; PHP only needs the classes
 * to exist when code reflects on them (ReflectionAttribute::newInstance). A graph file includes
 * this file with `require_once __DIR__ . '/gtc_attributes.php';` at its top level, which gtc
 * allows and ignores. */
declare(strict_types=1);

namespace Gtc;

use Attribute;

/* Marks a function as a graph; $name is the graph's name (default: the function's name); $dims
 * declares symbolic dimensions and their bounds (['batch' => 4096]), which an input's shape names
 * as its first entry (#[Input('float32', ['batch', 480])]: docs/graph-format.md §3.1). */
#[Attribute(Attribute::TARGET_FUNCTION)]
final class Graph
{
    /** @param array<string, int> $dims symbolic dimensions and their bounds: ['batch' => 4096] */
    public function __construct(public readonly ?string $name = null, public readonly array $dims = []) {}
}

/* A parameter's dtype and shape; [] is a runtime scalar (a kernel parameter). */
#[Attribute(Attribute::TARGET_PARAMETER)]
final class Input
{
    public function __construct(public readonly string $dtype, public readonly array $shape) {}
}

/* Outputs that reuse an input's buffer: #[Donate('w1')] (output w1 reuses input w1) or
 * #[Donate(w1_next: 'w1')] (output w1_next reuses input w1). */
#[Attribute(Attribute::TARGET_FUNCTION | Attribute::IS_REPEATABLE)]
final class Donate
{
    /** @var array<int|string, string> */
    public readonly array $outputs;

    public function __construct(string ...$outputs)
    {
        $this->outputs = $outputs;
    }
}

/* The JSON "train" section (docs/graph-format.md): the compiled step adds the gradients of $loss
 * with respect to $params and the optimizer update; an eager call runs the forward pass only. */
#[Attribute(Attribute::TARGET_FUNCTION)]
final class Train
{
    public function __construct(
        public readonly string $loss,
        public readonly array $params,
        public readonly array $optimizer,
        public readonly array $stop_gradient = [],
    ) {}
}
