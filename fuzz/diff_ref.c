/* fuzz/diff_ref.c - the differential fuzzer's reference side: a private
 * (CT_STATIC) ctorch instance with the header's reference kernels only. No
 * backend can register into it: the BLIS backend's constructor reaches the
 * exported instance in fuzz/diff_blis.c. Also the float64 recomputation. */
#define FZ_STANDALONE_DONE /* the standalone driver's main lives in differential.c */
#include "fuzz_common.h"
#define CT_STATIC
#define CTORCH_IMPLEMENTATION
#include "ctorch.h"
#define DF_SIDE(x) df_ref_##x
#include "diff_side.h"

void df_val_free(df_val *v) {
  free(v->f);
  free(v->raw);
  memset(v, 0, sizeof *v);
}

static char df_oracle_msg[256];
const char *df_ref_message(void) { return df_oracle_msg; }

int df_ref_oracle(const df_step *s, const df_val *ins, int nin, df_val *res, df_val *mag, int *common) {
  ct_tensor *T[DF_MAXIN] = {0}, *A[DF_MAXIN] = {0}, *r = NULL, *m = NULL;
  df_step s2 = *s;
  double alpha = df_scalars[s->alpha_i % DF_NSCALARS], beta = df_scalars[s->beta_i % DF_NSCALARS];
  int i, ok = 0;
  memset(res, 0, sizeof *res);
  memset(mag, 0, sizeof *mag);
  df_oracle_msg[0] = '\0';
  *common = -1;
  s2.dtype_arg = -1; /* float64 in, float64 out */
  if ((s->op == DF_SUM || s->op == DF_MEAN) && s->form == 2) s2.flag = 1; /* out= always reduces over dim */
  ct_clear_error();
  for (i = 0; i < nin; i++) {
    if (!ins[i].present) continue;
    T[i] = ct_from_array(ins[i].ndim, ins[i].sizes, CT_F64, ins[i].f);
    if (!T[i]) goto done;
  }
  if (s->op == DF_ADD || s->op == DF_SUB || s->op == DF_MUL || s->op == DF_THRESHOLD_BACKWARD) {
    /* Pointwise ops compute in the promoted dtype (a 0-dim float32 operand of a
     * bfloat16 tensor is rounded to bfloat16 first): the recomputation takes
     * the inputs rounded to that dtype, learnt from the functional op on the
     * inputs in their own dtypes. */
    ct_tensor *O[DF_MAXIN] = {0}, *probe;
    for (i = 0; i < nin; i++)
      if (ins[i].present) O[i] = ct_from_array(ins[i].ndim, ins[i].sizes, (ct_dtype)ins[i].dtype, ins[i].raw);
    probe = df_apply(s, O, 0, NULL, alpha, beta);
    if (probe) *common = probe->dtype;
    for (i = 0; probe && i < nin; i++)
      if (O[i] && O[i]->dtype != probe->dtype && ct_dtype_is_floating((ct_dtype)probe->dtype)) {
        ct_tensor *c = ct_to_dtype(O[i], (ct_dtype)probe->dtype), *c64 = c ? ct_to_dtype(c, CT_F64) : NULL;
        if (c64) ct_release(T[i]), T[i] = c64;
        ct_release(c);
      }
    ct_release(probe);
    for (i = 0; i < nin; i++) ct_release(O[i]);
    ct_clear_error();
  }
  for (i = 0; i < nin; i++)
    if (T[i] && !(A[i] = ct_abs(T[i]))) goto done;
  r = df_apply(&s2, T, 0, NULL, alpha, beta);
  /* magnitudes with |alpha|, |beta| at least 1: the unscaled sums decide
   * whether intermediates can overflow (alpha 0.5 does not undo an overflow) */
  if (s2.op == DF_SUB) s2.op = DF_ADD; /* |x| + |alpha| |y| */
  m = df_apply(&s2, A, 0, NULL, fabs(alpha) > 1 ? fabs(alpha) : 1, fabs(beta) > 1 ? fabs(beta) : 1);
  if (r && m) {
    df_export(r, res);
    df_export(m, mag);
    ok = 1;
  }
done:
  if (!ok) snprintf(df_oracle_msg, sizeof df_oracle_msg, "%.255s", ct_last_error_message());
  for (i = 0; i < nin; i++) ct_release(T[i]), ct_release(A[i]);
  ct_release(r), ct_release(m);
  ct_clear_error();
  return ok ? 0 : -1;
}
