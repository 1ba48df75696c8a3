/* tests/test_ops_random.c - direct tests of gen/ops/random.spec: Philox against the
 * Random123 known answers, the generator API, golden values of the documented
 * (seed, offset) -> value mapping (computed by an independent Python
 * implementation of it), determinism, statistics, factories (values from
 * PyTorch), dropout's gradient, errors. Random ops have no PyTorch fixtures:
 * PyTorch's CPU generator is a different one (mt19937). */

static int rn_hex_eq(double got, double want) { return got == want; }

TEST(random_philox_known_answers) {
  /* Random123's kat_vectors for philox4x32_10 */
  static const uint32_t ctr[3][4] = {{0, 0, 0, 0}, {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu},
                                     {0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}};
  static const uint32_t key[3][2] = {{0, 0}, {0xffffffffu, 0xffffffffu}, {0xa4093822u, 0x299f31d0u}};
  static const uint32_t want[3][4] = {{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u},
                                      {0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu},
                                      {0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}};
  int i, j;
  for (i = 0; i < 3; i++) {
    uint32_t out[4];
    ct_philox4x32_10(ctr[i], key[i], out);
    for (j = 0; j < 4; j++) CHECK(out[j] == want[i][j]);
  }
}

TEST(random_generator_api) {
  ct_generator *g = ct_generator_new(CT_CPU), *d = ct_default_generator(CT_CPU);
  CHECK(g && d && d == ct_default_generator(CT_CPU) && d != ct_default_generator(CT_META));
  CHECK(ct_generator_seed(g) == CT_DEFAULT_SEED && ct_generator_offset(g) == 0);
  CHECK(ct_generator_device(g).type == CT_DEVICE_CPU);
  CHECK_OK(ct_manual_seed(g, 5));
  CHECK_OK(ct_generator_set_offset(g, 9));
  CHECK(ct_generator_seed(g) == 5 && ct_generator_offset(g) == 9);
  CHECK_OK(ct_manual_seed(g, 6)); /* rewinds */
  CHECK(ct_generator_offset(g) == 0);
  ct_manual_seed_all(1234);
  CHECK(ct_generator_seed(ct_default_generator(CT_CPU)) == 1234 && ct_generator_seed(ct_default_generator(CT_META)) == 1234);
  {
    uint64_t s = ct_seed();
    CHECK(ct_generator_seed(ct_default_generator(CT_CPU)) == s && ct_generator_offset(ct_default_generator(CT_CPU)) == 0);
  }
  CHECK_ERR(ct_manual_seed(NULL, 1), CT_ERR_NULL, "argument 'g' is NULL");
  CHECK_ERR(ct_default_generator(ct_device_make(CT_DEVICE_CPU, 100)), CT_ERR_DEVICE, "no default generator");
  CHECK_ERR(ct_generator_new(ct_device_make((ct_device_type)99, 0)), CT_ERR_DEVICE, "invalid device");
  ct_generator_free(g);
  ct_generator_free(d); /* a default generator: not freed */
  ct_generator_free(NULL);
  CHECK(ct_default_generator(CT_CPU) == d);
  ct_manual_seed_all(CT_DEFAULT_SEED);
}

/* The values of Note [Generators], bit for bit (from an independent Python implementation) */
TEST(random_golden_values) {
  CT_SCOPE {
    ct_generator *g = ct_generator_new(CT_CPU);
    ct_tensor *t;
    static const double f32[5] = {0x1.39d5ep-1, 0x1.dfd524p-2, 0x1.2bf5p-4, 0x1.5d0accp-2, 0x1.f9b642p-1};
    static const double f64[3] = {0x1.a6d8044b510ebp-1, 0x1.349adb338c134p-1, 0x1.758e08eb575e1p-1};
    static const double nrm[5] = {-0x1.735e38d8dece6p-9, -0x1.7d32a5d70ba45p-2, 0x1.8bd78e8b4ab78p-2, 0x1.601ef9618e5afp+0,
                                  -0x1.8cf7a27ff05f9p-3};
    static const int64_t ri[8] = {2, 4, 3, 2, 4, 3, 1, 9}, rp[6] = {4, 5, 1, 0, 3, 2};
    static const int bern[10] = {0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
    int i;
    CHECK_OK(ct_manual_seed(g, 42));
    t = ct_rand_ex(CT_DIMS(5), g, CT_DTYPE_NONE, CT_NO_DEVICE);
    CHECK(t && t->dtype == CT_F32 && ct_generator_offset(g) == 2); /* 5 words: 2 blocks */
    for (i = 0; t && i < 5; i++) CHECK(rn_hex_eq(ct_get(t, i), f32[i]));
    t = ct_rand_ex(CT_DIMS(3), g, CT_F64, CT_NO_DEVICE);
    CHECK(t && ct_generator_offset(g) == 4); /* 6 words */
    for (i = 0; t && i < 3; i++) CHECK(rn_hex_eq(ct_get(t, i), f64[i]));
    CHECK_OK(ct_manual_seed(g, 123));
    t = ct_randn_ex(CT_DIMS(5), g, CT_F64, CT_NO_DEVICE);
    for (i = 0; t && i < 5; i++) CHECK_NEAR(ct_get(t, i), nrm[i], 1e-15); /* libm's log/cos/sin: within an ulp */
    CHECK(ct_generator_offset(g) == 3);
    CHECK_OK(ct_manual_seed(g, 123)); /* float32 is float64's values rounded */
    t = ct_randn_ex(CT_DIMS(5), g, CT_F32, CT_NO_DEVICE);
    for (i = 0; t && i < 5; i++) CHECK(ct_get(t, i) == (double)(float)nrm[i]);
    CHECK_OK(ct_manual_seed(g, 7));
    t = ct_randint_ex(0, 10, CT_DIMS(8), g, CT_DTYPE_NONE, CT_NO_DEVICE);
    CHECK(t && t->dtype == CT_I64);
    for (i = 0; t && i < 8; i++) CHECK(ct_get(t, i) == (double)ri[i]);
    CHECK_OK(ct_manual_seed(g, 7));
    t = ct_randperm_ex(6, g, CT_DTYPE_NONE, CT_NO_DEVICE);
    CHECK(t && t->dtype == CT_I64 && t->ndim == 1);
    for (i = 0; t && i < 6; i++) CHECK(ct_get(t, i) == (double)rp[i]);
    CHECK_OK(ct_manual_seed(g, 99));
    t = ct_empty(CT_DIMS(10), CT_F32);
    CHECK_OK(ct_bernoulli_float_ex_(t, 0.5, g));
    for (i = 0; i < 10; i++) CHECK(ct_get(t, i) == bern[i]);
    ct_generator_free(g);
  }
}

TEST(random_determinism_and_layout) {
  CT_SCOPE {
    ct_generator *g = ct_generator_new(CT_CPU);
    ct_tensor *a, *b, *c, *full;
    int64_t i, j;
    CHECK_OK(ct_manual_seed(g, 2024));
    a = ct_randn_ex(CT_DIMS(3, 4), g, CT_F64, CT_NO_DEVICE);
    b = ct_randn_ex(CT_DIMS(3, 4), g, CT_F64, CT_NO_DEVICE);
    CHECK_OK(ct_manual_seed(g, 2024));
    c = ct_randn_ex(CT_DIMS(3, 4), g, CT_F64, CT_NO_DEVICE);
    for (i = 0; i < 12; i++) CHECK(ct_get(a, i) == ct_get(c, i) && ct_get(a, i) != ct_get(b, i));
    /* the offset replays a later draw */
    CHECK_OK(ct_generator_set_offset(g, 6));
    c = ct_randn_ex(CT_DIMS(3, 4), g, CT_F64, CT_NO_DEVICE);
    for (i = 0; i < 12; i++) CHECK(ct_get(b, i) == ct_get(c, i));
    /* a transposed (non-contiguous) target gets the values in logical order */
    CHECK_OK(ct_manual_seed(g, 5));
    full = ct_zeros(CT_DIMS(4, 3), CT_F32);
    c = ct_t(full);
    CHECK_OK(ct_uniform_ex_(c, -1, 1, g));
    CHECK_OK(ct_manual_seed(g, 5));
    a = ct_zeros(CT_DIMS(3, 4), CT_F32);
    CHECK_OK(ct_uniform_ex_(a, -1, 1, g));
    for (i = 0; i < 3; i++)
      for (j = 0; j < 4; j++) CHECK(ct_get(c, i * 4 + j) == ct_get(a, i * 4 + j));
    /* normal with tensor arguments: normal(full(m), s) is normal_(m, s), bit for bit */
    {
      ct_dtype dts[2] = {CT_F64, CT_F32};
      int d;
      for (d = 0; d < 2; d++) {
        CHECK_OK(ct_manual_seed(g, 31));
        a = ct_empty(CT_DIMS(3, 3), dts[d]);
        CHECK_OK(ct_normal_ex_(a, 0.5, 2.0, g));
        CHECK_OK(ct_manual_seed(g, 31));
        b = ct_normal_tensor_float_ex(ct_full(CT_DIMS(3, 3), ct_float(0.5), dts[d]), 2.0, g);
        CHECK_OK(ct_manual_seed(g, 31));
        c = ct_normal_tensor_tensor_ex(ct_full(CT_DIMS(3, 1), ct_float(0.5), dts[d]), ct_full(CT_DIMS(3), ct_float(2), dts[d]), g);
        CHECK(b && c && b->dtype == dts[d] && c->ndim == 2 && c->sizes[1] == 3);
        for (i = 0; b && c && i < 9; i++) CHECK(ct_get(a, i) == ct_get(b, i) && ct_get(a, i) == ct_get(c, i));
      }
      c = ct_normal_float_tensor_ex(-1.0, ct_zeros(CT_DIMS(4), CT_F32), g);
      CHECK(c && c->dtype == CT_F32 && ct_get(c, 3) == -1);
    }
    /* rand_like / randn_like: self's shape, the same stream as rand / randn */
    CHECK_OK(ct_manual_seed(g, 8));
    a = ct_randn_ex(CT_DIMS(2, 3), g, CT_F64, CT_NO_DEVICE);
    CHECK_OK(ct_manual_seed(g, 8));
    b = ct_randn_like_ex(ct_t(ct_zeros(CT_DIMS(3, 2), CT_F32)), CT_F64, g);
    CHECK(b && b->dtype == CT_F64 && ct_same_shape(a, b) && ct_is_contiguous(b));
    for (i = 0; b && i < 6; i++) CHECK(ct_get(a, i) == ct_get(b, i));
    CHECK_OK(ct_manual_seed(g, 8));
    a = ct_rand_ex(CT_DIMS(5), g, CT_F32, CT_NO_DEVICE);
    CHECK_OK(ct_manual_seed(g, 8));
    b = ct_rand_like_ex(ct_ones(CT_DIMS(5), CT_F32), CT_DTYPE_NONE, g);
    for (i = 0; b && i < 5; i++) CHECK(ct_get(a, i) == ct_get(b, i));
    {
      ct_tensor *x = ct_ones(CT_DIMS(3), CT_F64);
      CHECK_OK(ct_set_requires_grad(x, true));
      b = ct_randn_like(x);
      CHECK(b && !ct_requires_grad(b));
    }
    /* the default generator follows ct_manual_seed_all */
    ct_manual_seed_all(77);
    a = ct_rand(CT_DIMS(6));
    ct_manual_seed_all(77);
    b = ct_rand(CT_DIMS(6));
    for (i = 0; i < 6; i++) CHECK(ct_get(a, i) == ct_get(b, i));
    ct_manual_seed_all(CT_DEFAULT_SEED);
    ct_generator_free(g);
  }
}

static void rn_moments(const ct_tensor *t, double *mean, double *var) {
  double s = 0, s2 = 0;
  int64_t i;
  if (!t) { /* the op failed (already reported): NaN moments fail the caller's checks */
    *mean = *var = NAN;
    return;
  }
  for (i = 0; i < t->numel; i++) s += ct_get(t, i);
  *mean = s / (double)t->numel;
  for (i = 0; i < t->numel; i++) s2 += (ct_get(t, i) - *mean) * (ct_get(t, i) - *mean);
  *var = s2 / (double)(t->numel - 1);
}

/* 40000 samples: the standard error of a mean is sigma / 200 */
TEST(random_statistics) {
  CT_SCOPE {
    ct_generator *g = ct_generator_new(CT_CPU);
    const int64_t N = 40000;
    ct_tensor *t;
    double m, v, lo = 1e9, hi = -1e9;
    int64_t i, count[5] = {0, 0, 0, 0, 0};
    CHECK_OK(ct_manual_seed(g, 11));
    t = ct_rand_ex(1, &N, g, CT_DTYPE_NONE, CT_NO_DEVICE);
    rn_moments(t, &m, &v);
    CHECK_NEAR(m, 0.5, 0.006);
    CHECK_NEAR(v, 1.0 / 12, 0.003);
    for (i = 0; i < N; i++) lo = fmin(lo, ct_get(t, i)), hi = fmax(hi, ct_get(t, i));
    CHECK(lo >= 0 && hi < 1 && lo < 0.001 && hi > 0.999);
    t = ct_randn_ex(1, &N, g, CT_F64, CT_NO_DEVICE);
    rn_moments(t, &m, &v);
    CHECK_NEAR(m, 0, 0.02);
    CHECK_NEAR(v, 1, 0.03);
    t = ct_empty(1, &N, CT_F64);
    CHECK_OK(ct_normal_ex_(t, 3, 2, g));
    rn_moments(t, &m, &v);
    CHECK_NEAR(m, 3, 0.04);
    CHECK_NEAR(v, 4, 0.12);
    CHECK_OK(ct_uniform_ex_(t, -2, 5, g));
    rn_moments(t, &m, &v);
    CHECK_NEAR(m, 1.5, 0.05);
    CHECK_NEAR(v, 49.0 / 12, 0.12);
    t = ct_randint_ex(-2, 3, 1, &N, g, CT_I32, CT_NO_DEVICE);
    CHECK(t->dtype == CT_I32);
    for (i = 0; i < N; i++) {
      double x = ct_get(t, i);
      CHECK(x >= -2 && x <= 2 && x == floor(x));
      if (x >= -2 && x <= 2) count[(int)x + 2]++;
    }
    for (i = 0; i < 5; i++) CHECK(count[i] > N / 5 - 600 && count[i] < N / 5 + 600);
    t = ct_empty(1, &N, CT_BOOL);
    CHECK_OK(ct_bernoulli_float_ex_(t, 0.3, g));
    rn_moments(t, &m, &v);
    CHECK_NEAR(m, 0.3, 0.008);
    /* bernoulli with a tensor of probabilities: 0, 1 and 0.75 */
    {
      ct_tensor *p = ct_full(1, &N, ct_float(0.75), CT_F64), *r;
      CHECK_OK(ct_set(p, 0, 0.0));
      CHECK_OK(ct_set(p, 1, 1.0));
      r = ct_bernoulli_ex(p, g);
      CHECK(r && r->dtype == CT_F64 && ct_get(r, 0) == 0 && ct_get(r, 1) == 1);
      rn_moments(r, &m, &v);
      CHECK_NEAR(m, 0.75, 0.008);
      r = ct_bernoulli_p_ex(ct_zeros(CT_DIMS(100), CT_I64), 1.0, g);
      CHECK(r && r->dtype == CT_I64 && ct_get(r, 99) == 1);
    }
    /* random_ with to None on uint8 covers 0..255 */
    t = ct_empty(CT_DIMS(4000), CT_U8);
    CHECK_OK(ct_random_ex_(t, g)); /* [0, 255] */
    lo = 1e9, hi = -1e9;
    for (i = 0; i < 4000; i++) lo = fmin(lo, ct_get(t, i)), hi = fmax(hi, ct_get(t, i));
    CHECK(lo == 0 && hi == 255);
    /* randperm is a permutation, in any dtype that holds n */
    t = ct_randperm_ex(1000, g, CT_F32, CT_NO_DEVICE);
    {
      static unsigned char seen[1000];
      int ok = 1;
      memset(seen, 0, sizeof seen);
      for (i = 0; i < 1000; i++) {
        double x = ct_get(t, i);
        if (x < 0 || x >= 1000 || seen[(int)x]) ok = 0;
        else seen[(int)x] = 1;
      }
      CHECK(ok && t->dtype == CT_F32);
    }
    ct_generator_free(g);
  }
}

TEST(random_dropout) {
  CT_SCOPE {
    ct_generator *g = ct_generator_new(CT_CPU);
    const int64_t N = 20000;
    ct_tensor *x = ct_full(1, &N, ct_float(2), CT_F32), *y, *mask = NULL;
    int64_t i, zeros = 0, bad = 0;
    CHECK_OK(ct_manual_seed(g, 3));
    y = ct_dropout_ex(x, 0.25, true, g);
    for (i = 0; y && i < N; i++) {
      double v = ct_get(y, i);
      zeros += v == 0;
      bad += v != 0 && v != (double)(float)(2 / 0.75);
    }
    CHECK(bad == 0 && zeros > N / 4 - 400 && zeros < N / 4 + 400);
    /* native_dropout gives the mask: same stream, same result */
    CHECK_OK(ct_manual_seed(g, 3));
    y = ct_native_dropout_ex(x, 0.25, true, g, &mask);
    CHECK(y && mask && mask->dtype == CT_BOOL && ct_same_shape(mask, x));
    for (i = 0, bad = 0; y && mask && i < N; i++) bad += (ct_get(mask, i) != 0) != (ct_get(y, i) != 0);
    CHECK(bad == 0);
    /* evaluation and p = 0: the input itself; p = 1: zeros */
    CHECK(ct_dropout(x, 0.5, false) == x);
    CHECK(ct_dropout(x, 0.0, true) == x);
    y = ct_dropout(x, 1.0, true);
    CHECK(y && y != x && ct_get(y, 7) == 0);
    y = ct_native_dropout(x, 0.5, false, &mask);
    CHECK(y && y != x && ct_get(y, 3) == 2 && mask && ct_get(mask, 3) == 1);
    CHECK_ERR(ct_dropout(x, 1.5, true), CT_ERR_INVALID, "dropout probability has to be between 0 and 1, but got 1.5");
    CHECK_ERR(ct_dropout(x, -0.1, false), CT_ERR_INVALID, "dropout probability");
    CHECK_ERR(ct_native_dropout(ct_zeros(CT_DIMS(3), CT_I64), 0.5, true, NULL), CT_ERR_DTYPE, "not implemented for 'Long'");
    ct_generator_free(g);
  }
}

/* dropout's gradient: grad * mask / (1 - p), checked with a generator reseeded on every evaluation */
static ct_tensor *rn_dropout_fn(ct_tensor *const *in, void *ctx) {
  ct_generator *g = (ct_generator *)ctx;
  if (ct_manual_seed(g, 10) != CT_OK) return NULL;
  return ct_dropout_ex(in[0], 0.4, true, g);
}
TEST(random_dropout_gradient) {
  CT_SCOPE {
    ct_generator *g = ct_generator_new(CT_CPU);
    ct_tensor *x = ct_randn_ex(CT_DIMS(3, 5), g, CT_F64, CT_NO_DEVICE), *y, *gx, *mask = NULL;
    int64_t i;
    CHECK_OK(ct_set_requires_grad(x, true));
    CHECK_OK(ct_gradcheck(rn_dropout_fn, g, 1, &x, NULL));
    CHECK_OK(ct_gradgradcheck(rn_dropout_fn, g, 1, &x, NULL));
    CHECK_OK(ct_manual_seed(g, 10));
    y = ct_native_dropout_ex(x, 0.4, true, g, &mask);
    CHECK_OK(ct_backward(ct_sum(y)));
    gx = ct_grad(x);
    for (i = 0; gx && i < 15; i++) CHECK_NEAR(ct_get(gx, i), ct_get(mask, i) / 0.6, 1e-15);
    /* random fills have a zero gradient */
    {
      ct_tensor *z = ct_mul_scalar(x, ct_int(3));
      CHECK_OK(ct_uniform_ex_(z, 0, 1, g));
      CHECK(ct_requires_grad(z));
    }
    ct_generator_free(g);
  }
}

TEST(random_factories_eye_linspace) {
  CT_SCOPE {
    static const double ls[7] = {-1.0, -0x1.555554p-1, -0x1.555554p-2, -0x1p-25, 0x1.555554p-2, 0x1.555554p-1, 1.0};
    static const double ls2[5] = {0x1.99999ap-4, 0x1p-2, 0x1.99999ap-2, 0x1.19999ap-1, 0x1.666666p-1};
    static const double ld[6] = {0.3, -1.18, -2.66, -4.14, -5.619999999999999, -7.1};
    ct_tensor *t;
    int i;
    t = ct_linspace(ct_int(-1), ct_int(1), 7); /* values from torch.linspace (float32) */
    CHECK(t && t->dtype == CT_F32 && t->numel == 7);
    for (i = 0; t && i < 7; i++) CHECK(ct_get(t, i) == ls[i]);
    t = ct_linspace(ct_float(0.1), ct_float(0.7), 5);
    for (i = 0; t && i < 5; i++) CHECK(ct_get(t, i) == ls2[i]);
    t = ct_linspace_ex(ct_float(0.3), ct_float(-7.1), 6, CT_F64, CT_NO_DEVICE);
    for (i = 0; t && i < 6; i++) CHECK(ct_get(t, i) == ld[i]);
    { /* more of torch.linspace's values, bit for bit (it rounds like one fused multiply-add per value) */
      static const double w64[9] = {-0x1.d99999999999ap+1, -0x1.d666666666668p+0, 0x1.99999999999p-6, 0x1.e33333333333p+0, 0x1.ep+1,
                                    0x1.6733333333333p+2, 0x1.de66666666666p+2, 0x1.2acccccccccccp+3, 0x1.6666666666666p+3};
      static const double w32[9] = {-0x1.d9999ap+1, -0x1.d66668p+0, 0x1.9999p-6, 0x1.e3333p+0, 0x1.ep+1,
                                    0x1.673334p+2, 0x1.de6666p+2, 0x1.2acccc0p+3, 0x1.666666p+3};
      static const double w11[11] = {0x1.0624dep-10, 0x1.8b1688p+3, 0x1.8b126ep+4, 0x1.284cccp+5, 0x1.8b1062p+5, 0x1.edd3f8p+5,
                                     0x1.284bc8p+6, 0x1.59ad92p+6, 0x1.8b0f5cp+6, 0x1.bc7128p+6, 0x1.edd2f2p+6};
      ct_tensor *u = ct_linspace_ex(ct_float(-3.7), ct_float(11.2), 9, CT_F64, CT_NO_DEVICE), *v = ct_linspace(ct_float(-3.7), ct_float(11.2), 9);
      ct_tensor *w = ct_linspace(ct_float(1e-3), ct_float(123.456), 11);
      for (i = 0; i < 9; i++) CHECK(ct_get(u, i) == w64[i] && ct_get(v, i) == w32[i]);
      for (i = 0; i < 11; i++) CHECK(ct_get(w, i) == w11[i]);
    }
    t = ct_linspace_ex(ct_int(0), ct_int(10), 5, CT_I64, CT_NO_DEVICE);
    CHECK(t && ct_get(t, 0) == 0 && ct_get(t, 1) == 2 && ct_get(t, 2) == 5 && ct_get(t, 3) == 7 && ct_get(t, 4) == 10);
    t = ct_linspace_ex(ct_int(3), ct_int(-4), 4, CT_I32, CT_NO_DEVICE);
    CHECK(t && ct_get(t, 0) == 3 && ct_get(t, 1) == 0 && ct_get(t, 2) == -1 && ct_get(t, 3) == -4);
    t = ct_linspace(ct_float(2.5), ct_float(9), 1);
    CHECK(t && t->numel == 1 && ct_get(t, 0) == 2.5);
    t = ct_linspace(ct_float(2.5), ct_float(9), 0);
    CHECK(t && t->ndim == 1 && t->numel == 0);
    CHECK_ERR(ct_linspace(ct_int(0), ct_int(1), -1), CT_ERR_INVALID, "number of steps must be non-negative");
    t = ct_eye_m(2, 3);
    CHECK(t && t->dtype == CT_F32 && t->sizes[0] == 2 && t->sizes[1] == 3);
    for (i = 0; t && i < 6; i++) CHECK(ct_get(t, i) == (i == 0 || i == 4));
    t = ct_eye_ex(3, CT_BOOL, CT_NO_DEVICE);
    CHECK(t && t->dtype == CT_BOOL && ct_get(t, 4) == 1 && ct_get(t, 5) == 0);
    t = ct_eye(0);
    CHECK(t && t->numel == 0 && t->ndim == 2);
    CHECK_ERR(ct_eye(-1), CT_ERR_INVALID, "n must be greater or equal to 0, got -1");
    CHECK_ERR(ct_eye_m(2, -3), CT_ERR_INVALID, "m must be greater or equal to 0, got -3");
    /* out= forms resize and write through strides */
    t = ct_t(ct_zeros(CT_DIMS(3, 2), CT_F64));
    CHECK_OK(ct_eye_m_out(t, 2, 3));
    CHECK(ct_get(t, 0) == 1 && ct_get(t, 4) == 1 && ct_get(t, 1) == 0);
    t = ct_empty(CT_DIMS(0), CT_F64);
    CHECK_OK(ct_eye_out(t, 2));
    CHECK(t->ndim == 2 && ct_get(t, 3) == 1);
    t = ct_empty(CT_DIMS(0), CT_F64);
    CHECK_OK(ct_rand_out(t, CT_DIMS(2, 3), NULL));
    CHECK(t->ndim == 2 && t->numel == 6 && ct_get(t, 5) >= 0 && ct_get(t, 5) < 1);
    /* every factory on the meta device: shapes only, the generator does not move */
    {
      ct_generator *m = ct_generator_new(CT_META);
      t = ct_randn_ex(CT_DIMS(4, 5), m, CT_F64, CT_NO_DEVICE);
      CHECK(t && t->device.type == CT_DEVICE_META && t->numel == 20 && t->dtype == CT_F64);
      t = ct_randperm_ex(9, m, CT_DTYPE_NONE, CT_NO_DEVICE);
      CHECK(t && t->device.type == CT_DEVICE_META && t->numel == 9);
      CHECK(ct_generator_offset(m) == 0);
      ct_generator_free(m);
    }
  }
}

TEST(random_errors) {
  CT_SCOPE {
    ct_tensor *f = ct_zeros(CT_DIMS(4), CT_F32), *i64 = ct_zeros(CT_DIMS(4), CT_I64);
    ct_generator *cuda = ct_generator_new(ct_device_make(CT_DEVICE_CUDA, 0));
    CHECK_ERR(ct_uniform_(i64, 0, 1), CT_ERR_DTYPE, "not implemented for 'Long'");
    CHECK_ERR(ct_uniform_(f, 1, 0), CT_ERR_INVALID, "uniform_ expects to return a [from, to) range, but found from=1 > to=0");
    CHECK_ERR(ct_normal_(f, 0, -1), CT_ERR_INVALID, "normal expects std >= 0.0, but found std -1");
    CHECK_ERR(ct_normal_(i64, 0, 1), CT_ERR_DTYPE, "not implemented for 'Long'");
    CHECK_ERR(ct_randint(5, 5, CT_DIMS(3)), CT_ERR_INVALID, "random_ expects 'from' to be less than 'to', but got from=5 >= to=5");
    CHECK_ERR(ct_random_to_(ct_zeros(CT_DIMS(2), CT_BOOL), 3), CT_ERR_INVALID, "to be in [0, 1]");
    CHECK_ERR(ct_random_from_(f, 0, (int64_t)1 << 30), CT_ERR_INVALID, "random_ expects 'from' and 'to' - 1 to be in");
    CHECK_ERR(ct_randint_ex(0, 300, CT_DIMS(3), NULL, CT_U8, CT_NO_DEVICE), CT_ERR_INVALID, "to be in [0, 255]");
    CHECK_ERR(ct_randperm(-1), CT_ERR_INVALID, "n must be non-negative, got -1");
    CHECK_ERR(ct_randperm_ex(300, NULL, CT_U8, CT_NO_DEVICE), CT_ERR_INVALID, "n is too large for result tensor type: 'Byte'");
    CHECK_ERR(ct_bernoulli_float_(f, 1.5), CT_ERR_INVALID, "bernoulli expects p to be in [0, 1], but got p=1.5");
    CHECK_ERR(ct_bernoulli(ct_full(CT_DIMS(2), ct_float(-0.5), CT_F32)), CT_ERR_INVALID, "Expected p_in >= 0 && p_in <= 1");
    CHECK_ERR(ct_rand(CT_DIMS(2, -1)), CT_ERR_SIZE, "negative dimension -1");
    CHECK_ERR(ct_rand_ex(CT_DIMS(2), NULL, CT_I64, CT_NO_DEVICE), CT_ERR_DTYPE, "not implemented for 'Long'");
    CHECK_ERR(ct_uniform_ex_(f, 0, 1, cuda), CT_ERR_DEVICE, "Expected a 'cpu' device type for generator but found 'cuda'");
    CHECK_ERR(ct_uniform_(ct_expand(ct_zeros(CT_DIMS(1), CT_F32), CT_DIMS(3)), 0, 1), CT_ERR_INVALID, "more than one element");
    CHECK(ct_get(f, 0) == 0); /* nothing written by the failures */
    ct_generator_free(cuda);
  }
}

/* the deterministic random ops through ct_opcheck (frontend vs boxed, meta, gradcheck) */
TEST(random_opcheck) {
  CT_SCOPE {
    ct_tensor *x = ct_randn_ex(CT_DIMS(2, 3), NULL, CT_DTYPE_NONE, CT_NO_DEVICE), *m = ct_bernoulli_p(ct_zeros(CT_DIMS(2, 3), CT_BOOL), 0.5);
    ct_value a1[4], a2[3];
    a1[0] = ct_value_tensor(x), a1[1] = ct_value_double(0.3), a1[2] = ct_value_bool(false), a1[3] = ct_value_generator(NULL);
    CHECK_OK(ct_opcheck("dropout", 4, a1, NULL));
    CHECK_OK(ct_opcheck("native_dropout", 4, a1, NULL));
    a2[0] = ct_value_tensor(x), a2[1] = ct_value_tensor(m), a2[2] = ct_value_double(2.0);
    CHECK_OK(ct_opcheck("native_dropout_backward", 3, a2, NULL));
  }
}

#if !defined(CT_NO_THREADS) && !defined(_WIN32)
#include <pthread.h>
/* threads sharing a generator get disjoint counter ranges: the offset adds up */
static void *rn_thread(void *arg) {
  ct_generator *g = (ct_generator *)arg;
  int i;
  for (i = 0; i < 50; i++) {
    ct_tensor *t = ct_rand_ex(CT_DIMS(8), g, CT_DTYPE_NONE, CT_NO_DEVICE); /* 8 words: 2 blocks */
    ct_release(t);
  }
  return NULL;
}
TEST(random_threads_share_a_generator) {
  ct_generator *g = ct_generator_new(CT_CPU);
  pthread_t th[4];
  int i;
  for (i = 0; i < 4; i++) CHECK(pthread_create(&th[i], NULL, rn_thread, g) == 0);
  for (i = 0; i < 4; i++) pthread_join(th[i], NULL);
  CHECK(ct_generator_offset(g) == 4 * 50 * 2);
  ct_generator_free(g);
}
#endif
