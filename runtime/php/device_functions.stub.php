<?php

/**
 * runtime/php/device_functions.stub.php: the device functions of php-gpu-tensors (the `cuda_*`
 * functions its users call), answered by gtc's backend table. device_functions_arginfo.h is
 * written by hand in gen_stub.php's style to match this file; tests/php/device_functions.phpt
 * checks names, parameters and types against the loaded extension. On a machine without a CUDA
 * device the count is 0, the backend is "cpu", and the questions only a device can answer throw
 * Cuda\RuntimeException ("no CUDA device is available ..."). docs/compat.md lists differences.
 *
 * @generate-function-entries
 */

/** What this build and process use: backend, devices, libraries, matmul precision. */
function cuda_get_backend_info(): array {}

/** CUDA devices visible to this process (0 without a driver or a GPU). */
function cuda_get_device_count(): int {}

/** name, compute_capability_major/minor, total_global_memory, multiprocessor_count, shared memory. */
function cuda_get_device_info(int $deviceId = 0): array {}

/** Selects the device this process uses (one per process: the first selection holds). */
function cuda_set_device(int $deviceId): bool {}

/** The device in use, or the one the first CUDA operation will select. */
function cuda_get_current_device(): int {}

/** free_memory, total_memory, used_memory (bytes) and usage_percentage of the device in use. */
function cuda_get_memory_info(): array {}

/** Waits for the device and returns its cached memory to the driver; live tensors stay valid. */
function cuda_device_reset(): bool {}

/** ['version' => 13000, 'version_string' => '13.0'] */
function cuda_get_driver_version(): array {}

/** ['version' => 13000, 'version_string' => '13.0'] */
function cuda_get_runtime_version(): array {}

/** Blocks until queued device work finishes. */
function cuda_synchronize(): bool {}

/** The runtime's pending error (code, error_message, error_type), or null; clears it. */
function cuda_get_last_error(): ?array {}

/** Clears the pending error. */
function cuda_clear_error(): bool {}

/** Whether device1 can read device2's memory directly. */
function cuda_get_peer_access(int $device1, int $device2): bool {}

/** Eager float32 matmul precision: "fp32-strict" (or "fp32", "highest") or "tf32" (or "high", a
 *  CUDA device of compute capability 8.0+); returns the mode now in force. */
function cuda_set_matmul_precision(string $precision): string {}
