/* runtime/core/rt.h: libgtcrt's C API (no PHP): tensors over reference-counted storage, the
 * backend interface, memory accounting, errors, and the one entry point for every op.
 *
 * Ownership: functions returning RtTensor* return a new reference (refcount 1) the caller must
 * rt_release; arguments are borrowed. Views share storage with their base (storage refcount). */
#ifndef GTC_RT_H
#define GTC_RT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../ir/ir.h"

/* ---- errors: the last error of the process (PHP runs one request per thread) -------------- */

/* RT_EUNSUPPORTED: the backend has no way to do what was asked (a plan with no kernels for it
 * and no compiler to build them); callers may fall back (the JIT evaluates op by op). */
typedef enum { RT_OK = 0, RT_EINVAL, RT_ERUNTIME, RT_EOOM, RT_ECOMPILE, RT_EUNSUPPORTED } RtStatus;

/* Records an error and returns -1 (so `return rt_error(...)` reads naturally). */
int rt_error(RtStatus st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
RtStatus rt_status(void);
const char *rt_message(void);
void rt_clear_error(void);

/* ---- storage, tensors, backends ----------------------------------------------------------- */

typedef struct RtBackend RtBackend;
/* A device as the driver describes it: what code generation needs (the JIT's target,
 * compiler/target.h) and what cuda_get_device_info() reports. */
typedef struct {
    char name[256];
    int sms, cc_major, cc_minor;
    int smem_block;   /* shared memory one block may opt into, bytes */
    int smem_sm;      /* shared memory per SM, bytes */
    size_t total_mem; /* global memory, bytes */
} RtDeviceInfo;
/* A 2-D convolution's window, defaults filled in (ONNX Conv's attributes): pads as [top, left,
 * bottom, right]. */
typedef struct {
    int64_t stride[2], pad[4], dilation[2], group;
} RtConvWindow;
typedef struct RtPlanOps RtPlanOps;     /* plan.h: how a backend runs a plan */
typedef struct RtModuleOps RtModuleOps; /* module.h: user kernels compiled at run time */
typedef struct RtDistOps RtDistOps;     /* dist.h: collectives across the ranks of a world */

typedef struct {
    int refcount;
    const RtBackend *backend;
    void *data;
    size_t bytes;
} RtStorage;

typedef struct {
    int refcount;
    DType dtype;
    int rank;
    int64_t shape[IR_MAX_RANK];
    int64_t strides[IR_MAX_RANK];   /* in elements; 0 on broadcast axes; may be negative */
    int64_t offset;                 /* in elements from storage->data */
    RtStorage *storage;
} RtTensor;

/* What a backend implements. Kernels receive validated operands: shapes agree (operands are
 * already broadcast views of out's shape), dtypes are the op's compute dtype (ir_compute_dtype),
 * and `out` is freshly allocated and contiguous. Each returns 0, or -1 after rt_error. */
struct RtBackend {
    const char *name;               /* "cpu", "cuda" */
    void *(*alloc)(size_t bytes);   /* NULL when the device has no memory left */
    void (*free)(void *p);
    int (*upload)(void *dst, const void *src, size_t bytes);   /* host → backend */
    int (*download)(void *dst, const void *src, size_t bytes); /* backend → host */
    /* out = convert(in): any strided view in, any dtype pair (saturating casts, see scalar.h) */
    int (*copy)(RtTensor *out, const RtTensor *in);
    int (*fill)(RtTensor *out, double value);
    /* out = op(in[0..nin)) for elementwise ops; one_hot reads a->depth */
    int (*elementwise)(Op op, RtTensor *out, RtTensor *const *in, int nin, const Attrs *a);
    /* out = reduce(in) over the axes in mask; out has keepdims shape (reduced axes are 1) */
    int (*reduce)(Op op, RtTensor *out, const RtTensor *in, unsigned mask);
    /* out[..., m, n] = a[..., m, k] @ b[..., k, n]; batch axes already broadcast to out's */
    int (*matmul)(RtTensor *out, const RtTensor *a, const RtTensor *b);
    void (*synchronize)(void);
    /* true: work is queued and finishes later (a GPU stream); false: done when the call returns */
    bool async;
    /* ---- devices: all NULL on a backend with nothing to set up (the CPU) ---- */
    int (*device_count)(void);                        /* visible devices; 0 without a driver */
    int (*init)(int device, char *err, size_t errn);  /* 0, or -1 with the reason in err */
    bool (*ready)(void);                              /* after a successful init */
    int (*device_index)(void);                        /* the selected device, -1 before init */
    const char *(*device_name)(void);                 /* "NVIDIA H200" */
    void (*shutdown)(void);
    int (*mem_info)(size_t *free_bytes, size_t *total_bytes); /* the driver's view */
    void (*mem_stats)(size_t *in_use, size_t *cached, size_t *mallocs); /* the allocator's */
    /* device: an index, or -1 for the selected one (needs init); any visible device otherwise.
     * 0, or -1 after rt_error */
    int (*device_info)(int device, RtDeviceInfo *out);
    int (*versions)(int *driver, int *runtime);     /* 1000*major + 10*minor; 0, or -1 */
    int (*peer_access)(int device, int peer);       /* 1 can access, 0 cannot, -1 after rt_error */
    size_t (*empty_cache)(void); /* returns cached free blocks to the driver; the bytes freed */
    /* float32 matmul (eager) on TF32 tensor cores (on) or strict FP32 (off, the default); NULL:
     * the backend has strict FP32 only */
    void (*set_tf32)(bool on);
    bool (*tf32)(void);
    const RtPlanOps *plan;      /* runs compiled plans (plan.h); every backend has one */
    const RtModuleOps *modules; /* user kernels from source (module.h); NULL: not offered */
    /* ---- index-mapped ops (rt_apply has checked and normalised the indices on the host) ----
     * Views as [pre, n, post] around the axis: idx holds k int64 values in [0, n), contiguous.
     * gather: out[p, i, q] = data[p, idx[i], q] (data and out contiguous, any dtype).
     * scatter_add: out[p, idx[i], q] += upd[p, i, q] (out already holds data; out and upd
     * contiguous, one dtype: int32, int64, float32 or float64; repeated indices accumulate). */
    int (*gather)(RtTensor *out, const RtTensor *data, const RtTensor *idx, int64_t pre, int64_t n, int64_t post);
    int (*scatter_add)(RtTensor *out, const RtTensor *idx, const RtTensor *upd, int64_t pre, int64_t n, int64_t post);
    /* rows times: width bytes from src to dst, the rows dpitch and spitch bytes apart (concat
     * writes each operand's [pre, d*post] block into the result's rows this way) */
    int (*copy_rows)(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t rows);
    /* dropout: out[i] = x[i] * (T)(1/(1-ratio)) where gtc_dropout_keep(i, seed, ratio), else 0
     * (ir/scalar.h); out and x contiguous, one dtype, float32 or float64 */
    int (*dropout)(RtTensor *out, const RtTensor *x, uint64_t seed, double ratio);
    const char *gemm;           /* the library behind eager matmul: "openblas", "cublas" */
    /* ---- a library convolution for the eager conv2d (NULL: none; runtime/cuda/cuda_cudnn.cu) ----
     * *out = conv2d(x, w) + b (b may be NULL) for NCHW float32 operands already checked by
     * rt_conv2d_library, o the output shape: 1 when done (*out set, or NULL after rt_error), 0
     * when the backend declines the shape (too small to pay, not supported, library missing) */
    int (*conv2d)(RtTensor **out, const RtTensor *x, const RtTensor *w, const RtTensor *b,
                  const RtConvWindow *p, const int64_t *o);
    /* "cuDNN 9.19.0", or "none (why)", in buf */
    const char *(*conv_library)(char *buf, size_t n);
    const RtDistOps *dist;      /* collectives across ranks (dist.h: NCCL on CUDA); NULL: none */
};

extern const RtBackend rt_cpu_backend;
/* The CPU backend's threads and BLAS (runtime/cpu/cpu_threads.c, docs/cpu.md): one thread count
 * for the eager loops, the generated kernels and OpenBLAS: GTC_CPU_THREADS, else gtc.cpu_threads
 * (rt_cpu_set_threads), else the physical cores. rt_cpu_init (once; every other call makes it)
 * also corrects OpenBLAS's kernel where it fell back to a generic one. */
void rt_cpu_init(void);
int rt_cpu_threads(void);
int rt_cpu_physical_cores(void);
int rt_cpu_threads_parse(const char *s, int *n, char *err, size_t errn);
int rt_cpu_set_threads(const char *value, const char *source, char *err, size_t errn);
const char *rt_cpu_threads_error(void);
bool rt_cpu_blas_tune(void);
int rt_cpu_blas_select_core(const char *core);
const char *rt_cpu_blas_info(char *buf, size_t n);
/* Every backend this build has, in order of preference for "auto" (the last one that has a
 * device wins over the CPU), NULL-terminated: runtime/backends.c, one row per backend. */
extern const RtBackend *const rt_backends[];
/* The backend named `name` ("cpu", "cuda"), or NULL when this build has none of that name. */
const RtBackend *rt_backend_find(const char *name);
/* The default backend for new tensors (cpu unless a GPU backend was selected). */
const RtBackend *rt_default_backend(void);
void rt_set_default_backend(const RtBackend *b);

/* ---- memory accounting ---------------------------------------------------------------------- */

void rt_set_memory_limit(size_t bytes); /* 0 = unlimited */
size_t rt_memory_limit(void);
size_t rt_memory_used(void);
size_t rt_memory_peak(void);

/* ---- tensor life cycle ---------------------------------------------------------------------- */

RtTensor *rt_empty(const RtBackend *b, DType dt, int rank, const int64_t *shape);
RtTensor *rt_full(const RtBackend *b, DType dt, int rank, const int64_t *shape, double value);
/* Uniform [0, 1) floats (or 0/1 for bool, [0, 2^31) for ints) from a seeded generator on the
 * host, so every backend gets the same numbers for the same seed. */
RtTensor *rt_rand(const RtBackend *b, DType dt, int rank, const int64_t *shape, uint64_t seed);
/* The same generator (splitmix64 on the host, so every backend gets the same values): standard
 * normal floats (Box-Muller), uniform integers in [low, high) of an integer dtype, and a random
 * permutation of 0 .. n-1 (int64, Fisher-Yates). NULL after rt_error (bad dtype or range). */
RtTensor *rt_randn(const RtBackend *b, DType dt, int rank, const int64_t *shape, uint64_t seed);
RtTensor *rt_randint(const RtBackend *b, DType dt, int rank, const int64_t *shape, int64_t low, int64_t high,
                     uint64_t seed);
RtTensor *rt_permutation(const RtBackend *b, int64_t n, uint64_t seed);
/* The same permutation in host memory (malloc'd, n int64; NULL after rt_error). */
int64_t *rt_permutation_host(int64_t n, uint64_t seed);
/* Copies `data` (contiguous, C order, dtype dt) into a new tensor. */
RtTensor *rt_from_host(const RtBackend *b, DType dt, int rank, const int64_t *shape, const void *data);
/* Copies `data` (contiguous, dtype hdt) into a new tensor of dtype dt on b, converting as rt_cast
 * does (values computed on the host in a wide type: arange, linspace, the random factories). */
RtTensor *rt_from_host_cast(const RtBackend *b, DType dt, DType hdt, int rank, const int64_t *shape, const void *data);
/* Writes the tensor's elements, C order, contiguous, into dst (rt_nbytes bytes). */
int rt_to_host(const RtTensor *t, void *dst);
/* A new contiguous tensor with t's values on backend b (a copy even when b is t's backend). */
RtTensor *rt_to_backend(const RtTensor *t, const RtBackend *b);
RtTensor *rt_retain(RtTensor *t);
void rt_release(RtTensor *t);
/* A contiguous copy of any view (same dtype), or a converted one (rt_cast). */
RtTensor *rt_contiguous(RtTensor *t);
RtTensor *rt_cast(RtTensor *t, DType dt);
/* Writes src's values into dst (same shape; src converted to dst's dtype). dst may be any view
 * but one that repeats elements (a broadcast view); src may overlap it. */
int rt_assign(RtTensor *dst, const RtTensor *src);
/* Whether a view repeats elements (stride 0 on an axis longer than 1: broadcast views). */
bool rt_repeats_elements(const RtTensor *t);

int64_t rt_numel(const RtTensor *t);
size_t rt_nbytes(const RtTensor *t);
bool rt_is_contiguous(const RtTensor *t);
TensorType rt_type(const RtTensor *t);
void rt_contiguous_strides(int rank, const int64_t *shape, int64_t *strides);
/* The address of element 0 of the view (storage data + offset). */
void *rt_data(const RtTensor *t);

/* ---- ops --------------------------------------------------------------------------------------- */

/* An operand: a tensor, or (t == NULL) a weak numeric scalar; is_float marks a scalar that was
 * written as a float (PHP's 2.0), which lifts an int tensor to float32 even when integral. */
typedef struct {
    RtTensor *t;
    double value;
    bool is_float;
} RtOperand;

/* Applies any graph op (ops.def) eagerly with the IR's shape and dtype rules: elementwise ops
 * broadcast and promote, reductions take a->axes/keepdims, views return views sharing storage
 * (reshape copies when the input is not contiguous), matmul goes to the backend's GEMM.
 * Operands must live on one backend. Returns a new tensor or NULL after rt_error. */
RtTensor *rt_apply(Op op, const RtOperand *in, int nin, const Attrs *a);
/* A composite op (softmax, layer_norm, ...: K_COMPOSITE) through its primitives: the
 * expansion of ir_expand_composite over inputs typed like `in`, each primitive applied with
 * `apply` in order (rt_apply itself, or the PHP layer's, which records them while tracing).
 * rt_apply calls it for composite ops. NULL after rt_error. */
typedef RtTensor *(*RtApplyFn)(Op op, const RtOperand *in, int nin, const Attrs *a);
RtTensor *rt_apply_composite(Op op, const RtOperand *in, int nin, const Attrs *a, RtApplyFn apply);
/* conv2d (inputs x, w[, b], ONNX attributes) through the backend's library convolution when the
 * operands are what it takes (one backend with a conv2d hook; float32, contiguous; a valid
 * geometry) and the backend wants the shape: 1 with *out (NULL after rt_error), 0 declined —
 * the caller then runs gtc's own convolution, whose messages say what is wrong with bad input. */
int rt_conv2d_library(const RtOperand *in, int nin, const Attrs *a, RtTensor **out);
/* Evaluating a graph eagerly, op by op (the JIT's fallback, values read while tracing,
 * Cuda\Optimizer's eager step): rt_eval_node applies one node to the values v[] of its operand
 * nodes; rt_eval_graph computes every node whose v[i] is still NULL, in order (the caller sets
 * the inputs' values; on failure the values computed so far stay in v for the caller to
 * release). NULL / -1 after rt_error. */
RtTensor *rt_eval_node(const Node *nd, RtTensor *const *v);
int rt_eval_graph(const Graph *g, RtTensor **v);


/* ---- .npy (format versions 1.0, 2.0 and 3.0 as np.load reads them; runtime/core/npy.c) ------ */

/* What an .npy header says, checked against gtc's dtypes and limits. */
typedef struct {
    DType dtype;
    int rank;
    int64_t shape[IR_MAX_RANK];
    bool fortran_order, big_endian;
    size_t data_offset; /* where the data starts */
    size_t data_bytes;  /* what the shape needs; bytes after them are ignored, as np.load does */
} RtNpyHeader;
/* The most bytes a header that can be read spans (magic, length and 10000 UTF-8 characters). */
#define RT_NPY_HEADER_MAX (12 + 4 * 10000)

/* Parses the magic, version and header dict of an .npy image of len bytes (the data need not
 * follow); 0, or -1 after rt_error. */
int rt_npy_header(const void *buf, size_t len, RtNpyHeader *h);
/* Reads an .npy image from memory into a tensor on backend b. */
RtTensor *rt_npy_read(const RtBackend *b, const void *buf, size_t len);
/* Encodes t as .npy (version 1.0, or 2.0 when the header needs it); *out is malloc'd. */
int rt_npy_write(const RtTensor *t, char **out, size_t *len);

#endif
