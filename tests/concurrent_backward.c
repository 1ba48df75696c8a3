/* tests/concurrent_backward.c - backward passes on several threads into one
 * shared leaf (issue 12 item 10): accumulation into .grad is serialised, so
 * the sum is exact and ThreadSanitizer reports nothing. Built and run by
 * tests/run_all.sh with -fsanitize=thread (and plainly). Prints
 * "concurrent backward: ok" and exits 0 on success. */
#define CTORCH_IMPLEMENTATION
#include "ctorch.h"

#include <pthread.h>
#include <stdio.h>

#define THREADS 8
#define ROUNDS 50

static ct_tensor *shared_x; /* requires grad; every thread differentiates through it */

static void *worker(void *arg) {
  long id = *(const long *)arg;
  int r;
  for (r = 0; r < ROUNDS; r++) {
    CT_SCOPE { /* d/dx sum(x * (id + 1)) = id + 1 per element; hooks and views on the way */
      ct_tensor *v = ct_slice(shared_x, 0, 0, 4, 1);
      ct_tensor *y = ct_mul_scalar(v, ct_float((double)(id + 1)));
      if (!y || ct_backward(ct_sum(y)) != CT_OK) fprintf(stderr, "thread %ld: %s\n", id, ct_last_error_message());
    }
  }
  return NULL;
}

int main(void) {
  pthread_t th[THREADS];
  static long ids[THREADS]; /* each worker's id, by address */
  long i;
  double want = 0;
  int ok = 1;
  shared_x = ct_zeros(CT_DIMS(4), CT_F64);
  if (!shared_x || ct_set_requires_grad(shared_x, true) != CT_OK) return 1;
  for (i = 0; i < THREADS; i++) ids[i] = i, pthread_create(&th[i], NULL, worker, &ids[i]);
  for (i = 0; i < THREADS; i++) pthread_join(th[i], NULL);
  for (i = 0; i < THREADS; i++) want += (double)ROUNDS * (double)(i + 1);
  for (i = 0; i < 4; i++) ok &= ct_grad(shared_x) && ct_get(ct_grad(shared_x), i) == want;
  if (!ok) {
    fprintf(stderr, "concurrent backward: x.grad is wrong (want %g everywhere)\n", want);
    if (ct_grad(shared_x)) ct_print(ct_grad(shared_x));
    return 1;
  }
  ct_release(shared_x);
  printf("concurrent backward: ok (%d threads x %d backward passes into one leaf)\n", THREADS, ROUNDS);
  return 0;
}
