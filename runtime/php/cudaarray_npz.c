/* runtime/php/cudaarray_npz.c: .npz checkpoints, NumPy's np.savez / np.savez_compressed format
 * (a zip archive of one .npy member per tensor, named NAME.npy): CudaArray::saveNpz/loadNpz and
 * the archive functions plan_class.c's saveCheckpoint/loadCheckpoint share. The zip container
 * is libzip's (Debian's libzip-dev, docs/checkpoints.md says why); every member is runtime/core
 * /npy.c's .npy, so an npz member is read with the same checks as fromNpy. Archives are
 * untrusted: names, member counts, sizes and contents are checked before they are used, and a
 * member is never decompressed past what its .npy header says it holds. */
#include "php_gtc.h"

#include <unistd.h>
#include <zip.h>

/* More members than any checkpoint needs; an archive claiming more is refused before reading. */
#define NPZ_MAX_MEMBERS 65536
/* The longest tensor name kept (a zip name can be 65535 bytes). */
#define NPZ_MAX_NAME 1024
/* Decompressed bytes are read in chunks and the buffer grows only as data arrives, so a member
 * whose header claims far more than it holds costs no more memory than what it really holds. */
#define NPZ_CHUNK ((size_t)1 << 20)

/* Whether a tensor name is one that np.load and a file system would agree on: not empty, no
 * control characters or backslashes, not absolute, no "." or ".." path component. Names come
 * from untrusted archives and end up as PHP array keys and (by NumPy users) as file names.
 * Throws and returns false otherwise. */
static bool npz_name_ok(const char *fn, const char *path, const char *name, size_t len) {
    const char *why = NULL;
    if (len == 0) why = "is empty";
    else if (len > NPZ_MAX_NAME) why = "is longer than 1024 bytes";
    else if (name[0] == '/') why = "is an absolute path";
    for (size_t i = 0; !why && i < len; i++) {
        unsigned char c = (unsigned char)name[i];
        if (c < 0x20 || c == 0x7f) why = "holds a control character";
        else if (c == '\\') why = "holds a backslash";
    }
    for (size_t i = 0; !why && i < len;) { /* path components */
        size_t j = i;
        while (j < len && name[j] != '/') j++;
        if ((j - i == 1 && name[i] == '.') || (j - i == 2 && name[i] == '.' && name[i + 1] == '.'))
            why = "has a \".\" or \"..\" path component";
        else if (j == i) why = "has an empty path component";
        i = j + 1;
    }
    if (!why) return true;
    php_gtc_throw(RT_EINVAL, "%s: %s: the name \"%.*s\" %s", fn, path, (int)(len > 200 ? 200 : len), name, why);
    return false;
}

/* The backend tensor behind a Cuda\CudaArray or Cuda\HostArray with data; NULL after throwing. */
static RtTensor *npz_value(const char *fn, zval *v, const char *name) {
    ZVAL_DEREF(v);
    if (Z_TYPE_P(v) != IS_OBJECT || (!instanceof_function(Z_OBJCE_P(v), php_gtc_ce_CudaArray) &&
                                      !instanceof_function(Z_OBJCE_P(v), php_gtc_ce_HostArray))) {
        php_gtc_throw(RT_EINVAL, "%s: \"%s\" must be a Cuda\\CudaArray or Cuda\\HostArray, %s given", fn, name,
                      Z_TYPE_P(v) == IS_OBJECT ? ZSTR_VAL(Z_OBJCE_P(v)->name) : zend_zval_type_name(v));
        return NULL;
    }
    RtTensor *t = Z_GTC_ARRAY_P(v)->t;
    if (!t) {
        php_gtc_throw(RT_EINVAL, "%s: \"%s\" is an uninitialized array", fn, name);
        return NULL;
    }
    return php_gtc_data(t);
}

/* Copies the finished in-memory archive into the file chunk by chunk; false after throwing. */
static bool npz_write_source(const char *fn, const char *path, zip_source_t *src) {
    if (zip_source_open(src) < 0) {
        php_gtc_throw(RT_ERUNTIME, "%s: %s: %s", fn, path, zip_error_strerror(zip_source_error(src)));
        return false;
    }
    int fd = php_gtc_open_regular_file(fn, path, true, NULL);
    bool ok = fd >= 0, failed_io = false;
    char *chunk = ok ? emalloc(NPZ_CHUNK) : NULL;
    while (ok) {
        zip_int64_t r = zip_source_read(src, chunk, NPZ_CHUNK);
        if (r < 0) {
            php_gtc_throw(RT_ERUNTIME, "%s: %s: %s", fn, path, zip_error_strerror(zip_source_error(src)));
            ok = false;
        } else if (r == 0) {
            break;
        } else if (!php_gtc_write_full(fd, chunk, (size_t)r)) {
            ok = false, failed_io = true;
        }
    }
    if (chunk) efree(chunk);
    if (fd >= 0 && close(fd) != 0 && ok) ok = false, failed_io = true;
    if (failed_io) php_gtc_throw(RT_ERUNTIME, "%s: %s: write failed: %s", fn, path, strerror(errno));
    zip_source_close(src);
    return ok;
}

/* Builds the whole archive in memory first (each member an .npy image, stored, or deflated when
 * compress), so that a failure leaves an existing file untouched, then writes it. An empty
 * list is written as the 22-byte empty zip that np.savez() writes. */
bool php_gtc_npz_save(const char *fn, const char *path, zend_string *const *names, RtTensor *const *ts, uint32_t n,
                      bool compress) {
    for (uint32_t i = 0; i < n; i++)
        if (!php_gtc_no_nul(names[i], "tensor name") || !npz_name_ok(fn, path, ZSTR_VAL(names[i]), ZSTR_LEN(names[i])))
            return false;
    if (n == 0) {
        static const char empty[22] = {'P', 'K', 5, 6};
        int fd = php_gtc_open_regular_file(fn, path, true, NULL);
        if (fd < 0) return false;
        bool ok = php_gtc_write_full(fd, empty, sizeof empty);
        if (close(fd) != 0) ok = false;
        if (!ok) php_gtc_throw(RT_ERUNTIME, "%s: %s: write failed: %s", fn, path, strerror(errno));
        return ok;
    }
    zip_error_t ze;
    zip_error_init(&ze);
    zip_source_t *src = zip_source_buffer_create(NULL, 0, 0, &ze);
    zip_t *za = src ? zip_open_from_source(src, ZIP_TRUNCATE, &ze) : NULL;
    if (!za) {
        php_gtc_throw(RT_ERUNTIME, "%s: %s: cannot create the archive: %s", fn, path, zip_error_strerror(&ze));
        zip_error_fini(&ze);
        if (src) zip_source_free(src);
        return false;
    }
    zip_error_fini(&ze);
    zip_source_keep(src); /* the archive's bytes outlive zip_close */
    bool ok = true;
    for (uint32_t i = 0; ok && i < n; i++) {
        char *buf = NULL;
        size_t len = 0;
        if (rt_npy_write(ts[i], &buf, &len) != 0) {
            php_gtc_throw(rt_status(), "%s: %s: \"%s\": %s", fn, path, ZSTR_VAL(names[i]), rt_message());
            rt_clear_error();
            ok = false;
            break;
        }
        zip_source_t *m = zip_source_buffer(za, buf, len, 1); /* frees buf */
        if (!m) free(buf);
        zend_string *member = zend_string_concat2(ZSTR_VAL(names[i]), ZSTR_LEN(names[i]), ".npy", 4);
        zip_int64_t idx = m ? zip_file_add(za, ZSTR_VAL(member), m, ZIP_FL_ENC_UTF_8) : -1;
        zend_string_release(member);
        if (idx < 0 && m) zip_source_free(m);
        if (idx < 0 || zip_set_file_compression(za, (zip_uint64_t)idx, compress ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 0) < 0) {
            php_gtc_throw(RT_ERUNTIME, "%s: %s: \"%s\": %s", fn, path, ZSTR_VAL(names[i]), zip_strerror(za));
            ok = false;
        }
    }
    if (ok && zip_close(za) < 0) {
        php_gtc_throw(RT_ERUNTIME, "%s: %s: cannot write the archive: %s", fn, path, zip_strerror(za));
        ok = false;
    }
    if (!ok) zip_discard(za);
    else ok = npz_write_source(fn, path, src);
    zip_source_free(src);
    return ok;
}

/* Reads up to n bytes of a member (zip_fread may return less than asked); the count, or -1. */
static zip_int64_t npz_read(zip_file_t *zf, char *buf, size_t n) {
    size_t got = 0;
    while (got < n) {
        zip_int64_t r = zip_fread(zf, buf + got, n - got);
        if (r < 0) return -1;
        if (r == 0) break;
        got += (size_t)r;
    }
    return (zip_int64_t)got;
}

/* One member into a tensor on b: its .npy header is read and checked first, then exactly the
 * bytes the header's shape needs, the buffer growing only as they arrive (a zip bomb stops at
 * its header's size; a lying header at the member's real size). NULL after throwing. */
static RtTensor *npz_member(const char *fn, const char *path, zip_t *za, zip_uint64_t i, const char *name,
                            const RtBackend *b) {
    zip_file_t *zf = zip_fopen_index(za, i, 0);
    if (!zf) {
        php_gtc_throw(RT_EINVAL, "%s: %s: member \"%s\": %s", fn, path, name, zip_strerror(za));
        return NULL;
    }
    size_t cap = RT_NPY_HEADER_MAX, total = 0;
    char *buf = malloc(cap); /* not emalloc: a large tensor must not hit PHP's memory_limit fatally */
    const char *why = NULL;
    RtTensor *t = NULL;
    zip_int64_t got = buf ? npz_read(zf, buf, cap) : -1;
    RtNpyHeader h;
    if (!buf) {
        why = "out of host memory";
    } else if (got < 0) {
        why = zip_error_strerror(zip_file_get_error(zf));
    } else if (rt_npy_header(buf, (size_t)got, &h) != 0) {
        why = rt_message();
    } else {
        total = h.data_offset + h.data_bytes;
        size_t have = (size_t)got;
        while (!why && have < total) {
            size_t want = total - have < NPZ_CHUNK ? total - have : NPZ_CHUNK;
            if (have + want > cap) {
                cap = cap * 2 > have + want ? cap * 2 : have + want;
                if (cap > total) cap = total;
                char *more = realloc(buf, cap);
                if (!more) {
                    why = "out of host memory";
                    break;
                }
                buf = more;
            }
            zip_int64_t r = npz_read(zf, buf + have, want);
            if (r < 0) why = zip_error_strerror(zip_file_get_error(zf));
            else if ((size_t)r < want) why = "the member is shorter than its .npy header says";
            else have += (size_t)r;
        }
        char one;
        /* at the member's end, one more read makes libzip check its CRC */
        if (!why && npz_read(zf, &one, 1) < 0) why = zip_error_strerror(zip_file_get_error(zf));
        if (!why && !(t = rt_npy_read(b, buf, total))) why = rt_message();
    }
    if (why) php_gtc_throw(RT_EINVAL, "%s: %s: member \"%s\": %s", fn, path, name, why);
    rt_clear_error();
    zip_fclose(zf);
    free(buf);
    return t;
}

bool php_gtc_npz_load(const char *fn, const char *path, zval *rv) {
    const RtBackend *b = php_gtc_backend();
    if (!b) return false;
    size_t size;
    int fd = php_gtc_open_regular_file(fn, path, false, &size);
    if (fd < 0) return false;
    int zerr = 0;
    zip_t *za = size >= 22 ? zip_fdopen(fd, ZIP_CHECKCONS, &zerr) : NULL; /* 22: the smallest zip */
    if (!za) {
        close(fd);
        if (zerr == ZIP_ER_EXISTS) { /* libzip's word for two central directory entries of one name */
            php_gtc_throw(RT_EINVAL, "%s: %s has two members of the same name", fn, path);
            return false;
        }
        zip_error_t ze;
        zip_error_init_with_code(&ze, size >= 22 ? zerr : ZIP_ER_NOZIP);
        php_gtc_throw(RT_EINVAL, "%s: %s is not a readable .npz (zip) archive: %s", fn, path, zip_error_strerror(&ze));
        zip_error_fini(&ze);
        return false;
    }
    zip_int64_t n = zip_get_num_entries(za, 0);
    if (n < 0 || n > NPZ_MAX_MEMBERS) {
        php_gtc_throw(RT_EINVAL, "%s: %s has %lld members; at most %d are read", fn, path, (long long)n, NPZ_MAX_MEMBERS);
        zip_discard(za);
        return false;
    }
    array_init_size(rv, (uint32_t)n);
    bool ok = true;
    for (zip_int64_t i = 0; ok && i < n; i++) {
        const char *name = zip_get_name(za, (zip_uint64_t)i, ZIP_FL_ENC_RAW);
        size_t len = name ? strlen(name) : 0;
        if (!name) {
            php_gtc_throw(RT_EINVAL, "%s: %s: member %lld: %s", fn, path, (long long)i, zip_strerror(za));
            ok = false;
        } else if (len < 5 || strcmp(name + len - 4, ".npy") != 0) {
            php_gtc_throw(RT_EINVAL, "%s: %s: member \"%.*s\" is not an .npy file (np.savez names each NAME.npy)", fn,
                          path, (int)(len > 200 ? 200 : len), name);
            ok = false;
        } else if (!npz_name_ok(fn, path, name, len - 4)) {
            ok = false;
        } else if (zend_hash_str_exists(Z_ARRVAL_P(rv), name, len - 4)) {
            php_gtc_throw(RT_EINVAL, "%s: %s: member \"%s\" appears twice", fn, path, name);
            ok = false;
        } else {
            RtTensor *t = npz_member(fn, path, za, (zip_uint64_t)i, name, b);
            zval v;
            if (!t) ok = false;
            else {
                ZVAL_OBJ(&v, php_gtc_array_wrap(t));
                zend_hash_str_add_new(Z_ARRVAL_P(rv), name, len - 4, &v);
            }
        }
    }
    zip_discard(za); /* read-only: nothing to write back; closes the file */
    if (!ok) {
        zval_ptr_dtor(rv);
        ZVAL_UNDEF(rv);
    }
    return ok;
}

/* ---- the PHP methods --------------------------------------------------------------------------- */

/* saveNpz($path, $tensors, $compress = false): name => Cuda\CudaArray|Cuda\HostArray, in the
 * array's order; integer keys are written as their decimal names. */
ZEND_METHOD(Cuda_CudaArray, saveNpz) {
    zend_string *path;
    HashTable *tensors;
    bool compress = false;
    ZEND_PARSE_PARAMETERS_START(2, 3)
        Z_PARAM_PATH_STR(path)
        Z_PARAM_ARRAY_HT(tensors)
        Z_PARAM_OPTIONAL
        Z_PARAM_BOOL(compress)
    ZEND_PARSE_PARAMETERS_END();
    uint32_t n = zend_hash_num_elements(tensors), k = 0;
    zend_string **names = safe_emalloc(n ? n : 1, sizeof *names, 0);
    RtTensor **ts = safe_emalloc(n ? n : 1, sizeof *ts, 0);
    bool ok = true;
    zend_ulong idx;
    zend_string *key;
    zval *v;
    ZEND_HASH_FOREACH_KEY_VAL(tensors, idx, key, v) {
        names[k] = key ? zend_string_copy(key) : zend_ulong_to_str(idx);
        ts[k] = npz_value("saveNpz", v, ZSTR_VAL(names[k]));
        k++;
        if (!ts[k - 1]) {
            ok = false;
            break;
        }
    } ZEND_HASH_FOREACH_END();
    if (ok) ok = php_gtc_npz_save("saveNpz", ZSTR_VAL(path), names, ts, n, compress);
    for (uint32_t i = 0; i < k; i++) zend_string_release(names[i]);
    efree(names);
    efree(ts);
    if (!ok) RETURN_THROWS();
}

/* loadNpz($path): name => Cuda\CudaArray on the current device, in the archive's order. */
ZEND_METHOD(Cuda_CudaArray, loadNpz) {
    zend_string *path;
    ZEND_PARSE_PARAMETERS_START(1, 1)
        Z_PARAM_PATH_STR(path)
    ZEND_PARSE_PARAMETERS_END();
    if (!php_gtc_npz_load("loadNpz", ZSTR_VAL(path), return_value)) RETURN_THROWS();
}
