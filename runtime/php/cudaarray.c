/* runtime/php/cudaarray.c: Cuda\CudaArray's object (handlers, clone, operators), construction
 * (PHP arrays, buffers, .npy, zeros/ones/full/rand), conversion back to PHP, metadata, and
 * serialisation. The op methods live in cudaarray_ops.c. */
#include "php_gtc.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ext/random/php_random.h"
#include "zend_exceptions.h"

static zend_object_handlers cudaarray_handlers;

/* ---- the object -------------------------------------------------------------------------- */

zend_object *php_gtc_array_create(zend_class_entry *ce, const zend_object_handlers *h) {
    php_gtc_array *a = zend_object_alloc(sizeof(php_gtc_array), ce);
    zend_object_std_init(&a->std, ce);
    object_properties_init(&a->std, ce);
    a->std.handlers = h;
    return &a->std;
}

void php_gtc_array_free(zend_object *obj) {
    php_gtc_array *a = php_gtc_array_from_obj(obj);
    if (a->t) rt_release(a->t);
    a->t = NULL;
    zend_object_std_dtor(obj);
}

/* clone gives an independent contiguous copy (a view's clone owns its own storage). */
zend_object *php_gtc_array_clone(zend_object *old) {
    php_gtc_array *src = php_gtc_array_from_obj(old);
    zend_object *obj = php_gtc_array_create(old->ce, old->handlers);
    zend_objects_clone_members(obj, old);
    if (src->t) { /* a placeholder has no data to copy: the clone shares it */
        RtTensor *c = php_gtc_is_placeholder(src->t) ? rt_retain(src->t) : rt_contiguous(src->t);
        if (!c) php_gtc_throw_rt();
        php_gtc_array_from_obj(obj)->t = c;
    }
    return obj;
}

static zend_object *cudaarray_create(zend_class_entry *ce) {
    return php_gtc_array_create(ce, &cudaarray_handlers);
}

bool php_gtc_wrap(zval *rv, zend_class_entry *ce, RtTensor *t) {
    if (!t) {
        php_gtc_throw_rt();
        return false;
    }
    object_init_ex(rv, ce);
    Z_GTC_ARRAY_P(rv)->t = t;
    return true;
}

RtTensor *php_gtc_tensor(zend_object *obj) {
    RtTensor *t = php_gtc_array_from_obj(obj)->t;
    if (!t) zend_throw_error(NULL, "%s object is not initialized", ZSTR_VAL(obj->ce->name));
    return t;
}

/* ---- operators: + - * / ** with a tensor on either side --------------------------------- */

/* A tensor or a number as an operator operand; false for anything else (PHP then reports
 * unsupported operand types) or after throwing for an uninitialised object. */
static bool operator_operand(zval *z, RtOperand *o) {
    ZVAL_DEREF(z);
    *o = (RtOperand){0};
    switch (Z_TYPE_P(z)) {
    case IS_LONG: o->value = (double)Z_LVAL_P(z); return true;
    case IS_DOUBLE: o->value = Z_DVAL_P(z), o->is_float = true; return true;
    case IS_OBJECT:
        if (Z_OBJCE_P(z) != php_gtc_ce_CudaArray) return false;
        o->t = php_gtc_tensor(Z_OBJ_P(z));
        return o->t != NULL;
    default: return false;
    }
}

static zend_result cudaarray_do_operation(zend_uchar opcode, zval *result, zval *op1, zval *op2) {
    Op op;
    switch (opcode) {
    case ZEND_ADD: op = OP_ADD; break;
    case ZEND_SUB: op = OP_SUB; break;
    case ZEND_MUL: op = OP_MUL; break;
    case ZEND_DIV: op = OP_DIV; break;
    case ZEND_POW: op = OP_POW; break;
    default: return FAILURE;
    }
    RtOperand in[2];
    if (!operator_operand(op1, &in[0]) || !operator_operand(op2, &in[1])) return FAILURE;
    zval tmp;
    if (!php_gtc_wrap(&tmp, php_gtc_ce_CudaArray, php_gtc_apply(op, in, 2, NULL))) return FAILURE;
    if (result == op1) zval_ptr_dtor(result); /* compound assignment: $a += 1 */
    ZVAL_COPY_VALUE(result, &tmp);
    return SUCCESS;
}

/* == compares identity only: element-wise equality is eq(), and comparing the (empty) property
 * tables would make every two arrays "equal". */
static int cudaarray_compare(zval *a, zval *b) {
    if (Z_TYPE_P(a) == IS_OBJECT && Z_TYPE_P(b) == IS_OBJECT && Z_OBJ_P(a) == Z_OBJ_P(b)) return 0;
    return ZEND_UNCOMPARABLE;
}

/* ---- construction -------------------------------------------------------------------------- */

bool php_gtc_check_shape(DType dt, int rank, const int64_t *shape) {
    TensorType tt = {.dtype = dt, .rank = rank};
    memcpy(tt.dims, shape, (size_t)rank * sizeof *shape);
    char err[256];
    if (ir_check_type(&tt, err, sizeof err)) {
        php_gtc_throw(RT_EINVAL, "%s", err);
        return false;
    }
    return true;
}

static size_t shape_numel(int rank, const int64_t *shape) {
    size_t n = 1;
    for (int i = 0; i < rank; i++) n *= (size_t)shape[i];
    return n;
}


int php_gtc_shape_dtype_args(HashTable *shape_ht, uint32_t shape_arg, zend_string *dtype_name, uint32_t dtype_arg,
                             int64_t *shape, DType *dt) {
    int rank = php_gtc_parse_shape(shape_ht, shape_arg, false, shape);
    if (rank < 0 || (dtype_name && !php_gtc_parse_dtype(dtype_name, dtype_arg, dt))) return -1;
    return php_gtc_check_shape(*dt, rank, shape) ? rank : -1;
}
/* Builds a tensor from raw C-order bytes; bool bytes are normalised to 0/1. */
static RtTensor *from_bytes(DType dt, int rank, const int64_t *shape, const char *bytes) {
    const RtBackend *b = php_gtc_backend();
    return b ? php_gtc_from_bytes(b, dt, rank, shape, bytes) : NULL;
}

RtTensor *php_gtc_from_bytes(const RtBackend *b, DType dt, int rank, const int64_t *shape, const char *bytes) {
    RtTensor *t;
    if (dt == DT_BOOL) {
        size_t n = shape_numel(rank, shape);
        uint8_t *norm = emalloc(n ? n : 1);
        for (size_t i = 0; i < n; i++) norm[i] = bytes[i] != 0;
        t = rt_from_host(b, dt, rank, shape, norm);
        efree(norm);
    } else {
        t = rt_from_host(b, dt, rank, shape, bytes);
    }
    if (!t) php_gtc_throw_rt();
    return t;
}

ZEND_METHOD(Cuda_CudaArray, __construct) {
    zval *data;
    zend_string *dtype_name = NULL;
    ZEND_PARSE_PARAMETERS_START(1, 2)
        Z_PARAM_ARRAY(data)
        Z_PARAM_OPTIONAL
        Z_PARAM_STR_OR_NULL(dtype_name)
    ZEND_PARSE_PARAMETERS_END();
    php_gtc_array *self = Z_GTC_ARRAY_P(ZEND_THIS);
    DType dt = DT_FLOAT32;
    bool infer = ZEND_NUM_ARGS() >= 2 && !dtype_name;
    if (dtype_name && !php_gtc_parse_dtype(dtype_name, 2, &dt)) RETURN_THROWS();
    const RtBackend *b = php_gtc_backend();
    if (!b) RETURN_THROWS();
    RtTensor *t = php_gtc_from_php(b, data, dt, infer);
    if (!t) RETURN_THROWS();
    /* Called again on a live array, as php-gpu-tensors allows, the object takes the new values;
     * views made before keep the old storage, and a failed call leaves the array as it was. */
    rt_release(self->t);
    self->t = t;
}

RtTensor *php_gtc_buffer_args(const RtBackend *b, zend_string *bytes, HashTable *shape_ht, zend_string *dtype_name) {
    int64_t shape[IR_MAX_RANK];
    DType dt = DT_FLOAT32;
    int rank = php_gtc_shape_dtype_args(shape_ht, 2, dtype_name, 3, shape, &dt);
    if (rank < 0) return NULL;
    size_t want = shape_numel(rank, shape) * ir_dtype_size(dt);
    if (ZSTR_LEN(bytes) != want) {
        TensorType tt = {.rank = rank};
        memcpy(tt.dims, shape, (size_t)rank * sizeof *shape);
        char s[256];
        php_gtc_throw(RT_EINVAL, "fromBuffer: shape %s of %s needs %zu bytes, got %zu",
                      ir_shape_str(&tt, s, sizeof s), ir_dtype_name(dt), want, ZSTR_LEN(bytes));
        return NULL;
    }
    return php_gtc_from_bytes(b, dt, rank, shape, ZSTR_VAL(bytes));
}

ZEND_METHOD(Cuda_CudaArray, fromBuffer) {
    zend_string *bytes, *dtype_name = NULL;
    HashTable *shape_ht;
    ZEND_PARSE_PARAMETERS_START(2, 3)
        Z_PARAM_STR(bytes)
        Z_PARAM_ARRAY_HT(shape_ht)
        Z_PARAM_OPTIONAL
        Z_PARAM_STR(dtype_name)
    ZEND_PARSE_PARAMETERS_END();
    const RtBackend *b = php_gtc_backend();
    if (!b) RETURN_THROWS();
    RtTensor *t = php_gtc_buffer_args(b, bytes, shape_ht, dtype_name);
    if (!t) RETURN_THROWS();
    RETURN_TENSOR(t);
}

/* fromFlatArray($values, $shape, $dtype): a flat list of numbers (C order) as an array of that
 * shape (php-gpu-tensors' constructor for data that is not nested). */
ZEND_METHOD(Cuda_CudaArray, fromFlatArray) {
    HashTable *values, *shape_ht;
    zend_string *dtype_name = NULL;
    ZEND_PARSE_PARAMETERS_START(2, 3)
        Z_PARAM_ARRAY_HT(values)
        Z_PARAM_ARRAY_HT(shape_ht)
        Z_PARAM_OPTIONAL
        Z_PARAM_STR_OR_NULL(dtype_name)
    ZEND_PARSE_PARAMETERS_END();
    int64_t shape[IR_MAX_RANK];
    DType dt = DT_FLOAT32;
    int rank = php_gtc_shape_dtype_args(shape_ht, 2, dtype_name, 3, shape, &dt);
    if (rank < 0) RETURN_THROWS();
    if (!zend_array_is_list(values)) {
        zend_argument_error(php_gtc_ce_InvalidArgumentException, 1, "must be a list of numbers");
        RETURN_THROWS();
    }
    zval *v;
    ZEND_HASH_FOREACH_VAL(values, v) { /* nested arrays would make a deeper tensor: refuse them */
        ZVAL_DEREF(v);
        if (Z_TYPE_P(v) == IS_ARRAY) {
            zend_argument_error(php_gtc_ce_InvalidArgumentException, 1, "must be a flat list of numbers (an array was found in it)");
            RETURN_THROWS();
        }
    } ZEND_HASH_FOREACH_END();
    size_t n = shape_numel(rank, shape);
    if (zend_hash_num_elements(values) != n) {
        TensorType tt = {.rank = rank};
        memcpy(tt.dims, shape, (size_t)rank * sizeof *shape);
        char s[256];
        php_gtc_throw(RT_EINVAL, "fromFlatArray: shape %s holds %zu values, %u given", ir_shape_str(&tt, s, sizeof s), n,
                      zend_hash_num_elements(values));
        RETURN_THROWS();
    }
    const RtBackend *b = php_gtc_backend();
    if (!b) RETURN_THROWS();
    zval data;
    ZVAL_ARR(&data, values);
    RtTensor *flat = php_gtc_from_php(b, &data, dt, false);
    if (!flat) RETURN_THROWS();
    Attrs a = {0};
    a.nshape = rank;
    memcpy(a.shape, shape, (size_t)rank * sizeof *shape);
    RtOperand in = {.t = flat};
    RtTensor *t = rt_apply(OP_RESHAPE, &in, 1, &a);
    rt_release(flat);
    RETURN_TENSOR(t);
}

/* ---- local files ----------------------------------------------------------------------------- */

/* Opens path for fromFile, fromNpy, loadNpz (reading) or toNpy, saveNpz (writing): a local path (no stream
 * wrapper: php://stdin, data:, http:// are refused), inside open_basedir, naming a regular file.
 * The open is non-blocking so that a FIFO without a writer (or reader) cannot hang it, as
 * fopen would; fstat then refuses FIFOs, devices and directories before one byte moves, and
 * the descriptor goes back to blocking. A file opened for writing is truncated only after that
 * check. Returns the descriptor and (reading) the file's size, or -1 after throwing. */
int php_gtc_open_regular_file(const char *fn, const char *path, bool write, size_t *size) {
    const char *colon = strchr(path, ':');
    if ((colon && strncmp(colon, "://", 3) == 0) || strncmp(path, "data:", 5) == 0) {
        php_gtc_throw(RT_EINVAL, "%s: %s: stream wrappers are not supported; give a local file path", fn, path);
        return -1;
    }
    if (php_check_open_basedir_ex(path, 0)) {
        php_gtc_throw(RT_EINVAL, "%s: %s is outside open_basedir", fn, path);
        return -1;
    }
    int fd = open(path, (write ? O_WRONLY | O_CREAT : O_RDONLY) | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0666);
    if (fd < 0 && (errno == ENXIO || errno == ENODEV)) { /* a FIFO without a reader, a device */
        php_gtc_throw(RT_EINVAL, "%s: %s is not a regular file", fn, path);
        return -1;
    }
    if (fd < 0) {
        php_gtc_throw(RT_ERUNTIME, "%s: cannot open %s for %s: %s", fn, path, write ? "writing" : "reading", strerror(errno));
        return -1;
    }
    struct stat sb;
    int flags;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        php_gtc_throw(RT_EINVAL, "%s: %s is not a regular file", fn, path);
        close(fd);
        return -1;
    }
    if ((flags = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0 ||
        (write && ftruncate(fd, 0) != 0)) {
        php_gtc_throw(RT_ERUNTIME, "%s: %s: %s", fn, path, strerror(errno));
        close(fd);
        return -1;
    }
    if (size) *size = (size_t)sb.st_size;
    return fd;
}

/* Reads exactly n bytes (retrying short reads); false if the file ends first or read fails. */
static bool read_full(int fd, void *buf, size_t n) {
    for (size_t got = 0; got < n;) {
        ssize_t r = read(fd, (char *)buf + got, n - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return false;
        got += (size_t)r;
    }
    return true;
}

bool php_gtc_write_full(int fd, const void *buf, size_t n) {
    for (size_t done = 0; done < n;) {
        ssize_t r = write(fd, (const char *)buf + done, n - done);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return false;
        done += (size_t)r;
    }
    return true;
}

/* fromFile($path, $shape, $dtype): raw packed little-endian bytes (no header; .npy is fromNpy).
 * Only a regular file whose size is exactly what the shape needs is read: a wrong size, a
 * directory, a FIFO or a device is refused before any byte is read. */
ZEND_METHOD(Cuda_CudaArray, fromFile) {
    zend_string *path, *dtype_name = NULL;
    HashTable *shape_ht;
    ZEND_PARSE_PARAMETERS_START(2, 3)
        Z_PARAM_PATH_STR(path)
        Z_PARAM_ARRAY_HT(shape_ht)
        Z_PARAM_OPTIONAL
        Z_PARAM_STR_OR_NULL(dtype_name)
    ZEND_PARSE_PARAMETERS_END();
    int64_t shape[IR_MAX_RANK];
    DType dt = DT_FLOAT32;
    int rank = php_gtc_shape_dtype_args(shape_ht, 2, dtype_name, 3, shape, &dt);
    if (rank < 0) RETURN_THROWS();
    size_t want = shape_numel(rank, shape) * ir_dtype_size(dt);
    size_t have;
    int fd = php_gtc_open_regular_file("fromFile", ZSTR_VAL(path), false, &have);
    if (fd < 0) RETURN_THROWS();
    if (have != want) {
        TensorType tt = {.rank = rank};
        memcpy(tt.dims, shape, (size_t)rank * sizeof *shape);
        char s[256];
        php_gtc_throw(RT_EINVAL, "fromFile: shape %s of %s needs %zu bytes, %s has %zu", ir_shape_str(&tt, s, sizeof s),
                      ir_dtype_name(dt), want, ZSTR_VAL(path), have);
        close(fd);
        RETURN_THROWS();
    }
    char *buf = want ? emalloc(want) : NULL;
    bool ok = !want || read_full(fd, buf, want);
    close(fd);
    RtTensor *t = ok ? from_bytes(dt, rank, shape, buf) : NULL;
    if (buf) efree(buf);
    if (!ok) {
        php_gtc_throw(RT_ERUNTIME, "fromFile: %s: read failed", ZSTR_VAL(path));
        RETURN_THROWS();
    }
    if (!t) RETURN_THROWS();
    RETURN_TENSOR(t);
}

static void factory(INTERNAL_FUNCTION_PARAMETERS, double fixed, int kind) {
    HashTable *shape_ht;
    zval *value = NULL;
    zend_long seed = 0;
    bool seed_null = true;
    zend_string *dtype_name = NULL;
    uint32_t dtype_arg = kind == 0 ? 2 : 3;
    if (kind == 0) { /* zeros, ones */
        ZEND_PARSE_PARAMETERS_START(1, 2)
            Z_PARAM_ARRAY_HT(shape_ht)
            Z_PARAM_OPTIONAL
            Z_PARAM_STR(dtype_name)
        ZEND_PARSE_PARAMETERS_END();
    } else if (kind == 1) { /* full */
        ZEND_PARSE_PARAMETERS_START(2, 3)
            Z_PARAM_ARRAY_HT(shape_ht)
            Z_PARAM_ZVAL(value)
            Z_PARAM_OPTIONAL
            Z_PARAM_STR(dtype_name)
        ZEND_PARSE_PARAMETERS_END();
    } else { /* rand */
        ZEND_PARSE_PARAMETERS_START(1, 3)
            Z_PARAM_ARRAY_HT(shape_ht)
            Z_PARAM_OPTIONAL
            Z_PARAM_LONG_OR_NULL(seed, seed_null)
            Z_PARAM_STR(dtype_name)
        ZEND_PARSE_PARAMETERS_END();
    }
    int64_t shape[IR_MAX_RANK];
    DType dt = DT_FLOAT32;
    int rank = php_gtc_parse_shape(shape_ht, 1, false, shape);
    if (rank < 0) RETURN_THROWS();
    if (kind == 1) {
        if (Z_TYPE_P(value) == IS_TRUE || Z_TYPE_P(value) == IS_FALSE) {
            fixed = Z_TYPE_P(value) == IS_TRUE;
        } else {
            zval *num;
            if (Z_TYPE_P(value) == IS_NULL || !zend_parse_arg_number(value, &num, false, 2)) {
                zend_argument_type_error(2, "must be of type int|float|bool, %s given",
                                         zend_zval_type_name(value));
                RETURN_THROWS();
            }
            fixed = Z_TYPE_P(num) == IS_LONG ? (double)Z_LVAL_P(num) : Z_DVAL_P(num);
        }
    }
    if (dtype_name && !php_gtc_parse_dtype(dtype_name, dtype_arg, &dt)) RETURN_THROWS();
    if (!php_gtc_check_shape(dt, rank, shape)) RETURN_THROWS();
    const RtBackend *b = php_gtc_backend();
    if (!b) RETURN_THROWS();
    if (kind == 2) {
        uint64_t s = (uint64_t)seed;
        if (seed_null && php_random_bytes_throw(&s, sizeof s) == FAILURE) RETURN_THROWS();
        RETURN_TENSOR(rt_rand(b, dt, rank, shape, s));
    }
    RETURN_TENSOR(rt_full(b, dt, rank, shape, fixed));
}

ZEND_METHOD(Cuda_CudaArray, zeros) { factory(INTERNAL_FUNCTION_PARAM_PASSTHRU, 0.0, 0); }
ZEND_METHOD(Cuda_CudaArray, ones) { factory(INTERNAL_FUNCTION_PARAM_PASSTHRU, 1.0, 0); }
ZEND_METHOD(Cuda_CudaArray, full) { factory(INTERNAL_FUNCTION_PARAM_PASSTHRU, 0.0, 1); }
ZEND_METHOD(Cuda_CudaArray, rand) { factory(INTERNAL_FUNCTION_PARAM_PASSTHRU, 0.0, 2); }

/* ---- .npy files ------------------------------------------------------------------------------ */

/* Re-throws the runtime's error with the file name in front. */
static void throw_rt_for_file(const char *path) {
    RtStatus st = rt_status();
    php_gtc_throw(st == RT_OK ? RT_ERUNTIME : st, "%s: %s", path, rt_message());
    rt_clear_error();
}

/* fromNpy($path): the header is read and checked first (rt_npy_header), then only the bytes
 * its shape needs: a file that is not regular, a lying header or a short file is refused before
 * the data is read, and trailing bytes are ignored as np.load ignores them. */
ZEND_METHOD(Cuda_CudaArray, fromNpy) {
    zend_string *path;
    ZEND_PARSE_PARAMETERS_START(1, 1)
        Z_PARAM_PATH_STR(path)
    ZEND_PARSE_PARAMETERS_END();
    const RtBackend *b = php_gtc_backend();
    if (!b) RETURN_THROWS();
    size_t size;
    int fd = php_gtc_open_regular_file("fromNpy", ZSTR_VAL(path), false, &size);
    if (fd < 0) RETURN_THROWS();
    size_t n = size < RT_NPY_HEADER_MAX ? size : RT_NPY_HEADER_MAX, want = n;
    char *buf = malloc(n ? n : 1);
    RtNpyHeader h;
    RtTensor *t = NULL;
    if (!buf) {
        rt_error(RT_EOOM, "out of host memory");
    } else if (!read_full(fd, buf, n)) {
        rt_error(RT_ERUNTIME, "read failed");
    } else if (rt_npy_header(buf, n, &h) == 0) {
        /* the header's sizes are checked (at most 2^40 bytes); the file's size bounds them */
        size_t total = h.data_offset + h.data_bytes;
        want = total < size ? total : size;
        char *more = want > n ? realloc(buf, want) : buf;
        if (!more) rt_error(RT_EOOM, "out of host memory");
        else if (buf = more, want > n && !read_full(fd, buf + n, want - n)) rt_error(RT_ERUNTIME, "read failed");
        else t = rt_npy_read(b, buf, want);
    }
    close(fd);
    free(buf);
    if (!t) {
        throw_rt_for_file(ZSTR_VAL(path));
        RETURN_THROWS();
    }
    RETURN_TENSOR(t);
}

/* toNpy($path): writes a local regular file only (created or truncated), never through a stream
 * wrapper, a FIFO or a device (php_gtc_open_regular_file says why). */
ZEND_METHOD(Cuda_CudaArray, toNpy) {
    zend_string *path;
    ZEND_PARSE_PARAMETERS_START(1, 1)
        Z_PARAM_PATH_STR(path)
    ZEND_PARSE_PARAMETERS_END();
    GTC_THIS_DATA_TENSOR(t);
    char *buf = NULL;
    size_t len = 0;
    if (rt_npy_write(t, &buf, &len) != 0) {
        throw_rt_for_file(ZSTR_VAL(path));
        RETURN_THROWS();
    }
    int fd = php_gtc_open_regular_file("toNpy", ZSTR_VAL(path), true, NULL);
    if (fd < 0) {
        free(buf);
        RETURN_THROWS();
    }
    bool ok = php_gtc_write_full(fd, buf, len);
    int err = errno;
    ok = close(fd) == 0 && ok;
    free(buf);
    if (!ok) {
        php_gtc_throw(RT_ERUNTIME, "toNpy: %s: write failed: %s", ZSTR_VAL(path), strerror(err ? err : errno));
        RETURN_THROWS();
    }
}

/* ---- back to PHP ------------------------------------------------------------------------------ */

bool php_gtc_to_bytes(const RtTensor *t, zval *rv) {
    zend_string *s = zend_string_alloc(rt_nbytes(t), 0);
    if (ZSTR_LEN(s) && rt_to_host(t, ZSTR_VAL(s)) != 0) {
        zend_string_efree(s);
        php_gtc_throw_rt();
        return false;
    }
    ZSTR_VAL(s)[ZSTR_LEN(s)] = 0;
    ZVAL_NEW_STR(rv, s);
    return true;
}

ZEND_METHOD(Cuda_CudaArray, toBuffer) {
    ZEND_PARSE_PARAMETERS_NONE();
    GTC_THIS_DATA_TENSOR(t);
    if (!php_gtc_to_bytes(t, return_value)) RETURN_THROWS();
}

ZEND_METHOD(Cuda_CudaArray, toArray) {
    ZEND_PARSE_PARAMETERS_NONE();
    GTC_THIS_DATA_TENSOR(t);
    if (!php_gtc_to_array(t, return_value)) RETURN_THROWS();
}

ZEND_METHOD(Cuda_CudaArray, item) {
    ZEND_PARSE_PARAMETERS_NONE();
    GTC_THIS_DATA_TENSOR(t);
    if (rt_numel(t) != 1) {
        TensorType tt = rt_type(t);
        char s[256];
        php_gtc_throw(RT_EINVAL, "item() needs exactly one element, got shape %s (%lld elements)",
                      ir_shape_str(&tt, s, sizeof s), (long long)rt_numel(t));
        RETURN_THROWS();
    }
    zval nested;
    if (!php_gtc_to_php(t, &nested)) RETURN_THROWS();
    zval *v = &nested;
    while (Z_TYPE_P(v) == IS_ARRAY) v = zend_hash_index_find(Z_ARRVAL_P(v), 0);
    RETVAL_COPY(v);
    zval_ptr_dtor(&nested);
}

RtTensor *php_gtc_to_backend(const RtTensor *t, const RtBackend *b) {
    /* An empty array has no bytes to move (and rt_to_host of some empty views recurses). */
    if (rt_numel(t) == 0) return rt_empty(b, t->dtype, t->rank, t->shape);
    return rt_to_backend(t, b);
}

ZEND_METHOD(Cuda_CudaArray, toHost) {
    ZEND_PARSE_PARAMETERS_NONE();
    GTC_THIS_DATA_TENSOR(t);
    if (!php_gtc_wrap(return_value, php_gtc_ce_HostArray, php_gtc_to_backend(t, &rt_cpu_backend)))
        RETURN_THROWS();
}

/* ---- metadata ---------------------------------------------------------------------------------- */

ZEND_METHOD(Cuda_CudaArray, getShape) {
    ZEND_PARSE_PARAMETERS_NONE();
    GTC_THIS_TENSOR(t);
    php_gtc_dims_to_php(t->rank, t->shape, return_value);
}

ZEND_METHOD(Cuda_CudaArray, getStrides) {
    ZEND_PARSE_PARAMETERS_NONE();
    GTC_THIS_TENSOR(t);
    php_gtc_dims_to_php(t->rank, t->strides, return_value);
}

ZEND_METHOD(Cuda_CudaArray, dtype) {
    ZEND_PARSE_PARAMETERS_NONE();
    GTC_THIS_TENSOR(t);
    RETURN_STRING(ir_dtype_name(t->dtype));
}

ZEND_METHOD(Cuda_CudaArray, getNdims) {
    ZEND_PARSE_PARAMETERS_NONE();
    GTC_THIS_TENSOR(t);
    RETURN_LONG(t->rank);
}

ZEND_METHOD(Cuda_CudaArray, getSize) {
    ZEND_PARSE_PARAMETERS_NONE();
    GTC_THIS_TENSOR(t);
    RETURN_LONG((zend_long)rt_numel(t));
}

ZEND_METHOD(Cuda_CudaArray, device) {
    ZEND_PARSE_PARAMETERS_NONE();
    GTC_THIS_TENSOR(t);
    char buf[32];
    RETURN_STRING(php_gtc_device_name(t, buf, sizeof buf));
}

ZEND_METHOD(Cuda_CudaArray, __debugInfo) {
    ZEND_PARSE_PARAMETERS_NONE();
    RtTensor *t = Z_GTC_ARRAY_P(ZEND_THIS)->t;
    array_init(return_value);
    if (!t) return;
    zval v;
    php_gtc_dims_to_php(t->rank, t->shape, &v);
    zend_hash_str_add_new(Z_ARRVAL_P(return_value), "shape", sizeof "shape" - 1, &v);
    add_assoc_string(return_value, "dtype", ir_dtype_name(t->dtype));
    char buf[32];
    add_assoc_string(return_value, "device", php_gtc_device_name(t, buf, sizeof buf));
    if (php_gtc_is_placeholder(t)) {
        add_assoc_bool(return_value, "placeholder", true);
    } else if (rt_numel(t) <= 100) {
        if (!php_gtc_to_php(t, &v)) RETURN_THROWS();
        zend_hash_str_add_new(Z_ARRVAL_P(return_value), "data", sizeof "data" - 1, &v);
    }
}

/* ---- serialisation: ["dtype" => string, "shape" => list<int>, "data" => raw C-order bytes] ----
 * One format for CudaArray and HostArray (ContiguousArray): either unserializes the other's. */

bool php_gtc_serialize(const RtTensor *t, zval *rv) {
    zend_string *s = zend_string_alloc(rt_nbytes(t), 0);
    if (ZSTR_LEN(s) && rt_to_host(t, ZSTR_VAL(s)) != 0) {
        zend_string_efree(s);
        php_gtc_throw_rt();
        return false;
    }
    ZSTR_VAL(s)[ZSTR_LEN(s)] = 0;
    zval v;
    array_init_size(rv, 3);
    add_assoc_string(rv, "dtype", ir_dtype_name(t->dtype));
    php_gtc_dims_to_php(t->rank, t->shape, &v);
    zend_hash_str_add_new(Z_ARRVAL_P(rv), "shape", sizeof "shape" - 1, &v);
    add_assoc_str(rv, "data", s);
    return true;
}

#define BAD_DATA(...)                                                                        \
    do {                                                                                     \
        php_gtc_throw(RT_EINVAL, "Invalid serialization data for %s object: " __VA_ARGS__);  \
        return NULL;                                                                         \
    } while (0)

static RtTensor *unserialize(HashTable *data, const RtBackend *b, const char *cls) {
    zval *dtype = zend_hash_str_find_deref(data, "dtype", sizeof "dtype" - 1);
    zval *shape = zend_hash_str_find_deref(data, "shape", sizeof "shape" - 1);
    zval *bytes = zend_hash_str_find_deref(data, "data", sizeof "data" - 1);
    if (zend_hash_num_elements(data) != 3 || !dtype || !shape || !bytes)
        BAD_DATA("expected the keys dtype, shape and data", cls);
    DType dt;
    if (Z_TYPE_P(dtype) != IS_STRING || strlen(Z_STRVAL_P(dtype)) != Z_STRLEN_P(dtype) ||
        ir_dtype_from_name(Z_STRVAL_P(dtype), &dt) != 0)
        BAD_DATA("dtype is not a dtype name", cls);
    if (Z_TYPE_P(shape) != IS_ARRAY || zend_hash_num_elements(Z_ARRVAL_P(shape)) > IR_MAX_RANK)
        BAD_DATA("shape must be a list of at most %d ints", cls, IR_MAX_RANK);
    int64_t dims[IR_MAX_RANK];
    int rank = 0;
    zval *d;
    ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(shape), d) {
        ZVAL_DEREF(d);
        if (Z_TYPE_P(d) != IS_LONG || Z_LVAL_P(d) < 0 || Z_LVAL_P(d) >= IR_MAX_DIM)
            BAD_DATA("shape[%d] must be an int from 0 to 2^31-1", cls, rank);
        dims[rank++] = Z_LVAL_P(d);
    } ZEND_HASH_FOREACH_END();
    if (!php_gtc_check_shape(dt, rank, dims)) return NULL;
    if (Z_TYPE_P(bytes) != IS_STRING ||
        Z_STRLEN_P(bytes) != shape_numel(rank, dims) * ir_dtype_size(dt))
        BAD_DATA("data must be a string of %zu bytes", cls, shape_numel(rank, dims) * ir_dtype_size(dt));
    return php_gtc_from_bytes(b, dt, rank, dims, Z_STRVAL_P(bytes));
}

ZEND_METHOD(Cuda_CudaArray, __serialize) {
    ZEND_PARSE_PARAMETERS_NONE();
    GTC_THIS_DATA_TENSOR(t);
    if (!php_gtc_serialize(t, return_value)) RETURN_THROWS();
}

/* __unserialize of either class: the tensor on b into obj, which must not hold one yet. */
bool php_gtc_unserialize_into(zval *obj, HashTable *data, const RtBackend *b, const char *cls) {
    php_gtc_array *self = Z_GTC_ARRAY_P(obj);
    if (self->t) {
        zend_throw_error(NULL, "Cannot unserialize an initialized %s", cls);
        return false;
    }
    return b && (self->t = unserialize(data, b, cls)) != NULL;
}

ZEND_METHOD(Cuda_CudaArray, __unserialize) {
    HashTable *data;
    ZEND_PARSE_PARAMETERS_START(1, 1)
        Z_PARAM_ARRAY_HT(data)
    ZEND_PARSE_PARAMETERS_END();
    if (!php_gtc_unserialize_into(ZEND_THIS, data, php_gtc_backend(), "Cuda\\CudaArray")) RETURN_THROWS();
}

void php_gtc_cudaarray_minit(zend_class_entry *ce) {
    ce->create_object = cudaarray_create;
    memcpy(&cudaarray_handlers, &std_object_handlers, sizeof(zend_object_handlers));
    cudaarray_handlers.offset = XtOffsetOf(php_gtc_array, std);
    cudaarray_handlers.free_obj = php_gtc_array_free;
    cudaarray_handlers.clone_obj = php_gtc_array_clone;
    cudaarray_handlers.do_operation = cudaarray_do_operation;
    cudaarray_handlers.compare = cudaarray_compare;
}
