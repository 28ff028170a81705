/* tests/unit/test_verify.c: the verifier (ir_verify) and diagnostics, on graphs built in code. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "../../ir/ir.h"

#define TEST(name) static void name(void **state __attribute__((unused)))

/* ---- building graphs -------------------------------------------------------------------------- */

static Graph *g;
static Diag d;
static int ninputs_added, nnodes_added;

static int setup(void **state) {
    (void)state;
    g = graph_new("g");
    diag_init(&d, "g.json");
    ninputs_added = nnodes_added = 0;
    return 0;
}

static int teardown(void **state) {
    (void)state;
    graph_free(g);
    g = NULL;
    return 0;
}

#define NDIMS(...) ((int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)))
#define INPUT(name, dt, ...) add_input((name), (dt), NDIMS(__VA_ARGS__), (int64_t[]){__VA_ARGS__})
#define INPUT0(name, dt) add_input((name), (dt), 0, NULL)

/* An input as the JSON reader makes it: type from the file, loc "inputs[i]". */
static NodeId add_input(const char *name, DType dt, int rank, const int64_t *dims) {
    NodeId id = graph_add(g, name, OP_INPUT);
    assert_true(id >= 0);
    Node *n = &g->nodes[id];
    n->type.dtype = dt;
    n->type.rank = rank;
    for (int i = 0; i < rank; i++) n->type.dims[i] = dims[i];
    snprintf(n->loc, sizeof n->loc, "inputs[%d]", ninputs_added++);
    return id;
}

/* A node over operands given as value names; "#2.5" is the constant 2.5. loc is "nodes[i]". */
static NodeId add_node(const char *name, Op op, int nin, const char *const *ops) {
    NodeId id = graph_add(g, name, op);
    assert_true(id >= 0);
    Node *n = &g->nodes[id];
    n->ninputs = nin;
    for (int i = 0; i < nin; i++) {
        if (ops[i][0] == '#') {
            n->in[i].id = -1;
            n->in[i].value = strtod(ops[i] + 1, NULL);
        } else {
            n->in[i].id = graph_find(g, ops[i]);
            if (n->in[i].id < 0) fail_msg("test bug: no value \"%s\" yet", ops[i]);
        }
    }
    snprintf(n->loc, sizeof n->loc, "nodes[%d]", nnodes_added++);
    return id;
}
#define NODE(name, op, ...) add_node((name), (op), (int)(sizeof((const char *[]){__VA_ARGS__}) / sizeof(char *)), \
                                     (const char *[]){__VA_ARGS__})

static void add_output(const char *name, NodeId v) {
    g->outputs = realloc(g->outputs, (size_t)(g->noutputs + 1) * sizeof *g->outputs);
    assert_non_null(g->outputs);
    g->outputs[g->noutputs].name = strdup(name);
    g->outputs[g->noutputs++].value = v;
}

static void add_donation(NodeId value, NodeId input) {
    g->donations = realloc(g->donations, (size_t)(g->ndonations + 1) * sizeof *g->donations);
    assert_non_null(g->donations);
    g->donations[g->ndonations].value = value;
    g->donations[g->ndonations++].input = input;
}

/* Verifies g and asserts failure with exactly msg (one error kept). */
static void expect_error(const char *msg) {
    int rc = ir_verify(g, &d);
    if (rc == 0) fail_msg("verified, expected: %s", msg);
    assert_int_equal(rc, -1);
    assert_true(d.nerrors >= 1);
    assert_string_equal(d.msg, msg);
}

static void expect_ok(void) {
    if (ir_verify(g, &d)) fail_msg("unexpected error: %s", d.msg);
    assert_int_equal(d.nerrors, 0);
}

/* ---- well-formed graphs ----------------------------------------------------------------------- */

TEST(ir_verify__ok_graph__zero_and_every_type_inferred) {
    NodeId x = INPUT("x", DT_FLOAT32, 2, 3), b = INPUT("b", DT_FLOAT32, 3);
    NodeId z = NODE("z", OP_ADD, "x", "b");
    NodeId s = NODE("s", OP_MUL, "z", "#0.5");
    NodeId m = NODE("m", OP_SUM, "s");
    g->nodes[m].attrs.has_axes = true;
    g->nodes[m].attrs.naxes = 1;
    g->nodes[m].attrs.axes[0] = -1;
    add_output("out", s);
    add_output("total", m);
    expect_ok();
    assert_int_equal(g->ninputs, 2);
    assert_int_equal(g->nodes[x].input_index, 0);
    assert_int_equal(g->nodes[b].input_index, 1);
    assert_int_equal(g->nodes[z].input_index, -1);
    char buf[64];
    assert_int_equal(g->nodes[z].type.dtype, DT_FLOAT32);
    assert_string_equal(ir_shape_str(&g->nodes[z].type, buf, sizeof buf), "[2,3]");
    assert_int_equal(g->nodes[s].type.dtype, DT_FLOAT32);
    assert_false(g->nodes[s].type.weak);
    assert_string_equal(ir_shape_str(&g->nodes[m].type, buf, sizeof buf), "[2]");
}

TEST(ir_verify__int_and_float_constants__weak_operands_typed) {
    INPUT("i", DT_INT32, 4);
    NodeId a = NODE("a", OP_MUL, "i", "#3");
    NodeId f = NODE("f", OP_MUL, "i", "#2.5");
    NodeId h = NODE("h", OP_MUL, "i", "#1e20");
    add_output("a", a);
    add_output("f", f);
    add_output("h", h);
    expect_ok();
    assert_int_equal(g->nodes[a].type.dtype, DT_INT32);
    assert_int_equal(g->nodes[f].type.dtype, DT_FLOAT32);
    assert_int_equal(g->nodes[h].type.dtype, DT_FLOAT32); /* integral but beyond int64: a float */
}

TEST(graph_operand_type__constants__weak_rank0_int_or_float) {
    Operand two = {.id = -1, .value = 2}, half = {.id = -1, .value = 2.5}, huge = {.id = -1, .value = -1e300};
    TensorType t = graph_operand_type(g, &two);
    assert_true(t.weak);
    assert_int_equal(t.rank, 0);
    assert_int_equal(t.dtype, DT_INT64);
    assert_int_equal(graph_operand_type(g, &half).dtype, DT_FLOAT32);
    assert_int_equal(graph_operand_type(g, &huge).dtype, DT_FLOAT32);
}

TEST(ir_verify__output_names_an_input__ok) {
    NodeId x = INPUT("x", DT_FLOAT32, 2);
    NodeId y = NODE("y", OP_NEG, "x");
    add_output("x_again", x);
    add_output("y", y);
    expect_ok();
}

TEST(ir_verify__node_without_outputs_use__ok) {
    INPUT("x", DT_FLOAT32, 2);
    NODE("unused", OP_EXP, "x");
    NodeId y = NODE("y", OP_NEG, "x");
    add_output("y", y);
    expect_ok();
}

TEST(ir_verify__full_node_without_operands__ok) {
    NodeId f = add_node("f", OP_FULL, 0, NULL);
    g->nodes[f].attrs.nshape = 1;
    g->nodes[f].attrs.shape[0] = 3;
    add_output("f", f);
    expect_ok();
    assert_int_equal(g->ninputs, 0);
    assert_int_equal(g->nodes[f].type.rank, 1);
    assert_int_equal(g->nodes[f].type.dims[0], 3);
}

/* ---- names ------------------------------------------------------------------------------------ */

TEST(ir_verify__duplicate_node_name__error_names_first_place) {
    INPUT("x", DT_FLOAT32, 2);
    NODE("z", OP_NEG, "x");
    NodeId z2 = NODE("z", OP_RELU, "x");
    add_output("z", z2);
    expect_error("g.json: nodes[1] \"z\" (relu): name is already defined at nodes[0]");
}

TEST(ir_verify__node_named_like_input__error) {
    INPUT("x", DT_FLOAT32, 2);
    NodeId x2 = NODE("x", OP_NEG, "x");
    add_output("x", x2);
    expect_error("g.json: nodes[0] \"x\" (neg): name is already defined at inputs[0]");
}

TEST(ir_verify__bad_identifier__error) {
    INPUT("x", DT_FLOAT32, 2);
    NodeId z = NODE("1z", OP_NEG, "x");
    add_output("z", z);
    expect_error("g.json: nodes[0]: name \"1z\" is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most 128 characters)");
}

TEST(ir_verify__129_char_name__error) {
    char name[IR_MAX_NAME + 2];
    memset(name, 'n', IR_MAX_NAME + 1);
    name[IR_MAX_NAME + 1] = 0;
    INPUT(name, DT_FLOAT32, 2);
    add_output("x", 0);
    assert_int_equal(ir_verify(g, &d), -1);
    assert_non_null(strstr(d.msg, "g.json: inputs[0]: name \"nnnn"));
    assert_non_null(strstr(d.msg, "is not an identifier"));
}

TEST(ir_verify__unicode_name__error) {
    INPUT("x", DT_FLOAT32, 2);
    NodeId z = NODE("caf\xc3\xa9", OP_NEG, "x");
    add_output("z", z);
    expect_error("g.json: nodes[0]: name \"caf\xc3\xa9\" is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most 128 characters)");
}

TEST(ir_verify__bad_graph_name__error) {
    free(g->name);
    g->name = strdup("my-graph");
    NodeId x = INPUT("x", DT_FLOAT32, 2);
    add_output("x", x);
    expect_error("g.json: name: graph name \"my-graph\" is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most 128 characters)");
}

/* ---- order and arity -------------------------------------------------------------------------- */

TEST(ir_verify__forward_reference__cycle_error) {
    INPUT("x", DT_FLOAT32, 2);
    NodeId a = NODE("a", OP_RELU, "x");
    NodeId b = NODE("b", OP_NEG, "x");
    g->nodes[a].in[0].id = b; /* a uses b, defined after it */
    add_output("a", a);
    expect_error("g.json: nodes[0] \"a\" (relu): input 0 is not defined before use (cycle?)");
}

TEST(ir_verify__self_reference__cycle_error) {
    INPUT("x", DT_FLOAT32, 2);
    NodeId a = NODE("a", OP_ADD, "x", "x");
    g->nodes[a].in[1].id = a;
    add_output("a", a);
    expect_error("g.json: nodes[0] \"a\" (add): input 1 is not defined before use (cycle?)");
}

TEST(ir_verify__negative_operand_id__error) {
    INPUT("x", DT_FLOAT32, 2);
    NodeId a = NODE("a", OP_RELU, "x");
    g->nodes[a].in[0].id = -7;
    add_output("a", a);
    expect_error("g.json: nodes[0] \"a\" (relu): input 0 is not defined before use (cycle?)");
}

TEST(ir_verify__wrong_operand_count__error) {
    INPUT("x", DT_FLOAT32, 2);
    NodeId z = NODE("z", OP_ADD, "x");
    add_output("z", z);
    expect_error("g.json: nodes[0] \"z\" (add): takes 2 inputs, got 1");
}

TEST(ir_verify__unknown_op_value__error) {
    INPUT("x", DT_FLOAT32, 2);
    NodeId z = NODE("z", OP_NEG, "x");
    g->nodes[z].op = OP_COUNT;
    add_output("z", z);
    expect_error("g.json: nodes[0]: unknown op");
}

TEST(ir_verify__input_dim_too_large__error_at_input) {
    NodeId x = INPUT("x", DT_FLOAT32, 4, IR_MAX_DIM);
    add_output("x", x);
    expect_error("g.json: inputs[0] \"x\" (input): dimension 2147483648 is out of range (0 to 2^31-1)");
}

/* ---- message format --------------------------------------------------------------------------- */

TEST(ir_verify__inference_error__file_loc_name_op_prefix) {
    INPUT("x", DT_FLOAT32, 2, 3);
    INPUT("b", DT_FLOAT32, 4);
    NODE("y", OP_NEG, "x");
    NodeId z = NODE("z", OP_ADD, "y", "b");
    add_output("z", z);
    expect_error("g.json: nodes[1] \"z\" (add): cannot broadcast [2,3] and [4]");
}

TEST(ir_verify__matmul_mismatch__exact_message) {
    INPUT("x", DT_FLOAT32, 512, 480);
    INPUT("w", DT_FLOAT32, 256, 2);
    NodeId z = NODE("z1", OP_MATMUL, "x", "w");
    add_output("z", z);
    expect_error("g.json: nodes[0] \"z1\" (matmul): inner dimensions differ: [512,480] x [256,2]");
}

TEST(ir_verify__first_error_only__later_errors_dropped) {
    INPUT("x", DT_FLOAT32, 2);
    INPUT("b", DT_FLOAT32, 3);
    NODE("z", OP_ADD, "x", "b");
    NODE("w", OP_SUB, "x", "b");
    expect_error("g.json: nodes[0] \"z\" (add): cannot broadcast [2] and [3]");
}

TEST(diag_at__loc_and_no_loc__prefixed) {
    diag_at(&d, "outputs.y", "bad %d", 7);
    assert_string_equal(d.msg, "g.json: outputs.y: bad 7");
    assert_int_equal(d.nerrors, 1);
    diag_at(&d, NULL, "second");
    assert_string_equal(d.msg, "g.json: outputs.y: bad 7");
    assert_int_equal(d.nerrors, 2);
    Diag e;
    diag_init(&e, "g.json");
    diag_at(&e, NULL, "3:4: invalid JSON");
    assert_string_equal(e.msg, "g.json: 3:4: invalid JSON");
}

TEST(diag_at__no_file__input_placeholder) {
    Diag e;
    diag_init(&e, NULL);
    diag_at(&e, "name", "oops");
    assert_string_equal(e.msg, "<input>: name: oops");
}

TEST(diag_node__node__loc_name_op_prefix) {
    NodeId x = INPUT("x", DT_FLOAT32, 2);
    NodeId z = NODE("z", OP_SIGMOID, "x");
    diag_node(&d, &g->nodes[z], "%s", "message");
    assert_string_equal(d.msg, "g.json: nodes[0] \"z\" (sigmoid): message");
    Diag e;
    diag_init(&e, "g.json");
    diag_node(&e, &g->nodes[x], "hm");
    assert_string_equal(e.msg, "g.json: inputs[0] \"x\" (input): hm");
}

TEST(diag_at__long_message__truncated_terminated) {
    char big[4000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = 0;
    diag_at(&d, "nodes[0]", "%s", big);
    assert_true(strlen(d.msg) < sizeof d.msg);
    assert_true(strncmp(d.msg, "g.json: nodes[0]: xxx", 21) == 0);
}

/* ---- outputs ---------------------------------------------------------------------------------- */

TEST(ir_verify__no_outputs__error) {
    INPUT("x", DT_FLOAT32, 2);
    NODE("y", OP_NEG, "x");
    expect_error("g.json: outputs: graph has no outputs");
}

TEST(ir_verify__output_named_twice__error) {
    NodeId x = INPUT("x", DT_FLOAT32, 2);
    NodeId y = NODE("y", OP_NEG, "x");
    add_output("o", x);
    add_output("o", y);
    expect_error("g.json: outputs.o: output is named twice");
}

TEST(ir_verify__output_name_not_identifier__error) {
    NodeId x = INPUT("x", DT_FLOAT32, 2);
    add_output("a b", x);
    expect_error("g.json: outputs: output name \"a b\" is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most 128 characters)");
}

TEST(ir_verify__output_value_out_of_range__names_no_value) {
    INPUT("x", DT_FLOAT32, 2);
    add_output("o", 5);
    expect_error("g.json: outputs.o: names no value");
}

/* ---- donations -------------------------------------------------------------------------------- */

/* x, w: float32 [4]; x_next = x * 0.9 and w_next = w - x, both outputs. */
static void donation_graph(NodeId *x, NodeId *w, NodeId *xn, NodeId *wn) {
    *x = INPUT("x", DT_FLOAT32, 4);
    *w = INPUT("w", DT_FLOAT32, 4);
    *xn = NODE("x_next", OP_MUL, "x", "#0.9");
    *wn = NODE("w_next", OP_SUB, "w", "x");
    add_output("x", *xn);
    add_output("w", *wn);
}

TEST(ir_verify__donations_valid__ok) {
    NodeId x, w, xn, wn;
    donation_graph(&x, &w, &xn, &wn);
    add_donation(xn, x);
    add_donation(wn, w);
    expect_ok();
}

TEST(ir_verify__donated_value_not_an_output__error) {
    NodeId x, w, xn, wn;
    donation_graph(&x, &w, &xn, &wn);
    NodeId t = NODE("t", OP_EXP, "x");
    add_donation(t, x);
    expect_error("g.json: donate.t: \"t\" is not named by any output");
}

TEST(ir_verify__donation_to_a_non_input__error) {
    NodeId x, w, xn, wn;
    donation_graph(&x, &w, &xn, &wn);
    add_donation(xn, wn);
    expect_error("g.json: donate.x_next: \"w_next\" is not an input");
}

TEST(ir_verify__donated_value_is_an_input__error) {
    NodeId x, w, xn, wn;
    donation_graph(&x, &w, &xn, &wn);
    add_output("w_out", w);
    add_donation(w, x);
    expect_error("g.json: donate.w: \"w\" is an input; only computed values can take a donated buffer");
}

TEST(ir_verify__donation_shape_mismatch__error) {
    NodeId x, w, xn, wn;
    donation_graph(&x, &w, &xn, &wn);
    NodeId s = NODE("s", OP_SUM, "x");
    add_output("s", s);
    add_donation(s, x);
    expect_error("g.json: donate.s: float32 [] cannot reuse input \"x\" of float32 [4]");
}

TEST(ir_verify__donation_dtype_mismatch__error) {
    NodeId x, w, xn, wn;
    donation_graph(&x, &w, &xn, &wn);
    NodeId c = NODE("c", OP_CAST, "x");
    g->nodes[c].attrs.has_dtype = true;
    g->nodes[c].attrs.dtype = DT_FLOAT64;
    add_output("c", c);
    add_donation(c, x);
    expect_error("g.json: donate.c: float64 [4] cannot reuse input \"x\" of float32 [4]");
}

TEST(ir_verify__input_donated_twice__error) {
    NodeId x, w, xn, wn;
    donation_graph(&x, &w, &xn, &wn);
    add_donation(xn, x);
    add_donation(wn, x);
    expect_error("g.json: donate.w_next: input \"x\" is donated twice");
}

TEST(ir_verify__value_takes_two_donations__error) {
    NodeId x, w, xn, wn;
    donation_graph(&x, &w, &xn, &wn);
    add_donation(xn, x);
    add_donation(xn, w);
    expect_error("g.json: donate.x_next: \"x_next\" takes two donated buffers");
}

TEST(ir_verify__output_names_donated_input__error) {
    NodeId x, w, xn, wn;
    donation_graph(&x, &w, &xn, &wn);
    add_output("x_old", x);
    add_donation(xn, x);
    expect_error("g.json: outputs: output \"x_old\" names input \"x\", whose buffer is donated");
}

TEST(ir_verify__donation_ids_out_of_range__names_no_value) {
    NodeId x, w, xn, wn;
    donation_graph(&x, &w, &xn, &wn);
    add_donation(xn, 99);
    expect_error("g.json: donate: names no value");
}

int main(void) {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(ir_verify__ok_graph__zero_and_every_type_inferred),
        T(ir_verify__int_and_float_constants__weak_operands_typed),
        T(graph_operand_type__constants__weak_rank0_int_or_float),
        T(ir_verify__output_names_an_input__ok),
        T(ir_verify__node_without_outputs_use__ok),
        T(ir_verify__full_node_without_operands__ok),
        T(ir_verify__duplicate_node_name__error_names_first_place),
        T(ir_verify__node_named_like_input__error),
        T(ir_verify__bad_identifier__error),
        T(ir_verify__129_char_name__error),
        T(ir_verify__unicode_name__error),
        T(ir_verify__bad_graph_name__error),
        T(ir_verify__forward_reference__cycle_error),
        T(ir_verify__self_reference__cycle_error),
        T(ir_verify__negative_operand_id__error),
        T(ir_verify__wrong_operand_count__error),
        T(ir_verify__unknown_op_value__error),
        T(ir_verify__input_dim_too_large__error_at_input),
        T(ir_verify__inference_error__file_loc_name_op_prefix),
        T(ir_verify__matmul_mismatch__exact_message),
        T(ir_verify__first_error_only__later_errors_dropped),
        T(diag_at__loc_and_no_loc__prefixed),
        T(diag_at__no_file__input_placeholder),
        T(diag_node__node__loc_name_op_prefix),
        T(diag_at__long_message__truncated_terminated),
        T(ir_verify__no_outputs__error),
        T(ir_verify__output_named_twice__error),
        T(ir_verify__output_name_not_identifier__error),
        T(ir_verify__output_value_out_of_range__names_no_value),
        T(ir_verify__donations_valid__ok),
        T(ir_verify__donated_value_not_an_output__error),
        T(ir_verify__donation_to_a_non_input__error),
        T(ir_verify__donated_value_is_an_input__error),
        T(ir_verify__donation_shape_mismatch__error),
        T(ir_verify__donation_dtype_mismatch__error),
        T(ir_verify__input_donated_twice__error),
        T(ir_verify__value_takes_two_donations__error),
        T(ir_verify__output_names_donated_input__error),
        T(ir_verify__donation_ids_out_of_range__names_no_value),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
