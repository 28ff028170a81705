/* compiler/emit_cpu.c: kernels_cpu.c, the plan's steps as C functions for the CPU backend: nested
 * loops with constant bounds over each step's iteration space, the fused expressions inline,
 * reductions accumulated as the CPU backend does (float32 sums in ir/fsum.h's blocked order, other
 * float32 reductions in double), GEMMs through cblas
 * (templates/kernels_cpu_gemm.h's call, eager matmul's too) followed by a loop applying the
 * epilogue; outer loops OpenMP-parallel above RT_CPU_PAR_MIN elements and each step cloned per
 * vector ISA (GTC_CPU_STEP; docs/cpu.md). Self-contained: scalar.h, fsum.h and the preludes are copied
 * in, so the file compiles with the C library, libm, cblas.h and omp.h only. */
#include <stdlib.h>
#include <string.h>

#include "../ir/fsum.h"
#include "emit.h"
#include "emit_cpu.h"
#include "util.h"

static const Node *N(const Graph *g, NodeId id) { return &g->nodes[id]; }

/* Evaluates every output in `outs` (of the given coordinates each) first, then stores them all,
 * so that a value updated in place is read before it is written. */
void emit_cpu_store_outputs(Ex *x, const NodeId *outs, int n, char **const *coords) {
    char **vals = calloc((size_t)n + 1, sizeof *vals);
    if (!vals) abort();
    for (int k = 0; k < n; k++) vals[k] = ex_value(x, outs[k], coords[k]);
    for (int k = 0; k < n; k++) ex_store(x, outs[k], coords[k], vals[k]);
    for (int k = 0; k < n; k++) free(vals[k]);
    free(vals);
}

/* What the single output of an ELEMWISE step is a reshape of, through the reshapes it computes
 * (else the output itself). A reshape keeps the linear index, so the step may loop over that
 * value's shape and store at its linear index: the reshape's divisions go away, and the loads of
 * an im2col's or a transposed copy's source stay affine in the loop counters, which the
 * vectoriser needs. Static shapes only. */
static NodeId reshape_source(const Ex *x, NodeId v) {
    if (x->st->nouts != 1) return v;
    while (N(x->g, v)->op == OP_RESHAPE && x->in_step[v] && !ir_type_symbolic(&N(x->g, v)->type)) {
        NodeId u = N(x->g, v)->in[0].id;
        if (u < 0 || ir_type_symbolic(&N(x->g, u)->type)) break;
        v = u;
    }
    return v;
}

/* The single output of an ELEMWISE step, written from the value it reshapes (*ctx) at its
 * linear index. */
static void store_reshaped(Ex *x, char **coords, void *ctx) {
    NodeId src = *(NodeId *)ctx;
    const TensorType *t = &N(x->g, src)->type;
    char *val = ex_value(x, src, coords), *addr = ex_addr(x, x->st->outs[0]), *lin = ex_linear(x, t, coords);
    if (addr) ex_line(x, "%s[%s] = %s;", addr, lin, val);
    free(val), free(addr), free(lin);
}

/* A group of outputs of one shape (struct OutGroup), stored at the same coordinates. */
struct OutGroup {
    NodeId *outs;
    char ***cs;
    int n;
};

static void store_group(Ex *x, char **coords, void *ctx) {
    struct OutGroup *gr = ctx;
    for (int j = 0; j < gr->n; j++) gr->cs[j] = coords;
    emit_cpu_store_outputs(x, gr->outs, gr->n, gr->cs);
}

/* ELEMWISE: one loop nest per distinct output shape (normally one, the root's). */
static void emit_cpu_elemwise(Ex *x) {
    const Step *st = x->st;
    NodeId src = st->nouts == 1 ? reshape_source(x, st->outs[0]) : -1;
    if (src >= 0 && src != st->outs[0]) {
        const TensorType *t = &N(x->g, src)->type;
        char *coords[IR_MAX_RANK] = {0};
        ex_loop_nest(x, t, ex_par_work(ir_numel(t)), coords, store_reshaped, &src);
        ex_free_coords(coords, t->rank);
        return;
    }
    bool *done = calloc((size_t)st->nouts + 1, 1);
    if (!done) abort();
    for (int k = 0; k < st->nouts; k++) {
        if (done[k]) continue;
        const TensorType *t = &N(x->g, st->outs[k])->type;
        NodeId *group = calloc((size_t)st->nouts, sizeof *group);
        char ***cs = calloc((size_t)st->nouts, sizeof *cs);
        char *coords[IR_MAX_RANK] = {0};
        int n = 0;
        if (!group || !cs) abort();
        for (int j = k; j < st->nouts; j++)
            if (!done[j] && ir_shape_equal(&N(x->g, st->outs[j])->type, t) && !memcmp(N(x->g, st->outs[j])->type.sym, t->sym, sizeof t->sym))
                done[j] = true, group[n++] = st->outs[j];
        struct OutGroup gr = {group, cs, n};
        ex_loop_nest(x, t, ex_par_work(ir_numel(t)), coords, store_group, &gr);
        ex_free_coords(coords, t->rank);
        free(group);
        free(cs);
    }
    free(done);
}

/* Whether a reduction is a float32 sum or mean: ir/fsum.h's blocked order (the eager ops'),
 * not the double accumulator of emit_red_step. */
bool emit_cpu_red_fsum(const EmitRed *ri) { return ri->ct == DT_FLOAT32 && (ri->op == OP_SUM || ri->op == OP_MEAN); }

/* A float32 sum's loop; returns its value's expression. Over one reduced axis of at most
 * GTC_FSUM_BLOCK (a softmax's row): its values into an array, then gtc_fsum_block (one block's
 * sum is the sum). Over one longer axis: blocks of values written to the gtc_fsum's buffer by a
 * loop that vectorises, each then summed. Over several: each value put in turn (the same order). */
static char *fsum_loop(Ex *x, const EmitRed *ri, char **xc) {
    const TensorType *S = &N(x->g, ri->x)->type;
    int nred = 0, ax = -1;
    for (int i = 0; i < S->rank; i++)
        if ((ri->mask & (1u << i)) && (S->dims[i] != 1 || S->sym[i])) nred++, ax = i;
    bool one = nred == 1 && !S->sym[ax] && S->dims[ax] <= GTC_FSUM_BLOCK;
    char *fs = ex_name(x, "fs"), *put = NULL, *m = NULL, *res;
    int loops = 0;
    if (one) {
        ex_line(x, "float %s[%lld];", fs, (long long)S->dims[ax]);
        loops = ex_open_loops(x, S, ax, 1, &xc[ax], false);
        put = xfmt("%s[%s] = %%s;", fs, xc[ax]);
        res = xfmt("gtc_fsum_block(%s, %lld)", fs, (long long)S->dims[ax]);
    } else {
        ex_line(x, "gtc_fsum %s;", fs);
        ex_line(x, "gtc_fsum_init(&%s);", fs);
        res = xfmt("gtc_fsum_end(&%s)", fs);
    }
    if (!one && nred == 1) {
        char *kb = ex_name(x, "kb"), *n = ex_dim(x, S, ax), *j = ex_name(x, "j");
        m = ex_name(x, "m");
        ex_line(x, "for (%s %s = 0; %s < %s; %s += GTC_FSUM_BLOCK) {", x->idx, kb, kb, n, kb);
        x->indent++;
        ex_line(x, "const int %s = %s - %s < GTC_FSUM_BLOCK ? (int)(%s - %s) : GTC_FSUM_BLOCK;", m, n, kb, n, kb);
        ex_line(x, "for (int %s = 0; %s < %s; %s++) {", j, j, m, j);
        x->indent++;
        xc[ax] = ex_name(x, "c");
        ex_line(x, "const %s %s = %s + %s;", x->idx, xc[ax], kb, j);
        put = xfmt("%s.buf[%s] = %%s;", fs, j);
        free(kb), free(n), free(j);
    } else if (!one) {
        for (int i = 0; i < S->rank; i++)
            if (ri->mask & (1u << i)) loops += ex_open_loops(x, S, i, 1, &xc[i], false);
        put = xfmt("gtc_fsum_put(&%s, %%s);", fs);
    }
    for (int i = 0; i < S->rank; i++)
        if ((ri->mask & (1u << i)) && !xc[i]) xc[i] = strdup("0");
    int mk = ex_mark(x);
    char *v = ex_value(x, ri->x, xc);
    char *cv = emit_conv(v, S->dtype, ri->ct);
    ex_line(x, put, cv);
    free(cv), free(v), free(put);
    ex_release(x, mk);
    if (m) { /* the block: its values, then its sum */
        ex_close_loops(x, 1);
        ex_line(x, "%s.pos = %s;", fs, m);
        ex_line(x, "gtc_fsum_flush(&%s);", fs);
        ex_close_loops(x, 1);
        free(m);
    } else ex_close_loops(x, loops);
    for (int i = 0; i < S->rank; i++)
        if (ri->mask & (1u << i)) free(xc[i]), xc[i] = NULL;
    free(fs);
    return res;
}

/* The reduction loop itself: xc holds the kept coordinates; reduced ones are opened here. */
void emit_cpu_reduce_loop(Ex *x, const EmitRed *ri, char **xc) {
    const TensorType *S = &N(x->g, ri->x)->type;
    if (emit_cpu_red_fsum(ri)) {
        char *sum = fsum_loop(x, ri, xc), *fin = emit_red_final(ri, sum, NULL), *r = ex_name(x, "v");
        ex_line(x, "const %s %s = %s;", emit_ctype(ri->out), r, fin);
        ex_bind(x, ri->node, r);
        free(fin), free(r), free(sum);
        return;
    }
    char *acc = ex_name(x, "acc"), *acci = xfmt("%si", acc);
    ex_line(x, "%s %s = %s;", ri->acc, acc, ri->init);
    if (ri->arg) ex_line(x, "long long %s = -1;", acci);
    int loops = 0;
    for (int i = 0; i < S->rank; i++) {
        if (!(ri->mask & (1u << i))) continue;
        loops += ex_open_loops(x, S, i, 1, &xc[i], false);
    }
    int m = ex_mark(x);
    char *v = ex_value(x, ri->x, xc);
    char *cv = emit_conv(v, S->dtype, ri->ct);
    char *stmt = emit_red_step(ri, acc, acci, cv, ri->arg ? xc[ri->axis] : "0");
    ex_line(x, "%s", stmt);
    free(stmt), free(cv), free(v);
    ex_release(x, m);
    ex_close_loops(x, loops);
    for (int i = 0; i < S->rank; i++)
        if (ri->mask & (1u << i)) free(xc[i]), xc[i] = NULL;
    char *fin = emit_red_final(ri, acc, acci), *r = ex_name(x, "v");
    ex_line(x, "const %s %s = %s;", emit_ctype(ri->out), r, fin);
    ex_bind(x, ri->node, r);
    free(fin), free(r), free(acc), free(acci);
}

/* Whether the step's outputs all have the reduction's shape (a planner invariant). */
static bool reduce_outs_ok(Ex *x, const TensorType *O) {
    for (int k = 0; k < x->st->nouts; k++)
        if (!ir_shape_equal(&N(x->g, x->st->outs[k])->type, O)) {
            diag_node(x->d, N(x->g, x->st->outs[k]), "internal: a reduce step output is not over the reduction's shape");
            x->failed = true;
        }
    return !x->failed;
}

#define COL_BLOCK 64
#define MID_BLOCK 8
#define MID_RUN 1024 /* a float32 sum's runs along a middle axis through a block buffer, at most */

/* A reduction over every axis but one, k (a bias gradient: the column sums of [rows, n], k the
 * last axis; a convolution's over [N, C, H, W], k = 1), as blocks of outputs whose accumulators
 * advance together, the block's loop inside the reduced axes before k and outside those after
 * it. When k is the last axis (blocks of COL_BLOCK) the input is read along its rows (not down
 * its columns, a cache line per element) and the innermost loop, the block's, vectorises; when
 * it is not (blocks of MID_BLOCK), each output reads its run of the axes after k at once, and
 * the block's sums are independent chains that the CPU overlaps, where one output at a time
 * waited for each add of its double accumulator. Each output still folds its elements in the
 * same order as reduce_loop (the reduced axes in index order), so the values are the same bits. */
static void emit_cpu_reduce_cols(Ex *x, const EmitRed *ri, const TensorType *S, const TensorType *O, int k) {
    int r = S->rank;
    int64_t n = S->dims[k];
    /* a middle axis: blocks of MID_BLOCK chains, enough to hide an add's latency, and more
     * blocks for the threads (the block size changes no value) */
    int bs = k == r - 1 ? COL_BLOCK : MID_BLOCK;
    /* a float32 sum: along the last axis, lanes and levels of ir/fsum.h's column form (a
     * reduced position's row adds into one lane of every column); along a middle one, each
     * output's runs over the axes after k (q values, static, at most MID_RUN) written into its
     * row of a block buffer (a loop that vectorises), every whole block summed with
     * gtc_fsum_block and pushed for the block's outputs together, the part of a run past the
     * block moved to the front; longer or symbolic runs: one gtc_fsum per output, values put in
     * turn (a put per value made the CNN's conv bias gradients 2-5x slower than the double chains) */
    bool fs = emit_cpu_red_fsum(ri), fcols = fs && k == r - 1;
    int64_t q = 1;
    bool qstatic = true;
    for (int i = k + 1; i < r; i++) q *= S->dims[i], qstatic = qstatic && !S->sym[i];
    bool fruns = fs && !fcols && qstatic && q <= MID_RUN;
    const char *L = x->idx64 ? "LL" : "";
    if (ex_par_work(ir_numel(S)) && n > bs) ex_line(x, "#pragma omp parallel for schedule(static)");
    char *cb = ex_name(x, "cb"), *acc = ex_name(x, "accb"), *nb = ex_name(x, "nb");
    ex_line(x, "for (%s %s = 0; %s < %lld%s; %s += %d) {", x->idx, cb, cb, (long long)n, L, cb, bs);
    x->indent++;
    ex_line(x, "const int %s = %lld%s - %s < %d ? (int)(%lld%s - %s) : %d;", nb, (long long)n, L, cb, bs, (long long)n, L, cb, bs);
    if (fcols) {
        ex_line(x, "float %s[GTC_FSUM_LANES][%d], %s_lv[GTC_FSUM_LEVELS][%d], %s_r[%d];", acc, bs, acc, bs, acc, bs);
        ex_line(x, "uint64_t %s_k = 0, %s_n = 0;", acc, acc);
        ex_line(x, "for (int l = 0; l < GTC_FSUM_LANES * %d; l++) (&%s[0][0])[l] = 0;", bs, acc);
    } else if (fruns) {
        ex_line(x, "float %s[%d][GTC_FSUM_BLOCK + %lld], %s_lv[GTC_FSUM_LEVELS][%d], %s_t[%d];", acc, bs, (long long)q, acc,
                bs, acc, bs);
        ex_line(x, "unsigned long long %s_n = 0;", acc);
        ex_line(x, "int %s_p = 0;", acc);
    } else if (fs) {
        ex_line(x, "gtc_fsum %s[%d];", acc, bs);
        ex_line(x, "for (int l = 0; l < %s; l++) gtc_fsum_init(&%s[l]);", nb, acc);
    } else {
        ex_line(x, "%s %s[%d];", ri->acc, acc, bs);
        ex_line(x, "for (int l = 0; l < %s; l++) %s[l] = %s;", nb, acc, ri->init);
    }
    /* the block's column sums through the fold and the push (after a whole block, and at the end) */
    char *flush = xfmt("gtc_fsum_cols_block(&%s[0][0], &%s_lv[0][0], %d, &%s_n, %s);", acc, acc, bs, acc, nb);
    char *xc[IR_MAX_RANK] = {0};
    int loops = ex_open_loops(x, S, 0, k, xc, false);
    if (fcols) ex_line(x, "float *const %s_p = %s[%s_k %% GTC_FSUM_LANES];", acc, acc, acc);
    ex_line(x, "for (int l = 0; l < %s; l++) {", nb);
    x->indent++;
    char *ck = ex_name(x, "ck");
    ex_line(x, "const %s %s = %s + l;", x->idx, ck, cb);
    xc[k] = strdup(ck);
    if (fruns) ex_line(x, "int %s_q = %s_p;", acc, acc);
    int inner = ex_open_loops(x, S, k + 1, r - 1 - k, xc + k + 1, false);
    int m = ex_mark(x);
    char *v = ex_value(x, ri->x, xc);
    char *cv = emit_conv(v, S->dtype, ri->ct), *a = xfmt("%s[l]", acc);
    char *stmt = fcols    ? xfmt("%s_p[l] += %s;", acc, cv)
                 : fruns  ? xfmt("%s[l][%s_q++] = %s;", acc, acc, cv)
                 : fs     ? xfmt("gtc_fsum_put(&%s[l], %s);", acc, cv)
                          : emit_red_step(ri, a, NULL, cv, "0");
    ex_line(x, "%s", stmt);
    free(stmt), free(cv), free(v);
    ex_release(x, m);
    ex_close_loops(x, inner);
    x->indent--;
    ex_line(x, "}");
    if (fcols) {
        ex_line(x, "if (++%s_k %% GTC_FSUM_BLOCK == 0) %s", acc, flush);
    } else if (fruns) {
        ex_line(x, "%s_p += %lld;", acc, (long long)q);
        ex_line(x, "if (%s_p >= GTC_FSUM_BLOCK) {", acc);
        ex_line(x, "    int %s_s = 0;", acc);
        ex_line(x, "    for (; %s_p - %s_s >= GTC_FSUM_BLOCK; %s_s += GTC_FSUM_BLOCK) {", acc, acc, acc);
        ex_line(x, "        for (int l = 0; l < %s; l++) %s_t[l] = gtc_fsum_block(%s[l] + %s_s, GTC_FSUM_BLOCK);", nb, acc, acc, acc);
        ex_line(x, "        gtc_fsum_push(&%s_lv[0][0], %d, %s_n++, %s_t, %s);", acc, bs, acc, acc, nb);
        ex_line(x, "    }");
        ex_line(x, "    %s_p -= %s_s;", acc, acc);
        ex_line(x, "    for (int l = 0; l < %s; l++)", nb);
        ex_line(x, "        for (int j = 0; j < %s_p; j++) %s[l][j] = %s[l][%s_s + j];", acc, acc, acc, acc);
        ex_line(x, "}");
    }
    ex_close_loops(x, loops);
    ex_free_coords(xc, r);
    if (fcols) {
        ex_line(x, "if (%s_k %% GTC_FSUM_BLOCK) { %s }", acc, flush);
        ex_line(x, "gtc_fsum_result(&%s_lv[0][0], %d, %s_n, %s_r, %s);", acc, bs, acc, acc, nb);
        free(a), a = xfmt("%s_r[l]", acc);
    } else if (fruns) {
        ex_line(x, "if (%s_p) {", acc);
        ex_line(x, "    for (int l = 0; l < %s; l++) %s_t[l] = gtc_fsum_block(%s[l], %s_p);", nb, acc, acc, acc);
        ex_line(x, "    gtc_fsum_push(&%s_lv[0][0], %d, %s_n++, %s_t, %s);", acc, bs, acc, acc, nb);
        ex_line(x, "}");
        ex_line(x, "gtc_fsum_result(&%s_lv[0][0], %d, %s_n, %s_t, %s);", acc, bs, acc, acc, nb);
        free(a), a = xfmt("%s_t[l]", acc);
    } else if (fs) free(a), a = xfmt("gtc_fsum_end(&%s[l])", acc);
    /* the epilogue, per output of the block */
    ex_line(x, "for (int l = 0; l < %s; l++) {", nb);
    x->indent++;
    ex_line(x, "const %s %s = %s + l;", x->idx, ck, cb);
    char *oc[IR_MAX_RANK] = {0};
    int ko = O->rank == r ? k : O->rank - 1; /* the kept axis in the output (kept dims or not) */
    for (int i = 0; i < O->rank; i++) oc[i] = strdup(i == ko ? ck : "0");
    char *fin = emit_red_final(ri, a, NULL), *rv = ex_name(x, "v");
    ex_line(x, "const %s %s = %s;", emit_ctype(ri->out), rv, fin);
    m = ex_mark(x);
    ex_bind(x, ri->node, rv);
    char ***cs = calloc((size_t)x->st->nouts + 1, sizeof *cs);
    if (!cs) abort();
    for (int k = 0; k < x->st->nouts; k++) cs[k] = oc;
    emit_cpu_store_outputs(x, x->st->outs, x->st->nouts, cs);
    free(cs);
    ex_unbind(x, ri->node);
    ex_release(x, m);
    x->indent--;
    ex_line(x, "}");
    x->indent--;
    ex_line(x, "}");
    ex_free_coords(oc, O->rank);
    free(fin), free(rv), free(a), free(ck), free(cb), free(acc), free(nb), free(flush);
}

/* REDUCE: a loop over the output, an inner loop over the reduced axes, then the epilogue. */
static void emit_cpu_reduce(Ex *x) {
    EmitRed ri;
    if (emit_red_info(x->g, x->st->root, &ri, x->d)) {
        x->failed = true;
        return;
    }
    emit_red_count(x->g, &ri, x->args);
    const TensorType *S = &N(x->g, ri.x)->type, *O = &N(x->g, ri.node)->type;
    if (!reduce_outs_ok(x, O)) return;
    int kept = -1; /* the one axis not reduced, if one (not the first: a row's sum is one run) */
    for (int i = 0; S->rank >= 2 && S->rank <= 31 && i < S->rank; i++)
        if (!(ri.mask & (1u << i))) kept = kept == -1 ? i : -2;
    if (!ri.arg && kept > 0 && ri.mask == ((1u << S->rank) - 1) - (1u << kept) && S->dims[kept] > 1 &&
        (kept == S->rank - 1 || !S->sym[kept]) && ir_numel(S) > S->dims[kept])
        return emit_cpu_reduce_cols(x, &ri, S, O, kept);
    char *oc[IR_MAX_RANK] = {0}, *xc[IR_MAX_RANK] = {0};
    int loops = ex_open_loops(x, O, 0, O->rank, oc, ex_par_work(ir_numel(S)) && ir_numel(O) > 1);
    for (int i = 0, o = 0; i < S->rank; i++) {
        bool red = ri.mask & (1u << i);
        if (O->rank == S->rank) xc[i] = red ? NULL : strdup(oc[i]);
        else if (!red) xc[i] = strdup(oc[o++]);
    }
    int m = ex_mark(x);
    emit_cpu_reduce_loop(x, &ri, xc);
    char ***cs = calloc((size_t)x->st->nouts + 1, sizeof *cs);
    if (!cs) abort();
    for (int k = 0; k < x->st->nouts; k++) cs[k] = oc;
    emit_cpu_store_outputs(x, x->st->outs, x->st->nouts, cs);
    free(cs);
    ex_release(x, m);
    ex_unbind(x, ri.node);
    ex_close_loops(x, loops);
    ex_free_coords(oc, O->rank);
    ex_free_coords(xc, S->rank);
}

/* GEMM: cblas into the target (batch by batch), then a loop applying the epilogue. */
static void emit_cpu_gemm(Ex *x) {
    EmitGemm gm;
    if (emit_gemm_info(x->g, x->st, &gm, x->d)) {
        x->failed = true;
        return;
    }
    const Node *mm = N(x->g, gm.mm);
    const char *T = emit_ctype(mm->type.dtype);
    bool f32 = mm->type.dtype == DT_FLOAT32;
    NodeId tgt = x->st->lower.gemm_out; /* pass_lower: a buffer of the step's, else scratch */
    char *dst = ex_gemm_product(x, gm.mm);
    if (!dst) return;
    ex_line(x, "%s *const C = %s;", T, dst);
    free(dst);
    char *pa = ex_addr(x, gm.a), *pb = ex_addr(x, gm.b);
    if (!pa || !pb) return free(pa), free(pb);
    int64_t mn = gm.m * gm.n;
    /* symbolic M, N, K or batch: cblas takes the size at run time (ex_gemm_sizes) */
    char *sz[4];
    if (ex_gemm_sizes(x, &gm, sz)) return free(pa), free(pb);
    char *M = sz[0], *Nn = sz[1], *K = sz[2], *B = sz[3];
    if (gm.m && gm.n && gm.batch && gm.k == 0) {
        ex_line(x, "for (long long i = 0; i < %lldLL; i++) C[i] = 0;", (long long)(mn * gm.batch));
    } else if (gm.m && gm.n && gm.batch) {
        int64_t lda = gm.ta ? gm.m : gm.k, ldb = gm.tb ? gm.k : gm.n;
        if (lda < 1) lda = 1;
        if (ldb < 1) ldb = 1;
        if (gm.batch > 1) {
            ex_line(x, "for (long long bz = 0; bz < %s; bz++) {", B);
            x->indent++;
            Str oa = {0}, ob = {0};
            int64_t after = 1;
            for (int i = gm.nb - 1; i >= 0; i--) {
                if (gm.bsa[i]) str_add(&oa, " + (bz / %lldLL %% %lldLL) * %lldLL", (long long)after, (long long)gm.bdims[i], (long long)gm.bsa[i]);
                if (gm.bsb[i]) str_add(&ob, " + (bz / %lldLL %% %lldLL) * %lldLL", (long long)after, (long long)gm.bdims[i], (long long)gm.bsb[i]);
                after *= gm.bdims[i];
            }
            ex_line(x, "const long long oa = 0%s, ob = 0%s;", oa.s ? oa.s : "", ob.s ? ob.s : "");
            str_free(&oa), str_free(&ob);
        } else {
            ex_line(x, "{");
            x->indent++;
            ex_line(x, "const long long oa = 0, ob = 0, bz = 0;");
        }
        /* the CPU backend's one GEMM call (templates/kernels_cpu_gemm.h: small products on one thread) */
        if (gm.half[0] || gm.half[1])
            ex_line(x, "gtc_cpu_sgemm_h(%d, %d, %s, %s, %s, %s + oa, %d, %lld, %s + ob, %d, %lld, C + bz * %lldLL, %lld);",
                    gm.ta ? 1 : 0, gm.tb ? 1 : 0, M, Nn, K, pa, gm.half[0] ? 1 : 0, (long long)lda, pb, gm.half[1] ? 1 : 0,
                    (long long)ldb, (long long)mn, (long long)(gm.n > 1 ? gm.n : 1));
        else
            ex_line(x, "gtc_cpu_%cgemm(%d, %d, %s, %s, %s, %s + oa, %lld, %s + ob, %lld, C + bz * %lldLL, %lld);",
                    f32 ? 's' : 'd', gm.ta ? 1 : 0, gm.tb ? 1 : 0, M, Nn, K, pa, (long long)lda, pb, (long long)ldb,
                    (long long)mn, (long long)(gm.n > 1 ? gm.n : 1));
        x->indent--;
        ex_line(x, "}");
    }
    free(pa), free(pb), free(M), free(Nn), free(K), free(B);
    /* the epilogue: every output but the product itself when it already is in place */
    int n = 0;
    NodeId *outs = calloc((size_t)x->st->nouts + 1, sizeof *outs);
    char ***cs = calloc((size_t)x->st->nouts + 1, sizeof *cs);
    if (!outs || !cs) abort();
    char *oc[IR_MAX_RANK] = {0};
    for (int k = 0; k < x->st->nouts; k++)
        if (!(x->st->outs[k] == gm.mm && tgt == gm.mm)) cs[n] = oc, outs[n++] = x->st->outs[k];
    if (n) {
        int loops = ex_open_loops(x, &mm->type, 0, mm->type.rank, oc, ex_par_work(ir_numel(&mm->type)));
        int m = ex_mark(x);
        char *lin = ex_linear(x, &mm->type, oc);
        ex_line(x, "const %s acc = C[%s];", T, lin);
        free(lin);
        ex_bind(x, gm.mm, "acc");
        emit_cpu_store_outputs(x, outs, n, cs);
        ex_unbind(x, gm.mm);
        ex_release(x, m);
        ex_close_loops(x, loops);
        ex_free_coords(oc, mm->type.rank);
    }
    free(outs), free(cs);
}

static void store_copy(Ex *x, char **coords, void *ctx) {
    (void)ctx;
    int j = x->st->copy_output;
    NodeId v = x->g->outputs[j].value;
    char *val = ex_value(x, v, coords);
    ex_store_output(x, j, &N(x->g, v)->type, coords, val);
    free(val);
}

/* COPY: the output's value (through the step's views) into the output's buffer. */
static void emit_cpu_copy(Ex *x) {
    int j = x->st->copy_output;
    NodeId v = x->g->outputs[j].value;
    const TensorType *t = &N(x->g, v)->type;
    char *c[IR_MAX_RANK] = {0};
    ex_loop_nest(x, t, ex_par_work(ir_numel(t)), c, store_copy, NULL);
    ex_free_coords(c, t->rank);
}

static void step_comment(Str *b, const Graph *g, int s) {
    const Step *st = &g->plan->steps[s];
    str_add(b, "\n/* step %d: %s", s, plan_step_kind_name(st->kind));
    for (int k = 0; k < st->nnodes; k++) {
        str_cat(b, k ? ", " : ": ");
        str_add(b, "%s ", ir_ops[N(g, st->nodes[k])->op].name);
        emit_comment_text(b, N(g, st->nodes[k])->name);
    }
    str_cat(b, " */\n");
}

char *emit_cpu_source(const Graph *g, const char *source_name, Diag *d) {
    if (emit_check_plan(g, d)) return NULL;
    const Plan *p = g->plan;
    Str b = {0};
    bool gemm = false;
    for (int s = 0; s < p->nsteps; s++) gemm = gemm || p->steps[s].kind == STEP_GEMM;
    int nscalars = emit_nscalars(g);
    emit_header(&b, source_name);
    str_add(&b, "/* The CPU kernels of plan %s: one function per step, over the argument block of\n"
                " * runtime/core/plan_abi.h. */\n#include <math.h>\n#include <stdint.h>\n%s\n",
            g->name, gemm ? "#include <cblas.h>\n" : "");
    emit_text(&b, EMIT_TEXT_SCALAR_H);
    emit_text(&b, EMIT_TEXT_FSUM_H);
    str_cat(&b, "\n");
    emit_text(&b, EMIT_TEXT_CPU_PRELUDE);
    if (gemm) emit_text(&b, EMIT_TEXT_CPU_GEMM);
    str_add(&b, "\ntypedef void (*RtCpuKernel)(const void *args);\n"
                "struct gtc_args {\n    char *p[%d];\n    double s[%d];\n};\n",
            g->ninputs + g->noutputs + 1, nscalars ? nscalars : 1);
    for (int s = 0; s < p->nsteps; s++) {
        step_comment(&b, g, s);
        Str body = {0};
        Ex x;
        ex_init(&x, g, EMIT_C, s, &body, d);
        switch (p->steps[s].kind) {
        case STEP_ELEMWISE: emit_cpu_elemwise(&x); break;
        case STEP_REDUCE: emit_cpu_reduce(&x); break;
        case STEP_ROW: emit_cpu_row(&x); break;
        case STEP_GEMM: emit_cpu_gemm(&x); break;
        case STEP_COPY: emit_cpu_copy(&x); break;
        case STEP_ALLREDUCE: break; /* a world of ranks is the CUDA executor's (docs/distributed.md) */
        }
        bool failed = x.failed, no_jam = x.no_jam;
        ex_done(&x);
        if (failed || d->nerrors) {
            str_free(&body), str_free(&b);
            return NULL;
        }
        str_add(&b, "%sGTC_CPU_STEP static void %s_c%d(const void *args) {\n"
                    "    const struct gtc_args *a = (const struct gtc_args *)args;\n    (void)a;\n",
                no_jam ? "GTC_CPU_NO_JAM " : "", p->sym, s);
        char *text = str_take(&body);
        str_cat(&b, text);
        str_cat(&b, "}\n");
        free(text);
    }
    str_add(&b, "\nconst RtCpuKernel %s_cpu_kernels[] = {", p->sym);
    for (int s = 0; s < p->nsteps; s++) str_add(&b, "%s%s_c%d", s ? ", " : "", p->sym, s);
    if (!p->nsteps) str_cat(&b, "0");
    str_cat(&b, "};\n");
    return str_take(&b);
}
