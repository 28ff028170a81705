/* tests/unit/test_autodiff.c: the autodiff pass (compiler/pass_autodiff.c) and the optimizers
 * (compiler/optim.c). Gradient checks: for every differentiable op (broadcasting cases included)
 * the differentiated graph is evaluated node by node in float64 with the runtime's eager ops
 * (rt_apply, CPU backend) and compared with central finite differences of the loss. Then
 * PyTorch's tie rule for max/min, the optimizer updates against formulas computed here, and the
 * pass's outputs, donations and errors. Links libgtc and libgtcrt. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../compiler/autodiff.h"
#include "../../compiler/pipeline.h"
#include "../../runtime/core/rt.h"

#define TEST(name) static void name(void **state __attribute__((unused)))

static Diag d;

/* JSON written with single quotes; converted to double quotes before reading. */
static Graph *read_graph(const char *sq) {
    char *text = strdup(sq);
    assert_non_null(text);
    for (char *p = text; *p; p++)
        if (*p == '\'') *p = '"';
    diag_init(&d, "g.json");
    Graph *g = ir_read_json(text, strlen(text), &d);
    free(text);
    if (!g) fail_msg("unexpected error: %s", d.msg);
    return g;
}

/* ---- evaluation with the runtime's eager ops ------------------------------------------------- */

static uint64_t rng = 88172645463325252ull;
static double urand(void) { /* xorshift64 in [0, 1) */
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

/* Every value of g, in order; vals[i] for inputs are borrowed from `in` (by input index). */
static RtTensor **eval(const Graph *g, RtTensor *const *in) {
    RtTensor **v = calloc((size_t)g->nnodes, sizeof *v);
    assert_non_null(v);
    for (int i = 0; i < g->nnodes; i++) {
        const Node *n = &g->nodes[i];
        if (n->op == OP_INPUT) {
            v[i] = rt_retain(in[n->input_index]);
            continue;
        }
        RtOperand ops[IR_MAX_INPUTS];
        memset(ops, 0, sizeof ops);
        for (int k = 0; k < n->ninputs; k++) {
            if (n->in[k].id >= 0) ops[k].t = v[n->in[k].id];
            else ops[k].value = n->in[k].value;
        }
        v[i] = rt_apply(n->op, ops, n->ninputs, &n->attrs);
        if (!v[i]) fail_msg("rt_apply(%s) for \"%s\": %s", ir_ops[n->op].name, n->name, rt_message());
        TensorType t = rt_type(v[i]);
        if (!ir_type_equal(&t, &n->type)) fail_msg("\"%s\": runtime type differs from the IR's", n->name);
    }
    return v;
}

static void free_vals(const Graph *g, RtTensor **v) {
    for (int i = 0; i < g->nnodes; i++) rt_release(v[i]);
    free(v);
}

static double elem(const RtTensor *t, int64_t i) { /* element i of a value, as a double */
    RtTensor *c = rt_cast((RtTensor *)t, DT_FLOAT64);
    assert_non_null(c);
    double x = ((const double *)rt_data(c))[i];
    rt_release(c);
    return x;
}

static double loss_at(const Graph *g, RtTensor *const *in, NodeId loss) {
    RtTensor **v = eval(g, in);
    double l = elem(v[loss], 0);
    free_vals(g, v);
    return l;
}

/* Random float64 inputs in [lo, hi) (bool inputs: random 0/1). */
static RtTensor **make_inputs(const Graph *g, double lo, double hi) {
    RtTensor **in = calloc((size_t)g->ninputs + 1, sizeof *in);
    assert_non_null(in);
    for (int i = 0; i < g->nnodes; i++) {
        const Node *n = &g->nodes[i];
        if (n->op != OP_INPUT) continue;
        int64_t cnt = ir_numel(&n->type);
        double *buf = malloc(((size_t)cnt + 1) * sizeof *buf);
        assert_non_null(buf);
        for (int64_t k = 0; k < cnt; k++) buf[k] = lo + (hi - lo) * urand();
        RtTensor *t = rt_from_host(&rt_cpu_backend, DT_FLOAT64, n->type.rank, n->type.dims, buf);
        assert_non_null(t);
        free(buf);
        in[n->input_index] = n->type.dtype == DT_FLOAT64 ? t : rt_cast(t, n->type.dtype);
        if (in[n->input_index] != t) rt_release(t);
    }
    return in;
}

/* Differentiates `loss` with respect to the named params (comma-separated) and compares every
 * gradient element with central differences of step h: |ad - fd| <= tol * (1 + |fd|). */
static void gradcheck_range(const char *json, const char *params, double lo, double hi, double h, double tol) {
    Graph *g = read_graph(json);
    NodeId loss = graph_find(g, "loss");
    assert_true(loss >= 0);
    NodeId ps[8];
    int np = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", params);
    for (char *s = strtok(buf, ","); s; s = strtok(NULL, ",")) {
        ps[np] = graph_find(g, s);
        if (ps[np] < 0) fail_msg("no param %s", s);
        np++;
    }
    RtTensor **in = make_inputs(g, lo, hi);
    Builder b;
    ad_begin(&b, g, &d);
    NodeId grads[8];
    if (autodiff_grads(&b, loss, ps, np, NULL, 0, grads, NULL)) fail_msg("autodiff: %s", d.msg);
    if (ad_finish(&b)) fail_msg("naming: %s", d.msg);
    Diag v;
    diag_init(&v, "ad");
    if (ir_verify(g, &v)) fail_msg("differentiated graph is invalid: %s", v.msg);
    RtTensor **vals = eval(g, in);
    for (int p = 0; p < np; p++) {
        const Node *pn = &g->nodes[ps[p]];
        assert_true(ir_type_equal(&g->nodes[grads[p]].type, &pn->type));
        RtTensor *x = in[pn->input_index];
        double *data = rt_data(x);
        for (int64_t k = 0; k < rt_numel(x); k++) {
            double keep = data[k];
            data[k] = keep + h;
            double up = loss_at(g, in, loss);
            data[k] = keep - h;
            double down = loss_at(g, in, loss);
            data[k] = keep;
            double fd = (up - down) / (2 * h), ad = elem(vals[grads[p]], k);
            if (!(fabs(ad - fd) <= tol * (1 + fabs(fd))))
                fail_msg("d loss / d %s[%lld]: autodiff %.12g, finite differences %.12g\n%s", pn->name,
                         (long long)k, ad, fd, json);
        }
    }
    free_vals(g, vals);
    for (int i = 0; i < g->ninputs; i++) rt_release(in[i]);
    free(in);
    graph_free(g);
}

static void gradcheck(const char *json, const char *params) { gradcheck_range(json, params, -1, 1, 1e-6, 1e-6); }
static void gradcheck_pos(const char *json, const char *params) { gradcheck_range(json, params, 0.5, 2, 1e-6, 1e-6); }

/* A graph: inputs (JSON list items), nodes computing "y", and loss = sum(sin(y)) * 0.7. */
#define G(INPUTS, NODES)                                                                        \
    "{'format': 'gtc-graph', 'version': 1, 'name': 'g', 'inputs': [" INPUTS "], 'nodes': [" NODES \
    ", {'name': 'sy', 'op': 'sin', 'inputs': ['y']}, {'name': 's', 'op': 'sum', 'inputs': ['sy']}," \
    " {'name': 'loss', 'op': 'mul', 'inputs': ['s', 0.7]}], 'outputs': {'loss': 'loss'}}"
#define IN(name, shape) "{'name': '" name "', 'dtype': 'float64', 'shape': " shape "}"
#define IN32(name, shape) "{'name': '" name "', 'dtype': 'float32', 'shape': " shape "}"
#define N1(op, a) "{'name': 'y', 'op': '" op "', 'inputs': ['" a "']}"
#define N2(op, a, b) "{'name': 'y', 'op': '" op "', 'inputs': [" a ", " b "]}"

/* ---- elementwise, with broadcasting ---------------------------------------------------------- */

TEST(grad_add__broadcast__sums_over_broadcast_axes) {
    gradcheck(G(IN("a", "[2,3]") "," IN("b", "[3]"), N2("add", "'a'", "'b'")), "a,b");
    gradcheck(G(IN("a", "[2,1]") "," IN("b", "[1,3]"), N2("add", "'a'", "'b'")), "a,b");
    gradcheck(G(IN("a", "[4,1,3]") "," IN("b", "[2,3]"), N2("add", "'a'", "'b'")), "a,b");
    gradcheck(G(IN("a", "[2,3]") "," IN("b", "[]"), N2("add", "'a'", "'b'")), "a,b");
    gradcheck(G(IN("a", "[2,3]"), N2("add", "'a'", "'a'")), "a"); /* one value, two operands */
}

TEST(grad_sub_mul_div__broadcast__match_finite_differences) {
    gradcheck(G(IN("a", "[2,3]") "," IN("b", "[2,1]"), N2("sub", "'a'", "'b'")), "a,b");
    gradcheck(G(IN("a", "[4,1,3]") "," IN("b", "[2,3]"), N2("mul", "'a'", "'b'")), "a,b");
    gradcheck(G(IN("a", "[2,3]"), N2("mul", "'a'", "'a'")), "a");
    gradcheck(G(IN("a", "[2,3]"), N2("mul", "2.5", "'a'")), "a");
    gradcheck_pos(G(IN("a", "[2,3]") "," IN("b", "[3]"), N2("div", "'a'", "'b'")), "a,b");
    gradcheck_pos(G(IN("a", "[2,3]"), N2("div", "3", "'a'")), "a");
}

TEST(grad_pow__tensor_and_constant_exponents__match_finite_differences) {
    gradcheck_pos(G(IN("a", "[2,3]") "," IN("b", "[3]"), N2("pow", "'a'", "'b'")), "a,b");
    gradcheck_pos(G(IN("a", "[2,3]"), N2("pow", "'a'", "2.5")), "a");
    gradcheck_pos(G(IN("a", "[2,3]"), N2("pow", "'a'", "3")), "a");
    gradcheck_pos(G(IN("b", "[2,3]"), N2("pow", "1.5", "'b'")), "b");
}

TEST(grad_maximum_minimum__broadcast__match_finite_differences) {
    gradcheck(G(IN("a", "[2,3]") "," IN("b", "[3]"), N2("maximum", "'a'", "'b'")), "a,b");
    gradcheck(G(IN("a", "[2,3]") "," IN("b", "[2,1]"), N2("minimum", "'a'", "'b'")), "a,b");
    gradcheck(G(IN("a", "[2,3]"), N2("maximum", "'a'", "0.1")), "a");
}

TEST(grad_unary__every_op__match_finite_differences) {
    static const char *const any[] = {"neg", "abs", "exp", "sin", "cos", "tan", "tanh", "sigmoid", "relu", "erf"};
    static const char *const pos[] = {"log", "sqrt", "rsqrt"};
    char buf[1024];
    for (size_t i = 0; i < sizeof any / sizeof *any; i++) {
        snprintf(buf, sizeof buf, G(IN("a", "[3,4]"), "{'name': 'y', 'op': '%s', 'inputs': ['a']}"), any[i]);
        gradcheck(buf, "a");
    }
    for (size_t i = 0; i < sizeof pos / sizeof *pos; i++) {
        snprintf(buf, sizeof buf, G(IN("a", "[3,4]"), "{'name': 'y', 'op': '%s', 'inputs': ['a']}"), pos[i]);
        gradcheck_pos(buf, "a");
    }
}

/* Indices ix from a float input fi in [-1, 1): cast(fi * 3) in -2..2 (negatives count from the
 * end of an axis of 3), repeated, so the scatter accumulates; fi is not a parameter. */
#define IX(dt) "{'name': 'f3', 'op': 'mul', 'inputs': ['fi', 3]}, {'name': 'ix', 'op': 'cast', 'inputs': ['f3'], 'dtype': '" dt "'}, "

TEST(grad_gather_scatter_add__indices_repeat__match_finite_differences) {
    gradcheck(G(IN("a", "[3,4]") "," IN("fi", "[2,5]"), IX("int32") "{'name': 'y', 'op': 'gather', 'inputs': ['a', 'ix']}"), "a");
    gradcheck(G(IN("a", "[2,3,2]") "," IN("fi", "[4]"),
                IX("int64") "{'name': 'y', 'op': 'gather', 'inputs': ['a', 'ix'], 'axis': -2}"), "a");
    gradcheck(G(IN("a", "[4,3]") "," IN("fi", "[5]") "," IN("u", "[4,5]"),
                IX("int32") "{'name': 'y', 'op': 'scatter_add', 'inputs': ['a', 'ix', 'u'], 'axis': 1}"), "a,u");
}

TEST(grad_concat__slices_per_operand__match_finite_differences) {
    gradcheck(G(IN("a", "[2,3]") "," IN("b", "[2,1]") "," IN("c", "[2,2]"),
                "{'name': 'y', 'op': 'concat', 'inputs': ['a', 'b', 'c', 'a'], 'axis': -1}"), "a,b,c");
    gradcheck(G(IN("a", "[1,3]") "," IN("b", "[2,3]"), "{'name': 'y', 'op': 'concat', 'inputs': ['b', 'a']}"), "a,b");
}

/* dropout's gradient is dropout of g with the same seed: the same mask and scale. The seed comes
 * from a float input (cast(fs * 1000)), which is not a parameter. */
#define SEED "{'name': 'fs1', 'op': 'mul', 'inputs': ['fs', 1000]}, {'name': 'seed', 'op': 'cast', 'inputs': ['fs1'], 'dtype': 'int64'}, "
TEST(grad_dropout__same_mask__match_finite_differences) {
    gradcheck(G(IN("a", "[3,5]") "," IN("fs", "[]"), SEED "{'name': 'y', 'op': 'dropout', 'inputs': ['a', 'seed'], 'ratio': 0.5}"), "a");
    gradcheck(G(IN("a", "[7]") "," IN("fs", "[]"), SEED "{'name': 'y', 'op': 'dropout', 'inputs': ['a', 'seed'], 'ratio': 0}"), "a");
}

/* The composites differentiate through their primitives; softmax's max is held by
 * stop_gradient, so no gradient is built for it. */
TEST(grad_composites__through_primitives__match_finite_differences) {
    gradcheck(G(IN("a", "[3,4]"), "{'name': 'y', 'op': 'softmax', 'inputs': ['a']}"), "a");
    gradcheck(G(IN("a", "[3,4]"), "{'name': 'y', 'op': 'softmax', 'inputs': ['a'], 'axis': 0}"), "a");
    gradcheck(G(IN("a", "[2,3,4]"), "{'name': 'y', 'op': 'log_softmax', 'inputs': ['a'], 'axis': 1}"), "a");
    gradcheck(G(IN("a", "[3,4]") "," IN("sc", "[4]") "," IN("b", "[4]"),
                "{'name': 'y', 'op': 'layer_norm', 'inputs': ['a', 'sc', 'b']}"), "a,sc,b");
    gradcheck(G(IN("a", "[2,3,2]") "," IN("sc", "[3,2]") "," IN("b", "[3,2]"),
                "{'name': 'y', 'op': 'layer_norm', 'inputs': ['a', 'sc', 'b'], 'axis': 1, 'epsilon': 0.01}"), "a,sc,b");
    gradcheck(G(IN("a", "[2,5]"), "{'name': 'y', 'op': 'gelu', 'inputs': ['a']}"), "a");
    gradcheck(G(IN("a", "[2,5]"), "{'name': 'y', 'op': 'gelu', 'inputs': ['a'], 'approximate': 'tanh'}"), "a");
    /* class indices from a float input: cast((ft + 1) * 2) in 0..3 */
    gradcheck(G(IN("a", "[3,4]") "," IN("ft", "[3]"),
                "{'name': 'ft1', 'op': 'add', 'inputs': ['ft', 1]}, {'name': 'ft2', 'op': 'mul', 'inputs': ['ft1', 2]},"
                " {'name': 't', 'op': 'cast', 'inputs': ['ft2'], 'dtype': 'int32'},"
                " {'name': 'y', 'op': 'cross_entropy', 'inputs': ['a', 't']}"), "a");
    gradcheck(G(IN("a", "[2,3,2]") "," IN("p", "[2,3,2]"),
                "{'name': 'y', 'op': 'cross_entropy', 'inputs': ['a', 'p'], 'axis': 1}"), "a,p");
    Graph *g = read_graph(G(IN("a", "[3,4]"), "{'name': 'y', 'op': 'softmax', 'inputs': ['a']}"));
    NodeId p = graph_find(g, "a"), grad;
    Builder b;
    ad_begin(&b, g, &d);
    assert_int_equal(autodiff_grads(&b, graph_find(g, "loss"), &p, 1, NULL, 0, &grad, NULL), 0);
    assert_int_equal(ad_finish(&b), 0);
    for (int i = 0; i < g->nnodes; i++)
        if (strstr(g->nodes[i].name, "d_y__max")) fail_msg("the max got a gradient: %s", g->nodes[i].name);
    graph_free(g);
}

/* pad's gradient is a slice, slice's (step 1) a pad with zeros */
TEST(grad_pad_slice__interior_and_zeros__match_finite_differences) {
    gradcheck(G(IN("a", "[2,3]"), "{'name': 'y', 'op': 'pad', 'inputs': ['a'], 'pads': [1, 0, 2, 3], 'value': 0.5}"), "a");
    gradcheck(G(IN("a", "[4,5]"), "{'name': 'y', 'op': 'slice', 'inputs': ['a'], 'starts': [1, -3], 'ends': [3, 100]}"), "a");
    gradcheck(G(IN("a", "[4,5]"), "{'name': 'y', 'op': 'slice', 'inputs': ['a'], 'starts': [2], 'ends': [3], 'axes': [1],"
                                  " 'steps': [5]}"), "a"); /* one element: the step does not matter */
}

/* a step s > 1: g spread with s - 1 zeros after each element, then padded */
TEST(grad_slice_strided__spread_and_pad__match_finite_differences) {
    gradcheck(G(IN("a", "[7,5]"), "{'name': 'y', 'op': 'slice', 'inputs': ['a'], 'starts': [1, 0], 'ends': [7, 5],"
                                  " 'steps': [2, 3]}"), "a");
    gradcheck(G(IN("a", "[2,9]"), "{'name': 'y', 'op': 'slice', 'inputs': ['a'], 'starts': [-8], 'ends': [100], 'axes': [1],"
                                  " 'steps': [4]}"), "a");
}

/* conv2d and the pools are composites of strided slices, pad, concat, matmul, maximum, add:
 * their gradients come from those rules. Random inputs have no ties in a max. */
TEST(grad_conv2d_pools__through_primitives__match_finite_differences) {
    gradcheck(G(IN("x", "[2,3,5,6]") "," IN("w", "[4,3,3,2]") "," IN("b", "[4]"),
                "{'name': 'y', 'op': 'conv2d', 'inputs': ['x', 'w', 'b'], 'strides': [2, 1], 'pads': [1, 0, 2, 1],"
                " 'dilations': [1, 2]}"), "x,w,b");
    gradcheck(G(IN("x", "[1,4,4,5]") "," IN("w", "[6,2,2,3]"),
                "{'name': 'y', 'op': 'conv2d', 'inputs': ['x', 'w'], 'group': 2, 'strides': [1, 2], 'pads': [1, 1, 1, 1]}"),
              "x,w");
    gradcheck(G(IN("x", "[2,2,6,5]"), "{'name': 'y', 'op': 'max_pool2d', 'inputs': ['x'], 'kernel_shape': [3, 2],"
                                      " 'strides': [2, 1], 'pads': [1, 0, 2, 1]}"), "x");
    gradcheck(G(IN("x", "[2,2,6,5]"), "{'name': 'y', 'op': 'avg_pool2d', 'inputs': ['x'], 'kernel_shape': [3, 3],"
                                      " 'strides': [2, 2], 'pads': [1, 2, 1, 0]}"), "x");
    gradcheck(G(IN("x", "[1,2,5,5]"), "{'name': 'y', 'op': 'avg_pool2d', 'inputs': ['x'], 'kernel_shape': [2, 3],"
                                      " 'pads': [1, 1, 1, 1], 'count_include_pad': 1}"), "x");
}

TEST(grad_floor_ceil_round_sign__piecewise_constant__are_zero) {
    static const char *const ops[] = {"floor", "ceil", "round", "sign"};
    char buf[1024];
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
        /* y = op(3a) + a: the derivative is 1 away from the steps (random inputs miss them) */
        snprintf(buf, sizeof buf,
                 G(IN("a", "[3,4]"), "{'name': 'a3', 'op': 'mul', 'inputs': ['a', 3]}, {'name': 'f', 'op': '%s', "
                                     "'inputs': ['a3']}, {'name': 'y', 'op': 'add', 'inputs': ['f', 'a']}"),
                 ops[i]);
        gradcheck(buf, "a");
    }
}

TEST(grad_where_clamp__tensors_and_constants__match_finite_differences) {
    gradcheck(G(IN("k", "[2,3]") "," IN("a", "[2,3]") "," IN("b", "[3]"),
                "{'name': 'c', 'op': 'gt', 'inputs': ['k', 0]}, {'name': 'y', 'op': 'where', 'inputs': ['c', 'a', 'b']}"),
              "a,b");
    gradcheck(G(IN("k", "[2,3]") "," IN("a", "[2,1]"),
                "{'name': 'c', 'op': 'gt', 'inputs': ['k', 0]}, {'name': 'y', 'op': 'where', 'inputs': ['c', 0.5, 'a']}"),
              "a");
    /* clamp over tensors: lo in [-1,1), hi = lo + (something in [-1,1)): some lo > hi */
    gradcheck(G(IN("x", "[4,3]") "," IN("lo", "[3]") "," IN("dh", "[4,3]"),
                "{'name': 'hi', 'op': 'add', 'inputs': ['lo', 'dh']}, {'name': 'y', 'op': 'clamp', 'inputs': ['x', 'lo', 'hi']}"),
              "x,lo,dh");
    gradcheck(G(IN("x", "[4,3]"), "{'name': 'y', 'op': 'clamp', 'inputs': ['x', -0.5, 0.5]}"), "x");
}

TEST(grad_cast__float32_and_back__converts_the_gradient) {
    /* float32 in the middle: looser steps and bounds */
    gradcheck_range(G(IN("a", "[2,3]"), "{'name': 'c', 'op': 'cast', 'inputs': ['a'], 'dtype': 'float32'}, "
                                        "{'name': 'y', 'op': 'mul', 'inputs': ['c', 'c']}"),
                    "a", -1, 1, 1e-2, 1e-3);
    gradcheck(G(IN("a", "[2,3]"), "{'name': 'y', 'op': 'cast', 'inputs': ['a'], 'dtype': 'float64'}"), "a");
}

/* ---- reductions -------------------------------------------------------------------------------- */

TEST(grad_reductions__axes_and_keepdims__match_finite_differences) {
    gradcheck(G(IN("a", "[2,3,4]"), "{'name': 'y', 'op': 'sum', 'inputs': ['a'], 'axes': [1]}"), "a");
    gradcheck(G(IN("a", "[2,3,4]"), "{'name': 'y', 'op': 'sum', 'inputs': ['a']}"), "a");
    gradcheck(G(IN("a", "[2,3,4]"), "{'name': 'y', 'op': 'mean', 'inputs': ['a'], 'axes': [0, -1], 'keepdims': true}"), "a");
    gradcheck(G(IN("a", "[2,3,4]"), "{'name': 'y', 'op': 'mean', 'inputs': ['a']}"), "a");
    gradcheck(G(IN("a", "[2,3,4]"), "{'name': 'y', 'op': 'max', 'inputs': ['a'], 'axes': [1]}"), "a");
    gradcheck(G(IN("a", "[2,3,4]"), "{'name': 'y', 'op': 'min', 'inputs': ['a'], 'axes': [2], 'keepdims': true}"), "a");
    gradcheck(G(IN("a", "[2,3,4]"), "{'name': 'y', 'op': 'max', 'inputs': ['a']}"), "a");
    gradcheck_pos(G(IN("a", "[2,3,4]"), "{'name': 'y', 'op': 'prod', 'inputs': ['a'], 'axes': [1]}"), "a");
    gradcheck_pos(G(IN("a", "[2,3]"), "{'name': 'y', 'op': 'prod', 'inputs': ['a']}"), "a");
}

/* PyTorch's amax/amin: ties share the gradient evenly. */
TEST(grad_max_min__ties__split_evenly) {
    static const char *ops[] = {"max", "min"};
    for (int o = 0; o < 2; o++) {
        char buf[1024];
        snprintf(buf, sizeof buf,
                 "{'format': 'gtc-graph', 'version': 1, 'name': 'g', 'inputs': [" IN("a", "[2,3]") "], 'nodes': ["
                 "{'name': 'y', 'op': '%s', 'inputs': ['a'], 'axes': [1]}, {'name': 'loss', 'op': 'sum', 'inputs': ['y']}],"
                 " 'outputs': {'loss': 'loss'}}", ops[o]);
        Graph *g = read_graph(buf);
        NodeId p = graph_find(g, "a"), grad;
        Builder b;
        ad_begin(&b, g, &d);
        assert_int_equal(autodiff_grads(&b, graph_find(g, "loss"), &p, 1, NULL, 0, &grad, NULL), 0);
        assert_int_equal(ad_finish(&b), 0);
        double row[2][6] = {{1, 3, 3, 2, 2, 2}, {3, 1, 1, 2, 2, 2}}; /* max ties / min ties */
        double want[2][6] = {{0, 0.5, 0.5, 1. / 3, 1. / 3, 1. / 3}, {0, 0.5, 0.5, 1. / 3, 1. / 3, 1. / 3}};
        RtTensor *in = rt_from_host(&rt_cpu_backend, DT_FLOAT64, 2, (int64_t[]){2, 3}, row[o]);
        RtTensor **v = eval(g, &in);
        for (int k = 0; k < 6; k++) assert_float_equal(elem(v[grad], k), want[o][k], 1e-12);
        free_vals(g, v);
        rt_release(in);
        graph_free(g);
    }
}

/* relu's gradient as PyTorch's: g where x > 0, so 0 at -0, +0, NaN and -inf; tested on relu's
 * output (the same mask), which lets a forward step keep y = relu(x W + b) alone (cuBLASLt's
 * RELU_BIAS, docs/codegen.md): the mask's comparison reads y, not x. */
TEST(grad_relu__zeros_nan_infinities__mask_from_the_output) {
    Graph *g = read_graph("{'format': 'gtc-graph', 'version': 1, 'name': 'g', 'inputs': [" IN("a", "[8]") "], 'nodes': ["
                          "{'name': 'y', 'op': 'relu', 'inputs': ['a']}, {'name': 'loss', 'op': 'sum', 'inputs': ['y']}],"
                          " 'outputs': {'loss': 'loss'}}");
    NodeId p = graph_find(g, "a"), grad;
    Builder b;
    ad_begin(&b, g, &d);
    assert_int_equal(autodiff_grads(&b, graph_find(g, "loss"), &p, 1, NULL, 0, &grad, NULL), 0);
    assert_int_equal(ad_finish(&b), 0);
    int masks = 0;
    for (int i = 0; i < g->nnodes; i++)
        if (g->nodes[i].op == OP_GT) {
            assert_int_equal(g->nodes[i].in[0].id, graph_find(g, "y"));
            masks++;
        }
    assert_int_equal(masks, 1);
    double x[8] = {-1, -0.0, 0.0, 1, NAN, 4.9e-324, -INFINITY, INFINITY};
    const double want[8] = {0, 0, 0, 1, 0, 1, 0, 1};
    RtTensor *in = rt_from_host(&rt_cpu_backend, DT_FLOAT64, 1, (int64_t[]){8}, x);
    RtTensor **v = eval(g, &in);
    for (int k = 0; k < 8; k++)
        if (elem(v[grad], k) != want[k])
            fail_msg("d sum(relu(a)) / d a[%d] at %g: %g, want %g", k, x[k], elem(v[grad], k), want[k]);
    free_vals(g, v);
    rt_release(in);
    graph_free(g);
}

/* ---- matmul and views ---------------------------------------------------------------------------- */

TEST(grad_matmul__2d_batched_and_vectors__match_finite_differences) {
    gradcheck(G(IN("a", "[3,4]") "," IN("b", "[4,2]"), N2("matmul", "'a'", "'b'")), "a,b");
    gradcheck(G(IN("a", "[2,3,4]") "," IN("b", "[4,5]"), N2("matmul", "'a'", "'b'")), "a,b");
    gradcheck(G(IN("a", "[2,1,3,4]") "," IN("b", "[3,4,2]"), N2("matmul", "'a'", "'b'")), "a,b");
    gradcheck(G(IN("a", "[4]") "," IN("b", "[4,3]"), N2("matmul", "'a'", "'b'")), "a,b");
    gradcheck(G(IN("a", "[3,4]") "," IN("b", "[4]"), N2("matmul", "'a'", "'b'")), "a,b");
    gradcheck(G(IN("a", "[4]") "," IN("b", "[4]"), N2("matmul", "'a'", "'b'")), "a,b");
    gradcheck(G(IN("a", "[4]") "," IN("b", "[2,4,3]"), N2("matmul", "'a'", "'b'")), "a,b");
    gradcheck(G(IN("a", "[2,3,4]") "," IN("b", "[4]"), N2("matmul", "'a'", "'b'")), "a,b");
    gradcheck(G(IN("a", "[3,4]"), "{'name': 'at', 'op': 'transpose', 'inputs': ['a']}, " N2("matmul", "'a'", "'at'")), "a");
}

TEST(grad_views__reshape_transpose_broadcast_slice__match_finite_differences) {
    gradcheck(G(IN("a", "[2,3]"), "{'name': 'y', 'op': 'reshape', 'inputs': ['a'], 'shape': [3, -1]}"), "a");
    gradcheck(G(IN("a", "[2,3,4]"), "{'name': 'y', 'op': 'transpose', 'inputs': ['a'], 'perm': [2, 0, 1]}"), "a");
    gradcheck(G(IN("a", "[2,3,4]"), "{'name': 'y', 'op': 'transpose', 'inputs': ['a']}"), "a");
    gradcheck(G(IN("a", "[3]"), "{'name': 'y', 'op': 'broadcast_to', 'inputs': ['a'], 'shape': [2, 3]}"), "a");
    gradcheck(G(IN("a", "[2,1]"), "{'name': 'y', 'op': 'broadcast_to', 'inputs': ['a'], 'shape': [3, 2, 4]}"), "a");
    gradcheck(G(IN("a", "[2,3]"), "{'name': 'y', 'op': 'slice', 'inputs': ['a'], 'starts': [0], 'ends': [9]}"), "a");
}

/* ---- whole models ----------------------------------------------------------------------------------- */

TEST(grad_mlp_softmax_cross_entropy__matches_finite_differences) {
    gradcheck("{'format': 'gtc-graph', 'version': 1, 'name': 'g', 'inputs': [" IN("x", "[5,4]") "," IN("y", "[5,3]") ","
              IN("w1", "[4,6]") "," IN("b1", "[6]") "," IN("w2", "[6,3]") "," IN("b2", "[3]") "], 'nodes': ["
              "{'name': 'z1', 'op': 'matmul', 'inputs': ['x', 'w1']}, {'name': 'h1', 'op': 'add', 'inputs': ['z1', 'b1']},"
              "{'name': 'a1', 'op': 'tanh', 'inputs': ['h1']}, {'name': 'z2', 'op': 'matmul', 'inputs': ['a1', 'w2']},"
              "{'name': 'l', 'op': 'add', 'inputs': ['z2', 'b2']},"
              "{'name': 'm', 'op': 'max', 'inputs': ['l'], 'axes': [1], 'keepdims': true},"
              "{'name': 'sh', 'op': 'sub', 'inputs': ['l', 'm']}, {'name': 'e', 'op': 'exp', 'inputs': ['sh']},"
              "{'name': 'se', 'op': 'sum', 'inputs': ['e'], 'axes': [1], 'keepdims': true},"
              "{'name': 'lse', 'op': 'log', 'inputs': ['se']}, {'name': 'lp', 'op': 'sub', 'inputs': ['sh', 'lse']},"
              "{'name': 'ylp', 'op': 'mul', 'inputs': ['y', 'lp']}, {'name': 'r', 'op': 'sum', 'inputs': ['ylp'], 'axes': [1]},"
              "{'name': 'mr', 'op': 'mean', 'inputs': ['r']}, {'name': 'loss', 'op': 'neg', 'inputs': ['mr']}],"
              " 'outputs': {'loss': 'loss'}}",
              "w1,b1,w2,b2,x");
}

/* ---- the pass: optimizers, outputs, donations -------------------------------------------------------- */

/* loss = sum(w * r): the gradient is r, so updates are checked against formulas here. */
#define LIN(OPT)                                                                                      \
    "{'format': 'gtc-graph', 'version': 1, 'name': 'g', 'inputs': [" IN("w", "[3]") "," IN("r", "[3]") \
    "," IN("lr", "[]") "], 'nodes': [{'name': 'wr', 'op': 'mul', 'inputs': ['w', 'r']},"                 \
    "{'name': 'loss', 'op': 'sum', 'inputs': ['wr']}], 'outputs': {'loss': 'loss'},"                     \
    "'train': {'loss': 'loss', 'params': ['w'], 'optimizer': " OPT "}}"

/* Runs the pass on g, evaluates it on named inputs, returns the values (caller frees). */
static RtTensor **run_step(Graph *g, const char *const *names, RtTensor **ts, int n) {
    Diag pd;
    diag_init(&pd, "g.json");
    if (pass_autodiff(g, &pd)) fail_msg("pass: %s", pd.msg);
    assert_null(g->train);
    RtTensor **in = calloc((size_t)g->ninputs + 1, sizeof *in);
    assert_non_null(in);
    for (int i = 0; i < g->nnodes; i++) {
        const Node *nd = &g->nodes[i];
        if (nd->op != OP_INPUT) continue;
        for (int k = 0; k < n; k++)
            if (strcmp(nd->name, names[k]) == 0) in[nd->input_index] = ts[k];
        if (!in[nd->input_index]) fail_msg("test gives no input \"%s\"", nd->name);
    }
    RtTensor **v = eval(g, in);
    free(in);
    return v;
}

static RtTensor *vec(const double *x, int n) {
    return n ? rt_from_host(&rt_cpu_backend, DT_FLOAT64, 1, (int64_t[]){n}, x)
             : rt_from_host(&rt_cpu_backend, DT_FLOAT64, 0, NULL, x);
}

static double out_elem(const Graph *g, RtTensor **v, const char *name, int k) {
    for (int i = 0; i < g->noutputs; i++)
        if (strcmp(g->outputs[i].name, name) == 0) return elem(v[g->outputs[i].value], k);
    fail_msg("no output \"%s\"", name);
    return 0;
}

static bool donated(const Graph *g, const char *out, const char *input) {
    for (int i = 0; i < g->noutputs; i++)
        if (strcmp(g->outputs[i].name, out) == 0)
            for (int k = 0; k < g->ndonations; k++)
                if (g->donations[k].value == g->outputs[i].value &&
                    strcmp(g->nodes[g->donations[k].input].name, input) == 0)
                    return true;
    return false;
}

static const double W[3] = {0.5, -1.5, 2.0}, R[3] = {3.0, -0.25, 7.0}, M[3] = {0.1, 0.2, -0.3};

TEST(sgd__momentum_weight_decay_clip_value__as_pytorch) {
    Graph *g = read_graph(LIN("{'type': 'sgd', 'lr': 'lr', 'momentum': 0.9, 'weight_decay': 0.01, 'clip_value': 5}"));
    double lr = 0.1;
    const char *names[] = {"w", "r", "lr", "w_m"};
    RtTensor *ts[] = {vec(W, 3), vec(R, 3), vec(&lr, 0), vec(M, 3)};
    RtTensor **v = run_step(g, names, ts, 4);
    for (int k = 0; k < 3; k++) {
        double gr = fmin(fmax(R[k], -5), 5) + 0.01 * W[k], m = 0.9 * M[k] + gr;
        assert_float_equal(out_elem(g, v, "w_m", k), m, 1e-12);
        assert_float_equal(out_elem(g, v, "w", k), W[k] - lr * m, 1e-12);
    }
    assert_float_equal(out_elem(g, v, "loss", 0), W[0] * R[0] + W[1] * R[1] + W[2] * R[2], 1e-12);
    assert_true(donated(g, "w", "w") && donated(g, "w_m", "w_m"));
    free_vals(g, v);
    for (int i = 0; i < 4; i++) rt_release(ts[i]);
    graph_free(g);
}

TEST(sgd__clip_norm_and_constant_lr__as_pytorch) {
    Graph *g = read_graph(LIN("{'type': 'sgd', 'lr': 0.5, 'clip_norm': 2}"));
    const char *names[] = {"w", "r", "lr"};
    double lr = 123; /* unused: lr is the constant 0.5 */
    RtTensor *ts[] = {vec(W, 3), vec(R, 3), vec(&lr, 0)};
    RtTensor **v = run_step(g, names, ts, 3);
    double norm = sqrt(R[0] * R[0] + R[1] * R[1] + R[2] * R[2]), scale = fmin(1, 2 / (norm + 1e-6));
    for (int k = 0; k < 3; k++) assert_float_equal(out_elem(g, v, "w", k), W[k] - 0.5 * R[k] * scale, 1e-12);
    free_vals(g, v);
    for (int i = 0; i < 3; i++) rt_release(ts[i]);
    graph_free(g);
}

TEST(adamw__two_steps__as_pytorch) {
    Graph *g = read_graph(LIN("{'type': 'adamw', 'lr': 'lr', 'beta1': 0.8, 'beta2': 0.99, 'eps': 1e-6, 'weight_decay': 0.1}"));
    double lr = 0.01, t = 2, V[3] = {0.5, 0.01, 2};
    const char *names[] = {"w", "r", "lr", "w_m", "w_v", "adamw_step"};
    RtTensor *ts[] = {vec(W, 3), vec(R, 3), vec(&lr, 0), vec(M, 3), vec(V, 3), vec(&t, 0)};
    RtTensor **v = run_step(g, names, ts, 6);
    /* what a compiled model owns (RtPlanIO.state): the moments, made as zeros, and the step */
    assert_int_equal(g->nodes[graph_find(g, "w_m")].state, IR_STATE_ZEROS);
    assert_int_equal(g->nodes[graph_find(g, "w_v")].state, IR_STATE_ZEROS);
    assert_int_equal(g->nodes[graph_find(g, "adamw_step")].state, IR_STATE_STEP);
    assert_int_equal(g->nodes[graph_find(g, "adamw_step")].type.dtype, DT_FLOAT64);
    assert_int_equal(g->nodes[graph_find(g, "lr")].state, IR_STATE_NONE);
    assert_int_equal(g->nodes[graph_find(g, "w")].state, IR_STATE_NONE);
    for (int k = 0; k < 3; k++) {
        double m = 0.8 * M[k] + 0.2 * R[k], vv = 0.99 * V[k] + 0.01 * R[k] * R[k];
        double bc1 = 1 - pow(0.8, t), bc2 = 1 - pow(0.99, t);
        double p = W[k] * (1 - lr * 0.1) - lr / bc1 * m / (sqrt(vv) / sqrt(bc2) + 1e-6);
        assert_float_equal(out_elem(g, v, "w_m", k), m, 1e-12);
        assert_float_equal(out_elem(g, v, "w_v", k), vv, 1e-12);
        assert_float_equal(out_elem(g, v, "w", k), p, 1e-12); /* the step count is float64 too */
    }
    assert_float_equal(out_elem(g, v, "adamw_step", 0), 3, 0);
    assert_true(donated(g, "w_v", "w_v"));
    free_vals(g, v);
    for (int i = 0; i < 6; i++) rt_release(ts[i]);
    graph_free(g);
}

TEST(pass__lr_name_not_in_graph__becomes_a_float32_scalar_input) {
    Graph *g = read_graph("{'format': 'gtc-graph', 'version': 1, 'name': 'g', 'inputs': [" IN("w", "[3]") "],"
                          "'nodes': [{'name': 'loss', 'op': 'sum', 'inputs': ['w']}], 'outputs': {'total': 'loss'},"
                          "'train': {'loss': 'loss', 'params': ['w'], 'optimizer': {'type': 'sgd', 'lr': 'eta'}}}");
    Diag pd;
    diag_init(&pd, "g.json");
    assert_int_equal(pass_autodiff(g, &pd), 0);
    NodeId eta = graph_find(g, "eta");
    assert_true(eta >= 0 && g->nodes[eta].op == OP_INPUT && g->nodes[eta].type.rank == 0 &&
                g->nodes[eta].type.dtype == DT_FLOAT32);
    for (int i = 0; i < g->nnodes; i++) /* inputs stay first */
        if (g->nodes[i].op == OP_INPUT) assert_true(i < g->ninputs);
    assert_int_equal(g->noutputs, 2); /* "total" names the loss already; then "w" */
    assert_string_equal(g->outputs[1].name, "w");
    graph_free(g);
}

TEST(pass__through_the_pipeline__json_round_trip_and_simplify) {
    Graph *g = read_graph(LIN("{'type': 'sgd', 'lr': 'lr', 'momentum': 0.5}"));
    char *json = ir_write_json(g); /* the train section is written back */
    assert_non_null(strstr(json, "\"train\""));
    Diag rd;
    diag_init(&rd, "again.json");
    Graph *back = ir_read_json(json, strlen(json), &rd);
    if (!back) fail_msg("%s\n%s", rd.msg, json);
    free(json);
    assert_non_null(back->train);
    assert_int_equal(back->train->momentum * 2, 1);
    diag_init(&rd, "again.json");
    assert_int_equal(pipeline_run(back, NULL, &rd, NULL), 0);
    assert_null(back->train);
    graph_free(back);
    graph_free(g);
}

static void expect_pass_error(const char *json, const char *msg) {
    Graph *g = read_graph(json);
    Diag pd;
    diag_init(&pd, "g.json");
    assert_int_equal(pass_autodiff(g, &pd), -1);
    if (!strstr(pd.msg, msg)) fail_msg("got \"%s\", expected it to contain \"%s\"", pd.msg, msg);
    graph_free(g);
}

TEST(pass__no_gradient_on_the_path__names_the_node) {
    expect_pass_error("{'format': 'gtc-graph', 'version': 1, 'name': 'g', 'inputs': [" IN("w", "[3]") "],"
                      "'nodes': [{'name': 'i', 'op': 'argmax', 'inputs': ['w'], 'axes': [0]},"
                      "{'name': 'f', 'op': 'cast', 'inputs': ['i'], 'dtype': 'float64'},"
                      "{'name': 'loss', 'op': 'mul', 'inputs': ['f', 'f']}], 'outputs': {'loss': 'loss'},"
                      "'train': {'loss': 'loss', 'params': ['w'], 'optimizer': {'type': 'sgd', 'lr': 0.1}}}",
                      "\"i\" (argmax): lies on a path from a parameter to the loss");
    /* a step other than +-1 on a rank-8 value: spreading the gradient needs a ninth axis */
    expect_pass_error("{'format': 'gtc-graph', 'version': 1, 'name': 'g', 'inputs': [" IN("w", "[1,1,1,1,1,1,2,3]") "],"
                      "'nodes': [{'name': 's', 'op': 'slice', 'inputs': ['w'], 'starts': [2], 'ends': [-4], 'axes': [7], 'steps': [-2]},"
                      "{'name': 'loss', 'op': 'sum', 'inputs': ['s']}], 'outputs': {'loss': 'loss'},"
                      "'train': {'loss': 'loss', 'params': ['w'], 'optimizer': {'type': 'sgd', 'lr': 0.1}}}",
                      "\"s\" (slice): lies on a path");
    /* a comparison feeding where's condition is no path: this one differentiates */
    Graph *g = read_graph("{'format': 'gtc-graph', 'version': 1, 'name': 'g', 'inputs': [" IN("w", "[3]") "],"
                          "'nodes': [{'name': 'c', 'op': 'gt', 'inputs': ['w', 0]},"
                          "{'name': 'r', 'op': 'where', 'inputs': ['c', 'w', 0]},"
                          "{'name': 'loss', 'op': 'sum', 'inputs': ['r']}], 'outputs': {'loss': 'loss'},"
                          "'train': {'loss': 'loss', 'params': ['w'], 'optimizer': {'type': 'sgd', 'lr': 0.1}}}");
    Diag pd;
    diag_init(&pd, "g.json");
    if (pass_autodiff(g, &pd)) fail_msg("%s", pd.msg);
    graph_free(g);
}

TEST(pass__state_name_taken__is_an_error) {
    expect_pass_error("{'format': 'gtc-graph', 'version': 1, 'name': 'g', 'inputs': [" IN("w", "[3]") "," IN("w_m", "[3]") "],"
                      "'nodes': [{'name': 'loss', 'op': 'sum', 'inputs': ['w']}], 'outputs': {'loss': 'loss'},"
                      "'train': {'loss': 'loss', 'params': ['w'], 'optimizer': {'type': 'sgd', 'lr': 0.1, 'momentum': 0.9}}}",
                      "train.optimizer: the optimizer's input \"w_m\" would clash");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(grad_add__broadcast__sums_over_broadcast_axes),
        cmocka_unit_test(grad_sub_mul_div__broadcast__match_finite_differences),
        cmocka_unit_test(grad_pow__tensor_and_constant_exponents__match_finite_differences),
        cmocka_unit_test(grad_maximum_minimum__broadcast__match_finite_differences),
        cmocka_unit_test(grad_unary__every_op__match_finite_differences),
        cmocka_unit_test(grad_gather_scatter_add__indices_repeat__match_finite_differences),
        cmocka_unit_test(grad_dropout__same_mask__match_finite_differences),
        cmocka_unit_test(grad_composites__through_primitives__match_finite_differences),
        cmocka_unit_test(grad_concat__slices_per_operand__match_finite_differences),
        cmocka_unit_test(grad_pad_slice__interior_and_zeros__match_finite_differences),
        cmocka_unit_test(grad_slice_strided__spread_and_pad__match_finite_differences),
        cmocka_unit_test(grad_conv2d_pools__through_primitives__match_finite_differences),
        cmocka_unit_test(grad_floor_ceil_round_sign__piecewise_constant__are_zero),
        cmocka_unit_test(grad_where_clamp__tensors_and_constants__match_finite_differences),
        cmocka_unit_test(grad_cast__float32_and_back__converts_the_gradient),
        cmocka_unit_test(grad_reductions__axes_and_keepdims__match_finite_differences),
        cmocka_unit_test(grad_max_min__ties__split_evenly),
        cmocka_unit_test(grad_relu__zeros_nan_infinities__mask_from_the_output),
        cmocka_unit_test(grad_matmul__2d_batched_and_vectors__match_finite_differences),
        cmocka_unit_test(grad_views__reshape_transpose_broadcast_slice__match_finite_differences),
        cmocka_unit_test(grad_mlp_softmax_cross_entropy__matches_finite_differences),
        cmocka_unit_test(sgd__momentum_weight_decay_clip_value__as_pytorch),
        cmocka_unit_test(sgd__clip_norm_and_constant_lr__as_pytorch),
        cmocka_unit_test(adamw__two_steps__as_pytorch),
        cmocka_unit_test(pass__lr_name_not_in_graph__becomes_a_float32_scalar_input),
        cmocka_unit_test(pass__through_the_pipeline__json_round_trip_and_simplify),
        cmocka_unit_test(pass__no_gradient_on_the_path__names_the_node),
        cmocka_unit_test(pass__state_name_taken__is_an_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
