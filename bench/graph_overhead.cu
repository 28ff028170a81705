/* bench/graph_overhead.cu: what a CUDA Graph of small dependent kernels costs per node, the way
 * runtime/cuda/cuda_graph.cu builds plans (explicit kernel nodes taking one argument block by
 * value): a chain of NODES kernels with full edges versus programmatic edges (Hopper's
 * programmatic dependent launch: the next kernel is launched while the previous one runs and
 * waits in griddepcontrol.wait), and the host cost of updating every node's parameters before a
 * launch (what a run with new input pointers does). Times: median of 201 launches.
 * Build here: nvcc -std=c++17 -O3 -arch=sm_90 -o build/dev/graph_overhead bench/graph_overhead.cu
 * Run on the GPU machine: build/dev/graph_overhead */
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)

struct Args { float *p; int spin; char pad[240]; };

template <bool PDL>
__global__ void node(Args a) {
    if (PDL) asm volatile("griddepcontrol.wait;" ::: "memory");
    float v = a.p[blockIdx.x * blockDim.x + threadIdx.x];
    for (int i = 0; i < a.spin; i++) v = v * 0.999f + 1.0f;
    a.p[blockIdx.x * blockDim.x + threadIdx.x] = v;
    if (PDL) asm volatile("griddepcontrol.launch_dependents;");
}

static double median(std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }

static void run(const char *name, int nodes, int blocks, int spin, int mode /*0 full, 1 programmatic, 2 launch-completion*/,
                bool update, cudaStream_t st, float *p) {
    Args a = {p, spin, {0}};
    void *argp[1] = {&a};
    cudaGraph_t g; CK(cudaGraphCreate(&g, 0));
    std::vector<cudaGraphNode_t> n(nodes);
    std::vector<cudaKernelNodeParams> kp(nodes);
    for (int i = 0; i < nodes; i++) {
        cudaKernelNodeParams &k = kp[i];
        k = {};
        k.func = mode ? (void *)node<true> : (void *)node<false>;
        k.gridDim = dim3(blocks); k.blockDim = dim3(256); k.kernelParams = argp;
        CK(cudaGraphAddKernelNode(&n[i], g, NULL, 0, &k));
        if (i) {
            cudaGraphEdgeData ed = {};
            if (mode) {
                ed.type = cudaGraphDependencyTypeProgrammatic;
                ed.from_port = mode == 1 ? cudaGraphKernelNodePortProgrammatic : cudaGraphKernelNodePortLaunchCompletion;
            }
            CK(cudaGraphAddDependencies(g, &n[i - 1], &n[i], &ed, 1));
        }
    }
    cudaGraphExec_t x; CK(cudaGraphInstantiate(&x, g, 0));
    cudaEvent_t t0, t1; CK(cudaEventCreate(&t0)); CK(cudaEventCreate(&t1));
    std::vector<double> dev, host;
    for (int r = 0; r < 251; r++) {
        auto h0 = std::chrono::steady_clock::now();
        if (update) {
            a.spin = spin + (r & 1) * 0; a.pad[0] = (char)r;
            for (int i = 0; i < nodes; i++) CK(cudaGraphExecKernelNodeSetParams(x, n[i], &kp[i]));
        }
        CK(cudaEventRecord(t0, st));
        CK(cudaGraphLaunch(x, st));
        CK(cudaEventRecord(t1, st));
        auto h1 = std::chrono::steady_clock::now();
        CK(cudaEventSynchronize(t1));
        float ms; CK(cudaEventElapsedTime(&ms, t0, t1));
        if (r >= 50) dev.push_back(ms * 1e3), host.push_back(std::chrono::duration<double, std::micro>(h1 - h0).count());
    }
    printf("%-34s nodes %2d blocks %4d spin %5d  device %7.2f us (%5.2f /node)  host enqueue %6.2f us\n", name, nodes, blocks,
           spin, median(dev), median(dev) / nodes, median(host));
    cudaGraphExecDestroy(x); cudaGraphDestroy(g);
}

int main() {
    cudaDeviceProp pr; CK(cudaGetDeviceProperties(&pr, 0));
    printf("graph_overhead on %s (%d SMs)\n", pr.name, pr.multiProcessorCount);
    float *p; CK(cudaMalloc(&p, 1 << 24)); CK(cudaMemset(p, 0, 1 << 24));
    cudaStream_t st; CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    for (int blocks : {2, 128}) for (int spin : {0, 2000}) {
        run("full edges", 9, blocks, spin, 0, false, st, p);
        run("programmatic edges", 9, blocks, spin, 1, false, st, p);
        run("launch-completion edges", 9, blocks, spin, 2, false, st, p);
        run("full edges + 9 param updates", 9, blocks, spin, 0, true, st, p);
        run("programmatic + 9 param updates", 9, blocks, spin, 1, true, st, p);
    }
    run("full edges", 1, 128, 0, 0, false, st, p);
    run("full edges + 1 param update", 1, 128, 0, 0, true, st, p);
    return 0;
}
