/* tests/unit/test_cpu_threads.c: the CPU backend's thread count and BLAS (runtime/cpu/cpu_threads.c):
 * the setting's parser (auto, 1..1024, everything else refused with a sentence), that a count is
 * applied to OpenMP and OpenBLAS, that eager elementwise ops and reductions give the same bits
 * on 1 and on several threads, matmul the right values on both (a float64 reference), that the
 * GEMM helper makes OpenBLAS single-threaded below GTC_CPU_GEMM_PAR_MIN, that eager float32
 * products below GTC_CPU_SGEMM_OWN_MAX run gtc's kernel with the same bits at any thread count
 * and a larger one OpenBLAS on all threads (templates/kernels_cpu_gemm.h), and that a generic
 * OpenBLAS kernel is corrected to the CPU's best. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <cblas.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include <dlfcn.h>

#include "../../runtime/core/rt.h"
#include "../../templates/kernels_cpu_gemm.h"

#define TEST(name) static void name(void **state __attribute__((unused)))
#define B (&rt_cpu_backend)

static void set_threads(const char *v) {
    char err[160];
    assert_int_equal(rt_cpu_set_threads(v, "test", err, sizeof err), 0);
}

TEST(rt_cpu_threads_parse__auto_and_integers__accepted) {
    int n = 0;
    char err[160];
    assert_int_equal(rt_cpu_threads_parse("auto", &n, err, sizeof err), 0);
    assert_int_equal(n, rt_cpu_physical_cores());
    assert_true(n >= 1);
    assert_int_equal(rt_cpu_threads_parse("AUTO", &n, err, sizeof err), 0);
    assert_int_equal(rt_cpu_threads_parse("", &n, err, sizeof err), 0);
    assert_int_equal(rt_cpu_threads_parse("3", &n, err, sizeof err), 0);
    assert_int_equal(n, 3);
    assert_int_equal(rt_cpu_threads_parse("1024", &n, err, sizeof err), 0);
    assert_int_equal(n, 1024);
}

TEST(rt_cpu_threads_parse__bad_values__refused_with_a_sentence) {
    const char *bad[] = {"0", "-1", "1025", "abc", "2x", " 2", "1.5", "99999999999999999999999", "+2"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int n = 7;
        char err[160] = "";
        assert_int_equal(rt_cpu_threads_parse(bad[i], &n, err, sizeof err), -1);
        assert_int_equal(n, 7);
        assert_non_null(strstr(err, "is not a thread count (auto, or an integer from 1 to 1024)"));
    }
    char err[160];
    int before = rt_cpu_threads();
    assert_int_equal(rt_cpu_set_threads("lots", "test", err, sizeof err), -1);
    assert_int_equal(rt_cpu_threads(), before); /* a refused value changes nothing */
}

TEST(rt_cpu_set_threads__count__applied_to_openmp_and_openblas) {
    set_threads("3");
    assert_int_equal(rt_cpu_threads(), 3);
    assert_int_equal(omp_get_max_threads(), 3);
    assert_int_equal(openblas_get_num_threads(), 3);
    int team = 0; /* a parallel region (as the eager loops and generated kernels open) gets 3 */
#pragma omp parallel
    {
#pragma omp master
        team = omp_get_num_threads();
    }
    assert_int_equal(team, 3);
    set_threads("1");
    assert_int_equal(rt_cpu_threads(), 1);
    assert_int_equal(omp_get_max_threads(), 1);
    assert_int_equal(openblas_get_num_threads(), 1);
    char info[256];
    rt_cpu_blas_info(info, sizeof info);
    assert_non_null(strstr(info, "OpenBLAS "));
    assert_non_null(strstr(info, ", 1 thread (test)"));
}

static RtTensor *apply(Op op, RtTensor *a, RtTensor *b, const Attrs *at) {
    RtOperand in[2] = {{.t = a}, {.t = b}};
    RtTensor *r = rt_apply(op, in, b ? 2 : 1, at);
    assert_non_null(r);
    return r;
}

static float *host(const RtTensor *t) {
    float *h = malloc((size_t)rt_numel(t) * sizeof *h);
    assert_int_equal(rt_to_host(t, h), 0);
    return h;
}

/* Each op on 1 thread and on 4 (more than this machine's cores: the slabs still split): equal
 * bits for our loops, and close to a float64 reference. Sizes are above RT_CPU_PAR_MIN and odd. */
TEST(cpu_eager__one_and_four_threads__same_bits) {
    int64_t sh[2] = {301, 517}, shb[1] = {517}, shw[2] = {517, 129};
    RtTensor *x = rt_randn(B, DT_FLOAT32, 2, sh, 11), *bias = rt_randn(B, DT_FLOAT32, 1, shb, 12),
             *w = rt_randn(B, DT_FLOAT32, 2, shw, 13);
    assert_true(x && bias && w);
    Attrs a1 = {0}, a0 = {0};
    a1.has_axes = true, a1.naxes = 1, a1.axes[0] = 1;
    a0.has_axes = true, a0.naxes = 1, a0.axes[0] = 0;
    float *r[2][5];
    const char *counts[2] = {"1", "4"};
    for (int k = 0; k < 2; k++) {
        set_threads(counts[k]);
        RtTensor *s = apply(OP_ADD, x, bias, NULL), *e = apply(OP_EXP, s, NULL, NULL),
                 *r1 = apply(OP_SUM, e, NULL, &a1), *r0 = apply(OP_SUM, e, NULL, &a0), *mm = apply(OP_MATMUL, x, w, NULL);
        r[k][0] = host(s), r[k][1] = host(e), r[k][2] = host(r1), r[k][3] = host(r0), r[k][4] = host(mm);
        rt_release(s), rt_release(e), rt_release(r1), rt_release(r0), rt_release(mm);
    }
    int64_t n[5] = {301 * 517, 301 * 517, 301, 517, 301 * 129};
    for (int j = 0; j < 4; j++) assert_memory_equal(r[0][j], r[1][j], (size_t)n[j] * sizeof(float));
    /* GEMM is OpenBLAS's: on one thread it may take its small-matrix kernel, which rounds
     * differently; both agree with the float64 product within K * eps of its magnitude */
    float *hw = host(w), *hx0 = host(x);
    for (int64_t i = 0; i < 301; i += 7)
        for (int64_t j = 0; j < 129; j++) {
            double ref = 0, mag = 0;
            for (int64_t k = 0; k < 517; k++) ref += (double)hx0[i * 517 + k] * hw[k * 129 + j], mag += fabs((double)hx0[i * 517 + k] * hw[k * 129 + j]);
            for (int t = 0; t < 2; t++) assert_true(fabs(r[t][4][i * 129 + j] - ref) <= 517 * 1.2e-7 * mag);
        }
    free(hw), free(hx0);
    /* values: the float64 reference of the row sums of exp(x + bias) */
    float *hx = host(x), *hb = host(bias);
    for (int64_t i = 0; i < 301; i++) {
        double ref = 0;
        for (int64_t c = 0; c < 517; c++) ref += exp((double)(float)(hx[i * 517 + c] + hb[c]));
        assert_true(fabs(r[1][2][i] - ref) <= 1e-5 * fabs(ref) + 1e-6);
    }
    free(hx), free(hb);
    for (int k = 0; k < 2; k++)
        for (int j = 0; j < 5; j++) free(r[k][j]);
    rt_release(x), rt_release(bias), rt_release(w);
    set_threads("auto");
}

/* The threads OpenBLAS would use for a call made now: its OpenMP build follows OpenMP's count,
 * its pthreads build its own. */
static int blas_threads_now(void) {
    return openblas_get_parallel() == 2 ? omp_get_max_threads() : openblas_get_num_threads();
}

/* cblas_sgemm as the runtime's matmul reaches it: this definition wins over the library's (the
 * runtime is linked statically into this test), records the thread count OpenBLAS would see at
 * the call, and forwards to OpenBLAS's. */
static int g_sgemm_calls, g_sgemm_threads;
void cblas_sgemm(OPENBLAS_CONST enum CBLAS_ORDER o, OPENBLAS_CONST enum CBLAS_TRANSPOSE ta,
                 OPENBLAS_CONST enum CBLAS_TRANSPOSE tb, OPENBLAS_CONST blasint m, OPENBLAS_CONST blasint n,
                 OPENBLAS_CONST blasint k, OPENBLAS_CONST float alpha, OPENBLAS_CONST float *a,
                 OPENBLAS_CONST blasint lda, OPENBLAS_CONST float *b, OPENBLAS_CONST blasint ldb,
                 OPENBLAS_CONST float beta, float *c, OPENBLAS_CONST blasint ldc) {
    static void (*real)(enum CBLAS_ORDER, enum CBLAS_TRANSPOSE, enum CBLAS_TRANSPOSE, blasint, blasint, blasint,
                        float, const float *, blasint, const float *, blasint, float, float *, blasint);
    if (!real) *(void **)&real = dlsym(RTLD_NEXT, "cblas_sgemm");
    assert_non_null(real);
    g_sgemm_calls++;
    g_sgemm_threads = blas_threads_now();
    real(o, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

/* The helper itself: one thread for the call below the threshold, the count restored after it,
 * nothing touched at and above it (or when one thread is all there is). */
TEST(gtc_cpu_gemm_begin__small_product__one_thread_then_restored) {
    set_threads("4");
    int saved = gtc_cpu_gemm_begin(GTC_CPU_GEMM_PAR_MIN - 1);
    assert_int_not_equal(saved, 0);
    assert_int_equal(blas_threads_now(), 1);
    gtc_cpu_gemm_end(saved);
    assert_int_equal(blas_threads_now(), 4);
    assert_int_equal(omp_get_max_threads(), 4);
    assert_int_equal(openblas_get_num_threads(), 4);
    assert_int_equal(gtc_cpu_gemm_begin(GTC_CPU_GEMM_PAR_MIN), 0);
    assert_int_equal(blas_threads_now(), 4);
    set_threads("1");
    assert_int_equal(gtc_cpu_gemm_begin(1), 0);
    assert_int_equal(blas_threads_now(), 1);
    set_threads("auto");
}

/* Eager matmul through the one GEMM call: the digits MLP's 256x64x64 product (below
 * GTC_CPU_GEMM_PAR_MIN) and a 256x256x128 one (above it) run gtc's own kernel, never OpenBLAS,
 * with the same bits on 4 threads and on 1 (the larger one split over the 4); a 512x512x512 one
 * (GTC_CPU_SGEMM_OWN_MAX) reaches OpenBLAS with all 4 threads, which may round differently. */
TEST(cpu_matmul__below_the_threshold__one_thread_same_bits) {
    static const int64_t shapes[3][3] = {{256, 64, 64}, {256, 256, 128}, {512, 512, 512}};
    for (int s = 0; s < 3; s++) {
        int64_t m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
        int64_t sa[2] = {m, k}, sb[2] = {k, n};
        RtTensor *a = rt_randn(B, DT_FLOAT32, 2, sa, 21), *b = rt_randn(B, DT_FLOAT32, 2, sb, 22);
        assert_true(a && b);
        float *r[2];
        const char *counts[2] = {"4", "1"};
        double mnk = (double)m * n * k;
        assert_int_equal(mnk < GTC_CPU_GEMM_PAR_MIN, s == 0); /* the shapes straddle the limits */
        assert_int_equal(mnk < GTC_CPU_SGEMM_OWN_MAX, s < 2);
        for (int t = 0; t < 2; t++) {
            set_threads(counts[t]);
            g_sgemm_calls = 0, g_sgemm_threads = 0;
            RtTensor *c = apply(OP_MATMUL, a, b, NULL);
            assert_int_equal(g_sgemm_calls, s == 2);
            if (s == 2) assert_int_equal(g_sgemm_threads, t == 0 ? 4 : 1);
            r[t] = host(c);
            rt_release(c);
        }
        if (s < 2) assert_memory_equal(r[0], r[1], (size_t)(m * n) * sizeof(float));
        else /* split over threads, OpenBLAS may round differently (Haswell's kernels do) */
            for (int64_t i = 0; i < m * n; i++) assert_true(fabsf(r[0][i] - r[1][i]) <= 1e-4f * (1 + fabsf(r[1][i])));
        free(r[0]), free(r[1]);
        rt_release(a), rt_release(b);
    }
    set_threads("auto");
}

/* A naive float64 product against cblas_sgemm on the kernel now selected. */
static void check_sgemm(void) {
    enum { M = 67, K = 129, N = 33 };
    static float a[M * K], b[K * N], c[M * N];
    for (int i = 0; i < M * K; i++) a[i] = (float)((i * 7 % 13) - 6) * 0.25f;
    for (int i = 0; i < K * N; i++) b[i] = (float)((i * 5 % 11) - 5) * 0.5f;
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1.0f, a, K, b, N, 0.0f, c, N);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double ref = 0;
            for (int k = 0; k < K; k++) ref += (double)a[i * K + k] * b[k * N + j];
            assert_true(fabs(c[i * N + j] - ref) <= 1e-4 * (1 + fabs(ref)));
        }
}

/* The correction path, on any x86-64 CPU with AVX: the generic kernel forced first (as 0.3.21
 * picks on a CPU it does not know), then rt_cpu_blas_tune replaces it and GEMM still agrees. */
TEST(rt_cpu_blas_tune__generic_kernel__replaced_by_the_best_one) {
    rt_cpu_init();
    if (rt_cpu_blas_select_core("Prescott") != 0) skip(); /* not a DYNAMIC_ARCH OpenBLAS */
    assert_string_equal(openblas_get_corename(), "Prescott");
    check_sgemm();
    unsetenv("OPENBLAS_CORETYPE");
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx")) skip();
#else
    skip();
#endif
    assert_true(rt_cpu_blas_tune());
    assert_string_not_equal(openblas_get_corename(), "Prescott");
    char info[256];
    assert_non_null(strstr(rt_cpu_blas_info(info, sizeof info), "(corrected from Prescott)"));
    check_sgemm();
    /* a user's OPENBLAS_CORETYPE is left alone */
    assert_int_equal(rt_cpu_blas_select_core("Prescott"), 0);
    setenv("OPENBLAS_CORETYPE", "Prescott", 1);
    assert_false(rt_cpu_blas_tune());
    assert_string_equal(openblas_get_corename(), "Prescott");
    unsetenv("OPENBLAS_CORETYPE");
    assert_true(rt_cpu_blas_tune());
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rt_cpu_threads_parse__auto_and_integers__accepted),
        cmocka_unit_test(rt_cpu_threads_parse__bad_values__refused_with_a_sentence),
        cmocka_unit_test(rt_cpu_set_threads__count__applied_to_openmp_and_openblas),
        cmocka_unit_test(cpu_eager__one_and_four_threads__same_bits),
        cmocka_unit_test(gtc_cpu_gemm_begin__small_product__one_thread_then_restored),
        cmocka_unit_test(cpu_matmul__below_the_threshold__one_thread_same_bits),
        cmocka_unit_test(rt_cpu_blas_tune__generic_kernel__replaced_by_the_best_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
