/* compiler/emit_affine.c: index texts read as affine forms over index variables of known range
 * (the CPU emitter's loop counters and the coordinates split from them), so that a reshape's
 * split of an index whose terms fall on the split's radices is written without a division
 * (ex_split, emit_expr.c): ((c3 + 1) - 1) + c22 * 4 + c23 * 48 + c1 * 144 over [144, 16] is
 * (1 + c23 * 3 + c1 * 9) and (c3 + c22 * 4) when c3 and c22 are below 4, and the load it
 * addresses stays affine in the innermost counter, which the vectoriser needs. */
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "util.h"

#define AFF_TERMS 16

/* const + sum coef[i] * name[i]; bad when the text is not such a form over known names. */
typedef struct {
    int n;
    const char *name[AFF_TERMS];   /* the range table's own strings */
    int64_t coef[AFF_TERMS];
    int64_t c;
    bool bad;
} Aff;

typedef struct {
    const Ex *x;
    const char *p;
} AffIn;

struct ExRange {
    char *name;
    int64_t lo, hi;
};

void ex_range(Ex *x, const char *name, int64_t lo, int64_t hi) {
    if (!name || lo > hi) return;
    if (x->nrange == x->caprange) {
        x->caprange = x->caprange ? x->caprange * 2 : 32;
        x->range = realloc(x->range, (size_t)x->caprange * sizeof *x->range);
        if (!x->range) abort();
    }
    x->range[x->nrange++] = (struct ExRange){xstrdup(name), lo, hi};
}

void ex_range_free(Ex *x) {
    for (int i = 0; i < x->nrange; i++) free(x->range[i].name);
    free(x->range);
    x->range = NULL, x->nrange = x->caprange = 0;
}

static const struct ExRange *range_of(const Ex *x, const char *p, size_t n) {
    for (int i = x->nrange - 1; i >= 0; i--)
        if (strlen(x->range[i].name) == n && !strncmp(x->range[i].name, p, n)) return &x->range[i];
    return NULL;
}

static bool a_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool a_digit(char c) { return c >= '0' && c <= '9'; }

static void a_ws(AffIn *in) {
    while (*in->p == ' ') in->p++;
}

/* a + k * b into a (terms merged by name) */
static void aff_add(Aff *a, const Aff *b, int64_t k) {
    if (b->bad) a->bad = true;
    if (a->bad) return;
    a->c += k * b->c;
    for (int i = 0; i < b->n; i++) {
        int j = 0;
        while (j < a->n && a->name[j] != b->name[i]) j++;
        if (j == a->n) {
            if (a->n == AFF_TERMS) return (void)(a->bad = true);
            a->name[a->n] = b->name[i], a->coef[a->n++] = 0;
        }
        a->coef[j] += k * b->coef[i];
    }
}

static Aff aff_sum(AffIn *in);

static Aff aff_primary(AffIn *in) {
    Aff r = {0};
    a_ws(in);
    if (*in->p == '(') {
        in->p++;
        r = aff_sum(in);
        a_ws(in);
        if (*in->p++ != ')') r.bad = true;
        return r;
    }
    if (*in->p == '-') {
        in->p++;
        Aff v = aff_primary(in);
        aff_add(&r, &v, -1);
        return r;
    }
    if (a_digit(*in->p)) {
        while (a_digit(*in->p) && r.c < ((int64_t)1 << 50)) r.c = r.c * 10 + (*in->p++ - '0');
        if (a_digit(*in->p)) r.bad = true;
        while (*in->p == 'L') in->p++;
        return r;
    }
    const char *q = in->p;
    while (a_alpha(*q) || a_digit(*q)) q++;
    const struct ExRange *rg = q > in->p ? range_of(in->x, in->p, (size_t)(q - in->p)) : NULL;
    if (!rg) return r.bad = true, r;
    in->p = q;
    r.n = 1, r.name[0] = rg->name, r.coef[0] = 1;
    return r;
}

static Aff aff_prod(AffIn *in) {
    Aff r = aff_primary(in);
    for (;;) {
        a_ws(in);
        if (*in->p != '*') return r;
        in->p++;
        Aff f = aff_primary(in);
        if (r.bad || f.bad || (r.n && f.n)) return r.bad = true, r;
        Aff k = r.n ? r : f, s = {0};
        aff_add(&s, &k, r.n ? f.c : r.c);
        r = s;
    }
}

static Aff aff_sum(AffIn *in) {
    Aff r = aff_prod(in);
    for (;;) {
        a_ws(in);
        if (*in->p != '+' && *in->p != '-') return r;
        int64_t k = *in->p++ == '+' ? 1 : -1;
        Aff t = aff_prod(in);
        aff_add(&r, &t, k);
    }
}

/* Text t as an affine form over the names of known range; bad if it is anything else. */
static Aff aff_parse(const Ex *x, const char *t) {
    AffIn in = {x, t};
    Aff r = aff_sum(&in);
    a_ws(&in);
    if (*in.p) r.bad = true;
    return r;
}

/* The least and greatest value of a over its names' ranges. */
static void aff_bounds(const Ex *x, const Aff *a, int64_t *lo, int64_t *hi) {
    *lo = *hi = a->c;
    for (int i = 0; i < a->n; i++) {
        const struct ExRange *rg = range_of(x, a->name[i], strlen(a->name[i]));
        int64_t u = a->coef[i] * rg->lo, v = a->coef[i] * rg->hi;
        *lo += u < v ? u : v, *hi += u < v ? v : u;
    }
}

bool ex_index_bounds(const Ex *x, const char *t, int64_t *lo, int64_t *hi) {
    Aff a = aff_parse(x, t);
    if (a.bad) return false;
    aff_bounds(x, &a, lo, hi);
    return true;
}

static int64_t floor_div(int64_t a, int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

/* The form as index text: "0", "c3", "(c3 + c22 * 4 + 1)". */
static char *aff_text(const Ex *x, const Aff *a) {
    const char *sf = x->idx64 ? "LL" : "";
    Str b = {0};
    int terms = 0;
    for (int i = 0; i < a->n; i++) {
        if (!a->coef[i]) continue;
        int64_t k = a->coef[i] < 0 ? -a->coef[i] : a->coef[i];
        const char *op = a->coef[i] < 0 ? (terms ? " - " : "-") : (terms ? " + " : "");
        if (k == 1) str_add(&b, "%s%s", op, a->name[i]);
        else str_add(&b, "%s%s * %lld%s", op, a->name[i], (long long)k, sf);
        terms++;
    }
    if (!terms) return ex_const(x, a->c);
    if (a->c) str_add(&b, " %s %lld%s", a->c < 0 ? "-" : "+", (long long)(a->c < 0 ? -a->c : a->c), sf), terms++;
    char *s = str_take(&b), *r = terms > 1 ? xfmt("(%s)", s) : xstrdup(s);
    free(s);
    return r;
}

bool ex_split_aligned(Ex *x, const char *lin, int rank, const int64_t *dims, char **coords) {
    Aff a = aff_parse(x, lin);
    if (a.bad || rank < 1 || rank > IR_MAX_RANK) return false;
    int64_t B[IR_MAX_RANK];
    Aff lv[IR_MAX_RANK];
    memset(lv, 0, sizeof lv);
    B[rank - 1] = 1;
    for (int i = rank - 2; i >= 0; i--) {
        if (dims[i + 1] < 1 || B[i + 1] > ((int64_t)1 << 40) / dims[i + 1]) return false;
        B[i] = B[i + 1] * dims[i + 1];
    }
    /* each term at the level whose radix it is a multiple of and the next level's is not */
    for (int t = 0; t < a.n; t++) {
        int64_t k = a.coef[t] < 0 ? -a.coef[t] : a.coef[t];
        if (!k) continue;
        int l = -1;
        for (int i = 0; i < rank && l < 0; i++)
            if (dims[i] != 1 && B[i] <= k) l = i;
        if (l < 0 || k % B[l]) return false;
        Aff one = {.n = 1, .name = {a.name[t]}, .coef = {a.coef[t] / B[l]}};
        aff_add(&lv[l], &one, 1);
    }
    /* the constant spread over the levels, each level's share the one (modulo its radix) that
     * brings its least value into [0, dims): ((c4 + 1) - 2) + (c3 + 8) * 4 over [.., 16] with c4
     * from 1 is (c4 - 1 + c3 * 4) and 2 above it, not (c4 + 15 + c3 * 4) */
    int64_t q = a.c;
    for (int i = rank - 1; i > 0; i--) {
        int64_t lo, hi;
        aff_bounds(x, &lv[i], &lo, &hi);
        int64_t m = q + lo, r = -lo + (m - floor_div(m, dims[i]) * dims[i]);
        lv[i].c += r, q = (q - r) / dims[i];
    }
    lv[0].c += q;
    /* the split is these levels when each stays within its axis for every value of the names */
    for (int i = 0; i < rank; i++) {
        int64_t lo, hi;
        aff_bounds(x, &lv[i], &lo, &hi);
        if (lv[i].bad || lo < 0 || hi >= dims[i]) return false;
    }
    for (int i = 0; i < rank; i++) coords[i] = aff_text(x, &lv[i]);
    return true;
}

void ex_refine_counter(Ex *x, const char *name, int axis) {
    ExRefine *rf = x->refine;
    if (!rf || rf->n == REFINE_MAX) return;
    rf->name[rf->n] = xstrdup(name);
    rf->axis[rf->n++] = axis;
}

void ex_refine_request(Ex *x, const char *lin, int rank, const int64_t *dims) {
    ExRefine *rf = x->refine;
    if (!rf) return;
    rf->nfallback++;
    Aff a = aff_parse(x, lin);
    if (a.bad || rank < 1 || rank > IR_MAX_RANK) return;
    int64_t B[IR_MAX_RANK];
    B[rank - 1] = 1;
    for (int i = rank - 2; i >= 0; i--) {
        if (dims[i + 1] < 1 || B[i + 1] > ((int64_t)1 << 40) / dims[i + 1]) return;
        B[i] = B[i + 1] * dims[i + 1];
    }
    /* a counter whose term spills over its level: split at the factor that moves its high part
     * to the next level's radix (c over 16 at coefficient 1 where the radix is 4: 4 x 4) */
    for (int t = 0; t < a.n; t++) {
        int c = 0;
        while (c < rf->n && strcmp(rf->name[c], a.name[t])) c++;
        int64_t k = a.coef[t] < 0 ? -a.coef[t] : a.coef[t];
        if (c == rf->n || !k) continue;
        const struct ExRange *rg = range_of(x, a.name[t], strlen(a.name[t]));
        int64_t n = rg->hi + 1;
        int l = -1;
        for (int i = 0; i < rank && l < 0; i++)
            if (dims[i] != 1 && B[i] <= k) l = i;
        if (l <= 0 || k % B[l] || rg->lo != 0 || (k / B[l]) * (n - 1) < dims[l] || B[l - 1] % k) continue;
        int64_t f = B[l - 1] / k;
        if (f <= 1 || f >= n || n % f) continue;
        int r = 0;
        while (r < rf->nreq && !(rf->req_axis[r] == rf->axis[c] && rf->req_factor[r] == f)) r++;
        if (r == rf->nreq && r < REFINE_MAX) rf->req_axis[r] = rf->axis[c], rf->req_factor[r] = f, rf->nreq++;
    }
}
