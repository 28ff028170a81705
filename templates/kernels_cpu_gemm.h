/* templates/kernels_cpu_gemm.h: the CPU backend's one GEMM call, row-major cblas with alpha 1
 * and beta 0, for eager matmul (runtime/cpu/cpu_matmul.c includes this file) and for the GEMM
 * steps of generated code (kernels_cpu.c carries a copy after <cblas.h>). A product of fewer
 * than GTC_CPU_GEMM_PAR_MIN multiply-adds (m*n*k) runs on the calling thread: waking the
 * thread pool costs more than such a product gains from it (docs/cpu.md, "Small products"), and
 * its bits are then the same at any thread count (OpenBLAS's split of a product over threads
 * can change its rounding). */
#ifndef GTC_KERNELS_CPU_GEMM_H
#define GTC_KERNELS_CPU_GEMM_H
#ifdef _OPENMP
#include <omp.h>
#endif

#define GTC_CPU_GEMM_PAR_MIN 4194304.0 /* multiply-adds: 256x128x128 */

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

/* c[m, n] (leading dimension ldc) = op(a) op(b), float32 and float64. */
static inline void gtc_cpu_sgemm(int ta, int tb, int m, int n, int k, const float *a, int lda, const float *b,
                                 int ldb, float *c, int ldc) {
    int saved = gtc_cpu_gemm_begin((double)m * n * k);
    cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, m, n, k, 1.0f, a,
                lda, b, ldb, 0.0f, c, ldc);
    gtc_cpu_gemm_end(saved);
}

static inline void gtc_cpu_dgemm(int ta, int tb, int m, int n, int k, const double *a, int lda, const double *b,
                                 int ldb, double *c, int ldc) {
    int saved = gtc_cpu_gemm_begin((double)m * n * k);
    cblas_dgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, m, n, k, 1.0, a, lda,
                b, ldb, 0.0, c, ldc);
    gtc_cpu_gemm_end(saved);
}
#endif
