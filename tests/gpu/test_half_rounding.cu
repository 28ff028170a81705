// tests/gpu/test_half_rounding.cu: ir/scalar.h's software bfloat16/float16 rounding (the one every
// backend uses) against CUDA's own conversions on the device, over every float32 bit pattern
// (__float2bfloat16_rn, __float2half_rn; and gtc_to_bf16(float), the hardware conversion device
// code uses on sm_80 and later) and 2^26 doubles (__double2bfloat16, __double2half),
// and the widening of every 16-bit pattern (__bfloat162float, __half2float). NaN inputs are
// compared as "both NaN" (the payload is not part of the contract). Prints the mismatch counts;
// exit status 1 when any. Needs a GPU (make test-gpu).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdio.h>

#include "../../ir/scalar.h"

__device__ unsigned long long g_bad[6];

__device__ bool nan16(uint16_t b, int ebits) {
    uint16_t e = ebits == 8 ? 0x7f80 : 0x7c00, m = ebits == 8 ? 0x7f : 0x3ff;
    return (b & e) == e && (b & m);
}

// from float: every pattern in [base, base + n)
__global__ void k_from_f32(uint64_t base, uint64_t n) {
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
        float f = __uint_as_float((unsigned)(base + i));
        uint16_t ob = gtc_bf16_of_f64((double)f).bits, cb = __bfloat16_as_ushort(__float2bfloat16_rn(f));
        uint16_t oh = gtc_to_f16(f).bits, ch = __half_as_ushort(__float2half_rn(f));
        uint16_t fb = gtc_to_bf16(f).bits;
        if (ob != cb && !(nan16(ob, 8) && nan16(cb, 8))) atomicAdd(&g_bad[0], 1ull);
        if (fb != cb && !(nan16(fb, 8) && nan16(cb, 8))) atomicAdd(&g_bad[0], 1ull);
        if (oh != ch && !(nan16(oh, 5) && nan16(ch, 5))) atomicAdd(&g_bad[1], 1ull);
    }
}

// from double: patterns spread over the exponent range (a multiplicative hash of i)
__global__ void k_from_f64(uint64_t n) {
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t u = i * 0x9E3779B97F4A7C15ull;
        u = (u & 0x800fffffffffffffull) | ((uint64_t)(0x3ff - 160 + (i % 320)) << 52); // exponents near the formats'
        double d = __longlong_as_double((long long)u);
        uint16_t ob = gtc_to_bf16(d).bits, cb = __bfloat16_as_ushort(__double2bfloat16(d));
        uint16_t oh = gtc_to_f16(d).bits, ch = __half_as_ushort(__double2half(d));
        if (ob != cb) atomicAdd(&g_bad[2], 1ull);
        if (oh != ch) atomicAdd(&g_bad[3], 1ull);
    }
}

__global__ void k_widen() {
    unsigned b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= 65536) return;
    gtc_bf16 x;
    gtc_f16 y;
    x.bits = y.bits = (uint16_t)b;
    float ob = gtc_to_f32(x), cb = __bfloat162float(__ushort_as_bfloat16((unsigned short)b));
    float oh = gtc_to_f32(y), ch = __half2float(__ushort_as_half((unsigned short)b));
    if (__float_as_uint(ob) != __float_as_uint(cb) && !(ob != ob && cb != cb)) atomicAdd(&g_bad[4], 1ull);
    if (__float_as_uint(oh) != __float_as_uint(ch) && !(oh != oh && ch != ch)) atomicAdd(&g_bad[5], 1ull);
}

int main() {
    unsigned long long zero[6] = {0};
    if (cudaMemcpyToSymbol(g_bad, zero, sizeof zero) != cudaSuccess) {
        fprintf(stderr, "test_half_rounding: no usable GPU\n");
        return 2;
    }
    for (uint64_t base = 0; base < (1ull << 32); base += 1ull << 30) k_from_f32<<<4096, 256>>>(base, 1ull << 30);
    k_from_f64<<<4096, 256>>>(1ull << 26);
    k_widen<<<256, 256>>>();
    unsigned long long bad[6];
    cudaError_t e = cudaMemcpyFromSymbol(bad, g_bad, sizeof bad);
    if (e != cudaSuccess) {
        fprintf(stderr, "test_half_rounding: %s\n", cudaGetErrorString(e));
        return 2;
    }
    const char *what[6] = {"float -> bfloat16 (all 2^32)", "float -> float16 (all 2^32)", "double -> bfloat16 (2^26)",
                           "double -> float16 (2^26)", "bfloat16 -> float (all 2^16)", "float16 -> float (all 2^16)"};
    int fails = 0;
    for (int i = 0; i < 6; i++) {
        printf("%-32s %llu mismatches against CUDA's conversion\n", what[i], bad[i]);
        fails += bad[i] != 0;
    }
    return fails ? 1 : 0;
}
