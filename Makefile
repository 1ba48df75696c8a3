# ctorch - see README.md. Everything builds with a C compiler and make.
#   make            build and run the demo (examples/demo.c)
#   make test       build and run the whole test matrix (what CI runs)
#   make test-quick build and run the suite once (gcc, -O1)
#   make gen        regenerate ctorch/generated/ and docs/ops.md from gen/*.spec
#   make amalgamate write dist/ctorch.h
#   make bench      dispatch and autograd benchmarks (side by side with libtorch when present)

CC      ?= cc
CXX     ?= c++
WARN     = -Wall -Wextra -Wpedantic -Werror
CFLAGS  ?= -O2 -g
STD      = -std=c11
HEADERS  = ctorch.h $(wildcard ctorch/*.h) $(wildcard ctorch/ops/*.h) $(wildcard ctorch/generated/*.h)
TEST_SRC = tests/main.c $(wildcard tests/test_*.c) tests/harness.h $(wildcard tests/fixtures/*.h)
BUILD    = build

.PHONY: all demo test test-quick gen amalgamate bench clean check-fresh

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

clean:
	rm -rf $(BUILD) dist/ctorch.h.tmp
