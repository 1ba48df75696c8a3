# ctorch - see README.md. Everything builds with a C compiler and make.
#   make            build and run the demo (examples/demo.c)
#   make test       build and run the whole test matrix (what CI runs)
#   make test-quick build and run the suite once (gcc, -O1)
#   make gen        regenerate ctorch/generated/ and docs/ops.md from gen/*.spec
#   make amalgamate write dist/ctorch.h
#   make bench      benchmarks: dispatch, autograd, and (with BLIS) GEMM, MLP, loops, allocations, latency
#   make blis       the BLIS CPU backend: build/libctorch_blis.a, build/libctorch_blis.so, build/cpu_blis.o
#   make blis-flags how to link the backend's static archive into a program

CC      ?= cc
CXX     ?= c++
WARN     = -Wall -Wextra -Wpedantic -Werror
CFLAGS  ?= -O2 -g
STD      = -std=c11
HEADERS  = ctorch.h $(wildcard ctorch/*.h) $(wildcard ctorch/ops/*.h) $(wildcard ctorch/generated/*.h)
TEST_SRC = tests/main.c $(wildcard tests/test_*.c) tests/harness.h $(wildcard tests/fixtures/*.h)
BUILD    = build

.PHONY: all demo test test-quick test-valgrind gen amalgamate bench clean check-fresh blis blis-flags

all: demo

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

test: amalgamate
	sh tests/run_all.sh

# valgrind memcheck over the suite and the examples (also part of make test)
test-valgrind:
	sh tests/valgrind.sh

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

clean:
	rm -rf $(BUILD) dist/ctorch.h.tmp
