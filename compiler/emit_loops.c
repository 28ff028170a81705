/* compiler/emit_loops.c: the CPU emitter's loop nests (emit_cpu.c): plain nests with their OpenMP
 * pragmas above RT_CPU_PAR_MIN elements, and the nest over a step's iteration space written with
 * its innermost loop in versions (emit_unswitch.c decides them) over the common refinement of its
 * loops and reshapes (emit_affine.c: index splits without divisions). */
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "util.h"
#include "../runtime/core/plan_abi.h" /* RT_CPU_PAR_MIN */

/* Whether a step over `work` elements runs its outer loops on OpenMP's threads: above
 * RT_CPU_PAR_MIN (plan_abi.h, the eager loops' threshold too). */
bool ex_par_work(int64_t work) { return work >= RT_CPU_PAR_MIN; }

/* Marks the loop nest about to open over dims as parallel (OpenMP, the CPU backend's thread
 * count): the outer loops are collapsed until they have 64 iterations or only the innermost
 * is left, which stays a plain loop for the vectoriser. Every iteration of the marked loops
 * writes its own elements, each computed in the same order as on one thread, so results do not
 * depend on the thread count. */
void ex_par_pragma(Ex *x, int rank, const int64_t *dims) {
    int n = 0, k = 0;
    int64_t prod = 1;
    for (int i = 0; i < rank; i++) n += dims[i] != 1;
    for (int i = 0; i < rank && k < n - 1 && prod < 64; i++)
        if (dims[i] != 1) prod *= dims[i], k++;
    if (!n) return;
    if (k > 1) ex_line(x, "#pragma omp parallel for schedule(static) collapse(%d)", k);
    else ex_line(x, "#pragma omp parallel for schedule(static)");
}

/* Opens one `for` per axis from..from+rank of t of size other than 1 (coordinate "0" there) into
 * coords[0..rank); a symbolic axis runs to its size at run time; the outer loops are parallel
 * when `par`. Returns loops opened. */
int ex_open_loops(Ex *x, const TensorType *t, int from, int rank, char **coords, bool par) {
    int n = 0;
    if (par) ex_par_pragma(x, rank, t->dims + from);
    for (int i = 0; i < rank; i++) {
        if (t->dims[from + i] == 1 && !t->sym[from + i]) {
            coords[i] = strdup("0");
            continue;
        }
        coords[i] = ex_name(x, "c");
        if (!t->sym[from + i]) ex_range(x, coords[i], 0, t->dims[from + i] - 1);
        ex_refine_counter(x, coords[i], from + i);
        char *bound = ex_dim(x, t, from + i);
        ex_line(x, "for (%s %s = 0; %s < %s; %s++) {", x->idx, coords[i], coords[i], bound, coords[i]);
        free(bound);
        x->indent++;
        n++;
    }
    return n;
}

void ex_close_loops(Ex *x, int n) {
    while (n-- > 0) {
        x->indent--;
        ex_line(x, "}");
    }
}

/* The innermost loop under guards i.. of the version being written: an if per guard (both
 * branches), then the loop once per range, each with its tests decided. */
static void nest_versions(Ex *x, const ExNest *ns, int i) {
    if (i < ns->k) {
        bool can[2];
        for (int v = 0; v < 2; v++) x->assumed[i] = v, can[v] = ex_nest_feasible(x, ns, i);
        if (can[0] != can[1]) { /* decided by the guards before it */
            x->assumed[i] = can[1];
            return nest_versions(x, ns, i + 1);
        }
        ex_line(x, "if (%s) {", x->assume.s[i]);
        for (int v = 1; v >= 0; v--) {
            if (!v) ex_line(x, "} else {");
            x->assumed[i] = v;
            x->indent++;
            nest_versions(x, ns, i + 1);
            x->indent--;
        }
        ex_line(x, "}");
        return;
    }
    for (int r = 0; r < (ns->nr ? ns->nr : 1); r++) {
        for (int j = 0; j < ns->m; j++) ex_eval_test(x->assume.s[ns->k + j], ns->c, ns->lo[r], &x->assumed[ns->k + j]);
        /* a short loop along the contiguous axis (a row of a small image: 4 to 16 iterations)
         * gcc unrolls whole instead of vectorising it (a max pool's gradient along H: 4 floats
         * a row, 290 -> 45 us a call); `omp simd` has it run as vectors, each lane computing
         * its element as the scalar loop does (no reduction, no contraction: the same bits) */
        int64_t trip = !ns->nr ? ns->simd_n : (ns->hi[r] - ns->lo[r] + ns->step[r] - 1) / ns->step[r];
        if (ns->simd_n && trip >= NEST_SIMD_MIN && trip <= NEST_SIMD_MAX) ex_line(x, "#pragma omp simd");
        char *lo = ns->nr ? ex_const(x, ns->lo[r]) : xstrdup("0");
        char *hi = ns->nr ? ex_const(x, ns->hi[r]) : xstrdup(ns->bound);
        if (ns->nr && ns->step[r] > 1)
            ex_line(x, "for (%s %s = %s; %s < %s; %s += %lld) {", x->idx, ns->c, lo, ns->c, hi, ns->c, (long long)ns->step[r]);
        else
            ex_line(x, "for (%s %s = %s; %s < %s; %s++) {", x->idx, ns->c, lo, ns->c, hi, ns->c);
        free(lo), free(hi);
        x->indent++;
        int mark = ex_mark(x);
        /* the counter takes this class's values only; the whole range again after it (the
         * ranges noted meanwhile stay: a split written once before the loop is reused) */
        if (ns->nr) ex_range(x, ns->c, ns->lo[r], ns->hi[r] - 1);
        ns->body(x, ns->coords, ns->ctx);
        int64_t end = 0;
        for (int k = 0; k < ns->nr; k++) end = ns->hi[k] > end ? ns->hi[k] : end;
        if (ns->nr) ex_range(x, ns->c, 0, end - 1);
        ex_release(x, mark);
        x->indent--;
        ex_line(x, "}");
    }
}

/* ex_loop_nest with axis `inner` innermost (the others in order) into dst; returns the number of
 * tests met that name the innermost coordinate and outer ones together (left in the loop). */
static int nest_try(Ex *x, const TensorType *t, bool par, char **coords, LoopBody body, void *ctx, int inner, Str *dst) {
    Str *out = x->out;
    x->out = dst;
    int64_t od[IR_MAX_RANK];
    int no = 0, loops = 0;
    for (int i = 0; i < t->rank; i++)
        if (i != inner) od[no++] = t->dims[i];
    od[no++] = t->dims[inner];
    if (par) ex_par_pragma(x, no, od);
    for (int i = 0; i < t->rank; i++)
        if (i != inner) loops += ex_open_loops(x, t, i, 1, &coords[i], false);
    coords[inner] = ex_name(x, "c");
    if (!t->sym[inner]) ex_range(x, coords[inner], 0, t->dims[inner] - 1);
    ex_refine_counter(x, coords[inner], inner);
    char *bound = ex_dim(x, t, inner);
    ExNest ns = {.c = coords[inner], .bound = bound, .coords = coords, .body = body, .ctx = ctx};
    bool last = !t->sym[inner];
    for (int i = inner + 1; i < t->rank; i++) last = last && t->dims[i] == 1 && !t->sym[i];
    ns.simd_n = last ? t->dims[inner] : 0;
    Str pre = {0}, dry = {0}, vers = {0};
    x->pre = &pre, x->pre_indent = x->indent, x->inner = coords[inner], x->mixed = 0;
    for (int i = 0; i < t->rank; i++)
        if (i != inner && strcmp(coords[i], "0")) {
            ex_list_add(&x->inv, coords[i]);
            if (!t->sym[i]) ns.outer[ns.nouter] = coords[i], ns.odim[ns.nouter++] = t->dims[i];
        }
    x->out = &dry;
    nest_versions(x, &ns, 0);
    int mixed = x->mixed;
    ns.k = x->guard.n < UNSWITCH_MAX ? x->guard.n : UNSWITCH_MAX;
    for (int i = 0; i < ns.k; i++) ex_list_add(&x->assume, x->guard.s[i]);
    if (!t->sym[inner]) ex_nest_ranges(x, &ns, t->dims[inner]);
    bool again = ns.k || ns.m;
    x->out = &vers;
    if (again) nest_versions(x, &ns, 0);
    x->out = dst;
    if (pre.s) str_cat(dst, pre.s);
    if (again ? vers.s : dry.s) str_cat(dst, again ? vers.s : dry.s); /* nothing decided: the loop as first written */
    str_free(&pre), str_free(&dry), str_free(&vers);
    ex_versions_reset(x);
    x->pre = NULL, x->inner = NULL;
    free(bound);
    ex_close_loops(x, loops);
    x->out = out;
    return mixed;
}

static void nest_plain(Ex *x, const TensorType *t, bool par, char **coords, LoopBody body, void *ctx) {
    int inner = -1, n = 0;
    for (int i = 0; i < t->rank; i++)
        if (t->dims[i] != 1 || t->sym[i]) inner = i, n++;
    if (n < 2 || x->pre) {
        int loops = ex_open_loops(x, t, 0, t->rank, coords, par), m = ex_mark(x);
        body(x, coords, ctx);
        ex_release(x, m);
        ex_close_loops(x, loops);
        return;
    }
    Str a = {0};
    int indent = x->indent;
    if (nest_try(x, t, par, coords, body, ctx, inner, &a)) {
        /* tests of the innermost coordinate mixed with outer ones (an im2col through reshapes):
         * the longest static outer axis innermost instead, when that leaves none */
        int alt = -1;
        for (int i = 0; i < t->rank; i++)
            if (i != inner && !t->sym[i] && t->dims[i] >= NEST_ALT_MIN && (alt < 0 || t->dims[i] > t->dims[alt])) alt = i;
        Str b = {0};
        char *c2[IR_MAX_RANK] = {0};
        x->indent = indent;
        if (alt >= 0 && !nest_try(x, t, par, c2, body, ctx, alt, &b)) {
            str_free(&a), a = b;
            ex_free_coords(coords, t->rank);
            memcpy(coords, c2, sizeof(char *) * (size_t)t->rank);
        } else {
            str_free(&b);
            ex_free_coords(c2, t->rank);
        }
    }
    if (a.s) str_cat(x->out, a.s);
    str_free(&a);
}

/* A nest's axes each cut into sub-axes (sizes sub[a][0..nsub[a]), outermost first), and the body
 * that the nest over those sub-axes calls with the axes' own coordinates. */
typedef struct {
    int rank, nsub[IR_MAX_RANK];
    int64_t sub[IR_MAX_RANK][IR_MAX_RANK];
    LoopBody body;
    void *ctx;
} Refined;

static void refined_body(Ex *x, char **rc, void *ctx) {
    const Refined *rf = ctx;
    char *oc[IR_MAX_RANK] = {0};
    for (int a = 0, k = 0; a < rf->rank; k += rf->nsub[a++]) {
        TensorType st = {.rank = rf->nsub[a]};
        memcpy(st.dims, rf->sub[a], sizeof(int64_t) * (size_t)rf->nsub[a]);
        oc[a] = ex_linear(x, &st, rc + k);
    }
    rf->body(x, oc, rf->ctx);
    ex_free_coords(oc, rf->rank);
}

/* Cuts the sub-axis at position `axis` of the refined nest in two, the inner of size f; false
 * when the nest would have too many axes. */
static bool refine_split(Refined *rf, int axis, int64_t f) {
    int total = 0;
    for (int a = 0; a < rf->rank; a++) total += rf->nsub[a];
    if (total >= IR_MAX_RANK) return false;
    for (int a = 0, k = 0; a < rf->rank; k += rf->nsub[a++]) {
        if (axis >= k + rf->nsub[a]) continue;
        int j = axis - k;
        if (rf->sub[a][j] % f) return false;
        memmove(&rf->sub[a][j + 2], &rf->sub[a][j + 1], sizeof(int64_t) * (size_t)(rf->nsub[a] - j - 1));
        rf->sub[a][j + 1] = f, rf->sub[a][j] /= f, rf->nsub[a]++;
        return true;
    }
    return false;
}

/* The nest over t, written into x->out. When some index split in its body needs a division (a
 * reshape whose runs do not fall on the loop axes: an im2col's [16*3*12*4] read as [144, 16]),
 * the nest is written again over the common refinement of the loops and those splits (each
 * loop axis cut where a split's radix falls: 144 as 16 x 3 x 3, 16 as 4 x 4), rounds until no
 * split asks for a cut, and that version is taken when none of its splits divides any more:
 * every coordinate is then a sum of loop counters times constants, the tests of the pads and
 * concats name counters rather than a remainder of the linear index, and the innermost loop
 * runs along the contiguous axis. The same elements, each computed the same way. */
void ex_loop_nest(Ex *x, const TensorType *t, bool par, char **coords, LoopBody body, void *ctx) {
    if (x->refine || x->pre || ir_type_symbolic(t)) return nest_plain(x, t, par, coords, body, ctx);
    Refined rf = {.rank = t->rank, .body = body, .ctx = ctx};
    for (int a = 0; a < t->rank; a++) rf.nsub[a] = 1, rf.sub[a][0] = t->dims[a];
    Str *out = x->out, best = {0};
    int indent = x->indent;
    for (int round = 0; round < 8; round++) {
        ExRefine er = {0};
        Str s = {0};
        x->out = &s, x->indent = indent, x->refine = &er;
        if (round == 0) nest_plain(x, t, par, coords, body, ctx);
        else {
            TensorType rt = {.dtype = t->dtype};
            char *rc[IR_MAX_RANK] = {0};
            for (int a = 0; a < rf.rank; a++)
                for (int j = 0; j < rf.nsub[a]; j++) rt.dims[rt.rank++] = rf.sub[a][j];
            nest_plain(x, &rt, par, rc, refined_body, &rf);
            ex_free_coords(rc, rt.rank);
        }
        x->refine = NULL, x->out = out, x->indent = indent;
        for (int i = 0; i < er.n; i++) free(er.name[i]);
        if (round == 0 || !er.nfallback) str_free(&best), best = s;
        else str_free(&s);
        if (!er.nfallback || !er.nreq) break;
        /* one cut per axis a round (the smallest factor asked), from the last axis so that the
         * positions of the earlier ones hold */
        bool cut = false;
        for (int axis = IR_MAX_RANK - 1; axis >= 0; axis--) {
            int64_t f = 0;
            for (int r = 0; r < er.nreq; r++)
                if (er.req_axis[r] == axis && (!f || er.req_factor[r] < f)) f = er.req_factor[r];
            if (f) cut = refine_split(&rf, axis, f) || cut;
        }
        if (!cut) break;
    }
    if (best.s) str_cat(x->out, best.s);
    str_free(&best);
}
