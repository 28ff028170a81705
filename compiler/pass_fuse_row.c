/* compiler/pass_fuse_row.c: the fusion planner's additions to ROW steps, so one kernel (a warp
 * per row) computes them row by row:
 *  - prologue: a skinny product [M, L] (L <= PLAN_ROW_MM_MAX) whose rows the step reduces (the
 *    logits of a classifier head, a1 @ w2 + b2): its GEMM step (with its elementwise epilogue)
 *    joins the row step; lanes stride over K, a warp reduction per column;
 *  - epilogue: a small-K product of a full-row member [M, L] by a matrix read from memory
 *    ([L, N], K = L; the input gradient dlogits @ w2^T): its GEMM step joins, lanes stride over
 *    the N columns of the output row, with its elementwise epilogue (where(h1 > 0, ., 0));
 *  - reductions of the same rows that only the row step reads and that do not depend on it
 *    (log-softmax's backward sums the labels' row, sum(y), independently of the logits): their
 *    REDUCE step joins, so the row step has one kernel less before it and one edge less into it.
 * Only rank-2 products whose other operand is independent of the row step qualify, and only when
 * no third step sits between the two (that would be a cycle). Refusals are noted in the reason. */
#include <stdarg.h>
#include <stdio.h>

#include "pass_fuse.h"

/* Whether a node path leads from a member of group a to a member of group b through a member of
 * a third group (merging a and b would then make a cycle between steps). Node ids grow along
 * edges, so such a path lies between a's first member and b's last: only that range is swept
 * (a classifier head's layers are next to each other; the whole graph per row step would make a
 * deep stack of them quadratic). */
static bool through_other(Fuse *f, int a, int b) {
    const Group *ga = &f->gr[a], *gb = &f->gr[b];
    if (!ga->nmem || !gb->nmem || gb->mem[gb->nmem - 1] < ga->mem[0]) return false;
    NodeId lo = ga->mem[0], hi = gb->mem[gb->nmem - 1];
    unsigned char *st = xcalloc((size_t)(hi - lo) + 1, 1); /* 1: depends on a; 2: through a third group */
    bool hit = false;
    for (NodeId j = lo; j <= hi && !hit; j++) {
        if (!f->live[j] || f->home[j] == a) continue;
        const Node *nd = N(f, j);
        unsigned char *sj = &st[j - lo];
        for (int k = 0; k < nd->ninputs; k++) {
            NodeId o = nd->in[k].id;
            if (o < lo) continue; /* before a's first member: depends on none of them */
            if (f->home[o] == a) *sj |= 1;
            *sj |= st[o - lo];
        }
        if ((*sj & 1) && f->home[j] >= 0 && f->home[j] != b) *sj |= 2;
        hit = f->home[j] == b && (*sj & 2);
    }
    free(st);
    return hit;
}

/* Whether value v depends on a member of group s (or is one): the nodes from s's first member
 * to v. */
static bool depends_on(Fuse *f, NodeId v, int s) {
    if (f->home[v] == s) return true;
    const Group *g = &f->gr[s];
    if (!g->nmem || v < g->mem[0]) return false;
    NodeId lo = g->mem[0];
    bool *d = xcalloc((size_t)(v - lo) + 1, sizeof *d), r;
    for (NodeId j = lo; j <= v; j++) {
        const Node *nd = N(f, j);
        d[j - lo] = f->home[j] == s;
        for (int k = 0; k < nd->ninputs && !d[j - lo]; k++) d[j - lo] = nd->in[k].id >= lo && d[nd->in[k].id - lo];
    }
    r = d[v - lo];
    free(d);
    return r;
}

/* A floating-point rank-2 product [M, X] of rank-2 operands (no batch axes). */
static bool plain_2d(Fuse *f, const Group *gm) {
    return !gm->half[0] && !gm->half[1] && ir_dtype_is_float(N(f, gm->root)->type.dtype) && N(f, gm->root)->type.rank == 2 && N(f, gm->opnd[0])->type.rank == 2 && N(f, gm->opnd[1])->type.rank == 2;
}

/* Moves group b's members (and folded transposes) into group a; b is left dead. */
static void merge(Fuse *f, int a, int b, int which) {
    Group *ga = &f->gr[a], *gb = &f->gr[b];
    for (int m = 0; m < gb->nmem; m++) push(&ga->mem, &ga->nmem, gb->mem[m]), f->home[gb->mem[m]] = a;
    for (int m = 0; m < gb->nfolded; m++) push(&ga->folded, &ga->nfolded, gb->folded[m]);
    qsort(ga->mem, (size_t)ga->nmem, sizeof *ga->mem, cmp_id);
    ga->rmm[which].mm = gb->root;
    for (int k = 0; k < 2; k++) ga->rmm[which].in[k] = gb->opnd[k], ga->rmm[which].trans[k] = gb->trans[k];
    gb->dead = true;
    gb->nmem = 0;
}

/* Records the first refusal of a prologue (which 0) or epilogue (1) candidate for the reason. */
static void note(Group *r, int which, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void note(Group *r, int which, const char *fmt, ...) {
    va_list ap;
    if (r->rnote[which][0]) return;
    va_start(ap, fmt);
    vsnprintf(r->rnote[which], sizeof r->rnote[which], fmt, ap);
    va_end(ap);
}

/* The prologue: the first GEMM step the row step reads, when its product is the row shape. */
static void try_prologue(Fuse *f, int s) {
    Group *r = &f->gr[s];
    const TensorType *S = &N(f, r->x)->type;
    NodeId *cl = NULL, *ins = NULL;
    int ncl = 0, nins = 0, g1 = -1;
    NodeId via = -1;
    f->sstamp++;
    for (int m = 0; m < r->nmem; m++) fuse_closure(f, s, r->mem[m], &cl, &ncl, &ins, &nins);
    for (int k = 0; k < nins && g1 < 0; k++)
        if (f->home[ins[k]] >= 0 && f->gr[f->home[ins[k]]].kind == STEP_GEMM) g1 = f->home[ins[k]], via = ins[k];
    if (g1 >= 0) {
        Group *gm = &f->gr[g1];
        const char *mn = N(f, gm->root)->name;
        bool inline_read = false; /* R computes an inline node that reads the product's step */
        for (int k = 0; k < ncl; k++)
            for (int i = 0; i < N(f, cl[k])->ninputs; i++)
                inline_read = inline_read || (N(f, cl[k])->in[i].id >= 0 && f->home[N(f, cl[k])->in[i].id] == g1);
        bool row_reads = true; /* the row step reads the product's values as full rows */
        for (int m = 0; m < gm->nmem; m++)
            CONSUMERS(f, gm->mem[m], c) {
                if (f->home[c] != s) continue;
                row_reads = row_reads && ir_shape_equal(&N(f, gm->mem[m])->type, S) &&
                            (kind_of(f, c) == K_REDUCE || (kind_of(f, c) == K_ELEMWISE && ir_shape_equal(&N(f, c)->type, S)));
            }
        if (!plain_2d(f, gm)) note(r, 0, "; no prologue: matmul %s is batched, not 2-D or not floating-point", mn);
        else if (S->rank != 2 || r->keep != 1 || !ir_shape_equal(&N(f, gm->root)->type, S))
            note(r, 0, "; no prologue: matmul %s is not over the rows of %s", mn, N(f, r->x)->name);
        else if (S->dims[1] > PLAN_ROW_MM_MAX)
            note(r, 0, "; no prologue: matmul %s has %lld > %d columns", mn, (long long)S->dims[1], PLAN_ROW_MM_MAX);
        else if (inline_read || !row_reads)
            note(r, 0, "; no prologue: matmul %s is read other than as full rows of %s", mn, N(f, r->x)->name);
        else if (through_other(f, g1, s))
            note(r, 0, "; no prologue: another step between matmul %s and %s", mn, N(f, r->root)->name);
        else {
            merge(f, s, g1, 0);
            f->gr[s].rname[0] = via;
        }
    }
    free(cl);
    free(ins);
}

/* The GEMM steps whose matmul reads a member of group s, directly or through transposes, in
 * ascending order: the epilogue candidates (found from s's readers, not by looking at every
 * step for every row step). */
static int epilogue_candidates(Fuse *f, int s, NodeId **out) {
    NodeId *c = NULL;
    int n = 0, sp = 0;
    const Group *r = &f->gr[s];
    f->sstamp++;
    for (int m = 0; m < r->nmem; m++) {
        f->stack[sp++] = r->mem[m];
        while (sp) {
            NodeId v = f->stack[--sp];
            CONSUMERS(f, v, u) {
                if (f->seen[u] == f->sstamp) continue;
                f->seen[u] = f->sstamp;
                if (N(f, u)->op == OP_TRANSPOSE) f->stack[sp++] = u;
                else if (N(f, u)->op == OP_MATMUL && f->home[u] >= 0 && f->gr[f->home[u]].root == u)
                    push(&c, &n, f->home[u]);
            }
        }
    }
    if (n) qsort(c, (size_t)n, sizeof *c, cmp_id);
    *out = c;
    return n;
}

/* The epilogue: the first GEMM step whose A operand is a full-row member and whose B operand and
 * epilogue are independent of the row step. */
static void try_epilogue(Fuse *f, int s) {
    NodeId *cand = NULL;
    int ncand = epilogue_candidates(f, s, &cand);
    for (int ci = 0; ci < ncand; ci++) {
        int g2 = cand[ci];
        Group *gm = &f->gr[g2], *r = &f->gr[s];
        if (gm->dead || gm->kind != STEP_GEMM || f->home[gm->opnd[0]] != s) continue;
        const TensorType *S = &N(f, r->x)->type;
        const char *mn = N(f, gm->root)->name, *bn = N(f, gm->opnd[1])->name;
        bool reads_row = false; /* the GEMM's epilogue reads values of the row step */
        NodeId *ins = NULL;
        int nins = 0;
        f->sstamp++;
        for (int m = 0; m < gm->nmem; m++)
            if (gm->mem[m] != gm->root) fuse_closure(f, g2, gm->mem[m], NULL, NULL, &ins, &nins);
        for (int k = 0; k < nins; k++) reads_row = reads_row || depends_on(f, ins[k], s);
        free(ins);
        if (r->rmm[1].mm >= 0) note(r, 1, "; no epilogue %s: one epilogue product per row kernel", mn);
        else if (!plain_2d(f, gm)) note(r, 1, "; no epilogue: matmul %s is batched, not 2-D or not floating-point", mn);
        else if (gm->trans[0] || S->rank != 2 || r->keep != 1 || !ir_shape_equal(&N(f, gm->opnd[0])->type, S))
            note(r, 1, "; no epilogue: matmul %s does not read %s as rows", mn, N(f, gm->opnd[0])->name);
        else if (S->dims[1] > PLAN_ROW_MM_MAX) note(r, 1, "; no epilogue: matmul %s has K = %lld > %d", mn, (long long)S->dims[1], PLAN_ROW_MM_MAX);
        else if (depends_on(f, gm->opnd[1], s))
            note(r, 1, "; no epilogue: operand %s of matmul %s depends on the row step", bn, mn);
        else if (reads_row) note(r, 1, "; no epilogue: the epilogue of matmul %s reads the row step's values", mn);
        else if (through_other(f, s, g2)) note(r, 1, "; no epilogue: another step between the row step and matmul %s", mn);
        else {
            NodeId last = gm->mem[gm->nmem - 1];
            merge(f, s, g2, 1);
            f->gr[s].rname[1] = last;
            /* the product's readers are the step's readers now: look on from g2 among them */
            free(cand);
            ncand = epilogue_candidates(f, s, &cand);
            for (ci = 0; ci < ncand && cand[ci] <= g2; ci++) {
            }
            ci--;
        }
    }
    free(cand);
}

/* Whether REDUCE step p may join row step s: a row reduction of s's row shape over the same axes,
 * none of its members an output of the graph or read outside p and s, and independent of s (its
 * members then read nothing s computes: no cycle). Its elementwise members have p's row shape or
 * one value per row (grow() admitted them against the same shape), so s's kernel computes them
 * as its own. */
static bool absorbable(Fuse *f, int s, int p) {
    const Group *r = &f->gr[s], *q = &f->gr[p];
    if (p == s || q->dead || q->kind != STEP_REDUCE || !q->row || q->mask != r->mask || q->keep != r->keep ||
        !ir_shape_equal(&N(f, q->x)->type, &N(f, r->x)->type))
        return false;
    bool read_by_s = false;
    for (int m = 0; m < q->nmem; m++) {
        NodeId v = q->mem[m];
        if (plan_output_of(f->g, v) >= 0 || (f->req[v] & ~REQ_OUTPUT)) return false;
        CONSUMERS(f, v, c) {
            if (f->home[c] == s) read_by_s = true;
            else if (f->home[c] != p) return false;
        }
        if (depends_on(f, v, s)) return false;
    }
    return read_by_s;
}

/* Moves every absorbable REDUCE step into row step s (members sorted: the kernel computes them
 * in node order, each reduction before the members that read it). */
static void absorb_reductions(Fuse *f, int s) {
    for (int p = 0; p < f->ngr; p++) {
        if (!absorbable(f, s, p)) continue;
        Group *r = &f->gr[s], *q = &f->gr[p];
        for (int m = 0; m < q->nmem; m++) push(&r->mem, &r->nmem, q->mem[m]), f->home[q->mem[m]] = s;
        qsort(r->mem, (size_t)r->nmem, sizeof *r->mem, cmp_id);
        r->nred += q->nred;
        q->dead = true;
        q->nmem = 0;
    }
}

void fuse_row_matmuls(Fuse *f) {
    int ngr = f->ngr;
    for (int s = 0; s < ngr; s++) {
        if (f->gr[s].kind != STEP_ROW || f->gr[s].dead) continue;
        try_prologue(f, s);
        try_epilogue(f, s);
        absorb_reductions(f, s);
    }
    int *to = xcalloc((size_t)f->ngr + 1, sizeof *to), n = 0;
    for (int s = 0; s < f->ngr; s++) {
        to[s] = f->gr[s].dead ? -1 : n;
        if (!f->gr[s].dead) f->gr[n++] = f->gr[s];
        else free(f->gr[s].mem), free(f->gr[s].folded), free(f->gr[s].cl), free(f->gr[s].ins);
    }
    f->ngr = n;
    for (NodeId i = 0; i < f->n; i++)
        if (f->home[i] >= 0) f->home[i] = to[f->home[i]];
    free(to);
}

void fuse_row_describe(Fuse *f, int s, char *with, size_t nw, char *notes, size_t nn) {
    const Group *r = &f->gr[s];
    size_t o = 0;
    with[0] = notes[0] = 0;
    for (int k = 0; k < 2; k++) {
        const StepMatmul *m = &r->rmm[k];
        if (m->mm >= 0 && o < nw)
            o += (size_t)snprintf(with + o, nw - o, "%s the %s product %.24s = %.24s%s @ %.24s%s as %s", o ? " and" : ", with",
                                  k ? "small-K" : "skinny", N(f, r->rname[k])->name, N(f, m->in[0])->name,
                                  m->trans[0] ? "^T" : "", N(f, m->in[1])->name, m->trans[1] ? "^T" : "",
                                  k ? "epilogue" : "prologue");
    }
    snprintf(notes, nn, "%s%s", r->rnote[0], r->rnote[1]);
}
