/* This is a generated file, edit the .stub.php file instead.
 * Written by hand in gen_stub.php's style to match device_functions.stub.php;
 * tests/php/device_functions.phpt checks it against the stub. */

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_cuda_get_backend_info, 0, 0, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_cuda_get_device_count, 0, 0, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_cuda_get_device_info, 0, 0, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, deviceId, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_cuda_set_device, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, deviceId, IS_LONG, 0)
ZEND_END_ARG_INFO()

#define arginfo_cuda_get_current_device arginfo_cuda_get_device_count

#define arginfo_cuda_get_memory_info arginfo_cuda_get_backend_info

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_cuda_device_reset, 0, 0, _IS_BOOL, 0)
ZEND_END_ARG_INFO()

#define arginfo_cuda_get_driver_version arginfo_cuda_get_backend_info

#define arginfo_cuda_get_runtime_version arginfo_cuda_get_backend_info

#define arginfo_cuda_synchronize arginfo_cuda_device_reset

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_cuda_get_last_error, 0, 0, IS_ARRAY, 1)
ZEND_END_ARG_INFO()

#define arginfo_cuda_clear_error arginfo_cuda_device_reset

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_cuda_get_peer_access, 0, 2, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, device1, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO(0, device2, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_cuda_set_matmul_precision, 0, 1, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, precision, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_FUNCTION(cuda_get_backend_info);
ZEND_FUNCTION(cuda_get_device_count);
ZEND_FUNCTION(cuda_get_device_info);
ZEND_FUNCTION(cuda_set_device);
ZEND_FUNCTION(cuda_get_current_device);
ZEND_FUNCTION(cuda_get_memory_info);
ZEND_FUNCTION(cuda_device_reset);
ZEND_FUNCTION(cuda_get_driver_version);
ZEND_FUNCTION(cuda_get_runtime_version);
ZEND_FUNCTION(cuda_synchronize);
ZEND_FUNCTION(cuda_get_last_error);
ZEND_FUNCTION(cuda_clear_error);
ZEND_FUNCTION(cuda_get_peer_access);
ZEND_FUNCTION(cuda_set_matmul_precision);

static const zend_function_entry ext_functions[] = {
	ZEND_FE(cuda_get_backend_info, arginfo_cuda_get_backend_info)
	ZEND_FE(cuda_get_device_count, arginfo_cuda_get_device_count)
	ZEND_FE(cuda_get_device_info, arginfo_cuda_get_device_info)
	ZEND_FE(cuda_set_device, arginfo_cuda_set_device)
	ZEND_FE(cuda_get_current_device, arginfo_cuda_get_current_device)
	ZEND_FE(cuda_get_memory_info, arginfo_cuda_get_memory_info)
	ZEND_FE(cuda_device_reset, arginfo_cuda_device_reset)
	ZEND_FE(cuda_get_driver_version, arginfo_cuda_get_driver_version)
	ZEND_FE(cuda_get_runtime_version, arginfo_cuda_get_runtime_version)
	ZEND_FE(cuda_synchronize, arginfo_cuda_synchronize)
	ZEND_FE(cuda_get_last_error, arginfo_cuda_get_last_error)
	ZEND_FE(cuda_clear_error, arginfo_cuda_clear_error)
	ZEND_FE(cuda_get_peer_access, arginfo_cuda_get_peer_access)
	ZEND_FE(cuda_set_matmul_precision, arginfo_cuda_set_matmul_precision)
	ZEND_FE_END
};
