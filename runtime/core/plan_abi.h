/* runtime/core/plan_abi.h: the plan table, the one contract between the compiler's generated
 * code and the runtime's executor, and nothing else: the ABI alone (the IR's dtypes, no runtime
 * API), so generated plan.c and the compiler include it without the runtime. A model extension
 * (AOT) embeds one RtPlan as static data next to its generated kernels; the JIT builds the same
 * struct in memory. The executor (exec.h) runs it with a backend's plan operations.
 *
 * The argument block. Every generated kernel — CPU or CUDA, every step kind — takes the same
 * argument block by value (CUDA) or by pointer (CPU):
 *     struct { char *p[nptrs]; double s[nscalars]; }
 * p[0 .. ninputs)                 the inputs' element-0 addresses (rank-0 inputs: unused, NULL)
 * p[ninputs .. ninputs+noutputs)  the outputs' addresses (a donated output: its input's)
 * p[ninputs+noutputs]             the arena's base address
 * s[k]                            the value of the k-th rank-0 input (runtime scalars), then
 *                                 the size of each symbolic dimension (RtPlanSym.slot)
 * Kernels add constant offsets to these (arena offsets, view offsets are compiled in). On the GPU
 * the executor captures the block once into the graph's kernel nodes and updates the nodes'
 * parameters only when a pointer or scalar changed, so new inputs never force a re-capture. */
#ifndef GTC_PLAN_ABI_H
#define GTC_PLAN_ABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../ir/ir.h" /* DType, IR_MAX_RANK */

/* How the CPU kernels (kernels_cpu.c) are compiled, by `gtc compile` (compiler/build.c) and by the
 * JIT (runtime/cpu/cpu_plan.c): optimised and vectorised (-O3), OpenMP for the parallel loops the
 * emitter marks (docs/cpu.md), and no FMA contraction (gcc contracts by default where the target
 * has FMA): each op rounds as the eager ops do. -fno-trapping-math: nothing reads the floating-point
 * exception flags, so gcc may compute an operation that a select then drops (a relu's or a pool
 * gradient's `c ? x + y : 0`), which if-conversion needs to vectorise such a loop below AVX-512's
 * masked operations; it changes no value (no reassociation, no contraction). */
#define RT_CPU_KERNEL_CFLAGS "-O3 -ffp-contract=off -fno-trapping-math -fopenmp"
/* With GCC (runtime/cpu/cpu_cc.c asks `cc --version`; clang rejects the flag): no jump threading.
 * It turns a select whose operand a later comparison tests again (a relu feeding a pooling
 * window's max, a pool gradient's `where`) back into branches on the data, which a random sign
 * mispredicts half the time: the CNN step of examples/cnn_digits.json ran 1.4x faster without it
 * under GCC 12, and 1.9x faster under GCC 13 (the GPU machine's Xeon: 10.6-14.0 against 5.5-7.6
 * ms), where `#pragma GCC optimize("no-thread-jumps")` in the source, which GCC 12 honoured, no
 * longer reaches the target clones (docs/cpu.md). Values are unchanged: it only lays out control
 * flow. */
#define RT_CPU_KERNEL_CFLAGS_GCC "-fno-thread-jumps"
/* Loops over fewer elements than this run on one thread, eager (runtime/cpu) or generated
 * (compiler/emit_cpu.c): starting a parallel region costs microseconds. */
#define RT_CPU_PAR_MIN 32768

#define RT_PLAN_ABI 13 /* 3: RtPlanStep.uses; CUDA kernels begin with gtc_wait_prior_steps(); 4: .own_sm;
                       * 5: .after holds only the edges no others imply (was: every conflict);
                       * 6: RtPlan.checks and .check_off (the index-error word);
                       * 7: RtPlanIO.state (optimizer state a model owns);
                       * 8: RtPlan.predict (the forward plan of a training step), RtPlan.nsyms,
                       *    .syms, .in_sym, .out_sym (symbolic dimensions);
                       * 9: RtPlanStep.blas (GEMM steps through cuBLASLt);
                       * 10: RT_STEP_ALLREDUCE and RtPlanStep.dist (data-parallel plans: gtc compile
                       *     --data-parallel; a new step kind an older executor would run as an
                       *     empty kernel, silently skipping the all-reduce);
                       * 11: RtPlanGemm.value (products that read one value stage it once),
                       *     .bias (cuBLASLt's bias epilogue) and .update (alpha, beta);
                       * 12: RtPlanGemm.relu (cuBLASLt's RELU_BIAS epilogue);
                       * 13: RtPlanGemm.in16, .out16 (bfloat16 operands and D: --precision=bf16's
                       *     values stored in bfloat16, compiler/pass_bf16.c) */
#define RT_PLAN_MAX_ARGS_BYTES 4096 /* CUDA's kernel parameter space */
#define RT_PLAN_STEP_MAX 9007199254740992.0 /* 2^53: the largest AdamW step t (a float64 input) the
                                             * executor takes; it refuses t < 1 and fractions */

/* The size of a plan's argument block (above); a plan whose block is larger than
 * RT_PLAN_MAX_ARGS_BYTES cannot run (the code generators refuse it). */
static inline size_t rt_plan_args_bytes(int ninputs, int noutputs, int nscalars) {
    return sizeof(void *) * (size_t)(ninputs + noutputs + 1) + sizeof(double) * (size_t)nscalars;
}

typedef struct {
    const char *name;
    DType dtype;
    int rank;
    int64_t dims[IR_MAX_RANK];
    int scalar;       /* inputs: rank 0, passed by value as s[scalar]; -1 otherwise */
    int donated_from; /* outputs: the input whose buffer it reuses; -1 for fresh storage */
    int state;        /* inputs: IrInputState (ir.h): optimizer state the model creates and keeps
                       * when run() is not given it (zeros, or AdamW's step counter, which the
                       * executor refuses below 1); IR_STATE_NONE otherwise */
} RtPlanIO;

/* Which axes of an input or output are symbolic: sym[i] = k + 1 when axis i is the plan's
 * symbolic dimension k (RtPlanIO.dims[i] holds its bound; the size comes from the inputs at run
 * time), 0 for a static axis. */
typedef struct {
    unsigned char sym[IR_MAX_RANK];
} RtPlanSymAxes;

/* A symbolic dimension (docs/graph-format.md §3.1): a size the inputs give at run time, from 1 to
 * max; the executor passes it to every kernel as s[slot] (after the rank-0 inputs' values). */
typedef struct {
    const char *name;  /* "batch" */
    int64_t max;
    int slot;
} RtPlanSym;

typedef enum { RT_STEP_ELEMWISE, RT_STEP_REDUCE, RT_STEP_ROW, RT_STEP_GEMM, RT_STEP_COPY, RT_STEP_ALLREDUCE } RtStepKind;

/* A data-parallel plan's all-reduce (RT_STEP_ALLREDUCE, docs/distributed.md): the mean over the
 * ranks of count elements of dtype at arena + off, in place: a bucket of parameter gradients.
 * Its kernel is empty; the CPU executor runs it (nothing: the CPU backend has worlds of 1 only),
 * the CUDA executor puts the collective (runtime/core/dist.h, rt_dist_plan_all_reduce) in its
 * place in the CUDA Graph while a world is joined. */
typedef struct {
    int on;              /* 1: an all-reduce step */
    DType dtype;
    int64_t off, count;  /* arena byte offset, elements */
} RtPlanAllReduce;

/* A GEMM step's product through the GPU's BLAS (cuBLASLt), captured into the plan's CUDA Graph
 * before the step's kernel, which then applies the epilogue (when `epilogue`). Row-major,
 * C[batch][m][n] = op(A)[m][k] @ op(B)[k][n] with leading dimensions lda, ldb, ldc and batch
 * strides sa, sb, sc (elements; 0: broadcast); each matrix at p[slot] + off (bytes) of the
 * argument block. The CPU plan runs cblas from its step function and ignores this. */
typedef enum { RT_PREC_FP32, RT_PREC_TF32, RT_PREC_BF16 } RtPrecision; /* = TargetPrecision */
typedef struct {
    int on;              /* 1: the CUDA executor runs this product with cuBLASLt */
    int epilogue;        /* 1: the step's kernel runs after it; 0: the product is the result */
    int precision;       /* RtPrecision: the compute type of a float32 product */
    DType dtype;         /* float32 or float64 */
    int ta, tb;          /* op(A) = A^T, op(B) = B^T */
    int64_t m, n, k, batch;
    int64_t lda, ldb, ldc, sa, sb, sc;
    int slot[3];         /* A, B, C: argument-block pointer slots */
    int64_t off[3];      /* and byte offsets from them */
    int bias;            /* 1: C = op(A) @ op(B) + a bias row of n floats at p[bias_slot] + bias_off
                          * (cuBLASLt's BIAS epilogue; the step's kernel continues from the sum) */
    int bias_slot;
    int64_t bias_off;
    int update;          /* 1: D = C - lr * op(A) @ op(B) (cuBLASLt's alpha = -lr, beta = 1), C at
                          * p[c_slot] + c_off, D at p[d_slot] + d_off (may be C), both [m][n] with
                          * ldc; lr the 8-byte argument slot lr_slot (a float scalar input, read as
                          * a double) or, when lr_slot is -1, lr_value */
    int c_slot, d_slot;
    int64_t c_off, d_off;
    int lr_slot;
    double lr_value;
    int value[2];        /* A's and B's values (graph node ids): a later product that reads a value
                          * an earlier one has staged (bfloat16, or transposed) in the same form
                          * reads that copy instead of staging it again */
    int relu;            /* with bias: C = max(op(A) @ op(B) + bias, 0) (cuBLASLt's RELU_BIAS) */
    int in16[2];         /* A / B is bfloat16 in memory already (read as is, never staged; only
                          * with precision bf16) */
    int out16;           /* the product (its bias sum, their relu) is written as bfloat16 D at
                          * slot[2] + off[2], rounded to nearest even; C is then bfloat16 too */
} RtPlanGemm;

typedef struct {
    RtStepKind kind;
    const char *kernel;  /* generated function name, e.g. "gtc_k3" */
    const char *ops;     /* the fused ops in order, e.g. "max,sub,exp,sum,log" */
    const char *reads;   /* the values it reads, e.g. "x,w1,b1" */
    const char *writes;  /* the values it writes, e.g. "h1,a1" */
    const char *reason;  /* the planner's reason */
    unsigned grid[3], block[3], smem; /* CUDA launch configuration (fixed shapes) */
    uint64_t after;      /* bit i: this step waits for step i (it reads what i writes, or writes
                          * what i reads or writes), set only where no other edge implies the wait
                          * (the transitive reduction, compiler/pass_lower.c): the GPU graph's
                          * edges as they are. Plans of over 64 steps run in order (all 0). */
    uint64_t uses;       /* bit k < 63: the step's kernel uses slot k of the argument block (the
                          * pointers p[0 ..], then the scalars s[0 ..]); bit 63: some slot >= 63.
                          * A GPU run with new pointers updates only the nodes that use them. */
    unsigned own_sm;     /* 1: no two blocks of this kernel should share an SM (a tiled GEMM: each
                          * block is bound by its own load latency, and two on one SM run ~1.45x
                          * slower). The CUDA executor pads the block's dynamic shared memory so
                          * that two cannot fit when the grid fits in one wave (cuda_graph.cu). */
    RtPlanGemm blas;     /* a GEMM step lowered to cuBLASLt (on = 1); zero otherwise */
    RtPlanAllReduce dist; /* an all-reduce step (on = 1); zero otherwise */
} RtPlanStep;

/* A node whose kernels check indices (gather, scatter_add). An index out of range makes them
 * write the error word at arena + check_off: [0] = 1 + the check's position (the first to
 * fail wins), [1] = the index as given; the executor reads it after each run, fails the run
 * with the node's name, the index and the axis size, and clears it. */
typedef struct {
    const char *node;    /* the node's name */
    const char *op;      /* "gather" */
    int axis;            /* normalised */
    int64_t size;        /* the axis size */
} RtPlanCheck;

typedef void (*RtCpuKernel)(const void *args);

struct RtPlan {
    int abi;                   /* RT_PLAN_ABI */
    const char *graph;         /* graph name, e.g. "mlp_train_step" */
    const char *class_name;    /* "MlpTrainStep" */
    const char *source;        /* the input file name it was compiled from */
    int ninputs, noutputs, nscalars;
    const RtPlanIO *inputs, *outputs;
    int nsteps;
    const RtPlanStep *steps;
    int64_t arena_bytes;
    int nodes, fused_kernels, gemms, reductions; /* for getStats() */
    const RtCpuKernel *cpu;    /* one per step */
    const void *const *cuda;   /* one __global__ function (or cudaKernel_t) per step; NULL: no GPU code */
    const char *cuda_source;   /* kernels.cu, for getSource() and the NVRTC fallback */
    const char *cpu_source;    /* kernels_cpu.c, for getSource() */
    int nchecks;               /* index checks (RtPlanCheck); 0: none, and check_off is -1 */
    const RtPlanCheck *checks;
    int64_t check_off;         /* the error word's offset in the arena (inside arena_bytes) */
    const struct RtPlan *predict; /* a training step's forward function (predict(): the graph's
                                   * outputs from the inputs they read, no gradients or updates;
                                   * compiler/forward.c), or NULL */
    int nsyms;                 /* symbolic dimensions; 0: none (and the two tables are NULL) */
    const RtPlanSym *syms;
    const RtPlanSymAxes *in_sym, *out_sym; /* one per input / output, as inputs and outputs */
};

/* Axis a of input (out false) or output i: 0 static, k + 1 the plan's symbolic dimension k. */
static inline int rt_plan_sym(const struct RtPlan *p, bool out, int i, int a) {
    const RtPlanSymAxes *t = out ? p->out_sym : p->in_sym;
    int k = p->nsyms && t ? t[i].sym[a] : 0;
    return k <= p->nsyms ? k : 0;
}
typedef struct RtPlan RtPlan;

#endif
