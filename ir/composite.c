/* ir/composite.c: the composite ops (softmax, log_softmax, layer_norm, gelu, cross_entropy)
 * written as the primitives they stand for. One decomposition for every front-end: the JSON
 * reader expands a file's composite nodes here, the PHP graph front-end and the eager/traced
 * CudaArray methods call ir_expand_composite too. The planner then fuses the primitives and
 * autodiff differentiates them with its existing rules. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

#define GTC_SQRT1_2 0.70710678118654752440  /* 1/sqrt(2) */
#define GTC_SQRT_2_PI 0.79788456080286535588 /* sqrt(2/pi) */

/* Appends typed nodes; the first failure is kept in err and makes every later call return -1. */
typedef struct {
    Graph *g;
    const char *name, *loc;
    char *err;
    size_t errn;
    bool failed;
    NodeId last;
} Cb;

static NodeId cfail(Cb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static NodeId cfail(Cb *b, const char *fmt, ...) {
    if (!b->failed) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(b->err, b->errn, fmt, ap);
        va_end(ap);
    }
    b->failed = true;
    return -1;
}

static Operand V(NodeId id) { return (Operand){id, 0}; }
static Operand C(double v) { return (Operand){-1, v}; }

/* One primitive node named "name__what" (made unique), typed by ir_infer_op. */
static NodeId node(Cb *b, const char *what, Op op, int n, const Operand *in, const Attrs *a) {
    if (b->failed) return -1; /* every -1 id comes with failed set: none reaches an operand */
    static const Attrs none;
    TensorType t[IR_MAX_INPUTS], out;
    for (int i = 0; i < n; i++) t[i] = graph_operand_type(b->g, &in[i]);
    char err[512];
    if (ir_infer_op(op, t, n, a ? a : &none, &out, err, sizeof err)) return cfail(b, "%s", err);
    char nm[IR_MAX_NAME + 48];
    snprintf(nm, sizeof nm, "%.*s__%s", IR_MAX_NAME - 24, b->name, what);
    size_t base = strlen(nm);
    for (int k = 2; graph_find(b->g, nm) >= 0; k++) snprintf(nm + base, sizeof nm - base, "_%d", k);
    NodeId id = graph_add(b->g, nm, op);
    if (id < 0) return cfail(b, "the graph has more than %d values", IR_MAX_NODES);
    Node *nd = &b->g->nodes[id];
    nd->ninputs = n;
    for (int i = 0; i < n; i++) nd->in[i] = in[i];
    if (a) nd->attrs = *a;
    nd->type = out;
    snprintf(nd->loc, sizeof nd->loc, "%s", b->loc);
    return b->last = id;
}

static NodeId un(Cb *b, const char *w, Op op, Operand x) { return node(b, w, op, 1, &x, NULL); }
static NodeId bin(Cb *b, const char *w, Op op, Operand x, Operand y) {
    Operand in[2] = {x, y};
    return node(b, w, op, 2, in, NULL);
}
static NodeId reduce(Cb *b, const char *w, Op op, NodeId x, int from, int to, bool keep) {
    Attrs a = {.has_axes = true, .keepdims = keep};
    for (int i = from; i < to; i++) a.axes[a.naxes++] = i;
    Operand in = V(x);
    return node(b, w, op, 1, &in, &a);
}

static const TensorType *type_of(Cb *b, NodeId id) { return &b->g->nodes[id].type; }

/* An operand that must be a tensor (a node of g). */
static NodeId tensor(Cb *b, const Operand *o, const char *what) {
    if (b->failed) return -1;
    if (o->id < 0) return cfail(b, "%s must be a tensor, got a constant", what);
    return o->id;
}

/* x as a float tensor: integers and bool become float32, as exp() would make them. */
static NodeId as_float(Cb *b, NodeId x) {
    if (b->failed || ir_dtype_is_float(type_of(b, x)->dtype)) return x;
    Attrs a = {.has_dtype = true, .dtype = DT_FLOAT32};
    Operand in = V(x);
    return node(b, "float", OP_CAST, 1, &in, &a);
}

/* The composite's axis against rank (default def when not given); -1 when out of range. */
static int axis_of(Cb *b, const Attrs *a, int def, int rank, const char *what) {
    if (b->failed) return -1;
    int ax = a->has_axis ? a->axis : def;
    if (rank == 0) return cfail(b, "needs %s of rank 1 or more, got a rank-0 tensor", what), -1;
    if (ax < -rank || ax >= rank) return cfail(b, "axis %d is out of range for rank %d", ax, rank), -1;
    return ax < 0 ? ax + rank : ax;
}

/* x - max (the max stopped: it shifts every element alike, so it has no gradient of its own;
 * this keeps autodiff's result the textbook one rather than one that cancels to ~0). */
static NodeId shifted(Cb *b, NodeId x, int ax) {
    NodeId m = reduce(b, "max", OP_MAX, x, ax, ax + 1, true);
    NodeId ms = un(b, "max_const", OP_STOP_GRADIENT, V(m));
    return bin(b, "shifted", OP_SUB, V(x), V(ms));
}

static NodeId softmax(Cb *b, NodeId x, int ax) {
    NodeId e = un(b, "exp", OP_EXP, V(shifted(b, x, ax)));
    NodeId s = reduce(b, "sum", OP_SUM, e, ax, ax + 1, true);
    return bin(b, "softmax", OP_DIV, V(e), V(s));
}

static NodeId log_softmax(Cb *b, NodeId x, int ax) {
    NodeId d = shifted(b, x, ax);
    NodeId e = un(b, "exp", OP_EXP, V(d));
    NodeId s = reduce(b, "sum", OP_SUM, e, ax, ax + 1, true);
    NodeId l = un(b, "log_sum", OP_LOG, V(s));
    return bin(b, "log_softmax", OP_SUB, V(d), V(l));
}

/* scale or bias: a constant, or a tensor of x's shape from axis ax on (as PyTorch's
 * normalized_shape asks). */
static void check_affine(Cb *b, const Operand *o, const TensorType *x, int ax, const char *what) {
    if (b->failed || o->id < 0) return;
    const TensorType *t = type_of(b, o->id);
    TensorType want = {.rank = x->rank - ax};
    for (int i = ax; i < x->rank; i++) want.dims[i - ax] = x->dims[i];
    if (!ir_shape_equal(t, &want)) {
        char s1[256], s2[256];
        cfail(b, "%s must have shape %s (x's shape from axis %d), got %s", what, ir_shape_str(&want, s1, sizeof s1), ax,
              ir_shape_str(t, s2, sizeof s2));
    }
}

static NodeId layer_norm(Cb *b, const Operand *in, const Attrs *a) {
    NodeId x0 = tensor(b, &in[0], "x");
    if (x0 < 0) return -1;
    int ax = axis_of(b, a, -1, type_of(b, x0)->rank, "x");
    double eps = a->has_epsilon ? a->epsilon : 1e-5;
    if (!b->failed && !(isfinite(eps) && eps >= 0)) return cfail(b, "epsilon must be a finite number >= 0");
    check_affine(b, &in[1], type_of(b, x0), ax, "scale");
    check_affine(b, &in[2], type_of(b, x0), ax, "bias");
    if (b->failed) return -1;
    int rank = type_of(b, x0)->rank;
    NodeId x = as_float(b, x0);
    NodeId mu = reduce(b, "mean", OP_MEAN, x, ax, rank, true);
    NodeId d = bin(b, "centered", OP_SUB, V(x), V(mu));
    NodeId sq = bin(b, "square", OP_MUL, V(d), V(d));
    NodeId var = reduce(b, "var", OP_MEAN, sq, ax, rank, true);
    NodeId ve = bin(b, "var_eps", OP_ADD, V(var), C(eps));
    NodeId r = un(b, "rstd", OP_RSQRT, V(ve));
    NodeId n = bin(b, "normed", OP_MUL, V(d), V(r));
    NodeId sc = bin(b, "scaled", OP_MUL, V(n), in[1]);
    return bin(b, "layer_norm", OP_ADD, V(sc), in[2]);
}

/* gelu: x/2 (1 + erf(x/sqrt 2)), or the tanh form x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) */
static NodeId gelu(Cb *b, NodeId x, bool approx_tanh) {
    NodeId t;
    if (approx_tanh) {
        NodeId x2 = bin(b, "x2", OP_MUL, V(x), V(x));
        NodeId x3 = bin(b, "x3", OP_MUL, V(x2), V(x));
        NodeId c = bin(b, "cubic", OP_MUL, V(x3), C(0.044715));
        NodeId s = bin(b, "inner", OP_ADD, V(x), V(c));
        NodeId k = bin(b, "scaled", OP_MUL, V(s), C(GTC_SQRT_2_PI));
        t = un(b, "tanh", OP_TANH, V(k));
    } else {
        NodeId k = bin(b, "scaled", OP_MUL, V(x), C(GTC_SQRT1_2));
        t = un(b, "erf", OP_ERF, V(k));
    }
    NodeId p = bin(b, "one_plus", OP_ADD, V(t), C(1));
    NodeId h = bin(b, "half", OP_MUL, V(x), C(0.5));
    return bin(b, "gelu", OP_MUL, V(h), V(p));
}

/* cross_entropy: -mean over the other positions of sum_c target_c log_softmax(logits)_c, with
 * class indices as a one-hot target (an index outside [0, C) selects no class: its term is 0). */
static NodeId cross_entropy(Cb *b, const Operand *in, const Attrs *a) {
    NodeId lg = tensor(b, &in[0], "logits"), tg = tensor(b, &in[1], "target");
    if (lg < 0 || tg < 0) return -1;
    const TensorType lt = *type_of(b, lg), tt = *type_of(b, tg);
    int ax = axis_of(b, a, 1, lt.rank, "logits");
    if (ax < 0) return -1;
    char s1[256], s2[256];
    TensorType want = lt;
    NodeId target;
    if (ir_dtype_is_int(tt.dtype)) {
        want.rank = lt.rank - 1;
        for (int i = ax; i < want.rank; i++) want.dims[i] = lt.dims[i + 1];
        if (!ir_shape_equal(&tt, &want))
            return cfail(b, "target (class indices) must have shape %s (logits without axis %d), got %s",
                         ir_shape_str(&want, s1, sizeof s1), ax, ir_shape_str(&tt, s2, sizeof s2));
        NodeId idx = tg;
        if (tt.dtype != DT_INT32 && tt.dtype != DT_INT64) {
            Attrs c = {.has_dtype = true, .dtype = DT_INT64};
            Operand o = V(tg);
            idx = node(b, "classes", OP_CAST, 1, &o, &c);
        }
        DType ft = ir_dtype_is_float(lt.dtype) ? lt.dtype : DT_FLOAT32;
        Attrs oh = {.depth = lt.dims[ax], .has_dtype = true, .dtype = ft};
        Operand o = V(idx);
        target = node(b, "one_hot", OP_ONE_HOT, 1, &o, &oh);
        if (ax != lt.rank - 1 && !b->failed) { /* one_hot's class axis is last: move it to ax */
            Attrs tr = {.nperm = lt.rank};
            for (int i = 0; i < lt.rank; i++) tr.perm[i] = i < ax ? i : i == ax ? lt.rank - 1 : i - 1;
            Operand t = V(target);
            target = node(b, "one_hot_t", OP_TRANSPOSE, 1, &t, &tr);
        }
    } else if (ir_dtype_is_float(tt.dtype)) {
        if (!ir_shape_equal(&tt, &lt))
            return cfail(b, "target (probabilities) must have the shape of logits, %s, got %s",
                         ir_shape_str(&lt, s1, sizeof s1), ir_shape_str(&tt, s2, sizeof s2));
        target = tg;
    } else {
        return cfail(b, "target must be class indices (an integer dtype) or probabilities (float32 or float64), got %s",
                     ir_dtype_name(tt.dtype));
    }
    NodeId lp = log_softmax(b, as_float(b, lg), ax);
    NodeId p = bin(b, "picked", OP_MUL, V(target), V(lp));
    NodeId s = reduce(b, "per_item", OP_SUM, p, ax, ax + 1, false);
    Attrs all = {0};
    Operand so = V(s);
    NodeId m = node(b, "mean", OP_MEAN, 1, &so, &all);
    return un(b, "cross_entropy", OP_NEG, V(m));
}

NodeId ir_expand_composite(Graph *g, Op op, const Operand *in, int nin, const Attrs *a, const char *name,
                           const char *loc, char *err, size_t errn) {
    Cb b = {g, name, loc ? loc : "", err, errn, false, -1};
    if ((unsigned)op >= OP_COUNT || ir_ops[op].kind != K_COMPOSITE)
        return cfail(&b, "internal: %s is not a composite op", (unsigned)op < OP_COUNT ? ir_ops[op].name : "?");
    if (!ir_arity_ok(op, nin, "operand", err, errn)) return -1;
    for (int i = 0; i < nin; i++)
        if (in[i].id >= g->nnodes) return cfail(&b, "internal: operand %d is not in the graph", i);
    NodeId first = g->nnodes, x, r = -1;
    switch (op) {
    case OP_SOFTMAX: case OP_LOG_SOFTMAX:
        if ((x = tensor(&b, &in[0], "x")) < 0) break;
        {
            int ax = axis_of(&b, a, -1, type_of(&b, x)->rank, "x");
            if (ax < 0) break;
            x = as_float(&b, x);
            r = op == OP_SOFTMAX ? softmax(&b, x, ax) : log_softmax(&b, x, ax);
        }
        break;
    case OP_LAYER_NORM: r = layer_norm(&b, in, a); break;
    case OP_GELU:
        if ((x = tensor(&b, &in[0], "x")) >= 0) r = gelu(&b, as_float(&b, x), a->approx_tanh);
        break;
    case OP_CROSS_ENTROPY: r = cross_entropy(&b, in, a); break;
    default: cfail(&b, "internal: no expansion for %s", ir_ops[op].name);
    }
    if (b.failed || r < 0) {
        /* nothing half-built is left behind */
        for (NodeId i = g->nnodes - 1; i >= first; i--) free(g->nodes[i].name);
        g->nnodes = first;
        if (!b.failed) cfail(&b, "internal: %s expanded to nothing", ir_ops[op].name);
        return -1;
    }
    if (graph_find(g, name) >= 0) {
        for (NodeId i = g->nnodes - 1; i >= first; i--) free(g->nodes[i].name);
        g->nnodes = first;
        return cfail(&b, "name \"%s\" is already defined", name);
    }
    char *nm = strdup(name);
    if (!nm) abort();
    free(g->nodes[r].name);
    g->nodes[r].name = nm;
    return r;
}

/* Rebuilds the graph node by node: primitives are copied (operands renumbered) and typed, each
 * composite becomes its primitives, its last node keeping the composite's name. */
int ir_expand_composites(Graph **gp, Diag *d) {
    Graph *g = *gp;
    bool any = false;
    for (int i = 0; i < g->nnodes && !any; i++) any = ir_ops[g->nodes[i].op].kind == K_COMPOSITE;
    if (!any) return 0;
    Graph *h = graph_new(g->name);
    h->ninputs = g->ninputs;
    NodeId *map = malloc(((size_t)g->nnodes + 1) * sizeof *map);
    if (!map) abort();
    int rc = 0;
    for (NodeId i = 0; i < g->nnodes && !rc; i++) {
        const Node *n = &g->nodes[i];
        Operand in[IR_MAX_INPUTS];
        for (int k = 0; k < n->ninputs; k++) in[k] = n->in[k].id >= 0 ? V(map[n->in[k].id]) : n->in[k];
        if (ir_ops[n->op].kind == K_COMPOSITE) {
            char err[512];
            if (!ir_arity_ok(n->op, n->ninputs, "input", err, sizeof err)) { /* a file's words */
                diag_node(d, n, "%s", err), rc = -1;
                continue;
            }
            map[i] = ir_expand_composite(h, n->op, in, n->ninputs, &n->attrs, n->name, n->loc, err, sizeof err);
            if (map[i] < 0) diag_node(d, n, "%s", err), rc = -1;
            continue;
        }
        NodeId id = graph_add(h, n->name, n->op);
        if (id < 0) {
            diag_at(d, "nodes", "graph has more than %d values", IR_MAX_NODES);
            rc = -1;
            break;
        }
        Node *m = &h->nodes[id];
        char *nm = m->name;
        *m = *n;
        m->name = nm;
        memcpy(m->in, in, (size_t)n->ninputs * sizeof *in);
        map[i] = id;
        rc = ir_verify_node(h, id, d);
    }
    free(map);
    if (rc) {
        graph_free(h);
        return -1;
    }
    graph_free(g);
    *gp = h;
    return 0;
}
