/* tests/unit/test_scalar.c: ir/scalar.h, the scalar helpers every CPU loop and generated C kernel
 * shares (the CUDA prelude has its own forms), against the plain formulas they stand for. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "../../ir/scalar.h"

#define TEST(name) static void name(void **state __attribute__((unused)))

/* scalar.h's float max/min/relu/where are written for branch-free code; they must give the bits
 * of the plain formulas ((a > b || a != a) ? a : b, ...): NaN from either side, b on a tie (so
 * the sign of a zero follows b), relu(-0) = -0, where's operand as it is (a NaN's sign and
 * payload too). Every pair of a set of special values, both types. */
#define REF_MAX(a, b) (((a) > (b) || (a) != (a)) ? (a) : (b))
#define REF_MIN(a, b) (((a) < (b) || (a) != (a)) ? (a) : (b))
#define REF_RELU(a) ((a) < 0 ? 0 : (a))
TEST(scalar__max_min_relu_where__same_bits_as_plain_formulas) {
    const double v[] = {NAN, -NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 1e-40, -2.5, 3.0};
    const int n = (int)(sizeof v / sizeof v[0]);
    for (int i = 0; i < n; i++) {
        float fa = (float)v[i], fr = gtc_relu(fa), fw = REF_RELU(fa);
        double da = v[i], dr = gtc_relu(da), dw = REF_RELU(da);
        assert_memory_equal(&fr, &fw, sizeof fr);
        assert_memory_equal(&dr, &dw, sizeof dr);
        for (int j = 0; j < n; j++) {
            float fb = (float)v[j];
            float f1 = gtc_max(fa, fb), f2 = REF_MAX(fa, fb), f3 = gtc_min(fa, fb), f4 = REF_MIN(fa, fb);
            double db = v[j];
            double d1 = gtc_max(da, db), d2 = REF_MAX(da, db), d3 = gtc_min(da, db), d4 = REF_MIN(da, db);
            assert_memory_equal(&f1, &f2, sizeof f1);
            assert_memory_equal(&f3, &f4, sizeof f3);
            assert_memory_equal(&d1, &d2, sizeof d1);
            assert_memory_equal(&d3, &d4, sizeof d3);
            for (gtc_bool c = 0; c <= 1; c++) {
                float f5 = gtc_where(c, fa, fb), f6 = c ? fa : fb;
                double d5 = gtc_where(c, da, db), d6 = c ? da : db;
                assert_memory_equal(&f5, &f6, sizeof f5);
                assert_memory_equal(&d5, &d6, sizeof d5);
            }
        }
    }
    /* the integer forms stay the plain ones, in the operand's type */
    assert_int_equal(gtc_max(INT64_MIN, (int64_t)-1), -1);
    assert_int_equal(gtc_min((uint32_t)7, (uint32_t)0xffffffffu), 7);
    assert_int_equal(gtc_relu((int32_t)-5), 0);
    assert_int_equal(gtc_where((gtc_bool)1, (int64_t)-3, (int64_t)4), -3);
}
#undef REF_MAX
#undef REF_MIN
#undef REF_RELU

/* gtc_expf (glibc's expf algorithm without FMA, written out so that it vectorises) against libm's
 * expf, bitwise: 2^24 bit patterns spread over all 2^32 (a multiplicative walk), every float in
 * [-1, 1] at a stride, the special values and the edges of the ranges (overflow above
 * 0x1.62e42ep6, +0 below -0x1.9fe368p6, NaN, infinities, zeros, subnormals). The two inputs
 * where glibc's FMA build (picked on a CPU with FMA) rounds the other way get their non-FMA value
 * (an exhaustive check over 2^32 floats, glibc 2.36: no other difference). */
TEST(scalar__expf__same_bits_as_glibc) {
    const uint32_t fma_x[2] = {0x4202422fu, 0xc27c65d9u};     /* 0x1.04845ep+5, -0x1.f8cbb2p+5 */
    const uint32_t fma_nofma[2] = {0x56fc9f1bu, 0x11fa2992u}; /* 0x1.f93e36p+46, 0x1.f45324p-92 */
    const float sp[] = {NAN, -NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 1e-45f, -1e-45f, 1e-38f, FLT_MIN,
                        0x1.62e42ep6f, 0x1.62e430p6f, 0x1.62e42cp6f, -0x1.9fe368p6f, -0x1.9fe36ap6f,
                        -0x1.9fe366p6f, 88.0f, -88.0f, 0x1p-30f, -0x1p-30f, 1.0f, -1.0f, FLT_MAX, -FLT_MAX};
    long checked = 0;
    for (uint32_t i = 0; i < (1u << 24); i++) {
        uint32_t u = i * 0x9e3779b1u;
        float x;
        memcpy(&x, &u, 4);
        float got = gtc_expf(x), want = expf(x);
        if (got != got && want != want) continue; /* NaN: any payload */
        for (int k = 0; k < 2; k++)
            if (u == fma_x[k]) memcpy(&want, &fma_nofma[k], 4);
        if (memcmp(&got, &want, 4)) fail_msg("gtc_expf(%a) = %a, expf = %a", (double)x, (double)got, (double)want);
        checked++;
    }
    for (uint32_t u = 0; u <= 0x3f800000u; u += 997) /* [-1, 1], every 997th float */
        for (uint32_t sign = 0; sign < 2; sign++) {
            uint32_t v = u | sign << 31;
            float x, got, want;
            memcpy(&x, &v, 4);
            got = gtc_expf(x), want = expf(x);
            if (memcmp(&got, &want, 4)) fail_msg("gtc_expf(%a) = %a, expf = %a", (double)x, (double)got, (double)want);
        }
    for (size_t i = 0; i < sizeof sp / sizeof sp[0]; i++) {
        float got = gtc_expf(sp[i]), want = expf(sp[i]);
        if (sp[i] != sp[i]) {
            assert_true(got != got);
            continue;
        }
        if (memcmp(&got, &want, 4)) fail_msg("gtc_expf(%a) = %a, expf = %a", (double)sp[i], (double)got, (double)want);
    }
    for (int k = 0; k < 2; k++) { /* the two inputs: the non-FMA value, within 1 ulp of glibc's either way */
        float x, got, want;
        memcpy(&x, &fma_x[k], 4);
        memcpy(&want, &fma_nofma[k], 4);
        got = gtc_expf(x);
        assert_memory_equal(&got, &want, 4);
        assert_true(fabsf(expf(x) - got) <= nextafterf(got, INFINITY) - got);
    }
    assert_true(checked > (1 << 23));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(scalar__max_min_relu_where__same_bits_as_plain_formulas),
        cmocka_unit_test(scalar__expf__same_bits_as_glibc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
