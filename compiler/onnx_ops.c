/* compiler/onnx_ops.c: each supported ONNX operator (opset 13 on) as IR nodes, one table row per
 * operator (docs/onnx.md lists them). Composites (conv2d, the pools, softmax, layer_norm, gelu)
 * go through ir_expand_composite, so their attribute checks and messages are the JSON graphs'.
 * Values known while importing (Constant, Shape, their integer arithmetic) are folded first, by
 * onnx_fold.c, so Reshape, Slice, Squeeze and friends get their static operands. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "onnx_import.h"

typedef int (*Lower)(Ox *x, Op op);

/* ---- operands ----------------------------------------------------------------------------------- */

int ox_nin(Ox *x) { return (int)x->node->n_input; }

/* Input k's value; NULL when omitted (and *failed set when it names nothing). */
OxValue *ox_input(Ox *x, int k, bool *failed) {
    if (k >= ox_nin(x)) return NULL;
    return ox_value(x, x->node->input[k], failed);
}

/* Input k read as data (required). */
static int data(Ox *x, int k, Operand *o) {
    bool failed = false;
    OxValue *v = ox_input(x, k, &failed);
    if (failed) return -1;
    if (!v) return ox_fail(x, "needs input %d", k);
    return ox_operand(x, v, o);
}

TensorType ox_vtype(Ox *x, const OxValue *v) {
    if (v->id >= 0) return x->g->nodes[v->id].type;
    TensorType t = {.dtype = v->c->dtype, .rank = v->c->rank};
    memcpy(t.dims, v->c->dims, sizeof t.dims);
    return t;
}

/* Input k's integer value, which must be known while importing (an initializer, a Constant, a
 * Shape ...): at most max entries, into out (*n: the count; -1 when the input is omitted). */
int ox_static_ints(Ox *x, int k, const char *what, int64_t *out, int max, int *n) {
    bool failed = false;
    OxValue *v = ox_input(x, k, &failed);
    if (failed) return -1;
    if (!v) return *n = -1, 0;
    if (!v->c) return ox_fail(x, "input %d (%s) must be a constant (an initializer or a Constant node); it is computed at run time", k, what);
    if (!v->c->iv) return ox_fail(x, "input %d (%s) must be an integer tensor, got %s", k, what, ir_dtype_name(v->c->dtype));
    if (v->c->rank > 1) return ox_fail(x, "input %d (%s) must have rank 0 or 1, got %d", k, what, v->c->rank);
    if (v->c->numel > max) return ox_fail(x, "input %d (%s) has %lld entries (at most %d)", k, what, (long long)v->c->numel, max);
    memcpy(out, v->c->iv, (size_t)v->c->numel * sizeof *out);
    *n = (int)v->c->numel;
    return 0;
}

/* A float input known while importing, or NULL (Clip's bounds, Dropout's ratio). */
static int static_scalar(Ox *x, int k, bool *have, double *val) {
    bool failed = false;
    OxValue *v = ox_input(x, k, &failed);
    *have = false;
    if (failed) return -1;
    if (!v || !v->c || v->is_init || v->c->numel != 1) return 0;
    *have = true, *val = v->c->v[0];
    return 0;
}

/* Axis a (negative from the end) against rank r. */
static int norm_axis(Ox *x, int64_t a, int r, const char *what, int *out) {
    *out = 0;
    if (a < -r || a >= r) return ox_fail(x, "%s %lld is out of range for rank %d", what, (long long)a, r);
    *out = (int)(a < 0 ? a + r : a);
    return 0;
}

static NodeId reshape(Ox *x, Operand o, int rank, const int64_t *dims) {
    Attrs a = {.nshape = rank};
    memcpy(a.shape, dims, (size_t)rank * sizeof *dims);
    return ox_add(x, OP_RESHAPE, 1, &o, &a);
}

/* Only the first output may be read (second outputs such as MaxPool's indices are refused). */
int ox_only_first_output(Ox *x) {
    for (size_t k = 1; k < x->node->n_output; k++)
        if (x->node->output[k] && *x->node->output[k])
            return ox_fail(x, "output %zu (\"%.60s\") is not supported; only the first output may be used", k, x->node->output[k]);
    return 0;
}

static int done(Ox *x, NodeId id) { return id < 0 ? -1 : ox_set(x, 0, id); }

/* Attributes the importer does not read are refused, so none is silently ignored. */
int ox_attrs_known(Ox *x, const char *const *known) {
    for (size_t i = 0; i < x->node->n_attribute; i++) {
        const char *nm = x->node->attribute[i]->name ? x->node->attribute[i]->name : "";
        bool ok = false;
        for (const char *const *k = known; *k && !ok; k++) ok = strcmp(*k, nm) == 0;
        if (!ok) return ox_fail(x, "attribute \"%.60s\" is not supported", nm);
    }
    return 0;
}

/* ---- elementwise -------------------------------------------------------------------------------- */

static int l_unary(Ox *x, Op op) {
    NO_ATTRS();
    Operand a;
    if (data(x, 0, &a)) return -1;
    return done(x, ox_add(x, op, 1, &a, NULL));
}

static int l_binary(Ox *x, Op op) {
    NO_ATTRS();
    Operand a, b;
    if (data(x, 0, &a) || data(x, 1, &b)) return -1;
    if (op == OP_DIV && !ir_dtype_is_float(ox_type(x, a).dtype) && !ir_dtype_is_float(ox_type(x, b).dtype))
        return ox_fail(x, "integer Div (truncating) is not supported; Cast to float first");
    return done(x, ox_add(x, op, 2, (Operand[]){a, b}, NULL));
}

/* Max, Min (variadic) and Sum */
static int l_variadic(Ox *x, Op op) {
    NO_ATTRS();
    Operand acc;
    if (ox_nin(x) < 1) return ox_fail(x, "needs at least one input");
    if (data(x, 0, &acc)) return -1;
    if (ox_nin(x) == 1) return done(x, ox_add(x, OP_MUL, 2, (Operand[]){acc, {-1, 1}}, NULL));
    for (int k = 1; k < ox_nin(x); k++) {
        Operand b;
        if (data(x, k, &b)) return -1;
        NodeId r = ox_add(x, op, 2, (Operand[]){acc, b}, NULL);
        if (r < 0) return -1;
        acc = (Operand){r, 0};
    }
    return done(x, acc.id);
}

static int l_reciprocal(Ox *x, Op op) {
    (void)op;
    NO_ATTRS();
    Operand a;
    if (data(x, 0, &a)) return -1;
    return done(x, ox_add(x, OP_DIV, 2, (Operand[]){{-1, 1}, a}, NULL));
}

static int l_where(Ox *x, Op op) {
    NO_ATTRS();
    Operand c, a, b;
    if (data(x, 0, &c) || data(x, 1, &a) || data(x, 2, &b)) return -1;
    return done(x, ox_add(x, op, 3, (Operand[]){c, a, b}, NULL));
}

static int l_clip(Ox *x, Op op) {
    (void)op;
    NO_ATTRS();
    Operand a, r;
    if (data(x, 0, &a)) return -1;
    r = a;
    for (int k = 1; k <= 2; k++) {
        bool failed = false;
        OxValue *v = ox_input(x, k, &failed);
        if (failed) return -1;
        if (!v) continue;
        Operand b;
        if (ox_operand(x, v, &b)) return -1;
        NodeId id = ox_add(x, k == 1 ? OP_MAXIMUM : OP_MINIMUM, 2, (Operand[]){r, b}, NULL);
        if (id < 0) return -1;
        r = (Operand){id, 0};
    }
    if (r.id == a.id) return ox_set(x, 0, a.id);
    return done(x, r.id);
}

static int l_cast(Ox *x, Op op) {
    KNOWN("to", "saturate");
    int64_t to;
    Operand a;
    if (ox_attr_int(x, "to", -1, &to) || data(x, 0, &a)) return -1;
    static const struct { int onnx; DType dt; } m[] = {{1, DT_FLOAT32}, {2, DT_UINT8}, {3, DT_INT8}, {4, DT_UINT16}, {5, DT_INT16},
                                                       {6, DT_INT32}, {7, DT_INT64}, {9, DT_BOOL}, {11, DT_FLOAT64},
                                                       {12, DT_UINT32}, {13, DT_UINT64}};
    for (size_t i = 0; i < sizeof m / sizeof *m; i++)
        if (m[i].onnx == to) {
            Attrs at = {.has_dtype = true, .dtype = m[i].dt};
            return done(x, ox_add(x, op, 1, &a, &at));
        }
    return ox_fail(x, "Cast to data type %lld is not supported", (long long)to);
}

static int l_identity(Ox *x, Op op) {
    (void)op;
    bool failed = false;
    OxValue *v = ox_input(x, 0, &failed);
    if (failed) return -1;
    if (!v) return ox_fail(x, "needs input 0");
    Operand a;
    if (ox_operand(x, v, &a)) return -1;
    if (a.id < 0) a.id = ox_add(x, OP_FULL, 0, NULL, &(Attrs){.has_dtype = true, .dtype = v->c->dtype, .value = a.value});
    return a.id < 0 ? -1 : ox_set(x, 0, a.id);
}

/* Dropout in inference: the identity (training_mode must be absent or a constant false). */
static int l_dropout(Ox *x, Op op) {
    KNOWN("seed");
    if (ox_only_first_output(x)) return -1;
    bool have;
    double t;
    if (ox_nin(x) > 2 && *x->node->input[2]) {
        if (static_scalar(x, 2, &have, &t)) return -1;
        if (!have || t != 0)
            return ox_fail(x, "training_mode must be a constant false: gtc imports Dropout for inference (fine-tuning adds "
                              "no dropout)");
    }
    return l_identity(x, op);
}

static int l_gelu(Ox *x, Op op) {
    KNOWN("approximate");
    char ap[16];
    Operand a;
    if (ox_attr_string(x, "approximate", "none", ap, sizeof ap) || data(x, 0, &a)) return -1;
    if (strcmp(ap, "none") != 0 && strcmp(ap, "tanh") != 0)
        return ox_fail(x, "attribute \"approximate\" must be \"none\" or \"tanh\", got \"%.20s\"", ap);
    Attrs at = {.approx_tanh = ap[0] == 't'};
    return done(x, ox_composite(x, op, 1, &a, &at));
}

/* ---- matrix products ---------------------------------------------------------------------------- */

static int l_matmul(Ox *x, Op op) {
    NO_ATTRS();
    Operand a, b;
    if (data(x, 0, &a) || data(x, 1, &b)) return -1;
    return done(x, ox_add(x, op, 2, (Operand[]){a, b}, NULL));
}

/* Gemm: alpha * A' B' + beta * C, A' and B' transposed on request. */
static int l_gemm(Ox *x, Op op) {
    (void)op;
    KNOWN("alpha", "beta", "transA", "transB");
    double alpha, beta;
    int64_t ta, tb;
    Operand a, b;
    if (ox_attr_float(x, "alpha", 1, &alpha) || ox_attr_float(x, "beta", 1, &beta) || ox_attr_int(x, "transA", 0, &ta) ||
        ox_attr_int(x, "transB", 0, &tb) || data(x, 0, &a) || data(x, 1, &b))
        return -1;
    if (ox_type(x, a).rank != 2 || ox_type(x, b).rank != 2) return ox_fail(x, "A and B must be matrices (rank 2)");
    Attrs tr = {0}; /* nperm 0: reversed, the matrix transpose */
    if (ta && (a.id = ox_add(x, OP_TRANSPOSE, 1, &a, &tr)) < 0) return -1;
    if (tb && (b.id = ox_add(x, OP_TRANSPOSE, 1, &b, &tr)) < 0) return -1;
    NodeId y = ox_add(x, OP_MATMUL, 2, (Operand[]){a, b}, NULL);
    if (y >= 0 && alpha != 1) y = ox_add(x, OP_MUL, 2, (Operand[]){{y, 0}, {-1, alpha}}, NULL);
    bool failed = false;
    OxValue *cv = ox_input(x, 2, &failed);
    if (failed || y < 0) return -1;
    if (cv && beta != 0) {
        Operand c;
        if (ox_operand(x, cv, &c)) return -1;
        if (beta != 1 && (c.id = ox_add(x, OP_MUL, 2, (Operand[]){c, {-1, beta}}, NULL)) < 0) return -1;
        y = ox_add(x, OP_ADD, 2, (Operand[]){{y, 0}, c}, NULL);
    }
    return done(x, y);
}

/* ---- normalisations and activations over an axis ----------------------------------------------- */

static int l_softmax(Ox *x, Op op) {
    KNOWN("axis");
    int64_t ax;
    Operand a;
    if (ox_attr_int(x, "axis", -1, &ax) || data(x, 0, &a)) return -1;
    Attrs at = {.has_axis = true, .axis = (int)ax};
    if (ax < -IR_MAX_RANK || ax >= IR_MAX_RANK) return ox_fail(x, "axis %lld is out of range", (long long)ax);
    return done(x, ox_composite(x, op, 1, &a, &at));
}

static int l_layer_norm(Ox *x, Op op) {
    KNOWN("axis", "epsilon", "stash_type");
    if (ox_only_first_output(x)) return -1;
    int64_t ax;
    double eps;
    Operand in[3];
    if (ox_attr_int(x, "axis", -1, &ax) || ox_attr_float(x, "epsilon", 1e-5, &eps) || data(x, 0, &in[0]) || data(x, 1, &in[1]))
        return -1;
    if (ax < -IR_MAX_RANK || ax >= IR_MAX_RANK) return ox_fail(x, "axis %lld is out of range", (long long)ax);
    bool failed = false;
    OxValue *bv = ox_input(x, 2, &failed);
    if (failed) return -1;
    in[2] = (Operand){-1, 0};
    if (bv && ox_operand(x, bv, &in[2])) return -1;
    Attrs at = {.has_axis = true, .axis = (int)ax, .has_epsilon = true, .epsilon = eps};
    return done(x, ox_composite(x, op, 3, in, &at));
}

/* BatchNormalization (inference): (x - mean) * (scale / sqrt(var + eps)) + B per channel (axis 1).
 * mean and var are inputs the optimizer never updates (no_train). */
static int l_batch_norm(Ox *x, Op op) {
    (void)op;
    KNOWN("epsilon", "momentum", "training_mode");
    if (ox_only_first_output(x)) return -1;
    int64_t tm;
    double eps;
    if (ox_attr_int(x, "training_mode", 0, &tm) || ox_attr_float(x, "epsilon", 1e-5, &eps)) return -1;
    if (tm) return ox_fail(x, "training_mode=1 is not supported: gtc imports BatchNormalization for inference");
    Operand xx, p[4];
    if (data(x, 0, &xx)) return -1;
    for (int k = 1; k <= 4; k++) {
        bool failed = false;
        OxValue *v = ox_input(x, k, &failed);
        if (failed) return -1;
        if (!v) return ox_fail(x, "needs input %d", k);
        if (k >= 3) v->no_train = true;
        if (ox_operand(x, v, &p[k - 1])) return -1;
    }
    TensorType t = ox_type(x, xx);
    if (t.rank < 2) return ox_fail(x, "X must have rank 2 or more ([N, C, ...]), got %d", t.rank);
    int64_t dims[IR_MAX_RANK] = {t.dims[1]};
    for (int i = 1; i < t.rank - 1; i++) dims[i] = 1;
    for (int k = 0; k < 4; k++) {
        TensorType pt = ox_type(x, p[k]);
        if (p[k].id >= 0 && (pt.rank != 1 || pt.dims[0] != t.dims[1]))
            return ox_fail(x, "input %d must have shape [%lld] (X's channels)", k + 1, (long long)t.dims[1]);
        if (p[k].id >= 0 && (p[k].id = reshape(x, p[k], t.rank - 1, dims)) < 0) return -1;
    }
    NodeId ve = ox_add(x, OP_ADD, 2, (Operand[]){p[3], {-1, eps}}, NULL);
    NodeId rs = ve < 0 ? -1 : ox_add(x, OP_RSQRT, 1, &(Operand){ve, 0}, NULL);
    NodeId k = rs < 0 ? -1 : ox_add(x, OP_MUL, 2, (Operand[]){{rs, 0}, p[0]}, NULL);
    NodeId c = k < 0 ? -1 : ox_add(x, OP_SUB, 2, (Operand[]){xx, p[2]}, NULL);
    NodeId s = c < 0 ? -1 : ox_add(x, OP_MUL, 2, (Operand[]){{c, 0}, {k, 0}}, NULL);
    return done(x, s < 0 ? -1 : ox_add(x, OP_ADD, 2, (Operand[]){{s, 0}, p[1]}, NULL));
}

/* ---- convolution and pooling -------------------------------------------------------------------- */

/* pads, strides, dilations and auto_pad for a 2-D window over x (kernel k), into a. */
static int window(Ox *x, const TensorType *xt, const int64_t k[2], Attrs *a, bool dilations) {
    int n;
    int64_t v[8];
    char ap[32];
    if (xt->rank != 4) return ox_fail(x, "only 2-D windows are supported: X must have rank 4 (N, C, H, W), got rank %d", xt->rank);
    if (ox_attr_ints(x, "strides", v, 2, &n)) return -1;
    if (n >= 0 && n != 2) return ox_fail(x, "attribute \"strides\" must have 2 entries, got %d", n);
    if (n == 2) a->nstrides = 2, a->strides[0] = v[0], a->strides[1] = v[1];
    if (ox_attr_ints(x, "dilations", v, 2, &n)) return -1;
    if (n >= 0 && n != 2) return ox_fail(x, "attribute \"dilations\" must have 2 entries, got %d", n);
    if (n == 2 && (v[0] != 1 || v[1] != 1)) {
        if (!dilations) return ox_fail(x, "dilations other than 1 are not supported for pooling");
        a->ndilations = 2, a->dilations[0] = v[0], a->dilations[1] = v[1];
    }
    if (ox_attr_ints(x, "pads", v, 8, &n)) return -1;
    if (n >= 0 && n != 4) return ox_fail(x, "attribute \"pads\" must have 4 entries, got %d", n);
    if (n == 4) a->npads = 4, memcpy(a->pads, v, 4 * sizeof *v);
    if (ox_attr_string(x, "auto_pad", "NOTSET", ap, sizeof ap)) return -1;
    if (!strcmp(ap, "SAME_UPPER") || !strcmp(ap, "SAME_LOWER")) {
        if (a->npads) return ox_fail(x, "auto_pad %s and pads are both given", ap);
        a->npads = 4;
        for (int i = 0; i < 2; i++) {
            int64_t s = a->nstrides ? a->strides[i] : 1, d = a->ndilations ? a->dilations[i] : 1, in = xt->dims[2 + i];
            if (s < 1 || s >= IR_MAX_DIM || d < 1 || d >= IR_MAX_DIM || k[i] < 1 || k[i] >= IR_MAX_DIM)
                return ox_fail(x, "strides, dilations and the kernel must be positive");
            int64_t out = (in + s - 1) / s, need = (out - 1) * s + (k[i] - 1) * d + 1 - in;
            if (need < 0) need = 0;
            int64_t lo = ap[5] == 'U' ? need / 2 : need - need / 2;
            a->pads[i] = lo, a->pads[2 + i] = need - lo;
        }
    } else if (strcmp(ap, "NOTSET") != 0 && strcmp(ap, "VALID") != 0) {
        return ox_fail(x, "auto_pad \"%.20s\" is not supported (NOTSET, VALID, SAME_UPPER or SAME_LOWER)", ap);
    }
    return 0;
}

static int l_conv(Ox *x, Op op) {
    KNOWN("auto_pad", "dilations", "group", "kernel_shape", "pads", "strides");
    Operand in[3];
    int n = 2;
    if (data(x, 0, &in[0]) || data(x, 1, &in[1])) return -1;
    bool failed = false;
    OxValue *bv = ox_input(x, 2, &failed);
    if (failed || (bv && ox_operand(x, bv, &in[n++]))) return -1;
    TensorType xt = ox_type(x, in[0]), wt = ox_type(x, in[1]);
    if (wt.rank != 4) return ox_fail(x, "only 2-D convolutions are supported: W must have rank 4, got %d", wt.rank);
    int64_t ks[2], g;
    int nk;
    if (ox_attr_ints(x, "kernel_shape", ks, 2, &nk) || ox_attr_int(x, "group", 1, &g)) return -1;
    if (nk >= 0 && (nk != 2 || ks[0] != wt.dims[2] || ks[1] != wt.dims[3]))
        return ox_fail(x, "kernel_shape does not match W's spatial dimensions");
    Attrs a = {.group = g};
    if (window(x, &xt, &wt.dims[2], &a, true)) return -1;
    return done(x, ox_composite(x, op, n, in, &a));
}

static int l_pool(Ox *x, Op op) {
    if (op == OP_MAX_POOL2D) KNOWN("auto_pad", "ceil_mode", "dilations", "kernel_shape", "pads", "storage_order", "strides");
    else KNOWN("auto_pad", "ceil_mode", "count_include_pad", "dilations", "kernel_shape", "pads", "strides");
    if (ox_only_first_output(x)) return -1;
    Operand a;
    if (data(x, 0, &a)) return -1;
    int64_t cm, cip, so;
    int nk;
    Attrs at = {0};
    if (ox_attr_int(x, "ceil_mode", 0, &cm) || ox_attr_int(x, "count_include_pad", 0, &cip) ||
        ox_attr_int(x, "storage_order", 0, &so) || ox_attr_ints(x, "kernel_shape", at.kernel, 2, &nk))
        return -1;
    if (cm) return ox_fail(x, "ceil_mode=1 is not supported");
    if (so) return ox_fail(x, "storage_order=1 is not supported");
    if (nk != 2) return ox_fail(x, "attribute \"kernel_shape\" must have 2 entries (a 2-D pool)");
    at.nkernel = 2;
    at.count_include_pad = cip != 0;
    TensorType xt = ox_type(x, a);
    if (window(x, &xt, at.kernel, &at, false)) return -1;
    return done(x, ox_composite(x, op, 1, &a, &at));
}

/* GlobalAveragePool / GlobalMaxPool: the mean or max over every axis after the channels. */
static int l_global_pool(Ox *x, Op op) {
    NO_ATTRS();
    Operand a;
    if (data(x, 0, &a)) return -1;
    TensorType t = ox_type(x, a);
    if (t.rank < 3) return ox_fail(x, "X must have rank 3 or more (N, C, ...), got %d", t.rank);
    Attrs at = {.has_axes = true, .keepdims = true, .naxes = t.rank - 2};
    for (int i = 2; i < t.rank; i++) at.axes[i - 2] = i;
    return done(x, ox_add(x, op, 1, &a, &at));
}

/* ---- reductions --------------------------------------------------------------------------------- */

static int l_reduce(Ox *x, Op op) {
    KNOWN("axes", "keepdims", "noop_with_empty_axes");
    int64_t keep, noop, axes[IR_MAX_RANK];
    int n;
    Operand a;
    if (ox_attr_int(x, "keepdims", 1, &keep) || ox_attr_int(x, "noop_with_empty_axes", 0, &noop) || data(x, 0, &a)) return -1;
    if (ox_attr(x, "axes")) {
        if (ox_attr_ints(x, "axes", axes, IR_MAX_RANK, &n)) return -1;
    } else if (ox_static_ints(x, 1, "axes", axes, IR_MAX_RANK, &n)) {
        return -1;
    }
    if (n <= 0 && noop) return l_identity(x, op);
    Attrs at = {.keepdims = keep != 0, .has_axes = n > 0, .naxes = n > 0 ? n : 0};
    int r = ox_type(x, a).rank;
    for (int i = 0; i < at.naxes; i++)
        if (norm_axis(x, axes[i], r, "axis", &at.axes[i])) return -1;
    return done(x, ox_add(x, op, 1, &a, &at));
}

/* ---- shapes and views --------------------------------------------------------------------------- */

static int l_flatten(Ox *x, Op op) {
    (void)op;
    KNOWN("axis");
    int64_t ax;
    Operand a;
    if (ox_attr_int(x, "axis", 1, &ax) || data(x, 0, &a)) return -1;
    TensorType t = ox_type(x, a);
    if (ax < -t.rank || ax > t.rank) return ox_fail(x, "axis %lld is out of range for rank %d", (long long)ax, t.rank);
    if (ax < 0) ax += t.rank;
    int64_t d[2] = {1, 1};
    for (int i = 0; i < t.rank; i++) d[i >= ax] *= t.dims[i];
    return done(x, reshape(x, a, 2, d));
}

/* Reshape's target: 0 copies the input's dimension (unless allowzero), one -1 is inferred. */
int ox_reshape_target(Ox *x, const TensorType *t, int64_t *s, int n, bool allowzero) {
    for (int i = 0; i < n; i++) {
        if (s[i] == 0 && !allowzero) {
            if (i >= t->rank) return ox_fail(x, "shape[%d] is 0 (copy) but the input has rank %d", i, t->rank);
            s[i] = t->dims[i];
        } else if (s[i] < -1 || s[i] >= IR_MAX_DIM) {
            return ox_fail(x, "shape[%d] is %lld", i, (long long)s[i]);
        }
    }
    return 0;
}

static int l_reshape(Ox *x, Op op) {
    (void)op;
    KNOWN("allowzero");
    int64_t az, s[IR_MAX_RANK];
    int n;
    Operand a;
    if (ox_attr_int(x, "allowzero", 0, &az) || data(x, 0, &a) || ox_static_ints(x, 1, "shape", s, IR_MAX_RANK, &n)) return -1;
    if (n < 0) return ox_fail(x, "needs input 1 (shape)");
    TensorType t = ox_type(x, a);
    if (ox_reshape_target(x, &t, s, n, az != 0)) return -1;
    return done(x, reshape(x, a, n, s));
}

static int l_transpose(Ox *x, Op op) {
    KNOWN("perm");
    int64_t p[IR_MAX_RANK];
    int n;
    Operand a;
    if (ox_attr_ints(x, "perm", p, IR_MAX_RANK, &n) || data(x, 0, &a)) return -1;
    Attrs at = {.nperm = n > 0 ? n : 0};
    for (int i = 0; i < at.nperm; i++) at.perm[i] = (int)(p[i] < -IR_MAX_RANK || p[i] > IR_MAX_RANK ? IR_MAX_RANK : p[i]);
    return done(x, ox_add(x, op, 1, &a, &at));
}

/* The result shape of Squeeze / Unsqueeze (ir/select.c's squeeze and unsqueeze rules). */
int ox_squeeze_shape(Ox *x, bool un, const TensorType *t, const int64_t *ax, int n, int64_t *out, int *rank) {
    char err[256];
    if (!un) {
        int r = ir_squeeze_shape(t->rank, t->dims, n >= 0 ? ax : NULL, n >= 0 ? n : 0, out, err, sizeof err);
        if (r < 0) return ox_fail(x, "%s", err);
        return *rank = r, 0;
    }
    if (n < 0) return ox_fail(x, "needs input 1 (axes)");
    int r = t->rank + n;
    if (r > IR_MAX_RANK) return ox_fail(x, "the result would have rank %d (at most %d)", r, IR_MAX_RANK);
    bool at[IR_MAX_RANK] = {false};
    for (int i = 0; i < n; i++) {
        int a;
        if (norm_axis(x, ax[i], r, "axis", &a)) return -1;
        if (at[a]) return ox_fail(x, "axis %lld is repeated", (long long)ax[i]);
        at[a] = true;
    }
    for (int i = 0, k = 0; i < r; i++) out[i] = at[i] ? 1 : t->dims[k++];
    return *rank = r, 0;
}

/* Squeeze and Unsqueeze (axes from input 1, opset 13): a reshape. */
static int squeeze_common(Ox *x, bool un) {
    NO_ATTRS();
    int64_t ax[IR_MAX_RANK], s[IR_MAX_RANK];
    int n, r;
    Operand a;
    if (data(x, 0, &a) || ox_static_ints(x, 1, "axes", ax, IR_MAX_RANK, &n)) return -1;
    TensorType t = ox_type(x, a);
    if (ox_squeeze_shape(x, un, &t, ax, n, s, &r)) return -1;
    return done(x, reshape(x, a, r, s));
}

static int l_squeeze(Ox *x, Op op) { return (void)op, squeeze_common(x, false); }
static int l_unsqueeze(Ox *x, Op op) { return (void)op, squeeze_common(x, true); }

static int l_concat(Ox *x, Op op) {
    KNOWN("axis");
    int64_t ax;
    if (ox_attr_int(x, "axis", 0, &ax)) return -1;
    if (ox_nin(x) < 1 || ox_nin(x) > IR_MAX_INPUTS) return ox_fail(x, "takes 1 to %d inputs, got %d", IR_MAX_INPUTS, ox_nin(x));
    Operand in[IR_MAX_INPUTS];
    for (int k = 0; k < ox_nin(x); k++)
        if (data(x, k, &in[k])) return -1;
    if (ax < -IR_MAX_RANK || ax >= IR_MAX_RANK) return ox_fail(x, "axis %lld is out of range", (long long)ax);
    Attrs at = {.has_axis = true, .axis = (int)ax};
    return done(x, ox_add(x, op, ox_nin(x), in, &at));
}

static int l_gather(Ox *x, Op op) {
    KNOWN("axis");
    int64_t ax;
    Operand a, idx;
    if (ox_attr_int(x, "axis", 0, &ax) || data(x, 0, &a)) return -1;
    bool failed = false;
    OxValue *iv = ox_input(x, 1, &failed);
    if (failed) return -1;
    if (!iv) return ox_fail(x, "needs input 1 (indices)");
    TensorType t = ox_type(x, a);
    int axn;
    if (norm_axis(x, ax, t.rank, "axis", &axn)) return -1;
    if (iv->c && iv->c->iv) { /* known indices: negative ones count from the end, as in ONNX */
        for (int64_t i = 0; i < iv->c->numel; i++) {
            int64_t k = iv->c->iv[i];
            if (k < -t.dims[axn] || k >= t.dims[axn])
                return ox_fail(x, "index %lld is out of range for axis %d of size %lld", (long long)k, axn, (long long)t.dims[axn]);
            if (k < 0) iv->c->iv[i] = k + t.dims[axn], iv->c->v[i] = (double)iv->c->iv[i];
        }
    }
    if (ox_operand(x, iv, &idx)) return -1;
    if (idx.id < 0) { /* a rank-0 index: a rank-0 tensor, so the axis is dropped */
        Attrs f = {.has_dtype = true, .dtype = DT_INT64, .value = idx.value};
        if ((idx.id = ox_add(x, OP_FULL, 0, NULL, &f)) < 0) return -1;
    }
    Attrs at = {.has_axis = true, .axis = axn};
    return done(x, ox_add(x, op, 2, (Operand[]){a, idx}, &at));
}

static int l_slice(Ox *x, Op op) {
    NO_ATTRS();
    Operand a;
    int64_t st[IR_MAX_RANK], en[IR_MAX_RANK], ax[IR_MAX_RANK], sp[IR_MAX_RANK];
    int ns, ne, na, np;
    if (data(x, 0, &a) || ox_static_ints(x, 1, "starts", st, IR_MAX_RANK, &ns) || ox_static_ints(x, 2, "ends", en, IR_MAX_RANK, &ne) ||
        ox_static_ints(x, 3, "axes", ax, IR_MAX_RANK, &na) || ox_static_ints(x, 4, "steps", sp, IR_MAX_RANK, &np))
        return -1;
    if (ns < 0 || ne < 0) return ox_fail(x, "needs inputs 1 (starts) and 2 (ends)");
    if (ne != ns || (na >= 0 && na != ns) || (np >= 0 && np != ns))
        return ox_fail(x, "starts, ends, axes and steps must have the same length");
    Attrs at = {.nslice = ns, .has_axes = na >= 0, .naxes = na > 0 ? na : 0, .has_steps = np >= 0};
    int r = ox_type(x, a).rank;
    for (int i = 0; i < ns; i++) {
        at.starts[i] = ox_clamp_bound(st[i]), at.ends[i] = ox_clamp_bound(en[i]);
        if (np >= 0) at.steps[i] = ox_clamp_bound(sp[i]);
        if (na >= 0 && norm_axis(x, ax[i], r, "axis", &at.axes[i])) return -1;
    }
    return done(x, ox_add(x, op, 1, &a, &at));
}

/* ---- the table ---------------------------------------------------------------------------------- */

static const struct {
    const char *name;
    Lower fn;
    Op op;
} table[] = {
    {"Add", l_binary, OP_ADD}, {"Sub", l_binary, OP_SUB}, {"Mul", l_binary, OP_MUL}, {"Div", l_binary, OP_DIV},
    {"Pow", l_binary, OP_POW}, {"Equal", l_binary, OP_EQ}, {"Less", l_binary, OP_LT}, {"LessOrEqual", l_binary, OP_LE},
    {"Greater", l_binary, OP_GT}, {"GreaterOrEqual", l_binary, OP_GE},
    {"Max", l_variadic, OP_MAXIMUM}, {"Min", l_variadic, OP_MINIMUM}, {"Sum", l_variadic, OP_ADD},
    {"Sqrt", l_unary, OP_SQRT}, {"Exp", l_unary, OP_EXP}, {"Log", l_unary, OP_LOG}, {"Relu", l_unary, OP_RELU},
    {"Sigmoid", l_unary, OP_SIGMOID}, {"Tanh", l_unary, OP_TANH}, {"Erf", l_unary, OP_ERF}, {"Neg", l_unary, OP_NEG},
    {"Abs", l_unary, OP_ABS}, {"Floor", l_unary, OP_FLOOR}, {"Ceil", l_unary, OP_CEIL}, {"Sin", l_unary, OP_SIN},
    {"Cos", l_unary, OP_COS}, {"Reciprocal", l_reciprocal, OP_DIV},
    {"Gelu", l_gelu, OP_GELU}, {"Softmax", l_softmax, OP_SOFTMAX}, {"LogSoftmax", l_softmax, OP_LOG_SOFTMAX},
    {"Where", l_where, OP_WHERE}, {"Clip", l_clip, OP_CLAMP}, {"Cast", l_cast, OP_CAST},
    {"Identity", l_identity, OP_INPUT}, {"Dropout", l_dropout, OP_INPUT},
    {"MatMul", l_matmul, OP_MATMUL}, {"Gemm", l_gemm, OP_MATMUL},
    {"LayerNormalization", l_layer_norm, OP_LAYER_NORM}, {"BatchNormalization", l_batch_norm, OP_INPUT},
    {"Conv", l_conv, OP_CONV2D}, {"MaxPool", l_pool, OP_MAX_POOL2D}, {"AveragePool", l_pool, OP_AVG_POOL2D},
    {"GlobalAveragePool", l_global_pool, OP_MEAN}, {"GlobalMaxPool", l_global_pool, OP_MAX},
    {"ReduceMean", l_reduce, OP_MEAN}, {"ReduceSum", l_reduce, OP_SUM}, {"ReduceMax", l_reduce, OP_MAX},
    {"ReduceMin", l_reduce, OP_MIN}, {"ReduceProd", l_reduce, OP_PROD},
    {"Flatten", l_flatten, OP_RESHAPE}, {"Reshape", l_reshape, OP_RESHAPE}, {"Transpose", l_transpose, OP_TRANSPOSE},
    {"Squeeze", l_squeeze, OP_RESHAPE}, {"Unsqueeze", l_unsqueeze, OP_RESHAPE},
    {"Concat", l_concat, OP_CONCAT}, {"Gather", l_gather, OP_GATHER}, {"Slice", l_slice, OP_SLICE},
    {"Constant", ox_lower_constant, OP_FULL}, {"Shape", ox_lower_shape, OP_INPUT},
};

int ox_lower_node(Ox *x) {
    const char *type = x->node->op_type;
    for (size_t i = 0; i < sizeof table / sizeof *table; i++) {
        if (strcmp(table[i].name, type) != 0) continue;
        int f = ox_fold(x, type);
        if (f) return f < 0 ? -1 : 0;
        if (table[i].fn != l_dropout && table[i].fn != l_pool && table[i].fn != l_layer_norm && table[i].fn != l_batch_norm &&
            ox_only_first_output(x))
            return -1;
        return table[i].fn(x, table[i].op);
    }
    return ox_fail(x, "operator %.60s is not supported (docs/onnx.md lists the supported operators)", type);
}
