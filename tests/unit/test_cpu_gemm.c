/* tests/unit/test_cpu_gemm.c: gtc's own float32 GEMM kernel (templates/kernels_cpu_gemm.h):
 * every ISA path the CPU runs (AVX-512, AVX2, scalar) against the definition (each c[i][j] one
 * chain of fmaf over k in order, from +0) bitwise and against a float64 product within a bound,
 * over odd shapes (tails of every vector width, k = 0, k past a panel), every transpose, leading
 * dimensions wider than the rows; nothing written outside c's m x n; the same bits on 1 and 4
 * threads; gtc_cpu_sgemm on it below GTC_CPU_SGEMM_OWN_MAX. */
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

#include "../../templates/kernels_cpu_gemm.h"

#define TEST(name) static void name(void **state __attribute__((unused)))

/* A reproducible float in [-1, 1) with a few bits below the top ones set (no exact products). */
static float rnd(unsigned *s) {
    *s = *s * 1103515245u + 12345u;
    return (float)((*s >> 8) & 0xFFFF) / 32768.0f - 1.0f + (float)((*s >> 3) & 31) * 0x1p-20f;
}

/* The operands of one product, op(a) m x k and op(b) k x n stored with the given transposes
 * and leading dimensions (pad columns past the rows), and c with ldc = n + pad filled with a
 * NaN sentinel. */
typedef struct {
    int m, n, k, ta, tb, lda, ldb, ldc;
    float *a, *b, *c;
} Prod;

static void prod_make(Prod *p, int m, int n, int k, int ta, int tb, int pad, unsigned seed) {
    *p = (Prod){m, n, k, ta, tb, (ta ? m : k) + pad, (tb ? k : n) + pad, n + pad, NULL, NULL, NULL};
    size_t na = (size_t)(ta ? k : m) * p->lda + 1, nb = (size_t)(tb ? n : k) * p->ldb + 1;
    size_t nc = (size_t)m * p->ldc + 1;
    p->a = malloc(na * sizeof(float)), p->b = malloc(nb * sizeof(float)), p->c = malloc(nc * sizeof(float));
    assert_true(p->a && p->b && p->c);
    for (size_t i = 0; i < na; i++) p->a[i] = rnd(&seed);
    for (size_t i = 0; i < nb; i++) p->b[i] = rnd(&seed);
    for (size_t i = 0; i < nc; i++) p->c[i] = NAN;
}

static void prod_free(Prod *p) { free(p->a), free(p->b), free(p->c); }

static float op_a(const Prod *p, int i, int q) {
    return p->ta ? p->a[(size_t)q * p->lda + i] : p->a[(size_t)i * p->lda + q];
}

static float op_b(const Prod *p, int q, int j) {
    return p->tb ? p->b[(size_t)j * p->ldb + q] : p->b[(size_t)q * p->ldb + j];
}

/* The definition, written out independently of the header's scalar path. */
static float chain(const Prod *p, int i, int j) {
    float s = 0.0f;
    for (int q = 0; q < p->k; q++) s = fmaf(op_a(p, i, q), op_b(p, q, j), s);
    return s;
}

/* c against the chains bitwise, against a float64 product within k ulps of sum |a||b| (the
 * chain's error bound), and the sentinel past each row's n columns untouched. */
static void check(const Prod *p, const char *what) {
    for (int i = 0; i < p->m; i++) {
        for (int j = 0; j < p->n; j++) {
            float got = p->c[(size_t)i * p->ldc + j], want = chain(p, i, j);
            double ref = 0, mag = 0;
            for (int q = 0; q < p->k; q++) {
                double t = (double)op_a(p, i, q) * op_b(p, q, j);
                ref += t, mag += fabs(t);
            }
            if (memcmp(&got, &want, sizeof got) || fabs(got - ref) > (p->k + 1) * 0x1p-24 * mag)
                fail_msg("%s: %dx%dx%d ta %d tb %d: c[%d][%d] = %a, chain %a, float64 %a", what, p->m, p->n, p->k,
                         p->ta, p->tb, i, j, got, want, ref);
        }
        for (int j = p->n; j < p->ldc; j++) assert_true(isnan(p->c[(size_t)i * p->ldc + j]));
    }
}

static void run(Prod *p, int isa) {
    gtc_sg_run(isa, p->ta, p->tb, p->m, p->n, p->k, p->a, p->lda, p->b, p->ldb, p->c, p->ldc);
}

/* Every path this CPU runs, on odd shapes: rows past each tile height (1..8, 16 and the
 * remainders), columns around 8, 16, 32 and 48, k from 0 (zeros) to past GTC_SG_KC. */
TEST(gtc_sg_run__every_isa_shape_and_transpose__the_chains_bits) {
    static const int ms[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 16, 17, 23, 31, 37, 67};
    static const int ns[] = {1, 2, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 47, 48, 49, 63, 64, 67};
    static const int ks[] = {0, 1, 2, 3, 13, 61, 67};
    const char *names[] = {"scalar", "avx2", "avx512"};
    unsigned seed = 1;
    for (int isa = 0; isa <= gtc_sg_best(); isa++)
        for (int t = 0; t < 4; t++)
            for (size_t im = 0; im < sizeof ms / sizeof *ms; im++)
                for (size_t in = 0; in < sizeof ns / sizeof *ns; in++)
                    for (size_t ik = 0; ik < sizeof ks / sizeof *ks; ik++) {
                        Prod p;
                        prod_make(&p, ms[im], ns[in], ks[ik], t & 1, t >> 1, (int)(im + in) % 3 * 5, seed++);
                        run(&p, isa);
                        check(&p, names[isa]);
                        prod_free(&p);
                    }
}

/* k past one panel of b (chains stored into c and resumed: the same bits), b large enough to
 * be copied rather than read in place (k * n > 8192 with 16 rows or more), and a's rows 4 KiB
 * or more apart (k >= 1024: tiles of 8 rows rather than 16 for one vector of columns). */
TEST(gtc_sg_run__k_past_a_panel_and_copied_b__the_chains_bits) {
    static const int shapes[][3] = {{17, 33, 257}, {16, 200, 300}, {40, 47, 513}, {3, 70, 600}, {37, 9, 1100}};
    unsigned seed = 7;
    for (int isa = 0; isa <= gtc_sg_best(); isa++)
        for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
            for (int t = 0; t < 4; t++) {
                Prod p;
                prod_make(&p, shapes[s][0], shapes[s][1], shapes[s][2], t & 1, t >> 1, 3, seed++);
                run(&p, isa);
                check(&p, "long k");
                prod_free(&p);
            }
}

/* A product above GTC_CPU_GEMM_PAR_MIN splits over OpenMP's threads: the same bits on 4 and on
 * 1, which are the chains'. */
TEST(gtc_sg_run__four_threads__same_bits_as_one) {
    Prod p;
    prod_make(&p, 130, 129, 257, 1, 0, 2, 11);
    assert_true((double)p.m * p.n * p.k >= GTC_CPU_GEMM_PAR_MIN);
    int saved = omp_get_max_threads();
    omp_set_num_threads(4);
    run(&p, gtc_sg_best());
    check(&p, "4 threads");
    omp_set_num_threads(1);
    run(&p, gtc_sg_best());
    check(&p, "1 thread");
    omp_set_num_threads(saved);
    prod_free(&p);
}

/* The one GEMM call takes the kernel below its limit: the chains' bits, not OpenBLAS's. */
TEST(gtc_cpu_sgemm__below_the_limit__the_kernels_bits) {
    Prod p;
    prod_make(&p, 256, 10, 64, 0, 1, 0, 5);
    assert_true((double)p.m * p.n * p.k < GTC_CPU_SGEMM_OWN_MAX);
    gtc_cpu_sgemm(p.ta, p.tb, p.m, p.n, p.k, p.a, p.lda, p.b, p.ldb, p.c, p.ldc);
    check(&p, "gtc_cpu_sgemm");
    prod_free(&p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gtc_sg_run__every_isa_shape_and_transpose__the_chains_bits),
        cmocka_unit_test(gtc_sg_run__k_past_a_panel_and_copied_b__the_chains_bits),
        cmocka_unit_test(gtc_sg_run__four_threads__same_bits_as_one),
        cmocka_unit_test(gtc_cpu_sgemm__below_the_limit__the_kernels_bits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
