/* tests/unit/test_lower.c: lowering (pass_lower) and targets: launch shapes, GEMM tiles, their
 * stages and shared memory, the precision policy's library steps, the edges the executor links,
 * target names and device figures, on graphs given as JSON. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "plan_helpers.h"

/* ---- lowering and targets ------------------------------------------------------------------ */

TEST(pass_lower__train_step__launch_tile_smem_and_cpu_product) {
    Plan *p = plan_file("examples/train_step.json");
    assert_true(p->lowered);
    assert_string_equal(p->target.name, "sm_90");
    const StepLower *z1 = &p->steps[writer(p, "h1")].lower; /* x @ w1 */
    assert_int_equal(z1->form, LOWER_GEMM_TILED);
    assert_int_equal(z1->bm, 32), assert_int_equal(z1->bn, 32), assert_int_equal(z1->tm, 8);
    assert_int_equal(z1->ks, 8), assert_int_equal(z1->bk, 64);
    assert_int_equal(z1->grid[0], 16), assert_int_equal(z1->grid[1], 8), assert_int_equal(z1->grid[2], 1);
    assert_int_equal(z1->block[0], 256);
    assert_int_equal(z1->smem, 71680);
    assert_true(z1->own_sm);
    assert_int_equal(z1->gemm_out, id("h1"));
    const StepLower *row = &p->steps[writer(p, "dlogits")].lower;
    assert_int_equal(row->form, LOWER_ROW_WARP);
    assert_int_equal(row->warps, 4);
    assert_int_equal(row->grid[0], 128), assert_int_equal(row->block[0], 128);
    assert_int_equal(row->smem, 0);
    assert_false(row->own_sm);
    assert_int_equal(p->steps[6].kind, STEP_REDUCE); /* db1 over [512,256], into b1's update */
    const StepLower *db1 = &p->steps[6].lower;
    assert_int_equal(db1->form, LOWER_RED_COLS);
    assert_int_equal(db1->grid[0], 32);
    /* dw1's product has no buffer of its own (w1_next is written in place of w1): scratch */
    assert_int_equal(p->steps[5].kind, STEP_GEMM);
    const StepLower *dw1 = &p->steps[5].lower;
    assert_int_equal(dw1->form, LOWER_GEMM_TILED);
    assert_int_equal(dw1->smem, 73728);
    assert_int_equal(dw1->gemm_out, -1);
    assert_int_equal(p->scratch_off, 1579008);
    assert_int_equal(p->scratch_off % 256, 0);
    assert_true(p->scratch_off >= p->arena_bytes);
    assert_int_equal(p->scratch_bytes, 480 * 256 * 4);
}

/* The cost model: blas_mlp's two 1024^3 products go to cuBLASLt in fp32 (at or over 2^29
 * multiply-adds); train_step's two 512x256x480 products (2^25.9) stay ours in fp32 and in tf32
 * or bf16 (under 2^27; there on TF32 tensor cores in our 32x32 tile, while digits' 16x16 tiles stay
 * exact), and go to cuBLASLt when forced by GTC_GEMM; the skinny one stays
 * ours; the product's buffer and the scratch are the CPU's, and a scratch-writing cuBLASLt step
 * waits for the other (they share it). GTC_GEMM forces either form. */
/* K steps in flight (gtc_gemm's NST): 4 within 96 KB; all of K (up to 9) on TF32 tensor cores when
 * the grid fits in one wave, with the shared memory that takes (rows along M or N padded by 8) */
TEST(pass_lower__gemm_stages__all_of_k_in_one_tf32_wave) {
    Target t = *target_default();
    const int precs[] = {PREC_FP32, PREC_TF32};
    for (int k = 0; k < 2; k++) {
        t.precision = precs[k];
        Plan *p = plan_file_for("examples/train_step.json", &t);
        const StepLower *fw = &p->steps[writer(p, "h1")].lower, *dw = &p->steps[writer(p, "w1_next")].lower;
        assert_int_equal(fw->form, LOWER_GEMM_TILED), assert_int_equal(dw->form, LOWER_GEMM_TILED);
        assert_int_equal(fw->tf32, k == 1), assert_int_equal(dw->tf32, k == 1);
        /* 16 x 8 and 15 x 8 blocks of 32x32 on 132 SMs; K = 480 and 512: 8 steps of 64, 9 in flight */
        assert_int_equal(fw->nst, k ? 9 : 4), assert_int_equal(dw->nst, k ? 9 : 4);
        /* x @ w1: A 32 x (64 + 4), B 64 x (32 + 8 on tensor cores, + 4 exact) per step */
        assert_int_equal(fw->smem, k ? 9 * (32 * 68 + 64 * 40) * 4 : 4 * (32 * 68 + 64 * 36) * 4);
        /* x^T @ dh1: both tiles K rows of 32 (+ 8 / + 4) */
        assert_int_equal(dw->smem, k ? 9 * (64 * 40 + 64 * 40) * 4 : 4 * (64 * 36 + 64 * 36) * 4);
        graph_free(g), g = NULL;
    }
    /* 100 SMs: the same 32x32 tiles (128 blocks > 75), now more than one wave: 4 steps */
    t.sms = 100;
    Plan *p = plan_file_for("examples/train_step.json", &t);
    const StepLower *fw = &p->steps[writer(p, "h1")].lower;
    assert_int_equal(fw->bm, 32), assert_int_equal(fw->grid[0] * fw->grid[1], 128);
    assert_true(fw->tf32);
    assert_int_equal(fw->nst, 4);
}

TEST(pass_lower__precision_and_gemm_env__cublaslt_steps) {
    Target t = *target_default();
    const int precs[] = {PREC_FP32, PREC_TF32, PREC_BF16};
    for (int k = 0; k < 3; k++) {
        t.precision = precs[k];
        Plan *p = plan_file_for("tests/golden/blas_mlp/graph.json", &t);
        const StepLower *z1 = &p->steps[writer(p, "a1")].lower;
        assert_int_equal(z1->form, LOWER_GEMM_BLAS);
        assert_int_equal(z1->gemm_out, id("a1")); /* relu(x w1 + b1) straight from cuBLASLt */
        assert_false(z1->epilogue);
        assert_false(z1->own_sm);
        static const char *const why[] = {"cuBLASLt: 1073741824 multiply-adds, at or over the fp32 threshold of 536870912",
                                          "cuBLASLt (tf32 tensor cores): 1073741824 multiply-adds, at or over the tf32 threshold of 134217728",
                                          "cuBLASLt (bf16 tensor cores): 1073741824 multiply-adds, at or over the bf16 threshold of 134217728"};
        char want[256];
        snprintf(want, sizeof want, "%s; add h1 (bias b1) and relu a1 in cuBLASLt's epilogue", why[k]);
        assert_string_equal(z1->why_gemm, want);
        assert_int_equal(z1->lib_bias, id("h1"));
        assert_int_equal(z1->lib_relu, id("a1"));
        assert_int_equal(writer(p, "h1"), -1); /* the backward's mask reads a1: h1 is never written */
        /* x^T @ d_h1 into w1 in place: the CPU's product in the scratch; on CUDA cuBLASLt's alpha
         * and beta write w1 - lr * product into w1, no kernel after it */
        const StepLower *dw1 = &p->steps[p->nsteps - 1].lower;
        assert_int_equal(p->steps[p->nsteps - 1].kind, STEP_GEMM);
        assert_int_equal(dw1->form, LOWER_GEMM_BLAS);
        assert_int_equal(dw1->gemm_out, -1);
        assert_false(dw1->epilogue);
        assert_int_equal(dw1->lib_bias, -1);
        assert_int_equal(dw1->lib_relu, -1);
        assert_int_equal(dw1->lib_update, id("w1_next"));
        assert_int_equal(p->steps[writer(p, "d")].lower.form, LOWER_GEMM_TILED); /* 1024x16x1024: 2^24 */
        assert_int_equal(p->target.precision, precs[k]);
        graph_free(g);
        g = NULL;
        p = plan_file_for("examples/train_step.json", &t); /* 512x256x480 products stay ours */
        assert_int_equal(p->steps[writer(p, "a1")].lower.form, LOWER_GEMM_TILED);
        assert_non_null(strstr(p->steps[writer(p, "a1")].lower.why_gemm, "our kernel: 62914560 multiply-adds, under the"));
        /* tf32 and bf16: our kernel's 32x32 tile on TF32 tensor cores; fp32 stays exact */
        assert_int_equal(p->steps[writer(p, "a1")].lower.tf32, precs[k] != PREC_FP32);
        assert_int_equal(strstr(p->steps[writer(p, "a1")].lower.why_gemm, "; TF32 tensor cores") != NULL,
                         precs[k] != PREC_FP32);
        assert_non_null(strstr(p->steps[3].lower.why_gemm, "N or K of at most 8"));
        graph_free(g);
        g = NULL;
        p = plan_file_for("examples/digits_step.json", &t); /* 16x16 tiles: no m16n8 split, exact */
        assert_int_equal(p->steps[writer(p, "a1")].lower.form, LOWER_GEMM_TILED);
        assert_false(p->steps[writer(p, "a1")].lower.tf32);
        graph_free(g);
        g = NULL;
    }
    t.precision = PREC_TF32;
    setenv("GTC_GEMM", "cublaslt", 1);
    Plan *p = plan_file_for("examples/train_step.json", &t);
    assert_int_equal(p->steps[writer(p, "a1")].lower.form, LOWER_GEMM_BLAS);
    assert_string_equal(p->steps[writer(p, "a1")].lower.why_gemm, "cuBLASLt: GTC_GEMM=cublaslt; add h1 (bias b1) in cuBLASLt's epilogue");
    assert_int_equal(p->steps[3].lower.form, LOWER_GEMM_SKINNY_T); /* cuBLASLt never takes N <= 8 */
    graph_free(g);
    g = NULL;
    setenv("GTC_GEMM", "kernel", 1);
    p = plan_file_for("tests/golden/blas_mlp/graph.json", &t);
    assert_int_equal(p->steps[writer(p, "a1")].lower.form, LOWER_GEMM_TILED);
    assert_string_equal(p->steps[writer(p, "a1")].lower.why_gemm, "our kernel: GTC_GEMM=kernel; TF32 tensor cores");
    unsetenv("GTC_GEMM");
}

/* tf32 and bf16 need tensor cores of compute capability 8.0+: a plan for sm_75 is refused. */
TEST(target_precision__parse_and_check__errors) {
    int prec = -1;
    char err[256];
    assert_int_equal(target_precision_parse("high", &prec, err, sizeof err), 0);
    assert_int_equal(prec, PREC_TF32);
    assert_int_equal(target_precision_parse("medium", &prec, err, sizeof err), 0);
    assert_int_equal(prec, PREC_BF16);
    assert_int_equal(target_precision_parse("fp32", &prec, err, sizeof err), 0);
    assert_int_equal(prec, PREC_FP32);
    assert_int_equal(target_precision_parse("fp16", &prec, err, sizeof err), -1);
    assert_string_equal(err, "'fp16' is not a precision (fp32, tf32 or bf16; or highest, high, medium)");
    assert_int_equal(target_precision_parse(NULL, &prec, err, sizeof err), -1);
    Target t;
    assert_int_equal(target_parse("sm_75", &t, err, sizeof err), 0);
    assert_int_equal(target_precision_check(&t, err, sizeof err), 0);
    t.precision = PREC_BF16;
    assert_int_equal(target_precision_check(&t, err, sizeof err), -1);
    assert_string_equal(err, "--precision=bf16 needs tensor cores of compute capability 8.0 or later; sm_75 is 7.5");
    Diag d;
    diag_init(&d, "examples/train_step.json");
    g = ir_read_json_file("examples/train_step.json", &d);
    assert_non_null(g);
    assert_int_equal(pipeline_run(g, &t, &d, NULL), -1);
    assert_non_null(strstr(d.msg, "needs tensor cores of compute capability 8.0"));
}

/* The transitive closure of the after masks: bit i of anc[j] when j waits for i, directly or not. */
static void closure(const Plan *p, uint64_t *anc) {
    for (int j = 0; j < p->nsteps; j++) {
        anc[j] = p->steps[j].lower.after;
        for (int i = 0; i < j; i++)
            if ((p->steps[j].lower.after >> i) & 1) anc[j] |= anc[i];
    }
}

TEST(pass_lower__train_step__edges_reduced) {
    Plan *p = plan_file("examples/train_step.json");
    assert_int_equal(p->nsteps, 7);
    /* step 0 (x @ w1) first, the row step after it, every other step after the row step only
     * (each also conflicts with step 0, which the row step's edge implies) */
    assert_int_equal(p->steps[0].lower.after, 0);
    assert_int_equal(p->steps[1].lower.after, 1);
    for (int s = 2; s < 7; s++) assert_int_equal(p->steps[s].lower.after, 2);
    uint64_t anc[64];
    closure(p, anc);
    for (int j = 0; j < p->nsteps; j++)
        for (int i = 0; i < j; i++) { /* no kept edge is implied by another kept edge */
            if (!((p->steps[j].lower.after >> i) & 1)) continue;
            for (int k = 0; k < j; k++)
                if (k != i && ((p->steps[j].lower.after >> k) & 1)) assert_false((anc[k] >> i) & 1);
        }
}

/* What the code generators ask of the edges (which values a kernel may read before its wait):
 * each step's ancestors, and the steps that write an input's buffer (its donated output's). */
TEST(lower_ancestors_and_input_writers__train_step) {
    Plan *p = plan_file("examples/train_step.json");
    uint64_t anc[64];
    closure(p, anc);
    for (int j = 0; j < p->nsteps; j++) assert_int_equal(lower_ancestors(p, j), anc[j]);
    assert_int_equal(lower_ancestors(p, -1), 0);
    assert_int_equal(lower_ancestors(p, p->nsteps), 0);
    assert_int_equal(lower_input_writers(g, 0), 0); /* x, y: read only */
    assert_int_equal(lower_input_writers(g, 1), 0);
    const char *upd[] = {"w1_next", "b1_next", "w2_next", "b2_next"};
    for (int k = 0; k < 4; k++) { /* inputs 2..5, each written by its update's step alone */
        const int w = writer(p, upd[k]);
        assert_true(w > 1);
        assert_int_equal(lower_input_writers(g, 2 + k), 1ull << w);
        /* the row step (1) reads w2 and b2; their writers wait for it, not it for them */
        assert_false((lower_ancestors(p, 1) >> w) & 1);
    }
}

TEST(pass_lower__digits_step__edges_reduced_and_reach_every_conflict) {
    Plan *p = plan_file("examples/digits_step.json");
    uint64_t anc[64];
    closure(p, anc);
    /* the last step (the update of a donated weight) waits for some earlier step, and every step
     * but the first waits for something */
    for (int j = 1; j < p->nsteps; j++) assert_true(anc[j] != 0);
    for (int j = 0; j < p->nsteps; j++)
        for (int i = 0; i < j; i++) {
            if (!((p->steps[j].lower.after >> i) & 1)) continue;
            for (int k = 0; k < j; k++)
                if (k != i && ((p->steps[j].lower.after >> k) & 1)) assert_false((anc[k] >> i) & 1);
        }
}

TEST(pass_lower__smaller_target__larger_tiles_smaller_grids) {
    Target t;
    char err[256];
    assert_int_equal(target_parse("sm_75", &t, err, sizeof err), 0);
    Plan *p = plan_file_for("examples/train_step.json", &t);
    assert_string_equal(p->target.name, "sm_75");
    const StepLower *z1 = &p->steps[writer(p, "h1")].lower;
    /* 40 SMs: the 64 x 64 tile already gives 32 > 30 blocks */
    assert_int_equal(z1->bm, 64), assert_int_equal(z1->bn, 64);
    assert_int_equal(z1->grid[0], 8), assert_int_equal(z1->grid[1], 4);
    assert_true(z1->smem <= (unsigned)t.smem_block);
}

TEST(pass_lower__elementwise_grid__eight_blocks_per_target_sm) {
    const char *text = "{\"format\": \"gtc-graph\", \"version\": 1, \"name\": \"t\", "
                       "\"inputs\": [{\"name\": \"x\", \"dtype\": \"float32\", \"shape\": [1000, 1000]}], "
                       "\"nodes\": [{\"name\": \"y\", \"op\": \"neg\", \"inputs\": [\"x\"]}], \"outputs\": {\"y\": \"y\"}}";
    static const struct {
        const char *arch;
        unsigned grid;
    } cases[] = {{"sm_90", 8 * 132}, {"sm_80", 8 * 108}, {"sm_75", 8 * 40}};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        Target t;
        char err[256];
        Diag d;
        diag_init(&d, "t.json");
        assert_int_equal(target_parse(cases[c].arch, &t, err, sizeof err), 0);
        g = ir_read_json(text, strlen(text), &d);
        assert_int_equal(pipeline_run(g, &t, &d, NULL), 0);
        assert_int_equal(g->plan->steps[0].lower.form, LOWER_GRID);
        assert_int_equal(g->plan->steps[0].lower.grid[0], cases[c].grid);
        assert_int_equal(g->plan->steps[0].lower.block[0], 256);
        graph_free(g);
        g = NULL;
    }
}

TEST(target_parse__known_names__fields) {
    Target t;
    char err[256];
    assert_int_equal(target_parse("sm_90", &t, err, sizeof err), 0);
    assert_string_equal(t.name, "sm_90");
    assert_int_equal(t.cc_major, 9), assert_int_equal(t.cc_minor, 0);
    assert_int_equal(t.sms, 132);
    assert_int_equal(t.smem_block, 227 * 1024), assert_int_equal(t.smem_sm, 228 * 1024);
    assert_int_equal(t.fp64_ratio, 2), assert_int_equal(t.tensor_gen, 4);
    assert_memory_equal(&t, target_default(), sizeof t);
    assert_int_equal(target_parse("sm_90a", &t, err, sizeof err), 0);
    assert_string_equal(t.name, "sm_90a");
    assert_int_equal(t.sms, 132);
    assert_int_equal(target_parse("sm_100", &t, err, sizeof err), 0);
    assert_int_equal(t.cc_major, 10), assert_int_equal(t.cc_minor, 0);
    assert_int_equal(target_parse("sm_86", &t, err, sizeof err), 0);
    assert_int_equal(t.cc_major, 8), assert_int_equal(t.cc_minor, 6), assert_int_equal(t.fp64_ratio, 64);
}

TEST(target_parse__garbage_and_unknown__errors) {
    static const char *const bad[] = {"", "90", "sm90", "sm_", "sm_9", "sm_9000", "sm_90x", "sm_90aa", "SM_90",
                                      "compute_90", "sm_90 ", "h200"};
    Target t;
    char err[256];
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(target_parse(bad[i], &t, err, sizeof err), -1);
        assert_non_null(strstr(err, "is not an SM architecture such as sm_90 or sm_90a"));
    }
    assert_int_equal(target_parse(NULL, &t, err, sizeof err), -1);
    assert_int_equal(target_parse("sm_42", &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "'sm_42' is not an architecture gtc knows (known: sm_60 "));
    assert_non_null(strstr(err, " sm_90 "));
    char tiny[8]; /* a short buffer is cut, never overrun */
    assert_int_equal(target_parse("sm_42", &t, tiny, sizeof tiny), -1);
    assert_int_equal(strlen(tiny), sizeof tiny - 1);
}

TEST(target_from_device__figures__kept_rates_from_the_table) {
    Target t;
    assert_int_equal(target_from_device(&t, 114, 9, 0, 227 * 1024, 228 * 1024), 0); /* an H100 PCIe */
    assert_string_equal(t.name, "sm_90");
    assert_int_equal(t.sms, 114), assert_int_equal(t.fp64_ratio, 2), assert_int_equal(t.tensor_gen, 4);
    assert_int_equal(target_from_device(&t, 58, 8, 9, 99 * 1024, 100 * 1024), 0); /* an L4 */
    assert_int_equal(t.sms, 58), assert_int_equal(t.fp64_ratio, 64);
    assert_int_equal(target_from_device(&t, 10, 9, 5, 1024, 2048), 0); /* unknown 9.5: sm_90's rates */
    assert_string_equal(t.name, "sm_95");
    assert_int_equal(t.fp64_ratio, 2), assert_int_equal(t.smem_block, 1024);
    assert_int_equal(target_from_device(&t, 0, 9, 0, 1024, 1024), -1);
    assert_int_equal(target_from_device(&t, 1, 9, 0, 0, 1024), -1);
    assert_int_equal(target_from_device(&t, 1, 0, 0, 1024, 1024), -1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(pass_lower__train_step__launch_tile_smem_and_cpu_product, teardown),
        cmocka_unit_test_teardown(pass_lower__train_step__edges_reduced, teardown),
        cmocka_unit_test_teardown(lower_ancestors_and_input_writers__train_step, teardown),
        cmocka_unit_test_teardown(pass_lower__digits_step__edges_reduced_and_reach_every_conflict, teardown),
        cmocka_unit_test_teardown(pass_lower__smaller_target__larger_tiles_smaller_grids, teardown),
        cmocka_unit_test_teardown(pass_lower__elementwise_grid__eight_blocks_per_target_sm, teardown),
        cmocka_unit_test(target_parse__known_names__fields),
        cmocka_unit_test(target_parse__garbage_and_unknown__errors),
        cmocka_unit_test_teardown(pass_lower__gemm_stages__all_of_k_in_one_tf32_wave, teardown),
        cmocka_unit_test_teardown(pass_lower__precision_and_gemm_env__cublaslt_steps, teardown),
        cmocka_unit_test_teardown(target_precision__parse_and_check__errors, teardown),
        cmocka_unit_test(target_from_device__figures__kept_rates_from_the_table),
    };
    return cmocka_run_group_tests_name("lower", tests, NULL, NULL);
}
