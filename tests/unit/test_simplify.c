/* tests/unit/test_simplify.c: the simplify pass (compiler/pass_simplify.c): constant folding with
 * scalar.h's exact semantics, algebraic identities and their limits, CSE, dead-node elimination,
 * on graphs read from JSON; every result is re-verified, round-trips and is a fixed point. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../compiler/plan.h"

/* Defined in compiler/pass_simplify.c. */
void simplify_report(FILE *f);
int simplify_count(const char *kind);

#define TEST(name) static void name(void **state __attribute__((unused)))

/* ---- helpers ---------------------------------------------------------------------------------- */

static Diag d;

/* JSON written with single quotes (readable in C); converted to double quotes before reading. */
static Graph *read_ok(const char *sq) {
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

static char *dump_str(const Graph *g) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    ir_dump(g, f);
    fclose(f);
    return buf;
}

static char *report_str(void) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    simplify_report(f);
    fclose(f);
    return buf;
}

static const Node *node_named(const Graph *g, const char *name) {
    NodeId id = graph_find(g, name);
    if (id < 0) fail_msg("no node \"%s\"", name);
    return &g->nodes[id];
}

/* What every simplified graph must be: verified, topological, the same after a JSON round trip,
 * and a fixed point (a second run changes nothing). */
static void assert_sound(Graph *g) {
    Diag v;
    diag_init(&v, "again");
    if (ir_verify(g, &v)) fail_msg("invalid after simplify: %s", v.msg);
    for (int i = 0; i < g->nnodes; i++)
        for (int k = 0; k < g->nodes[i].ninputs; k++)
            if (g->nodes[i].in[k].id >= i) fail_msg("node %d uses %d", i, g->nodes[i].in[k].id);
    char *before = dump_str(g);
    char *json = ir_write_json(g);
    Diag r;
    diag_init(&r, "written.json");
    Graph *back = ir_read_json(json, strlen(json), &r);
    if (!back) fail_msg("written graph does not read back: %s\n%s", r.msg, json);
    char *back_dump = dump_str(back);
    assert_string_equal(back_dump, before);
    graph_free(back);
    free(back_dump);
    free(json);
    if (pass_simplify(g, &v)) fail_msg("second run failed: %s", v.msg);
    char *after = dump_str(g);
    assert_string_equal(after, before);
    free(before);
    free(after);
}

static Graph *simplified(const char *sq) {
    Graph *g = read_ok(sq);
    Diag p;
    diag_init(&p, "g.json");
    if (pass_simplify(g, &p)) fail_msg("pass_simplify failed: %s", p.msg);
    return g;
}

/* Simplifies, compares the dump with want, checks soundness; returns the report counts of the
 * first run through simplify_count (read before assert_sound reruns the pass). */
typedef struct {
    int fold, identity, bridge, compose, cse, dead;
} Counts;

static Counts expect_dump(const char *sq, const char *want) {
    Graph *g = simplified(sq);
    Counts c = {simplify_count("fold"), simplify_count("identity"), simplify_count("bridge"),
                simplify_count("compose"), simplify_count("cse"), simplify_count("dead")};
    char *got = dump_str(g);
    assert_string_equal(got, want);
    free(got);
    assert_sound(g);
    graph_free(g);
    return c;
}

/* The value an output was folded to: it must name a `full` of the given dtype (equal results
 * share one node after CSE, so outputs are looked up, not nodes). */
static double folded(const Graph *g, const char *output, DType dt) {
    const Node *n = NULL;
    for (int i = 0; i < g->noutputs; i++)
        if (strcmp(g->outputs[i].name, output) == 0) n = &g->nodes[g->outputs[i].value];
    if (!n) fail_msg("no output \"%s\"", output);
    if (n->op != OP_FULL) fail_msg("%s is %s, not full", output, ir_ops[n->op].name);
    assert_int_equal(n->type.dtype, dt);
    assert_int_equal(n->attrs.dtype, dt);
    return n->attrs.value;
}

#define HEAD "{'format': 'gtc-graph', 'version': 1, 'name': 'g', "
#define IN(name, dt, shape) "{'name': '" name "', 'dtype': '" dt "', 'shape': " shape "}"
#define FULL(name, value, dt, shape) \
    "{'name': '" name "', 'op': 'full', 'value': " value ", 'dtype': '" dt "', 'shape': " shape "}"

/* ---- constant folding ------------------------------------------------------------------------- */

TEST(pass_simplify__mul_full_by_constant__full_6) {
    Counts c = expect_dump(HEAD "'inputs': [" IN("x", "float32", "[2,3]") "],"
                                          "'nodes': [" FULL("two", "2", "float32", "[2,3]") ","
                           "  {'name': 's', 'op': 'mul', 'inputs': ['two', 3]},"
                           "  {'name': 'y', 'op': 'add', 'inputs': ['x', 's']}],"
                           "'outputs': {'y': 'y'}}",
                           "graph g\n"
                           "input x: f32[2,3]\n"
                           "s: f32[2,3] = full shape=[2,3] value=6 dtype=float32\n"
                           "y: f32[2,3] = add x, s\n"
                           "output y = y\n");
    assert_int_equal(c.fold, 1);
    assert_int_equal(c.dead, 1); /* "two" */
}

TEST(pass_simplify__fulls_of_different_shapes__broadcast_shape) {
    Graph *g = simplified(HEAD "'inputs': [" IN("x", "float32", "[2,3]") "],"
                                         "'nodes': [" FULL("a", "1", "float32", "[3]") "," FULL("b", "2", "float32", "[2,1]") ","
                          "  {'name': 's', 'op': 'add', 'inputs': ['a', 'b']},"
                          "  {'name': 'y', 'op': 'mul', 'inputs': ['x', 's']}],"
                          "'outputs': {'y': 'y'}}");
    assert_int_equal(node_named(g, "s")->op, OP_FULL);
    assert_true(node_named(g, "s")->attrs.value == 3.0);
    char buf[64];
    assert_string_equal(ir_shape_str(&node_named(g, "s")->type, buf, sizeof buf), "[2,3]");
    assert_int_equal(graph_find(g, "a"), -1);
    assert_int_equal(graph_find(g, "b"), -1);
    assert_sound(g);
    graph_free(g);
}

TEST(pass_simplify__round_of_halves__half_to_even) {
    Graph *g = simplified(HEAD "'inputs': [" IN("x", "float32", "[]") "],"
                                         "'nodes': [" FULL("h", "2.5", "float32", "[]") "," FULL("k", "3.5", "float64", "[]") ","
                          FULL("m", "-2.5", "float32", "[]") ","
                          "  {'name': 'r1', 'op': 'round', 'inputs': ['h']},"
                          "  {'name': 'r2', 'op': 'round', 'inputs': ['k']},"
                          "  {'name': 'r3', 'op': 'round', 'inputs': ['m']},"
                          "  {'name': 'f', 'op': 'floor', 'inputs': ['m']},"
                          "  {'name': 'c', 'op': 'ceil', 'inputs': ['m']}],"
                          "'outputs': {'r1': 'r1', 'r2': 'r2', 'r3': 'r3', 'f': 'f', 'c': 'c'}}");
    assert_true(folded(g, "r1", DT_FLOAT32) == 2.0);
    assert_true(folded(g, "r2", DT_FLOAT64) == 4.0);
    assert_true(folded(g, "r3", DT_FLOAT32) == -2.0);
    assert_true(folded(g, "f", DT_FLOAT32) == -3.0);
    assert_true(folded(g, "c", DT_FLOAT32) == -2.0);
    assert_sound(g);
    graph_free(g);
}

TEST(pass_simplify__casts_out_of_range__saturate_and_truncate) {
    Graph *g = simplified(HEAD "'inputs': [" IN("x", "float32", "[]") "],"
                                         "'nodes': [" FULL("big", "1e10", "float64", "[]") "," FULL("neg", "-1e10", "float32", "[]") ","
                          FULL("frac", "-2.7", "float32", "[]") "," FULL("half", "0.5", "float32", "[]") ","
                          "  {'name': 'c1', 'op': 'cast', 'inputs': ['big'], 'dtype': 'int32'},"
                          "  {'name': 'c2', 'op': 'cast', 'inputs': ['neg'], 'dtype': 'int32'},"
                          "  {'name': 'c3', 'op': 'cast', 'inputs': ['frac'], 'dtype': 'int64'},"
                          "  {'name': 'c4', 'op': 'cast', 'inputs': ['half'], 'dtype': 'bool'},"
                          "  {'name': 'c5', 'op': 'cast', 'inputs': ['big'], 'dtype': 'float32'}],"
                          "'outputs': {'c1': 'c1', 'c2': 'c2', 'c3': 'c3', 'c4': 'c4', 'c5': 'c5'}}");
    assert_true(folded(g, "c1", DT_INT32) == 2147483647.0);
    assert_true(folded(g, "c2", DT_INT32) == -2147483648.0);
    assert_true(folded(g, "c3", DT_INT64) == -2.0);
    assert_true(folded(g, "c4", DT_BOOL) == 1.0);
    assert_true(folded(g, "c5", DT_FLOAT32) == (double)(float)1e10);
    assert_sound(g);
    graph_free(g);
}

TEST(pass_simplify__float32_arithmetic__computed_in_float32) {
    Graph *g = simplified(HEAD "'inputs': [" IN("x", "float32", "[]") "],"
                                         "'nodes': [" FULL("a", "0.1", "float32", "[]") "," FULL("one", "1", "float32", "[]") ","
                          "  {'name': 's', 'op': 'add', 'inputs': ['a', 0.2]},"
                          "  {'name': 'e', 'op': 'exp', 'inputs': ['a']},"
                          "  {'name': 'sg', 'op': 'sigmoid', 'inputs': ['one']},"
                          "  {'name': 'q', 'op': 'div', 'inputs': ['one', 3]},"
                          "  {'name': 'r', 'op': 'rsqrt', 'inputs': [" "'a'" "]}],"
                          "'outputs': {'s': 's', 'e': 'e', 'sg': 'sg', 'q': 'q', 'r': 'r'}}");
    volatile float a = 0.1f, two = 0.2f, one = 1.0f, three = 3.0f;
    assert_true(folded(g, "s", DT_FLOAT32) == (double)(float)(a + two));
    assert_true(folded(g, "e", DT_FLOAT32) == (double)expf(a));
    assert_true(folded(g, "sg", DT_FLOAT32) == (double)(1.0f / (1.0f + expf(-one))));
    assert_true(folded(g, "q", DT_FLOAT32) == (double)(float)(one / three));
    assert_true(folded(g, "r", DT_FLOAT32) == (double)(1.0f / sqrtf(a)));
    assert_sound(g);
    graph_free(g);
}

TEST(pass_simplify__integer_ops__wrap_pow_and_true_division) {
    Graph *g = simplified(HEAD "'inputs': [" IN("x", "float32", "[]") "],"
                                         "'nodes': [" FULL("m", "2147483647", "int32", "[]") "," FULL("two", "2", "int32", "[]") ","
                          FULL("seven", "7", "int64", "[]") "," FULL("t", "true", "bool", "[]") ","
                          "  {'name': 'w', 'op': 'add', 'inputs': ['m', 1]},"
                          "  {'name': 'p', 'op': 'pow', 'inputs': ['two', -1]},"
                          "  {'name': 'p10', 'op': 'pow', 'inputs': ['two', 10]},"
                          "  {'name': 'q', 'op': 'div', 'inputs': ['seven', 2]},"
                          "  {'name': 'bb', 'op': 'add', 'inputs': ['t', 't']},"
                          "  {'name': 'n', 'op': 'neg', 'inputs': ['t']},"
                          "  {'name': 'ab', 'op': 'abs', 'inputs': ['n']},"
                          "  {'name': 'cl', 'op': 'clamp', 'inputs': ['seven', 0, 5]},"
                          "  {'name': 'sn', 'op': 'sign', 'inputs': ['n']}],"
                          "'outputs': {'w': 'w', 'p': 'p', 'p10': 'p10', 'q': 'q', 'bb': 'bb', 'ab': 'ab',"
                          "            'cl': 'cl', 'sn': 'sn'}}");
    assert_true(folded(g, "w", DT_INT32) == -2147483648.0);
    assert_true(folded(g, "p", DT_INT32) == 0.0);
    assert_true(folded(g, "p10", DT_INT32) == 1024.0);
    assert_true(folded(g, "q", DT_FLOAT32) == 3.5);
    assert_true(folded(g, "bb", DT_INT32) == 2.0);
    assert_true(folded(g, "ab", DT_INT32) == 1.0);
    assert_true(folded(g, "cl", DT_INT64) == 5.0);
    assert_true(folded(g, "sn", DT_INT32) == -1.0);
    assert_int_equal(g->outputs[7].value, graph_find(g, "n")); /* sign(n) = n = -1: one full */
    assert_sound(g);
    graph_free(g);
}

TEST(pass_simplify__comparisons_and_where__fold_to_bool_and_branch) {
    Graph *g = simplified(HEAD "'inputs': [" IN("x", "float32", "[]") "],"
                                         "'nodes': [" FULL("i", "1", "int32", "[3]") "," FULL("nan_free", "2.5", "float32", "[]") ","
                          "  {'name': 'lt', 'op': 'lt', 'inputs': ['i', 2.5]},"
                          "  {'name': 'eq', 'op': 'eq', 'inputs': ['i', 1.5]},"
                          "  {'name': 'ge', 'op': 'ge', 'inputs': ['nan_free', 'i']},"
                          "  {'name': 'w', 'op': 'where', 'inputs': ['lt', 'i', 7]},"
                          "  {'name': 'mx', 'op': 'maximum', 'inputs': ['i', 'nan_free']}],"
                          "'outputs': {'lt': 'lt', 'eq': 'eq', 'ge': 'ge', 'w': 'w', 'mx': 'mx'}}");
    assert_true(folded(g, "lt", DT_BOOL) == 1.0);
    assert_true(folded(g, "eq", DT_BOOL) == 0.0); /* compared in float32: 1 != 1.5 */
    assert_true(folded(g, "ge", DT_BOOL) == 1.0);
    assert_true(folded(g, "w", DT_INT32) == 1.0);
    assert_true(folded(g, "mx", DT_FLOAT32) == 2.5);
    assert_sound(g);
    graph_free(g);
}

TEST(pass_simplify__views_and_max_of_full__fold_argmax_zero) {
    Graph *g = simplified(HEAD "'inputs': [" IN("x", "float32", "[]") "],"
                                         "'nodes': [" FULL("f", "4", "float32", "[2,3]") ","
                          "  {'name': 'r', 'op': 'reshape', 'inputs': ['f'], 'shape': [-1]},"
                          "  {'name': 't', 'op': 'transpose', 'inputs': ['f']},"
                          "  {'name': 'b', 'op': 'broadcast_to', 'inputs': ['f'], 'shape': [5,2,3]},"
                          "  {'name': 's', 'op': 'slice', 'inputs': ['f'], 'starts': [1], 'ends': [2], 'axes': [1]},"
                          "  {'name': 'mx', 'op': 'max', 'inputs': ['f'], 'axes': [1]},"
                          "  {'name': 'am', 'op': 'argmax', 'inputs': ['f'], 'axes': [1]},"
                          "  {'name': 'sm', 'op': 'sum', 'inputs': ['f'], 'axes': [1]}],"
                          "'outputs': {'r': 'r', 't': 't', 'b': 'b', 's': 's', 'mx': 'mx', 'am': 'am', 'sm': 'sm'}}");
    char buf[64];
    assert_true(folded(g, "r", DT_FLOAT32) == 4.0);
    assert_string_equal(ir_shape_str(&node_named(g, "r")->type, buf, sizeof buf), "[6]");
    assert_true(folded(g, "t", DT_FLOAT32) == 4.0);
    assert_string_equal(ir_shape_str(&node_named(g, "t")->type, buf, sizeof buf), "[3,2]");
    assert_true(folded(g, "b", DT_FLOAT32) == 4.0);
    assert_true(folded(g, "s", DT_FLOAT32) == 4.0);
    assert_string_equal(ir_shape_str(&node_named(g, "s")->type, buf, sizeof buf), "[2,1]");
    assert_true(folded(g, "mx", DT_FLOAT32) == 4.0);
    assert_true(folded(g, "am", DT_INT64) == 0.0);
    assert_int_equal(node_named(g, "sm")->op, OP_SUM); /* sums round: not folded */
    assert_sound(g);
    graph_free(g);
}

TEST(pass_simplify__non_finite_or_inexact_results__not_folded) {
    Graph *g = simplified(HEAD "'inputs': [" IN("x", "float32", "[]") "],"
                                         "'nodes': [" FULL("z", "0", "float32", "[]") "," FULL("big", "9007199254740992", "int64", "[]") ","
                          "  {'name': 'l', 'op': 'log', 'inputs': ['z']},"
                          "  {'name': 'q', 'op': 'div', 'inputs': [1, 'z']},"
                          "  {'name': 'n', 'op': 'div', 'inputs': ['z', 'z']},"
                          "  {'name': 'o', 'op': 'add', 'inputs': ['big', 1]},"
                          "  {'name': 'ok', 'op': 'add', 'inputs': ['big', 2]}],"
                          "'outputs': {'l': 'l', 'q': 'q', 'n': 'n', 'o': 'o', 'ok': 'ok'}}");
    assert_int_equal(node_named(g, "l")->op, OP_LOG);   /* -inf */
    assert_int_equal(node_named(g, "q")->op, OP_DIV);   /* inf */
    assert_int_equal(node_named(g, "n")->op, OP_DIV);   /* nan */
    assert_int_equal(node_named(g, "o")->op, OP_ADD);   /* 2^53+1 has no double */
    assert_true(folded(g, "ok", DT_INT64) == 9007199254740994.0);
    assert_sound(g);
    graph_free(g);
}

/* One node per row over `full` operands; each must fold to exactly the value scalar.h gives. */
TEST(pass_simplify__scalar_semantics_table__as_scalar_h) {
    static const struct {
        const char *op, *inputs;
        DType dt;
        double want;
    } rows[] = {
        {"sqrt", "['f64_2']", DT_FLOAT64, 1.4142135623730951},
        {"pow", "['f64_2', 0.5]", DT_FLOAT64, 1.4142135623730951},
        {"relu", "['i32_m3']", DT_INT32, 0},
        {"abs", "['i64_m5']", DT_INT64, 5},
        {"minimum", "[3, 'f32_2p5']", DT_FLOAT32, 2.5},
        {"mul", "['i64_2e62', 2]", DT_INT64, -9223372036854775808.0}, /* wraps in int64 */
        {"pow", "['i32_m1', -3]", DT_INT32, -1},
        {"pow", "['i32_0', 0]", DT_INT32, 1},
        {"clamp", "['i32_5', 10, 2]", DT_INT32, 2}, /* lo > hi gives hi */
        {"cast", "['f32_m0p7']", DT_INT32, 0},
        {"cast", "['b_true']", DT_FLOAT64, 1},
        {"sign", "['f32_m0p7']", DT_FLOAT32, -1},
        {"ne", "['b_true', 2]", DT_BOOL, 1}, /* ir_promote: bool with a number compares in int32 */
        {"where", "['b_false', 1, 'f32_2p5']", DT_FLOAT32, 2.5},
        {"sub", "['i32_m3', 'f64_2']", DT_FLOAT64, -5},
        {"div", "['i32_5', 'i32_m3']", DT_FLOAT32, (double)(5.0f / -3.0f)},
    };
    enum { N = sizeof rows / sizeof *rows };
    char text[8192];
    size_t len = (size_t)snprintf(text, sizeof text, "%s",
        HEAD "'inputs': [" IN("x", "float32", "[]") "], 'nodes': ["
        FULL("f64_2", "2", "float64", "[]") "," FULL("i32_m3", "-3", "int32", "[]") ","
        FULL("i64_m5", "-5", "int64", "[]") "," FULL("f32_2p5", "2.5", "float32", "[]") ","
        FULL("i64_2e62", "4611686018427387904", "int64", "[]") "," FULL("i32_m1", "-1", "int32", "[]") ","
        FULL("i32_0", "0", "int32", "[]") "," FULL("i32_5", "5", "int32", "[]") ","
        FULL("f32_m0p7", "-0.7", "float32", "[]") "," FULL("b_true", "true", "bool", "[]") ","
        FULL("b_false", "false", "bool", "[]"));
    for (int i = 0; i < N; i++)
        len += (size_t)snprintf(text + len, sizeof text - len, ", {'name': 'r%d', 'op': '%s', 'inputs': %s%s}", i,
                                rows[i].op, rows[i].inputs, strcmp(rows[i].op, "cast") ? "" :
                                rows[i].dt == DT_INT32 ? ", 'dtype': 'int32'" : ", 'dtype': 'float64'");
    len += (size_t)snprintf(text + len, sizeof text - len, "], 'outputs': {");
    for (int i = 0; i < N; i++) len += (size_t)snprintf(text + len, sizeof text - len, "%s'r%d': 'r%d'", i ? ", " : "", i, i);
    snprintf(text + len, sizeof text - len, "}}");
    Graph *g = simplified(text);
    for (int i = 0; i < N; i++) {
        char name[16];
        snprintf(name, sizeof name, "r%d", i);
        double got = folded(g, name, rows[i].dt);
        if (got != rows[i].want) fail_msg("%s %s: got %.17g, want %.17g", rows[i].op, rows[i].inputs, got, rows[i].want);
    }
    assert_sound(g);
    graph_free(g);
}

/* ---- identities ------------------------------------------------------------------------------- */

#define X_I_B HEAD "'inputs': [" IN("x", "float32", "[2,3]") "," IN("i", "int32", "[2,3]") "," IN("b", "bool", "[2,3]") "],"

TEST(pass_simplify__neutral_operands__replaced_by_x) {
    const char *text = X_I_B
                       "'nodes': [{'name': 'm1', 'op': 'mul', 'inputs': ['x', 1]},"
                       "  {'name': 'm2', 'op': 'mul', 'inputs': [1, 'm1']},"
                       "  {'name': 'a1', 'op': 'add', 'inputs': ['m2', 0]},"
                       "  {'name': 'a2', 'op': 'add', 'inputs': [0, 'a1']},"
                       "  {'name': 's1', 'op': 'sub', 'inputs': ['a2', 0]},"
                       "  {'name': 'd1', 'op': 'div', 'inputs': ['s1', 1]},"
                       "  {'name': 'n1', 'op': 'neg', 'inputs': ['d1']},"
                       "  {'name': 'n2', 'op': 'neg', 'inputs': ['n1']},"
                       "  {'name': 'y', 'op': 'exp', 'inputs': ['n2']}],"
                       "'outputs': {'y': 'y', 'same': 'd1'}}";
    Counts c = expect_dump(text,
                           "graph g\n"
                           "input x: f32[2,3]\n"
                           "input i: i32[2,3]\n"
                           "input b: bool[2,3]\n"
                           "y: f32[2,3] = exp x\n"
                           "output y = y\n"
                           "output same = x\n");
    assert_int_equal(c.identity, 7);
    assert_int_equal(c.dead, 1); /* n1: n2 skipped it */
}

TEST(pass_simplify__neutral_full_operands__replaced_or_bridged) {
    const char *text = X_I_B
                       "'nodes': [" FULL("one", "1", "float32", "[2,3]") "," FULL("zero", "0", "float32", "[]") ","
                       FULL("one_i", "1.5", "int32", "[]") ","
                       "  {'name': 'm', 'op': 'mul', 'inputs': ['x', 'one']},"
                       "  {'name': 'a', 'op': 'add', 'inputs': ['zero', 'm']},"
                       "  {'name': 'c', 'op': 'mul', 'inputs': ['i', 'one']},"
                       "  {'name': 'k', 'op': 'mul', 'inputs': ['one_i', 'i']}],"
                       "'outputs': {'a': 'a', 'c': 'c', 'k': 'k'}}";
    expect_dump(text,
                "graph g\n"
                "input x: f32[2,3]\n"
                "input i: i32[2,3]\n"
                "input b: bool[2,3]\n"
                "c: f32[2,3] = cast i dtype=float32\n"
                "output a = x\n"
                "output c = c\n"
                "output k = i\n");
}

TEST(pass_simplify__mul_by_zero__float_kept_int_and_bool_zeroed) {
    const char *text = X_I_B
                       "'nodes': [{'name': 'f', 'op': 'mul', 'inputs': ['x', 0]},"
                       "  {'name': 'g0', 'op': 'mul', 'inputs': [0, 'i']},"
                       "  {'name': 'h', 'op': 'mul', 'inputs': ['b', 0]},"
                       "  {'name': 'k', 'op': 'mul', 'inputs': ['i', 0.5]}],"
                       "'outputs': {'f': 'f', 'g0': 'g0', 'h': 'h', 'k': 'k'}}";
    expect_dump(text,
                "graph g\n"
                "input x: f32[2,3]\n"
                "input i: i32[2,3]\n"
                "input b: bool[2,3]\n"
                "f: f32[2,3] = mul x, 0\n"
                "g0: i32[2,3] = full shape=[2,3] value=0 dtype=int32\n"
                "k: f32[2,3] = mul i, 0.5\n"
                "output f = f\n"
                "output g0 = g0\n"
                "output h = g0\n"
                "output k = k\n");
}

TEST(pass_simplify__identity_changing_dtype_or_shape__bridged_or_kept) {
    Counts c = expect_dump(HEAD "'inputs': [" IN("v", "int32", "[3]") "," IN("b", "bool", "[3]") "],"
                                          "'nodes': [" FULL("one", "1", "float32", "[]") "," FULL("one23", "1", "float32", "[2,3]") ","
                           FULL("zero23", "0", "int32", "[2,3]") ","
                           "  {'name': 'to_f', 'op': 'mul', 'inputs': ['v', 'one']},"
                           "  {'name': 'wide', 'op': 'add', 'inputs': ['v', 'zero23']},"
                           "  {'name': 'both', 'op': 'mul', 'inputs': ['v', 'one23']},"
                           "  {'name': 'nb', 'op': 'neg', 'inputs': ['b']},"
                           "  {'name': 'nnb', 'op': 'neg', 'inputs': ['nb']},"
                           "  {'name': 'bi', 'op': 'add', 'inputs': ['b', 0]}],"
                           "'outputs': {'to_f': 'to_f', 'wide': 'wide', 'both': 'both', 'nnb': 'nnb', 'bi': 'bi'}}",
                           "graph g\n"
                           "input v: i32[3]\n"
                           "input b: bool[3]\n"
                           "one23: f32[2,3] = full shape=[2,3] value=1 dtype=float32\n"
                           "to_f: f32[3] = cast v dtype=float32\n"
                           "wide: i32[2,3] = broadcast_to v shape=[2,3]\n"
                           "both: f32[2,3] = mul v, one23\n"
                           "nnb: i32[3] = cast b dtype=int32\n"
                           "output to_f = to_f\n"
                           "output wide = wide\n"
                           "output both = both\n"
                           "output nnb = nnb\n"
                           "output bi = nnb\n");
    assert_int_equal(c.bridge, 4); /* to_f, wide, nnb, bi (then merged with nnb) */
    assert_int_equal(c.cse, 1);
}

TEST(pass_simplify__where_same_branches__x_or_broadcast) {
    expect_dump(HEAD "'inputs': [" IN("c", "bool", "[2,3]") "," IN("x", "float32", "[2,3]") ","
                IN("r", "float32", "[3]") "," IN("c1", "bool", "[3]") "],"
                               "'nodes': [{'name': 'w1', 'op': 'where', 'inputs': ['c', 'x', 'x']},"
                "  {'name': 'w2', 'op': 'where', 'inputs': ['c', 'r', 'r']},"
                "  {'name': 'w3', 'op': 'where', 'inputs': ['c', 2, 2]},"
                "  {'name': 'w4', 'op': 'where', 'inputs': ['c1', 'r', 'x']}],"
                "'outputs': {'w1': 'w1', 'w2': 'w2', 'w3': 'w3', 'w4': 'w4'}}",
                "graph g\n"
                "input c: bool[2,3]\n"
                "input x: f32[2,3]\n"
                "input r: f32[3]\n"
                "input c1: bool[3]\n"
                "w2: f32[2,3] = broadcast_to r shape=[2,3]\n"
                "w3: i64[2,3] = full shape=[2,3] value=2 dtype=int64\n"
                "w4: f32[2,3] = where c1, r, x\n"
                "output w1 = x\n"
                "output w2 = w2\n"
                "output w3 = w3\n"
                "output w4 = w4\n");
}

TEST(pass_simplify__same_type_views_and_casts__removed) {
    expect_dump(HEAD "'inputs': [" IN("x", "float32", "[2,3]") "," IN("u", "float32", "[3,1,1]") "],"
                               "'nodes': [{'name': 'c', 'op': 'cast', 'inputs': ['x'], 'dtype': 'float32'},"
                "  {'name': 'r', 'op': 'reshape', 'inputs': ['c'], 'shape': [2, -1]},"
                "  {'name': 't', 'op': 'transpose', 'inputs': ['r'], 'perm': [0, 1]},"
                "  {'name': 'b', 'op': 'broadcast_to', 'inputs': ['t'], 'shape': [2, 3]},"
                "  {'name': 's', 'op': 'slice', 'inputs': ['b'], 'starts': [0, -100], 'ends': [2, 100]},"
                "  {'name': 'y', 'op': 'exp', 'inputs': ['s']},"
                "  {'name': 'tu', 'op': 'transpose', 'inputs': ['u'], 'perm': [0, 2, 1]},"
                "  {'name': 'su', 'op': 'slice', 'inputs': ['u'], 'starts': [0], 'ends': [-100], 'axes': [2], 'steps': [-1]},"
                "  {'name': 'z', 'op': 'add', 'inputs': ['tu', 'su']}],"
                "'outputs': {'y': 'y', 'z': 'z'}}",
                "graph g\n"
                "input x: f32[2,3]\n"
                "input u: f32[3,1,1]\n"
                "y: f32[2,3] = exp x\n"
                "z: f32[3,1,1] = add u, u\n"
                "output y = y\n"
                "output z = z\n");
}

TEST(pass_simplify__views_that_move_data__kept) {
    expect_dump(HEAD "'inputs': [" IN("x", "float32", "[3,3]") "," IN("u", "float32", "[2,1,2]") "],"
                               "'nodes': [{'name': 'c', 'op': 'cast', 'inputs': ['x'], 'dtype': 'float64'},"
                "  {'name': 't', 'op': 'transpose', 'inputs': ['x']},"
                "  {'name': 'tu', 'op': 'transpose', 'inputs': ['u'], 'perm': [2, 1, 0]},"
                "  {'name': 'rv', 'op': 'slice', 'inputs': ['x'], 'starts': [-1], 'ends': [-100], 'steps': [-1]},"
                "  {'name': 'st', 'op': 'slice', 'inputs': ['x'], 'starts': [0], 'ends': [3], 'axes': [1], 'steps': [2]}],"
                "'outputs': {'c': 'c', 't': 't', 'tu': 'tu', 'rv': 'rv', 'st': 'st'}}",
                "graph g\n"
                "input x: f32[3,3]\n"
                "input u: f32[2,1,2]\n"
                "c: f64[3,3] = cast x dtype=float64\n"
                "t: f32[3,3] = transpose x\n"
                "tu: f32[2,1,2] = transpose u perm=[2,1,0]\n"
                "rv: f32[3,3] = slice x starts=[-1] ends=[-100] steps=[-1]\n"
                "st: f32[3,2] = slice x starts=[0] ends=[3] axes=[1] steps=[2]\n"
                "output c = c\n"
                "output t = t\n"
                "output tu = tu\n"
                "output rv = rv\n"
                "output st = st\n");
}

TEST(pass_simplify__chained_views__composed) {
    Counts c = expect_dump(HEAD "'inputs': [" IN("x", "float32", "[2,3,4]") "],"
                                          "'nodes': [{'name': 't1', 'op': 'transpose', 'inputs': ['x'], 'perm': [1, 2, 0]},"
                           "  {'name': 't2', 'op': 'transpose', 'inputs': ['t1'], 'perm': [2, 0, 1]},"
                           "  {'name': 't3', 'op': 'transpose', 'inputs': ['t1'], 'perm': [1, 0, 2]},"
                           "  {'name': 'r1', 'op': 'reshape', 'inputs': ['x'], 'shape': [6, 4]},"
                           "  {'name': 'r2', 'op': 'reshape', 'inputs': ['r1'], 'shape': [-1]},"
                           "  {'name': 'r3', 'op': 'reshape', 'inputs': ['r2'], 'shape': [2, 3, 4]},"
                           "  {'name': 'b1', 'op': 'broadcast_to', 'inputs': ['r2'], 'shape': [5, 24]},"
                           "  {'name': 'b2', 'op': 'broadcast_to', 'inputs': ['b1'], 'shape': [7, 5, 24]},"
                           "  {'name': 'y', 'op': 'add', 'inputs': ['t2', 'r3']}],"
                           "'outputs': {'y': 'y', 't3': 't3', 'b2': 'b2'}}",
                           "graph g\n"
                           "input x: f32[2,3,4]\n"
                           "t3: f32[4,3,2] = transpose x perm=[2,1,0]\n"
                           "r2: f32[24] = reshape x shape=[24]\n"
                           "b2: f32[7,5,24] = broadcast_to r2 shape=[7,5,24]\n"
                           "y: f32[2,3,4] = add x, x\n"
                           "output y = y\n"
                           "output t3 = t3\n"
                           "output b2 = b2\n");
    assert_int_equal(c.compose, 5); /* t2, t3, r2, r3, b2 */
    assert_int_equal(c.identity, 2); /* t2, r3 */
    assert_int_equal(c.dead, 3);     /* t1, r1, b1 */
}

TEST(pass_simplify__output_would_name_donated_input__kept) {
    expect_dump(HEAD "'inputs': [" IN("w", "float32", "[3]") "," IN("gr", "float32", "[3]") "],"
                               "'nodes': [{'name': 'w_next', 'op': 'sub', 'inputs': ['w', 'gr']},"
                "  {'name': 'w_copy', 'op': 'mul', 'inputs': ['w', 1]},"
                "  {'name': 'w_use', 'op': 'mul', 'inputs': ['w', 1]},"
                "  {'name': 'e', 'op': 'exp', 'inputs': ['w_use']}],"
                "'outputs': {'w': 'w_next', 'old': 'w_copy', 'e': 'e'}, 'donate': {'w_next': 'w'}}",
                "graph g\n"
                "input w: f32[3]\n"
                "input gr: f32[3]\n"
                "w_next: f32[3] = sub w, gr\n"
                "w_copy: f32[3] = mul w, 1\n"
                "e: f32[3] = exp w\n"
                "output w = w_next reuses w\n"
                "output old = w_copy\n"
                "output e = e\n");
}

TEST(pass_simplify__donated_value__keeps_its_node) {
    expect_dump(HEAD "'inputs': [" IN("w", "float32", "[3]") "," IN("gr", "float32", "[3]") "],"
                               "'nodes': [{'name': 't', 'op': 'sub', 'inputs': ['w', 'gr']},"
                "  {'name': 'w_next', 'op': 'mul', 'inputs': ['t', 1]},"
                "  {'name': 't2', 'op': 'sub', 'inputs': ['w', 'gr']},"
                "  {'name': 'v', 'op': 'add', 'inputs': ['t2', 0]}],"
                "'outputs': {'w': 'w_next', 't': 't', 'v': 'v'}, 'donate': {'w_next': 'w'}}",
                "graph g\n"
                "input w: f32[3]\n"
                "input gr: f32[3]\n"
                "t: f32[3] = sub w, gr\n"
                "w_next: f32[3] = mul t, 1\n"
                "output w = w_next reuses w\n"
                "output t = t\n"
                "output v = t\n");
}

TEST(pass_simplify__output_naming_plain_input__allowed) {
    expect_dump(HEAD "'inputs': [" IN("x", "float32", "[3]") "],"
                               "'nodes': [{'name': 'y', 'op': 'mul', 'inputs': ['x', 1]}],"
                "'outputs': {'y': 'y'}}",
                "graph g\n"
                "input x: f32[3]\n"
                "output y = x\n");
}

/* ---- common subexpressions -------------------------------------------------------------------- */

TEST(pass_simplify__duplicate_subexpressions__computed_once) {
    Counts c = expect_dump(HEAD "'inputs': [" IN("x", "float32", "[4,3]") "," IN("y", "float32", "[3]") "],"
                                          "'nodes': [{'name': 'e1', 'op': 'exp', 'inputs': ['x']},"
                           "  {'name': 'a1', 'op': 'add', 'inputs': ['e1', 'y']},"
                           "  {'name': 'e2', 'op': 'exp', 'inputs': ['x']},"
                           "  {'name': 'a2', 'op': 'add', 'inputs': ['e2', 'y']},"
                           "  {'name': 'a3', 'op': 'add', 'inputs': ['y', 'e2']},"
                           "  {'name': 'p', 'op': 'mul', 'inputs': ['a1', 'a2']},"
                           "  {'name': 'q', 'op': 'mul', 'inputs': ['a3', 'a1']},"
                           "  {'name': 'mx1', 'op': 'maximum', 'inputs': ['p', 'e1']},"
                           "  {'name': 'mx2', 'op': 'maximum', 'inputs': ['e2', 'q']},"
                           "  {'name': 'd1', 'op': 'sub', 'inputs': ['p', 'e1']},"
                           "  {'name': 'd2', 'op': 'sub', 'inputs': ['e1', 'p']}],"
                           "'outputs': {'p': 'p', 'q': 'q', 'a2': 'a2', 'a3': 'a3', 'mx1': 'mx1', 'mx2': 'mx2',"
                           "            'd1': 'd1', 'd2': 'd2'}}",
                           "graph g\n"
                           "input x: f32[4,3]\n"
                           "input y: f32[3]\n"
                           "e1: f32[4,3] = exp x\n"
                           "a1: f32[4,3] = add e1, y\n"
                           "p: f32[4,3] = mul a1, a1\n"
                           "mx1: f32[4,3] = maximum p, e1\n"
                           "mx2: f32[4,3] = maximum e1, p\n"
                           "d1: f32[4,3] = sub p, e1\n"
                           "d2: f32[4,3] = sub e1, p\n"
                           "output p = p\n"
                           "output q = p\n"
                           "output a2 = a1\n"
                           "output a3 = a1\n"
                           "output mx1 = mx1\n"
                           "output mx2 = mx2\n"
                           "output d1 = d1\n"
                           "output d2 = d2\n");
    /* e2, a2, a3 and q (add and mul commute); maximum(+0, -0) is not maximum(-0, +0): kept */
    assert_int_equal(c.cse, 4);
}

TEST(pass_simplify__constants_and_attributes__compared_exactly) {
    expect_dump(HEAD "'inputs': [" IN("x", "float32", "[4,3]") "],"
                               "'nodes': [{'name': 'm2', 'op': 'mul', 'inputs': ['x', 2]},"
                "  {'name': 'm2b', 'op': 'mul', 'inputs': ['x', 2.0]},"
                "  {'name': 'm3', 'op': 'mul', 'inputs': ['x', 3]},"
                "  {'name': 'p0', 'op': 'add', 'inputs': ['x', 0.5]},"
                "  {'name': 's1', 'op': 'sum', 'inputs': ['x'], 'axes': [1]},"
                "  {'name': 's2', 'op': 'sum', 'inputs': ['x'], 'axes': [-1]},"
                "  {'name': 's3', 'op': 'sum', 'inputs': ['x'], 'axes': [1], 'keepdims': true},"
                "  {'name': 's4', 'op': 'sum', 'inputs': ['x'], 'axes': [0]},"
                "  {'name': 't1', 'op': 'transpose', 'inputs': ['x']},"
                "  {'name': 't2', 'op': 'transpose', 'inputs': ['x'], 'perm': [-1, 0]},"
                "  {'name': 'l1', 'op': 'slice', 'inputs': ['x'], 'starts': [1], 'ends': [3]},"
                "  {'name': 'l2', 'op': 'slice', 'inputs': ['x'], 'starts': [-3], 'ends': [-1], 'axes': [0]},"
                "  {'name': 'l3', 'op': 'slice', 'inputs': ['x'], 'starts': [1], 'ends': [3], 'axes': [1]},"
                "  {'name': 'f1', 'op': 'full', 'value': 1.5, 'dtype': 'int32', 'shape': [2]},"
                "  {'name': 'f2', 'op': 'full', 'value': 1, 'dtype': 'int32', 'shape': [2]},"
                "  {'name': 'f3', 'op': 'full', 'value': 1, 'dtype': 'int64', 'shape': [2]}],"
                "'outputs': {'m2': 'm2', 'm2b': 'm2b', 'm3': 'm3', 'p0': 'p0', 's1': 's1', 's2': 's2',"
                "            's3': 's3', 's4': 's4', 't1': 't1', 't2': 't2', 'l1': 'l1', 'l2': 'l2',"
                "            'l3': 'l3', 'f1': 'f1', 'f2': 'f2', 'f3': 'f3'}}",
                "graph g\n"
                "input x: f32[4,3]\n"
                "m2: f32[4,3] = mul x, 2\n"
                "m3: f32[4,3] = mul x, 3\n"
                "p0: f32[4,3] = add x, 0.5\n"
                "s1: f32[4] = sum x axes=[1]\n"
                "s3: f32[4,1] = sum x axes=[1] keepdims\n"
                "s4: f32[3] = sum x axes=[0]\n"
                "t1: f32[3,4] = transpose x\n"
                "l1: f32[2,3] = slice x starts=[1] ends=[3]\n"
                "l3: f32[4,2] = slice x starts=[1] ends=[3] axes=[1]\n"
                "f1: i32[2] = full shape=[2] value=1.5 dtype=int32\n"
                "f3: i64[2] = full shape=[2] value=1 dtype=int64\n"
                "output m2 = m2\n"
                "output m2b = m2\n"
                "output m3 = m3\n"
                "output p0 = p0\n"
                "output s1 = s1\n"
                "output s2 = s1\n"
                "output s3 = s3\n"
                "output s4 = s4\n"
                "output t1 = t1\n"
                "output t2 = t1\n"
                "output l1 = l1\n"
                "output l2 = l1\n"
                "output l3 = l3\n"
                "output f1 = f1\n"
                "output f2 = f1\n"
                "output f3 = f3\n");
}

TEST(pass_simplify__duplicate_donated_values__both_kept) {
    expect_dump(HEAD "'inputs': [" IN("a", "float32", "[3]") "," IN("b", "float32", "[3]") "," IN("x", "float32", "[3]") "],"
                               "'nodes': [{'name': 'na', 'op': 'exp', 'inputs': ['x']},"
                "  {'name': 'nb', 'op': 'exp', 'inputs': ['x']}],"
                "'outputs': {'a': 'na', 'b': 'nb'}, 'donate': {'na': 'a', 'nb': 'b'}}",
                "graph g\n"
                "input a: f32[3]\n"
                "input b: f32[3]\n"
                "input x: f32[3]\n"
                "na: f32[3] = exp x\n"
                "nb: f32[3] = exp x\n"
                "output a = na reuses a\n"
                "output b = nb reuses b\n");
}

TEST(pass_simplify__long_chain_of_duplicates__linear_time) {
    enum { N = 20000 };
    size_t cap = (size_t)N * 120 + 1024, len = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    len += (size_t)snprintf(text + len, cap - len, HEAD "'inputs': [" IN("x", "float32", "[2]") "], 'nodes': [");
    /* a_k = a_{k-1} + x and b_k = b_{k-1} + x, with a_0 = b_0 = x: every b_k is a_k */
    for (int k = 1; k <= N; k++) {
        char pa[16] = "x", pb[16] = "x";
        if (k > 1) snprintf(pa, sizeof pa, "a%d", k - 1), snprintf(pb, sizeof pb, "b%d", k - 1);
        len += (size_t)snprintf(text + len, cap - len, "%s{'name': 'a%d', 'op': 'add', 'inputs': ['%s', 'x']},"
                                "{'name': 'b%d', 'op': 'add', 'inputs': ['%s', 'x']}",
                                k > 1 ? "," : "", k, pa, k, pb);
    }
    snprintf(text + len, cap - len, "], 'outputs': {'a': 'a%d', 'b': 'b%d'}}", N, N);
    Graph *g = simplified(text);
    free(text);
    assert_int_equal(simplify_count("cse"), N);
    assert_int_equal(g->nnodes, 1 + N);
    assert_int_equal(g->outputs[0].value, g->outputs[1].value);
    graph_free(g);
}

/* ---- dead nodes ------------------------------------------------------------------------------- */

TEST(pass_simplify__unreachable_nodes__removed_inputs_kept) {
    Counts c = expect_dump(HEAD "'inputs': [" IN("x", "float32", "[3]") "," IN("unused", "int64", "[7]") ","
                           IN("lr", "float32", "[]") "],"
                                          "'nodes': [{'name': 'a', 'op': 'exp', 'inputs': ['x']},"
                           "  {'name': 'dead1', 'op': 'log', 'inputs': ['a']},"
                           "  {'name': 'dead2', 'op': 'mul', 'inputs': ['dead1', 'lr']},"
                           "  {'name': 'dead3', 'op': 'sum', 'inputs': ['dead2']},"
                           "  {'name': 'y', 'op': 'mul', 'inputs': ['a', 'lr']}],"
                           "'outputs': {'y': 'y'}}",
                           "graph g\n"
                           "input x: f32[3]\n"
                           "input unused: i64[7]\n"
                           "input lr: f32[]\n"
                           "a: f32[3] = exp x\n"
                           "y: f32[3] = mul a, lr\n"
                           "output y = y\n");
    assert_int_equal(c.dead, 3);
}

TEST(pass_simplify__survivors__keep_names_locs_and_order) {
    Graph *g = simplified(HEAD "'inputs': [" IN("x", "float32", "[3]") "],"
                                         "'nodes': [{'name': 'y', 'op': 'add', 'inputs': ['b', 'a']},"
                          "  {'name': 'a', 'op': 'exp', 'inputs': ['x']},"
                          "  {'name': 'dead', 'op': 'neg', 'inputs': ['x']},"
                          "  {'name': 'b', 'op': 'mul', 'inputs': ['a', 'a']}],"
                          "'outputs': {'y': 'y'}}");
    assert_int_equal(g->nnodes, 4);
    assert_string_equal(g->nodes[1].name, "a");
    assert_string_equal(g->nodes[1].loc, "nodes[1]");
    assert_string_equal(g->nodes[2].name, "b");
    assert_string_equal(g->nodes[2].loc, "nodes[3]");
    assert_string_equal(g->nodes[3].name, "y");
    assert_string_equal(g->nodes[3].loc, "nodes[0]");
    assert_int_equal(g->nodes[0].input_index, 0);
    assert_int_equal(g->ninputs, 1);
    assert_sound(g);
    graph_free(g);
}

/* ---- the report and the example graphs -------------------------------------------------------- */

TEST(simplify_report__after_a_run__counts_and_log) {
    Graph *g = simplified(HEAD "'inputs': [" IN("x", "float32", "[3]") "],"
                                         "'nodes': [" FULL("two", "2", "float32", "[3]") ","
                          "  {'name': 's', 'op': 'mul', 'inputs': ['two', 3]},"
                          "  {'name': 'm', 'op': 'mul', 'inputs': ['x', 1]},"
                          "  {'name': 'e1', 'op': 'exp', 'inputs': ['m']},"
                          "  {'name': 'e2', 'op': 'exp', 'inputs': ['x']},"
                          "  {'name': 'y', 'op': 'add', 'inputs': ['e1', 'e2']},"
                          "  {'name': 'z', 'op': 'add', 'inputs': ['y', 's']}],"
                          "'outputs': {'z': 'z'}}");
    char *r = report_str();
    assert_string_equal(r, "simplify: 7 -> 4 nodes; fold 1, identity 1, bridge 0, compose 0, cse 1, dead 1\n"
                           "  fold     s: mul -> full 6\n"
                           "  identity m: mul(x, 1) -> x\n"
                           "  cse      e2 -> e1\n"
                           "  dead     two\n");
    free(r);
    assert_int_equal(simplify_count("before"), 7);
    assert_int_equal(simplify_count("after"), 4);
    assert_int_equal(simplify_count("nonsense"), -1);
    graph_free(g);
}

TEST(pass_simplify__example_training_steps__sound) {
    const char *files[] = {"examples/train_step.json", "examples/digits_step.json"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        Diag r;
        diag_init(&r, files[i]);
        Graph *g = ir_read_json_file(files[i], &r);
        if (!g) fail_msg("%s", r.msg);
        int outputs = g->noutputs;
        if (pass_simplify(g, &r)) fail_msg("%s", r.msg);
        assert_int_equal(g->noutputs, outputs);
        assert_true(simplify_count("after") <= simplify_count("before"));
        assert_sound(g);
        graph_free(g);
    }
}

TEST(pass_simplify__invalid_graph__error_not_crash) {
    Graph *g = graph_new("g");
    NodeId x = graph_add(g, "x", OP_INPUT);
    g->nodes[x].type.dtype = DT_FLOAT32;
    NodeId y = graph_add(g, "y", OP_ADD);
    g->nodes[y].ninputs = 1; /* add takes two */
    g->nodes[y].in[0].id = x;
    snprintf(g->nodes[y].loc, sizeof g->nodes[y].loc, "nodes[0]");
    Diag r;
    diag_init(&r, "g.json");
    assert_int_equal(pass_simplify(g, &r), -1);
    assert_string_equal(r.msg, "g.json: nodes[0] \"y\" (add): takes 2 inputs, got 1");
    graph_free(g);
}

/* Index-mapped ops are one value only with the same axis (and pads, value): gathers along two
 * axes of a square matrix have one type but differ. */
TEST(cse__gathers_along_different_axes__kept_apart) {
    Graph *g = simplified("{'format': 'gtc-graph', 'version': 1, 'name': 'g', 'inputs': [{'name': 'x', 'dtype': "
                        "'float32', 'shape': [3, 3]}, {'name': 'i', 'dtype': 'int32', 'shape': [3]}], 'nodes': ["
                        "{'name': 'a', 'op': 'gather', 'inputs': ['x', 'i']}, {'name': 'b', 'op': 'gather', 'inputs': "
                        "['x', 'i'], 'axis': 1}, {'name': 'c', 'op': 'gather', 'inputs': ['x', 'i'], 'axis': -2}, "
                        "{'name': 's', 'op': 'add', 'inputs': ['a', 'b']}, {'name': 't', 'op': 'add', 'inputs': ['s', 'c']}],"
                        " 'outputs': {'t': 't'}}");
    assert_int_equal(simplify_count("cse"), 1); /* c is a (axis -2 is 0), b stays */
    graph_free(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pass_simplify__mul_full_by_constant__full_6),
        cmocka_unit_test(pass_simplify__fulls_of_different_shapes__broadcast_shape),
        cmocka_unit_test(pass_simplify__round_of_halves__half_to_even),
        cmocka_unit_test(pass_simplify__casts_out_of_range__saturate_and_truncate),
        cmocka_unit_test(pass_simplify__float32_arithmetic__computed_in_float32),
        cmocka_unit_test(pass_simplify__integer_ops__wrap_pow_and_true_division),
        cmocka_unit_test(pass_simplify__comparisons_and_where__fold_to_bool_and_branch),
        cmocka_unit_test(pass_simplify__views_and_max_of_full__fold_argmax_zero),
        cmocka_unit_test(pass_simplify__non_finite_or_inexact_results__not_folded),
        cmocka_unit_test(pass_simplify__scalar_semantics_table__as_scalar_h),
        cmocka_unit_test(pass_simplify__neutral_operands__replaced_by_x),
        cmocka_unit_test(pass_simplify__neutral_full_operands__replaced_or_bridged),
        cmocka_unit_test(pass_simplify__mul_by_zero__float_kept_int_and_bool_zeroed),
        cmocka_unit_test(pass_simplify__identity_changing_dtype_or_shape__bridged_or_kept),
        cmocka_unit_test(pass_simplify__where_same_branches__x_or_broadcast),
        cmocka_unit_test(pass_simplify__same_type_views_and_casts__removed),
        cmocka_unit_test(pass_simplify__views_that_move_data__kept),
        cmocka_unit_test(pass_simplify__chained_views__composed),
        cmocka_unit_test(pass_simplify__output_would_name_donated_input__kept),
        cmocka_unit_test(pass_simplify__donated_value__keeps_its_node),
        cmocka_unit_test(pass_simplify__output_naming_plain_input__allowed),
        cmocka_unit_test(pass_simplify__duplicate_subexpressions__computed_once),
        cmocka_unit_test(pass_simplify__constants_and_attributes__compared_exactly),
        cmocka_unit_test(pass_simplify__duplicate_donated_values__both_kept),
        cmocka_unit_test(pass_simplify__long_chain_of_duplicates__linear_time),
        cmocka_unit_test(pass_simplify__unreachable_nodes__removed_inputs_kept),
        cmocka_unit_test(pass_simplify__survivors__keep_names_locs_and_order),
        cmocka_unit_test(simplify_report__after_a_run__counts_and_log),
        cmocka_unit_test(pass_simplify__example_training_steps__sound),
        cmocka_unit_test(pass_simplify__invalid_graph__error_not_crash),
        cmocka_unit_test(cse__gathers_along_different_axes__kept_apart),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
