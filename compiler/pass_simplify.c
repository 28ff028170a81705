/* compiler/pass_simplify.c: the simplify pass. Constant folding into `full` nodes, algebraic
 * identities, common-subexpression elimination and dead-node elimination, in place on a
 * verified graph, which is verified again afterwards. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../ir/ir.h"
#include "../ir/scalar.h"
#include "plan.h"
#include "util.h"

/* ---- what happened: counts per rewrite kind and a short log, for the last run in this thread - */

typedef enum { SK_FOLD, SK_IDENTITY, SK_BRIDGE, SK_COMPOSE, SK_CSE, SK_DEAD, SK_COUNT } SimplifyKind;
static const char *const kind_names[SK_COUNT] = {"fold", "identity", "bridge", "compose", "cse",
                                                 "dead"};

typedef struct {
    int count[SK_COUNT];
    int nodes_before, nodes_after; /* non-input nodes */
    int dropped;                   /* log lines that did not fit */
    size_t len;
    char log[8192];
} SimplifyStats;

static _Thread_local SimplifyStats stats;

static void note(SimplifyKind k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(SimplifyKind k, const char *fmt, ...) {
    stats.count[k]++;
    char line[512];
    int n = snprintf(line, sizeof line, "  %-8s ", kind_names[k]);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
    va_end(ap);
    size_t len = strlen(line);
    if (stats.len + len + 2 > sizeof stats.log) {
        stats.dropped++;
        return;
    }
    memcpy(stats.log + stats.len, line, len);
    stats.len += len;
    stats.log[stats.len++] = '\n';
    stats.log[stats.len] = 0;
}

/* Prints the last run's summary and log (this thread's last pass_simplify). */
void simplify_report(FILE *f) {
    fprintf(f, "simplify: %d -> %d nodes;", stats.nodes_before, stats.nodes_after);
    for (int k = 0; k < SK_COUNT; k++) fprintf(f, " %s %d%s", kind_names[k], stats.count[k], k + 1 < SK_COUNT ? "," : "\n");
    fputs(stats.log, f);
    if (stats.dropped) fprintf(f, "  ... %d more\n", stats.dropped);
}

/* The last run's count for one kind ("fold", "identity", "bridge", "compose", "cse", "dead"), or
 * its node counts ("before", "after"); -1 for an unknown name. */
int simplify_count(const char *kind) {
    for (int k = 0; k < SK_COUNT; k++)
        if (strcmp(kind, kind_names[k]) == 0) return stats.count[k];
    if (strcmp(kind, "before") == 0) return stats.nodes_before;
    if (strcmp(kind, "after") == 0) return stats.nodes_after;
    return -1;
}

/* ---- scalars: the exact semantics of ir/scalar.h, as the backends compute them ------------------ */

typedef struct {
    DType dt;
    union {
#define SC_MEMBER(ID, name, sh, sfx, CT, WT, size, kind) CT sfx;
        IR_DTYPES(SC_MEMBER)
#undef SC_MEMBER
    } v;
} Scalar;

static Scalar sc_f64(double x) {
    Scalar s;
    memset(&s, 0, sizeof s);
    s.dt = DT_FLOAT64;
    s.v.f64 = x;
    return s;
}

/* Converts as `cast` (and a constant operand, and `full`'s value) does: scalar.h's gtc_to_*. The
 * value passes through the widest type of its kind (int64, uint64 or double), which holds it
 * exactly, so converting from there gives what converting from its own type gives. */
static Scalar sc_conv(Scalar x, DType to) {
    Scalar r;
    memset(&r, 0, sizeof r);
    r.dt = to;
    int64_t si = 0;
    uint64_t ui = 0;
    double d = 0;
    char k = 'S';
    switch (x.dt) {
#define SC_LOAD(ID, name, sh, sfx, CT, WT, size, kind)                                        \
    case DT_##ID:                                                                             \
        k = #kind[0];                                                                         \
        if (k == 'F' || k == 'H') d = gtc_to_f64(x.v.sfx), k = 'F';                           \
        else if (k == 'U') ui = (uint64_t)GTC_NUM(x.v.sfx);                                   \
        else si = (int64_t)GTC_NUM(x.v.sfx);                                                  \
        break;
        IR_DTYPES(SC_LOAD)
#undef SC_LOAD
    default: break;
    }
    switch (to) {
#define SC_STORE(ID, name, sh, sfx, CT, WT, size, kind)                                       \
    case DT_##ID:                                                                             \
        r.v.sfx = k == 'F' ? gtc_to_##sfx(d) : k == 'U' ? gtc_to_##sfx(ui) : gtc_to_##sfx(si); \
        break;
        IR_DTYPES(SC_STORE)
#undef SC_STORE
    default: break;
    }
    return r;
}

static double sc_double(Scalar s) {
    switch (s.dt) {
#define SC_DOUBLE(ID, name, sh, sfx, CT, WT, size, kind)                                      \
    case DT_##ID: return gtc_to_f64(s.v.sfx);
        IR_DTYPES(SC_DOUBLE)
#undef SC_DOUBLE
    default: return 0;
    }
}

static bool sc_same(Scalar a, Scalar b) { /* same dtype and bits */
    if (a.dt != b.dt) return false;
    return memcmp(&a.v, &b.v, ir_dtype_size(a.dt)) == 0;
}

/* Evaluation of one elementwise op: operands x[] already converted to the compute dtype ct
 * (where's condition: bool), result of dtype od in r. The locals and the stored type per rule
 * are the CPU backend's (runtime/cpu/cpu_elementwise.c): int32 arithmetic runs in int64 and
 * int64 in __int128, then wraps on the store. Returns -1 for what is not evaluated here. */
#define EV_V(T, s) ((T)gtc_val(s))
#define EV1(T, F, OF, OS, e) { T a = EV_V(T, x[0].v.F); r->v.OF = gtc_cast(OS, e); }
#define EV2(T, F, OF, OS, e) { T a = EV_V(T, x[0].v.F), b = EV_V(T, x[1].v.F); r->v.OF = gtc_cast(OS, e); }
#define EV3(T, F, OF, OS, e)                                                                  \
    { T a = EV_V(T, x[0].v.F), b = EV_V(T, x[1].v.F), c = EV_V(T, x[2].v.F); r->v.OF = gtc_cast(OS, e); }
#define EV_CASE_WIDE(A, ID, name, sh, sfx, CT, WT, size, kind)                                 \
    IR_DT_NUM_##kind(case DT_##ID: IR_DT_APPLY(EV_RUN, EV_ARGS A, WT, sfx, sfx, CT) break;)
#define EV_CASE_NUM(A, ID, name, sh, sfx, CT, WT, size, kind)                                  \
    IR_DT_NUM_##kind(case DT_##ID: IR_DT_APPLY(EV_RUN, EV_ARGS A, IR_DT_VT_##kind(CT, WT), sfx, sfx, CT) break;)
#define EV_CASE_FLT(A, ID, name, sh, sfx, CT, WT, size, kind)                                  \
    IR_DT_FLT_##kind(case DT_##ID: IR_DT_APPLY(EV_RUN, EV_ARGS A, IR_DT_VT_##kind(CT, WT), sfx, sfx, CT) break;)
#define EV_CASE_CMP(A, ID, name, sh, sfx, CT, WT, size, kind)                                  \
    case DT_##ID: IR_DT_APPLY(EV_RUN, EV_ARGS A, IR_DT_VT_##kind(CT, WT), sfx, b8, gtc_bool) break;
#define EV_CASE_WHERE(A, ID, name, sh, sfx, CT, WT, size, kind)                                \
    case DT_##ID: EVW(CT, sfx, A) break;
#define EV_ARGS(EV, e) EV, e
#define EV_RUN(EV, e, T, F, OF, OS) EV(T, F, OF, OS, e)
#define EV_SWITCH(CASE, A)                                                                    \
    switch (ct) {                                                                             \
        IR_DTYPES_A(CASE, A)                                                                  \
    default: return -1;                                                                       \
    }
#define EVW(T, F, e) { gtc_bool a = x[0].v.b8; T b = x[1].v.F, c = x[2].v.F; r->v.F = (e); }
#define EV_WIDE(EV, e) EV_SWITCH(EV_CASE_WIDE, (EV, e))
#define EV_NUM(EV, e) EV_SWITCH(EV_CASE_NUM, (EV, e))
#define EV_FLT(EV, e) EV_SWITCH(EV_CASE_FLT, (EV, e))
#define EV_CMP(e) EV_SWITCH(EV_CASE_CMP, (EV2, e))
#define EV_WHERE(e) EV_SWITCH(EV_CASE_WHERE, e)
#define EVAL_R_ARITH(e) EV_WIDE(EV2, e)
#define EVAL_R_SIGNED(e) EV_WIDE(EV1, e)
#define EVAL_R_DIV(e) EV_FLT(EV2, e)
#define EVAL_R_FLOAT(e) EV_FLT(EV1, e)
#define EVAL_R_CLAMP(e) EV_NUM(EV3, e)
#define EVAL_R_CMP(e) EV_CMP(e)
#define EVAL_R_WHERE(e) EV_WHERE(e)
#define EVAL_R_CAST(e) *r = x[0]; /* the operand's conversion to ct (= od) is the cast */
#define EVAL_R_ONE_HOT(e) return -1;
#define CASE_ELEMWISE(id, rule, e) case OP_##id: EVAL_##rule(e) break;
#define CASE_SOURCE(id, rule, e)
#define CASE_REDUCE(id, rule, e)
#define CASE_MATMUL(id, rule, e)
#define CASE_VIEW(id, rule, e)
#define CASE_INDEX(id, rule, e)
#define CASE_COMPOSITE(id, rule, e)

static int sc_eval(Op op, DType ct, DType od, const Scalar *x, Scalar *r) {
    memset(r, 0, sizeof *r);
    r->dt = od;
    switch (op) {
#define OP(id, name, arity, kind, rule, expr) CASE_##kind(id, rule, expr)
#include "../ir/ops.def"
#undef OP
    default: return -1;
    }
    r->dt = od;
    return 0;
}

/* ---- the pass's state ---------------------------------------------------------------------- */

enum { F_OUTPUT = 1, F_DONATED_INPUT = 2, F_DONATED_VALUE = 4 };

typedef struct {
    Graph *g;
    NodeId *repl;          /* per node: the node now standing for it (itself unless replaced) */
    unsigned char *flags;  /* per node: F_* */
} Ctx;

/* The single value of an operand, when it has one: a constant (converted like `cast`, so as a
 * float64) or a `full` node (its value in its dtype). */
static bool single_value(const Graph *g, const Operand *o, Scalar *s) {
    if (o->id < 0) {
        *s = sc_f64(o->value);
        return true;
    }
    const Node *n = &g->nodes[o->id];
    if (n->op != OP_FULL) return false;
    *s = sc_conv(sc_f64(n->attrs.value), n->type.dtype);
    return true;
}

/* Whether operand o is a single value equal to v once converted to dtype ct. */
static bool is_value(const Graph *g, const Operand *o, DType ct, double v) {
    Scalar s;
    return single_value(g, o, &s) && sc_double(sc_conv(s, ct)) == v;
}

static bool same_operand(const Operand *a, const Operand *b) {
    if (a->id != b->id) return false;
    return a->id >= 0 || memcmp(&a->value, &b->value, sizeof a->value) == 0;
}

/* Turns node id into `full` of its own type holding r (already of its dtype); false when r has
 * no finite double that converts back to it exactly (`full`'s value is such a double). */
static bool make_full(Graph *g, NodeId id, Scalar r) {
    Node *n = &g->nodes[id];
    double v = sc_double(r);
    if (!isfinite(v) || !sc_same(sc_conv(sc_f64(v), n->type.dtype), r)) return false;
    n->op = OP_FULL;
    n->ninputs = 0;
    for (int i = 0; i < IR_MAX_INPUTS; i++) n->in[i].id = -1, n->in[i].value = 0;
    memset(&n->attrs, 0, sizeof n->attrs);
    n->attrs.nshape = n->type.rank;
    for (int i = 0; i < n->type.rank; i++) n->attrs.shape[i] = n->type.dims[i];
    memcpy(n->attrs.shape_sym, n->type.sym, sizeof n->attrs.shape_sym);
    n->attrs.value = v;
    n->attrs.dtype = n->type.dtype;
    n->attrs.has_dtype = true;
    return true;
}

/* ---- constant folding -------------------------------------------------------------------------- */

/* A node whose operands all are single values is one value: elementwise ops by their formula,
 * views and max/min by passing it on, argmax/argmin as index 0 (all ties). */
static bool fold(Ctx *c, NodeId id) {
    Graph *g = c->g;
    Node *n = &g->nodes[id];
    const OpInfo *info = &ir_ops[n->op];
    if (n->ninputs == 0 || n->op == OP_ONE_HOT) return false;
    Scalar x[IR_MAX_INPUTS], r;
    TensorType in[IR_MAX_INPUTS];
    for (int i = 0; i < n->ninputs; i++) {
        if (!single_value(g, &n->in[i], &x[i])) return false;
        in[i] = graph_operand_type(g, &n->in[i]);
    }
    switch (info->kind) {
    case K_ELEMWISE: {
        DType ct = ir_compute_dtype(n->op, in, n->ninputs, &n->type);
        for (int i = 0; i < n->ninputs; i++)
            x[i] = sc_conv(x[i], n->op == OP_WHERE && i == 0 ? DT_BOOL : ct);
        if (sc_eval(n->op, ct, n->type.dtype, x, &r)) return false;
        break;
    }
    case K_VIEW: r = x[0]; break;
    case K_REDUCE:
        if (n->op == OP_MAX || n->op == OP_MIN) r = x[0];
        else if (n->op == OP_ARGMAX || n->op == OP_ARGMIN) r = sc_conv(sc_f64(0), DT_INT64);
        else return false; /* sums and products round: not one formula the backends share */
        break;
    default: return false;
    }
    if (r.dt != n->type.dtype) return false;
    const char *was = info->name;
    if (!make_full(g, id, r)) return false;
    char num[40];
    note(SK_FOLD, "%s: %s -> full %s", n->name, was, ir_fmt_number(n->attrs.value, num, sizeof num));
    return true;
}

/* ---- identities ---------------------------------------------------------------------------- */

enum { ID_NONE, ID_CHANGED, ID_ALIASED };

/* Whether node y may be replaced by node z everywhere: a node that takes a donated buffer keeps
 * it (moving the donation could clobber the input early), and an output may not come to name an
 * input whose buffer is donated. */
static bool can_alias(const Ctx *c, NodeId y, NodeId z) {
    if (c->flags[y] & F_DONATED_VALUE) return false;
    if ((c->flags[y] & F_OUTPUT) && (c->flags[z] & F_DONATED_INPUT)) return false;
    return true;
}

static void alias(Ctx *c, NodeId y, NodeId z) {
    c->repl[y] = z;
    if (c->flags[y] & F_OUTPUT) c->flags[z] |= F_OUTPUT;
}

/* Node id computes src converted to its dtype, broadcast to its shape: becomes src itself (when
 * the type is the same), a `full` (src a constant), or one cast / broadcast_to of src. */
static int become(Ctx *c, NodeId id, Operand src, const char *rule) {
    Graph *g = c->g;
    Node *n = &g->nodes[id];
    if (src.id < 0) {
        if (!make_full(g, id, sc_conv(sc_f64(src.value), n->type.dtype))) return ID_NONE;
        char num[40];
        note(SK_IDENTITY, "%s: %s -> full %s", n->name, rule, ir_fmt_number(n->attrs.value, num, sizeof num));
        return ID_CHANGED;
    }
    const Node *s = &g->nodes[src.id];
    bool same_dt = s->type.dtype == n->type.dtype;
    TensorType shape = s->type;
    shape.dtype = n->type.dtype;
    bool same_shape = ir_type_equal(&shape, &n->type);
    if (same_dt && same_shape) {
        if (!can_alias(c, id, src.id)) return ID_NONE;
        note(SK_IDENTITY, "%s: %s -> %s", n->name, rule, s->name);
        alias(c, id, src.id);
        return ID_ALIASED;
    }
    if (!same_dt && !same_shape) return ID_NONE; /* would take two nodes for one */
    Attrs a;
    memset(&a, 0, sizeof a);
    if (same_dt) {
        a.nshape = n->type.rank;
        for (int i = 0; i < n->type.rank; i++) a.shape[i] = n->type.dims[i];
    } else {
        a.dtype = n->type.dtype;
        a.has_dtype = true;
    }
    n->op = same_dt ? OP_BROADCAST_TO : OP_CAST;
    n->ninputs = 1;
    n->in[0] = src;
    for (int i = 1; i < IR_MAX_INPUTS; i++) n->in[i].id = -1, n->in[i].value = 0;
    n->attrs = a;
    note(SK_BRIDGE, "%s: %s -> %s %s", n->name, rule, ir_ops[n->op].name, s->name);
    return ID_CHANGED;
}

static bool perm_is_identity(const TensorType *t, const int *perm) {
    int last = -1; /* axes of size 1 may move: the element order stays */
    for (int i = 0; i < t->rank; i++) {
        if (t->dims[perm[i]] == 1) continue;
        if (perm[i] < last) return false;
        last = perm[i];
    }
    return true;
}

static int identity(Ctx *c, NodeId id) {
    Graph *g = c->g;
    Node *n = &g->nodes[id];
    Operand *in = n->in;
    TensorType ty[IR_MAX_INPUTS];
    for (int i = 0; i < n->ninputs; i++) ty[i] = graph_operand_type(g, &in[i]);
    DType ct = n->ninputs ? ir_compute_dtype(n->op, ty, n->ninputs, &n->type) : n->type.dtype;
    Node *x = n->ninputs && in[0].id >= 0 ? &g->nodes[in[0].id] : NULL;
    char err[256];
    switch (n->op) {
    /* x*1, x/1 and x-(+0) are exact in IEEE arithmetic; x+0 is too, except that it turns -0
     * into +0 (visible only through a division or rsqrt by it): accepted, the usual compiler
     * identity. x*0 is not 0 for NaN and infinities, so only integers take it. */
    case OP_ADD:
        if (is_value(g, &in[1], ct, 0)) return become(c, id, in[0], "add(x, 0)");
        if (is_value(g, &in[0], ct, 0)) return become(c, id, in[1], "add(0, x)");
        break;
    case OP_SUB:
        if (is_value(g, &in[1], ct, 0)) return become(c, id, in[0], "sub(x, 0)");
        break;
    case OP_MUL:
        if (is_value(g, &in[1], ct, 1)) return become(c, id, in[0], "mul(x, 1)");
        if (is_value(g, &in[0], ct, 1)) return become(c, id, in[1], "mul(1, x)");
        if (!ir_dtype_is_float(ct) && (is_value(g, &in[0], ct, 0) || is_value(g, &in[1], ct, 0))) {
            Operand zero = {.id = -1, .value = 0};
            return become(c, id, zero, "mul(x, 0)");
        }
        break;
    case OP_DIV:
        if (is_value(g, &in[1], ct, 1)) return become(c, id, in[0], "div(x, 1)");
        break;
    case OP_NEG:
        if (x && x->op == OP_NEG) return become(c, id, x->in[0], "neg(neg(x))");
        break;
    case OP_WHERE: {
        Scalar cond;
        if (same_operand(&in[1], &in[2])) return become(c, id, in[1], "where(c, x, x)");
        if (single_value(g, &in[0], &cond))
            return become(c, id, sc_conv(cond, DT_BOOL).v.b8 ? in[1] : in[2], "where(const, a, b)");
        break;
    }
    case OP_CAST:
        if (x && x->type.dtype == n->type.dtype) return become(c, id, in[0], "cast to the same dtype");
        break;
    case OP_RESHAPE:
        if (x && x->op == OP_RESHAPE) {
            n->in[0] = x->in[0];
            n->attrs.nshape = n->type.rank;
            for (int i = 0; i < n->type.rank; i++) n->attrs.shape[i] = n->type.dims[i];
            note(SK_COMPOSE, "%s: reshape(reshape(x)) -> reshape %s", n->name, g->nodes[x->in[0].id].name);
            return ID_CHANGED;
        }
        if (x && ir_type_equal(&x->type, &n->type)) return become(c, id, in[0], "reshape to the same shape");
        break;
    case OP_TRANSPOSE: {
        int p[IR_MAX_RANK], q[IR_MAX_RANK];
        if (!x || ir_transpose_perm(&n->attrs, x->type.rank, p, err, sizeof err)) break;
        if (x->op == OP_TRANSPOSE) {
            const Node *xx = &g->nodes[x->in[0].id];
            if (ir_transpose_perm(&x->attrs, xx->type.rank, q, err, sizeof err)) break;
            n->in[0] = x->in[0];
            n->attrs.nperm = xx->type.rank;
            for (int i = 0; i < xx->type.rank; i++) n->attrs.perm[i] = q[p[i]];
            note(SK_COMPOSE, "%s: transpose(transpose(x)) -> transpose %s", n->name, xx->name);
            return ID_CHANGED;
        }
        if (ir_type_equal(&x->type, &n->type) && perm_is_identity(&x->type, p))
            return become(c, id, in[0], "transpose by the identity");
        break;
    }
    case OP_BROADCAST_TO:
        if (x && x->op == OP_BROADCAST_TO) {
            n->in[0] = x->in[0];
            note(SK_COMPOSE, "%s: broadcast_to(broadcast_to(x)) -> broadcast_to %s", n->name,
                 g->nodes[x->in[0].id].name);
            return ID_CHANGED;
        }
        if (x && ir_type_equal(&x->type, &n->type)) return become(c, id, in[0], "broadcast_to the same shape");
        break;
    case OP_SLICE: {
        int64_t start[IR_MAX_RANK], step[IR_MAX_RANK], size[IR_MAX_RANK];
        if (!x || ir_slice_normalize(&x->type, &n->attrs, start, step, size, err, sizeof err)) break;
        bool whole = true;
        for (int i = 0; i < x->type.rank; i++) {
            int64_t dim = x->type.dims[i];
            whole = whole && size[i] == dim && (dim <= 1 || (start[i] == 0 && step[i] == 1));
        }
        if (whole) return become(c, id, in[0], "slice of everything");
        break;
    }
    default: break;
    }
    return ID_NONE;
}

/* ---- common subexpressions ------------------------------------------------------------------ */

/* What makes two nodes compute the same value: op, operands (ids, or constants by bits), the
 * result type and the attributes in normal form. All int64_t: no padding, memcmp compares. */
typedef struct {
    int64_t op, nin, consts;
    int64_t opnd[IR_MAX_INPUTS];
    int64_t dtype, rank, dims[IR_MAX_RANK];
    int64_t attr[2 * IR_MAX_RANK + 1];
} CseKey;

static void cse_key(const Graph *g, NodeId id, CseKey *k) {
    const Node *n = &g->nodes[id];
    memset(k, 0, sizeof *k);
    k->op = n->op;
    k->nin = n->ninputs;
    for (int i = 0; i < n->ninputs; i++) {
        if (n->in[i].id >= 0) k->opnd[i] = n->in[i].id;
        else k->consts |= 1 << i, memcpy(&k->opnd[i], &n->in[i].value, sizeof(double));
    }
    /* add, mul, eq and ne are commutative bit for bit (maximum and minimum are not: the sign
     * of a zero result depends on the order), so their operands are keyed in a fixed order. */
    bool commutes = n->op == OP_ADD || n->op == OP_MUL || n->op == OP_EQ || n->op == OP_NE;
    int64_t c0 = k->consts & 1, c1 = (k->consts >> 1) & 1;
    if (commutes && (c0 > c1 || (c0 == c1 && k->opnd[0] > k->opnd[1]))) {
        int64_t t = k->opnd[0];
        k->opnd[0] = k->opnd[1];
        k->opnd[1] = t;
        k->consts = c0 << 1 | c1;
    }
    k->dtype = n->type.dtype;
    k->rank = n->type.rank;
    for (int i = 0; i < n->type.rank; i++) /* a symbolic axis differs from a static one of its bound */
        k->dims[i] = n->type.dims[i] | (int64_t)n->type.sym[i] << 40;
    TensorType x = n->ninputs ? graph_operand_type(g, &n->in[0]) : n->type;
    char err[256];
    if (ir_ops[n->op].kind == K_REDUCE) {
        unsigned mask = 0;
        ir_reduce_mask(&n->attrs, x.rank, &mask, err, sizeof err);
        k->attr[0] = mask;
        k->attr[1] = n->attrs.keepdims;
    } else if (n->op == OP_TRANSPOSE) {
        int p[IR_MAX_RANK] = {0};
        ir_transpose_perm(&n->attrs, x.rank, p, err, sizeof err);
        for (int i = 0; i < x.rank; i++) k->attr[i] = p[i];
    } else if (n->op == OP_SLICE) {
        int64_t size[IR_MAX_RANK];
        ir_slice_normalize(&x, &n->attrs, k->attr, k->attr + IR_MAX_RANK, size, err, sizeof err);
    } else if (n->op == OP_FULL) {
        Scalar v = sc_conv(sc_f64(n->attrs.value), n->type.dtype);
        memcpy(&k->attr[0], &v.v, ir_dtype_size(n->type.dtype));
    } else if (n->op == OP_DROPOUT) { /* the ratio (the seed is an operand) */
        memcpy(&k->attr[0], &n->attrs.ratio, sizeof n->attrs.ratio);
    } else if (ir_ops[n->op].kind == K_INDEX) { /* gather, scatter_add, concat: the axis; pad: pads, value */
        int ax = 0;
        ir_index_axis(&n->attrs, n->op == OP_CONCAT || n->op == OP_PAD ? n->type.rank : x.rank, &ax, err, sizeof err);
        k->attr[0] = ax;
        if (n->op == OP_PAD) {
            for (int i = 0; i < n->attrs.npads; i++) k->attr[i] = n->attrs.pads[i];
            Scalar v = sc_conv(sc_f64(n->attrs.value), n->type.dtype);
            memcpy(&k->attr[2 * IR_MAX_RANK], &v.v, ir_dtype_size(n->type.dtype));
        }
    } /* reshape, broadcast_to, cast, one_hot: the result type says it all */
}

static uint64_t cse_hash(const CseKey *k) {
    const unsigned char *p = (const unsigned char *)k;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < sizeof *k; i++) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

typedef struct {
    NodeId *slot; /* -1: empty */
    size_t mask;
} CseTable;

/* The earlier node equal to id, or -1 after recording id as the first of its kind. */
static NodeId cse_find_or_add(const Graph *g, CseTable *t, NodeId id) {
    CseKey k, other;
    cse_key(g, id, &k);
    for (size_t i = cse_hash(&k) & t->mask;; i = (i + 1) & t->mask) {
        if (t->slot[i] < 0) {
            t->slot[i] = id;
            return -1;
        }
        cse_key(g, t->slot[i], &other);
        if (memcmp(&k, &other, sizeof k) == 0) return t->slot[i];
    }
}

/* ---- the pass ---------------------------------------------------------------------------------- */

/* Removes the nodes no output reaches (inputs stay: they are the signature); renumbers. */
static void remove_dead(Ctx *c) {
    Graph *g = c->g;
    bool *live = xcalloc((size_t)g->nnodes, sizeof *live);
    NodeId *newid = xcalloc((size_t)g->nnodes, sizeof *newid);
    for (int i = 0; i < g->noutputs; i++) live[g->outputs[i].value] = true;
    for (NodeId i = g->nnodes - 1; i >= 0; i--) {
        Node *n = &g->nodes[i];
        if (n->op == OP_INPUT) live[i] = true;
        if (!live[i] || c->repl[i] != i) {
            live[i] = false;
            continue;
        }
        for (int k = 0; k < n->ninputs; k++)
            if (n->in[k].id >= 0) live[n->in[k].id] = true;
    }
    NodeId m = 0;
    for (NodeId i = 0; i < g->nnodes; i++) {
        Node *n = &g->nodes[i];
        if (!live[i]) {
            if (c->repl[i] == i) note(SK_DEAD, "%s", n->name);
            free(n->name);
            newid[i] = -1;
            continue;
        }
        newid[i] = m;
        for (int k = 0; k < n->ninputs; k++)
            if (n->in[k].id >= 0) n->in[k].id = newid[n->in[k].id];
        if (m != i) g->nodes[m] = *n;
        m++;
    }
    g->nnodes = m;
    for (int i = 0; i < g->noutputs; i++) g->outputs[i].value = newid[g->outputs[i].value];
    for (int i = 0; i < g->ndonations; i++) {
        g->donations[i].value = newid[g->donations[i].value];
        g->donations[i].input = newid[g->donations[i].input];
    }
    free(newid);
    free(live);
}

static int count_nodes(const Graph *g) {
    int k = 0;
    for (int i = 0; i < g->nnodes; i++) k += g->nodes[i].op != OP_INPUT;
    return k;
}

int pass_simplify(Graph *g, Diag *d) {
    memset(&stats, 0, sizeof stats);
    if (ir_verify(g, d)) return -1;
    if (g->plan && g->free_plan) g->free_plan(g->plan); /* node ids change */
    g->plan = NULL;
    stats.nodes_before = count_nodes(g);

    Ctx c = {.g = g};
    size_t n = (size_t)g->nnodes;
    c.repl = xcalloc(n, sizeof *c.repl);
    c.flags = xcalloc(n, sizeof *c.flags);
    for (size_t i = 0; i < n; i++) c.repl[i] = (NodeId)i;
    for (int i = 0; i < g->noutputs; i++) c.flags[g->outputs[i].value] |= F_OUTPUT;
    for (int i = 0; i < g->ndonations; i++) {
        c.flags[g->donations[i].value] |= F_DONATED_VALUE;
        c.flags[g->donations[i].input] |= F_DONATED_INPUT;
    }
    CseTable t;
    t.mask = 16;
    while (t.mask < 2 * n) t.mask *= 2;
    t.slot = xcalloc(t.mask, sizeof *t.slot);
    for (size_t i = 0; i < t.mask; i++) t.slot[i] = -1;
    t.mask--;

    /* One sweep in topological order: each node sees its operands already simplified. */
    for (NodeId id = 0; id < g->nnodes; id++) {
        Node *nd = &g->nodes[id];
        if (nd->op == OP_INPUT) continue;
        for (int k = 0; k < nd->ninputs; k++)
            if (nd->in[k].id >= 0) nd->in[k].id = c.repl[nd->in[k].id];
        int r = ID_NONE;
        for (int iter = 0; iter < 8 && nd->op != OP_FULL; iter++) { /* each step shrinks work */
            if (fold(&c, id)) break;
            if ((r = identity(&c, id)) != ID_CHANGED) break;
        }
        if (r == ID_ALIASED) continue;
        NodeId same = cse_find_or_add(g, &t, id);
        if (same >= 0 && can_alias(&c, id, same)) {
            note(SK_CSE, "%s -> %s", nd->name, g->nodes[same].name);
            alias(&c, id, same);
        }
    }
    for (int i = 0; i < g->noutputs; i++) g->outputs[i].value = c.repl[g->outputs[i].value];
    remove_dead(&c);
    free(t.slot);
    free(c.flags);
    free(c.repl);
    stats.nodes_after = count_nodes(g);

    Diag v;
    diag_init(&v, d->file);
    if (ir_verify(g, &v)) {
        diag_at(d, NULL, "internal: simplify left an invalid graph: %s", v.msg);
        return -1;
    }
    return 0;
}
