/* compiler/emit_unswitch.c: what the CPU emitter needs to write the innermost loop of a step in
 * versions (emit_loops.c, ex_loop_nest): string lists, whether an index text is invariant in that
 * loop, the pad and concat tests (ex_guard: decided by the version being written, or recorded),
 * which versions some iteration reaches (ex_nest_feasible), the classes the tests of the loop's
 * counter cut it into (ex_nest_ranges), and a small evaluator of such a test at one value of a
 * counter (ex_eval_test). */
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "util.h"

void ex_list_add(ExList *l, const char *s) {
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 16;
        l->s = realloc(l->s, (size_t)l->cap * sizeof *l->s);
        if (!l->s) abort();
    }
    l->s[l->n++] = xstrdup(s);
}

int ex_list_find(const ExList *l, const char *s) {
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->s[i], s) == 0) return i;
    return -1;
}

void ex_list_free(ExList *l) {
    for (int i = 0; i < l->n; i++) free(l->s[i]);
    free(l->s);
    memset(l, 0, sizeof *l);
}

void ex_versions_reset(Ex *x) {
    ExList *ls[] = {&x->inv, &x->hoist_key, &x->hoist_val, &x->guard, &x->vtest, &x->assume, &x->def_name, &x->def_expr};
    for (size_t i = 0; i < sizeof ls / sizeof *ls; i++) ex_list_free(ls[i]);
}

static bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* Whether every name in index text t is `only` (when given), else an outer loop's counter or a
 * hoisted split's (x->inv) or the argument block's ("a", "s": a symbolic size). Numbers and
 * their LL suffixes are skipped. */
static bool names_ok(const Ex *x, const char *t, const char *only) {
    for (const char *p = t; *p;) {
        if (is_digit(*p)) {
            while (is_digit(*p) || *p == 'L') p++;
        } else if (is_alpha(*p)) {
            const char *q = p;
            while (is_alpha(*q) || is_digit(*q)) q++;
            size_t n = (size_t)(q - p);
            char name[64];
            if (n >= sizeof name) return false;
            memcpy(name, p, n);
            name[n] = 0;
            if (only ? strcmp(name, only) != 0
                     : strcmp(name, "a") && strcmp(name, "s") && strcmp(name, "int") && strcmp(name, "long") &&
                           ex_list_find(&x->inv, name) < 0)
                return false;
            p = q;
        } else {
            p++;
        }
    }
    return true;
}

bool ex_invariant(const Ex *x, const char *t) { return x->pre && names_ok(x, t, NULL); }

void ex_def(Ex *x, const char *name, const char *expr) {
    if (!x->pre) return;
    ex_list_add(&x->def_name, name);
    ex_list_add(&x->def_expr, expr);
}

/* t with every index variable of x->def_name replaced by its expression, in parentheses (to a
 * depth of 8): the same text for the same test in every version of the loop, whatever names
 * its variables have there. */
static void canonical(const Ex *x, const char *t, Str *out, int depth) {
    for (const char *p = t; *p;) {
        if (is_digit(*p)) {
            const char *q = p;
            while (is_digit(*q) || *q == 'L') q++;
            str_add(out, "%.*s", (int)(q - p), p);
            p = q;
        } else if (is_alpha(*p)) {
            const char *q = p;
            while (is_alpha(*q) || is_digit(*q)) q++;
            int k = -1;
            for (int i = x->def_name.n - 1; i >= 0 && k < 0 && depth < 8; i--)
                if (strlen(x->def_name.s[i]) == (size_t)(q - p) && !strncmp(x->def_name.s[i], p, (size_t)(q - p))) k = i;
            if (k < 0) str_add(out, "%.*s", (int)(q - p), p);
            else {
                str_cat(out, "(");
                canonical(x, x->def_expr.s[k], out, depth + 1);
                str_cat(out, ")");
            }
            p = q;
        } else {
            str_add(out, "%c", *p++);
        }
    }
}

int ex_guard(Ex *x, const char *cond) {
    if (!x->pre) return -1;
    Str c = {0};
    canonical(x, cond, &c, 0);
    int k = ex_list_find(&x->assume, c.s), r = -1;
    if (k >= 0) r = x->assumed[k];
    else if (names_ok(x, c.s, NULL)) {
        if (ex_list_find(&x->guard, c.s) < 0) ex_list_add(&x->guard, c.s);
    } else if (x->inner && names_ok(x, c.s, x->inner)) {
        if (ex_list_find(&x->vtest, c.s) < 0) ex_list_add(&x->vtest, c.s);
    } else {
        x->mixed++;
    }
    str_free(&c);
    return r;
}

/* ---- versions of a loop ---------------------------------------------------------------------------- */

/* Whether some values of the outer counters satisfy guards 0..upto as assumed: each guard that
 * names one outer counter alone is checked over that counter's range (the others are taken as
 * satisfiable). Prunes the versions no iteration reaches ((c + 1) >= 2 true, (c + 1) >= 1 false). */
bool ex_nest_feasible(const Ex *x, const ExNest *ns, int upto) {
    for (int o = 0; o < ns->nouter; o++) {
        if (ns->odim[o] > 4096) continue;
        bool any = false, bound = false;
        for (int64_t v = 0; v < ns->odim[o] && !any; v++) {
            bool all = true;
            for (int j = 0; j <= upto && all; j++) {
                bool r;
                if (!ex_eval_test(x->assume.s[j], ns->outer[o], v, &r)) continue;
                bound = true;
                all = r == x->assumed[j];
            }
            any = all;
        }
        if (bound && !any) return false;
    }
    return true;
}

/* The classes of [0, n) over which every recorded test of the counter (x->vtest) is constant:
 * iterations grouped by their tests' outcomes, each group an arithmetic progression (a pad's
 * zero ranges and interior, a concat's segments along this axis, the odd and even positions of
 * a stride-2 interleave), at most RANGE_MAX of them; else the loop is left whole. Fills
 * ns->lo/hi/step/nr and appends the tests to x->assume (ns->m). */
void ex_nest_ranges(Ex *x, ExNest *ns, int64_t n) {
    ExList keep = {0};
    bool ok = true;
    for (int t = 0; t < x->vtest.n && n <= 4096; t++) {
        bool v;
        if (ex_eval_test(x->vtest.s[t], ns->c, 0, &v)) ex_list_add(&keep, x->vtest.s[t]);
    }
    if (!keep.n || n > 4096 || x->assume.n + keep.n > (int)(sizeof x->assumed / sizeof *x->assumed)) ok = false;
    uint64_t sig[RANGE_MAX];
    int nr = 0;
    int64_t count[RANGE_MAX] = {0};
    for (int64_t i = 0; i < n && ok; i++) {
        uint64_t g = 0;
        for (int t = 0; t < keep.n && t < 64; t++) {
            bool v = false;
            ex_eval_test(keep.s[t], ns->c, i, &v);
            g |= (uint64_t)v << t;
        }
        int r = 0;
        while (r < nr && sig[r] != g) r++;
        if (r == nr) {
            if (nr == RANGE_MAX) ok = false;
            else sig[nr] = g, ns->lo[nr] = i, ns->step[nr] = 0, nr++;
        } else if (ns->step[r] == 0) {
            ns->step[r] = i - ns->lo[r];
        } else if (i != ns->hi[r] - 1 + ns->step[r]) {
            ok = false; /* not a progression */
        }
        if (ok) ns->hi[r] = i + 1, count[r]++;
    }
    if (!ok || keep.n > 64) {
        ex_list_free(&keep);
        return;
    }
    for (int r = 0; r < nr; r++)
        if (!ns->step[r]) ns->step[r] = 1;
    ns->nr = nr;
    ns->m = keep.n;
    for (int i = 0; i < keep.n; i++) ex_list_add(&x->assume, keep.s[i]);
    ex_list_free(&keep);
}

/* A loop nest over t (coords: one text per axis, freed by the caller; the outer loops parallel
 * when `par`) whose innermost loop is written in versions: the body is written once to find the
 * tests of pads and concats (which operand, interior or padding) and the index splits that do
 * not depend on the innermost coordinate (the splits are then written once, before that loop),
 * and the tests of the innermost coordinate alone. Then the loop is written once per outcome of
 * the first UNSWITCH_MAX invariant tests, under those tests, and, with a static bound, cut into
 * ranges over which each test of its coordinate is constant: its body has fewer branches (a max
 * pool's gradient: none) and the vectoriser can take it. Every version computes what the one
 * loop computed, element for element. */
/* ---- evaluating a test ------------------------------------------------------------------------- */

typedef struct {
    const char *p, *name;
    long long v;
    bool bad;
} Ev;

static long long ev_or(Ev *e);

static void ev_ws(Ev *e) {
    while (*e->p == ' ') e->p++;
}

static bool ev_eat(Ev *e, const char *op) {
    ev_ws(e);
    size_t n = strlen(op);
    if (strncmp(e->p, op, n) != 0) return false;
    /* "<" is not the start of "<=", "&" not of "&&" */
    if (n == 1 && (e->p[1] == '=' || e->p[1] == *op) && *op != '(' && *op != ')') return false;
    e->p += n;
    return true;
}

static long long ev_primary(Ev *e) {
    ev_ws(e);
    if (ev_eat(e, "(")) {
        long long v = ev_or(e);
        if (!ev_eat(e, ")")) e->bad = true;
        return v;
    }
    if (ev_eat(e, "-")) return -ev_primary(e);
    if (is_digit(*e->p)) {
        long long v = 0;
        while (is_digit(*e->p)) v = v * 10 + (*e->p++ - '0');
        while (*e->p == 'L') e->p++;
        return v;
    }
    if (is_alpha(*e->p)) {
        size_t n = strlen(e->name);
        if (strncmp(e->p, e->name, n) == 0 && !is_alpha(e->p[n]) && !is_digit(e->p[n])) {
            e->p += n;
            return e->v;
        }
    }
    e->bad = true;
    return 0;
}

static long long ev_mul(Ev *e) {
    long long v = ev_primary(e);
    for (;;) {
        if (ev_eat(e, "*")) v *= ev_primary(e);
        else if (ev_eat(e, "/") || ev_eat(e, "%")) {
            char op = e->p[-1];
            long long d = ev_primary(e);
            if (!d) return e->bad = true, 0;
            v = op == '/' ? v / d : v % d; /* C's truncation, as the test computes */
        } else return v;
    }
}

static long long ev_add(Ev *e) {
    long long v = ev_mul(e);
    for (;;) {
        if (ev_eat(e, "+")) v += ev_mul(e);
        else if (ev_eat(e, "-")) v -= ev_mul(e);
        else return v;
    }
}

static long long ev_cmp(Ev *e) {
    long long v = ev_add(e);
    if (ev_eat(e, "<=")) return v <= ev_add(e);
    if (ev_eat(e, ">=")) return v >= ev_add(e);
    if (ev_eat(e, "<")) return v < ev_add(e);
    if (ev_eat(e, ">")) return v > ev_add(e);
    if (ev_eat(e, "==")) return v == ev_add(e);
    if (ev_eat(e, "!=")) return v != ev_add(e);
    return v;
}

static long long ev_or(Ev *e) {
    long long v = ev_cmp(e);
    for (;;) {
        if (ev_eat(e, "&&")) v = ev_cmp(e) && v;
        else if (ev_eat(e, "||")) v = ev_cmp(e) || v;
        else return v;
    }
}

bool ex_eval_test(const char *t, const char *name, long long v, bool *out) {
    Ev e = {.p = t, .name = name, .v = v};
    long long r = ev_or(&e);
    ev_ws(&e);
    if (e.bad || *e.p) return false;
    *out = r != 0;
    return true;
}
