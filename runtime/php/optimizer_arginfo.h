/* This is a generated file, edit the .stub.php file instead.
 * Written by hand in gen_stub.php's style to match optimizer.stub.php;
 * tests/php/stub_reflection.phpt checks it against the stub. */

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_Cuda_Optimizer___construct, 0, 0, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_Optimizer_sgd, 0, 0, Cuda\\Optimizer, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, learningRate, IS_DOUBLE, 0, "0.01")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, momentum, IS_DOUBLE, 0, "0.0")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, weightDecay, IS_DOUBLE, 0, "0.0")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, nesterov, _IS_BOOL, 0, "false")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, clipValue, IS_DOUBLE, 1, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, clipNorm, IS_DOUBLE, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_Optimizer_adamW, 0, 0, Cuda\\Optimizer, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, learningRate, IS_DOUBLE, 0, "0.001")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, beta1, IS_DOUBLE, 0, "0.9")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, beta2, IS_DOUBLE, 0, "0.999")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, epsilon, IS_DOUBLE, 0, "1.0e-8")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, weightDecay, IS_DOUBLE, 0, "0.01")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, clipValue, IS_DOUBLE, 1, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, clipNorm, IS_DOUBLE, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Cuda_Optimizer_adam, 0, 0, Cuda\\Optimizer, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, learningRate, IS_DOUBLE, 0, "0.001")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, beta1, IS_DOUBLE, 0, "0.9")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, beta2, IS_DOUBLE, 0, "0.999")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, epsilon, IS_DOUBLE, 0, "1.0e-8")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, weightDecay, IS_DOUBLE, 0, "0.0")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, clipValue, IS_DOUBLE, 1, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, clipNorm, IS_DOUBLE, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_Optimizer_initState, 0, 1, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, parameters, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_Optimizer_step, 0, 3, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, parameters, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, gradients, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, state, IS_ARRAY, 0)
	ZEND_ARG_OBJ_INFO_WITH_DEFAULT_VALUE(0, learningRate, Cuda\\CudaArray, 1, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, weightDecayMask, IS_ARRAY, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_Optimizer_zeroGrad, 0, 1, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO(0, parameters, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_Optimizer_getLearningRate, 0, 0, IS_DOUBLE, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_Optimizer_setLearningRate, 0, 1, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO(0, learningRate, IS_DOUBLE, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_Optimizer_getOptions, 0, 0, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_Optimizer_saveState, 0, 2, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO(0, path, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, state, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, compress, _IS_BOOL, 0, "false")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Cuda_Optimizer_loadState, 0, 2, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, path, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, parameters, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

ZEND_METHOD(Cuda_Optimizer, __construct);
ZEND_METHOD(Cuda_Optimizer, sgd);
ZEND_METHOD(Cuda_Optimizer, adamW);
ZEND_METHOD(Cuda_Optimizer, adam);
ZEND_METHOD(Cuda_Optimizer, initState);
ZEND_METHOD(Cuda_Optimizer, step);
ZEND_METHOD(Cuda_Optimizer, zeroGrad);
ZEND_METHOD(Cuda_Optimizer, getLearningRate);
ZEND_METHOD(Cuda_Optimizer, setLearningRate);
ZEND_METHOD(Cuda_Optimizer, getOptions);
ZEND_METHOD(Cuda_Optimizer, saveState);
ZEND_METHOD(Cuda_Optimizer, loadState);

static const zend_function_entry class_Cuda_Optimizer_methods[] = {
	ZEND_ME(Cuda_Optimizer, __construct, arginfo_class_Cuda_Optimizer___construct, ZEND_ACC_PRIVATE)
	ZEND_ME(Cuda_Optimizer, sgd, arginfo_class_Cuda_Optimizer_sgd, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_Optimizer, adamW, arginfo_class_Cuda_Optimizer_adamW, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_Optimizer, adam, arginfo_class_Cuda_Optimizer_adam, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Cuda_Optimizer, initState, arginfo_class_Cuda_Optimizer_initState, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_Optimizer, step, arginfo_class_Cuda_Optimizer_step, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_Optimizer, zeroGrad, arginfo_class_Cuda_Optimizer_zeroGrad, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_Optimizer, getLearningRate, arginfo_class_Cuda_Optimizer_getLearningRate, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_Optimizer, setLearningRate, arginfo_class_Cuda_Optimizer_setLearningRate, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_Optimizer, getOptions, arginfo_class_Cuda_Optimizer_getOptions, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_Optimizer, saveState, arginfo_class_Cuda_Optimizer_saveState, ZEND_ACC_PUBLIC)
	ZEND_ME(Cuda_Optimizer, loadState, arginfo_class_Cuda_Optimizer_loadState, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};

static zend_class_entry *register_class_Cuda_Optimizer(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Cuda", "Optimizer", class_Cuda_Optimizer_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;

	return class_entry;
}
