/* compiler/php_expr.c: PHP expressions in a graph function: operators, numbers, variables,
 * CudaArray method and static calls mapped to graph ops (the table below), and the messages for
 * what a graph cannot hold (->slice() is read in compiler/php_slice.c). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "php_parse.h"

/* ---- expressions ------------------------------------------------------------------------------ */


const char *const php_kw_loops[] = {"for", "foreach", "while", "do", NULL};
const char *const php_kw_cond[] = {"if", "else", "elseif", "switch", "match", "case", "default", NULL};
const char *const php_kw_incl[] = {"include", "include_once", "require", "require_once", NULL};

int php_in_list(const PhpTok *t, const char *const *kws) {
    for (int i = 0; kws[i]; i++)
        if (php_tok_kw(t, kws[i])) return 1;
    return 0;
}

int php_loop_error(P *p, const PhpTok *t) {
    return php_perr(p, t, "loops are not supported in a graph function: a graph is straight-line code; "
                          "write each step as its own assignment");
}
int php_cond_error(P *p, const PhpTok *t) {
    return php_perr(p, t, "conditionals are not supported in a graph function: every step always runs; "
                          "select elementwise with CudaArray::where($cond, $a, $b)");
}
int php_include_error(P *p, const PhpTok *t) {
    return php_perr(p, t, "includes are not followed: gtc reads one file; only `require_once` of "
                          "gtc_attributes.php at the top level is allowed (and ignored)");
}

/* Explains an operator or token that cannot continue an expression. */
int php_bad_continuation(P *p, const char *expected) {
    const PhpTok *t = php_cur(p);
    static const char *const cmp[] = {"<", ">", "<=", ">=", "==", "!=", "===", "!==", "<>", "<=>", NULL};
    for (int i = 0; cmp[i]; i++)
        if (php_tok_is(t, cmp[i]))
            return php_perr(p, t, "the operator %s is not supported: on CudaArray it compares objects, not "
                                  "elements; use ->lt(), ->le(), ->gt(), ->ge(), ->eq() or ->ne()", t->text);
    if (php_tok_is(t, "?") || php_tok_is(t, "??")) return php_cond_error(p, t);
    if (php_tok_is(t, "%"))
        return php_perr(p, t, "the operator %% is not supported; the operators are + - * / ** and the CudaArray methods");
    if (php_tok_is(t, "."))
        return php_perr(p, t, "string concatenation is not supported: strings in a graph file are constants");
    if (php_tok_is(t, "&&") || php_tok_is(t, "||") || php_tok_kw(t, "and") || php_tok_kw(t, "or") ||
        php_tok_kw(t, "xor") || php_tok_is(t, "&") || php_tok_is(t, "|") || php_tok_is(t, "^") ||
        php_tok_is(t, "<<") || php_tok_is(t, ">>"))
        return php_perr(p, t, "the operator %s is not supported; the operators are + - * / ** and the CudaArray "
                              "methods (combine conditions with CudaArray::where)", t->text);
    if (php_tok_is(t, "[")) return php_perr(p, t, "indexing is not supported; use ->slice(...) (one selector per axis: ->slice(0), ->slice(null, [1, 3]))");
    if (php_tok_is(t, "=") || (t->kind == PT_PUNCT && t->len >= 2 && t->text[t->len - 1] == '=' && t->text[0] != '='))
        return php_perr(p, t, "assignment inside an expression is not supported; assign each value in its own statement");
    return php_unexpected(p, expected);
}

/* Arguments in parentheses: constants as literals, anything else as an expression (method calls,
 * the file's functions, PHP's math functions). */
int php_parse_args(P *p, Arg *args, int *nargs) {
    if (php_expect(p, "(", "'('")) return -1;
    *nargs = 0;
    while (!php_tok_is(php_cur(p), ")")) {
        if (*nargs == MAX_ARGS) return php_perr(p, php_cur(p), "more than %d arguments", MAX_ARGS);
        Arg *a = &args[(*nargs)++];
        memset(a, 0, sizeof *a);
        if (php_cur(p)->kind == PT_IDENT && php_tok_is(php_ahead(p, 1), ":")) a->name = php_take(p), php_take(p);
        a->at = php_cur(p);
        const PhpTok *t = php_cur(p);
        int next_ok = !php_tok_is(php_ahead(p, 1), "(") && !php_tok_is(php_ahead(p, 1), "::") && !php_tok_is(php_ahead(p, 1), "\\");
        if (php_tok_is(t, "..."))
            return php_perr(p, t, "argument unpacking (...) is not supported; pass each argument");
        if (php_tok_is(t, "[") || t->kind == PT_STRING || t->kind == PT_ISTRING ||
            ((php_tok_kw(t, "true") || php_tok_kw(t, "false") || php_tok_kw(t, "null")) && next_ok)) {
            if (!(a->lit = php_parse_lit(p))) return -1;
        } else if (php_expr(p, &a->v)) {
            return -1;
        }
        if (php_tok_is(php_cur(p), ",")) php_take(p);
        else if (!php_tok_is(php_cur(p), ")")) return php_bad_continuation(p, "',' or ')'");
    }
    php_take(p);
    return 0;
}

const char *php_lit_kind(const Lit *l) {
    switch (l->k) {
    case L_STR: return "a string";
    case L_NUM: return "a number";
    case L_BOOL: return "a boolean";
    case L_NULL: return "null";
    default: return "a list";
    }
}

/* A tensor or number operand. */
static int arg_operand(P *p, const char *fname, const char *param, const Arg *a, Val *v) {
    if (a->lit && a->lit->k == L_NUM) {
        v->is_node = 0, v->num = a->lit->num;
        return 0;
    }
    if (a->lit) return php_perr(p, a->at, "%s: $%s must be a CudaArray or a number, got %s", fname, param, php_lit_kind(a->lit));
    *v = a->v;
    return 0;
}

static int arg_tensor(P *p, const char *fname, const char *param, const Arg *a, Val *v) {
    if (arg_operand(p, fname, param, a, v)) return -1;
    if (!v->is_node) return php_perr(p, a->at, "%s: $%s must be a CudaArray, got a number", fname, param);
    return 0;
}

/* An integer list (or, with scalar_ok, one integer) of at most IR_MAX_RANK entries in [lo, hi]. */
int php_arg_ints(P *p, const char *fname, const char *param, const Arg *a, int scalar_ok, int64_t lo,
                    int64_t hi, int64_t *out, int *n) {
    const char *want = scalar_ok ? "an integer or a list of integers" : "a list of integers";
    if (!a->lit && !a->v.is_node && scalar_ok) {
        double v = a->v.num;
        if (v != floor(v) || v < (double)lo || v > (double)hi)
            return php_perr(p, a->at, "%s: $%s must be an integer from %lld to %lld", fname, param, (long long)lo, (long long)hi);
        out[0] = (int64_t)v, *n = 1;
        return 0;
    }
    if (!a->lit || a->lit->k != L_LIST)
        return php_perr(p, a->at, "%s: $%s must be %s, got %s", fname, param, want,
                    a->lit ? php_lit_kind(a->lit) : a->v.is_node ? "a CudaArray" : "a number");
    if (a->lit->n > IR_MAX_RANK) return php_perr(p, a->at, "%s: $%s has more than %d entries", fname, param, IR_MAX_RANK);
    for (int i = 0; i < a->lit->n; i++) {
        const Lit *e = a->lit->items[i];
        if (a->lit->keys[i]) return php_perr(p, a->lit->keys[i], "%s: $%s must be a plain list, without keys", fname, param);
        if (e->k != L_NUM || !e->is_int || e->num < (double)lo || e->num > (double)hi)
            return php_perr(p, e->at, "%s: $%s[%d] must be an integer from %lld to %lld", fname, param, i, (long long)lo,
                        (long long)hi);
        out[i] = (int64_t)e->num;
    }
    *n = a->lit->n;
    return 0;
}

static int arg_bool(P *p, const char *fname, const char *param, const Arg *a, bool *out) {
    if (!a->lit || a->lit->k != L_BOOL)
        return php_perr(p, a->at, "%s: $%s must be true or false", fname, param);
    *out = a->lit->num != 0;
    return 0;
}

int php_arg_dtype(P *p, const char *fname, const char *param, const Arg *a, DType *out) {
    if (!a->lit || a->lit->k != L_STR) return php_perr(p, a->at, "%s: $%s must be a dtype name string", fname, param);
    if (ir_dtype_from_name(a->lit->s, out))
        return php_perr(p, a->at, "unknown dtype '%.64s' (expected %s)", a->lit->s, ir_dtype_list());
    return 0;
}

/* Methods and static methods: the CudaArray API (runtime/php/gtc.stub.php) that has graph ops. */
typedef enum { M_BIN, M_UNARY, M_CLAMP, M_CAST, M_REDUCE, M_ARG, M_MATMUL, M_SHAPE, M_TRANSPOSE, M_SLICE,
               M_GATHER, M_SCATTER, M_PAD, M_DROPOUT, M_COMPOSITE, M_ONE_HOT,
               M_SQUEEZE, M_UNSQUEEZE, M_FLATTEN, /* reshapes (view_shape) */
               S_WHERE, S_FULL, S_ZEROS, S_ONES } MKind;
typedef struct {
    const char *name;
    Op op;
    MKind kind;
    int nreq;
    const char *params[7];          /* NULL-terminated */
} Method;

static const Method methods[] = {
    {"add", OP_ADD, M_BIN, 1, {"other"}}, {"subtract", OP_SUB, M_BIN, 1, {"other"}},
    {"multiply", OP_MUL, M_BIN, 1, {"other"}}, {"divide", OP_DIV, M_BIN, 1, {"other"}},
    {"power", OP_POW, M_BIN, 1, {"other"}}, {"maximum", OP_MAXIMUM, M_BIN, 1, {"other"}},
    {"minimum", OP_MINIMUM, M_BIN, 1, {"other"}}, {"eq", OP_EQ, M_BIN, 1, {"other"}},
    {"ne", OP_NE, M_BIN, 1, {"other"}}, {"lt", OP_LT, M_BIN, 1, {"other"}}, {"le", OP_LE, M_BIN, 1, {"other"}},
    {"gt", OP_GT, M_BIN, 1, {"other"}}, {"ge", OP_GE, M_BIN, 1, {"other"}},
    {"clamp", OP_CLAMP, M_CLAMP, 2, {"min", "max"}},
    {"neg", OP_NEG, M_UNARY, 0, {0}}, {"abs", OP_ABS, M_UNARY, 0, {0}}, {"exp", OP_EXP, M_UNARY, 0, {0}},
    {"log", OP_LOG, M_UNARY, 0, {0}}, {"sqrt", OP_SQRT, M_UNARY, 0, {0}}, {"rsqrt", OP_RSQRT, M_UNARY, 0, {0}},
    {"sin", OP_SIN, M_UNARY, 0, {0}}, {"cos", OP_COS, M_UNARY, 0, {0}}, {"tan", OP_TAN, M_UNARY, 0, {0}}, {"tanh", OP_TANH, M_UNARY, 0, {0}},
    {"sigmoid", OP_SIGMOID, M_UNARY, 0, {0}}, {"relu", OP_RELU, M_UNARY, 0, {0}},
    {"floor", OP_FLOOR, M_UNARY, 0, {0}}, {"ceil", OP_CEIL, M_UNARY, 0, {0}},
    {"round", OP_ROUND, M_UNARY, 0, {0}}, {"sign", OP_SIGN, M_UNARY, 0, {0}},
    {"erf", OP_ERF, M_UNARY, 0, {0}},
    {"astype", OP_CAST, M_CAST, 1, {"dtype", "casting"}},
    {"sum", OP_SUM, M_REDUCE, 0, {"axis", "keepdims"}}, {"mean", OP_MEAN, M_REDUCE, 0, {"axis", "keepdims"}},
    {"max", OP_MAX, M_REDUCE, 0, {"axis", "keepdims"}}, {"min", OP_MIN, M_REDUCE, 0, {"axis", "keepdims"}},
    {"prod", OP_PROD, M_REDUCE, 0, {"axis", "keepdims"}},
    {"argMax", OP_ARGMAX, M_ARG, 1, {"axis", "keepdims"}}, {"argMin", OP_ARGMIN, M_ARG, 1, {"axis", "keepdims"}},
    {"matmul", OP_MATMUL, M_MATMUL, 1, {"other"}},
    {"gather", OP_GATHER, M_GATHER, 1, {"indices", "axis"}},
    {"scatterAdd", OP_SCATTER_ADD, M_SCATTER, 2, {"indices", "updates", "axis"}},
    {"pad", OP_PAD, M_PAD, 1, {"pads", "value"}},
    {"oneHot", OP_ONE_HOT, M_ONE_HOT, 1, {"depth", "dtype"}},
    {"dropout", OP_DROPOUT, M_DROPOUT, 2, {"ratio", "seed"}},
    {"softmax", OP_SOFTMAX, M_COMPOSITE, 0, {"axis"}}, {"logSoftmax", OP_LOG_SOFTMAX, M_COMPOSITE, 0, {"axis"}},
    {"layerNorm", OP_LAYER_NORM, M_COMPOSITE, 2, {"scale", "bias", "axis", "epsilon"}},
    {"gelu", OP_GELU, M_COMPOSITE, 0, {"approximate"}},
    {"crossEntropy", OP_CROSS_ENTROPY, M_COMPOSITE, 1, {"target", "axis"}},
    {"conv2d", OP_CONV2D, M_COMPOSITE, 1, {"weight", "bias", "strides", "pads", "dilations", "group"}},
    {"maxPool2d", OP_MAX_POOL2D, M_COMPOSITE, 1, {"kernel", "strides", "pads"}},
    {"avgPool2d", OP_AVG_POOL2D, M_COMPOSITE, 1, {"kernel", "strides", "pads", "countIncludePad"}},
    {"reshape", OP_RESHAPE, M_SHAPE, 1, {"shape"}}, {"broadcastTo", OP_BROADCAST_TO, M_SHAPE, 1, {"shape"}},
    {"squeeze", OP_RESHAPE, M_SQUEEZE, 0, {"axis"}}, {"unsqueeze", OP_RESHAPE, M_UNSQUEEZE, 1, {"axis"}},
    {"flatten", OP_RESHAPE, M_FLATTEN, 0, {0}},
    {"transpose", OP_TRANSPOSE, M_TRANSPOSE, 0, {"perm"}},
    {"slice", OP_SLICE, M_SLICE, 0, {0}},
    {NULL, 0, 0, 0, {0}}};

static const Method statics[] = {
    {"where", OP_WHERE, S_WHERE, 3, {"condition", "x", "y"}},
    {"full", OP_FULL, S_FULL, 2, {"shape", "value", "dtype"}},
    {"zeros", OP_FULL, S_ZEROS, 1, {"shape", "dtype"}},
    {"ones", OP_FULL, S_ONES, 1, {"shape", "dtype"}},
    {NULL, 0, 0, 0, {0}}};

static const Method *find_method(const Method *tab, const char *name) {
    for (int i = 0; tab[i].name; i++)
        if (strcasecmp(tab[i].name, name) == 0) return &tab[i];
    return NULL;
}

/* astype's $casting (NumPy's rules, as the runtime's astype): checked on the operand's dtype. */
static int cast_allowed(P *p, const PhpTok *at, const char *fname, const Arg *c, const Val *self, DType to) {
    IrCasting casting = IR_CAST_SAME_KIND;
    if (c && (!c->lit || c->lit->k != L_STR || ir_casting_from_name(c->lit->s, &casting)))
        return php_perr(p, c->at, "%s: $casting must be 'no', 'equiv', 'safe', 'same_kind' or 'unsafe'", fname);
    TensorType t;
    if (php_node_type(p, self->id, &t)) return -1;
    if (!ir_can_cast(t.dtype, to, casting))
        return php_perr(p, at, "%s: unsafe cast from %s to %s under casting '%s'; add casting: 'unsafe' for the "
                               "saturating conversion", fname, ir_dtype_name(t.dtype), ir_dtype_name(to),
                        ir_casting_name(casting));
    return 0;
}

/* A list argument of exactly `want` integers from lo (the runtime's conv2d/pool methods' lists). */
static int window_list(P *p, const char *fname, const char *param, const Arg *a, int want, int64_t lo, int64_t *out) {
    int cnt;
    if (php_arg_ints(p, fname, param, a, 0, lo, IR_MAX_DIM - 1, out, &cnt)) return -1;
    if (cnt != want) return php_perr(p, a->at, "%s: $%s must be a list of %d integers", fname, param, want);
    return 0;
}

/* conv2d(weight, bias, strides, pads, dilations, group), maxPool2d(kernel, strides, pads) and
 * avgPool2d(..., countIncludePad): as the runtime's methods (runtime/php/cudaarray_nn.c). */
static int window_args(P *p, const char *fname, const Method *m, Arg **s, Val *in, int *nin, Attrs *a) {
    bool conv = m->op == OP_CONV2D;
    int k = 0;
    if (conv) {
        if (arg_tensor(p, fname, "weight", s[0], &in[1])) return -1;
        *nin = 2;
        if (s[1] && !(s[1]->lit && s[1]->lit->k == L_NULL)) {
            if (arg_tensor(p, fname, "bias", s[1], &in[2])) return -1;
            *nin = 3;
        }
        k = 2;
    } else {
        if (window_list(p, fname, "kernel", s[0], 2, 1, a->kernel)) return -1;
        a->nkernel = 2, k = 1;
    }
    if (s[k] && window_list(p, fname, "strides", s[k], 2, 1, a->strides)) return -1;
    if (s[k + 1] && window_list(p, fname, "pads", s[k + 1], 4, 0, a->pads)) return -1;
    a->nstrides = s[k] ? 2 : 0, a->npads = s[k + 1] ? 4 : 0;
    if (conv && s[4]) {
        if (window_list(p, fname, "dilations", s[4], 2, 1, a->dilations)) return -1;
        a->ndilations = 2;
    }
    if (conv && s[5]) {
        int cnt;
        if (php_arg_ints(p, fname, "group", s[5], 1, 1, IR_MAX_DIM - 1, &a->group, &cnt)) return -1;
        if (cnt != 1) return php_perr(p, s[5]->at, "%s: $group must be one integer", fname);
    }
    if (m->op == OP_AVG_POOL2D && s[3] && arg_bool(p, fname, "countIncludePad", s[3], &a->count_include_pad)) return -1;
    return 0;
}

/* A composite op's arguments (its slots s[] as m->params names them) into operands and attrs. */
static int composite_args(P *p, const char *fname, const Method *m, Arg **s, Val *in, int *nin, Attrs *a) {
    int64_t v;
    int cnt;
    const Arg *axis = NULL;
    switch (m->op) {
    case OP_SOFTMAX: case OP_LOG_SOFTMAX: axis = s[0]; break;
    case OP_LAYER_NORM:
        if (arg_operand(p, fname, "scale", s[0], &in[1]) || arg_operand(p, fname, "bias", s[1], &in[2])) return -1;
        *nin = 3, axis = s[2];
        if (s[3]) {
            bool num = (s[3]->lit && s[3]->lit->k == L_NUM) || (!s[3]->lit && !s[3]->v.is_node);
            double e = !num ? 0 : s[3]->lit ? s[3]->lit->num : s[3]->v.num;
            if (!num || !(e >= 0)) return php_perr(p, s[3]->at, "%s: $epsilon must be a number >= 0", fname);
            a->epsilon = e, a->has_epsilon = true;
        }
        break;
    case OP_GELU:
        if (s[0]) {
            const Lit *l = s[0]->lit;
            if (!l || l->k != L_STR || (strcmp(l->s, "none") != 0 && strcmp(l->s, "tanh") != 0))
                return php_perr(p, s[0]->at, "%s: $approximate must be 'none' or 'tanh'", fname);
            a->approx_tanh = strcmp(l->s, "tanh") == 0;
        }
        break;
    case OP_CROSS_ENTROPY:
        if (arg_tensor(p, fname, "target", s[0], &in[1])) return -1;
        *nin = 2, axis = s[1];
        break;
    case OP_CONV2D: case OP_MAX_POOL2D: case OP_AVG_POOL2D: return window_args(p, fname, m, s, in, nin, a);
    default: return php_perr(p, s[0] ? s[0]->at : NULL, "internal: %s is not a composite", fname);
    }
    if (axis) {
        if (php_arg_ints(p, fname, "axis", axis, 1, -IR_MAX_RANK, IR_MAX_RANK - 1, &v, &cnt)) return -1;
        if (cnt != 1) return php_perr(p, axis->at, "%s: $axis must be one integer", fname);
        a->axis = (int)v, a->has_axis = true;
    }
    return 0;
}

/* A composite op: its primitives appended here by ir_expand_composite (ir/composite.c), the last
 * one standing for the call; every node before them typed first, as the expansion reads types. */
static int composite_call(P *p, const PhpTok *at, const char *fname, Op op, const Val *in, int nin,
                          const Attrs *a, Val *out) {
    Operand ops[IR_MAX_INPUTS];
    TensorType t;
    if (p->g->nnodes && php_node_type(p, p->g->nnodes - 1, &t)) return -1;
    for (int i = 0; i < nin; i++) ops[i] = in[i].is_node ? (Operand){in[i].id, 0} : (Operand){-1, in[i].num};
    char loc[48], err[512];
    snprintf(loc, sizeof loc, "%d:%d", at->line, at->col);
    NodeId first = p->g->nnodes, tmp;
    /* a fresh name the way every node gets one: make a node, take its name, drop it */
    if (php_new_node(p, at, op, NULL, 0, &tmp)) return -1;
    char *name = p->g->nodes[tmp].name;
    p->g->nnodes--;
    php_keep(p, name); /* `reserved` borrows it */
    NodeId id = ir_expand_composite(p->g, op, ops, nin, a, name, loc, err, sizeof err);
    if (id < 0) return php_perr(p, at, "%s: %s", fname, err);
    for (NodeId k = first; k < p->g->nnodes; k++) php_node_named(p, p->g->nodes[k].name);
    p->ntyped = p->g->nnodes;
    out->is_node = 1, out->id = id;
    return 0;
}

/* ->squeeze($axis), ->unsqueeze($axis), ->flatten(): reshapes to the shape the runtime's
 * methods compute (ir_squeeze_shape, ir_unsqueeze_shape), with their messages. */
static int view_shape(P *p, const char *fname, MKind k, const Arg *axis, const Val *self, Attrs *a) {
    const int64_t big = (int64_t)1 << 53;
    int64_t axes[IR_MAX_RANK];
    int n = 0, rank = 1;
    TensorType t;
    char err[160];
    bool all = !axis || (axis->lit && axis->lit->k == L_NULL);
    if (php_node_type(p, self->id, &t) || (!all && php_arg_ints(p, fname, "axis", axis, 1, -big, big, axes, &n))) return -1;
    if (k == M_UNSQUEEZE && n != 1) return php_perr(p, axis->at, "%s: $axis must be one integer", fname);
    if (k == M_UNSQUEEZE) rank = ir_unsqueeze_shape(t.rank, t.dims, axes[0], a->shape, err, sizeof err);
    else if (k == M_SQUEEZE) rank = ir_squeeze_shape(t.rank, t.dims, all ? NULL : axes, n, a->shape, err, sizeof err);
    else a->shape[0] = ir_numel(&t);
    if (rank < 0) return php_perr(p, axis->at, "%s: %s", fname, err);
    a->nshape = rank;
    return 0;
}

/* A method call self->m(args) (self NULL for a static call). */
static int call(P *p, const PhpTok *at, const Method *m, const Val *self, Val *out) {
    Arg args[MAX_ARGS], *s[7];
    int nargs;
    char fname[80];
    snprintf(fname, sizeof fname, "%s%s()", self ? "->" : "CudaArray::", m->name);
    if (php_parse_args(p, args, &nargs)) return -1;
    if (m->kind == M_SLICE) return php_slice_call(p, at, fname, args, nargs, self, out);
    if (php_bind(p, at, fname, m->params, m->nreq, args, nargs, s)) return -1;
    Val in[3] = {{0, 0, -1}, {0, 0, -1}, {0, 0, -1}};
    if (self) in[0] = *self;
    Attrs at_ = {0};
    int64_t tmp[IR_MAX_RANK];
    int cnt = 0, nin = 1;
    switch (m->kind) {
    case M_BIN:
        if (arg_operand(p, fname, "other", s[0], &in[1])) return -1;
        nin = 2;
        break;
    case M_MATMUL:
        if (arg_tensor(p, fname, "other", s[0], &in[1])) return -1;
        nin = 2;
        break;
    case M_GATHER: case M_SCATTER: {
        const Arg *ax = m->kind == M_GATHER ? s[1] : s[2];
        if (arg_tensor(p, fname, "indices", s[0], &in[1])) return -1;
        if (m->kind == M_SCATTER && arg_tensor(p, fname, "updates", s[1], &in[2])) return -1;
        nin = m->kind == M_GATHER ? 2 : 3;
        if (ax) {
            if (php_arg_ints(p, fname, "axis", ax, 1, -IR_MAX_RANK, IR_MAX_RANK - 1, tmp, &cnt)) return -1;
            if (cnt != 1) return php_perr(p, ax->at, "%s: $axis must be one integer", fname);
            at_.axis = (int)tmp[0];
        }
        break;
    }
    case M_DROPOUT: {
        bool num = (s[0]->lit && s[0]->lit->k == L_NUM) || (!s[0]->lit && !s[0]->v.is_node);
        at_.ratio = !num ? -1 : s[0]->lit ? s[0]->lit->num : s[0]->v.num;
        if (!(at_.ratio >= 0 && at_.ratio < 1))
            return php_perr(p, s[0]->at, "%s: $ratio must be a number at least 0 and less than 1", fname);
        if (arg_tensor(p, fname, "seed", s[1], &in[1])) return -1;
        nin = 2;
        break;
    }
    case M_COMPOSITE: {
        Attrs ca = {0};
        if (composite_args(p, fname, m, s, in, &nin, &ca)) return -1;
        return composite_call(p, at, fname, m->op, in, nin, &ca, out);
    }
    case M_ONE_HOT: { /* as the runtime's oneHot($depth, $dtype = 'float32') */
        int64_t depth;
        if (php_arg_ints(p, fname, "depth", s[0], 1, 1, IR_MAX_DIM - 1, &depth, &cnt)) return -1;
        if (cnt != 1) return php_perr(p, s[0]->at, "%s: $depth must be one integer", fname);
        at_.depth = depth;
        at_.dtype = DT_FLOAT32, at_.has_dtype = true;
        if (s[1] && php_arg_dtype(p, fname, "dtype", s[1], &at_.dtype)) return -1;
        break;
    }
    case M_PAD: {
        const Lit *l = s[0]->lit;
        if (!l || l->k != L_LIST || l->n > 2 * IR_MAX_RANK)
            return php_perr(p, s[0]->at, "%s: $pads must be a list of at most %d integers", fname, 2 * IR_MAX_RANK);
        for (int i = 0; i < l->n; i++) {
            const Lit *e = l->items[i];
            if (e->k != L_NUM || !e->is_int || e->num < 0 || e->num >= (double)IR_MAX_DIM)
                return php_perr(p, e->at, "%s: $pads[%d] must be an integer from 0 to 2^31-1", fname, i);
            at_.pads[at_.npads++] = (int64_t)e->num;
        }
        if (s[1] && s[1]->lit && s[1]->lit->k == L_NUM) at_.value = s[1]->lit->num;
        else if (s[1] && !s[1]->lit && !s[1]->v.is_node) at_.value = s[1]->v.num;
        else if (s[1]) return php_perr(p, s[1]->at, "%s: $value must be a number", fname);
        break;
    }
    case M_CLAMP:
        if (arg_operand(p, fname, "min", s[0], &in[1]) || arg_operand(p, fname, "max", s[1], &in[2])) return -1;
        nin = 3;
        break;
    case M_UNARY: break;
    case M_CAST:
        if (php_arg_dtype(p, fname, "dtype", s[0], &at_.dtype) || cast_allowed(p, at, fname, s[1], self, at_.dtype))
            return -1;
        at_.has_dtype = true;
        break;
    case M_REDUCE: case M_ARG:
        if (s[0] && !(s[0]->lit && s[0]->lit->k == L_NULL && m->kind == M_REDUCE)) {
            if (php_arg_ints(p, fname, "axis", s[0], 1, -IR_MAX_RANK, IR_MAX_RANK - 1, tmp, &cnt)) return -1;
            if (m->kind == M_ARG && cnt != 1) return php_perr(p, s[0]->at, "%s: $axis must be one integer", fname);
            at_.has_axes = true, at_.naxes = cnt;
            for (int i = 0; i < cnt; i++) at_.axes[i] = (int)tmp[i];
        }
        if (s[1] && arg_bool(p, fname, "keepdims", s[1], &at_.keepdims)) return -1;
        break;
    case M_SHAPE:
        if (php_arg_ints(p, fname, "shape", s[0], 0, m->op == OP_RESHAPE ? -1 : 0, IR_MAX_DIM - 1, at_.shape, &at_.nshape))
            return -1;
        break;
    case M_TRANSPOSE:
        if (s[0] && !(s[0]->lit && s[0]->lit->k == L_NULL)) {
            if (php_arg_ints(p, fname, "perm", s[0], 0, -IR_MAX_RANK, IR_MAX_RANK - 1, tmp, &cnt)) return -1;
            at_.nperm = cnt;
            for (int i = 0; i < cnt; i++) at_.perm[i] = (int)tmp[i];
        }
        break;
    case M_SLICE: break; /* php_slice_call */
    case M_SQUEEZE: case M_UNSQUEEZE: case M_FLATTEN:
        if (view_shape(p, fname, m->kind, m->kind == M_FLATTEN ? NULL : s[0], self, &at_)) return -1; /* flatten: no slot */
        break;
    case S_WHERE: {
        if (arg_tensor(p, fname, "condition", s[0], &in[0]) || arg_operand(p, fname, "x", s[1], &in[1]) ||
            arg_operand(p, fname, "y", s[2], &in[2]))
            return -1;
        /* a condition of another dtype means != 0, as the runtime's where (NumPy's truthiness) */
        TensorType ct;
        if (php_node_type(p, in[0].id, &ct)) return -1;
        if (ct.dtype != DT_BOOL) {
            Val b;
            if (php_new_node(p, at, OP_CAST, &in[0], 1, &b.id)) return -1;
            b.is_node = 1;
            p->g->nodes[b.id].attrs = (Attrs){.has_dtype = true, .dtype = DT_BOOL};
            in[0] = b;
        }
        nin = 3;
        break;
    }
    case S_FULL: case S_ZEROS: case S_ONES: {
        if (php_arg_ints(p, fname, "shape", s[0], 0, 0, IR_MAX_DIM - 1, at_.shape, &at_.nshape)) return -1;
        const Arg *dt = m->kind == S_FULL ? s[2] : s[1];
        at_.dtype = DT_FLOAT32, at_.has_dtype = true;
        if (dt && php_arg_dtype(p, fname, "dtype", dt, &at_.dtype)) return -1;
        at_.value = m->kind == S_ONES ? 1 : 0;
        if (m->kind == S_FULL) {
            if (s[1]->lit && s[1]->lit->k == L_BOOL) at_.value = s[1]->lit->num;
            else if (s[1]->lit && s[1]->lit->k == L_NUM) at_.value = s[1]->lit->num;
            else if (!s[1]->lit && !s[1]->v.is_node) at_.value = s[1]->v.num;
            else return php_perr(p, s[1]->at, "%s: $value must be a number or a boolean", fname);
        }
        nin = 0;
        out->is_node = 1;
        if (php_new_node(p, at, OP_FULL, in, 0, &out->id)) return -1;
        p->g->nodes[out->id].attrs = at_;
        return 0;
    }
    }
    if (php_apply(p, at, m->op, in, nin, out)) return -1;
    if (out->is_node) p->g->nodes[out->id].attrs = at_;
    return 0;
}

/* $a->concat([$b, ...], axis: N), as the runtime's method ($a first): its list holds
 * expressions, which the generic argument parser (lists of constants) does not read. */
static int call_concat(P *p, const PhpTok *at, const Val *self, Val *out) {
    const char *fname = "->concat()";
    Val in[IR_MAX_INPUTS];
    int n = 1;
    in[0] = *self;
    if (php_expect(p, "(", "'('")) return -1;
    if (php_cur(p)->kind == PT_IDENT && php_tok_is(php_ahead(p, 1), ":") && strcmp(php_cur(p)->text, "tensors") == 0)
        php_take(p), php_take(p);
    if (!php_tok_is(php_cur(p), "["))
        return php_perr(p, php_cur(p), "%s: $tensors must be a list [$a, $b, ...] written in the call", fname);
    php_take(p);
    while (!php_tok_is(php_cur(p), "]")) {
        const PhpTok *t = php_cur(p);
        if (n == IR_MAX_INPUTS) return php_perr(p, t, "%s joins its array and at most %d others", fname, IR_MAX_INPUTS - 1);
        if (php_expr(p, &in[n])) return -1;
        if (!in[n++].is_node) return php_perr(p, t, "%s: $tensors must hold CudaArrays, got a number", fname);
        if (php_tok_is(php_cur(p), ",")) php_take(p);
        else if (!php_tok_is(php_cur(p), "]")) return php_bad_continuation(p, "',' or ']'");
    }
    php_take(p);
    Attrs at_ = {0};
    if (php_tok_is(php_cur(p), ",") && !php_tok_is(php_ahead(p, 1), ")")) {
        php_take(p);
        if (php_cur(p)->kind == PT_IDENT && php_tok_is(php_ahead(p, 1), ":")) {
            if (strcmp(php_cur(p)->text, "axis") != 0)
                return php_perr(p, php_cur(p), "%s has no parameter $%.64s", fname, php_cur(p)->text);
            php_take(p), php_take(p);
        }
        Arg a = {.at = php_cur(p)};
        int64_t ax;
        int cnt;
        if (php_tok_kw(php_cur(p), "null")) php_take(p);
        else if (php_expr(p, &a.v) || php_arg_ints(p, fname, "axis", &a, 1, -IR_MAX_RANK, IR_MAX_RANK - 1, &ax, &cnt)) return -1;
        else at_.axis = (int)ax;
    }
    if (php_tok_is(php_cur(p), ",")) php_take(p);
    if (php_expect(p, ")", "')'")) return -1;
    out->is_node = 1;
    if (php_new_node(p, at, OP_CONCAT, in, n, &out->id)) return -1;
    p->g->nodes[out->id].attrs = at_;
    return 0;
}

int php_unknown_function(P *p, const PhpTok *at, const char *name) {
    return php_perr(p, at, "call to unknown function %.64s(): a graph function calls CudaArray methods "
                           "($x->exp()), CudaArray::where/full/zeros/ones, the operators + - * / **, functions "
                           "defined in the file (inlined) and PHP's math functions on numbers (sqrt, exp, log, pow, "
                           "abs, min, max, ...)", name);
}

static int primary(P *p, Val *out) {
    const PhpTok *t = php_cur(p);
    if (++p->depth > MAX_DEPTH) return php_perr(p, t, "expression is nested more than %d levels deep", MAX_DEPTH);
    int rc = 0;
    if (t->kind == PT_NUMBER) {
        if (php_not_finite(p, t)) return -1; /* an error ends the parse: depth no longer matters */
        php_take(p);
        out->is_node = 0, out->num = t->num;
    } else if (t->kind == PT_VAR) {
        php_take(p);
        NodeId k = namemap_get(&p->vars, t->text);
        if (k < 0)
            rc = php_perr(p, t, "$%.64s is used before it is assigned: a graph function's values are its parameters "
                                "and the variables assigned above", t->text);
        else *out = p->vals[k];
        if (!rc && php_tok_is(php_cur(p), "("))
            rc = php_perr(p, php_cur(p), "calling a variable is not supported; call CudaArray methods");
    } else if (php_tok_is(t, "(")) {
        php_take(p);
        if (!(rc = php_expr(p, out)) && !php_tok_is(php_cur(p), ")")) rc = php_bad_continuation(p, "')'");
        if (!rc) php_take(p);
    } else if (t->kind == PT_ISTRING) {
        rc = php_interpolation(p, t);
    } else if (t->kind == PT_STRING) {
        rc = php_perr(p, t, "a string is not a tensor or a number; strings appear only as arguments (dtype names)");
    } else if (php_tok_is(t, "[")) {
        rc = php_perr(p, t, "a list is not a tensor; lists appear only as arguments (shapes, axes) and in the return");
    } else if (php_in_list(t, php_kw_incl)) {
        rc = php_include_error(p, t);
    } else if (php_tok_kw(t, "match")) {
        rc = php_cond_error(p, t);
    } else if (php_tok_kw(t, "new")) {
        rc = php_perr(p, t, "new is not supported in a graph function: inputs are parameters; make constants with "
                            "CudaArray::full, zeros or ones");
    } else if (php_tok_kw(t, "fn") || php_tok_kw(t, "function")) {
        rc = php_perr(p, t, "closures are not supported in a graph function; write the steps inline");
    } else if (t->kind == PT_IDENT || php_tok_is(t, "\\")) {
        char *raw = php_qname(p);
        if (!raw) return php_unexpected(p, "an expression");
        if (php_tok_is(php_cur(p), "::")) {
            php_take(p);
            const char *cls = php_resolve(p, raw);
            const PhpTok *mt = php_cur(p);
            if (mt->kind != PT_IDENT) return php_unexpected(p, "a static method name");
            if (!php_is_cls(cls, "Cuda\\CudaArray"))
                return php_perr(p, t, "unknown class %.64s: static calls go to Cuda\\CudaArray (where, full, zeros, "
                                      "ones)", cls);
            php_take(p);
            const Method *m = find_method(statics, mt->text);
            if (!m || !php_tok_is(php_cur(p), "("))
                return php_perr(p, mt, "unknown static method CudaArray::%.64s(); the static methods a graph may call "
                                       "are where, full, zeros and ones", mt->text);
            rc = call(p, mt, m, NULL, out);
        } else if (php_tok_is(php_cur(p), "(")) {
            rc = php_function_call(p, t, raw, out);
        } else if (php_tok_kw(t, "true") || php_tok_kw(t, "false") || php_tok_kw(t, "null")) {
            rc = php_perr(p, t, "%s is not a tensor or a number here; booleans appear only as arguments (keepdims)", t->text);
        } else if ((rc = php_math_const(p, t, raw, &out->num)) == 1) {
            out->is_node = 0, rc = 0;
        } else if (rc == 0) {
            rc = php_perr(p, t, "unknown constant %.64s: a graph knows PHP's math constants (M_PI, M_E, M_SQRT2, ..., "
                                "PHP_FLOAT_EPSILON); write other numbers", raw);
        }
    } else if (php_tok_is(t, "$")) {
        rc = php_perr(p, t, "variable variables are not supported; name each value");
    } else if (t->kind == PT_EOF || php_tok_is(t, ";") || php_tok_is(t, ")")) {
        rc = php_unexpected(p, "an expression");
    } else {
        rc = php_unexpected(p, "an expression");
    }
    /* method calls */
    while (!rc) {
        const PhpTok *op = php_cur(p);
        if (php_tok_is(op, "?->")) return php_perr(p, op, "the nullsafe operator ?-> is not supported; use ->");
        if (php_tok_is(op, "::") && out->is_node)
            return php_perr(p, op, "static calls go through the class: CudaArray::where(...)");
        if (!php_tok_is(op, "->")) break;
        php_take(p);
        const PhpTok *mt = php_cur(p);
        if (mt->kind != PT_IDENT) return php_unexpected(p, "a method name");
        php_take(p);
        if (!php_tok_is(php_cur(p), "("))
            return php_perr(p, mt, "property access is not supported; call a CudaArray method");
        const Method *m = find_method(methods, mt->text);
        bool concat = strcasecmp(mt->text, "concat") == 0;
        if (!m && !concat)
            return php_perr(p, mt, "unknown method ->%.64s(): a graph function calls the CudaArray methods that are "
                                   "graph ops (docs/php-graphs.md lists them)", mt->text);
        if (!out->is_node)
            return php_perr(p, mt, "->%s() is called on a number; methods apply to tensors", concat ? "concat" : m->name);
        Val self = *out;
        rc = concat ? call_concat(p, mt, &self, out) : call(p, mt, m, &self, out);
    }
    p->depth--;
    return rc;
}

/* power := primary ['**' unary] (right-associative, binds tighter than unary minus) */
static int unary(P *p, Val *out);
static int power(P *p, Val *out) {
    if (primary(p, out)) return -1;
    if (!php_tok_is(php_cur(p), "**")) return 0;
    const PhpTok *op = php_take(p);
    if (++p->depth > MAX_DEPTH) return php_perr(p, op, "expression is nested more than %d levels deep", MAX_DEPTH);
    Val in[2] = {*out, {0, 0, -1}};
    if (unary(p, &in[1])) return -1;
    p->depth--;
    return php_apply(p, op, OP_POW, in, 2, out);
}

static int unary(P *p, Val *out) {
    const PhpTok *t = php_cur(p);
    if (php_tok_is(t, "-") || php_tok_is(t, "+")) {
        php_take(p);
        if (++p->depth > MAX_DEPTH) return php_perr(p, t, "expression is nested more than %d levels deep", MAX_DEPTH);
        Val v;
        if (unary(p, &v)) return -1;
        p->depth--;
        if (php_tok_is(t, "+")) {
            *out = v;
            return 0;
        }
        return php_apply(p, t, OP_NEG, &v, 1, out);
    }
    if (php_tok_is(t, "!") || php_tok_is(t, "~") || php_tok_is(t, "@") || php_tok_is(t, "&"))
        return php_perr(p, t, "the operator %s is not supported; the operators are + - * / ** and the CudaArray methods",
                    t->text);
    if (php_tok_is(t, "++") || php_tok_is(t, "--"))
        return php_perr(p, t, "%s changes a variable; each variable is assigned once in a graph function", t->text);
    if (php_tok_is(t, "(") && php_ahead(p, 1)->kind == PT_IDENT && php_tok_is(php_ahead(p, 2), ")") &&
        (php_ahead(p, 3)->kind == PT_VAR || php_ahead(p, 3)->kind == PT_NUMBER))
        return php_perr(p, t, "casts are not supported; use ->astype('float32') on tensors");
    return power(p, out);
}

static int term(P *p, Val *out) {
    if (unary(p, out)) return -1;
    while (php_tok_is(php_cur(p), "*") || php_tok_is(php_cur(p), "/")) {
        const PhpTok *op = php_take(p);
        Val in[2] = {*out, {0, 0, -1}};
        if (unary(p, &in[1]) || php_apply(p, op, php_tok_is(op, "*") ? OP_MUL : OP_DIV, in, 2, out)) return -1;
    }
    return 0;
}

int php_expr(P *p, Val *out) {
    if (term(p, out)) return -1;
    while (php_tok_is(php_cur(p), "+") || php_tok_is(php_cur(p), "-")) {
        const PhpTok *op = php_take(p);
        Val in[2] = {*out, {0, 0, -1}};
        if (term(p, &in[1]) || php_apply(p, op, php_tok_is(op, "+") ? OP_ADD : OP_SUB, in, 2, out)) return -1;
    }
    return 0;
}

