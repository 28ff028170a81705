/* tests/unit/emit_harness.h: the end-to-end harness of the code generators, shared by
 * tests/unit/test_emit_numeric.c (CPU) and tests/gpu/test_emit_gpu.c (CUDA): a graph goes through
 * the pipeline and emit_all, the emitted files are built into a shared object by a command the
 * caller gives, the object's gtc_plan runs through the executor (runtime/core/exec.c) on random
 * inputs, and every output is compared with the same graph evaluated eagerly, node by node, with
 * rt_apply on the CPU backend. Steps repeat with donated outputs fed back as the next inputs.
 * Each case draws its inputs from a seed of its own (the graph's path), so running a subset of the
 * cases gives each the same data. GTC_EMIT_PRECISION=tf32|bf16 plans the products at that
 * precision (timing a tensor-core step; the reference stays float32, so the caller's tolerance
 * must allow for it). Included once per test program (static functions). */
#ifndef GTC_EMIT_HARNESS_H
#define GTC_EMIT_HARNESS_H

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../compiler/emit.h"
#include "../../compiler/pipeline.h"
#include "../../runtime/core/exec.h"

typedef struct {
    double err;          /* worst relative error over all outputs and steps (max|a-b| / max|b|) */
    int mismatches;      /* integer/bool elements that differ, NaN placement included */
    int kernels;         /* steps of the plan */
    char worst[400];     /* where the worst error was */
    char msg[1024];      /* why the case failed to run, if it did */
} HarnessResult;

static uint64_t h_rng = 0x9e3779b97f4a7c15ull;
static double h_rand(void) { /* xorshift64*, uniform [0, 1) */
    h_rng ^= h_rng >> 12, h_rng ^= h_rng << 25, h_rng ^= h_rng >> 27;
    return (double)((h_rng * 2685821657736338717ull) >> 11) / 9007199254740992.0;
}

static const char *h_root(void) {
    const char *r = getenv("GTC_ROOT");
    return r && *r ? r : ".";
}

static Graph *h_load(const char *path, Diag *d) {
    diag_init(d, path);
    return ir_read_json_file(path, d);
}

/* Random values of dtype dt into buf (n elements): floats in [-1, 1), ints in [-9, 9], bools. */
static void h_fill(DType dt, void *buf, int64_t n, double lo) {
    for (int64_t i = 0; i < n; i++) {
        double u = h_rand();
        switch (dt) {
        case DT_BOOL: ((uint8_t *)buf)[i] = u < 0.5; break;
        case DT_INT32: ((int32_t *)buf)[i] = (int32_t)floor(u * 19) - 9; break;
        case DT_INT64: ((int64_t *)buf)[i] = (int64_t)floor(u * 19) - 9; break;
        case DT_FLOAT32: ((float *)buf)[i] = (float)(lo + (1 - lo) * u * 2 - (1 - lo)); break;
        default: ((double *)buf)[i] = lo + (1 - lo) * u * 2 - (1 - lo); break;
        }
    }
}

/* A tensor's values as doubles (malloc'd); NULL on error. */
static double *h_values(RtTensor *t) {
    RtTensor *c = rt_cast(t, DT_FLOAT64);
    int64_t n = rt_numel(t);
    double *v = malloc((size_t)(n ? n : 1) * sizeof *v);
    if (!c || !v || rt_to_host(c, v)) {
        rt_release(c);
        free(v);
        return NULL;
    }
    rt_release(c);
    return v;
}

/* Evaluates every node of g (unsimplified) eagerly on the CPU; vals[i] for input nodes are given. */
static int h_eager(const Graph *g, RtTensor **vals, char *msg, size_t n) {
    for (int i = 0; i < g->nnodes; i++) {
        const Node *nd = &g->nodes[i];
        if (nd->op == OP_INPUT) continue;
        RtOperand in[IR_MAX_INPUTS] = {{0}};
        for (int k = 0; k < nd->ninputs; k++) {
            in[k].t = nd->in[k].id >= 0 ? vals[nd->in[k].id] : NULL;
            in[k].value = nd->in[k].value;
        }
        vals[i] = rt_apply(nd->op, in, nd->ninputs, &nd->attrs);
        if (!vals[i]) {
            snprintf(msg, n, "eager %s (%s): %s", nd->name, ir_ops[nd->op].name, rt_message());
            return -1;
        }
    }
    return 0;
}

/* Compares plan output t with reference r; folds the error into res. */
static void h_compare(RtTensor *t, RtTensor *r, const char *what, HarnessResult *res) {
    double *a = h_values(t), *b = h_values(r);
    int64_t n = rt_numel(r);
    if (!a || !b || rt_numel(t) != n) {
        res->mismatches++;
        snprintf(res->worst, sizeof res->worst, "%s: cannot read values", what);
        free(a), free(b);
        return;
    }
    bool exact = !ir_dtype_is_float(r->dtype);
    double scale = 0, diff = 0;
    for (int64_t i = 0; i < n; i++) {
        if (isnan(a[i]) != isnan(b[i]) || (exact && a[i] != b[i])) {
            if (!res->mismatches) snprintf(res->worst, sizeof res->worst, "%s[%lld]: %g vs %g", what, (long long)i, a[i], b[i]);
            res->mismatches++;
            continue;
        }
        if (isnan(b[i])) continue;
        if (fabs(b[i]) > scale) scale = fabs(b[i]);
        if (fabs(a[i] - b[i]) > diff) diff = fabs(a[i] - b[i]);
    }
    double err = diff == 0 ? 0 : diff / (scale > 0 ? scale : 1e-30);
    if (err > res->err) {
        res->err = err;
        if (!res->mismatches) snprintf(res->worst, sizeof res->worst, "%s (max |diff| %.3g, max |ref| %.3g)", what, diff, scale);
    }
    free(a), free(b);
}

typedef enum {
    H_ALL,   /* emit, build and run in a temporary directory (removed unless GTC_KEEP is set) */
    H_BUILD, /* emit and build into `keep` only (no device needed) */
    H_RUN    /* run what H_BUILD left in `keep` */
} HarnessMode;

/* Runs one case: the graph in `path`, `steps` steps on backend b; `build` is a shell command
 * with three %s (the emit directory each) that produces DIR/model.so. */
static int h_run_in(const char *path, int steps, const RtBackend *b, const char *build, HarnessMode mode,
                    const char *keep, HarnessResult *res) {
    memset(res, 0, sizeof *res);
    h_rng = 0x9e3779b97f4a7c15ull; /* FNV-1a of the path over a fixed start, never 0 */
    for (const char *c = path + (strlen(path) > strlen(h_root()) ? strlen(h_root()) : 0); *c; c++)
        h_rng = (h_rng ^ (unsigned char)*c) * 0x100000001b3ull;
    h_rng |= 1;
    Diag d;
    Graph *g = h_load(path, &d), *ref = h_load(path, &d);
    char dir[1100] = "/tmp/gtc_emit_XXXXXX", cmd[4096], so[1200];
    if (keep) snprintf(dir, sizeof dir, "%s", keep);
    void *lib = NULL;
    RtExec *e = NULL;
    int rc = -1, np = 0;
    RtTensor **ev = NULL, **in = NULL, **out = NULL;
    double *scal = NULL;
    if (!g || !ref) {
        snprintf(res->msg, sizeof res->msg, "%.1000s", d.msg);
        goto done;
    }
    diag_init(&d, path);
    Target tg = *target_default();
    const char *prec = getenv("GTC_EMIT_PRECISION");
    if (prec && *prec && target_precision_parse(prec, &tg.precision, res->msg, sizeof res->msg)) goto done;
    if (pipeline_run(g, &tg, &d, NULL)) {
        snprintf(res->msg, sizeof res->msg, "pipeline: %.1000s", d.msg);
        goto done;
    }
    res->kernels = g->plan->nsteps;
    if (mode != H_RUN) {
        snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
        if ((keep ? system(cmd) != 0 : !mkdtemp(dir)) || emit_all(g, NULL, dir, "graph.json", &d)) {
            snprintf(res->msg, sizeof res->msg, "emit: %.1000s", d.msg);
            goto done;
        }
        snprintf(cmd, sizeof cmd, build, dir, dir, dir);
        if (system(cmd) != 0) {
            snprintf(res->msg, sizeof res->msg, "build failed: %.1000s", cmd);
            goto done;
        }
        if (mode == H_BUILD) {
            rc = 0;
            goto done;
        }
    }
    snprintf(so, sizeof so, "%s/model.so", dir);
    lib = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    const RtPlan *plan = lib ? dlsym(lib, "gtc_plan") : NULL;
    if (!plan) {
        snprintf(res->msg, sizeof res->msg, "dlopen: %s", dlerror());
        goto done;
    }
    if (!(e = rt_exec_new(plan, b))) {
        snprintf(res->msg, sizeof res->msg, "rt_exec_new: %s", rt_message());
        goto done;
    }
    np = plan->ninputs;
    ev = calloc((size_t)ref->nnodes, sizeof *ev);
    in = calloc((size_t)np + 1, sizeof *in);
    out = calloc((size_t)plan->noutputs + 1, sizeof *out);
    scal = calloc((size_t)np + 1, sizeof *scal);
    if (!ev || !in || !out || !scal) goto done;
    /* the same random values for the plan (backend b) and the reference (cpu) */
    for (int i = 0; i < ref->nnodes; i++) {
        const Node *nd = &ref->nodes[i];
        if (nd->op != OP_INPUT) continue;
        int64_t n = ir_numel(&nd->type);
        void *buf = malloc((size_t)(n ? n : 1) * 8);
        if (!buf) goto done;
        h_fill(nd->type.dtype, buf, n, 0);
        ev[i] = rt_from_host(&rt_cpu_backend, nd->type.dtype, nd->type.rank, nd->type.dims, buf);
        if (nd->type.rank == 0) {
            double v[1];
            RtTensor *c = rt_cast(ev[i], DT_FLOAT64);
            rt_to_host(c, v);
            rt_release(c);
            scal[nd->input_index] = v[0];
        } else {
            in[nd->input_index] = rt_from_host(b, nd->type.dtype, nd->type.rank, nd->type.dims, buf);
        }
        free(buf);
    }
    for (int s = 0; s < steps; s++) {
        if (rt_exec_run(e, in, scal, out)) {
            snprintf(res->msg, sizeof res->msg, "rt_exec_run: %s", rt_message());
            goto done;
        }
        if (b->synchronize) b->synchronize();
        if (h_eager(ref, ev, res->msg, sizeof res->msg)) goto done;
        for (int j = 0; j < plan->noutputs; j++) {
            char what[160];
            snprintf(what, sizeof what, "step %d output %s", s, plan->outputs[j].name);
            h_compare(out[j], ev[ref->outputs[j].value], what, res);
        }
        /* donated outputs become the next step's inputs; the plan updated them in place. The
         * reference goes on from the plan's values, not its own: each step is checked on the same
         * inputs, and a last-bit difference (a relu input at 1e-7 on one side, 0 on the other)
         * cannot grow through the training dynamics into a false failure steps later. */
        RtTensor **next = calloc((size_t)ref->nnodes, sizeof *next);
        if (!next) goto done;
        for (int i = 0; i < ref->nnodes; i++)
            if (ref->nodes[i].op == OP_INPUT) next[i] = rt_retain(ev[i]);
        for (int k = 0; k < ref->ndonations; k++) {
            NodeId inp = ref->donations[k].input;
            RtTensor *v = NULL;
            for (int j = 0; j < plan->noutputs && !v; j++)
                if (ref->outputs[j].value == ref->donations[k].value) v = rt_to_backend(out[j], &rt_cpu_backend);
            rt_release(next[inp]);
            next[inp] = v ? v : rt_retain(ev[ref->donations[k].value]);
        }
        for (int i = 0; i < ref->nnodes; i++) rt_release(ev[i]), ev[i] = next[i];
        free(next);
        for (int j = 0; j < plan->noutputs; j++) rt_release(out[j]), out[j] = NULL;
    }
    rc = res->mismatches ? -1 : 0;
done:
    if (ev)
        for (int i = 0; ref && i < ref->nnodes; i++) rt_release(ev[i]);
    for (int i = 0; in && i < np; i++) rt_release(in[i]);
    free(ev), free(in), free(out), free(scal);
    rt_exec_free(e);
    if (lib) dlclose(lib);
    graph_free(g);
    graph_free(ref);
    if (keep) {
    } else if (dir[strlen(dir) - 1] != 'X' && !getenv("GTC_KEEP")) {
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd)) {
        }
    } else if (dir[strlen(dir) - 1] != 'X') {
        fprintf(stderr, "kept %s\n", dir);
    }
    return rc;
}

static inline int h_run(const char *path, int steps, const RtBackend *b, const char *build, HarnessResult *res) {
    return h_run_in(path, steps, b, build, H_ALL, NULL, res);
}

#endif
