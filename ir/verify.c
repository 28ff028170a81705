/* ir/verify.c: the verifier. Checks what the graph format promises (identifiers, unique names,
 * arity, operands defined before use, outputs and donations that make sense) and infers every
 * node's type, so later passes may assume a well-formed, typed graph. */
#include <stdlib.h>
#include <string.h>

#include "ir.h"

int ir_verify_node(Graph *g, NodeId id, Diag *d) {
    Node *n = &g->nodes[id];
    const OpInfo *info = &ir_ops[n->op];
    char err[512];
    if ((unsigned)n->op >= OP_COUNT) return diag_at(d, n->loc, "unknown op"), -1;
    if (n->op == OP_INPUT) {
        if (ir_check_type(&n->type, err, sizeof err)) return diag_node(d, n, "%s", err), -1;
        return 0;
    }
    if (!ir_arity_ok(n->op, n->ninputs, "input", err, sizeof err)) return diag_node(d, n, "%s", err), -1;
    TensorType in[IR_MAX_INPUTS];
    for (int i = 0; i < n->ninputs; i++) {
        NodeId o = n->in[i].id;
        if (o >= id || o < -1) return diag_node(d, n, "input %d is not defined before use (cycle?)", i), -1;
        in[i] = graph_operand_type(g, &n->in[i]);
    }
    if (ir_infer_op(n->op, in, n->ninputs, &n->attrs, &n->type, err, sizeof err)) {
        /* Errors about axes, perm or slices name a rank; the operand's shape says more. */
        char shape[256];
        if (n->ninputs == 1 && info->kind != K_ELEMWISE && !strchr(err, '['))
            return diag_node(d, n, "%s (input shape %s)", err, ir_shape_str(&in[0], shape, sizeof shape)), -1;
        return diag_node(d, n, "%s", err), -1;
    }
    return 0;
}

int ir_verify(Graph *g, Diag *d) {
    if (!ir_is_identifier(g->name))
        return diag_at(d, "name", "graph name \"%.64s\" is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most %d characters)", g->name,
                       IR_MAX_NAME), -1;
    NameMap names;
    namemap_init(&names);
    int rc = 0, ninputs = 0;
    for (NodeId i = 0; i < g->nnodes && !rc; i++) {
        Node *n = &g->nodes[i];
        if (!ir_is_identifier(n->name)) {
            diag_at(d, n->loc, "name \"%.64s\" is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most %d characters)",
                    n->name, IR_MAX_NAME);
            rc = -1;
        } else if (namemap_get(&names, n->name) >= 0) {
            diag_node(d, n, "name is already defined at %s", g->nodes[namemap_get(&names, n->name)].loc);
            rc = -1;
        } else {
            namemap_put(&names, n->name, i);
            if (n->op == OP_INPUT) n->input_index = ninputs++;
            rc = ir_verify_node(g, i, d);
        }
    }
    g->ninputs = ninputs;
    if (!rc && g->noutputs == 0) diag_at(d, "outputs", "graph has no outputs"), rc = -1;
    NameMap outs;
    namemap_init(&outs);
    for (int i = 0; i < g->noutputs && !rc; i++) {
        Output *o = &g->outputs[i];
        char loc[160];
        snprintf(loc, sizeof loc, "outputs.%.100s", ir_is_identifier(o->name) ? o->name : "?");
        if (!ir_is_identifier(o->name))
            diag_at(d, "outputs", "output name \"%.64s\" is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most %d characters)", o->name,
                    IR_MAX_NAME), rc = -1;
        else if (namemap_get(&outs, o->name) >= 0)
            diag_at(d, loc, "output is named twice"), rc = -1;
        else if (o->value < 0 || o->value >= g->nnodes)
            diag_at(d, loc, "names no value"), rc = -1;
        else
            namemap_put(&outs, o->name, i);
    }
    unsigned char *taken = calloc((size_t)g->nnodes + 1, 1); /* 1: input donated, 2: value served */
    if (!taken) abort();
    for (int i = 0; i < g->ndonations && !rc; i++) {
        Donation *dn = &g->donations[i];
        if (dn->value < 0 || dn->value >= g->nnodes || dn->input < 0 || dn->input >= g->nnodes) {
            diag_at(d, "donate", "names no value"), rc = -1;
            break;
        }
        const Node *v = &g->nodes[dn->value], *in = &g->nodes[dn->input];
        char loc[160], sv[256], si[256];
        snprintf(loc, sizeof loc, "donate.%s", v->name);
        bool named = false;
        for (int j = 0; j < g->noutputs; j++) named = named || g->outputs[j].value == dn->value;
        if (!named) diag_at(d, loc, "\"%s\" is not named by any output", v->name), rc = -1;
        else if (v->op == OP_INPUT) diag_at(d, loc, "\"%s\" is an input; only computed values can take a donated buffer", v->name), rc = -1;
        else if (in->op != OP_INPUT) diag_at(d, loc, "\"%s\" is not an input", in->name), rc = -1;
        else if (!ir_type_equal(&v->type, &in->type) || memcmp(v->type.sym, in->type.sym, sizeof v->type.sym))
            diag_at(d, loc, "%s %s cannot reuse input \"%s\" of %s %s", ir_dtype_name(v->type.dtype),
                    ir_shape_str(&v->type, sv, sizeof sv), in->name, ir_dtype_name(in->type.dtype),
                    ir_shape_str(&in->type, si, sizeof si)), rc = -1;
        else if (taken[dn->input] & 1) diag_at(d, loc, "input \"%s\" is donated twice", in->name), rc = -1;
        else if (taken[dn->value] & 2) diag_at(d, loc, "\"%s\" takes two donated buffers", v->name), rc = -1;
        taken[dn->input] |= 1;
        taken[dn->value] |= 2;
    }
    for (int i = 0; i < g->noutputs && !rc; i++) /* a donated input is overwritten: not an output */
        if (taken[g->outputs[i].value] & 1)
            diag_at(d, "outputs", "output \"%s\" names input \"%s\", whose buffer is donated",
                    g->outputs[i].name, g->nodes[g->outputs[i].value].name), rc = -1;
    free(taken);
    namemap_free(&outs);
    namemap_free(&names);
    return rc;
}
