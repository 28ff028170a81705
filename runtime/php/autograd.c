/* runtime/php/autograd.c: eager reverse-mode autograd for Cuda\CudaArray (requiresGrad, backward,
 * grad, zeroGrad, detach; docs/autograd.md). The tape is an IR Graph: every op php_gtc_apply
 * runs on a tensor with gradient history is appended as a node, and backward() differentiates
 * it with the compiler's own rules (autodiff_grads, compiler/pass_autodiff.c), then evaluates the
 * gradient nodes eagerly with the graph evaluator tracing uses (php_gtc_graph_value). While
 * Cuda\Fusion traces, backward() appends the gradient to the trace graph instead, so a closure
 * that calls it compiles into one plan.
 *
 * Ownership: the registry (tensor => AgEntry) holds one reference to every tensor it knows; a
 * tape node's forward value is its entry's tensor. Tensors are immutable once recorded (an
 * in-place write to one, offsetSet, is not seen by the tape: docs/autograd.md). */
#include "fusion.h"

#include "../../compiler/autodiff.h"

/* What autograd knows about one tensor (an RtTensor, whichever PHP objects wrap it). */
typedef struct {
    RtTensor *t;        /* one reference: the value, also its tape node's forward value */
    RtTensor *grad;     /* a leaf's accumulated gradient (one reference), or NULL */
    NodeId node;        /* its node in the tape, or -1 */
    bool requires_grad; /* a leaf whose gradient backward() accumulates */
    bool history;       /* requires gradients or was computed from one that does: ops on it are recorded */
} AgEntry;

static struct {
    bool init;
    HashTable reg;     /* (zend_ulong)(uintptr_t)RtTensor* => AgEntry* (malloc'd) */
    Graph *tape;       /* one per process; collected (compacted) as it grows */
    AgEntry **ent;     /* per tape node: its entry */
    int entcap;
    unsigned counter;  /* node names */
    int gc_at;         /* the tape size that triggers the next collection */
    /* the active trace's marks (reset when a trace begins) */
    NodeId *tparam, *tgrad; /* inputs of the trace that require gradients, and their gradient nodes */
    int ntp, tpcap;
} g_ag;

#define GC_MIN 256

static void entry_dtor(zval *zv) {
    AgEntry *e = Z_PTR_P(zv);
    rt_release(e->t);
    rt_release(e->grad);
    free(e);
}

static void ag_init(void) {
    if (g_ag.init) return;
    zend_hash_init(&g_ag.reg, 64, NULL, entry_dtor, 1); /* persistent: independent of the request's heap */
    g_ag.tape = graph_new("tape");
    g_ag.gc_at = GC_MIN;
    g_ag.init = true;
}

static AgEntry *lookup(const RtTensor *t) {
    if (!g_ag.init || !t) return NULL;
    return zend_hash_index_find_ptr(&g_ag.reg, (zend_ulong)(uintptr_t)t);
}

static AgEntry *entry(RtTensor *t) {
    ag_init();
    AgEntry *e = lookup(t);
    if (e) return e;
    e = calloc(1, sizeof *e);
    if (!e) abort();
    e->t = rt_retain(t);
    e->node = -1;
    zend_hash_index_add_new_ptr(&g_ag.reg, (zend_ulong)(uintptr_t)t, e);
    return e;
}

static void ent_grow(void) {
    int n = g_ag.tape->nnodes;
    if (n <= g_ag.entcap) return;
    int cap = n > 2 * g_ag.entcap ? n : 2 * g_ag.entcap;
    AgEntry **a = realloc(g_ag.ent, (size_t)cap * sizeof *a);
    if (!a) abort();
    memset(a + g_ag.entcap, 0, (size_t)(cap - g_ag.entcap) * sizeof *a);
    g_ag.ent = a, g_ag.entcap = cap;
}

/* A new tape node named after its op (so an error from autodiff_grads names the op). */
static NodeId tape_add(Op op, AgEntry *e) {
    char name[48];
    snprintf(name, sizeof name, "%s_%u", op == OP_INPUT ? "leaf" : ir_ops[op].name, g_ag.counter++);
    NodeId id = graph_add(g_ag.tape, name, op);
    if (id < 0)
        return rt_error(RT_ERUNTIME, "the autograd tape is full (%d ops): the histories of live tensors are that "
                        "long; detach() a tensor (or drop it) to let the tape forget its history", IR_MAX_NODES), -1;
    Node *nd = &g_ag.tape->nodes[id];
    snprintf(nd->loc, sizeof nd->loc, "tape");
    nd->type = rt_type(e->t);
    nd->type.weak = false;
    ent_grow();
    g_ag.ent[id] = e;
    e->node = id;
    return id;
}

/* The tensor's node, made an input of the tape (a leaf, or a constant) when it has none. */
static NodeId tape_node(AgEntry *e) {
    if (e->node >= 0) return e->node;
    NodeId id = tape_add(OP_INPUT, e);
    if (id >= 0) g_ag.tape->nodes[id].input_index = g_ag.tape->ninputs++;
    return id;
}

/* ---- collection -------------------------------------------------------------------------------- */

/* An entry worth keeping when it has no node: a leaf some PHP object still holds. */
static int drop_dead(zval *zv) {
    AgEntry *e = Z_PTR_P(zv);
    return e->node < 0 && (e->t->refcount == 1 || (!e->requires_grad && !e->grad)) ? ZEND_HASH_APPLY_REMOVE
                                                                                    : ZEND_HASH_APPLY_KEEP;
}

/* Compacts the tape to the nodes some live tensor still depends on. A node is live when its
 * value is held by anything besides the registry (a PHP object, another tensor's trace); its
 * ancestors are kept for backward(). Everything else is forgotten, so a training loop that
 * drops each step's tensors keeps the tape (and the memory it holds) bounded. */
static void collect(void) {
    Graph *g = g_ag.tape;
    int n = g->nnodes;
    bool *keep = calloc((size_t)n + 1, sizeof *keep);
    NodeId *map = malloc(((size_t)n + 1) * sizeof *map);
    if (!keep || !map) abort();
    for (NodeId i = n - 1; i >= 0; i--) {
        if (g_ag.ent[i]->t->refcount > 1) keep[i] = true;
        if (keep[i])
            for (int k = 0; k < g->nodes[i].ninputs; k++)
                if (g->nodes[i].in[k].id >= 0) keep[g->nodes[i].in[k].id] = true;
    }
    int m = 0;
    g->ninputs = 0;
    for (NodeId i = 0; i < n; i++) {
        Node *nd = &g->nodes[i];
        if (!keep[i]) {
            free(nd->name);
            g_ag.ent[i]->node = -1;
            map[i] = -1;
            continue;
        }
        map[i] = m;
        for (int k = 0; k < nd->ninputs; k++)
            if (nd->in[k].id >= 0) nd->in[k].id = map[nd->in[k].id];
        if (nd->op == OP_INPUT) nd->input_index = g->ninputs++;
        g_ag.ent[i]->node = m;
        g_ag.ent[m] = g_ag.ent[i];
        g->nodes[m++] = *nd;
    }
    g->nnodes = m;
    free(keep), free(map);
    zend_hash_apply(&g_ag.reg, drop_dead);
    g_ag.gc_at = 2 * m > GC_MIN ? 2 * m : GC_MIN;
    if (g_ag.gc_at > IR_MAX_NODES) g_ag.gc_at = IR_MAX_NODES; /* a full tape collects before refusing */
}

/* ---- recording (php_gtc_apply's eager path) ---------------------------------------------------- */

/* A new RtTensor for t's view of the same data: autograd keys its records by RtTensor, so a value
 * that must have a record of its own (or none: detach) gets a distinct one. */
static RtTensor *new_view(const RtTensor *t) {
    RtTensor *v = malloc(sizeof *v);
    if (!v) abort();
    *v = *t;
    v->refcount = 1;
    v->storage->refcount++;
    return v;
}

/* Cheap when nothing requires gradients: no registry, no lookup. */
bool php_gtc_autograd_wants(const RtOperand *in, int nin) {
    if (!g_ag.init) return false;
    for (int i = 0; i < nin; i++) {
        AgEntry *e = lookup(in[i].t);
        if (e && e->history) return true;
    }
    return false;
}

/* The op's node, typed as ir_infer_op types it (the IR the rules read), its operands' nodes
 * made first; the result's record holds the value. */
RtTensor *php_gtc_autograd_record(Op op, const RtOperand *in, int nin, const Attrs *a, RtTensor *r) {
    static const Attrs none;
    if (!a) a = &none;
    if (g_ag.tape->nnodes >= g_ag.gc_at) collect();
    if (lookup(r)) { /* the op returned a tensor that already has a node: record a view of its own */
        RtTensor *v = new_view(r);
        rt_release(r);
        r = v;
    }
    Operand ops[IR_MAX_INPUTS] = {{0}};
    TensorType tin[IR_MAX_INPUTS] = {{0}};
    for (int i = 0; i < nin; i++) {
        if (in[i].t) {
            NodeId id = tape_node(entry(in[i].t));
            if (id < 0) return rt_release(r), NULL;
            ops[i] = (Operand){.id = id};
            tin[i] = g_ag.tape->nodes[id].type;
        } else {
            ops[i] = (Operand){.id = -1, .value = in[i].value};
            tin[i] = graph_operand_type(NULL, &ops[i]);
        }
    }
    AgEntry *e = entry(r);
    /* The IR types a float constant on an integer tensor differently from eager (fusion_trace.c's
     * record refuses it): such a result (never differentiable) is recorded as a constant. */
    TensorType out, have = rt_type(r);
    char err[256];
    have.weak = false;
    if (ir_infer_op(op, tin, nin, a, &out, err, sizeof err) || out.dtype != have.dtype || !ir_type_equal(&out, &have))
        return tape_node(e) < 0 ? (rt_release(r), NULL) : r;
    NodeId id = tape_add(op, e);
    if (id < 0) return rt_release(r), NULL; /* its record stays until collected */
    Node *nd = &g_ag.tape->nodes[id];
    nd->ninputs = nin;
    memcpy(nd->in, ops, (size_t)nin * sizeof *ops);
    nd->attrs = *a;
    e->history = true;
    return r;
}

bool php_gtc_autograd_active(void) {
    if (!g_ag.init) return false;
    AgEntry *e;
    ZEND_HASH_FOREACH_PTR(&g_ag.reg, e) {
        if (e->history && e->t->refcount > 1) return true;
    } ZEND_HASH_FOREACH_END();
    return false;
}

/* ---- tracing (Cuda\Fusion) --------------------------------------------------------------------- */

void php_gtc_autograd_trace_begin(void) { g_ag.ntp = 0; }

static int trace_param(NodeId id) {
    for (int i = 0; i < g_ag.ntp; i++)
        if (g_ag.tparam[i] == id) return i;
    return -1;
}

static void trace_mark(NodeId id) {
    if (trace_param(id) >= 0) return;
    if (g_ag.ntp == g_ag.tpcap) {
        g_ag.tpcap = g_ag.tpcap ? 2 * g_ag.tpcap : 8;
        g_ag.tparam = realloc(g_ag.tparam, (size_t)g_ag.tpcap * sizeof *g_ag.tparam);
        g_ag.tgrad = realloc(g_ag.tgrad, (size_t)g_ag.tpcap * sizeof *g_ag.tgrad);
        if (!g_ag.tparam || !g_ag.tgrad) abort();
    }
    g_ag.tparam[g_ag.ntp] = id;
    g_ag.tgrad[g_ag.ntp++] = -1;
}

void php_gtc_autograd_trace_input(const RtTensor *real, NodeId id) {
    AgEntry *e = lookup(real);
    if (e && e->requires_grad) trace_mark(id);
}

/* The trace node a tensor stands for: a placeholder's, or the input a captured tensor became. */
static NodeId trace_id(const RtTensor *t) {
    return php_gtc_is_placeholder(t) ? fusion_trace_node(t) : fusion_trace_captured(t);
}

/* backward() while tracing: the gradients of loss (a trace node) with respect to the inputs
 * that require them, appended to the trace graph and accumulated per input. */
static bool trace_backward(NodeId loss) {
    Graph *g = fusion_trace_graph();
    if (!g_ag.ntp) {
        php_gtc_throw(RT_ERUNTIME, "backward(): no input of the traced function requires gradients (call "
                      "requiresGrad() on the tensor given for it)");
        return false;
    }
    NodeId *grads = calloc((size_t)g_ag.ntp, sizeof *grads);
    bool *unreached = calloc((size_t)g_ag.ntp, sizeof *unreached);
    if (!grads || !unreached) abort();
    Diag d;
    diag_init(&d, "backward()");
    Builder b;
    ad_begin(&b, g, &d);
    int rc = autodiff_grads(&b, loss, g_ag.tparam, g_ag.ntp, NULL, 0, grads, unreached);
    for (int i = 0; i < g_ag.ntp && !rc; i++) {
        if (unreached[i]) continue;
        if (g_ag.tgrad[i] >= 0) grads[i] = ad_bin(&b, NULL, OP_ADD, ad_v(g_ag.tgrad[i]), ad_v(grads[i]));
        ad_rename(&b, grads[i], "grad_%s", g->nodes[g_ag.tparam[i]].name);
        g_ag.tgrad[i] = grads[i];
    }
    rc |= ad_finish(&b);
    free(grads), free(unreached);
    if (rc) php_gtc_throw(RT_ERUNTIME, "%s", d.msg); /* d names its file: "backward(): ..." */
    return !rc;
}

/* ---- evaluating the tape's gradient ------------------------------------------------------------ */

/* backward() on a tensor with history: autodiff_grads over the tape with loss (a rank-0 node)
 * for every leaf that requires gradients, the new nodes evaluated eagerly, each reached leaf's
 * gradient accumulated, then the gradient nodes removed again (the tape keeps only forward ops,
 * so backward() can run again on the same history, as the peer's test does). */
static bool tape_backward(NodeId loss) {
    Graph *g = g_ag.tape;
    int mark = g->nnodes, np = 0;
    NodeId *params = malloc(((size_t)mark + 1) * sizeof *params);
    if (!params) abort();
    for (NodeId i = 0; i < mark; i++)
        if (g->nodes[i].op == OP_INPUT && g_ag.ent[i]->requires_grad) params[np++] = i;
    NodeId *grads = calloc((size_t)np + 1, sizeof *grads);
    bool *unreached = calloc((size_t)np + 1, sizeof *unreached);
    if (!grads || !unreached) abort();
    Diag d;
    diag_init(&d, "backward()");
    Builder b;
    ad_begin(&b, g, &d);
    int rc = autodiff_grads(&b, loss, params, np, NULL, 0, grads, unreached);
    rc |= ad_finish(&b);
    bool ok = !rc;
    if (rc) php_gtc_throw(RT_ERUNTIME, "%s", d.msg); /* d names its file: "backward(): ..." */
    RtTensor **vals = calloc((size_t)g->nnodes + 1, sizeof *vals);
    if (!vals) abort();
    for (NodeId i = 0; i < mark; i++) vals[i] = g_ag.ent[i]->t; /* borrowed */
    /* The gradient nodes the reached leaves need, computed in order (they were appended in
     * topological order, after every forward value): no recursion however deep the history. */
    bool *need = calloc((size_t)g->nnodes + 1, sizeof *need);
    if (!need) abort();
    for (int i = 0; i < np && ok; i++)
        if (!unreached[i]) need[grads[i]] = true;
    for (NodeId i = g->nnodes - 1; i >= mark && ok; i--)
        for (int k = 0; need[i] && k < g->nodes[i].ninputs; k++)
            if (g->nodes[i].in[k].id >= mark) need[g->nodes[i].in[k].id] = true;
    for (NodeId i = mark; i < g->nnodes && ok; i++)
        if (need[i] && !vals[i] && !php_gtc_graph_value(g, vals, i)) {
            php_gtc_throw_rt();
            ok = false;
        }
    free(need);
    RtTensor **sum = calloc((size_t)np + 1, sizeof *sum);
    if (!sum) abort();
    for (int i = 0; i < np && ok; i++) {
        if (unreached[i]) continue;
        RtTensor *v = php_gtc_graph_value(g, vals, grads[i]);
        AgEntry *e = g_ag.ent[params[i]];
        RtOperand two[2] = {{.t = e->grad}, {.t = v}};
        /* a new tensor either way: a gradient handed out by grad() is never written to */
        sum[i] = !v ? NULL : e->grad ? rt_apply(OP_ADD, two, 2, NULL) : rt_contiguous(v);
        if (!sum[i]) {
            php_gtc_throw_rt();
            ok = false;
        }
    }
    for (int i = 0; i < np && ok; i++) /* all or nothing: no leaf updated when one failed */
        if (sum[i]) rt_release(g_ag.ent[params[i]]->grad), g_ag.ent[params[i]]->grad = sum[i], sum[i] = NULL;
    for (int i = 0; i < np; i++) rt_release(sum[i]);
    for (NodeId i = mark; i < g->nnodes; i++) rt_release(vals[i]), free(g->nodes[i].name);
    g->nnodes = mark;
    free(vals), free(sum), free(params), free(grads), free(unreached);
    return ok;
}

/* ---- the PHP methods --------------------------------------------------------------------------- */

/* requiresGrad(bool $requiresGrad = true): marks a leaf; returns $this. */
ZEND_METHOD(Cuda_CudaArray, requiresGrad) {
    bool flag = true;
    ZEND_PARSE_PARAMETERS_START(0, 1)
        Z_PARAM_OPTIONAL
        Z_PARAM_BOOL(flag)
    ZEND_PARSE_PARAMETERS_END();
    GTC_THIS_TENSOR(t);
    if (flag && !ir_dtype_is_float(t->dtype)) {
        php_gtc_throw(RT_EINVAL, "requiresGrad(): only floating-point tensors can require gradients, this one is %s",
                      ir_dtype_name(t->dtype));
        RETURN_THROWS();
    }
    if (php_gtc_tracing() && (php_gtc_is_placeholder(t) || fusion_trace_captured(t) >= 0)) {
        NodeId id = trace_id(t);
        if (flag && fusion_trace_graph()->nodes[id].op != OP_INPUT) {
            php_gtc_throw(RT_EINVAL, "requiresGrad(): while tracing, only an input of the traced function can "
                          "require gradients");
            RETURN_THROWS();
        }
        if (flag) trace_mark(id);
        RETURN_OBJ_COPY(Z_OBJ_P(ZEND_THIS));
    }
    AgEntry *e = flag ? entry(t) : lookup(t);
    if (e && e->history && !e->requires_grad) {
        if (!flag) {
            php_gtc_throw(RT_EINVAL, "requiresGrad(false): the tensor is computed from tensors that require "
                          "gradients; detach() gives one without that history");
            RETURN_THROWS();
        }
        RETURN_OBJ_COPY(Z_OBJ_P(ZEND_THIS)); /* it requires gradients already, through its history */
    }
    if (e) e->requires_grad = e->history = flag;
    RETURN_OBJ_COPY(Z_OBJ_P(ZEND_THIS));
}

/* backward(?CudaArray $gradient = null): accumulates d(sum(this * gradient))/d(leaf) into the
 * grad() of every leaf this tensor is computed from; without a gradient the tensor must hold
 * one value (the gradient is 1). */
ZEND_METHOD(Cuda_CudaArray, backward) {
    zval *seedz = NULL;
    ZEND_PARSE_PARAMETERS_START(0, 1)
        Z_PARAM_OPTIONAL
        Z_PARAM_OBJECT_OF_CLASS_OR_NULL(seedz, php_gtc_ce_CudaArray)
    ZEND_PARSE_PARAMETERS_END();
    GTC_THIS_TENSOR(y);
    RtTensor *seed = NULL;
    if (seedz && !(seed = php_gtc_tensor(Z_OBJ_P(seedz)))) RETURN_THROWS();
    char sy[128], ss[128];
    TensorType ty = rt_type(y);
    ir_shape_str(&ty, sy, sizeof sy);
    if (!ir_dtype_is_float(y->dtype)) {
        php_gtc_throw(RT_EINVAL, "backward(): %s tensors have no gradient", ir_dtype_name(y->dtype));
        RETURN_THROWS();
    }
    if (!seed && rt_numel(y) != 1) {
        php_gtc_throw(RT_EINVAL, "backward(): the tensor has shape %s, not a single value: pass the gradient "
                      "of the loss with respect to it (a tensor of shape %s)", sy, sy);
        RETURN_THROWS();
    }
    if (seed) {
        TensorType ts = rt_type(seed);
        ir_shape_str(&ts, ss, sizeof ss);
        if (!ir_type_equal(&ts, &ty) || ts.dtype != ty.dtype) {
            php_gtc_throw(RT_EINVAL, "backward(): the gradient is %s %s, the tensor %s %s: they must match",
                          ir_dtype_name(seed->dtype), ss, ir_dtype_name(y->dtype), sy);
            RETURN_THROWS();
        }
    }
    /* while tracing, every op on tensors is traced, the loss's sum(y * gradient) included */
    bool traced = php_gtc_tracing() && (php_gtc_is_placeholder(y) || seed || y->rank > 0);
    if (!traced && !php_gtc_check_data(y)) RETURN_THROWS();
    AgEntry *e = traced ? NULL : lookup(y);
    if (!traced && (!e || !e->history)) {
        php_gtc_throw(RT_ERUNTIME, "backward(): the tensor has no gradient history: no tensor it is computed "
                      "from requires gradients (call requiresGrad() on the leaves first)");
        RETURN_THROWS();
    }
    /* A loop's previous step is garbage by now (its variables were overwritten by this step's
     * forward pass): forgetting it here bounds the memory a training loop holds to about one
     * step's tensors, not the collection threshold's worth. */
    if (!traced && g_ag.init && g_ag.tape->nnodes > 0) collect();
    /* the loss as one rank-0 value: sum(y * gradient), recorded like any op (tape or trace) */
    RtTensor *loss = rt_retain(y), *prod = NULL;
    static const Attrs all; /* a reduction over every axis */
    if (seed) {
        RtOperand two[2] = {{.t = y}, {.t = seed}};
        prod = php_gtc_apply(OP_MUL, two, 2, NULL);
        rt_release(loss);
        loss = prod ? rt_retain(prod) : NULL;
    }
    if (loss && loss->rank > 0) {
        RtOperand one = {.t = loss};
        RtTensor *s = php_gtc_apply(OP_SUM, &one, 1, &all);
        rt_release(loss);
        loss = s;
    }
    bool ok = loss != NULL;
    if (!ok) php_gtc_throw_rt();
    if (ok && traced) ok = trace_backward(fusion_trace_node(loss));
    else if (ok) {
        NodeId id = tape_node(entry(loss));
        ok = id >= 0 && tape_backward(id);
        if (id < 0) php_gtc_throw_rt();
    }
    rt_release(prod), rt_release(loss);
    if (!ok) RETURN_THROWS();
}

/* grad(): the accumulated gradient of a leaf, or null (none yet, or not a leaf). While tracing,
 * a traced input's gradient from backward() in the closure (a traced value). */
ZEND_METHOD(Cuda_CudaArray, grad) {
    ZEND_PARSE_PARAMETERS_NONE();
    GTC_THIS_TENSOR(t);
    if (php_gtc_tracing()) {
        NodeId id = trace_id(t);
        int k = id >= 0 ? trace_param(id) : -1;
        if (k >= 0 && g_ag.tgrad[k] >= 0) RETURN_TENSOR(fusion_trace_placeholder(g_ag.tgrad[k]));
        if (php_gtc_is_placeholder(t)) RETURN_NULL();
    }
    AgEntry *e = lookup(t);
    if (!e || !e->grad) RETURN_NULL();
    RETURN_TENSOR(rt_retain(e->grad));
}

/* zeroGrad(): forgets the accumulated gradient (grad() is null again), as php-gpu-tensors does. */
ZEND_METHOD(Cuda_CudaArray, zeroGrad) {
    ZEND_PARSE_PARAMETERS_NONE();
    GTC_THIS_TENSOR(t);
    if (php_gtc_tracing()) {
        NodeId id = trace_id(t);
        int k = id >= 0 ? trace_param(id) : -1;
        if (k >= 0) g_ag.tgrad[k] = -1;
    }
    AgEntry *e = lookup(t);
    if (e && e->grad) rt_release(e->grad), e->grad = NULL;
}

/* detach(): the same values with no gradient history (sharing the data). While tracing, a
 * stop_gradient node: the compiled gradient treats it as a constant too. */
ZEND_METHOD(Cuda_CudaArray, detach) {
    ZEND_PARSE_PARAMETERS_NONE();
    GTC_THIS_TENSOR(t);
    if (php_gtc_is_placeholder(t)) {
        RtOperand in = {.t = t};
        RETURN_TENSOR(php_gtc_apply(OP_STOP_GRADIENT, &in, 1, NULL));
    }
    RETURN_TENSOR(new_view(t));
}

/* Drops the tape and every record (a fatal error can leave a request's tensors behind). */
void php_gtc_autograd_rinit(void) {
    if (!g_ag.init) return;
    zend_hash_destroy(&g_ag.reg);
    graph_free(g_ag.tape);
    free(g_ag.ent);
    free(g_ag.tparam), free(g_ag.tgrad);
    memset(&g_ag, 0, sizeof g_ag);
}
