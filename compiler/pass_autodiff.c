/* compiler/pass_autodiff.c: the autodiff pass. Reverse-mode differentiation of a scalar loss
 * over the v1 op set (a gradient rule per differentiable op; broadcasting undone by summing over
 * the broadcast axes), then the optimizer update (compiler/optim.c) and the training step's
 * outputs and donations. Simplify cleans up what the rules generate. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "autodiff.h"
#include "optim.h"
#include "util.h"

/* ---- helpers for the rules ------------------------------------------------------------------- */

static const TensorType *type_of(Builder *b, NodeId id) { return &b->g->nodes[id].type; }

/* Undoes broadcasting: c (of a broadcast result's shape, or one that broadcasts to it) summed
 * over the axes that operand type x was broadcast along and converted to x's dtype. The result
 * broadcasts to x's shape but may be smaller (a gradient kept "pending": see materialize). */
static NodeId unbroadcast(Builder *b, const char *want, NodeId c, const TensorType *x) {
    if (c < 0) return -1;
    TensorType tc = *type_of(b, c);
    int lead = tc.rank - x->rank;
    unsigned mask = 0;
    for (int i = 0; i < tc.rank; i++)
        if (i < lead || (i - lead >= 0 && x->dims[i - lead] == 1 && tc.dims[i] != 1)) mask |= 1u << i;
    unsigned inner = lead > 0 ? mask >> lead : mask; /* summed axes that x has (as size 1) */
    if (mask) c = ad_reduce(b, want, OP_SUM, c, mask, inner != 0 && lead <= 0);
    if (c >= 0 && inner && lead > 0) { /* put back the size-1 axes of x */
        int64_t dims[IR_MAX_RANK];
        for (int i = 0; i < x->rank; i++) dims[i] = (inner & (1u << i)) ? 1 : tc.dims[i + lead];
        c = ad_reshape(b, want, c, x->rank, dims);
    }
    return ad_cast(b, want, c, x->dtype);
}

/* A gradient with exactly the shape of type t (pending ones are broadcast to it). */
static NodeId materialize(Builder *b, const char *want, NodeId c, const TensorType *t) {
    return ad_broadcast(b, want, c, t);
}

/* The keepdims shape of a reduction: its input's shape with the reduced axes as 1. */
static void kept_shape(const TensorType *in, unsigned mask, TensorType *out) {
    *out = *in;
    for (int i = 0; i < in->rank; i++)
        if (mask & (1u << i)) out->dims[i] = 1;
}

/* Why an op on the path has no gradient, or NULL when it has one. */
static const char *no_gradient(const Graph *g, const Node *n) {
    switch (ir_ops[n->op].rule) {
    case R_CMP: return "a comparison gives bool, which has no gradient";
    case R_ARG: return "argmax/argmin give int64 indices, which have no gradient";
    case R_ONE_HOT: return "one_hot reads integer indices, which have no gradient";
    default: break;
    }
    if (n->op == OP_SLICE) {
        int64_t st[IR_MAX_RANK], sp[IR_MAX_RANK], sz[IR_MAX_RANK];
        char err[256];
        const TensorType *x = &g->nodes[n->in[0].id].type;
        if (ir_slice_normalize(x, &n->attrs, st, sp, sz, err, sizeof err)) return "invalid slice";
        for (int i = 0; i < x->rank; i++) {
            if ((sp[i] > 1 || sp[i] < -1) && sz[i] > 1 && x->rank == IR_MAX_RANK)
                return "the gradient of a slice with a step other than 1 or -1 needs a rank below the limit (it "
                       "spreads the gradient through one more axis); list the slice in \"stop_gradient\"";
        }
    }
    if (!ir_dtype_is_float(n->type.dtype)) return "its result is not a float, so it has no gradient";
    return NULL;
}

/* ---- gradient rules --------------------------------------------------------------------------- */

/* Contributions of node y (with gradient gy) to its operands: con[k] in the operand's shape and
 * dtype, or -1 for none (a constant, an inactive operand, a zero gradient). */
static void rule(Builder *b, NodeId y, NodeId gy, const bool *active, NodeId con[IR_MAX_INPUTS]) {
    Graph *g = b->g;
    Node n = g->nodes[y]; /* a copy: appending nodes moves the array */
    char w[IR_MAX_NAME + 8];
    snprintf(w, sizeof w, "bw_%.*s", IR_MAX_NAME - 8, n.name);
    Operand G = ad_v(gy), Y = ad_v(y), A = n.in[0], B = n.in[1], C3 = n.in[2];
    TensorType tin[IR_MAX_INPUTS];
    bool act[IR_MAX_INPUTS];
    for (int k = 0; k < IR_MAX_INPUTS; k++) {
        con[k] = -1;
        act[k] = k < n.ninputs && n.in[k].id >= 0 && active[n.in[k].id];
        if (k < n.ninputs) tin[k] = graph_operand_type(g, &n.in[k]);
    }
    NodeId c[IR_MAX_INPUTS]; /* in y's shape, before unbroadcasting */
    for (int k = 0; k < IR_MAX_INPUTS; k++) c[k] = -1;
    /* Elementwise rules broadcast a pending (smaller) gradient themselves; others need y's shape. */
    if (ir_ops[n.op].kind != K_ELEMWISE && n.op != OP_BROADCAST_TO) {
        gy = materialize(b, w, gy, &n.type);
        G = ad_v(gy);
    }
    switch (n.op) {
    case OP_ADD: c[0] = gy, c[1] = gy; break;
    case OP_SUB:
        c[0] = gy;
        if (act[1]) c[1] = ad_un(b, w, OP_NEG, G);
        break;
    case OP_MUL:
        if (act[0]) c[0] = ad_bin(b, w, OP_MUL, G, B);
        if (act[1]) c[1] = ad_bin(b, w, OP_MUL, G, A);
        break;
    case OP_DIV:
        if (act[0]) c[0] = ad_bin(b, w, OP_DIV, G, B);
        if (act[1]) /* -g * a / b^2 = -(g * y) / b */
            c[1] = ad_un(b, w, OP_NEG, ad_v(ad_bin(b, w, OP_DIV, ad_v(ad_bin(b, w, OP_MUL, G, Y)), B)));
        break;
    case OP_POW:
        if (act[0]) { /* g * b * a^(b-1) */
            Operand bm1 = B.id < 0 ? ad_c(B.value - 1) : ad_v(ad_bin(b, w, OP_SUB, B, ad_c(1)));
            Operand p = B.id < 0 && B.value == 2 ? A : ad_v(ad_bin(b, w, OP_POW, A, bm1)); /* a^1 = a */
            c[0] = ad_bin(b, w, OP_MUL, G, ad_v(ad_bin(b, w, OP_MUL, B, p)));
        }
        if (act[1] && A.id < 0) { /* a constant base: log(a) known here */
            if (A.value != 0) c[1] = ad_bin(b, w, OP_MUL, ad_v(ad_bin(b, w, OP_MUL, G, Y)), ad_c(log(A.value)));
        } else if (act[1]) { /* g * y * log(a), 0 where a == 0 (as PyTorch: 0^b has no log) */
            NodeId t = ad_bin(b, w, OP_MUL, ad_v(ad_bin(b, w, OP_MUL, G, Y)), ad_v(ad_un(b, w, OP_LOG, A)));
            NodeId z = ad_bin(b, w, OP_EQ, A, ad_c(0));
            c[1] = ad_tri(b, w, OP_WHERE, ad_v(z), ad_c(0), ad_v(t));
        }
        break;
    case OP_MAXIMUM: case OP_MINIMUM: {
        /* As PyTorch: the larger (smaller) operand gets g, ties split it evenly. */
        NodeId eq = ad_bin(b, w, OP_EQ, A, B);
        NodeId h = ad_tri(b, w, OP_WHERE, ad_v(eq), ad_v(ad_bin(b, w, OP_MUL, G, ad_c(0.5))), G);
        Op lose_a = n.op == OP_MAXIMUM ? OP_LT : OP_GT, lose_b = n.op == OP_MAXIMUM ? OP_GT : OP_LT;
        if (act[0]) c[0] = ad_tri(b, w, OP_WHERE, ad_v(ad_bin(b, w, lose_a, A, B)), ad_c(0), ad_v(h));
        if (act[1]) c[1] = ad_tri(b, w, OP_WHERE, ad_v(ad_bin(b, w, lose_b, A, B)), ad_c(0), ad_v(h));
        break;
    }
    case OP_NEG: c[0] = ad_un(b, w, OP_NEG, G); break;
    case OP_ABS: c[0] = ad_bin(b, w, OP_MUL, G, ad_v(ad_un(b, w, OP_SIGN, A))); break;
    case OP_EXP: c[0] = ad_bin(b, w, OP_MUL, G, Y); break;
    case OP_LOG: c[0] = ad_bin(b, w, OP_DIV, G, A); break;
    case OP_SQRT: c[0] = ad_bin(b, w, OP_DIV, G, ad_v(ad_bin(b, w, OP_MUL, Y, ad_c(2)))); break;
    case OP_RSQRT: /* -0.5 * g * y / a */
        c[0] = ad_bin(b, w, OP_MUL, ad_v(ad_bin(b, w, OP_DIV, ad_v(ad_bin(b, w, OP_MUL, G, Y)), A)), ad_c(-0.5));
        break;
    case OP_SIN: c[0] = ad_bin(b, w, OP_MUL, G, ad_v(ad_un(b, w, OP_COS, A))); break;
    case OP_COS: c[0] = ad_un(b, w, OP_NEG, ad_v(ad_bin(b, w, OP_MUL, G, ad_v(ad_un(b, w, OP_SIN, A))))); break;
    case OP_TAN: /* g * (1 + y^2) */
        c[0] = ad_bin(b, w, OP_MUL, G, ad_v(ad_bin(b, w, OP_ADD, ad_c(1), ad_v(ad_bin(b, w, OP_MUL, Y, Y)))));
        break;
    case OP_TANH: /* g * (1 - y^2) */
        c[0] = ad_bin(b, w, OP_MUL, G, ad_v(ad_bin(b, w, OP_SUB, ad_c(1), ad_v(ad_bin(b, w, OP_MUL, Y, Y)))));
        break;
    case OP_ERF: /* g * 2/sqrt(pi) * exp(-x^2) */
        c[0] = ad_bin(b, w, OP_MUL, G,
                      ad_v(ad_bin(b, w, OP_MUL, ad_v(ad_un(b, w, OP_EXP, ad_v(ad_un(b, w, OP_NEG, ad_v(ad_bin(b, w, OP_MUL, A, A)))))),
                                  ad_c(1.1283791670955126))));
        break;
    case OP_SIGMOID: /* g * y * (1 - y) */
        c[0] = ad_bin(b, w, OP_MUL, ad_v(ad_bin(b, w, OP_MUL, G, Y)), ad_v(ad_bin(b, w, OP_SUB, ad_c(1), Y)));
        break;
    case OP_RELU:
        /* As PyTorch: g where the input is > 0, tested on the output (y > 0 exactly where a > 0,
         * NaN and -0 included: relu keeps both), so a step that computes relu(x W + b) keeps y
         * only, and cuBLASLt's RELU_BIAS epilogue can write it without the sum beside it. */
        c[0] = ad_tri(b, w, OP_WHERE, ad_v(ad_bin(b, w, OP_GT, Y, ad_c(0))), G, ad_c(0));
        break;
    case OP_FLOOR: case OP_CEIL: case OP_ROUND: case OP_SIGN: break; /* zero almost everywhere */
    case OP_WHERE:
        if (act[1]) c[1] = ad_tri(b, w, OP_WHERE, A, G, ad_c(0));
        if (act[2]) c[2] = ad_tri(b, w, OP_WHERE, A, ad_c(0), G);
        break;
    case OP_CLAMP:
        /* As PyTorch: x gets g where lo <= x <= hi; lo where x < lo and lo < hi; hi where x > hi
         * or hi < lo (clamp gives hi when lo > hi). */
        if (act[0])
            c[0] = ad_tri(b, w, OP_WHERE, ad_v(ad_bin(b, w, OP_GE, A, B)),
                          ad_v(ad_tri(b, w, OP_WHERE, ad_v(ad_bin(b, w, OP_LE, A, C3)), G, ad_c(0))), ad_c(0));
        if (act[1])
            c[1] = ad_tri(b, w, OP_WHERE, ad_v(ad_bin(b, w, OP_LT, A, B)),
                          ad_v(ad_tri(b, w, OP_WHERE, ad_v(ad_bin(b, w, OP_LT, B, C3)), G, ad_c(0))), ad_c(0));
        if (act[2])
            c[2] = ad_tri(b, w, OP_WHERE, ad_v(ad_bin(b, w, OP_GT, A, C3)), G,
                          ad_v(ad_tri(b, w, OP_WHERE, ad_v(ad_bin(b, w, OP_LT, C3, B)), G, ad_c(0))));
        break;
    case OP_CAST: c[0] = gy; break; /* unbroadcast converts it back */
    case OP_SUM: case OP_MEAN: case OP_MAX: case OP_MIN: case OP_PROD: {
        unsigned mask;
        char err[256];
        ir_reduce_mask(&n.attrs, tin[0].rank, &mask, err, sizeof err);
        TensorType kept;
        kept_shape(&tin[0], mask, &kept);
        NodeId gk = ad_reshape(b, w, gy, kept.rank, kept.dims);
        if (n.op == OP_SUM) { /* left pending: consumers broadcast it */
            c[0] = gk;
        } else if (n.op == OP_MEAN) {
            int64_t cnt = 1;
            bool sym = false;
            for (int i = 0; i < tin[0].rank; i++)
                if (mask & (1u << i)) cnt *= tin[0].dims[i], sym = sym || tin[0].sym[i];
            if (sym) { /* a symbolic axis: the count of this run, the sum of ones over x's reduced axes */
                NodeId ones = ad_bin(b, w, OP_POW, A, ad_c(0));
                c[0] = ad_bin(b, w, OP_DIV, ad_v(gk), ad_v(ad_reduce(b, w, OP_SUM, ones, mask, true)));
            } else {
                c[0] = ad_bin(b, w, OP_DIV, ad_v(gk), ad_c((double)cnt));
            }
        } else if (n.op == OP_PROD) { /* g * y / x (inputs with zeros are not handled exactly) */
            NodeId yk = ad_reshape(b, w, y, kept.rank, kept.dims);
            c[0] = ad_bin(b, w, OP_DIV, ad_v(ad_bin(b, w, OP_MUL, ad_v(gk), ad_v(yk))), A);
        } else { /* as PyTorch's amax/amin: g * (x == y) / count of ties */
            NodeId yk = ad_reshape(b, w, y, kept.rank, kept.dims);
            NodeId m = ad_cast(b, w, ad_bin(b, w, OP_EQ, A, ad_v(yk)), n.type.dtype);
            NodeId cnt = ad_reduce(b, w, OP_SUM, m, mask, true);
            c[0] = ad_bin(b, w, OP_MUL, ad_v(m), ad_v(ad_bin(b, w, OP_DIV, ad_v(gk), ad_v(cnt))));
        }
        break;
    }
    case OP_MATMUL: {
        /* As 2-D (batched) matmuls: a [..., M, k] (M = 1 for a vector), b [..., k, N] (N = 1),
         * g [..., M, N]; da = g @ b^T, db = a^T @ g, then summed over broadcast batch axes. */
        const TensorType *ta = &tin[0], *tb = &tin[1], *ty = &n.type;
        int64_t k = ta->dims[ta->rank - 1];
        NodeId a2 = A.id, b2 = B.id;
        if (ta->rank == 1) a2 = ad_reshape(b, w, a2, 2, (int64_t[]){1, k});
        if (tb->rank == 1) b2 = ad_reshape(b, w, b2, 2, (int64_t[]){k, 1});
        TensorType tg = *ty;
        if (ta->rank == 1) { /* insert M = 1 before the last axis (or at the end) */
            int pos = tb->rank == 1 ? tg.rank : tg.rank - 1;
            for (int i = tg.rank; i > pos; i--) tg.dims[i] = tg.dims[i - 1];
            tg.dims[pos] = 1, tg.rank++;
        }
        if (tb->rank == 1) tg.dims[tg.rank++] = 1;
        NodeId g2 = ad_reshape(b, w, gy, tg.rank, tg.dims);
        if (b->failed) break;
        if (act[0]) {
            const TensorType *t2 = type_of(b, b2);
            int perm[IR_MAX_RANK];
            for (int i = 0; i < t2->rank; i++) perm[i] = i;
            perm[t2->rank - 2] = t2->rank - 1, perm[t2->rank - 1] = t2->rank - 2;
            NodeId bt = ad_transpose(b, w, b2, perm, t2->rank);
            c[0] = ad_bin(b, w, OP_MATMUL, ad_v(g2), ad_v(bt)); /* [..., M, k] */
        }
        if (act[1] && !b->failed) {
            const TensorType *t2 = type_of(b, a2);
            int perm[IR_MAX_RANK];
            for (int i = 0; i < t2->rank; i++) perm[i] = i;
            perm[t2->rank - 2] = t2->rank - 1, perm[t2->rank - 1] = t2->rank - 2;
            NodeId at = ad_transpose(b, w, a2, perm, t2->rank);
            NodeId db = ad_bin(b, w, OP_MATMUL, ad_v(at), ad_v(g2)); /* [..., k, N] */
            if (tb->rank == 1 && db >= 0) { /* drop N = 1 so that k lines up with b's axis */
                TensorType t = *type_of(b, db);
                db = ad_reshape(b, w, db, t.rank - 1, t.dims);
            }
            c[1] = db;
        }
        break;
    }
    case OP_RESHAPE: c[0] = ad_reshape(b, w, gy, tin[0].rank, tin[0].dims); break;
    case OP_TRANSPOSE: {
        int perm[IR_MAX_RANK], inv[IR_MAX_RANK];
        char err[256];
        ir_transpose_perm(&n.attrs, tin[0].rank, perm, err, sizeof err);
        bool ident = true;
        for (int i = 0; i < tin[0].rank; i++) inv[perm[i]] = i, ident = ident && perm[i] == i;
        c[0] = ident ? gy : ad_transpose(b, w, gy, inv, tin[0].rank);
        break;
    }
    case OP_BROADCAST_TO: c[0] = gy; break; /* unbroadcast sums it back */
    case OP_SLICE: { /* zeros around g: a pad; a step s > 1 first spreads g with s-1 zeros
                      * after each element (reshape [.., n, 1, ..], pad, reshape [.., n*s, ..]);
                      * a negative step first reverses g along that axis, which makes it the
                      * slice with step -s from the last element it picked */
        int64_t st[IR_MAX_RANK], sp[IR_MAX_RANK], sz[IR_MAX_RANK];
        char err[256];
        int rank = tin[0].rank;
        ir_slice_normalize(&tin[0], &n.attrs, st, sp, sz, err, sizeof err);
        Attrs pa = {.npads = 2 * rank};
        bool same = true;
        NodeId cur = gy;
        int64_t dims[IR_MAX_RANK];
        memcpy(dims, n.type.dims, sizeof dims);
        for (int i = 0; i < rank; i++) {
            int64_t span = sz[i];
            if (sp[i] < 0 && sz[i] > 1) {
                Attrs rv = {.nslice = 1, .has_axes = true, .naxes = 1, .axes = {i}, .starts = {-1},
                            .ends = {INT64_MIN}, .steps = {-1}, .has_steps = true};
                Operand co = ad_v(cur);
                cur = ad_node(b, w, OP_SLICE, 1, &co, &rv);
                st[i] += (sz[i] - 1) * sp[i];
                sp[i] = -sp[i];
            }
            if (sp[i] > 1 && sz[i] > 1) {
                int64_t d1[IR_MAX_RANK];
                for (int k = 0, j = 0; k < rank; k++) {
                    d1[j++] = dims[k];
                    if (k == i) d1[j++] = 1;
                }
                cur = ad_reshape(b, w, cur, rank + 1, d1);
                Attrs p1 = {.npads = 2 * (rank + 1)};
                p1.pads[rank + 1 + i + 1] = sp[i] - 1;
                Operand co = ad_v(cur);
                cur = ad_node(b, w, OP_PAD, 1, &co, &p1);
                dims[i] = sz[i] * sp[i];
                cur = ad_reshape(b, w, cur, rank, dims);
                span = (sz[i] - 1) * sp[i] + 1;
                Attrs s1 = {.nslice = 1, .has_axes = true, .naxes = 1, .axes = {i}, .ends = {span}};
                co = ad_v(cur);
                cur = ad_node(b, w, OP_SLICE, 1, &co, &s1);
                dims[i] = span;
            }
            pa.pads[i] = sz[i] ? st[i] : 0;
            pa.pads[rank + i] = tin[0].dims[i] - pa.pads[i] - span;
            same = same && span == tin[0].dims[i];
        }
        Operand co = ad_v(cur);
        c[0] = same ? cur : ad_node(b, w, OP_PAD, 1, &co, &pa);
        break;
    }
    case OP_DROPOUT: /* the same mask (same seed, same positions) and scale: dropout of g */
        c[0] = ad_node(b, w, OP_DROPOUT, 2, (Operand[]){G, B}, &n.attrs);
        break;
    case OP_PAD: { /* the interior of g */
        Attrs sa = {.nslice = tin[0].rank};
        for (int i = 0; i < tin[0].rank; i++) sa.starts[i] = n.attrs.pads[i], sa.ends[i] = n.attrs.pads[i] + tin[0].dims[i];
        c[0] = ad_node(b, w, OP_SLICE, 1, &G, &sa);
        break;
    }
    case OP_GATHER: { /* the adjoint: g scattered (added) into zeros where the indices read */
        const TensorType *td = &tin[0];
        NodeId z = ad_full(b, w, 0, n.type.dtype, td->rank, td->dims);
        Operand ops[3] = {ad_v(z), B, G};
        c[0] = ad_node(b, w, OP_SCATTER_ADD, 3, ops, &n.attrs);
        break;
    }
    case OP_CONCAT: { /* each operand: its slice of g along the axis */
        Attrs sa = {.has_axes = true, .naxes = 1, .nslice = 1};
        char aerr[96];
        ir_index_axis(&n.attrs, n.type.rank, &sa.axes[0], aerr, sizeof aerr);
        for (int k = 0; k < n.ninputs; k++) {
            sa.ends[0] = sa.starts[0] + tin[k].dims[sa.axes[0]];
            if (act[k]) c[k] = ad_node(b, w, OP_SLICE, 1, &G, &sa);
            sa.starts[0] = sa.ends[0];
        }
        break;
    }
    case OP_SCATTER_ADD: { /* data: g itself; updates: g gathered where they were added */
        c[0] = gy;
        Operand ops[2] = {G, B};
        if (act[2]) c[2] = ad_node(b, w, OP_GATHER, 2, ops, &n.attrs);
        break;
    }
    default: break;
    }
    for (int k = 0; k < n.ninputs; k++)
        if (act[k] && c[k] >= 0) con[k] = unbroadcast(b, w, c[k], &tin[k]);
}

/* Whether operand k of op carries a gradient (where's condition, indices and what
 * stop_gradient holds do not). */
static bool carries(Op op, int k) {
    return op != OP_STOP_GRADIENT && !(op == OP_WHERE && k == 0) && !(op == OP_DROPOUT && k == 1) && !((op == OP_GATHER || op == OP_SCATTER_ADD) && k == 1); /* indices */
}

int autodiff_grads(Builder *b, NodeId loss, const NodeId *params, int np, const NodeId *stop,
                   int nstop, NodeId *grads, bool *unreached) {
    Graph *g = b->g;
    int n = g->nnodes;
    bool *active = calloc((size_t)n + 1, sizeof *active), *need = calloc((size_t)n + 1, sizeof *need);
    bool *stopped = calloc((size_t)n + 1, sizeof *stopped);
    NodeId *grad = malloc(((size_t)n + 1) * sizeof *grad);
    if (!active || !need || !stopped || !grad) abort();
    for (int i = 0; i < nstop; i++) stopped[stop[i]] = true;
    for (int i = 0; i < np; i++) active[params[i]] = true;
    for (NodeId i = 0; i < n; i++) {
        grad[i] = -1;
        const Node *nd = &g->nodes[i];
        if (stopped[i]) {
            active[i] = false;
            continue;
        }
        for (int k = 0; k < nd->ninputs; k++)
            if (nd->in[k].id >= 0 && active[nd->in[k].id] && carries(nd->op, k)) active[i] = true;
    }
    need[loss] = active[loss];
    for (NodeId i = n - 1; i >= 0; i--) {
        const Node *nd = &g->nodes[i];
        if (!need[i]) continue;
        for (int k = 0; k < nd->ninputs; k++)
            if (nd->in[k].id >= 0 && active[nd->in[k].id] && carries(nd->op, k)) need[nd->in[k].id] = true;
    }
    int rc = 0;
    for (NodeId i = 0; i < n && !rc; i++) {
        const Node *nd = &g->nodes[i];
        if (!need[i] || nd->op == OP_INPUT) continue;
        const char *why = no_gradient(g, nd);
        if (why) {
            diag_node(b->d, nd, "lies on a path from a parameter to the loss \"%s\", but %s", g->nodes[loss].name, why);
            rc = -1;
        }
    }
    if (!rc && need[loss]) {
        const TensorType *lt = &g->nodes[loss].type;
        grad[loss] = ad_full(b, "d_" , 1, lt->dtype, 0, NULL);
        ad_rename(b, grad[loss], "d_%s", g->nodes[loss].name);
    }
    for (NodeId y = n - 1; y >= 0 && !rc && !b->failed; y--) {
        if (!need[y] || grad[y] < 0 || g->nodes[y].op == OP_INPUT) continue;
        NodeId mark = g->nnodes, con[IR_MAX_INPUTS];
        rule(b, y, grad[y], active, con);
        for (int k = 0; k < g->nodes[y].ninputs && !b->failed; k++) {
            NodeId x = g->nodes[y].in[k].id;
            if (con[k] < 0 || x < 0 || !need[x]) continue;
            if (grad[x] < 0) {
                grad[x] = con[k];
                if (con[k] >= mark) ad_rename(b, con[k], "d_%s", g->nodes[x].name);
            } else {
                grad[x] = ad_bin(b, NULL, OP_ADD, ad_v(grad[x]), ad_v(con[k]));
                ad_rename(b, grad[x], "d_%s", g->nodes[x].name);
            }
        }
    }
    for (int i = 0; i < np && !rc && !b->failed; i++) {
        grads[i] = grad[params[i]];
        const TensorType *t = &g->nodes[params[i]].type;
        if (grads[i] >= 0 && !ir_type_equal(&g->nodes[grads[i]].type, t)) {
            grads[i] = materialize(b, NULL, grads[i], t);
            ad_rename(b, grads[i], "d_%s", g->nodes[params[i]].name);
        }
        if (grads[i] < 0) { /* the loss does not depend on it */
            if (unreached) unreached[i] = true;
            grads[i] = ad_full(b, NULL, 0, t->dtype, t->rank, t->dims);
            ad_rename(b, grads[i], "d_%s", g->nodes[params[i]].name);
        }
    }
    free(active), free(need), free(stopped), free(grad);
    return rc || b->failed ? -1 : 0;
}

/* ---- the pass ------------------------------------------------------------------------------------ */

/* Inserts new inputs after the last existing input (inputs stay first), renumbering every id;
 * ids[i] receives the id of the i-th new one. */
static void insert_inputs(Graph *g, const OptInput *ins, int nins, NodeId *ids) {
    if (!nins) return;
    Train *t = g->train;
    NodeId pos = 0;
    for (NodeId i = 0; i < g->nnodes; i++)
        if (g->nodes[i].op == OP_INPUT) pos = i + 1;
    int old = g->nnodes;
    for (int k = 0; k < nins; k++) graph_add(g, ins[k].name, OP_INPUT); /* grows the array */
    Node *tmp = malloc((size_t)nins * sizeof *tmp);
    if (!tmp) abort();
    memcpy(tmp, g->nodes + old, (size_t)nins * sizeof *tmp);
    memmove(g->nodes + pos + nins, g->nodes + pos, (size_t)(old - pos) * sizeof *g->nodes);
    memcpy(g->nodes + pos, tmp, (size_t)nins * sizeof *tmp);
    free(tmp);
#define SHIFT(x) ((x) >= pos ? (x) + nins : (x))
    for (NodeId i = 0; i < g->nnodes; i++) {
        Node *nd = &g->nodes[i];
        for (int k = 0; k < nd->ninputs; k++)
            if (nd->in[k].id >= 0) nd->in[k].id = SHIFT(nd->in[k].id);
    }
    for (int i = 0; i < g->noutputs; i++) g->outputs[i].value = SHIFT(g->outputs[i].value);
    for (int i = 0; i < g->ndonations; i++) {
        g->donations[i].value = SHIFT(g->donations[i].value);
        g->donations[i].input = SHIFT(g->donations[i].input);
    }
    t->loss = SHIFT(t->loss);
    for (int i = 0; i < t->nparams; i++) t->params[i] = SHIFT(t->params[i]);
    for (int i = 0; i < t->nstop; i++) t->stop[i] = SHIFT(t->stop[i]);
#undef SHIFT
    for (int k = 0; k < nins; k++) {
        Node *nd = &g->nodes[pos + k];
        nd->type = ins[k].type;
        nd->state = ins[k].state;
        snprintf(nd->loc, sizeof nd->loc, "train.optimizer");
        ids[k] = pos + k;
    }
}

static void add_output(Graph *g, const char *name, NodeId v) { graph_add_output(g, name, v); }

static void add_donation(Graph *g, NodeId v, NodeId input) {
    g->donations = realloc(g->donations, ((size_t)g->ndonations + 1) * sizeof *g->donations);
    if (!g->donations) abort();
    g->donations[g->ndonations].value = v;
    g->donations[g->ndonations++].input = input;
}

static bool output_named(const Graph *g, const char *name) {
    for (int i = 0; i < g->noutputs; i++)
        if (strcmp(g->outputs[i].name, name) == 0) return true;
    return false;
}

int pass_autodiff(Graph *g, Diag *d) {
    Train *t = g->train;
    if (!t) return 0;
    if (g->plan && g->free_plan) g->free_plan(g->plan); /* node ids change */
    g->plan = NULL;
    OptInput *ins = NULL;
    int nins = optim_inputs(g, t, &ins), rc = 0;
    for (int k = 0; k < nins && !rc; k++) /* "<param>_m" of a parameter named with 127 or 128 characters */
        if (!ir_is_identifier(ins[k].name))
            rc = (diag_at(d, "train.optimizer", "the optimizer's input \"%.64s...\" would be longer than %d "
                          "characters; give its parameter a shorter name", ins[k].name, IR_MAX_NAME), -1);
    for (int k = 0; k < nins && !rc; k++)
        if (graph_find(g, ins[k].name) >= 0)
            rc = (diag_at(d, "train.optimizer", "the optimizer's input \"%s\" would clash with the value of that name; rename it",
                          ins[k].name), -1);
    for (int i = 0; i < t->nparams && !rc; i++)
        if (output_named(g, g->nodes[t->params[i]].name))
            rc = (diag_at(d, "train.params", "the update of \"%s\" is output under its name, but an output of that name exists",
                          g->nodes[t->params[i]].name), -1);
    for (int k = 0; k < nins && !rc; k++)
        if (ins[k].param >= 0 && output_named(g, ins[k].name))
            rc = (diag_at(d, "train.optimizer", "the optimizer state \"%s\" is output under its name, but an output of that name exists",
                          ins[k].name), -1);
    NodeId *ids = calloc((size_t)nins + 1, sizeof *ids), *grads = NULL, *upd = NULL, *state = NULL;
    if (!ids) abort();
    Builder b;
    if (!rc) {
        insert_inputs(g, ins, nins, ids);
        ad_begin(&b, g, d);
        grads = calloc((size_t)t->nparams, sizeof *grads);
        upd = calloc((size_t)t->nparams, sizeof *upd);
        state = calloc((size_t)nins + 1, sizeof *state);
        if (!grads || !upd || !state) abort();
        bool *unreached = calloc((size_t)t->nparams, sizeof *unreached);
        if (!unreached) abort();
        rc = autodiff_grads(&b, t->loss, t->params, t->nparams, t->stop, t->nstop, grads, unreached);
        /* a parameter the loss does not depend on would silently train with a zero gradient
         * forever: almost always a mistake in the graph (a typo, a detached branch) */
        for (int i = 0; i < t->nparams && !rc; i++)
            if (unreached[i])
                rc = (diag_at(d, "train.params", "\"%s\" has no path to the loss \"%s\"%s, so its gradient would "
                              "always be zero: use it on the way to the loss, or remove it from params",
                              g->nodes[t->params[i]].name, g->nodes[t->loss].name,
                              t->nstop ? " (or a stop_gradient cuts every path)" : ""), -1);
        free(unreached);
        if (!rc) rc = optim_build(&b, t, grads, ins, ids, nins, upd, state);
        if (ad_finish(&b)) rc = -1;
    }
    if (!rc) {
        bool loss_out = false;
        for (int i = 0; i < g->noutputs; i++) loss_out = loss_out || g->outputs[i].value == t->loss;
        if (!loss_out) add_output(g, output_named(g, "loss") ? "train_loss" : "loss", t->loss);
        for (int i = 0; i < t->nparams; i++) {
            add_output(g, g->nodes[t->params[i]].name, upd[i]);
            if (g->nodes[t->params[i]].type.rank > 0) /* rank-0 inputs are passed by value */
                add_donation(g, upd[i], t->params[i]);
        }
        for (int k = 0; k < nins; k++) {
            if (state[k] < 0) continue;
            add_output(g, ins[k].name, state[k]);
            if (ins[k].param >= 0 && ins[k].type.rank > 0) add_donation(g, state[k], ids[k]);
        }
        train_free(g->train);
        g->train = NULL;
        Diag v;
        diag_init(&v, d->file);
        if (ir_verify(g, &v)) rc = (diag_at(d, "train", "internal: autodiff left an invalid graph: %s", v.msg), -1);
    }
    free(ins), free(ids), free(grads), free(upd), free(state);
    return rc;
}
