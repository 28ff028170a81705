/* runtime/cuda/rt_plan_jit.h: the kernels a plan (runtime/core/plan_abi.h) runs with on the current
 * GPU. Normally the cubin nvcc embedded in the model (plan->cuda); when that image has no code
 * this GPU can run (an architecture older than the model's cubin and PTX: cudaFuncGetAttributes
 * says cudaErrorNoKernelImageForDevice or cudaErrorInvalidDeviceFunction), the plan's kernels.cu
 * text (plan->cuda_source) is compiled once with NVRTC for this GPU, cached on disk
 * (runtime/core/kcache.h), loaded with cudaLibraryLoadData, and its gtc_k* kernels are used as
 * cudaKernel_t handles. GTC_FORCE_JIT=1 takes the NVRTC path even when the cubin works.
 *
 * Used by the CUDA backend's plan operations (the end of cuda_plan_jit.cu), which the executor
 * (runtime/core/exec.c) reaches through RtBackend.plan.
 * Plain C; no CUDA headers needed. Needs a successful rt_cuda_init. */
#ifndef GTC_RT_PLAN_JIT_H
#define GTC_RT_PLAN_JIT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "../core/exec.h"

typedef struct RtPlanKernels RtPlanKernels;

/* The kernel table of plan on the current device: a reference the caller gives back with
 * rt_plan_kernels_release. Executors of the same plan share one (the NVRTC compile and the
 * library load happen once per process). NULL after rt_error: RT_ECOMPILE when NVRTC rejects
 * kernels.cu, RT_ERUNTIME for CUDA errors. */
RtPlanKernels *rt_plan_kernels_get(const RtPlan *plan);
/* One kernel per step (a __global__ function's address or a cudaKernel_t), for
 * cudaGraphAddKernelNode. */
const void *const *rt_plan_kernels_table(const RtPlanKernels *k);
/* "cubin" (the model's own image), "nvrtc" (compiled in this process) or "nvrtc-cache" (a
 * cubin/PTX from the disk cache). */
const char *rt_plan_kernels_source(const RtPlanKernels *k);
/* Drops a reference; the last one waits for the context's stream and unloads the library. */
void rt_plan_kernels_release(RtPlanKernels *k);

/* NVRTC alone (no device needed): compiles kernels.cu text `src` (diagnostics name it `name`)
 * for arch "sm_XY" (a cubin) or "compute_XY" (PTX, NUL included in *n). Returns 0 with a
 * malloc'd *image; or -1 after rt_error (RT_ECOMPILE for a rejected program), with NVRTC's log
 * in *log (malloc'd, may be NULL) when log is not NULL. */
int rt_plan_nvrtc_compile(const char *src, const char *name, const char *arch, void **image, size_t *n,
                          char **log);

#ifdef __cplusplus
}
#endif

#endif
