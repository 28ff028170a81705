/* compiler/pass_schedule.c: orders the plan's steps. A step runs after the steps that write what
 * it reads; a step that writes a donated output into its input's buffer (w2_next over w2) runs
 * after every other step that reads that input. When that is impossible (a cycle, or the writer
 * itself reads the input other than element for element), the output is staged in the arena
 * and a COPY step at the end moves it into the donated buffer. Ties go to the smaller root node
 * id, so the order is deterministic. A data-parallel plan's gradients (Plan.dist) get their
 * STEP_ALLREDUCE steps here: buckets of consecutive gradients in the order the backward writes
 * them, each after its gradients' writers and before their readers. */
#include <stdlib.h>
#include <string.h>

#include "plan.h"

typedef struct {
    int from, to;
} Edge;

typedef struct {
    Edge *e;
    int n, cap;
} Edges;

static void add_edge(Edges *es, int from, int to) {
    if (es->n == es->cap) {
        es->cap = es->cap ? es->cap * 2 : 64;
        es->e = realloc(es->e, (size_t)es->cap * sizeof *es->e);
        if (!es->e) abort();
    }
    es->e[es->n++] = (Edge){from, to};
}

/* A topological order of ns steps under the edges (ties: smaller root id, then step index),
 * written to order; returns how many steps it placed (< ns: a cycle). */
static int toposort(const Plan *p, const Edges *es, int *order) {
    int ns = p->nsteps;
    int *indeg = calloc((size_t)ns + 1, sizeof *indeg), *off = calloc((size_t)ns + 1, sizeof *off);
    int *adj = malloc(((size_t)es->n + 1) * sizeof *adj), *fill = calloc((size_t)ns + 1, sizeof *fill);
    int *heap = malloc(((size_t)ns + 1) * sizeof *heap);
    if (!indeg || !off || !adj || !fill || !heap) abort();
    for (int i = 0; i < es->n; i++) off[es->e[i].from + 1]++, indeg[es->e[i].to]++;
    for (int i = 0; i < ns; i++) off[i + 1] += off[i];
    for (int i = 0; i < es->n; i++) adj[off[es->e[i].from] + fill[es->e[i].from]++] = es->e[i].to;
#define LESS(a, b) (p->steps[a].root < p->steps[b].root || (p->steps[a].root == p->steps[b].root && (a) < (b)))
    int nh = 0, placed = 0;
    for (int i = 0; i < ns; i++) {
        if (indeg[i]) continue;
        int k = nh++;
        for (; k && LESS(i, heap[(k - 1) / 2]); k = (k - 1) / 2) heap[k] = heap[(k - 1) / 2];
        heap[k] = i;
    }
    while (nh) {
        int s = heap[0], last = heap[--nh], k = 0;
        for (;;) { /* sift `last` down from the root */
            int c = 2 * k + 1;
            if (c >= nh) break;
            if (c + 1 < nh && LESS(heap[c + 1], heap[c])) c++;
            if (!LESS(heap[c], last)) break;
            heap[k] = heap[c];
            k = c;
        }
        if (nh) heap[k] = last;
        order[placed++] = s;
        for (int a = off[s]; a < off[s + 1]; a++) {
            int t = adj[a];
            if (--indeg[t]) continue;
            int j = nh++;
            for (; j && LESS(t, heap[(j - 1) / 2]); j = (j - 1) / 2) heap[j] = heap[(j - 1) / 2];
            heap[j] = t;
        }
    }
#undef LESS
    free(indeg), free(off), free(adj), free(fill), free(heap);
    return placed;
}

/* Whether step st may overwrite input `in` while reading it: only when every read is element
 * for element at the index it writes (an elementwise op over the input's shape) and no
 * reduction, matmul or view inside the step consumes what was read (they read other indices). */
static bool inplace_safe(const Graph *g, const Step *st, NodeId in, bool *feeds) {
    if (st->kind == STEP_COPY || st->gemm_in[0] == in || st->gemm_in[1] == in) return false;
    for (int k = st->nnodes - 1; k >= 0; k--) {
        const Node *nd = &g->nodes[st->nodes[k]];
        OpKind kind = ir_ops[nd->op].kind;
        if (kind != K_REDUCE && kind != K_MATMUL && kind != K_VIEW && !feeds[st->nodes[k]]) continue;
        for (int i = 0; i < nd->ninputs; i++)
            if (nd->in[i].id >= 0) feeds[nd->in[i].id] = true;
    }
    bool ok = true;
    for (int k = 0; k < st->nnodes; k++) {
        const Node *nd = &g->nodes[st->nodes[k]];
        for (int i = 0; i < nd->ninputs; i++)
            if (nd->in[i].id == in && (ir_ops[nd->op].kind != K_ELEMWISE || !ir_shape_equal(&nd->type, &g->nodes[in].type) ||
                                       feeds[st->nodes[k]]))
                ok = false;
    }
    for (int k = 0; k < st->nnodes; k++) feeds[st->nodes[k]] = false;
    feeds[in] = false;
    return ok;
}

/* Appends the STEP_ALLREDUCE steps of a data-parallel plan and the edges that place them: the
 * gradients in the order of their writers in `order` (a schedule without them), cut into buckets
 * of one dtype and at most PLAN_BUCKET_BYTES (a larger gradient is a bucket of its own). */
static void add_allreduce(Graph *g, Plan *p, const int *writer, const int *order, Edges *es) {
    int ns = p->nsteps, *pos = malloc(((size_t)ns + 1) * sizeof *pos);
    NodeId *gr = malloc(((size_t)p->ndist + 1) * sizeof *gr);
    if (!pos || !gr) abort();
    for (int i = 0; i < ns; i++) pos[order[i]] = i;
    int n = 0;
    for (int i = 0; i < p->ndist; i++)
        if (writer[p->dist[i]] >= 0) gr[n++] = p->dist[i];
    for (int i = 1; i < n; i++) /* insertion sort by writer position, then node id */
        for (int j = i; j > 0; j--) {
            int a = pos[writer[gr[j - 1]]], b = pos[writer[gr[j]]];
            if (a < b || (a == b && gr[j - 1] < gr[j])) break;
            NodeId t = gr[j];
            gr[j] = gr[j - 1], gr[j - 1] = t;
        }
    int bucket = 0;
    for (int i = 0; i < n;) {
        DType dt = g->nodes[gr[i]].type.dtype;
        int64_t bytes = 0;
        int j = i;
        while (j < n && g->nodes[gr[j]].type.dtype == dt &&
               (j == i || bytes + p->buf[gr[j]].bytes <= PLAN_BUCKET_BYTES))
            bytes += p->buf[gr[j]].bytes, j++;
        int a = p->nsteps;
        Step *st = plan_add_step(p, STEP_ALLREDUCE, gr[j - 1]);
        st->bucket = bucket++;
        for (int k = i; k < j; k++) step_push(&st->ins, &st->nins, gr[k]);
        snprintf(st->reason, sizeof st->reason, "data-parallel: the mean over ranks of %d gradient%s (%lld bytes), "
                 "one collective after the step that writes the last of them; the steps that read them wait for it",
                 j - i, j - i == 1 ? "" : "s", (long long)bytes);
        for (int k = i; k < j; k++) {
            add_edge(es, writer[gr[k]], a);
            for (int s = 0; s < ns; s++)
                if (s != writer[gr[k]] && step_has(p->steps[s].ins, p->steps[s].nins, gr[k])) add_edge(es, a, s);
        }
        i = j;
    }
    free(pos), free(gr);
}

int pass_schedule(Graph *g, Diag *d) {
    Plan *p = g->plan;
    if (!p) {
        diag_at(d, NULL, "internal: schedule needs a plan (run fuse first)");
        return -1;
    }
    if (p->scheduled) return 0;
    int ns = p->nsteps;
    int *writer = malloc(((size_t)p->nnodes + 1) * sizeof *writer), *order = malloc(((size_t)ns + 1) * sizeof *order);
    bool *feeds = calloc((size_t)p->nnodes + 1, sizeof *feeds);
    if (!writer || !order || !feeds) abort();
    for (int i = 0; i < p->nnodes; i++) writer[i] = -1;
    for (int s = 0; s < ns; s++)
        for (int k = 0; k < p->steps[s].nouts; k++) writer[p->steps[s].outs[k]] = s;
    Edges es = {0};
    for (int s = 0; s < ns; s++)
        for (int k = 0; k < p->steps[s].nins; k++) {
            int w = writer[p->steps[s].ins[k]];
            if (w >= 0 && w != s) add_edge(&es, w, s);
        }
    if (toposort(p, &es, order) < ns) {
        diag_at(d, NULL, "internal: the fused steps of graph %s form a cycle", g->name);
        free(writer), free(order), free(feeds), free(es.e);
        return -1;
    }
    if (p->ndist) {
        add_allreduce(g, p, writer, order, &es);
        ns = p->nsteps;
        order = realloc(order, ((size_t)ns + 1) * sizeof *order);
        if (!order) abort();
        if (toposort(p, &es, order) < ns) {
            diag_at(d, NULL, "internal: the all-reduce steps of graph %s form a cycle", g->name);
            free(writer), free(order), free(feeds), free(es.e);
            return -1;
        }
    }
    /* Donations, in the graph's order: the writer runs after every other reader of the input. */
    NodeId *staged = calloc((size_t)g->ndonations + 1, sizeof *staged);
    char (*cause)[160] = calloc((size_t)g->ndonations + 1, sizeof *cause);
    if (!staged || !cause) abort();
    for (int k = 0; k < g->ndonations; k++) {
        NodeId v = g->donations[k].value, in = g->donations[k].input;
        int w = v < p->nnodes ? writer[v] : -1;
        staged[k] = -1;
        if (w < 0) continue;
        int before = es.n;
        bool self = false;
        for (int s = 0; s < ns; s++) {
            if (!step_has(p->steps[s].ins, p->steps[s].nins, in)) continue;
            if (s == w) self = !inplace_safe(g, &p->steps[s], in, feeds);
            else add_edge(&es, s, w);
        }
        if (self)
            snprintf(cause[k], sizeof cause[k], "its own step reads %s other than element for element", g->nodes[in].name);
        else if (toposort(p, &es, order) < ns)
            snprintf(cause[k], sizeof cause[k], "a step that reads %s needs %s first", g->nodes[in].name, g->nodes[v].name);
        else
            continue;
        es.n = before;
        staged[k] = v;
    }
    toposort(p, &es, order);
    /* Reorder, then append the staging copies. */
    Step *steps = malloc(((size_t)ns + (size_t)g->ndonations + 1) * sizeof *steps);
    int *newidx = malloc(((size_t)ns + 1) * sizeof *newidx);
    if (!steps || !newidx) abort();
    for (int i = 0; i < ns; i++) steps[i] = p->steps[order[i]], newidx[order[i]] = i;
    for (int i = 0; i < p->nnodes; i++)
        if (p->step_of[i] >= 0) p->step_of[i] = newidx[p->step_of[i]];
    free(p->steps);
    p->steps = steps;
    for (int k = 0; k < g->ndonations; k++) {
        if (staged[k] < 0) continue;
        NodeId v = staged[k], in = g->donations[k].input;
        Step *c = plan_add_step(p, STEP_COPY, v);
        step_push(&c->ins, &c->nins, v);
        c->copy_output = plan_output_of(g, v);
        plan_why(p, v, "written: graph output %s, staged in the arena (%s cannot be overwritten in place) and copied last",
                 g->outputs[c->copy_output].name, g->nodes[in].name);
        snprintf(c->reason, sizeof c->reason, "%s cannot be written in place of %s: %s; staged in the arena and copied "
                 "into %s's buffer after every step", g->nodes[v].name, g->nodes[in].name, cause[k], g->nodes[in].name);
    }
    p->scheduled = true;
    free(writer), free(order), free(feeds), free(es.e), free(staged), free(cause), free(newidx);
    return 0;
}
