/* compiler/php_inline.c: calls of the file's plain functions from a graph function, inlined.
 * `function dense($x, $w, $b) { return $x->matmul($w) + $b; }` called as
 * `$h = dense($x, $w1, $b1);` reads dense's body with its parameters bound to the call's values,
 * so the graph holds the body's nodes, named after the call's variable (h_1, h_z for dense's $z,
 * and h for the result), and no call. A body is the graph function's subset (assignments and one
 * final `return expression;`); arguments are CudaArrays and numbers, defaults numbers. Recursion,
 * calls nested more than PHP_MAX_INLINE deep and bodies that multiply past
 * PHP_MAX_INLINE_TOKENS are refused. docs/php-graphs.md describes it. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "php_parse.h"

/* The innermost calls first; a long chain shows its three innermost calls and the outermost. */
void php_call_context(P *p, char *buf, size_t n) {
    if (!n) return;
    buf[0] = 0;
    size_t k = 0;
    for (int i = p->ncalls - 1; i >= 0 && k < n; i--) {
        if (p->ncalls > 5 && i == p->ncalls - 4) {
            k += (size_t)snprintf(buf + k, n - k, ", ... (%d more)", i);
            i = 0;
        }
        k += (size_t)snprintf(buf + k, n - k, "%s%.64s() called at %d:%d", i == p->ncalls - 1 ? " (in " : ", in ",
                              p->calls[i].fn->name->text, p->calls[i].at->line, p->calls[i].at->col);
    }
    if (p->ncalls && k < n) snprintf(buf + k, n - k, ")");
}

const char *php_fn_key(char *buf, size_t n, const char *ns, size_t nslen, const char *name) {
    snprintf(buf, n, "%.*s\\%s", (int)nslen, ns, name);
    for (char *c = buf; *c; c++) *c = (char)tolower((unsigned char)*c);
    return buf;
}

static const Fn *lookup(P *p, const char *ns, size_t nslen, const char *name) {
    char key[800];
    NodeId i = namemap_get(&p->fnmap, php_fn_key(key, sizeof key, ns, nslen, name));
    return i < 0 ? NULL : &p->fns[i];
}

/* The function `raw` names, as PHP resolves a call: an unqualified name through `use function`,
 * else in the current namespace, then the global one; a qualified name relative to the current
 * namespace; \A\f as written. */
static const Fn *find_user(P *p, const char *raw) {
    for (int i = 0; i < p->nuses && !strchr(raw, '\\'); i++) /* `use function A\f as g;` */
        if (p->isfn[i] && strcasecmp(p->aliases[i], raw) == 0) {
            const char *name = strrchr(p->fulls[i], '\\');
            return name ? lookup(p, p->fulls[i], (size_t)(name - p->fulls[i]), name + 1) : lookup(p, "", 0, p->fulls[i]);
        }
    if (!strchr(raw, '\\')) {
        const Fn *f = lookup(p, p->ns, strlen(p->ns), raw);
        return f ? f : lookup(p, "", 0, raw);
    }
    char full[800];
    if (raw[0] == '\\') snprintf(full, sizeof full, "%s", raw + 1);
    else snprintf(full, sizeof full, "%s%s%s", p->ns, p->ns[0] ? "\\" : "", raw);
    const char *name = strrchr(full, '\\');
    return name ? lookup(p, full, (size_t)(name - full), name + 1) : lookup(p, "", 0, full);
}

bool php_user_function(P *p, const char *raw) { return find_user(p, raw) != NULL; }

/* The callee's parameter list at the cursor: names (NULL-terminated), where each is declared,
 * and defaults (numbers; the parameters from *nreq on have one). */
static int params(P *p, const char *fname, const char **names, const PhpTok **toks, Val *defs, int *nreq) {
    int n = 0;
    *nreq = 0;
    if (php_expect(p, "(", "'('")) return -1;
    while (!php_tok_is(php_cur(p), ")")) {
        Attr *attrs = NULL;
        int nattrs = 0;
        if (php_parse_attrs(p, &attrs, &nattrs)) return -1;
        for (int i = 0; i < nattrs; i++)
            if (strncasecmp(attrs[i].cls, "Gtc\\", 4) == 0)
                return php_perr(p, attrs[i].at, "#[%.64s] belongs on a graph function's parameter; %s is inlined where a "
                                                "graph calls it: its parameters are the call's arguments", attrs[i].cls, fname);
        while (php_cur(p)->kind == PT_IDENT || php_tok_is(php_cur(p), "\\") || php_tok_is(php_cur(p), "|") ||
               php_tok_is(php_cur(p), "?") || php_tok_is(php_cur(p), "(") || php_tok_is(php_cur(p), ")"))
            if (php_tok_is(php_take(p), ")") && php_tok_is(php_cur(p), "{")) return php_unexpected(p, "a parameter");
        if (php_tok_is(php_cur(p), "&"))
            return php_perr(p, php_cur(p), "by-reference parameters are not supported: %s returns its result", fname);
        if (php_tok_is(php_cur(p), "..."))
            return php_perr(p, php_cur(p), "variadic parameters are not supported: declare each parameter");
        const PhpTok *v = php_cur(p);
        if (v->kind != PT_VAR) return php_unexpected(p, "a parameter ($name)");
        php_take(p);
        if (php_check_name(p, v)) return -1;
        for (int i = 0; i < n; i++)
            if (strcmp(names[i], v->text) == 0) return php_perr(p, v, "parameter $%s is declared twice", v->text);
        if (n == MAX_ARGS) return php_perr(p, v, "%s has more than %d parameters", fname, MAX_ARGS);
        if (php_tok_is(php_cur(p), "=")) {
            php_take(p);
            const PhpTok *d = php_cur(p);
            if (d->kind == PT_STRING || d->kind == PT_ISTRING || php_tok_is(d, "[") || php_tok_kw(d, "true") ||
                php_tok_kw(d, "false") || php_tok_kw(d, "null") || php_expr(p, &defs[n]) || defs[n].is_node)
                return php_perr(p, d, "the default value of $%s must be a number: the parameters of %s, a function a "
                                      "graph calls, are CudaArrays and numbers", v->text, fname);
        } else {
            *nreq = n + 1; /* as PHP: a parameter with a default before a required one is required */
        }
        names[n] = v->text, toks[n++] = v;
        if (php_tok_is(php_cur(p), ",")) php_take(p);
        else if (!php_tok_is(php_cur(p), ")")) return php_unexpected(p, "',' or ')'");
    }
    php_take(p);
    names[n] = NULL;
    return 0;
}

/* Types every node made so far (php_node_type), a message naming the calls being inlined: done
 * before a body and after it, so that a shape error in a body names the call it came through
 * and one made before the call does not. */
static int type_nodes(P *p) {
    TensorType t;
    if (!p->g->nnodes || !php_node_type(p, p->g->nnodes - 1, &t)) return 0;
    size_t k = strlen(p->d->msg);
    php_call_context(p, p->d->msg + k, sizeof p->d->msg - k);
    return -1;
}

/* The callee's body at its parameter list, with the call's arguments: its return value in *out. */
static int body(P *p, const PhpTok *at, const Fn *fn, const char *fname, Arg *args, int nargs, Val *out) {
    const char *names[MAX_ARGS + 1];
    const PhpTok *toks[MAX_ARGS];
    Val defs[MAX_ARGS];
    Arg *slots[MAX_ARGS];
    int nreq;
    p->pos = fn->lparen;
    if (params(p, fname, names, toks, defs, &nreq) || php_bind(p, at, fname, names, nreq, args, nargs, slots) ||
        type_nodes(p))
        return -1;
    p->calls[p->ncalls].fn = fn, p->calls[p->ncalls++].at = at;
    for (int i = 0; names[i]; i++) php_set_var(p, toks[i], names[i], slots[i] ? slots[i]->v : defs[i]);
    p->params_end = p->nvals;
    if (php_tok_is(php_cur(p), ":")) /* the return type */
        while (!php_tok_is(php_cur(p), "{") && php_cur(p)->kind != PT_EOF && php_cur(p)->kind != PT_ERROR) php_take(p);
    if (php_expect(p, "{", "'{'")) return -1;
    while (!php_tok_kw(php_cur(p), "return")) {
        if (php_tok_is(php_cur(p), "}"))
            return php_perr(p, php_cur(p), "%s must end with `return expression;`: a function a graph calls gives the "
                                           "call its value", fname);
        if (php_statement(p)) return -1;
    }
    const PhpTok *r = php_take(p);
    if (php_tok_is(php_cur(p), ";") || php_tok_is(php_cur(p), "["))
        return php_perr(p, r, "%s must return one value, `return expression;` (a list of outputs is what a graph "
                              "function returns)", fname);
    p->target = p->prefix;
    if (php_expr(p, out)) return -1;
    if (!php_tok_is(php_cur(p), ";")) return php_bad_continuation(p, "';'");
    php_take(p);
    if (!php_tok_is(php_cur(p), "}"))
        return php_perr(p, php_cur(p), "code after return never runs; return must be the function's last statement");
    if (type_nodes(p)) return -1;
    p->ncalls--;
    return 0;
}

/* fn(args) at the cursor's '(', inlined: the arguments read where the call is, then the body in
 * a scope of its own (its parameters, its variables) named after the call's target. */
static int inline_call(P *p, const PhpTok *at, const Fn *fn, Val *out) {
    char fname[80];
    snprintf(fname, sizeof fname, "%.64s()", fn->name->text);
    if (fn->graph)
        return php_perr(p, at, "%s is a graph function (#[Gtc\\Graph]); a graph calls plain functions: move the shared "
                               "steps into a function without attributes and call it from both", fname);
    for (int i = 0; i < fn->nattrs; i++)
        if (strncasecmp(fn->attrs[i].cls, "Gtc\\", 4) == 0)
            return php_perr(p, at, "%s has #[%.64s] but no #[Gtc\\Graph]; a function a graph calls takes no Gtc "
                                   "attributes", fname, fn->attrs[i].cls);
    for (int i = 0; i < p->ncalls; i++)
        if (p->calls[i].fn == fn)
            return php_perr(p, at, "recursive call of %s: a graph is straight-line code, so a function it calls is "
                                   "inlined and cannot call itself, directly or through others", fname);
    if (p->ncalls == PHP_MAX_INLINE)
        return php_perr(p, at, "calls are nested more than %d deep: inlining %s would go deeper", PHP_MAX_INLINE, fname);
    p->inlined_tokens += fn->end - fn->lparen;
    if (p->inlined_tokens > PHP_MAX_INLINE_TOKENS)
        return php_perr(p, at, "inlining %s here reads function bodies of more than %d tokens in all: the calls "
                               "multiply (each call inlines its body again)", fname, PHP_MAX_INLINE_TOKENS);
    Arg args[MAX_ARGS];
    int nargs;
    if (php_parse_args(p, args, &nargs)) return -1;
    for (int i = 0; i < nargs; i++)
        if (args[i].lit)
            return php_perr(p, args[i].at, "%s: argument %d must be a CudaArray or a number, got %s: the parameters of "
                                           "a function a graph calls are values", fname, i + 1, php_lit_kind(args[i].lit));
    /* the caller's state, back after the body whatever happens (the parser frees p->vars) */
    int pos = p->pos, params_end = p->params_end, ncalls = p->ncalls;
    const char *prefix = p->prefix, *target = p->target;
    char ns[sizeof p->ns];
    memcpy(ns, p->ns, sizeof ns);
    NameMap vars = p->vars;
    namemap_init(&p->vars);
    snprintf(p->ns, sizeof p->ns, "%s", fn->ns);
    p->prefix = target ? target : fn->name->text;
    int rc = body(p, at, fn, fname, args, nargs, out);
    namemap_free(&p->vars);
    p->vars = vars;
    p->pos = pos, p->params_end = params_end, p->ncalls = ncalls;
    p->prefix = prefix, p->target = target;
    memcpy(p->ns, ns, sizeof ns);
    return rc;
}

int php_function_call(P *p, const PhpTok *at, const char *raw, Val *out) {
    const Fn *fn = find_user(p, raw);
    if (fn) return inline_call(p, at, fn, out);
    if (!strchr(raw + (raw[0] == '\\'), '\\') && php_math_known(raw)) return php_math_call(p, at, raw, out);
    return php_unknown_function(p, at, raw);
}
