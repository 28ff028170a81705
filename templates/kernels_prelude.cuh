/* templates/kernels_prelude.cuh: the device helpers every generated kernels.cu shares, copied in
 * after ir/scalar.h: infinities, block reductions (warp shuffles, then one warp over the warps'
 * partials; blockDim.x is a multiple of 32), the first-index arg-reduction, and the tiled SIMT
 * GEMM whose epilogue each GEMM step supplies as a lambda. Valid for nvcc and NVRTC alike. */
#define GTC_INF_F __int_as_float(0x7f800000)
#define GTC_NAN_F __int_as_float(0x7fc00000)
#define GTC_INF_D __longlong_as_double(0x7ff0000000000000LL)
#define GTC_NAN_D __longlong_as_double(0x7ff8000000000000LL)

struct GtcSum {
    template <class T> __device__ __forceinline__ T operator()(T a, T b) const { return a + b; }
};
struct GtcProd {
    template <class T> __device__ __forceinline__ T operator()(T a, T b) const { return a * b; }
};
struct GtcMax {
    template <class T> __device__ __forceinline__ T operator()(T a, T b) const { return gtc_max(a, b); }
};
struct GtcMin {
    template <class T> __device__ __forceinline__ T operator()(T a, T b) const { return gtc_min(a, b); }
};

template <class T> __device__ __forceinline__ T gtc_shfl_down(T v, int o) {
    return __shfl_down_sync(0xffffffffu, v, o);
}

/* The block's reduction of v under f (id: f's identity); every thread gets the result. */
template <class T, class F> __device__ T gtc_block_reduce(T v, F f, T id) {
    __shared__ T buf[32];
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5, nw = (blockDim.x + 31) >> 5;
    for (int o = 16; o > 0; o >>= 1) v = f(v, gtc_shfl_down(v, o));
    if (lane == 0) buf[w] = v;
    __syncthreads();
    if (w == 0) {
        v = lane < nw ? buf[lane] : id;
        for (int o = 16; o > 0; o >>= 1) v = f(v, gtc_shfl_down(v, o));
        if (lane == 0) buf[0] = v;
    }
    __syncthreads();
    v = buf[0];
    __syncthreads();
    return v;
}

/* Whether (vb, ib) beats (va, ia) for argmax (MAX) or argmin: a NaN beats any number, the lower
 * index wins ties; an index below 0 is no candidate. Matches the CPU's first-best scan. */
template <class T, bool MAX> __device__ __forceinline__ bool gtc_arg_better(T vb, long long ib, T va, long long ia) {
    if (ib < 0) return false;
    if (ia < 0) return true;
    const bool na = va != va, nb = vb != vb;
    if (na || nb) return nb && (!na || ib < ia);
    if (MAX ? vb > va : vb < va) return true;
    return vb == va && ib < ia;
}

template <class T, bool MAX> __device__ void gtc_block_arg(T &v, long long &i) {
    __shared__ T bv[32];
    __shared__ long long bi[32];
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5, nw = (blockDim.x + 31) >> 5;
    for (int o = 16; o > 0; o >>= 1) {
        T ov = gtc_shfl_down(v, o);
        long long oi = gtc_shfl_down(i, o);
        if (gtc_arg_better<T, MAX>(ov, oi, v, i)) v = ov, i = oi;
    }
    if (lane == 0) bv[w] = v, bi[w] = i;
    __syncthreads();
    if (w == 0) {
        v = lane < nw ? bv[lane] : v;
        i = lane < nw ? bi[lane] : -1;
        for (int o = 16; o > 0; o >>= 1) {
            T ov = gtc_shfl_down(v, o);
            long long oi = gtc_shfl_down(i, o);
            if (gtc_arg_better<T, MAX>(ov, oi, v, i)) v = ov, i = oi;
        }
        if (lane == 0) bv[0] = v, bi[0] = i;
    }
    __syncthreads();
    v = bv[0];
    i = bi[0];
    __syncthreads();
}

/* The reduction of v under f over one warp; every lane gets the result. */
template <class T, class F> __device__ __forceinline__ T gtc_warp_reduce(T v, F f) {
    for (int o = 16; o > 0; o >>= 1) v = f(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

template <class T, bool MAX> __device__ __forceinline__ void gtc_warp_arg(T &v, long long &i) {
    for (int o = 16; o > 0; o >>= 1) {
        T ov = __shfl_xor_sync(0xffffffffu, v, o);
        long long oi = __shfl_xor_sync(0xffffffffu, i, o);
        if (gtc_arg_better<T, MAX>(ov, oi, v, i)) v = ov, i = oi;
    }
}

/* C[m, n] = sum_k A[m, k] B[k, n] for one BM x BN tile (blockIdx.x: m tiles, blockIdx.y: n tiles)
 * with 256 threads as 16 x 16, each holding a (BM/16) x (BN/16) register micro-tile, K in steps
 * of BK through shared memory; the next step's tiles are fetched into registers while this one's
 * are multiplied. A and B are addressed by element strides, so transposed operands cost nothing;
 * AK / BN1 say which of their axes is contiguous (coalesced tile loads). Bounds are checked
 * everywhere: any M, N, K. Strict FP32/FP64 multiply-adds (no TF32). epi(i, j, acc) stores each
 * in-range result. */
template <class T, int BM, int BN, int BK, bool AK, bool BN1, class Epi>
__device__ __forceinline__ void gtc_gemm(const T *__restrict__ A, long long sam, long long sak,
                                         const T *__restrict__ B, long long sbk, long long sbn,
                                         int M, int N, int K, Epi epi) {
    constexpr int TM = BM / 16, TN = BN / 16, LA = BM * BK / 256, LB = BN * BK / 256;
    static_assert(LA * 256 == BM * BK && LB * 256 == BN * BK, "a tile is a whole number of loads per thread");
    __shared__ T As[BK][BM + 1];
    __shared__ T Bs[BK][BN + 1];
    const int tid = threadIdx.x, tx = tid & 15, ty = tid >> 4;
    const int m0 = blockIdx.x * BM, n0 = blockIdx.y * BN;
    T acc[TM][TN], ra[LA], rb[LB];
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++) acc[i][j] = T(0);
    auto fetch = [&](int k0) {
#pragma unroll
        for (int l = 0; l < LA; l++) {
            const int e = tid + 256 * l, mm = AK ? e / BK : e % BM, kk = AK ? e % BK : e / BM;
            const int gm = m0 + mm, gk = k0 + kk;
            ra[l] = gm < M && gk < K ? A[gm * sam + gk * sak] : T(0);
        }
#pragma unroll
        for (int l = 0; l < LB; l++) {
            const int e = tid + 256 * l, nn = BN1 ? e % BN : e / BK, kk = BN1 ? e / BN : e % BK;
            const int gn = n0 + nn, gk = k0 + kk;
            rb[l] = gn < N && gk < K ? B[gk * sbk + gn * sbn] : T(0);
        }
    };
    fetch(0);
    for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
        for (int l = 0; l < LA; l++) {
            const int e = tid + 256 * l;
            As[AK ? e % BK : e / BM][AK ? e / BK : e % BM] = ra[l];
        }
#pragma unroll
        for (int l = 0; l < LB; l++) {
            const int e = tid + 256 * l;
            Bs[BN1 ? e / BN : e % BK][BN1 ? e % BN : e / BK] = rb[l];
        }
        __syncthreads();
        if (k0 + BK < K) fetch(k0 + BK);
#pragma unroll
        for (int kk = 0; kk < BK; kk++) {
            T a[TM], b[TN];
#pragma unroll
            for (int i = 0; i < TM; i++) a[i] = As[kk][ty + 16 * i];
#pragma unroll
            for (int j = 0; j < TN; j++) b[j] = Bs[kk][tx + 16 * j];
#pragma unroll
            for (int i = 0; i < TM; i++)
#pragma unroll
                for (int j = 0; j < TN; j++) acc[i][j] = a[i] * b[j] + acc[i][j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++) {
            const int gm = m0 + ty + 16 * i, gn = n0 + tx + 16 * j;
            if (gm < M && gn < N) epi(gm, gn, acc[i][j]);
        }
}

/* The same product when N <= NN is tiny (a classifier's logits and their weight gradient): one
 * warp per row of C (8 rows per 256-thread block, blockIdx.x), lanes stride over K, one warp
 * reduction per column; lane j stores column j. */
template <class T, int NN, class Epi>
__device__ __forceinline__ void gtc_gemm_skinny(const T *__restrict__ A, long long sam, long long sak,
                                                const T *__restrict__ B, long long sbk, long long sbn,
                                                int M, int N, int K, Epi epi) {
    const int lane = threadIdx.x & 31, i = blockIdx.x * 8 + (threadIdx.x >> 5);
    if (i >= M) return;
    T acc[NN];
#pragma unroll
    for (int j = 0; j < NN; j++) acc[j] = T(0);
#pragma unroll 4
    for (int k = lane; k < K; k += 32) {
        const T a = A[i * sam + k * sak];
#pragma unroll
        for (int j = 0; j < NN; j++) acc[j] = a * (j < N ? B[k * sbk + j * sbn] : T(0)) + acc[j];
    }
#pragma unroll
    for (int j = 0; j < NN; j++) {
        const T s = gtc_warp_reduce(acc[j], GtcSum());
        if (lane == j && j < N) epi(i, j, s);
    }
}
