/* compiler/plan_build.c: an RtPlan in memory from a lowered plan (see plan_build.h): names,
 * reasons and statistics from the plan, launch configurations, dependency edges and argument
 * slots copied from each step's lowering (Step.lower, compiler/pass_lower.c). emit_plan_source
 * prints the table this builds, so the JIT's table equals the AOT one. */
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "emit.h"
#include "plan_build.h"

/* The plan with the storage it owns. */
typedef struct {
    RtPlan plan;
    RtPlanIO *inputs, *outputs;
    RtPlanStep *steps;
    RtPlanCheck *checks;
    RtPlanSym *syms;
    RtPlanSymAxes *in_sym, *out_sym;
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

static void io_fill(RtPlanIO *io, const char *name, const TensorType *t, int scalar, int donated, int state) {
    io->name = name;
    io->dtype = t->dtype;
    io->rank = t->rank;
    for (int i = 0; i < t->rank; i++) io->dims[i] = t->dims[i];
    io->scalar = scalar;
    io->donated_from = donated;
    io->state = state;
}

static const char *names(BuiltPlan *bp, const Graph *g, const NodeId *ids, int n) {
    Str b = {0};
    str_cat(&b, "");
    for (int k = 0; k < n; k++) str_add(&b, "%s%s", k ? "," : "", g->nodes[ids[k]].name);
    return keep(bp, str_take(&b));
}

static const RtStepKind rt_kinds[] = {RT_STEP_ELEMWISE, RT_STEP_REDUCE, RT_STEP_ROW, RT_STEP_GEMM, RT_STEP_COPY,
                                       RT_STEP_ALLREDUCE};

/* A cuBLASLt step's product (RtPlanGemm): shapes, leading dimensions and batch strides from the
 * GEMM's geometry (the same as the CPU's cblas call, compiler/emit_cpu.c), the operands' and the
 * product's places in the argument block. */
static int blas_fill(const Graph *g, const Step *st, RtPlanGemm *b, Diag *d) {
    const Plan *p = g->plan;
    EmitGemm gm;
    if (emit_gemm_info(g, st, &gm, d)) return -1;
    memset(b, 0, sizeof *b);
    b->on = 1;
    b->epilogue = st->lower.epilogue;
    b->precision = p->target.precision;
    b->dtype = g->nodes[gm.mm].type.dtype;
    b->ta = gm.ta, b->tb = gm.tb;
    b->m = gm.m, b->n = gm.n, b->k = gm.k, b->batch = gm.batch;
    b->lda = gm.ta ? gm.m : gm.k, b->ldb = gm.tb ? gm.k : gm.n, b->ldc = gm.n;
    if (b->lda < 1) b->lda = 1;
    if (b->ldb < 1) b->ldb = 1;
    if (b->ldc < 1) b->ldc = 1;
    b->sc = gm.m * gm.n;
    const NodeId ops[2] = {gm.a, gm.b};
    b->value[0] = gm.a, b->value[1] = gm.b;
    const NodeId sub = st->lower.lib_update;
    if (sub >= 0) { /* w - lr * product: w and the difference in memory (pass_lower checked) */
        const Node *s = &g->nodes[sub], *mul = &g->nodes[s->in[1].id];
        const Operand lr = mul->in[0].id == gm.mm ? mul->in[1] : mul->in[0];
        b->update = 1;
        b->lr_slot = lr.id >= 0 ? g->ninputs + g->noutputs + 1 + emit_scalar_slot(g, p->buf[lr.id].index) : -1;
        b->lr_value = lr.id >= 0 ? 0 : lr.value;
        if (plan_buf_slot(g, &p->buf[s->in[0].id], &b->c_slot, &b->c_off) ||
            plan_buf_slot(g, &p->buf[sub], &b->d_slot, &b->d_off)) {
            diag_node(d, s, "internal: a cuBLASLt step's update has no single place");
            return -1;
        }
    }
    const NodeId add = st->lower.lib_bias;
    if (add >= 0) { /* the add's other operand: the bias row (pass_lower checked its place) */
        const Node *a = &g->nodes[add];
        const NodeId bias = a->in[0].id == gm.mm ? a->in[1].id : a->in[0].id;
        b->bias = 1;
        b->relu = st->lower.lib_relu >= 0;
        if (plan_buf_slot(g, &p->buf[bias], &b->bias_slot, &b->bias_off)) {
            diag_node(d, a, "internal: a cuBLASLt step's bias has no single place");
            return -1;
        }
    }
    for (int k = 0; k < 2; k++)
        if (!emit_gemm_batch_stride(&gm, k, k ? &b->sb : &b->sa) ||
            plan_buf_slot(g, &p->buf[ops[k]], &b->slot[k], &b->off[k])) {
            diag_node(d, &g->nodes[gm.mm], "internal: a cuBLASLt step's operand has no single place and stride");
            return -1;
        }
    b->in16[0] = gm.half[0], b->in16[1] = gm.half[1];
    if ((gm.half[0] || gm.half[1]) && p->target.precision != PREC_BF16) {
        diag_node(d, &g->nodes[gm.mm], "internal: a bfloat16 operand outside --precision=bf16");
        return -1;
    }
    b->out16 = st->lower.lib_cast >= 0;
    const NodeId out = st->lower.lib_cast >= 0 ? st->lower.lib_cast : st->lower.gemm_out;
    if (out >= 0) {
        if (plan_buf_slot(g, &p->buf[out], &b->slot[2], &b->off[2])) {
            diag_node(d, &g->nodes[gm.mm], "internal: a cuBLASLt step's product has no buffer");
            return -1;
        }
    } else {
        b->slot[2] = g->ninputs + g->noutputs, b->off[2] = p->scratch_off;
    }
    return 0;
}

RtPlan *plan_build(const Graph *g, const char *source_name, const char *cuda_src, const char *cpu_src, Diag *d) {
    if (emit_check_plan(g, d)) return NULL;
    const Plan *p = g->plan;
    char cls[IR_MAX_NAME + 16], err[256];
    if (names_php_class(g->name, cls, sizeof cls, err, sizeof err) < 0) {
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
            io_fill(&bp->inputs[ninputs++], dup(bp, nd->name), &nd->type, nd->type.rank ? -1 : nscalars, -1,
                    nd->state);
            nscalars += nd->type.rank == 0;
        }
    for (int j = 0; j < g->noutputs; j++) {
        int alias = p->output_alias ? p->output_alias[j] : -1;
        io_fill(&bp->outputs[j], dup(bp, g->outputs[j].name), &g->nodes[g->outputs[j].value].type, -1, alias,
                IR_STATE_NONE);
    }
    int stats[STEP_ALLREDUCE + 1] = {0};
    for (int s = 0; s < p->nsteps; s++) {
        const Step *st = &p->steps[s];
        RtPlanStep *rs = &bp->steps[s];
        const StepLower *l = &st->lower;
        stats[st->kind]++;
        rs->kind = rt_kinds[st->kind];
        rs->kernel = keep(bp, xfmt("%s_k%d", p->sym, s));
        Str ops = {0};
        str_cat(&ops, "");
        for (int k = 0; k < st->nnodes; k++) str_add(&ops, "%s%s", k ? "," : "", ir_ops[g->nodes[st->nodes[k]].op].name);
        rs->ops = keep(bp, str_take(&ops));
        rs->reads = names(bp, g, st->ins, st->nins);
        rs->writes = st->kind == STEP_COPY && !st->nouts ? dup(bp, g->outputs[st->copy_output].name)
                                                         : names(bp, g, st->outs, st->nouts);
        rs->reason = l->form == LOWER_GEMM_TILED && l->tf32 ? keep(bp, xfmt("%s; on TF32 tensor cores", st->reason))
                                                             : dup(bp, st->reason);
        memcpy(rs->grid, l->grid, sizeof l->grid);
        memcpy(rs->block, l->block, sizeof l->block);
        rs->smem = l->smem;
        rs->after = l->after;
        rs->uses = l->uses;
        rs->own_sm = l->own_sm;
        if (l->form == LOWER_GEMM_BLAS && blas_fill(g, st, &rs->blas, d)) {
            plan_build_free(rp);
            return NULL;
        }
        if (st->kind == STEP_ALLREDUCE) {
            rs->dist.on = 1;
            if (plan_allreduce_range(g, st, &rs->dist.off, &rs->dist.count, &rs->dist.dtype)) {
                diag_at(d, NULL, "internal: all-reduce step %d's gradients are not one contiguous arena region", s);
                plan_build_free(rp);
                return NULL;
            }
        }
    }
    int nodes = 0;
    for (int i = 0; i < g->nnodes; i++) nodes += g->nodes[i].op != OP_INPUT;
    rp->abi = RT_PLAN_ABI;
    rp->graph = dup(bp, g->name);
    rp->class_name = dup(bp, cls);
    rp->source = dup(bp, source_name);
    rp->ninputs = ninputs;
    rp->noutputs = g->noutputs;
    rp->nscalars = emit_nscalars(g);
    if (g->nsyms) {
        bp->syms = calloc((size_t)g->nsyms, sizeof *bp->syms);
        if (!bp->syms) abort();
        for (int k = 0; k < g->nsyms; k++)
            bp->syms[k] = (RtPlanSym){dup(bp, g->syms[k].name), g->syms[k].max, emit_sym_slot(g, k + 1)};
        rp->nsyms = g->nsyms;
        rp->syms = bp->syms;
        bp->in_sym = calloc((size_t)g->ninputs + 1, sizeof *bp->in_sym);
        bp->out_sym = calloc((size_t)g->noutputs + 1, sizeof *bp->out_sym);
        if (!bp->in_sym || !bp->out_sym) abort();
        for (int i = 0; i < g->nnodes; i++)
            if (g->nodes[i].op == OP_INPUT && g->nodes[i].input_index >= 0 && g->nodes[i].input_index < g->ninputs)
                memcpy(bp->in_sym[g->nodes[i].input_index].sym, g->nodes[i].type.sym, IR_MAX_RANK);
        for (int j = 0; j < g->noutputs; j++) memcpy(bp->out_sym[j].sym, g->nodes[g->outputs[j].value].type.sym, IR_MAX_RANK);
        rp->in_sym = bp->in_sym;
        rp->out_sym = bp->out_sym;
    }
    rp->inputs = bp->inputs;
    rp->outputs = bp->outputs;
    rp->nsteps = p->nsteps;
    rp->steps = bp->steps;
    rp->arena_bytes = plan_arena_total(p);
    rp->nodes = nodes;
    rp->fused_kernels = stats[STEP_ELEMWISE] + stats[STEP_REDUCE] + stats[STEP_ROW];
    rp->gemms = stats[STEP_GEMM];
    rp->reductions = stats[STEP_REDUCE] + stats[STEP_ROW];
    rp->cpu = NULL;
    rp->cuda = NULL;
    rp->cuda_source = dup(bp, cuda_src);
    rp->cpu_source = dup(bp, cpu_src);
    rp->check_off = p->check_off;
    if (p->nchecks) {
        bp->checks = calloc((size_t)p->nchecks, sizeof *bp->checks);
        if (!bp->checks) abort();
        for (int i = 0; i < p->nchecks; i++) {
            const Node *nd = &g->nodes[p->checks[i]];
            const TensorType *dt = &g->nodes[nd->in[0].id].type;
            RtPlanCheck *c = &bp->checks[i];
            char err[128];
            c->node = dup(bp, nd->name);
            c->op = ir_ops[nd->op].name;
            if (ir_index_axis(&nd->attrs, dt->rank, &c->axis, err, sizeof err)) c->axis = 0;
            c->size = dt->dims[c->axis];
        }
        rp->nchecks = p->nchecks;
        rp->checks = bp->checks;
    }
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
    free(bp->checks);
    free(bp->syms);
    free(bp->in_sym);
    free(bp->out_sym);
    free(bp);
}
