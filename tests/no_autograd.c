/* tests/no_autograd.c - the inference-only build (CT_NO_AUTOGRAD, issue 14,
 * binary size): built with -DCT_NO_AUTOGRAD by tests/run_all.sh. No op has
 * an autograd kernel and the autograd keys fall through, so nothing of the
 * engine, the derivative formulas or the ops only they call is linked; a
 * tensor cannot require grad. Checks that the ops compute as usual (an MLP,
 * in and out of inference mode and no-grad), that ct_set_requires_grad(t,
 * true) fails clearly, that the registry has every op without an autograd
 * kernel, and that custom ops and ct_impl still work. Prints "no autograd:
 * ok" and exits 0 on success. */
#ifndef CT_NO_AUTOGRAD
#define CT_NO_AUTOGRAD
#endif
#define CTORCH_IMPLEMENTATION
#include "ctorch.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int failures;
static void check(int ok, const char *what) {
  if (ok) return;
  fprintf(stderr, "FAIL %s (%s)\n", what, ct_last_error_message());
  failures++;
}
static double value(ct_tensor *t) {
  double v = NAN;
  return t && ct_item(t, &v) == CT_OK ? v : NAN;
}
static ct_tensor *twice_cpu(ct_keyset ks, ct_tensor *self) {
  (void)ks;
  return ct_keep(ct_mul_scalar(self, ct_float(2)));
}

int main(void) {
  static const float wd[6] = {1, 2, 3, 4, 5, 6}, bd[2] = {0.5f, -0.5f}, xd[3] = {1, -1, 2};
  static const int64_t ws[2] = {2, 3}, bs[1] = {2}, xs[2] = {1, 3};
  ct_tensor *w = ct_from_array(2, ws, CT_F32, wd), *b = ct_from_array(1, bs, CT_F32, bd), *x = ct_from_array(2, xs, CT_F32, xd);
  char dump[2048];
  const ct_op *op;
  CT_SCOPE { /* relu(x w^T + b) = relu([1-2+6+0.5, 4-5+12-0.5]) = [5.5, 10.5] */
    ct_tensor *h = ct_relu(ct_linear(x, w, b));
    check(fabs(value(ct_sum(h)) - 16.0) < 1e-5, "linear + relu");
    check(ct_get_int(ct_argmax(h, 1, false), 0) == 1, "argmax");
    check(!ct_requires_grad(h) && ct_grad_fn_name(h) == NULL, "no history");
  }
  CT_INFERENCE_MODE CT_SCOPE check(fabs(value(ct_sum(ct_relu(ct_linear(x, w, b)))) - 16.0) < 1e-5, "inference mode");
  CT_NO_GRAD CT_SCOPE check(fabs(value(ct_mean(ct_exp(ct_zeros(CT_DIMS(2, 2), CT_F32)))) - 1.0) < 1e-6, "no-grad");
  /* nothing can require grad */
  check(ct_set_requires_grad(w, true) == CT_ERR_UNSUPPORTED && strstr(ct_last_error_message(), "CT_NO_AUTOGRAD"),
        "ct_set_requires_grad refuses");
  ct_clear_error();
  check(ct_set_requires_grad(w, false) == CT_OK && !ct_requires_grad(w), "requires_grad false is fine");
  /* every built-in is there, none with an autograd kernel */
  check(ct_op_count() == CT__NUM_BUILTIN_OPS, "every built-in op");
  op = ct_op_find("add.Tensor");
  check(op && !ct_op_registered(op, CT_KEY_AUTOGRAD).unboxed && ct_op_registered(op, CT_KEY_CPU).unboxed, "no autograd kernel");
  check(op && strstr(ct_op_dump(op, dump, sizeof dump), "AutogradCPU") && strstr(dump, "fallthrough"), "autograd keys fall through");
  /* users' ops and kernels */
  check(ct_def("ct_test::twice(Tensor self) -> Tensor") != NULL, "ct_def");
  check(ct_impl("ct_test::twice", CT_KEY_CPU, ct_kernel_unboxed(CT_FN(twice_cpu))) == CT_OK, "ct_impl");
  CT_SCOPE {
    ct_value args[1], out;
    ct_stack s;
    ct_value buf[4];
    ct_stack_init(&s, buf, 4);
    args[0] = ct_value_tensor(x);
    check(ct_stack_push(&s, args[0]) == CT_OK && ct_call_boxed(ct_op_find("ct_test::twice"), &s) == CT_OK, "boxed call");
    out = ct_stack_pop(&s);
    check(out.tag == CT_VALUE_TENSOR && fabs(value(ct_sum(out.v.tensor)) - 4.0) < 1e-6, "custom op result");
    ct_value_release(&out);
    ct_stack_free(&s);
  }
  ct_release(w), ct_release(b), ct_release(x);
  check(ct_memory_stats_get().live_tensors == 0, "no tensor left alive");
  if (failures) return 1;
  printf("no autograd: ok\n");
  return 0;
}
