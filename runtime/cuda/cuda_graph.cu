// runtime/cuda/cuda_graph.cu: a plan as one CUDA Graph. Every step is a kernel node taking the
// plan's argument block by value (runtime/core/plan_abi.h), running the kernel the executor chose for
// it (the model's cubin or its NVRTC build, rt_plan_jit.h); the graph is built once, explicitly, so
// the executor holds each node's handle. A later run whose pointers or scalars differ updates
// the parameters of the nodes whose steps use a changed slot (no re-capture, no re-instantiation).
// On sm_90 and later, dependent steps are linked with programmatic edges: a step's kernel is
// launched as soon as the steps it depends on have started all their blocks, and waits for them
// in gtc_wait_prior_steps() (templates/kernels_prelude.cuh), which hides launch latency along the
// graph's critical path. The edges are the plan's (RtPlanStep.after), from which the compiler
// already left out those that others imply (compiler/pass_lower.c: a kernel with two
// programmatic in-edges was not launched early). GTC_PROGRAMMATIC_EDGES=0 builds ordinary edges
// instead. A
// step marked own_sm (the tiled GEMM) gets an SM per block through padded shared memory. A
// GEMM step lowered to cuBLASLt (RtPlanStep.blas) is a child graph (the captured call,
// cuda_plan_blas.cu) followed by its kernel, the epilogue, when it has one; edges into and out of
// it are ordinary (programmatic edges join kernel nodes only), and a run that changes a pointer
// it uses captures it again and swaps the child graph in place. A data-parallel plan's all-reduce
// step (RtPlanStep.dist) is, while a world is joined (runtime/core/dist.h), a child graph holding
// the captured collective (NCCL's all-reduce of the bucket, in place in the arena) instead of
// its empty kernel; a graph built before init() or destroy() is stale and built again.
#include <stdlib.h>

#include "cuda_internal.cuh"
#include "rt_graph.h"
#include "rt_plan_blas.h"

#include "../core/dist.h"

struct RtCudaGraph {
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    int nnodes;
    cudaGraphNode_t *nodes;
    cudaKernelNodeParams *params;
    cudaGraphNode_t *kernel;   // per step: its kernel node (NULL: a cuBLASLt step without epilogue)
    RtCudaBlas **blas;         // per step: its cuBLASLt call (NULL: a kernel step)
    cudaGraphNode_t *child;    // per step: the child graph node of that call (or of an all-reduce)
    bool dist;                 // some step's all-reduce was captured (or left empty: no world)
    unsigned generation;       // rt_dist_generation() when it was built
    int nslots;     // 8-byte slots of the argument block: pointers, then scalars
    uint64_t *uses; // per node: its step's RtPlanStep.uses
    unsigned char args[RT_PLAN_MAX_ARGS_BYTES];
    size_t nbytes;
    void *argp[1];
};

extern "C" bool rt_cuda_graph_stale(const RtCudaGraph *g) { return g->dist && g->generation != rt_dist_generation(); }

/* Step s's all-reduce (its bucket in the arena of argument block args) captured into a new graph
 * on a stream of its own. 0, or -1 with rt_error. */
static int capture_allreduce(const RtPlan *plan, const RtPlanStep *s, const unsigned char *args, cudaGraph_t *out) {
    char *arena = ((char *const *)(const void *)args)[plan->ninputs + plan->noutputs];
    cudaStream_t cap = NULL;
    CU_TRY("capturing an all-reduce step", cudaStreamCreateWithFlags(&cap, cudaStreamNonBlocking));
    cudaError_t e = cudaStreamBeginCapture(cap, cudaStreamCaptureModeThreadLocal);
    if (e != cudaSuccess) {
        cudaStreamDestroy(cap);
        return cuda_fail("capturing an all-reduce step", e);
    }
    int rc = rt_dist_plan_all_reduce(&rt_cuda_backend, arena + s->dist.off, s->dist.count, s->dist.dtype, cap);
    cudaGraph_t g = NULL;
    e = cudaStreamEndCapture(cap, &g);
    cudaStreamDestroy(cap);
    if (rc) {
        if (g) cudaGraphDestroy(g);
        return -1;
    }
    if (e != cudaSuccess) return cuda_fail("capturing an all-reduce step", e);
    *out = g;
    return 0;
}

extern "C" void rt_cuda_graph_free(RtCudaGraph *g) {
    if (!g) return;
    if (g->exec) cudaGraphExecDestroy(g->exec);
    if (g->graph) cudaGraphDestroy(g->graph);
    for (int i = 0; g->blas && i < g->nnodes; i++) rt_cuda_blas_free(g->blas[i]);
    free(g->nodes);
    free(g->params);
    free(g->uses);
    free(g->kernel);
    free(g->blas);
    free(g->child);
    free(g);
}

/* Programmatic edges need sm_90 and may be turned off with GTC_PROGRAMMATIC_EDGES=0. */
static bool programmatic_edges(void) {
    const char *env = getenv("GTC_PROGRAMMATIC_EDGES");
    if (env && strcmp(env, "0") == 0) return false;
    int major = 0;
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, g_cuda.device) != cudaSuccess) {
        cudaGetLastError();
        return false;
    }
    return major >= 9;
}

/* Dynamic shared memory that keeps two blocks of step s's kernel off one SM, or 0. A tiled
 * GEMM's block is bound by its own load latency; when SMs free up unevenly (the steps before it
 * still running), the block scheduler packs two of its blocks onto one SM, and those two set the
 * step's end: measured on the H200, the train step's x^T @ dh1 ran 10.4 us in the graph against
 * 7.1 us with an SM per block. Only for grids that fit in one wave: a larger one would need
 * more waves. The padding is requested, never touched. */
static unsigned own_sm_padding(const RtPlanStep *s, const void *kernel) {
    if (!s->own_sm) return 0;
    int sms = 0, per_sm = 0, optin = 0, reserved = 0;
    cudaFuncAttributes fa;
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, g_cuda.device) != cudaSuccess ||
        cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, g_cuda.device) != cudaSuccess ||
        cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, g_cuda.device) != cudaSuccess ||
        cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, g_cuda.device) != cudaSuccess ||
        cudaFuncGetAttributes(&fa, kernel) != cudaSuccess) {
        cudaGetLastError();
        return 0; /* an optimisation only */
    }
    const unsigned long long blocks = (unsigned long long)s->grid[0] * s->grid[1] * s->grid[2];
    /* two blocks fit when 2 (static + dynamic + reserved) <= per_sm */
    const long long pad = (long long)per_sm / 2 - (long long)fa.sharedSizeBytes - reserved - (long long)s->smem + 1024;
    if (blocks > (unsigned long long)sms || pad <= 0 || (long long)fa.sharedSizeBytes + s->smem + pad > optin) return 0;
    return (unsigned)pad;
}

extern "C" RtCudaGraph *rt_cuda_graph_new(const RtPlan *plan, const void *const *kernels, const void *args,
                                          size_t nbytes) {
    if (cuda_check_ready("plan")) return NULL;
    if (!kernels) {
        rt_error(RT_ERUNTIME, "plan %s has no CUDA kernels", plan->graph);
        return NULL;
    }
    RtCudaGraph *g = (RtCudaGraph *)calloc(1, sizeof *g);
    if (!g) {
        rt_error(RT_EOOM, "out of host memory");
        return NULL;
    }
    g->nnodes = plan->nsteps;
    g->nslots = plan->ninputs + plan->noutputs + 1 + plan->nscalars;
    g->nodes = (cudaGraphNode_t *)calloc((size_t)plan->nsteps + 1, sizeof *g->nodes);
    g->params = (cudaKernelNodeParams *)calloc((size_t)plan->nsteps + 1, sizeof *g->params);
    g->uses = (uint64_t *)calloc((size_t)plan->nsteps + 1, sizeof *g->uses);
    g->kernel = (cudaGraphNode_t *)calloc((size_t)plan->nsteps + 1, sizeof *g->kernel);
    g->blas = (RtCudaBlas **)calloc((size_t)plan->nsteps + 1, sizeof *g->blas);
    g->child = (cudaGraphNode_t *)calloc((size_t)plan->nsteps + 1, sizeof *g->child);
    if (!g->nodes || !g->params || !g->uses || !g->kernel || !g->blas || !g->child) {
        rt_cuda_graph_free(g);
        rt_error(RT_EOOM, "out of host memory");
        return NULL;
    }
    memcpy(g->args, args, nbytes);
    g->nbytes = nbytes;
    g->argp[0] = g->args;
    const bool prog = programmatic_edges();
    uint64_t reach[64] = {0}; /* bit j of reach[i]: step j runs before step i in every replay */
    for (int i = 0; i < plan->nsteps && plan->nsteps <= 64; i++) {
        reach[i] = plan->steps[i].after;
        for (int j = 0; j < i; j++)
            if ((plan->steps[i].after >> j) & 1) reach[i] |= reach[j];
    }
    cudaError_t e = cudaGraphCreate(&g->graph, 0);
    for (int i = 0; e == cudaSuccess && i < plan->nsteps; i++) {
        const RtPlanStep *s = &plan->steps[i];
        g->uses[i] = s->uses;
        cudaKernelNodeParams *p = &g->params[i];
        p->func = (void *)kernels[i];
        p->gridDim = dim3(s->grid[0], s->grid[1], s->grid[2]);
        p->blockDim = dim3(s->block[0], s->block[1], s->block[2]);
        p->sharedMemBytes = s->smem + own_sm_padding(s, kernels[i]);
        if (p->sharedMemBytes > 48 * 1024) /* beyond the default: the kernel must opt in */
            e = cudaFuncSetAttribute(kernels[i], cudaFuncAttributeMaxDynamicSharedMemorySize, (int)p->sharedMemBytes);
        p->kernelParams = g->argp;
        p->extra = NULL;
        if (e != cudaSuccess) break;
        /* The plan's edges (already reduced), so independent steps overlap; over 64 steps: a
         * chain. g->nodes[k] is step k's last node; kdeps: those that are kernel nodes. */
        cudaGraphNode_t deps[64], kdeps[64];
        size_t ndeps = 0, nk = 0;
        if (plan->nsteps > 64) {
            if (i) deps[ndeps++] = g->nodes[i - 1];
        } else {
            for (int k = 0; k < i; k++)
                if ((s->after >> k) & 1) deps[ndeps++] = g->nodes[k];
        }
        if (s->dist.on) { /* the plan has all-reduce steps: rebuilt when the world changes */
            g->dist = true;
            g->generation = rt_dist_generation();
        }
        if (s->dist.on && rt_dist_plan_joined(&rt_cuda_backend)) { /* the collective, after every dependency */
            cudaGraph_t child = NULL;
            if (capture_allreduce(plan, s, g->args, &child)) {
                rt_cuda_graph_free(g);
                return NULL;
            }
            e = cudaGraphAddChildGraphNode(&g->child[i], g->graph, ndeps ? deps : NULL, ndeps, child);
            cudaGraphDestroy(child);
            g->nodes[i] = g->child[i];
            g->uses[i] = 0; /* the arena, its one pointer, is the executor's for good */
            continue;
        }
        if (s->blas.on) { /* the captured call after every dependency, then the epilogue after it */
            cudaGraph_t child = NULL;
            if (!(g->blas[i] = rt_cuda_blas_new(&s->blas, plan->graph, i))) {
                rt_cuda_graph_free(g);
                return NULL;
            }
            for (int k = 0; k < 2; k++) /* a copy an ancestor stages (over 64 steps: any earlier step) */
                for (int j = i - 1; j >= 0; j--)
                    if (g->blas[j] && (plan->nsteps > 64 || ((reach[i] >> j) & 1)) &&
                        rt_cuda_blas_share(g->blas[i], k, g->blas[j]))
                        break;
            if (rt_cuda_blas_capture(g->blas[i], g->args, &child)) {
                rt_cuda_graph_free(g);
                return NULL;
            }
            e = cudaGraphAddChildGraphNode(&g->child[i], g->graph, ndeps ? deps : NULL, ndeps, child);
            cudaGraphDestroy(child); /* the node holds a copy */
            g->nodes[i] = g->child[i];
            if (e != cudaSuccess || !s->blas.epilogue) continue;
            e = cudaGraphAddKernelNode(&g->kernel[i], g->graph, &g->child[i], 1, p);
            g->nodes[i] = g->kernel[i];
            continue;
        }
        for (size_t k = 0; prog && k < ndeps; k++) {
            cudaGraphNodeType t;
            if (cudaGraphNodeGetType(deps[k], &t) == cudaSuccess && t == cudaGraphNodeTypeKernel)
                kdeps[nk++] = deps[k];
            else /* ordinary edges from a cuBLASLt step's child graph */
                deps[k - nk] = deps[k];
        }
        if (prog) ndeps -= nk;
        e = cudaGraphAddKernelNode(&g->nodes[i], g->graph, ndeps ? deps : NULL, ndeps, p);
        g->kernel[i] = g->nodes[i];
        if (e != cudaSuccess || !prog) continue;
        for (size_t k = 0; e == cudaSuccess && k < nk; k++) {
            cudaGraphEdgeData ed;
            memset(&ed, 0, sizeof ed);
            ed.type = cudaGraphDependencyTypeProgrammatic;
            ed.from_port = cudaGraphKernelNodePortLaunchCompletion;
            e = cudaGraphAddDependencies(g->graph, &kdeps[k], &g->nodes[i], &ed, 1);
        }
    }
    if (e == cudaSuccess) e = cudaGraphInstantiate(&g->exec, g->graph, 0);
    if (e != cudaSuccess) {
        cuda_fail("building the plan's CUDA graph", e);
        rt_cuda_graph_free(g);
        return NULL;
    }
    return g;
}

/* A node keeps its own copy of the argument block; it needs the new one only if its step uses a
 * slot that changed. */
extern "C" int rt_cuda_graph_launch(RtCudaGraph *g, const void *args, size_t nbytes) {
    if (nbytes != g->nbytes || memcmp(args, g->args, nbytes) != 0) {
        uint64_t changed = 0;
        if (nbytes != g->nbytes || (size_t)g->nslots * 8 != nbytes)
            changed = ~(uint64_t)0;
        else
            for (int k = 0; k < g->nslots; k++)
                if (memcmp((const unsigned char *)args + 8 * k, g->args + 8 * k, 8) != 0)
                    changed |= (uint64_t)1 << (k < 63 ? k : 63);
        memcpy(g->args, args, nbytes);
        g->nbytes = nbytes;
        for (int i = 0; i < g->nnodes; i++) {
            if (!(g->uses[i] & changed)) continue;
            if (g->blas[i]) {
                cudaGraph_t child = NULL;
                if (rt_cuda_blas_capture(g->blas[i], g->args, &child)) return -1;
                cudaError_t e = cudaGraphExecChildGraphNodeSetParams(g->exec, g->child[i], child);
                cudaGraphDestroy(child);
                if (e != cudaSuccess) { /* another shape of graph: the caller builds it anew (patching
                                          * the template graph's child node and instantiating it
                                          * again failed with cudaErrorInvalidValue on the H200) */
                    cudaGetLastError();
                    g->nbytes = 0; /* this graph's nodes no longer match any argument block */
                    return RT_GRAPH_RESHAPED;
                }
            }
            if (g->kernel[i])
                CU_TRY("updating the plan's CUDA graph",
                       cudaGraphExecKernelNodeSetParams(g->exec, g->kernel[i], &g->params[i]));
        }
    }
    CU_TRY("launching the plan's CUDA graph", cudaGraphLaunch(g->exec, g_cuda.stream));
    return 0;
}
