/* tests/unit/test_php_inline.c: the PHP front-end's calls and names (compiler/php_inline.c,
 * php_math.c): plain functions inlined into a graph function (the same nodes as the steps
 * written out, readable unique names, nested calls, named arguments, defaults, namespaces, and
 * each refusal with its exact message), group use, PHP's math functions and constants folded as
 * PHP computes them (the reference values are PHP 8's own, printed with %.17g), and
 * ->squeeze()/->unsqueeze()/->flatten() with the runtime's shapes and messages. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../compiler/frontend_php.h"

#define TEST(name) static void name(void **state __attribute__((unused)))

static Diag d;

static Graph *read_php(const char *text) {
    diag_init(&d, "g.php");
    return frontend_php_read(text, strlen(text), NULL, &d);
}

/* line 1-2: the prelude; line 3: the helpers (one line); line 4-5: the graph function's head;
 * line 6: its body; then `return $y;` */
#define PRE "<?php\nuse Cuda\\CudaArray;\n"
#define GRAPH "#[Gtc\\Graph(name: 'g')]\nfunction g(#[Gtc\\Input('float32', [4, 3])] CudaArray $x, " \
              "#[Gtc\\Input('float32', [3, 2])] CudaArray $w, #[Gtc\\Input('float32', [2])] CudaArray $b): array {\n"
#define DENSE "function dense($x, $w, $b = 0) { $z = $x->matmul($w); return $z + $b; }\n"

static Graph *read3(const char *helpers, const char *body) {
    static char src[8192];
    snprintf(src, sizeof src, PRE "%s" GRAPH "%s    return $y;\n}\n", helpers, body);
    diag_init(&d, "g.php");
    return frontend_php_read(src, strlen(src), "g", &d);
}

static void expect_same(const Graph *a, const Graph *b, bool names) {
    assert_int_equal(a->nnodes, b->nnodes);
    for (int i = 0; i < a->nnodes; i++) {
        if (names) assert_string_equal(a->nodes[i].name, b->nodes[i].name);
        assert_int_equal(a->nodes[i].op, b->nodes[i].op);
        assert_int_equal(a->nodes[i].ninputs, b->nodes[i].ninputs);
        for (int k = 0; k < a->nodes[i].ninputs; k++) {
            assert_int_equal(a->nodes[i].in[k].id, b->nodes[i].in[k].id);
            assert_true(a->nodes[i].in[k].value == b->nodes[i].in[k].value);
        }
        assert_true(ir_type_equal(&a->nodes[i].type, &b->nodes[i].type));
    }
}

/* ---- inlining --------------------------------------------------------------------------------- */

/* A call makes exactly the nodes of its body written out where the call is; the body's variables
 * are named after the call's variable, and the result takes the variable's own name. */
TEST(inline__dense__same_nodes_as_written_out) {
    Graph *flat = read3("", "    $y_z = $x->matmul($w);\n    $y = $y_z + $b;\n");
    Graph *call = read3(DENSE, "    $y = dense($x, $w, $b);\n");
    assert_non_null(flat);
    assert_non_null(call);
    expect_same(flat, call, true);
    assert_string_equal(call->nodes[graph_find(call, "y_z")].loc, "3:43"); /* where the body wrote it */
    graph_free(flat);
    graph_free(call);
    /* a body that returns an expression: temporaries as for `$y = $x->matmul($w) + $b;` */
    flat = read3("", "    $y = $x->matmul($w) + $b;\n");
    call = read3("function dense($x, $w, $b) { return $x->matmul($w) + $b; }\n", "    $y = dense($x, $w, $b);\n");
    assert_non_null(flat);
    assert_non_null(call);
    expect_same(flat, call, true);
    graph_free(flat);
    graph_free(call);
}

TEST(inline__nested_named_default_arguments__readable_unique_names) {
    Graph *g = read3(DENSE "function mlp($x, $w, $b) { $h = dense($x, $w, $b)->relu(); return dense(b: 1, x: $h->matmul($w->transpose()), w: $w); }\n",
                     "    $y = mlp($x, $w, $b) + dense($x, $w);\n");
    assert_non_null(g);
    static const char *const names[] = {"x", "w", "b", "y_h_z", "y_h_1", "y_h", "y_1", "y_2", "y_z", "y_3",
                                        "y_z_2", "y_4", "y"};
    assert_int_equal(g->nnodes, (int)(sizeof names / sizeof *names));
    for (int i = 0; i < g->nnodes; i++) assert_string_equal(g->nodes[i].name, names[i]);
    const Node *add1 = &g->nodes[graph_find(g, "y_3")], *add0 = &g->nodes[graph_find(g, "y_4")];
    assert_true(add1->op == OP_ADD && add1->in[1].id < 0 && add1->in[1].value == 1); /* b: 1 by name */
    assert_true(add0->op == OP_ADD && add0->in[1].id < 0 && add0->in[1].value == 0); /* the default */
    assert_int_equal(g->nodes[graph_find(g, "y")].op, OP_ADD);
    graph_free(g);
    /* a graph variable keeps its name: the body's $z does not take the graph's $y_z */
    g = read3(DENSE, "    $q = dense($x, $w, $b);\n    $y_z = $q->exp();\n    $y = dense($x, $w) + $y_z;\n");
    assert_non_null(g);
    assert_int_equal(g->nodes[graph_find(g, "y_z")].op, OP_EXP);
    assert_int_equal(g->nodes[graph_find(g, "q_z")].op, OP_MATMUL);
    graph_free(g);
    /* a number argument is a constant in the body; a parameter returned as it is is an alias */
    g = read3("function scale($a, $k) { $n = $k * 2; return $a * $n; }\nfunction id($a) { return $a; }\n",
              "    $y = id(scale($x, 1.5));\n");
    assert_non_null(g);
    assert_int_equal(g->nnodes, 4);
    assert_true(g->nodes[3].op == OP_MUL && g->nodes[3].in[1].value == 3);
    assert_string_equal(g->nodes[3].name, "y");
    graph_free(g);
}

/* PHP's rules, and `php -l` accepts each source (checked when the cases were written). */
TEST(inline__namespaces__resolved_as_php) {
    static const char *const ok[] = {
        "<?php\nnamespace App;\nuse Cuda\\CudaArray;\nfunction act($a) { return $a->relu(); }\n"
        "#[\\Gtc\\Graph]\nfunction g(#[\\Gtc\\Input('float32', [2])] CudaArray $x) { $y = act($x); return $y; }\n",
        "<?php\nnamespace App;\nfunction act($a) { return $a->relu(); }\nnamespace Main;\n"
        "#[\\Gtc\\Graph]\nfunction g(#[\\Gtc\\Input('float32', [2])] $x) { $y = \\App\\act($x); return $y; }\n",
        "<?php\nfunction act($a) { return $a->relu(); }\nnamespace Main;\n" /* falls back to the global one */
        "#[\\Gtc\\Graph]\nfunction g(#[\\Gtc\\Input('float32', [2])] $x) { $y = ACT($x); return $y; }\n",
        "<?php\nnamespace App;\nfunction act($a) { return $a->relu(); }\nnamespace Main;\nuse function App\\act;\n"
        "#[\\Gtc\\Graph]\nfunction g(#[\\Gtc\\Input('float32', [2])] $x) { $y = act($x); return $y; }\n",
        "<?php\nnamespace App;\nfunction act($a) { return $a->relu(); }\nnamespace Main;\nuse App\\{function act as a2};\n"
        "#[\\Gtc\\Graph]\nfunction g(#[\\Gtc\\Input('float32', [2])] $x) { $y = a2($x); return $y; }\n",
        "<?php\nnamespace App;\nfunction act($a) { return $a->relu(); }\nnamespace Main;\nuse function App\\{act as a3};\n"
        "#[\\Gtc\\Graph]\nfunction g(#[\\Gtc\\Input('float32', [2])] $x) { $y = a3($x); return $y; }\n",
    };
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        Graph *g = read_php(ok[i]);
        if (!g) fail_msg("case %zu: %s", i, d.msg);
        assert_int_equal(g->nodes[graph_find(g, "y")].op, OP_RELU);
        graph_free(g);
    }
    assert_null(read_php("<?php\nnamespace App;\nfunction act($a) { return $a->relu(); }\nnamespace Main;\n"
                         "#[\\Gtc\\Graph]\nfunction g(#[\\Gtc\\Input('float32', [2])] $x) { $y = act($x); return $y; }\n"));
    assert_string_equal(d.msg, "g.php:6:53: call to unknown function act(): a graph function calls CudaArray methods "
                               "($x->exp()), CudaArray::where/full/zeros/ones, the operators + - * / **, functions "
                               "defined in the file (inlined) and PHP's math functions on numbers (sqrt, exp, log, "
                               "pow, abs, min, max, ...)");
}

TEST(inline__errors__file_line_column) {
    static const struct {
        const char *helpers, *body, *msg;
    } cases[] = {
        {DENSE, "    $y = dense($x);\n", "g.php:6:10: dense() needs the argument $w"},
        {DENSE, "    $y = dense($x, $w, $b, $b);\n", "g.php:6:28: dense() takes at most 3 arguments"},
        {DENSE, "    $y = dense($x, $w, c: $b);\n", "g.php:6:24: unknown named argument $c; dense() takes $x, $w, $b"},
        {DENSE, "    $y = dense($x, $w, 'relu');\n",
         "g.php:6:24: dense(): argument 3 must be a CudaArray or a number, got a string: the parameters of a function a "
         "graph calls are values"},
        {DENSE, "    $y = $x->matmul($x);\n", "g.php:6:14: \"y\" (matmul): inner dimensions differ: [4,3] x [4,3]"},
        {DENSE, "    $q = $x->matmul($x);\n    $y = dense($q, $w);\n", /* made before the call: no call named */
         "g.php:6:14: \"q\" (matmul): inner dimensions differ: [4,3] x [4,3]"},
        {DENSE, "    $y = dense($x, $x);\n",
         "g.php:3:43: \"y_z\" (matmul): inner dimensions differ: [4,3] x [4,3] (in dense() called at 6:10)"},
        {"function f($a) { return g2($a); } function g2($a) { $q = $a->foo(); return $q; }\n", "    $y = f($x);\n",
         "g.php:3:62: unknown method ->foo(): a graph function calls the CudaArray methods that are graph ops "
         "(docs/php-graphs.md lists them) (in g2() called at 3:25, in f() called at 6:10)"},
        {"function f($a) { return f($a); }\n", "    $y = f($x);\n",
         "g.php:3:25: recursive call of f(): a graph is straight-line code, so a function it calls is inlined and "
         "cannot call itself, directly or through others (in f() called at 6:10)"},
        {"function f($a) { return h($a); } function h($a) { return f($a); }\n", "    $y = f($x);\n",
         "g.php:3:58: recursive call of f(): a graph is straight-line code, so a function it calls is inlined and "
         "cannot call itself, directly or through others (in h() called at 3:25, in f() called at 6:10)"},
        {"function f($a, $k = 'x') { return $a; }\n", "    $y = f($x);\n",
         "g.php:3:21: the default value of $k must be a number: the parameters of f(), a function a graph calls, are "
         "CudaArrays and numbers"},
        {"function f($a) { for ($i = 0; $i < 2; $i++) {} return $a; }\n", "    $y = f($x);\n",
         "g.php:3:18: loops are not supported in a graph function: a graph is straight-line code; write each step as "
         "its own assignment (in f() called at 6:10)"},
        {"function f($a) { echo 'hi'; return $a; }\n", "    $y = f($x);\n",
         "g.php:3:18: output is not supported in a graph function; return the values instead (in f() called at 6:10)"},
        {"function f($a) { global $w; return $a; }\n", "    $y = f($x);\n",
         "g.php:3:18: global variables are not supported: a function in a graph sees only its parameters and its own "
         "assignments (in f() called at 6:10)"},
        {"function f($a) { return $a + $w; }\n", "    $y = f($x);\n",
         "g.php:3:30: $w is used before it is assigned: a graph function's values are its parameters and the variables "
         "assigned above (in f() called at 6:10)"},
        {"function f($a) { $a = $a->exp(); return $a; }\n", "    $y = f($x);\n",
         "g.php:3:18: $a is a parameter: each variable is assigned once, since it names the graph value; use a new name "
         "(in f() called at 6:10)"},
        {"function f($a) { $q = $a->exp(); }\n", "    $y = f($x);\n",
         "g.php:3:34: f() must end with `return expression;`: a function a graph calls gives the call its value (in f() "
         "called at 6:10)"},
        {"function f($a) { return ['a' => $a]; }\n", "    $y = f($x);\n",
         "g.php:3:18: f() must return one value, `return expression;` (a list of outputs is what a graph function "
         "returns) (in f() called at 6:10)"},
        {"function f($a) { return $a; $q = 1; }\n", "    $y = f($x);\n",
         "g.php:3:29: code after return never runs; return must be the function's last statement (in f() called at 6:10)"},
        {"function f(&$a) { return $a; }\n", "    $y = f($x);\n",
         "g.php:3:12: by-reference parameters are not supported: f() returns its result"},
        {"function f(#[Gtc\\Input('float32', [2])] $a) { return $a; }\n", "    $y = f($x);\n",
         "g.php:3:14: #[Gtc\\Input] belongs on a graph function's parameter; f() is inlined where a graph calls it: its "
         "parameters are the call's arguments"},
        {"#[Gtc\\Graph(name: 'h')] function h(#[Gtc\\Input('float32', [2])] $a) { return $a; }\n", "    $y = h($x);\n",
         "g.php:6:10: h() is a graph function (#[Gtc\\Graph]); a graph calls plain functions: move the shared steps "
         "into a function without attributes and call it from both"},
        {"function f($a) { return $a; } function F($b) { return $b; }\n", "    $y = f($x);\n",
         "g.php:3:40: function F() is declared twice (first at 3:10); PHP refuses to declare it again"},
        {DENSE, "    dense($x, $w);\n    $y = $x;\n",
         "g.php:6:5: a call as a statement does nothing in a graph: functions here have no side effects; assign the "
         "result: `$name = dense(...);`"},
    };
    int bad = 0;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        Graph *g = read3(cases[i].helpers, cases[i].body);
        if (g) fail_msg("case %zu was accepted", i);
        if (strcmp(d.msg, cases[i].msg) != 0) print_error("case %zu:\n got  %s\n want %s\n", i, d.msg, cases[i].msg), bad++;
    }
    assert_int_equal(bad, 0);
}

/* A chain deeper than PHP_MAX_INLINE, and calls that double at every level (2^30 bodies), stop
 * with a message instead of exhausting the stack or the clock. */
TEST(inline__depth_and_blowup__bounded) {
    size_t cap = 1 << 16, o = 0;
    char *src = malloc(cap);
    assert_non_null(src);
    o += (size_t)snprintf(src + o, cap - o, PRE);
    for (int i = 0; i < 40; i++) o += (size_t)snprintf(src + o, cap - o, "function f%d($a) { return f%d($a); }\n", i, i + 1);
    o += (size_t)snprintf(src + o, cap - o, "function f40($a) { return $a; }\n" GRAPH "    $y = f0($x);\n    return $y;\n}\n");
    assert_null(read_php(src));
    assert_non_null(strstr(d.msg, "calls are nested more than 32 deep: inlining f32() would go deeper (in f31() called at"));
    o = (size_t)snprintf(src, cap, PRE "function d0($a) { return $a + 1; }\n");
    for (int i = 1; i < 31; i++) o += (size_t)snprintf(src + o, cap - o, "function d%d($a) { return d%d(d%d($a)); }\n", i, i - 1, i - 1);
    snprintf(src + o, cap - o, GRAPH "    $y = $x * d30(0);\n    return $y;\n}\n");
    assert_null(read_php(src));
    assert_non_null(strstr(d.msg, "here reads function bodies of more than 4194304 tokens in all: the calls multiply"));
    free(src);
}

/* Every truncation and a byte flip every 5 bytes of files with helper functions: a diagnostic
 * or a graph, never a crash or a leak (ASan). */
TEST(inline__every_truncation_and_byte_flip__survives) {
    static const char *const files[] = {"examples/digits_step.php", "tests/golden/php_inline/graph.php"};
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        FILE *in = fopen(files[f], "rb");
        assert_non_null(in);
        static char src[16384];
        size_t len = fread(src, 1, sizeof src, in);
        fclose(in);
        assert_true(len > 0 && len < sizeof src);
        for (size_t n = 0; n <= len; n++) {
            diag_init(&d, "t.php");
            Graph *g = frontend_php_read(src, n, f == 0 ? NULL : "model", &d);
            if (g) graph_free(g);
            else assert_true(d.nerrors > 0);
        }
        for (size_t i = 0; i < len; i += 5) {
            src[i] ^= 0x5a;
            diag_init(&d, "t.php");
            Graph *g = frontend_php_read(src, len, f == 0 ? NULL : "model", &d);
            if (g) graph_free(g);
            src[i] ^= 0x5a;
        }
    }
}

/* ---- group use -------------------------------------------------------------------------------- */

TEST(group_use__imports_and_aliases) {
    Graph *g = read_php("<?php\nuse Cuda\\{CudaArray as CA};\nuse \\Gtc\\{Graph, Input as In, function foo, Donate,};\n"
                        "#[Graph(name: 'g')] #[Donate('x')]\nfunction g(#[In('float32', [2])] CA $x) { $y = CA::where($x, $x, 0); "
                        "return ['x' => $y]; }\n");
    if (!g) fail_msg("%s", d.msg);
    assert_int_equal(g->ndonations, 1);
    assert_int_equal(g->nodes[graph_find(g, "y")].op, OP_WHERE);
    graph_free(g);
    assert_null(read_php("<?php\nuse Gtc\\{};\n"));
    assert_string_equal(d.msg, "g.php:2:9: an empty group use imports nothing; name the classes: use Gtc\\{Graph, Input};");
    assert_null(read_php("<?php\nuse Gtc\\{Graph, Input} as X;\n"));
    assert_string_equal(d.msg, "g.php:2:24: unexpected 'as', expected ';' after a group use");
    assert_null(read_php("<?php\nuse Gtc\\{Graph Input};\n"));
    assert_string_equal(d.msg, "g.php:2:16: unexpected 'Input', expected ',' or '}'");
}

/* ---- math on numbers -------------------------------------------------------------------------- */

TEST(math__functions_and_constants__folded_as_php) {
    static const struct {
        const char *expr;
        double want; /* PHP 8's result, %.17g */
    } cases[] = {
        {"sqrt(8)", 2.8284271247461903}, {"1 / sqrt(784)", 0.035714285714285712}, {"exp(1)", 2.7182818284590451},
        {"log(8, 2)", 3}, {"log(100, 10)", 2}, {"log(M_E)", 1}, {"log(8, 3)", 1.8927892607143719},
        {"pow(2, -1)", 0.5}, {"2 ** 0.5", 1.4142135623730951}, {"intdiv(-7, 2)", -3}, {"round(-2.5)", -3},
        {"round(2.5)", 3}, {"fmod(-7, 2)", -1}, {"log10(1000)", 3}, {"deg2rad(90)", 1.5707963267948966},
        {"atan2(1, 1)", 0.78539816339744828}, {"hypot(3, 4)", 5}, {"fdiv(1, 3)", 0.33333333333333331},
        {"min(3, 1.5, 2)", 1.5}, {"max(-1, -2)", -1}, {"abs(-3.5)", 3.5}, {"floor(-1.5)", -2}, {"ceil(-1.5)", -1},
        {"log1p(1e-10)", 9.9999999995000007e-11}, {"expm1(1e-10)", 1.00000000005e-10}, {"tanh(0.5)", 0.46211715726000974},
        {"M_PI * 2", 6.2831853071795862}, {"1 / M_SQRT2", 0.70710678118654746}, {"\\sqrt(num: 4)", 2},
        {"PHP_FLOAT_EPSILON", 2.2204460492503131e-16}, {"pi()", 3.1415926535897931}, {"M_SQRT3", 1.7320508075688772},
        {"M_EULER", 0.57721566490153287}, {"M_LNPI", 1.1447298858494002}, {"POW(2, 3) + Max(1, 2)", 10},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char body[256];
        snprintf(body, sizeof body, "    $y = $x * (%s);\n", cases[i].expr);
        Graph *g = read3("", body);
        if (!g) fail_msg("%s: %s", cases[i].expr, d.msg);
        const Node *y = &g->nodes[graph_find(g, "y")];
        if (!(y->in[1].id < 0 && y->in[1].value == cases[i].want))
            fail_msg("%s: got %.17g, want %.17g", cases[i].expr, y->in[1].value, cases[i].want);
        graph_free(g);
    }
}

TEST(math__errors__file_line_column) {
    static const struct {
        const char *body, *msg;
    } cases[] = {
        {"    $y = $x * sqrt(-1);\n", "g.php:5:15: sqrt(-1) is not a finite number: graph constants are finite"},
        {"    $y = $x * log(0);\n", "g.php:5:15: log(0) is not a finite number: graph constants are finite"},
        {"    $y = $x * log(2, 1);\n", "g.php:5:15: log(2, 1) is not a finite number: graph constants are finite"},
        {"    $y = $x * log(2, -1);\n", "g.php:5:22: log(): $base must be greater than 0"},
        {"    $y = $x * pow(0, -1);\n", "g.php:5:15: pow(0, -1) is not a finite number: graph constants are finite"},
        {"    $y = $x * exp(1000);\n", "g.php:5:15: exp(1000) is not a finite number: graph constants are finite"},
        {"    $y = $x * intdiv(1, 0);\n", "g.php:5:15: intdiv(): division by zero"},
        {"    $y = $x * intdiv(1.5, 1);\n", "g.php:5:15: intdiv() takes integers (at most 2^53 in magnitude), got 1.5 and 1"},
        {"    $y = sqrt($x);\n",
         "g.php:5:15: sqrt() is PHP's function on numbers, folded when the graph is read; on a CudaArray use ->sqrt()"},
        {"    $y = max($x, 0);\n", "g.php:5:14: max() is PHP's function on numbers, folded when the graph is read; on a "
                                   "CudaArray use ->maximum() (->max() reduces)"},
        {"    $y = $x * atan2($x, 1);\n",
         "g.php:5:21: atan2() is PHP's function on numbers, folded when the graph is read; it has no CudaArray form in a graph"},
        {"    $y = $x * sqrt('4');\n", "g.php:5:20: sqrt(): $num must be a number, got a string"},
        {"    $y = $x * sqrt();\n", "g.php:5:15: sqrt() needs the argument $num"},
        {"    $y = $x * max(1);\n", "g.php:5:15: max() needs at least two numbers: max(1, 2)"},
        {"    $y = $x * max([1, 2]);\n", "g.php:5:15: max() needs at least two numbers: max(1, 2)"},
        {"    $y = $x * min(1, value: 2);\n", "g.php:5:22: min() takes its numbers as positional arguments"},
        {"    $y = $x * round(1.25, 1);\n", "g.php:5:27: round(): only $precision 0 is supported in a graph; scale the number instead"},
        {"    $y = $x * NAN;\n", "g.php:5:15: NAN is not a finite number: graph constants are finite"},
        {"    $y = $x * \\INF;\n", "g.php:5:15: INF is not a finite number: graph constants are finite"},
        {"    $y = $x * M_TAU;\n", "g.php:5:15: unknown constant M_TAU: a graph knows PHP's math constants (M_PI, M_E, "
                                  "M_SQRT2, ..., PHP_FLOAT_EPSILON); write other numbers"},
        {"    $y = $x * Foo\\sqrt(4);\n",
         "g.php:5:15: call to unknown function Foo\\sqrt(): a graph function calls CudaArray methods ($x->exp()), "
         "CudaArray::where/full/zeros/ones, the operators + - * / **, functions defined in the file (inlined) and PHP's "
         "math functions on numbers (sqrt, exp, log, pow, abs, min, max, ...)"},
        {"    sqrt(4);\n    $y = $x;\n", "g.php:5:5: a call as a statement does nothing in a graph: functions here have "
                                         "no side effects; assign the result: `$name = sqrt(...);`"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        Graph *g = read3("", cases[i].body);
        if (g) fail_msg("case %zu was accepted", i);
        if (strcmp(d.msg, cases[i].msg) != 0) fail_msg("case %zu:\n got  %s\n want %s", i, d.msg, cases[i].msg);
    }
}

/* ---- squeeze, unsqueeze, flatten -------------------------------------------------------------- */

/* The shapes of tests/php/squeeze_unsqueeze.phpt (the runtime's), as reshape nodes. */
TEST(squeeze_unsqueeze__runtime_shapes) {
    static const struct {
        const char *call, *shape;
    } cases[] = {
        {"squeeze()", "[3,2]"},       {"squeeze(0)", "[3,1,2]"},   {"squeeze(-2)", "[1,3,2]"},
        {"squeeze([0, 2])", "[3,2]"}, {"squeeze([])", "[1,3,1,2]"}, {"squeeze(axis: null)", "[3,2]"},
        {"unsqueeze(0)", "[1,1,3,1,2]"}, {"unsqueeze(4)", "[1,3,1,2,1]"}, {"unsqueeze(-1)", "[1,3,1,2,1]"},
        {"unsqueeze(axis: -5)", "[1,1,3,1,2]"}, {"flatten()", "[6]"}, {"squeeze()->squeeze()", "[3,2]"},
        {"sum()->unsqueeze(0)", "[1]"}, {"sum()->squeeze()", "[]"}, {"sum()->flatten()", "[1]"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char src[512], shape[64];
        snprintf(src, sizeof src, PRE "#[Gtc\\Graph]\nfunction g(#[Gtc\\Input('int32', [1, 3, 1, 2])] $x) { $y = $x->%s; return $y; }\n",
                 cases[i].call);
        Graph *g = read_php(src);
        if (!g) fail_msg("%s: %s", cases[i].call, d.msg);
        const Node *y = &g->nodes[graph_find(g, "y")];
        assert_int_equal(y->op, OP_RESHAPE);
        size_t k = (size_t)snprintf(shape, sizeof shape, "[");
        for (int a = 0; a < y->type.rank; a++) k += (size_t)snprintf(shape + k, sizeof shape - k, "%s%lld", a ? "," : "", (long long)y->type.dims[a]);
        snprintf(shape + k, sizeof shape - k, "]");
        if (strcmp(shape, cases[i].shape) != 0) fail_msg("%s: got %s, want %s", cases[i].call, shape, cases[i].shape);
        graph_free(g);
    }
    static const struct {
        const char *call, *msg;
    } bad[] = {
        {"squeeze(1)", "g.php:5:18: ->squeeze(): axis 1 has size 3, not 1"},
        {"squeeze(4)", "g.php:5:18: ->squeeze(): axis 4 is out of range for rank 4"},
        {"squeeze([-5])", "g.php:5:18: ->squeeze(): axis -5 is out of range for rank 4"},
        {"squeeze('0')", "g.php:5:18: ->squeeze(): $axis must be an integer or a list of integers, got a string"},
        {"unsqueeze(5)", "g.php:5:20: ->unsqueeze(): axis 5 is out of range for rank 4"},
        {"unsqueeze(-6)", "g.php:5:20: ->unsqueeze(): axis -6 is out of range for rank 4"},
        {"unsqueeze()", "g.php:5:10: ->unsqueeze() needs the argument $axis"},
        {"unsqueeze([0, 1])", "g.php:5:20: ->unsqueeze(): $axis must be one integer"},
        {"reshape([1, 1, 1, 1, 1, 3, 2])->unsqueeze(0)->unsqueeze(0)",
         "g.php:5:66: ->unsqueeze(): rank 9 exceeds the limit of 8"},
        {"flatten(0)", "g.php:5:18: ->flatten() takes no arguments"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char src[512];
        snprintf(src, sizeof src, PRE "#[Gtc\\Graph]\nfunction g(#[Gtc\\Input('int32', [1, 3, 1, 2])] $x) {\n$y = $x->%s; return $y; }\n",
                 bad[i].call);
        assert_null(read_php(src));
        if (strcmp(d.msg, bad[i].msg) != 0) fail_msg("%s:\n got  %s\n want %s", bad[i].call, d.msg, bad[i].msg);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(inline__dense__same_nodes_as_written_out),
        cmocka_unit_test(inline__nested_named_default_arguments__readable_unique_names),
        cmocka_unit_test(inline__namespaces__resolved_as_php),
        cmocka_unit_test(inline__errors__file_line_column),
        cmocka_unit_test(inline__depth_and_blowup__bounded),
        cmocka_unit_test(inline__every_truncation_and_byte_flip__survives),
        cmocka_unit_test(group_use__imports_and_aliases),
        cmocka_unit_test(math__functions_and_constants__folded_as_php),
        cmocka_unit_test(math__errors__file_line_column),
        cmocka_unit_test(squeeze_unsqueeze__runtime_shapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
