/* tests/gpu/test_gpu_ops.c: every op of ir/ops.def on the CUDA backend against the CPU backend.
 *
 * Inputs are fresh random tensors (rt_rand, scaled and shifted with rt_apply on the CPU, then
 * copied bit for bit to the GPU), built as the same views on both backends: contiguous,
 * transposed, sliced with step 2 and an offset, reversed (negative stride), misaligned
 * contiguous, broadcast (stride 0), rank 0 and empty; sizes that do not divide a block (1, 7,
 * 1000, 65537, 3x1025, 2^20+5). Kernels are called through the backend tables on outputs
 * poisoned with 0xA5 bytes (a value no op produces), so an unwritten element fails. Then the
 * public path (rt_apply: promotion, keepdims, 1-D matmul, views) runs end to end.
 *
 * Tolerances, as max over elements of |gpu - cpu| / max(1, |cpu|) (NaN must meet NaN):
 *   elementwise and copies: float32 1e-5, float64 1e-12; integers and bool exact;
 *   reductions: float32 1e-4 (both backends accumulate float32 in double, so this is loose),
 *   float64 1e-12; matmul: float32 1e-4 (strict FP32 cuBLAS vs OpenBLAS), float64 1e-12.
 *
 *   test_gpu_ops [-v] [--self-test]   prints failures (every check with -v), then "N passed, N failed";
 *   --self-test runs the harness with the CPU backend on both sides (no GPU needed) */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../ir/scalar.h"
#include "../../runtime/core/rt.h"
#include "../../runtime/cuda/rt_cuda.h"

static const RtBackend *const CPU = &rt_cpu_backend;
static const RtBackend *GPU = &rt_cuda_backend; /* --self-test: the CPU backend, to test the harness */
static int npass, nfail, verbose;
static uint64_t seed = 20261129;
static char where_[512];

#define POISON 0xA5

static void die(const char *what) {
    fprintf(stderr, "test_gpu_ops: harness error in %s: %s\n", what, rt_message());
    exit(2);
}

static void set_ctx(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(where_, sizeof where_, fmt, ap);
    va_end(ap);
}

static void fail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL %s: ", where_);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    nfail++;
}

static void pass(double maxerr) {
    npass++;
    if (verbose) printf("ok   %s (max rel err %.3g)\n", where_, maxerr);
}

/* ---- building tensors ------------------------------------------------------------------------ */

static RtTensor *need(RtTensor *t, const char *what) {
    if (!t) die(what);
    return t;
}

static RtTensor *ap1(Op op, RtTensor *x, const Attrs *a) {
    RtOperand o = {.t = x};
    return need(rt_apply(op, &o, 1, a), ir_ops[op].name);
}

static RtTensor *ap2s(Op op, RtTensor *x, double v) { /* x op weak scalar */
    RtOperand o[2] = {{.t = x}, {.t = NULL, .value = v}};
    return need(rt_apply(op, o, 2, NULL), ir_ops[op].name);
}

/* rt_to_host / rt_to_backend, except that empty tensors skip the core (whose rt_is_contiguous
 * and rt_contiguous_strides disagree on shapes like [4,0,3], so rt_to_host recurses forever). */
static int to_host(const RtTensor *t, void *dst) { return rt_numel(t) ? rt_to_host(t, dst) : 0; }
static RtTensor *to_backend(const RtTensor *t, const RtBackend *b) {
    return rt_numel(t) ? rt_to_backend(t, b) : rt_empty(b, t->dtype, t->rank, t->shape);
}

/* Replaces *t by f(*t) (releasing the old one). */
static void upd(RtTensor **t, RtTensor *n) {
    rt_release(*t);
    *t = n;
}

typedef struct {
    double lo, hi;   /* uniform in [lo, hi) */
    double grid;     /* > 0: snapped down to multiples of grid (ties, exact halves) */
    double nan_frac; /* float dtypes: this fraction of elements is NaN */
} Range;

/* A contiguous CPU tensor of dtype dt with values from r. */
static RtTensor *gen(DType dt, int rank, const int64_t *shape, Range r) {
    if (dt == DT_BOOL) return need(rt_rand(CPU, DT_BOOL, rank, shape, seed++), "rand");
    RtTensor *x = need(rt_rand(CPU, DT_FLOAT64, rank, shape, seed++), "rand");
    upd(&x, ap2s(OP_MUL, x, r.hi - r.lo));
    upd(&x, ap2s(OP_ADD, x, r.lo));
    if (r.grid > 0) {
        upd(&x, ap2s(OP_DIV, x, r.grid));
        upd(&x, ap1(OP_FLOOR, x, NULL));
        upd(&x, ap2s(OP_MUL, x, r.grid));
    }
    if (r.nan_frac > 0 && ir_dtype_is_float(dt)) {
        RtTensor *m = need(rt_rand(CPU, DT_FLOAT64, rank, shape, seed++), "rand");
        RtTensor *cond = ap2s(OP_LT, m, r.nan_frac);
        RtOperand o[3] = {{.t = cond}, {.t = NULL, .value = NAN}, {.t = x}};
        RtTensor *y = need(rt_apply(OP_WHERE, o, 3, NULL), "where");
        rt_release(m), rt_release(cond);
        upd(&x, y);
    }
    if (dt != DT_FLOAT64) upd(&x, need(rt_cast(x, dt), "cast"));
    return x;
}

typedef enum { V_CONTIG, V_T, V_SLICE, V_REV, V_MISALIGN } ViewKind;
static const char *const view_names[] = {"contig", "transposed", "sliced", "reversed", "misaligned"};

typedef struct {
    int rank;                    /* -1: out's shape */
    int64_t shape[IR_MAX_RANK];
    ViewKind view;
} Spec;

/* The view `v` of base tensor b (same code on both backends, so the same view structure). */
static RtTensor *make_view(RtTensor *b, ViewKind v, int rank, const int64_t *shape) {
    Attrs a;
    memset(&a, 0, sizeof a);
    switch (v) {
    case V_T:
        a.nperm = rank;
        for (int i = 0; i < rank; i++) a.perm[i] = i;
        a.perm[rank - 2] = rank - 1, a.perm[rank - 1] = rank - 2;
        return ap1(OP_TRANSPOSE, b, &a);
    case V_SLICE:
        a.nslice = rank, a.has_steps = true;
        for (int i = 0; i < rank; i++) a.starts[i] = 1, a.ends[i] = 2 * shape[i] + 1, a.steps[i] = 2;
        return ap1(OP_SLICE, b, &a);
    case V_REV:
        a.nslice = 1, a.has_axes = true, a.naxes = 1, a.axes[0] = rank - 1, a.has_steps = true;
        a.starts[0] = -1, a.ends[0] = -shape[rank - 1] - 1, a.steps[0] = -1;
        return ap1(OP_SLICE, b, &a);
    case V_MISALIGN: {
        int64_t n = 1;
        for (int i = 0; i < rank; i++) n *= shape[i];
        a.nslice = 1, a.starts[0] = 1, a.ends[0] = n + 1;
        RtTensor *s = ap1(OP_SLICE, b, &a);
        Attrs r;
        memset(&r, 0, sizeof r);
        r.nshape = rank;
        memcpy(r.shape, shape, (size_t)rank * sizeof *shape);
        RtTensor *t = ap1(OP_RESHAPE, s, &r);
        rt_release(s);
        return t;
    }
    default: return rt_retain(b);
    }
}

/* The same logical tensor (values and view structure) on the CPU (*pc) and the GPU (*pg). */
static void make_pair(DType dt, const Spec *s, Range r, RtTensor **pc, RtTensor **pg) {
    int rank = s->rank;
    int64_t base[IR_MAX_RANK];
    int brank = rank;
    ViewKind v = s->view;
    if ((v == V_T && rank < 2) || ((v == V_REV || v == V_MISALIGN) && rank < 1)) v = V_CONTIG;
    memcpy(base, s->shape, (size_t)rank * sizeof *base);
    if (v == V_T) base[rank - 2] = s->shape[rank - 1], base[rank - 1] = s->shape[rank - 2];
    if (v == V_SLICE)
        for (int i = 0; i < rank; i++) base[i] = 2 * s->shape[i] + 1;
    if (v == V_MISALIGN) {
        int64_t n = 1;
        for (int i = 0; i < rank; i++) n *= s->shape[i];
        brank = 1, base[0] = n + 1;
    }
    RtTensor *bc = gen(dt, brank, base, r);
    RtTensor *bg = need(to_backend(bc, GPU), "to gpu");
    *pc = make_view(bc, v, rank, s->shape);
    *pg = make_view(bg, v, rank, s->shape);
    rt_release(bc), rt_release(bg);
}

/* A view of t broadcast (NumPy rules) to `shape`: a new header over the same storage. */
static RtTensor *bview(RtTensor *t, int rank, const int64_t *shape) {
    RtTensor *v = malloc(sizeof *v);
    if (!v) exit(2);
    *v = *t;
    v->refcount = 1;
    v->storage->refcount++;
    v->rank = rank;
    for (int i = rank - 1; i >= 0; i--) {
        int k = i - (rank - t->rank);
        bool keep = k >= 0 && t->shape[k] == shape[i];
        v->strides[i] = keep ? t->strides[k] : 0;
        v->shape[i] = shape[i];
    }
    v->offset = t->offset;
    return v;
}

/* Fresh outputs on both backends, poisoned. */
static void make_out(DType dt, int rank, const int64_t *shape, RtTensor **oc, RtTensor **og) {
    *oc = need(rt_empty(CPU, dt, rank, shape), "empty");
    *og = need(rt_empty(GPU, dt, rank, shape), "empty");
    size_t n = rt_nbytes(*oc);
    memset((*oc)->storage->data, POISON, n ? n : 1);
    if (GPU == CPU) memset((*og)->storage->data, POISON, n ? n : 1);
    else if (rt_cuda_memset((*og)->storage->data, POISON, n ? n : 1)) die("memset");
}

/* ---- comparing ------------------------------------------------------------------------------- */

static double as_double(const void *p, DType dt, int64_t i) {
    switch (dt) {
#define AS_DOUBLE(ID, name, sh, sfx, CT, WT, size, kind) case DT_##ID: return gtc_to_f64(((const CT *)p)[i]);
        IR_DTYPES(AS_DOUBLE)
#undef AS_DOUBLE
    default: return NAN;
    }
}

static void compare(RtTensor *c, RtTensor *g, double tol32, double tol64) {
    if (c->dtype != g->dtype || c->rank != g->rank ||
        memcmp(c->shape, g->shape, (size_t)c->rank * sizeof *c->shape)) {
        fail("result dtype or shape differs (cpu %s rank %d, gpu %s rank %d)", ir_dtype_name(c->dtype), c->rank,
             ir_dtype_name(g->dtype), g->rank);
        return;
    }
    size_t bytes = rt_nbytes(c);
    int64_t n = rt_numel(c);
    char *hc = malloc(bytes + 8), *hg = malloc(bytes + 8);
    if (!hc || !hg) exit(2);
    if (to_host(c, hc) || to_host(g, hg)) {
        fail("download failed: %s", rt_message());
        free(hc), free(hg);
        return;
    }
    /* bfloat16 / float16: both backends compute in float and round with scalar.h's one conversion,
     * so results differ only where float results do; that is allowed one unit in the last place of
     * the 2-byte format (relative 2^-7 for bfloat16, 2^-10 for float16), and nothing where tol32 is
     * 0 (casts, fills: exact) */
    double tolh = c->dtype == DT_BFLOAT16 ? 1.0 / 128 : 1.0 / 1024;
    double tol = c->dtype == DT_FLOAT32   ? tol32
                 : c->dtype == DT_FLOAT64 ? tol64
                 : ir_dtype_is_half(c->dtype) && tol32 > 0 ? tolh : 0, maxerr = 0;
    int64_t bad = -1, nbad = 0;
    bool flt = ir_dtype_is_float(c->dtype);
    for (int64_t i = 0; i < n; i++) {
        bool ok;
        if (!flt) {
            size_t es = ir_dtype_size(c->dtype);
            ok = memcmp(hc + i * (int64_t)es, hg + i * (int64_t)es, es) == 0;
            if (c->dtype == DT_BOOL && ((uint8_t *)hg)[i] > 1) ok = false;
        } else {
            double cv = as_double(hc, c->dtype, i), gv = as_double(hg, c->dtype, i);
            if (isnan(cv) || isnan(gv)) ok = isnan(cv) && isnan(gv);
            else if (isinf(cv) || isinf(gv)) ok = cv == gv;
            else {
                double e = fabs(gv - cv) / fmax(1.0, fabs(cv));
                if (e > maxerr) maxerr = e;
                ok = e <= tol;
            }
        }
        if (!ok && nbad++ == 0) bad = i;
    }
    if (nbad) {
        double cv = as_double(hc, c->dtype, bad), gv = as_double(hg, c->dtype, bad);
        fail("%lld of %lld elements differ; first at flat index %lld: cpu %.17g, gpu %.17g (max rel err %.3g, tol %g)",
             (long long)nbad, (long long)n, (long long)bad, cv, gv, maxerr, tol);
    } else {
        pass(maxerr);
    }
    free(hc), free(hg);
}

static void shape_str(int rank, const int64_t *shape, char *buf, size_t n) {
    TensorType t = {.rank = rank};
    memcpy(t.dims, shape, (size_t)rank * sizeof *shape);
    ir_shape_str(&t, buf, n);
}

/* ---- elementwise ----------------------------------------------------------------------------- */

typedef struct {
    const char *name;
    int rank;
    int64_t shape[4];
    Spec in[3]; /* rank -1: out's shape */
} EwCase;

#define SAME(v) {-1, {0}, v}
static const EwCase ew_cases[] = {
    {"n1", 1, {1}, {SAME(V_CONTIG), SAME(V_CONTIG), SAME(V_CONTIG)}},
    {"n7", 1, {7}, {SAME(V_CONTIG), SAME(V_CONTIG), SAME(V_CONTIG)}},
    {"n1000", 1, {1000}, {SAME(V_CONTIG), SAME(V_CONTIG), SAME(V_CONTIG)}},
    {"n65537", 1, {65537}, {SAME(V_CONTIG), SAME(V_CONTIG), SAME(V_CONTIG)}},
    {"3x1025", 2, {3, 1025}, {SAME(V_CONTIG), SAME(V_CONTIG), SAME(V_CONTIG)}},
    {"rank0", 0, {0}, {SAME(V_CONTIG), SAME(V_CONTIG), SAME(V_CONTIG)}},
    {"empty", 1, {0}, {SAME(V_CONTIG), SAME(V_CONTIG), SAME(V_CONTIG)}},
    {"empty3d", 3, {4, 0, 3}, {SAME(V_T), {1, {3}, V_CONTIG}, SAME(V_SLICE)}},
    {"bcast_row", 2, {3, 1025}, {SAME(V_CONTIG), {1, {1025}, V_CONTIG}, {2, {3, 1}, V_CONTIG}}},
    {"bcast_3d", 3, {5, 6, 7}, {{3, {5, 1, 7}, V_CONTIG}, {3, {1, 6, 1}, V_CONTIG}, {1, {7}, V_REV}}},
    {"scalar_operands", 1, {1000}, {SAME(V_CONTIG), {0, {0}, V_CONTIG}, {0, {0}, V_CONTIG}}},
    {"scalar_first", 2, {7, 9}, {{0, {0}, V_CONTIG}, SAME(V_REV), {1, {9}, V_CONTIG}}},
    {"transposed", 2, {3, 1025}, {SAME(V_T), SAME(V_T), SAME(V_CONTIG)}},
    {"sliced", 2, {33, 65}, {SAME(V_SLICE), SAME(V_REV), SAME(V_SLICE)}},
    {"misaligned", 1, {1001}, {SAME(V_MISALIGN), SAME(V_CONTIG), SAME(V_MISALIGN)}},
    {"4d_mixed", 4, {2, 3, 4, 5}, {SAME(V_T), {3, {3, 1, 5}, V_CONTIG}, SAME(V_SLICE)}},
    {"big", 1, {(1 << 20) + 5}, {SAME(V_CONTIG), SAME(V_CONTIG), {0, {0}, V_CONTIG}}},
};
#define NCASES (int)(sizeof ew_cases / sizeof *ew_cases)

/* The compute dtypes an elementwise rule is defined for. */
static int rule_dtypes(DtRule r, DType *out) {
    int n = 0;
    switch (r) {
    case R_ARITH: case R_SIGNED: case R_CLAMP:
        for (int d = 0; d < DT_COUNT; d++)
            if (d != DT_BOOL) out[n++] = (DType)d;
        break;
    case R_DIV: case R_FLOAT:
        out[n++] = DT_FLOAT32, out[n++] = DT_FLOAT64, out[n++] = DT_BFLOAT16, out[n++] = DT_FLOAT16;
        break;
    case R_CMP: case R_WHERE:
        for (int d = 0; d < DT_COUNT; d++) out[n++] = (DType)d;
        break;
    case R_ONE_HOT: out[n++] = DT_INT32, out[n++] = DT_INT64; break;
    default: break;
    }
    return n;
}

/* Input values for operand k of op in compute dtype dt. */
static Range range_for(Op op, DType dt, int k) {
    bool flt = ir_dtype_is_float(dt);
    double nan = flt ? 0.02 : 0;
    Range r = {-4, 4, 0, nan};
    if (!flt) r = (Range){-100, 100, 1, 0};
    switch (op) {
    case OP_LOG: case OP_SQRT: case OP_RSQRT: return (Range){0.01, 10, 0, 0};
    case OP_EXP: return (Range){-10, 10, 0, nan};
    case OP_POW:
        if (!flt) return k == 0 ? (Range){-4, 5, 1, 0} : (Range){-2, 7, 1, 0};
        return k == 0 ? (Range){0.1, 3, 0, 0} : (Range){-3, 3, 0, 0};
    case OP_DIV: return k == 0 ? (Range){-4, 4, 0, nan} : (Range){0.5, 3, 0, 0};
    case OP_SIN: case OP_COS: case OP_TANH: case OP_SIGMOID: return (Range){-8, 8, 0, nan};
    case OP_TAN: return (Range){-1.2, 1.2, 0, nan}; /* away from the poles at +-pi/2 */
    case OP_FLOOR: case OP_CEIL: case OP_ROUND: case OP_SIGN: case OP_EQ: case OP_NE: case OP_LT:
    case OP_LE: case OP_GT: case OP_GE: case OP_MAXIMUM: case OP_MINIMUM: case OP_CLAMP: case OP_RELU:
        return flt ? (Range){-4, 4, 0.25, nan} : (Range){-5, 5, 1, 0};
    default: return r;
    }
}

static void check_ew(Op op, DType ct, DType odt, const EwCase *cs, int64_t depth) {
    int nin = ir_ops[op].arity, rank = cs->rank;
    int64_t oshape[IR_MAX_RANK];
    memcpy(oshape, cs->shape, sizeof cs->shape);
    int orank = rank;
    if (op == OP_ONE_HOT) oshape[orank++] = depth;
    char sh[128];
    shape_str(orank, oshape, sh, sizeof sh);
    set_ctx("%s %s->%s %s %s", ir_ops[op].name, ir_dtype_name(ct), ir_dtype_name(odt), cs->name, sh);
    RtTensor *c[3] = {0}, *g[3] = {0}, *bc[3] = {0}, *bg[3] = {0};
    for (int k = 0; k < nin; k++) {
        Spec s = cs->in[k];
        if (s.rank < 0) s.rank = rank, memcpy(s.shape, cs->shape, sizeof cs->shape);
        DType dt = op == OP_WHERE && k == 0 ? DT_BOOL : ct;
        Range r = range_for(op, dt, k);
        if (op == OP_ONE_HOT) r = (Range){-1, (double)depth + 1, 1, 0};
        make_pair(dt, &s, r, &c[k], &g[k]);
        bc[k] = bview(c[k], rank, cs->shape);
        bg[k] = bview(g[k], rank, cs->shape);
    }
    RtTensor *oc, *og;
    make_out(odt, orank, oshape, &oc, &og);
    Attrs a;
    memset(&a, 0, sizeof a);
    a.depth = depth;
    int rc_c = CPU->elementwise(op, oc, bc, nin, &a);
    if (rc_c) fail("cpu backend failed: %s", rt_message());
    int rc_g = rc_c ? 0 : GPU->elementwise(op, og, bg, nin, &a);
    if (rc_g) fail("cuda backend failed: %s", rt_message());
    if (!rc_c && !rc_g) compare(oc, og, 1e-5, 1e-12);
    for (int k = 0; k < nin; k++) rt_release(c[k]), rt_release(g[k]), rt_release(bc[k]), rt_release(bg[k]);
    rt_release(oc), rt_release(og);
}

static void test_elementwise(void) {
    for (int op = 0; op < OP_COUNT; op++) {
        if (ir_ops[op].kind != K_ELEMWISE || ir_ops[op].rule == R_CAST) continue;
        DType dts[DT_COUNT];
        int ndt = rule_dtypes(ir_ops[op].rule, dts);
        if (!ndt) {
            set_ctx("%s", ir_ops[op].name);
            fail("no dtype list for this op's rule in the harness");
            continue;
        }
        for (int d = 0; d < ndt; d++)
            for (int i = 0; i < NCASES; i++) {
                if (ir_ops[op].rule == R_ONE_HOT) {
                    if (ew_cases[i].rank >= 4 || ew_cases[i].shape[0] > 100000) continue;
                    for (int o = 0; o < DT_COUNT; o++) check_ew((Op)op, dts[d], (DType)o, &ew_cases[i], i == 2 ? 1000 : 5);
                    continue;
                }
                DType odt = ir_ops[op].rule == R_CMP ? DT_BOOL : dts[d];
                check_ew((Op)op, dts[d], odt, &ew_cases[i], 0);
            }
    }
}

/* ---- copies (cast) and fill ------------------------------------------------------------------ */

static void test_copy(void) {
    static const Range vals = {-5e9, 5e9, 0, 0.05};
    static const Range small = {-3, 3, 0.5, 0.05};
    for (int i = 0; i < NCASES; i++) {
        const EwCase *cs = &ew_cases[i];
        for (int from = 0; from < DT_COUNT; from++)
            for (int to = 0; to < DT_COUNT; to++)
                for (int v = 0; v < 2; v++) {
                    Spec s = cs->in[v ? 1 : 0];
                    if (s.rank < 0) s.rank = cs->rank, memcpy(s.shape, cs->shape, sizeof cs->shape);
                    char sh[128];
                    shape_str(cs->rank, cs->shape, sh, sizeof sh);
                    set_ctx("copy %s->%s %s %s (%s%s)", ir_dtype_name((DType)from), ir_dtype_name((DType)to), cs->name,
                            sh, view_names[s.view], s.rank < cs->rank ? ", broadcast" : "");
                    RtTensor *c, *g;
                    make_pair((DType)from, &s, v ? small : vals, &c, &g);
                    RtTensor *vc = bview(c, cs->rank, cs->shape), *vg = bview(g, cs->rank, cs->shape);
                    RtTensor *oc, *og;
                    make_out((DType)to, cs->rank, cs->shape, &oc, &og);
                    if (CPU->copy(oc, vc)) fail("cpu backend failed: %s", rt_message());
                    else if (GPU->copy(og, vg)) fail("cuda backend failed: %s", rt_message());
                    else compare(oc, og, 0, 0);
                    rt_release(c), rt_release(g), rt_release(vc), rt_release(vg), rt_release(oc), rt_release(og);
                }
    }
}

static void test_fill(void) {
    static const double values[] = {0, 1, -1.5, 2.5, 1e10, -1e10, NAN, INFINITY, 1e-3};
    static const int64_t shapes[][2] = {{1, 1}, {7, 1}, {65537, 1}, {3, 1025}, {0, 5}};
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        for (int dt = 0; dt < DT_COUNT; dt++)
            for (size_t v = 0; v < sizeof values / sizeof *values; v++) {
                set_ctx("fill %s [%lld,%lld] value %g", ir_dtype_name((DType)dt), (long long)shapes[s][0],
                        (long long)shapes[s][1], values[v]);
                RtTensor *oc, *og;
                make_out((DType)dt, 2, shapes[s], &oc, &og);
                if (CPU->fill(oc, values[v])) fail("cpu backend failed: %s", rt_message());
                else if (GPU->fill(og, values[v])) fail("cuda backend failed: %s", rt_message());
                else compare(oc, og, 0, 0);
                rt_release(oc), rt_release(og);
            }
}

/* ---- reductions ------------------------------------------------------------------------------ */

typedef struct {
    int rank;
    int64_t shape[4];
    ViewKind view;
    int nmask;
    unsigned masks[6];
} RedCase;

static const RedCase red_cases[] = {
    {1, {1}, V_CONTIG, 1, {1}},
    {1, {1000}, V_CONTIG, 2, {1, 0}},
    {1, {65537}, V_CONTIG, 1, {1}},
    {1, {(1 << 22) + 3}, V_CONTIG, 1, {1}},
    {2, {3, 1025}, V_CONTIG, 3, {1, 2, 3}},
    {2, {3, 1025}, V_T, 3, {1, 2, 3}},
    {2, {1025, 3}, V_CONTIG, 2, {1, 2}},
    {2, {33, 4099}, V_CONTIG, 3, {1, 2, 3}},
    {2, {512, 300}, V_CONTIG, 2, {2, 1}},
    {2, {4096, 100}, V_CONTIG, 2, {2, 1}},
    {2, {20000, 7}, V_CONTIG, 2, {2, 1}},
    {2, {33, 65}, V_SLICE, 3, {1, 2, 3}},
    {2, {17, 300}, V_REV, 2, {2, 1}},
    {4, {4, 5, 6, 7}, V_CONTIG, 6, {0xa, 0x5, 0xf, 0x0, 0x8, 0x6}},
    {4, {4, 5, 6, 7}, V_T, 3, {0xa, 0xc, 0x1}},
    {0, {0}, V_CONTIG, 1, {0}},
    {2, {0, 5}, V_CONTIG, 2, {2, 1}},
    {2, {5, 0}, V_CONTIG, 2, {2, 3}},
};

static int red_dtypes(Op op, DType *out) {
    int n = 0;
    switch (op) {
    case OP_SUM: case OP_PROD: out[n++] = DT_INT64; /* fall through */
    case OP_MEAN:
        out[n++] = DT_FLOAT32, out[n++] = DT_FLOAT64, out[n++] = DT_BFLOAT16, out[n++] = DT_FLOAT16;
        break;
    default:
        for (int d = 0; d < DT_COUNT; d++) out[n++] = (DType)d;
        break;
    }
    return n;
}

static Range red_range(Op op, DType dt) {
    bool flt = ir_dtype_is_float(dt);
    switch (op) {
    case OP_SUM: case OP_MEAN: return flt ? (Range){-0.25, 1, 0, 0} : (Range){-1000, 1000, 1, 0};
    case OP_PROD: return flt ? (Range){0.999, 1.001, 0, 0} : (Range){-3, 4, 1, 0};
    default: return flt ? (Range){-4, 4, 0.25, 0} : (Range){-5, 5, 1, 0};
    }
}

static void check_red(Op op, DType dt, const RedCase *rc, unsigned mask, bool nan) {
    char sh[128];
    shape_str(rc->rank, rc->shape, sh, sizeof sh);
    set_ctx("%s %s %s %s axes-mask 0x%x%s", ir_ops[op].name, ir_dtype_name(dt), sh, view_names[rc->view], mask,
            nan ? " with NaNs" : "");
    Spec s = {rc->rank, {0}, rc->view};
    memcpy(s.shape, rc->shape, sizeof rc->shape);
    Range r = red_range(op, dt);
    if (nan) r.nan_frac = 0.001;
    RtTensor *c, *g;
    make_pair(dt, &s, r, &c, &g);
    int64_t oshape[IR_MAX_RANK];
    for (int i = 0; i < rc->rank; i++) oshape[i] = (mask >> i) & 1 ? 1 : rc->shape[i];
    DType odt = ir_ops[op].rule == R_ARG ? DT_INT64 : dt;
    RtTensor *oc, *og;
    make_out(odt, rc->rank, oshape, &oc, &og);
    if (CPU->reduce(op, oc, c, mask)) fail("cpu backend failed: %s", rt_message());
    else if (GPU->reduce(op, og, g, mask)) fail("cuda backend failed: %s", rt_message());
    else compare(oc, og, 1e-4, 1e-12);
    rt_release(c), rt_release(g), rt_release(oc), rt_release(og);
}

static void test_reduce(void) {
    static const Op ops[] = {OP_SUM, OP_MEAN, OP_MAX, OP_MIN, OP_PROD, OP_ARGMAX, OP_ARGMIN};
    for (size_t o = 0; o < sizeof ops / sizeof *ops; o++) {
        Op op = ops[o];
        DType dts[DT_COUNT];
        int ndt = red_dtypes(op, dts);
        bool arg = ir_ops[op].rule == R_ARG, noident = arg || op == OP_MAX || op == OP_MIN;
        for (int d = 0; d < ndt; d++)
            for (size_t i = 0; i < sizeof red_cases / sizeof *red_cases; i++) {
                const RedCase *rc = &red_cases[i];
                unsigned masks[8];
                int nm = 0;
                if (arg) { /* one axis at a time */
                    for (int ax = 0; ax < rc->rank; ax++) masks[nm++] = 1u << ax;
                } else {
                    for (int m = 0; m < rc->nmask; m++) masks[nm++] = rc->masks[m];
                }
                for (int m = 0; m < nm; m++) {
                    bool empty_axis = false;
                    for (int ax = 0; ax < rc->rank; ax++)
                        if (((masks[m] >> ax) & 1) && rc->shape[ax] == 0) empty_axis = true;
                    if (noident && empty_axis) continue; /* rejected by the IR: no identity */
                    check_red(op, dts[d], rc, masks[m], false);
                    bool flt = ir_dtype_is_float(dts[d]);
                    if (flt && (op == OP_MAX || op == OP_MIN || arg || op == OP_SUM) && rc->rank >= 1 &&
                        rc->shape[0] >= 1000)
                        check_red(op, dts[d], rc, masks[m], true);
                }
            }
    }
}

/* ---- matmul ---------------------------------------------------------------------------------- */

typedef struct {
    Spec a, b;
} MmCase;

static const MmCase mm_cases[] = {
    {{2, {1, 1}, V_CONTIG}, {2, {1, 1}, V_CONTIG}},
    {{2, {7, 13}, V_CONTIG}, {2, {13, 5}, V_CONTIG}},
    {{2, {64, 64}, V_CONTIG}, {2, {64, 64}, V_CONTIG}},
    {{2, {129, 257}, V_CONTIG}, {2, {257, 65}, V_CONTIG}},
    {{2, {1000, 3}, V_CONTIG}, {2, {3, 1000}, V_CONTIG}},
    {{2, {3, 0}, V_CONTIG}, {2, {0, 4}, V_CONTIG}},
    {{2, {0, 5}, V_CONTIG}, {2, {5, 4}, V_CONTIG}},
    {{2, {7, 13}, V_T}, {2, {13, 5}, V_CONTIG}},
    {{2, {7, 13}, V_CONTIG}, {2, {13, 5}, V_T}},
    {{2, {129, 257}, V_T}, {2, {257, 65}, V_T}},
    {{2, {33, 17}, V_SLICE}, {2, {17, 9}, V_REV}},
    {{3, {4, 7, 13}, V_CONTIG}, {3, {4, 13, 5}, V_CONTIG}},
    {{3, {4, 7, 13}, V_T}, {2, {13, 5}, V_CONTIG}},
    {{2, {7, 13}, V_CONTIG}, {3, {6, 13, 5}, V_T}},
    {{4, {2, 1, 7, 13}, V_CONTIG}, {4, {1, 3, 13, 5}, V_CONTIG}},
    {{4, {2, 3, 7, 13}, V_SLICE}, {4, {2, 3, 13, 5}, V_CONTIG}},
    {{3, {5, 64, 64}, V_MISALIGN}, {3, {5, 64, 64}, V_T}},
};

/* float products on both backends (the 2-byte floats: cuBLAS GemmEx with fp32 compute against
 * the CPU's widen-sgemm-round) */
static const DType mm_dtypes[4] = {DT_FLOAT32, DT_FLOAT64, DT_BFLOAT16, DT_FLOAT16};

static void test_matmul(void) {
    static const Range vals = {-1, 1, 0, 0};
    for (size_t i = 0; i < sizeof mm_cases / sizeof *mm_cases; i++)
        for (int di = 0; di < 4; di++) {
            const DType dt = mm_dtypes[di];
            const MmCase *mc = &mm_cases[i];
            int ra = mc->a.rank, rb = mc->b.rank, rank = ra > rb ? ra : rb;
            int64_t m = mc->a.shape[ra - 2], k = mc->a.shape[ra - 1], n = mc->b.shape[rb - 1];
            int64_t oshape[IR_MAX_RANK], ashape[IR_MAX_RANK], bshape[IR_MAX_RANK];
            for (int d = 0; d < rank - 2; d++) {
                int ia = d - (rank - ra), ib = d - (rank - rb);
                int64_t da = ia >= 0 ? mc->a.shape[ia] : 1, db = ib >= 0 ? mc->b.shape[ib] : 1;
                oshape[d] = ashape[d] = bshape[d] = da > db ? da : db;
            }
            oshape[rank - 2] = m, oshape[rank - 1] = n;
            ashape[rank - 2] = m, ashape[rank - 1] = k;
            bshape[rank - 2] = k, bshape[rank - 1] = n;
            char sa[128], sb[128];
            shape_str(ra, mc->a.shape, sa, sizeof sa);
            shape_str(rb, mc->b.shape, sb, sizeof sb);
            set_ctx("matmul %s %s(%s) @ %s(%s)", ir_dtype_name((DType)dt), sa, view_names[mc->a.view], sb,
                    view_names[mc->b.view]);
            RtTensor *ac, *ag, *bc, *bg, *oc, *og;
            make_pair((DType)dt, &mc->a, vals, &ac, &ag);
            make_pair((DType)dt, &mc->b, vals, &bc, &bg);
            RtTensor *vac = bview(ac, rank, ashape), *vag = bview(ag, rank, ashape);
            RtTensor *vbc = bview(bc, rank, bshape), *vbg = bview(bg, rank, bshape);
            make_out((DType)dt, rank, oshape, &oc, &og);
            if (CPU->matmul(oc, vac, vbc)) fail("cpu backend failed: %s", rt_message());
            else if (GPU->matmul(og, vag, vbg)) fail("cuda backend failed: %s", rt_message());
            else compare(oc, og, 1e-4, 1e-12);
            rt_release(ac), rt_release(ag), rt_release(bc), rt_release(bg), rt_release(oc), rt_release(og);
            rt_release(vac), rt_release(vag), rt_release(vbc), rt_release(vbg);
        }
}

/* ---- the public path: rt_apply on both backends ------------------------------------------------- */

/* Applies op to operands given as CPU tensors (copied to the GPU) or weak scalars, on both. */
static void check_apply(const char *label, Op op, RtTensor **cin, const double *scal, int nin, const Attrs *a,
                        double tol32, double tol64) {
    set_ctx("rt_apply %s: %s", ir_ops[op].name, label);
    RtOperand oc[3], og[3];
    RtTensor *gin[3] = {0};
    for (int k = 0; k < nin; k++) {
        if (cin[k]) gin[k] = need(to_backend(cin[k], GPU), "to gpu");
        oc[k] = (RtOperand){.t = cin[k], .value = scal ? scal[k] : 0};
        og[k] = (RtOperand){.t = gin[k], .value = scal ? scal[k] : 0};
    }
    RtTensor *rc = rt_apply(op, oc, nin, a);
    if (!rc) {
        fail("cpu rt_apply failed: %s", rt_message());
    } else {
        RtTensor *rg = rt_apply(op, og, nin, a);
        if (!rg) fail("cuda rt_apply failed: %s", rt_message());
        else if (rg->storage->backend != GPU) fail("result is not on the cuda backend");
        else compare(rc, rg, tol32, tol64);
        rt_release(rg);
    }
    rt_release(rc);
    for (int k = 0; k < nin; k++) rt_release(gin[k]);
}

static void test_apply(void) {
    Range vals = {-3, 3, 0.5, 0};
    int64_t s2[2] = {37, 1025}, s1[1] = {1025}, sk[1] = {13}, smk[2] = {7, 13}, skn[2] = {13, 5};
    DType dts[] = {DT_BOOL, DT_INT32, DT_INT64, DT_FLOAT32, DT_FLOAT64, DT_INT8, DT_UINT8, DT_INT16,
                   DT_UINT16, DT_UINT32, DT_UINT64, DT_BFLOAT16, DT_FLOAT16};
    const int ndts = (int)(sizeof dts / sizeof *dts);
    for (int i = 0; i < ndts; i++) {
        RtTensor *x = gen(dts[i], 2, s2, vals), *y = gen(dts[(i + 2) % ndts], 1, s1, vals);
        char lab[128];
        Attrs a;
        static const Op reds[] = {OP_SUM, OP_MEAN, OP_MAX, OP_MIN, OP_PROD, OP_ARGMAX, OP_ARGMIN};
        for (size_t r = 0; r < sizeof reds / sizeof *reds; r++)
            for (int keep = 0; keep < 2; keep++)
                for (int ax = -1; ax < 2; ax++) {
                    if (ax < 0 && ir_ops[reds[r]].rule == R_ARG) continue;
                    memset(&a, 0, sizeof a);
                    a.keepdims = keep;
                    if (ax >= 0) a.has_axes = true, a.naxes = 1, a.axes[0] = ax == 1 ? -1 : 0;
                    snprintf(lab, sizeof lab, "%s [37,1025] axes %s keepdims %d", ir_dtype_name(dts[i]),
                             ax < 0 ? "all" : ax ? "[-1]" : "[0]", keep);
                    RtTensor *in[1] = {x};
                    check_apply(lab, reds[r], in, NULL, 1, &a, 1e-4, 1e-12);
                }
        static const Op bins[] = {OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MAXIMUM, OP_LT, OP_EQ};
        for (size_t b = 0; b < sizeof bins / sizeof *bins; b++) {
            snprintf(lab, sizeof lab, "%s [37,1025] with %s [1025]", ir_dtype_name(dts[i]), ir_dtype_name(y->dtype));
            RtTensor *in[2] = {x, y};
            check_apply(lab, bins[b], in, NULL, 2, NULL, 1e-5, 1e-12);
            snprintf(lab, sizeof lab, "%s [37,1025] with a constant 2.5", ir_dtype_name(dts[i]));
            RtTensor *in2[2] = {x, NULL};
            double sc[2] = {0, 2.5};
            check_apply(lab, bins[b], in2, sc, 2, NULL, 1e-5, 1e-12);
        }
        memset(&a, 0, sizeof a);
        a.nperm = 0;
        RtTensor *in[1] = {x};
        snprintf(lab, sizeof lab, "%s transpose then exp", ir_dtype_name(dts[i]));
        RtTensor *t = ap1(OP_TRANSPOSE, x, &a);
        RtTensor *tin[1] = {t};
        check_apply(lab, OP_EXP, tin, NULL, 1, NULL, 1e-5, 1e-12);
        memset(&a, 0, sizeof a);
        a.nshape = 1, a.shape[0] = -1;
        snprintf(lab, sizeof lab, "%s reshape of a transposed view (copy)", ir_dtype_name(dts[i]));
        check_apply(lab, OP_RESHAPE, tin, NULL, 1, &a, 0, 0);
        for (int to = 0; to < 5; to++) {
            memset(&a, 0, sizeof a);
            a.has_dtype = true, a.dtype = dts[to];
            snprintf(lab, sizeof lab, "cast %s -> %s", ir_dtype_name(dts[i]), ir_dtype_name(dts[to]));
            check_apply(lab, OP_CAST, in, NULL, 1, &a, 0, 0);
        }
        rt_release(t), rt_release(x), rt_release(y);
    }
    /* matmul with 1-D operands (NumPy's rules) */
    for (int di = 0; di < 4; di++) {
        const DType dt = mm_dtypes[di];
        RtTensor *v = gen((DType)dt, 1, sk, vals), *m = gen((DType)dt, 2, smk, vals), *w = gen((DType)dt, 2, skn, vals);
        RtTensor *p1[2] = {v, w}, *p2[2] = {m, v}, *p3[2] = {v, v}, *p4[2] = {m, w};
        check_apply("[13] @ [13,5]", OP_MATMUL, p1, NULL, 2, NULL, 1e-4, 1e-12);
        check_apply("[7,13] @ [13]", OP_MATMUL, p2, NULL, 2, NULL, 1e-4, 1e-12);
        check_apply("[13] @ [13]", OP_MATMUL, p3, NULL, 2, NULL, 1e-4, 1e-12);
        check_apply("[7,13] @ [13,5]", OP_MATMUL, p4, NULL, 2, NULL, 1e-4, 1e-12);
        rt_release(v), rt_release(m), rt_release(w);
    }
    /* full */
    for (int i = 0; i < 5; i++) {
        Attrs a;
        memset(&a, 0, sizeof a);
        a.nshape = 2, a.shape[0] = 3, a.shape[1] = 1025, a.has_dtype = true, a.dtype = dts[i], a.value = -2.5;
        set_ctx("rt_full %s", ir_dtype_name(dts[i]));
        RtTensor *c = need(rt_full(CPU, dts[i], 2, a.shape, a.value), "full");
        RtTensor *g = rt_full(GPU, dts[i], 2, a.shape, a.value);
        if (!g) fail("cuda rt_full failed: %s", rt_message());
        else compare(c, g, 0, 0);
        rt_release(c), rt_release(g);
    }
}

/* ---- index-mapped ops: gather, scatter_add (rt_apply on both backends) ------------------------- */

static void test_index(void) {
    int64_t sd[3] = {37, 129, 5}, si[2] = {17, 33};
    DType dts[] = {DT_BOOL, DT_INT32, DT_INT64, DT_FLOAT32, DT_FLOAT64};
    for (int i = 0; i < 5; i++)
        for (int ax = 0; ax < 3; ax++)
            for (int it = DT_INT32; it <= DT_INT64; it++) {
                RtTensor *d = gen(dts[i], 3, sd, (Range){-3, 3, 0.25, 0});
                RtTensor *ix = gen((DType)it, 2, si, (Range){(double)-sd[ax], (double)sd[ax], 1, 0});
                Attrs a;
                memset(&a, 0, sizeof a);
                a.axis = ax == 2 ? -1 : ax;
                char lab[160];
                snprintf(lab, sizeof lab, "%s [37,129,5] axis %d, %s indices [17,33] (negatives too)", ir_dtype_name(dts[i]),
                         a.axis, ir_dtype_name((DType)it));
                RtTensor *gin[2] = {d, ix};
                check_apply(lab, OP_GATHER, gin, NULL, 2, &a, 0, 0);
                if (dts[i] != DT_BOOL) { /* repeated indices: atomics on the GPU, float sums to rounding */
                    int64_t su[4];
                    int r = 0;
                    for (int k = 0; k < 3; k++) {
                        if (k != ax) su[r++] = sd[k];
                        else su[r++] = si[0], su[r++] = si[1];
                    }
                    RtTensor *u = gen(dts[i], 4, su, (Range){-3, 3, 0.25, 0});
                    RtTensor *sin_[3] = {d, ix, u};
                    snprintf(lab, sizeof lab, "scatter_add %s [37,129,5] axis %d, %s indices", ir_dtype_name(dts[i]), a.axis,
                             ir_dtype_name((DType)it));
                    check_apply(lab, OP_SCATTER_ADD, sin_, NULL, 3, &a, 1e-5, 1e-12);
                    rt_release(u);
                }
                rt_release(d), rt_release(ix);
            }
    /* concat: three operands of two dtypes along each axis (row copies on the GPU) */
    for (int ax = 0; ax < 3; ax++) {
        int64_t s2[3] = {sd[0], sd[1], sd[2]};
        s2[ax] = 3;
        RtTensor *x = gen(DT_FLOAT32, 3, sd, (Range){-3, 3, 0, 0}), *y = gen(DT_INT64, 3, s2, (Range){-9, 9, 1, 0});
        RtTensor *cin[3] = {x, y, x};
        Attrs a;
        memset(&a, 0, sizeof a);
        a.axis = ax;
        char lab[96];
        snprintf(lab, sizeof lab, "float32 [37,129,5], int64, float32 along axis %d", ax);
        check_apply(lab, OP_CONCAT, cin, NULL, 3, &a, 0, 0);
        rt_release(x), rt_release(y);
    }
    /* pad: every axis, then two at once (a pass per padded axis) */
    for (int ax = 0; ax < 4; ax++) {
        RtTensor *x = gen(DT_FLOAT64, 3, sd, (Range){-3, 3, 0, 0});
        Attrs a;
        memset(&a, 0, sizeof a);
        a.npads = 6, a.value = -0.5;
        if (ax < 3) a.pads[ax] = 2, a.pads[3 + ax] = 5;
        else a.pads[0] = 1, a.pads[5] = 3;
        char lab[96];
        snprintf(lab, sizeof lab, "float64 [37,129,5] pads %s", ax < 3 ? "on one axis" : "on two axes");
        RtTensor *pin[1] = {x};
        check_apply(lab, OP_PAD, pin, NULL, 1, &a, 0, 0);
        rt_release(x);
    }
    /* an index out of range: the same error on both, never a read out of bounds */
    int64_t s1[1] = {4}, s2[1] = {2};
    RtTensor *d = gen(DT_FLOAT32, 1, s1, (Range){-1, 1, 0, 0});
    int32_t bad[2] = {1, 4};
    RtTensor *ix = need(rt_from_host(CPU, DT_INT32, 1, s2, bad), "indices");
    RtTensor *gd = need(to_backend(d, GPU), "to gpu"), *gi = need(to_backend(ix, GPU), "to gpu");
    RtOperand o[2] = {{.t = gd}, {.t = gi}};
    set_ctx("gather: index 4 of an axis of 4");
    RtTensor *r = rt_apply(OP_GATHER, o, 2, NULL);
    if (r) fail("no error");
    else if (strcmp(rt_message(), "gather: index 4 is out of range for axis 0 of size 4")) fail("message: %s", rt_message());
    else pass(0);
    rt_release(r), rt_release(d), rt_release(ix), rt_release(gd), rt_release(gi);
}

/* dropout (the same philox bits: exact) and the composites through rt_apply (each a sequence of
 * primitives on either backend: float sums to rounding) */
static void test_nn(void) {
    int64_t sd[3] = {37, 129, 5}, s2[2] = {257, 10}, sl[1] = {257};
    const double ratios[3] = {0, 0.1, 0.7};
    const int64_t seeds[3] = {0, 12345, ((int64_t)1 << 40) + 3};
    for (int d = 0; d < 4; d++) /* float32, float64, bfloat16, float16 */
        for (int r = 0; r < 3; r++) {
            DType dt = mm_dtypes[d];
            RtTensor *x = gen(dt, 3, sd, (Range){-3, 3, 0, 0});
            RtTensor *seed = need(rt_from_host(CPU, DT_INT64, 0, NULL, &seeds[r]), "seed");
            Attrs a;
            memset(&a, 0, sizeof a);
            a.ratio = ratios[r];
            char lab[96];
            snprintf(lab, sizeof lab, "%s [37,129,5] ratio %g seed %lld", ir_dtype_name(dt), a.ratio, (long long)seeds[r]);
            RtTensor *din[2] = {x, seed};
            check_apply(lab, OP_DROPOUT, din, NULL, 2, &a, 0, 0);
            rt_release(x), rt_release(seed);
        }
    for (int d = 0; d < 2; d++) {
        DType dt = d ? DT_FLOAT64 : DT_FLOAT32;
        RtTensor *x = gen(dt, 3, sd, (Range){-4, 4, 0, 0}), *l = gen(dt, 2, s2, (Range){-4, 4, 0, 0});
        RtTensor *sc = gen(dt, 2, sd + 1, (Range){0.5, 2, 0, 0}), *bi = gen(dt, 2, sd + 1, (Range){-1, 1, 0, 0});
        RtTensor *t = gen(DT_INT64, 1, sl, (Range){0, 10, 1, 0}), *p = gen(dt, 2, s2, (Range){0, 1, 0, 0});
        char lab[96];
        for (int ax = -1; ax < 3; ax++) {
            Attrs a;
            memset(&a, 0, sizeof a);
            a.axis = ax, a.has_axis = true;
            RtTensor *in1[1] = {x};
            snprintf(lab, sizeof lab, "%s [37,129,5] axis %d", ir_dtype_name(dt), ax);
            check_apply(lab, OP_SOFTMAX, in1, NULL, 1, &a, 1e-5, 1e-12);
            check_apply(lab, OP_LOG_SOFTMAX, in1, NULL, 1, &a, 1e-5, 1e-12);
        }
        Attrs ln;
        memset(&ln, 0, sizeof ln);
        ln.axis = 1, ln.has_axis = true;
        RtTensor *lin[3] = {x, sc, bi};
        snprintf(lab, sizeof lab, "%s [37,129,5] from axis 1", ir_dtype_name(dt));
        check_apply(lab, OP_LAYER_NORM, lin, NULL, 3, &ln, 1e-4, 1e-10);
        for (int k = 0; k < 2; k++) {
            Attrs g;
            memset(&g, 0, sizeof g);
            g.approx_tanh = k;
            RtTensor *in1[1] = {x};
            snprintf(lab, sizeof lab, "%s [37,129,5] %s", ir_dtype_name(dt), k ? "tanh" : "erf");
            check_apply(lab, OP_GELU, in1, NULL, 1, &g, 1e-5, 1e-12);
        }
        Attrs ce;
        memset(&ce, 0, sizeof ce);
        RtTensor *cin[2] = {l, t}, *pin[2] = {l, p};
        snprintf(lab, sizeof lab, "%s [257,10], class indices", ir_dtype_name(dt));
        check_apply(lab, OP_CROSS_ENTROPY, cin, NULL, 2, &ce, 1e-5, 1e-12);
        snprintf(lab, sizeof lab, "%s [257,10], probabilities", ir_dtype_name(dt));
        check_apply(lab, OP_CROSS_ENTROPY, pin, NULL, 2, &ce, 1e-5, 1e-12);
        rt_release(x), rt_release(l), rt_release(sc), rt_release(bi), rt_release(t), rt_release(p);
    }
}

/* ---- transfers, allocator, errors -------------------------------------------------------------- */

static void test_transfers(void) {
    static const int64_t sizes[] = {0, 1, 1000, (1 << 18) + 1, (3 << 20) + 7, 5 << 20};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        set_ctx("upload/download round trip of %lld float32", (long long)sizes[i]);
        RtTensor *c = gen(DT_FLOAT32, 1, &sizes[i], (Range){-1, 1, 0, 0});
        RtTensor *g = to_backend(c, GPU);
        if (!g) {
            fail("upload failed: %s", rt_message());
        } else {
            RtTensor *back = to_backend(g, CPU);
            if (!back) fail("download failed: %s", rt_message());
            else compare(c, back, 0, 0);
            rt_release(back);
        }
        rt_release(c), rt_release(g);
    }
}

static void test_allocator(void) {
    set_ctx("caching allocator: no cudaMalloc in steady state");
    int64_t shape[2] = {256, 1000};
    RtTensor *x = need(rt_rand(GPU, DT_FLOAT32, 2, shape, 7), "rand");
    Attrs a;
    memset(&a, 0, sizeof a);
    a.has_axes = true, a.naxes = 1, a.axes[0] = 1;
    size_t before = 0, after = 0;
    for (int it = 0; it < 50; it++) {
        if (it == 1) rt_cuda_mem_stats(NULL, NULL, &before);
        RtOperand o[2] = {{.t = x}, {.t = x}};
        RtTensor *y = need(rt_apply(OP_MUL, o, 2, NULL), "mul");
        RtOperand oy = {.t = y};
        RtTensor *s = need(rt_apply(OP_SUM, &oy, 1, &a), "sum");
        rt_release(y), rt_release(s);
    }
    rt_cuda_mem_stats(NULL, NULL, &after);
    if (after != before) fail("%zu cudaMalloc calls after warm-up (expected 0)", after - before);
    else pass(0);
    rt_release(x);

    set_ctx("out of memory is RT_EOOM and the context stays usable");
    int64_t huge[2] = {(int64_t)1 << 19, (int64_t)1 << 18}; /* 512 GiB of float32 */
    rt_clear_error();
    RtTensor *h = rt_empty(GPU, DT_FLOAT32, 2, huge);
    if (h) {
        fail("a 1 TiB allocation succeeded");
        rt_release(h);
    } else if (rt_status() != RT_EOOM) {
        fail("status %d, message: %s", (int)rt_status(), rt_message());
    } else {
        if (verbose) printf("     (message: %s)\n", rt_message());
        int64_t s[1] = {1000};
        RtTensor *c = gen(DT_FLOAT32, 1, s, (Range){-1, 1, 0, 0}), *g = to_backend(c, GPU);
        RtTensor *ec = g ? ap1(OP_EXP, c, NULL) : NULL, *eg = g ? rt_apply(OP_EXP, &(RtOperand){.t = g}, 1, NULL) : NULL;
        if (!eg) fail("an op after the failed allocation failed: %s", rt_message());
        else compare(ec, eg, 1e-5, 1e-12);
        rt_release(c), rt_release(g), rt_release(ec), rt_release(eg);
    }

    set_ctx("a second rt_cuda_init for another device fails cleanly");
    char err[256] = "";
    if (rt_cuda_init(rt_cuda_device() + 1, err, sizeof err) == 0 || !err[0]) fail("it did not fail");
    else pass(0);
    if (verbose) printf("     (message: %s)\n", err);
}

int main(int argc, char **argv) {
    bool self = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-v")) verbose = 1;
        else if (!strcmp(argv[i], "--self-test")) self = true;
        else {
            fprintf(stderr, "usage: test_gpu_ops [-v] [--self-test]\n");
            return 2;
        }
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    char err[512];
    if (self) {
        GPU = CPU;
        printf("test_gpu_ops: self-test, the CPU backend on both sides\n");
    } else if (rt_cuda_init(0, err, sizeof err)) {
        printf("test_gpu_ops: cannot run without a GPU: %s\n0 passed, 1 failed\n", err);
        return 1;
    } else {
        printf("test_gpu_ops: device %d: %s\n", rt_cuda_device(), rt_cuda_device_name());
    }
    struct {
        const char *name;
        void (*fn)(void);
    } groups[] = {
        {"elementwise", test_elementwise}, {"copy", test_copy}, {"fill", test_fill},
        {"reduce", test_reduce}, {"matmul", test_matmul}, {"rt_apply", test_apply}, {"index", test_index}, {"nn", test_nn},
        {"transfers", test_transfers}, {"allocator", test_allocator},
    };
    for (size_t i = 0; i < sizeof groups / sizeof *groups; i++) {
        if (self && groups[i].fn == test_allocator) continue;
        int p = npass, f = nfail;
        groups[i].fn();
        GPU->synchronize();
        printf("[%s] %d passed, %d failed\n", groups[i].name, npass - p, nfail - f);
    }
    rt_cuda_shutdown();
    printf("%d passed, %d failed\n", npass, nfail);
    return nfail ? 1 : 0;
}
