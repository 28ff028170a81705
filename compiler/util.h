/* compiler/util.h: the compiler's allocation helpers, one definition each. Like the rest of the
 * compiler they abort on out-of-memory rather than return NULL. */
#ifndef GTC_UTIL_H
#define GTC_UTIL_H

#include <stdlib.h>
#include <string.h>

/* calloc that never returns NULL; n == 0 still gives a unique pointer (callers free it). */
static inline void *xcalloc(size_t n, size_t size) {
    void *p = calloc(n ? n : 1, size);
    if (!p) abort();
    return p;
}

static inline char *xstrdup(const char *s) {
    char *p = strdup(s);
    if (!p) abort();
    return p;
}

#endif
