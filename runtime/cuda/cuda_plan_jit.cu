// runtime/cuda/cuda_plan_jit.cu: a plan's kernels on the current GPU (rt_plan_jit.h): the
// model's embedded cubin when it runs here, else kernels.cu compiled once with NVRTC for this
// GPU, cached on disk (runtime/core/kcache.h) and loaded with the runtime's library API
// (cudaLibraryLoadData, as Cuda\Compiler does: nothing links the driver library).
//
// Executors share one entry per (plan, device) in a small reference-counted list, so a second
// model object in the same process neither recompiles nor reloads.
#include "cuda_internal.cuh"
#include "rt_graph.h"
#include "rt_plan_jit.h"

#include "../core/kcache.h"

#include <limits.h>
#include <nvrtc.h>
#include <pthread.h>
#include <stdlib.h>

struct RtPlanKernels {
    const RtPlan *plan;
    int device;
    int refs;
    const char *source;        // "cubin", "nvrtc", "nvrtc-cache"
    cudaLibrary_t lib;         // the NVRTC image, loaded; NULL on the cubin path
    const void **owned;        // its kernels (cudaKernel_t), one per step
    const void *const *table;  // plan->cuda or owned
    RtPlanKernels *next;
};

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static RtPlanKernels *g_entries;

static bool force_jit(void) {
    const char *v = getenv("GTC_FORCE_JIT");
    return v && *v && strcmp(v, "0") != 0;
}

// The errors that mean "this image has no code for this GPU" (rather than a broken context).
static bool no_image_for_device(cudaError_t e) {
    return e == cudaErrorNoKernelImageForDevice || e == cudaErrorInvalidDeviceFunction ||
           e == cudaErrorInvalidKernelImage || e == cudaErrorInvalidPtx || e == cudaErrorUnsupportedPtxVersion;
}

// "sm_XY" when NVRTC can write SASS for the device, else "compute_XY" for the newest virtual
// architecture NVRTC has that the device can run (the driver JIT-compiles that PTX).
static int pick_arch(char *arch, size_t n) {
    int major = 0, minor = 0, num = 0, best = 0, archs[128];
    CU_TRY("cudaDeviceGetAttribute", cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, g_cuda.device));
    CU_TRY("cudaDeviceGetAttribute", cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, g_cuda.device));
    int cc = major * 10 + minor;
    if (nvrtcGetNumSupportedArchs(&num) != NVRTC_SUCCESS || num <= 0 || num > 128 ||
        nvrtcGetSupportedArchs(archs) != NVRTC_SUCCESS)
        num = 0;
    bool exact = num == 0;  // when NVRTC cannot say, try the exact architecture
    for (int i = 0; i < num; i++) {
        if (archs[i] == cc) exact = true;
        if (archs[i] <= cc && archs[i] > best) best = archs[i];
    }
    if (!exact && !best)
        return rt_error(RT_ERUNTIME, "NVRTC cannot compile for this GPU (compute capability %d.%d)", major, minor);
    snprintf(arch, n, "%s_%d", exact ? "sm" : "compute", exact ? cc : best);
    return 0;
}

// The options every plan's kernels are compiled with; part of the disk cache's key (jit).
#define NVRTC_STD "-std=c++17"
#define NVRTC_FMAD "--fmad=false"

extern "C" int rt_plan_nvrtc_compile(const char *src, const char *name, const char *arch, void **image, size_t *n,
                                     char **log) {
    *image = nullptr;
    *n = 0;
    if (log) *log = nullptr;
    bool cubin = strncmp(arch, "sm_", 3) == 0;
    char archopt[64];
    snprintf(archopt, sizeof archopt, "--gpu-architecture=%s", arch);
    // as nvcc builds kernels.cu (compiler/build.c): C++17, no FMA contraction (an elementwise
    // a * b + c rounds after each op, as eager ops do; products use gtc_fma on purpose)
    const char *opts[] = {archopt, NVRTC_STD, NVRTC_FMAD};
    nvrtcProgram prog = nullptr;
    nvrtcResult r = nvrtcCreateProgram(&prog, src, name, 0, nullptr, nullptr);
    if (r != NVRTC_SUCCESS) return rt_error(RT_ERUNTIME, "NVRTC error in nvrtcCreateProgram: %s", nvrtcGetErrorString(r));
    r = nvrtcCompileProgram(prog, (int)(sizeof opts / sizeof *opts), opts);
    size_t logn = 0;
    char *text = nullptr;
    if (nvrtcGetProgramLogSize(prog, &logn) == NVRTC_SUCCESS && logn > 1 && (text = (char *)malloc(logn + 1))) {
        if (nvrtcGetProgramLog(prog, text) != NVRTC_SUCCESS) text[0] = 0;
        text[logn] = 0;
    }
    int rc = 0;
    if (r != NVRTC_SUCCESS) {
        // the first diagnostic, on one line, names the problem; the whole log goes to *log
        char first[400] = "";
        if (text) {
            const char *e = strstr(text, "error");
            const char *s = e ? e : text;
            while (s > text && s[-1] != '\n') s--;
            snprintf(first, sizeof first, ": %.*s", (int)strcspn(s, "\n"), s);
        }
        rc = rt_error(RT_ECOMPILE, "NVRTC could not compile %s for %s (%s)%s", name, arch, nvrtcGetErrorString(r),
                      first);
    } else {
        size_t size = 0;
        r = cubin ? nvrtcGetCUBINSize(prog, &size) : nvrtcGetPTXSize(prog, &size);
        char *img = r == NVRTC_SUCCESS && size ? (char *)malloc(size) : nullptr;
        if (r == NVRTC_SUCCESS && !img) {
            rc = rt_error(RT_EOOM, "out of host memory");
        } else if (r == NVRTC_SUCCESS && (r = cubin ? nvrtcGetCUBIN(prog, img) : nvrtcGetPTX(prog, img)) == NVRTC_SUCCESS) {
            *image = img;
            *n = size;  // PTX: the size NVRTC gives includes the terminating NUL
        } else {
            free(img);
            rc = rt_error(RT_ERUNTIME, "NVRTC error reading the compiled %s: %s", name, nvrtcGetErrorString(r));
        }
    }
    if (log) *log = text;
    else free(text);
    nvrtcDestroyProgram(&prog);
    return rc;
}

static void unload(RtPlanKernels *k) {
    if (k->lib) {
        if (g_cuda.ready) cudaStreamSynchronize(g_cuda.stream);  // replays may still run
        cudaLibraryUnload(k->lib);
        cudaGetLastError();
        k->lib = nullptr;
    }
    free(k->owned);
    k->owned = nullptr;
}

// Loads an image and looks up each step's kernel, making sure the GPU can run it (lazy loading
// would otherwise defer that to the graph's instantiation). 0, or -1 after rt_error.
static int load_image(RtPlanKernels *k, const void *image) {
    const RtPlan *p = k->plan;
    cudaError_t e = cudaLibraryLoadData(&k->lib, image, nullptr, nullptr, 0, nullptr, nullptr, 0);
    if (e != cudaSuccess) {
        k->lib = nullptr;
        return cuda_fail("loading the plan's NVRTC kernels (cudaLibraryLoadData)", e);
    }
    if (!(k->owned = (const void **)calloc((size_t)p->nsteps + 1, sizeof *k->owned))) {
        unload(k);
        return rt_error(RT_EOOM, "out of host memory");
    }
    for (int i = 0; i < p->nsteps; i++) {
        cudaKernel_t kern = nullptr;
        cudaFuncAttributes a;
        e = cudaLibraryGetKernel(&kern, k->lib, p->steps[i].kernel);
        if (e == cudaSuccess) e = cudaFuncGetAttributes(&a, (const void *)kern);
        if (e != cudaSuccess) {
            char what[128];
            snprintf(what, sizeof what, "finding kernel %.60s in the plan's NVRTC image", p->steps[i].kernel);
            unload(k);
            return cuda_fail(what, e);
        }
        k->owned[i] = (const void *)kern;
    }
    k->table = k->owned;
    return 0;
}

// The NVRTC path: the disk cache when it holds a valid image that loads, else compile (and
// cache what loaded). 0, or -1 after rt_error.
static int jit(RtPlanKernels *k) {
    const RtPlan *p = k->plan;
    if (!p->cuda_source || !*p->cuda_source)
        return rt_error(RT_ERUNTIME, "plan %s has no kernels.cu text to compile for this GPU", p->graph);
    char arch[32], toolchain[64], dir[PATH_MAX], path[PATH_MAX + 32];
    if (pick_arch(arch, sizeof arch)) return -1;
    int rtv = 0, nvmaj = 0, nvmin = 0;
    cudaRuntimeGetVersion(&rtv);
    nvrtcVersion(&nvmaj, &nvmin);
    snprintf(toolchain, sizeof toolchain, "cudart %d nvrtc %d.%d " NVRTC_STD " " NVRTC_FMAD, rtv, nvmaj, nvmin);
    uint64_t key = rt_kcache_key(p->cuda_source, arch, toolchain, GTC_VERSION);
    bool disk = rt_kcache_dir(dir, sizeof dir) == 0 && rt_kcache_path(path, sizeof path, dir, key) == 0;
    size_t n = 0;
    void *image = disk ? rt_kcache_read(path, key, &n) : nullptr;
    if (image) {
        int rc = load_image(k, image);
        free(image);
        if (rc == 0) {
            k->source = "nvrtc-cache";
            return 0;
        }
        rt_clear_error();  // a stale or foreign entry: compile afresh and replace it
    }
    char name[96];
    snprintf(name, sizeof name, "%.80s/kernels.cu", p->graph);
    if (rt_plan_nvrtc_compile(p->cuda_source, name, arch, &image, &n, nullptr)) return -1;
    int rc = load_image(k, image);
    if (rc == 0) {
        k->source = "nvrtc";
        if (disk) rt_kcache_write(path, key, image, n);  // best effort: a failure only costs a recompile
    }
    free(image);
    return rc;
}

extern "C" RtPlanKernels *rt_plan_kernels_get(const RtPlan *plan) {
    if (cuda_check_ready("plan kernels")) return nullptr;
    pthread_mutex_lock(&g_lock);
    RtPlanKernels *k;
    for (k = g_entries; k; k = k->next)
        if (k->plan == plan && k->device == g_cuda.device) {
            k->refs++;
            pthread_mutex_unlock(&g_lock);
            return k;
        }
    if (!(k = (RtPlanKernels *)calloc(1, sizeof *k))) {
        pthread_mutex_unlock(&g_lock);
        rt_error(RT_EOOM, "out of host memory");
        return nullptr;
    }
    k->plan = plan;
    k->device = g_cuda.device;
    k->refs = 1;
    int rc = 0;
    bool use_jit = force_jit() || !plan->cuda;
    if (!use_jit) {
        cudaFuncAttributes a;
        cudaError_t e = plan->nsteps ? cudaFuncGetAttributes(&a, plan->cuda[0]) : cudaSuccess;
        if (e == cudaSuccess) {
            k->table = plan->cuda;
            k->source = "cubin";
        } else if (no_image_for_device(e)) {
            cudaGetLastError();
            use_jit = true;
        } else {
            rc = cuda_fail("checking the model's CUDA kernels", e);
        }
    }
    if (!rc && use_jit) rc = jit(k);
    if (rc) {
        pthread_mutex_unlock(&g_lock);
        free(k);
        return nullptr;
    }
    k->next = g_entries;
    g_entries = k;
    pthread_mutex_unlock(&g_lock);
    return k;
}

extern "C" const void *const *rt_plan_kernels_table(const RtPlanKernels *k) { return k->table; }
extern "C" const char *rt_plan_kernels_source(const RtPlanKernels *k) { return k->source; }

extern "C" void rt_plan_kernels_release(RtPlanKernels *k) {
    if (!k) return;
    pthread_mutex_lock(&g_lock);
    bool last = --k->refs == 0;
    if (last)
        for (RtPlanKernels **pp = &g_entries; *pp; pp = &(*pp)->next)
            if (*pp == k) {
                *pp = k->next;
                break;
            }
    pthread_mutex_unlock(&g_lock);
    if (!last) return;
    unload(k);
    free(k);
}

// ---- the plan operations of the CUDA backend (RtBackend.plan, runtime/core/exec.h) -------------
// The kernels above, replayed as one CUDA Graph (cuda_graph.cu) built on the first run.

static void *plan_kernels_get(const RtPlan *p) {
    if (!p->cuda && !p->cuda_source) { // a model compiled with --cpu-only
        rt_error(RT_EUNSUPPORTED, "plan %s has no CUDA code for the cuda backend", p->graph);
        return nullptr;
    }
    return rt_plan_kernels_get(p);
}
static const char *plan_kernels_source(const void *k) { return ((const RtPlanKernels *)k)->source; }
static void plan_kernels_release(void *k) { rt_plan_kernels_release((RtPlanKernels *)k); }

static int plan_run(void **state, const RtPlan *p, void *k, const void *args, size_t nbytes) {
    if (*state && rt_cuda_graph_stale((RtCudaGraph *)*state)) { /* a world joined or left since: capture again */
        rt_cuda_graph_free((RtCudaGraph *)*state);
        *state = NULL;
    }
    for (int attempt = 0; attempt < 2; attempt++) {
        if (!*state) *state = rt_cuda_graph_new(p, rt_plan_kernels_table((RtPlanKernels *)k), args, nbytes);
        const int r = *state ? rt_cuda_graph_launch((RtCudaGraph *)*state, args, nbytes) : -1;
        if (r != RT_GRAPH_RESHAPED) return r;
        rt_cuda_graph_free((RtCudaGraph *)*state); /* built from these pointers, it launches as is */
        *state = NULL;
    }
    rt_error(RT_ERUNTIME, "plan %s: its CUDA graph changed shape right after it was built", p->graph);
    return -1;
}
static void plan_state_free(void *state) { rt_cuda_graph_free((RtCudaGraph *)state); }
static const char *plan_source(const RtPlan *p) { return p->cuda_source; }

extern "C" const RtPlanOps rt_cuda_plan_ops = {
    "cuda-graph", plan_kernels_get, plan_kernels_source, plan_kernels_release, plan_run, plan_state_free, plan_source,
};
