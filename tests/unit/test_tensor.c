/* tests/unit/test_tensor.c: libgtcrt core: tensor life cycle, strides, views sharing storage,
 * broadcasting through rt_apply, reductions over axis sets, memory accounting, .npy, and which
 * eager conv2d calls reach a backend's library convolution (rt_conv2d_library). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/core/rt.h"

static RtTensor *arange(DType dt, int rank, const int64_t *shape) {
    int64_t n = 1;
    for (int i = 0; i < rank; i++) n *= shape[i];
    double *v = malloc((size_t)(n ? n : 1) * sizeof *v);
    for (int64_t i = 0; i < n; i++) v[i] = (double)i;
    RtTensor *t64 = rt_from_host(&rt_cpu_backend, DT_FLOAT64, rank, shape, v);
    free(v);
    RtTensor *t = rt_cast(t64, dt);
    rt_release(t64);
    return t;
}

static void to_f64(RtTensor *t, double *out) {
    RtTensor *c = rt_cast(t, DT_FLOAT64);
    assert_non_null(c);
    assert_int_equal(rt_to_host(c, out), 0);
    rt_release(c);
}

static RtTensor *unary(Op op, RtTensor *x, const Attrs *a) {
    RtOperand o = {.t = x};
    return rt_apply(op, &o, 1, a);
}

static void rt_empty__contiguous__row_major_strides(void **state) {
    (void)state;
    int64_t shape[3] = {2, 3, 4};
    RtTensor *t = rt_empty(&rt_cpu_backend, DT_FLOAT32, 3, shape);
    assert_non_null(t);
    assert_int_equal(t->strides[0], 12);
    assert_int_equal(t->strides[1], 4);
    assert_int_equal(t->strides[2], 1);
    assert_true(rt_is_contiguous(t));
    assert_int_equal(rt_nbytes(t), 96);
    rt_release(t);
}

static void rt_apply__transpose__view_shares_storage(void **state) {
    (void)state;
    int64_t shape[2] = {2, 3};
    RtTensor *t = arange(DT_FLOAT32, 2, shape);
    RtTensor *v = unary(OP_TRANSPOSE, t, NULL);
    assert_non_null(v);
    assert_ptr_equal(v->storage, t->storage);
    assert_int_equal(v->shape[0], 3);
    assert_int_equal(v->strides[0], 1);
    assert_int_equal(v->strides[1], 3);
    assert_false(rt_is_contiguous(v));
    double out[6];
    to_f64(v, out);
    double want[6] = {0, 3, 1, 4, 2, 5};
    for (int i = 0; i < 6; i++) assert_true(out[i] == want[i]);
    rt_release(v);
    rt_release(t);
}

static void rt_apply__slice_negative_step__reversed_view(void **state) {
    (void)state;
    int64_t shape[1] = {6};
    RtTensor *t = arange(DT_INT64, 1, shape);
    Attrs a = {.nslice = 1, .starts = {-1}, .ends = {-7}, .steps = {-2}, .has_steps = true};
    RtTensor *v = unary(OP_SLICE, t, &a);
    assert_non_null(v);
    assert_ptr_equal(v->storage, t->storage);
    assert_int_equal(v->shape[0], 3);
    assert_int_equal(v->strides[0], -2);
    double out[3];
    to_f64(v, out);
    assert_true(out[0] == 5 && out[1] == 3 && out[2] == 1);
    rt_release(v);
    rt_release(t);
}

static void rt_apply__reshape_of_transposed__copies(void **state) {
    (void)state;
    int64_t shape[2] = {2, 3};
    RtTensor *t = arange(DT_FLOAT32, 2, shape);
    RtTensor *v = unary(OP_TRANSPOSE, t, NULL);
    Attrs a = {.nshape = 1, .shape = {-1}};
    RtTensor *r = unary(OP_RESHAPE, v, &a);
    assert_non_null(r);
    assert_ptr_not_equal(r->storage, t->storage);
    double out[6];
    to_f64(r, out);
    double want[6] = {0, 3, 1, 4, 2, 5};
    for (int i = 0; i < 6; i++) assert_true(out[i] == want[i]);
    RtTensor *r2 = unary(OP_RESHAPE, t, &a);
    assert_ptr_equal(r2->storage, t->storage);
    rt_release(r2), rt_release(r), rt_release(v), rt_release(t);
}

/* Every reshape of every view reads the same values as reshaping a contiguous copy, and those
 * that can be views are views. */
static void rt_apply__reshape_of_views__same_values_as_copy(void **state) {
    (void)state;
    int64_t s[3] = {4, 6, 2};
    RtTensor *base = arange(DT_FLOAT64, 3, s);
    Attrs views[4] = {
        {0},                                                          /* identity via transpose perm below */
        {.nslice = 1, .starts = {1}, .ends = {3}},                    /* rows 1..2: contiguous block */
        {.nslice = 2, .starts = {0, 0}, .ends = {4, 6}, .steps = {2, 1}, .has_steps = true},
        {.nslice = 2, .starts = {0, 5}, .ends = {4, -7}, .steps = {1, -2}, .has_steps = true},
    };
    int64_t targets[4][3] = {{-1, 0, 0}, {2, -1, 0}, {-1, 2, 0}, {0, 0, 0}};
    int tranks[4] = {1, 2, 2, 0};
    for (int v = 0; v < 4; v++) {
        RtTensor *x = v == 0 ? unary(OP_TRANSPOSE, base, NULL) : unary(OP_SLICE, base, &views[v]);
        assert_non_null(x);
        for (int t = 0; t < 3; t++) {
            Attrs r = {.nshape = tranks[t]};
            memcpy(r.shape, targets[t], sizeof targets[t]);
            RtTensor *y = unary(OP_RESHAPE, x, &r);
            RtTensor *c = rt_contiguous(x);
            RtTensor *yc = unary(OP_RESHAPE, c, &r);
            assert_non_null(y);
            assert_non_null(yc);
            int64_t n = rt_numel(y);
            double *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b);
            to_f64(y, a);
            to_f64(yc, b);
            assert_memory_equal(a, b, (size_t)n * sizeof *a);
            if (v == 1 || (v == 2 && t == 1)) assert_ptr_equal(y->storage, base->storage);
            free(a), free(b);
            rt_release(y), rt_release(c), rt_release(yc);
        }
        rt_release(x);
    }
    rt_release(base);
}

static void rt_apply__add_broadcast_row_and_column__outer_sum(void **state) {
    (void)state;
    int64_t sa[2] = {3, 1}, sb[1] = {4};
    RtTensor *a = arange(DT_INT32, 2, sa), *b = arange(DT_FLOAT32, 1, sb);
    RtOperand o[2] = {{.t = a}, {.t = b}};
    RtTensor *c = rt_apply(OP_ADD, o, 2, NULL);
    assert_non_null(c);
    assert_int_equal(c->dtype, DT_FLOAT32);
    assert_int_equal(c->rank, 2);
    assert_int_equal(c->shape[0], 3);
    assert_int_equal(c->shape[1], 4);
    double out[12];
    to_f64(c, out);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++) assert_true(out[i * 4 + j] == i + j);
    rt_release(c), rt_release(a), rt_release(b);
}

static void rt_apply__weak_scalar__keeps_int_dtype_or_lifts_to_float32(void **state) {
    (void)state;
    int64_t s[1] = {3};
    RtTensor *a = arange(DT_INT32, 1, s);
    RtOperand o[2] = {{.t = a}, {.value = 2}};
    RtTensor *c = rt_apply(OP_MUL, o, 2, NULL);
    assert_int_equal(c->dtype, DT_INT32);
    o[1].value = 0.5;
    RtTensor *d = rt_apply(OP_MUL, o, 2, NULL);
    assert_int_equal(d->dtype, DT_FLOAT32);
    double out[3];
    to_f64(d, out);
    assert_true(out[2] == 1.0);
    RtOperand r[2] = {{.value = 10}, {.t = a}}; /* scalar on the left keeps operand order */
    RtTensor *e = rt_apply(OP_SUB, r, 2, NULL);
    to_f64(e, out);
    assert_true(out[0] == 10 && out[2] == 8);
    rt_release(c), rt_release(d), rt_release(e), rt_release(a);
}

static void rt_apply__incompatible_broadcast__einval_names_op_and_shapes(void **state) {
    (void)state;
    int64_t sa[2] = {2, 3}, sb[1] = {4};
    RtTensor *a = arange(DT_FLOAT32, 2, sa), *b = arange(DT_FLOAT32, 1, sb);
    RtOperand o[2] = {{.t = a}, {.t = b}};
    rt_clear_error();
    assert_null(rt_apply(OP_ADD, o, 2, NULL));
    assert_int_equal(rt_status(), RT_EINVAL);
    assert_string_equal(rt_message(), "add: cannot broadcast [2,3] and [4]");
    rt_release(a), rt_release(b);
}

static void rt_apply__sum_over_axes_0_2_keepdims__shape_and_values(void **state) {
    (void)state;
    int64_t s[3] = {2, 3, 4};
    RtTensor *a = arange(DT_FLOAT32, 3, s);
    Attrs at = {.has_axes = true, .naxes = 2, .axes = {0, -1}, .keepdims = true};
    RtTensor *r = unary(OP_SUM, a, &at);
    assert_non_null(r);
    assert_int_equal(r->rank, 3);
    assert_int_equal(r->shape[0], 1);
    assert_int_equal(r->shape[1], 3);
    assert_int_equal(r->shape[2], 1);
    double out[3];
    to_f64(r, out);
    for (int j = 0; j < 3; j++) {
        double want = 0;
        for (int i = 0; i < 2; i++)
            for (int k = 0; k < 4; k++) want += i * 12 + j * 4 + k;
        assert_true(out[j] == want);
    }
    at.keepdims = false;
    RtTensor *r2 = unary(OP_SUM, a, &at);
    assert_int_equal(r2->rank, 1);
    rt_release(r), rt_release(r2), rt_release(a);
}

static void rt_apply__sum_int32__int64(void **state) {
    (void)state;
    int64_t s[1] = {5};
    RtTensor *a = arange(DT_INT32, 1, s);
    RtTensor *r = unary(OP_SUM, a, NULL);
    assert_int_equal(r->dtype, DT_INT64);
    assert_int_equal(r->rank, 0);
    int64_t v;
    rt_to_host(r, &v);
    assert_int_equal(v, 10);
    rt_release(r), rt_release(a);
}

static void rt_apply__matmul_vector_cases__numpy_shapes(void **state) {
    (void)state;
    int64_t sa[2] = {2, 3}, sv[1] = {3}, sw[1] = {2};
    RtTensor *a = arange(DT_FLOAT32, 2, sa), *v = arange(DT_FLOAT32, 1, sv), *w = arange(DT_FLOAT32, 1, sw);
    RtOperand o[2] = {{.t = a}, {.t = v}};
    RtTensor *r = rt_apply(OP_MATMUL, o, 2, NULL); /* [2,3] @ [3] = [2] */
    assert_non_null(r);
    assert_int_equal(r->rank, 1);
    double out[3];
    to_f64(r, out);
    assert_true(out[0] == 5 && out[1] == 14);
    RtOperand o2[2] = {{.t = w}, {.t = a}};
    RtTensor *r2 = rt_apply(OP_MATMUL, o2, 2, NULL); /* [2] @ [2,3] = [3] */
    assert_int_equal(r2->rank, 1);
    to_f64(r2, out);
    assert_true(out[0] == 3 && out[1] == 4 && out[2] == 5);
    rt_release(r), rt_release(r2), rt_release(a), rt_release(v), rt_release(w);
}

static void rt_empty__over_memory_limit__eoom_then_recovers(void **state) {
    (void)state;
    size_t before = rt_memory_used();
    rt_set_memory_limit(before + 1024);
    int64_t s[1] = {1 << 20};
    rt_clear_error();
    assert_null(rt_empty(&rt_cpu_backend, DT_FLOAT32, 1, s));
    assert_int_equal(rt_status(), RT_EOOM);
    assert_int_equal(rt_memory_used(), before);
    int64_t small[1] = {4};
    RtTensor *t = rt_empty(&rt_cpu_backend, DT_FLOAT32, 1, small);
    assert_non_null(t);
    rt_release(t);
    rt_set_memory_limit(0);
    assert_int_equal(rt_memory_used(), before);
}

static void rt_npy__round_trip__same_bytes_and_shape(void **state) {
    (void)state;
    int64_t s[2] = {3, 5};
    for (int dt = 0; dt < DT_COUNT; dt++) {
        RtTensor *a = arange((DType)dt, 2, s);
        char *buf;
        size_t len;
        if (dt == DT_BFLOAT16) { /* NumPy has no bfloat16: refused, never written as raw '<V2' */
            assert_int_equal(rt_npy_write(a, &buf, &len), -1);
            assert_non_null(strstr(rt_message(), "bfloat16 has no NumPy dtype"));
            rt_release(a);
            continue;
        }
        assert_int_equal(rt_npy_write(a, &buf, &len), 0);
        assert_int_equal((len - rt_nbytes(a)) % 64, 0);
        RtTensor *b = rt_npy_read(&rt_cpu_backend, buf, len);
        assert_non_null(b);
        assert_int_equal(b->dtype, dt);
        assert_int_equal(b->shape[1], 5);
        assert_memory_equal(rt_data(a), rt_data(b), rt_nbytes(a));
        free(buf);
        rt_release(a), rt_release(b);
    }
}

static void rt_npy_read__hostile_headers__einval(void **state) {
    (void)state;
    const char *cases[] = {
        "\x93NUMPY\x01\x00\x76\x00{'descr': '<f4', 'fortran_order': True, 'shape': (1,), }",
        "\x93NUMPY\x01\x00\x40\x00{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }",
        "\x93NUMPY\x01\x00\xff\x7f{'descr': '<f4'",
        "\x93NUMPY\x01\x00\x40\x00{'descr': '|O', 'fortran_order': False, 'shape': (1,), }",
        "NOTNUMPY",
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        rt_clear_error();
        assert_null(rt_npy_read(&rt_cpu_backend, cases[i], strlen(cases[i])));
        assert_int_equal(rt_status(), RT_EINVAL);
    }
}

/* Found by tests/fuzz/fuzz_npy (tests/fuzz/regressions/npy/shape_at_header_end): a header that
 * ends right after "'shape':" made the reader look at the byte after the header (past the end
 * of a file with no data). The image is copied into a buffer of exactly its size, so the
 * sanitizer build (make asan) catches any read beyond it. */
static void rt_npy_read__shape_key_at_header_end__einval_in_bounds(void **state) {
    (void)state;
    static const char hdr[] = "{'descr': '<f4', 'fortran_order': False, 'shape':";
    const char *datas[] = {"", "("}; /* no data; data that starts with '(' is not the shape */
    for (size_t i = 0; i < sizeof datas / sizeof *datas; i++) {
        size_t hlen = sizeof hdr - 1, dlen = strlen(datas[i]), len = 10 + hlen + dlen;
        char *buf = malloc(len);
        assert_non_null(buf);
        memcpy(buf, "\x93NUMPY\x01\x00", 8);
        buf[8] = (char)hlen, buf[9] = 0;
        memcpy(buf + 10, hdr, hlen);
        memcpy(buf + 10 + hlen, datas[i], dlen);
        rt_clear_error();
        assert_null(rt_npy_read(&rt_cpu_backend, buf, len));
        assert_int_equal(rt_status(), RT_EINVAL);
        assert_non_null(strstr(rt_message(), "bad header: the header ends early"));
        free(buf);
    }
}

/* Found by tests/fuzz/fuzz_npy (tests/fuzz/regressions/npy/empty_huge_dims): an empty array
 * whose other dimensions multiply past int64 overflowed the contiguous strides. Such shapes
 * are rejected like any shape over 2^40 bytes. */
static void rt_npy_read__empty_with_huge_dims__einval(void **state) {
    (void)state;
    static const char hdr[] = "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 5, 7483, 147483483, 1474837, 3), }\n";
    size_t hlen = sizeof hdr - 1, len = 10 + hlen;
    char *buf = malloc(len);
    assert_non_null(buf);
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (char)hlen, buf[9] = 0;
    memcpy(buf + 10, hdr, hlen);
    rt_clear_error();
    assert_null(rt_npy_read(&rt_cpu_backend, buf, len));
    assert_int_equal(rt_status(), RT_EINVAL);
    assert_non_null(strstr(rt_message(), "too large"));
    free(buf);
    int64_t ok[3] = {0, 1 << 20, 1 << 10}; /* empty, and small enough when the zero counts as 1 */
    RtTensor *t = rt_empty(&rt_cpu_backend, DT_FLOAT32, 3, ok);
    assert_non_null(t);
    assert_int_equal(t->strides[0], 1 << 30);
    rt_release(t);
}

/* ---- rt_conv2d_library: which eager conv2d calls reach a backend's library convolution ---- */

static struct {
    int calls, answer;
    RtConvWindow p;
    int64_t o[4];
    bool bias;
} g_lib;
static int fake_conv2d(RtTensor **out, const RtTensor *x, const RtTensor *w, const RtTensor *b, const RtConvWindow *p,
                       const int64_t *o) {
    (void)x, (void)w;
    g_lib.calls++, g_lib.p = *p, g_lib.bias = b != NULL;
    memcpy(g_lib.o, o, sizeof g_lib.o);
    *out = g_lib.answer ? rt_empty(x->storage->backend, DT_FLOAT32, 4, o) : NULL;
    return g_lib.answer;
}

/* The CPU backend with a library convolution: operands that the library takes reach it with the
 * window's defaults filled in and ONNX's output size; anything unusual is declined before (gtc's
 * own convolution then reports bad input), and a declining backend is asked but answers 0. */
static void rt_conv2d_library__routing__window_output_and_declines(void **state) {
    (void)state;
    RtBackend fake = rt_cpu_backend;
    fake.conv2d = fake_conv2d;
    int64_t xs[4] = {2, 4, 9, 7}, ws[4] = {6, 2, 3, 2}, bs[1] = {6};
    RtTensor *x = rt_empty(&fake, DT_FLOAT32, 4, xs), *w = rt_empty(&fake, DT_FLOAT32, 4, ws);
    RtTensor *b = rt_empty(&fake, DT_FLOAT32, 1, bs), *out = NULL;
    assert_non_null(x), assert_non_null(w), assert_non_null(b);
    RtOperand in[3] = {{.t = x}, {.t = w}, {.t = b}};
    Attrs a = {.nstrides = 2, .strides = {2, 1}, .npads = 4, .pads = {1, 0, 2, 1}, .group = 2};
    g_lib.answer = 1;
    assert_int_equal(rt_conv2d_library(in, 3, &a, &out), 1);
    assert_non_null(out);
    assert_int_equal(g_lib.calls, 1);
    assert_true(g_lib.bias);
    /* H: (9 + 1 + 2 - 3) / 2 + 1 = 5; W: (7 + 0 + 1 - 2) / 1 + 1 = 7 */
    assert_int_equal(g_lib.o[0], 2), assert_int_equal(g_lib.o[1], 6), assert_int_equal(g_lib.o[2], 5), assert_int_equal(g_lib.o[3], 7);
    assert_int_equal(g_lib.p.stride[0], 2), assert_int_equal(g_lib.p.dilation[1], 1), assert_int_equal(g_lib.p.group, 2);
    assert_int_equal(g_lib.p.pad[0], 1), assert_int_equal(g_lib.p.pad[3], 1);
    rt_release(out);
    Attrs none = {0}; /* defaults: strides and dilations 1, no pads, group 1 */
    RtTensor *w1 = rt_empty(&fake, DT_FLOAT32, 4, (int64_t[]){3, 4, 2, 2});
    RtOperand in1[2] = {{.t = x}, {.t = w1}};
    assert_int_equal(rt_conv2d_library(in1, 2, &none, &out), 1);
    assert_false(g_lib.bias);
    assert_int_equal(g_lib.p.group, 1), assert_int_equal(g_lib.p.stride[1], 1), assert_int_equal(g_lib.p.pad[2], 0);
    assert_int_equal(g_lib.o[2], 8), assert_int_equal(g_lib.o[3], 6);
    rt_release(out);
    /* declined before the backend: float64, a view that is not contiguous, channels not matching
     * the group, a kernel larger than the padded input, a bias of the wrong size, the CPU backend */
    int before = g_lib.calls;
    RtTensor *x64 = rt_empty(&fake, DT_FLOAT64, 4, xs);
    RtOperand bad64[2] = {{.t = x64}, {.t = w1}};
    assert_int_equal(rt_conv2d_library(bad64, 2, &none, &out), 0);
    Attrs tr = {.nperm = 4, .perm = {0, 1, 3, 2}};
    RtOperand xo = {.t = x};
    RtTensor *xt = rt_apply(OP_TRANSPOSE, &xo, 1, &tr);
    RtOperand badview[2] = {{.t = xt}, {.t = w1}};
    assert_int_equal(rt_conv2d_library(badview, 2, &none, &out), 0);
    assert_int_equal(rt_conv2d_library(in1, 2, &(Attrs){.group = 2}, &out), 0); /* w1 has 4 channels, x 4 / 2 = 2 */
    RtTensor *wbig = rt_empty(&fake, DT_FLOAT32, 4, (int64_t[]){3, 4, 10, 2});
    RtOperand badk[2] = {{.t = x}, {.t = wbig}};
    assert_int_equal(rt_conv2d_library(badk, 2, &none, &out), 0);
    RtTensor *b5 = rt_empty(&fake, DT_FLOAT32, 1, (int64_t[]){5});
    RtOperand badb[3] = {{.t = x}, {.t = w}, {.t = b5}};
    assert_int_equal(rt_conv2d_library(badb, 3, &a, &out), 0);
    RtTensor *xc = rt_empty(&rt_cpu_backend, DT_FLOAT32, 4, xs), *wc = rt_empty(&rt_cpu_backend, DT_FLOAT32, 4, ws);
    RtOperand cpu[2] = {{.t = xc}, {.t = wc}};
    assert_int_equal(rt_conv2d_library(cpu, 2, &(Attrs){.group = 2}, &out), 0);
    assert_int_equal(g_lib.calls, before);
    g_lib.answer = 0; /* the backend declines the shape: 0, no tensor */
    out = NULL;
    assert_int_equal(rt_conv2d_library(in1, 2, &none, &out), 0);
    assert_null(out);
    assert_int_equal(g_lib.calls, before + 1);
    RtTensor *all[] = {x, w, b, w1, x64, xt, wbig, b5, xc, wc};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) rt_release(all[i]);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rt_empty__contiguous__row_major_strides),
        cmocka_unit_test(rt_apply__transpose__view_shares_storage),
        cmocka_unit_test(rt_apply__slice_negative_step__reversed_view),
        cmocka_unit_test(rt_apply__reshape_of_transposed__copies),
        cmocka_unit_test(rt_apply__reshape_of_views__same_values_as_copy),
        cmocka_unit_test(rt_apply__add_broadcast_row_and_column__outer_sum),
        cmocka_unit_test(rt_apply__weak_scalar__keeps_int_dtype_or_lifts_to_float32),
        cmocka_unit_test(rt_apply__incompatible_broadcast__einval_names_op_and_shapes),
        cmocka_unit_test(rt_apply__sum_over_axes_0_2_keepdims__shape_and_values),
        cmocka_unit_test(rt_apply__sum_int32__int64),
        cmocka_unit_test(rt_apply__matmul_vector_cases__numpy_shapes),
        cmocka_unit_test(rt_empty__over_memory_limit__eoom_then_recovers),
        cmocka_unit_test(rt_npy__round_trip__same_bytes_and_shape),
        cmocka_unit_test(rt_npy_read__hostile_headers__einval),
        cmocka_unit_test(rt_npy_read__shape_key_at_header_end__einval_in_bounds),
        cmocka_unit_test(rt_npy_read__empty_with_huge_dims__einval),
        cmocka_unit_test(rt_conv2d_library__routing__window_output_and_declines),
    };
    return cmocka_run_group_tests_name("test_tensor", tests, NULL, NULL);
}
