// runtime/cuda/cuda_backend.cu: the CUDA backend's context (device, one non-blocking stream,
// cuBLAS handle), its caching device allocator, host<->device transfers through pinned staging,
// fill, synchronize, CUDA error reporting, and the rt_cuda_backend table.
#include "cuda_internal.cuh"
#include "rt_plan_blas.h"

#include <stdlib.h>

CudaCtx g_cuda = {false, -1, 0, nullptr, nullptr, false, {0}};

// ---- errors -----------------------------------------------------------------------------------

int cuda_fail(const char *what, cudaError_t e) {
    cudaGetLastError();  // clear a non-sticky error so the context stays usable
    RtStatus st = e == cudaErrorMemoryAllocation ? RT_EOOM : RT_ERUNTIME;
    return rt_error(st, "CUDA error in %s: %s (%s)", what, cudaGetErrorName(e), cudaGetErrorString(e));
}

int cublas_fail(const char *what, cublasStatus_t s) {
    if (s == CUBLAS_STATUS_ALLOC_FAILED)
        return rt_error(RT_EOOM, "cuBLAS error in %s: %s (%s)", what, cublasGetStatusName(s),
                        cublasGetStatusString(s));
    return rt_error(RT_ERUNTIME, "cuBLAS error in %s: %s (%s)", what, cublasGetStatusName(s),
                    cublasGetStatusString(s));
}

int cuda_check_ready(const char *what) {
    if (g_cuda.ready) return 0;
    return rt_error(RT_ERUNTIME, "%s: the CUDA backend is not initialised (call rt_cuda_init first)", what);
}

int cuda_check_launch(const char *what) {
    cudaError_t e = cudaGetLastError();
    return e == cudaSuccess ? 0 : cuda_fail(what, e);
}

// ---- the caching allocator ----------------------------------------------------------------------
//
// Requests are rounded up to a size class (512 B minimum; above that four classes per power of
// two: 1, 1.25, 1.5, 1.75 x 2^k, so at most 25% is wasted), and each class keeps a free list of whole cudaMalloc blocks. In
// steady state a model's allocations hit the free lists and never reach the driver. When
// cudaMalloc fails every cached block is returned to the driver and the call retried once.
// A hash table maps each live or cached block's pointer to its class so free() needs no size.
// Not thread-safe: the runtime runs one request per process/thread (as PHP does).

#define NCLASS 256

struct FreeNode {
    void *ptr;
    FreeNode *next;
};

struct BlockEntry {
    void *ptr;        // NULL = empty slot
    size_t bytes;     // the class size
    int cls;
};

static FreeNode *free_lists[NCLASS];
static BlockEntry *blocks;        // open addressing, linear probing, power-of-two capacity
static size_t blocks_cap, blocks_len;
static size_t bytes_in_use, bytes_cached, n_mallocs;

static int size_class(size_t bytes, size_t *rounded) {
    if (bytes <= 512) {
        *rounded = 512;
        return 0;
    }
    int p = 63 - __builtin_clzll((unsigned long long)bytes);  // 2^p <= bytes < 2^(p+1)
    size_t base = (size_t)1 << p;
    for (int sub = 0; sub <= 4; sub++) {
        size_t c = base + (base >> 2) * (size_t)sub;
        if (c >= bytes) {
            int cls = (p - 9) * 4 + sub;  // p >= 9 here
            if (sub == 4) cls = (p + 1 - 9) * 4;
            *rounded = c;
            return cls < NCLASS ? cls : NCLASS - 1;
        }
    }
    *rounded = bytes;
    return NCLASS - 1;
}

static size_t hash_ptr(void *p) {
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return (size_t)x;
}

static bool blocks_grow(void) {
    size_t ncap = blocks_cap ? blocks_cap * 2 : 1024;
    BlockEntry *nb = (BlockEntry *)calloc(ncap, sizeof *nb);
    if (!nb) return false;
    for (size_t i = 0; i < blocks_cap; i++) {
        if (!blocks[i].ptr) continue;
        size_t j = hash_ptr(blocks[i].ptr) & (ncap - 1);
        while (nb[j].ptr) j = (j + 1) & (ncap - 1);
        nb[j] = blocks[i];
    }
    free(blocks);
    blocks = nb;
    blocks_cap = ncap;
    return true;
}

static bool blocks_put(void *p, size_t bytes, int cls) {
    if ((blocks_len + 1) * 2 > blocks_cap && !blocks_grow()) return false;
    size_t j = hash_ptr(p) & (blocks_cap - 1);
    while (blocks[j].ptr) j = (j + 1) & (blocks_cap - 1);
    blocks[j].ptr = p, blocks[j].bytes = bytes, blocks[j].cls = cls;
    blocks_len++;
    return true;
}

static BlockEntry *blocks_find(void *p) {
    if (!blocks_cap) return nullptr;
    size_t j = hash_ptr(p) & (blocks_cap - 1);
    while (blocks[j].ptr) {
        if (blocks[j].ptr == p) return &blocks[j];
        j = (j + 1) & (blocks_cap - 1);
    }
    return nullptr;
}

// Removes an entry, shifting later entries of its probe chain back (no tombstones).
static void blocks_remove(BlockEntry *e) {
    size_t i = (size_t)(e - blocks), mask = blocks_cap - 1;
    blocks[i].ptr = nullptr;
    blocks_len--;
    for (size_t j = (i + 1) & mask; blocks[j].ptr; j = (j + 1) & mask) {
        size_t h = hash_ptr(blocks[j].ptr) & mask;
        // move j to i when h is not cyclically in (i, j]
        bool in_range = i <= j ? (h > i && h <= j) : (h > i || h <= j);
        if (!in_range) {
            blocks[i] = blocks[j];
            blocks[j].ptr = nullptr;
            i = j;
        }
    }
}

static size_t release_cached(void) {
    size_t released = 0;
    for (int c = 0; c < NCLASS; c++) {
        while (free_lists[c]) {
            FreeNode *n = free_lists[c];
            free_lists[c] = n->next;
            BlockEntry *e = blocks_find(n->ptr);
            if (e) {
                released += e->bytes;
                bytes_cached -= e->bytes;
                blocks_remove(e);
            }
            cudaFree(n->ptr);
            free(n);
        }
    }
    return released;
}

void *cuda_alloc(size_t bytes) {
    if (cuda_check_ready("alloc")) return nullptr;
    size_t rounded;
    int cls = size_class(bytes, &rounded);
    // every block of a class has the class's size, except in the last (overflow) class
    for (FreeNode **pn = &free_lists[cls]; *pn; pn = &(*pn)->next) {
        BlockEntry *e = blocks_find((*pn)->ptr);
        if (e && e->bytes >= rounded) {
            FreeNode *n = *pn;
            void *p = n->ptr;
            *pn = n->next;
            free(n);
            bytes_cached -= e->bytes;
            bytes_in_use += e->bytes;
            return p;
        }
    }
    void *p = nullptr;
    cudaError_t err = cudaMalloc(&p, rounded);
    if (err == cudaErrorMemoryAllocation) {
        cudaGetLastError();
        release_cached();
        err = cudaMalloc(&p, rounded);
    }
    if (err != cudaSuccess) {
        cudaGetLastError();
        if (err == cudaErrorMemoryAllocation) {
            size_t fr = 0, tot = 0;
            cudaMemGetInfo(&fr, &tot);
            rt_error(RT_EOOM, "out of CUDA memory: cudaMalloc(%zu bytes) failed with %s (%zu of %zu "
                     "bytes free on the device)", rounded, cudaGetErrorName(err), fr, tot);
        } else {
            cuda_fail("cudaMalloc", err);
            // the core maps a NULL from alloc to RT_EOOM unless the status already says so;
            // keep the CUDA error's name in the message either way.
        }
        return nullptr;
    }
    if (!blocks_put(p, rounded, cls)) {
        cudaFree(p);
        rt_error(RT_EOOM, "out of host memory (allocator table)");
        return nullptr;
    }
    n_mallocs++;
    bytes_in_use += rounded;
    return p;
}

void cuda_free(void *p) {
    if (!p) return;
    BlockEntry *e = blocks_find(p);
    if (!e) {  // not ours (cannot happen through the core); hand it to the driver
        cudaFree(p);
        return;
    }
    FreeNode *n = (FreeNode *)malloc(sizeof *n);
    bytes_in_use -= e->bytes;
    if (!n) {
        blocks_remove(e);
        cudaFree(p);
        return;
    }
    n->ptr = p;
    n->next = free_lists[e->cls];
    free_lists[e->cls] = n;
    bytes_cached += e->bytes;
}

// ---- transfers ----------------------------------------------------------------------------------

#define STAGE_MIN ((size_t)1 << 20)    // pageable copies below this size
#define STAGE_CHUNK ((size_t)4 << 20)  // two pinned chunks, double-buffered

static void *stage_buf[2];
static cudaEvent_t stage_ev[2];
static bool stage_ok, stage_tried;

static bool stage_init(void) {
    if (stage_tried) return stage_ok;
    stage_tried = true;
    for (int i = 0; i < 2; i++) {
        if (cudaMallocHost(&stage_buf[i], STAGE_CHUNK) != cudaSuccess ||
            cudaEventCreateWithFlags(&stage_ev[i], cudaEventDisableTiming) != cudaSuccess) {
            cudaGetLastError();
            return stage_ok = false;
        }
    }
    return stage_ok = true;
}

static void stage_free(void) {
    for (int i = 0; i < 2; i++) {
        if (stage_buf[i]) cudaFreeHost(stage_buf[i]);
        if (stage_ev[i]) cudaEventDestroy(stage_ev[i]);
        stage_buf[i] = nullptr;
        stage_ev[i] = nullptr;
    }
    stage_ok = stage_tried = false;
}

static int cuda_upload(void *dst, const void *src, size_t bytes) {
    if (cuda_check_ready("upload")) return -1;
    if (!bytes) return 0;
    if (bytes < STAGE_MIN || !stage_init()) {
        CU_TRY("upload (cudaMemcpyAsync)", cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, g_cuda.stream));
        CU_TRY("upload (cudaStreamSynchronize)", cudaStreamSynchronize(g_cuda.stream));
        return 0;
    }
    // host memcpy into one pinned chunk overlaps the DMA out of the other
    for (size_t off = 0, i = 0; off < bytes; off += STAGE_CHUNK, i++) {
        size_t len = bytes - off < STAGE_CHUNK ? bytes - off : STAGE_CHUNK;
        int b = (int)(i & 1);
        CU_TRY("upload (cudaEventSynchronize)", cudaEventSynchronize(stage_ev[b]));
        memcpy(stage_buf[b], (const char *)src + off, len);
        CU_TRY("upload (cudaMemcpyAsync)",
               cudaMemcpyAsync((char *)dst + off, stage_buf[b], len, cudaMemcpyHostToDevice, g_cuda.stream));
        CU_TRY("upload (cudaEventRecord)", cudaEventRecord(stage_ev[b], g_cuda.stream));
    }
    CU_TRY("upload (cudaStreamSynchronize)", cudaStreamSynchronize(g_cuda.stream));
    return 0;
}

static int cuda_download(void *dst, const void *src, size_t bytes) {
    if (cuda_check_ready("download")) return -1;
    if (!bytes) return 0;
    if (bytes < STAGE_MIN || !stage_init()) {
        CU_TRY("download (cudaMemcpyAsync)", cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, g_cuda.stream));
        CU_TRY("download (cudaStreamSynchronize)", cudaStreamSynchronize(g_cuda.stream));
        return 0;
    }
    size_t nchunks = (bytes + STAGE_CHUNK - 1) / STAGE_CHUNK;
    for (size_t i = 0; i < nchunks && i < 2; i++) {  // prime both chunks
        size_t off = i * STAGE_CHUNK, len = bytes - off < STAGE_CHUNK ? bytes - off : STAGE_CHUNK;
        CU_TRY("download (cudaMemcpyAsync)", cudaMemcpyAsync(stage_buf[i], (const char *)src + off, len,
                                                             cudaMemcpyDeviceToHost, g_cuda.stream));
        CU_TRY("download (cudaEventRecord)", cudaEventRecord(stage_ev[i], g_cuda.stream));
    }
    for (size_t i = 0; i < nchunks; i++) {
        int b = (int)(i & 1);
        size_t off = i * STAGE_CHUNK, len = bytes - off < STAGE_CHUNK ? bytes - off : STAGE_CHUNK;
        CU_TRY("download (cudaEventSynchronize)", cudaEventSynchronize(stage_ev[b]));
        memcpy((char *)dst + off, stage_buf[b], len);
        size_t nx = i + 2;
        if (nx < nchunks) {
            size_t noff = nx * STAGE_CHUNK, nlen = bytes - noff < STAGE_CHUNK ? bytes - noff : STAGE_CHUNK;
            CU_TRY("download (cudaMemcpyAsync)", cudaMemcpyAsync(stage_buf[b], (const char *)src + noff, nlen,
                                                                 cudaMemcpyDeviceToHost, g_cuda.stream));
            CU_TRY("download (cudaEventRecord)", cudaEventRecord(stage_ev[b], g_cuda.stream));
        }
    }
    return 0;
}

// ---- fill ---------------------------------------------------------------------------------------

template <class T> __global__ void k_fill(T *__restrict__ p, T v, int64_t n) {
    int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) p[i] = v;
}

template <class T> static int fill_as(RtTensor *out, double value) {
    T v = Conv<T>::f(value);
    int64_t n = rt_numel(out);
    T *p = tdata<T>(out);
    unsigned char bytes[sizeof(T)];
    memcpy(bytes, &v, sizeof v);
    bool uniform = true;
    for (size_t i = 1; i < sizeof v; i++) uniform = uniform && bytes[i] == bytes[0];
    if (uniform) {
        CU_TRY("fill (cudaMemsetAsync)", cudaMemsetAsync(p, bytes[0], (size_t)n * sizeof(T), g_cuda.stream));
        return 0;
    }
    k_fill<T><<<grid_for(n, 256), 256, 0, g_cuda.stream>>>(p, v, n);
    return cuda_check_launch("fill");
}

static int cuda_fill(RtTensor *out, double value) {
    if (cuda_check_ready("fill")) return -1;
    if (rt_numel(out) == 0) return 0;
    switch (out->dtype) {
#define CASE(ID, TT, sfx, kind) case DT_##ID: return fill_as<TT>(out, value);
        CU_DTYPES(CASE)
#undef CASE
    default: return rt_error(RT_EINVAL, "fill: unsupported dtype");
    }
}

static void cuda_synchronize(void) {
    if (!g_cuda.ready) return;
    cudaError_t e = cudaStreamSynchronize(g_cuda.stream);
    if (e != cudaSuccess) cuda_fail("synchronize", e);
}

static void *backend_alloc(size_t bytes) { return cuda_alloc(bytes); }
static void backend_free(void *p) { cuda_free(p); }

// ---- public API -------------------------------------------------------------------------------------

extern "C" {

const RtBackend rt_cuda_backend = {
    "cuda",         backend_alloc,    backend_free, cuda_upload, cuda_download,   cuda_copy,
    cuda_fill,      cuda_elementwise, cuda_reduce,  cuda_matmul, cuda_synchronize,
    true, // async: kernels are queued on the context's stream
    rt_cuda_device_count, rt_cuda_init, rt_cuda_ready, rt_cuda_device, rt_cuda_device_name,
    rt_cuda_shutdown, rt_cuda_mem_info, rt_cuda_mem_stats, rt_cuda_device_info, rt_cuda_versions,
    rt_cuda_peer_access, rt_cuda_empty_cache, rt_cuda_set_tf32, rt_cuda_tf32,
    &rt_cuda_plan_ops, &rt_cuda_module_ops, cuda_gather, cuda_scatter_add, cuda_copy_rows,
    cuda_dropout,
    "cublas", // cuda_matmul.cu: cublasGemmStridedBatchedEx
    cuda_conv2d, cuda_conv_library,  // cuda_cudnn.cu: cuDNN for large eager convolutions
    &rt_cuda_dist_ops, // cuda_nccl.cu: NCCL, loaded at run time
};

int rt_cuda_device_count(void) {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return n;
}

int rt_cuda_init(int device, char *err, size_t errn) {
    if (g_cuda.ready) {
        if (device == g_cuda.device) return 0;
        snprintf(err, errn, "the CUDA backend is already initialised on device %d (asked for device %d)",
                 g_cuda.device, device);
        return -1;
    }
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
        if (e != cudaSuccess) {
            snprintf(err, errn, "no CUDA device is available (cudaGetDeviceCount: %s: %s)", cudaGetErrorName(e),
                     cudaGetErrorString(e));
            cudaGetLastError();
        } else {
            snprintf(err, errn, "no CUDA device is available (cudaGetDeviceCount found 0 devices)");
        }
        return -1;
    }
    if (device < 0 || device >= n) {
        snprintf(err, errn, "CUDA device %d does not exist (%d device%s visible: cuda:0%s)", device, n,
                 n == 1 ? "" : "s", n > 1 ? " to cuda:N-1" : "");
        return -1;
    }
    const char *step = "cudaSetDevice";
    cudaDeviceProp prop;
    if ((e = cudaSetDevice(device)) != cudaSuccess) goto fail;
    step = "cudaGetDeviceProperties";
    if ((e = cudaGetDeviceProperties(&prop, device)) != cudaSuccess) goto fail;
    step = "cudaStreamCreateWithFlags";
    if ((e = cudaStreamCreateWithFlags(&g_cuda.stream, cudaStreamNonBlocking)) != cudaSuccess) goto fail;
    {
        cublasStatus_t s = cublasCreate(&g_cuda.blas);
        if (s == CUBLAS_STATUS_SUCCESS) s = cublasSetStream(g_cuda.blas, g_cuda.stream);
        if (s != CUBLAS_STATUS_SUCCESS) {
            snprintf(err, errn, "cannot initialise cuBLAS on CUDA device %d: %s (%s)", device,
                     cublasGetStatusName(s), cublasGetStatusString(s));
            if (g_cuda.blas) cublasDestroy(g_cuda.blas);
            cudaStreamDestroy(g_cuda.stream);
            g_cuda.blas = nullptr;
            g_cuda.stream = nullptr;
            return -1;
        }
    }
    g_cuda.device = device;
    g_cuda.sms = prop.multiProcessorCount;
    snprintf(g_cuda.name, sizeof g_cuda.name, "%s", prop.name);
    g_cuda.ready = true;
    return 0;
fail:
    snprintf(err, errn, "cannot initialise CUDA device %d (%s: %s: %s)", device, step, cudaGetErrorName(e),
             cudaGetErrorString(e));
    cudaGetLastError();
    return -1;
}

bool rt_cuda_ready(void) { return g_cuda.ready; }
int rt_cuda_device(void) { return g_cuda.ready ? g_cuda.device : -1; }
const char *rt_cuda_device_name(void) { return g_cuda.ready ? g_cuda.name : ""; }

// Any visible device (the selected one for -1): cudaGetDeviceProperties needs no context of ours.
int rt_cuda_device_info(int device, RtDeviceInfo *out) {
    if (device < 0) {
        if (cuda_check_ready("device properties")) return -1;
        device = g_cuda.device;
    }
    int n = rt_cuda_device_count();
    if (device >= n)
        return rt_error(RT_ERUNTIME, "CUDA device %d does not exist (%d device%s visible)", device, n, n == 1 ? "" : "s");
    cudaDeviceProp prop;
    cudaError_t e = cudaGetDeviceProperties(&prop, device);
    if (e != cudaSuccess) return cuda_fail("reading the device's properties", e);
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", prop.name);
    out->sms = prop.multiProcessorCount;
    out->cc_major = prop.major;
    out->cc_minor = prop.minor;
    out->smem_block = (int)prop.sharedMemPerBlockOptin;
    out->smem_sm = (int)prop.sharedMemPerMultiprocessor;
    out->total_mem = prop.totalGlobalMem;
    return 0;
}

int rt_cuda_versions(int *driver, int *runtime) {
    CU_TRY("cudaDriverGetVersion", cudaDriverGetVersion(driver));
    CU_TRY("cudaRuntimeGetVersion", cudaRuntimeGetVersion(runtime));
    return 0;
}

int rt_cuda_peer_access(int device, int peer) {
    int n = rt_cuda_device_count();
    if (device < 0 || peer < 0 || device >= n || peer >= n)
        return rt_error(RT_ERUNTIME, "peer access between CUDA devices %d and %d: %d device%s visible", device, peer, n,
                        n == 1 ? "" : "s");
    if (device == peer) return 1;
    int can = 0;
    CU_TRY("cudaDeviceCanAccessPeer", cudaDeviceCanAccessPeer(&can, device, peer));
    return can ? 1 : 0;
}
void rt_cuda_set_tf32(bool on) { g_cuda.tf32 = on; }
bool rt_cuda_tf32(void) { return g_cuda.tf32; }
void *rt_cuda_stream(void) { return (void *)g_cuda.stream; }

size_t rt_cuda_empty_cache(void) {
    if (!g_cuda.ready) return 0;
    cudaStreamSynchronize(g_cuda.stream);
    return release_cached();
}

void rt_cuda_mem_stats(size_t *in_use, size_t *cached, size_t *cuda_mallocs) {
    if (in_use) *in_use = bytes_in_use;
    if (cached) *cached = bytes_cached;
    if (cuda_mallocs) *cuda_mallocs = n_mallocs;
}

int rt_cuda_mem_info(size_t *free_bytes, size_t *total_bytes) {
    if (cuda_check_ready("memory info")) return -1;
    size_t fr = 0, tot = 0;
    CU_TRY("cudaMemGetInfo", cudaMemGetInfo(&fr, &tot));
    if (free_bytes) *free_bytes = fr;
    if (total_bytes) *total_bytes = tot;
    return 0;
}

int rt_cuda_memset(void *dst, int byte, size_t bytes) {
    if (cuda_check_ready("memset")) return -1;
    CU_TRY("memset", cudaMemsetAsync(dst, byte, bytes, g_cuda.stream));
    return 0;
}

void rt_cuda_shutdown(void) {
    if (!g_cuda.ready) return;
    cudaStreamSynchronize(g_cuda.stream);
    release_cached();
    stage_free();
    cublasDestroy(g_cuda.blas);
    rt_cuda_blas_shutdown();
    cuda_cudnn_shutdown();
    cudaStreamDestroy(g_cuda.stream);
    g_cuda.blas = nullptr;
    g_cuda.stream = nullptr;
    g_cuda.ready = false;
    g_cuda.device = -1;
}

}  // extern "C"
