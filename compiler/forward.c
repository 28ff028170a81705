/* compiler/forward.c: a training graph's forward function, the plan behind a model's predict():
 * the graph's own outputs from the inputs they read, without the "train" section's gradients
 * and updates (docs/graph-format.md §13), planned by the same pipeline as the training step and
 * emitted next to it under the symbol prefix "gtc_fwd". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "forward.h"

/* Whether output i is one predict() returns: every output of the graph but the training loss,
 * or the loss itself when the graph names nothing else (an evaluation: the loss on new data). */
static bool predicted(const Graph *g, int i) {
    NodeId loss = g->train->loss;
    if (g->outputs[i].value != loss) return true;
    for (int k = 0; k < g->noutputs; k++)
        if (g->outputs[k].value != loss) return false;
    return true;
}

/* Keeps only the symbolic dimensions some input of f still has (a symbol only the labels had
 * would have no input to give its size), renumbering the marks. */
static void drop_unused_syms(Graph *f) {
    unsigned char to[IR_MAX_SYMS + 1] = {0};
    int n = 0;
    for (int k = 1; k <= f->nsyms; k++) {
        bool used = false;
        for (int i = 0; i < f->nnodes; i++) used = used || (f->nodes[i].op == OP_INPUT && f->nodes[i].type.sym[0] == k);
        if (used) {
            to[k] = (unsigned char)++n;
            f->syms[n - 1] = f->syms[k - 1];
        } else {
            free(f->syms[k - 1].name);
        }
    }
    f->nsyms = n;
    for (int i = 0; i < f->nnodes; i++)
        for (int a = 0; a < IR_MAX_RANK; a++) {
            f->nodes[i].type.sym[a] = to[f->nodes[i].type.sym[a] <= IR_MAX_SYMS ? f->nodes[i].type.sym[a] : 0];
            f->nodes[i].attrs.shape_sym[a] = to[f->nodes[i].attrs.shape_sym[a] <= IR_MAX_SYMS ? f->nodes[i].attrs.shape_sym[a] : 0];
        }
}

/* Builds the forward graph: the nodes the predicted outputs depend on, in the same order (so
 * inputs keep their relative positions), with no donations and no train section. */
Graph *forward_graph(const Graph *g, Diag *d) {
    if (!g->train) {
        diag_at(d, NULL, "internal: forward_graph needs a graph with a \"train\" section");
        return NULL;
    }
    bool *live = calloc((size_t)g->nnodes + 1, sizeof *live);
    NodeId *map = malloc(((size_t)g->nnodes + 1) * sizeof *map);
    if (!live || !map) abort();
    int nout = 0;
    for (int i = 0; i < g->noutputs; i++)
        if (predicted(g, i)) live[g->outputs[i].value] = true, nout++;
    if (!nout) live[g->train->loss] = true; /* a graph with no outputs at all: its loss */
    for (int i = g->nnodes - 1; i >= 0; i--) /* topological order: readers come after */
        if (live[i])
            for (int k = 0; k < g->nodes[i].ninputs; k++)
                if (g->nodes[i].in[k].id >= 0) live[g->nodes[i].in[k].id] = true;
    Graph *f = graph_new(g->name);
    graph_copy_syms(f, g);
    for (int i = 0; i < g->nnodes; i++) {
        map[i] = -1;
        if (!live[i]) continue;
        const Node *n = &g->nodes[i];
        NodeId id = graph_add(f, n->name, n->op);
        if (id < 0) abort(); /* no more nodes than g */
        Node *m = &f->nodes[id];
        m->ninputs = n->ninputs;
        for (int k = 0; k < n->ninputs; k++)
            m->in[k] = (Operand){n->in[k].id >= 0 ? map[n->in[k].id] : -1, n->in[k].value};
        m->attrs = n->attrs;
        m->type = n->type;
        m->state = IR_STATE_NONE;
        memcpy(m->loc, n->loc, sizeof m->loc);
        map[i] = id;
    }
    for (int i = 0; i < g->noutputs; i++)
        if (predicted(g, i)) graph_add_output(f, g->outputs[i].name, map[g->outputs[i].value]);
    if (!nout) graph_add_output(f, "loss", map[g->train->loss]);
    free(live);
    free(map);
    drop_unused_syms(f);
    if (ir_verify(f, d)) {
        graph_free(f);
        return NULL;
    }
    return f;
}

/* (forward.h) */
int forward_pipeline(Graph *g, const Target *t, Graph **fwd, Diag *d) {
    *fwd = NULL;
    Graph *f = NULL;
    if (g->train && !(f = forward_graph(g, d))) return -1;
    if (f && pipeline_run(f, t, d, NULL)) {
        graph_free(f);
        return -1;
    }
    if (pipeline_run(g, t, d, NULL)) {
        if (f) graph_free(f);
        return -1;
    }
    if (f) {
        snprintf(f->plan->sym, sizeof f->plan->sym, "gtc_fwd");
        snprintf(g->plan->predict, sizeof g->plan->predict, "%s", f->plan->sym);
    }
    *fwd = f;
    return 0;
}
