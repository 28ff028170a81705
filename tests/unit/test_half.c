/* tests/unit/test_half.c: ir/scalar.h's bfloat16 and float16 conversions (the one rounding every
 * backend uses) against tests/ref/half_ref.py's exact-rational reference, and exhaustively over
 * all 65536 bit patterns of each format. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "../../ir/scalar.h"

#define TEST(name) static void name(void **state __attribute__((unused)))
#define GTC_REF_NAN NAN
#define GTC_REF_INF INFINITY

static const struct { double x; uint16_t bf16, f16; } ref[] = {
#include "half_ref.inc"
};

TEST(to_bf16_f16__reference_doubles__exact_rational_rounding) {
    for (size_t i = 0; i < sizeof ref / sizeof *ref; i++) {
        double x = ref[i].x;
        gtc_bf16 b = gtc_to_bf16(x);
        gtc_f16 h = gtc_to_f16(x);
        if (b.bits != ref[i].bf16) fail_msg("bfloat16(%.17g) = 0x%04x, want 0x%04x", x, b.bits, ref[i].bf16);
        if (h.bits != ref[i].f16) fail_msg("float16(%.17g) = 0x%04x, want 0x%04x", x, h.bits, ref[i].f16);
        /* from float: the same rounding (float -> double is exact) */
        if ((double)(float)x == x) {
            assert_int_equal(gtc_to_bf16((float)x).bits, ref[i].bf16);
            assert_int_equal(gtc_to_f16((float)x).bits, ref[i].f16);
        }
    }
}

/* Every finite pattern widens to a float that rounds back to the same pattern; NaNs widen to NaN
 * and come back as the canonical 0x7fff; infinities stay. Widening is monotonic. */
TEST(every_bit_pattern__widen_and_round__round_trips) {
    for (uint32_t u = 0; u < 65536; u++) {
        gtc_bf16 b = {(uint16_t)u};
        gtc_f16 h = {(uint16_t)u};
        float fb = gtc_to_f32(b), fh = gtc_to_f32(h);
        bool bnan = (u & 0x7f80) == 0x7f80 && (u & 0x7f), hnan = (u & 0x7c00) == 0x7c00 && (u & 0x3ff);
        assert_int_equal(isnan(fb), bnan);
        assert_int_equal(isnan(fh), hnan);
        assert_int_equal(gtc_to_bf16(fb).bits, bnan ? 0x7fff : u);
        assert_int_equal(gtc_to_f16(fh).bits, hnan ? 0x7fff : u);
        assert_int_equal(gtc_to_bf16((double)fb).bits, bnan ? 0x7fff : u);
        if (!hnan && !(u & 0x8000) && u < 0x7c00) { /* positive finite: the next pattern is larger */
            gtc_f16 n = {(uint16_t)(u + 1)};
            assert_true(gtc_to_f32(n) > fh);
        }
    }
    /* float16 values by formula: subnormals m * 2^-24, normals (1 + m/1024) * 2^(e-15) */
    assert_true(gtc_to_f64((gtc_f16){0x0001}) == ldexp(1, -24));
    assert_true(gtc_to_f64((gtc_f16){0x03ff}) == 1023 * ldexp(1, -24));
    assert_true(gtc_to_f64((gtc_f16){0x0400}) == ldexp(1, -14));
    assert_true(gtc_to_f64((gtc_f16){0x7bff}) == 65504.0);
    assert_true(gtc_to_f64((gtc_f16){0xc000}) == -2.0);
    assert_true(gtc_to_f64((gtc_bf16){0x3f80}) == 1.0);
    assert_true(gtc_to_f64((gtc_bf16){0x0001}) == ldexp(1, -133));
}

/* 64-bit integers round once (their low bits jammed), not through double's nearest value. */
TEST(to_bf16_f16__int64_beyond_2_53__rounded_once) {
    int64_t v = ((int64_t)1 << 60) + ((int64_t)1 << 52) + 1; /* just above a bfloat16 tie */
    assert_true(gtc_to_f64(gtc_to_bf16(v)) == ldexp(1, 60) + ldexp(1, 53));
    assert_true(gtc_to_f64(gtc_to_bf16((double)v)) == ldexp(1, 60)); /* through double: the tie, even */
    uint64_t u = ((uint64_t)1 << 63) + ((uint64_t)1 << 55) + 1;
    assert_true(gtc_to_f64(gtc_to_bf16(u)) == ldexp(1, 63) + ldexp(1, 56));
    assert_int_equal(gtc_to_f16(v).bits, 0x7c00); /* beyond float16's range */
    assert_int_equal(gtc_to_f16((int64_t)-2049).bits, gtc_to_f16(-2048.0).bits); /* tie to even */
    assert_int_equal(gtc_to_f16((int64_t)2051).bits, gtc_to_f16(2052.0).bits);
    assert_int_equal(gtc_to_bf16((int32_t)257).bits, gtc_to_bf16(256.0).bits);
}

/* To integers and bool as `cast` does from any float: saturating, NaN -> 0, != 0 for bool. */
TEST(from_bf16_f16__to_integers_and_bool__saturate_nan_zero) {
    gtc_bf16 big = gtc_to_bf16(1e30), nan = {0x7fc0}, neg = gtc_to_bf16(-3.75);
    assert_int_equal(gtc_to_i32(big), INT32_MAX);
    assert_int_equal(gtc_to_i8(neg), -3);
    assert_int_equal(gtc_to_u8(neg), 0);
    assert_int_equal(gtc_to_i64(nan), 0);
    assert_int_equal(gtc_to_bool(nan), 1);
    assert_int_equal(gtc_to_bool((gtc_f16){0x8000}), 0); /* -0 */
    assert_int_equal(gtc_to_u16(gtc_to_f16(65504.0)), 65504);
    assert_int_equal(gtc_to_bf16(gtc_to_f16(65504.0)).bits, gtc_to_bf16(65504.0).bits);
    assert_int_equal(gtc_to_f16(gtc_to_bf16(1e30)).bits, 0x7c00);
    assert_int_equal(gtc_cast(gtc_f16, 2.5).bits, 0x4100);
    assert_true(gtc_cast(float, gtc_to_bf16(2.5)) == 2.5f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(to_bf16_f16__reference_doubles__exact_rational_rounding),
        cmocka_unit_test(every_bit_pattern__widen_and_round__round_trips),
        cmocka_unit_test(to_bf16_f16__int64_beyond_2_53__rounded_once),
        cmocka_unit_test(from_bf16_f16__to_integers_and_bool__saturate_nan_zero),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
