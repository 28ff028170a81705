/* ir/json_write.c: writes a graph as canonical v1 JSON (fixed key order, attributes only where
 * the op takes them), so that writing twice gives identical bytes and reading back gives an
 * equivalent graph. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>

#include "ir.h"

/* A number as ir_fmt_number writes it: cJSON prints 15 significant digits when they come
 * within a relative epsilon, which does not read back as the same double (0.30000000000000004
 * became 0.3), so graphs would change on a round trip. */
static cJSON *number(double v) {
    char buf[40];
    if (!isfinite(v)) return cJSON_CreateNull(); /* as cJSON writes them; no reader takes them */
    return cJSON_CreateRaw(ir_fmt_number(v, buf, sizeof buf));
}

static cJSON *int_list(const int64_t *v, int n) {
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < n; i++) cJSON_AddItemToArray(a, number((double)v[i]));
    return a;
}

static cJSON *small_list(const int *v, int n) {
    int64_t tmp[IR_MAX_RANK];
    for (int i = 0; i < n; i++) tmp[i] = v[i];
    return int_list(tmp, n);
}

/* A shape attribute with each symbolic axis (Attrs.shape_sym) by its name. */
static cJSON *shape_list(const Graph *g, const Attrs *a) {
    cJSON *l = int_list(a->shape, a->nshape);
    for (int k = 0; k < a->nshape; k++)
        if (a->shape_sym[k] && a->shape_sym[k] <= g->nsyms)
            cJSON_ReplaceItemInArray(l, k, cJSON_CreateString(g->syms[a->shape_sym[k] - 1].name));
    return l;
}

static void write_attrs(cJSON *j, const Graph *g, const Node *n) {
    const Attrs *a = &n->attrs;
    if (ir_ops[n->op].kind == K_REDUCE) {
        if (a->has_axes) cJSON_AddItemToObject(j, "axes", small_list(a->axes, a->naxes));
        if (a->keepdims) cJSON_AddTrueToObject(j, "keepdims");
        return;
    }
    switch (n->op) {
    case OP_TRANSPOSE:
        if (a->nperm) cJSON_AddItemToObject(j, "perm", small_list(a->perm, a->nperm));
        break;
    case OP_RESHAPE: case OP_BROADCAST_TO:
        cJSON_AddItemToObject(j, "shape", shape_list(g, a));
        break;
    case OP_SLICE:
        cJSON_AddItemToObject(j, "starts", int_list(a->starts, a->nslice));
        cJSON_AddItemToObject(j, "ends", int_list(a->ends, a->nslice));
        if (a->has_axes) cJSON_AddItemToObject(j, "axes", small_list(a->axes, a->naxes));
        if (a->has_steps) cJSON_AddItemToObject(j, "steps", int_list(a->steps, a->nslice));
        break;
    case OP_CAST: cJSON_AddStringToObject(j, "dtype", ir_dtype_name(a->dtype)); break;
    case OP_FULL:
        cJSON_AddItemToObject(j, "shape", shape_list(g, a));
        cJSON_AddItemToObject(j, "value", number(a->value));
        if (a->has_dtype) cJSON_AddStringToObject(j, "dtype", ir_dtype_name(a->dtype));
        break;
    case OP_GATHER: case OP_SCATTER_ADD: case OP_CONCAT: cJSON_AddItemToObject(j, "axis", number(a->axis)); break;
    case OP_PAD:
        cJSON_AddItemToObject(j, "pads", int_list(a->pads, a->npads));
        cJSON_AddItemToObject(j, "value", number(a->value));
        break;
    case OP_DROPOUT: cJSON_AddItemToObject(j, "ratio", number(a->ratio)); break;
    case OP_ONE_HOT:
        cJSON_AddItemToObject(j, "depth", number((double)a->depth));
        if (a->has_dtype) cJSON_AddStringToObject(j, "dtype", ir_dtype_name(a->dtype));
        break;
    default: break;
    }
}

/* The "train" section, every optimizer option written out (defaults included). */
static void write_train(cJSON *root, const Graph *g, const Train *t) {
    cJSON *j = cJSON_AddObjectToObject(root, "train");
    cJSON_AddStringToObject(j, "loss", g->nodes[t->loss].name);
    cJSON *ps = cJSON_AddArrayToObject(j, "params");
    for (int i = 0; i < t->nparams; i++) cJSON_AddItemToArray(ps, cJSON_CreateString(g->nodes[t->params[i]].name));
    if (t->nstop) {
        cJSON *st = cJSON_AddArrayToObject(j, "stop_gradient");
        for (int i = 0; i < t->nstop; i++) cJSON_AddItemToArray(st, cJSON_CreateString(g->nodes[t->stop[i]].name));
    }
    cJSON *o = cJSON_AddObjectToObject(j, "optimizer");
    cJSON_AddStringToObject(o, "type", t->opt == OPT_SGD ? "sgd" : "adamw");
    if (t->lr_name) cJSON_AddStringToObject(o, "lr", t->lr_name);
    else cJSON_AddItemToObject(o, "lr", number(t->lr));
    if (t->opt == OPT_SGD) {
        cJSON_AddItemToObject(o, "momentum", number(t->momentum));
        cJSON_AddItemToObject(o, "weight_decay", number(t->weight_decay));
        if (t->clip_value > 0) cJSON_AddItemToObject(o, "clip_value", number(t->clip_value));
        if (t->clip_norm > 0) cJSON_AddItemToObject(o, "clip_norm", number(t->clip_norm));
    } else {
        cJSON_AddItemToObject(o, "beta1", number(t->beta1));
        cJSON_AddItemToObject(o, "beta2", number(t->beta2));
        cJSON_AddItemToObject(o, "eps", number(t->eps));
        cJSON_AddItemToObject(o, "weight_decay", number(t->weight_decay));
    }
}

char *ir_write_json(const Graph *g) {
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "format", "gtc-graph");
    cJSON_AddNumberToObject(root, "version", 1);
    cJSON_AddStringToObject(root, "name", g->name);
    if (g->nsyms) {
        cJSON *dims = cJSON_AddObjectToObject(root, "dims");
        for (int k = 0; k < g->nsyms; k++)
            cJSON_AddNumberToObject(cJSON_AddObjectToObject(dims, g->syms[k].name), "max", (double)g->syms[k].max);
    }
    cJSON *inputs = cJSON_AddArrayToObject(root, "inputs");
    cJSON *nodes = cJSON_AddArrayToObject(root, "nodes");
    for (int i = 0; i < g->nnodes; i++) {
        const Node *n = &g->nodes[i];
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "name", n->name);
        if (n->op == OP_INPUT) {
            cJSON_AddStringToObject(j, "dtype", ir_dtype_name(n->type.dtype));
            cJSON *shape = int_list(n->type.dims, n->type.rank);
            for (int k = 0; k < n->type.rank; k++) /* a symbolic axis by its name */
                if (n->type.sym[k] && n->type.sym[k] <= g->nsyms)
                    cJSON_ReplaceItemInArray(shape, k, cJSON_CreateString(g->syms[n->type.sym[k] - 1].name));
            cJSON_AddItemToObject(j, "shape", shape);
            cJSON_AddItemToArray(inputs, j);
            continue;
        }
        cJSON_AddStringToObject(j, "op", ir_ops[n->op].name);
        cJSON *ins = cJSON_AddArrayToObject(j, "inputs");
        for (int k = 0; k < n->ninputs; k++)
            cJSON_AddItemToArray(ins, n->in[k].id >= 0 ? cJSON_CreateString(g->nodes[n->in[k].id].name)
                                                       : number(n->in[k].value));
        write_attrs(j, g, n);
        cJSON_AddItemToArray(nodes, j);
    }
    cJSON *outs = cJSON_AddObjectToObject(root, "outputs");
    for (int i = 0; i < g->noutputs; i++)
        cJSON_AddStringToObject(outs, g->outputs[i].name, g->nodes[g->outputs[i].value].name);
    if (g->ndonations) {
        cJSON *don = cJSON_AddObjectToObject(root, "donate");
        for (int i = 0; i < g->ndonations; i++)
            cJSON_AddStringToObject(don, g->nodes[g->donations[i].value].name,
                                    g->nodes[g->donations[i].input].name);
    }
    if (g->train) write_train(root, g, g->train);
    char *s = cJSON_Print(root);
    cJSON_Delete(root);
    return s;
}
