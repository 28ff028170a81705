/* compiler/emit.h: the code generators over a lowered plan (g->plan after lower): kernels.cu
 * (one CUDA kernel per step), kernels_cpu.c (one C function per step) and plan.c (the RtPlan
 * table of runtime/core/plan_abi.h that ties them together), plus the pieces they share: a string
 * builder, the C-string escaper, literals (emit_str.c), facts about steps (emit_step.c), and the
 * expression emitter that turns a node at given coordinates into C (emit_expr.c).
 *
 * Nothing from the graph reaches generated code except through this file's validators: names only
 * inside string literals (emit_cstr), numbers through ir_fmt_number, identifiers are generated
 * (gtc_k3, v17, c2). Output is deterministic: the same graph gives the same bytes.
 *
 * Ownership: every char * returned here is malloc'd and owned by the caller. */
#ifndef GTC_EMIT_H
#define GTC_EMIT_H

#include <stdarg.h>

#include "plan.h"

/* ---- public API ------------------------------------------------------------------------------ */

/* Writes DIR/kernels.cu, DIR/kernels_cpu.c and DIR/plan.c for g, whose plan must be lowered
 * (pipeline_run through lower). DIR must exist. source_name (the input file's base name) appears
 * only escaped. fwd (or NULL): g's predict() plan (compiler/forward.c), written as
 * predict_kernels.cu, predict_kernels_cpu.c and predict_plan.c. 0, or -1 with the first error in
 * d (nothing is left half-written on error). */
int emit_all(const Graph *g, const Graph *fwd, const char *dir, const char *source_name, Diag *d);
/* Writes text to DIR/NAME through a fresh temporary file renamed over it (a symbolic link at
 * either name is replaced, never followed). 0, or -1 with "cannot write PATH: reason" in d. */
int emit_write_file(const char *dir, const char *name, const char *text, Diag *d);

/* The three texts, for callers that keep them in memory (the JIT). NULL with the error in d. */
char *emit_cuda_source(const Graph *g, const char *source_name, Diag *d);
char *emit_cpu_source(const Graph *g, const char *source_name, Diag *d);
char *emit_plan_source(const Graph *g, const char *source_name, const char *cuda_src,
                       const char *cpu_src, Diag *d);

/* ---- shared internals -------------------------------------------------------------------------- */

/* A growable string. All appends abort on out-of-memory (like the rest of the compiler). */
typedef struct {
    char *s;
    size_t n, cap;
} Str;
void str_add(Str *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void str_vadd(Str *b, const char *fmt, va_list ap);
void str_cat(Str *b, const char *s);
char *str_take(Str *b);            /* the text (never NULL); b is left empty */
void str_free(Str *b);
char *xfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2))); /* malloc'd printf */

/* Appends s as the body of a C string literal: quotes, backslashes, '?' (trigraphs) and every
 * byte outside printable ASCII escaped (octal, three digits), so any bytes are safe. */
void emit_cstr(Str *b, const char *s);
/* Appends s for a block comment: escaped as emit_cstr, and never containing the end marker. */
void emit_comment_text(Str *b, const char *s);
/* The first line of every generated file. */
void emit_header(Str *b, const char *source_name);

typedef enum { EMIT_C, EMIT_CUDA } EmitLang;

const char *emit_ctype(DType t);   /* "float", "double", "int32_t", "int64_t", "gtc_bool" */
/* The type integer formulas that can overflow run in (IR_DTYPES' WT; int64 stays int64_t on CUDA) */
const char *emit_wide_ctype(DType t, EmitLang lang);
/* INT8_MIN, UINT32_MAX, ...: dtype t's extreme as a C name */
const char *emit_int_limit(DType t, bool max);
/* The C literal of value v converted to dtype t (saturating for integers, as scalar.h does);
 * -1 for a value that is not finite and cannot be written. */
int emit_literal(DType t, double v, char *buf, size_t n);
/* val (of dtype from) converted to dtype to through scalar.h's gtc_to_* (malloc'd). */
char *emit_conv(const char *val, DType from, DType to);

/* A growable list of owned strings. */
typedef struct {
    char **s;
    int n, cap;
} ExList;

/* The expression emitter's state for one kernel body. */
typedef struct EmitMemo EmitMemo;
typedef struct {
    const Graph *g;
    const Plan *p;
    EmitLang lang;
    int step;
    const Step *st;
    const char *args;              /* "a->" (C) or "a." (CUDA): prefix of p[] and s[] */
    bool idx64;                    /* index arithmetic in 64 bits */
    const char *idx;               /* "int" or "long long" */
    bool *in_step;                 /* per node: computed inside this step */
    char **bound;                  /* per node: a variable holding its value (owned) */
    char **rowarr;                 /* per node: an array holding its row, indexed by the last
                                    * coordinate (a row prologue's product; owned) */
    Str *out;                      /* the body being written */
    int indent;
    int ntmp;                      /* counter for generated names */
    EmitMemo *memo;                /* (node, coordinates) → temporary, scoped by marks */
    int nmemo, capmemo;
    Diag *d;
    bool failed;
    bool no_jam;                   /* C: the step wants GTC_CPU_NO_JAM (a blocked row step) */
    /* Versions of the innermost loop (emit_loops.c ex_loop_nest, emit_unswitch.c; off while pre is
     * NULL): an index split whose input names only invariant values is written once to pre,
     * before the loop; a pad's or concat's test that names only invariant values is a guard the
     * loop is unswitched on, one that names only the loop's counter (inner) a test that splits
     * its range; both are decided (assume, assumed) in the version being written. */
    Str *pre;
    int pre_indent;
    const char *inner;             /* the innermost loop's counter */
    int mixed;                     /* tests met naming it and outer counters together */
    ExList inv;                    /* names invariant in the innermost loop */
    ExList hoist_key, hoist_val;   /* hoisted splits: "lin|dims" -> "c1 c2 ..." */
    ExList guard;                  /* invariant tests met, in order */
    ExList vtest;                  /* tests of the counter alone */
    ExList assume;                 /* tests decided in the version being written */
    ExList def_name, def_expr;     /* index variables written meanwhile and their expressions */
    bool assumed[64];              /* their values */
    /* Index variables of known range (emit_affine.c): the CPU loops' counters and what is split
     * from them; a split of an index over them whose terms fall on its radices needs no division */
    struct ExRange *range;
    int nrange, caprange;
    struct ExRefine *refine;       /* while a loop nest is written to find its refinement */
} Ex;

/* Sets up an emitter for step `step`; ex_done frees it. */
void ex_init(Ex *x, const Graph *g, EmitLang lang, int step, Str *out, Diag *d);
void ex_done(Ex *x);
/* Writes one indented line (a newline is appended). */
void ex_line(Ex *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A fresh generated name: prefix + counter ("v12"). */
char *ex_name(Ex *x, const char *prefix);
/* Memo scopes: entries made after a mark are forgotten by ex_release (the block closed). */
int ex_mark(const Ex *x);
void ex_release(Ex *x, int mark);
void ex_bind(Ex *x, NodeId id, const char *var);
void ex_unbind(Ex *x, NodeId id);
/* Binds id's value at (..., c) to arr[c] (its current row, held in a per-row array), or where
 * arr holds "[]", to arr with c in those brackets ("m[][b]": m[c][b], a block of rows); ex_unbind
 * removes it too. */
void ex_bind_row(Ex *x, NodeId id, const char *arr);
/* The value of node id at the given coordinates (one C expression per dimension of its shape,
 * of index type): a temporary, a literal or a variable name, of type emit_ctype(dtype).
 * Temporaries are written to x->out. On error sets x->failed (and d) and returns "0". */
char *ex_value(Ex *x, NodeId id, char *const *coords);
/* Emits the loads of the in-memory values that ex_value(id, coords) would read, memoised, and
 * computes nothing (stops at reductions, products and bound values): a later ex_value at the
 * same coordinate texts in the same or an inner scope reuses them. */
void ex_prefetch(Ex *x, NodeId id, char *const *coords);
/* Stores val into node id's buffer at coords. */
void ex_store(Ex *x, NodeId id, char *const *coords, const char *val);
/* Stores val at coords (contiguous, of type t) into graph output j. */
void ex_store_output(Ex *x, int j, const TensorType *t, char *const *coords, const char *val);
/* The typed address of a materialised node ("((float *)(a.p[3] + 1024))"); NULL on error. */
char *ex_addr(Ex *x, NodeId id);
/* The typed address a library GEMM (cblas, cuBLASLt) of the current step writes its product to:
 * Step.lower.gemm_out's buffer, else the arena's scratch (malloc'd; NULL after a failure). */
char *ex_gemm_product(Ex *x, NodeId mm);
/* Linearised index of coords in a contiguous shape. */
char *ex_linear(Ex *x, const TensorType *t, char *const *coords);
/* Emits temporaries that split linear index `lin` of a contiguous shape into coordinates; axes
 * with sym[i] set (sym may be NULL) are as long as their symbolic dimension's size at run time. */
void ex_split(Ex *x, const char *lin, int rank, const int64_t *dims, const unsigned char *sym, char **coords);
/* The number of elements over t's axes in mask, as an index expression: ex_const when static,
 * else with each symbolic axis's size at run time ("(8 * ((int)a.s[0]))"). */
char *ex_extent(const Ex *x, const TensorType *t, unsigned mask);
void ex_free_coords(char **coords, int n);
/* ---- index texts as affine forms (emit_affine.c) ---- */
/* Notes that index variable `name` takes values lo..hi only (both included). */
void ex_range(Ex *x, const char *name, int64_t lo, int64_t hi);
/* A loop nest being written to find the common refinement of the reshapes it meets
 * (emit_loops.c ex_loop_nest): its counters (name, axis of the nest), the index splits that needed a
 * division, and the splits of the nest's axes that would let them fall on their radices. */
#define REFINE_MAX 32
typedef struct ExRefine {
    int n, nreq, nfallback;
    char *name[REFINE_MAX];
    int axis[REFINE_MAX];
    int req_axis[REFINE_MAX];
    int64_t req_factor[REFINE_MAX];
} ExRefine;
/* Notes counter `name` of axis `axis` of the nest being refined (nothing when none is). */
void ex_refine_counter(Ex *x, const char *name, int axis);
/* Notes a split of lin over dims that needed a division, and which of the nest's axes split in
 * two would let the split's terms fall on its radices. */
void ex_refine_request(Ex *x, const char *lin, int rank, const int64_t *dims);
void ex_range_free(Ex *x);
/* The least and greatest value of index text t: false unless t is an affine form (+ - and
 * products by constants) over variables of known range. */
bool ex_index_bounds(const Ex *x, const char *t, int64_t *lo, int64_t *hi);
/* Splits lin over the static dims without a division when its affine terms fall on the radices
 * (each coordinate an affine form that stays within its axis for every value of the variables):
 * coords filled and true; else false and nothing written. */
bool ex_split_aligned(Ex *x, const char *lin, int rank, const int64_t *dims, char **coords);
void ex_list_add(ExList *l, const char *s);
int ex_list_find(const ExList *l, const char *s);
void ex_list_free(ExList *l);
/* ---- a loop written in versions (emit_loops.c ex_loop_nest, emit_unswitch.c) ---- */

/* The body of a loop nest at the given coordinates (ex_loop_nest). */
typedef void (*LoopBody)(Ex *x, char **coords, void *ctx);
#define UNSWITCH_MAX 4 /* invariant tests the innermost loop is unswitched on: 16 versions at most */
#define RANGE_MAX 4     /* classes the innermost loop is cut into by tests of its counter */
#define NEST_ALT_MIN 16 /* an outer axis made innermost is at least this long */
#define NEST_SIMD_MIN 4  /* a loop along the contiguous axis of 4 to 16 iterations: `omp simd` */
#define NEST_SIMD_MAX 16
/* How the innermost loop is written (ex_loop_nest): its counter, bound and body; assume's first k
 * entries are the guards it is unswitched on, the next m the tests of its counter, constant over
 * each of its nr classes (lo, lo + step, ... below hi). */
typedef struct {
    const char *c, *bound;
    char **coords;
    LoopBody body;
    void *ctx;
    int k, m, nr;
    int64_t lo[RANGE_MAX], hi[RANGE_MAX], step[RANGE_MAX];
    int64_t simd_n;                /* the loop's static length when it runs along the stored
                                    * value's contiguous axis, else 0 */
    int nouter;                    /* the outer loops' counters and (static) bounds */
    const char *outer[IR_MAX_RANK];
    int64_t odim[IR_MAX_RANK];
} ExNest;

/* ---- the CPU emitter's loop nests (emit_loops.c) ---- */

/* Whether a step over `work` elements runs its outer loops on OpenMP's threads: above
 * RT_CPU_PAR_MIN (plan_abi.h, the eager loops' threshold too). */
bool ex_par_work(int64_t work);
/* Marks the loop nest about to open over dims as parallel (OpenMP). */
void ex_par_pragma(Ex *x, int rank, const int64_t *dims);
/* Opens plain loops over axes from..from+rank-1 of t (coords[i] its counters); returns how many
 * blocks ex_close_loops closes. */
int ex_open_loops(Ex *x, const TensorType *t, int from, int rank, char **coords, bool par);
void ex_close_loops(Ex *x, int n);
/* The nest over all of t calling body at each element: the innermost loop in versions, over the
 * common refinement of its loops and reshapes where that removes divisions. */
void ex_loop_nest(Ex *x, const TensorType *t, bool par, char **coords, LoopBody body, void *ctx);

/* Whether some values of the outer counters satisfy guards 0..upto as assumed (emit_unswitch.c). */
bool ex_nest_feasible(const Ex *x, const ExNest *ns, int upto);
/* Cuts [0, n) of the innermost loop into classes by the tests of its counter (emit_unswitch.c). */
void ex_nest_ranges(Ex *x, ExNest *ns, int64_t n);
/* Frees the lists of a loop written in versions (emit_unswitch.c). */
void ex_versions_reset(Ex *x);
/* Notes that index variable `name` holds `expr` (while a loop is written in versions: tests
 * are compared and evaluated with such names replaced by their expressions). */
void ex_def(Ex *x, const char *name, const char *expr);
/* Whether index text t is invariant in the innermost loop being written in versions. */
bool ex_invariant(const Ex *x, const char *t);
/* A pad's or concat's index test: 1 or 0 when the version of the innermost loop being written
 * decides it, else -1 (tested where it stands; recorded for ex_loop_nest when it is invariant or a
 * test of the counter alone). */
int ex_guard(Ex *x, const char *cond);
/* Evaluates index test t with `name` = v (+ - * / % comparisons && || parentheses, integer
 * literals); false when t holds anything else. */
bool ex_eval_test(const char *t, const char *name, long long v, bool *out);
/* An index constant of the kernel's index type ("512" or "512LL"). */
char *ex_const(const Ex *x, int64_t v);
/* Axis i of t as an index expression: ex_const of its size, or a symbolic axis's size at run
 * time, read from the argument block ("((long long)a->s[2])"). */
char *ex_dim(const Ex *x, const TensorType *t, int i);

/* ---- reductions (shared by both back-ends) ------------------------------------------------------ */

typedef struct {
    Op op;
    NodeId node, x;                /* the reduction and its input */
    unsigned mask;
    DType ct;                      /* what the input converts to (the output dtype; arg: input's) */
    DType out;
    const char *acc;               /* accumulator type */
    char init[96];                 /* its identity */
    bool arg;                      /* argmax/argmin */
    int64_t count;                 /* elements per output */
    int axis;                      /* arg: the reduced axis */
    char count_text[96];           /* "": count is it; else count as a double expression (a
                                    * reduced symbolic axis: its size at run time; emit_red_count) */
} EmitRed;
int emit_red_info(const Graph *g, NodeId r, EmitRed *ri, Diag *d);
/* Fills ri->count_text when the reduction reduces a symbolic axis (args: "a->" or "a."). */
void emit_red_count(const Graph *g, EmitRed *ri, const char *args);
/* Statement folding value v (of dtype ct) with index k (arg only) into accumulator acc
 * (arg: best value acc, index acc_i; acc_i < 0 means none yet). */
char *emit_red_step(const EmitRed *ri, const char *acc, const char *acc_i, const char *v, const char *k);
/* The same, a max or min as a select (acc = test ? v : acc) rather than a branch: the same value,
 * and a loop of it across an array of accumulators vectorises (a blocked row step's). */
char *emit_red_step_select(const EmitRed *ri, const char *acc, const char *acc_i, const char *v, const char *k);
/* The reduction's result (of dtype out) from the final accumulator. */
char *emit_red_final(const EmitRed *ri, const char *acc, const char *acc_i);

/* ---- GEMM geometry ------------------------------------------------------------------------------ */

typedef struct {
    NodeId mm, a, b;               /* the matmul and its in-memory operands */
    bool ta, tb;
    bool half[2];                  /* A / B is a bfloat16 value the float32 product widens
                                    * (Step.gemm_half: cuBLASLt reads it as is, the CPU widens a copy) */
    int64_t m, n, k;
    int64_t sam, sak, sbk, sbn;    /* element strides of op(A)[m,k] and op(B)[k,n] */
    int nb;                        /* batch rank of the output */
    int64_t bdims[IR_MAX_RANK];    /* output batch dims */
    int64_t bsa[IR_MAX_RANK], bsb[IR_MAX_RANK]; /* operand batch strides (0: broadcast) */
    int64_t batch;
    bool has_m, has_n;             /* whether the output has the m / n axis (NumPy 1-D rules) */
} EmitGemm;
/* A GEMM step's M, N, K ("512" or "(int)a.s[0]") and batch count ("4LL" or a product with the
 * run's size) into mnkb[0..4) (malloc'd); -1 (reported, x->failed) where they cannot be. */
int ex_gemm_sizes(Ex *x, const EmitGemm *gm, char **mnkb);
int emit_gemm_info(const Graph *g, const Step *st, EmitGemm *gm, Diag *d);
/* The same for one matmul with its operands (a row step's prologue or epilogue); a_in_step: A is
 * computed by the step (need not be in memory). */
int emit_matmul_info(const Graph *g, const StepMatmul *sm, bool a_in_step, EmitGemm *gm, Diag *d);
/* The batch of products as one element stride of operand 0 (A) or 1 (B), as a strided-batch BLAS
 * call takes it: false when the non-unit batch axes do not step through the operand as one axis
 * (every one broadcast gives stride 0). */
bool emit_gemm_batch_stride(const EmitGemm *gm, int operand, int64_t *stride);
/* Output coordinates of the GEMM result from batch coordinates and i, j (malloc'd strings). */
int emit_gemm_coords(const EmitGemm *gm, char *const *bc, const char *i, const char *j, char **coords);

/* ---- ROW steps ------------------------------------------------------------------------------------ */

typedef struct {
    NodeId root, x;                /* the first reduction; its input sets the row shape */
    int keep;                      /* leading (row) axes */
    int64_t rows, len;             /* rows, elements per row */
    bool *perrow;                  /* per node: one value per row (computed once per row) */
    bool *hoist;                   /* per node: per-row, depends on a reduction: bound per row */
    bool *full;                    /* per node: over the whole row shape */
    bool has_pro, has_epi;         /* a row prologue / epilogue product (Step.row_pro, row_epi) */
    EmitGemm pro, epi;             /* their geometry: pro [rows, len], epi [rows, len] @ [len, N] */
    bool *epi_node;                /* per node: the epilogue product or computed from it ([rows, N]) */
    NodeId *ro, *fo, *eo;          /* the outputs: per row, over the row, over the epilogue's rows */
    int nro, nfo, neo;
} EmitRow;
int emit_row_info(const Graph *g, const Step *st, EmitRow *ri, Diag *d);
void emit_row_free(EmitRow *ri);

/* ---- per-plan facts --------------------------------------------------------------------------- */

/* The argument block's scalars: the rank-0 inputs' values, then one per symbolic dimension
 * (its size at run time, runtime/core/plan_abi.h); the slot of symbol sym (TensorType.sym). */
int emit_nscalars(const Graph *g);
int emit_sym_slot(const Graph *g, int sym);
/* The scalar slot s[k] of input position i (-1 when the input is not rank 0). */
int emit_scalar_slot(const Graph *g, int input_index);
/* Whether a step needs 64-bit index arithmetic. */
bool emit_step_idx64(const Graph *g, const Step *st);
/* Checks that the plan is placed and lowered and that every step is one the generators handle. */
int emit_check_plan(const Graph *g, Diag *d);
/* Embedded texts (generated into the build from ir/scalar.h and templates/ by the Makefile;
 * compiler/emit_text.c, like emit_write_file). */
typedef enum { EMIT_TEXT_SCALAR_H, EMIT_TEXT_FSUM_H, EMIT_TEXT_CUDA_TYPES, EMIT_TEXT_CUDA_PRELUDE, EMIT_TEXT_CPU_PRELUDE,
              EMIT_TEXT_CPU_GEMM } EmitText;
/* Appends one of them whole between two comment lines, "gtc:prelude begin PATH" and
 * "gtc:prelude end PATH" (PATH as in the repository): tests/golden/run.sh elides what lies
 * between, so a golden file records what the planner decided, not the templates. */
void emit_text(Str *b, EmitText t);

#endif
