/* compiler/target.h: the GPU a plan is lowered for (SM count, shared memory, compute capability,
 * FP64 rate, tensor-core generation). pass_lower (compiler/pass_lower.c) sizes grids, picks GEMM
 * tiles and checks shared memory against it; `gtc compile --arch/--target sm_NN` and the other
 * commands' --target take it from a table of known architectures, the JIT from the device
 * (target_from_device). The default is the H200 (sm_90, 132 SMs) every figure in bench/ is from. */
#ifndef GTC_TARGET_H
#define GTC_TARGET_H

#include <stddef.h>

typedef struct {
    char name[16];   /* "sm_90" (or "sm_90a": the arch-specific variant of the same target) */
    int cc_major, cc_minor;
    int sms;         /* streaming multiprocessors */
    int smem_block;  /* shared memory one block may use (opt-in maximum), bytes */
    int smem_sm;     /* shared memory per SM, bytes */
    int fp64_ratio;  /* FP32 : FP64 throughput, as N in 1:N (2: half rate, 64: a consumer part) */
    int tensor_gen;  /* tensor-core generation: 0 none, 1 Volta, 2 Turing, 3 Ampere, 4 Ada and
                      * Hopper, 5 Blackwell; tf32 and bf16 products need 3 or later) */
    int precision;   /* TargetPrecision: how products are computed (--precision; not a property
                      * of the GPU, but of what the plan is lowered to do on it) */
} Target;

/* The precision policy for products (matmul): fp32 exact (the default); tf32: tensor cores on
 * float32 storage (operands rounded to 10-bit mantissas, float32 accumulation); bf16: operands
 * rounded to bfloat16, float32 accumulation; storage, reductions and every other op stay float32. */
typedef enum { PREC_FP32, PREC_TF32, PREC_BF16 } TargetPrecision;
/* "fp32", "tf32", "bf16" */
const char *target_precision_name(int p);
/* Parses a --precision value (also "highest" = fp32, "high" = tf32, "medium" = bf16, PyTorch's
 * names): 0, or -1 with a one-line reason in err. */
int target_precision_parse(const char *s, int *p, char *err, size_t errn);
/* 0, or -1 with a reason in err when t cannot run products at t->precision (tf32 and bf16 need
 * tensor cores of compute capability 8.0 or later). */
int target_precision_check(const Target *t, char *err, size_t errn);

/* The default target: the H200 (sm_90, 132 SMs, 227 KiB of shared memory per block). */
const Target *target_default(void);
/* Fills t for an architecture name: "sm_90", "sm_90a", "sm_80", ... (the table in target.c; a
 * representative part's SM count for each). 0, or -1 with a one-line reason in err ("'foo' is
 * not an SM architecture such as sm_90", 'sm_42' is not an architecture gtc knows (known: ...)"). */
int target_parse(const char *s, Target *t, char *err, size_t errn);
/* Fills t from what the device reports (the JIT: cudaDevAttrMultiProcessorCount, compute
 * capability, cudaDevAttrMaxSharedMemoryPerBlockOptin, ...MaxSharedMemoryPerMultiprocessor); FP64
 * rate and tensor-core generation come from the table's entry for the compute capability (the
 * closest one below it when the exact one is unknown). 0, or -1 when a value is not positive. */
int target_from_device(Target *t, int sms, int cc_major, int cc_minor, int smem_block, int smem_sm);
/* One line for `gtc plan`: "sm_90, 132 SMs, 232448 bytes of shared memory per block, ...". */
void target_describe(const Target *t, char *buf, size_t n);

#endif
