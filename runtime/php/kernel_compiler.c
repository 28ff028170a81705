/* runtime/php/kernel_compiler.c: Cuda\Compiler (user kernels, not gtc's graph compiler): CUDA
 * C++ compiled for the current GPU by the device backend's modules (RtBackend.modules,
 * runtime/core/module.h: NVRTC, runtime/cuda/rt_kernel.h) and launched by name with CudaArray
 * and scalar arguments; also
 * Cuda\CompilationException::getLog(). Options are vetted here against an allow-list before
 * NVRTC sees them; kernel arguments convert by the parameter types the PTX declares. */
#include "php_gtc.h"

#include "zend_exceptions.h"

#include "../core/module.h"

zend_class_entry *php_gtc_ce_Compiler;
static zend_object_handlers compiler_handlers;

typedef struct {
    RtModule *m;
    const RtModuleOps *ops; /* the backend's that compiled m */
    zend_object std;
} php_gtc_compiler;

static inline php_gtc_compiler *compiler_from_obj(zend_object *obj) {
    return (php_gtc_compiler *)((char *)obj - XtOffsetOf(php_gtc_compiler, std));
}

static zend_object *compiler_create(zend_class_entry *ce) {
    php_gtc_compiler *c = zend_object_alloc(sizeof(php_gtc_compiler), ce);
    zend_object_std_init(&c->std, ce);
    object_properties_init(&c->std, ce);
    c->std.handlers = &compiler_handlers;
    return &c->std;
}

static void compiler_free(zend_object *obj) {
    php_gtc_compiler *c = compiler_from_obj(obj);
    if (c->m) c->ops->free(c->m);
    c->m = NULL;
    zend_object_std_dtor(obj);
}

static php_gtc_compiler *this_compiler(zval *this_zv) {
    php_gtc_compiler *c = compiler_from_obj(Z_OBJ_P(this_zv));
    if (!c->m) zend_throw_error(NULL, "Cuda\\Compiler object is not initialized");
    return c->m ? c : NULL;
}

void php_gtc_compiler_minit(zend_class_entry *ce) {
    ce->create_object = compiler_create;
    memcpy(&compiler_handlers, &std_object_handlers, sizeof(zend_object_handlers));
    compiler_handlers.offset = XtOffsetOf(php_gtc_compiler, std);
    compiler_handlers.free_obj = compiler_free;
    compiler_handlers.clone_obj = NULL; /* a module is not copied */
}

const char *php_gtc_nvrtc_version(char *buf, size_t n) {
    int major = 0, minor = 0;
    const RtBackend *b = rt_backend_find("cuda");
    if (!b || !b->modules || b->modules->compiler_version(&major, &minor) != 0) return NULL;
    snprintf(buf, n, "%d.%d", major, minor);
    return buf;
}

/* ---- Cuda\CompilationException ---------------------------------------------------------------- */

PHP_METHOD(Cuda_CompilationException, getLog) {
    ZEND_PARSE_PARAMETERS_NONE();
    zval rv, *log = zend_read_property(php_gtc_ce_CompilationException, Z_OBJ_P(ZEND_THIS), "log",
                                       sizeof("log") - 1, 1, &rv);
    RETURN_COPY_DEREF(log);
}

/* Throws Cuda\CompilationException: the runtime's message, then NVRTC's log. */
static void throw_compilation(const char *log) {
    zend_string *msg = log && *log ? zend_strpprintf(0, "%s:\n%s", rt_message(), log)
                                   : zend_string_init(rt_message(), strlen(rt_message()), 0);
    zend_object *ex = zend_throw_exception(php_gtc_ce_CompilationException, ZSTR_VAL(msg), 0);
    zend_update_property_string(php_gtc_ce_CompilationException, ex, "log", sizeof("log") - 1, log ? log : "");
    zend_string_release(msg);
    rt_clear_error();
}

/* ---- options ----------------------------------------------------------------------------------- */

/* NVRTC options users may pass: nothing that writes files, picks the architecture or changes
 * what the runtime loads. Prefixed ones need a value after the prefix. */
static const char *const option_prefixes[] = {
    "-D", "-U", "-I", "--define-macro=", "--undefine-macro=", "--include-path=", "-std=", "--std=",
    "-fmad=", "--fmad=", "-ftz=", "--ftz=", "-prec-div=", "--prec-div=", "-prec-sqrt=", "--prec-sqrt=",
    "-maxrregcount=", "--maxrregcount=",
};
static const char *const option_flags[] = {
    "-use_fast_math", "--use_fast_math", "-lineinfo", "--generate-line-info",
    "-extra-device-vectorization", "--extra-device-vectorization", "-default-device",
    "--device-as-default-execution-space", "-restrict", "--restrict", "-w", "--disable-warnings",
};

static bool option_allowed(const char *s) {
    for (size_t i = 0; i < sizeof option_flags / sizeof *option_flags; i++)
        if (!strcmp(s, option_flags[i])) return true;
    for (size_t i = 0; i < sizeof option_prefixes / sizeof *option_prefixes; i++) {
        size_t n = strlen(option_prefixes[i]);
        if (!strncmp(s, option_prefixes[i], n) && s[n]) return true;
    }
    return false;
}

/* The strings of a list argument (pointers into the array's strings, valid while it lives);
 * vet applies the option allow-list. Returns the count or -1 after throwing; *out is emalloc'd. */
static int string_list(HashTable *ht, uint32_t arg, bool vet, const char ***out) {
    *out = NULL;
    uint32_t n = zend_hash_num_elements(ht);
    if (!n) return 0;
    if (!zend_array_is_list(ht)) {
        zend_argument_value_error(arg, "must be a list of strings");
        return -1;
    }
    const char **v = safe_emalloc(n, sizeof *v, 0);
    int i = 0;
    zval *z;
    ZEND_HASH_FOREACH_VAL(ht, z) {
        ZVAL_DEREF(z);
        if (Z_TYPE_P(z) != IS_STRING) {
            zend_argument_type_error(arg, "must be a list of strings, %s found in the list", zend_zval_type_name(z));
            goto fail;
        }
        if (Z_STRLEN_P(z) == 0 || strlen(Z_STRVAL_P(z)) != Z_STRLEN_P(z)) {
            zend_argument_value_error(arg, "must not contain empty strings or strings with null bytes");
            goto fail;
        }
        if (vet && !option_allowed(Z_STRVAL_P(z))) {
            php_gtc_throw(RT_EINVAL,
                          "NVRTC option \"%s\" is not allowed (allowed: -D, -U, -I and their long forms, "
                          "-std=, -use_fast_math, -lineinfo, -fmad=, -ftz=, -prec-div=, -prec-sqrt=, "
                          "-maxrregcount=, -extra-device-vectorization, -default-device, -restrict, -w)",
                          Z_STRVAL_P(z));
            goto fail;
        }
        v[i++] = Z_STRVAL_P(z);
    }
    ZEND_HASH_FOREACH_END();
    *out = v;
    return i;
fail:
    efree(v);
    return -1;
}

PHP_METHOD(Cuda_Compiler, __construct) {
    zend_string *source;
    HashTable *options = NULL, *names = NULL;
    ZEND_PARSE_PARAMETERS_START(1, 3)
        Z_PARAM_STR(source)
        Z_PARAM_OPTIONAL
        Z_PARAM_ARRAY_HT(options)
        Z_PARAM_ARRAY_HT(names)
    ZEND_PARSE_PARAMETERS_END();
    php_gtc_compiler *c = compiler_from_obj(Z_OBJ_P(ZEND_THIS));
    if (c->m) {
        zend_throw_error(NULL, "Cuda\\Compiler object is already initialized");
        RETURN_THROWS();
    }
    if (strlen(ZSTR_VAL(source)) != ZSTR_LEN(source)) {
        zend_argument_value_error(1, "must not contain any null bytes");
        RETURN_THROWS();
    }
    const char **opts = NULL, **exprs = NULL;
    int nopts = options ? string_list(options, 2, true, &opts) : 0;
    if (nopts < 0) RETURN_THROWS();
    int nnames = names ? string_list(names, 3, false, &exprs) : 0;
    if (nnames < 0) goto done;
    char why[300];
    const RtBackend *dev = php_gtc_device_backend(why, sizeof why);
    if (!dev || !dev->modules) {
        php_gtc_throw(RT_ERUNTIME, "%s; Cuda\\Compiler needs one",
                      dev ? "the device's backend compiles no kernels" : why);
        goto done;
    }
    char *log = NULL;
    RtModule *m = dev->modules->compile(ZSTR_VAL(source), "kernel.cu", opts, nopts, exprs, nnames, &log);
    if (!m) {
        if (rt_status() == RT_ECOMPILE) throw_compilation(log);
        else php_gtc_throw_rt();
        free(log);
        goto done;
    }
    c->m = m;
    c->ops = dev->modules;
done:
    if (opts) efree(opts);
    if (exprs) efree(exprs);
}

/* ---- launch ------------------------------------------------------------------------------------ */

/* A grid or block: one int, or a list of 1 to 3 positive ints; missing dimensions are 1. */
static bool parse_dims(HashTable *ht, zend_long one, uint32_t arg, unsigned out[3]) {
    zend_long d[3] = {one, 1, 1};
    if (ht) {
        uint32_t n = zend_hash_num_elements(ht);
        if (n < 1 || n > 3 || !zend_array_is_list(ht)) {
            zend_argument_value_error(arg, "must be an int or a list of 1 to 3 ints");
            return false;
        }
        int i = 0;
        zval *z;
        ZEND_HASH_FOREACH_VAL(ht, z) {
            ZVAL_DEREF(z);
            if (Z_TYPE_P(z) != IS_LONG) {
                zend_argument_type_error(arg, "must be a list of ints, %s found in the list", zend_zval_type_name(z));
                return false;
            }
            d[i++] = Z_LVAL_P(z);
        }
        ZEND_HASH_FOREACH_END();
    }
    for (int i = 0; i < 3; i++) {
        if (d[i] < 1 || d[i] > (zend_long)UINT32_MAX) {
            zend_argument_value_error(arg, "must contain positive ints below 2^32, " ZEND_LONG_FMT " given", d[i]);
            return false;
        }
        out[i] = (unsigned)d[i];
    }
    return true;
}

static bool check_limits(const RtModuleOps *o, const unsigned grid[3], const unsigned block[3], zend_long shared) {
    RtLaunchLimits l;
    if (o->limits(&l) != 0) {
        php_gtc_throw_rt();
        return false;
    }
    static const char axis[3] = {'x', 'y', 'z'};
    uint64_t threads = (uint64_t)block[0] * block[1] * block[2];
    for (int i = 0; i < 3; i++) {
        if (block[i] > (unsigned)l.max_block[i]) {
            php_gtc_throw(RT_EINVAL, "block [%u, %u, %u]: the device allows at most %d threads along %c",
                          block[0], block[1], block[2], l.max_block[i], axis[i]);
            return false;
        }
        if (grid[i] > (unsigned)l.max_grid[i]) {
            php_gtc_throw(RT_EINVAL, "grid [%u, %u, %u]: the device allows at most %d blocks along %c",
                          grid[0], grid[1], grid[2], l.max_grid[i], axis[i]);
            return false;
        }
    }
    if (threads > (uint64_t)l.max_threads_per_block) {
        php_gtc_throw(RT_EINVAL, "block [%u, %u, %u] has %llu threads; the device allows at most %d per block",
                      block[0], block[1], block[2], (unsigned long long)threads, l.max_threads_per_block);
        return false;
    }
    if (shared < 0) {
        zend_argument_value_error(5, "must be greater than or equal to 0");
        return false;
    }
    if (shared > l.max_shared_optin) {
        php_gtc_throw(RT_EINVAL, "sharedMem of " ZEND_LONG_FMT " bytes: the device allows at most %d per block",
                      shared, l.max_shared_optin);
        return false;
    }
    return true;
}

typedef union {
    int8_t i8;
    int16_t i16;
    int32_t i32;
    int64_t i64;
    float f32;
    double f64;
    void *p;
} ArgSlot;

static const char *param_text(RtParam p, char *buf, size_t n) {
    if (p.kind == RT_PARAM_INT) snprintf(buf, n, "a %d-bit integer%s", p.bytes * 8, p.bytes == 8 ? " or pointer" : "");
    else if (p.kind == RT_PARAM_FLOAT) snprintf(buf, n, "a %s", p.bytes == 4 ? "float" : "double");
    else snprintf(buf, n, "a struct, array or half");
    return buf;
}

/* Converts argument i (1-based in messages) for parameter p; false after throwing. */
static bool convert_arg(zval *z, RtParam p, int i, const char *kname, ArgSlot *slot) {
    char pt[64];
    ZVAL_DEREF(z);
    if (p.kind == RT_PARAM_OTHER) {
        php_gtc_throw(RT_EINVAL, "argument %d of %s: its parameter is %s, which Cuda\\Compiler cannot pass "
                      "(use pointers and scalars)", i, kname, param_text(p, pt, sizeof pt));
        return false;
    }
    switch (Z_TYPE_P(z)) {
    case IS_OBJECT: {
        if (Z_OBJCE_P(z) != php_gtc_ce_CudaArray) {
            php_gtc_throw(RT_EINVAL, "argument %d of %s is a %s; kernels take Cuda\\CudaArray, int, float or bool",
                          i, kname, ZSTR_VAL(Z_OBJCE_P(z)->name));
            return false;
        }
        RtTensor *t = php_gtc_tensor(Z_OBJ_P(z));
        if (!t) return false;
        char dev[32];
        const char *where = php_gtc_device_name(t, dev, sizeof dev);
        if (strncmp(where, "cuda", 4) != 0) {
            php_gtc_throw(RT_EINVAL, "argument %d of %s lives on %s, kernels need cuda arrays", i, kname, where);
            return false;
        }
        if (!rt_is_contiguous(t)) {
            php_gtc_throw(RT_EINVAL, "argument %d of %s is a non-contiguous view; pass a contiguous array "
                          "(clone it)", i, kname);
            return false;
        }
        if (p.kind != RT_PARAM_INT || p.bytes != 8) {
            php_gtc_throw(RT_EINVAL, "argument %d of %s is a CudaArray but its parameter is %s, not a pointer",
                          i, kname, param_text(p, pt, sizeof pt));
            return false;
        }
        slot->p = rt_data(t);
        return true;
    }
    case IS_FALSE:
    case IS_TRUE:
    case IS_LONG: {
        zend_long v = Z_TYPE_P(z) == IS_LONG ? Z_LVAL_P(z) : Z_TYPE_P(z) == IS_TRUE;
        if (p.kind == RT_PARAM_FLOAT) {
            if (Z_TYPE_P(z) != IS_LONG) break;
            if (p.bytes == 4) slot->f32 = (float)v;
            else slot->f64 = (double)v;
            return true;
        }
        if (p.bytes < 8) {  /* fits when it fits the signed or the unsigned type of that width */
            int bits = p.bytes * 8;
            zend_long lo = -((zend_long)1 << (bits - 1)), hi = ((zend_long)1 << bits) - 1;
            if (v < lo || v > hi) {
                php_gtc_throw(RT_EINVAL, "argument %d of %s is " ZEND_LONG_FMT ", which does not fit its %d-bit "
                              "integer parameter", i, kname, v, bits);
                return false;
            }
        }
        switch (p.bytes) {
        case 1: slot->i8 = (int8_t)(uint8_t)v; break;
        case 2: slot->i16 = (int16_t)(uint16_t)v; break;
        case 4: slot->i32 = (int32_t)(uint32_t)v; break;
        default: slot->i64 = (int64_t)v; break;
        }
        return true;
    }
    case IS_DOUBLE:
        if (p.kind != RT_PARAM_FLOAT) {
            php_gtc_throw(RT_EINVAL, "argument %d of %s is a float but its parameter is %s (pass an int)", i,
                          kname, param_text(p, pt, sizeof pt));
            return false;
        }
        if (p.bytes == 4) slot->f32 = (float)Z_DVAL_P(z);
        else slot->f64 = Z_DVAL_P(z);
        return true;
    default:
        break;
    }
    php_gtc_throw(RT_EINVAL, "argument %d of %s is %s; its parameter is %s", i, kname,
                  zend_zval_type_name(z), param_text(p, pt, sizeof pt));
    return false;
}

PHP_METHOD(Cuda_Compiler, launch) {
    zend_string *kernel;
    HashTable *grid_ht = NULL, *block_ht = NULL, *args;
    zend_long grid_l = 0, block_l = 0, shared = 0;
    ZEND_PARSE_PARAMETERS_START(4, 5)
        Z_PARAM_STR(kernel)
        Z_PARAM_ARRAY_HT_OR_LONG(grid_ht, grid_l)
        Z_PARAM_ARRAY_HT_OR_LONG(block_ht, block_l)
        Z_PARAM_ARRAY_HT(args)
        Z_PARAM_OPTIONAL
        Z_PARAM_LONG(shared)
    ZEND_PARSE_PARAMETERS_END();
    if (!php_gtc_trace_forbid("Cuda\\Compiler::launch (custom kernel launches)")) RETURN_THROWS();
    php_gtc_compiler *c = this_compiler(ZEND_THIS);
    if (!c) RETURN_THROWS();
    RtModule *m = c->m;
    const RtModuleOps *o = c->ops;
    unsigned grid[3], block[3];
    if (!parse_dims(grid_ht, grid_l, 2, grid) || !parse_dims(block_ht, block_l, 3, block)) RETURN_THROWS();
    if (!check_limits(o, grid, block, shared)) RETURN_THROWS();
    int k = o->find(m, ZSTR_VAL(kernel));
    if (k < 0) {
        php_gtc_throw_rt();
        RETURN_THROWS();
    }
    const char *kname = o->kernel_name(m, k);
    int np = o->param_count(m, k);
    uint32_t na = zend_hash_num_elements(args);
    if (na && !zend_array_is_list(args)) {
        zend_argument_value_error(4, "must be a list");
        RETURN_THROWS();
    }
    if ((int)na != np) {
        php_gtc_throw(RT_EINVAL, "%s takes %d argument%s, %u given", kname, np, np == 1 ? "" : "s", na);
        RETURN_THROWS();
    }
    ArgSlot small[16];
    void *small_ptrs[16];
    ArgSlot *slots = np <= 16 ? small : safe_emalloc((size_t)np, sizeof *slots, 0);
    void **ptrs = np <= 16 ? small_ptrs : safe_emalloc((size_t)np, sizeof *ptrs, 0);
    bool ok = true;
    int i = 0;
    zval *z;
    ZEND_HASH_FOREACH_VAL(args, z) {
        memset(&slots[i], 0, sizeof slots[i]);
        ptrs[i] = &slots[i];
        if (!convert_arg(z, o->param(m, k, i), i + 1, kname, &slots[i])) {
            ok = false;
            break;
        }
        i++;
    }
    ZEND_HASH_FOREACH_END();
    if (ok && o->launch(m, k, grid, block, (size_t)shared, np ? ptrs : NULL) != 0) {
        php_gtc_throw_rt();
        ok = false;
    }
    if (slots != small) efree(slots);
    if (ptrs != small_ptrs) efree(ptrs);
    if (!ok) RETURN_THROWS();
}

/* ---- accessors --------------------------------------------------------------------------------- */

PHP_METHOD(Cuda_Compiler, kernels) {
    ZEND_PARSE_PARAMETERS_NONE();
    php_gtc_compiler *c = this_compiler(ZEND_THIS);
    if (!c) RETURN_THROWS();
    RtModule *m = c->m;
    const RtModuleOps *o = c->ops;
    int n = o->kernel_count(m);
    array_init_size(return_value, (uint32_t)n);
    for (int i = 0; i < n; i++) add_next_index_string(return_value, o->kernel_name(m, i));
}

PHP_METHOD(Cuda_Compiler, getLog) {
    ZEND_PARSE_PARAMETERS_NONE();
    php_gtc_compiler *c = this_compiler(ZEND_THIS);
    if (!c) RETURN_THROWS();
    RtModule *m = c->m;
    const RtModuleOps *o = c->ops;
    RETURN_STRING(o->log(m));
}

PHP_METHOD(Cuda_Compiler, getPtx) {
    ZEND_PARSE_PARAMETERS_NONE();
    php_gtc_compiler *c = this_compiler(ZEND_THIS);
    if (!c) RETURN_THROWS();
    RtModule *m = c->m;
    const RtModuleOps *o = c->ops;
    RETURN_STRING(o->ptx(m));
}
