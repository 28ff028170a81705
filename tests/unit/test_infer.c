/* tests/unit/test_infer.c: the shape and dtype rule of every op (ir_infer_op and its helpers). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "../../ir/ir.h"

#define TEST(name) static void name(void **state __attribute__((unused)))

/* ---- helpers ---------------------------------------------------------------------------------- */

#define NDIMS(...) ((int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)))
/* A tensor type of dtype dt and the given dims; T0 is rank 0. */
#define T(dt, ...) tt((dt), NDIMS(__VA_ARGS__), (int64_t[]){__VA_ARGS__})
#define T0(dt) tt((dt), 0, NULL)
static TensorType tt(DType dt, int rank, const int64_t *dims) {
    TensorType t = {0};
    t.dtype = dt;
    t.rank = rank;
    for (int i = 0; i < rank; i++) t.dims[i] = dims[i];
    return t;
}
/* Weak constants as graph_operand_type gives them: 2 is an int, 2.5 a float. */
static const TensorType CI = {.dtype = DT_INT64, .weak = true};
static const TensorType CF = {.dtype = DT_FLOAT32, .weak = true};

static void set_ints(int64_t *dst, int *n, int count, const int64_t *src) {
    for (int i = 0; i < count; i++) dst[i] = src[i];
    *n = count;
}
static void set_small(int *dst, int *n, int count, const int64_t *src) {
    for (int i = 0; i < count; i++) dst[i] = (int)src[i];
    *n = count;
}
#define AXES(a, ...) ((a).has_axes = true, set_small((a).axes, &(a).naxes, NDIMS(__VA_ARGS__), (int64_t[]){__VA_ARGS__}))
#define PERM(a, ...) set_small((a).perm, &(a).nperm, NDIMS(__VA_ARGS__), (int64_t[]){__VA_ARGS__})
#define SHAPE(a, ...) set_ints((a).shape, &(a).nshape, NDIMS(__VA_ARGS__), (int64_t[]){__VA_ARGS__})
#define STARTS(a, ...) set_ints((a).starts, &(a).nslice, NDIMS(__VA_ARGS__), (int64_t[]){__VA_ARGS__})
#define ENDS(a, ...) do { int n_; set_ints((a).ends, &n_, NDIMS(__VA_ARGS__), (int64_t[]){__VA_ARGS__}); } while (0)
#define STEPS(a, ...) do { int n_; (a).has_steps = true; set_ints((a).steps, &n_, NDIMS(__VA_ARGS__), (int64_t[]){__VA_ARGS__}); } while (0)

static char err[512];
static TensorType out;

/* Runs ir_infer_op over the given operands; returns its result (err and out hold the rest). */
static int infer_n(Op op, const Attrs *a, int nin, const TensorType *in) {
    static const Attrs none;
    memset(err, 0, sizeof err);
    memset(&out, 0x5a, sizeof out);
    int rc = ir_infer_op(op, in, nin, a ? a : &none, &out, err, sizeof err);
    if (rc == 0 && err[0]) fail_msg("success with a message: %s", err);
    if (rc != 0 && !err[0]) fail_msg("failure without a message");
    return rc;
}
#define INFER(op, a, ...) infer_n((op), (a), (int)(sizeof((TensorType[]){__VA_ARGS__}) / sizeof(TensorType)), \
                                  (TensorType[]){__VA_ARGS__})
#define INFER0(op, a) infer_n((op), (a), 0, NULL)

static void expect_type(DType dt, int rank, const int64_t *dims) {
    char got[256], want[256];
    TensorType w = tt(dt, rank, dims);
    if (out.dtype != dt || !ir_type_equal(&out, &w))
        fail_msg("got %s%s, want %s%s", ir_dtype_name(out.dtype), ir_shape_str(&out, got, sizeof got),
                 ir_dtype_name(dt), ir_shape_str(&w, want, sizeof want));
    assert_false(out.weak);
}
/* Asserts success with the given dtype and shape. */
#define OK(rc, dt, ...) do { int rc_ = (rc); if (rc_) fail_msg("unexpected error: %s", err); \
                             expect_type((dt), NDIMS(__VA_ARGS__), (int64_t[]){__VA_ARGS__}); } while (0)
#define OK0(rc, dt) do { int rc_ = (rc); if (rc_) fail_msg("unexpected error: %s", err); \
                         expect_type((dt), 0, NULL); } while (0)
/* Asserts failure with exactly the given message. */
#define FAILS(rc, msg) do { int rc_ = (rc); if (rc_ != -1) fail_msg("expected \"%s\", got success", (msg)); \
                            assert_string_equal(err, (msg)); } while (0)

/* ---- one case per op: every op of ops.def has at least one row ------------------------------------ */

typedef struct {
    Op op;
    int nin;
    TensorType in[IR_MAX_INPUTS];
    Attrs at;
    DType dtype;
    int rank;
    int64_t dims[IR_MAX_RANK];
} Case;

#define X23 {.dtype = DT_FLOAT32, .rank = 2, .dims = {2, 3}}
#define X3 {.dtype = DT_FLOAT32, .rank = 1, .dims = {3}}
#define BIN(OPID) {OP_##OPID, 2, {X23, X3}, {0}, DT_FLOAT32, 2, {2, 3}}
#define CMP(OPID) {OP_##OPID, 2, {X23, X3}, {0}, DT_BOOL, 2, {2, 3}}
#define UN(OPID) {OP_##OPID, 1, {X23}, {0}, DT_FLOAT32, 2, {2, 3}}
#define RED(OPID, DT) {OP_##OPID, 1, {X23}, {.has_axes = true, .naxes = 1, .axes = {1}}, DT, 1, {2}}

static const Case cases[] = {
    {OP_FULL, 0, {{0}}, {.nshape = 2, .shape = {2, 3}, .has_dtype = true, .dtype = DT_INT32, .value = 1},
     DT_INT32, 2, {2, 3}},
    BIN(ADD), BIN(SUB), BIN(MUL), BIN(DIV), BIN(POW), BIN(MAXIMUM), BIN(MINIMUM),
    CMP(EQ), CMP(NE), CMP(LT), CMP(LE), CMP(GT), CMP(GE),
    UN(NEG), UN(ABS), UN(EXP), UN(LOG), UN(SQRT), UN(RSQRT), UN(SIN), UN(COS), UN(TAN), UN(TANH),
    UN(SIGMOID), UN(RELU), UN(FLOOR), UN(CEIL), UN(ROUND), UN(SIGN), UN(ERF), UN(STOP_GRADIENT),
    {OP_WHERE, 3, {{.dtype = DT_BOOL, .rank = 2, .dims = {2, 3}}, X3, {.dtype = DT_FLOAT32, .weak = true}},
     {0}, DT_FLOAT32, 2, {2, 3}},
    {OP_CLAMP, 3, {X23, {.dtype = DT_INT64, .weak = true}, {.dtype = DT_FLOAT32, .weak = true}},
     {0}, DT_FLOAT32, 2, {2, 3}},
    {OP_CAST, 1, {X23}, {.has_dtype = true, .dtype = DT_INT64}, DT_INT64, 2, {2, 3}},
    {OP_ONE_HOT, 1, {{.dtype = DT_INT32, .rank = 1, .dims = {4}}}, {.depth = 10}, DT_FLOAT32, 2, {4, 10}},
    RED(SUM, DT_FLOAT32), RED(MEAN, DT_FLOAT32), RED(MAX, DT_FLOAT32), RED(MIN, DT_FLOAT32),
    RED(PROD, DT_FLOAT32), RED(ARGMAX, DT_INT64), RED(ARGMIN, DT_INT64),
    {OP_MATMUL, 2, {X23, {.dtype = DT_FLOAT32, .rank = 2, .dims = {3, 4}}}, {0}, DT_FLOAT32, 2, {2, 4}},
    {OP_RESHAPE, 1, {X23}, {.nshape = 2, .shape = {3, 2}}, DT_FLOAT32, 2, {3, 2}},
    {OP_TRANSPOSE, 1, {X23}, {0}, DT_FLOAT32, 2, {3, 2}},
    {OP_BROADCAST_TO, 1, {X3}, {.nshape = 2, .shape = {2, 3}}, DT_FLOAT32, 2, {2, 3}},
    {OP_SLICE, 1, {X23}, {.has_axes = true, .naxes = 1, .axes = {1}, .nslice = 1, .starts = {1}, .ends = {3}},
     DT_FLOAT32, 2, {2, 2}},
    /* gather: data.shape[:axis] + indices.shape + data.shape[axis+1:]; scatter_add: data's */
    {OP_GATHER, 2, {X23, {.dtype = DT_INT32, .rank = 2, .dims = {4, 5}}}, {.axis = -1}, DT_FLOAT32, 3, {2, 4, 5}},
    {OP_SCATTER_ADD, 3, {X23, {.dtype = DT_INT64, .rank = 1, .dims = {4}}, {.dtype = DT_FLOAT32, .rank = 2, .dims = {4, 3}}},
     {0}, DT_FLOAT32, 2, {2, 3}},
    /* concat: the axis summed, dtypes promoted */
    {OP_CONCAT, 3, {X23, {.dtype = DT_INT64, .rank = 2, .dims = {2, 1}}, X23}, {.axis = 1}, DT_FLOAT32, 2, {2, 7}},
    {OP_PAD, 1, {X23}, {.npads = 4, .pads = {1, 0, 2, 3}}, DT_FLOAT32, 2, {5, 6}},
    {OP_DROPOUT, 2, {X23, {.dtype = DT_INT64}}, {.ratio = 0.25}, DT_FLOAT32, 2, {2, 3}},
};
#define NCASES ((int)(sizeof cases / sizeof *cases))

TEST(ir_infer_op__case_table__covers_every_op) {
    for (int op = 1; op < OP_COUNT; op++) {
        if (ir_ops[op].kind == K_COMPOSITE) continue; /* expanded on load: composite_cases below */
        bool found = false;
        for (int i = 0; i < NCASES && !found; i++) found = cases[i].op == (Op)op;
        if (!found) fail_msg("op \"%s\" has no case in the table", ir_ops[op].name);
    }
}

TEST(ir_infer_op__case_table__expected_types) {
    for (int i = 0; i < NCASES; i++) {
        const Case *c = &cases[i];
        if (infer_n(c->op, &c->at, c->nin, c->in))
            fail_msg("%s: unexpected error: %s", ir_ops[c->op].name, err);
        TensorType w = tt(c->dtype, c->rank, c->dims);
        char g[128], s[128];
        if (out.dtype != c->dtype || !ir_type_equal(&out, &w))
            fail_msg("%s: got %s%s, want %s%s", ir_ops[c->op].name, ir_dtype_name(out.dtype),
                     ir_shape_str(&out, g, sizeof g), ir_dtype_name(c->dtype), ir_shape_str(&w, s, sizeof s));
    }
}

/* Every op (but the sources) given one operand too many is an error, never a crash. */
TEST(ir_infer_op__wrong_operand_count__error_for_every_op) {
    TensorType in[IR_MAX_INPUTS + 1];
    for (int i = 0; i <= IR_MAX_INPUTS; i++) in[i] = T(DT_FLOAT32, 2, 3);
    for (int op = 1; op < OP_COUNT; op++) {
        int n = ir_ops[op].arity + 1;
        if (n > IR_MAX_INPUTS) continue;
        if (infer_n((Op)op, NULL, n, in) != -1) fail_msg("%s accepted %d operands", ir_ops[op].name, n);
    }
}

TEST(ir_infer_op__add_with_one_operand__takes_2_operands) {
    FAILS(INFER(OP_ADD, NULL, T(DT_FLOAT32, 2)), "takes 2 operands, got 1");
}

TEST(ir_infer_op__neg_with_two_operands__takes_1_operand) {
    FAILS(INFER(OP_NEG, NULL, T(DT_FLOAT32, 2), T(DT_FLOAT32, 2)), "takes 1 operand, got 2");
}

TEST(ir_infer_op__input_op__internal_error) {
    FAILS(INFER0(OP_INPUT, NULL), "internal: inputs carry their own type");
}

/* ---- arithmetic -------------------------------------------------------------------------------- */

TEST(ir_infer_op__add_bool_bool__int32) {
    OK(INFER(OP_ADD, NULL, T(DT_BOOL, 4), T(DT_BOOL, 4)), DT_INT32, 4);
}

TEST(ir_infer_op__arith_ops_bool_bool__int32) {
    Op ops[] = {OP_ADD, OP_SUB, OP_MUL, OP_POW, OP_MAXIMUM, OP_MINIMUM};
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        OK(INFER(ops[i], NULL, T(DT_BOOL, 2), T(DT_BOOL, 2)), DT_INT32, 2);
}

TEST(ir_infer_op__add_int32_float32_broadcast__float32) {
    OK(INFER(OP_ADD, NULL, T(DT_INT32, 5, 1, 3), T(DT_FLOAT32, 4, 1)), DT_FLOAT32, 5, 4, 3);
}

TEST(ir_infer_op__add_int32_int64__int64) {
    OK(INFER(OP_ADD, NULL, T(DT_INT32, 3), T(DT_INT64, 3)), DT_INT64, 3);
}

TEST(ir_infer_op__add_int64_float32__float32) {
    OK(INFER(OP_ADD, NULL, T(DT_INT64, 3), T(DT_FLOAT32, 3)), DT_FLOAT32, 3);
}

TEST(ir_infer_op__add_float32_float64__float64) {
    OK(INFER(OP_SUB, NULL, T(DT_FLOAT32, 3), T(DT_FLOAT64, 3)), DT_FLOAT64, 3);
}

TEST(ir_infer_op__mul_int32_and_int_constant__int32) {
    OK(INFER(OP_MUL, NULL, T(DT_INT32, 2, 2), CI), DT_INT32, 2, 2);
    OK(INFER(OP_MUL, NULL, CI, T(DT_INT32, 2, 2)), DT_INT32, 2, 2);
}

TEST(ir_infer_op__mul_int32_and_float_constant__float32) {
    OK(INFER(OP_MUL, NULL, T(DT_INT32, 2), CF), DT_FLOAT32, 2);
}

TEST(ir_infer_op__mul_float64_and_float_constant__float64) {
    OK(INFER(OP_MUL, NULL, T(DT_FLOAT64, 2), CF), DT_FLOAT64, 2);
}

TEST(ir_infer_op__add_bool_and_int_constant__int32) {
    OK(INFER(OP_ADD, NULL, T(DT_BOOL, 2), CI), DT_INT32, 2);
}

TEST(ir_infer_op__add_scalar_and_matrix__matrix) {
    OK(INFER(OP_ADD, NULL, T0(DT_FLOAT32), T(DT_FLOAT32, 3, 4)), DT_FLOAT32, 3, 4);
}

TEST(ir_infer_op__add_incompatible_shapes__cannot_broadcast) {
    FAILS(INFER(OP_ADD, NULL, T(DT_FLOAT32, 2, 3), T(DT_FLOAT32, 4)), "cannot broadcast [2,3] and [4]");
}

TEST(ir_infer_op__div_int32_int32__float32) {
    OK(INFER(OP_DIV, NULL, T(DT_INT32, 3), T(DT_INT32, 3)), DT_FLOAT32, 3);
}

TEST(ir_infer_op__div_int64_and_int_constant__float32) {
    OK(INFER(OP_DIV, NULL, T(DT_INT64, 3), CI), DT_FLOAT32, 3);
}

TEST(ir_infer_op__div_bool_bool__float32) {
    OK(INFER(OP_DIV, NULL, T(DT_BOOL, 3), T(DT_BOOL, 3)), DT_FLOAT32, 3);
}

TEST(ir_infer_op__div_float64_int32__float64) {
    OK(INFER(OP_DIV, NULL, T(DT_FLOAT64, 3), T(DT_INT32, 3)), DT_FLOAT64, 3);
}

/* ---- comparisons ------------------------------------------------------------------------------- */

TEST(ir_infer_op__comparisons_of_numbers__bool) {
    Op ops[] = {OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE};
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
        OK(INFER(ops[i], NULL, T(DT_FLOAT32, 2, 3), T(DT_INT32, 3)), DT_BOOL, 2, 3);
        OK(INFER(ops[i], NULL, T(DT_INT64, 4), CF), DT_BOOL, 4);
        OK(INFER(ops[i], NULL, T(DT_BOOL, 4), T(DT_BOOL, 1)), DT_BOOL, 4);
    }
}

TEST(ir_infer_op__comparison_incompatible_shapes__cannot_broadcast) {
    FAILS(INFER(OP_LT, NULL, T(DT_FLOAT32, 2), T(DT_FLOAT32, 3)), "cannot broadcast [2] and [3]");
}

/* ---- unary ------------------------------------------------------------------------------------- */

static const Op float_unaries[] = {OP_EXP, OP_LOG, OP_SQRT, OP_RSQRT, OP_SIN, OP_COS, OP_TAN, OP_TANH, OP_SIGMOID};
static const Op signed_unaries[] = {OP_NEG, OP_ABS, OP_RELU, OP_FLOOR, OP_CEIL, OP_ROUND, OP_SIGN};

TEST(ir_infer_op__float_unaries_on_int__float32) {
    for (size_t i = 0; i < sizeof float_unaries / sizeof *float_unaries; i++) {
        OK(INFER(float_unaries[i], NULL, T(DT_INT32, 2, 3)), DT_FLOAT32, 2, 3);
        OK(INFER(float_unaries[i], NULL, T(DT_INT64, 2)), DT_FLOAT32, 2);
        OK(INFER(float_unaries[i], NULL, T(DT_BOOL, 2)), DT_FLOAT32, 2);
    }
}

TEST(ir_infer_op__float_unaries_on_float64__float64) {
    for (size_t i = 0; i < sizeof float_unaries / sizeof *float_unaries; i++)
        OK(INFER(float_unaries[i], NULL, T(DT_FLOAT64, 7)), DT_FLOAT64, 7);
}

TEST(ir_infer_op__neg_abs_on_bool__int32) {
    OK(INFER(OP_NEG, NULL, T(DT_BOOL, 3)), DT_INT32, 3);
    OK(INFER(OP_ABS, NULL, T(DT_BOOL, 3)), DT_INT32, 3);
}

TEST(ir_infer_op__signed_unaries__bool_to_int32_others_kept) {
    for (size_t i = 0; i < sizeof signed_unaries / sizeof *signed_unaries; i++) {
        OK(INFER(signed_unaries[i], NULL, T(DT_BOOL, 3)), DT_INT32, 3);
        OK(INFER(signed_unaries[i], NULL, T(DT_INT32, 3)), DT_INT32, 3);
        OK(INFER(signed_unaries[i], NULL, T(DT_INT64, 3)), DT_INT64, 3);
        OK(INFER(signed_unaries[i], NULL, T(DT_FLOAT64, 3)), DT_FLOAT64, 3);
    }
}

TEST(ir_infer_op__unary_on_scalar__scalar) {
    OK0(INFER(OP_EXP, NULL, T0(DT_FLOAT32)), DT_FLOAT32);
}

/* ---- where, clamp, cast, one_hot --------------------------------------------------------------- */

TEST(ir_infer_op__where_bool_condition__promoted_branches_broadcast) {
    OK(INFER(OP_WHERE, NULL, T(DT_BOOL, 2, 1), T(DT_INT32, 3), T(DT_FLOAT32, 2, 3)), DT_FLOAT32, 2, 3);
    OK(INFER(OP_WHERE, NULL, T(DT_BOOL, 4), T(DT_INT32, 4), T(DT_INT64, 4)), DT_INT64, 4);
}

TEST(ir_infer_op__where_int_branch_and_int_constant__int32) {
    OK(INFER(OP_WHERE, NULL, T(DT_BOOL, 4), T(DT_INT32, 4), CI), DT_INT32, 4);
}

TEST(ir_infer_op__where_both_branches_constants__promoted_constants) {
    OK(INFER(OP_WHERE, NULL, T(DT_BOOL, 4), CI, CF), DT_FLOAT32, 4);
}

TEST(ir_infer_op__where_int_condition__error) {
    FAILS(INFER(OP_WHERE, NULL, T(DT_INT32, 4), T(DT_FLOAT32, 4), T(DT_FLOAT32, 4)),
          "condition must be a bool tensor, got int32");
}

TEST(ir_infer_op__where_constant_condition__error) {
    FAILS(INFER(OP_WHERE, NULL, CI, T(DT_FLOAT32, 4), T(DT_FLOAT32, 4)),
          "condition must be a bool tensor, got a constant");
}

TEST(ir_infer_op__where_incompatible_shapes__cannot_broadcast) {
    FAILS(INFER(OP_WHERE, NULL, T(DT_BOOL, 2), T(DT_FLOAT32, 3), T(DT_FLOAT32, 2)),
          "cannot broadcast [2] and [3] and [2]");
}

TEST(ir_infer_op__clamp_float_with_constants__float32) {
    OK(INFER(OP_CLAMP, NULL, T(DT_FLOAT32, 2, 3), CI, CI), DT_FLOAT32, 2, 3);
}

TEST(ir_infer_op__clamp_int_with_float_bounds__float32) {
    OK(INFER(OP_CLAMP, NULL, T(DT_INT32, 5), CF, CF), DT_FLOAT32, 5);
}

TEST(ir_infer_op__clamp_int_with_int_bounds__int32) {
    OK(INFER(OP_CLAMP, NULL, T(DT_INT32, 5), CI, CI), DT_INT32, 5);
}

TEST(ir_infer_op__clamp_bool__int32) {
    OK(INFER(OP_CLAMP, NULL, T(DT_BOOL, 5), T(DT_BOOL, 5), T(DT_BOOL, 5)), DT_INT32, 5);
}

TEST(ir_infer_op__clamp_tensor_bounds__broadcast) {
    OK(INFER(OP_CLAMP, NULL, T(DT_FLOAT32, 2, 3), T(DT_FLOAT32, 3), T(DT_FLOAT32, 2, 1)), DT_FLOAT32, 2, 3);
}

TEST(ir_infer_op__cast__target_dtype_same_shape) {
    Attrs a = {0};
    a.has_dtype = true;
    for (int t = 0; t < DT_COUNT; t++) {
        a.dtype = (DType)t;
        OK(INFER(OP_CAST, &a, T(DT_FLOAT32, 2, 3)), (DType)t, 2, 3);
    }
}

TEST(ir_infer_op__cast_without_dtype__needs_dtype) {
    FAILS(INFER(OP_CAST, NULL, T(DT_FLOAT32, 2)), "needs \"dtype\"");
}

TEST(ir_infer_op__one_hot_int32__depth_appended_float32) {
    Attrs a = {0};
    a.depth = 10;
    OK(INFER(OP_ONE_HOT, &a, T(DT_INT32, 4)), DT_FLOAT32, 4, 10);
}

TEST(ir_infer_op__one_hot_int64_with_dtype__that_dtype) {
    Attrs a = {0};
    a.depth = 5;
    a.has_dtype = true;
    a.dtype = DT_INT32;
    OK(INFER(OP_ONE_HOT, &a, T(DT_INT64, 2, 3)), DT_INT32, 2, 3, 5);
}

TEST(ir_infer_op__one_hot_scalar_index__vector) {
    Attrs a = {0};
    a.depth = 3;
    OK(INFER(OP_ONE_HOT, &a, T0(DT_INT32)), DT_FLOAT32, 3);
}

TEST(ir_infer_op__one_hot_float_indices__error) {
    Attrs a = {0};
    a.depth = 3;
    FAILS(INFER(OP_ONE_HOT, &a, T(DT_FLOAT32, 4)), "indices must be int32 or int64, got float32");
    FAILS(INFER(OP_ONE_HOT, &a, T(DT_BOOL, 4)), "indices must be int32 or int64, got bool");
}

TEST(ir_infer_op__one_hot_small_int_indices__error) {
    Attrs a = {0};
    a.depth = 3;
    FAILS(INFER(OP_ONE_HOT, &a, T(DT_UINT8, 4)), "indices must be int32 or int64, got uint8");
}

/* The new integers through each dtype rule: arithmetic keeps the promoted integer, div and the
 * transcendentals give float32, comparisons bool, sum/prod int64, mean float32, max/min the
 * input's dtype, and an integral constant takes the tensor's dtype. */
TEST(ir_infer_op__small_and_unsigned_ints__each_rule) {
    OK(INFER(OP_ADD, NULL, T(DT_INT8, 2), T(DT_UINT8, 2)), DT_INT16, 2);
    OK(INFER(OP_MUL, NULL, T(DT_UINT16, 2), T(DT_INT32, 2)), DT_INT32, 2);
    OK(INFER(OP_SUB, NULL, T(DT_UINT64, 2), T(DT_INT64, 2)), DT_FLOAT64, 2);
    OK(INFER(OP_ADD, NULL, T(DT_UINT16, 3, 1), T(DT_FLOAT32, 2)), DT_FLOAT32, 3, 2);
    OK(INFER(OP_MUL, NULL, T(DT_INT8, 2), CI), DT_INT8, 2);
    OK(INFER(OP_ADD, NULL, T(DT_UINT32, 2), CF), DT_FLOAT32, 2);
    OK(INFER(OP_DIV, NULL, T(DT_INT16, 2), T(DT_INT16, 2)), DT_FLOAT32, 2);
    OK(INFER(OP_EXP, NULL, T(DT_UINT8, 2)), DT_FLOAT32, 2);
    OK(INFER(OP_NEG, NULL, T(DT_UINT32, 2)), DT_UINT32, 2);
    OK(INFER(OP_LT, NULL, T(DT_UINT8, 2), T(DT_INT8, 2)), DT_BOOL, 2);
    OK(INFER(OP_WHERE, NULL, T(DT_BOOL, 2), T(DT_UINT8, 2), T(DT_INT16, 2)), DT_INT16, 2);
    OK(INFER(OP_CLAMP, NULL, T(DT_INT8, 2), CI, CI), DT_INT8, 2);
    Attrs all = {0};
    OK0(INFER(OP_SUM, &all, T(DT_INT8, 2)), DT_INT64);
    OK0(INFER(OP_PROD, &all, T(DT_UINT64, 2)), DT_INT64);
    OK0(INFER(OP_MEAN, &all, T(DT_UINT16, 2)), DT_FLOAT32);
    OK0(INFER(OP_MAX, &all, T(DT_UINT8, 2)), DT_UINT8);
    Attrs ax0 = {0};
    AXES(ax0, 0);
    OK0(INFER(OP_ARGMIN, &ax0, T(DT_INT16, 2)), DT_INT64);
    FAILS(INFER(OP_MATMUL, NULL, T(DT_INT8, 2, 2), T(DT_INT8, 2, 2)), "needs float32 or float64 operands, got int8 and int8");
}

TEST(ir_infer_op__one_hot_depth_0__error) {
    Attrs a = {0};
    FAILS(INFER(OP_ONE_HOT, &a, T(DT_INT32, 4)), "depth 0 is out of range (1 to 2^31-1)");
    a.depth = IR_MAX_DIM;
    FAILS(INFER(OP_ONE_HOT, &a, T(DT_INT32, 4)), "depth 2147483648 is out of range (1 to 2^31-1)");
}

TEST(ir_infer_op__one_hot_rank_8_input__rank_limit) {
    Attrs a = {0};
    a.depth = 2;
    FAILS(INFER(OP_ONE_HOT, &a, T(DT_INT32, 1, 1, 1, 1, 1, 1, 1, 1)), "rank 9 exceeds the limit of 8");
}

/* ---- reductions -------------------------------------------------------------------------------- */

TEST(ir_infer_op__sum_int32__int64) {
    Attrs a = {0};
    AXES(a, 0);
    OK(INFER(OP_SUM, &a, T(DT_INT32, 4, 5)), DT_INT64, 5);
}

TEST(ir_infer_op__sum_bool__int64) {
    OK0(INFER(OP_SUM, NULL, T(DT_BOOL, 4, 5)), DT_INT64);
}

TEST(ir_infer_op__sum_float32__float32) {
    OK0(INFER(OP_SUM, NULL, T(DT_FLOAT32, 4, 5)), DT_FLOAT32);
}

TEST(ir_infer_op__prod_int32__int64) {
    OK0(INFER(OP_PROD, NULL, T(DT_INT32, 4)), DT_INT64);
}

TEST(ir_infer_op__mean_int__float32) {
    OK0(INFER(OP_MEAN, NULL, T(DT_INT32, 4)), DT_FLOAT32);
    OK0(INFER(OP_MEAN, NULL, T(DT_INT64, 4)), DT_FLOAT32);
    OK0(INFER(OP_MEAN, NULL, T(DT_BOOL, 4)), DT_FLOAT32);
}

TEST(ir_infer_op__mean_float64__float64) {
    OK0(INFER(OP_MEAN, NULL, T(DT_FLOAT64, 4)), DT_FLOAT64);
}

TEST(ir_infer_op__max_min__keep_dtype) {
    for (int t = 0; t < DT_COUNT; t++) {
        OK0(INFER(OP_MAX, NULL, T((DType)t, 4)), (DType)t);
        OK0(INFER(OP_MIN, NULL, T((DType)t, 4)), (DType)t);
    }
}

TEST(ir_infer_op__argmax_one_axis__int64) {
    Attrs a = {0};
    AXES(a, 1);
    OK(INFER(OP_ARGMAX, &a, T(DT_FLOAT32, 4, 5)), DT_INT64, 4);
    OK(INFER(OP_ARGMIN, &a, T(DT_INT32, 4, 5)), DT_INT64, 4);
    a.keepdims = true;
    OK(INFER(OP_ARGMAX, &a, T(DT_FLOAT64, 4, 5)), DT_INT64, 4, 1);
}

TEST(ir_infer_op__argmax_without_axes__needs_one_axis) {
    FAILS(INFER(OP_ARGMAX, NULL, T(DT_FLOAT32, 4, 5)), "takes exactly one axis in \"axes\"");
}

TEST(ir_infer_op__argmin_two_axes__needs_one_axis) {
    Attrs a = {0};
    AXES(a, 0, 1);
    FAILS(INFER(OP_ARGMIN, &a, T(DT_FLOAT32, 4, 5)), "takes exactly one axis in \"axes\"");
}

TEST(ir_infer_op__sum_keepdims__reduced_axis_size_1) {
    Attrs a = {0};
    AXES(a, 1);
    a.keepdims = true;
    OK(INFER(OP_SUM, &a, T(DT_FLOAT32, 2, 3, 4)), DT_FLOAT32, 2, 1, 4);
}

TEST(ir_infer_op__sum_negative_axis__counts_from_end) {
    Attrs a = {0};
    AXES(a, -1);
    OK(INFER(OP_SUM, &a, T(DT_FLOAT32, 2, 3, 4)), DT_FLOAT32, 2, 3);
    AXES(a, -3, 2);
    OK(INFER(OP_MAX, &a, T(DT_FLOAT32, 2, 3, 4)), DT_FLOAT32, 3);
}

TEST(ir_infer_op__sum_all_axes__rank0) {
    OK0(INFER(OP_SUM, NULL, T(DT_FLOAT32, 2, 3, 4)), DT_FLOAT32);
    Attrs a = {0};
    AXES(a, 0, 1, 2);
    OK0(INFER(OP_MEAN, &a, T(DT_FLOAT32, 2, 3, 4)), DT_FLOAT32);
}

TEST(ir_infer_op__sum_all_axes_keepdims__all_ones) {
    Attrs a = {0};
    a.keepdims = true;
    OK(INFER(OP_SUM, &a, T(DT_FLOAT32, 2, 3, 4)), DT_FLOAT32, 1, 1, 1);
}

TEST(ir_infer_op__sum_empty_axes_list__no_reduction) {
    Attrs a = {0};
    a.has_axes = true;
    OK(INFER(OP_SUM, &a, T(DT_FLOAT32, 2, 3)), DT_FLOAT32, 2, 3);
}

TEST(ir_infer_op__sum_of_scalar__scalar) {
    OK0(INFER(OP_SUM, NULL, T0(DT_INT32)), DT_INT64);
}

TEST(ir_infer_op__reduce_axis_out_of_range__error) {
    Attrs a = {0};
    AXES(a, 2);
    FAILS(INFER(OP_SUM, &a, T(DT_FLOAT32, 2, 3)), "axis 2 is out of range for rank 2");
    AXES(a, -3);
    FAILS(INFER(OP_SUM, &a, T(DT_FLOAT32, 2, 3)), "axis -3 is out of range for rank 2");
}

TEST(ir_infer_op__reduce_repeated_axis__error) {
    Attrs a = {0};
    AXES(a, 1, -1);
    FAILS(INFER(OP_SUM, &a, T(DT_FLOAT32, 2, 3)), "axis -1 is repeated");
}

TEST(ir_infer_op__max_over_empty_axis__no_identity) {
    Attrs a = {0};
    AXES(a, 1);
    FAILS(INFER(OP_MAX, &a, T(DT_FLOAT32, 3, 0)), "reduces an empty axis 1 of [3,0], which has no identity");
    FAILS(INFER(OP_MIN, &a, T(DT_FLOAT32, 3, 0)), "reduces an empty axis 1 of [3,0], which has no identity");
    FAILS(INFER(OP_ARGMAX, &a, T(DT_FLOAT32, 3, 0)), "reduces an empty axis 1 of [3,0], which has no identity");
}

TEST(ir_infer_op__sum_over_empty_axis__ok) {
    Attrs a = {0};
    AXES(a, 1);
    OK(INFER(OP_SUM, &a, T(DT_FLOAT32, 3, 0)), DT_FLOAT32, 3);
    OK(INFER(OP_PROD, &a, T(DT_INT32, 3, 0)), DT_INT64, 3);
}

TEST(ir_infer_op__max_over_nonempty_axis_of_empty_tensor__ok) {
    Attrs a = {0};
    AXES(a, 0);
    OK(INFER(OP_MAX, &a, T(DT_FLOAT32, 3, 0)), DT_FLOAT32, 0);
}

TEST(ir_reduce_mask__absent_axes__all_bits) {
    Attrs a = {0};
    unsigned mask = 99;
    assert_int_equal(ir_reduce_mask(&a, 3, &mask, err, sizeof err), 0);
    assert_int_equal(mask, 7);
    assert_int_equal(ir_reduce_mask(&a, 0, &mask, err, sizeof err), 0);
    assert_int_equal(mask, 0);
}

TEST(ir_reduce_mask__negative_axes__normalised_bits) {
    Attrs a = {0};
    AXES(a, -1, 0);
    unsigned mask = 0;
    assert_int_equal(ir_reduce_mask(&a, 4, &mask, err, sizeof err), 0);
    assert_int_equal(mask, 9);
}

/* ---- matmul ------------------------------------------------------------------------------------ */

TEST(ir_infer_op__matmul_2d__m_by_n) {
    OK(INFER(OP_MATMUL, NULL, T(DT_FLOAT32, 512, 480), T(DT_FLOAT32, 480, 256)), DT_FLOAT32, 512, 256);
}

TEST(ir_infer_op__matmul_batched__batch_dims_broadcast) {
    OK(INFER(OP_MATMUL, NULL, T(DT_FLOAT32, 2, 1, 4, 5), T(DT_FLOAT32, 3, 5, 6)), DT_FLOAT32, 2, 3, 4, 6);
    OK(INFER(OP_MATMUL, NULL, T(DT_FLOAT32, 7, 4, 5), T(DT_FLOAT32, 5, 6)), DT_FLOAT32, 7, 4, 6);
    OK(INFER(OP_MATMUL, NULL, T(DT_FLOAT32, 4, 5), T(DT_FLOAT32, 7, 5, 6)), DT_FLOAT32, 7, 4, 6);
}

TEST(ir_infer_op__matmul_1d_by_2d__vector) {
    OK(INFER(OP_MATMUL, NULL, T(DT_FLOAT32, 5), T(DT_FLOAT32, 5, 6)), DT_FLOAT32, 6);
}

TEST(ir_infer_op__matmul_2d_by_1d__vector) {
    OK(INFER(OP_MATMUL, NULL, T(DT_FLOAT32, 4, 5), T(DT_FLOAT32, 5)), DT_FLOAT32, 4);
}

TEST(ir_infer_op__matmul_1d_by_1d__scalar) {
    OK0(INFER(OP_MATMUL, NULL, T(DT_FLOAT64, 5), T(DT_FLOAT64, 5)), DT_FLOAT64);
}

TEST(ir_infer_op__matmul_1d_by_3d__batched_vector) {
    OK(INFER(OP_MATMUL, NULL, T(DT_FLOAT32, 5), T(DT_FLOAT32, 3, 5, 6)), DT_FLOAT32, 3, 6);
}

TEST(ir_infer_op__matmul_mixed_float__float64) {
    OK(INFER(OP_MATMUL, NULL, T(DT_FLOAT32, 2, 3), T(DT_FLOAT64, 3, 4)), DT_FLOAT64, 2, 4);
    OK(INFER(OP_MATMUL, NULL, T(DT_INT32, 2, 3), T(DT_FLOAT32, 3, 4)), DT_FLOAT32, 2, 4);
}

TEST(ir_infer_op__matmul_inner_mismatch__exact_message) {
    FAILS(INFER(OP_MATMUL, NULL, T(DT_FLOAT32, 512, 480), T(DT_FLOAT32, 256, 2)),
          "inner dimensions differ: [512,480] x [256,2]");
}

TEST(ir_infer_op__matmul_batch_mismatch__error) {
    FAILS(INFER(OP_MATMUL, NULL, T(DT_FLOAT32, 2, 4, 5), T(DT_FLOAT32, 3, 5, 6)),
          "batch dimensions do not broadcast: [2,4,5] x [3,5,6]");
}

TEST(ir_infer_op__matmul_int__rejected) {
    FAILS(INFER(OP_MATMUL, NULL, T(DT_INT32, 2, 3), T(DT_INT32, 3, 4)),
          "needs float32 or float64 operands, got int32 and int32");
    FAILS(INFER(OP_MATMUL, NULL, T(DT_BOOL, 2, 3), T(DT_INT64, 3, 4)),
          "needs float32 or float64 operands, got bool and int64");
}

TEST(ir_infer_op__matmul_scalar_operand__rank_error) {
    FAILS(INFER(OP_MATMUL, NULL, T(DT_FLOAT32, 2, 3), CF), "operands must have rank >= 1, got [2,3] x []");
}

/* ---- views ------------------------------------------------------------------------------------- */

TEST(ir_infer_op__reshape_with_minus_one__inferred) {
    Attrs a = {0};
    SHAPE(a, -1, 4);
    OK(INFER(OP_RESHAPE, &a, T(DT_INT32, 2, 3, 4)), DT_INT32, 6, 4);
    SHAPE(a, 2, -1, 2);
    OK(INFER(OP_RESHAPE, &a, T(DT_INT32, 2, 3, 4)), DT_INT32, 2, 6, 2);
    SHAPE(a, -1);
    OK(INFER(OP_RESHAPE, &a, T(DT_INT32, 2, 3, 4)), DT_INT32, 24);
}

TEST(ir_infer_op__reshape_exact__target_shape) {
    Attrs a = {0};
    SHAPE(a, 4, 6);
    OK(INFER(OP_RESHAPE, &a, T(DT_BOOL, 2, 3, 4)), DT_BOOL, 4, 6);
    a.nshape = 0;
    OK0(INFER(OP_RESHAPE, &a, T(DT_BOOL, 1, 1)), DT_BOOL);
}

TEST(ir_infer_op__reshape_empty_with_minus_one__zero_dim) {
    Attrs a = {0};
    SHAPE(a, -1, 3);
    OK(INFER(OP_RESHAPE, &a, T(DT_FLOAT32, 0, 3)), DT_FLOAT32, 0, 3);
}

TEST(ir_infer_op__reshape_two_minus_ones__error) {
    Attrs a = {0};
    SHAPE(a, -1, -1);
    FAILS(INFER(OP_RESHAPE, &a, T(DT_FLOAT32, 2, 3)), "reshape allows one -1, got two");
}

TEST(ir_infer_op__reshape_mismatch__error) {
    Attrs a = {0};
    SHAPE(a, 4);
    FAILS(INFER(OP_RESHAPE, &a, T(DT_FLOAT32, 2, 3)), "cannot reshape [2,3] (6 elements) into [4] (4 elements)");
}

TEST(ir_infer_op__reshape_minus_one_not_dividing__error) {
    Attrs a = {0};
    SHAPE(a, -1, 4);
    FAILS(INFER(OP_RESHAPE, &a, T(DT_FLOAT32, 2, 3)),
          "cannot reshape [2,3] (6 elements) with a -1 into a multiple of 4");
    SHAPE(a, -1, 0);
    FAILS(INFER(OP_RESHAPE, &a, T(DT_FLOAT32, 0, 3)),
          "cannot reshape [0,3] (0 elements) with a -1 into a multiple of 0");
}

TEST(ir_infer_op__reshape_negative_dim__error) {
    Attrs a = {0};
    SHAPE(a, -2, 3);
    FAILS(INFER(OP_RESHAPE, &a, T(DT_FLOAT32, 2, 3)), "dimension -2 is out of range (0 to 2^31-1)");
}

TEST(ir_infer_op__transpose_default__axes_reversed) {
    OK(INFER(OP_TRANSPOSE, NULL, T(DT_FLOAT32, 2, 3, 4)), DT_FLOAT32, 4, 3, 2);
    OK0(INFER(OP_TRANSPOSE, NULL, T0(DT_FLOAT32)), DT_FLOAT32);
}

TEST(ir_infer_op__transpose_explicit_perm__permuted) {
    Attrs a = {0};
    PERM(a, 0, 2, 1);
    OK(INFER(OP_TRANSPOSE, &a, T(DT_FLOAT32, 2, 3, 4)), DT_FLOAT32, 2, 4, 3);
    PERM(a, -1, 0, 1);
    OK(INFER(OP_TRANSPOSE, &a, T(DT_FLOAT32, 2, 3, 4)), DT_FLOAT32, 4, 2, 3);
}

TEST(ir_infer_op__transpose_repeated_perm__error) {
    Attrs a = {0};
    PERM(a, 0, 0, 1);
    FAILS(INFER(OP_TRANSPOSE, &a, T(DT_FLOAT32, 2, 3, 4)), "perm is not a permutation (0 repeats)");
    PERM(a, 2, 0, -1);
    FAILS(INFER(OP_TRANSPOSE, &a, T(DT_FLOAT32, 2, 3, 4)), "perm is not a permutation (-1 repeats)");
}

TEST(ir_infer_op__transpose_perm_wrong_length__error) {
    Attrs a = {0};
    PERM(a, 1, 0);
    FAILS(INFER(OP_TRANSPOSE, &a, T(DT_FLOAT32, 2, 3, 4)), "perm has 2 entries for rank 3");
}

TEST(ir_infer_op__transpose_perm_out_of_range__error) {
    Attrs a = {0};
    PERM(a, 0, 1, 3);
    FAILS(INFER(OP_TRANSPOSE, &a, T(DT_FLOAT32, 2, 3, 4)), "perm entry 3 is out of range for rank 3");
}

TEST(ir_infer_op__broadcast_to_compatible__target_shape) {
    Attrs a = {0};
    SHAPE(a, 2, 3, 4);
    OK(INFER(OP_BROADCAST_TO, &a, T(DT_INT64, 3, 1)), DT_INT64, 2, 3, 4);
    OK(INFER(OP_BROADCAST_TO, &a, T0(DT_INT64)), DT_INT64, 2, 3, 4);
    OK(INFER(OP_BROADCAST_TO, &a, T(DT_INT64, 2, 3, 4)), DT_INT64, 2, 3, 4);
}

TEST(ir_infer_op__broadcast_to_incompatible__error) {
    Attrs a = {0};
    SHAPE(a, 3, 4);
    FAILS(INFER(OP_BROADCAST_TO, &a, T(DT_FLOAT32, 3, 2)), "cannot broadcast [3,2] to [3,4]");
    SHAPE(a, 3);
    FAILS(INFER(OP_BROADCAST_TO, &a, T(DT_FLOAT32, 2, 3)), "cannot broadcast [2,3] to [3]");
}

TEST(ir_infer_op__broadcast_to_huge_dim__error) {
    Attrs a = {0};
    SHAPE(a, IR_MAX_DIM);
    FAILS(INFER(OP_BROADCAST_TO, &a, T(DT_FLOAT32, 1)), "dimension 2147483648 is out of range (0 to 2^31-1)");
}

/* Slices of a vector of 10 with one start, end and step: the normalised first index and size. */
static Attrs slice1(int64_t start, int64_t end, int64_t step) {
    Attrs a = {0};
    STARTS(a, start);
    ENDS(a, end);
    STEPS(a, step);
    return a;
}

static void expect_slice(int64_t start, int64_t end, int64_t step, int64_t want_size, int64_t want_first) {
    Attrs a = slice1(start, end, step);
    TensorType in = T(DT_FLOAT32, 10);
    int64_t st[IR_MAX_RANK], sp[IR_MAX_RANK], sz[IR_MAX_RANK];
    if (ir_slice_normalize(&in, &a, st, sp, sz, err, sizeof err))
        fail_msg("slice %lld:%lld:%lld: %s", (long long)start, (long long)end, (long long)step, err);
    if (sz[0] != want_size || (want_size && st[0] != want_first) || sp[0] != step)
        fail_msg("slice %lld:%lld:%lld gives first %lld size %lld step %lld, want first %lld size %lld",
                 (long long)start, (long long)end, (long long)step, (long long)st[0], (long long)sz[0],
                 (long long)sp[0], (long long)want_first, (long long)want_size);
    OK(INFER(OP_SLICE, &a, in), DT_FLOAT32, want_size);
}

TEST(ir_infer_op__slice_plain_range__end_minus_start) {
    expect_slice(2, 8, 1, 6, 2);
    Attrs a = {0};
    STARTS(a, 2);
    ENDS(a, 8);
    OK(INFER(OP_SLICE, &a, T(DT_FLOAT32, 10)), DT_FLOAT32, 6);
}

TEST(ir_infer_op__slice_negative_start_and_end__count_from_end) {
    expect_slice(-3, -1, 1, 2, 7);
    expect_slice(-10, 10, 1, 10, 0);
}

TEST(ir_infer_op__slice_step_2__every_other) {
    expect_slice(0, 10, 2, 5, 0);
    expect_slice(1, 10, 2, 5, 1);
    expect_slice(0, 9, 3, 3, 0);
    expect_slice(0, 10, 3, 4, 0);
}

TEST(ir_infer_op__slice_step_minus_1__reversed) {
    expect_slice(-1, -11, -1, 10, 9);
    expect_slice(-1, -((int64_t)1 << 53), -1, 10, 9);
    expect_slice(8, 2, -1, 6, 8);
    expect_slice(9, 0, -2, 5, 9);
}

TEST(ir_infer_op__slice_out_of_range_bounds__clamped) {
    expect_slice(-100, 100, 1, 10, 0);
    expect_slice(5, 1000, 1, 5, 5);
    expect_slice(100, -100, -1, 10, 9);
    expect_slice(100, 200, 1, 0, 0);
    expect_slice(-200, -100, 1, 0, 0);
}

/* ONNX: with a negative step, starts clamp to [0, dim-1], so a start before the beginning selects
 * the first element (NumPy's a[-100::-1] would be empty). */
TEST(ir_infer_op__slice_negative_step_start_before_begin__first_element) {
    expect_slice(-100, -200, -1, 1, 0);
    expect_slice(-100, -11, -1, 1, 0);
}

TEST(ir_infer_op__slice_empty_result__size_0) {
    expect_slice(5, 2, 1, 0, 0);
    expect_slice(2, 5, -1, 0, 0);
    expect_slice(4, 4, 1, 0, 0);
}

/* Steps at the ends of int64's range select one element and overflow nothing (UBSan checks). */
TEST(ir_infer_op__slice_extreme_steps__one_element) {
    expect_slice(0, 10, INT64_MAX, 1, 0);
    expect_slice(-1, -11, INT64_MIN, 1, 9);
    expect_slice(INT64_MIN, INT64_MAX, INT64_MAX, 1, 0);
    expect_slice(INT64_MAX, INT64_MIN, INT64_MIN, 1, 9);
}

TEST(ir_infer_op__slice_step_0__error) {
    Attrs a = slice1(0, 5, 0);
    FAILS(INFER(OP_SLICE, &a, T(DT_FLOAT32, 10)), "slice step is 0 on axis 0");
}

TEST(ir_infer_op__slice_axes_subset__other_axes_whole) {
    Attrs a = {0};
    AXES(a, 1);
    STARTS(a, 2);
    ENDS(a, 5);
    OK(INFER(OP_SLICE, &a, T(DT_FLOAT32, 4, 10, 6)), DT_FLOAT32, 4, 3, 6);
    AXES(a, -1);
    STARTS(a, 1);
    ENDS(a, 6);
    STEPS(a, 2);
    OK(INFER(OP_SLICE, &a, T(DT_FLOAT32, 4, 10, 6)), DT_FLOAT32, 4, 10, 3);
}

TEST(ir_infer_op__slice_two_axes_any_order__both_sliced) {
    Attrs a = {0};
    AXES(a, 2, 0);
    STARTS(a, 0, 1);
    ENDS(a, 2, 4);
    OK(INFER(OP_SLICE, &a, T(DT_FLOAT32, 4, 10, 6)), DT_FLOAT32, 3, 10, 2);
}

TEST(ir_infer_op__slice_without_axes__leading_axes) {
    Attrs a = {0};
    STARTS(a, 1, 2);
    ENDS(a, 3, 10);
    OK(INFER(OP_SLICE, &a, T(DT_FLOAT32, 4, 10, 6)), DT_FLOAT32, 2, 8, 6);
}

TEST(ir_infer_op__slice_of_empty_axis__empty) {
    Attrs a = slice1(0, 5, 1);
    OK(INFER(OP_SLICE, &a, T(DT_FLOAT32, 0)), DT_FLOAT32, 0);
    a = slice1(-1, -100, -1);
    OK(INFER(OP_SLICE, &a, T(DT_FLOAT32, 0)), DT_FLOAT32, 0);
}

TEST(ir_infer_op__slice_axes_and_starts_differ__error) {
    Attrs a = {0};
    AXES(a, 0, 1);
    STARTS(a, 0);
    ENDS(a, 1);
    FAILS(INFER(OP_SLICE, &a, T(DT_FLOAT32, 4, 4)), "slice has 2 axes but 1 starts");
}

TEST(ir_infer_op__slice_more_starts_than_rank__error) {
    Attrs a = {0};
    STARTS(a, 0, 0);
    ENDS(a, 1, 1);
    FAILS(INFER(OP_SLICE, &a, T(DT_FLOAT32, 4)), "slice has 2 starts for rank 1");
}

TEST(ir_infer_op__slice_bad_axis__error) {
    Attrs a = {0};
    AXES(a, 3);
    STARTS(a, 0);
    ENDS(a, 1);
    FAILS(INFER(OP_SLICE, &a, T(DT_FLOAT32, 4, 4, 4)), "axis 3 is out of range for rank 3");
    AXES(a, 0, -3);
    STARTS(a, 0, 0);
    ENDS(a, 1, 1);
    FAILS(INFER(OP_SLICE, &a, T(DT_FLOAT32, 4, 4, 4)), "axis 0 is repeated");
}

TEST(ir_infer_op__view_of_constant__rejected) {
    Attrs a = {0};
    SHAPE(a, 1);
    FAILS(INFER(OP_RESHAPE, &a, CF), "needs at least one tensor operand, got only constants");
}

/* ---- full -------------------------------------------------------------------------------------- */

TEST(ir_infer_op__full_with_dtype__that_dtype_and_shape) {
    Attrs a = {0};
    SHAPE(a, 2, 3);
    a.has_dtype = true;
    a.dtype = DT_BOOL;
    a.value = 1;
    OK(INFER0(OP_FULL, &a), DT_BOOL, 2, 3);
}

TEST(ir_infer_op__full_without_dtype__float32) {
    Attrs a = {0};
    SHAPE(a, 5);
    OK(INFER0(OP_FULL, &a), DT_FLOAT32, 5);
    a.nshape = 0;
    OK0(INFER0(OP_FULL, &a), DT_FLOAT32);
}

/* ---- limits ------------------------------------------------------------------------------------ */

TEST(ir_infer_op__dim_2_pow_31__rejected) {
    Attrs a = {0};
    SHAPE(a, 4, IR_MAX_DIM);
    FAILS(INFER0(OP_FULL, &a), "dimension 2147483648 is out of range (0 to 2^31-1)");
    SHAPE(a, IR_MAX_DIM - 1);
    OK(INFER0(OP_FULL, &a), DT_FLOAT32, IR_MAX_DIM - 1);
}

TEST(ir_infer_op__negative_dim__rejected) {
    Attrs a = {0};
    SHAPE(a, -1);
    FAILS(INFER0(OP_FULL, &a), "dimension -1 is out of range (0 to 2^31-1)");
}

TEST(ir_infer_op__over_2_pow_40_bytes__rejected) {
    Attrs a = {0};
    SHAPE(a, 1 << 20, 1 << 18);       /* float32: exactly 2^40 bytes */
    OK(INFER0(OP_FULL, &a), DT_FLOAT32, 1 << 20, 1 << 18);
    SHAPE(a, 1 << 20, 1 << 18, 2);
    FAILS(INFER0(OP_FULL, &a), "shape [1048576,262144,2] is too large (over 2^40 bytes)");
    a.has_dtype = true;
    a.dtype = DT_BOOL;                /* 1-byte elements: 2^39 bytes */
    OK(INFER0(OP_FULL, &a), DT_BOOL, 1 << 20, 1 << 18, 2);
}

TEST(ir_infer_op__broadcast_result_too_large__rejected) {
    FAILS(INFER(OP_ADD, NULL, T(DT_FLOAT64, 1 << 30, 1), T(DT_FLOAT64, 1, 1 << 30)),
          "shape [1073741824,1073741824] is too large (over 2^40 bytes)");
}

TEST(ir_infer_op__matmul_result_too_large__rejected) {
    FAILS(INFER(OP_MATMUL, NULL, T(DT_FLOAT32, 1 << 30, 1), T(DT_FLOAT32, 1, 1 << 30)),
          "shape [1073741824,1073741824] is too large (over 2^40 bytes)");
}

TEST(ir_infer_op__one_hot_result_too_large__rejected) {
    Attrs a = {0};
    a.depth = 1 << 30;
    FAILS(INFER(OP_ONE_HOT, &a, T(DT_INT32, 1 << 20)), "shape [1048576,1073741824] is too large (over 2^40 bytes)");
}

TEST(ir_check_type__limits__rank_dims_bytes) {
    TensorType t = T(DT_FLOAT32, 2, 3);
    assert_int_equal(ir_check_type(&t, err, sizeof err), 0);
    t.rank = IR_MAX_RANK + 1;
    assert_int_equal(ir_check_type(&t, err, sizeof err), -1);
    assert_string_equal(err, "rank 9 exceeds the limit of 8");
    t = T(DT_INT64, 3, IR_MAX_DIM);
    assert_int_equal(ir_check_type(&t, err, sizeof err), -1);
    assert_string_equal(err, "dimension 2147483648 is out of range (0 to 2^31-1)");
    t = T(DT_INT64, 0, 1 << 20, 1 << 16);  /* empty, the rest within 2^40 bytes: fine */
    assert_int_equal(ir_check_type(&t, err, sizeof err), 0);
    /* Empty, but the other dimensions (which still multiply into strides) overflow int64:
     * rejected wherever the 0 stands (tests/fuzz found the stride overflow this prevents). */
    t = T(DT_INT64, 0, IR_MAX_DIM - 1, IR_MAX_DIM - 1, IR_MAX_DIM - 1);
    assert_int_equal(ir_check_type(&t, err, sizeof err), -1);
    assert_non_null(strstr(err, "with its zero dimensions as 1"));
    t = T(DT_INT64, IR_MAX_DIM - 1, IR_MAX_DIM - 1, IR_MAX_DIM - 1, 0);
    assert_int_equal(ir_check_type(&t, err, sizeof err), -1);
}

TEST(ir_infer_op__all_constant_operands__rejected) {
    const char *msg = "needs at least one tensor operand, got only constants";
    FAILS(INFER(OP_ADD, NULL, CI, CF), msg);
    FAILS(INFER(OP_LT, NULL, CF, CF), msg);
    FAILS(INFER(OP_NEG, NULL, CI), msg);
    FAILS(INFER(OP_SUM, NULL, CF), msg);
    FAILS(INFER(OP_WHERE, NULL, CI, CI, CI), msg);
    FAILS(INFER(OP_CLAMP, NULL, CF, CI, CI), msg);
}

/* ---- dropout and the composite ops --------------------------------------------------------------- */

TEST(ir_infer_op__dropout_bad_operands__errors) {
    Attrs a = {.ratio = 0.5}, one = {.ratio = 1};
    TensorType seed = {.dtype = DT_INT64};
    FAILS(INFER(OP_DROPOUT, &a, T(DT_INT32, 2), seed), "x must be float32 or float64, got int32");
    FAILS(INFER(OP_DROPOUT, &a, T(DT_FLOAT32, 2), T(DT_INT64, 1)),
          "seed must be a rank-0 int64 tensor (a new one each step), got int64 [1]");
    FAILS(INFER(OP_DROPOUT, &a, T(DT_FLOAT32, 2), ((TensorType){.dtype = DT_INT32})),
          "seed must be a rank-0 int64 tensor (a new one each step), got int32 []");
    FAILS(INFER(OP_DROPOUT, &a, T(DT_FLOAT32, 2), CI), "seed must be a rank-0 int64 tensor (a new one each step), got a constant");
    FAILS(INFER(OP_DROPOUT, &one, T(DT_FLOAT32, 2), seed), "ratio must be at least 0 and less than 1");
}

TEST(ir_infer_op__composite__internal_error) {
    FAILS(INFER(OP_SOFTMAX, NULL, T(DT_FLOAT32, 2)),
          "internal: softmax is a composite op, expanded into primitives when a graph is loaded");
}

/* A graph with inputs of the given types, the composite expanded over them. */
static Graph *expand(Op op, const Attrs *a, int nin, const TensorType *in, NodeId *last) {
    Graph *g = graph_new("c");
    Operand ops[IR_MAX_INPUTS];
    for (int i = 0; i < nin; i++) {
        if (in[i].weak) {
            ops[i] = (Operand){-1, 1.5};
            continue;
        }
        char nm[16];
        snprintf(nm, sizeof nm, "in%d", i);
        ops[i] = (Operand){graph_add(g, nm, OP_INPUT), 0};
        g->nodes[ops[i].id].type = in[i];
    }
    static const Attrs none;
    memset(err, 0, sizeof err);
    *last = ir_expand_composite(g, op, ops, nin, a ? a : &none, "y", "nodes[0]", err, sizeof err);
    return g;
}

typedef struct {
    Op op;
    Attrs at;
    int nin;
    TensorType in[3];
    DType dtype;
    int rank;
    int64_t dims[IR_MAX_RANK];
} CompCase;

static const CompCase composite_cases[] = {
    {OP_SOFTMAX, {0}, 1, {X23}, DT_FLOAT32, 2, {2, 3}},
    {OP_LOG_SOFTMAX, {.axis = 0, .has_axis = true}, 1, {{.dtype = DT_INT32, .rank = 2, .dims = {2, 3}}}, DT_FLOAT32, 2, {2, 3}},
    {OP_LAYER_NORM, {0}, 3, {X23, X3, X3}, DT_FLOAT32, 2, {2, 3}},
    {OP_LAYER_NORM, {.axis = 0, .has_axis = true, .epsilon = 0.1, .has_epsilon = true}, 3,
     {{.dtype = DT_FLOAT64, .rank = 2, .dims = {2, 3}}, {.dtype = DT_FLOAT64, .rank = 2, .dims = {2, 3}}, {.dtype = DT_FLOAT32, .weak = true}},
     DT_FLOAT64, 2, {2, 3}},
    {OP_GELU, {0}, 1, {X23}, DT_FLOAT32, 2, {2, 3}},
    {OP_GELU, {.approx_tanh = true}, 1, {X3}, DT_FLOAT32, 1, {3}},
    {OP_CROSS_ENTROPY, {0}, 2, {X23, {.dtype = DT_INT64, .rank = 1, .dims = {2}}}, DT_FLOAT32, 0, {0}},
    {OP_CROSS_ENTROPY, {.axis = 1, .has_axis = true}, 2,
     {{.dtype = DT_FLOAT32, .rank = 3, .dims = {2, 3, 4}}, {.dtype = DT_UINT8, .rank = 2, .dims = {2, 4}}}, DT_FLOAT32, 0, {0}},
    {OP_CROSS_ENTROPY, {0}, 2, {X23, X23}, DT_FLOAT32, 0, {0}},
    /* OH = (7 + 1 + 2 - 1*(3-1) - 1)/2 + 1 = 4, OW = (6 + 0 + 1 - 2*(3-1) - 1)/1 + 1 = 3 */
    {OP_CONV2D, {.nstrides = 2, .strides = {2, 1}, .npads = 4, .pads = {1, 0, 2, 1}, .ndilations = 2, .dilations = {1, 2}}, 3,
     {{.dtype = DT_FLOAT32, .rank = 4, .dims = {2, 4, 7, 6}}, {.dtype = DT_FLOAT32, .rank = 4, .dims = {6, 4, 3, 3}},
      {.dtype = DT_FLOAT32, .rank = 1, .dims = {6}}}, DT_FLOAT32, 4, {2, 6, 4, 3}},
    {OP_CONV2D, {.group = 2}, 2,
     {{.dtype = DT_FLOAT32, .rank = 4, .dims = {1, 4, 5, 5}}, {.dtype = DT_FLOAT64, .rank = 4, .dims = {6, 2, 3, 3}}},
     DT_FLOAT64, 4, {1, 6, 3, 3}},
    {OP_MAX_POOL2D, {.nkernel = 2, .kernel = {2, 2}, .nstrides = 2, .strides = {2, 2}}, 1,
     {{.dtype = DT_FLOAT32, .rank = 4, .dims = {2, 3, 5, 5}}}, DT_FLOAT32, 4, {2, 3, 2, 2}},
    {OP_AVG_POOL2D, {.nkernel = 2, .kernel = {3, 3}, .nstrides = 2, .strides = {2, 2}, .npads = 4, .pads = {1, 1, 1, 1}}, 1,
     {{.dtype = DT_FLOAT64, .rank = 4, .dims = {1, 2, 5, 6}}}, DT_FLOAT64, 4, {1, 2, 3, 3}},
};

/* Every composite expands into typed primitives, the last named as the composite. */
TEST(ir_expand_composite__case_table__primitives_of_expected_type) {
    for (int op = 0; op < OP_COUNT; op++) {
        bool found = ir_ops[op].kind != K_COMPOSITE;
        for (size_t i = 0; i < sizeof composite_cases / sizeof *composite_cases; i++) found |= composite_cases[i].op == (Op)op;
        if (!found) fail_msg("composite %s has no case", ir_ops[op].name);
    }
    for (size_t i = 0; i < sizeof composite_cases / sizeof *composite_cases; i++) {
        const CompCase *c = &composite_cases[i];
        NodeId last;
        Graph *g = expand(c->op, &c->at, c->nin, c->in, &last);
        if (last < 0) fail_msg("%s: %s", ir_ops[c->op].name, err);
        TensorType w = tt(c->dtype, c->rank, c->dims);
        assert_true(ir_type_equal(&g->nodes[last].type, &w));
        assert_string_equal(g->nodes[last].name, "y");
        assert_int_equal(last, g->nnodes - 1);
        for (int k = 0; k < g->nnodes; k++) assert_true(ir_ops[g->nodes[k].op].kind != K_COMPOSITE);
        graph_free(g);
    }
}

static void expand_fails(Op op, const Attrs *a, int nin, const TensorType *in, const char *msg) {
    NodeId last;
    Graph *g = expand(op, a, nin, in, &last);
    int n = g->nnodes;
    graph_free(g);
    assert_int_equal(last, -1);
    assert_string_equal(err, msg);
    int inputs = 0;
    for (int i = 0; i < nin; i++) inputs += !in[i].weak;
    assert_int_equal(n, inputs); /* nothing half-built is left */
}

TEST(ir_expand_composite__bad_operands__errors) {
    Attrs ax2 = {.axis = 2, .has_axis = true}, neg = {.epsilon = -1, .has_epsilon = true};
    TensorType x23 = X23, x3 = X3, scalar = {.dtype = DT_FLOAT32};
    expand_fails(OP_SOFTMAX, &ax2, 1, &x23, "axis 2 is out of range for rank 2");
    expand_fails(OP_SOFTMAX, NULL, 1, &scalar, "needs x of rank 1 or more, got a rank-0 tensor");
    expand_fails(OP_LAYER_NORM, NULL, 3, (TensorType[]){x23, x23, x3}, "scale must have shape [3] (x's shape from axis 1), got [2,3]");
    expand_fails(OP_LAYER_NORM, &neg, 3, (TensorType[]){x23, x3, x3}, "epsilon must be a finite number >= 0");
    expand_fails(OP_CROSS_ENTROPY, NULL, 2, (TensorType[]){x23, {.dtype = DT_INT32, .rank = 1, .dims = {3}}},
                 "target (class indices) must have shape [2] (logits without axis 1), got [3]");
    expand_fails(OP_CROSS_ENTROPY, NULL, 2, (TensorType[]){x23, x3},
                 "target (probabilities) must have the shape of logits, [2,3], got [3]");
    expand_fails(OP_CROSS_ENTROPY, NULL, 2, (TensorType[]){x23, {.dtype = DT_BOOL, .rank = 1, .dims = {2}}},
                 "target must be class indices (an integer dtype) or probabilities (float32 or float64), got bool");
    expand_fails(OP_GELU, NULL, 1, (TensorType[]){{.dtype = DT_FLOAT32, .weak = true}}, "x must be a tensor, got a constant");
    /* conv2d and the pools: values the eager methods pass unchecked */
    TensorType x4 = {.dtype = DT_FLOAT32, .rank = 4, .dims = {1, 2, 5, 5}}, w4 = {.dtype = DT_FLOAT32, .rank = 4, .dims = {3, 2, 2, 2}};
    Attrs negpad = {.npads = 4, .pads = {0, -1, 0, 0}}, zstride = {.nstrides = 2, .strides = {1, 0}}, neggrp = {.group = -2};
    Attrs k0 = {.nkernel = 2, .kernel = {0, 2}}, k1 = {.nkernel = 1, .kernel = {2}}, kd = {.nkernel = 2, .kernel = {2, 2}, .ndilations = 2, .dilations = {1, 1}};
    expand_fails(OP_CONV2D, &negpad, 2, (TensorType[]){x4, w4}, "\"pads\" must be integers from 0 to 2^31-1, got -1");
    expand_fails(OP_CONV2D, &zstride, 2, (TensorType[]){x4, w4}, "\"strides\" must be integers from 1 to 2^31-1, got 0");
    expand_fails(OP_CONV2D, &neggrp, 2, (TensorType[]){x4, w4}, "\"group\" must be an integer from 1 to 2^31-1, got -2");
    expand_fails(OP_CONV2D, NULL, 2, (TensorType[]){{.dtype = DT_FLOAT32, .weak = true}, w4}, "x must be a tensor, got a constant");
    expand_fails(OP_CONV2D, NULL, 3, (TensorType[]){x4, w4, {.dtype = DT_FLOAT32, .weak = true}}, "b must be a tensor, got a constant");
    expand_fails(OP_CONV2D, NULL, 3, (TensorType[]){x4, w4, {.dtype = DT_INT32, .rank = 1, .dims = {3}}}, "b must be float32 or float64, got int32");
    expand_fails(OP_MAX_POOL2D, &k0, 1, &x4, "the kernel's height 0 is out of range (1 to 1024)");
    expand_fails(OP_AVG_POOL2D, &k1, 1, &x4, "\"kernel_shape\" must have 2 entries (height, width), got 1");
    expand_fails(OP_MAX_POOL2D, &kd, 1, &x4, "takes no \"dilations\"");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ir_infer_op__case_table__covers_every_op),
        cmocka_unit_test(ir_infer_op__dropout_bad_operands__errors),
        cmocka_unit_test(ir_infer_op__composite__internal_error),
        cmocka_unit_test(ir_expand_composite__case_table__primitives_of_expected_type),
        cmocka_unit_test(ir_expand_composite__bad_operands__errors),
        cmocka_unit_test(ir_infer_op__case_table__expected_types),
        cmocka_unit_test(ir_infer_op__wrong_operand_count__error_for_every_op),
        cmocka_unit_test(ir_infer_op__add_with_one_operand__takes_2_operands),
        cmocka_unit_test(ir_infer_op__neg_with_two_operands__takes_1_operand),
        cmocka_unit_test(ir_infer_op__input_op__internal_error),
        cmocka_unit_test(ir_infer_op__add_bool_bool__int32),
        cmocka_unit_test(ir_infer_op__arith_ops_bool_bool__int32),
        cmocka_unit_test(ir_infer_op__add_int32_float32_broadcast__float32),
        cmocka_unit_test(ir_infer_op__add_int32_int64__int64),
        cmocka_unit_test(ir_infer_op__add_int64_float32__float32),
        cmocka_unit_test(ir_infer_op__add_float32_float64__float64),
        cmocka_unit_test(ir_infer_op__mul_int32_and_int_constant__int32),
        cmocka_unit_test(ir_infer_op__mul_int32_and_float_constant__float32),
        cmocka_unit_test(ir_infer_op__mul_float64_and_float_constant__float64),
        cmocka_unit_test(ir_infer_op__add_bool_and_int_constant__int32),
        cmocka_unit_test(ir_infer_op__add_scalar_and_matrix__matrix),
        cmocka_unit_test(ir_infer_op__add_incompatible_shapes__cannot_broadcast),
        cmocka_unit_test(ir_infer_op__div_int32_int32__float32),
        cmocka_unit_test(ir_infer_op__div_int64_and_int_constant__float32),
        cmocka_unit_test(ir_infer_op__div_bool_bool__float32),
        cmocka_unit_test(ir_infer_op__div_float64_int32__float64),
        cmocka_unit_test(ir_infer_op__comparisons_of_numbers__bool),
        cmocka_unit_test(ir_infer_op__comparison_incompatible_shapes__cannot_broadcast),
        cmocka_unit_test(ir_infer_op__float_unaries_on_int__float32),
        cmocka_unit_test(ir_infer_op__float_unaries_on_float64__float64),
        cmocka_unit_test(ir_infer_op__neg_abs_on_bool__int32),
        cmocka_unit_test(ir_infer_op__signed_unaries__bool_to_int32_others_kept),
        cmocka_unit_test(ir_infer_op__unary_on_scalar__scalar),
        cmocka_unit_test(ir_infer_op__where_bool_condition__promoted_branches_broadcast),
        cmocka_unit_test(ir_infer_op__where_int_branch_and_int_constant__int32),
        cmocka_unit_test(ir_infer_op__where_both_branches_constants__promoted_constants),
        cmocka_unit_test(ir_infer_op__where_int_condition__error),
        cmocka_unit_test(ir_infer_op__where_constant_condition__error),
        cmocka_unit_test(ir_infer_op__where_incompatible_shapes__cannot_broadcast),
        cmocka_unit_test(ir_infer_op__clamp_float_with_constants__float32),
        cmocka_unit_test(ir_infer_op__clamp_int_with_float_bounds__float32),
        cmocka_unit_test(ir_infer_op__clamp_int_with_int_bounds__int32),
        cmocka_unit_test(ir_infer_op__clamp_bool__int32),
        cmocka_unit_test(ir_infer_op__clamp_tensor_bounds__broadcast),
        cmocka_unit_test(ir_infer_op__cast__target_dtype_same_shape),
        cmocka_unit_test(ir_infer_op__cast_without_dtype__needs_dtype),
        cmocka_unit_test(ir_infer_op__one_hot_int32__depth_appended_float32),
        cmocka_unit_test(ir_infer_op__one_hot_int64_with_dtype__that_dtype),
        cmocka_unit_test(ir_infer_op__one_hot_scalar_index__vector),
        cmocka_unit_test(ir_infer_op__one_hot_float_indices__error),
        cmocka_unit_test(ir_infer_op__one_hot_small_int_indices__error),
        cmocka_unit_test(ir_infer_op__small_and_unsigned_ints__each_rule),
        cmocka_unit_test(ir_infer_op__one_hot_depth_0__error),
        cmocka_unit_test(ir_infer_op__one_hot_rank_8_input__rank_limit),
        cmocka_unit_test(ir_infer_op__sum_int32__int64),
        cmocka_unit_test(ir_infer_op__sum_bool__int64),
        cmocka_unit_test(ir_infer_op__sum_float32__float32),
        cmocka_unit_test(ir_infer_op__prod_int32__int64),
        cmocka_unit_test(ir_infer_op__mean_int__float32),
        cmocka_unit_test(ir_infer_op__mean_float64__float64),
        cmocka_unit_test(ir_infer_op__max_min__keep_dtype),
        cmocka_unit_test(ir_infer_op__argmax_one_axis__int64),
        cmocka_unit_test(ir_infer_op__argmax_without_axes__needs_one_axis),
        cmocka_unit_test(ir_infer_op__argmin_two_axes__needs_one_axis),
        cmocka_unit_test(ir_infer_op__sum_keepdims__reduced_axis_size_1),
        cmocka_unit_test(ir_infer_op__sum_negative_axis__counts_from_end),
        cmocka_unit_test(ir_infer_op__sum_all_axes__rank0),
        cmocka_unit_test(ir_infer_op__sum_all_axes_keepdims__all_ones),
        cmocka_unit_test(ir_infer_op__sum_empty_axes_list__no_reduction),
        cmocka_unit_test(ir_infer_op__sum_of_scalar__scalar),
        cmocka_unit_test(ir_infer_op__reduce_axis_out_of_range__error),
        cmocka_unit_test(ir_infer_op__reduce_repeated_axis__error),
        cmocka_unit_test(ir_infer_op__max_over_empty_axis__no_identity),
        cmocka_unit_test(ir_infer_op__sum_over_empty_axis__ok),
        cmocka_unit_test(ir_infer_op__max_over_nonempty_axis_of_empty_tensor__ok),
        cmocka_unit_test(ir_reduce_mask__absent_axes__all_bits),
        cmocka_unit_test(ir_reduce_mask__negative_axes__normalised_bits),
        cmocka_unit_test(ir_infer_op__matmul_2d__m_by_n),
        cmocka_unit_test(ir_infer_op__matmul_batched__batch_dims_broadcast),
        cmocka_unit_test(ir_infer_op__matmul_1d_by_2d__vector),
        cmocka_unit_test(ir_infer_op__matmul_2d_by_1d__vector),
        cmocka_unit_test(ir_infer_op__matmul_1d_by_1d__scalar),
        cmocka_unit_test(ir_infer_op__matmul_1d_by_3d__batched_vector),
        cmocka_unit_test(ir_infer_op__matmul_mixed_float__float64),
        cmocka_unit_test(ir_infer_op__matmul_inner_mismatch__exact_message),
        cmocka_unit_test(ir_infer_op__matmul_batch_mismatch__error),
        cmocka_unit_test(ir_infer_op__matmul_int__rejected),
        cmocka_unit_test(ir_infer_op__matmul_scalar_operand__rank_error),
        cmocka_unit_test(ir_infer_op__reshape_with_minus_one__inferred),
        cmocka_unit_test(ir_infer_op__reshape_exact__target_shape),
        cmocka_unit_test(ir_infer_op__reshape_empty_with_minus_one__zero_dim),
        cmocka_unit_test(ir_infer_op__reshape_two_minus_ones__error),
        cmocka_unit_test(ir_infer_op__reshape_mismatch__error),
        cmocka_unit_test(ir_infer_op__reshape_minus_one_not_dividing__error),
        cmocka_unit_test(ir_infer_op__reshape_negative_dim__error),
        cmocka_unit_test(ir_infer_op__transpose_default__axes_reversed),
        cmocka_unit_test(ir_infer_op__transpose_explicit_perm__permuted),
        cmocka_unit_test(ir_infer_op__transpose_repeated_perm__error),
        cmocka_unit_test(ir_infer_op__transpose_perm_wrong_length__error),
        cmocka_unit_test(ir_infer_op__transpose_perm_out_of_range__error),
        cmocka_unit_test(ir_infer_op__broadcast_to_compatible__target_shape),
        cmocka_unit_test(ir_infer_op__broadcast_to_incompatible__error),
        cmocka_unit_test(ir_infer_op__broadcast_to_huge_dim__error),
        cmocka_unit_test(ir_infer_op__slice_plain_range__end_minus_start),
        cmocka_unit_test(ir_infer_op__slice_negative_start_and_end__count_from_end),
        cmocka_unit_test(ir_infer_op__slice_step_2__every_other),
        cmocka_unit_test(ir_infer_op__slice_step_minus_1__reversed),
        cmocka_unit_test(ir_infer_op__slice_out_of_range_bounds__clamped),
        cmocka_unit_test(ir_infer_op__slice_negative_step_start_before_begin__first_element),
        cmocka_unit_test(ir_infer_op__slice_empty_result__size_0),
        cmocka_unit_test(ir_infer_op__slice_extreme_steps__one_element),
        cmocka_unit_test(ir_infer_op__slice_step_0__error),
        cmocka_unit_test(ir_infer_op__slice_axes_subset__other_axes_whole),
        cmocka_unit_test(ir_infer_op__slice_two_axes_any_order__both_sliced),
        cmocka_unit_test(ir_infer_op__slice_without_axes__leading_axes),
        cmocka_unit_test(ir_infer_op__slice_of_empty_axis__empty),
        cmocka_unit_test(ir_infer_op__slice_axes_and_starts_differ__error),
        cmocka_unit_test(ir_infer_op__slice_more_starts_than_rank__error),
        cmocka_unit_test(ir_infer_op__slice_bad_axis__error),
        cmocka_unit_test(ir_infer_op__view_of_constant__rejected),
        cmocka_unit_test(ir_infer_op__full_with_dtype__that_dtype_and_shape),
        cmocka_unit_test(ir_infer_op__full_without_dtype__float32),
        cmocka_unit_test(ir_infer_op__dim_2_pow_31__rejected),
        cmocka_unit_test(ir_infer_op__negative_dim__rejected),
        cmocka_unit_test(ir_infer_op__over_2_pow_40_bytes__rejected),
        cmocka_unit_test(ir_infer_op__broadcast_result_too_large__rejected),
        cmocka_unit_test(ir_infer_op__matmul_result_too_large__rejected),
        cmocka_unit_test(ir_infer_op__one_hot_result_too_large__rejected),
        cmocka_unit_test(ir_check_type__limits__rank_dims_bytes),
        cmocka_unit_test(ir_infer_op__all_constant_operands__rejected),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
