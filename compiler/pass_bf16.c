/* compiler/pass_bf16.c: --precision=bf16's storage rule. Under bf16 the products that go to
 * cuBLASLt take bfloat16 operands (fp32 accumulation); a float32 value that only such products,
 * sign tests and sums read is therefore rounded to bfloat16 by every reader that matters (the
 * products) or that barely notices (a sum accumulates the rounded values in float32, as PyTorch's
 * autocast does for the bias gradient of a bfloat16 gradient), so it may as well be stored that
 * way: v becomes v_bf16 = cast(v, bfloat16) and v_f32 = cast(v_bf16, float32), and v's readers
 * read v_f32. The fusion planner then folds v_f32 into the products' operands (they read v_bf16
 * as it is, pass_fuse.c) and inlines it into the other readers; v's own step writes v_bf16
 * (cuBLASLt's D in bfloat16 for a product's epilogue, pass_lower.c's lib_cast). A hidden layer's
 * activation a = relu(x @ w + b) is one case: read by the next layer's product, by its own weight
 * gradient's (a^T) and by relu's backward mask (a > 0); a layer's output gradient dh another: read
 * by the products of the input and the weight gradients and by the bias gradient's sum. Each such
 * value saves the staging pass that rounded it for each product (read 4, write 2 bytes an
 * element), half its producer's write and half its other readers' reads. PyTorch's autocast
 * keeps activations and gradients in bf16 the same way.
 *
 * A sign test against 0 is exact under the rounding (bf16 has float32's exponent range) but for
 * float32 values below half bfloat16's smallest subnormal (2^-134), which round to 0: a relu
 * output that small loses its gradient. Only values read by products the cost model sends to
 * cuBLASLt qualify (lower_blas_shape: the same choice pass_lower makes), so no product of our own
 * kernels and no CPU-only form ever sees a bfloat16 operand; the CPU runs the same plan (its
 * product widens a copy, emit_cpu.c), so both backends compute the same rounded values. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "util.h"

/* The product sizes of a rank-2 float32 matmul: M x N x K. */
static bool mm_shape(const Graph *g, const Node *mm, int64_t *m, int64_t *n, int64_t *k) {
    const TensorType *a = &g->nodes[mm->in[0].id].type, *b = &g->nodes[mm->in[1].id].type;
    if (mm->type.rank != 2 || a->rank != 2 || b->rank != 2 || mm->type.dtype != DT_FLOAT32 ||
        ir_type_symbolic(&mm->type) || ir_type_symbolic(a) || ir_type_symbolic(b))
        return false;
    *m = mm->type.dims[0], *n = mm->type.dims[1], *k = a->dims[1];
    return true;
}

/* A matmul that reads `via` as an operand and whose product goes to cuBLASLt. */
static bool blas_reader(const Graph *g, const Target *t, NodeId r) {
    const Node *nd = &g->nodes[r];
    int64_t m, n, k;
    return nd->op == OP_MATMUL && mm_shape(g, nd, &m, &n, &k) && lower_blas_shape(t, m, n, k, DT_FLOAT32);
}

/* A comparison of v with the constant 0 (either side). */
static bool sign_test(const Node *nd, NodeId v) {
    if (nd->op != OP_GT && nd->op != OP_GE && nd->op != OP_LT && nd->op != OP_LE) return false;
    if (nd->ninputs != 2) return false;
    const Operand *o = nd->in[0].id == v ? &nd->in[1] : nd->in[1].id == v ? &nd->in[0] : NULL;
    return o && o->id < 0 && o->value == 0;
}

/* A sum or mean of v over some of its axes (accumulated in float32 or wider whatever its input). */
static bool sum_of(const Node *nd, NodeId v) {
    return (nd->op == OP_SUM || nd->op == OP_MEAN) && nd->ninputs == 1 && nd->in[0].id == v;
}

/* A transpose swapping the two axes of a rank-2 value. */
static bool swap_2d(const Node *nd) {
    if (nd->op != OP_TRANSPOSE || nd->type.rank != 2) return false;
    int perm[IR_MAX_RANK];
    char err[128];
    return !ir_transpose_perm(&nd->attrs, 2, perm, err, sizeof err) && perm[0] == 1 && perm[1] == 0;
}

typedef struct {
    const Graph *g;
    int *uoff, *ulist; /* readers of each node (CSR) */
} Users;

static void users_build(Users *u, const Graph *g) {
    u->g = g;
    u->uoff = xcalloc((size_t)g->nnodes + 1, sizeof *u->uoff);
    for (int pass = 0; pass < 2; pass++) {
        int *fill = pass ? xcalloc((size_t)g->nnodes, sizeof *fill) : NULL;
        for (NodeId i = 0; i < g->nnodes; i++)
            for (int k = 0; k < g->nodes[i].ninputs; k++) {
                NodeId o = g->nodes[i].in[k].id;
                bool dup = o < 0;
                for (int j = 0; j < k && !dup; j++) dup = g->nodes[i].in[j].id == o;
                if (dup) continue;
                if (pass) u->ulist[u->uoff[o] + fill[o]++] = i;
                else u->uoff[o + 1]++;
            }
        if (!pass) {
            for (int i = 0; i < g->nnodes; i++) u->uoff[i + 1] += u->uoff[i];
            u->ulist = xcalloc((size_t)u->uoff[g->nnodes] + 1, sizeof *u->ulist);
        }
        free(fill);
    }
}

/* Whether v qualifies: a computed float32 value, not a graph output, read by at least one
 * cuBLASLt product (directly or through a transpose) and otherwise only by such products and
 * sign tests against 0 and sums. */
static bool qualifies(const Users *u, const Target *t, NodeId v, const bool *is_output) {
    const Graph *g = u->g;
    const Node *nd = &g->nodes[v];
    if (nd->op == OP_INPUT || ir_ops[nd->op].kind == K_VIEW || nd->type.dtype != DT_FLOAT32 || is_output[v] ||
        ir_type_symbolic(&nd->type))
        return false; /* (a view, a transpose above all, is folded into the product's operand) */
    bool product = false;
    for (int i = u->uoff[v]; i < u->uoff[v + 1]; i++) {
        const NodeId r = u->ulist[i];
        const Node *rn = &g->nodes[r];
        if (blas_reader(g, t, r)) {
            product = true;
        } else if (swap_2d(rn) && !is_output[r] && u->uoff[r + 1] > u->uoff[r]) {
            for (int j = u->uoff[r]; j < u->uoff[r + 1]; j++)
                if (!blas_reader(g, t, u->ulist[j])) return false;
            product = true;
        } else if (!sign_test(rn, v) && !sum_of(rn, v)) {
            return false;
        }
    }
    return product;
}

/* A fresh name "<base><suffix>" (numbered when taken). */
static char *fresh_name(const Graph *g, const char *base, const char *suffix) {
    char buf[IR_MAX_NAME + 32];
    snprintf(buf, sizeof buf, "%.*s%s", IR_MAX_NAME - 16, base, suffix);
    for (int k = 2; graph_find(g, buf) >= 0; k++) snprintf(buf, sizeof buf, "%.*s%s_%d", IR_MAX_NAME - 16, base, suffix, k);
    return xstrdup(buf);
}

static Node cast_node(const char *name, NodeId in, const TensorType *t, DType to) {
    Node c;
    memset(&c, 0, sizeof c);
    c.name = xstrdup(name);
    c.op = OP_CAST;
    c.ninputs = 1;
    for (int i = 0; i < IR_MAX_INPUTS; i++) c.in[i].id = -1;
    c.in[0].id = in;
    c.attrs.dtype = to, c.attrs.has_dtype = true, c.attrs.storage = true;
    c.type = *t;
    c.type.dtype = to;
    c.input_index = -1;
    snprintf(c.loc, sizeof c.loc, "bf16");
    return c;
}

int pass_bf16(Graph *g, const Target *t, Diag *d) {
    if (!t) t = target_default();
    if (t->precision != PREC_BF16 || g->plan) return 0; /* (a plan means fuse has run: too late) */
    const int n0 = g->nnodes;
    bool *is_output = xcalloc((size_t)n0, sizeof *is_output), *pick = xcalloc((size_t)n0, sizeof *pick);
    for (int i = 0; i < g->noutputs; i++) is_output[g->outputs[i].value] = true;
    for (int i = 0; i < g->ndonations; i++) is_output[g->donations[i].value] = true;
    Users u = {0};
    users_build(&u, g);
    int k = 0;
    for (NodeId v = 0; v < n0; v++)
        if ((pick[v] = qualifies(&u, t, v, is_output))) k++;
    free(u.uoff), free(u.ulist);
    if (!k || n0 + 2 * k > IR_MAX_NODES) {
        free(is_output), free(pick);
        return 0;
    }
    /* the new order: each picked value followed by its two casts */
    Node *nn = xcalloc((size_t)(n0 + 2 * k), sizeof *nn);
    NodeId *newid = xcalloc((size_t)n0, sizeof *newid), *wide = xcalloc((size_t)n0, sizeof *wide);
    NodeId m = 0;
    for (NodeId i = 0; i < n0; i++) {
        newid[i] = m;
        nn[m++] = g->nodes[i];
        wide[i] = -1;
        if (!pick[i]) continue;
        char *n16 = fresh_name(g, g->nodes[i].name, "_bf16"), *n32 = fresh_name(g, g->nodes[i].name, "_f32");
        nn[m] = cast_node(n16, newid[i], &g->nodes[i].type, DT_BFLOAT16);
        nn[m + 1] = cast_node(n32, m, &g->nodes[i].type, DT_FLOAT32);
        wide[i] = m + 1;
        m += 2;
        free(n16), free(n32);
    }
    for (NodeId i = 0; i < n0; i++) { /* the original nodes' operands: renumbered, picked values widened */
        Node *nd = &nn[newid[i]];
        for (int j = 0; j < nd->ninputs; j++) {
            const NodeId o = nd->in[j].id;
            if (o >= 0) nd->in[j].id = pick[o] ? wide[o] : newid[o];
        }
    }
    for (int i = 0; i < g->noutputs; i++) g->outputs[i].value = newid[g->outputs[i].value];
    for (int i = 0; i < g->ndonations; i++) {
        g->donations[i].value = newid[g->donations[i].value];
        g->donations[i].input = newid[g->donations[i].input];
    }
    free(g->nodes);
    g->nodes = nn;
    g->nnodes = g->cap = m;
    free(is_output), free(pick), free(newid), free(wide);
    Diag v;
    diag_init(&v, d->file);
    if (ir_verify(g, &v)) {
        diag_at(d, NULL, "internal: the bf16 storage pass left an invalid graph: %s", v.msg);
        return -1;
    }
    return 0;
}
