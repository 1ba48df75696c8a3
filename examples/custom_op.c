/* examples/custom_op.c - a user's own operator with CT_DEFINE_OP.
 *
 *   mylib::scaled_square(Tensor self, float scale) -> Tensor   (scale * self^2)
 *
 * One definition gives the schema, the typed frontend scaled_square(x, s),
 * a CPU kernel, a meta (shape) function and a derivative written with ct ops
 * (so double backward works). The program uses it with autograd, under
 * no-grad and on the meta device, then runs ct_opcheck on it (frontend vs
 * boxed call, meta vs kernel, gradcheck and gradgradcheck), and trains a
 * Linear layer through it with AdamW.
 * Build: cc -std=c11 -I. examples/custom_op.c -lm   (exit status 0 = all checks pass)
 */
#define CTORCH_IMPLEMENTATION
#include "ctorch.h"

#include <stdio.h>

/* CPU kernel: any strides, float32 or float64. Kernels run below the
 * caller's temporaries scope, so this one opens its own. */
static ct_tensor *scaled_square_cpu(ct_keyset ks, ct_tensor *self, double scale) {
  ct_tensor *out = NULL;
  (void)ks;
  if (self->dtype != CT_F32 && self->dtype != CT_F64) {
    ct_fail(CT_ERR_DTYPE, "mylib::scaled_square", "expected float32 or float64, got %s", ct_dtype_name((ct_dtype)self->dtype));
    return NULL;
  }
  CT_SCOPE {
    ct_tensor *x = ct_contiguous(self); /* dense input */
    ct_tensor *y = ct_empty_like(self);
    int64_t i;
    if (x && y && self->dtype == CT_F32) {
      const float *xp = (const float *)ct_data_ptr(x);
      float *yp = (float *)ct_data_ptr(y);
      for (i = 0; i < x->numel; i++) yp[i] = (float)(scale * xp[i] * xp[i]);
    } else if (x && y) {
      const double *xp = (const double *)ct_data_ptr(x);
      double *yp = (double *)ct_data_ptr(y);
      for (i = 0; i < x->numel; i++) yp[i] = scale * xp[i] * xp[i];
    }
    out = ct_keep(x ? y : NULL);
  }
  return out;
}

/* Meta function: the output's shape and dtype, no data (self is a meta tensor). */
static ct_tensor *scaled_square_meta(ct_keyset ks, ct_tensor *self, double scale) {
  (void)ks;
  (void)scale;
  return ct_empty_like(self);
}

/* d/dself = grad * 2 * scale * self, in ct ops: recorded under create_graph. */
static ct_status scaled_square_backward(const ct_backward_ctx *c, ct_tensor **grad_inputs) {
  ct_tensor *self = c->args[0].v.tensor;
  double scale = c->args[1].v.d;
  if (ct_backward_needs(c, 0)) grad_inputs[0] = ct_mul(c->grad, ct_mul_scalar(self, ct_float(2 * scale)));
  return ct_last_error();
}

CT_DEFINE_OP(scaled_square, "mylib::scaled_square(Tensor self, float scale) -> Tensor",
             CT_PARAMS(ct_tensor *, self, double, scale),
             .cpu = CT_FN(scaled_square_cpu), .meta = CT_FN(scaled_square_meta), .backward = scaled_square_backward)

int main(void) {
  static const float xs[6] = {1, -2, 3, 0.5f, -0.25f, 2};
  int failures = 0;
  ct_clear_error();
  CT_SCOPE {
    ct_tensor *x = ct_from_array(CT_DIMS(2, 3), CT_F32, xs), *y, *loss;
    ct_opcheck_opts opts;
    char buf[512];

    ct_set_requires_grad(x, true);
    y = scaled_square(x, 3.0); /* the typed frontend: dispatched, recorded */
    ct_format(y, buf, sizeof buf);
    printf("scaled_square(x, 3) = %s   grad_fn %s\n", buf, ct_grad_fn_name(y));
    loss = ct_sum(y);
    if (ct_backward(loss) != CT_OK) failures++;
    ct_format(ct_grad(x), buf, sizeof buf);
    printf("d sum / dx = %s   (expected 6 * x)\n", buf);

    CT_NO_GRAD { printf("under no-grad: requires_grad %d\n", (int)ct_requires_grad(scaled_square(x, 3.0))); }
    {
      ct_tensor *m = ct_empty_opts(CT_DIMS(4, 5), ct_opts(CT_F32, ct_device_make(CT_DEVICE_META, 0)));
      ct_tensor *r = scaled_square(m, 1.0);
      if (r) ct_format(r, buf, sizeof buf);
      printf("on the meta device: %s\n", r ? buf : ct_last_error_message());
    }
    {
      char dump[2048];
      printf("%s", ct_op_dump(ct_op_find("mylib::scaled_square"), dump, sizeof dump));
    }

    memset(&opts, 0, sizeof opts);
    opts.gradgradcheck = true;
    if (ct_opcheck("mylib::scaled_square", 2, (ct_value[]){ct_value_tensor(x), ct_value_double(0.5)}, &opts) == CT_OK) {
      printf("opcheck: ok (frontend = boxed, meta = kernel, gradcheck, gradgradcheck)\n");
    } else {
      printf("opcheck FAILED: %s\n", ct_last_error_message());
      failures++;
    }
  }
  /* inside training: a Linear layer's output goes through the op; AdamW
   * fits 1.5 (w x + b)^2 to 1.5 (2 x + 1)^2 on [0, 1) (so w x + b -> +-(2 x + 1)) */
  {
    ct_module *lin = ct_nn_linear(1, 1, true);
    ct_optim_opts o = ct_adamw_defaults(0.05);
    int n = 0, step;
    ct_tensor *const *params = lin ? ct_module_parameters(lin, &n) : NULL;
    ct_optim *opt = params ? ct_optim_new(CT_OPTIM_ADAMW, n, params, &o) : NULL;
    double loss = -1;
    ct_manual_seed_all(3);
    for (step = 0; opt && step < 400 && ct_last_error() == CT_OK; step++) CT_SCOPE {
      ct_tensor *x = ct_rand(CT_DIMS(32, 1));
      ct_tensor *target = scaled_square(ct_add_scalar(ct_mul_scalar(x, ct_float(2)), ct_float(1)), 1.5);
      ct_tensor *l = ct_mse_loss(scaled_square(ct_module_forward(lin, x), 1.5), target, 1);
      ct_optim_zero_grad(opt);
      if (ct_backward(l) == CT_OK && ct_optim_step(opt) == CT_OK) loss = ct_get(l, 0);
    }
    printf("trained through the op: loss %.2e, w %.3f, b %.3f (expected 2, 1 or -2, -1)\n", loss,
           lin ? ct_get(ct_module_get(lin, "weight"), 0) : 0.0, lin ? ct_get(ct_module_get(lin, "bias"), 0) : 0.0);
    if (!(loss >= 0 && loss < 1e-3)) failures++;
    ct_optim_free(opt);
    ct_module_free(lin);
  }
  if (ct_memory_stats_get().live_tensors != 0) {
    printf("leak: %lld live tensors\n", (long long)ct_memory_stats_get().live_tensors);
    failures++;
  }
  return failures != 0;
}
