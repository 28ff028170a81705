/* runtime/core/exec.c: the plan executor shared by compiled model extensions (AOT) and the JIT.
 * It checks inputs, creates (or, for donated outputs, reuses) output tensors, fills the argument
 * block (plan.h) and hands it to the backend's plan operations (RtBackend.plan: C functions on
 * the CPU, one CUDA Graph on the GPU); it knows no backend by name.
 * The arena is allocated once per executor, so steady-state runs allocate only fresh outputs. */
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "exec.h"

struct RtExec {
    const RtPlan *plan;
    const RtBackend *b;
    RtTensor *arena;
    void *kernels; /* b->plan->kernels_get: the plan's code on this backend */
    void *state;   /* the backend's per-executor state (the CUDA Graph) */
    long replays;
    size_t nbytes;
    unsigned char args[RT_PLAN_MAX_ARGS_BYTES];
};

static size_t args_bytes(const RtPlan *p) {
    return rt_plan_args_bytes(p->ninputs, p->noutputs, p->nscalars);
}

RtExec *rt_exec_new(const RtPlan *plan, const RtBackend *b) {
    if (plan->abi != RT_PLAN_ABI) {
        rt_error(RT_ERUNTIME, "plan %s was built for plan ABI %d; this runtime has %d", plan->graph,
                 plan->abi, RT_PLAN_ABI);
        return NULL;
    }
    if (args_bytes(plan) > RT_PLAN_MAX_ARGS_BYTES) {
        rt_error(RT_EINVAL, "plan %s has too many inputs and outputs for one kernel parameter block",
                 plan->graph);
        return NULL;
    }
    if (!b->plan) {
        rt_error(RT_EUNSUPPORTED, "the %s backend cannot run compiled plans", b->name);
        return NULL;
    }
    if (plan->nsyms < 0 || plan->nsyms > IR_MAX_SYMS || (plan->nsyms && (!plan->syms || !plan->in_sym || !plan->out_sym))) {
        rt_error(RT_ERUNTIME, "plan %s: corrupt symbolic dimensions table", plan->graph);
        return NULL;
    }
    /* The arena as bytes in rows of 4 KiB: one dimension of 2^31 or more would fail the tensor
     * limits, and a plan's arena may be larger than that (it is a sum of tensors). */
    int64_t n = plan->arena_bytes > 0 ? plan->arena_bytes : 1, row = 4096;
    if (n > IR_MAX_BYTES) {
        rt_error(RT_EOOM, "plan %s needs an arena of %lld bytes, more than one allocation may hold "
                 "(2^40 bytes)", plan->graph, (long long)n);
        return NULL;
    }
    RtExec *e = calloc(1, sizeof *e);
    if (!e) {
        rt_error(RT_EOOM, "out of host memory");
        return NULL;
    }
    e->plan = plan;
    e->b = b;
    e->nbytes = args_bytes(plan);
    if (!(e->kernels = b->plan->kernels_get(plan))) {
        free(e);
        return NULL;
    }
    int64_t shape[2] = {(n + row - 1) / row, n < row ? n : row};
    e->arena = rt_empty(b, DT_BOOL, 2, shape);
    static const int64_t zero[2];
    if (e->arena && plan->nchecks && b->upload((char *)rt_data(e->arena) + plan->check_off, zero, sizeof zero))
        rt_release(e->arena), e->arena = NULL;
    if (!e->arena) {
        b->plan->kernels_release(e->kernels);
        free(e);
        return NULL;
    }
    return e;
}

void rt_exec_free(RtExec *e) {
    if (!e) return;
    if (e->state) e->b->plan->state_free(e->state);
    e->b->plan->kernels_release(e->kernels); /* after the state (graph) that uses them */
    rt_release(e->arena);
    free(e);
}

long rt_exec_replays(const RtExec *e) { return e->replays; }
const char *rt_exec_backend_name(const RtExec *e) { return e->b->plan->runner; }
const char *rt_exec_kernel_source(const RtExec *e) { return e->b->plan->kernels_source(e->kernels); }

/* The plan's shape of io as text, a symbolic axis by its name: "[batch,480]". */
static const char *io_shape(const RtPlan *p, int in, char *buf, size_t n) {
    const RtPlanIO *io = &p->inputs[in];
    size_t k = (size_t)snprintf(buf, n, "[");
    for (int i = 0; i < io->rank && k < n; i++) {
        int sy = rt_plan_sym(p, false, in, i);
        if (sy) k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? "," : "", p->syms[sy - 1].name);
        else k += (size_t)snprintf(buf + k, n - k, "%s%lld", i ? "," : "", (long long)io->dims[i]);
    }
    if (k < n) snprintf(buf + k, n - k, "]");
    return buf;
}

/* Checks input i; a symbolic axis takes any size from 1 to its bound, the same in every input
 * (sizes[k]: symbol k's size this run, 0 until an input gives it; by[k]: that input). */
static int check_input(const RtPlan *p, const RtBackend *b, int i, RtTensor *t, int64_t *sizes, int *by) {
    const RtPlanIO *io = &p->inputs[i];
    TensorType want = {.dtype = io->dtype, .rank = io->rank}, got;
    memcpy(want.dims, io->dims, sizeof want.dims);
    char ws[256], gs[256];
    if (!t) return rt_error(RT_EINVAL, "input \"%s\" is missing", io->name);
    got = rt_type(t);
    for (int a = 0; a < io->rank && a < got.rank && got.dtype == want.dtype && got.rank == want.rank; a++) {
        int k = rt_plan_sym(p, false, i, a) - 1;
        if (k < 0) continue;
        int64_t n = got.dims[a];
        const RtPlanSym *sy = &p->syms[k];
        if (n < 1 || n > sy->max)
            return rt_error(RT_EINVAL, "input \"%s\": dimension %d (\"%s\") is %lld; it takes 1 to %lld (the bound "
                            "the model was compiled for)", io->name, a, sy->name, (long long)n, (long long)sy->max);
        if (sizes[k] && sizes[k] != n)
            return rt_error(RT_EINVAL, "input \"%s\": dimension %d (\"%s\") is %lld, but input \"%s\" gave \"%s\" = %lld",
                            io->name, a, sy->name, (long long)n, p->inputs[by[k]].name, sy->name, (long long)sizes[k]);
        sizes[k] = n, by[k] = i;
        want.dims[a] = n;
    }
    if (!ir_type_equal(&want, &got))
        return rt_error(RT_EINVAL, "input \"%s\": expected %s %s, got %s %s", io->name,
                        ir_dtype_name(want.dtype), io_shape(p, i, ws, sizeof ws),
                        ir_dtype_name(got.dtype), ir_shape_str(&got, gs, sizeof gs));
    if (io->scalar < 0 && t->storage->backend != b)
        return rt_error(RT_EINVAL, "input \"%s\" lives on %s; this model runs on %s", io->name,
                        t->storage->backend->name, b->name);
    if (io->scalar < 0 && !rt_is_contiguous(t))
        return rt_error(RT_EINVAL, "input \"%s\" is a strided view; pass a contiguous array", io->name);
    return 0;
}

int rt_exec_check_inputs(const RtPlan *p, const RtBackend *b, RtTensor *const *in) {
    int64_t sizes[IR_MAX_SYMS] = {0};
    int by[IR_MAX_SYMS] = {0};
    for (int i = 0; i < p->ninputs; i++)
        if ((p->inputs[i].scalar < 0 || in[i]) && check_input(p, b, i, in[i], sizes, by)) return -1;
    return 0;
}

/* After a run of a plan with gathers or scatters: the error word their kernels write when an
 * index is out of range (plan_abi.h, RtPlanCheck). Reading it waits for the run to finish. */
static int check_indices(RtExec *e) {
    const RtPlan *p = e->plan;
    int64_t w[2];
    char *at = (char *)rt_data(e->arena) + p->check_off;
    if (e->b->download(w, at, sizeof w)) return -1;
    if (!w[0]) return 0;
    static const int64_t zero[2];
    e->b->upload(at, zero, sizeof zero);
    if (w[0] < 1 || w[0] > p->nchecks) return rt_error(RT_ERUNTIME, "plan %s: corrupt index-error word", p->graph);
    const RtPlanCheck *c = &p->checks[w[0] - 1];
    return rt_error(RT_EINVAL, "%s \"%s\": index %lld is out of range for axis %d of size %lld", c->op, c->node,
                    (long long)w[1], c->axis, (long long)c->size);
}

int rt_exec_run(RtExec *e, RtTensor *const *in, const double *scalars, RtTensor **out) {
    const RtPlan *p = e->plan;
    void **ptr = (void **)e->args;
    double *sc = (double *)(e->args + sizeof(void *) * (size_t)(p->ninputs + p->noutputs + 1));
    int64_t sizes[IR_MAX_SYMS] = {0};
    int by[IR_MAX_SYMS] = {0};
    for (int i = 0; i < p->ninputs; i++) {
        const RtPlanIO *io = &p->inputs[i];
        if (io->scalar >= 0 && !in[i]) {
            sc[io->scalar] = scalars ? scalars[i] : 0;
            ptr[i] = NULL;
            continue;
        }
        if (check_input(p, e->b, i, in[i], sizes, by)) return -1;
        if (io->scalar >= 0) {
            double v;
            RtTensor *c = rt_cast(in[i], DT_FLOAT64);
            if (!c || rt_to_host(c, &v)) return rt_release(c), -1;
            rt_release(c);
            sc[io->scalar] = v;
            ptr[i] = NULL;
        } else {
            ptr[i] = rt_data(in[i]);
        }
    }
    /* AdamW's bias correction divides by 1 - beta^t: t = 0 would fill the parameters with NaN
     * (and a fraction or a huge t is no step count); refused before anything runs. */
    for (int i = 0; i < p->ninputs; i++) {
        const RtPlanIO *io = &p->inputs[i];
        double t = io->scalar >= 0 ? sc[io->scalar] : 1;
        if (io->state == IR_STATE_STEP && !(t >= 1 && t <= RT_PLAN_STEP_MAX && t == floor(t)))
            return rt_error(RT_EINVAL, "input \"%s\" is AdamW's step counter t and must be a whole number from 1 "
                            "(the first update) to 2^53, %.17g given; a compiled model keeps it itself when "
                            "run() is not given it", io->name, t);
    }
    /* A donated input is overwritten: it must not share memory with any other input. */
    for (int j = 0; j < p->noutputs; j++) {
        int d = p->outputs[j].donated_from;
        for (int i = 0; d >= 0 && i < p->ninputs; i++)
            if (i != d && in[i] && in[d] && in[i]->storage == in[d]->storage)
                return rt_error(RT_EINVAL, "input \"%s\" is updated in place but shares memory with input \"%s\"",
                                p->inputs[d].name, p->inputs[i].name);
    }
    for (int k = 0; k < p->nsyms && k < IR_MAX_SYMS; k++) { /* every symbol's size, from the inputs */
        if (!sizes[k])
            return rt_error(RT_EINVAL, "plan %s: no input gives the size of \"%s\"", p->graph, p->syms[k].name);
        sc[p->syms[k].slot] = (double)sizes[k];
    }
    for (int j = 0; j < p->noutputs; j++) {
        const RtPlanIO *io = &p->outputs[j];
        int64_t dims[IR_MAX_RANK];
        for (int a = 0; a < io->rank; a++) dims[a] = rt_plan_sym(p, true, j, a) ? sizes[rt_plan_sym(p, true, j, a) - 1] : io->dims[a];
        out[j] = io->donated_from >= 0 ? rt_retain(in[io->donated_from])
                                       : rt_empty(e->b, io->dtype, io->rank, dims);
        if (!out[j]) {
            for (int k = 0; k < j; k++) rt_release(out[k]), out[k] = NULL;
            return -1;
        }
        ptr[p->ninputs + j] = rt_data(out[j]);
    }
    ptr[p->ninputs + p->noutputs] = rt_data(e->arena);
    if (e->b->plan->run(&e->state, p, e->kernels, e->args, e->nbytes)) {
        for (int j = 0; j < p->noutputs; j++) rt_release(out[j]), out[j] = NULL;
        return -1;
    }
    e->replays++;
    if (p->nchecks && check_indices(e)) {
        for (int j = 0; j < p->noutputs; j++) rt_release(out[j]), out[j] = NULL;
        return -1;
    }
    return 0;
}
