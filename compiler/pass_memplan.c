/* compiler/pass_memplan.c: places every materialised value. Graph outputs are written straight
 * into the caller's output buffers (a donated output's buffer is its input's: Plan.output_alias
 * names that input; BufRef.index stays the output's position). Every other materialised value
 * gets bytes of one arena, from its live interval over the schedule (written by step a, last
 * read by step b: live during [a, b]), placed best-fit in a free list, 256-byte aligned; the
 * arena's size is the peak. Steady-state replay allocates nothing. A data-parallel plan's
 * gradients come first, bucket after bucket, each bucket's packed in order (one contiguous
 * region per STEP_ALLREDUCE, its one collective), and keep their bytes for the whole step. */
#include <stdlib.h>
#include <string.h>

#include "plan.h"

typedef struct {
    int64_t off, size;
} Block;

typedef struct {
    Block *b;      /* free blocks below `top`, by offset, coalesced */
    int n, cap;
    int64_t top;   /* the arena's extent so far (its peak) */
} Arena;

static void insert_block(Arena *a, int at, int64_t off, int64_t size) {
    if (a->n == a->cap) {
        a->cap = a->cap ? a->cap * 2 : 16;
        a->b = realloc(a->b, (size_t)a->cap * sizeof *a->b);
        if (!a->b) abort();
    }
    memmove(&a->b[at + 1], &a->b[at], (size_t)(a->n - at) * sizeof *a->b);
    a->b[at] = (Block){off, size};
    a->n++;
}

static void remove_block(Arena *a, int at) {
    memmove(&a->b[at], &a->b[at + 1], (size_t)(a->n - at - 1) * sizeof *a->b);
    a->n--;
}

/* Best fit: the smallest free block that holds size (lowest offset on ties); else the free
 * block that ends at the top, grown; else fresh space at the top. */
static int64_t arena_alloc(Arena *a, int64_t size) {
    int best = -1;
    for (int i = 0; i < a->n; i++)
        if (a->b[i].size >= size && (best < 0 || a->b[i].size < a->b[best].size)) best = i;
    if (best >= 0) {
        int64_t off = a->b[best].off;
        a->b[best].off += size;
        a->b[best].size -= size;
        if (!a->b[best].size) remove_block(a, best);
        return off;
    }
    if (a->n && a->b[a->n - 1].off + a->b[a->n - 1].size == a->top) {
        int64_t off = a->b[a->n - 1].off;
        remove_block(a, a->n - 1);
        a->top = off + size;
        return off;
    }
    a->top += size;
    return a->top - size;
}

static void arena_free(Arena *a, int64_t off, int64_t size) {
    int at = 0;
    while (at < a->n && a->b[at].off < off) at++;
    insert_block(a, at, off, size);
    if (at + 1 < a->n && a->b[at].off + a->b[at].size == a->b[at + 1].off) {
        a->b[at].size += a->b[at + 1].size;
        remove_block(a, at + 1);
    }
    if (at > 0 && a->b[at - 1].off + a->b[at - 1].size == a->b[at].off) {
        a->b[at - 1].size += a->b[at].size;
        remove_block(a, at);
    }
}

static int64_t aligned(int64_t bytes) { return (bytes + ARENA_ALIGN - 1) / ARENA_ALIGN * ARENA_ALIGN; }

int pass_memplan(Graph *g, Diag *d) {
    Plan *p = g->plan;
    if (!p || !p->scheduled) {
        diag_at(d, NULL, "internal: memplan needs a scheduled plan (run fuse and schedule first)");
        return -1;
    }
    free(p->output_alias);
    p->output_alias = malloc(((size_t)g->noutputs + 1) * sizeof *p->output_alias);
    if (!p->output_alias) abort();
    for (int j = 0; j < g->noutputs; j++) {
        p->output_alias[j] = -1;
        for (int k = 0; k < g->ndonations; k++)
            if (g->donations[k].value == g->outputs[j].value && plan_output_of(g, g->outputs[j].value) == j)
                p->output_alias[j] = g->nodes[g->donations[k].input].input_index;
    }
    int ns = p->nsteps, nn = p->nnodes;
    int *def = malloc(((size_t)nn + 1) * sizeof *def), *last = malloc(((size_t)nn + 1) * sizeof *last);
    bool *staged = calloc((size_t)nn + 1, sizeof *staged);
    if (!def || !last || !staged) abort();
    for (int i = 0; i < nn; i++) def[i] = last[i] = -1;
    for (int s = 0; s < ns; s++) {
        const Step *st = &p->steps[s];
        for (int k = 0; k < st->nouts; k++) def[st->outs[k]] = s;
        for (int k = 0; k < st->nins; k++) last[st->ins[k]] = s;
        /* a COPY into a value's own (first) output: the value itself is staged in the arena */
        if (st->kind == STEP_COPY && !st->nouts && st->nins && g->nodes[st->ins[0]].op != OP_INPUT &&
            plan_output_of(g, st->ins[0]) == st->copy_output)
            staged[st->ins[0]] = true;
    }
    for (int i = 0; i < nn; i++) {
        BufRef *b = &p->buf[i];
        if (def[i] < 0 || (b->kind != BUF_ARENA && b->kind != BUF_OUTPUT)) continue;
        int j = plan_output_of(g, i);
        if (j >= 0 && !staged[i]) *b = (BufRef){BUF_OUTPUT, j, 0, b->bytes};
        else *b = (BufRef){BUF_ARENA, -1, -1, b->bytes};
        if (last[i] < def[i]) last[i] = def[i];
    }
    /* Step by step: place what the step writes, then free what it read for the last time
     * (values bucketed by step, ascending ids within a step). */
    int *doff = calloc((size_t)ns + 2, sizeof *doff), *loff = calloc((size_t)ns + 2, sizeof *loff);
    int *dl = malloc(((size_t)nn + 1) * sizeof *dl), *ll = malloc(((size_t)nn + 1) * sizeof *ll);
    if (!doff || !loff || !dl || !ll) abort();
    for (int i = 0; i < nn; i++)
        if (def[i] >= 0 && p->buf[i].kind == BUF_ARENA) doff[def[i] + 1]++, loff[last[i] + 1]++;
    for (int s = 0; s < ns; s++) doff[s + 1] += doff[s], loff[s + 1] += loff[s];
    for (int i = 0; i < nn; i++)
        if (def[i] >= 0 && p->buf[i].kind == BUF_ARENA) dl[doff[def[i]]++] = i, ll[loff[last[i]]++] = i;
    Arena a = {0};
    bool *fixed = calloc((size_t)nn + 1, sizeof *fixed);
    if (!fixed) abort();
    for (int s = 0; s < ns; s++) /* the gradient buckets, in the schedule's order */
        for (int k = 0; p->steps[s].kind == STEP_ALLREDUCE && k < p->steps[s].nins; k++) {
            BufRef *b = &p->buf[p->steps[s].ins[k]];
            if (b->kind != BUF_ARENA || fixed[p->steps[s].ins[k]]) continue;
            fixed[p->steps[s].ins[k]] = true;
            b->offset = a.top;
            a.top += aligned(b->bytes);
        }
    for (int s = 0, di = 0, li = 0; s < ns; s++) {
        for (; di < doff[s]; di++) {
            BufRef *b = &p->buf[dl[di]];
            if (!fixed[dl[di]]) b->offset = b->bytes ? arena_alloc(&a, aligned(b->bytes)) : 0;
        }
        for (; li < loff[s]; li++) {
            BufRef *b = &p->buf[ll[li]];
            if (b->bytes && !fixed[ll[li]]) arena_free(&a, b->offset, aligned(b->bytes));
        }
    }
    free(fixed);
    free(doff), free(loff), free(dl), free(ll);
    p->arena_bytes = a.top;
    p->placed = true;
    free(a.b), free(def), free(last), free(staged);
    return 0;
}
