/* tests/test_hardening.c - regression tests of the crash, memory and
 * silent-wrong-result findings of issue 12 (outside fuzzing, sanitizers,
 * valgrind), one test per finding and its class. The sweeps against PyTorch
 * (every reduction on zero-size inputs, ...) are fixture cases:
 * tests/cases_hardening.py -> tests/fixtures/cases_hardening.h, run by
 * tests/test_opcases.c.
 *
 * Included into the unity runner after ctorch.h and harness.h.
 */

static double hd_item(const ct_tensor *t) { return ct_get(t, 0); }

/* 1. A full reduction of a zero-size tensor whose other dims are not
 * trivial wrote the row offsets of the non-empty dims into scratch sized for
 * the (empty) row. */
TEST(hardening_reduce_zero_size_rows) {
  static const ct_dtype dts[] = {CT_F32, CT_F64, CT_F16, CT_BF16, CT_I64, CT_I32, CT_U8, CT_BOOL};
  size_t k;
  for (k = 0; k < sizeof dts / sizeof dts[0]; k++) {
    CT_SCOPE {
      ct_tensor *x = ct_empty(CT_DIMS(5, 4, 0), dts[k]);
      ct_tensor *xt = ct_transpose(x, 0, 2); /* the same, not contiguous */
      ct_tensor *s = ct_sum(x), *st = ct_sum(xt), *p = ct_prod(x), *any = ct_any(x), *all = ct_all(x);
      ct_tensor *cnt = ct_count_nonzero_dims(x, 0, NULL);
      CHECK(s && s->ndim == 0 && hd_item(s) == 0);
      CHECK(st && st->ndim == 0 && hd_item(st) == 0);
      CHECK(p && p->ndim == 0 && hd_item(p) == 1);
      CHECK(any && hd_item(any) == 0);
      CHECK(all && hd_item(all) == 1);
      CHECK(cnt && hd_item(cnt) == 0);
      if (ct_dtype_is_floating(dts[k])) {
        ct_tensor *m = ct_mean(x), *v = ct_var(x, 0, NULL), *n = ct_norm(x, ct_int(2));
        CHECK(m && isnan(hd_item(m)));
        CHECK(v && isnan(hd_item(v)));
        CHECK(n && hd_item(n) == 0);
      }
    }
    CHECK(ct_last_error() == CT_OK);
    ct_clear_error();
  }
}

/* 3. A shape op's out= of the wrong dtype released the result before
 * reading its dtype for the message. */
TEST(hardening_shape_out_wrong_dtype_message) {
  CT_SCOPE {
    ct_tensor *x = ct_zeros(CT_DIMS(2, 3), CT_F32), *out = ct_empty(CT_DIMS(0), CT_F64);
    ct_tensor *idx = ct_zeros(CT_DIMS(1, 3), CT_I64);
    CHECK_ERR(ct_flip_out(out, x, CT_DIMS(0)), CT_ERR_DTYPE, "Expected out tensor to have dtype float32, but got float64");
    CHECK_ERR(ct_gather_out(out, x, 0, idx), CT_ERR_DTYPE, "have dtype float32, but got float64");
    CHECK_ERR(ct_tril_out(out, x, 0), CT_ERR_DTYPE, "have dtype float32, but got float64");
  }
}
