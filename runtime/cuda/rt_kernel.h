/* runtime/cuda/rt_kernel.h: user CUDA C++ kernels compiled at run time with NVRTC for the
 * current device and launched on the context's stream (Cuda\Compiler). Plain C; no CUDA or
 * NVRTC headers needed.
 *
 * A module holds one compiled program: NVRTC's log, the PTX, the loaded image (a cubin for the
 * device's exact architecture, or PTX the driver JIT-compiles when NVRTC does not know the
 * device), and its kernels with their parameter types read from the PTX entry signatures.
 * Ownership: rt_module_compile returns a module the caller frees with rt_module_free; strings
 * returned by the accessors belong to the module. Needs a successful rt_cuda_init. */
#ifndef GTC_RT_KERNEL_H
#define GTC_RT_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "../core/module.h"

/* Compiles `src` (diagnostics name it `name`) for the current device with NVRTC's options
 * opts[0..nopts) after the architecture option (the caller has vetted them), instantiating and
 * registering the C++ name expressions names[0..nnames) ("scale<float>"). Returns the module, or
 * NULL after rt_error: RT_ECOMPILE when NVRTC rejects the program (*log, when log is not NULL,
 * then receives a malloc'd copy of NVRTC's log for the caller to free), RT_ERUNTIME when loading
 * fails or CUDA is not initialised. */
RtModule *rt_module_compile(const char *src, const char *name, const char *const *opts, int nopts,
                            const char *const *names, int nnames, char **log);
/* Waits for the stream (launched kernels may still run) and unloads the module. */
void rt_module_free(RtModule *m);

const char *rt_module_log(const RtModule *m); /* NVRTC's log ("" when it was silent) */
const char *rt_module_ptx(const RtModule *m);
const char *rt_module_arch(const RtModule *m); /* "sm_90", or "compute_XY" when loaded as PTX */

/* Kernels in PTX order; a kernel's name is its name expression when it has one, else the
 * symbol (extern "C" names as written, other C++ kernels mangled). */
int rt_module_kernel_count(const RtModule *m);
const char *rt_module_kernel_name(const RtModule *m, int k);
/* The kernel called `name` (a listed name, or a mangled symbol), or -1 after rt_error
 * (RT_EINVAL, naming the kernels there are). */
int rt_module_find(const RtModule *m, const char *name);
int rt_module_param_count(const RtModule *m, int k);
RtParam rt_module_param(const RtModule *m, int k, int i);

int rt_kernel_limits(RtLaunchLimits *out);

/* Launches kernel k on the context's stream; args[i] points at parameter i's bytes. Shared
 * memory above the default 48 KiB is opted into for the kernel first. Returns 0, or -1 after
 * rt_error with the CUDA error's name (the error is cleared, so the context stays usable when
 * the error was not sticky). Does not wait for the kernel. */
int rt_module_launch(RtModule *m, int k, const unsigned grid[3], const unsigned block[3], size_t shared_mem,
                     void **args);

/* NVRTC's version (0 when unavailable). */
int rt_nvrtc_version(int *major, int *minor);

#ifdef __cplusplus
}
#endif

#endif
