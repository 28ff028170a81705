/* ir/graph.c: graph construction and lookup, identifiers, and diagnostics. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
    if (g->plan && g->free_plan) g->free_plan(g->plan);
    for (int i = 0; i < g->nnodes; i++) free(g->nodes[i].name);
    for (int i = 0; i < g->noutputs; i++) free(g->outputs[i].name);
    free(g->nodes);
    free(g->outputs);
    free(g->donations);
    free(g->name);
    train_free(g->train);
    for (int k = 0; k < g->nsyms; k++) free(g->syms[k].name);
    free(g);
}

void graph_copy_syms(Graph *dst, const Graph *src) {
    for (int k = 0; k < dst->nsyms; k++) free(dst->syms[k].name);
    dst->nsyms = src->nsyms;
    for (int k = 0; k < src->nsyms; k++) {
        dst->syms[k] = src->syms[k];
        if (!(dst->syms[k].name = strdup(src->syms[k].name))) abort();
    }
}

void train_free(Train *t) {
    if (!t) return;
    free(t->params);
    free(t->stop);
    free(t->lr_name);
    free(t->no_decay);
    free(t);
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

void graph_add_output(Graph *g, const char *name, NodeId v) {
    Output *o = realloc(g->outputs, ((size_t)g->noutputs + 1) * sizeof *g->outputs);
    char *nm = strdup(name);
    if (!o || !nm) abort();
    g->outputs = o;
    g->outputs[g->noutputs].name = nm;
    g->outputs[g->noutputs++].value = v;
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
    /* Integral and within int64's range (checked first: converting a double outside it is
     * undefined) is an int constant; anything else, 1e20 included, a float one. */
    double v = o->value;
    bool integral = v >= -9223372036854775808.0 && v < 9223372036854775808.0 && v == (double)(int64_t)v;
    t.dtype = integral ? DT_INT64 : DT_FLOAT32;
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

/* Formats the first error. Names and strings in it come from the graph file, so control and
 * invisible format characters are shown escaped ("\x1b", "\u202e") and never reach a terminal
 * as they are. */
static void diag_vadd(Diag *d, const char *prefix, const char *fmt, va_list ap) {
    if (d->nerrors++) return;
    char raw[sizeof d->msg];
    int k = snprintf(raw, sizeof raw, "%s: %s", d->file ? d->file : "<input>", prefix);
    if (k >= 0 && (size_t)k < sizeof raw) vsnprintf(raw + k, sizeof raw - (size_t)k, fmt, ap);
    ir_escape_invisible(raw, d->msg, sizeof d->msg, false);
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
    /* Integers below 2^53 print as integers: "480", not the shorter "4.8e+02". */
    if (v > -9007199254740992.0 && v < 9007199254740992.0 && v == (double)(int64_t)v) {
        snprintf(buf, n, "%.0f", v);
        return buf;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, v);
        if (strtod(buf, NULL) == v) return buf;
    }
    return buf;
}

char *ir_read_file(const char *path, size_t *len, Diag *d) {
    /* O_NONBLOCK: opening a FIFO must not wait for a writer; it is then refused below */
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
    if (!f) {
        diag_at(d, NULL, "cannot open: %s", strerror(errno));
        if (fd >= 0) close(fd);
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
        fclose(f);
        diag_at(d, NULL, "not a regular file");
        return NULL;
    }
    if ((size_t)st.st_size > IR_MAX_FILE_BYTES) {
        fclose(f);
        diag_at(d, NULL, "file is larger than %zu MiB", IR_MAX_FILE_BYTES >> 20);
        return NULL;
    }
    char *buf = malloc((size_t)st.st_size + 1);
    if (!buf) abort();
    *len = fread(buf, 1, (size_t)st.st_size, f);
    fclose(f);
    buf[*len] = 0;
    return buf;
}
