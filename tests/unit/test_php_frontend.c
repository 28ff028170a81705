/* tests/unit/test_php_frontend.c: the PHP lexer (php_lex) and front-end (frontend_php_read):
 * tokens and positions, graphs built from PHP with node names from the variables, exact
 * diagnostics, and survival of random bytes and truncated files. Run from the repository root
 * (`make unit`): the examples are read by relative path. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../compiler/frontend_php.h"
#include "../../compiler/php_lexer.h"

#define TEST(name) static void name(void **state __attribute__((unused)))

static Diag d;

static Graph *read_php(const char *text) {
    diag_init(&d, "g.php");
    return frontend_php_read(text, strlen(text), NULL, &d);
}

static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    buf[n] = 0;
    *len = (size_t)n;
    return buf;
}

#define HEAD "<?php\nuse Cuda\\CudaArray;\n#[Gtc\\Graph(name: 'g')]\n" \
             "function g(#[Gtc\\Input('float32', [4, 3])] CudaArray $x, #[Gtc\\Input('float32', [3])] CudaArray $b): array {\n"

/* ---- the lexer -------------------------------------------------------------------------------- */

TEST(php_lex__small_program__tokens_and_positions) {
    const char *src = "<?php\n$y = $x->sum(axis: [1, -2]) ** 2.5; // c\n#[A] 'a\\'b' \"q\\n\" 0x1F 1_000\n";
    PhpToks t;
    assert_int_equal(php_lex(src, strlen(src), &t), 0);
    assert_int_equal(t.v[0].kind, PT_OPEN_TAG);
    assert_int_equal(t.v[1].kind, PT_VAR);
    assert_string_equal(t.v[1].text, "y");
    assert_int_equal(t.v[1].line, 2);
    assert_int_equal(t.v[1].col, 1);
    assert_true(php_tok_is(&t.v[4], "->"));
    assert_true(php_tok_kw(&t.v[5], "SUM"));
    int i = 0;
    while (!php_tok_is(&t.v[i], "**")) i++;
    assert_int_equal(t.v[i + 1].kind, PT_NUMBER);
    assert_true(t.v[i + 1].num == 2.5 && !t.v[i + 1].is_int);
    while (t.v[i].kind != PT_ATTR) i++;
    assert_int_equal(t.v[i].line, 3);
    assert_string_equal(t.v[i + 3].text, "a'b");
    assert_int_equal(t.v[i + 4].kind, PT_STRING);
    assert_string_equal(t.v[i + 4].text, "q\n");
    assert_true(t.v[i + 5].num == 31 && t.v[i + 5].is_int);
    assert_true(t.v[i + 6].num == 1000);
    assert_int_equal(t.v[t.n - 1].kind, PT_EOF);
    php_toks_free(&t);
}

TEST(php_lex__interpolation_and_errors__flagged) {
    PhpToks t;
    const char *a = "<?php \"x{$y}\" 'ok'";
    assert_int_equal(php_lex(a, strlen(a), &t), 0);
    assert_int_equal(t.v[1].kind, PT_ISTRING);
    php_toks_free(&t);
    const char *b = "<?php /* open";
    assert_int_equal(php_lex(b, strlen(b), &t), -1);
    assert_int_equal(t.v[t.n - 2].kind, PT_ERROR);
    assert_string_equal(t.v[t.n - 2].text, "unterminated comment: close it with */");
    assert_int_equal(t.v[t.n - 2].col, 7);
    php_toks_free(&t);
}

/* Random bytes (with PHP-ish bytes over-represented) and every truncation of an example: no
 * crash, no leak (ASan), always a PT_EOF at the end. */
TEST(php_lex__random_bytes__survives) {
    static const char alphabet[] = "<?php $x=->()[]{}'\"\\#/*0123456789.eE_abc\n \t?>:;,+-";
    unsigned seed = 12345;
    char buf[512];
    for (int iter = 0; iter < 20000; iter++) {
        size_t n = (size_t)(iter % 97) * 5 % sizeof buf;
        for (size_t i = 0; i < n; i++) {
            seed = seed * 1103515245u + 12345u;
            unsigned r = seed >> 16;
            buf[i] = (r & 1) ? alphabet[r % (sizeof alphabet - 1)] : (char)(r >> 3);
        }
        if (iter % 3 == 0 && n >= 6) memcpy(buf, "<?php ", 6);
        PhpToks t;
        php_lex(buf, n, &t);
        assert_true(t.n >= 1 && t.v[t.n - 1].kind == PT_EOF);
        php_toks_free(&t);
        diag_init(&d, "fuzz.php");
        Graph *g = frontend_php_read(buf, n, NULL, &d);
        if (g) graph_free(g);
    }
}

TEST(frontend_php_read__every_truncation_and_byte_flip__survives) {
    size_t len;
    char *src = slurp("examples/train_step.php", &len);
    for (size_t n = 0; n <= len; n++) {
        diag_init(&d, "t.php");
        Graph *g = frontend_php_read(src, n, NULL, &d);
        assert_true(g == NULL || n == len || n >= len - 1);
        if (g) graph_free(g);
        else assert_true(d.nerrors > 0);
    }
    char *copy = malloc(len);
    assert_non_null(copy);
    for (size_t i = 0; i < len; i += 7) {
        memcpy(copy, src, len);
        copy[i] = (char)(copy[i] ^ 0x5a);
        diag_init(&d, "t.php");
        Graph *g = frontend_php_read(copy, len, NULL, &d);
        if (g) graph_free(g);
    }
    free(copy);
    free(src);
}

/* ---- the front-end ---------------------------------------------------------------------------- */

TEST(frontend_php_read__train_step__same_as_json) {
    size_t len;
    char *php = slurp("examples/train_step.php", &len);
    diag_init(&d, "train_step.php");
    Graph *a = frontend_php_read(php, len, NULL, &d);
    assert_non_null(a);
    Diag dj;
    diag_init(&dj, "train_step.json");
    Graph *b = ir_read_json_file("examples/train_step.json", &dj);
    assert_non_null(b);
    assert_string_equal(a->name, b->name);
    assert_int_equal(a->nnodes, b->nnodes);
    for (int i = 0; i < a->nnodes; i++) {
        assert_string_equal(a->nodes[i].name, b->nodes[i].name);
        assert_int_equal(a->nodes[i].op, b->nodes[i].op);
        assert_true(ir_type_equal(&a->nodes[i].type, &b->nodes[i].type));
    }
    assert_int_equal(a->ndonations, b->ndonations);
    assert_int_equal(a->noutputs, b->noutputs);
    graph_free(a);
    graph_free(b);
    free(php);
}

TEST(frontend_php_read__nested_expression__temporaries_named_after_variable) {
    Graph *g = read_php(HEAD "    $y = ($x + $b) * 2 - $x->exp();\n    return $y;\n}\n");
    assert_non_null(g);
    assert_int_equal(g->nnodes, 6);
    assert_string_equal(g->nodes[2].name, "y_1");
    assert_string_equal(g->nodes[3].name, "y_2");
    assert_string_equal(g->nodes[4].name, "y_3");
    assert_string_equal(g->nodes[5].name, "y");
    assert_int_equal(g->nodes[5].op, OP_SUB);
    assert_string_equal(g->outputs[0].name, "y");
    assert_string_equal(g->nodes[2].loc, "5:14"); /* the + */
    graph_free(g);
}

TEST(frontend_php_read__named_and_positional_arguments__attributes) {
    Graph *g = read_php(HEAD "    $s = $x->sum(keepdims: true, axis: [0]);\n    $t = $x->max(1, true);\n"
                             "    $r = $x->reshape([-1]);\n    $c = $x->astype(dtype: 'int64', casting: 'unsafe');\n"
                             "    return ['s' => $s, 't' => $t, 'r' => $r, 'c' => $c, 'e' => $s->exp()];\n}\n");
    assert_non_null(g);
    const Node *s = &g->nodes[graph_find(g, "s")], *t = &g->nodes[graph_find(g, "t")];
    assert_true(s->attrs.has_axes && s->attrs.naxes == 1 && s->attrs.axes[0] == 0 && s->attrs.keepdims);
    assert_true(t->attrs.has_axes && t->attrs.axes[0] == 1 && t->attrs.keepdims);
    assert_int_equal(g->nodes[graph_find(g, "r")].type.dims[0], 12);
    assert_int_equal(g->nodes[graph_find(g, "c")].type.dtype, DT_INT64);
    assert_true(graph_find(g, "e") >= 0); /* an output expression takes the output's name */
    graph_free(g);
}

TEST(frontend_php_read__where_condition_not_bool__cast_to_bool) {
    /* as the runtime's CudaArray::where: a float condition means != 0 (a cast to bool first) */
    Graph *g = read_php(HEAD "    $y = CudaArray::where($x, $x, $b);\n    $z = CudaArray::where($x->gt(0), 1, $x);\n"
                             "    return ['y' => $y, 'z' => $z];\n}\n");
    assert_non_null(g);
    const Node *y = &g->nodes[graph_find(g, "y")], *z = &g->nodes[graph_find(g, "z")];
    assert_int_equal(y->op, OP_WHERE);
    const Node *c = &g->nodes[y->in[0].id];
    assert_int_equal(c->op, OP_CAST);
    assert_true(c->attrs.has_dtype && c->attrs.dtype == DT_BOOL);
    assert_int_equal(g->nodes[z->in[0].id].op, OP_GT); /* a bool condition is used as it is */
    Diag vd;
    diag_init(&vd, "t");
    assert_int_equal(ir_verify(g, &vd), 0);
    graph_free(g);
}

TEST(frontend_php_read__one_hot__depth_and_dtype) {
    /* as the runtime's oneHot($depth, $dtype = 'float32') */
    Graph *g = read_php("<?php\nuse Cuda\\CudaArray;\n#[Gtc\\Graph(name: 'g')]\n"
                        "function g(#[Gtc\\Input('int64', [4])] CudaArray $l): array {\n"
                        "    $y = $l->oneHot(3);\n    $z = $l->oneHot(depth: 5, dtype: 'float64');\n"
                        "    return ['y' => $y, 'z' => $z];\n}\n");
    assert_non_null(g);
    const Node *y = &g->nodes[graph_find(g, "y")], *z = &g->nodes[graph_find(g, "z")];
    assert_true(y->op == OP_ONE_HOT && y->attrs.depth == 3 && y->attrs.dtype == DT_FLOAT32);
    assert_true(z->attrs.depth == 5 && z->attrs.dtype == DT_FLOAT64);
    graph_free(g);
    g = read_php("<?php\nuse Cuda\\CudaArray;\n#[Gtc\\Graph(name: 'g')]\n"
                 "function g(#[Gtc\\Input('int64', [4])] CudaArray $l): array {\n"
                 "    $y = $l->oneHot(0);\n    return ['y' => $y];\n}\n");
    assert_null(g);
    assert_non_null(strstr(d.msg, "depth"));
}

/* Each body (statements assigning $y, after HEAD) is refused with exactly msg. */
typedef struct {
    const char *body, *msg;
} ErrCase;

static void expect_errors(const ErrCase *cases, size_t n) {
    for (size_t i = 0; i < n; i++) {
        char src[1024];
        snprintf(src, sizeof src, HEAD "%s    return $y;\n}\n", cases[i].body);
        Graph *g = read_php(src);
        assert_null(g);
        assert_string_equal(d.msg, cases[i].msg);
    }
}

TEST(frontend_php_read__slice__per_axis_selectors_and_named_onnx_form) {
    Graph *g = read_php(HEAD "    $a = $x->slice([1, 3], [0, 3, 2]);\n    $i = $x->slice(-1);\n"
                             "    $s = $x->slice(null, '::2');\n    $o = $x->slice(starts: [1], ends: [2], axes: [1]);\n"
                             "    $w = $x->slice('1, ...');\n"
                             "    return ['a' => $a, 'i' => $i, 's' => $s, 'o' => $o, 'w' => $w];\n}\n");
    assert_non_null(g);
    const Node *a = &g->nodes[graph_find(g, "a")], *i = &g->nodes[graph_find(g, "i")];
    assert_int_equal(a->op, OP_SLICE);
    assert_true(a->attrs.nslice == 2 && a->attrs.starts[1] == 0 && a->attrs.ends[1] == 3 && a->attrs.steps[1] == 2);
    assert_true(a->type.rank == 2 && a->type.dims[0] == 2 && a->type.dims[1] == 2);
    /* an index: slice then a reshape without the axis, as the runtime traces it */
    assert_int_equal(i->op, OP_RESHAPE);
    assert_true(i->type.rank == 1 && i->type.dims[0] == 3);
    assert_int_equal(g->nodes[i->in[0].id].op, OP_SLICE);
    assert_true(g->nodes[i->in[0].id].attrs.starts[0] == 3);
    const Node *s = &g->nodes[graph_find(g, "s")], *o = &g->nodes[graph_find(g, "o")];
    assert_true(s->type.rank == 2 && s->type.dims[0] == 4 && s->type.dims[1] == 2);
    assert_true(!o->attrs.has_steps && o->attrs.has_axes && o->attrs.axes[0] == 1 && o->type.dims[1] == 1);
    assert_true(g->nodes[graph_find(g, "w")].type.rank == 1);
    graph_free(g);
}

TEST(frontend_php_read__slice_and_astype__bad_input) {
    static const ErrCase cases[] = {
        {"    $y = $x->slice(4);\n", "g.php:5:20: slice: index 4 is out of range for axis 0 of size 4"},
        {"    $y = $x->slice(0, 0, 0);\n", "g.php:5:26: slice: 3 selectors for a rank-2 array"},
        {"    $y = $x->slice([0], ends: [1]);\n",
         "g.php:5:25: ->slice(): pass either per-axis selectors (positional) or the named lists starts:, ends:, "
         "steps:, axes:, not both"},
        {"    $y = $x->slice(null, [0, 3, 0]);\n", "g.php:5:26: slice: step is 0 on axis 1"},
        {"    $y = $x->slice([1]);\n", "g.php:5:20: ->slice(): selector 1 must be [start, end] or [start, end, step], got 1 entries"},
        {"    $y = $x->slice(1.5);\n", "g.php:5:20: ->slice(): selector 1 must be an integer index, got 1.5"},
        {"    $y = $x->slice(true);\n",
         "g.php:5:20: ->slice(): selector 1 must be an int, null, a string or a list [start, end(, step)], got a boolean"},
        {"    $y = $x->slice('1:2:3:4');\n", "g.php:5:20: slice: \"1:2:3:4\" has more than two ':' in \"1:2:3:4\""},
        {"    $y = $x->slice(ends: [1]);\n", "g.php:5:14: ->slice() needs the argument $starts"},
        {"    $y = $x->astype('int32');\n",
         "g.php:5:14: ->astype(): unsafe cast from float32 to int32 under casting 'same_kind'; add casting: 'unsafe' "
         "for the saturating conversion"},
        {"    $y = $x->astype('float64', casting: 'x');\n",
         "g.php:5:41: ->astype(): $casting must be 'no', 'equiv', 'safe', 'same_kind' or 'unsafe'"},
    };
    expect_errors(cases, sizeof cases / sizeof *cases);
}

/* gather/scatterAdd read as the runtime's methods: $indices, $updates, $axis (default 0) */
TEST(frontend_php_read__gather_scatter_add__axis_and_operands) {
    Graph *g = read_php("<?php\nuse Cuda\\CudaArray;\n#[Gtc\\Graph(name: 'g')]\n"
                        "function g(#[Gtc\\Input('float32', [4, 3])] CudaArray $x, #[Gtc\\Input('int32', [5])] CudaArray $i,\n"
                        "           #[Gtc\\Input('float32', [4, 5])] CudaArray $u): array {\n"
                        "    $e = $x->gather($i);\n    $f = $x->gather($i, axis: -1);\n"
                        "    $s = $x->scatterAdd($i, $u, 1);\n    return ['e' => $e, 'f' => $f, 's' => $s];\n}\n");
    assert_non_null(g);
    const Node *e = &g->nodes[graph_find(g, "e")], *f = &g->nodes[graph_find(g, "f")], *s = &g->nodes[graph_find(g, "s")];
    assert_int_equal(e->op, OP_GATHER);
    assert_int_equal(e->attrs.axis, 0);
    assert_true(e->type.rank == 2 && e->type.dims[0] == 5 && e->type.dims[1] == 3);
    assert_true(f->attrs.axis == -1 && f->type.dims[0] == 4 && f->type.dims[1] == 5);
    assert_true(s->op == OP_SCATTER_ADD && s->attrs.axis == 1 && s->ninputs == 3);
    graph_free(g);
    g = read_php(HEAD "    $y = $x->concat([$b->reshape([1, 3]), $x * 2], axis: 0);\n"
                      "    $z = $x->concat(tensors: [], axis: -1);\n    return ['y' => $y, 'z' => $z];\n}\n");
    assert_non_null(g);
    const Node *y = &g->nodes[graph_find(g, "y")];
    assert_true(y->op == OP_CONCAT && y->ninputs == 3 && y->type.dims[0] == 9 && y->type.dims[1] == 3);
    assert_int_equal(g->nodes[graph_find(g, "z")].attrs.axis, -1);
    graph_free(g);
    g = read_php(HEAD "    $y = $x->pad([1, 0, 0, 2], value: -1.5);\n    return $y;\n}\n");
    assert_non_null(g);
    y = &g->nodes[graph_find(g, "y")];
    assert_true(y->op == OP_PAD && y->attrs.npads == 4 && y->attrs.value == -1.5 && y->type.dims[0] == 5 && y->type.dims[1] == 5);
    graph_free(g);
}

/* composites become their primitives (ir/composite.c), the last one named by the assignment;
 * dropout takes its seed as a tensor */
TEST(frontend_php_read__composites_and_dropout__expanded) {
    Graph *g = read_php(HEAD "    $s = $x->softmax(axis: 0);\n    $l = $x->layerNorm($b, 0.5, epsilon: 0.01);\n"
                             "    $y = $l->gelu(approximate: 'tanh') + $s->logSoftmax();\n    return $y;\n}\n");
    assert_non_null(g);
    for (int i = 0; i < g->nnodes; i++) assert_true(ir_ops[g->nodes[i].op].kind != K_COMPOSITE);
    const Node *s = &g->nodes[graph_find(g, "s")], *l = &g->nodes[graph_find(g, "l")];
    assert_true(s->op == OP_DIV && s->type.rank == 2);
    assert_true(l->op == OP_ADD && l->in[1].id < 0 && l->in[1].value == 0.5);
    NodeId mx = graph_find(g, "s_1__max"), ve = graph_find(g, "l_1__var_eps");
    assert_true(mx >= 0 && g->nodes[mx].attrs.axes[0] == 0);
    assert_true(ve >= 0 && g->nodes[ve].in[1].value == 0.01);
    graph_free(g);
    g = read_php("<?php\nuse Cuda\\CudaArray;\n#[Gtc\\Graph(name: 'g')]\nfunction g(#[Gtc\\Input('float32', [4, 3])] CudaArray $x, "
                 "#[Gtc\\Input('int64', [])] CudaArray $seed, #[Gtc\\Input('int32', [4])] CudaArray $t): array {\n"
                 "    $y = $x->dropout(0.25, $seed);\n    $loss = $y->crossEntropy($t);\n    return ['y' => $y, 'loss' => $loss];\n}\n");
    assert_non_null(g);
    const Node *y = &g->nodes[graph_find(g, "y")], *loss = &g->nodes[graph_find(g, "loss")];
    assert_true(y->op == OP_DROPOUT && y->attrs.ratio == 0.25 && y->in[1].id == graph_find(g, "seed"));
    assert_true(loss->op == OP_NEG && loss->type.rank == 0);
    graph_free(g);
}

/* conv2d/maxPool2d/avgPool2d as the runtime's methods: the same primitives as the JSON ops */
TEST(frontend_php_read__conv_pool__same_primitives_as_json) {
    Graph *a = read_php("<?php\nuse Cuda\\CudaArray;\n#[Gtc\\Graph(name: 'g')]\n"
                        "function g(#[Gtc\\Input('float32', [2, 4, 9, 8])] CudaArray $x, #[Gtc\\Input('float32', [6, 2, 3, 2])] "
                        "CudaArray $w, #[Gtc\\Input('float32', [6])] CudaArray $b): array {\n"
                        "    $c = $x->conv2d($w, $b, [2, 1], pads: [1, 0, 1, 1], dilations: [1, 2], group: 2);\n"
                        "    $m = $c->maxPool2d([2, 2], strides: [2, 2], pads: [1, 0, 0, 1]);\n"
                        "    $v = $c->avgPool2d([3, 2], [1, 1], [1, 1, 1, 1], countIncludePad: false);\n"
                        "    $u = $x->conv2d($w, null, group: 2);\n"
                        "    return ['m' => $m, 'v' => $v, 'u' => $u];\n}\n");
    if (!a) fail_msg("%s", d.msg);
    Diag dj;
    diag_init(&dj, "g.json");
    const char *json =
        "{\"format\": \"gtc-graph\", \"version\": 1, \"name\": \"g\", \"inputs\": ["
        "{\"name\": \"x\", \"dtype\": \"float32\", \"shape\": [2, 4, 9, 8]}, {\"name\": \"w\", \"dtype\": \"float32\", \"shape\": [6, 2, 3, 2]},"
        "{\"name\": \"b\", \"dtype\": \"float32\", \"shape\": [6]}], \"nodes\": ["
        "{\"name\": \"c\", \"op\": \"conv2d\", \"inputs\": [\"x\", \"w\", \"b\"], \"strides\": [2, 1], \"pads\": [1, 0, 1, 1], \"dilations\": [1, 2], \"group\": 2},"
        "{\"name\": \"m\", \"op\": \"max_pool2d\", \"inputs\": [\"c\"], \"kernel_shape\": [2, 2], \"strides\": [2, 2], \"pads\": [1, 0, 0, 1]},"
        "{\"name\": \"v\", \"op\": \"avg_pool2d\", \"inputs\": [\"c\"], \"kernel_shape\": [3, 2], \"strides\": [1, 1], \"pads\": [1, 1, 1, 1]},"
        "{\"name\": \"u\", \"op\": \"conv2d\", \"inputs\": [\"x\", \"w\"], \"group\": 2}],"
        "\"outputs\": {\"m\": \"m\", \"v\": \"v\", \"u\": \"u\"}}";
    Graph *b = ir_read_json(json, strlen(json), &dj);
    if (!b) fail_msg("%s", dj.msg);
    assert_int_equal(a->nnodes, b->nnodes);
    for (int i = 0; i < a->nnodes; i++) {
        assert_int_equal(a->nodes[i].op, b->nodes[i].op);
        assert_true(ir_type_equal(&a->nodes[i].type, &b->nodes[i].type));
    }
    const Node *m = &a->nodes[graph_find(a, "m")];
    assert_true(m->op == OP_MAXIMUM && m->type.rank == 4 && m->type.dims[1] == 6);
    graph_free(a);
    graph_free(b);
    static const struct { const char *line, *msg; } bad[] = {
        {"    $y = $x->conv2d($w, strides: [0, 1]);\n", "g.php:5:35: ->conv2d(): $strides[0] must be an integer from 1 to 2147483647"},
        {"    $y = $x->conv2d($w, pads: [1, 1]);\n", "g.php:5:31: ->conv2d(): $pads must be a list of 4 integers"},
        {"    $y = $x->conv2d($w, group: 3);\n", "g.php:5:14: ->conv2d(): x's 4 channels and w's 6 filters must both be divisible by group 3"},
        {"    $y = $x->maxPool2d([4, 4], pads: [4, 0, 0, 0]);\n",
         "g.php:5:14: ->maxPool2d(): pads must be smaller than the kernel (a window of padding only has no value), got 4 and 0 for a kernel height of 4"},
        {"    $y = $x->avgPool2d([2, 2], countIncludePad: 1);\n", "g.php:5:49: ->avgPool2d(): $countIncludePad must be true or false"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char buf[1024];
        snprintf(buf, sizeof buf, "<?php\nuse Cuda\\CudaArray;\n#[Gtc\\Graph(name: 'g')]\n"
                 "function g(#[Gtc\\Input('float32', [2, 4, 9, 8])] CudaArray $x, #[Gtc\\Input('float32', [6, 2, 3, 2])] CudaArray $w): array {\n"
                 "%s    return ['y' => $y];\n}\n", bad[i].line);
        Graph *g = read_php(buf);
        if (g) fail_msg("accepted: %s", bad[i].line);
        if (!strstr(d.msg, bad[i].msg)) fail_msg("got \"%s\", want \"%s\"", d.msg, bad[i].msg);
    }
}

TEST(frontend_php_read__constants__folded) {
    Graph *g = read_php(HEAD "    $k = -(2 ** 2) / 8 + 1;\n    $y = $x * $k;\n    return $y;\n}\n");
    assert_non_null(g);
    assert_int_equal(g->nnodes, 3);
    assert_true(g->nodes[2].in[1].id < 0 && g->nodes[2].in[1].value == 0.5);
    graph_free(g);
}

TEST(frontend_php_read__errors__file_line_column) {
    static const ErrCase cases[] = {
        {"    for (;;) {}\n", "g.php:5:5: loops are not supported in a graph function: a graph is straight-line code; "
                                "write each step as its own assignment"},
        {"    $y = $z;\n", "g.php:5:10: $z is used before it is assigned: a graph function's values are its "
                           "parameters and the variables assigned above"},
        {"    $y = $x->foo();\n", "g.php:5:14: unknown method ->foo(): a graph function calls the CudaArray methods "
                                  "that are graph ops (docs/php-graphs.md lists them)"},
        {"    $y = $x->sum(1, axis: 2);\n", "g.php:5:21: argument $axis is given twice"},
        {"    $y = $x + $b;\n    $y = $y;\n", "g.php:6:5: $y is already assigned (at 5:5): each variable is assigned "
                                             "once, since it names the graph value; use a new name"},
        {"    $y = $x->matmul($x);\n", "g.php:5:14: \"y\" (matmul): inner dimensions differ: [4,3] x [4,3]"},
        /* a NUL would end the C string early: "int32\0x" read as int32 */
        {"    $y = $x->astype(\"int32\\0x\");\n",
         "g.php:5:21: a string in a graph file cannot hold a NUL byte (\\0); names and dtypes are plain text"},
        {"    $y = $x * 1e400;\n", "g.php:5:15: 1e400 is not a finite number: graph constants are finite"},
        {"    $y = $x->gather($x);\n", "g.php:5:14: \"y\" (gather): indices must be int32 or int64, got float32"},
        {"    $y = $x->gather($b, [0, 1]);\n", "g.php:5:25: ->gather(): $axis must be one integer"},
        {"    $y = $x->concat([$x, 2]);\n", "g.php:5:26: ->concat(): $tensors must hold CudaArrays, got a number"},
        {"    $y = $x->pad([1, -1, 0, 0]);\n", "g.php:5:22: ->pad(): $pads[1] must be an integer from 0 to 2^31-1"},
        {"    $y = $x->pad([1, 1]);\n", "g.php:5:14: \"y\" (pad): \"pads\" has 2 entries for rank 2 (all begins, then all ends: 4) (input shape [4,3])"},
        {"    $y = $x->softmax(axis: 2);\n", "g.php:5:14: ->softmax(): axis 2 is out of range for rank 2"},
        {"    $y = $x->layerNorm($x, 0);\n", "g.php:5:14: ->layerNorm(): scale must have shape [3] (x's shape from axis 1), got [4,3]"},
        {"    $y = $x->layerNorm($b, 0, epsilon: -1);\n", "g.php:5:40: ->layerNorm(): $epsilon must be a number >= 0"},
        {"    $y = $x->gelu('fast');\n", "g.php:5:19: ->gelu(): $approximate must be 'none' or 'tanh'"},
        {"    $y = $x->crossEntropy(2);\n", "g.php:5:27: ->crossEntropy(): $target must be a CudaArray, got a number"},
        {"    $y = $x->dropout(1, $b);\n", "g.php:5:22: ->dropout(): $ratio must be a number at least 0 and less than 1"},
        {"    $y = $x->dropout(0.5, $b);\n", "g.php:5:14: \"y\" (dropout): seed must be a rank-0 int64 tensor (a new one each step), got float32 [3]"},
        {"    $y = $x->concat([$b]);\n", "g.php:5:14: \"y\" (concat): input 1 has shape [3], which does not match input 0's [4,3] outside axis 0"},
    };
    expect_errors(cases, sizeof cases / sizeof *cases);
}

TEST(frontend_php_read__function_choice) {
    const char *src = HEAD "    return $x;\n}\n#[Gtc\\Graph]\nfunction h(#[Gtc\\Input('int32', [])] $n) { return $n->neg(); }\n";
    diag_init(&d, "g.php");
    assert_null(frontend_php_read(src, strlen(src), NULL, &d));
    assert_string_equal(d.msg, "g.php: 2 graph functions (g, h); pick one with --function NAME");
    diag_init(&d, "g.php");
    Graph *g = frontend_php_read(src, strlen(src), "h", &d);
    assert_non_null(g);
    assert_string_equal(g->name, "h");
    assert_string_equal(g->outputs[0].name, "result");
    graph_free(g);
}

TEST(frontend_php_read__train_attribute__json_train_section) {
    Graph *g = read_php("<?php\nuse Cuda\\CudaArray;\n#[Gtc\\Graph(name: 'g')]\n"
                        "#[Gtc\\Train(loss: 'l', params: ['w'], optimizer: ['type' => 'sgd', 'lr' => 0.5])]\n"
                        "function g(#[Gtc\\Input('float32', [4, 3])] CudaArray $x, #[Gtc\\Input('float32', [3])] CudaArray $w) {\n"
                        "    $l = ($x * $w)->sum();\n    return ['l' => $l];\n}\n");
    assert_non_null(g);
    assert_non_null(g->train);
    assert_int_equal(g->train->nparams, 1);
    assert_string_equal(g->nodes[g->train->params[0]].name, "w");
    assert_true(g->train->lr == 0.5);
    assert_string_equal(g->nodes[graph_find(g, "l")].loc, "6:21"); /* locations survive: ->sum */
    graph_free(g);
}

/* #[Gtc\Train] goes through the JSON reader's train rules (ir_read_train): each rule's message,
 * placed at the attribute, from the name lookups, the optimizer's options and the typed checks;
 * a second attribute is refused. Every message here is the one the JSON round trip gave. */
TEST(frontend_php_read__train_attribute__errors) {
    static const struct {
        const char *attr, *msg;
    } cases[] = {
        {"loss: 'zz', params: ['w'], optimizer: ['type' => 'sgd', 'lr' => 0.1]",
         "train.loss: \"zz\" names no input or node"},
        {"loss: 'l', params: [], optimizer: ['type' => 'sgd', 'lr' => 0.1]",
         "train.params: is empty: name at least one input to train"},
        {"loss: 'l', params: ['w', 'w'], optimizer: ['type' => 'sgd', 'lr' => 0.1]",
         "train.params[1]: \"w\" is listed twice"},
        {"loss: 'l', params: ['a' => 'w'], optimizer: ['type' => 'sgd', 'lr' => 0.1]",
         "train.params: must be a list of value names, got an object"},
        {"loss: 'l', params: ['w'], optimizer: ['type' => 'sgd', 'lr' => 0.1], stop_gradient: ['q']",
         "train.stop_gradient[0]: \"q\" names no input or node"},
        {"loss: 'l', params: ['w'], optimizer: ['sgd', 0.1]", "train.optimizer: must be an object, got a list"},
        {"loss: 'l', params: ['w'], optimizer: ['type' => 'sgd', 'lr' => 0.1, 'beta1' => 0.9]",
         "train.optimizer: unknown option \"beta1\" (sgd takes \"lr\", \"momentum\", \"weight_decay\", "
         "\"clip_value\", \"clip_norm\")"},
        {"loss: 'l', params: ['w'], optimizer: ['type' => 'sgd', 'lr' => 0.1, 'lr' => 0.2]",
         "train.optimizer: option \"lr\" appears twice"},
        {"loss: 'l', params: ['w'], optimizer: ['type' => 'sgd', 'lr' => -1]",
         "train.optimizer.lr: must name a rank-0 input or be a number >= 0, got -1"},
        {"loss: 'l', params: ['w'], optimizer: ['type' => 'adamw', 'lr' => 0.1, 'beta1' => 2]",
         "train.optimizer.beta1: must be a number >= 0 and <= 1, got 2"},
        {"loss: 'y', params: ['w'], optimizer: ['type' => 'sgd', 'lr' => 0.1]",
         "train.loss: \"y\" must be a scalar (shape []), got float32 [4]"},
        {"loss: 'l', params: ['y'], optimizer: ['type' => 'sgd', 'lr' => 0.1]",
         "train.params[0]: \"y\" is not an input (a matmul node); parameters are inputs that the step updates"},
        {"loss: 'l', params: ['w'], optimizer: ['type' => 'sgd', 'lr' => 'x']",
         "train.optimizer.lr: \"x\" must be a rank-0 float input (a runtime learning rate), got input float32 [4,3]"},
        {"loss: 'l', params: ['w'], optimizer: ['type' => 'sgd', 'lr' => 0.1])]\n"
         "#[Gtc\\Train(loss: 'l', params: ['w'], optimizer: ['type' => 'sgd', 'lr' => 0.1]",
         "top-level key \"train\" appears twice"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char src[1024], want[512];
        snprintf(src, sizeof src,
                 "<?php\nuse Cuda\\CudaArray;\n#[Gtc\\Graph(name: 'g')]\n#[Gtc\\Train(%s)]\n"
                 "function g(#[Gtc\\Input('float32', [4, 3])] CudaArray $x, #[Gtc\\Input('float32', [3])] CudaArray $w) {\n"
                 "    $y = $x->matmul($w);\n    $l = $y->sum();\n    return ['y' => $y, 'l' => $l];\n}\n",
                 cases[i].attr);
        Graph *g = read_php(src);
        assert_null(g);
        snprintf(want, sizeof want, "g.php:%d:3: #[Gtc\\Train]: %s", strchr(cases[i].attr, '\n') ? 5 : 4, cases[i].msg);
        assert_string_equal(d.msg, want);
    }
}

/* Nesting that recursion would follow (parentheses, unary minus, `**`, lists) is bounded. */
TEST(frontend_php_read__deep_nesting__diagnostic_not_overflow) {
    static const char *const unit[] = {"(", "- ", "$x ** ", NULL};
    for (int k = 0; unit[k]; k++) {
        size_t n = strlen(unit[k]), cap = 100000 * n + 256;
        char *src = malloc(cap);
        assert_non_null(src);
        size_t o = (size_t)snprintf(src, cap, HEAD "    $y = ");
        for (int i = 0; i < 100000; i++) memcpy(src + o, unit[k], n), o += n;
        snprintf(src + o, cap - o, "$x;\n    return $y;\n}\n");
        assert_null(read_php(src));
        assert_non_null(strstr(d.msg, "nested more than 200 levels deep"));
        free(src);
    }
    char *src = malloc(200100);
    assert_non_null(src);
    size_t o = (size_t)snprintf(src, 100, "<?php\n#[Gtc\\Graph(");
    for (int i = 0; i < 100000; i++) src[o++] = '[';
    src[o] = 0;
    assert_null(read_php(src));
    assert_string_equal(d.msg, "g.php:2:213: list is nested more than 200 levels deep");
    free(src);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(php_lex__small_program__tokens_and_positions),
        cmocka_unit_test(php_lex__interpolation_and_errors__flagged),
        cmocka_unit_test(php_lex__random_bytes__survives),
        cmocka_unit_test(frontend_php_read__every_truncation_and_byte_flip__survives),
        cmocka_unit_test(frontend_php_read__train_step__same_as_json),
        cmocka_unit_test(frontend_php_read__nested_expression__temporaries_named_after_variable),
        cmocka_unit_test(frontend_php_read__named_and_positional_arguments__attributes),
        cmocka_unit_test(frontend_php_read__where_condition_not_bool__cast_to_bool),
        cmocka_unit_test(frontend_php_read__one_hot__depth_and_dtype),
        cmocka_unit_test(frontend_php_read__slice__per_axis_selectors_and_named_onnx_form),
        cmocka_unit_test(frontend_php_read__slice_and_astype__bad_input),
        cmocka_unit_test(frontend_php_read__gather_scatter_add__axis_and_operands),
        cmocka_unit_test(frontend_php_read__composites_and_dropout__expanded),
        cmocka_unit_test(frontend_php_read__conv_pool__same_primitives_as_json),
        cmocka_unit_test(frontend_php_read__constants__folded),
        cmocka_unit_test(frontend_php_read__errors__file_line_column),
        cmocka_unit_test(frontend_php_read__function_choice),
        cmocka_unit_test(frontend_php_read__deep_nesting__diagnostic_not_overflow),
        cmocka_unit_test(frontend_php_read__train_attribute__json_train_section),
        cmocka_unit_test(frontend_php_read__train_attribute__errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
