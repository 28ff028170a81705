/* tests/php/nodeepbind.c: an LD_PRELOAD shim for running a sanitizer-built gtc.so inside an
 * uninstrumented php. php dlopen()s extensions with RTLD_DEEPBIND, which the ASan runtime
 * refuses (google/sanitizers#611); this drops the flag and forwards to the next dlopen (ASan's
 * interceptor). Built by run.sh only for sanitizer builds. */
#define _GNU_SOURCE
#include <dlfcn.h>

void *dlopen(const char *file, int flags) {
    static void *(*next)(const char *, int);
    if (!next) next = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
#ifdef RTLD_DEEPBIND
    flags &= ~RTLD_DEEPBIND;
#endif
    return next(file, flags);
}
