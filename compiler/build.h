/* compiler/build.h: the build driver behind `gtc compile`: graph → passes → generated sources
 * (kernels.cu, kernels_cpu.c, plan.c, ext.c) → nvcc and cc → one PHP extension (.so) that uses
 * the runtime exported by gtc.so (it never links libgtcrt itself). */
#ifndef GTC_BUILD_H
#define GTC_BUILD_H

#include <stdbool.h>
#include <stdio.h>

typedef struct {
    const char *input;    /* the graph file */
    const char *output;   /* OUT.so: ends in .so, its directory exists */
    const char *emit_dir; /* keep the generated sources here; NULL: a temporary directory */
    const char *arch;     /* "sm_90" (default): cubin for it plus PTX for compute_XX, and the
                           * Target the plan is lowered for (compiler/target.h) */
    const char *arch_opt; /* the option that named it: "--arch" or "--target" (messages) */
    const char *precision;/* --precision: "fp32" (NULL, the default), "tf32", "bf16" (target.h) */
    const char *nvcc;     /* NULL: $CUDA_HOME/bin/nvcc, then PATH */
    const char *cc;       /* NULL: cc from PATH */
    bool cpu_only;        /* no CUDA code: the model runs on gtc.so's CPU backend only */
    bool data_parallel;   /* --data-parallel: gradients averaged across ranks (docs/distributed.md) */
    bool verbose;         /* print each command before running it */
} BuildOptions;

/* `gtc compile` with its arguments (argv[0] is "compile"). Exit status: 0 on success, 1 when
 * the graph, a tool or the build failed (one clear message on stderr), 2 for bad usage. */
int build_main(int argc, char **argv);
/* Runs a build with parsed options; 0 or 1 as above. */
int build_compile(const BuildOptions *o);
/* The usage text of `gtc compile`. */
void build_usage(FILE *f);

#endif
