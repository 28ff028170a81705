/* templates/kernels_cpu_prelude.h: what every generated kernels_cpu.c adds to ir/scalar.h:
 * infinities and NaNs under the names the CUDA prelude uses, and the 128-bit type that int64
 * arithmetic widens to (as the CPU backend does), so overflow wraps without undefined behaviour. */
#define GTC_INF_F INFINITY
#define GTC_NAN_F NAN
#define GTC_INF_D ((double)INFINITY)
#define GTC_NAN_D ((double)NAN)
__extension__ typedef __int128 gtc_wide;
