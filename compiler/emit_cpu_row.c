/* compiler/emit_cpu_row.c: the CPU code of a ROW step (compiler/emit_cpu.c writes the other
 * kinds): per row, or over short rows a block of rows at a time with the loops across the rows
 * (so that they vectorise). */
#include <stdlib.h>
#include <string.h>

#include "../ir/fsum.h"
#include "emit.h"
#include "emit_cpu.h"
#include "util.h"

static const Node *N(const Graph *g, NodeId id) { return &g->nodes[id]; }

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

/* Whether a blocked row step loads id's rows into a tile ([len][ROW_BLOCK], bound in place of
 * id): id is in memory, of the row shape, read by two nodes or more of the step, each an
 * elementwise node of the row shape or a reduction (so each reads it at its own row and
 * element, never through a view that moves them). */
static bool row_tile(const Ex *x, const TensorType *S, NodeId id) {
    const Node *n = N(x->g, id);
    if (x->in_step[id] || x->p->buf[id].kind == BUF_NONE || x->p->buf[id].kind == BUF_SCALAR ||
        !ir_shape_equal(&n->type, S) || step_uses(x, id) < 2)
        return false;
    for (int k = 0; k < x->st->nnodes; k++) {
        const Node *c = N(x->g, x->st->nodes[k]);
        for (int i = 0; i < c->ninputs; i++) {
            if (c->in[i].id != id) continue;
            OpKind kind = ir_ops[c->op].kind;
            if (!(kind == K_REDUCE || (kind == K_ELEMWISE && ir_shape_equal(&c->type, S)))) return false;
        }
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
    bool fs = emit_cpu_red_fsum(ri);
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
    if (row_tile(x, S, rw->x)) {
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
        emit_cpu_store_outputs(x, rw->ro, rw->nro, rcs);
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
        emit_cpu_store_outputs(x, rw->fo, rw->nfo, fcs);
        ex_release(x, m2);
        ex_close_loops(x, loops);
        ex_free_coords(fc, 2);
        free(fcs);
    }
    for (int k = 0; k < st->nnodes; k++) ex_unbind(x, st->nodes[k]);
    ex_unbind(x, rw->x);
    ex_release(x, m);
    ex_close_loops(x, 1);
    free(r0), free(row), free(rows);
}

/* ROW: per row, the prologue product's row (when there is one), the reductions in order (each a
 * loop over the row), the per-row values that depend on them once, one loop storing the
 * full-row outputs (and keeping the epilogue's A row), then the epilogue product's row. */
void emit_cpu_row(Ex *x) {
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
            emit_cpu_reduce_loop(x, &ri, xc);
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
    if (rw.nro) emit_cpu_store_outputs(x, rw.ro, rw.nro, rcs);
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
        emit_cpu_store_outputs(x, rw.fo, rw.nfo, fcs);
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
        emit_cpu_store_outputs(x, rw.eo, rw.neo, fcs);
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
