/* tests/concurrent_dispatch.c - ctorch shared between threads (issue 13,
 * thread safety): 8 threads dispatch ops, record and run autograd on shared
 * and on their own tensors, allocate, each under other guards (no-grad,
 * inference mode, recording, enable-grad inside no-grad), while another
 * thread defines custom ops and registers and removes kernels of an op the
 * workers call. Built and run by tests/run_all.sh with -fsanitize=thread:
 * ThreadSanitizer must report nothing and every result must be right.
 * Prints "concurrent dispatch: ok" and exits 0 on success. */
#define CTORCH_IMPLEMENTATION
#include "ctorch.h"

#include <pthread.h>
#include <stdio.h>

#ifndef THREADS
#define THREADS 8
#endif
#define ROUNDS 200

static ct_tensor *shared_x; /* a leaf that requires grad */
static ct_tensor *shared_y; /* shared_x * 2: a non-leaf whose grad_fn every thread uses */
static int failures;
static int registering = 1;
static int started; /* workers running: the registrar starts when all are */

static void fail(long id, const char *what) {
  fprintf(stderr, "thread %ld: %s (%s)\n", id, what, ct_last_error_message());
  __atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);
}

/* the op the registering thread keeps re-registering: 3 * self */
static ct_tensor *triple_cpu(ct_keyset ks, ct_tensor *self) {
  (void)ks;
  return ct_keep(ct_mul_scalar(self, ct_float(3)));
}
static ct_status triple_boxed(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_tensor *r;
  (void)k, (void)op, (void)ks;
  r = triple_cpu(0, s->items[s->size - 1].v.tensor);
  if (!r) return ct_last_error();
  s->items[s->size - 1] = ct_value_tensor(r); /* the argument was borrowed; the result is the stack's */
  s->items[s->size - 1].owned = 1;
  return CT_OK;
}

static void *registrar(void *arg) {
  int i;
  (void)arg;
  while (__atomic_load_n(&started, __ATOMIC_ACQUIRE) < THREADS) {}
  for (i = 0; i < 60; i++) {
    char schema[96];
    snprintf(schema, sizeof schema, "threads::op%d(Tensor self) -> Tensor", i);
    if (!ct_def(schema)) fail(-1, "ct_def");
    if (ct_impl("threads::triple", CT_KEY_CPU, ct_kernel_boxed(triple_boxed, NULL)) != CT_OK) fail(-1, "ct_impl");
    if (ct_impl_remove("threads::triple", CT_KEY_CPU) != CT_OK) fail(-1, "ct_impl_remove");
  }
  if (ct_impl("threads::triple", CT_KEY_CPU, ct_kernel_boxed(triple_boxed, NULL)) != CT_OK) fail(-1, "ct_impl");
  __atomic_store_n(&registering, 0, __ATOMIC_RELEASE);
  return NULL;
}

static void *worker(void *arg) {
  long id = *(const long *)arg;
  const ct_op *triple = ct_op_find("threads::triple");
  int r;
  __atomic_add_fetch(&started, 1, __ATOMIC_ACQ_REL);
  for (r = 0; r < ROUNDS || __atomic_load_n(&registering, __ATOMIC_ACQUIRE); r++) {
    CT_SCOPE {
      ct_tensor *own = ct_full(CT_DIMS(3, 4), ct_float((double)id), CT_F32);
      ct_tensor *w = ct_ones(CT_DIMS(4, 2), CT_F32);
      ct_stack st;
      ct_value items[4];
      ct_set_requires_grad(w, true);
      switch ((id + r) % 4) { /* guards differ between threads and rounds */
      case 0: { /* recording: gradient through the shared non-leaf (d/dx sum(y * c) = 2c) */
        ct_tensor *z = ct_mul_scalar(shared_y, ct_float((double)(id + 1)));
        ct_tensor *g[1] = {NULL};
        ct_backward_desc d;
        memset(&d, 0, sizeof d);
        d.num_outputs = 1;
        d.outputs = &z;
        d.retain_graph = true;
        z = z ? ct_sum(z) : NULL;
        if (!z || ct_autograd_grad(&d, 1, &shared_x, g) != CT_OK || !g[0] || ct_get(g[0], 0) != 2.0 * (double)(id + 1))
          fail(id, "gradient through the shared graph");
        ct_release(g[0]);
        break;
      }
      case 1:
        CT_NO_GRAD {
          ct_tensor *m = ct_mm(own, w);
          if (!m || ct_requires_grad(m) || ct_get(m, 0) != 4.0 * (double)id) fail(id, "mm under no-grad");
          CT_ENABLE_GRAD {
            ct_tensor *e = ct_mm(own, w);
            if (!e || !ct_requires_grad(e) || ct_backward(ct_sum(e)) != CT_OK || ct_get(ct_grad(w), 0) != 3.0 * (double)id)
              fail(id, "enable-grad inside no-grad");
          }
        }
        break;
      case 2:
        CT_INFERENCE_MODE {
          ct_tensor *s = ct_add(ct_relu(own), shared_x); /* reads the shared leaf */
          if (!s || ct_requires_grad(s) || ct_get(s, 0) != (double)id + 1.0) fail(id, "inference mode");
        }
        break;
      default: { /* the op being re-registered: its kernel, or a clear "no kernel" error */
        ct_status code;
        ct_stack_init(&st, items, 4);
        ct_stack_push(&st, ct_value_tensor(own));
        code = triple ? ct_call_boxed(triple, &st) : CT_ERR_INVALID;
        if (code == CT_OK) {
          if (ct_get(st.items[0].v.tensor, 0) != 3.0 * (double)id) fail(id, "threads::triple result");
        } else if (code != CT_ERR_NO_KERNEL) {
          fail(id, "threads::triple failed with another error");
        }
        ct_stack_free(&st);
        ct_clear_error();
        break;
      }
      }
    }
  }
  return NULL;
}

int main(void) {
  pthread_t th[THREADS], reg;
  static long ids[THREADS]; /* each worker's id, by address */
  long i;
  shared_x = ct_ones(CT_DIMS(4), CT_F32);
  if (!shared_x || ct_set_requires_grad(shared_x, true) != CT_OK) return 1;
  shared_y = ct_mul_scalar(shared_x, ct_float(2));
  if (!shared_y || !ct_def("threads::triple(Tensor self) -> Tensor")) return 1;
  pthread_create(&reg, NULL, registrar, NULL);
  for (i = 0; i < THREADS; i++) ids[i] = i, pthread_create(&th[i], NULL, worker, &ids[i]);
  for (i = 0; i < THREADS; i++) pthread_join(th[i], NULL);
  pthread_join(reg, NULL);
  ct_release(shared_y);
  ct_release(shared_x);
  if (failures) {
    fprintf(stderr, "concurrent dispatch: %d failures\n", failures);
    return 1;
  }
  printf("concurrent dispatch: ok (%d threads x %d+ rounds, ops registered meanwhile)\n", THREADS, ROUNDS);
  return 0;
}
