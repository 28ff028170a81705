/* tests/unit/test_json.c: the JSON reader and writer (ir_read_json, ir_write_json) and the text
 * dump they must agree with. Run from the repository root (`make unit`): the examples are read
 * by relative path. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../ir/ir.h"

#define TEST(name) static void name(void **state __attribute__((unused)))

/* ---- helpers ---------------------------------------------------------------------------------- */

static Diag d;

/* JSON written with single quotes (readable in C); converted to double quotes before reading.
 * Columns do not change. Returns a malloc'd string. */
static char *dq(const char *s) {
    char *t = strdup(s);
    assert_non_null(t);
    for (char *p = t; *p; p++)
        if (*p == '\'') *p = '"';
    return t;
}

/* Reads JSON given with single quotes; NULL with the message in d.msg. */
static Graph *read_q(const char *sq) {
    char *text = dq(sq);
    diag_init(&d, "g.json");
    Graph *g = ir_read_json(text, strlen(text), &d);
    free(text);
    return g;
}

static Graph *read_ok(const char *sq) {
    Graph *g = read_q(sq);
    if (!g) fail_msg("unexpected error: %s", d.msg);
    assert_int_equal(d.nerrors, 0);
    return g;
}

/* Reads raw bytes (for errors in the text itself) and expects exactly msg. */
static void expect_raw_error(const char *text, size_t len, const char *msg) {
    diag_init(&d, "g.json");
    Graph *g = ir_read_json(text, len, &d);
    if (g) {
        graph_free(g);
        fail_msg("loaded, expected: %s", msg);
    }
    assert_string_equal(d.msg, msg);
}

static void expect_error(const char *sq, const char *msg) {
    char *text = dq(sq);
    expect_raw_error(text, strlen(text), msg);
    free(text);
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

/* read -> write -> read -> write gives identical bytes, and both graphs dump identically. */
static void assert_round_trip(const Graph *g1) {
    char *w1 = ir_write_json(g1);
    assert_non_null(w1);
    Diag d2;
    diag_init(&d2, "written.json");
    Graph *g2 = ir_read_json(w1, strlen(w1), &d2);
    if (!g2) fail_msg("the written graph does not read back: %s\n%s", d2.msg, w1);
    char *w2 = ir_write_json(g2);
    assert_string_equal(w1, w2);
    char *a = dump_str(g1), *b = dump_str(g2);
    assert_string_equal(a, b);
    free(a), free(b), free(w1), free(w2);
    graph_free(g2);
}

static const Node *node_named(const Graph *g, const char *name) {
    NodeId id = graph_find(g, name);
    if (id < 0) fail_msg("no value \"%s\"", name);
    return &g->nodes[id];
}

static void assert_type(const Graph *g, const char *name, DType dt, const char *shape) {
    const Node *n = node_named(g, name);
    char buf[128];
    if (n->type.dtype != dt || strcmp(ir_shape_str(&n->type, buf, sizeof buf), shape) != 0)
        fail_msg("%s: %s%s, want %s%s", name, ir_dtype_name(n->type.dtype), buf, ir_dtype_name(dt), shape);
}

/* Every operand comes before its user. */
static void assert_topological(const Graph *g) {
    for (int i = 0; i < g->nnodes; i++)
        for (int k = 0; k < g->nodes[i].ninputs; k++)
            if (g->nodes[i].in[k].id >= i) fail_msg("node %d uses %d", i, g->nodes[i].in[k].id);
}

#define HEAD "{'format': 'gtc-graph', 'version': 1, 'name': 'g', "
#define X23 "'inputs': [{'name': 'x', 'dtype': 'float32', 'shape': [2, 3]}], "

/* ---- good graphs ------------------------------------------------------------------------------ */

static const char *const good_graph =
    "{'format': 'gtc-graph', 'version': 1, 'name': 'mlp',\n"
    " 'inputs': [{'name': 'x', 'dtype': 'float32', 'shape': [4, 3]},\n"
    "            {'name': 'w', 'dtype': 'float32', 'shape': [3, 2]},\n"
    "            {'name': 'lr', 'dtype': 'float32', 'shape': []}],\n"
    " 'nodes': [{'name': 'z', 'op': 'matmul', 'inputs': ['x', 'w']},\n"
    "           {'name': 'a', 'op': 'relu', 'inputs': ['z']},\n"
    "           {'name': 'm', 'op': 'max', 'inputs': ['a'], 'axes': [1], 'keepdims': true},\n"
    "           {'name': 'xt', 'op': 'transpose', 'inputs': ['x']},\n"
    "           {'name': 'g', 'op': 'matmul', 'inputs': ['xt', 'a']},\n"
    "           {'name': 'gs', 'op': 'slice', 'inputs': ['g'], 'starts': [0], 'ends': [3]},\n"
    "           {'name': 'step', 'op': 'mul', 'inputs': ['gs', 'lr']},\n"
    "           {'name': 'w_next', 'op': 'sub', 'inputs': ['w', 'step']}],\n"
    " 'outputs': {'max': 'm', 'w': 'w_next'},\n"
    " 'donate': {'w_next': 'w'}}\n";

TEST(ir_read_json__good_graph__loaded_verified_typed) {
    Graph *g = read_ok(good_graph);
    assert_string_equal(g->name, "mlp");
    assert_int_equal(g->nnodes, 11);
    assert_int_equal(g->ninputs, 3);
    assert_string_equal(g->nodes[0].name, "x");
    assert_int_equal(g->nodes[0].op, OP_INPUT);
    assert_int_equal(g->nodes[2].input_index, 2);
    assert_string_equal(g->nodes[2].loc, "inputs[2]");
    assert_string_equal(node_named(g, "m")->loc, "nodes[2]");
    assert_type(g, "lr", DT_FLOAT32, "[]");
    assert_type(g, "z", DT_FLOAT32, "[4,2]");
    assert_type(g, "m", DT_FLOAT32, "[4,1]");
    assert_type(g, "xt", DT_FLOAT32, "[3,4]");
    assert_type(g, "g", DT_FLOAT32, "[3,2]");
    assert_type(g, "w_next", DT_FLOAT32, "[3,2]");
    assert_int_equal(g->noutputs, 2);
    assert_string_equal(g->outputs[0].name, "max");
    assert_int_equal(g->outputs[0].value, graph_find(g, "m"));
    assert_string_equal(g->outputs[1].name, "w");
    assert_int_equal(g->outputs[1].value, graph_find(g, "w_next"));
    assert_int_equal(g->ndonations, 1);
    assert_int_equal(g->donations[0].value, graph_find(g, "w_next"));
    assert_int_equal(g->donations[0].input, graph_find(g, "w"));
    assert_topological(g);
    graph_free(g);
}

TEST(ir_read_json__nodes_out_of_order__sorted_topologically) {
    Graph *g = read_ok(HEAD X23
                       "'nodes': [{'name': 'c', 'op': 'add', 'inputs': ['b', 'a']},"
                       "          {'name': 'b', 'op': 'exp', 'inputs': ['a']},"
                       "          {'name': 'a', 'op': 'neg', 'inputs': ['x']},"
                       "          {'name': 'd', 'op': 'neg', 'inputs': ['x']}],"
                       " 'outputs': {'c': 'c', 'd': 'd'}}");
    assert_int_equal(g->nnodes, 5);
    assert_topological(g);
    assert_string_equal(g->nodes[0].name, "x");
    assert_string_equal(g->nodes[1].name, "a");
    assert_string_equal(g->nodes[2].name, "b");
    assert_string_equal(g->nodes[3].name, "c");
    assert_string_equal(g->nodes[4].name, "d");
    assert_string_equal(node_named(g, "a")->loc, "nodes[2]"); /* where it was written */
    assert_int_equal(g->outputs[0].value, graph_find(g, "c"));
    assert_round_trip(g);
    graph_free(g);
}

TEST(ir_read_json__nodes_in_order__order_kept) {
    Graph *g = read_ok(HEAD X23
                       "'nodes': [{'name': 'p', 'op': 'neg', 'inputs': ['x']},"
                       "          {'name': 'o', 'op': 'exp', 'inputs': ['x']},"
                       "          {'name': 'n', 'op': 'add', 'inputs': ['o', 'p']}],"
                       " 'outputs': {'n': 'n'}}");
    assert_string_equal(g->nodes[1].name, "p");
    assert_string_equal(g->nodes[2].name, "o");
    assert_string_equal(g->nodes[3].name, "n");
    graph_free(g);
}

TEST(ir_read_json__constants_in_inputs__weak_operands) {
    Graph *g = read_ok(HEAD
                       "'inputs': [{'name': 'x', 'dtype': 'float32', 'shape': [2]},"
                       "           {'name': 'i', 'dtype': 'int32', 'shape': [2]}],"
                       "'nodes': [{'name': 'h', 'op': 'mul', 'inputs': ['x', 0.5]},"
                       "          {'name': 'k', 'op': 'sub', 'inputs': [3, 'i']},"
                       "          {'name': 'f', 'op': 'add', 'inputs': ['i', 2.5]},"
                       "          {'name': 'e', 'op': 'pow', 'inputs': ['x', -1e-3]}],"
                       " 'outputs': {'h': 'h', 'k': 'k', 'f': 'f', 'e': 'e'}}");
    const Node *h = node_named(g, "h"), *k = node_named(g, "k");
    assert_int_equal(h->in[0].id, graph_find(g, "x"));
    assert_int_equal(h->in[1].id, -1);
    assert_true(h->in[1].value == 0.5);
    assert_int_equal(k->in[0].id, -1);
    assert_true(k->in[0].value == 3);
    assert_int_equal(k->in[1].id, graph_find(g, "i"));
    assert_true(node_named(g, "e")->in[1].value == -1e-3);
    assert_type(g, "h", DT_FLOAT32, "[2]");
    assert_type(g, "k", DT_INT32, "[2]");
    assert_type(g, "f", DT_FLOAT32, "[2]");
    assert_round_trip(g);
    graph_free(g);
}

/* The attributes of every op family are read into Attrs and the types follow from them. */
static const char *const attrs_graph =
    "{'format': 'gtc-graph', 'version': 1, 'name': 'attrs',\n"
    " 'inputs': [{'name': 'x', 'dtype': 'float32', 'shape': [4, 6]},\n"
    "            {'name': 'i', 'dtype': 'int32', 'shape': [4]},\n"
    "            {'name': 'c', 'dtype': 'bool', 'shape': [4, 6]}],\n"
    " 'nodes': [\n"
    "  {'name': 's', 'op': 'sum', 'inputs': ['x'], 'axes': [-1], 'keepdims': true},\n"
    "  {'name': 'mx', 'op': 'max', 'inputs': ['x']},\n"
    "  {'name': 'mn', 'op': 'mean', 'inputs': ['i'], 'axes': []},\n"
    "  {'name': 'am', 'op': 'argmax', 'inputs': ['x'], 'axes': [1], 'keepdims': false},\n"
    "  {'name': 't', 'op': 'transpose', 'inputs': ['x'], 'perm': [1, 0]},\n"
    "  {'name': 'td', 'op': 'transpose', 'inputs': ['x']},\n"
    "  {'name': 'r', 'op': 'reshape', 'inputs': ['x'], 'shape': [2, -1]},\n"
    "  {'name': 'b', 'op': 'broadcast_to', 'inputs': ['i'], 'shape': [3, 4]},\n"
    "  {'name': 'sl', 'op': 'slice', 'inputs': ['x'], 'starts': [-1, 0], 'ends': [-5, 6],\n"
    "   'axes': [1, 0], 'steps': [-2, 3]},\n"
    "  {'name': 'sl2', 'op': 'slice', 'inputs': ['x'], 'starts': [1], 'ends': [3]},\n"
    "  {'name': 'ca', 'op': 'cast', 'inputs': ['x'], 'dtype': 'int64'},\n"
    "  {'name': 'f', 'op': 'full', 'shape': [2, 2], 'value': 0.25, 'dtype': 'float64'},\n"
    "  {'name': 'fb', 'op': 'full', 'inputs': [], 'shape': [], 'value': true, 'dtype': 'bool'},\n"
    "  {'name': 'fd', 'op': 'full', 'shape': [3], 'value': -7},\n"
    "  {'name': 'oh', 'op': 'one_hot', 'inputs': ['i'], 'depth': 5, 'dtype': 'int32'},\n"
    "  {'name': 'oh2', 'op': 'one_hot', 'inputs': ['i'], 'depth': 3},\n"
    "  {'name': 'w', 'op': 'where', 'inputs': ['c', 'x', 0]},\n"
    "  {'name': 'cl', 'op': 'clamp', 'inputs': ['x', -1, 1.5]},\n"
    "  {'name': 'mm', 'op': 'matmul', 'inputs': ['x', 't']},\n"
    "  {'name': 'lt', 'op': 'lt', 'inputs': ['x', 0.1]}\n"
    " ],\n"
    " 'outputs': {'s': 's', 'mx': 'mx', 'mn': 'mn', 'am': 'am', 'td': 'td', 'r': 'r', 'b': 'b',\n"
    "             'sl': 'sl', 'sl2': 'sl2', 'ca': 'ca', 'f': 'f', 'fb': 'fb', 'fd': 'fd', 'oh': 'oh',\n"
    "             'oh2': 'oh2', 'w': 'w', 'cl': 'cl', 'mm': 'mm', 'lt': 'lt'}}\n";

TEST(ir_read_json__attributes_of_every_op_family__read) {
    Graph *g = read_ok(attrs_graph);
    const Attrs *a = &node_named(g, "s")->attrs;
    assert_true(a->has_axes);
    assert_int_equal(a->naxes, 1);
    assert_int_equal(a->axes[0], -1);
    assert_true(a->keepdims);
    assert_false(node_named(g, "mx")->attrs.has_axes);
    a = &node_named(g, "mn")->attrs;
    assert_true(a->has_axes);
    assert_int_equal(a->naxes, 0);
    assert_false(node_named(g, "am")->attrs.keepdims);
    a = &node_named(g, "t")->attrs;
    assert_int_equal(a->nperm, 2);
    assert_int_equal(a->perm[0], 1);
    assert_int_equal(a->perm[1], 0);
    assert_int_equal(node_named(g, "td")->attrs.nperm, 0);
    a = &node_named(g, "r")->attrs;
    assert_int_equal(a->nshape, 2);
    assert_int_equal(a->shape[1], -1);
    a = &node_named(g, "sl")->attrs;
    assert_int_equal(a->nslice, 2);
    assert_int_equal(a->starts[0], -1);
    assert_int_equal(a->ends[0], -5);
    assert_int_equal(a->steps[0], -2);
    assert_int_equal(a->axes[0], 1);
    assert_true(a->has_steps);
    assert_false(node_named(g, "sl2")->attrs.has_steps);
    assert_false(node_named(g, "sl2")->attrs.has_axes);
    a = &node_named(g, "ca")->attrs;
    assert_true(a->has_dtype);
    assert_int_equal(a->dtype, DT_INT64);
    a = &node_named(g, "f")->attrs;
    assert_true(a->value == 0.25);
    assert_int_equal(a->dtype, DT_FLOAT64);
    assert_true(node_named(g, "fb")->attrs.value == 1);
    assert_true(node_named(g, "fd")->attrs.value == -7);
    assert_false(node_named(g, "fd")->attrs.has_dtype);
    assert_int_equal(node_named(g, "oh")->attrs.depth, 5);

    assert_type(g, "s", DT_FLOAT32, "[4,1]");
    assert_type(g, "mx", DT_FLOAT32, "[]");
    assert_type(g, "mn", DT_FLOAT32, "[4]");
    assert_type(g, "am", DT_INT64, "[4]");
    assert_type(g, "t", DT_FLOAT32, "[6,4]");
    assert_type(g, "td", DT_FLOAT32, "[6,4]");
    assert_type(g, "r", DT_FLOAT32, "[2,12]");
    assert_type(g, "b", DT_INT32, "[3,4]");
    assert_type(g, "sl", DT_FLOAT32, "[2,2]");
    assert_type(g, "sl2", DT_FLOAT32, "[2,6]");
    assert_type(g, "ca", DT_INT64, "[4,6]");
    assert_type(g, "f", DT_FLOAT64, "[2,2]");
    assert_type(g, "fb", DT_BOOL, "[]");
    assert_type(g, "fd", DT_FLOAT32, "[3]");
    assert_type(g, "oh", DT_INT32, "[4,5]");
    assert_type(g, "oh2", DT_FLOAT32, "[4,3]");
    assert_type(g, "w", DT_FLOAT32, "[4,6]");
    assert_type(g, "cl", DT_FLOAT32, "[4,6]");
    assert_type(g, "mm", DT_FLOAT32, "[4,4]");
    assert_type(g, "lt", DT_BOOL, "[4,6]");
    graph_free(g);
}

/* ---- writing and round trips ------------------------------------------------------------------ */

TEST(ir_write_json__good_graph__round_trip_identical) {
    Graph *g = read_ok(good_graph);
    assert_round_trip(g);
    graph_free(g);
}

TEST(ir_write_json__every_op_family__round_trip_identical) {
    Graph *g = read_ok(attrs_graph);
    assert_round_trip(g);
    graph_free(g);
}

TEST(ir_write_json__canonical_text__fixed_key_order) {
    Graph *g = read_ok(HEAD X23
                       "'nodes': [{'inputs': ['x'], 'keepdims': true, 'op': 'sum', 'name': 's', 'axes': [0]}],"
                       " 'outputs': {'s': 's'}}");
    char *w = ir_write_json(g);
    const char *want =
        "{\n"
        "\t\"format\":\t\"gtc-graph\",\n"
        "\t\"version\":\t1,\n"
        "\t\"name\":\t\"g\",\n"
        "\t\"inputs\":\t[{\n"
        "\t\t\t\"name\":\t\"x\",\n"
        "\t\t\t\"dtype\":\t\"float32\",\n"
        "\t\t\t\"shape\":\t[2, 3]\n"
        "\t\t}],\n"
        "\t\"nodes\":\t[{\n"
        "\t\t\t\"name\":\t\"s\",\n"
        "\t\t\t\"op\":\t\"sum\",\n"
        "\t\t\t\"inputs\":\t[\"x\"],\n"
        "\t\t\t\"axes\":\t[0],\n"
        "\t\t\t\"keepdims\":\ttrue\n"
        "\t\t}],\n"
        "\t\"outputs\":\t{\n"
        "\t\t\"s\":\t\"s\"\n"
        "\t}\n"
        "}";
    assert_string_equal(w, want);
    free(w);
    graph_free(g);
}

/* Constants and attribute values read back as the same doubles (cJSON's own printing rounds
 * 0.30000000000000004 to 0.3). */
TEST(ir_write_json__awkward_numbers__read_back_exactly) {
    Graph *g = read_ok(HEAD X23
                       "'nodes': [{'name': 'a', 'op': 'mul', 'inputs': ['x', 0.30000000000000004]},"
                       "          {'name': 'b', 'op': 'add', 'inputs': ['a', 0.3333333333333333]},"
                       "          {'name': 'c', 'op': 'add', 'inputs': ['b', 1e-300]},"
                       "          {'name': 'e', 'op': 'add', 'inputs': ['c', 123456789012.5]},"
                       "          {'name': 'f', 'op': 'full', 'shape': [2], 'value': 2.220446049250313e-16},"
                       "          {'name': 's', 'op': 'slice', 'inputs': ['x'], 'starts': [-9007199254740992],"
                       "           'ends': [9007199254740991]}],"
                       " 'outputs': {'e': 'e', 'f': 'f', 's': 's'}}");
    char *w = ir_write_json(g);
    Diag d2;
    diag_init(&d2, "w.json");
    Graph *g2 = ir_read_json(w, strlen(w), &d2);
    if (!g2) fail_msg("%s", d2.msg);
    assert_true(node_named(g2, "a")->in[1].value == 0.30000000000000004);
    assert_true(node_named(g2, "b")->in[1].value == 0.3333333333333333);
    assert_true(node_named(g2, "c")->in[1].value == 1e-300);
    assert_true(node_named(g2, "e")->in[1].value == 123456789012.5);
    assert_true(node_named(g2, "f")->attrs.value == 2.220446049250313e-16);
    assert_int_equal(node_named(g2, "s")->attrs.starts[0], -9007199254740992LL);
    assert_int_equal(node_named(g2, "s")->attrs.ends[0], 9007199254740991LL);
    assert_non_null(strstr(w, "0.30000000000000004"));
    free(w);
    graph_free(g2);
    graph_free(g);
}

TEST(ir_dump__good_graph__one_line_per_value) {
    Graph *g = read_ok(good_graph);
    char *s = dump_str(g);
    const char *want =
        "graph mlp\n"
        "input x: f32[4,3]\n"
        "input w: f32[3,2]\n"
        "input lr: f32[]\n"
        "z: f32[4,2] = matmul x, w\n"
        "a: f32[4,2] = relu z\n"
        "m: f32[4,1] = max a axes=[1] keepdims\n"
        "xt: f32[3,4] = transpose x\n"
        "g: f32[3,2] = matmul xt, a\n"
        "gs: f32[3,2] = slice g starts=[0] ends=[3]\n"
        "step: f32[3,2] = mul gs, lr\n"
        "w_next: f32[3,2] = sub w, step\n"
        "output max = m\n"
        "output w = w_next reuses w\n";
    assert_string_equal(s, want);
    free(s);
    graph_free(g);
}

static void example_round_trip(const char *path, const char *name) {
    diag_init(&d, path);
    Graph *g = ir_read_json_file(path, &d);
    if (!g) fail_msg("%s", d.msg);
    assert_string_equal(g->name, name);
    assert_true(g->nnodes > 10);
    assert_true(g->noutputs > 0);
    assert_topological(g);
    assert_round_trip(g);
    graph_free(g);
}

TEST(ir_read_json_file__train_step_example__loads_and_round_trips) {
    example_round_trip("examples/train_step.json", "mlp_train_step");
}

TEST(ir_read_json_file__digits_step_example__loads_and_round_trips) {
    diag_init(&d, "examples/digits_step.json");
    Graph *g = ir_read_json_file("examples/digits_step.json", &d);
    if (!g) fail_msg("%s", d.msg);
    char *name = strdup(g->name);
    graph_free(g);
    example_round_trip("examples/digits_step.json", name);
    free(name);
}

TEST(ir_read_json_file__missing_file__cannot_open) {
    diag_init(&d, "no/such.json");
    assert_null(ir_read_json_file("no/such.json", &d));
    assert_string_equal(d.msg, "no/such.json: cannot open: No such file or directory");
}

TEST(ir_read_json_file__directory__not_a_regular_file) {
    diag_init(&d, "examples");
    assert_null(ir_read_json_file("examples", &d));
    assert_string_equal(d.msg, "examples: not a regular file");
}

/* ---- errors in the text ----------------------------------------------------------------------- */

TEST(ir_read_json__invalid_json__line_and_column) {
    expect_error("{\n  'format': 'gtc-graph',\n  'version': 1,,\n}", "g.json: 3:16: invalid JSON: unexpected ','");
    expect_error("{'a': [1,]}", "g.json: 1:10: invalid JSON: unexpected ']'");
}

TEST(ir_read_json__single_quotes__invalid_json) {
    const char *t = "{'format': 'gtc-graph'}";
    expect_raw_error(t, strlen(t), "g.json: 1:2: invalid JSON: unexpected \"'\"");
}

TEST(ir_read_json__truncated__unexpected_end_of_file) {
    expect_error("{\n  'a': [1, 2\n", "g.json: 3:1: invalid JSON: unexpected end of file");
    expect_error(HEAD X23 "'nodes': [", "g.json: 1:126: invalid JSON: unexpected end of file");
    expect_error("{'a': 'abc", "g.json: 1:11: invalid JSON: unexpected end of file inside a string");
}

TEST(ir_read_json__empty_text__unexpected_end_of_file) {
    expect_raw_error("", 0, "g.json: 1:1: invalid JSON: unexpected end of file");
    expect_raw_error("  \n", 3, "g.json: 2:1: invalid JSON: unexpected end of file");
}

TEST(ir_read_json__text_after_object__error) {
    expect_error("{'format': 'gtc-graph'}\n{}", "g.json: 2:1: invalid JSON: text after the graph object");
}

TEST(ir_read_json__not_utf8__line_and_column) {
    const char *t = "{\n 'a': 'b',\n 'c': '\xc3\xa9\xff'}";
    char *text = dq(t);
    expect_raw_error(text, strlen(text), "g.json: 3:10: not valid UTF-8");
    free(text);
    const char *latin1 = "{\"a\": \"caf\xe9\"}";
    expect_raw_error(latin1, strlen(latin1), "g.json: 1:11: not valid UTF-8");
    const char *surrogate = "{\"a\": \"\xed\xa0\x80\"}";
    expect_raw_error(surrogate, strlen(surrogate), "g.json: 1:8: not valid UTF-8");
    const char *overlong = "{\"a\": \"\xc0\xaf\"}";
    expect_raw_error(overlong, strlen(overlong), "g.json: 1:8: not valid UTF-8");
    const char *cut = "{\"a\": \"\xe2\x82";
    expect_raw_error(cut, strlen(cut), "g.json: 1:8: not valid UTF-8");
}

TEST(ir_read_json__nul_byte__error) {
    const char t[] = "{\"a\":\n \"b\0\"}";
    expect_raw_error(t, sizeof t - 1, "g.json: 2:4: contains a NUL byte");
}

TEST(ir_read_json__not_an_object__error) {
    expect_error("[1, 2]", "g.json: the graph must be a JSON object, got a list");
}

TEST(ir_read_json__unknown_top_level_key__error) {
    expect_error(HEAD X23 "'nodes': [], 'outputs': {'x': 'x'}, 'bogus': 1}",
                 "g.json: unknown top-level key \"bogus\"");
}

TEST(ir_read_json__unknown_input_key__error) {
    expect_error(HEAD "'inputs': [{'name': 'x', 'dtype': 'float32', 'shape': [2], 'grad': true}],"
                 " 'nodes': [], 'outputs': {'x': 'x'}}",
                 "g.json: inputs[0]: unknown key \"grad\"");
}

TEST(ir_read_json__unknown_attribute__error_lists_allowed) {
    expect_error(HEAD X23 "'nodes': [{'name': 'z', 'op': 'neg', 'inputs': ['x'], 'axes': [1]}], 'outputs': {'z': 'z'}}",
                 "g.json: nodes[0] \"z\" (neg): unknown attribute \"axes\" (neg takes no attributes)");
    expect_error(HEAD X23 "'nodes': [{'name': 'z', 'op': 'sum', 'inputs': ['x'], 'perm': [1]}], 'outputs': {'z': 'z'}}",
                 "g.json: nodes[0] \"z\" (sum): unknown attribute \"perm\" (sum takes \"axes\", \"keepdims\")");
}

TEST(ir_read_json__unknown_op__error) {
    expect_error(HEAD X23 "'nodes': [{'name': 'z', 'op': 'conv', 'inputs': ['x']}], 'outputs': {'z': 'z'}}",
                 "g.json: nodes[0] \"z\": unknown op \"conv\"");
    expect_error(HEAD X23 "'nodes': [{'name': 'z', 'op': 'input', 'inputs': []}], 'outputs': {'z': 'z'}}",
                 "g.json: nodes[0] \"z\": unknown op \"input\"");
}

TEST(ir_read_json__unknown_dtype__error) {
    expect_error(HEAD "'inputs': [{'name': 'x', 'dtype': 'half', 'shape': [2]}], 'nodes': [], 'outputs': {'x': 'x'}}",
                 "g.json: inputs[0] \"x\" (input): unknown dtype \"half\" (expected bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, bfloat16, float16, float32 or float64)");
    expect_error(HEAD X23 "'nodes': [{'name': 'z', 'op': 'cast', 'inputs': ['x'], 'dtype': 'int4'}], 'outputs': {'z': 'z'}}",
                 "g.json: nodes[0] \"z\" (cast): unknown dtype \"int4\" (expected bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, bfloat16, float16, float32 or float64)");
}

TEST(ir_read_json__duplicate_key__error) {
    expect_error("{'format': 'gtc-graph', 'version': 1, 'name': 'g', 'name': 'h', 'inputs': [], 'nodes': [], 'outputs': {}}",
                 "g.json: top-level key \"name\" appears twice");
    expect_error(HEAD "'inputs': [{'name': 'x', 'name': 'y', 'dtype': 'float32', 'shape': [2]}], 'nodes': [], 'outputs': {'x': 'x'}}",
                 "g.json: inputs[0]: key \"name\" appears twice");
    expect_error(HEAD X23 "'nodes': [{'name': 'z', 'op': 'sum', 'inputs': ['x'], 'axes': [1], 'axes': [0]}], 'outputs': {'z': 'z'}}",
                 "g.json: nodes[0] \"z\" (sum): attribute \"axes\" appears twice");
    expect_error(HEAD X23 "'nodes': [], 'outputs': {'o': 'x', 'o': 'x'}}", "g.json: outputs.o: output is named twice");
}

TEST(ir_read_json__format_and_version__errors) {
    expect_error("{'format': 'gtc', 'version': 1, 'name': 'g'}", "g.json: format: must be \"gtc-graph\", got \"gtc\"");
    expect_error("{'format': 'gtc-graph', 'version': 2, 'name': 'g'}",
                 "g.json: version: unsupported version 2 (this gtc reads version 1)");
    expect_error("{'format': 'gtc-graph', 'version': 1, 'name': 'a-b'}",
                 "g.json: name: graph name \"a-b\" is not an identifier "
                 "([A-Za-z_][A-Za-z0-9_]*, at most 128 characters)");
}

TEST(ir_read_json__train_section_without_loss__error) {
    expect_error(HEAD X23 "'nodes': [], 'outputs': {'x': 'x'}, 'train': {}}",
                 "g.json: train: missing \"loss\" (the name of the scalar value to minimise)");
}

TEST(ir_read_json__undefined_operand__error) {
    expect_error(HEAD X23 "'nodes': [{'name': 'z', 'op': 'neg', 'inputs': ['q']}], 'outputs': {'z': 'z'}}",
                 "g.json: nodes[0] \"z\" (neg): input \"q\" is not defined");
}

TEST(ir_read_json__cycle__error) {
    expect_error(HEAD X23 "'nodes': [{'name': 'a', 'op': 'neg', 'inputs': ['b']},"
                 " {'name': 'b', 'op': 'neg', 'inputs': ['a']}], 'outputs': {'z': 'a'}}",
                 "g.json: nodes[1] \"b\" (neg): is part of a cycle through \"a\"");
    expect_error(HEAD X23 "'nodes': [{'name': 'a', 'op': 'neg', 'inputs': ['a']}], 'outputs': {'z': 'a'}}",
                 "g.json: nodes[0] \"a\" (neg): uses itself as an input");
}

TEST(ir_read_json__duplicate_value_name__error) {
    expect_error(HEAD X23 "'nodes': [{'name': 'x', 'op': 'neg', 'inputs': ['x']}], 'outputs': {'z': 'x'}}",
                 "g.json: nodes[0] \"x\" (neg): name is already defined at inputs[0]");
}

TEST(ir_read_json__operand_count__error) {
    expect_error(HEAD X23 "'nodes': [{'name': 'z', 'op': 'add', 'inputs': ['x', 'x', 'x']}], 'outputs': {'z': 'z'}}",
                 "g.json: nodes[0] \"z\" (add): takes 2 inputs, got 3");
    expect_error(HEAD X23 "'nodes': [{'name': 'z', 'op': 'add', 'inputs': ['x']}], 'outputs': {'z': 'z'}}",
                 "g.json: nodes[0] \"z\" (add): takes 2 inputs, got 1");
    expect_error(HEAD X23 "'nodes': [{'name': 'z', 'op': 'add', 'inputs': ['x', null]}], 'outputs': {'z': 'z'}}",
                 "g.json: nodes[0] \"z\" (add): inputs[1] must be a value name or a finite number, got null");
}

TEST(ir_read_json__outputs_and_donations__errors) {
    expect_error(HEAD X23 "'nodes': [], 'outputs': {}}", "g.json: outputs: graph has no outputs");
    expect_error(HEAD X23 "'nodes': [], 'outputs': {'o': 'nope'}}", "g.json: outputs.o: \"nope\" names no input or node");
    expect_error(HEAD X23 "'nodes': [{'name': 'z', 'op': 'neg', 'inputs': ['x']}], 'outputs': {'z': 'x'},"
                 " 'donate': {'z': 'x'}}",
                 "g.json: donate.z: \"z\" is not named by any output");
    expect_error(HEAD X23 "'nodes': [{'name': 'z', 'op': 'sum', 'inputs': ['x']}], 'outputs': {'z': 'z'},"
                 " 'donate': {'z': 'x'}}",
                 "g.json: donate.z: float32 [] cannot reuse input \"x\" of float32 [2,3]");
}

TEST(ir_read_json__inference_error__node_prefix) {
    expect_error(HEAD "'inputs': [{'name': 'x', 'dtype': 'float32', 'shape': [512, 480]},"
                 " {'name': 'w', 'dtype': 'float32', 'shape': [256, 2]}],"
                 " 'nodes': [{'name': 'z1', 'op': 'matmul', 'inputs': ['x', 'w']}], 'outputs': {'z': 'z1'}}",
                 "g.json: nodes[0] \"z1\" (matmul): inner dimensions differ: [512,480] x [256,2]");
}

TEST(ir_read_json__attribute_values__range_errors) {
    expect_error(HEAD X23 "'nodes': [{'name': 'z', 'op': 'reshape', 'inputs': ['x']}], 'outputs': {'z': 'z'}}",
                 "g.json: nodes[0] \"z\" (reshape): needs \"shape\"");
    expect_error(HEAD X23 "'nodes': [{'name': 'z', 'op': 'sum', 'inputs': ['x'], 'axes': [9]}], 'outputs': {'z': 'z'}}",
                 "g.json: nodes[0] \"z\" (sum): \"axes\"[0] must be an integer from -8 to 7, got 9");
    expect_error(HEAD "'inputs': [{'name': 'x', 'dtype': 'float32', 'shape': [2147483648]}], 'nodes': [], 'outputs': {'x': 'x'}}",
                 "g.json: inputs[0] \"x\" (input): \"shape\"[0] must be an integer from 0 to 2147483647, got 2147483648");
}

/* ---- size limits ------------------------------------------------------------------------------ */

/* A chain of n nodes: a full, then n-1 negations, listed in order or reversed. */
static char *chain_json(int n, bool reversed, bool with_input) {
    size_t cap = (size_t)n * 64 + 512, len = 0;
    char *s = malloc(cap);
    assert_non_null(s);
    len += (size_t)snprintf(s + len, cap - len,
                            "{\"format\": \"gtc-graph\", \"version\": 1, \"name\": \"chain\", \"inputs\": [%s],\n"
                            "\"nodes\": [\n",
                            with_input ? "{\"name\": \"x\", \"dtype\": \"float32\", \"shape\": [2]}" : "");
    for (int k = 0; k < n; k++) {
        int i = reversed ? n - 1 - k : k;
        if (i == 0)
            len += (size_t)snprintf(s + len, cap - len, "%s{\"name\": \"n0\", \"op\": \"full\", \"shape\": [2], \"value\": 1}\n",
                                    k ? "," : "");
        else
            len += (size_t)snprintf(s + len, cap - len, "%s{\"name\": \"n%d\", \"op\": \"neg\", \"inputs\": [\"n%d\"]}\n",
                                    k ? "," : "", i, i - 1);
    }
    snprintf(s + len, cap - len, "],\n\"outputs\": {\"y\": \"n%d\"}}\n", n - 1);
    return s;
}

TEST(ir_read_json__100000_node_chain__loads) {
    char *s = chain_json(IR_MAX_NODES, false, false);
    diag_init(&d, "chain.json");
    Graph *g = ir_read_json(s, strlen(s), &d);
    if (!g) fail_msg("%s", d.msg);
    assert_int_equal(g->nnodes, IR_MAX_NODES);
    assert_int_equal(g->outputs[0].value, IR_MAX_NODES - 1);
    assert_int_equal(g->nodes[IR_MAX_NODES - 1].type.dims[0], 2);
    graph_free(g);
    free(s);
}

TEST(ir_read_json__100000_node_chain_reversed__sorted) {
    char *s = chain_json(IR_MAX_NODES, true, false);
    diag_init(&d, "chain.json");
    Graph *g = ir_read_json(s, strlen(s), &d);
    if (!g) fail_msg("%s", d.msg);
    assert_string_equal(g->nodes[0].name, "n0");
    assert_string_equal(g->nodes[IR_MAX_NODES - 1].name, "n99999");
    assert_topological(g);
    graph_free(g);
    free(s);
}

TEST(ir_read_json__100001_nodes__rejected) {
    char *s = chain_json(IR_MAX_NODES + 1, false, false);
    diag_init(&d, "chain.json");
    Graph *g = ir_read_json(s, strlen(s), &d);
    assert_null(g);
    assert_string_equal(d.msg, "chain.json: nodes: graph has more than 100000 values");
    free(s);
}

TEST(ir_read_json__input_and_100000_nodes__rejected) {
    char *s = chain_json(IR_MAX_NODES, false, true);
    diag_init(&d, "chain.json");
    Graph *g = ir_read_json(s, strlen(s), &d);
    assert_null(g);
    assert_string_equal(d.msg, "chain.json: nodes[99999]: graph has more than 100000 values");
    free(s);
}

/* "\u0000" decodes to a NUL byte, which would end a name or dtype early ("float32\u0000x" read as
 * float32); an escaped backslash before "u0000" is text and gets the usual message. */
TEST(ir_read_json__escaped_nul__rejected_not_truncated) {
    expect_error("{'format': 'gtc-graph', 'version': 1, 'name': 'g\\u0000x'}",
                 "g.json: 1:49: a string holds \\u0000 (a NUL character), which no name, key or dtype may hold");
    expect_error("{'format': 'gtc-graph', 'version': 1, 'name': 'g\\\\u0000x'}",
                 "g.json: name: graph name \"g\\\\u0000x\" is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most 128 characters)");
}

/* ir/text.c: what messages must not show raw is escaped, everything else kept byte for byte. */
TEST(ir_escape_invisible__controls_and_format_characters__escaped) {
    char out[256];
    ir_escape_invisible("a\x1b[31mb\x7f\n\t", out, sizeof out, false);
    assert_string_equal(out, "a\\x1b[31mb\\x7f\\x0a\\x09");
    ir_escape_invisible("a\x1b[31mb\x7f", out, sizeof out, false);
    assert_string_equal(out, "a\\x1b[31mb\\x7f");
    ir_escape_invisible("x\xe2\x80\xaey\xe2\x80\x8bz\xef\xbb\xbf\xe2\x81\xa6\xc2\x9b\xc2\xad\xd8\x9c", out, sizeof out, false);
    assert_string_equal(out, "x\\u202ey\\u200bz\\ufeff\\u2066\\u009b\\u00ad\\u061c");
    /* visible non-ASCII text passes through; bytes that are not UTF-8 (a stray continuation byte,
     * a cut sequence, an overlong form, a surrogate) are escaped (found by tests/fuzz/fuzz_runtime.c) */
    ir_escape_invisible("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xff", out, sizeof out, false);
    assert_string_equal(out, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \\xff");
    ir_escape_invisible("a\x80" "b\xe2\x82" "c\xc0\xaf" "d\xed\xa0\x80", out, sizeof out, false);
    assert_string_equal(out, "a\\x80b\\xe2\\x82c\\xc0\\xafd\\xed\\xa0\\x80");
    /* cut at a whole escape, always terminated */
    ir_escape_invisible("log:\n\tline 2\x1b", out, sizeof out, true); /* keep_lines */
    assert_string_equal(out, "log:\n\tline 2\\x1b");
    size_t n = ir_escape_invisible("ab\xe2\x80\xae", out, 6, false);
    assert_int_equal(n, 2);
    assert_string_equal(out, "ab");
    unsigned cp = 0;
    assert_int_equal(ir_invisible_at("\xe2\x80\xae", &cp), 3);
    assert_int_equal(cp, 0x202e);
    assert_int_equal(ir_invisible_at("a", &cp), 0);
}

TEST(diag__bidi_override_in_a_name__escaped_in_the_message) {
    Diag d;
    diag_init(&d, "g.json");
    const char *src = "{\"format\":\"gtc-graph\",\"version\":1,\"name\":\"m\",\"inputs\":[{\"name\":\"x\xe2\x80\xaey\","
                      "\"dtype\":\"float32\",\"shape\":[1]}],\"nodes\":[],\"outputs\":{\"o\":\"x\"}}";
    Graph *g = ir_read_json(src, strlen(src), &d);
    assert_null(g);
    assert_non_null(strstr(d.msg, "\"x\\u202ey\""));
    assert_null(strstr(d.msg, "\xe2\x80\xae"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ir_read_json__good_graph__loaded_verified_typed),
        cmocka_unit_test(ir_read_json__nodes_out_of_order__sorted_topologically),
        cmocka_unit_test(ir_read_json__nodes_in_order__order_kept),
        cmocka_unit_test(ir_read_json__constants_in_inputs__weak_operands),
        cmocka_unit_test(ir_read_json__attributes_of_every_op_family__read),
        cmocka_unit_test(ir_write_json__good_graph__round_trip_identical),
        cmocka_unit_test(ir_write_json__every_op_family__round_trip_identical),
        cmocka_unit_test(ir_write_json__canonical_text__fixed_key_order),
        cmocka_unit_test(ir_write_json__awkward_numbers__read_back_exactly),
        cmocka_unit_test(ir_dump__good_graph__one_line_per_value),
        cmocka_unit_test(ir_read_json_file__train_step_example__loads_and_round_trips),
        cmocka_unit_test(ir_read_json_file__digits_step_example__loads_and_round_trips),
        cmocka_unit_test(ir_read_json_file__missing_file__cannot_open),
        cmocka_unit_test(ir_read_json_file__directory__not_a_regular_file),
        cmocka_unit_test(ir_read_json__invalid_json__line_and_column),
        cmocka_unit_test(ir_read_json__single_quotes__invalid_json),
        cmocka_unit_test(ir_read_json__truncated__unexpected_end_of_file),
        cmocka_unit_test(ir_read_json__empty_text__unexpected_end_of_file),
        cmocka_unit_test(ir_read_json__text_after_object__error),
        cmocka_unit_test(ir_read_json__not_utf8__line_and_column),
        cmocka_unit_test(ir_read_json__nul_byte__error),
        cmocka_unit_test(ir_read_json__not_an_object__error),
        cmocka_unit_test(ir_read_json__unknown_top_level_key__error),
        cmocka_unit_test(ir_read_json__unknown_input_key__error),
        cmocka_unit_test(ir_read_json__unknown_attribute__error_lists_allowed),
        cmocka_unit_test(ir_read_json__unknown_op__error),
        cmocka_unit_test(ir_read_json__unknown_dtype__error),
        cmocka_unit_test(ir_read_json__duplicate_key__error),
        cmocka_unit_test(ir_read_json__format_and_version__errors),
        cmocka_unit_test(ir_read_json__train_section_without_loss__error),
        cmocka_unit_test(ir_read_json__undefined_operand__error),
        cmocka_unit_test(ir_read_json__cycle__error),
        cmocka_unit_test(ir_read_json__duplicate_value_name__error),
        cmocka_unit_test(ir_read_json__operand_count__error),
        cmocka_unit_test(ir_read_json__outputs_and_donations__errors),
        cmocka_unit_test(ir_read_json__inference_error__node_prefix),
        cmocka_unit_test(ir_read_json__attribute_values__range_errors),
        cmocka_unit_test(ir_read_json__100000_node_chain__loads),
        cmocka_unit_test(ir_read_json__100000_node_chain_reversed__sorted),
        cmocka_unit_test(ir_read_json__100001_nodes__rejected),
        cmocka_unit_test(ir_read_json__escaped_nul__rejected_not_truncated),
        cmocka_unit_test(ir_read_json__input_and_100000_nodes__rejected),
        cmocka_unit_test(ir_escape_invisible__controls_and_format_characters__escaped),
        cmocka_unit_test(diag__bidi_override_in_a_name__escaped_in_the_message),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
