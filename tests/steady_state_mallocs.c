/* tests/steady_state_mallocs.c - a steady-state loop makes no allocation at
 * all: every malloc, calloc and realloc of the process is counted (glibc:
 * the program's own definitions wrap __libc_malloc and friends), not only
 * ctorch's own system_allocs counter. Each workload runs 20 warm-up
 * iterations, then 10 counted ones:
 *   - an MLP training step (32-64-64-8, nn.Linear layout through ct_linear,
 *     MSE, backward, SGD, grads to None) at batch 1 and 64;
 *   - the same through addmm with [in][out] weights;
 *   - a transformer block forward (layer norm, fused QKV linear, causal
 *     scaled dot product attention, GELU MLP, residuals), seq 32, d 64, 4 heads.
 * Scratch of kernels, the autograd engine's work lists and scopes with more
 * than 16 temporaries come from the thread's block cache (ct__scratch_alloc).
 * Not for sanitizer builds (they replace malloc themselves). */
#define _GNU_SOURCE
#define CTORCH_IMPLEMENTATION
#include "ctorch.h"
#include <stdio.h>
#include <stdlib.h>

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t m);
extern void *__libc_realloc(void *p, size_t n);
extern void __libc_free(void *p);
static int counting;
static long counted;
void *malloc(size_t n) {
  counted += counting;
  return __libc_malloc(n);
}
void *calloc(size_t n, size_t m) {
  counted += counting;
  return __libc_calloc(n, m);
}
void *realloc(void *p, size_t n) {
  counted += counting;
  return __libc_realloc(p, n);
}
void free(void *p) { __libc_free(p); }

static ct_tensor *params[6];
static int linear_layout;

static void mlp_step(ct_tensor *x, ct_tensor *y) {
  int i;
  CT_SCOPE {
    ct_tensor *h = x;
    for (i = 0; i < 3; i++) {
      h = linear_layout ? ct_linear(h, params[2 * i], params[2 * i + 1]) : ct_addmm(params[2 * i + 1], h, params[2 * i]);
      if (i < 2) h = ct_relu(h);
    }
    if (ct_backward(ct_mse_loss(h, y, 1)) != CT_OK) {
      printf("FAIL mlp step: %s\n", ct_last_error_message());
      exit(1);
    }
    CT_NO_GRAD {
      for (i = 0; i < 6; i++) {
        ct_sub_ex_(params[i], ct_grad(params[i]), ct_float(0.01));
        ct_set_grad(params[i], NULL);
      }
    }
  }
}

static int check_mlp(int batch, int layout) {
  static const int64_t dims[4] = {32, 64, 64, 8};
  ct_tensor *x = ct_randn(CT_DIMS(batch, 32)), *y = ct_randn(CT_DIMS(batch, 8));
  int i, ok;
  linear_layout = layout;
  for (i = 0; i < 3; i++) {
    params[2 * i] = layout ? ct_randn(CT_DIMS(dims[i + 1], dims[i])) : ct_randn(CT_DIMS(dims[i], dims[i + 1]));
    params[2 * i + 1] = ct_randn(CT_DIMS(dims[i + 1]));
  }
  for (i = 0; i < 6; i++) ct_set_requires_grad(params[i], true);
  for (i = 0; i < 20; i++) mlp_step(x, y);
  counted = 0, counting = 1;
  for (i = 0; i < 10; i++) mlp_step(x, y);
  counting = 0;
  ok = counted == 0;
  printf("%s MLP training step, batch %d, %s: %.1f allocations per step\n", ok ? "ok  " : "FAIL", batch,
         layout ? "nn.Linear layout" : "addmm layout", counted / 10.0);
  for (i = 0; i < 6; i++) ct_release(params[i]);
  ct_release(x), ct_release(y);
  return ok;
}

/* The same MLP trained with ct_optim (AdamW, zero_grad in place, gradient
 * clipping): after the first step has made the optimizer's state, none. */
static int check_optim(int batch) {
  static const int64_t dims[4] = {32, 64, 64, 8};
  ct_tensor *x = ct_randn(CT_DIMS(batch, 32)), *y = ct_randn(CT_DIMS(batch, 8));
  ct_optim_opts o = ct_adamw_defaults(1e-3);
  ct_optim *opt;
  int i, k, ok;
  for (i = 0; i < 3; i++) {
    params[2 * i] = ct_randn(CT_DIMS(dims[i + 1], dims[i]));
    params[2 * i + 1] = ct_randn(CT_DIMS(dims[i + 1]));
  }
  for (i = 0; i < 6; i++) ct_set_requires_grad(params[i], true);
  opt = ct_optim_new(CT_OPTIM_ADAMW, 6, params, &o);
  for (k = 0; k < 30; k++) {
    if (k == 20) counted = 0, counting = 1;
    CT_SCOPE {
      ct_tensor *h = x;
      for (i = 0; i < 3; i++) {
        h = ct_linear(h, params[2 * i], params[2 * i + 1]);
        if (i < 2) h = ct_relu(h);
      }
      if (!opt || ct_optim_zero_grad(opt) != CT_OK || ct_backward(ct_mse_loss(h, y, 1)) != CT_OK ||
          ct_clip_grad_norm_(6, params, 1.0, 2, NULL) != CT_OK || ct_optim_step(opt) != CT_OK) {
        printf("FAIL optimizer step: %s\n", ct_last_error_message());
        exit(1);
      }
    }
  }
  counting = 0;
  ok = counted == 0;
  printf("%s MLP training step with ct_optim (AdamW, clip_grad_norm_), batch %d: %.1f allocations per step\n",
         ok ? "ok  " : "FAIL", batch, counted / 10.0);
  ct_optim_free(opt);
  for (i = 0; i < 6; i++) ct_release(params[i]);
  ct_release(x), ct_release(y);
  return ok;
}

static int check_transformer(void) {
  enum { S = 32, D = 64, H = 4 };
  const int64_t nd = D;
  ct_tensor *x = ct_randn(CT_DIMS(1, S, D)), *wqkv = ct_randn(CT_DIMS(3 * D, D)), *wo = ct_randn(CT_DIMS(D, D));
  ct_tensor *w1 = ct_randn(CT_DIMS(4 * D, D)), *w2 = ct_randn(CT_DIMS(D, 4 * D));
  ct_tensor *g = ct_ones(CT_DIMS(D), CT_F32), *b = ct_zeros(CT_DIMS(D), CT_F32);
  int i, ok = 1;
  for (i = 0; i < 30; i++) {
    if (i == 20) counted = 0, counting = 1;
    CT_SCOPE {
      ct_tensor *h = ct_layer_norm(x, 1, &nd, g, b, 1e-5);
      ct_tensor *qkv = ct_reshape(ct_linear(h, wqkv, NULL), CT_DIMS(1, S, 3, H, D / H));
      ct_tensor *q = ct_transpose(ct_select(qkv, 2, 0), 1, 2), *k = ct_transpose(ct_select(qkv, 2, 1), 1, 2);
      ct_tensor *v = ct_transpose(ct_select(qkv, 2, 2), 1, 2);
      ct_tensor *a = ct_scaled_dot_product_attention(q, k, v, NULL, 0, true);
      ct_tensor *o = ct_add(x, ct_linear(ct_reshape(ct_transpose(a, 1, 2), CT_DIMS(1, S, D)), wo, NULL));
      ct_tensor *y = ct_add(o, ct_linear(ct_gelu(ct_linear(ct_layer_norm(o, 1, &nd, g, b, 1e-5), w1, NULL)), w2, NULL));
      if (!y) {
        printf("FAIL transformer block: %s\n", ct_last_error_message());
        ok = 0;
      }
    }
  }
  counting = 0;
  ok &= counted == 0;
  printf("%s transformer block forward (seq %d, d %d, %d heads): %.1f allocations per forward\n", ok ? "ok  " : "FAIL", S, D,
         H, counted / 10.0);
  ct_release(x), ct_release(wqkv), ct_release(wo), ct_release(w1), ct_release(w2), ct_release(g), ct_release(b);
  return ok;
}

int main(void) {
  int ok = 1;
  ok &= check_mlp(1, 1);
  ok &= check_mlp(64, 1);
  ok &= check_mlp(1, 0);
  ok &= check_mlp(64, 0);
  ok &= check_optim(16);
  ok &= check_transformer();
  return ok ? 0 : 1;
}
