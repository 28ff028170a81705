/* ir/ir.h: the graph IR shared by the compiler and the runtime: dtypes, tensor types, ops,
 * nodes, graphs, diagnostics, and the passes that every front-end runs (infer, verify). */
#ifndef GTC_IR_H
#define GTC_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define GTC_VERSION "0.1.0"

/* Limits on what a graph may ask for; every one gives a clear error, never an overflow. */
#define IR_MAX_RANK 8
#define IR_MAX_INPUTS 16                    /* concat's operands; other ops take at most 3 */
#define IR_MAX_NODES 100000
#define IR_MAX_NAME 128
#define IR_MAX_DIM ((int64_t)1 << 31)         /* one dimension: 0 <= d < 2^31 */
#define IR_MAX_BYTES ((int64_t)1 << 40)       /* one tensor: at most 1 TiB */
#define IR_MAX_FILE_BYTES ((size_t)64 << 20)  /* a graph file: at most 64 MiB */
/* Slice bounds beyond +-2^53 (ONNX exporters write INT64_MAX / INT64_MIN for "to the end") are
 * read as +-2^53: past any dimension, and exact in a double and in JSON. */
#define IR_SLICE_BIG ((int64_t)1 << 53)

/* ---- dtypes ------------------------------------------------------------------------------ */

/* Every dtype, one row each: everything that lists dtypes expands this table.
 * X(ID, name, short, sfx, CT, WT, size, kind)
 *   ID     enum suffix (DT_ID). The enum order is part of the plan ABI (generated plans store
 *          these numbers, runtime/core/plan_abi.h): new dtypes go at the end.
 *   name   the graph-format name; short: the text-dump name; sfx: C identifier suffix
 *   CT     the C storage type (bool: a byte holding 0 or 1)
 *   WT     the C type that overflowing integer formulas (add mul neg ...) run in before the
 *          result wraps on the store (int64 widens to gtc_wide, __int128, see ir/scalar.h); for
 *          the 2-byte floats, the type every formula runs in (float; IR_DT_VT)
 *   kind   B bool, S signed integer, U unsigned integer, F float, H a 2-byte float (bfloat16,
 *          float16: stored as a struct of its bits, computed in float, rounded once on the store)
 * Promotion does not follow the enum order: see ir_promote. */
#define IR_DTYPES(X) IR_DTYPES_A(IR_DT_CALL, X)
#define IR_DT_CALL(X, ...) X(__VA_ARGS__)
/* The same rows with a leading argument A passed through to every X(A, ID, ...), for expansions
 * inside other X-macros (ops.def rows) that need their own parameters in each row. */
#define IR_DTYPES_A(X, A)                                                                    \
    X(A, BOOL, "bool", "bool", b8, uint8_t, int64_t, 1, B)                                   \
    X(A, INT32, "int32", "i32", i32, int32_t, int64_t, 4, S)                                 \
    X(A, INT64, "int64", "i64", i64, int64_t, gtc_wide, 8, S)                                \
    X(A, FLOAT32, "float32", "f32", f32, float, float, 4, F)                                 \
    X(A, FLOAT64, "float64", "f64", f64, double, double, 8, F)                               \
    X(A, INT8, "int8", "i8", i8, int8_t, int64_t, 1, S)                                      \
    X(A, UINT8, "uint8", "u8", u8, uint8_t, int64_t, 1, U)                                   \
    X(A, INT16, "int16", "i16", i16, int16_t, int64_t, 2, S)                                 \
    X(A, UINT16, "uint16", "u16", u16, uint16_t, int64_t, 2, U)                              \
    X(A, UINT32, "uint32", "u32", u32, uint32_t, uint64_t, 4, U)                             \
    X(A, UINT64, "uint64", "u64", u64, uint64_t, uint64_t, 8, U)                             \
    X(A, BFLOAT16, "bfloat16", "bf16", bf16, gtc_bf16, float, 2, H)                          \
    X(A, FLOAT16, "float16", "f16", f16, gtc_f16, float, 2, H)

/* Row filters by kind, for X-macros: IR_DT_NUM_##kind(x) keeps x for the numbers (every dtype
 * but bool), IR_DT_FLT_##kind(x) for the floats. */
#define IR_DT_NUM_B(...)
#define IR_DT_NUM_S(...) __VA_ARGS__
#define IR_DT_NUM_U(...) __VA_ARGS__
#define IR_DT_NUM_F(...) __VA_ARGS__
#define IR_DT_FLT_B(...)
#define IR_DT_FLT_S(...)
#define IR_DT_FLT_U(...)
#define IR_DT_FLT_F(...) __VA_ARGS__
#define IR_DT_NUM_H(...) __VA_ARGS__
#define IR_DT_FLT_H(...) __VA_ARGS__
/* IR_DT_VT_##kind(CT, WT): the type a dtype's values have in arithmetic (float for the 2-byte
 * floats, the storage type otherwise) */
#define IR_DT_VT_B(CT, WT) CT
#define IR_DT_VT_S(CT, WT) CT
#define IR_DT_VT_U(CT, WT) CT
#define IR_DT_VT_F(CT, WT) CT
#define IR_DT_VT_H(CT, WT) WT
/* M(args...) after the arguments' own expansion (to splice a parenthesised A into a call) */
#define IR_DT_APPLY(M, ...) M(__VA_ARGS__)

typedef enum {
#define IR_DT_ENUM(ID, name, sh, sfx, CT, WT, size, kind) DT_##ID,
    IR_DTYPES(IR_DT_ENUM)
#undef IR_DT_ENUM
    DT_COUNT
} DType;

const char *ir_dtype_name(DType t);          /* "float32" */
const char *ir_dtype_short(DType t);         /* "f32" (text dump) */
int ir_dtype_from_name(const char *s, DType *out); /* 0 on success, -1 for unknown */
const char *ir_dtype_list(void);             /* "bool, int8, ... float32 or float64" */
DType ir_dtype_sorted(int i);                /* i-th in that order (0 <= i < DT_COUNT) */
size_t ir_dtype_size(DType t);
bool ir_dtype_is_float(DType t);            /* float16 ... float64 */
bool ir_dtype_is_half(DType t);             /* bfloat16, float16: computed in float */
bool ir_dtype_is_int(DType t);               /* any integer dtype (not bool) */
bool ir_dtype_is_unsigned(DType t);          /* uint8 ... uint64 */

/* A tensor's type. `weak` marks a numeric constant from the graph: it takes the dtype of the
 * tensor it meets (`is_int` says whether it was integral: 2 vs 2.5). */
typedef struct {
    DType dtype;
    int rank;
    int64_t dims[IR_MAX_RANK];
    bool weak;
    /* Symbolic dimensions (docs/graph-format.md §3.1): sym[i] = k + 1 when axis i is the graph's
     * symbol k (Graph.syms), a size known only at run time, from 1 to its bound; dims[i] then
     * holds the bound, so sizes, limits and the arena are planned at the bound. 0: static. */
    unsigned char sym[IR_MAX_RANK];
} TensorType;

#define IR_MAX_SYMS 8 /* symbolic dimensions of one graph */

/* A graph's symbolic dimension: its name ("batch") and bound. */
typedef struct {
    char *name;                     /* owned; an identifier */
    int64_t max;                    /* 1 <= max < 2^31 */
} IrSym;

/* Whether t has a symbolic axis. */
bool ir_type_symbolic(const TensorType *t);

int64_t ir_numel(const TensorType *t);       /* product of dims; callers checked the limits */
/* Writes "[512,480]" into buf (a symbolic axis as "<=4096", its bound); returns buf. */
char *ir_shape_str(const TensorType *t, char *buf, size_t n);
bool ir_type_equal(const TensorType *a, const TensorType *b);
/* Same rank and dims (dtypes may differ). */
bool ir_shape_equal(const TensorType *a, const TensorType *b);

/* Promotion of two operand dtypes (weak constants yield to tensors: int tensor with a float
 * constant gives float32; a float tensor with any constant keeps its dtype). Two tensors: NumPy's
 * integer lattice (int8 with uint8 gives int16, uint64 with a signed integer float64), an integer
 * with a float gives that float. */
DType ir_promote(DType a, bool a_weak, DType b, bool b_weak);

/* The .npy (version 1.0) header for an array of `descr` ("<f4") and shape, C order, padded to
 * 64 bytes as np.save writes it, into buf (n >= 640 bytes); returns its length. Shared by the
 * runtime's .npy writer and gtc compile's weights file. */
size_t ir_npy_header(const char *descr, int rank, const int64_t *shape, char *buf, size_t n);

/* NumPy broadcasting of n shapes; -1 with a message in err when they are incompatible. */
int ir_broadcast(const TensorType *const *in, int n, TensorType *out, char *err, size_t errn);

/* ---- ops --------------------------------------------------------------------------------- */

typedef enum {
#define OP(id, name, arity, kind, rule, expr) OP_##id,
#include "ops.def"
#undef OP
    OP_COUNT
} Op;

typedef enum { K_SOURCE, K_ELEMWISE, K_REDUCE, K_MATMUL, K_VIEW, K_INDEX, K_COMPOSITE } OpKind;

typedef enum {
    R_INPUT, R_FULL, R_ARITH, R_DIV, R_CMP, R_SIGNED, R_FLOAT, R_WHERE, R_CLAMP, R_CAST,
    R_ONE_HOT, R_SUM, R_MEAN, R_SAME, R_ARG, R_MATMUL, R_GATHER, R_SCATTER, R_CONCAT,
    R_DROPOUT
} DtRule;

typedef struct {
    const char *name;
    int arity;
    OpKind kind;
    DtRule rule;
    const char *expr;      /* elementwise formula as text, for the code generators */
} OpInfo;

extern const OpInfo ir_ops[OP_COUNT];
int ir_op_from_name(const char *s, Op *out); /* 0 on success; "input" is not a graph op */
const char *ir_kind_name(OpKind k);

/* ---- attributes and nodes ------------------------------------------------------------------ */

/* Attributes; which fields mean something depends on the op (docs/graph-format.md). */
typedef struct {
    bool has_axes;                  /* reductions: false means all axes; slice: false = 0..n-1 */
    int naxes;
    int axes[IR_MAX_RANK];          /* as written (may be negative) */
    bool keepdims;
    int nperm;
    int perm[IR_MAX_RANK];          /* transpose; nperm == 0 means reverse */
    int nshape;
    int64_t shape[IR_MAX_RANK];     /* reshape (one -1 allowed), broadcast_to, full */
    unsigned char shape_sym[IR_MAX_RANK]; /* broadcast_to, full: the symbolic axes of the result
                                     * (TensorType.sym; set by the compiler's passes, shape[i] the
                                     * bound), 0 for static ones */
    int nslice;
    int64_t starts[IR_MAX_RANK], ends[IR_MAX_RANK], steps[IR_MAX_RANK];
    bool has_steps;
    DType dtype;                    /* cast, full, one_hot */
    bool has_dtype;
    bool storage;                   /* cast: one of the pair compiler/pass_bf16.c puts around a
                                     * value it stores in bfloat16 (--precision=bf16); a GEMM folds
                                     * the widening one into a bfloat16 operand */
    double value;                   /* full; pad (default 0) */
    int npads;
    int64_t pads[2 * IR_MAX_RANK];  /* pad: all begins, then all ends (ONNX order) */
    int64_t depth;                  /* one_hot */
    int axis;                       /* gather, scatter_add, concat: as written (may be negative) */
    bool has_axis;                  /* composites: axis given (else the op's default) */
    double epsilon;                 /* layer_norm (default 1e-5 when has_epsilon is false) */
    bool has_epsilon;
    bool approx_tanh;               /* gelu: approximate "tanh" (false: "none", erf) */
    double ratio;                   /* dropout: the probability of dropping, 0 <= ratio < 1 */
    /* conv2d, max_pool2d, avg_pool2d (composites; pads above, 4 entries [top, left, bottom,
     * right]): each list's count as given (0: the default), checked by ir/composite.c */
    int nstrides, ndilations, nkernel;
    int64_t strides[2], dilations[2], kernel[2]; /* kernel: the pools' kernel_shape */
    int64_t group;                  /* conv2d: 0 means the default, 1 */
    bool count_include_pad;         /* avg_pool2d */
} Attrs;

typedef int32_t NodeId;

/* An operand is another node or an inline numeric constant (a weak rank-0 value). */
typedef struct {
    NodeId id;                      /* -1 for a constant */
    double value;
} Operand;

/* What an input the autodiff pass adds for the optimizer is (compiler/optim.c), so that a
 * compiled model can own it (RtPlanIO.state, runtime/php/plan_state.c): a buffer that starts at
 * zero and is updated in place (momentum, AdamW's moments), or AdamW's step counter t (a rank-0
 * input, 1 on the first update; the output of its name is t + 1). */
typedef enum { IR_STATE_NONE, IR_STATE_ZEROS, IR_STATE_STEP } IrInputState;

/* A node is its output tensor. Graph inputs are nodes of op OP_INPUT. */
typedef struct {
    char *name;                     /* owned; an identifier */
    Op op;
    int ninputs;
    Operand in[IR_MAX_INPUTS];
    Attrs attrs;
    TensorType type;                /* filled by ir_infer (inputs: from the file) */
    int input_index;                /* OP_INPUT: position among the graph's inputs */
    int state;                      /* OP_INPUT: IR_STATE_* (optimizer state), else IR_STATE_NONE */
    char loc[48];                   /* where it came from: "nodes[3]" or "12:5" */
} Node;

typedef struct {
    char *name;                     /* output name (key in "outputs") */
    NodeId value;
} Output;

typedef struct {
    NodeId value;                   /* a value named by an output */
    NodeId input;                   /* the input whose buffer it reuses */
} Donation;

/* The optional "train" section (docs/graph-format.md): what compiler/pass_autodiff.c derives.
 * Read by ir/json_read.c; the autodiff pass consumes it (and frees it: g->train becomes NULL). */
typedef enum { OPT_SGD, OPT_ADAMW, OPT_ADAM } OptimizerType; /* OPT_ADAM: Cuda\Optimizer only (L2 decay) */

typedef struct {
    NodeId loss;                    /* the scalar value to minimise */
    int nparams;
    NodeId *params;                 /* owned; inputs, in the order written */
    int nstop;
    NodeId *stop;                   /* owned; "stop_gradient": values treated as constants */
    OptimizerType opt;
    char *lr_name;                  /* owned; a rank-0 input (created when absent), or NULL */
    double lr;                      /* when lr_name is NULL */
    double momentum, weight_decay;  /* sgd: momentum 0 = none; both: weight decay */
    double clip_value, clip_norm;   /* sgd: 0 = none */
    double beta1, beta2, eps;       /* adamw */
    /* Cuda\Optimizer's (runtime/php/optimizer.c) choices; the JSON "train" section leaves them
     * false/NULL, so compiled graphs are as before. */
    bool nesterov;                  /* sgd with momentum: Nesterov's update */
    bool beta_powers;               /* adam(w): the state holds beta1^t and beta2^t, not a step count */
    bool *no_decay;                 /* owned; per param, true: no weight decay (NULL: all decay) */
} Train;

typedef struct {
    char *name;
    Node *nodes;                    /* topological order once loaded */
    int nnodes, cap;
    Output *outputs;
    int noutputs;
    Donation *donations;
    int ndonations;
    int ninputs;
    struct Plan *plan;              /* the compiler's fusion plan, if built (compiler/plan.h) */
    void (*free_plan)(struct Plan *);
    Train *train;                   /* owned; the "train" section until autodiff consumes it */
    bool data_parallel;             /* a compiler option, not the file's: the plan averages the
                                     * parameter gradients across ranks (docs/distributed.md) */
    int nsyms;                      /* symbolic dimensions ("dims"), referred to by TensorType.sym */
    IrSym syms[IR_MAX_SYMS];
} Graph;

Graph *graph_new(const char *name);
void graph_free(Graph *g);
void train_free(Train *t);
/* ir_shape_str with each symbolic axis as its name in g: "[batch,480]". */
char *ir_graph_shape_str(const Graph *g, const TensorType *t, char *buf, size_t n);
/* Replaces dst's symbolic dimensions by copies of src's (a graph rebuilt from another). */
void graph_copy_syms(Graph *dst, const Graph *src);
/* Appends a node (name copied); returns its id or -1 when the graph is full. */
NodeId graph_add(Graph *g, const char *name, Op op);
NodeId graph_find(const Graph *g, const char *name); /* -1 when absent */
/* Appends output `name` (copied) for value v (aborts when out of memory). */
void graph_add_output(Graph *g, const char *name, NodeId v);
/* A node's operand type: the node's type, or a weak rank-0 constant's. */
TensorType graph_operand_type(const Graph *g, const Operand *o);
bool ir_is_identifier(const char *s);
/* Shortest "%.Ng" text that reads back as the same double ("0.5", "512", "1e-08"). */
char *ir_fmt_number(double v, char *buf, size_t n);
/* ir/text.c: the byte length of a character a message must not show raw (a control character,
 * or an invisible format character such as U+202E RIGHT-TO-LEFT OVERRIDE) at s, with its code
 * point in *cp; 0 for any other character. */
int ir_invisible_at(const char *s, unsigned *cp);
/* s into out (n bytes, always terminated, cut at a character) with each such character as
 * "\x1b" (ASCII) or "\u202e", and each byte that starts no well-formed UTF-8 character as
 * "\xff", so the result is valid UTF-8 (keep_lines: newlines and tabs as they are, for
 * multi-line text such as a compiler's log); returns the length written. */
size_t ir_escape_invisible(const char *s, char *out, size_t n, bool keep_lines);

/* A name → id hash map (names borrowed, not copied). */
typedef struct {
    const char **keys;
    NodeId *vals;
    size_t cap, len;
} NameMap;
void namemap_init(NameMap *m);
void namemap_free(NameMap *m);
NodeId namemap_get(const NameMap *m, const char *key); /* -1 when absent */
void namemap_put(NameMap *m, const char *key, NodeId v); /* replaces */

/* ---- diagnostics ----------------------------------------------------------------------------- */

/* The first error of a run: "FILE: LOC "name" (op): message". */
typedef struct {
    const char *file;               /* borrowed; as the user named it */
    int nerrors;
    char msg[1024];
} Diag;

void diag_init(Diag *d, const char *file);
/* An error at a node (its loc, name and op are prefixed). Only the first error is kept. */
void diag_node(Diag *d, const Node *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* An error at a place given as text ("inputs[2].shape", "3:14"; NULL for the file itself). */
void diag_at(Diag *d, const char *loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ---- inference and verification ------------------------------------------------------------ */

/* The output type of `op` over operand types `in` with attributes `a`; -1 with a message
 * (without location) in err. Shared by the compiler and the runtime's eager ops. */
int ir_infer_op(Op op, const TensorType *in, int nin, const Attrs *a, TensorType *out,
                char *err, size_t errn);
/* Checks a type against the limits (rank, dimension range, total bytes). */
int ir_check_type(const TensorType *t, char *err, size_t errn);
/* The dtype an op's formula is evaluated in, given its operand and output types: the output's,
 * except comparisons (the promoted operands'), where's condition (bool), one_hot's indices and
 * arg-reductions (the input's). For where, the dtype of operands 1 and 2. */
DType ir_compute_dtype(Op op, const TensorType *in, int nin, const TensorType *out);
/* Normalises reduction axes (negative → positive, absent → all) into a bit mask. */
int ir_reduce_mask(const Attrs *a, int rank, unsigned *mask, char *err, size_t errn);

/* Normalises slice attributes against a shape, ONNX-style (negative indices count from the
 * end; out-of-range bounds clamp): per input axis the first index, step and result size. */
int ir_slice_normalize(const TensorType *in, const Attrs *a, int64_t start[], int64_t step[],
                       int64_t size[], char *err, size_t errn);
/* Per-axis selections (php-gpu-tensors' slice(); ir/select.c). Each appends a slot for axis ax
 * to a's slice lists (axes in increasing order, each once) and returns -1 with the message in
 * err. An index (negative from the end) must be in range; it selects one element and sets bit ax
 * in *drop (the caller reshapes those axes away). A range takes start, end and step, NULL for
 * not given (Python's defaults for the step's sign), read as Python reads them (a[-4::-1] of 3
 * elements is empty, where ONNX would take one); a step of 0 is an error. */
int ir_select_index(Attrs *a, const TensorType *t, int ax, int64_t k, unsigned *drop, char *err, size_t errn);
int ir_select_range(Attrs *a, const TensorType *t, int ax, const int64_t *start, const int64_t *end, const int64_t *step,
                    char *err, size_t errn);
/* Python-style slice text: with axis -1 a whole spec ("1:3, ::2, -1, ..."), else one axis's
 * selector ("1:3", "::2", "-1") for that axis. len excludes the terminating NUL. */
int ir_select_text(const char *spec, size_t len, int axis, const TensorType *t, Attrs *a, unsigned *drop, char *err,
                   size_t errn);

/* squeeze's and unsqueeze's result shapes (ir/select.c; NumPy's np.squeeze and np.expand_dims):
 * squeeze drops the listed axes (negative from the end), each of size 1, or with axes NULL
 * every axis of size 1; unsqueeze inserts a size-1 axis at `axis` (from -rank-1 to rank). Each
 * returns the new rank, or -1 with the message in err. */
int ir_squeeze_shape(int rank, const int64_t *dims, const int64_t *axes, int naxes, int64_t *out, char *err,
                     size_t errn);
int ir_unsqueeze_shape(int rank, const int64_t *dims, int64_t axis, int64_t *out, char *err, size_t errn);

/* NumPy's casting rules (np.can_cast) for astype: no and equiv allow only the same dtype, safe
 * keeps every value, same_kind also allows narrowing within a kind (bool < int < float), unsafe
 * allows anything. */
typedef enum { IR_CAST_NO, IR_CAST_EQUIV, IR_CAST_SAFE, IR_CAST_SAME_KIND, IR_CAST_UNSAFE } IrCasting;
int ir_casting_from_name(const char *s, IrCasting *out); /* 0, or -1 for an unknown name */
const char *ir_casting_name(IrCasting c);
bool ir_can_cast(DType from, DType to, IrCasting c);

/* The fewest operands op takes: its arity, or 2 for conv2d (whose bias is optional). */
int ir_min_arity(Op op);
/* Whether op takes nin operands; the message ("takes 2 operands, got 3") in err when not. */
bool ir_arity_ok(Op op, int nin, const char *noun, char *err, size_t errn);
/* The axis of gather/scatter_add/concat normalised against the data's rank (negative counts from the
 * end); -1 with a message when it is out of range. */
int ir_index_axis(const Attrs *a, int rank, int *axis, char *err, size_t errn);
/* The permutation of a transpose (nperm == 0 reverses the axes). */
int ir_transpose_perm(const Attrs *a, int rank, int perm[], char *err, size_t errn);

/* Checks the graph's structure (arity, ids, names, outputs, donations) and infers every node's
 * type in order. Returns 0 or -1 with the first error in d. */
int ir_verify(Graph *g, Diag *d);
/* ir_verify's check of node id alone (its operands typed before it): arity, operands, and its
 * type inferred into the node. For a front-end that needs a type while building the graph. */
int ir_verify_node(Graph *g, NodeId id, Diag *d);

/* ---- composite ops (ir/composite.c) ---------------------------------------------------------- */

/* Appends the primitives that composite op `op` (kind K_COMPOSITE: softmax, log_softmax,
 * layer_norm, gelu, cross_entropy, conv2d, max_pool2d, avg_pool2d) stands for to g, over operands in (typed nodes of g or
 * constants) with attributes a; the last node is named `name` (intermediates "name__what") and
 * every node gets loc. Returns the last node's id, or -1 with the message (no location) in err.
 * The one decomposition: the JSON reader, the PHP front-end and the eager methods all use it. */
NodeId ir_expand_composite(Graph *g, Op op, const Operand *in, int nin, const Attrs *a, const char *name,
                           const char *loc, char *err, size_t errn);
/* Replaces every composite node of a sorted, unverified graph (the JSON reader's) by its
 * primitives, typing the nodes before it on the way (ir_verify_node); the outputs, donations and
 * train section must not be read yet (they are resolved by name afterwards). 0, or -1 with d. */
int ir_expand_composites(Graph **g, Diag *d);

/* ---- text and JSON ------------------------------------------------------------------------- */

void ir_dump(const Graph *g, FILE *f);
/* Reads a v1 graph from memory; NULL with the error in d. The result is verified. */
Graph *ir_read_json(const char *text, size_t len, Diag *d);
Graph *ir_read_json_file(const char *path, Diag *d);
/* Reads a "train" section (a cJSON object, as in a graph file) onto g, a graph already read and
 * verified: sets g->train, or returns -1 with the JSON reader's message ("train.loss: ...") in d
 * and g->train as it was. ir_read_json and the PHP front-end's #[Gtc\Train] both go through it. */
struct cJSON;
int ir_read_train(Graph *g, const struct cJSON *train, Diag *d);
/* Reads a whole regular file of at most IR_MAX_FILE_BYTES (NUL-terminated; *len excludes the
 * NUL); NULL with the reason in d. Every front-end reads its input through it. */
char *ir_read_file(const char *path, size_t *len, Diag *d);
/* Writes the graph as canonical v1 JSON; returns a malloc'd string. */
char *ir_write_json(const Graph *g);

#endif
