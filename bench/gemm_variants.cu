/* bench/gemm_variants.cu: the tiled GEMM of templates/kernels_prelude.cuh in several tile
 * shapes on the training step's two big products (x @ w1: 512x256x480, A's K contiguous;
 * x^T @ dh1: 480x256x512, A's M contiguous), next to the previous kernel (v0: 16x16 threads with
 * 2x2 micro-tiles). Each variant is checked against a float64 CPU product (relative error) and
 * timed as 20 launches in one CUDA Graph (median of 31 replays, per launch; bench/gemm_case.cuh), with a
 * bias epilogue.
 * The TF32 rows: the same template on tensor cores (gtc_gemm's TF32, --precision=tf32).
 * Build here: nvcc -std=c++17 -O3 -arch=sm_90 -o build/dev/gemm_variants bench/gemm_variants.cu
 * Run on the GPU machine: build/dev/gemm_variants */
#include "gemm_case.cuh"
#include "../templates/kernels_types.cuh"
#include "../ir/scalar.h"
#include "../templates/kernels_prelude.cuh"

template <class T, int BM, int BN, int BK, bool AK, bool BN1, class Epi>
__device__ __forceinline__ void gtc_gemm_v0(const T *__restrict__ A, long long sam, long long sak,
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


template <int M, int N, int K, bool AK, bool BK1, int BM, int BN, int TM, int KS, int BK, bool TF32 = false>
__global__ void __launch_bounds__(BM / TM * (BN / 4) * KS, 1)
kvar(const float *A, const float *B, const float *bias, float *C) {
    gtc_gemm<float, BM, BN, TM, KS, BK, AK, BK1, TF32, 4, 0>(A, AK ? K : 1, AK ? 1 : M, B, BK1 ? 1 : N, BK1 ? K : 1, M, N, K,
        [&](int i, int j, float acc) { C[i * N + j] = acc + bias[j]; });
}
template <int M, int N, int K, bool AK, bool BK1>
__global__ void __launch_bounds__(256) kold(const float *A, const float *B, const float *bias, float *C) {
    gtc_gemm_v0<float, 32, 32, 32, AK, !BK1>(A, AK ? K : 1, AK ? 1 : M, B, BK1 ? 1 : N, BK1 ? K : 1, M, N, K,
        [&](int i, int j, float acc) { C[i * N + j] = acc + bias[j]; });
}

#define VAR(C, BM_, BN_, TM_, KS_, BK_) \
    C.run(#BM_ "x" #BN_ " tm" #TM_ " ks" #KS_ " bk" #BK_, kvar<M_, N_, K_, AK_, BK1_, BM_, BN_, TM_, KS_, BK_>, \
          dim3((M_ + BM_ - 1) / BM_, (N_ + BN_ - 1) / BN_), BM_ / TM_ * (BN_ / 4) * KS_, \
          GtcGemmSmem<float, BM_, BN_, TM_, KS_, BK_, AK_, BK1_, false, 4>::BYTES)
/* the same tile on TF32 tensor cores (--precision=tf32): TF32's bound, 2^-11 per product term */
#define VAR_TC(C, BM_, BN_, TM_, KS_, BK_) \
    C.run(#BM_ "x" #BN_ " tm" #TM_ " ks" #KS_ " bk" #BK_ " tf32", kvar<M_, N_, K_, AK_, BK1_, BM_, BN_, TM_, KS_, BK_, true>, \
          dim3((M_ + BM_ - 1) / BM_, (N_ + BN_ - 1) / BN_), BM_ / TM_ * (BN_ / 4) * KS_, \
          GtcGemmSmem<float, BM_, BN_, TM_, KS_, BK_, AK_, BK1_, true, 4>::BYTES, 2e-3)

/* The split of K over thread-block clusters (64x64 tiles in clusters of 2 to 8: 11.5 us against
 * 7.3 for the emitted tile, bench/README.md) was removed from the template with the planner's
 * path to it; its rows went with it. */
template <int M_, int N_, int K_, bool AK_, bool BK1_> void shape(const char *name) {
    Case<M_, N_, K_, AK_, BK1_> c(name);
    c.run("v0 32x32 2x2 (before)", kold<M_, N_, K_, AK_, BK1_>, dim3((M_ + 31) / 32, (N_ + 31) / 32));
    VAR(c, 32, 32, 8, 8, 64);  /* emitted */
    VAR(c, 32, 32, 4, 4, 32);
    VAR(c, 32, 32, 4, 8, 64);  /* 512 threads */
    VAR(c, 32, 32, 4, 8, 32);  /* 512 threads */
    VAR(c, 16, 16, 4, 16, 64);
    VAR(c, 64, 64, 4, 1, 16);
    VAR_TC(c, 32, 32, 8, 8, 64);  /* emitted with --precision=tf32 */
    VAR_TC(c, 32, 32, 8, 8, 128);
    VAR_TC(c, 32, 32, 8, 16, 128);
    VAR_TC(c, 64, 64, 4, 1, 16);
    VAR_TC(c, 64, 32, 4, 2, 16);
    VAR_TC(c, 32, 64, 4, 2, 16);
}

int main() {
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    printf("gemm_variants on %s (%d SMs)\n", p.name, p.multiProcessorCount);
    shape<512, 256, 480, true, false>("x@w1 512x256x480");
    shape<480, 256, 512, false, false>("x^T@dh1 480x256x512");
    shape<512, 256, 480, true, true>("A@B^T 512x256x480");
    shape<500, 250, 470, true, false>("ragged 500x250x470");
    shape<1024, 1024, 1024, true, false>("1024^3");
    return 0;
}
