/* tests/test_ops_binary.c - direct tests of gen/ops/binary.spec beyond the PyTorch
 * fixtures (tests/cases_binary.py, run by tests/test_opcases.c): opcheck of
 * every op (all variants, meta, gradcheck), values PyTorch 1.13 gives, and
 * errors. */

/* deterministic values in [lo, hi), some negated when signed */
static ct_tensor *bn_tensor(int ndim, const int64_t *sizes, ct_dtype dtype, double lo, double hi, unsigned seed, int signed_) {
  ct_tensor *t = ct_empty(ndim, sizes, dtype);
  uint32_t s = seed * 2654435761u + 777u;
  int64_t k;
  for (k = 0; t && k < t->numel; k++) {
    double u;
    s = s * 1664525u + 1013904223u;
    u = lo + (hi - lo) * ((double)(s >> 8) / 16777216.0);
    if (signed_ && (k * 5 + seed) % 3 == 0) u = -u;
    ct_set(t, k, u);
  }
  return t;
}
static ct_tensor *bn_vals(int n, ct_dtype dtype, const double *v) {
  int64_t sz = n;
  ct_tensor *t = ct_empty(1, &sz, dtype);
  int i;
  for (i = 0; t && i < n; i++) ct_set(t, i, v[i]);
  return t;
}
#define BN_VALS(dtype, ...) \
  bn_vals((int)(sizeof((const double[]){__VA_ARGS__}) / sizeof(double)), dtype, (const double[]){__VA_ARGS__})
static int bn_equal(const ct_tensor *t, int n, const double *want) {
  int i;
  if (!t || t->numel != n) return 0;
  for (i = 0; i < n; i++) {
    double g = ct_get(t, i);
    if (!(g == want[i] || (g != g && want[i] != want[i]) || fabs(g - want[i]) < 1e-6 * (1 + fabs(want[i])))) return 0;
  }
  return 1;
}
#define BN_EQ(t, ...) \
  CHECK(bn_equal(t, (int)(sizeof((const double[]){__VA_ARGS__}) / sizeof(double)), (const double[]){__VA_ARGS__}))

typedef struct bn_case {
  const char *op;
  int nargs;
  ct_value args[6];
  int skip_grad;
} bn_case;

static int bn_run(const bn_case *c) {
  ct_opcheck_opts o;
  memset(&o, 0, sizeof o);
  o.skip_gradcheck = c->skip_grad != 0;
  if (ct_opcheck(c->op, c->nargs, c->args, &o) != CT_OK) {
    harness_fail(__FILE__, __LINE__, "opcheck %s: %s", c->op, ct_last_error_message());
    ct_clear_error();
    return 0;
  }
  return 1;
}

TEST(binary_opcheck_every_op) {
  CT_SCOPE {
    ct_tensor *A = bn_tensor(CT_DIMS(2, 3), CT_F32, 0.3, 1.5, 1, 1), *B = bn_tensor(CT_DIMS(3), CT_F32, 0.4, 1.6, 2, 1);
    ct_tensor *C = bn_tensor(CT_DIMS(2, 1), CT_F32, 0.3, 1.2, 3, 1), *P = bn_tensor(CT_DIMS(2, 3), CT_F32, 0.5, 1.5, 4, 0);
    ct_tensor *Q = bn_tensor(CT_DIMS(3), CT_F32, 0.5, 2.0, 5, 0), *At = ct_t(bn_tensor(CT_DIMS(3, 2), CT_F32, 0.3, 1.5, 6, 1));
    ct_tensor *W = bn_tensor(CT_DIMS(2, 3), CT_F32, 0.0, 1.0, 7, 0), *M = ct_gt_scalar(W, ct_float(0.5));
    ct_tensor *Z = ct_scalar_tensor(ct_float(2.5), CT_F32), *Lo = bn_tensor(CT_DIMS(3), CT_F32, -0.9, -0.1, 8, 0);
    ct_tensor *Hi = bn_tensor(CT_DIMS(2, 1), CT_F32, 0.2, 0.9, 9, 0);
    ct_tensor *I = bn_tensor(CT_DIMS(2, 3), CT_I64, -9, 9, 10, 0), *J = bn_tensor(CT_DIMS(3), CT_I64, 1, 5, 11, 1);
    ct_tensor *K = bn_tensor(CT_DIMS(3), CT_I64, 0, 4, 12, 0);
    bn_case cs[80];
    int n = 0, i, ok = 0;
#define BN(name, ...)                                                                                      \
  cs[n].op = name, cs[n].skip_grad = 0,                                                                    \
  cs[n].nargs = (int)(sizeof((ct_value[]){__VA_ARGS__}) / sizeof(ct_value)),                              \
  memcpy(cs[n].args, (ct_value[]){__VA_ARGS__}, sizeof((ct_value[]){__VA_ARGS__})), n++
#define T_(t) ct_value_tensor(t)
#define S_(s) ct_value_scalar(s)
    BN("div.Tensor_mode", T_(A), T_(B), ct_value_string("floor"));
    BN("div.Tensor_mode", T_(A), T_(B), ct_value_string("trunc"));
    BN("div.Tensor_mode", T_(A), T_(P), ct_value_none());
    BN("div.Tensor_mode", T_(I), T_(J), ct_value_string("floor"));
    BN("div.Scalar_mode", T_(A), S_(ct_float(0.7)), ct_value_string("floor"));
    BN("div.Scalar_mode", T_(A), S_(ct_int(2)), ct_value_none());
    BN("pow.Tensor_Tensor", T_(P), T_(B));
    BN("pow.Tensor_Scalar", T_(A), S_(ct_int(3)));
    BN("pow.Tensor_Scalar", T_(P), S_(ct_float(-1.5)));
    BN("pow.Scalar", S_(ct_float(1.7)), T_(A));
    BN("pow.Tensor_Tensor", T_(I), T_(K));
    BN("remainder.Tensor", T_(A), T_(B));
    BN("remainder.Scalar", T_(A), S_(ct_float(-0.4)));
    BN("remainder.Scalar_Tensor", S_(ct_float(2.5)), T_(A));
    cs[n - 1].skip_grad = 1; /* not_implemented, as PyTorch */
    BN("remainder.Tensor", T_(I), T_(J));
    BN("fmod.Tensor", T_(A), T_(B));
    BN("fmod.Scalar", T_(A), S_(ct_float(0.4)));
    BN("maximum", T_(A), T_(C));
    BN("minimum", T_(At), T_(B));
    BN("atan2", T_(A), T_(C));
    BN("eq.Tensor", T_(A), T_(B));
    BN("ne.Scalar", T_(I), S_(ct_int(3)));
    BN("lt.Tensor", T_(A), T_(C));
    BN("le.Scalar", T_(A), S_(ct_float(0.5)));
    BN("gt.Tensor", T_(I), T_(A));
    BN("ge.Scalar", T_(At), S_(ct_int(0)));
    BN("eq.Scalar", T_(A), S_(ct_float(0.5)));
    BN("ne.Tensor", T_(A), T_(C));
    BN("lt.Scalar", T_(A), S_(ct_float(0.5)));
    BN("le.Tensor", T_(A), T_(C));
    BN("gt.Scalar", T_(A), S_(ct_float(0.5)));
    BN("ge.Tensor", T_(A), T_(C));
    BN("logical_and", T_(A), T_(I));
    BN("logical_or", T_(M), T_(B));
    BN("logical_xor", T_(I), T_(J));
    BN("logical_not", T_(I));
    BN("where.self", T_(M), T_(A), T_(B));
    BN("where.ScalarSelf", T_(M), S_(ct_float(0.5)), T_(A));
    BN("where.ScalarOther", T_(M), T_(At), S_(ct_int(2)));
    BN("where.Scalar", T_(M), S_(ct_float(0.5)), S_(ct_int(2)));
    BN("masked_fill.Scalar", T_(A), T_(M), S_(ct_float(-2)));
    BN("masked_fill.Tensor", T_(At), T_(M), T_(Z));
    BN("lerp.Scalar", T_(A), T_(B), S_(ct_float(0.3)));
    BN("lerp.Scalar", T_(A), T_(C), S_(ct_float(0.8)));
    BN("lerp.Tensor", T_(A), T_(B), T_(W));
    BN("addcmul", T_(A), T_(B), T_(C), S_(ct_float(0.5)));
    BN("addcdiv", T_(A), T_(B), T_(Q), S_(ct_int(2)));
    BN("clamp", T_(A), S_(ct_float(-0.5)), S_(ct_float(0.6)));
    BN("clamp", T_(A), ct_value_none(), S_(ct_float(0.6)));
    BN("clamp.Tensor", T_(A), T_(Lo), T_(Hi));
    BN("clamp.Tensor", T_(A), ct_value_none(), T_(Hi));
    BN("clamp.Tensor", T_(A), T_(Lo), ct_value_none());
    BN("clamp_min", T_(A), S_(ct_float(0.2)));
    BN("clamp_max", T_(I), S_(ct_int(2)));
    BN("clamp_min.Tensor", T_(A), T_(Lo));
    BN("clamp_max.Tensor", T_(A), T_(Hi));
#undef BN
    for (i = 0; i < n; i++) ok += bn_run(&cs[i]);
    CHECK(ok == n);
  }
}

/* values PyTorch 1.13 gives (checked with python3-torch) */
TEST(binary_values_division_family) {
  CT_SCOPE {
    ct_tensor *a = BN_VALS(CT_I64, 5, -5, 7, -7), *b = BN_VALS(CT_I64, 3, 3, -2, -2);
    ct_tensor *fa = BN_VALS(CT_F32, 5.5, -5.5, 7, -7), *fb = BN_VALS(CT_F32, 2, 2, -2.5, -2.5);
    ct_tensor *r;
    r = ct_div_mode(a, b, "floor");
    CHECK(r && r->dtype == CT_I64);
    BN_EQ(r, 1, -2, -4, 3);
    BN_EQ(ct_div_mode(a, b, "trunc"), 1, -1, -3, 3);
    r = ct_div_mode(a, b, NULL);
    CHECK(r && r->dtype == CT_F32);
    BN_EQ(ct_div_mode(fa, fb, "floor"), 2, -3, -3, 2);
    BN_EQ(ct_div_mode(fa, fb, "trunc"), 2, -2, -2, 2);
    BN_EQ(ct_div_scalar_mode(fa, ct_float(0.0), "floor"), INFINITY, -INFINITY, INFINITY, -INFINITY);
    BN_EQ(ct_remainder(a, b), 2, 1, -1, -1);
    BN_EQ(ct_fmod(a, b), 2, -2, 1, -1);
    BN_EQ(ct_remainder(fa, fb), 1.5, 0.5, -0.5, -2);
    BN_EQ(ct_fmod(fa, fb), 1.5, -1.5, 2, -2);
    r = ct_remainder_scalar_self(ct_int(3), BN_VALS(CT_I64, 2, -2));
    CHECK(r && r->dtype == CT_I64);
    BN_EQ(r, 1, -1);
    r = ct_remainder_scalar(a, ct_float(1.5)); /* int tensor, float number: float32 */
    CHECK(r && r->dtype == CT_F32);
    BN_EQ(r, 0.5, 1, 1, 0.5);
    /* integer division by zero is an error; nothing written */
    CHECK_ERR(ct_remainder(a, BN_VALS(CT_I64, 1, 0, 1, 1)), CT_ERR_INVALID, "ZeroDivisionError");
    CHECK_ERR(ct_fmod_scalar(a, ct_int(0)), CT_ERR_INVALID, "ZeroDivisionError");
    CHECK_ERR(ct_div_scalar_mode(a, ct_int(0), "trunc"), CT_ERR_INVALID, "ZeroDivisionError");
    {
      ct_tensor *c = ct_clone(a);
      CHECK_ERR(ct_div_mode_(c, BN_VALS(CT_I64, 0, 1, 1, 1), "floor"), CT_ERR_INVALID, "ZeroDivisionError");
      BN_EQ(c, 5, -5, 7, -7);
    }
    CHECK_ERR(ct_div_mode(a, b, "round"), CT_ERR_INVALID, "rounding_mode to be one of None, 'trunc', or 'floor'");
    CHECK_ERR(ct_remainder(BN_VALS(CT_BOOL, 1, 0), BN_VALS(CT_BOOL, 1, 1)), CT_ERR_DTYPE, "not implemented for 'Bool'");
    /* INT64_MIN / -1 wraps instead of trapping */
    {
      int64_t v[2] = {INT64_MIN, 7};
      ct_tensor *m = ct_from_array(CT_DIMS(2), CT_I64, v);
      BN_EQ(ct_fmod_scalar(m, ct_int(-1)), 0, 0);
      BN_EQ(ct_remainder_scalar(m, ct_int(-1)), 0, 0);
      r = ct_div_scalar_mode(m, ct_int(-1), "floor");
      CHECK(r && ((const int64_t *)ct_data_ptr(r))[0] == INT64_MIN && ((const int64_t *)ct_data_ptr(r))[1] == -7);
    }
  }
}

TEST(binary_values_pow_minmax_atan2) {
  CT_SCOPE {
    ct_tensor *i = BN_VALS(CT_I64, 2, 3), *r;
    BN_EQ(ct_pow(i, BN_VALS(CT_I64, -1, 2)), 0, 9);
    BN_EQ(ct_pow(BN_VALS(CT_I64, 1, -1, 2, -1), BN_VALS(CT_I64, -1, -3, -1, -2)), 1, -1, 0, 1);
    CHECK_ERR(ct_pow_scalar(i, ct_int(-1)), CT_ERR_INVALID, "Integers to negative integer powers are not allowed");
    r = ct_pow_scalar(BN_VALS(CT_BOOL, 1, 0), ct_int(2));
    CHECK(r && r->dtype == CT_I64);
    BN_EQ(r, 1, 0);
    r = ct_pow_scalar_self(ct_float(2.5), i);
    CHECK(r && r->dtype == CT_F32);
    BN_EQ(r, 6.25, 15.625);
    r = ct_pow_scalar_self(ct_int(-2), BN_VALS(CT_I64, -1, 3));
    CHECK(r && r->dtype == CT_I64);
    BN_EQ(r, 0, -8);
    CHECK_ERR(ct_pow(BN_VALS(CT_BOOL, 1), BN_VALS(CT_BOOL, 1)), CT_ERR_DTYPE, "not implemented for 'Bool'");
    BN_EQ(ct_maximum(BN_VALS(CT_F32, 1, NAN, 3), BN_VALS(CT_F32, 2, 0, NAN)), 2, NAN, NAN);
    BN_EQ(ct_minimum(BN_VALS(CT_F32, 1, NAN, 3), BN_VALS(CT_F32, 2, 0, NAN)), 1, NAN, NAN);
    r = ct_maximum(i, BN_VALS(CT_F64, 1.5, 0.5));
    CHECK(r && r->dtype == CT_F64);
    BN_EQ(r, 2, 3);
    r = ct_maximum(BN_VALS(CT_BOOL, 1, 0), BN_VALS(CT_BOOL, 0, 0));
    CHECK(r && r->dtype == CT_BOOL);
    BN_EQ(r, 1, 0);
    r = ct_atan2(i, i);
    CHECK(r && r->dtype == CT_F32);
    BN_EQ(r, 0.78539816, 0.78539816);
  }
}

TEST(binary_values_compare_logical) {
  CT_SCOPE {
    ct_tensor *i = BN_VALS(CT_I64, 1, 2), *f = BN_VALS(CT_F32, 1, 0), *r, *o;
    r = ct_eq_scalar(i, ct_float(1.0));
    CHECK(r && r->dtype == CT_BOOL);
    BN_EQ(r, 1, 0);
    BN_EQ(ct_lt(BN_VALS(CT_BOOL, 1), BN_VALS(CT_F32, 1.5)), 1);
    BN_EQ(ct_ge_scalar(i, ct_float(1.5)), 0, 1);
    BN_EQ(ct_ne(BN_VALS(CT_F32, NAN, 1), BN_VALS(CT_F32, NAN, 1)), 1, 0);
    o = ct_empty(CT_DIMS(2), CT_F32); /* out= of another dtype gets the values cast */
    CHECK_OK(ct_eq_out(o, i, i));
    BN_EQ(o, 1, 1);
    o = ct_clone(f);
    CHECK_OK(ct_eq_(o, BN_VALS(CT_F32, 1, 3)));
    CHECK(o->dtype == CT_F32);
    BN_EQ(o, 1, 0);
    r = ct_logical_and(f, BN_VALS(CT_I64, 2, 0));
    CHECK(r && r->dtype == CT_BOOL);
    BN_EQ(r, 1, 0);
    BN_EQ(ct_logical_or(f, BN_VALS(CT_F32, 0, NAN)), 1, 1);
    BN_EQ(ct_logical_xor(f, BN_VALS(CT_U8, 1, 1)), 0, 1);
    BN_EQ(ct_logical_not(f), 0, 1);
    o = ct_clone(i);
    CHECK_OK(ct_logical_and_(o, BN_VALS(CT_I64, 1, 0)));
    CHECK(o->dtype == CT_I64);
    BN_EQ(o, 1, 0);
    o = ct_empty(CT_DIMS(2), CT_F32);
    CHECK_OK(ct_logical_not_out(o, f));
    BN_EQ(o, 0, 1);
    CHECK_ERR(ct_eq(BN_VALS(CT_F32, 1, 2, 3), i), CT_ERR_SHAPE, "must match");
  }
}

TEST(binary_values_where_masked_fill) {
  CT_SCOPE {
    ct_tensor *c = BN_VALS(CT_BOOL, 1, 0), *i = BN_VALS(CT_I64, 1, 2), *r, *o;
    r = ct_where(c, i, BN_VALS(CT_F32, 3, 4));
    CHECK(r && r->dtype == CT_F32);
    BN_EQ(r, 1, 4);
    r = ct_where_scalar_other(c, i, ct_float(2.5));
    CHECK(r && r->dtype == CT_F32);
    BN_EQ(r, 1, 2.5);
    r = ct_where_scalar(c, ct_int(1), ct_float(2.5));
    CHECK(r && r->dtype == CT_F32);
    r = ct_where_scalar(c, ct_int(1), ct_int(2));
    CHECK(r && r->dtype == CT_I64);
    BN_EQ(r, 1, 2);
    r = ct_where_scalar_other(c, BN_VALS(CT_I32, 1, 2), ct_int(2));
    CHECK(r && r->dtype == CT_I32);
    BN_EQ(ct_where(BN_VALS(CT_U8, 1, 0), i, BN_VALS(CT_I64, 3, 4)), 1, 4); /* uint8 condition: deprecated, allowed */
    CHECK_ERR(ct_where(BN_VALS(CT_F32, 1, 0), i, i), CT_ERR_DTYPE, "where expected condition to be a boolean tensor");
    r = ct_masked_fill(i, c, ct_float(3.7)); /* value cast to self's dtype */
    CHECK(r && r->dtype == CT_I64);
    BN_EQ(r, 3, 2);
    r = ct_masked_fill(BN_VALS(CT_F32, 1, 2), ct_view(BN_VALS(CT_BOOL, 1, 0), CT_DIMS(2, 1)), ct_float(3));
    CHECK(r && r->ndim == 2 && r->sizes[0] == 2 && r->sizes[1] == 2);
    BN_EQ(r, 3, 3, 1, 2);
    CHECK_ERR(ct_masked_fill(i, BN_VALS(CT_I64, 1, 0), ct_int(1)), CT_ERR_DTYPE, "only supports boolean masks");
    CHECK_ERR(ct_masked_fill_tensor(i, c, BN_VALS(CT_I64, 1)), CT_ERR_SHAPE, "0-dimensional value tensor");
    o = ct_clone(i);
    CHECK_ERR(ct_masked_fill_(o, ct_view(BN_VALS(CT_BOOL, 1, 0), CT_DIMS(2, 1)), ct_int(0)), CT_ERR_SHAPE, "doesn't match");
    CHECK_OK(ct_masked_fill_tensor_(o, c, ct_scalar_tensor(ct_int(9), CT_I64)));
    BN_EQ(o, 9, 2);
  }
}

TEST(binary_values_lerp_addc_clamp) {
  CT_SCOPE {
    ct_tensor *a = BN_VALS(CT_F32, 1, 2), *b = BN_VALS(CT_F32, 3, 4), *r;
    BN_EQ(ct_lerp(a, b, ct_float(0.25)), 1.5, 2.5);
    BN_EQ(ct_lerp(a, b, ct_float(0.75)), 2.5, 3.5);
    BN_EQ(ct_lerp_tensor(a, b, BN_VALS(CT_F32, 0, 1)), 1, 4);
    CHECK_ERR(ct_lerp(a, BN_VALS(CT_F64, 3, 4), ct_float(0.5)), CT_ERR_DTYPE, "for `end`");
    CHECK_ERR(ct_lerp_tensor(a, b, ct_scalar_tensor(ct_float(0.5), CT_F64)), CT_ERR_DTYPE, "for `weight`");
    CHECK_ERR(ct_lerp(BN_VALS(CT_I64, 1), BN_VALS(CT_I64, 2), ct_float(0.5)), CT_ERR_DTYPE, "not implemented for 'Long'");
    r = ct_addcmul_ex(BN_VALS(CT_I64, 1, 2), BN_VALS(CT_I64, 3, 4), BN_VALS(CT_I64, 1, 2), ct_float(2.5));
    CHECK(r && r->dtype == CT_I64);
    BN_EQ(r, 7, 18);
    BN_EQ(ct_addcmul_ex(BN_VALS(CT_F32, 1, 2), BN_VALS(CT_I64, 3, 4), BN_VALS(CT_I64, 1, 2), ct_float(2.5)), 8.5, 22);
    BN_EQ(ct_addcdiv_ex(a, b, BN_VALS(CT_F32, 2, 8), ct_int(3)), 5.5, 3.5);
    CHECK_ERR(ct_addcdiv(BN_VALS(CT_F32, 1), BN_VALS(CT_I64, 3), BN_VALS(CT_I64, 1)), CT_ERR_DTYPE, "Integer division with addcdiv");
    CHECK_ERR(ct_addcmul(BN_VALS(CT_BOOL, 1), BN_VALS(CT_BOOL, 1), BN_VALS(CT_BOOL, 1)), CT_ERR_DTYPE, "'Bool'");
    r = ct_clamp(BN_VALS(CT_I32, 0, 1, 2, 3), ct_float(0.5), ct__scalar_none());
    CHECK(r && r->dtype == CT_F32);
    BN_EQ(r, 0.5, 1, 2, 3);
    BN_EQ(ct_clamp(BN_VALS(CT_F32, 1, 2), ct_float(3), ct_float(1)), 1, 1);
    BN_EQ(ct_clamp(BN_VALS(CT_F32, 1, NAN), ct_float(NAN), ct__scalar_none()), 1, NAN); /* a NaN number is ignored */
    BN_EQ(ct_clamp_tensor(BN_VALS(CT_F32, 1, NAN, 3), BN_VALS(CT_F32, 2, 2, NAN), NULL), 2, NAN, NAN); /* a NaN tensor bound is not */
    BN_EQ(ct_clamp_min_tensor(BN_VALS(CT_F32, 1, NAN, 3), BN_VALS(CT_F32, 2, 2, NAN)), 2, NAN, NAN);
    r = ct_clamp_tensor(BN_VALS(CT_BOOL, 1, 0), BN_VALS(CT_BOOL, 0, 0), NULL);
    CHECK(r && r->dtype == CT_BOOL);
    r = ct_clamp(BN_VALS(CT_BOOL, 1, 0), ct_int(0), ct__scalar_none());
    CHECK(r && r->dtype == CT_I64);
    CHECK_ERR(ct_clamp(a, ct__scalar_none(), ct__scalar_none()), CT_ERR_INVALID, "At least one of 'min' or 'max'");
    CHECK_ERR(ct_clamp_tensor(a, NULL, NULL), CT_ERR_INVALID, "At least one of 'min' or 'max'");
    {
      ct_tensor *o = BN_VALS(CT_I64, 1, 2);
      CHECK_ERR(ct_clamp_(o, ct_float(0.5), ct__scalar_none()), CT_ERR_DTYPE, "can't be cast to the desired output type Long");
      BN_EQ(o, 1, 2);
    }
  }
}

/* gradients PyTorch defines at the kinks: maximum/minimum split ties, clamp keeps the bounds */
TEST(binary_grad_ties_and_bounds) {
  CT_SCOPE {
    ct_tensor *x = BN_VALS(CT_F64, 1, 2, 3), *y = BN_VALS(CT_F64, 1, 3, 2);
    CHECK_OK(ct_set_requires_grad(x, true));
    CHECK_OK(ct_set_requires_grad(y, true));
    CHECK_OK(ct_backward(ct_sum(ct_maximum(x, y))));
    BN_EQ(ct_grad(x), 0.5, 0, 1);
    BN_EQ(ct_grad(y), 0.5, 1, 0);
  }
  CT_SCOPE {
    ct_tensor *x = BN_VALS(CT_F64, -1, 0, 0.5, 1, 2);
    CHECK_OK(ct_set_requires_grad(x, true));
    CHECK_OK(ct_backward(ct_sum(ct_clamp(x, ct_int(0), ct_int(1)))));
    BN_EQ(ct_grad(x), 0, 1, 1, 1, 0);
  }
  CT_SCOPE {
    ct_tensor *x = BN_VALS(CT_F64, -1, 0.5, 2), *lo = BN_VALS(CT_F64, 0, 0, 0), *hi = BN_VALS(CT_F64, 1, 1, 1);
    CHECK_OK(ct_set_requires_grad(x, true));
    CHECK_OK(ct_set_requires_grad(lo, true));
    CHECK_OK(ct_set_requires_grad(hi, true));
    CHECK_OK(ct_backward(ct_sum(ct_clamp_tensor(x, lo, hi))));
    BN_EQ(ct_grad(x), 0, 1, 0);
    BN_EQ(ct_grad(lo), 1, 0, 0);
    BN_EQ(ct_grad(hi), 0, 0, 1);
  }
  CT_SCOPE { /* comparisons do not carry gradients */
    ct_tensor *x = BN_VALS(CT_F64, 1, 2);
    CHECK_OK(ct_set_requires_grad(x, true));
    CHECK(!ct_requires_grad(ct_gt_scalar(x, ct_int(1))));
  }
}

/* zero-size, 0-dim, non-contiguous and meta inputs */
TEST(binary_shapes_and_meta) {
  CT_SCOPE {
    ct_tensor *e = ct_empty(CT_DIMS(0, 3), CT_F32), *v = BN_VALS(CT_F32, 1, 2, 3), *r;
    r = ct_where(ct_gt_scalar(e, ct_int(0)), e, v);
    CHECK(r && r->ndim == 2 && r->sizes[0] == 0 && r->sizes[1] == 3);
    r = ct_pow_scalar(ct_scalar_tensor(ct_float(3), CT_F64), ct_int(2));
    CHECK(r && r->ndim == 0 && r->dtype == CT_F64 && ct_get(r, 0) == 9);
    /* float32 tensor with a float64 0-dim tensor stays float32 */
    r = ct_atan2(v, ct_scalar_tensor(ct_float(1), CT_F64));
    CHECK(r && r->dtype == CT_F32);
    r = ct_maximum(ct_scalar_tensor(ct_int(2), CT_I64), ct_scalar_tensor(ct_float(1), CT_F64));
    CHECK(r && r->ndim == 0 && r->dtype == CT_F64);
    {
      ct_tensor *m = ct_empty_opts(CT_DIMS(2, 3), ct_opts(CT_F32, ct_device_make(CT_DEVICE_META, 0)));
      ct_tensor *mv = ct_empty_opts(CT_DIMS(3), ct_opts(CT_F32, ct_device_make(CT_DEVICE_META, 0)));
      r = ct_addcmul(m, mv, ct_scalar_tensor(ct_float(2), CT_F32)); /* a CPU 0-dim tensor joins any device */
      CHECK(r && r->device.type == CT_DEVICE_META && r->sizes[0] == 2 && r->sizes[1] == 3);
      r = ct_eq(m, mv);
      CHECK(r && r->device.type == CT_DEVICE_META && r->dtype == CT_BOOL);
      CHECK_ERR(ct_eq(m, v), CT_ERR_DEVICE, "same device");
      r = ct_eq(m, mv);
      CHECK(r && r->device.type == CT_DEVICE_META && r->dtype == CT_BOOL);
    }
    {
      ct_tensor *x = ct_t(bn_tensor(CT_DIMS(3, 4), CT_F64, 0.5, 2, 3, 0)), *y = ct_contiguous(x);
      ct_tensor *b = bn_tensor(CT_DIMS(4, 1), CT_F64, 0.5, 2, 4, 0);
      ct_tensor *r1 = ct_pow(x, b), *r2 = ct_pow(y, b);
      int64_t k;
      int same = r1 && r2;
      for (k = 0; same && k < r1->numel; k++) same = ct_get(r1, k) == ct_get(r2, k);
      CHECK(same);
    }
  }
}

/* second order: the formulas are written with ct ops, so double backward works */
TEST(binary_gradgradcheck) {
  CT_SCOPE {
    ct_tensor *A = bn_tensor(CT_DIMS(2, 3), CT_F64, 0.3, 1.5, 21, 1), *B = bn_tensor(CT_DIMS(3), CT_F64, 0.4, 1.6, 22, 1);
    ct_tensor *P = bn_tensor(CT_DIMS(2, 3), CT_F64, 0.5, 1.5, 23, 0), *W = bn_tensor(CT_DIMS(2, 1), CT_F64, 0, 1, 24, 0);
    ct_tensor *Q = bn_tensor(CT_DIMS(3), CT_F64, 0.5, 2.0, 25, 0), *M = ct_gt_scalar(W, ct_float(0.5));
    ct_tensor *Z = ct_scalar_tensor(ct_float(0.7), CT_F64);
    bn_case cs[32];
    int n = 0, i;
#define BN(name, ...)                                                                                      \
  cs[n].op = name, cs[n].skip_grad = 0,                                                                    \
  cs[n].nargs = (int)(sizeof((ct_value[]){__VA_ARGS__}) / sizeof(ct_value)),                              \
  memcpy(cs[n].args, (ct_value[]){__VA_ARGS__}, sizeof((ct_value[]){__VA_ARGS__})), n++
#define T_(t) ct_value_tensor(t)
#define S_(s) ct_value_scalar(s)
    BN("pow.Tensor_Scalar", T_(P), S_(ct_float(2.5)));
    BN("pow.Tensor_Tensor", T_(P), T_(B));
    BN("pow.Scalar", S_(ct_float(1.7)), T_(A));
    BN("div.Tensor_mode", T_(A), T_(Q), ct_value_none());
    BN("atan2", T_(A), T_(B));
    BN("maximum", T_(A), T_(B));
    BN("lerp.Tensor", T_(A), T_(B), T_(W));
    BN("lerp.Scalar", T_(A), T_(B), S_(ct_float(0.3)));
    BN("addcmul", T_(A), T_(B), T_(W), S_(ct_float(0.5)));
    BN("addcdiv", T_(A), T_(B), T_(Q), S_(ct_int(2)));
    BN("where.self", T_(M), T_(A), T_(B));
    BN("masked_fill.Tensor", T_(A), T_(M), T_(Z));
    BN("clamp.Tensor", T_(A), T_(ct_neg(Q)), T_(Q));
    BN("remainder.Tensor", T_(A), T_(Q));
    BN("hypot", T_(A), T_(B));
    BN("copysign.Tensor", T_(A), T_(B));
    BN("copysign.Scalar", T_(A), S_(ct_float(-1.0)));
    BN("fmax", T_(A), T_(B));
    BN("fmin", T_(A), T_(B));
    BN("xlogy.Tensor", T_(A), T_(Q));
    BN("xlogy.Scalar_Other", T_(A), S_(ct_float(2.5)));
    BN("xlogy.Scalar_Self", S_(ct_int(2)), T_(P));
    BN("logaddexp", T_(A), T_(B));
    BN("logaddexp2", T_(A), T_(B));
    BN("float_power.Tensor_Tensor", T_(P), T_(B));
    BN("float_power.Tensor_Scalar", T_(P), S_(ct_float(2.5)));
#undef BN
    for (i = 0; i < n; i++) {
      ct_opcheck_opts o;
      memset(&o, 0, sizeof o);
      o.gradgradcheck = true;
      if (ct_opcheck(cs[i].op, cs[i].nargs, cs[i].args, &o) != CT_OK) {
        harness_fail(__FILE__, __LINE__, "gradgradcheck %s: %s", cs[i].op, ct_last_error_message());
        ct_clear_error();
      }
    }
  }
}

/* pow_ has its own derivative entries (its overload names differ from pow's) */
/* cppcheck-suppress constParameter ; the ct_gradcheck callback type fixes the signature */
static ct_tensor *bn_pow_inplace_fn(ct_tensor *const *in, void *ctx) {
  ct_tensor *x = ct_mul_scalar(in[0], ct_int(1)); /* a non-leaf to write into */
  if (ctx) {
    if (ct_pow_scalar_(x, ct_float(2.5)) != CT_OK) return NULL;
  } else if (ct_pow_(x, in[1]) != CT_OK) {
    return NULL;
  }
  return x;
}
TEST(binary_pow_inplace_grad) {
  CT_SCOPE {
    ct_tensor *in[2];
    int flag = 1;
    in[0] = bn_tensor(CT_DIMS(2, 3), CT_F64, 0.5, 1.5, 31, 0);
    in[1] = bn_tensor(CT_DIMS(3), CT_F64, -1, 2, 32, 0);
    CHECK_OK(ct_set_requires_grad(in[0], true));
    CHECK_OK(ct_gradcheck(bn_pow_inplace_fn, &flag, 1, in, NULL));
    CHECK_OK(ct_set_requires_grad(in[1], true));
    CHECK_OK(ct_gradcheck(bn_pow_inplace_fn, NULL, 2, in, NULL));
  }
}

/* out= rules: resized when its shape differs, cast from the result dtype when allowed, never an expanded tensor */
TEST(binary_out_rules) {
  CT_SCOPE {
    ct_tensor *a = BN_VALS(CT_F32, 1, 5, 3), *b = BN_VALS(CT_F32, 4, 2, 3), *o;
    o = ct_empty(CT_DIMS(0), CT_F64);
    CHECK_OK(ct_maximum_out(o, a, b));
    CHECK(o->ndim == 1 && o->sizes[0] == 3 && o->dtype == CT_F64);
    BN_EQ(o, 4, 5, 3);
    o = ct_empty(CT_DIMS(3), CT_I64);
    CHECK_ERR(ct_maximum_out(o, a, b), CT_ERR_DTYPE, "result type Float can't be cast to the desired output type Long");
    CHECK_ERR(ct_lt_out(ct_expand(ct_empty(CT_DIMS(1), CT_BOOL), CT_DIMS(3)), a, b), CT_ERR_INVALID, "single memory location");
    o = ct_empty(CT_DIMS(3), CT_U8);
    CHECK_OK(ct_where_out(o, ct_lt(a, b), BN_VALS(CT_U8, 1, 2, 3), ct_scalar_tensor(ct_int(9), CT_U8)));
    BN_EQ(o, 1, 9, 9);
    o = ct_empty(CT_DIMS(3), CT_F32);
    CHECK_OK(ct_clamp_tensor_out(o, a, NULL, BN_VALS(CT_F32, 2, 2, 2)));
    BN_EQ(o, 1, 2, 2);
    CHECK_OK(ct_div_mode_out(o, a, b, "floor"));
    BN_EQ(o, 0, 2, 1);
    CHECK_OK(ct_div_mode_out(o, a, b, NULL));
    BN_EQ(o, 0.25, 2.5, 1);
    CHECK_ERR(ct_div_mode_out(o, a, b, "nearest"), CT_ERR_INVALID, "rounding_mode");
  }
}

/* in-place variants record their functional op's derivative on a non-leaf */
static ct_tensor *bn_inplace_chain(ct_tensor *const *in, void *ctx) {
  ct_tensor *x = ct_mul_scalar(in[0], ct_int(2)), *m = ct_gt_scalar(in[1], ct_float(0.2));
  (void)ctx;
  if (ct_addcmul_(x, in[1], in[2]) != CT_OK || ct_clamp_(x, ct_float(-1.5), ct_float(1.5)) != CT_OK ||
      ct_lerp_tensor_(x, in[1], in[2]) != CT_OK || ct_masked_fill_(x, m, ct_float(0.25)) != CT_OK ||
      ct_atan2_(x, in[2]) != CT_OK || ct_div_mode_(x, in[1], NULL) != CT_OK || ct_remainder_(x, in[2]) != CT_OK)
    return NULL;
  return x;
}
TEST(binary_inplace_grad) {
  CT_SCOPE {
    ct_tensor *in[3];
    int i;
    in[0] = bn_tensor(CT_DIMS(2, 3), CT_F64, 0.1, 1.0, 41, 1);
    in[1] = bn_tensor(CT_DIMS(3), CT_F64, 0.5, 1.0, 42, 0);
    in[2] = bn_tensor(CT_DIMS(2, 1), CT_F64, 0.3, 0.9, 43, 0);
    for (i = 0; i < 3; i++) CHECK_OK(ct_set_requires_grad(in[i], true));
    CHECK_OK(ct_gradcheck(bn_inplace_chain, NULL, 3, in, NULL));
  }
}

/* The pointwise engine's fast lane (contiguous CPU operands of one float
 * dtype and one shape) against its general path, which the same values in a
 * transposed layout take: equal results bit for bit, the same errors and
 * version bumps; the lane steps aside for shared storage it does not decide
 * and for a CPU loop a user set. */
static int fl_same(ct_tensor *x, ct_tensor *y) {
  /* A backend (the BLIS suite) may take the contiguous call with kernels of
   * its own rounding (its exp, an fma): then within a few ulps, else exact. */
  double tol = ct_backend_first() ? (x && x->dtype == CT_F32 ? 1e-6 : 1e-14) : 0;
  int64_t k;
  if (!x || !y || x->numel != y->numel || x->dtype != y->dtype || !ct__same_sizes(x, y)) return 0;
  for (k = 0; k < x->numel; k++) {
    double u = ct_get(x, k), v = ct_get(y, k);
    if (!(u == v || (u != u && v != v) || fabs(u - v) <= tol * (fabs(v) > 1 ? fabs(v) : 1))) return 0;
  }
  return 1;
}
static ct_tensor *fl_transposed(ct_tensor *t) { return ct_t(ct_contiguous(ct_t(t))); } /* same values, column-major */
static int fl_loop_calls;
static ct_status fl_counting_loop(const ct_pointwise_call *call) {
  fl_loop_calls++;
  return ct_host_pointwise_loop(call);
}
TEST(pointwise_fast_lane_matches_general_path) {
  static const ct_dtype dts[2] = {CT_F32, CT_F64};
  int i;
  for (i = 0; i < 2; i++) CT_SCOPE {
    ct_tensor *a = bn_tensor(CT_DIMS(3, 4), dts[i], 0.1, 2.0, 51, 1), *b = bn_tensor(CT_DIMS(3, 4), dts[i], 0.1, 2.0, 52, 1);
    ct_tensor *c = bn_tensor(CT_DIMS(3, 4), dts[i], 0.2, 0.9, 53, 0);
    ct_tensor *at = fl_transposed(a), *bt = fl_transposed(b), *ct = fl_transposed(c), *x, *o;
    int64_t v;
    CHECK(ct_is_contiguous(a) && !ct_is_contiguous(at));
    CHECK(fl_same(ct_add_ex(a, b, ct_float(0.5)), ct_add_ex(at, bt, ct_float(0.5))));
    CHECK(fl_same(ct_sub_ex(a, b, ct_int(3)), ct_sub_ex(at, bt, ct_int(3))));
    CHECK(fl_same(ct_mul(a, b), ct_mul(at, bt)) && fl_same(ct_div(a, b), ct_div(at, bt)));
    CHECK(fl_same(ct_threshold_backward(a, b, ct_float(0.3)), ct_threshold_backward(at, bt, ct_float(0.3))));
    CHECK(fl_same(ct_lerp_tensor(a, b, c), ct_lerp_tensor(at, bt, ct)));
    CHECK(fl_same(ct_addcmul_ex(a, b, c, ct_float(-1.5)), ct_addcmul_ex(at, bt, ct, ct_float(-1.5))));
    CHECK(fl_same(ct_relu(a), ct_relu(at)) && fl_same(ct_exp(a), ct_exp(at)) && fl_same(ct_sigmoid(b), ct_sigmoid(bt)));
    x = ct_clone(a); /* in place: the result and a version bump */
    v = x->storage->version;
    CHECK_OK(ct_add_ex_(x, b, ct_float(-0.25)));
    CHECK(x->storage->version == v + 1 && fl_same(x, ct_add_ex(at, bt, ct_float(-0.25))));
    CHECK_OK(ct_add_(x, x)); /* self as the other input: the very same elements */
    CHECK(fl_same(x, ct_mul_scalar(ct_add_ex(at, bt, ct_float(-0.25)), ct_int(2))));
    o = ct_empty(CT_DIMS(3, 4), dts[i]);
    v = o->storage->version;
    CHECK_OK(ct_mul_out(o, a, b));
    CHECK(o->storage->version == v + 1 && fl_same(o, ct_mul(at, bt)));
    CHECK_OK(ct_exp_out(o, a));
    CHECK(fl_same(o, ct_exp(at)));
    /* the checks of the Scalar parameter, as the general path */
    CHECK_ERR(ct_add_ex(a, b, ct_bool(true)), CT_ERR_DTYPE, "boolean alpha");
    if (dts[i] == CT_F32) CHECK_ERR(ct_add_ex(a, b, ct_float(1e300)), CT_ERR_INVALID, "without overflow");
    else CHECK(ct_add_ex(a, b, ct_float(1e300)) != NULL);
    CHECK(fl_same(ct_add(ct_empty(CT_DIMS(0, 3), dts[i]), ct_empty(CT_DIMS(0, 3), dts[i])), ct_empty(CT_DIMS(0, 3), dts[i])));
  }
  CT_SCOPE {
    ct_tensor *h = ct_ones(CT_DIMS(4), CT_F16), *base = ct_arange_start_step(ct_float(0), ct_float(8), ct_float(1), CT_F32);
    ct_tensor *p = ct_narrow(base, 0, 0, 4), *q = ct_narrow(base, 0, 1, 4), *w, *r;
    CHECK_ERR(ct_add_ex(h, h, ct_int(100000)), CT_ERR_INVALID, "without overflow"); /* float16 holds 65504 at most */
    CHECK(ct_add_ex(h, h, ct_int(1000)) != NULL);
    /* out= sharing some of an input's elements: the general path refuses it */
    CHECK_ERR(ct_add_out(q, p, p), CT_ERR_INVALID, "some elements");
    /* a user's CPU loop: every call goes through it */
    fl_loop_calls = 0;
    CHECK_OK(ct_set_pointwise_loop(CT_DEVICE_CPU, fl_counting_loop));
    w = ct_add(p, p);
    r = ct_relu(p);
    CHECK_OK(ct_set_pointwise_loop(CT_DEVICE_CPU, ct_host_pointwise_loop));
    CHECK(w && r && ct_get(w, 3) == 6 && ct_get(r, 2) == 2);
    CHECK(fl_loop_calls == 2 || ct_backend_first()); /* (a backend's own add and relu kernels need no loop) */
  }
}

/* Output layout of pointwise ops, as PyTorch's TensorIterator (checked with
 * PyTorch 1.13): a new output takes its inputs' layout (the first operand
 * deciding ties), a resized out= too; contiguous inputs give a contiguous one. */
static int strides_are(const ct_tensor *t, int64_t s0, int64_t s1, int64_t s2) {
  return t && t->strides[0] == s0 && t->strides[1] == s1 && (t->ndim < 3 || t->strides[2] == s2);
}
TEST(pointwise_output_layout_follows_inputs) {
  CT_SCOPE {
    ct_tensor *a = ct_t(ct_reshape(ct_arange_start_step(ct_float(0), ct_float(12), ct_float(1), CT_F32), CT_DIMS(3, 4)));
    ct_tensor *b = ct_ones(CT_DIMS(4, 3), CT_F32), *o = ct_empty(CT_DIMS(0), CT_F32), *y, *r;
    CHECK(strides_are(ct_add(a, b), 1, 4, 0));  /* (a.t() + b).stride() == (1, 4) */
    CHECK(strides_are(ct_add(b, a), 3, 1, 0));  /* b first: contiguous */
    CHECK(strides_are(ct_exp(a), 1, 4, 0));
    CHECK(strides_are(ct_add_scalar(a, ct_int(1)), 1, 4, 0));
    CHECK(strides_are(ct_add(a, ct_ones(CT_DIMS(3), CT_F32)), 1, 4, 0));
    CHECK(strides_are(ct_add(ct_ones(CT_DIMS(4, 1), CT_F32), a), 1, 4, 0));
    CHECK(strides_are(ct_mul(a, ct_ones(CT_DIMS(1, 3), CT_F32)), 1, 4, 0));
    CHECK(strides_are(ct_where(ct_gt_scalar(a, ct_int(0)), a, b), 1, 4, 0));
    CHECK(strides_are(ct_gt_scalar(a, ct_int(1)), 1, 4, 0));
    CHECK_OK(ct_add_out(o, a, a)); /* a resized out= */
    CHECK(strides_are(o, 1, 4, 0) && ct_get(o, 1) == 8);
    y = ct_permute(ct_ones(CT_DIMS(5, 1, 3), CT_F32), CT_DIMS(2, 1, 0)); /* [3, 1, 5], strides (1, 3, 3) */
    CHECK(strides_are(ct_add_scalar(y, ct_int(0)), 1, 3, 3));
    y = ct_t(ct_zeros(CT_DIMS(0, 3), CT_F32)); /* empty: contiguous when every operand is empty, as PyTorch */
    CHECK(strides_are(ct_add(y, y), 1, 1, 0) && strides_are(ct_add_scalar(y, ct_int(1)), 1, 3, 0));
    r = ct_add(a, b); /* values are unaffected by the layout */
    CHECK(r && ct_get(r, 0) == 1 && ct_get(r, 1) == 5 && ct_get(r, 3) == 2);
  }
}
