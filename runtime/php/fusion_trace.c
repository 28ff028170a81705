/* runtime/php/fusion_trace.c: tracing for Cuda\Fusion (fusion.h). php_gtc_apply is the one
 * hook every CudaArray op method and operator goes through: eager rt_apply for real tensors,
 * an IR node (graph_add with the same Attrs the method built) for placeholders; and
 * fusion_trace_closure, which calls a PHP closure on placeholders made from its input specs and
 * turns what it returns into the graph's outputs (and donations). */
#include "fusion.h"

#include "zend_fibers.h"

/* The storage every placeholder shares: no data, never freed. */
static RtStorage g_placeholder = {.refcount = 1 << 30, .backend = &rt_cpu_backend, .data = NULL, .bytes = 0};

static struct {
    bool active;
    Graph *g;
    RtTensor **held; /* placeholders created by this trace (one reference each) */
    NodeId *ids;     /* their nodes */
    int n, cap;
    int counter;
    RtTensor **captured; /* real tensors the closure used, one reference each: graph inputs */
    NodeId *captured_ids;
    int ncaptured, captured_cap;
    bool reads;      /* data may be read while tracing (Fusion::run: the trace runs once) */
    RtTensor **vals; /* per node: its value computed eagerly when data was read (trace_value) */
    int nvals;       /* entries allocated; inputs' entries are set when the input has data */
} g_trace; /* the active trace (one per process) */

bool php_gtc_is_placeholder(const RtTensor *t) { return t && t->storage == &g_placeholder; }
bool php_gtc_tracing(void) { return g_trace.active; }
bool php_gtc_trace_reads(void) { return g_trace.active && g_trace.reads; }

/* vals[] long enough for every node recorded so far. */
static void vals_grow(void) {
    int n = g_trace.g->nnodes;
    if (n <= g_trace.nvals) return;
    int cap = n > 2 * g_trace.nvals ? n : 2 * g_trace.nvals;
    RtTensor **v = realloc(g_trace.vals, (size_t)cap * sizeof *v);
    if (!v) abort();
    memset(v + g_trace.nvals, 0, (size_t)(cap - g_trace.nvals) * sizeof *v);
    g_trace.vals = v;
    g_trace.nvals = cap;
}

/* A graph node's value computed eagerly, on demand: its missing operands first, then the node
 * by rt_eval_node (runtime/core: the one node evaluator, which rt_eval_graph also runs for the
 * JIT's op-by-op fallback and Cuda\Optimizer). vals[] holds one per node (NULL: not computed
 * yet) and receives a new reference for each node computed. Tracing reads values with it
 * (trace_value) and autograd runs the gradient nodes of its tape with it (autograd.c). NULL
 * after rt_error. */
RtTensor *php_gtc_graph_value(const Graph *g, RtTensor **vals, NodeId id) {
    if (vals[id]) return vals[id];
    const Node *nd = &g->nodes[id];
    if (nd->op == OP_INPUT) {
        rt_error(RT_ERUNTIME, "traced value has no data: input \"%s\" was given as a shape or dtype, not a "
                 "Cuda\\CudaArray", nd->name);
        return NULL;
    }
    for (int k = 0; k < nd->ninputs; k++)
        if (nd->in[k].id >= 0 && !php_gtc_graph_value(g, vals, nd->in[k].id)) return NULL;
    return vals[id] = rt_eval_node(nd, vals);
}

/* A traced node's value, computed eagerly from the trace's inputs, the same way the JIT's
 * op-by-op fallback runs a graph; kept in vals[] until the trace ends. This is what a
 * closure sees when it reads data while traced (a debugging toArray(), a branch on a value),
 * as php-gpu-tensors' materialization boundary gives it: the plan itself still fuses the whole
 * closure. NULL after rt_error: an input given as a shape or dtype has no data. */
static RtTensor *trace_value(NodeId id) {
    vals_grow();
    return php_gtc_graph_value(g_trace.g, g_trace.vals, id);
}

RtTensor *php_gtc_data(RtTensor *t) {
    if (!t || !php_gtc_is_placeholder(t)) return t;
    NodeId id = fusion_trace_node(t);
    if (id >= 0 && !g_trace.reads) {
        php_gtc_throw(RT_ERUNTIME, "a traced value has no data inside Fusion::compile(): the closure runs once, "
                      "so it would be the trace's value, not each run's; return it as an output, or use Fusion::run()");
        return NULL;
    }
    if (id >= 0) {
        RtTensor *v = trace_value(id);
        if (!v) php_gtc_throw_rt();
        return v;
    }
    php_gtc_throw(RT_ERUNTIME, "placeholder tensors have no data %s",
                  g_trace.active ? "during tracing (this one is from another trace)"
                                 : "(it is left over from a trace: Fusion::run() gives the values that escape its "
                                   "closure their data; Fusion::compile() and a trace that failed do not)");
    return NULL;
}

bool php_gtc_check_data(const RtTensor *t) {
    if (!php_gtc_is_placeholder(t)) return true;
    php_gtc_throw(RT_ERUNTIME, "placeholder tensors have no data %s",
                  g_trace.active ? "during tracing" : "(it is left over from a trace)");
    return false;
}

bool php_gtc_trace_forbid(const char *what) {
    if (!g_trace.active) return true;
    php_gtc_throw(RT_ERUNTIME, "%s: not supported while Cuda\\Fusion is tracing", what);
    return false;
}

int fusion_trace_begin(const char *name, const RtBackend *b) {
    if (g_trace.active) return rt_error(RT_ERUNTIME, "nested capture: Cuda\\Fusion is already tracing a function");
    memset(&g_trace, 0, sizeof g_trace);
    g_trace.g = graph_new(name);
    g_trace.active = true;
    g_placeholder.backend = b;
    php_gtc_autograd_trace_begin();
    return 0;
}

Graph *fusion_trace_graph(void) { return g_trace.active ? g_trace.g : NULL; }

NodeId fusion_trace_node(const RtTensor *t) {
    if (!g_trace.active) return -1;
    for (int i = g_trace.n - 1; i >= 0; i--)
        if (g_trace.held[i] == t) return g_trace.ids[i];
    return -1;
}

static RtTensor *placeholder(const TensorType *t, NodeId id);

RtTensor *fusion_trace_placeholder(NodeId id) {
    if (!g_trace.active || id < 0 || id >= g_trace.g->nnodes) return rt_error(RT_ERUNTIME, "no such traced value"), NULL;
    return placeholder(&g_trace.g->nodes[id].type, id);
}

NodeId fusion_trace_captured(const RtTensor *t) {
    if (!g_trace.active) return -1;
    for (int i = 0; i < g_trace.ncaptured; i++)
        if (g_trace.captured[i] == t) return g_trace.captured_ids[i];
    return -1;
}

static RtTensor *placeholder(const TensorType *t, NodeId id) {
    RtTensor *p = calloc(1, sizeof *p);
    if (!p) {
        rt_error(RT_EOOM, "out of host memory");
        return NULL;
    }
    p->refcount = 2; /* the caller's and the trace's */
    p->dtype = t->dtype;
    p->rank = t->rank;
    memcpy(p->shape, t->dims, (size_t)t->rank * sizeof *p->shape);
    rt_contiguous_strides(t->rank, p->shape, p->strides);
    p->storage = &g_placeholder;
    g_placeholder.refcount++;
    if (g_trace.n == g_trace.cap) {
        g_trace.cap = g_trace.cap ? 2 * g_trace.cap : 32;
        /* malloc, not emalloc: a trace cut short by a fatal error is dropped at the next RINIT */
        RtTensor **held = realloc(g_trace.held, (size_t)g_trace.cap * sizeof *held);
        if (held) g_trace.held = held;
        NodeId *ids = realloc(g_trace.ids, (size_t)g_trace.cap * sizeof *ids);
        if (ids) g_trace.ids = ids;
        if (!held || !ids) abort();
    }
    g_trace.held[g_trace.n] = p;
    g_trace.ids[g_trace.n++] = id;
    return p;
}

RtTensor *fusion_trace_input(const char *name, const TensorType *t) {
    char err[256];
    if (!ir_is_identifier(name)) {
        rt_error(RT_EINVAL, "input name \"%.64s\" is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most %d characters)",
                 name, IR_MAX_NAME);
        return NULL;
    }
    if (graph_find(g_trace.g, name) >= 0) {
        rt_error(RT_EINVAL, "input \"%s\" is given twice", name);
        return NULL;
    }
    if (ir_check_type(t, err, sizeof err)) {
        rt_error(RT_EINVAL, "input \"%s\": %s", name, err);
        return NULL;
    }
    NodeId id = graph_add(g_trace.g, name, OP_INPUT);
    if (id < 0) {
        rt_error(RT_EINVAL, "the traced graph has too many nodes");
        return NULL;
    }
    Node *nd = &g_trace.g->nodes[id];
    nd->type = *t;
    nd->type.weak = false;
    nd->input_index = g_trace.g->ninputs++;
    snprintf(nd->loc, sizeof nd->loc, "inputs[%d]", nd->input_index);
    return placeholder(t, id);
}

/* The graph input that stands for a real tensor the traced closure uses (captured by the closure,
 * or made inside it): one per tensor object, named captured_N, after the declared inputs. Its
 * value is read at every run (the FusionGraph binds the tensor itself), not baked in. -1 after
 * rt_error. */
static NodeId capture(RtTensor *t) {
    for (int i = 0; i < g_trace.ncaptured; i++)
        if (g_trace.captured[i] == t) return g_trace.captured_ids[i];
    char name[32];
    int k = g_trace.ncaptured;
    do snprintf(name, sizeof name, "captured_%d", k++);
    while (graph_find(g_trace.g, name) >= 0);
    NodeId id = graph_add(g_trace.g, name, OP_INPUT);
    if (id < 0) {
        rt_error(RT_EINVAL, "the traced graph has too many nodes");
        return -1;
    }
    if (g_trace.ncaptured == g_trace.captured_cap) {
        g_trace.captured_cap = g_trace.captured_cap ? 2 * g_trace.captured_cap : 8;
        g_trace.captured = realloc(g_trace.captured, (size_t)g_trace.captured_cap * sizeof *g_trace.captured);
        g_trace.captured_ids = realloc(g_trace.captured_ids, (size_t)g_trace.captured_cap * sizeof *g_trace.captured_ids);
        if (!g_trace.captured || !g_trace.captured_ids) abort();
    }
    Node *nd = &g_trace.g->nodes[id];
    nd->type = rt_type(t);
    nd->type.weak = false;
    nd->input_index = g_trace.g->ninputs++;
    snprintf(nd->loc, sizeof nd->loc, "captured[%d]", g_trace.ncaptured);
    g_trace.captured[g_trace.ncaptured] = rt_retain(t);
    g_trace.captured_ids[g_trace.ncaptured++] = id;
    vals_grow();
    g_trace.vals[id] = rt_retain(t);
    php_gtc_autograd_trace_input(t, id); /* a captured tensor that requires gradients */
    return id;
}

NodeId fusion_trace_operand(RtTensor *t) {
    if (!g_trace.active) return rt_error(RT_ERUNTIME, "internal: no trace is active");
    if (!php_gtc_is_placeholder(t)) return capture(t);
    NodeId id = fusion_trace_node(t);
    if (id < 0) rt_error(RT_ERUNTIME, "a placeholder tensor of another trace was used");
    return id;
}

RtTensor *fusion_trace_result(NodeId id) {
    if (!g_trace.active || id < 0 || id >= g_trace.g->nnodes) {
        rt_error(RT_ERUNTIME, "internal: no such traced value");
        return NULL;
    }
    return placeholder(&g_trace.g->nodes[id].type, id);
}

/* A node for op over traced operands. */
static RtTensor *record(Op op, const RtOperand *in, int nin, const Attrs *a) {
    static const Attrs none;
    if (!a) a = &none;
    TensorType tin[IR_MAX_INPUTS] = {{0}};
    Operand ops[IR_MAX_INPUTS] = {{0}};
    if (nin < 0 || nin > IR_MAX_INPUTS) {
        rt_error(RT_EINVAL, "%s: bad operand count", ir_ops[op].name);
        return NULL;
    }
    for (int i = 0; i < nin; i++) {
        if (in[i].t) {
            bool ph = php_gtc_is_placeholder(in[i].t);
            NodeId id = ph ? fusion_trace_node(in[i].t) : capture(in[i].t);
            if (id < 0) {
                if (ph) rt_error(RT_ERUNTIME, "%s: a placeholder tensor of another trace was used", ir_ops[op].name);
                return NULL;
            }
            ops[i] = (Operand){.id = id};
            tin[i] = g_trace.g->nodes[id].type;
        } else {
            ops[i] = (Operand){.id = -1, .value = in[i].value};
            tin[i] = graph_operand_type(NULL, &ops[i]);
        }
    }
    TensorType out;
    char err[512];
    if (ir_infer_op(op, tin, nin, a, &out, err, sizeof err)) {
        rt_error(RT_EINVAL, "%s: %s", ir_ops[op].name, err);
        return NULL;
    }
    /* The IR's constants carry no "written as a float" mark: refuse what eager would type
     * differently (an integer tensor with 2.0) rather than record a different result type. */
    for (int i = 0; i < nin; i++)
        if (!in[i].t && in[i].is_float && !ir_dtype_is_float(tin[i].dtype)) {
            TensorType f[IR_MAX_INPUTS], o2;
            memcpy(f, tin, sizeof f);
            f[i].dtype = DT_FLOAT32;
            if (ir_infer_op(op, f, nin, a, &o2, err, sizeof err) || !ir_type_equal(&o2, &out)) {
                char num[64];
                ir_fmt_number(in[i].value, num, sizeof num);
                rt_error(RT_EINVAL, "%s: the float constant %s%s would make this op float32 eagerly but not "
                         "in the traced graph: cast the tensor first (astype) while tracing",
                         ir_ops[op].name, num, strpbrk(num, ".eEna") ? "" : ".0");
                return NULL;
            }
        }
    char name[32];
    do snprintf(name, sizeof name, "t%d", g_trace.counter++);
    while (graph_find(g_trace.g, name) >= 0);
    NodeId id = graph_add(g_trace.g, name, op);
    if (id < 0) {
        rt_error(RT_EINVAL, "the traced graph has too many nodes");
        return NULL;
    }
    Node *nd = &g_trace.g->nodes[id];
    nd->ninputs = nin;
    memcpy(nd->in, ops, (size_t)nin * sizeof *ops);
    nd->attrs = *a;
    nd->type = out;
    snprintf(nd->loc, sizeof nd->loc, "trace:%d", id);
    return placeholder(&out, id);
}

/* While a trace is active every op on tensors is recorded: placeholders are the declared
 * inputs, and real tensors (captured by the closure or made in it) become inputs of their own. */
RtTensor *php_gtc_apply(Op op, const RtOperand *in, int nin, const Attrs *a) {
    bool traced = false, tensors = false;
    if ((unsigned)op < OP_COUNT && ir_ops[op].kind == K_COMPOSITE) { /* its primitives, each traced or eager */
        RtTensor *r;
        if (!g_trace.active && php_gtc_eager_planned(op, in, nin, a, &r)) return r; /* on the GPU: planned */
        return rt_apply_composite(op, in, nin, a, php_gtc_apply);
    }
    for (int i = 0; i < nin; i++) traced |= php_gtc_is_placeholder(in[i].t), tensors |= in[i].t != NULL;
    if (g_trace.active && tensors) return record(op, in, nin, a);
    if (!traced) {
        RtTensor *r = rt_apply(op, in, nin, a);
        /* on a tensor with gradient history, also a node of autograd's tape (autograd.c) */
        return r && php_gtc_autograd_wants(in, nin) ? php_gtc_autograd_record(op, in, nin, a, r) : r;
    }
    if (!g_trace.active) {
        rt_error(RT_ERUNTIME, "placeholder tensors have no data outside tracing");
        return NULL;
    }
    return record(op, in, nin, a);
}

/* The placeholders the closure's code still holds once the trace is over (stored through a
 * reference, in an object, ...) become real tensors holding what they computed, so a value
 * that escapes a traced closure reads as it would have eagerly. One that cannot be computed
 * (from an input given as a shape) stays a placeholder, and reading it throws. */
static void materialize_escaped(void) {
    for (int i = 0; i < g_trace.n; i++) {
        RtTensor *p = g_trace.held[i];
        if (p->refcount < 2) continue; /* only the trace's reference */
        RtTensor *v = trace_value(g_trace.ids[i]);
        if (!v) {
            rt_clear_error();
            continue;
        }
        g_placeholder.refcount--;
        p->storage = v->storage;
        p->storage->refcount++;
        p->offset = v->offset;
        memcpy(p->strides, v->strides, sizeof p->strides);
    }
}

Graph *fusion_trace_end(void) {
    if (!g_trace.active) return NULL;
    Graph *g = g_trace.g;
    for (int i = 0; i < g_trace.nvals; i++) rt_release(g_trace.vals[i]);
    free(g_trace.vals);
    for (int i = 0; i < g_trace.n; i++) rt_release(g_trace.held[i]);
    free(g_trace.held);
    free(g_trace.ids);
    for (int i = 0; i < g_trace.ncaptured; i++) rt_release(g_trace.captured[i]);
    free(g_trace.captured);
    free(g_trace.captured_ids);
    memset(&g_trace, 0, sizeof g_trace);
    return g;
}

void php_gtc_fusion_rinit(void) {
    /* a fatal error (a bailout) inside a traced function never returned to Fusion::compile */
    if (g_trace.active) graph_free(fusion_trace_end());
}

/* ---- calling a closure on placeholders ----------------------------------------------------------------------- */

/* One input spec: a CudaArray (its shape and dtype), a dtype name (rank 0), a number (rank 0:
 * float32 for a float, int64 for an int), or [shape] / [shape, dtype] / ['shape' =>, 'dtype' =>]. */
static bool input_type(const char *name, zval *spec, TensorType *t) {
    ZVAL_DEREF(spec);
    memset(t, 0, sizeof *t);
    t->dtype = DT_FLOAT32;
    switch (Z_TYPE_P(spec)) {
    case IS_OBJECT:
        if (instanceof_function(Z_OBJCE_P(spec), php_gtc_ce_CudaArray)) {
            RtTensor *x = php_gtc_array_tensor(spec);
            if (x) {
                *t = rt_type(x);
                t->weak = false;
                return true;
            }
        }
        break;
    case IS_STRING:
        if (ir_dtype_from_name(Z_STRVAL_P(spec), &t->dtype) == 0) return true;
        php_gtc_throw(RT_EINVAL, "input \"%s\": unknown dtype \"%s\"", name, Z_STRVAL_P(spec));
        return false;
    case IS_DOUBLE: return true;
    case IS_LONG: t->dtype = DT_INT64; return true;
    case IS_ARRAY: {
        HashTable *ht = Z_ARRVAL_P(spec);
        zval *shape = zend_hash_str_find(ht, "shape", 5), *dt = zend_hash_str_find(ht, "dtype", 5);
        if (!shape) shape = zend_hash_index_find(ht, 0), dt = zend_hash_index_find(ht, 1);
        if (!shape || Z_TYPE_P(shape) != IS_ARRAY || (dt && Z_TYPE_P(dt) != IS_STRING)) break;
        int r = php_gtc_parse_shape(Z_ARRVAL_P(shape), 2, false, t->dims);
        if (r < 0) return false;
        t->rank = r;
        if (dt && ir_dtype_from_name(Z_STRVAL_P(dt), &t->dtype)) {
            php_gtc_throw(RT_EINVAL, "input \"%s\": unknown dtype \"%s\"", name, Z_STRVAL_P(dt));
            return false;
        }
        return true;
    }
    default: break;
    }
    php_gtc_throw(RT_EINVAL, "input \"%s\" must be a Cuda\\CudaArray, a dtype name, a number or "
                  "[shape, dtype], %s given", name, zend_zval_type_name(spec));
    return false;
}

/* A key path as an output name: parts joined by '_', other characters replaced. */
static char *output_name(const char *path, const Graph *g) {
    char base[IR_MAX_NAME];
    size_t n = 0;
    if (!*path || (path[0] >= '0' && path[0] <= '9')) n = (size_t)snprintf(base, sizeof base, "out%s", *path ? "_" : "");
    for (const char *p = path; *p && n < sizeof base - 8; p++) {
        char c = *p;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        base[n++] = ok ? c : '_';
    }
    base[n] = 0;
    char *name = estrdup(base);
    for (int k = 2;; k++) {
        bool clash = false;
        for (int j = 0; j < g->noutputs && !clash; j++) clash = !strcmp(g->outputs[j].name, name);
        if (!clash) return name;
        efree(name);
        name = emalloc(n + 16);
        snprintf(name, n + 16, "%s_%d", base, k);
    }
}

/* Adds the tensors of v as graph outputs (key paths as names); *shape receives v with each
 * tensor replaced by its output index. false after throwing. */
static bool flatten(Graph *g, zval *v, const char *path, zval *shape, int depth) {
    ZVAL_DEREF(v);
    if (Z_TYPE_P(v) == IS_OBJECT && instanceof_function(Z_OBJCE_P(v), php_gtc_ce_CudaArray)) {
        RtTensor *t = php_gtc_array_tensor(v);
        if (!t) {
            php_gtc_throw(RT_EINVAL, "the traced function returned an uninitialized Cuda\\CudaArray (%s)",
                          *path ? path : "its result");
            return false;
        }
        NodeId id = php_gtc_is_placeholder(t) ? fusion_trace_node(t) : capture(t); /* returned as it is */
        if (id < 0) {
            if (php_gtc_is_placeholder(t)) rt_error(RT_ERUNTIME, "the traced function returned a placeholder of another trace");
            php_gtc_throw_rt();
            return false;
        }
        Output *o = realloc(g->outputs, (size_t)(g->noutputs + 1) * sizeof *o);
        if (!o) abort();
        g->outputs = o;
        char *name = output_name(path, g);
        o[g->noutputs].name = strdup(name);
        efree(name);
        if (!o[g->noutputs].name) abort();
        o[g->noutputs].value = id;
        ZVAL_LONG(shape, g->noutputs++);
        return true;
    }
    if (Z_TYPE_P(v) != IS_ARRAY || depth > 32) {
        php_gtc_throw(RT_EINVAL, "the traced function must return a Cuda\\CudaArray or (nested) arrays of "
                      "them; %s%s%s is %s", *path ? "\"" : "", *path ? path : "its result", *path ? "\"" : "",
                      depth > 32 ? "nested too deeply" : zend_zval_type_name(v));
        return false;
    }
    array_init(shape);
    zend_ulong idx;
    zend_string *key;
    zval *item;
    ZEND_HASH_FOREACH_KEY_VAL(Z_ARRVAL_P(v), idx, key, item) {
        char sub[512];
        if (key) snprintf(sub, sizeof sub, "%s%s%s", path, *path ? "." : "", ZSTR_VAL(key));
        else snprintf(sub, sizeof sub, "%s%s" ZEND_ULONG_FMT, path, *path ? "." : "", idx);
        zval child;
        ZVAL_UNDEF(&child);
        bool ok = flatten(g, item, sub, &child, depth + 1);
        if (Z_TYPE(child) != IS_UNDEF) {
            if (key) zend_hash_update(Z_ARRVAL_P(shape), key, &child);
            else zend_hash_index_update(Z_ARRVAL_P(shape), idx, &child);
        }
        if (!ok) return false;
    } ZEND_HASH_FOREACH_END();
    return true;
}

/* $donate: output key path ("w1", "params.w1") => input name whose buffer it reuses (the
 * caller's tensor is updated in place and returned), as "donate" in the graph format. */
static bool add_donations(Graph *g, HashTable *donate) {
    zend_string *key;
    zval *val;
    ZEND_HASH_FOREACH_STR_KEY_VAL(donate, key, val) {
        if (!key || Z_TYPE_P(val) != IS_STRING) {
            php_gtc_throw(RT_EINVAL, "donate must map output key paths to input names");
            return false;
        }
        if (!php_gtc_no_nul(Z_STR_P(val), "donate: input name")) return false;
        char *oname = output_name(ZSTR_VAL(key), &(Graph){.noutputs = 0});
        int j = -1;
        for (int k = 0; k < g->noutputs && j < 0; k++)
            if (!strcmp(g->outputs[k].name, oname)) j = k;
        efree(oname);
        NodeId in = graph_find(g, Z_STRVAL_P(val));
        if (j < 0 || in < 0 || g->nodes[in].op != OP_INPUT) {
            php_gtc_throw(RT_EINVAL, "donate: %s \"%s\" does not exist", j < 0 ? "output" : "input",
                          j < 0 ? ZSTR_VAL(key) : Z_STRVAL_P(val));
            return false;
        }
        /* checked here, where the key the user wrote is known (the verifier would name the
         * traced value, "t3") */
        const TensorType *ot = &g->nodes[g->outputs[j].value].type, *it = &g->nodes[in].type;
        if (!ir_type_equal(ot, it)) {
            char so[128], si[128];
            ir_shape_str(ot, so, sizeof so);
            ir_shape_str(it, si, sizeof si);
            php_gtc_throw(RT_EINVAL, "donate: output \"%s\" (%s %s) cannot reuse input \"%s\" (%s %s): it needs the "
                          "same dtype and shape", ZSTR_VAL(key), ir_dtype_name(ot->dtype), so, Z_STRVAL_P(val),
                          ir_dtype_name(it->dtype), si);
            return false;
        }
        Donation *d = realloc(g->donations, (size_t)(g->ndonations + 1) * sizeof *d);
        if (!d) abort();
        g->donations = d;
        d[g->ndonations++] = (Donation){.value = g->outputs[j].value, .input = in};
    } ZEND_HASH_FOREACH_END();
    return true;
}

/* Calls fn once with placeholders for `inputs` (in their order; string keys name the graph's
 * inputs, others are named in0, in1, ...) and returns the verified graph, with *shape set to
 * the result's structure; NULL after throwing, with no trace left active. */
Graph *fusion_trace_closure(zend_fcall_info *fci, zend_fcall_info_cache *fcc, HashTable *inputs, const char *name,
                           HashTable *donate, const RtBackend *b, bool reads, zval *shape, RtTensor ***captured,
                           int *ncaptured) {
    ZVAL_UNDEF(shape);
    if (captured) *captured = NULL, *ncaptured = 0;
    if (php_gtc_tracing()) {
        php_gtc_throw(RT_ERUNTIME, "nested capture: Cuda\\Fusion is already tracing a function");
        return NULL;
    }
    if (!ir_is_identifier(name)) {
        php_gtc_throw(RT_EINVAL, "graph name \"%.64s\" is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most %d characters)",
                      name, IR_MAX_NAME);
        return NULL;
    }
    if (fusion_trace_begin(name, b)) {
        php_gtc_throw_rt();
        return NULL;
    }
    g_trace.reads = reads;
    uint32_t n = zend_hash_num_elements(inputs), argc = 0;
    zval *args = safe_emalloc(n + 1, sizeof(zval), 0), ret;
    ZVAL_UNDEF(&ret);
    Graph *g = NULL;
    bool ok = true;
    zend_ulong idx;
    zend_string *key;
    zval *spec;
    ZEND_HASH_FOREACH_KEY_VAL(inputs, idx, key, spec) {
        char iname[IR_MAX_NAME + 32];
        if (key && !php_gtc_no_nul(key, "input name")) {
            ok = false;
            break;
        }
        if (key) snprintf(iname, sizeof iname, "%s", ZSTR_VAL(key));
        else snprintf(iname, sizeof iname, "in" ZEND_ULONG_FMT, idx);
        TensorType t;
        if (!input_type(iname, spec, &t)) {
            ok = false;
            break;
        }
        RtTensor *ph = fusion_trace_input(iname, &t);
        if (!php_gtc_wrap(&args[argc], php_gtc_ce_CudaArray, ph)) {
            ok = false;
            break;
        }
        argc++;
        ZVAL_DEREF(spec);
        if (Z_TYPE_P(spec) == IS_OBJECT && instanceof_function(Z_OBJCE_P(spec), php_gtc_ce_CudaArray)) {
            vals_grow(); /* its data, for values read while tracing (trace_value) */
            g_trace.vals[fusion_trace_node(ph)] = rt_retain(php_gtc_array_tensor(spec));
            php_gtc_autograd_trace_input(php_gtc_array_tensor(spec), fusion_trace_node(ph));
        }
    } ZEND_HASH_FOREACH_END();
    if (ok) {
        fci->retval = &ret;
        fci->params = args;
        fci->param_count = argc;
        fci->named_params = NULL;
        /* The trace is the process's one: a Fiber suspended inside the closure would leave it
         * active under every later eager op. Fiber::suspend() throws FiberError instead. */
        zend_fiber_switch_block();
        ok = zend_call_function(fci, fcc) == SUCCESS && !EG(exception);
        zend_fiber_switch_unblock();
    }
    Graph *tg = fusion_trace_graph();
    if (ok) ok = flatten(tg, &ret, "", shape, 0);
    if (ok && tg->noutputs == 0) {
        php_gtc_throw(RT_EINVAL, "the traced function returned no tensors");
        ok = false;
    }
    if (ok && donate) ok = add_donations(tg, donate);
    if (ok && captured) { /* the caller binds them at every run */
        *captured = g_trace.captured, *ncaptured = g_trace.ncaptured;
        g_trace.captured = NULL, g_trace.ncaptured = 0;
    }
    for (uint32_t i = 0; i < argc; i++) zval_ptr_dtor(&args[i]);
    efree(args);
    zval_ptr_dtor(&ret);
    if (ok && reads) materialize_escaped();
    g = fusion_trace_end();
    if (ok) {
        Diag d;
        diag_init(&d, name);
        if (ir_verify(g, &d)) {
            php_gtc_throw(RT_EINVAL, "the traced graph is not valid: %s", d.msg);
            ok = false;
        }
    }
    if (!ok) {
        graph_free(g);
        zval_ptr_dtor(shape);
        ZVAL_UNDEF(shape);
        if (captured && *captured) {
            for (int i = 0; i < *ncaptured; i++) rt_release((*captured)[i]);
            free(*captured);
            *captured = NULL, *ncaptured = 0;
        }
        return NULL;
    }
    return g;
}
