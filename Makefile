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
GTC_MAIN := compiler/main.c
UNIT_TESTS := test_types test_infer test_verify test_json

LIBGTC := $(BUILD)/libgtc.a
GTC := $(BUILD)/gtc
LIBGTC_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(IR_SRCS) $(COMPILER_SRCS))
ALL_OBJS := $(LIBGTC_OBJS) $(patsubst %.c,$(BUILD)/obj/%.o,$(GTC_MAIN))
UNIT_BINS := $(addprefix $(BUILD)/tests/,$(UNIT_TESTS))
DEPS_STAMP := build/.deps-stamp

.PHONY: all test demo golden golden-update asan clean deps unit errors
.DEFAULT_GOAL := all

all: $(GTC) $(LIBGTC)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(LIBGTC): $(LIBGTC_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(GTC): $(BUILD)/obj/compiler/main.o $(LIBGTC)
	$(CC) $(LDFLAGS_BASE) -o $@ $^ -lcjson -lm

$(BUILD)/tests/%: tests/unit/%.c $(LIBGTC)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MF $@.d -o $@ $< $(LIBGTC) $(LDFLAGS_BASE) -lcmocka -lcjson -lm

# Dependencies: installed by scripts/install-deps.sh, re-run when the script changes.
$(DEPS_STAMP): scripts/install-deps.sh
	bash scripts/install-deps.sh
	@mkdir -p $(dir $@) && touch $@
deps: $(DEPS_STAMP)

unit: $(UNIT_BINS)
	@fail=0; for t in $(UNIT_BINS); do $$t || fail=1; done; exit $$fail

errors: $(GTC)
	bash tests/errors/run.sh $(GTC)

golden: $(GTC)
	bash tests/golden/run.sh $(GTC)

golden-update: $(GTC)
	bash tests/golden/run.sh $(GTC) --update

test: $(DEPS_STAMP)
	$(MAKE) all
	$(MAKE) unit
	$(MAKE) errors
	$(MAKE) golden
	@echo "make test: all suites passed"

demo: $(DEPS_STAMP)
	$(MAKE) all
	$(GTC) check examples/train_step.json
	$(GTC) dump examples/digits_step.json

asan: $(DEPS_STAMP)
	$(MAKE) BUILD=build/asan OPT=-O1 \
	  SAN_FLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	  unit errors

clean:
	rm -rf build

-include $(ALL_OBJS:.o=.d) $(UNIT_BINS:=.d)
