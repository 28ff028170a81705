/* ir/select.c: per-axis selections (php-gpu-tensors' slice() selectors and Python-style slice
 * text) into ONNX-style slice attributes plus the axes an index drops, squeeze's and unsqueeze's
 * result shapes, and NumPy's casting rules for astype. Shared by the runtime (runtime/php/cudaarray_index.c, cudaarray_ops.c) and the PHP
 * graph front-end (compiler/php_expr.c), so both read a call the same way. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

/* The messages quote the caller's text: control characters (tabs and newlines too), invisible
 * format characters and bytes that are not UTF-8 are escaped here, so every caller shows the
 * same safe message (tests/fuzz/fuzz_runtime.c checks it). */
static int fail(char *err, size_t errn, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errn, const char *fmt, ...) {
    char raw[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    ir_escape_invisible(raw, err, errn, false);
    return -1;
}

/* The next slot of a's slice lists, for axis ax (slots are given in axis order, once each). */
static int slot(Attrs *a, int ax) {
    int i = a->nslice++;
    a->naxes = a->nslice;
    a->has_axes = a->has_steps = true;
    a->axes[i] = ax;
    return i;
}

int ir_select_index(Attrs *a, const TensorType *t, int ax, int64_t k, unsigned *drop, char *err, size_t errn) {
    int64_t dim = t->dims[ax];
    if (k < -dim || k >= dim)
        return fail(err, errn, "slice: index %lld is out of range for axis %d of size %lld", (long long)k, ax,
                    (long long)dim);
    int i = slot(a, ax);
    a->starts[i] = k < 0 ? k + dim : k, a->ends[i] = a->starts[i] + 1, a->steps[i] = 1;
    *drop |= 1u << ax;
    return 0;
}

int ir_select_range(Attrs *a, const TensorType *t, int ax, const int64_t *start, const int64_t *end, const int64_t *step,
                    char *err, size_t errn) {
    int64_t s = step ? *step : 1;
    if (s == 0) return fail(err, errn, "slice: step is 0 on axis %d", ax);
    int i = slot(a, ax);
    a->steps[i] = s;
    a->starts[i] = start ? *start : s > 0 ? 0 : INT64_MAX;
    a->ends[i] = end ? *end : s > 0 ? INT64_MAX : INT64_MIN;
    /* Where Python and ONNX differ: a start before the first element with a negative step.
     * Python clamps it to -1, so nothing is selected (np.arange(3)[-4::-1] is empty); ONNX
     * clamps it to 0 (one element). [0:0] is empty in both (tests/fuzz/fuzz_runtime.c found it). */
    if (s < 0 && start && *start < -t->dims[ax]) a->starts[i] = a->ends[i] = 0;
    return 0;
}

/* ---- slice text ---------------------------------------------------------------------------- */

static bool blank(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t') return false;
    return true;
}

/* Parses a decimal integer field (surrounding blanks allowed); false if it is not one. */
static bool parse_int(const char *s, size_t n, int64_t *out) {
    char buf[32];
    while (n && (*s == ' ' || *s == '\t')) s++, n--;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
    if (n == 0 || n >= sizeof buf) return false;
    memcpy(buf, s, n);
    buf[n] = 0;
    for (size_t i = 0; i < n; i++)
        if (!((buf[i] >= '0' && buf[i] <= '9') || (i == 0 && (buf[i] == '-' || buf[i] == '+')))) return false;
    errno = 0;
    char *end;
    long long v = strtoll(buf, &end, 10);
    if (errno || *end || end == buf) return false;
    *out = v;
    return true;
}

/* One component ("1:3", "::-1", "2", blanks trimmed) for axis ax; spec is the whole text, for
 * messages. */
static int component(const char *spec, const char *s, size_t n, const TensorType *t, int ax, Attrs *a,
                     unsigned *drop, char *err, size_t errn) {
    const char *colon1 = memchr(s, ':', n);
    if (!colon1) { /* an index: selects one element and drops the axis */
        int64_t k;
        if (!parse_int(s, n, &k)) return fail(err, errn, "slice: \"%.*s\" is not an index in \"%s\"", (int)n, s, spec);
        return ir_select_index(a, t, ax, k, drop, err, errn);
    }
    const char *f[3] = {s, colon1 + 1, NULL};
    size_t fl[3] = {(size_t)(colon1 - s), 0, 0};
    const char *rest = colon1 + 1, *end = s + n;
    const char *colon2 = memchr(rest, ':', (size_t)(end - rest));
    if (colon2) {
        fl[1] = (size_t)(colon2 - rest);
        f[2] = colon2 + 1;
        fl[2] = (size_t)(end - f[2]);
        if (memchr(f[2], ':', fl[2]))
            return fail(err, errn, "slice: \"%.*s\" has more than two ':' in \"%s\"", (int)n, s, spec);
    } else {
        fl[1] = (size_t)(end - rest);
    }
    int64_t v[3];
    const int64_t *given[3] = {NULL, NULL, NULL};
    for (int k = 0; k < 3; k++) {
        if (!f[k] || blank(f[k], fl[k])) continue;
        if (!parse_int(f[k], fl[k], &v[k]))
            return fail(err, errn, "slice: \"%.*s\" is not an integer in \"%s\"", (int)fl[k], f[k], spec);
        given[k] = &v[k];
    }
    if (given[2] && v[2] == 0) return fail(err, errn, "slice: step is 0 on axis %d in \"%s\"", ax, spec);
    return ir_select_range(a, t, ax, given[0], given[1], given[2], err, errn);
}

int ir_select_text(const char *spec, size_t len, int axis, const TensorType *t, Attrs *a, unsigned *drop, char *err,
                   size_t errn) {
    const char *comp[IR_MAX_RANK + 2];
    size_t clen[IR_MAX_RANK + 2];
    int n = 0, ellipsis = -1;
    if (strlen(spec) != len) return fail(err, errn, "slice: the spec contains a NUL byte");
    if (axis >= 0) { /* one axis's selector: one component, no ',' or "..." */
        while (len && (*spec == ' ' || *spec == '\t')) spec++, len--;
        while (len && (spec[len - 1] == ' ' || spec[len - 1] == '\t')) len--;
        if (len == 0 || memchr(spec, ',', len) || (len == 3 && !memcmp(spec, "...", 3)))
            return fail(err, errn, "slice: selector %d \"%.*s\" must select one axis (\"1:3\", \"::2\", \"-1\"); "
                        "a spec for several axes is the only argument", axis + 1, (int)len, spec);
        char whole[64];
        snprintf(whole, sizeof whole, "%.*s", (int)len, spec);
        return component(whole, spec, len, t, axis, a, drop, err, errn);
    }
    if (!blank(spec, len)) {
        const char *p = spec, *end = spec + len;
        for (;;) {
            const char *c = memchr(p, ',', (size_t)(end - p));
            const char *e = c ? c : end;
            if (n == IR_MAX_RANK + 1)
                return fail(err, errn, "slice: too many indices for rank %d in \"%s\"", t->rank, spec);
            comp[n] = p, clen[n] = (size_t)(e - p);
            while (clen[n] && (*comp[n] == ' ' || *comp[n] == '\t')) comp[n]++, clen[n]--;
            while (clen[n] && (comp[n][clen[n] - 1] == ' ' || comp[n][clen[n] - 1] == '\t')) clen[n]--;
            if (clen[n] == 0) return fail(err, errn, "slice: empty index %d in \"%s\"", n, spec);
            if (clen[n] == 3 && !memcmp(comp[n], "...", 3)) {
                if (ellipsis >= 0) return fail(err, errn, "slice: more than one \"...\" in \"%s\"", spec);
                ellipsis = n;
            }
            n++;
            if (!c) break;
            p = c + 1;
        }
    }
    int nidx = n - (ellipsis >= 0);
    if (nidx > t->rank) return fail(err, errn, "slice: %d indices for rank %d in \"%s\"", nidx, t->rank, spec);
    a->has_axes = a->has_steps = true;
    for (int i = 0; i < n; i++) {
        if (i == ellipsis) continue;
        int ax = ellipsis >= 0 && i > ellipsis ? t->rank - (n - i) : i;
        if (component(spec, comp[i], clen[i], t, ax, a, drop, err, errn)) return -1;
    }
    return 0;
}

/* ---- casting ------------------------------------------------------------------------------- */

static const char *const castings[] = {[IR_CAST_NO] = "no", [IR_CAST_EQUIV] = "equiv", [IR_CAST_SAFE] = "safe",
                                       [IR_CAST_SAME_KIND] = "same_kind", [IR_CAST_UNSAFE] = "unsafe"};

int ir_casting_from_name(const char *s, IrCasting *out) {
    for (int i = 0; i <= IR_CAST_UNSAFE; i++)
        if (!strcmp(s, castings[i])) return *out = (IrCasting)i, 0;
    return -1;
}

const char *ir_casting_name(IrCasting c) { return (unsigned)c <= IR_CAST_UNSAFE ? castings[c] : "?"; }

/* ---- squeeze and unsqueeze ----------------------------------------------------------------- */

/* Both are reshapes; the runtime's methods and the PHP front-end compute the target shape here
 * so that a graph and an eager call accept and refuse the same axes with the same words. */
int ir_squeeze_shape(int rank, const int64_t *dims, const int64_t *axes, int naxes, int64_t *out, char *err,
                     size_t errn) {
    unsigned drop = 0;
    for (int i = 0; i < naxes; i++) {
        int64_t ax = axes[i];
        if (ax < -rank || ax >= rank) return fail(err, errn, "axis %lld is out of range for rank %d", (long long)ax, rank);
        if (ax < 0) ax += rank;
        if (dims[ax] != 1)
            return fail(err, errn, "axis %lld has size %lld, not 1", (long long)ax, (long long)dims[ax]);
        drop |= 1u << ax;
    }
    if (!axes)
        for (int i = 0; i < rank; i++)
            if (dims[i] == 1) drop |= 1u << i;
    int n = 0;
    for (int i = 0; i < rank; i++)
        if (!(drop & (1u << i))) out[n++] = dims[i];
    return n;
}

int ir_unsqueeze_shape(int rank, const int64_t *dims, int64_t axis, int64_t *out, char *err, size_t errn) {
    if (axis < -(int64_t)rank - 1 || axis > rank)
        return fail(err, errn, "axis %lld is out of range for rank %d", (long long)axis, rank);
    if (rank == IR_MAX_RANK) return fail(err, errn, "rank %d exceeds the limit of %d", rank + 1, IR_MAX_RANK);
    if (axis < 0) axis += rank + 1;
    for (int i = 0, j = 0; i <= rank; i++) out[i] = i == axis ? 1 : dims[j++];
    return rank + 1;
}

/* ---- casting ------------------------------------------------------------------------------- */

/* NumPy's kind order (b < u < i < f) decides same_kind: a safe cast, or one to a kind not
 * below (uint8 to int8 is same_kind, int8 to uint8 is not). */
static int kind(DType t) {
    return t == DT_BOOL ? 0 : ir_dtype_is_unsigned(t) ? 1 : ir_dtype_is_float(t) ? 3 : 2;
}

/* NumPy's safe casts (np.can_cast(from, to, 'safe')): every value of `from` fits in `to`.
 * bool to anything; within a kind to a size not smaller (but bfloat16 and float16 not to each
 * other: neither holds the other); unsigned to a wider signed type; signed never to unsigned; an
 * integer to a float at least twice its size (8-bit ones to the 2-byte floats, up to 16 bits to
 * float32), to float64 any (NumPy counts int64 and uint64 as safe there). */
static bool safe_cast(DType from, DType to) {
    int kf = kind(from), kt = kind(to);
    size_t sf = ir_dtype_size(from), st = ir_dtype_size(to);
    if (kf == 0) return true;
    if (kt == 0 || kf > kt) return false;
    if (kf == kt) return st > sf || (st == sf && !ir_dtype_is_half(to));
    if (kt == 2) return st > sf;     /* unsigned to signed */
    return st == 8 || 2 * sf <= st;  /* integer to float */
}

bool ir_can_cast(DType from, DType to, IrCasting c) {
    if (from == to || c == IR_CAST_UNSAFE) return true;
    if (c == IR_CAST_NO || c == IR_CAST_EQUIV) return false;
    if (safe_cast(from, to)) return true;
    return c == IR_CAST_SAME_KIND && kind(from) <= kind(to);
}
