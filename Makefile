# ctorch - see README.md. Everything builds with a C compiler and make.
#   make            build and run the main job: examples/train.c (learns spirals, saves the weights),
#                   then examples/infer.c (runs them every frame of a game loop)
#   make demo       build and run the small demo (examples/demo.c)
#   make examples   build every example into build/examples/; make run-examples runs them all
#   make test       build and run the whole test matrix (what CI runs)
#   make test-quick build and run the suite once (gcc, -O1)
#   make gen        regenerate ctorch/generated/, docs/ops.md and docs/coverage.md from gen/*.spec
#   make amalgamate write dist/ctorch.h
#   make bench      benchmarks: dispatch, autograd, and (with BLIS) GEMM, MLP, loops, allocations, latency
#   make lib        the prebuilt library: build/libctorch.a, build/libctorch.so (ctorch.c, compiled once)
#   make install    PREFIX=/usr/local (and DESTDIR): headers, libraries, pkg-config files, the CMake package;
#                   the BLIS backend too when BLIS is found, the CUDA backend when make cuda has built it
#                   (INSTALL_CUDA=no: not); make uninstall removes them
#   make blis       the BLIS CPU backend: build/libctorch_blis.a, build/libctorch_blis.so, build/cpu_blis.o
#   make blis-flags how to link the backend's static archive into a program
#   make cuda       the CUDA backend (nvcc): build/libctorch_cuda.a, build/libctorch_cuda.so
#   make cuda-flags how to link it; make test-cuda / make bench-cuda need a GPU (they skip without one)
#   make lint       clang-tidy (.clang-tidy) and cppcheck (tools/cppcheck.supp); fails on any finding
#   make fuzz       the libFuzzer fuzzers (clang): build/fuzz/; fuzz-run, fuzz-ci, fuzz-replay (fuzz/README.md)

CC      ?= cc
CXX     ?= c++
WARN     = -Wall -Wextra -Wpedantic -Werror
CFLAGS  ?= -O2 -g
STD      = -std=c11
HEADERS  = ctorch.h $(wildcard ctorch/*.h) $(wildcard ctorch/ops/*.h) $(wildcard ctorch/generated/*.h)
TEST_SRC = tests/main.c $(wildcard tests/test_*.c) tests/harness.h $(wildcard tests/fixtures/*.h)
BUILD    = build

.PHONY: all demo test test-quick test-valgrind gen amalgamate bench clean blis blis-flags lint lint-tidy lint-cppcheck

all: main

demo: $(BUILD)/demo
	./$(BUILD)/demo

$(BUILD)/demo: examples/demo.c $(HEADERS) | $(BUILD)
	$(CC) $(STD) $(WARN) $(CFLAGS) -I. -o $@ examples/demo.c -lm

$(BUILD):
	mkdir -p $(BUILD)

# One suite build: make suite NAME=x CC=... EXTRA=... INC=...
$(BUILD)/tests-%: $(TEST_SRC) $(HEADERS) | $(BUILD)
	$(CC) $(STD) $(WARN) $(CFLAGS) $(EXTRA) -I$(or $(INC),.) -Itests -o $@ tests/main.c -lm -lpthread

test-quick: $(HEADERS) $(TEST_SRC) | $(BUILD)
	$(CC) $(STD) $(WARN) -O1 -g -I. -Itests -o $(BUILD)/tests-quick tests/main.c -lm -lpthread
	./$(BUILD)/tests-quick

# (no amalgamate prerequisite: the suite checks that the committed dist/ctorch.h is current, so a stale one fails)
test:
	sh tests/run_all.sh

# ---- examples: each is a one-file program (CTORCH_IMPLEMENTATION); here the
# implementation is compiled once and linked to all (CT__DECLARATIONS_ONLY
# turns their CTORCH_IMPLEMENTATION into declarations). single_file is built
# from dist/ctorch.h alone, with one cc command.
EXAMPLES = demo train infer custom_op profile char_rnn
# (EXAMPLES_IMPL: link an implementation object already built with these CFLAGS; make test does)
EXAMPLES_IMPL ?= $(BUILD)/examples/impl.o
.PHONY: main examples run-examples
$(BUILD)/examples/impl.o: $(HEADERS)
	@mkdir -p $(BUILD)/examples
	printf '#define CTORCH_IMPLEMENTATION\n#include "ctorch.h"\n' > $(BUILD)/examples/impl.c
	$(CC) $(STD) $(WARN) $(CFLAGS) -I. -c -o $@ $(BUILD)/examples/impl.c
$(BUILD)/examples/single_file: examples/single_file.c dist/ctorch.h
	$(CC) $(STD) $(WARN) -Idist -o $@ examples/single_file.c -lm
$(BUILD)/examples/%: examples/%.c $(EXAMPLES_IMPL)
	@mkdir -p $(BUILD)/examples
	$(CC) $(STD) $(WARN) $(CFLAGS) -DCT__DECLARATIONS_ONLY -I. -o $@ $< $(EXAMPLES_IMPL) -lm -lpthread
examples: $(addprefix $(BUILD)/examples/,$(EXAMPLES) single_file)
main: $(BUILD)/examples/train $(BUILD)/examples/infer
	./$(BUILD)/examples/train && ./$(BUILD)/examples/infer
run-examples: examples
	@set -e; for e in train infer $(filter-out train infer,$(EXAMPLES)) single_file; do \
	  echo "== $$e"; ./$(BUILD)/examples/$$e > $(BUILD)/examples/$$e.out || { cat $(BUILD)/examples/$$e.out; exit 1; }; \
	  tail -n 3 $(BUILD)/examples/$$e.out; done

# valgrind memcheck over the suite and the examples (also part of make test)
test-valgrind:
	sh tests/valgrind.sh

# ---- the prebuilt library and its installation ----
# The implementation compiled once (ctorch.c, position-independent) into a
# static archive and a shared library; make install copies them with the
# headers, pkg-config files (ctorch.pc; ctorch-blis.pc, whose Libs carry the
# backend's anchor) and a CMake package (find_package(ctorch)).
PREFIX   ?= /usr/local
DESTDIR  ?=
VERSION   = $(shell sed -n 's/^\#define CT_VERSION_STRING "\(.*\)"/\1/p' ctorch/base.h)
VERSION_MAJOR = $(firstword $(subst ., ,$(VERSION)))
LIB_OPT  ?= -O2
.PHONY: lib install uninstall

lib: $(BUILD)/libctorch.a $(BUILD)/libctorch.so

$(BUILD)/ctorch.o: ctorch.c $(HEADERS) | $(BUILD)
	$(CC) $(STD) $(WARN) $(LIB_OPT) -fPIC -I. -c -o $@ ctorch.c
$(BUILD)/libctorch.a: $(BUILD)/ctorch.o
	rm -f $@ && ar rcs $@ $<
# (with the soname's link beside it, so programs linked against build/ run from there)
$(BUILD)/libctorch.so: $(BUILD)/ctorch.o
	$(CC) -shared -Wl,-soname,libctorch.so.$(VERSION_MAJOR) -o $@ $< -lm -lpthread
	ln -sf libctorch.so $(BUILD)/libctorch.so.$(VERSION_MAJOR)

# (ctorch-blis.pc and the backend's libraries only when BLIS is found)
install: lib
	@set -e; d=$(DESTDIR)$(PREFIX); \
	mkdir -p $$d/include/ctorch/ops $$d/include/ctorch/generated $$d/lib/pkgconfig $$d/lib/cmake/ctorch; \
	cp ctorch.h $$d/include/; cp ctorch/*.h $$d/include/ctorch/; cp ctorch/ops/*.h $$d/include/ctorch/ops/; \
	cp ctorch/generated/*.h $$d/include/ctorch/generated/; \
	cp backends/cpu_blis/ctorch_blis.h backends/cuda/ctorch_cuda.h $$d/include/; \
	cp $(BUILD)/libctorch.a $$d/lib/; cp $(BUILD)/libctorch.so $$d/lib/libctorch.so.$(VERSION); \
	ln -sf libctorch.so.$(VERSION) $$d/lib/libctorch.so.$(VERSION_MAJOR); ln -sf libctorch.so.$(VERSION_MAJOR) $$d/lib/libctorch.so; \
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' packaging/ctorch.pc.in > $$d/lib/pkgconfig/ctorch.pc; \
	sed -e 's|@VERSION@|$(VERSION)|g' -e 's|@VERSION_MAJOR@|$(VERSION_MAJOR)|g' packaging/ctorch-config.cmake.in > $$d/lib/cmake/ctorch/ctorch-config.cmake; \
	sed -e 's|@VERSION@|$(VERSION)|g' -e 's|@VERSION_MAJOR@|$(VERSION_MAJOR)|g' packaging/ctorch-config-version.cmake.in \
	  > $$d/lib/cmake/ctorch/ctorch-config-version.cmake; \
	echo "installed ctorch $(VERSION) into $$d"; \
	if $(BLIS_FIND) check > /dev/null 2>&1; then \
	  $(MAKE) -s blis; cp $(BUILD)/libctorch_blis.a $(BUILD)/libctorch_blis.so $$d/lib/; \
	  sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' -e "s|@BLIS_LIBS@|$$($(BLIS_FIND) libs)|" \
	    packaging/ctorch-blis.pc.in > $$d/lib/pkgconfig/ctorch-blis.pc; \
	  echo "installed the BLIS backend (ctorch-blis.pc)"; \
	else echo "BLIS not found: the BLIS backend is not installed"; fi; \
	if [ "$(INSTALL_CUDA)" != no ] && [ -f $(BUILD)/libctorch_cuda.a ] && [ -f $(BUILD)/libctorch_cuda.so ]; then \
	  cp $(BUILD)/libctorch_cuda.a $(BUILD)/libctorch_cuda.so $$d/lib/; \
	  sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' -e 's|@CUDA_LIBS@|$(CUDA_LF)|' \
	    packaging/ctorch-cuda.pc.in > $$d/lib/pkgconfig/ctorch-cuda.pc; \
	  echo "installed the CUDA backend (ctorch-cuda.pc)"; \
	else echo "the CUDA backend is not installed (make cuda first: it needs nvcc)"; fi

uninstall:
	@d=$(DESTDIR)$(PREFIX); \
	rm -f $$d/include/ctorch.h $$d/include/ctorch_blis.h $$d/include/ctorch_cuda.h; rm -rf $$d/include/ctorch; \
	rm -f $$d/lib/libctorch.a $$d/lib/libctorch.so $$d/lib/libctorch.so.$(VERSION_MAJOR) $$d/lib/libctorch.so.$(VERSION); \
	rm -f $$d/lib/libctorch_blis.a $$d/lib/libctorch_blis.so $$d/lib/pkgconfig/ctorch.pc $$d/lib/pkgconfig/ctorch-blis.pc; \
	rm -f $$d/lib/libctorch_cuda.a $$d/lib/libctorch_cuda.so $$d/lib/pkgconfig/ctorch-cuda.pc; \
	rm -rf $$d/lib/cmake/ctorch; echo "removed ctorch from $$d"

# The generator needs only a C compiler; it parses schemas with ctorch's own
# parser (ctorch/schema.h), so it never depends on the code it generates.
$(BUILD)/ctgen: gen/ctgen.c ctorch/base.h ctorch/schema.h | $(BUILD)
	$(CC) $(STD) $(WARN) -Wno-unused-function -O1 -o $@ gen/ctgen.c

gen: $(BUILD)/ctgen
	./$(BUILD)/ctgen .

amalgamate: dist/ctorch.h

dist/ctorch.h: $(HEADERS) tools/amalgamate.sh
	sh tools/amalgamate.sh > $@.tmp && mv $@.tmp $@

bench: | $(BUILD)
	sh bench/run.sh

# binary size of a static, -Os, gc-sections, stripped program built from the header
bench-size: | $(BUILD)
	sh bench/size.sh

# ---- the BLIS backend (backends/cpu_blis) ----
# BLIS is found by backends/cpu_blis/find-blis.sh: $$BLIS_CFLAGS/$$BLIS_LIBS,
# then pkg-config blis, then Debian's blis-openmp folders and the usual paths.
BLIS_FIND   = sh backends/cpu_blis/find-blis.sh
BLIS_CF     = $$($(BLIS_FIND) cflags | sed 's/-I/-isystem /g')
BLIS_LF     = $$($(BLIS_FIND) libs)
BLIS_OPT   ?= -O3

blis: $(BUILD)/libctorch_blis.a $(BUILD)/libctorch_blis.so $(BUILD)/cpu_blis.o

$(BUILD)/cpu_blis.o: backends/cpu_blis/cpu_blis.c $(HEADERS) | $(BUILD)
	@$(BLIS_FIND) check
	$(CC) $(STD) $(WARN) $(BLIS_OPT) -ffp-contract=fast -g -fPIC $(BLIS_CF) -I. -c -o $@ backends/cpu_blis/cpu_blis.c

$(BUILD)/libctorch_blis.a: $(BUILD)/cpu_blis.o
	rm -f $@ && ar rcs $@ $(BUILD)/cpu_blis.o

# ctorch's own symbols stay undefined: they come from the program's
# CTORCH_IMPLEMENTATION translation unit when the library is loaded.
$(BUILD)/libctorch_blis.so: $(BUILD)/cpu_blis.o
	$(CC) -shared -o $@ $(BUILD)/cpu_blis.o $(BLIS_LF)

blis-flags:
	@echo "static:  -Wl,-u,ct_cpu_blis_anchor $(BUILD)/libctorch_blis.a $(BLIS_LF)"
	@echo "shared:  -L$(BUILD) -Wl,--no-as-needed -lctorch_blis -Wl,--as-needed -Wl,-rpath,$(BUILD) $(BLIS_LF)"
	@echo "object:  $(BUILD)/cpu_blis.o $(BLIS_LF)"

# ---- the CUDA backend (backends/cuda) ----
# CUDA is found through $$CUDA_HOME, then nvcc on PATH, then /usr/local/cuda.
# The runtime unit is C (cc, warnings as errors), the kernels CUDA C++ (nvcc);
# CUDA_ARCH lists the GPU generations compiled for (the last also as PTX).
CUDA_HOME  ?= $(or $(shell n=$$(command -v nvcc 2>/dev/null) && dirname $$(dirname $$n)),/usr/local/cuda)
NVCC       ?= $(CUDA_HOME)/bin/nvcc
CUDA_ARCH  ?= 80 90
CUDA_GENCODE = $(foreach a,$(CUDA_ARCH),-gencode arch=compute_$(a),code=sm_$(a)) \
               -gencode arch=compute_$(lastword $(CUDA_ARCH)),code=compute_$(lastword $(CUDA_ARCH))
CUDA_LIBDIR = $(firstword $(wildcard $(CUDA_HOME)/lib64 $(CUDA_HOME)/targets/x86_64-linux/lib) $(CUDA_HOME)/lib64)
CUDA_CF    = -isystem $(CUDA_HOME)/include
CUDA_LF    = -L$(CUDA_LIBDIR) -Wl,-rpath,$(CUDA_LIBDIR) -lcublas -lcudart -lstdc++ -lpthread -ldl -lrt
CUDA_SRC   = backends/cuda/cuda_device.c backends/cuda/cuda_internal.h backends/cuda/ctorch_cuda.h

.PHONY: bench-size cuda cuda-flags test-cuda bench-cuda cuda-coverage

cuda: $(BUILD)/libctorch_cuda.a $(BUILD)/libctorch_cuda.so

$(BUILD)/cuda_device.o: $(CUDA_SRC) $(HEADERS) | $(BUILD)
	$(CC) $(STD) $(WARN) -O2 -g -fPIC $(CUDA_CF) -I. -Ibackends/cuda -c -o $@ backends/cuda/cuda_device.c
$(BUILD)/cuda_kernels.o: backends/cuda/cuda_kernels.cu backends/cuda/cuda_internal.h | $(BUILD)
	$(NVCC) -std=c++17 -O3 --fmad=false -Xcompiler -fPIC,-Wall,-Wextra,-Werror $(CUDA_GENCODE) -Ibackends/cuda -c -o $@ backends/cuda/cuda_kernels.cu
$(BUILD)/libctorch_cuda.a: $(BUILD)/cuda_device.o $(BUILD)/cuda_kernels.o
	rm -f $@ && ar rcs $@ $^
# ctorch's own symbols stay undefined: they come from the program's CTORCH_IMPLEMENTATION unit
$(BUILD)/libctorch_cuda.so: $(BUILD)/cuda_device.o $(BUILD)/cuda_kernels.o
	$(CC) -shared -o $@ $^ $(CUDA_LF)

cuda-flags:
	@echo "cflags:  -Ibackends/cuda $(CUDA_CF)"
	@echo "static:  -Wl,-u,ct_cuda_anchor $(BUILD)/libctorch_cuda.a $(CUDA_LF)"
	@echo "shared:  -L$(BUILD) -Wl,--no-as-needed -lctorch_cuda -Wl,--as-needed -Wl,-rpath,$(BUILD) $(CUDA_LF)"

# The whole suite with the backend linked: tests/test_cuda.c runs the op
# fixture suite, autograd, views and the allocator tests on cuda:0 (they
# skip without a GPU). CUDA_SAN=1 adds ASan+UBSan on the host side.
CUDA_SAN_FLAGS = -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
CUDA_OPT      ?= -O2
CUDA_TEST_SAN = $(if $(CUDA_SAN),$(CUDA_SAN_FLAGS),$(CUDA_OPT))
test-cuda: $(BUILD)/libctorch_cuda.a
	$(CC) $(STD) $(WARN) -g $(CUDA_TEST_SAN) -I. -Itests -Ibackends/cuda -DCT_TEST_CUDA -o $(BUILD)/tests-cuda tests/main.c \
	  -Wl,-u,ct_cuda_anchor $(BUILD)/libctorch_cuda.a $(CUDA_LF) -lm
	ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=0 ./$(BUILD)/tests-cuda $(CUDA_TESTS)

# which ops run natively on CUDA (no GPU needed); CUDA_COVERAGE=-v lists every op
cuda-coverage: $(BUILD)/libctorch_cuda.a
	$(CC) $(STD) $(WARN) -O1 -I. -Ibackends/cuda -o $(BUILD)/cuda_coverage tools/cuda_coverage.c \
	  -Wl,-u,ct_cuda_anchor $(BUILD)/libctorch_cuda.a $(CUDA_LF) -lm
	./$(BUILD)/cuda_coverage $(CUDA_COVERAGE)

bench-cuda: $(BUILD)/libctorch_cuda.a
	$(CC) $(STD) $(WARN) -O2 -I. -Ibackends/cuda $(CUDA_CF) -o $(BUILD)/bench_cuda bench/cuda.c \
	  -Wl,-u,ct_cuda_anchor $(BUILD)/libctorch_cuda.a $(CUDA_LF) -lm
	@if python3 -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' > /dev/null 2>&1; then \
	  python3 bench/cuda_torch.py > $(BUILD)/torch_cuda.txt; else echo "(no PyTorch with CUDA: ctorch figures only)"; : > $(BUILD)/torch_cuda.txt; fi
	CT_BENCH_TORCH=$(BUILD)/torch_cuda.txt ./$(BUILD)/bench_cuda

# ---- static analysis (docs/reliability.md) ----
# clang-tidy reads .clang-tidy; every enabled check is an error. cppcheck reads
# tools/cppcheck.supp (each suppression has its reason there) and inline
# /* cppcheck-suppress id ; reason */ comments. What is analysed:
#   tests/main.c       the implementation (CTORCH_IMPLEMENTATION) and the unity-built suite (clang-tidy;
#                      cppcheck takes the implementation alone, tools/lint_impl.c: the suite doubles its time)
#   examples/*.c       the examples (clang-tidy: with the implementation they define)
#   tests/*.c programs the stand-alone test programs (parallel, concurrent backward, misuse, BLIS)
#   gen/ctgen.c        the code generator
#   backends/cpu_blis  the BLIS backend (when BLIS is installed: its header is needed)
# One configuration is checked, the one every supported compiler takes:
# GCC/Clang builtins (__GNUC__), threads on. Sequential on purpose (-j1):
# about 3 minutes on two cores.
CLANG_TIDY ?= clang-tidy
CPPCHECK   ?= cppcheck
# clang-tidy analyses the implementation once (LINT_IMPL); the programs that
# also define CTORCH_IMPLEMENTATION are analysed against the declarations
LINT_IMPL   = tests/main.c
LINT_PROGS  = examples/demo.c examples/custom_op.c examples/linked.c examples/train.c examples/infer.c examples/profile.c examples/char_rnn.c \
              examples/single_file.c tests/parallel.c tests/concurrent_backward.c tests/concurrent_dispatch.c tests/first_use.c tests/no_autograd.c \
              tests/blis_backend.c
LINT_OTHER  = gen/ctgen.c
CPPCHECK_FLAGS = --enable=warning,style,performance,portability --std=c11 --error-exitcode=1 -q \
                 --inline-suppr --suppressions-list=tools/cppcheck.supp --library=posix --library=gnu \
                 -D__GNUC__=12 -D__x86_64__ -I. -Itests --template=gcc

lint: lint-tidy lint-cppcheck

lint-tidy:
	@command -v $(CLANG_TIDY) > /dev/null || { echo "lint: $(CLANG_TIDY) not installed"; exit 1; }
	@set -e; for f in $(LINT_IMPL) $(LINT_OTHER); do \
	  echo "clang-tidy $$f"; $(CLANG_TIDY) --quiet $$f -- $(STD) -I. -Itests 2> /dev/null; done
	@set -e; for f in $(LINT_PROGS); do \
	  echo "clang-tidy $$f (declarations)"; $(CLANG_TIDY) --quiet $$f -- $(STD) -DCT__DECLARATIONS_ONLY -I. -Itests 2> /dev/null; done
	@if $(BLIS_FIND) check > /dev/null 2>&1; then echo "clang-tidy backends/cpu_blis/cpu_blis.c"; \
	  $(CLANG_TIDY) --quiet backends/cpu_blis/cpu_blis.c -- $(STD) $(BLIS_CF) -I. 2> /dev/null; \
	else echo "clang-tidy: backends/cpu_blis/cpu_blis.c skipped (BLIS not installed: blis.h is needed)"; fi
	@if [ -f $(CUDA_HOME)/include/cuda_runtime_api.h ]; then echo "clang-tidy backends/cuda/cuda_device.c"; \
	  $(CLANG_TIDY) --quiet backends/cuda/cuda_device.c -- $(STD) $(CUDA_CF) -I. -Ibackends/cuda 2> /dev/null; \
	else echo "clang-tidy: backends/cuda/cuda_device.c skipped (CUDA headers not installed)"; fi

# The implementation is checked once, in tests/main.c; the other programs are
# checked without it (-UCT__IMPLEMENT), so each costs seconds, not minutes.
lint-cppcheck:
	@command -v $(CPPCHECK) > /dev/null || { echo "lint: $(CPPCHECK) not installed"; exit 1; }
	@echo "cppcheck tools/lint_impl.c (the implementation)"
	@$(CPPCHECK) $(CPPCHECK_FLAGS) tools/lint_impl.c
	@echo "cppcheck examples, test programs, gen, backends/cpu_blis"
	@$(CPPCHECK) $(CPPCHECK_FLAGS) -UCT__IMPLEMENT $(LINT_PROGS) $(LINT_OTHER) \
	  backends/cpu_blis/cpu_blis.c
	@echo "cppcheck backends/cuda/cuda_device.c"
	@$(CPPCHECK) $(CPPCHECK_FLAGS) -UCT__IMPLEMENT -Ibackends/cuda backends/cuda/cuda_device.c

clean:
	rm -rf $(BUILD) dist/ctorch.h.tmp

# ---- fuzzers (fuzz/README.md) ----
# libFuzzer builds need clang with compiler-rt (Debian: clang libclang-rt-14-dev);
# the -replay builds (any C compiler, -DFZ_STANDALONE) run corpus files without it.
FUZZ_CC      ?= clang
FUZZ_DIR      = $(BUILD)/fuzz
FUZZ_SAN      = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS   = $(STD) $(WARN) -O1 -g -I.
# the differential fuzzer needs BLIS (backends/cpu_blis/find-blis.sh)
FUZZ_NAMES   ?= op_sequence schema safetensors $(shell sh backends/cpu_blis/find-blis.sh check > /dev/null 2>&1 && echo differential)
FUZZ_SECONDS ?= 1800
FUZZ_CI_SECONDS ?= 45
REPLAY_SAN   ?= $(FUZZ_SAN)
FUZZ_CORE     = fuzz/fuzz_common.h $(HEADERS)
FUZZ_DIFF_SRC = fuzz/differential.c fuzz/diff_common.h fuzz/diff_side.h fuzz/diff_ref.c fuzz/diff_blis.c

.PHONY: fuzz fuzz-replay-build fuzz-run fuzz-ci fuzz-replay

fuzz: $(addprefix $(FUZZ_DIR)/,$(FUZZ_NAMES))

# objects shared by a fuzzer's parts: coverage without libFuzzer's main
$(FUZZ_DIR)/%.fo: fuzz/%.c $(FUZZ_CORE) fuzz/diff_common.h fuzz/diff_side.h | $(FUZZ_DIR)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(FUZZ_SAN) -c -o $@ $<
$(FUZZ_DIR)/cpu_blis.fo: backends/cpu_blis/cpu_blis.c $(HEADERS) | $(FUZZ_DIR)
	@$(BLIS_FIND) check
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(FUZZ_SAN) $(BLIS_CF) -c -o $@ backends/cpu_blis/cpu_blis.c

$(FUZZ_DIR)/op_sequence: fuzz/op_sequence.c $(FUZZ_DIR)/ctorch_impl.fo $(FUZZ_CORE)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(FUZZ_SAN) -o $@ fuzz/op_sequence.c $(FUZZ_DIR)/ctorch_impl.fo -lm -lpthread
$(FUZZ_DIR)/schema: fuzz/schema.c $(FUZZ_DIR)/ctorch_impl.fo $(FUZZ_CORE)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(FUZZ_SAN) -o $@ fuzz/schema.c $(FUZZ_DIR)/ctorch_impl.fo -lm -lpthread
$(FUZZ_DIR)/safetensors: fuzz/safetensors.c $(FUZZ_DIR)/ctorch_impl.fo $(FUZZ_CORE)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(FUZZ_SAN) -o $@ fuzz/safetensors.c $(FUZZ_DIR)/ctorch_impl.fo -lm -lpthread
$(FUZZ_DIR)/differential: $(FUZZ_DIFF_SRC) $(FUZZ_DIR)/diff_ref.fo $(FUZZ_DIR)/diff_blis.fo $(FUZZ_DIR)/cpu_blis.fo $(FUZZ_CORE)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(FUZZ_SAN) -o $@ fuzz/differential.c \
	  $(FUZZ_DIR)/diff_ref.fo $(FUZZ_DIR)/diff_blis.fo $(FUZZ_DIR)/cpu_blis.fo $(BLIS_LF) -lm -lpthread

# standalone replayers: $(CC), no libFuzzer (fuzz_common.h's main runs each file given)
fuzz-replay-build: $(addprefix $(FUZZ_DIR)/,$(addsuffix -replay,$(FUZZ_NAMES)))
$(FUZZ_DIR)/op_sequence-replay $(FUZZ_DIR)/schema-replay $(FUZZ_DIR)/safetensors-replay: $(FUZZ_DIR)/%-replay: fuzz/%.c fuzz/ctorch_impl.c $(FUZZ_CORE) | $(FUZZ_DIR)
	$(CC) $(FUZZ_CFLAGS) $(REPLAY_SAN) -o $@ -DFZ_STANDALONE fuzz/$*.c fuzz/ctorch_impl.c -lm -lpthread
$(FUZZ_DIR)/differential-replay: $(FUZZ_DIFF_SRC) $(FUZZ_CORE) | $(FUZZ_DIR)
	@$(BLIS_FIND) check
	$(CC) $(FUZZ_CFLAGS) $(REPLAY_SAN) $(BLIS_CF) -o $@ -DFZ_STANDALONE fuzz/differential.c fuzz/diff_ref.c fuzz/diff_blis.c \
	  backends/cpu_blis/cpu_blis.c $(BLIS_LF) -lm -lpthread

$(FUZZ_DIR):
	mkdir -p $(FUZZ_DIR)

FUZZ_ENV = ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# each fuzzer for FUZZ_SECONDS on a scratch copy of its corpus (new inputs go
# to build/fuzz/corpus-<name>; merge them into fuzz/corpus/<name> with -merge=1)
fuzz-run: fuzz
	@for f in $(FUZZ_NAMES); do \
	  mkdir -p $(FUZZ_DIR)/corpus-$$f && \
	  echo "== $$f: $(FUZZ_SECONDS) s" && \
	  $(FUZZ_ENV) $(FUZZ_DIR)/$$f -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 -timeout=30 \
	    $$( [ -f fuzz/$$f.dict ] && echo -dict=fuzz/$$f.dict ) \
	    $(FUZZ_DIR)/corpus-$$f fuzz/corpus/$$f 2> $(FUZZ_DIR)/$$f.log; rc=$$?; \
	  grep -E '^(stat::|#[0-9]+ +DONE)' $(FUZZ_DIR)/$$f.log; \
	  [ $$rc -eq 0 ] || { tail -n 40 $(FUZZ_DIR)/$$f.log; exit 1; }; \
	done

# every corpus file through the standalone replayers
fuzz-replay: fuzz-replay-build
	@for f in $(FUZZ_NAMES); do \
	  $(FUZZ_ENV) $(FUZZ_DIR)/$$f-replay fuzz/corpus/$$f/* 2> $(FUZZ_DIR)/$$f-replay.log || \
	    { echo "FAIL replay $$f"; tail -n 40 $(FUZZ_DIR)/$$f-replay.log; exit 1; }; \
	  echo "ok   replay $$f: $$(ls fuzz/corpus/$$f | wc -l) files"; \
	done

# CI: each fuzzer from its corpus (every corpus file replayed first), then a
# fixed number of inputs from a fixed seed: the run is the same everywhere,
# so CI fails on a regression, never on a finding that only a luckier run
# would make (long runs, make fuzz-run, are where new findings come from).
# FUZZ_CI_SECONDS caps each on a slow machine (a prefix of the same run).
FUZZ_CI_SEED ?= 1
FUZZ_CI_RUNS_OP_SEQUENCE ?= 60000
FUZZ_CI_RUNS_SCHEMA ?= 400000
FUZZ_CI_RUNS_SAFETENSORS ?= 200000
FUZZ_CI_RUNS_DIFFERENTIAL ?= 6000
fuzz-ci: fuzz
	@rm -rf $(FUZZ_DIR)/ci && mkdir -p $(FUZZ_DIR)/ci
	@for f in $(FUZZ_NAMES); do \
	  case $$f in op_sequence) n=$(FUZZ_CI_RUNS_OP_SEQUENCE);; schema) n=$(FUZZ_CI_RUNS_SCHEMA);; safetensors) n=$(FUZZ_CI_RUNS_SAFETENSORS);; *) n=$(FUZZ_CI_RUNS_DIFFERENTIAL);; esac; \
	  mkdir -p $(FUZZ_DIR)/ci/$$f; \
	  ( $(FUZZ_ENV) $(FUZZ_DIR)/$$f -seed=$(FUZZ_CI_SEED) -runs=$$n -max_total_time=$(FUZZ_CI_SECONDS) -print_final_stats=1 \
	      -timeout=30 -artifact_prefix=$(FUZZ_DIR)/ci/ $$( [ -f fuzz/$$f.dict ] && echo -dict=fuzz/$$f.dict ) \
	      $(FUZZ_DIR)/ci/$$f fuzz/corpus/$$f > $(FUZZ_DIR)/ci/$$f.log 2>&1 || touch $(FUZZ_DIR)/ci/$$f.failed ) & \
	done; wait
	@ok=1; for f in $(FUZZ_NAMES); do \
	  if [ -f $(FUZZ_DIR)/ci/$$f.failed ]; then ok=0; echo "FAIL fuzz $$f"; tail -n 40 $(FUZZ_DIR)/ci/$$f.log; \
	  else echo "ok   fuzz $$f: $$(grep -E '^Done [0-9]+ runs' $(FUZZ_DIR)/ci/$$f.log)"; fi; \
	done; [ $$ok -eq 1 ]
