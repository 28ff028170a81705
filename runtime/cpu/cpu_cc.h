/* runtime/cpu/cpu_cc.h: the C compiler that builds CPU kernels (a model's, by `gtc compile`, and
 * the JIT's, by the CPU backend): how it is run and the flags it gets. */
#ifndef GTC_CPU_CC_H
#define GTC_CPU_CC_H

/* Runs argv (no shell) with its stdout and stderr into logpath; returns the exit status, 127
 * when the program cannot be run, -1 when fork fails. */
int rt_cpu_cc_run(char *const argv[], const char *logpath);

/* The flags a generated kernels_cpu.c is compiled with by `cc` (a name looked up in PATH, or a
 * path): RT_CPU_KERNEL_CFLAGS (plan_abi.h), and after it RT_CPU_KERNEL_CFLAGS_GCC when `cc
 * --version` says GCC. A string literal. */
const char *rt_cpu_cc_flags(const char *cc);

#endif
