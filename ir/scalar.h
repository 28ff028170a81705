/* ir/scalar.h: the scalar semantics of every elementwise op, for C (CPU backend, generated CPU
 * code) and CUDA (eager kernels, generated and NVRTC kernels) alike. The formulas in ops.def call
 * these helpers, so one definition fixes NaN handling, rounding and conversions everywhere.
 *
 * Semantics pinned here: max/min/clamp propagate NaN; round is half-to-even; float-to-int
 * conversion saturates and maps NaN to 0 (as CUDA's cvt does); anything-to-bool is `!= 0`;
 * integer pow with a negative exponent gives 0 unless the base is 1 or -1; integer-to-integer
 * conversion keeps the low bits (wraps). */
#ifndef GTC_SCALAR_H
#define GTC_SCALAR_H

/* The formulas are generic over signedness: `a < 0` of an unsigned operand (relu, sign, abs) is
 * meant, always false, not a mistake. */
#ifdef __CUDACC__
#pragma nv_diag_suppress 186
#ifndef __CUDACC_RTC__
#pragma GCC diagnostic ignored "-Wtype-limits"
#endif
#define GTC_FN static __device__ __host__ __forceinline__
#else
#pragma GCC diagnostic ignored "-Wtype-limits"
#define GTC_FN static inline
#include <math.h>
#include <stdint.h>
#endif

#ifndef __CUDACC_RTC__
#include <stdint.h>
#endif

typedef uint8_t gtc_bool;
#ifndef __CUDACC__
/* what int64 arithmetic widens to so that overflow wraps without undefined behaviour */
__extension__ typedef __int128 gtc_wide;
#endif

GTC_FN int32_t gtc_f2i32(double x) {
    if (x != x) return 0;
    if (x >= 2147483647.0) return INT32_MAX;
    if (x <= -2147483648.0) return INT32_MIN;
    return (int32_t)x;
}
GTC_FN int64_t gtc_f2i64(double x) {
    if (x != x) return 0;
    if (x >= 9223372036854775807.0) return INT64_MAX;
    if (x <= -9223372036854775808.0) return INT64_MIN;
    return (int64_t)x;
}
/* float -> unsigned: truncates, saturates at 0 and the type's maximum, NaN -> 0 */
GTC_FN uint32_t gtc_f2u32(double x) {
    if (!(x > 0)) return 0;
    if (x >= 4294967295.0) return 0xffffffffu;
    return (uint32_t)x;
}
GTC_FN uint64_t gtc_f2u64(double x) {
    if (!(x > 0)) return 0;
    if (x >= 18446744073709551615.0) return 0xffffffffffffffffull;
    return (uint64_t)x;
}
/* float -> a narrow integer: saturate into [lo, hi] first (then the cast is exact) */
GTC_FN int64_t gtc_f2narrow(double x, double lo, double hi) {
    if (x != x) return 0;
    return x <= lo ? (int64_t)lo : x >= hi ? (int64_t)hi : (int64_t)x;
}
GTC_FN int8_t gtc_f2i8(double x) { return (int8_t)gtc_f2narrow(x, -128.0, 127.0); }
GTC_FN uint8_t gtc_f2u8(double x) { return (uint8_t)gtc_f2narrow(x, 0.0, 255.0); }
GTC_FN int16_t gtc_f2i16(double x) { return (int16_t)gtc_f2narrow(x, -32768.0, 32767.0); }
GTC_FN uint16_t gtc_f2u16(double x) { return (uint16_t)gtc_f2narrow(x, 0.0, 65535.0); }
GTC_FN uint64_t gtc_upow64(uint64_t a, uint64_t b) {
    uint64_t r = 1;
    while (b) { if (b & 1) r *= a; a *= a; b >>= 1; }
    return r;
}
GTC_FN int64_t gtc_ipow64(int64_t a, int64_t b) {
    if (b < 0) return a == 1 ? 1 : a == -1 ? ((b & 1) ? -1 : 1) : 0;
    uint64_t r = 1, base = (uint64_t)a;  /* unsigned: overflow wraps instead of being UB */
    while (b) { if (b & 1) r *= base; base *= base; b >>= 1; }
    return (int64_t)r;
}

/* ---- bfloat16 and float16: 2-byte storage, arithmetic in float. One software conversion for
 * the CPU, nvcc and NVRTC alike (no cuda_fp16.h: NVRTC would need the toolkit's include path), so
 * a value rounds to the same bits on every backend. Rounding is IEEE round-to-nearest-even, as
 * CUDA's __float2bfloat16_rn / __float2half_rn / __double2half: directly from double (no double
 * rounding through float), overflow to infinity, subnormals kept; a NaN becomes the canonical
 * quiet NaN 0x7fff (CUDA's). The layouts are __nv_bfloat16's and __half's, for cuBLAS. ---- */
typedef struct { uint16_t bits; } gtc_bf16;
typedef struct { uint16_t bits; } gtc_f16;

typedef union { double d; uint64_t u; } gtc_f64_bits;
typedef union { float f; uint32_t u; } gtc_f32_bits;

/* x rounded to the binary format with `mbits` fraction bits and `ebits` exponent bits (bf16: 7,
 * 8; f16: 10, 5), as its 16-bit pattern. */
GTC_FN uint16_t gtc_narrow_bits(double x, int mbits, int ebits) {
    gtc_f64_bits b;
    b.d = x;
    uint16_t sign = (uint16_t)((b.u >> 63) << 15), emax = (uint16_t)((1u << ebits) - 1);
    int e = (int)((b.u >> 52) & 0x7ff);
    uint64_t m = b.u & 0xfffffffffffffull;
    if (e == 0x7ff) return m ? (uint16_t)0x7fff : (uint16_t)(sign | (emax << mbits));
    if (e == 0) return sign; /* a double subnormal is far below either format's smallest value */
    int et = e - 1023 + (int)(emax >> 1);          /* the target's biased exponent */
    uint64_t sig = m | (1ull << 52);
    int shift = 52 - mbits + (et < 1 ? 1 - et : 0); /* below the normal range: a subnormal */
    if (shift > 53) return sign;                    /* under half the smallest subnormal */
    uint64_t keep = sig >> shift, rem = sig & ((1ull << shift) - 1), half = 1ull << (shift - 1);
    if (rem > half || (rem == half && (keep & 1))) keep++;
    if (et < 1) return (uint16_t)(sign | keep); /* a carry into bit mbits is the smallest normal */
    if (keep >> (mbits + 1)) keep >>= 1, et++;
    if (et >= (int)emax) return (uint16_t)(sign | (emax << mbits));
    return (uint16_t)(sign | ((uint64_t)et << mbits) | (keep & ((1ull << mbits) - 1)));
}
/* a 64-bit integer as a double that rounds like the integer: the bits below double's 53 are
 * jammed into its last bit (round-to-odd), so the narrow rounding after it is the direct one */
GTC_FN double gtc_u64_jam(uint64_t u) {
    int s = 0;
    while ((u >> s) >= (1ull << 53)) s++;
    uint64_t w = (u >> s) | ((u & ((1ull << s) - 1)) != 0);
    return (double)w * (double)(1ull << s);
}
GTC_FN double gtc_i64_jam(int64_t v) {
    return v < 0 ? -gtc_u64_jam(0ull - (uint64_t)v) : gtc_u64_jam((uint64_t)v);
}
GTC_FN gtc_bf16 gtc_bf16_of_f64(double x) { gtc_bf16 h; h.bits = gtc_narrow_bits(x, 7, 8); return h; }
GTC_FN gtc_f16 gtc_f16_of_f64(double x) { gtc_f16 h; h.bits = gtc_narrow_bits(x, 10, 5); return h; }
GTC_FN gtc_bf16 gtc_bf16_of_i64(int64_t v) { return gtc_bf16_of_f64(gtc_i64_jam(v)); }
GTC_FN gtc_f16 gtc_f16_of_i64(int64_t v) { return gtc_f16_of_f64(gtc_i64_jam(v)); }
GTC_FN gtc_bf16 gtc_bf16_of_u64(uint64_t v) { return gtc_bf16_of_f64(gtc_u64_jam(v)); }
GTC_FN gtc_f16 gtc_f16_of_u64(uint64_t v) { return gtc_f16_of_f64(gtc_u64_jam(v)); }
/* widening is exact: bf16 is float's upper half; f16's fields move into float's */
GTC_FN float gtc_bf16_f32(gtc_bf16 h) {
    gtc_f32_bits b;
    b.u = (uint32_t)h.bits << 16;
    return b.f;
}
GTC_FN float gtc_f16_f32(gtc_f16 h) {
    uint32_t sign = (uint32_t)(h.bits >> 15) << 31, e = (h.bits >> 10) & 0x1f, m = h.bits & 0x3ff;
    gtc_f32_bits b;
    if (e == 0) {                                        /* zero and subnormals: m * 2^-24 */
        b.f = (float)m * (1.0f / 16777216.0f);
        b.u |= sign;
    } else if (e == 31) b.u = sign | 0x7f800000u | (m << 13);
    else b.u = sign | ((e + 112) << 23) | (m << 13);
    return b.f;
}
GTC_FN gtc_bf16 gtc_bf16_of_f16(gtc_f16 h) { return gtc_bf16_of_f64(gtc_f16_f32(h)); }
GTC_FN gtc_f16 gtc_f16_of_bf16(gtc_bf16 h) { return gtc_f16_of_f64(gtc_bf16_f32(h)); }

#ifdef __CUDACC__
/* ---- CUDA: overloads ---- */
#define GTC_F1(name, f32, f64) \
    GTC_FN float name(float x) { return f32(x); } \
    GTC_FN double name(double x) { return f64(x); }
GTC_F1(gtc_exp, expf, exp)
GTC_F1(gtc_log, logf, log)
GTC_F1(gtc_sqrt, sqrtf, sqrt)
GTC_F1(gtc_sin, sinf, sin)
GTC_F1(gtc_cos, cosf, cos)
GTC_F1(gtc_tan, tanf, tan)
GTC_F1(gtc_tanh, tanhf, tanh)
GTC_F1(gtc_erf, erff, erf)
GTC_F1(gtc_fabs, fabsf, fabs)
GTC_F1(gtc_floorf, floorf, floor)
GTC_F1(gtc_ceilf, ceilf, ceil)
GTC_F1(gtc_rint, rintf, rint)
#undef GTC_F1
GTC_FN float gtc_rsqrt(float x) { return 1.0f / sqrtf(x); }
GTC_FN double gtc_rsqrt(double x) { return 1.0 / sqrt(x); }
GTC_FN float gtc_sigmoid(float x) { return 1.0f / (1.0f + expf(-x)); }
GTC_FN double gtc_sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }
GTC_FN float gtc_pow(float a, float b) { return powf(a, b); }
GTC_FN double gtc_pow(double a, double b) { return pow(a, b); }
GTC_FN int32_t gtc_pow(int32_t a, int32_t b) { return (int32_t)gtc_ipow64(a, b); }
GTC_FN int64_t gtc_pow(int64_t a, int64_t b) { return gtc_ipow64(a, b); }
GTC_FN uint32_t gtc_pow(uint32_t a, uint32_t b) { return (uint32_t)gtc_upow64(a, b); }
GTC_FN uint64_t gtc_pow(uint64_t a, uint64_t b) { return gtc_upow64(a, b); }
GTC_FN int8_t gtc_pow(int8_t a, int8_t b) { return (int8_t)gtc_ipow64(a, b); }
GTC_FN uint8_t gtc_pow(uint8_t a, uint8_t b) { return (uint8_t)gtc_upow64(a, b); }
GTC_FN int16_t gtc_pow(int16_t a, int16_t b) { return (int16_t)gtc_ipow64(a, b); }
GTC_FN uint16_t gtc_pow(uint16_t a, uint16_t b) { return (uint16_t)gtc_upow64(a, b); }
template <typename T> GTC_FN T gtc_abs(T a) { return a < 0 ? (T)-a : a; }
GTC_FN float gtc_abs(float a) { return fabsf(a); }
GTC_FN double gtc_abs(double a) { return fabs(a); }
template <typename T> GTC_FN T gtc_floor(T a) { return a; }
GTC_FN float gtc_floor(float a) { return floorf(a); }
GTC_FN double gtc_floor(double a) { return floor(a); }
template <typename T> GTC_FN T gtc_ceil(T a) { return a; }
GTC_FN float gtc_ceil(float a) { return ceilf(a); }
GTC_FN double gtc_ceil(double a) { return ceil(a); }
template <typename T> GTC_FN T gtc_round(T a) { return a; }
GTC_FN float gtc_round(float a) { return rintf(a); }
GTC_FN double gtc_round(double a) { return rint(a); }
template <typename T> GTC_FN T gtc_max(T a, T b) { return (a > b || a != a) ? a : b; }
template <typename T> GTC_FN T gtc_min(T a, T b) { return (a < b || a != a) ? a : b; }
template <typename T> GTC_FN T gtc_relu(T a) { return a < (T)0 ? (T)0 : a; }
template <typename T> GTC_FN T gtc_sign(T a) { return a != a ? a : (T)((a > (T)0) - (a < (T)0)); }
template <typename T> GTC_FN T gtc_clamp(T x, T lo, T hi) { return gtc_min(gtc_max(x, lo), hi); }
#define gtc_where(c, x, y) ((c) ? (x) : (y))
template <typename T> GTC_FN gtc_bool gtc_to_bool(T x) { return x != (T)0; }
template <typename T> GTC_FN gtc_bool gtc_to_b8(T x) { return x != (T)0; }
/* to an integer: from a float saturating (gtc_f2*), from an integer keeping the low bits (two's
 * complement), as C's casts do */
#define GTC_TO_INT(fn, T, f2) \
    template <typename X> GTC_FN T fn(X x) { return (T)x; } \
    GTC_FN T fn(float x) { return f2(x); } \
    GTC_FN T fn(double x) { return f2(x); }
GTC_TO_INT(gtc_to_i8, int8_t, gtc_f2i8)
GTC_TO_INT(gtc_to_u8, uint8_t, gtc_f2u8)
GTC_TO_INT(gtc_to_i16, int16_t, gtc_f2i16)
GTC_TO_INT(gtc_to_u16, uint16_t, gtc_f2u16)
GTC_TO_INT(gtc_to_i32, int32_t, gtc_f2i32)
GTC_TO_INT(gtc_to_u32, uint32_t, gtc_f2u32)
GTC_TO_INT(gtc_to_i64, int64_t, gtc_f2i64)
GTC_TO_INT(gtc_to_u64, uint64_t, gtc_f2u64)
#undef GTC_TO_INT
/* a stored value as arithmetic sees it: the 2-byte floats widen to float, the rest are themselves */
template <typename T> GTC_FN T gtc_val(T x) { return x; }
GTC_FN float gtc_val(gtc_bf16 x) { return gtc_bf16_f32(x); }
GTC_FN float gtc_val(gtc_f16 x) { return gtc_f16_f32(x); }
template <typename T> GTC_FN float gtc_to_f32(T x) { return (float)x; }
template <typename T> GTC_FN double gtc_to_f64(T x) { return (double)x; }
template <typename T> GTC_FN gtc_bf16 gtc_to_bf16(T x) { return gtc_bf16_of_f64((double)x); }
/* float -> bfloat16 on sm_80 and later: the hardware's cvt.rn.bf16.f32, the same bits as the
 * software rounding (tests/gpu/test_half_rounding checks both against CUDA's conversion over every
 * float) at a fraction of its cost: --precision=bf16's stored values are written this way (the
 * 4k-wide step's softmax row kernel took 96 us with the software path, 69 without the store). */
GTC_FN gtc_bf16 gtc_to_bf16(float x) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    gtc_bf16 h;
    asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(h.bits) : "f"(x));
    return h;
#else
    return gtc_bf16_of_f64((double)x);
#endif
}
template <typename T> GTC_FN gtc_f16 gtc_to_f16(T x) { return gtc_f16_of_f64((double)x); }
#define GTC_HALF_IN(T, of, f)                                                                   \
    GTC_FN gtc_##T gtc_to_##T(int64_t x) { return gtc_##T##_of_i64(x); }                        \
    GTC_FN gtc_##T gtc_to_##T(uint64_t x) { return gtc_##T##_of_u64(x); }                       \
    GTC_FN gtc_##T gtc_to_##T(gtc_##of x) { return gtc_##T##_of_f64(f(x)); }
GTC_HALF_IN(bf16, f16, gtc_f16_f32)
GTC_HALF_IN(f16, bf16, gtc_bf16_f32)
#undef GTC_HALF_IN
GTC_FN gtc_bf16 gtc_to_bf16(gtc_bf16 x) { return x; }
GTC_FN gtc_f16 gtc_to_f16(gtc_f16 x) { return x; }
/* from a 2-byte float: through its exact float value */
#define GTC_HALF_OUT(H, f)                                                                      \
    GTC_FN int8_t gtc_to_i8(H x) { return gtc_f2i8(f(x)); }                                      \
    GTC_FN uint8_t gtc_to_u8(H x) { return gtc_f2u8(f(x)); }                                     \
    GTC_FN int16_t gtc_to_i16(H x) { return gtc_f2i16(f(x)); }                                   \
    GTC_FN uint16_t gtc_to_u16(H x) { return gtc_f2u16(f(x)); }                                  \
    GTC_FN int32_t gtc_to_i32(H x) { return gtc_f2i32(f(x)); }                                   \
    GTC_FN uint32_t gtc_to_u32(H x) { return gtc_f2u32(f(x)); }                                  \
    GTC_FN int64_t gtc_to_i64(H x) { return gtc_f2i64(f(x)); }                                   \
    GTC_FN uint64_t gtc_to_u64(H x) { return gtc_f2u64(f(x)); }                                  \
    GTC_FN float gtc_to_f32(H x) { return f(x); }                                                \
    GTC_FN double gtc_to_f64(H x) { return f(x); }                                               \
    GTC_FN gtc_bool gtc_to_bool(H x) { return f(x) != 0.0f; }                                    \
    GTC_FN gtc_bool gtc_to_b8(H x) { return f(x) != 0.0f; }
GTC_HALF_OUT(gtc_bf16, gtc_bf16_f32)
GTC_HALF_OUT(gtc_f16, gtc_f16_f32)
#undef GTC_HALF_OUT
/* (OS)(v) for any storage type OS, as in C */
template <typename O> struct gtc_cast_s {
    template <typename V> static __device__ __host__ __forceinline__ O f(V v) { return (O)gtc_val(v); }
};
template <> struct gtc_cast_s<gtc_bf16> {
    template <typename V> static __device__ __host__ __forceinline__ gtc_bf16 f(V v) { return gtc_to_bf16(v); }
};
template <> struct gtc_cast_s<gtc_f16> {
    template <typename V> static __device__ __host__ __forceinline__ gtc_f16 f(V v) { return gtc_to_f16(v); }
};
#define gtc_cast(OS, v) gtc_cast_s<OS>::f(v)

#else
/* ---- C11: _Generic over float and double (and the integer types where the op allows them) ---- */
#define GTC_GF(x, f32, f64) _Generic((x), float: f32, default: f64)(x)
/* float32 exp: glibc's expf algorithm (2.27 on, ARM's optimized-routines) written out, so that
 * it inlines and vectorises (a loop of gtc_expf over a block of rows runs 8 or 16 wide, where a
 * call to libm's expf runs one value at a time). x = (k + r) ln2 / 32 with k an integer and
 * |r| <= 1/2; exp(x) = 2^(k/32) 2^(r/32): a 32-entry table of 2^(i/32) (its exponent bits take
 * k / 32), times a cubic in r, in double, rounded once to float. No FMA, as glibc's
 * generic build: the same bits on every machine and in every clone of a step; glibc picks its
 * FMA build where the CPU has FMA, which differs from this in 2 of the 2^32 floats by 1 ulp
 * (tests/unit/test_scalar.c checks the rest bitwise). Specials as glibc: NaN stays NaN, exp(-inf)
 * = 0, above log(FLT_MAX) +inf, below log(2^-150) +0 (no errno). The eager exp and the
 * generated code both call it, so they agree bitwise. */
GTC_FN float gtc_expf(float x) {
    static const uint64_t tab[32] = {
        0x3ff0000000000000ull, 0x3fefd9b0d3158574ull, 0x3fefb5586cf9890full, 0x3fef9301d0125b51ull,
        0x3fef72b83c7d517bull, 0x3fef54873168b9aaull, 0x3fef387a6e756238ull, 0x3fef1e9df51fdee1ull,
        0x3fef06fe0a31b715ull, 0x3feef1a7373aa9cbull, 0x3feedea64c123422ull, 0x3feece086061892dull,
        0x3feebfdad5362a27ull, 0x3feeb42b569d4f82ull, 0x3feeab07dd485429ull, 0x3feea47eb03a5585ull,
        0x3feea09e667f3bcdull, 0x3fee9f75e8ec5f74ull, 0x3feea11473eb0187ull, 0x3feea589994cce13ull,
        0x3feeace5422aa0dbull, 0x3feeb737b0cdc5e5ull, 0x3feec49182a3f090ull, 0x3feed503b23e255dull,
        0x3feee89f995ad3adull, 0x3feeff76f2fb5e47ull, 0x3fef199bdd85529cull, 0x3fef3720dcef9069ull,
        0x3fef5818dcfba487ull, 0x3fef7c97337b9b5full, 0x3fefa4afa2a490daull, 0x3fefd0765b6e4540ull};
    const double shift = 0x1.8p52, inv_ln2_32 = 0x1.71547652b82fep+0 * 32;
    const double c0 = 0x1.c6af84b912394p-5 / 32768, c1 = 0x1.ebfce50fac4f3p-3 / 1024, c2 = 0x1.62e42ff0c52d6p-1 / 32;
    double z = inv_ln2_32 * (double)x, kd = z + shift;
    gtc_f64_bits k, s;
    k.d = kd;                /* k in the low bits: round to nearest, ties to even */
    kd -= shift;
    double r = z - kd;
    s.u = tab[k.u % 32] + (k.u << 47); /* 2^(k/32) */
    double p = c0 * r + c1, r2 = r * r, y = c2 * r + 1.0;
    y = p * r2 + y;
    float f = (float)(y * s.d);
    f = x > 0x1.62e42ep6f ? (float)INFINITY : f;
    f = x < -0x1.9fe368p6f ? 0.0f : f;
    return x != x ? x + x : f;
}
#define gtc_exp(x) GTC_GF(x, gtc_expf, exp)
#define gtc_log(x) GTC_GF(x, logf, log)
#define gtc_sqrt(x) GTC_GF(x, sqrtf, sqrt)
#define gtc_sin(x) GTC_GF(x, sinf, sin)
#define gtc_cos(x) GTC_GF(x, cosf, cos)
#define gtc_tan(x) GTC_GF(x, tanf, tan)
#define gtc_tanh(x) GTC_GF(x, tanhf, tanh)
#define gtc_erf(x) GTC_GF(x, erff, erf)
GTC_FN float gtc_rsqrtf(float x) { return 1.0f / sqrtf(x); }
GTC_FN double gtc_rsqrtd(double x) { return 1.0 / sqrt(x); }
#define gtc_rsqrt(x) GTC_GF(x, gtc_rsqrtf, gtc_rsqrtd)
GTC_FN float gtc_sigmoidf(float x) { return 1.0f / (1.0f + expf(-x)); }
GTC_FN double gtc_sigmoidd(double x) { return 1.0 / (1.0 + exp(-x)); }
#define gtc_sigmoid(x) GTC_GF(x, gtc_sigmoidf, gtc_sigmoidd)
GTC_FN int32_t gtc_ipow32(int32_t a, int32_t b) { return (int32_t)gtc_ipow64(a, b); }
#define gtc_pow(a, b) _Generic((a), float: powf, double: pow, int32_t: gtc_ipow32, \
                               uint64_t: gtc_upow64, default: gtc_ipow64)(a, b)
GTC_FN int32_t gtc_iabs32(int32_t a) { return a < 0 ? (int32_t)(0u - (uint32_t)a) : a; }
GTC_FN int64_t gtc_iabs64(int64_t a) { return a < 0 ? (int64_t)(0ull - (uint64_t)a) : a; }
GTC_FN uint64_t gtc_uabs64(uint64_t a) { return a; }
#define gtc_abs(x) _Generic((x), float: fabsf, double: fabs, int32_t: gtc_iabs32, \
                            uint64_t: gtc_uabs64, default: gtc_iabs64)(x)
#define gtc_floor(x) _Generic((x), float: floorf(x), double: floor(x), default: (x))
#define gtc_ceil(x) _Generic((x), float: ceilf(x), double: ceil(x), default: (x))
#define gtc_round(x) _Generic((x), float: rintf(x), double: rint(x), default: (x))
/* max, min and relu of a float: the values of the plain formulas, `(a > b || a != a) ? a : b`
 * and `a < 0 ? 0 : a` (a NaN operand propagates, a == b gives b, relu(-0) is -0; the integer
 * forms below are those), written so that gcc computes them without a branch
 * (maxss/minss or a compare and blend, then the NaN fix-up as a conditional move): in a loop the
 * vectoriser leaves alone (a pooling window's strided taps), a branch on the sign of random data
 * is mispredicted half the time (docs/cpu.md). The same formulas in another order (the NaN test
 * first, or `||`) gcc turns into branches. */
GTC_FN float gtc_maxf(float a, float b) { float m = a > b ? a : b; return a != a ? a : m; }
GTC_FN double gtc_maxd(double a, double b) { double m = a > b ? a : b; return a != a ? a : m; }
GTC_FN float gtc_minf(float a, float b) { float m = a < b ? a : b; return a != a ? a : m; }
GTC_FN double gtc_mind(double a, double b) { double m = a < b ? a : b; return a != a ? a : m; }
GTC_FN float gtc_reluf(float a) { float z = 0; return z > a ? z : a; }
GTC_FN double gtc_relud(double a) { double z = 0; return z > a ? z : a; }
#define gtc_max(a, b) _Generic((a) + (b), float: gtc_maxf((a), (b)), double: gtc_maxd((a), (b)), \
                               default: (((a) > (b)) ? (a) : (b)))
#define gtc_min(a, b) _Generic((a) + (b), float: gtc_minf((a), (b)), double: gtc_mind((a), (b)), \
                               default: (((a) < (b)) ? (a) : (b)))
#define gtc_relu(a) _Generic((a), float: gtc_reluf(a), double: gtc_relud(a), default: ((a) < 0 ? 0 : (a)))
#define gtc_sign(a) ((a) != (a) ? (a) : ((a) > 0) - ((a) < 0))
#define gtc_clamp(x, lo, hi) gtc_min(gtc_max((x), (lo)), (hi))
/* where(c, x, y) of floats: x's or y's bits through a mask, so that gcc cannot turn it into a
 * branch on c (a pool gradient's "is this tap the max" is random); vectorised loops keep their
 * blend-like and/andnot/or. Integers and the 2-byte floats (structs) select as C does. */
GTC_FN float gtc_wheref(gtc_bool c, float x, float y) {
    gtc_f32_bits bx = {x}, by = {y};
    uint32_t m = 0u - (uint32_t)(c != 0);
    bx.u = (bx.u & m) | (by.u & ~m);
    return bx.f;
}
GTC_FN double gtc_whered(gtc_bool c, double x, double y) {
    gtc_f64_bits bx = {x}, by = {y};
    uint64_t m = 0ull - (uint64_t)(c != 0);
    bx.u = (bx.u & m) | (by.u & ~m);
    return bx.d;
}
#define gtc_where(c, x, y) _Generic((x), float: gtc_wheref((c), GTC_NUM(x), GTC_NUM(y)), \
                                    double: gtc_whered((c), GTC_NUM(x), GTC_NUM(y)), default: ((c) ? (x) : (y)))
/* The 2-byte floats are structs in C, and every branch of a _Generic must compile for every
 * operand type, so the conversions reach x through these three: GTC_NUM(x) is x when it is a
 * number (0 otherwise), GTC_ASB / GTC_ASF x when it is that struct. */
#define GTC_NUM(x) _Generic((x), gtc_bf16: 0, gtc_f16: 0, default: (x))
#define GTC_ASB(x) _Generic((x), gtc_bf16: (x), default: (gtc_bf16){0})
#define GTC_ASF(x) _Generic((x), gtc_f16: (x), default: (gtc_f16){0})
/* a stored value as arithmetic sees it: the 2-byte floats widen to float, the rest are themselves */
#define gtc_val(x) _Generic((x), gtc_bf16: gtc_bf16_f32(GTC_ASB(x)), \
                            gtc_f16: gtc_f16_f32(GTC_ASF(x)), default: GTC_NUM(x))
#define gtc_to_bool(x) ((gtc_bool)(gtc_val(x) != 0))
/* to an integer: from a float saturating (gtc_f2*), from an integer keeping the low bits (two's
 * complement), as C's casts do */
#define GTC_TO_INT_(v, T, f2) _Generic((v), float: f2(v), double: f2(v), default: (T)(v))
#define GTC_TO_INT(x, T, f2) GTC_TO_INT_(gtc_val(x), T, f2)
#define gtc_to_i8(x) GTC_TO_INT(x, int8_t, gtc_f2i8)
#define gtc_to_u8(x) GTC_TO_INT(x, uint8_t, gtc_f2u8)
#define gtc_to_i16(x) GTC_TO_INT(x, int16_t, gtc_f2i16)
#define gtc_to_u16(x) GTC_TO_INT(x, uint16_t, gtc_f2u16)
#define gtc_to_i32(x) GTC_TO_INT(x, int32_t, gtc_f2i32)
#define gtc_to_u32(x) GTC_TO_INT(x, uint32_t, gtc_f2u32)
#define gtc_to_i64(x) GTC_TO_INT(x, int64_t, gtc_f2i64)
#define gtc_to_u64(x) GTC_TO_INT(x, uint64_t, gtc_f2u64)
/* the conversion to a dtype by its suffix (IR_DTYPES' sfx column) */
#define gtc_to_b8(x) gtc_to_bool(x)
#define gtc_to_f32(x) ((float)gtc_val(x))
#define gtc_to_f64(x) ((double)gtc_val(x))
/* to a 2-byte float: 64-bit integers through gtc_*_jam, everything else through double (exact) */
#define GTC_TO_HALF(x, H, O)                                                                    \
    _Generic((x), gtc_##H: GTC_AS_##H(x), gtc_##O: gtc_##H##_of_##O(GTC_AS_##O(x)),             \
             int64_t: gtc_##H##_of_i64((int64_t)GTC_NUM(x)),                                    \
             uint64_t: gtc_##H##_of_u64((uint64_t)GTC_NUM(x)),                                  \
             default: gtc_##H##_of_f64((double)GTC_NUM(x)))
#define GTC_AS_bf16(x) GTC_ASB(x)
#define GTC_AS_f16(x) GTC_ASF(x)
#define gtc_to_bf16(x) GTC_TO_HALF(x, bf16, f16)
#define gtc_to_f16(x) GTC_TO_HALF(x, f16, bf16)
/* (OS)(v) for any storage type OS: a C cast cannot make a struct */
#define gtc_cast(OS, v) _Generic((OS){0}, gtc_bf16: gtc_to_bf16(v), gtc_f16: gtc_to_f16(v), \
                                 default: (__typeof__(GTC_NUM((OS){0})))gtc_val(v))
#endif


/* ---- dropout's random bits: Philox4x32-10 (Salmon et al., "Parallel Random Numbers: As Easy as
 * 1, 2, 3", SC11; Random123's philox4x32_10), one definition for the CPU backend, the CUDA eager
 * kernels and generated code, so a mask is the same bits everywhere. Counter-based: element i of
 * a dropout with seed s draws word x of philox(counter = (lo32(i), hi32(i), 0, 0), key =
 * (lo32(s), hi32(s))), and keeps the element when (x >> 8) * 2^-24 >= ratio. ---- */
typedef struct {
    uint32_t v[4];
} gtc_philox_ctr;

GTC_FN gtc_philox_ctr gtc_philox4x32_10(gtc_philox_ctr c, uint32_t k0, uint32_t k1) {
    for (int r = 0; r < 10; r++) {
        if (r) k0 += 0x9E3779B9u, k1 += 0xBB67AE85u; /* the Weyl key schedule */
        uint64_t p0 = (uint64_t)0xD2511F53u * c.v[0], p1 = (uint64_t)0xCD9E8D57u * c.v[2];
        gtc_philox_ctr n;
        n.v[0] = (uint32_t)(p1 >> 32) ^ c.v[1] ^ k0;
        n.v[1] = (uint32_t)p1;
        n.v[2] = (uint32_t)(p0 >> 32) ^ c.v[3] ^ k1;
        n.v[3] = (uint32_t)p0;
        c = n;
    }
    return c;
}

/* Whether dropout keeps element i (row-major linear index) under seed and ratio. */
GTC_FN int gtc_dropout_keep(uint64_t i, uint64_t seed, double ratio) {
    gtc_philox_ctr c;
    c.v[0] = (uint32_t)i, c.v[1] = (uint32_t)(i >> 32), c.v[2] = 0, c.v[3] = 0;
    c = gtc_philox4x32_10(c, (uint32_t)seed, (uint32_t)(seed >> 32));
    return (double)(c.v[0] >> 8) * (1.0 / 16777216.0) >= ratio;
}

#endif
