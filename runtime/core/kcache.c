/* runtime/core/kcache.c: the NVRTC kernel cache's hashing, directory and file format (see
 * kcache.h). Every failure is a quiet -1/NULL: the cache is an optimisation, and the caller
 * compiles instead. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kcache.h"

uint64_t rt_fnv1a64(uint64_t h, const void *data, size_t n) {
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

static void put_u64(unsigned char *p, uint64_t v) {
    for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_u64(const unsigned char *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

static uint64_t hash_field(uint64_t h, const char *s) {
    unsigned char len[8];
    size_t n = s ? strlen(s) : 0;
    put_u64(len, (uint64_t)n);
    h = rt_fnv1a64(h, len, sizeof len);
    return rt_fnv1a64(h, s ? s : "", n);
}

uint64_t rt_kcache_key(const char *source, const char *arch, const char *toolchain, const char *gtc_version) {
    uint64_t h = hash_field(RT_FNV1A64_INIT, "gtc kernel cache 1");
    h = hash_field(h, source);
    h = hash_field(h, arch);
    h = hash_field(h, toolchain);
    return hash_field(h, gtc_version);
}

/* mkdir -p with mode 0700 for what is missing; 0 when path is a directory at the end. */
static int make_dirs(char *path) {
    struct stat st;
    for (char *p = path + 1;; p++) {
        if (*p != '/' && *p) continue;
        char c = *p;
        *p = 0;
        int rc = mkdir(path, 0700);
        int err = errno;
        *p = c;
        if (rc != 0 && err != EEXIST) return -1;
        if (!c) break;
    }
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode) ? 0 : -1;
}

int rt_kcache_dir(char *buf, size_t n) {
    const char *env = getenv("GTC_CACHE_DIR"), *home = getenv("HOME");
    int len;
    if (env && *env) len = snprintf(buf, n, "%s", env);
    else if (home && *home) len = snprintf(buf, n, "%s/.cache/gtc", home);
    else return -1;
    if (len <= 0 || (size_t)len >= n) return -1;
    while (len > 1 && buf[len - 1] == '/') buf[--len] = 0;
    if (make_dirs(buf)) return -1;
    /* Another user's, or group/world-writable: someone else could plant code for our GPU. */
    struct stat st;
    if (stat(buf, &st) != 0 || st.st_uid != geteuid() || (st.st_mode & 022)) return -1;
    return access(buf, W_OK | X_OK) == 0 ? 0 : -1;
}

int rt_kcache_path(char *buf, size_t n, const char *dir, uint64_t key) {
    int len = snprintf(buf, n, "%s/%016llx.kc", dir, (unsigned long long)key);
    return len > 0 && (size_t)len < n ? 0 : -1;
}

static int read_all(int fd, void *buf, size_t n) {
    unsigned char *p = buf;
    while (n) {
        ssize_t r = read(fd, p, n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        p += r, n -= (size_t)r;
    }
    return 0;
}

static int write_all(int fd, const void *buf, size_t n) {
    const unsigned char *p = buf;
    while (n) {
        ssize_t r = write(fd, p, n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        p += r, n -= (size_t)r;
    }
    return 0;
}

void *rt_kcache_read(const char *path, uint64_t key, size_t *len) {
    *len = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return NULL;
    struct stat st;
    unsigned char h[RT_KCACHE_HEADER];
    unsigned char *data = NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < RT_KCACHE_HEADER ||
        (uint64_t)st.st_size - RT_KCACHE_HEADER > RT_KCACHE_MAX_PAYLOAD || read_all(fd, h, sizeof h))
        goto bad;
    uint64_t n = get_u64(h + 16);
    if (memcmp(h, RT_KCACHE_MAGIC, 8) != 0 || get_u64(h + 8) != key ||
        n != (uint64_t)st.st_size - RT_KCACHE_HEADER)
        goto bad;
    if (!(data = malloc((size_t)n + 1)) || read_all(fd, data, (size_t)n) ||
        rt_fnv1a64(RT_FNV1A64_INIT, data, (size_t)n) != get_u64(h + 24))
        goto bad;
    unsigned char extra;
    if (read(fd, &extra, 1) != 0) goto bad; /* grew while we read it */
    close(fd);
    data[n] = 0;
    *len = (size_t)n;
    return data;
bad:
    free(data);
    close(fd);
    return NULL;
}

int rt_kcache_write(const char *path, uint64_t key, const void *data, size_t len) {
    if ((uint64_t)len > RT_KCACHE_MAX_PAYLOAD) return -1;
    size_t pn = strlen(path);
    char *tmp = malloc(pn + sizeof ".tmp.XXXXXX");
    if (!tmp) return -1;
    memcpy(tmp, path, pn);
    memcpy(tmp + pn, ".tmp.XXXXXX", sizeof ".tmp.XXXXXX");
    int fd = mkstemp(tmp); /* mode 0600 */
    if (fd < 0) {
        free(tmp);
        return -1;
    }
    unsigned char h[RT_KCACHE_HEADER];
    memcpy(h, RT_KCACHE_MAGIC, 8);
    put_u64(h + 8, key);
    put_u64(h + 16, (uint64_t)len);
    put_u64(h + 24, rt_fnv1a64(RT_FNV1A64_INIT, data, len));
    int ok = write_all(fd, h, sizeof h) == 0 && write_all(fd, data, len) == 0 && fsync(fd) == 0;
    ok = close(fd) == 0 && ok;
    ok = ok && rename(tmp, path) == 0;
    if (!ok) unlink(tmp);
    free(tmp);
    return ok ? 0 : -1;
}
