/* tests/unit/test_plan.c: the fusion planner (pass_fuse), the scheduler (pass_schedule), the
 * memory planner (pass_memplan), bfloat16 storage (pass_bf16), the pipeline table and plan_print,
 * on graphs given as JSON (lowering and targets: test_lower.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "plan_helpers.h"

/* plan_print's output of the current graph in format fmt (malloc'd). */
static char *print(PlanFormat fmt) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    plan_print(g, f, fmt);
    fclose(f);
    return buf;
}

/* ---- fuse ------------------------------------------------------------------------------------ */

TEST(pass_fuse__a_plus_b_times_c__one_elementwise_step_no_arena) {
    Plan *p = plan_text("\"inputs\": [{\"name\": \"a\", \"dtype\": \"float32\", \"shape\": [1024]},"
                        " {\"name\": \"b\", \"dtype\": \"float32\", \"shape\": [1024]},"
                        " {\"name\": \"c\", \"dtype\": \"float32\", \"shape\": [1024]}],"
                        "\"nodes\": [{\"name\": \"bc\", \"op\": \"mul\", \"inputs\": [\"b\", \"c\"]},"
                        " {\"name\": \"out\", \"op\": \"add\", \"inputs\": [\"a\", \"bc\"]}],"
                        "\"outputs\": {\"out\": \"out\"}");
    assert_int_equal(p->nsteps, 1);
    assert_int_equal(p->steps[0].kind, STEP_ELEMWISE);
    assert_int_equal(p->steps[0].nnodes, 2);
    assert_int_equal(p->steps[0].nins, 3);
    assert_int_equal(p->arena_bytes, 0);
    assert_int_equal(p->buf[id("bc")].kind, BUF_NONE);
    assert_int_equal(p->buf[id("out")].kind, BUF_OUTPUT);
}

TEST(pass_fuse__elementwise_chain_of_20__one_step) {
    static const char *const ops[] = {"exp", "neg", "tanh", "abs", "sqrt", "sigmoid", "relu", "sin", "cos", "log"};
    char body[8192];
    size_t o = (size_t)snprintf(body, sizeof body, X_IN "\"nodes\": [");
    for (int i = 0; i < 20; i++) {
        char prev[16];
        snprintf(prev, sizeof prev, i ? "t%d" : "x", i - 1);
        if (i % 2) o += (size_t)snprintf(body + o, sizeof body - o, "%s{\"name\": \"t%d\", \"op\": \"%s\", \"inputs\": [\"%s\"]}",
                                         i ? ", " : "", i, ops[i / 2], prev);
        else o += (size_t)snprintf(body + o, sizeof body - o, "%s{\"name\": \"t%d\", \"op\": \"mul\", \"inputs\": [\"%s\", 1.5]}",
                                   i ? ", " : "", i, prev);
    }
    snprintf(body + o, sizeof body - o, "], \"outputs\": {\"out\": \"t19\"}");
    Plan *p = plan_text(body);
    assert_int_equal(p->nsteps, 1);
    assert_int_equal(p->steps[0].kind, STEP_ELEMWISE);
    assert_int_equal(p->steps[0].nnodes, 20);
    assert_int_equal(p->steps[0].nouts, 1);
    assert_int_equal(p->arena_bytes, 0);
}

#define SOFTMAX_NODES                                                                                  \
    "{\"name\": \"m\", \"op\": \"max\", \"inputs\": [\"x\"], \"axes\": [1], \"keepdims\": true},"      \
    " {\"name\": \"sh\", \"op\": \"sub\", \"inputs\": [\"x\", \"m\"]},"                                \
    " {\"name\": \"e\", \"op\": \"exp\", \"inputs\": [\"sh\"]},"                                       \
    " {\"name\": \"s\", \"op\": \"sum\", \"inputs\": [\"e\"], \"axes\": [1], \"keepdims\": true},"     \
    " {\"name\": \"p\", \"op\": \"div\", \"inputs\": [\"e\", \"s\"]}"

TEST(pass_fuse__row_softmax__one_row_step) {
    Plan *p = plan_text(X_IN "\"nodes\": [" SOFTMAX_NODES "], \"outputs\": {\"p\": \"p\"}");
    assert_int_equal(p->nsteps, 1);
    assert_int_equal(p->steps[0].kind, STEP_ROW);
    assert_int_equal(p->steps[0].nnodes, 5);
    assert_int_equal(p->arena_bytes, 0);
    assert_non_null(strstr(p->steps[0].reason, "row kernel"));
}

TEST(pass_fuse__softmax_rows_longer_than_4096__no_row_step) {
    Plan *p = plan_text("\"inputs\": [{\"name\": \"x\", \"dtype\": \"float32\", \"shape\": [4, 8192]}], "
                        "\"nodes\": [" SOFTMAX_NODES "], \"outputs\": {\"p\": \"p\"}");
    assert_int_equal(count_kind(p, STEP_ROW), 0);
    assert_int_equal(count_kind(p, STEP_REDUCE), 2);
    assert_int_equal(p->buf[id("e")].kind, BUF_ARENA); /* exp, read by the sum and by p: computed once */
}

TEST(pass_fuse__logsumexp__one_row_step) {
    Plan *p = plan_text(X_IN "\"nodes\": [" SOFTMAX_NODES ", {\"name\": \"l\", \"op\": \"log\", \"inputs\": [\"s\"]},"
                        " {\"name\": \"lse\", \"op\": \"add\", \"inputs\": [\"l\", \"m\"]}],"
                        " \"outputs\": {\"lse\": \"lse\"}");
    assert_int_equal(p->nsteps, 1);
    assert_int_equal(p->steps[0].kind, STEP_ROW);
    assert_int_equal(p->steps[0].nouts, 1);
    assert_int_equal(p->steps[0].outs[0], id("lse"));
}

/* softmax rows of x scaled by the row sums of another input y (as log-softmax's backward sums
 * the labels' row): the REDUCE step of those sums joins the row step that alone reads them */
#define XY_IN                                                                                        \
    "\"inputs\": [{\"name\": \"x\", \"dtype\": \"float32\", \"shape\": [64, 128]},"                    \
    " {\"name\": \"y\", \"dtype\": \"float32\", \"shape\": [64, 128]}], "
#define YSUM_NODES                                                                                   \
    ", {\"name\": \"yn\", \"op\": \"neg\", \"inputs\": [\"y\"]},"                                       \
    " {\"name\": \"ys\", \"op\": \"sum\", \"inputs\": [\"yn\"], \"axes\": [1], \"keepdims\": true},"    \
    " {\"name\": \"q\", \"op\": \"mul\", \"inputs\": [\"p\", \"ys\"]}"

TEST(pass_fuse__independent_row_sum_read_by_the_row_step__joins_it) {
    Plan *p = plan_text(XY_IN "\"nodes\": [" SOFTMAX_NODES YSUM_NODES "], \"outputs\": {\"q\": \"q\"}");
    assert_int_equal(p->nsteps, 1);
    assert_int_equal(p->steps[0].kind, STEP_ROW);
    assert_int_equal(writer(p, "q"), 0);
    assert_int_equal(p->buf[id("ys")].kind, BUF_NONE);
    assert_non_null(strstr(p->steps[0].reason, "sum ys"));
}

TEST(pass_fuse__independent_row_sum_also_an_output__keeps_its_step) {
    Plan *p = plan_text(XY_IN "\"nodes\": [" SOFTMAX_NODES YSUM_NODES "], \"outputs\": {\"q\": \"q\", \"ys\": \"ys\"}");
    assert_int_equal(p->nsteps, 2);
    assert_int_equal(count_kind(p, STEP_ROW), 1);
    assert_int_equal(count_kind(p, STEP_REDUCE), 1);
    assert_int_not_equal(writer(p, "ys"), writer(p, "q"));
}

TEST(pass_fuse__independent_row_sum_read_elsewhere_too__keeps_its_step) {
    /* r = ys * 2 is another output: the sums' step computes it, so it stays a step of its own */
    Plan *p = plan_text(XY_IN "\"nodes\": [" SOFTMAX_NODES YSUM_NODES
                        ", {\"name\": \"r\", \"op\": \"mul\", \"inputs\": [\"ys\", 2.0]}],"
                        " \"outputs\": {\"q\": \"q\", \"r\": \"r\"}");
    assert_int_equal(p->nsteps, 2);
    assert_int_equal(count_kind(p, STEP_ROW), 1);
    assert_int_not_equal(writer(p, "ys"), writer(p, "q"));
    assert_int_equal(writer(p, "ys"), writer(p, "r"));
}

TEST(pass_fuse__logits_softmax_ce_backward__one_row_step_with_prologue_and_epilogue) {
    Plan *p = plan_file("tests/golden/row_matmul/graph.json");
    assert_int_equal(p->nsteps, 2);
    assert_int_equal(count_kind(p, STEP_GEMM), 0);
    const Step *st = &p->steps[writer(p, "dh")];
    assert_int_equal(st->kind, STEP_ROW);
    assert_int_equal(st->row_pro.mm, id("z"));
    assert_int_equal(st->row_pro.in[0], id("a"));
    assert_int_equal(st->row_pro.in[1], id("w"));
    assert_int_equal(st->row_epi.mm, id("da"));
    assert_int_equal(st->row_epi.in[0], id("dlogits"));
    assert_int_equal(st->row_epi.in[1], id("w"));
    assert_true(st->row_epi.trans[1]);
    assert_int_equal(writer(p, "ll_row"), writer(p, "dh"));
    /* only the row step read logits and dlogits: neither is in memory any more */
    assert_int_equal(p->buf[id("logits")].kind, BUF_NONE);
    assert_int_equal(p->buf[id("dlogits")].kind, BUF_NONE);
    assert_int_equal(p->buf[id("z")].kind, BUF_NONE);
    assert_non_null(strstr(st->reason, "skinny product logits = a @ w as prologue"));
    assert_non_null(strstr(st->reason, "small-K product dh = dlogits @ w^T as epilogue"));
}

TEST(pass_fuse__epilogue_b_depends_on_the_rows__stays_a_gemm) {
    Plan *p = plan_file("tests/golden/row_matmul_b_depends/graph.json");
    assert_int_equal(p->nsteps, 2);
    const Step *row = &p->steps[writer(p, "p")], *mm = &p->steps[writer(p, "gram")];
    assert_int_equal(row->kind, STEP_ROW);
    assert_int_equal(row->row_pro.mm, id("z"));
    assert_int_equal(row->row_epi.mm, -1);
    assert_int_equal(mm->kind, STEP_GEMM);
    assert_int_equal(p->buf[id("p")].kind, BUF_ARENA);
    assert_non_null(strstr(row->reason, "no epilogue: operand p of matmul gram depends on the row step"));
}

TEST(pass_fuse__ten_classes__no_row_matmuls) {
    Plan *p = plan_text("\"inputs\": [{\"name\": \"x\", \"dtype\": \"float32\", \"shape\": [16, 32]},"
                        " {\"name\": \"w\", \"dtype\": \"float32\", \"shape\": [32, 10]}], \"nodes\": ["
                        "{\"name\": \"z\", \"op\": \"matmul\", \"inputs\": [\"x\", \"w\"]},"
                        "{\"name\": \"m\", \"op\": \"max\", \"inputs\": [\"z\"], \"axes\": [1], \"keepdims\": true},"
                        "{\"name\": \"p\", \"op\": \"sub\", \"inputs\": [\"z\", \"m\"]}], \"outputs\": {\"p\": \"p\"}");
    assert_int_equal(p->nsteps, 2);
    assert_int_equal(count_kind(p, STEP_GEMM), 1);
    const Step *row = &p->steps[writer(p, "p")];
    assert_int_equal(row->row_pro.mm, -1);
    assert_non_null(strstr(row->reason, "no prologue: matmul z has 10 > 8 columns"));
}

TEST(pass_fuse__batched_logits__no_row_matmuls) {
    Plan *p = plan_text("\"inputs\": [{\"name\": \"x\", \"dtype\": \"float32\", \"shape\": [2, 16, 32]},"
                        " {\"name\": \"w\", \"dtype\": \"float32\", \"shape\": [32, 3]}], \"nodes\": ["
                        "{\"name\": \"z\", \"op\": \"matmul\", \"inputs\": [\"x\", \"w\"]},"
                        "{\"name\": \"m\", \"op\": \"max\", \"inputs\": [\"z\"], \"axes\": [2], \"keepdims\": true},"
                        "{\"name\": \"p\", \"op\": \"sub\", \"inputs\": [\"z\", \"m\"]}], \"outputs\": {\"p\": \"p\"}");
    assert_int_equal(count_kind(p, STEP_GEMM), 1);
    assert_int_equal(p->steps[writer(p, "p")].row_pro.mm, -1);
    assert_non_null(strstr(p->steps[writer(p, "p")].reason, "no prologue: matmul z is batched"));
}

TEST(pass_fuse__matmul_bias_relu__one_gemm_step) {
    Plan *p = plan_text("\"inputs\": [{\"name\": \"x\", \"dtype\": \"float32\", \"shape\": [128, 64]},"
                        " {\"name\": \"w\", \"dtype\": \"float32\", \"shape\": [64, 32]},"
                        " {\"name\": \"b\", \"dtype\": \"float32\", \"shape\": [32]}],"
                        "\"nodes\": [{\"name\": \"z\", \"op\": \"matmul\", \"inputs\": [\"x\", \"w\"]},"
                        " {\"name\": \"h\", \"op\": \"add\", \"inputs\": [\"z\", \"b\"]},"
                        " {\"name\": \"a\", \"op\": \"relu\", \"inputs\": [\"h\"]}],"
                        "\"outputs\": {\"a\": \"a\"}");
    assert_int_equal(p->nsteps, 1);
    assert_int_equal(p->steps[0].kind, STEP_GEMM);
    assert_int_equal(p->steps[0].nnodes, 3);
    assert_int_equal(p->steps[0].gemm_in[0], id("x"));
    assert_int_equal(p->steps[0].gemm_in[1], id("w"));
    assert_false(p->steps[0].gemm_trans[0]);
    assert_int_equal(p->arena_bytes, 0);
}

TEST(pass_fuse__transposed_operands__folded_into_gemm_flags) {
    Plan *p = plan_text("\"inputs\": [{\"name\": \"a\", \"dtype\": \"float32\", \"shape\": [16, 8]},"
                        " {\"name\": \"b\", \"dtype\": \"float32\", \"shape\": [4, 16]}],"
                        "\"nodes\": [{\"name\": \"at\", \"op\": \"transpose\", \"inputs\": [\"a\"], \"perm\": [1, 0]},"
                        " {\"name\": \"bt\", \"op\": \"transpose\", \"inputs\": [\"b\"], \"perm\": [1, 0]},"
                        " {\"name\": \"c\", \"op\": \"matmul\", \"inputs\": [\"at\", \"bt\"]}],"
                        "\"outputs\": {\"c\": \"c\"}");
    assert_int_equal(p->nsteps, 1);
    assert_int_equal(p->steps[0].gemm_in[0], id("a"));
    assert_int_equal(p->steps[0].gemm_in[1], id("b"));
    assert_true(p->steps[0].gemm_trans[0]);
    assert_true(p->steps[0].gemm_trans[1]);
}

TEST(pass_fuse__shared_values__expensive_materialised_once_cheap_recomputed) {
    Plan *p = plan_text(X_IN "\"nodes\": [{\"name\": \"t\", \"op\": \"exp\", \"inputs\": [\"x\"]},"
                        " {\"name\": \"c\", \"op\": \"mul\", \"inputs\": [\"x\", 3]},"
                        " {\"name\": \"t0\", \"op\": \"sum\", \"inputs\": [\"t\"], \"axes\": [0]},"
                        " {\"name\": \"t1\", \"op\": \"sum\", \"inputs\": [\"t\"], \"axes\": [1]},"
                        " {\"name\": \"c0\", \"op\": \"max\", \"inputs\": [\"c\"], \"axes\": [0]},"
                        " {\"name\": \"c1\", \"op\": \"min\", \"inputs\": [\"c\"], \"axes\": [1]}],"
                        "\"outputs\": {\"t0\": \"t0\", \"t1\": \"t1\", \"c0\": \"c0\", \"c1\": \"c1\"}");
    assert_int_equal(p->buf[id("t")].kind, BUF_ARENA);
    assert_int_equal(steps_computing(p, "t"), 1);
    assert_int_equal(steps_reading(p, "t"), 2);
    assert_int_equal(p->buf[id("c")].kind, BUF_NONE);
    assert_int_equal(steps_computing(p, "c"), 2);
    assert_int_equal(p->step_of[id("c")], -1);
    assert_string_equal(p->why[id("c")], "recomputed in 2 steps: cheap");
    assert_non_null(strstr(p->why[id("t")], "expensive (exp)"));
    assert_int_equal(p->nsteps, 5);
}

TEST(pass_fuse__reduce_with_update_epilogue__one_reduce_step) {
    Plan *p = plan_text("\"inputs\": [{\"name\": \"d\", \"dtype\": \"float32\", \"shape\": [512, 2]},"
                        " {\"name\": \"b\", \"dtype\": \"float32\", \"shape\": [2]},"
                        " {\"name\": \"lr\", \"dtype\": \"float32\", \"shape\": []}],"
                        "\"nodes\": [{\"name\": \"db\", \"op\": \"sum\", \"inputs\": [\"d\"], \"axes\": [0]},"
                        " {\"name\": \"g\", \"op\": \"clamp\", \"inputs\": [\"db\", -5, 5]},"
                        " {\"name\": \"st\", \"op\": \"mul\", \"inputs\": [\"g\", \"lr\"]},"
                        " {\"name\": \"bn\", \"op\": \"sub\", \"inputs\": [\"b\", \"st\"]}],"
                        "\"outputs\": {\"b\": \"bn\"}, \"donate\": {\"bn\": \"b\"}");
    assert_int_equal(p->nsteps, 1);
    assert_int_equal(p->steps[0].kind, STEP_REDUCE);
    assert_int_equal(p->steps[0].nnodes, 4);
    assert_int_equal(p->buf[id("lr")].kind, BUF_SCALAR);
    assert_int_equal(p->buf[id("bn")].kind, BUF_OUTPUT);
    assert_int_equal(p->output_alias[0], 1); /* b_next lives in b's buffer */
}

TEST(pass_fuse__output_is_input_or_view__copy_steps) {
    Plan *p = plan_text("\"inputs\": [{\"name\": \"x\", \"dtype\": \"float32\", \"shape\": [4, 6]}],"
                        "\"nodes\": [{\"name\": \"xt\", \"op\": \"transpose\", \"inputs\": [\"x\"], \"perm\": [1, 0]}],"
                        "\"outputs\": {\"same\": \"x\", \"t\": \"xt\", \"t2\": \"xt\"}");
    assert_int_equal(p->nsteps, 3);
    assert_int_equal(count_kind(p, STEP_COPY), 3);
    assert_int_equal(p->buf[id("xt")].kind, BUF_OUTPUT);
    assert_int_equal(p->buf[id("xt")].index, 1);
}

TEST(pass_fuse__without_simplify__dead_nodes_in_no_step) {
    const char *text = "{\"format\": \"gtc-graph\", \"version\": 1, \"name\": \"t\", " X_IN
                       "\"nodes\": [{\"name\": \"dead\", \"op\": \"exp\", \"inputs\": [\"x\"]},"
                       " {\"name\": \"y\", \"op\": \"neg\", \"inputs\": [\"x\"]}], \"outputs\": {\"y\": \"y\"}}";
    Diag d;
    diag_init(&d, "t.json");
    g = ir_read_json(text, strlen(text), &d);
    assert_non_null(g);
    assert_int_equal(pass_fuse(g, &d), 0);
    assert_int_equal(g->plan->nsteps, 1);
    assert_int_equal(g->plan->step_of[id("dead")], -1);
    assert_string_equal(g->plan->why[id("dead")], "dead: no output depends on it");
    assert_false(g->plan->scheduled);
}

/* ---- schedule ------------------------------------------------------------------------------- */

TEST(pass_schedule__donated_w2__readers_run_before_the_update) {
    Plan *p = plan_file("examples/train_step.json");
    int upd = writer(p, "w2_next");
    assert_true(upd >= 0);
    for (int s = 0; s < p->nsteps; s++)
        if (s != upd && step_has(p->steps[s].ins, p->steps[s].nins, id("w2"))) assert_true(s < upd);
    assert_true(writer(p, "dh1") < upd); /* da1 = dlogits @ w2^T reads w2 first */
    assert_int_equal(p->buf[id("w2_next")].kind, BUF_OUTPUT);
    assert_int_equal(count_kind(p, STEP_COPY), 0);
}

TEST(pass_schedule__declared_before_its_reader__update_moved_after) {
    Plan *p = plan_text("\"inputs\": [{\"name\": \"x\", \"dtype\": \"float32\", \"shape\": [32, 16]},"
                        " {\"name\": \"w\", \"dtype\": \"float32\", \"shape\": [16, 8]}],"
                        "\"nodes\": [{\"name\": \"y\", \"op\": \"matmul\", \"inputs\": [\"x\", \"w\"]},"
                        " {\"name\": \"xt\", \"op\": \"transpose\", \"inputs\": [\"x\"], \"perm\": [1, 0]},"
                        " {\"name\": \"gw\", \"op\": \"matmul\", \"inputs\": [\"xt\", \"y\"]},"
                        " {\"name\": \"wn\", \"op\": \"sub\", \"inputs\": [\"w\", \"gw\"]},"
                        " {\"name\": \"wt\", \"op\": \"transpose\", \"inputs\": [\"w\"], \"perm\": [1, 0]},"
                        " {\"name\": \"back\", \"op\": \"matmul\", \"inputs\": [\"y\", \"wt\"]}],"
                        "\"outputs\": {\"w\": \"wn\", \"back\": \"back\"}, \"donate\": {\"wn\": \"w\"}");
    assert_int_equal(p->nsteps, 3);
    assert_true(writer(p, "back") < writer(p, "wn"));
    assert_true(writer(p, "y") < writer(p, "back"));
}

TEST(pass_schedule__writer_reads_input_transposed__staged_and_copied_last) {
    Plan *p = plan_text("\"inputs\": [{\"name\": \"s\", \"dtype\": \"float32\", \"shape\": [8, 8]}],"
                        "\"nodes\": [{\"name\": \"st\", \"op\": \"transpose\", \"inputs\": [\"s\"], \"perm\": [1, 0]},"
                        " {\"name\": \"sn\", \"op\": \"sub\", \"inputs\": [\"s\", \"st\"]}],"
                        "\"outputs\": {\"s\": \"sn\"}, \"donate\": {\"sn\": \"s\"}");
    assert_int_equal(p->nsteps, 2);
    assert_int_equal(p->steps[1].kind, STEP_COPY);
    assert_int_equal(p->steps[1].ins[0], id("sn"));
    assert_int_equal(p->steps[1].copy_output, 0);
    assert_int_equal(p->buf[id("sn")].kind, BUF_ARENA);
    assert_int_equal(p->output_alias[0], 0);
    assert_non_null(strstr(p->steps[1].reason, "cannot be written in place"));
}

TEST(pass_schedule__update_read_through_a_view__staged_and_copied_last) {
    /* the kernel writes wn[i][j] from w[j][i]: in place, another thread may have overwritten it */
    Plan *p = plan_text("\"inputs\": [{\"name\": \"w\", \"dtype\": \"float32\", \"shape\": [4, 4]}],"
                        "\"nodes\": [{\"name\": \"d\", \"op\": \"mul\", \"inputs\": [\"w\", 2]},"
                        " {\"name\": \"wn\", \"op\": \"transpose\", \"inputs\": [\"d\"], \"perm\": [1, 0]}],"
                        "\"outputs\": {\"w\": \"wn\"}, \"donate\": {\"wn\": \"w\"}");
    assert_int_equal(p->nsteps, 2);
    assert_int_equal(p->steps[1].kind, STEP_COPY);
    assert_int_equal(p->buf[id("wn")].kind, BUF_ARENA);
}

TEST(pass_schedule__cycle_through_donation__staged_and_copied_last) {
    /* wn overwrites w, but a later step reads both w and wn: no order works */
    Plan *p = plan_text("\"inputs\": [{\"name\": \"w\", \"dtype\": \"float32\", \"shape\": [8, 8]}],"
                        "\"nodes\": [{\"name\": \"wn\", \"op\": \"mul\", \"inputs\": [\"w\", 0.5]},"
                        " {\"name\": \"both\", \"op\": \"matmul\", \"inputs\": [\"wn\", \"w\"]}],"
                        "\"outputs\": {\"w\": \"wn\", \"both\": \"both\"}, \"donate\": {\"wn\": \"w\"}");
    assert_int_equal(p->steps[p->nsteps - 1].kind, STEP_COPY);
    assert_int_equal(p->buf[id("wn")].kind, BUF_ARENA);
    assert_non_null(strstr(p->steps[p->nsteps - 1].reason, "needs wn first"));
}

/* ---- memplan -------------------------------------------------------------------------------- */

/* Every pair of arena values whose live intervals overlap occupies disjoint bytes. */
static void check_arena(const Plan *p) {
    int n = p->nnodes;
    int *def = malloc((size_t)n * sizeof *def), *last = malloc((size_t)n * sizeof *last);
    assert_non_null(def);
    assert_non_null(last);
    int narena = 0;
    for (int i = 0; i < n; i++) def[i] = last[i] = -1;
    for (int s = 0; s < p->nsteps; s++) {
        for (int k = 0; k < p->steps[s].nouts; k++) def[p->steps[s].outs[k]] = s;
        for (int k = 0; k < p->steps[s].nins; k++) last[p->steps[s].ins[k]] = s;
    }
    for (int i = 0; i < n; i++) {
        if (p->buf[i].kind != BUF_ARENA) continue;
        narena++;
        assert_int_equal(p->buf[i].offset % 256, 0);
        assert_true(p->buf[i].offset + p->buf[i].bytes <= p->arena_bytes);
        if (last[i] < def[i]) last[i] = def[i];
        for (int j = 0; j < i; j++) {
            if (p->buf[j].kind != BUF_ARENA || !p->buf[i].bytes || !p->buf[j].bytes) continue;
            bool live_together = def[i] <= last[j] && def[j] <= last[i];
            bool apart = p->buf[i].offset + p->buf[i].bytes <= p->buf[j].offset ||
                         p->buf[j].offset + p->buf[j].bytes <= p->buf[i].offset;
            if (live_together && !apart) fail_msg("%s and %s overlap", g->nodes[i].name, g->nodes[j].name);
        }
    }
    assert_true(narena > 0);
    free(def);
    free(last);
}

TEST(pass_memplan__train_step__aligned_disjoint_offsets) {
    Plan *p = plan_file("examples/train_step.json");
    check_arena(p);
    assert_true(p->placed);
    int64_t sum = 0;
    for (int i = 0; i < p->nnodes; i++)
        if (p->buf[i].kind == BUF_ARENA) sum += (p->buf[i].bytes + 255) / 256 * 256;
    assert_true(p->arena_bytes <= sum);
}

TEST(pass_memplan__chain_of_live_intervals__space_reused) {
    /* t1 .. t4 each live across one GEMM; t1's bytes are free again by the time t3 is written */
    Plan *p = plan_text("\"inputs\": [{\"name\": \"x\", \"dtype\": \"float32\", \"shape\": [64, 64]}],"
                        "\"nodes\": [{\"name\": \"t1\", \"op\": \"matmul\", \"inputs\": [\"x\", \"x\"]},"
                        " {\"name\": \"t2\", \"op\": \"matmul\", \"inputs\": [\"t1\", \"x\"]},"
                        " {\"name\": \"t3\", \"op\": \"matmul\", \"inputs\": [\"t2\", \"x\"]},"
                        " {\"name\": \"t4\", \"op\": \"matmul\", \"inputs\": [\"t3\", \"x\"]},"
                        " {\"name\": \"t5\", \"op\": \"matmul\", \"inputs\": [\"t4\", \"t2\"]}],"
                        "\"outputs\": {\"y\": \"t5\"}");
    check_arena(p);
    assert_int_equal(p->buf[id("t1")].offset, p->buf[id("t3")].offset);
    assert_int_equal(p->arena_bytes, 3 * 64 * 64 * 4); /* t2 lives to the end beside t3 and t4 */
}

/* ---- the whole pipeline, printing ------------------------------------------------------------ */

TEST(pipeline_run__train_step__at_most_12_steps) {
    Plan *p = plan_file("examples/train_step.json");
    assert_true(p->nsteps <= 12);
    assert_int_equal(p->nsteps, 7);
    assert_int_equal(count_kind(p, STEP_GEMM), 3); /* z1, dw2, dw1: z2 and da1 run inside the row step */
    assert_int_equal(count_kind(p, STEP_ROW), 1);
    assert_int_equal(count_kind(p, STEP_REDUCE), 3);
    assert_int_equal(p->steps[writer(p, "dlogits")].kind, STEP_ROW);
    assert_int_equal(writer(p, "dlogits"), writer(p, "ll_row"));
    assert_int_equal(writer(p, "dh1"), writer(p, "ll_row"));
    assert_int_equal(writer(p, "h1"), writer(p, "a1"));
    assert_int_equal(p->buf[id("ylogp")].kind, BUF_NONE);
}

TEST(pipeline_run__digits_step__at_most_12_steps) {
    Plan *p = plan_file("examples/digits_step.json");
    assert_int_equal(p->nsteps, 9);
    check_arena(p);
}

/* pipeline_run on y = -x stopped after pass `stop` (Diag in *d, "t.json"): its status */
static int run_neg_until(const char *stop, Diag *d) {
    const char *text = "{\"format\": \"gtc-graph\", \"version\": 1, \"name\": \"t\", " X_IN
                       "\"nodes\": [{\"name\": \"y\", \"op\": \"neg\", \"inputs\": [\"x\"]}], \"outputs\": {\"y\": \"y\"}}";
    diag_init(d, "t.json");
    g = ir_read_json(text, strlen(text), d);
    assert_non_null(g);
    return pipeline_run(g, NULL, d, stop);
}

TEST(pipeline_run__stop_after_fuse__plan_not_scheduled) {
    plan_text(X_IN "\"nodes\": [" SOFTMAX_NODES "], \"outputs\": {\"p\": \"p\"}");
    graph_free(g);
    Diag d;
    assert_int_equal(run_neg_until("fuse", &d), 0);
    assert_false(g->plan->scheduled);
    assert_false(g->plan->placed);
    assert_int_equal(pipeline_run(g, NULL, &d, "nonesuch"), -1);
    assert_string_equal(d.msg, "t.json: unknown pass \"nonesuch\"");
}

TEST(pipeline_run__stop_after_memplan__not_lowered) {
    Diag d;
    assert_int_equal(run_neg_until("memplan", &d), 0);
    assert_true(g->plan->placed);
    assert_false(g->plan->lowered);
    assert_int_equal(g->plan->steps[0].lower.form, LOWER_NONE);
}

TEST(pipeline_pass_name__table__seven_passes_in_order) {
    assert_int_equal(pipeline_npasses(), 7);
    assert_string_equal(pipeline_pass_name(0), "autodiff");
    assert_string_equal(pipeline_pass_name(1), "simplify");
    assert_string_equal(pipeline_pass_name(2), "bf16");
    assert_string_equal(pipeline_pass_name(3), "fuse");
    assert_string_equal(pipeline_pass_name(4), "schedule");
    assert_string_equal(pipeline_pass_name(5), "memplan");
    assert_string_equal(pipeline_pass_name(6), "lower");
    assert_null(pipeline_pass_name(7));
    assert_int_equal(pipeline_find("memplan"), 5);
    assert_int_equal(pipeline_find("lower"), 6);
    assert_false(pipeline_builds_plan("bf16"));
}

/* ---- bfloat16 storage (compiler/pass_bf16.c) ------------------------------------------------- */

/* relu(x @ w1 + b) -> h, read by the product h @ w2 (512^3: cuBLASLt's under the cost model), then
 * by `extra` (a node reading h, or none), planned for the H200 in `prec`. */
static Plan *plan_bf16(TargetPrecision prec, const char *extra, const char *outputs) {
    char text[4096];
    snprintf(text, sizeof text,
             "{\"format\": \"gtc-graph\", \"version\": 1, \"name\": \"t\", "
             "\"inputs\": [{\"name\": \"x\", \"dtype\": \"float32\", \"shape\": [512, 512]},"
             " {\"name\": \"w1\", \"dtype\": \"float32\", \"shape\": [512, 512]},"
             " {\"name\": \"w2\", \"dtype\": \"float32\", \"shape\": [512, 512]},"
             " {\"name\": \"b\", \"dtype\": \"float32\", \"shape\": [512]}],"
             "\"nodes\": [{\"name\": \"z\", \"op\": \"matmul\", \"inputs\": [\"x\", \"w1\"]},"
             " {\"name\": \"zb\", \"op\": \"add\", \"inputs\": [\"z\", \"b\"]},"
             " {\"name\": \"h\", \"op\": \"relu\", \"inputs\": [\"zb\"]},"
             " {\"name\": \"y\", \"op\": \"matmul\", \"inputs\": [\"h\", \"w2\"]}%s],"
             "\"outputs\": {%s}}",
             extra, outputs);
    Diag d;
    diag_init(&d, "t.json");
    g = ir_read_json(text, strlen(text), &d);
    if (!g) fail_msg("graph does not load: %s", d.msg);
    Target t = *target_default();
    t.precision = prec;
    if (pipeline_run(g, &t, &d, NULL)) fail_msg("pipeline failed: %s", d.msg);
    return g->plan;
}

TEST(pass_bf16__product_and_sign_test__stored_and_folded) {
    Plan *p = plan_bf16(PREC_BF16, ", {\"name\": \"m\", \"op\": \"gt\", \"inputs\": [\"h\", 0]}",
                        "\"y\": \"y\", \"m\": \"m\"");
    const NodeId h16 = id("h_bf16"), h32 = id("h_f32");
    assert_int_equal(g->nodes[h16].type.dtype, DT_BFLOAT16);
    assert_true(g->nodes[h16].attrs.storage && g->nodes[h32].attrs.storage);
    assert_int_equal(p->buf[id("h")].kind, BUF_NONE); /* only its cast is written */
    assert_int_equal(p->buf[h16].kind, BUF_ARENA);
    assert_int_equal(p->buf[h16].bytes, 512 * 512 * 2);
    assert_int_equal(p->buf[h32].kind, BUF_NONE);
    const Step *w = &p->steps[writer(p, "h_bf16")], *r = &p->steps[writer(p, "y")];
    assert_int_equal(w->lower.form, LOWER_GEMM_BLAS);
    assert_int_equal(w->lower.lib_cast, h16); /* cuBLASLt's bfloat16 D, after its bias and relu */
    assert_int_equal(w->lower.lib_relu, id("h"));
    assert_int_equal(w->lower.lib_bias, id("zb"));
    assert_false(w->lower.epilogue);
    assert_int_equal(w->lower.gemm_out, -1);   /* the CPU's product goes to the scratch */
    assert_int_equal(r->gemm_in[0], h16);
    assert_true(r->gemm_half[0] && !r->gemm_half[1]);
    assert_false(r->lower.epilogue);
    /* the sign test reads the bfloat16 value */
    const Step *ms = &p->steps[writer(p, "m")];
    bool reads = false;
    for (int k = 0; k < ms->nins; k++) reads |= ms->ins[k] == h16;
    assert_true(reads);
}

TEST(pass_bf16__sum_reader__stored) {
    plan_bf16(PREC_BF16, ", {\"name\": \"s\", \"op\": \"sum\", \"inputs\": [\"h\"], \"axes\": [0]}",
              "\"y\": \"y\", \"s\": \"s\"");
    assert_true(graph_find(g, "h_bf16") >= 0);
}

TEST(pass_bf16__other_reader_output_or_fp32__stays_float32) {
    plan_bf16(PREC_BF16, ", {\"name\": \"e\", \"op\": \"exp\", \"inputs\": [\"h\"]}",
              "\"y\": \"y\", \"e\": \"e\"");
    assert_int_equal(graph_find(g, "h_bf16"), -1);
    teardown(NULL);
    plan_bf16(PREC_BF16, "", "\"y\": \"y\", \"h\": \"h\""); /* h is a graph output */
    assert_int_equal(graph_find(g, "h_bf16"), -1);
    teardown(NULL);
    plan_bf16(PREC_BF16, ", {\"name\": \"m\", \"op\": \"gt\", \"inputs\": [\"h\", 1]}", /* not a sign test */
              "\"y\": \"y\", \"m\": \"m\"");
    assert_int_equal(graph_find(g, "h_bf16"), -1);
    teardown(NULL);
    plan_bf16(PREC_TF32, "", "\"y\": \"y\"");
    assert_int_equal(graph_find(g, "h_bf16"), -1);
    teardown(NULL);
    setenv("GTC_GEMM", "kernel", 1); /* the product in our kernel: nothing reads bfloat16 */
    plan_bf16(PREC_BF16, "", "\"y\": \"y\"");
    unsetenv("GTC_GEMM");
    assert_int_equal(graph_find(g, "h_bf16"), -1);
}

TEST(plan_print__three_formats__deterministic) {
    plan_file("examples/train_step.json");
    for (int fmt = PLAN_TEXT; fmt <= PLAN_DOT; fmt++) {
        char *a = print((PlanFormat)fmt), *b = print((PlanFormat)fmt);
        assert_string_equal(a, b);
        if (fmt == PLAN_TEXT) assert_non_null(strstr(a, "totals: steps 7 (gemm 3, row 1, reduce 3"));
        if (fmt == PLAN_TEXT) assert_non_null(strstr(a, "  kernel: tiled gemm 32x32 tm8 ks8 bk64 st4; grid 16 x 8 x 1, block 256, "
                                                      "shared memory 71680 bytes, own SM; CPU product in h1\n"));
        if (fmt == PLAN_TEXT) assert_non_null(strstr(a, "\n  after: s1; uses: "));
        if (fmt == PLAN_TEXT) assert_non_null(strstr(a, "\nscratch: arena [1579008,2070528) "));
        if (fmt == PLAN_JSON) assert_non_null(strstr(a, "\"format\":\t\"gtc-plan\""));
        if (fmt == PLAN_JSON) assert_non_null(strstr(a, "\"tile\":\t{\n"));
        if (fmt == PLAN_JSON) assert_non_null(strstr(a, "\"sms\":\t132"));
        if (fmt == PLAN_DOT) assert_true(strncmp(a, "digraph \"mlp_train_step\" {", 26) == 0);
        free(a);
        free(b);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(pass_fuse__a_plus_b_times_c__one_elementwise_step_no_arena, teardown),
        cmocka_unit_test_teardown(pass_fuse__elementwise_chain_of_20__one_step, teardown),
        cmocka_unit_test_teardown(pass_fuse__row_softmax__one_row_step, teardown),
        cmocka_unit_test_teardown(pass_fuse__softmax_rows_longer_than_4096__no_row_step, teardown),
        cmocka_unit_test_teardown(pass_fuse__logsumexp__one_row_step, teardown),
        cmocka_unit_test_teardown(pass_fuse__independent_row_sum_read_by_the_row_step__joins_it, teardown),
        cmocka_unit_test_teardown(pass_fuse__independent_row_sum_also_an_output__keeps_its_step, teardown),
        cmocka_unit_test_teardown(pass_fuse__independent_row_sum_read_elsewhere_too__keeps_its_step, teardown),
        cmocka_unit_test_teardown(pass_fuse__logits_softmax_ce_backward__one_row_step_with_prologue_and_epilogue, teardown),
        cmocka_unit_test_teardown(pass_fuse__epilogue_b_depends_on_the_rows__stays_a_gemm, teardown),
        cmocka_unit_test_teardown(pass_fuse__ten_classes__no_row_matmuls, teardown),
        cmocka_unit_test_teardown(pass_fuse__batched_logits__no_row_matmuls, teardown),
        cmocka_unit_test_teardown(pass_fuse__matmul_bias_relu__one_gemm_step, teardown),
        cmocka_unit_test_teardown(pass_fuse__transposed_operands__folded_into_gemm_flags, teardown),
        cmocka_unit_test_teardown(pass_fuse__shared_values__expensive_materialised_once_cheap_recomputed, teardown),
        cmocka_unit_test_teardown(pass_fuse__reduce_with_update_epilogue__one_reduce_step, teardown),
        cmocka_unit_test_teardown(pass_fuse__output_is_input_or_view__copy_steps, teardown),
        cmocka_unit_test_teardown(pass_fuse__without_simplify__dead_nodes_in_no_step, teardown),
        cmocka_unit_test_teardown(pass_schedule__donated_w2__readers_run_before_the_update, teardown),
        cmocka_unit_test_teardown(pass_schedule__declared_before_its_reader__update_moved_after, teardown),
        cmocka_unit_test_teardown(pass_schedule__writer_reads_input_transposed__staged_and_copied_last, teardown),
        cmocka_unit_test_teardown(pass_schedule__update_read_through_a_view__staged_and_copied_last, teardown),
        cmocka_unit_test_teardown(pass_schedule__cycle_through_donation__staged_and_copied_last, teardown),
        cmocka_unit_test_teardown(pass_memplan__train_step__aligned_disjoint_offsets, teardown),
        cmocka_unit_test_teardown(pass_memplan__chain_of_live_intervals__space_reused, teardown),
        cmocka_unit_test_teardown(pipeline_run__train_step__at_most_12_steps, teardown),
        cmocka_unit_test_teardown(pipeline_run__digits_step__at_most_12_steps, teardown),
        cmocka_unit_test_teardown(pipeline_run__stop_after_fuse__plan_not_scheduled, teardown),
        cmocka_unit_test_teardown(pipeline_run__stop_after_memplan__not_lowered, teardown),
        cmocka_unit_test(pipeline_pass_name__table__seven_passes_in_order),
        cmocka_unit_test_teardown(pass_bf16__product_and_sign_test__stored_and_folded, teardown),
        cmocka_unit_test_teardown(pass_bf16__sum_reader__stored, teardown),
        cmocka_unit_test_teardown(pass_bf16__other_reader_output_or_fp32__stays_float32, teardown),
        cmocka_unit_test_teardown(plan_print__three_formats__deterministic, teardown),
    };
    return cmocka_run_group_tests_name("plan", tests, NULL, NULL);
}
