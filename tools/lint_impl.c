/* tools/lint_impl.c - the implementation alone, for cppcheck (make lint-cppcheck).
 * clang-tidy analyses it within the unity-built suite (tests/main.c); cppcheck
 * analyses it here, without the suite's test code, which costs cppcheck 2.10
 * as long again as the library itself (about 200 s of 400 on two cores). */
#define CTORCH_IMPLEMENTATION
#include "ctorch.h"
