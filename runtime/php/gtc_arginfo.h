/* This is a generated file, edit the .stub.php file instead.
 * Written by hand in gen_stub.php's style (gen_stub needs PHP-Parser, which the build does not
 * fetch); tests/php/stub_reflection.phpt checks it against gtc.stub.php. */
ZEND_BEGIN_ARG_INFO_EX(arginfo_class_Cuda_CudaArray___construct, 0, 0, 1)
	ZEND_ARG_TYPE_INFO(0, data, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, dtype, IS_STRING, 1, "\"float32\"")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_CudaArray_offsetGet, 0, 1, IS_MIXED, 0)
	ZEND_ARG_TYPE_INFO(0, offset, IS_MIXED, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_CudaArray_offsetExists, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, offset, IS_MIXED, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_CudaArray_offsetSet, 0, 2, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO(0, offset, IS_MIXED, 0)
	ZEND_ARG_TYPE_INFO(0, value, IS_MIXED, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_CudaArray_offsetUnset, 0, 1, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO(0, offset, IS_MIXED, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray___invoke, 0, 0, Cuda\\CudaArray, 0)
	{ "selectors", ZEND_TYPE_INIT_MASK(MAY_BE_LONG|MAY_BE_ARRAY|MAY_BE_NULL | _ZEND_ARG_INFO_FLAGS(0, 1, 0)), NULL },
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_fromBuffer, 0, 2, Cuda\\CudaArray, 0)
	ZEND_ARG_TYPE_INFO(0, bytes, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, shape, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, dtype, IS_STRING, 0, "\"float32\"")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_fromFlatArray, 0, 2, Cuda\\CudaArray, 0)
	ZEND_ARG_TYPE_INFO(0, values, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, shape, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, dtype, IS_STRING, 1, "\"float32\"")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_fromFile, 0, 2, Cuda\\CudaArray, 0)
	ZEND_ARG_TYPE_INFO(0, path, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, shape, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, dtype, IS_STRING, 1, "\"float32\"")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_CudaArray_toBuffer, 0, 0, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_CudaArray_toArray, 0, 0, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_class_Cuda_CudaArray_item, 0, 0, MAY_BE_LONG|MAY_BE_DOUBLE|MAY_BE_BOOL)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_fromNpy, 0, 1, Cuda\\CudaArray, 0)
	ZEND_ARG_TYPE_INFO(0, path, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_CudaArray_toNpy, 0, 1, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO(0, path, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_CudaArray_saveNpz, 0, 2, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO(0, path, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, tensors, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, compress, _IS_BOOL, 0, "false")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_CudaArray_loadNpz, 0, 1, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, path, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_randn, 0, 2, Cuda\\CudaArray, 0)
	ZEND_ARG_TYPE_INFO(0, shape, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, seed, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, dtype, IS_STRING, 0, "\"float32\"")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_randint, 0, 4, Cuda\\CudaArray, 0)
	ZEND_ARG_TYPE_INFO(0, low, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO(0, high, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO(0, shape, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, seed, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, dtype, IS_STRING, 0, "\"int64\"")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_arange, 0, 1, Cuda\\CudaArray, 0)
	ZEND_ARG_TYPE_MASK(0, start, MAY_BE_LONG|MAY_BE_DOUBLE, NULL)
	ZEND_ARG_TYPE_MASK(0, stop, MAY_BE_LONG|MAY_BE_DOUBLE|MAY_BE_NULL, "null")
	ZEND_ARG_TYPE_MASK(0, step, MAY_BE_LONG|MAY_BE_DOUBLE, "1")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, dtype, IS_STRING, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_linspace, 0, 2, Cuda\\CudaArray, 0)
	ZEND_ARG_TYPE_MASK(0, start, MAY_BE_LONG|MAY_BE_DOUBLE, NULL)
	ZEND_ARG_TYPE_MASK(0, stop, MAY_BE_LONG|MAY_BE_DOUBLE, NULL)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, num, IS_LONG, 0, "50")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, endpoint, _IS_BOOL, 0, "true")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, dtype, IS_STRING, 0, "\"float32\"")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_permutation, 0, 2, Cuda\\CudaArray, 0)
	ZEND_ARG_TYPE_INFO(0, n, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO(0, seed, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_oneHot, 0, 1, Cuda\\CudaArray, 0)
	ZEND_ARG_TYPE_INFO(0, depth, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, dtype, IS_STRING, 0, "\"float32\"")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_contiguous, 0, 0, Cuda\\CudaArray, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_zeros, 0, 1, Cuda\\CudaArray, 0)
	ZEND_ARG_TYPE_INFO(0, shape, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, dtype, IS_STRING, 0, "\"float32\"")
ZEND_END_ARG_INFO()

#define arginfo_class_Cuda_CudaArray_ones arginfo_class_Cuda_CudaArray_zeros

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_full, 0, 2, Cuda\\CudaArray, 0)
	ZEND_ARG_TYPE_INFO(0, shape, IS_ARRAY, 0)
	ZEND_ARG_TYPE_MASK(0, value, MAY_BE_LONG|MAY_BE_DOUBLE|MAY_BE_BOOL, NULL)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, dtype, IS_STRING, 0, "\"float32\"")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_rand, 0, 1, Cuda\\CudaArray, 0)
	ZEND_ARG_TYPE_INFO(0, shape, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, seed, IS_LONG, 1, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, dtype, IS_STRING, 0, "\"float32\"")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_add, 0, 1, Cuda\\CudaArray, 0)
	ZEND_ARG_OBJ_TYPE_MASK(0, other, Cuda\\CudaArray, MAY_BE_LONG|MAY_BE_DOUBLE, NULL)
ZEND_END_ARG_INFO()

#define arginfo_class_Cuda_CudaArray_subtract arginfo_class_Cuda_CudaArray_add

#define arginfo_class_Cuda_CudaArray_multiply arginfo_class_Cuda_CudaArray_add

#define arginfo_class_Cuda_CudaArray_divide arginfo_class_Cuda_CudaArray_add

#define arginfo_class_Cuda_CudaArray_power arginfo_class_Cuda_CudaArray_add

#define arginfo_class_Cuda_CudaArray_maximum arginfo_class_Cuda_CudaArray_add

#define arginfo_class_Cuda_CudaArray_minimum arginfo_class_Cuda_CudaArray_add

#define arginfo_class_Cuda_CudaArray_eq arginfo_class_Cuda_CudaArray_add

#define arginfo_class_Cuda_CudaArray_ne arginfo_class_Cuda_CudaArray_add

#define arginfo_class_Cuda_CudaArray_lt arginfo_class_Cuda_CudaArray_add

#define arginfo_class_Cuda_CudaArray_le arginfo_class_Cuda_CudaArray_add

#define arginfo_class_Cuda_CudaArray_gt arginfo_class_Cuda_CudaArray_add

#define arginfo_class_Cuda_CudaArray_ge arginfo_class_Cuda_CudaArray_add

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_clamp, 0, 2, Cuda\\CudaArray, 0)
	ZEND_ARG_OBJ_TYPE_MASK(0, min, Cuda\\CudaArray, MAY_BE_LONG|MAY_BE_DOUBLE, NULL)
	ZEND_ARG_OBJ_TYPE_MASK(0, max, Cuda\\CudaArray, MAY_BE_LONG|MAY_BE_DOUBLE, NULL)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_neg, 0, 0, Cuda\\CudaArray, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Cuda_CudaArray_abs arginfo_class_Cuda_CudaArray_neg

#define arginfo_class_Cuda_CudaArray_exp arginfo_class_Cuda_CudaArray_neg

#define arginfo_class_Cuda_CudaArray_log arginfo_class_Cuda_CudaArray_neg

#define arginfo_class_Cuda_CudaArray_sqrt arginfo_class_Cuda_CudaArray_neg

#define arginfo_class_Cuda_CudaArray_rsqrt arginfo_class_Cuda_CudaArray_neg

#define arginfo_class_Cuda_CudaArray_sin arginfo_class_Cuda_CudaArray_neg

#define arginfo_class_Cuda_CudaArray_cos arginfo_class_Cuda_CudaArray_neg

#define arginfo_class_Cuda_CudaArray_tan arginfo_class_Cuda_CudaArray_neg

#define arginfo_class_Cuda_CudaArray_tanh arginfo_class_Cuda_CudaArray_neg

#define arginfo_class_Cuda_CudaArray_erf arginfo_class_Cuda_CudaArray_neg

#define arginfo_class_Cuda_CudaArray_sigmoid arginfo_class_Cuda_CudaArray_neg

#define arginfo_class_Cuda_CudaArray_relu arginfo_class_Cuda_CudaArray_neg

#define arginfo_class_Cuda_CudaArray_floor arginfo_class_Cuda_CudaArray_neg

#define arginfo_class_Cuda_CudaArray_ceil arginfo_class_Cuda_CudaArray_neg

#define arginfo_class_Cuda_CudaArray_round arginfo_class_Cuda_CudaArray_neg

#define arginfo_class_Cuda_CudaArray_sign arginfo_class_Cuda_CudaArray_neg

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_astype, 0, 1, Cuda\\CudaArray, 0)
	ZEND_ARG_TYPE_INFO(0, dtype, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, casting, IS_STRING, 0, "\"same_kind\"")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_where, 0, 3, Cuda\\CudaArray, 0)
	ZEND_ARG_OBJ_INFO(0, condition, Cuda\\CudaArray, 0)
	ZEND_ARG_OBJ_TYPE_MASK(0, x, Cuda\\CudaArray, MAY_BE_LONG|MAY_BE_DOUBLE, NULL)
	ZEND_ARG_OBJ_TYPE_MASK(0, y, Cuda\\CudaArray, MAY_BE_LONG|MAY_BE_DOUBLE, NULL)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_sum, 0, 0, Cuda\\CudaArray, 0)
	ZEND_ARG_TYPE_MASK(0, axis, MAY_BE_LONG|MAY_BE_ARRAY|MAY_BE_NULL, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, keepdims, _IS_BOOL, 0, "false")
ZEND_END_ARG_INFO()

#define arginfo_class_Cuda_CudaArray_all arginfo_class_Cuda_CudaArray_sum

#define arginfo_class_Cuda_CudaArray_any arginfo_class_Cuda_CudaArray_sum

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_var, 0, 0, Cuda\\CudaArray, 0)
	ZEND_ARG_TYPE_MASK(0, axis, MAY_BE_LONG|MAY_BE_ARRAY|MAY_BE_NULL, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, correction, IS_LONG, 0, "0")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, keepdims, _IS_BOOL, 0, "false")
ZEND_END_ARG_INFO()

#define arginfo_class_Cuda_CudaArray_std arginfo_class_Cuda_CudaArray_var

#define arginfo_class_Cuda_CudaArray_mean arginfo_class_Cuda_CudaArray_sum

#define arginfo_class_Cuda_CudaArray_max arginfo_class_Cuda_CudaArray_sum

#define arginfo_class_Cuda_CudaArray_min arginfo_class_Cuda_CudaArray_sum

#define arginfo_class_Cuda_CudaArray_prod arginfo_class_Cuda_CudaArray_sum

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_argMax, 0, 0, Cuda\\CudaArray, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, axis, IS_LONG, 1, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, keepdims, _IS_BOOL, 0, "false")
ZEND_END_ARG_INFO()

#define arginfo_class_Cuda_CudaArray_argMin arginfo_class_Cuda_CudaArray_argMax

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_matmul, 0, 1, Cuda\\CudaArray, 0)
	ZEND_ARG_OBJ_INFO(0, other, Cuda\\CudaArray, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_gather, 0, 1, Cuda\\CudaArray, 0)
	ZEND_ARG_OBJ_INFO(0, indices, Cuda\\CudaArray, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, axis, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_scatterAdd, 0, 2, Cuda\\CudaArray, 0)
	ZEND_ARG_OBJ_INFO(0, indices, Cuda\\CudaArray, 0)
	ZEND_ARG_OBJ_INFO(0, updates, Cuda\\CudaArray, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, axis, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_concat, 0, 1, Cuda\\CudaArray, 0)
	ZEND_ARG_TYPE_INFO(0, tensors, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, axis, IS_LONG, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_pad, 0, 1, Cuda\\CudaArray, 0)
	ZEND_ARG_TYPE_INFO(0, pads, IS_ARRAY, 0)
	ZEND_ARG_TYPE_MASK(0, value, MAY_BE_LONG|MAY_BE_DOUBLE, "0")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_dropout, 0, 2, Cuda\\CudaArray, 0)
	ZEND_ARG_TYPE_INFO(0, ratio, IS_DOUBLE, 0)
	ZEND_ARG_OBJ_TYPE_MASK(0, seed, Cuda\\CudaArray, MAY_BE_LONG, NULL)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_softmax, 0, 0, Cuda\\CudaArray, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, axis, IS_LONG, 0, "-1")
ZEND_END_ARG_INFO()

#define arginfo_class_Cuda_CudaArray_logSoftmax arginfo_class_Cuda_CudaArray_softmax

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_layerNorm, 0, 2, Cuda\\CudaArray, 0)
	ZEND_ARG_OBJ_TYPE_MASK(0, scale, Cuda\\CudaArray, MAY_BE_LONG|MAY_BE_DOUBLE, NULL)
	ZEND_ARG_OBJ_TYPE_MASK(0, bias, Cuda\\CudaArray, MAY_BE_LONG|MAY_BE_DOUBLE, NULL)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, axis, IS_LONG, 0, "-1")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, epsilon, IS_DOUBLE, 0, "1.0E-5")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_gelu, 0, 0, Cuda\\CudaArray, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, approximate, IS_STRING, 0, "\'none\'")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_crossEntropy, 0, 1, Cuda\\CudaArray, 0)
	ZEND_ARG_OBJ_INFO(0, target, Cuda\\CudaArray, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, axis, IS_LONG, 0, "1")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_conv2d, 0, 1, Cuda\\CudaArray, 0)
	ZEND_ARG_OBJ_INFO(0, weight, Cuda\\CudaArray, 0)
	ZEND_ARG_OBJ_INFO_WITH_DEFAULT_VALUE(0, bias, Cuda\\CudaArray, 1, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, strides, IS_ARRAY, 0, "[1, 1]")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, pads, IS_ARRAY, 0, "[0, 0, 0, 0]")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, dilations, IS_ARRAY, 0, "[1, 1]")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, group, IS_LONG, 0, "1")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_maxPool2d, 0, 1, Cuda\\CudaArray, 0)
	ZEND_ARG_TYPE_INFO(0, kernel, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, strides, IS_ARRAY, 0, "[1, 1]")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, pads, IS_ARRAY, 0, "[0, 0, 0, 0]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_avgPool2d, 0, 1, Cuda\\CudaArray, 0)
	ZEND_ARG_TYPE_INFO(0, kernel, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, strides, IS_ARRAY, 0, "[1, 1]")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, pads, IS_ARRAY, 0, "[0, 0, 0, 0]")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, countIncludePad, _IS_BOOL, 0, "false")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_NN_conv2d, 0, 2, Cuda\\CudaArray, 0)
	ZEND_ARG_OBJ_INFO(0, input, Cuda\\CudaArray, 0)
	ZEND_ARG_OBJ_INFO(0, weights, Cuda\\CudaArray, 0)
	ZEND_ARG_OBJ_INFO_WITH_DEFAULT_VALUE(0, bias, Cuda\\CudaArray, 1, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, stride, IS_ARRAY, 0, "[1, 1]")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, padding, IS_ARRAY, 0, "[0, 0]")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, dilation, IS_ARRAY, 0, "[1, 1]")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, groups, IS_LONG, 0, "1")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_NN_pool2d, 0, 2, Cuda\\CudaArray, 0)
	ZEND_ARG_OBJ_INFO(0, input, Cuda\\CudaArray, 0)
	ZEND_ARG_TYPE_INFO(0, window, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, stride, IS_ARRAY, 0, "[2, 2]")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, padding, IS_ARRAY, 0, "[0, 0]")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, mode, IS_STRING, 0, "\'max\'")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_NN_softmax, 0, 1, Cuda\\CudaArray, 0)
	ZEND_ARG_OBJ_INFO(0, input, Cuda\\CudaArray, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_NN_isAvailable, 0, 0, _IS_BOOL, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_Distributed_init, 0, 0, IS_VOID, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Cuda_Distributed_isInitialized arginfo_class_Cuda_NN_isAvailable

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_Distributed_rank, 0, 0, IS_LONG, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Cuda_Distributed_worldSize arginfo_class_Cuda_Distributed_rank

#define arginfo_class_Cuda_Distributed_localRank arginfo_class_Cuda_Distributed_rank

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_Distributed_backend, 0, 0, IS_STRING, 1)
ZEND_END_ARG_INFO()

#define arginfo_class_Cuda_Distributed_barrier arginfo_class_Cuda_Distributed_init

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_Distributed_broadcast, 0, 1, IS_VOID, 0)
	ZEND_ARG_OBJ_INFO(0, array, Cuda\\CudaArray, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, root, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_Distributed_allReduce, 0, 1, IS_VOID, 0)
	ZEND_ARG_OBJ_INFO(0, array, Cuda\\CudaArray, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, op, IS_STRING, 0, "\"sum\"")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_Distributed_shard, 0, 1, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, n, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, epoch, IS_LONG, 0, "0")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, shuffle, _IS_BOOL, 0, "true")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, seed, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

#define arginfo_class_Cuda_Distributed_destroy arginfo_class_Cuda_Distributed_init

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_reshape, 0, 1, Cuda\\CudaArray, 0)
	ZEND_ARG_TYPE_INFO(0, shape, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_transpose, 0, 0, Cuda\\CudaArray, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, perm, IS_ARRAY, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_squeeze, 0, 0, Cuda\\CudaArray, 0)
	ZEND_ARG_TYPE_MASK(0, axis, MAY_BE_LONG|MAY_BE_ARRAY|MAY_BE_NULL, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_unsqueeze, 0, 1, Cuda\\CudaArray, 0)
	ZEND_ARG_TYPE_INFO(0, axis, IS_LONG, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Cuda_CudaArray_broadcastTo arginfo_class_Cuda_CudaArray_reshape

#define arginfo_class_Cuda_CudaArray_flatten arginfo_class_Cuda_CudaArray_neg

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_slice, 0, 0, Cuda\\CudaArray, 0)
	ZEND_ARG_VARIADIC_TYPE_INFO(0, selectors, IS_MIXED, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_CudaArray_getShape, 0, 0, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Cuda_CudaArray_getStrides arginfo_class_Cuda_CudaArray_getShape

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_CudaArray_dtype, 0, 0, IS_STRING, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Cuda_CudaArray_getNdims arginfo_class_Cuda_CudaArray_getSize

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_CudaArray_getSize, 0, 0, IS_LONG, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Cuda_CudaArray_device arginfo_class_Cuda_CudaArray_dtype

#define arginfo_class_Cuda_CudaArray_memoryInfo arginfo_class_Cuda_CudaArray_getShape

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_toHost, 0, 0, Cuda\\HostArray, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_requiresGrad, 0, 0, Cuda\\CudaArray, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, requiresGrad, _IS_BOOL, 0, "true")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_CudaArray_backward, 0, 0, IS_VOID, 0)
	ZEND_ARG_OBJ_INFO_WITH_DEFAULT_VALUE(0, gradient, Cuda\\CudaArray, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_CudaArray_grad, 0, 0, Cuda\\CudaArray, 1)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_CudaArray_zeroGrad, 0, 0, IS_VOID, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Cuda_CudaArray_detach arginfo_class_Cuda_CudaArray_neg

#define arginfo_class_Cuda_CudaArray___debugInfo arginfo_class_Cuda_CudaArray_getShape

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_CudaArray___toString, 0, 0, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_CudaArray_count, 0, 0, IS_LONG, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Cuda_CudaArray___serialize arginfo_class_Cuda_CudaArray_getShape

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_CudaArray___unserialize, 0, 1, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO(0, data, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_Cuda_FusionGraph___construct, 0, 0, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_Cuda_HostArray___construct, 0, 0, 1)
	ZEND_ARG_TYPE_INFO(0, values, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, dtype, IS_STRING, 1, "\"float32\"")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, pinned, _IS_BOOL, 0, "false")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_HostArray_fromArray, 0, 1, Cuda\\HostArray, 0)
	ZEND_ARG_TYPE_INFO(0, data, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, dtype, IS_STRING, 0, "\"float32\"")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_HostArray_fromBuffer, 0, 2, Cuda\\HostArray, 0)
	ZEND_ARG_TYPE_INFO(0, bytes, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, shape, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, dtype, IS_STRING, 1, "\"float32\"")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, pinned, _IS_BOOL, 0, "false")
ZEND_END_ARG_INFO()

#define arginfo_class_Cuda_HostArray_toArray arginfo_class_Cuda_CudaArray_toArray

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_HostArray_toBuffer, 0, 0, IS_STRING, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Cuda_HostArray_getShape arginfo_class_Cuda_CudaArray_getShape

#define arginfo_class_Cuda_HostArray_dtype arginfo_class_Cuda_CudaArray_dtype

#define arginfo_class_Cuda_HostArray_getDtype arginfo_class_Cuda_HostArray_toBuffer

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_HostArray_getNdims, 0, 0, IS_LONG, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Cuda_HostArray_getSize arginfo_class_Cuda_HostArray_getNdims

#define arginfo_class_Cuda_HostArray_getElementSize arginfo_class_Cuda_HostArray_getNdims

#define arginfo_class_Cuda_HostArray_count arginfo_class_Cuda_HostArray_getNdims

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_class_Cuda_HostArray_get, 0, 1, MAY_BE_LONG|MAY_BE_DOUBLE|MAY_BE_BOOL)
	ZEND_ARG_TYPE_INFO(0, indices, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_class_Cuda_HostArray_at, 0, 0, MAY_BE_LONG|MAY_BE_DOUBLE|MAY_BE_BOOL)
	ZEND_ARG_VARIADIC_TYPE_INFO(0, indices, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_HostArray_isPinned, 0, 0, _IS_BOOL, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_HostArray_toDevice, 0, 0, Cuda\\CudaArray, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Cuda_HostArray_toGpu arginfo_class_Cuda_HostArray_toDevice

#define arginfo_class_Cuda_HostArray___serialize arginfo_class_Cuda_CudaArray_getShape

#define arginfo_class_Cuda_HostArray___unserialize arginfo_class_Cuda_CudaArray___unserialize

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_CompilationException_getLog, 0, 0, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_Cuda_Compiler___construct, 0, 0, 1)
	ZEND_ARG_TYPE_INFO(0, source, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, names, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_Compiler_launch, 0, 4, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO(0, kernel, IS_STRING, 0)
	ZEND_ARG_TYPE_MASK(0, grid, MAY_BE_ARRAY|MAY_BE_LONG, NULL)
	ZEND_ARG_TYPE_MASK(0, block, MAY_BE_ARRAY|MAY_BE_LONG, NULL)
	ZEND_ARG_TYPE_INFO(0, args, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, sharedMem, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

#define arginfo_class_Cuda_Compiler_kernels arginfo_class_Cuda_CudaArray_getShape

#define arginfo_class_Cuda_Compiler_getLog arginfo_class_Cuda_CompilationException_getLog

#define arginfo_class_Cuda_Compiler_getPtx arginfo_class_Cuda_CompilationException_getLog

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_Fusion_compile, 0, 2, Cuda\\FusionGraph, 0)
	ZEND_ARG_TYPE_INFO(0, fn, IS_CALLABLE, 0)
	ZEND_ARG_TYPE_INFO(0, inputs, IS_ARRAY, 0)
	ZEND_ARG_TYPE_MASK(0, name, MAY_BE_STRING|MAY_BE_BOOL, "\"fusion\"")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, donate, IS_ARRAY, 0, "[]")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, cudaGraph, _IS_BOOL, 0, "false")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, precision, IS_STRING, 0, "\"fp32\"")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, dynamic, IS_ARRAY, 0, "[]")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, dataParallel, _IS_BOOL, 0, "false")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_TYPE_MASK_EX(arginfo_class_Cuda_Fusion_run, 0, 1, Cuda\\CudaArray, MAY_BE_ARRAY)
	ZEND_ARG_TYPE_INFO(0, fn, IS_CALLABLE, 0)
	ZEND_ARG_TYPE_MASK(0, inputs, MAY_BE_ARRAY|MAY_BE_BOOL, "[]")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, enabled, _IS_BOOL, 0, "true")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_Fusion_getCacheStats, 0, 0, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_Fusion_clearCache, 0, 0, IS_VOID, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_Fusion_export, 0, 2, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, fn, IS_CALLABLE, 0)
	ZEND_ARG_TYPE_INFO(0, inputs, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, name, IS_STRING, 0, "\"fusion\"")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, donate, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_Fusion_isTracing, 0, 0, _IS_BOOL, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_TYPE_MASK_EX(arginfo_class_Cuda_FusionGraph_run, 0, 0, Cuda\\CudaArray, MAY_BE_ARRAY)
	ZEND_ARG_VARIADIC_TYPE_INFO(0, inputs, IS_MIXED, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_FusionGraph_runAsync, 0, 0, Cuda\\FusionExecution, 0)
	ZEND_ARG_VARIADIC_TYPE_INFO(0, inputs, IS_MIXED, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Cuda_FusionGraph_getPlan arginfo_class_Cuda_CudaArray_getShape

#define arginfo_class_Cuda_FusionGraph_getStats arginfo_class_Cuda_CudaArray_getShape

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_FusionGraph_getSource, 0, 0, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, part, IS_STRING, 1, "null")
ZEND_END_ARG_INFO()

#define arginfo_class_Cuda_FusionGraph_inputs arginfo_class_Cuda_CudaArray_getShape

#define arginfo_class_Cuda_FusionGraph_outputs arginfo_class_Cuda_CudaArray_getShape

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_FusionGraph_saveCheckpoint, 0, 2, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO(0, path, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, inputs, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, compress, _IS_BOOL, 0, "false")
ZEND_END_ARG_INFO()

#define arginfo_class_Cuda_FusionGraph_loadCheckpoint arginfo_class_Cuda_CudaArray_loadNpz

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_Cuda_Batches___construct, 0, 0, 2)
	ZEND_ARG_TYPE_INFO(0, arrays, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, batchSize, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, shuffle, _IS_BOOL, 0, "false")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, seed, IS_LONG, 0, "0")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, dropLast, _IS_BOOL, 0, "false")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_Batches_current, 0, 0, IS_ARRAY, 1)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_Batches_key, 0, 0, IS_LONG, 1)
ZEND_END_ARG_INFO()

#define arginfo_class_Cuda_Batches_next arginfo_class_Cuda_Fusion_clearCache

#define arginfo_class_Cuda_Batches_rewind arginfo_class_Cuda_Fusion_clearCache

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_Batches_valid, 0, 0, _IS_BOOL, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Cuda_Batches_count arginfo_class_Cuda_CudaArray_count

#define arginfo_class_Cuda_Batches_epoch arginfo_class_Cuda_CudaArray_count

#define arginfo_class_Cuda_FusionGraph_optimizerState arginfo_class_Cuda_CudaArray_getShape

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_FusionGraph_setOptimizerState, 0, 1, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO(0, state, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Cuda_FusionGraph_resetOptimizerState arginfo_class_Cuda_Fusion_clearCache

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_FusionGraph_setProfiling, 0, 1, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO(0, enabled, _IS_BOOL, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_TYPE_MASK_EX(arginfo_class_Cuda_FusionExecution_wait, 0, 0, Cuda\\CudaArray, MAY_BE_ARRAY)
ZEND_END_ARG_INFO()

#define arginfo_class_Cuda_FusionExecution_isFinished arginfo_class_Cuda_Fusion_isTracing

ZEND_METHOD(Cuda_CompilationException, getLog);
ZEND_METHOD(Cuda_CudaArray, __construct);
ZEND_METHOD(Cuda_CudaArray, __invoke);
ZEND_METHOD(Cuda_CudaArray, offsetGet);
ZEND_METHOD(Cuda_CudaArray, offsetExists);
ZEND_METHOD(Cuda_CudaArray, offsetSet);
ZEND_METHOD(Cuda_CudaArray, offsetUnset);
ZEND_METHOD(Cuda_CudaArray, fromBuffer);
ZEND_METHOD(Cuda_CudaArray, fromFlatArray);
ZEND_METHOD(Cuda_CudaArray, fromFile);
ZEND_METHOD(Cuda_CudaArray, toBuffer);
ZEND_METHOD(Cuda_CudaArray, toArray);
ZEND_METHOD(Cuda_CudaArray, item);
ZEND_METHOD(Cuda_CudaArray, fromNpy);
ZEND_METHOD(Cuda_CudaArray, toNpy);
ZEND_METHOD(Cuda_CudaArray, saveNpz);
ZEND_METHOD(Cuda_CudaArray, loadNpz);
ZEND_METHOD(Cuda_CudaArray, randn);
ZEND_METHOD(Cuda_CudaArray, randint);
ZEND_METHOD(Cuda_CudaArray, arange);
ZEND_METHOD(Cuda_CudaArray, linspace);
ZEND_METHOD(Cuda_CudaArray, permutation);
ZEND_METHOD(Cuda_CudaArray, oneHot);
ZEND_METHOD(Cuda_CudaArray, contiguous);
ZEND_METHOD(Cuda_CudaArray, zeros);
ZEND_METHOD(Cuda_CudaArray, ones);
ZEND_METHOD(Cuda_CudaArray, full);
ZEND_METHOD(Cuda_CudaArray, rand);
ZEND_METHOD(Cuda_CudaArray, add);
ZEND_METHOD(Cuda_CudaArray, subtract);
ZEND_METHOD(Cuda_CudaArray, multiply);
ZEND_METHOD(Cuda_CudaArray, divide);
ZEND_METHOD(Cuda_CudaArray, power);
ZEND_METHOD(Cuda_CudaArray, maximum);
ZEND_METHOD(Cuda_CudaArray, minimum);
ZEND_METHOD(Cuda_CudaArray, eq);
ZEND_METHOD(Cuda_CudaArray, ne);
ZEND_METHOD(Cuda_CudaArray, lt);
ZEND_METHOD(Cuda_CudaArray, le);
ZEND_METHOD(Cuda_CudaArray, gt);
ZEND_METHOD(Cuda_CudaArray, ge);
ZEND_METHOD(Cuda_CudaArray, clamp);
ZEND_METHOD(Cuda_CudaArray, neg);
ZEND_METHOD(Cuda_CudaArray, abs);
ZEND_METHOD(Cuda_CudaArray, exp);
ZEND_METHOD(Cuda_CudaArray, log);
ZEND_METHOD(Cuda_CudaArray, sqrt);
ZEND_METHOD(Cuda_CudaArray, rsqrt);
ZEND_METHOD(Cuda_CudaArray, sin);
ZEND_METHOD(Cuda_CudaArray, cos);
ZEND_METHOD(Cuda_CudaArray, tan);
ZEND_METHOD(Cuda_CudaArray, tanh);
ZEND_METHOD(Cuda_CudaArray, erf);
ZEND_METHOD(Cuda_CudaArray, sigmoid);
ZEND_METHOD(Cuda_CudaArray, relu);
ZEND_METHOD(Cuda_CudaArray, floor);
ZEND_METHOD(Cuda_CudaArray, ceil);
ZEND_METHOD(Cuda_CudaArray, round);
ZEND_METHOD(Cuda_CudaArray, sign);
ZEND_METHOD(Cuda_CudaArray, astype);
ZEND_METHOD(Cuda_CudaArray, where);
ZEND_METHOD(Cuda_CudaArray, sum);
ZEND_METHOD(Cuda_CudaArray, mean);
ZEND_METHOD(Cuda_CudaArray, all);
ZEND_METHOD(Cuda_CudaArray, any);
ZEND_METHOD(Cuda_CudaArray, var);
ZEND_METHOD(Cuda_CudaArray, std);
ZEND_METHOD(Cuda_CudaArray, max);
ZEND_METHOD(Cuda_CudaArray, min);
ZEND_METHOD(Cuda_CudaArray, prod);
ZEND_METHOD(Cuda_CudaArray, argMax);
ZEND_METHOD(Cuda_CudaArray, argMin);
ZEND_METHOD(Cuda_CudaArray, matmul);
ZEND_METHOD(Cuda_CudaArray, gather);
ZEND_METHOD(Cuda_CudaArray, scatterAdd);
ZEND_METHOD(Cuda_CudaArray, concat);
ZEND_METHOD(Cuda_CudaArray, pad);
ZEND_METHOD(Cuda_CudaArray, dropout);
ZEND_METHOD(Cuda_CudaArray, softmax);
ZEND_METHOD(Cuda_CudaArray, logSoftmax);
ZEND_METHOD(Cuda_CudaArray, layerNorm);
ZEND_METHOD(Cuda_CudaArray, gelu);
ZEND_METHOD(Cuda_CudaArray, crossEntropy);
ZEND_METHOD(Cuda_CudaArray, reshape);
ZEND_METHOD(Cuda_CudaArray, flatten);
ZEND_METHOD(Cuda_CudaArray, transpose);
ZEND_METHOD(Cuda_CudaArray, squeeze);
ZEND_METHOD(Cuda_CudaArray, unsqueeze);
ZEND_METHOD(Cuda_CudaArray, broadcastTo);
ZEND_METHOD(Cuda_CudaArray, slice);
ZEND_METHOD(Cuda_CudaArray, getShape);
ZEND_METHOD(Cuda_CudaArray, getStrides);
ZEND_METHOD(Cuda_CudaArray, dtype);
ZEND_METHOD(Cuda_CudaArray, getNdims);
ZEND_METHOD(Cuda_CudaArray, getSize);
ZEND_METHOD(Cuda_CudaArray, device);
ZEND_METHOD(Cuda_CudaArray, memoryInfo);
ZEND_METHOD(Cuda_CudaArray, toHost);
ZEND_METHOD(Cuda_CudaArray, requiresGrad);
ZEND_METHOD(Cuda_CudaArray, backward);
ZEND_METHOD(Cuda_CudaArray, grad);
ZEND_METHOD(Cuda_CudaArray, zeroGrad);
ZEND_METHOD(Cuda_CudaArray, detach);
ZEND_METHOD(Cuda_CudaArray, __debugInfo);
ZEND_METHOD(Cuda_CudaArray, __toString);
ZEND_METHOD(Cuda_CudaArray, count);
ZEND_METHOD(Cuda_CudaArray, __serialize);
ZEND_METHOD(Cuda_CudaArray, __unserialize);
ZEND_METHOD(Cuda_HostArray, __construct);
ZEND_METHOD(Cuda_HostArray, fromArray);
ZEND_METHOD(Cuda_HostArray, fromBuffer);
ZEND_METHOD(Cuda_HostArray, toArray);
ZEND_METHOD(Cuda_HostArray, toBuffer);
ZEND_METHOD(Cuda_HostArray, getShape);
ZEND_METHOD(Cuda_HostArray, dtype);
ZEND_METHOD(Cuda_HostArray, getDtype);
ZEND_METHOD(Cuda_HostArray, getNdims);
ZEND_METHOD(Cuda_HostArray, getSize);
ZEND_METHOD(Cuda_HostArray, getElementSize);
ZEND_METHOD(Cuda_HostArray, count);
ZEND_METHOD(Cuda_HostArray, get);
ZEND_METHOD(Cuda_HostArray, at);
ZEND_METHOD(Cuda_HostArray, isPinned);
ZEND_METHOD(Cuda_HostArray, toDevice);
ZEND_METHOD(Cuda_HostArray, toGpu);
ZEND_METHOD(Cuda_HostArray, __serialize);
ZEND_METHOD(Cuda_HostArray, __unserialize);
ZEND_METHOD(Cuda_CudaArray, conv2d);
ZEND_METHOD(Cuda_CudaArray, maxPool2d);
ZEND_METHOD(Cuda_CudaArray, avgPool2d);
ZEND_METHOD(Cuda_NN, conv2d);
ZEND_METHOD(Cuda_NN, pool2d);
ZEND_METHOD(Cuda_NN, softmax);
ZEND_METHOD(Cuda_NN, isAvailable);
ZEND_METHOD(Cuda_Distributed, init);
ZEND_METHOD(Cuda_Distributed, isInitialized);
ZEND_METHOD(Cuda_Distributed, rank);
ZEND_METHOD(Cuda_Distributed, worldSize);
ZEND_METHOD(Cuda_Distributed, localRank);
ZEND_METHOD(Cuda_Distributed, backend);
ZEND_METHOD(Cuda_Distributed, barrier);
ZEND_METHOD(Cuda_Distributed, broadcast);
ZEND_METHOD(Cuda_Distributed, allReduce);
ZEND_METHOD(Cuda_Distributed, shard);
ZEND_METHOD(Cuda_Distributed, destroy);
ZEND_METHOD(Cuda_Compiler, __construct);
ZEND_METHOD(Cuda_Compiler, launch);
ZEND_METHOD(Cuda_Compiler, kernels);
ZEND_METHOD(Cuda_Compiler, getLog);
ZEND_METHOD(Cuda_Compiler, getPtx);
ZEND_METHOD(Cuda_Fusion, compile);
ZEND_METHOD(Cuda_Fusion, run);
ZEND_METHOD(Cuda_Fusion, export);
ZEND_METHOD(Cuda_Fusion, isTracing);
ZEND_METHOD(Cuda_Fusion, getCacheStats);
ZEND_METHOD(Cuda_Fusion, clearCache);
ZEND_METHOD(Cuda_FusionGraph, __construct);
ZEND_METHOD(Cuda_FusionGraph, run);
ZEND_METHOD(Cuda_FusionGraph, runAsync);
ZEND_METHOD(Cuda_FusionGraph, getPlan);
ZEND_METHOD(Cuda_FusionGraph, getStats);
ZEND_METHOD(Cuda_FusionGraph, getSource);
ZEND_METHOD(Cuda_FusionGraph, inputs);
ZEND_METHOD(Cuda_FusionGraph, outputs);
ZEND_METHOD(Cuda_FusionGraph, setProfiling);
ZEND_METHOD(Cuda_FusionGraph, saveCheckpoint);
ZEND_METHOD(Cuda_FusionGraph, loadCheckpoint);
ZEND_METHOD(Cuda_FusionGraph, optimizerState);
ZEND_METHOD(Cuda_FusionGraph, setOptimizerState);
ZEND_METHOD(Cuda_FusionGraph, resetOptimizerState);
ZEND_METHOD(Cuda_Batches, __construct);
ZEND_METHOD(Cuda_Batches, current);
ZEND_METHOD(Cuda_Batches, key);
ZEND_METHOD(Cuda_Batches, next);
ZEND_METHOD(Cuda_Batches, rewind);
ZEND_METHOD(Cuda_Batches, valid);
ZEND_METHOD(Cuda_Batches, count);
ZEND_METHOD(Cuda_Batches, epoch);
ZEND_METHOD(Cuda_FusionExecution, __construct);
ZEND_METHOD(Cuda_FusionExecution, wait);
ZEND_METHOD(Cuda_FusionExecution, isFinished);


static const zend_function_entry class_Cuda_Exception_methods[] = {
	ZEND_FE_END
};

static const zend_function_entry class_Cuda_InvalidArgumentException_methods[] = {
	ZEND_FE_END
};

static const zend_function_entry class_Cuda_RuntimeException_methods[] = {
	ZEND_FE_END
};

static const zend_function_entry class_Cuda_OutOfMemoryException_methods[] = {
	ZEND_FE_END
};

static const zend_function_entry class_Cuda_CompilationException_methods[] = {
	ZEND_ME(Cuda_CompilationException, getLog, arginfo_class_Cuda_CompilationException_getLog, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};

static const zend_function_entry class_Cuda_CudaArray_methods[] = {
	ZEND_ME(Cuda_CudaArray, __construct, arginfo_class_Cuda_CudaArray___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, __invoke, arginfo_class_Cuda_CudaArray___invoke, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, offsetGet, arginfo_class_Cuda_CudaArray_offsetGet, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, offsetExists, arginfo_class_Cuda_CudaArray_offsetExists, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, offsetSet, arginfo_class_Cuda_CudaArray_offsetSet, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, offsetUnset, arginfo_class_Cuda_CudaArray_offsetUnset, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, fromBuffer, arginfo_class_Cuda_CudaArray_fromBuffer, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_CudaArray, fromFlatArray, arginfo_class_Cuda_CudaArray_fromFlatArray, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_CudaArray, fromFile, arginfo_class_Cuda_CudaArray_fromFile, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_CudaArray, toBuffer, arginfo_class_Cuda_CudaArray_toBuffer, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, toArray, arginfo_class_Cuda_CudaArray_toArray, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, item, arginfo_class_Cuda_CudaArray_item, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, fromNpy, arginfo_class_Cuda_CudaArray_fromNpy, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_CudaArray, toNpy, arginfo_class_Cuda_CudaArray_toNpy, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, saveNpz, arginfo_class_Cuda_CudaArray_saveNpz, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_CudaArray, loadNpz, arginfo_class_Cuda_CudaArray_loadNpz, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_CudaArray, zeros, arginfo_class_Cuda_CudaArray_zeros, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_CudaArray, ones, arginfo_class_Cuda_CudaArray_ones, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_CudaArray, full, arginfo_class_Cuda_CudaArray_full, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_CudaArray, rand, arginfo_class_Cuda_CudaArray_rand, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_CudaArray, randn, arginfo_class_Cuda_CudaArray_randn, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_CudaArray, randint, arginfo_class_Cuda_CudaArray_randint, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_CudaArray, arange, arginfo_class_Cuda_CudaArray_arange, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_CudaArray, linspace, arginfo_class_Cuda_CudaArray_linspace, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_CudaArray, permutation, arginfo_class_Cuda_CudaArray_permutation, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_CudaArray, add, arginfo_class_Cuda_CudaArray_add, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, subtract, arginfo_class_Cuda_CudaArray_subtract, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, multiply, arginfo_class_Cuda_CudaArray_multiply, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, divide, arginfo_class_Cuda_CudaArray_divide, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, power, arginfo_class_Cuda_CudaArray_power, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, maximum, arginfo_class_Cuda_CudaArray_maximum, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, minimum, arginfo_class_Cuda_CudaArray_minimum, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, eq, arginfo_class_Cuda_CudaArray_eq, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, ne, arginfo_class_Cuda_CudaArray_ne, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, lt, arginfo_class_Cuda_CudaArray_lt, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, le, arginfo_class_Cuda_CudaArray_le, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, gt, arginfo_class_Cuda_CudaArray_gt, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, ge, arginfo_class_Cuda_CudaArray_ge, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, clamp, arginfo_class_Cuda_CudaArray_clamp, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, neg, arginfo_class_Cuda_CudaArray_neg, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, abs, arginfo_class_Cuda_CudaArray_abs, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, exp, arginfo_class_Cuda_CudaArray_exp, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, log, arginfo_class_Cuda_CudaArray_log, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, sqrt, arginfo_class_Cuda_CudaArray_sqrt, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, rsqrt, arginfo_class_Cuda_CudaArray_rsqrt, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, sin, arginfo_class_Cuda_CudaArray_sin, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, cos, arginfo_class_Cuda_CudaArray_cos, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, tan, arginfo_class_Cuda_CudaArray_tan, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, tanh, arginfo_class_Cuda_CudaArray_tanh, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, erf, arginfo_class_Cuda_CudaArray_erf, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, sigmoid, arginfo_class_Cuda_CudaArray_sigmoid, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, relu, arginfo_class_Cuda_CudaArray_relu, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, floor, arginfo_class_Cuda_CudaArray_floor, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, ceil, arginfo_class_Cuda_CudaArray_ceil, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, round, arginfo_class_Cuda_CudaArray_round, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, sign, arginfo_class_Cuda_CudaArray_sign, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, astype, arginfo_class_Cuda_CudaArray_astype, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, where, arginfo_class_Cuda_CudaArray_where, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_CudaArray, sum, arginfo_class_Cuda_CudaArray_sum, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, mean, arginfo_class_Cuda_CudaArray_mean, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, all, arginfo_class_Cuda_CudaArray_all, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, any, arginfo_class_Cuda_CudaArray_any, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, var, arginfo_class_Cuda_CudaArray_var, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, std, arginfo_class_Cuda_CudaArray_std, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, max, arginfo_class_Cuda_CudaArray_max, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, min, arginfo_class_Cuda_CudaArray_min, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, prod, arginfo_class_Cuda_CudaArray_prod, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, argMax, arginfo_class_Cuda_CudaArray_argMax, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, argMin, arginfo_class_Cuda_CudaArray_argMin, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, matmul, arginfo_class_Cuda_CudaArray_matmul, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, gather, arginfo_class_Cuda_CudaArray_gather, ZEND_ACC_PUBLIC)
	ZEND_MALIAS(Cuda_CudaArray, take, gather, arginfo_class_Cuda_CudaArray_gather, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, oneHot, arginfo_class_Cuda_CudaArray_oneHot, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, contiguous, arginfo_class_Cuda_CudaArray_contiguous, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, scatterAdd, arginfo_class_Cuda_CudaArray_scatterAdd, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, concat, arginfo_class_Cuda_CudaArray_concat, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, pad, arginfo_class_Cuda_CudaArray_pad, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, dropout, arginfo_class_Cuda_CudaArray_dropout, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, conv2d, arginfo_class_Cuda_CudaArray_conv2d, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, maxPool2d, arginfo_class_Cuda_CudaArray_maxPool2d, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, avgPool2d, arginfo_class_Cuda_CudaArray_avgPool2d, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, softmax, arginfo_class_Cuda_CudaArray_softmax, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, logSoftmax, arginfo_class_Cuda_CudaArray_logSoftmax, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, layerNorm, arginfo_class_Cuda_CudaArray_layerNorm, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, gelu, arginfo_class_Cuda_CudaArray_gelu, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, crossEntropy, arginfo_class_Cuda_CudaArray_crossEntropy, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, reshape, arginfo_class_Cuda_CudaArray_reshape, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, flatten, arginfo_class_Cuda_CudaArray_flatten, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, transpose, arginfo_class_Cuda_CudaArray_transpose, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, squeeze, arginfo_class_Cuda_CudaArray_squeeze, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, unsqueeze, arginfo_class_Cuda_CudaArray_unsqueeze, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, broadcastTo, arginfo_class_Cuda_CudaArray_broadcastTo, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, slice, arginfo_class_Cuda_CudaArray_slice, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, getShape, arginfo_class_Cuda_CudaArray_getShape, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, getStrides, arginfo_class_Cuda_CudaArray_getStrides, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, dtype, arginfo_class_Cuda_CudaArray_dtype, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, getNdims, arginfo_class_Cuda_CudaArray_getNdims, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, getSize, arginfo_class_Cuda_CudaArray_getSize, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, device, arginfo_class_Cuda_CudaArray_device, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, memoryInfo, arginfo_class_Cuda_CudaArray_memoryInfo, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_CudaArray, toHost, arginfo_class_Cuda_CudaArray_toHost, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, requiresGrad, arginfo_class_Cuda_CudaArray_requiresGrad, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, backward, arginfo_class_Cuda_CudaArray_backward, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, grad, arginfo_class_Cuda_CudaArray_grad, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, zeroGrad, arginfo_class_Cuda_CudaArray_zeroGrad, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, detach, arginfo_class_Cuda_CudaArray_detach, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, __debugInfo, arginfo_class_Cuda_CudaArray___debugInfo, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, __toString, arginfo_class_Cuda_CudaArray___toString, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, count, arginfo_class_Cuda_CudaArray_count, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, __serialize, arginfo_class_Cuda_CudaArray___serialize, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_CudaArray, __unserialize, arginfo_class_Cuda_CudaArray___unserialize, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};

static const zend_function_entry class_Cuda_HostArray_methods[] = {
	ZEND_ME(Cuda_HostArray, __construct, arginfo_class_Cuda_HostArray___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_HostArray, fromArray, arginfo_class_Cuda_HostArray_fromArray, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_HostArray, fromBuffer, arginfo_class_Cuda_HostArray_fromBuffer, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_HostArray, toArray, arginfo_class_Cuda_HostArray_toArray, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_HostArray, toBuffer, arginfo_class_Cuda_HostArray_toBuffer, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_HostArray, getShape, arginfo_class_Cuda_HostArray_getShape, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_HostArray, dtype, arginfo_class_Cuda_HostArray_dtype, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_HostArray, getDtype, arginfo_class_Cuda_HostArray_getDtype, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_HostArray, getNdims, arginfo_class_Cuda_HostArray_getNdims, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_HostArray, getSize, arginfo_class_Cuda_HostArray_getSize, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_HostArray, getElementSize, arginfo_class_Cuda_HostArray_getElementSize, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_HostArray, count, arginfo_class_Cuda_HostArray_count, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_HostArray, get, arginfo_class_Cuda_HostArray_get, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_HostArray, at, arginfo_class_Cuda_HostArray_at, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_HostArray, isPinned, arginfo_class_Cuda_HostArray_isPinned, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_HostArray, toDevice, arginfo_class_Cuda_HostArray_toDevice, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_HostArray, toGpu, arginfo_class_Cuda_HostArray_toGpu, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_HostArray, __serialize, arginfo_class_Cuda_HostArray___serialize, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_HostArray, __unserialize, arginfo_class_Cuda_HostArray___unserialize, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};

static const zend_function_entry class_Cuda_Compiler_methods[] = {
	ZEND_ME(Cuda_Compiler, __construct, arginfo_class_Cuda_Compiler___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_Compiler, launch, arginfo_class_Cuda_Compiler_launch, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_Compiler, kernels, arginfo_class_Cuda_Compiler_kernels, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_Compiler, getLog, arginfo_class_Cuda_Compiler_getLog, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_Compiler, getPtx, arginfo_class_Cuda_Compiler_getPtx, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};

static const zend_function_entry class_Cuda_NN_methods[] = {
	ZEND_ME(Cuda_NN, conv2d, arginfo_class_Cuda_NN_conv2d, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_NN, pool2d, arginfo_class_Cuda_NN_pool2d, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_NN, softmax, arginfo_class_Cuda_NN_softmax, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_NN, isAvailable, arginfo_class_Cuda_NN_isAvailable, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_FE_END
};

static const zend_function_entry class_Cuda_Distributed_methods[] = {
	ZEND_ME(Cuda_Distributed, init, arginfo_class_Cuda_Distributed_init, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_Distributed, isInitialized, arginfo_class_Cuda_Distributed_isInitialized, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_Distributed, rank, arginfo_class_Cuda_Distributed_rank, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_Distributed, worldSize, arginfo_class_Cuda_Distributed_worldSize, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_Distributed, localRank, arginfo_class_Cuda_Distributed_localRank, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_Distributed, backend, arginfo_class_Cuda_Distributed_backend, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_Distributed, barrier, arginfo_class_Cuda_Distributed_barrier, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_Distributed, broadcast, arginfo_class_Cuda_Distributed_broadcast, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_Distributed, allReduce, arginfo_class_Cuda_Distributed_allReduce, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_Distributed, shard, arginfo_class_Cuda_Distributed_shard, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_Distributed, destroy, arginfo_class_Cuda_Distributed_destroy, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_FE_END
};

static const zend_function_entry class_Cuda_Fusion_methods[] = {
	ZEND_ME(Cuda_Fusion, compile, arginfo_class_Cuda_Fusion_compile, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_Fusion, run, arginfo_class_Cuda_Fusion_run, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_Fusion, export, arginfo_class_Cuda_Fusion_export, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_Fusion, isTracing, arginfo_class_Cuda_Fusion_isTracing, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_Fusion, getCacheStats, arginfo_class_Cuda_Fusion_getCacheStats, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_Fusion, clearCache, arginfo_class_Cuda_Fusion_clearCache, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_FE_END
};

static const zend_function_entry class_Cuda_FusionGraph_methods[] = {
	ZEND_ME(Cuda_FusionGraph, __construct, arginfo_class_Cuda_FusionGraph___construct, ZEND_ACC_PRIVATE)
	ZEND_ME(Cuda_FusionGraph, run, arginfo_class_Cuda_FusionGraph_run, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_FusionGraph, runAsync, arginfo_class_Cuda_FusionGraph_runAsync, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_FusionGraph, getPlan, arginfo_class_Cuda_FusionGraph_getPlan, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_FusionGraph, getStats, arginfo_class_Cuda_FusionGraph_getStats, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_FusionGraph, getSource, arginfo_class_Cuda_FusionGraph_getSource, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_FusionGraph, inputs, arginfo_class_Cuda_FusionGraph_inputs, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_FusionGraph, outputs, arginfo_class_Cuda_FusionGraph_outputs, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_FusionGraph, setProfiling, arginfo_class_Cuda_FusionGraph_setProfiling, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_FusionGraph, saveCheckpoint, arginfo_class_Cuda_FusionGraph_saveCheckpoint, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_FusionGraph, loadCheckpoint, arginfo_class_Cuda_FusionGraph_loadCheckpoint, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_FusionGraph, optimizerState, arginfo_class_Cuda_FusionGraph_optimizerState, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_FusionGraph, setOptimizerState, arginfo_class_Cuda_FusionGraph_setOptimizerState, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_FusionGraph, resetOptimizerState, arginfo_class_Cuda_FusionGraph_resetOptimizerState, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};

static const zend_function_entry class_Cuda_Batches_methods[] = {
	ZEND_ME(Cuda_Batches, __construct, arginfo_class_Cuda_Batches___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_Batches, current, arginfo_class_Cuda_Batches_current, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_Batches, key, arginfo_class_Cuda_Batches_key, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_Batches, next, arginfo_class_Cuda_Batches_next, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_Batches, rewind, arginfo_class_Cuda_Batches_rewind, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_Batches, valid, arginfo_class_Cuda_Batches_valid, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_Batches, count, arginfo_class_Cuda_Batches_count, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_Batches, epoch, arginfo_class_Cuda_Batches_epoch, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};

static const zend_function_entry class_Cuda_FusionExecution_methods[] = {
	ZEND_ME(Cuda_FusionExecution, __construct, arginfo_class_Cuda_FusionGraph___construct, ZEND_ACC_PRIVATE)
	ZEND_ME(Cuda_FusionExecution, wait, arginfo_class_Cuda_FusionExecution_wait, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_FusionExecution, isFinished, arginfo_class_Cuda_FusionExecution_isFinished, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};

static zend_class_entry *register_class_Cuda_Exception(zend_class_entry *class_entry_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Cuda", "Exception", class_Cuda_Exception_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Exception);

	return class_entry;
}

static zend_class_entry *register_class_Cuda_InvalidArgumentException(zend_class_entry *class_entry_Cuda_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Cuda", "InvalidArgumentException", class_Cuda_InvalidArgumentException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Cuda_Exception);

	return class_entry;
}

static zend_class_entry *register_class_Cuda_RuntimeException(zend_class_entry *class_entry_Cuda_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Cuda", "RuntimeException", class_Cuda_RuntimeException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Cuda_Exception);

	return class_entry;
}

static zend_class_entry *register_class_Cuda_OutOfMemoryException(zend_class_entry *class_entry_Cuda_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Cuda", "OutOfMemoryException", class_Cuda_OutOfMemoryException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Cuda_Exception);

	return class_entry;
}

static zend_class_entry *register_class_Cuda_CompilationException(zend_class_entry *class_entry_Cuda_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Cuda", "CompilationException", class_Cuda_CompilationException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Cuda_Exception);

	zval property_log_default_value;
	ZVAL_EMPTY_STRING(&property_log_default_value);
	zend_string *property_log_name = zend_string_init("log", sizeof("log") - 1, 1);
	zend_declare_typed_property(class_entry, property_log_name, &property_log_default_value, ZEND_ACC_PRIVATE, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_STRING));
	zend_string_release(property_log_name);

	return class_entry;
}

static zend_class_entry *register_class_Cuda_CudaArray(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Cuda", "CudaArray", class_Cuda_CudaArray_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES;
	zend_class_implements(class_entry, 3, zend_ce_arrayaccess, zend_ce_countable, zend_ce_stringable);

	return class_entry;
}

static zend_class_entry *register_class_Cuda_HostArray(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Cuda", "HostArray", class_Cuda_HostArray_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES;
	zend_class_implements(class_entry, 1, zend_ce_countable);

	return class_entry;
}

static zend_class_entry *register_class_Cuda_Compiler(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Cuda", "Compiler", class_Cuda_Compiler_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;

	return class_entry;
}

static zend_class_entry *register_class_Cuda_NN(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Cuda", "NN", class_Cuda_NN_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;

	return class_entry;
}

static zend_class_entry *register_class_Cuda_Distributed(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Cuda", "Distributed", class_Cuda_Distributed_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;

	return class_entry;
}

static zend_class_entry *register_class_Cuda_Fusion(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Cuda", "Fusion", class_Cuda_Fusion_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;

	return class_entry;
}

static zend_class_entry *register_class_Cuda_FusionGraph(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Cuda", "FusionGraph", class_Cuda_FusionGraph_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;

	return class_entry;
}

static zend_class_entry *register_class_Cuda_Batches(zend_class_entry *class_entry_Iterator, zend_class_entry *class_entry_Countable)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Cuda", "Batches", class_Cuda_Batches_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;
	zend_class_implements(class_entry, 2, class_entry_Iterator, class_entry_Countable);

	return class_entry;
}

static zend_class_entry *register_class_Cuda_FusionExecution(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Cuda", "FusionExecution", class_Cuda_FusionExecution_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;

	return class_entry;
}
