/* ir/types.c: dtypes, tensor types, promotion and broadcasting. */
#include <stdio.h>
#include <string.h>

#include "ir.h"

static const struct {
    const char *name, *shortname;
    size_t size;
    char kind;
} dtypes[DT_COUNT] = {
#define ROW(ID, name, sh, sfx, CT, WT, size, kind) [DT_##ID] = {name, sh, size, #kind[0]},
    IR_DTYPES(ROW)
#undef ROW
};

const char *ir_dtype_name(DType t) { return (unsigned)t < DT_COUNT ? dtypes[t].name : "?"; }
const char *ir_dtype_short(DType t) { return (unsigned)t < DT_COUNT ? dtypes[t].shortname : "?"; }
size_t ir_dtype_size(DType t) { return (unsigned)t < DT_COUNT ? dtypes[t].size : 0; }
static char kind_of(DType t) { return (unsigned)t < DT_COUNT ? dtypes[t].kind : '?'; }
bool ir_dtype_is_float(DType t) { return kind_of(t) == 'F' || kind_of(t) == 'H'; }
bool ir_dtype_is_half(DType t) { return kind_of(t) == 'H'; }
bool ir_dtype_is_int(DType t) { return kind_of(t) == 'S' || kind_of(t) == 'U'; }
bool ir_dtype_is_unsigned(DType t) { return kind_of(t) == 'U'; }

/* The i-th dtype in display order (by kind: bool, signed, unsigned, the 2-byte floats, float;
 * then by size). */
DType ir_dtype_sorted(int i) {
    int n = 0;
    for (const char *kind = "BSUHF"; *kind; kind++)
        for (size_t size = 1; size <= 8; size *= 2)
            for (int k = 0; k < DT_COUNT; k++)
                if (dtypes[k].kind == *kind && dtypes[k].size == size && n++ == i) return (DType)k;
    return DT_COUNT;
}

/* "bool, int8, ..., float32 or float64" (for error messages) */
const char *ir_dtype_list(void) {
    static char buf[256];
    if (buf[0]) return buf;
    size_t k = 0;
    for (int i = 0; i < DT_COUNT && k < sizeof buf; i++)
        k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%s", i == 0 ? "" : i == DT_COUNT - 1 ? " or " : ", ",
                              ir_dtype_name(ir_dtype_sorted(i)));
    return buf;
}

int ir_dtype_from_name(const char *s, DType *out) {
    for (int i = 0; i < DT_COUNT; i++)
        if (strcmp(s, dtypes[i].name) == 0) {
            *out = (DType)i;
            return 0;
        }
    return -1;
}

int64_t ir_numel(const TensorType *t) {
    int64_t n = 1;
    for (int i = 0; i < t->rank; i++) n *= t->dims[i];
    return n;
}

char *ir_shape_str(const TensorType *t, char *buf, size_t n) {
    size_t k = 0;
    k += (size_t)snprintf(buf + k, n - k, "[");
    for (int i = 0; i < t->rank && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, "%s%s%lld", i ? "," : "", t->sym[i] ? "<=" : "", (long long)t->dims[i]);
    if (k < n) snprintf(buf + k, n - k, "]");
    return buf;
}

bool ir_shape_equal(const TensorType *a, const TensorType *b) {
    if (a->rank != b->rank) return false;
    for (int i = 0; i < a->rank; i++)
        if (a->dims[i] != b->dims[i]) return false;
    return true;
}

bool ir_type_equal(const TensorType *a, const TensorType *b) { return a->dtype == b->dtype && ir_shape_equal(a, b); }

/* The integer of `kind` ('S' or 'U') and `size` bytes. */
static DType int_of(char kind, size_t size) {
    for (int i = 0; i < DT_COUNT; i++)
        if (dtypes[i].kind == kind && dtypes[i].size == size) return (DType)i;
    return DT_FLOAT64;
}

/* Two strong dtypes, NumPy's lattice: bool < integers < floats; within one signedness the wider
 * wins; signed S with unsigned U is S when S is wider, else the signed integer twice as wide as U,
 * and float64 when U is uint64 (no integer holds both ranges). An integer with a float gives the
 * float (int64 with float32: float32, unlike NumPy's float64; int16 with float16: float16, as in
 * PyTorch). bfloat16 with float16 gives float32 (PyTorch's rule). */
static DType promote_strong(DType a, DType b) {
    char ka = kind_of(a), kb = kind_of(b);
    size_t sa = ir_dtype_size(a), sb = ir_dtype_size(b);
    if (a == b || kb == 'B') return a;
    if (ka == 'B') return b;
    bool fa = ir_dtype_is_float(a), fb = ir_dtype_is_float(b);
    if (fa || fb) {
        if (!fa) return b;
        if (!fb) return a;
        if (sa == sb) return DT_FLOAT32; /* bfloat16 with float16: neither holds the other */
        return sa > sb ? a : b;
    }
    if (ka == kb) return sa >= sb ? a : b;
    DType s = ka == 'S' ? a : b, u = ka == 'S' ? b : a;
    if (ir_dtype_size(s) > ir_dtype_size(u)) return s;
    return ir_dtype_size(u) >= 8 ? DT_FLOAT64 : int_of('S', 2 * ir_dtype_size(u));
}

/* Weak constants yield: a float constant lifts an int or bool tensor to float32; an integral
 * constant takes the tensor's dtype, except that it lifts a bool tensor to int32. Two weak
 * constants promote as strong ones (int64 and float32 are all they can be). */
DType ir_promote(DType a, bool a_weak, DType b, bool b_weak) {
    if (a_weak && !b_weak) {
        if (ir_dtype_is_float(a) && !ir_dtype_is_float(b)) return DT_FLOAT32;
        if (b == DT_BOOL && a != DT_BOOL) return DT_INT32; /* bool tensor with a number */
        return b;
    }
    if (b_weak && !a_weak) return ir_promote(b, b_weak, a, a_weak);
    return promote_strong(a, b);
}

int ir_broadcast(const TensorType *const *in, int n, TensorType *out, char *err, size_t errn) {
    int rank = 0;
    for (int i = 0; i < n; i++)
        if (in[i]->rank > rank) rank = in[i]->rank;
    out->rank = rank;
    for (int d = 0; d < rank; d++) {
        int64_t size = 1;
        for (int i = 0; i < n; i++) {
            int k = d - (rank - in[i]->rank);
            if (k < 0) continue;
            int64_t s = in[i]->dims[k];
            if (s == size || s == 1) continue;
            if (size != 1) {
                /* Written straight into err, stopping once it is full (snprintf's return value
                 * may exceed the room left, so the offset is checked before each write). */
                char sb[IR_MAX_RANK * 21 + 3];
                size_t m = (size_t)snprintf(err, errn, "cannot broadcast");
                for (int j = 0; j < n && m < errn; j++)
                    m += (size_t)snprintf(err + m, errn - m, "%s%s", j ? " and " : " ",
                                          ir_shape_str(in[j], sb, sizeof sb));
                return -1;
            }
            size = s;
        }
        out->dims[d] = size;
    }
    return 0;
}

size_t ir_npy_header(const char *descr, int rank, const int64_t *shape, char *buf, size_t n) {
    char dict[512];
    int k = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
    for (int i = 0; i < rank; i++)
        k += snprintf(dict + k, sizeof dict - (size_t)k, "%s%lld%s", i ? ", " : "", (long long)shape[i], rank == 1 ? "," : "");
    k += snprintf(dict + k, sizeof dict - (size_t)k, "), }");
    size_t pre = 10, total = pre + (size_t)k + 1, pad = (64 - total % 64) % 64, hlen = (size_t)k + pad + 1;
    if (pre + hlen > n) return 0;
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (char)(hlen & 0xff), buf[9] = (char)(hlen >> 8);
    memcpy(buf + pre, dict, (size_t)k);
    memset(buf + pre + k, ' ', pad);
    buf[pre + hlen - 1] = '\n';
    return pre + hlen;
}
