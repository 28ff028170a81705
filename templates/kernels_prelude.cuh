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

/* Asynchronous global -> shared copies (cp.async, sm_80 and later; plain loads before): B bytes
 * (4, 8 or 16, src and dst aligned to B), zero-filled when !ok (src is then not read). */
__device__ __forceinline__ unsigned gtc_smem_u32(const void *p) {
    unsigned r;
    asm("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(r) : "l"(p));
    return r;
}
template <int B> __device__ __forceinline__ void gtc_cp_async(void *dst, const void *src, bool ok) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if (B == 16)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(gtc_smem_u32(dst)), "l"(src), "r"(ok ? 16 : 0));
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(gtc_smem_u32(dst)), "l"(src), "n"(B),
                     "r"(ok ? B : 0));
#else
    if (B == 16) *(uint4 *)dst = ok ? *(const uint4 *)src : make_uint4(0, 0, 0, 0);
    else if (B == 8) *(uint2 *)dst = ok ? *(const uint2 *)src : make_uint2(0, 0);
    else *(unsigned *)dst = ok ? *(const unsigned *)src : 0u;
#endif
}
__device__ __forceinline__ void gtc_cp_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::);
#endif
}
template <int N> __device__ __forceinline__ void gtc_cp_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
#endif
}

/* Every step kernel starts here. On sm_90 the executor links dependent steps with programmatic
 * edges (runtime/cuda/cuda_graph.cu): a kernel may be launched once the steps it depends on have
 * launched all their blocks, and it waits here until they have finished and their writes are
 * visible, so its launch overlaps their run. Launched with ordinary edges, or before sm_90, this
 * returns at once. Nothing before it may read memory a step of the plan writes, or write any:
 * gtc_gemm<..., EARLY> and a row step's B operands (gtc_row_b_pro, gtc_row_b_epi) read values no
 * step before it writes (the caller's inputs; compiler/emit_cuda.c, buf_early) before it waits. */
__device__ __forceinline__ void gtc_wait_prior_steps() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

/* The tiled GEMM's shared memory: NST K steps in flight, or the groups' partial tiles at the end,
 * whichever is larger. It is dynamic shared memory, so the launch gives the size:
 * compiler/pass_lower.c (gemm_smem, which also chooses NST) computes the same number, and the
 * kernel traps when launched with less. Rows are padded so that reads hit distinct banks: by 4
 * elements where the FMA path reads 16 bytes along them; on TF32 tensor cores, where the mma
 * fragments read down a column (row k = lane % 4, element lane / 4), rows along M or N by 8 and
 * the partial tiles' rows by 8 (pairs of a fragment stored as 8 bytes). With pad 4 there and
 * unpadded partial tiles the train step's 512x256x480 products took 6.1-6.2 us, padded 4.9-5.4
 * (H200, bench/gemm_split.cu). */
extern __shared__ __align__(32) unsigned char gtc_dsmem[];
template <class T, int BM, int BN, int TM, int KS, int BK, bool AK, bool BK1, bool TF32, int NST> struct GtcGemmSmem {
    static constexpr int PM = TF32 ? 8 : 4;
    static constexpr int RA = AK ? BM : BK, CA = AK ? BK : BM, SA = CA + (AK ? 4 : PM);
    static constexpr int RB = BK1 ? BN : BK, CB = BK1 ? BK : BN, SB = CB + (BK1 ? 4 : PM);
    static constexpr int BNP = BN + (TF32 ? 8 : 0);
    static constexpr int TILE = RA * SA + RB * SB, STAGE = TILE * (int)sizeof(T);
    static constexpr int PIPE = NST * STAGE, RED = KS * BM * BNP * (int)sizeof(T);
    static constexpr int BYTES = PIPE > RED ? PIPE : RED;
};

/* Four consecutive elements, read as one 16-byte (float) or two (double) shared-memory loads. */
/* A product's multiply-add, fused on purpose. Generated kernels are built with FMA contraction
 * off (nvcc and NVRTC -fmad=false), so an elementwise a * b + c rounds after each op as eager
 * ops and the CPU do; the products' inner loops ask for their fused multiply-adds here. */
template <class T> __device__ __forceinline__ T gtc_fma(T a, T b, T c) { return a * b + c; }
__device__ __forceinline__ float gtc_fma(float a, float b, float c) { return __fmaf_rn(a, b, c); }
__device__ __forceinline__ double gtc_fma(double a, double b, double c) { return __fma_rn(a, b, c); }

template <class T> struct __align__(4 * sizeof(T)) GtcV4 { T v[4]; };

/* TF32 tensor cores (sm_80 and later): x rounded to TF32 (10 mantissa bits, to nearest, ties
 * away), and D = A B + D for one m16n8k8 tile, fp32 accumulation. Fragments (PTX ISA, mma.m16n8k8
 * .tf32), q = lane / 4, t = lane % 4: a0..a3 = A[q][t], A[q+8][t], A[q][t+4], A[q+8][t+4]; b0, b1 =
 * B[t][q], B[t+4][q]; d0..d3 = D[q][2t], D[q][2t+1], D[q+8][2t], D[q+8][2t+1]. */
__device__ __forceinline__ unsigned gtc_tf32(float x) {
    unsigned r;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
    return r;
}
__device__ __forceinline__ void gtc_mma_tf32(float (&d)[4], const unsigned (&a)[4], const unsigned (&b)[2]) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%0,%1,%2,%3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#else
    __trap(); /* pass_lower asks for TF32 only on targets that have it */
#endif
}

/* How gtc_gemm<..., TF32 = true> spreads a group's BM x BN tile over its warps: WGM x WGN warps,
 * each WTM x WTN m16n8 tiles (the constants are harmless placeholders for tiles it cannot take;
 * pass_lower.c's gemm_tile_tc checks the same conditions). */
template <int BM, int BN, int G, int KG> struct GtcTcSplit {
    static constexpr int MTM = BM / 16, MTN = BN / 8, WG = G / 32 > 0 ? G / 32 : 1;
    static constexpr int WGN = WG % 4 == 0 && MTN % 4 == 0 ? 4 : WG % 2 == 0 && MTN % 2 == 0 ? 2 : 1;
    static constexpr int WGM = WG / WGN, WTM = MTM / WGM > 0 ? MTM / WGM : 1, WTN = MTN / WGN > 0 ? MTN / WGN : 1;
    static constexpr bool OK = G % 32 == 0 && KG % 8 == 0 && BM % 16 == 0 && BN % 8 == 0 && MTM % WGM == 0 &&
                               MTN % WGN == 0 && WGM * WGN == WG;
};

/* C[m, n] = sum_k A[m, k] B[k, n] for one BM x BN tile of C (blockIdx.x: m tiles,
 * blockIdx.y: n tiles), (BM / TM) x (BN / 4) x KS threads. The threads form KS groups ("sliced
 * K"): each group holds a TM x 4 register micro-tile of the whole tile and multiplies its own
 * BK/KS of every BK-wide K step; the groups' partial tiles are summed through shared memory in
 * group order at the end (deterministic), so a tile as small as 32 x 32 still keeps 8 or 16
 * warps of an SM busy. Tiles of A and B go to shared memory with cp.async in their global layout
 * (AK: A's K axis is contiguous, else its M axis; BK1: B's K axis is contiguous, else its N
 * axis), 16 bytes at a time where the layout, sizes and pointers allow it (else element by
 * element, zero-filling outside M, N, K), NST steps in flight. Each micro-tile step reads 4 K values of A and of B as 16-byte shared loads: rows (or
 * columns) along a contiguous K axis are owned strided, so these reads hit distinct banks; along
 * a contiguous M (N) axis, consecutive. Any M, N, K and strides; strict FP32/FP64 multiply-adds
 * (no TF32) unless TF32: then each group's warps multiply their K slice on TF32 tensor cores
 * (mma.sync m16n8k8, operands rounded to TF32, fp32 accumulation: --precision=tf32 or bf16 on
 * products under the cuBLASLt threshold), the same pipeline, group sum and epilogue.
 * epi(i, j, acc) stores each in-range result; consecutive threads take consecutive j (coalesced
 * stores). */
template <class T, int BM, int BN, int TM, int KS, int BK, bool AK, bool BK1, bool TF32, int NST, int EARLY, class Epi>
__device__ __forceinline__ void gtc_gemm(const T *__restrict__ A, long long sam, long long sak,
                                         const T *__restrict__ B, long long sbk, long long sbn,
                                         int M, int N, int K, Epi epi) {
    constexpr int TN = 4, GM = BM / TM, GN = BN / TN, G = GM * GN, NT = G * KS, KG = BK / KS, VW = 16 / (int)sizeof(T);
    static_assert((NT == 256 || NT == 512) && GM * TM == BM && GN * TN == BN, "the groups' micro-tiles cover the tile");
    static_assert(KG * KS == BK && KG % 4 == 0, "each group takes a multiple of 4 of every K step");
    static_assert(TM % 4 == 0 && (sizeof(T) == 4 || sizeof(T) == 8), "4-wide loads of 4- or 8-byte elements");
    /* shared tiles in the global layout, rows padded as GtcGemmSmem says (distinct banks) */
    using L = GtcGemmSmem<T, BM, BN, TM, KS, BK, AK, BK1, TF32, NST>;
    constexpr int RA = L::RA, CA = L::CA, SA = L::SA, RB = L::RB, CB = L::CB, SB = L::SB, TILE = L::TILE, BNP = L::BNP;
    static_assert(NST >= 2, "two K steps in flight");
    unsigned dyn;
    asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dyn));
    if (dyn < (unsigned)L::BYTES) __trap(); /* launched with less than the tile needs */
    T *const sm = (T *)gtc_dsmem;
    const int tid = threadIdx.x, g = tid / G, l = tid % G, tm = l / GN, tn = l % GN;
    const int m0 = (int)blockIdx.x * BM, n0 = blockIdx.y * BN;
    /* 16-byte copies: the contiguous axis is K (or M / N), its length and the other stride are
     * multiples of VW, and the pointer is 16-byte aligned */
    const bool va = (AK ? sak == 1 && sam % VW == 0 && K % VW == 0 : sam == 1 && sak % VW == 0 && M % VW == 0) &&
                    ((unsigned long long)A & 15) == 0;
    const bool vb = (BK1 ? sbk == 1 && sbn % VW == 0 && K % VW == 0 : sbn == 1 && sbk % VW == 0 && N % VW == 0) &&
                    ((unsigned long long)B & 15) == 0;
    /* each thread's copy slots (chunk tid + 256 u of a tile): stage-invariant parts first */
    constexpr int CHA = RA * CA / VW, UA = (CHA + NT - 1) / NT, CHB = RB * CB / VW, UB = (CHB + NT - 1) / NT;
    const T *pa[UA], *pb[UB];
    int oa[UA], ob[UB], ka[UA], kb[UB], ma[UA], nb[UB];
#pragma unroll
    for (int u = 0; u < UA; u++) {
        const int c = tid + NT * u, r = c / (CA / VW), cc = c % (CA / VW) * VW;
        oa[u] = r * SA + cc, ka[u] = AK ? cc : r, ma[u] = m0 + (AK ? r : cc);
        pa[u] = A + ma[u] * sam + ka[u] * sak;
        if (c >= CHA) ma[u] = M; /* no slot */
    }
#pragma unroll
    for (int u = 0; u < UB; u++) {
        const int c = tid + NT * u, r = c / (CB / VW), cc = c % (CB / VW) * VW;
        ob[u] = r * SB + cc, kb[u] = BK1 ? cc : r, nb[u] = n0 + (BK1 ? r : cc);
        pb[u] = B + kb[u] * sbk + nb[u] * sbn;
        if (c >= CHB) nb[u] = N;
    }
    auto load = [&](int st, int k0, int which) {
        T *As = sm + st * TILE, *Bs = As + RA * SA;
#pragma unroll
        for (int u = 0; u < UA; u++) {
            if (!(which & 1) || (CHA % NT && tid + NT * u >= CHA)) continue;
            const T *src = pa[u] + k0 * sak;
            if (va) {
                const bool ok = ma[u] < M && k0 + ka[u] < K;
                gtc_cp_async<16>(As + oa[u], ok ? src : A, ok);
            } else {
#pragma unroll
                for (int v = 0; v < VW; v++) {
                    const bool ok = ma[u] + (AK ? 0 : v) < M && k0 + ka[u] + (AK ? v : 0) < K;
                    gtc_cp_async<sizeof(T)>(As + oa[u] + v, ok ? src + (AK ? v * sak : v * sam) : A, ok);
                }
            }
        }
#pragma unroll
        for (int u = 0; u < UB; u++) {
            if (!(which & 2) || (CHB % NT && tid + NT * u >= CHB)) continue;
            const T *src = pb[u] + k0 * sbk;
            if (vb) {
                const bool ok = nb[u] < N && k0 + kb[u] < K;
                gtc_cp_async<16>(Bs + ob[u], ok ? src : B, ok);
            } else {
#pragma unroll
                for (int v = 0; v < VW; v++) {
                    const bool ok = nb[u] + (BK1 ? 0 : v) < N && k0 + kb[u] + (BK1 ? v : 0) < K;
                    gtc_cp_async<sizeof(T)>(Bs + ob[u] + v, ok ? src + (BK1 ? v * sbk : v * sbn) : B, ok);
                }
            }
        }
    };
    using TC = GtcTcSplit<BM, BN, G, KG>;
    static_assert(!TF32 || (TC::OK && sizeof(T) == 4), "TF32: float, a tile the warps split into m16n8 tiles");
    constexpr int AM = TF32 ? 1 : TM, AN = TF32 ? 1 : TN, CM = TF32 ? TC::WTM : 1, CN = TF32 ? TC::WTN : 1;
    T acc[AM][AN];
#pragma unroll
    for (int i = 0; i < AM; i++)
#pragma unroll
        for (int j = 0; j < AN; j++) acc[i][j] = T(0);
    float cacc[CM][CN][4]; /* TF32: the warp's m16n8 tiles */
#pragma unroll
    for (int i = 0; i < CM; i++)
#pragma unroll
        for (int j = 0; j < CN; j++)
#pragma unroll
            for (int e = 0; e < 4; e++) cacc[i][j][e] = 0.0f;
    const int lane = l % 32, wm = l / 32 / TC::WGN, wn = l / 32 % TC::WGN, fq = lane >> 2, ft = lane & 3;
    (void)lane, (void)wm, (void)wn, (void)fq, (void)ft;
    const int KT = (K + BK - 1) / BK;
    /* EARLY operands (1: A, 2: B; values no step of the plan writes) are requested before this
     * kernel waits for the steps before it; the rest after */
#pragma unroll
    for (int s = 0; s < NST - 1; s++)
        if (EARLY && s < KT) load(s, s * BK, EARLY);
    if constexpr (EARLY != 0) gtc_wait_prior_steps();
#pragma unroll
    for (int s = 0; s < NST - 1; s++) {
        if (s < KT) load(s, s * BK, 3 & ~EARLY);
        gtc_cp_commit();
    }
    for (int kt = 0; kt < KT; kt++) {
        gtc_cp_wait<NST - 2>();
        __syncthreads();
        if (kt + NST - 1 < KT) load((kt + NST - 1) % NST, (kt + NST - 1) * BK, 3);
        gtc_cp_commit();
        const T *As = sm + kt % NST * TILE, *Bs = As + RA * SA;
        if constexpr (TF32) {
            /* A (m, k) and B (k, n) of this K step, in the tiles' global layouts */
            auto at = [&](int m, int k) { return gtc_tf32((float)(AK ? As[m * SA + k] : As[k * SA + m])); };
            auto bt = [&](int k, int n) { return gtc_tf32((float)(BK1 ? Bs[n * SB + k] : Bs[k * SB + n])); };
#pragma unroll
            for (int q = 0; q < KG; q += 8) {
                const int k8 = g * KG + q;
                unsigned a[CM][4], b[CN][2];
#pragma unroll
                for (int i = 0; i < CM; i++) {
                    const int r = (wm * CM + i) * 16 + fq;
                    a[i][0] = at(r, k8 + ft), a[i][1] = at(r + 8, k8 + ft);
                    a[i][2] = at(r, k8 + ft + 4), a[i][3] = at(r + 8, k8 + ft + 4);
                }
#pragma unroll
                for (int j = 0; j < CN; j++) {
                    const int c = (wn * CN + j) * 8 + fq;
                    b[j][0] = bt(k8 + ft, c), b[j][1] = bt(k8 + ft + 4, c);
                }
#pragma unroll
                for (int i = 0; i < CM; i++)
#pragma unroll
                    for (int j = 0; j < CN; j++) gtc_mma_tf32(cacc[i][j], a[i], b[j]);
            }
        } else {
#pragma unroll
            for (int q = 0; q < KG; q += 4) {
                const int k4 = g * KG + q;
                T a[4][TM], b[4][TN];
                if (AK) {
#pragma unroll
                    for (int i = 0; i < TM; i++) {
                        const GtcV4<T> v = *(const GtcV4<T> *)&As[(tm + GM * i) * SA + k4];
#pragma unroll
                        for (int kk = 0; kk < 4; kk++) a[kk][i] = v.v[kk];
                    }
                } else {
#pragma unroll
                    for (int kk = 0; kk < 4; kk++)
#pragma unroll
                        for (int i = 0; i < TM; i += 4) {
                            const GtcV4<T> v = *(const GtcV4<T> *)&As[(k4 + kk) * SA + tm * TM + i];
#pragma unroll
                            for (int e = 0; e < 4; e++) a[kk][i + e] = v.v[e];
                        }
                }
                if (BK1) {
#pragma unroll
                    for (int j = 0; j < TN; j++) {
                        const GtcV4<T> v = *(const GtcV4<T> *)&Bs[(tn + GN * j) * SB + k4];
#pragma unroll
                        for (int kk = 0; kk < 4; kk++) b[kk][j] = v.v[kk];
                    }
                } else {
#pragma unroll
                    for (int kk = 0; kk < 4; kk++) {
                        const GtcV4<T> v = *(const GtcV4<T> *)&Bs[(k4 + kk) * SB + tn * TN];
#pragma unroll
                        for (int e = 0; e < 4; e++) b[kk][e] = v.v[e];
                    }
                }
#pragma unroll
                for (int kk = 0; kk < 4; kk++)
#pragma unroll
                    for (int i = 0; i < TM; i++)
#pragma unroll
                        for (int j = 0; j < TN; j++) acc[i][j] = gtc_fma(a[kk][i], b[kk][j], acc[i][j]);
            }
        }
    }
    gtc_cp_wait<0>();
    __syncthreads();
    /* the groups' partial tiles, summed in group order */
    if constexpr (TF32) {
#pragma unroll
        for (int i = 0; i < CM; i++)
#pragma unroll
            for (int j = 0; j < CN; j++) {
                const int r = (wm * CM + i) * 16 + fq, c = (wn * CN + j) * 8 + 2 * ft;
                T *p = sm + (g * BM + r) * BNP + c;
                *(float2 *)p = make_float2(cacc[i][j][0], cacc[i][j][1]);
                *(float2 *)(p + 8 * BNP) = make_float2(cacc[i][j][2], cacc[i][j][3]);
            }
    } else {
#pragma unroll
        for (int i = 0; i < TM; i++)
#pragma unroll
            for (int j = 0; j < TN; j++) {
                const int r = AK ? tm + GM * i : tm * TM + i, c = BK1 ? tn + GN * j : tn * TN + j;
                sm[(g * BM + r) * BNP + c] = acc[i][j];
            }
    }
    __syncthreads();
#pragma unroll
    for (int e = tid; e < BM * BN; e += NT) {
        const int r = e / BN, c = e % BN, gm = m0 + r, gn = n0 + c;
        T s = sm[r * BNP + c];
#pragma unroll
        for (int k = 1; k < KS; k++) s = s + sm[(k * BM + r) * BNP + c];
        if (gm < M && gn < N) epi(gm, gn, s);
    }
}

/* Row i of a skinny product (N <= NN columns) by one warp: lanes stride over K, then one warp
 * reduction per column, so every lane ends with all of acc[0..N) (the same bits in each lane). */
template <class T, int NN>
__device__ __forceinline__ void gtc_warp_row_dot(const T *__restrict__ A, long long sam, long long sak,
                                                 const T *__restrict__ B, long long sbk, long long sbn,
                                                 int i, int N, int K, T (&acc)[NN]) {
    const int lane = threadIdx.x & 31;
#pragma unroll
    for (int j = 0; j < NN; j++) acc[j] = T(0);
#pragma unroll 8
    for (int k = lane; k < K; k += 32) {
        const T a = A[i * sam + k * sak];
#pragma unroll
        for (int j = 0; j < NN; j++) acc[j] = gtc_fma(a, j < N ? B[k * sbk + j * sbn] : T(0), acc[j]);
    }
#pragma unroll
    for (int j = 0; j < NN; j++) acc[j] = gtc_warp_reduce(acc[j], GtcSum());
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
    gtc_warp_row_dot<T, NN>(A, sam, sak, B, sbk, sbn, i, N, K, acc);
#pragma unroll
    for (int j = 0; j < NN; j++)
        if (lane == j && j < N) epi(i, j, acc[j]);
}

/* The warp's row of a skinny product (every lane holding all of acc[0..N)) into out[0..N), the
 * warp's row in shared memory, lane j storing column j; every lane sees it on return. */
template <class T, int NN> __device__ __forceinline__ void gtc_row_put(const T (&acc)[NN], int N, T *out) {
    const int lane = threadIdx.x & 31;
#pragma unroll
    for (int j = 0; j < NN; j++)
        if (lane == j && j < N) out[j] = acc[j];
    __syncwarp();
}

/* A row step's prologue (compiler/pass_fuse_row.c): row i of the skinny product into out[0..N),
 * the warp's row in shared memory, in gtc_gemm_skinny's order (the same bits); every lane of
 * the warp sees it on return. */
template <class T, int NN>
__device__ __forceinline__ void gtc_row_skinny(const T *__restrict__ A, long long sam, long long sak,
                                               const T *__restrict__ B, long long sbk, long long sbn,
                                               int i, int N, int K, T *out) {
    T acc[NN];
    gtc_warp_row_dot<T, NN>(A, sam, sak, B, sbk, sbn, i, N, K, acc);
    gtc_row_put<T, NN>(acc, N, out);
}

/* A lane row's epilogue column q (compiler/emit_cuda.c's gtc_j<q>): lane + 32 q, the last column
 * N - 1 past N (computed, not stored), so every load stays in range. */
__device__ __forceinline__ int gtc_lane_col(int q, int N) {
    const int j = (int)(threadIdx.x & 31) + 32 * q;
    return j < N ? j : N - 1;
}

/* A row step's product operand B in registers, read before the kernel waits for the steps before
 * it (compiler/emit_cuda.c: when no step it waits for writes B), so that no row waits on a round
 * trip for it: the prologue's b[q][j] = B[k][j] for k = lane + 32 q (0 past K or N), the
 * epilogue's b[q][k] = B[k][j] for the lane's column j = gtc_lane_col(q, N) (0 past K). */
template <class T, int KQ, int NN>
__device__ __forceinline__ void gtc_row_b_pro(const T *__restrict__ B, long long sbk, long long sbn, int N, int K, T (&b)[KQ][NN]) {
    const int lane = threadIdx.x & 31;
#pragma unroll
    for (int q = 0; q < KQ; q++)
#pragma unroll
        for (int j = 0; j < NN; j++) b[q][j] = lane + 32 * q < K && j < N ? B[(lane + 32 * q) * sbk + j * sbn] : T(0);
}
template <class T, int NQ, int KK>
__device__ __forceinline__ void gtc_row_b_epi(const T *__restrict__ B, long long sbk, long long sbn, int N, int K, T (&b)[NQ][KK]) {
    const int lane = threadIdx.x & 31;
#pragma unroll
    for (int q = 0; q < NQ; q++) {
        const int j = gtc_lane_col(q, N);
#pragma unroll
        for (int k = 0; k < KK; k++) b[q][k] = k < K ? B[k * sbk + j * sbn] : T(0);
    }
}
/* gtc_row_skinny with B from gtc_row_b_pro: the same multiply-adds in the same order (the same
 * bits). */
template <class T, int KQ, int NN>
__device__ __forceinline__ void gtc_row_skinny_r(const T *__restrict__ A, long long sam, long long sak, const T (&b)[KQ][NN],
                                                 int i, int N, int K, T *out) {
    const int lane = threadIdx.x & 31;
    T acc[NN];
#pragma unroll
    for (int j = 0; j < NN; j++) acc[j] = T(0);
#pragma unroll
    for (int q = 0; q < KQ; q++)
        if (lane + 32 * q < K) {
            const T a = A[i * sam + (lane + 32 * q) * sak];
#pragma unroll
            for (int j = 0; j < NN; j++) acc[j] = gtc_fma(a, b[q][j], acc[j]);
        }
#pragma unroll
    for (int j = 0; j < NN; j++) acc[j] = gtc_warp_reduce(acc[j], GtcSum());
    gtc_row_put<T, NN>(acc, N, out);
}

/* The K-term sum of a row step's epilogue column: the row a[0..K) (K <= KK, the warp's row in
 * shared memory) times bk(k), B's column, in gtc_gemm_smallk's order (the same bits). */
template <class T, int KK, class BK> __device__ __forceinline__ T gtc_row_dot_by(const T *a, BK bk, int K) {
    T acc = T(0);
#pragma unroll
    for (int k = 0; k < KK; k++)
        if (k < K) acc = gtc_fma(a[k], bk(k), acc);
    return acc;
}
/* ... with the lane's column of B from gtc_row_b_epi. */
template <class T, int KK> __device__ __forceinline__ T gtc_row_dot_r(const T *a, const T (&b)[KK], int K) {
    return gtc_row_dot_by<T, KK>(a, [&](int k) { return b[k]; }, K);
}

/* ... with column j of B ([K, N]) from memory. */
template <class T, int KK>
__device__ __forceinline__ T gtc_row_dot(const T *a, const T *__restrict__ B, long long sbk, long long sbn, int j, int K) {
    return gtc_row_dot_by<T, KK>(a, [&](int k) { return B[k * sbk + j * sbn]; }, K);
}

/* The whole epilogue product: lanes stride over the N columns. */
template <class T, int KK, class Epi>
__device__ __forceinline__ void gtc_row_smallk(const T *a, const T *__restrict__ B, long long sbk, long long sbn,
                                               int N, int K, Epi epi) {
    for (int j = threadIdx.x & 31; j < N; j += 32) epi(j, gtc_row_dot<T, KK>(a, B, sbk, sbn, j, K));
}

/* The same product when N <= NN is tiny and A's M axis is contiguous (A read transposed, as in a
 * weight gradient X^T dY): a block takes 8 rows of C; lane & 7 picks the row, so a warp reads 4
 * K rows of 8 consecutive elements of A per load, and the block's 32 (warp, lane >> 3) slices
 * stride over K; the slices' partials are summed by shuffles and then through shared memory in
 * slice order. */
template <class T, int NN, class Epi>
__device__ __forceinline__ void gtc_gemm_skinny_t(const T *__restrict__ A, long long sam, long long sak,
                                                  const T *__restrict__ B, long long sbk, long long sbn,
                                                  int M, int N, int K, Epi epi) {
    __shared__ T part[8][8][NN];
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5, r = lane & 7, i = blockIdx.x * 8 + r;
    T acc[NN];
#pragma unroll
    for (int j = 0; j < NN; j++) acc[j] = T(0);
    if (i < M) {
#pragma unroll 8
        for (int k = w * 4 + (lane >> 3); k < K; k += 32) {
            const T a = A[i * sam + k * sak];
#pragma unroll
            for (int j = 0; j < NN; j++) acc[j] = gtc_fma(a, j < N ? B[k * sbk + j * sbn] : T(0), acc[j]);
        }
    }
#pragma unroll
    for (int j = 0; j < NN; j++) {
        acc[j] = acc[j] + __shfl_xor_sync(0xffffffffu, acc[j], 8);
        acc[j] = acc[j] + __shfl_xor_sync(0xffffffffu, acc[j], 16);
        if (lane < 8) part[w][lane][j] = acc[j];
    }
    __syncthreads();
    if (threadIdx.x < 8 * NN) {
        const int rr = threadIdx.x & 7, j = threadIdx.x >> 3, ii = blockIdx.x * 8 + rr;
        T s = part[0][rr][j];
#pragma unroll
        for (int k = 1; k < 8; k++) s = s + part[k][rr][j];
        if (ii < M && j < N) epi(ii, j, s);
    }
}

/* A reduction over the leading axes for 8 consecutive outputs (columns) at once: the 256 threads
 * are 32 slices (threadIdx.x >> 3) of the reduced elements times 8 columns (threadIdx.x & 7), so
 * a warp reads 4 rows of 8 consecutive elements per load. Every thread passes its slice's
 * partial; threads 0..7 get their column's result (slices combined in a fixed order). */
template <class T, class F> __device__ T gtc_col_reduce(T v, F f) {
    __shared__ T buf[8][8];
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    v = f(v, __shfl_xor_sync(0xffffffffu, v, 8));
    v = f(v, __shfl_xor_sync(0xffffffffu, v, 16));
    if (lane < 8) buf[w][lane] = v;
    __syncthreads();
    if (threadIdx.x < 8)
        for (int k = 1; k < 8; k++) v = f(v, buf[k][threadIdx.x]);
    __syncthreads();
    return v;
}

/* The same product when K <= KK is tiny (an outer product, as in dY W^T through a 2-class
 * layer): one thread per element of C, grid-stride, consecutive threads on consecutive j (A's
 * value is shared, B's and the epilogue's accesses coalesce); K in order. Needs M * N < 2^31. */
template <class T, int KK, class Epi>
__device__ __forceinline__ void gtc_gemm_smallk(const T *__restrict__ A, long long sam, long long sak,
                                                const T *__restrict__ B, long long sbk, long long sbn,
                                                int M, int N, int K, Epi epi) {
    for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < M * N; e += gridDim.x * blockDim.x) {
        const int i = e / N, j = e % N;
        T acc = T(0);
#pragma unroll
        for (int k = 0; k < KK; k++)
            if (k < K) acc = gtc_fma(A[i * sam + k * sak], B[k * sbk + j * sbn], acc);
        epi(i, j, acc);
    }
}
