/* runtime/cpu/cpu_index.c: the CPU backend's index-mapped ops (gather, scatter_add) over the
 * [pre, n, post] views rt_apply prepares (indices arrive checked and non-negative), and the
 * row copies concat is made of. */
#include <string.h>

#include "../../ir/scalar.h"
#include "cpu.h"

/* A gathered element is copied as bytes: one loop serves every dtype. */
int cpu_gather(RtTensor *out, const RtTensor *data, const RtTensor *idx, int64_t pre, int64_t n, int64_t post) {
    size_t es = ir_dtype_size(data->dtype), row = (size_t)post * es;
    const int64_t *ix = rt_data(idx);
    int64_t k = rt_numel(idx);
    const char *src = rt_data(data);
    char *dst = rt_data(out);
    for (int64_t p = 0; p < pre; p++)
        for (int64_t i = 0; i < k; i++)
            memcpy(dst + ((size_t)(p * k + i)) * row, src + ((size_t)(p * n + ix[i])) * row, row);
    return 0;
}

int cpu_copy_rows(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t rows) {
    for (size_t r = 0; r < rows && width; r++) memcpy((char *)dst + r * dpitch, (const char *)src + r * spitch, width);
    return 0;
}

/* In index order, so repeated indices accumulate in one fixed order (the same bits every run);
 * integers wrap as the elementwise add does. */
#define SCATTER(T, ADD)                                                                            \
    do {                                                                                           \
        T *o = rt_data(out);                                                                       \
        const T *u = rt_data(upd);                                                                 \
        for (int64_t p = 0; p < pre; p++)                                                          \
            for (int64_t i = 0; i < k; i++)                                                        \
                for (int64_t q = 0; q < post; q++) {                                               \
                    T *d = &o[(p * n + ix[i]) * post + q];                                         \
                    T v = u[(p * k + i) * post + q];                                               \
                    *d = ADD;                                                                      \
                }                                                                                  \
    } while (0)

int cpu_scatter_add(RtTensor *out, const RtTensor *idx, const RtTensor *upd, int64_t pre, int64_t n, int64_t post) {
    const int64_t *ix = rt_data(idx);
    int64_t k = rt_numel(idx);
    switch (out->dtype) {
    case DT_INT32: SCATTER(int32_t, (int32_t)((uint32_t)*d + (uint32_t)v)); break;
    case DT_INT64: SCATTER(int64_t, (int64_t)((uint64_t)*d + (uint64_t)v)); break;
    case DT_FLOAT32: SCATTER(float, *d + v); break;
    case DT_FLOAT64: SCATTER(double, *d + v); break;
    default: return rt_error(RT_EINVAL, "scatter_add: %s is not supported", ir_dtype_name(out->dtype));
    }
    return 0;
}

/* The mask's bits come from ir/scalar.h's philox, the same function the CUDA kernels and the
 * generated code call; the scale is rounded to T once, as the generated code writes it (the
 * 2-byte floats: the product in float, rounded once). */
#define DROPOUT(T)                                                                                 \
    do {                                                                                           \
        const T *xs = rt_data(x);                                                                  \
        T *o = rt_data(out);                                                                       \
        const __typeof__(gtc_val(xs[0]) + 0) scale = gtc_val(gtc_cast(T, 1.0 / (1.0 - ratio)));   \
        for (int64_t i = 0; i < n; i++)                                                            \
            o[i] = gtc_cast(T, gtc_dropout_keep((uint64_t)i, seed, ratio) ? gtc_val(xs[i]) * scale : 0); \
    } while (0)

int cpu_dropout(RtTensor *out, const RtTensor *x, uint64_t seed, double ratio) {
    int64_t n = rt_numel(out);
    if (x->dtype == DT_FLOAT32) DROPOUT(float);
    else if (x->dtype == DT_FLOAT64) DROPOUT(double);
    else if (x->dtype == DT_BFLOAT16) DROPOUT(gtc_bf16);
    else if (x->dtype == DT_FLOAT16) DROPOUT(gtc_f16);
    else return rt_error(RT_EINVAL, "internal: dropout of %s", ir_dtype_name(x->dtype));
    return 0;
}
