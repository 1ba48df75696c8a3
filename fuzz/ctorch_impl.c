/* fuzz/ctorch_impl.c - ctorch's implementation for the op-sequence and
 * schema fuzzers, compiled once with the fuzzing flags (sanitizers and
 * coverage) and fuzz_common.h's allocation limit (CT_MALLOC wrappers). */
#define FZ_STANDALONE_DONE /* the standalone driver's main lives in the fuzzer's own file */
#include "fuzz_common.h"
#define CTORCH_IMPLEMENTATION
#include "ctorch.h"
