// runtime/cuda/cuda_index.cu: the CUDA backend's index-mapped ops (gather, scatter_add) over the
// [pre, n, post] views rt_apply prepares (indices arrive checked and non-negative), and the row
// copies concat is made of.
#include "cuda_internal.cuh"

// A thread per output element; elements move as their bytes (E: 1, 4 or 8), so one kernel per
// element size serves every dtype.
template <class E>
__global__ void gather_kernel(E *out, const E *data, const int64_t *ix, int64_t k, int64_t n, int64_t post,
                              int64_t total) {
    for (int64_t t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; t < total; t += (int64_t)gridDim.x * blockDim.x) {
        int64_t q = t % post, r = t / post, i = r % k, p = r / k;
        out[t] = data[(p * n + ix[i]) * post + q];
    }
}

// A thread per update; atomicAdd makes repeated indices accumulate (float sums may then differ
// from the CPU's in the last bits: their order is not fixed).
template <class T, class A>
__global__ void scatter_kernel(T *out, const T *upd, const int64_t *ix, int64_t k, int64_t n, int64_t post,
                               int64_t total) {
    for (int64_t t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; t < total; t += (int64_t)gridDim.x * blockDim.x) {
        int64_t q = t % post, r = t / post, i = r % k, p = r / k;
        atomicAdd((A *)&out[(p * n + ix[i]) * post + q], (A)upd[t]);
    }
}

// The launch both ops share: a thread per element of [pre, k, post]. 1: launch, 0: nothing to
// do, -1 after rt_error.
struct IndexLaunch {
    int64_t k, total;
    unsigned grid;
    const int64_t *ix;
};
static int index_launch(const char *what, const RtTensor *idx, int64_t pre, int64_t post, IndexLaunch *l) {
    if (cuda_check_ready(what)) return -1;
    l->k = rt_numel(idx), l->total = pre * l->k * post;
    l->grid = grid_for(l->total, 256);
    l->ix = tdata<int64_t>(idx);
    return l->total > 0;
}

// Each launch: the grid of index_launch on the context's stream, then the indices and geometry.
#define LAUNCH(kernel) kernel<<<l.grid, 256, 0, g_cuda.stream>>>
#define GEOMETRY l.ix, l.k, n, post, l.total

int cuda_gather(RtTensor *out, const RtTensor *data, const RtTensor *idx, int64_t pre, int64_t n, int64_t post) {
    IndexLaunch l;
    int rc = index_launch("gather", idx, pre, post, &l);
    if (rc <= 0) return rc;
    switch (ir_dtype_size(data->dtype)) {
    case 1: LAUNCH(gather_kernel<uint8_t>)(tdata<uint8_t>(out), tdata<uint8_t>(data), GEOMETRY); break;
    case 4: LAUNCH(gather_kernel<uint32_t>)(tdata<uint32_t>(out), tdata<uint32_t>(data), GEOMETRY); break;
    case 8: LAUNCH(gather_kernel<uint64_t>)(tdata<uint64_t>(out), tdata<uint64_t>(data), GEOMETRY); break;
    default: return rt_error(RT_EINVAL, "cuda gather: %s is not supported", ir_dtype_name(data->dtype));
    }
    return cuda_check_launch("gather");
}

int cuda_scatter_add(RtTensor *out, const RtTensor *idx, const RtTensor *upd, int64_t pre, int64_t n, int64_t post) {
    IndexLaunch l;
    int rc = index_launch("scatter_add", idx, pre, post, &l);
    if (rc <= 0) return rc;
    switch (out->dtype) { // integers: two's complement, so unsigned atomics wrap as the CPU's add does
    case DT_INT32: LAUNCH((scatter_kernel<int32_t, unsigned>))(tdata<int32_t>(out), tdata<int32_t>(upd), GEOMETRY); break;
    case DT_INT64: LAUNCH((scatter_kernel<int64_t, unsigned long long>))(tdata<int64_t>(out), tdata<int64_t>(upd), GEOMETRY); break;
    case DT_FLOAT32: LAUNCH((scatter_kernel<float, float>))(tdata<float>(out), tdata<float>(upd), GEOMETRY); break;
    case DT_FLOAT64: LAUNCH((scatter_kernel<double, double>))(tdata<double>(out), tdata<double>(upd), GEOMETRY); break;
    default: return rt_error(RT_EINVAL, "cuda scatter_add: %s is not supported", ir_dtype_name(out->dtype));
    }
    return cuda_check_launch("scatter_add");
}

int cuda_copy_rows(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t rows) {
    if (cuda_check_ready("concat")) return -1;
    if (!width || !rows) return 0;
    CU_TRY("concat (cudaMemcpy2DAsync)",
           cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, rows, cudaMemcpyDeviceToDevice, g_cuda.stream));
    return 0;
}

// A thread per element; the mask is ir/scalar.h's philox, as on the CPU and in generated code.
// V: the type arithmetic sees (float for the 2-byte floats, rounded once on the store).
template <class T, class V>
__global__ void dropout_kernel(T *out, const T *x, uint64_t seed, double ratio, V scale, int64_t n) {
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        out[i] = gtc_cast(T, gtc_dropout_keep((uint64_t)i, seed, ratio) ? (V)gtc_val(x[i]) * scale : (V)0);
}

int cuda_dropout(RtTensor *out, const RtTensor *x, uint64_t seed, double ratio) {
    if (cuda_check_ready("dropout")) return -1;
    int64_t n = rt_numel(out);
    if (n == 0) return 0;
    unsigned grid = grid_for(n, 256);
    if (x->dtype == DT_FLOAT32)
        dropout_kernel<float, float><<<grid, 256, 0, g_cuda.stream>>>(tdata<float>(out), tdata<float>(x), seed, ratio,
                                                                       (float)(1.0 / (1.0 - ratio)), n);
    else if (x->dtype == DT_FLOAT64)
        dropout_kernel<double, double><<<grid, 256, 0, g_cuda.stream>>>(tdata<double>(out), tdata<double>(x), seed,
                                                                         ratio, 1.0 / (1.0 - ratio), n);
    else if (x->dtype == DT_BFLOAT16)
        dropout_kernel<gtc_bf16, float><<<grid, 256, 0, g_cuda.stream>>>(
            tdata<gtc_bf16>(out), tdata<gtc_bf16>(x), seed, ratio, gtc_val(gtc_to_bf16(1.0 / (1.0 - ratio))), n);
    else if (x->dtype == DT_FLOAT16)
        dropout_kernel<gtc_f16, float><<<grid, 256, 0, g_cuda.stream>>>(
            tdata<gtc_f16>(out), tdata<gtc_f16>(x), seed, ratio, gtc_val(gtc_to_f16(1.0 / (1.0 - ratio))), n);
    else return rt_error(RT_EINVAL, "cuda dropout: %s is not supported", ir_dtype_name(x->dtype));
    return cuda_check_launch("dropout");
}
