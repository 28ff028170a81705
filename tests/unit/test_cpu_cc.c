/* tests/unit/test_cpu_cc.c: the C compiler for CPU kernels (runtime/cpu/cpu_cc.c): GCC-only flags
 * go to GCC alone (clang rejects -fno-thread-jumps), told apart by `cc --version`; a compiler
 * that cannot be run or says nothing gets the common flags; the answer follows a change of cc;
 * rt_cpu_cc_run reports exit statuses and 127 for a missing program. Fake compilers are shell
 * scripts in a temporary directory, so the test needs neither GCC nor clang. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../runtime/core/plan_abi.h"
#include "../../runtime/cpu/cpu_cc.h"

#define TEST(name) static void name(void **state)

static char g_tmp[256];

static int setup(void **state) {
    (void)state;
    const char *t = getenv("TMPDIR");
    snprintf(g_tmp, sizeof g_tmp, "%s/gtc-cc-test-XXXXXX", t && *t ? t : "/tmp");
    return mkdtemp(g_tmp) ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_tmp);
    return system(cmd) == 0 ? 0 : -1;
}

/* A fake compiler at g_tmp/name whose --version prints `text` and exits with `rc`. */
static const char *fake(const char *name, const char *text, int rc) {
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", g_tmp, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "#!/bin/sh\nprintf '%%s\\n' '%s'\nexit %d\n", text, rc);
    fclose(f);
    assert_int_equal(chmod(path, 0755), 0);
    return path;
}

static bool has_gcc_flags(const char *flags) {
    return strstr(flags, RT_CPU_KERNEL_CFLAGS_GCC) != NULL;
}

TEST(gcc_gets_its_flags) {
    (void)state;
    const char *cc = fake("gcc", "gcc (Ubuntu 13.3.0-6ubuntu2~24.04.1) 13.3.0\nCopyright (C) 2023 Free Software Foundation, Inc.", 0);
    const char *f = rt_cpu_cc_flags(cc);
    assert_true(has_gcc_flags(f));
    assert_memory_equal(f, RT_CPU_KERNEL_CFLAGS, strlen(RT_CPU_KERNEL_CFLAGS)); /* the common ones first */
}

TEST(clang_does_not) {
    (void)state;
    /* clang's own text mentions no FSF; one that did would still be clang */
    const char *cc = fake("clang", "Debian clang version 16.0.6 (15~deb12u1)\nTarget: x86_64-pc-linux-gnu\nFree Software Foundation", 0);
    const char *f = rt_cpu_cc_flags(cc);
    assert_false(has_gcc_flags(f));
    assert_string_equal(f, RT_CPU_KERNEL_CFLAGS);
}

TEST(answer_follows_the_compiler) {
    (void)state;
    char gcc[512], clang[512];
    snprintf(gcc, sizeof gcc, "%s", fake("cc1", "cc (Debian 12.2.0-14) 12.2.0\nCopyright (C) 2022 Free Software Foundation, Inc.", 0));
    snprintf(clang, sizeof clang, "%s", fake("cc2", "clang version 14.0.6", 0));
    assert_true(has_gcc_flags(rt_cpu_cc_flags(gcc)));
    assert_false(has_gcc_flags(rt_cpu_cc_flags(clang)));
    assert_true(has_gcc_flags(rt_cpu_cc_flags(gcc)));
}

TEST(unknown_or_broken_compilers_get_the_common_flags) {
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/no-such-cc", g_tmp);
    assert_string_equal(rt_cpu_cc_flags(path), RT_CPU_KERNEL_CFLAGS);
    assert_string_equal(rt_cpu_cc_flags(fake("tcc", "tcc version 0.9.27", 0)), RT_CPU_KERNEL_CFLAGS);
    /* GCC's text but a failing --version: not trusted */
    assert_string_equal(rt_cpu_cc_flags(fake("bad", "gcc 12 Free Software Foundation", 3)), RT_CPU_KERNEL_CFLAGS);
    assert_string_equal(rt_cpu_cc_flags(fake("empty", "", 0)), RT_CPU_KERNEL_CFLAGS);
}

TEST(run_reports_status_and_output) {
    (void)state;
    char log[512];
    snprintf(log, sizeof log, "%s/log", g_tmp);
    char *ok[] = {(char *)fake("say", "hello from the tool", 0), "--version", NULL};
    assert_int_equal(rt_cpu_cc_run(ok, log), 0);
    FILE *f = fopen(log, "r");
    char buf[64] = {0};
    assert_non_null(f);
    assert_non_null(fgets(buf, sizeof buf, f));
    fclose(f);
    assert_string_equal(buf, "hello from the tool\n");
    char *fails[] = {(char *)fake("fail", "x", 7), NULL};
    assert_int_equal(rt_cpu_cc_run(fails, log), 7);
    char missing[512];
    snprintf(missing, sizeof missing, "%s/missing", g_tmp);
    char *none[] = {missing, NULL};
    assert_int_equal(rt_cpu_cc_run(none, log), 127);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gcc_gets_its_flags),
        cmocka_unit_test(clang_does_not),
        cmocka_unit_test(answer_follows_the_compiler),
        cmocka_unit_test(unknown_or_broken_compilers_get_the_common_flags),
        cmocka_unit_test(run_reports_status_and_output),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
