/* tests/unit/test_emit_numeric.c: the generated CPU code end to end (emit_harness.h): each graph
 * is planned, emitted, built with cc into a shared object, run through the executor on the CPU
 * backend, and compared with eager rt_apply evaluation: within 1e-5 relative error (max |diff| /
 * max |reference| per output), integers and bools exactly. Prints one line per case. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "emit_harness.h"
#include "../../runtime/core/plan_abi.h"

#define TEST(name) static void name(void **state __attribute__((unused)))

static void check(const char *graph, int steps, double tol) {
    char path[1024], build[2048];
    snprintf(path, sizeof path, "%s%s%s", graph[0] == '/' ? "" : h_root(), graph[0] == '/' ? "" : "/", graph);
    /* the generated C must build warning-free with -Wall -Wextra -Werror, with the flags gtc
     * compile and the JIT use (RT_CPU_KERNEL_CFLAGS: -O3, OpenMP) */
    snprintf(build, sizeof build,
             "cc -std=c11 " RT_CPU_KERNEL_CFLAGS " -Wall -Wextra -Werror -fPIC -shared -I%s/runtime/core -I%s/ir -o %%s/model.so "
             "%%s/kernels_cpu.c %%s/plan.c -lopenblas -lm",
             h_root(), h_root());
    HarnessResult r;
    int rc = h_run(path, steps, &rt_cpu_backend, build, &r);
    printf("    %-44s %2d steps x %d: max rel err %.2e%s%s\n", graph, r.kernels, steps, r.err, r.worst[0] ? "  worst: " : "",
           r.worst);
    if (r.msg[0]) fail_msg("%s: %s", graph, r.msg);
    if (rc || r.mismatches) fail_msg("%s: %d mismatches (%s)", graph, r.mismatches, r.worst);
    if (r.err > tol) fail_msg("%s: relative error %.3g > %.1g (%s)", graph, r.err, tol, r.worst);
}

#define F32 1e-5

TEST(emit_cpu__a_plus_b_times_c__matches_eager) { check("tests/golden/ew_abc/graph.json", 1, F32); }
TEST(emit_cpu__chain_of_20__matches_eager) { check("tests/golden/ew_chain20/graph.json", 1, F32); }
TEST(emit_cpu__shared_expensive__matches_eager) { check("tests/golden/ew_shared_expensive/graph.json", 1, F32); }
TEST(emit_cpu__views_with_steps__matches_eager) { check("tests/emit/views_steps.json", 1, F32); }
/* innermost loops written in versions (emit_cpu.c loop_nest): a concat on the last axis and on
 * an outer one, pads with zero ranges at both ends (last and outer axes), negative-step slices
 * inside concats, a stride-2 interleave (pad + reshape: odd and even positions), two pads summed
 * (a col2im's form), a pad read through a reshape that merges the innermost axis with another
 * (the longest outer axis made innermost); copies and exact ops only: the same bits */
TEST(emit_cpu__loop_versions__match_eager_exactly) { check("tests/emit/loop_versions.json", 1, 0.0); }
/* max, min, relu and where (scalar.h's branch-free forms) over NaNs (sqrt of negatives) and
 * signed zeros (made visible as 1/x = -inf or +inf), in a vectorised step and in the strided
 * loops of two max pools (one over NaNs): the same bits as eager */
TEST(emit_cpu__selects_nan_and_signed_zero__match_eager_exactly) { check("tests/emit/selects.json", 1, 0.0); }
/* reductions over every axis but one that is not the last (a convolution's bias gradient over
 * [N, C, H, W]), written as blocks of accumulators (emit_cpu.c emit_cpu_reduce_cols): sums with
 * a fused prologue, kept dims or not, a mean, a max, float64, more outputs than one block, a
 * parallel one; each output folds in index order as eager does: the same bits */
TEST(emit_cpu__reductions_keeping_a_middle_axis__match_eager_exactly) { check("tests/emit/reduce_kept_axis.json", 1, 0.0); }
TEST(emit_cpu__golden_views__matches_eager) { check("tests/golden/views/graph.json", 1, F32); }
/* reshapes that merge, split, straddle ([4,15] from [10,6]) and add or drop size-1 axes, over
 * transposes, each the top of its step's output or read inside one (emit_expr.c reshape_coords,
 * emit_cpu.c reshape_source) */
TEST(emit_cpu__reshape_runs__match_eager) { check("tests/emit/reshape_runs.json", 1, F32); }
/* an im2col and a col2im of views as conv2d lowers them, written over the common refinement of
 * the loops and reshapes and with splits on their radices (emit_affine.c); copies and adds
 * only: the same bits */
TEST(emit_cpu__reshape_refinement__matches_eager_exactly) { check("tests/emit/reshape_refine.json", 1, 0.0); }
TEST(emit_cpu__broadcast_promote__matches_eager) { check("tests/golden/broadcast_promote/graph.json", 1, F32); }
TEST(emit_cpu__ints_and_bools__match_exactly) { check("tests/emit/ints.json", 1, F32); }
TEST(emit_cpu__small_and_unsigned_ints__match_exactly) { check("tests/golden/small_ints/graph.json", 1, F32); }
TEST(emit_cpu__row_softmax__matches_eager) { check("tests/golden/softmax_row/graph.json", 1, F32); }
/* the digits inference at batch 100: its softmax row step 32 rows at a time, a short last block,
 * gtc_expf inline (compiler/emit_cpu_row.c): the eager ops' bits */
TEST(emit_cpu__blocked_softmax_rows__match_eager_exactly) { check("tests/golden/softmax_rows_blocked/graph.json", 1, 0.0); }
TEST(emit_cpu__log_sum_exp__matches_eager) { check("tests/golden/logsumexp/graph.json", 1, F32); }
TEST(emit_cpu__row_too_long__matches_eager) { check("tests/golden/row_too_long/graph.json", 1, F32); }
TEST(emit_cpu__whole_tensor_rows_and_arg_reductions__match_eager) { check("tests/emit/row_1d.json", 1, F32); }
/* lane rows in CUDA (a row of 24 over two axes; an epilogue of 40 columns, 2 per lane, the last
 * clamped); the CPU code takes the same graph */
TEST(emit_cpu__lane_rows__match_eager) { check("tests/emit/lane_rows.json", 1, F32); }
TEST(emit_cpu__gemm_reading_its_donated_output__matches_eager) { check("tests/emit/donate_hazard.json", 3, F32); }
TEST(emit_cpu__reduce_with_epilogue__matches_eager) { check("tests/golden/reduce_epilogue/graph.json", 3, F32); }
TEST(emit_cpu__every_reduction__matches_eager) { check("tests/golden/reductions/graph.json", 1, F32); }
TEST(emit_cpu__matmul_bias_relu__matches_eager) { check("tests/golden/matmul_bias_relu/graph.json", 1, F32); }
TEST(emit_cpu__batched_transposed_matmul__matches_eager) { check("tests/emit/batched_matmul.json", 1, F32); }
TEST(emit_cpu__copies_and_aliases__match_eager) { check("tests/golden/copy_outputs/graph.json", 1, F32); }
TEST(emit_cpu__donated_copy__matches_eager) { check("tests/golden/donate_copy/graph.json", 3, F32); }
TEST(emit_cpu__donated_order__matches_eager) { check("tests/golden/donate_order/graph.json", 3, F32); }
TEST(emit_cpu__cse_and_dead_nodes__match_eager) {
    check("tests/golden/cse_shared/graph.json", 1, F32);
    check("tests/golden/dead_nodes/graph.json", 1, F32);
}
/* gathers inlined into elementwise, reduction and view readers; scatters with repeated and
 * negative indices, int64 data, a rank-0 index passed by value */
TEST(emit_cpu__gather_and_scatter_add__match_eager) { check("tests/emit/index_ops.json", 1, F32); }
TEST(emit_cpu__embedding_mlp_training__matches_eager_over_steps) {
    check("tests/emit/embedding_mlp_step.json", 3, F32); /* gtc grad --format=json of tests/golden/embedding_mlp */
}
/* layer_norm, gelu and softmax in one row kernel; a training step through dropout (philox in
 * the generated code against the eager kernel's), gelu's tanh form and cross_entropy */
TEST(emit_cpu__composites_and_dropout__match_eager) {
    check("tests/golden/nn_block/graph.json", 1, F32);
    check("tests/emit/nn_block_step.json", 3, F32); /* gtc grad --format=json of tests/golden/nn_block_train */
}
/* conv2d + bias + relu + max pool (im2col kernel, GEMM, fused epilogue); the CNN's training step
 * (strided-slice gradients, batched GEMMs with broadcast filters, AdamW) */
TEST(emit_cpu__conv_block_and_cnn_training__match_eager) {
    check("tests/golden/conv_block/graph.json", 1, F32);
    check("tests/emit/cnn_digits_step.json", 3, F32); /* gtc grad --format=json of examples/cnn_digits.json */
}
TEST(emit_cpu__digits_step__matches_eager_over_steps) { check("examples/digits_step.json", 5, F32); }
TEST(emit_cpu__train_step__matches_eager_over_steps) { check("examples/train_step.json", 3, F32); }
TEST(emit_cpu__row_prologue_and_epilogue_matmuls__match_eager) {
    check("tests/golden/row_matmul/graph.json", 1, F32);
    check("tests/golden/row_matmul_b_depends/graph.json", 1, F32);
}

/* GTC_EMIT_GRAPHS="a.json b.json": check those graphs instead (for fuzzing, see tests/emit/fuzz.py). */
static void env_graphs(void **state) {
    char *list = strdup(getenv("GTC_EMIT_GRAPHS"));
    assert_non_null(list);
    for (char *save = NULL, *t = strtok_r(list, " ", &save); t; t = strtok_r(NULL, " ", &save)) check(t, 2, F32);
    free(list);
    (void)state;
}

int main(void) {
    if (getenv("GTC_EMIT_GRAPHS")) {
        const struct CMUnitTest only[] = {cmocka_unit_test(env_graphs)};
        return cmocka_run_group_tests(only, NULL, NULL);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(emit_cpu__a_plus_b_times_c__matches_eager),
        cmocka_unit_test(emit_cpu__chain_of_20__matches_eager),
        cmocka_unit_test(emit_cpu__shared_expensive__matches_eager),
        cmocka_unit_test(emit_cpu__views_with_steps__matches_eager),
        cmocka_unit_test(emit_cpu__loop_versions__match_eager_exactly),
        cmocka_unit_test(emit_cpu__selects_nan_and_signed_zero__match_eager_exactly),
        cmocka_unit_test(emit_cpu__reductions_keeping_a_middle_axis__match_eager_exactly),
        cmocka_unit_test(emit_cpu__golden_views__matches_eager),
        cmocka_unit_test(emit_cpu__reshape_runs__match_eager),
        cmocka_unit_test(emit_cpu__reshape_refinement__matches_eager_exactly),
        cmocka_unit_test(emit_cpu__broadcast_promote__matches_eager),
        cmocka_unit_test(emit_cpu__ints_and_bools__match_exactly),
        cmocka_unit_test(emit_cpu__small_and_unsigned_ints__match_exactly),
        cmocka_unit_test(emit_cpu__row_softmax__matches_eager),
        cmocka_unit_test(emit_cpu__blocked_softmax_rows__match_eager_exactly),
        cmocka_unit_test(emit_cpu__log_sum_exp__matches_eager),
        cmocka_unit_test(emit_cpu__row_too_long__matches_eager),
        cmocka_unit_test(emit_cpu__whole_tensor_rows_and_arg_reductions__match_eager),
        cmocka_unit_test(emit_cpu__lane_rows__match_eager),
        cmocka_unit_test(emit_cpu__gemm_reading_its_donated_output__matches_eager),
        cmocka_unit_test(emit_cpu__reduce_with_epilogue__matches_eager),
        cmocka_unit_test(emit_cpu__every_reduction__matches_eager),
        cmocka_unit_test(emit_cpu__matmul_bias_relu__matches_eager),
        cmocka_unit_test(emit_cpu__batched_transposed_matmul__matches_eager),
        cmocka_unit_test(emit_cpu__copies_and_aliases__match_eager),
        cmocka_unit_test(emit_cpu__donated_copy__matches_eager),
        cmocka_unit_test(emit_cpu__donated_order__matches_eager),
        cmocka_unit_test(emit_cpu__cse_and_dead_nodes__match_eager),
        cmocka_unit_test(emit_cpu__gather_and_scatter_add__match_eager),
        cmocka_unit_test(emit_cpu__embedding_mlp_training__matches_eager_over_steps),
        cmocka_unit_test(emit_cpu__composites_and_dropout__match_eager),
        cmocka_unit_test(emit_cpu__conv_block_and_cnn_training__match_eager),
        cmocka_unit_test(emit_cpu__digits_step__matches_eager_over_steps),
        cmocka_unit_test(emit_cpu__train_step__matches_eager_over_steps),
        cmocka_unit_test(emit_cpu__row_prologue_and_epilogue_matmuls__match_eager),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
