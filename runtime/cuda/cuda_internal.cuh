// runtime/cuda/cuda_internal.cuh: what the CUDA backend's .cu files share: the context (device,
// stream, cuBLAS handle), the caching allocator, error helpers, dtype <-> C++ type dispatch and
// host-side geometry (dimension coalescing, 32-bit index checks).
#ifndef GTC_CUDA_INTERNAL_CUH
#define GTC_CUDA_INTERNAL_CUH

#include "../../ir/scalar.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "rt_cuda.h"

// ---- the context ---------------------------------------------------------------------------

struct CudaCtx {
    bool ready;
    int device;
    int sms;                     // multiprocessors
    cudaStream_t stream;         // the one non-blocking stream every op runs on
    cublasHandle_t blas;
    bool tf32;
    char name[256];
};
extern CudaCtx g_cuda;

// rt_error with the CUDA error's name and text; returns -1. cudaErrorMemoryAllocation -> RT_EOOM.
int cuda_fail(const char *what, cudaError_t e);
int cublas_fail(const char *what, cublasStatus_t s);
// -1 with rt_error unless rt_cuda_init succeeded.
int cuda_check_ready(const char *what);
// After a kernel launch: turns a launch error into rt_error.
int cuda_check_launch(const char *what);

#define CU_TRY(what, call)                                                                      \
    do {                                                                                        \
        cudaError_t e_ = (call);                                                                \
        if (e_ != cudaSuccess) return cuda_fail(what, e_);                                      \
    } while (0)

// The caching allocator (cuda_backend.cu): blocks are reused in stream order, so a block freed
// on the host while kernels that use it are queued is safe to hand to the next op.
void *cuda_alloc(size_t bytes);  // NULL after rt_error (RT_EOOM)
void cuda_free(void *p);

// ---- dtypes ---------------------------------------------------------------------------------

// The C++ element type of each dtype: IR_DTYPES' CT, except that bool is C++ bool here (one byte,
// 0 or 1), so that Conv<bool> (x != 0) and Conv<uint8_t> (uint8's wrap) are different types.
#define CU_T_B(CT) bool
#define CU_T_S(CT) CT
#define CU_T_U(CT) CT
#define CU_T_F(CT) CT
#define CU_T_H(CT) CT
// X(ID, TT, sfx, kind) for every dtype, TT its element type here.
#define CU_DTYPES(X) IR_DTYPES_A(CU_DT_ROW, X)
#define CU_DT_ROW(X, ID, name, sh, sfx, CT, WT, size, kind) X(ID, CU_T_##kind(CT), sfx, kind)

template <DType D> struct DTy;
#define CU_DTY(ID, TT, sfx, kind) \
    template <> struct DTy<DT_##ID> { typedef TT T; };
CU_DTYPES(CU_DTY)
#undef CU_DTY

// Conversion to an element type with scalar.h's rules (saturating float->int, NaN->0, !=0 bool,
// integer->integer keeps the low bits).
template <class O> struct Conv;
#define CU_CONV(ID, TT, sfx, kind)                                                                   \
    template <> struct Conv<TT> {                                                                    \
        template <class X> static __host__ __device__ __forceinline__ TT f(X x) { return (TT)gtc_to_##sfx(x); } \
    };
CU_DTYPES(CU_CONV)
#undef CU_CONV

// ---- geometry -------------------------------------------------------------------------------

// Up to K stride arrays over one shape (K = operands, out included where it matters).
template <int K> struct Layout {
    int nd;
    int64_t dims[IR_MAX_RANK];
    int64_t st[K][IR_MAX_RANK];
};

// Drops size-1 axes and merges neighbours that every stride array walks as one axis. The element
// order (C order over the dims) is unchanged, so a linear index means the same element after.
template <int K> static inline void layout_coalesce(Layout<K> *l) {
    int nd = 0;
    for (int d = 0; d < l->nd; d++) {
        if (l->dims[d] == 1) continue;
        l->dims[nd] = l->dims[d];
        for (int k = 0; k < K; k++) l->st[k][nd] = l->st[k][d];
        nd++;
    }
    l->nd = nd;
    if (nd < 2) return;
    int w = nd - 1;  // write from the back
    for (int d = nd - 2; d >= 0; d--) {
        bool merge = true;
        for (int k = 0; k < K && merge; k++) merge = l->st[k][d] == l->st[k][w] * l->dims[w];
        if (merge) {
            l->dims[w] *= l->dims[d];
        } else {
            w--;
            l->dims[w] = l->dims[d];
            for (int k = 0; k < K; k++) l->st[k][w] = l->st[k][d];
        }
    }
    int n = nd - w;
    for (int d = 0; d < n; d++) {
        l->dims[d] = l->dims[d + w];
        for (int k = 0; k < K; k++) l->st[k][d] = l->st[k][d + w];
    }
    l->nd = n;
}

// The largest |offset| any element of stride array k reaches (for the 32-bit index choice).
template <int K> static inline int64_t layout_span(const Layout<K> *l, int k) {
    int64_t s = 0;
    for (int d = 0; d < l->nd; d++) s += (l->st[k][d] < 0 ? -l->st[k][d] : l->st[k][d]) * (l->dims[d] - 1);
    return s;
}

static inline int64_t numel_of(int rank, const int64_t *shape) {
    int64_t n = 1;
    for (int i = 0; i < rank; i++) n *= shape[i];
    return n;
}

static inline unsigned grid_for(int64_t work, int block, int per_sm = 32) {
    int64_t g = (work + block - 1) / block;
    int64_t cap = (int64_t)(g_cuda.sms > 0 ? g_cuda.sms : 132) * per_sm;
    if (g > cap) g = cap;
    return (unsigned)(g < 1 ? 1 : g);
}

// Device pointer of a view's element 0, typed.
template <class T> static inline T *tdata(const RtTensor *t) { return (T *)rt_data(t); }

// The backend's entry points, one file each (see rt.h for the contract).
int cuda_copy(RtTensor *out, const RtTensor *in);
int cuda_elementwise(Op op, RtTensor *out, RtTensor *const *in, int nin, const Attrs *a);
int cuda_reduce(Op op, RtTensor *out, const RtTensor *in, unsigned mask);
int cuda_matmul(RtTensor *out, const RtTensor *a, const RtTensor *b);
int cuda_dropout(RtTensor *out, const RtTensor *x, uint64_t seed, double ratio);
// cuda_cudnn.cu: cuDNN's convolution for large eager conv2d calls (RtBackend.conv2d)
extern "C" int cuda_conv2d(RtTensor **out, const RtTensor *x, const RtTensor *w, const RtTensor *b,
                           const RtConvWindow *p, const int64_t *o);
extern "C" const char *cuda_conv_library(char *buf, size_t n);
extern "C" void cuda_cudnn_shutdown(void);
int cuda_gather(RtTensor *out, const RtTensor *data, const RtTensor *idx, int64_t pre, int64_t n, int64_t post);
int cuda_copy_rows(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t rows);
int cuda_scatter_add(RtTensor *out, const RtTensor *idx, const RtTensor *upd, int64_t pre, int64_t n, int64_t post);

// Copies `in` (any view) into the contiguous device buffer dst of dtype dt (cuda_elementwise.cu).
int cuda_copy_into(void *dst, DType dt, const RtTensor *in);

#endif
