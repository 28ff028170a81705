/* tests/unit/test_sym.c: symbolic dimensions (docs/graph-format.md §3.1) through the IR: the JSON
 * reader's "dims" and symbolic input shapes, each op's propagation of the marks (ir_infer_op),
 * the refusals, and the compiler's side: the forward graph and the CPU and CUDA kernels reading
 * the size from the argument block. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "../../compiler/emit.h"
#include "../../compiler/forward.h"
#include "../../ir/ir.h"

#define TEST(name) static void name(void **state __attribute__((unused)))

static Diag d;

/* A graph over x [batch<=64, 3] (and y [batch, 3]) with the given nodes and outputs. */
static Graph *read_graph(const char *nodes, const char *outputs) {
    char *text = xfmt("{\"format\": \"gtc-graph\", \"version\": 1, \"name\": \"g\", \"dims\": {\"batch\": {\"max\": 64}},"
                      "\"inputs\": [{\"name\": \"x\", \"dtype\": \"float32\", \"shape\": [\"batch\", 3]},"
                      "{\"name\": \"y\", \"dtype\": \"float32\", \"shape\": [\"batch\", 3]},"
                      "{\"name\": \"w\", \"dtype\": \"float32\", \"shape\": [3, 4]}],"
                      "\"nodes\": [%s], \"outputs\": {%s}}", nodes, outputs);
    diag_init(&d, "g.json");
    Graph *g = ir_read_json(text, strlen(text), &d);
    free(text);
    return g;
}

static const TensorType *type_of(const Graph *g, const char *name) { return &g->nodes[graph_find(g, name)].type; }

TEST(ir_read_json__symbolic_input__bound_in_dims_and_marked) {
    Graph *g = read_graph("{\"name\": \"a\", \"op\": \"exp\", \"inputs\": [\"x\"]}", "\"a\": \"a\"");
    assert_non_null(g);
    assert_int_equal(g->nsyms, 1);
    assert_string_equal(g->syms[0].name, "batch");
    assert_int_equal(g->syms[0].max, 64);
    const TensorType *x = type_of(g, "x"), *a = type_of(g, "a");
    assert_int_equal(x->dims[0], 64);
    assert_int_equal(x->sym[0], 1);
    assert_int_equal(x->sym[1], 0);
    assert_int_equal(a->sym[0], 1);
    assert_true(ir_type_symbolic(a));
    assert_false(ir_type_symbolic(type_of(g, "w")));
    graph_free(g);
}

TEST(ir_infer_op__symbolic_marks__follow_each_op) {
    Graph *g = read_graph(
        "{\"name\": \"mm\", \"op\": \"matmul\", \"inputs\": [\"x\", \"w\"]},"
        "{\"name\": \"s0\", \"op\": \"sum\", \"inputs\": [\"x\"], \"axes\": [0]},"
        "{\"name\": \"s1\", \"op\": \"mean\", \"inputs\": [\"x\"], \"axes\": [1], \"keepdims\": true},"
        "{\"name\": \"t\", \"op\": \"transpose\", \"inputs\": [\"x\"], \"perm\": [1, 0]},"
        "{\"name\": \"gram\", \"op\": \"matmul\", \"inputs\": [\"t\", \"y\"]},"
        "{\"name\": \"r\", \"op\": \"reshape\", \"inputs\": [\"x\"], \"shape\": [64, 3, 1]},"
        "{\"name\": \"b\", \"op\": \"add\", \"inputs\": [\"x\", \"y\"]},"
        "{\"name\": \"c\", \"op\": \"concat\", \"inputs\": [\"x\", \"y\"], \"axis\": 1}",
        "\"mm\": \"mm\", \"s0\": \"s0\", \"s1\": \"s1\", \"gram\": \"gram\", \"r\": \"r\", \"b\": \"b\", \"c\": \"c\"");
    assert_non_null(g);
    assert_int_equal(type_of(g, "mm")->sym[0], 1);   /* rows */
    assert_int_equal(type_of(g, "mm")->sym[1], 0);
    assert_int_equal(type_of(g, "s0")->sym[0], 0);   /* reduced away */
    assert_int_equal(type_of(g, "s1")->sym[0], 1);
    assert_int_equal(type_of(g, "s1")->sym[1], 0);   /* kept as 1 */
    assert_int_equal(type_of(g, "t")->sym[1], 1);    /* moved */
    assert_false(ir_type_symbolic(type_of(g, "gram"))); /* contracted */
    assert_int_equal(type_of(g, "r")->sym[0], 1);
    assert_int_equal(type_of(g, "b")->sym[0], 1);
    assert_int_equal(type_of(g, "c")->sym[0], 1);
    assert_int_equal(type_of(g, "c")->dims[1], 6);
    graph_free(g);
}

TEST(ir_infer_op__symbolic_with_static_bound__refused) {
    TensorType a = {.dtype = DT_FLOAT32, .rank = 2, .dims = {64, 3}, .sym = {1}}, b = a;
    b.sym[0] = 0;
    TensorType in[2] = {a, b}, out;
    char err[256];
    Attrs none;
    memset(&none, 0, sizeof none);
    assert_int_equal(ir_infer_op(OP_ADD, in, 2, &none, &out, err, sizeof err), -1);
    assert_non_null(strstr(err, "static size 64"));
    b.dims[0] = 1; /* a size-1 axis broadcasts */
    in[1] = b;
    assert_int_equal(ir_infer_op(OP_ADD, in, 2, &none, &out, err, sizeof err), 0);
    assert_int_equal(out.sym[0], 1);
}

TEST(emit_cpu_source__symbolic_batch__loops_and_gemm_read_the_size) {
    Graph *g = read_graph("{\"name\": \"mm\", \"op\": \"matmul\", \"inputs\": [\"x\", \"w\"]},"
                          "{\"name\": \"m\", \"op\": \"mean\", \"inputs\": [\"mm\"], \"axes\": [0]}",
                          "\"mm\": \"mm\", \"m\": \"m\"");
    assert_non_null(g);
    Graph *fwd = NULL;
    assert_int_equal(forward_pipeline(g, NULL, &fwd, &d), 0);
    assert_null(fwd);
    char *c = emit_cpu_source(g, "g.json", &d);
    assert_non_null(c);
    assert_non_null(strstr(c, "double s[1];"));                 /* the size's slot */
    assert_non_null(strstr(c, "(int)a->s[0], 4, 3"));           /* M of x @ w */
    assert_non_null(strstr(c, "/ ((double)1 * a->s[0])"));      /* the mean divides by it */
    free(c);
    graph_free(g);
}

/* The CUDA kernels of the same graph take the run's size where the CPU loops do: GEMM M, the
 * loop counts, the mean's divisor; grids stay the bound's; each step reading the size has its
 * slot in `uses` (the CUDA Graph updates exactly those nodes when the size changes). */
TEST(emit_cuda_source__symbolic_batch__kernels_read_the_size) {
    Graph *g = read_graph("{\"name\": \"mm\", \"op\": \"matmul\", \"inputs\": [\"x\", \"w\"]},"
                          "{\"name\": \"m\", \"op\": \"mean\", \"inputs\": [\"mm\"], \"axes\": [0]},"
                          "{\"name\": \"t\", \"op\": \"tanh\", \"inputs\": [\"x\"]}",
                          "\"mm\": \"mm\", \"m\": \"m\", \"t\": \"t\"");
    assert_non_null(g);
    Graph *fwd = NULL;
    assert_int_equal(forward_pipeline(g, NULL, &fwd, &d), 0);
    char *cu = emit_cuda_source(g, "g.json", &d);
    assert_non_null(cu);
    assert_non_null(strstr(cu, "double s[1];"));
    assert_non_null(strstr(cu, "(int)a.s[0], 4, 3,"));          /* M of x @ w */
    assert_non_null(strstr(cu, "/ ((double)1 * a.s[0])"));       /* the mean divides by it */
    assert_non_null(strstr(cu, "< (3 * ((int)a.s[0]))"));         /* tanh's grid-stride count */
    assert_null(strstr(cu, "< 192;"));                            /* never the bound's count */
    const int size_slot = g->ninputs + g->noutputs + 1 + emit_sym_slot(g, 1);
    for (int s = 0; s < g->plan->nsteps; s++)
        assert_true(g->plan->steps[s].lower.uses >> size_slot & 1);
    free(cu);
    graph_free(g);
}

/* A symbolic axis that is not the leading one of a reduction's sub-space (the mean of x^T) splits
 * the flat index by the run's size; a row step over the whole [batch, 3] (keep 0) loops to the
 * run's count in its reduction and its stores. */
TEST(emit_cuda_source__symbolic_axis_inside__split_by_the_run_size) {
    Graph *g = read_graph("{\"name\": \"xt\", \"op\": \"transpose\", \"inputs\": [\"x\"], \"perm\": [1, 0]},"
                          "{\"name\": \"s\", \"op\": \"mean\", \"inputs\": [\"xt\"]},"
                          "{\"name\": \"m\", \"op\": \"mean\", \"inputs\": [\"y\"], \"keepdims\": true},"
                          "{\"name\": \"c\", \"op\": \"sub\", \"inputs\": [\"y\", \"m\"]}",
                          "\"s\": \"s\", \"c\": \"c\"");
    assert_non_null(g);
    Graph *fwd = NULL;
    assert_int_equal(forward_pipeline(g, NULL, &fwd, &d), 0);
    char *cu = emit_cuda_source(g, "g.json", &d);
    assert_non_null(cu);
    assert_non_null(strstr(cu, " % ((int)a.s[0]);"));             /* x^T's batch axis, inner */
    assert_non_null(strstr(cu, " / (((int)a.s[0]));"));           /* its other axis, outer */
    assert_non_null(strstr(cu, "for (int e = threadIdx.x; e < (3 * ((int)a.s[0])); e += 256)"));
    assert_non_null(strstr(cu, "/ ((double)3 * a.s[0])"));        /* both means divide by 3 x batch */
    free(cu);
    graph_free(g);
}

/* cuBLASLt's m, n, k are fixed in the plan: a product over a symbolic size stays our kernel, even
 * when GTC_GEMM=cublaslt forces every other product through cuBLASLt. */
TEST(pass_lower__symbolic_product__refuses_cublaslt) {
    setenv("GTC_GEMM", "cublaslt", 1);
    const char *text = "{\"format\": \"gtc-graph\", \"version\": 1, \"name\": \"g\", \"dims\": {\"batch\": {\"max\": 64}},"
                       "\"inputs\": [{\"name\": \"x\", \"dtype\": \"float32\", \"shape\": [\"batch\", 16]},"
                       "{\"name\": \"w\", \"dtype\": \"float32\", \"shape\": [16, 16]}],"
                       "\"nodes\": [{\"name\": \"h\", \"op\": \"matmul\", \"inputs\": [\"x\", \"w\"]},"
                       "{\"name\": \"xt\", \"op\": \"transpose\", \"inputs\": [\"x\"], \"perm\": [1, 0]},"
                       "{\"name\": \"gram\", \"op\": \"matmul\", \"inputs\": [\"xt\", \"x\"]},"
                       "{\"name\": \"ww\", \"op\": \"matmul\", \"inputs\": [\"w\", \"w\"]}],"
                       "\"outputs\": {\"h\": \"h\", \"gram\": \"gram\", \"ww\": \"ww\"}}";
    diag_init(&d, "g.json");
    Graph *g = ir_read_json(text, strlen(text), &d);
    assert_non_null(g);
    Graph *fwd = NULL;
    int rc = forward_pipeline(g, NULL, &fwd, &d);
    unsetenv("GTC_GEMM");
    assert_int_equal(rc, 0);
    int ours = 0, blas = 0;
    for (int s = 0; s < g->plan->nsteps; s++) {
        const Step *st = &g->plan->steps[s];
        if (st->kind != STEP_GEMM) continue;
        if (st->root == graph_find(g, "ww")) { /* static: forced through cuBLASLt */
            assert_int_equal(st->lower.form, LOWER_GEMM_BLAS);
            blas++;
            continue;
        }
        assert_int_not_equal(st->lower.form, LOWER_GEMM_BLAS);
        assert_string_equal(st->lower.why_gemm, "our kernel: a symbolic size");
        ours++;
    }
    assert_int_equal(ours, 2); /* M symbolic (x @ w), K symbolic (x^T @ x) */
    assert_int_equal(blas, 1);
    graph_free(g);
}

TEST(forward_graph__symbolic_training_graph__keeps_the_dims) {
    char *text = xfmt("{\"format\": \"gtc-graph\", \"version\": 1, \"name\": \"g\", \"dims\": {\"batch\": {\"max\": 64}},"
                      "\"inputs\": [{\"name\": \"x\", \"dtype\": \"float32\", \"shape\": [\"batch\", 3]},"
                      "{\"name\": \"w\", \"dtype\": \"float32\", \"shape\": [3]}],"
                      "\"nodes\": [{\"name\": \"p\", \"op\": \"matmul\", \"inputs\": [\"x\", \"w\"]},"
                      "{\"name\": \"q\", \"op\": \"mul\", \"inputs\": [\"p\", \"p\"]},"
                      "{\"name\": \"loss\", \"op\": \"mean\", \"inputs\": [\"q\"]}],"
                      "\"outputs\": {\"loss\": \"loss\", \"p\": \"p\"},"
                      "\"train\": {\"loss\": \"loss\", \"params\": [\"w\"], \"optimizer\": {\"type\": \"sgd\", \"lr\": 0.1}}}");
    diag_init(&d, "g.json");
    Graph *g = ir_read_json(text, strlen(text), &d);
    free(text);
    assert_non_null(g);
    Graph *f = forward_graph(g, &d);
    assert_non_null(f);
    assert_int_equal(f->nsyms, 1);
    assert_int_equal(f->noutputs, 1);                            /* p, not the loss */
    assert_string_equal(f->outputs[0].name, "p");
    assert_int_equal(type_of(f, "p")->sym[0], 1);
    graph_free(f);
    Graph *fwd = NULL;
    assert_int_equal(forward_pipeline(g, NULL, &fwd, &d), 0);    /* autodiff's mean rule over the batch */
    assert_non_null(fwd);
    assert_string_equal(g->plan->predict, "gtc_fwd");
    graph_free(fwd);
    graph_free(g);
}

TEST(ir_write_json__symbolic_training_step__reads_back) {
    char *text = xfmt("{\"format\": \"gtc-graph\", \"version\": 1, \"name\": \"g\", \"dims\": {\"batch\": {\"max\": 64}},"
                      "\"inputs\": [{\"name\": \"x\", \"dtype\": \"float32\", \"shape\": [\"batch\", 3]},"
                      "{\"name\": \"w\", \"dtype\": \"float32\", \"shape\": [3]}],"
                      "\"nodes\": [{\"name\": \"p\", \"op\": \"matmul\", \"inputs\": [\"x\", \"w\"]},"
                      "{\"name\": \"loss\", \"op\": \"mean\", \"inputs\": [\"p\"]}],"
                      "\"outputs\": {\"loss\": \"loss\"},"
                      "\"train\": {\"loss\": \"loss\", \"params\": [\"w\"], \"optimizer\": {\"type\": \"sgd\", \"lr\": 0.1}}}");
    diag_init(&d, "g.json");
    Graph *g = ir_read_json(text, strlen(text), &d);
    free(text);
    assert_non_null(g);
    assert_int_equal(pipeline_run(g, NULL, &d, "simplify"), 0); /* mean's gradient: broadcast_to [batch] */
    char *json = ir_write_json(g);
    assert_non_null(strstr(json, "\"batch\""));
    Graph *h = ir_read_json(json, strlen(json), &d);
    if (!h) fail_msg("%s", d.msg);
    assert_int_equal(h->nsyms, 1);
    graph_free(h);
    free(json);
    graph_free(g);
}

TEST(forward_graph__symbol_only_the_loss_reads__dropped) {
    char *text = xfmt("{\"format\": \"gtc-graph\", \"version\": 1, \"name\": \"g\","
                      "\"dims\": {\"rows\": {\"max\": 9}, \"batch\": {\"max\": 64}},"
                      "\"inputs\": [{\"name\": \"y\", \"dtype\": \"float32\", \"shape\": [\"rows\"]},"
                      "{\"name\": \"x\", \"dtype\": \"float32\", \"shape\": [\"batch\", 3]},"
                      "{\"name\": \"w\", \"dtype\": \"float32\", \"shape\": [3]}],"
                      "\"nodes\": [{\"name\": \"p\", \"op\": \"matmul\", \"inputs\": [\"x\", \"w\"]},"
                      "{\"name\": \"a\", \"op\": \"mean\", \"inputs\": [\"p\"]},"
                      "{\"name\": \"b\", \"op\": \"mean\", \"inputs\": [\"y\"]},"
                      "{\"name\": \"loss\", \"op\": \"add\", \"inputs\": [\"a\", \"b\"]}],"
                      "\"outputs\": {\"loss\": \"loss\", \"p\": \"p\"},"
                      "\"train\": {\"loss\": \"loss\", \"params\": [\"w\"], \"optimizer\": {\"type\": \"sgd\", \"lr\": 0.1}}}");
    diag_init(&d, "g.json");
    Graph *g = ir_read_json(text, strlen(text), &d);
    free(text);
    if (!g) fail_msg("%s", d.msg);
    Graph *f = forward_graph(g, &d);
    assert_non_null(f);
    assert_int_equal(f->nsyms, 1); /* "rows" only reached the loss: predict() has no input giving it */
    assert_string_equal(f->syms[0].name, "batch");
    assert_int_equal(type_of(f, "x")->sym[0], 1);
    assert_int_equal(type_of(f, "p")->sym[0], 1);
    graph_free(f);
    graph_free(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ir_read_json__symbolic_input__bound_in_dims_and_marked),
        cmocka_unit_test(ir_infer_op__symbolic_marks__follow_each_op),
        cmocka_unit_test(ir_infer_op__symbolic_with_static_bound__refused),
        cmocka_unit_test(emit_cpu_source__symbolic_batch__loops_and_gemm_read_the_size),
        cmocka_unit_test(emit_cuda_source__symbolic_batch__kernels_read_the_size),
        cmocka_unit_test(emit_cuda_source__symbolic_axis_inside__split_by_the_run_size),
        cmocka_unit_test(pass_lower__symbolic_product__refuses_cublaslt),
        cmocka_unit_test(forward_graph__symbolic_training_graph__keeps_the_dims),
        cmocka_unit_test(ir_write_json__symbolic_training_step__reads_back),
        cmocka_unit_test(forward_graph__symbol_only_the_loss_reads__dropped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
