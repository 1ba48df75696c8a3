/* tests/test_ops_conv.c - direct tests of gen/ops/conv.spec beyond the PyTorch
 * fixtures (tests/cases_conv.py, run by tests/test_opcases.c): kernels
 * against naive loops over many geometries, opcheck and gradgradcheck of
 * every op, and the argument checks. */

static ct_tensor *cv_rand(int ndim, const int64_t *sizes, ct_dtype dtype, unsigned seed) {
  ct_tensor *t = ct_empty(ndim, sizes, dtype);
  uint32_t s = seed * 2654435761u + 7u;
  int64_t k;
  for (k = 0; t && k < t->numel; k++) {
    s = s * 1664525u + 1013904223u;
    ct_set(t, k, dtype == CT_I64 ? (double)((s >> 20) % 7) - 3.0 : (double)(s >> 8) / 8388608.0 - 1.0);
  }
  return t;
}
#define CV_L(...) CT__NARG(__VA_ARGS__), (const int64_t[]){__VA_ARGS__}

/* naive 2-D convolution (transposed: scatter) in double, on contiguous inputs */
static ct_tensor *cv_naive(ct_tensor *x, ct_tensor *w, ct_tensor *b, const int64_t *s, const int64_t *p, const int64_t *d,
                           const int64_t *op, int64_t groups, int transposed) {
  int64_t N = x->sizes[0], C = x->sizes[1], H = x->sizes[2], W = x->sizes[3];
  int64_t KH = w->sizes[2], KW = w->sizes[3], O, OH, OW, n, o, c, i, j, oh, ow;
  int64_t Cg, Og;
  ct_tensor *y;
  if (!transposed) {
    O = w->sizes[0], Cg = w->sizes[1], Og = O / groups;
    OH = (H + 2 * p[0] - d[0] * (KH - 1) - 1) / s[0] + 1, OW = (W + 2 * p[1] - d[1] * (KW - 1) - 1) / s[1] + 1;
  } else {
    O = w->sizes[1] * groups, Cg = w->sizes[0] / groups, Og = w->sizes[1];
    OH = (H - 1) * s[0] - 2 * p[0] + d[0] * (KH - 1) + op[0] + 1, OW = (W - 1) * s[1] - 2 * p[1] + d[1] * (KW - 1) + op[1] + 1;
  }
  y = ct_zeros(4, (const int64_t[]){N, O, OH, OW}, CT_F64);
  for (n = 0; n < N; n++)
    for (c = 0; c < C; c++)
      for (i = 0; i < KH; i++)
        for (j = 0; j < KW; j++) {
          int64_t grp = c / Cg, cl = c % Cg;
          if (!transposed) {
            for (o = grp * Og; o < (grp + 1) * Og; o++)
              for (oh = 0; oh < OH; oh++)
                for (ow = 0; ow < OW; ow++) {
                  int64_t ih = oh * s[0] - p[0] + i * d[0], iw = ow * s[1] - p[1] + j * d[1];
                  int64_t yi = ((n * O + o) * OH + oh) * OW + ow;
                  if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
                  ct_set(y, yi, ct_get(y, yi) + ct_get(x, ((n * C + c) * H + ih) * W + iw) * ct_get(w, ((o * Cg + cl) * KH + i) * KW + j));
                }
          } else {
            for (o = grp * Og; o < (grp + 1) * Og; o++)
              for (oh = 0; oh < H; oh++) /* input position -> output positions */
                for (ow = 0; ow < W; ow++) {
                  int64_t yh = oh * s[0] - p[0] + i * d[0], yw = ow * s[1] - p[1] + j * d[1];
                  int64_t yi = ((n * O + o) * OH + yh) * OW + yw;
                  if (yh < 0 || yh >= OH || yw < 0 || yw >= OW) continue;
                  ct_set(y, yi, ct_get(y, yi) + ct_get(x, ((n * C + c) * H + oh) * W + ow) * ct_get(w, ((c * Og + (o - grp * Og)) * KH + i) * KW + j));
                }
          }
        }
  if (b)
    for (n = 0; n < y->numel; n++) ct_set(y, n, ct_get(y, n) + ct_get(b, (n / (OH * OW)) % O));
  return y;
}

static double cv_maxdiff(ct_tensor *a, ct_tensor *b) {
  double m = 0;
  int64_t k;
  if (!a || !b || !ct_same_shape(a, b)) return 1e30;
  for (k = 0; k < a->numel; k++) {
    double e = fabs(ct_get(a, k) - ct_get(b, k));
    if (e > m || e != e) m = e != e ? 1e30 : e;
  }
  return m;
}

TEST(conv_matches_naive) {
  /* N C H W | O KH KW | s p d | groups | transposed, output_padding */
  static const int64_t cfg[][14] = {
      {2, 3, 5, 6, 4, 3, 3, 1, 0, 1, 1, 0, 0, 0},  {2, 4, 7, 5, 6, 3, 2, 2, 1, 1, 2, 0, 0, 0},
      {1, 2, 8, 8, 2, 3, 3, 1, 2, 2, 1, 0, 0, 0},  {3, 6, 6, 7, 6, 1, 3, 3, 1, 2, 3, 0, 0, 0},
      {1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 0, 0, 0},  {2, 4, 5, 5, 3, 3, 3, 1, 0, 1, 1, 1, 0, 0},
      {2, 4, 4, 3, 6, 3, 2, 2, 1, 1, 2, 1, 1, 0},  {1, 3, 3, 4, 2, 2, 3, 3, 0, 2, 1, 1, 2, 0},
      {2, 2, 3, 3, 2, 3, 3, 2, 1, 1, 1, 1, 1, 1},
  };
  size_t ci;
  for (ci = 0; ci < sizeof cfg / sizeof cfg[0]; ci++) CT_SCOPE {
      const int64_t *c = cfg[ci];
      int64_t s[2] = {c[7], c[7]}, p[2] = {c[8], c[8]}, d[2] = {c[9], c[9]}, op[2] = {c[13] ? c[12] : 0, c[12]};
      int transposed = (int)c[11];
      ct_tensor *x = cv_rand(CT_DIMS(c[0], c[1], c[2], c[3]), CT_F64, (unsigned)ci + 1);
      ct_tensor *w = transposed ? cv_rand(CT_DIMS(c[1], c[4] / c[10] > 0 ? c[4] / c[10] : 1, c[5], c[6]), CT_F64, (unsigned)ci + 50)
                                : cv_rand(CT_DIMS(c[4], c[1] / c[10], c[5], c[6]), CT_F64, (unsigned)ci + 50);
      ct_tensor *b = cv_rand(CT_DIMS(transposed ? w->sizes[1] * c[10] : c[4]), CT_F64, (unsigned)ci + 99);
      ct_tensor *y = transposed ? ct_conv_transpose2d(x, w, b, 2, s, 2, p, 2, op, c[10], 2, d) : ct_conv2d(x, w, b, 2, s, 2, p, 2, d, c[10]);
      ct_tensor *ref = cv_naive(x, w, b, s, p, d, op, c[10], transposed);
      CHECK(y != NULL);
      if (!y) printf("  config %d: %s\n", (int)ci, ct_last_error_message());
      CHECK(cv_maxdiff(y, ref) < 1e-12);
      /* float32 and a non-contiguous input give the same */
      {
        ct_tensor *xt = ct_transpose(ct_contiguous(ct_transpose(x, 2, 3)), 2, 3);
        ct_tensor *y2 = transposed ? ct_conv_transpose2d(xt, w, b, 2, s, 2, p, 2, op, c[10], 2, d) : ct_conv2d(xt, w, b, 2, s, 2, p, 2, d, c[10]);
        ct_tensor *xf = ct_to_dtype(x, CT_F32), *wf = ct_to_dtype(w, CT_F32), *bf = ct_to_dtype(b, CT_F32);
        ct_tensor *y3 = transposed ? ct_conv_transpose2d(xf, wf, bf, 2, s, 2, p, 2, op, c[10], 2, d) : ct_conv2d(xf, wf, bf, 2, s, 2, p, 2, d, c[10]);
        CHECK(!ct_is_contiguous(xt) || c[2] == 1 || c[3] == 1);
        CHECK(cv_maxdiff(y2, ref) < 1e-12);
        CHECK(y3 && y3->dtype == CT_F32 && cv_maxdiff(y3, ref) < 1e-4);
      }
    }
}

TEST(conv_half_accumulates_in_f32) {
  CT_SCOPE {
    ct_tensor *x = cv_rand(CT_DIMS(1, 16, 4, 4), CT_F64, 3), *w = cv_rand(CT_DIMS(2, 16, 3, 3), CT_F64, 4);
    ct_tensor *ref = ct_conv2d(x, w, NULL, CV_L(1), CV_L(1), CV_L(1), 1);
    ct_dtype dts[2] = {CT_F16, CT_BF16};
    int k;
    for (k = 0; k < 2; k++) {
      ct_tensor *xh = ct_to_dtype(x, dts[k]), *wh = ct_to_dtype(w, dts[k]);
      ct_tensor *y = ct_conv2d(xh, wh, NULL, CV_L(1), CV_L(1), CV_L(1), 1);
      ct_tensor *yr = ct_conv2d(ct_to_dtype(xh, CT_F32), ct_to_dtype(wh, CT_F32), NULL, CV_L(1), CV_L(1), CV_L(1), 1);
      CHECK(y && y->dtype == dts[k]);
      /* one rounding of the f32 result: exactly the f32 computation rounded */
      CHECK(cv_maxdiff(y, ct_to_dtype(yr, dts[k])) == 0);
      CHECK(cv_maxdiff(y, ref) < (k ? 0.1 : 0.02));
    }
  }
}

TEST(conv_integer_and_unbatched) {
  CT_SCOPE {
    ct_tensor *x = cv_rand(CT_DIMS(2, 3, 5, 4), CT_I64, 5), *w = cv_rand(CT_DIMS(2, 3, 2, 2), CT_I64, 6);
    ct_tensor *y = ct_conv2d(x, w, NULL, CV_L(1), CV_L(1), CV_L(1), 1);
    ct_tensor *yr = ct_conv2d(ct_to_dtype(x, CT_F64), ct_to_dtype(w, CT_F64), NULL, CV_L(1), CV_L(1), CV_L(1), 1);
    ct_tensor *x1 = ct_select(x, 0, 1);
    ct_tensor *u = ct_conv2d(x1, w, NULL, CV_L(1), CV_L(1), CV_L(1), 1);
    CHECK(y && y->dtype == CT_I64 && cv_maxdiff(y, yr) == 0);
    CHECK(u && u->ndim == 3 && cv_maxdiff(u, ct_select(y, 0, 1)) == 0);
  }
}

TEST(conv_padding_same_and_1d) {
  CT_SCOPE {
    /* even kernel, dilation 1: total padding 1 -> 0 before, 1 after */
    ct_tensor *x = cv_rand(CT_DIMS(2, 3, 6), CT_F64, 7), *w = cv_rand(CT_DIMS(4, 3, 4), CT_F64, 8);
    ct_tensor *y = ct_conv1d_padding(x, w, NULL, CV_L(1), "same", CV_L(1), 1);
    /* reference: conv2d over (N, C, 1, L) with explicit asymmetric padding via zero columns */
    ct_tensor *xp = ct_zeros(3, (const int64_t[]){2, 3, 9}, CT_F64);
    ct_tensor *ref;
    CHECK_OK(ct_copy_(ct_narrow(xp, 2, 1, 6), x));
    ref = ct_conv1d(xp, w, NULL, CV_L(1), CV_L(0), CV_L(1), 1);
    CHECK(y && y->sizes[2] == 6);
    CHECK(cv_maxdiff(y, ref) < 1e-12);
    CHECK(cv_maxdiff(ct_conv1d_padding(x, w, NULL, CV_L(1), "valid", CV_L(1), 1), ct_conv1d(x, w, NULL, CV_L(1), CV_L(0), CV_L(1), 1)) == 0);
    CHECK_ERR(ct_conv1d_padding(x, w, NULL, CV_L(2), "same", CV_L(1), 1), CT_ERR_INVALID,
              "padding='same' is not supported for strided convolutions");
    CHECK_ERR(ct_conv1d_padding(x, w, NULL, CV_L(1), "full", CV_L(1), 1), CT_ERR_INVALID, "Invalid padding string: 'full'");
  }
}

/* ---- opcheck (frontend vs boxed, meta, out=, gradcheck) and gradgradcheck ---- */
static int64_t cv_pool[256];
static int cv_pool_n;
static ct_value cv_list(int n, const int64_t *v) {
  int i, at = cv_pool_n;
  for (i = 0; i < n; i++) cv_pool[cv_pool_n++] = v[i];
  return ct_value_int_list(cv_pool + at, n);
}
#define CV_V(...) cv_list(CV_L(__VA_ARGS__))
static void cv_opcheck(const char *op, int n, const ct_value *args, int gradgrad) {
  ct_opcheck_opts o;
  memset(&o, 0, sizeof o);
  o.gradgradcheck = gradgrad != 0;
  if (ct_opcheck(op, n, args, &o) != CT_OK) {
    harness_fail(__FILE__, __LINE__, "opcheck %s: %s", op, ct_last_error_message());
    ct_clear_error();
  }
}
#define CV_CHECK(gg, name, ...) cv_opcheck(name, (int)(sizeof((ct_value[]){__VA_ARGS__}) / sizeof(ct_value)), (ct_value[]){__VA_ARGS__}, gg)

TEST(conv_opcheck) {
  CT_SCOPE {
    ct_tensor *x = cv_rand(CT_DIMS(2, 4, 5, 4), CT_F32, 11), *w = cv_rand(CT_DIMS(6, 2, 3, 2), CT_F32, 12);
    ct_tensor *b = cv_rand(CT_DIMS(6), CT_F32, 13), *wt = cv_rand(CT_DIMS(4, 3, 2, 3), CT_F32, 14), *bt = cv_rand(CT_DIMS(6), CT_F32, 15);
    ct_tensor *x1 = cv_rand(CT_DIMS(2, 3, 7), CT_F32, 16), *w1 = cv_rand(CT_DIMS(4, 3, 2), CT_F32, 17);
    ct_tensor *bt4 = cv_rand(CT_DIMS(4), CT_F32, 20), *gy = cv_rand(CT_DIMS(2, 6, 3, 2), CT_F32, 18), *xu = cv_rand(CT_DIMS(4, 5, 4), CT_F32, 19);
    cv_pool_n = 0;
    CV_CHECK(1, "convolution", ct_value_tensor(x), ct_value_tensor(w), ct_value_tensor(b), CV_V(2, 1), CV_V(1), CV_V(1, 2),
             ct_value_bool(false), CV_V(0), ct_value_int(2));
    CV_CHECK(1, "convolution", ct_value_tensor(x), ct_value_tensor(wt), ct_value_tensor(bt), CV_V(2), CV_V(1, 0), CV_V(1),
             ct_value_bool(true), CV_V(1, 0), ct_value_int(2));
    CV_CHECK(1, "convolution", ct_value_tensor(x1), ct_value_tensor(w1), ct_value_none(), CV_V(2), CV_V(1), CV_V(2),
             ct_value_bool(false), CV_V(0), ct_value_int(1));
    /* output_padding >= stride (allowed below dilation): the derivatives narrow */
    CV_CHECK(1, "convolution", ct_value_tensor(x1), ct_value_tensor(cv_rand(CT_DIMS(3, 2, 3), CT_F32, 24)), ct_value_none(), CV_V(2),
             CV_V(1), CV_V(3), ct_value_bool(true), CV_V(2), ct_value_int(1));
    CV_CHECK(1, "convolution_backward_input", ct_value_tensor(gy), ct_value_tensor(w), CV_V(2, 4, 5, 4), CV_V(2, 1), CV_V(1),
             CV_V(1, 2), ct_value_int(2));
    CV_CHECK(1, "convolution_backward_weight", ct_value_tensor(gy), ct_value_tensor(x), CV_V(6, 2, 3, 2), CV_V(2, 1), CV_V(1),
             CV_V(1, 2), ct_value_int(2));
    CV_CHECK(0, "conv1d", ct_value_tensor(x1), ct_value_tensor(w1), ct_value_none(), CV_V(1), CV_V(1), CV_V(1), ct_value_int(1));
    CV_CHECK(0, "conv1d.padding", ct_value_tensor(x1), ct_value_tensor(w1), ct_value_tensor(bt4), CV_V(1), ct_value_string("same"),
             CV_V(3), ct_value_int(1));
    CV_CHECK(0, "conv2d", ct_value_tensor(xu), ct_value_tensor(w), ct_value_tensor(b), CV_V(1), CV_V(1), CV_V(1), ct_value_int(2));
    CV_CHECK(0, "conv2d.padding", ct_value_tensor(x), ct_value_tensor(w), ct_value_none(), CV_V(1), ct_value_string("same"),
             CV_V(1), ct_value_int(2));
    CV_CHECK(0, "conv_transpose2d.input", ct_value_tensor(xu), ct_value_tensor(wt), ct_value_tensor(bt), CV_V(2, 1), CV_V(0),
             CV_V(1, 0), ct_value_int(2), CV_V(1));
  }
}

TEST(conv_errors) {
  CT_SCOPE {
    ct_tensor *x = cv_rand(CT_DIMS(2, 4, 5, 5), CT_F32, 21), *w = cv_rand(CT_DIMS(6, 3, 3, 3), CT_F32, 22);
    ct_tensor *w4 = cv_rand(CT_DIMS(6, 4, 3, 3), CT_F32, 23);
    CHECK_ERR(ct_conv2d(x, w, NULL, CV_L(1), CV_L(0), CV_L(1), 1), CT_ERR_SHAPE,
              "Given groups=1, weight of size [6, 3, 3, 3], expected input[2, 4, 5, 5] to have 3 channels, but got 4 channels instead");
    CHECK_ERR(ct_conv2d(x, w4, NULL, CV_L(1), CV_L(0), CV_L(1), 4), CT_ERR_SHAPE, "expected weight to be divisible by 4 at dimension 0");
    CHECK_ERR(ct_conv2d(x, w4, NULL, CV_L(0), CV_L(0), CV_L(1), 1), CT_ERR_INVALID, "non-positive stride is not supported");
    CHECK_ERR(ct_conv2d(x, w4, NULL, CV_L(1), CV_L(0), CV_L(0), 1), CT_ERR_INVALID, "non-positive dilation is not supported");
    CHECK_ERR(ct_conv2d(x, w4, NULL, CV_L(1), CV_L(-1), CV_L(1), 1), CT_ERR_INVALID, "negative padding is not supported");
    CHECK_ERR(ct_conv2d(x, w4, NULL, CV_L(1), CV_L(0), CV_L(1), 0), CT_ERR_INVALID, "non-positive groups is not supported");
    CHECK_ERR(ct_conv2d(x, w4, NULL, CV_L(1, 1, 1), CV_L(0), CV_L(1), 1), CT_ERR_INVALID,
              "expected stride to be a single integer value or a list of 2 values to match the convolution dimensions, but got stride=[1, 1, 1]");
    CHECK_ERR(ct_conv2d(x, cv_rand(CT_DIMS(6, 4, 7, 7), CT_F32, 1), NULL, CV_L(1), CV_L(0), CV_L(1), 1), CT_ERR_SHAPE,
              "Calculated padded input size per channel: (5 x 5). Kernel size: (7 x 7). Kernel size can't be greater than actual input size");
    CHECK_ERR(ct_conv2d(x, ct_to_dtype(w4, CT_F64), NULL, CV_L(1), CV_L(0), CV_L(1), 1), CT_ERR_DTYPE,
              "Input type (torch.FloatTensor) and weight type (torch.DoubleTensor) should be the same");
    CHECK_ERR(ct_conv2d(x, w4, cv_rand(CT_DIMS(5), CT_F32, 2), CV_L(1), CV_L(0), CV_L(1), 1), CT_ERR_SHAPE,
              "expected bias to be 1-dimensional with 6 elements, but got bias of size [5] instead");
    CHECK_ERR(ct_conv2d(cv_rand(CT_DIMS(5, 5), CT_F32, 3), w4, NULL, CV_L(1), CV_L(0), CV_L(1), 1), CT_ERR_RANK,
              "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: [5, 5]");
    CHECK_ERR(ct_conv2d(ct_to_dtype(x, CT_BOOL), ct_to_dtype(w4, CT_BOOL), NULL, CV_L(1), CV_L(0), CV_L(1), 1), CT_ERR_DTYPE, "'Bool'");
    CHECK_ERR(ct_conv_transpose2d(x, cv_rand(CT_DIMS(4, 3, 3, 3), CT_F32, 4), NULL, CV_L(1), CV_L(0), CV_L(1), 1, CV_L(1)),
              CT_ERR_INVALID, "output padding must be smaller than either stride or dilation");
    CHECK_ERR(ct_conv_transpose2d(x, cv_rand(CT_DIMS(4, 3, 3, 3), CT_F32, 4), NULL, CV_L(1), CV_L(5), CV_L(0), 1, CV_L(1)),
              CT_ERR_SHAPE, "Calculated output size per channel: (-3 x -3). Output size is too small");
    CHECK_ERR(ct_conv2d(x, NULL, NULL, CV_L(1), CV_L(0), CV_L(1), 1), CT_ERR_NULL, "weight");
    CHECK_ERR(ct_conv2d_padding(x, w4, NULL, CV_L(1), NULL, CV_L(1), 1), CT_ERR_NULL, "padding");
  }
}

/* ---- pooling ---- */
TEST(conv_pool_opcheck) {
  CT_SCOPE {
    ct_tensor *x = cv_rand(CT_DIMS(2, 2, 5, 4), CT_F32, 31), *gy = cv_rand(CT_DIMS(2, 2, 2, 3), CT_F32, 32);
    ct_tensor *idx = ct_zeros(4, (const int64_t[]){2, 2, 2, 2}, CT_I64), *g2 = cv_rand(CT_DIMS(2, 2, 2, 2), CT_F32, 33);
    int64_t k;
    cv_pool_n = 0;
    for (k = 0; k < idx->numel; k++) ct_set(idx, k, (double)((k * 7) % 20));
    CV_CHECK(1, "_adaptive_avg_pool2d", ct_value_tensor(x), CV_V(2, 3));
    CV_CHECK(1, "_adaptive_avg_pool2d_backward", ct_value_tensor(gy), ct_value_tensor(x));
    CV_CHECK(1, "adaptive_avg_pool2d", ct_value_tensor(x), CV_V(3, 3));
    CV_CHECK(1, "max_pool2d_with_indices_backward", ct_value_tensor(g2), ct_value_tensor(x), CV_V(2), CV_V(2), CV_V(0), CV_V(1),
             ct_value_bool(false), ct_value_tensor(idx));
    CV_CHECK(1, "max_pool2d_double_backward", ct_value_tensor(x), ct_value_tensor(x), CV_V(2), CV_V(2), CV_V(0), CV_V(1),
             ct_value_bool(false), ct_value_tensor(idx));
    CV_CHECK(1, "im2col", ct_value_tensor(x), CV_V(2, 3), CV_V(1, 1), CV_V(1, 0), CV_V(2, 1));
    CV_CHECK(1, "col2im", ct_value_tensor(cv_rand(CT_DIMS(2, 12, 3), CT_F32, 35)), CV_V(4, 5), CV_V(2, 3), CV_V(1, 2), CV_V(1, 0),
             CV_V(2, 1));
    CV_CHECK(1, "max_pool2d_with_indices", ct_value_tensor(x), CV_V(3, 2), CV_V(2, 1), CV_V(1), CV_V(1, 2), ct_value_bool(true));
    CV_CHECK(1, "max_pool2d", ct_value_tensor(x), CV_V(2), ct_value_int_list(NULL, 0), CV_V(0), CV_V(1), ct_value_bool(false));
    CV_CHECK(1, "avg_pool2d", ct_value_tensor(x), CV_V(3, 2), CV_V(2, 1), CV_V(1), ct_value_bool(true), ct_value_bool(false),
             ct_value_int(CT_INT_NONE));
    CV_CHECK(1, "avg_pool2d", ct_value_tensor(x), CV_V(2), CV_V(1), CV_V(1), ct_value_bool(false), ct_value_bool(true), ct_value_int(3));
    CV_CHECK(1, "avg_pool2d_backward", ct_value_tensor(gy), ct_value_tensor(x), CV_V(3, 2), CV_V(2, 1), CV_V(0), ct_value_bool(false),
             ct_value_bool(true), ct_value_int(CT_INT_NONE));
  }
}

TEST(conv_pool_errors) {
  CT_SCOPE {
    ct_tensor *x = cv_rand(CT_DIMS(2, 3, 7, 6), CT_F32, 41);
    CHECK_ERR(ct_adaptive_avg_pool2d(x, CV_L(3)), CT_ERR_INVALID, "adaptive_avg_pool2d: output_size must be 2");
    CHECK_ERR(ct_adaptive_avg_pool2d(x, CV_L(-1, 3)), CT_ERR_INVALID,
              "elements of output_size must be greater than or equal to 0 but received {-1, 3}");
    CHECK_ERR(ct_adaptive_avg_pool2d(cv_rand(CT_DIMS(3, 6), CT_F32, 1), CV_L(3, 3)), CT_ERR_RANK,
              "adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got [3, 6]");
    CHECK_ERR(ct_adaptive_avg_pool2d(ct_to_dtype(x, CT_I64), CV_L(3, 3)), CT_ERR_DTYPE, "\"adaptive_avg_pool2d\" not implemented for 'Long'");
    CHECK_ERR(ct_max_pool2d(x, CV_L(3, 3), CV_L(2), CV_L(2), CV_L(1), false), CT_ERR_INVALID,
              "pad should be at most half of kernel size, but got pad=2 and kernel_size=3");
    CHECK_ERR(ct_max_pool2d(x, CV_L(3, 3, 3), CV_L(2), CV_L(0), CV_L(1), false), CT_ERR_INVALID,
              "max_pool2d: kernel_size must either be a single int, or a tuple of two ints");
    CHECK_ERR(ct_max_pool2d(x, CV_L(3), CV_L(1, 1, 1), CV_L(0), CV_L(1), false), CT_ERR_INVALID,
              "max_pool2d: stride must either be omitted, a single int, or a tuple of two ints");
    CHECK_ERR(ct_max_pool2d(x, CV_L(3), CV_L(1), CV_L(0), CV_L(0), false), CT_ERR_INVALID,
              "dilation should be greater than zero, but got dilationH: 0 dilationW: 0");
    CHECK_ERR(ct_max_pool2d(x, CV_L(3), CV_L(1), CV_L(-1), CV_L(1), false), CT_ERR_INVALID, "pad must be non-negative, but got pad: -1");
    CHECK_ERR(ct_max_pool2d(x, CV_L(3), CV_L(-1), CV_L(0), CV_L(1), false), CT_ERR_INVALID,
              "stride should be greater than zero, but got dH: -1 dW: -1");
    CHECK_ERR(ct_max_pool2d(x, CV_L(8, 8), 0, NULL, CV_L(0), CV_L(1), false), CT_ERR_SHAPE,
              "Given input size: (3x7x6). Calculated output size: (3x0x0). Output size is too small");
    CHECK_ERR(ct_max_pool2d(ct_to_dtype(x, CT_I64), CV_L(2), CV_L(2), CV_L(0), CV_L(1), false), CT_ERR_DTYPE,
              "\"max_pool2d\" not implemented for 'Long'");
    CHECK_ERR(ct_avg_pool2d(x, CV_L(3), CV_L(1), CV_L(1), false, true, 0), CT_ERR_INVALID, "divisor must be not zero");
    CHECK_ERR(ct_avg_pool2d(x, CV_L(3), CV_L(0), CV_L(1), false, true, CT_INT_NONE), CT_ERR_INVALID, "stride should not be zero");
    CHECK_ERR(ct_avg_pool2d(ct_to_dtype(x, CT_I32), CV_L(3), CV_L(1), CV_L(1), false, true, CT_INT_NONE), CT_ERR_DTYPE,
              "\"avg_pool2d\" not implemented for 'Int'");
    CHECK_ERR(ct_avg_pool2d(cv_rand(CT_DIMS(2, 0, 4, 4), CT_F32, 2), CV_L(2), CV_L(2), CV_L(0), false, true, CT_INT_NONE), CT_ERR_SHAPE,
              "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:[2, 0, 4, 4]");
  }
}

TEST(conv_pool_grad_input_variants) {
  CT_SCOPE {
    ct_tensor *x = cv_rand(CT_DIMS(2, 2, 5, 4), CT_F64, 51), *gy = cv_rand(CT_DIMS(2, 2, 2, 3), CT_F64, 52);
    ct_tensor *out = ct_zeros(1, (const int64_t[]){0}, CT_F64), *idx = NULL, *gm;
    ct_tensor *ref = ct_avg_pool2d_backward(gy, x, CV_L(3, 2), CV_L(2, 1), CV_L(0), false, true, CT_INT_NONE);
    CHECK_OK(ct_avg_pool2d_backward_out(out, gy, x, CV_L(3, 2), CV_L(2, 1), CV_L(0), false, true, CT_INT_NONE));
    CHECK(cv_maxdiff(out, ref) == 0);
    CHECK(ct_max_pool2d_with_indices(x, CV_L(3, 2), CV_L(2, 1), CV_L(0), CV_L(1), false, &idx) != NULL && idx != NULL);
    ct_keep(idx);
    ref = ct_max_pool2d_with_indices_backward(gy, x, CV_L(3, 2), CV_L(2, 1), CV_L(0), CV_L(1), false, idx);
    gm = ct_zeros(1, (const int64_t[]){0}, CT_F64);
    CHECK_OK(ct_max_pool2d_with_indices_backward_out(gm, gy, x, CV_L(3, 2), CV_L(2, 1), CV_L(0), CV_L(1), false, idx));
    CHECK(cv_maxdiff(gm, ref) == 0);
    CHECK_ERR(ct_avg_pool2d_backward_out(ct_zeros(1, (const int64_t[]){0}, CT_F32), gy, x, CV_L(3, 2), CV_L(2, 1), CV_L(0), false, true,
                                         CT_INT_NONE), CT_ERR_DTYPE, "Expected out tensor to have dtype");
    ct_release(idx);
  }
}


/* max_pool2d's 2-D dilation-1 path (ct__maxpool2d_*) against the general
 * kernel (ct__maxpool_*) on random geometries (floor and ceil, padding, one
 * to four taps a side, a few with many planes; a quarter 2x2 at stride 2 on
 * rows up to 40 wide, the path's four-window vector groups) and data full of
 * ties, NaNs and infinities (some without NaN): the same values and the same
 * indices, bit for bit */
#define CV_IL(...) ((ct_int_list){(const int64_t[]){__VA_ARGS__}, CT__NARG(__VA_ARGS__)})
TEST(conv_maxpool2d_fast_path_matches_general) {
  static const double vals[7] = {0.0, 1.0, 2.0, NAN, -INFINITY, INFINITY, -0.0};
  uint32_t s = 12345u;
  int trial, fails = 0;
  for (trial = 0; trial < 400 && !fails; trial++) CT_SCOPE {
      int64_t kh, kw, sh, sw, ph, pw, H, W, N, C, shape[5], k;
      bool ceil_mode;
      ct_dtype dt = trial % 2 ? CT_F64 : CT_F32;
      ct__pool_geom g;
      ct_tensor *x, *y, *idx = NULL, *yr, *ir;
#define CV_NEXT() (s = s * 1664525u + 1013904223u, s >> 8)
      kh = 1 + CV_NEXT() % 4, kw = 1 + CV_NEXT() % 4, sh = 1 + CV_NEXT() % 3, sw = 1 + CV_NEXT() % 3;
      ph = CV_NEXT() % (kh / 2 + 1), pw = CV_NEXT() % (kw / 2 + 1), ceil_mode = CV_NEXT() % 2;
      H = 1 + CV_NEXT() % 9, W = 1 + CV_NEXT() % 9, N = 1 + CV_NEXT() % 2, C = 1 + CV_NEXT() % 3;
      if (trial % 100 == 99) H = 32, W = 31, N = 4, C = 16; /* several chunks of planes (ct_parallel_for) */
      if (trial % 4 == 1) { /* 2x2 at stride 2 on wide rows: the four-window vector groups, and their tails */
        kh = kw = sh = sw = 2, ph = 0, pw = CV_NEXT() % 2;
        H = 2 + CV_NEXT() % 8, W = 8 + CV_NEXT() % 33;
      }
      x = ct_empty(CT_DIMS(N, C, H, W), dt);
      for (k = 0; k < x->numel; k++) {
        uint32_t r = CV_NEXT() % 16;
        double v = r < 7 ? vals[r] : (double)(r % 3); /* many ties, signed zeros */
        if (trial % 8 == 1 && v != v) v = 3; /* no NaN: every group takes the vector steps */
        ct_set(x, k, v);
      }
      if (ct__pool_setup("max_pool2d", 2, x, CV_IL(kh, kw), CV_IL(sh, sw), CV_IL(ph, pw),
                         CV_IL(1), ceil_mode, &g, shape) != CT_OK) {
        ct_clear_error();
        continue;
      }
      y = ct_max_pool2d_with_indices(x, CV_L(kh, kw), CV_L(sh, sw), CV_L(ph, pw), CV_L(1), ceil_mode, &idx);
      CHECK(y != NULL && idx != NULL);
      if (!y || !idx) {
        fails++;
        continue;
      }
      ct_keep(idx);
      yr = ct_empty(4, y->sizes, dt), ir = ct_empty(4, y->sizes, CT_I64);
      if (dt == CT_F32)
        ct__maxpool_f32(&g, (const float *)ct_data_ptr(x), (float *)ct_data_ptr(yr), (int64_t *)ct_data_ptr(ir));
      else
        ct__maxpool_f64(&g, (const double *)ct_data_ptr(x), (double *)ct_data_ptr(yr), (int64_t *)ct_data_ptr(ir));
      if (memcmp(ct_data_ptr(y), ct_data_ptr(yr), (size_t)(y->numel * (dt == CT_F32 ? 4 : 8))) != 0 ||
          memcmp(ct_data_ptr(idx), ct_data_ptr(ir), (size_t)(y->numel * 8)) != 0) {
        fails++;
        harness_fail(__FILE__, __LINE__, "trial %d: [%lld,%lld,%lld,%lld] k %lldx%lld s %lldx%lld p %lldx%lld ceil %d differs", trial,
                     (long long)N, (long long)C, (long long)H, (long long)W, (long long)kh, (long long)kw, (long long)sh, (long long)sw,
                     (long long)ph, (long long)pw, (int)ceil_mode);
      }
      ct_release(idx);
#undef CV_NEXT
    }
}

/* im2col's stride-1 path (row spans copied, padding zero-filled; a width of
 * stride 1 in memory) against its general loop (the same input with the width
 * strided): the same convolution and weight gradient, bit for bit, over
 * paddings up to past the input, dilations and groups */
static bool cv_same_bits(ct_tensor *a, ct_tensor *b) {
  ct_tensor *ac = ct_contiguous(a), *bc = ct_contiguous(b);
  return ac && bc && ac->dtype == bc->dtype && ct_same_shape(ac, bc) &&
         memcmp(ct_data_ptr(ac), ct_data_ptr(bc), (size_t)ac->numel * ct_dtype_size((ct_dtype)ac->dtype)) == 0;
}
TEST(conv_im2col_stride1_matches_general) {
  uint32_t s = 999u;
  int trial;
  for (trial = 0; trial < 60; trial++) CT_SCOPE {
#define CV_NEXT() (s = s * 1664525u + 1013904223u, s >> 8)
      int64_t N = 1 + CV_NEXT() % 2, G = 1 + CV_NEXT() % 2, C = G * (1 + CV_NEXT() % 2), O = G * (1 + CV_NEXT() % 3);
      int64_t H = 1 + CV_NEXT() % 7, W = 1 + CV_NEXT() % 7, kh = 1 + CV_NEXT() % 3, kw = 1 + CV_NEXT() % 3;
      int64_t st[2], pd[2], dl[2]; /* (one draw a statement: an initializer list's order is unspecified) */
      st[0] = 1 + CV_NEXT() % 2, st[1] = 1;
      pd[0] = CV_NEXT() % 4, pd[1] = CV_NEXT() % 5;
      dl[0] = 1 + CV_NEXT() % 2, dl[1] = 1 + CV_NEXT() % 3;
      ct_dtype dt = trial % 2 ? CT_F64 : CT_F32;
      ct_tensor *x = cv_rand(CT_DIMS(N, C, H, W), dt, (unsigned)trial + 7), *w = cv_rand(CT_DIMS(O, C / G, kh, kw), dt, (unsigned)trial + 8);
      ct_tensor *xt = ct_transpose(ct_contiguous(ct_transpose(x, 2, 3)), 2, 3), *y, *yt;
#undef CV_NEXT
      if (H + 2 * pd[0] < dl[0] * (kh - 1) + 1 || W + 2 * pd[1] < dl[1] * (kw - 1) + 1) continue; /* output too small */
      y = ct_conv2d(x, w, NULL, 2, st, 2, pd, 2, dl, G), yt = ct_conv2d(xt, w, NULL, 2, st, 2, pd, 2, dl, G);
      CHECK(y && yt && (W == 1 || H == 1 || xt->strides[3] != 1));
      if (!y || !yt) {
        printf("    %s\n", ct_last_error_message());
        continue;
      }
      CHECK(cv_same_bits(y, yt));
      {
        ct_tensor *gy = cv_rand(y->ndim, y->sizes, dt, (unsigned)trial + 9);
        ct_tensor *gw = ct_convolution_backward_weight(gy, x, 4, w->sizes, 2, st, 2, pd, 2, dl, G);
        ct_tensor *gwt = ct_convolution_backward_weight(gy, xt, 4, w->sizes, 2, st, 2, pd, 2, dl, G);
        CHECK(gw && gwt && cv_same_bits(gw, gwt));
      }
    }
}
