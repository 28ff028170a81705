/* tests/unit/test_cpu_ops.c: the CPU backend's kernels called directly: every elementwise op on
 * each of its dtypes against hand-computed values, views (broadcast, transposed, reversed),
 * conversions, fill, reductions over axis sets, and matmul against a naive triple loop. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../ir/scalar.h"
#include "../../runtime/core/rt.h"

#define TEST(name) static void name(void **state __attribute__((unused)))
#define SHP(...) (int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)), (int64_t[]){__VA_ARGS__}
#define B (&rt_cpu_backend)

/* ---- helpers: tensors from doubles, and an element reader that walks strides itself --------- */

static void put(DType dt, void *p, int64_t i, double v) {
    switch (dt) {
#define PUT(ID, name, sh, sfx, CT, WT, size, kind) case DT_##ID: ((CT *)p)[i] = (CT)gtc_to_##sfx(v); break;
        IR_DTYPES(PUT)
#undef PUT
    default: fail_msg("put: dtype %d", (int)dt);
    }
}

static RtTensor *mk(DType dt, int rank, const int64_t *shape, const double *v) {
    RtTensor *t = rt_empty(B, dt, rank, shape);
    assert_non_null(t);
    for (int64_t i = 0; i < rt_numel(t); i++) put(dt, t->storage->data, i, v ? v[i] : (double)i);
    return t;
}

/* Element i (C order over the view's shape) read through its strides, as a double. */
static double at(const RtTensor *t, int64_t i) {
    int64_t off = t->offset;
    for (int d = t->rank - 1; d >= 0; d--) {
        off += (i % t->shape[d]) * t->strides[d];
        i /= t->shape[d];
    }
    const void *p = t->storage->data;
    switch (t->dtype) {
#define AT(ID, name, sh, sfx, CT, WT, size, kind) case DT_##ID: return gtc_to_f64(((const CT *)p)[off]);
        IR_DTYPES(AT)
#undef AT
    default: return NAN;
    }
}

/* A view sharing t's storage. */
static RtTensor *view(RtTensor *t, int rank, const int64_t *shape, const int64_t *strides,
                      int64_t offset) {
    RtTensor *v = malloc(sizeof *v);
    *v = *t;
    v->refcount = 1;
    v->storage->refcount++;
    v->rank = rank;
    memcpy(v->shape, shape, (size_t)rank * sizeof *shape);
    memcpy(v->strides, strides, (size_t)rank * sizeof *strides);
    v->offset = offset;
    return v;
}

static void assert_close(double got, double want, DType dt, const char *what, int64_t i) {
    bool ok;
    if (isnan(want)) ok = isnan(got);
    else if (isinf(want) || !ir_dtype_is_float(dt)) ok = got == want;
    /* the 2-byte floats: the exact value rounded once (reductions accumulate in double) */
    else if (dt == DT_BFLOAT16) ok = got == gtc_to_f64(gtc_to_bf16(want));
    else if (dt == DT_FLOAT16) ok = got == gtc_to_f64(gtc_to_f16(want));
    else ok = fabs(got - want) <= (dt == DT_FLOAT32 ? 1e-6 : 1e-12) * fmax(1, fabs(want));
    if (!ok) fail_msg("%s [%s] element %lld: got %.17g, want %.17g", what, ir_dtype_name(dt),
                      (long long)i, got, want);
}

static void assert_values(const RtTensor *t, const double *want, const char *what) {
    for (int64_t i = 0; i < rt_numel(t); i++) assert_close(at(t, i), want[i], t->dtype, what, i);
}

static int ew(Op op, RtTensor *out, RtTensor *a, RtTensor *b, RtTensor *c) {
    RtTensor *in[3] = {a, b, c};
    Attrs at = {0};
    return B->elementwise(op, out, in, ir_ops[op].arity, &at);
}

/* ---- every elementwise op on each of its dtypes: one table of hand-computed cases ----------- */

#define BM (1u << DT_BOOL)
#define I32 (1u << DT_INT32)
#define I64 (1u << DT_INT64)
#define F32 (1u << DT_FLOAT32)
#define F64 (1u << DT_FLOAT64)
#define INTS (I32 | I64)
#define FLTS (F32 | F64)
#define NUM (INTS | FLTS)
#define ALL (BM | NUM)
#define PI 3.141592653589793
#define E1 2.718281828459045

typedef struct {
    Op op;
    unsigned dtypes;                /* compute dtypes this case runs on */
    int n;
    double a[8], b[8], c[8], want[8];
} Case;

static const Case cases[] = {
    {OP_ADD, NUM, 5, {1, -2, 3, 100, 0}, {2, 5, -7, 28, 0}, {0}, {3, 3, -4, 128, 0}},
    {OP_ADD, FLTS, 3, {INFINITY, NAN, 0.5}, {-INFINITY, 1, 0.25}, {0}, {NAN, NAN, 0.75}},
    {OP_SUB, NUM, 5, {1, -2, 3, 100, 0}, {2, 5, -7, 28, 0}, {0}, {-1, -7, 10, 72, 0}},
    {OP_MUL, NUM, 5, {1, -2, 3, 100, 0}, {2, 5, -7, 28, 0}, {0}, {2, -10, -21, 2800, 0}},
    {OP_MUL, FLTS, 2, {0, 1.5}, {INFINITY, -2}, {0}, {NAN, -3}},
    {OP_DIV, FLTS, 6, {1, -3, 7, 0, 1, -1}, {4, 2, -2, 0, 0, 0}, {0}, {0.25, -1.5, -3.5, NAN, INFINITY, -INFINITY}},
    {OP_POW, NUM, 5, {2, 3, -2, 5, 0}, {3, 2, 3, 0, 0}, {0}, {8, 9, -8, 1, 1}},
    {OP_POW, INTS, 5, {2, 1, -1, -1, 0}, {-1, -3, -3, -2, -1}, {0}, {0, 1, -1, 1, 0}},
    {OP_POW, FLTS, 4, {2, 4, 9, -8}, {-1, 0.5, -0.5, 0.5}, {0}, {0.5, 2, 1.0 / 3, NAN}},
    {OP_MAXIMUM, NUM, 4, {1, -5, 3, 7}, {2, -6, 3, -7}, {0}, {2, -5, 3, 7}},
    {OP_MAXIMUM, FLTS, 3, {NAN, 1, NAN}, {1, NAN, NAN}, {0}, {NAN, NAN, NAN}},
    {OP_MINIMUM, NUM, 4, {1, -5, 3, 7}, {2, -6, 3, -7}, {0}, {1, -6, 3, -7}},
    {OP_MINIMUM, FLTS, 3, {NAN, 1, -INFINITY}, {1, NAN, 0}, {0}, {NAN, NAN, -INFINITY}},
    {OP_EQ, ALL, 4, {0, 0, 1, 1}, {0, 1, 0, 1}, {0}, {1, 0, 0, 1}},
    {OP_NE, ALL, 4, {0, 0, 1, 1}, {0, 1, 0, 1}, {0}, {0, 1, 1, 0}},
    {OP_LT, ALL, 4, {0, 0, 1, 1}, {0, 1, 0, 1}, {0}, {0, 1, 0, 0}},
    {OP_LE, ALL, 4, {0, 0, 1, 1}, {0, 1, 0, 1}, {0}, {1, 1, 0, 1}},
    {OP_GT, ALL, 4, {0, 0, 1, 1}, {0, 1, 0, 1}, {0}, {0, 0, 1, 0}},
    {OP_GE, ALL, 4, {0, 0, 1, 1}, {0, 1, 0, 1}, {0}, {1, 0, 1, 1}},
    {OP_LT, NUM, 3, {-5, 100, -1}, {-4, 99, -1}, {0}, {1, 0, 0}},
    {OP_EQ, FLTS, 3, {NAN, NAN, 1}, {NAN, 1, NAN}, {0}, {0, 0, 0}},
    {OP_NE, FLTS, 3, {NAN, NAN, 1}, {NAN, 1, NAN}, {0}, {1, 1, 1}},
    {OP_LT, FLTS, 3, {NAN, NAN, 1}, {NAN, 1, NAN}, {0}, {0, 0, 0}},
    {OP_LE, FLTS, 3, {NAN, NAN, 1}, {NAN, 1, NAN}, {0}, {0, 0, 0}},
    {OP_GT, FLTS, 3, {NAN, NAN, 1}, {NAN, 1, NAN}, {0}, {0, 0, 0}},
    {OP_GE, FLTS, 4, {NAN, NAN, 1, -INFINITY}, {NAN, 1, NAN, -INFINITY}, {0}, {0, 0, 0, 1}},
    {OP_NEG, NUM, 4, {1, -2, 0, 7}, {0}, {0}, {-1, 2, 0, -7}},
    {OP_NEG, FLTS, 2, {NAN, INFINITY}, {0}, {0}, {NAN, -INFINITY}},
    {OP_ABS, NUM, 4, {1, -2, 0, -7}, {0}, {0}, {1, 2, 0, 7}},
    {OP_ABS, FLTS, 3, {-INFINITY, NAN, -0.5}, {0}, {0}, {INFINITY, NAN, 0.5}},
    {OP_EXP, FLTS, 6, {0, 1, -1, INFINITY, -INFINITY, NAN}, {0}, {0}, {1, E1, 0.36787944117144233, INFINITY, 0, NAN}},
    {OP_LOG, FLTS, 6, {1, E1, 0, -1, INFINITY, NAN}, {0}, {0}, {0, 1, -INFINITY, NAN, INFINITY, NAN}},
    {OP_SQRT, FLTS, 6, {4, 2, 0, -1, INFINITY, 0.25}, {0}, {0}, {2, 1.4142135623730951, 0, NAN, INFINITY, 0.5}},
    {OP_RSQRT, FLTS, 5, {4, 0.25, 0, INFINITY, -1}, {0}, {0}, {0.5, 2, INFINITY, 0, NAN}},
    {OP_SIN, FLTS, 5, {0, PI / 2, -PI / 2, PI / 6, NAN}, {0}, {0}, {0, 1, -1, 0.5, NAN}},
    {OP_COS, FLTS, 4, {0, PI, PI / 3, INFINITY}, {0}, {0}, {1, -1, 0.5, NAN}},
    {OP_TAN, FLTS, 5, {0, PI / 4, -PI / 4, INFINITY, NAN}, {0}, {0}, {0, 1, -1, NAN, NAN}},
    {OP_TANH, FLTS, 5, {0, 1, -INFINITY, 20, NAN}, {0}, {0}, {0, 0.7615941559557649, -1, 1, NAN}},
    {OP_ERF, FLTS, 5, {0, 1, -INFINITY, -0.5, NAN}, {0}, {0}, {0, 0.8427007929497149, -1, -0.5204998778130465, NAN}},
    {OP_SIGMOID, FLTS, 5, {0, 2, -INFINITY, INFINITY, -2}, {0}, {0}, {0.5, 0.8807970779778823, 0, 1, 0.11920292202211755}},
    {OP_RELU, NUM, 4, {-3, 0, 2, 5}, {0}, {0}, {0, 0, 2, 5}},
    {OP_STOP_GRADIENT, NUM, 3, {-3, 0, 5}, {0}, {0}, {-3, 0, 5}},
    {OP_STOP_GRADIENT, FLTS, 3, {NAN, -INFINITY, 0.5}, {0}, {0}, {NAN, -INFINITY, 0.5}},
    {OP_RELU, FLTS, 3, {NAN, -INFINITY, 0.5}, {0}, {0}, {NAN, 0, 0.5}},
    {OP_FLOOR, INTS, 3, {-3, 0, 7}, {0}, {0}, {-3, 0, 7}},
    {OP_FLOOR, FLTS, 5, {-1.5, 1.5, 2, -0.5, NAN}, {0}, {0}, {-2, 1, 2, -1, NAN}},
    {OP_CEIL, INTS, 3, {-3, 0, 7}, {0}, {0}, {-3, 0, 7}},
    {OP_CEIL, FLTS, 5, {-1.5, 1.5, 2, 0.25, INFINITY}, {0}, {0}, {-1, 2, 2, 1, INFINITY}},
    {OP_ROUND, INTS, 3, {-3, 0, 7}, {0}, {0}, {-3, 0, 7}},
    {OP_ROUND, FLTS, 8, {2.5, 3.5, -2.5, 0.5, 1.5, 2.4, 2.6, -3.5}, {0}, {0}, {2, 4, -2, 0, 2, 2, 3, -4}},
    {OP_SIGN, NUM, 3, {-3, 0, 5}, {0}, {0}, {-1, 0, 1}},
    {OP_SIGN, FLTS, 4, {NAN, -0.25, INFINITY, -INFINITY}, {0}, {0}, {NAN, -1, 1, -1}},
    {OP_WHERE, NUM, 4, {1, 0, 1, 0}, {1, 2, 3, 4}, {-1, -2, -3, -4}, {1, -2, 3, -4}},
    {OP_WHERE, BM, 4, {1, 0, 1, 0}, {1, 1, 0, 0}, {0, 0, 1, 1}, {1, 0, 0, 1}},
    {OP_WHERE, FLTS, 2, {1, 0}, {NAN, 1}, {2, NAN}, {NAN, NAN}},
    {OP_CLAMP, NUM, 4, {-5, 0, 5, 10}, {-1, -1, -1, 4}, {3, 3, 3, 6}, {-1, 0, 3, 6}},
    {OP_CLAMP, FLTS, 4, {NAN, 1, 1, 0.5}, {0, NAN, 0, 0}, {2, 2, NAN, 1}, {NAN, NAN, NAN, 0.5}},
};

static void run_case(const Case *c, DType dt) {
    const OpInfo *info = &ir_ops[c->op];
    const double *vals[3] = {c->a, c->b, c->c};
    RtTensor *in[3] = {0};
    for (int i = 0; i < info->arity; i++)
        in[i] = mk(info->rule == R_WHERE && i == 0 ? DT_BOOL : dt, SHP(c->n), vals[i]);
    RtTensor *out = rt_empty(B, info->rule == R_CMP ? DT_BOOL : dt, SHP(c->n));
    if (ew(c->op, out, in[0], in[1], in[2]))
        fail_msg("%s [%s]: %s", info->name, ir_dtype_name(dt), rt_message());
    assert_values(out, c->want, info->name);
    for (int i = 0; i < 3; i++) rt_release(in[i]);
    rt_release(out);
}

TEST(elementwise__hand_computed_cases__match_on_every_listed_dtype) {
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        for (int dt = 0; dt < DT_COUNT; dt++)
            if (cases[i].dtypes & (1u << dt)) run_case(&cases[i], (DType)dt);
}

/* Every elementwise op has hand-computed cases (cast and one_hot have their own tests below),
 * so a new row in ops.def without a test fails here. */
TEST(elementwise__every_op__has_cases) {
    for (int op = 0; op < OP_COUNT; op++) {
        if (ir_ops[op].kind != K_ELEMWISE || ir_ops[op].rule == R_CAST ||
            ir_ops[op].rule == R_ONE_HOT)
            continue;
        bool found = false;
        for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) found |= cases[i].op == (Op)op;
        if (!found) fail_msg("no test case for %s", ir_ops[op].name);
    }
}

/* Whatever dtype the IR's rules let an op take, the backend has a loop for its compute dtype. */
TEST(elementwise__every_op_every_input_dtype__supported) {
    for (int op = 0; op < OP_COUNT; op++) {
        const OpInfo *info = &ir_ops[op];
        if (info->kind != K_ELEMWISE) continue;
        for (int dt = 0; dt < DT_COUNT; dt++)
            for (int od = 0; od < DT_COUNT; od++) {
                Attrs at = {.dtype = (DType)od, .has_dtype = true, .depth = 3};
                TensorType tin[3], tout;
                for (int i = 0; i < info->arity; i++)
                    tin[i] = (TensorType){.dtype = info->rule == R_WHERE && i == 0 ? DT_BOOL
                                                                                  : (DType)dt,
                                          .rank = 1, .dims = {2}};
                char err[256];
                if (ir_infer_op((Op)op, tin, info->arity, &at, &tout, err, sizeof err)) continue;
                DType ct = ir_compute_dtype((Op)op, tin, info->arity, &tout);
                RtTensor *in[3] = {0};
                for (int i = 0; i < info->arity; i++)
                    in[i] = mk(info->rule == R_WHERE && i == 0 ? DT_BOOL
                               : info->rule == R_CAST ? (DType)dt : ct, SHP(2), (double[]){1, 0});
                RtTensor *out = rt_empty(B, tout.dtype, tout.rank, tout.dims);
                if (B->elementwise((Op)op, out, in, info->arity, &at))
                    fail_msg("%s on %s: %s", info->name, ir_dtype_name((DType)dt), rt_message());
                for (int i = 0; i < 3; i++) rt_release(in[i]);
                rt_release(out);
            }
    }
}

TEST(elementwise__float_op_on_int32__einval) {
    RtTensor *x = mk(DT_INT32, SHP(2), NULL), *out = rt_empty(B, DT_INT32, SHP(2));
    rt_clear_error();
    assert_int_equal(ew(OP_EXP, out, x, NULL, NULL), -1);
    assert_int_equal(rt_status(), RT_EINVAL);
    assert_non_null(strstr(rt_message(), "exp"));
    RtTensor *f = mk(DT_FLOAT64, SHP(2), NULL), *fo = rt_empty(B, DT_FLOAT32, SHP(2));
    assert_int_equal(ew(OP_ADD, fo, f, f, NULL), -1); /* operands not in the compute dtype */
    assert_int_equal(rt_status(), RT_EINVAL);
    rt_release(x), rt_release(out), rt_release(f), rt_release(fo);
}

TEST(elementwise__round_half_to_even_negative_zero__minus_zero) {
    for (DType dt = DT_FLOAT32; dt <= DT_FLOAT64; dt++) {
        RtTensor *x = mk(dt, SHP(3), (double[]){-0.5, -0.0, 0.5});
        RtTensor *out = rt_empty(B, dt, SHP(3));
        assert_int_equal(ew(OP_ROUND, out, x, NULL, NULL), 0);
        assert_true(at(out, 0) == 0 && signbit(at(out, 0)));
        assert_true(at(out, 1) == 0 && signbit(at(out, 1)));
        assert_true(at(out, 2) == 0 && !signbit(at(out, 2)));
        assert_int_equal(ew(OP_NEG, out, x, NULL, NULL), 0); /* -(-0.5), -(-0), -(0.5) */
        assert_true(!signbit(at(out, 1)) && signbit(at(out, 2)));
        rt_release(x), rt_release(out);
    }
}

TEST(elementwise__int32_overflow__wraps) {
    RtTensor *a = rt_from_host(B, DT_INT32, SHP(3), (int32_t[]){INT32_MAX, INT32_MIN, 65536});
    RtTensor *b = rt_from_host(B, DT_INT32, SHP(3), (int32_t[]){1, 1, 65536});
    RtTensor *out = rt_empty(B, DT_INT32, SHP(3));
    int32_t *o = out->storage->data;
    assert_int_equal(ew(OP_ADD, out, a, b, NULL), 0);
    assert_true(o[0] == INT32_MIN && o[1] == INT32_MIN + 1 && o[2] == 131072);
    assert_int_equal(ew(OP_SUB, out, b, a, NULL), 0);
    assert_true(o[0] == INT32_MIN + 2 && o[1] == INT32_MIN + 1 && o[2] == 0);
    assert_int_equal(ew(OP_MUL, out, a, b, NULL), 0);
    assert_true(o[0] == INT32_MAX && o[1] == INT32_MIN && o[2] == 0);
    assert_int_equal(ew(OP_NEG, out, a, NULL, NULL), 0);
    assert_true(o[0] == -INT32_MAX && o[1] == INT32_MIN);
    assert_int_equal(ew(OP_ABS, out, a, NULL, NULL), 0);
    assert_true(o[1] == INT32_MIN);
    RtTensor *two = rt_from_host(B, DT_INT32, SHP(3), (int32_t[]){2, 2, 2});
    RtTensor *e = rt_from_host(B, DT_INT32, SHP(3), (int32_t[]){31, 32, 30});
    assert_int_equal(ew(OP_POW, out, two, e, NULL), 0);
    assert_true(o[0] == INT32_MIN && o[1] == 0 && o[2] == 1 << 30);
    rt_release(a), rt_release(b), rt_release(out), rt_release(two), rt_release(e);
}

TEST(elementwise__int64_overflow_and_precision__wraps_exactly) {
    RtTensor *a = rt_from_host(B, DT_INT64, SHP(3), (int64_t[]){INT64_MAX, INT64_MIN, (1ll << 53) + 1});
    RtTensor *b = rt_from_host(B, DT_INT64, SHP(3), (int64_t[]){1, -1, 1ll << 53});
    RtTensor *out = rt_empty(B, DT_INT64, SHP(3)), *cmp = rt_empty(B, DT_BOOL, SHP(3));
    int64_t *o = out->storage->data;
    assert_int_equal(ew(OP_ADD, out, a, b, NULL), 0);
    assert_true(o[0] == INT64_MIN && o[1] == INT64_MAX && o[2] == (1ll << 54) + 1);
    assert_int_equal(ew(OP_MUL, out, a, a, NULL), 0);
    assert_true(o[0] == 1 && o[1] == 0);
    assert_int_equal(ew(OP_NEG, out, a, NULL, NULL), 0);
    assert_true(o[0] == -INT64_MAX && o[1] == INT64_MIN && o[2] == -(1ll << 53) - 1);
    assert_int_equal(ew(OP_ABS, out, a, NULL, NULL), 0);
    assert_true(o[1] == INT64_MIN);
    assert_int_equal(ew(OP_EQ, cmp, a, b, NULL), 0); /* 2^53+1 != 2^53: no float detour */
    assert_true(((uint8_t *)cmp->storage->data)[2] == 0);
    assert_int_equal(ew(OP_MAXIMUM, out, a, b, NULL), 0);
    assert_true(o[0] == INT64_MAX && o[1] == -1 && o[2] == (1ll << 53) + 1);
    rt_release(a), rt_release(b), rt_release(out), rt_release(cmp);
}

/* The small and unsigned integers wrap in every formula that can overflow, and compare without
 * a detour through a signed or float type. */
TEST(elementwise__small_and_unsigned_ints__wrap_and_compare_exactly) {
    struct { Op op; DType dt; double a[2], b[2], want[2]; } rows[] = {
        {OP_ADD, DT_INT8, {100, -128}, {100, -1}, {-56, 127}},
        {OP_SUB, DT_UINT8, {0, 200}, {1, 100}, {255, 100}},
        {OP_MUL, DT_INT16, {300, -2}, {300, 3}, {24464, -6}},
        {OP_MUL, DT_UINT16, {65535, 2}, {65535, 3}, {1, 6}},
        {OP_MUL, DT_UINT32, {4294967295.0, 5}, {4294967295.0, 7}, {1, 35}},
        {OP_NEG, DT_UINT8, {1, 0}, {0}, {255, 0}},
        {OP_NEG, DT_UINT32, {1, 0}, {0}, {4294967295.0, 0}},
        {OP_ABS, DT_INT8, {-128, -3}, {0}, {-128, 3}},
        {OP_ABS, DT_INT16, {-32768, 5}, {0}, {-32768, 5}},
        {OP_POW, DT_UINT8, {2, 3}, {8, 5}, {0, 243}},
        {OP_POW, DT_INT8, {2, -1}, {-1, 3}, {0, -1}},
        {OP_SIGN, DT_UINT16, {0, 7}, {0}, {0, 1}},
        {OP_RELU, DT_INT8, {-5, 5}, {0}, {0, 5}},
        {OP_MAXIMUM, DT_UINT32, {4000000000.0, 1}, {2, 3}, {4000000000.0, 3}},
        {OP_GT, DT_UINT32, {4000000000.0, 1}, {2, 3}, {1, 0}},
    };
    for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
        int arity = ir_ops[rows[r].op].arity;
        RtTensor *a = mk(rows[r].dt, SHP(2), rows[r].a), *b = arity > 1 ? mk(rows[r].dt, SHP(2), rows[r].b) : NULL;
        RtTensor *out = rt_empty(B, ir_ops[rows[r].op].rule == R_CMP ? DT_BOOL : rows[r].dt, SHP(2));
        if (ew(rows[r].op, out, a, b, NULL))
            fail_msg("%s [%s]: %s", ir_ops[rows[r].op].name, ir_dtype_name(rows[r].dt), rt_message());
        assert_values(out, rows[r].want, ir_ops[rows[r].op].name);
        rt_release(a), rt_release(b), rt_release(out);
    }
    /* uint64: every bit, beyond a double's precision and int64's range */
    uint64_t big[2] = {UINT64_MAX, (1ull << 63) + 1}, one[2] = {1, 1};
    RtTensor *x = rt_from_host(B, DT_UINT64, SHP(2), big), *y = rt_from_host(B, DT_UINT64, SHP(2), one);
    RtTensor *out = rt_empty(B, DT_UINT64, SHP(2)), *cmp = rt_empty(B, DT_BOOL, SHP(2));
    uint64_t *o = out->storage->data;
    assert_int_equal(ew(OP_ADD, out, x, y, NULL), 0);
    assert_true(o[0] == 0 && o[1] == (1ull << 63) + 2);
    assert_int_equal(ew(OP_MUL, out, x, x, NULL), 0);
    assert_true(o[0] == 1 && o[1] == 1);
    assert_int_equal(ew(OP_ABS, out, x, NULL, NULL), 0);
    assert_true(o[0] == UINT64_MAX && o[1] == (1ull << 63) + 1);
    assert_int_equal(ew(OP_POW, out, x, y, NULL), 0);
    assert_true(o[0] == UINT64_MAX);
    assert_int_equal(ew(OP_GT, cmp, x, y, NULL), 0);
    assert_true(((uint8_t *)cmp->storage->data)[0] == 1 && ((uint8_t *)cmp->storage->data)[1] == 1);
    rt_release(x), rt_release(y), rt_release(out), rt_release(cmp);
}

/* Casts to the new integers: from a float saturating (NaN -> 0), from an integer the low bits. */
TEST(copy__to_small_and_unsigned_ints__saturate_or_keep_low_bits) {
    const double v[] = {1.9, -1.9, NAN, 1e20, -1e20, 300};
    struct { DType to; double want[6]; } rows[] = {
        {DT_INT8, {1, -1, 0, 127, -128, 127}},
        {DT_UINT8, {1, 0, 0, 255, 0, 255}},
        {DT_INT16, {1, -1, 0, 32767, -32768, 300}},
        {DT_UINT16, {1, 0, 0, 65535, 0, 300}},
        {DT_UINT32, {1, 0, 0, 4294967295.0, 0, 300}},
        {DT_UINT64, {1, 0, 0, 18446744073709551615.0, 0, 300}},
    };
    for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
        RtTensor *x = mk(DT_FLOAT64, SHP(6), v), *out = rt_empty(B, rows[r].to, SHP(6));
        assert_int_equal(B->copy(out, x), 0);
        assert_values(out, rows[r].want, "float to int");
        rt_release(x), rt_release(out);
    }
    int64_t w[3] = {300, -1, 65537};
    RtTensor *x = rt_from_host(B, DT_INT64, SHP(3), w);
    struct { DType to; double want[3]; } ints[] = {
        {DT_UINT8, {44, 255, 1}}, {DT_INT8, {44, -1, 1}}, {DT_UINT16, {300, 65535, 1}},
        {DT_INT16, {300, -1, 1}}, {DT_UINT32, {300, 4294967295.0, 65537}},
    };
    for (size_t r = 0; r < sizeof ints / sizeof *ints; r++) {
        RtTensor *out = rt_empty(B, ints[r].to, SHP(3));
        assert_int_equal(B->copy(out, x), 0);
        assert_values(out, ints[r].want, "int to int");
        rt_release(out);
    }
    RtTensor *u = rt_empty(B, DT_UINT64, SHP(3));
    assert_int_equal(B->copy(u, x), 0);
    assert_true(((uint64_t *)u->storage->data)[1] == UINT64_MAX);
    rt_release(x), rt_release(u);
}

TEST(elementwise__one_hot_every_index_and_out_dtype__rows) {
    const double want[] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0};
    for (DType it = DT_INT32; it <= DT_INT64; it++)
        for (int od = 0; od < DT_COUNT; od++) {
            RtTensor *idx = mk(it, SHP(5), (double[]){0, 2, -1, 1, 3});
            RtTensor *out = rt_empty(B, (DType)od, SHP(5, 3));
            Attrs at = {.depth = 3};
            RtTensor *in[1] = {idx};
            assert_int_equal(B->elementwise(OP_ONE_HOT, out, in, 1, &at), 0);
            assert_values(out, want, "one_hot");
            rt_release(idx), rt_release(out);
        }
}

TEST(elementwise__one_hot_broadcast_indices__rows_repeat) {
    RtTensor *idx = mk(DT_INT64, SHP(2), (double[]){1, 0});
    RtTensor *bv = view(idx, SHP(3, 2), (int64_t[]){0, 1}, 0); /* [3,2], stride 0 on axis 0 */
    RtTensor *out = rt_empty(B, DT_FLOAT32, SHP(3, 2, 2));
    Attrs at = {.depth = 2};
    RtTensor *in[1] = {bv};
    assert_int_equal(B->elementwise(OP_ONE_HOT, out, in, 1, &at), 0);
    assert_values(out, (double[]){0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0}, "one_hot");
    rt_release(idx), rt_release(bv), rt_release(out);
}

/* ---- views: broadcast (stride 0), transposed, reversed (negative stride) ---------------------- */

TEST(elementwise__broadcast_row_column_and_scalar__stride_zero_views) {
    RtTensor *row = mk(DT_FLOAT32, SHP(4), (double[]){1, 2, 3, 4});
    RtTensor *col = mk(DT_FLOAT32, SHP(3), (double[]){10, 20, 30});
    RtTensor *rv = view(row, SHP(3, 4), (int64_t[]){0, 1}, 0);
    RtTensor *cv = view(col, SHP(3, 4), (int64_t[]){1, 0}, 0);
    RtTensor *out = rt_empty(B, DT_FLOAT32, SHP(3, 4));
    assert_int_equal(ew(OP_ADD, out, cv, rv, NULL), 0);
    assert_values(out, (double[]){11, 12, 13, 14, 21, 22, 23, 24, 31, 32, 33, 34}, "outer add");
    RtTensor *s = mk(DT_FLOAT32, 0, (int64_t[]){1}, (double[]){2}); /* rank 0 */
    RtTensor *sv = view(s, SHP(3, 4), (int64_t[]){0, 0}, 0);
    assert_int_equal(ew(OP_SUB, out, sv, rv, NULL), 0); /* scalar first */
    assert_values(out, (double[]){1, 0, -1, -2, 1, 0, -1, -2, 1, 0, -1, -2}, "2 - row");
    assert_int_equal(ew(OP_MUL, out, rv, sv, NULL), 0); /* scalar second */
    assert_values(out, (double[]){2, 4, 6, 8, 2, 4, 6, 8, 2, 4, 6, 8}, "row * 2");
    /* lower-rank operands broadcast from the right, as NumPy */
    assert_int_equal(ew(OP_MAXIMUM, out, row, s, NULL), 0);
    assert_values(out, (double[]){2, 2, 3, 4, 2, 2, 3, 4, 2, 2, 3, 4}, "maximum(row, 2)");
    RtTensor *cond = mk(DT_BOOL, SHP(4), (double[]){1, 0, 0, 1});
    assert_int_equal(ew(OP_WHERE, out, cond, cv, rv), 0);
    assert_values(out, (double[]){10, 2, 3, 10, 20, 2, 3, 20, 30, 2, 3, 30}, "where");
    rt_release(row), rt_release(col), rt_release(rv), rt_release(cv), rt_release(out);
    rt_release(s), rt_release(sv), rt_release(cond);
}

TEST(elementwise__transposed_and_reversed_views__index_through_strides) {
    RtTensor *t = mk(DT_FLOAT64, SHP(2, 3), NULL);                     /* [[0,1,2],[3,4,5]] */
    RtTensor *tt = view(t, SHP(3, 2), (int64_t[]){1, 3}, 0);          /* transpose */
    RtTensor *rev = view(t, SHP(3, 2), (int64_t[]){-1, -3}, 5);       /* tt reversed both ways */
    RtTensor *out = rt_empty(B, DT_FLOAT64, SHP(3, 2));
    assert_int_equal(ew(OP_SUB, out, tt, rev, NULL), 0);
    /* tt = [[0,3],[1,4],[2,5]], rev = [[5,2],[4,1],[3,0]] */
    assert_values(out, (double[]){-5, 1, -3, 3, -1, 5}, "tt - rev");
    RtTensor *o2 = rt_empty(B, DT_BOOL, SHP(3, 2));
    assert_int_equal(ew(OP_LT, o2, tt, rev, NULL), 0);
    assert_values(o2, (double[]){1, 0, 1, 0, 1, 0}, "tt < rev");
    /* a strided output view: every other element of a [6] buffer */
    RtTensor *buf = mk(DT_FLOAT64, SHP(6), (double[]){-1, -1, -1, -1, -1, -1});
    RtTensor *ov = view(buf, SHP(3), (int64_t[]){2}, 1);
    RtTensor *v = view(t, SHP(3), (int64_t[]){-1}, 5);
    assert_int_equal(ew(OP_NEG, ov, v, NULL, NULL), 0);
    assert_values(buf, (double[]){-1, -5, -1, -4, -1, -3}, "strided out");
    rt_release(t), rt_release(tt), rt_release(rev), rt_release(out), rt_release(o2);
    rt_release(buf), rt_release(ov), rt_release(v);
}

TEST(elementwise__empty_tensors__no_work) {
    RtTensor *a = rt_empty(B, DT_FLOAT32, SHP(0, 3)), *out = rt_empty(B, DT_FLOAT32, SHP(0, 3));
    assert_int_equal(ew(OP_ADD, out, a, a, NULL), 0);
    assert_int_equal(B->copy(out, a), 0);
    assert_int_equal(B->fill(out, 1), 0);
    rt_release(a), rt_release(out);
}

/* ---- copy (every dtype pair, scalar.h conversions), fill, memory ------------------------------- */

TEST(copy__every_dtype_pair__zero_and_one_survive) {
    for (int from = 0; from < DT_COUNT; from++)
        for (int to = 0; to < DT_COUNT; to++) {
            RtTensor *x = mk((DType)from, SHP(2), (double[]){1, 0});
            RtTensor *out = rt_empty(B, (DType)to, SHP(2));
            assert_int_equal(B->copy(out, x), 0);
            assert_values(out, (double[]){1, 0}, "copy");
            RtTensor *in[1] = {x};
            Attrs at = {.dtype = (DType)to, .has_dtype = true};
            assert_int_equal(B->elementwise(OP_CAST, out, in, 1, &at), 0);
            assert_values(out, (double[]){1, 0}, "cast");
            rt_release(x), rt_release(out);
        }
}

TEST(copy__float_to_int__saturates_truncates_nan_zero) {
    const double v[] = {1.9, -1.9, NAN, 3e9, -3e9, INFINITY, -INFINITY, 0.5};
    struct { DType to; double want[8]; } rows[] = {
        {DT_INT32, {1, -1, 0, INT32_MAX, INT32_MIN, INT32_MAX, INT32_MIN, 0}},
        {DT_INT64, {1, -1, 0, 3e9, -3e9, (double)INT64_MAX, (double)INT64_MIN, 0}},
        {DT_BOOL, {1, 1, 1, 1, 1, 1, 1, 1}},
        {DT_FLOAT32, {1.9, -1.9, NAN, 3e9, -3e9, INFINITY, -INFINITY, 0.5}},
    };
    for (DType from = DT_FLOAT32; from <= DT_FLOAT64; from++)
        for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
            RtTensor *x = mk(from, SHP(8), v), *out = rt_empty(B, rows[r].to, SHP(8));
            assert_int_equal(B->copy(out, x), 0);
            assert_values(out, rows[r].want, "float conversion");
            rt_release(x), rt_release(out);
        }
    int64_t big[2] = {INT64_MAX, (1ll << 32) + 5};
    RtTensor *x = rt_from_host(B, DT_INT64, SHP(2), big), *out = rt_empty(B, DT_INT32, SHP(2));
    assert_int_equal(B->copy(out, x), 0); /* int64 → int32 keeps the low bits */
    assert_true(((int32_t *)out->storage->data)[0] == -1 && ((int32_t *)out->storage->data)[1] == 5);
    rt_release(x), rt_release(out);
}

TEST(copy__permuted_sliced_views__match_naive_gather) {
    RtTensor *t = mk(DT_INT32, SHP(4, 5, 6), NULL);
    struct { int rank; int64_t shape[3], strides[3], offset; } vs[] = {
        {3, {6, 4, 5}, {1, 30, 6}, 0},       /* transpose (2, 0, 1) */
        {3, {2, 5, 3}, {60, 6, 2}, 1},       /* [::2, :, 1::2] */
        {3, {4, 5, 6}, {-30, 6, -1}, 95},    /* reversed axes 0 and 2 */
        {2, {5, 4}, {6, 30}, 3},             /* a transposed 2-D slice */
        {3, {3, 1, 6}, {30, 0, 1}, 30},      /* a size-1 axis with stride 0 */
        {3, {4, 3, 6}, {30, 0, 1}, 0},       /* broadcast middle axis */
    };
    for (size_t i = 0; i < sizeof vs / sizeof *vs; i++) {
        RtTensor *v = view(t, vs[i].rank, vs[i].shape, vs[i].strides, vs[i].offset);
        for (DType to = DT_INT32; to <= DT_FLOAT64; to++) {
            RtTensor *out = rt_empty(B, to, v->rank, v->shape);
            assert_int_equal(B->copy(out, v), 0);
            for (int64_t k = 0; k < rt_numel(v); k++) assert_close(at(out, k), at(v, k), to, "copy", k);
            rt_release(out);
        }
        rt_release(v);
    }
    rt_release(t);
}

TEST(fill__values_convert_as_scalar_h__saturating_and_strided) {
    RtTensor *t = rt_empty(B, DT_INT32, SHP(3));
    assert_int_equal(B->fill(t, 3.7), 0);
    assert_values(t, (double[]){3, 3, 3}, "fill 3.7");
    assert_int_equal(B->fill(t, 1e10), 0);
    assert_values(t, (double[]){INT32_MAX, INT32_MAX, INT32_MAX}, "fill 1e10");
    RtTensor *bt = rt_empty(B, DT_BOOL, SHP(2));
    assert_int_equal(B->fill(bt, 0.5), 0);
    assert_values(bt, (double[]){1, 1}, "fill bool");
    RtTensor *f = mk(DT_FLOAT64, SHP(5), (double[]){0, 0, 0, 0, 0});
    RtTensor *fv = view(f, SHP(2), (int64_t[]){-2}, 3);
    assert_int_equal(B->fill(fv, -0.25), 0);
    assert_values(f, (double[]){0, -0.25, 0, -0.25, 0}, "strided fill");
    rt_release(t), rt_release(bt), rt_release(f), rt_release(fv);
}

TEST(alloc__any_size__64_byte_aligned_and_round_trips) {
    size_t sizes[] = {0, 1, 63, 64, 1000};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        char *p = B->alloc(sizes[i]);
        assert_non_null(p);
        assert_int_equal((uintptr_t)p % 64, 0);
        char src[1000], dst[1000];
        for (size_t k = 0; k < sizes[i]; k++) src[k] = (char)k;
        assert_int_equal(B->upload(p, src, sizes[i]), 0);
        assert_int_equal(B->download(dst, p, sizes[i]), 0);
        if (sizes[i]) assert_memory_equal(src, dst, sizes[i]);
        B->free(p);
    }
    assert_int_equal(B->upload(NULL, NULL, 0), 0);
    B->synchronize();
    assert_string_equal(B->name, "cpu");
}

/* ---- reductions -------------------------------------------------------------------------------- */

/* The expected reduction of x (contiguous [2,3,4], value i at flat index i) over `mask`. */
static void naive_reduce(Op op, const double *x, const int64_t *shape, unsigned mask, double *want) {
    int64_t n = shape[0] * shape[1] * shape[2], kept = 1;
    for (int d = 0; d < 3; d++) kept *= (mask >> d) & 1 ? 1 : shape[d];
    for (int64_t o = 0; o < kept; o++) want[o] = op == OP_PROD ? 1 : op == OP_MAX ? -INFINITY
                                                 : op == OP_MIN ? INFINITY : 0;
    int64_t cnt = n / kept;
    for (int64_t i = 0; i < n; i++) {
        int64_t idx[3] = {i / (shape[1] * shape[2]), i / shape[2] % shape[1], i % shape[2]}, o = 0;
        for (int d = 0; d < 3; d++) o = o * ((mask >> d) & 1 ? 1 : shape[d]) + ((mask >> d) & 1 ? 0 : idx[d]);
        double v = x[i];
        switch (op) {
        case OP_PROD: want[o] *= v; break;
        case OP_MAX: want[o] = fmax(want[o], v); break;
        case OP_MIN: want[o] = fmin(want[o], v); break;
        default: want[o] += v; break;
        }
    }
    if (op == OP_MEAN)
        for (int64_t o = 0; o < kept; o++) want[o] /= (double)cnt;
}

TEST(reduce__every_axis_set_and_dtype__matches_naive_keepdims) {
    int64_t shape[3] = {2, 3, 4};
    double x[24];
    for (int i = 0; i < 24; i++) x[i] = (i % 7) - 3 + (i % 3) * 0.5;
    Op ops[] = {OP_SUM, OP_MEAN, OP_MAX, OP_MIN, OP_PROD};
    for (size_t oi = 0; oi < sizeof ops / sizeof *ops; oi++)
        for (int dt = DT_INT32; dt < DT_COUNT; dt++) {
            if (ops[oi] == OP_MEAN && !ir_dtype_is_float((DType)dt)) continue;
            /* integer sums and products reach the backend in int64 (rt_apply converts) */
            if ((ops[oi] == OP_SUM || ops[oi] == OP_PROD) && dt != DT_INT32 && dt != DT_INT64 &&
                !ir_dtype_is_float((DType)dt))
                continue;
            double xv[24];
            for (int i = 0; i < 24; i++)
                xv[i] = ir_dtype_is_float((DType)dt)    ? x[i]
                        : ir_dtype_is_unsigned((DType)dt) ? (double)(i % 5)
                                                          : (double)(i % 5 - 2);
            RtTensor *in = mk((DType)dt, 3, shape, xv);
            for (unsigned mask = 0; mask < 8; mask++) {
                int64_t os[3];
                for (int d = 0; d < 3; d++) os[d] = (mask >> d) & 1 ? 1 : shape[d];
                RtTensor *out = rt_empty(B, (DType)dt, 3, os);
                if (B->reduce(ops[oi], out, in, mask))
                    fail_msg("%s mask %u: %s", ir_ops[ops[oi]].name, mask, rt_message());
                double want[24];
                naive_reduce(ops[oi], xv, shape, mask, want);
                assert_values(out, want, ir_ops[ops[oi]].name);
                rt_release(out);
            }
            rt_release(in);
        }
}

TEST(reduce__transposed_and_broadcast_inputs__through_strides) {
    RtTensor *t = mk(DT_FLOAT32, SHP(2, 3), NULL);                   /* [[0,1,2],[3,4,5]] */
    RtTensor *tt = view(t, SHP(3, 2), (int64_t[]){1, 3}, 0);
    RtTensor *out = rt_empty(B, DT_FLOAT32, SHP(3, 1));
    assert_int_equal(B->reduce(OP_SUM, out, tt, 2u), 0);
    assert_values(out, (double[]){3, 5, 7}, "sum of transposed rows");
    RtTensor *bv = view(t, SHP(4, 3), (int64_t[]){0, -1}, 5);       /* [5,4,3] repeated 4 times */
    RtTensor *o2 = rt_empty(B, DT_FLOAT32, SHP(1, 3));
    assert_int_equal(B->reduce(OP_SUM, o2, bv, 1u), 0);
    assert_values(o2, (double[]){20, 16, 12}, "sum over a broadcast axis");
    RtTensor *o3 = rt_empty(B, DT_INT64, SHP(1, 2));
    assert_int_equal(B->reduce(OP_ARGMAX, o3, tt, 1u), 0);          /* down the columns of tt */
    assert_values(o3, (double[]){2, 2}, "argmax of transposed");
    rt_release(t), rt_release(tt), rt_release(out), rt_release(bv), rt_release(o2), rt_release(o3);
}

/* float32 sums are blocked and pairwise (ir/fsum.h; its order and bound: test_fsum.c): 2^20
 * copies of 0.1f within a few units in the last place (one float32 chain: 1% off) */
TEST(reduce__float32_sum_of_many__blocked_pairwise) {
    int64_t n = 1 << 20;
    RtTensor *x = rt_full(B, DT_FLOAT32, SHP(n), 0.1);
    RtTensor *out = rt_empty(B, DT_FLOAT32, SHP(1));
    assert_int_equal(B->reduce(OP_SUM, out, x, 1u), 0);
    assert_true(fabs(at(out, 0) - (double)0.1f * (double)n) < 4 * 0.0078125);
    assert_int_equal(B->reduce(OP_MEAN, out, x, 1u), 0);
    assert_true(fabs(at(out, 0) - (double)0.1f) < 4 * 7.5e-9);
    rt_release(x), rt_release(out);
}

TEST(reduce__max_min_nan__first_nan_wins) {
    uint32_t nan1 = 0x7fc00001u, nan2 = 0x7fc00002u;
    float v[4] = {1, 0, 3, 0};
    memcpy(&v[1], &nan1, 4), memcpy(&v[3], &nan2, 4);
    RtTensor *x = rt_from_host(B, DT_FLOAT32, SHP(4), v), *out = rt_empty(B, DT_FLOAT32, SHP(1));
    for (Op op = OP_MAX; op <= OP_MIN; op++) {
        assert_int_equal(B->reduce(op, out, x, 1u), 0);
        uint32_t bits;
        memcpy(&bits, out->storage->data, 4);
        assert_int_equal(bits, nan1);
    }
    rt_release(x), rt_release(out);
}

TEST(reduce__int_and_bool_extremes__exact) {
    RtTensor *x = rt_from_host(B, DT_INT64, SHP(3), (int64_t[]){INT64_MIN, INT64_MAX, 0});
    RtTensor *out = rt_empty(B, DT_INT64, SHP(1));
    assert_int_equal(B->reduce(OP_MAX, out, x, 1u), 0);
    assert_true(((int64_t *)out->storage->data)[0] == INT64_MAX);
    assert_int_equal(B->reduce(OP_MIN, out, x, 1u), 0);
    assert_true(((int64_t *)out->storage->data)[0] == INT64_MIN);
    assert_int_equal(B->reduce(OP_SUM, out, x, 1u), 0); /* wraps: MIN + MAX = -1 */
    assert_true(((int64_t *)out->storage->data)[0] == -1);
    RtTensor *p = rt_from_host(B, DT_INT64, SHP(2), (int64_t[]){1ll << 32, 1ll << 32});
    assert_int_equal(B->reduce(OP_PROD, out, p, 1u), 0);
    assert_true(((int64_t *)out->storage->data)[0] == 0);
    RtTensor *bx = mk(DT_BOOL, SHP(2, 2), (double[]){0, 0, 0, 1}), *bo = rt_empty(B, DT_BOOL, SHP(2, 1));
    assert_int_equal(B->reduce(OP_MAX, bo, bx, 2u), 0);
    assert_values(bo, (double[]){0, 1}, "any");
    assert_int_equal(B->reduce(OP_MIN, bo, bx, 2u), 0);
    assert_values(bo, (double[]){0, 0}, "all");
    rt_release(x), rt_release(out), rt_release(p), rt_release(bx), rt_release(bo);
}

TEST(reduce__argmax_argmin_ties_and_nan__first_index) {
    RtTensor *x = mk(DT_FLOAT64, SHP(4, 4), (double[]){1, 3, 3, 2, 2, 1, 1, 5, 1, NAN, 5, NAN, 7, 7, 7, 7});
    RtTensor *out = rt_empty(B, DT_INT64, SHP(4, 1));
    assert_int_equal(B->reduce(OP_ARGMAX, out, x, 2u), 0);
    assert_values(out, (double[]){1, 3, 1, 0}, "argmax rows");
    assert_int_equal(B->reduce(OP_ARGMIN, out, x, 2u), 0);
    assert_values(out, (double[]){0, 1, 1, 0}, "argmin rows");
    RtTensor *o2 = rt_empty(B, DT_INT64, SHP(1, 4));
    assert_int_equal(B->reduce(OP_ARGMAX, o2, x, 1u), 0);
    assert_values(o2, (double[]){3, 2, 3, 2}, "argmax columns");
    for (int dt = 0; dt < DT_FLOAT32; dt++) { /* bool and ints */
        RtTensor *y = mk((DType)dt, SHP(5), (double[]){0, 1, 1, 0, 1}), *o = rt_empty(B, DT_INT64, SHP(1));
        assert_int_equal(B->reduce(OP_ARGMAX, o, y, 1u), 0);
        assert_values(o, (double[]){1}, "argmax");
        assert_int_equal(B->reduce(OP_ARGMIN, o, y, 1u), 0);
        assert_values(o, (double[]){0}, "argmin");
        rt_release(y), rt_release(o);
    }
    RtTensor *o3 = rt_empty(B, DT_INT64, SHP(1, 1));
    rt_clear_error();
    assert_int_equal(B->reduce(OP_ARGMAX, o3, x, 3u), -1); /* two axes */
    assert_int_equal(rt_status(), RT_EINVAL);
    rt_release(x), rt_release(out), rt_release(o2), rt_release(o3);
}

TEST(reduce__empty_axes__identities_nan_mean_and_errors) {
    RtTensor *x = rt_empty(B, DT_FLOAT32, SHP(0, 3)), *out = rt_empty(B, DT_FLOAT32, SHP(1, 3));
    assert_int_equal(B->reduce(OP_SUM, out, x, 1u), 0);
    assert_values(out, (double[]){0, 0, 0}, "empty sum");
    assert_int_equal(B->reduce(OP_PROD, out, x, 1u), 0);
    assert_values(out, (double[]){1, 1, 1}, "empty prod");
    assert_int_equal(B->reduce(OP_MEAN, out, x, 1u), 0);
    assert_values(out, (double[]){NAN, NAN, NAN}, "empty mean");
    rt_clear_error();
    assert_int_equal(B->reduce(OP_MAX, out, x, 1u), -1);
    assert_int_equal(rt_status(), RT_EINVAL);
    RtTensor *oe = rt_empty(B, DT_FLOAT32, SHP(0, 1)); /* nothing kept: nothing to do */
    assert_int_equal(B->reduce(OP_MAX, oe, x, 2u), 0);
    RtTensor *xi = rt_empty(B, DT_INT64, SHP(2, 0)), *oi = rt_empty(B, DT_INT64, SHP(2, 1));
    assert_int_equal(B->reduce(OP_SUM, oi, xi, 2u), 0);
    assert_values(oi, (double[]){0, 0}, "empty int sum");
    rt_release(x), rt_release(out), rt_release(oe), rt_release(xi), rt_release(oi);
}

TEST(reduce__dropped_axes_output__same_values) {
    RtTensor *x = mk(DT_FLOAT64, SHP(2, 3, 4), NULL), *out = rt_empty(B, DT_FLOAT64, SHP(3));
    assert_int_equal(B->reduce(OP_SUM, out, x, 5u), 0);
    assert_values(out, (double[]){0 + 1 + 2 + 3 + 12 + 13 + 14 + 15, 92, 124}, "sum axes 0,2");
    rt_release(x), rt_release(out);
}

/* ---- matmul ------------------------------------------------------------------------------------ */

static double val(int64_t i) { return (double)((i * 37) % 11) - 5 + (double)(i % 3) * 0.25; }

/* Checks out[..., m, n] against a triple loop over a and b read through their strides. */
static void check_matmul(RtTensor *out, RtTensor *a, RtTensor *b) {
    int r = out->rank;
    int64_t m = out->shape[r - 2], n = out->shape[r - 1], k = a->shape[r - 1];
    int64_t batch = m && n ? rt_numel(out) / (m * n) : 0;
    for (int64_t bi = 0; bi < batch; bi++)
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++) {
                double s = 0;
                for (int64_t p = 0; p < k; p++)
                    s += at(a, (bi * m + i) * k + p) * at(b, (bi * k + p) * n + j);
                assert_close(at(out, (bi * m + i) * n + j), s, out->dtype, "matmul", (bi * m + i) * n + j);
            }
}

static RtTensor *mkv(DType dt, int rank, const int64_t *shape) {
    int64_t n = 1;
    for (int i = 0; i < rank; i++) n *= shape[i];
    double *v = malloc((size_t)(n ? n : 1) * sizeof *v);
    for (int64_t i = 0; i < n; i++) v[i] = val(i);
    RtTensor *t = mk(dt, rank, shape, v);
    free(v);
    return t;
}

/* ---- dropout's random bits ------------------------------------------------------------------- */

/* Random123's tests/kat_vectors, the three philox4x32 10 lines: counter, key, expected. */
TEST(philox4x32_10__random123_known_answers__match) {
    static const uint32_t kat[3][10] = {
        {0, 0, 0, 0, 0, 0, 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8},
        {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd},
        {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0, 0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1},
    };
    for (int i = 0; i < 3; i++) {
        gtc_philox_ctr c = {{kat[i][0], kat[i][1], kat[i][2], kat[i][3]}};
        gtc_philox_ctr r = gtc_philox4x32_10(c, kat[i][4], kat[i][5]);
        for (int k = 0; k < 4; k++) assert_int_equal(r.v[k], kat[i][6 + k]);
    }
}

/* Eager dropout keeps exactly where gtc_dropout_keep says, scaled by 1/(1-ratio) rounded to the
 * dtype; about 1-ratio of the elements survive; ratio 0 is the identity. */
TEST(dropout__mask_and_scale__philox_bits) {
    int64_t n = 4000, shape[2] = {40, 100};
    float *x = malloc((size_t)n * sizeof *x);
    assert_non_null(x);
    for (int64_t i = 0; i < n; i++) x[i] = (float)(i % 17) - 8.5f;
    RtTensor *t = rt_from_host(&rt_cpu_backend, DT_FLOAT32, 2, shape, x);
    int64_t seed = ((int64_t)1 << 35) + 99;
    RtTensor *s = rt_from_host(&rt_cpu_backend, DT_INT64, 0, NULL, &seed);
    for (int r = 0; r < 3; r++) {
        double ratio = r == 0 ? 0 : r == 1 ? 0.1 : 0.6;
        Attrs a = {.ratio = ratio};
        RtOperand in[2] = {{.t = t}, {.t = s}};
        RtTensor *y = rt_apply(OP_DROPOUT, in, 2, &a);
        assert_non_null(y);
        const float *v = rt_data(y);
        int64_t kept = 0;
        for (int64_t i = 0; i < n; i++) {
            bool keep = gtc_dropout_keep((uint64_t)i, (uint64_t)seed, ratio);
            kept += keep;
            assert_true(v[i] == (keep ? x[i] * (float)(1.0 / (1.0 - ratio)) : 0.0f));
        }
        assert_true(fabs((double)kept / (double)n - (1 - ratio)) < 0.03);
        rt_release(y);
    }
    rt_release(t), rt_release(s), free(x);
}

TEST(matmul__2d_and_batched__match_triple_loop) {
    for (DType dt = DT_FLOAT32; dt <= DT_FLOAT64; dt++) {
        RtTensor *a = mkv(dt, SHP(3, 4)), *b = mkv(dt, SHP(4, 5)), *out = rt_empty(B, dt, SHP(3, 5));
        assert_int_equal(B->matmul(out, a, b), 0);
        check_matmul(out, a, b);
        RtTensor *ba = mkv(dt, SHP(2, 3, 7, 4)), *bb = mkv(dt, SHP(2, 3, 4, 6));
        RtTensor *bo = rt_empty(B, dt, SHP(2, 3, 7, 6));
        assert_int_equal(B->matmul(bo, ba, bb), 0);
        check_matmul(bo, ba, bb);
        rt_release(a), rt_release(b), rt_release(out), rt_release(ba), rt_release(bb), rt_release(bo);
    }
}

TEST(matmul__broadcast_batches__stride_zero_operands) {
    RtTensor *a = mkv(DT_FLOAT32, SHP(3, 5, 4)), *w = mkv(DT_FLOAT32, SHP(4, 2));
    RtTensor *wv = view(w, SHP(3, 4, 2), (int64_t[]){0, 2, 1}, 0); /* shared weight: one GEMM */
    RtTensor *out = rt_empty(B, DT_FLOAT32, SHP(3, 5, 2));
    assert_int_equal(B->matmul(out, a, wv), 0);
    check_matmul(out, a, wv);
    RtTensor *x = mkv(DT_FLOAT32, SHP(5, 4));
    RtTensor *xv = view(x, SHP(3, 5, 4), (int64_t[]){0, 4, 1}, 0); /* shared left operand */
    RtTensor *bb = mkv(DT_FLOAT32, SHP(3, 4, 2));
    assert_int_equal(B->matmul(out, xv, bb), 0);
    check_matmul(out, xv, bb);
    RtTensor *row = mkv(DT_FLOAT32, SHP(4));                         /* rows broadcast: packed */
    RtTensor *rv = view(row, SHP(3, 5, 4), (int64_t[]){0, 0, 1}, 0);
    assert_int_equal(B->matmul(out, rv, wv), 0);
    check_matmul(out, rv, wv);
    rt_release(a), rt_release(w), rt_release(wv), rt_release(out), rt_release(x), rt_release(xv);
    rt_release(bb), rt_release(row), rt_release(rv);
}

TEST(matmul__transposed_strided_reversed_views__match_triple_loop) {
    for (DType dt = DT_FLOAT32; dt <= DT_FLOAT64; dt++) {
        RtTensor *at_ = mkv(dt, SHP(4, 3)), *bt = mkv(dt, SHP(5, 4));
        RtTensor *a = view(at_, SHP(3, 4), (int64_t[]){1, 3}, 0);      /* a = at_^T */
        RtTensor *b = view(bt, SHP(4, 5), (int64_t[]){1, 4}, 0);       /* b = bt^T */
        RtTensor *out = rt_empty(B, dt, SHP(3, 5));
        assert_int_equal(B->matmul(out, a, b), 0);
        check_matmul(out, a, b);
        RtTensor *big = mkv(dt, SHP(6, 10));
        RtTensor *sa = view(big, SHP(3, 4), (int64_t[]){20, 2}, 1);    /* [::2, 1::2]: packed */
        RtTensor *rb = view(bt, SHP(4, 5), (int64_t[]){-1, -4}, 19);   /* reversed: packed */
        assert_int_equal(B->matmul(out, sa, rb), 0);
        check_matmul(out, sa, rb);
        RtTensor *la = view(big, SHP(3, 4), (int64_t[]){10, 1}, 2);    /* row stride > k: direct */
        assert_int_equal(B->matmul(out, la, b), 0);
        check_matmul(out, la, b);
        rt_release(at_), rt_release(bt), rt_release(a), rt_release(b), rt_release(out);
        rt_release(big), rt_release(sa), rt_release(rb), rt_release(la);
    }
}

TEST(matmul__empty_dims__zeros_or_nothing) {
    RtTensor *a = rt_empty(B, DT_FLOAT64, SHP(2, 0)), *b = rt_empty(B, DT_FLOAT64, SHP(0, 3));
    RtTensor *out = rt_full(B, DT_FLOAT64, SHP(2, 3), NAN);
    assert_int_equal(B->matmul(out, a, b), 0);
    assert_values(out, (double[]){0, 0, 0, 0, 0, 0}, "k = 0");
    RtTensor *a0 = rt_empty(B, DT_FLOAT64, SHP(0, 4)), *b4 = mkv(DT_FLOAT64, SHP(4, 3));
    RtTensor *o0 = rt_empty(B, DT_FLOAT64, SHP(0, 3));
    assert_int_equal(B->matmul(o0, a0, b4), 0);
    rt_release(a), rt_release(b), rt_release(out), rt_release(a0), rt_release(b4), rt_release(o0);
}

TEST(matmul__vector_operands_and_bad_dtypes__numpy_rules_and_einval) {
    RtTensor *v = mkv(DT_FLOAT32, SHP(4)), *m = mkv(DT_FLOAT32, SHP(4, 3)), *out = rt_empty(B, DT_FLOAT32, SHP(3));
    assert_int_equal(B->matmul(out, v, m), 0); /* [4] @ [4,3] → [3] */
    for (int j = 0; j < 3; j++) {
        double s = 0;
        for (int p = 0; p < 4; p++) s += at(v, p) * at(m, p * 3 + j);
        assert_close(at(out, j), s, DT_FLOAT32, "vecmat", j);
    }
    RtTensor *i = mk(DT_INT32, SHP(4, 3), NULL);
    rt_clear_error();
    assert_int_equal(B->matmul(out, v, i), -1);
    assert_int_equal(rt_status(), RT_EINVAL);
    rt_release(v), rt_release(m), rt_release(out), rt_release(i);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(elementwise__hand_computed_cases__match_on_every_listed_dtype),
        cmocka_unit_test(elementwise__every_op__has_cases),
        cmocka_unit_test(elementwise__every_op_every_input_dtype__supported),
        cmocka_unit_test(elementwise__float_op_on_int32__einval),
        cmocka_unit_test(elementwise__round_half_to_even_negative_zero__minus_zero),
        cmocka_unit_test(elementwise__int32_overflow__wraps),
        cmocka_unit_test(elementwise__int64_overflow_and_precision__wraps_exactly),
        cmocka_unit_test(elementwise__small_and_unsigned_ints__wrap_and_compare_exactly),
        cmocka_unit_test(copy__to_small_and_unsigned_ints__saturate_or_keep_low_bits),
        cmocka_unit_test(elementwise__one_hot_every_index_and_out_dtype__rows),
        cmocka_unit_test(elementwise__one_hot_broadcast_indices__rows_repeat),
        cmocka_unit_test(elementwise__broadcast_row_column_and_scalar__stride_zero_views),
        cmocka_unit_test(elementwise__transposed_and_reversed_views__index_through_strides),
        cmocka_unit_test(elementwise__empty_tensors__no_work),
        cmocka_unit_test(copy__every_dtype_pair__zero_and_one_survive),
        cmocka_unit_test(copy__float_to_int__saturates_truncates_nan_zero),
        cmocka_unit_test(copy__permuted_sliced_views__match_naive_gather),
        cmocka_unit_test(fill__values_convert_as_scalar_h__saturating_and_strided),
        cmocka_unit_test(alloc__any_size__64_byte_aligned_and_round_trips),
        cmocka_unit_test(reduce__every_axis_set_and_dtype__matches_naive_keepdims),
        cmocka_unit_test(reduce__transposed_and_broadcast_inputs__through_strides),
        cmocka_unit_test(reduce__float32_sum_of_many__blocked_pairwise),
        cmocka_unit_test(reduce__max_min_nan__first_nan_wins),
        cmocka_unit_test(reduce__int_and_bool_extremes__exact),
        cmocka_unit_test(reduce__argmax_argmin_ties_and_nan__first_index),
        cmocka_unit_test(reduce__empty_axes__identities_nan_mean_and_errors),
        cmocka_unit_test(reduce__dropped_axes_output__same_values),
        cmocka_unit_test(matmul__2d_and_batched__match_triple_loop),
        cmocka_unit_test(matmul__broadcast_batches__stride_zero_operands),
        cmocka_unit_test(matmul__transposed_strided_reversed_views__match_triple_loop),
        cmocka_unit_test(matmul__empty_dims__zeros_or_nothing),
        cmocka_unit_test(matmul__vector_operands_and_bad_dtypes__numpy_rules_and_einval),
        cmocka_unit_test(philox4x32_10__random123_known_answers__match),
        cmocka_unit_test(dropout__mask_and_scale__philox_bits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
