/* tests/fuzz/fuzz_runtime.c: libFuzzer target for the runtime layer that PHP calls directly
 * (rt_apply on the CPU backend, no PHP). The bytes decode into a small program: a few tensors
 * (any of the IR's dtypes, rank 0-4, small dims with 0 and 1, contents with NaN, inf, -0 and
 * extremes), then actions: an op drawn from the op table (ir/ops.def, iterated, not listed)
 * with random attributes and operands, a reduction over all axes against one axis at a time,
 * rt_cast against the cast op. Every result is checked (abort() on a violation, so libFuzzer
 * reports it):
 *   - a failure is an rt error: status set, a non-empty message, valid UTF-8, no control
 *     characters; ir_infer_op accepts exactly when rt_apply succeeds (except data-dependent
 *     index errors and the memory limit), and the result has the inferred dtype and shape;
 *   - a view's strides and offset stay inside its storage; bool results hold 0 or 1;
 *   - an op on a strided, transposed or broadcast view equals, bitwise, the op on the view's
 *     contiguous copy; an elementwise result has the broadcast shape (computed here);
 *   - a slice holds the elements this file's own index computation picks;
 *   - an integer reduction over all axes equals the same reduction one axis at a time;
 *   - rt_cast equals the cast op; .npy write then read gives the same dtype, shape and bytes;
 *   - every tensor is released at the end (rt_memory_used() is 0; LeakSanitizer for the rest).
 * Built and run by `make fuzz` (tests/fuzz/run.sh); docs/security.md. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/core/rt.h"

#define POOL 16
#define MAX_ACTIONS 24
#define WORK_CAP ((int64_t)1 << 16)       /* elements an op may touch before it is skipped */
#define MEM_LIMIT ((size_t)64 << 20)

static void fail(const char *what, Op op) {
    fprintf(stderr, "fuzz_runtime: %s (op %s; last error: %s)\n", what, (unsigned)op < OP_COUNT ? ir_ops[op].name : "?",
            rt_message() ? rt_message() : "(none)");
    abort();
}
#define CHECK(cond, what, op) \
    do {                      \
        if (!(cond)) fail(what, op); \
    } while (0)

/* ---- the byte reader: past the end it reads zeros, so every input is a program ---------- */

typedef struct {
    const uint8_t *p;
    size_t n, i;
} In;

static unsigned u8(In *in) { return in->i < in->n ? in->p[in->i++] : 0; }
static bool more(const In *in) { return in->i < in->n; }

static const int64_t special_i64[] = {0, 1, 2, 3, -1, -2, -3, 4, 5, 7, -5, 100, -100, INT64_MAX, INT64_MIN,
                                      INT64_MAX - 1, INT64_MIN + 1, (int64_t)1 << 62, -((int64_t)1 << 62),
                                      (int64_t)1 << 31, -((int64_t)1 << 31), ((int64_t)1 << 31) - 1, 127, 128, 255,
                                      256, 32767, 65535, 2147483647, 4294967295LL, -129, -32769};
#define NSI ((unsigned)(sizeof special_i64 / sizeof *special_i64))
static const double special_f64[] = {0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 2.0, 3.0, 1e-5, (double)NAN, -(double)NAN,
                                     (double)INFINITY, -(double)INFINITY, DBL_MAX, -DBL_MAX, DBL_MIN, 5e-324,
                                     1e20, -1e20, 9223372036854775807.0, -9223372036854775808.0, 4294967296.0,
                                     255.5, -128.5, 0.25, 0.9, 100.0, 1e300};
#define NSF ((unsigned)(sizeof special_f64 / sizeof *special_f64))
static const float special_f32[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -2.5f, NAN, -NAN, INFINITY, -INFINITY, FLT_MAX,
                                    -FLT_MAX, FLT_MIN, 1e-45f, 16777217.0f, 2147483648.0f, -2147483904.0f, 3.0f};
#define NSF32 ((unsigned)(sizeof special_f32 / sizeof *special_f32))

/* An int64 attribute: mostly small, sometimes an extreme. */
static int64_t rd_i64(In *in) {
    unsigned s = u8(in);
    if (s < 160) return (int64_t)(s % 13) - 6;
    return special_i64[s % NSI];
}
static double rd_f64(In *in) {
    unsigned s = u8(in);
    if (s < 200) return special_f64[s % NSF];
    uint64_t bits = 0;
    for (int i = 0; i < 8; i++) bits = bits << 8 | u8(in);
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* One element of dtype dt into dst: a special value of that dtype, or raw bytes. */
static void rd_elem(In *in, DType dt, uint8_t *dst) {
    size_t es = ir_dtype_size(dt);
    unsigned s = u8(in);
    if (dt == DT_BOOL) {
        *dst = s & 1;
    } else if (s >= 0xc0) {
        for (size_t i = 0; i < es; i++) dst[i] = (uint8_t)u8(in);
    } else if (dt == DT_FLOAT64) {
        memcpy(dst, &special_f64[s % NSF], 8);
    } else if (dt == DT_FLOAT32) {
        memcpy(dst, &special_f32[s % NSF32], 4);
    } else {
        uint64_t v = (uint64_t)special_i64[s % NSI]; /* its low bytes: wraps into the dtype */
        memcpy(dst, &v, es);                          /* little endian */
    }
}

static const int64_t small_dims[] = {1, 2, 3, 0, 1, 2, 4, 5};

static RtTensor *rd_tensor(In *in, DType dt, int rank, const int64_t *shape) {
    int64_t n = 1;
    for (int i = 0; i < rank; i++) n *= shape[i];
    size_t es = ir_dtype_size(dt);
    uint8_t *buf = calloc((size_t)(n ? n : 1), es);
    if (!buf) return NULL;
    unsigned fillmode = u8(in) % 4;
    uint64_t st = (uint64_t)u8(in) << 8 | 1; /* fillmode 3: generated from one byte, so large
                                                tensors with varied values cost no input */
    for (int64_t i = 0; i < n; i++) {
        uint8_t *e = buf + i * (int64_t)es;
        if (fillmode == 0 && i > 0) {
            memcpy(e, buf, es); /* constant */
        } else if (fillmode == 3) {
            st ^= st << 13, st ^= st >> 7, st ^= st << 17; /* xorshift64 */
            double d = (double)((int64_t)(st >> 11) - ((int64_t)1 << 52)) / (double)((int64_t)1 << 51); /* [-2, 2) */
            float f = (float)d;
            uint64_t bits = dt == DT_BOOL ? st >> 63 : st;
            if (dt == DT_FLOAT32) memcpy(e, &f, 4);
            else if (dt == DT_FLOAT64) memcpy(e, &d, 8);
            else memcpy(e, &bits, es);
        } else {
            rd_elem(in, dt, e);
        }
    }
    RtTensor *t = rt_from_host(&rt_cpu_backend, dt, rank, shape, buf);
    free(buf);
    return t;
}

/* Dimensions past the small ones, for up to two axes: where libraries change kernels (OpenBLAS's
 * transposed GEMM rounded differently only from about 33 rows). */
static const int64_t large_dims[] = {17, 33, 48, 64};

static RtTensor *rd_new_tensor(In *in) {
    DType dt = (DType)(u8(in) % DT_COUNT);
    int rank = (int)(u8(in) % 5);
    int64_t shape[IR_MAX_RANK];
    bool large = rank <= 2 && u8(in) % 4 == 0;
    for (int i = 0; i < rank; i++) shape[i] = large ? large_dims[u8(in) % 4] : small_dims[u8(in) % 8];
    return rd_tensor(in, dt, rank, shape);
}

/* ---- checks shared by every action ------------------------------------------------------ */

static bool valid_utf8_no_controls(const char *s) {
    const unsigned char *p = (const unsigned char *)s;
    unsigned icp;
    for (const char *q = s; *q; q++)
        if (ir_invisible_at(q, &icp)) return false; /* a control or invisible format character */
    while (*p) {
        unsigned c = *p;
        int len = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
        if (!len || (len == 1 && (c < 0x20 || c == 0x7f))) return false;
        unsigned cp = len == 1 ? c : c & (0x7f >> len);
        for (int i = 1; i < len; i++) {
            if ((p[i] & 0xc0) != 0x80) return false;
            cp = cp << 6 | (p[i] & 0x3f);
        }
        if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
            (cp >= 0xd800 && cp <= 0xdfff) || (cp >= 0x80 && cp < 0xa0))
            return false;
        p += len;
    }
    return true;
}

/* A failure must leave an rt error with a clean, non-empty message; then it is cleared. */
static void check_failure(Op op) {
    CHECK(rt_status() != RT_OK, "a failure without an rt error", op);
    const char *m = rt_message();
    CHECK(m && *m, "an rt error with an empty message", op);
    CHECK(valid_utf8_no_controls(m), "an rt error message with invalid UTF-8 or a control character", op);
    rt_clear_error();
}

static int64_t numel_of(int rank, const int64_t *dims) {
    int64_t n = 1;
    for (int i = 0; i < rank; i++) n *= dims[i];
    return n;
}

/* Every element a view can address lies inside its storage; bool values are 0 or 1. */
static void check_tensor(const RtTensor *t, Op op) {
    CHECK(t->refcount >= 1 && t->rank >= 0 && t->rank <= IR_MAX_RANK && (unsigned)t->dtype < DT_COUNT,
          "a malformed tensor header", op);
    int64_t n = 1;
    for (int i = 0; i < t->rank; i++) {
        CHECK(t->shape[i] >= 0 && t->shape[i] < IR_MAX_DIM, "a dimension out of range", op);
        n = t->shape[i] == 0 || n == 0 ? 0 : n > IR_MAX_BYTES / t->shape[i] ? IR_MAX_BYTES : n * t->shape[i];
    }
    if (n == 0) return;
    size_t es = ir_dtype_size(t->dtype);
    __int128 lo = t->offset, hi = t->offset;
    for (int i = 0; i < t->rank; i++) {
        __int128 ext = (__int128)(t->shape[i] - 1) * t->strides[i];
        if (ext < 0) lo += ext;
        else hi += ext;
    }
    CHECK(lo >= 0 && hi < (__int128)(t->storage->bytes / es), "a view that reaches outside its storage", op);
    if (t->dtype == DT_BOOL && n <= WORK_CAP) {
        uint8_t *h = malloc((size_t)n);
        CHECK(h && rt_to_host(t, h) == 0, "reading a bool tensor back failed", op);
        for (int64_t i = 0; i < n; i++) CHECK(h[i] <= 1, "a bool tensor holding a value other than 0 or 1", op);
        free(h);
    }
}

/* Both tensors' elements in C order, bitwise (same dtype and shape). */
static void check_same(const RtTensor *a, const RtTensor *b, Op op, const char *what) {
    CHECK(a->dtype == b->dtype && a->rank == b->rank, what, op);
    CHECK(memcmp(a->shape, b->shape, (size_t)a->rank * sizeof *a->shape) == 0, what, op);
    size_t n = rt_nbytes(a);
    uint8_t *ha = malloc(n ? n : 1), *hb = malloc(n ? n : 1);
    CHECK(ha && hb && rt_to_host(a, ha) == 0 && rt_to_host(b, hb) == 0, "reading a result back failed", op);
    CHECK(memcmp(ha, hb, n) == 0, what, op);
    free(ha), free(hb);
}

/* .npy write then read: the same dtype, shape and bytes. */
static void check_npy(const RtTensor *t, Op op) {
    if (rt_numel(t) > WORK_CAP) return;
    char *buf = NULL;
    size_t len = 0;
    CHECK(rt_npy_write(t, &buf, &len) == 0, "rt_npy_write failed on a valid tensor", op);
    RtTensor *u = rt_npy_read(&rt_cpu_backend, buf, len);
    free(buf);
    CHECK(u != NULL, "rt_npy_read refused what rt_npy_write wrote", op);
    check_same(t, u, op, ".npy round trip changed the tensor");
    rt_release(u);
}

/* ---- op application with the inference cross-check -------------------------------------- */

/* The operand types rt_apply derives (a scalar: graph_operand_type, float32 when is_float). */
static void operand_types(const RtOperand *in, int nin, TensorType *tin) {
    for (int i = 0; i < nin; i++) {
        if (in[i].t) {
            tin[i] = rt_type(in[i].t);
        } else {
            Operand o = {.id = -1, .value = in[i].value};
            tin[i] = graph_operand_type(NULL, &o);
            if (in[i].is_float) tin[i].dtype = DT_FLOAT32;
        }
    }
}

/* rt_apply with every per-call check; NULL when it failed (checked) or was skipped as too big
 * for a fuzzing run (an output under the memory limit but over WORK_CAP elements). */
static RtTensor *apply(Op op, const RtOperand *in, int nin, const Attrs *a) {
    TensorType tin[IR_MAX_INPUTS], out;
    char err[512];
    bool composite = (unsigned)op < OP_COUNT && ir_ops[op].kind == K_COMPOSITE;
    bool valid_op = (unsigned)op < OP_COUNT && op != OP_INPUT;
    int64_t work = 0;
    for (int i = 0; i < nin; i++)
        if (in[i].t && rt_numel(in[i].t) > work) work = rt_numel(in[i].t);
    int inferred = -1;
    if (valid_op && !composite && nin >= 0 && nin <= IR_MAX_INPUTS) {
        operand_types(in, nin, tin);
        inferred = ir_infer_op(op, tin, nin, a, &out, err, sizeof err);
        if (inferred == 0) {
            int64_t on = numel_of(out.rank, out.dims);
            size_t ob = (size_t)on * ir_dtype_size(out.dtype);
            if (op == OP_MATMUL) on *= tin[0].dims[tin[0].rank - 1] ? tin[0].dims[tin[0].rank - 1] : 1;
            if (ir_ops[op].kind == K_VIEW) on = 0; /* views cost nothing; a reshape's copy is limited */
            if (on > WORK_CAP && ob <= MEM_LIMIT) return NULL;
            if (ir_ops[op].kind != K_VIEW && work > WORK_CAP) return NULL;
        }
    } else if (work > WORK_CAP) {
        return NULL;
    }
    rt_clear_error();
    RtTensor *r = rt_apply(op, in, nin, a);
    if (getenv("FUZZ_RUNTIME_TRACE")) { /* what a reproducer does, one line per op */
        fprintf(stderr, "%s(", (unsigned)op < OP_COUNT ? ir_ops[op].name : "?");
        for (int i = 0; i < nin; i++) {
            char sh[256];
            TensorType t = in[i].t ? rt_type(in[i].t) : (TensorType){0};
            if (in[i].t) fprintf(stderr, "%s%s %s%s", i ? ", " : "", ir_dtype_name(t.dtype), ir_shape_str(&t, sh, sizeof sh),
                                 rt_is_contiguous(in[i].t) ? "" : " (view)");
            else fprintf(stderr, "%s%g", i ? ", " : "", in[i].value);
        }
        fprintf(stderr, ") -> %s\n", r ? "ok" : rt_message());
    }
    if (!r) {
        RtStatus st = rt_status();
        const char *m = rt_message();
        bool data_dependent = (op == OP_GATHER || op == OP_SCATTER_ADD) && m && strstr(m, "out of range");
        if (inferred == 0 && st != RT_EOOM && !data_dependent) {
            fprintf(stderr, "fuzz_runtime: ir_infer_op accepted, rt_apply failed: %s\n", m ? m : "");
            fail("inference and rt_apply disagree", op);
        }
        check_failure(op);
        return NULL;
    }
    if (!valid_op) fail("rt_apply accepted a non-op", op);
    if (!composite) {
        if (inferred != 0) fprintf(stderr, "fuzz_runtime: ir_infer_op refused (%s), rt_apply succeeded\n", err);
        CHECK(inferred == 0, "inference and rt_apply disagree", op);
        CHECK(r->dtype == out.dtype && r->rank == out.rank &&
                  memcmp(r->shape, out.dims, (size_t)out.rank * sizeof *out.dims) == 0,
              "the result's dtype or shape is not ir_infer_op's", op);
    }
    check_tensor(r, op);
    return r;
}

/* ---- random attributes and operands ---------------------------------------------------- */

static void shuffle(In *in, int *v, int n) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(u8(in) % (unsigned)(i + 1)), t = v[i];
        v[i] = v[j], v[j] = t;
    }
}

/* A shape with numel elements (reshape's target), perhaps with one -1. */
static void rd_reshape(In *in, const RtTensor *x, Attrs *a) {
    int64_t n = x ? rt_numel(x) : 1;
    int r = (int)(u8(in) % 5);
    a->nshape = r;
    for (int i = 0; i < r; i++) a->shape[i] = 1;
    if (r == 0) return;
    if (n == 0) {
        a->shape[u8(in) % (unsigned)r] = 0;
        for (int i = 0; i < r; i++)
            if (a->shape[i]) a->shape[i] = small_dims[u8(in) % 8] ? small_dims[u8(in) % 8] : 1;
    } else { /* spread n's factors over the axes */
        for (int64_t p = 2; n > 1 && p <= n; p++)
            while (n % p == 0) a->shape[u8(in) % (unsigned)r] *= p, n /= p;
    }
    if (u8(in) & 1) a->shape[u8(in) % (unsigned)r] = -1;
}

/* Attributes for op over a first operand x (NULL: a scalar): usually sensible for the op,
 * sometimes anything within the struct's bounds. */
static void rd_attrs(In *in, Op op, const RtTensor *x, Attrs *a) {
    memset(a, 0, sizeof *a);
    int r = x ? x->rank : 0;
    bool wild = u8(in) % 4 == 0;
    /* reduction axes */
    a->has_axes = u8(in) % 3 != 0;
    int axes[IR_MAX_RANK];
    for (int i = 0; i < IR_MAX_RANK; i++) axes[i] = i;
    shuffle(in, axes, r);
    a->naxes = r ? (int)(u8(in) % (unsigned)r) + 1 : 0;
    if (ir_ops[op].rule == R_ARG && !wild) a->has_axes = true, a->naxes = r ? 1 : 0;
    if (wild) a->naxes = (int)(u8(in) % (IR_MAX_RANK + 1));
    for (int i = 0; i < a->naxes; i++) {
        a->axes[i] = wild ? (int)rd_i64(in) : axes[i % (r ? r : 1)] - (u8(in) & 1 ? r : 0);
        if (wild && u8(in) % 8 == 0) a->axes[i] = (int)(u8(in) % 2 ? INT32_MAX : INT32_MIN);
    }
    a->keepdims = u8(in) & 1;
    /* transpose */
    int perm[IR_MAX_RANK];
    for (int i = 0; i < IR_MAX_RANK; i++) perm[i] = i;
    shuffle(in, perm, r);
    a->nperm = u8(in) % 4 == 0 ? 0 : r;
    if (wild) a->nperm = (int)(u8(in) % (IR_MAX_RANK + 1));
    for (int i = 0; i < a->nperm; i++) a->perm[i] = wild ? (int)rd_i64(in) : perm[i] - (u8(in) % 3 == 0 ? r : 0);
    /* shapes: reshape's, broadcast_to's, full's */
    if (op == OP_RESHAPE && !wild) {
        rd_reshape(in, x, a);
    } else if (op == OP_BROADCAST_TO && !wild && x) {
        int lead = (int)(u8(in) % 3);
        if (r + lead > IR_MAX_RANK) lead = IR_MAX_RANK - r;
        a->nshape = r + lead;
        for (int i = 0; i < lead; i++) a->shape[i] = small_dims[u8(in) % 8];
        for (int i = 0; i < r; i++)
            a->shape[lead + i] = x->shape[i] == 1 && (u8(in) & 1) ? small_dims[u8(in) % 8] : x->shape[i];
    } else {
        a->nshape = (int)(u8(in) % (wild ? IR_MAX_RANK + 1 : 5));
        for (int i = 0; i < a->nshape; i++) a->shape[i] = wild ? rd_i64(in) : small_dims[u8(in) % 8];
    }
    /* slice */
    a->nslice = wild ? (int)(u8(in) % (IR_MAX_RANK + 1)) : r ? (int)(u8(in) % (unsigned)r) + 1 : 0;
    bool slice_axes = u8(in) & 1;
    for (int i = 0; i < a->nslice; i++) {
        if (op == OP_SLICE && slice_axes && !wild) a->axes[i] = axes[i % (r ? r : 1)] - (u8(in) & 1 ? r : 0);
        a->starts[i] = rd_i64(in);
        a->ends[i] = u8(in) % 4 == 0 ? INT64_MAX : rd_i64(in);
        a->steps[i] = rd_i64(in);
        if (!wild && a->steps[i] == 0) a->steps[i] = 1;
    }
    if (op == OP_SLICE) {
        a->has_axes = slice_axes || wild ? a->has_axes : false;
        if (a->has_axes && !wild) a->naxes = a->nslice;
    }
    a->has_steps = u8(in) % 4 != 0;
    /* dtype, values, pads, depth, axis */
    a->has_dtype = u8(in) % 8 != 0;
    a->dtype = (DType)(u8(in) % DT_COUNT);
    a->value = rd_f64(in);
    a->npads = wild ? (int)(u8(in) % (2 * IR_MAX_RANK + 1)) : 2 * r;
    for (int i = 0; i < a->npads; i++) a->pads[i] = wild ? rd_i64(in) : (int64_t)(u8(in) % 3);
    a->depth = wild ? rd_i64(in) : (int64_t)(u8(in) % 5) + 1;
    a->axis = wild ? (int)rd_i64(in) : r ? (int)(u8(in) % (unsigned)(2 * r)) - r : 0;
    a->has_axis = u8(in) & 1;
    a->epsilon = u8(in) & 1 ? 1e-5 : rd_f64(in);
    a->has_epsilon = u8(in) & 1;
    a->approx_tanh = u8(in) & 1;
    static const double ratios[] = {0.0, 0.5, 0.25, 0.9, 0.999, 1.0, -0.1, NAN};
    a->ratio = ratios[u8(in) % 8];
}

typedef struct {
    RtTensor *t[POOL];
    int n, next;
} Pool;

static void pool_add(Pool *p, RtTensor *t) {
    if (!t) return;
    if (p->n < POOL) {
        p->t[p->n++] = t;
        return;
    }
    rt_release(p->t[p->next]);
    p->t[p->next] = t;
    p->next = (p->next + 1) % POOL;
}

static RtTensor *pick(In *in, Pool *p) { return p->n ? p->t[u8(in) % (unsigned)p->n] : NULL; }

/* An int64 index tensor for axis size n: values mostly in [-n, n), sometimes out of range. */
static RtTensor *rd_indices(In *in, int64_t n) {
    int rank = (int)(u8(in) % 3);
    int64_t shape[2] = {small_dims[u8(in) % 8], small_dims[u8(in) % 8]}, vals[25];
    int64_t k = numel_of(rank, shape);
    for (int64_t i = 0; i < k; i++) {
        unsigned s = u8(in);
        vals[i] = s < 224 && n ? (int64_t)(s % (unsigned)(2 * n)) - n : special_i64[s % NSI];
    }
    return rt_from_host(&rt_cpu_backend, DT_INT64, rank, shape, vals);
}

/* x sliced to length 1 on some axes: a tensor that broadcasts against x. */
static RtTensor *broadcastable(In *in, RtTensor *x) {
    Attrs a = {0};
    a.nslice = x->rank;
    for (int i = 0; i < x->rank; i++) a.starts[i] = 0, a.ends[i] = u8(in) & 1 ? 1 : INT64_MAX;
    RtOperand o = {.t = x};
    return apply(OP_SLICE, &o, 1, &a);
}

/* Operands for op: pool tensors or scalars, some made to fit the op's rule (held in own[]). */
static int rd_operands(In *in, Pool *p, Op op, RtOperand *o, RtTensor **own, int *nown, int *axis) {
    int nin = ir_ops[op].arity;
    if (nin < 0) nin = 1 + (int)(u8(in) % 4);
    if (u8(in) % 32 == 0) nin = (int)(u8(in) % 5); /* a wrong operand count */
    bool smart = u8(in) % 4 != 0;
    for (int i = 0; i < nin; i++) {
        unsigned s = u8(in);
        o[i] = (RtOperand){0};
        if (s % 8 == 0 || !p->n) {
            o[i].value = rd_f64(in);
            o[i].is_float = s & 8;
        } else {
            o[i].t = pick(in, p);
        }
    }
    if (!smart || nin < 1 || !o[0].t) return nin;
    RtTensor *x = o[0].t, *t = NULL;
#define OWN(expr) (t = (expr), t ? (own[(*nown)++] = t) : NULL)
    switch (ir_ops[op].rule) {
    case R_WHERE:
        if (x->dtype != DT_BOOL && OWN(rt_cast(x, DT_BOOL))) o[0].t = t;
        if (nin > 1 && u8(in) & 1 && OWN(broadcastable(in, o[0].t))) o[1].t = t;
        break;
    case R_ONE_HOT:
        if (x->dtype != DT_INT32 && x->dtype != DT_INT64 && OWN(rt_cast(x, u8(in) & 1 ? DT_INT32 : DT_INT64))) o[0].t = t;
        break;
    case R_GATHER:
    case R_SCATTER:
        if (nin >= 2 && x->rank > 0) {
            int ax = ((int)(unsigned)(u8(in)) % x->rank);
            if (OWN(rd_indices(in, x->shape[ax]))) o[1].t = t;
            if (nin == 3 && o[1].t) {
                Attrs ga = {.axis = ax};
                RtOperand go[2] = {{.t = x}, {.t = o[1].t}};
                if (OWN(apply(OP_GATHER, go, 2, &ga))) o[2].t = t;
            }
            *axis = ax; /* into the attributes */
        }
        break;
    case R_DROPOUT:
        if (!ir_dtype_is_float(x->dtype) && OWN(rt_cast(x, u8(in) & 1 ? DT_FLOAT32 : DT_FLOAT64))) o[0].t = t;
        if (nin == 2) {
            int64_t seed = rd_i64(in);
            if (OWN(rt_from_host(&rt_cpu_backend, DT_INT64, 0, NULL, &seed))) o[1].t = t;
        }
        break;
    case R_MATMUL:
        if (!ir_dtype_is_float(x->dtype) && OWN(rt_cast(x, u8(in) & 1 ? DT_FLOAT32 : DT_FLOAT64))) o[0].t = t;
        if (nin == 2 && o[0].t->rank > 0 && u8(in) % 4) {
            int64_t shape[3] = {o[0].t->shape[o[0].t->rank - 1], u8(in) % 4 ? small_dims[u8(in) % 8] : large_dims[u8(in) % 4], 2};
            int rank = 1 + (int)(u8(in) % 2);
            if (OWN(rd_tensor(in, o[0].t->dtype, rank, shape))) o[1].t = t;
        }
        break;
    case R_CONCAT:
        for (int i = 1; i < nin; i++)
            if (u8(in) % 4) o[i].t = x;
        break;
    default:
        if (nin >= 2 && u8(in) % 2 && OWN(broadcastable(in, x))) o[1 + u8(in) % (unsigned)(nin - 1)].t = t;
        break;
    }
#undef OWN
    return nin;
}

/* ---- the metamorphic checks ------------------------------------------------------------ */

/* The same op on contiguous copies of its operands gives bitwise the same result. */
static void check_view_equivalence(Op op, const RtOperand *in, int nin, const Attrs *a, const RtTensor *r) {
    bool strided = false;
    for (int i = 0; i < nin; i++) {
        if (!in[i].t) continue;
        if (rt_numel(in[i].t) > WORK_CAP) return;
        strided |= !rt_is_contiguous(in[i].t) || in[i].t->offset != 0;
    }
    if (!strided || rt_numel(r) > WORK_CAP) return;
    RtOperand c[IR_MAX_INPUTS];
    for (int i = 0; i < nin; i++) {
        c[i] = in[i];
        if (in[i].t) CHECK((c[i].t = rt_contiguous(in[i].t)) != NULL, "rt_contiguous failed", op);
    }
    RtTensor *rc = rt_apply(op, c, nin, a);
    if (!rc) fprintf(stderr, "fuzz_runtime: on contiguous copies: %s\n", rt_message());
    CHECK(rc != NULL, "the op fails on contiguous copies of views it accepted", op);
    check_same(r, rc, op, "an op on a view differs from the op on its contiguous copy");
    rt_release(rc);
    for (int i = 0; i < nin; i++)
        if (in[i].t) rt_release(c[i].t);
}

/* An elementwise result's shape is the NumPy broadcast of its operands' (one_hot: plus depth). */
static void check_broadcast_shape(Op op, const RtOperand *in, int nin, const Attrs *a, const RtTensor *r) {
    int64_t dims[IR_MAX_RANK + 1] = {0};
    int rank = 0;
    for (int i = 0; i < nin; i++)
        if (in[i].t && in[i].t->rank > rank) rank = in[i].t->rank;
    for (int d = 0; d < rank; d++) {
        int64_t size = 1;
        for (int i = 0; i < nin; i++) {
            if (!in[i].t) continue;
            int k = d - (rank - in[i].t->rank);
            if (k >= 0 && in[i].t->shape[k] != 1) size = in[i].t->shape[k];
        }
        dims[d] = size;
    }
    if (op == OP_ONE_HOT) dims[rank++] = a->depth;
    CHECK(r->rank == rank && memcmp(r->shape, dims, (size_t)rank * sizeof *dims) == 0,
          "an elementwise result's shape is not the broadcast shape", op);
}

/* The elements of x a slice with attributes a picks, by this file's own index arithmetic
 * (ONNX semantics: negative bounds count from the end, out-of-range ones clamp). */
static void check_slice_reference(const RtTensor *x, const Attrs *a, const RtTensor *v) {
    int r = x->rank;
    int64_t n = rt_numel(x);
    if (n > WORK_CAP || rt_numel(v) > WORK_CAP) return;
    for (int i = 0; i < r; i++)
        if (x->shape[i] > 4096) return;
    int64_t *idx[IR_MAX_RANK] = {0}, cnt[IR_MAX_RANK];
    for (int ax = 0; ax < r; ax++) {
        idx[ax] = malloc((size_t)(x->shape[ax] + 1) * sizeof(int64_t));
        CHECK(idx[ax] != NULL, "out of memory", OP_SLICE);
        cnt[ax] = x->shape[ax];
        for (int64_t k = 0; k < x->shape[ax]; k++) idx[ax][k] = k;
    }
    for (int i = 0; i < a->nslice; i++) {
        int ax = a->has_axes ? a->axes[i] : i;
        if (ax < 0) ax += r;
        __int128 dim = x->shape[ax], s = a->starts[i], e = a->ends[i], st = a->has_steps ? a->steps[i] : 1;
        if (s < 0) s += dim;
        if (e < 0) e += dim;
        cnt[ax] = 0;
        if (st > 0) {
            s = s < 0 ? 0 : s > dim ? dim : s;
            e = e < 0 ? 0 : e > dim ? dim : e;
            for (__int128 k = s; k < e; k += st) idx[ax][cnt[ax]++] = (int64_t)k;
        } else if (dim > 0) {
            s = s < 0 ? 0 : s > dim - 1 ? dim - 1 : s;
            e = e < -1 ? -1 : e > dim - 1 ? dim - 1 : e;
            for (__int128 k = s; k > e; k += st) idx[ax][cnt[ax]++] = (int64_t)k;
        }
    }
    for (int ax = 0; ax < r; ax++) CHECK(v->shape[ax] == cnt[ax], "a slice's shape differs from the reference", OP_SLICE);
    size_t es = ir_dtype_size(x->dtype);
    int64_t vn = rt_numel(v), xst[IR_MAX_RANK];
    rt_contiguous_strides(r, x->shape, xst);
    uint8_t *xh = malloc((size_t)(n ? n : 1) * es), *vh = malloc((size_t)(vn ? vn : 1) * es);
    CHECK(xh && vh && rt_to_host(x, xh) == 0 && rt_to_host(v, vh) == 0, "reading a slice back failed", OP_SLICE);
    for (int64_t li = 0; li < vn; li++) {
        int64_t rem = li, src = 0;
        for (int ax = r - 1; ax >= 0; ax--) {
            src += idx[ax][rem % cnt[ax]] * xst[ax];
            rem /= cnt[ax];
        }
        CHECK(memcmp(vh + li * (int64_t)es, xh + src * (int64_t)es, es) == 0,
              "a slice's element differs from the reference index computation", OP_SLICE);
    }
    free(xh), free(vh);
    for (int ax = 0; ax < r; ax++) free(idx[ax]);
}

/* An integer (or bool) reduction over all axes equals the same reduction one axis at a time,
 * in a random order (wrapping sums and products are exact in any order; max and min too). */
static void check_reduce_split(In *in, RtTensor *x) {
    static const Op ops[] = {OP_SUM, OP_PROD, OP_MAX, OP_MIN};
    Op op = ops[u8(in) % 4];
    if (ir_dtype_is_float(x->dtype) || rt_numel(x) > WORK_CAP) return;
    Attrs all = {.keepdims = true};
    RtOperand o = {.t = x};
    RtTensor *ra = apply(op, &o, 1, &all);
    int order[IR_MAX_RANK];
    for (int i = 0; i < IR_MAX_RANK; i++) order[i] = i;
    shuffle(in, order, x->rank);
    RtTensor *cur = rt_retain(x);
    for (int i = 0; i < x->rank && cur; i++) {
        Attrs one = {.has_axes = true, .naxes = 1, .axes = {order[i]}, .keepdims = true};
        RtOperand co = {.t = cur};
        rt_clear_error();
        RtTensor *nx = apply(op, &co, 1, &one);
        rt_release(cur);
        cur = nx;
        if (!nx && rt_status() == RT_OK) { /* skipped by apply (a partial result over WORK_CAP): no verdict */
            rt_release(ra);
            return;
        }
    }
    if (x->rank == 0 && cur) { /* a rank-0 reduction is the identity (in the result dtype) */
        rt_release(cur);
        cur = apply(op, &o, 1, &all);
    }
    CHECK(!ra == !cur, "a reduction over all axes and one axis at a time disagree on failing", op);
    if (ra) check_same(ra, cur, op, "a reduction over all axes differs from one axis at a time");
    rt_release(ra), rt_release(cur);
}

/* rt_cast equals the cast op; both equal on a view and on its contiguous copy. */
static void check_cast(In *in, RtTensor *x, Pool *p) {
    if (rt_numel(x) > WORK_CAP) return;
    DType dt = (DType)(u8(in) % DT_COUNT);
    RtTensor *a = rt_cast(x, dt);
    CHECK(a != NULL, "rt_cast failed on a small tensor", OP_CAST);
    check_tensor(a, OP_CAST);
    Attrs at = {.has_dtype = true, .dtype = dt};
    RtOperand o = {.t = x};
    RtTensor *b = apply(OP_CAST, &o, 1, &at);
    CHECK(b != NULL, "the cast op failed on a small tensor", OP_CAST);
    check_same(a, b, OP_CAST, "rt_cast and the cast op differ");
    check_view_equivalence(OP_CAST, &o, 1, &at, b);
    rt_release(b);
    pool_add(p, a);
}

/* Python's slice.indices(dim) then range(): the elements a[start:stop:step] picks (NULL: not
 * given); the count, with the indices in idx. */
static int64_t py_range(int64_t dim, const int64_t *start, const int64_t *stop, int64_t step, int64_t *idx) {
    __int128 lo = step > 0 ? 0 : -1, hi = step > 0 ? dim : dim - 1, b[2];
    const int64_t *given[2] = {start, stop};
    for (int k = 0; k < 2; k++) {
        if (!given[k]) {
            b[k] = (k == 0) == (step < 0) ? hi : lo;
            continue;
        }
        __int128 v = *given[k];
        if (v < 0) v += dim;
        b[k] = v < lo ? lo : v > hi ? hi : v;
    }
    int64_t n = 0;
    for (__int128 i = b[0]; step > 0 ? i < b[1] : i > b[1]; i += step) idx[n++] = (int64_t)i;
    return n;
}

/* One selector of the text form, as generated (kind 0: an index, 1: a range, 2: "..."). */
typedef struct {
    int kind;
    int64_t v[3];
    bool has[3];
} Sel;

/* The slice text forms (ir_select_text: "1:3, ::-1, ...", as PHP's $a->slice('...')) against
 * Python's slicing computed here: the same elements, or an error exactly when Python's
 * indexing would raise (an index out of range, a step of 0, too many indices). */
static void check_slice_text(In *in, RtTensor *x) {
    if (rt_numel(x) > WORK_CAP) return;
    int r = x->rank, n = (int)(u8(in) % (unsigned)(r + 2)), ellipsis = -1;
    Sel sel[IR_MAX_RANK + 2];
    char text[512] = "";
    size_t len = 0;
    bool junk = u8(in) % 8 == 0;
    for (int i = 0; i < n; i++) {
        Sel *c = &sel[i];
        *c = (Sel){.kind = (int)(u8(in) % 5)};
        if (c->kind > 2) c->kind = 1;
        if (c->kind == 2 && ellipsis >= 0) c->kind = 1;
        if (c->kind == 2) ellipsis = i;
        len += (size_t)snprintf(text + len, sizeof text - len, "%s%s", i ? "," : "", u8(in) % 4 == 0 ? " " : "");
        if (c->kind == 2) {
            len += (size_t)snprintf(text + len, sizeof text - len, "...");
            continue;
        }
        for (int k = 0; k < (c->kind == 0 ? 1 : 3); k++) {
            c->has[k] = c->kind == 0 || u8(in) % 3 != 0;
            if (c->has[k]) c->v[k] = rd_i64(in);
            if (k) len += (size_t)snprintf(text + len, sizeof text - len, ":");
            if (c->has[k]) len += (size_t)snprintf(text + len, sizeof text - len, "%lld", (long long)c->v[k]);
        }
    }
    if (junk && len < sizeof text - 8) { /* a character anywhere: only a clean error or a valid read matters */
        size_t at = len ? u8(in) % len : 0;
        static const char junkc[] = ":, .-+\t\x01xe0\xe2\x80\xae";
        memmove(text + at + 1, text + at, len - at + 1);
        text[at] = junkc[u8(in) % (sizeof junkc - 1)];
        len++;
    }
    Attrs a = {0};
    unsigned drop = 0;
    char err[256];
    TensorType tt = rt_type(x);
    int rc = ir_select_text(text, len, -1, &tt, &a, &drop, err, sizeof err);
    RtTensor *v = NULL;
    if (rc == 0) {
        RtOperand o = {.t = x};
        v = apply(OP_SLICE, &o, 1, &a);
        CHECK(v != NULL, "a slice from ir_select_text's attributes failed", OP_SLICE);
    } else {
        if (!err[0] || !valid_utf8_no_controls(err)) fprintf(stderr, "fuzz_runtime: slice text error: %s\n", err);
        CHECK(err[0] && valid_utf8_no_controls(err), "ir_select_text's error message is empty or unclean", OP_SLICE);
    }
    if (junk) {
        rt_release(v);
        return;
    }
    /* Python's reading of the same selectors (index lists per axis: not for huge empty tensors) */
    for (int ax = 0; ax < r; ax++)
        if (x->shape[ax] > 4096) {
            rt_release(v);
            return;
        }
    int nidx = n - (ellipsis >= 0);
    bool ok = nidx <= r;
    int64_t *idx[IR_MAX_RANK] = {0}, cnt[IR_MAX_RANK];
    for (int ax = 0; ax < r; ax++) {
        idx[ax] = malloc((size_t)(x->shape[ax] + 1) * sizeof(int64_t));
        CHECK(idx[ax] != NULL, "out of memory", OP_SLICE);
        for (int64_t k = 0; k < x->shape[ax]; k++) idx[ax][k] = k;
        cnt[ax] = x->shape[ax];
    }
    for (int i = 0; ok && i < n; i++) {
        if (i == ellipsis) continue;
        int ax = ellipsis >= 0 && i > ellipsis ? r - (n - i) : i;
        int64_t dim = x->shape[ax];
        if (sel[i].kind == 0) {
            int64_t k = sel[i].v[0];
            ok = k >= -dim && k < dim;
            idx[ax][0] = k < 0 ? k + dim : k, cnt[ax] = 1;
        } else {
            int64_t step = sel[i].has[2] ? sel[i].v[2] : 1;
            ok = step != 0;
            if (ok) cnt[ax] = py_range(dim, sel[i].has[0] ? &sel[i].v[0] : NULL, sel[i].has[1] ? &sel[i].v[1] : NULL, step, idx[ax]);
        }
    }
    if (!ok != (rc != 0)) fprintf(stderr, "fuzz_runtime: slice text \"%s\": %s\n", text, rc ? err : "accepted");
    CHECK(!ok == (rc != 0), "the slice text is accepted where Python refuses it, or the reverse", OP_SLICE);
    if (v) {
        size_t es = ir_dtype_size(x->dtype);
        int64_t xn = rt_numel(x), vn = rt_numel(v), xst[IR_MAX_RANK];
        for (int ax = 0; ax < r; ax++) {
            if (v->shape[ax] != cnt[ax]) fprintf(stderr, "fuzz_runtime: slice text \"%s\": axis %d has %lld elements, Python %lld\n",
                                                 text, ax, (long long)v->shape[ax], (long long)cnt[ax]);
            CHECK(v->shape[ax] == cnt[ax], "a slice text's shape differs from Python's", OP_SLICE);
        }
        rt_contiguous_strides(r, x->shape, xst);
        uint8_t *xh = malloc((size_t)(xn ? xn : 1) * es), *vh = malloc((size_t)(vn ? vn : 1) * es);
        CHECK(xh && vh && rt_to_host(x, xh) == 0 && rt_to_host(v, vh) == 0, "reading a slice back failed", OP_SLICE);
        for (int64_t li = 0; li < vn; li++) {
            int64_t rem = li, src = 0;
            for (int ax = r - 1; ax >= 0; ax--) src += idx[ax][rem % cnt[ax]] * xst[ax], rem /= cnt[ax];
            CHECK(memcmp(vh + li * (int64_t)es, xh + src * (int64_t)es, es) == 0,
                  "a slice text's element differs from Python's", OP_SLICE);
        }
        free(xh), free(vh);
    }
    for (int ax = 0; ax < r; ax++) free(idx[ax]);
    rt_release(v);
}

/* rt_assign (PHP's $a[...] = $b) into a view of a fresh copy, from a source that may be a view
 * of the same storage: the view then holds the source's values converted to its dtype. */
static void check_assign(In *in, RtTensor *x, RtTensor *src0) {
    if (rt_numel(x) > WORK_CAP || rt_numel(src0) > WORK_CAP) return;
    RtTensor *base = rt_contiguous(x);
    CHECK(base != NULL, "rt_contiguous failed", OP_SLICE);
    Attrs a;
    rd_attrs(in, OP_SLICE, base, &a);
    if (u8(in) & 1) a.has_axes = false;
    RtOperand o = {.t = base};
    RtTensor *dst = apply(u8(in) % 4 ? OP_SLICE : OP_TRANSPOSE, &o, 1, &a);
    if (!dst) {
        rt_release(base);
        return;
    }
    /* the source: another tensor broadcast to dst's shape, or a reversed view of base itself */
    RtTensor *src = NULL;
    if (u8(in) & 1) {
        Attrs rev = {.nperm = 0};
        RtOperand so = {.t = dst};
        RtTensor *t = apply(OP_TRANSPOSE, &so, 1, &rev);
        Attrs bt = {.nshape = dst->rank};
        memcpy(bt.shape, dst->shape, sizeof bt.shape);
        RtOperand to = {.t = t};
        src = t ? apply(OP_BROADCAST_TO, &to, 1, &bt) : NULL; /* only when the shapes allow */
        rt_release(t);
    } else {
        Attrs bt = {.nshape = dst->rank};
        memcpy(bt.shape, dst->shape, sizeof bt.shape);
        RtOperand so = {.t = src0};
        src = apply(OP_BROADCAST_TO, &so, 1, &bt);
    }
    if (src) {
        RtTensor *want = rt_cast(src, dst->dtype); /* taken before the write: src may alias dst */
        CHECK(want != NULL, "rt_cast failed", OP_CAST);
        if (rt_assign(dst, src) != 0) {
            CHECK(rt_repeats_elements(dst), "rt_assign failed on a valid destination", OP_SLICE);
            check_failure(OP_SLICE);
        } else {
            check_same(dst, want, OP_SLICE, "rt_assign wrote other values than the source's");
        }
        rt_release(want);
    }
    rt_release(src), rt_release(dst), rt_release(base);
}

/* ---- the program ----------------------------------------------------------------------- */

static void run_op(In *in, Pool *p) {
    Op op = (Op)(u8(in) % OP_COUNT);
    RtOperand o[IR_MAX_INPUTS];
    RtTensor *own[3 * IR_MAX_INPUTS] = {0};
    int nown = 0;
    int axis = INT32_MIN, nin = rd_operands(in, p, op, o, own, &nown, &axis);
    Attrs a;
    rd_attrs(in, op, nin > 0 ? o[0].t : NULL, &a);
    if (axis != INT32_MIN) a.axis = axis;
    RtTensor *r = apply(op, o, nin, &a);
    if (r) {
        check_view_equivalence(op, o, nin, &a, r);
        if (ir_ops[op].kind == K_ELEMWISE) check_broadcast_shape(op, o, nin, &a, r);
        if (op == OP_SLICE) check_slice_reference(o[0].t, &a, r);
        check_npy(r, op);
        pool_add(p, r);
    }
    for (int i = 0; i < nown; i++) rt_release(own[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    In in = {data, size, 0};
    rt_set_memory_limit(MEM_LIMIT);
    rt_clear_error();
    Pool p = {0};
    int ntensors = 1 + (int)(u8(&in) % 4);
    for (int i = 0; i < ntensors; i++) {
        RtTensor *t = rd_new_tensor(&in);
        CHECK(t != NULL, "creating a small tensor failed", OP_INPUT);
        check_npy(t, OP_INPUT);
        pool_add(&p, t);
    }
    for (int step = 0; step < MAX_ACTIONS && more(&in); step++) {
        unsigned act = u8(&in) % 10;
        if (act == 6 && p.n) check_reduce_split(&in, pick(&in, &p));
        else if (act == 7 && p.n) check_cast(&in, pick(&in, &p), &p);
        else if (act == 8 && p.n) check_slice_text(&in, pick(&in, &p));
        else if (act == 9 && p.n) check_assign(&in, pick(&in, &p), pick(&in, &p));
        else run_op(&in, &p);
    }
    for (int i = 0; i < p.n; i++) rt_release(p.t[i]);
    CHECK(rt_memory_used() == 0, "tensors were not released (rt_memory_used() is not 0)", OP_INPUT);
    rt_clear_error();
    return 0;
}
