// runtime/cuda/cuda_nvrtc.cu: user kernels (rt_kernel.h): NVRTC compiles CUDA C++ for the
// current device's architecture, the CUDA runtime's library API (cudaLibraryLoadData, CUDA 12+)
// loads the image into the runtime's primary context without linking the driver library, and
// kernels launch through cudaLaunchKernel on the context's stream. Parameter types come from the
// PTX entry signatures, so callers can convert PHP values to exactly what each kernel takes.
#include "cuda_internal.cuh"
#include "rt_kernel.h"

#include <ctype.h>
#include <nvrtc.h>
#include <stdlib.h>

struct Kernel {
    char *name;    // what users call it (a name expression, or the symbol)
    char *symbol;  // the PTX entry name
    RtParam *params;
    int nparams;
    cudaKernel_t handle;  // looked up at first launch
    size_t shared_optin;  // dynamic shared memory opted into so far
};

struct RtModule {
    char *log;
    char *ptx;
    char arch[32];
    cudaLibrary_t lib;
    Kernel *k;
    int nk;
};

static char *dup_n(const char *s, size_t n) {
    char *d = (char *)malloc(n + 1);
    if (!d) return nullptr;
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

static char *dup_s(const char *s) { return dup_n(s, strlen(s)); }

static void kernels_free(RtModule *m) {
    for (int i = 0; i < m->nk; i++) {
        free(m->k[i].name);
        free(m->k[i].symbol);
        free(m->k[i].params);
    }
    free(m->k);
    m->k = nullptr;
    m->nk = 0;
}

// ---- PTX entry signatures ------------------------------------------------------------------------
//
// `.visible .entry saxpy(\n .param .f32 saxpy_param_0,\n .param .u64 .ptr .align 4 saxpy_param_1\n)`:
// one `.param` per kernel parameter with its PTX type; aggregates are `.b8 name[N]` arrays.

static RtParam parse_param(const char *s, size_t n) {
    RtParam p = {RT_PARAM_OTHER, 0};
    if (memchr(s, '[', n)) return p;  // struct, array, __half: passed as bytes we cannot fill
    for (size_t i = 0; i + 2 < n; i++) {
        if (s[i] != '.' || (i > 0 && !isspace((unsigned char)s[i - 1]))) continue;
        char c = s[i + 1];
        if (c != 'u' && c != 's' && c != 'b' && c != 'f') continue;
        size_t j = i + 2;
        int bits = 0;
        while (j < n && isdigit((unsigned char)s[j])) bits = bits * 10 + (s[j++] - '0');
        if (j < n && !isspace((unsigned char)s[j])) continue;  // .shared, .global, .ptr ...
        if (c == 'f') {
            if (bits == 32 || bits == 64) p = RtParam{RT_PARAM_FLOAT, bits / 8};
        } else if (bits == 8 || bits == 16 || bits == 32 || bits == 64) {
            p = RtParam{RT_PARAM_INT, bits / 8};
        }
        return p;
    }
    return p;
}

static int parse_entries(RtModule *m) {
    const char *ptx = m->ptx;
    for (const char *p = strstr(ptx, ".entry"); p; p = strstr(p + 6, ".entry")) {
        if ((p != ptx && !isspace((unsigned char)p[-1])) || !isspace((unsigned char)p[6])) continue;
        const char *ls = p;
        while (ls > ptx && ls[-1] != '\n') ls--;
        bool comment = false;
        for (const char *q = ls; q + 1 < p; q++) comment = comment || (q[0] == '/' && q[1] == '/');
        if (comment) continue;
        const char *q = p + 6;
        while (isspace((unsigned char)*q)) q++;
        const char *ne = q;
        while (*ne && *ne != '(' && !isspace((unsigned char)*ne)) ne++;
        const char *open = ne;
        while (isspace((unsigned char)*open)) open++;
        const char *close = *open == '(' ? strchr(open, ')') : nullptr;
        if (ne == q || !close) return rt_error(RT_ERUNTIME, "cannot read the kernel signatures in NVRTC's PTX");
        Kernel *nk = (Kernel *)realloc(m->k, (size_t)(m->nk + 1) * sizeof *nk);
        if (!nk) return rt_error(RT_EOOM, "out of host memory");
        m->k = nk;
        Kernel *k = &m->k[m->nk++];
        memset(k, 0, sizeof *k);
        k->symbol = dup_n(q, (size_t)(ne - q));
        k->name = dup_n(q, (size_t)(ne - q));
        if (!k->symbol || !k->name) return rt_error(RT_EOOM, "out of host memory");
        for (const char *s = open + 1; s < close;) {
            const char *e = s;
            while (e < close && *e != ',') e++;
            const char *t = s;
            while (t < e && isspace((unsigned char)*t)) t++;
            if (t < e) {
                if (strncmp(t, ".param", 6) != 0)
                    return rt_error(RT_ERUNTIME, "cannot read the signature of kernel %s in NVRTC's PTX", k->symbol);
                RtParam *np = (RtParam *)realloc(k->params, (size_t)(k->nparams + 1) * sizeof *np);
                if (!np) return rt_error(RT_EOOM, "out of host memory");
                k->params = np;
                k->params[k->nparams++] = parse_param(t + 6, (size_t)(e - t - 6));
            }
            s = e + 1;
        }
        p = close;
    }
    return 0;
}

// ---- compiling and loading -----------------------------------------------------------------------

// The architecture option: the device's own sm_XY when NVRTC knows it (a cubin, no JIT), else
// PTX for the newest virtual architecture NVRTC has that the device can run.
static int pick_arch(char *opt, size_t n, char *arch, size_t an, bool *cubin) {
    int major = 0, minor = 0;
    CU_TRY("cudaDeviceGetAttribute", cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, g_cuda.device));
    CU_TRY("cudaDeviceGetAttribute", cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, g_cuda.device));
    int cc = major * 10 + minor, num = 0, best = 0;
    int archs[128];
    if (nvrtcGetNumSupportedArchs(&num) != NVRTC_SUCCESS || num <= 0 || num > 128 ||
        nvrtcGetSupportedArchs(archs) != NVRTC_SUCCESS)
        num = 0;
    bool exact = num == 0;  // when NVRTC cannot say, try the exact architecture
    for (int i = 0; i < num; i++) {
        if (archs[i] == cc) exact = true;
        if (archs[i] <= cc && archs[i] > best) best = archs[i];
    }
    if (!exact && !best)
        return rt_error(RT_ERUNTIME, "NVRTC cannot compile for this device (compute capability %d.%d)", major, minor);
    *cubin = exact;
    snprintf(arch, an, "%s_%d", exact ? "sm" : "compute", exact ? cc : best);
    snprintf(opt, n, "--gpu-architecture=%s", arch);
    return 0;
}

static int nvrtc_fail(const char *what, nvrtcResult r) {
    return rt_error(RT_ERUNTIME, "NVRTC error in %s: %s", what, nvrtcGetErrorString(r));
}

#define NV_TRY(what, call)                                                                          \
    do {                                                                                            \
        nvrtcResult r_ = (call);                                                                    \
        if (r_ != NVRTC_SUCCESS) {                                                                  \
            nvrtc_fail(what, r_);                                                                   \
            goto fail;                                                                              \
        }                                                                                           \
    } while (0)

extern "C" {

RtModule *rt_module_compile(const char *src, const char *name, const char *const *opts, int nopts,
                            const char *const *names, int nnames, char **log) {
    if (log) *log = nullptr;
    if (cuda_check_ready("Cuda\\Compiler")) return nullptr;
    char archopt[64];
    bool cubin = false;
    RtModule *m = (RtModule *)calloc(1, sizeof *m);
    if (!m) {
        rt_error(RT_EOOM, "out of host memory");
        return nullptr;
    }
    if (pick_arch(archopt, sizeof archopt, m->arch, sizeof m->arch, &cubin)) {
        free(m);
        return nullptr;
    }
    nvrtcProgram prog = nullptr;
    const char **argv = (const char **)malloc((size_t)(nopts + 1) * sizeof *argv);
    char *image = nullptr;
    size_t logn = 0, n = 0;
    nvrtcResult r;
    cudaError_t e;
    if (!argv) {
        rt_error(RT_EOOM, "out of host memory");
        goto fail;
    }
    argv[0] = archopt;
    for (int i = 0; i < nopts; i++) argv[i + 1] = opts[i];
    NV_TRY("nvrtcCreateProgram", nvrtcCreateProgram(&prog, src, name, 0, nullptr, nullptr));
    for (int i = 0; i < nnames; i++) NV_TRY("nvrtcAddNameExpression", nvrtcAddNameExpression(prog, names[i]));
    r = nvrtcCompileProgram(prog, nopts + 1, argv);
    if (nvrtcGetProgramLogSize(prog, &logn) == NVRTC_SUCCESS && logn > 0 && (m->log = (char *)malloc(logn + 1))) {
        if (nvrtcGetProgramLog(prog, m->log) != NVRTC_SUCCESS) m->log[0] = 0;
        m->log[logn] = 0;
        size_t len = strlen(m->log);  // NVRTC ends the log with a newline; keep it tidy
        while (len > 0 && (m->log[len - 1] == '\n' || m->log[len - 1] == ' ')) m->log[--len] = 0;
    }
    if (!m->log && !(m->log = dup_s(""))) {
        rt_error(RT_EOOM, "out of host memory");
        goto fail;
    }
    if (r != NVRTC_SUCCESS) {
        if (r == NVRTC_ERROR_COMPILATION || r == NVRTC_ERROR_INVALID_OPTION ||
            r == NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID)
            rt_error(RT_ECOMPILE, "compilation of %s failed (%s)", name, nvrtcGetErrorString(r));
        else
            nvrtc_fail("nvrtcCompileProgram", r);
        if (log) {
            *log = m->log;
            m->log = nullptr;
        }
        goto fail;
    }
    NV_TRY("nvrtcGetPTXSize", nvrtcGetPTXSize(prog, &n));
    if (!(m->ptx = (char *)malloc(n + 1))) {
        rt_error(RT_EOOM, "out of host memory");
        goto fail;
    }
    NV_TRY("nvrtcGetPTX", nvrtcGetPTX(prog, m->ptx));
    m->ptx[n] = 0;
    if (parse_entries(m)) goto fail;
    for (int i = 0; i < nnames; i++) {  // show C++ kernels by the expression that named them
        const char *lowered = nullptr;
        NV_TRY("nvrtcGetLoweredName", nvrtcGetLoweredName(prog, names[i], &lowered));
        for (int j = 0; j < m->nk; j++) {
            if (strcmp(m->k[j].symbol, lowered) != 0) continue;
            char *d = dup_s(names[i]);
            if (!d) {
                rt_error(RT_EOOM, "out of host memory");
                goto fail;
            }
            free(m->k[j].name);
            m->k[j].name = d;
        }
    }
    if (cubin) {
        NV_TRY("nvrtcGetCUBINSize", nvrtcGetCUBINSize(prog, &n));
        if (!(image = (char *)malloc(n))) {
            rt_error(RT_EOOM, "out of host memory");
            goto fail;
        }
        NV_TRY("nvrtcGetCUBIN", nvrtcGetCUBIN(prog, image));
    }
    e = cudaLibraryLoadData(&m->lib, cubin ? (const void *)image : (const void *)m->ptx, nullptr, nullptr, 0,
                            nullptr, nullptr, 0);
    if (e != cudaSuccess) {
        cuda_fail("cudaLibraryLoadData", e);
        m->lib = nullptr;
        goto fail;
    }
    free(image);
    free(argv);
    nvrtcDestroyProgram(&prog);
    return m;
fail:
    free(image);
    free(argv);
    if (prog) nvrtcDestroyProgram(&prog);
    rt_module_free(m);
    return nullptr;
}

void rt_module_free(RtModule *m) {
    if (!m) return;
    if (m->lib) {
        cudaStreamSynchronize(g_cuda.stream);  // launched kernels may still run
        cudaLibraryUnload(m->lib);
        cudaGetLastError();
    }
    kernels_free(m);
    free(m->log);
    free(m->ptx);
    free(m);
}

const char *rt_module_log(const RtModule *m) { return m->log ? m->log : ""; }
const char *rt_module_ptx(const RtModule *m) { return m->ptx ? m->ptx : ""; }
const char *rt_module_arch(const RtModule *m) { return m->arch; }
int rt_module_kernel_count(const RtModule *m) { return m->nk; }
const char *rt_module_kernel_name(const RtModule *m, int k) { return m->k[k].name; }
int rt_module_param_count(const RtModule *m, int k) { return m->k[k].nparams; }
RtParam rt_module_param(const RtModule *m, int k, int i) { return m->k[k].params[i]; }

int rt_module_find(const RtModule *m, const char *name) {
    for (int i = 0; i < m->nk; i++)
        if (!strcmp(m->k[i].name, name)) return i;
    for (int i = 0; i < m->nk; i++)
        if (!strcmp(m->k[i].symbol, name)) return i;
    char list[512] = "";
    size_t len = 0;
    for (int i = 0; i < m->nk && len < sizeof list; i++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", m->k[i].name);
    if (!m->nk)
        return rt_error(RT_EINVAL, "no kernel named '%s': the program defines no kernels (declare them "
                        "extern \"C\" __global__)", name);
    return rt_error(RT_EINVAL, "no kernel named '%s' (kernels: %s%s)", name, list,
                    len >= sizeof list ? "..." : "");
}

int rt_kernel_limits(RtLaunchLimits *out) {
    if (cuda_check_ready("Cuda\\Compiler")) return -1;
    static RtLaunchLimits cached;
    static int cached_for = -1;
    if (cached_for != g_cuda.device) {
        RtLaunchLimits l;
        const cudaDeviceAttr block[3] = {cudaDevAttrMaxBlockDimX, cudaDevAttrMaxBlockDimY, cudaDevAttrMaxBlockDimZ};
        const cudaDeviceAttr grid[3] = {cudaDevAttrMaxGridDimX, cudaDevAttrMaxGridDimY, cudaDevAttrMaxGridDimZ};
        int d = g_cuda.device;
        CU_TRY("cudaDeviceGetAttribute", cudaDeviceGetAttribute(&l.max_threads_per_block, cudaDevAttrMaxThreadsPerBlock, d));
        CU_TRY("cudaDeviceGetAttribute", cudaDeviceGetAttribute(&l.max_shared_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, d));
        for (int i = 0; i < 3; i++) {
            CU_TRY("cudaDeviceGetAttribute", cudaDeviceGetAttribute(&l.max_block[i], block[i], d));
            CU_TRY("cudaDeviceGetAttribute", cudaDeviceGetAttribute(&l.max_grid[i], grid[i], d));
        }
        cached = l;
        cached_for = d;
    }
    *out = cached;
    return 0;
}

int rt_module_launch(RtModule *m, int k, const unsigned grid[3], const unsigned block[3], size_t shared_mem,
                     void **args) {
    if (cuda_check_ready("Cuda\\Compiler::launch")) return -1;
    Kernel *kk = &m->k[k];
    char what[300];
    snprintf(what, sizeof what, "launch of %s", kk->name);
    cudaError_t e;
    if (!kk->handle && (e = cudaLibraryGetKernel(&kk->handle, m->lib, kk->symbol)) != cudaSuccess) {
        kk->handle = nullptr;
        return cuda_fail(what, e);
    }
    if (shared_mem > ((size_t)48 << 10) && shared_mem > kk->shared_optin) {
        e = cudaFuncSetAttribute((const void *)kk->handle, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared_mem);
        if (e != cudaSuccess) return cuda_fail(what, e);
        kk->shared_optin = shared_mem;
    }
    e = cudaLaunchKernel((const void *)kk->handle, dim3(grid[0], grid[1], grid[2]), dim3(block[0], block[1], block[2]),
                         args, shared_mem, g_cuda.stream);
    return e == cudaSuccess ? 0 : cuda_fail(what, e);
}

int rt_nvrtc_version(int *major, int *minor) {
    *major = *minor = 0;
    return nvrtcVersion(major, minor) == NVRTC_SUCCESS ? 0 : -1;
}

const RtModuleOps rt_cuda_module_ops = {
    rt_module_compile,     rt_module_free,        rt_module_log,     rt_module_ptx,
    rt_module_kernel_count, rt_module_kernel_name, rt_module_find,   rt_module_param_count,
    rt_module_param,       rt_kernel_limits,      rt_module_launch,  rt_nvrtc_version,
};

}  // extern "C"
