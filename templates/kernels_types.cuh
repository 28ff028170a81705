/* templates/kernels_types.cuh: what precedes ir/scalar.h in every generated kernels.cu: the
 * fixed-width integer types and limits that scalar.h needs under NVRTC, which has no <stdint.h>
 * (nvcc builds get them from <stdint.h>, included by scalar.h). */
/* scalar.h defines every helper; a kernel file uses a few ("declared but never referenced") */
#pragma nv_diag_suppress 177
#ifdef __CUDACC_RTC__
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;
#define INT8_MIN (-128)
#define INT8_MAX 127
#define UINT8_MAX 255
#define INT16_MIN (-32768)
#define INT16_MAX 32767
#define UINT16_MAX 65535
#define UINT32_MAX 4294967295u
#define UINT64_MAX 18446744073709551615ull
#define INT32_MIN (-2147483647 - 1)
#define INT32_MAX 2147483647
#define INT64_MIN (-9223372036854775807LL - 1)
#define INT64_MAX 9223372036854775807LL
#endif
