/* tests/main.c - the unity-build test runner.
 * Builds ctorch once (CTORCH_IMPLEMENTATION), includes every test file, runs
 * the registered tests in order and ends with "N passed, N failed, N skipped".
 * `ctorch_tests NAME...` runs only the tests whose name contains NAME;
 * CT_TEST_TIMES=1 in the environment adds each test's wall time in ms;
 * `ctorch_tests --misuse MODE` commits one handle misuse (tests/test_misuse.c).
 * Each test must leave no live tensors and no pending error behind. */
#define CTORCH_IMPLEMENTATION
#include "ctorch.h"

#include <stdarg.h>
#include <stdlib.h>
#include <time.h>

#include "harness.h"

typedef struct harness_test {
  const char *name, *file;
  test_fn fn;
} harness_test;
static harness_test harness_tests[2048];
static int harness_count, harness_failures_in_test, harness_skipped_in_test;

void harness_register(const char *name, const char *file, test_fn fn) {
  if (harness_count < (int)(sizeof harness_tests / sizeof harness_tests[0])) {
    harness_tests[harness_count].name = name;
    harness_tests[harness_count].file = file;
    harness_tests[harness_count++].fn = fn;
  }
}
void harness_fail(const char *file, int line, const char *fmt, ...) {
  va_list ap;
  fprintf(stdout, "    %s:%d: ", file, line);
  va_start(ap, fmt);
  vfprintf(stdout, fmt, ap);
  va_end(ap);
  fputc('\n', stdout);
  harness_failures_in_test++;
}
void harness_skip(const char *why) {
  fprintf(stdout, "    skipped: %s\n", why);
  harness_skipped_in_test = 1;
}

/* the unity build: every test file is part of this one translation unit */
/* NOLINTBEGIN(bugprone-suspicious-include) */
#include "test_autograd.c"
#include "test_views_inplace.c"
#include "test_core.c"
#include "test_dispatch.c"
#include "test_schema.c"
#include "test_overflow.c"
#include "test_errors.c"
#include "test_fixtures.c"
#include "test_hardening.c"
#include "test_fuzz_findings.c"
#include "test_opcheck.c"
#include "test_opcases.c"
#include "test_ops_unary.c"
#include "test_ops_binary.c"
#include "test_ops_reduce.c"
#include "test_ops_linalg.c"
#include "test_ops_matrix.c"
#include "test_ops_shape.c"
#include "test_ops_nn.c"
#include "test_ops_conv.c"
#include "test_ops_random.c"
#include "test_print.c"
#include "test_view_programs.c"
#include "test_device.c"
#include "test_optim.c"
#include "test_safetensors.c"
#include "test_nn.c"
#include "test_misuse.c"
#ifdef CT_TEST_CUDA /* make test-cuda: the suite linked with backends/cuda */
#include "test_cuda.c"
#endif
/* NOLINTEND(bugprone-suspicious-include) */

static int harness_cmp(const void *a, const void *b) {
  const harness_test *x = (const harness_test *)a, *y = (const harness_test *)b;
  int c = strcmp(x->file, y->file);
  return c ? c : strcmp(x->name, y->name);
}

int main(int argc, char **argv) {
  int i, j, passed = 0, failed = 0, skipped = 0, times = getenv("CT_TEST_TIMES") != NULL;
  if (argc == 3 && !strcmp(argv[1], "--misuse")) return harness_misuse(argv[2]); /* tests/test_misuse.c */
  qsort(harness_tests, (size_t)harness_count, sizeof harness_tests[0], harness_cmp);
  for (i = 0; i < harness_count; i++) {
    harness_test *t = &harness_tests[i];
    ct_memory_stats before, after;
    struct timespec t0, t1;
    char took[32] = "";
    int selected = argc < 2;
    for (j = 1; j < argc; j++)
      if (strstr(t->name, argv[j])) selected = 1;
    if (!selected) continue;
    harness_failures_in_test = 0;
    harness_skipped_in_test = 0;
    ct_clear_error();
    before = ct_memory_stats_get();
    timespec_get(&t0, TIME_UTC);
    t->fn();
    timespec_get(&t1, TIME_UTC);
    after = ct_memory_stats_get();
    if (times)
      snprintf(took, sizeof took, "  %.1f ms", (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
    if (after.live_tensors != before.live_tensors || after.live_storages != before.live_storages)
      harness_fail(t->file, 0, "leaked %lld tensors and %lld storages",
                   (long long)(after.live_tensors - before.live_tensors),
                   (long long)(after.live_storages - before.live_storages));
    if (ct_last_error() != CT_OK && !harness_failures_in_test)
      harness_fail(t->file, 0, "left an error pending: %s", ct_last_error_message());
    if (harness_skipped_in_test && !harness_failures_in_test) {
      skipped++;
      printf("SKIP %s%s\n", t->name, took);
    } else if (harness_failures_in_test) {
      failed++;
      printf("FAIL %s%s\n", t->name, took);
    } else {
      passed++;
      printf("ok   %s%s\n", t->name, took);
    }
  }
  ct_empty_cache();
  printf("%d passed, %d failed%s", passed, failed, skipped ? "" : "\n");
  if (skipped) printf(", %d skipped\n", skipped);
  return failed ? 1 : 0;
}
