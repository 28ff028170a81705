/* runtime/core/npy.c: the .npy format (NumPy's NEP 1), versions 1.0, 2.0 and 3.0 read,
 * 1.0 (or 2.0 for huge headers) written; little-endian, C order, the five gtc dtypes. Every
 * field of an untrusted file is checked before it is used. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

static const struct { DType dt; const char *descr; } descrs[] = {
    {DT_FLOAT32, "<f4"}, {DT_FLOAT64, "<f8"}, {DT_INT32, "<i4"}, {DT_INT64, "<i8"}, {DT_BOOL, "|b1"},
    {DT_INT8, "|i1"},    {DT_UINT8, "|u1"},   {DT_INT16, "<i2"}, {DT_UINT16, "<u2"}, {DT_UINT32, "<u4"},
    {DT_UINT64, "<u8"},
};

#define NPY_FAIL(...) (rt_error(RT_EINVAL, "npy: " __VA_ARGS__), (RtTensor *)NULL)

static const char *skip_ws(const char *p, const char *end) {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
    return p;
}

/* Finds 'key' : in the header dict and returns the position after the colon. */
static const char *find_key(const char *h, const char *end, const char *key) {
    size_t n = strlen(key);
    for (const char *p = h; p + n + 2 <= end; p++) {
        if ((*p == '\'' || *p == '"') && p[n + 1] == *p && memcmp(p + 1, key, n) == 0) {
            const char *q = skip_ws(p + n + 2, end);
            if (q < end && *q == ':') return skip_ws(q + 1, end);
        }
    }
    return NULL;
}

RtTensor *rt_npy_read(const RtBackend *b, const void *buf, size_t len) {
    const unsigned char *u = buf;
    if (len < 10 || memcmp(u, "\x93NUMPY", 6) != 0) return NPY_FAIL("not an .npy file (bad magic)");
    unsigned major = u[6];
    size_t hlen, hoff;
    if (major == 1) hlen = (size_t)u[8] | (size_t)u[9] << 8, hoff = 10;
    else if (major == 2 || major == 3) {
        if (len < 12) return NPY_FAIL("truncated header");
        hlen = (size_t)u[8] | (size_t)u[9] << 8 | (size_t)u[10] << 16 | (size_t)u[11] << 24;
        hoff = 12;
    } else
        return NPY_FAIL("unsupported format version %u.%u", major, u[7]);
    if (hlen > len - hoff) return NPY_FAIL("header length %zu runs past the end of the file", hlen);
    const char *h = (const char *)u + hoff, *hend = h + hlen;
    for (const char *p = h; p < hend; p++)
        if (*p == 0) return NPY_FAIL("header contains a NUL byte");

    const char *d = find_key(h, hend, "descr");
    if (!d || d >= hend || (*d != '\'' && *d != '"')) return NPY_FAIL("header has no 'descr' string");
    const char *dq = memchr(d + 1, *d, (size_t)(hend - d - 1));
    if (!dq) return NPY_FAIL("unterminated 'descr'");
    size_t dn = (size_t)(dq - d - 1);
    DType dt = DT_COUNT;
    if (dn == 3 && (d[1] == '<' || d[1] == '|' || d[1] == '='))
        for (size_t i = 0; i < sizeof descrs / sizeof *descrs; i++)
            if (memcmp(d + 2, descrs[i].descr + 1, 2) == 0) dt = descrs[i].dt;
    if (dt == DT_COUNT) {
        if (dn == 3 && d[1] == '>') return NPY_FAIL("big-endian data ('%.3s') is not supported", d + 1);
        return NPY_FAIL("unsupported dtype '%.*s' (expected <f4, <f8, |i1, <i2, <i4, <i8, |u1, <u2, <u4, <u8 or |b1)", (int)(dn > 32 ? 32 : dn), d + 1);
    }
    const char *fo = find_key(h, hend, "fortran_order");
    if (!fo) return NPY_FAIL("header has no 'fortran_order'");
    if (hend - fo >= 4 && memcmp(fo, "True", 4) == 0) return NPY_FAIL("Fortran-order arrays are not supported");
    if (!(hend - fo >= 5 && memcmp(fo, "False", 5) == 0)) return NPY_FAIL("'fortran_order' must be True or False");
    const char *s = find_key(h, hend, "shape");
    if (!s || s >= hend || *s != '(') return NPY_FAIL("header has no 'shape' tuple");
    int64_t shape[IR_MAX_RANK];
    int rank = 0;
    s = skip_ws(s + 1, hend);
    while (s < hend && *s != ')') {
        if (rank >= IR_MAX_RANK) return NPY_FAIL("rank exceeds %d", IR_MAX_RANK);
        int64_t v = 0;
        if (s >= hend || *s < '0' || *s > '9') return NPY_FAIL("bad 'shape' tuple");
        while (s < hend && *s >= '0' && *s <= '9') {
            if (v > (IR_MAX_DIM - 1 - (*s - '0')) / 10) return NPY_FAIL("dimension too large");
            v = v * 10 + (*s++ - '0');
        }
        if (s < hend && *s == 'L') s++;
        shape[rank++] = v;
        s = skip_ws(s, hend);
        if (s < hend && *s == ',') s = skip_ws(s + 1, hend);
        else if (s < hend && *s != ')') return NPY_FAIL("bad 'shape' tuple");
    }
    if (s >= hend) return NPY_FAIL("unterminated 'shape' tuple");
    TensorType tt = {.dtype = dt, .rank = rank};
    memcpy(tt.dims, shape, sizeof shape);
    char err[256];
    if (ir_check_type(&tt, err, sizeof err)) return NPY_FAIL("%s", err);
    size_t need = (size_t)ir_numel(&tt) * ir_dtype_size(dt), have = len - hoff - hlen;
    if (have < need) return NPY_FAIL("data is truncated: %zu bytes for %zu expected", have, need);
    if (have > need) return NPY_FAIL("%zu bytes of trailing data after the array", have - need);
    const unsigned char *data = u + hoff + hlen;
    if (dt == DT_BOOL)
        for (size_t i = 0; i < need; i++)
            if (data[i] > 1) return NPY_FAIL("bool data holds a byte other than 0 or 1");
    return rt_from_host(b, dt, rank, shape, data);
}

int rt_npy_write(const RtTensor *t, char **out, size_t *len) {
    const char *descr = NULL;
    for (size_t i = 0; i < sizeof descrs / sizeof *descrs; i++)
        if (descrs[i].dt == t->dtype) descr = descrs[i].descr;
    if (!descr) return rt_error(RT_EINVAL, "npy: unsupported dtype");
    char dict[512];
    int k = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
    for (int i = 0; i < t->rank; i++)
        k += snprintf(dict + k, sizeof dict - (size_t)k, "%s%lld%s", i ? ", " : "",
                      (long long)t->shape[i], t->rank == 1 ? "," : "");
    k += snprintf(dict + k, sizeof dict - (size_t)k, "), }");
    size_t pre = 10, total = pre + (size_t)k + 1;
    size_t pad = (64 - total % 64) % 64;
    size_t hlen = (size_t)k + pad + 1, nbytes = rt_nbytes(t);
    char *buf = malloc(pre + hlen + nbytes);
    if (!buf) return rt_error(RT_EOOM, "out of host memory");
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (char)(hlen & 0xff), buf[9] = (char)(hlen >> 8);
    memcpy(buf + pre, dict, (size_t)k);
    memset(buf + pre + k, ' ', pad);
    buf[pre + hlen - 1] = '\n';
    if (rt_to_host(t, buf + pre + hlen)) {
        free(buf);
        return -1;
    }
    *out = buf;
    *len = pre + hlen + nbytes;
    return 0;
}
