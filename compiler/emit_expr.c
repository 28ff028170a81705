/* compiler/emit_expr.c: the expression emitter both code generators share: it writes a node's
 * value at given coordinates as C (the same text is valid CUDA C++): materialised values load
 * from their buffer, views remap coordinates, elementwise nodes expand ops.def's formula over
 * their operands. The C text it is written with comes from emit_str.c. */
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "util.h"

/* ---- the emitter's state ------------------------------------------------------------------------ */

struct EmitMemo {
    char *key, *val;
};

void ex_init(Ex *x, const Graph *g, EmitLang lang, int step, Str *out, Diag *d) {
    memset(x, 0, sizeof *x);
    x->g = g;
    x->p = g->plan;
    x->lang = lang;
    x->step = step;
    x->st = &g->plan->steps[step];
    x->args = lang == EMIT_C ? "a->" : "a.";
    x->idx64 = emit_step_idx64(g, x->st);
    x->idx = x->idx64 ? "long long" : "int";
    x->in_step = calloc((size_t)g->nnodes + 1, sizeof *x->in_step);
    x->bound = calloc((size_t)g->nnodes + 1, sizeof *x->bound);
    x->rowarr = calloc((size_t)g->nnodes + 1, sizeof *x->rowarr);
    if (!x->in_step || !x->bound || !x->rowarr) abort();
    for (int k = 0; k < x->st->nnodes; k++) x->in_step[x->st->nodes[k]] = true;
    x->out = out;
    x->indent = 1;
    x->d = d;
}

void ex_done(Ex *x) {
    ex_release(x, 0);
    ex_versions_reset(x);
    ex_range_free(x);
    free(x->memo);
    for (int i = 0; x->bound && i < x->g->nnodes; i++) free(x->bound[i]), free(x->rowarr[i]);
    free(x->bound);
    free(x->rowarr);
    free(x->in_step);
    memset(x, 0, sizeof *x);
}

void ex_line(Ex *x, const char *fmt, ...) {
    va_list ap;
    str_add(x->out, "%*s", x->indent * 4, "");
    va_start(ap, fmt);
    str_vadd(x->out, fmt, ap);
    va_end(ap);
    str_cat(x->out, "\n");
}

char *ex_name(Ex *x, const char *prefix) { return xfmt("%s%d", prefix, x->ntmp++); }

int ex_mark(const Ex *x) { return x->nmemo; }

void ex_release(Ex *x, int mark) {
    while (x->nmemo > mark) {
        x->nmemo--;
        free(x->memo[x->nmemo].key);
        free(x->memo[x->nmemo].val);
    }
}

void ex_bind(Ex *x, NodeId id, const char *var) {
    free(x->bound[id]);
    x->bound[id] = xstrdup(var);
}

void ex_unbind(Ex *x, NodeId id) {
    free(x->bound[id]);
    x->bound[id] = NULL;
    free(x->rowarr[id]);
    x->rowarr[id] = NULL;
}

void ex_bind_row(Ex *x, NodeId id, const char *arr) {
    free(x->rowarr[id]);
    x->rowarr[id] = xstrdup(arr);
}

static void fail(Ex *x, const char *fmt, const char *name) {
    if (!x->failed) diag_at(x->d, NULL, fmt, x->step, name);
    x->failed = true;
}

char *ex_const(const Ex *x, int64_t v) { return xfmt("%lld%s", (long long)v, x->idx64 ? "LL" : ""); }

char *ex_dim(const Ex *x, const TensorType *t, int i) {
    if (!t->sym[i]) return ex_const(x, t->dims[i]);
    return xfmt("((%s)%ss[%d])", x->idx, x->args, emit_sym_slot(x->g, t->sym[i]));
}

void ex_free_coords(char **coords, int n) {
    for (int i = 0; i < n; i++) free(coords[i]), coords[i] = NULL;
}

static bool is_zero(const char *c) { return strcmp(c, "0") == 0; }

char *ex_linear(Ex *x, const TensorType *t, char *const *coords) {
    Str b = {0};
    int64_t stride = 1;
    for (int i = t->rank - 1; i >= 0; i--) {
        if (t->dims[i] != 1 && !is_zero(coords[i])) {
            if (stride == 1) str_add(&b, "%s%s", b.n ? " + " : "", coords[i]);
            else str_add(&b, "%s%s * %lld%s", b.n ? " + " : "", coords[i], (long long)stride, x->idx64 ? "LL" : "");
        }
        stride *= t->dims[i];
    }
    if (!b.n) return xstrdup("0");
    char *s = str_take(&b);
    char *r = strchr(s, ' ') ? xfmt("(%s)", s) : xstrdup(s);
    free(s);
    return r;
}

static bool is_ident(const char *s) {
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_')) return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
            return false;
    return true;
}

/* Splits lin over dims; an axis with sym[i] set (sym may be NULL) is as long as its size at run
 * time, so the axes before it divide by that size: only a leading symbolic axis is usual (strides
 * static), but a reduction's or a view's sub-space may hold one further in. */
static void split_lines(Ex *x, const char *lin, int rank, const int64_t *dims, const unsigned char *sym, char **coords) {
    char *l = xstrdup(lin);
    /* an index of known range within the shape: its coordinates' ranges are known too */
    int64_t lo = 0, hi = -1, numel = 1;
    for (int i = 0; i < rank; i++) numel *= sym && sym[i] && dims[i] != 1 ? 0 : dims[i];
    bool known = numel > 0 && ex_index_bounds(x, lin, &lo, &hi) && lo >= 0 && hi < numel;
    if (!is_ident(l) && !is_zero(l)) {
        char *t = ex_name(x, "x");
        ex_line(x, "const %s %s = %s;", x->idx, t, l);
        ex_def(x, t, l);
        if (known) ex_range(x, t, lo, hi);
        free(l);
        l = t;
    }
    int first = -1;
    for (int i = 0; i < rank; i++)
        if (dims[i] != 1 && first < 0) first = i;
    int64_t after = 1;
    Str run = {0}; /* the symbolic sizes among the axes after this one: " * ((int)a.s[2])" */
    const char *sf = x->idx64 ? "LL" : "";
    for (int i = rank - 1; i >= 0; i--) {
        const bool sy = sym && sym[i] && dims[i] != 1; /* a bound of 1: the coordinate is 0 anyway */
        if (dims[i] == 1 || is_zero(l)) {
            coords[i] = xstrdup("0");
        } else {
            char *c = ex_name(x, "c");
            char *div = !run.n ? xfmt("%lld%s", (long long)after, sf)
                        : after == 1 ? xfmt("(%s)", run.s + 3) /* run.s: " * (...)" */
                                     : xfmt("(%lld%s%s)", (long long)after, sf, run.s);
            char *len = sy ? xfmt("((%s)%ss[%d])", x->idx, x->args, emit_sym_slot(x->g, sym[i]))
                           : xfmt("%lld%s", (long long)dims[i], sf);
            const bool one = after == 1 && !run.n;
            char *e = i == first && one ? xstrdup(l)
                      : i == first      ? xfmt("%s / %s", l, div)
                      : one             ? xfmt("%s %% %s", l, len)
                                        : xfmt("(%s / %s) %% %s", l, div, len);
            ex_line(x, "const %s %s = %s;", x->idx, c, e);
            ex_def(x, c, e);
            if (known) ex_range(x, c, i == first ? lo / after : 0, i == first ? hi / after : dims[i] - 1);
            free(e);
            coords[i] = c;
            free(div), free(len);
        }
        if (sy) str_add(&run, " * ((%s)%ss[%d])", x->idx, x->args, emit_sym_slot(x->g, sym[i]));
        else after *= dims[i];
    }
    str_free(&run);
    free(l);
    /* a broadcast or a constant may not read every coordinate */
    Str u = {0};
    for (int i = 0; i < rank; i++)
        if (coords[i][0] == 'c') str_add(&u, "%s(void)%s;", u.n ? " " : "", coords[i]);
    if (u.n) ex_line(x, "%s", u.s);
    str_free(&u);
}

/* A split of an index that is invariant in the innermost loop being unswitched (static sizes,
 * none 0: nothing divides by zero where the loop would not have run) is written once before
 * that loop (x->pre) and its coordinates join the invariant names; a second request for it
 * (another version of the loop) finds the same names. */
void ex_split(Ex *x, const char *lin, int rank, const int64_t *dims, const unsigned char *sym, char **coords) {
    bool fixed = true;
    for (int i = 0; i < rank; i++) fixed = fixed && !(sym && sym[i] && dims[i] != 1);
    if (fixed && ex_split_aligned(x, lin, rank, dims, coords)) return;
    if (fixed) ex_refine_request(x, lin, rank, dims);
    bool hoist = ex_invariant(x, lin);
    for (int i = 0; i < rank && hoist; i++) hoist = dims[i] > 0 && !(sym && sym[i] && dims[i] != 1);
    if (!hoist) return split_lines(x, lin, rank, dims, sym, coords);
    Str k = {0};
    str_cat(&k, lin);
    for (int i = 0; i < rank; i++) str_add(&k, "|%lld", (long long)dims[i]);
    int h = ex_list_find(&x->hoist_key, k.s);
    if (h < 0) {
        Str *out = x->out;
        int indent = x->indent;
        x->out = x->pre, x->indent = x->pre_indent;
        split_lines(x, lin, rank, dims, sym, coords);
        x->out = out, x->indent = indent;
        Str v = {0};
        for (int i = 0; i < rank; i++) {
            str_add(&v, "%s%s", i ? " " : "", coords[i]);
            if (!is_zero(coords[i])) ex_list_add(&x->inv, coords[i]);
        }
        ex_list_add(&x->hoist_key, k.s);
        ex_list_add(&x->hoist_val, v.s ? v.s : "");
        str_free(&v);
    } else {
        const char *p = x->hoist_val.s[h];
        for (int i = 0; i < rank; i++) {
            const char *e = strchr(p, ' ');
            size_t n = e ? (size_t)(e - p) : strlen(p);
            coords[i] = xfmt("%.*s", (int)n, p);
            p = e ? e + 1 : p + n;
        }
    }
    str_free(&k);
}

char *ex_extent(const Ex *x, const TensorType *t, unsigned mask) {
    int64_t n = 1;
    Str run = {0};
    for (int i = 0; i < t->rank; i++) {
        if (!(mask & (1u << i))) continue;
        if (t->sym[i] && t->dims[i] != 1)
            str_add(&run, "%s((%s)%ss[%d])", run.n ? " * " : "", x->idx, x->args, emit_sym_slot(x->g, t->sym[i]));
        else n *= t->dims[i];
    }
    char *c = ex_const(x, n);
    if (!run.n) return c;
    char *r = n == 1 ? xfmt("%s", run.s) : xfmt("(%s * %s)", c, run.s);
    free(c), str_free(&run);
    return r;
}

/* A GEMM's M, N, K and batch count as the kernel's expressions (M, N, K ints, the batch a long
 * long): a symbolic one is read from the argument block (a symbolic axis is only ever the leading
 * one of a stored value, so the leading dimensions and batch strides stay static). The CPU's cblas
 * call and the CUDA templates both take them at run time. -1 (reported) for a batched product with
 * a symbolic row or column axis. */
int ex_gemm_sizes(Ex *x, const EmitGemm *gm, char **mnkb) {
    const Node *mm = &x->g->nodes[gm->mm];
    const TensorType *ta = &x->g->nodes[mm->in[0].id].type, *tm = &mm->type;
    int ms = gm->has_m ? tm->sym[tm->rank - 1 - gm->has_n] : 0, ns = gm->has_n ? tm->sym[tm->rank - 1] : 0;
    int ks = ta->sym[ta->rank - 1];
    if ((ms || ns) && gm->batch > 1) {
        diag_node(x->d, mm, "a batched matmul with a symbolic row or column axis is not supported");
        x->failed = true;
        return -1;
    }
    mnkb[0] = ms ? xfmt("(int)%ss[%d]", x->args, emit_sym_slot(x->g, ms)) : xfmt("%lld", (long long)gm->m);
    mnkb[1] = ns ? xfmt("(int)%ss[%d]", x->args, emit_sym_slot(x->g, ns)) : xfmt("%lld", (long long)gm->n);
    mnkb[2] = ks ? xfmt("(int)%ss[%d]", x->args, emit_sym_slot(x->g, ks)) : xfmt("%lld", (long long)gm->k);
    int64_t b = 1;
    Str run = {0};
    for (int i = 0; i < gm->nb; i++) {
        if (tm->sym[i] && gm->bdims[i] != 1) str_add(&run, " * (long long)%ss[%d]", x->args, emit_sym_slot(x->g, tm->sym[i]));
        else b *= gm->bdims[i];
    }
    mnkb[3] = run.n ? xfmt("(%lldLL%s)", (long long)b, run.s) : xfmt("%lldLL", (long long)b);
    str_free(&run);
    return 0;
}

/* ---- buffers ----------------------------------------------------------------------------------- */

static char *base_ptr(Ex *x, const BufRef *b) {
    int slot;
    int64_t off;
    if (plan_buf_slot(x->g, b, &slot, &off)) return NULL;
    if (!off) return xfmt("%sp[%d]", x->args, slot);
    return xfmt("(%sp[%d] + %lld)", x->args, slot, (long long)off);
}

char *ex_addr(Ex *x, NodeId id) {
    char *base = base_ptr(x, &x->p->buf[id]);
    if (!base) {
        fail(x, "internal: step %d needs %s in memory, but the plan gives it no buffer", x->g->nodes[id].name);
        return NULL;
    }
    char *r = xfmt("((%s *)%s)", emit_ctype(x->g->nodes[id].type.dtype), base);
    free(base);
    return r;
}

char *ex_gemm_product(Ex *x, NodeId mm) {
    NodeId tgt = x->st->lower.gemm_out;
    if (tgt >= 0) return ex_addr(x, tgt);
    return xfmt("((%s *)(%sp[%d] + %lld))", emit_ctype(x->g->nodes[mm].type.dtype), x->args,
                x->g->ninputs + x->g->noutputs, (long long)x->p->scratch_off);
}

void ex_store(Ex *x, NodeId id, char *const *coords, const char *val) {
    char *addr = ex_addr(x, id);
    if (!addr) return;
    char *lin = ex_linear(x, &x->g->nodes[id].type, coords);
    ex_line(x, "%s[%s] = %s;", addr, lin, val);
    free(addr);
    free(lin);
}

void ex_store_output(Ex *x, int j, const TensorType *t, char *const *coords, const char *val) {
    char *lin = ex_linear(x, t, coords);
    ex_line(x, "((%s *)%sp[%d])[%s] = %s;", emit_ctype(t->dtype), x->args, x->g->ninputs + j, lin, val);
    free(lin);
}

/* ---- memo ------------------------------------------------------------------------------------------ */

static char *memo_key(NodeId id, int rank, char *const *coords) {
    Str b = {0};
    str_add(&b, "%d", id);
    for (int i = 0; i < rank; i++) str_add(&b, "|%s", coords[i]);
    return str_take(&b);
}

static const char *memo_get(const Ex *x, const char *key) {
    for (int i = x->nmemo - 1; i >= 0; i--)
        if (strcmp(x->memo[i].key, key) == 0) return x->memo[i].val;
    return NULL;
}

static void memo_put(Ex *x, char *key, const char *val) {
    if (x->nmemo == x->capmemo) {
        x->capmemo = x->capmemo ? x->capmemo * 2 : 64;
        x->memo = realloc(x->memo, (size_t)x->capmemo * sizeof *x->memo);
        if (!x->memo) abort();
    }
    x->memo[x->nmemo].key = key;
    x->memo[x->nmemo++].val = xstrdup(val);
}

/* ---- values ---------------------------------------------------------------------------------------- */

/* Operand k's coordinates for an elementwise node: right-aligned, size-1 axes read index 0. */
static void operand_coords(const TensorType *ot, int rank, char *const *coords, char **oc) {
    for (int k = 0; k < ot->rank; k++) oc[k] = xstrdup(ot->dims[k] == 1 ? "0" : coords[k + rank - ot->rank]);
}

/* ops.def's formula with a, b, c, j replaced by the given operand texts. */
static char *expand_formula(const char *expr, char *const *vals, const char *j) {
    Str b = {0};
    for (const char *p = expr; *p;) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_') {
            const char *q = p;
            while ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') || *q == '_') q++;
            size_t n = (size_t)(q - p);
            if (n == 1 && *p >= 'a' && *p <= 'c') str_cat(&b, vals[*p - 'a']);
            else if (n == 1 && *p == 'j' && j) str_cat(&b, j);
            else str_add(&b, "%.*s", (int)n, p);
            p = q;
        } else {
            str_add(&b, "%c", *p++);
        }
    }
    return str_take(&b);
}

static char *value_of_view(Ex *x, const Node *nd, char *const *coords);
static bool view_coords(Ex *x, const Node *nd, char *const *coords, char **oc);
static char *value_of_elemwise(Ex *x, const Node *nd, char *const *coords);
static char *value_of_index(Ex *x, NodeId id, char *const *coords);

static char *load_leaf(Ex *x, NodeId id, char *const *coords) {
    const Node *nd = &x->g->nodes[id];
    const BufRef *b = &x->p->buf[id];
    char *v = ex_name(x, "v");
    if (b->kind == BUF_SCALAR) {
        int slot = emit_scalar_slot(x->g, b->index);
        char *s = xfmt("%ss[%d]", x->args, slot < 0 ? 0 : slot);
        char *c = emit_conv(s, DT_FLOAT64, nd->type.dtype);
        ex_line(x, "const %s %s = %s;", emit_ctype(nd->type.dtype), v, c);
        free(s);
        free(c);
        return v;
    }
    char *addr = ex_addr(x, id);
    if (!addr) return free(v), xstrdup("0");
    char *lin = ex_linear(x, &nd->type, coords);
    ex_line(x, "const %s %s = %s[%s];", emit_ctype(nd->type.dtype), v, addr, lin);
    free(addr);
    free(lin);
    return v;
}

char *ex_value(Ex *x, NodeId id, char *const *coords) {
    const Node *nd = &x->g->nodes[id];
    if (x->bound[id]) return xstrdup(x->bound[id]);
    if (x->rowarr[id]) {
        const char *c = nd->type.rank ? coords[nd->type.rank - 1] : "0", *at = strstr(x->rowarr[id], "[]");
        if (at) return xfmt("%.*s[%s]%s", (int)(at - x->rowarr[id]), x->rowarr[id], c, at + 2);
        return xfmt("%s[%s]", x->rowarr[id], c);
    }
    if (x->failed) return xstrdup("0");
    char *key = memo_key(id, nd->type.rank, coords);
    const char *hit = memo_get(x, key);
    if (hit) {
        free(key);
        return xstrdup(hit);
    }
    OpKind kind = ir_ops[nd->op].kind;
    bool mem = x->p->buf[id].kind != BUF_NONE;
    char *r;
    if (nd->op == OP_INPUT || (mem && !x->in_step[id])) {
        r = load_leaf(x, id, coords);
    } else if (nd->op == OP_FULL) {
        char lit[96];
        emit_literal(nd->type.dtype, nd->attrs.value, lit, sizeof lit);
        r = xstrdup(lit);
    } else if (kind == K_VIEW) {
        r = value_of_view(x, nd, coords);
    } else if (kind == K_ELEMWISE) {
        r = value_of_elemwise(x, nd, coords);
    } else if (kind == K_INDEX) {
        r = value_of_index(x, id, coords);
    } else {
        fail(x, "internal: step %d reads %s, which is neither computed by it nor in memory", nd->name);
        r = xstrdup("0");
    }
    memo_put(x, key, r);
    return r;
}

/* Loads (memoised) the in-memory values that id's value at coords reads, without computing
 * anything: it follows elementwise operands and the views whose coordinates are expressions of
 * the given ones (transpose, broadcast, slice), and stops at bound values, reductions, products
 * and reshapes. A later ex_value at the same coordinate texts finds the loads done. */
void ex_prefetch(Ex *x, NodeId id, char *const *coords) {
    const Node *nd = &x->g->nodes[id];
    if (x->failed || x->bound[id] || x->rowarr[id]) return;
    bool mem = x->p->buf[id].kind != BUF_NONE;
    if (nd->op == OP_INPUT || (mem && !x->in_step[id])) {
        if (x->p->buf[id].kind != BUF_SCALAR) free(ex_value(x, id, coords));
        return;
    }
    const OpKind kind = ir_ops[nd->op].kind;
    if (kind == K_ELEMWISE && nd->op != OP_ONE_HOT) {
        for (int k = 0; k < nd->ninputs; k++) {
            if (nd->in[k].id < 0) continue;
            TensorType t = graph_operand_type(x->g, &nd->in[k]);
            char *oc[IR_MAX_RANK] = {0};
            operand_coords(&t, nd->type.rank, coords, oc);
            ex_prefetch(x, nd->in[k].id, oc);
            ex_free_coords(oc, t.rank);
        }
    } else if (kind == K_VIEW && (nd->op == OP_TRANSPOSE || nd->op == OP_BROADCAST_TO || nd->op == OP_SLICE)) {
        /* coordinates that are expressions of the given ones (no lines of their own) */
        const int rank = x->g->nodes[nd->in[0].id].type.rank;
        char *oc[IR_MAX_RANK] = {0};
        if (view_coords(x, nd, coords, oc)) ex_prefetch(x, nd->in[0].id, oc);
        ex_free_coords(oc, rank);
    }
}

/* Reshape, group by group: the axes of input and output fall into the shortest runs whose sizes
 * have equal products (a merge [a,b]->[ab], a split, an axis kept as it is); a run of one axis
 * each side is a direct copy of the coordinate, any other goes through the run's own linear
 * index. [256,16,12,6] -> [256,16,3,4,6] then splits only the 12 (c / 4, c % 4), instead of a
 * division per axis of the whole linear index, which the compiler cannot simplify. With a
 * symbolic axis: through the whole linear index (ex_split knows run-time sizes). */
static void reshape_coords(Ex *x, const TensorType *in, const TensorType *out, char *const *coords, char **oc) {
    bool sym = false;
    for (int i = 0; i < in->rank; i++) sym = sym || (in->sym[i] && in->dims[i] != 1);
    for (int i = 0; i < out->rank; i++) sym = sym || (out->sym[i] && out->dims[i] != 1);
    if (sym || ir_numel(in) == 0) {
        char *lin = ex_linear(x, out, coords);
        ex_split(x, lin, in->rank, in->dims, in->sym, oc);
        free(lin);
        return;
    }
    int a = 0, b = 0;
    while (a < in->rank || b < out->rank) {
        int a0 = a, b0 = b;
        int64_t pa = 1, pb = 1;
        /* one axis each side at least, then the smaller product grows until they meet; size-1
         * axes at the end of a run join it (they read coordinate 0) */
        if (a < in->rank) pa *= in->dims[a++];
        if (b < out->rank) pb *= out->dims[b++];
        while (pa != pb && (a < in->rank || b < out->rank)) {
            if ((pa < pb && a < in->rank) || b == out->rank) pa *= in->dims[a++];
            else pb *= out->dims[b++];
        }
        while (a < in->rank && in->dims[a] == 1 && (b == out->rank || out->dims[b] != 1)) pa *= in->dims[a++];
        while (b < out->rank && out->dims[b] == 1 && (a == in->rank || in->dims[a] != 1)) pb *= out->dims[b++];
        int na = 0, nb = 0, ka = -1, kb = -1;
        for (int i = a0; i < a; i++) if (in->dims[i] != 1) na++, ka = i;
        for (int i = b0; i < b; i++) if (out->dims[i] != 1) nb++, kb = i;
        if (na <= 1 && nb <= 1) {
            for (int i = a0; i < a; i++) oc[i] = xstrdup(i == ka && kb >= 0 ? coords[kb] : "0");
            continue;
        }
        TensorType ot = {.dtype = out->dtype, .rank = b - b0};
        for (int i = b0; i < b; i++) ot.dims[i - b0] = out->dims[i];
        char *lin = ex_linear(x, &ot, coords + b0);
        if (na == 1) /* a merge: the run's linear index is the coordinate */
            for (int i = a0; i < a; i++) oc[i] = i == ka ? xstrdup(lin) : xstrdup("0");
        else
            ex_split(x, lin, a - a0, in->dims + a0, NULL, oc + a0);
        free(lin);
    }
}

/* The coordinates in view nd's input of its element at coords (oc, in->rank strings); false when
 * the view cannot be indexed. */
static bool view_coords(Ex *x, const Node *nd, char *const *coords, char **oc) {
    NodeId o = nd->in[0].id;
    const TensorType *in = &x->g->nodes[o].type, *out = &nd->type;
    char err[128];
    int64_t start[IR_MAX_RANK], step[IR_MAX_RANK], size[IR_MAX_RANK];
    int perm[IR_MAX_RANK];
    switch (nd->op) {
    case OP_TRANSPOSE:
        if (ir_transpose_perm(&nd->attrs, in->rank, perm, err, sizeof err)) return false;
        for (int i = 0; i < out->rank; i++) oc[perm[i]] = xstrdup(coords[i]);
        return true;
    case OP_BROADCAST_TO: operand_coords(in, out->rank, coords, oc); return true;
    case OP_SLICE:
        if (ir_slice_normalize(in, &nd->attrs, start, step, size, err, sizeof err)) return false;
        for (int i = 0; i < in->rank; i++) {
            const char *sf = x->idx64 ? "LL" : "";
            if (in->dims[i] == 1 || size[i] <= 1) oc[i] = size[i] == 1 && in->dims[i] != 1 ? ex_const(x, start[i]) : xstrdup("0");
            else if (step[i] == 1 && start[i] == 0) oc[i] = xstrdup(coords[i]);
            else if (step[i] == 1) oc[i] = xfmt("(%s + %lld%s)", coords[i], (long long)start[i], sf);
            else if (step[i] > 0) oc[i] = xfmt("(%lld%s + %s * %lld%s)", (long long)start[i], sf, coords[i], (long long)step[i], sf);
            else oc[i] = xfmt("(%lld%s - %s * %lld%s)", (long long)start[i], sf, coords[i], -(long long)step[i], sf);
        }
        return true;
    case OP_RESHAPE: reshape_coords(x, in, out, coords, oc); return true;
    default: return false;
    }
}

static char *value_of_view(Ex *x, const Node *nd, char *const *coords) {
    NodeId o = nd->in[0].id;
    const int rank = x->g->nodes[o].type.rank;
    char *oc[IR_MAX_RANK] = {0};
    if (!view_coords(x, nd, coords, oc)) {
        ex_free_coords(oc, rank);
        fail(x, "internal: step %d: cannot index view %s", nd->name);
        return xstrdup("0");
    }
    char *r = ex_value(x, o, oc);
    ex_free_coords(oc, rank);
    return r;
}

static char *value_of_elemwise(Ex *x, const Node *nd, char *const *coords) {
    const Graph *g = x->g;
    const OpInfo *info = &ir_ops[nd->op];
    TensorType tin[IR_MAX_INPUTS];
    for (int k = 0; k < nd->ninputs; k++) tin[k] = graph_operand_type(g, &nd->in[k]);
    DType ct = ir_compute_dtype(nd->op, tin, nd->ninputs, &nd->type), out = nd->type.dtype;
    /* integer formulas that can overflow run wider and wrap when stored (as the CPU backend) */
    bool wide = (info->rule == R_ARITH || info->rule == R_SIGNED) && ir_dtype_is_int(ct);
    const char *wt = !wide ? NULL : emit_wide_ctype(ct, x->lang);
    bool onehot = nd->op == OP_ONE_HOT;
    int rank = onehot ? nd->type.rank - 1 : nd->type.rank;
    char *vals[IR_MAX_INPUTS] = {0};
    for (int k = 0; k < nd->ninputs; k++) {
        DType want = nd->op == OP_WHERE && k == 0 ? DT_BOOL : ct;
        char *v;
        if (nd->in[k].id < 0) {
            char lit[96];
            emit_literal(want, nd->in[k].value, lit, sizeof lit);
            v = wide ? xfmt("((%s)%s)", wt, lit) : xstrdup(lit);
        } else {
            char *oc[IR_MAX_RANK] = {0};
            operand_coords(&tin[k], rank, coords, oc);
            char *raw = ex_value(x, nd->in[k].id, oc);
            ex_free_coords(oc, tin[k].rank);
            char *cv = emit_conv(raw, tin[k].dtype, want);
            if (wide || strcmp(cv, raw) != 0) {
                v = ex_name(x, "v");
                if (wide) ex_line(x, "const %s %s = (%s)%s;", wt, v, wt, cv);
                else ex_line(x, "const %s %s = %s;", emit_ctype(want), v, cv);
                free(raw);
            } else {
                v = raw;
            }
            free(cv);
        }
        vals[k] = v;
    }
    char *j = onehot ? xfmt("((int64_t)%s)", coords[rank]) : NULL;
    char *e = expand_formula(info->expr, vals, j);
    char *r = ex_name(x, "v");
    ex_line(x, "const %s %s = (%s)%s;", emit_ctype(out), r, emit_ctype(out), e);
    free(e);
    free(j);
    for (int k = 0; k < nd->ninputs; k++) free(vals[k]);
    return r;
}

/* ---- index-mapped ops ------------------------------------------------------------------------- */

/* Reads index `iv` of node id (an axis of size n) into a new long long variable, negatives
 * counted from the end. One out of range writes the plan's error word (plan.h: check_off; the
 * first writer wins) with the index as given, then `then` runs ("continue;"), or (then NULL)
 * the variable becomes 0 so that nothing is read out of bounds. Returns the variable. */
static char *index_var(Ex *x, NodeId id, const char *iv, int64_t n, const char *then) {
    const Plan *p = x->p;
    char *j = ex_name(x, "j");
    ex_line(x, "long long %s = (long long)%s;", j, iv);
    ex_line(x, "if (%s < 0) %s += %lldLL;", j, j, (long long)n);
    ex_line(x, "if (%s < 0 || %s >= %lldLL) {", j, j, (long long)n);
    int code = plan_check_code(p, id), slot = x->g->ninputs + x->g->noutputs;
    if (!code || p->check_off < 0) {
        fail(x, "internal: step %d computes %s, which has no index check in the plan (run pass_lower)", x->g->nodes[id].name);
    } else if (x->lang == EMIT_C) {
        ex_line(x, "    long long *gtc_e = (long long *)(%sp[%d] + %lld);", x->args, slot, (long long)p->check_off);
        ex_line(x, "    if (!gtc_e[0]) gtc_e[0] = %d, gtc_e[1] = (long long)%s;", code, iv);
    } else {
        ex_line(x, "    unsigned long long *gtc_e = (unsigned long long *)(%sp[%d] + %lld);", x->args, slot, (long long)p->check_off);
        ex_line(x, "    if (atomicCAS(gtc_e, 0ULL, %dULL) == 0ULL) gtc_e[1] = (unsigned long long)(long long)%s;", code, iv);
    }
    if (then) ex_line(x, "    %s", then);
    else ex_line(x, "    %s = 0;", j);
    ex_line(x, "}");
    return j;
}

/* gather: data at (c[:axis], indices[c[axis:axis+q]], c[axis+q:]). scatter_add: data at c plus,
 * in index order (the CPU backend's order: the same bits), every update whose index is c[axis]:
 * a loop over the indices per output element, so no two threads write one element. */
/* concat: the operand whose range along the axis holds c[axis], read at c[axis] less its
 * offset; each operand's code stands in its own branch (its lines scoped there, ex_mark). */
static char *value_of_concat(Ex *x, const Node *nd, char *const *coords) {
    int ax, rank = nd->type.rank;
    char err[128];
    if (ir_index_axis(&nd->attrs, rank, &ax, err, sizeof err)) {
        fail(x, "internal: step %d: bad axis of %s", nd->name);
        return xstrdup("0");
    }
    DType out = nd->type.dtype;
    char *r = ex_name(x, "v"), lit[96];
    emit_literal(out, 0, lit, sizeof lit);
    ex_line(x, "%s %s = %s;", emit_ctype(out), r, lit);
    int64_t off = 0, total = nd->type.dims[ax];
    bool open = false;
    for (int k = 0; k < nd->ninputs; k++) {
        const TensorType *t = &x->g->nodes[nd->in[k].id].type;
        int64_t d = t->dims[ax];
        if (!d) continue;
        char *cond = off + d >= total ? NULL : xfmt("%s < %lld%s", coords[ax], (long long)(off + d), x->idx64 ? "LL" : "");
        int known = cond ? ex_guard(x, cond) : 1;
        if (known == 0) { /* this version of the loop never reads operand k */
            free(cond);
            off += d;
            continue;
        }
        if (known == 1) ex_line(x, open ? "} else {" : "{");
        else ex_line(x, "%sif (%s) {", open ? "} else " : "", cond);
        free(cond);
        open = true;
        x->indent++;
        int mark = ex_mark(x);
        char *oc[IR_MAX_RANK] = {0};
        for (int i = 0; i < rank; i++)
            oc[i] = i != ax || !off ? xstrdup(coords[i]) : xfmt("(%s - %lld%s)", coords[i], (long long)off, x->idx64 ? "LL" : "");
        char *v = ex_value(x, nd->in[k].id, oc), *cv = emit_conv(v, t->dtype, out);
        ex_line(x, "%s = %s;", r, cv);
        free(v), free(cv);
        ex_free_coords(oc, rank);
        ex_release(x, mark);
        x->indent--;
        off += d;
        if (known == 1) break;
    }
    if (open) ex_line(x, "}");
    return r;
}

/* pad: the value, or inside the interior the operand at c less the begin pads (its lines in a
 * branch of their own, so nothing is read outside the operand). */
static char *value_of_pad(Ex *x, const Node *nd, char *const *coords) {
    const TensorType *t = &x->g->nodes[nd->in[0].id].type;
    DType out = nd->type.dtype;
    char *r = ex_name(x, "v"), lit[96];
    emit_literal(out, nd->attrs.value, lit, sizeof lit);
    ex_line(x, "%s %s = %s;", emit_ctype(out), r, lit);
    if (!ir_numel(t)) return r;
    const char *sf = x->idx64 ? "LL" : "";
    Str cond = {0};
    char *oc[IR_MAX_RANK] = {0};
    bool never = false; /* a test this version of the loop decides false */
    for (int i = 0; i < t->rank; i++) {
        int64_t lo = nd->attrs.pads[i], hi = nd->attrs.pads[t->rank + i];
        for (int e = 0; e < 2; e++) {
            if (!(e ? hi : lo)) continue;
            char *term = e ? xfmt("%s < %lld%s", coords[i], (long long)(lo + t->dims[i]), sf) : xfmt("%s >= %lld%s", coords[i], (long long)lo, sf);
            int known = ex_guard(x, term);
            if (known < 0) str_add(&cond, "%s%s", cond.n ? " && " : "", term);
            never = never || known == 0;
            free(term);
        }
        oc[i] = lo ? xfmt("(%s - %lld%s)", coords[i], (long long)lo, sf) : xstrdup(coords[i]);
    }
    char *c = str_take(&cond);
    if (never) {
        ex_free_coords(oc, t->rank);
        free(c);
        return r;
    }
    if (c[0]) ex_line(x, "if (%s) {", c);
    else ex_line(x, "{");
    x->indent++;
    int mark = ex_mark(x);
    char *v = ex_value(x, nd->in[0].id, oc), *cv = emit_conv(v, t->dtype, out);
    ex_line(x, "%s = %s;", r, cv);
    ex_release(x, mark);
    x->indent--;
    ex_line(x, "}");
    ex_free_coords(oc, t->rank);
    free(c), free(v), free(cv);
    return r;
}

/* dropout: x at the same coordinates, kept by scalar.h's philox at this element's row-major index
 * (of the dropout's own shape) under the seed; the scale is a literal of x's dtype, as the eager
 * kernels round it. */
static char *value_of_dropout(Ex *x, const Node *nd, char *const *coords) {
    DType out = nd->type.dtype;
    char *xv = ex_value(x, nd->in[0].id, coords), *none[1] = {NULL};
    char *sv = ex_value(x, nd->in[1].id, none), *lin = ex_linear(x, &nd->type, coords);
    char ratio[40], scale[96];
    snprintf(ratio, sizeof ratio, "%.17g", nd->attrs.ratio);
    emit_literal(out, 1.0 / (1.0 - nd->attrs.ratio), scale, sizeof scale);
    char *r = ex_name(x, "v");
    ex_line(x, "const %s %s = gtc_dropout_keep((uint64_t)%s, (uint64_t)%s, %s) ? %s * %s : (%s)0;", emit_ctype(out), r,
            lin, sv, ratio, xv, scale, emit_ctype(out));
    free(xv), free(sv), free(lin);
    return r;
}

static char *value_of_index(Ex *x, NodeId id, char *const *coords) {
    const Graph *g = x->g;
    const Node *nd = &g->nodes[id];
    if (nd->op == OP_CONCAT) return value_of_concat(x, nd, coords);
    if (nd->op == OP_DROPOUT) return value_of_dropout(x, nd, coords);
    if (nd->op == OP_PAD) return value_of_pad(x, nd, coords);
    const TensorType *dt = &g->nodes[nd->in[0].id].type, *it = &g->nodes[nd->in[1].id].type;
    int ax, q = it->rank;
    char err[128];
    if (ir_index_axis(&nd->attrs, dt->rank, &ax, err, sizeof err)) {
        fail(x, "internal: step %d: bad axis of %s", nd->name);
        return xstrdup("0");
    }
    int64_t n = dt->dims[ax];
    DType out = nd->type.dtype;
    char *ic[IR_MAX_RANK] = {0}, *dc[IR_MAX_RANK] = {0};
    if (nd->op == OP_GATHER) {
        for (int i = 0; i < q; i++) ic[i] = xstrdup(coords[ax + i]);
        char *iv = ex_value(x, nd->in[1].id, ic);
        char *j = index_var(x, id, iv, n, NULL);
        for (int i = 0; i < dt->rank; i++)
            dc[i] = i < ax ? xstrdup(coords[i]) : i == ax ? xfmt("((%s)%s)", x->idx, j) : xstrdup(coords[i - 1 + q]);
        char *r = n ? ex_value(x, nd->in[0].id, dc) : xstrdup("0");
        ex_free_coords(ic, q);
        ex_free_coords(dc, dt->rank);
        free(iv);
        free(j);
        return r;
    }
    const TensorType *ut = &g->nodes[nd->in[2].id].type;
    char *dv = ex_value(x, nd->in[0].id, coords), *dcv = emit_conv(dv, dt->dtype, out);
    char *acc = ex_name(x, "s"), *k = ex_name(x, "k");
    ex_line(x, "%s %s = %s;", emit_ctype(out), acc, dcv);
    free(dv);
    free(dcv);
    ex_line(x, "for (%s %s = 0; %s < %lld%s; %s++) {", x->idx, k, k, (long long)ir_numel(it), x->idx64 ? "LL" : "", k);
    x->indent++;
    int mark = ex_mark(x);
    ex_split(x, k, q, it->dims, it->sym, ic);
    char *iv = ex_value(x, nd->in[1].id, ic);
    char *j = index_var(x, id, iv, n, "continue;");
    ex_line(x, "if (%s != (long long)%s) continue;", j, coords[ax]);
    char *uc[IR_MAX_RANK] = {0};
    for (int i = 0; i < ut->rank; i++)
        uc[i] = xstrdup(i < ax ? coords[i] : i < ax + q ? ic[i - ax] : coords[i - q + 1]);
    char *uv = ex_value(x, nd->in[2].id, uc), *ucv = emit_conv(uv, ut->dtype, out);
    if (ir_dtype_is_int(out)) {
        const char *u = out == DT_INT32 ? "uint32_t" : "uint64_t";
        ex_line(x, "%s = (%s)((%s)%s + (%s)%s);", acc, emit_ctype(out), u, acc, u, ucv);
    } else {
        ex_line(x, "%s += %s;", acc, ucv);
    }
    ex_release(x, mark);
    x->indent--;
    ex_line(x, "}");
    ex_free_coords(ic, q);
    ex_free_coords(uc, ut->rank);
    free(iv), free(j), free(uv), free(ucv), free(k);
    return acc;
}
