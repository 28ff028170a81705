/* templates/kernels_cpu_gemm.h: the CPU backend's one GEMM call, row-major with alpha 1 and
 * beta 0, for eager matmul (runtime/cpu/cpu_matmul.c includes this file) and for the GEMM steps
 * of generated code (kernels_cpu.c carries a copy after <cblas.h>). A float32 product of fewer
 * than GTC_CPU_SGEMM_OWN_MAX multiply-adds (m*n*k) runs gtc's own kernel (below: the same bits
 * whatever the ISA, flags, layout or threads), a larger one and every float64 one OpenBLAS's
 * cblas. A product of fewer than GTC_CPU_GEMM_PAR_MIN multiply-adds runs on the calling thread:
 * waking the thread pool costs more than such a product gains from it (docs/cpu.md, "Small
 * products"), and OpenBLAS's bits are then the same at any thread count (its split of a
 * product over threads can change its rounding). */
#ifndef GTC_KERNELS_CPU_GEMM_H
#define GTC_KERNELS_CPU_GEMM_H
#ifdef _OPENMP
#include <omp.h>
#endif

#define GTC_CPU_GEMM_PAR_MIN 4194304.0 /* multiply-adds: 256x128x128 */
#ifndef GTC_CPU_SGEMM_OWN_MAX
#define GTC_CPU_SGEMM_OWN_MAX 134217728.0 /* multiply-adds: 512x512x512 (docs/cpu.md, "Small products") */
#endif

/* Makes the next BLAS call single-threaded when the product has fewer than
 * GTC_CPU_GEMM_PAR_MIN multiply-adds; returns what gtc_cpu_gemm_end restores (0: nothing).
 * OpenBLAS's OpenMP build takes its thread count from OpenMP's (omp_get_max_threads, a
 * per-thread setting: two costless writes, nothing shared); its pthreads build from
 * openblas_set_num_threads (process-wide: a product of another thread that starts meanwhile
 * runs single-threaded too, with the same bits). */
static inline int gtc_cpu_gemm_begin(double mnk) {
    if (mnk >= GTC_CPU_GEMM_PAR_MIN) return 0;
#ifdef _OPENMP
    if (openblas_get_parallel() == 2) {
        int n = omp_get_max_threads();
        if (n <= 1 || omp_in_parallel()) return 0; /* one thread already */
        omp_set_num_threads(1);
        return n;
    }
#endif
    int n = openblas_get_num_threads();
    if (n <= 1) return 0;
    openblas_set_num_threads(1);
    return -n;
}

static inline void gtc_cpu_gemm_end(int saved) {
#ifdef _OPENMP
    if (saved > 0) omp_set_num_threads(saved);
#endif
    if (saved < 0) openblas_set_num_threads(-saved);
}

/* ---- gtc's own float32 kernel for products below GTC_CPU_SGEMM_OWN_MAX multiply-adds ----
 * Each c[i][j] is one chain over k in order, c = fmaf(op(a)[i][p], op(b)[p][j], c) from c = +0
 * for p = 0, 1, ..., k - 1: fused multiply-adds are exactly specified, so the AVX-512, AVX2 and
 * scalar paths below give the same bits, whatever the compiler flags (eager matmul in gtc.so,
 * generated code at -O3 -ffp-contract=off), the transposes, the leading dimensions, the shape
 * around the element and the thread count (docs/cpu.md, "Small products"). Vectorised across j:
 * a tile of MR rows (2 MR with one vector) by two vectors of columns held in registers (1-3
 * rows: four vectors, gtc_sg_wide), op(a) read in place, op(b) in place when it is row-major
 * and small or a has few rows, else copied panel by panel (GTC_SG_KC rows, on the stack); a
 * chain cut at a panel's end is stored into c and reloaded, which is exact. */
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define GTC_SG_X86 1
#endif
#include <math.h>

#define GTC_SG_KC 256 /* rows of op(b) per copied panel: 256 x 32 floats = 32 KiB */

/* op(b)[p0 + p][j0 + j] for p < kc, j < nr into dst (row stride w) from b stored transposed
 * (b[j][p], ldb): blocks of 8 x 8 transposed in AVX registers, the edges one at a time. */
#ifdef GTC_SG_X86
__attribute__((always_inline, target("avx")))
#endif
static inline void gtc_sg_pack_t(float *dst, int w, const float *b, int ldb, int p0, int kc, int j0, int nr) {
    int j8 = 0, p8 = 0;
#ifdef GTC_SG_X86
    p8 = kc / 8 * 8;
    for (; j8 + 8 <= nr; j8 += 8)
        for (int p = 0; p < p8; p += 8) {
            const float *s = b + (long)(j0 + j8) * ldb + p0 + p;
            __m256 r[8], t[8];
            for (int q = 0; q < 8; q++) r[q] = _mm256_loadu_ps(s + (long)q * ldb);
            for (int q = 0; q < 8; q += 2)
                t[q] = _mm256_unpacklo_ps(r[q], r[q + 1]), t[q + 1] = _mm256_unpackhi_ps(r[q], r[q + 1]);
            for (int q = 0; q < 8; q += 4) {
                r[q] = _mm256_shuffle_ps(t[q], t[q + 2], 0x44), r[q + 1] = _mm256_shuffle_ps(t[q], t[q + 2], 0xEE);
                r[q + 2] = _mm256_shuffle_ps(t[q + 1], t[q + 3], 0x44);
                r[q + 3] = _mm256_shuffle_ps(t[q + 1], t[q + 3], 0xEE);
            }
            for (int q = 0; q < 4; q++) {
                _mm256_storeu_ps(dst + (long)(p + q) * w + j8, _mm256_permute2f128_ps(r[q], r[q + 4], 0x20));
                _mm256_storeu_ps(dst + (long)(p + q + 4) * w + j8, _mm256_permute2f128_ps(r[q], r[q + 4], 0x31));
            }
        }
#endif
    for (int p = 0; p < kc; p++)
        for (int j = p < p8 ? j8 : 0; j < nr; j++) dst[(long)p * w + j] = b[(long)(j0 + j) * ldb + p0 + p];
}

/* One ISA's kernel, written once for both vector widths (W floats, type V, column mask MT,
 * MR rows a tile): gtc_sg_tile_ISA runs kc steps of an mr x (nv vectors) tile's chains (first:
 * from +0, else from c; b's columns past the panel's end masked off), gtc_sg_rows_ISA the tiles
 * down one column panel, gtc_sg_ISA the loops over column panels (two vectors wide) and k
 * panels. a is read in place: element (i, p) at a[i * ars + p * aps]. */
#define GTC_SG_DEFINE(ISA, TGT, V, MT, W, MR, ZERO, LOADM, STOREM, STORE, SET1, FMA, MASK)                             \
    /* op(b)'s panel into dst (2 W columns a row; the kernel masks off those past nr) */                               \
    static inline __attribute__((always_inline, target(TGT))) void gtc_sg_pack_##ISA(                                  \
        float *dst, int tb, const float *b, int ldb, int p0, int kc, int j0, int nr, MT m0, MT m1) {                   \
        if (tb) {                                                                                                      \
            gtc_sg_pack_t(dst, 2 * W, b, ldb, p0, kc, j0, nr);                                                         \
            return;                                                                                                    \
        }                                                                                                              \
        for (int p = 0; p < kc; p++) {                                                                                 \
            const float *s = b + (long)(p0 + p) * ldb + j0;                                                            \
            STORE(dst + p * 2 * W, LOADM(s, m0)), STORE(dst + p * 2 * W + W, LOADM(s + W, m1));                        \
        }                                                                                                              \
    }                                                                                                                  \
    static inline __attribute__((always_inline, target(TGT))) void gtc_sg_tile_##ISA(                                  \
        const int mr, const int nv, int kc, const float *a, const long ars, const long aps, const float *b,            \
        long bs, float *c, long ldc, MT m0, MT m1, int first) {                                                        \
        V acc[2 * MR][2];                                                                                              \
        _Pragma("GCC unroll 16") for (int r = 0; r < 2 * MR; r++) if (r < mr) {                                        \
            acc[r][0] = first ? ZERO() : LOADM(c + r * ldc, m0);                                                       \
            if (nv > 1) acc[r][1] = first ? ZERO() : LOADM(c + r * ldc + W, m1);                                       \
        }                                                                                                              \
        for (int p = 0; p < kc; p++) {                                                                                 \
            V b0 = LOADM(b + p * bs, m0), b1 = nv > 1 ? LOADM(b + p * bs + W, m1) : b0;                                \
            _Pragma("GCC unroll 16") for (int r = 0; r < 2 * MR; r++) if (r < mr) {                                    \
                V x = SET1(a[r * ars + p * aps]);                                                                      \
                acc[r][0] = FMA(x, b0, acc[r][0]);                                                                     \
                if (nv > 1) acc[r][1] = FMA(x, b1, acc[r][1]);                                                         \
            }                                                                                                          \
        }                                                                                                              \
        _Pragma("GCC unroll 16") for (int r = 0; r < 2 * MR; r++) if (r < mr) {                                        \
            STOREM(c + r * ldc, m0, acc[r][0]);                                                                        \
            if (nv > 1) STOREM(c + r * ldc + W, m1, acc[r][1]);                                                        \
        }                                                                                                              \
    }                                                                                                                  \
    /* the row tiles of one panel, a read with strides (ars, aps): constants where they are 1 */                       \
    static inline __attribute__((always_inline, target(TGT))) void gtc_sg_rows_##ISA(                                  \
        int m, const int nv, int kc, const float *a, const long ars, const long aps, const float *b, long bs,          \
        float *c, int ldc, MT m0, MT m1, int first) {                                                                  \
        int i = 0;                                                                                                     \
        /* one vector of columns: twice the rows in the registers, unless a's rows lie 4 KiB or more                   \
         * apart (16 of them share the L1 sets, more than its ways) */                                                 \
        if (nv == 1 && !(aps == 1 && ars >= 1024))                                                                     \
            for (; i + 2 * MR <= m; i += 2 * MR)                                                                       \
                gtc_sg_tile_##ISA(2 * MR, 1, kc, a + i * ars, ars, aps, b, bs, c + (long)i * ldc, ldc, m0, m1,         \
                                  first);                                                                              \
        for (; i + MR <= m; i += MR)                                                                                   \
            gtc_sg_tile_##ISA(MR, nv, kc, a + i * ars, ars, aps, b, bs, c + (long)i * ldc, ldc, m0, m1, first);        \
        if (m - i >= 4)                                                                                                \
            gtc_sg_tile_##ISA(4, nv, kc, a + i * ars, ars, aps, b, bs, c + (long)i * ldc, ldc, m0, m1, first),         \
                i += 4;                                                                                                \
        if (m - i >= 2)                                                                                                \
            gtc_sg_tile_##ISA(2, nv, kc, a + i * ars, ars, aps, b, bs, c + (long)i * ldc, ldc, m0, m1, first),         \
                i += 2;                                                                                                \
        if (m - i >= 1)                                                                                                \
            gtc_sg_tile_##ISA(1, nv, kc, a + i * ars, ars, aps, b, bs, c + (long)i * ldc, ldc, m0, m1, first);         \
    }                                                                                                                  \
    /* mr (1 or 2) rows of c, b row-major read in place: four vectors of columns at once, so that                      \
     * more chains hide each other's latency (a row's chains are as long as k) */                                      \
    static inline __attribute__((always_inline, target(TGT))) void gtc_sg_wide_##ISA(                                  \
        const int mr, int n, int k, const float *a, long ars, long aps, const float *b, int ldb, float *c, int ldc) {  \
        for (int j0 = 0; j0 < n; j0 += 4 * W) {                                                                        \
            MT mk[4];                                                                                                  \
            V acc[2][4];                                                                                               \
            for (int v = 0; v < 4; v++) {                                                                              \
                int left = n - j0 - v * W;                                                                             \
                mk[v] = MASK(left <= 0 ? 0 : left < W ? left : W);                                                     \
                acc[0][v] = acc[1][v] = ZERO();                                                                        \
            }                                                                                                          \
            for (int p = 0; p < k; p++) {                                                                              \
                V bv[4];                                                                                               \
                _Pragma("GCC unroll 4") for (int v = 0; v < 4; v++)                                                    \
                    bv[v] = LOADM(b + (long)p * ldb + j0 + v * W, mk[v]);                                              \
                _Pragma("GCC unroll 2") for (int r = 0; r < mr; r++) {                                                 \
                    V x = SET1(a[r * ars + p * aps]);                                                                  \
                    _Pragma("GCC unroll 4") for (int v = 0; v < 4; v++) acc[r][v] = FMA(x, bv[v], acc[r][v]);          \
                }                                                                                                      \
            }                                                                                                          \
            _Pragma("GCC unroll 2") for (int r = 0; r < mr; r++)                                                       \
                _Pragma("GCC unroll 4") for (int v = 0; v < 4; v++)                                                    \
                    STOREM(c + (long)r * ldc + j0 + v * W, mk[v], acc[r][v]);                                          \
        }                                                                                                              \
    }                                                                                                                  \
    static __attribute__((noinline, target(TGT))) void gtc_sg_##ISA(int ta, int tb, int m, int n, int k,               \
                                                                    const float *a, int lda, const float *b,           \
                                                                    int ldb, float *c, int ldc) {                      \
        if (!tb && m < 4) { /* a row or a few: gtc_sg_wide */                                                          \
            long ars = ta ? 1 : lda, aps = ta ? lda : 1;                                                               \
            if (m >= 2) gtc_sg_wide_##ISA(2, n, k, a, ars, aps, b, ldb, c, ldc);                                       \
            if (m & 1) gtc_sg_wide_##ISA(1, n, k, a + (m - 1) * ars, ars, aps, b, ldb, c + (long)(m - 1) * ldc, ldc);  \
            return;                                                                                                    \
        }                                                                                                              \
        float panel[GTC_SG_KC * 2 * W] __attribute__((aligned(64)));                                                   \
        for (int j0 = 0; j0 < n; j0 += 2 * W) {                                                                        \
            int nr = n - j0 < 2 * W ? n - j0 : 2 * W, nv = nr > W ? 2 : 1;                                             \
            MT m0 = MASK(nr < W ? nr : W), m1 = MASK(nr > W ? nr - W : 0);                                             \
            int direct = !tb && (m < 16 || (long)k * n <= 8192); /* in L1, or little reuse */                          \
            for (int p0 = 0; p0 < k || p0 == 0; p0 += GTC_SG_KC) {                                                     \
                int kc = k - p0 < GTC_SG_KC ? k - p0 : GTC_SG_KC;                                                      \
                const float *bp = panel;                                                                               \
                long bs = 2 * W;                                                                                       \
                if (direct) bp = b + (long)p0 * ldb + j0, bs = ldb;                                                    \
                else gtc_sg_pack_##ISA(panel, tb, b, ldb, p0, kc, j0, nr, m0, m1);                                     \
                float *cj = c + j0;                                                                                    \
                int first = p0 == 0;                                                                                   \
                if (ta) { /* a[p][i]: rows of a tile side by side */                                                   \
                    const float *ap = a + (long)p0 * lda;                                                              \
                    if (nv > 1) gtc_sg_rows_##ISA(m, 2, kc, ap, 1, lda, bp, bs, cj, ldc, m0, m1, first);               \
                    else gtc_sg_rows_##ISA(m, 1, kc, ap, 1, lda, bp, bs, cj, ldc, m0, m1, first);                      \
                } else {                                                                                               \
                    const float *ap = a + p0;                                                                          \
                    if (nv > 1) gtc_sg_rows_##ISA(m, 2, kc, ap, lda, 1, bp, bs, cj, ldc, m0, m1, first);               \
                    else gtc_sg_rows_##ISA(m, 1, kc, ap, lda, 1, bp, bs, cj, ldc, m0, m1, first);                      \
                }                                                                                                      \
            }                                                                                                          \
        }                                                                                                              \
    }

enum { GTC_SG_SCALAR, GTC_SG_AVX2, GTC_SG_AVX512 };

#ifdef GTC_SG_X86
#define GTC_SG_LM512(p, m) _mm512_maskz_loadu_ps(m, p)
#define GTC_SG_M512(n) ((__mmask16)((1u << (n)) - 1u))
GTC_SG_DEFINE(avx512, "avx512f", __m512, __mmask16, 16, 8, _mm512_setzero_ps, GTC_SG_LM512, _mm512_mask_storeu_ps,
              _mm512_store_ps, _mm512_set1_ps, _mm512_fmadd_ps, GTC_SG_M512)
#define GTC_SG_M256(n) _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7))
GTC_SG_DEFINE(avx2, "avx2,fma", __m256, __m256i, 8, 6, _mm256_setzero_ps, _mm256_maskload_ps, _mm256_maskstore_ps,
              _mm256_store_ps, _mm256_set1_ps, _mm256_fmadd_ps, GTC_SG_M256)
#endif

/* The widest of the kernels that this CPU runs (the same answer in gtc.so and generated code). */
static inline int gtc_sg_best(void) {
#ifdef GTC_SG_X86
    if (__builtin_cpu_supports("avx512f")) return GTC_SG_AVX512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return GTC_SG_AVX2;
#endif
    return GTC_SG_SCALAR;
}

/* c[m, n] (leading dimension ldc) = op(a) op(b) by the chains above, on the kernel isa (one
 * that the CPU runs: the tests compare them). The scalar one is the definition written out. */
static inline void gtc_sg_block(int isa, int ta, int tb, int m, int n, int k, const float *a, int lda,
                              const float *b, int ldb, float *c, int ldc) {
#ifdef GTC_SG_X86
    if (isa == GTC_SG_AVX512) {
        gtc_sg_avx512(ta, tb, m, n, k, a, lda, b, ldb, c, ldc);
        return;
    }
    if (isa == GTC_SG_AVX2) {
        gtc_sg_avx2(ta, tb, m, n, k, a, lda, b, ldb, c, ldc);
        return;
    }
#endif
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            float s = 0.0f;
            for (int p = 0; p < k; p++)
                s = fmaf(ta ? a[(long)p * lda + i] : a[(long)i * lda + p],
                         tb ? b[(long)j * ldb + p] : b[(long)p * ldb + j], s);
            c[(long)i * ldc + j] = s;
        }
}

/* gtc_sg_block over the whole product: on the calling thread below GTC_CPU_GEMM_PAR_MIN
 * multiply-adds (or inside a parallel region), else blocks of 64 x 64 of c shared by OpenMP's
 * threads; every element is still its one chain, so the bits do not depend on the split. */
static inline void gtc_sg_run(int isa, int ta, int tb, int m, int n, int k, const float *a, int lda,
                              const float *b, int ldb, float *c, int ldc) {
#ifdef _OPENMP
    if ((double)m * n * k >= GTC_CPU_GEMM_PAR_MIN && omp_get_max_threads() > 1 && !omp_in_parallel()) {
        const int cb = (n + 63) / 64, nb = cb * ((m + 63) / 64);
#pragma omp parallel for schedule(dynamic)
        for (int t = 0; t < nb; t++) {
            int i0 = t / cb * 64, j0 = t % cb * 64;
            int mb = m - i0 < 64 ? m - i0 : 64, nbl = n - j0 < 64 ? n - j0 : 64;
            gtc_sg_block(isa, ta, tb, mb, nbl, k, ta ? a + i0 : a + (long)i0 * lda, lda,
                         tb ? b + (long)j0 * ldb : b + j0, ldb, c + (long)i0 * ldc + j0, ldc);
        }
        return;
    }
#endif
    gtc_sg_block(isa, ta, tb, m, n, k, a, lda, b, ldb, c, ldc);
}

/* Whether a float32 product of mnk multiply-adds runs gtc's kernel (above), not OpenBLAS: only
 * on a CPU with one of its vector paths (the scalar chain is the tests' definition; on a CPU
 * without AVX2 and FMA, or not x86, OpenBLAS's kernels are many times faster than it). */
static inline int gtc_cpu_sgemm_own(double mnk) { return mnk < GTC_CPU_SGEMM_OWN_MAX && gtc_sg_best() != GTC_SG_SCALAR; }

/* c[m, n] (leading dimension ldc) = op(a) op(b), float32 and float64: a float32 product below
 * GTC_CPU_SGEMM_OWN_MAX multiply-adds by gtc's kernel (above), the others by OpenBLAS. */
static inline void gtc_cpu_sgemm(int ta, int tb, int m, int n, int k, const float *a, int lda, const float *b,
                                 int ldb, float *c, int ldc) {
    if (gtc_cpu_sgemm_own((double)m * n * k)) {
        gtc_sg_run(gtc_sg_best(), ta, tb, m, n, k, a, lda, b, ldb, c, ldc);
        return;
    }
    int saved = gtc_cpu_gemm_begin((double)m * n * k);
    cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, m, n, k, 1.0f, a,
                lda, b, ldb, 0.0f, c, ldc);
    gtc_cpu_gemm_end(saved);
}

#ifdef GTC_SCALAR_H /* generated code: ir/scalar.h's bfloat16 (the eager runtime has its own conversions) */
/* The same float32 product when a or b (ah, bh) is a bfloat16 value (--precision=bf16 stores a
 * value that only products and sign tests read in bfloat16, compiler/pass_bf16.c): each such
 * operand is widened into a float copy first (exact), then multiplied as above. Without memory
 * for the copy, a plain loop widens element by element (the same values, slower). */
static inline void gtc_cpu_sgemm_h(int ta, int tb, int m, int n, int k, const void *a, int ah, int lda, const void *b,
                                   int bh, int ldb, float *c, int ldc) {
    const size_t na = (size_t)(ta ? k : m) * (size_t)lda, nb = (size_t)(tb ? n : k) * (size_t)ldb;
    float *wa = ah ? (float *)malloc(na * sizeof(float) + 1) : NULL, *wb = bh ? (float *)malloc(nb * sizeof(float) + 1) : NULL;
    if ((ah && !wa) || (bh && !wb)) {
        free(wa), free(wb);
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++) {
                float s = 0.0f;
                for (int p = 0; p < k; p++) {
                    const size_t ia = ta ? (size_t)p * lda + i : (size_t)i * lda + p, ib = tb ? (size_t)j * ldb + p : (size_t)p * ldb + j;
                    const float x = ah ? gtc_bf16_f32(((const gtc_bf16 *)a)[ia]) : ((const float *)a)[ia];
                    const float y = bh ? gtc_bf16_f32(((const gtc_bf16 *)b)[ib]) : ((const float *)b)[ib];
                    s = fmaf(x, y, s);
                }
                c[(size_t)i * ldc + j] = s;
            }
        return;
    }
    for (size_t i = 0; ah && i < na; i++) wa[i] = gtc_bf16_f32(((const gtc_bf16 *)a)[i]);
    for (size_t i = 0; bh && i < nb; i++) wb[i] = gtc_bf16_f32(((const gtc_bf16 *)b)[i]);
    gtc_cpu_sgemm(ta, tb, m, n, k, ah ? wa : (const float *)a, lda, bh ? wb : (const float *)b, ldb, c, ldc);
    free(wa), free(wb);
}
#endif

static inline void gtc_cpu_dgemm(int ta, int tb, int m, int n, int k, const double *a, int lda, const double *b,
                                 int ldb, double *c, int ldc) {
    int saved = gtc_cpu_gemm_begin((double)m * n * k);
    cblas_dgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, m, n, k, 1.0, a, lda,
                b, ldb, 0.0, c, ldc);
    gtc_cpu_gemm_end(saved);
}
#endif
