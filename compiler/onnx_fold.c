/* compiler/onnx_fold.c: ONNX values known while importing: Constant, Shape (of a static shape),
 * and the integer shape arithmetic exporters build on them (Shape -> Gather -> Unsqueeze ->
 * Concat -> Reshape), folded into OxConsts so that Reshape, Slice, Squeeze and friends get the
 * static operands the IR needs. */
#include <stdlib.h>
#include <string.h>

#include "onnx_import.h"

int ox_lower_constant(Ox *x, Op op) {
    (void)op;
    if (x->node->n_attribute != 1) return ox_fail(x, "needs exactly one value attribute");
    const Onnx__AttributeProto *at = x->node->attribute[0];
    const char *nm = at->name ? at->name : "";
    OxConst *c = NULL;
    if (!strcmp(nm, "value") && at->t) {
        c = ox_tensor(x, at->t, "attribute \"value\"");
    } else if (!strcmp(nm, "value_float") || !strcmp(nm, "value_int")) {
        bool f = nm[6] == 'f';
        c = ox_const_new(f ? DT_FLOAT32 : DT_INT64, 0, NULL);
        if (f) c->v[0] = at->f;
        else c->iv[0] = at->i, c->v[0] = (double)at->i;
    } else if (!strcmp(nm, "value_floats") || !strcmp(nm, "value_ints")) {
        bool f = nm[6] == 'f';
        int64_t n = f ? (int64_t)at->n_floats : (int64_t)at->n_ints;
        if (n >= IR_MAX_DIM) return ox_fail(x, "attribute \"%s\" has too many values", nm);
        c = ox_const_new(f ? DT_FLOAT32 : DT_INT64, 1, &n);
        for (int64_t i = 0; i < n; i++)
            if (f) c->v[i] = at->floats[i];
            else c->iv[i] = at->ints[i], c->v[i] = (double)at->ints[i];
    } else {
        return ox_fail(x, "attribute \"%.40s\" is not supported (value, value_float(s), value_int(s))", nm);
    }
    return c ? ox_set_const(x, 0, c) : -1;
}

int ox_lower_shape(Ox *x, Op op) {
    (void)op;
    KNOWN("start", "end");
    bool failed = false;
    OxValue *v = ox_input(x, 0, &failed);
    if (failed) return -1;
    if (!v) return ox_fail(x, "needs input 0");
    TensorType t = ox_vtype(x, v);
    int64_t s, e;
    if (ox_attr_int(x, "start", 0, &s) || ox_attr_int(x, "end", t.rank, &e)) return -1;
    if (s < 0) s += t.rank;
    if (e < 0) e += t.rank;
    s = s < 0 ? 0 : s > t.rank ? t.rank : s;
    e = e < 0 ? 0 : e > t.rank ? t.rank : e;
    int64_t n = e > s ? e - s : 0;
    OxConst *c = ox_const_new(DT_INT64, 1, &n);
    for (int64_t i = 0; i < n; i++) c->iv[i] = t.dims[s + i], c->v[i] = (double)t.dims[s + i];
    return ox_set_const(x, 0, c);
}

/* Folds an integer op whose inputs are all known (the shape arithmetic of exported models):
 * 1 when folded, 0 when not foldable, -1 on error. */
int ox_fold(Ox *x, const char *type) {
    static const char *const foldable[] = {"Add", "Sub", "Mul", "Identity", "Cast", "Unsqueeze", "Squeeze", "Concat",
                                           "Gather", "Reshape", "Slice", NULL};
    bool ok = false;
    for (const char *const *f = foldable; *f && !ok; f++) ok = !strcmp(*f, type);
    if (!ok || ox_nin(x) < 1) return 0;
    OxConst *in[IR_MAX_INPUTS] = {0};
    for (int k = 0; k < ox_nin(x) && k < IR_MAX_INPUTS; k++) {
        bool failed = false;
        OxValue *v = ox_input(x, k, &failed);
        if (failed) return -1;
        if (v && (!v->c || !v->c->iv || v->c->rank > 1 || v->id >= 0)) return 0;
        in[k] = v ? v->c : NULL;
    }
    if (!in[0]) return 0;
    OxConst *a = in[0], *r = NULL;
    if (!strcmp(type, "Add") || !strcmp(type, "Sub") || !strcmp(type, "Mul")) {
        OxConst *b = in[1];
        if (!b || (b->numel != a->numel && b->numel != 1 && a->numel != 1)) return 0;
        OxConst *big = a->numel >= b->numel ? a : b;
        r = ox_const_new(DT_INT64, big->rank, big->dims);
        for (int64_t i = 0; i < r->numel; i++) {
            int64_t p = a->iv[a->numel == 1 ? 0 : i], q = b->iv[b->numel == 1 ? 0 : i];
            r->iv[i] = type[0] == 'A' ? p + q : type[0] == 'S' ? p - q : p * q;
        }
    } else if (!strcmp(type, "Concat")) {
        int64_t n = 0;
        for (int k = 0; k < ox_nin(x); k++) {
            if (!in[k] || in[k]->rank != 1) return 0;
            n += in[k]->numel;
        }
        r = ox_const_new(DT_INT64, 1, &n);
        for (int k = 0, o = 0; k < ox_nin(x); k++)
            for (int64_t i = 0; i < in[k]->numel; i++) r->iv[o++] = in[k]->iv[i];
    } else if (!strcmp(type, "Gather")) {
        OxConst *b = in[1];
        int64_t ax;
        if (!b || a->rank != 1 || ox_attr_int(x, "axis", 0, &ax) || ax != 0) return 0;
        r = ox_const_new(DT_INT64, b->rank, b->dims);
        for (int64_t i = 0; i < b->numel; i++) {
            int64_t k = b->iv[i] < 0 ? b->iv[i] + a->numel : b->iv[i];
            if (k < 0 || k >= a->numel) {
                ox_const_free(r);
                return ox_fail(x, "index %lld is out of range for a tensor of %lld", (long long)b->iv[i], (long long)a->numel);
            }
            r->iv[i] = a->iv[k];
        }
    } else if (!strcmp(type, "Slice")) {
        int64_t st[1], en[1], ax[1], sp[1] = {1};
        int ns, ne, na, np;
        if (a->rank != 1 || ox_static_ints(x, 1, "starts", st, 1, &ns) || ox_static_ints(x, 2, "ends", en, 1, &ne) ||
            ox_static_ints(x, 3, "axes", ax, 1, &na) || ox_static_ints(x, 4, "steps", sp, 1, &np) || ns != 1 || ne != 1)
            return x->d->nerrors ? -1 : 0;
        TensorType t = {.rank = 1, .dims = {a->numel}};
        Attrs at = {.nslice = 1, .starts = {ox_clamp_bound(st[0])}, .ends = {ox_clamp_bound(en[0])}, .steps = {ox_clamp_bound(sp[0])},
                    .has_steps = true};
        int64_t s0[1], p0[1], n0[1];
        char err[256];
        if (ir_slice_normalize(&t, &at, s0, p0, n0, err, sizeof err)) return ox_fail(x, "%s", err);
        r = ox_const_new(DT_INT64, 1, n0);
        for (int64_t i = 0; i < n0[0]; i++) r->iv[i] = a->iv[s0[0] + i * p0[0]];
    } else { /* Identity Cast Unsqueeze Squeeze Reshape: the values as they are, in a new shape */
        int64_t s[IR_MAX_RANK];
        int n = a->rank, rank = a->rank;
        memcpy(s, a->dims, sizeof s);
        TensorType t = {.dtype = DT_INT64, .rank = a->rank};
        memcpy(t.dims, a->dims, sizeof t.dims);
        if (!strcmp(type, "Cast")) {
            int64_t to;
            if (ox_attr_int(x, "to", 7, &to)) return -1;
            if (to != 7 && to != 6) return 0;
        } else if (!strcmp(type, "Unsqueeze") || !strcmp(type, "Squeeze")) {
            int64_t ax[IR_MAX_RANK];
            if (ox_static_ints(x, 1, "axes", ax, IR_MAX_RANK, &n) ||
                ox_squeeze_shape(x, type[0] == 'U', &t, ax, n, s, &rank))
                return -1;
        } else if (!strcmp(type, "Reshape")) {
            if (ox_static_ints(x, 1, "shape", s, IR_MAX_RANK, &rank) || rank < 0 || ox_reshape_target(x, &t, s, rank, false)) return -1;
            int64_t known = 1, at = -1;
            for (int i = 0; i < rank; i++)
                if (s[i] == -1) at = i;
                else known *= s[i];
            if (at >= 0) s[at] = known ? a->numel / known : 0;
        }
        r = ox_const_new(DT_INT64, rank, s);
        if (r->numel != a->numel) {
            ox_const_free(r);
            return ox_fail(x, "cannot reshape %lld values to %lld", (long long)a->numel, (long long)r->numel);
        }
        memcpy(r->iv, a->iv, (size_t)a->numel * sizeof *a->iv);
    }
    for (int64_t i = 0; i < r->numel; i++) r->v[i] = (double)r->iv[i];
    if (ox_only_first_output(x)) {
        ox_const_free(r);
        return -1;
    }
    return ox_set_const(x, 0, r) ? -1 : 1;
}

