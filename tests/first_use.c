/* tests/first_use.c - built-in ops defined on first use (issue 14, binary
 * size; ctorch/dispatch.h "the built-in ops: defined on first use"): 8
 * threads race to the first call of the same ops, each also calling ops no
 * other thread calls, while one thread enumerates every op (which defines
 * them all). Every call must be right, each op defined once (the handle a
 * typed call uses is the op ct_op_find returns), the registry in spec order
 * (ct_op_at(i) for the built-ins whatever was called first) and the count
 * the generated one. Built and run by tests/run_all.sh with
 * -fsanitize=thread: ThreadSanitizer must report nothing. Prints "first use:
 * ok" and exits 0 on success. */
#define CTORCH_IMPLEMENTATION
#include "ctorch.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define THREADS 8
static int failures;
static int go; /* all threads start together */

static void fail(long id, const char *what) {
  fprintf(stderr, "thread %ld: %s (%s)\n", id, what, ct_last_error_message());
  __atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);
}
static int near(ct_tensor *t, double want) {
  double v;
  return t && ct_item(t, &v) == CT_OK && fabs(v - want) <= 1e-5 * (1 + fabs(want));
}

static void *worker(void *arg) {
  long id = *(const long *)arg;
  while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE)) {
  }
  if (id == THREADS - 1) { /* the enumerating thread: defines every op, in spec order */
    int64_t n = ct_op_count(), i;
    for (i = 0; i < n; i++)
      if (!ct_op_at(i)) fail(id, "ct_op_at: a NULL op");
    return NULL;
  }
  CT_SCOPE {
    ct_tensor *a = ct_full(CT_DIMS(2, 3), ct_float(2.0), CT_F32), *b = ct_full(CT_DIMS(2, 3), ct_float(3.0), CT_F32);
    ct_tensor *x = ct_full(CT_DIMS(3), ct_float(1.5), CT_F32), *g;
    ct_set_requires_grad(x, true);
    if (!near(ct_sum(ct_add(a, b)), 30.0)) fail(id, "sum(add)");
    if (!near(ct_sum(ct_mul(a, b)), 36.0)) fail(id, "sum(mul)");
    if (!near(ct_amax(ct_mm(a, ct_t(b)), CT_DIMS(0, 1), false), 18.0)) fail(id, "mm");
    if (!near(ct_sum(ct_relu(ct_neg(a))), 0.0)) fail(id, "relu(neg)");
    switch (id % 3) { /* ops only some threads call */
    case 0: if (!near(ct_sum(ct_sqrt(b)), 6 * 1.7320508)) fail(id, "sqrt"); break;
    case 1: if (!near(ct_sum(ct_abs(ct_neg(a))), 12.0)) fail(id, "abs"); break;
    default: if (!near(ct_mean(ct_pow_scalar(a, ct_float(2.0))), 4.0)) fail(id, "pow"); break;
    }
    if (ct_backward(ct_sum(ct_mul(ct_exp(x), x))) != CT_OK) fail(id, "backward");
    g = ct_grad(x); /* d/dx x e^x = (1 + x) e^x */
    if (!near(ct_sum(g), 3 * 2.5 * 4.4816891)) fail(id, "gradient");
  }
  return NULL;
}

int main(void) {
  pthread_t th[THREADS];
  long ids[THREADS];
  static const char *const first[] = {"add.Tensor", "mul.Tensor", "mm", "relu", "sum", "exp", "sqrt", "abs", "pow.Tensor_Scalar"};
  long i;
  size_t k;
  ct_tensor *warm = ct_zeros(CT_DIMS(1), CT_F32); /* (the registry initialised; no op defined yet) */
  ct_release(warm);
  for (i = 0; i < THREADS; i++) {
    ids[i] = i;
    pthread_create(&th[i], NULL, worker, &ids[i]);
  }
  __atomic_store_n(&go, 1, __ATOMIC_RELEASE);
  for (i = 0; i < THREADS; i++) pthread_join(th[i], NULL);
  if (ct_op_count() != CT__NUM_BUILTIN_OPS) fail(-1, "ct_op_count is not the number of built-ins");
  if (strcmp(ct_op_at(0)->full_name, "add.Tensor")) fail(-1, "ct_op_at(0) is not the spec's first op");
  for (k = 0; k < sizeof first / sizeof first[0]; k++) { /* each defined once: the typed calls' op is the registry's */
    const ct_op *op = ct_op_find(first[k]);
    int64_t j, n = 0;
    if (!op) {
      fail(-1, first[k]);
      continue;
    }
    for (j = 0; j < CT__NUM_BUILTIN_OPS; j++) n += ct_op_at(j) == op || !strcmp(ct_op_at(j)->full_name, first[k]);
    if (n != 1) fail(-1, "an op defined twice");
  }
#ifdef CT__GENERATED_FUNCTIONS_IMPL /* (built with the implementation: the handles typed calls read) */
  if (ct__op.add_Tensor != ct_op_find("add.Tensor") || ct__op.mm != ct_op_find("mm")) fail(-1, "a handle is not the registry's op");
#endif
  if (ct_memory_stats_get().live_tensors != 0) fail(-1, "tensors left alive");
  if (failures) return 1;
  printf("first use: ok\n");
  return 0;
}
