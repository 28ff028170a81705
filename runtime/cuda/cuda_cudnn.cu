// runtime/cuda/cuda_cudnn.cu: cuDNN's convolution for the eager conv2d shapes where it beats
// gtc's own planned im2col + GEMM (runtime/php/eager_plan.c), loaded at run time.
//
// Why a library here: gtc's planned convolution materialises its im2col columns (C·kH·kW values
// per output pixel), which on a small model is one cheap kernel but on a large layer (x
// [32,64,56,56] by w [64,64,3,3]: 231 MB of columns written and read again) is what makes it
// twice as slow as cuDNN's implicit-GEMM kernels, which never write them. The choice is per
// shape (issue #19): from CONV_LIB_MACS multiply-adds (scaled by the SM count) and where
// cuDNN takes the operands (float32, contiguous, symmetric pads), cuDNN; below it gtc's plan,
// which is several times faster on small layers (one CUDA Graph, no library dispatch).
// GTC_CONV=cudnn|gtc|auto overrides the choice (benchmarks, tests).
//
// cuDNN is optional: dlopen("libcudnn.so.9") (or GTC_CUDNN_LIBRARY) on first use, so gtc.so
// loads and works where it is missing; the header is only needed to build (it ships with this
// project's CUDA toolkit; __has_include leaves the whole file a stub without it). Only the
// forward pass: eager ops with an autograd history or under a trace are recorded as their
// primitives (eager_plan.c), and compiled steps use the planner's kernels.
#include "cuda_internal.cuh"

#include <dlfcn.h>
#include <stdlib.h>

#if __has_include(<cudnn.h>)
#include <cudnn.h>
#define GTC_HAVE_CUDNN 1
#endif

// A convolution of at least this many multiply-adds (about 100 M) goes to cuDNN on a 132-SM GPU
// (scaled by the SM count): measured on the H200 (bench/cnn.sh, bench/README.md), gtc's plan
// wins up to 75 M (the digits CNN's layers: 9 us against cuDNN's 38) and cuDNN from 113 M
// (41 us against 60) to a ResNet layer's 3.7 G (167 us against 482).
#define CONV_LIB_MACS ((int64_t)3 << 25)

#ifdef GTC_HAVE_CUDNN

// The cuDNN entry points used, called through pointers of the header's own types.
#define DN_FNS(X)                                                                                 \
    X(cudnnGetVersion) X(cudnnGetErrorString) X(cudnnCreate) X(cudnnDestroy) X(cudnnSetStream)    \
    X(cudnnCreateTensorDescriptor) X(cudnnSetTensor4dDescriptor) X(cudnnDestroyTensorDescriptor)  \
    X(cudnnCreateFilterDescriptor) X(cudnnSetFilter4dDescriptor) X(cudnnDestroyFilterDescriptor)  \
    X(cudnnCreateConvolutionDescriptor) X(cudnnSetConvolution2dDescriptor)                        \
    X(cudnnSetConvolutionGroupCount) X(cudnnSetConvolutionMathType)                               \
    X(cudnnDestroyConvolutionDescriptor) X(cudnnGetConvolution2dForwardOutputDim)                 \
    X(cudnnFindConvolutionForwardAlgorithm) X(cudnnGetConvolutionForwardWorkspaceSize)            \
    X(cudnnConvolutionForward) X(cudnnAddTensor)

static struct {
    int state;  // 0 not tried, 1 loaded, -1 missing
    void *lib;
    char why[256];  // why it is missing
    cudnnHandle_t h;
#define DN_PTR(f) decltype(&::f) f;
    DN_FNS(DN_PTR)
#undef DN_PTR
} dn;

// Loads the library once; false (with dn.why) when it is not there or lacks an entry point.
static bool dn_load(void) {
    if (dn.state) return dn.state > 0;
    const char *path = getenv("GTC_CUDNN_LIBRARY");
    if (!path || !*path) path = "libcudnn.so.9";
    dn.state = -1;
    if (!(dn.lib = dlopen(path, RTLD_NOW | RTLD_LOCAL))) {
        snprintf(dn.why, sizeof dn.why, "%s", dlerror());
        return false;
    }
#define DN_SYM(f)                                                                      \
    if (!(dn.f = (decltype(dn.f))dlsym(dn.lib, #f))) {                                 \
        snprintf(dn.why, sizeof dn.why, "%s has no %s", path, #f);                     \
        return false;                                                                  \
    }
    DN_FNS(DN_SYM)
#undef DN_SYM
    // libcudnn.so.9 is a loader for the sub-libraries that hold the kernels; a version older
    // than the header's major one would lack them
    if (dn.cudnnGetVersion() / 10000 != CUDNN_MAJOR) {
        snprintf(dn.why, sizeof dn.why, "%s is cuDNN %zu, built for %d", path, dn.cudnnGetVersion(), CUDNN_MAJOR);
        return false;
    }
    dn.state = 1;
    return true;
}

// A failure while setting up (descriptors, the handle, choosing an algorithm): cuDNN is set
// aside for the rest of the process with the reason (cuda_conv_library says it) and the
// convolution declined, so a broken installation costs speed, not results. A failure of the
// convolution itself is the op's error.
#define DN_SETUP(what, call)                                                                   \
    do {                                                                                       \
        cudnnStatus_t s_ = (call);                                                             \
        if (s_ != CUDNN_STATUS_SUCCESS) {                                                      \
            snprintf(dn.why, sizeof dn.why, "%s: %s", what, dn.cudnnGetErrorString(s_));       \
            dn.state = -1, rc = 0;                                                             \
            goto done;                                                                         \
        }                                                                                      \
    } while (0)
#define DN_RUN(what, call)                                                                     \
    do {                                                                                       \
        cudnnStatus_t s_ = (call);                                                             \
        if (s_ != CUDNN_STATUS_SUCCESS) {                                                      \
            rt_error(s_ == CUDNN_STATUS_ALLOC_FAILED ? RT_EOOM : RT_ERUNTIME, "cuda conv2d: %s: %s", what, \
                     dn.cudnnGetErrorString(s_));                                              \
            goto done;                                                                         \
        }                                                                                      \
    } while (0)

// One convolution shape as cuDNN sees it: its descriptors, the algorithm chosen for it
// (cudnnFindConvolutionForwardAlgorithm: each candidate timed once, as PyTorch's cudnn.benchmark
// does) and its workspace size. Kept (DN_CONVS, the oldest replaced) so that a shape is measured
// once per process, always runs the same kernels, and a call costs only the convolution: cuDNN
// 9's legacy API spends tens of microseconds per call on descriptors made afresh (measured on
// the H200: 60-70 us per call before these were kept).
typedef struct {
    int64_t key[16];
    cudnnTensorDescriptor_t xd, yd, bd;
    cudnnFilterDescriptor_t wd;
    cudnnConvolutionDescriptor_t cd;
    cudnnConvolutionFwdAlgo_t algo;
    size_t workspace;
    int y[4];
} DnConv;
#define DN_CONVS 16
static DnConv dn_conv[DN_CONVS];
static int dn_nconv, dn_next;

static void dn_conv_free(DnConv *c) {
    if (c->bd) dn.cudnnDestroyTensorDescriptor(c->bd);
    if (c->xd) dn.cudnnDestroyTensorDescriptor(c->xd);
    if (c->yd) dn.cudnnDestroyTensorDescriptor(c->yd);
    if (c->wd) dn.cudnnDestroyFilterDescriptor(c->wd);
    if (c->cd) dn.cudnnDestroyConvolutionDescriptor(c->cd);
    memset(c, 0, sizeof *c);
}

#endif  // GTC_HAVE_CUDNN

extern "C" const char *cuda_conv_library(char *buf, size_t n) {
#ifdef GTC_HAVE_CUDNN
    if (dn_load()) {
        size_t v = dn.cudnnGetVersion();
        snprintf(buf, n, "cuDNN %zu.%zu.%zu", v / 10000, v / 100 % 100, v % 100);
    } else {
        snprintf(buf, n, "none (cuDNN not loaded: %s)", dn.why);
    }
#else
    snprintf(buf, n, "none (built without cudnn.h)");
#endif
    return buf;
}

// 0: gtc's plan, 1: cuDNN, 2: decide by size (GTC_CONV, read once).
static int conv_mode(void) {
    static int m = -1;
    if (m < 0) {
        const char *e = getenv("GTC_CONV");
        m = e && strcmp(e, "gtc") == 0 ? 0 : e && strcmp(e, "cudnn") == 0 ? 1 : 2;
    }
    return m;
}

// out = conv2d(x, w) + b through cuDNN when the shape is worth it and cuDNN takes it: 1 done
// (*out set, or NULL after rt_error), 0 declined (the caller runs gtc's plan). The operands
// were checked by rt_conv2d_library (ops.c): NCHW float32, o[4] the output shape, p the window.
extern "C" int cuda_conv2d(RtTensor **out, const RtTensor *x, const RtTensor *w, const RtTensor *b,
                           const RtConvWindow *p, const int64_t *o) {
    int mode = conv_mode();
    if (mode == 0) return 0;
    int64_t macs = o[0] * o[1] * o[2] * o[3] * w->shape[1] * w->shape[2] * w->shape[3];
    int64_t sms = g_cuda.sms > 0 ? g_cuda.sms : 132;
    if (mode == 2 && macs < CONV_LIB_MACS / 132 * sms) return 0;
    if (p->pad[0] != p->pad[2] || p->pad[1] != p->pad[3] || x->dtype != DT_FLOAT32) return 0;
    for (int64_t v : {x->shape[0], x->shape[1], x->shape[2], x->shape[3], o[1], o[2], o[3], p->group})
        if (v > INT32_MAX) return 0;
#ifndef GTC_HAVE_CUDNN
    return 0;
#else
    if (cuda_check_ready("conv2d") || !dn_load()) return 0;
    int rc = 1;
    void *ws = nullptr;
    RtTensor *y = nullptr;
    DnConv *c = nullptr, made = {};
    const float one = 1.0f, zero = 0.0f;
    int64_t key[16] = {x->shape[0], x->shape[1], x->shape[2], x->shape[3], w->shape[0], w->shape[2], w->shape[3],
                       p->pad[0],   p->pad[1],   p->stride[0], p->stride[1], p->dilation[0], p->dilation[1],
                       p->group,    g_cuda.tf32, b != nullptr};
    *out = nullptr;
    for (int i = 0; i < dn_nconv && !c; i++)
        if (!memcmp(dn_conv[i].key, key, sizeof key)) c = &dn_conv[i];
    if (!c) {  // a new shape: its descriptors, its algorithm
        DnConv *d = &made;
        int *yo = d->y;
        memcpy(d->key, key, sizeof key);
        if (!dn.h) {
            DN_SETUP("cudnnCreate", dn.cudnnCreate(&dn.h));
            DN_SETUP("cudnnSetStream", dn.cudnnSetStream(dn.h, g_cuda.stream));
        }
        DN_SETUP("descriptor", dn.cudnnCreateTensorDescriptor(&d->xd));
        DN_SETUP("descriptor", dn.cudnnCreateTensorDescriptor(&d->yd));
        DN_SETUP("descriptor", dn.cudnnCreateFilterDescriptor(&d->wd));
        DN_SETUP("descriptor", dn.cudnnCreateConvolutionDescriptor(&d->cd));
        DN_SETUP("input descriptor", dn.cudnnSetTensor4dDescriptor(d->xd, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, (int)x->shape[0],
                                                                 (int)x->shape[1], (int)x->shape[2], (int)x->shape[3]));
        DN_SETUP("filter descriptor", dn.cudnnSetFilter4dDescriptor(d->wd, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW,
                                                                  (int)w->shape[0], (int)w->shape[1], (int)w->shape[2],
                                                                  (int)w->shape[3]));
        DN_SETUP("convolution descriptor",
                 dn.cudnnSetConvolution2dDescriptor(d->cd, (int)p->pad[0], (int)p->pad[1], (int)p->stride[0],
                                                    (int)p->stride[1], (int)p->dilation[0], (int)p->dilation[1],
                                                    CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
        DN_SETUP("group count", dn.cudnnSetConvolutionGroupCount(d->cd, (int)p->group));
        // strict FP32 unless eager products may use TF32 (cuda_set_matmul_precision), as for matmul
        DN_SETUP("math type", dn.cudnnSetConvolutionMathType(d->cd, g_cuda.tf32 ? CUDNN_DEFAULT_MATH : CUDNN_FMA_MATH));
        DN_SETUP("output size", dn.cudnnGetConvolution2dForwardOutputDim(d->cd, d->xd, d->wd, &yo[0], &yo[1], &yo[2], &yo[3]));
        if (yo[0] != o[0] || yo[1] != o[1] || yo[2] != o[2] || yo[3] != o[3]) {  // not the ONNX size: gtc's
            rc = 0;
            goto done;
        }
        DN_SETUP("output descriptor",
                 dn.cudnnSetTensor4dDescriptor(d->yd, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, yo[0], yo[1], yo[2], yo[3]));
        if (b) {
            DN_SETUP("descriptor", dn.cudnnCreateTensorDescriptor(&d->bd));
            DN_SETUP("bias descriptor", dn.cudnnSetTensor4dDescriptor(d->bd, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, yo[1], 1, 1));
        }
        cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
        int got = 0, pick = -1;
        DN_SETUP("choosing an algorithm", dn.cudnnFindConvolutionForwardAlgorithm(dn.h, d->xd, d->wd, d->cd, d->yd,
                                                                                 CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &got, perf));
        // fastest first; strict FP32 takes only FMA kernels (a TF32 one may come back otherwise)
        for (int i = 0; i < got && pick < 0; i++)
            if (perf[i].status == CUDNN_STATUS_SUCCESS && (g_cuda.tf32 || perf[i].mathType == CUDNN_FMA_MATH)) pick = i;
        if (pick < 0) {
            rc = 0;
            goto done;
        }
        d->algo = perf[pick].algo;
        DN_SETUP("math type", dn.cudnnSetConvolutionMathType(d->cd, perf[pick].mathType));
        DN_SETUP("workspace size",
                 dn.cudnnGetConvolutionForwardWorkspaceSize(dn.h, d->xd, d->wd, d->cd, d->yd, d->algo, &d->workspace));
        c = &dn_conv[dn_nconv < DN_CONVS ? dn_nconv++ : (dn_next++ % DN_CONVS)];
        dn_conv_free(c);
        *c = made;
        made = DnConv{};
    }
    if (c->workspace && !(ws = cuda_alloc(c->workspace))) goto done;  // rt_error(RT_EOOM) was set
    {
        int64_t shape[4] = {c->y[0], c->y[1], c->y[2], c->y[3]};
        if (!(y = rt_empty(&rt_cuda_backend, DT_FLOAT32, 4, shape))) goto done;
    }
    DN_RUN("cudnnConvolutionForward", dn.cudnnConvolutionForward(dn.h, &one, c->xd, rt_data(x), c->wd, rt_data(w), c->cd,
                                                                 c->algo, ws, c->workspace, &zero, c->yd, rt_data(y)));
    if (b) DN_RUN("bias", dn.cudnnAddTensor(dn.h, &one, c->bd, rt_data(b), &one, c->yd, rt_data(y)));
    *out = y;
    y = nullptr;
done:
    if (ws) cuda_free(ws);  // stream-ordered: the next op may reuse it after the convolution
    rt_release(y);
    dn_conv_free(&made);  // a shape cuDNN declined, or set aside half made
    return rc;
#endif
}

// Called by rt_cuda_shutdown before the stream goes.
extern "C" void cuda_cudnn_shutdown(void) {
#ifdef GTC_HAVE_CUDNN
    for (int i = 0; i < dn_nconv; i++) dn_conv_free(&dn_conv[i]);
    if (dn.h) dn.cudnnDestroy(dn.h);
    dn.h = nullptr;
    dn_nconv = dn_next = 0;
#endif
}
