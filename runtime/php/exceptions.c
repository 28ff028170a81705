/* runtime/php/exceptions.c: the Cuda\... exception hierarchy's class entries and the mapping
 * from runtime statuses (rt_status) to exception classes. */
#include "php_gtc.h"

#include "zend_exceptions.h"

zend_class_entry *php_gtc_ce_Exception;
zend_class_entry *php_gtc_ce_InvalidArgumentException;
zend_class_entry *php_gtc_ce_RuntimeException;
zend_class_entry *php_gtc_ce_OutOfMemoryException;
zend_class_entry *php_gtc_ce_CompilationException;

static zend_class_entry *ce_for_status(RtStatus st) {
    switch (st) {
    case RT_EINVAL: return php_gtc_ce_InvalidArgumentException;
    case RT_EOOM: return php_gtc_ce_OutOfMemoryException;
    case RT_ECOMPILE: return php_gtc_ce_CompilationException;
    default: return php_gtc_ce_RuntimeException;
    }
}

/* Throws with msg made safe to print: names, dtypes and paths in messages come from the
 * caller, so control and invisible format characters are escaped (ir_escape_invisible), all but
 * newlines and tabs, which a C compiler's or NVRTC's log in a message needs. */
static void throw_escaped(RtStatus st, const char *msg) {
    size_t n = 4 * strlen(msg) + 1; /* the longest escape, \xNN, is 4 bytes for 1 */
    char *safe = emalloc(n);
    ir_escape_invisible(msg, safe, n, true);
    zend_throw_exception(ce_for_status(st), safe, 0);
    efree(safe);
}

void php_gtc_throw(RtStatus st, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    zend_string *msg = zend_vstrpprintf(0, fmt, ap);
    va_end(ap);
    throw_escaped(st, ZSTR_VAL(msg));
    zend_string_release(msg);
}

void php_gtc_throw_rt(void) {
    RtStatus st = rt_status();
    const char *msg = rt_message();
    if (st == RT_OK) { /* a runtime function failed without saying why: still never silent */
        st = RT_ERUNTIME;
        msg = "internal error (no message)";
    }
    throw_escaped(st, msg && *msg ? msg : "runtime error");
    rt_clear_error();
}

/* A PHP string that names an input or a graph must not hold a NUL byte: read as a C string it
 * would silently end there ("x\0y" would name input x). false after throwing. */
bool php_gtc_no_nul(const zend_string *s, const char *what) {
    if (strlen(ZSTR_VAL(s)) == ZSTR_LEN(s)) return true;
    php_gtc_throw(RT_EINVAL, "%s \"%.64s\\0...\" holds a NUL byte; names are [A-Za-z_][A-Za-z0-9_]*", what, ZSTR_VAL(s));
    return false;
}
