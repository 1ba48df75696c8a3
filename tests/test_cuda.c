/* tests/test_cuda.c - the CUDA backend (backends/cuda), in the suite built by
 * `make test-cuda` (tests/main.c with -DCT_TEST_CUDA, linked with
 * build/libctorch_cuda.a). Without a GPU only cuda_without_a_device runs
 * and every other test skips; with one, the op fixture suite, the autograd,
 * views and view-program suites run with their tensors on cuda:0, plus the
 * allocator, copies, pointwise, GEMM and training-loop tests below. */
#include "ctorch_cuda.h"

#define CUDA(i) ct_device_make(CT_DEVICE_CUDA, (i))

static int cuda_ready(void) {
  if (ct_device_interface_get(CT_DEVICE_CUDA) == NULL) {
    harness_skip("the CUDA backend is not registered");
    return 0;
  }
  if (ct_device_count(CT_DEVICE_CUDA) == 0) {
    harness_skip("no CUDA device");
    return 0;
  }
  return 1;
}

/* The backend always loads; without a device every CUDA tensor is a clear error. */
TEST(cuda_without_a_device) {
  CHECK(ct_device_interface_get(CT_DEVICE_CUDA) != NULL);
  CHECK(ct_backend_find("cuda") != NULL && ct_backend_find("cuda")->status == CT_OK);
  if (ct_device_count(CT_DEVICE_CUDA) > 0) {
    harness_skip("a GPU is present (the GPU tests run instead)");
    return;
  }
  CHECK(ct_cuda_device_count() == 0);
  CHECK_ERR(ct_zeros_ex(CT_DIMS(3), CT_F32, CUDA(0)), CT_ERR_INDEX, "'cuda' has 0 devices");
  CT_SCOPE {
    ct_tensor *x = ct_ones(CT_DIMS(3), CT_F32);
    CHECK_ERR(ct_to_device(x, CUDA(0)), CT_ERR_INDEX, "'cuda' has 0 devices");
  }
  CHECK_ERR(ct_set_default_device(CUDA(0)), CT_ERR_INDEX, "'cuda' has 0 devices");
  ct_clear_error();
}

static int cuda_equal(ct_tensor *a, ct_tensor *b, double tol) { /* same shape, values within tol (NaN equal NaN) */
  int64_t i;
  ct_tensor *ca, *cb;
  int ok = 1;
  if (!a || !b || a->numel != b->numel) return 0;
  ca = ct_contiguous(ct_to_device(a, CT_CPU));
  cb = ct_contiguous(ct_to_device(b, CT_CPU));
  if (!ca || !cb) return 0;
  for (i = 0; i < a->numel && ok; i++) {
    double x = ct_get(ca, i), y = ct_get(cb, i);
    if (x != x && y != y) continue;
    if (x == y) continue;
    ok = fabs(x - y) <= tol * (1 + fabs(y));
  }
  return ok;
}

/* The caching allocator: a freed block is reused for the same size and
 * stream without cudaMalloc; blocks split and merge; empty_cache gives the
 * segments back; statistics follow. */
TEST(cuda_allocator_reuse_split_merge) {
  ct_device_stats a, b;
  if (!cuda_ready()) return;
  ct_device_empty_cache(CUDA(0));
  CHECK_OK(ct_device_memory_stats(CUDA(0), &a));
  CT_SCOPE {
    ct_tensor *x = ct_empty_ex(CT_DIMS(1000), CT_F32, CUDA(0), false); /* 4000 B: one 512-rounded block of a 2 MiB segment */
    CHECK(x != NULL);
    CHECK_OK(ct_device_memory_stats(CUDA(0), &b));
    CHECK(b.system_allocs == a.system_allocs + 1 && b.reserved_bytes == a.reserved_bytes + (2 << 20));
    CHECK(b.allocated_bytes == a.allocated_bytes + 4096 && b.allocated_blocks == a.allocated_blocks + 1);
    {
      ct_tensor *y = ct_empty_ex(CT_DIMS(1000), CT_F32, CUDA(0), false); /* split from the same segment */
      CHECK(y != NULL);
      CHECK_OK(ct_device_memory_stats(CUDA(0), &b));
      CHECK(b.system_allocs == a.system_allocs + 1);
      CHECK((char *)y->storage->data == (char *)x->storage->data + 4096);
    }
  }
  CHECK_OK(ct_device_memory_stats(CUDA(0), &b));
  CHECK(b.allocated_bytes == a.allocated_bytes && b.cached_blocks == a.cached_blocks + 1); /* merged back into one free segment */
  CT_SCOPE { /* reused: no cudaMalloc */
    ct_tensor *z = ct_empty_ex(CT_DIMS(200000), CT_F32, CUDA(0), false); /* 800 KB: still the small pool */
    ct_device_stats c;
    CHECK(z != NULL);
    CHECK_OK(ct_device_memory_stats(CUDA(0), &c));
    CHECK(c.system_allocs == a.system_allocs + 1);
  }
  CT_SCOPE { /* large pool: 12 MiB rounds to a 12 MiB segment; 3 MiB gets a 20 MiB segment that later requests split */
    ct_tensor *l = ct_empty_ex(CT_DIMS(3 << 18), CT_F32, CUDA(0), false);
    ct_tensor *m = ct_empty_ex(CT_DIMS(3 << 18), CT_F32, CUDA(0), false);
    ct_device_stats c;
    CHECK(l && m);
    CHECK_OK(ct_device_memory_stats(CUDA(0), &c));
    CHECK(c.system_allocs == a.system_allocs + 2 && c.peak_allocated_bytes >= (int64_t)6 << 20);
  }
  ct_device_empty_cache(CUDA(0));
  CHECK_OK(ct_device_memory_stats(CUDA(0), &b));
  CHECK(b.reserved_bytes == 0 && b.cached_blocks == 0 && b.system_frees >= a.system_frees + 2);
  ct_clear_error();
}

/* record_stream: a block used on a side stream is not reused until that stream's work is done. */
TEST(cuda_allocator_record_stream) {
  ct_stream side;
  ct_device_stats st;
  if (!cuda_ready()) return;
  CHECK_OK(ct_stream_create(CUDA(0), 0, &side));
  {
    ct_tensor *x = ct_ones(CT_DIMS(1 << 20), CT_F32), *g = ct_to_device(x, CUDA(0));
    CHECK(g != NULL);
    CT_STREAM_GUARD(side) { /* queue work on the side stream that reads g */
      ct_tensor *h = ct_mul(g, g);
      CHECK(h != NULL);
      ct_release(h);
    }
    CHECK_OK(ct_record_stream(g, side));
    ct_release(x);
    ct_release(g); /* freed while the side stream may still read it: pending until the side stream passes */
    CHECK_OK(ct_stream_synchronize(side));
    CHECK_OK(ct_device_memory_stats(CUDA(0), &st));
    CHECK(st.pending_blocks == 0); /* the side stream is done: the block is free again */
  }
  CHECK_OK(ct_stream_destroy(side));
  ct_clear_error();
}

/* Out of memory is an error with the sizes, never an abort; the allocator stays usable. */
TEST(cuda_out_of_memory) {
  if (!cuda_ready()) return;
  CHECK_ERR(ct_empty_ex(CT_DIMS((int64_t)1 << 46), CT_F32, CUDA(0), false), CT_ERR_OOM, "out of memory");
  CT_SCOPE {
    ct_tensor *x = ct_ones(CT_DIMS(4), CT_F32), *g = ct_to_device(x, CUDA(0));
    CHECK(g && ct_get(g, 3) == 1);
  }
  ct_clear_error();
}

/* Copies between every pair: CPU <-> CUDA, strided, dtype-changing, pinned non-blocking. */
TEST(cuda_copies) {
  static const float v[6] = {1, 2, 3, 4, 5, 6};
  if (!cuda_ready()) return;
  CT_SCOPE {
    ct_tensor *c = ct_from_array(CT_DIMS(2, 3), CT_F32, v), *g = ct_to_device(c, CUDA(0)), *back, *gt, *pinned, *gg;
    CHECK(g && ct_device_eq(g->device, CUDA(0)) && cuda_equal(g, c, 0));
    gt = ct_contiguous(ct_t(g)); /* a strided read on the device */
    CHECK(gt && cuda_equal(gt, ct_t(c), 0));
    back = ct_to_device_ex(g, CT_CPU, CT_F64, false, false);
    CHECK(back && back->dtype == CT_F64 && ct_get(back, 5) == 6);
    pinned = ct_pin_memory(c);
    CHECK(pinned && ct_is_pinned(pinned));
    gg = ct_to_device_ex(pinned, CUDA(0), CT_DTYPE_NONE, true, false); /* non-blocking from pinned memory */
    CHECK_OK(ct_device_synchronize(CUDA(0)));
    CHECK(gg && cuda_equal(gg, c, 0));
    {
      ct_tensor *d2h = ct_to_device_ex(g, CT_CPU, CT_DTYPE_NONE, true, false); /* lands in pinned memory */
      CHECK_OK(ct_device_synchronize(CUDA(0)));
      CHECK(d2h && ct_is_pinned(d2h) && ct_get(d2h, 4) == 5);
    }
    CHECK_OK(ct_copy_(ct_t(g), ct_from_array(CT_DIMS(3, 2), CT_F32, v))); /* into a strided device view */
    CHECK(ct_get(g, 1) == 3);
  }
  ct_clear_error();
}

/* The reduction engine's ops run through the CUDA reduction loop: outputs
 * made on the device, values equal the CPU's, sort and the derivative
 * helpers staged on the host (index bounds checked there). */
TEST(cuda_reduction_loop) {
  ct_cuda_counters c0, c1;
  if (!cuda_ready()) return;
  ct_cuda_counters_get(&c0);
  CT_SCOPE {
    static const int64_t bad[4] = {0, 9, 1, 2};
    ct_tensor *a = ct_randn(CT_DIMS(4, 6)), *ga = ct_to_device(a, CUDA(0)), *gi = NULL, *ci = NULL;
    int64_t d1 = 1;
    CHECK(cuda_equal(ct_sum_dim(ga, 1, &d1, false), ct_sum_dim(a, 1, &d1, false), 0));
    CHECK(cuda_equal(ct_sum_dim(ct_t(ga), 1, &d1, true), ct_sum_dim(ct_t(a), 1, &d1, true), 0));
    CHECK(cuda_equal(ct_cumsum(ga, 0), ct_cumsum(a, 0), 0));
    CHECK(cuda_equal(ct_max_dim(ga, 1, false, &gi), ct_max_dim(a, 1, false, &ci), 0) && cuda_equal(gi, ci, 0));
    CHECK(cuda_equal(ct_sort(ga, 1, true, &gi), ct_sort(a, 1, true, &ci), 0) && cuda_equal(gi, ci, 0));
    CHECK(ct_device_eq(ct_mean(ga)->device, CUDA(0)));
    CHECK_ERR(ct_rd_gather(ga, 1, ct_to_device(ct_from_array(CT_DIMS(4), CT_I64, bad), CUDA(0)), false), CT_ERR_INDEX,
              "out of bounds");
  }
  ct_cuda_counters_get(&c1);
  CHECK(c1.reduction_native >= c0.reduction_native + 5); /* sum x2, cumsum, max.dim, mean */
  CHECK(c1.reduction_staged >= c0.reduction_staged + 2); /* sort, the gather helper */
  ct_clear_error();
}

/* One reduction-engine op on x over dims (ops of one dim take dims[0]); *idx: its indices, if any. */
enum { RD_T_SUM, RD_T_PROD, RD_T_MEAN, RD_T_AMAX, RD_T_AMIN, RD_T_VAR, RD_T_STD, RD_T_NORM2, RD_T_NORM1, RD_T_NORMINF,
       RD_T_NORM0, RD_T_NORM3, RD_T_LSE, RD_T_ALL, RD_T_ANY, RD_T_NANSUM, RD_T_NANMEAN, RD_T_NNZ, RD_T_ARGMAX, RD_T_ARGMIN,
       RD_T_MAXDIM, RD_T_MINDIM, RD_T_CUMSUM, RD_T_CUMPROD, RD_T_SUM_F64, RD_T_NUM };
static ct_tensor *cuda_rd_apply(int op, ct_tensor *x, int nd, const int64_t *dims, ct_tensor **idx) {
  int64_t d0 = dims[0];
  *idx = NULL;
  switch (op) {
  case RD_T_SUM: return ct_sum_dim(x, nd, dims, false);
  case RD_T_PROD: return ct_prod_dim(x, d0, true);
  case RD_T_MEAN: return ct_mean_dim(x, nd, dims, false);
  case RD_T_AMAX: return ct_amax(x, nd, dims, true);
  case RD_T_AMIN: return ct_amin(x, nd, dims, false);
  case RD_T_VAR: return ct_var_ex(x, nd, dims, ct_int(1), false);
  case RD_T_STD: return ct_std_ex(x, nd, dims, ct_float(0.5), true);
  case RD_T_NORM2: return ct_linalg_vector_norm(x, ct_int(2), nd, dims, false);
  case RD_T_NORM1: return ct_linalg_vector_norm(x, ct_int(1), nd, dims, false);
  case RD_T_NORMINF: return ct_linalg_vector_norm(x, ct_float(INFINITY), nd, dims, false);
  case RD_T_NORM0: return ct_linalg_vector_norm(x, ct_int(0), nd, dims, false);
  case RD_T_NORM3: return ct_linalg_vector_norm(x, ct_float(3), nd, dims, false);
  case RD_T_LSE: return ct_logsumexp(x, nd, dims, false);
  case RD_T_ALL: return ct_all_dim(x, d0, false);
  case RD_T_ANY: return ct_any_dim(x, d0, true);
  case RD_T_NANSUM: return ct_nansum(x, nd, dims, false);
  case RD_T_NANMEAN: return ct_nanmean(x, nd, dims, false);
  case RD_T_NNZ: return ct_count_nonzero_dims(x, nd, dims);
  case RD_T_ARGMAX: return ct_argmax(x, d0, false);
  case RD_T_ARGMIN: return ct_argmin(x, d0, true);
  case RD_T_MAXDIM: return ct_max_dim(x, d0, false, idx);
  case RD_T_MINDIM: return ct_min_dim(x, d0, true, idx);
  case RD_T_CUMSUM: return ct_cumsum(x, d0);
  case RD_T_CUMPROD: return ct_cumprod(x, d0);
  default: return ct_sum_dim_ex(x, nd, dims, false, CT_F64);
  }
}

/* Every native reduction against the CPU loop, over every dtype and the
 * launch shapes (a thread per row, a block per row, rows split into
 * chunks, strided and permuted inputs, several reduced dims), NaNs
 * included: values within the last bits of a double (what a float result
 * rounds to), indices exact, and an error on the CPU an error on CUDA. */
TEST(cuda_reductions_match_cpu) {
  static const ct_dtype dts[8] = {CT_F32, CT_F64, CT_F16, CT_BF16, CT_I64, CT_I32, CT_U8, CT_BOOL};
  static const struct {
    int ndim;
    int64_t sizes[3];
    int nd;
    int64_t dims[2];
    int transpose; /* 1: column-major, 2: laid out as permuted (2, 0, 1) */
  } shapes[] = {
      {2, {50, 7, 0}, 1, {1, 0}, 0},        /* short rows: a thread each */
      {2, {37, 1000, 0}, 1, {1, 0}, 0},     /* a block per row */
      {2, {3, 100000, 0}, 1, {-1, 0}, 0},   /* few long rows: chunks */
      {2, {1000, 300, 0}, 1, {0, 0}, 0},    /* an outer dim: strided rows, chunks */
      {2, {64, 5000, 0}, 1, {0, 0}, 0},     /* an outer dim, short */
      {3, {6, 5, 40}, 2, {0, 2}, 0},        /* two reduced dims apart */
      {1, {200000, 0, 0}, 1, {0, 0}, 0},    /* everything: one row, chunks */
      {2, {300, 50, 0}, 1, {1, 0}, 1},      /* column-major: strided rows */
      {3, {4, 5, 6}, 2, {1, 2}, 2},         /* a permuted input */
  };
  int64_t checked = 0, failed = 0;
  ct_cuda_counters c0, c1;
  size_t si;
  int k, op, nan;
  if (!cuda_ready()) return;
  ct_cuda_counters_get(&c0);
  for (si = 0; si < sizeof shapes / sizeof shapes[0]; si++)
    for (k = 0; k < 8; k++)
      for (nan = 0; nan < 2; nan++) CT_SCOPE {
        ct_dtype dt = dts[k];
        int fl = ct_dtype_is_floating(dt);
        ct_tensor *base, *x, *gx;
        if (nan && !fl) continue;
        base = ct_randn(shapes[si].ndim, shapes[si].sizes);
        if (nan) base = ct_masked_fill(base, ct_gt_scalar(base, ct_float(2.0)), ct_float(NAN));
        x = dt == CT_BOOL ? ct_gt_scalar(base, ct_float(0.3)) : ct_to_dtype(ct_mul_scalar(base, ct_float(fl ? 1 : 10)), dt);
        if (shapes[si].transpose == 1) x = ct_t(ct_contiguous(ct_t(x)));
        if (shapes[si].transpose == 2) {
          static const int64_t perm[3] = {2, 0, 1}, inv[3] = {1, 2, 0};
          x = ct_permute(ct_contiguous(ct_permute(x, 3, perm)), 3, inv);
        }
        gx = ct_to_device(x, CUDA(0));
        for (op = 0; op < RD_T_NUM; op++) {
          ct_tensor *in = x, *gin = gx, *ci = NULL, *gi = NULL, *cr, *gr;
          double tol = dt == CT_F16 || dt == CT_BF16 ? 1e-2 : dt == CT_F32 ? 1e-6 : 1e-9;
          if (op == RD_T_PROD && fl) { /* near 1, so long products stay finite */
            in = ct_add_scalar(ct_mul_scalar(x, ct_float(1e-3)), ct_float(1));
            gin = ct_to_device(in, CUDA(0));
          }
          cr = cuda_rd_apply(op, in, shapes[si].nd, shapes[si].dims, &ci);
          ct_clear_error();
          gr = cuda_rd_apply(op, gin, shapes[si].nd, shapes[si].dims, &gi);
          ct_clear_error();
          checked++;
          if (!cr) {
            if (gr) failed++, fprintf(stderr, "    op %d shape %d %s nan %d: the CPU refuses, CUDA computes\n", op, (int)si, ct_dtype_name(dt), nan);
            continue;
          }
          if (!gr || !ct_device_eq(gr->device, CUDA(0)) || gr->dtype != cr->dtype || !cuda_equal(gr, cr, tol) ||
              (ci && !cuda_equal(gi, ci, 0))) {
            failed++;
            if (failed <= 20)
              fprintf(stderr, "    op %d shape %d %s nan %d: CUDA differs from the CPU%s\n", op, (int)si, ct_dtype_name(dt), nan,
                      gr ? "" : " (no result)");
          }
        }
      }
  ct_cuda_counters_get(&c1);
  CHECK(failed == 0);
  CHECK(checked > 1000);
  CHECK(c1.reduction_native > c0.reduction_native + 1000);
  printf("    cuda reductions: %lld cases against the CPU, %lld differ; %lld native launches, %lld staged\n", (long long)checked,
         (long long)failed, (long long)(c1.reduction_native - c0.reduction_native), (long long)(c1.reduction_staged - c0.reduction_staged));
  ct_clear_error();
}

/* The pointwise engine runs natively: values equal the CPU's, with broadcasting, strides, numbers, dtypes. */
TEST(cuda_pointwise_native) {
  static const ct_dtype dts[6] = {CT_F32, CT_F64, CT_F16, CT_BF16, CT_I64, CT_I32};
  ct_cuda_counters c0, c1;
  int k;
  if (!cuda_ready()) return;
  ct_cuda_counters_get(&c0);
  for (k = 0; k < 6; k++) CT_SCOPE {
    ct_dtype dt = dts[k];
    int fl = ct_dtype_is_floating(dt);
    ct_tensor *a = ct_to_dtype(ct_mul_scalar(ct_randn(CT_DIMS(5, 7)), ct_float(fl ? 3 : 10)), dt);
    ct_tensor *b = ct_to_dtype(ct_mul_scalar(ct_randn(CT_DIMS(7)), ct_float(fl ? 3 : 10)), dt);
    ct_tensor *ga = ct_to_device(a, CUDA(0)), *gb = ct_to_device(b, CUDA(0));
    CHECK(cuda_equal(ct_add_ex(ga, gb, fl ? ct_float(0.5) : ct_int(3)), ct_add_ex(a, b, fl ? ct_float(0.5) : ct_int(3)), 0));
    CHECK(cuda_equal(ct_mul(ct_t(ga), ct_unsqueeze(gb, 1)), ct_mul(ct_t(a), ct_unsqueeze(b, 1)), 0)); /* strided, broadcast */
    CHECK(cuda_equal(ct_maximum(ga, gb), ct_maximum(a, b), 0));
    CHECK(cuda_equal(ct_lt(ga, gb), ct_lt(a, b), 0));
    CHECK(cuda_equal(ct_where(ct_gt(ga, gb), ga, gb), ct_where(ct_gt(a, b), a, b), 0));
    CHECK(cuda_equal(ct_clamp(ga, ct_float(-1), ct_float(2)), ct_clamp(a, ct_float(-1), ct_float(2)), 0));
    CHECK(cuda_equal(ct_mul(ga, ct_scalar_tensor(ct_float(2), dt)), ct_mul(a, ct_scalar_tensor(ct_float(2), dt)), 0)); /* a CPU 0-dim */
    if (fl) {
      CHECK(cuda_equal(ct_div(ga, gb), ct_div(a, b), 0));
      CHECK(cuda_equal(ct_exp(ga), ct_exp(a), dt == CT_F64 ? 1e-15 : 1e-6));
      CHECK(cuda_equal(ct_relu(ga), ct_relu(a), 0));
      CHECK(cuda_equal(ct_sigmoid(ga), ct_sigmoid(a), dt == CT_F64 ? 1e-15 : 1e-6));
    }
  }
  ct_cuda_counters_get(&c1);
  CHECK(c1.pointwise_native > c0.pointwise_native + 40);
  CT_SCOPE { /* integer division by zero is an error, as on the CPU */
    ct_tensor *x = ct_to_device(ct_arange(1, 5, 1, CT_I64), CUDA(0)), *z = ct_zeros_ex(CT_DIMS(4), CT_I64, CUDA(0));
    CHECK_ERR(ct_remainder(x, z), CT_ERR_INVALID, "ZeroDivisionError");
  }
  CT_SCOPE { /* in place keeps the tensor; the version moves */
    ct_tensor *x = ct_to_device(ct_ones(CT_DIMS(3), CT_F32), CUDA(0));
    uint32_t ver = x->storage->version;
    CHECK_OK(ct_add_(x, x));
    CHECK(ct_get(x, 2) == 2 && x->storage->version > ver);
  }
  ct_clear_error();
}

/* Values that exercise conversions: NaN, infinities, out of every integer
 * range, negative (wrap-around into u8), halves (rounding), small. */
static ct_tensor *cuda_tricky_values(void) {
  static double v[42] = {NAN, INFINITY, -INFINITY, 1e10, -1e10, 3e38, -3e38, 1e300, 300.5, -3.5, 2.5, -0.0, 0.0, 1e-40, 65504,
                         65520, 255, 256, -1, -129, 2147483648.0, -2147483649.0, 9.3e18, -9.3e18, 0.1, 1.0 / 3, 7, -7};
  int i;
  for (i = 28; i < 42; i++) v[i] = (i - 35) * 1.75;
  return ct_contiguous(ct_from_blob(v, 2, (const int64_t[]){6, 7}, NULL, CT_F64, NULL, NULL));
}

/* copy_ (to_dtype, contiguous, broadcasting) and fill_ run as CUDA kernels
 * for every pair of dtypes and any strides, with the CPU's values bit for
 * bit (its casts: NaN and out-of-range floats to integers as on x86-64,
 * integers wrapping); nothing is staged on the host. */
TEST(cuda_copy_and_fill_native) {
  static const ct_dtype dts[8] = {CT_F32, CT_F64, CT_F16, CT_BF16, CT_I64, CT_I32, CT_U8, CT_BOOL};
  ct_cuda_counters c0, c1;
  int64_t checked = 0, failed = 0;
  int i, j;
  if (!cuda_ready()) return;
  ct_cuda_counters_get(&c0);
  for (i = 0; i < 8; i++)
    for (j = 0; j < 8; j++) CT_SCOPE {
      ct_tensor *x = ct_to_dtype(cuda_tricky_values(), dts[i]), *gx = ct_to_device(x, CUDA(0));
      ct_tensor *c = ct_empty(CT_DIMS(7, 6), dts[j]), *g = ct_empty_ex(CT_DIMS(7, 6), dts[j], CUDA(0), false);
      ct_tensor *cb = ct_empty(CT_DIMS(3, 6, 7), dts[j]), *gb = ct_empty_ex(CT_DIMS(3, 6, 7), dts[j], CUDA(0), false);
      CHECK_OK(ct_copy_(c, ct_t(x)));
      CHECK_OK(ct_copy_(g, ct_t(gx))); /* transposed source, converted */
      CHECK_OK(ct_copy_(cb, x));
      CHECK_OK(ct_copy_(gb, gx)); /* broadcast */
      checked += 2;
      if (!cuda_equal(g, c, 0) || !cuda_equal(gb, cb, 0)) {
        failed++;
        fprintf(stderr, "    copy_ %s -> %s differs from the CPU\n", ct_dtype_name(dts[i]), ct_dtype_name(dts[j]));
      }
    }
  for (i = 0; i < 8; i++) CT_SCOPE { /* fill_ and full, into strided views too */
    static const double vals[4] = {2.5, -1, 0, 200};
    int k;
    for (k = 0; k < 4; k++) {
      ct_tensor *c = ct_zeros(CT_DIMS(5, 4), dts[i]), *g = ct_zeros_ex(CT_DIMS(5, 4), dts[i], CUDA(0));
      ct_scalar v = ct_dtype_is_floating(dts[i]) ? ct_float(vals[k]) : ct_int((int64_t)vals[k]);
      CHECK_OK(ct_fill_(ct_t(ct_narrow(c, 1, 1, 2)), v));
      CHECK_OK(ct_fill_(ct_t(ct_narrow(g, 1, 1, 2)), v));
      checked++;
      if (!cuda_equal(g, c, 0) || !cuda_equal(ct_full_ex(CT_DIMS(3), v, dts[i], CUDA(0)), ct_full_ex(CT_DIMS(3), v, dts[i], CT_CPU), 0))
        failed++, fprintf(stderr, "    fill_ %s with %g differs from the CPU\n", ct_dtype_name(dts[i]), vals[k]);
    }
  }
  CT_SCOPE { /* a refused value is refused on CUDA too */
    ct_tensor *g = ct_zeros_ex(CT_DIMS(3), CT_I64, CUDA(0)), *c = ct_zeros(CT_DIMS(3), CT_I64);
    ct_status want;
    ct_clear_error();
    want = ct_fill_(c, ct_float(NAN));
    ct_clear_error();
    CHECK(want != CT_OK && ct_fill_(g, ct_float(NAN)) == want);
  }
  ct_cuda_counters_get(&c1);
  CHECK(failed == 0);
  CHECK(c1.pointwise_staged == c0.pointwise_staged);
  CHECK(c1.pointwise_native >= c0.pointwise_native + checked);
  printf("    cuda copy_ / fill_: %lld cases, %lld differ; %lld native launches, %lld staged\n", (long long)checked, (long long)failed,
         (long long)(c1.pointwise_native - c0.pointwise_native), (long long)(c1.pointwise_staged - c0.pointwise_staged));
  ct_clear_error();
}

/* The unary functions with parameters (activations) and the rest of the
 * native unary table, every floating dtype, against the CPU (libm's last
 * bits may differ in double; f32 and below round the same almost always). */
static ct_tensor *cuda_unary_apply(int k, ct_tensor *x) {
  switch (k) {
  case 0: return ct_asin(ct_mul_scalar(x, ct_float(0.3)));
  case 1: return ct_acos(ct_mul_scalar(x, ct_float(0.3)));
  case 2: return ct_atan(x);
  case 3: return ct_sinh(x);
  case 4: return ct_cosh(x);
  case 5: return ct_asinh(x);
  case 6: return ct_acosh(ct_add_scalar(ct_abs(x), ct_float(1)));
  case 7: return ct_atanh(ct_mul_scalar(x, ct_float(0.3)));
  case 8: return ct_log10(ct_abs(x));
  case 9: return ct_erfc(x);
  case 10: return ct_lgamma(x);
  case 11: return ct_frac(x);
  case 12: return ct_deg2rad(x);
  case 13: return ct_rad2deg(x);
  case 14: return ct_sinc(x);
  case 15: return ct_hardswish(x);
  case 16: return ct_hardsigmoid(x);
  case 17: return ct_log_sigmoid(x);
  case 18: return ct_isnan(x);
  case 19: return ct_isinf(x);
  case 20: return ct_isfinite(x);
  case 21: return ct_isposinf(x);
  case 22: return ct_isneginf(x);
  case 23: return ct_hardtanh(x, ct_float(-0.5), ct_float(1.25));
  case 24: return ct_leaky_relu(x, ct_float(0.02));
  case 25: return ct_elu(x, ct_float(1.5), ct_float(0.75), ct_float(2));
  case 26: return ct_gelu(x);
  case 27: return ct_gelu_ex(x, "tanh");
  case 28: return ct_softplus(x, ct_float(2), ct_float(3));
  case 29: return ct_hardshrink(x, ct_float(0.5));
  case 30: return ct_softshrink(x, ct_float(0.5));
  case 31: return ct_threshold(x, ct_float(0.1), ct_float(-2));
  default: return NULL;
  }
}
TEST(cuda_unary_functions_native) {
  static const ct_dtype dts[4] = {CT_F32, CT_F64, CT_F16, CT_BF16};
  ct_cuda_counters c0, c1;
  int64_t checked = 0, failed = 0;
  int i, k;
  if (!cuda_ready()) return;
  for (i = 0; i < 4; i++) CT_SCOPE {
    ct_tensor *base = ct_masked_fill(ct_mul_scalar(ct_randn(CT_DIMS(40, 33)), ct_float(3)),
                                     ct_gt_scalar(ct_randn(CT_DIMS(40, 33)), ct_float(2.5)), ct_float(NAN));
    ct_tensor *x = ct_t(ct_to_dtype(base, dts[i])), *gx = ct_to_device(x, CUDA(0));
    double tol = dts[i] == CT_F64 ? 1e-13 : dts[i] == CT_F32 ? 1e-6 : 1e-2;
    ct_cuda_counters_get(&c0);
    for (k = 0; k < 32; k++) {
      ct_tensor *c = cuda_unary_apply(k, x), *g = cuda_unary_apply(k, gx);
      checked++;
      if (!c || !g || c->dtype != g->dtype || !cuda_equal(g, c, tol))
        failed++, fprintf(stderr, "    unary function %d on %s differs from the CPU\n", k, ct_dtype_name(dts[i]));
    }
    ct_cuda_counters_get(&c1);
    CHECK(c1.pointwise_staged == c0.pointwise_staged);
  }
  CT_SCOPE { /* integer forms: hardtanh and threshold keep the dtype */
    ct_tensor *x = ct_to_dtype(ct_mul_scalar(ct_randn(CT_DIMS(50)), ct_float(10)), CT_I32), *gx = ct_to_device(x, CUDA(0));
    CHECK(cuda_equal(ct_hardtanh(gx, ct_int(-3), ct_int(4)), ct_hardtanh(x, ct_int(-3), ct_int(4)), 0));
    CHECK(cuda_equal(ct_threshold(gx, ct_int(1), ct_int(-9)), ct_threshold(x, ct_int(1), ct_int(-9)), 0));
  }
  CHECK(failed == 0);
  printf("    cuda unary functions: %lld cases, %lld differ\n", (long long)checked, (long long)failed);
  ct_clear_error();
}

/* softmax and log_softmax run as CUDA kernels (the reduction engine's
 * scans): a thread per row (short or strided rows) and a block per long
 * contiguous row; dtype= casts; NaN and -inf rows as on the CPU. */
TEST(cuda_softmax_native) {
  static const ct_dtype dts[4] = {CT_F32, CT_F64, CT_F16, CT_BF16};
  static const struct {
    int ndim;
    int64_t sizes[3];
    int64_t dim;
  } shapes[] = {{2, {64, 10, 0}, 1}, {2, {8, 5000, 0}, -1}, {3, {4, 30, 7}, 1}, {2, {300, 40, 0}, 0}, {1, {1, 0, 0}, 0}, {3, {2, 0, 3}, 2}};
  ct_cuda_counters c0, c1;
  int64_t checked = 0, failed = 0;
  size_t si;
  int i, lg;
  if (!cuda_ready()) return;
  ct_cuda_counters_get(&c0);
  for (si = 0; si < sizeof shapes / sizeof shapes[0]; si++)
    for (i = 0; i < 4; i++) CT_SCOPE {
      ct_tensor *base = ct_mul_scalar(ct_randn(shapes[si].ndim, shapes[si].sizes), ct_float(4)), *x, *gx;
      double tol = dts[i] == CT_F64 ? 1e-12 : dts[i] == CT_F32 ? 1e-6 : 1e-2;
      if (base->numel > 20) { /* a NaN in one row, a row of -inf in another */
        ct_tensor *flat = ct_reshape(base, CT_DIMS(-1));
        CHECK_OK(ct_fill_(ct_narrow(flat, 0, 3, 1), ct_float(NAN)));
      }
      x = ct_to_dtype(base, dts[i]);
      gx = ct_to_device(x, CUDA(0));
      for (lg = 0; lg < 2; lg++) {
        ct_tensor *c = lg ? ct_log_softmax(x, shapes[si].dim, CT_DTYPE_NONE) : ct_softmax(x, shapes[si].dim, CT_DTYPE_NONE);
        ct_tensor *g = lg ? ct_log_softmax(gx, shapes[si].dim, CT_DTYPE_NONE) : ct_softmax(gx, shapes[si].dim, CT_DTYPE_NONE);
        ct_tensor *c64 = ct_softmax(x, shapes[si].dim, CT_F64), *g64 = ct_softmax(gx, shapes[si].dim, CT_F64);
        checked += x->numel ? 2 : 0; /* (an empty tensor launches nothing) */
        if (!c || !g || !ct_device_eq(g->device, CUDA(0)) || g->dtype != c->dtype || !cuda_equal(g, c, tol) || !cuda_equal(g64, c64, 1e-12))
          failed++, fprintf(stderr, "    %s shape %d %s differs from the CPU\n", lg ? "log_softmax" : "softmax", (int)si, ct_dtype_name(dts[i]));
      }
    }
  CT_SCOPE { /* out= and the gradient */
    ct_tensor *x = ct_to_device(ct_randn(CT_DIMS(6, 9)), CUDA(0));
    ct_tensor *o = ct_empty_ex(CT_DIMS(1), CT_F32, CUDA(0), false), *xc, *gc;
    CHECK_OK(ct_softmax_out(o, x, 1, CT_DTYPE_NONE));
    CHECK(cuda_equal(o, ct_softmax(ct_to_device(x, CT_CPU), 1, CT_DTYPE_NONE), 1e-6));
    xc = ct_to_device(x, CT_CPU);
    CHECK_OK(ct_set_requires_grad(x, true));
    CHECK_OK(ct_set_requires_grad(xc, true));
    CHECK_OK(ct_backward(ct_sum(ct_mul(ct_log_softmax(x, 1, CT_DTYPE_NONE), ct_to_device(ct_arange(0, 9, 1, CT_F32), CUDA(0))))));
    CHECK_OK(ct_backward(ct_sum(ct_mul(ct_log_softmax(xc, 1, CT_DTYPE_NONE), ct_arange(0, 9, 1, CT_F32)))));
    gc = ct_grad(xc);
    CHECK(cuda_equal(ct_grad(x), gc, 1e-5));
  }
  ct_cuda_counters_get(&c1);
  CHECK(failed == 0);
  CHECK(c1.reduction_native >= c0.reduction_native + checked);
  printf("    cuda softmax: %lld cases, %lld differ; %lld native launches, %lld staged\n", (long long)checked, (long long)failed,
         (long long)(c1.reduction_native - c0.reduction_native), (long long)(c1.reduction_staged - c0.reduction_staged));
  ct_clear_error();
}

/* gather, scatter, scatter_add, index_select, index_add, index_copy and
 * embedding run as CUDA kernels (the index loop) for every dtype, with the
 * CPU's values (sums of duplicate indices within rounding: atomics add in
 * any order) and the CPU's error for an index out of range. */
TEST(cuda_index_ops_native) {
  static const ct_dtype dts[8] = {CT_F32, CT_F64, CT_F16, CT_BF16, CT_I64, CT_I32, CT_U8, CT_BOOL};
  ct_cuda_counters c0, c1;
  int64_t checked = 0, failed = 0;
  int i;
  if (!cuda_ready()) return;
  ct_cuda_counters_get(&c0);
  for (i = 0; i < 8; i++) CT_SCOPE {
    ct_dtype dt = dts[i];
    double tol = dt == CT_F16 || dt == CT_BF16 ? 1e-2 : dt == CT_F32 ? 1e-6 : 1e-12;
    ct_tensor *base = ct_mul_scalar(ct_randn(CT_DIMS(7, 9)), ct_float(5));
    ct_tensor *x = dt == CT_BOOL ? ct_gt_scalar(base, ct_float(0)) : ct_to_dtype(base, dt), *gx = ct_to_device(x, CUDA(0));
    ct_tensor *idx = ct_remainder_scalar(ct_abs(ct_to_dtype(ct_mul_scalar(ct_randn(CT_DIMS(7, 12)), ct_float(40)), CT_I64)), ct_int(9));
    ct_tensor *gidx = ct_to_device(idx, CUDA(0));
    ct_tensor *rows = ct_remainder_scalar(ct_abs(ct_to_dtype(ct_mul_scalar(ct_randn(CT_DIMS(15)), ct_float(40)), CT_I64)), ct_int(7));
    ct_tensor *rows32 = ct_to_dtype(rows, CT_I32), *grows = ct_to_device(rows, CUDA(0)), *grows32 = ct_to_device(rows32, CUDA(0));
    ct_tensor *src = dt == CT_BOOL ? ct_lt_scalar(ct_randn(CT_DIMS(7, 12)), ct_float(0)) : ct_to_dtype(ct_randn(CT_DIMS(7, 12)), dt);
    ct_tensor *gsrc = ct_to_device(src, CUDA(0));
    ct_tensor *src2 = ct_t(ct_contiguous(ct_t(ct_narrow(ct_cat(2, (ct_tensor *[]){src, src}, 1), 1, 0, 9)))); /* [7, 9], column-major */
    ct_tensor *rsrc = ct_narrow(ct_cat(2, (ct_tensor *[]){src2, src2}, 0), 0, 0, 15), *grsrc = ct_to_device(rsrc, CUDA(0));
    ct_tensor *gsrc2 = ct_to_device(src2, CUDA(0));
    ct_tensor *cr[9], *gr[9];
    int k;
    cr[0] = ct_gather(x, 1, idx), gr[0] = ct_gather(gx, 1, gidx);
    cr[1] = ct_gather(ct_t(x), 0, ct_t(ct_narrow(idx, 1, 0, 7))), gr[1] = ct_gather(ct_t(gx), 0, ct_t(ct_narrow(gidx, 1, 0, 7)));
    cr[2] = ct_scatter_add(x, 1, ct_narrow(idx, 1, 0, 9), src2), gr[2] = ct_scatter_add(gx, 1, ct_narrow(gidx, 1, 0, 9), gsrc2);
    cr[3] = ct_index_select(x, 0, rows), gr[3] = ct_index_select(gx, 0, grows);
    cr[4] = ct_index_select(ct_t(x), 1, rows32), gr[4] = ct_index_select(ct_t(gx), 1, grows32);
    cr[5] = ct_index_add(x, 0, rows, rsrc), gr[5] = ct_index_add(gx, 0, grows, grsrc);
    cr[6] = ct_index_copy(x, 0, ct_narrow(rows, 0, 0, 1), ct_narrow(rsrc, 0, 0, 1));
    gr[6] = ct_index_copy(gx, 0, ct_narrow(grows, 0, 0, 1), ct_narrow(grsrc, 0, 0, 1));
    cr[7] = ct_scatter_value(x, 1, idx, ct_int(1)), gr[7] = ct_scatter_value(gx, 1, gidx, ct_int(1));
    cr[8] = dt == CT_F32 ? ct_embedding(x, ct_reshape(rows, CT_DIMS(3, 5))) : ct_index_select(x, 1, rows32);
    gr[8] = dt == CT_F32 ? ct_embedding(gx, ct_reshape(grows, CT_DIMS(3, 5))) : ct_index_select(gx, 1, grows32);
    (void)gsrc;
    for (k = 0; k < 9; k++) {
      checked++;
      if (!cr[k] && !gr[k]) { /* refused on both (a dtype the op does not take) */
        checked--;
        ct_clear_error();
        continue;
      }
      if (!cr[k] || !gr[k] || !ct_device_eq(gr[k]->device, CUDA(0)) || !cuda_equal(gr[k], cr[k], k == 2 || k == 5 ? tol : 0))
        failed++, fprintf(stderr, "    index op %d on %s differs from the CPU%s%s\n", k, ct_dtype_name(dt), gr[k] ? "" : ": ",
                          gr[k] ? "" : ct_last_error_message());
      ct_clear_error();
    }
  }
  CT_SCOPE { /* out of range: the CPU's errors */
    static const int64_t bad[3] = {0, 9, -1};
    ct_tensor *gx = ct_to_device(ct_ones(CT_DIMS(3, 9), CT_F32), CUDA(0)), *b = ct_to_device(ct_from_array(CT_DIMS(3), CT_I64, bad), CUDA(0));
    CHECK_ERR(ct_index_select(gx, 1, b), CT_ERR_INDEX, "index out of range in self (index 9, size 9)");
    CHECK_ERR(ct_gather(gx, 1, ct_reshape(b, CT_DIMS(3, 1))), CT_ERR_INDEX, "index 9 is out of bounds for dimension 1 with size 9");
    CHECK_ERR(ct_embedding(gx, ct_narrow(b, 0, 2, 1)), CT_ERR_INDEX, "index out of range in self (index -1, size 3)");
  }
  ct_cuda_counters_get(&c1);
  CHECK(failed == 0);
  CHECK(c1.index_native >= c0.index_native + checked);
  printf("    cuda index ops: %lld cases, %lld differ; %lld native launches\n", (long long)checked, (long long)failed,
         (long long)(c1.index_native - c0.index_native));
  ct_clear_error();
}

/* cuBLAS GEMMs against the CPU: transposed operands, batches, addmm's broadcast bias, out=. */
TEST(cuda_gemm_matches_cpu) {
  ct_cuda_counters c0, c1;
  int k;
  if (!cuda_ready()) return;
  ct_cuda_counters_get(&c0);
  for (k = 0; k < 3; k++) CT_SCOPE {
    ct_dtype dt = k == 0 ? CT_F32 : k == 1 ? CT_F64 : CT_BF16;
    double tol = k == 0 ? 1e-5 : k == 1 ? 1e-12 : 2e-2;
    ct_tensor *a = ct_to_dtype(ct_randn(CT_DIMS(33, 17)), dt), *b = ct_to_dtype(ct_randn(CT_DIMS(17, 9)), dt);
    ct_tensor *bias = ct_to_dtype(ct_randn(CT_DIMS(9)), dt), *bt = ct_to_dtype(ct_randn(CT_DIMS(9, 17)), dt);
    ct_tensor *ba = ct_to_dtype(ct_randn(CT_DIMS(4, 5, 6)), dt), *bb = ct_to_dtype(ct_randn(CT_DIMS(4, 6, 3)), dt);
    ct_tensor *ga = ct_to_device(a, CUDA(0)), *gb = ct_to_device(b, CUDA(0)), *gbias = ct_to_device(bias, CUDA(0));
    ct_tensor *gbt = ct_to_device(bt, CUDA(0)), *gba = ct_to_device(ba, CUDA(0)), *gbb = ct_to_device(bb, CUDA(0));
    ct_tensor *o = ct_empty_ex(CT_DIMS(33, 9), dt, CUDA(0), false);
    CHECK(cuda_equal(ct_mm(ga, gb), ct_mm(a, b), tol));
    CHECK(cuda_equal(ct_mm(ga, ct_t(gbt)), ct_mm(a, ct_t(bt)), tol)); /* nn.Linear's layout */
    CHECK(cuda_equal(ct_mm(ct_t(ct_contiguous(ct_t(ga))), gb), ct_mm(a, b), tol)); /* a column-major operand */
    CHECK(cuda_equal(ct_addmm_ex(gbias, ga, gb, ct_float(0.5), ct_float(2)), ct_addmm_ex(bias, a, b, ct_float(0.5), ct_float(2)), tol));
    CHECK(cuda_equal(ct_linear(ga, gbt, gbias), ct_linear(a, bt, bias), tol));
    CHECK(cuda_equal(ct_bmm(gba, gbb), ct_bmm(ba, bb), tol));
    CHECK(cuda_equal(ct_matmul(gba, ct_transpose(ct_transpose(gbb, 1, 2), 1, 2)), ct_matmul(ba, bb), tol));
    CHECK_OK(ct_mm_out(o, ga, gb));
    CHECK(cuda_equal(o, ct_mm(a, b), tol));
  }
  ct_cuda_counters_get(&c1);
  CHECK(c1.gemm_native >= c0.gemm_native + 18);
  ct_clear_error();
}

/* A steady-state training loop (forward, MSE, backward, SGD) makes no cudaMalloc calls. */
TEST(cuda_training_loop_no_cudamalloc) {
  ct_device_stats s0, s1;
  int step;
  double first = 0, last = 0;
  if (!cuda_ready()) return;
  CT_SCOPE {
    ct_tensor *x = ct_randn_ex(CT_DIMS(64, 32), NULL, CT_F32, CUDA(0)), *y = ct_randn_ex(CT_DIMS(64, 8), NULL, CT_F32, CUDA(0));
    ct_tensor *w1 = ct_mul_scalar(ct_randn_ex(CT_DIMS(64, 32), NULL, CT_F32, CUDA(0)), ct_float(0.1));
    ct_tensor *w2 = ct_mul_scalar(ct_randn_ex(CT_DIMS(8, 64), NULL, CT_F32, CUDA(0)), ct_float(0.1));
    ct_tensor *b1 = ct_zeros_ex(CT_DIMS(64), CT_F32, CUDA(0)), *b2 = ct_zeros_ex(CT_DIMS(8), CT_F32, CUDA(0));
    ct_tensor *params[4];
    params[0] = w1, params[1] = b1, params[2] = w2, params[3] = b2;
    for (step = 0; step < 4; step++) ct_set_requires_grad(params[step], true);
    for (step = 0; step < 30; step++) {
      int p;
      if (step == 10) CHECK_OK(ct_device_memory_stats(CUDA(0), &s0));
      CT_SCOPE {
        ct_tensor *loss = ct_mse_loss(ct_linear(ct_relu(ct_linear(x, w1, b1)), w2, b2), y, 1);
        CHECK_OK(ct_backward(loss));
        if (step == 0) CHECK_OK(ct_item(loss, &first));
        CHECK_OK(ct_item(loss, &last));
        CT_NO_GRAD {
          for (p = 0; p < 4; p++) {
            CHECK_OK(ct_add_ex_(params[p], ct_grad(params[p]), ct_float(-0.1)));
            CHECK_OK(ct_fill_(ct_grad(params[p]), ct_float(0)));
          }
        }
      }
    }
    CHECK_OK(ct_device_memory_stats(CUDA(0), &s1));
    CHECK(s1.system_allocs == s0.system_allocs);
    CHECK(last < first);
    for (step = 0; step < 4; step++) CHECK(ct_grad(params[step]) && ct_device_eq(ct_grad(params[step])->device, CUDA(0)));
  }
  ct_clear_error();
}

/* Random numbers on the device equal the CPU's for the same seed (Philox, offsets). */
/* Philox on the GPU: the CPU's numbers for the same seed and offset (rand,
 * randn, randint, random_, bernoulli with p and with probabilities,
 * dropout's mask and output), computed by the random loop's kernel; every
 * dtype; generators advance alike. */
static ct_tensor *cuda_rn_apply(int k, ct_device dev, ct_dtype dt) {
  ct_tensor *t = ct_empty_ex(CT_DIMS(37, 29), dt, dev, false), *m = NULL, *o;
  switch (k) {
  case 0: return ct_uniform_(t, -2, 3) == CT_OK ? t : NULL;
  case 1: return ct_normal_(t, 0.5, 2) == CT_OK ? t : NULL;
  case 2: return ct_random_from_(t, -5, 100) == CT_OK ? t : NULL;
  case 3: return ct_bernoulli_float_(t, 0.3) == CT_OK ? t : NULL;
  case 4: /* probabilities that draw nothing from a generator */
    return ct_bernoulli(ct_to_device(
        ct_to_dtype(ct_reshape(ct_remainder_scalar(ct_mul_scalar(ct_arange(0, 37 * 29, 1, CT_F64), ct_float(0.618)), ct_float(1)), CT_DIMS(37, 29)), dt),
        dev));
  case 5: return ct_rand_like(t);
  case 6: return ct_randn_like(t);
  default:
    o = ct_native_dropout_ex(ct_to_device(ct_ones(CT_DIMS(37, 29), dt), dev), 0.25, true, NULL, &m);
    return o && m ? ct_cat(2, (ct_tensor *[]){ct_to_dtype(m, CT_F64), ct_to_dtype(o, CT_F64)}, 0) : NULL;
  }
}
TEST(cuda_random_matches_cpu) {
  static const ct_dtype dts[8] = {CT_F32, CT_F64, CT_F16, CT_BF16, CT_I64, CT_I32, CT_U8, CT_BOOL};
  ct_cuda_counters c0, c1;
  int64_t checked = 0, failed = 0;
  int i, k;
  if (!cuda_ready()) return;
  ct_cuda_counters_get(&c0);
  for (i = 0; i < 8; i++)
    for (k = 0; k < 8; k++) CT_SCOPE {
      ct_tensor *c, *g;
      uint64_t cpu_offset;
      ct_manual_seed_all(1234 + (uint64_t)k);
      c = cuda_rn_apply(k, CT_CPU, dts[i]);
      cpu_offset = ct_generator_offset(ct_default_generator(CT_CPU));
      ct_clear_error();
      ct_manual_seed_all(1234 + (uint64_t)k);
      g = cuda_rn_apply(k, CUDA(0), dts[i]);
      ct_clear_error();
      if (!c && !g) continue; /* a dtype the op refuses, on both */
      checked++;
      if (!c || !g || !cuda_equal(g, c, dts[i] == CT_F64 && (k == 1 || k == 6) ? 1e-15 : 0) ||
          ct_generator_offset(ct_default_generator(CUDA(0))) != cpu_offset)
        failed++, fprintf(stderr, "    random op %d on %s: CUDA differs from the CPU\n", k, ct_dtype_name(dts[i]));
    }
  ct_cuda_counters_get(&c1);
  CHECK(failed == 0);
  CHECK(checked > 30);
  CHECK(c1.random_native >= c0.random_native + checked);
  printf("    cuda random: %lld cases, %lld differ; %lld native launches\n", (long long)checked, (long long)failed,
         (long long)(c1.random_native - c0.random_native));
  ct_clear_error();
}

/* The whole op fixture suite with every input on cuda:0. */
static void cuda_opcases(const char *area, const char *const *const *cases) {
  if (!cuda_ready()) return;
  opc_device = CUDA(0);
  opc_run_area(area, cases);
  opc_device = CT_CPU;
}
TEST(cuda_opcases_unary) { cuda_opcases("unary", cases_unary); }
TEST(cuda_opcases_binary) { cuda_opcases("binary", cases_binary); }
TEST(cuda_opcases_reduce) { cuda_opcases("reduce", cases_reduce); }
TEST(cuda_opcases_linalg) { cuda_opcases("linalg", cases_linalg); }
TEST(cuda_opcases_shape) { cuda_opcases("shape", cases_shape); }
TEST(cuda_opcases_nn) { cuda_opcases("nn", cases_nn); }
TEST(cuda_opcases_conv) { cuda_opcases("conv", cases_conv); }
TEST(cuda_opcases_random) { cuda_opcases("random", cases_random); }
TEST(cuda_opcases_hardening) { cuda_opcases("hardening", cases_hardening); }

/* Autograd (double backward included), views and in-place, the 400 view programs, with cuda:0 as the default device. */
TEST(cuda_autograd_suite) {
  if (cuda_ready()) dev_run_file_on("test_autograd.c", CUDA(0));
}
TEST(cuda_views_inplace_suite) {
  if (cuda_ready()) dev_run_file_on("test_views_inplace.c", CUDA(0));
}
TEST(cuda_view_programs_suite) {
  if (cuda_ready()) dev_run_file_on("test_view_programs.c", CUDA(0));
}
