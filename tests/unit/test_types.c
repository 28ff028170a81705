/* tests/unit/test_types.c: dtypes, promotion, broadcasting, shape text, identifiers, numbers. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "../../ir/ir.h"

#define TEST(name) static void name(void **state __attribute__((unused)))

static TensorType shape_of(int rank, const int64_t *dims) {
    TensorType t = {0};
    t.dtype = DT_FLOAT32;
    t.rank = rank;
    for (int i = 0; i < rank; i++) t.dims[i] = dims[i];
    return t;
}
#define SHAPE(...) shape_of((int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)), \
                            (int64_t[]){__VA_ARGS__})

static void assert_dims(const TensorType *t, int rank, const int64_t *dims) {
    assert_int_equal(t->rank, rank);
    for (int i = 0; i < rank; i++) assert_int_equal(t->dims[i], dims[i]);
}
#define ASSERT_DIMS(t, ...) assert_dims((t), (int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)), \
                                        (int64_t[]){__VA_ARGS__})

/* ---- dtypes ----------------------------------------------------------------------------------- */

TEST(ir_dtype_name__each_dtype__canonical_name) {
    assert_string_equal(ir_dtype_name(DT_BOOL), "bool");
    assert_string_equal(ir_dtype_name(DT_INT32), "int32");
    assert_string_equal(ir_dtype_name(DT_INT64), "int64");
    assert_string_equal(ir_dtype_name(DT_FLOAT32), "float32");
    assert_string_equal(ir_dtype_name(DT_FLOAT64), "float64");
}

TEST(ir_dtype_name__out_of_range__question_mark) {
    assert_string_equal(ir_dtype_name(DT_COUNT), "?");
    assert_string_equal(ir_dtype_name((DType)-1), "?");
    assert_string_equal(ir_dtype_short(DT_COUNT), "?");
    assert_int_equal(ir_dtype_size(DT_COUNT), 0);
}

TEST(ir_dtype_short__each_dtype__dump_name) {
    assert_string_equal(ir_dtype_short(DT_BOOL), "bool");
    assert_string_equal(ir_dtype_short(DT_INT32), "i32");
    assert_string_equal(ir_dtype_short(DT_INT64), "i64");
    assert_string_equal(ir_dtype_short(DT_FLOAT32), "f32");
    assert_string_equal(ir_dtype_short(DT_FLOAT64), "f64");
}

TEST(ir_dtype_size__each_dtype__byte_width) {
    assert_int_equal(ir_dtype_size(DT_BOOL), 1);
    assert_int_equal(ir_dtype_size(DT_INT32), 4);
    assert_int_equal(ir_dtype_size(DT_INT64), 8);
    assert_int_equal(ir_dtype_size(DT_FLOAT32), 4);
    assert_int_equal(ir_dtype_size(DT_FLOAT64), 8);
}

TEST(ir_dtype_from_name__each_name__round_trips) {
    for (int i = 0; i < DT_COUNT; i++) {
        DType t = DT_COUNT;
        assert_int_equal(ir_dtype_from_name(ir_dtype_name((DType)i), &t), 0);
        assert_int_equal(t, i);
    }
}

TEST(ir_dtype_from_name__unknown__minus_one_and_out_untouched) {
    const char *bad[] = {"half", "bf16", "f16", "Float32", "float", "int", "f32", "i64", "bool ", "", "uint128", "int4"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        DType t = DT_COUNT;
        assert_int_equal(ir_dtype_from_name(bad[i], &t), -1);
        assert_int_equal(t, DT_COUNT);
    }
}

TEST(ir_dtype_is_float__each_dtype__only_floats) {
    assert_false(ir_dtype_is_float(DT_BOOL));
    assert_false(ir_dtype_is_float(DT_INT32));
    assert_false(ir_dtype_is_float(DT_INT64));
    assert_true(ir_dtype_is_float(DT_FLOAT32));
    assert_true(ir_dtype_is_float(DT_FLOAT64));
    assert_true(ir_dtype_is_float(DT_BFLOAT16));
    assert_true(ir_dtype_is_float(DT_FLOAT16));
    assert_false(ir_dtype_is_int(DT_BFLOAT16));
    assert_false(ir_dtype_is_unsigned(DT_FLOAT16));
    assert_true(ir_dtype_is_half(DT_BFLOAT16));
    assert_true(ir_dtype_is_half(DT_FLOAT16));
    assert_false(ir_dtype_is_half(DT_FLOAT32));
    assert_false(ir_dtype_is_half(DT_UINT16));
}

TEST(ir_dtype_is_int__each_dtype__the_integers_not_bool) {
    assert_false(ir_dtype_is_int(DT_BOOL));
    assert_true(ir_dtype_is_int(DT_INT32));
    assert_true(ir_dtype_is_int(DT_INT64));
    assert_false(ir_dtype_is_int(DT_FLOAT32));
    assert_false(ir_dtype_is_int(DT_FLOAT64));
    const DType ints[] = {DT_INT8, DT_UINT8, DT_INT16, DT_UINT16, DT_UINT32, DT_UINT64};
    for (size_t i = 0; i < sizeof ints / sizeof *ints; i++) {
        assert_true(ir_dtype_is_int(ints[i]));
        assert_false(ir_dtype_is_float(ints[i]));
        assert_int_equal(ir_dtype_is_unsigned(ints[i]), ir_dtype_name(ints[i])[0] == 'u');
    }
    assert_false(ir_dtype_is_unsigned(DT_BOOL));
}

TEST(ir_dtype_names__new_dtypes__names_short_names_sizes) {
    static const struct { DType t; const char *name, *sh; size_t size; } rows[] = {
        {DT_INT8, "int8", "i8", 1},      {DT_UINT8, "uint8", "u8", 1},
        {DT_INT16, "int16", "i16", 2},   {DT_UINT16, "uint16", "u16", 2},
        {DT_UINT32, "uint32", "u32", 4}, {DT_UINT64, "uint64", "u64", 8},
        {DT_BFLOAT16, "bfloat16", "bf16", 2}, {DT_FLOAT16, "float16", "f16", 2},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        assert_string_equal(ir_dtype_name(rows[i].t), rows[i].name);
        assert_string_equal(ir_dtype_short(rows[i].t), rows[i].sh);
        assert_int_equal(ir_dtype_size(rows[i].t), rows[i].size);
    }
}

/* The plan ABI stores dtype numbers: the first five keep theirs. */
TEST(dtype_enum__existing_dtypes__numbers_unchanged) {
    assert_int_equal(DT_BOOL, 0);
    assert_int_equal(DT_INT32, 1);
    assert_int_equal(DT_INT64, 2);
    assert_int_equal(DT_FLOAT32, 3);
    assert_int_equal(DT_FLOAT64, 4);
}

TEST(ir_dtype_list__all__display_order) {
    assert_string_equal(ir_dtype_list(), "bool, int8, int16, int32, int64, uint8, uint16, uint32, "
                                         "uint64, bfloat16, float16, float32 or float64");
}

TEST(ir_numel__shapes__product_of_dims) {
    TensorType s = SHAPE(2, 3, 4);
    assert_int_equal(ir_numel(&s), 24);
    TensorType z = SHAPE(5, 0, 7);
    assert_int_equal(ir_numel(&z), 0);
    TensorType r0 = {0};
    assert_int_equal(ir_numel(&r0), 1);
}

TEST(ir_type_equal__dtype_rank_dims__compared) {
    TensorType a = SHAPE(2, 3), b = SHAPE(2, 3), c = SHAPE(3, 2), d = SHAPE(2, 3, 1);
    assert_true(ir_type_equal(&a, &b));
    assert_false(ir_type_equal(&a, &c));
    assert_false(ir_type_equal(&a, &d));
    b.dtype = DT_FLOAT64;
    assert_false(ir_type_equal(&a, &b));
}

/* ---- promotion -------------------------------------------------------------------------------- */

TEST(ir_promote__int32_and_float32__float32) {
    assert_int_equal(ir_promote(DT_INT32, false, DT_FLOAT32, false), DT_FLOAT32);
}

TEST(ir_promote__int64_and_float32__float32) {
    assert_int_equal(ir_promote(DT_INT64, false, DT_FLOAT32, false), DT_FLOAT32);
    assert_int_equal(ir_promote(DT_FLOAT32, false, DT_INT64, false), DT_FLOAT32);
}

TEST(ir_promote__bool_and_int32__int32) {
    assert_int_equal(ir_promote(DT_BOOL, false, DT_INT32, false), DT_INT32);
}

/* The whole strong x strong table: NumPy's integer lattice (signed with unsigned: the signed
 * integer twice as wide, float64 with uint64), bool below all, an integer with a float gives that
 * float (int64 with float32: float32; any integer with bfloat16 or float16: that one, PyTorch's
 * rule), bfloat16 with float16 gives float32 (PyTorch's). */
TEST(ir_promote__strong_x_strong__table) {
    enum { B = DT_BOOL, I8 = DT_INT8, I16 = DT_INT16, I32 = DT_INT32, I64 = DT_INT64, U8 = DT_UINT8,
           U16 = DT_UINT16, U32 = DT_UINT32, U64 = DT_UINT64, F32 = DT_FLOAT32, F64 = DT_FLOAT64,
           BF = DT_BFLOAT16, H = DT_FLOAT16 };
    static const int order[DT_COUNT] = {B, I8, I16, I32, I64, U8, U16, U32, U64, F32, F64, BF, H};
    static const int want[DT_COUNT][DT_COUNT] = {
        /*        B    I8   I16  I32  I64  U8   U16  U32  U64  F32  F64  BF   H  */
        /* B  */ {B,   I8,  I16, I32, I64, U8,  U16, U32, U64, F32, F64, BF,  H},
        /* I8 */ {I8,  I8,  I16, I32, I64, I16, I32, I64, F64, F32, F64, BF,  H},
        /* I16*/ {I16, I16, I16, I32, I64, I16, I32, I64, F64, F32, F64, BF,  H},
        /* I32*/ {I32, I32, I32, I32, I64, I32, I32, I64, F64, F32, F64, BF,  H},
        /* I64*/ {I64, I64, I64, I64, I64, I64, I64, I64, F64, F32, F64, BF,  H},
        /* U8 */ {U8,  I16, I16, I32, I64, U8,  U16, U32, U64, F32, F64, BF,  H},
        /* U16*/ {U16, I32, I32, I32, I64, U16, U16, U32, U64, F32, F64, BF,  H},
        /* U32*/ {U32, I64, I64, I64, I64, U32, U32, U32, U64, F32, F64, BF,  H},
        /* U64*/ {U64, F64, F64, F64, F64, U64, U64, U64, U64, F32, F64, BF,  H},
        /* F32*/ {F32, F32, F32, F32, F32, F32, F32, F32, F32, F32, F64, F32, F32},
        /* F64*/ {F64, F64, F64, F64, F64, F64, F64, F64, F64, F64, F64, F64, F64},
        /* BF */ {BF,  BF,  BF,  BF,  BF,  BF,  BF,  BF,  BF,  F32, F64, BF,  F32},
        /* H  */ {H,   H,   H,   H,   H,   H,   H,   H,   H,   F32, F64, F32, H},
    };
    for (int i = 0; i < DT_COUNT; i++)
        for (int j = 0; j < DT_COUNT; j++) {
            DType a = (DType)order[i], b = (DType)order[j];
            DType got = ir_promote(a, false, b, false);
            if (got != (DType)want[i][j])
                fail_msg("promote(%s, %s) = %s, want %s", ir_dtype_name(a), ir_dtype_name(b),
                         ir_dtype_name(got), ir_dtype_name((DType)want[i][j]));
        }
}

/* An integral constant (weak int64) takes the tensor's dtype, whichever side it is on, except
 * that a number lifts a bool tensor to int32. */
TEST(ir_promote__int_constant_with_each_tensor__tensor_dtype_bool_int32) {
    for (int t = 0; t < DT_COUNT; t++) {
        DType want = t == DT_BOOL ? DT_INT32 : (DType)t;
        assert_int_equal(ir_promote(DT_INT64, true, (DType)t, false), want);
        assert_int_equal(ir_promote((DType)t, false, DT_INT64, true), want);
    }
}

TEST(ir_promote__int_constant_with_bool_tensor__int32) {
    assert_int_equal(ir_promote(DT_INT64, true, DT_BOOL, false), DT_INT32);
    assert_int_equal(ir_promote(DT_BOOL, false, DT_INT64, true), DT_INT32);
}

TEST(ir_promote__int_constant_with_int32_tensor__int32) {
    assert_int_equal(ir_promote(DT_INT32, false, DT_INT64, true), DT_INT32);
}

/* A float constant (weak float32) lifts bool and int tensors to float32 and keeps float ones. */
TEST(ir_promote__float_constant_with_each_tensor__float32_or_tensor_float) {
    assert_int_equal(ir_promote(DT_FLOAT32, true, DT_BFLOAT16, false), DT_BFLOAT16);
    for (int t = 0; t < DT_COUNT; t++) {
        DType want = ir_dtype_is_float((DType)t) ? (DType)t : DT_FLOAT32; /* bfloat16 stays */
        assert_int_equal(ir_promote(DT_FLOAT32, true, (DType)t, false), want);
        assert_int_equal(ir_promote((DType)t, false, DT_FLOAT32, true), want);
    }
}

TEST(ir_promote__float_constant_with_float64_tensor__float64) {
    assert_int_equal(ir_promote(DT_FLOAT64, false, DT_FLOAT32, true), DT_FLOAT64);
}

TEST(ir_promote__float_constant_with_int64_tensor__float32) {
    assert_int_equal(ir_promote(DT_INT64, false, DT_FLOAT32, true), DT_FLOAT32);
}

TEST(ir_promote__two_constants__higher_rank) {
    assert_int_equal(ir_promote(DT_INT64, true, DT_FLOAT32, true), DT_FLOAT32);
    assert_int_equal(ir_promote(DT_INT64, true, DT_INT64, true), DT_INT64);
}

/* ---- broadcasting ----------------------------------------------------------------------------- */

static int bcast(int n, const TensorType *ts, TensorType *out, char *err, size_t errn) {
    const TensorType *p[8];
    for (int i = 0; i < n; i++) p[i] = &ts[i];
    return ir_broadcast(p, n, out, err, errn);
}

TEST(ir_broadcast__equal_shapes__same_shape) {
    TensorType in[2] = {SHAPE(2, 3), SHAPE(2, 3)}, out;
    char err[256] = "";
    assert_int_equal(bcast(2, in, &out, err, sizeof err), 0);
    ASSERT_DIMS(&out, 2, 3);
}

TEST(ir_broadcast__rank_extension__leading_dims_added) {
    TensorType in[2] = {SHAPE(4, 2, 3), SHAPE(3)}, out;
    char err[256] = "";
    assert_int_equal(bcast(2, in, &out, err, sizeof err), 0);
    ASSERT_DIMS(&out, 4, 2, 3);
    TensorType in2[2] = {SHAPE(3), SHAPE(4, 2, 3)};
    assert_int_equal(bcast(2, in2, &out, err, sizeof err), 0);
    ASSERT_DIMS(&out, 4, 2, 3);
}

TEST(ir_broadcast__ones_expand__other_size) {
    TensorType in[2] = {SHAPE(5, 1, 3), SHAPE(1, 4, 1)}, out;
    char err[256] = "";
    assert_int_equal(bcast(2, in, &out, err, sizeof err), 0);
    ASSERT_DIMS(&out, 5, 4, 3);
}

TEST(ir_broadcast__scalar_and_matrix__matrix) {
    TensorType in[2] = {{0}, SHAPE(2, 3)}, out;
    char err[256] = "";
    assert_int_equal(bcast(2, in, &out, err, sizeof err), 0);
    ASSERT_DIMS(&out, 2, 3);
}

TEST(ir_broadcast__two_scalars__rank0) {
    TensorType in[2] = {{0}, {0}}, out;
    char err[256] = "";
    assert_int_equal(bcast(2, in, &out, err, sizeof err), 0);
    assert_int_equal(out.rank, 0);
}

TEST(ir_broadcast__three_operands__combined_shape) {
    TensorType in[3] = {SHAPE(2, 1, 1), SHAPE(3, 1), SHAPE(4)}, out;
    char err[256] = "";
    assert_int_equal(bcast(3, in, &out, err, sizeof err), 0);
    ASSERT_DIMS(&out, 2, 3, 4);
}

TEST(ir_broadcast__zero_and_one__zero) {
    TensorType in[2] = {SHAPE(0, 3), SHAPE(1, 3)}, out;
    char err[256] = "";
    assert_int_equal(bcast(2, in, &out, err, sizeof err), 0);
    ASSERT_DIMS(&out, 0, 3);
}

TEST(ir_broadcast__zero_and_five__error) {
    TensorType in[2] = {SHAPE(0), SHAPE(5)}, out;
    char err[256] = "";
    assert_int_equal(bcast(2, in, &out, err, sizeof err), -1);
    assert_string_equal(err, "cannot broadcast [0] and [5]");
}

TEST(ir_broadcast__incompatible_shapes__message_names_both) {
    TensorType in[2] = {SHAPE(2, 3), SHAPE(4)}, out;
    char err[256] = "";
    assert_int_equal(bcast(2, in, &out, err, sizeof err), -1);
    assert_string_equal(err, "cannot broadcast [2,3] and [4]");
}

TEST(ir_broadcast__incompatible_three_operands__message_names_all) {
    TensorType in[3] = {SHAPE(2, 3), SHAPE(3), SHAPE(2, 1, 4)}, out;
    char err[256] = "";
    assert_int_equal(bcast(3, in, &out, err, sizeof err), -1);
    assert_string_equal(err, "cannot broadcast [2,3] and [3] and [2,1,4]");
}

/* Three rank-8 shapes of 10-digit dimensions give a message longer than any fixed buffer: it must
 * be truncated, never written past the end (this overflowed a 160-byte buffer once). */
TEST(ir_broadcast__long_incompatible_shapes__message_truncated_safely) {
    TensorType in[3];
    for (int k = 0; k < 3; k++) {
        in[k] = (TensorType){0};
        in[k].rank = IR_MAX_RANK;
        for (int i = 0; i < IR_MAX_RANK; i++) in[k].dims[i] = 1000000000 + k;
    }
    TensorType out;
    char err[2048] = "";
    assert_int_equal(bcast(3, in, &out, err, sizeof err), -1);
    assert_true(strncmp(err, "cannot broadcast [1000000000,1000000000,", 40) == 0);
    assert_true(strlen(err) < sizeof err);
    char small[24];
    assert_int_equal(bcast(3, in, &out, small, sizeof small), -1);
    assert_string_equal(small, "cannot broadcast [10000");
}

/* ---- shape text ------------------------------------------------------------------------------- */

TEST(ir_shape_str__rank0__empty_brackets) {
    TensorType t = {0};
    char buf[32];
    assert_string_equal(ir_shape_str(&t, buf, sizeof buf), "[]");
}

TEST(ir_shape_str__matrix__comma_separated) {
    TensorType t = SHAPE(512, 480);
    char buf[32];
    assert_ptr_equal(ir_shape_str(&t, buf, sizeof buf), buf);
    assert_string_equal(buf, "[512,480]");
    TensorType v = SHAPE(7);
    assert_string_equal(ir_shape_str(&v, buf, sizeof buf), "[7]");
}

TEST(ir_shape_str__small_buffer__truncated_and_terminated) {
    TensorType t = SHAPE(512, 480, 3);
    char buf[8];
    memset(buf, 'x', sizeof buf);
    ir_shape_str(&t, buf, 6);
    assert_string_equal(buf, "[512,");
    assert_int_equal(buf[6], 'x');
    ir_shape_str(&t, buf, 1);
    assert_string_equal(buf, "");
}

/* ---- identifiers ------------------------------------------------------------------------------ */

TEST(ir_is_identifier__good_names__true) {
    const char *good[] = {"x", "_", "_0", "w1", "A_b9", "mlp_train_step", "__init__", "Z"};
    for (size_t i = 0; i < sizeof good / sizeof *good; i++)
        if (!ir_is_identifier(good[i])) fail_msg("\"%s\" should be an identifier", good[i]);
}

TEST(ir_is_identifier__128_chars__true) {
    char s[IR_MAX_NAME + 2];
    memset(s, 'a', IR_MAX_NAME);
    s[IR_MAX_NAME] = 0;
    assert_true(ir_is_identifier(s));
}

TEST(ir_is_identifier__129_chars__false) {
    char s[IR_MAX_NAME + 2];
    memset(s, 'a', IR_MAX_NAME + 1);
    s[IR_MAX_NAME + 1] = 0;
    assert_false(ir_is_identifier(s));
}

TEST(ir_is_identifier__leading_digit__false) {
    assert_false(ir_is_identifier("1x"));
    assert_false(ir_is_identifier("0"));
}

TEST(ir_is_identifier__unicode_bytes__false) {
    assert_false(ir_is_identifier("caf\xc3\xa9"));
    assert_false(ir_is_identifier("\xc3\xa9t\xc3\xa9"));
    assert_false(ir_is_identifier("x\xff"));
}

TEST(ir_is_identifier__empty_and_null__false) {
    assert_false(ir_is_identifier(""));
    assert_false(ir_is_identifier(NULL));
}

TEST(ir_is_identifier__punctuation__false) {
    const char *bad[] = {"a b", "a-b", "a.b", "a$", "$a", " a", "a\n", "a\"", "a/b", "a;"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (ir_is_identifier(bad[i])) fail_msg("\"%s\" should not be an identifier", bad[i]);
}

/* ---- numbers ---------------------------------------------------------------------------------- */

static void assert_fmt(double v, const char *want) {
    char buf[40];
    assert_ptr_equal(ir_fmt_number(v, buf, sizeof buf), buf);
    assert_string_equal(buf, want);
    assert_true(strtod(buf, NULL) == v);
}

TEST(ir_fmt_number__half__0_5) { assert_fmt(0.5, "0.5"); }
TEST(ir_fmt_number__512__512) { assert_fmt(512, "512"); }
TEST(ir_fmt_number__1e_8__1e_08) { assert_fmt(1e-8, "1e-08"); }
TEST(ir_fmt_number__0_1__0_1) { assert_fmt(0.1, "0.1"); }
TEST(ir_fmt_number__minus_5__minus_5) { assert_fmt(-5, "-5"); }
TEST(ir_fmt_number__one_third__16_digits_round_trip) { assert_fmt(1 / 3.0, "0.3333333333333333"); }
TEST(ir_fmt_number__0_1_plus_0_2__17_digits) { assert_fmt(0.1 + 0.2, "0.30000000000000004"); }

/* Integers print as integers, not as "4.8e+02". */
TEST(ir_fmt_number__integral_values__plain_digits) {
    assert_fmt(0, "0");
    assert_fmt(480, "480");
    assert_fmt(100, "100");
    assert_fmt(1000, "1000");
    assert_fmt(-256, "-256");
    assert_fmt(9007199254740992.0, "9007199254740992");
    assert_fmt(1e20, "1e+20");
}

TEST(ir_fmt_number__many_values__round_trip) {
    double vs[] = {1e-300, 5e-324, 1.7976931348623157e308, 3.141592653589793, -2.5e-7, 123456.789,
                   0.001, 1e15, 1e16, 1e17, -0.75, 2.0 / 3.0};
    char buf[40];
    for (size_t i = 0; i < sizeof vs / sizeof *vs; i++) {
        ir_fmt_number(vs[i], buf, sizeof buf);
        if (strtod(buf, NULL) != vs[i]) fail_msg("%.17g printed as %s", vs[i], buf);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ir_dtype_name__each_dtype__canonical_name),
        cmocka_unit_test(ir_dtype_name__out_of_range__question_mark),
        cmocka_unit_test(ir_dtype_short__each_dtype__dump_name),
        cmocka_unit_test(ir_dtype_size__each_dtype__byte_width),
        cmocka_unit_test(ir_dtype_from_name__each_name__round_trips),
        cmocka_unit_test(ir_dtype_from_name__unknown__minus_one_and_out_untouched),
        cmocka_unit_test(ir_dtype_is_float__each_dtype__only_floats),
        cmocka_unit_test(ir_dtype_is_int__each_dtype__the_integers_not_bool),
        cmocka_unit_test(ir_dtype_names__new_dtypes__names_short_names_sizes),
        cmocka_unit_test(dtype_enum__existing_dtypes__numbers_unchanged),
        cmocka_unit_test(ir_dtype_list__all__display_order),
        cmocka_unit_test(ir_numel__shapes__product_of_dims),
        cmocka_unit_test(ir_type_equal__dtype_rank_dims__compared),
        cmocka_unit_test(ir_promote__int32_and_float32__float32),
        cmocka_unit_test(ir_promote__int64_and_float32__float32),
        cmocka_unit_test(ir_promote__bool_and_int32__int32),
        cmocka_unit_test(ir_promote__strong_x_strong__table),
        cmocka_unit_test(ir_promote__int_constant_with_each_tensor__tensor_dtype_bool_int32),
        cmocka_unit_test(ir_promote__int_constant_with_bool_tensor__int32),
        cmocka_unit_test(ir_promote__int_constant_with_int32_tensor__int32),
        cmocka_unit_test(ir_promote__float_constant_with_each_tensor__float32_or_tensor_float),
        cmocka_unit_test(ir_promote__float_constant_with_float64_tensor__float64),
        cmocka_unit_test(ir_promote__float_constant_with_int64_tensor__float32),
        cmocka_unit_test(ir_promote__two_constants__higher_rank),
        cmocka_unit_test(ir_broadcast__equal_shapes__same_shape),
        cmocka_unit_test(ir_broadcast__rank_extension__leading_dims_added),
        cmocka_unit_test(ir_broadcast__ones_expand__other_size),
        cmocka_unit_test(ir_broadcast__scalar_and_matrix__matrix),
        cmocka_unit_test(ir_broadcast__two_scalars__rank0),
        cmocka_unit_test(ir_broadcast__three_operands__combined_shape),
        cmocka_unit_test(ir_broadcast__zero_and_one__zero),
        cmocka_unit_test(ir_broadcast__zero_and_five__error),
        cmocka_unit_test(ir_broadcast__incompatible_shapes__message_names_both),
        cmocka_unit_test(ir_broadcast__incompatible_three_operands__message_names_all),
        cmocka_unit_test(ir_broadcast__long_incompatible_shapes__message_truncated_safely),
        cmocka_unit_test(ir_shape_str__rank0__empty_brackets),
        cmocka_unit_test(ir_shape_str__matrix__comma_separated),
        cmocka_unit_test(ir_shape_str__small_buffer__truncated_and_terminated),
        cmocka_unit_test(ir_is_identifier__good_names__true),
        cmocka_unit_test(ir_is_identifier__128_chars__true),
        cmocka_unit_test(ir_is_identifier__129_chars__false),
        cmocka_unit_test(ir_is_identifier__leading_digit__false),
        cmocka_unit_test(ir_is_identifier__unicode_bytes__false),
        cmocka_unit_test(ir_is_identifier__empty_and_null__false),
        cmocka_unit_test(ir_is_identifier__punctuation__false),
        cmocka_unit_test(ir_fmt_number__half__0_5),
        cmocka_unit_test(ir_fmt_number__512__512),
        cmocka_unit_test(ir_fmt_number__1e_8__1e_08),
        cmocka_unit_test(ir_fmt_number__0_1__0_1),
        cmocka_unit_test(ir_fmt_number__minus_5__minus_5),
        cmocka_unit_test(ir_fmt_number__one_third__16_digits_round_trip),
        cmocka_unit_test(ir_fmt_number__0_1_plus_0_2__17_digits),
        cmocka_unit_test(ir_fmt_number__integral_values__plain_digits),
        cmocka_unit_test(ir_fmt_number__many_values__round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
