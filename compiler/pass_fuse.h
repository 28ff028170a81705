/* compiler/pass_fuse.h: the fusion planner's internal state, shared by pass_fuse.c (grouping,
 * reasons, the plan) and pass_fuse_row.c (matmuls computed row by row inside ROW steps). Not a
 * public interface: include it from those two files only. */
#ifndef GTC_PASS_FUSE_H
#define GTC_PASS_FUSE_H

#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "util.h"

#define ROW_MAX 4096 /* the longest row a ROW step takes: one block per row */
#define CHEAP_OPS 8  /* a fused expression of more ops than this is expensive */
#define SPREAD_MIN 4 /* a step over this many times an inline value's elements: it is written once */

enum { REQ_OUTPUT = 1, REQ_GEMM = 2, REQ_DIST = 4 }; /* REQ_DIST: a gradient averaged across ranks */

typedef struct {
    StepKind kind;
    NodeId root;       /* the anchor: matmul, first reduction, first ELEMWISE value, copy source */
    NodeId *mem;       /* members: computed here and only here, ascending */
    int nmem;
    int nred;          /* reductions among the members */
    bool row;          /* a reduction grown as a row kernel */
    unsigned mask;     /* reductions: the reduced axes of x */
    int keep;          /* row kernels: leading (row) axes of x */
    int64_t rowlen;    /* reductions: elements reduced into each output value */
    NodeId x;          /* reductions: the anchor's input; its shape is the row shape */
    NodeId opnd[2];    /* GEMM: operands after folding transposes (and storage casts) */
    bool trans[2];
    bool half[2];      /* GEMM: the operand is a bfloat16 value read as float32 (pass_bf16) */
    NodeId *folded;    /* GEMM, row matmuls: the transposes folded away */
    int nfolded;
    int copy_output;
    StepMatmul rmm[2]; /* row kernels: the prologue and epilogue products (mm -1: none) */
    NodeId rname[2];   /* row kernels: the value each product's chain ends in (for reasons) */
    char rnote[2][128]; /* row kernels: why a candidate prologue / epilogue did not fuse */
    bool dead;         /* merged into another group (removed before materialisation) */
    NodeId *cl;        /* inline nodes computed here (not members) */
    int ncl;
    NodeId *ins;       /* values read from memory */
    int nins;
} Group;

typedef struct {
    Graph *g;
    int n;
    bool *live;
    int *uoff, *ulist;   /* live consumers of each node, ascending (CSR) */
    unsigned char *req;  /* REQ_*: must be in memory */
    bool *extra;         /* materialised: expensive and read by several steps */
    int *extra_n;        /* how many steps read it when that was decided */
    int64_t *spread;     /* materialised because a step spreads it: that step's elements / its own */
    bool *copyview;      /* an output that is a chain of views of an input */
    int *home;           /* the group computing it as a member, or -1 */
    bool *pruned;        /* left out of an epilogue: its readers recompute it */
    bool *mat;           /* members written to memory */
    int *nuse;           /* inline nodes: how many groups compute them */
    int *mark, stamp;    /* sweeps: mark == stamp means "depends on the group's members" */
    int *seen, sstamp;   /* closures */
    NodeId *stack;
    Group *gr;
    int ngr;
    NodeId *dist;        /* data-parallel: the parameter gradients (REQ_DIST), in parameter order */
    int ndist;
} Fuse;

/* Whether node j reads a gradient that group s computes (data-parallel plans: its readers wait for
 * the all-reduce, so they cannot join the step that writes it). */
static inline bool reads_dist_member(const Fuse *f, int s, NodeId j) {
    const Node *nd = &f->g->nodes[j];
    for (int k = 0; k < nd->ninputs; k++)
        if (nd->in[k].id >= 0 && f->home[nd->in[k].id] == s && (f->req[nd->in[k].id] & REQ_DIST)) return true;
    return false;
}
/* for each live consumer c of v, ascending */
#define CONSUMERS(f, v, c) \
    for (int u_##c = (f)->uoff[v], c; u_##c < (f)->uoff[(v) + 1] && ((c = (f)->ulist[u_##c]), 1); u_##c++)

static inline const Node *N(const Fuse *f, NodeId id) { return &f->g->nodes[id]; }
static inline OpKind kind_of(const Fuse *f, NodeId id) { return ir_ops[N(f, id)->op].kind; }
static inline bool is_pure(const Fuse *f, NodeId id) {
    OpKind k = kind_of(f, id);
    /* gather is an index-mapped load: inlined into its readers like a view; scatter_add loops
     * over its indices per element, so it gets a step of its own (pass_fuse.c, build) */
    return k == K_ELEMWISE || k == K_VIEW || N(f, id)->op == OP_FULL || (k == K_INDEX && N(f, id)->op != OP_SCATTER_ADD);
}
static inline bool expensive_op(Op op) {
    switch (op) {
    case OP_EXP: case OP_LOG: case OP_POW: case OP_TANH: case OP_SIGMOID: case OP_SIN: case OP_COS:
    case OP_SQRT: case OP_RSQRT: case OP_ERF: return true;
    default: return false;
    }
}
/* Appends without looking for duplicates (callers know there are none); grows by doubling. */
static inline void push(NodeId **arr, int *n, NodeId id) {
    if ((*n & (*n - 1)) == 0) {
        *arr = realloc(*arr, (size_t)(*n ? 2 * *n : 1) * sizeof **arr);
        if (!*arr) abort();
    }
    (*arr)[(*n)++] = id;
}
static inline int cmp_id(const void *a, const void *b) { return *(const NodeId *)a - *(const NodeId *)b; }

/* Collects the inline closure of `from`'s operands (pass_fuse.c): free, unmaterialised pure nodes
 * are computed in place (pushed to cl); inputs and values in memory are read (pushed to ins).
 * The caller bumps f->sstamp first; s >= 0 stops at s's members. */
void fuse_closure(Fuse *f, int s, NodeId from, NodeId **cl, int *ncl, NodeId **ins, int *nins);
/* Moves matmuls into ROW steps as row prologues and epilogues (pass_fuse_row.c), after grouping
 * and before materialisation is decided; merged groups are removed. */
void fuse_row_matmuls(Fuse *f);
/* The ROW step reason's texts about its products (with: ", with the skinny product ... as
 * prologue ...") and about the candidates it refused (notes: "; not fused: ..."); "" when none. */
void fuse_row_describe(Fuse *f, int s, char *with, size_t nw, char *notes, size_t nn);

#endif
