/* compiler/plan_build.c: an RtPlan in memory from a placed plan (see plan_build.h). Mirrors
 * emit_plan_source field by field: both read the same Plan and the same emit_* helpers
 * (emit_launch, emit_arena_bytes, emit_scalar_slot), so the JIT's table equals the AOT one. */
#include <stdlib.h>
#include <string.h>

#include "emit_ext.h"
#include "plan_build.h"

/* The plan with the storage it owns. */
typedef struct {
    RtPlan plan;
    RtPlanIO *inputs, *outputs;
    RtPlanStep *steps;
    char **strs;
    int nstrs, capstrs;
} BuiltPlan;

static const char *keep(BuiltPlan *bp, char *s) {
    if (bp->nstrs == bp->capstrs) {
        bp->capstrs = bp->capstrs ? 2 * bp->capstrs : 64;
        bp->strs = realloc(bp->strs, (size_t)bp->capstrs * sizeof *bp->strs);
        if (!bp->strs) abort();
    }
    bp->strs[bp->nstrs++] = s;
    return s;
}

static const char *dup(BuiltPlan *bp, const char *s) {
    char *c = strdup(s ? s : "");
    if (!c) abort();
    return keep(bp, c);
}

static void io_fill(RtPlanIO *io, const char *name, const TensorType *t, int scalar, int donated) {
    io->name = name;
    io->dtype = t->dtype;
    io->rank = t->rank;
    for (int i = 0; i < t->rank; i++) io->dims[i] = t->dims[i];
    io->scalar = scalar;
    io->donated_from = donated;
}

static const char *names(BuiltPlan *bp, const Graph *g, const NodeId *ids, int n) {
    Str b = {0};
    str_cat(&b, "");
    for (int k = 0; k < n; k++) str_add(&b, "%s%s", k ? "," : "", g->nodes[ids[k]].name);
    return keep(bp, str_take(&b));
}

/* A region of memory a step touches: an input's or an output's buffer (a donated output's is
 * its input's), or a byte range of the arena. */
typedef struct {
    int kind; /* 0 input, 1 output, 2 arena */
    int64_t a, b;
} Region;

static int region_of(const Plan *p, NodeId n, Region *r) {
    const BufRef *br = &p->buf[n];
    switch (br->kind) {
    case BUF_INPUT: *r = (Region){0, br->index, br->index}; return 1;
    case BUF_OUTPUT:
        if (p->output_alias && p->output_alias[br->index] >= 0)
            *r = (Region){0, p->output_alias[br->index], p->output_alias[br->index]};
        else
            *r = (Region){1, br->index, br->index};
        return 1;
    case BUF_ARENA: *r = (Region){2, br->offset, br->offset + br->bytes - 1}; return 1;
    default: return 0;
    }
}

static bool regions_meet(const Region *x, int nx, const Region *y, int ny) {
    for (int i = 0; i < nx; i++)
        for (int j = 0; j < ny; j++)
            if (x[i].kind == y[j].kind && x[i].a <= y[j].b && y[j].a <= x[i].b) return true;
    return false;
}

/* The regions a step reads (ins) or writes (outs, or a copy step's graph output). */
static int step_regions(const Graph *g, const Step *st, bool writes, Region **out) {
    const Plan *p = g->plan;
    int n = writes ? st->nouts : st->nins, k = 0;
    Region *r = calloc((size_t)n + 2, sizeof *r);
    if (!r) abort();
    for (int i = 0; i < n; i++) k += region_of(p, writes ? st->outs[i] : st->ins[i], &r[k]);
    if (writes && st->kind == STEP_COPY && !st->nouts) {
        int j = st->copy_output, alias = p->output_alias ? p->output_alias[j] : -1;
        r[k++] = alias >= 0 ? (Region){0, alias, alias} : (Region){1, j, j};
    }
    *out = r;
    return k;
}

/* Fills each step's `after` mask: the earlier steps it conflicts with (read after write, write
 * after read, write after write), so the GPU graph may run independent steps side by side. */
static void step_dependencies(const Graph *g, RtPlanStep *steps) {
    const Plan *p = g->plan;
    int n = p->nsteps;
    if (n > 64) return; /* the executor runs such plans strictly in order */
    Region *rd[64], *wr[64];
    int nr[64], nw[64];
    for (int s = 0; s < n; s++) {
        nr[s] = step_regions(g, &p->steps[s], false, &rd[s]);
        nw[s] = step_regions(g, &p->steps[s], true, &wr[s]);
    }
    for (int j = 0; j < n; j++) {
        steps[j].after = 0;
        for (int i = 0; i < j; i++)
            if (regions_meet(wr[i], nw[i], rd[j], nr[j]) || regions_meet(rd[i], nr[i], wr[j], nw[j]) ||
                regions_meet(wr[i], nw[i], wr[j], nw[j]))
                steps[j].after |= (uint64_t)1 << i;
    }
    for (int s = 0; s < n; s++) free(rd[s]), free(wr[s]);
}

/* The argument-block slots a step's kernel uses (RtPlanStep.uses): the pointers of the inputs
 * and outputs it reads or writes (a donated output's and its input's), the arena's, and the
 * scalars it reads. A value held nowhere the mask can name makes the step use every slot. */
static uint64_t slot_bit(int k) { return k < 63 ? (uint64_t)1 << k : (uint64_t)1 << 63; }

static uint64_t value_slots(const Graph *g, NodeId n) {
    const Plan *p = g->plan;
    const BufRef *br = &p->buf[n];
    const int np = g->ninputs + g->noutputs + 1;
    switch (br->kind) {
    case BUF_INPUT: return slot_bit(br->index);
    case BUF_SCALAR: return slot_bit(np + emit_scalar_slot(g, br->index));
    case BUF_ARENA: return slot_bit(np - 1);
    case BUF_OUTPUT: {
        int alias = p->output_alias ? p->output_alias[br->index] : -1;
        return slot_bit(g->ninputs + br->index) | (alias >= 0 ? slot_bit(alias) : 0);
    }
    default: return ~(uint64_t)0;
    }
}

static uint64_t step_uses(const Graph *g, const Step *st) {
    const Plan *p = g->plan;
    uint64_t u = slot_bit(g->ninputs + g->noutputs); /* the arena: scratch, GEMM products */
    for (int i = 0; i < st->nins; i++) u |= value_slots(g, st->ins[i]);
    for (int i = 0; i < st->nouts; i++) u |= value_slots(g, st->outs[i]);
    if (st->kind == STEP_COPY && !st->nouts) {
        int j = st->copy_output, alias = p->output_alias ? p->output_alias[j] : -1;
        u |= slot_bit(g->ninputs + j) | (alias >= 0 ? slot_bit(alias) : 0);
    }
    return u;
}

static const RtStepKind rt_kinds[] = {RT_STEP_ELEMWISE, RT_STEP_REDUCE, RT_STEP_ROW, RT_STEP_GEMM, RT_STEP_COPY};

RtPlan *plan_build(const Graph *g, const char *source_name, const char *cuda_src, const char *cpu_src, Diag *d) {
    if (emit_check_plan(g, d)) return NULL;
    const Plan *p = g->plan;
    char cls[IR_MAX_NAME + 16], err[256];
    if (emit_ext_class_name(g->name, cls, sizeof cls, err, sizeof err)) {
        diag_at(d, "name", "%s", err);
        return NULL;
    }
    BuiltPlan *bp = calloc(1, sizeof *bp);
    if (!bp) abort();
    RtPlan *rp = &bp->plan;
    bp->inputs = calloc((size_t)g->ninputs + 1, sizeof *bp->inputs);
    bp->outputs = calloc((size_t)g->noutputs + 1, sizeof *bp->outputs);
    bp->steps = calloc((size_t)p->nsteps + 1, sizeof *bp->steps);
    if (!bp->inputs || !bp->outputs || !bp->steps) abort();
    int nscalars = 0, ninputs = 0;
    for (int pos = 0; pos < g->ninputs; pos++)
        for (int i = 0; i < g->nnodes; i++) {
            const Node *nd = &g->nodes[i];
            if (nd->op != OP_INPUT || nd->input_index != pos) continue;
            io_fill(&bp->inputs[ninputs++], dup(bp, nd->name), &nd->type, nd->type.rank ? -1 : nscalars, -1);
            nscalars += nd->type.rank == 0;
        }
    for (int j = 0; j < g->noutputs; j++) {
        int alias = p->output_alias ? p->output_alias[j] : -1;
        io_fill(&bp->outputs[j], dup(bp, g->outputs[j].name), &g->nodes[g->outputs[j].value].type, -1, alias);
    }
    int stats[STEP_COPY + 1] = {0};
    for (int s = 0; s < p->nsteps; s++) {
        const Step *st = &p->steps[s];
        RtPlanStep *rs = &bp->steps[s];
        EmitLaunch l;
        if (emit_launch(g, s, &l, d)) {
            plan_build_free(rp);
            return NULL;
        }
        stats[st->kind]++;
        rs->kind = rt_kinds[st->kind];
        rs->kernel = keep(bp, xfmt("gtc_k%d", s));
        Str ops = {0};
        str_cat(&ops, "");
        for (int k = 0; k < st->nnodes; k++) str_add(&ops, "%s%s", k ? "," : "", ir_ops[g->nodes[st->nodes[k]].op].name);
        rs->ops = keep(bp, str_take(&ops));
        rs->reads = names(bp, g, st->ins, st->nins);
        rs->writes = st->kind == STEP_COPY && !st->nouts ? dup(bp, g->outputs[st->copy_output].name)
                                                         : names(bp, g, st->outs, st->nouts);
        rs->reason = dup(bp, st->reason);
        rs->uses = step_uses(g, st);
        memcpy(rs->grid, l.grid, sizeof l.grid);
        memcpy(rs->block, l.block, sizeof l.block);
        rs->smem = l.smem;
        rs->own_sm = l.own_sm;
    }
    step_dependencies(g, bp->steps);
    int64_t scr_off, scr_bytes;
    int nodes = 0;
    for (int i = 0; i < g->nnodes; i++) nodes += g->nodes[i].op != OP_INPUT;
    rp->abi = RT_PLAN_ABI;
    rp->graph = dup(bp, g->name);
    rp->class_name = dup(bp, cls);
    rp->source = dup(bp, source_name);
    rp->ninputs = ninputs;
    rp->noutputs = g->noutputs;
    rp->nscalars = nscalars;
    rp->inputs = bp->inputs;
    rp->outputs = bp->outputs;
    rp->nsteps = p->nsteps;
    rp->steps = bp->steps;
    rp->arena_bytes = emit_arena_bytes(g, &scr_off, &scr_bytes);
    rp->nodes = nodes;
    rp->fused_kernels = stats[STEP_ELEMWISE] + stats[STEP_REDUCE] + stats[STEP_ROW];
    rp->gemms = stats[STEP_GEMM];
    rp->reductions = stats[STEP_REDUCE] + stats[STEP_ROW];
    rp->cpu = NULL;
    rp->cuda = NULL;
    rp->cuda_source = dup(bp, cuda_src);
    rp->cpu_source = dup(bp, cpu_src);
    return rp;
}

void plan_build_free(RtPlan *p) {
    if (!p) return;
    BuiltPlan *bp = (BuiltPlan *)p; /* the plan is the first member */
    for (int i = 0; i < bp->nstrs; i++) free(bp->strs[i]);
    free(bp->strs);
    free(bp->inputs);
    free(bp->outputs);
    free(bp->steps);
    free(bp);
}
