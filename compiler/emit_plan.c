/* compiler/emit_plan.c: plan.c, the RtPlan table (runtime/core/plan.h) that ties the generated
 * kernels to the executor: inputs and outputs, steps with their kernels, fused ops, buffers,
 * reasons and launch configurations, the arena size, statistics and both kernel sources; and
 * emit_all, which writes the three generated files. The texts copied into generated code
 * (ir/scalar.h and templates/) are built into gtc by the Makefile (emit_text.inc). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "emit_ext.h"

#include "emit_text.inc"

const char *emit_text_scalar_h(void) { return text_scalar_h; }
const char *emit_text_cuda_types(void) { return text_kernels_types_cuh; }
const char *emit_text_cuda_prelude(void) { return text_kernels_prelude_cuh; }
const char *emit_text_cpu_prelude(void) { return text_kernels_cpu_prelude_h; }

static const Node *N(const Graph *g, NodeId id) { return &g->nodes[id]; }

/* "a","b" → a C string literal of names joined by commas. */
static void name_list(Str *b, const Graph *g, const NodeId *ids, int n) {
    str_cat(b, "\"");
    for (int k = 0; k < n; k++) {
        if (k) str_cat(b, ",");
        emit_cstr(b, N(g, ids[k])->name);
    }
    str_cat(b, "\"");
}

static void io_entry(Str *b, const char *name, const TensorType *t, int scalar, int donated) {
    str_cat(b, "    {\"");
    emit_cstr(b, name);
    str_add(b, "\", DT_%s, %d, {", t->dtype == DT_BOOL ? "BOOL" : t->dtype == DT_INT32 ? "INT32"
                                   : t->dtype == DT_INT64 ? "INT64" : t->dtype == DT_FLOAT32 ? "FLOAT32" : "FLOAT64",
            t->rank);
    for (int i = 0; i < t->rank; i++) str_add(b, "%s%lld", i ? ", " : "", (long long)t->dims[i]);
    if (!t->rank) str_cat(b, "0");
    str_add(b, "}, %d, %d},\n", scalar, donated);
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

static const char *rt_kind(StepKind k) {
    static const char *const names[] = {"RT_STEP_ELEMWISE", "RT_STEP_REDUCE", "RT_STEP_ROW", "RT_STEP_GEMM", "RT_STEP_COPY"};
    return names[k];
}

char *emit_plan_source(const Graph *g, const char *source_name, const char *cuda_src, const char *cpu_src, Diag *d) {
    if (emit_check_plan(g, d)) return NULL;
    const Plan *p = g->plan;
    char cls[IR_MAX_NAME + 16], err[256];
    if (emit_ext_class_name(g->name, cls, sizeof cls, err, sizeof err)) {
        diag_at(d, "name", "%s", err);
        return NULL;
    }
    int64_t scr_off, scr_bytes, arena = emit_arena_bytes(g, &scr_off, &scr_bytes);
    Str b = {0};
    emit_header(&b, source_name);
    str_add(&b, "/* The plan table of %s for runtime/core/exec.c: %d steps. The arena holds the planner's\n"
                " * %lld bytes", g->name, p->nsteps, (long long)p->arena_bytes);
    if (scr_off >= 0)
        str_add(&b, ", then [%lld, %lld): scratch for the CPU GEMMs whose product has no buffer\n"
                    " * of its own (the CUDA kernels apply epilogues in registers and never touch it)",
                (long long)scr_off, (long long)(scr_off + scr_bytes));
    str_cat(&b, ". */\n#include \"plan.h\"\n\n"
                "extern const RtCpuKernel gtc_cpu_kernels[];\n"
                "extern const void *const gtc_cuda_kernels[] __attribute__((weak));\n\n");
    /* inputs and outputs */
    int nscalars = 0, ninputs = 0;
    str_cat(&b, "static const RtPlanIO gtc_inputs[] = {\n");
    for (int pos = 0; pos < g->ninputs; pos++)
        for (int i = 0; i < g->nnodes; i++) {
            const Node *nd = N(g, i);
            if (nd->op != OP_INPUT || nd->input_index != pos) continue;
            io_entry(&b, nd->name, &nd->type, nd->type.rank ? -1 : nscalars, -1);
            nscalars += nd->type.rank == 0;
            ninputs++;
        }
    if (!ninputs) str_cat(&b, "    {0},\n");
    str_cat(&b, "};\nstatic const RtPlanIO gtc_outputs[] = {\n");
    for (int j = 0; j < g->noutputs; j++) {
        int alias = p->output_alias ? p->output_alias[j] : -1;
        io_entry(&b, g->outputs[j].name, &N(g, g->outputs[j].value)->type, -1, alias);
    }
    if (!g->noutputs) str_cat(&b, "    {0},\n");
    /* steps */
    int stats[STEP_COPY + 1] = {0};
    str_cat(&b, "};\nstatic const RtPlanStep gtc_steps[] = {\n");
    for (int s = 0; s < p->nsteps; s++) {
        const Step *st = &p->steps[s];
        EmitLaunch l;
        if (emit_launch(g, s, &l, d)) {
            str_free(&b);
            return NULL;
        }
        stats[st->kind]++;
        str_add(&b, "    {%s, \"gtc_k%d\", \"", rt_kind(st->kind), s);
        for (int k = 0; k < st->nnodes; k++) str_add(&b, "%s%s", k ? "," : "", ir_ops[N(g, st->nodes[k])->op].name);
        str_cat(&b, "\",\n     ");
        name_list(&b, g, st->ins, st->nins);
        str_cat(&b, ", ");
        if (st->kind == STEP_COPY && !st->nouts) {
            str_cat(&b, "\"");
            emit_cstr(&b, g->outputs[st->copy_output].name);
            str_cat(&b, "\"");
        } else {
            name_list(&b, g, st->outs, st->nouts);
        }
        str_cat(&b, ",\n     \"");
        emit_cstr(&b, st->reason);
        str_add(&b, "\",\n     {%u, %u, %u}, {%u, %u, %u}, %u},\n", l.grid[0], l.grid[1], l.grid[2], l.block[0],
                l.block[1], l.block[2], l.smem);
    }
    if (!p->nsteps) str_cat(&b, "    {0},\n");
    str_cat(&b, "};\n\n");
    source_literal(&b, "gtc_cuda_source", cuda_src);
    str_cat(&b, "\n");
    source_literal(&b, "gtc_cpu_source", cpu_src);
    int nodes = 0;
    for (int i = 0; i < g->nnodes; i++) nodes += N(g, i)->op != OP_INPUT;
    str_cat(&b, "\nconst RtPlan gtc_plan = {\n    .abi = RT_PLAN_ABI,\n    .graph = \"");
    emit_cstr(&b, g->name);
    str_cat(&b, "\",\n    .class_name = \"");
    emit_cstr(&b, cls);
    str_cat(&b, "\",\n    .source = \"");
    emit_cstr(&b, source_name ? source_name : "");
    str_add(&b, "\",\n    .ninputs = %d,\n    .noutputs = %d,\n    .nscalars = %d,\n"
                "    .inputs = gtc_inputs,\n    .outputs = gtc_outputs,\n    .nsteps = %d,\n    .steps = gtc_steps,\n"
                "    .arena_bytes = %lld,\n    .nodes = %d,\n    .fused_kernels = %d,\n    .gemms = %d,\n"
                "    .reductions = %d,\n    .cpu = gtc_cpu_kernels,\n    .cuda = gtc_cuda_kernels,\n"
                "    .cuda_source = gtc_cuda_source,\n    .cpu_source = gtc_cpu_source,\n};\n",
            g->ninputs, g->noutputs, nscalars, p->nsteps, (long long)arena, nodes,
            stats[STEP_ELEMWISE] + stats[STEP_REDUCE] + stats[STEP_ROW], stats[STEP_GEMM],
            stats[STEP_REDUCE] + stats[STEP_ROW]);
    return str_take(&b);
}

/* Writes text to dir/name through a temporary file renamed into place. */
static int write_file(const char *dir, const char *name, const char *text, Diag *d) {
    char *path = xfmt("%s/%s", dir, name), *tmp = xfmt("%s/.%s.tmp", dir, name);
    FILE *f = fopen(tmp, "wb");
    int rc = 0;
    if (!f) {
        diag_at(d, NULL, "cannot write %s: %s", path, strerror(errno));
        rc = -1;
    } else {
        size_t n = strlen(text);
        bool ok = fwrite(text, 1, n, f) == n;
        ok = fclose(f) == 0 && ok;
        if (!ok || rename(tmp, path) != 0) {
            diag_at(d, NULL, "cannot write %s: %s", path, strerror(errno));
            remove(tmp);
            rc = -1;
        }
    }
    free(path);
    free(tmp);
    return rc;
}

int emit_all(const Graph *g, const char *dir, const char *source_name, Diag *d) {
    char *cu = emit_cuda_source(g, source_name, d);
    char *c = cu ? emit_cpu_source(g, source_name, d) : NULL;
    char *pl = c ? emit_plan_source(g, source_name, cu, c, d) : NULL;
    int rc = pl ? 0 : -1;
    if (!rc) rc = write_file(dir, "kernels.cu", cu, d);
    if (!rc) rc = write_file(dir, "kernels_cpu.c", c, d);
    if (!rc) rc = write_file(dir, "plan.c", pl, d);
    free(cu);
    free(c);
    free(pl);
    return rc;
}
