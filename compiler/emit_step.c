/* compiler/emit_step.c: facts about plan steps that both code generators need: reduction
 * accumulators (types, identities, fold and final statements), GEMM geometry (sizes, strides,
 * batching, transposes), ROW step classification (per-row and full-row values), index widths,
 * scalar slots, and the plan checks done before anything is generated. */
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "../runtime/core/plan_abi.h"

static const Node *N(const Graph *g, NodeId id) { return &g->nodes[id]; }

int emit_scalar_slot(const Graph *g, int input_index) {
    int slot = 0, found = -1;
    for (int i = 0; i < g->nnodes; i++) {
        const Node *nd = N(g, i);
        if (nd->op != OP_INPUT || nd->type.rank != 0) continue;
        if (nd->input_index == input_index) found = 1;
        if (nd->input_index < input_index) slot++;
    }
    return found > 0 ? slot : -1;
}

int emit_nscalars(const Graph *g) {
    int n = g->nsyms;
    for (int i = 0; i < g->nnodes; i++) n += g->nodes[i].op == OP_INPUT && g->nodes[i].type.rank == 0;
    return n;
}

int emit_sym_slot(const Graph *g, int sym) { return emit_nscalars(g) - g->nsyms + sym - 1; }

bool emit_step_idx64(const Graph *g, const Step *st) {
    const int64_t lim = ((int64_t)1 << 31) - ((int64_t)1 << 24); /* room for grid-stride steps */
    const NodeId *lists[3] = {st->nodes, st->ins, st->outs};
    int ns[3] = {st->nnodes, st->nins, st->nouts};
    for (int l = 0; l < 3; l++)
        for (int k = 0; k < ns[l]; k++) {
            const Node *nd = N(g, lists[l][k]);
            if (ir_numel(&nd->type) >= lim) return true;
            for (int i = 0; i < nd->ninputs; i++)
                if (nd->in[i].id >= 0 && ir_numel(&N(g, nd->in[i].id)->type) >= lim) return true;
        }
    return false;
}

/* ---- reductions --------------------------------------------------------------------------------- */

int emit_red_info(const Graph *g, NodeId r, EmitRed *ri, Diag *d) {
    const Node *nd = N(g, r);
    char err[128];
    memset(ri, 0, sizeof *ri);
    ri->op = nd->op;
    ri->node = r;
    ri->x = nd->in[0].id;
    if (ir_ops[nd->op].kind != K_REDUCE || ri->x < 0) {
        diag_node(d, nd, "internal: not a reduction of a tensor");
        return -1;
    }
    const TensorType *xt = &N(g, ri->x)->type;
    if (ir_reduce_mask(&nd->attrs, xt->rank, &ri->mask, err, sizeof err)) {
        diag_node(d, nd, "%s", err);
        return -1;
    }
    ri->out = nd->type.dtype;
    ri->arg = ir_ops[nd->op].rule == R_ARG;
    ri->ct = ri->arg ? xt->dtype : ri->out;
    ri->count = 1;
    ri->axis = -1;
    for (int i = 0; i < xt->rank; i++)
        if (ri->mask & (1u << i)) ri->count *= xt->dims[i], ri->axis = i;
    bool flt = ir_dtype_is_float(ri->ct);
    const char *sfx = ri->ct == DT_FLOAT32 ? "F" : "D";
    switch (nd->op) {
    case OP_SUM: case OP_MEAN: case OP_PROD:
        ri->acc = flt ? "double" : ri->ct == DT_INT32 ? "uint32_t" : "uint64_t";
        snprintf(ri->init, sizeof ri->init, "%s", nd->op == OP_PROD ? "1" : "0");
        break;
    case OP_MAX: case OP_MIN: case OP_ARGMAX: case OP_ARGMIN: {
        bool mx = nd->op == OP_MAX || nd->op == OP_ARGMAX;
        ri->acc = ri->ct == DT_BOOL ? "int" : emit_ctype(ri->ct);
        if (flt) snprintf(ri->init, sizeof ri->init, "(%sGTC_INF_%s)", mx ? "-" : "", sfx);
        else if (ri->ct == DT_BOOL) snprintf(ri->init, sizeof ri->init, "%d", mx ? 0 : 1);
        else snprintf(ri->init, sizeof ri->init, "%s", emit_int_limit(ri->ct, !mx));
        break;
    }
    default: diag_node(d, nd, "internal: unknown reduction"); return -1;
    }
    if (ri->arg && (nd->attrs.naxes != 1 || ri->axis < 0)) {
        diag_node(d, nd, "takes exactly one axis");
        return -1;
    }
    return 0;
}

/* The test under which a max or min takes v over acc: the first NaN stays. */
static char *red_takes(const EmitRed *ri, const char *acc, const char *v) {
    const char *cmp = ri->op == OP_MAX ? ">" : "<";
    if (!ir_dtype_is_float(ri->ct)) return xfmt("%s %s %s", v, cmp, acc);
    return xfmt("%s %s %s || (%s != %s && %s == %s)", v, cmp, acc, v, v, acc, acc);
}

char *emit_red_step(const EmitRed *ri, const char *acc, const char *acc_i, const char *v, const char *k) {
    switch (ri->op) {
    case OP_SUM: case OP_MEAN: return xfmt("%s += (%s)%s;", acc, ri->acc, v);
    case OP_PROD: return xfmt("%s *= (%s)%s;", acc, ri->acc, v);
    case OP_MAX: case OP_MIN: {
        char *t = red_takes(ri, acc, v), *r = xfmt("if (%s) %s = %s;", t, acc, v);
        free(t);
        return r;
    }
    case OP_ARGMAX: case OP_ARGMIN: {
        const char *cmp = ri->op == OP_ARGMAX ? ">" : "<";
        if (!ir_dtype_is_float(ri->ct)) return xfmt("if (%s < 0 || %s %s %s) { %s = %s; %s = %s; }", acc_i, v, cmp, acc, acc, v, acc_i, k);
        return xfmt("if (%s < 0 || (%s == %s && (%s %s %s || %s != %s))) { %s = %s; %s = %s; }", acc_i, acc, acc, v,
                    cmp, acc, v, v, acc, v, acc_i, k);
    }
    default: return xfmt("/* ? */");
    }
}

char *emit_red_step_select(const EmitRed *ri, const char *acc, const char *acc_i, const char *v, const char *k) {
    if (ri->op != OP_MAX && ri->op != OP_MIN) return emit_red_step(ri, acc, acc_i, v, k);
    char *t = red_takes(ri, acc, v), *r = xfmt("%s = (%s) ? %s : %s;", acc, t, v, acc);
    free(t);
    return r;
}

char *emit_red_final(const EmitRed *ri, const char *acc, const char *acc_i) {
    const char *ot = emit_ctype(ri->out);
    switch (ri->op) {
    case OP_MEAN:
        if (ri->count_text[0]) return xfmt("((%s)(%s / %s))", ot, acc, ri->count_text); /* symbolic: at run time */
        return xfmt("((%s)(%s / (double)%lld))", ot, acc, (long long)ri->count);
    case OP_ARGMAX: case OP_ARGMIN: return xfmt("((int64_t)%s)", acc_i);
    default: return xfmt("((%s)%s)", ot, acc);
    }
}

void emit_red_count(const Graph *g, EmitRed *ri, const char *args) {
    const TensorType *xt = &N(g, ri->x)->type;
    int64_t fixed = 1;
    Str b = {0};
    for (int i = 0; i < xt->rank; i++) {
        if (!(ri->mask & (1u << i))) continue;
        if (xt->sym[i]) str_add(&b, " * %ss[%d]", args, emit_sym_slot(g, xt->sym[i]));
        else fixed *= xt->dims[i];
    }
    ri->count_text[0] = 0;
    if (b.s) snprintf(ri->count_text, sizeof ri->count_text, "((double)%lld%s)", (long long)fixed, b.s);
    str_free(&b);
}

/* ---- GEMM ---------------------------------------------------------------------------------------- */

int emit_gemm_info(const Graph *g, const Step *st, EmitGemm *gm, Diag *d) {
    StepMatmul sm = {st->root, {st->gemm_in[0], st->gemm_in[1]}, {st->gemm_trans[0], st->gemm_trans[1]},
                     {st->gemm_half[0], st->gemm_half[1]}};
    return emit_matmul_info(g, &sm, false, gm, d);
}

int emit_matmul_info(const Graph *g, const StepMatmul *sm, bool a_in_step, EmitGemm *gm, Diag *d) {
    memset(gm, 0, sizeof *gm);
    gm->mm = sm->mm;
    const Node *mm = N(g, sm->mm);
    if (mm->op != OP_MATMUL || sm->in[0] < 0 || sm->in[1] < 0) {
        diag_node(d, mm, "internal: a GEMM step without a matmul and its two operands");
        return -1;
    }
    gm->a = sm->in[0], gm->b = sm->in[1];
    gm->ta = sm->trans[0], gm->tb = sm->trans[1];
    gm->half[0] = sm->half[0], gm->half[1] = sm->half[1];
    const TensorType *A = &N(g, gm->a)->type, *B = &N(g, gm->b)->type, *O = &mm->type;
    for (int k = 0; k < 2; k++) {
        const Node *op = N(g, k ? gm->b : gm->a);
        BufKind bk = g->plan->buf[k ? gm->b : gm->a].kind;
        const bool widened = gm->half[k] && op->type.dtype == DT_BFLOAT16 && O->dtype == DT_FLOAT32;
        if (op->type.dtype != O->dtype && !widened) {
            diag_node(d, mm, "compiled matmul needs operands of its result's dtype (%s), but %s is %s: cast it first",
                      ir_dtype_name(O->dtype), op->name, ir_dtype_name(op->type.dtype));
            return -1;
        }
        if (!(k == 0 && a_in_step) && bk != BUF_INPUT && bk != BUF_OUTPUT && bk != BUF_ARENA) {
            diag_node(d, mm, "internal: GEMM operand %s is not in memory", op->name);
            return -1;
        }
    }
    int ra = A->rank, rb = B->rank;
    if (ra == 1) gm->m = 1, gm->k = A->dims[0], gm->sam = 0, gm->sak = 1;
    else if (!gm->ta) gm->m = A->dims[ra - 2], gm->k = A->dims[ra - 1], gm->sam = gm->k, gm->sak = 1;
    else gm->m = A->dims[ra - 1], gm->k = A->dims[ra - 2], gm->sam = 1, gm->sak = gm->m;
    int64_t kb;
    if (rb == 1) kb = B->dims[0], gm->n = 1, gm->sbk = 1, gm->sbn = 0;
    else if (!gm->tb) kb = B->dims[rb - 2], gm->n = B->dims[rb - 1], gm->sbk = gm->n, gm->sbn = 1;
    else kb = B->dims[rb - 1], gm->n = B->dims[rb - 2], gm->sbk = 1, gm->sbn = kb;
    gm->has_m = ra >= 2;
    gm->has_n = rb >= 2;
    gm->nb = O->rank - gm->has_m - gm->has_n;
    if (kb != gm->k || gm->nb < 0) {
        diag_node(d, mm, "internal: GEMM operand shapes do not match");
        return -1;
    }
    gm->batch = 1;
    for (int i = 0; i < gm->nb; i++) gm->bdims[i] = O->dims[i], gm->batch *= O->dims[i];
    const TensorType *ops[2] = {A, B};
    int64_t *bs[2] = {gm->bsa, gm->bsb};
    for (int s = 0; s < 2; s++) {
        const TensorType *t = ops[s];
        int tb = t->rank > 2 ? t->rank - 2 : 0;
        int64_t stride = t->rank >= 2 ? t->dims[t->rank - 1] * t->dims[t->rank - 2] : 0;
        for (int i = gm->nb - 1; i >= 0; i--) {
            int j = i - (gm->nb - tb);
            if (j < 0) {
                bs[s][i] = 0;
                continue;
            }
            bs[s][i] = t->dims[j] == 1 || gm->bdims[i] == 1 ? 0 : stride;
            stride *= t->dims[j];
        }
    }
    return 0;
}

bool emit_gemm_batch_stride(const EmitGemm *gm, int operand, int64_t *stride) {
    const int64_t *bs = operand ? gm->bsb : gm->bsa;
    int64_t want = -1;
    *stride = 0;
    for (int i = gm->nb - 1; i >= 0; i--) {
        if (gm->bdims[i] == 1) continue;
        if (want < 0) *stride = bs[i];
        else if (bs[i] != want) return false;
        want = bs[i] * gm->bdims[i];
    }
    return true;
}

int emit_gemm_coords(const EmitGemm *gm, char *const *bc, const char *i, const char *j, char **coords) {
    int n = 0;
    for (int b = 0; b < gm->nb; b++) coords[n++] = xfmt("%s", bc[b]);
    if (gm->has_m) coords[n++] = xfmt("%s", i);
    if (gm->has_n) coords[n++] = xfmt("%s", j);
    return n;
}

/* ---- ROW steps ------------------------------------------------------------------------------------ */

static bool per_row(const TensorType *t, const TensorType *s, int keep) {
    if (t->rank == s->rank) {
        for (int i = 0; i < s->rank; i++)
            if (t->dims[i] != (i < keep ? s->dims[i] : 1)) return false;
        return true;
    }
    if (t->rank != keep) return false;
    for (int i = 0; i < keep; i++)
        if (t->dims[i] != s->dims[i]) return false;
    return true;
}

void emit_row_free(EmitRow *ri) {
    free(ri->perrow);
    free(ri->hoist);
    free(ri->full);
    free(ri->epi_node);
    free(ri->ro), free(ri->fo), free(ri->eo);
    memset(ri, 0, sizeof *ri);
}

/* A row step's matmuls (pass_fuse_row.c): the prologue must produce the row shape and the
 * epilogue read a full-row member as A, both rank 2, at most PLAN_ROW_MM_MAX columns / K. */
static int row_matmuls(const Graph *g, const Step *st, EmitRow *ri, const TensorType *S, Diag *d) {
    ri->has_pro = st->row_pro.mm >= 0, ri->has_epi = st->row_epi.mm >= 0;
    if (ri->has_pro && emit_matmul_info(g, &st->row_pro, false, &ri->pro, d)) return -1;
    if (ri->has_epi && emit_matmul_info(g, &st->row_epi, true, &ri->epi, d)) return -1;
    bool ok = !(ri->has_pro || ri->has_epi) || (S->rank == 2 && ri->keep == 1 && ri->len <= PLAN_ROW_MM_MAX);
    if (ri->has_pro) ok = ok && ri->pro.nb == 0 && ri->pro.has_m && ri->pro.has_n && ir_shape_equal(&N(g, ri->pro.mm)->type, S);
    if (ri->has_epi)
        ok = ok && ri->epi.nb == 0 && ri->epi.has_m && ri->epi.has_n && !ri->epi.ta && ri->epi.k == ri->len &&
             ir_shape_equal(&N(g, ri->epi.a)->type, S) && step_has(st->nodes, st->nnodes, ri->epi.a);
    if (!ok) {
        diag_node(d, N(g, st->root), "internal: a row step's matmuls are not over its rows");
        return -1;
    }
    return 0;
}

int emit_row_info(const Graph *g, const Step *st, EmitRow *ri, Diag *d) {
    memset(ri, 0, sizeof *ri);
    EmitRed red;
    if (emit_red_info(g, st->root, &red, d)) return -1;
    ri->root = st->root;
    ri->x = red.x;
    const TensorType *S = &N(g, ri->x)->type;
    int r = S->rank, k = 0;
    while (k < r && (red.mask & (1u << (r - 1 - k)))) k++;
    unsigned trailing = k ? ((1u << r) - 1) & ~((1u << (r - k)) - 1) : 0;
    if (!k || red.mask != trailing) {
        diag_node(d, N(g, st->root), "internal: a row step must reduce trailing axes");
        return -1;
    }
    ri->keep = r - k;
    ri->rows = ri->len = 1;
    for (int i = 0; i < r; i++) *(i < ri->keep ? &ri->rows : &ri->len) *= S->dims[i];
    if (row_matmuls(g, st, ri, S, d)) return -1;
    size_t n = (size_t)g->nnodes + 1;
    ri->perrow = calloc(n, 1), ri->hoist = calloc(n, 1), ri->full = calloc(n, 1), ri->epi_node = calloc(n, 1);
    ri->ro = calloc((size_t)st->nouts + 1, sizeof *ri->ro), ri->fo = calloc((size_t)st->nouts + 1, sizeof *ri->fo);
    ri->eo = calloc((size_t)st->nouts + 1, sizeof *ri->eo);
    bool *dep = calloc(n, 1), *in = calloc(n, 1);
    if (!ri->perrow || !ri->hoist || !ri->full || !ri->epi_node || !ri->ro || !ri->fo || !ri->eo || !dep || !in) abort();
    for (int i = 0; i < st->nnodes; i++) in[st->nodes[i]] = true;
    int rc = 0;
    for (int i = 0; i < st->nnodes && !rc; i++) {
        NodeId id = st->nodes[i];
        const Node *nd = N(g, id);
        /* the epilogue product and what is computed from it: over its rows [M, N] */
        ri->epi_node[id] = ri->has_epi && id == ri->epi.mm;
        for (int k2 = 0; k2 < nd->ninputs && ri->has_epi; k2++)
            if (nd->in[k2].id >= 0 && in[nd->in[k2].id] && ri->epi_node[nd->in[k2].id]) ri->epi_node[id] = true;
        if (ri->epi_node[id]) {
            if (!ir_shape_equal(&nd->type, &N(g, ri->epi.mm)->type)) {
                diag_node(d, nd, "internal: a row epilogue value is not over the product's shape");
                rc = -1;
            }
            continue;
        }
        ri->perrow[id] = per_row(&nd->type, S, ri->keep);
        ri->full[id] = ir_shape_equal(&nd->type, S);
        if (ir_ops[nd->op].kind == K_REDUCE) {
            EmitRed o;
            if (emit_red_info(g, id, &o, d)) rc = -1;
            else if (o.mask != red.mask || !ir_shape_equal(&N(g, o.x)->type, S)) {
                diag_node(d, nd, "internal: a row step's reductions must reduce the same rows");
                rc = -1;
            }
            dep[id] = true;
            continue;
        }
        for (int k2 = 0; k2 < nd->ninputs; k2++)
            if (nd->in[k2].id >= 0 && in[nd->in[k2].id] && dep[nd->in[k2].id]) dep[id] = true;
        ri->hoist[id] = dep[id] && ri->perrow[id];
        if (dep[id] && !ri->perrow[id] && !ri->full[id]) {
            diag_node(d, nd, "internal: a row step value is neither per row nor over the row");
            rc = -1;
        }
    }
    for (int i = 0; i < st->nouts && !rc; i++) {
        NodeId o = st->outs[i];
        if (ri->epi_node[o]) ri->eo[ri->neo++] = o;
        else if (ri->perrow[o] && !ri->full[o]) ri->ro[ri->nro++] = o;
        else if (ri->full[o]) ri->fo[ri->nfo++] = o;
        else {
            diag_node(d, N(g, o), "internal: a row step output is neither per row nor over the row");
            rc = -1;
        }
    }
    free(dep);
    free(in);
    if (rc) emit_row_free(ri);
    return rc;
}

/* ---- the plan ------------------------------------------------------------------------------------ */

int emit_check_plan(const Graph *g, Diag *d) {
    const Plan *p = g->plan;
    if (!p || !p->scheduled || !p->placed || !p->lowered) {
        diag_at(d, NULL, "internal: code generation needs a lowered plan (run the passes through lower)");
        return -1;
    }
    if (!g->name || !ir_is_identifier(g->name)) {
        diag_at(d, "name", "the graph name is not an identifier");
        return -1;
    }
    int nscalars = emit_nscalars(g);
    size_t args = rt_plan_args_bytes(g->ninputs, g->noutputs, nscalars);
    if (args > RT_PLAN_MAX_ARGS_BYTES) {
        diag_at(d, "inputs", "%d inputs (%d of them scalars) and %d outputs need a %zu-byte argument block; "
                "a kernel takes at most %d bytes", g->ninputs, nscalars, g->noutputs, args, RT_PLAN_MAX_ARGS_BYTES);
        return -1;
    }
    /* bfloat16 and float16 run eagerly (every backend op) but generated kernels do not compute
     * them yet: the one refusal both emitters and the JIT reach (an eager composite then runs op
     * by op). pass_bf16's storage casts are the exception: a value stored as bfloat16 and read
     * back as float32 (a load and a store through scalar.h's conversions, no arithmetic). */
    for (int i = 0; i < g->nnodes; i++)
        if (ir_dtype_is_half(g->nodes[i].type.dtype) && !(g->nodes[i].op == OP_CAST && g->nodes[i].attrs.storage)) {
            diag_node(d, N(g, i), "%s values are not supported in compiled steps yet (eager operations "
                      "support them); cast to float32 before compiling", ir_dtype_name(g->nodes[i].type.dtype));
            return -1;
        }
    for (int s = 0; s < p->nsteps; s++) {
        const Step *st = &p->steps[s];
        for (int k = 0; k < st->nouts; k++) {
            BufKind bk = p->buf[st->outs[k]].kind;
            if (bk != BUF_OUTPUT && (bk != BUF_ARENA || p->buf[st->outs[k]].offset < 0)) {
                diag_node(d, N(g, st->outs[k]), "internal: step %d writes a value that has no buffer", s);
                return -1;
            }
        }
        if (st->kind == STEP_COPY && (st->copy_output < 0 || st->copy_output >= g->noutputs)) {
            diag_at(d, NULL, "internal: copy step %d names no output", s);
            return -1;
        }
        int64_t aoff, acount;
        DType adt;
        if (st->kind == STEP_ALLREDUCE && plan_allreduce_range(g, st, &aoff, &acount, &adt)) {
            diag_at(d, NULL, "internal: all-reduce step %d's gradients are not one contiguous arena region", s);
            return -1;
        }
        if ((st->kind == STEP_REDUCE || st->kind == STEP_ROW) && ir_ops[N(g, st->root)->op].kind != K_REDUCE) {
            diag_node(d, N(g, st->root), "internal: step %d is a reduction step without a reduction root", s);
            return -1;
        }
    }
    /* A stored value keeps its strides static: a symbolic axis may only be its leading one. */
    for (int i = 0; i < g->nnodes; i++) {
        const TensorType *t = &N(g, i)->type;
        if (p->buf[i].kind == BUF_NONE && N(g, i)->op != OP_INPUT && plan_output_of(g, i) < 0) continue;
        for (int k = 1; k < t->rank; k++)
            if (t->sym[k]) {
                diag_node(d, N(g, i), "is stored with its axis %d symbolic (\"%s\"); only the leading axis of a stored value "
                          "may be symbolic (a transpose of it fuses into its readers, or is not an output)", k,
                          g->syms[t->sym[k] - 1].name);
                return -1;
            }
    }
    return 0;
}
