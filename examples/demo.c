/* examples/demo.c - a tour of ctorch in one file: `make` builds and runs it.
 * A tiny two-layer network's forward pass, views that share memory, type
 * promotion, the dispatcher's key sets, a boxed fallback that traces every
 * operator call, and errors that explain themselves. */
#define CTORCH_IMPLEMENTATION
#include "ctorch.h"

#include <stdio.h>

/* A boxed fallback: one function that sees every operator, whatever its
 * signature. It prints the op and continues below its own key. */
static ct_status trace_fallback(const ct_kernel *self, const ct_op *op, ct_keyset ks, ct_stack *stack) {
  char keys[128];
  (void)self;
  printf("  [trace] %-16s keys {%s}\n", op->full_name, ct_keyset_format(ks, keys, sizeof keys));
  return ct_redispatch_boxed(op, ks & ct_keys_below(CT_KEY_TRACER), stack);
}

int main(void) {
  const float w1_data[] = {0.5f, -1.0f, 0.25f, 1.0f, 0.0f, -0.5f}; /* 3 x 2 */
  const float x_data[] = {1, 2, 3, 4, 5, 6};                      /* 2 x 3 */
  ct_tensor *x = ct_from_array(CT_DIMS(2, 3), CT_F32, x_data);
  ct_tensor *w1 = ct_from_array(CT_DIMS(3, 2), CT_F32, w1_data);
  ct_tensor *b1 = ct_full(CT_DIMS(2), ct_float(0.1), CT_F32);
  ct_tensor *y = NULL;

  printf("x =\n");
  ct_print(x);

  /* Temporaries: everything returned inside the scope is released at its end. */
  CT_SCOPE {
    ct_tensor *h = ct_relu(ct_add(ct_mm(x, w1), b1)); /* [2,2] */
    y = ct_keep(ct_sum_dim(h, CT_DIMS(1), false));    /* escapes the scope */
    printf("relu(x @ w1 + b1) =\n");
    ct_print(h);
  }
  printf("row sums =\n");
  ct_print(y);

  /* Views share storage: writing through a transpose changes x. */
  CT_SCOPE {
    ct_tensor *xt = ct_transpose(x, 0, 1);
    ct_set(xt, 1, 100); /* xt[0][1] is x[1][0] */
    printf("after writing through x.t(): x =\n");
    ct_print(x);
    /* Type promotion follows PyTorch: int32 tensor + 2.5 -> float32. */
    ct_print(ct_add_scalar(ct_arange(0, 3, 1, CT_I32), ct_float(2.5)));
    ct_print(ct_div(ct_arange(1, 4, 1, CT_I64), ct_full(CT_DIMS(1), ct_int(2), CT_I64)));
  }

  /* The dispatcher: include the Tracer key for a scope and a boxed fallback
   * sees every op call. */
  ct_fallback(CT_KEY_TRACER, ct_kernel_boxed(trace_fallback, NULL));
  printf("tracing one forward pass:\n");
  CT_INCLUDE_KEYS(ct_keyset_of(CT_KEY_TRACER)) {
    CT_SCOPE { ct_relu(ct_add(ct_mm(x, w1), b1)); }
  }

  /* Errors are values with messages, never aborts. */
  CT_SCOPE {
    if (!ct_mm(x, x)) printf("error: %s\n", ct_last_error_message());
    if (!ct_view(ct_t(w1), CT_DIMS(6))) printf("error: %s\n", ct_last_error_message());
    if (!ct_add(x, ct_ones(CT_DIMS(4), CT_F32))) printf("error: %s\n", ct_last_error_message());
  }
  ct_clear_error();

  ct_release(x), ct_release(w1), ct_release(b1), ct_release(y);
  return 0;
}
