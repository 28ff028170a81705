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
#include "util.h"

static const Node *N(const Graph *g, NodeId id) { return &g->nodes[id]; }

/* Evaluates every output in `outs` (of the given coordinates each) first, then stores them all,
 * so that a value updated in place is read before it is written. */
static void store_outputs(Ex *x, const NodeId *outs, int n, char **const *coords) {
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
    store_outputs(x, gr->outs, gr->n, gr->cs);
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
static bool red_fsum(const EmitRed *ri) { return ri->ct == DT_FLOAT32 && (ri->op == OP_SUM || ri->op == OP_MEAN); }

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
static void reduce_loop(Ex *x, const EmitRed *ri, char **xc) {
    const TensorType *S = &N(x->g, ri->x)->type;
    if (red_fsum(ri)) {
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
    bool fs = red_fsum(ri), fcols = fs && k == r - 1;
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
    store_outputs(x, x->st->outs, x->st->nouts, cs);
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
    reduce_loop(x, &ri, xc);
    char ***cs = calloc((size_t)x->st->nouts + 1, sizeof *cs);
    if (!cs) abort();
    for (int k = 0; k < x->st->nouts; k++) cs[k] = oc;
    store_outputs(x, x->st->outs, x->st->nouts, cs);
    free(cs);
    ex_release(x, m);
    ex_unbind(x, ri.node);
    ex_close_loops(x, loops);
    ex_free_coords(oc, O->rank);
    ex_free_coords(xc, S->rank);
}

/* Coordinates of a per-row value (row coordinates, then zeros when the reduced axes are kept). */
static void row_coords(const TensorType *t, char *const *rc, int keep, char **c) {
    for (int i = 0; i < t->rank; i++) c[i] = strdup(i < keep ? rc[i] : "0");
}

/* A row matmul's element (row, j) as a K-term sum in K order into `acc`: the prologue reads A's
 * row from memory, the epilogue the row of A held in `arow`. */
static void emit_cpu_row_dot(Ex *x, const EmitGemm *gm, const char *row, const char *arow, const char *j) {
    const char *T = emit_ctype(N(x->g, gm->mm)->type.dtype);
    char *pa = arow ? NULL : ex_addr(x, gm->a), *pb = ex_addr(x, gm->b);
    if ((!arow && !pa) || !pb) return free(pa), free(pb);
    ex_line(x, "%s acc = 0;", T);
    ex_line(x, "for (long long k = 0; k < %lldLL; k++)", (long long)gm->k);
    if (arow)
        ex_line(x, "    acc = %s[k] * %s[k * %lldLL + (long long)%s * %lldLL] + acc;", arow, pb, (long long)gm->sbk, j,
                (long long)gm->sbn);
    else
        ex_line(x, "    acc = %s[(long long)%s * %lldLL + k * %lldLL] * %s[k * %lldLL + (long long)%s * %lldLL] + acc;", pa, row,
                (long long)gm->sam, (long long)gm->sak, pb, (long long)gm->sbk, j, (long long)gm->sbn);
    free(pa), free(pb);
}

/* Whether a value over the row is kept in a per-row array (computed once, read by every later
 * loop of the row) rather than recomputed in each: a transcendental one (exp, log, ...) with two
 * or more readers in the step (a softmax's exp feeds its sum and its output), over rows of one
 * axis short enough for the stack. The stored value is the one each loop would have computed. */
#define ROW_MEMO_MAX 4096
/* Readers of id in the step: operands of its nodes, and its outputs. */
static int step_uses(const Ex *x, NodeId id) {
    int uses = 0;
    for (int k = 0; k < x->st->nnodes; k++) {
        const Node *c = N(x->g, x->st->nodes[k]);
        for (int i = 0; i < c->ninputs; i++) uses += c->in[i].id == id;
    }
    for (int k = 0; k < x->st->nouts; k++) uses += x->st->outs[k] == id;
    return uses;
}

static bool row_memo(const Ex *x, const EmitRow *rw, const TensorType *S, NodeId id) {
    const Node *nd = N(x->g, id);
    bool costly = nd->op == OP_EXP || nd->op == OP_LOG || nd->op == OP_TANH || nd->op == OP_SIGMOID ||
                  nd->op == OP_ERF || nd->op == OP_POW;
    if (!costly || !rw->full[id] || S->rank - rw->keep != 1 || rw->len > ROW_MEMO_MAX ||
        !ir_shape_equal(&nd->type, S))
        return false;
    return step_uses(x, id) >= 2;
}

/* Rows per block of a blocked row step (emit_cpu_row_block). */
#define ROW_BLOCK 32

/* Whether a row step runs a block of rows at a time, the loops across the block's rows
 * (emit_cpu_row_block): rows of one static axis of at most GTC_FSUM_LANES elements (a softmax
 * over 10 classes, whose loops along the row do not vectorise), one row axis of at least a
 * block (or symbolic), no product in the step, every reduction over the whole row. */
static bool row_blocked(Ex *x, const EmitRow *rw, const TensorType *S) {
    if (rw->has_pro || rw->has_epi || rw->keep != 1 || S->rank != 2 || S->sym[1] || S->dims[1] > GTC_FSUM_LANES ||
        (!S->sym[0] && S->dims[0] < ROW_BLOCK))
        return false;
    for (int k = 0; k < x->st->nnodes; k++) {
        EmitRed ri;
        if (ir_ops[N(x->g, x->st->nodes[k])->op].kind != K_REDUCE) continue;
        if (emit_red_info(x->g, x->st->nodes[k], &ri, x->d) || ri.mask != 2u || !ir_shape_equal(&N(x->g, ri.x)->type, S))
            return false;
    }
    return true;
}

/* Opens the loop over the block's rows, `for (idx row = r0; row < r0 + nb; row++) {` (the
 * block's arrays at [row - r0]). */
static int block_rows(Ex *x, const char *row, const char *r0) {
    ex_line(x, "for (%s %s = %s; %s < %s + nb; %s++) {", x->idx, row, r0, row, r0, row);
    x->indent++;
    return 1;
}

/* One reduction of a blocked row step: an accumulator per row of the block, the loop along the
 * row outside the loop over the block's rows, each row's operations and their order those of
 * reduce_loop. A float32 sum (a row of at most GTC_FSUM_LANES: element c in lane c of one
 * block, as gtc_fsum_block) keeps the lanes per row, [LANES][ROW_BLOCK], folded by
 * gtc_fsum_fold's column form: gtc_fsum_block's bits. Binds the result to v[row - r0]. */
static void reduce_block(Ex *x, const EmitRed *ri, const TensorType *S, const char *row, const char *r0) {
    bool fs = red_fsum(ri);
    char *acc = ex_name(x, "acc"), *v = ex_name(x, "v"), *c[2] = {strdup(row), NULL};
    char *a = xfmt(fs ? "%s[%%s][b]" : "%s[b]", acc), *ai = xfmt("%si[b]", acc), *ae = NULL;
    char *ar = xfmt(fs ? "%s[%%s][%s - %s]" : "%s[%s - %s]", acc, row, r0), *air = xfmt("%si[%s - %s]", acc, row, r0);
    if (fs) {
        ex_line(x, "float %s[GTC_FSUM_LANES][%d];", acc, ROW_BLOCK);
        ex_line(x, "for (int j = 0; j < GTC_FSUM_LANES; j++)");
        ex_line(x, "    for (int b = 0; b < nb; b++) %s[j][b] = 0.0f;", acc);
    } else {
        ex_line(x, "%s %s[%d];", ri->acc, acc, ROW_BLOCK);
        if (ri->arg) ex_line(x, "long long %si[%d];", acc, ROW_BLOCK);
        ex_line(x, "for (int b = 0; b < nb; b++) {");
        ex_line(x, "    %s = %s;", a, ri->init);
        if (ri->arg) ex_line(x, "    %s = -1;", ai);
        ex_line(x, "}");
    }
    int loops = ex_open_loops(x, S, 1, 1, &c[1], false) + block_rows(x, row, r0), m = ex_mark(x);
    char *val = ex_value(x, ri->x, c), *cv = emit_conv(val, S->dtype, ri->ct);
    if (fs) ae = xfmt(ar, c[1]), ex_line(x, "%s += %s;", ae, cv);
    else ae = emit_red_step_select(ri, ar, air, cv, c[1]), ex_line(x, "%s", ae);
    ex_release(x, m);
    ex_close_loops(x, loops);
    if (fs) ex_line(x, "gtc_fsum_fold(&%s[0][0], %d, nb);", acc, ROW_BLOCK);
    char *a0 = fs ? xfmt(a, "0") : xstrdup(a), *fin = emit_red_final(ri, a0, ai);
    ex_line(x, "%s %s[%d];", emit_ctype(ri->out), v, ROW_BLOCK);
    ex_line(x, "for (int b = 0; b < nb; b++) %s[b] = %s;", v, fin);
    char *vb = xfmt("%s[%s - %s]", v, row, r0);
    ex_bind(x, ri->node, vb);
    free(vb), free(fin), free(a0), free(ae), free(cv), free(val), free(a), free(ai), free(ar), free(air), free(v), free(acc);
    ex_free_coords(c, 2);
}

/* A row step a block of ROW_BLOCK rows at a time (row_blocked): each loop of emit_cpu_row's row
 * (the reductions, the per-row values, the transcendental values kept over the row, the
 * outputs) runs over the block's rows innermost, so that it vectorises across rows (exp is
 * gtc_expf, inline); per-row values are arrays over the block. Each row's values are the ones
 * emit_cpu_row computes, operation for operation: the same bits, at any block split or thread
 * count. */
static void emit_cpu_row_block(Ex *x, const EmitRow *rw, const TensorType *S) {
    const Step *st = x->st;
    char *r0 = ex_name(x, "r"), *row = ex_name(x, "c"), *rows = ex_dim(x, S, 0);
    if (ex_par_work(ir_numel(S))) ex_line(x, "#pragma omp parallel for schedule(static)");
    ex_line(x, "for (%s %s = 0; %s < %s; %s += %d) {", x->idx, r0, r0, rows, r0, ROW_BLOCK);
    x->indent++;
    ex_line(x, "const int nb = %s - %s < %d ? (int)(%s - %s) : %d;", rows, r0, ROW_BLOCK, rows, r0, ROW_BLOCK);
    if (!S->sym[0]) ex_range(x, row, 0, S->dims[0] - 1);
    int m = ex_mark(x);
    const Node *xn = N(x->g, rw->x);
    if (!x->in_step[rw->x] && x->p->buf[rw->x].kind != BUF_NONE && x->p->buf[rw->x].kind != BUF_SCALAR &&
        ir_shape_equal(&xn->type, S) && step_uses(x, rw->x) >= 2) {
        /* the rows read from memory by two loops or more: loaded once (strided) into a tile */
        char *c[2] = {strdup(row), NULL}, *bind = xfmt("rx[][%s - %s]", row, r0);
        ex_line(x, "%s rx[%lld][%d];", emit_ctype(xn->type.dtype), (long long)rw->len, ROW_BLOCK);
        int loops = ex_open_loops(x, S, 1, 1, &c[1], false) + block_rows(x, row, r0), m2 = ex_mark(x);
        char *v = ex_value(x, rw->x, c);
        ex_line(x, "rx[%s][%s - %s] = %s;", c[1], row, r0, v);
        ex_release(x, m2);
        ex_close_loops(x, loops);
        ex_bind_row(x, rw->x, bind);
        free(v), free(bind);
        ex_free_coords(c, 2);
    }
    for (int k = 0; k < st->nnodes && !x->failed; k++) {
        NodeId id = st->nodes[k];
        const Node *nd = N(x->g, id);
        EmitRed ri;
        bool hoist = rw->hoist[id], memo = !hoist && ir_ops[nd->op].kind != K_REDUCE && row_memo(x, rw, S, id);
        if (ir_ops[nd->op].kind == K_REDUCE) {
            if (emit_red_info(x->g, id, &ri, x->d)) {
                x->failed = true;
                break;
            }
            emit_red_count(x->g, &ri, x->args);
            reduce_block(x, &ri, S, row, r0);
        } else if (hoist || memo) {
            char *arr = ex_name(x, memo ? "rm" : "h"), *c[IR_MAX_RANK] = {0}, *bind;
            int loops = 0;
            c[0] = strdup(row);
            if (memo) {
                ex_line(x, "%s %s[%lld][%d];", emit_ctype(nd->type.dtype), arr, (long long)rw->len, ROW_BLOCK);
                loops = ex_open_loops(x, S, 1, 1, c + 1, false);
            } else {
                ex_line(x, "%s %s[%d];", emit_ctype(nd->type.dtype), arr, ROW_BLOCK);
                for (int i = 1; i < nd->type.rank; i++) c[i] = strdup("0");
            }
            loops += block_rows(x, row, r0);
            int m2 = ex_mark(x);
            char *v = ex_value(x, id, c);
            bind = xfmt(memo ? "%s[][%s - %s]" : "%s[%s - %s]", arr, row, r0);
            if (memo) ex_line(x, "%s[%s][%s - %s] = %s;", arr, c[1], row, r0, v);
            else ex_line(x, "%s = %s;", bind, v);
            ex_release(x, m2);
            ex_close_loops(x, loops);
            if (memo) ex_bind_row(x, id, bind);
            else ex_bind(x, id, bind);
            free(v), free(bind), free(arr);
            ex_free_coords(c, nd->type.rank);
        }
    }
    if (rw->nro) { /* per-row outputs */
        char ***rcs = calloc((size_t)rw->nro, sizeof *rcs);
        if (!rcs) abort();
        int loops = block_rows(x, row, r0), m2 = ex_mark(x);
        for (int k = 0; k < rw->nro; k++) {
            if (!(rcs[k] = calloc(IR_MAX_RANK, sizeof(char *)))) abort();
            row_coords(&N(x->g, rw->ro[k])->type, &row, 1, rcs[k]);
        }
        store_outputs(x, rw->ro, rw->nro, rcs);
        for (int k = 0; k < rw->nro; k++) ex_free_coords(rcs[k], N(x->g, rw->ro[k])->type.rank), free(rcs[k]);
        free(rcs);
        ex_release(x, m2);
        ex_close_loops(x, loops);
    }
    if (rw->nfo) { /* full-row outputs */
        char ***fcs = calloc((size_t)rw->nfo, sizeof *fcs), *fc[2] = {strdup(row), NULL};
        if (!fcs) abort();
        int loops = ex_open_loops(x, S, 1, 1, &fc[1], false) + block_rows(x, row, r0), m2 = ex_mark(x);
        for (int k = 0; k < rw->nfo; k++) fcs[k] = fc;
        store_outputs(x, rw->fo, rw->nfo, fcs);
        ex_release(x, m2);
        ex_close_loops(x, loops);
        ex_free_coords(fc, 2);
        free(fcs);
    }
    for (int k = 0; k < st->nnodes; k++) ex_unbind(x, st->nodes[k]);
    ex_release(x, m);
    ex_close_loops(x, 1);
    free(r0), free(row), free(rows);
}

/* ROW: per row, the prologue product's row (when there is one), the reductions in order (each a
 * loop over the row), the per-row values that depend on them once, one loop storing the
 * full-row outputs (and keeping the epilogue's A row), then the epilogue product's row. */
static void emit_cpu_row(Ex *x) {
    EmitRow rw;
    if (emit_row_info(x->g, x->st, &rw, x->d)) {
        x->failed = true;
        return;
    }
    const Step *st = x->st;
    const TensorType *S = &N(x->g, rw.x)->type;
    if (row_blocked(x, &rw, S)) {
        x->no_jam = true;
        emit_cpu_row_block(x, &rw, S);
        emit_row_free(&rw);
        return;
    }
    for (int i = rw.keep; i < S->rank && (rw.has_pro || rw.has_epi); i++)
        if (S->sym[i]) {
            diag_node(x->d, N(x->g, rw.x), "internal: a row step with a product over a symbolic row");
            x->failed = true;
            emit_row_free(&rw);
            return;
        }
    char *rc[IR_MAX_RANK] = {0};
    /* the work of a row: its elements, plus the prologue's and epilogue's products */
    int64_t work = ir_numel(S) + (rw.has_pro ? rw.rows * rw.len * rw.pro.k : 0) +
                   (rw.has_epi ? rw.rows * rw.len * rw.epi.n : 0);
    int loops = ex_open_loops(x, S, 0, rw.keep, rc, ex_par_work(work));
    int m = ex_mark(x);
    if (rw.has_pro) {
        ex_line(x, "%s rp[%lld];", emit_ctype(N(x->g, rw.pro.mm)->type.dtype), (long long)rw.len);
        ex_line(x, "for (long long j = 0; j < %lldLL; j++) {", (long long)rw.len);
        x->indent++;
        emit_cpu_row_dot(x, &rw.pro, rc[0], NULL, "j");
        ex_line(x, "rp[j] = acc;");
        x->indent--;
        ex_line(x, "}");
        ex_bind_row(x, rw.pro.mm, "rp");
    }
    if (rw.has_epi) ex_line(x, "%s ra[%lld];", emit_ctype(N(x->g, rw.epi.a)->type.dtype), (long long)rw.len);
    for (int k = 0; k < st->nnodes && !x->failed; k++) {
        NodeId id = st->nodes[k];
        const Node *nd = N(x->g, id);
        if (ir_ops[nd->op].kind == K_REDUCE) {
            EmitRed ri;
            if (emit_red_info(x->g, id, &ri, x->d)) {
                x->failed = true;
                break;
            }
            emit_red_count(x->g, &ri, x->args);
            char *xc[IR_MAX_RANK] = {0};
            for (int i = 0; i < rw.keep; i++) xc[i] = strdup(rc[i]);
            reduce_loop(x, &ri, xc);
            ex_free_coords(xc, S->rank);
        } else if (rw.hoist[id]) {
            char *c[IR_MAX_RANK] = {0};
            row_coords(&nd->type, rc, rw.keep, c);
            char *v = ex_value(x, id, c);
            ex_bind(x, id, v);
            free(v);
            ex_free_coords(c, nd->type.rank);
        } else if (row_memo(x, &rw, S, id)) {
            char *arr = ex_name(x, "rm"), *c[IR_MAX_RANK] = {0};
            ex_line(x, "%s %s[%lld];", emit_ctype(nd->type.dtype), arr, (long long)rw.len);
            for (int i = 0; i < rw.keep; i++) c[i] = strdup(rc[i]);
            int inner = ex_open_loops(x, S, rw.keep, 1, c + rw.keep, false);
            int m2 = ex_mark(x);
            char *v = ex_value(x, id, c);
            ex_line(x, "%s[%s] = %s;", arr, c[rw.keep], v);
            free(v);
            ex_release(x, m2);
            ex_close_loops(x, inner);
            ex_free_coords(c, S->rank);
            ex_bind_row(x, id, arr);
            free(arr);
        }
    }
    char ***rcs = calloc((size_t)st->nouts + 1, sizeof *rcs), ***fcs = calloc((size_t)st->nouts + 1, sizeof *fcs);
    if (!rcs || !fcs) abort();
    for (int k = 0; k < rw.nro; k++) {
        if (!(rcs[k] = calloc(IR_MAX_RANK, sizeof(char *)))) abort();
        row_coords(&N(x->g, rw.ro[k])->type, rc, rw.keep, rcs[k]);
    }
    if (rw.nro) store_outputs(x, rw.ro, rw.nro, rcs);
    if (rw.nfo || rw.has_epi) {
        char *fc[IR_MAX_RANK] = {0};
        for (int i = 0; i < rw.keep; i++) fc[i] = strdup(rc[i]);
        int inner = ex_open_loops(x, S, rw.keep, S->rank - rw.keep, fc + rw.keep, false);
        int m2 = ex_mark(x);
        if (rw.has_epi) {
            char *v = ex_value(x, rw.epi.a, fc);
            ex_line(x, "ra[%s] = %s;", fc[S->rank - 1], v);
            free(v);
        }
        for (int k = 0; k < rw.nfo; k++) fcs[k] = fc;
        store_outputs(x, rw.fo, rw.nfo, fcs);
        ex_release(x, m2);
        ex_close_loops(x, inner);
        ex_free_coords(fc, S->rank);
    }
    if (rw.has_epi) {
        const TensorType *E = &N(x->g, rw.epi.mm)->type;
        char *oc[2] = {strdup(rc[0]), NULL};
        int inner = ex_open_loops(x, E, 1, 1, oc + 1, false);
        int m2 = ex_mark(x);
        emit_cpu_row_dot(x, &rw.epi, rc[0], "ra", oc[1]);
        ex_bind(x, rw.epi.mm, "acc");
        for (int k = 0; k < rw.neo; k++) fcs[k] = oc;
        store_outputs(x, rw.eo, rw.neo, fcs);
        ex_unbind(x, rw.epi.mm);
        ex_release(x, m2);
        ex_close_loops(x, inner);
        ex_free_coords(oc, 2);
    }
    for (int k = 0; k < rw.nro; k++) ex_free_coords(rcs[k], N(x->g, rw.ro[k])->type.rank), free(rcs[k]);
    free(rcs), free(fcs);
    for (int k = 0; k < st->nnodes; k++) ex_unbind(x, st->nodes[k]);
    ex_release(x, m);
    ex_close_loops(x, loops);
    ex_free_coords(rc, rw.keep);
    emit_row_free(&rw);
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
        store_outputs(x, outs, n, cs);
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
