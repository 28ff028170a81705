/* ir/composite.c: the composite ops (softmax, log_softmax, layer_norm, gelu, cross_entropy,
 * conv2d, max_pool2d, avg_pool2d) written as the primitives they stand for. One decomposition for every front-end: the JSON
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

/* ---- conv2d and pooling: windows over H and W as strided slices ---------------------------- */

#define IR_MAX_KERNEL 1024 /* per axis: the expansion makes one slice per kernel row and column */

/* A window's geometry per spatial axis (0: height, 1: width): kernel, stride, dilation, pads,
 * output size. */
typedef struct {
    int64_t k[2], s[2], d[2], pb[2], pe[2], o[2];
} Win;

static NodeId viewop(Cb *b, const char *w, Op op, NodeId x, const Attrs *a) {
    Operand in = V(x);
    return node(b, w, op, 1, &in, a);
}

static NodeId reshape_to(Cb *b, const char *w, NodeId x, int rank, const int64_t *dims) {
    Attrs a = {.nshape = rank};
    memcpy(a.shape, dims, (size_t)rank * sizeof *dims);
    return viewop(b, w, OP_RESHAPE, x, &a);
}

/* Checks x (and for the pools the kernel) and fills w; the messages name the attributes as the
 * graph format spells them. */
static int window_of(Cb *b, const TensorType *x, const Attrs *a, const int64_t kernel[2], bool dilated, bool pool, Win *w) {
    static const char *const axis[2] = {"height", "width"};
    char s[256];
    if (b->failed) return -1;
    if (x->rank != 4) return cfail(b, "x must have rank 4 (N, C, H, W), got %s", ir_shape_str(x, s, sizeof s)), -1;
    if (!ir_dtype_is_float(x->dtype)) return cfail(b, "x must be float32 or float64, got %s", ir_dtype_name(x->dtype)), -1;
    struct { const char *name; int n; const int64_t *v; int want; } lists[] = {
        {"strides", a->nstrides, a->strides, 2}, {"dilations", a->ndilations, a->dilations, 2},
        {"pads", a->npads, a->pads, 4}};
    for (int i = 0; i < 3; i++) {
        if (lists[i].n && lists[i].n != lists[i].want)
            return cfail(b, "\"%s\" must have %s, got %d", lists[i].name,
                         i == 2 ? "4 entries (top, left, bottom, right)" : "2 entries (height, width)", lists[i].n), -1;
        for (int k = 0; k < lists[i].n; k++) {
            int64_t v = lists[i].v[k], lo = i == 2 ? 0 : 1;
            if (v < lo || v >= IR_MAX_DIM)
                return cfail(b, "\"%s\" must be integers from %lld to 2^31-1, got %lld", lists[i].name, (long long)lo,
                             (long long)v), -1;
        }
    }
    if (!dilated && a->ndilations) return cfail(b, "takes no \"dilations\""), -1;
    for (int i = 0; i < 2; i++) {
        w->k[i] = kernel[i];
        w->s[i] = a->nstrides ? a->strides[i] : 1;
        w->d[i] = a->ndilations ? a->dilations[i] : 1;
        w->pb[i] = a->npads ? a->pads[i] : 0;
        w->pe[i] = a->npads ? a->pads[2 + i] : 0;
        if (kernel[i] < 1 || kernel[i] > IR_MAX_KERNEL)
            return cfail(b, "the kernel's %s %lld is out of range (1 to %d)", axis[i], (long long)kernel[i], IR_MAX_KERNEL), -1;
        if (pool && (w->pb[i] >= w->k[i] || w->pe[i] >= w->k[i]))
            return cfail(b, "pads must be smaller than the kernel (a window of padding only has no value), got %lld "
                            "and %lld for a kernel %s of %lld", (long long)w->pb[i], (long long)w->pe[i], axis[i],
                         (long long)w->k[i]), -1;
        int64_t ext = w->d[i] * (w->k[i] - 1) + 1, len = x->dims[2 + i] + w->pb[i] + w->pe[i];
        if (len < ext) {
            char dil[64] = "";
            if (dilated) snprintf(dil, sizeof dil, " with dilation %lld", (long long)w->d[i]);
            return cfail(b, "the kernel's %s (%lld%s) is larger than the padded input's (%lld) in x %s", axis[i],
                         (long long)ext, dil, (long long)len, ir_shape_str(x, s, sizeof s)), -1;
        }
        w->o[i] = (len - ext) / w->s[i] + 1;
    }
    return 0;
}

/* x padded on spatial axis ax (2 or 3) by pb before and pe after: with zeros, or (edge) with
 * copies of the first and last row or column, which never change a window's max (every window
 * that reaches the padding holds the row or column copied: pads are smaller than the kernel). */
static NodeId pad_axis(Cb *b, NodeId x, int ax, int64_t pb, int64_t pe, bool edge) {
    if (b->failed || (pb == 0 && pe == 0)) return x;
    const TensorType t = *type_of(b, x);
    if (!edge) {
        Attrs a = {.npads = 2 * t.rank};
        a.pads[ax] = pb, a.pads[t.rank + ax] = pe;
        return viewop(b, "pad", OP_PAD, x, &a);
    }
    NodeId rep[2] = {-1, -1};
    for (int side = 0; side < 2; side++) {
        int64_t p = side ? pe : pb;
        if (!p) continue;
        Attrs sl = {.nslice = 1, .has_axes = true, .naxes = 1, .axes = {ax}};
        sl.starts[0] = side ? t.dims[ax] - 1 : 0, sl.ends[0] = sl.starts[0] + 1;
        NodeId e = viewop(b, side ? "edge_end" : "edge_begin", OP_SLICE, x, &sl);
        Attrs br = {.nshape = t.rank};
        memcpy(br.shape, t.dims, sizeof t.dims);
        br.shape[ax] = p;
        rep[side] = viewop(b, side ? "pad_end" : "pad_begin", OP_BROADCAST_TO, e, &br);
    }
    Operand parts[3];
    int n = 0;
    if (pb) parts[n++] = V(rep[0]);
    parts[n++] = V(x);
    if (pe) parts[n++] = V(rep[1]);
    Attrs c = {.axis = ax};
    return node(b, "padded", OP_CONCAT, n, parts, &c);
}

/* The k taps along axis ax of x (tap t: start t*d, step s, o elements), either concatenated
 * along axis cat (the im2col columns, in chunks of IR_MAX_INPUTS) or combined elementwise by
 * op (OP_MAXIMUM, OP_ADD: a pooled window). */
static NodeId taps(Cb *b, NodeId x, int ax, int64_t k, int64_t d, int64_t s, int64_t o, int cat, Op op) {
    NodeId acc = -1;
    Operand chunk[IR_MAX_INPUTS];
    NodeId level[IR_MAX_KERNEL / IR_MAX_INPUTS + 1];
    int n = 0, nlevel = 0;
    for (int64_t t = 0; t < k && !b->failed; t++) {
        Attrs sl = {.nslice = 1, .has_axes = true, .naxes = 1, .axes = {ax}, .has_steps = true};
        sl.starts[0] = t * d, sl.ends[0] = t * d + (o - 1) * s + 1, sl.steps[0] = s;
        NodeId tap = viewop(b, "tap", OP_SLICE, x, &sl);
        if (op != OP_CONCAT) {
            acc = acc < 0 ? tap : bin(b, op == OP_MAXIMUM ? "window_max" : "window_sum", op, V(acc), V(tap));
            continue;
        }
        chunk[n++] = V(tap);
        if (n == IR_MAX_INPUTS || t == k - 1) {
            Attrs c = {.axis = cat};
            level[nlevel++] = n == 1 ? tap : node(b, "cols", OP_CONCAT, n, chunk, &c);
            n = 0;
        }
    }
    if (op != OP_CONCAT || b->failed) return acc;
    while (nlevel > 1) { /* concat along one axis is associative: chunks of chunks */
        int m = 0;
        for (int i = 0; i < nlevel; i += IR_MAX_INPUTS) {
            int cnt = nlevel - i < IR_MAX_INPUTS ? nlevel - i : IR_MAX_INPUTS;
            for (int j = 0; j < cnt; j++) chunk[j] = V(level[i + j]);
            Attrs c = {.axis = cat};
            level[m++] = cnt == 1 ? level[i] : node(b, "cols", OP_CONCAT, cnt, chunk, &c);
        }
        nlevel = m;
    }
    return level[0];
}

/* conv2d: x padded, its columns [G, C/G*kH*kW, N*OH*OW] (two stages of taps: rows, then
 * columns, then a transpose), w as [G, M/G, C/G*kH*kW], one matmul per group, the result
 * [M, N, OH, OW] read transposed as [N, M, OH, OW], the bias added. */
static NodeId conv2d(Cb *b, const Operand *in, int nin, const Attrs *a) {
    NodeId x = tensor(b, &in[0], "x"), w = tensor(b, &in[1], "w"), bias = nin > 2 ? tensor(b, &in[2], "b") : -2;
    if (x < 0 || w < 0 || bias == -1) return -1;
    const TensorType xt = *type_of(b, x), wt = *type_of(b, w);
    char s1[256], s2[256];
    if (wt.rank != 4) return cfail(b, "w must have rank 4 (M, C/group, kH, kW), got %s", ir_shape_str(&wt, s1, sizeof s1));
    if (!ir_dtype_is_float(wt.dtype)) return cfail(b, "w must be float32 or float64, got %s", ir_dtype_name(wt.dtype));
    Win win;
    if (window_of(b, &xt, a, &wt.dims[2], true, false, &win)) return -1;
    int64_t g = a->group ? a->group : 1, n = xt.dims[0], c = xt.dims[1], m = wt.dims[0];
    if (g < 1 || g >= IR_MAX_DIM) return cfail(b, "\"group\" must be an integer from 1 to 2^31-1, got %lld", (long long)g);
    if (c % g || m % g)
        return cfail(b, "x's %lld channels and w's %lld filters must both be divisible by group %lld", (long long)c,
                     (long long)m, (long long)g);
    if (wt.dims[1] != c / g)
        return cfail(b, "w %s must have %lld input channels per group (x's %lld channels / group %lld), got %lld",
                     ir_shape_str(&wt, s1, sizeof s1), (long long)(c / g), (long long)c, (long long)g, (long long)wt.dims[1]);
    if (bias >= 0) {
        const TensorType *bt = type_of(b, bias);
        if (bt->rank != 1 || bt->dims[0] != m)
            return cfail(b, "b must have shape [%lld] (one per filter of w %s), got %s", (long long)m,
                         ir_shape_str(&wt, s1, sizeof s1), ir_shape_str(bt, s2, sizeof s2));
        if (!ir_dtype_is_float(bt->dtype)) return cfail(b, "b must be float32 or float64, got %s", ir_dtype_name(bt->dtype));
    }
    int64_t kh = win.k[0], kw = win.k[1], oh = win.o[0], ow = win.o[1];
    NodeId p = x;
    if (win.pb[0] || win.pe[0] || win.pb[1] || win.pe[1]) { /* zeros, both axes at once */
        Attrs pa = {.npads = 8};
        pa.pads[2] = win.pb[0], pa.pads[3] = win.pb[1], pa.pads[6] = win.pe[0], pa.pads[7] = win.pe[1];
        p = viewop(b, "pad", OP_PAD, x, &pa);
    }
    int64_t wp = xt.dims[3] + win.pb[1] + win.pe[1];
    NodeId rows = taps(b, p, 2, kh, win.d[0], win.s[0], oh, 2, OP_CONCAT); /* [N, C, kH*OH, Wp] */
    rows = reshape_to(b, "rows", rows, 5, (int64_t[]){n, c, kh, oh, wp});
    NodeId cols = taps(b, rows, 4, kw, win.d[1], win.s[1], ow, 3, OP_CONCAT); /* [N, C, kH, kW*OH, OW] */
    /* columns as [G, K, N*OH*OW]: one GEMM per group over every image at once (and so one for
     * each gradient: dW sums over N*OH*OW inside the GEMM); the im2col kernel writes this layout */
    int64_t k = c / g * kh * kw, p2 = oh * ow;
    cols = reshape_to(b, "cols_g", cols, 4, (int64_t[]){n, g, k, p2});
    Attrs tr = {.nperm = 4, .perm = {1, 2, 0, 3}};
    cols = viewop(b, "cols_t", OP_TRANSPOSE, cols, &tr); /* [G, K, N, P] */
    NodeId y;
    if (g == 1) {
        cols = reshape_to(b, "im2col", cols, 2, (int64_t[]){k, n * p2});
        NodeId w2 = reshape_to(b, "filters", w, 2, (int64_t[]){m, k});
        y = bin(b, "gemm", OP_MATMUL, V(w2), V(cols)); /* [M, N*OH*OW] */
    } else {
        cols = reshape_to(b, "im2col", cols, 3, (int64_t[]){g, k, n * p2});
        NodeId w3 = reshape_to(b, "filters", w, 3, (int64_t[]){g, m / g, k});
        y = bin(b, "gemm", OP_MATMUL, V(w3), V(cols)); /* [G, M/G, N*OH*OW] */
    }
    y = reshape_to(b, "out_mn", y, 4, (int64_t[]){m, n, oh, ow});
    Attrs sw = {.nperm = 4, .perm = {1, 0, 2, 3}};
    y = viewop(b, "out", OP_TRANSPOSE, y, &sw); /* [N, M, OH, OW] */
    if (bias < 0) return y;
    NodeId b3 = reshape_to(b, "bias", bias, 3, (int64_t[]){m, 1, 1});
    return bin(b, "biased", OP_ADD, V(y), V(b3));
}

/* max_pool2d and avg_pool2d: the window's max or sum over rows, then over columns (both are
 * separable); the average divides by the window's size or, without count_include_pad, by the
 * number of real elements (the same window sum over a padded tensor of ones, [OH, OW]). */
static NodeId pool2d(Cb *b, Op op, const Operand *in, const Attrs *a) {
    NodeId x = tensor(b, &in[0], "x");
    if (x < 0) return -1;
    if (a->nkernel != 2)
        return cfail(b, "\"kernel_shape\" must have 2 entries (height, width), got %d", a->nkernel);
    const TensorType xt = *type_of(b, x);
    Win win;
    if (window_of(b, &xt, a, a->kernel, false, true, &win)) return -1;
    bool mx = op == OP_MAX_POOL2D;
    Op comb = mx ? OP_MAXIMUM : OP_ADD;
    NodeId r = pad_axis(b, x, 2, win.pb[0], win.pe[0], mx);
    r = taps(b, r, 2, win.k[0], 1, win.s[0], win.o[0], 0, comb);
    r = pad_axis(b, r, 3, win.pb[1], win.pe[1], mx);
    r = taps(b, r, 3, win.k[1], 1, win.s[1], win.o[1], 0, comb);
    if (mx) return r;
    bool padded = win.pb[0] || win.pe[0] || win.pb[1] || win.pe[1];
    if (a->count_include_pad || !padded) return bin(b, "avg_pool2d", OP_DIV, V(r), C((double)(win.k[0] * win.k[1])));
    Attrs ones = {.nshape = 2, .shape = {xt.dims[2], xt.dims[3]}, .has_dtype = true, .dtype = xt.dtype, .value = 1};
    NodeId cnt = node(b, "ones", OP_FULL, 0, NULL, &ones);
    cnt = pad_axis(b, cnt, 0, win.pb[0], win.pe[0], false);
    cnt = taps(b, cnt, 0, win.k[0], 1, win.s[0], win.o[0], 0, OP_ADD);
    cnt = pad_axis(b, cnt, 1, win.pb[1], win.pe[1], false);
    cnt = taps(b, cnt, 1, win.k[1], 1, win.s[1], win.o[1], 0, OP_ADD); /* [OH, OW] */
    return bin(b, "avg_pool2d", OP_DIV, V(r), V(cnt));
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
    case OP_CONV2D: r = conv2d(&b, in, nin, a); break;
    case OP_MAX_POOL2D: case OP_AVG_POOL2D: r = pool2d(&b, op, in, a); break;
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
    graph_copy_syms(h, g);
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
