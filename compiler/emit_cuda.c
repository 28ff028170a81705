/* compiler/emit_cuda.c: kernels.cu, the plan's steps as CUDA kernels (one per step) over the
 * argument block passed by value, in the form and launch configuration pass_lower chose
 * (Step.lower, compiler/pass_lower.c):
 *   ELEMWISE / COPY  a grid-stride loop
 *   REDUCE           one block per output element, threads stride over the reduced elements;
 *                    or 8 outputs per block, 32 slices each (coalesced)
 *   ROW              one block per row, each reduction a block reduction every thread then
 *                    reads; or a warp, or a thread, per row
 *   GEMM             the GEMMs of templates/kernels_prelude.cuh (tiled with sliced K, skinny,
 *                    small K) with the step's epilogue as a lambda; a cuBLASLt step's kernel is
 *                    its epilogue alone, a grid-stride loop over the product
 * A symbolic dimension (docs/graph-format.md §3.1) changes only counts: element, row and reduction
 * counts, GEMM M / K / batch and mean divisors read the run's size from the argument block, while
 * grids stay the bound's (threads and blocks past the run's count do nothing).
 * The text compiles with nvcc (-std=c++17) and with NVRTC (the host-side table is guarded). */
#include <stdlib.h>
#include <string.h>

#include "emit.h"

static const Node *N(const Graph *g, NodeId id) { return &g->nodes[id]; }

/* The reduction forms of block_reduction: a block, a warp or a thread per output (or row), or a
 * block's 32 slices of each of 8 columns; from the step's lowering (compiler/pass_lower.c). */
typedef enum { RED_BLOCK, RED_WARP, RED_THREAD, RED_COLS } RedMode;

static RedMode row_mode(const Step *st) {
    return st->lower.form == LOWER_ROW_THREAD ? RED_THREAD : st->lower.form == LOWER_ROW_WARP ? RED_WARP : RED_BLOCK;
}

/* The step's block size as a literal (the executor launches it with Step.lower.block): a loop
 * striding a block over a row then has a trip count the compiler knows, and it unrolls it with
 * the loads issued ahead of the serial accumulation (with `blockDim.x`, a 4096-wide row's passes
 * waited out one load latency per element; the 4k-wide step's softmax rows took 117 us). */
static char *block_threads(const Ex *x) { return xfmt("%u", x->st->lower.block[0]); }

/* Coordinates from a flat index (ex_split marks them used: an expression may ignore some); a
 * symbolic axis (sym may be NULL) is as long as the run's size. */
static void split_used(Ex *x, const char *lin, int rank, const int64_t *dims, const unsigned char *sym, char **coords) {
    ex_split(x, lin, rank, dims, sym, coords);
}

static void store_all(Ex *x, const NodeId *outs, int n, char **const *coords) {
    char **vals = calloc((size_t)n + 1, sizeof *vals);
    if (!vals) abort();
    for (int k = 0; k < n; k++) vals[k] = ex_value(x, outs[k], coords[k]);
    for (int k = 0; k < n; k++) ex_store(x, outs[k], coords[k], vals[k]);
    for (int k = 0; k < n; k++) free(vals[k]);
    free(vals);
}

/* A grid-stride loop over the n elements of t (the run's count when t has a symbolic axis: the
 * grid is sized for the bound, threads past the count do nothing). */
static void open_grid_loop(Ex *x, const char *var, const TensorType *t) {
    char *c = ex_extent(x, t, ~0u);
    ex_line(x, "for (%s %s = (%s)blockIdx.x * blockDim.x + threadIdx.x; %s < %s; %s += (%s)gridDim.x * blockDim.x) {",
            x->idx, var, x->idx, var, c, var, x->idx);
    x->indent++;
    free(c);
}

static void close_block(Ex *x) {
    x->indent--;
    ex_line(x, "}");
}

static void emit_cuda_elemwise(Ex *x) {
    const Step *st = x->st;
    bool *done = calloc((size_t)st->nouts + 1, 1);
    NodeId *group = calloc((size_t)st->nouts + 1, sizeof *group);
    char ***cs = calloc((size_t)st->nouts + 1, sizeof *cs);
    if (!done || !group || !cs) abort();
    for (int k = 0; k < st->nouts; k++) {
        if (done[k]) continue;
        const TensorType *t = &N(x->g, st->outs[k])->type;
        char *coords[IR_MAX_RANK] = {0};
        int n = 0, m = ex_mark(x);
        open_grid_loop(x, "i", t);
        split_used(x, "i", t->rank, t->dims, t->sym, coords);
        for (int j = k; j < st->nouts; j++)
            if (!done[j] && ir_shape_equal(&N(x->g, st->outs[j])->type, t) &&
                !memcmp(N(x->g, st->outs[j])->type.sym, t->sym, sizeof t->sym))
                done[j] = true, cs[n] = coords, group[n++] = st->outs[j];
        store_all(x, group, n, cs);
        ex_release(x, m);
        close_block(x);
        ex_free_coords(coords, t->rank);
    }
    free(done), free(group), free(cs);
}

static void emit_cuda_copy(Ex *x) {
    int j = x->st->copy_output;
    NodeId v = x->g->outputs[j].value;
    const TensorType *t = &N(x->g, v)->type;
    char *c[IR_MAX_RANK] = {0};
    int m = ex_mark(x);
    open_grid_loop(x, "i", t);
    split_used(x, "i", t->rank, t->dims, t->sym, c);
    char *val = ex_value(x, v, c);
    ex_store_output(x, j, t, c, val);
    free(val);
    ex_release(x, m);
    close_block(x);
    ex_free_coords(c, t->rank);
}

/* One reduction by the block (RED_BLOCK), a warp (RED_WARP), one thread (RED_THREAD) or the
 * block's 32 slices of one of 8 columns (RED_COLS; `guard`: the column is in range): threads
 * stride over the reduced sub-space (xc: kept coordinates given, reduced ones NULL), combine, and
 * every thread binds the result (RED_COLS: threads 0..7 hold their column's). A lane row
 * (RED_WARP, lanec: the reduced coordinates of lane `le`, at most 32 elements) has no loop:
 * lanes below the count fold their one element. */
static void block_reduction(Ex *x, const EmitRed *ri, char **xc, RedMode md, const char *guard, char *const *lanec) {
    static const char *const tids[] = {"threadIdx.x", "lane", "0", "(threadIdx.x >> 3)"};
    char *nthb = block_threads(x);
    const char *const nths[] = {nthb, "32", "1", "32"};
    const char *tid = tids[md], *nth = nths[md];
    const TensorType *S = &N(x->g, ri->x)->type;
    char *acc = ex_name(x, "acc"), *acci = xfmt("%si", acc), *t = ex_name(x, "t");
    int64_t rdims[IR_MAX_RANK];
    unsigned char rsym[IR_MAX_RANK];
    int nr = 0, pos[IR_MAX_RANK];
    for (int i = 0; i < S->rank; i++)
        if (ri->mask & (1u << i)) pos[nr] = i, rsym[nr] = S->sym[i], rdims[nr++] = S->dims[i];
    ex_line(x, "%s %s = %s;", ri->acc, acc, ri->init);
    if (ri->arg) ex_line(x, "long long %s = -1;", acci);
    char *cnt = ex_extent(x, S, ri->mask); /* the run's count over a symbolic axis */
    if (lanec) {
        ex_line(x, "if (lane < %s) {", cnt);
        free(t), t = strdup("le");
    } else {
        ex_line(x, "for (%s %s = %s; %s%s%s < %s; %s += %s) {", x->idx, t, tid, guard ? guard : "", guard ? " && " : "", t,
                cnt, t, nth);
    }
    free(cnt);
    x->indent++;
    int m = ex_mark(x);
    char *rc[IR_MAX_RANK] = {0};
    if (lanec)
        for (int k = 0; k < nr; k++) rc[k] = strdup(lanec[k]);
    else
        split_used(x, t, nr, rdims, rsym, rc);
    for (int k = 0; k < nr; k++) xc[pos[k]] = rc[k];
    char *v = ex_value(x, ri->x, xc);
    char *cv = emit_conv(v, S->dtype, ri->ct);
    char *stmt = emit_red_step(ri, acc, acci, cv, t);
    ex_line(x, "%s", stmt);
    free(stmt), free(cv), free(v);
    ex_release(x, m);
    close_block(x);
    for (int k = 0; k < nr; k++) free(xc[pos[k]]), xc[pos[k]] = NULL;
    const char *f = ri->op == OP_MAX ? "GtcMax" : ri->op == OP_MIN ? "GtcMin" : ri->op == OP_PROD ? "GtcProd" : "GtcSum";
    if (md == RED_THREAD)
        ;
    else if (ri->arg)
        ex_line(x, "gtc_%s_arg<%s, %s>(%s, %s);", md == RED_WARP ? "warp" : "block", ri->acc,
                ri->op == OP_ARGMAX ? "true" : "false", acc, acci);
    else if (md == RED_WARP)
        ex_line(x, "%s = gtc_warp_reduce(%s, %s());", acc, acc, f);
    else if (md == RED_COLS)
        ex_line(x, "%s = gtc_col_reduce(%s, %s());", acc, acc, f);
    else
        ex_line(x, "%s = gtc_block_reduce(%s, %s(), (%s)%s);", acc, acc, f, ri->acc, ri->init);
    char *fin = emit_red_final(ri, acc, acci), *r = ex_name(x, "v");
    ex_line(x, "const %s %s = %s;", emit_ctype(ri->out), r, fin);
    ex_bind(x, ri->node, r);
    free(fin), free(r), free(acc), free(acci), free(t), free(nthb);
}

static void emit_cuda_reduce(Ex *x) {
    EmitRed ri;
    if (emit_red_info(x->g, x->st->root, &ri, x->d)) {
        x->failed = true;
        return;
    }
    emit_red_count(x->g, &ri, x->args);
    const TensorType *S = &N(x->g, ri.x)->type, *O = &N(x->g, ri.node)->type;
    for (int k = 0; k < x->st->nouts; k++)
        if (!ir_shape_equal(&N(x->g, x->st->outs[k])->type, O)) {
            diag_node(x->d, N(x->g, x->st->outs[k]), "internal: a reduce step output is not over the reduction's shape");
            x->failed = true;
            return;
        }
    char *oc[IR_MAX_RANK] = {0}, *xc[IR_MAX_RANK] = {0}, *nout = ex_extent(x, O, ~0u), *guard = NULL;
    bool cols = x->st->lower.form == LOWER_RED_COLS;
    if (cols) {
        ex_line(x, "for (%s o0 = (%s)blockIdx.x * 8; o0 < %s; o0 += (%s)gridDim.x * 8) {", x->idx, x->idx, nout, x->idx);
        ex_line(x, "    const %s o = o0 + (threadIdx.x & 7);", x->idx);
        guard = xfmt("o < %s", nout);
    } else {
        ex_line(x, "for (%s o = blockIdx.x; o < %s; o += gridDim.x) {", x->idx, nout);
    }
    free(nout);
    x->indent++;
    int m = ex_mark(x);
    split_used(x, "o", O->rank, O->dims, O->sym, oc);
    for (int i = 0, k = 0; i < S->rank; i++) {
        bool red = ri.mask & (1u << i);
        if (O->rank == S->rank) xc[i] = red ? NULL : strdup(oc[i]);
        else if (!red) xc[i] = strdup(oc[k++]);
    }
    block_reduction(x, &ri, xc, cols ? RED_COLS : RED_BLOCK, guard, NULL);
    if (cols) ex_line(x, "if (threadIdx.x < 8 && %s) {", guard);
    else ex_line(x, "if (threadIdx.x == 0) {");
    free(guard);
    x->indent++;
    int m2 = ex_mark(x);
    char ***cs = calloc((size_t)x->st->nouts + 1, sizeof *cs);
    if (!cs) abort();
    for (int k = 0; k < x->st->nouts; k++) cs[k] = oc;
    store_all(x, x->st->outs, x->st->nouts, cs);
    free(cs);
    ex_release(x, m2);
    close_block(x);
    ex_unbind(x, ri.node);
    ex_release(x, m);
    close_block(x);
    ex_free_coords(oc, O->rank);
    ex_free_coords(xc, S->rank);
}

static void row_coords(const TensorType *t, char *const *rc, int keep, char **c) {
    for (int i = 0; i < t->rank; i++) c[i] = strdup(i < keep ? rc[i] : "0");
}

/* A row matmul's operand pointers as locals ("const float *A1 = ..."); false on error. */
static bool row_mm_ptrs(Ex *x, const EmitGemm *gm, const char *pa, const char *pb) {
    const char *T = emit_ctype(N(x->g, gm->mm)->type.dtype);
    char *a = pa ? ex_addr(x, gm->a) : NULL, *b = ex_addr(x, gm->b);
    if ((pa && !a) || !b) return free(a), free(b), false;
    if (pa) ex_line(x, "const %s *const %s = %s;", T, pa, a);
    ex_line(x, "const %s *const %s = %s;", T, pb, b);
    free(a), free(b);
    return true;
}

/* Whether step st may read value v before it waits for the steps before it: v is one of the
 * caller's inputs and no step st waits for, directly or not, writes it (an input updated in place
 * is written by the step of its donated output, which waits for every step that reads the input:
 * pass_lower's edges). Never in a plan over 64 steps (no edges recorded, run in order). */
static bool buf_early(const Graph *g, const Step *st, NodeId v) {
    const Plan *p = g->plan;
    const BufRef *b = &p->buf[v];
    if (b->kind != BUF_INPUT || p->nsteps > 64) return false;
    const int self = (int)(st - p->steps);
    const uint64_t w = lower_input_writers(g, b->index);
    return !((w >> self) & 1) && !(w & lower_ancestors(p, self));
}

/* The row's epilogue product: lanes stride over its N columns, each a K-term sum over the warp's
 * row of A in shared memory; the lambda stores the epilogue's outputs at (row, j). */
static void emit_cuda_row_epilogue(Ex *x, const EmitRow *rw, char *const *rc) {
    const EmitGemm *e = &rw->epi;
    const char *T = emit_ctype(N(x->g, e->mm)->type.dtype);
    ex_line(x, "gtc_row_smallk<%s, %lld>(gtc_ra[wr], B2, %lldLL, %lldLL, %lld, %lld, [&](int j, %s acc) {", T,
            (long long)(e->k > 0 ? e->k : 1), (long long)e->sbk, (long long)e->sbn, (long long)e->n, (long long)e->k, T);
    x->indent++;
    ex_line(x, "(void)j;");
    int m = ex_mark(x);
    char *oc[2] = {strdup(rc[0]), strdup("j")};
    ex_bind(x, e->mm, "acc");
    char ***cs = calloc((size_t)rw->neo + 1, sizeof *cs);
    if (!cs) abort();
    for (int k = 0; k < rw->neo; k++) cs[k] = oc;
    store_all(x, rw->eo, rw->neo, cs);
    free(cs);
    ex_unbind(x, e->mm);
    ex_release(x, m);
    ex_free_coords(oc, 2);
    x->indent--;
    ex_line(x, "});");
}

/* The same epilogue for a lane row whose N columns are nq <= LANE_EPI_MAX per lane: lane l takes
 * columns gtc_j<q> = l + 32 q (declared, clamped, and their inputs prefetched at the row's top),
 * one gtc_row_dot each, unrolled: no load waits for a store of the row. */
#define LANE_EPI_MAX 8
#define ROW_B_REGS 32 /* a row product's B values per lane held in registers, at most */
static void emit_cuda_row_epilogue_lanes(Ex *x, const EmitRow *rw, char *const *rc, int nq, bool regs) {
    const EmitGemm *e = &rw->epi;
    const char *T = emit_ctype(N(x->g, e->mm)->type.dtype);
    for (int q = 0; q < nq; q++) {
        ex_line(x, "{");
        x->indent++;
        int m = ex_mark(x);
        char *acc = xfmt("gtc_acc%d", q), *j = xfmt("gtc_j%d", q);
        if (regs) /* B's column in registers (emit_cuda_row) */
            ex_line(x, "const %s %s = gtc_row_dot_r<%s, %lld>(gtc_ra[wr], gtc_b2[%d], %lld);", T, acc, T, (long long)e->k, q,
                    (long long)e->k);
        else
            ex_line(x, "const %s %s = gtc_row_dot<%s, %lld>(gtc_ra[wr], B2, %lldLL, %lldLL, %s, %lld);", T, acc, T,
                    (long long)(e->k > 0 ? e->k : 1), (long long)e->sbk, (long long)e->sbn, j, (long long)e->k);
        bool guard = (int64_t)(q + 1) * 32 > e->n;
        if (guard) {
            ex_line(x, "if (lane + %d < %lld) {", 32 * q, (long long)e->n);
            x->indent++;
        }
        char *oc[2] = {strdup(rc[0]), j};
        ex_bind(x, e->mm, acc);
        char ***cs = calloc((size_t)rw->neo + 1, sizeof *cs);
        if (!cs) abort();
        for (int k = 0; k < rw->neo; k++) cs[k] = oc;
        store_all(x, rw->eo, rw->neo, cs);
        free(cs);
        ex_unbind(x, e->mm);
        if (guard) close_block(x);
        ex_release(x, m);
        free(oc[0]), free(j), free(acc);
        close_block(x);
    }
}

/* A lane row's epilogue columns per lane (gtc_j<q>), 0 when its epilogue loops over them. */
static int lane_epi_cols(const EmitRow *rw) {
    if (!rw->has_epi || rw->epi.n <= 0 || (rw->epi.n + 31) / 32 > LANE_EPI_MAX) return 0;
    return (int)((rw->epi.n + 31) / 32);
}

/* Whether reduction ri folds exactly the row's elements (the lane-row form applies). */
static bool red_is_row(const Graph *g, const EmitRed *ri, const EmitRow *rw) {
    const TensorType *S = &N(g, rw->x)->type, *X = &N(g, ri->x)->type;
    if (ri->arg || !ir_shape_equal(S, X)) return false;
    for (int i = 0; i < S->rank; i++)
        if (((ri->mask >> i) & 1u) != (i >= rw->keep)) return false;
    return true;
}

/* A lane row (a warp per row of at most 32 elements): lane l owns element le = l (the last one
 * past the row), so its coordinates (ec, row coordinates then element ones) hold for the whole
 * row, and every value the row reads from memory at them is loaded here, before the prologue, at
 * once (else each is a round trip after the reduction before it: the train step's row step ran
 * 4.3 us, 2.9 with its loads first, on the H200). The epilogue's columns likewise when at most
 * LANE_EPI_MAX per lane: returns how many (gtc_j<q> declared), 0 when the epilogue loops. */
static int lane_row_begin(Ex *x, const EmitRow *rw, char *const *rc, char **ec) {
    const Step *st = x->st;
    const TensorType *S = &N(x->g, rw->x)->type;
    char *len = ex_const(x, rw->len), *last = ex_const(x, rw->len - 1);
    ex_line(x, "const %s le = lane < %s ? lane : %s;", x->idx, len, last);
    ex_line(x, "(void)le;");
    free(len), free(last);
    for (int i = 0; i < rw->keep; i++) ec[i] = strdup(rc[i]);
    split_used(x, "le", S->rank - rw->keep, S->dims + rw->keep, NULL, ec + rw->keep); /* a static row */
    for (int k = 0; k < st->nnodes && !x->failed; k++) {
        EmitRed ri;
        if (ir_ops[N(x->g, st->nodes[k])->op].kind != K_REDUCE) continue;
        if (emit_red_info(x->g, st->nodes[k], &ri, x->d)) {
            x->failed = true;
            return 0;
        }
        if (red_is_row(x->g, &ri, rw)) ex_prefetch(x, ri.x, ec);
    }
    for (int k = 0; k < rw->nfo; k++)
        if (ir_shape_equal(&N(x->g, rw->fo[k])->type, S)) ex_prefetch(x, rw->fo[k], ec);
    if (!rw->has_epi) return 0;
    ex_prefetch(x, rw->epi.a, ec);
    const int nq = lane_epi_cols(rw);
    if (!nq) return 0;
    for (int q = 0; q < nq; q++) {
        char *j = xfmt("gtc_j%d", q), *oc[2] = {rc[0], j};
        ex_line(x, "const int %s = gtc_lane_col(%d, %lld);", j, q, (long long)rw->epi.n); /* past N: N - 1 */
        for (int k = 0; k < rw->neo; k++) ex_prefetch(x, rw->eo[k], oc);
        free(j);
    }
    return nq;
}

static void emit_cuda_row(Ex *x) {
    EmitRow rw;
    if (emit_row_info(x->g, x->st, &rw, x->d)) {
        x->failed = true;
        return;
    }
    const Step *st = x->st;
    const TensorType *S = &N(x->g, rw.x)->type;
    RedMode md = row_mode(st);
    bool warp = md == RED_WARP;
    int w = st->lower.warps;
    /* rows over a symbolic leading axis: the run's count of them; a symbolic row (a reduction of
     * a whole [batch] vector): its run's length, never the lane form (which is unrolled over a
     * static length) */
    const unsigned rowmask = (1u << rw.keep) - 1, lenmask = ((1u << S->rank) - 1) & ~rowmask;
    bool row_sym = false;
    for (int i = rw.keep; i < S->rank; i++) row_sym = row_sym || (S->sym[i] && S->dims[i] != 1);
    if (row_sym && (rw.has_pro || rw.has_epi)) {
        diag_node(x->d, N(x->g, rw.x), "internal: a row step with a product over a symbolic row");
        x->failed = true;
        emit_row_free(&rw);
        return;
    }
    char *rc[IR_MAX_RANK] = {0}, *nrows = ex_extent(x, S, rowmask);
    if ((rw.has_pro && !row_mm_ptrs(x, &rw.pro, "A1", "B1")) || (rw.has_epi && !row_mm_ptrs(x, &rw.epi, NULL, "B2"))) {
        free(nrows), emit_row_free(&rw);
        return;
    }
    /* The products' B operands that no step before this one writes (buf_early), a few registers
     * per lane, are read before the wait: their loads overlap the steps before, not the row. The
     * train step's w2 (logits and dh1): 14.2 -> 13.9 us per tf32 step on the H200. */
    const bool lanes = warp && rw.len <= 32 && !row_sym;
    const int kq = rw.has_pro && rw.pro.k > 0 && rw.pro.n > 0 && (rw.pro.k + 31) / 32 * rw.pro.n <= ROW_B_REGS &&
                           buf_early(x->g, st, rw.pro.b)
                       ? (int)((rw.pro.k + 31) / 32)
                       : 0;
    const int nqe = lanes ? lane_epi_cols(&rw) : 0;
    const bool epi_r = nqe && rw.epi.k > 0 && nqe * rw.epi.k <= ROW_B_REGS && buf_early(x->g, st, rw.epi.b);
    if (kq) {
        const char *T = emit_ctype(N(x->g, rw.pro.mm)->type.dtype);
        ex_line(x, "%s gtc_b1[%d][%lld];", T, kq, (long long)rw.pro.n);
        ex_line(x, "gtc_row_b_pro<%s, %d, %lld>(B1, %lldLL, %lldLL, %lld, %lld, gtc_b1);", T, kq, (long long)rw.pro.n,
                (long long)rw.pro.sbk, (long long)rw.pro.sbn, (long long)rw.pro.n, (long long)rw.pro.k);
    }
    if (epi_r) {
        const char *T = emit_ctype(N(x->g, rw.epi.mm)->type.dtype);
        ex_line(x, "%s gtc_b2[%d][%lld];", T, nqe, (long long)rw.epi.k);
        ex_line(x, "gtc_row_b_epi<%s, %d, %lld>(B2, %lldLL, %lldLL, %lld, %lld, gtc_b2);", T, nqe, (long long)rw.epi.k,
                (long long)rw.epi.sbk, (long long)rw.epi.sbn, (long long)rw.epi.n, (long long)rw.epi.k);
    }
    ex_line(x, "gtc_wait_prior_steps();");
    if (rw.has_pro)
        ex_line(x, "__shared__ %s gtc_rp[%d][%lld];", emit_ctype(N(x->g, rw.pro.mm)->type.dtype), w, (long long)rw.len);
    if (rw.has_epi)
        ex_line(x, "__shared__ %s gtc_ra[%d][%lld];", emit_ctype(N(x->g, rw.epi.a)->type.dtype), w, (long long)rw.len);
    if (md == RED_THREAD) {
        ex_line(x, "for (%s row = (%s)blockIdx.x * blockDim.x + threadIdx.x; row < %s; row += (%s)gridDim.x * blockDim.x) {",
                x->idx, x->idx, nrows, x->idx);
    } else if (warp) {
        ex_line(x, "const int lane = threadIdx.x & 31, wr = threadIdx.x >> 5;");
        ex_line(x, "(void)wr;");
        ex_line(x, "for (%s row = (%s)blockIdx.x * %d + wr; row < %s; row += (%s)gridDim.x * %d) {", x->idx, x->idx, w,
                nrows, x->idx, w);
    } else {
        ex_line(x, "for (%s row = blockIdx.x; row < %s; row += gridDim.x) {", x->idx, nrows);
    }
    free(nrows);
    x->indent++;
    int m = ex_mark(x);
    split_used(x, "row", rw.keep, S->dims, S->sym, rc);
    char *ec[IR_MAX_RANK] = {0};
    const int nq = lanes ? lane_row_begin(x, &rw, rc, ec) : 0;
    if (rw.has_pro) {
        const EmitGemm *p = &rw.pro;
        if (kq)
            ex_line(x, "gtc_row_skinny_r<%s, %d, %lld>(A1, %lldLL, %lldLL, gtc_b1, %s, %lld, %lld, gtc_rp[wr]);",
                    emit_ctype(N(x->g, p->mm)->type.dtype), kq, (long long)p->n, (long long)p->sam, (long long)p->sak, rc[0],
                    (long long)p->n, (long long)p->k);
        else
            ex_line(x, "gtc_row_skinny<%s, %lld>(A1, %lldLL, %lldLL, B1, %lldLL, %lldLL, %s, %lld, %lld, gtc_rp[wr]);",
                    emit_ctype(N(x->g, p->mm)->type.dtype), (long long)(p->n > 0 ? p->n : 1), (long long)p->sam,
                    (long long)p->sak, (long long)p->sbk, (long long)p->sbn, rc[0], (long long)p->n, (long long)p->k);
        ex_bind_row(x, p->mm, "gtc_rp[wr]");
    }
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
            block_reduction(x, &ri, xc, md, NULL, lanes && red_is_row(x->g, &ri, &rw) ? ec + rw.keep : NULL);
            ex_free_coords(xc, S->rank);
        } else if (rw.hoist[id]) {
            char *c[IR_MAX_RANK] = {0};
            row_coords(&nd->type, rc, rw.keep, c);
            char *v = ex_value(x, id, c);
            ex_bind(x, id, v);
            free(v);
            ex_free_coords(c, nd->type.rank);
        }
    }
    char ***rcs = calloc((size_t)st->nouts + 1, sizeof *rcs), ***fcs = calloc((size_t)st->nouts + 1, sizeof *fcs);
    if (!rcs || !fcs) abort();
    if (rw.nro) {
        for (int k = 0; k < rw.nro; k++) {
            if (!(rcs[k] = calloc(IR_MAX_RANK, sizeof(char *)))) abort();
            row_coords(&N(x->g, rw.ro[k])->type, rc, rw.keep, rcs[k]);
        }
        ex_line(x, "%s", md == RED_THREAD ? "{" : warp ? "if (lane == 0) {" : "if (threadIdx.x == 0) {");
        x->indent++;
        int m2 = ex_mark(x);
        store_all(x, rw.ro, rw.nro, rcs);
        ex_release(x, m2);
        close_block(x);
    }
    if (rw.nfo || rw.has_epi) {
        char *fc[IR_MAX_RANK] = {0}, *len = ex_extent(x, S, lenmask);
        for (int i = 0; i < rw.keep; i++) fc[i] = strdup(rc[i]);
        if (lanes) {
            ex_line(x, "if (lane < %s) {", len);
            if (rw.has_epi) ex_line(x, "    const %s e = le;", x->idx);
        } else {
            char *nthb = block_threads(x);
            ex_line(x, "for (%s e = %s; e < %s; e += %s) {", x->idx, md == RED_THREAD ? "0" : warp ? "lane" : "threadIdx.x", len,
                    md == RED_THREAD ? "1" : warp ? "32" : nthb);
            free(nthb);
        }
        free(len);
        x->indent++;
        int m2 = ex_mark(x);
        if (lanes)
            for (int i = rw.keep; i < S->rank; i++) fc[i] = strdup(ec[i]);
        else
            split_used(x, "e", S->rank - rw.keep, S->dims + rw.keep, S->sym + rw.keep, fc + rw.keep);
        if (rw.has_epi) { /* the epilogue's A row, for every lane */
            char *v = ex_value(x, rw.epi.a, fc);
            ex_line(x, "gtc_ra[wr][e] = %s;", v);
            free(v);
        }
        for (int k = 0; k < rw.nfo; k++) fcs[k] = fc;
        store_all(x, rw.fo, rw.nfo, fcs);
        ex_release(x, m2);
        close_block(x);
        ex_free_coords(fc, S->rank);
    }
    if (rw.has_epi) {
        ex_line(x, "__syncwarp();");
        if (nq) emit_cuda_row_epilogue_lanes(x, &rw, rc, nq, epi_r);
        else emit_cuda_row_epilogue(x, &rw, rc);
    }
    if (rw.has_pro || rw.has_epi) ex_line(x, "__syncwarp(); /* the warp's rows in shared memory are rewritten next */");
    for (int k = 0; k < rw.nro; k++) ex_free_coords(rcs[k], N(x->g, rw.ro[k])->type.rank), free(rcs[k]);
    free(rcs), free(fcs);
    for (int k = 0; k < st->nnodes; k++) ex_unbind(x, st->nodes[k]);
    ex_release(x, m);
    close_block(x);
    ex_free_coords(rc, rw.keep);
    ex_free_coords(ec, S->rank);
    emit_row_free(&rw);
}

/* A cuBLASLt step's kernel: the epilogue over the product the executor's cuBLASLt call left in
 * Step.lower.gemm_out (or the scratch), a thread per element as in an elementwise step; every
 * output but the product already in place. With lib_bias, cuBLASLt has added the bias: the
 * kernel starts from that sum (from its relu with lib_relu); with lib_update, from the update's
 * difference in its buffer. The CPU's cblas epilogue (emit_cpu.c) is the same loop over nested
 * coordinates, the bias added there. */
static void emit_cuda_blas_epilogue(Ex *x, const EmitGemm *gm) {
    const Node *mm = N(x->g, gm->mm);
    const StepLower *l = &x->st->lower;
    if (!l->epilogue) return; /* the executor launches no kernel for this step */
    /* what C holds, and where: the update's difference in its own buffer, or the product (with the
     * bias added) in gemm_out */
    const NodeId c = lower_blas_result(l, gm->mm);
    const NodeId where = l->lib_update >= 0 ? c : l->gemm_out;
    char *dst = l->lib_update >= 0 ? ex_addr(x, c) : ex_gemm_product(x, gm->mm);
    if (!dst) return;
    const TensorType *t = &mm->type;
    NodeId *outs = calloc((size_t)x->st->nouts + 1, sizeof *outs);
    char ***cs = calloc((size_t)x->st->nouts + 1, sizeof *cs);
    if (!outs || !cs) abort();
    char *coords[IR_MAX_RANK] = {0};
    int n = 0, m = ex_mark(x);
    open_grid_loop(x, "i", t);
    split_used(x, "i", t->rank, t->dims, t->sym, coords);
    for (int k = 0; k < x->st->nouts; k++)
        if (!(x->st->outs[k] == c && where == c)) cs[n] = coords, outs[n++] = x->st->outs[k];
    ex_line(x, "const %s acc = %s[i];", emit_ctype(t->dtype), dst);
    ex_bind(x, c, "acc");
    store_all(x, outs, n, cs);
    ex_unbind(x, c);
    ex_release(x, m);
    close_block(x);
    ex_free_coords(coords, t->rank);
    free(outs), free(cs), free(dst);
}

/* Which operands of a tiled GEMM step it may read before its wait (1: A, 2: B; buf_early: inputs
 * no step before it writes). gtc_gemm requests their first K steps before it waits
 * for the steps before it (the kernel then has no wait of its own at its start), so on sm_90,
 * launched early by a programmatic edge, it loads them while those steps still run (the train
 * step's x^T @ dh1 loads x while the row step computes dh1). None for a step that waits for no
 * other (the first of a replay): there is nothing to overlap, and the early loads cost it: its
 * first K step waits for all of the early operand (cp.async groups complete in order), 4.7 ->
 * 5.5 us for the train step's x @ w1 (H200, bench/gemm_split.cu). */
static int gemm_early(const Graph *g, const Step *st, const EmitGemm *gm) {
    if (st->lower.after == 0) return 0;
    return (buf_early(g, st, gm->a) ? 1 : 0) | (buf_early(g, st, gm->b) ? 2 : 0);
}

static void emit_cuda_gemm(Ex *x) {
    EmitGemm gm;
    if (emit_gemm_info(x->g, x->st, &gm, x->d)) {
        x->failed = true;
        return;
    }
    /* the step's wait for the steps before it: here, or inside gtc_gemm after its EARLY loads */
    const int early = x->st->lower.form == LOWER_GEMM_TILED ? gemm_early(x->g, x->st, &gm) : 0;
    if (!early) ex_line(x, "gtc_wait_prior_steps();");
    if (x->st->lower.form == LOWER_GEMM_BLAS) return emit_cuda_blas_epilogue(x, &gm);
    const Node *mm = N(x->g, gm.mm);
    const char *T = emit_ctype(mm->type.dtype);
    const StepLower *tile = &x->st->lower;
    char *bc[IR_MAX_RANK] = {0}, *sz[4];
    if (ex_gemm_sizes(x, &gm, sz)) return;
    Str oa = {0}, ob = {0};
    if (gm.nb) {
        ex_line(x, "const %s bz = blockIdx.z;", x->idx);
        bool bsym = false; /* a symbolic batch axis: the grid's z is the bound's, blocks past the run's exit */
        for (int i = 0; i < gm.nb; i++) bsym = bsym || (mm->type.sym[i] && gm.bdims[i] != 1);
        if (bsym) ex_line(x, "if (bz >= %s) return;", sz[3]);
        split_used(x, "bz", gm.nb, gm.bdims, NULL, bc);
        for (int i = 0; i < gm.nb; i++) {
            if (gm.bsa[i]) str_add(&oa, " + (long long)%s * %lldLL", bc[i], (long long)gm.bsa[i]);
            if (gm.bsb[i]) str_add(&ob, " + (long long)%s * %lldLL", bc[i], (long long)gm.bsb[i]);
        }
    }
    char *pa = ex_addr(x, gm.a), *pb = ex_addr(x, gm.b);
    if (!pa || !pb) {
        free(pa), free(pb), str_free(&oa), str_free(&ob);
        for (int i = 0; i < 4; i++) free(sz[i]);
        return;
    }
    ex_line(x, "const %s *A = %s%s;", T, pa, oa.s ? oa.s : "");
    ex_line(x, "const %s *B = %s%s;", T, pb, ob.s ? ob.s : "");
    free(pa), free(pb), str_free(&oa), str_free(&ob);
    /* M, N, K at run time where symbolic (the templates take them as ints; the template bounds
     * KK / NN and the grid are the bound's) */
    if (tile->form == LOWER_GEMM_SMALLK)
        ex_line(x, "gtc_gemm_smallk<%s, %lld>(A, %lldLL, %lldLL, B, %lldLL, %lldLL, %s, %s, %s,", T,
                (long long)(gm.k > 0 ? gm.k : 1), (long long)gm.sam, (long long)gm.sak, (long long)gm.sbk, (long long)gm.sbn,
                sz[0], sz[1], sz[2]);
    else if (tile->form != LOWER_GEMM_TILED)
        ex_line(x, "gtc_gemm_skinny%s<%s, %lld>(A, %lldLL, %lldLL, B, %lldLL, %lldLL, %s, %s, %s,",
                tile->form == LOWER_GEMM_SKINNY_T ? "_t" : "", T, (long long)(gm.n > 0 ? gm.n : 1), (long long)gm.sam,
                (long long)gm.sak, (long long)gm.sbk, (long long)gm.sbn, sz[0], sz[1], sz[2]);
    else
        ex_line(x, "gtc_gemm<%s, %d, %d, %d, %d, %d, %s, %s, %s, %d, %d>(A, %lldLL, %lldLL, B, %lldLL, %lldLL, %s, %s, %s,", T,
                tile->bm, tile->bn, tile->tm, tile->ks, tile->bk, gm.sak == 1 ? "true" : "false",
                gm.sbk == 1 ? "true" : "false", tile->tf32 ? "true" : "false", tile->nst, early,
                (long long)gm.sam, (long long)gm.sak, (long long)gm.sbk, (long long)gm.sbn, sz[0], sz[1], sz[2]);
    for (int i = 0; i < 4; i++) free(sz[i]);
    x->indent++;
    ex_line(x, "[&](int i, int j, %s acc) {", T);
    x->indent++;
    int m = ex_mark(x);
    char *oc[IR_MAX_RANK] = {0};
    int rank = emit_gemm_coords(&gm, bc, "i", "j", oc);
    ex_line(x, "(void)i; (void)j;");
    ex_bind(x, gm.mm, "acc");
    char ***cs = calloc((size_t)x->st->nouts + 1, sizeof *cs);
    if (!cs) abort();
    for (int k = 0; k < x->st->nouts; k++) cs[k] = oc;
    store_all(x, x->st->outs, x->st->nouts, cs);
    free(cs);
    ex_unbind(x, gm.mm);
    ex_release(x, m);
    ex_free_coords(oc, rank);
    ex_free_coords(bc, gm.nb);
    x->indent--;
    ex_line(x, "});");
    x->indent--;
}

char *emit_cuda_source(const Graph *g, const char *source_name, Diag *d) {
    if (emit_check_plan(g, d)) return NULL;
    const Plan *p = g->plan;
    Str b = {0};
    int nscalars = emit_nscalars(g);
    emit_header(&b, source_name);
    str_add(&b, "/* The CUDA kernels of plan %s: one __global__ function per step, taking the argument\n"
                " * block of runtime/core/plan_abi.h by value. Compiles with nvcc and with NVRTC. */\n", g->name);
    emit_text(&b, EMIT_TEXT_CUDA_TYPES);
    emit_text(&b, EMIT_TEXT_SCALAR_H);
    emit_text(&b, EMIT_TEXT_CUDA_PRELUDE);
    str_add(&b, "\nstruct gtc_args {\n    char *p[%d];\n    double s[%d];\n};\n", g->ninputs + g->noutputs + 1,
            nscalars ? nscalars : 1);
    for (int s = 0; s < p->nsteps; s++) {
        const Step *st = &p->steps[s];
        const StepLower *l = &st->lower;
        str_add(&b, "\n/* step %d: %s", s, plan_step_kind_name(st->kind));
        for (int k = 0; k < st->nnodes; k++) {
            str_cat(&b, k ? ", " : ": ");
            str_add(&b, "%s ", ir_ops[N(g, st->nodes[k])->op].name);
            emit_comment_text(&b, N(g, st->nodes[k])->name);
        }
        str_add(&b, "; grid %u x %u x %u, block %u */\n", l->grid[0], l->grid[1], l->grid[2], l->block[0]);
        str_add(&b, "extern \"C\" __global__ void __launch_bounds__(%u) %s_k%d(struct gtc_args a) {\n", l->block[0], p->sym, s);
        if (st->kind != STEP_GEMM && st->kind != STEP_ROW) /* theirs: emit_cuda_gemm, emit_cuda_row */
            str_cat(&b, "    gtc_wait_prior_steps();\n");
        Ex x;
        ex_init(&x, g, EMIT_CUDA, s, &b, d);
        switch (st->kind) {
        case STEP_ELEMWISE: emit_cuda_elemwise(&x); break;
        case STEP_REDUCE: emit_cuda_reduce(&x); break;
        case STEP_ROW: emit_cuda_row(&x); break;
        case STEP_GEMM: emit_cuda_gemm(&x); break;
        case STEP_COPY: emit_cuda_copy(&x); break;
        case STEP_ALLREDUCE: break; /* empty: the executor puts NCCL's all-reduce in its place */
        }
        bool failed = x.failed;
        ex_done(&x);
        if (failed || d->nerrors) {
            str_free(&b);
            return NULL;
        }
        str_cat(&b, "}\n");
    }
    str_add(&b, "\n#ifndef __CUDACC_RTC__\nextern \"C\" const void *const %s_cuda_kernels[] = {", p->sym);
    for (int s = 0; s < p->nsteps; s++) str_add(&b, "%s(const void *)%s_k%d", s ? ", " : "", p->sym, s);
    if (!p->nsteps) str_cat(&b, "0");
    str_cat(&b, "};\n#endif\n");
    return str_take(&b);
}
