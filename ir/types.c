/* ir/types.c: dtypes, tensor types, promotion and broadcasting. */
#include <stdio.h>
#include <string.h>

#include "ir.h"

static const struct { const char *name, *shortname; size_t size; } dtypes[DT_COUNT] = {
    [DT_BOOL] = {"bool", "bool", 1},
    [DT_INT32] = {"int32", "i32", 4},
    [DT_INT64] = {"int64", "i64", 8},
    [DT_FLOAT32] = {"float32", "f32", 4},
    [DT_FLOAT64] = {"float64", "f64", 8},
};

const char *ir_dtype_name(DType t) { return (unsigned)t < DT_COUNT ? dtypes[t].name : "?"; }
const char *ir_dtype_short(DType t) { return (unsigned)t < DT_COUNT ? dtypes[t].shortname : "?"; }
size_t ir_dtype_size(DType t) { return (unsigned)t < DT_COUNT ? dtypes[t].size : 0; }
bool ir_dtype_is_float(DType t) { return t == DT_FLOAT32 || t == DT_FLOAT64; }
bool ir_dtype_is_int(DType t) { return t == DT_INT32 || t == DT_INT64; }

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
        k += (size_t)snprintf(buf + k, n - k, "%s%lld", i ? "," : "", (long long)t->dims[i]);
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

/* Weak constants yield: a float constant lifts an int or bool tensor to float32; an integral
 * constant takes the tensor's dtype, except that it lifts a bool tensor to int32. Two weak or two strong operands promote by rank. */
DType ir_promote(DType a, bool a_weak, DType b, bool b_weak) {
    if (a_weak && !b_weak) {
        if (ir_dtype_is_float(a) && !ir_dtype_is_float(b)) return DT_FLOAT32;
        if (b == DT_BOOL && a != DT_BOOL) return DT_INT32; /* bool tensor with a number */
        return b;
    }
    if (b_weak && !a_weak) return ir_promote(b, b_weak, a, a_weak);
    return a > b ? a : b;
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
