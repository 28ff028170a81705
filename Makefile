# gtc: top-level build. Explicit source lists; objects and binaries under $(BUILD).
#   make            build gtc and the libraries
#   make test       install missing dependencies, build, run every suite that needs no GPU
#   make demo       build everything and run the main job
#   make asan       the unit and error suites under AddressSanitizer + UBSan
#   make golden / golden-update    diff / rewrite the golden files

BUILD ?= build
CC ?= cc
CUDA_HOME ?= $(if $(wildcard /usr/local/cuda),/usr/local/cuda,)
SAN_FLAGS ?=
OPT ?= -O2

CFLAGS_BASE := -std=c11 -Wall -Wextra -Werror -g $(OPT) -fPIC -MMD -MP -D_GNU_SOURCE $(SAN_FLAGS)
LDFLAGS_BASE := $(SAN_FLAGS)
CFLAGS += $(CFLAGS_BASE)

IR_SRCS := ir/types.c ir/ops.c ir/graph.c ir/names.c ir/infer.c ir/verify.c ir/dump.c \
           ir/json_read.c ir/json_write.c
COMPILER_SRCS := compiler/frontend.c
RT_CORE_SRCS := runtime/core/error.c runtime/core/tensor.c runtime/core/ops.c runtime/core/npy.c
RT_CPU_SRCS := runtime/cpu/cpu_backend.c runtime/cpu/cpu_elementwise.c runtime/cpu/cpu_reduce.c \
               runtime/cpu/cpu_matmul.c
PHP_EXT_SRCS := runtime/php/gtc_module.c runtime/php/cudaarray.c runtime/php/cudaarray_ops.c \
                runtime/php/cudaarray_convert.c \
                runtime/php/hostarray.c runtime/php/exceptions.c
GTC_MAIN := compiler/main.c
UNIT_TESTS := test_types test_infer test_verify test_json
RT_UNIT_TESTS := test_tensor test_cpu_ops

LIBGTC := $(BUILD)/libgtc.a
LIBGTCRT := $(BUILD)/libgtcrt.a
GTC_EXT := $(BUILD)/gtc.so
PHP_CONFIG ?= php-config
PHP_INCLUDES = $(shell $(PHP_CONFIG) --includes 2>/dev/null)
RUN_TESTS ?= $(firstword $(wildcard /usr/lib/php/*/build/run-tests.php) $(PHP_RUN_TESTS))
PHP ?= php
GTC := $(BUILD)/gtc
LIBGTC_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(IR_SRCS) $(COMPILER_SRCS))
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
endif
endif

.PHONY: test-gpu ref runtime rt-unit all test demo golden golden-update asan clean deps unit errors phpt
.DEFAULT_GOAL := all

all: $(GTC) $(LIBGTC) runtime
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

$(GTC_EXT): $(PHP_EXT_OBJS) $(LIBGTCRT)
	$(CC) -shared $(LDFLAGS_BASE) -o $@ $(PHP_EXT_OBJS) $(LIBGTCRT) $(GTC_EXT_CUDA) -lopenblas -lcjson -lm

$(GTC): $(BUILD)/obj/compiler/main.o $(LIBGTC)
	$(CC) $(LDFLAGS_BASE) -o $@ $^ -lcjson -lm

$(UNIT_BINS): $(BUILD)/tests/%: tests/unit/%.c $(LIBGTC)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MF $@.d -o $@ $< $(LIBGTC) $(LDFLAGS_BASE) -lcmocka -lcjson -lm

$(RT_UNIT_BINS): $(BUILD)/tests/%: tests/unit/%.c $(LIBGTCRT)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MF $@.d -o $@ $< $(LIBGTCRT) $(LDFLAGS_BASE) -lcmocka -lopenblas -lcjson -lm

# Dependencies: installed by scripts/install-deps.sh, re-run when the script changes.
$(DEPS_STAMP): scripts/install-deps.sh
	bash scripts/install-deps.sh
	@mkdir -p $(dir $@) && touch $@
deps: $(DEPS_STAMP)

unit: $(UNIT_BINS)
	@fail=0; for t in $(UNIT_BINS); do $$t || fail=1; done; exit $$fail

rt-unit: $(RT_UNIT_BINS)
	@fail=0; for t in $(RT_UNIT_BINS); do $$t || fail=1; done; exit $$fail

# The .phpt suite against the freshly built extension (CPU backend unless GTC_DEVICE says).
phpt: $(GTC_EXT)
	bash tests/php/run.sh $(GTC_EXT)

errors: $(GTC)
	bash tests/errors/run.sh $(GTC)

golden: $(GTC)
	bash tests/golden/run.sh $(GTC)

golden-update: $(GTC)
	bash tests/golden/run.sh $(GTC) --update

test: $(DEPS_STAMP)
	$(MAKE) all
	$(MAKE) unit
	$(MAKE) rt-unit
	$(MAKE) errors
	$(MAKE) golden
	$(MAKE) ref
	$(MAKE) phpt
	$(MAKE) asan
	@echo "make test: all suites passed"

demo: $(DEPS_STAMP)
	$(MAKE) all
	$(GTC) check examples/train_step.json
	$(PHP) -n -d extension=$(abspath $(GTC_EXT)) examples/eager_mlp.php 200

# The example training steps against an independent float64 NumPy gradient.
ref:
	python3 tests/ref/graph_ref.py examples/train_step.json examples/digits_step.json --check-grad

asan: $(DEPS_STAMP)
	$(MAKE) BUILD=build/asan OPT=-O1 \
	  SAN_FLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	  unit rt-unit errors phpt

# On a GPU machine: every op on the GPU against the CPU backend, and the .phpt suite on CUDA.
test-gpu: $(GPU_TEST_BINS) $(GTC_EXT)
	$(BUILD)/tests/test_gpu_ops
	GTC_DEVICE=cuda bash tests/php/run.sh $(GTC_EXT)

clean:
	rm -rf build

-include $(ALL_OBJS:.o=.d) $(UNIT_BINS:=.d) $(RT_UNIT_BINS:=.d)
