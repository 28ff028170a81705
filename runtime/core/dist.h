/* runtime/core/dist.h: data-parallel runs (docs/distributed.md): the process's place in a world
 * of ranks as a launcher (`gtc run`, torchrun) describes it in the environment, the dataset
 * sharding rule, and collectives over tensors. The core names no collective library: a backend
 * that has one offers it as RtDistOps (RtBackend.dist; CUDA: NCCL, runtime/cuda/cuda_nccl.cu).
 * A world of one rank needs none: its collectives are identities on every backend. */
#ifndef GTC_RT_DIST_H
#define GTC_RT_DIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { RT_DIST_SUM, RT_DIST_MEAN, RT_DIST_MAX, RT_DIST_MIN } RtDistOp;

/* What a backend's collective library does. Buffers are device addresses of contiguous data. */
struct RtDistOps {
    const char *name; /* "nccl" */
    /* Whether the library can be loaded here: 1 with its version ("2.27.3") in ver, or 0 with
     * the reason in why ("libnccl.so.2: cannot open shared object file ..."). Never fails. */
    int (*probe)(char *ver, size_t vn, char *why, size_t wn);
    /* Joins the world as `rank` of `world` on the backend's selected device: rank 0 creates
     * the rendezvous id and writes it to dir/nccl-id, the others wait for it up to timeout_s
     * seconds (dir is unused for a world of 1). 0, or -1 after rt_error. */
    int (*init)(int world, int rank, const char *dir, double timeout_s);
    /* In place over count elements of dt; stream NULL: the backend's own stream. Queued on the
     * stream (a CUDA Graph being captured records it). 0, or -1 after rt_error. */
    int (*all_reduce)(void *buf, int64_t count, DType dt, RtDistOp op, void *stream);
    int (*broadcast)(void *buf, int64_t count, DType dt, int root);
    int (*barrier)(void); /* returns when every rank has called it */
    void (*destroy)(void);
};

/* The environment a launcher sets: RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE (absent: a
 * world of 1, rank 0), GTC_DIST_DIR (the rendezvous folder; "" when unset) and
 * GTC_DIST_TIMEOUT (seconds a rank waits for rank 0's id; default 300). */
typedef struct {
    int rank, world, local_rank, local_world;
    double timeout_s;
    char dir[4096];
} RtDistEnv;

/* Reads and checks the environment (whole decimal numbers, 0 <= RANK < WORLD_SIZE, ...). 0, or
 * -1 after rt_error (RT_ERUNTIME, naming the variable: the environment is no argument). */
int rt_dist_env(RtDistEnv *e);

/* Joins the world the environment describes with backend b's collective library (b->dist):
 * required for a world over 1 (the CPU backend has none: RT_EUNSUPPORTED); for a world of 1 it is
 * used when it loads (so that a single GPU runs the same calls), else the collectives are
 * identities. A second call fails; after rt_dist_destroy a new one may be made. 0, or -1. */
int rt_dist_init(const RtBackend *b);
bool rt_dist_initialized(void);
int rt_dist_rank(void);       /* 0 before init */
int rt_dist_world(void);      /* 1 before init */
int rt_dist_local_rank(void); /* 0 before init */
/* The communicator's library ("nccl"), or NULL when collectives are identities. */
const char *rt_dist_library(void);
/* The backend the world was joined on (NULL before init). */
const RtBackend *rt_dist_backend(void);
void rt_dist_destroy(void);

/* "sum", "mean", "max", "min"; 0, or -1 after rt_error naming the choices. */
int rt_dist_op_parse(const char *name, RtDistOp *op);
/* Collectives over a whole tensor, in place: it must be contiguous and on the world's backend
 * (mean needs a float dtype; root in [0, world)). A world of 1 without a library: checks only. */
int rt_dist_all_reduce(RtTensor *t, RtDistOp op);
int rt_dist_broadcast(RtTensor *t, int root);
int rt_dist_barrier(void);
/* For a plan's all-reduce steps (the executor, data-parallel plans): the mean over ranks of
 * count elements of dt at buf on backend b's stream; nothing when no library communicator of
 * b's is joined (world 1, or not initialised). */
int rt_dist_plan_all_reduce(const RtBackend *b, void *buf, int64_t count, DType dt, void *stream);
/* Whether rt_dist_plan_all_reduce does anything for backend b now (a library communicator of
 * b's is joined), and a number that changes whenever that communicator does (init, destroy):
 * a CUDA Graph that captured the collective is stale once it differs. */
bool rt_dist_plan_joined(const RtBackend *b);
unsigned rt_dist_generation(void);

/* The dataset indices rank `rank` of `world` sees in epoch `epoch`: a permutation of 0 .. n-1
 * (rt_permutation's, seeded seed + epoch; the identity without shuffle), padded by wrapping to
 * a multiple of world so that every rank has ceil(n / world) of them, then every world-th index
 * from position rank. *out is malloc'd (*count may be 0). 0, or -1 after rt_error. */
int rt_dist_shard(int64_t n, int64_t epoch, bool shuffle, uint64_t seed, int rank, int world, int64_t **out,
                  int64_t *count);

/* The rendezvous through the folder GTC_DIST_DIR names: rank 0 writes the library's id (n
 * bytes) to dir/nccl-id through a temporary file and a rename (no reader sees half of it); the
 * other ranks poll for it up to timeout_s seconds. 0, or -1 after rt_error (RT_ERUNTIME: the
 * folder cannot be written, a file of another size, the wait timed out). */
int rt_dist_publish_id(const char *dir, const void *id, size_t n);
int rt_dist_wait_id(const char *dir, int rank, double timeout_s, void *id, size_t n);

/* NCCL loaded at run time (nccl_lib.c): GTC_NCCL_LIBRARY (a path) or libnccl.so.2, dlopen'd
 * once. The handle, or NULL with dlopen's reason in why; the name tried; and probe: 1 with its
 * version ("2.28.9") in ver, or 0 with the reason in why. */
void *rt_nccl_library(char *why, size_t wn);
const char *rt_nccl_library_name(void);
int rt_nccl_probe(char *ver, size_t vn, char *why, size_t wn);

#ifdef __cplusplus
}
#endif

#endif
