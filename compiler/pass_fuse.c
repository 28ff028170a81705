/* compiler/pass_fuse.c: the fusion planner (DESIGN.md, "The fusion planner"): groups a verified
 * graph's live nodes into steps, decides which values are materialised, and records why.
 *  - A matmul starts a GEMM step: transposes of its operands fold into trans flags, and the
 *    elementwise consumers over its output shape join as an epilogue (bias, relu, SGD update).
 *  - A reduction starts a REDUCE step (its prologue inlined, an epilogue over its output shape)
 *    or, when it reduces trailing axes and rows hold at most ROW_MAX elements, a ROW step that
 *    also takes further reductions of the same rows and the elementwise work that broadcasts
 *    per-row values back over the row (softmax, log-sum-exp, cross-entropy and its gradient).
 *    Tiny matmuls over the same rows then join it as a row prologue or epilogue
 *    (pass_fuse_row.c: the logits a1 @ w2 + b2 and the input gradient dlogits @ w2^T).
 *  - Gathers are index-mapped loads: inlined into their readers as views are. A scatter_add
 *    roots an ELEMWISE step of its own (each output element loops over the indices).
 *  - Elementwise ops and views are otherwise inlined into the steps that read them. Values that
 *    must be in memory (graph outputs, GEMM operands), expensive values read by several steps
 *    and values a step would spread (an im2col over a pooled activation: the step SPREAD_MIN or
 *    more times their size) get ELEMWISE steps; cheap shared values are recomputed by each reader.
 *  - An output that is an input, a view of one, or a value already output under another name
 *    gets a COPY step.
 * Materialising an expensive shared value moves step boundaries, so grouping runs to a fixpoint
 * (that set only grows). Worst case O(nodes x steps); chains of layers stay near linear because
 * epilogue sweeps stop after the last reader of their members. */
#include "pass_fuse.h"

/* ---- analysis that does not depend on the grouping ------------------------------------------- */

static void find_live(Fuse *f) {
    for (int i = 0; i < f->g->noutputs; i++) f->live[f->g->outputs[i].value] = true;
    for (NodeId i = f->n - 1; i >= 0; i--)
        if (f->live[i])
            for (int k = 0; k < N(f, i)->ninputs; k++)
                if (N(f, i)->in[k].id >= 0) f->live[N(f, i)->in[k].id] = true;
}

static void find_users(Fuse *f) {
    f->uoff = xcalloc((size_t)f->n + 1, sizeof *f->uoff);
    for (int pass = 0; pass < 2; pass++) {
        int *fill = pass ? xcalloc((size_t)f->n, sizeof *fill) : NULL;
        for (NodeId i = 0; i < f->n; i++) {
            if (!f->live[i]) continue;
            const Node *nd = N(f, i);
            for (int k = 0; k < nd->ninputs; k++) {
                NodeId o = nd->in[k].id;
                bool dup = o < 0;
                for (int j = 0; j < k && !dup; j++) dup = nd->in[j].id == o;
                if (dup) continue;
                if (pass) f->ulist[f->uoff[o] + fill[o]++] = i;
                else f->uoff[o + 1]++;
            }
        }
        if (!pass) {
            for (int i = 0; i < f->n; i++) f->uoff[i + 1] += f->uoff[i];
            f->ulist = xcalloc((size_t)f->uoff[f->n], sizeof *f->ulist);
        }
        free(fill);
    }
}

/* Follows transposes that swap the last two axes (and keep the others): a GEMM reads the base
 * with a trans flag instead; and the widening cast of a value pass_bf16 stores in bfloat16 (a
 * storage cast to float32 of a bfloat16 value): the GEMM reads the bfloat16 value itself (*half).
 * Records the nodes it passes in `folded` when given. */
static NodeId fold_operand(Fuse *f, NodeId o, bool *trans, bool *half, Group *gp) {
    *trans = false;
    if (half) *half = false;
    for (;;) {
        const Node *nd = N(f, o);
        int r = nd->type.rank, perm[IR_MAX_RANK];
        char err[128];
        if (half && !*half && nd->op == OP_CAST && nd->attrs.storage && nd->type.dtype == DT_FLOAT32 && nd->in[0].id >= 0 &&
            N(f, nd->in[0].id)->type.dtype == DT_BFLOAT16) {
            if (gp) push(&gp->folded, &gp->nfolded, o);
            *half = true;
            o = nd->in[0].id;
            continue;
        }
        if (nd->op != OP_TRANSPOSE || r < 2 || nd->in[0].id < 0) break;
        if (ir_transpose_perm(&nd->attrs, r, perm, err, sizeof err)) break;
        bool swap = perm[r - 2] == r - 1 && perm[r - 1] == r - 2;
        for (int i = 0; i < r - 2; i++) swap = swap && perm[i] == i;
        if (!swap) break;
        if (gp) push(&gp->folded, &gp->nfolded, o);
        *trans = !*trans;
        o = nd->in[0].id;
    }
    return o;
}

static void find_required(Fuse *f) {
    for (int i = 0; i < f->g->noutputs; i++) {
        NodeId v = f->g->outputs[i].value;
        if (N(f, v)->op == OP_INPUT) continue;
        f->req[v] |= REQ_OUTPUT;
        NodeId b = v;
        while (kind_of(f, b) == K_VIEW && N(f, b)->in[0].id >= 0) b = N(f, b)->in[0].id;
        f->copyview[v] = N(f, b)->op == OP_INPUT;
    }
    for (NodeId i = 0; i < f->n; i++) {
        if (!f->live[i] || N(f, i)->op != OP_MATMUL) continue;
        for (int k = 0; k < 2; k++) {
            bool t, h;
            NodeId b = fold_operand(f, N(f, i)->in[k].id, &t, &h, NULL);
            if (N(f, b)->op != OP_INPUT) f->req[b] |= REQ_GEMM;
        }
    }
}

/* ---- groups ----------------------------------------------------------------------------------- */

static void free_groups(Fuse *f) {
    for (int i = 0; i < f->ngr; i++) {
        free(f->gr[i].mem);
        free(f->gr[i].folded);
        free(f->gr[i].cl);
        free(f->gr[i].ins);
    }
    free(f->gr);
    f->gr = NULL;
    f->ngr = 0;
}

static int new_group(Fuse *f, StepKind kind, NodeId root) {
    if ((f->ngr & (f->ngr - 1)) == 0) { /* doubling at powers of two, as push() does */
        f->gr = realloc(f->gr, (size_t)(f->ngr ? 2 * f->ngr : 1) * sizeof *f->gr);
        if (!f->gr) abort();
    }
    Group *gp = &f->gr[f->ngr];
    memset(gp, 0, sizeof *gp);
    gp->kind = kind;
    gp->root = root;
    gp->x = -1;
    gp->opnd[0] = gp->opnd[1] = -1;
    gp->copy_output = -1;
    gp->rmm[0].mm = gp->rmm[1].mm = -1;
    return f->ngr++;
}

static void add_member(Fuse *f, int s, NodeId id) {
    Group *gp = &f->gr[s];
    push(&gp->mem, &gp->nmem, id);
    f->home[id] = s;
    if (kind_of(f, id) == K_REDUCE) gp->nred++;
}

static unsigned reduce_mask(const Fuse *f, NodeId r) {
    unsigned mask = 0;
    char err[128];
    const Node *nd = N(f, r);
    if (nd->in[0].id < 0 || ir_reduce_mask(&nd->attrs, N(f, nd->in[0].id)->type.rank, &mask, err, sizeof err)) return 0;
    return mask;
}

/* A shape of one value per row: the row shape with the reduced axes kept as 1 or dropped. */
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

/* A member read by a full-row op must be row-local: the same row, broadcast only along it. */
static bool row_local(const TensorType *o, const TensorType *s, int keep) {
    if (o->rank > s->rank) return false;
    int pad = s->rank - o->rank;
    for (int i = 0; i < s->rank; i++) {
        int64_t d = i < pad ? 1 : o->dims[i - pad];
        if (i < keep ? d != s->dims[i] : (d != 1 && d != s->dims[i])) return false;
    }
    return true;
}

/* Whether node j may join group s (every member operand is s's, the rest are independent). */
static bool eligible(Fuse *f, int s, NodeId j, bool sibling) {
    Group *gp = &f->gr[s];
    const Node *nd = N(f, j), *root = N(f, gp->root);
    /* the widening of a bfloat16-stored value joins no step: GEMMs fold it into their operand,
     * other readers inline it (reading the bfloat16 value from memory) */
    if (nd->op == OP_CAST && nd->attrs.storage && nd->type.dtype != DT_BFLOAT16) return false;
    if (!gp->row) return kind_of(f, j) == K_ELEMWISE && ir_shape_equal(&nd->type, &root->type);
    const TensorType *S = &N(f, gp->x)->type;
    if (kind_of(f, j) == K_REDUCE) {
        NodeId o = nd->in[0].id;
        return o >= 0 && (sibling || f->home[o] == s) && ir_shape_equal(&N(f, o)->type, S) && reduce_mask(f, j) == gp->mask;
    }
    if (kind_of(f, j) != K_ELEMWISE) return false;
    bool full = ir_shape_equal(&nd->type, S);
    if (!full && !per_row(&nd->type, S, gp->keep)) return false;
    for (int k = 0; k < nd->ninputs; k++) {
        NodeId o = nd->in[k].id;
        if (o < 0 || f->home[o] != s) continue;
        if (full ? !row_local(&N(f, o)->type, S, gp->keep) : !ir_shape_equal(&N(f, o)->type, &nd->type)) return false;
    }
    return true;
}

static int last_consumer(const Fuse *f, NodeId v) {
    return f->uoff[v + 1] > f->uoff[v] ? f->ulist[f->uoff[v + 1] - 1] : v;
}

/* Grows an anchor's group forward in topological order: a node joins when it reads a member
 * (or, in a row kernel, reduces the anchor's input the same way) and nothing it reads depends
 * on the group from outside it (that would be a cycle between steps). Stops after the last
 * reader of any member. */
static void grow(Fuse *f, int s) {
    Group *gp = &f->gr[s];
    int stamp = ++f->stamp;
    NodeId maxc = last_consumer(f, gp->root);
    if (gp->row && last_consumer(f, gp->x) > maxc) maxc = last_consumer(f, gp->x);
    for (NodeId j = gp->root + 1; j <= maxc && j < f->n; j++) {
        if (!f->live[j]) continue;
        const Node *nd = N(f, j);
        bool touch = false, dep = false;
        for (int k = 0; k < nd->ninputs; k++) {
            NodeId o = nd->in[k].id;
            if (o < 0) continue;
            if (f->home[o] == s) touch = true;
            else if (f->mark[o] == stamp) dep = true;
        }
        bool sibling = gp->row && kind_of(f, j) == K_REDUCE && nd->in[0].id == gp->x;
        if (!touch && !dep && !sibling) continue;
        if (f->home[j] < 0 && !dep && !reads_dist_member(f, s, j) && eligible(f, s, j, sibling)) {
            add_member(f, s, j);
            if (last_consumer(f, j) > maxc) maxc = last_consumer(f, j);
        } else {
            f->mark[j] = stamp;
        }
    }
}

static bool read_in_step(const Fuse *f, NodeId c, int s) {
    CONSUMERS(f, c, u) if (f->home[u] == s) return true;
    return false;
}

/* Drops cheap side branches that only other steps read (h1 > 0 beside a1 = relu(h1), or a1 > 0
 * beside a1 that the next layer reads): they read one member that the step computes anyway for
 * others (inside the step, or as an output), so writing that member instead costs the same and
 * their readers recompute them. The end of a chain (logits = z2 + b2) stays. */
static void prune(Fuse *f, int s) {
    Group *gp = &f->gr[s];
    for (int i = gp->nmem - 1; i >= 0; i--) {
        NodeId m = gp->mem[i];
        const Node *nd = N(f, m);
        if (m == gp->root || kind_of(f, m) != K_ELEMWISE || f->req[m] || f->extra[m] || expensive_op(nd->op) ||
            read_in_step(f, m, s))
            continue;
        int nmem = 0;
        NodeId src = -1;
        for (int k = 0; k < nd->ninputs; k++)
            if (nd->in[k].id >= 0 && f->home[nd->in[k].id] == s && nd->in[k].id != src) nmem++, src = nd->in[k].id;
        if (nmem != 1) continue;
        bool branch = false; /* src goes on without m (in the step or after it): m is a side branch */
        CONSUMERS(f, src, c) branch = branch || c != m;
        if (!branch) continue;
        f->home[m] = -1;
        f->pruned[m] = true;
        memmove(&gp->mem[i], &gp->mem[i + 1], (size_t)(gp->nmem - i - 1) * sizeof *gp->mem);
        gp->nmem--;
        i = gp->nmem; /* look again from the end: another member may now qualify */
    }
    gp->nred = 0;
    for (int i = 0; i < gp->nmem; i++) gp->nred += kind_of(f, gp->mem[i]) == K_REDUCE;
}

static void group_gemm(Fuse *f, NodeId i) {
    int s = new_group(f, STEP_GEMM, i);
    add_member(f, s, i);
    for (int k = 0; k < 2; k++)
        f->gr[s].opnd[k] = fold_operand(f, N(f, i)->in[k].id, &f->gr[s].trans[k], &f->gr[s].half[k], &f->gr[s]);
    grow(f, s);
    prune(f, s);
}

static void group_reduce(Fuse *f, NodeId i) {
    int s = new_group(f, STEP_REDUCE, i);
    Group *gp = &f->gr[s];
    add_member(f, s, i);
    gp->x = N(f, i)->in[0].id;
    gp->mask = reduce_mask(f, i);
    const TensorType *S = &N(f, gp->x)->type;
    int r = S->rank, k = 0;
    while (k < r && (gp->mask & (1u << (r - 1 - k)))) k++;
    int64_t len = 1;
    for (int a = r - k; a < r; a++) len *= S->dims[a];
    bool trailing = k > 0 && gp->mask == ((1u << r) - 1) - ((1u << (r - k)) - 1);
    gp->keep = r - k;
    gp->rowlen = len;
    gp->row = trailing && len >= 2 && len <= ROW_MAX;
    grow(f, s);
    prune(f, s);
    gp = &f->gr[s];
    bool full = false;
    for (int m = 0; m < gp->nmem; m++)
        full = full || (kind_of(f, gp->mem[m]) == K_ELEMWISE && ir_shape_equal(&N(f, gp->mem[m])->type, S));
    if (gp->row && (gp->nred > 1 || full)) gp->kind = STEP_ROW;
}

/* Collects the inline closure of `from`'s operands: free, unmaterialised pure nodes are
 * computed in place (pushed to cl); inputs and values in memory are read (pushed to ins). */
void fuse_closure(Fuse *f, int s, NodeId from, NodeId **cl, int *ncl, NodeId **ins, int *nins) {
    int sp = 0;
    f->stack[sp++] = from;
    while (sp) {
        const Node *nd = N(f, f->stack[--sp]);
        for (int k = 0; k < nd->ninputs; k++) {
            NodeId o = nd->in[k].id;
            if (o < 0 || (s >= 0 && f->home[o] == s) || f->seen[o] == f->sstamp) continue;
            f->seen[o] = f->sstamp;
            if (N(f, o)->op == OP_INPUT || f->home[o] >= 0 || f->req[o] || f->extra[o] || !is_pure(f, o)) {
                if (ins) push(ins, nins, o);
            } else {
                if (cl) push(cl, ncl, o);
                f->stack[sp++] = o;
            }
        }
    }
}

/* An ELEMWISE group: values that must be in memory, of one shape, computed together when they
 * read each other or share inline work and no step in between needs one of them first. */
static void group_elemwise(Fuse *f, NodeId i) {
    int s = new_group(f, STEP_ELEMWISE, i);
    add_member(f, s, i);
    int stamp = ++f->stamp, gstamp;
    NodeId *cl = NULL, *bnd = NULL;
    int ncl = 0, nbnd = 0;
    int *own = xcalloc((size_t)f->n, sizeof *own); /* inline nodes the group already computes */
    f->sstamp++;
    fuse_closure(f, s, i, &cl, &ncl, NULL, NULL);
    gstamp = 1;
    for (int k = 0; k < ncl; k++) own[cl[k]] = gstamp;
    for (NodeId j = i + 1; j < f->n; j++) {
        if (!f->live[j] || N(f, j)->op == OP_INPUT) continue;
        const Node *nd = N(f, j);
        bool dep = false;
        for (int k = 0; k < nd->ninputs; k++) {
            NodeId o = nd->in[k].id;
            dep = dep || (o >= 0 && (f->home[o] == s || f->mark[o] == stamp));
        }
        if (f->home[j] < 0 && (f->req[j] || f->extra[j]) && is_pure(f, j) && !f->copyview[j] &&
            ir_shape_equal(&nd->type, &N(f, i)->type)) {
            ncl = nbnd = 0;
            f->sstamp++;
            fuse_closure(f, s, j, &cl, &ncl, &bnd, &nbnd);
            bool link = false, ok = !reads_dist_member(f, s, j);
            for (int k = 0; k < ncl; k++) link = link || own[cl[k]] || f->mark[cl[k]] == stamp;
            for (int k = 0; k < ncl; k++) ok = ok && !reads_dist_member(f, s, cl[k]);
            for (int k = 0; k < nd->ninputs; k++) link = link || (nd->in[k].id >= 0 && f->home[nd->in[k].id] == s);
            for (int k = 0; k < nbnd; k++) ok = ok && f->mark[bnd[k]] != stamp;
            if (link && ok) {
                add_member(f, s, j);
                for (int k = 0; k < ncl; k++) own[cl[k]] = gstamp;
                continue;
            }
        }
        if (dep) f->mark[j] = stamp;
    }
    free(own);
    free(cl);
    free(bnd);
}

static void group_copy(Fuse *f, NodeId src, int out, bool member) {
    int s = new_group(f, STEP_COPY, src);
    f->gr[s].copy_output = out;
    if (member) add_member(f, s, src);
    else push(&f->gr[s].ins, &f->gr[s].nins, src);
}

/* The fused expression of v (v and the inline nodes it needs): expensive when it calls a
 * transcendental, reads a reduction's result, or has more than CHEAP_OPS ops. */
static bool expensive(Fuse *f, NodeId v, char *why, size_t n) {
    NodeId *cl = NULL, *bnd = NULL;
    int ncl = 0, nbnd = 0;
    f->sstamp++;
    fuse_closure(f, -1, v, &cl, &ncl, &bnd, &nbnd);
    push(&cl, &ncl, v);
    int ops = 0;
    bool exp = false;
    why[0] = 0;
    for (int k = 0; k < ncl; k++) {
        if (kind_of(f, cl[k]) == K_ELEMWISE) ops++;
        if (!exp && expensive_op(N(f, cl[k])->op)) {
            snprintf(why, n, "%s", ir_ops[N(f, cl[k])->op].name);
            exp = true;
        }
    }
    for (int k = 0; k < nbnd && !why[0]; k++)
        if (kind_of(f, bnd[k]) == K_REDUCE) snprintf(why, n, "reads reduction %s", N(f, bnd[k])->name);
    if (!why[0] && ops > CHEAP_OPS) snprintf(why, n, "%d ops", ops);
    free(cl);
    free(bnd);
    return why[0] != 0;
}

/* How many elementwise ops v's fused expression has (v and the inline nodes it needs). */
static int closure_ops(Fuse *f, NodeId v) {
    NodeId *cl = NULL;
    int ncl = 0, ops = kind_of(f, v) == K_ELEMWISE;
    f->sstamp++;
    fuse_closure(f, -1, v, &cl, &ncl, NULL, NULL);
    for (int k = 0; k < ncl; k++) ops += kind_of(f, cl[k]) == K_ELEMWISE;
    free(cl);
    return ops;
}

/* Inline values that a step spreads over many more elements than they have: an im2col (pads,
 * shifted slices, concats) over a pooled activation evaluates each pooled value once per tap,
 * nine times for a 3x3 kernel, with the whole pooling chain each time. Such a value (elementwise,
 * of two ops or more, at least 64 elements, the step at least SPREAD_MIN times larger) is written
 * once by a step of its own and loaded by the gather. Per step only the most spread one per
 * round: its producers move into its new step, where the next round judges them again. */
static int find_spread(Fuse *f) {
    int added = 0;
    for (int s = 0; s < f->ngr; s++) {
        const Group *gp = &f->gr[s];
        if (gp->dead) continue;
        int64_t space = ir_numel(&N(f, gp->x >= 0 ? gp->x : gp->root)->type), best = 0;
        NodeId pick = -1;
        for (int k = 0; k < gp->ncl; k++) {
            NodeId v = gp->cl[k];
            int64_t n = ir_numel(&N(f, v)->type);
            if (kind_of(f, v) != K_ELEMWISE || f->extra[v] || n < 64 || space / n < SPREAD_MIN || space / n <= best ||
                closure_ops(f, v) < 2)
                continue;
            best = space / n;
            pick = v;
        }
        if (pick < 0) continue;
        f->extra[pick] = true;
        f->extra_n[pick] = f->nuse[pick];
        f->spread[pick] = best;
        added++;
    }
    return added;
}

/* One grouping round; returns how many values it newly found expensive and shared, or spread. */
static int build(Fuse *f) {
    free_groups(f);
    for (int i = 0; i < f->n; i++) f->home[i] = -1, f->pruned[i] = false, f->mat[i] = false, f->nuse[i] = 0;
    for (NodeId i = 0; i < f->n; i++) {
        if (!f->live[i] || N(f, i)->op == OP_INPUT || f->home[i] >= 0) continue;
        OpKind k = kind_of(f, i);
        if (k == K_MATMUL) group_gemm(f, i);
        else if (k == K_REDUCE) group_reduce(f, i);
        else if (f->copyview[i]) group_copy(f, i, plan_output_of(f->g, i), true);
        else if (f->req[i] || f->extra[i] || N(f, i)->op == OP_SCATTER_ADD) group_elemwise(f, i);
    }
    for (int j = 0; j < f->g->noutputs; j++) {
        NodeId v = f->g->outputs[j].value;
        if (N(f, v)->op == OP_INPUT || plan_output_of(f->g, v) != j) group_copy(f, v, j, false);
    }
    fuse_row_matmuls(f);
    for (NodeId i = 0; i < f->n; i++) {
        if (f->home[i] < 0) continue;
        /* an expensive value all of whose readers joined its step stays inside; so does a GEMM
         * operand whose matmul joined it (a row epilogue): other matmuls read from outside */
        f->mat[i] = (f->req[i] & ~REQ_GEMM) != 0;
        CONSUMERS(f, i, c) f->mat[i] = f->mat[i] || f->home[c] != f->home[i];
    }
    for (int s = 0; s < f->ngr; s++) {
        Group *gp = &f->gr[s];
        f->sstamp++;
        for (int m = 0; m < gp->nmem; m++) {
            const NodeId *op = gp->kind == STEP_GEMM && gp->mem[m] == gp->root ? gp->opnd
                               : gp->mem[m] == gp->rmm[0].mm ? gp->rmm[0].in
                               : gp->mem[m] == gp->rmm[1].mm ? gp->rmm[1].in : NULL;
            if (!op) {
                fuse_closure(f, s, gp->mem[m], &gp->cl, &gp->ncl, &gp->ins, &gp->nins);
                continue;
            }
            for (int k = 0; k < 2; k++)
                if (f->home[op[k]] != s && f->seen[op[k]] != f->sstamp) f->seen[op[k]] = f->sstamp, push(&gp->ins, &gp->nins, op[k]);
        }
        for (int k = 0; k < gp->ncl; k++) f->nuse[gp->cl[k]]++;
    }
    int added = 0;
    char why[128];
    for (NodeId i = 0; i < f->n; i++)
        if (f->nuse[i] > 1 && !f->extra[i] && expensive(f, i, why, sizeof why)) {
            f->extra[i] = true;
            f->extra_n[i] = f->nuse[i];
            added++;
        }
    return added + find_spread(f);
}

/* ---- reasons ---------------------------------------------------------------------------------- */

/* "add h1, relu a1": the members of one kind. */
static void op_list(Fuse *f, const Group *gp, char *out, size_t n, OpKind kind) {
    size_t o = 0;
    out[0] = 0;
    for (int m = 0; m < gp->nmem; m++) {
        NodeId id = gp->mem[m];
        if (kind_of(f, id) != kind) continue;
        if (o + 48 > n) {
            snprintf(out + o, n - o, ", ...");
            return;
        }
        o += (size_t)snprintf(out + o, n - o, "%s%s %.24s", o ? ", " : "", ir_ops[N(f, id)->op].name, N(f, id)->name);
    }
}

/* A matmul that reads v (directly or through a transpose) from memory: not one computed in v's
 * own step (a row epilogue). */
static NodeId gemm_reader(Fuse *f, NodeId v) {
    CONSUMERS(f, v, c) {
        if (N(f, c)->op == OP_MATMUL && (f->home[v] < 0 || f->home[c] != f->home[v])) return c;
        if (N(f, c)->op == OP_TRANSPOSE || (N(f, c)->op == OP_CAST && N(f, c)->attrs.storage)) {
            CONSUMERS(f, c, c2) {
                if (N(f, c2)->op == OP_MATMUL) return c2;
                if (N(f, c2)->op == OP_TRANSPOSE) {
                    CONSUMERS(f, c2, c3) if (N(f, c3)->op == OP_MATMUL) return c3;
                }
            }
        }
    }
    return -1;
}

/* Why group s ends where it does: its first member read from outside, and why that reader is
 * not in the group. Empty when nothing outside reads a member. */
static void end_cause(Fuse *f, int s, char *out, size_t n) {
    const Group *gp = &f->gr[s];
    out[0] = 0;
    for (int m = 0; m < gp->nmem; m++) {
        const char *mn = N(f, gp->mem[m])->name;
        CONSUMERS(f, gp->mem[m], c) {
            if (f->home[c] == s) continue;
            const char *cn = N(f, c)->name;
            OpKind k = kind_of(f, c);
            if (f->req[gp->mem[m]] & REQ_DIST)
                snprintf(out, n, "%s is a parameter gradient: %s reads it after it is averaged across ranks", mn, cn);
            else if (k == K_MATMUL) snprintf(out, n, "%s is an operand of matmul %s (GEMM operands are read from memory)", mn, cn);
            else if (N(f, c)->op == OP_CAST && N(f, c)->attrs.storage && gemm_reader(f, gp->mem[m]) >= 0)
                snprintf(out, n, "%s is stored in bfloat16 for matmul %s (GEMM operands are read from memory)", mn,
                         N(f, gemm_reader(f, gp->mem[m]))->name);
            else if (k == K_VIEW && gemm_reader(f, gp->mem[m]) >= 0)
                snprintf(out, n, "%s is an operand of matmul %s through %s", mn, N(f, gemm_reader(f, gp->mem[m]))->name, cn);
            else if (k == K_VIEW) snprintf(out, n, "%s views %s (views fuse into their readers)", cn, mn);
            else if (k == K_REDUCE && gp->kind == STEP_ELEMWISE) snprintf(out, n, "%s reduces %s in a step of its own", cn, mn);
            else if (k == K_REDUCE)
                snprintf(out, n, gp->kind == STEP_GEMM ? "%s reduces %s (no reduction fuses into a GEMM)"
                                 : gp->row ? "%s reduces %s over other axes or rows (one reduction over rows per kernel)"
                                           : "%s reduces %s again (one reduction per kernel)", cn, mn);
            else if (f->pruned[c]) snprintf(out, n, "%s is cheap and only other steps read it: they recompute it", cn);
            else if (gp->kind == STEP_REDUCE && !gp->row && gp->rowlen > ROW_MAX && !ir_shape_equal(&N(f, c)->type, &N(f, gp->root)->type))
                snprintf(out, n, "%s broadcasts %s over rows of %lld > %d elements (no row kernel)", cn, mn, (long long)gp->rowlen, ROW_MAX);
            else if (k == K_ELEMWISE && gp->kind != STEP_ELEMWISE && !gp->row && !ir_shape_equal(&N(f, c)->type, &N(f, gp->root)->type))
                snprintf(out, n, "%s is not over the output shape", cn);
            else if (f->home[c] >= 0) snprintf(out, n, "%s is computed in the step of %s", cn, N(f, f->gr[f->home[c]].root)->name);
            else snprintf(out, n, "%s also reads a value computed after this step", cn);
            return;
        }
    }
}

static void step_reason(Fuse *f, int s, char *dst, size_t dn) {
    char out[1024];
    size_t n = sizeof out;
    const Group *gp = &f->gr[s];
    const Node *r = N(f, gp->root);
    char ops[160], end[200], shape[128], sx[128];
    end[0] = 0;
    if (gp->kind != STEP_COPY) end_cause(f, s, end, sizeof end);
    const char *sep = end[0] ? "; ends: " : "";
    int nelem = 0, nview = 0, npro = 0;
    for (int k = 0; k < gp->nmem + gp->ncl; k++) {
        NodeId id = k < gp->nmem ? gp->mem[k] : gp->cl[k - gp->nmem];
        nelem += kind_of(f, id) == K_ELEMWISE;
        nview += kind_of(f, id) == K_VIEW;
        npro += k >= gp->nmem && N(f, id)->op != OP_FULL;
    }
    char views[48] = "";
    if (nview) snprintf(views, sizeof views, " and %d view%s", nview, nview == 1 ? "" : "s");
    switch (gp->kind) {
    case STEP_GEMM:
        op_list(f, gp, ops, sizeof ops, K_ELEMWISE);
        snprintf(out, n, "matmul%s%s%s%s", gp->nfolded ? ", transposes folded into operand flags" : "",
                 !ops[0] ? "" : gp->nfolded ? ", with epilogue " : " with epilogue ", ops, sep);
        break;
    case STEP_ROW: {
        char with[320], notes[300];
        int nmm = (gp->rmm[0].mm >= 0) + (gp->rmm[1].mm >= 0);
        op_list(f, gp, ops, sizeof ops, K_REDUCE);
        fuse_row_describe(f, s, with, sizeof with, notes, sizeof notes);
        if (nmm)
            snprintf(out, n, "row kernel, a warp per row of %lld <= %d elements of %s%s: reductions %s and %d elementwise ops%s%s",
                     (long long)gp->rowlen, PLAN_ROW_MM_MAX, ir_shape_str(&N(f, gp->x)->type, sx, sizeof sx), with, ops,
                     gp->nmem - gp->nred - nmm, notes, sep);
        else
            snprintf(out, n, "row kernel, one block per row of %lld <= %d elements of %s: reductions %s and %d elementwise ops%s%s",
                     (long long)gp->rowlen, ROW_MAX, ir_shape_str(&N(f, gp->x)->type, sx, sizeof sx), ops,
                     gp->nmem - gp->nred, notes, sep);
        break;
    }
    case STEP_REDUCE: {
        char pro[48] = "";
        if (npro) snprintf(pro, sizeof pro, ", prologue of %d op%s inlined", npro, npro == 1 ? "" : "s");
        op_list(f, gp, ops, sizeof ops, K_ELEMWISE);
        snprintf(out, n, "%s of %s%s%s%s%s", ir_ops[r->op].name, ir_shape_str(&N(f, gp->x)->type, sx, sizeof sx), pro,
                 ops[0] ? ", epilogue over the output: " : "", ops, sep);
        break;
    }
    case STEP_ELEMWISE:
        snprintf(out, n, "%d elementwise op%s%s over %s in one kernel%s", nelem, nelem == 1 ? "" : "s", views,
                 ir_shape_str(&r->type, shape, sizeof shape), sep);
        break;
    case STEP_COPY: {
        const char *oname = f->g->outputs[gp->copy_output].name;
        if (r->op == OP_INPUT) snprintf(out, n, "output %s is input %s: copied into the output buffer", oname, r->name);
        else if (gp->nmem) snprintf(out, n, "output %s is a view of an input: copied into the output buffer", oname);
        else snprintf(out, n, "output %s names %s, already output as %s: copied", oname, r->name,
                      f->g->outputs[plan_output_of(f->g, gp->root)].name);
        break;
    }
    case STEP_ALLREDUCE: out[0] = 0; break; /* no group has this kind: pass_schedule adds them */
    }
    size_t o = strlen(out);
    if (end[0] && o < n) snprintf(out + o, n - o, "%s", end);
    o = strlen(out);
    if (o >= dn) memcpy(out + dn - 4, "...", 4); /* ends the text at dst's size */
    memcpy(dst, out, (o < dn ? o : dn - 1) + 1);
}

static void value_reason(Fuse *f, Plan *p, NodeId i, const int *nsteps) {
    const Node *nd = N(f, i);
    Graph *g = f->g;
    char why[128];
    if (nd->op == OP_INPUT) {
        const char *donee = NULL;
        for (int k = 0; k < g->ndonations; k++)
            if (g->donations[k].input == i) donee = N(f, g->donations[k].value)->name;
        if (!f->live[i]) plan_why(p, i, "unused input (no output depends on it)");
        else if (nd->type.rank == 0) plan_why(p, i, "rank-0 input: passed by value as a scalar kernel parameter");
        else plan_why(p, i, "input: read in place from the caller's buffer%s%s", donee ? "; donated to " : "", donee ? donee : "");
        return;
    }
    if (!f->live[i]) {
        plan_why(p, i, "dead: no output depends on it");
        return;
    }
    int s = f->home[i];
    if (s >= 0 && f->mat[i]) {
        NodeId c = gemm_reader(f, i);
        if (f->gr[s].kind == STEP_COPY) plan_why(p, i, "written: output %s, a view of an input (copied)", g->outputs[plan_output_of(g, i)].name);
        else if (f->req[i] & REQ_OUTPUT) plan_why(p, i, "written: graph output %s", g->outputs[plan_output_of(g, i)].name);
        else if (f->req[i] & REQ_DIST) plan_why(p, i, "written: parameter gradient, averaged across ranks before it is read (--data-parallel)");
        else if (f->spread[i])
            plan_why(p, i, "written once: a step over %lld times its elements (a gather spreading it) would recompute it per element",
                     (long long)f->spread[i]);
        else if (f->extra[i] && expensive(f, i, why, sizeof why))
            plan_why(p, i, "written once: expensive (%s) and read by %d steps", why, f->extra_n[i]);
        else if ((f->req[i] & REQ_GEMM) && c >= 0) plan_why(p, i, "written: operand of matmul %s (GEMM operands are read from memory)", N(f, c)->name);
        else {
            NodeId out = -1;
            CONSUMERS(f, i, u) if (out < 0 && f->home[u] != s) out = u;
            plan_why(p, i, "written: %s reads it outside its step", out >= 0 ? N(f, out)->name : "?");
        }
        return;
    }
    const char *pre = f->pruned[i] ? "cheap, kept out of its producer's epilogue: " : "";
    if (s >= 0) {
        if (nd->op == OP_MATMUL && f->gr[s].kind == STEP_ROW)
            plan_why(p, i, "row %s product: computed row by row inside the row kernel (not written)",
                     i == f->gr[s].rmm[0].mm ? "prologue" : "epilogue");
        else if (nd->op == OP_MATMUL) plan_why(p, i, "GEMM result: only its epilogue reads it (not written)");
        else if (kind_of(f, i) == K_REDUCE) plan_why(p, i, "reduction result: only its step reads it (not written)");
        else plan_why(p, i, "fused: only its step reads it (no buffer)");
        return;
    }
    if (nd->op == OP_FULL) plan_why(p, i, "constant: computed inline by its readers (no buffer)");
    else if (f->nuse[i] == 0 && nd->op == OP_CAST)
        plan_why(p, i, "widening of a bfloat16 value: its GEMMs read the bfloat16 operand (no buffer)");
    else if (f->nuse[i] == 0) plan_why(p, i, "transpose folded into a GEMM operand flag (no buffer)");
    else if (nsteps[i] > 1) plan_why(p, i, "%srecomputed in %d steps: cheap", pre, nsteps[i]);
    else if (kind_of(f, i) == K_VIEW) plan_why(p, i, "%sview: an index remap inside its reader (no buffer)", pre);
    else plan_why(p, i, "%sfused into its reader (no buffer)", pre);
}

/* ---- the pass --------------------------------------------------------------------------------- */

static void emit(Fuse *f, Plan *p) {
    int *nsteps = xcalloc((size_t)f->n, sizeof *nsteps);
    for (int s = 0; s < f->ngr; s++) {
        Group *gp = &f->gr[s];
        Step *st = plan_add_step(p, gp->kind, gp->kind == STEP_ELEMWISE ? gp->mem[gp->nmem - 1] : gp->root);
        f->sstamp++;
        for (int m = 0; m < gp->nmem + gp->ncl + gp->nfolded; m++) {
            NodeId id = m < gp->nmem ? gp->mem[m] : m < gp->nmem + gp->ncl ? gp->cl[m - gp->nmem] : gp->folded[m - gp->nmem - gp->ncl];
            if (f->seen[id] != f->sstamp) f->seen[id] = f->sstamp, push(&st->nodes, &st->nnodes, id);
        }
        for (int m = 0; m < gp->nins; m++) push(&st->ins, &st->nins, gp->ins[m]);
        for (int m = 0; m < gp->nmem; m++)
            if (f->mat[gp->mem[m]]) push(&st->outs, &st->nouts, gp->mem[m]);
        if (st->nnodes) qsort(st->nodes, (size_t)st->nnodes, sizeof *st->nodes, cmp_id);
        if (st->nins) qsort(st->ins, (size_t)st->nins, sizeof *st->ins, cmp_id);
        for (int k = 0; k < 2; k++)
            st->gemm_in[k] = gp->opnd[k], st->gemm_trans[k] = gp->trans[k], st->gemm_half[k] = gp->half[k];
        st->row_pro = gp->rmm[0], st->row_epi = gp->rmm[1];
        st->copy_output = gp->copy_output;
        step_reason(f, s, st->reason, sizeof st->reason);
        for (int m = 0; m < st->nnodes; m++) nsteps[st->nodes[m]]++;
    }
    for (int s = 0; s < p->nsteps; s++)
        for (int m = 0; m < p->steps[s].nnodes; m++)
            if (nsteps[p->steps[s].nodes[m]] == 1) p->step_of[p->steps[s].nodes[m]] = s;
    for (NodeId i = 0; i < f->n; i++) {
        const Node *nd = N(f, i);
        BufRef *b = &p->buf[i];
        b->bytes = ir_numel(&nd->type) * (int64_t)ir_dtype_size(nd->type.dtype);
        b->index = -1;
        if (nd->op == OP_INPUT) b->kind = nd->type.rank ? BUF_INPUT : BUF_SCALAR, b->index = nd->input_index;
        else if (f->home[i] >= 0 && f->mat[i]) b->kind = BUF_ARENA, b->offset = -1;
        else b->bytes = 0;
        value_reason(f, p, i, nsteps);
    }
    free(nsteps);
}

/* Data-parallel plans: the gradient of each parameter the step updates in place (a donated input
 * whose gradient is live: "d_<name>" from a "train" section, compiler/pass_autodiff.c, or
 * "grad_<name>" from backward() in a traced closure) must be in memory and averaged across
 * ranks before anything reads it. */
static int find_dist(Fuse *f, Diag *d) {
    Graph *g = f->g;
    char name[IR_MAX_NAME + 8];
    for (int k = 0; k < 2 * g->ndonations; k++) {
        snprintf(name, sizeof name, "%s%s", k & 1 ? "grad_" : "d_", N(f, g->donations[k / 2].input)->name);
        NodeId v = graph_find(g, name);
        if (v < 0 || !f->live[v] || N(f, v)->op == OP_INPUT || f->req[v] & REQ_DIST) continue;
        if (plan_output_of(g, v) >= 0) {
            diag_node(d, N(f, v), "--data-parallel: gradient %s is also a graph output; output a copy of it instead", name);
            return -1;
        }
        f->req[v] |= REQ_DIST;
        push(&f->dist, &f->ndist, v);
    }
    if (!f->ndist) {
        diag_at(d, NULL, "--data-parallel: graph %s has no parameter gradients to average (it needs a \"train\" section, "
                "or backward() in a traced closure, whose parameters are updated in place)", g->name);
        return -1;
    }
    return 0;
}

int pass_fuse(Graph *g, Diag *d) {
    Fuse fz = {0}, *f = &fz;
    f->g = g;
    f->n = g->nnodes;
    size_t n = (size_t)g->nnodes;
    f->live = xcalloc(n, sizeof *f->live);
    f->req = xcalloc(n, sizeof *f->req);
    f->extra = xcalloc(n, sizeof *f->extra);
    f->extra_n = xcalloc(n, sizeof *f->extra_n);
    f->spread = xcalloc(n, sizeof *f->spread);
    f->copyview = xcalloc(n, sizeof *f->copyview);
    f->home = xcalloc(n, sizeof *f->home);
    f->pruned = xcalloc(n, sizeof *f->pruned);
    f->mat = xcalloc(n, sizeof *f->mat);
    f->nuse = xcalloc(n, sizeof *f->nuse);
    f->mark = xcalloc(n, sizeof *f->mark);
    f->seen = xcalloc(n, sizeof *f->seen);
    f->stack = xcalloc(n, sizeof *f->stack);
    find_live(f);
    find_users(f);
    find_required(f);
    int rc = g->data_parallel ? find_dist(f, d) : 0;
    while (!rc && build(f) > 0) {
    }
    Plan *p = rc ? NULL : plan_new(g->nnodes);
    if (p) {
        emit(f, p);
        p->dist = f->dist, p->ndist = f->ndist, f->dist = NULL;
        plan_attach(g, p);
    }
    free(f->dist);
    free_groups(f);
    free(f->live), free(f->uoff), free(f->ulist), free(f->req), free(f->extra), free(f->extra_n), free(f->spread);
    free(f->copyview), free(f->home), free(f->pruned), free(f->mat), free(f->nuse), free(f->mark);
    free(f->seen), free(f->stack);
    return rc;
}
