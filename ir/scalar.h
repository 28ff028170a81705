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
template <typename T> GTC_FN float gtc_to_f32(T x) { return (float)x; }
template <typename T> GTC_FN double gtc_to_f64(T x) { return (double)x; }

#else
/* ---- C11: _Generic over float and double (and the integer types where the op allows them) ---- */
#define GTC_GF(x, f32, f64) _Generic((x), float: f32, default: f64)(x)
#define gtc_exp(x) GTC_GF(x, expf, exp)
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
#define gtc_max(a, b) (((a) > (b) || (a) != (a)) ? (a) : (b))
#define gtc_min(a, b) (((a) < (b) || (a) != (a)) ? (a) : (b))
#define gtc_relu(a) ((a) < 0 ? 0 : (a))
#define gtc_sign(a) ((a) != (a) ? (a) : ((a) > 0) - ((a) < 0))
#define gtc_clamp(x, lo, hi) gtc_min(gtc_max((x), (lo)), (hi))
#define gtc_to_bool(x) ((gtc_bool)((x) != 0))
/* to an integer: from a float saturating (gtc_f2*), from an integer keeping the low bits (two's
 * complement), as C's casts do */
#define GTC_TO_INT(x, T, f2) _Generic((x), float: f2(x), double: f2(x), default: (T)(x))
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
#define gtc_to_f32(x) ((float)(x))
#define gtc_to_f64(x) ((double)(x))
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
