/* ir/dump.c: the deterministic text form of a typed graph, one line per value:
 *   input x: f32[512,480]
 *   m: f32[512,1] = max a1 axes=[1] keepdims
 * Used by `gtc dump`, golden tests and after any pass. */
#include <stdio.h>

#include "ir.h"

static void dump_ints(FILE *f, const char *key, const int64_t *v, int n) {
    fprintf(f, " %s=[", key);
    for (int i = 0; i < n; i++) fprintf(f, "%s%lld", i ? "," : "", (long long)v[i]);
    fputc(']', f);
}

static void dump_attrs(FILE *f, const Node *n) {
    const Attrs *a = &n->attrs;
    int64_t tmp[IR_MAX_RANK];
    char num[40];
    switch (n->op) {
    case OP_SUM: case OP_MEAN: case OP_MAX: case OP_MIN: case OP_PROD: case OP_ARGMAX: case OP_ARGMIN:
        if (a->has_axes) {
            for (int i = 0; i < a->naxes; i++) tmp[i] = a->axes[i];
            dump_ints(f, "axes", tmp, a->naxes);
        }
        if (a->keepdims) fputs(" keepdims", f);
        break;
    case OP_TRANSPOSE:
        for (int i = 0; i < a->nperm; i++) tmp[i] = a->perm[i];
        if (a->nperm) dump_ints(f, "perm", tmp, a->nperm);
        break;
    case OP_RESHAPE: case OP_BROADCAST_TO: dump_ints(f, "shape", a->shape, a->nshape); break;
    case OP_SLICE:
        dump_ints(f, "starts", a->starts, a->nslice);
        dump_ints(f, "ends", a->ends, a->nslice);
        if (a->has_axes) {
            for (int i = 0; i < a->naxes; i++) tmp[i] = a->axes[i];
            dump_ints(f, "axes", tmp, a->naxes);
        }
        if (a->has_steps) dump_ints(f, "steps", a->steps, a->nslice);
        break;
    case OP_CAST: fprintf(f, " dtype=%s%s", ir_dtype_name(a->dtype), a->storage ? " storage" : ""); break;
    case OP_FULL:
        dump_ints(f, "shape", a->shape, a->nshape);
        fprintf(f, " value=%s dtype=%s", ir_fmt_number(a->value, num, sizeof num),
                ir_dtype_name(a->has_dtype ? a->dtype : DT_FLOAT32));
        break;
    case OP_GATHER: case OP_SCATTER_ADD: case OP_CONCAT: fprintf(f, " axis=%d", a->axis); break;
    case OP_PAD:
        dump_ints(f, "pads", a->pads, a->npads);
        fprintf(f, " value=%s", ir_fmt_number(a->value, num, sizeof num));
        break;
    case OP_DROPOUT: fprintf(f, " ratio=%s", ir_fmt_number(a->ratio, num, sizeof num)); break;
    case OP_ONE_HOT:
        fprintf(f, " depth=%lld dtype=%s", (long long)a->depth,
                ir_dtype_name(a->has_dtype ? a->dtype : DT_FLOAT32));
        break;
    default: break;
    }
}

/* (ir.h) */
char *ir_graph_shape_str(const Graph *g, const TensorType *t, char *buf, size_t n) {
    size_t k = (size_t)snprintf(buf, n, "[");
    for (int i = 0; i < t->rank && k < n; i++) {
        if (t->sym[i] && t->sym[i] <= g->nsyms) k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? "," : "", g->syms[t->sym[i] - 1].name);
        else k += (size_t)snprintf(buf + k, n - k, "%s%lld", i ? "," : "", (long long)t->dims[i]);
    }
    if (k < n) snprintf(buf + k, n - k, "]");
    return buf;
}

void ir_dump(const Graph *g, FILE *f) {
    char shape[512], num[40];
    fprintf(f, "graph %s\n", g->name);
    for (int k = 0; k < g->nsyms; k++) fprintf(f, "dim %s <= %lld\n", g->syms[k].name, (long long)g->syms[k].max);
    for (int i = 0; i < g->nnodes; i++) {
        const Node *n = &g->nodes[i];
        const TensorType *t = &n->type;
        if (n->op == OP_INPUT) {
            fprintf(f, "input %s: %s%s\n", n->name, ir_dtype_short(t->dtype), ir_graph_shape_str(g, t, shape, sizeof shape));
            continue;
        }
        fprintf(f, "%s: %s%s = %s", n->name, ir_dtype_short(t->dtype), ir_graph_shape_str(g, t, shape, sizeof shape),
                ir_ops[n->op].name);
        for (int k = 0; k < n->ninputs; k++) {
            const Operand *o = &n->in[k];
            fprintf(f, "%s %s", k ? "," : "",
                    o->id >= 0 ? g->nodes[o->id].name : ir_fmt_number(o->value, num, sizeof num));
        }
        dump_attrs(f, n);
        fputc('\n', f);
    }
    for (int i = 0; i < g->noutputs; i++) {
        const Output *o = &g->outputs[i];
        fprintf(f, "output %s = %s", o->name, g->nodes[o->value].name);
        for (int k = 0; k < g->ndonations; k++)
            if (g->donations[k].value == o->value)
                fprintf(f, " reuses %s", g->nodes[g->donations[k].input].name);
        fputc('\n', f);
    }
}
