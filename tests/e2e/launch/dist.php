<?php
// tests/e2e/launch/dist.php: Cuda\Distributed::init() under `gtc run` on the CPU backend: a world
// of 1 joins (rank 0 of 1, identity all-reduce); a larger one is refused with its message.
use Cuda\{CudaArray, Distributed};
try {
    Distributed::init();
} catch (Cuda\RuntimeException $e) {
    fprintf(STDERR, "rank %s: %s\n", getenv('RANK'), $e->getMessage());
    exit(3);
}
$x = new CudaArray([1.0, 2.0]);
Distributed::allReduce($x, 'mean');
Distributed::barrier();
printf("rank %d of %d: %s shard %s\n", Distributed::rank(), Distributed::worldSize(), json_encode($x->toArray()),
       json_encode(Distributed::shard(5, 0, false)));
