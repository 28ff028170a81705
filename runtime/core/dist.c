/* runtime/core/dist.c: the process's place in a data-parallel world (dist.h): the launcher's
 * environment read and checked, the one communicator of the process (a backend's collective
 * library, or none for a world of 1), whole-tensor collectives, and the dataset sharding rule.
 * It names no backend and no library: both come through RtBackend.dist. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dist.h"

static unsigned g_generation; /* bumped by every init and destroy (rt_dist_generation) */

static struct {
    bool initialized;
    RtDistEnv env;
    const RtBackend *b;
    const RtDistOps *lib; /* NULL: a world of 1 whose collectives are identities */
} g_dist = {.env = {.world = 1, .local_world = 1}};

/* A variable as a whole decimal number in [lo, hi]; absent or empty: def. */
static int env_int(const char *name, int def, int lo, int hi, int *out) {
    const char *s = getenv(name);
    if (!s || !*s) {
        *out = def;
        return 0;
    }
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    bool digits = *s >= '0' && *s <= '9';
    if (!digits || *end || errno || v < lo || v > hi)
        return rt_error(RT_ERUNTIME, "%s=\"%.40s\" is not a whole number from %d to %d", name, s, lo, hi);
    *out = (int)v;
    return 0;
}

/* At most 65536 ranks: more than any NCCL world this code will meet, small enough for int. */
#define DIST_MAX_WORLD 65536

int rt_dist_env(RtDistEnv *e) {
    memset(e, 0, sizeof *e);
    if (env_int("WORLD_SIZE", 1, 1, DIST_MAX_WORLD, &e->world) ||
        env_int("RANK", 0, 0, DIST_MAX_WORLD, &e->rank) ||
        env_int("LOCAL_WORLD_SIZE", e->world, 1, DIST_MAX_WORLD, &e->local_world) ||
        env_int("LOCAL_RANK", e->rank % e->local_world, 0, DIST_MAX_WORLD, &e->local_rank))
        return -1;
    if (e->rank >= e->world)
        return rt_error(RT_ERUNTIME, "RANK=%d is not below WORLD_SIZE=%d (ranks count from 0)", e->rank, e->world);
    if (e->local_world > e->world)
        return rt_error(RT_ERUNTIME, "LOCAL_WORLD_SIZE=%d is larger than WORLD_SIZE=%d", e->local_world, e->world);
    if (e->local_rank >= e->local_world)
        return rt_error(RT_ERUNTIME, "LOCAL_RANK=%d is not below LOCAL_WORLD_SIZE=%d", e->local_rank, e->local_world);
    const char *dir = getenv("GTC_DIST_DIR");
    if (dir && strlen(dir) >= sizeof e->dir)
        return rt_error(RT_ERUNTIME, "GTC_DIST_DIR is longer than %zu bytes", sizeof e->dir - 1);
    snprintf(e->dir, sizeof e->dir, "%s", dir ? dir : "");
    const char *t = getenv("GTC_DIST_TIMEOUT");
    e->timeout_s = 300;
    if (t && *t) {
        char *end;
        errno = 0;
        e->timeout_s = strtod(t, &end);
        if (*end || errno || !(e->timeout_s > 0 && e->timeout_s <= 86400))
            return rt_error(RT_ERUNTIME, "GTC_DIST_TIMEOUT=\"%.40s\" is not a number of seconds from 0 to 86400 "
                            "(more than 0)", t);
    }
    return 0;
}

int rt_dist_init(const RtBackend *b) {
    if (g_dist.initialized)
        return rt_error(RT_ERUNTIME, "the distributed world is already initialised (rank %d of %d); destroy() "
                        "it first", g_dist.env.rank, g_dist.env.world);
    RtDistEnv e;
    if (rt_dist_env(&e)) return -1;
    const RtDistOps *lib = NULL;
    char ver[64], why[512];
    if (e.world > 1) {
        if (!b->dist)
            return rt_error(RT_EUNSUPPORTED, "WORLD_SIZE=%d: the %s backend has no collective library, so it "
                            "runs a world of 1 only (data-parallel runs need CUDA devices and NCCL)", e.world, b->name);
        if (!b->dist->probe(ver, sizeof ver, why, sizeof why))
            return rt_error(RT_EUNSUPPORTED, "WORLD_SIZE=%d needs %s, which cannot be loaded: %s", e.world,
                            b->dist->name, why);
        if (!e.dir[0])
            return rt_error(RT_ERUNTIME, "WORLD_SIZE=%d but GTC_DIST_DIR is not set: the ranks meet in that folder "
                            "(start them with `gtc run -n N script.php`)", e.world);
        lib = b->dist;
    } else if (b->dist && b->dist->probe(ver, sizeof ver, why, sizeof why)) {
        lib = b->dist; /* one GPU runs the library's calls too: the same code as a larger world */
    }
    if (lib && lib->init(e.world, e.rank, e.dir, e.timeout_s)) return -1;
    g_dist.env = e;
    g_dist.b = b;
    g_dist.lib = lib;
    g_dist.initialized = true;
    g_generation++;
    return 0;
}

bool rt_dist_initialized(void) { return g_dist.initialized; }
int rt_dist_rank(void) { return g_dist.initialized ? g_dist.env.rank : 0; }
int rt_dist_world(void) { return g_dist.initialized ? g_dist.env.world : 1; }
int rt_dist_local_rank(void) { return g_dist.initialized ? g_dist.env.local_rank : 0; }
const char *rt_dist_library(void) { return g_dist.lib ? g_dist.lib->name : NULL; }
const RtBackend *rt_dist_backend(void) { return g_dist.b; }

void rt_dist_destroy(void) {
    if (g_dist.initialized) g_generation++;
    if (g_dist.lib) g_dist.lib->destroy();
    memset(&g_dist, 0, sizeof g_dist);
    g_dist.env.world = g_dist.env.local_world = 1;
}

int rt_dist_op_parse(const char *name, RtDistOp *op) {
    static const char *const names[] = {"sum", "mean", "max", "min"};
    for (int i = 0; i < 4; i++)
        if (!strcmp(name, names[i])) return *op = (RtDistOp)i, 0;
    return rt_error(RT_EINVAL, "reduction \"%.40s\" is not one of sum, mean, max, min", name);
}

/* The checks every whole-tensor collective makes (what names the call in messages). */
static int check_tensor(const RtTensor *t, const char *what) {
    if (!g_dist.initialized)
        return rt_error(RT_ERUNTIME, "%s: the distributed world is not initialised (call init() first)", what);
    if (t->storage->backend != g_dist.b)
        return rt_error(RT_EINVAL, "%s: the tensor lives on %s but the world was joined on %s", what,
                        t->storage->backend->name, g_dist.b->name);
    if (!rt_is_contiguous(t))
        return rt_error(RT_EINVAL, "%s: the tensor is a strided view; collectives work in place on contiguous "
                        "arrays (copy it first)", what);
    return 0;
}

int rt_dist_all_reduce(RtTensor *t, RtDistOp op) {
    if (check_tensor(t, "allReduce")) return -1;
    if (op == RT_DIST_MEAN && !ir_dtype_is_float(t->dtype))
        return rt_error(RT_EINVAL, "allReduce: mean needs a float tensor, got %s (use sum)", ir_dtype_name(t->dtype));
    if (!g_dist.lib) return 0; /* a world of 1: sum, max, min and mean over one rank */
    return g_dist.lib->all_reduce(rt_data(t), rt_numel(t), t->dtype, op, NULL);
}

int rt_dist_broadcast(RtTensor *t, int root) {
    if (check_tensor(t, "broadcast")) return -1;
    if (root < 0 || root >= g_dist.env.world)
        return rt_error(RT_EINVAL, "broadcast: root %d is not a rank of this world (0 to %d)", root,
                        g_dist.env.world - 1);
    if (!g_dist.lib) return 0;
    return g_dist.lib->broadcast(rt_data(t), rt_numel(t), t->dtype, root);
}

int rt_dist_barrier(void) {
    if (!g_dist.initialized)
        return rt_error(RT_ERUNTIME, "barrier: the distributed world is not initialised (call init() first)");
    if (!g_dist.lib) {
        if (g_dist.b->synchronize) g_dist.b->synchronize();
        return 0;
    }
    return g_dist.lib->barrier();
}

int rt_dist_plan_all_reduce(const RtBackend *b, void *buf, int64_t count, DType dt, void *stream) {
    if (!rt_dist_plan_joined(b)) return 0;
    return g_dist.lib->all_reduce(buf, count, dt, RT_DIST_MEAN, stream);
}

bool rt_dist_plan_joined(const RtBackend *b) { return g_dist.initialized && g_dist.lib && g_dist.b == b; }
unsigned rt_dist_generation(void) { return g_generation; }

/* A dataset this large is no dataset: the index list alone would not fit in memory. */
#define DIST_MAX_SHARD_N ((int64_t)1 << 40)

int rt_dist_shard(int64_t n, int64_t epoch, bool shuffle, uint64_t seed, int rank, int world, int64_t **out,
                  int64_t *count) {
    *out = NULL, *count = 0;
    if (n < 0 || n > DIST_MAX_SHARD_N)
        return rt_error(RT_EINVAL, "shard: n must be from 0 to 2^40, got %lld", (long long)n);
    if (epoch < 0) return rt_error(RT_EINVAL, "shard: epoch must not be negative, got %lld", (long long)epoch);
    if (world < 1 || rank < 0 || rank >= world)
        return rt_error(RT_EINVAL, "shard: rank %d is not a rank of a world of %d", rank, world);
    int64_t per = (n + world - 1) / world;
    int64_t *idx = malloc(per ? (size_t)per * sizeof *idx : 1);
    if (!idx) return rt_error(RT_EOOM, "out of host memory");
    int64_t *perm = NULL;
    if (shuffle && n > 1 && !(perm = rt_permutation_host(n, seed + (uint64_t)epoch))) return free(idx), -1;
    for (int64_t k = 0; k < per; k++) {
        int64_t pos = (rank + k * world) % n; /* past the end: wrap to the start (the padding) */
        idx[k] = perm ? perm[pos] : pos;
    }
    free(perm);
    *out = idx, *count = per;
    return 0;
}

/* ---- the rendezvous ------------------------------------------------------------------------- */

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int rt_dist_publish_id(const char *dir, const void *id, size_t n) {
    char tmp[4200], path[4200];
    snprintf(path, sizeof path, "%s/nccl-id", dir);
    snprintf(tmp, sizeof tmp, "%s/.nccl-id.%ld", dir, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) return rt_error(RT_ERUNTIME, "rank 0 cannot write the NCCL id into GTC_DIST_DIR=%s: %s", dir, strerror(errno));
    bool ok = write(fd, id, n) == (ssize_t)n;
    ok = !close(fd) && ok;
    if (!ok || rename(tmp, path)) {
        int e = errno;
        unlink(tmp);
        return rt_error(RT_ERUNTIME, "rank 0 cannot write %s: %s", path, strerror(e));
    }
    return 0;
}

int rt_dist_wait_id(const char *dir, int rank, double timeout_s, void *id, size_t n) {
    char path[4200];
    snprintf(path, sizeof path, "%s/nccl-id", dir);
    double end = now_s() + timeout_s;
    for (;;) {
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            ssize_t got = read(fd, id, n);
            char extra;
            bool more = got == (ssize_t)n && read(fd, &extra, 1) == 1;
            close(fd);
            if (got == (ssize_t)n && !more) return 0;
            return rt_error(RT_ERUNTIME, "rank %d: %s is not an NCCL id of %zu bytes (a file left by another run? "
                            "GTC_DIST_DIR must be fresh)", rank, path, n);
        }
        if (errno != ENOENT) return rt_error(RT_ERUNTIME, "rank %d: cannot read %s: %s", rank, path, strerror(errno));
        if (now_s() > end)
            return rt_error(RT_ERUNTIME, "rank %d: rank 0's NCCL id did not appear in %s within %g s (is rank 0 "
                            "running? GTC_DIST_TIMEOUT sets the wait)", rank, path, timeout_s);
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}
