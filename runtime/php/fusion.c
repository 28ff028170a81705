/* runtime/php/fusion.c: Cuda\Fusion, Cuda\FusionGraph and Cuda\FusionExecution: the JIT. A PHP
 * closure is called once with placeholder tensors (fusion_trace.c calls it and records its ops),
 * the graph goes through the compiler's own pipeline (pipeline_run) and code generators (emit.h),
 * plan_build turns the placed plan into the RtPlan a model extension embeds, and the executor
 * (exec.c) replays it: on the GPU as one CUDA Graph with kernels from NVRTC (rt_plan_jit.h, its
 * disk cache), on the CPU with kernels_cpu.c compiled by the system C compiler into the same
 * cache directory (runtime/core/kcache.h) and dlopen'd, or, without a C compiler, node by node
 * with rt_apply ("eager").
 *
 * Compiled plans are kept per process, keyed by the traced graph's canonical JSON and the
 * backend: compiling the same closure again reuses them (getStats()['cache'] === 'memory'). */
#include "fusion.h"

#include <dlfcn.h>

#include "zend_exceptions.h"

#include "../../compiler/pipeline.h"
#include "../../compiler/plan_build.h"
#include "../core/plan.h"

zend_class_entry *php_gtc_ce_Fusion;
zend_class_entry *php_gtc_ce_FusionGraph;
zend_class_entry *php_gtc_ce_FusionExecution;

/* ---- compiled plans, shared per process ------------------------------------------------------- */

typedef struct Compiled {
    struct Compiled *next;
    char *json;          /* the traced graph (canonical v1 JSON) */
    const RtBackend *b;
    RtPlan *plan;
    void *dl;            /* the CPU kernels' library */
    Graph *eager;        /* no C compiler: the graph, evaluated node by node */
    char *cc;            /* CPU: the C compiler asked for ($GTC_JIT_CC), part of the key */
    char kernels[16];    /* cc, cc-cache, eager ("" on the GPU: the executor says) */
} Compiled;

static Compiled *g_compiled;

void php_gtc_fusion_mshutdown(void) {
    while (g_compiled) {
        Compiled *c = g_compiled;
        g_compiled = c->next;
        plan_build_free(c->plan);
        if (c->dl) dlclose(c->dl);
        if (c->eager) graph_free(c->eager);
        free(c->cc);
        free(c->json);
        free(c);
    }
}

/* The plan of a verified traced graph for backend b: from the process's cache, or planned,
 * generated and compiled now. NULL after throwing. */
static Compiled *compile_graph(Graph *g, const RtBackend *b, bool *hit) {
    char *json = ir_write_json(g);
    bool on_cpu = !strcmp(b->name, "cpu");
    /* On the CPU the compiler is part of the key: an "eager" fallback (no compiler could be run)
     * is not kept once $GTC_JIT_CC names another one. */
    const char *cc = on_cpu ? php_gtc_fusion_cc() : NULL;
    for (Compiled *c = g_compiled; c; c = c->next)
        if (c->b == b && !strcmp(c->json, json) && (!cc || (c->cc && !strcmp(c->cc, cc)))) {
            free(json);
            *hit = true;
            return c;
        }
    *hit = false;
    Diag d;
    diag_init(&d, g->name);
    char *cu = NULL, *cpu = NULL;
    RtPlan *plan = NULL;
    if (pipeline_run(g, NULL, &d, NULL) || !(cu = emit_cuda_source(g, g->name, &d)) ||
        !(cpu = emit_cpu_source(g, g->name, &d)) || !(plan = plan_build(g, g->name, cu, cpu, &d))) {
        php_gtc_throw(RT_ECOMPILE, "cannot compile the traced graph: %s", d.msg);
        free(cu);
        free(cpu);
        free(json);
        return NULL;
    }
    free(cu);
    free(cpu);
    Compiled *c = calloc(1, sizeof *c);
    if (!c) abort();
    c->json = json;
    c->b = b;
    c->plan = plan;
    if (on_cpu) {
        const char *how = NULL;
        c->dl = php_gtc_fusion_cpu_kernels(plan->cpu_source, &how);
        if (c->dl) {
            plan->cpu = (const RtCpuKernel *)dlsym(c->dl, "gtc_cpu_kernels");
        } else if (how && !strcmp(how, "eager")) {
            c->eager = ir_read_json(json, strlen(json), &d);
            if (!c->eager) rt_error(RT_ERUNTIME, "internal: the traced graph does not read back: %s", d.msg);
        }
        if (!plan->cpu && !c->eager) {
            php_gtc_throw_rt();
            plan_build_free(plan);
            free(json);
            free(c);
            return NULL;
        }
        snprintf(c->kernels, sizeof c->kernels, "%s", how);
        if (!(c->cc = strdup(cc))) abort();
    }
    c->next = g_compiled;
    g_compiled = c;
    return c;
}

/* ---- Cuda\FusionGraph ------------------------------------------------------------------------- */

typedef struct {
    Compiled *c;
    const RtBackend *b;
    RtExec *exec;
    zval shape;         /* the closure's result with output indices for tensors */
    bool hit;           /* compiled from the process's cache */
    long eager_runs;
    zend_object std;
} php_gtc_fgraph;

static zend_object_handlers fgraph_handlers;

static inline php_gtc_fgraph *fgraph_from_obj(zend_object *obj) {
    return (php_gtc_fgraph *)((char *)obj - XtOffsetOf(php_gtc_fgraph, std));
}

static zend_object *fgraph_create(zend_class_entry *ce) {
    php_gtc_fgraph *f = zend_object_alloc(sizeof(php_gtc_fgraph), ce);
    zend_object_std_init(&f->std, ce);
    object_properties_init(&f->std, ce);
    f->std.handlers = &fgraph_handlers;
    ZVAL_UNDEF(&f->shape);
    return &f->std;
}

static void fgraph_free(zend_object *obj) {
    php_gtc_fgraph *f = fgraph_from_obj(obj);
    if (f->exec) rt_exec_free(f->exec);
    zval_ptr_dtor(&f->shape);
    zend_object_std_dtor(obj);
}

static php_gtc_fgraph *this_fgraph(zval *zv) {
    php_gtc_fgraph *f = fgraph_from_obj(Z_OBJ_P(zv));
    if (!f->c) zend_throw_error(NULL, "Cuda\\FusionGraph objects come from Cuda\\Fusion::compile()");
    return f->c ? f : NULL;
}

/* A FusionGraph for fn over inputs into rv; false after throwing. */
static bool make_graph(zend_fcall_info *fci, zend_fcall_info_cache *fcc, HashTable *inputs, const char *name,
                       HashTable *donate, zval *rv) {
    const RtBackend *b = php_gtc_backend();
    if (!b) return false;
    zval shape;
    Graph *g = fusion_trace_closure(fci, fcc, inputs, name, donate, b, &shape);
    if (!g) return false;
    bool hit;
    Compiled *c = compile_graph(g, b, &hit);
    graph_free(g);
    if (!c) {
        zval_ptr_dtor(&shape);
        return false;
    }
    RtExec *e = NULL;
    if (!c->eager && !(e = rt_exec_new(c->plan, b))) {
        php_gtc_throw_rt();
        zval_ptr_dtor(&shape);
        return false;
    }
    object_init_ex(rv, php_gtc_ce_FusionGraph);
    php_gtc_fgraph *f = fgraph_from_obj(Z_OBJ_P(rv));
    f->c = c;
    f->b = b;
    f->exec = e;
    f->hit = hit;
    ZVAL_COPY_VALUE(&f->shape, &shape);
    return true;
}

static int input_index(const RtPlan *p, const char *name) {
    for (int i = 0; i < p->ninputs; i++)
        if (!strcmp(p->inputs[i].name, name)) return i;
    return -1;
}

static bool read_input(const RtPlanIO *io, zval *z, RtTensor **t, double *scalar) {
    ZVAL_DEREF(z);
    *t = NULL;
    *scalar = 0;
    if (Z_TYPE_P(z) == IS_OBJECT && instanceof_function(Z_OBJCE_P(z), php_gtc_ce_CudaArray)) {
        *t = php_gtc_array_tensor(z);
        if (!*t) {
            php_gtc_throw(RT_EINVAL, "input \"%s\" is an uninitialized Cuda\\CudaArray", io->name);
            return false;
        }
        return php_gtc_check_data(*t);
    }
    if (io->scalar >= 0) {
        if (Z_TYPE_P(z) == IS_LONG && io->dtype != DT_BOOL) {
            *scalar = (double)Z_LVAL_P(z);
            return true;
        }
        if (Z_TYPE_P(z) == IS_DOUBLE && ir_dtype_is_float(io->dtype)) {
            *scalar = Z_DVAL_P(z);
            return true;
        }
        if ((Z_TYPE_P(z) == IS_TRUE || Z_TYPE_P(z) == IS_FALSE) && io->dtype == DT_BOOL) {
            *scalar = Z_TYPE_P(z) == IS_TRUE;
            return true;
        }
    }
    php_gtc_throw(RT_EINVAL, "input \"%s\" (%s%s) must be a Cuda\\CudaArray%s, %s given", io->name,
                  ir_dtype_name(io->dtype), io->scalar >= 0 ? " scalar" : "",
                  io->scalar >= 0 ? " or a number" : "", zend_zval_type_name(z));
    return false;
}

/* The eager fallback: the traced graph node by node with rt_apply. */
static int run_eager(const Graph *g, const RtBackend *b, RtTensor *const *in, const double *scalars,
                     RtTensor **out) {
    RtTensor **v = calloc((size_t)g->nnodes + 1, sizeof *v);
    int rc = 0;
    if (!v) return rt_error(RT_EOOM, "out of host memory");
    for (int i = 0; i < g->nnodes && !rc; i++) {
        const Node *nd = &g->nodes[i];
        if (nd->op == OP_INPUT) {
            RtTensor *t = in[nd->input_index];
            v[i] = t ? rt_retain(t) : rt_full(b, nd->type.dtype, 0, NULL, scalars[nd->input_index]);
        } else {
            RtOperand ops[IR_MAX_INPUTS] = {{0}};
            for (int k = 0; k < nd->ninputs; k++) {
                if (nd->in[k].id >= 0) ops[k].t = v[nd->in[k].id];
                else ops[k].value = nd->in[k].value;
            }
            v[i] = rt_apply(nd->op, ops, nd->ninputs, &nd->attrs);
        }
        if (!v[i]) rc = -1;
    }
    for (int j = 0; j < g->noutputs && !rc; j++) {
        RtTensor *t = v[g->outputs[j].value];
        out[j] = rt_is_contiguous(t) ? rt_retain(t) : rt_contiguous(t);
        if (!out[j]) rc = -1;
    }
    for (int i = 0; i < g->nnodes; i++) rt_release(v[i]);
    free(v);
    return rc;
}

/* Rebuilds the closure's structure with output tensors; consumes nothing. */
static void rebuild(zval *shape, zval *outs, zval *rv) {
    if (Z_TYPE_P(shape) == IS_LONG) {
        ZVAL_COPY(rv, &outs[Z_LVAL_P(shape)]);
        return;
    }
    array_init_size(rv, zend_hash_num_elements(Z_ARRVAL_P(shape)));
    zend_ulong idx;
    zend_string *key;
    zval *item;
    ZEND_HASH_FOREACH_KEY_VAL(Z_ARRVAL_P(shape), idx, key, item) {
        zval child;
        rebuild(item, outs, &child);
        if (key) zend_hash_update(Z_ARRVAL_P(rv), key, &child);
        else zend_hash_index_update(Z_ARRVAL_P(rv), idx, &child);
    } ZEND_HASH_FOREACH_END();
}

/* Runs f with positional args and named ones into rv; false after throwing. */
static bool fgraph_run(php_gtc_fgraph *f, zval *args, uint32_t argc, HashTable *named, zval *rv) {
    const RtPlan *p = f->c->plan;
    int nin = p->ninputs, nout = p->noutputs;
    if (argc > (uint32_t)nin) {
        php_gtc_throw(RT_EINVAL, "Cuda\\FusionGraph::run() takes %d input%s, %u given", nin, nin == 1 ? "" : "s",
                      argc);
        return false;
    }
    zval **given = ecalloc((size_t)nin + 1, sizeof *given);
    RtTensor **in = ecalloc((size_t)nin + 1, sizeof *in);
    double *scalars = ecalloc((size_t)nin + 1, sizeof *scalars);
    RtTensor **out = ecalloc((size_t)nout + 1, sizeof *out);
    zval *outs = NULL;
    bool ok = false;
    for (uint32_t i = 0; i < argc; i++) given[i] = &args[i];
    if (named) {
        zend_string *key;
        zval *val;
        ZEND_HASH_FOREACH_STR_KEY_VAL(named, key, val) {
            if (key && !fusion_no_nul(key, "input name")) goto done;
            int i = key ? input_index(p, ZSTR_VAL(key)) : -1;
            if (i < 0) {
                php_gtc_throw(RT_EINVAL, "unknown input \"%s\"", key ? ZSTR_VAL(key) : "");
                goto done;
            }
            if (given[i]) {
                php_gtc_throw(RT_EINVAL, "input \"%s\" is given twice (by position and by name)", p->inputs[i].name);
                goto done;
            }
            given[i] = val;
        } ZEND_HASH_FOREACH_END();
    }
    for (int i = 0; i < nin; i++)
        if (!given[i]) {
            php_gtc_throw(RT_EINVAL, "input \"%s\" is missing", p->inputs[i].name);
            goto done;
        }
    for (int i = 0; i < nin; i++)
        if (!read_input(&p->inputs[i], given[i], &in[i], &scalars[i])) goto done;
    if (f->c->eager) {
        /* the executor's checks, without an executor: shapes, dtypes, device */
        for (int i = 0; i < nin; i++) {
            const RtPlanIO *io = &p->inputs[i];
            RtTensor *t = in[i];
            if (!t) continue;
            TensorType tt = rt_type(t), want = {.dtype = io->dtype, .rank = io->rank};
            memcpy(want.dims, io->dims, sizeof io->dims);
            tt.weak = false;
            char a[128], b2[128];
            if (!ir_type_equal(&tt, &want) || t->storage->backend != f->b) {
                php_gtc_throw(RT_EINVAL, "input \"%s\": expected %s %s on %s, got %s %s on %s", io->name,
                              ir_dtype_name(io->dtype), ir_shape_str(&want, a, sizeof a), f->b->name,
                              ir_dtype_name(t->dtype), ir_shape_str(&tt, b2, sizeof b2), t->storage->backend->name);
                goto done;
            }
        }
        if (run_eager(f->c->eager, f->b, in, scalars, out)) {
            php_gtc_throw_rt();
            goto done;
        }
        f->eager_runs++;
    } else if (rt_exec_run(f->exec, in, scalars, out) != 0) {
        php_gtc_throw_rt();
        goto done;
    }
    outs = safe_emalloc((size_t)nout + 1, sizeof(zval), 0);
    for (int j = 0; j < nout; j++) {
        int d = p->outputs[j].donated_from;
        if (d >= 0 && in[d] && out[j] != in[d] && f->c->eager) { /* eager: update in place, too */
            int rc = rt_assign(in[d], out[j]);
            rt_release(out[j]);
            out[j] = rc ? NULL : rt_retain(in[d]);
            if (rc) rt_clear_error();
        }
        if (d >= 0 && out[j] && out[j] == in[d]) { /* the caller's object, updated in place */
            rt_release(out[j]);
            out[j] = NULL;
            ZVAL_COPY_DEREF(&outs[j], given[d]);
            continue;
        }
        if (!php_gtc_wrap(&outs[j], php_gtc_ce_CudaArray, out[j])) {
            for (int k = 0; k < j; k++) zval_ptr_dtor(&outs[k]);
            for (int k = j + 1; k < nout; k++) rt_release(out[k]);
            goto done;
        }
        out[j] = NULL;
    }
    rebuild(&f->shape, outs, rv);
    for (int j = 0; j < nout; j++) zval_ptr_dtor(&outs[j]);
    ok = true;
done:
    if (outs) efree(outs);
    efree(given);
    efree(in);
    efree(scalars);
    efree(out);
    return ok;
}

ZEND_METHOD(Cuda_FusionGraph, __construct) { ZEND_PARSE_PARAMETERS_NONE(); }
ZEND_METHOD(Cuda_FusionExecution, __construct) { ZEND_PARSE_PARAMETERS_NONE(); }

ZEND_METHOD(Cuda_FusionGraph, run) {
    zval *args = NULL;
    uint32_t argc = 0;
    HashTable *named = NULL;
    ZEND_PARSE_PARAMETERS_START(0, -1)
        Z_PARAM_VARIADIC_WITH_NAMED(args, argc, named)
    ZEND_PARSE_PARAMETERS_END();
    php_gtc_fgraph *f = this_fgraph(ZEND_THIS);
    if (!f || !fgraph_run(f, args, argc, named, return_value)) RETURN_THROWS();
}

static const char *step_kind_name(RtStepKind k) {
    switch (k) {
    case RT_STEP_ELEMWISE: return "elementwise";
    case RT_STEP_REDUCE: return "reduce";
    case RT_STEP_ROW: return "row";
    case RT_STEP_GEMM: return "gemm";
    case RT_STEP_COPY: return "copy";
    }
    return "unknown";
}

static void list_to_php(const char *s, zval *rv) {
    array_init(rv);
    while (s && *s) {
        const char *comma = strchr(s, ',');
        size_t n = comma ? (size_t)(comma - s) : strlen(s);
        add_next_index_stringl(rv, s, n);
        s = comma ? comma + 1 : NULL;
    }
}

static void launch_to_php(const unsigned v[3], zval *rv) {
    array_init_size(rv, 3);
    for (int i = 0; i < 3; i++) add_next_index_long(rv, (zend_long)v[i]);
}

/* getPlan(): the steps in execution order (the keys of a model extension's getPlan()). */
ZEND_METHOD(Cuda_FusionGraph, getPlan) {
    ZEND_PARSE_PARAMETERS_NONE();
    php_gtc_fgraph *f = this_fgraph(ZEND_THIS);
    if (!f) RETURN_THROWS();
    const RtPlan *p = f->c->plan;
    array_init_size(return_value, (uint32_t)p->nsteps);
    for (int s = 0; s < p->nsteps; s++) {
        const RtPlanStep *st = &p->steps[s];
        zval step, v;
        array_init_size(&step, 9);
        add_assoc_string(&step, "kind", step_kind_name(st->kind));
        add_assoc_string(&step, "kernel", st->kernel ? st->kernel : "");
        list_to_php(st->ops, &v);
        add_assoc_zval(&step, "ops", &v);
        list_to_php(st->reads, &v);
        add_assoc_zval(&step, "reads", &v);
        list_to_php(st->writes, &v);
        add_assoc_zval(&step, "writes", &v);
        add_assoc_string(&step, "reason", st->reason ? st->reason : "");
        launch_to_php(st->grid, &v);
        add_assoc_zval(&step, "grid", &v);
        launch_to_php(st->block, &v);
        add_assoc_zval(&step, "block", &v);
        add_assoc_long(&step, "smem", (zend_long)st->smem);
        add_next_index_zval(return_value, &step);
    }
}

/* getStats(): a model extension's keys, plus 'cache' ('memory': this plan was compiled before in
 * this process; 'miss'). 'kernels': nvrtc, nvrtc-cache (GPU), cc, cc-cache or eager (CPU). */
ZEND_METHOD(Cuda_FusionGraph, getStats) {
    ZEND_PARSE_PARAMETERS_NONE();
    php_gtc_fgraph *f = this_fgraph(ZEND_THIS);
    if (!f) RETURN_THROWS();
    const RtPlan *p = f->c->plan;
    array_init_size(return_value, 12);
    add_assoc_long(return_value, "nodes", p->nodes);
    add_assoc_long(return_value, "steps", p->nsteps);
    add_assoc_long(return_value, "fusedKernels", p->fused_kernels);
    add_assoc_long(return_value, "gemms", p->gemms);
    add_assoc_long(return_value, "reductions", p->reductions);
    add_assoc_long(return_value, "graphNodes", p->nsteps);
    add_assoc_long(return_value, "arenaBytes", (zend_long)p->arena_bytes);
    add_assoc_string(return_value, "backend", f->exec ? rt_exec_backend_name(f->exec) : "cpu-eager");
    add_assoc_long(return_value, "replays", f->exec ? (zend_long)rt_exec_replays(f->exec) : f->eager_runs);
    const char *k = f->c->kernels[0] ? f->c->kernels : f->exec ? rt_exec_kernel_source(f->exec) : "eager";
    add_assoc_string(return_value, "kernels", k);
    add_assoc_string(return_value, "cache", f->hit ? "memory" : "miss");
}

/* getSource(): ['cuda' => kernels.cu, 'cpu' => kernels_cpu.c, 'graph' => the traced v1 JSON]. */
ZEND_METHOD(Cuda_FusionGraph, getSource) {
    ZEND_PARSE_PARAMETERS_NONE();
    php_gtc_fgraph *f = this_fgraph(ZEND_THIS);
    if (!f) RETURN_THROWS();
    array_init_size(return_value, 3);
    add_assoc_string(return_value, "cuda", f->c->plan->cuda_source ? f->c->plan->cuda_source : "");
    add_assoc_string(return_value, "cpu", f->c->plan->cpu_source ? f->c->plan->cpu_source : "");
    add_assoc_string(return_value, "graph", f->c->json);
}

/* ---- Cuda\FusionExecution ---------------------------------------------------------------------- */

typedef struct {
    zval result;
    const RtBackend *b;
    bool done;
    zend_object std;
} php_gtc_fexec;

static zend_object_handlers fexec_handlers;

static inline php_gtc_fexec *fexec_from_obj(zend_object *obj) {
    return (php_gtc_fexec *)((char *)obj - XtOffsetOf(php_gtc_fexec, std));
}

static zend_object *fexec_create(zend_class_entry *ce) {
    php_gtc_fexec *x = zend_object_alloc(sizeof(php_gtc_fexec), ce);
    zend_object_std_init(&x->std, ce);
    object_properties_init(&x->std, ce);
    x->std.handlers = &fexec_handlers;
    ZVAL_UNDEF(&x->result);
    return &x->std;
}

static void fexec_free(zend_object *obj) {
    zval_ptr_dtor(&fexec_from_obj(obj)->result);
    zend_object_std_dtor(obj);
}

/* runAsync(...): queues a replay (stream-ordered on the GPU; the CPU runs it now). */
ZEND_METHOD(Cuda_FusionGraph, runAsync) {
    zval *args = NULL;
    uint32_t argc = 0;
    HashTable *named = NULL;
    ZEND_PARSE_PARAMETERS_START(0, -1)
        Z_PARAM_VARIADIC_WITH_NAMED(args, argc, named)
    ZEND_PARSE_PARAMETERS_END();
    php_gtc_fgraph *f = this_fgraph(ZEND_THIS);
    zval r;
    if (!f || !fgraph_run(f, args, argc, named, &r)) RETURN_THROWS();
    object_init_ex(return_value, php_gtc_ce_FusionExecution);
    php_gtc_fexec *x = fexec_from_obj(Z_OBJ_P(return_value));
    ZVAL_COPY_VALUE(&x->result, &r);
    x->b = f->b;
    x->done = !strcmp(f->b->name, "cpu");
}

static bool fexec_sync(php_gtc_fexec *x) {
    if (Z_TYPE(x->result) == IS_UNDEF) {
        zend_throw_error(NULL, "Cuda\\FusionExecution objects come from Cuda\\FusionGraph::runAsync()");
        return false;
    }
    if (!x->done && x->b->synchronize) x->b->synchronize();
    x->done = true;
    return true;
}

/* wait(): waits for the replay and returns its outputs (the closure's structure). */
ZEND_METHOD(Cuda_FusionExecution, wait) {
    ZEND_PARSE_PARAMETERS_NONE();
    php_gtc_fexec *x = fexec_from_obj(Z_OBJ_P(ZEND_THIS));
    if (!fexec_sync(x)) RETURN_THROWS();
    RETURN_COPY(&x->result);
}

/* isFinished(): whether the outputs are ready (the runtime has no events yet: on the GPU this
 * waits for the stream, then says true). */
ZEND_METHOD(Cuda_FusionExecution, isFinished) {
    ZEND_PARSE_PARAMETERS_NONE();
    php_gtc_fexec *x = fexec_from_obj(Z_OBJ_P(ZEND_THIS));
    if (!fexec_sync(x)) RETURN_THROWS();
    RETURN_TRUE;
}

/* ---- Cuda\Fusion --------------------------------------------------------------------------------- */

ZEND_METHOD(Cuda_Fusion, compile) {
    zend_fcall_info fci;
    zend_fcall_info_cache fcc;
    HashTable *inputs;
    zend_string *name = NULL;
    HashTable *donate = NULL;
    ZEND_PARSE_PARAMETERS_START(2, 4)
        Z_PARAM_FUNC(fci, fcc)
        Z_PARAM_ARRAY_HT(inputs)
        Z_PARAM_OPTIONAL
        Z_PARAM_STR(name)
        Z_PARAM_ARRAY_HT(donate)
    ZEND_PARSE_PARAMETERS_END();
    if (name && !fusion_no_nul(name, "graph name")) RETURN_THROWS();
    if (!make_graph(&fci, &fcc, inputs, name ? ZSTR_VAL(name) : "fusion", donate, return_value)) RETURN_THROWS();
}

/* run(fn, inputs): compile (or reuse) and run once with the inputs themselves. */
ZEND_METHOD(Cuda_Fusion, run) {
    zend_fcall_info fci;
    zend_fcall_info_cache fcc;
    HashTable *inputs;
    ZEND_PARSE_PARAMETERS_START(2, 2)
        Z_PARAM_FUNC(fci, fcc)
        Z_PARAM_ARRAY_HT(inputs)
    ZEND_PARSE_PARAMETERS_END();
    zval g;
    if (!make_graph(&fci, &fcc, inputs, "fusion", NULL, &g)) RETURN_THROWS();
    uint32_t n = zend_hash_num_elements(inputs), i = 0;
    zval *args = safe_emalloc(n + 1, sizeof(zval), 0), *v;
    ZEND_HASH_FOREACH_VAL(inputs, v) {
        ZVAL_COPY_DEREF(&args[i], v);
        i++;
    } ZEND_HASH_FOREACH_END();
    bool ok = fgraph_run(fgraph_from_obj(Z_OBJ(g)), args, n, NULL, return_value);
    for (i = 0; i < n; i++) zval_ptr_dtor(&args[i]);
    efree(args);
    zval_ptr_dtor(&g);
    if (!ok) RETURN_THROWS();
}

/* export(fn, inputs, name): the traced graph as v1 JSON for `gtc compile`. */
ZEND_METHOD(Cuda_Fusion, export) {
    zend_fcall_info fci;
    zend_fcall_info_cache fcc;
    HashTable *inputs;
    zend_string *name = NULL;
    HashTable *donate = NULL;
    ZEND_PARSE_PARAMETERS_START(2, 4)
        Z_PARAM_FUNC(fci, fcc)
        Z_PARAM_ARRAY_HT(inputs)
        Z_PARAM_OPTIONAL
        Z_PARAM_STR(name)
        Z_PARAM_ARRAY_HT(donate)
    ZEND_PARSE_PARAMETERS_END();
    if (name && !fusion_no_nul(name, "graph name")) RETURN_THROWS();
    const RtBackend *b = php_gtc_backend();
    if (!b) RETURN_THROWS();
    zval shape;
    Graph *g = fusion_trace_closure(&fci, &fcc, inputs, name ? ZSTR_VAL(name) : "fusion", donate, b, &shape);
    if (!g) RETURN_THROWS();
    zval_ptr_dtor(&shape);
    char *json = ir_write_json(g);
    graph_free(g);
    RETVAL_STRING(json);
    free(json);
}

ZEND_METHOD(Cuda_Fusion, isTracing) {
    ZEND_PARSE_PARAMETERS_NONE();
    RETURN_BOOL(php_gtc_tracing());
}

void php_gtc_fusion_minit(void) {
    php_gtc_ce_FusionGraph->create_object = fgraph_create;
    memcpy(&fgraph_handlers, &std_object_handlers, sizeof fgraph_handlers);
    fgraph_handlers.offset = XtOffsetOf(php_gtc_fgraph, std);
    fgraph_handlers.free_obj = fgraph_free;
    fgraph_handlers.clone_obj = NULL;
    php_gtc_ce_FusionExecution->create_object = fexec_create;
    memcpy(&fexec_handlers, &std_object_handlers, sizeof fexec_handlers);
    fexec_handlers.offset = XtOffsetOf(php_gtc_fexec, std);
    fexec_handlers.free_obj = fexec_free;
    fexec_handlers.clone_obj = NULL;
}
