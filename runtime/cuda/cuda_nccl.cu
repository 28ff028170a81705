// runtime/cuda/cuda_nccl.cu: the CUDA backend's collectives (RtDistOps, runtime/core/dist.h) through
// NCCL, whose functions come from the library runtime/core/nccl_lib.c loads at run time
// (GTC_NCCL_LIBRARY or libnccl.so.2), with the types of <nccl.h> where the toolkit has it. Without
// nccl.h at build time the probe says so and a world over 1 is refused; gtc.so loads either way.
//
// One communicator per process, on the backend's device and stream: the ranks meet through a
// file, rank 0's ncclUniqueId written to $GTC_DIST_DIR/nccl-id (a temporary file renamed, so a
// reader never sees half of it), the others wait for it. Collectives are queued on the stream,
// so a plan's CUDA Graph captures them (NCCL supports stream capture; NCCL_RUNTIME_CONNECT=0,
// unless set, makes the communicator connect at init rather than inside a capture).
#include "cuda_internal.cuh"

#include "../core/dist.h"

#include <dlfcn.h>
#include <stdlib.h>

#if __has_include(<nccl.h>)
#include <nccl.h>
#define GTC_HAVE_NCCL_H 1
#endif

#ifdef GTC_HAVE_NCCL_H

static struct {
    ncclResult_t (*get_unique_id)(ncclUniqueId *);
    ncclResult_t (*comm_init_rank)(ncclComm_t *, int, ncclUniqueId, int);
    ncclResult_t (*comm_destroy)(ncclComm_t);
    ncclResult_t (*all_reduce)(const void *, void *, size_t, ncclDataType_t, ncclRedOp_t, ncclComm_t, cudaStream_t);
    ncclResult_t (*broadcast)(const void *, void *, size_t, ncclDataType_t, int, ncclComm_t, cudaStream_t);
    const char *(*error_string)(ncclResult_t);
    const char *(*last_error)(ncclComm_t);
    ncclComm_t comm;
    int world, rank;
    int *scratch; // one int on the device: barrier()'s all-reduce
} g_nccl;

// rt_error with NCCL's words for r (and its last message when the communicator has one).
static int nccl_fail(const char *what, ncclResult_t r) {
    const char *last = g_nccl.comm && g_nccl.last_error ? g_nccl.last_error(g_nccl.comm) : NULL;
    return rt_error(RT_ERUNTIME, "%s failed: %s%s%s", what, g_nccl.error_string ? g_nccl.error_string(r) : "NCCL error",
                    last && *last ? ": " : "", last && *last ? last : "");
}

#define NCCL_TRY(what, call)                                        \
    do {                                                            \
        ncclResult_t r_ = (call);                                   \
        if (r_ != ncclSuccess) return nccl_fail(what, r_);          \
    } while (0)

// Every function this file calls, from the loaded library; -1 after rt_error.
static int nccl_bind(void) {
    char why[512];
    void *lib = rt_nccl_library(why, sizeof why);
    if (!lib) return rt_error(RT_EUNSUPPORTED, "NCCL cannot be loaded: %s", why);
    struct { const char *name; void **fn; } syms[] = {
        {"ncclGetUniqueId", (void **)&g_nccl.get_unique_id},   {"ncclCommInitRank", (void **)&g_nccl.comm_init_rank},
        {"ncclCommDestroy", (void **)&g_nccl.comm_destroy},    {"ncclAllReduce", (void **)&g_nccl.all_reduce},
        {"ncclBroadcast", (void **)&g_nccl.broadcast},         {"ncclGetErrorString", (void **)&g_nccl.error_string},
        {"ncclGetLastError", (void **)&g_nccl.last_error},
    };
    for (auto &s : syms)
        if (!(*s.fn = dlsym(lib, s.name)))
            return rt_error(RT_EUNSUPPORTED, "%s has no %s (NCCL too old?)", rt_nccl_library_name(), s.name);
    return 0;
}

static int nccl_type(DType dt, ncclDataType_t *out) {
    switch (dt) {
    case DT_INT8: *out = ncclInt8; return 0;
    case DT_UINT8: *out = ncclUint8; return 0;
    case DT_INT32: *out = ncclInt32; return 0;
    case DT_UINT32: *out = ncclUint32; return 0;
    case DT_INT64: *out = ncclInt64; return 0;
    case DT_UINT64: *out = ncclUint64; return 0;
    case DT_FLOAT16: *out = ncclFloat16; return 0;
    case DT_FLOAT32: *out = ncclFloat32; return 0;
    case DT_FLOAT64: *out = ncclFloat64; return 0;
#if NCCL_VERSION_CODE >= 21000
    case DT_BFLOAT16: *out = ncclBfloat16; return 0;
#endif
    default:
        return rt_error(RT_EINVAL, "NCCL has no %s type (collectives take int8, uint8, int32, uint32, int64, "
                        "uint64, float16, bfloat16, float32, float64)", ir_dtype_name(dt));
    }
}

static int nccl_init(int world, int rank, const char *dir, double timeout_s) {
    if (cuda_check_ready("NCCL") || nccl_bind()) return -1;
    /* Every connection at init, not at a collective's first call: a data-parallel plan captures
     * its all-reduces into a CUDA Graph, where setting one up (allocations) is not allowed.
     * Before NCCL's first call reads its environment; a value the user set wins. */
    setenv("NCCL_RUNTIME_CONNECT", "0", 0);
    ncclUniqueId id;
    if (rank == 0) {
        NCCL_TRY("ncclGetUniqueId", g_nccl.get_unique_id(&id));
        if (world > 1 && rt_dist_publish_id(dir, &id, sizeof id)) return -1;
    } else if (rt_dist_wait_id(dir, rank, timeout_s, &id, sizeof id)) {
        return -1;
    }
    CU_TRY("cudaSetDevice", cudaSetDevice(g_cuda.device));
    CU_TRY("cudaMalloc", cudaMalloc((void **)&g_nccl.scratch, sizeof(int)));
    ncclComm_t comm = NULL;
    ncclResult_t r = g_nccl.comm_init_rank(&comm, world, id, rank);
    if (r != ncclSuccess) {
        cudaFree(g_nccl.scratch), g_nccl.scratch = NULL;
        return nccl_fail("ncclCommInitRank", r);
    }
    g_nccl.comm = comm, g_nccl.world = world, g_nccl.rank = rank;
    return 0;
}

static int nccl_all_reduce(void *buf, int64_t count, DType dt, RtDistOp op, void *stream) {
    static const ncclRedOp_t ops[] = {ncclSum, ncclAvg, ncclMax, ncclMin}; // RtDistOp's order
    ncclDataType_t t = ncclFloat32;
    if (!g_nccl.comm) return rt_error(RT_ERUNTIME, "NCCL: no communicator (init() first)");
    if (nccl_type(dt, &t)) return -1;
    if (count == 0) return 0;
    NCCL_TRY("ncclAllReduce", g_nccl.all_reduce(buf, buf, (size_t)count, t, ops[op], g_nccl.comm,
                                                stream ? (cudaStream_t)stream : g_cuda.stream));
    return 0;
}

static int nccl_broadcast(void *buf, int64_t count, DType dt, int root) {
    ncclDataType_t t = ncclFloat32;
    if (!g_nccl.comm) return rt_error(RT_ERUNTIME, "NCCL: no communicator (init() first)");
    if (nccl_type(dt, &t)) return -1;
    if (count == 0) return 0;
    NCCL_TRY("ncclBroadcast", g_nccl.broadcast(buf, buf, (size_t)count, t, root, g_nccl.comm, g_cuda.stream));
    return 0;
}

// An all-reduce of one int every rank must join, then a wait for it on the host.
static int nccl_barrier(void) {
    if (!g_nccl.comm) return rt_error(RT_ERUNTIME, "NCCL: no communicator (init() first)");
    NCCL_TRY("ncclAllReduce", g_nccl.all_reduce(g_nccl.scratch, g_nccl.scratch, 1, ncclInt32, ncclSum, g_nccl.comm,
                                                g_cuda.stream));
    CU_TRY("cudaStreamSynchronize", cudaStreamSynchronize(g_cuda.stream));
    return 0;
}

static void nccl_destroy(void) {
    if (g_nccl.comm) {
        cudaStreamSynchronize(g_cuda.stream);
        g_nccl.comm_destroy(g_nccl.comm);
    }
    if (g_nccl.scratch) cudaFree(g_nccl.scratch);
    g_nccl.comm = NULL, g_nccl.scratch = NULL, g_nccl.world = 0, g_nccl.rank = 0;
}

static int nccl_probe(char *ver, size_t vn, char *why, size_t wn) { return rt_nccl_probe(ver, vn, why, wn); }

#else // no <nccl.h> at build time: NCCL is reported absent, a world over 1 refused

static int nccl_probe(char *, size_t, char *why, size_t wn) {
    snprintf(why, wn, "gtc.so was built without nccl.h (the CUDA toolkit's include folder had none)");
    return 0;
}
static int nccl_init(int, int, const char *, double) { return rt_error(RT_EUNSUPPORTED, "NCCL: not built in"); }
static int nccl_all_reduce(void *, int64_t, DType, RtDistOp, void *) { return rt_error(RT_EUNSUPPORTED, "NCCL: not built in"); }
static int nccl_broadcast(void *, int64_t, DType, int) { return rt_error(RT_EUNSUPPORTED, "NCCL: not built in"); }
static int nccl_barrier(void) { return rt_error(RT_EUNSUPPORTED, "NCCL: not built in"); }
static void nccl_destroy(void) {}

#endif

extern "C" const RtDistOps rt_cuda_dist_ops = {
    "nccl", nccl_probe, nccl_init, nccl_all_reduce, nccl_broadcast, nccl_barrier, nccl_destroy,
};
