/* runtime/php/cudaarray_print.c: what `echo $t` and string casts show of a CudaArray: NumPy's
 * repr (nested brackets, one common number format right-aligned, rows on their own lines, big
 * arrays elided to their first and last three along each long axis) followed by the shape, the
 * dtype and the device. Only the elements shown are read from the device. */
#include "php_gtc.h"

#include <math.h>

#include "zend_smart_str.h"

#define PRINT_THRESHOLD 1000 /* NumPy's: more elements than this are summarised */
#define PRINT_EDGE 3         /* elements kept at each end of a summarised axis */

/* The elements shown, in order, as zvals (one per leaf, elisions marked by IS_UNDEF). */
typedef struct {
    zval *v;
    size_t n, cap;
} Shown;

static void shown_push(Shown *s, zval *z) {
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 64;
        s->v = erealloc(s->v, s->cap * sizeof *s->v);
    }
    if (z) ZVAL_COPY_VALUE(&s->v[s->n], z);
    else ZVAL_UNDEF(&s->v[s->n]);
    s->n++;
}

/* Positions of axis `len` shown: all of it, or the first and last PRINT_EDGE around -1. */
static int positions(int64_t len, bool summary, int64_t *pos) {
    if (!summary || len <= 2 * PRINT_EDGE) {
        for (int64_t i = 0; i < len; i++) pos[i] = i;
        return (int)len;
    }
    int k = 0;
    for (int i = 0; i < PRINT_EDGE; i++) pos[k++] = i;
    pos[k++] = -1;
    for (int i = PRINT_EDGE; i > 0; i--) pos[k++] = len - i;
    return k;
}

/* Collects the shown elements of t (a view of rank r) depth first: a last-axis row is read in
 * one piece (at most PRINT_THRESHOLD values, or the 2 * PRINT_EDGE of a summarised row). */
static bool collect(RtTensor *t, bool summary, Shown *s) {
    if (t->rank == 0) {
        zval z;
        if (!php_gtc_to_php(t, &z)) return false;
        shown_push(s, &z);
        return true;
    }
    /* room for what positions() writes: the whole axis unless it is summarised (an axis of 8 to
     * 1000 elements in an array that is not overflowed a 7-slot buffer; tests/fuzz/php_api.sh) */
    int64_t len = t->shape[0];
    size_t cap = summary && len > 2 * PRINT_EDGE ? 2 * PRINT_EDGE + 1 : (size_t)len + 1;
    int64_t *pos = emalloc(cap * sizeof *pos);
    int np = positions(len, summary, pos);
    bool ok = true;
    for (int i = 0; i < np && ok; i++) {
        if (pos[i] < 0) {
            shown_push(s, NULL);
            continue;
        }
        RtTensor row = *t; /* a view of index pos[i] along axis 0, borrowing t's storage */
        row.rank = t->rank - 1;
        row.offset = t->offset + pos[i] * t->strides[0];
        memmove(row.shape, t->shape + 1, (size_t)row.rank * sizeof *row.shape);
        memmove(row.strides, t->strides + 1, (size_t)row.rank * sizeof *row.strides);
        ok = collect(&row, summary, s);
    }
    efree(pos);
    return ok;
}

/* The text of a finite float with at most 8 significant digits, trailing zeros trimmed but the
 * point kept ("1.", "0.33333334", "1234.5"); sci: as a mantissa and a two-digit exponent
 * ("1.5e-06"). NumPy's "maxprec" float mode. */
static void float_text(double d, bool sci, char *buf, size_t n) {
    char m[64];
    int e = 0, p = 7;
    if (sci && d != 0) e = (int)floor(log10(fabs(d)));
    else if (d != 0) p = 7 - (int)floor(log10(fabs(d)));
    if (p < 0) p = 0;
    if (p > 16) p = 16;
    for (;;) {
        snprintf(m, sizeof m, "%.*f", p, sci ? d / pow(10, e) : d);
        if (!sci || fabs(atof(m)) < 10) break;
        e++; /* 9.99999999 rounded up to 10.0000000: one more power of ten */
    }
    char *dot = strchr(m, '.');
    if (!dot) {
        size_t l = strlen(m);
        m[l] = '.', m[l + 1] = 0;
    } else {
        char *end = m + strlen(m) - 1;
        while (end > dot && *end == '0') *end-- = 0;
    }
    if (sci) snprintf(buf, n, "%se%c%02d", m, e < 0 ? '-' : '+', e < 0 ? -e : e);
    else snprintf(buf, n, "%s", m);
}

/* NumPy's choice between positional and scientific notation for the shown floats: scientific
 * when the largest nonzero |x| is 1e8 or more, or the smallest is below 1e-4, or their ratio
 * above 1e3. */
static bool floats_scientific(const Shown *s) {
    double mx = 0, mn = INFINITY;
    for (size_t i = 0; i < s->n; i++) {
        if (Z_TYPE(s->v[i]) != IS_DOUBLE) continue;
        double a = fabs(Z_DVAL(s->v[i]));
        if (!isfinite(a) || a == 0) continue;
        if (a > mx) mx = a;
        if (a < mn) mn = a;
    }
    return mx > 0 && (mx >= 1e8 || mn < 1e-4 || mx / mn > 1e3);
}

/* One element as NumPy writes it: floats as float_text, ints as they are, bools as True/False. */
static void element_text(const zval *z, bool sci, char *buf, size_t n) {
    switch (Z_TYPE_P(z)) {
    case IS_TRUE: snprintf(buf, n, "True"); return;
    case IS_FALSE: snprintf(buf, n, "False"); return;
    case IS_LONG: snprintf(buf, n, ZEND_LONG_FMT, Z_LVAL_P(z)); return;
    case IS_DOUBLE: {
        double d = Z_DVAL_P(z);
        if (isnan(d)) snprintf(buf, n, "nan");
        else if (isinf(d)) snprintf(buf, n, d < 0 ? "-inf" : "inf");
        else float_text(d, sci, buf, n);
        return;
    }
    default: snprintf(buf, n, "?"); return;
    }
}

/* Lines floats up as NumPy does: on their points, each padded left to the widest integer part
 * and right to the widest fraction (with spaces; in scientific notation the mantissas with
 * zeros, "1.000e+00"); nan and inf right-aligned to the others' width. */
static void align_points(char (*txt)[48], const Shown *s, bool sci) {
    int left = 0, right = 0, width = 0;
    for (size_t i = 0; i < s->n; i++) {
        const char *dot = strchr(txt[i], '.');
        if (Z_TYPE(s->v[i]) != IS_DOUBLE || !dot) continue;
        const char *end = sci ? strchr(dot, 'e') : dot + strlen(dot);
        int l = (int)(dot - txt[i]), r = (int)(end - dot);
        if (l > left) left = l;
        if (r > right) right = r;
    }
    for (size_t i = 0; i < s->n; i++) {
        const char *dot = strchr(txt[i], '.');
        if (Z_TYPE(s->v[i]) != IS_DOUBLE || !dot) continue;
        const char *end = sci ? strchr(dot, 'e') : dot + strlen(dot);
        int l = (int)(dot - txt[i]), r = (int)(end - dot);
        char tmp[48];
        if (sci)
            snprintf(tmp, sizeof tmp, "%*s%.*s%.*s%s", left - l, "", (int)(end - txt[i]), txt[i], right - r,
                     "0000000000000000", end);
        else
            snprintf(tmp, sizeof tmp, "%*s%s%*s", left - l, "", txt[i], right - r, "");
        memcpy(txt[i], tmp, sizeof tmp);
        if ((int)strlen(tmp) > width) width = (int)strlen(tmp);
    }
    for (size_t i = 0; i < s->n; i++) { /* nan, inf */
        if (Z_TYPE(s->v[i]) != IS_DOUBLE || strchr(txt[i], '.')) continue;
        char tmp[48];
        snprintf(tmp, sizeof tmp, "%*s", width, txt[i]);
        memcpy(txt[i], tmp, sizeof tmp);
    }
}

/* Writes the nested brackets of shape[depth..] from s->v[*k], NumPy's layout: elements of the
 * last axis on one line separated by ", ", deeper rows on new lines indented under the first
 * bracket, one blank line more between blocks of rank 3 and up. */
static void emit(smart_str *out, const RtTensor *t, int depth, bool summary, const Shown *s, size_t *k,
                 char (*txt)[48], int width, int indent) {
    if (depth == t->rank) {
        smart_str_append_printf(out, "%*s", width, txt[*k]);
        (*k)++;
        return;
    }
    int64_t pos[2 * PRINT_EDGE + 1];
    int64_t len = t->shape[depth];
    int np = !summary || len <= 2 * PRINT_EDGE ? (int)len : 2 * PRINT_EDGE + 1;
    smart_str_appendc(out, '[');
    for (int i = 0; i < np; i++) {
        if (i) {
            smart_str_appendc(out, ',');
            if (depth == t->rank - 1) {
                smart_str_appendc(out, ' ');
            } else {
                for (int b = 0; b < t->rank - depth - 1; b++) smart_str_appendc(out, '\n');
                smart_str_append_printf(out, "%*s", indent + depth + 1, "");
            }
        }
        bool gap = summary && len > 2 * PRINT_EDGE && i == PRINT_EDGE;
        if (gap) {
            smart_str_appends(out, "...");
            (*k)++;
            continue;
        }
        emit(out, t, depth + 1, summary, s, k, txt, width, indent);
    }
    (void)pos;
    smart_str_appendc(out, ']');
}

zend_string *php_gtc_array_text(RtTensor *t) {
    bool summary = rt_numel(t) > PRINT_THRESHOLD;
    Shown s = {0};
    smart_str out = {0};
    char devbuf[32], shape[256];
    TensorType tt = rt_type(t);
    const char *dev = php_gtc_device_name(t, devbuf, sizeof devbuf);
    ir_shape_str(&tt, shape, sizeof shape);
    if (!collect(t, summary, &s)) {
        for (size_t i = 0; i < s.n; i++) zval_ptr_dtor(&s.v[i]);
        if (s.v) efree(s.v);
        return NULL;
    }
    bool sci = floats_scientific(&s);
    char (*txt)[48] = ecalloc(s.n ? s.n : 1, sizeof *txt);
    for (size_t i = 0; i < s.n; i++)
        if (Z_TYPE(s.v[i]) != IS_UNDEF) element_text(&s.v[i], sci, txt[i], sizeof txt[i]);
    align_points(txt, &s, sci);
    int width = 0;
    for (size_t i = 0; i < s.n; i++) {
        int w = (int)strlen(txt[i]);
        if (w > width) width = w;
    }
    smart_str_appends(&out, "CudaArray(");
    size_t k = 0;
    if (t->rank == 0) smart_str_appends(&out, txt[0]);
    else emit(&out, t, 0, summary, &s, &k, txt, width, (int)strlen("CudaArray("));
    smart_str_append_printf(&out, ", shape=%s, dtype=%s, device=%s)", shape, ir_dtype_name(t->dtype), dev);
    for (size_t i = 0; i < s.n; i++) zval_ptr_dtor(&s.v[i]);
    if (s.v) efree(s.v);
    efree(txt);
    smart_str_0(&out);
    return out.s;
}

ZEND_METHOD(Cuda_CudaArray, __toString) {
    ZEND_PARSE_PARAMETERS_NONE();
    GTC_THIS_TENSOR(t);
    if (php_gtc_is_placeholder(t) && php_gtc_trace_reads() && !(t = php_gtc_data(t))) RETURN_THROWS();
    if (php_gtc_is_placeholder(t)) { /* traced by Fusion::compile: no values to show */
        char devbuf[32], shape[256];
        TensorType tt = rt_type(t);
        const char *dev = php_gtc_device_name(t, devbuf, sizeof devbuf);
        ir_shape_str(&tt, shape, sizeof shape);
        RETURN_STR(zend_strpprintf(0, "CudaArray(<traced>, shape=%s, dtype=%s, device=%s)", shape,
                                   ir_dtype_name(t->dtype), dev));
    }
    zend_string *s = php_gtc_array_text(t);
    if (!s) RETURN_THROWS();
    RETURN_STR(s);
}

/* count($t): the length of the first axis, as PHP's count() of a list of rows; a rank-0 array
 * has none (NumPy: "len() of unsized object"). */
ZEND_METHOD(Cuda_CudaArray, count) {
    ZEND_PARSE_PARAMETERS_NONE();
    GTC_THIS_TENSOR(t);
    if (t->rank == 0) {
        php_gtc_throw(RT_EINVAL, "count() of a rank-0 Cuda\\CudaArray: it has no first axis (item() reads its value)");
        RETURN_THROWS();
    }
    RETURN_LONG((zend_long)t->shape[0]);
}
