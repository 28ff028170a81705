/* compiler/php_slice.c: ->slice() in a graph function, read as the runtime reads it
 * (runtime/php/cudaarray_index.c): per-axis selectors (ints, null, 'a:b:c' strings) or the ONNX
 * form with named starts/ends/steps/axes, into one slice node (ir/select.c does the index math
 * for both). */
#include <math.h>
#include <string.h>

#include "php_parse.h"

/* ->slice(starts: [...], ends: [...], steps: [...], axes: [...]): the ONNX form, as attributes. */
static int slice_onnx(P *p, const PhpTok *at, const char *fname, Arg *args, int nargs, Attrs *a) {
    static const char *const params[] = {"starts", "ends", "steps", "axes", NULL};
    const int64_t big = (int64_t)1 << 53;
    Arg *s[4];
    int64_t tmp[IR_MAX_RANK];
    int ne = 0, ns = 0, cnt = 0;
    if (php_bind(p, at, fname, params, 2, args, nargs, s) ||
        php_arg_ints(p, fname, "starts", s[0], 0, -big, big, a->starts, &a->nslice) ||
        php_arg_ints(p, fname, "ends", s[1], 0, -big, big, a->ends, &ne))
        return -1;
    if (ne != a->nslice) return php_perr(p, s[1]->at, "%s: $starts has %d entries but $ends has %d", fname, a->nslice, ne);
    if (s[2] && !(s[2]->lit && s[2]->lit->k == L_NULL)) {
        if (php_arg_ints(p, fname, "steps", s[2], 0, -big, big, a->steps, &ns)) return -1;
        if (ns != a->nslice) return php_perr(p, s[2]->at, "%s: $starts has %d entries but $steps has %d", fname, a->nslice, ns);
        a->has_steps = true;
    }
    if (s[3] && !(s[3]->lit && s[3]->lit->k == L_NULL)) {
        if (php_arg_ints(p, fname, "axes", s[3], 0, -IR_MAX_RANK, IR_MAX_RANK - 1, tmp, &cnt)) return -1;
        a->has_axes = true, a->naxes = cnt;
        for (int i = 0; i < cnt; i++) a->axes[i] = (int)tmp[i];
    }
    return 0;
}

/* Positional selector i of ->slice() for axis i, as the runtime reads it (cudaarray_index.c):
 * null, an int (an index: drops the axis), [start, end(, step)] with null for a default, or
 * Python-style text (the whole spec when it is the only selector). */
static int slice_selector(P *p, const char *fname, const Arg *g, int i, int n, const TensorType *t, Attrs *a,
                          unsigned *drop) {
    const int64_t big = (int64_t)1 << 53;
    char err[256];
    int rc = 0;
    if (g->lit && g->lit->k == L_NULL) return 0;
    if (!g->lit && !g->v.is_node) {
        double v = g->v.num;
        if (v != floor(v) || fabs(v) > (double)big)
            return php_perr(p, g->at, "%s: selector %d must be an integer index, got %g", fname, i + 1, v);
        rc = ir_select_index(a, t, i, (int64_t)v, drop, err, sizeof err);
    } else if (g->lit && g->lit->k == L_STR) {
        rc = ir_select_text(g->lit->s, strlen(g->lit->s), n == 1 ? -1 : i, t, a, drop, err, sizeof err);
    } else if (g->lit && g->lit->k == L_LIST) {
        const Lit *l = g->lit;
        int64_t v[3];
        const int64_t *given[3] = {NULL, NULL, NULL};
        if (l->n != 2 && l->n != 3)
            return php_perr(p, g->at, "%s: selector %d must be [start, end] or [start, end, step], got %d entries", fname,
                            i + 1, l->n);
        for (int k = 0; k < l->n; k++) {
            const Lit *e = l->items[k];
            if (l->keys[k]) return php_perr(p, l->keys[k], "%s: selector %d must be a plain list, without keys", fname, i + 1);
            if (e->k == L_NULL) continue;
            if (e->k != L_NUM || !e->is_int || fabs(e->num) > (double)big)
                return php_perr(p, e->at, "%s: selector %d[%d] must be null or an integer from %lld to %lld", fname, i + 1,
                                k, (long long)-big, (long long)big);
            v[k] = (int64_t)e->num, given[k] = &v[k];
        }
        rc = ir_select_range(a, t, i, given[0], given[1], given[2], err, sizeof err);
    } else {
        return php_perr(p, g->at, "%s: selector %d must be an int, null, a string or a list [start, end(, step)], got %s",
                        fname, i + 1, g->lit ? php_lit_kind(g->lit) : "a CudaArray");
    }
    return rc ? php_perr(p, g->at, "%s", err) : 0;
}

/* self->slice(...): per-axis selectors (positional) or the ONNX form (named only); a slice node,
 * then a reshape without the axes an index selected, as the runtime traces it. */
int php_slice_call(P *p, const PhpTok *at, const char *fname, Arg *args, int nargs, const Val *self, Val *out) {
    Attrs a = {0};
    unsigned drop = 0;
    int npos = 0;
    while (npos < nargs && !args[npos].name) npos++;
    if (npos < nargs) {
        if (npos)
            return php_perr(p, args[npos].name, "%s: pass either per-axis selectors (positional) or the named lists "
                                                "starts:, ends:, steps:, axes:, not both", fname);
        if (slice_onnx(p, at, fname, args, nargs, &a)) return -1;
    } else {
        TensorType t;
        if (php_node_type(p, self->id, &t)) return -1;
        if (nargs > t.rank && !(nargs == 1 && args[0].lit && args[0].lit->k == L_STR)) return php_perr(p, args[t.rank].at, "slice: %d selectors for a rank-%d array", nargs, t.rank);
        for (int i = 0; i < nargs; i++)
            if (slice_selector(p, fname, &args[i], i, nargs, &t, &a, &drop)) return -1;
    }
    if (php_apply(p, at, OP_SLICE, self, 1, out)) return -1;
    p->g->nodes[out->id].attrs = a;
    if (!drop) return 0;
    TensorType r;
    Val sliced = *out;
    if (php_node_type(p, sliced.id, &r) || php_apply(p, at, OP_RESHAPE, &sliced, 1, out)) return -1;
    Attrs ra = {0};
    for (int i = 0; i < r.rank; i++)
        if (!(drop & (1u << i))) ra.shape[ra.nshape++] = r.dims[i];
    p->g->nodes[out->id].attrs = ra;
    return 0;
}
