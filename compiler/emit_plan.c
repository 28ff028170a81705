/* compiler/emit_plan.c: plan.c, the RtPlan table (runtime/core/plan_abi.h) that ties the generated
 * kernels to the executor: inputs and outputs, steps with their kernels, fused ops, buffers,
 * reasons and launch configurations, the arena size, statistics and both kernel sources; and
 * emit_all, which writes the three generated files (emit_write_file, compiler/emit_text.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "plan_build.h"

static void io_entry(Str *b, const RtPlanIO *io) {
    static const char *const ids[DT_COUNT] = {
#define DT_ID(ID, name, sh, sfx, CT, WT, size, kind) [DT_##ID] = #ID,
        IR_DTYPES(DT_ID)
#undef DT_ID
    };
    str_cat(b, "    {\"");
    emit_cstr(b, io->name);
    str_add(b, "\", DT_%s, %d, {", (unsigned)io->dtype < DT_COUNT ? ids[io->dtype] : "COUNT", io->rank);
    for (int i = 0; i < io->rank; i++) str_add(b, "%s%lld", i ? ", " : "", (long long)io->dims[i]);
    if (!io->rank) str_cat(b, "0");
    static const char *const states[] = {"IR_STATE_NONE", "IR_STATE_ZEROS", "IR_STATE_STEP"};
    str_add(b, "}, %d, %d, %s},\n", io->scalar, io->donated_from,
            io->state >= 0 && io->state <= IR_STATE_STEP ? states[io->state] : "IR_STATE_NONE");
}

/* A whole text as a C string literal, one source line per literal line. */
static void source_literal(Str *b, const char *name, const char *text) {
    str_add(b, "static const char %s[] =\n", name);
    const char *p = text;
    if (!*p) str_cat(b, "    \"\"");
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        char *line = strndup(p, n);
        if (!line) abort();
        str_cat(b, "    \"");
        emit_cstr(b, line);
        str_cat(b, nl ? "\\n\"" : "\"");
        free(line);
        p += n + (nl ? 1 : 0);
        if (*p) str_cat(b, "\n");
    }
    str_cat(b, ";\n");
}

static const char *rt_kind(RtStepKind k) {
    static const char *const names[] = {"RT_STEP_ELEMWISE", "RT_STEP_REDUCE", "RT_STEP_ROW", "RT_STEP_GEMM", "RT_STEP_COPY",
                                        "RT_STEP_ALLREDUCE"};
    return names[k];
}

static void cstr_literal(Str *b, const char *s) {
    str_cat(b, "\"");
    emit_cstr(b, s);
    str_cat(b, "\"");
}

/* plan.c prints the table plan_build makes (compiler/plan_build.c): the JIT builds the same
 * struct in memory, so AOT and JIT share one definition of every field. */
char *emit_plan_source(const Graph *g, const char *source_name, const char *cuda_src, const char *cpu_src, Diag *d) {
    RtPlan *rp = plan_build(g, source_name, cuda_src, cpu_src, d);
    if (!rp) return NULL;
    const Plan *p = g->plan;
    int64_t scr_off = p->scratch_off, scr_bytes = p->scratch_bytes;
    Str b = {0};
    emit_header(&b, source_name);
    str_add(&b, "/* The plan table of %s for runtime/core/exec.c: %d steps. The arena holds the planner's\n"
                " * %lld bytes", g->name, p->nsteps, (long long)p->arena_bytes);
    if (scr_off >= 0)
        str_add(&b, ", then [%lld, %lld): scratch for the library GEMMs (cblas, cuBLASLt) whose\n"
                    " * product has no buffer of its own (our CUDA GEMM kernels apply epilogues in registers)",
                (long long)scr_off, (long long)(scr_off + scr_bytes));
    const char *sym = p->sym;
    str_add(&b, ". */\n#include \"plan_abi.h\"\n\n"
                "extern const RtCpuKernel %s_cpu_kernels[];\n"
                "#ifdef GTC_PLAN_CUDA /* defined by gtc compile when kernels.cu is built into the model */\n"
                "extern const void *const %s_cuda_kernels[];\n#define GTC_CUDA_KERNELS %s_cuda_kernels\n"
                "#else\n#define GTC_CUDA_KERNELS NULL\n#endif\n",
            sym, sym, sym);
    if (p->predict[0]) str_add(&b, "extern const RtPlan %s_plan; /* predict(): the forward graph (predict_plan.c) */\n", p->predict);
    str_cat(&b, "\n");
    str_cat(&b, "static const RtPlanIO gtc_inputs[] = {\n");
    for (int i = 0; i < rp->ninputs; i++) io_entry(&b, &rp->inputs[i]);
    if (!rp->ninputs) str_cat(&b, "    {0},\n");
    str_cat(&b, "};\nstatic const RtPlanIO gtc_outputs[] = {\n");
    for (int j = 0; j < rp->noutputs; j++) io_entry(&b, &rp->outputs[j]);
    if (!rp->noutputs) str_cat(&b, "    {0},\n");
    str_cat(&b, "};\nstatic const RtPlanStep gtc_steps[] = {\n");
    for (int s = 0; s < rp->nsteps; s++) {
        const RtPlanStep *st = &rp->steps[s];
        str_add(&b, "    {%s, ", rt_kind(st->kind));
        cstr_literal(&b, st->kernel);
        str_cat(&b, ", ");
        cstr_literal(&b, st->ops);
        str_cat(&b, ",\n     ");
        cstr_literal(&b, st->reads);
        str_cat(&b, ", ");
        cstr_literal(&b, st->writes);
        str_cat(&b, ",\n     ");
        cstr_literal(&b, st->reason);
        str_add(&b, ",\n     {%u, %u, %u}, {%u, %u, %u}, %u, 0x%llxull, 0x%llxull, %u", st->grid[0], st->grid[1],
                st->grid[2], st->block[0], st->block[1], st->block[2], st->smem, (unsigned long long)st->after,
                (unsigned long long)st->uses, st->own_sm);
        const RtPlanGemm *bl = &st->blas;
        if (bl->on)
            str_add(&b, ",\n     /* cuBLASLt */ {1, %d, %d, %d, %d, %d, %lldLL, %lldLL, %lldLL, %lldLL, %lldLL, %lldLL, %lldLL, "
                        "%lldLL, %lldLL, %lldLL, {%d, %d, %d}, {%lldLL, %lldLL, %lldLL}, %d, %d, %lldLL, %d, %d, %d, %lldLL, "
                        "%lldLL, %d, %.17g, {%d, %d}, %d, {%d, %d}, %d}",
                    bl->epilogue, bl->precision, (int)bl->dtype, bl->ta, bl->tb, (long long)bl->m, (long long)bl->n,
                    (long long)bl->k, (long long)bl->batch, (long long)bl->lda, (long long)bl->ldb, (long long)bl->ldc,
                    (long long)bl->sa, (long long)bl->sb, (long long)bl->sc, bl->slot[0], bl->slot[1], bl->slot[2],
                    (long long)bl->off[0], (long long)bl->off[1], (long long)bl->off[2], bl->bias, bl->bias_slot,
                    (long long)bl->bias_off, bl->update, bl->c_slot, bl->d_slot, (long long)bl->c_off,
                    (long long)bl->d_off, bl->lr_slot, bl->lr_value, bl->value[0], bl->value[1], bl->relu, bl->in16[0],
                    bl->in16[1], bl->out16);
        else
            str_cat(&b, ", {0}");
        if (st->dist.on)
            str_add(&b, ",\n     /* all-reduce */ {1, %d, %lldLL, %lldLL}", (int)st->dist.dtype, (long long)st->dist.off,
                    (long long)st->dist.count);
        else
            str_cat(&b, ", {0}");
        str_cat(&b, "},\n");
    }
    if (!rp->nsteps) str_cat(&b, "    {0},\n");
    str_cat(&b, "};\n\n");
    if (rp->nchecks) {
        str_cat(&b, "static const RtPlanCheck gtc_checks[] = {\n");
        for (int i = 0; i < rp->nchecks; i++) {
            const RtPlanCheck *c = &rp->checks[i];
            str_cat(&b, "    {");
            cstr_literal(&b, c->node);
            str_cat(&b, ", ");
            cstr_literal(&b, c->op);
            str_add(&b, ", %d, %lldLL},\n", c->axis, (long long)c->size);
        }
        str_cat(&b, "};\n\n");
    }
    if (rp->nsyms) {
        str_cat(&b, "static const RtPlanSym gtc_syms[] = {\n");
        for (int k = 0; k < rp->nsyms; k++) {
            str_cat(&b, "    {");
            cstr_literal(&b, rp->syms[k].name);
            str_add(&b, ", %lldLL, %d},\n", (long long)rp->syms[k].max, rp->syms[k].slot);
        }
        str_cat(&b, "};\n");
        for (int side = 0; side < 2; side++) { /* which axes are symbolic, per input, per output */
            int n = side ? rp->noutputs : rp->ninputs;
            str_add(&b, "static const RtPlanSymAxes gtc_%s_sym[] = {", side ? "out" : "in");
            for (int i = 0; i < n; i++) {
                const unsigned char *sy = (side ? rp->out_sym : rp->in_sym)[i].sym;
                str_cat(&b, i ? ", {{" : "{{");
                for (int a = 0; a < IR_MAX_RANK; a++) str_add(&b, "%s%u", a ? ", " : "", (unsigned)sy[a]);
                str_cat(&b, "}}");
            }
            str_cat(&b, n ? "};\n" : "{{0}}};\n");
        }
        str_cat(&b, "\n");
    }
    source_literal(&b, "gtc_cuda_source", cuda_src);
    str_cat(&b, "\n");
    source_literal(&b, "gtc_cpu_source", cpu_src);
    str_add(&b, "\nconst RtPlan %s_plan = {\n    .abi = RT_PLAN_ABI,\n    .graph = \"", sym);
    emit_cstr(&b, rp->graph);
    str_cat(&b, "\",\n    .class_name = \"");
    emit_cstr(&b, rp->class_name);
    str_cat(&b, "\",\n    .source = \"");
    emit_cstr(&b, rp->source);
    str_add(&b, "\",\n    .ninputs = %d,\n    .noutputs = %d,\n    .nscalars = %d,\n"
                "    .inputs = gtc_inputs,\n    .outputs = gtc_outputs,\n    .nsteps = %d,\n    .steps = gtc_steps,\n"
                "    .arena_bytes = %lld,\n    .nodes = %d,\n    .fused_kernels = %d,\n    .gemms = %d,\n"
                "    .reductions = %d,\n    .cpu = %s_cpu_kernels,\n    .cuda = GTC_CUDA_KERNELS,\n"
                "    .cuda_source = gtc_cuda_source,\n    .cpu_source = gtc_cpu_source,\n};\n",
            g->ninputs, rp->noutputs, rp->nscalars, rp->nsteps, (long long)rp->arena_bytes, rp->nodes,
            rp->fused_kernels, rp->gemms, rp->reductions, sym);
    if (p->predict[0]) { /* before the closing brace */
        b.n -= 3;
        b.s[b.n] = 0;
        str_add(&b, "    .predict = &%s_plan,\n};\n", p->predict);
    }
    if (rp->nsyms) {
        b.n -= 3;
        b.s[b.n] = 0;
        str_add(&b, "    .nsyms = %d,\n    .syms = gtc_syms,\n    .in_sym = gtc_in_sym,\n    .out_sym = gtc_out_sym,\n};\n",
                rp->nsyms);
    }
    if (rp->nchecks) { /* before the closing brace: the fields a plan without checks leaves 0 */
        b.n -= 3;
        b.s[b.n] = 0;
        str_add(&b, "    .nchecks = %d,\n    .checks = gtc_checks,\n    .check_off = %lld,\n};\n", rp->nchecks,
                (long long)rp->check_off);
    }
    plan_build_free(rp);
    return str_take(&b);
}

/* One plan's three files, their names after prefix ("" or "predict_"). */
static int emit_files(const Graph *g, const char *dir, const char *prefix, const char *source_name, Diag *d) {
    char *cu = emit_cuda_source(g, source_name, d);
    char *c = cu ? emit_cpu_source(g, source_name, d) : NULL;
    char *pl = c ? emit_plan_source(g, source_name, cu, c, d) : NULL;
    char *names[3] = {xfmt("%skernels.cu", prefix), xfmt("%skernels_cpu.c", prefix), xfmt("%splan.c", prefix)};
    int rc = pl ? 0 : -1;
    if (!rc) rc = emit_write_file(dir, names[0], cu, d);
    if (!rc) rc = emit_write_file(dir, names[1], c, d);
    if (!rc) rc = emit_write_file(dir, names[2], pl, d);
    for (int i = 0; i < 3; i++) free(names[i]);
    free(cu);
    free(c);
    free(pl);
    return rc;
}

int emit_all(const Graph *g, const Graph *fwd, const char *dir, const char *source_name, Diag *d) {
    if (fwd && emit_files(fwd, dir, "predict_", source_name, d)) return -1;
    return emit_files(g, dir, "", source_name, d);
}
