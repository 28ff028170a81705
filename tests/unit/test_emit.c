/* tests/unit/test_emit.c: the code generators (compiler/emit_*.c): kernel counts, the generated
 * header and determinism, escaping of hostile names, literals, launch configurations, the arena
 * scratch of CPU GEMMs, 64-bit indexing, errors; and that the generated C compiles with
 * cc -std=c11 -Wall -Wextra -Werror (kernels_cpu.c with -fopenmp, plan.c) and kernels.cu with nvcc when there is
 * one. Numeric checks live in test_emit_numeric.c. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../compiler/emit.h"
#include "../../compiler/pipeline.h"

#define TEST(name) static void name(void **state __attribute__((unused)))

static Diag d;

/* JSON with single quotes (readable in C), planned through memplan. */
static Graph *planned(const char *sq) {
    char *text = strdup(sq);
    assert_non_null(text);
    for (char *p = text; *p; p++)
        if (*p == '\'') *p = '"';
    diag_init(&d, "g.json");
    Graph *g = ir_read_json(text, strlen(text), &d);
    free(text);
    if (!g) fail_msg("unexpected error: %s", d.msg);
    if (pipeline_run(g, NULL, &d, NULL)) fail_msg("pipeline: %s", d.msg);
    return g;
}

static Graph *planned_file(const char *path) {
    diag_init(&d, path);
    Graph *g = ir_read_json_file(path, &d);
    if (!g) fail_msg("%s: %s", path, d.msg);
    if (pipeline_run(g, NULL, &d, NULL)) fail_msg("pipeline: %s", d.msg);
    return g;
}

static char *tmpdir(void) {
    char *dir = strdup("/tmp/gtc_test_emit_XXXXXX");
    if (!dir || !mkdtemp(dir)) fail_msg("mkdtemp failed");
    return dir;
}

static void rmdir_all(char *dir) {
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd)) fail_msg("cannot remove %s", dir);
    free(dir);
}

static char *slurp(const char *dir, const char *name) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *s = malloc((size_t)n + 1);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = 0;
    fclose(f);
    return s;
}

static int count(const char *hay, const char *needle) {
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle)) n++;
    return n;
}

/* Emits g into a fresh directory (returned) and checks that every file compiles. */
static char *emit_and_compile(Graph *g, const char *source) {
    char *dir = tmpdir(), cmd[2048];
    if (emit_all(g, NULL, dir, source, &d)) fail_msg("emit_all: %s", d.msg);
    snprintf(cmd, sizeof cmd, "cc -std=c11 -fopenmp -Wall -Wextra -Werror -fsyntax-only '%s/kernels_cpu.c' && "
             "cc -std=c11 -Wall -Wextra -Werror -fsyntax-only -Iruntime/core -Iir '%s/plan.c'", dir, dir);
    if (system(cmd)) fail_msg("generated C does not compile: %s", cmd);
    return dir;
}

/* nvcc checks run when there is an nvcc, unless GTC_NO_NVCC is set. */
static bool have_nvcc(void) {
    if (getenv("GTC_NO_NVCC")) return false;
    return access("/usr/local/cuda/bin/nvcc", X_OK) == 0 || system("command -v nvcc >/dev/null 2>&1") == 0;
}

static void nvcc_compile(const char *dir) {
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "PATH=$PATH:/usr/local/cuda/bin nvcc -std=c++17 -arch=sm_90 -c '%s/kernels.cu' -o '%s/kernels.o'",
             dir, dir);
    if (system(cmd)) fail_msg("kernels.cu does not compile with nvcc: %s", cmd);
}

#define ABC "{'format':'gtc-graph','version':1,'name':'abc','inputs':[" \
            "{'name':'a','dtype':'float32','shape':[4,5]},{'name':'b','dtype':'float32','shape':[4,5]}," \
            "{'name':'c','dtype':'float32','shape':[4,5]}],'nodes':[" \
            "{'name':'bc','op':'mul','inputs':['b','c']},{'name':'y','op':'add','inputs':['a','bc']}]," \
            "'outputs':{'y':'y'}}"

/* ---- kernel counts ------------------------------------------------------------------------------ */

TEST(emit_all__a_plus_b_times_c__one_kernel_in_each_file) {
    Graph *g = planned(ABC);
    char *dir = emit_and_compile(g, "abc.json");
    char *cu = slurp(dir, "kernels.cu"), *c = slurp(dir, "kernels_cpu.c"), *p = slurp(dir, "plan.c");
    assert_int_equal(count(cu, "__global__ void"), 1);
    assert_int_equal(count(c, "static void gtc_c"), 1);
    assert_non_null(strstr(p, ".nsteps = 1,"));
    assert_non_null(strstr(p, ".fused_kernels = 1,"));
    assert_non_null(strstr(p, ".arena_bytes = 0,"));
    assert_non_null(strstr(p, "{RT_STEP_ELEMWISE, \"gtc_k0\", \"mul,add\","));
    /* no intermediate buffer: the kernel reads a, b, c and writes y only */
    assert_null(strstr(cu, "a.p[4]"));
    free(cu), free(c), free(p);
    rmdir_all(dir);
    graph_free(g);
}

TEST(emit_all__train_step__seven_kernels_three_gemms) {
    Graph *g = planned_file("examples/train_step.json");
    char *dir = emit_and_compile(g, "train_step.json");
    char *cu = slurp(dir, "kernels.cu"), *c = slurp(dir, "kernels_cpu.c"), *p = slurp(dir, "plan.c");
    assert_int_equal(count(cu, "__global__ void"), 7);
    assert_int_equal(count(c, "static void gtc_c"), 7);
    assert_int_equal(count(cu, "gtc_gemm<float"), 2);               /* z1, dw1 */
    /* z1 waits for nothing (the replay's first step): no EARLY operand; dw1 requests x early */
    assert_int_equal(count(cu, "gtc_gemm<float, 32, 32, 8, 8, 64, true, false, false, 4, 0>(A, 480LL"), 1);
    assert_int_equal(count(cu, "gtc_gemm<float, 32, 32, 8, 8, 64, false, false, false, 4, 1>(A, 1LL"), 1);
    /* z2 = a1 w2: the row step's prologue, and da1 = dlogits w2^T, its epilogue (256 columns, 8 per
     * lane, unrolled), both with w2 in registers read before the row step's wait */
    assert_int_equal(count(cu, "gtc_row_skinny_r<float, 8, 2>(A1, 256LL, 1LL, gtc_b1,"), 1);
    for (int q = 0; q < 8; q++) {
        char want[96];
        snprintf(want, sizeof want, "gtc_row_dot_r<float, 2>(gtc_ra[wr], gtc_b2[%d], 2)", q);
        assert_int_equal(count(cu, want), 1);
    }
    const char *k1 = strstr(cu, "gtc_k1(struct gtc_args a) {"), *bp = strstr(cu, "gtc_row_b_pro<float, 8, 2>(B1, 2LL, 1LL, 2, 256, gtc_b1);"),
               *be = strstr(cu, "gtc_row_b_epi<float, 8, 2>(B2, 1LL, 2LL, 256, 2, gtc_b2);"),
               *w1 = k1 ? strstr(k1, "gtc_wait_prior_steps();") : NULL;
    assert_true(k1 && bp && be && w1 && k1 < bp && bp < be && be < w1);
    /* a lane row: y, b2 and the epilogue's h1 are loaded before the prologue product */
    const char *pro = strstr(cu, "gtc_row_skinny_r<float, 8, 2>(A1"), *h1 = strstr(cu, "[(gtc_j7 + c0 * 256)];");
    assert_non_null(strstr(cu, "const int le = lane < 2 ? lane : 1;"));
    assert_true(pro && h1 && h1 < pro);
    assert_int_equal(count(cu, "gtc_gemm_skinny_t<float, 2>"), 1);  /* dw2, A read transposed */
    /* three products through the CPU backend's GEMM call, its definition and gtc_cpu_sgemm_h's call
     * of it (kernels_cpu_gemm.h) */
    assert_int_equal(count(c, "gtc_cpu_sgemm("), 3 + 2);
    assert_int_equal(count(c, "gtc_cpu_sgemm_h("), 1); /* its definition only: no bfloat16 operand in fp32 */
    assert_non_null(strstr(p, ".gemms = 3,"));
    assert_non_null(strstr(p, ".reductions = 4,"));
    assert_non_null(strstr(p, ".class_name = \"MlpTrainStep\","));
    assert_non_null(strstr(p, "{\"w1\", DT_FLOAT32, 2, {480, 256}, -1, 2, IR_STATE_NONE},"));
    assert_non_null(strstr(p, "{\"lr\", DT_FLOAT32, 0, {0}, 0, -1, IR_STATE_NONE},"));
    if (have_nvcc()) nvcc_compile(dir);
    free(cu), free(c), free(p);
    rmdir_all(dir);
    graph_free(g);
}

/* ---- header, determinism, escaping ------------------------------------------------------------------ */

TEST(emit_all__files__begin_with_the_header_and_are_deterministic) {
    Graph *g = planned_file("examples/digits_step.json");
    char *d1 = emit_and_compile(g, "digits_step.json"), *d2 = tmpdir();
    Graph *g2 = planned_file("examples/digits_step.json");
    assert_int_equal(emit_all(g2, NULL, d2, "digits_step.json", &d), 0);
    const char *files[] = {"kernels.cu", "kernels_cpu.c", "plan.c"};
    for (int i = 0; i < 3; i++) {
        char *a = slurp(d1, files[i]), *b = slurp(d2, files[i]);
        const char *hdr = "/* Generated by gtc " GTC_VERSION " from digits_step.json; do not edit. */\n";
        if (strncmp(a, hdr, strlen(hdr))) fail_msg("%s starts: %.80s", files[i], a);
        assert_string_equal(a, b);
        free(a), free(b);
    }
    {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "test $(ls -A '%s' | wc -l) -eq 3", d2);
        assert_int_equal(system(cmd), 0); /* kernels.cu, kernels_cpu.c, plan.c and nothing else */
    }
    rmdir_all(d1), rmdir_all(d2);
    graph_free(g), graph_free(g2);
}

TEST(emit_all__hostile_source_name__stays_inside_comment_and_strings) {
    Graph *g = planned(ABC);
    const char *evil = "x */ int evil; /* \"q\" \\ ?\?= \n\t\x01\xff.json";
    char *dir = emit_and_compile(g, evil);
    char *c = slurp(dir, "kernels_cpu.c"), *p = slurp(dir, "plan.c");
    const char *nl = strchr(c, '\n');
    assert_non_null(nl);
    char first[512];
    snprintf(first, sizeof first, "%.*s", (int)(nl - c), c);
    assert_int_equal(count(first, "*/"), 1); /* only the comment's own end */
    assert_null(strstr(p, "int evil;\n"));
    assert_non_null(strstr(p, ".source = \"x */ int evil; /* \\\"q\\\" \\\\ \\?\\?= \\n\\t\\001\\377.json\""));
    free(c), free(p);
    rmdir_all(dir);
    graph_free(g);
}

TEST(emit_all__user_names_like_generated_ones__still_compile) {
    Graph *g = planned("{'format':'gtc-graph','version':1,'name':'gtc_args','inputs':["
                       "{'name':'a','dtype':'float32','shape':[3]},{'name':'v0','dtype':'float32','shape':[3]},"
                       "{'name':'acc','dtype':'float32','shape':[]}],'nodes':["
                       "{'name':'c0','op':'mul','inputs':['a','v0']},{'name':'gtc_k0','op':'add','inputs':['c0','acc']},"
                       "{'name':'C','op':'sum','inputs':['gtc_k0']}],"
                       "'outputs':{'gtc_c0':'gtc_k0','i':'C'}}");
    char *dir = emit_and_compile(g, "names.json");
    rmdir_all(dir);
    graph_free(g);
}

TEST(emit_cstr__every_unsafe_byte__is_escaped) {
    Str b = {0};
    emit_cstr(&b, "a\"b\\c?d\ne\tf\x01g\x7fh\xc3\xa9");
    char *s = str_take(&b);
    assert_string_equal(s, "a\\\"b\\\\c\\?d\\ne\\tf\\001g\\177h\\303\\251");
    free(s);
    emit_comment_text(&b, "a*/b/*c");
    s = str_take(&b);
    assert_null(strstr(s, "*/"));
    assert_null(strstr(s, "/*"));
    free(s);
}

TEST(emit_literal__values__convert_as_scalar_h) {
    char buf[96];
    emit_literal(DT_INT32, 3e9, buf, sizeof buf);
    assert_string_equal(buf, "((int32_t)2147483647)");
    emit_literal(DT_INT32, -3e9, buf, sizeof buf);
    assert_string_equal(buf, "((int32_t)(-2147483647 - 1))");
    emit_literal(DT_INT32, NAN, buf, sizeof buf);
    assert_string_equal(buf, "((int32_t)0)");
    emit_literal(DT_INT32, -2.7, buf, sizeof buf);
    assert_string_equal(buf, "((int32_t)-2)");
    emit_literal(DT_INT64, -1e30, buf, sizeof buf);
    assert_string_equal(buf, "((int64_t)(-9223372036854775807LL - 1))");
    emit_literal(DT_BOOL, 0.5, buf, sizeof buf);
    assert_string_equal(buf, "((gtc_bool)1)");
    emit_literal(DT_FLOAT32, 0.1, buf, sizeof buf);
    assert_string_equal(buf, "((float)0.1)");
    emit_literal(DT_FLOAT64, -INFINITY, buf, sizeof buf);
    assert_string_equal(buf, "(-GTC_INF_D)");
    emit_literal(DT_FLOAT32, NAN, buf, sizeof buf);
    assert_string_equal(buf, "GTC_NAN_F");
}

/* the index tests loop_nest decides per version of a loop: C's precedence and truncation, and
 * anything else refused (the test then stays in the loop) */
TEST(ex_eval_test__index_tests__evaluate_as_c_and_refuse_the_rest) {
    bool r = false;
    assert_true(ex_eval_test("(c3 + 1) >= 2", "c3", 1, &r) && r);
    assert_true(ex_eval_test("(c3 + 1) >= 2", "c3", 0, &r) && !r);
    assert_true(ex_eval_test("((((c3 - 1))) % 2) < 1", "c3", 0, &r) && r); /* -1 % 2 == -1 in C */
    assert_true(ex_eval_test("((c3 - 1) / 2) == 0", "c3", 0, &r) && r);  /* -1 / 2 == 0 */
    assert_true(ex_eval_test("c3 >= 1LL && c3 < 5LL", "c3", 5, &r) && !r);
    assert_true(ex_eval_test("c3 < 2 || c3 * 3 + 1 > 20", "c3", 7, &r) && r);
    assert_true(ex_eval_test("c3 <= 4 && c3 != 3", "c3", 3, &r) && !r);
    assert_true(ex_eval_test("-c3 + 8 > 0", "c3", 7, &r) && r);
    assert_false(ex_eval_test("c4 < 2", "c3", 0, &r));       /* another name */
    assert_false(ex_eval_test("c31 < 2", "c3", 0, &r));      /* a longer name */
    assert_false(ex_eval_test("(c3 < 2", "c3", 0, &r));      /* unbalanced */
    assert_false(ex_eval_test("c3 < 2)", "c3", 0, &r));      /* trailing text */
    assert_false(ex_eval_test("c3 / 0 < 2", "c3", 0, &r));   /* division by zero */
    assert_false(ex_eval_test("c3 & 1", "c3", 0, &r));       /* an operator it does not know */
    assert_false(ex_eval_test("", "c3", 0, &r));
}

/* Splits of affine index texts over counters of known range (emit_affine.c): without a division
 * where every level stays within its axis, the constant spread with borrows; refused where a
 * level can leave its axis, for an unknown name, a division or a product of two names. */
TEST(ex_split_aligned__terms_on_the_radices__split_without_division) {
    Ex x = {0};
    char *c[3] = {0};
    ex_range(&x, "c3", 0, 3);
    ex_range(&x, "c22", 0, 3);
    ex_range(&x, "c23", 1, 2);
    ex_range(&x, "c1", 0, 15);
    assert_true(ex_split_aligned(&x, "(((c3 + 1) - 1) + (c22 + 4) * 4 + c23 * 48 + c1 * 144)", 2, (int64_t[]){144, 16}, c));
    assert_string_equal(c[0], "(c23 * 3 + c1 * 9 + 1)");
    assert_string_equal(c[1], "(c3 + c22 * 4)");
    ex_free_coords(c, 2);
    ex_range(&x, "c4", 1, 2); /* a class of the innermost loop: 1 and 2 only */
    assert_true(ex_split_aligned(&x, "(((c4 + 1) - 2) + (c22 + 8) * 4)", 2, (int64_t[]){3, 16}, c));
    assert_string_equal(c[0], "2");
    assert_string_equal(c[1], "(c4 + c22 * 4 - 1)");
    ex_free_coords(c, 2);
    assert_true(ex_split_aligned(&x, "(c3 + c22 * 4)", 3, (int64_t[]){1, 4, 4}, c)); /* a size-1 axis reads 0 */
    assert_string_equal(c[0], "0");
    assert_string_equal(c[1], "c22");
    assert_string_equal(c[2], "c3");
    ex_free_coords(c, 3);
    assert_false(ex_split_aligned(&x, "c1", 2, (int64_t[]){4, 4}, c)); /* 16 as 4 x 4: a remainder */
    assert_false(ex_split_aligned(&x, "(c3 + 1 + c22 * 4)", 2, (int64_t[]){3, 16}, c)); /* 3 + 1 + 12 = 16 */
    assert_false(ex_split_aligned(&x, "(c3 - 1)", 2, (int64_t[]){2, 4}, c));            /* below 0 */
    assert_false(ex_split_aligned(&x, "(c9 + c3 * 4)", 2, (int64_t[]){4, 4}, c));       /* unknown name */
    assert_false(ex_split_aligned(&x, "(c3 / 2)", 1, (int64_t[]){4}, c));
    assert_false(ex_split_aligned(&x, "(c3 * c22)", 1, (int64_t[]){16}, c));
    assert_false(ex_split_aligned(&x, "(c3 + c22 * 6)", 2, (int64_t[]){6, 4}, c));      /* 6 is not on radix 4 */
    ex_range_free(&x);
}

/* An im2col and a col2im built of views as ir/composite.c's conv2d lowers them (emit_cpu.c
 * loop_nest): the im2col's nest is written over the common refinement of its loops and reshapes
 * (a window position a loop counter), the col2im's splits fall on their radices: no step of the
 * generated C divides an index. */
TEST(emit_cpu_source__im2col_and_col2im__index_without_division) {
    Graph *g = planned_file("tests/emit/reshape_refine.json");
    char *src = emit_cpu_source(g, "reshape_refine.json", &d);
    assert_non_null(src);
    const char *steps = strstr(src, "static void gtc_c0(");
    assert_non_null(steps);
    if (strstr(steps, " % ") || strstr(steps, " / ")) fail_msg("an index division in:\n%s", steps);
    assert_non_null(strstr(steps, "for (int c")); /* loops there */
    free(src);
    graph_free(g);
}

/* The innermost loops along the stored value's contiguous axis that run 4 to 16 times are
 * marked `omp simd` (emit_cpu.c nest_versions; their bits: tests/emit/selects.json, compared
 * exactly), and no other loop is. */
TEST(emit_cpu_source__short_contiguous_loops__are_omp_simd) {
    Graph *g = planned_file("tests/emit/selects.json");
    char *src = emit_cpu_source(g, "selects.json", &d);
    assert_non_null(src);
    int n = 0;
    for (const char *p = strstr(src, "#pragma omp simd\n"); p; p = strstr(p + 1, "#pragma omp simd\n"), n++) {
        long long lo, hi, step = 1;
        const char *f = strstr(p, "for (");
        assert_non_null(f);
        if (sscanf(f, "for (int %*[a-z0-9] = %lld; %*[a-z0-9] < %lld; %*[a-z0-9] += %lld", &lo, &hi, &step) < 2)
            fail_msg("not a counted loop after omp simd: %.60s", f);
        long long trip = (hi - lo + step - 1) / step;
        if (trip < NEST_SIMD_MIN || trip > NEST_SIMD_MAX) fail_msg("omp simd on a loop of %lld: %.60s", trip, f);
    }
    assert_true(n > 0);
    free(src);
    graph_free(g);
}

/* ---- launch configurations, arena, indices ----------------------------------------------------------- */

/* The lowering of g's one GEMM step, a cuBLASLt one. */
static const StepLower *blas_step(const Graph *g) {
    const Plan *p = g->plan;
    int gemm = -1;
    for (int s = 0; s < p->nsteps; s++)
        if (p->steps[s].kind == STEP_GEMM) gemm = s;
    assert_true(gemm >= 0);
    assert_int_equal(p->steps[gemm].lower.form, LOWER_GEMM_BLAS);
    return &p->steps[gemm].lower;
}

/* cuBLASLt's alpha and beta take a plain SGD update w - lr * product (lr a constant or a float
 * scalar input, w the product's shape and in memory); not lr * product - w, not a clipped
 * gradient, not a broadcast w, not a product read by another op. */
TEST(pass_lower__cublaslt_update__plain_sgd_only) {
    setenv("GTC_GEMM", "cublaslt", 1);
    static const struct {
        const char *nodes;
        int update, kernel;
    } cases[] = {
        {"{'name':'s','op':'mul','inputs':['mm','lr']},{'name':'o','op':'sub','inputs':['w','s']}", 1, 0},
        {"{'name':'s','op':'mul','inputs':[0.5,'mm']},{'name':'o','op':'sub','inputs':['w','s']}", 1, 0},
        {"{'name':'s','op':'mul','inputs':['mm','lr']},{'name':'o','op':'sub','inputs':['s','w']}", 0, 1},
        {"{'name':'c','op':'clamp','inputs':['mm',-1,1]},{'name':'s','op':'mul','inputs':['c','lr']},"
         "{'name':'o','op':'sub','inputs':['w','s']}", 0, 1},
        {"{'name':'s','op':'mul','inputs':['mm','lr']},{'name':'o','op':'sub','inputs':['row','s']}", 0, 1},
        {"{'name':'s','op':'mul','inputs':['mm','lr']},{'name':'t','op':'sub','inputs':['w','s']},"
         "{'name':'o','op':'add','inputs':['t','mm']}", 0, 1},
        {"{'name':'s','op':'mul','inputs':['mm','wv']},{'name':'o','op':'sub','inputs':['w','s']}", 0, 1},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        char sq[1400];
        snprintf(sq, sizeof sq,
                 "{'format':'gtc-graph','version':1,'name':'up','inputs':[{'name':'x','dtype':'float32','shape':[40,24]},"
                 "{'name':'dy','dtype':'float32','shape':[40,48]},{'name':'w','dtype':'float32','shape':[24,48]},"
                 "{'name':'row','dtype':'float32','shape':[48]},{'name':'wv','dtype':'float32','shape':[24,48]},"
                 "{'name':'lr','dtype':'float32','shape':[]}],'nodes':[{'name':'xt','op':'transpose','inputs':['x'],"
                 "'perm':[1,0]},{'name':'mm','op':'matmul','inputs':['xt','dy']},%s],'outputs':{'o':'o'}}",
                 cases[c].nodes);
        Graph *g = planned(sq);
        const StepLower *l = blas_step(g);
        if ((l->lib_update >= 0) != cases[c].update) fail_msg("case %zu: lib_update %d", c, (int)l->lib_update);
        if (cases[c].update) assert_string_equal(g->nodes[l->lib_update].name, "o");
        assert_int_equal(l->epilogue, cases[c].kernel);
        assert_int_equal(strstr(l->why_gemm, "lr * product in cuBLASLt") != NULL, cases[c].update);
        graph_free(g);
    }
    unsetenv("GTC_GEMM");
}

/* cuBLASLt's BIAS epilogue takes an add of a float32 row [N] or [1, N] with a buffer of its own to
 * a product it is the only reader of: the forward layer (its kernel continues with relu; a layer
 * whose only output is the sum has no kernel), not a column [M, 1], not a reshaped view, not a
 * product that is itself an output or read by another op, not a bias computed in the step. */
TEST(pass_lower__cublaslt_bias_epilogue__rows_in_memory_only) {
    setenv("GTC_GEMM", "cublaslt", 1);
    static const struct {
        const char *nodes, *outs;
        int bias; /* 1: the add goes to cuBLASLt */
        int kernel;
    } cases[] = {
        {"{'name':'mm','op':'matmul','inputs':['x','w']},{'name':'h','op':'add','inputs':['mm','b']},"
         "{'name':'a','op':'relu','inputs':['h']}", "'h':'h','a':'a'", 1, 1},
        {"{'name':'mm','op':'matmul','inputs':['x','w']},{'name':'h','op':'add','inputs':['b','mm']}", "'h':'h'", 1, 0},
        {"{'name':'r','op':'reshape','inputs':['b'],'shape':[1,48]},{'name':'mm','op':'matmul','inputs':['x','w']},"
         "{'name':'h','op':'add','inputs':['mm','r']}", "'h':'h'", 0, 1}, /* a view without a buffer of its own */
        {"{'name':'mm','op':'matmul','inputs':['x','w']},{'name':'h','op':'add','inputs':['mm','col']}", "'h':'h'", 0, 1},
        {"{'name':'mm','op':'matmul','inputs':['x','w']},{'name':'h','op':'add','inputs':['mm','b']}",
         "'h':'h','mm':'mm'", 0, 1},
        {"{'name':'b2','op':'mul','inputs':['b',2]},{'name':'mm','op':'matmul','inputs':['x','w']},"
         "{'name':'h','op':'add','inputs':['mm','b2']}", "'h':'h'", 0, 1},
        {"{'name':'mm','op':'matmul','inputs':['x','w']},{'name':'h','op':'add','inputs':['mm','b']},"
         "{'name':'e','op':'mul','inputs':['mm',2]},{'name':'o','op':'add','inputs':['h','e']}", "'o':'o'", 0, 1},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        char sq[1024];
        snprintf(sq, sizeof sq,
                 "{'format':'gtc-graph','version':1,'name':'lb','inputs':[{'name':'x','dtype':'float32','shape':[40,24]},"
                 "{'name':'w','dtype':'float32','shape':[24,48]},{'name':'b','dtype':'float32','shape':[48]},"
                 "{'name':'col','dtype':'float32','shape':[40,1]}],'nodes':[%s],'outputs':{%s}}",
                 cases[c].nodes, cases[c].outs);
        Graph *g = planned(sq);
        const StepLower *l = blas_step(g);
        NodeId h = -1;
        for (int i = 0; i < g->nnodes; i++)
            if (!strcmp(g->nodes[i].name, "h")) h = i;
        if (cases[c].bias != (l->lib_bias == h && h >= 0)) fail_msg("case %zu: lib_bias %d", c, (int)l->lib_bias);
        assert_int_equal(l->lib_bias >= 0, cases[c].bias);
        assert_int_equal(l->epilogue, cases[c].kernel);
        assert_int_equal(strstr(l->why_gemm, "in cuBLASLt's epilogue") != NULL, cases[c].bias);
        graph_free(g);
    }
    unsetenv("GTC_GEMM");
}

TEST(pass_lower__each_step_kind__gets_its_configuration) {
    Graph *g = planned("{'format':'gtc-graph','version':1,'name':'cfg','inputs':["
                       "{'name':'x','dtype':'float32','shape':[37,50]},{'name':'w','dtype':'float32','shape':[50,300]},"
                       "{'name':'big','dtype':'float32','shape':[1000,1000]}],'nodes':["
                       "{'name':'m','op':'max','inputs':['x'],'axes':[1],'keepdims':true},"
                       "{'name':'e','op':'exp','inputs':['x']},{'name':'s','op':'sub','inputs':['e','m']},"
                       "{'name':'cs','op':'sum','inputs':['x'],'axes':[0]},"
                       "{'name':'mm','op':'matmul','inputs':['x','w']},"
                       "{'name':'b2','op':'mul','inputs':['big',2]}],"
                       "'outputs':{'s':'s','cs':'cs','mm':'mm','b2':'b2'}}");
    const Plan *p = g->plan;
    int seen = 0;
    for (int i = 0; i < p->nsteps; i++) {
        const StepLower l = p->steps[i].lower;
        switch (p->steps[i].kind) {
        case STEP_ROW: assert_int_equal(l.grid[0], 5), assert_int_equal(l.block[0], 256); seen |= 1; break; /* a warp per row */
        case STEP_REDUCE: assert_int_equal(l.grid[0], 7), assert_int_equal(l.block[0], 256); seen |= 2; break; /* 8 columns a block */
        case STEP_GEMM: assert_int_equal(l.block[0], 256), assert_true(l.grid[0] * 32 >= 37 || l.grid[0] * 16 >= 37); seen |= 4; break;
        case STEP_ELEMWISE: assert_int_equal(l.block[0], 256), assert_int_equal(l.grid[0], 1056); seen |= 8; break;
        default: break;
        }
        /* only the tiled GEMM has dynamic shared memory (its K-step pipeline) and an SM per block */
        bool tiled = p->steps[i].kind == STEP_GEMM && l.own_sm;
        assert_true(tiled ? l.smem >= 2 * 1024 && l.smem <= 96 * 1024 : l.smem == 0);
        assert_true(l.own_sm == 0 || p->steps[i].kind == STEP_GEMM);
    }
    assert_int_equal(seen, 15);
    graph_free(g);
}

TEST(plan_arena_total__gemm_into_donated_output__appends_scratch) {
    Graph *g = planned_file("examples/train_step.json");
    int64_t off = g->plan->scratch_off, bytes = g->plan->scratch_bytes, total = plan_arena_total(g->plan);
    assert_true(off >= g->plan->arena_bytes);
    assert_int_equal(off % 256, 0);
    assert_int_equal(bytes, 480 * 256 * 4); /* dw1's product: w1_next is written in place of w1 */
    assert_int_equal(total, off + bytes);
    graph_free(g);
}

TEST(emit_all__over_2_pow_31_elements__uses_64_bit_indices) {
    Graph *g = planned("{'format':'gtc-graph','version':1,'name':'huge','inputs':["
                       "{'name':'x','dtype':'bool','shape':[65536,40000]}],'nodes':["
                       "{'name':'y','op':'eq','inputs':['x',0]}],'outputs':{'y':'y'}}");
    Graph *s = planned(ABC);
    char *cu = emit_cuda_source(g, "huge.json", &d), *small = emit_cuda_source(s, "abc.json", &d);
    assert_non_null(cu);
    assert_non_null(small);
    assert_non_null(strstr(cu, "for (long long i ="));
    assert_non_null(strstr(cu, "2621440000LL"));
    assert_null(strstr(small, "for (long long i ="));
    assert_non_null(strstr(small, "for (int i ="));
    free(cu), free(small);
    graph_free(g), graph_free(s);
}

/* A GEMM may request an operand before its wait only when no step it waits for writes it (buf_early):
 * z = h @ w reads the input w, whose in-place update waits for z's step, so w is EARLY (B: 2); y = h @
 * w_next reads the updated weight in w's buffer after the update's step, so nothing is (0). */
TEST(emit_cuda__gemm_early__only_values_no_earlier_step_writes) {
    Graph *g = planned("{'format':'gtc-graph','version':1,'name':'early','inputs':["
                       "{'name':'x','dtype':'float32','shape':[64,32]},{'name':'w','dtype':'float32','shape':[32,32]},"
                       "{'name':'lr','dtype':'float32','shape':[]}],'nodes':["
                       "{'name':'h','op':'relu','inputs':['x']},"
                       "{'name':'z','op':'matmul','inputs':['h','w']},"
                       "{'name':'t','op':'tanh','inputs':['w']},{'name':'s','op':'mul','inputs':['t','lr']},"
                       "{'name':'w_next','op':'sub','inputs':['w','s']},"
                       "{'name':'y','op':'matmul','inputs':['h','w_next']}],"
                       "'outputs':{'z':'z','y':'y','w':'w_next'},'donate':{'w_next':'w'}}");
    char *cu = emit_cuda_source(g, "early.json", &d);
    assert_non_null(cu);
    assert_int_equal(count(cu, "gtc_gemm<float"), 2);
    const char *zk = strstr(cu, "matmul z;"), *yk = strstr(cu, "matmul y;");
    assert_non_null(zk);
    assert_non_null(yk);
    const char *zg = strstr(zk, "gtc_gemm<float"), *yg = strstr(yk, "gtc_gemm<float");
    assert_non_null(zg);
    assert_non_null(yg);
    assert_non_null(strstr(zg, ", 2>(A"));
    assert_true(strstr(zg, ", 2>(A") < strstr(zg, "\n}\n"));
    assert_non_null(strstr(yg, ", 0>(A"));
    assert_true(strstr(yg, ", 0>(A") < strstr(yg, "\n}\n"));
    free(cu);
    graph_free(g);
}

/* ---- errors ------------------------------------------------------------------------------------------ */

TEST(emit_all__unplaced_plan__is_an_error) {
    diag_init(&d, "g.json");
    char *text = strdup(ABC);
    for (char *p = text; *p; p++)
        if (*p == '\'') *p = '"';
    Graph *g = ir_read_json(text, strlen(text), &d);
    free(text);
    assert_non_null(g);
    char *dir = tmpdir();
    assert_int_equal(emit_all(g, NULL, dir, "abc.json", &d), -1);
    assert_non_null(strstr(d.msg, "lowered plan"));
    rmdir_all(dir);
    graph_free(g);
}

TEST(emit_all__missing_directory__is_an_error_naming_it) {
    Graph *g = planned(ABC);
    diag_init(&d, "abc.json");
    assert_int_equal(emit_all(g, NULL, "/nonexistent/gtc/dir", "abc.json", &d), -1);
    assert_non_null(strstr(d.msg, "/nonexistent/gtc/dir/kernels.cu"));
    graph_free(g);
}

/* ---- every graph of the test suites compiles ------------------------------------------------------------ */

TEST(emit_all__every_test_graph__compiles_with_cc_and_nvcc) {
    const char *graphs[] = {
        "tests/golden/broadcast_promote/graph.json", "tests/golden/views/graph.json",
        "tests/golden/reductions/graph.json",        "tests/golden/copy_outputs/graph.json",
        "tests/golden/simplify_identities/graph.json", "tests/golden/row_too_long/graph.json",
        "tests/emit/ints.json",                       "tests/emit/batched_matmul.json",
        "tests/emit/views_steps.json",                "tests/emit/gemm_shapes.json",
        "tests/emit/lane_rows.json",                  "tests/golden/row_matmul/graph.json",
        "tests/golden/small_ints/graph.json",
        "tests/emit/index_ops.json",                  "tests/golden/embedding_mlp/graph.json",
        "tests/golden/nn_block/graph.json",           "tests/emit/nn_block_step.json",
        "tests/golden/conv_block/graph.json",         "tests/emit/cnn_digits_step.json",
        "tests/golden/symbolic_batch/graph.json",     "tests/e2e/dynamic/mlp_dyn.json",
        "tests/e2e/dynamic/mlp_dyn_train.json",       "examples/digits_dynamic.json",
    };
    bool nv = have_nvcc();
    for (size_t i = 0; i < sizeof graphs / sizeof *graphs; i++) {
        Graph *g = planned_file(graphs[i]);
        char *dir = emit_and_compile(g, "graph.json");
        if (nv) nvcc_compile(dir);
        rmdir_all(dir);
        graph_free(g);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(emit_all__a_plus_b_times_c__one_kernel_in_each_file),
        cmocka_unit_test(emit_all__train_step__seven_kernels_three_gemms),
        cmocka_unit_test(emit_all__files__begin_with_the_header_and_are_deterministic),
        cmocka_unit_test(emit_all__hostile_source_name__stays_inside_comment_and_strings),
        cmocka_unit_test(emit_all__user_names_like_generated_ones__still_compile),
        cmocka_unit_test(emit_cstr__every_unsafe_byte__is_escaped),
        cmocka_unit_test(emit_literal__values__convert_as_scalar_h),
        cmocka_unit_test(ex_eval_test__index_tests__evaluate_as_c_and_refuse_the_rest),
        cmocka_unit_test(ex_split_aligned__terms_on_the_radices__split_without_division),
        cmocka_unit_test(emit_cpu_source__im2col_and_col2im__index_without_division),
        cmocka_unit_test(emit_cpu_source__short_contiguous_loops__are_omp_simd),
        cmocka_unit_test(pass_lower__cublaslt_bias_epilogue__rows_in_memory_only),
        cmocka_unit_test(pass_lower__cublaslt_update__plain_sgd_only),
        cmocka_unit_test(pass_lower__each_step_kind__gets_its_configuration),
        cmocka_unit_test(plan_arena_total__gemm_into_donated_output__appends_scratch),
        cmocka_unit_test(emit_cuda__gemm_early__only_values_no_earlier_step_writes),
        cmocka_unit_test(emit_all__over_2_pow_31_elements__uses_64_bit_indices),
        cmocka_unit_test(emit_all__unplaced_plan__is_an_error),
        cmocka_unit_test(emit_all__missing_directory__is_an_error_naming_it),
        cmocka_unit_test(emit_all__every_test_graph__compiles_with_cc_and_nvcc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
