/* bench/gemm_split.cu: TF32 tensor-core products of the 480-256-2 training step's size
 * (512x256x480 and its weight gradient 480x256x512): the tiled kernel gtc_gemm emits (32x32
 * tiles, 8 K groups of one warp) with 4 K steps in flight and with all of K in flight (NST, as
 * pass_lower.c chooses when the grid fits in one wave), against gtc_gemm_tc below, a split of K
 * over the blocks of a thread-block cluster (each block holding its whole slice in flight, the
 * partial tiles summed through distributed shared memory, deterministic). gtc_gemm_tc lost to
 * the emitted kernel in every shape tried (bench/README.md, "TF32 products of the 480-256-2
 * step"); it stays here as the measured alternative. Each variant is checked against a float64
 * CPU product and for the same bits twice, then timed as 20 launches in one CUDA Graph (median
 * of 31 replays, per launch), plain and with programmatic dependent launch (the executor's edges
 * on sm_90), next to an empty kernel. kcsplit: the emitted template itself with K split over a
 * cluster (it loses as well). Each gtc_gemm_tc row also says how many blocks an SM holds and
 * how many of its clusters the GPU holds at once (the mb2 rows ask registers for two blocks per
 * SM): the forms whose clusters all fit at once lose as well, so a second wave is not why they lose.
 * Build here: nvcc -std=c++17 -O3 -arch=sm_90 -o build/dev/gemm_split bench/gemm_split.cu
 * Run on the GPU machine: build/dev/gemm_split (`tiles`: only the emitted template unsplit in
 * tiles bigger than 32x32; any other argument: one checked launch per variant, for ncu) */
#include "gemm_case.cuh"
#include "../templates/kernels_types.cuh"
#include "../ir/scalar.h"
#include "../templates/kernels_prelude.cuh"

static bool g_tiles = false; /* `tiles`: only the emitted template unsplit in bigger tiles */

/* Thread-block clusters (sm_90): a split barrier (arrive, then wait; writes before the arrive are
 * visible after the wait to every block of the cluster), and a 16-byte store into block `rank`'s
 * shared memory at the address p has in this block's (mapa + st.shared::cluster). */
__device__ __forceinline__ void gtc_cluster_arrive() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("barrier.cluster.arrive.release.aligned;\n" ::: "memory");
#endif
}
__device__ __forceinline__ void gtc_cluster_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("barrier.cluster.wait.acquire.aligned;\n" ::: "memory");
#endif
}
__device__ __forceinline__ void gtc_cluster_st4(float *p, unsigned rank, float4 v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    unsigned r;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(gtc_smem_u32(p)), "r"(rank));
    asm volatile("st.shared::cluster.v4.f32 [%0], {%1, %2, %3, %4};" ::"r"(r), "f"(v.x), "f"(v.y), "f"(v.z), "f"(v.w)
                 : "memory");
#else
    __trap(); /* sm_90 and later only */
    (void)p, (void)rank, (void)v;
#endif
}

/* gtc_gemm_tc's shared memory: NST K steps of BK in flight, the A and B tiles in their global
 * layout with rows padded so the mma fragments' reads hit distinct banks (a K-contiguous row
 * BK + 4 elements, an M- or N-contiguous row BM + 8 / BN + 8), or the WK warp groups' partial
 * tiles at the end (rows padded by 8), whichever is larger; then, with S > 1, the tile once more:
 * the S ranks' shares of the tile this block sums. */
template <int BM, int BN, int BK, int NST, int WK, int S, bool AK, bool BK1> struct GtcGemmTcSmem {
    static constexpr int RA = AK ? BM : BK, CA = AK ? BK : BM, SA = AK ? BK + 4 : BM + 8;
    static constexpr int RB = BK1 ? BN : BK, CB = BK1 ? BK : BN, SB = BK1 ? BK + 4 : BN + 8;
    static constexpr int BNP = BN + 8, TILE = RA * SA + RB * SB, PIPE = NST * TILE * 4, RED = WK * BM * BNP * 4;
    static constexpr int MAIN = PIPE > RED ? PIPE : RED, BYTES = MAIN + (S > 1 ? BM * BN * 4 : 0);
};

/* C = A B for one BM x BN tile of C on TF32 tensor cores, K split over the S blocks of a cluster
 * (blockIdx.z, the cluster's rank: rank r multiplies its own slice of K). Why: a product as small
 * as the 480-256-2 step's (512x256x480) has 32-128 tiles, and a block that walks all of K a few
 * steps at a time waits on L2 latency at every step with its SM nearly idle; split over a
 * cluster, each block has its whole slice in flight at once (NST steps of BK). WM x WN x WK
 * warps: the tile in WM x WN warp tiles of m16n8 mma tiles, the K steps dealt to WK warp groups.
 * The groups' partial tiles are summed in shared memory in group order; each rank then sends
 * share q of its sum to rank q (distributed shared memory), and after one cluster barrier rank q
 * sums the S shares it holds in rank order and stores them (deterministic). Operands rounded to
 * TF32, fp32 accumulation; any M, N, K and strides (16-byte copies where they allow, else
 * element copies, zero-filled outside M, N and the slice). epi(i, j, acc) as in gtc_gemm. */
template <int BM, int BN, int BK, int NST, int S, int WM, int WN, int WK, bool AK, bool BK1, class Epi>
__device__ __forceinline__ void gtc_gemm_tc(const float *__restrict__ A, long long sam, long long sak,
                                            const float *__restrict__ B, long long sbk, long long sbn,
                                            int M, int N, int K, Epi epi) {
    using L = GtcGemmTcSmem<BM, BN, BK, NST, WK, S, AK, BK1>;
    constexpr int NT = WM * WN * WK * 32, CM = BM / WM / 16, CN = BN / WN / 8, SH = BM * BN / S;
    constexpr int RA = L::RA, CA = L::CA, SA = L::SA, RB = L::RB, CB = L::CB, SB = L::SB, TILE = L::TILE, BNP = L::BNP;
    static_assert(CM * WM * 16 == BM && CN * WN * 8 == BN && BK % (8 * WK) == 0, "warp tiles cover the tile");
    static_assert(NST >= 2 && SH % 4 == 0 && BN % 4 == 0 && S >= 1 && S <= 8, "a pipeline; ranks' shares of the tile");
    unsigned dyn;
    asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dyn));
    if (dyn < (unsigned)L::BYTES) __trap(); /* launched with less than the tile needs */
    if constexpr (S > 1) gtc_cluster_arrive(); /* waited before the first remote store: every rank has started */
    float *const sm = (float *)gtc_dsmem, *const recv = sm + L::MAIN / 4;
    const int tid = threadIdx.x, m0 = (int)blockIdx.x * BM, n0 = (int)blockIdx.y * BN;
    const int rank = S > 1 ? (int)blockIdx.z : 0, Kc = ((K + S - 1) / S + 7) / 8 * 8;
    const int kb = rank * Kc, ke = K < kb + Kc ? K : kb + Kc, KT = ke > kb ? (ke - kb + BK - 1) / BK : 0;
    const bool va = (AK ? sak == 1 && sam % 4 == 0 && K % 4 == 0 : sam == 1 && sak % 4 == 0 && M % 4 == 0) &&
                    ((unsigned long long)A & 15) == 0;
    const bool vb = (BK1 ? sbk == 1 && sbn % 4 == 0 && K % 4 == 0 : sbn == 1 && sbk % 4 == 0 && N % 4 == 0) &&
                    ((unsigned long long)B & 15) == 0;
    auto load = [&](int st, int k0) {
        float *As = sm + st * TILE, *Bs = As + RA * SA;
#pragma unroll 4
        for (int c = tid; c < RA * CA / 4; c += NT) {
            const int r = c / (CA / 4), cc = c % (CA / 4) * 4, m = m0 + (AK ? r : cc), k = k0 + (AK ? cc : r);
            const float *src = A + (long long)m * sam + (long long)k * sak;
            if (va) {
                const bool ok = m < M && k < ke;
                gtc_cp_async<16>(As + r * SA + cc, ok ? src : A, ok);
            } else {
#pragma unroll
                for (int v = 0; v < 4; v++) {
                    const bool ok = m + (AK ? 0 : v) < M && k + (AK ? v : 0) < ke;
                    gtc_cp_async<4>(As + r * SA + cc + v, ok ? src + (AK ? v * sak : v * sam) : A, ok);
                }
            }
        }
#pragma unroll 4
        for (int c = tid; c < RB * CB / 4; c += NT) {
            const int r = c / (CB / 4), cc = c % (CB / 4) * 4, n = n0 + (BK1 ? r : cc), k = k0 + (BK1 ? cc : r);
            const float *src = B + (long long)k * sbk + (long long)n * sbn;
            if (vb) {
                const bool ok = n < N && k < ke;
                gtc_cp_async<16>(Bs + r * SB + cc, ok ? src : B, ok);
            } else {
#pragma unroll
                for (int v = 0; v < 4; v++) {
                    const bool ok = n + (BK1 ? 0 : v) < N && k + (BK1 ? v : 0) < ke;
                    gtc_cp_async<4>(Bs + r * SB + cc + v, ok ? src + (BK1 ? v * sbk : v * sbn) : B, ok);
                }
            }
        }
    };
    const int w = tid / 32, wk = w / (WM * WN), wm = w % (WM * WN) / WN, wn = w % WN, fq = (tid & 31) >> 2, ft = tid & 3;
    float acc[CM][CN][4];
#pragma unroll
    for (int i = 0; i < CM; i++)
#pragma unroll
        for (int j = 0; j < CN; j++)
#pragma unroll
            for (int e = 0; e < 4; e++) acc[i][j][e] = 0.0f;
#pragma unroll
    for (int s = 0; s < NST - 1; s++) {
        if (s < KT) load(s, kb + s * BK);
        gtc_cp_commit();
    }
    for (int kt = 0; kt < KT; kt++) {
        gtc_cp_wait<NST - 2>();
        __syncthreads();
        if (kt + NST - 1 < KT) load((kt + NST - 1) % NST, kb + (kt + NST - 1) * BK);
        gtc_cp_commit();
        const float *As = sm + kt % NST * TILE, *Bs = As + RA * SA;
        auto at = [&](int m, int k) { return gtc_tf32(AK ? As[m * SA + k] : As[k * SA + m]); };
        auto bt = [&](int k, int n) { return gtc_tf32(BK1 ? Bs[n * SB + k] : Bs[k * SB + n]); };
#pragma unroll
        for (int q = wk * 8; q < BK; q += 8 * WK) {
            unsigned a[CM][4], b[CN][2];
#pragma unroll
            for (int i = 0; i < CM; i++) {
                const int r = (wm * CM + i) * 16 + fq;
                a[i][0] = at(r, q + ft), a[i][1] = at(r + 8, q + ft), a[i][2] = at(r, q + ft + 4), a[i][3] = at(r + 8, q + ft + 4);
            }
#pragma unroll
            for (int j = 0; j < CN; j++) {
                const int c = (wn * CN + j) * 8 + fq;
                b[j][0] = bt(q + ft, c), b[j][1] = bt(q + ft + 4, c);
            }
#pragma unroll
            for (int i = 0; i < CM; i++)
#pragma unroll
                for (int j = 0; j < CN; j++) gtc_mma_tf32(acc[i][j], a[i], b[j]);
        }
    }
    gtc_cp_wait<0>();
    __syncthreads();
    /* the warp groups' partial tiles */
#pragma unroll
    for (int i = 0; i < CM; i++)
#pragma unroll
        for (int j = 0; j < CN; j++) {
            const int r = (wm * CM + i) * 16 + fq, c = (wn * CN + j) * 8 + 2 * ft;
            float *p = sm + (wk * BM + r) * BNP + c;
            *(float2 *)p = make_float2(acc[i][j][0], acc[i][j][1]);
            *(float2 *)(p + 8 * BNP) = make_float2(acc[i][j][2], acc[i][j][3]);
        }
    __syncthreads();
    /* their sum in group order, four consecutive elements of a row at a time: stored (S == 1), or
     * sent to the rank that sums that share of the tile */
    if constexpr (S > 1) gtc_cluster_wait();
    for (int e = tid * 4; e < BM * BN; e += NT * 4) {
        const int er = e / BN * BNP + e % BN;
        float4 s = *(const float4 *)(sm + er);
#pragma unroll
        for (int g = 1; g < WK; g++) {
            const float4 t = *(const float4 *)(sm + g * BM * BNP + er);
            s.x = s.x + t.x, s.y = s.y + t.y, s.z = s.z + t.z, s.w = s.w + t.w;
        }
        if constexpr (S == 1) {
            const int gm = m0 + e / BN, gn = n0 + e % BN;
            if (gm < M) {
                if (gn < N) epi(gm, gn, s.x);
                if (gn + 1 < N) epi(gm, gn + 1, s.y);
                if (gn + 2 < N) epi(gm, gn + 2, s.z);
                if (gn + 3 < N) epi(gm, gn + 3, s.w);
            }
        } else {
            gtc_cluster_st4(recv + rank * SH + e % SH, (unsigned)(e / SH), s);
        }
    }
    if constexpr (S > 1) {
        gtc_cluster_arrive();
        gtc_cluster_wait();
        for (int e = tid * 4; e < SH; e += NT * 4) {
            float4 s = *(const float4 *)(recv + e);
#pragma unroll
            for (int q = 1; q < S; q++) {
                const float4 t = *(const float4 *)(recv + q * SH + e);
                s.x = s.x + t.x, s.y = s.y + t.y, s.z = s.z + t.z, s.w = s.w + t.w;
            }
            const int te = rank * SH + e, gm = m0 + te / BN, gn = n0 + te % BN;
            if (gm < M) {
                if (gn < N) epi(gm, gn, s.x);
                if (gn + 1 < N) epi(gm, gn + 1, s.y);
                if (gn + 2 < N) epi(gm, gn + 2, s.z);
                if (gn + 3 < N) epi(gm, gn + 3, s.w);
            }
        }
    }
}


template <int M, int N, int K, bool AK, bool BK1, int BM, int BN, int TM, int KS, int BK, int NST, int EARLY = 0>
__global__ void __launch_bounds__(BM / TM * (BN / 4) * KS, 1)
kold(const float *A, const float *B, const float *bias, float *C) {
    if (!EARLY) gtc_wait_prior_steps();
    gtc_gemm<float, BM, BN, TM, KS, BK, AK, BK1, true, NST, EARLY>(A, AK ? K : 1, AK ? 1 : M, B, BK1 ? 1 : N, BK1 ? K : 1, M, N, K,
        [&](int i, int j, float acc) { C[i * N + j] = acc + bias[j]; });
}
__global__ void kempty(const float *, const float *, const float *, float *) { gtc_wait_prior_steps(); }

__device__ __forceinline__ float4 gtc_cluster_ld4(const float *p, unsigned rank) {
    float4 v;
    unsigned r;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(gtc_smem_u32(p)), "r"(rank));
    asm volatile("ld.shared::cluster.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "r"(r) : "memory");
    return v;
}
/* gtc_gemm itself with K split over the S blocks of a cluster (blockIdx.z = rank): rank r runs the
 * emitted template on its slice of K (a multiple of 4, so 16-byte copies stay aligned), keeps its
 * partial BM x BN tile in shared memory, and after one cluster barrier sums rows [r BM / S, ...)
 * of the tile over the ranks in rank order (deterministic) from their shared memory (DSMEM), with
 * the bias. BM x BN tiles bigger than the emitted 32x32 halve (64x64) the L2 traffic; the split
 * keeps 128 blocks. */
template <int M, int N, int K, bool AK, bool BK1, int BM, int BN, int TM, int KS, int BK, int NST, int S>
__global__ void __cluster_dims__(1, 1, S) __launch_bounds__(BM / TM * (BN / 4) * KS, 1)
kcsplit(const float *A, const float *B, const float *bias, float *C) {
    constexpr int NT = BM / TM * (BN / 4) * KS, KC = ((K + S - 1) / S + 3) / 4 * 4;
    static_assert((BM / S) * BN % (4 * NT) == 0 || (BM / S) * BN < 4 * NT, "each thread sums whole float4s");
    __shared__ __align__(16) float part[BM * BN];
    const int rank = blockIdx.z, kb = rank * KC, kc = K - kb < KC ? K - kb : KC;
    const long long sam = AK ? K : 1, sak = AK ? 1 : M, sbk = BK1 ? 1 : N, sbn = BK1 ? K : 1;
    const int m0 = blockIdx.x * BM, n0 = blockIdx.y * BN;
    gtc_wait_prior_steps();
    gtc_gemm<float, BM, BN, TM, KS, BK, AK, BK1, true, NST, 0>(A + kb * sak, sam, sak, B + kb * sbk, sbk, sbn, M, N, kc,
        [&](int i, int j, float acc) { part[(i - m0) * BN + (j - n0)] = acc; });
    gtc_cluster_arrive();
    gtc_cluster_wait();
    for (int e = threadIdx.x * 4; e < BM / S * BN; e += NT * 4) {
        const int r = rank * (BM / S) + e / BN, c = e % BN;
        float4 t = gtc_cluster_ld4(part + r * BN + c, 0);
#pragma unroll
        for (int q = 1; q < S; q++) {
            const float4 u = gtc_cluster_ld4(part + r * BN + c, q);
            t.x = t.x + u.x, t.y = t.y + u.y, t.z = t.z + u.z, t.w = t.w + u.w;
        }
        const int gm = m0 + r, gn = n0 + c;
        if (gm < M) {
            const float v[4] = {t.x, t.y, t.z, t.w};
#pragma unroll
            for (int u = 0; u < 4; u++)
                if (gn + u < N) C[gm * N + gn + u] = v[u] + bias[gn + u];
        }
    }
    gtc_cluster_arrive(); /* no block leaves while a peer may still read its tile */
    gtc_cluster_wait();
}
#define CSPLIT(C, BM_, BN_, TM_, KS_, BK_, NST_, S_) \
    do { \
        auto k_ = kcsplit<M_, N_, K_, AK_, BK1_, BM_, BN_, TM_, KS_, BK_, NST_, S_>; \
        const dim3 g_((M_ + BM_ - 1) / BM_, (N_ + BN_ - 1) / BN_, S_); \
        const int sm_ = GtcGemmSmem<float, BM_, BN_, TM_, KS_, BK_, AK_, BK1_, true, NST_>::BYTES; \
        C.run("gtc_gemm " #BM_ "x" #BN_ " tm" #TM_ " ks" #KS_ " bk" #BK_ " st" #NST_ " K/" #S_, k_, g_, \
              BM_ / TM_ * (BN_ / 4) * KS_, sm_, 2e-3); \
        fit(k_, g_, BM_ / TM_ * (BN_ / 4) * KS_, sm_, S_); \
    } while (0)

template <int M, int N, int K, bool AK, bool BK1, int BM, int BN, int BK, int NST, int S, int WM, int WN, int WK, int MB>
__global__ void __cluster_dims__(1, 1, S) __launch_bounds__(WM * WN * WK * 32, MB)
knew(const float *A, const float *B, const float *bias, float *C) {
    gtc_wait_prior_steps();
    gtc_gemm_tc<BM, BN, BK, NST, S, WM, WN, WK, AK, BK1>(A, AK ? K : 1, AK ? 1 : M, B, BK1 ? 1 : N, BK1 ? K : 1, M, N, K,
        [&](int i, int j, float acc) { C[i * N + j] = acc + bias[j]; });
}

#define OLD(C, BM_, BN_, TM_, KS_, BK_, NST_) \
    C.run("gtc_gemm " #BM_ "x" #BN_ " tm" #TM_ " ks" #KS_ " bk" #BK_ " st" #NST_, \
          kold<M_, N_, K_, AK_, BK1_, BM_, BN_, TM_, KS_, BK_, NST_>, \
          dim3((M_ + BM_ - 1) / BM_, (N_ + BN_ - 1) / BN_), BM_ / TM_ * (BN_ / 4) * KS_, \
          GtcGemmSmem<float, BM_, BN_, TM_, KS_, BK_, AK_, BK1_, true, NST_>::BYTES, 2e-3)
/* blocks per SM and clusters at once (bench_clusters_at_once) */
template <class Kern> void fit(Kern k, dim3 grid, int threads, int smem, int S) {
    int per_sm = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, threads, smem));
    printf("%-22s   (%d blocks per SM; %d of %u clusters at once)\n", "", per_sm,
           S > 1 ? bench_clusters_at_once(k, grid, threads, smem, dim3(1, 1, 1)) : 0, grid.x * grid.y * grid.z / S);
}
/* MB_: the blocks per SM __launch_bounds__ asks registers for */
#define NEW_MB(C, BM_, BN_, BK_, NST_, S_, WM_, WN_, WK_, MB_) \
    do { \
        auto k_ = knew<M_, N_, K_, AK_, BK1_, BM_, BN_, BK_, NST_, S_, WM_, WN_, WK_, MB_>; \
        const dim3 g_((M_ + BM_ - 1) / BM_, (N_ + BN_ - 1) / BN_, S_); \
        const int sm_ = GtcGemmTcSmem<BM_, BN_, BK_, NST_, WK_, S_, AK_, BK1_>::BYTES; \
        C.run("tc " #BM_ "x" #BN_ " bk" #BK_ " st" #NST_ " S" #S_ " w" #WM_ "x" #WN_ "x" #WK_ " mb" #MB_, k_, g_, \
              WM_ * WN_ * WK_ * 32, sm_, 2e-3); \
        fit(k_, g_, WM_ * WN_ * WK_ * 32, sm_, S_); \
    } while (0)
#define NEW(C, BM_, BN_, BK_, NST_, S_, WM_, WN_, WK_) NEW_MB(C, BM_, BN_, BK_, NST_, S_, WM_, WN_, WK_, 1)

template <int M_, int N_, int K_, bool AK_, bool BK1_> void shape(const char *name) {
    Case<M_, N_, K_, AK_, BK1_> c(name);
    if (g_tiles) { /* the emitted template unsplit, tiles bigger than 32x32: fewer operand bytes */
        c.run("empty kernel", kempty, dim3(128), 256, 0, 1e30);
        OLD(c, 32, 32, 8, 8, 64, 9);  /* emitted */
        OLD(c, 64, 32, 16, 8, 64, 8); /* 64 blocks, 7 of 8 K steps in flight */
        OLD(c, 64, 32, 16, 8, 64, 5);
        OLD(c, 64, 32, 8, 4, 64, 8);  /* 4 groups of 2 warps */
        OLD(c, 32, 64, 16, 8, 64, 8);
        OLD(c, 32, 64, 16, 8, 64, 5);
        OLD(c, 32, 64, 8, 4, 64, 8);
        OLD(c, 64, 64, 32, 8, 64, 6); /* 32 blocks */
        OLD(c, 64, 64, 16, 4, 64, 6);
        OLD(c, 64, 64, 16, 8, 64, 6); /* 512 threads */
        return;
    }
    if (g_quick) { /* one launch each, for ncu */
        OLD(c, 32, 32, 8, 8, 64, 9);
        NEW(c, 64, 64, 32, 5, 4, 2, 2, 2);
        return;
    }
    c.run("empty kernel", kempty, dim3(128), 256, 0, 1e30);
    OLD(c, 32, 32, 8, 8, 64, 4);
    OLD(c, 32, 32, 8, 8, 64, 9);       /* emitted: all of K in flight */
    c.run("gtc_gemm 32x32 tm8 ks8 bk64 st9 EARLY A (emitted)", kold<M_, N_, K_, AK_, BK1_, 32, 32, 8, 8, 64, 9, 1>, dim3((M_ + 31) / 32, (N_ + 31) / 32),
          256, GtcGemmSmem<float, 32, 32, 8, 8, 64, AK_, BK1_, true, 9>::BYTES, 2e-3);
    OLD(c, 32, 32, 8, 16, 128, 4);     /* 512 threads */
    OLD(c, 32, 32, 4, 8, 64, 4);
    OLD(c, 16, 32, 4, 8, 64, 4);       /* 256 blocks */
    NEW(c, 32, 32, 64, 9, 1, 1, 1, 8); /* the emitted split, no cluster */
    NEW(c, 32, 32, 64, 5, 2, 1, 1, 8);
    NEW(c, 64, 64, 32, 5, 4, 2, 2, 2);
    NEW(c, 64, 64, 32, 5, 4, 2, 2, 4); /* 512 threads */
    NEW(c, 64, 64, 32, 3, 8, 2, 2, 2);
    NEW(c, 128, 64, 32, 3, 8, 4, 2, 2);
    NEW(c, 32, 64, 32, 5, 4, 1, 2, 4);
    /* gtc_gemm itself, K split over a cluster */
    CSPLIT(c, 64, 64, 8, 2, 32, 5, 4);
    CSPLIT(c, 64, 64, 8, 4, 32, 5, 4); /* 512 threads */
    CSPLIT(c, 64, 64, 4, 1, 32, 5, 4); /* 256 threads, one group */
    CSPLIT(c, 32, 64, 8, 4, 32, 5, 2);
    CSPLIT(c, 64, 32, 8, 4, 32, 5, 2);
    CSPLIT(c, 32, 32, 8, 8, 64, 5, 2);
    /* registers for two blocks per SM, so that every cluster fits at once */
    NEW_MB(c, 32, 32, 64, 5, 2, 1, 1, 8, 2);
    NEW_MB(c, 64, 64, 32, 5, 4, 2, 2, 2, 2);
    NEW_MB(c, 64, 64, 32, 3, 4, 2, 2, 2, 2);
    NEW_MB(c, 64, 64, 32, 3, 8, 2, 2, 2, 2);
    NEW_MB(c, 64, 32, 32, 5, 4, 2, 1, 4, 2);
    NEW_MB(c, 32, 64, 32, 5, 4, 1, 2, 4, 2);
}

int main(int argc, char **argv) {
    g_tiles = argc > 1 && !strcmp(argv[1], "tiles");
    g_quick = argc > 1 && !g_tiles;
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    printf("gemm_split on %s (%d SMs)\n", p.name, p.multiProcessorCount);
    shape<512, 256, 480, true, false>("x@w1 512x256x480");
    shape<480, 256, 512, false, false>("x^T@dh1 480x256x512");
    if (g_quick || g_tiles) return 0;
    shape<500, 250, 470, true, true>("ragged 500x250x470");
    shape<500, 250, 470, false, false>("ragged^T 500x250x470");
    return 0;
}
