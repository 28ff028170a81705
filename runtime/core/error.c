/* runtime/core/error.c: the last error of the process, which the PHP layer turns into an
 * exception of the matching class. */
#include <stdarg.h>
#include <stdio.h>

#include "rt.h"

static RtStatus last_status;
static char last_msg[1024];

int rt_error(RtStatus st, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_msg, sizeof last_msg, fmt, ap);
    va_end(ap);
    last_status = st;
    return -1;
}

RtStatus rt_status(void) { return last_status; }
const char *rt_message(void) { return last_status ? last_msg : ""; }

void rt_clear_error(void) {
    last_status = RT_OK;
    last_msg[0] = 0;
}
