/* templates/kernels_cpu_prelude.h: what every generated kernels_cpu.c adds to ir/scalar.h:
 * infinities and NaNs under the names the CUDA prelude uses, and the 128-bit type that int64
 * arithmetic widens to (as the CPU backend does), so overflow wraps without undefined behaviour,
 * and GTC_CPU_STEP, which each step function carries: on x86-64 with GCC, clones of it (and of
 * its OpenMP loops) for AVX-512 and AVX2 beside the baseline, the best one picked when the
 * library loads, so a model built on one machine vectorises wide on another (docs/cpu.md). The
 * clones compute the same values: no FMA contraction (-ffp-contract=off), no reassociation. */
#define GTC_INF_F INFINITY
#define GTC_NAN_F NAN
#define GTC_INF_D ((double)INFINITY)
#define GTC_NAN_D ((double)NAN)
__extension__ typedef __int128 gtc_wide;
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__)
#define GTC_CPU_STEP __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define GTC_CPU_STEP
#endif
/* A blocked row step (compiler/emit_cpu.c) without GCC's unroll-and-jam: jamming the loop along
 * the row into the loop across the block's rows (a max's accumulators carried along the row)
 * leaves strided loads the vectoriser gives up on, and the loop runs one row at a time. */
#if defined(__GNUC__) && !defined(__clang__)
#define GTC_CPU_NO_JAM __attribute__((optimize("no-loop-unroll-and-jam")))
#else
#define GTC_CPU_NO_JAM
#endif
