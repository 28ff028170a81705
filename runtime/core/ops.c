/* runtime/core/ops.c: rt_apply, the eager entry point for every graph op. Shapes and dtypes
 * come from the IR's rules (ir_infer_op), so an eager op and a compiled node cannot disagree;
 * this file only prepares operands (promotion casts, broadcast views) and calls the backend. */
#include <stdlib.h>
#include <string.h>

#include "rt.h"

/* A new tensor header over t's storage (a view); shape and strides are set by the caller. */
static RtTensor *view_of(RtTensor *t) {
    RtTensor *v = malloc(sizeof *v);
    if (!v) {
        rt_error(RT_EOOM, "out of host memory");
        return NULL;
    }
    *v = *t;
    v->refcount = 1;
    v->storage->refcount++;
    return v;
}

/* A view of t broadcast to `shape` (new leading axes and size-1 axes get stride 0). */
static RtTensor *broadcast_view(RtTensor *t, int rank, const int64_t *shape) {
    RtTensor *v = view_of(t);
    if (!v) return NULL;
    int shift = rank - t->rank;
    v->rank = rank;
    for (int i = rank - 1; i >= 0; i--) {
        int k = i - shift;
        bool keep = k >= 0 && t->shape[k] == shape[i];
        v->strides[i] = keep ? t->strides[k] : 0;
        v->shape[i] = shape[i];
    }
    return v;
}

/* Turns an operand into a tensor of dtype dt on backend b (scalars become rank-0 tensors). */
static RtTensor *prepare(const RtBackend *b, const RtOperand *o, DType dt) {
    if (!o->t) return rt_full(b, dt, 0, NULL, o->value);
    if (o->t->dtype != dt) return rt_cast(o->t, dt);
    return rt_retain(o->t);
}

static RtTensor *apply_elementwise(const RtBackend *b, Op op, const RtOperand *in, int nin,
                                   const Attrs *a, const TensorType *tin, const TensorType *out) {
    DType ct = ir_compute_dtype(op, tin, nin, out);
    RtTensor *res = rt_empty(b, out->dtype, out->rank, out->dims);
    if (!res) return NULL;
    if (op == OP_CAST) {
        if (b->copy(res, in[0].t)) rt_release(res), res = NULL;
        return res;
    }
    RtTensor *ops[IR_MAX_INPUTS] = {0};
    int rank = op == OP_ONE_HOT ? out->rank - 1 : out->rank, rc = 0;
    for (int i = 0; i < nin && !rc; i++) {
        DType want = (op == OP_WHERE && i == 0) ? DT_BOOL : ct;
        RtTensor *p = prepare(b, &in[i], want);
        ops[i] = p ? broadcast_view(p, rank, out->dims) : NULL;
        rt_release(p);
        rc = ops[i] ? 0 : -1;
    }
    if (!rc) rc = b->elementwise(op, res, ops, nin, a);
    for (int i = 0; i < nin; i++) rt_release(ops[i]);
    if (rc) rt_release(res), res = NULL;
    return res;
}

static RtTensor *apply_reduce(const RtBackend *b, Op op, RtTensor *x, const Attrs *a,
                              const TensorType *out) {
    unsigned mask;
    char err[256];
    if (ir_reduce_mask(a, x->rank, &mask, err, sizeof err)) {
        rt_error(RT_EINVAL, "%s: %s", ir_ops[op].name, err);
        return NULL;
    }
    DType ct = ir_ops[op].rule == R_ARG ? x->dtype : out->dtype;
    RtTensor *src = x->dtype == ct ? rt_retain(x) : rt_cast(x, ct);
    if (!src) return NULL;
    int64_t keep[IR_MAX_RANK];
    for (int i = 0; i < x->rank; i++) keep[i] = (mask >> i) & 1 ? 1 : x->shape[i];
    RtTensor *res = rt_empty(b, out->dtype, x->rank, keep);
    if (res && b->reduce(op, res, src, mask)) rt_release(res), res = NULL;
    rt_release(src);
    if (res) { /* contiguous: dropping size-1 axes is a relabelling */
        res->rank = out->rank;
        memcpy(res->shape, out->dims, sizeof res->shape);
        rt_contiguous_strides(res->rank, res->shape, res->strides);
    }
    return res;
}

static RtTensor *apply_matmul(const RtBackend *b, RtTensor *x, RtTensor *y, const TensorType *out) {
    RtTensor *pa = x->dtype == out->dtype ? rt_retain(x) : rt_cast(x, out->dtype);
    RtTensor *pb = pa ? (y->dtype == out->dtype ? rt_retain(y) : rt_cast(y, out->dtype)) : NULL;
    RtTensor *va = NULL, *vb = NULL, *res = NULL;
    if (!pa || !pb) goto done;
    /* NumPy's 1-D rules: a vector on the left is a row, on the right a column. */
    int64_t m = pa->rank == 1 ? 1 : pa->shape[pa->rank - 2], k = pa->shape[pa->rank - 1];
    int64_t n = pb->rank == 1 ? 1 : pb->shape[pb->rank - 1];
    int brank = out->rank - (pa->rank > 1) - (pb->rank > 1);
    int64_t shape[IR_MAX_RANK + 2];
    memcpy(shape, out->dims, (size_t)brank * sizeof *shape);
    if (brank + 2 > IR_MAX_RANK) {
        rt_error(RT_EINVAL, "matmul: result rank exceeds %d", IR_MAX_RANK);
        goto done;
    }
    RtTensor *views[2] = {pa, pb};
    int64_t rows[2] = {m, k}, cols[2] = {k, n};
    for (int s = 0; s < 2; s++) {
        RtTensor *p = views[s], *v = view_of(p);
        if (!v) goto done;
        if (p->rank == 1) { /* [k] → [1,k] or [k,1] */
            v->rank = 2;
            v->shape[0] = rows[s], v->shape[1] = cols[s];
            v->strides[0] = s == 0 ? 0 : p->strides[0];
            v->strides[1] = s == 0 ? p->strides[0] : 0;
        }
        int64_t full[IR_MAX_RANK];
        memcpy(full, shape, (size_t)brank * sizeof *full);
        full[brank] = rows[s], full[brank + 1] = cols[s];
        RtTensor *bv = broadcast_view(v, brank + 2, full);
        rt_release(v);
        if (!bv) goto done;
        if (s == 0) va = bv; else vb = bv;
    }
    shape[brank] = m, shape[brank + 1] = n;
    res = rt_empty(b, out->dtype, brank + 2, shape);
    if (res && b->matmul(res, va, vb)) rt_release(res), res = NULL;
    if (res) {
        res->rank = out->rank;
        memcpy(res->shape, out->dims, sizeof res->shape);
        rt_contiguous_strides(res->rank, res->shape, res->strides);
    }
done:
    rt_release(pa), rt_release(pb), rt_release(va), rt_release(vb);
    return res;
}

/* gather and scatter_add: the indices are checked and normalised on the host (an index out of
 * range is an error naming it and the axis size, never an out-of-bounds read), then the backend
 * works on contiguous [pre, n, post] views with int64 indices in [0, n). */
/* The seed is read on the host (8 bytes); x made contiguous so element i is x's linear index i. */
static RtTensor *apply_dropout(const RtBackend *b, RtTensor *x, RtTensor *seed, const Attrs *a, const TensorType *out) {
    int64_t s;
    if (rt_to_host(seed, &s)) return NULL;
    RtTensor *xc = rt_contiguous(x), *res = xc ? rt_empty(b, out->dtype, out->rank, out->dims) : NULL;
    if (res && b->dropout(res, xc, (uint64_t)s, a->ratio)) rt_release(res), res = NULL;
    rt_release(xc);
    return res;
}

static RtTensor *apply_index(const RtBackend *b, Op op, const RtOperand *in, const Attrs *a, const TensorType *out) {
    RtTensor *x = in[0].t, *res = NULL, *data = NULL, *upd = NULL, *idx = NULL;
    int ax;
    char err[256];
    if (ir_index_axis(a, x->rank, &ax, err, sizeof err)) {
        rt_error(RT_EINVAL, "%s: %s", ir_ops[op].name, err);
        return NULL;
    }
    int64_t pre = 1, n = x->shape[ax], post = 1, k = rt_numel(in[1].t);
    for (int i = 0; i < ax; i++) pre *= x->shape[i];
    for (int i = ax + 1; i < x->rank; i++) post *= x->shape[i];
    int64_t *host = malloc((size_t)(k ? k : 1) * sizeof *host);
    RtTensor *i64 = host ? rt_cast(in[1].t, DT_INT64) : NULL;
    if (!host) rt_error(RT_EOOM, "out of host memory");
    if (!i64 || rt_to_host(i64, host)) goto done;
    for (int64_t i = 0; i < k; i++) {
        int64_t v = host[i];
        if (v < -n || v >= n) {
            rt_error(RT_EINVAL, "%s: index %lld is out of range for axis %d of size %lld", ir_ops[op].name, (long long)v,
                     ax, (long long)n);
            goto done;
        }
        host[i] = v < 0 ? v + n : v;
    }
    if (!(idx = rt_from_host(b, DT_INT64, 1, &k, host))) goto done;
    if (op == OP_GATHER) {
        if (!(data = rt_contiguous(x)) || !(res = rt_empty(b, out->dtype, out->rank, out->dims))) goto done;
        if (b->gather(res, data, idx, pre, n, post)) rt_release(res), res = NULL;
    } else {
        RtTensor *u = in[2].t;
        if (ir_dtype_is_half(out->dtype)) { /* the same refusal on every backend */
            rt_error(RT_EINVAL, "scatter_add: %s is not supported", ir_dtype_name(out->dtype));
            goto done;
        }
        if (!(res = rt_cast(x, out->dtype)) || !(upd = u->dtype == out->dtype ? rt_contiguous(u) : rt_cast(u, out->dtype)))
            goto done;
        if (b->scatter_add(res, idx, upd, pre, n, post)) rt_release(res), res = NULL;
    }
done:
    if (!idx || (op == OP_GATHER ? !data : !upd)) rt_release(res), res = NULL;
    free(host);
    rt_release(i64), rt_release(idx), rt_release(data), rt_release(upd);
    return res;
}

/* concat: each operand, converted to the result's dtype and contiguous, is a [pre, d * post]
 * block the backend copies into the result's rows at its offset along the axis. */
static RtTensor *apply_concat(const RtBackend *b, const RtOperand *in, int nin, const Attrs *a, const TensorType *out) {
    int ax;
    char err[256];
    if (ir_index_axis(a, out->rank, &ax, err, sizeof err)) {
        rt_error(RT_EINVAL, "concat: %s", err);
        return NULL;
    }
    int64_t pre = 1, post = 1, off = 0;
    for (int i = 0; i < ax; i++) pre *= out->dims[i];
    for (int i = ax + 1; i < out->rank; i++) post *= out->dims[i];
    size_t es = ir_dtype_size(out->dtype), row = (size_t)(out->dims[ax] * post) * es;
    RtTensor *res = rt_empty(b, out->dtype, out->rank, out->dims);
    for (int i = 0; i < nin && res; i++) {
        RtTensor *x = in[i].t, *c = rt_cast(x, out->dtype); /* a contiguous copy */
        size_t w = (size_t)(x->shape[ax] * post) * es;
        if (!c || b->copy_rows((char *)rt_data(res) + (size_t)(off * post) * es, row, rt_data(c), w, w, (size_t)pre))
            rt_release(res), res = NULL;
        off += x->shape[ax];
        rt_release(c);
    }
    return res;
}

/* pad: a pass per padded axis, each the result filled with the value and the operand copied
 * into its rows (as concat's blocks); axes without pads cost nothing. */
static RtTensor *apply_pad(const RtBackend *b, RtTensor *x, const Attrs *a, const TensorType *out) {
    RtTensor *cur = rt_contiguous(x);
    size_t es = ir_dtype_size(out->dtype);
    int r = out->rank;
    int64_t shape[IR_MAX_RANK];
    for (int i = 0; i < r; i++) shape[i] = x->shape[i];
    for (int ax = 0; ax < r && cur; ax++) {
        int64_t lo = a->pads[ax], hi = a->pads[r + ax], pre = 1, post = 1, d = shape[ax];
        if (!lo && !hi) continue;
        for (int i = 0; i < ax; i++) pre *= shape[i];
        shape[ax] = d + lo + hi;
        for (int i = ax + 1; i < r; i++) post *= shape[i];
        RtTensor *nx = rt_full(b, out->dtype, r, shape, a->value);
        size_t w = (size_t)(d * post) * es;
        if (nx && b->copy_rows((char *)rt_data(nx) + (size_t)(lo * post) * es, (size_t)(shape[ax] * post) * es, rt_data(cur), w, w,
                               (size_t)pre))
            rt_release(nx), nx = NULL;
        rt_release(cur);
        cur = nx;
    }
    return cur;
}

/* Strides that let `out` view x's elements in C order without a copy, as NumPy's
 * attempt_nocopy_reshape: each run of output axes must map onto a run of input axes that is
 * itself laid out contiguously. False when no such strides exist. */
static bool reshape_strides(const RtTensor *x, const TensorType *out, int64_t *strides) {
    int64_t ish[IR_MAX_RANK], ist[IR_MAX_RANK];
    int in = 0;
    for (int i = 0; i < x->rank; i++) {
        if (x->shape[i] == 0) { /* empty: any strides will do */
            rt_contiguous_strides(out->rank, out->dims, strides);
            return true;
        }
        if (x->shape[i] != 1) ish[in] = x->shape[i], ist[in++] = x->strides[i];
    }
    int oi = 0, oj = 1, ii = 0, ij = 1, on = out->rank;
    while (ii < in && oi < on) {
        int64_t np = ish[ii], op = out->dims[oi];
        while (np != op) {
            if (np < op) np *= ish[ij++];
            else op *= out->dims[oj++];
        }
        for (int k = ii; k < ij - 1; k++)
            if (ist[k] != ist[k + 1] * ish[k + 1]) return false;
        strides[oj - 1] = ist[ij - 1];
        for (int k = oj - 1; k > oi; k--) strides[k - 1] = strides[k] * out->dims[k];
        ii = ij++;
        oi = oj++;
    }
    /* trailing size-1 output axes */
    for (int k = oi; k < on; k++) strides[k] = 1;
    return true;
}

static RtTensor *apply_view(Op op, RtTensor *x, const Attrs *a, const TensorType *out) {
    char err[256];
    RtTensor *v;
    switch (op) {
    case OP_RESHAPE: {
        int64_t strides[IR_MAX_RANK];
        if (reshape_strides(x, out, strides)) {
            if (!(v = view_of(x))) return NULL;
            memcpy(v->strides, strides, sizeof strides);
        } else {
            if (!(v = rt_contiguous(x))) return NULL;
            rt_contiguous_strides(out->rank, out->dims, v->strides);
        }
        v->rank = out->rank;
        memcpy(v->shape, out->dims, sizeof v->shape);
        return v;
    }
    case OP_TRANSPOSE: {
        int perm[IR_MAX_RANK];
        if (ir_transpose_perm(a, x->rank, perm, err, sizeof err)) {
            rt_error(RT_EINVAL, "transpose: %s", err);
            return NULL;
        }
        if (!(v = view_of(x))) return NULL;
        for (int i = 0; i < x->rank; i++) v->shape[i] = x->shape[perm[i]], v->strides[i] = x->strides[perm[i]];
        return v;
    }
    case OP_BROADCAST_TO: return broadcast_view(x, out->rank, out->dims);
    case OP_SLICE: {
        int64_t start[IR_MAX_RANK], step[IR_MAX_RANK], size[IR_MAX_RANK];
        TensorType tt = rt_type(x);
        if (ir_slice_normalize(&tt, a, start, step, size, err, sizeof err)) {
            rt_error(RT_EINVAL, "slice: %s", err);
            return NULL;
        }
        if (!(v = view_of(x))) return NULL;
        for (int i = 0; i < x->rank; i++) {
            /* An axis of at most one element never steps, so its stride is the input's whatever
             * the step (a[::-2**63] is one element); a longer one has |step| < its size, so the
             * product stays within the storage: checked all the same, with an error, never a wrap. */
            int64_t st = x->strides[i], off;
            if (size[i] > 1 && __builtin_mul_overflow(x->strides[i], step[i], &st)) st = INT64_MIN;
            if (st == INT64_MIN || __builtin_mul_overflow(start[i], x->strides[i], &off) ||
                __builtin_add_overflow(v->offset, off, &v->offset)) {
                rt_release(v);
                rt_error(RT_EINVAL, "slice: axis %d: the view's stride or offset does not fit in 64 bits "
                         "(start %lld, step %lld, stride %lld)", i, (long long)start[i], (long long)step[i],
                         (long long)x->strides[i]);
                return NULL;
            }
            v->strides[i] = st;
            v->shape[i] = size[i];
        }
        return v;
    }
    default: rt_error(RT_ERUNTIME, "internal: %s is not a view", ir_ops[op].name); return NULL;
    }
}

/* A small graph: one input per tensor operand, the composite expanded over them; then its nodes
 * in order, each value kept until the end (a dozen, or a few per kernel row and column). */
RtTensor *rt_apply_composite(Op op, const RtOperand *in, int nin, const Attrs *a, RtApplyFn apply) {
    static const Attrs none;
    if (!a) a = &none;
    char err[512];
    if (nin < 0 || nin > IR_MAX_INPUTS || !ir_arity_ok(op, nin, "operand", err, sizeof err)) {
        if (nin < 0 || nin > IR_MAX_INPUTS) snprintf(err, sizeof err, "bad operand count %d", nin);
        rt_error(RT_EINVAL, "%s: %s", ir_ops[op].name, err);
        return NULL;
    }
    Graph *g = graph_new("composite");
    Operand ops[IR_MAX_INPUTS];
    for (int i = 0; i < nin; i++) {
        if (!in[i].t) {
            ops[i] = (Operand){.id = -1, .value = in[i].value};
            continue;
        }
        char nm[16];
        snprintf(nm, sizeof nm, "in%d", i);
        ops[i] = (Operand){.id = graph_add(g, nm, OP_INPUT)};
        g->nodes[ops[i].id].type = rt_type(in[i].t);
    }
    RtTensor *r = NULL;
    NodeId last = ir_expand_composite(g, op, ops, nin, a, "out", "", err, sizeof err);
    if (last < 0) rt_error(RT_EINVAL, "%s: %s", ir_ops[op].name, err);
    RtTensor **vals = calloc((size_t)g->nnodes + 1, sizeof *vals);
    if (!vals) abort();
    for (NodeId id = 0; last >= 0 && id <= last; id++) {
        const Node *nd = &g->nodes[id];
        if (nd->op == OP_INPUT) {
            for (int i = 0; i < nin; i++)
                if (ops[i].id == id) vals[id] = rt_retain(in[i].t);
            continue;
        }
        RtOperand o[IR_MAX_INPUTS] = {{0}};
        for (int k = 0; k < nd->ninputs; k++) {
            if (nd->in[k].id < 0) o[k].value = nd->in[k].value;
            else o[k].t = vals[nd->in[k].id];
        }
        /* a constant written as a float (PHP's 2.0) stays one for the primitive it feeds */
        for (int k = 0; k < nd->ninputs; k++)
            for (int i = 0; i < nin; i++)
                if (!in[i].t && nd->in[k].id < 0 && ops[i].value == nd->in[k].value) o[k].is_float |= in[i].is_float;
        if (!(vals[id] = apply(nd->op, o, nd->ninputs, &nd->attrs))) break;
        if (id == last) r = rt_retain(vals[id]);
    }
    for (int i = 0; i < g->nnodes; i++) rt_release(vals[i]);
    free(vals);
    graph_free(g);
    return r;
}

/* The checks here only decline: anything unusual goes to gtc's own convolution, which reports
 * bad operands in the graph format's words (ir/composite.c). */
int rt_conv2d_library(const RtOperand *in, int nin, const Attrs *a, RtTensor **out) {
    if ((nin != 2 && nin != 3) || !in[0].t || !in[1].t || (nin == 3 && !in[2].t)) return 0;
    const RtTensor *x = in[0].t, *w = in[1].t, *b = nin == 3 ? in[2].t : NULL;
    const RtBackend *be = x->storage->backend;
    if (!be->conv2d || w->storage->backend != be || (b && b->storage->backend != be)) return 0;
    if (x->rank != 4 || w->rank != 4 || (b && (b->rank != 1 || b->shape[0] != w->shape[0]))) return 0;
    for (int i = 0; i < nin; i++)
        if (in[i].t->dtype != DT_FLOAT32 || !rt_is_contiguous(in[i].t)) return 0;
    if ((a->nstrides && a->nstrides != 2) || (a->npads && a->npads != 4) || (a->ndilations && a->ndilations != 2))
        return 0;
    RtConvWindow p = {.group = a->group ? a->group : 1};
    int64_t o[4] = {x->shape[0], w->shape[0], 0, 0};
    for (int i = 0; i < 2; i++) {
        p.stride[i] = a->nstrides ? a->strides[i] : 1;
        p.dilation[i] = a->ndilations ? a->dilations[i] : 1;
        p.pad[i] = a->npads ? a->pads[i] : 0;
        p.pad[2 + i] = a->npads ? a->pads[2 + i] : 0;
        int64_t k = w->shape[2 + i], ext = p.dilation[i] * (k - 1) + 1;
        int64_t len = x->shape[2 + i] + p.pad[i] + p.pad[2 + i];
        if (p.stride[i] < 1 || p.dilation[i] < 1 || p.pad[i] < 0 || p.pad[2 + i] < 0 || k < 1 || len < ext) return 0;
        o[2 + i] = (len - ext) / p.stride[i] + 1;
    }
    if (p.group < 1 || x->shape[1] % p.group || o[1] % p.group || w->shape[1] != x->shape[1] / p.group) return 0;
    for (int i = 0; i < 4; i++)
        if (x->shape[i] < 1 || w->shape[i] < 1) return 0;
    return be->conv2d(out, x, w, b, &p, o);
}

RtTensor *rt_apply(Op op, const RtOperand *in, int nin, const Attrs *a) {
    static const Attrs none;
    if (!a) a = &none;
    if ((unsigned)op >= OP_COUNT || op == OP_INPUT) {
        rt_error(RT_EINVAL, "not an op");
        return NULL;
    }
    if (ir_ops[op].kind == K_COMPOSITE) return rt_apply_composite(op, in, nin, a, rt_apply);
    char aerr[96];
    if (nin < 0 || nin > IR_MAX_INPUTS) {
        ir_arity_ok(op, nin, "operand", aerr, sizeof aerr);
        rt_error(RT_EINVAL, "%s: %s", ir_ops[op].name, aerr);
        return NULL;
    }
    const RtBackend *b = NULL;
    TensorType tin[IR_MAX_INPUTS];
    for (int i = 0; i < nin; i++) {
        if (in[i].t) {
            tin[i] = rt_type(in[i].t);
            if (b && b != in[i].t->storage->backend) {
                rt_error(RT_EINVAL, "%s: operands live on different devices (%s and %s)",
                         ir_ops[op].name, b->name, in[i].t->storage->backend->name);
                return NULL;
            }
            b = in[i].t->storage->backend;
        } else {
            Operand o = {.id = -1, .value = in[i].value};
            tin[i] = graph_operand_type(NULL, &o);
            if (in[i].is_float) tin[i].dtype = DT_FLOAT32;
        }
    }
    if (!b) b = rt_default_backend();
    TensorType out;
    char err[512];
    if (ir_infer_op(op, tin, nin, a, &out, err, sizeof err)) {
        rt_error(RT_EINVAL, "%s: %s", ir_ops[op].name, err);
        return NULL;
    }
    switch (ir_ops[op].kind) {
    case K_SOURCE: return rt_full(b, out.dtype, out.rank, out.dims, a->value);
    case K_ELEMWISE: return apply_elementwise(b, op, in, nin, a, tin, &out);
    case K_REDUCE: return apply_reduce(b, op, in[0].t, a, &out);
    case K_MATMUL: return apply_matmul(b, in[0].t, in[1].t, &out);
    case K_VIEW: return apply_view(op, in[0].t, a, &out);
    case K_INDEX:
        if (op == OP_CONCAT) return apply_concat(b, in, nin, a, &out);
        if (op == OP_PAD) return apply_pad(b, in[0].t, a, &out);
        if (op == OP_DROPOUT) return apply_dropout(b, in[0].t, in[1].t, a, &out);
        return apply_index(b, op, in, a, &out);
    case K_COMPOSITE: break; /* expanded above */
    }
    rt_error(RT_ERUNTIME, "internal: unknown op kind");
    return NULL;
}

RtTensor *rt_eval_node(const Node *nd, RtTensor *const *v) {
    RtOperand ops[IR_MAX_INPUTS] = {{0}};
    for (int k = 0; k < nd->ninputs; k++) {
        if (nd->in[k].id >= 0) ops[k].t = v[nd->in[k].id];
        else ops[k].value = nd->in[k].value;
    }
    return rt_apply(nd->op, ops, nd->ninputs, &nd->attrs);
}

int rt_eval_graph(const Graph *g, RtTensor **v) {
    for (int i = 0; i < g->nnodes; i++) {
        if (v[i]) continue;
        if (g->nodes[i].op == OP_INPUT)
            return rt_error(RT_EINVAL, "internal: input \"%s\" has no value", g->nodes[i].name);
        if (!(v[i] = rt_eval_node(&g->nodes[i], v))) return -1;
    }
    return 0;
}
