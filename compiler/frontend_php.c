/* compiler/frontend_php.c: the PHP front-end. Reads a function marked #[Gtc\Graph] whose
 * parameters carry #[Gtc\Input(dtype, shape)] and whose body is assignments of CudaArray
 * expressions and one return, and builds the same Graph the JSON reader would (node names come
 * from the variables). The subset and its diagnostics are in docs/php-graphs.md. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "frontend_php.h"
#include "php_parse.h"

/* ---- the function ----------------------------------------------------------------------------- */

int php_set_var(P *p, const PhpTok *at, const char *name, Val v) {
    if (p->nvals == p->capvals) {
        p->capvals = p->capvals ? p->capvals * 2 : 64;
        p->vals = realloc(p->vals, (size_t)p->capvals * sizeof *p->vals);
        p->vtok = realloc(p->vtok, (size_t)p->capvals * sizeof *p->vtok);
        if (!p->vals || !p->vtok) abort();
    }
    p->vals[p->nvals] = v, p->vtok[p->nvals] = at;
    namemap_put(&p->vars, name, p->nvals++);
    return 0;
}

int php_check_name(P *p, const PhpTok *t) {
    if (!ir_is_identifier(t->text))
        return php_perr(p, t, "$%.64s cannot name a graph value: names are [A-Za-z_][A-Za-z0-9_]*, at most %d characters",
                    t->text, IR_MAX_NAME);
    return 0;
}

static int reassigned(P *p, const PhpTok *t) {
    NodeId k = namemap_get(&p->vars, t->text);
    const PhpTok *first = p->vtok[k];
    if (k < p->params_end)
        return php_perr(p, t, "$%.64s is a parameter%s: each variable is assigned once, since it names the graph "
                              "value; use a new name", t->text, p->ncalls ? "" : " (an input of the graph)");
    return php_perr(p, t, "$%.64s is already assigned (at %d:%d): each variable is assigned once, since it names "
                          "the graph value; use a new name", t->text, first->line, first->col);
}

static int parse_params(P *p) {
    if (php_expect(p, "(", "'('")) return -1;
    while (!php_tok_is(php_cur(p), ")")) {
        Attr *attrs = NULL;
        int nattrs = 0;
        const PhpTok *start = php_cur(p);
        if (php_parse_attrs(p, &attrs, &nattrs)) return -1;
        while (php_cur(p)->kind == PT_IDENT || php_tok_is(php_cur(p), "\\") || php_tok_is(php_cur(p), "|") ||
               php_tok_is(php_cur(p), "?") || php_tok_is(php_cur(p), "(") || php_tok_is(php_cur(p), ")"))
            if (php_tok_is(php_take(p), ")") && php_tok_is(php_cur(p), "{")) return php_unexpected(p, "a parameter");
        if (php_tok_is(php_cur(p), "&"))
            return php_perr(p, php_cur(p), "by-reference parameters are not supported: a graph returns its results");
        if (php_tok_is(php_cur(p), "..."))
            return php_perr(p, php_cur(p), "variadic parameters are not supported: declare each input");
        const PhpTok *v = php_cur(p);
        if (v->kind != PT_VAR) return php_unexpected(p, "a parameter ($name)");
        php_take(p);
        if (php_check_name(p, v)) return -1;
        if (namemap_get(&p->vars, v->text) >= 0) return php_perr(p, v, "parameter $%s is declared twice", v->text);
        if (php_tok_is(php_cur(p), "="))
            return php_perr(p, php_cur(p), "default values are not supported: every input is given when the graph runs");
        const Attr *in = NULL;
        for (int i = 0; i < nattrs; i++) {
            if (php_is_cls(attrs[i].cls, "Gtc\\Input")) {
                if (in) return php_perr(p, attrs[i].at, "parameter $%s has two #[Gtc\\Input] attributes", v->text);
                in = &attrs[i];
            } else if (strncasecmp(attrs[i].cls, "Gtc\\", 4) == 0) {
                return php_perr(p, attrs[i].at, "#[%.64s] does not belong on a parameter; parameters take "
                                                "#[Gtc\\Input(dtype, shape)]", attrs[i].cls);
            }
        }
        if (!in)
            return php_perr(p, start, "parameter $%s needs #[Gtc\\Input(dtype, shape)] (shape [] for a runtime scalar)",
                        v->text);
        static const char *const ip[] = {"dtype", "shape", NULL};
        Arg *s[2];
        Arg args[MAX_ARGS];
        memcpy(args, in->args, sizeof args);
        if (php_bind(p, in->at, "#[Gtc\\Input]", ip, 2, args, in->nargs, s)) return -1;
        NodeId id = graph_add(p->g, v->text, OP_INPUT);
        if (id < 0) return php_perr(p, v, "the graph has more than %d values", IR_MAX_NODES);
        Node *n = &p->g->nodes[id];
        snprintf(n->loc, sizeof n->loc, "%d:%d", v->line, v->col);
        int64_t dims[IR_MAX_RANK];
        if (php_arg_dtype(p, "#[Gtc\\Input]", "dtype", s[0], &n->type.dtype)) return -1;
        const Lit *sh = s[1]->lit;
        int sym = 0; /* ['batch', 480]: a symbolic first axis, declared by #[Gtc\Graph(dims: [...])] */
        if (sh && sh->k == L_LIST && sh->n > 0 && sh->items[0]->k == L_STR && !sh->keys[0] && p->g->nsyms) {
            while (sym < p->g->nsyms && strcmp(p->g->syms[sym].name, sh->items[0]->s) != 0) sym++;
            if (sym == p->g->nsyms)
                return php_perr(p, sh->items[0]->at, "#[Gtc\\Input]: $shape[0] names '%.64s', which #[Gtc\\Graph(dims: [...])] "
                                                     "does not declare (dims: ['batch' => 4096])", sh->items[0]->s);
            Lit rest = *sh;
            rest.items++, rest.keys++, rest.n--;
            Arg tail = *s[1];
            tail.lit = &rest;
            if (php_arg_ints(p, "#[Gtc\\Input]", "shape", &tail, 0, 0, IR_MAX_DIM - 1, dims + 1, &n->type.rank)) return -1;
            dims[0] = p->g->syms[sym].max;
            n->type.sym[0] = (unsigned char)(sym + 1);
            n->type.rank++;
        } else if (php_arg_ints(p, "#[Gtc\\Input]", "shape", s[1], 0, 0, IR_MAX_DIM - 1, dims, &n->type.rank)) {
            return -1;
        }
        memcpy(n->type.dims, dims, sizeof dims);
        php_node_named(p, n->name);
        php_set_var(p, v, v->text, (Val){1, 0, id});
        if (php_tok_is(php_cur(p), ",")) php_take(p);
        else if (!php_tok_is(php_cur(p), ")")) return php_unexpected(p, "',' or ')'");
    }
    php_take(p);
    return 0;
}

static int add_output(P *p, const PhpTok *at, const char *name, Val v) {
    Graph *g = p->g;
    if (!v.is_node) return php_perr(p, at, "output '%s' is a number; outputs are tensors", name);
    for (int i = 0; i < g->noutputs; i++)
        if (strcmp(g->outputs[i].name, name) == 0) return php_perr(p, at, "output '%s' is named twice", name);
    graph_add_output(g, name, v.id);
    return 0;
}

/* An expression that names a value: a node this statement made gets the name when it is free
 * (in an inlined function, when no variable of the graph function has it either). */
static int named_expr(P *p, const char *name, Val *v) {
    int before = p->g->nnodes;
    if (php_expr(p, v)) return -1;
    if (v->is_node && v->id >= before && namemap_get(p->prefix ? &p->reserved : &p->nodenames, name) < 0)
        php_rename_node(p, v->id, name);
    return 0;
}

static int parse_return(P *p) {
    const PhpTok *r = php_take(p);
    p->target = "result";
    if (php_tok_is(php_cur(p), ";"))
        return php_perr(p, r, "a graph function returns its outputs: `return $y;` or `return ['name' => $y, ...];`");
    if (php_tok_is(php_cur(p), "[")) {
        php_take(p);
        while (!php_tok_is(php_cur(p), "]")) {
            const PhpTok *k = php_cur(p);
            if (k->kind == PT_ISTRING) return php_interpolation(p, k);
            if (k->kind != PT_STRING || !php_tok_is(php_ahead(p, 1), "=>"))
                return php_perr(p, k, "name each output with a string key: return ['loss' => $loss, ...]");
            if (php_has_nul(p, k)) return -1;
            if (!ir_is_identifier(k->text))
                return php_perr(p, k, "output name '%.64s' is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most %d characters)", k->text,
                                IR_MAX_NAME);
            php_take(p), php_take(p);
            Val v;
            p->target = k->text;
            const PhpTok *at = php_cur(p);
            if (named_expr(p, k->text, &v) || add_output(p, at, k->text, v)) return -1;
            if (php_tok_is(php_cur(p), ",")) php_take(p);
            else if (!php_tok_is(php_cur(p), "]")) return php_bad_continuation(p, "',' or ']'");
        }
        php_take(p);
        if (!p->g->noutputs) return php_perr(p, r, "a graph needs at least one output");
    } else {
        const PhpTok *at = php_cur(p);
        const char *name = at->kind == PT_VAR && php_tok_is(php_ahead(p, 1), ";") ? at->text : "result";
        Val v;
        if (named_expr(p, name, &v) || add_output(p, at, name, v)) return -1;
    }
    if (!php_tok_is(php_cur(p), ";")) return php_bad_continuation(p, "';'");
    php_take(p);
    if (!php_tok_is(php_cur(p), "}"))
        return php_perr(p, php_cur(p), "code after return never runs; return must be the function's last statement");
    php_take(p);
    return 0;
}

int php_statement(P *p) {
    const PhpTok *t = php_cur(p);
    if (t->kind == PT_VAR) {
        const PhpTok *op = php_ahead(p, 1);
        if (php_tok_is(op, "=")) {
            if (php_check_name(p, t)) return -1;
            if (namemap_get(&p->vars, t->text) >= 0) return reassigned(p, t);
            php_take(p), php_take(p);
            const char *name = t->text;
            if (p->prefix) { /* in an inlined function: the call's name first, cut to leave room for _N */
                char buf[101];
                snprintf(buf, sizeof buf, "%s_%s", p->prefix, t->text);
                name = php_dupstr(p, buf);
            }
            p->target = name;
            Val v;
            if (named_expr(p, name, &v)) return -1;
            if (!php_tok_is(php_cur(p), ";")) return php_bad_continuation(p, "';'");
            php_take(p);
            if (namemap_get(&p->vars, t->text) >= 0) return reassigned(p, t); /* $a = ($a = ...) */
            return php_set_var(p, t, t->text, v);
        }
        if (op->kind == PT_PUNCT && (php_tok_is(op, "++") || php_tok_is(op, "--") ||
                                     (op->len >= 2 && op->text[op->len - 1] == '=' && op->text[0] != '=' &&
                                      op->text[0] != '!' && op->text[0] != '<' && op->text[0] != '>')))
            return php_perr(p, op, "%s reassigns $%.64s: each variable is assigned once, since it names the graph "
                                   "value; write `$new = $%.64s ...;`", op->text, t->text, t->text);
        if (php_tok_is(op, "[")) return php_perr(p, op, "writing into an array element is not supported; assign a new variable");
        return php_perr(p, t, "an expression statement does nothing in a graph; assign it: `$name = ...;`");
    }
    if (php_in_list(t, php_kw_loops)) return php_loop_error(p, t);
    if (php_in_list(t, php_kw_cond)) return php_cond_error(p, t);
    if (php_in_list(t, php_kw_incl)) return php_include_error(p, t);
    if (php_tok_is(t, "{")) return php_perr(p, t, "blocks are not supported in a graph function; write the statements directly");
    if (php_tok_is(t, ";")) {
        php_take(p);
        return 0;
    }
    if (t->kind == PT_IDENT && php_tok_is(php_ahead(p, 1), "(") && (php_user_function(p, t->text) || php_math_known(t->text)))
        return php_perr(p, t, "a call as a statement does nothing in a graph: functions here have no side effects; "
                              "assign the result: `$name = %.64s(...);`", t->text);
    if (t->kind == PT_IDENT && php_tok_is(php_ahead(p, 1), "(")) return php_unknown_function(p, t, t->text);
    if (php_tok_kw(t, "global") || php_tok_kw(t, "static"))
        return php_perr(p, t, "%s variables are not supported: a function in a graph sees only its parameters and "
                              "its own assignments", t->text);
    if (php_tok_kw(t, "echo") || php_tok_kw(t, "print"))
        return php_perr(p, t, "output is not supported in a graph function; return the values instead");
    if (t->kind == PT_ERROR) return php_perr(p, t, "%s", t->text);
    if (t->kind == PT_EOF) return php_unexpected(p, "'}' closing the function");
    char b[96];
    return php_perr(p, t, "unexpected %s: a graph function's body holds assignments `$name = expression;` and a "
                          "final return", php_describe(t, b, sizeof b));
}

/* Adds a variable name from the function's tokens to `reserved` (temporaries never take one). */
static int reserve_vars(P *p) {
    int depth = 0;
    for (int i = p->pos; i < p->tk.n; i++) {
        const PhpTok *t = &p->tk.v[i];
        if (t->kind == PT_VAR) php_reserve(p, t->text);
        else if (php_tok_is(t, "{")) depth++;
        else if (php_tok_is(t, "}") && --depth == 0) break;
    }
    return 0;
}

/* #[Gtc\Graph(dims: ['batch' => 4096])]: the symbolic dimensions and their bounds
 * (docs/graph-format.md §3.1, the JSON "dims"). */
static int read_dims(P *p, const Arg *a) {
    const Lit *l = a->lit;
    if (!l || l->k != L_LIST) return php_perr(p, a->at, "#[Gtc\\Graph]: $dims must be an array ['batch' => 4096]");
    for (int i = 0; i < l->n; i++) {
        const PhpTok *k = l->keys[i];
        const Lit *v = l->items[i];
        if (!k || !ir_is_identifier(k->text))
            return php_perr(p, k ? k : v->at, "#[Gtc\\Graph]: $dims keys are the dimensions' names (identifiers): ['batch' => 4096]");
        for (int j = 0; j < p->g->nsyms; j++)
            if (!strcmp(p->g->syms[j].name, k->text)) return php_perr(p, k, "#[Gtc\\Graph]: $dims names '%s' twice", k->text);
        if (p->g->nsyms == IR_MAX_SYMS) return php_perr(p, k, "#[Gtc\\Graph]: $dims declares more than %d dimensions", IR_MAX_SYMS);
        if (v->k != L_NUM || !v->is_int || v->num < 1 || v->num > (double)(IR_MAX_DIM - 1))
            return php_perr(p, v->at, "#[Gtc\\Graph]: $dims['%s'] (its bound) must be an integer from 1 to %lld", k->text,
                            (long long)(IR_MAX_DIM - 1));
        IrSym *sy = &p->g->syms[p->g->nsyms++];
        if (!(sy->name = strdup(k->text))) abort();
        sy->max = (int64_t)v->num;
    }
    return 0;
}

static int build(P *p, const Fn *fn) {
    const Attr *graph = NULL;
    for (int i = 0; i < fn->nattrs; i++) {
        const Attr *a = &fn->attrs[i];
        if (php_is_cls(a->cls, "Gtc\\Graph")) graph = a;
        else if (php_is_cls(a->cls, "Gtc\\Input"))
            return php_perr(p, a->at, "#[Gtc\\Input] belongs on a parameter");
        else if (!php_is_cls(a->cls, "Gtc\\Donate") && !php_is_cls(a->cls, "Gtc\\Train") && strncasecmp(a->cls, "Gtc\\", 4) == 0)
            return php_perr(p, a->at, "unknown attribute #[%.64s]; gtc reads Gtc\\Graph, Gtc\\Input, Gtc\\Donate and "
                                      "Gtc\\Train", a->cls);
    }
    if (!graph) return php_perr(p, fn->name, "function %s has no #[Gtc\\Graph]", fn->name->text);
    static const char *const gp[] = {"name", "dims", NULL};
    Arg *s[2];
    Arg args[MAX_ARGS];
    memcpy(args, graph->args, sizeof args);
    if (php_bind(p, graph->at, "#[Gtc\\Graph]", gp, 0, args, graph->nargs, s)) return -1;
    if (s[1] && read_dims(p, s[1])) return -1;
    const char *name = fn->name->text;
    if (s[0]) {
        if (!s[0]->lit || s[0]->lit->k != L_STR) return php_perr(p, s[0]->at, "#[Gtc\\Graph]: $name must be a string");
        name = s[0]->lit->s;
    }
    if (!ir_is_identifier(name))
        return php_perr(p, s[0] ? s[0]->at : fn->name, "graph name '%.64s' is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most %d characters)", name,
                        IR_MAX_NAME);
    free(p->g->name);
    p->g->name = strdup(name);
    if (!p->g->name) abort();
    snprintf(p->ns, sizeof p->ns, "%s", fn->ns); /* the function's namespace resolves its calls */
    p->pos = fn->lparen;
    reserve_vars(p);
    if (parse_params(p)) return -1;
    for (int k = 0; k < p->g->nsyms; k++) {
        bool used = false;
        for (int i = 0; i < p->g->nnodes; i++) used = used || p->g->nodes[i].type.sym[0] == k + 1;
        if (!used)
            return php_perr(p, graph->at, "#[Gtc\\Graph]: $dims declares '%s' but no #[Gtc\\Input] shape names it",
                            p->g->syms[k].name);
    }
    p->params_end = p->nvals;
    if (php_tok_is(php_cur(p), ":")) /* the return type */
        while (!php_tok_is(php_cur(p), "{") && php_cur(p)->kind != PT_EOF && php_cur(p)->kind != PT_ERROR && !php_tok_is(php_cur(p), ";"))
            php_take(p);
    if (php_expect(p, "{", "'{'")) return -1;
    for (;;) {
        if (php_tok_kw(php_cur(p), "return")) {
            if (parse_return(p)) return -1;
            break;
        }
        if (php_tok_is(php_cur(p), "}"))
            return php_perr(p, php_cur(p), "a graph function must end with `return $y;` or `return ['name' => $y, ...];`");
        if (php_statement(p)) return -1;
    }
    /* donations: #[Gtc\Donate('w1')] (output w1 reuses input w1), #[Gtc\Donate(out: 'w1')] */
    Graph *g = p->g;
    for (int i = 0; i < fn->nattrs; i++) {
        const Attr *a = &fn->attrs[i];
        if (!php_is_cls(a->cls, "Gtc\\Donate")) continue;
        if (!a->nargs) return php_perr(p, a->at, "#[Gtc\\Donate] needs output names: #[Gtc\\Donate('w1')]");
        for (int k = 0; k < a->nargs; k++) {
            const Arg *d = &a->args[k];
            if (!d->lit || d->lit->k != L_STR)
                return php_perr(p, d->at, "#[Gtc\\Donate] takes strings: 'out' (output out reuses input out) or "
                                          "out: 'input'");
            const char *out = d->name ? d->name->text : d->lit->s, *inp = d->lit->s;
            int o = -1;
            for (int j = 0; j < g->noutputs; j++)
                if (strcmp(g->outputs[j].name, out) == 0) o = j;
            if (o < 0) return php_perr(p, d->name ? d->name : d->at, "#[Gtc\\Donate]: the function returns no output '%.64s'", out);
            NodeId in = namemap_get(&p->vars, inp);
            if (in < 0 || !p->vals[in].is_node || g->nodes[p->vals[in].id].op != OP_INPUT ||
                strcmp(g->nodes[p->vals[in].id].name, inp) != 0)
                return php_perr(p, d->at, "#[Gtc\\Donate]: '%.64s' is not a parameter of the function", inp);
            g->donations = realloc(g->donations, ((size_t)g->ndonations + 1) * sizeof *g->donations);
            if (!g->donations) abort();
            g->donations[g->ndonations].value = g->outputs[o].value;
            g->donations[g->ndonations++].input = p->vals[in].id;
        }
    }
    return 0;
}

/* ---- the file --------------------------------------------------------------------------------- */

/* Skips from an opening token to its match; at EOF an error naming the opening. */
static int skip_balanced(P *p, const char *open, const char *close) {
    const PhpTok *o = php_cur(p);
    int depth = 0;
    for (;;) {
        const PhpTok *t = php_take(p);
        if (t->kind == PT_ERROR) return php_perr(p, t, "%s", t->text);
        if (t->kind == PT_EOF) return php_perr(p, t, "unexpected end of file: the '%s' at %d:%d is never closed", open, o->line, o->col);
        if (php_tok_is(t, open)) depth++;
        else if (php_tok_is(t, close) && --depth == 0) return 0;
    }
}

/* One imported class or (fn) function name (raw, as written; with a group use's prefix before
 * it) and its alias. */
static int add_import(P *p, const char *prefix, char *raw, bool fn) {
    char *full = raw[0] == '\\' ? raw + 1 : raw;
    if (prefix) {
        char buf[800];
        snprintf(buf, sizeof buf, "%s\\%s", prefix, raw);
        full = php_dupstr(p, buf);
    }
    const char *alias = strrchr(full, '\\') ? strrchr(full, '\\') + 1 : full;
    if (php_tok_kw(php_cur(p), "as")) {
        php_take(p);
        if (php_cur(p)->kind != PT_IDENT) return php_unexpected(p, "an alias");
        alias = php_take(p)->text;
    }
    p->aliases = php_regrow(p, p->aliases, ((size_t)p->nuses + 1) * sizeof *p->aliases);
    p->fulls = php_regrow(p, p->fulls, ((size_t)p->nuses + 1) * sizeof *p->fulls);
    p->isfn = php_regrow(p, p->isfn, ((size_t)p->nuses + 1) * sizeof *p->isfn);
    p->isfn[p->nuses] = fn;
    p->aliases[p->nuses] = (char *)alias, p->fulls[p->nuses++] = full;
    return 0;
}

/* `use A\B;`, `use A\B as C, D\E;`, the group form `use Gtc\{Graph, Input as In};` and the
 * same with functions (`use function App\dense;`, `use App\{function dense}`: the file's
 * functions a graph calls); imports of constants are skipped. */
static int add_use(P *p) {
    php_take(p); /* use */
    bool fn = php_tok_kw(php_cur(p), "function");
    if (fn) php_take(p);
    if (php_tok_kw(php_cur(p), "const")) {
        while (!php_tok_is(php_cur(p), ";") && php_cur(p)->kind != PT_EOF && php_cur(p)->kind != PT_ERROR) php_take(p);
        return php_expect(p, ";", "';'");
    }
    for (;;) {
        char *full = php_qname(p);
        if (!full) return php_unexpected(p, "a class name");
        if (php_tok_is(php_cur(p), "\\") && php_tok_is(php_ahead(p, 1), "{")) {
            const PhpTok *open = php_ahead(p, 1);
            php_take(p), php_take(p);
            if (full[0] == '\\') full++;
            while (!php_tok_is(php_cur(p), "}")) {
                if (php_tok_kw(php_cur(p), "const")) { /* skipped */
                    php_take(p);
                    if (!php_qname(p)) return php_unexpected(p, "a name");
                    if (php_tok_kw(php_cur(p), "as")) php_take(p), php_take(p);
                } else {
                    bool f = fn || php_tok_kw(php_cur(p), "function");
                    if (f && !fn) php_take(p);
                    if (php_cur(p)->kind != PT_IDENT) return php_unexpected(p, f ? "a function name" : "a class name");
                    char *raw = php_qname(p);
                    if (!raw) return php_unexpected(p, "a class name");
                    if (add_import(p, full, raw, f)) return -1;
                }
                if (php_tok_is(php_cur(p), ",")) php_take(p);
                else if (!php_tok_is(php_cur(p), "}")) return php_unexpected(p, "',' or '}'");
            }
            if (php_tok_is(php_ahead(p, -1), "{"))
                return php_perr(p, open, "an empty group use imports nothing; name the classes: use %.64s\\{Graph, Input};", full);
            php_take(p);
            return php_expect(p, ";", "';' after a group use");
        }
        if (add_import(p, NULL, full, fn)) return -1;
        if (php_tok_is(php_cur(p), ",")) {
            php_take(p);
            continue;
        }
        return php_expect(p, ";", "',' or ';'");
    }
}

/* The top level: imports, and every function's place (a plain one is read only where a graph
 * function calls it, php_inline.c). */
static int top_level(P *p) {
    const PhpTok *t = php_cur(p);
    const char *ns = NULL; /* p->ns's copy for the functions declared in it */
    if (t->kind == PT_ERROR) return php_perr(p, t, "%s", t->text);
    if (t->kind != PT_OPEN_TAG)
        return php_perr(p, t, "text before <?php is printed when PHP runs the file; start the file with <?php");
    php_take(p);
    for (;;) {
        t = php_cur(p);
        if (t->kind == PT_EOF) return 0;
        if (t->kind == PT_ERROR) return php_perr(p, t, "%s", t->text);
        if (t->kind == PT_CLOSE_TAG || t->kind == PT_INLINE_HTML) {
            if (t->kind == PT_CLOSE_TAG && php_ahead(p, 1)->kind == PT_EOF) return 0;
            return php_perr(p, t, "text outside <?php ... ?> is printed when PHP runs the file; a graph file is PHP code only");
        }
        if (php_tok_kw(t, "declare")) {
            php_take(p);
            if (!php_tok_is(php_cur(p), "(")) return php_unexpected(p, "'('");
            if (skip_balanced(p, "(", ")") || php_expect(p, ";", "';'")) return -1;
        } else if (php_tok_kw(t, "namespace")) {
            php_take(p);
            char *ns = php_qname(p);
            if (!ns) return php_unexpected(p, "a namespace name");
            if (php_tok_is(php_cur(p), "{"))
                return php_perr(p, php_cur(p), "braced namespace blocks are not supported; write `namespace Name;`");
            snprintf(p->ns, sizeof p->ns, "%s", ns);
            if (php_expect(p, ";", "';'")) return -1;
        } else if (php_tok_kw(t, "use")) {
            if (add_use(p)) return -1;
        } else if (php_tok_kw(t, "require_once")) {
            int ok = 0;
            php_take(p);
            while (!php_tok_is(php_cur(p), ";") && php_cur(p)->kind != PT_EOF && php_cur(p)->kind != PT_ERROR) {
                const PhpTok *s = php_take(p);
                if (s->kind == PT_STRING && s->len >= 18 && strcmp(s->text + s->len - 18, "gtc_attributes.php") == 0) ok = 1;
            }
            if (!ok) return php_include_error(p, t);
            if (php_expect(p, ";", "';'")) return -1;
        } else if (php_in_list(t, php_kw_incl)) {
            return php_include_error(p, t);
        } else if (t->kind == PT_ATTR || php_tok_kw(t, "function")) {
            Attr *attrs = NULL;
            int nattrs = 0;
            if (php_parse_attrs(p, &attrs, &nattrs)) return -1;
            if (!php_tok_kw(php_cur(p), "function"))
                return php_perr(p, php_cur(p), "gtc reads attributes on functions only: #[Gtc\\Graph] function name(...) {...}");
            php_take(p);
            if (php_tok_is(php_cur(p), "&")) php_take(p);
            const PhpTok *name = php_cur(p);
            if (name->kind != PT_IDENT) return php_unexpected(p, "a function name");
            php_take(p);
            int lparen = p->pos;
            if (!php_tok_is(php_cur(p), "(")) return php_unexpected(p, "'('");
            if (skip_balanced(p, "(", ")")) return -1;
            while (!php_tok_is(php_cur(p), "{")) {
                const PhpTok *r = php_cur(p);
                if (r->kind == PT_EOF || r->kind == PT_ERROR || php_tok_is(r, ";")) return php_unexpected(p, "'{'");
                php_take(p);
            }
            if (skip_balanced(p, "{", "}")) return -1;
            bool graph = false;
            for (int i = 0; i < nattrs; i++) graph |= php_is_cls(attrs[i].cls, "Gtc\\Graph");
            char key[800];
            NodeId twice = namemap_get(&p->fnmap, php_fn_key(key, sizeof key, p->ns, strlen(p->ns), name->text));
            if (twice >= 0)
                return php_perr(p, name, "function %.64s() is declared twice (first at %d:%d); PHP refuses to "
                                         "declare it again", name->text, p->fns[twice].name->line, p->fns[twice].name->col);
            namemap_put(&p->fnmap, php_dupstr(p, key), p->nfns);
            if (p->nfns == p->capfns) { /* doubling: php_regrow searches the arena */
                p->capfns = p->capfns ? 2 * p->capfns : 16;
                p->fns = php_regrow(p, p->fns, (size_t)p->capfns * sizeof *p->fns);
            }
            if (!ns || strcmp(ns, p->ns) != 0) ns = php_dupstr(p, p->ns);
            p->fns[p->nfns++] = (Fn){name, attrs, nattrs, lparen, p->pos, ns, graph};
        } else {
            char b[96];
            return php_perr(p, t, "unexpected %s at the top level: a graph file holds declare, namespace, use, "
                                  "require_once of gtc_attributes.php and functions", php_describe(t, b, sizeof b));
        }
    }
}

/* A constant from an attribute as JSON: a list with 'key' => value entries is an object. */
static cJSON *lit_json(const Lit *l) {
    switch (l->k) {
    case L_STR: return cJSON_CreateString(l->s);
    case L_NUM: return cJSON_CreateNumber(l->num);
    case L_BOOL: return cJSON_CreateBool(l->num != 0);
    case L_NULL: return cJSON_CreateNull();
    default: break;
    }
    bool keyed = l->n > 0 && l->keys[0];
    cJSON *j = keyed ? cJSON_CreateObject() : cJSON_CreateArray();
    for (int i = 0; i < l->n; i++) {
        if (keyed) cJSON_AddItemToObject(j, l->keys[i]->text, lit_json(l->items[i]));
        else cJSON_AddItemToArray(j, lit_json(l->items[i]));
    }
    return j;
}

static int mixed_keys(P *p, const Lit *l) {
    if (l->k != L_LIST) return 0;
    for (int i = 0; i < l->n; i++) {
        if (!l->keys[i] != !l->keys[0])
            return php_perr(p, l->items[i]->at, "#[Gtc\\Train]: a list is either all 'key' => value entries or none");
        if (mixed_keys(p, l->items[i])) return -1;
    }
    return 0;
}

/* #[Gtc\Train(loss:, params:, optimizer:, stop_gradient:)] is the JSON "train" section: its
 * arguments become that section's cJSON object and the JSON reader's ir_read_train sets
 * g->train on the verified graph, so both forms follow the same rules and messages
 * (docs/graph-format.md, section 13). */
static int with_train(P *p, const Attr *a) {
    static const char *const tp[] = {"loss", "params", "optimizer", "stop_gradient", NULL};
    Arg *s[4], args[MAX_ARGS];
    memcpy(args, a->args, sizeof args);
    if (php_bind(p, a->at, "#[Gtc\\Train]", tp, 3, args, a->nargs, s)) return -1;
    for (int i = 0; i < 4; i++)
        if (s[i] && mixed_keys(p, s[i]->lit)) return -1;
    cJSON *t = cJSON_CreateObject();
    if (!t) abort();
    for (int i = 0; i < 4; i++)
        if (s[i]) cJSON_AddItemToObject(t, tp[i], lit_json(s[i]->lit));
    Diag d2;
    diag_init(&d2, p->path);
    int rc = ir_read_train(p->g, t, &d2);
    cJSON_Delete(t);
    if (!rc) return 0;
    size_t n = strlen(p->path);
    const char *msg = strncmp(d2.msg, p->path, n) == 0 && d2.msg[n] == ':' ? d2.msg + n + 2 : d2.msg;
    return php_perr(p, a->at, "#[Gtc\\Train]: %s", msg);
}

/* The name #[Gtc\Graph] gives (its first or `name:` argument), or NULL. */
static const char *graph_name(const Fn *fn) {
    for (int i = 0; i < fn->nattrs; i++) {
        const Attr *a = &fn->attrs[i];
        if (!php_is_cls(a->cls, "Gtc\\Graph") || a->nargs < 1) continue;
        const Arg *g = &a->args[0];
        if ((!g->name || strcmp(g->name->text, "name") == 0) && g->lit && g->lit->k == L_STR) return g->lit->s;
    }
    return NULL;
}

/* ir_verify's messages name a node by its loc "LINE:COL": turned into "FILE:LINE:COL: ...". */
static void fix_loc(Diag *d, const char *path) {
    size_t n = strlen(path);
    const char *m = d->msg;
    if (strncmp(m, path, n) != 0 || m[n] != ':' || m[n + 1] != ' ') return;
    const char *q = m + n + 2;
    int line, col, used = 0;
    if (sscanf(q, "%d:%d%n", &line, &col, &used) != 2 || q[used] != ' ') return;
    char buf[sizeof d->msg];
    snprintf(buf, sizeof buf, "%s:%d:%d: %s", path, line, col, q + used + 1);
    memcpy(d->msg, buf, sizeof buf);
}

Graph *frontend_php_read(const char *text, size_t len, const char *function, Diag *d) {
    P p;
    memset(&p, 0, sizeof p);
    p.path = d->file ? d->file : "<input>";
    p.d = d;
    namemap_init(&p.vars);
    namemap_init(&p.reserved);
    namemap_init(&p.nodenames);
    namemap_init(&p.fnmap);
    Graph *g = NULL;
    Fn *fns = NULL;
    int nfns = 0;
    if (len > IR_MAX_FILE_BYTES) {
        diag_at(d, NULL, "file is larger than %zu MiB", IR_MAX_FILE_BYTES >> 20);
        goto done;
    }
    php_lex(text, len, &p.tk);
    if (top_level(&p)) goto done;
    fns = php_alloc(&p, (size_t)p.nfns * sizeof *fns); /* the graph functions */
    for (int i = 0; i < p.nfns; i++)
        if (p.fns[i].graph) fns[nfns++] = p.fns[i];
    const Fn *fn = NULL;
    for (int i = 0; i < nfns && function; i++)
        if (strcasecmp(fns[i].name->text, function) == 0) fn = &fns[i];
    for (int i = 0; i < nfns && function && !fn; i++) { /* else the graph's name */
        const char *gn = graph_name(&fns[i]);
        if (gn && strcmp(gn, function) == 0) fn = &fns[i];
    }
    if (!function && nfns == 1) fn = &fns[0];
    if (!fn) {
        char list[400] = "";
        size_t k = 0;
        for (int i = 0; i < nfns && k < sizeof list; i++)
            k += (size_t)snprintf(list + k, sizeof list - k, "%s%.64s", i ? ", " : "", fns[i].name->text);
        if (!nfns) diag_at(d, NULL, "no function marked #[Gtc\\Graph]; mark the graph function with #[Gtc\\Graph(name: '...')]");
        else if (function) diag_at(d, NULL, "no graph function named %.64s (graph functions: %s)", function, list);
        else diag_at(d, NULL, "%d graph functions (%s); pick one with --function NAME", nfns, list);
        goto done;
    }
    p.g = graph_new(fn->name->text);
    if (build(&p, fn) || ir_verify(p.g, d)) {
        fix_loc(d, p.path);
        graph_free(p.g);
        goto done;
    }
    for (int i = 0; i < fn->nattrs; i++)
        if (php_is_cls(fn->attrs[i].cls, "Gtc\\Train") && with_train(&p, &fn->attrs[i])) {
            graph_free(p.g);
            goto done;
        }
    g = p.g;
done:
    for (int i = 0; i < p.narena; i++) free(p.arena[i]);
    free(p.arena);
    free(p.vals);
    free(p.vtok);
    namemap_free(&p.vars);
    namemap_free(&p.reserved);
    namemap_free(&p.nodenames);
    namemap_free(&p.fnmap);
    php_toks_free(&p.tk);
    return g;
}

Graph *frontend_php_load(const char *path, const char *function, Diag *d) {
    size_t len;
    char *buf = ir_read_file(path, &len, d);
    if (!buf) return NULL;
    Graph *g = frontend_php_read(buf, len, function, d);
    free(buf);
    return g;
}
