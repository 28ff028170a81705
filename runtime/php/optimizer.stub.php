<?php

/**
 * runtime/php/optimizer.stub.php: Cuda\Optimizer, php-gpu-tensors' functional optimizer (its
 * sgd(), adamW(), initState(), step(), zeroGrad()) with gtc's additions: adam(), Nesterov,
 * gradient clipping, the learning-rate setter, saveState()/loadState(). optimizer_arginfo.h is
 * written by hand in gen_stub.php's style to match this file; tests/php/stub_reflection.phpt
 * checks it against the loaded extension. docs/optimizer.md describes the semantics.
 *
 * @generate-class-entries
 */

namespace Cuda;

/**
 * @strict-properties
 * @not-serializable
 */
final class Optimizer
{
    /** Made by sgd(), adam() or adamW(). */
    private function __construct() {}

    /** torch.optim.SGD: momentum buffers, Nesterov, L2 weight decay; clipping (null: none) before it all. */
    public static function sgd(float $learningRate = 0.01, float $momentum = 0.0, float $weightDecay = 0.0, bool $nesterov = false, ?float $clipValue = null, ?float $clipNorm = null): Optimizer {}

    /** torch.optim.AdamW: decoupled weight decay, p * (1 - lr * weightDecay). */
    public static function adamW(float $learningRate = 0.001, float $beta1 = 0.9, float $beta2 = 0.999, float $epsilon = 1.0e-8, float $weightDecay = 0.01, ?float $clipValue = null, ?float $clipNorm = null): Optimizer {}

    /** torch.optim.Adam: weight decay added to the gradient (L2). */
    public static function adam(float $learningRate = 0.001, float $beta1 = 0.9, float $beta2 = 0.999, float $epsilon = 1.0e-8, float $weightDecay = 0.0, ?float $clipValue = null, ?float $clipNorm = null): Optimizer {}

    /** Zeroed state for these parameters: 'velocity' (sgd with momentum), or 'firstMoment', 'secondMoment', 'beta1Power', 'beta2Power' (adam, adamW). */
    public function initState(array $parameters): array {}

    /**
     * One update: ['parameters' => new tensors, 'state' => the next state]; nothing passed in is
     * modified. $learningRate (a one-element tensor) overrides the optimizer's own for this step;
     * $weightDecayMask (one bool per parameter) turns weight decay off where false. Inside
     * Cuda\Fusion::compile the update is traced into the compiled graph.
     */
    public function step(array $parameters, array $gradients, array $state, ?CudaArray $learningRate = null, ?array $weightDecayMask = null): array {}

    /** Calls zeroGrad() on each parameter (eager autograd). */
    public function zeroGrad(array $parameters): void {}

    public function getLearningRate(): float {}

    /** The learning rate of later steps (no rebuilding: the next step() uses it). */
    public function setLearningRate(float $learningRate): void {}

    /** type ('sgd', 'adam', 'adamW') and every hyper-parameter. */
    public function getOptions(): array {}

    /** The state as a .npz checkpoint (docs/checkpoints.md): members velocity.0, firstMoment.0, ..., beta1Power. */
    public function saveState(string $path, array $state, bool $compress = false): void {}

    /** A state saved by saveState(), checked against these parameters (count, shapes, dtypes) and this optimizer's type. */
    public function loadState(string $path, array $parameters): array {}
}
