/* compiler/php_parse.c: the PHP front-end's shared machinery: the arena, diagnostics, token
 * access, class-name resolution, constant literals, attributes, argument binding, and making
 * graph nodes (numbers fold). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "php_parse.h"

/* ---- memory and messages ---------------------------------------------------------------------- */

void *php_keep(P *p, void *m) {
    if (!m) abort();
    if (p->narena == p->caparena) {
        p->caparena = p->caparena ? p->caparena * 2 : 64;
        p->arena = realloc(p->arena, (size_t)p->caparena * sizeof *p->arena);
        if (!p->arena) abort();
    }
    p->arena[p->narena++] = m;
    return m;
}

void *php_alloc(P *p, size_t n) { return php_keep(p, calloc(1, n ? n : 1)); }

/* Grows a block from php_alloc()/php_regrow() (NULL: a new one) to n bytes, keeping its contents. */
void *php_regrow(P *p, void *old, size_t n) {
    if (!old) return php_keep(p, malloc(n));
    for (int i = p->narena - 1; i >= 0; i--)
        if (p->arena[i] == old) {
            void *m = realloc(old, n);
            if (!m) abort();
            return p->arena[i] = m;
        }
    abort(); /* not from the arena: an internal error */
}

char *php_dupstr(P *p, const char *s) { return php_keep(p, strdup(s)); }

/* "FILE:LINE:COLUMN: message" (the first error only), with the inlined calls it is in. */
int php_perr(P *p, const PhpTok *t, const char *fmt, ...) {
    if (p->d->nerrors) return -1;
    char msg[900], where[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    size_t k = strlen(msg);
    php_call_context(p, msg + k, sizeof msg - k);
    snprintf(where, sizeof where, "%s:%d:%d", p->path, t->line, t->col);
    const char *saved = p->d->file;
    p->d->file = where;
    diag_at(p->d, NULL, "%s", msg);
    p->d->file = saved;
    return -1;
}

const PhpTok *php_cur(P *p) { return &p->tk.v[p->pos]; }
const PhpTok *php_ahead(P *p, int k) {
    int i = p->pos + k;
    return &p->tk.v[i < p->tk.n ? i : p->tk.n - 1];
}
const PhpTok *php_take(P *p) {
    const PhpTok *t = php_cur(p);
    if (t->kind != PT_EOF) p->pos++;
    return t;
}

const char *php_describe(const PhpTok *t, char *buf, size_t n) {
    switch (t->kind) {
    case PT_EOF: return "end of file";
    case PT_INLINE_HTML: return "text outside <?php";
    case PT_OPEN_TAG: return "'<?php'";
    case PT_CLOSE_TAG: return "'?>'";
    case PT_VAR: snprintf(buf, n, "'$%.64s'", t->text); return buf;
    case PT_NUMBER: return "a number";
    case PT_STRING: case PT_ISTRING: return "a string";
    case PT_ATTR: return "'#['";
    default: snprintf(buf, n, "'%.64s'", t->text); return buf;
    }
}

/* The error for an unexpected token: the lexer's message where it gave up, else "expected ...". */
int php_unexpected(P *p, const char *expected) {
    const PhpTok *t = php_cur(p);
    if (t->kind == PT_ERROR) return php_perr(p, t, "%s", t->text);
    char b[96];
    return php_perr(p, t, "unexpected %s, expected %s", php_describe(t, b, sizeof b), expected);
}

int php_expect(P *p, const char *punct, const char *what) {
    if (!php_tok_is(php_cur(p), punct)) return php_unexpected(p, what);
    php_take(p);
    return 0;
}

/* ---- names ------------------------------------------------------------------------------------ */

/* A possibly qualified name (Gtc\Graph, \Cuda\CudaArray) at the cursor, as written. */
char *php_qname(P *p) {
    char buf[512];
    size_t n = 0;
    buf[0] = 0;
    if (php_tok_is(php_cur(p), "\\")) php_take(p), buf[n++] = '\\';
    for (;;) {
        if (php_cur(p)->kind != PT_IDENT) return NULL;
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s", php_take(p)->text);
        if (n >= sizeof buf - 2) return NULL;
        if (!(php_tok_is(php_cur(p), "\\") && php_ahead(p, 1)->kind == PT_IDENT)) break;
        php_take(p);
        buf[n++] = '\\';
    }
    buf[n] = 0;
    return php_dupstr(p, buf);
}

/* PHP's class-name resolution: fully qualified, through a `use` alias, or in the namespace. */
const char *php_resolve(P *p, const char *raw) {
    if (raw[0] == '\\') return raw + 1;
    size_t first = strcspn(raw, "\\");
    for (int i = 0; i < p->nuses; i++)
        if (!p->isfn[i] && strlen(p->aliases[i]) == first && strncasecmp(p->aliases[i], raw, first) == 0) {
            char buf[800];
            snprintf(buf, sizeof buf, "%s%s", p->fulls[i], raw + first);
            return php_dupstr(p, buf);
        }
    if (!p->ns[0]) return raw;
    char buf[800];
    snprintf(buf, sizeof buf, "%s\\%s", p->ns, raw);
    return php_dupstr(p, buf);
}

int php_is_cls(const char *cls, const char *want) { return cls && strcasecmp(cls, want) == 0; }

/* ---- literals and attributes --------------------------------------------------------------- */

int php_interpolation(P *p, const PhpTok *t) {
    return php_perr(p, t, "string interpolation is not supported: strings in a graph file are constants "
                          "(dtype names, output names); use a single-quoted string");
}

bool php_not_finite(P *p, const PhpTok *t) {
    if (isfinite(t->num)) return false;
    php_perr(p, t, "%.*s is not a finite number: graph constants are finite", t->len > 64 ? 64 : (int)t->len, t->text);
    return true;
}

bool php_has_nul(P *p, const PhpTok *t) {
    if (strlen(t->text) == t->len) return false;
    php_perr(p, t, "a string in a graph file cannot hold a NUL byte (\\0); names and dtypes are plain text");
    return true;
}

Lit *php_parse_lit(P *p) {
    const PhpTok *t = php_cur(p);
    Lit *l = php_alloc(p, sizeof *l);
    l->at = t;
    if (t->kind == PT_STRING) {
        if (php_has_nul(p, t)) return NULL;
        php_take(p);
        l->k = L_STR, l->s = t->text;
    } else if (t->kind == PT_ISTRING) {
        return php_interpolation(p, t), NULL;
    } else if (t->kind == PT_NUMBER || ((php_tok_is(t, "-") || php_tok_is(t, "+")) && php_ahead(p, 1)->kind == PT_NUMBER)) {
        double sign = php_tok_is(t, "-") ? -1 : 1;
        if (t->kind != PT_NUMBER) php_take(p);
        const PhpTok *nt = php_take(p);
        if (php_not_finite(p, nt)) return NULL;
        l->k = L_NUM, l->num = sign * nt->num, l->is_int = nt->is_int;
    } else if (php_tok_kw(t, "true") || php_tok_kw(t, "false")) {
        php_take(p);
        l->k = L_BOOL, l->num = php_tok_kw(t, "true");
    } else if (php_tok_kw(t, "null")) {
        php_take(p);
        l->k = L_NULL;
    } else if (php_tok_is(t, "[")) {
        if (p->depth + 1 > MAX_DEPTH)
            return php_perr(p, t, "list is nested more than %d levels deep", MAX_DEPTH), NULL;
        php_take(p);
        l->k = L_LIST;
        int cap = 0;
        while (!php_tok_is(php_cur(p), "]")) {
            if (l->n == cap) {
                cap = cap ? cap * 2 : 8;
                l->items = php_regrow(p, l->items, (size_t)cap * sizeof *l->items);
                l->keys = php_regrow(p, l->keys, (size_t)cap * sizeof *l->keys);
            }
            l->items[l->n] = NULL, l->keys[l->n] = NULL;
            if (php_cur(p)->kind == PT_STRING && php_tok_is(php_ahead(p, 1), "=>")) {
                if (php_has_nul(p, php_cur(p))) return NULL;
                l->keys[l->n] = php_take(p);
                php_take(p);
            }
            p->depth++;
            Lit *item = php_parse_lit(p);
            p->depth--;
            if (!item) return NULL;
            l->items[l->n++] = item;
            if (php_tok_is(php_cur(p), ",")) php_take(p);
            else if (!php_tok_is(php_cur(p), "]")) return php_unexpected(p, "',' or ']'"), NULL;
        }
        php_take(p);
    } else {
        return php_unexpected(p, "a constant (a string, a number, a list [...], true, false or null)"), NULL;
    }
    return l;
}

/* Binds call or attribute arguments to parameter names, as PHP does (positional first, then
 * named); slots[i] is NULL for an argument not given. */
int php_bind(P *p, const PhpTok *at, const char *fname, const char *const *params, int nreq,
                Arg *args, int nargs, Arg **slots) {
    int np = 0;
    while (params[np]) np++;
    for (int i = 0; i < np; i++) slots[i] = NULL;
    int positional = 0;
    for (int a = 0; a < nargs; a++) {
        int slot = -1;
        if (!args[a].name) {
            if (a > positional) return php_perr(p, args[a].at, "cannot use a positional argument after a named argument");
            if (positional >= np) {
                if (np == 0) return php_perr(p, args[a].at, "%s takes no arguments", fname);
                return php_perr(p, args[a].at, "%s takes at most %d argument%s", fname, np, np == 1 ? "" : "s");
            }
            slot = positional++;
        } else {
            for (int i = 0; i < np; i++)
                if (strcmp(params[i], args[a].name->text) == 0) slot = i;
            if (slot < 0) {
                char list[200] = "";
                size_t k = 0;
                for (int i = 0; i < np && k < sizeof list; i++)
                    k += (size_t)snprintf(list + k, sizeof list - k, "%s$%s", i ? ", " : "", params[i]);
                return php_perr(p, args[a].name, "unknown named argument $%.64s; %s takes %s", args[a].name->text, fname,
                            np ? list : "no arguments");
            }
            if (slots[slot]) return php_perr(p, args[a].name, "argument $%s is given twice", params[slot]);
        }
        slots[slot] = &args[a];
    }
    for (int i = 0; i < nreq; i++)
        if (!slots[i]) return php_perr(p, at, "%s needs the argument $%s", fname, params[i]);
    return 0;
}

/* #[A, B(...)] groups at the cursor, appended to *attrs. Arguments are constants. */
int php_parse_attrs(P *p, Attr **attrs, int *n) {
    while (php_cur(p)->kind == PT_ATTR) {
        php_take(p);
        for (;;) {
            const PhpTok *at = php_cur(p);
            char *raw = php_qname(p);
            if (!raw) return php_unexpected(p, "an attribute class name");
            *attrs = php_regrow(p, *attrs, ((size_t)*n + 1) * sizeof **attrs);
            Attr a;
            memset(&a, 0, sizeof a);
            a.cls = php_resolve(p, raw), a.at = at;
            if (php_tok_is(php_cur(p), "(")) {
                php_take(p);
                while (!php_tok_is(php_cur(p), ")")) {
                    if (a.nargs == MAX_ARGS) return php_perr(p, php_cur(p), "more than %d attribute arguments", MAX_ARGS);
                    Arg *g = &a.args[a.nargs++];
                    if (php_cur(p)->kind == PT_IDENT && php_tok_is(php_ahead(p, 1), ":")) g->name = php_take(p), php_take(p);
                    g->at = php_cur(p);
                    if (!(g->lit = php_parse_lit(p))) return -1;
                    if (php_tok_is(php_cur(p), ",")) php_take(p);
                    else if (!php_tok_is(php_cur(p), ")")) return php_unexpected(p, "',' or ')'");
                }
                php_take(p);
            }
            (*attrs)[*n] = a;
            (*n)++;
            if (php_tok_is(php_cur(p), ",") && !php_tok_is(php_ahead(p, 1), "]")) {
                php_take(p);
                continue;
            }
            if (php_tok_is(php_cur(p), ",")) php_take(p);
            if (php_expect(p, "]", "',' or ']' after an attribute")) return -1;
            break;
        }
    }
    return 0;
}

/* ---- graph building ------------------------------------------------------------------------- */

void php_reserve(P *p, const char *name) {
    if (namemap_get(&p->reserved, name) < 0) namemap_put(&p->reserved, name, 0);
}

void php_node_named(P *p, const char *name) {
    php_reserve(p, name);
    namemap_put(&p->nodenames, name, 0);
}

/* A fresh node name: the assigned variable's name with _1, _2, ... (never a variable's name). */
static const char *temp_name(P *p) {
    char buf[IR_MAX_NAME + 1];
    for (int k = 1;; k++) {
        snprintf(buf, sizeof buf, "%.100s_%d", p->target ? p->target : "t", k);
        if (namemap_get(&p->reserved, buf) < 0) return php_dupstr(p, buf);
    }
}

int php_new_node(P *p, const PhpTok *at, Op op, const Val *in, int nin, NodeId *out) {
    const char *name = temp_name(p);
    NodeId id = graph_add(p->g, name, op);
    if (id < 0) return php_perr(p, at, "the graph has more than %d values", IR_MAX_NODES);
    Node *n = &p->g->nodes[id];
    php_node_named(p, n->name);
    snprintf(n->loc, sizeof n->loc, "%d:%d", at->line, at->col);
    for (int i = 0; i < nin; i++) {
        n->in[i].id = in[i].is_node ? in[i].id : -1;
        n->in[i].value = in[i].is_node ? 0 : in[i].num;
    }
    n->ninputs = nin;
    *out = id;
    return 0;
}

/* Renames node id (made by this statement) to the variable or output name it is assigned to. */
void php_rename_node(P *p, NodeId id, const char *name) {
    Node *n = &p->g->nodes[id];
    php_keep(p, n->name); /* the old name stays valid: `reserved` borrows it */
    n->name = strdup(name);
    if (!n->name) abort();
    php_node_named(p, n->name);
}

int php_node_type(P *p, NodeId id, TensorType *out) {
    for (; p->ntyped <= id; p->ntyped++)
        if (ir_verify_node(p->g, p->ntyped, p->d)) return -1;
    *out = p->g->nodes[id].type;
    return 0;
}

/* An op over values: numbers alone fold (as PHP computes them), else a node. */
int php_apply(P *p, const PhpTok *at, Op op, const Val *in, int nin, Val *out) {
    int any = 0;
    for (int i = 0; i < nin; i++) any |= in[i].is_node;
    if (!any) {
        double a = in[0].num, b = nin > 1 ? in[1].num : 0, r;
        switch (op) {
        case OP_ADD: r = a + b; break;
        case OP_SUB: r = a - b; break;
        case OP_MUL: r = a * b; break;
        case OP_DIV:
            if (b == 0) return php_perr(p, at, "division by zero in a constant expression");
            r = a / b;
            break;
        case OP_POW: r = pow(a, b); break;
        case OP_NEG: r = -a; break;
        default:
            return php_perr(p, at, "%s of numbers only: at least one operand must be a tensor (a parameter or "
                                   "an assigned variable)", ir_ops[op].name);
        }
        if (!isfinite(r)) return php_perr(p, at, "constant expression is not a finite number");
        out->is_node = 0, out->num = r;
        return 0;
    }
    out->is_node = 1;
    return php_new_node(p, at, op, in, nin, &out->id);
}

