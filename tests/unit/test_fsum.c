/* tests/unit/test_fsum.c: ir/fsum.h, the float32 sum of the CPU backend and of generated CPU code:
 * every form of it (a block, the streaming state by runs, strides and single values, the column
 * form) gives the bits of the order ir/fsum.h documents, written out here independently; its error
 * against a double reference stays within that order's bound; and the eager reductions (sum and
 * mean over any axes, views) give those bits for every output. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../ir/fsum.h"
#include "../../runtime/core/rt.h"

#define TEST(name) static void name(void **state __attribute__((unused)))
#define B (&rt_cpu_backend)

/* ---- the order, written out from its definition ---------------------------------------------- */

/* a perfect tree over t[0..size): halves added */
static float ref_tree(const float *t, uint64_t size) {
    if (size == 1) return t[0];
    return ref_tree(t, size / 2) + ref_tree(t + size / 2, size / 2);
}

/* Blocks of 256; in a block, element i into lane i % 16 from +0; lanes folded by halves (8, 4, 2,
 * 1); the block sums as perfect trees of the powers of two of their count, largest first, added
 * from the last (smallest) tree: r = T1 + (T2 + (... + Tk)); none: +0. */
static float ref_fsum(const float *x, int64_t n) {
    uint64_t nb = (uint64_t)((n + 255) / 256);
    float *t = malloc((nb + 1) * sizeof *t);
    assert_non_null(t);
    for (uint64_t b = 0; b < nb; b++) {
        float l[16] = {0};
        for (int64_t i = (int64_t)b * 256; i < n && i < (int64_t)(b + 1) * 256; i++) l[i % 16] = l[i % 16] + x[i];
        for (int w = 8; w >= 1; w /= 2)
            for (int j = 0; j < w; j++) l[j] = l[j] + l[j + w];
        t[b] = l[0];
    }
    float trees[64];
    int nt = 0;
    uint64_t at = 0;
    for (int k = 63; k >= 0; k--)
        if ((nb >> k) & 1) trees[nt++] = ref_tree(t + at, 1ull << k), at += 1ull << k;
    float r = nt ? trees[nt - 1] : 0.0f;
    for (int i = nt - 2; i >= 0; i--) r = trees[i] + r;
    free(t);
    return r;
}

static uint64_t rng = 88172645463325252ull;
static double urand(void) { /* xorshift64, uniform in [0, 1) */
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (double)(rng >> 11) * (1.0 / 9007199254740992.0);
}

/* kind 0: uniform [-1, 1); 1: uniform [0, 1); 2: adversarial: huge values that cancel, with small
 * ones between (1e8, 1, -1e8, 1, ...: a float chain loses every 1); 3: magnitudes spread over 2^±40
 * with random signs; 4: 0.1 everywhere (a float chain drifts) */
static void fill(float *x, int64_t n, int kind) {
    for (int64_t i = 0; i < n; i++) switch (kind) {
        case 0: x[i] = (float)(2 * urand() - 1); break;
        case 1: x[i] = (float)urand(); break;
        case 2: x[i] = i % 2 ? 1.0f : (i / 2) % 2 ? -1e8f : 1e8f; break;
        case 3: x[i] = (float)((urand() < 0.5 ? -1 : 1) * ldexp(1 + urand(), (int)(80 * urand()) - 40)); break;
        default: x[i] = 0.1f; break;
        }
}

static const int64_t sizes[] = {0, 1, 7, 8, 9, 15, 16, 17, 255, 256, 257, 1000, 4099, 65536 + 17, 1000000};
#define NSIZES (int)(sizeof sizes / sizeof *sizes)

static void assert_same(float a, float b, const char *what, int64_t n, int kind) {
    if (memcmp(&a, &b, sizeof a))
        fail_msg("%s: n %lld kind %d: %.9g, the order gives %.9g", what, (long long)n, kind, a, b);
}

/* ---- every form, the same bits ------------------------------------------------------------- */

TEST(fsum__every_form__bits_of_the_documented_order) {
    for (int s = 0; s < NSIZES; s++)
        for (int kind = 0; kind < 5; kind++) {
            int64_t n = sizes[s];
            float *x = malloc((size_t)(3 * n + 1) * sizeof *x), *xs = x + n;
            assert_non_null(x);
            fill(x, n, kind);
            for (int64_t i = 0; i < n; i++) xs[2 * i] = x[i], xs[2 * i + 1] = NAN; /* stride 2 */
            float want = ref_fsum(x, n);
            if (n <= GTC_FSUM_BLOCK) assert_same(gtc_fsum_block(x, n), want, "block", n, kind);
            gtc_fsum f;
            gtc_fsum_init(&f), gtc_fsum_add(&f, x, n, 1);
            assert_same(gtc_fsum_end(&f), want, "contiguous run", n, kind);
            gtc_fsum_init(&f), gtc_fsum_add(&f, xs, n, 2);
            assert_same(gtc_fsum_end(&f), want, "strided run", n, kind);
            gtc_fsum_init(&f);
            for (int64_t i = 0; i < n; i++) gtc_fsum_put(&f, x[i]);
            assert_same(gtc_fsum_end(&f), want, "one value at a time", n, kind);
            gtc_fsum_init(&f); /* runs of odd lengths, some across block edges, some values alone */
            for (int64_t i = 0, len = 1; i < n; i += len, len = len * 7 % 601 + 1) {
                if (len > n - i) len = n - i;
                if (len % 3 == 0) for (int64_t j = 0; j < len; j++) gtc_fsum_put(&f, x[i + j]);
                else gtc_fsum_add(&f, x + i, len, 1);
            }
            assert_same(gtc_fsum_end(&f), want, "mixed runs", n, kind);
            /* the column form: 5 columns, column c of row i holding x[i] * (c + 1) scaled back */
            if (n <= 70000) {
                enum { W = 5, LD = 8 };
                float lanes[GTC_FSUM_LANES][LD] = {{0}}, lv[GTC_FSUM_LEVELS][LD], r[LD];
                float *col = malloc((size_t)(n + 1) * sizeof *col);
                assert_non_null(col);
                uint64_t nb = 0;
                for (int64_t i = 0; i < n; i++) {
                    for (int c = 0; c < W; c++) lanes[i % GTC_FSUM_LANES][c] += c == 2 ? -x[i] : x[i] * (float)(c + 1);
                    if ((i + 1) % GTC_FSUM_BLOCK == 0 || i == n - 1) {
                        gtc_fsum_fold(&lanes[0][0], LD, W);
                        gtc_fsum_push(&lv[0][0], LD, nb++, lanes[0], W);
                        memset(lanes, 0, sizeof lanes);
                    }
                }
                gtc_fsum_result(&lv[0][0], LD, nb, r, W);
                for (int c = 0; c < W; c++) {
                    for (int64_t i = 0; i < n; i++) col[i] = c == 2 ? -x[i] : x[i] * (float)(c + 1);
                    assert_same(r[c], ref_fsum(col, n), "column form", n, kind);
                }
                free(col);
            }
            free(x);
        }
}

/* NaN and infinities go through as in any sum; an empty sum and sums of zeros are +0 */
TEST(fsum__specials__nan_inf_and_zeros) {
    float x[600];
    for (int i = 0; i < 600; i++) x[i] = -0.0f;
    gtc_fsum f;
    gtc_fsum_init(&f), gtc_fsum_add(&f, x, 600, 1);
    float z = gtc_fsum_end(&f);
    assert_true(z == 0 && !signbit(z));
    gtc_fsum_init(&f);
    z = gtc_fsum_end(&f);
    assert_true(z == 0 && !signbit(z));
    for (int i = 0; i < 600; i++) x[i] = 1;
    x[300] = INFINITY;
    gtc_fsum_init(&f), gtc_fsum_add(&f, x, 600, 1);
    assert_true(isinf(gtc_fsum_end(&f)));
    x[500] = -INFINITY;
    gtc_fsum_init(&f), gtc_fsum_add(&f, x, 600, 1);
    assert_true(isnan(gtc_fsum_end(&f)));
    x[300] = x[500] = 1, x[599] = NAN;
    gtc_fsum_init(&f), gtc_fsum_add(&f, x, 600, 1);
    assert_true(isnan(gtc_fsum_end(&f)));
}

/* ---- the error --------------------------------------------------------------------------------- */

/* |sum - exact| <= (16 + 4 + ceil(log2 blocks) + 1) * 2^-24 * sum |x|: 16 adds in a lane, 4 in the
 * fold, one per tree level, one for the final fold's rounding; the exact sum in long double (the
 * values' exponents span at most 2^±41, so with 64 bits of mantissa and n <= 1e6 it is within
 * 2^-40 relative of exact, far below the bound). A float32 chain over the same data breaks it. */
TEST(fsum__error__within_the_blocked_pairwise_bound) {
    for (int s = 0; s < NSIZES; s++)
        for (int kind = 0; kind < 5; kind++) {
            int64_t n = sizes[s];
            float *x = malloc((size_t)(n + 1) * sizeof *x);
            assert_non_null(x);
            fill(x, n, kind);
            long double exact = 0, mag = 0;
            float chain = 0;
            for (int64_t i = 0; i < n; i++) exact += x[i], mag += fabsl((long double)x[i]), chain += x[i];
            gtc_fsum f;
            gtc_fsum_init(&f), gtc_fsum_add(&f, x, n, 1);
            float got = gtc_fsum_end(&f);
            int levels = 0;
            while ((1ll << levels) * GTC_FSUM_BLOCK < n) levels++;
            long double bound = (GTC_FSUM_BLOCK / GTC_FSUM_LANES + 4 + levels + 1) * ldexpl(1, -24) * mag;
            long double err = fabsl((long double)got - exact);
            if (err > bound)
                fail_msg("n %lld kind %d: error %Lg above the bound %Lg", (long long)n, kind, err, bound);
            if (n == 1000000 && kind == 4) /* the same data, one float32 chain: 1% off */
                assert_true(fabsl((long double)chain - exact) > 100 * bound);
            free(x);
        }
}

/* ---- the eager reductions ---------------------------------------------------------------------- */

static RtTensor *tensor(const float *v, int rank, const int64_t *shape) {
    RtTensor *t = rt_empty(B, DT_FLOAT32, rank, shape);
    assert_non_null(t);
    memcpy(t->storage->data, v, (size_t)rt_numel(t) * sizeof(float));
    return t;
}

/* Every output of sum and mean of t (any view) over `mask` against ref_fsum of its elements
 * gathered in index order of the reduced axes; the mean divides in double and rounds once. */
static void check_eager(const RtTensor *t, unsigned mask, const char *what) {
    int r = t->rank;
    int64_t oshape[IR_MAX_RANK], kept = 1, count = 1;
    for (int i = 0; i < r; i++) {
        oshape[i] = (mask >> i) & 1 ? 1 : t->shape[i];
        kept *= oshape[i], count *= (mask >> i) & 1 ? t->shape[i] : 1;
    }
    RtTensor *os = rt_empty(B, DT_FLOAT32, r, oshape), *om = rt_empty(B, DT_FLOAT32, r, oshape);
    assert_int_equal(B->reduce(OP_SUM, os, t, mask), 0);
    assert_int_equal(B->reduce(OP_MEAN, om, t, mask), 0);
    float *vals = malloc((size_t)(count + 1) * sizeof *vals);
    assert_non_null(vals);
    const float *base = (const float *)t->storage->data + t->offset;
    for (int64_t o = 0; o < kept; o++) {
        int64_t oi[IR_MAX_RANK], rest = o;
        for (int i = r - 1; i >= 0; i--) oi[i] = rest % oshape[i], rest /= oshape[i];
        for (int64_t k = 0; k < count; k++) {
            int64_t idx[IR_MAX_RANK], kr = k, off = 0;
            for (int i = r - 1; i >= 0; i--) {
                if ((mask >> i) & 1) idx[i] = kr % t->shape[i], kr /= t->shape[i];
                else idx[i] = oi[i];
                off += idx[i] * t->strides[i];
            }
            vals[k] = base[off];
        }
        float want = ref_fsum(vals, count), wm = (float)((double)want / (double)count);
        float got = ((const float *)os->storage->data)[o], gm = ((const float *)om->storage->data)[o];
        if (memcmp(&got, &want, 4) || (count && memcmp(&gm, &wm, 4)))
            fail_msg("%s mask 0x%x output %lld: sum %.9g mean %.9g, the order gives %.9g and %.9g", what, mask,
                     (long long)o, got, gm, want, wm);
        if (!count) assert_true(isnan(gm));
    }
    free(vals);
    rt_release(os), rt_release(om);
}

TEST(fsum__eager_sum_and_mean__every_output_in_the_order) {
    /* [3, 700, 150]: every axis set (rows, columns of the last axis kept, a middle axis); odd
     * sizes so blocks and column tiles end short */
    static const int64_t shape[3] = {3, 700, 150};
    int64_t n = 300 * 4099; /* the largest tensor below */
    float *v = malloc((size_t)n * sizeof *v);
    assert_non_null(v);
    fill(v, n, 3);
    RtTensor *t = tensor(v, 3, shape);
    for (unsigned mask = 0; mask < 8; mask++) check_eager(t, mask, "contiguous");
    /* a transposed view [150, 700, 3] and a strided slice [3, 350, 75] of it */
    RtTensor tt = *t;
    tt.shape[0] = 150, tt.shape[2] = 3, tt.strides[0] = 1, tt.strides[2] = 700 * 150;
    for (unsigned mask = 0; mask < 8; mask++) check_eager(&tt, mask, "transposed");
    RtTensor sl = *t;
    sl.shape[1] = 350, sl.shape[2] = 75, sl.strides[1] *= 2, sl.strides[2] = 2, sl.offset = 151;
    for (unsigned mask = 0; mask < 8; mask++) check_eager(&sl, mask, "strided");
    /* a long row (several levels), columns wider than one tile of the column path, empty axes */
    static const int64_t l1[1] = {300001}, w2[2] = {300, 4099}, e2[2] = {4, 0};
    RtTensor *lt = tensor(v, 1, l1), *wt = tensor(v, 2, w2), *et = rt_empty(B, DT_FLOAT32, 2, e2);
    check_eager(lt, 1, "long row");
    check_eager(wt, 1, "wide columns");
    check_eager(et, 2, "empty rows");
    rt_release(t), rt_release(lt), rt_release(wt), rt_release(et);
    free(v);
}

static void set_threads(const char *v) {
    char err[160];
    assert_int_equal(rt_cpu_set_threads(v, "test", err, sizeof err), 0);
    assert_int_equal(rt_cpu_threads(), atoi(v));
}

/* the eager sums above the parallel threshold: the same bits at 1 and 3 threads */
TEST(fsum__eager__same_bits_at_any_thread_count) {
    static const int64_t shape[2] = {1003, 517};
    int64_t n = shape[0] * shape[1];
    float *v = malloc((size_t)n * sizeof *v);
    assert_non_null(v);
    fill(v, n, 0);
    RtTensor *t = tensor(v, 2, shape);
    static const int64_t o0[2] = {1, 517}, o1[2] = {1003, 1}, o2[2] = {1, 1};
    const int64_t *os[3] = {o0, o1, o2};
    for (unsigned mask = 1; mask <= 3; mask++) {
        RtTensor *a = rt_empty(B, DT_FLOAT32, 2, os[mask - 1]), *b = rt_empty(B, DT_FLOAT32, 2, os[mask - 1]);
        set_threads("1");
        assert_int_equal(B->reduce(OP_SUM, a, t, mask), 0);
        set_threads("3");
        assert_int_equal(B->reduce(OP_SUM, b, t, mask), 0);
        assert_memory_equal(a->storage->data, b->storage->data, (size_t)rt_numel(a) * sizeof(float));
        rt_release(a), rt_release(b);
    }
    rt_release(t);
    free(v);
}

int main(void) {
    unsetenv("GTC_CPU_THREADS"); /* it would override the counts the thread test sets */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fsum__every_form__bits_of_the_documented_order),
        cmocka_unit_test(fsum__specials__nan_inf_and_zeros),
        cmocka_unit_test(fsum__error__within_the_blocked_pairwise_bound),
        cmocka_unit_test(fsum__eager_sum_and_mean__every_output_in_the_order),
        cmocka_unit_test(fsum__eager__same_bits_at_any_thread_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
