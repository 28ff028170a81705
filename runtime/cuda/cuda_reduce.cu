// runtime/cuda/cuda_reduce.cu: sum mean max min prod argmax argmin over any set of axes.
//
// The input view is split into outer (kept) and inner (reduced) axes, each group coalesced; an
// output element's C-order index is its index in the contiguous keepdims `out`, and the reduction
// index r is the C-order index over the reduced axes (so argmax's r is the coordinate along its
// one axis). Three kernel shapes, picked by the layout:
//   - one thread per output (few reduced elements, or the reduced axes are not innermost: then
//     neighbouring threads read neighbouring elements);
//   - one warp per output (reduced axes innermost and moderate): lanes stride, shuffle tree;
//   - one block per output, optionally split over several blocks (few outputs, long rows):
//     warp shuffles, then shared memory across warps; split partials are merged by a second
//     kernel, in a fixed order (results are deterministic).
// Accumulation: float32, bfloat16 and float16 sum/mean/prod accumulate in double (the 2-byte floats
// round once, in fin; their max/min/arg compare as float) (H200 FP64 is full rate and the
// kernels are memory-bound), float64 in double, int64 in wrapping unsigned 64-bit. max/min
// propagate NaN (scalar.h's gtc_max/gtc_min); argmax/argmin return the first index of the
// extreme value, a NaN counting as the extreme (NumPy's rule).
#include "cuda_internal.cuh"

// ---- accumulators ---------------------------------------------------------------------------------

template <class T> struct Lim;
#define LIM(T, LO, HI)                                                                                   \
    template <> struct Lim<T> {                                                                          \
        static __device__ T lo() { return LO; }                                                          \
        static __device__ T hi() { return HI; }                                                          \
    };
LIM(bool, false, true)
LIM(int8_t, INT8_MIN, INT8_MAX)
LIM(uint8_t, 0, UINT8_MAX)
LIM(int16_t, INT16_MIN, INT16_MAX)
LIM(uint16_t, 0, UINT16_MAX)
LIM(int32_t, INT32_MIN, INT32_MAX)
LIM(uint32_t, 0, UINT32_MAX)
LIM(int64_t, INT64_MIN, INT64_MAX)
LIM(uint64_t, 0, UINT64_MAX)
#undef LIM
template <> struct Lim<float> {
    static __device__ float lo() { return -__int_as_float(0x7f800000); }
    static __device__ float hi() { return __int_as_float(0x7f800000); }
};
template <> struct Lim<double> {
    static __device__ double lo() { return -__longlong_as_double(0x7ff0000000000000ll); }
    static __device__ double hi() { return __longlong_as_double(0x7ff0000000000000ll); }
};

template <class T> struct ArgAcc {
    T v;
    int64_t i;
};

template <class X> __device__ __forceinline__ X shfl_down(X x, int d) { return __shfl_down_sync(0xffffffffu, x, d); }
// types narrower than a register travel as int
#define SHFL_NARROW(T)                                                                                   \
    template <> __device__ __forceinline__ T shfl_down<T>(T x, int d) {                                  \
        return (T)__shfl_down_sync(0xffffffffu, (int)x, d);                                              \
    }
SHFL_NARROW(bool)
SHFL_NARROW(int8_t)
SHFL_NARROW(uint8_t)
SHFL_NARROW(int16_t)
SHFL_NARROW(uint16_t)
#undef SHFL_NARROW
template <> __device__ __forceinline__ int64_t shfl_down<int64_t>(int64_t x, int d) {
    return (int64_t)__shfl_down_sync(0xffffffffu, (long long)x, d);
}
template <> __device__ __forceinline__ unsigned long long shfl_down<unsigned long long>(unsigned long long x, int d) {
    return __shfl_down_sync(0xffffffffu, x, d);
}
#define ARG_SHFL(T)                                                                                     \
    template <> __device__ __forceinline__ ArgAcc<T> shfl_down<ArgAcc<T>>(ArgAcc<T> x, int d) {         \
        ArgAcc<T> r;                                                                                    \
        r.v = shfl_down<T>(x.v, d);                                                                     \
        r.i = shfl_down<int64_t>(x.i, d);                                                               \
        return r;                                                                                       \
    }
// (the 2-byte floats' accumulators hold float: ArgAcc<float>)
#define ARG_SHFL_B(T) ARG_SHFL(T)
#define ARG_SHFL_S(T) ARG_SHFL(T)
#define ARG_SHFL_U(T) ARG_SHFL(T)
#define ARG_SHFL_F(T) ARG_SHFL(T)
#define ARG_SHFL_H(T)
#define ARG_SHFL_ROW(ID, TT, sfx, kind) ARG_SHFL_##kind(TT)
CU_DTYPES(ARG_SHFL_ROW)
#undef ARG_SHFL_ROW
#undef ARG_SHFL
#undef ARG_SHFL_B
#undef ARG_SHFL_S
#undef ARG_SHFL_U
#undef ARG_SHFL_F
#undef ARG_SHFL_H

// An element as arithmetic sees it (scalar.h's gtc_val): the 2-byte floats as float.
template <class T> using Val = decltype(gtc_val(T()));

// A policy: Acc, init, step (one input element at reduction index r), merge, fin (to out).
template <class T, class A, class O> struct PSum {
    typedef T In;
    typedef A Acc;
    typedef O Out;
    static __device__ A init() { return A(0); }
    static __device__ A step(A acc, T x, int64_t) { return acc + (A)gtc_val(x); }
    static __device__ A merge(A a, A b) { return a + b; }
    static __device__ O fin(A a, int64_t) { return gtc_cast(O, a); }
};
template <class T, class A, class O> struct PMean : PSum<T, A, O> {
    static __device__ O fin(A a, int64_t n) { return gtc_cast(O, a / (A)n); }  // n == 0: 0/0 = NaN
};
template <class T, class A, class O> struct PProd {
    typedef T In;
    typedef A Acc;
    typedef O Out;
    static __device__ A init() { return A(1); }
    static __device__ A step(A acc, T x, int64_t) { return acc * (A)gtc_val(x); }
    static __device__ A merge(A a, A b) { return a * b; }
    static __device__ O fin(A a, int64_t) { return gtc_cast(O, a); }
};
template <class T> struct PMax {
    typedef T In;
    typedef Val<T> Acc;
    typedef T Out;
    static __device__ Acc init() { return Lim<Acc>::lo(); }
    static __device__ Acc step(Acc acc, T x, int64_t) { return gtc_max(acc, (Acc)gtc_val(x)); }
    static __device__ Acc merge(Acc a, Acc b) { return gtc_max(a, b); }
    static __device__ T fin(Acc a, int64_t) { return gtc_cast(T, a); }
};
template <class T> struct PMin {
    typedef T In;
    typedef Val<T> Acc;
    typedef T Out;
    static __device__ Acc init() { return Lim<Acc>::hi(); }
    static __device__ Acc step(Acc acc, T x, int64_t) { return gtc_min(acc, (Acc)gtc_val(x)); }
    static __device__ Acc merge(Acc a, Acc b) { return gtc_min(a, b); }
    static __device__ T fin(Acc a, int64_t) { return gtc_cast(T, a); }
};
// MAXI: argmax (else argmin). b replaces a when it is more extreme, NaN beating numbers, or
// equal (both NaN included) with a smaller index.
template <class T, bool MAXI> struct PArg {
    typedef T In;
    typedef ArgAcc<Val<T>> Acc;
    typedef int64_t Out;
    static __device__ Acc init() {
        Acc a;
        a.v = MAXI ? Lim<Val<T>>::lo() : Lim<Val<T>>::hi();
        a.i = INT64_MAX;
        return a;
    }
    static __device__ Acc merge(Acc a, Acc b) {
        bool an = a.v != a.v, bn = b.v != b.v;
        bool better = MAXI ? b.v > a.v : b.v < a.v;
        bool same = b.v == a.v || (an && bn);
        bool take = (bn && !an) || (!an && better) || (same && b.i < a.i);
        return take ? b : a;
    }
    static __device__ Acc step(Acc acc, T x, int64_t r) {
        Acc b;
        b.v = gtc_val(x);
        b.i = r;
        return merge(acc, b);
    }
    static __device__ int64_t fin(Acc a, int64_t) { return a.i; }
};

// ---- geometry ---------------------------------------------------------------------------------------

struct RGeo {
    int ond, ind;
    int64_t odims[IR_MAX_RANK], ost[IR_MAX_RANK];
    int64_t idims[IR_MAX_RANK], ist[IR_MAX_RANK];
};

template <class I> __device__ __forceinline__ I offset_of(I idx, int nd, const int64_t *dims, const int64_t *st) {
    I off = 0;
#pragma unroll
    for (int d = IR_MAX_RANK - 1; d >= 0; d--) {
        if (d < nd) {
            I dim = (I)dims[d], q = idx / dim;
            off += (idx - q * dim) * (I)st[d];
            idx = q;
        }
    }
    return off;
}

template <class I> __device__ __forceinline__ I inner_off(const RGeo &g, I r) {
    return g.ind == 1 ? r * (I)g.ist[0] : offset_of<I>(r, g.ind, g.idims, g.ist);
}

// ---- kernels ----------------------------------------------------------------------------------------

template <class P, class I>
__global__ void __launch_bounds__(256) k_red_thread(typename P::Out *__restrict__ out, const typename P::In *__restrict__ x,
                                                     RGeo g, I nout, I R) {
    for (I o = (I)blockIdx.x * (I)blockDim.x + (I)threadIdx.x; o < nout; o += (I)gridDim.x * (I)blockDim.x) {
        I base = offset_of<I>(o, g.ond, g.odims, g.ost);
        typename P::Acc acc = P::init();
        for (I r = 0; r < R; r++) acc = P::step(acc, x[base + inner_off<I>(g, r)], (int64_t)r);
        out[o] = P::fin(acc, (int64_t)R);
    }
}

template <class A, class P> __device__ __forceinline__ A warp_reduce(A acc) {
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) acc = P::merge(acc, shfl_down<A>(acc, d));
    return acc;
}

template <class P, class I>
__global__ void __launch_bounds__(256) k_red_warp(typename P::Out *__restrict__ out, const typename P::In *__restrict__ x,
                                                   RGeo g, I nout, I R) {
    typedef typename P::Acc A;
    const int lane = threadIdx.x & 31;
    const I warps = (I)gridDim.x * (I)(blockDim.x >> 5);
    for (I o = (I)blockIdx.x * (I)(blockDim.x >> 5) + (I)(threadIdx.x >> 5); o < nout; o += warps) {
        I base = offset_of<I>(o, g.ond, g.odims, g.ost);
        A acc = P::init();
        for (I r = lane; r < R; r += 32) acc = P::step(acc, x[base + inner_off<I>(g, r)], (int64_t)r);
        acc = warp_reduce<A, P>(acc);
        if (lane == 0) out[o] = P::fin(acc, (int64_t)R);
    }
}

// Block (blockIdx.x = output, blockIdx.y = split). splits == 1: writes out; else partials.
template <class P, class I>
__global__ void __launch_bounds__(256) k_red_block(typename P::Out *__restrict__ out, typename P::Acc *__restrict__ part,
                                                    const typename P::In *__restrict__ x, RGeo g, I nout, I R, I chunk) {
    typedef typename P::Acc A;
    __shared__ A smem[32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    const I splits = (I)gridDim.y, s = (I)blockIdx.y;
    const I r0 = s * chunk, r1 = r0 + chunk < R ? r0 + chunk : R;
    for (I o = (I)blockIdx.x; o < nout; o += (I)gridDim.x) {
        I base = offset_of<I>(o, g.ond, g.odims, g.ost);
        A acc = P::init();
        for (I r = r0 + (I)threadIdx.x; r < r1; r += (I)blockDim.x)
            acc = P::step(acc, x[base + inner_off<I>(g, r)], (int64_t)r);
        acc = warp_reduce<A, P>(acc);
        if (lane == 0) smem[warp] = acc;
        __syncthreads();
        if (warp == 0) {
            acc = lane < nwarps ? smem[lane] : P::init();
            acc = warp_reduce<A, P>(acc);
            if (lane == 0) {
                if (splits == 1) out[o] = P::fin(acc, (int64_t)R);
                else part[(int64_t)o * splits + s] = acc;
            }
        }
        __syncthreads();
    }
}

template <class P, class I>
__global__ void __launch_bounds__(256) k_red_final(typename P::Out *__restrict__ out, const typename P::Acc *__restrict__ part,
                                                    I nout, I splits, I R) {
    for (I o = (I)blockIdx.x * (I)blockDim.x + (I)threadIdx.x; o < nout; o += (I)gridDim.x * (I)blockDim.x) {
        typename P::Acc acc = P::init();
        for (I s = 0; s < splits; s++) acc = P::merge(acc, part[(int64_t)o * splits + s]);
        out[o] = P::fin(acc, (int64_t)R);
    }
}

// ---- launch -----------------------------------------------------------------------------------------

template <class P, class I>
static int red_launch(const char *what, typename P::Out *out, const typename P::In *x, const RGeo &g, int64_t nout, int64_t R) {
    typedef typename P::Acc A;
    cudaStream_t st = g_cuda.stream;
    const int sms = g_cuda.sms > 0 ? g_cuda.sms : 132;
    bool inner_contig = g.ind >= 1 && g.ist[g.ind - 1] == 1;
    if (R <= 32 || (!inner_contig && nout >= 1024)) {
        k_red_thread<P, I><<<grid_for(nout, 256), 256, 0, st>>>(out, x, g, (I)nout, (I)R);
        return cuda_check_launch(what);
    }
    if (inner_contig && R <= 4096 && nout >= (int64_t)sms * 8) {
        k_red_warp<P, I><<<grid_for(nout, 8), 256, 0, st>>>(out, x, g, (I)nout, (I)R);
        return cuda_check_launch(what);
    }
    // blocks: split long rows when there are too few outputs to fill the device
    int64_t splits = 1;
    const int64_t target = (int64_t)sms * 4;
    if (nout < target && R >= 8192) {
        splits = (target + nout - 1) / nout;
        int64_t by_len = (R + 4095) / 4096;
        if (splits > by_len) splits = by_len;
        if (splits > 1024) splits = 1024;
    }
    int64_t chunk = (R + splits - 1) / splits;
    splits = (R + chunk - 1) / chunk;
    unsigned gx = (unsigned)(nout < (int64_t)sms * 64 ? nout : (int64_t)sms * 64);
    if (splits == 1) {
        k_red_block<P, I><<<dim3(gx, 1), 256, 0, st>>>(out, nullptr, x, g, (I)nout, (I)R, (I)chunk);
        return cuda_check_launch(what);
    }
    A *part = (A *)cuda_alloc((size_t)(nout * splits) * sizeof(A));
    if (!part) return -1;
    k_red_block<P, I><<<dim3(gx, (unsigned)splits), 256, 0, st>>>(out, part, x, g, (I)nout, (I)R, (I)chunk);
    int rc = cuda_check_launch(what);
    if (!rc) {
        k_red_final<P, I><<<grid_for(nout, 256), 256, 0, st>>>(out, part, (I)nout, (I)splits, (I)R);
        rc = cuda_check_launch(what);
    }
    cuda_free(part);  // stream-ordered reuse: later ops on the stream run after these kernels
    return rc;
}

template <class P> static int red_run(Op op, RtTensor *out, const RtTensor *in, unsigned mask) {
    const char *what = ir_ops[op].name;
    RGeo g = {};
    Layout<1> lo = {}, li = {};
    lo.nd = li.nd = 0;
    int64_t nout = 1, R = 1;
    for (int d = 0; d < in->rank; d++) {
        Layout<1> *l = ((mask >> d) & 1) ? &li : &lo;
        l->dims[l->nd] = in->shape[d];
        l->st[0][l->nd] = in->strides[d];
        l->nd++;
        if ((mask >> d) & 1) R *= in->shape[d];
        else nout *= in->shape[d];
    }
    if (nout == 0) return 0;
    layout_coalesce(&lo);
    layout_coalesce(&li);
    g.ond = lo.nd;
    g.ind = li.nd;
    for (int d = 0; d < lo.nd; d++) g.odims[d] = lo.dims[d], g.ost[d] = lo.st[0][d];
    for (int d = 0; d < li.nd; d++) g.idims[d] = li.dims[d], g.ist[d] = li.st[0][d];
    bool small = nout * R < ((int64_t)1 << 31) && layout_span(&lo, 0) + layout_span(&li, 0) < ((int64_t)1 << 31);
    typename P::Out *o = tdata<typename P::Out>(out);
    const typename P::In *x = tdata<const typename P::In>(in);
    if (small) return red_launch<P, int32_t>(what, o, x, g, nout, R);
    return red_launch<P, int64_t>(what, o, x, g, nout, R);
}

static int red_bad(Op op, const RtTensor *out, const RtTensor *in) {
    return rt_error(RT_EINVAL, "cuda %s: unsupported dtypes (input %s, out %s)", ir_ops[op].name,
                    ir_dtype_name(in->dtype), ir_dtype_name(out->dtype));
}

// The policy instantiated for the input's element type.
template <template <class> class POLICY>
static int by_type(Op op, RtTensor *out, const RtTensor *in, unsigned mask) {
    switch (in->dtype) {
#define CASE(ID, TT, sfx, kind) case DT_##ID: return red_run<POLICY<TT>>(op, out, in, mask);
        CU_DTYPES(CASE)
#undef CASE
    default: return red_bad(op, out, in);
    }
}
#define BY_TYPE(POLICY) return by_type<POLICY>(op, out, in, mask);

template <class T> using PArgMax = PArg<T, true>;
template <class T> using PArgMin = PArg<T, false>;

int cuda_reduce(Op op, RtTensor *out, const RtTensor *in, unsigned mask) {
    if (cuda_check_ready(ir_ops[op].name)) return -1;
    if (out->rank != in->rank || (rt_numel(out) != 0 && !rt_is_contiguous(out)))
        return rt_error(RT_EINVAL, "cuda %s: out must be contiguous with the input's rank (keepdims)", ir_ops[op].name);
    for (int d = 0; d < in->rank; d++)
        if (out->shape[d] != (((mask >> d) & 1) ? 1 : in->shape[d]))
            return rt_error(RT_EINVAL, "cuda %s: out's shape is not the keepdims shape", ir_ops[op].name);
    bool same = out->dtype == in->dtype;
    switch (op) {
    case OP_SUM:
    case OP_PROD:
    case OP_MEAN:
        if (!same) return red_bad(op, out, in);
        if (op == OP_MEAN) {
            if (in->dtype == DT_FLOAT32) return red_run<PMean<float, double, float>>(op, out, in, mask);
            if (in->dtype == DT_FLOAT64) return red_run<PMean<double, double, double>>(op, out, in, mask);
            if (in->dtype == DT_BFLOAT16) return red_run<PMean<gtc_bf16, double, gtc_bf16>>(op, out, in, mask);
            if (in->dtype == DT_FLOAT16) return red_run<PMean<gtc_f16, double, gtc_f16>>(op, out, in, mask);
        } else if (op == OP_SUM) {
            if (in->dtype == DT_FLOAT32) return red_run<PSum<float, double, float>>(op, out, in, mask);
            if (in->dtype == DT_FLOAT64) return red_run<PSum<double, double, double>>(op, out, in, mask);
            if (in->dtype == DT_BFLOAT16) return red_run<PSum<gtc_bf16, double, gtc_bf16>>(op, out, in, mask);
            if (in->dtype == DT_FLOAT16) return red_run<PSum<gtc_f16, double, gtc_f16>>(op, out, in, mask);
            if (in->dtype == DT_INT64) return red_run<PSum<int64_t, unsigned long long, int64_t>>(op, out, in, mask);
        } else {
            if (in->dtype == DT_FLOAT32) return red_run<PProd<float, double, float>>(op, out, in, mask);
            if (in->dtype == DT_FLOAT64) return red_run<PProd<double, double, double>>(op, out, in, mask);
            if (in->dtype == DT_BFLOAT16) return red_run<PProd<gtc_bf16, double, gtc_bf16>>(op, out, in, mask);
            if (in->dtype == DT_FLOAT16) return red_run<PProd<gtc_f16, double, gtc_f16>>(op, out, in, mask);
            if (in->dtype == DT_INT64) return red_run<PProd<int64_t, unsigned long long, int64_t>>(op, out, in, mask);
        }
        return red_bad(op, out, in);
    case OP_MAX:
        if (!same) return red_bad(op, out, in);
        BY_TYPE(PMax)
    case OP_MIN:
        if (!same) return red_bad(op, out, in);
        BY_TYPE(PMin)
    case OP_ARGMAX:
        if (out->dtype != DT_INT64) return red_bad(op, out, in);
        BY_TYPE(PArgMax)
    case OP_ARGMIN:
        if (out->dtype != DT_INT64) return red_bad(op, out, in);
        BY_TYPE(PArgMin)
    default: return rt_error(RT_EINVAL, "cuda reduce: %s is not a reduction", ir_ops[op].name);
    }
}
