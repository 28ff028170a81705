/* runtime/php/fusion.c: Cuda\Fusion, Cuda\FusionGraph and Cuda\FusionExecution: the JIT. A PHP
 * closure is called once with placeholder tensors (fusion_trace.c calls it and records its ops),
 * the graph goes through the compiler's own pipeline (pipeline_run) and code generators (emit.h),
 * plan_build turns the placed plan into the RtPlan a model extension embeds, and the executor
 * (exec.c) replays it with the backend's plan operations: on the GPU as one CUDA Graph with
 * kernels from NVRTC, on the CPU with kernels_cpu.c built by the system C compiler (both through
 * the kernel cache, runtime/core/kcache.h), or, where the backend cannot build kernels (no C
 * compiler), node by node with rt_apply ("eager").
 *
 * Cuda\FusionGraph is a plan class (plan_class.h: the same run/getPlan/getStats/getSource/
 * inputs/outputs as every compiled model) with the JIT's hooks: run() returns the closure's own
 * structure, and the op-by-op fallback. Compiled plans are kept per process, keyed by the traced
 * graph's canonical JSON: compiling the same closure again reuses them
 * (getStats()['cache'] === 'memory'). */
#include "fusion.h"
#include "plan_class.h"

#include "zend_exceptions.h"

#include "../../compiler/pipeline.h"
#include "../../compiler/plan_build.h"
#include "../../compiler/target.h"
#include "../core/exec.h"

zend_class_entry *php_gtc_ce_Fusion;
zend_class_entry *php_gtc_ce_FusionGraph;
zend_class_entry *php_gtc_ce_FusionExecution;

/* ---- compiled plans, shared per process ------------------------------------------------------- */

/* Keyed by the traced graph's canonical JSON, found through a 64-bit hash of it (the text is
 * compared only on a hash match). The plan is backend-independent; its kernels per backend are
 * the backend's (RtBackend.plan, shared per plan). An entry is added only once an executor ran
 * up, so a failed build or the op-by-op fallback is tried afresh by the next compile. The cache
 * is bounded (entries and bytes, least recently used out first) and can be cleared
 * (Fusion::clearCache); an entry lives on while FusionGraph objects use it (refs). */
#define CACHE_BUCKETS 64
#define CACHE_MAX_ENTRIES 256
#define CACHE_MAX_BYTES ((size_t)64 << 20)

typedef struct Compiled {
    struct Compiled *next;
    uint64_t hash;
    char *json;          /* the traced graph (canonical v1 JSON) */
    Target target;       /* what it was lowered for */
    bool data_parallel;  /* planned with Graph.data_parallel (dataParallel: true) */
    RtPlan *plan;
    Graph *eager;        /* the fallback's graph (no way to build kernels), or NULL */
    int refs;            /* FusionGraph objects using it */
    bool cached;         /* in g_compiled */
    uint64_t used;       /* the cache clock when last found or added */
    size_t bytes;        /* the graph's JSON and the plan's sources */
    int intermediates;   /* getStats()['intermediateBuffers'], ['viewAliases']: plan_facts() */
    int view_aliases;
} Compiled;

static Compiled *g_compiled[CACHE_BUCKETS];
static struct {
    long entries, compilations, hits, misses, evictions;
    size_t bytes;
    uint64_t clock;
} g_cache;

/* FNV-1a over the text: fast, and collisions only cost a string comparison. */
static uint64_t json_hash(const char *s) {
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static void compiled_free(Compiled *c) {
    if (!c) return;
    plan_build_free(c->plan);
    if (c->eager) graph_free(c->eager);
    free(c->json);
    free(c);
}

/* Takes c out of the cache; it is freed now unless an object still uses it (then by the last). */
static void cache_remove(Compiled *c) {
    for (Compiled **pp = &g_compiled[c->hash % CACHE_BUCKETS]; *pp; pp = &(*pp)->next)
        if (*pp == c) {
            *pp = c->next;
            break;
        }
    c->cached = false;
    g_cache.entries--;
    g_cache.bytes -= c->bytes;
    if (c->refs == 0) compiled_free(c);
}

static void cache_clear(void) {
    for (int i = 0; i < CACHE_BUCKETS; i++)
        while (g_compiled[i]) cache_remove(g_compiled[i]);
}

/* Adds c, then evicts the least recently used entries (never c) while over a bound. */
static void cache_insert(Compiled *c) {
    c->next = g_compiled[c->hash % CACHE_BUCKETS];
    g_compiled[c->hash % CACHE_BUCKETS] = c;
    c->cached = true;
    c->used = ++g_cache.clock;
    g_cache.entries++;
    g_cache.bytes += c->bytes;
    while (g_cache.entries > CACHE_MAX_ENTRIES || (g_cache.bytes > CACHE_MAX_BYTES && g_cache.entries > 1)) {
        Compiled *lru = NULL;
        for (int i = 0; i < CACHE_BUCKETS; i++)
            for (Compiled *e = g_compiled[i]; e; e = e->next)
                if (e != c && (!lru || e->used < lru->used)) lru = e;
        if (!lru) break;
        cache_remove(lru);
        g_cache.evictions++;
    }
}

void php_gtc_fusion_mshutdown(void) { cache_clear(); }

/* The cached plan of the graph whose JSON is `json` lowered for t, or NULL. */
static Compiled *cache_find(const char *json, uint64_t h, const Target *t, bool dp) {
    for (Compiled *c = g_compiled[h % CACHE_BUCKETS]; c; c = c->next)
        if (c->hash == h && !memcmp(&c->target, t, sizeof *t) && c->data_parallel == dp && !strcmp(c->json, json)) return c;
    return NULL;
}

/* Two facts of a planned graph that php-gpu-tensors' getStats() reports: the values written to
 * the arena between steps (neither input nor output), and the views (transpose, reshape, slice,
 * broadcast) that cost no copy because their readers index through them. */
static void plan_facts(const Graph *g, Compiled *c) {
    const Plan *p = g->plan;
    for (int i = 0; p && i < g->nnodes && i < p->nnodes; i++) {
        if (p->buf[i].kind == BUF_ARENA) c->intermediates++;
        else if (p->buf[i].kind == BUF_NONE && ir_ops[g->nodes[i].op].kind == K_VIEW) c->view_aliases++;
    }
}

/* A verified traced graph planned, generated and built into an RtPlan (not cached yet). NULL
 * after throwing. `json` is taken over. */
static Compiled *compile_graph(Graph *g, const Target *t, char *json, uint64_t h) {
    Diag d;
    diag_init(&d, g->name);
    char *cu = NULL, *cpu = NULL;
    RtPlan *plan = NULL;
    if (pipeline_run(g, t, &d, NULL) || !(cu = emit_cuda_source(g, g->name, &d)) ||
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
    c->hash = h;
    c->target = *t;
    c->data_parallel = g->data_parallel;
    c->plan = plan;
    plan_facts(g, c);
    c->bytes = strlen(json) + (plan->cuda_source ? strlen(plan->cuda_source) : 0) +
               (plan->cpu_source ? strlen(plan->cpu_source) : 0);
    g_cache.compilations++;
    return c;
}

/* ---- Cuda\FusionGraph: a plan class (plan_class.h) with the JIT's hooks ------------------------ */

/* The fallback when the backend cannot build kernels (no C compiler): the traced graph node by
 * node in order (rt_eval_graph). */
static int run_eager(php_gtc_plan_obj *o, RtTensor *const *in, const double *scalars, RtTensor **out) {
    const Graph *g = ((Compiled *)o->host_data)->eager;
    const RtBackend *b = o->backend;
    RtTensor **v = calloc((size_t)g->nnodes + 1, sizeof *v);
    int rc = 0;
    if (!v) return rt_error(RT_EOOM, "out of host memory");
    for (int i = 0; i < g->nnodes && !rc; i++) {
        const Node *nd = &g->nodes[i];
        if (nd->op != OP_INPUT) continue;
        RtTensor *t = in[nd->input_index];
        v[i] = t ? rt_retain(t) : rt_full(b, nd->type.dtype, 0, NULL, scalars[nd->input_index]);
        if (!v[i]) rc = -1;
    }
    if (!rc) rc = rt_eval_graph(g, v);
    for (int j = 0; j < g->noutputs && !rc; j++) {
        RtTensor *t = v[g->outputs[j].value];
        int d = o->plan->outputs[j].donated_from;
        if (d >= 0 && in[d]) { /* updated in place, as the executor does */
            rc = rt_assign(in[d], t);
            out[j] = rc ? NULL : rt_retain(in[d]);
        } else {
            out[j] = rt_is_contiguous(t) ? rt_retain(t) : rt_contiguous(t);
            if (!out[j]) rc = -1;
        }
    }
    if (rc)
        for (int j = 0; j < g->noutputs; j++) rt_release(out[j]), out[j] = NULL;
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

static void fgraph_result(php_gtc_plan_obj *o, zval *outs, zval *rv) { rebuild(&o->host_value, outs, rv); }

static const char *fgraph_kernels(php_gtc_plan_obj *o) { (void)o; return "eager"; }

/* getStats() adds 'cache': 'memory' (this plan was compiled before in this process) or 'miss';
 * and php-gpu-tensors' keys where gtc has the same fact: 'executions' (runs so far),
 * 'executionSteps' (kernels per run), 'boundaries' (where one kernel's results go to memory for
 * the next: steps - 1), 'intermediateBuffers' and 'viewAliases' (plan_facts), 'cudaGraph' (replayed
 * as one CUDA Graph), 'capturedTensors'. */
static void fgraph_stats(php_gtc_plan_obj *o, zval *rv) {
    add_assoc_string(rv, "cache", o->cached ? "memory" : "miss");
    add_assoc_bool(rv, "cacheHit", o->cached); /* php-gpu-tensors' name */
    add_assoc_long(rv, "executions", o->exec ? (zend_long)rt_exec_replays(o->exec) : o->fallback_runs);
    add_assoc_long(rv, "executionSteps", o->plan->nsteps);
    add_assoc_long(rv, "boundaries", o->plan->nsteps > 0 ? o->plan->nsteps - 1 : 0);
    add_assoc_long(rv, "intermediateBuffers", ((Compiled *)o->host_data)->intermediates);
    add_assoc_long(rv, "viewAliases", ((Compiled *)o->host_data)->view_aliases);
    add_assoc_bool(rv, "cudaGraph", o->exec && o->backend->async);
    add_assoc_long(rv, "capturedTensors", o->nhidden);
    add_assoc_long(rv, "pending", o->pending); /* runAsync() executions not waited for */
}

/* getSource('graph'): the traced v1 JSON. */
static const char *fgraph_source(php_gtc_plan_obj *o, const char *part) {
    return strcmp(part, "graph") ? NULL : ((Compiled *)o->host_data)->json;
}

/* The last object of an entry the cache no longer holds (cleared, evicted, or never taken: the
 * op-by-op fallback) frees it. */
static void fgraph_free(php_gtc_plan_obj *o) {
    Compiled *c = o->host_data;
    if (c && --c->refs == 0 && !c->cached) compiled_free(c);
    o->host_data = NULL;
}

static const php_gtc_plan_host fgraph_host = {
    .run_fallback = run_eager,
    .result = fgraph_result,
    .kernels = fgraph_kernels,
    .stats = fgraph_stats,
    .source = fgraph_source,
    .source_parts = "null, 'cuda', 'cpu' or 'graph'",
    .free = fgraph_free,
};

/* The GPU the JIT lowers for: the backend's device (its SMs, shared memory, compute
 * capability); the default target where the backend has no device (the CPU). NULL after
 * throwing. The target is part of the cache key: the same graph lowers differently elsewhere. */
static const Target *jit_target(const RtBackend *b, Target *t, int precision) {
    RtDeviceInfo dp;
    char err[160];
    if (!b->device_info) {
        *t = *target_default();
        t->precision = precision;
        return t;
    }
    if (b->device_info(-1, &dp) || target_from_device(t, dp.sms, dp.cc_major, dp.cc_minor, dp.smem_block, dp.smem_sm)) {
        if (rt_status() == RT_OK) rt_error(RT_ERUNTIME, "the %s device reports impossible properties", b->name);
        php_gtc_throw_rt();
        return NULL;
    }
    t->precision = precision;
    if (target_precision_check(t, err, sizeof err)) {
        php_gtc_throw(RT_EINVAL, "Fusion::compile(): %s (the %s device)", err, b->name);
        return NULL;
    }
    return t;
}

/* A FusionGraph on backend b for graph g (freed here) into rv: the cached plan of the same
 * graph, or a new one; run() returns shape's structure (taken over) with outputs for indices;
 * captured (taken over) are bound at every run after the graph's other inputs. false after
 * throwing. */
static bool graph_object(Graph *g, const char *name, const RtBackend *b, zval *shape, RtTensor **captured,
                         int ncaptured, int precision, zval *rv) {
    Target tt = {0};
    const Target *t = jit_target(b, &tt, precision);
    if (!t) {
        graph_free(g);
        goto fail;
    }
    char *json = ir_write_json(g);
    uint64_t h = json_hash(json) ^ json_hash(t->name) * 31 ^ (uint64_t)t->sms ^ (uint64_t)g->data_parallel << 40;
    Compiled *c = cache_find(json, h, t, g->data_parallel);
    bool hit = c != NULL;
    if (hit) {
        free(json);
        c->used = ++g_cache.clock;
        g_cache.hits++;
    } else {
        g_cache.misses++;
        c = compile_graph(g, t, json, h);
    }
    graph_free(g);
    if (!c) goto fail;
    RtExec *e = rt_exec_new(c->plan, b);
    if (!e && rt_status() == RT_EUNSUPPORTED && !c->eager) {
        /* no kernels and no way to build them here (no C compiler): op by op */
        Diag d;
        diag_init(&d, name);
        rt_clear_error();
        if (!(c->eager = ir_read_json(c->json, strlen(c->json), &d)))
            rt_error(RT_ERUNTIME, "internal: the traced graph does not read back: %s", d.msg);
    }
    if (!e && !c->eager) {
        php_gtc_throw_rt();
        if (!hit) compiled_free(c);
        goto fail;
    }
    c->refs++; /* before an insert may evict: never this one */
    if (e && !hit) cache_insert(c); /* cached once it runs */
    object_init_ex(rv, php_gtc_ce_FusionGraph);
    php_gtc_plan_obj *o = php_gtc_plan_from_obj(Z_OBJ_P(rv));
    o->plan = c->plan;
    o->host = &fgraph_host;
    o->host_data = c;
    o->backend = b;
    o->pinned = true;
    o->exec = e;
    o->cached = hit;
    o->hidden = captured; /* bound at every run: their values then, not at tracing */
    o->nhidden = ncaptured;
    ZVAL_COPY_VALUE(&o->host_value, shape);
    return true;
fail:
    for (int i = 0; i < ncaptured; i++) rt_release(captured[i]);
    free(captured);
    zval_ptr_dtor(shape);
    return false;
}

bool php_gtc_fusion_graph(Graph *g, const char *name, zval *shape, zval *rv) {
    const RtBackend *b = php_gtc_backend();
    if (!b) {
        graph_free(g);
        zval_ptr_dtor(shape);
        return false;
    }
    return graph_object(g, name, b, shape, NULL, 0, PREC_FP32, rv);
}

/* compile()'s $dynamic: ['batch' => ['x', 'y']] makes axis 0 of inputs x and y the symbolic
 * dimension "batch" (docs/graph-format.md §3.1), its bound their traced size, and types the
 * traced graph again with it. false after throwing (Cuda\InvalidArgumentException naming what). */
static bool apply_dynamic(Graph *g, HashTable *dyn) {
    zend_string *sym;
    zval *list;
    ZEND_HASH_FOREACH_STR_KEY_VAL(dyn, sym, list) {
        if (!sym || !php_gtc_no_nul(sym, "dimension name") || !ir_is_identifier(ZSTR_VAL(sym))) {
            php_gtc_throw(RT_EINVAL, "dynamic: keys are the dimensions' names (identifiers): ['batch' => ['x', 'y']]");
            return false;
        }
        ZVAL_DEREF(list);
        if (Z_TYPE_P(list) != IS_ARRAY || !zend_hash_num_elements(Z_ARRVAL_P(list))) {
            php_gtc_throw(RT_EINVAL, "dynamic: '%s' must map to a non-empty list of input names", ZSTR_VAL(sym));
            return false;
        }
        if (g->nsyms == IR_MAX_SYMS) {
            php_gtc_throw(RT_EINVAL, "dynamic: more than %d dimensions", IR_MAX_SYMS);
            return false;
        }
        int k = g->nsyms;
        IrSym *sy = &g->syms[k];
        sy->max = 0;
        zval *in;
        ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(list), in) {
            ZVAL_DEREF(in);
            NodeId id = Z_TYPE_P(in) == IS_STRING && !memchr(Z_STRVAL_P(in), 0, Z_STRLEN_P(in)) ? graph_find(g, Z_STRVAL_P(in)) : -1;
            Node *n = id >= 0 ? &g->nodes[id] : NULL;
            if (!n || n->op != OP_INPUT) {
                if (Z_TYPE_P(in) == IS_STRING && Z_STRLEN_P(in) <= IR_MAX_NAME && ir_is_identifier(Z_STRVAL_P(in)))
                    php_gtc_throw(RT_EINVAL, "dynamic: '%s' names \"%s\", which is not an input of the closure", ZSTR_VAL(sym),
                                  Z_STRVAL_P(in));
                else
                    php_gtc_throw(RT_EINVAL, "dynamic: '%s' must list input names (strings), got %s", ZSTR_VAL(sym),
                                  Z_TYPE_P(in) == IS_STRING ? "a string that names no input" : zend_zval_type_name(in));
                return false;
            }
            if (n->type.rank < 1 || n->type.sym[0] || (sy->max && n->type.dims[0] != sy->max) || n->type.dims[0] < 1) {
                php_gtc_throw(RT_EINVAL, "dynamic: input \"%s\" cannot take '%s' as its first axis (%s)", n->name, ZSTR_VAL(sym),
                              n->type.rank < 1 ? "it has none" : n->type.sym[0] ? "it has a dimension already"
                              : n->type.dims[0] < 1 ? "it is empty" : "its size differs from the other inputs'");
                return false;
            }
            sy->max = n->type.dims[0];
            n->type.sym[0] = (unsigned char)(k + 1);
        } ZEND_HASH_FOREACH_END();
        if (!(sy->name = strdup(ZSTR_VAL(sym)))) abort();
        g->nsyms++;
    } ZEND_HASH_FOREACH_END();
    Diag d;
    diag_init(&d, "dynamic");
    if (g->nsyms && ir_verify(g, &d)) {
        php_gtc_throw(RT_EINVAL, "%s", d.msg);
        return false;
    }
    return true;
}

/* A FusionGraph for fn over inputs into rv (dynamic: apply_dynamic's, or NULL); false after
 * throwing. */
static bool make_graph(zend_fcall_info *fci, zend_fcall_info_cache *fcc, HashTable *inputs, const char *name,
                       HashTable *donate, HashTable *dynamic, bool reads, int precision, bool dp, zval *rv) {
    const RtBackend *b = php_gtc_backend();
    if (!b) return false;
    zval shape;
    RtTensor **captured;
    int ncaptured;
    Graph *g = fusion_trace_closure(fci, fcc, inputs, name, donate, b, reads, &shape, &captured, &ncaptured);
    if (!g) return false;
    if (dynamic && !apply_dynamic(g, dynamic)) {
        graph_free(g);
        for (int i = 0; i < ncaptured; i++) rt_release(captured[i]);
        free(captured);
        zval_ptr_dtor(&shape);
        return false;
    }
    g->data_parallel = dp;
    return graph_object(g, name, b, &shape, captured, ncaptured, precision, rv);
}

ZEND_METHOD(Cuda_FusionGraph, __construct) { ZEND_PARSE_PARAMETERS_NONE(); }
ZEND_METHOD(Cuda_FusionExecution, __construct) { ZEND_PARSE_PARAMETERS_NONE(); }

ZEND_METHOD(Cuda_FusionGraph, run) { php_gtc_plan_method_run(INTERNAL_FUNCTION_PARAM_PASSTHRU); }
ZEND_METHOD(Cuda_FusionGraph, getPlan) { php_gtc_plan_method_getPlan(INTERNAL_FUNCTION_PARAM_PASSTHRU); }
ZEND_METHOD(Cuda_FusionGraph, getStats) { php_gtc_plan_method_getStats(INTERNAL_FUNCTION_PARAM_PASSTHRU); }
ZEND_METHOD(Cuda_FusionGraph, getSource) { php_gtc_plan_method_getSource(INTERNAL_FUNCTION_PARAM_PASSTHRU); }
ZEND_METHOD(Cuda_FusionGraph, inputs) { php_gtc_plan_method_inputs(INTERNAL_FUNCTION_PARAM_PASSTHRU); }
ZEND_METHOD(Cuda_FusionGraph, outputs) { php_gtc_plan_method_outputs(INTERNAL_FUNCTION_PARAM_PASSTHRU); }
ZEND_METHOD(Cuda_FusionGraph, setProfiling) { php_gtc_plan_method_setProfiling(INTERNAL_FUNCTION_PARAM_PASSTHRU); }
ZEND_METHOD(Cuda_FusionGraph, saveCheckpoint) { php_gtc_plan_method_saveCheckpoint(INTERNAL_FUNCTION_PARAM_PASSTHRU); }
ZEND_METHOD(Cuda_FusionGraph, loadCheckpoint) { php_gtc_plan_method_loadCheckpoint(INTERNAL_FUNCTION_PARAM_PASSTHRU); }
ZEND_METHOD(Cuda_FusionGraph, optimizerState) { php_gtc_plan_method_optimizerState(INTERNAL_FUNCTION_PARAM_PASSTHRU); }
ZEND_METHOD(Cuda_FusionGraph, setOptimizerState) { php_gtc_plan_method_setOptimizerState(INTERNAL_FUNCTION_PARAM_PASSTHRU); }
ZEND_METHOD(Cuda_FusionGraph, resetOptimizerState) { php_gtc_plan_method_resetOptimizerState(INTERNAL_FUNCTION_PARAM_PASSTHRU); }

/* ---- Cuda\FusionExecution ---------------------------------------------------------------------- */

typedef struct {
    zval result;
    const RtBackend *b;
    bool done;
    zend_object *graph; /* the FusionGraph it came from (a reference), for its pending count */
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

/* Marks the execution finished: its graph has one pending run fewer. */
static void fexec_done(php_gtc_fexec *x) {
    if (!x->done && x->graph) php_gtc_plan_from_obj(x->graph)->pending--;
    x->done = true;
}

static void fexec_free(zend_object *obj) {
    php_gtc_fexec *x = fexec_from_obj(obj);
    if (!x->done && x->b && x->b->synchronize) x->b->synchronize(); /* its outputs may still be written */
    fexec_done(x);
    if (x->graph) OBJ_RELEASE(x->graph);
    zval_ptr_dtor(&x->result);
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
    php_gtc_plan_obj *f = php_gtc_plan_from_obj(Z_OBJ_P(ZEND_THIS));
    zval r;
    if (!f->plan) {
        zend_throw_error(NULL, "Cuda\\FusionGraph objects come from Cuda\\Fusion::compile()");
        RETURN_THROWS();
    }
    if (!php_gtc_plan_run(f, false, args, argc, named, &r)) RETURN_THROWS();
    object_init_ex(return_value, php_gtc_ce_FusionExecution);
    php_gtc_fexec *x = fexec_from_obj(Z_OBJ_P(return_value));
    ZVAL_COPY_VALUE(&x->result, &r);
    x->b = f->backend;
    x->done = !f->backend->async;
    x->graph = Z_OBJ_P(ZEND_THIS);
    GC_ADDREF(x->graph);
    if (!x->done) f->pending++;
}

static bool fexec_sync(php_gtc_fexec *x) {
    if (Z_TYPE(x->result) == IS_UNDEF) {
        zend_throw_error(NULL, "Cuda\\FusionExecution objects come from Cuda\\FusionGraph::runAsync()");
        return false;
    }
    if (!x->done && x->b->synchronize) x->b->synchronize();
    fexec_done(x);
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
    zval *third = NULL;
    bool cuda_graph = false;
    HashTable *donate = NULL, *dynamic = NULL;
    zend_string *prec = NULL;
    bool dp = false;
    ZEND_PARSE_PARAMETERS_START(2, 8)
        Z_PARAM_FUNC(fci, fcc)
        Z_PARAM_ARRAY_HT(inputs)
        Z_PARAM_OPTIONAL
        Z_PARAM_ZVAL(third)
        Z_PARAM_ARRAY_HT(donate)
        Z_PARAM_BOOL(cuda_graph)
        Z_PARAM_STR(prec)
        Z_PARAM_ARRAY_HT(dynamic)
        Z_PARAM_BOOL(dp)
    ZEND_PARSE_PARAMETERS_END();
    int precision = PREC_FP32;
    char perr[160];
    if (prec && (strlen(ZSTR_VAL(prec)) != ZSTR_LEN(prec) ||
                 target_precision_parse(ZSTR_VAL(prec), &precision, perr, sizeof perr))) {
        if (strlen(ZSTR_VAL(prec)) != ZSTR_LEN(prec)) zend_argument_value_error(6, "must not contain any null bytes");
        else zend_argument_value_error(6, "%s", perr);
        RETURN_THROWS();
    }
    if (third && Z_TYPE_P(third) == IS_STRING) {
        name = Z_STR_P(third);
    } else if (third && Z_TYPE_P(third) != IS_TRUE && Z_TYPE_P(third) != IS_FALSE) {
        zend_argument_type_error(3, "must be of type string|bool, %s given", zend_zval_type_name(third));
        RETURN_THROWS();
    }
    (void)cuda_graph; /* php-gpu-tensors' cudaGraph (also a bool third argument): a plan on a
                       * CUDA device is one CUDA Graph replay anyway */
    if (name && !php_gtc_no_nul(name, "graph name")) RETURN_THROWS();
    if (!make_graph(&fci, &fcc, inputs, name ? ZSTR_VAL(name) : "fusion", donate, dynamic, false, precision, dp, return_value))
        RETURN_THROWS();
}

/* run(fn, inputs, enabled): compile (or reuse) and run once with the inputs themselves; with
 * enabled false (or php-gpu-tensors' run(fn, false)) fn is called eagerly on them. */
ZEND_METHOD(Cuda_Fusion, run) {
    zend_fcall_info fci;
    zend_fcall_info_cache fcc;
    HashTable *inputs = (HashTable *)&zend_empty_array;
    zval *second = NULL;
    bool enabled = true;
    ZEND_PARSE_PARAMETERS_START(1, 3)
        Z_PARAM_FUNC(fci, fcc)
        Z_PARAM_OPTIONAL
        Z_PARAM_ZVAL(second)
        Z_PARAM_BOOL(enabled)
    ZEND_PARSE_PARAMETERS_END();
    if (second && Z_TYPE_P(second) == IS_ARRAY) {
        inputs = Z_ARRVAL_P(second);
    } else if (second && (Z_TYPE_P(second) == IS_TRUE || Z_TYPE_P(second) == IS_FALSE)) {
        enabled = enabled && Z_TYPE_P(second) == IS_TRUE; /* php-gpu-tensors' run($fn, false) */
    } else if (second) {
        zend_argument_type_error(2, "must be of type array|bool, %s given", zend_zval_type_name(second));
        RETURN_THROWS();
    }
    /* Results must keep gradient history (autograd.c records eager ops only): while a live
     * tensor has some, the closure runs eagerly, its ops recorded on the tape. */
    if (enabled && !php_gtc_tracing() && php_gtc_autograd_active()) enabled = false;
    if (!enabled) { /* eager: the closure on the inputs, positionally */
        zval *args = NULL, ret;
        ZVAL_UNDEF(&ret);
        uint32_t n = zend_hash_num_elements(inputs), i = 0;
        args = safe_emalloc(n + 1, sizeof(zval), 0);
        zval *v;
        ZEND_HASH_FOREACH_VAL(inputs, v) {
            ZVAL_COPY_DEREF(&args[i], v);
            i++;
        } ZEND_HASH_FOREACH_END();
        fci.retval = &ret;
        fci.params = args;
        fci.param_count = n;
        fci.named_params = NULL;
        bool ok = zend_call_function(&fci, &fcc) == SUCCESS && !EG(exception);
        for (i = 0; i < n; i++) zval_ptr_dtor(&args[i]);
        efree(args);
        if (!ok) {
            zval_ptr_dtor(&ret);
            RETURN_THROWS();
        }
        RETURN_COPY_VALUE(&ret);
    }
    zval g;
    if (!make_graph(&fci, &fcc, inputs, "fusion", NULL, NULL, true, PREC_FP32, false, &g)) RETURN_THROWS();
    uint32_t n = zend_hash_num_elements(inputs), i = 0;
    zval *args = safe_emalloc(n + 1, sizeof(zval), 0), *v;
    ZEND_HASH_FOREACH_VAL(inputs, v) {
        ZVAL_COPY_DEREF(&args[i], v);
        i++;
    } ZEND_HASH_FOREACH_END();
    bool ok = php_gtc_plan_run(php_gtc_plan_from_obj(Z_OBJ(g)), false, args, n, NULL, return_value);
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
    if (name && !php_gtc_no_nul(name, "graph name")) RETURN_THROWS();
    const RtBackend *b = php_gtc_backend();
    if (!b) RETURN_THROWS();
    zval shape;
    Graph *g = fusion_trace_closure(&fci, &fcc, inputs, name ? ZSTR_VAL(name) : "fusion", donate, b, false, &shape, NULL, NULL);
    if (!g) RETURN_THROWS();
    zval_ptr_dtor(&shape);
    char *json = ir_write_json(g);
    graph_free(g);
    RETVAL_STRING(json);
    free(json);
}

/* getCacheStats(): the plan cache of this process (php-gpu-tensors' keys where they mean the
 * same: entries, bytes, maxEntries, maxBytes, compilations, hits, misses, evictions). Kernels
 * built from plans also have a disk cache (runtime/core/kcache.h), which this does not count. */
ZEND_METHOD(Cuda_Fusion, getCacheStats) {
    ZEND_PARSE_PARAMETERS_NONE();
    array_init_size(return_value, 8);
    add_assoc_long(return_value, "entries", g_cache.entries);
    add_assoc_long(return_value, "bytes", (zend_long)g_cache.bytes);
    add_assoc_long(return_value, "maxEntries", CACHE_MAX_ENTRIES);
    add_assoc_long(return_value, "maxBytes", (zend_long)CACHE_MAX_BYTES);
    add_assoc_long(return_value, "compilations", g_cache.compilations);
    add_assoc_long(return_value, "hits", g_cache.hits);
    add_assoc_long(return_value, "misses", g_cache.misses);
    add_assoc_long(return_value, "evictions", g_cache.evictions);
}

/* clearCache(): forgets every cached plan; compiled FusionGraph objects keep theirs. */
ZEND_METHOD(Cuda_Fusion, clearCache) {
    ZEND_PARSE_PARAMETERS_NONE();
    if (!php_gtc_trace_forbid("Cuda\\Fusion::clearCache()")) RETURN_THROWS();
    cache_clear();
}

ZEND_METHOD(Cuda_Fusion, isTracing) {
    ZEND_PARSE_PARAMETERS_NONE();
    RETURN_BOOL(php_gtc_tracing());
}

void php_gtc_fusion_minit(void) {
    php_gtc_plan_class_init(php_gtc_ce_FusionGraph);
    php_gtc_ce_FusionExecution->create_object = fexec_create;
    memcpy(&fexec_handlers, &std_object_handlers, sizeof fexec_handlers);
    fexec_handlers.offset = XtOffsetOf(php_gtc_fexec, std);
    fexec_handlers.free_obj = fexec_free;
    fexec_handlers.clone_obj = NULL;
}
