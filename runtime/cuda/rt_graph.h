/* runtime/cuda/rt_graph.h: a plan table (runtime/core/plan_abi.h) replayed as one CUDA Graph; used by
 * the CUDA backend's plan operations (cuda_plan_jit.cu, RtBackend.plan), which the executor
 * (runtime/core/exec.c) calls through the backend table. */
#ifndef GTC_RT_GRAPH_H
#define GTC_RT_GRAPH_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "../core/plan_abi.h"

typedef struct RtCudaGraph RtCudaGraph;

/* Builds and instantiates the graph with `args` as every node's parameter block; step i runs
 * kernels[i] (a __global__ function's address or a cudaKernel_t: rt_plan_kernels_table). */
RtCudaGraph *rt_cuda_graph_new(const RtPlan *plan, const void *const *kernels, const void *args, size_t nbytes);
/* Launches it on the context's stream, first updating the nodes when `args` changed: 0, -1 with
 * the error set, or RT_GRAPH_RESHAPED (nothing launched) when a cuBLASLt call captured with the
 * new pointers has another shape of graph than the instantiated one (cuBLASLt's algorithm for
 * operands aligned to their element only, or another candidate's kernel count): the caller
 * builds the graph anew with rt_cuda_graph_new and launches that. */
int rt_cuda_graph_launch(RtCudaGraph *g, const void *args, size_t nbytes);
#define RT_GRAPH_RESHAPED 1
void rt_cuda_graph_free(RtCudaGraph *g);
/* Whether the graph captured a data-parallel world that is no longer the one joined (init() or
 * destroy() since it was built: runtime/core/dist.h): the executor builds it again. */
bool rt_cuda_graph_stale(const RtCudaGraph *g);

#ifdef __cplusplus
}
#endif

#endif
