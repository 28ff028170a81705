/* runtime/backends.c: the backend table, one row per backend this build has. The core and the
 * PHP layer reach backends only through it (rt.h: rt_backends, rt_backend_find), so adding a
 * backend is a new folder under runtime/ plus one row here. GTC_HAVE_CUDA is defined where the
 * CUDA backend's objects are linked (the Makefile's gtc.so); the PIE build has the CPU only. */
#include <string.h>

#include "core/rt.h"
#ifdef GTC_HAVE_CUDA
#include "cuda/rt_cuda.h"
#endif

const RtBackend *const rt_backends[] = {
    &rt_cpu_backend,
#ifdef GTC_HAVE_CUDA
    &rt_cuda_backend,
#endif
    NULL,
};

const RtBackend *rt_backend_find(const char *name) {
    for (int i = 0; rt_backends[i]; i++)
        if (!strcmp(rt_backends[i]->name, name)) return rt_backends[i];
    return NULL;
}
