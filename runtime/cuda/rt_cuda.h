/* runtime/cuda/rt_cuda.h: the CUDA backend's C API: device selection, the backend table, and a
 * few knobs (TF32, the allocator cache) for the PHP layer. Plain C; no CUDA headers needed.
 *
 * Life cycle: rt_cuda_init once (selects the device, creates the context's stream and cuBLAS
 * handle); then tensors on &rt_cuda_backend; rt_cuda_shutdown at process end. Every backend
 * function fails cleanly (rt_error) when called before a successful rt_cuda_init. */
#ifndef GTC_RT_CUDA_H
#define GTC_RT_CUDA_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "../core/rt.h"

extern const RtBackend rt_cuda_backend;
/* Its plan operations (cuda_plan_jit.cu: one CUDA Graph) and user kernels (cuda_nvrtc.cu). */
extern const RtPlanOps rt_cuda_plan_ops;
extern const RtModuleOps rt_cuda_module_ops;
/* Its collectives (runtime/core/dist.h) through NCCL loaded at run time (cuda_nccl.cu). */
extern const RtDistOps rt_cuda_dist_ops;

/* Selects CUDA device `device` (0 = first visible) and sets up the context. Returns 0, or -1
 * with a reason in err ("no CUDA device is available (cudaGetDeviceCount: cudaErrorNoDevice
 * ...)"); never crashes on a machine without a GPU or driver. A second call for the same
 * device is a no-op; for another device it fails (one device per process). */
int rt_cuda_init(int device, char *err, size_t errn);
/* True after a successful rt_cuda_init. */
bool rt_cuda_ready(void);
/* The selected device's index and name ("NVIDIA H200"); -1 / "" before init. */
int rt_cuda_device(void);
const char *rt_cuda_device_name(void);
/* A device's name, SM count, compute capability, shared memory and memory (RtDeviceInfo);
 * device -1: the selected one. */
int rt_cuda_device_info(int device, RtDeviceInfo *out);
/* The driver's and the runtime's CUDA versions (1000*major + 10*minor). */
int rt_cuda_versions(int *driver, int *runtime);
/* Whether device can access peer's memory directly (1/0), -1 after rt_error. */
int rt_cuda_peer_access(int device, int peer);
/* The number of visible devices (0 without a driver or GPU; never fails). */
int rt_cuda_device_count(void);
/* Frees cached device blocks, the staging buffer, the stream and the cuBLAS handle. */
void rt_cuda_shutdown(void);

/* float32 matmul in TF32 (opt-in; default off = strict FP32). */
void rt_cuda_set_tf32(bool on);
bool rt_cuda_tf32(void);

/* The caching allocator: returns every cached (free) block to the driver; returns the bytes
 * released. Bytes held by live tensors and bytes cached are reported by rt_cuda_mem_stats. */
size_t rt_cuda_empty_cache(void);
void rt_cuda_mem_stats(size_t *in_use, size_t *cached, size_t *cuda_mallocs);
/* The device's free and total memory as the driver reports them (cudaMemGetInfo: every
 * process's allocations count). 0, or -1 after rt_error (before init, or a CUDA error). */
int rt_cuda_mem_info(size_t *free_bytes, size_t *total_bytes);

/* The context's stream as a cudaStream_t (for NVRTC launches and CUDA Graph capture). */
void *rt_cuda_stream(void);

/* Test hook: sets `bytes` bytes of device memory at dst to `byte` (poisoning outputs). */
int rt_cuda_memset(void *dst, int byte, size_t bytes);

#ifdef __cplusplus
}
#endif

#endif
