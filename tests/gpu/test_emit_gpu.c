/* tests/gpu/test_emit_gpu.c: the generated CUDA code end to end on the GPU (the harness of
 * tests/unit/emit_harness.h): every graph is planned and emitted, kernels.cu is built with nvcc
 * and linked with kernels_cpu.c and plan.c into a shared object, the plan runs through the
 * executor on the CUDA backend (one CUDA Graph per plan, replayed for every step with donated
 * outputs fed back), and each output is compared with eager rt_apply evaluation on the CPU.
 * Every kernels.cu is also compiled by NVRTC (the JIT fallback compiles the same text).
 *
 * Tolerance (max |gpu - cpu| / max |cpu| per output): float32 1e-4 as in test_gpu_ops (GEMM
 * accumulation order and expf/logf ulps differ from OpenBLAS and glibc); integers exact.
 *
 *   test_emit_gpu                 emit, build with nvcc, run on the GPU (needs the toolchain there)
 *   test_emit_gpu --build DIR     emit and build every case into DIR/caseN, and NVRTC checks; no GPU
 *   test_emit_gpu --run DIR       run what --build left in DIR (a GPU machine without toolchain)
 *   test_emit_gpu --self-test     the CPU backend and cc builds on both sides; no GPU
 * With --run or no option, the two example training steps are then timed: every kernel alone
 * (CUDA events around one launch, median of 200: launch overhead included), every kernel as a
 * node of a CUDA Graph (20 launches of it in one graph, median of 21 replays, per launch), the
 * steps captured as one graph (device time per step), and the whole step through rt_exec_run
 * (one CUDA Graph replay, host overhead and output allocation included; mean of 2000 after 200
 * warm-ups), then a timeline of three replays from a build of kernels.cu with clock probes
 * (when nvcc is there).
 * Environment: GTC_ROOT (source tree, default .), CUDA_HOME, NVCC, GTC_KEEP, GTC_EMIT_ONLY (run only
 * the cases whose graph path contains it: one model while tuning its kernels), GTC_EMIT_PRECISION
 * (tf32 | bf16: products on tensor cores, checked against the float32 reference within 3e-2). */
#include <cuda_runtime_api.h>
#include <nvrtc.h>
#include <time.h>

#include "../../runtime/cuda/rt_cuda.h"
#include "../unit/emit_harness.h"

static const struct {
    const char *graph;
    int steps;
} cases[] = {
    {"tests/golden/ew_abc/graph.json", 1},           {"tests/golden/ew_chain20/graph.json", 1},
    {"tests/golden/ew_shared_expensive/graph.json", 1}, {"tests/emit/views_steps.json", 1},
    {"tests/golden/views/graph.json", 1},            {"tests/golden/broadcast_promote/graph.json", 1},
    {"tests/emit/ints.json", 1},                      {"tests/golden/softmax_row/graph.json", 2},
    {"tests/golden/small_ints/graph.json", 1},
    {"tests/golden/logsumexp/graph.json", 1},        {"tests/emit/row_1d.json", 1},
    {"tests/emit/donate_hazard.json", 3},        {"tests/golden/row_too_long/graph.json", 1},
    {"tests/golden/reduce_epilogue/graph.json", 3},  {"tests/golden/reductions/graph.json", 1},
    {"tests/golden/matmul_bias_relu/graph.json", 2}, {"tests/emit/batched_matmul.json", 1},
    {"tests/golden/copy_outputs/graph.json", 1},     {"tests/golden/donate_copy/graph.json", 3},
    {"tests/golden/donate_order/graph.json", 3},     {"tests/golden/cse_shared/graph.json", 1},
    {"tests/golden/dead_nodes/graph.json", 1},       {"tests/emit/gemm_shapes.json", 1},
    {"examples/digits_step.json", 5},
    {"examples/train_step.json", 5},
    {"tests/golden/row_matmul/graph.json", 2},       {"tests/golden/row_matmul_b_depends/graph.json", 2},
    {"tests/emit/lane_rows.json", 1},
    {"tests/emit/index_ops.json", 1},                {"tests/emit/embedding_mlp_step.json", 3},
    {"tests/golden/nn_block/graph.json", 1},         {"tests/emit/nn_block_step.json", 3},
    {"tests/golden/conv_block/graph.json", 1},       {"tests/emit/cnn_digits_step.json", 3},
    {"tests/golden/symbolic_batch/graph.json", 7}, /* symbolic: runs at the bound here (tests/gpu/symbolic.sh: other sizes) */
};

/* NVRTC must accept the same kernels.cu text (the JIT fallback for other architectures). */
static int nvrtc_check(const char *path, char *msg, size_t n) {
    Diag d;
    Graph *g = h_load(path, &d);
    if (!g || pipeline_run(g, NULL, &d, NULL)) {
        snprintf(msg, n, "%s", d.msg);
        graph_free(g);
        return -1;
    }
    char *src = emit_cuda_source(g, "graph.json", &d);
    graph_free(g);
    if (!src) {
        snprintf(msg, n, "%s", d.msg);
        return -1;
    }
    nvrtcProgram prog;
    const char *opts[] = {"--gpu-architecture=compute_90", "-std=c++17", "--fmad=false"};
    int rc = -1;
    if (nvrtcCreateProgram(&prog, src, "kernels.cu", 0, NULL, NULL) == NVRTC_SUCCESS) {
        nvrtcResult r = nvrtcCompileProgram(prog, 2, opts);
        size_t len = 0;
        nvrtcGetProgramLogSize(prog, &len);
        char *log = malloc(len + 1);
        if (log && nvrtcGetProgramLog(prog, log) == NVRTC_SUCCESS) snprintf(msg, n, "%s: %.900s", nvrtcGetErrorString(r), log);
        free(log);
        rc = r == NVRTC_SUCCESS ? 0 : -1;
        nvrtcDestroyProgram(&prog);
    }
    free(src);
    return rc;
}

static int cmp_float(const void *a, const void *b) {
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* ---- timeline: when each step's kernel ran, from a build of kernels.cu with clock probes ----- */

#define TRACE_RUNS 3
/* Prepended to kernels.cu: every block of step s notes the global timer when it starts (before
 * gtc_wait_prior_steps), when the wait returns, and (lane 0 of each warp, on leaving the kernel)
 * when it ends; the earliest start, earliest return and latest end per step and replay (the
 * replay: the block's arrival count over the grid size), and the latest start and return (a
 * block that found no room on an SM starts late). */
static const char trace_header[] =
    "__device__ unsigned long long gtc_tr[" "3" "][64][5];\n"
    "__device__ unsigned gtc_tr_n[64];\n"

    "__device__ __forceinline__ unsigned long long gtc_tr_now() {\n"
    "    unsigned long long t; asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(t)); return t; }\n"
    "__device__ __forceinline__ unsigned gtc_tr_run(int s) {\n"
    "    __shared__ unsigned r;\n"
    "    if (threadIdx.x == 0) {\n"
    "        const unsigned long long t = gtc_tr_now();\n"
    "        r = atomicAdd(&gtc_tr_n[s], 1u) / (gridDim.x * gridDim.y * gridDim.z); if (r > 2) r = 2;\n"
    "        atomicMin(&gtc_tr[r][s][0], t); atomicMax(&gtc_tr[r][s][3], t); }\n"
    "    __syncthreads(); return r; }\n"
    "struct GtcTrace { int s; unsigned r;\n"
    "    __device__ GtcTrace(int s_, unsigned r_) : s(s_), r(r_) { if (threadIdx.x == 0) { const unsigned long long t = gtc_tr_now();\n"
    "        atomicMin(&gtc_tr[r][s][1], t); atomicMax(&gtc_tr[r][s][4], t); } }\n"
    "    __device__ ~GtcTrace() { if ((threadIdx.x & 31) == 0) atomicMax(&gtc_tr[r][s][2], gtc_tr_now()); } };\n"
    "extern \"C\" void gtc_trace_reset(void) {\n"
    "    static unsigned long long h[3][64][5]; static unsigned z[64];\n"
    "    for (int r = 0; r < 3; r++) for (int s = 0; s < 64; s++) h[r][s][0] = h[r][s][1] = ~0ull, h[r][s][2] = h[r][s][3] = h[r][s][4] = 0;\n"
    "    cudaMemcpyToSymbol(gtc_tr, h, sizeof h); cudaMemcpyToSymbol(gtc_tr_n, z, sizeof z); }\n"
    "extern \"C\" void gtc_trace_read(unsigned long long *out) {\n"
    "    cudaMemcpyFromSymbol(out, gtc_tr, sizeof(unsigned long long) * 3 * 64 * 5); }\n";

/* kernels.cu with the probes: each kernel's first line (gtc_wait_prior_steps) gets them around it;
 * a kernel that waits later (a GEMM that requests its EARLY operands first, inside gtc_gemm) gets
 * them at the top of its body, its wait then shown as its start. */
static char *trace_source(const char *src) {
    const char *wait = "    gtc_wait_prior_steps();\n";
    size_t n = strlen(src), cap = n + sizeof trace_header + 256 * 64;
    char *out = malloc(cap), *o = out;
    if (!out) return NULL;
    o += sprintf(o, "%s", trace_header);
    const char *p = src;
    for (;;) {
        const char *k = strstr(p, ") gtc_k"), *body = k ? strstr(k, "{\n") : NULL, *w;
        int s;
        if (!body || sscanf(k + 7, "%d", &s) != 1 || s < 0 || s >= 64) break;
        body += 2;
        w = strncmp(body, wait, strlen(wait)) == 0 ? body : NULL;
        if ((size_t)(o - out) + (size_t)(body - p) + 256 > cap) break;
        memcpy(o, p, (size_t)(body - p)), o += body - p;
        o += sprintf(o, "    const unsigned gtc_tr_r = gtc_tr_run(%d);\n%s    GtcTrace gtc_trace_(%d, gtc_tr_r);\n", s,
                     w ? wait : "", s);
        p = w ? body + strlen(wait) : body;
    }
    if ((size_t)(o - out) + strlen(p) + 1 > cap) {
        free(out);
        return NULL;
    }
    strcpy(o, p);
    return out;
}

/* Builds dir/trace.so (the probed kernels with plan.c): 0, or -1 (no nvcc, or no kernels.cu). */
static int trace_build(const char *dir) {
    char path[1200], cmd[4096];
    snprintf(path, sizeof path, "%s/kernels.cu", dir);
    FILE *f = fopen(path, "rb");
    char *src = NULL;
    long len = 0;
    if (f && fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 && (src = malloc((size_t)len + 1)))
        src[fread(src, 1, (size_t)len, f)] = 0;
    if (f) fclose(f);
    char *tsrc = src ? trace_source(src) : NULL;
    free(src);
    snprintf(path, sizeof path, "%s/trace.cu", dir);
    f = tsrc ? fopen(path, "wb") : NULL;
    if (f) fputs(tsrc, f), fclose(f);
    free(tsrc);
    const char *cuda = getenv("CUDA_HOME") ? getenv("CUDA_HOME") : "/usr/local/cuda";
    const char *root = getenv("GTC_ROOT") ? getenv("GTC_ROOT") : ".";
    snprintf(cmd, sizeof cmd,
             "d=%s; %s/bin/nvcc -std=c++17 -O3 --fmad=false -arch=sm_90 -Xcompiler -fPIC -c $d/trace.cu -o $d/trace.o && cc -std=c11 -O2 "
             "-fPIC -shared -DGTC_PLAN_CUDA -I%s/runtime/core -I%s/ir -o $d/trace.so $d/trace.o $d/kernels_cpu.c $d/plan.c -L%s/lib64 "
             "-Wl,-rpath,%s/lib64 -lcudart -lstdc++ -lopenblas -lm",
             dir, cuda, root, root, cuda, cuda);
    return f && system(cmd) == 0 ? 0 : -1;
}

/* Prints, for TRACE_RUNS replays run back to back after a warm-up, each step's first block
 * start, wait return and last end in us from the first replay's first start: where the critical
 * path and the gaps are. Uses dir/trace.so as --build left it, or builds it (needs nvcc). */
static void timeline(const char *graph, const char *dir, RtTensor **in, const double *sc) {
    char path[1200];
    snprintf(path, sizeof path, "%s/trace.so", dir);
    if (access(path, R_OK) != 0 && trace_build(dir) != 0) {
        printf("  timeline: skipped (no probed build: needs nvcc)\n");
        return;
    }
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    const RtPlan *p = lib ? dlsym(lib, "gtc_plan") : NULL;
    void (*reset)(void) = lib ? (void (*)(void))dlsym(lib, "gtc_trace_reset") : NULL;
    void (*readb)(unsigned long long *) = lib ? (void (*)(unsigned long long *))dlsym(lib, "gtc_trace_read") : NULL;
    RtExec *e = p ? rt_exec_new(p, &rt_cuda_backend) : NULL;
    RtTensor *out[64] = {0};
    bool ok = e && reset && readb && p->nsteps <= 64;
    for (int r = 0; ok && r < 50; r++) {
        ok = rt_exec_run(e, in, sc, out) == 0;
        for (int j = 0; j < p->noutputs; j++) rt_release(out[j]), out[j] = NULL;
    }
    rt_cuda_backend.synchronize();
    static unsigned long long t[TRACE_RUNS][64][5];
    if (ok) {
        reset();
        for (int r = 0; ok && r < TRACE_RUNS; r++) {
            ok = rt_exec_run(e, in, sc, out) == 0;
            for (int j = 0; j < p->noutputs; j++) rt_release(out[j]), out[j] = NULL;
        }
        rt_cuda_backend.synchronize();
        readb(&t[0][0][0]);
    }
    if (!ok) {
        printf("  timeline: %s\n", e ? rt_message() : "cannot load the probed build");
    } else {
        unsigned long long t0 = ~0ull;
        for (int s = 0; s < p->nsteps; s++) t0 = t[0][s][0] < t0 ? t[0][s][0] : t0;
        printf("  timeline of %s, %d replays back to back (us from the first block; start: first block, wait: "
               "gtc_wait_prior_steps returned, end: last warp; last: the last block's start and return):\n", graph,
               TRACE_RUNS);
        for (int r = 0; r < TRACE_RUNS; r++)
            for (int s = 0; s < p->nsteps; s++)
                printf("    replay %d step %d %-8s start %7.2f  wait %7.2f  end %7.2f  (ran %5.2f)  last %7.2f %7.2f  %s\n",
                       r, s, p->steps[s].kernel, (double)(t[r][s][0] - t0) / 1e3, (double)(t[r][s][1] - t0) / 1e3,
                       (double)(t[r][s][2] - t0) / 1e3, (double)(t[r][s][2] - t[r][s][1]) / 1e3,
                       (double)(t[r][s][3] - t0) / 1e3, (double)(t[r][s][4] - t0) / 1e3, p->steps[s].ops);
    }
    rt_exec_free(e);
    if (lib) dlclose(lib);
}

/* Times the plan built in dir (a training step with donated parameters) on the GPU. */
static void bench(const char *graph, const char *dir) {
    char so[1200];
    snprintf(so, sizeof so, "%s/model.so", dir);
    void *lib = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    const RtPlan *p = lib ? dlsym(lib, "gtc_plan") : NULL;
    if (!p) {
        printf("bench %s: cannot load %s\n", graph, so);
        return;
    }
    RtExec *e = rt_exec_new(p, &rt_cuda_backend);
    RtTensor *in[64] = {0}, *out[64] = {0};
    double sc[64] = {0};
    for (int i = 0; i < p->ninputs && i < 64; i++) {
        const RtPlanIO *io = &p->inputs[i];
        if (io->scalar >= 0) {
            sc[i] = 0.01;
            continue;
        }
        RtTensor *h = rt_rand(&rt_cpu_backend, io->dtype, io->rank, io->dims, (uint64_t)i + 1);
        in[i] = h ? rt_to_backend(h, &rt_cuda_backend) : NULL;
        rt_release(h);
    }
    cudaStream_t st = (cudaStream_t)rt_cuda_stream();
    /* each kernel alone, on the executor's arguments after one warm run */
    if (!e || rt_exec_run(e, in, sc, out)) {
        printf("bench %s: %s\n", graph, rt_message());
        return;
    }
    unsigned char args[RT_PLAN_MAX_ARGS_BYTES] = {0};
    void **ptr = (void **)args;
    for (int i = 0; i < p->ninputs; i++) ptr[i] = in[i] ? rt_data(in[i]) : NULL;
    for (int j = 0; j < p->noutputs; j++) ptr[p->ninputs + j] = rt_data(out[j]);
    void *arena = NULL;
    cudaMalloc(&arena, (size_t)(p->arena_bytes ? p->arena_bytes : 1));
    ptr[p->ninputs + p->noutputs] = arena;
    double *sv = (double *)(args + sizeof(void *) * (size_t)(p->ninputs + p->noutputs + 1));
    for (int i = 0; i < p->ninputs; i++)
        if (p->inputs[i].scalar >= 0) sv[p->inputs[i].scalar] = sc[i];
    void *kargs[1] = {args};
    cudaEvent_t t0, t1;
    cudaEventCreate(&t0), cudaEventCreate(&t1);
    float total = 0;
    printf("bench %s: %d steps\n", graph, p->nsteps);
    printf("  %-8s %-9s %-31s %9s %9s  %s\n", "kernel", "kind", "launch", "alone", "in graph", "ops");
    float total_graph = 0;
    for (int s = 0; s < p->nsteps; s++) {
        const RtPlanStep *k = &p->steps[s];
        dim3 g = {k->grid[0], k->grid[1], k->grid[2]}, b = {k->block[0], k->block[1], k->block[2]};
        float ms[200];
        for (int r = 0; r < 200; r++) {
            cudaEventRecord(t0, st);
            cudaLaunchKernel(p->cuda[s], g, b, kargs, k->smem, st);
            cudaEventRecord(t1, st);
            cudaEventSynchronize(t1);
            cudaEventElapsedTime(&ms[r], t0, t1);
        }
        qsort(ms, 200, sizeof *ms, cmp_float);
        total += ms[100];
        /* the kernel 20 times in one CUDA Graph (its time as a graph node, launch gaps included) */
        cudaGraph_t cg = NULL;
        cudaGraphExec_t ce = NULL;
        float gms[21];
        cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal);
        for (int r = 0; r < 20; r++) cudaLaunchKernel(p->cuda[s], g, b, kargs, k->smem, st);
        cudaStreamEndCapture(st, &cg);
        cudaGraphInstantiate(&ce, cg, 0);
        cudaGraphLaunch(ce, st);
        for (int r = 0; r < 21; r++) {
            cudaEventRecord(t0, st);
            cudaGraphLaunch(ce, st);
            cudaEventRecord(t1, st);
            cudaEventSynchronize(t1);
            cudaEventElapsedTime(&gms[r], t0, t1);
        }
        qsort(gms, 21, sizeof *gms, cmp_float);
        total_graph += gms[10] / 20;
        cudaGraphExecDestroy(ce), cudaGraphDestroy(cg);
        char launch[64];
        snprintf(launch, sizeof launch, "grid %u x %u x %u block %u", k->grid[0], k->grid[1], k->grid[2], k->block[0]);
        printf("  %-8s %-9s %-31s %6.2f us %6.2f us  %s\n", k->kernel,
               k->kind == RT_STEP_GEMM ? "gemm" : k->kind == RT_STEP_ROW ? "row" : k->kind == RT_STEP_REDUCE ? "reduce"
               : k->kind == RT_STEP_COPY ? "copy" : "ew", launch, ms[100] * 1e3, gms[10] / 20 * 1e3, k->ops);
    }
    cudaError_t ce = cudaGetLastError();
    printf("  kernels alone: %.2f us in total; as graph nodes: %.2f us in total%s%s\n", total * 1e3, total_graph * 1e3,
           ce ? ", CUDA error: " : "", ce ? cudaGetErrorName(ce) : "");
    /* the plan's steps in one CUDA Graph, as the executor builds it: device time per replay */
    {
        cudaGraph_t cg = NULL;
        cudaGraphExec_t cx = NULL;
        cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal);
        for (int r = 0; r < 10; r++)
            for (int s = 0; s < p->nsteps; s++) {
                const RtPlanStep *k = &p->steps[s];
                dim3 g = {k->grid[0], k->grid[1], k->grid[2]}, b = {k->block[0], k->block[1], k->block[2]};
                cudaLaunchKernel(p->cuda[s], g, b, kargs, k->smem, st);
            }
        cudaStreamEndCapture(st, &cg);
        cudaGraphInstantiate(&cx, cg, 0);
        float gms[51];
        cudaGraphLaunch(cx, st);
        for (int r = 0; r < 51; r++) {
            cudaEventRecord(t0, st);
            cudaGraphLaunch(cx, st);
            cudaEventRecord(t1, st);
            cudaEventSynchronize(t1);
            cudaEventElapsedTime(&gms[r], t0, t1);
        }
        qsort(gms, 51, sizeof *gms, cmp_float);
        ce = cudaGetLastError();
        printf("  the %d steps as one graph, device time per step (10 steps per replay, median of 51): %.2f us%s%s\n",
               p->nsteps, gms[25] / 10 * 1e3, ce ? ", CUDA error: " : "", ce ? cudaGetErrorName(ce) : "");
        cudaGraphExecDestroy(cx), cudaGraphDestroy(cg);
    }
    for (int j = 0; j < p->noutputs; j++) rt_release(out[j]), out[j] = NULL;
    for (int r = 0; r < 200; r++) {
        rt_exec_run(e, in, sc, out);
        for (int j = 0; j < p->noutputs; j++) rt_release(out[j]), out[j] = NULL;
    }
    rt_cuda_backend.synchronize();
    struct timespec a, z;
    clock_gettime(CLOCK_MONOTONIC, &a);
    int n = 2000;
    for (int r = 0; r < n; r++) {
        rt_exec_run(e, in, sc, out);
        for (int j = 0; j < p->noutputs; j++) rt_release(out[j]), out[j] = NULL;
    }
    rt_cuda_backend.synchronize();
    clock_gettime(CLOCK_MONOTONIC, &z);
    double us = ((double)(z.tv_sec - a.tv_sec) * 1e9 + (double)(z.tv_nsec - a.tv_nsec)) / 1e3 / n;
    printf("  whole step (rt_exec_run, CUDA Graph replay): %.2f us per step, %s, %ld replays\n", us,
           rt_exec_backend_name(e), rt_exec_replays(e));
    /* as in training: the inputs that are not updated in place (a batch: x, y) come from 64
     * copies in turn (64 x 1 MB: no longer all in L2), so each replay reads its batch from HBM
     * and updates the nodes that read it */
    {
        enum { NB = 64 };
        static RtTensor *bat[NB][64];
        RtTensor *cur[64] = {0};
        bool donated[64] = {0};
        for (int j = 0; j < p->noutputs; j++)
            if (p->outputs[j].donated_from >= 0 && p->outputs[j].donated_from < 64) donated[p->outputs[j].donated_from] = true;
        bool ok = true;
        for (int b = 0; b < NB; b++)
            for (int i = 0; i < p->ninputs && i < 64; i++)
                if (in[i] && !donated[i]) ok = ok && (bat[b][i] = rt_contiguous(in[i])) != NULL;
        for (int r = 0; ok && r < 2000 + 200; r++) {
            if (r == 200) rt_cuda_backend.synchronize(), clock_gettime(CLOCK_MONOTONIC, &a);
            for (int i = 0; i < p->ninputs && i < 64; i++) cur[i] = bat[r % NB][i] ? bat[r % NB][i] : in[i];
            ok = rt_exec_run(e, cur, sc, out) == 0;
            for (int j = 0; j < p->noutputs; j++) rt_release(out[j]), out[j] = NULL;
        }
        rt_cuda_backend.synchronize();
        clock_gettime(CLOCK_MONOTONIC, &z);
        us = ((double)(z.tv_sec - a.tv_sec) * 1e9 + (double)(z.tv_nsec - a.tv_nsec)) / 1e3 / 2000;
        if (ok) printf("  whole step, %d batches in turn (as in training): %.2f us per step\n", NB, us);
        else printf("  whole step, %d batches in turn: %s\n", NB, rt_message());
        for (int b = 0; b < NB; b++)
            for (int i = 0; i < 64; i++) rt_release(bat[b][i]), bat[b][i] = NULL;
    }
    timeline(graph, dir, in, sc);
    cudaFree(arena);
    for (int i = 0; i < p->ninputs; i++) rt_release(in[i]);
    rt_exec_free(e);
    dlclose(lib);
}

int main(int argc, char **argv) {
    bool self = argc == 2 && strcmp(argv[1], "--self-test") == 0;
    HarnessMode mode = H_ALL;
    const char *keep = NULL;
    if (argc == 3 && (!strcmp(argv[1], "--build") || !strcmp(argv[1], "--run")))
        mode = argv[1][2] == 'b' ? H_BUILD : H_RUN, keep = argv[2];
    else if (argc != 1 && !self) {
        fprintf(stderr, "usage: test_emit_gpu [--self-test | --build DIR | --run DIR]\n");
        return 2;
    }
    const RtBackend *b = &rt_cpu_backend;
    char err[512], build[4096];
    const char *root = h_root();
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (self) {
        printf("test_emit_gpu: self-test, the CPU backend and cc builds\n");
        snprintf(build, sizeof build,
                 "cc -std=c11 " RT_CPU_KERNEL_CFLAGS " -fPIC -shared -I%s/runtime/core -I%s/ir -o %%s/model.so %%s/kernels_cpu.c %%s/plan.c "
                 "-lopenblas -lm", root, root);
    } else {
        if (mode != H_BUILD && rt_cuda_init(0, err, sizeof err)) {
            printf("test_emit_gpu: cannot run without a GPU: %s\n0 passed, 1 failed\n", err);
            return 1;
        }
        if (mode != H_BUILD) printf("test_emit_gpu: device %d: %s\n", rt_cuda_device(), rt_cuda_device_name());
        else printf("test_emit_gpu: building into %s\n", keep);
        b = &rt_cuda_backend;
        const char *cuda = getenv("CUDA_HOME") ? getenv("CUDA_HOME") : "/usr/local/cuda";
        const char *nvcc = getenv("NVCC");
        char nv[1024];
        snprintf(nv, sizeof nv, "%s", nvcc && *nvcc ? nvcc : "");
        if (!nv[0]) snprintf(nv, sizeof nv, "%s/bin/nvcc", cuda);
        /* %s: the emit directory (three times) */
        snprintf(build, sizeof build,
                 "d=%%s; %s -std=c++17 -O3 --fmad=false -arch=sm_90 -Xcompiler -fPIC -c $d/kernels.cu -o $d/kernels.o && "
                 "cc -std=c11 " RT_CPU_KERNEL_CFLAGS " -fPIC -shared -DGTC_PLAN_CUDA -I%s/runtime/core -I%s/ir -o $d/model.so $d/kernels.o $d/kernels_cpu.c "
                 "$d/plan.c -L%s/lib64 -Wl,-rpath,%s/lib64 -lcudart -lstdc++ -lopenblas -lm #%%s%%s",
                 nv, root, root, cuda, cuda);
    }
    int pass = 0, fail = 0;
    const char *only = getenv("GTC_EMIT_ONLY"), *prec = getenv("GTC_EMIT_PRECISION");
    /* tf32 / bf16 products against the float32 reference: docs/codegen.md's bf16 bound (Precision) */
    const double tol = prec && *prec && strcmp(prec, "fp32") && strcmp(prec, "highest") ? 3e-2 : 1e-4;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char path[1024];
        if (only && *only && !strstr(cases[i].graph, only)) continue;
        snprintf(path, sizeof path, "%s/%s", root, cases[i].graph);
        HarnessResult r;
        char sub[1024];
        snprintf(sub, sizeof sub, "%s/case%zu", keep ? keep : "", i);
        int rc = h_run_in(path, cases[i].steps, b, build, mode, keep ? sub : NULL, &r);
        bool ok = !rc && !r.msg[0] && !r.mismatches && r.err <= tol;
        if (mode == H_BUILD)
            printf("%s %-44s %2d steps built%s%s\n", ok ? "ok  " : "FAIL", cases[i].graph, r.kernels, r.msg[0] ? "  " : "", r.msg);
        else
            printf("%s %-44s %2d steps x %d: max rel err %.2e%s%s%s%s\n", ok ? "ok  " : "FAIL", cases[i].graph, r.kernels,
                   cases[i].steps, r.err, r.worst[0] ? "  worst: " : "", r.worst, r.msg[0] ? "  " : "", r.msg);
        ok ? pass++ : fail++;
        if (mode == H_BUILD && keep && ok && strstr(cases[i].graph, "examples/") && trace_build(sub) != 0)
            printf("     %-44s no probed build (trace.so): the timeline will be skipped\n", cases[i].graph);
        if (mode != H_RUN) {
            char msg[1024] = "";
            bool nok = nvrtc_check(path, msg, sizeof msg) == 0;
            if (!nok) printf("FAIL %-44s NVRTC: %s\n", cases[i].graph, msg);
            nok ? pass++ : fail++;
        }
    }
    printf("%d passed, %d failed\n", pass, fail);
    if (!self && mode != H_BUILD && keep)
        for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
            if (strstr(cases[i].graph, "examples/") && !(only && *only && !strstr(cases[i].graph, only))) {
                char sub[1024];
                snprintf(sub, sizeof sub, "%s/case%zu", keep, i);
                bench(cases[i].graph, sub);
            }
    return fail ? 1 : 0;
}
