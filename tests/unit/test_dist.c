/* tests/unit/test_dist.c: runtime/core/dist.c without a collective library: the sharding rule
 * across worlds of several ranks (every index seen, the same count on every rank, the padding
 * wrapping to the start, the same permutation on every rank), the launcher's environment and
 * its errors, a world over 1 refused on the CPU backend, and the rendezvous through
 * GTC_DIST_DIR (rank 0's id published, read by another process, a stale or short file, the
 * wait's timeout). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../runtime/core/dist.h"

#define TEST(name) static void name(void **state)

static void clear_env(void) {
    const char *vars[] = {"RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "GTC_DIST_DIR", "GTC_DIST_TIMEOUT"};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) unsetenv(vars[i]);
}

/* Every (n, world): ceil(n / world) indices per rank, together every index of 0 .. n-1, the
 * extra ones (the padding) the permuted list again from its start. */
TEST(rt_dist_shard__worlds_1_to_5__cover_every_index_equal_counts) {
    (void)state;
    for (int world = 1; world <= 5; world++)
        for (int64_t n = 0; n <= 23; n++) {
            int64_t per = (n + world - 1) / world, *perm = rt_permutation_host(n, 7 + 2);
            int *seen = calloc((size_t)n + 1, sizeof *seen);
            assert_non_null(perm);
            for (int r = 0; r < world; r++) {
                int64_t *idx, count;
                assert_int_equal(rt_dist_shard(n, 2, true, 7, r, world, &idx, &count), 0);
                assert_int_equal(count, per);
                for (int64_t k = 0; k < count; k++) {
                    int64_t pos = r + k * world; /* position in the epoch's list, padded */
                    assert_int_equal(idx[k], perm[pos % n]);
                    seen[idx[k]]++;
                }
                free(idx);
            }
            int64_t total = 0;
            for (int64_t i = 0; i < n; i++) assert_true(seen[i] >= 1), total += seen[i];
            assert_int_equal(total, per * world);
            free(seen);
            free(perm);
        }
}

TEST(rt_dist_shard__no_shuffle__strided_order_with_wrap) {
    (void)state;
    int64_t *idx, count;
    /* n = 10, world = 4: 3 each; rank 2 gets 2, 6, 10 -> 0 (wrapped) */
    assert_int_equal(rt_dist_shard(10, 5, false, 0, 2, 4, &idx, &count), 0);
    assert_int_equal(count, 3);
    assert_int_equal(idx[0], 2);
    assert_int_equal(idx[1], 6);
    assert_int_equal(idx[2], 0);
    free(idx);
    /* n smaller than the world: every rank still gets one */
    assert_int_equal(rt_dist_shard(2, 0, false, 0, 4, 5, &idx, &count), 0);
    assert_int_equal(count, 1);
    assert_int_equal(idx[0], 0);
    free(idx);
}

TEST(rt_dist_shard__epochs__differ_and_repeat) {
    (void)state;
    int64_t *a, *b, *c, na, nb, nc;
    assert_int_equal(rt_dist_shard(50, 0, true, 3, 1, 2, &a, &na), 0);
    assert_int_equal(rt_dist_shard(50, 1, true, 3, 1, 2, &b, &nb), 0);
    assert_int_equal(rt_dist_shard(50, 0, true, 3, 1, 2, &c, &nc), 0);
    assert_memory_not_equal(a, b, sizeof *a * (size_t)na);
    assert_memory_equal(a, c, sizeof *a * (size_t)na);
    free(a), free(b), free(c);
}

TEST(rt_dist_shard__bad_arguments__refused) {
    (void)state;
    int64_t *idx, count;
    assert_int_equal(rt_dist_shard(-1, 0, true, 0, 0, 1, &idx, &count), -1);
    assert_string_equal(rt_message(), "shard: n must be from 0 to 2^40, got -1");
    assert_int_equal(rt_dist_shard(4, -2, true, 0, 0, 1, &idx, &count), -1);
    assert_int_equal(rt_dist_shard(4, 0, true, 0, 2, 2, &idx, &count), -1);
    assert_string_equal(rt_message(), "shard: rank 2 is not a rank of a world of 2");
    assert_null(idx);
}

TEST(rt_dist_env__torchrun_variables__read) {
    (void)state;
    clear_env();
    RtDistEnv e;
    assert_int_equal(rt_dist_env(&e), 0);
    assert_int_equal(e.rank, 0);
    assert_int_equal(e.world, 1);
    assert_int_equal(e.local_rank, 0);
    setenv("WORLD_SIZE", "8", 1), setenv("RANK", "5", 1), setenv("LOCAL_WORLD_SIZE", "4", 1);
    setenv("GTC_DIST_DIR", "/tmp/x", 1), setenv("GTC_DIST_TIMEOUT", "2.5", 1);
    assert_int_equal(rt_dist_env(&e), 0);
    assert_int_equal(e.local_rank, 1); /* RANK % LOCAL_WORLD_SIZE when LOCAL_RANK is absent */
    assert_string_equal(e.dir, "/tmp/x");
    assert_true(e.timeout_s == 2.5);
    setenv("LOCAL_RANK", "3", 1);
    assert_int_equal(rt_dist_env(&e), 0);
    assert_int_equal(e.local_rank, 3);
    clear_env();
}

TEST(rt_dist_env__bad_values__named) {
    (void)state;
    static const char *const cases[][3] = {
        {"RANK", "1x", "RANK=\"1x\" is not a whole number from 0 to 65536"},
        {"RANK", "", NULL}, /* empty: absent */
        {"WORLD_SIZE", "-2", "WORLD_SIZE=\"-2\" is not a whole number from 1 to 65536"},
        {"WORLD_SIZE", "+2", "WORLD_SIZE=\"+2\" is not a whole number from 1 to 65536"},
        {"RANK", "1", "RANK=1 is not below WORLD_SIZE=1 (ranks count from 0)"},
        {"GTC_DIST_TIMEOUT", "nan", "GTC_DIST_TIMEOUT=\"nan\" is not a number of seconds from 0 to 86400 (more than 0)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        clear_env();
        setenv(cases[i][0], cases[i][1], 1);
        RtDistEnv e;
        assert_int_equal(rt_dist_env(&e), cases[i][2] ? -1 : 0);
        if (cases[i][2]) assert_string_equal(rt_message(), cases[i][2]);
    }
    clear_env();
}

TEST(rt_dist_init__cpu_world_2__refused_world_1_identity) {
    (void)state;
    clear_env();
    setenv("WORLD_SIZE", "2", 1), setenv("RANK", "1", 1);
    assert_int_equal(rt_dist_init(&rt_cpu_backend), -1);
    assert_int_equal(rt_status(), RT_EUNSUPPORTED);
    assert_false(rt_dist_initialized());
    clear_env();
    assert_int_equal(rt_dist_init(&rt_cpu_backend), 0);
    assert_null(rt_dist_library());
    int64_t shape[1] = {3};
    float v[3] = {1, 2, 3}, w[3];
    RtTensor *t = rt_from_host(&rt_cpu_backend, DT_FLOAT32, 1, shape, v);
    assert_int_equal(rt_dist_all_reduce(t, RT_DIST_MEAN), 0);
    assert_int_equal(rt_dist_plan_all_reduce(&rt_cpu_backend, rt_data(t), 3, DT_FLOAT32, NULL), 0);
    assert_int_equal(rt_to_host(t, w), 0);
    assert_memory_equal(v, w, sizeof v);
    rt_release(t);
    rt_dist_destroy();
    assert_false(rt_dist_initialized());
    assert_int_equal(rt_dist_world(), 1);
}

static char g_dir[256];

static int make_dir(void **state) {
    (void)state;
    const char *t = getenv("TMPDIR");
    snprintf(g_dir, sizeof g_dir, "%s/gtc-dist-XXXXXX", t && *t ? t : "/tmp");
    return mkdtemp(g_dir) ? 0 : -1;
}

static int remove_dir(void **state) {
    (void)state;
    char p[300];
    snprintf(p, sizeof p, "%s/nccl-id", g_dir);
    unlink(p);
    return rmdir(g_dir);
}

/* Rank 0 in a child process publishes after a pause; this process waits for it. */
TEST(rt_dist_wait_id__published_by_another_process__read) {
    (void)state;
    unsigned char id[128], got[128];
    for (int i = 0; i < 128; i++) id[i] = (unsigned char)(i * 7 + 3);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        usleep(50000);
        _exit(rt_dist_publish_id(g_dir, id, sizeof id) ? 1 : 0);
    }
    assert_int_equal(rt_dist_wait_id(g_dir, 1, 60, got, sizeof got), 0);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    assert_memory_equal(id, got, sizeof id);
    /* only the id is left behind: the temporary file was renamed */
    char p[300];
    snprintf(p, sizeof p, "%s/.nccl-id.%ld", g_dir, (long)pid);
    assert_int_equal(access(p, F_OK), -1);
}

TEST(rt_dist_wait_id__nothing_published__times_out) {
    (void)state;
    unsigned char got[128];
    char want[512];
    assert_int_equal(rt_dist_wait_id(g_dir, 3, 0.05, got, sizeof got), -1);
    snprintf(want, sizeof want, "rank 3: rank 0's NCCL id did not appear in %s/nccl-id within 0.05 s (is rank 0 running? "
             "GTC_DIST_TIMEOUT sets the wait)", g_dir);
    assert_string_equal(rt_message(), want);
}

TEST(rt_dist_wait_id__file_of_another_size__refused) {
    (void)state;
    unsigned char got[128], small[16] = {0};
    char want[512];
    assert_int_equal(rt_dist_publish_id(g_dir, small, sizeof small), 0);
    assert_int_equal(rt_dist_wait_id(g_dir, 1, 1, got, sizeof got), -1);
    snprintf(want, sizeof want, "rank 1: %s/nccl-id is not an NCCL id of 128 bytes (a file left by another run? "
             "GTC_DIST_DIR must be fresh)", g_dir);
    assert_string_equal(rt_message(), want);
    unsigned char big[129] = {0};
    assert_int_equal(rt_dist_publish_id(g_dir, big, sizeof big), 0); /* replaces it */
    assert_int_equal(rt_dist_wait_id(g_dir, 1, 1, got, sizeof got), -1);
}

TEST(rt_dist_publish_id__missing_folder__refused) {
    (void)state;
    unsigned char id[128] = {0};
    assert_int_equal(rt_dist_publish_id("/nonexistent/gtc-dist", id, sizeof id), -1);
    assert_string_equal(rt_message(), "rank 0 cannot write the NCCL id into GTC_DIST_DIR=/nonexistent/gtc-dist: "
                        "No such file or directory");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rt_dist_shard__worlds_1_to_5__cover_every_index_equal_counts),
        cmocka_unit_test(rt_dist_shard__no_shuffle__strided_order_with_wrap),
        cmocka_unit_test(rt_dist_shard__epochs__differ_and_repeat),
        cmocka_unit_test(rt_dist_shard__bad_arguments__refused),
        cmocka_unit_test(rt_dist_env__torchrun_variables__read),
        cmocka_unit_test(rt_dist_env__bad_values__named),
        cmocka_unit_test(rt_dist_init__cpu_world_2__refused_world_1_identity),
        cmocka_unit_test_setup_teardown(rt_dist_wait_id__published_by_another_process__read, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(rt_dist_wait_id__nothing_published__times_out, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(rt_dist_wait_id__file_of_another_size__refused, make_dir, remove_dir),
        cmocka_unit_test(rt_dist_publish_id__missing_folder__refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
