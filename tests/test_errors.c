/* tests/test_errors.c - the error contract, walked over every public area.
 *
 * Each case of err_cases performs one bad call on shared fixture tensors and
 * must (1) return NULL or a negative ct_status, (2) set the expected code,
 * (3) leave a message "op: ..." that starts with the op's name and contains a
 * description of the problem, (4) leave the live tensor and storage counts
 * unchanged. Cases that pass a NULL tensor start with no pending error, so
 * the NULL itself is reported; the chain cases check that a NULL argument
 * passes an earlier error through unchanged.
 *
 * Included into the unity runner after ctorch.h and harness.h.
 */
#include <stdlib.h>

/* ---- fixture ------------------------------------------------------------ */
typedef struct err_fixture {
  ct_tensor *x;    /* 2x3 float32, contiguous */
  ct_tensor *xt;   /* 3x2 float32: transpose of x (a non-contiguous view) */
  ct_tensor *y;    /* 2x4 float32: does not broadcast with x */
  ct_tensor *row;  /* 1x3 float32: broadcasts with x, but [1,3] != [2,3] */
  ct_tensor *v;    /* 6 float32: 1-D */
  ct_tensor *xi;   /* 2x3 int64 */
  ct_tensor *xit;  /* 3x2 int64 */
  ct_tensor *b;    /* 2x3 bool */
  ct_tensor *d8;   /* 8-D (every size 1): rank CT_MAX_DIMS */
  ct_tensor *m;    /* 2x3 float32 on the meta device */
  ct_tensor *one;  /* 1-element float32 on the meta device */
  ct_tensor *out;  /* 2x3 float32 target for out= */
  ct_tensor *outi; /* 2x3 int64 target for out= */
} err_fixture;

static int err_fixture_make(err_fixture *f) {
  static const int64_t ones8[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  memset(f, 0, sizeof *f);
  f->x = ct_arange(0, 6, 1, CT_F32);
  if (f->x) {
    ct_tensor *t = ct_view(f->x, CT_DIMS(2, 3));
    ct_release(f->x);
    f->x = t;
  }
  f->xt = f->x ? ct_transpose(f->x, 0, 1) : NULL;
  f->y = ct_ones(CT_DIMS(2, 4), CT_F32);
  f->row = ct_ones(CT_DIMS(1, 3), CT_F32);
  f->v = ct_ones(CT_DIMS(6), CT_F32);
  f->xi = ct_ones(CT_DIMS(2, 3), CT_I64);
  f->xit = ct_ones(CT_DIMS(3, 2), CT_I64);
  f->b = ct_ones(CT_DIMS(2, 3), CT_BOOL);
  f->d8 = ct_empty(8, ones8, CT_F32);
  f->m = ct_empty_opts(CT_DIMS(2, 3), ct_opts(CT_F32, CT_META));
  f->one = ct_empty_opts(CT_DIMS(1), ct_opts(CT_F32, CT_META));
  f->out = ct_zeros(CT_DIMS(2, 3), CT_F32);
  f->outi = ct_zeros(CT_DIMS(2, 3), CT_I64);
  return f->x && f->xt && f->y && f->row && f->v && f->xi && f->xit && f->b && f->d8 && f->m && f->one && f->out &&
         f->outi;
}

static void err_fixture_free(err_fixture *f) {
  ct_release(f->x);
  ct_release(f->xt);
  ct_release(f->y);
  ct_release(f->row);
  ct_release(f->v);
  ct_release(f->xi);
  ct_release(f->xit);
  ct_release(f->b);
  ct_release(f->d8);
  ct_release(f->m);
  ct_release(f->one);
  ct_release(f->out);
  ct_release(f->outi);
  memset(f, 0, sizeof *f);
}

/* ---- operators of our own, defined once per process -------------------- */
static ct_tensor *err_k_identity(ct_keyset ks, ct_tensor *self) {
  (void)ks;
  return ct_retain(self);
}
static ct_tensor *err_k_noadapt(ct_keyset ks, ct_tensor *self, const char *mode, double eps) {
  (void)ks;
  (void)mode;
  (void)eps;
  return ct_retain(self);
}
static ct_status err_k_boxed_passthrough(const ct_kernel *self, const ct_op *op, ct_keyset ks, ct_stack *stack) {
  (void)self;
  (void)op;
  (void)ks;
  (void)stack; /* leaves its argument on the stack as its result */
  return CT_OK;
}

static const ct_op *err_define(const char *schema, const char *name) {
  const ct_op *op = ct_def(schema);
  if (!op) {
    ct_clear_error();
    op = ct_op_find(name);
  }
  return op;
}

/* errtest::dup has a CPU kernel; errtest::cudaonly only a CUDA one;
 * errtest::noadapt an unboxed CPU kernel for a signature no adapter serves. */
static int err_ops_ready(void) {
  static int ready = 0;
  if (!ready) {
    const ct_op *dup = err_define("errtest::dup(Tensor self) -> Tensor", "errtest::dup");
    const ct_op *cuda = err_define("errtest::cudaonly(Tensor self) -> Tensor", "errtest::cudaonly");
    const ct_op *noadapt = err_define("errtest::noadapt(Tensor self, str mode, float eps) -> Tensor", "errtest::noadapt");
    if (!dup || !cuda || !noadapt) return 0;
    ct_impl("errtest::dup", CT_KEY_CPU, ct_kernel_unboxed(CT_FN(err_k_identity)));
    ct_impl("errtest::cudaonly", CT_KEY_CUDA, ct_kernel_boxed(err_k_boxed_passthrough, NULL));
    ct_impl("errtest::noadapt", CT_KEY_CPU, ct_kernel_unboxed(CT_FN(err_k_noadapt)));
    ct_clear_error(); /* "already has a kernel" if another run got here first */
    ready = 1;
  }
  return ready;
}
