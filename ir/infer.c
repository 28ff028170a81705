/* ir/infer.c: the shape and dtype rule of every op. One function serves the compiler (graph
 * nodes) and the runtime (eager ops on real tensors), so both apply the same rules. */
#include <stdio.h>
#include <string.h>

#include "ir.h"

#define ERR(...) (snprintf(err, errn, __VA_ARGS__), -1)

/* Promotes all operands; the result is weak only when every operand is. */
static DType promote_all(const TensorType *in, int n, bool *weak) {
    DType t = in[0].dtype;
    bool w = in[0].weak;
    for (int i = 1; i < n; i++) {
        t = ir_promote(t, w, in[i].dtype, in[i].weak);
        w = w && in[i].weak;
    }
    if (weak) *weak = w;
    return t;
}

static int check_dims(const TensorType *t, char *err, size_t errn);
int ir_check_type(const TensorType *t, char *err, size_t errn) { return check_dims(t, err, errn); }

static int check_dims(const TensorType *t, char *err, size_t errn) {
    char s[256];
    int64_t bytes = (int64_t)ir_dtype_size(t->dtype), span = bytes;
    if (t->rank > IR_MAX_RANK) return ERR("rank %d exceeds the limit of %d", t->rank, IR_MAX_RANK);
    for (int i = 0; i < t->rank; i++) {
        if (t->dims[i] < 0 || t->dims[i] >= IR_MAX_DIM)
            return ERR("dimension %lld is out of range (0 to 2^31-1)", (long long)t->dims[i]);
        if (t->dims[i] && bytes > IR_MAX_BYTES / t->dims[i])
            return ERR("shape %s is too large (over 2^40 bytes)", ir_shape_str(t, s, sizeof s));
        bytes *= t->dims[i];
        /* An empty shape's other dimensions still multiply into strides (zeros count as 1
         * there): their product obeys the same limit, so no stride overflows (tests/fuzz). */
        if (t->dims[i] && span > IR_MAX_BYTES / t->dims[i])
            return ERR("shape %s is too large (over 2^40 bytes with its zero dimensions as 1)",
                       ir_shape_str(t, s, sizeof s));
        if (t->dims[i]) span *= t->dims[i];
    }
    return 0;
}

int ir_reduce_mask(const Attrs *a, int rank, unsigned *mask, char *err, size_t errn) {
    *mask = 0;
    if (!a->has_axes) {
        *mask = rank ? (1u << rank) - 1 : 0;
        return 0;
    }
    for (int i = 0; i < a->naxes; i++) {
        int ax = a->axes[i];
        if (ax < -rank || ax >= rank) return ERR("axis %d is out of range for rank %d", ax, rank);
        if (ax < 0) ax += rank;
        if (*mask & (1u << ax)) return ERR("axis %d is repeated", a->axes[i]);
        *mask |= 1u << ax;
    }
    return 0;
}

int ir_transpose_perm(const Attrs *a, int rank, int perm[], char *err, size_t errn) {
    if (a->nperm == 0) {
        for (int i = 0; i < rank; i++) perm[i] = rank - 1 - i;
        return 0;
    }
    if (a->nperm != rank) return ERR("perm has %d entries for rank %d", a->nperm, rank);
    unsigned seen = 0;
    for (int i = 0; i < rank; i++) {
        int p = a->perm[i];
        if (p < -rank || p >= rank) return ERR("perm entry %d is out of range for rank %d", p, rank);
        if (p < 0) p += rank;
        if (seen & (1u << p)) return ERR("perm is not a permutation (%d repeats)", a->perm[i]);
        seen |= 1u << p;
        perm[i] = p;
    }
    return 0;
}

int ir_slice_normalize(const TensorType *in, const Attrs *a, int64_t start[], int64_t step[],
                       int64_t size[], char *err, size_t errn) {
    int rank = in->rank;
    for (int i = 0; i < rank; i++) start[i] = 0, step[i] = 1, size[i] = in->dims[i];
    if (a->nslice > rank) return ERR("slice has %d starts for rank %d", a->nslice, rank);
    if (a->has_axes && a->naxes != a->nslice)
        return ERR("slice has %d axes but %d starts", a->naxes, a->nslice);
    unsigned seen = 0;
    for (int i = 0; i < a->nslice; i++) {
        int ax = a->has_axes ? a->axes[i] : i;
        if (ax < -rank || ax >= rank) return ERR("axis %d is out of range for rank %d", ax, rank);
        if (ax < 0) ax += rank;
        if (seen & (1u << ax)) return ERR("axis %d is repeated", ax);
        seen |= 1u << ax;
        int64_t dim = in->dims[ax], s = a->starts[i], e = a->ends[i];
        int64_t st = a->has_steps ? a->steps[i] : 1;
        if (st == 0) return ERR("slice step is 0 on axis %d", ax);
        if (s < 0) s += dim;
        if (e < 0) e += dim;
        /* ceil(span / |step|) as (span - 1) / |step| + 1 in unsigned arithmetic, so that steps
         * near INT64_MIN or INT64_MAX (eager ops take them from users) cannot overflow. */
        uint64_t mag = st > 0 ? (uint64_t)st : 0 - (uint64_t)st;
        if (st > 0) {
            s = s < 0 ? 0 : s > dim ? dim : s;
            e = e < 0 ? 0 : e > dim ? dim : e;
            size[ax] = e > s ? (int64_t)((uint64_t)(e - s - 1) / mag + 1) : 0;
        } else {
            s = s < 0 ? 0 : s > dim - 1 ? dim - 1 : s; /* ONNX: starts clamp to [0, dim-1] */
            e = e < -1 ? -1 : e > dim - 1 ? dim - 1 : e;
            size[ax] = dim && s > e ? (int64_t)((uint64_t)(s - e - 1) / mag + 1) : 0; /* [0, -1]: empty */
        }
        start[ax] = size[ax] ? s : 0;
        step[ax] = st;
    }
    return 0;
}

int ir_min_arity(Op op) { return op == OP_CONV2D ? 2 : ir_ops[op].arity; }

bool ir_arity_ok(Op op, int nin, const char *noun, char *err, size_t errn) {
    int a = ir_ops[op].arity, lo = ir_min_arity(op);
    if (a < 0 && nin >= 1 && nin <= IR_MAX_INPUTS) return true;
    if (a < 0) return snprintf(err, errn, "takes 1 to %d %ss, got %d", IR_MAX_INPUTS, noun, nin), false;
    if (nin >= lo && nin <= a) return true;
    if (lo != a) return snprintf(err, errn, "takes %d or %d %ss, got %d", lo, a, noun, nin), false;
    return snprintf(err, errn, "takes %d %s%s, got %d", a, noun, a == 1 ? "" : "s", nin), false;
}

int ir_index_axis(const Attrs *a, int rank, int *axis, char *err, size_t errn) {
    if (a->axis < -rank || a->axis >= rank) return ERR("axis %d is out of range for rank %d", a->axis, rank);
    *axis = a->axis < 0 ? a->axis + rank : a->axis;
    return 0;
}

/* gather: data.shape[:axis] + indices.shape + data.shape[axis+1:] (ONNX Gather); scatter_add
 * also checks that its updates have exactly that shape. */
static int infer_index(Op op, const TensorType *in, int nin, const Attrs *at, TensorType *out, char *err,
                       size_t errn) {
    char s[256], t[256];
    const TensorType *x = &in[0], *ix = &in[1];
    for (int i = 0; i < nin; i++)
        if (in[i].weak) return ERR("needs tensor operands, got a constant as input %d", i);
    if (x->rank < 1) return ERR("data must have rank >= 1, got a rank-0 tensor");
    int ax;
    if (ir_index_axis(at, x->rank, &ax, err, errn)) return -1;
    if (!ir_dtype_is_int(ix->dtype)) return ERR("indices must be int32 or int64, got %s", ir_dtype_name(ix->dtype));
    if (x->rank - 1 + ix->rank > IR_MAX_RANK)
        return ERR("result rank %d exceeds the limit of %d", x->rank - 1 + ix->rank, IR_MAX_RANK);
    TensorType g = {0};
    for (int i = 0; i < ax; i++) g.dims[g.rank++] = x->dims[i];
    for (int i = 0; i < ix->rank; i++) g.dims[g.rank++] = ix->dims[i];
    for (int i = ax + 1; i < x->rank; i++) g.dims[g.rank++] = x->dims[i];
    if (op == OP_GATHER) {
        out->rank = g.rank;
        memcpy(out->dims, g.dims, sizeof out->dims);
        return 0;
    }
    if (!ir_shape_equal(&in[2], &g))
        return ERR("updates must have the shape of gather(data, indices, axis %d), %s, got %s", at->axis, ir_shape_str(&g, s, sizeof s),
                   ir_shape_str(&in[2], t, sizeof t));
    out->rank = x->rank;
    memcpy(out->dims, x->dims, sizeof out->dims);
    return 0;
}

/* concat: the operands' shape with the axis summed; every other axis must agree. */
static int infer_concat(const TensorType *in, int nin, const Attrs *at, TensorType *out, char *err, size_t errn) {
    char s[256], t[256];
    for (int i = 0; i < nin; i++)
        if (in[i].weak) return ERR("needs tensor operands, got a constant as input %d", i);
    if (in[0].rank < 1) return ERR("operands must have rank >= 1, got a rank-0 tensor");
    int ax;
    if (ir_index_axis(at, in[0].rank, &ax, err, errn)) return -1;
    *out = in[0];
    out->dims[ax] = 0;
    for (int i = 0; i < nin; i++) {
        bool same = in[i].rank == in[0].rank;
        for (int d = 0; same && d < in[0].rank; d++) same = d == ax || in[i].dims[d] == in[0].dims[d];
        if (!same)
            return ERR("input %d has shape %s, which does not match input 0's %s outside axis %d", i,
                       ir_shape_str(&in[i], s, sizeof s), ir_shape_str(&in[0], t, sizeof t), ax);
        out->dims[ax] += in[i].dims[ax];
    }
    return 0;
}

/* pad: each axis grows by its begin and end pads (constant mode). */
static int infer_pad(const TensorType *x, const Attrs *at, TensorType *out, char *err, size_t errn) {
    if (x->weak) return ERR("needs a tensor operand, got a constant");
    if (at->npads != 2 * x->rank)
        return ERR("\"pads\" has %d entr%s for rank %d (all begins, then all ends: %d)", at->npads, at->npads == 1 ? "y" : "ies",
                   x->rank, 2 * x->rank);
    *out = *x;
    for (int i = 0; i < x->rank; i++) {
        int64_t b = at->pads[i], e = at->pads[x->rank + i];
        if (b < 0 || e < 0 || b >= IR_MAX_DIM || e >= IR_MAX_DIM)
            return ERR("pads must be integers from 0 to 2^31-1, got %lld on axis %d", (long long)(b < 0 || b >= IR_MAX_DIM ? b : e), i);
        out->dims[i] = x->dims[i] + b + e;
    }
    return 0;
}

static int infer_matmul(const TensorType *a, const TensorType *b, TensorType *out, char *err,
                        size_t errn) {
    char sa[256], sb[256];
    if (a->rank < 1 || b->rank < 1)
        return ERR("operands must have rank >= 1, got %s x %s", ir_shape_str(a, sa, sizeof sa),
                   ir_shape_str(b, sb, sizeof sb));
    int64_t k1 = a->dims[a->rank - 1];
    int64_t k2 = b->rank == 1 ? b->dims[0] : b->dims[b->rank - 2];
    if (k1 != k2)
        return ERR("inner dimensions differ: %s x %s", ir_shape_str(a, sa, sizeof sa),
                   ir_shape_str(b, sb, sizeof sb));
    TensorType ba = {0}, bb = {0}, bo = {0};
    ba.rank = a->rank > 2 ? a->rank - 2 : 0;
    bb.rank = b->rank > 2 ? b->rank - 2 : 0;
    memcpy(ba.dims, a->dims, (size_t)ba.rank * sizeof(int64_t));
    memcpy(bb.dims, b->dims, (size_t)bb.rank * sizeof(int64_t));
    const TensorType *pair[2] = {&ba, &bb};
    char berr[512];
    if (ir_broadcast(pair, 2, &bo, berr, sizeof berr))
        return ERR("batch dimensions do not broadcast: %s x %s", ir_shape_str(a, sa, sizeof sa),
                   ir_shape_str(b, sb, sizeof sb));
    *out = bo;
    if (a->rank >= 2) out->dims[out->rank++] = a->dims[a->rank - 2];
    if (b->rank >= 2) out->dims[out->rank++] = b->dims[b->rank - 1];
    return 0;
}

static int infer_reshape(const TensorType *in, const Attrs *at, TensorType *out, char *err,
                         size_t errn) {
    char s[256];
    int64_t known = 1, total = ir_numel(in);
    int neg = -1;
    out->rank = at->nshape;
    for (int i = 0; i < at->nshape; i++) {
        int64_t d = at->shape[i];
        if (d == -1) {
            if (neg >= 0) return ERR("reshape allows one -1, got two");
            neg = i;
            continue;
        }
        if (d < 0 || d >= IR_MAX_DIM)
            return ERR("dimension %lld is out of range (0 to 2^31-1)", (long long)d);
        out->dims[i] = d;
        if (d && known > INT64_MAX / d) return ERR("reshape target is too large");
        known *= d;
    }
    if (neg >= 0) {
        if (known == 0 || total % known)
            return ERR("cannot reshape %s (%lld elements) with a -1 into a multiple of %lld",
                       ir_shape_str(in, s, sizeof s), (long long)total, (long long)known);
        out->dims[neg] = total / known;
    } else if (known != total) {
        char t[256];
        TensorType tt = *out;
        return ERR("cannot reshape %s (%lld elements) into %s (%lld elements)",
                   ir_shape_str(in, s, sizeof s), (long long)total, ir_shape_str(&tt, t, sizeof t),
                   (long long)known);
    }
    return 0;
}

static int infer_broadcast_to(const TensorType *in, const Attrs *at, TensorType *out, char *err,
                              size_t errn) {
    char s[256], t[256];
    out->rank = at->nshape;
    for (int i = 0; i < at->nshape; i++) out->dims[i] = at->shape[i];
    if (check_dims(out, err, errn)) return -1;
    bool ok = in->rank <= out->rank;
    for (int i = 0; ok && i < in->rank; i++) {
        int64_t d = in->dims[i], o = out->dims[out->rank - in->rank + i];
        ok = d == o || d == 1;
    }
    if (!ok)
        return ERR("cannot broadcast %s to %s", ir_shape_str(in, s, sizeof s),
                   ir_shape_str(out, t, sizeof t));
    return 0;
}

/* Reduction output shape: reduced axes dropped, or kept as 1 with keepdims. */
static int infer_reduce(Op op, const TensorType *in, const Attrs *at, TensorType *out, char *err,
                        size_t errn) {
    unsigned mask;
    char s[256];
    if (ir_reduce_mask(at, in->rank, &mask, err, errn)) return -1;
    if (ir_ops[op].rule == R_ARG && (!at->has_axes || at->naxes != 1))
        return ERR("takes exactly one axis in \"axes\"");
    out->rank = 0;
    for (int i = 0; i < in->rank; i++) {
        if (mask & (1u << i)) {
            if (in->dims[i] == 0 && (op == OP_MAX || op == OP_MIN || ir_ops[op].rule == R_ARG))
                return ERR("reduces an empty axis %d of %s, which has no identity", i,
                           ir_shape_str(in, s, sizeof s));
            if (at->keepdims) out->dims[out->rank++] = 1;
        } else {
            out->dims[out->rank++] = in->dims[i];
        }
    }
    return 0;
}

bool ir_type_symbolic(const TensorType *t) {
    for (int i = 0; i < t->rank; i++)
        if (t->sym[i]) return true;
    return false;
}

/* The symbolic marks of the output axes of a broadcast over operands in (right-aligned), from
 * axis `from` of each for `rank` axes into out->sym[at..]: an axis is symbolic when an operand's
 * is; others there must be the same symbol or a static 1 (a static size equal to the bound is
 * another size, not the symbol). */
static int sym_broadcast(const TensorType *const *in, const int *ranks, int n, int rank, TensorType *out, int at,
                         char *err, size_t errn) {
    for (int d = 0; d < rank; d++) {
        int s = 0;
        int64_t fixed = -1;
        for (int i = 0; i < n; i++) {
            int k = d - (rank - ranks[i]);
            if (k < 0 || in[i]->weak) continue;
            if (in[i]->sym[k]) {
                if (s && s != in[i]->sym[k]) return ERR("axis %d meets two different symbolic dimensions", at + d);
                s = in[i]->sym[k];
            } else if (in[i]->dims[k] != 1) {
                fixed = in[i]->dims[k];
            }
        }
        if (s && fixed >= 0)
            return ERR("axis %d meets a symbolic dimension and the static size %lld; a symbolic dimension only "
                       "broadcasts with itself or 1", at + d, (long long)fixed);
        out->sym[at + d] = (unsigned char)s;
    }
    return 0;
}

/* The symbolic marks of op's result (TensorType.sym; docs/graph-format.md §3.1), its shape
 * already inferred with every symbolic size at its bound. Where an op cannot follow a symbolic
 * dimension, an error saying so. */
static int infer_sym(Op op, const TensorType *in, int nin, const Attrs *at, TensorType *out, char *err, size_t errn) {
    memset(out->sym, 0, sizeof out->sym);
    if (op == OP_FULL || op == OP_BROADCAST_TO) /* the compiler's own: shape at the bound */
        for (int i = 0; i < out->rank; i++) out->sym[i] = at->shape_sym[i];
    bool any = false;
    for (int i = 0; i < nin; i++) any = any || (!in[i].weak && ir_type_symbolic(&in[i]));
    if (!any) return 0;
    const OpInfo *info = &ir_ops[op];
    const TensorType *ptr[IR_MAX_INPUTS];
    int ranks[IR_MAX_INPUTS];
    for (int i = 0; i < nin; i++) ptr[i] = &in[i], ranks[i] = in[i].rank;
    switch (info->kind) {
    case K_ELEMWISE: {
        int r = op == OP_ONE_HOT ? out->rank - 1 : out->rank;
        return sym_broadcast(ptr, ranks, nin, r, out, 0, err, errn);
    }
    case K_REDUCE: {
        unsigned mask;
        if (ir_reduce_mask(at, in[0].rank, &mask, err, errn)) return -1;
        for (int i = 0, o = 0; i < in[0].rank; i++) {
            if (!(mask & (1u << i))) out->sym[o++] = in[0].sym[i];
            else if (at->keepdims) out->sym[o++] = 0;
        }
        return 0;
    }
    case K_MATMUL: {
        const TensorType *a = &in[0], *b = &in[1];
        int ka = a->sym[a->rank - 1], kb = b->rank == 1 ? b->sym[0] : b->sym[b->rank - 2];
        if (ka != kb) return ERR("inner dimensions differ: one is symbolic, the other %s", ka && kb ? "another symbol" : "static");
        int nb = out->rank - (a->rank >= 2) - (b->rank >= 2);
        int br[2] = {a->rank > 2 ? a->rank - 2 : 0, b->rank > 2 ? b->rank - 2 : 0};
        if (nb > 0 && sym_broadcast(ptr, br, 2, nb, out, 0, err, errn)) return -1;
        int o = nb;
        if (a->rank >= 2) out->sym[o++] = a->sym[a->rank - 2];
        if (b->rank >= 2) out->sym[o++] = b->sym[b->rank - 1];
        return 0;
    }
    case K_VIEW:
        if (op == OP_TRANSPOSE) {
            int perm[IR_MAX_RANK];
            if (ir_transpose_perm(at, in[0].rank, perm, err, errn)) return -1;
            for (int i = 0; i < in[0].rank; i++) out->sym[i] = in[0].sym[perm[i]];
            return 0;
        }
        if (op == OP_BROADCAST_TO) {
            int lead = out->rank - in[0].rank;
            for (int i = 0; i < in[0].rank; i++)
                if (in[0].sym[i]) out->sym[lead + i] = in[0].sym[i];
            return 0;
        }
        if (op == OP_SLICE) {
            int64_t st[IR_MAX_RANK], sp[IR_MAX_RANK], sz[IR_MAX_RANK];
            if (ir_slice_normalize(&in[0], at, st, sp, sz, err, errn)) return -1;
            for (int i = 0; i < in[0].rank; i++) {
                if (in[0].sym[i] && (st[i] != 0 || sp[i] != 1 || sz[i] != in[0].dims[i]))
                    return ERR("slices axis %d, which is symbolic; only whole symbolic axes are taken", i);
                out->sym[i] = in[0].sym[i];
            }
            return 0;
        }
        /* reshape: the leading symbolic axis stays the leading axis, the others regroup */
        for (int i = 1; i < in[0].rank; i++)
            if (in[0].sym[i]) return ERR("reshapes a value whose axis %d is symbolic; only a leading symbolic axis reshapes", i);
        if (out->rank < 1 || out->dims[0] != in[0].dims[0])
            return ERR("would merge or split the symbolic axis 0; reshape may change only the axes after it");
        out->sym[0] = in[0].sym[0];
        return 0;
    case K_INDEX:
        if (op == OP_DROPOUT) {
            memcpy(out->sym, in[0].sym, sizeof out->sym);
            return 0;
        }
        if (op == OP_CONCAT) {
            int ax;
            if (ir_index_axis(at, in[0].rank, &ax, err, errn)) return -1;
            for (int d = 0; d < in[0].rank; d++) {
                for (int i = 1; i < nin; i++)
                    if (in[i].sym[d] != in[0].sym[d]) return ERR("input %d's axis %d is %s where input 0's is not", i, d,
                                                                  in[i].sym[d] ? "symbolic" : "static");
                if (d == ax && in[0].sym[d]) return ERR("concatenates along axis %d, which is symbolic", d);
                out->sym[d] = in[0].sym[d];
            }
            return 0;
        }
        if (op == OP_PAD) {
            for (int i = 0; i < in[0].rank; i++) {
                if (in[0].sym[i] && (at->pads[i] || at->pads[in[0].rank + i])) return ERR("pads axis %d, which is symbolic", i);
                out->sym[i] = in[0].sym[i];
            }
            return 0;
        }
        return ERR("does not take values with a symbolic dimension");
    default: return ERR("does not take values with a symbolic dimension");
    }
}

int ir_infer_op(Op op, const TensorType *in, int nin, const Attrs *at, TensorType *out,
                char *err, size_t errn) {
    const OpInfo *info = &ir_ops[op];
    memset(out, 0, sizeof *out);
    if (!ir_arity_ok(op, nin, "operand", err, errn)) return -1;
    bool all_weak = nin > 0;
    for (int i = 0; i < nin; i++) all_weak = all_weak && in[i].weak;
    if (all_weak) return ERR("needs at least one tensor operand, got only constants");

    /* dtype */
    bool weak;
    DType t = nin ? promote_all(in, nin, &weak) : DT_FLOAT32;
    switch (info->rule) {
    case R_INPUT: return ERR("internal: inputs carry their own type");
    case R_FULL: t = at->has_dtype ? at->dtype : DT_FLOAT32; break;
    case R_ARITH: if (t == DT_BOOL) t = DT_INT32; break;
    case R_DIV: if (!ir_dtype_is_float(t)) t = DT_FLOAT32; break;
    case R_CMP: t = DT_BOOL; break;
    case R_SIGNED: if (t == DT_BOOL) t = DT_INT32; break;
    case R_FLOAT: if (!ir_dtype_is_float(t)) t = DT_FLOAT32; break;
    case R_WHERE:
        if (in[0].dtype != DT_BOOL || in[0].weak)
            return ERR("condition must be a bool tensor, got %s", in[0].weak ? "a constant"
                                                                            : ir_dtype_name(in[0].dtype));
        t = promote_all(in + 1, 2, NULL);
        break;
    case R_CLAMP: if (t == DT_BOOL) t = DT_INT32; break;
    case R_CAST:
        if (!at->has_dtype) return ERR("needs \"dtype\"");
        t = at->dtype;
        break;
    case R_ONE_HOT:
        if (in[0].dtype != DT_INT32 && in[0].dtype != DT_INT64)
            return ERR("indices must be int32 or int64, got %s", ir_dtype_name(in[0].dtype));
        if (at->depth <= 0 || at->depth >= IR_MAX_DIM)
            return ERR("depth %lld is out of range (1 to 2^31-1)", (long long)at->depth);
        t = at->has_dtype ? at->dtype : DT_FLOAT32;
        break;
    case R_SUM: if (!ir_dtype_is_float(t)) t = DT_INT64; break;
    case R_MEAN: if (!ir_dtype_is_float(t)) t = DT_FLOAT32; break;
    case R_SAME: break;
    case R_ARG: t = DT_INT64; break;
    case R_GATHER: t = in[0].dtype; break;
    case R_CONCAT: break; /* the promotion of all operands, bool staying bool */
    case R_SCATTER:
        if (in[0].dtype == DT_BOOL && !in[0].weak) return ERR("data must not be bool (a sum of bools is not a bool)");
        /* the dtypes every backend accumulates in (atomics on CUDA): the eager op and a compiled
         * graph accept the same ones (found by tests/fuzz/fuzz_runtime.c) */
        if (!in[0].weak && in[0].dtype != DT_INT32 && in[0].dtype != DT_INT64 && !ir_dtype_is_float(in[0].dtype))
            return ERR("data must be int32, int64, float32 or float64, got %s; cast it first", ir_dtype_name(in[0].dtype));
        t = ir_promote(in[0].dtype, in[0].weak, in[2].dtype, in[2].weak);
        if (t == DT_BOOL) t = DT_INT32;
        if (t != in[0].dtype && !in[0].weak)
            return ERR("updates (%s) would change the dtype of data (%s); cast them first", ir_dtype_name(in[2].dtype),
                       ir_dtype_name(in[0].dtype));
        break;
    case R_DROPOUT: {
        char s[256];
        if (in[0].weak) return ERR("x must be a float32 or float64 tensor, got a constant");
        if (!ir_dtype_is_float(in[0].dtype)) return ERR("x must be float32 or float64, got %s", ir_dtype_name(in[0].dtype));
        if (in[1].weak) return ERR("seed must be a rank-0 int64 tensor (a new one each step), got a constant");
        if (in[1].dtype != DT_INT64 || in[1].rank != 0)
            return ERR("seed must be a rank-0 int64 tensor (a new one each step), got %s %s", ir_dtype_name(in[1].dtype),
                       ir_shape_str(&in[1], s, sizeof s));
        if (!(at->ratio >= 0 && at->ratio < 1)) return ERR("ratio must be at least 0 and less than 1");
        t = in[0].dtype;
        break;
    }
    case R_MATMUL:
        if (!ir_dtype_is_float(t))
            return ERR("needs float32 or float64 operands, got %s and %s",
                       ir_dtype_name(in[0].dtype), ir_dtype_name(in[1].dtype));
        break;
    }

    /* shape */
    int rc = 0;
    switch (info->kind) {
    case K_SOURCE:
        out->rank = at->nshape;
        for (int i = 0; i < at->nshape; i++) out->dims[i] = at->shape[i];
        break;
    case K_ELEMWISE: {
        const TensorType *ptr[IR_MAX_INPUTS];
        for (int i = 0; i < nin; i++) ptr[i] = &in[i];
        rc = ir_broadcast(ptr, nin, out, err, errn);
        if (rc == 0 && op == OP_ONE_HOT) {
            if (out->rank >= IR_MAX_RANK) return ERR("rank %d exceeds the limit of %d", out->rank + 1, IR_MAX_RANK);
            out->dims[out->rank++] = at->depth;
        }
        break;
    }
    case K_REDUCE: rc = infer_reduce(op, &in[0], at, out, err, errn); break;
    case K_MATMUL: rc = infer_matmul(&in[0], &in[1], out, err, errn); break;
    case K_INDEX:
        rc = op == OP_CONCAT ? infer_concat(in, nin, at, out, err, errn)
             : op == OP_PAD  ? infer_pad(&in[0], at, out, err, errn)
             : op == OP_DROPOUT ? (*out = in[0], 0)
                             : infer_index(op, in, nin, at, out, err, errn);
        break;
    case K_COMPOSITE: /* the JSON reader and the front-ends expand them first (ir/composite.c) */
        return ERR("internal: %s is a composite op, expanded into primitives when a graph is loaded", info->name);
    case K_VIEW:
        if (in[0].weak) return ERR("needs a tensor operand, got a constant");
        switch (op) {
        case OP_RESHAPE: rc = infer_reshape(&in[0], at, out, err, errn); break;
        case OP_BROADCAST_TO: rc = infer_broadcast_to(&in[0], at, out, err, errn); break;
        case OP_TRANSPOSE: {
            int perm[IR_MAX_RANK];
            rc = ir_transpose_perm(at, in[0].rank, perm, err, errn);
            out->rank = in[0].rank;
            for (int i = 0; !rc && i < in[0].rank; i++) out->dims[i] = in[0].dims[perm[i]];
            break;
        }
        case OP_SLICE: {
            int64_t st[IR_MAX_RANK], sp[IR_MAX_RANK];
            rc = ir_slice_normalize(&in[0], at, st, sp, out->dims, err, errn);
            out->rank = in[0].rank;
            break;
        }
        default: return ERR("internal: unknown view op");
        }
        break;
    }
    if (rc || (rc = infer_sym(op, in, nin, at, out, err, errn))) return rc;
    out->dtype = t;
    out->weak = false;
    return check_dims(out, err, errn);
}

DType ir_compute_dtype(Op op, const TensorType *in, int nin, const TensorType *out) {
    switch (ir_ops[op].rule) {
    case R_CMP: return promote_all(in, nin, NULL);
    case R_ONE_HOT: case R_ARG: return in[0].dtype;
    default: return out->dtype;
    }
}
