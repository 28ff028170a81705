/* compiler/ad_build.c: the graph builder that autodiff's gradient rules (pass_autodiff.c) and
 * the optimizer updates (optim.c) append nodes with: each node typed by ir_infer_op as it is
 * made, named by what it is for, the first failure kept (see ad_build.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ad_build.h"
#include "util.h"

void ad_begin(Builder *b, Graph *g, Diag *d) {
    memset(b, 0, sizeof *b);
    b->g = g;
    b->d = d;
    b->first = g->nnodes;
}

Operand ad_v(NodeId id) { return (Operand){id, 0}; }
Operand ad_c(double v) { return (Operand){-1, v}; }

void ad_rename(Builder *b, NodeId id, const char *fmt, ...) {
    if (id < b->first || id - b->first >= b->nwant) return;
    char buf[IR_MAX_NAME + 64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    free(b->want[id - b->first]);
    b->want[id - b->first] = xstrdup(buf);
}

NodeId ad_node(Builder *b, const char *want, Op op, int n, const Operand *in, const Attrs *a) {
    if (b->failed) return -1;
    Graph *g = b->g;
    Attrs none;
    memset(&none, 0, sizeof none);
    TensorType t[IR_MAX_INPUTS], out;
    for (int i = 0; i < n; i++) t[i] = graph_operand_type(g, &in[i]);
    char err[512];
    if (ir_infer_op(op, t, n, a ? a : &none, &out, err, sizeof err)) {
        diag_at(b->d, "train", "internal: autodiff built an invalid %s node (%s): %s", ir_ops[op].name,
                want ? want : "?", err);
        b->failed = true;
        return -1;
    }
    NodeId id = graph_add(g, "_", op);
    if (id < 0) {
        diag_at(b->d, "train", "the differentiated graph has more than %d values", IR_MAX_NODES);
        b->failed = true;
        return -1;
    }
    Node *nd = &g->nodes[id];
    nd->ninputs = n;
    for (int i = 0; i < n; i++) nd->in[i] = in[i];
    if (a) nd->attrs = *a;
    nd->type = out;
    snprintf(nd->loc, sizeof nd->loc, "train");
    if (b->nwant == b->capwant) {
        b->capwant = b->capwant ? 2 * b->capwant : 64;
        b->want = realloc(b->want, (size_t)b->capwant * sizeof *b->want);
        if (!b->want) abort();
    }
    b->want[b->nwant++] = xstrdup(want ? want : "t");
    return id;
}

NodeId ad_un(Builder *b, const char *want, Op op, Operand x) { return ad_node(b, want, op, 1, &x, NULL); }

NodeId ad_bin(Builder *b, const char *want, Op op, Operand x, Operand y) {
    Operand in[2] = {x, y};
    return ad_node(b, want, op, 2, in, NULL);
}

NodeId ad_tri(Builder *b, const char *want, Op op, Operand x, Operand y, Operand z) {
    Operand in[3] = {x, y, z};
    return ad_node(b, want, op, 3, in, NULL);
}

NodeId ad_cast(Builder *b, const char *want, NodeId x, DType to) {
    if (x < 0) return -1;
    if (b->g->nodes[x].type.dtype == to) return x;
    Attrs a;
    memset(&a, 0, sizeof a);
    a.dtype = to;
    a.has_dtype = true;
    Operand o = ad_v(x);
    return ad_node(b, want, OP_CAST, 1, &o, &a);
}

NodeId ad_full(Builder *b, const char *want, double v, DType dt, int rank, const int64_t *dims) {
    Attrs a;
    memset(&a, 0, sizeof a);
    a.nshape = rank;
    for (int i = 0; i < rank; i++) a.shape[i] = dims[i];
    a.value = v;
    a.dtype = dt;
    a.has_dtype = true;
    return ad_node(b, want, OP_FULL, 0, NULL, &a);
}

NodeId ad_reduce(Builder *b, const char *want, Op op, NodeId x, unsigned mask, bool keepdims) {
    if (x < 0) return -1;
    Attrs a;
    memset(&a, 0, sizeof a);
    a.has_axes = true;
    for (int i = 0; i < IR_MAX_RANK; i++)
        if (mask & (1u << i)) a.axes[a.naxes++] = i;
    a.keepdims = keepdims;
    Operand o = ad_v(x);
    return ad_node(b, want, op, 1, &o, &a);
}

NodeId ad_reshape(Builder *b, const char *want, NodeId x, int rank, const int64_t *dims) {
    if (x < 0) return -1;
    const TensorType *t = &b->g->nodes[x].type;
    bool same = t->rank == rank;
    for (int i = 0; same && i < rank; i++) same = t->dims[i] == dims[i];
    if (same) return x;
    Attrs a;
    memset(&a, 0, sizeof a);
    a.nshape = rank;
    for (int i = 0; i < rank; i++) a.shape[i] = dims[i];
    Operand o = ad_v(x);
    return ad_node(b, want, OP_RESHAPE, 1, &o, &a);
}

NodeId ad_transpose(Builder *b, const char *want, NodeId x, const int *perm, int rank) {
    if (x < 0) return -1;
    Attrs a;
    memset(&a, 0, sizeof a);
    a.nperm = rank;
    for (int i = 0; i < rank; i++) a.perm[i] = perm[i];
    Operand o = ad_v(x);
    return ad_node(b, want, OP_TRANSPOSE, 1, &o, &a);
}

NodeId ad_broadcast(Builder *b, const char *want, NodeId x, const TensorType *to) {
    if (x < 0) return -1;
    const TensorType *t = &b->g->nodes[x].type;
    if (ir_shape_equal(t, to) && !memcmp(t->sym, to->sym, sizeof t->sym)) return x;
    Attrs a;
    memset(&a, 0, sizeof a);
    a.nshape = to->rank;
    for (int i = 0; i < to->rank; i++) a.shape[i] = to->dims[i];
    memcpy(a.shape_sym, to->sym, sizeof a.shape_sym); /* a symbolic axis stays one */
    Operand o = ad_v(x);
    return ad_node(b, want, OP_BROADCAST_TO, 1, &o, &a);
}

int ad_finish(Builder *b) {
    Graph *g = b->g;
    int rc = b->failed ? -1 : 0;
    if (!rc) {
        NameMap names;
        namemap_init(&names);
        for (NodeId i = 0; i < g->nnodes; i++)
            if (i < b->first || i - b->first >= b->nwant) namemap_put(&names, g->nodes[i].name, i);
        for (int k = b->nwant - 1; k >= 0; k--) { /* the last node wanting a name gets it plain */
            NodeId id = b->first + k;
            char base[IR_MAX_NAME + 1], name[IR_MAX_NAME + 32];
            snprintf(base, sizeof base, "%.*s", IR_MAX_NAME - 8, b->want[k]);
            if (!ir_is_identifier(base)) snprintf(base, sizeof base, "t");
            snprintf(name, sizeof name, "%s", base);
            for (int n = 2; namemap_get(&names, name) >= 0; n++) snprintf(name, sizeof name, "%s_%d", base, n);
            free(g->nodes[id].name);
            g->nodes[id].name = xstrdup(name);
            namemap_put(&names, g->nodes[id].name, id);
        }
        namemap_free(&names);
    }
    for (int k = 0; k < b->nwant; k++) free(b->want[k]);
    free(b->want);
    b->want = NULL;
    b->nwant = b->capwant = 0;
    return rc;
}
