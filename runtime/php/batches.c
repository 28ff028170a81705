/* runtime/php/batches.c: Cuda\Batches, the mini-batches of a training loop: one or more arrays
 * that share their first axis, cut into batches of batchSize rows, in order (views, no copy) or
 * shuffled on the device each epoch (CudaArray::permutation and take, docs/checkpoints.md), the
 * last partial batch kept unless dropLast. An Iterator: each foreach (each rewind) is an epoch. */
#include "php_gtc.h"

#include "zend_exceptions.h"
#include "zend_interfaces.h"

typedef struct {
    zval arrays;          /* the arrays as given, keys kept (IS_UNDEF: not constructed) */
    int64_t n, size;      /* rows, rows per batch */
    bool shuffle, drop_last;
    zend_long seed;
    zend_long epoch;      /* rewinds so far minus 1: -1 before the first */
    zend_long pos;        /* the current batch */
    RtTensor *perm;       /* this epoch's row order (shuffle), int64 [n] */
    zval current;         /* the current batch, made on first access */
    zend_object std;
} batches_obj;

zend_class_entry *php_gtc_ce_Batches;
static zend_object_handlers batches_handlers;

static batches_obj *batches_from(zend_object *o) { return (batches_obj *)((char *)o - XtOffsetOf(batches_obj, std)); }

static zend_object *batches_create(zend_class_entry *ce) {
    batches_obj *b = zend_object_alloc(sizeof(batches_obj), ce);
    zend_object_std_init(&b->std, ce);
    object_properties_init(&b->std, ce);
    b->std.handlers = &batches_handlers;
    ZVAL_UNDEF(&b->arrays);
    ZVAL_UNDEF(&b->current);
    b->epoch = -1;
    return &b->std;
}

static void batches_free(zend_object *o) {
    batches_obj *b = batches_from(o);
    zval_ptr_dtor(&b->arrays);
    zval_ptr_dtor(&b->current);
    rt_release(b->perm);
    zend_object_std_dtor(o);
}

/* The key as a message shows it: "x" or 0. */
static void key_text(zend_string *key, zend_ulong idx, char *buf, size_t n) {
    if (key) snprintf(buf, n, "\"%.64s\"", ZSTR_VAL(key));
    else snprintf(buf, n, ZEND_ULONG_FMT, idx);
}

/* new Batches(array $arrays, int $batchSize, bool $shuffle = false, int $seed = 0,
 *             bool $dropLast = false) */
ZEND_METHOD(Cuda_Batches, __construct) {
    HashTable *arrays;
    zend_long size, seed = 0;
    bool shuffle = false, drop_last = false;
    ZEND_PARSE_PARAMETERS_START(2, 5)
        Z_PARAM_ARRAY_HT(arrays)
        Z_PARAM_LONG(size)
        Z_PARAM_OPTIONAL
        Z_PARAM_BOOL(shuffle)
        Z_PARAM_LONG(seed)
        Z_PARAM_BOOL(drop_last)
    ZEND_PARSE_PARAMETERS_END();
    batches_obj *b = batches_from(Z_OBJ_P(ZEND_THIS));
    if (!Z_ISUNDEF(b->arrays)) {
        zend_throw_error(NULL, "Cuda\\Batches is already constructed");
        RETURN_THROWS();
    }
    if (zend_hash_num_elements(arrays) == 0) {
        zend_argument_value_error(1, "must not be empty");
        RETURN_THROWS();
    }
    if (size < 1) {
        zend_argument_value_error(2, "must be greater than 0, " ZEND_LONG_FMT " given", size);
        RETURN_THROWS();
    }
    int64_t n = -1;
    const RtBackend *dev = NULL;
    char first[80] = "", k[80];
    zend_string *key;
    zend_ulong idx;
    zval *v;
    ZEND_HASH_FOREACH_KEY_VAL(arrays, idx, key, v) {
        key_text(key, idx, k, sizeof k);
        ZVAL_DEREF(v);
        RtTensor *t = Z_TYPE_P(v) == IS_OBJECT && instanceof_function(Z_OBJCE_P(v), php_gtc_ce_CudaArray)
                          ? php_gtc_array_tensor(v) : NULL;
        if (!t) {
            zend_argument_type_error(1, "must hold Cuda\\CudaArray values, %s given at %s", zend_zval_type_name(v), k);
            RETURN_THROWS();
        }
        if (!php_gtc_check_data(t)) RETURN_THROWS();
        if (t->rank < 1) {
            zend_argument_value_error(1, "must hold arrays of rank 1 or more (batches are rows), %s is a scalar", k);
            RETURN_THROWS();
        }
        if (n >= 0 && t->shape[0] != n) {
            zend_argument_value_error(1, "must hold arrays with the same number of rows, %s has %lld and %s %lld", first,
                                      (long long)n, k, (long long)t->shape[0]);
            RETURN_THROWS();
        }
        if (dev && t->storage->backend != dev) {
            zend_argument_value_error(1, "must hold arrays on one device, %s is on %s and %s on %s", first, dev->name, k,
                                      t->storage->backend->name);
            RETURN_THROWS();
        }
        if (n < 0) memcpy(first, k, sizeof first);
        n = t->shape[0];
        dev = t->storage->backend;
    } ZEND_HASH_FOREACH_END();
    array_init_size(&b->arrays, zend_hash_num_elements(arrays));
    ZEND_HASH_FOREACH_KEY_VAL(arrays, idx, key, v) { /* dereferenced: later writes to $arrays do not show */
        zval c;
        ZVAL_COPY_DEREF(&c, v);
        if (key) zend_hash_update(Z_ARRVAL(b->arrays), key, &c);
        else zend_hash_index_update(Z_ARRVAL(b->arrays), idx, &c);
    } ZEND_HASH_FOREACH_END();
    b->n = n;
    b->size = size;
    b->shuffle = shuffle;
    b->seed = seed;
    b->drop_last = drop_last;
}

static batches_obj *this_batches(zval *zv) {
    batches_obj *b = batches_from(Z_OBJ_P(zv));
    if (Z_ISUNDEF(b->arrays)) {
        zend_throw_error(NULL, "Cuda\\Batches was not constructed");
        return NULL;
    }
    return b;
}

static zend_long batch_count(const batches_obj *b) {
    return (zend_long)(b->drop_last ? b->n / b->size : (b->n + b->size - 1) / b->size);
}

/* Starts epoch epoch + 1: batch 0, and (shuffle) the rows in CudaArray::permutation(n, seed +
 * epoch)'s order, on the arrays' device. false after throwing. */
static bool start_epoch(batches_obj *b) {
    zval_ptr_dtor(&b->current);
    ZVAL_UNDEF(&b->current);
    rt_release(b->perm);
    b->perm = NULL;
    b->epoch++;
    b->pos = 0;
    if (!b->shuffle) return true;
    const RtBackend *dev = NULL;
    zval *v;
    ZEND_HASH_FOREACH_VAL(Z_ARRVAL(b->arrays), v) {
        dev = php_gtc_array_tensor(v)->storage->backend;
        break;
    } ZEND_HASH_FOREACH_END();
    b->perm = rt_permutation(dev, b->n, (uint64_t)b->seed + (uint64_t)b->epoch);
    if (!b->perm) php_gtc_throw_rt();
    return b->perm != NULL;
}

/* Rows [r0, r1) of t along axis 0: a view. */
static RtTensor *rows(RtTensor *t, int64_t r0, int64_t r1) {
    Attrs a = {0};
    a.has_axes = a.has_steps = true;
    a.nslice = a.naxes = 1;
    a.starts[0] = r0, a.ends[0] = r1, a.steps[0] = 1;
    RtOperand in = {.t = t};
    return php_gtc_apply(OP_SLICE, &in, 1, &a);
}

/* The current batch into b->current (the arrays' keys, a CudaArray each); false after throwing. */
static bool make_current(batches_obj *b) {
    if (!Z_ISUNDEF(b->current)) return true;
    int64_t r0 = b->pos * b->size, r1 = r0 + b->size < b->n ? r0 + b->size : b->n;
    RtTensor *idx = b->perm ? rows(b->perm, r0, r1) : NULL;
    if (b->perm && !idx) return php_gtc_throw_rt(), false;
    zval batch;
    array_init_size(&batch, zend_hash_num_elements(Z_ARRVAL(b->arrays)));
    zend_string *key;
    zend_ulong i;
    zval *v;
    bool ok = true;
    ZEND_HASH_FOREACH_KEY_VAL(Z_ARRVAL(b->arrays), i, key, v) {
        RtTensor *t = php_gtc_array_tensor(v), *r;
        if (idx) {
            RtOperand in[2] = {{.t = t}, {.t = idx}};
            Attrs a = {0};
            r = php_gtc_apply(OP_GATHER, in, 2, &a);
        } else {
            r = rows(t, r0, r1);
        }
        zval z;
        if (!(ok = php_gtc_wrap(&z, php_gtc_ce_CudaArray, r))) break;
        if (key) zend_hash_update(Z_ARRVAL(batch), key, &z);
        else zend_hash_index_update(Z_ARRVAL(batch), i, &z);
    } ZEND_HASH_FOREACH_END();
    rt_release(idx);
    if (!ok) {
        zval_ptr_dtor(&batch);
        return false;
    }
    ZVAL_COPY_VALUE(&b->current, &batch);
    return true;
}

/* A foreach starts with rewind(); the other methods start the first epoch when called first. */
static batches_obj *started(zval *zv) {
    batches_obj *b = this_batches(zv);
    return b && (b->epoch >= 0 || start_epoch(b)) ? b : NULL;
}

ZEND_METHOD(Cuda_Batches, rewind) {
    ZEND_PARSE_PARAMETERS_NONE();
    batches_obj *b = this_batches(ZEND_THIS);
    if (!b || !start_epoch(b)) RETURN_THROWS();
}

ZEND_METHOD(Cuda_Batches, valid) {
    ZEND_PARSE_PARAMETERS_NONE();
    batches_obj *b = started(ZEND_THIS);
    if (!b) RETURN_THROWS();
    RETURN_BOOL(b->pos < batch_count(b));
}

/* current(): the batch, name => Cuda\CudaArray with the arrays' keys; null past the last. */
ZEND_METHOD(Cuda_Batches, current) {
    ZEND_PARSE_PARAMETERS_NONE();
    batches_obj *b = started(ZEND_THIS);
    if (!b) RETURN_THROWS();
    if (b->pos >= batch_count(b)) RETURN_NULL();
    if (!make_current(b)) RETURN_THROWS();
    RETURN_COPY(&b->current);
}

ZEND_METHOD(Cuda_Batches, key) {
    ZEND_PARSE_PARAMETERS_NONE();
    batches_obj *b = started(ZEND_THIS);
    if (!b) RETURN_THROWS();
    if (b->pos >= batch_count(b)) RETURN_NULL();
    RETURN_LONG(b->pos);
}

ZEND_METHOD(Cuda_Batches, next) {
    ZEND_PARSE_PARAMETERS_NONE();
    batches_obj *b = started(ZEND_THIS);
    if (!b) RETURN_THROWS();
    zval_ptr_dtor(&b->current);
    ZVAL_UNDEF(&b->current);
    if (b->pos < batch_count(b)) b->pos++;
}

/* count(): batches per epoch. */
ZEND_METHOD(Cuda_Batches, count) {
    ZEND_PARSE_PARAMETERS_NONE();
    batches_obj *b = this_batches(ZEND_THIS);
    if (!b) RETURN_THROWS();
    RETURN_LONG(batch_count(b));
}

/* epoch(): the epoch the iteration is in, from 0 (-1 before the first). */
ZEND_METHOD(Cuda_Batches, epoch) {
    ZEND_PARSE_PARAMETERS_NONE();
    batches_obj *b = this_batches(ZEND_THIS);
    if (!b) RETURN_THROWS();
    RETURN_LONG(b->epoch);
}

void php_gtc_batches_minit(zend_class_entry *ce) {
    php_gtc_ce_Batches = ce;
    ce->create_object = batches_create;
    memcpy(&batches_handlers, &std_object_handlers, sizeof batches_handlers);
    batches_handlers.offset = XtOffsetOf(batches_obj, std);
    batches_handlers.free_obj = batches_free;
    batches_handlers.clone_obj = NULL;
}
