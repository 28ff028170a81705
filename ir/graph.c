/* ir/graph.c: graph construction and lookup, identifiers, and diagnostics. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

static char *xstrdup(const char *s) {
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (!p) abort();
    return memcpy(p, s, n);
}

Graph *graph_new(const char *name) {
    Graph *g = calloc(1, sizeof *g);
    if (!g) abort();
    g->name = xstrdup(name ? name : "graph");
    return g;
}

void graph_free(Graph *g) {
    if (!g) return;
    for (int i = 0; i < g->nnodes; i++) free(g->nodes[i].name);
    for (int i = 0; i < g->noutputs; i++) free(g->outputs[i].name);
    free(g->nodes);
    free(g->outputs);
    free(g->donations);
    free(g->name);
    free(g);
}

NodeId graph_add(Graph *g, const char *name, Op op) {
    if (g->nnodes >= IR_MAX_NODES) return -1;
    if (g->nnodes == g->cap) {
        g->cap = g->cap ? g->cap * 2 : 16;
        g->nodes = realloc(g->nodes, (size_t)g->cap * sizeof *g->nodes);
        if (!g->nodes) abort();
    }
    Node *n = &g->nodes[g->nnodes];
    memset(n, 0, sizeof *n);
    n->name = xstrdup(name);
    n->op = op;
    n->input_index = -1;
    for (int i = 0; i < IR_MAX_INPUTS; i++) n->in[i].id = -1;
    return g->nnodes++;
}

NodeId graph_find(const Graph *g, const char *name) {
    for (int i = 0; i < g->nnodes; i++)
        if (strcmp(g->nodes[i].name, name) == 0) return i;
    return -1;
}

TensorType graph_operand_type(const Graph *g, const Operand *o) {
    if (o->id >= 0) return g->nodes[o->id].type;
    TensorType t = {0};
    t.weak = true;
    t.dtype = o->value == (double)(int64_t)o->value ? DT_INT64 : DT_FLOAT32;
    return t;
}

bool ir_is_identifier(const char *s) {
    if (!s || !*s || strlen(s) > IR_MAX_NAME) return false;
    if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_')) return false;
    for (s++; *s; s++)
        if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
              *s == '_'))
            return false;
    return true;
}

void diag_init(Diag *d, const char *file) {
    memset(d, 0, sizeof *d);
    d->file = file;
}

static void diag_vadd(Diag *d, const char *prefix, const char *fmt, va_list ap) {
    if (d->nerrors++) return;
    int k = snprintf(d->msg, sizeof d->msg, "%s: %s", d->file ? d->file : "<input>", prefix);
    if (k < 0 || (size_t)k >= sizeof d->msg) return;
    vsnprintf(d->msg + k, sizeof d->msg - (size_t)k, fmt, ap);
}

void diag_node(Diag *d, const Node *n, const char *fmt, ...) {
    char prefix[256];
    snprintf(prefix, sizeof prefix, "%s \"%s\" (%s): ", n->loc, n->name,
             n->op == OP_INPUT ? "input" : ir_ops[n->op].name);
    va_list ap;
    va_start(ap, fmt);
    diag_vadd(d, prefix, fmt, ap);
    va_end(ap);
}

void diag_at(Diag *d, const char *loc, const char *fmt, ...) {
    char prefix[128];
    snprintf(prefix, sizeof prefix, "%s%s", loc ? loc : "", loc ? ": " : "");
    va_list ap;
    va_start(ap, fmt);
    diag_vadd(d, prefix, fmt, ap);
    va_end(ap);
}

char *ir_fmt_number(double v, char *buf, size_t n) {
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, v);
        if (strtod(buf, NULL) == v) return buf;
    }
    return buf;
}
