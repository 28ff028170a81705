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

#include <stdlib.h>

#include "../core/dynlib.h"

#if __has_include(<cudnn.h>)
#include <cudnn.h>
#define GTC_HAVE_CUDNN 1
#endif

// A convolution of at least this many multiply-adds goes to cuDNN on a 132-SM GPU (scaled by the
// SM count): measured on the H200 (bench/cnn.sh, bench/README.md). Through the graph API (one
// execution plan per shape, about 10 us a call) cuDNN wins from 19 M multiply-adds (9.7 us against
// gtc's plan's 13.7) and gtc's plan below (the digits CNN's first layer, 2 M: 8.8 against 9.8).
// Grouped convolutions take the legacy calls (25-40 us a call), which win only from about 100 M.
#define CONV_LIB_MACS ((int64_t)1 << 23)
#define CONV_LIB_MACS_LEGACY ((int64_t)3 << 25)

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
    X(cudnnConvolutionForward) X(cudnnAddTensor) X(cudnnBackendCreateDescriptor)                   \
    X(cudnnBackendDestroyDescriptor) X(cudnnBackendSetAttribute) X(cudnnBackendGetAttribute)      \
    X(cudnnBackendFinalize) X(cudnnBackendExecute)

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
    const char *path = NULL;
    dn.state = -1;
    if (!(dn.lib = rt_dynlib_open("GTC_CUDNN_LIBRARY", "libcudnn.so.9", &path, dn.why, sizeof dn.why))) return false;
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
#define DN_GRAPH_DESCS 24
typedef struct {
    int64_t key[16];
    // the graph API's execution plan (convolution and bias in one), when cuDNN made one: a call
    // is then one cudnnBackendExecute; else the legacy calls below
    cudnnBackendDescriptor_t plan, gd[DN_GRAPH_DESCS];
    int ngd;
    int64_t plan_ws;
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
    if (c->plan) dn.cudnnBackendDestroyDescriptor(c->plan);
    for (int i = 0; i < c->ngd; i++) dn.cudnnBackendDestroyDescriptor(c->gd[i]);
    if (c->bd) dn.cudnnDestroyTensorDescriptor(c->bd);
    if (c->xd) dn.cudnnDestroyTensorDescriptor(c->xd);
    if (c->yd) dn.cudnnDestroyTensorDescriptor(c->yd);
    if (c->wd) dn.cudnnDestroyFilterDescriptor(c->wd);
    if (c->cd) dn.cudnnDestroyConvolutionDescriptor(c->cd);
    memset(c, 0, sizeof *c);
}

// ---- the graph API: the convolution and its bias as one execution plan ----------------------
//
// Why: cuDNN 9's legacy calls (cudnnConvolutionForward, cudnnAddTensor) spend 15-30 us of host
// time each (measured on the H200: a 75 M multiply-add convolution took 37.5 us through them,
// 18.5 in PyTorch, which uses this API); an execution plan made once per shape runs with one
// cudnnBackendExecute. The plan is chosen as PyTorch's benchmark mode does: the heuristic's
// candidates that finalize are each timed on the call's own buffers, the fastest is kept.
// Strict FP32 leaves out engines whose notes say tensor cores (TF32). Anything this path cannot
// build leaves the legacy calls to do the work.

static cudnnBackendDescriptor_t dn_desc(DnConv *d, cudnnBackendDescriptorType_t t) {
    cudnnBackendDescriptor_t r = nullptr;
    if (d->ngd == DN_GRAPH_DESCS || dn.cudnnBackendCreateDescriptor(t, &r) != CUDNN_STATUS_SUCCESS) return nullptr;
    return d->gd[d->ngd++] = r;
}
#define DN_SET(desc, attr, type, n, ptr) \
    (dn.cudnnBackendSetAttribute(desc, attr, type, n, ptr) == CUDNN_STATUS_SUCCESS)

// A finalized float32 NCHW tensor descriptor (strides of a contiguous tensor), uid its id.
static cudnnBackendDescriptor_t dn_tensor(DnConv *d, const int64_t *dims, int64_t uid, bool virt) {
    cudnnBackendDescriptor_t t = dn_desc(d, CUDNN_BACKEND_TENSOR_DESCRIPTOR);
    cudnnDataType_t dt = CUDNN_DATA_FLOAT;
    int64_t st[4] = {dims[1] * dims[2] * dims[3], dims[2] * dims[3], dims[3], 1}, align = 16;
    if (!t || !DN_SET(t, CUDNN_ATTR_TENSOR_DATA_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &dt) ||
        !DN_SET(t, CUDNN_ATTR_TENSOR_DIMENSIONS, CUDNN_TYPE_INT64, 4, dims) ||
        !DN_SET(t, CUDNN_ATTR_TENSOR_STRIDES, CUDNN_TYPE_INT64, 4, st) ||
        !DN_SET(t, CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT64, 1, &uid) ||
        !DN_SET(t, CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT, CUDNN_TYPE_INT64, 1, &align) ||
        (virt && !DN_SET(t, CUDNN_ATTR_TENSOR_IS_VIRTUAL, CUDNN_TYPE_BOOLEAN, 1, &virt)) ||
        dn.cudnnBackendFinalize(t) != CUDNN_STATUS_SUCCESS)
        return nullptr;
    return t;
}

// One execution of plan pl on the call's pointers (uids 1 x, 2 w, 3 y, 4 b).
static cudnnStatus_t dn_execute(cudnnBackendDescriptor_t pl, void *const *ptr, int n, void *ws) {
    static const int64_t uids[4] = {1, 2, 3, 4};
    cudnnBackendDescriptor_t vp = nullptr;
    cudnnStatus_t s = dn.cudnnBackendCreateDescriptor(CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, &vp);
    if (s == CUDNN_STATUS_SUCCESS &&
        (s = dn.cudnnBackendSetAttribute(vp, CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, CUDNN_TYPE_INT64, n, uids)) ==
            CUDNN_STATUS_SUCCESS &&
        (s = dn.cudnnBackendSetAttribute(vp, CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS, CUDNN_TYPE_VOID_PTR, n, ptr)) ==
            CUDNN_STATUS_SUCCESS &&
        (s = dn.cudnnBackendSetAttribute(vp, CUDNN_ATTR_VARIANT_PACK_WORKSPACE, CUDNN_TYPE_VOID_PTR, 1, &ws)) ==
            CUDNN_STATUS_SUCCESS &&
        (s = dn.cudnnBackendFinalize(vp)) == CUDNN_STATUS_SUCCESS)
        s = dn.cudnnBackendExecute(dn.h, pl, vp);
    if (vp) dn.cudnnBackendDestroyDescriptor(vp);
    return s;
}

// Builds d->plan for x (*) w (+ b) -> y (shapes xs, ws_, ys), timing the candidates on the
// call's buffers ptr (x, w, y, b); false when cuDNN makes none (d keeps what it made for the
// caller to free).
static bool dn_graph_build(DnConv *d, const int64_t *xs, const int64_t *wsh, const int64_t *ys, const RtConvWindow *p,
                           void *const *ptr, bool bias) {
    if (p->group != 1) return false;  // grouped: the legacy calls
    for (int i = 0; i < (bias ? 4 : 3); i++)
        if ((uintptr_t)ptr[i] & 15) return false;  // the plan assumes 16-byte aligned buffers
    const int64_t bs[4] = {1, ys[1], 1, 1};
    cudnnBackendDescriptor_t xd = dn_tensor(d, xs, 1, false), wd = dn_tensor(d, wsh, 2, false);
    cudnnBackendDescriptor_t yd = dn_tensor(d, ys, bias ? 5 : 3, bias), by = bias ? dn_tensor(d, ys, 3, false) : nullptr;
    cudnnBackendDescriptor_t bd = bias ? dn_tensor(d, bs, 4, false) : nullptr;
    if (!xd || !wd || !yd || (bias && (!by || !bd))) return false;
    cudnnBackendDescriptor_t cd = dn_desc(d, CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR);
    int64_t nsd = 2, pre[2] = {p->pad[0], p->pad[1]}, post[2] = {p->pad[2], p->pad[3]};
    int64_t str[2] = {p->stride[0], p->stride[1]}, dil[2] = {p->dilation[0], p->dilation[1]};
    cudnnDataType_t ct = CUDNN_DATA_FLOAT;
    cudnnConvolutionMode_t mode = CUDNN_CROSS_CORRELATION;
    if (!cd || !DN_SET(cd, CUDNN_ATTR_CONVOLUTION_SPATIAL_DIMS, CUDNN_TYPE_INT64, 1, &nsd) ||
        !DN_SET(cd, CUDNN_ATTR_CONVOLUTION_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &ct) ||
        !DN_SET(cd, CUDNN_ATTR_CONVOLUTION_CONV_MODE, CUDNN_TYPE_CONVOLUTION_MODE, 1, &mode) ||
        !DN_SET(cd, CUDNN_ATTR_CONVOLUTION_PRE_PADDINGS, CUDNN_TYPE_INT64, 2, pre) ||
        !DN_SET(cd, CUDNN_ATTR_CONVOLUTION_POST_PADDINGS, CUDNN_TYPE_INT64, 2, post) ||
        !DN_SET(cd, CUDNN_ATTR_CONVOLUTION_DILATIONS, CUDNN_TYPE_INT64, 2, dil) ||
        !DN_SET(cd, CUDNN_ATTR_CONVOLUTION_FILTER_STRIDES, CUDNN_TYPE_INT64, 2, str) ||
        dn.cudnnBackendFinalize(cd) != CUDNN_STATUS_SUCCESS)
        return false;
    cudnnBackendDescriptor_t ops[2];
    int nops = 0;
    float alpha = 1.0f, beta = 0.0f;
    cudnnBackendDescriptor_t op = ops[nops++] = dn_desc(d, CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR);
    if (!op || !DN_SET(op, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &xd) ||
        !DN_SET(op, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &wd) ||
        !DN_SET(op, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &yd) ||
        !DN_SET(op, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_CONV_DESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &cd) ||
        !DN_SET(op, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_ALPHA, CUDNN_TYPE_FLOAT, 1, &alpha) ||
        !DN_SET(op, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_BETA, CUDNN_TYPE_FLOAT, 1, &beta) ||
        dn.cudnnBackendFinalize(op) != CUDNN_STATUS_SUCCESS)
        return false;
    if (bias) {  // y = conv + b, b broadcast over N, H, W
        cudnnBackendDescriptor_t pw = dn_desc(d, CUDNN_BACKEND_POINTWISE_DESCRIPTOR);
        cudnnPointwiseMode_t pm = CUDNN_POINTWISE_ADD;
        if (!pw || !DN_SET(pw, CUDNN_ATTR_POINTWISE_MODE, CUDNN_TYPE_POINTWISE_MODE, 1, &pm) ||
            !DN_SET(pw, CUDNN_ATTR_POINTWISE_MATH_PREC, CUDNN_TYPE_DATA_TYPE, 1, &ct) ||
            dn.cudnnBackendFinalize(pw) != CUDNN_STATUS_SUCCESS)
            return false;
        cudnnBackendDescriptor_t po = ops[nops++] = dn_desc(d, CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR);
        if (!po || !DN_SET(po, CUDNN_ATTR_OPERATION_POINTWISE_PW_DESCRIPTOR, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &pw) ||
            !DN_SET(po, CUDNN_ATTR_OPERATION_POINTWISE_XDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &yd) ||
            !DN_SET(po, CUDNN_ATTR_OPERATION_POINTWISE_BDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &bd) ||
            !DN_SET(po, CUDNN_ATTR_OPERATION_POINTWISE_YDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &by) ||
            dn.cudnnBackendFinalize(po) != CUDNN_STATUS_SUCCESS)
            return false;
    }
    cudnnBackendDescriptor_t og = dn_desc(d, CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR);
    if (!og || !DN_SET(og, CUDNN_ATTR_OPERATIONGRAPH_OPS, CUDNN_TYPE_BACKEND_DESCRIPTOR, nops, ops) ||
        !DN_SET(og, CUDNN_ATTR_OPERATIONGRAPH_HANDLE, CUDNN_TYPE_HANDLE, 1, &dn.h) ||
        dn.cudnnBackendFinalize(og) != CUDNN_STATUS_SUCCESS)
        return false;
    cudnnBackendDescriptor_t heur = dn_desc(d, CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR);
    cudnnBackendHeurMode_t hm = CUDNN_HEUR_MODE_A;
    int64_t ncfg = 0;
    if (!heur || !DN_SET(heur, CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &og) ||
        !DN_SET(heur, CUDNN_ATTR_ENGINEHEUR_MODE, CUDNN_TYPE_HEUR_MODE, 1, &hm) ||
        dn.cudnnBackendFinalize(heur) != CUDNN_STATUS_SUCCESS ||
        dn.cudnnBackendGetAttribute(heur, CUDNN_ATTR_ENGINEHEUR_RESULTS, CUDNN_TYPE_BACKEND_DESCRIPTOR, 0, &ncfg, nullptr) !=
            CUDNN_STATUS_SUCCESS ||
        ncfg < 1)
        return false;
    const int64_t CANDIDATES = 8;
    cudnnBackendDescriptor_t cfg[CANDIDATES] = {};
    int64_t ncand = ncfg < CANDIDATES ? ncfg : CANDIDATES, got = 0;
    for (int i = 0; i < ncand; i++)
        if (!(cfg[i] = dn_desc(d, CUDNN_BACKEND_ENGINECFG_DESCRIPTOR))) return false;
    if (dn.cudnnBackendGetAttribute(heur, CUDNN_ATTR_ENGINEHEUR_RESULTS, CUDNN_TYPE_BACKEND_DESCRIPTOR, ncand, &got, cfg) !=
        CUDNN_STATUS_SUCCESS)
        return false;
    cudaEvent_t e0 = nullptr, e1 = nullptr;
    if (cudaEventCreate(&e0) != cudaSuccess || cudaEventCreate(&e1) != cudaSuccess) {
        cudaGetLastError();
        if (e0) cudaEventDestroy(e0);
        return false;
    }
    float best = 0.0f;
    for (int i = 0; i < got; i++) {
        if (!g_cuda.tf32) {  // strict FP32: no engine that computes on tensor cores (TF32)
            cudnnBackendDescriptor_t eng = dn_desc(d, CUDNN_BACKEND_ENGINE_DESCRIPTOR);
            cudnnBackendNumericalNote_t notes[CUDNN_NUMERICAL_NOTE_TYPE_COUNT];
            int64_t nn = 0, ne = 0;
            if (!eng || dn.cudnnBackendGetAttribute(cfg[i], CUDNN_ATTR_ENGINECFG_ENGINE, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1,
                                                    &ne, &eng) != CUDNN_STATUS_SUCCESS ||
                dn.cudnnBackendGetAttribute(eng, CUDNN_ATTR_ENGINE_NUMERICAL_NOTE, CUDNN_TYPE_NUMERICAL_NOTE,
                                            CUDNN_NUMERICAL_NOTE_TYPE_COUNT, &nn, notes) != CUDNN_STATUS_SUCCESS)
                continue;
            bool tc = false;
            for (int k = 0; k < nn; k++) tc = tc || notes[k] == CUDNN_NUMERICAL_NOTE_TENSOR_CORE;
            if (tc) continue;
        }
        cudnnBackendDescriptor_t pl = nullptr;
        int64_t wsb = 0, n1 = 0;
        if (dn.cudnnBackendCreateDescriptor(CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, &pl) != CUDNN_STATUS_SUCCESS) continue;
        void *ws = nullptr;
        float ms = 0.0f;
        bool ok = DN_SET(pl, CUDNN_ATTR_EXECUTION_PLAN_HANDLE, CUDNN_TYPE_HANDLE, 1, &dn.h) &&
                  DN_SET(pl, CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &cfg[i]) &&
                  dn.cudnnBackendFinalize(pl) == CUDNN_STATUS_SUCCESS &&
                  dn.cudnnBackendGetAttribute(pl, CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, CUDNN_TYPE_INT64, 1, &n1,
                                              &wsb) == CUDNN_STATUS_SUCCESS &&
                  wsb <= ((int64_t)1 << 30) && (!wsb || (ws = cuda_alloc((size_t)wsb)));
        rt_clear_error();  // a workspace too large for the device: the next candidate
        // once to warm up, then timed over two
        ok = ok && dn_execute(pl, ptr, bias ? 4 : 3, ws) == CUDNN_STATUS_SUCCESS &&
             cudaEventRecord(e0, g_cuda.stream) == cudaSuccess && dn_execute(pl, ptr, bias ? 4 : 3, ws) == CUDNN_STATUS_SUCCESS &&
             dn_execute(pl, ptr, bias ? 4 : 3, ws) == CUDNN_STATUS_SUCCESS && cudaEventRecord(e1, g_cuda.stream) == cudaSuccess &&
             cudaEventSynchronize(e1) == cudaSuccess && cudaEventElapsedTime(&ms, e0, e1) == cudaSuccess;
        cudaGetLastError();
        if (ws) cuda_free(ws);
        if (ok && (!d->plan || ms < best)) {
            if (d->plan) dn.cudnnBackendDestroyDescriptor(d->plan);
            d->plan = pl, d->plan_ws = wsb, best = ms;
        } else {
            dn.cudnnBackendDestroyDescriptor(pl);
        }
    }
    cudaEventDestroy(e0), cudaEventDestroy(e1);
    return d->plan != nullptr;
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
    if (mode == 2 && macs < (p->group == 1 ? CONV_LIB_MACS : CONV_LIB_MACS_LEGACY) / 132 * sms) return 0;
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
    void *ptr[4];
    const float one = 1.0f, zero = 0.0f;
    int64_t key[16] = {x->shape[0], x->shape[1], x->shape[2], x->shape[3], w->shape[0], w->shape[2], w->shape[3],
                       p->pad[0],   p->pad[1],   p->stride[0], p->stride[1], p->dilation[0], p->dilation[1],
                       p->group,    g_cuda.tf32, b != nullptr};
    *out = nullptr;
    for (int i = 0; i < dn_nconv && !c; i++)
        if (!memcmp(dn_conv[i].key, key, sizeof key)) c = &dn_conv[i];
    if (!(y = rt_empty(&rt_cuda_backend, DT_FLOAT32, 4, o))) goto done;
    ptr[0] = rt_data(x), ptr[1] = rt_data(w), ptr[2] = rt_data(y), ptr[3] = b ? rt_data(b) : nullptr;
    if (!c) {  // a new shape: an execution plan, else the legacy descriptors and algorithm
        DnConv *d = &made;
        int *yo = d->y;
        memcpy(d->key, key, sizeof key);
        if (!dn.h) {
            DN_SETUP("cudnnCreate", dn.cudnnCreate(&dn.h));
            DN_SETUP("cudnnSetStream", dn.cudnnSetStream(dn.h, g_cuda.stream));
        }
        const int64_t xs[4] = {x->shape[0], x->shape[1], x->shape[2], x->shape[3]};
        const int64_t wsh[4] = {w->shape[0], w->shape[1], w->shape[2], w->shape[3]};
        const char *api = getenv("GTC_CUDNN_API");
        if ((!api || strcmp(api, "legacy") != 0) && dn_graph_build(d, xs, wsh, o, p, ptr, b != nullptr)) {
            for (int i = 0; i < 4; i++) yo[i] = (int)o[i];
            goto keep;
        }
        {  // the legacy descriptors (a nested scope: `goto keep` passes over it)
        for (int i = 0; i < d->ngd; i++) dn.cudnnBackendDestroyDescriptor(d->gd[i]);
        d->ngd = 0;
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
        }
    keep:
        c = &dn_conv[dn_nconv < DN_CONVS ? dn_nconv++ : (dn_next++ % DN_CONVS)];
        dn_conv_free(c);
        *c = made;
        made = DnConv{};
    }
    if (c->plan) {  // one execution: the convolution and its bias
        if (c->plan_ws && !(ws = cuda_alloc((size_t)c->plan_ws))) goto done;  // rt_error(RT_EOOM) was set
        for (int i = 0; i < (b ? 4 : 3); i++)
            if ((uintptr_t)ptr[i] & 15) {  // a view at an odd offset: the plan assumed 16-byte alignment
                rc = 0;
                goto done;
            }
        DN_RUN("cudnnBackendExecute", dn_execute(c->plan, ptr, b ? 4 : 3, ws));
    } else {
        if (c->workspace && !(ws = cuda_alloc(c->workspace))) goto done;
        DN_RUN("cudnnConvolutionForward", dn.cudnnConvolutionForward(dn.h, &one, c->xd, ptr[0], c->wd, ptr[1], c->cd,
                                                                     c->algo, ws, c->workspace, &zero, c->yd, ptr[2]));
        if (b) DN_RUN("bias", dn.cudnnAddTensor(dn.h, &one, c->bd, ptr[3], &one, c->yd, ptr[2]));
    }
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
