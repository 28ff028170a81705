/* compiler/plan.h: the fusion plan built over a verified graph: which nodes run together as one
 * step, which values live in memory and where, in what order the steps run, how each step's
 * kernel is launched, and why. Built by the passes fuse → schedule → memplan → lower
 * (compiler/pipeline.c), printed by plan_print. The code generators and the runtime's plan
 * table are made from it.
 *
 * Ownership: a Plan belongs to its Graph (g->plan), freed by plan_free / graph_free. Every array
 * and string in it is owned by the plan. */
#ifndef GTC_PLAN_H
#define GTC_PLAN_H

#include "../ir/ir.h"
#include "target.h"

typedef enum {
    STEP_ELEMWISE, /* one thread per element of `root`'s shape; fused elementwise + views */
    STEP_REDUCE,   /* one reduction (`root`) with its elementwise prologue and epilogue */
    STEP_ROW,      /* row kernel: several reductions over the same rows plus the elementwise
                    * work between and after them, one block per row (softmax, log-sum-exp,
                    * cross-entropy and its gradient), possibly with a skinny matmul
                    * producing its rows and a small-K one consuming them (row_pro, row_epi) */
    STEP_GEMM,     /* one matmul (`root`) with transposes folded into its operands and an
                    * elementwise epilogue (bias, activation, scale, update) */
    STEP_COPY,     /* a materialising copy into a graph output: an output that is an input or a
                    * view of one, a second output naming the same value, or a donated output
                    * that could not be written in place (staged in the arena, copied last) */
    STEP_ALLREDUCE /* data-parallel plans (Graph.data_parallel): the mean over ranks of a bucket of
                    * parameter gradients (`ins`, contiguous in the arena, one dtype), in place;
                    * no kernel of its own (an empty one), the executor's collective
                    * (docs/distributed.md); the steps that read the gradients wait for it */
} StepKind;

typedef enum {
    BUF_NONE,      /* not materialised: recomputed inside the steps that use it */
    BUF_INPUT,     /* the caller's input `index` (position among the graph's inputs) */
    BUF_OUTPUT,    /* the caller's output `index` (position in g->outputs); when that output is
                    * donated (Plan.output_alias), its storage is the donated input's buffer */
    BUF_ARENA,     /* bytes [offset, offset+bytes) of the plan's arena (offset -1: materialised
                    * but not placed yet, i.e. memplan has not run) */
    BUF_SCALAR     /* a rank-0 input passed by value: `index` is its input position */
} BufKind;

#define ARENA_ALIGN 256 /* every arena placement, and the CPU GEMMs' scratch after them */

typedef struct {
    BufKind kind;
    int index;
    int64_t offset, bytes;
} BufRef;

/* A matmul computed row by row inside a ROW step (see pass_fuse_row.c): the prologue, a skinny
 * product [M, L] (L <= PLAN_ROW_MM_MAX) whose rows the step reduces, or the epilogue, a small-K
 * product of a full-row member [M, L] (K = L) producing rows [M, N]. */
#define PLAN_ROW_MM_MAX 8
typedef struct {
    NodeId mm;          /* the matmul, or -1 when none */
    NodeId in[2];       /* A and B after folding transposes (the epilogue's A is a step member) */
    bool trans[2];      /* whether A / B are read transposed */
    bool half[2];       /* whether A / B is a bfloat16 value read as float32 (GEMM steps only) */
} StepMatmul;

/* The form of a step's CUDA kernel, decided by pass_lower (compiler/pass_lower.c). */
typedef enum {
    LOWER_NONE,         /* not lowered (pass_lower has not run) */
    LOWER_GRID,         /* ELEMWISE, COPY: a grid-stride loop, a thread per element */
    LOWER_RED_BLOCK,    /* REDUCE: a block per output element; ROW: a block per row */
    LOWER_RED_COLS,     /* REDUCE over leading axes only: 8 outputs per block, 32 slices each */
    LOWER_ROW_WARP,     /* ROW: a warp per row, `warps` rows per block */
    LOWER_ROW_THREAD,   /* ROW: a thread per row */
    LOWER_GEMM_TILED,   /* GEMM: the tiled kernel, tile bm x bn (see gtc_gemm in the prelude) */
    LOWER_GEMM_SKINNY,  /* GEMM, N <= 8: a warp per row of C */
    LOWER_GEMM_SKINNY_T,/* GEMM, N <= 8, A read transposed: 8 rows per block */
    LOWER_GEMM_SMALLK,  /* GEMM, K <= 8: a thread per element of C */
    LOWER_GEMM_BLAS     /* GEMM through cuBLASLt into `gemm_out` (captured in the CUDA Graph), then
                         * the step's kernel, grid-stride, applies the epilogue (when it has one) */
} LowerForm;

/* What pass_lower decided for one step; the code generators, plan_build and (through RtPlanStep)
 * the executor only read it. */
typedef struct {
    LowerForm form;
    int bm, bn, tm, ks, bk;     /* LOWER_GEMM_TILED: tile, micro-tile rows, K slices, K step */
    bool tf32;                  /* LOWER_GEMM_TILED: on TF32 tensor cores (gtc_gemm's TF32) */
    int nst;                    /* LOWER_GEMM_TILED: K steps in flight (gtc_gemm's NST) */
    int warps;                  /* LOWER_ROW_WARP: rows (warps) per block */
    unsigned grid[3], block[3]; /* the CUDA launch configuration */
    unsigned smem;              /* dynamic shared memory, bytes (the tiled GEMM's K pipeline) */
    bool own_sm;                /* RtPlanStep.own_sm: one block per SM (the tiled GEMM) */
    NodeId gemm_out;            /* STEP_GEMM through a library (cblas on the CPU, cuBLASLt on CUDA
                                 * when form is LOWER_GEMM_BLAS): the buffer it writes the product
                                 * into (-1: the arena's scratch, Plan.scratch_off) */
    bool epilogue;              /* LOWER_GEMM_BLAS: the step's kernel has work after the product
                                 * (an output other than the product in place) */
    NodeId lib_bias;            /* LOWER_GEMM_BLAS: the add of a bias row that cuBLASLt's epilogue
                                 * applies as it writes the product (-1: none; CUDA only: the CPU's
                                 * cblas step adds it in its loop) */
    NodeId lib_relu;            /* LOWER_GEMM_BLAS with lib_bias: the relu of the biased product
                                 * that cuBLASLt's RELU_BIAS epilogue applies too, written into the
                                 * relu's own buffer (-1: none; CUDA only, as lib_bias) */
    NodeId lib_cast;            /* LOWER_GEMM_BLAS: the cast to bfloat16 of the product (of its bias
                                 * sum, of their relu) that cuBLASLt writes as its D, the step's one
                                 * output (-1: none; CUDA only: the CPU's product goes to the
                                 * scratch and its loop rounds) */
    NodeId lib_update;          /* LOWER_GEMM_BLAS: the sub w - lr * product that cuBLASLt computes
                                 * as alpha = -lr, beta = 1 with C = w, into the sub's own buffer
                                 * (-1: none; CUDA only, as lib_bias) */
    char why_gemm[384];         /* STEP_GEMM: why this form (the cost model's words, for gtc plan) */
    uint64_t after;             /* the steps this one waits for, edges implied by others left out
                                 * (bit i: step i; 0 for every step of a plan over 64 steps) */
    uint64_t uses;              /* RtPlanStep.uses: the argument-block slots its kernel uses */
} StepLower;

/* What a cuBLASLt step's call leaves for its kernel: the update's difference, the relu of the
 * biased product, the biased product, or the bare product mm. */
static inline NodeId lower_blas_result(const StepLower *l, NodeId mm) {
    return l->lib_update >= 0 ? l->lib_update : l->lib_cast >= 0 ? l->lib_cast : l->lib_relu >= 0 ? l->lib_relu
           : l->lib_bias >= 0 ? l->lib_bias : mm;
}

typedef struct {
    StepKind kind;
    NodeId root;        /* sets the iteration space: the reduction, the matmul, or the last node */
    NodeId *nodes;      /* every node computed inside the step, in evaluation order */
    int nnodes;
    NodeId *outs;       /* the values the step writes to memory */
    int nouts;
    NodeId *ins;        /* the materialised values (or inputs) it reads */
    int nins;
    NodeId gemm_in[2];  /* STEP_GEMM: the in-memory operands A and B (transposes folded away) */
    bool gemm_trans[2]; /* STEP_GEMM: whether A / B are read transposed */
    bool gemm_half[2];  /* STEP_GEMM: A / B is a bfloat16 value (pass_bf16) the product reads as
                         * float32 (cuBLASLt's bf16 operand as it is; the CPU widens a copy) */
    StepMatmul row_pro; /* STEP_ROW: the skinny product whose rows it reduces (mm -1: none) */
    StepMatmul row_epi; /* STEP_ROW: the small-K product of a full-row member (mm -1: none) */
    int copy_output;    /* STEP_COPY: the graph output it writes (ins[0], through the view
                         * nodes in `nodes`, if any); -1 for other kinds */
    int bucket;         /* STEP_ALLREDUCE: its bucket, from 0 in the order the backward fills them */
    char reason[512];   /* why these nodes fused (and why the group ends where it does) */
    StepLower lower;    /* pass_lower's decisions */
} Step;

typedef struct Plan {
    Step *steps;        /* in execution order once scheduled */
    int nsteps;
    int nnodes;         /* length of the per-node arrays (the graph's node count at fuse time) */
    int *step_of;       /* per node: the step computing it (-1: input, dead, or computed in several) */
    BufRef *buf;        /* per node: where its value lives (BUF_NONE when fused away) */
    char **why;         /* per node: why it is materialised or not (owned strings) */
    int *output_alias;  /* per graph output: the input position whose buffer it reuses, or -1 */
    int64_t arena_bytes;
    bool scheduled;     /* pass_schedule has ordered the steps */
    bool placed;        /* pass_memplan has assigned buffers */
    bool lowered;       /* pass_lower has decided every step's StepLower */
    Target target;      /* the target it was lowered for */
    int64_t scratch_off, scratch_bytes; /* the library GEMMs' scratch appended to the arena,
                                         * 256-aligned (offset -1: none): the CPU's cblas, and
                                         * cuBLASLt steps (which the graph's edges serialise); the
                                         * generated code's arena is scratch_off + scratch_bytes */
    int nchecks;        /* the gather/scatter_add nodes the steps compute, whose kernels flag an */
    NodeId *checks;     /* index out of range (RtPlan.checks; pass_lower) */
    int64_t check_off;  /* their error word, two int64 after the arena and scratch, 256-aligned
                         * (-1: none): [0] = 1 + the check's position, [1] = the index */
    char sym[16];       /* the generated symbols' prefix: "gtc" (gtc_k3, gtc_cpu_kernels, gtc_plan);
                         * a model's predict() plan is "gtc_fwd" (compiler/forward.c) */
    char predict[16];   /* the sym of this plan's predict() plan in the same model, or "" */
    NodeId *dist;       /* data-parallel plans: the parameter gradients averaged across ranks */
    int ndist;          /* (pass_fuse; pass_schedule buckets them into STEP_ALLREDUCE steps) */
} Plan;

/* An empty plan for a graph of nnodes nodes (per-node arrays cleared: step_of -1, BUF_NONE). */
Plan *plan_new(int nnodes);
void plan_free(struct Plan *p);
/* Replaces g->plan (freeing the old one) and registers plan_free with the graph. */
void plan_attach(Graph *g, Plan *p);
/* Sets node `id`'s reason (formatted; replaces an earlier one). */
void plan_why(Plan *p, NodeId id, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Appends a step (arrays empty, copy_output -1) and returns it; pointers into p->steps are
 * invalidated by the next call. */
Step *plan_add_step(Plan *p, StepKind kind, NodeId root);
/* Appends id to a step's array (nodes, ins or outs) unless it is there already. */
void step_push(NodeId **arr, int *n, NodeId id);
bool step_has(const NodeId *arr, int n, NodeId id);
const char *plan_step_kind_name(StepKind k);   /* "elementwise", "reduce", "row", "gemm", "copy" */
/* The index in g->outputs of the first output naming value v, or -1. */
int plan_output_of(const Graph *g, NodeId v);
/* The arena the generated code needs: memplan's, plus the CPU GEMMs' scratch that pass_lower
 * appends (scratch_off + scratch_bytes when scratch_off >= 0), plus the index-error word. */
int64_t plan_arena_total(const Plan *p);
/* Where buffer b lives in the argument block (runtime/core/plan_abi.h): the pointer slot and the
 * byte offset from it. 0, or -1 when b is not in memory (or not placed yet). */
int plan_buf_slot(const Graph *g, const BufRef *b, int *slot, int64_t *off);
/* 1 + node id's position in p->checks (the code its kernels write), or 0 when it has none. */
int plan_check_code(const Plan *p, NodeId id);
/* A placed STEP_ALLREDUCE's bucket: the arena bytes [*off, *off + *count * size of dtype) from its
 * first gradient to the end of its last (the alignment gaps between them included); 0, or -1
 * when its gradients are not placed contiguously in the arena. */
int plan_allreduce_range(const Graph *g, const Step *st, int64_t *off, int64_t *count, DType *dt);
/* The gradient buckets' size limit: consecutive gradients of one dtype up to this many bytes
 * are averaged by one collective (PyTorch DDP's default bucket size). */
#define PLAN_BUCKET_BYTES ((int64_t)25 << 20)

typedef enum { PLAN_TEXT, PLAN_JSON, PLAN_DOT } PlanFormat;
/* Prints g->plan (a partial one too: before schedule or memplan, placements show as such). */
void plan_print(const Graph *g, FILE *f, PlanFormat fmt);

/* pass_lower's dependency facts, read by its edge reduction and by the code generators: the
 * steps (bit i: step i) whose writes reach input `input`'s buffer (the step of an output donated
 * to it, a copy into it), and the steps step s waits for, directly or through others. Both 0 for a plan over 64 steps (its edges
 * are not recorded: the executor runs it in order). */
uint64_t lower_input_writers(const Graph *g, int input);
uint64_t lower_ancestors(const Plan *p, int s);

/* Passes; each returns 0 or -1 with an error in d. */
int pass_simplify(Graph *g, Diag *d); /* constant folding, CSE, identities, dead nodes */
void simplify_report(FILE *f);        /* what the last pass_simplify did, one line per rewrite */
int simplify_count(const char *kind); /* fold identity bridge compose cse dead */
int pass_fuse(Graph *g, Diag *d);     /* groups nodes into steps; creates g->plan */
int pass_schedule(Graph *g, Diag *d); /* orders steps: dependencies, donated buffers last */
int pass_memplan(Graph *g, Diag *d);  /* buffers: inputs, outputs, arena offsets */
/* launch configurations, GEMM tiles, shared memory, CPU GEMM scratch, dependency edges */
int pass_lower(Graph *g, const Target *t, Diag *d);
/* The cost model's threshold: products of at least this many multiply-adds go to cuBLASLt (0:
 * GTC_GEMM=cublaslt, INT64_MAX: GTC_GEMM=kernel), and whether an M x N x K product of dtype dt
 * (one matrix, static sizes) is one of them: the same choice pass_lower makes for its step. */
int64_t lower_blas_min_macs(const Target *tg, DType dt);
bool lower_blas_shape(const Target *tg, int64_t m, int64_t n, int64_t k, DType dt);
/* bfloat16 storage for the values that only products and sign tests read (--precision=bf16) */
int pass_bf16(Graph *g, const Target *t, Diag *d);

#endif
