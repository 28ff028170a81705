# runtime/cuda/cuda.mk: the CUDA backend and its GPU test harness; `include`d by the top-level
# Makefile (after BUILD, CC, CFLAGS, CUDA_HOME, LIBGTCRT and LDFLAGS_BASE are defined).
#   $(CUDA_OBJS)                objects to link next to $(LIBGTCRT) (plus $(CUDA_LIBS))
#   $(BUILD)/tests/test_gpu_ops every op on the GPU against the CPU backend (needs a GPU to run)
#   $(BUILD)/tests/test_half_rounding  scalar.h's bfloat16/float16 rounding against CUDA's (GPU)
# Built for sm_90 (H100/H200) with PTX for compute_90, so newer GPUs JIT the PTX.

NVCC ?= $(CUDA_HOME)/bin/nvcc
CUDA_ARCH ?= '-gencode=arch=compute_90,code=[sm_90,compute_90]'
NVCCFLAGS ?= -O3 -std=c++17 --fmad=false $(CUDA_ARCH) -Xcompiler -fPIC -Xcompiler -Wall,-Wextra,-Werror

# The two long compiles first (about 3/4 of the build's CPU time), so that `make -j` starts them
# before anything else.
CUDA_SRCS := runtime/cuda/cuda_elementwise.cu runtime/cuda/cuda_reduce.cu runtime/cuda/cuda_graph.cu \
             runtime/cuda/cuda_backend.cu runtime/cuda/cuda_matmul.cu runtime/cuda/cuda_nvrtc.cu runtime/cuda/cuda_plan_jit.cu \
             runtime/cuda/cuda_index.cu runtime/cuda/cuda_plan_blas.cu runtime/cuda/cuda_cudnn.cu runtime/cuda/cuda_nccl.cu
CUDA_OBJS := $(patsubst %.cu,$(BUILD)/obj/%.o,$(CUDA_SRCS))
# cuBLAS pulls in cuBLASLt. Cuda\Compiler needs NVRTC; its modules load through the runtime's
# library API (cudaLibraryLoadData), so nothing links the driver library directly.
# cuDNN is loaded at run time (cuda_cudnn.cu: dlopen), so it is not linked: -ldl.
CUDA_LIBS := -L$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/lib64 -lcublas -lcublasLt -lnvrtc -lcudart -lstdc++ -ldl

GPU_TEST_BINS := $(BUILD)/tests/test_gpu_ops $(BUILD)/tests/test_half_rounding

$(BUILD)/obj/runtime/cuda/%.o: runtime/cuda/%.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/tests/test_gpu_ops: tests/gpu/test_gpu_ops.c $(CUDA_OBJS) $(LIBGTCRT)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MF $@.d -o $@ $< $(CUDA_OBJS) $(LIBGTCRT) $(LDFLAGS_BASE) $(CUDA_LIBS) \
	  $(BLAS_LIBS) -lcjson -lm

$(BUILD)/tests/test_half_rounding: tests/gpu/test_half_rounding.cu ir/scalar.h
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -o $@ $< -L$(CUDA_HOME)/lib64 -Xlinker -rpath=$(CUDA_HOME)/lib64 -lcudart

.PHONY: cuda gpu-ops
cuda: $(CUDA_OBJS)
gpu-ops: $(GPU_TEST_BINS)
	$(BUILD)/tests/test_gpu_ops
	$(BUILD)/tests/test_half_rounding

-include $(CUDA_OBJS:.o=.d) $(GPU_TEST_BINS:=.d)
