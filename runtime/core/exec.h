/* runtime/core/exec.h: the plan executor (exec.c) and the plan operations every backend
 * provides (RtBackend.plan). The executor checks inputs, makes outputs, fills the argument block
 * (plan_abi.h) and hands it to the backend; it knows no backend by name. */
#ifndef GTC_EXEC_H
#define GTC_EXEC_H

#include "plan_abi.h"
#include "rt.h"

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
    /* The source text of the kernels this backend runs for the plan (p->cpu_source, p->cuda_source;
     * NULL when the plan carries none): getSource()'s default. */
    const char *(*plan_source)(const RtPlan *p);
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
