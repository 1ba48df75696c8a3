/* tests/test_ops_unary.c - direct tests of gen/ops/unary.spec beyond the PyTorch
 * fixtures (tests/cases_unary.py, run by tests/test_opcases.c).
 *
 * un_refs: every op on special values (negative, 0, NaN, +-inf, large),
 * computed by torch 1.13 in float64 (script in the comment below); then dtype
 * rules, errors, strides, meta, f16/bf16, and opcheck (typed vs boxed, meta
 * vs kernel, in-place and out=, gradcheck and gradgradcheck) of every op. */

/* Generated with /usr/bin/python3 from:
 *   x = torch.tensor([-2.5, -1, -.5, 0, .3, 1.5, 2.5, 25, nan, inf, -inf], dtype=torch.float64)
 *   hardtanh(x, -1, 2), leaky_relu(x, 0.2), elu(x, 1.5, 2, 0.5), softplus(x, 2, 3),
 *   round(x, decimals=1), nan_to_num(x, 1, 2, -3), celu(x, 1.5), hardshrink(x, 1),
 *   softshrink(x, 1), threshold(x, 0.3, -7); softsign and tanhshrink from
 *   torch.nn.functional; the others with defaults. */
static const double un_x[11] = {-2.5, -1, -0.5, 0, 0.29999999999999999, 1.5, 2.5, 25, NAN, INFINITY, -INFINITY};
static const struct un_ref {
  const char *name;
  double y[11];
} un_refs[] = {
    {"neg", {2.5, 1, 0.5, -0, -0.29999999999999999, -1.5, -2.5, -25, NAN, -INFINITY, INFINITY}},
    {"abs", {2.5, 1, 0.5, 0, 0.29999999999999999, 1.5, 2.5, 25, NAN, INFINITY, INFINITY}},
    {"sign", {-1, -1, -1, 0, 1, 1, 1, 1, 0, 1, -1}},
    {"square", {6.25, 1, 0.25, 0, 0.089999999999999997, 2.25, 6.25, 625, NAN, INFINITY, INFINITY}},
    {"exp", {0.0820849986238988, 0.36787944117144233, 0.60653065971263342, 1, 1.3498588075760032, 4.4816890703380645, 12.182493960703473, 72004899337.38588, NAN, INFINITY, 0}},
    {"exp2", {0.17677669529663689, 0.5, 0.70710678118654757, 1, 1.2311444133449163, 2.8284271247461903, 5.6568542494923806, 33554432, NAN, INFINITY, 0}},
    {"log", {NAN, NAN, NAN, -INFINITY, -1.2039728043259361, 0.40546510810816438, 0.91629073187415511, 3.2188758248682006, NAN, INFINITY, NAN}},
    {"log2", {NAN, NAN, NAN, -INFINITY, -1.7369655941662063, 0.58496250072115619, 1.3219280948873624, 4.6438561897747244, NAN, INFINITY, NAN}},
    {"log1p", {NAN, -INFINITY, -0.69314718055994529, 0, 0.26236426446749106, 0.91629073187415511, 1.2527629684953681, 3.2580965380214821, NAN, INFINITY, NAN}},
    {"expm1", {-0.91791500137610116, -0.63212055882855767, -0.39346934028736658, 0, 0.34985880757600307, 3.481689070338065, 11.182493960703473, 72004899336.38588, NAN, INFINITY, -1}},
    {"sqrt", {NAN, NAN, NAN, 0, 0.54772255750516607, 1.2247448713915889, 1.5811388300841898, 5, NAN, INFINITY, NAN}},
    {"rsqrt", {NAN, NAN, NAN, INFINITY, 1.8257418583505538, 0.81649658092772615, 0.63245553203367588, 0.20000000000000001, NAN, 0, NAN}},
    {"reciprocal", {-0.40000000000000002, -1, -2, INFINITY, 3.3333333333333335, 0.66666666666666663, 0.40000000000000002, 0.040000000000000001, NAN, 0, -0}},
    {"sin", {-0.59847214410395644, -0.8414709848078965, -0.47942553860420301, 0, 0.29552020666133955, 0.99749498660405445, 0.59847214410395644, -0.13235175009777303, NAN, NAN, NAN}},
    {"cos", {-0.8011436155469337, 0.54030230586813977, 0.87758256189037276, 1, 0.95533648912560598, 0.070737201667702906, -0.8011436155469337, 0.99120281186347359, NAN, NAN, NAN}},
    {"tan", {0.74702229723866032, -1.5574077246549023, -0.54630248984379048, 0, 0.30933624960962325, 14.101419947171719, -0.74702229723866032, -0.13352640702153587, NAN, NAN, NAN}},
    {"tanh", {-0.98661429815143031, -0.76159415595576485, -0.46211715726000974, 0, 0.2913126124515909, 0.9051482536448664, 0.98661429815143031, 1, NAN, 1, -1}},
    {"erf", {-0.99959304798255499, -0.84270079294971489, -0.52049987781304652, 0, 0.32862675945912739, 0.96610514647531076, 0.99959304798255499, 1, NAN, 1, -1}},
    {"sigmoid", {0.075858180021243546, 0.2689414213699951, 0.37754066879814541, 0.5, 0.57444251681165903, 0.81757447619364365, 0.92414181997875655, 0.999999999986112, NAN, 1, 0}},
    {"relu", {0, 0, 0, 0, 0.29999999999999999, 1.5, 2.5, 25, NAN, INFINITY, 0}},
    {"hardtanh", {-1, -1, -0.5, 0, 0.29999999999999999, 1.5, 2, 2, NAN, 2, -1}},
    {"relu6", {0, 0, 0, 0, 0.29999999999999999, 1.5, 2.5, 6, NAN, 6, 0}},
    {"leaky_relu", {-0.5, -0.20000000000000001, -0.10000000000000001, 0, 0.29999999999999999, 1.5, 2.5, 25, NAN, INFINITY, -INFINITY}},
    {"elu", {-2.1404856094194296, -1.1804080208620997, -0.66359765078578536, 0, 0.59999999999999998, 3, 5, 50, NAN, INFINITY, -3}},
    {"gelu", {-0.015524163314440398, -0.15865525393145702, -0.15426876936299344, 0, 0.1853734266566858, 1.399789198096713, 2.4844758366855597, 25, NAN, INFINITY, NAN}},
    {"gelu_tanh", {-0.015084266089998577, -0.15880800939172329, -0.15428599017485606, 0, 0.18537092354275922, 1.3995715769802328, 2.4849157339100012, 25, NAN, INFINITY, NAN}},
    {"silu", {-0.18964545005310887, -0.2689414213699951, -0.1887703343990727, 0, 0.17233275504349771, 1.2263617142904655, 2.3103545499468914, 24.9999999996528, NAN, INFINITY, NAN}},
    {"softplus", {0.0033576742445590342, 0.063464005521486247, 0.15663084375911143, 0.34657359027997264, 0.5187439752429428, 1.524293675786871, 2.5, 25, NAN, INFINITY, 0}},
    {"mish", {-0.19681620390653332, -0.30340146137410895, -0.22074377465173001, 0, 0.20800137234811503, 1.4033782663958028, 2.4713923045578809, 25, NAN, INFINITY, NAN}},
    {"hardswish", {-0.20833333333333334, -0.33333333333333331, -0.20833333333333334, 0, 0.16499999999999998, 1.125, 2.2916666666666665, 25, NAN, INFINITY, NAN}},
    {"hardsigmoid", {0.083333333333333329, 0.3333333333333333, 0.4166666666666667, 0.5, 0.5499999999999999, 0.75, 0.9166666666666666, 1, NAN, 1, 0}},
    {"selu", {-1.6137857588732423, -1.1113307378125625, -0.69175818780287135, 0, 0.31521029620664415, 1.5760514810332207, 2.626752468388701, 26.26752468388701, NAN, INFINITY, -1.7580993408473766}},
    {"celu", {-1.2166865957436572, -0.729874321451112, -0.42520303413931609, 0, 0.3, 1.5, 2.5, 25, NAN, INFINITY, -1.5}},
    {"log_sigmoid", {-2.5788897342925496, -1.3132616875182228, -0.97407698418010669, -0.69314718055994529, -0.55435524446852713, -0.20141327798275241, -0.078889734292549626, -1.3887943864867583e-11, NAN, 0, -INFINITY}},
    {"hardshrink", {-2.5, 0, 0, 0, 0, 1.5, 2.5, 25, NAN, INFINITY, -INFINITY}},
    {"softshrink", {-1.5, 0, 0, 0, 0, 0.5, 1.5, 24, 0, INFINITY, -INFINITY}},
    {"threshold", {-7, -7, -7, -7, -7, 1.5, 2.5, 25, NAN, INFINITY, -7}},
    {"softsign", {-0.7142857142857143, -0.5, -0.33333333333333331, 0, 0.23076923076923075, 0.6, 0.7142857142857143, 0.9615384615384616, NAN, NAN, NAN}},
    {"tanhshrink", {-1.5133857018485697, -0.23840584404423515, -0.037882842739990263, 0, 0.0086873875484090868, 0.5948517463551336, 1.5133857018485697, 24, NAN, INFINITY, -INFINITY}},
    {"floor", {-3, -1, -1, 0, 0, 1, 2, 25, NAN, INFINITY, -INFINITY}},
    {"ceil", {-2, -1, -0, 0, 1, 2, 3, 25, NAN, INFINITY, -INFINITY}},
    {"round", {-2, -1, -0, 0, 0, 2, 2, 25, NAN, INFINITY, -INFINITY}},
    {"round_dec", {-2.5, -1, -0.5, 0, 0.29999999999999999, 1.5, 2.5, 25, NAN, INFINITY, -INFINITY}},
    {"trunc", {-2, -1, -0, 0, 0, 1, 2, 25, NAN, INFINITY, -INFINITY}},
    {"nan_to_num", {-2.5, -1, -0.5, 0, 0.29999999999999999, 1.5, 2.5, 25, 0, 1.7976931348623157e+308, -1.7976931348623157e+308}},
    {"nan_to_num_args", {-2.5, -1, -0.5, 0, 0.29999999999999999, 1.5, 2.5, 25, 1, 2, -3}},
};

/* The op of un_refs[i].name on x, through the typed frontends. */
static ct_tensor *un_apply(const char *n, ct_tensor *x) {
#define UN_IS(s) (!strcmp(n, s))
  if (UN_IS("neg")) return ct_neg(x);
  if (UN_IS("abs")) return ct_abs(x);
  if (UN_IS("sign")) return ct_sign(x);
  if (UN_IS("square")) return ct_square(x);
  if (UN_IS("exp")) return ct_exp(x);
  if (UN_IS("exp2")) return ct_exp2(x);
  if (UN_IS("log")) return ct_log(x);
  if (UN_IS("log2")) return ct_log2(x);
  if (UN_IS("log1p")) return ct_log1p(x);
  if (UN_IS("expm1")) return ct_expm1(x);
  if (UN_IS("sqrt")) return ct_sqrt(x);
  if (UN_IS("rsqrt")) return ct_rsqrt(x);
  if (UN_IS("reciprocal")) return ct_reciprocal(x);
  if (UN_IS("sin")) return ct_sin(x);
  if (UN_IS("cos")) return ct_cos(x);
  if (UN_IS("tan")) return ct_tan(x);
  if (UN_IS("tanh")) return ct_tanh(x);
  if (UN_IS("erf")) return ct_erf(x);
  if (UN_IS("sigmoid")) return ct_sigmoid(x);
  if (UN_IS("relu")) return ct_relu(x);
  if (UN_IS("hardtanh")) return ct_hardtanh(x, ct_int(-1), ct_float(2));
  if (UN_IS("relu6")) return ct_relu6(x);
  if (UN_IS("leaky_relu")) return ct_leaky_relu(x, ct_float(0.2));
  if (UN_IS("elu")) return ct_elu(x, ct_float(1.5), ct_int(2), ct_float(0.5));
  if (UN_IS("gelu")) return ct_gelu(x);
  if (UN_IS("gelu_tanh")) return ct_gelu_ex(x, "tanh");
  if (UN_IS("silu")) return ct_silu(x);
  if (UN_IS("softplus")) return ct_softplus(x, ct_int(2), ct_int(3));
  if (UN_IS("mish")) return ct_mish(x);
  if (UN_IS("hardswish")) return ct_hardswish(x);
  if (UN_IS("hardsigmoid")) return ct_hardsigmoid(x);
  if (UN_IS("selu")) return ct_selu(x);
  if (UN_IS("celu")) return ct_celu(x, ct_float(1.5));
  if (UN_IS("log_sigmoid")) return ct_log_sigmoid(x);
  if (UN_IS("hardshrink")) return ct_hardshrink(x, ct_int(1));
  if (UN_IS("softshrink")) return ct_softshrink(x, ct_int(1));
  if (UN_IS("threshold")) return ct_threshold(x, ct_float(0.3), ct_int(-7));
  if (UN_IS("softsign")) return ct_softsign(x);
  if (UN_IS("tanhshrink")) return ct_tanhshrink(x);
  if (UN_IS("floor")) return ct_floor(x);
  if (UN_IS("ceil")) return ct_ceil(x);
  if (UN_IS("round")) return ct_round(x);
  if (UN_IS("round_dec")) return ct_round_decimals(x, 1);
  if (UN_IS("trunc")) return ct_trunc(x);
  if (UN_IS("nan_to_num")) return ct_nan_to_num(x, NAN, NAN, NAN);
  if (UN_IS("nan_to_num_args")) return ct_nan_to_num(x, 1, 2, -3);
#undef UN_IS
  return NULL;
}

static int un_close(double got, double want, double rtol, double atol) {
  if (want != want) return got != got;
  if (isinf(want)) return got == want;
  return fabs(got - want) <= atol + rtol * fabs(want);
}

/* float64: every op against torch on special values */
TEST(unary_values_f64) {
  CT_SCOPE {
    ct_tensor *x = ct_from_array(CT_DIMS(11), CT_F64, un_x);
    size_t i;
    int64_t k;
    for (i = 0; i < sizeof un_refs / sizeof un_refs[0]; i++) {
      ct_tensor *y = un_apply(un_refs[i].name, x);
      if (!y) {
        harness_fail(__FILE__, __LINE__, "%s: %s", un_refs[i].name, ct_last_error_message());
        ct_clear_error();
        continue;
      }
      CHECK(y->dtype == CT_F64 && y->numel == 11);
      for (k = 0; k < 11; k++)
        if (!un_close(ct_get(y, k), un_refs[i].y[k], 1e-12, 1e-300))
          harness_fail(__FILE__, __LINE__, "%s(%g) = %.17g, torch %.17g", un_refs[i].name, un_x[k], ct_get(y, k),
                       un_refs[i].y[k]);
    }
  }
}

/* float32 (and, looser, bfloat16 and float16): the same values rounded to the dtype */
TEST(unary_values_low_precision) {
  static const ct_dtype dts[3] = {CT_F32, CT_BF16, CT_F16};
  static const double tol[3] = {3e-7, 8e-3, 1e-3};
  CT_SCOPE {
    ct_tensor *x64 = ct_from_array(CT_DIMS(11), CT_F64, un_x);
    size_t i;
    int d;
    int64_t k;
    for (d = 0; d < 3; d++) {
      ct_tensor *x = ct_to_dtype(x64, dts[d]);
      for (i = 0; i < sizeof un_refs / sizeof un_refs[0]; i++) {
        const char *n = un_refs[i].name;
        ct_tensor *y = un_apply(n, x);
        if (!strncmp(n, "nan_to_num", 10) || !strcmp(n, "round_dec")) continue; /* dtype-dependent: below */
        if (!y || y->dtype != dts[d]) {
          harness_fail(__FILE__, __LINE__, "%s %s: %s", n, ct_dtype_name(dts[d]), ct_last_error_message());
          ct_clear_error();
          continue;
        }
        for (k = 0; k < 11; k++) {
          double want = un_refs[i].y[k], xin = ct_get(x, k);
          if (xin != un_x[k] || (dts[d] == CT_F16 && fabs(want) > 65504) || (dts[d] != CT_F16 && fabs(want) > 1e38)) continue;
          if (dts[d] == CT_F16 && want != 0 && fabs(want) < 6.1e-5) continue; /* f16 subnormal or underflow: log_sigmoid(25) */
          if (dts[d] != CT_F32 && !strcmp(n, "tanhshrink")) continue; /* x - tanh(x), each step rounded (composite, as torch): cancels */
          if (!un_close(ct_get(y, k), want, tol[d], 1e-30))
            harness_fail(__FILE__, __LINE__, "%s %s(%g) = %.9g, torch (f64) %.9g", ct_dtype_name(dts[d]), n, un_x[k],
                         ct_get(y, k), want);
        }
      }
    }
  }
}

/* integer and bool inputs: PyTorch's result dtypes and values */
TEST(unary_integer_and_bool_dtypes) {
  CT_SCOPE {
    static const int64_t iv[4] = {-3, 0, 2, 7};
    static const int32_t i32v[3] = {INT32_MIN, -5, 5};
    static const uint8_t u8v[3] = {0, 5, 250};
    static const bool bv[2] = {true, false};
    ct_tensor *xi = ct_from_array(CT_DIMS(4), CT_I64, iv), *x32 = ct_from_array(CT_DIMS(3), CT_I32, i32v);
    ct_tensor *xu = ct_from_array(CT_DIMS(3), CT_U8, u8v), *xb = ct_from_array(CT_DIMS(2), CT_BOOL, bv);
    ct_tensor *y;
    y = ct_exp(xi);
    CHECK(y && y->dtype == CT_F32);
    CHECK_NEAR(ct_get(y, 3), exp(7.0), 1e-2);
    y = ct_sigmoid(xb);
    CHECK(y && y->dtype == CT_F32);
    CHECK_NEAR(ct_get(y, 0), 1 / (1 + exp(-1.0)), 1e-7);
    y = ct_sqrt(xu);
    CHECK(y && y->dtype == CT_F32 && ct_get(y, 1) == (double)sqrtf(5.0f));
    y = ct_abs(xi);
    CHECK(y && y->dtype == CT_I64 && ct_get_int(y, 0) == 3);
    y = ct_abs(x32); /* abs of the minimum wraps, as in PyTorch */
    CHECK(y && y->dtype == CT_I32 && ct_get_int(y, 0) == INT32_MIN && ct_get_int(y, 1) == 5);
    y = ct_neg(xu); /* uint8 negation wraps */
    CHECK(y && y->dtype == CT_U8 && ct_get_int(y, 1) == 251 && ct_get_int(y, 2) == 6);
    y = ct_sign(xi);
    CHECK(y && y->dtype == CT_I64 && ct_get_int(y, 0) == -1 && ct_get_int(y, 1) == 0 && ct_get_int(y, 3) == 1);
    y = ct_sign(xu);
    CHECK(y && y->dtype == CT_U8 && ct_get_int(y, 0) == 0 && ct_get_int(y, 2) == 1);
    y = ct_sign(xb);
    CHECK(y && y->dtype == CT_BOOL && ct_get_int(y, 0) == 1 && ct_get_int(y, 1) == 0);
    y = ct_square(xb); /* pow(bool, 2) is int64 */
    CHECK(y && y->dtype == CT_I64 && ct_get_int(y, 0) == 1);
    y = ct_square(x32);
    CHECK(y && y->dtype == CT_I32 && ct_get_int(y, 1) == 25);
    y = ct_relu(xi);
    CHECK(y && y->dtype == CT_I64 && ct_get_int(y, 0) == 0 && ct_get_int(y, 3) == 7);
    y = ct_relu6(xi);
    CHECK(y && y->dtype == CT_I64 && ct_get_int(y, 3) == 6);
    y = ct_hardtanh(xi, ct_float(-1.5), ct_float(2.5)); /* bounds truncated: -1, 2 */
    CHECK(y && y->dtype == CT_I64 && ct_get_int(y, 0) == -1 && ct_get_int(y, 3) == 2);
    y = ct_hardtanh(xu, ct_int(0), ct_int(6));
    CHECK(y && y->dtype == CT_U8 && ct_get_int(y, 2) == 6);
    y = ct_floor(xi);
    CHECK(y && y->dtype == CT_I64 && ct_get_int(y, 0) == -3 && ct_get_int(y, 3) == 7);
    y = ct_round(xu);
    CHECK(y && y->dtype == CT_U8 && ct_get_int(y, 2) == 250);
    y = ct_nan_to_num(xi, 1, 2, 3);
    CHECK(y && y->dtype == CT_I64 && ct_get_int(y, 0) == -3);
    y = ct_nan_to_num(xb, NAN, NAN, NAN);
    CHECK(y && y->dtype == CT_BOOL && ct_get_int(y, 0) == 1);
    CHECK_OK(ct_abs_(xi));
    CHECK(ct_get_int(xi, 0) == 3);
  }
}

TEST(unary_rounding) {
  CT_SCOPE {
    static const double h[6] = {0.5, 1.5, 2.5, -0.5, -2.5, 3.5};
    static const float d[4] = {1.25f, 0.125f, 15.f, 25.f};
    ct_tensor *x = ct_from_array(CT_DIMS(6), CT_F64, h), *xf = ct_from_array(CT_DIMS(4), CT_F32, d), *y;
    y = ct_round(x); /* half to even */
    CHECK(y && ct_get(y, 0) == 0 && ct_get(y, 1) == 2 && ct_get(y, 2) == 2 && ct_get(y, 3) == 0 && ct_get(y, 4) == -2 &&
          ct_get(y, 5) == 4);
    y = ct_round_decimals(xf, 1); /* in float32, like torch: 1.2, 0.1 */
    CHECK(y && y->dtype == CT_F32 && ct_get(y, 0) == (double)1.2f && ct_get(y, 1) == (double)0.1f);
    y = ct_round_decimals(xf, -1); /* 20, 20 (half to even at tens) */
    CHECK(y && ct_get(y, 2) == 20 && ct_get(y, 3) == 20);
    CHECK_OK(ct_round_decimals_(xf, 0));
    CHECK(ct_get(xf, 0) == 1 && ct_get(xf, 1) == 0);
  }
}

TEST(unary_nan_to_num_dtypes) {
  CT_SCOPE {
    static const double v[3] = {NAN, INFINITY, -INFINITY};
    ct_tensor *x = ct_from_array(CT_DIMS(3), CT_F64, v), *y;
    y = ct_nan_to_num(ct_to_dtype(x, CT_F32), NAN, NAN, NAN);
    CHECK(y && ct_get(y, 0) == 0 && ct_get(y, 1) == FLT_MAX && ct_get(y, 2) == -FLT_MAX);
    y = ct_nan_to_num(ct_to_dtype(x, CT_F16), NAN, NAN, NAN);
    CHECK(y && ct_get(y, 1) == 65504 && ct_get(y, 2) == -65504);
    y = ct_nan_to_num(ct_to_dtype(x, CT_BF16), NAN, NAN, NAN);
    CHECK(y && ct_get(y, 1) == 3.3895313892515355e38);
    y = ct_nan_to_num(ct_to_dtype(x, CT_F32), 1e300, 1e300, 1e300); /* overflow: inf, as torch */
    CHECK(y && isinf(ct_get(y, 0)));
  }
}

/* bad input: the op, the argument, PyTorch's wording */
TEST(unary_errors) {
  CT_SCOPE {
    static const int64_t iv[2] = {1, -2};
    static const bool bv[2] = {true, false};
    static const double fv[2] = {1.5, -2};
    ct_tensor *xi = ct_from_array(CT_DIMS(2), CT_I64, iv), *xb = ct_from_array(CT_DIMS(2), CT_BOOL, bv);
    ct_tensor *x = ct_from_array(CT_DIMS(2), CT_F64, fv), *xu = ct_to_dtype(xi, CT_U8);
    ct_tensor *o64 = ct_empty(CT_DIMS(2), CT_F64), *oi = ct_empty(CT_DIMS(2), CT_I64), *of32 = ct_empty(CT_DIMS(2), CT_F32);
    CHECK_ERR(ct_neg(xb), CT_ERR_DTYPE, "negation, the `-` operator, on a bool tensor is not supported");
    CHECK_ERR(ct_abs(xb), CT_ERR_DTYPE, "\"abs\" is not implemented for 'Bool'");
    CHECK_ERR(ct_relu(xb), CT_ERR_DTYPE, "Boolean inputs not supported for relu");
    CHECK_ERR(ct_hardtanh(xb, ct_int(0), ct_int(1)), CT_ERR_DTYPE, "Bool inputs not supported for hardtanh");
    CHECK_ERR(ct_floor(xb), CT_ERR_DTYPE, "\"floor\" is not implemented for 'Bool'");
    CHECK_ERR(ct_leaky_relu(xi, ct_float(0.1)), CT_ERR_DTYPE, "\"leaky_relu\" is not implemented for 'Long'");
    CHECK_ERR(ct_gelu(xi), CT_ERR_DTYPE, "\"gelu\" is not implemented for 'Long'");
    CHECK_ERR(ct_round_decimals(xi, 1), CT_ERR_DTYPE, "not implemented for 'Long'");
    CHECK_ERR(ct_exp_(xi), CT_ERR_DTYPE, "result type Float can't be cast to the desired output type Long");
    CHECK_ERR(ct_sigmoid_out(oi, x), CT_ERR_DTYPE, "result type Double can't be cast to the desired output type Long");
    CHECK_ERR(ct_abs_out(of32, x), CT_ERR_DTYPE, "Found dtype Float but expected Double");
    CHECK_ERR(ct_square_(xb), CT_ERR_DTYPE, "Found dtype Bool but expected Long");
    CHECK_ERR(ct_nan_to_num_out(of32, x, NAN, NAN, NAN), CT_ERR_DTYPE,
              "dtype of out: Float should be same as input: Double");
    CHECK_ERR(ct_gelu_ex(x, "exact"), CT_ERR_INVALID, "approximate argument must be either none or tanh");
    CHECK_ERR(ct_hardtanh(xu, ct_int(-1), ct_int(1)), CT_ERR_INVALID, "unsigned type with negative limits");
    CHECK_ERR(ct_exp(NULL), CT_ERR_NULL, "self");
    /* expanded tensors cannot be written */
    CHECK_ERR(ct_exp_(ct_expand(ct_from_array(CT_DIMS(1), CT_F64, fv), CT_DIMS(3))), CT_ERR_INVALID,
              "more than one element of the written-to tensor");
    /* out= overlapping the input in another view */
    {
      ct_tensor *buf = ct_zeros(CT_DIMS(8), CT_F64);
      CHECK_ERR(ct_exp_out(ct_slice(buf, 0, 1, 8, 1), ct_slice(buf, 0, 0, 7, 1)), CT_ERR_INVALID,
                "refer to a single memory location");
      CHECK_OK(ct_exp_out(ct_slice(buf, 0, 4, 8, 1), ct_slice(buf, 0, 0, 4, 1))); /* disjoint halves */
      CHECK(ct_get(buf, 5) == 1);
    }
    /* casting out= of float ops works both ways within floating types */
    CHECK_OK(ct_exp_out(o64, ct_to_dtype(x, CT_F32)));
    CHECK(o64->dtype == CT_F64 && ct_get(o64, 0) == (double)expf(1.5f));
    CHECK_OK(ct_exp_out(of32, xi));
    CHECK(ct_get(of32, 0) == (double)expf(1.0f));
  }
}

/* strides, broadcast (expanded) inputs, 0-dim, zero-size, out= resize, meta */
TEST(unary_shapes_and_meta) {
  CT_SCOPE {
    static const double v[6] = {-1, 2, -3, 4, -5, 6};
    ct_tensor *x = ct_from_array(CT_DIMS(2, 3), CT_F64, v), *xt = ct_t(x), *y, *o;
    int64_t i, j;
    y = ct_abs(xt);
    CHECK(y && y->ndim == 2 && y->sizes[0] == 3 && y->sizes[1] == 2);
    for (i = 0; i < 3; i++)
      for (j = 0; j < 2; j++) CHECK(ct_get(y, i * 2 + j) == fabs(v[j * 3 + i]));
    y = ct_exp(ct_expand(ct_select(x, 0, 1), CT_DIMS(4, 3)));
    CHECK(y && y->numel == 12 && ct_get(y, 10) == exp(-5.0));
    y = ct_sigmoid(ct_scalar_tensor(ct_float(0), CT_F64));
    CHECK(y && y->ndim == 0 && ct_get(y, 0) == 0.5);
    y = ct_relu(ct_empty(CT_DIMS(0, 3), CT_F32));
    CHECK(y && y->numel == 0 && y->sizes[1] == 3);
    o = ct_empty(CT_DIMS(1), CT_F64); /* resized like PyTorch */
    CHECK_OK(ct_neg_out(o, xt));
    CHECK(o->ndim == 2 && o->sizes[0] == 3 && ct_get(o, 1) == -4);
    CHECK_OK(ct_sin_(xt)); /* in-place through a transposed view */
    CHECK(ct_get(x, 1) == sin(2.0));
    y = ct_gelu_ex(ct_empty_opts(CT_DIMS(2, 5), ct_opts(CT_F32, CT_META)), "tanh");
    CHECK(y && y->device.type == CT_DEVICE_META && y->numel == 10 && y->dtype == CT_F32);
    y = ct_exp(ct_empty_opts(CT_DIMS(2), ct_opts(CT_I32, CT_META)));
    CHECK(y && y->device.type == CT_DEVICE_META && y->dtype == CT_F32);
  }
}

/* in-place ops under autograd: the derivative uses self before it was overwritten */
TEST(unary_inplace_autograd) {
  CT_SCOPE {
    static const double v[4] = {-1, 0.5, 2, -0.25};
    ct_tensor *x = ct_from_array(CT_DIMS(4), CT_F64, v), *h, *g;
    CHECK_OK(ct_set_requires_grad(x, true));
    h = ct_mul_scalar(x, ct_int(1));
    CHECK_OK(ct_elu_(h, ct_int(1), ct_int(1), ct_int(1)));
    CHECK_OK(ct_backward(ct_sum(h)));
    g = ct_grad(x);
    CHECK(g && fabs(ct_get(g, 0) - exp(-1.0)) < 1e-12 && ct_get(g, 1) == 1 && ct_get(g, 3) == exp(-0.25));
  }
}

/* opcheck of every op: typed vs boxed, meta vs kernel, in-place and out=, gradcheck,
 * and gradgradcheck. Samples away from the kinks. */
typedef struct un_case {
  const char *op;
  int nargs;
  ct_value args[4];
} un_case;
static int un_cases(un_case *cs, ct_tensor *A, ct_tensor *P, ct_tensor *R) {
  int n = 0;
#define UN(name, ...)                                                                                  \
  cs[n].op = name,                                                                                          \
  cs[n].nargs = (int)(sizeof((ct_value[]){__VA_ARGS__}) / sizeof(ct_value)),                                \
  memcpy(cs[n].args, (ct_value[]){__VA_ARGS__}, sizeof((ct_value[]){__VA_ARGS__})), n++
#define UT(t) ct_value_tensor(t)
#define US(s) ct_value_scalar(s)
  UN("neg", UT(A));
  UN("abs", UT(A));
  UN("sign", UT(A));
  UN("square", UT(A));
  UN("exp", UT(A));
  UN("exp2", UT(A));
  UN("log", UT(P));
  UN("log2", UT(P));
  UN("log1p", UT(P));
  UN("expm1", UT(A));
  UN("sqrt", UT(P));
  UN("rsqrt", UT(P));
  UN("reciprocal", UT(P));
  UN("sin", UT(A));
  UN("cos", UT(A));
  UN("tan", UT(A));
  UN("tanh", UT(A));
  UN("erf", UT(A));
  UN("sigmoid", UT(A));
  UN("relu", UT(A));
  UN("hardtanh", UT(R), US(ct_float(-1.2)), US(ct_int(2)));
  UN("relu6", UT(R));
  UN("leaky_relu", UT(A), US(ct_float(0.2)));
  UN("elu", UT(A), US(ct_float(1.5)), US(ct_int(2)), US(ct_float(0.5)));
  UN("gelu", UT(A), ct_value_string("none"));
  UN("gelu", UT(A), ct_value_string("tanh"));
  UN("silu", UT(A));
  UN("softplus", UT(R), US(ct_int(2)), US(ct_int(3)));
  UN("mish", UT(A));
  UN("hardswish", UT(A)); /* A inside (-3, 3): the curved part, and away from the kinks */
  UN("hardsigmoid", UT(A));
  UN("selu", UT(A));
  UN("celu", UT(A), US(ct_float(0.5)));
  UN("log_sigmoid", UT(R));
  UN("hardshrink", UT(A), US(ct_float(0.1)));
  UN("softshrink", UT(A), US(ct_float(0.1)));
  UN("threshold", UT(A), US(ct_float(0.1)), US(ct_int(-2)));
  UN("softsign", UT(A));
  UN("tanhshrink", UT(R));
  UN("floor", UT(R));
  UN("ceil", UT(R));
  UN("round", UT(R));
  UN("round.decimals", UT(R), ct_value_int(1));
  UN("trunc", UT(R));
  UN("nan_to_num", UT(A), ct_value_double(NAN), ct_value_double(2), ct_value_double(NAN));
  UN("asin", UT(ct_mul_scalar(A, ct_float(0.8))));
  UN("acos", UT(ct_mul_scalar(A, ct_float(0.8))));
  UN("atan", UT(R));
  UN("sinh", UT(A));
  UN("cosh", UT(A));
  UN("asinh", UT(R));
  UN("acosh", UT(ct_add_scalar(P, ct_float(1.2))));
  UN("atanh", UT(ct_mul_scalar(A, ct_float(0.8))));
  UN("log10", UT(P));
  UN("erfc", UT(A));
  UN("erfinv", UT(ct_mul_scalar(A, ct_float(0.8))));
  UN("lgamma", UT(P));
  UN("digamma", UT(P));
  UN("polygamma", ct_value_int(2), UT(P));
  UN("i0", UT(R));
  UN("special_i1", UT(R));
  UN("sinc", UT(R));
  UN("logit", UT(ct_sigmoid(A)), ct_value_double(NAN));
  UN("logit", UT(ct_sigmoid(R)), ct_value_double(0.1));
  UN("frac", UT(A));
  UN("deg2rad", UT(R));
  UN("rad2deg", UT(A));
#undef UN
#undef UT
#undef US
  return n;
}
static ct_tensor *un_signed(int ndim, const int64_t *sizes, double scale, unsigned seed) {
  ct_tensor *t = ct_empty(ndim, sizes, CT_F32);
  int64_t k;
  uint32_t s = seed * 2654435761u + 7u;
  for (k = 0; t && k < t->numel; k++) {
    double u;
    s = s * 1664525u + 1013904223u;
    u = 0.2 + 0.8 * (double)(s >> 8) / 16777216.0; /* [0.2, 1) */
    ct_set(t, k, (k % 3 == 1 ? -u : u) * scale);
  }
  return t;
}
TEST(unary_opcheck_every_op) {
  CT_SCOPE {
    ct_tensor *A = un_signed(CT_DIMS(2, 3), 1.0, 1), *P = ct_abs(un_signed(CT_DIMS(3, 2), 2.0, 2));
    ct_tensor *R = un_signed(CT_DIMS(2, 4), 3.3, 3); /* wider: every branch of hardtanh, relu6, softplus */
    un_case cs[80];
    int n = un_cases(cs, A, ct_t(P), R), i;
    for (i = 0; i < n; i++) {
      ct_opcheck_opts o;
      memset(&o, 0, sizeof o);
      o.gradgradcheck = true; /* the piecewise-linear ones too: their backward is differentiable */
      if (ct_opcheck(cs[i].op, cs[i].nargs, cs[i].args, &o) != CT_OK) {
        harness_fail(__FILE__, __LINE__, "opcheck %s: %s", cs[i].op, ct_last_error_message());
        ct_clear_error();
      }
    }
  }
}
