/* examples/profile.c - a per-op profiler in 60 lines, from the dispatcher's hook.
 *
 * A boxed fallback at the Profiler key sees every op call, whatever its
 * signature: it starts a clock, redispatches below itself, and charges the
 * time to the op (total, and self: minus the ops it called, as PyTorch's
 * profiler's "Self CPU"). Including the Profiler key for a scope turns it
 * on there; the backward pass the scope runs is profiled too. The workload:
 * training steps of a transformer encoder layer and a classifier head.
 *   ./build/examples/profile */
#define _POSIX_C_SOURCE 199309L /* NOLINT(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp): clock_gettime */
#define CTORCH_IMPLEMENTATION
#include "ctorch.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef struct op_time {
  const ct_op *op;
  long calls;
  double total, self; /* seconds */
} op_time;
static op_time table[512];
static int nops;
static double child_time[64]; /* per nesting depth: time spent in ops called from the op running there */
static int depth;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static ct_status profile_fallback(const ct_kernel *self, const ct_op *op, ct_keyset ks, ct_stack *stack) {
  double start = now(), took;
  ct_status st;
  int i;
  (void)self;
  if (depth < 63) child_time[++depth] = 0;
  st = ct_redispatch_boxed(op, ks & ct_keys_below(CT_KEY_PROFILER), stack);
  took = now() - start;
  i = 0;
  while (i < nops && table[i].op != op) i++;
  if (i == nops && nops < 512) table[nops++].op = op;
  if (i < 512) table[i].calls++, table[i].total += took, table[i].self += took - child_time[depth];
  if (depth > 0) child_time[--depth] += took;
  return st;
}

static int by_total(const void *a, const void *b) {
  double x = ((const op_time *)a)->total, y = ((const op_time *)b)->total;
  return (x < y) - (x > y);
}

static void print_table(double wall) {
  double self_sum = 0;
  int i;
  qsort(table, (size_t)nops, sizeof *table, by_total);
  printf("%-36s %8s %11s %11s %7s %10s\n", "op", "calls", "total ms", "self ms", "self %", "avg us");
  for (i = 0; i < nops; i++) self_sum += table[i].self;
  for (i = 0; i < nops && i < 25; i++)
    printf("%-36s %8ld %11.3f %11.3f %6.1f%% %10.2f\n", table[i].op->full_name, table[i].calls, 1e3 * table[i].total,
           1e3 * table[i].self, 100 * table[i].self / self_sum, 1e6 * table[i].total / (double)table[i].calls);
  printf("%d ops; time in ops (self, summed) %.1f ms of %.1f ms wall\n", nops, 1e3 * self_sum, 1e3 * wall);
}

int main(void) {
  ct_transformer_opts o = ct_transformer_defaults();
  ct_module *model = ct_module_new("Model", NULL, NULL, NULL), *layer, *head;
  ct_tensor *x, *y, *const *params;
  ct_optim *opt;
  ct_optim_opts adam = ct_adam_defaults(1e-3);
  int n, step;
  double start;

  ct_manual_seed_all(0);
  o.dim_feedforward = 128, o.batch_first = true, o.dropout = 0.1;
  layer = ct_module_add(model, "encoder", ct_nn_transformer_encoder_layer(64, 4, &o));
  head = ct_module_add(model, "head", ct_nn_linear(64, 10, true));
  x = ct_randn(CT_DIMS(8, 16, 64)), y = ct_randint(0, 10, CT_DIMS(8));
  if (!layer || !head || !x || !y) return fprintf(stderr, "%s\n", ct_last_error_message()), 1;
  params = ct_module_parameters(model, &n);
  opt = ct_optim_new(CT_OPTIM_ADAM, n, params, &adam);
  if (!opt || ct_fallback(CT_KEY_PROFILER, ct_kernel_boxed(profile_fallback, NULL)) != CT_OK)
    return fprintf(stderr, "%s\n", ct_last_error_message()), 1;

  start = now();
  CT_INCLUDE_KEYS(ct_keyset_of(CT_KEY_PROFILER)) { /* everything in here is profiled */
    for (step = 0; step < 20 && ct_last_error() == CT_OK; step++) CT_SCOPE {
      ct_tensor *h = ct_nn_transformer_encoder_layer_forward(layer, x, NULL, NULL);
      ct_tensor *logits = ct_module_forward(head, ct_mean_dim(h, CT_DIMS(1), false));
      ct_optim_zero_grad(opt);
      if (ct_backward(ct_cross_entropy(logits, y, NULL, 1, -100, 0)) == CT_OK) ct_optim_step(opt);
    }
  }
  if (ct_last_error() != CT_OK) return fprintf(stderr, "%s\n", ct_last_error_message()), 1;
  print_table(now() - start);
  ct_fallback_remove(CT_KEY_PROFILER);
  ct_optim_free(opt);
  ct_module_free(model);
  ct_release(x), ct_release(y);
  return nops > 0 ? 0 : 1;
}
