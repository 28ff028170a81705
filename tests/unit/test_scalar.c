/* tests/unit/test_scalar.c: ir/scalar.h, the scalar helpers every CPU loop and generated C kernel
 * shares (the CUDA prelude has its own forms), against the plain formulas they stand for. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>

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

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(scalar__max_min_relu_where__same_bits_as_plain_formulas),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
