/* runtime/php/cudaarray_nn.c: convolution and pooling from PHP: CudaArray's conv2d, maxPool2d
 * and avgPool2d, and Cuda\NN (php-gpu-tensors' static API) as thin wrappers over the same
 * composite ops (ir/composite.c, through php_gtc_apply), so every form runs eagerly, traces in
 * Cuda\Fusion and has gradients. The attributes' values are checked by the expansion, in the
 * graph format's words; here only their PHP shape (a list of so many integers). */
#include "php_gtc.h"

/* A list (keys 0..n-1) of exactly `want` integers, argument arg_num; false after throwing. */
static bool int_list(HashTable *ht, uint32_t arg_num, int want, const char *what, int64_t *out) {
    if (!zend_array_is_list(ht) || zend_hash_num_elements(ht) != (uint32_t)want) {
        zend_argument_error(php_gtc_ce_InvalidArgumentException, arg_num, "must be a list of %d integers (%s)", want, what);
        return false;
    }
    int n = 0;
    zval *v;
    ZEND_HASH_FOREACH_VAL(ht, v) {
        ZVAL_DEREF(v);
        if (Z_TYPE_P(v) != IS_LONG) {
            zend_argument_error(php_gtc_ce_InvalidArgumentException, arg_num, "must contain only integers, %s given",
                                zend_zval_type_name(v));
            return false;
        }
        out[n++] = Z_LVAL_P(v);
    } ZEND_HASH_FOREACH_END();
    return true;
}

/* The optional [height, width] lists and [top, left, bottom, right] pads into a; arg is the
 * position of the first of them; NULL lists keep the default. */
static bool window_args(Attrs *a, uint32_t arg, HashTable *strides, HashTable *pads, HashTable *dil) {
    if (strides && !int_list(strides, arg, 2, "height, width", a->strides)) return false;
    if (pads && !int_list(pads, arg + 1, 4, "top, left, bottom, right", a->pads)) return false;
    if (dil && !int_list(dil, arg + 2, 2, "height, width", a->dilations)) return false;
    a->nstrides = strides ? 2 : 0, a->npads = pads ? 4 : 0, a->ndilations = dil ? 2 : 0;
    return true;
}

/* php-gpu-tensors' symmetric [height, width] padding as [top, left, bottom, right]. */
static bool symmetric_pads(Attrs *a, uint32_t arg, HashTable *padding) {
    int64_t hw[2];
    if (!int_list(padding, arg, 2, "height, width", hw)) return false;
    a->pads[0] = a->pads[2] = hw[0], a->pads[1] = a->pads[3] = hw[1], a->npads = 4;
    return true;
}

static bool group_arg(Attrs *a, uint32_t arg, zend_long group) {
    if (group < 1 || group >= IR_MAX_DIM) {
        zend_argument_error(php_gtc_ce_InvalidArgumentException, arg, "must be from 1 to 2^31-1, " ZEND_LONG_FMT " given", group);
        return false;
    }
    a->group = group;
    return true;
}

static RtTensor *conv(RtTensor *x, zend_object *w, zend_object *b, const Attrs *a) {
    RtOperand in[3] = {{.t = x}, {.t = php_gtc_tensor(w)}, {.t = b ? php_gtc_tensor(b) : NULL}};
    if (!in[1].t || (b && !in[2].t)) return NULL;
    return php_gtc_apply(OP_CONV2D, in, b ? 3 : 2, a);
}

ZEND_METHOD(Cuda_CudaArray, conv2d) {
    zend_object *w, *b = NULL;
    HashTable *strides = NULL, *pads = NULL, *dil = NULL;
    zend_long group = 1;
    ZEND_PARSE_PARAMETERS_START(1, 6)
        Z_PARAM_OBJ_OF_CLASS(w, php_gtc_ce_CudaArray)
        Z_PARAM_OPTIONAL
        Z_PARAM_OBJ_OF_CLASS_OR_NULL(b, php_gtc_ce_CudaArray)
        Z_PARAM_ARRAY_HT(strides)
        Z_PARAM_ARRAY_HT(pads)
        Z_PARAM_ARRAY_HT(dil)
        Z_PARAM_LONG(group)
    ZEND_PARSE_PARAMETERS_END();
    GTC_THIS_TENSOR(t);
    Attrs a = {0};
    if (!window_args(&a, 3, strides, pads, dil) || !group_arg(&a, 6, group)) RETURN_THROWS();
    RETURN_TENSOR(conv(t, w, b, &a));
}

static void pool(INTERNAL_FUNCTION_PARAMETERS, Op op) {
    HashTable *kernel, *strides = NULL, *pads = NULL;
    bool include = false;
    ZEND_PARSE_PARAMETERS_START(1, op == OP_AVG_POOL2D ? 4 : 3)
        Z_PARAM_ARRAY_HT(kernel)
        Z_PARAM_OPTIONAL
        Z_PARAM_ARRAY_HT(strides)
        Z_PARAM_ARRAY_HT(pads)
        Z_PARAM_BOOL(include)
    ZEND_PARSE_PARAMETERS_END();
    GTC_THIS_TENSOR(t);
    Attrs a = {.nkernel = 2, .count_include_pad = include};
    if (!int_list(kernel, 1, 2, "height, width", a.kernel) || !window_args(&a, 2, strides, pads, NULL)) RETURN_THROWS();
    RtOperand in = {.t = t};
    RETURN_TENSOR(php_gtc_apply(op, &in, 1, &a));
}

ZEND_METHOD(Cuda_CudaArray, maxPool2d) { pool(INTERNAL_FUNCTION_PARAM_PASSTHRU, OP_MAX_POOL2D); }
ZEND_METHOD(Cuda_CudaArray, avgPool2d) { pool(INTERNAL_FUNCTION_PARAM_PASSTHRU, OP_AVG_POOL2D); }

/* ---- Cuda\NN --------------------------------------------------------------------------------- */

ZEND_METHOD(Cuda_NN, conv2d) {
    zend_object *x, *w, *b = NULL;
    HashTable *stride = NULL, *padding = NULL, *dil = NULL;
    zend_long groups = 1;
    ZEND_PARSE_PARAMETERS_START(2, 7)
        Z_PARAM_OBJ_OF_CLASS(x, php_gtc_ce_CudaArray)
        Z_PARAM_OBJ_OF_CLASS(w, php_gtc_ce_CudaArray)
        Z_PARAM_OPTIONAL
        Z_PARAM_OBJ_OF_CLASS_OR_NULL(b, php_gtc_ce_CudaArray)
        Z_PARAM_ARRAY_HT(stride)
        Z_PARAM_ARRAY_HT(padding)
        Z_PARAM_ARRAY_HT(dil)
        Z_PARAM_LONG(groups)
    ZEND_PARSE_PARAMETERS_END();
    Attrs a = {0};
    RtTensor *t = php_gtc_tensor(x);
    if (!t || !window_args(&a, 4, stride, NULL, dil) || (padding && !symmetric_pads(&a, 5, padding)) ||
        !group_arg(&a, 7, groups))
        RETURN_THROWS();
    RETURN_TENSOR(conv(t, w, b, &a));
}

ZEND_METHOD(Cuda_NN, pool2d) {
    zend_object *x;
    HashTable *window, *stride = NULL, *padding = NULL;
    zend_string *mode = NULL;
    ZEND_PARSE_PARAMETERS_START(2, 5)
        Z_PARAM_OBJ_OF_CLASS(x, php_gtc_ce_CudaArray)
        Z_PARAM_ARRAY_HT(window)
        Z_PARAM_OPTIONAL
        Z_PARAM_ARRAY_HT(stride)
        Z_PARAM_ARRAY_HT(padding)
        Z_PARAM_STR(mode)
    ZEND_PARSE_PARAMETERS_END();
    Op op = OP_MAX_POOL2D;
    if (mode && strcmp(ZSTR_VAL(mode), "average") == 0) op = OP_AVG_POOL2D;
    else if (mode && strcmp(ZSTR_VAL(mode), "max") != 0) {
        zend_argument_error(php_gtc_ce_InvalidArgumentException, 5, "must be 'max' or 'average'");
        RETURN_THROWS();
    }
    Attrs a = {.nkernel = 2, .nstrides = 2, .strides = {2, 2}};
    RtTensor *t = php_gtc_tensor(x);
    if (!t || !int_list(window, 2, 2, "height, width", a.kernel) || (stride && !int_list(stride, 3, 2, "height, width", a.strides)) ||
        (padding && !symmetric_pads(&a, 4, padding)))
        RETURN_THROWS();
    RtOperand in = {.t = t};
    RETURN_TENSOR(php_gtc_apply(op, &in, 1, &a));
}

/* The channel softmax of an NCHW array (axis 1), as the peer's cuDNN softmax. */
ZEND_METHOD(Cuda_NN, softmax) {
    zend_object *x;
    ZEND_PARSE_PARAMETERS_START(1, 1)
        Z_PARAM_OBJ_OF_CLASS(x, php_gtc_ce_CudaArray)
    ZEND_PARSE_PARAMETERS_END();
    RtTensor *t = php_gtc_tensor(x);
    if (!t) RETURN_THROWS();
    if (t->rank != 4) {
        zend_argument_error(php_gtc_ce_InvalidArgumentException, 1, "must have rank 4 (N, C, H, W), got rank %d", t->rank);
        RETURN_THROWS();
    }
    Attrs a = {.axis = 1, .has_axis = true};
    RtOperand in = {.t = t};
    RETURN_TENSOR(php_gtc_apply(OP_SOFTMAX, &in, 1, &a));
}

/* gtc's convolution and pooling need no cuDNN: always available. */
ZEND_METHOD(Cuda_NN, isAvailable) {
    ZEND_PARSE_PARAMETERS_NONE();
    RETURN_TRUE;
}
