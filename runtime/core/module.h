/* runtime/core/module.h: user kernels compiled from source at run time (Cuda\Compiler), as a
 * backend offers them (RtBackend.modules; NULL on a backend that cannot). The CUDA backend's
 * are NVRTC modules (runtime/cuda/rt_kernel.h documents each operation); the PHP layer calls
 * them only through this table, so it names no backend.
 *
 * Ownership: compile returns a module the caller frees with free; strings returned by the
 * accessors belong to the module. */
#ifndef GTC_MODULE_H
#define GTC_MODULE_H

#include <stddef.h>

#include "rt.h"

typedef struct RtModule RtModule;

/* A kernel parameter as the PTX declares it: integers (.u/.s/.b 8..64 bits; pointers are
 * 64-bit integers), floats, or anything else (structs, arrays, half) that callers cannot fill. */
typedef enum { RT_PARAM_INT, RT_PARAM_FLOAT, RT_PARAM_OTHER } RtParamKind;

typedef struct {
    RtParamKind kind;
    int bytes; /* 1, 2, 4 or 8 for INT; 4 or 8 for FLOAT; 0 for OTHER */
} RtParam;


/* The device's launch limits, for validating a configuration before CUDA sees it. */
typedef struct {
    int max_threads_per_block;
    int max_block[3];
    int max_grid[3];
    int max_shared_optin; /* dynamic shared memory a kernel may opt into, in bytes */
} RtLaunchLimits;

struct RtModuleOps {
    RtModule *(*compile)(const char *src, const char *name, const char *const *opts, int nopts,
                         const char *const *names, int nnames, char **log);
    void (*free)(RtModule *m);
    const char *(*log)(const RtModule *m);
    const char *(*ptx)(const RtModule *m);
    int (*kernel_count)(const RtModule *m);
    const char *(*kernel_name)(const RtModule *m, int k);
    int (*find)(const RtModule *m, const char *name);
    int (*param_count)(const RtModule *m, int k);
    RtParam (*param)(const RtModule *m, int k, int i);
    int (*limits)(RtLaunchLimits *out);
    int (*launch)(RtModule *m, int k, const unsigned grid[3], const unsigned block[3], size_t shared_mem,
                  void **args);
    int (*compiler_version)(int *major, int *minor); /* 0, or -1 when unavailable */
};

#endif
