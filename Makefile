# gtc: top-level build. Explicit source lists; objects and binaries under $(BUILD).
#   make            build gtc and the libraries
#   make test       install missing dependencies, build, run every suite that needs no GPU
#   make demo       build everything and run the main job
#   make asan       the unit, error, hostile-input and .phpt suites under AddressSanitizer + UBSan
#   make pie        gtc.so built the PIE way (phpize, runtime/php/config.m4) and its .phpt suite
#   make golden / golden-update    diff / rewrite the golden files
#   make onnx       ONNX import against ONNX Runtime (onnx, onnxruntime from PyPI; docs/onnx.md)

BUILD ?= build
CC ?= cc
CUDA_HOME ?= $(if $(wildcard /usr/local/cuda),/usr/local/cuda,)
SAN_FLAGS ?=
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
OPT ?= -O2

CFLAGS_BASE := -std=c11 -Wall -Wextra -Werror -g $(OPT) -fPIC -MMD -MP -D_GNU_SOURCE $(SAN_FLAGS)
LDFLAGS_BASE := $(SAN_FLAGS)
CFLAGS += $(CFLAGS_BASE)
# OpenBLAS: its OpenMP build where Debian installed it (libopenblas-openmp-dev), which shares the
# OpenMP pool of the CPU backend's loops and runs single-threaded inside them (docs/cpu.md); else
# the libopenblas the linker finds (the pthreads build: it works, with a second pool).
OPENBLAS_OMP_DIR ?= $(firstword $(wildcard /usr/lib/*/openblas-openmp))
BLAS_RPATH := -Wl,-rpath,$(OPENBLAS_OMP_DIR)
BLAS_LIBS := $(if $(OPENBLAS_OMP_DIR),-L$(OPENBLAS_OMP_DIR) $(BLAS_RPATH)) -lopenblas -fopenmp

IR_SRCS := ir/types.c ir/ops.c ir/graph.c ir/names.c ir/infer.c ir/verify.c ir/select.c ir/dump.c \
           ir/json_parse.c ir/json_read.c ir/json_train.c ir/json_write.c ir/text.c ir/composite.c
COMPILER_SRCS := compiler/frontend.c compiler/pass_simplify.c compiler/pass_bf16.c compiler/pipeline.c compiler/pass_fuse.c compiler/pass_fuse_row.c \
                 compiler/pass_schedule.c compiler/pass_memplan.c compiler/pass_lower.c compiler/target.c compiler/plan.c \
                 compiler/emit_str.c compiler/emit_expr.c compiler/emit_unswitch.c compiler/emit_loops.c compiler/emit_affine.c compiler/emit_step.c compiler/emit_cpu.c compiler/emit_cpu_row.c compiler/emit_cuda.c \
                 compiler/emit_plan.c compiler/emit_text.c compiler/forward.c
COMPILER_SRCS += compiler/frontend_php.c compiler/php_parse.c compiler/php_expr.c compiler/php_lexer.c \
                 compiler/php_inline.c compiler/php_math.c compiler/php_slice.c
COMPILER_SRCS += compiler/pass_autodiff.c compiler/ad_build.c compiler/optim.c
RT_CORE_SRCS := runtime/core/error.c runtime/core/tensor.c runtime/core/ops.c runtime/core/npy.c \
                runtime/core/exec.c runtime/core/kcache.c \
                runtime/core/dist.c runtime/core/nccl_lib.c
RT_CPU_SRCS := runtime/cpu/cpu_backend.c runtime/cpu/cpu_elementwise.c runtime/cpu/cpu_reduce.c \
               runtime/cpu/cpu_matmul.c runtime/cpu/cpu_plan.c runtime/cpu/cpu_index.c runtime/cpu/cpu_threads.c \
               runtime/cpu/cpu_cc.c
PHP_EXT_SRCS := runtime/php/gtc_module.c runtime/php/cudaarray.c runtime/php/cudaarray_ops.c runtime/php/cudaarray_index.c \
                runtime/php/cudaarray_convert.c runtime/php/cudaarray_print.c \
                runtime/php/cudaarray_npz.c runtime/php/cudaarray_data.c runtime/php/cudaarray_nn.c \
                runtime/php/hostarray.c runtime/php/exceptions.c runtime/php/kernel_compiler.c
GTC_MAIN := compiler/main.c
UNIT_TESTS := test_types test_infer test_verify test_json test_simplify test_plan test_lower test_emit test_sym
RT_UNIT_TESTS := test_tensor test_cpu_ops test_scalar test_fsum test_kcache test_cpu_cc test_half test_cpu_threads test_cpu_gemm test_dist
# gtc compile: the build driver and the extension glue generator; gtc.so's API for models.
COMPILER_SRCS += compiler/emit_ext.c compiler/names.c compiler/build.c
UNIT_TESTS += test_emit_ext
UNIT_TESTS += test_php_frontend test_php_inline
PHP_EXT_SRCS += runtime/php/gtc_api.c
# Cuda\Fusion (the JIT): tracing in gtc.so, planning with libgtc's passes (compiler/plan_build.c
# builds the RtPlan in memory).
PHP_EXT_SRCS += runtime/php/fusion.c runtime/php/fusion_trace.c runtime/php/plan_class.c \
                runtime/php/plan_state.c runtime/php/batches.c \
                runtime/php/device_functions.c
# Eager autograd: the tape is an IR graph differentiated by compiler/pass_autodiff.c's rules.
PHP_EXT_SRCS += runtime/php/autograd.c
# Eager composites (conv2d, pools, softmax, ...) on the GPU as one planned graph each.
PHP_EXT_SRCS += runtime/php/eager_plan.c
# Cuda\Distributed: data-parallel runs (runtime/core/dist.h; NCCL on CUDA, docs/distributed.md).
PHP_EXT_SRCS += runtime/php/distributed.c
# Cuda\Optimizer: its steps are compiler/optim.c's updates, evaluated eagerly or traced.
PHP_EXT_SRCS += runtime/php/optimizer.c runtime/php/optimizer_state.c
# The backend table (runtime/backends.c): a row for CUDA only where its objects are linked.
PHP_EXT_SRCS += runtime/backends.c
COMPILER_SRCS += compiler/plan_build.c
# The ONNX front-end (docs/onnx.md): the `gtc` command's only, never gtc.so's (the JIT reads no
# files), so protobuf-c is a dependency of gtc alone. onnx.proto (third_party/onnx/) is compiled
# by protoc-c into $(BUILD)/gen/onnx.pb-c.[ch]. frontend.c (which chooses the front-end) and
# build.c (gtc compile) go with it: gtc.so never loads a graph file.
ONNX_SRCS := compiler/frontend_onnx.c compiler/onnx_ops.c compiler/onnx_fold.c compiler/onnx_weights.c
CLI_SRCS := compiler/frontend.c compiler/build.c compiler/launch.c $(ONNX_SRCS)
COMPILER_SRCS += $(ONNX_SRCS) compiler/launch.c
ONNX_PB_OBJ = $(BUILD)/obj/gen/onnx.pb-c.o
ONNX_LIBS := -lprotobuf-c -lzip

LIBGTC := $(BUILD)/libgtc.a
LIBGTCRT := $(BUILD)/libgtcrt.a
GTC_EXT := $(BUILD)/gtc.so
PHP_CONFIG ?= php-config
PHP_INCLUDES = $(shell $(PHP_CONFIG) --includes 2>/dev/null)
RUN_TESTS ?= $(firstword $(wildcard /usr/lib/php/*/build/run-tests.php) $(PHP_RUN_TESTS))
PHP ?= php
GTC := $(BUILD)/gtc
LIBGTC_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(IR_SRCS) $(COMPILER_SRCS)) $(ONNX_PB_OBJ)
LIBGTCRT_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(IR_SRCS) $(RT_CORE_SRCS) $(RT_CPU_SRCS))
PHP_EXT_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(PHP_EXT_SRCS))
ALL_OBJS := $(LIBGTC_OBJS) $(LIBGTCRT_OBJS) $(PHP_EXT_OBJS) $(patsubst %.c,$(BUILD)/obj/%.o,$(GTC_MAIN))
UNIT_BINS := $(addprefix $(BUILD)/tests/,$(UNIT_TESTS))
RT_UNIT_BINS := $(addprefix $(BUILD)/tests/,$(RT_UNIT_TESTS))
DEPS_STAMP := build/.deps-stamp

# The CUDA backend, linked into gtc.so when the toolkit is present (never into the ASan build:
# the sanitizers and the CUDA runtime do not mix).
include runtime/cuda/cuda.mk
ifneq ($(CUDA_HOME),)
ifeq ($(SAN_FLAGS),)
GTC_EXT_CUDA := $(CUDA_OBJS) $(CUDA_LIBS)
$(GTC_EXT): $(CUDA_OBJS)
BUILD_FIRST := $(CUDA_OBJS)
$(BUILD)/obj/runtime/backends.o: CFLAGS += -DGTC_HAVE_CUDA
endif
endif


.PHONY: test-gpu ref runtime rt-unit all test demo golden golden-update asan clean deps unit errors phpt hostile
.DEFAULT_GOAL := all

all: $(BUILD_FIRST) $(GTC) $(LIBGTC) runtime
runtime: $(LIBGTCRT) $(GTC_EXT)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(LIBGTC): $(LIBGTC_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(LIBGTCRT): $(LIBGTCRT_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# The PHP extension: PHP's headers are not -Wextra clean, so they come in as system headers.
$(BUILD)/obj/runtime/php/%.o: runtime/php/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(subst -I,-isystem ,$(PHP_INCLUDES)) -c $< -o $@

# gtc.so also carries the compiler's objects (the JIT plans with them); ir/ comes once, from libgtcrt.
GTC_EXT_COMPILER_OBJS := $(filter-out $(BUILD)/obj/ir/% $(patsubst %.c,$(BUILD)/obj/%.o,$(CLI_SRCS)) $(ONNX_PB_OBJ),$(LIBGTC_OBJS))
$(GTC_EXT): $(PHP_EXT_OBJS) $(GTC_EXT_COMPILER_OBJS) $(LIBGTCRT)
	$(CC) -shared $(LDFLAGS_BASE) -o $@ $(PHP_EXT_OBJS) $(GTC_EXT_COMPILER_OBJS) -Wl,--whole-archive $(LIBGTCRT) \
	  -Wl,--no-whole-archive $(GTC_EXT_CUDA) $(BLAS_LIBS) -lcjson -lzip -lm -ldl

# Generated include files (scripts/gen-inc.sh, shared with runtime/php/config.m4's PIE build):
# templates/ext.c.in as a C string literal for compiler/emit_ext.c, and the texts the kernel
# generators copy into generated code (ir/scalar.h, templates/kernels_*) for emit_text.c.
GEN_INC := scripts/gen-inc.sh
$(BUILD)/gen/ext_template.inc: $(GEN_INC) $(shell sh $(GEN_INC) --inputs ext_template.inc)
	sh $(GEN_INC) ext_template.inc $@
$(BUILD)/obj/compiler/emit_ext.o: $(BUILD)/gen/ext_template.inc
$(BUILD)/obj/compiler/emit_ext.o: CFLAGS += -I$(BUILD)/gen
$(BUILD)/gen/emit_text.inc: $(GEN_INC) $(shell sh $(GEN_INC) --inputs emit_text.inc)
	sh $(GEN_INC) emit_text.inc $@
$(BUILD)/obj/compiler/emit_text.o: $(BUILD)/gen/emit_text.inc
$(BUILD)/obj/compiler/emit_text.o: CFLAGS += -I$(BUILD)/gen

$(BUILD)/obj/compiler/build.o: CFLAGS += $(if $(OPENBLAS_OMP_DIR),-DGTC_OPENBLAS_DIR='"$(OPENBLAS_OMP_DIR)"')
$(BUILD)/tests/test_cpu_threads $(BUILD)/tests/test_cpu_gemm: CFLAGS += -fopenmp
# The CPU backend's loops are OpenMP (runtime/cpu/cpu_threads.c owns the thread count).
$(BUILD)/obj/runtime/cpu/%.o: CFLAGS += -fopenmp
# The reductions at -O3: -O2's cost model leaves ir/fsum.h's column loops (a variable count of
# columns) scalar. No value changes: no reassociation, and the lanes are explicit.
$(BUILD)/obj/runtime/cpu/cpu_reduce.o: CFLAGS += -O3
# `gtc --version` reports the BLAS and threads a model would run with (cpu_threads.o alone) and
# whether NCCL loads (nccl_lib.o alone: dlopen, no CUDA).
$(GTC): $(BUILD)/obj/compiler/main.o $(LIBGTC) $(BUILD)/obj/runtime/cpu/cpu_threads.o $(BUILD)/obj/runtime/cpu/cpu_cc.o $(BUILD)/obj/runtime/core/nccl_lib.o
	$(CC) $(LDFLAGS_BASE) -o $@ $^ -lcjson $(ONNX_LIBS) $(BLAS_LIBS) -lm -ldl

# onnx.proto through protoc-c (scripts/install-deps.sh installs protobuf-c-compiler).
$(BUILD)/gen/onnx.pb-c.c $(BUILD)/gen/onnx.pb-c.h &: third_party/onnx/onnx.proto
	@mkdir -p $(BUILD)/gen
	protoc-c --proto_path=third_party/onnx --c_out=$(BUILD)/gen onnx.proto
$(ONNX_PB_OBJ): $(BUILD)/gen/onnx.pb-c.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -I$(BUILD)/gen -c $< -o $@
$(patsubst %.c,$(BUILD)/obj/%.o,$(ONNX_SRCS)): $(BUILD)/gen/onnx.pb-c.h
$(patsubst %.c,$(BUILD)/obj/%.o,$(ONNX_SRCS)): CFLAGS += -I$(BUILD)/gen

$(UNIT_BINS): $(BUILD)/tests/%: tests/unit/%.c $(LIBGTC)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MF $@.d -o $@ $< $(LIBGTC) $(LDFLAGS_BASE) -lcmocka -lcjson -lm

$(RT_UNIT_BINS): $(BUILD)/tests/%: tests/unit/%.c $(LIBGTCRT)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MF $@.d -o $@ $< $(LIBGTCRT) $(LDFLAGS_BASE) -lcmocka $(BLAS_LIBS) -lcjson -lm

# The executor and the backend table as a CPU-only build has it (runtime/backends.c, no CUDA row).
RT_UNIT_BINS += $(BUILD)/tests/test_exec
$(BUILD)/tests/test_exec: tests/unit/test_exec.c runtime/backends.c $(LIBGTCRT)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MF $@.d -o $@ $< runtime/backends.c $(LIBGTCRT) $(LDFLAGS_BASE) -lcmocka $(BLAS_LIBS) -lcjson -lm

# Dependencies: installed by scripts/install-deps.sh, re-run when the script changes.
$(DEPS_STAMP): scripts/install-deps.sh
	bash scripts/install-deps.sh
	@mkdir -p $(dir $@) && touch $@
deps: $(DEPS_STAMP)

# Unit tests of compiler code that evaluate graphs with the runtime's eager ops (both libraries).
MIXED_UNIT_TESTS := test_autodiff
MIXED_UNIT_BINS := $(addprefix $(BUILD)/tests/,$(MIXED_UNIT_TESTS))
$(MIXED_UNIT_BINS): $(BUILD)/tests/%: tests/unit/%.c $(LIBGTC) $(LIBGTCRT)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MF $@.d -o $@ $< $(LIBGTC) $(LIBGTCRT) $(LDFLAGS_BASE) -lcmocka $(BLAS_LIBS) -lcjson -lm

unit: $(UNIT_BINS) $(MIXED_UNIT_BINS)
	@fail=0; for t in $(UNIT_BINS) $(MIXED_UNIT_BINS); do $$t || fail=1; done; exit $$fail

rt-unit: $(RT_UNIT_BINS)
	@fail=0; for t in $(RT_UNIT_BINS); do $$t || fail=1; done; exit $$fail

# The generated CPU code end to end: emitted, built with cc, run by the executor, against eager ops.
EMIT_NUMERIC := $(BUILD)/tests/test_emit_numeric
$(EMIT_NUMERIC): tests/unit/test_emit_numeric.c tests/unit/emit_harness.h $(LIBGTC) $(LIBGTCRT)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MF $@.d -o $@ $< $(LIBGTC) $(LIBGTCRT) $(LDFLAGS_BASE) -lcmocka $(BLAS_LIBS) -lcjson -lm -ldl
.PHONY: emit-numeric
emit-numeric: $(EMIT_NUMERIC)
	$(EMIT_NUMERIC)

# The .phpt suite against the freshly built extension (CPU backend unless GTC_DEVICE says).
phpt: $(GTC_EXT)
	bash tests/php/run.sh $(GTC_EXT)

# gtc.so built the PIE way (runtime/php/config.m4: phpize && ./configure && make, CPU only) in a
# temporary copy of the tree, loaded with every symbol bound, the .phpt suite and a Cuda\Fusion
# smoke check against it (tests/pie/run.sh; its last line says PASS or FAIL).
.PHONY: pie
pie:
	JOBS=$(JOBS) PHP=$(PHP) bash tests/pie/run.sh

errors: $(GTC)
	bash tests/errors/run.sh $(GTC)

# Hostile inputs (tests/hostile/run.sh, docs/security.md): names, dtypes, attributes, file names
# and limits crafted to inject code or overflow; models it accepts are compiled, loaded and run.
# Under make asan it runs gtc's cases only (no extension: sanitized gtc.so needs run.sh's shim).
hostile: $(GTC) $(GTC_EXT)
	PHP=$(PHP) bash tests/hostile/run.sh $(GTC) $(if $(SAN_FLAGS),,$(GTC_EXT))

golden: $(GTC)
	bash tests/golden/selftest.sh $(GTC)
	bash tests/golden/run.sh $(GTC)

golden-update: $(GTC)
	bash tests/golden/run.sh $(GTC) --update

test: $(DEPS_STAMP)
	$(MAKE) -j$(JOBS) all
	$(MAKE) unit
	$(MAKE) rt-unit
	$(MAKE) emit-numeric
	$(MAKE) errors
	$(MAKE) hostile
	$(MAKE) golden
	$(MAKE) ref
	$(MAKE) phpt
	$(MAKE) pie
	$(MAKE) e2e
	$(MAKE) onnx
	$(MAKE) train-test
	$(MAKE) asan
	@echo "make test: all suites passed"

# The main job: build, make the digits data if it is missing, compile the digits training step
# with `gtc compile` and train it with the compiled extension (examples/train_mlp.php --mode=aot;
# the GPU when there is one, else the CPU backend: GTC_DEVICE / gtc.device decide, unset = auto).
# DEMO_ARGS adds options (e.g. DEMO_ARGS=--epochs=200).
DEMO_DATA := $(addprefix examples/data/digits_,$(addsuffix .npy,train_x train_y train_labels test_x test_y test_labels))
DEMO_ARGS ?=
demo: $(DEPS_STAMP)
	$(MAKE) -j$(JOBS) all
	@for f in $(DEMO_DATA); do [ -f $$f ] || { $(MAKE) data && break; }; done
	$(MAKE) $(BUILD)/models/digits.so
	OPENBLAS_NUM_THREADS=$${OPENBLAS_NUM_THREADS:-1} $(PHP) -n -d extension=$(abspath $(GTC_EXT)) \
	  -d extension=$(abspath $(BUILD)/models/digits.so) examples/train_mlp.php --mode=aot --dataset=digits $(DEMO_ARGS)

# ONNX import (docs/onnx.md): models built with onnx.helper for every supported operator, compiled
# by gtc and run from PHP on the CPU backend, against ONNX Runtime (1e-5 relative), and an
# imported MLP fine-tuned with --train against float64 finite differences; onnx and onnxruntime
# come from PyPI into $(ONNX_VENV) (scripts/onnx-venv.sh, which fails loudly without PyPI).
# ONNX_ARGS adds options (--device cuda on the GPU machine).
ONNX_VENV ?= build/onnx-venv
ONNX_ARGS ?=
.PHONY: onnx onnx-venv
onnx-venv:
	bash scripts/onnx-venv.sh $(ONNX_VENV)
onnx: $(GTC) $(GTC_EXT) onnx-venv
	$(ONNX_VENV)/bin/python tests/onnx/test_onnx.py $(GTC) $(GTC_EXT) $(ONNX_ARGS)
# PyTorch models exported with torch.onnx.export (not part of make test: needs torch, onnx and
# onnxruntime in TORCH_PYTHON; run here and on the GPU machine with ONNX_ARGS="--device cuda").
TORCH_PYTHON ?= /usr/bin/python3
.PHONY: onnx-torch
onnx-torch: $(GTC) $(GTC_EXT)
	$(TORCH_PYTHON) tests/onnx/torch_export.py $(GTC) $(GTC_EXT) $(ONNX_ARGS)

# The example training steps against an independent float64 NumPy gradient.
ref:
	python3 tests/ref/graph_ref.py examples/train_step.json examples/digits_step.json --check-grad

asan: $(DEPS_STAMP)
	$(MAKE) BUILD=build/asan OPT=-O1 \
	  SAN_FLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	  unit rt-unit emit-numeric errors hostile phpt

# On a GPU machine: every op on the GPU against the CPU backend, and the .phpt suite on CUDA.
test-gpu: $(GPU_TEST_BINS) $(GTC_EXT)
	$(BUILD)/tests/test_gpu_ops
	$(BUILD)/tests/test_half_rounding
	GTC_DEVICE=cuda bash tests/php/run.sh $(GTC_EXT)

# The example data sets in examples/data/, deterministically (scripts/make-data.sh), and the
# training example end to end on the CPU backend plus make data's determinism (tests/e2e/):
# eager mode, and the compiled step (--mode=aot) against eager mode.
.PHONY: data train-test
data: $(GTC_EXT)
	GTC_EXT=$(abspath $(GTC_EXT)) PHP=$(PHP) bash scripts/make-data.sh
train-test: $(GTC) $(GTC_EXT)
	PHP=$(PHP) bash tests/e2e/data_checksums.sh $(GTC_EXT)
	PHP=$(PHP) bash tests/e2e/train_eager.sh $(GTC_EXT)
	PHP=$(PHP) bash tests/e2e/train_aot.sh $(GTC) $(GTC_EXT)
	PHP=$(PHP) bash tests/e2e/train_jit.sh $(GTC_EXT)
	PHP=$(PHP) bash tests/e2e/train_cnn.sh $(GTC) $(GTC_EXT)
	PHP=$(PHP) bash tests/e2e/train_dynamic.sh $(GTC) $(GTC_EXT)

# gtc compile end to end (CPU backend): both examples compiled, loaded and checked against the
# eager step and a float64 reference; loading rules, install, command-line errors; `gtc run`.
.PHONY: e2e e2e-gpu install
e2e: $(GTC) $(GTC_EXT)
	PHP=$(PHP) bash tests/e2e/run.sh $(GTC) $(GTC_EXT)
	PHP=$(PHP) bash tests/e2e/php_graphs.sh $(GTC) $(GTC_EXT)
	PHP=$(PHP) bash tests/e2e/fusion_export.sh $(GTC) $(GTC_EXT)
	PHP=$(PHP) bash tests/e2e/getting_started.sh
	PHP=$(PHP) bash tests/e2e/launch.sh $(GTC) $(GTC_EXT)
	PHP=$(PHP) bash tests/e2e/data_parallel.sh $(GTC) $(GTC_EXT)
# On the GPU machine, after `make e2e` built the models here: the same checks on CUDA
# (backend cuda-graph) and 10,000 replays.
e2e-gpu: $(GTC_EXT)
	PHP=$(PHP) bash tests/e2e/gpu.sh $(GTC_EXT) $(BUILD)/e2e

# make install PREFIX=... [DESTDIR=...]: gtc, gtc.so, libgtcrt, the headers and templates that
# `gtc compile` builds models against, and an INI snippet. For the system PHP, pass
# EXTENSION_DIR=$$(php-config --extension-dir) and INI_DIR=<PHP's conf.d>.
PREFIX ?= /usr/local
EXTENSION_DIR ?= $(PREFIX)/lib/php/extensions
INI_DIR ?= $(PREFIX)/etc/php/conf.d
INSTALL_HEADERS := ir/ir.h ir/ops.def ir/scalar.h runtime/core/rt.h runtime/core/plan_abi.h runtime/core/exec.h runtime/core/module.h \
                   runtime/php/php_gtc.h runtime/cpu/cpu.h runtime/cuda/rt_cuda.h \
                   runtime/cuda/rt_graph.h runtime/cuda/rt_kernel.h
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(EXTENSION_DIR) \
	  $(DESTDIR)$(INI_DIR) $(DESTDIR)$(PREFIX)/share/gtc/templates $(DESTDIR)$(PREFIX)/share/gtc/php \
	  $(DESTDIR)$(PREFIX)/share/gtc/stubs $(DESTDIR)$(PREFIX)/share/gtc/examples $(DESTDIR)$(PREFIX)/share/doc/gtc/docs
	install -m 755 $(GTC) $(DESTDIR)$(PREFIX)/bin/gtc
	install -m 755 $(GTC_EXT) $(DESTDIR)$(EXTENSION_DIR)/gtc.so
	install -m 644 $(LIBGTCRT) $(DESTDIR)$(PREFIX)/lib/libgtcrt.a
	for h in $(INSTALL_HEADERS); do install -D -m 644 $$h $(DESTDIR)$(PREFIX)/include/gtc/$$h || exit 1; done
	install -m 644 templates/* $(DESTDIR)$(PREFIX)/share/gtc/templates/
	# for users: the Gtc\ attribute classes PHP graph files use, the stubs IDEs read, the docs
	# and the examples (their data comes from `make data` in a source tree)
	install -m 644 examples/gtc_attributes.php $(DESTDIR)$(PREFIX)/share/gtc/php/
	install -m 644 runtime/php/gtc.stub.php runtime/php/device_functions.stub.php runtime/php/optimizer.stub.php $(DESTDIR)$(PREFIX)/share/gtc/stubs/
	install -m 644 README.md $(DESTDIR)$(PREFIX)/share/doc/gtc/
	install -m 644 docs/*.md $(DESTDIR)$(PREFIX)/share/doc/gtc/docs/
	install -m 644 examples/*.json examples/*.php $(DESTDIR)$(PREFIX)/share/gtc/examples/
	printf '%s\n' '; gtc: Cuda\CudaArray for PHP. Models compiled with' \
	  '; `gtc compile` need this extension first: add their extension= lines after this one.' \
	  'extension=$(EXTENSION_DIR)/gtc.so' '; gtc.device=auto' '; gtc.memory_limit=0' \
	  > $(DESTDIR)$(INI_DIR)/20-gtc.ini

# The example training steps compiled into model extensions (CUDA and CPU code when nvcc is
# found, CPU code only otherwise): $(BUILD)/models/digits.so (class DigitsTrainStep) and
# $(BUILD)/models/mlp.so (class MlpTrainStep), for examples/train_mlp.php --mode=aot, and
# $(BUILD)/models/embedding.so (class EmbeddingStep) for examples/train_embedding.php and
# $(BUILD)/models/cnn_digits.so (class CnnDigitsStep) for examples/cnn_digits.php and bench/cnn.sh.
MODELS := $(BUILD)/models/digits.so $(BUILD)/models/mlp.so $(BUILD)/models/embedding.so \
          $(BUILD)/models/cnn_digits.so
MODEL_DEPS := $(GTC) $(GTC_EXT) $(INSTALL_HEADERS)
.PHONY: models
models: $(MODELS)
$(BUILD)/models/digits.so: examples/digits_step.json $(MODEL_DEPS)
	@mkdir -p $(dir $@)
	$(GTC) compile $< -o $@
$(BUILD)/models/mlp.so: examples/train_step.json $(MODEL_DEPS)
	@mkdir -p $(dir $@)
	$(GTC) compile $< -o $@
$(BUILD)/models/embedding.so: examples/embedding_step.json $(MODEL_DEPS)
	@mkdir -p $(dir $@)
	$(GTC) compile $< -o $@
$(BUILD)/models/cnn_digits.so: examples/cnn_digits.json $(MODEL_DEPS)
	@mkdir -p $(dir $@)
	$(GTC) compile $< -o $@

# libFuzzer (tests/fuzz/, docs/security.md): clang builds the libraries under build/fuzz with
# ASan + UBSan and the fuzzer's coverage, links fuzz_graph, fuzz_php, fuzz_npy and fuzz_runtime
# (random programs of eager ops through rt_apply, checked against each other), and
# tests/fuzz/run.sh runs each for FUZZ_SECONDS (its stats line; non-zero and the crash file kept
# under build/fuzz/crashes/ when one crashes). No CUDA, no PHP: the CPU backend only.
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang
FUZZ_SAN := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
FUZZ_TARGETS := fuzz_graph fuzz_php fuzz_npy fuzz_runtime fuzz_onnx
.PHONY: fuzz fuzz-build
fuzz:
	@command -v $(FUZZ_CC) >/dev/null || FUZZ_CC=$(FUZZ_CC) bash scripts/install-deps.sh clang
	$(MAKE) BUILD=build/fuzz CC=$(FUZZ_CC) OPT=-O1 SAN_FLAGS="-fsanitize=fuzzer-no-link $(FUZZ_SAN)" fuzz-build
	bash tests/fuzz/run.sh build/fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)
fuzz-build: $(addprefix $(BUILD)/,$(FUZZ_TARGETS))
$(addprefix $(BUILD)/,$(FUZZ_TARGETS)): $(BUILD)/%: tests/fuzz/%.c $(LIBGTC) $(LIBGTCRT)
	$(CC) $(CFLAGS) -fsanitize=fuzzer -MF $@.d -o $@ $< $(LIBGTC) $(LIBGTCRT) $(BLAS_LIBS) -lcjson $(ONNX_LIBS) -lm -ldl

clean:
	rm -rf build

-include $(ALL_OBJS:.o=.d) $(UNIT_BINS:=.d) $(RT_UNIT_BINS:=.d) $(MIXED_UNIT_BINS:=.d)
