/* tests/unit/test_kcache.c: the NVRTC kernel cache's CPU half (runtime/core/kcache.c): FNV-1a
 * against published vectors, cache keys that change with every field, the cache directory
 * ($GTC_CACHE_DIR, $HOME/.cache/gtc, created 0700; none when unusable), and cache files that
 * round-trip and are rejected — never crashed on — when corrupt in any way. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../runtime/core/kcache.h"

#define TEST(name) static void name(void **state)

static char g_tmp[256];

static int setup(void **state) {
    (void)state;
    const char *t = getenv("TMPDIR");
    snprintf(g_tmp, sizeof g_tmp, "%s/gtc-kcache-XXXXXX", t && *t ? t : "/tmp");
    return mkdtemp(g_tmp) ? 0 : -1;
}

static void rm_rf(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) {
        unlink(dir);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char p[1024];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) rm_rf(p);
        else unlink(p);
    }
    closedir(d);
    rmdir(dir);
}

static int teardown(void **state) {
    (void)state;
    rm_rf(g_tmp);
    unsetenv("GTC_CACHE_DIR");
    return 0;
}

static char *tmp_path(const char *name) {
    static char p[512];
    snprintf(p, sizeof p, "%s/%s", g_tmp, name);
    return p;
}

static int count_entries(const char *dir) {
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    if (d) closedir(d);
    return n;
}

static void write_bytes(const char *path, const void *data, size_t n) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    fclose(f);
}

static size_t read_bytes(const char *path, unsigned char *buf, size_t cap) {
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

/* ---- hashing ---------------------------------------------------------------------------------- */

TEST(fnv1a64__published_vectors__match) {
    (void)state;
    assert_true(rt_fnv1a64(RT_FNV1A64_INIT, "", 0) == 0xcbf29ce484222325ULL);
    assert_true(rt_fnv1a64(RT_FNV1A64_INIT, "a", 1) == 0xaf63dc4c8601ec8cULL);
    assert_true(rt_fnv1a64(RT_FNV1A64_INIT, "foobar", 6) == 0x85944171f73967e8ULL);
    /* continuing a hash equals hashing the concatenation */
    assert_true(rt_fnv1a64(rt_fnv1a64(RT_FNV1A64_INIT, "foo", 3), "bar", 3) ==
                rt_fnv1a64(RT_FNV1A64_INIT, "foobar", 6));
}

TEST(kcache_key__each_field__changes_key) {
    (void)state;
    const char *src = "extern \"C\" __global__ void gtc_k0() {}";
    uint64_t k = rt_kcache_key(src, "sm_90", "cudart 13000 nvrtc 13.0", "0.1.0");
    assert_true(k == rt_kcache_key(src, "sm_90", "cudart 13000 nvrtc 13.0", "0.1.0"));
    assert_true(k != rt_kcache_key("extern \"C\" __global__ void gtc_k1() {}", "sm_90", "cudart 13000 nvrtc 13.0", "0.1.0"));
    assert_true(k != rt_kcache_key(src, "sm_80", "cudart 13000 nvrtc 13.0", "0.1.0"));
    assert_true(k != rt_kcache_key(src, "compute_90", "cudart 13000 nvrtc 13.0", "0.1.0"));
    assert_true(k != rt_kcache_key(src, "sm_90", "cudart 12080 nvrtc 12.8", "0.1.0"));
    assert_true(k != rt_kcache_key(src, "sm_90", "cudart 13000 nvrtc 13.0", "0.1.1"));
    /* field boundaries count: moving a character from one field to the next is another key */
    assert_true(rt_kcache_key("ab", "c", "d", "e") != rt_kcache_key("a", "bc", "d", "e"));
    assert_true(rt_kcache_key("", "", "", "") != rt_kcache_key(NULL, "", "", "x"));
}

TEST(kcache_path__key__sixteen_hex_digits) {
    (void)state;
    char buf[64];
    assert_int_equal(rt_kcache_path(buf, sizeof buf, "/c", 0xabcULL), 0);
    assert_string_equal(buf, "/c/0000000000000abc.kc");
    assert_int_equal(rt_kcache_path(buf, 8, "/c", 1), -1);
}

/* ---- the directory ---------------------------------------------------------------------------- */

TEST(kcache_dir__env_set__created_0700_with_parents) {
    (void)state;
    char want[512], got[512];
    snprintf(want, sizeof want, "%s/a/b/gtc", g_tmp);
    char env[520];
    snprintf(env, sizeof env, "%s//", want); /* trailing slashes are dropped */
    setenv("GTC_CACHE_DIR", env, 1);
    assert_int_equal(rt_kcache_dir(got, sizeof got), 0);
    assert_string_equal(got, want);
    struct stat st;
    assert_int_equal(stat(want, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    assert_int_equal(st.st_mode & 0777, 0700);
    /* again: it exists now, same answer */
    assert_int_equal(rt_kcache_dir(got, sizeof got), 0);
    assert_string_equal(got, want);
}

TEST(kcache_dir__home__dot_cache_gtc) {
    (void)state;
    char *home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
    setenv("HOME", g_tmp, 1);
    unsetenv("GTC_CACHE_DIR");
    char got[512], want[512];
    snprintf(want, sizeof want, "%s/.cache/gtc", g_tmp);
    assert_int_equal(rt_kcache_dir(got, sizeof got), 0);
    assert_string_equal(got, want);
    struct stat st;
    assert_int_equal(stat(want, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0700);
    /* an empty GTC_CACHE_DIR means unset */
    setenv("GTC_CACHE_DIR", "", 1);
    assert_int_equal(rt_kcache_dir(got, sizeof got), 0);
    assert_string_equal(got, want);
    if (home) setenv("HOME", home, 1), free(home);
    else unsetenv("HOME");
}

TEST(kcache_dir__no_home__none) {
    (void)state;
    char *home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
    unsetenv("GTC_CACHE_DIR");
    unsetenv("HOME");
    char got[512];
    assert_int_equal(rt_kcache_dir(got, sizeof got), -1);
    setenv("HOME", "", 1);
    assert_int_equal(rt_kcache_dir(got, sizeof got), -1);
    /* HOME is a file: nothing can be created under it (also true for root, unlike permissions) */
    write_bytes(tmp_path("file"), "x", 1);
    setenv("HOME", tmp_path("file"), 1);
    assert_int_equal(rt_kcache_dir(got, sizeof got), -1);
    if (home) setenv("HOME", home, 1), free(home);
    else unsetenv("HOME");
}

TEST(kcache_dir__shared_or_not_a_dir__none) {
    (void)state;
    char got[512];
    assert_int_equal(mkdir(tmp_path("open"), 0700), 0);
    assert_int_equal(chmod(tmp_path("open"), 0777), 0); /* world-writable: others could plant code */
    setenv("GTC_CACHE_DIR", tmp_path("open"), 1);
    assert_int_equal(rt_kcache_dir(got, sizeof got), -1);
    assert_int_equal(chmod(tmp_path("open"), 0770), 0);
    assert_int_equal(rt_kcache_dir(got, sizeof got), -1);
    assert_int_equal(chmod(tmp_path("open"), 0755), 0); /* readable by others is fine */
    assert_int_equal(rt_kcache_dir(got, sizeof got), 0);
    write_bytes(tmp_path("plain"), "x", 1);
    setenv("GTC_CACHE_DIR", tmp_path("plain"), 1);
    assert_int_equal(rt_kcache_dir(got, sizeof got), -1);
    char small[8];
    setenv("GTC_CACHE_DIR", g_tmp, 1);
    assert_int_equal(rt_kcache_dir(small, sizeof small), -1);
}

/* ---- files ------------------------------------------------------------------------------------ */

static const unsigned char payload[] = "\x7f" "ELF fake cubin \0 with a NUL inside and gtc_k0 gtc_k1";

TEST(kcache_write_read__roundtrip__same_bytes_and_no_temp_left) {
    (void)state;
    char *p = tmp_path("0000000000000001.kc");
    assert_int_equal(rt_kcache_write(p, 1, payload, sizeof payload), 0);
    size_t n = 0;
    unsigned char *got = rt_kcache_read(p, 1, &n);
    assert_non_null(got);
    assert_int_equal(n, sizeof payload);
    assert_memory_equal(got, payload, sizeof payload);
    assert_int_equal(got[n], 0); /* a NUL after the payload, for PTX */
    free(got);
    assert_int_equal(count_entries(g_tmp), 1);
    struct stat st;
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(st.st_size, RT_KCACHE_HEADER + (long)sizeof payload);
    assert_int_equal(st.st_mode & 077, 0);
    /* overwriting replaces the entry atomically */
    assert_int_equal(rt_kcache_write(p, 1, "new", 3), 0);
    got = rt_kcache_read(p, 1, &n);
    assert_non_null(got);
    assert_int_equal(n, 3);
    assert_memory_equal(got, "new", 3);
    free(got);
    assert_int_equal(count_entries(g_tmp), 1);
    /* an empty payload is a valid entry */
    assert_int_equal(rt_kcache_write(p, 1, "", 0), 0);
    got = rt_kcache_read(p, 1, &n);
    assert_non_null(got);
    assert_int_equal(n, 0);
    free(got);
}

TEST(kcache_read__missing_or_wrong_key__null) {
    (void)state;
    size_t n = 99;
    assert_null(rt_kcache_read(tmp_path("nothing.kc"), 1, &n));
    assert_int_equal(n, 0);
    char *p = tmp_path("k.kc");
    assert_int_equal(rt_kcache_write(p, 7, payload, sizeof payload), 0);
    assert_null(rt_kcache_read(p, 8, &n));
    assert_null(rt_kcache_read(g_tmp, 7, &n)); /* a directory */
}

/* Writes a valid entry, applies `edit` to its bytes, and expects the reader to reject it. */
static void expect_rejected(size_t keep, int flip_at, const char *append) {
    char *p = tmp_path("c.kc");
    assert_int_equal(rt_kcache_write(p, 42, payload, sizeof payload), 0);
    unsigned char buf[512];
    size_t n = read_bytes(p, buf, sizeof buf);
    assert_int_equal(n, RT_KCACHE_HEADER + sizeof payload);
    if (keep < n) n = keep;
    if (flip_at >= 0) buf[flip_at] ^= 0x40;
    if (append) {
        memcpy(buf + n, append, strlen(append));
        n += strlen(append);
    }
    write_bytes(p, buf, n);
    size_t len = 99;
    void *got = rt_kcache_read(p, 42, &len);
    if (got) fail_msg("accepted a corrupt entry (keep %zu, flip %d)", keep, flip_at);
    assert_int_equal(len, 0);
}

TEST(kcache_read__corrupt__null) {
    (void)state;
    const size_t all = (size_t)-1;
    expect_rejected(0, -1, NULL);                      /* empty */
    expect_rejected(5, -1, NULL);                      /* shorter than the magic */
    expect_rejected(RT_KCACHE_HEADER - 1, -1, NULL);   /* a partial header */
    expect_rejected(RT_KCACHE_HEADER, -1, NULL);       /* header only */
    expect_rejected(RT_KCACHE_HEADER + 10, -1, NULL);  /* truncated payload */
    expect_rejected(all, 0, NULL);                     /* magic */
    expect_rejected(all, 7, NULL);                     /* magic's version digit */
    expect_rejected(all, 8, NULL);                     /* key */
    expect_rejected(all, 16, NULL);                    /* length */
    expect_rejected(all, 23, NULL);                    /* length's top byte (a huge length) */
    expect_rejected(all, 24, NULL);                    /* checksum */
    expect_rejected(all, RT_KCACHE_HEADER, NULL);      /* first payload byte */
    expect_rejected(all, RT_KCACHE_HEADER + (int)sizeof payload - 1, NULL); /* last payload byte */
    expect_rejected(all, -1, "trailing");              /* bytes after the payload */
    /* garbage of exactly an entry's size */
    unsigned char junk[RT_KCACHE_HEADER + sizeof payload];
    for (size_t i = 0; i < sizeof junk; i++) junk[i] = (unsigned char)(i * 37 + 11);
    write_bytes(tmp_path("j.kc"), junk, sizeof junk);
    size_t len;
    assert_null(rt_kcache_read(tmp_path("j.kc"), 42, &len));
}

TEST(kcache_read__symlink__null) {
    (void)state;
    char *p = tmp_path("real.kc");
    assert_int_equal(rt_kcache_write(p, 5, payload, sizeof payload), 0);
    assert_int_equal(symlink(p, tmp_path("link.kc")), 0);
    size_t len;
    assert_null(rt_kcache_read(tmp_path("link.kc"), 5, &len));
}

TEST(kcache_write__directory_missing__fails_cleanly) {
    (void)state;
    char p[512];
    snprintf(p, sizeof p, "%s/no/such/dir/x.kc", g_tmp);
    assert_int_equal(rt_kcache_write(p, 1, payload, sizeof payload), -1);
    /* the target name is a directory: rename fails, the temporary file is removed */
    assert_int_equal(mkdir(tmp_path("d.kc"), 0700), 0);
    assert_int_equal(rt_kcache_write(tmp_path("d.kc"), 1, payload, sizeof payload), -1);
    assert_int_equal(count_entries(g_tmp), 1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fnv1a64__published_vectors__match),
        cmocka_unit_test(kcache_key__each_field__changes_key),
        cmocka_unit_test(kcache_path__key__sixteen_hex_digits),
        cmocka_unit_test_setup_teardown(kcache_dir__env_set__created_0700_with_parents, setup, teardown),
        cmocka_unit_test_setup_teardown(kcache_dir__home__dot_cache_gtc, setup, teardown),
        cmocka_unit_test_setup_teardown(kcache_dir__no_home__none, setup, teardown),
        cmocka_unit_test_setup_teardown(kcache_dir__shared_or_not_a_dir__none, setup, teardown),
        cmocka_unit_test_setup_teardown(kcache_write_read__roundtrip__same_bytes_and_no_temp_left, setup, teardown),
        cmocka_unit_test_setup_teardown(kcache_read__missing_or_wrong_key__null, setup, teardown),
        cmocka_unit_test_setup_teardown(kcache_read__corrupt__null, setup, teardown),
        cmocka_unit_test_setup_teardown(kcache_read__symlink__null, setup, teardown),
        cmocka_unit_test_setup_teardown(kcache_write__directory_missing__fails_cleanly, setup, teardown),
    };
    return cmocka_run_group_tests_name("kcache", tests, NULL, NULL);
}
