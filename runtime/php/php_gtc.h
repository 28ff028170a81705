/* runtime/php/php_gtc.h: the gtc PHP extension's shared declarations: module globals, class
 * entries, the tensor-holding object, and helpers shared by the extension's files.
 *
 * Ownership: a php_gtc_array owns one reference to its RtTensor (NULL until initialised);
 * php_gtc_wrap() takes over the caller's reference. */
#ifndef PHP_GTC_H
#define PHP_GTC_H

#ifndef COMPILE_DL_GTC
#define COMPILE_DL_GTC 1 /* always built as a shared extension */
#endif

#include "php.h"

#include "../core/rt.h"

#define PHP_GTC_VERSION GTC_VERSION

extern zend_module_entry gtc_module_entry;
#define phpext_gtc_ptr &gtc_module_entry

ZEND_BEGIN_MODULE_GLOBALS(gtc)
    char *device;          /* gtc.device: auto, cpu, cuda, cuda:N */
    zend_long memory_limit; /* gtc.memory_limit in bytes; 0 = unlimited */
    const char *last_matmul; /* the library of the last eager matmul (cuda_get_backend_info) */
ZEND_END_MODULE_GLOBALS(gtc)

ZEND_EXTERN_MODULE_GLOBALS(gtc)
#define GTC_G(v) ZEND_MODULE_GLOBALS_ACCESSOR(gtc, v)

#if defined(ZTS) && defined(COMPILE_DL_GTC)
ZEND_TSRMLS_CACHE_EXTERN()
#endif

/* Class entries (registered in gtc_module.c). */
extern zend_class_entry *php_gtc_ce_Exception;
extern zend_class_entry *php_gtc_ce_InvalidArgumentException;
extern zend_class_entry *php_gtc_ce_RuntimeException;
extern zend_class_entry *php_gtc_ce_OutOfMemoryException;
extern zend_class_entry *php_gtc_ce_CompilationException;
extern zend_class_entry *php_gtc_ce_CudaArray;
extern zend_class_entry *php_gtc_ce_HostArray;
extern zend_class_entry *php_gtc_ce_Compiler;
extern zend_class_entry *php_gtc_ce_Fusion;
extern zend_class_entry *php_gtc_ce_FusionGraph;
extern zend_class_entry *php_gtc_ce_FusionExecution;

/* The object behind Cuda\CudaArray and Cuda\HostArray. */
typedef struct _php_gtc_array {
    RtTensor *t;
    zend_object std;
} php_gtc_array;

static inline php_gtc_array *php_gtc_array_from_obj(zend_object *obj) {
    return (php_gtc_array *)((char *)(obj) - XtOffsetOf(php_gtc_array, std));
}
#define Z_GTC_ARRAY_P(zv) php_gtc_array_from_obj(Z_OBJ_P(zv))

/* The object life cycle shared by both classes (cudaarray.c): create with a class's handlers,
 * free (releases the tensor), clone (an independent contiguous copy). */
zend_object *php_gtc_array_create(zend_class_entry *ce, const zend_object_handlers *h);
void php_gtc_array_free(zend_object *obj);
zend_object *php_gtc_array_clone(zend_object *old);

/* Object handlers set-up, called from MINIT after the classes are registered. */
void php_gtc_cudaarray_minit(zend_class_entry *ce);
void php_gtc_hostarray_minit(zend_class_entry *ce);

/* cudaarray.c: a local regular file opened for reading (its size in *size) or writing (created
 * or truncated) with stream wrappers, open_basedir escapes, FIFOs and devices refused; the
 * descriptor, or -1 after throwing (messages start with fn). write_full: every byte or false. */
/* cudaarray.c: whether a new tensor of this dtype and shape is within the limits; false after
 * throwing Cuda\InvalidArgumentException. */
bool php_gtc_check_shape(DType dt, int rank, const int64_t *shape);
int php_gtc_open_regular_file(const char *fn, const char *path, bool write, size_t *size);
bool php_gtc_write_full(int fd, const void *buf, size_t n);
/* cudaarray_npz.c: .npz archives (NumPy's np.savez). save: n tensors under names (".npy" is
 * added to each member's name); load: rv = name => Cuda\CudaArray on the current device. Both
 * false after throwing, messages starting with fn. */
bool php_gtc_npz_save(const char *fn, const char *path, zend_string *const *names, RtTensor *const *ts, uint32_t n,
                      bool compress);
bool php_gtc_npz_load(const char *fn, const char *path, zval *rv);

/* ---- exceptions.c ---- */
/* Throws the Cuda\... exception that matches a status, with a printf message. */
void php_gtc_throw(RtStatus st, const char *fmt, ...) ZEND_ATTRIBUTE_FORMAT(printf, 2, 3);
/* Throws the runtime's last error (rt_status/rt_message) and clears it. */
void php_gtc_throw_rt(void);
/* A name from PHP must not hold a NUL byte (read as a C string it would end there); false after
 * throwing Cuda\InvalidArgumentException naming `what` ("input name"). */
bool php_gtc_no_nul(const zend_string *s, const char *what);

/* ---- gtc_module.c ---- */
/* The backend new tensors go to (gtc.device, GTC_DEVICE); NULL after throwing. */
const RtBackend *php_gtc_backend(void);
/* "cpu" or "cuda:N" for the tensor's storage (buf holds the text when needed). */
const char *php_gtc_device_name(const RtTensor *t, char *buf, size_t n);
/* The CUDA backend, set up, for work that needs a GPU whatever the default backend is (custom
 * kernels): gtc.device / GTC_DEVICE cuda:N picks device N, anything else device 0. NULL with the
 * reason in why ("no CUDA device is available ..."); throws nothing. */
const RtBackend *php_gtc_device_backend(char *why, size_t n);
/* The CUDA row of the backend table, or NULL in a build without it (never initialises). */
const RtBackend *php_gtc_cuda_backend(void);
/* The device asked for: GTC_DEVICE, else gtc.device ("auto", "cpu", "cuda", "cuda:N"). */
const char *php_gtc_requested_device(void);
/* The CUDA device index gtc.device / GTC_DEVICE names (cuda:N), else 0. */
int php_gtc_requested_device_index(void);
/* Selects CUDA device index for this process (once: a later, different index fails). 0, or -1
 * with the reason in why; throws nothing. */
int php_gtc_select_device(int index, char *why, size_t n);

/* ---- kernel_compiler.c: Cuda\Compiler (user kernels, the device backend's modules) ---- */
void php_gtc_compiler_minit(zend_class_entry *ce);
/* ---- batches.c ---- */
extern zend_class_entry *php_gtc_ce_Batches;
void php_gtc_batches_minit(zend_class_entry *ce);
/* ---- distributed.c: Cuda\Distributed ---- */
/* phpinfo()'s NCCL line: "2.28.9 (libnccl.so.2)" or "not available: <why>", in buf. */
const char *php_gtc_nccl_info(char *buf, size_t n);
/* NVRTC's version as "major.minor" in buf, or NULL when NVRTC is not linked. */
const char *php_gtc_nvrtc_version(char *buf, size_t n);

/* ---- cudaarray.c ---- */
/* Wraps a tensor (reference taken over) in a new object of class ce; a NULL t throws the
 * runtime's error and leaves rv undefined. Returns false when it threw. */
bool php_gtc_wrap(zval *rv, zend_class_entry *ce, RtTensor *t);
/* The tensor of an object, or NULL after throwing Error when it is not initialised. */
RtTensor *php_gtc_tensor(zend_object *obj);
/* Returns a new CudaArray wrapping t (NULL: throws the runtime's error). */
#define RETURN_TENSOR(t)                                                             \
    do {                                                                             \
        if (!php_gtc_wrap(return_value, php_gtc_ce_CudaArray, (t))) RETURN_THROWS(); \
        return;                                                                      \
    } while (0)
#define GTC_THIS_TENSOR(var)                                     \
    RtTensor *var = php_gtc_tensor(Z_OBJ_P(ZEND_THIS));          \
    if (!var) RETURN_THROWS()

/* Packed little-endian values (C order, bools as 0/1 bytes) as a tensor on b; NULL after throwing. */
RtTensor *php_gtc_from_bytes(const RtBackend *b, DType dt, int rank, const int64_t *shape, const char *bytes);
/* fromBuffer's arguments ($bytes, $shape as argument 2, $dtype as 3) as a tensor on b: the size
 * must be exactly what shape and dtype need. NULL after throwing. */
RtTensor *php_gtc_buffer_args(const RtBackend *b, zend_string *bytes, HashTable *shape_ht, zend_string *dtype_name);
/* toBuffer(): the values packed into a new PHP string in rv; false after throwing. */
bool php_gtc_to_bytes(const RtTensor *t, zval *rv);

/* t's values on backend b as a new contiguous tensor (NULL after rt_error). */
RtTensor *php_gtc_to_backend(const RtTensor *t, const RtBackend *b);

/* ---- cudaarray_ops.c: helpers shared with cudaarray_index.c ---- */
/* A reshape to an explicit shape through php_gtc_apply (traced); NULL after rt_error. */
RtTensor *php_gtc_reshape_to(RtTensor *t, int rank, const int64_t *shape);
/* An axis from PHP as an int; anything outside int's range is out of range for any rank (false
 * after throwing; what names the op). */
bool php_gtc_axis_to_int(int64_t v, int rank, const char *what, int *out);

/* ---- cudaarray_convert.c ---- */
/* A dtype from a name; throws Cuda\InvalidArgumentException (the message of a ValueError for
 * argument arg_num) and returns false if unknown. */
bool php_gtc_parse_dtype(zend_string *name, uint32_t arg_num, DType *out);
/* A shape from a PHP list of ints (rank <= IR_MAX_RANK); allow_neg1 admits one -1 (reshape).
 * Throws TypeError/ValueError for argument arg_num and returns -1 on error, else the rank. */
int php_gtc_parse_shape(HashTable *ht, uint32_t arg_num, bool allow_neg1, int64_t *shape);
/* A PHP list of ints of at most IR_MAX_RANK entries (axes, perms); returns the count or -1. */
int php_gtc_parse_int_list(HashTable *ht, uint32_t arg_num, int64_t *out);
/* A tensor from nested PHP arrays of numbers; infer_dtype picks bool/int64/float32 from the
 * values. NULL after throwing. */
RtTensor *php_gtc_from_php(const RtBackend *b, zval *data, DType dt, bool infer_dtype);
/* Nested PHP arrays (rank 0: the scalar itself) of a tensor's values; false after throwing. */
bool php_gtc_to_php(const RtTensor *t, zval *rv);
bool php_gtc_to_array(const RtTensor *t, zval *rv);
/* cudaarray_print.c: NumPy's repr of t with shape, dtype and device; NULL after throwing. */
zend_string *php_gtc_array_text(RtTensor *t);
/* __serialize / __unserialize of CudaArray and HostArray: ["dtype", "shape", "data" (raw
 * C-order bytes)]. unserialize_into makes the tensor on b (NULL: php_gtc_backend() threw) for
 * obj, which must not hold one yet; false after throwing (messages name cls). */
bool php_gtc_serialize(const RtTensor *t, zval *rv);
bool php_gtc_unserialize_into(zval *obj, HashTable *data, const RtBackend *b, const char *cls);
/* A ($shape, $dtype) argument pair (at positions shape_arg, dtype_arg; dtype_name NULL keeps *dt):
 * the rank, or -1 after throwing (a bad shape or dtype, or a size over the limits). */
int php_gtc_shape_dtype_args(HashTable *shape_ht, uint32_t shape_arg, zend_string *dtype_name, uint32_t dtype_arg,
                             int64_t *shape, DType *dt);
/* The shape (or strides) as a PHP list. */
void php_gtc_dims_to_php(int rank, const int64_t *dims, zval *rv);

/* ---- fusion_trace.c / fusion.c: Cuda\Fusion (runtime/php/fusion.h) ---- */
/* Every op method's entry point: rt_apply, or, when an operand is a placeholder of the active
 * trace, a recorded graph node returning a new placeholder. NULL after rt_error. */
RtTensor *php_gtc_apply(Op op, const RtOperand *in, int nin, const Attrs *a);
/* Whether t is a tracing placeholder (shape and dtype, no data). */
bool php_gtc_is_placeholder(const RtTensor *t);
bool php_gtc_tracing(void);
/* Whether the active trace lets the closure read traced values (Fusion::run). */
bool php_gtc_trace_reads(void);
/* Throws Cuda\RuntimeException for a placeholder (a tensor with no data to bind); false then. */
bool php_gtc_check_data(const RtTensor *t);
/* The tensor whose data reading t means: t itself, or for a placeholder of the active trace its
 * value computed eagerly from the trace's inputs (borrowed: the trace keeps it until it ends).
 * NULL after throwing (a placeholder of a failed trace, an input given only as a shape). */
RtTensor *php_gtc_data(RtTensor *t);
/* A graph node's value computed eagerly from vals[] (one per node, NULL: not yet; new
 * references stored for what it computes): the PHP layer's one graph evaluator. NULL after rt_error. */
RtTensor *php_gtc_graph_value(const Graph *g, RtTensor **vals, NodeId id);
/* Throws Cuda\RuntimeException naming `what` while a trace is active; false then. */
bool php_gtc_trace_forbid(const char *what);
void php_gtc_fusion_minit(void);
/* ---- optimizer.c: Cuda\Optimizer (docs/optimizer.md) ---- */
extern zend_class_entry *php_gtc_ce_Optimizer;
void php_gtc_optimizer_minit(void);
void php_gtc_fusion_rinit(void); /* drops a trace a fatal error cut short */
void php_gtc_autograd_rinit(void); /* autograd.c: drops the tape an earlier request left */
void php_gtc_eager_plan_clear(void); /* eager_plan.c: releases its plans (request end) */
void php_gtc_fusion_mshutdown(void);
#define GTC_THIS_DATA_TENSOR(var)                                \
    RtTensor *var = php_gtc_tensor(Z_OBJ_P(ZEND_THIS));          \
    if (!var || !(var = php_gtc_data(var))) RETURN_THROWS()

/* ---- gtc_api.c: the API other extensions call (generated model extensions) ----
 * A model's ext.c (templates/ext.c.in) fetches php_gtc_plan_class_register (plan_class.h) from
 * the loaded gtc module by name and passes PHP_GTC_API_VERSION and its plan's RT_PLAN_ABI; a
 * mismatch stops it with a message. 2: the model's class is gtc.so's plan class. */
#ifndef PHP_GTC_API_VERSION /* a test builds a model with -DPHP_GTC_API_VERSION=1 (GTC_CFLAGS) */
#define PHP_GTC_API_VERSION 2
#endif
int php_gtc_api_version(void);
/* A new Cuda\CudaArray object owning t (the caller's reference is taken over); NULL t throws
 * the runtime's error (php_gtc_throw_rt) and returns NULL. */
zend_object *php_gtc_array_wrap(RtTensor *t);
/* The tensor of a Cuda\CudaArray (borrowed), or NULL when z is not one or is uninitialised;
 * throws nothing. */
RtTensor *php_gtc_array_tensor(zval *z);

#endif
