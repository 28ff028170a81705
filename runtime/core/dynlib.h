/* runtime/core/dynlib.h: an optional library loaded at run time (cuDNN, NCCL), so that gtc.so and
 * gtc load and work where it is missing: the path an environment variable names, else the soname
 * the dynamic loader finds. Header-only: the gtc command links nccl_lib.o alone, and the CUDA
 * backend's C++ includes it too. */
#ifndef GTC_DYNLIB_H
#define GTC_DYNLIB_H

#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* dlopen(getenv(env) or soname); NULL with dlerror()'s words in why. *name (when not NULL) is
 * what was opened, for messages. */
static inline void *rt_dynlib_open(const char *env, const char *soname, const char **name, char *why, size_t wn) {
    const char *path = getenv(env);
    if (!path || !*path) path = soname;
    if (name) *name = path;
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *e = dlerror();
        snprintf(why, wn, "%s", e ? e : "dlopen failed");
    }
    return lib;
}

#endif
