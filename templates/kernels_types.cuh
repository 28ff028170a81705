/* templates/kernels_types.cuh: what precedes ir/scalar.h in every generated kernels.cu: the
 * fixed-width integer types and limits that scalar.h needs under NVRTC, which has no <stdint.h>
 * (nvcc builds get them from <stdint.h>, included by scalar.h). */
/* scalar.h defines every helper; a kernel file uses a few ("declared but never referenced") */
#pragma nv_diag_suppress 177
#ifdef __CUDACC_RTC__
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;
#define INT32_MIN (-2147483647 - 1)
#define INT32_MAX 2147483647
#define INT64_MIN (-9223372036854775807LL - 1)
#define INT64_MAX 9223372036854775807LL
#endif
