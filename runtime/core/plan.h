/* runtime/core/plan.h: the plan table, the one contract between the compiler's generated code
 * and the runtime's executor. A model extension (AOT) embeds one RtPlan as static data next to
 * its generated kernels; the JIT builds the same struct in memory. The executor (exec.c) runs it
 * on the CPU backend (C functions) or on the GPU as one CUDA Graph (kernel nodes).
 *
 * The argument block. Every generated kernel — CPU or CUDA, every step kind — takes the same
 * argument block by value (CUDA) or by pointer (CPU):
 *     struct { char *p[nptrs]; double s[nscalars]; }
 * p[0 .. ninputs)                 the inputs' element-0 addresses (rank-0 inputs: unused, NULL)
 * p[ninputs .. ninputs+noutputs)  the outputs' addresses (a donated output: its input's)
 * p[ninputs+noutputs]             the arena's base address
 * s[k]                            the value of the k-th rank-0 input (runtime scalars)
 * Kernels add constant offsets to these (arena offsets, view offsets are compiled in). On the GPU
 * the executor captures the block once into the graph's kernel nodes and updates the nodes'
 * parameters only when a pointer or scalar changed, so new inputs never force a re-capture. */
#ifndef GTC_PLAN_H_RT
#define GTC_PLAN_H_RT

#include <stdint.h>

#include "rt.h"

#define RT_PLAN_ABI 5 /* 3: RtPlanStep.uses; CUDA kernels begin with gtc_wait_prior_steps(); 4: .own_sm;
                       * 5: .after holds only the edges no others imply (was: every conflict) */
#define RT_PLAN_MAX_ARGS_BYTES 4096 /* CUDA's kernel parameter space */

/* The size of a plan's argument block (above); a plan whose block is larger than
 * RT_PLAN_MAX_ARGS_BYTES cannot run (the code generators refuse it). */
static inline size_t rt_plan_args_bytes(int ninputs, int noutputs, int nscalars) {
    return sizeof(void *) * (size_t)(ninputs + noutputs + 1) + sizeof(double) * (size_t)nscalars;
}

typedef struct {
    const char *name;
    DType dtype;
    int rank;
    int64_t dims[IR_MAX_RANK];
    int scalar;       /* inputs: rank 0, passed by value as s[scalar]; -1 otherwise */
    int donated_from; /* outputs: the input whose buffer it reuses; -1 for fresh storage */
} RtPlanIO;

typedef enum { RT_STEP_ELEMWISE, RT_STEP_REDUCE, RT_STEP_ROW, RT_STEP_GEMM, RT_STEP_COPY } RtStepKind;

typedef struct {
    RtStepKind kind;
    const char *kernel;  /* generated function name, e.g. "gtc_k3" */
    const char *ops;     /* the fused ops in order, e.g. "max,sub,exp,sum,log" */
    const char *reads;   /* the values it reads, e.g. "x,w1,b1" */
    const char *writes;  /* the values it writes, e.g. "h1,a1" */
    const char *reason;  /* the planner's reason */
    unsigned grid[3], block[3], smem; /* CUDA launch configuration (fixed shapes) */
    uint64_t after;      /* bit i: this step waits for step i (it reads what i writes, or writes
                          * what i reads or writes), set only where no other edge implies the wait
                          * (the transitive reduction, compiler/pass_lower.c): the GPU graph's
                          * edges as they are. Plans of over 64 steps run in order (all 0). */
    uint64_t uses;       /* bit k < 63: the step's kernel uses slot k of the argument block (the
                          * pointers p[0 ..], then the scalars s[0 ..]); bit 63: some slot >= 63.
                          * A GPU run with new pointers updates only the nodes that use them. */
    unsigned own_sm;     /* 1: no two blocks of this kernel should share an SM (a tiled GEMM: each
                          * block is bound by its own load latency, and two on one SM run ~1.45x
                          * slower). The CUDA executor pads the block's dynamic shared memory so
                          * that two cannot fit when the grid fits in one wave (cuda_graph.cu). */
} RtPlanStep;

typedef void (*RtCpuKernel)(const void *args);

struct RtPlan {
    int abi;                   /* RT_PLAN_ABI */
    const char *graph;         /* graph name, e.g. "mlp_train_step" */
    const char *class_name;    /* "MlpTrainStep" */
    const char *source;        /* the input file name it was compiled from */
    int ninputs, noutputs, nscalars;
    const RtPlanIO *inputs, *outputs;
    int nsteps;
    const RtPlanStep *steps;
    int64_t arena_bytes;
    int nodes, fused_kernels, gemms, reductions; /* for getStats() */
    const RtCpuKernel *cpu;    /* one per step */
    const void *const *cuda;   /* one __global__ function (or cudaKernel_t) per step; NULL: no GPU code */
    const char *cuda_source;   /* kernels.cu, for getSource() and the NVRTC fallback */
    const char *cpu_source;    /* kernels_cpu.c, for getSource() */
};
typedef struct RtPlan RtPlan;

/* How a backend runs plans (RtBackend.plan). The executor (exec.c) calls only these, so the
 * core knows no backend: the CPU's are in runtime/cpu/cpu_plan.c, CUDA's in
 * runtime/cuda/cuda_graph.cu. */
struct RtPlanOps {
    const char *runner; /* what getStats()['backend'] says: "cpu", "cuda-graph" */
    /* The plan's kernels on this backend, shared by the executors of one plan (a reference
     * given back with kernels_release): the plan's own code (plan->cpu, plan->cuda), or code
     * built now from its source (plan->cpu_source with the C compiler, plan->cuda_source with
     * NVRTC), through the kernel cache. NULL after rt_error: RT_EUNSUPPORTED when the backend
     * has neither code nor a way to build it (no C compiler), RT_ECOMPILE when building failed. */
    void *(*kernels_get)(const RtPlan *p);
    /* Where they came from: "cpu" or "cubin" (the plan's own), "cc"/"nvrtc" (built in this
     * process), "cc-cache"/"nvrtc-cache" (from the disk cache). */
    const char *(*kernels_source)(const void *k);
    void (*kernels_release)(void *k);
    /* Runs every step once with one argument block (above). *state is the executor's (NULL on
     * the first run: CUDA builds its graph there), freed with state_free. 0, or -1 after rt_error. */
    int (*run)(void **state, const RtPlan *p, void *k, const void *args, size_t nbytes);
    void (*state_free)(void *state);
};

/* Executes a plan. Inputs in plan order; outputs are created (or, when donated, are the input
 * tensors themselves, returned retained). One executor per plan instance; it owns the arena and,
 * on the GPU, the CUDA Graph. */
typedef struct RtExec RtExec;

RtExec *rt_exec_new(const RtPlan *plan, const RtBackend *b);
void rt_exec_free(RtExec *e);
/* Checks every input (count, dtype, shape, device) and throws nothing: returns -1 after
 * rt_error(RT_EINVAL, "input \"x\": ...") with no state changed. `scalars` holds the values of
 * rank-0 inputs (NULL entries in `in`). Fills out[0..noutputs). */
int rt_exec_run(RtExec *e, RtTensor *const *in, const double *scalars, RtTensor **out);
/* rt_exec_run's checks alone (dtype, shape, device, contiguity of each tensor input), for a
 * caller that runs the plan some other way (the JIT's op-by-op fallback). 0, or -1 after rt_error. */
int rt_exec_check_inputs(const RtPlan *p, const RtBackend *b, RtTensor *const *in);
/* Replays so far, and whether the GPU graph is in use. */
long rt_exec_replays(const RtExec *e);
const char *rt_exec_backend_name(const RtExec *e); /* "cuda-graph" or "cpu" */
/* Where the GPU kernels came from: "cubin" (the model's own image), "nvrtc" (kernels.cu compiled
 * for this GPU in this process: no cubin ran here, or GTC_FORCE_JIT=1) or "nvrtc-cache" (that
 * build, from the disk cache; runtime/cuda/rt_plan_jit.h); "cpu" on the CPU backend. */
const char *rt_exec_kernel_source(const RtExec *e);

#endif
