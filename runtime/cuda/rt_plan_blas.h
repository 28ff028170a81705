/* runtime/cuda/rt_plan_blas.h: a plan's GEMM step through cuBLASLt (cuda_plan_blas.cu), for the
 * plan's CUDA Graph (cuda_graph.cu): built once per executor, captured again when its pointers
 * change. */
#ifndef GTC_RT_PLAN_BLAS_H
#define GTC_RT_PLAN_BLAS_H

#include <cuda_runtime.h>

#include "../core/plan_abi.h"

typedef struct RtCudaBlas RtCudaBlas;

extern "C" {
/* The step's matmul description, layouts, algorithm and workspace; NULL with rt_error. */
RtCudaBlas *rt_cuda_blas_new(const RtPlanGemm *gm, const char *graph, int step);
/* The cuBLASLt call with the pointers of argument block `args`, captured into a new graph (the
 * caller's). 0, or -1 with rt_error. */
int rt_cuda_blas_capture(RtCudaBlas *b, const void *args, cudaGraph_t *out);
/* Whether b's operand k (0: A, 1: B), which b would stage, is a copy `from` stages too (the same
 * value, place, extent and form); then b reads from's copy and stages nothing for it. `from` must
 * run before b in every replay (an ancestor in the plan's graph) and outlive it. */
bool rt_cuda_blas_share(RtCudaBlas *b, int k, const RtCudaBlas *from);
void rt_cuda_blas_free(RtCudaBlas *b);
/* Releases the cuBLASLt handle (rt_cuda_shutdown). */
void rt_cuda_blas_shutdown(void);
}

#endif
