/* ctorch/ops/matrix.h - reference kernels of torch.linalg: cross, det, slogdet, inv, solve, cholesky,
 * matrix_exp, matrix_power, qr, svd / svdvals, eigvalsh / eigh, pinv, lstsq, matrix_norm, norm.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * The ops are declared in gen/ops/matrix.spec and their derivatives in
 * gen/derivatives/matrix.spec; the frontends are generated (docs/ops.md).
 *
 * Matrices are batched over the leading dims. Each matrix is read into a
 * row-major double buffer, factored there, and the result written back in
 * the tensor's dtype: float32 inputs are computed in double (as accurate as
 * PyTorch's float32 LAPACK, or more), float64 in double. Only float32 and
 * float64 are taken, as PyTorch's CPU (integers, bool and half are refused
 * with PyTorch's messages); cross takes every dtype but half and bool.
 *
 * The algorithms (unblocked, written for clarity):
 *   LU with partial pivoting (ct__mx_lu: the row of largest |value| in the
 *     column, the first on ties, as LAPACK's getrf), which keeps going past
 *     an exactly zero pivot and reports the first one as `info` (1-based).
 *     Like PyTorch 1.13, a contiguous A is factored as A^T (then solved with
 *     the transposed factors): which pivot comes out zero, and so `info` and
 *     the values an _ex form returns for a singular matrix, depend on that.
 *     det, slogdet, inv and solve use it; matrix_exp's Padé solve too.
 *   Cholesky: left-looking, column by column (LAPACK's potf2 order).
 *   QR: Householder reflectors as LAPACK's geqrf / orgqr (so PyTorch's signs).
 *   matrix_exp: scaling and squaring with the [13/13] Padé approximant.
 *   Singular values: one-sided Jacobi; symmetric eigenvalues: cyclic Jacobi.
 *
 * Derivatives: the formulas use ct ops, so they are differentiable again,
 * and never form an inverse (they solve with A^T). linalg_inv, linalg_solve,
 * linalg_cholesky and linalg_slogdet are CompositeImplicitAutograd over
 * linalg_inv_ex, linalg_solve_ex, linalg_cholesky_ex and _linalg_logabsdet
 * (ctorch's own: logabsdet first, as ctorch's autograd differentiates the
 * first output). linalg_eigh is two ops, linalg_eigvalsh and
 * _linalg_eigh_vectors (ctorch's own), each with its formula: a gradient is
 * linear in the outputs' gradients, so the two nodes add up to eigh's;
 * linalg_qr likewise (_linalg_qr_Q, _linalg_qr_R), and linalg_svd
 * (_linalg_svd_U, linalg_svdvals, _linalg_svd_Vh). Each such op recomputes
 * the factorization: reference kernels, written for clarity.
 * Eigenvectors and singular vectors have no unique sign: ctorch makes each
 * one's largest |component| positive (PyTorch's are LAPACK's, unspecified).
 * The gradient of det or slogdet at a singular matrix fails with the
 * solver's error (PyTorch 1.13 returns inf/NaN there).
 */
#ifndef CT_OPS_MATRIX_H
#define CT_OPS_MATRIX_H

#include "../ops.h"

#endif /* CT_OPS_MATRIX_H */

/* ==== implementation ==== */
#if defined(CT__IMPLEMENT) && !defined(CT__OPS_MATRIX_IMPL)
#define CT__OPS_MATRIX_IMPL
#include <ctype.h>
#include <math.h>
CT_EXTERN_C_BEGIN

/* ---- checks, with PyTorch's messages ---- */
static ct_status ct__mx_check_float(const char *op, const ct_tensor *t, int allow_low_precision) {
  ct_dtype d = (ct_dtype)t->dtype;
  if (d != CT_F32 && d != CT_F64 && d != CT_F16 && d != CT_BF16)
    return ct_fail(CT_ERR_DTYPE, op, "Expected a floating point or complex tensor as input. Got %s", ct__dtype_torch_name(d));
  if (d == CT_F16 || d == CT_BF16)
    return allow_low_precision ? ct_fail(CT_ERR_DTYPE, op, "\"lu_cpu\" not implemented for '%s'", ct__dtype_torch_name(d))
                               : ct_fail(CT_ERR_DTYPE, op, "Low precision dtypes not supported. Got %s", ct__dtype_torch_name(d));
  return CT_OK;
}
static ct_status ct__mx_check_matrix(const char *op, const ct_tensor *t, const char *name) {
  if (t->ndim < 2) return ct_fail(CT_ERR_RANK, op, "The input tensor %s must have at least 2 dimensions.", name);
  return CT_OK;
}
static ct_status ct__mx_check_square(const char *op, const ct_tensor *t, const char *name) {
  if (ct__mx_check_matrix(op, t, name) != CT_OK) return ct_last_error();
  if (t->sizes[t->ndim - 1] != t->sizes[t->ndim - 2])
    return ct_fail(CT_ERR_SHAPE, op, "%s must be batches of square matrices, but they are %lld by %lld matrices", name,
                   (long long)t->sizes[t->ndim - 2], (long long)t->sizes[t->ndim - 1]);
  return CT_OK;
}

/* the transpose of each matrix (a view) */
static ct_tensor *ct__mx_mT(ct_tensor *t) { return ct_transpose(t, -2, -1); }

/* ---- batches of matrices ----
 * A tensor's batch dims are its leading `nb` dims, aligned right against a
 * (broadcast) batch shape; a size-1 dim repeats. */
static int64_t ct__mx_batch_offset(const ct_tensor *t, int tnb, int nb, const int64_t *bshape, int64_t i) {
  int64_t off = 0;
  int d;
  for (d = nb - 1; d >= 0; d--) {
    int64_t idx = i % bshape[d];
    int td = d - (nb - tnb);
    i /= bshape[d];
    if (td >= 0 && t->sizes[td] != 1) off += idx * t->strides[td];
  }
  return off;
}
static int64_t ct__mx_prod(int n, const int64_t *s) {
  int64_t p = 1;
  int i;
  for (i = 0; i < n; i++) p *= s[i];
  return p;
}
/* m x n values at element offset `off`, row stride rs and column stride cs, to or from a row-major double buffer */
static void ct__mx_load(const ct_tensor *t, int64_t off, int64_t rs, int64_t cs, int64_t m, int64_t n, double *dst) {
  int64_t i, j;
  if (t->dtype == CT_F64) {
    const double *p = (const double *)ct_data_ptr(t) + off;
    for (i = 0; i < m; i++)
      for (j = 0; j < n; j++) dst[i * n + j] = p[i * rs + j * cs];
  } else {
    const float *p = (const float *)ct_data_ptr(t) + off;
    for (i = 0; i < m; i++)
      for (j = 0; j < n; j++) dst[i * n + j] = (double)p[i * rs + j * cs];
  }
}
static void ct__mx_store(ct_tensor *t, int64_t off, int64_t rs, int64_t cs, int64_t m, int64_t n, const double *src) {
  int64_t i, j;
  if (t->dtype == CT_F64) {
    double *p = (double *)ct_data_ptr(t) + off;
    for (i = 0; i < m; i++)
      for (j = 0; j < n; j++) p[i * rs + j * cs] = src[i * n + j];
  } else {
    float *p = (float *)ct_data_ptr(t) + off;
    for (i = 0; i < m; i++)
      for (j = 0; j < n; j++) p[i * rs + j * cs] = (float)src[i * n + j];
  }
}
/* A work buffer of `count` doubles; the count is computed in double by the callers, so a huge one
 * fails here instead of wrapping around in int64 */
static double *ct__mx_alloc(const char *op, double count) {
  double *p;
  if (!(count >= 0) || count > (double)(SIZE_MAX / sizeof(double) - 1) || count > 9.0e15)
    return ct_fail(CT_ERR_OOM, op, "a work buffer of %.0f values is too large", count), (double *)NULL;
  p = (double *)ct__workspace((size_t)(count > 0 ? count : 1) * sizeof(double));
  if (!p) ct_fail(CT_ERR_OOM, op, "out of memory for a work buffer of %.0f values", count);
  return p;
}

/* ---- LU with partial pivoting (in place, row-major n x n) ----
 * P a = L U: L unit lower (below the diagonal), U upper; piv[k] is the row
 * swapped with row k at step k. Returns the first k (1-based) with U[k][k]
 * exactly zero, 0 if none; such a column is left unscaled, as LAPACK. */
static int64_t ct__mx_lu(int64_t n, double *a, int64_t *piv) {
  int64_t info = 0, i, j, k, p;
  for (k = 0; k < n; k++) {
    double best = fabs(a[k * n + k]);
    p = k;
    for (i = k + 1; i < n; i++)
      if (fabs(a[i * n + k]) > best) best = fabs(a[i * n + k]), p = i;
    piv[k] = p;
    if (a[p * n + k] != 0) {
      if (p != k)
        for (j = 0; j < n; j++) {
          double t = a[k * n + j];
          a[k * n + j] = a[p * n + j], a[p * n + j] = t;
        }
      for (i = k + 1; i < n; i++) a[i * n + k] /= a[k * n + k];
    } else if (info == 0) {
      info = k + 1;
    }
    for (i = k + 1; i < n; i++) {
      double l = a[i * n + k];
      if (l != 0)
        for (j = k + 1; j < n; j++) a[i * n + j] -= l * a[k * n + j];
    }
  }
  return info;
}
/* Solves F X = B (transposed 0) or F^T X = B (1) in place in b (n x k,
 * row-major) with F's factors from ct__mx_lu. A zero pivot gives inf/NaN. */
static void ct__mx_lu_solve(int64_t n, const double *lu, const int64_t *piv, int transposed, int64_t k, double *b) {
  int64_t i, j, c;
#define CT__MX_SWAP_ROWS(r1, r2)                                   \
  for (c = 0; c < k; c++) {                                        \
    double t_ = b[(r1) * k + c];                                   \
    b[(r1) * k + c] = b[(r2) * k + c], b[(r2) * k + c] = t_;        \
  }
  if (!transposed) { /* L U x = P b */
    for (i = 0; i < n; i++)
      if (piv[i] != i) CT__MX_SWAP_ROWS(i, piv[i])
    for (i = 1; i < n; i++)
      for (j = 0; j < i; j++)
        if (lu[i * n + j] != 0)
          for (c = 0; c < k; c++) b[i * k + c] -= lu[i * n + j] * b[j * k + c];
    for (i = n - 1; i >= 0; i--) {
      for (j = i + 1; j < n; j++)
        for (c = 0; c < k; c++) b[i * k + c] -= lu[i * n + j] * b[j * k + c];
      for (c = 0; c < k; c++) b[i * k + c] /= lu[i * n + i];
    }
  } else { /* F^T = U^T L^T P: U^T y = b, L^T z = y, x = P^T z */
    for (i = 0; i < n; i++) {
      for (j = 0; j < i; j++)
        for (c = 0; c < k; c++) b[i * k + c] -= lu[j * n + i] * b[j * k + c];
      for (c = 0; c < k; c++) b[i * k + c] /= lu[i * n + i];
    }
    for (i = n - 2; i >= 0; i--)
      for (j = i + 1; j < n; j++)
        if (lu[j * n + i] != 0)
          for (c = 0; c < k; c++) b[i * k + c] -= lu[j * n + i] * b[j * k + c];
    for (i = n - 1; i >= 0; i--)
      if (piv[i] != i) CT__MX_SWAP_ROWS(i, piv[i])
  }
#undef CT__MX_SWAP_ROWS
}

/* Factors every matrix of A's batch (A^T when A is contiguous, as PyTorch):
 * lu gets nA * n * n values, piv nA * n, info (when not NULL) nA. */
static void ct__mx_factor_all(const ct_tensor *A, int64_t nA, double *lu, int64_t *piv, int32_t *info, int *factored_t) {
  int64_t n = A->sizes[A->ndim - 1], rs = A->strides[A->ndim - 2], cs = A->strides[A->ndim - 1], b;
  int nb = A->ndim - 2;
  *factored_t = ct_is_contiguous(A);
  for (b = 0; b < nA; b++) {
    int64_t off = ct__mx_batch_offset(A, nb, nb, A->sizes, b), r;
    double *m = lu + b * n * n;
    if (*factored_t) ct__mx_load(A, off, cs, rs, n, n, m);
    else ct__mx_load(A, off, rs, cs, n, n, m);
    r = ct__mx_lu(n, m, piv + b * n);
    if (info) info[b] = (int32_t)r;
  }
}

/* The error of a failed factorization (PyTorch's _linalg_check_errors):
 * kind 'i' inversion, 's' solve, 'c' Cholesky. info on the CPU or meta. */
static ct_status ct__mx_check_info(const char *op, ct_tensor *info, char kind) {
  ct_tensor *host;
  int64_t i;
  int32_t bad;
  char batch[64];
  if (ct__is_meta(info) || info->numel == 0) return CT_OK;
  if (!(host = ct__host_operand(op, info))) return ct_last_error(); /* (contiguous: made by the kernels) */
  for (i = 0; i < host->numel && ((const int32_t *)ct_data_ptr(host))[i] == 0; i++) {
  }
  bad = i < host->numel ? ((const int32_t *)ct_data_ptr(host))[i] : 0;
  ct_release(host);
  if (bad == 0) return CT_OK;
  batch[0] = 0;
  if (info->ndim > 0) snprintf(batch, sizeof batch, "(Batch element %lld): ", (long long)i);
  if (kind == 'i')
    return ct_fail(CT_ERR_INVALID, op, "%sThe diagonal element %d is zero, the inversion could not be completed because the input "
                   "matrix is singular.", batch, (int)bad);
  if (kind == 's') return ct_fail(CT_ERR_INVALID, op, "%sThe solver failed because the input matrix is singular.", batch);
  return ct_fail(CT_ERR_INVALID, op, "%sThe factorization could not be completed because the input is not positive-definite "
                 "(the leading minor of order %d is not positive-definite).", batch, (int)bad);
}

/* ---- det and log|det| ----
 * structured (ops/structured.h), functional only: linalg_det (det) and
 * _linalg_logabsdet (log|det|, then the sign), over A's batch */
static ct_status ct__mx_det_meta(ct__structured *st, const char *op, ct_tensor *A, int logabs) {
  ct_status s;
  if (ct__mx_check_square(op, A, "A") != CT_OK || ct__mx_check_float(op, A, !logabs) != CT_OK) return ct_last_error();
  s = ct__set_output(st, 0, A->ndim - 2, A->sizes, (ct_dtype)A->dtype, A->device);
  if (s == CT_OK && logabs) s = ct__set_output(st, 1, A->ndim - 2, A->sizes, (ct_dtype)A->dtype, A->device);
  return s;
}
static ct_status ct__meta_linalg_det(ct__structured *st, ct_tensor *A) { return ct__mx_det_meta(st, "linalg.det", A, 0); }
static ct_status ct__meta_linalg_logabsdet(ct__structured *st, ct_tensor *A) { return ct__mx_det_meta(st, "linalg.slogdet", A, 1); }
/* r: det (s NULL) or log|det| with the sign in s */
static ct_status ct__mx_det(const char *op, ct_tensor *A, ct_tensor *r, ct_tensor *s) {
  int64_t n, nA, b, i, *piv = NULL;
  double *lu = NULL;
  int factored_t, logabs = s != NULL;
  n = A->sizes[A->ndim - 1];
  nA = ct__mx_prod(A->ndim - 2, A->sizes);
  if (nA == 0) return CT_OK;
  if (!(lu = ct__mx_alloc(op, (double)nA * (double)n * (double)n)) || !(piv = (int64_t *)ct__mx_alloc(op, (double)nA * (double)n))) {
    ct__workspace_free(lu);
    return ct_last_error();
  }
  ct__mx_factor_all(A, nA, lu, piv, NULL, &factored_t);
  for (b = 0; b < nA; b++) {
    const double *m = lu + b * n * n;
    double prod = 1, sum = 0, sg = 1;
    for (i = 0; i < n; i++) {
      double d = m[i * n + i];
      if (piv[b * n + i] != i) sg = -sg;
      if (logabs) {
        sum += log(fabs(d));
        if (d < 0) sg = -sg;
        else if (d == 0) sg = 0; /* (NaN keeps the sign it has so far: log gives NaN) */
      } else {
        prod *= d;
      }
    }
    if (logabs) {
      ct__mx_store(r, b, 0, 0, 1, 1, &sum);
      ct__mx_store(s, b, 0, 0, 1, 1, &sg);
    } else {
      prod *= sg;
      ct__mx_store(r, b, 0, 0, 1, 1, &prod);
    }
  }
  ct__workspace_free(lu);
  ct__workspace_free(piv);
  return CT_OK;
}
static ct_status ct__impl_linalg_det(ct_tensor *A, ct_tensor *out) { return ct__mx_det("linalg.det", A, out, NULL); }
static ct_status ct__impl_linalg_logabsdet(ct_tensor *A, ct_tensor *logabsdet, ct_tensor *sign) {
  return ct__mx_det("linalg.slogdet", A, logabsdet, sign);
}

/* ---- solve and inverse ----
 * linalg_solve_ex: A X = B (left) or X A = B. B is a batch of vectors when
 * it is 1-D or has exactly A's shape less its last dim (NumPy's rule, as
 * PyTorch). The batch dims of A and B broadcast; info has A's batch.
 * B NULL: the identity (linalg_inv_ex). */
static int ct__mx_vector_rhs(const ct_tensor *A, const ct_tensor *B) {
  return B->ndim == 1 || (B->ndim == A->ndim - 1 && !memcmp(B->sizes, A->sizes, sizeof(int64_t) * (size_t)B->ndim));
}
/* The checks and the shapes of a solve (PyTorch's order of checks: A's
 * dtype, B's, the shapes; half fails in the kernel): the meta step's, and
 * the impl's layout */
typedef struct ct__mx_solve_plan {
  int64_t n, k, nA, bshape[CT_MAX_DIMS + 2], rshape[CT_MAX_DIMS + 2], brs, bcs;
  int nb, vec, bnb, rnd;
} ct__mx_solve_plan;
static ct_status ct__mx_solve_plan_of(const char *op, ct_tensor *A, ct_tensor *B, bool left, ct__mx_solve_plan *p) {
  memset(p, 0, sizeof *p);
  if (B) {
    int low = A->dtype == CT_F16 || A->dtype == CT_BF16;
    if (!low && ct__mx_check_float(op, A, 0) != CT_OK) return ct_last_error();
    if (A->dtype != B->dtype)
      return ct_fail(CT_ERR_DTYPE, op, "Expected A and B to have the same dtype, but found A of type %s and B of type %s instead",
                     ct__dtype_torch_name((ct_dtype)A->dtype), ct__dtype_torch_name((ct_dtype)B->dtype));
    if (ct__mx_check_square(op, A, "A") != CT_OK) return ct_last_error();
    p->vec = ct__mx_vector_rhs(A, B);
    if (!p->vec && ct__mx_check_matrix(op, B, "B") != CT_OK) return ct_last_error();
  } else if (ct__mx_check_square(op, A, "A") != CT_OK || ct__mx_check_float(op, A, 0) != CT_OK) {
    return ct_last_error();
  }
  p->n = A->sizes[A->ndim - 1];
  p->nA = ct__mx_prod(A->ndim - 2, A->sizes);
  if (B) {
    int64_t bm, bn; /* B as a matrix: (n, k) left, (k, n) right */
    p->bnb = p->vec ? B->ndim - 1 : B->ndim - 2;
    bm = p->vec ? B->sizes[B->ndim - 1] : B->sizes[B->ndim - 2];
    bn = p->vec ? 1 : B->sizes[B->ndim - 1];
    if (left ? bm != p->n : bn != p->n)
      return ct_fail(CT_ERR_SHAPE, op, "Incompatible shapes of A and B for the equation %s (%lldx%lld and %lldx%lld)",
                     left ? "AX = B" : "XA = B", (long long)p->n, (long long)p->n, (long long)bm, (long long)bn);
    p->nb = ct_broadcast_shapes(op, p->bnb, B->sizes, A->ndim - 2, A->sizes, p->bshape);
    if (p->nb < 0) return ct_last_error();
    if (!left && p->vec)
      return ct_fail(CT_ERR_SHAPE, op, "Vector broadcasting of the left hand side is not supported for left=False. In this case "
                     "linalg.solve is equivalent to B / A.squeeze(-1)");
    if (A->dtype == CT_F16 || A->dtype == CT_BF16)
      return ct_fail(CT_ERR_DTYPE, op, "\"lu_cpu\" not implemented for '%s'", ct__dtype_torch_name((ct_dtype)A->dtype));
    p->k = left ? bn : bm;
    p->brs = p->vec ? B->strides[B->ndim - 1] : B->strides[B->ndim - 2];
    p->bcs = p->vec ? 0 : B->strides[B->ndim - 1];
    if (!left) { /* X A = B as A^T X^T = B^T */
      int64_t t = p->brs;
      p->brs = p->bcs, p->bcs = t;
    }
  } else {
    p->nb = A->ndim - 2;
    memcpy(p->bshape, A->sizes, sizeof(int64_t) * (size_t)p->nb);
    p->k = p->n;
  }
  memcpy(p->rshape, p->bshape, sizeof(int64_t) * (size_t)p->nb);
  p->rnd = p->nb;
  if (p->vec) p->rshape[p->rnd++] = p->n;
  else if (left) p->rshape[p->rnd++] = p->n, p->rshape[p->rnd++] = p->k;
  else p->rshape[p->rnd++] = p->k, p->rshape[p->rnd++] = p->n;
  if (p->rnd > CT_MAX_DIMS) return ct_fail(CT_ERR_RANK, op, "the result would have rank %d (at most %d)", p->rnd, CT_MAX_DIMS);
  return CT_OK;
}
/* structured (ops/structured.h), functional only: linalg_solve_ex and
 * linalg_inv_ex (B NULL: the identity) give (result, info) */
static ct_status ct__mx_solve_meta(ct__structured *st, const char *op, ct_tensor *A, ct_tensor *B, bool left) {
  ct__mx_solve_plan p;
  ct_status s;
  if (ct__mx_solve_plan_of(op, A, B, left, &p) != CT_OK) return ct_last_error();
  s = ct__set_output(st, 0, p.rnd, p.rshape, (ct_dtype)A->dtype, A->device);
  return s == CT_OK ? ct__set_output(st, 1, A->ndim - 2, A->sizes, CT_I32, A->device) : s;
}
static ct_status ct__meta_linalg_solve_ex(ct__structured *st, ct_tensor *A, ct_tensor *B, bool left, bool check_errors) {
  (void)check_errors;
  return ct__mx_solve_meta(st, "linalg.solve", A, B, left);
}
static ct_status ct__meta_linalg_inv_ex(ct__structured *st, ct_tensor *A, bool check_errors) {
  (void)check_errors;
  return ct__mx_solve_meta(st, "linalg.inv", A, NULL, true);
}
static ct_status ct__mx_solve(const char *op, const char *check_name, ct_tensor *A, ct_tensor *B, bool left, bool check_errors,
                              ct_tensor *r, ct_tensor *info) {
  ct__mx_solve_plan p;
  int64_t n, k, total, *piv = NULL, e, rrs, rcs;
  int nb, i, factored_t = 0;
  double *lu = NULL, *work = NULL;
  if (ct__mx_solve_plan_of(op, A, B, left, &p) != CT_OK) return ct_last_error();
  n = p.n, k = p.k, nb = p.nb;
  total = ct__mx_prod(nb, p.bshape);
  if (p.nA > 0) {
    if (!(lu = ct__mx_alloc(op, (double)p.nA * (double)n * (double)n)) || !(piv = (int64_t *)ct__mx_alloc(op, (double)p.nA * (double)n)) ||
        !(work = ct__mx_alloc(op, (double)n * (double)k))) {
      ct__workspace_free(lu);
      ct__workspace_free(piv);
      return ct_last_error();
    }
    ct__mx_factor_all(A, p.nA, lu, piv, (int32_t *)ct_data_ptr(info), &factored_t);
    /* work holds the solution of the system, n x k row-major; the result is
     * contiguous: (n, k) left, (k, n) right (so the transpose is stored), (n) for vectors */
    rrs = p.vec ? 1 : left ? k : 1;
    rcs = p.vec ? 0 : left ? 1 : n;
    for (e = 0; e < total && n * k > 0; e++) {
      int64_t ai = 0, rem = e, stride = 1;
      /* A's batch index of result batch e (A's size-1 dims repeat) */
      for (i = nb - 1; i >= 0; i--) {
        int ad = i - (nb - (A->ndim - 2));
        int64_t idx = rem % p.bshape[i];
        rem /= p.bshape[i];
        if (ad >= 0) {
          if (A->sizes[ad] != 1) ai += idx * stride;
          stride *= A->sizes[ad];
        }
      }
      if (B) {
        ct__mx_load(B, ct__mx_batch_offset(B, p.bnb, nb, p.bshape, e), p.brs, p.bcs, n, k, work);
      } else {
        int64_t c;
        for (c = 0; c < n * k; c++) work[c] = c % (n + 1) == 0;
      }
      /* the system is A (left) or A^T (right); the factors are of A or A^T */
      ct__mx_lu_solve(n, lu + ai * n * n, piv + ai * n, (!left) != factored_t, k, work);
      ct__mx_store(r, e * n * k, rrs, rcs, n, k, work);
    }
  }
  ct__workspace_free(lu);
  ct__workspace_free(piv);
  ct__workspace_free(work);
  return check_errors ? ct__mx_check_info(check_name, info, B ? 's' : 'i') : CT_OK;
}
static ct_status ct__impl_linalg_solve_ex(ct_tensor *A, ct_tensor *B, bool left, bool check_errors, ct_tensor *result, ct_tensor *info) {
  return ct__mx_solve("linalg.solve", "torch.linalg.solve_ex", A, B, left, check_errors, result, info);
}
static ct_status ct__impl_linalg_inv_ex(ct_tensor *A, bool check_errors, ct_tensor *inverse, ct_tensor *info) {
  return ct__mx_solve("linalg.inv", "linalg.inv_ex", A, NULL, true, check_errors, inverse, info);
}

/* ---- Cholesky ----
 * Left-looking, column by column (LAPACK's potf2 with 'L'): only the lower
 * triangle is read. At the first column whose pivot a_jj - sum l_jk^2 is not
 * positive (or NaN) that value is stored on the diagonal and its order is
 * info; the columns after it keep A's values, as LAPACK leaves them. */
static int64_t ct__mx_cholesky_lower(int64_t n, double *a) {
  int64_t i, j, k;
  for (j = 0; j < n; j++) {
    double d = a[j * n + j];
    for (k = 0; k < j; k++) d -= a[j * n + k] * a[j * n + k];
    if (!(d > 0)) {
      a[j * n + j] = d;
      return j + 1;
    }
    d = sqrt(d);
    a[j * n + j] = d;
    for (i = j + 1; i < n; i++) {
      double s = a[i * n + j];
      for (k = 0; k < j; k++) s -= a[i * n + k] * a[j * n + k];
      a[i * n + j] = s / d;
    }
  }
  return 0;
}
/* L with L L^T = A (lower triangle read), or U with U^T U = A (upper
 * triangle read: the lower factor of A^T, transposed), zeros elsewhere;
 * structured (ops/structured.h), functional only: (L, info) */
static ct_status ct__meta_linalg_cholesky_ex(ct__structured *st, ct_tensor *A, bool upper, bool check_errors) {
  static const char *op = "linalg.cholesky";
  ct_status s;
  (void)upper, (void)check_errors;
  if (ct__mx_check_square(op, A, "A") != CT_OK) return ct_last_error();
  if (A->dtype == CT_F16 || A->dtype == CT_BF16)
    return ct_fail(CT_ERR_DTYPE, op, "\"cholesky_cpu\" not implemented for '%s'", ct__dtype_torch_name((ct_dtype)A->dtype));
  if (ct__mx_check_float(op, A, 0) != CT_OK) return ct_last_error();
  s = ct__set_output(st, 0, A->ndim, A->sizes, (ct_dtype)A->dtype, A->device);
  return s == CT_OK ? ct__set_output(st, 1, A->ndim - 2, A->sizes, CT_I32, A->device) : s;
}
static ct_status ct__impl_linalg_cholesky_ex(ct_tensor *A, bool upper, bool check_errors, ct_tensor *r, ct_tensor *info) {
  static const char *op = "linalg.cholesky";
  int64_t n = A->sizes[A->ndim - 1], nA, b, i, j, rs, cs;
  double *work;
  int nb = A->ndim - 2;
  nA = ct__mx_prod(nb, A->sizes);
  if (nA > 0 && n > 0) {
    if (!(work = ct__mx_alloc(op, (double)n * (double)n))) return ct_last_error();
    rs = A->strides[A->ndim - 2], cs = A->strides[A->ndim - 1];
    for (b = 0; b < nA; b++) {
      if (upper) ct__mx_load(A, ct__mx_batch_offset(A, nb, nb, A->sizes, b), cs, rs, n, n, work);
      else ct__mx_load(A, ct__mx_batch_offset(A, nb, nb, A->sizes, b), rs, cs, n, n, work);
      ((int32_t *)ct_data_ptr(info))[b] = (int32_t)ct__mx_cholesky_lower(n, work);
      for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++) work[i * n + j] = 0;
      if (upper) ct__mx_store(r, b * n * n, 1, n, n, n, work);
      else ct__mx_store(r, b * n * n, n, 1, n, n, work);
    }
    ct__workspace_free(work);
  } else if (nA > 0) {
    memset(ct_data_ptr(info), 0, sizeof(int32_t) * (size_t)nA);
  }
  return check_errors ? ct__mx_check_info("linalg.cholesky_ex", info, 'c') : CT_OK;
}

/* ---- matrix exponential ----
 * Higham's scaling and squaring with the [13/13] Padé approximant (SIAM J.
 * Matrix Anal. Appl. 26(4), 2005): A / 2^s has 1-norm <= theta_13, then
 * exp(A) = r13(A / 2^s)^(2^s). In double, which is accurate to a few ulps of
 * float64 times the condition of the problem. A non-finite A gives NaN. */
static void ct__mx_matmul_sq(int64_t n, const double *x, const double *y, double *z) {
  int64_t i, j, k;
  for (i = 0; i < n * n; i++) z[i] = 0;
  for (i = 0; i < n; i++)
    for (k = 0; k < n; k++) {
      double v = x[i * n + k];
      for (j = 0; j < n; j++) z[i * n + j] += v * y[k * n + j];
    }
}
/* a: n x n in, exp(a) out; work: 6 n^2 values; piv: n */
static void ct__mx_expm(int64_t n, double *a, double *work, int64_t *piv) {
  static const double b[14] = {64764752532480000.0, 32382376266240000.0, 7771770303897600.0, 1187353796428800.0,
                               129060195264000.0,   10559470521600.0,    670442572800.0,     33522128640.0,
                               1323241920.0,        40840800.0,          960960.0,           16380.0,
                               182.0,               1.0};
  const double theta13 = 5.371920351148152;
  double norm = 0, scale;
  double *a2 = work, *a4 = work + n * n, *a6 = work + 2 * n * n, *u = work + 3 * n * n, *v = work + 4 * n * n, *t = work + 5 * n * n;
  int64_t i, j, s = 0, nn = n * n;
  for (j = 0; j < n; j++) {
    double c = 0;
    for (i = 0; i < n; i++) c += fabs(a[i * n + j]);
    if (!(c <= norm)) norm = c; /* (NaN propagates) */
  }
  if (!isfinite(norm)) {
    for (i = 0; i < nn; i++) a[i] = NAN;
    return;
  }
  if (norm > theta13) s = (int64_t)ceil(log2(norm / theta13)); /* <= 1030 for a finite norm */
  scale = ldexp(1.0, (int)-s);
  for (i = 0; i < nn; i++) a[i] *= scale;
  ct__mx_matmul_sq(n, a, a, a2);
  ct__mx_matmul_sq(n, a2, a2, a4);
  ct__mx_matmul_sq(n, a4, a2, a6);
  /* u = a6 (b13 a6 + b11 a4 + b9 a2) + b7 a6 + b5 a4 + b3 a2 + b1 I, then u = a u */
  for (i = 0; i < nn; i++) t[i] = b[13] * a6[i] + b[11] * a4[i] + b[9] * a2[i];
  ct__mx_matmul_sq(n, a6, t, u);
  for (i = 0; i < nn; i++) u[i] += b[7] * a6[i] + b[5] * a4[i] + b[3] * a2[i] + (i % (n + 1) == 0 ? b[1] : 0);
  ct__mx_matmul_sq(n, a, u, t);
  memcpy(u, t, sizeof(double) * (size_t)nn);
  /* v = a6 (b12 a6 + b10 a4 + b8 a2) + b6 a6 + b4 a4 + b2 a2 + b0 I */
  for (i = 0; i < nn; i++) t[i] = b[12] * a6[i] + b[10] * a4[i] + b[8] * a2[i];
  ct__mx_matmul_sq(n, a6, t, v);
  for (i = 0; i < nn; i++) v[i] += b[6] * a6[i] + b[4] * a4[i] + b[2] * a2[i] + (i % (n + 1) == 0 ? b[0] : 0);
  /* (v - u) r = v + u */
  for (i = 0; i < nn; i++) {
    double p = v[i] + u[i];
    v[i] -= u[i];
    a[i] = p;
  }
  ct__mx_lu(n, v, piv);
  ct__mx_lu_solve(n, v, piv, 0, n, a);
  for (; s > 0; s--) {
    ct__mx_matmul_sq(n, a, a, t);
    memcpy(a, t, sizeof(double) * (size_t)nn);
  }
}
/* structured (ops/structured.h), functional only */
static ct_status ct__meta_linalg_matrix_exp(ct__structured *st, ct_tensor *A) {
  static const char *op = "linalg.matrix_exp";
  if (ct__mx_check_square(op, A, "A") != CT_OK) return ct_last_error();
  if (A->dtype == CT_F16 || A->dtype == CT_BF16) /* PyTorch takes bfloat16 and computes in it, losing every digit */
    return ct_fail(CT_ERR_DTYPE, "matrix_exp", "ctorch computes matrix_exp in float32 and float64 only. Got %s",
                   ct__dtype_torch_name((ct_dtype)A->dtype));
  if (ct__mx_check_float("matrix_exp", A, 0) != CT_OK) return ct_last_error();
  return ct__set_output(st, 0, A->ndim, A->sizes, (ct_dtype)A->dtype, A->device);
}
static ct_status ct__impl_linalg_matrix_exp(ct_tensor *A, ct_tensor *r) {
  static const char *op = "linalg.matrix_exp";
  int64_t n = A->sizes[A->ndim - 1], nA, b, *piv = NULL;
  double *m = NULL;
  int nb = A->ndim - 2;
  nA = ct__mx_prod(nb, A->sizes);
  if (r->numel == 0) return CT_OK;
  if (!(m = ct__mx_alloc(op, 7.0 * (double)n * (double)n)) || !(piv = (int64_t *)ct__mx_alloc(op, (double)n))) {
    ct__workspace_free(m);
    return ct_last_error();
  }
  for (b = 0; b < nA; b++) {
    ct__mx_load(A, ct__mx_batch_offset(A, nb, nb, A->sizes, b), A->strides[nb], A->strides[nb + 1], n, n, m);
    ct__mx_expm(n, m, m + n * n, piv);
    ct__mx_store(r, b * n * n, n, 1, n, n, m);
  }
  ct__workspace_free(m);
  ct__workspace_free(piv);
  return CT_OK;
}

/* ---- QR ----
 * Householder, as LAPACK's geqrf / orgqr, so the signs are PyTorch's: column
 * j's reflector maps (alpha, x) to (beta, 0) with beta = -sign(alpha) |(alpha, x)|,
 * and is the identity (R_jj = alpha, whatever its sign) when x is 0.
 * mode: 'reduced' Q (m, k), R (k, n); 'complete' Q (m, m), R (m, n); 'r' R
 * only (Q is empty), k = min(m, n). */
static int ct__mx_qr_mode(const char *mode) {
  if (mode && !strcmp(mode, "reduced")) return 'e';
  if (mode && !strcmp(mode, "complete")) return 'c';
  if (mode && !strcmp(mode, "r")) return 'r';
  return ct_fail(CT_ERR_INVALID, "linalg.qr", "qr received unrecognized mode '%s' but expected one of 'reduced' (default), 'r', or 'complete'",
                 mode ? mode : "None"), 0;
}
/* w: m x n, row-major, overwritten by R above the diagonal and the reflectors below; tau: k */
static void ct__mx_householder(int64_t m, int64_t n, double *w, double *tau) {
  int64_t k = m < n ? m : n, i, j, c;
  for (j = 0; j < k; j++) {
    double alpha = w[j * n + j], xnorm = 0, big = 0, beta, scale;
    for (i = j + 1; i < m; i++)
      if (fabs(w[i * n + j]) > big) big = fabs(w[i * n + j]);
    if (big > 0) { /* scaled, so the squares neither overflow nor underflow */
      for (i = j + 1; i < m; i++) xnorm += (w[i * n + j] / big) * (w[i * n + j] / big);
      xnorm = big * sqrt(xnorm);
    }
    if (xnorm == 0) {
      tau[j] = 0;
      continue;
    }
    beta = -copysign(hypot(alpha, xnorm), alpha);
    tau[j] = (beta - alpha) / beta;
    scale = 1 / (alpha - beta);
    for (i = j + 1; i < m; i++) w[i * n + j] *= scale;
    w[j * n + j] = beta;
    for (c = j + 1; c < n; c++) { /* H = I - tau v v^T, v = (1, w[j+1:, j]) */
      double s = w[j * n + c];
      for (i = j + 1; i < m; i++) s += w[i * n + j] * w[i * n + c];
      s *= tau[j];
      w[j * n + c] -= s;
      for (i = j + 1; i < m; i++) w[i * n + c] -= s * w[i * n + j];
    }
  }
}
/* which: 'Q' or 'R' of A in mode: the checks and the shape (rank in *ndim) */
static ct_status ct__mx_qr_shape(ct_tensor *A, const char *mode, char which, int *ndim, int64_t *shape) {
  static const char *op = "linalg.qr";
  int64_t m, n, k;
  int nb, md;
  if (ct__mx_check_matrix(op, A, "A") != CT_OK) return ct_last_error();
  if (A->dtype == CT_F16 || A->dtype == CT_BF16)
    return ct_fail(CT_ERR_DTYPE, op, "\"geqrf_cpu\" not implemented for '%s'", ct__dtype_torch_name((ct_dtype)A->dtype));
  if (ct__mx_check_float(op, A, 0) != CT_OK || !(md = ct__mx_qr_mode(mode))) return ct_last_error();
  nb = A->ndim - 2;
  m = A->sizes[nb], n = A->sizes[nb + 1], k = m < n ? m : n;
  if (which == 'Q' && md == 'r') {
    *ndim = 1, shape[0] = 0;
    return CT_OK;
  }
  memcpy(shape, A->sizes, sizeof(int64_t) * (size_t)nb);
  shape[nb] = which == 'Q' ? m : md == 'c' ? m : k;
  shape[nb + 1] = which == 'Q' ? (md == 'c' ? m : k) : n;
  *ndim = nb + 2;
  return CT_OK;
}
/* structured (ops/structured.h), functional only: _linalg_qr_Q, _linalg_qr_R */
static ct_status ct__mx_qr_meta(ct__structured *st, ct_tensor *A, const char *mode, char which) {
  int64_t shape[CT_MAX_DIMS];
  int ndim = 0;
  if (ct__mx_qr_shape(A, mode, which, &ndim, shape) != CT_OK) return ct_last_error();
  return ct__set_output(st, 0, ndim, shape, (ct_dtype)A->dtype, A->device);
}
static ct_status ct__meta_linalg_qr_Q(ct__structured *st, ct_tensor *A, const char *mode) { return ct__mx_qr_meta(st, A, mode, 'Q'); }
static ct_status ct__meta_linalg_qr_R(ct__structured *st, ct_tensor *A, const char *mode) { return ct__mx_qr_meta(st, A, mode, 'R'); }
static ct_status ct__mx_qr(ct_tensor *A, char which, ct_tensor *r) {
  static const char *op = "linalg.qr";
  int64_t m, n, k, rows, cols, nA, b, i, j, c;
  double *work = NULL;
  int nb = A->ndim - 2;
  if (r->numel == 0) return CT_OK;
  m = A->sizes[nb], n = A->sizes[nb + 1], k = m < n ? m : n;
  rows = r->sizes[nb], cols = r->sizes[nb + 1];
  nA = ct__mx_prod(nb, A->sizes);
  if (!(work = ct__mx_alloc(op, (double)m * (double)n + (double)k + (double)rows * (double)cols))) return ct_last_error();
  for (b = 0; b < nA; b++) {
    double *w = work, *tau = work + m * n, *out = tau + k;
    ct__mx_load(A, ct__mx_batch_offset(A, nb, nb, A->sizes, b), A->strides[nb], A->strides[nb + 1], m, n, w);
    ct__mx_householder(m, n, w, tau);
    if (which == 'R') {
      for (i = 0; i < rows; i++)
        for (c = 0; c < cols; c++) out[i * cols + c] = c >= i ? w[i * n + c] : 0;
    } else { /* Q = H_0 ... H_{k-1} applied to the first cols columns of I, from the last reflector */
      for (i = 0; i < rows * cols; i++) out[i] = i / cols == i % cols;
      for (j = k - 1; j >= 0; j--) {
        if (tau[j] == 0) continue;
        for (c = 0; c < cols; c++) {
          double s = out[j * cols + c];
          for (i = j + 1; i < m; i++) s += w[i * n + j] * out[i * cols + c];
          s *= tau[j];
          out[j * cols + c] -= s;
          for (i = j + 1; i < m; i++) out[i * cols + c] -= s * w[i * n + j];
        }
      }
    }
    ct__mx_store(r, b * rows * cols, cols, 1, rows, cols, out);
  }
  ct__workspace_free(work);
  return CT_OK;
}
static ct_status ct__impl_linalg_qr_Q(ct_tensor *A, const char *mode, ct_tensor *Q) {
  (void)mode;
  return ct__mx_qr(A, 'Q', Q);
}
static ct_status ct__impl_linalg_qr_R(ct_tensor *A, const char *mode, ct_tensor *R) {
  (void)mode;
  return ct__mx_qr(A, 'R', R);
}

/* ---- singular values ----
 * One-sided Jacobi (Hestenes): plane rotations of the columns of the m x n
 * matrix (m >= n: a wide matrix is transposed first, which keeps its
 * singular values) until every pair is orthogonal to working precision; the
 * column norms are then the singular values, with high relative accuracy.
 * The matrix is scaled by its largest |entry| first, so squares neither
 * overflow nor underflow. u (m x n) gets the normalized columns and v
 * (n x n) the rotations when not NULL: A = u diag(s) v^T, s descending. */
static void ct__mx_svd_jacobi(int64_t m, int64_t n, double *w, double *s, double *v, double *u) {
  double big = 0, eps = 1e-15;
  int64_t i, j, p, q, sweep;
  for (i = 0; i < m * n; i++)
    if (fabs(w[i]) > big) big = fabs(w[i]);
  if (v)
    for (i = 0; i < n * n; i++) v[i] = i % (n + 1) == 0;
  if (big > 0)
    for (i = 0; i < m * n; i++) w[i] /= big;
  for (sweep = 0; sweep < 100; sweep++) { /* (quadratic convergence: about 10 sweeps) */
    int rotated = 0;
    for (p = 0; p < n - 1; p++)
      for (q = p + 1; q < n; q++) {
        double alpha = 0, beta = 0, gamma = 0, zeta, t, c, sn;
        for (i = 0; i < m; i++) {
          double wp = w[i * n + p], wq = w[i * n + q];
          alpha += wp * wp, beta += wq * wq, gamma += wp * wq;
        }
        if (gamma == 0 || fabs(gamma) <= eps * sqrt(alpha * beta)) continue;
        rotated = 1;
        zeta = (beta - alpha) / (2 * gamma);
        t = (zeta >= 0 ? 1.0 : -1.0) / (fabs(zeta) + sqrt(1 + zeta * zeta));
        c = 1 / sqrt(1 + t * t), sn = c * t;
        for (i = 0; i < m; i++) {
          double wp = w[i * n + p], wq = w[i * n + q];
          w[i * n + p] = c * wp - sn * wq, w[i * n + q] = sn * wp + c * wq;
        }
        if (v)
          for (i = 0; i < n; i++) {
            double vp = v[i * n + p], vq = v[i * n + q];
            v[i * n + p] = c * vp - sn * vq, v[i * n + q] = sn * vp + c * vq;
          }
      }
    if (!rotated) break;
  }
  for (j = 0; j < n; j++) {
    double norm = 0;
    for (i = 0; i < m; i++) norm += w[i * n + j] * w[i * n + j];
    s[j] = sqrt(norm);
  }
  for (j = 0; j < n; j++) { /* selection sort, descending, carrying the columns of w and v */
    int64_t best = j;
    for (p = j + 1; p < n; p++)
      if (s[p] > s[best]) best = p;
    if (best != j) {
      double t = s[j];
      s[j] = s[best], s[best] = t;
      for (i = 0; i < m; i++) t = w[i * n + j], w[i * n + j] = w[i * n + best], w[i * n + best] = t;
      if (v)
        for (i = 0; i < n; i++) t = v[i * n + j], v[i * n + j] = v[i * n + best], v[i * n + best] = t;
    }
  }
  if (u)
    for (j = 0; j < n; j++)
      for (i = 0; i < m; i++) u[i * n + j] = s[j] > 0 ? w[i * n + j] / s[j] : 0; /* (a zero singular value: no direction) */
  for (j = 0; j < n; j++) s[j] *= big;
}
/* Singular values of each matrix of A (*, m, n): (*, min(m, n)), descending */
/* the checks of every svd op */
static ct_status ct__mx_svd_check(ct_tensor *A) {
  static const char *op = "linalg.svd";
  if (ct__mx_check_matrix(op, A, "A") != CT_OK) return ct_last_error();
  if (A->dtype == CT_F16 || A->dtype == CT_BF16)
    return ct_fail(CT_ERR_DTYPE, op, "\"linalg_svd_cpu\" not implemented for '%s'", ct__dtype_torch_name((ct_dtype)A->dtype));
  return ct__mx_check_float(op, A, 0);
}
/* structured (ops/structured.h), functional only: linalg_svdvals */
static ct_status ct__meta_linalg_svdvals(ct__structured *st, ct_tensor *A, const char *driver) {
  int64_t shape[CT_MAX_DIMS];
  int nb;
  if (driver)
    return ct_fail(CT_ERR_INVALID, "torch.linalg.svd", "keyword argument `driver=` is only supported on CUDA inputs with cuSOLVER backend.");
  if (ct__mx_svd_check(A) != CT_OK) return ct_last_error();
  nb = A->ndim - 2;
  memcpy(shape, A->sizes, sizeof(int64_t) * (size_t)nb);
  shape[nb] = A->sizes[nb] < A->sizes[nb + 1] ? A->sizes[nb] : A->sizes[nb + 1];
  return ct__set_output(st, 0, nb + 1, shape, (ct_dtype)A->dtype, A->device);
}
static ct_status ct__impl_linalg_svdvals(ct_tensor *A, const char *driver, ct_tensor *r) {
  static const char *op = "linalg.svd";
  int64_t m, n, k, nA, b, i, j;
  double *work = NULL;
  int nb, wide;
  (void)driver;
  nb = A->ndim - 2;
  m = A->sizes[nb], n = A->sizes[nb + 1];
  wide = m < n;
  if (wide) { /* the transpose: the same singular values */
    int64_t t = m;
    m = n, n = t;
  }
  k = n;
  nA = ct__mx_prod(nb, A->sizes);
  if (r->numel == 0) return CT_OK;
  if (!(work = ct__mx_alloc(op, (double)m * (double)n + (double)n))) return ct_last_error();
  for (b = 0; b < nA; b++) {
    double *w = work, *s = work + m * n;
    int64_t off = ct__mx_batch_offset(A, nb, nb, A->sizes, b), rs = A->strides[nb], cs = A->strides[nb + 1];
    if (wide) ct__mx_load(A, off, cs, rs, m, n, w);
    else ct__mx_load(A, off, rs, cs, m, n, w);
    for (i = 0; i < m * n && !isnan(w[i]); i++) {
    }
    if (i < m * n) {
      ct__workspace_free(work);
      return ct_fail(CT_ERR_INVALID, op, "The algorithm failed to converge because the input matrix contained non-finite values.");
    }
    for (i = 0; i < m * n && isfinite(w[i]); i++) {
    }
    if (i < m * n) /* an infinity: NaN singular values, as LAPACK */
      for (j = 0; j < n; j++) s[j] = NAN;
    else
      ct__mx_svd_jacobi(m, n, w, s, NULL, NULL);
    ct__mx_store(r, b * k, 1, 0, k, 1, s);
  }
  ct__workspace_free(work);
  return CT_OK;
}
/* Singular vectors, signed as ctorch's own convention: each u's largest |component| (the first on
 * ties) positive, v following. which 'U': U (*, m, m if full else k); 'V': Vh (*, n if full else k, n).
 * Columns without a direction (zero singular values) and, when full, the rest of the basis come from
 * completing the others: the trailing columns of a complete Householder QR of them. */
static void ct__mx_complete_basis(int64_t m, int64_t r, double *q, int64_t cols, double *scratch) {
  /* q: m x cols, row-major; its first r columns orthonormal; fills columns r..cols-1 */
  double *w = scratch, *tau = scratch + m * (r > 0 ? r : 1), *full = tau + (r > 0 ? r : 1);
  int64_t i, j, c;
  for (i = 0; i < m; i++)
    for (j = 0; j < r; j++) w[i * r + j] = q[i * cols + j];
  ct__mx_householder(m, r, w, tau);
  for (i = 0; i < m * m; i++) full[i] = i / m == i % m;
  for (j = r - 1; j >= 0; j--) {
    if (tau[j] == 0) continue;
    for (c = 0; c < m; c++) {
      double s = full[j * m + c];
      for (i = j + 1; i < m; i++) s += w[i * r + j] * full[i * m + c];
      s *= tau[j];
      full[j * m + c] -= s;
      for (i = j + 1; i < m; i++) full[i * m + c] -= s * w[i * r + j];
    }
  }
  for (i = 0; i < m; i++)
    for (c = r; c < cols; c++) q[i * cols + c] = full[i * m + c];
}
/* structured (ops/structured.h), functional only: _linalg_svd_U, _linalg_svd_Vh */
static ct_status ct__mx_svd_vectors_meta(ct__structured *st, ct_tensor *A, bool full, char which) {
  int64_t m0, n0, k, shape[CT_MAX_DIMS];
  int nb;
  if (ct__mx_svd_check(A) != CT_OK) return ct_last_error();
  nb = A->ndim - 2;
  m0 = A->sizes[nb], n0 = A->sizes[nb + 1], k = m0 < n0 ? m0 : n0;
  memcpy(shape, A->sizes, sizeof(int64_t) * (size_t)nb);
  shape[nb] = which == 'U' ? m0 : (full ? n0 : k);
  shape[nb + 1] = which == 'U' ? (full ? m0 : k) : n0;
  return ct__set_output(st, 0, nb + 2, shape, (ct_dtype)A->dtype, A->device);
}
static ct_status ct__meta_linalg_svd_U(ct__structured *st, ct_tensor *A, bool full_matrices) {
  return ct__mx_svd_vectors_meta(st, A, full_matrices, 'U');
}
static ct_status ct__meta_linalg_svd_Vh(ct__structured *st, ct_tensor *A, bool full_matrices) {
  return ct__mx_svd_vectors_meta(st, A, full_matrices, 'V');
}
static ct_status ct__mx_svd_vectors(ct_tensor *A, char which, ct_tensor *r) {
  static const char *op = "linalg.svd";
  int64_t m0, n0, m, n, rows, cols, nA, b, i, j, rank;
  double *work = NULL;
  int nb, wide;
  nb = A->ndim - 2;
  m0 = A->sizes[nb], n0 = A->sizes[nb + 1];
  wide = m0 < n0;
  m = wide ? n0 : m0, n = wide ? m0 : n0; /* the tall problem: m >= n = k */
  rows = r->sizes[nb], cols = r->sizes[nb + 1];
  nA = ct__mx_prod(nb, A->sizes);
  if (r->numel == 0) return CT_OK;
  /* w m*n, s n, v n*n, u m*n, the tall side's full basis m*m, completion scratch m*n + n + m*m */
  if (!(work = ct__mx_alloc(op, 3.0 * (double)m * (double)n + 2.0 * (double)n + (double)n * (double)n + 2.0 * (double)m * (double)m + (double)m + 1))) return ct_last_error();
  for (b = 0; b < nA; b++) {
    double *w = work, *s = w + m * n, *v = s + n, *u = v + n * n, *big = u + m * n, *scratch = big + m * m, *out;
    int64_t off = ct__mx_batch_offset(A, nb, nb, A->sizes, b), rs = A->strides[nb], cs = A->strides[nb + 1];
    if (wide) ct__mx_load(A, off, cs, rs, m, n, w);
    else ct__mx_load(A, off, rs, cs, m, n, w);
    for (i = 0; i < m * n && !isnan(w[i]); i++) {
    }
    if (i < m * n) {
      ct__workspace_free(work);
      return ct_fail(CT_ERR_INVALID, op, "The algorithm failed to converge because the input matrix contained non-finite values.");
    }
    for (i = 0; i < m * n && isfinite(w[i]); i++) {
    }
    if (i < m * n) { /* an infinity: NaN, as LAPACK */
      for (i = 0; i < rows * cols; i++) scratch[i] = NAN;
      ct__mx_store(r, b * rows * cols, cols, 1, rows, cols, scratch);
      continue;
    }
    ct__mx_svd_jacobi(m, n, w, s, v, u);
    for (j = 0; j < n; j++) { /* the sign: the tall side's vector's largest |component| positive */
      int64_t best = 0;
      for (i = 1; i < m; i++)
        if (fabs(u[i * n + j]) > fabs(u[best * n + j])) best = i;
      if (u[best * n + j] < 0) {
        for (i = 0; i < m; i++) u[i * n + j] = -u[i * n + j];
        for (i = 0; i < n; i++) v[i * n + j] = -v[i * n + j];
      }
    }
    for (rank = 0; rank < n && s[rank] > 0; rank++) {
    }
    /* the tall side's basis, m x m: the u's of nonzero singular values, then their completion */
    for (i = 0; i < m; i++)
      for (j = 0; j < m; j++) big[i * m + j] = j < rank ? u[i * n + j] : 0;
    ct__mx_complete_basis(m, rank, big, m, scratch);
    /* A = U S V^T (tall) or A^T = u S v^T, so A = v S u^T (wide) */
    out = scratch; /* (the completion is done with it) */
    for (i = 0; i < rows; i++)
      for (j = 0; j < cols; j++)
        out[i * cols + j] = !wide ? (which == 'U' ? big[i * m + j] : v[j * n + i]) : (which == 'U' ? v[i * n + j] : big[j * m + i]);
    ct__mx_store(r, b * rows * cols, cols, 1, rows, cols, out);
  }
  ct__workspace_free(work);
  return CT_OK;
}
static ct_status ct__impl_linalg_svd_U(ct_tensor *A, bool full_matrices, ct_tensor *U) {
  (void)full_matrices;
  return ct__mx_svd_vectors(A, 'U', U);
}
static ct_status ct__impl_linalg_svd_Vh(ct_tensor *A, bool full_matrices, ct_tensor *Vh) {
  (void)full_matrices;
  return ct__mx_svd_vectors(A, 'V', Vh);
}

/* ---- symmetric eigenvalues ----
 * Cyclic Jacobi: rotations in the (p, q) planes zero each off-diagonal entry
 * in turn until the off-diagonal part is below 1e-16 of the matrix's norm
 * (quadratic convergence: about 10 sweeps). The matrix is scaled by its
 * largest |entry| first. w gets the eigenvalues ascending and v (n x n, when
 * not NULL) the eigenvectors as columns. */
static void ct__mx_eigh_jacobi(int64_t n, double *a, double *w, double *v) {
  double big = 0;
  int64_t i, j, p, q, r, sweep;
  for (i = 0; i < n * n; i++)
    if (fabs(a[i]) > big) big = fabs(a[i]);
  if (v)
    for (i = 0; i < n * n; i++) v[i] = i % (n + 1) == 0;
  if (big > 0)
    for (i = 0; i < n * n; i++) a[i] /= big;
  for (sweep = 0; sweep < 100; sweep++) {
    double off = 0, total = 0;
    for (i = 0; i < n; i++)
      for (j = 0; j < n; j++) {
        total += a[i * n + j] * a[i * n + j];
        if (i != j) off += a[i * n + j] * a[i * n + j];
      }
    if (off <= 1e-32 * total) break;
    for (p = 0; p < n - 1; p++)
      for (q = p + 1; q < n; q++) {
        double apq = a[p * n + q], theta, t, c, s;
        if (apq == 0) continue;
        theta = (a[q * n + q] - a[p * n + p]) / (2 * apq);
        t = (theta >= 0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1));
        c = 1 / sqrt(t * t + 1), s = t * c;
        a[p * n + p] -= t * apq, a[q * n + q] += t * apq;
        a[p * n + q] = a[q * n + p] = 0;
        for (r = 0; r < n; r++) {
          double arp, arq;
          if (r == p || r == q) continue;
          arp = a[r * n + p], arq = a[r * n + q];
          a[r * n + p] = a[p * n + r] = c * arp - s * arq;
          a[r * n + q] = a[q * n + r] = s * arp + c * arq;
        }
        if (v)
          for (r = 0; r < n; r++) {
            double vp = v[r * n + p], vq = v[r * n + q];
            v[r * n + p] = c * vp - s * vq, v[r * n + q] = s * vp + c * vq;
          }
      }
  }
  for (i = 0; i < n; i++) w[i] = a[i * n + i];
  for (j = 0; j < n; j++) { /* selection sort, ascending, carrying v's columns */
    int64_t best = j;
    for (p = j + 1; p < n; p++)
      if (w[p] < w[best]) best = p;
    if (best != j) {
      double t = w[j];
      w[j] = w[best], w[best] = t;
      if (v)
        for (r = 0; r < n; r++) t = v[r * n + j], v[r * n + j] = v[r * n + best], v[r * n + best] = t;
    }
  }
  for (i = 0; i < n; i++) w[i] *= big;
}
/* "L" or "U" (either case), as PyTorch's checkUplo */
static int ct__mx_uplo(const char *uplo) {
  if (!uplo || strlen(uplo) != 1 || (toupper((unsigned char)uplo[0]) != 'L' && toupper((unsigned char)uplo[0]) != 'U'))
    return ct_fail(CT_ERR_INVALID, "linalg.eigh", "Expected UPLO argument to be 'L' or 'U', but got %s", uplo ? uplo : "None"), 0;
  return toupper((unsigned char)uplo[0]);
}
/* structured (ops/structured.h), functional only: linalg_eigvalsh (the
 * eigenvalues (*, n)) and _linalg_eigh_vectors (the eigenvectors (*, n, n)) */
static ct_status ct__mx_eigh_meta(ct__structured *st, ct_tensor *A, const char *uplo, int vectors) {
  static const char *op = "linalg.eigh";
  if (ct__mx_check_square(op, A, "A") != CT_OK || !ct__mx_uplo(uplo)) return ct_last_error();
  if (A->dtype != CT_F32 && A->dtype != CT_F64)
    return ct_fail(CT_ERR_DTYPE, op, "\"linalg_eigh_cpu\" not implemented for '%s'", ct__dtype_torch_name((ct_dtype)A->dtype));
  return ct__set_output(st, 0, A->ndim - !vectors, A->sizes, (ct_dtype)A->dtype, A->device);
}
static ct_status ct__meta_linalg_eigvalsh(ct__structured *st, ct_tensor *A, const char *UPLO) { return ct__mx_eigh_meta(st, A, UPLO, 0); }
static ct_status ct__meta_linalg_eigh_vectors(ct__structured *st, ct_tensor *A, const char *UPLO) { return ct__mx_eigh_meta(st, A, UPLO, 1); }
/* The eigenvalues (into r) or the eigenvectors (into vt) of each symmetric matrix of A, read from its lower (L) or upper (U) triangle */
static ct_status ct__mx_eigh(ct_tensor *A, const char *uplo, ct_tensor *r, ct_tensor *vt) {
  static const char *op = "linalg.eigh";
  int64_t n, nA, b, i, j;
  double *work = NULL, *a, *w, *v;
  int nb = A->ndim - 2, tri = ct__mx_uplo(uplo);
  n = A->sizes[nb];
  nA = ct__mx_prod(nb, A->sizes);
  if (nA == 0 || n == 0) return CT_OK;
  if (!(work = ct__mx_alloc(op, 2.0 * (double)n * (double)n + (double)n))) return ct_last_error();
  a = work, v = work + n * n, w = v + n * n;
  for (b = 0; b < nA; b++) {
    int finite = 1;
    ct__mx_load(A, ct__mx_batch_offset(A, nb, nb, A->sizes, b), A->strides[nb], A->strides[nb + 1], n, n, a);
    for (i = 0; i < n; i++) /* the other triangle mirrors the one read */
      for (j = 0; j < i; j++) {
        if (tri == 'L') a[j * n + i] = a[i * n + j];
        else a[i * n + j] = a[j * n + i];
      }
    for (i = 0; i < n * n; i++) finite &= isfinite(a[i]) != 0;
    if (finite) {
      ct__mx_eigh_jacobi(n, a, w, vt ? v : NULL);
      for (j = 0; vt && j < n; j++) { /* a sign of ctorch's own: each vector's largest |component| (the first on ties) positive */
        int64_t best = 0;
        for (i = 1; i < n; i++)
          if (fabs(v[i * n + j]) > fabs(v[best * n + j])) best = i;
        if (v[best * n + j] < 0)
          for (i = 0; i < n; i++) v[i * n + j] = -v[i * n + j];
      }
    } else { /* NaN, as LAPACK gives for an infinity */
      for (i = 0; i < n; i++) w[i] = NAN;
      for (i = 0; i < n * n; i++) v[i] = NAN;
    }
    if (r) ct__mx_store(r, b * n, 1, 0, n, 1, w);
    if (vt) ct__mx_store(vt, b * n * n, n, 1, n, n, v);
  }
  ct__workspace_free(work);
  return CT_OK;
}
static ct_status ct__impl_linalg_eigvalsh(ct_tensor *A, const char *UPLO, ct_tensor *out) { return ct__mx_eigh(A, UPLO, out, NULL); }
static ct_status ct__impl_linalg_eigh_vectors(ct_tensor *A, const char *UPLO, ct_tensor *out) { return ct__mx_eigh(A, UPLO, NULL, out); }

/* ---- cross product along a dim of size 3 ---- */
#define CT__MX_CROSS_FLOAT(sfx, T, ACC, LOAD, STORE)                                                                   \
  static void ct__mx_cross_##sfx(const char *a, const char *b, char *o, int64_t as, int64_t bs, int64_t os) {          \
    const T *x = (const T *)a, *y = (const T *)b;                                                                     \
    T *z = (T *)o;                                                                                                    \
    ACC x0 = (ACC)LOAD(x[0]), x1 = (ACC)LOAD(x[as]), x2 = (ACC)LOAD(x[2 * as]);                                       \
    ACC y0 = (ACC)LOAD(y[0]), y1 = (ACC)LOAD(y[bs]), y2 = (ACC)LOAD(y[2 * bs]);                                       \
    /* each product rounded to T, then the difference: PyTorch's arithmetic in T */                                 \
    z[0] = STORE((ACC)LOAD(STORE(x1 * y2)) - (ACC)LOAD(STORE(x2 * y1)));                                              \
    z[os] = STORE((ACC)LOAD(STORE(x2 * y0)) - (ACC)LOAD(STORE(x0 * y2)));                                             \
    z[2 * os] = STORE((ACC)LOAD(STORE(x0 * y1)) - (ACC)LOAD(STORE(x1 * y0)));                                         \
  }
CT__MX_CROSS_FLOAT(f32, float, float, CT__LOAD_ID, CT__STORE_ID)
CT__MX_CROSS_FLOAT(f64, double, double, CT__LOAD_ID, CT__STORE_ID)
CT__MX_CROSS_FLOAT(bf16, uint16_t, float, CT__LOAD_BF16, CT__STORE_BF16) /* (half: refused, as PyTorch's CPU) */
#define CT__MX_CROSS_INT(sfx, T, U)                                                                                    \
  static void ct__mx_cross_##sfx(const char *a, const char *b, char *o, int64_t as, int64_t bs, int64_t os) {          \
    const T *x = (const T *)a, *y = (const T *)b;                                                                     \
    T *z = (T *)o;                                                                                                    \
    uint64_t x0 = (uint64_t)x[0], x1 = (uint64_t)x[as], x2 = (uint64_t)x[2 * as];                                     \
    uint64_t y0 = (uint64_t)y[0], y1 = (uint64_t)y[bs], y2 = (uint64_t)y[2 * bs];                                     \
    z[0] = (T)(x1 * y2 - x2 * y1); /* wrapping, as PyTorch's integer arithmetic */                                  \
    z[os] = (T)(x2 * y0 - x0 * y2);                                                                                   \
    z[2 * os] = (T)(x0 * y1 - x1 * y0);                                                                               \
  }
CT__INT_TYPES(CT__MX_CROSS_INT)
typedef void (*ct__mx_cross_fn)(const char *, const char *, char *, int64_t, int64_t, int64_t);
/* in ct_dtype order: f32 f64 f16 bf16 i64 i32 u8 bool; half and bool are refused, as PyTorch's CPU */
static const ct__mx_cross_fn ct__mx_cross_loops[CT_DTYPE_NUM] = {ct__mx_cross_f32, ct__mx_cross_f64, NULL, ct__mx_cross_bf16,
                                                                ct__mx_cross_i64, ct__mx_cross_i32, ct__mx_cross_u8, NULL};

/* structured (ops/structured.h), functional only */
static ct_status ct__meta_linalg_cross(ct__structured *st, ct_tensor *self, ct_tensor *other, int64_t dim) {
  static const char *op = "linalg.cross";
  int64_t shape[CT_MAX_DIMS], d;
  int nd;
  if (self->ndim != other->ndim) return ct_fail(CT_ERR_RANK, op, "inputs must have the same number of dimensions.");
  if (self->ndim == 0) return ct_fail(CT_ERR_INDEX, op, "Dimension specified as %lld but tensor has no dimensions", (long long)dim);
  if ((d = ct__wrap_dim(op, dim, self->ndim)) < 0) return ct_last_error();
  if (self->sizes[d] != 3 || other->sizes[d] != 3)
    return ct_fail(CT_ERR_SHAPE, op, "inputs dimension %lld must have length 3. Got %lld and %lld", (long long)dim,
                   (long long)self->sizes[d], (long long)other->sizes[d]);
  if ((nd = ct_broadcast_shapes(op, self->ndim, self->sizes, other->ndim, other->sizes, shape)) < 0) return ct_last_error();
  if (self->dtype != other->dtype)
    return ct_fail(CT_ERR_DTYPE, op, "expected scalar type %s but found %s", ct__dtype_torch_name((ct_dtype)self->dtype),
                   ct__dtype_torch_name((ct_dtype)other->dtype));
  if (!ct__mx_cross_loops[self->dtype])
    return ct_fail(CT_ERR_DTYPE, op, "\"cross\" not implemented for '%s'", ct__dtype_torch_name((ct_dtype)self->dtype));
  return ct__set_output(st, 0, nd, shape, (ct_dtype)self->dtype, self->device);
}
static ct_status ct__impl_linalg_cross(ct_tensor *self, ct_tensor *other, int64_t dim, ct_tensor *r) {
  int64_t idx[CT_MAX_DIMS], d, count, e;
  int nd = r->ndim, i;
  const char *pa = (const char *)ct_data_ptr(self), *pb = (const char *)ct_data_ptr(other);
  char *po = (char *)ct_data_ptr(r);
  int64_t es = (int64_t)ct_dtype_size((ct_dtype)self->dtype);
  if (r->numel == 0) return CT_OK;
  d = dim < 0 ? dim + nd : dim; /* (checked by the meta step) */
  count = r->numel / 3;
  for (i = 0; i < nd; i++) idx[i] = 0;
  for (e = 0; e < count; e++) { /* every position with index 0 along d */
    int64_t oa = 0, ob = 0, oo = 0;
    for (i = 0; i < nd; i++) {
      if (self->sizes[i] != 1) oa += idx[i] * self->strides[i];
      if (other->sizes[i] != 1) ob += idx[i] * other->strides[i];
      oo += idx[i] * r->strides[i];
    }
    ct__mx_cross_loops[self->dtype](pa + oa * es, pb + ob * es, po + oo * es, self->strides[d], other->strides[d], r->strides[d]);
    for (i = nd - 1; i >= 0; i--) { /* next index, skipping d */
      if (i == d) continue;
      if (++idx[i] < r->sizes[i]) break;
      idx[i] = 0;
    }
  }
  return CT_OK;
}

/* ================= composite kernels (CompositeImplicitAutograd) ================= */

/* cross: dim None is the first dim of self of size 3 (PyTorch's deprecated default) */
static ct_tensor *ct__k_cross(ct_keyset ks, ct_tensor *self, ct_tensor *other, int64_t dim) {
  int i;
  (void)ks;
  if (dim == CT_INT_NONE) {
    for (i = 0; i < self->ndim && self->sizes[i] != 3; i++) {
    }
    if (i == self->ndim) return ct_fail(CT_ERR_SHAPE, "cross", "no dimension of size 3 in input"), (ct_tensor *)NULL;
    dim = i;
  }
  return ct_linalg_cross_ex(self, other, dim);
}
static ct_status ct__k_cross_out(ct_keyset ks, ct_tensor *self, ct_tensor *other, int64_t dim, ct_tensor *out) {
  ct_tensor *in[3];
  in[0] = self, in[1] = other, in[2] = out;
  return ct__la_out_grad_ok("cross", in, 3) ? ct__la_into_out("cross", ct__k_cross(ks, self, other, dim), out) : ct_last_error();
}
static ct_status ct__k_linalg_cross_out(ct_keyset ks, ct_tensor *self, ct_tensor *other, int64_t dim, ct_tensor *out) {
  ct_tensor *in[3];
  (void)ks;
  in[0] = self, in[1] = other, in[2] = out;
  return ct__la_out_grad_ok("linalg.cross", in, 3) ? ct__la_into_out("linalg.cross", ct_linalg_cross_ex(self, other, dim), out)
                                                    : ct_last_error();
}

static ct_tensor *ct__k_det(ct_keyset ks, ct_tensor *self) {
  (void)ks;
  return ct_linalg_det(self);
}
static ct_status ct__k_linalg_det_out(ct_keyset ks, ct_tensor *A, ct_tensor *out) {
  ct_tensor *in[2];
  (void)ks;
  in[0] = A, in[1] = out;
  return ct__la_out_grad_ok("linalg.det", in, 2) ? ct__la_into_out("linalg.det", ct_linalg_det(A), out) : ct_last_error();
}

/* Two results into two out= tensors (the tuple out= forms); takes r0 and r1 */
static ct_status ct__mx_into_out2(const char *op, ct_tensor *r0, ct_tensor *r1, ct_tensor *o0, ct_tensor *o1, const char *n0,
                                  const char *n1) {
  ct_tensor *src[2], *dst[2];
  const char *names[2];
  ct_status st = CT_OK;
  int k;
  if (!r0 || !r1) {
    ct_release(r0);
    ct_release(r1);
    return ct_last_error();
  }
  src[0] = r0, src[1] = r1, dst[0] = o0, dst[1] = o1, names[0] = n0, names[1] = n1;
  for (k = 0; k < 2 && st == CT_OK; k++) {
    if (dst[k]->dtype != src[k]->dtype)
      st = ct_fail(CT_ERR_DTYPE, op, "Expected out tensor %s to have dtype %s, but got %s instead", names[k],
                   ct_dtype_name((ct_dtype)src[k]->dtype), ct_dtype_name((ct_dtype)dst[k]->dtype));
    else if (!ct__out_device_ok(op, dst[k], src[k]->device))
      st = ct_last_error();
    else
      st = ct__check_writable(op, dst[k]);
  }
  if (st == CT_OK && dst[0]->storage == dst[1]->storage) st = ct_fail(CT_ERR_INVALID, op, "the %s and %s outs must not share memory", n0, n1);
  for (k = 0; k < 2 && st == CT_OK; k++) {
    st = ct__resize_out(op, dst[k], src[k]->ndim, src[k]->sizes);
    if (st == CT_OK && !ct__is_meta(dst[k]) && dst[k]->numel) st = ct__copy_impl(dst[k], src[k]);
    if (st == CT_OK) ct__bump_version(dst[k]);
  }
  ct_release(r0);
  ct_release(r1);
  return st;
}

/* slogdet: (sign, logabsdet) from _linalg_logabsdet's (logabsdet, sign) */
static ct_tensor *ct__k_linalg_slogdet(ct_keyset ks, ct_tensor *A, ct_tensor **logabsdet) {
  ct_tensor *sign = NULL, *l;
  (void)ks;
  l = ct_linalg_logabsdet(A, &sign);
  if (logabsdet) *logabsdet = l;
  else ct_release(l);
  return sign;
}
static ct_tensor *ct__k_slogdet(ct_keyset ks, ct_tensor *self, ct_tensor **logabsdet) { return ct__k_linalg_slogdet(ks, self, logabsdet); }
static ct_status ct__k_linalg_slogdet_out(ct_keyset ks, ct_tensor *A, ct_tensor *sign, ct_tensor *logabsdet) {
  ct_tensor *in[3], *l = NULL, *s;
  in[0] = A, in[1] = sign, in[2] = logabsdet;
  if (!ct__la_out_grad_ok("linalg.slogdet", in, 3)) return ct_last_error();
  s = ct__k_linalg_slogdet(ks, A, &l);
  return ct__mx_into_out2("linalg.slogdet", s, l, sign, logabsdet, "sign", "logabsdet");
}
static ct_status ct__k_slogdet_out(ct_keyset ks, ct_tensor *self, ct_tensor *sign, ct_tensor *logabsdet) {
  return ct__k_linalg_slogdet_out(ks, self, sign, logabsdet);
}

/* inv and solve: the _ex forms, then the error of the first failed matrix */
static ct_tensor *ct__mx_checked(const char *op, ct_tensor *r, ct_tensor *info, char kind) {
  ct_status st = r ? ct__mx_check_info(op, info, kind) : ct_last_error();
  ct_release(info);
  if (st != CT_OK) {
    ct_release(r);
    return NULL;
  }
  return r;
}
static ct_tensor *ct__k_linalg_inv(ct_keyset ks, ct_tensor *A) {
  ct_tensor *info = NULL, *r;
  (void)ks;
  r = ct_linalg_inv_ex(A, false, &info);
  return ct__mx_checked("linalg.inv", r, info, 'i');
}
static ct_tensor *ct__k_inverse(ct_keyset ks, ct_tensor *self) { return ct__k_linalg_inv(ks, self); }
static ct_status ct__k_linalg_inv_out(ct_keyset ks, ct_tensor *A, ct_tensor *out) {
  ct_tensor *in[2];
  in[0] = A, in[1] = out;
  return ct__la_out_grad_ok("linalg.inv", in, 2) ? ct__la_into_out("linalg.inv", ct__k_linalg_inv(ks, A), out) : ct_last_error();
}
static ct_status ct__k_inverse_out(ct_keyset ks, ct_tensor *self, ct_tensor *out) { return ct__k_linalg_inv_out(ks, self, out); }
static ct_status ct__k_linalg_inv_ex_out(ct_keyset ks, ct_tensor *A, bool check_errors, ct_tensor *inverse, ct_tensor *info) {
  ct_tensor *in[3], *i = NULL, *r;
  (void)ks;
  in[0] = A, in[1] = inverse, in[2] = info;
  if (!ct__la_out_grad_ok("linalg.inv_ex", in, 3)) return ct_last_error();
  r = ct_linalg_inv_ex(A, check_errors, &i);
  return ct__mx_into_out2("linalg.inv_ex", r, i, inverse, info, "inverse", "info");
}

static ct_tensor *ct__k_linalg_solve(ct_keyset ks, ct_tensor *A, ct_tensor *B, bool left) {
  ct_tensor *info = NULL, *r;
  (void)ks;
  r = ct_linalg_solve_ex(A, B, left, false, &info);
  return ct__mx_checked("torch.linalg.solve", r, info, 's');
}
static ct_status ct__k_linalg_solve_out(ct_keyset ks, ct_tensor *A, ct_tensor *B, bool left, ct_tensor *out) {
  ct_tensor *in[3];
  in[0] = A, in[1] = B, in[2] = out;
  return ct__la_out_grad_ok("linalg.solve", in, 3) ? ct__la_into_out("linalg.solve", ct__k_linalg_solve(ks, A, B, left), out)
                                                    : ct_last_error();
}
static ct_status ct__k_linalg_solve_ex_out(ct_keyset ks, ct_tensor *A, ct_tensor *B, bool left, bool check_errors, ct_tensor *result,
                                          ct_tensor *info) {
  ct_tensor *in[4], *i = NULL, *r;
  (void)ks;
  in[0] = A, in[1] = B, in[2] = result, in[3] = info;
  if (!ct__la_out_grad_ok("linalg.solve_ex", in, 4)) return ct_last_error();
  r = ct_linalg_solve_ex(A, B, left, check_errors, &i);
  return ct__mx_into_out2("linalg.solve_ex", r, i, result, info, "result", "info");
}

/* cholesky: linalg_cholesky_ex, then the error of the first matrix that is not positive-definite */
static ct_tensor *ct__k_linalg_cholesky(ct_keyset ks, ct_tensor *A, bool upper) {
  ct_tensor *info = NULL, *r;
  (void)ks;
  r = ct_linalg_cholesky_ex(A, upper, false, &info);
  return ct__mx_checked("linalg.cholesky", r, info, 'c');
}
static ct_status ct__k_linalg_cholesky_out(ct_keyset ks, ct_tensor *A, bool upper, ct_tensor *out) {
  ct_tensor *in[2];
  in[0] = A, in[1] = out;
  return ct__la_out_grad_ok("linalg.cholesky", in, 2) ? ct__la_into_out("linalg.cholesky", ct__k_linalg_cholesky(ks, A, upper), out)
                                                       : ct_last_error();
}
static ct_status ct__k_linalg_cholesky_ex_out(ct_keyset ks, ct_tensor *A, bool upper, bool check_errors, ct_tensor *L, ct_tensor *info) {
  ct_tensor *in[3], *i = NULL, *r;
  (void)ks;
  in[0] = A, in[1] = L, in[2] = info;
  if (!ct__la_out_grad_ok("linalg.cholesky_ex", in, 3)) return ct_last_error();
  r = ct_linalg_cholesky_ex(A, upper, check_errors, &i);
  return ct__mx_into_out2("linalg.cholesky_ex", r, i, L, info, "L", "info");
}
/* torch.cholesky (deprecated): its own names in the messages, and an empty
 * input comes back as it is (PyTorch returns empty_like before any check) */
static ct_tensor *ct__k_cholesky(ct_keyset ks, ct_tensor *self, bool upper) {
  ct_tensor *info = NULL, *r;
  (void)ks;
  if (self->numel == 0) return ct_clone(self);
  if (ct__mx_check_square("cholesky", self, "A") != CT_OK) return NULL;
  if (self->dtype != CT_F32 && self->dtype != CT_F64)
    return ct_fail(CT_ERR_DTYPE, "cholesky", "\"cholesky_cpu\" not implemented for '%s'", ct__dtype_torch_name((ct_dtype)self->dtype)),
           (ct_tensor *)NULL;
  r = ct_linalg_cholesky_ex(self, upper, false, &info);
  return ct__mx_checked("cholesky", r, info, 'c');
}
static ct_status ct__k_cholesky_out(ct_keyset ks, ct_tensor *self, bool upper, ct_tensor *out) {
  ct_tensor *in[2];
  in[0] = self, in[1] = out;
  return ct__la_out_grad_ok("cholesky", in, 2) ? ct__la_into_out("cholesky", ct__k_cholesky(ks, self, upper), out) : ct_last_error();
}

static ct_tensor *ct__k_matrix_exp(ct_keyset ks, ct_tensor *self) {
  (void)ks;
  return ct_linalg_matrix_exp(self);
}
static ct_status ct__k_linalg_matrix_exp_out(ct_keyset ks, ct_tensor *self, ct_tensor *out) {
  ct_tensor *in[2];
  (void)ks;
  in[0] = self, in[1] = out;
  return ct__la_out_grad_ok("linalg.matrix_exp", in, 2) ? ct__la_into_out("linalg.matrix_exp", ct_linalg_matrix_exp(self), out)
                                                         : ct_last_error();
}

/* matrix_power: PyTorch's composite (so its gradient comes from matmul and
 * inv): n = 0 the identity written over a copy of A (a zero gradient, as
 * PyTorch's copy_), 1 a copy, -1 inv, else binary powering of A or inv(A) */
static ct_tensor *ct__k_linalg_matrix_power(ct_keyset ks, ct_tensor *self, int64_t n) {
  ct_tensor *r = NULL;
  (void)ks;
  if (ct__mx_check_square("linalg.matrix_power", self, "A") != CT_OK) return NULL;
  if (n == 0) {
    CT_SCOPE {
      ct_tensor *c = ct_contiguous(ct_clone(self)), *eye = ct_eye_ex(self->sizes[self->ndim - 1], (ct_dtype)self->dtype, self->device);
      if (c && eye && ct_copy_(c, eye) == CT_OK) r = ct_keep(c);
    }
    return r;
  }
  if (n == 1) return ct_clone(self);
  if (n == -1) return ct_linalg_inv(self);
  CT_SCOPE {
    ct_tensor *a = n < 0 ? ct_linalg_inv(self) : self, *z = NULL, *acc = NULL;
    uint64_t m = n < 0 ? (uint64_t)0 - (uint64_t)n : (uint64_t)n; /* (INT64_MIN too) */
    if (a && m == 2) {
      acc = ct_matmul(a, a);
    } else if (a && m == 3) {
      acc = ct_matmul(ct_matmul(a, a), a);
    } else {
      while (a && m > 0) { /* the bits of m from the least significant */
        int bit = (int)(m & 1);
        m >>= 1;
        z = z ? ct_matmul(z, z) : a;
        if (bit) acc = acc ? ct_matmul(acc, z) : z;
        if (!z || (bit && !acc)) break;
      }
    }
    r = ct_keep(acc);
  }
  return r;
}
static ct_tensor *ct__k_matrix_power(ct_keyset ks, ct_tensor *self, int64_t n) { return ct__k_linalg_matrix_power(ks, self, n); }
static ct_status ct__k_linalg_matrix_power_out(ct_keyset ks, ct_tensor *self, int64_t n, ct_tensor *out) {
  ct_tensor *in[2];
  in[0] = self, in[1] = out;
  return ct__la_out_grad_ok("linalg.matrix_power", in, 2)
             ? ct__la_into_out("linalg.matrix_power", ct__k_linalg_matrix_power(ks, self, n), out)
             : ct_last_error();
}
static ct_status ct__k_matrix_power_out(ct_keyset ks, ct_tensor *self, int64_t n, ct_tensor *out) {
  return ct__k_linalg_matrix_power_out(ks, self, n, out);
}

/* ---- matrix norms: PyTorch's composites over linalg_vector_norm, amax/amin and linalg_svdvals ---- */
static ct_status ct__mx_norm_checks(ct_tensor *A, ct_int_list dim, int64_t d[2], ct_dtype dtype, int low_precision) {
  static const char *op = "linalg.matrix_norm";
  char buf[160];
  if (ct__mx_check_matrix(op, A, "A") != CT_OK) return ct_last_error();
  if ((A->dtype == CT_F16 || A->dtype == CT_BF16) && !low_precision)
    return ct_fail(CT_ERR_DTYPE, op, "Low precision dtypes not supported. Got %s", ct__dtype_torch_name((ct_dtype)A->dtype));
  if (A->dtype != CT_F16 && A->dtype != CT_BF16 && ct__mx_check_float(op, A, 0) != CT_OK) return ct_last_error();
  if (dim.n != 2 || !dim.data)
    return ct_fail(CT_ERR_INVALID, op, "dim must be a 2-tuple. Got %s", ct__ints_str(buf, sizeof buf, dim.data, dim.n < 0 ? 0 : dim.n));
  if ((d[0] = ct__wrap_dim(op, dim.data[0], A->ndim)) < 0 || (d[1] = ct__wrap_dim(op, dim.data[1], A->ndim)) < 0) return ct_last_error();
  if (d[0] == d[1]) return ct_fail(CT_ERR_INVALID, op, "dims must be different. Got (%lld, %lld)", (long long)d[0], (long long)d[1]);
  if (dtype != CT_DTYPE_NONE && !ct_dtype_is_floating(dtype))
    return ct_fail(CT_ERR_DTYPE, op, "dtype should be floating point or complex, but got %s", ct__dtype_torch_name(dtype));
  if (dtype != CT_DTYPE_NONE && ct_promote_types((ct_dtype)A->dtype, dtype) != dtype)
    return ct_fail(CT_ERR_DTYPE, op, "the dtype of the input (%s) should be convertible without narrowing to the specified dtype (%s)",
                   ct__dtype_torch_name((ct_dtype)A->dtype), ct__dtype_torch_name(dtype));
  return CT_OK;
}
/* kind: 'f' Frobenius, 'n' nuclear, 'o' the order ord (+-1, +-2, +-inf) */
static ct_tensor *ct__mx_matrix_norm(ct_tensor *A, char kind, double ord, ct_int_list dim, bool keepdim, ct_dtype dtype) {
  int spectral = kind == 'n' || (kind == 'o' && fabs(ord) == 2);
  int64_t d[2];
  ct_tensor *r = NULL;
  if (ct__mx_norm_checks(A, dim, d, dtype, !spectral) != CT_OK) return NULL;
  CT_SCOPE {
    ct_tensor *x = NULL;
    if (kind == 'f') {
      x = ct_linalg_vector_norm_ex(A, ct_int(2), 2, d, keepdim, dtype);
    } else if (spectral) { /* the two dims moved to the end; the singular values reduced */
      int64_t perm[CT_MAX_DIMS], rev[CT_MAX_DIMS], last = -1;
      int i, k = 0;
      ct_tensor *sv;
      for (i = 0; i < A->ndim; i++)
        if (i != d[0] && i != d[1]) perm[k++] = i;
      perm[k++] = d[0], perm[k++] = d[1];
      for (i = 0; i < A->ndim; i++) rev[perm[i]] = i;
      sv = ct_linalg_svdvals(ct_permute(dtype != CT_DTYPE_NONE ? ct_to_dtype(A, dtype) : A, A->ndim, perm));
      x = kind == 'n' ? ct_sum_dim(sv, 1, &last, keepdim) : ord > 0 ? ct_amax(sv, 1, &last, keepdim) : ct_amin(sv, 1, &last, keepdim);
      if (keepdim && x) x = ct_permute(ct_unsqueeze(x, -1), A->ndim, rev);
    } else { /* +-1: the largest / smallest column sum of |A|; +-inf: the same over rows */
      int64_t d0 = isinf(ord) ? d[1] : d[0], d1 = isinf(ord) ? d[0] : d[1];
      if (!keepdim && d0 < d1) d1--;
      x = ct_linalg_vector_norm_ex(A, ct_int(1), 1, &d0, keepdim, dtype);
      x = ord > 0 ? ct_amax(x, 1, &d1, keepdim) : ct_amin(x, 1, &d1, keepdim);
    }
    r = ct_keep(x);
  }
  return r;
}
static ct_tensor *ct__k_linalg_matrix_norm(ct_keyset ks, ct_tensor *A, ct_scalar ord, ct_int_list dim, bool keepdim, ct_dtype dtype) {
  double o = ct_scalar_to_double(ord);
  (void)ks;
  if (!(fabs(o) == 1 || fabs(o) == 2 || isinf(o)))
    return ct_fail(CT_ERR_INVALID, "linalg.matrix_norm", "Order %g not supported.", o), (ct_tensor *)NULL;
  return ct__mx_matrix_norm(A, 'o', o, dim, keepdim, dtype);
}
static ct_tensor *ct__k_linalg_matrix_norm_str(ct_keyset ks, ct_tensor *A, const char *ord, ct_int_list dim, bool keepdim,
                                               ct_dtype dtype) {
  (void)ks;
  if (!ord) ord = "fro";
  if (strcmp(ord, "fro") && strcmp(ord, "nuc"))
    return ct_fail(CT_ERR_INVALID, "linalg.matrix_norm", "Order %s not supported.", ord), (ct_tensor *)NULL;
  return ct__mx_matrix_norm(A, ord[0], 0, dim, keepdim, dtype);
}
static ct_status ct__k_linalg_matrix_norm_out(ct_keyset ks, ct_tensor *A, ct_scalar ord, ct_int_list dim, bool keepdim, ct_dtype dtype,
                                              ct_tensor *out) {
  ct_tensor *in[2];
  in[0] = A, in[1] = out;
  return ct__la_out_grad_ok("linalg.matrix_norm", in, 2)
             ? ct__la_into_out("linalg.matrix_norm", ct__k_linalg_matrix_norm(ks, A, ord, dim, keepdim, dtype), out)
             : ct_last_error();
}
static ct_status ct__k_linalg_matrix_norm_str_out(ct_keyset ks, ct_tensor *A, const char *ord, ct_int_list dim, bool keepdim,
                                                  ct_dtype dtype, ct_tensor *out) {
  ct_tensor *in[2];
  in[0] = A, in[1] = out;
  return ct__la_out_grad_ok("linalg.matrix_norm", in, 2)
             ? ct__la_into_out("linalg.matrix_norm", ct__k_linalg_matrix_norm_str(ks, A, ord, dim, keepdim, dtype), out)
             : ct_last_error();
}
static ct_status ct__k_linalg_svdvals_out(ct_keyset ks, ct_tensor *A, const char *driver, ct_tensor *out) {
  ct_tensor *in[2];
  (void)ks;
  in[0] = A, in[1] = out;
  return ct__la_out_grad_ok("linalg.svdvals", in, 2) ? ct__la_into_out("linalg.svdvals", ct_linalg_svdvals_ex(A, driver), out)
                                                      : ct_last_error();
}

/* linalg_norm: a matrix norm when ord is given with two dims (or none, of a 2-D
 * self), else a vector norm (ord None: 2, which is also Frobenius) */
static ct_status ct__mx_norm_dim_check(ct_tensor *X, ct_int_list dim, int ord_given, const char *must) {
  char buf[160];
  if (dim.data && dim.n != 1 && dim.n != 2)
    return ct_fail(CT_ERR_INVALID, "linalg.norm", "If dim is specified, it %s be of length 1 or 2. Got %s", must,
                   ct__ints_str(buf, sizeof buf, dim.data, dim.n));
  if (!dim.data && ord_given && X->ndim != 1 && X->ndim != 2)
    return ct_fail(CT_ERR_RANK, "linalg.norm", "If dim is not specified but ord is, the input must be 1D or 2D. Got %dD.", X->ndim);
  return CT_OK;
}
static ct_tensor *ct__k_linalg_norm(ct_keyset ks, ct_tensor *X, ct_scalar ord, ct_int_list dim, bool keepdim, ct_dtype dtype) {
  int ord_given = ord.kind != CT_SCALAR_NONE;
  static const int64_t dims01[2] = {0, 1};
  (void)ks;
  if (ct__mx_norm_dim_check(X, dim, ord_given, "must") != CT_OK) return NULL;
  if (ord_given && (dim.data ? dim.n == 2 : X->ndim == 2))
    return ct_linalg_matrix_norm_ex(X, ord, 2, dim.data ? dim.data : dims01, keepdim, dtype);
  return ct_linalg_vector_norm_ex(X, ord_given ? ord : ct_float(2), dim.data ? (int)dim.n : 0, dim.data, keepdim, dtype);
}
static ct_tensor *ct__k_linalg_norm_str(ct_keyset ks, ct_tensor *X, const char *ord, ct_int_list dim, bool keepdim, ct_dtype dtype) {
  static const int64_t dims01[2] = {0, 1};
  (void)ks;
  if (ct__mx_norm_dim_check(X, dim, 1, "mut") != CT_OK) return NULL; /* (PyTorch's spelling) */
  return ct_linalg_matrix_norm_str_ex(X, ord, dim.data ? (int)dim.n : 2, dim.data ? dim.data : dims01, keepdim, dtype);
}
static ct_status ct__k_linalg_norm_out(ct_keyset ks, ct_tensor *X, ct_scalar ord, ct_int_list dim, bool keepdim, ct_dtype dtype,
                                       ct_tensor *out) {
  ct_tensor *in[2];
  in[0] = X, in[1] = out;
  return ct__la_out_grad_ok("linalg.norm", in, 2) ? ct__la_into_out("linalg.norm", ct__k_linalg_norm(ks, X, ord, dim, keepdim, dtype), out)
                                                   : ct_last_error();
}
static ct_status ct__k_linalg_norm_str_out(ct_keyset ks, ct_tensor *X, const char *ord, ct_int_list dim, bool keepdim, ct_dtype dtype,
                                           ct_tensor *out) {
  ct_tensor *in[2];
  in[0] = X, in[1] = out;
  return ct__la_out_grad_ok("linalg.norm", in, 2)
             ? ct__la_into_out("linalg.norm", ct__k_linalg_norm_str(ks, X, ord, dim, keepdim, dtype), out)
             : ct_last_error();
}

/* eigh: eigenvalues and eigenvectors from two ops, each with its own formula:
 * a gradient is linear in (gL, gV), so the two nodes' sum is eigh's */
static ct_tensor *ct__k_linalg_eigh(ct_keyset ks, ct_tensor *A, const char *UPLO, ct_tensor **eigenvectors) {
  ct_tensor *L;
  (void)ks;
  if (eigenvectors) *eigenvectors = NULL;
  L = ct_linalg_eigvalsh(A, UPLO);
  if (L && eigenvectors && !(*eigenvectors = ct_linalg_eigh_vectors(A, UPLO))) {
    ct_release(L);
    return NULL;
  }
  return L;
}
static ct_status ct__k_linalg_eigh_out(ct_keyset ks, ct_tensor *A, const char *UPLO, ct_tensor *eigvals, ct_tensor *eigvecs) {
  ct_tensor *in[3], *V = NULL, *L;
  in[0] = A, in[1] = eigvals, in[2] = eigvecs;
  if (!ct__la_out_grad_ok("linalg.eigh", in, 3)) return ct_last_error();
  L = ct__k_linalg_eigh(ks, A, UPLO, &V);
  return ct__mx_into_out2("linalg.eigh", L, V, eigvals, eigvecs, "eigenvalues", "eigenvectors");
}
static ct_status ct__k_linalg_eigvalsh_out(ct_keyset ks, ct_tensor *A, const char *UPLO, ct_tensor *out) {
  ct_tensor *in[2];
  (void)ks;
  in[0] = A, in[1] = out;
  return ct__la_out_grad_ok("linalg.eigvalsh", in, 2) ? ct__la_into_out("linalg.eigvalsh", ct_linalg_eigvalsh(A, UPLO), out)
                                                       : ct_last_error();
}

/* svd: U, S and Vh from three ops, each with its own formula (as eigh) */
static ct_tensor *ct__k_linalg_svd(ct_keyset ks, ct_tensor *A, bool full_matrices, const char *driver, ct_tensor **S, ct_tensor **Vh) {
  ct_tensor *U;
  (void)ks;
  if (S) *S = NULL;
  if (Vh) *Vh = NULL;
  if (driver)
    return ct_fail(CT_ERR_INVALID, "torch.linalg.svd", "keyword argument `driver=` is only supported on CUDA inputs with cuSOLVER backend."),
           (ct_tensor *)NULL;
  U = ct_linalg_svd_U(A, full_matrices);
  if (U && S && !(*S = ct_linalg_svdvals(A))) {
    ct_release(U);
    return NULL;
  }
  if (U && Vh && !(*Vh = ct_linalg_svd_Vh(A, full_matrices))) {
    ct_release(U);
    if (S) ct_release(*S), *S = NULL;
    return NULL;
  }
  return U;
}
static ct_status ct__k_linalg_svd_out(ct_keyset ks, ct_tensor *A, bool full_matrices, const char *driver, ct_tensor *U, ct_tensor *S,
                                      ct_tensor *Vh) {
  ct_tensor *in[4], *s = NULL, *vh = NULL, *u;
  ct_status st;
  in[0] = A, in[1] = U, in[2] = S, in[3] = Vh;
  if (!ct__la_out_grad_ok("linalg.svd", in, 4)) return ct_last_error();
  u = ct__k_linalg_svd(ks, A, full_matrices, driver, &s, &vh);
  if (!u) return ct_last_error();
  if (U->storage == Vh->storage || S->storage == Vh->storage) {
    ct_release(u), ct_release(s), ct_release(vh);
    return ct_fail(CT_ERR_INVALID, "linalg.svd", "the U, S and Vh outs must not share memory");
  }
  st = ct__mx_into_out2("linalg.svd", u, s, U, S, "U", "S");
  if (st == CT_OK) return ct__la_into_out("linalg.svd", vh, Vh);
  ct_release(vh);
  return st;
}

/* torch.svd (deprecated): V instead of Vh; some = not full_matrices; compute_uv false: zero U (m x m) and V (n x n) */
static ct_tensor *ct__k_svd(ct_keyset ks, ct_tensor *self, bool some, bool compute_uv, ct_tensor **S, ct_tensor **V) {
  ct_tensor *U = NULL, *s = NULL, *v = NULL;
  (void)ks;
  if (S) *S = NULL;
  if (V) *V = NULL;
  if (self->ndim < 2)
    return ct_fail(CT_ERR_RANK, "linalg.svd", "input should have at least 2 dimensions, but has %d dimensions instead", self->ndim),
           (ct_tensor *)NULL;
  CT_SCOPE {
    ct_tensor *vh = NULL;
    if (compute_uv) {
      U = ct_linalg_svd_ex(self, !some, NULL, &s, &vh);
      v = vh ? ct__mx_mT(vh) : NULL;
    } else {
      int64_t sizes[CT_MAX_DIMS];
      int nd = self->ndim;
      memcpy(sizes, self->sizes, sizeof(int64_t) * (size_t)nd);
      s = ct_linalg_svdvals(self);
      sizes[nd - 1] = self->sizes[nd - 2];
      U = ct_zeros_ex(nd, sizes, (ct_dtype)self->dtype, self->device);
      sizes[nd - 2] = sizes[nd - 1] = self->sizes[nd - 1];
      v = ct_zeros_ex(nd, sizes, (ct_dtype)self->dtype, self->device);
    }
    if (U && s && v) {
      U = ct_keep(U), s = ct_keep(s), v = ct_keep(v);
    } else {
      U = s = v = NULL;
    }
  }
  if (!U) return NULL;
  if (S) *S = s;
  else ct_release(s);
  if (V) *V = v;
  else ct_release(v);
  return U;
}
static ct_status ct__k_svd_out(ct_keyset ks, ct_tensor *self, bool some, bool compute_uv, ct_tensor *U, ct_tensor *S, ct_tensor *V) {
  ct_tensor *in[4], *s = NULL, *v = NULL, *u;
  ct_status st;
  in[0] = self, in[1] = U, in[2] = S, in[3] = V;
  if (!ct__la_out_grad_ok("svd", in, 4)) return ct_last_error();
  u = ct__k_svd(ks, self, some, compute_uv, &s, &v);
  if (!u) return ct_last_error();
  if (U->storage == V->storage || S->storage == V->storage) {
    ct_release(u), ct_release(s), ct_release(v);
    return ct_fail(CT_ERR_INVALID, "svd", "the U, S and V outs must not share memory");
  }
  st = ct__mx_into_out2("svd", u, s, U, S, "U", "S");
  if (st == CT_OK) return ct__la_into_out("svd", v, V);
  ct_release(v);
  return st;
}

/* qr: Q and R from two ops, each with its own formula (as eigh) */
static ct_tensor *ct__k_linalg_qr(ct_keyset ks, ct_tensor *A, const char *mode, ct_tensor **R) {
  ct_tensor *Q;
  (void)ks;
  if (R) *R = NULL;
  Q = ct_linalg_qr_Q(A, mode);
  if (Q && R && !(*R = ct_linalg_qr_R(A, mode))) {
    ct_release(Q);
    return NULL;
  }
  return Q;
}
static ct_status ct__k_linalg_qr_out(ct_keyset ks, ct_tensor *A, const char *mode, ct_tensor *Q, ct_tensor *R) {
  ct_tensor *in[3], *r = NULL, *q;
  in[0] = A, in[1] = Q, in[2] = R;
  if (!ct__la_out_grad_ok("linalg.qr", in, 3)) return ct_last_error();
  q = ct__k_linalg_qr(ks, A, mode, &r);
  return ct__mx_into_out2("linalg.qr", q, r, Q, R, "Q", "R");
}

/* ---- pinv: PyTorch's algorithm, with its own formula (Golub and Pereyra's, as PyTorch) ----
 * Singular values (eigenvalues' magnitudes when hermitian) at most
 * max(atol, rtol * the largest) count as zero; rtol None: eps * max(m, n)
 * when atol is None or 0, else 0. atol and rtol are float64 tensors that
 * broadcast against the batch. */
static ct_tensor *ct__k_linalg_pinv_tol(ct_keyset ks, ct_tensor *A, ct_tensor *atol, ct_tensor *rtol, bool hermitian) {
  ct_tensor *r = NULL;
  char buf[160];
  (void)ks;
  if ((A->dtype != CT_F32 && A->dtype != CT_F64) || A->ndim < 2)
    return ct_fail(A->ndim < 2 ? CT_ERR_RANK : CT_ERR_DTYPE, "linalg.pinv",
                   "expected a tensor with 2 or more dimensions of float, double, cfloat or cdouble types (got %s%s)",
                   ct__dtype_torch_name((ct_dtype)A->dtype), ct_shape_format(A->ndim, A->sizes, buf, sizeof buf)),
           (ct_tensor *)NULL;
  CT_SCOPE {
    int64_t m = A->sizes[A->ndim - 2], n = A->sizes[A->ndim - 1];
    double eps = A->dtype == CT_F32 ? 1.1920928955078125e-07 : 2.220446049250313e-16;
    ct_tensor *zero = ct_scalar_tensor_ex(ct_float(0), CT_F64, A->device), *at, *rt, *S = NULL, *U = NULL, *Vh = NULL, *x = NULL;
    ct_tensor *dflt = ct_scalar_tensor_ex(ct_float(eps * (double)(m > n ? m : n)), CT_F64, A->device);
    at = atol ? atol : zero;
    rt = rtol ? rtol : atol ? ct_where(ct_gt_scalar(atol, ct_float(0)), zero, dflt) : dflt;
    if (A->numel == 0) { /* (no largest singular value to take) */
      U = ct_linalg_svd_ex(A, false, NULL, &S, &Vh);
      if (U) x = ct_matmul(ct_mul(ct__mx_mT(Vh), ct_unsqueeze(ct_reciprocal(S), -2)), ct__mx_mT(U));
    } else if (!hermitian) {
      U = ct_linalg_svd_ex(A, false, NULL, &S, &Vh);
      if (U) {
        ct_tensor *tol = ct_maximum(ct_unsqueeze(at, -1), ct_mul(ct_unsqueeze(rt, -1), ct_narrow(S, -1, 0, 1)));
        ct_tensor *sinv = ct_to_dtype(ct_where(ct_gt(S, tol), ct_reciprocal(S), ct_zeros_like(S)), (ct_dtype)A->dtype);
        x = ct_matmul(ct_mul(ct__mx_mT(Vh), ct_unsqueeze(sinv, -2)), ct__mx_mT(U));
      }
    } else {
      ct_tensor *V = NULL, *L = ct_linalg_eigh(A, "L", &V);
      if (L) {
        int64_t last = -1;
        ct_tensor *labs = ct_abs(L), *tol = ct_maximum(ct_unsqueeze(at, -1), ct_mul(ct_unsqueeze(rt, -1), ct_amax(labs, 1, &last, true)));
        ct_tensor *sinv = ct_to_dtype(ct_where(ct_gt(labs, tol), ct_reciprocal(L), ct_zeros_like(L)), (ct_dtype)A->dtype);
        x = ct_matmul(ct_mul(V, ct_unsqueeze(sinv, -2)), ct__mx_mT(V));
      }
    }
    r = ct_keep(x);
  }
  return r;
}
static ct_tensor *ct__mx_pinv_floats(ct_tensor *A, double atol, double rtol, bool hermitian) {
  ct_tensor *r = NULL;
  CT_SCOPE {
    ct_tensor *at = atol == atol ? ct_scalar_tensor_ex(ct_float(atol), CT_F64, A->device) : NULL;
    ct_tensor *rt = rtol == rtol ? ct_scalar_tensor_ex(ct_float(rtol), CT_F64, A->device) : NULL;
    r = ct_keep(ct_linalg_pinv_tol_ex(A, at, rt, hermitian));
  }
  return r;
}
static ct_tensor *ct__k_linalg_pinv(ct_keyset ks, ct_tensor *A, double atol, double rtol, bool hermitian) {
  (void)ks;
  return ct__mx_pinv_floats(A, atol, rtol, hermitian);
}
static ct_tensor *ct__k_linalg_pinv_rcond(ct_keyset ks, ct_tensor *A, double rcond, bool hermitian) {
  (void)ks;
  return ct__mx_pinv_floats(A, 0.0, rcond, hermitian);
}
static ct_tensor *ct__k_linalg_pinv_rcond_tensor(ct_keyset ks, ct_tensor *A, ct_tensor *rcond, bool hermitian) {
  ct_tensor *r = NULL;
  (void)ks;
  CT_SCOPE { r = ct_keep(ct_linalg_pinv_tol_ex(A, ct_scalar_tensor_ex(ct_float(0), CT_F64, A->device), rcond, hermitian)); }
  return r;
}
static ct_status ct__mx_pinv_out(ct_tensor *A, ct_tensor *r, ct_tensor *out) {
  ct_tensor *in[2];
  in[0] = A, in[1] = out;
  if (!ct__la_out_grad_ok("linalg.pinv", in, 2)) {
    ct_release(r);
    return ct_last_error();
  }
  return ct__la_into_out("linalg.pinv", r, out);
}
static ct_status ct__k_linalg_pinv_tol_out(ct_keyset ks, ct_tensor *A, ct_tensor *atol, ct_tensor *rtol, bool hermitian, ct_tensor *out) {
  (void)ks;
  return ct__mx_pinv_out(A, ct_linalg_pinv_tol_ex(A, atol, rtol, hermitian), out);
}
static ct_status ct__k_linalg_pinv_out(ct_keyset ks, ct_tensor *A, double atol, double rtol, bool hermitian, ct_tensor *out) {
  (void)ks;
  return ct__mx_pinv_out(A, ct__mx_pinv_floats(A, atol, rtol, hermitian), out);
}
static ct_status ct__k_linalg_pinv_rcond_out(ct_keyset ks, ct_tensor *A, double rcond, bool hermitian, ct_tensor *out) {
  (void)ks;
  return ct__mx_pinv_out(A, ct__mx_pinv_floats(A, 0.0, rcond, hermitian), out);
}
static ct_status ct__k_linalg_pinv_rcond_tensor_out(ct_keyset ks, ct_tensor *A, ct_tensor *rcond, bool hermitian, ct_tensor *out) {
  return ct__mx_pinv_out(A, ct__k_linalg_pinv_rcond_tensor(ks, A, rcond, hermitian), out);
}

/* lstsq: PyTorch's outputs per driver, with the solution pinv(A) B (the least-squares
 * solution of least norm: gelsy's, gelsd's and gelss's at full rank, and at an exact rank
 * deficit up to rounding; ctorch decides the rank by singular values <= rcond * the largest,
 * rcond None: eps * max(m, n)). The gradient comes through linalg_pinv, as PyTorch's formula.
 *   residuals: sum of squares of A X - B over its rows, when m > n, the driver is not gelsy,
 *              and (gelsd, gelss) every matrix has full rank; else empty
 *   rank: int64, A's batch (not gels); singular_values: A's (gelsd, gelss); else empty */
static ct_tensor *ct__k_linalg_lstsq(ct_keyset ks, ct_tensor *A, ct_tensor *B, double rcond, const char *driver, ct_tensor **residuals,
                                     ct_tensor **rank, ct_tensor **singular_values) {
  static const char *op = "torch.linalg.lstsq";
  ct_tensor *x = NULL, *res = NULL, *rk = NULL, *sv = NULL;
  int vec, gels, svd_driver;
  int64_t m, n, zero = 0;
  (void)ks;
  if (residuals) *residuals = NULL;
  if (rank) *rank = NULL;
  if (singular_values) *singular_values = NULL;
  if (A->ndim < 2) return ct_fail(CT_ERR_RANK, op, "input must have at least 2 dimensions."), (ct_tensor *)NULL;
  if (B->ndim < 1) return ct_fail(CT_ERR_RANK, op, "other must have at least 1 dimension."), (ct_tensor *)NULL;
  if (A->dtype != B->dtype)
    return ct_fail(CT_ERR_DTYPE, op, "Expected input and other to have the same dtype, but got input's dtype %s and other's dtype %s",
                   ct__dtype_torch_name((ct_dtype)A->dtype), ct__dtype_torch_name((ct_dtype)B->dtype)),
           (ct_tensor *)NULL;
  if (A->ndim < B->ndim || A->ndim - B->ndim > 1)
    return ct_fail(CT_ERR_RANK, op, "input.dim() must be greater or equal to other.dim() and (input.dim() - other.dim()) <= 1"),
           (ct_tensor *)NULL;
  vec = B->ndim == A->ndim - 1;
  m = A->sizes[A->ndim - 2], n = A->sizes[A->ndim - 1];
  if (B->sizes[B->ndim - (vec ? 1 : 2)] != m)
    return ct_fail(CT_ERR_SHAPE, op, "input.size(-2) should match other.size(%d)", vec ? -1 : -2), (ct_tensor *)NULL;
  if (driver && strcmp(driver, "gels") && strcmp(driver, "gelsy") && strcmp(driver, "gelsd") && strcmp(driver, "gelss"))
    return ct_fail(CT_ERR_INVALID, op, "parameter `driver` should be one of (gels, gelsy, gelsd, gelss)"), (ct_tensor *)NULL;
  if (A->dtype != CT_F32 && A->dtype != CT_F64)
    return ct_fail(CT_ERR_DTYPE, op, "This function doesn't handle types other than float and double"), (ct_tensor *)NULL;
  gels = driver && !strcmp(driver, "gels");
  svd_driver = driver && (!strcmp(driver, "gelsd") || !strcmp(driver, "gelss"));
  CT_SCOPE {
    double eps = A->dtype == CT_F32 ? 1.1920928955078125e-07 : 2.220446049250313e-16;
    double rc = rcond == rcond ? rcond : eps * (double)(m > n ? m : n);
    ct_tensor *rt = ct_scalar_tensor_ex(ct_float(gels ? 0.0 : rc), CT_F64, A->device);
    ct_tensor *Bm = vec ? ct_unsqueeze(B, -1) : B, *X = ct_matmul(ct_linalg_pinv_tol_ex(A, NULL, rt, false), Bm), *S = NULL;
    if (X && !gels) { /* the rank, per matrix of A */
      int64_t last = -1, k = m < n ? m : n;
      S = ct_linalg_svdvals(A);
      if (S && k > 0) rk = ct_sum_dim_ex(ct_gt(S, ct_mul_scalar(ct_narrow(S, -1, 0, 1), ct_float(rc))), 1, &last, false, CT_I64);
      else if (S) rk = ct_zeros_ex(A->ndim - 2, A->sizes, CT_I64, A->device);
    } else if (X) {
      rk = ct_empty_ex(1, &zero, CT_I64, A->device, false);
    }
    sv = svd_driver ? S : ct_empty_ex(1, &zero, (ct_dtype)A->dtype, A->device, false);
    if (X && rk && sv) {
      int full = 1;
      if (m > n && driver && strcmp(driver, "gelsy") && svd_driver) {
        ct_tensor *h = ct__host_operand(op, ct_all(ct_eq_scalar(rk, ct_int(n))));
        full = h && (ct__is_meta(h) || ((const bool *)ct_data_ptr(h))[0]); /* (meta: the full-rank shapes) */
        if (!h) X = NULL; /* (failed: its error stands) */
        ct_release(h);
      }
      if (m > n && driver && strcmp(driver, "gelsy") && full) {
        int64_t rows = -2;
        res = ct_sum_dim(ct_square(ct_sub(ct_matmul(A, X), Bm)), 1, &rows, false);
      } else {
        res = ct_empty_ex(1, &zero, (ct_dtype)A->dtype, A->device, false);
      }
      if (vec && X) X = ct_squeeze_dim(X, -1);
      if (res && X) {
        x = ct_keep(X), res = ct_keep(res), rk = ct_keep(rk), sv = ct_keep(sv);
      }
    }
  }
  if (!x) return NULL;
  if (residuals) *residuals = res;
  else ct_release(res);
  if (rank) *rank = rk;
  else ct_release(rk);
  if (singular_values) *singular_values = sv;
  else ct_release(sv);
  return x;
}
static ct_status ct__k_linalg_lstsq_out(ct_keyset ks, ct_tensor *A, ct_tensor *B, double rcond, const char *driver, ct_tensor *solution,
                                        ct_tensor *residuals, ct_tensor *rank, ct_tensor *singular_values) {
  ct_tensor *in[6], *res = NULL, *rk = NULL, *sv = NULL, *x;
  ct_status st;
  in[0] = A, in[1] = B, in[2] = solution, in[3] = residuals, in[4] = rank, in[5] = singular_values;
  if (!ct__la_out_grad_ok("linalg.lstsq", in, 6)) return ct_last_error();
  x = ct__k_linalg_lstsq(ks, A, B, rcond, driver, &res, &rk, &sv);
  if (!x) return ct_last_error();
  if ((st = ct__mx_into_out2("linalg.lstsq", x, res, solution, residuals, "solution", "residuals")) != CT_OK) {
    ct_release(rk), ct_release(sv);
    return st;
  }
  return ct__mx_into_out2("linalg.lstsq", rk, sv, rank, singular_values, "rank", "singular_values");
}

/* ================= derivative helpers (gen/derivatives/matrix.spec) ================= */

/* g[..., None, None] * A^{-T}, by a solve with A^T (no explicit inverse) */
static ct_tensor *ct__mx_scaled_inv_t(ct_tensor *g, ct_tensor *A) {
  ct_tensor *r = NULL;
  CT_SCOPE {
    ct_tensor *eye = ct_eye_ex(A->sizes[A->ndim - 1], (ct_dtype)A->dtype, A->device);
    ct_tensor *rhs = ct_mul(ct_unsqueeze(ct_unsqueeze(g, -1), -1), eye);
    r = ct_keep(ct_linalg_solve(ct__mx_mT(A), rhs, true));
  }
  return r;
}
/* d det / dA = det * A^{-T} */
static ct_tensor *ct__linalg_det_backward(ct_tensor *grad, ct_tensor *det, ct_tensor *A) {
  ct_tensor *r = NULL;
  CT_SCOPE { r = ct_keep(ct__mx_scaled_inv_t(ct_mul(grad, det), A)); }
  return r;
}
/* d log|det| / dA = A^{-T} */
static ct_tensor *ct__linalg_logabsdet_backward(ct_tensor *grad, ct_tensor *A) { return ct__mx_scaled_inv_t(grad, A); }
/* inverse: -A^{-T} grad A^{-T} */
static ct_tensor *ct__linalg_inv_backward(ct_tensor *grad, ct_tensor *inverse) {
  ct_tensor *r = NULL;
  CT_SCOPE {
    ct_tensor *it = ct__mx_mT(inverse);
    r = ct_keep(ct_neg(ct_matmul(it, ct_matmul(grad, it))));
  }
  return r;
}
/* solve: gB = A^{-T} grad (left) or grad A^{-T}; gA = -gB X^T (left) or -X^T gB;
 * for vector right-hand sides (the result has fewer dims than A) the outer product */
static ct_tensor *ct__linalg_solve_backward(ct_tensor *grad, ct_tensor *result, ct_tensor *A, bool left, int want_A) {
  ct_tensor *r = NULL;
  CT_SCOPE {
    ct_tensor *gB = ct_linalg_solve(ct__mx_mT(A), grad, left), *o = gB;
    if (want_A && gB) {
      if (result->ndim < A->ndim) o = ct_mul(ct_unsqueeze(gB, -1), ct_unsqueeze(result, -2));
      else o = left ? ct_matmul(gB, ct__mx_mT(result)) : ct_matmul(ct__mx_mT(result), gB);
      o = ct_neg(o);
    }
    r = ct_keep(o);
  }
  return r;
}

/* cholesky (Murray, arXiv 1602.07527, as PyTorch): with L lower,
 * gA = L^{-T} Phi(L^T gL) L^{-1}, Phi(X) = tril(X) symmetrized with half its diagonal;
 * symmetric, as the input is assumed to be */
static ct_tensor *ct__linalg_cholesky_backward(ct_tensor *grad, ct_tensor *L, bool upper) {
  ct_tensor *r = NULL;
  CT_SCOPE {
    ct_tensor *l = upper ? ct__mx_mT(L) : L, *gl = upper ? ct__mx_mT(grad) : grad;
    ct_tensor *g = ct_tril(ct_matmul(ct__mx_mT(l), gl), 0);
    g = ct_mul_scalar(ct_add(g, ct__mx_mT(ct_tril(g, -1))), ct_float(0.5));
    g = ct_linalg_solve(ct__mx_mT(l), g, true);
    r = ct_keep(ct_linalg_solve(l, g, false));
  }
  return r;
}
/* matrix_exp: the adjoint of its differential, the upper-right block of exp([[A^T, G], [0, A^T]]) */
static ct_tensor *ct__linalg_matrix_exp_backward(ct_tensor *grad, ct_tensor *A) {
  int64_t n = A->sizes[A->ndim - 1];
  ct_tensor *r = NULL;
  CT_SCOPE {
    ct_tensor *at = ct__mx_mT(A), *z = ct_zeros_like(A);
    if (at && z) {
      ct_tensor *top[2], *bottom[2], *rows[2];
      top[0] = at, top[1] = grad, bottom[0] = z, bottom[1] = at;
      rows[0] = ct_cat(2, top, -1), rows[1] = ct_cat(2, bottom, -1);
      if (rows[0] && rows[1]) r = ct_keep(ct_narrow(ct_narrow(ct_linalg_matrix_exp(ct_cat(2, rows, -2)), -2, 0, n), -1, n, n));
    }
  }
  return r;
}

/* svd (PyTorch's svd_backward, real case), from U, S, Vh of the ops (so differentiable again),
 * reduced: with E_jk = S_k^2 - S_j^2 off the diagonal (1 on it) and skew(X) = X - X^T,
 *   gA = U [(skew(U^T gU) S + S skew(V^T gV)) / E + diag(gS)] Vh
 *        + (I - U U^T) gU S^-1 Vh  (m > k)   or   + U S^-1 gV^T (I - V Vh)  (n > k)
 * which: 'U', 'S' or 'V' (grad is gU, gS or gVh; the others are 0). With full_matrices, the
 * columns past k (an arbitrary completion) get no gradient, as PyTorch. */
static ct_tensor *ct__linalg_svd_backward(ct_tensor *grad, ct_tensor *A, bool full, char which) {
  int64_t m = A->sizes[A->ndim - 2], n = A->sizes[A->ndim - 1], k = m < n ? m : n;
  ct_tensor *r = NULL;
  CT_SCOPE {
    ct_tensor *U = ct_linalg_svd_U(A, false), *S = ct_linalg_svdvals(A), *Vh = ct_linalg_svd_Vh(A, false), *V, *eye, *E, *ret, *gA = NULL;
    V = ct__mx_mT(Vh);
    eye = ct_eye_ex(k, (ct_dtype)A->dtype, A->device);
    if (U && S && Vh && eye) {
      ct_tensor *S2 = ct_mul(S, S), *Srow = ct_unsqueeze(S, -2), *Scol = ct_unsqueeze(S, -1);
      E = ct_add(ct_sub(ct_unsqueeze(S2, -2), ct_unsqueeze(S2, -1)), eye);
      if (which == 'S') {
        gA = ct_matmul(ct_mul(U, ct_unsqueeze(grad, -2)), Vh);
      } else if (which == 'U') {
        ct_tensor *gU = full ? ct_narrow(grad, -1, 0, k) : grad, *X = ct_matmul(ct__mx_mT(U), gU);
        ret = ct_div(ct_mul(ct_sub(X, ct__mx_mT(X)), Srow), E);
        gA = ct_matmul(U, ret);
        /* cppcheck-suppress knownConditionTrueFalse ; m > k when A is taller than wide (k = min(m, n)) */
        if (m > k) {
          ct_tensor *gUSinv = ct_div(gU, Srow);
          gA = ct_add(gA, ct_sub(gUSinv, ct_matmul(U, ct_matmul(ct__mx_mT(U), gUSinv))));
        }
        gA = ct_matmul(gA, Vh);
      } else {
        ct_tensor *gVh = full ? ct_narrow(grad, -2, 0, k) : grad, *gV = ct__mx_mT(gVh), *X = ct_matmul(Vh, gV);
        ret = ct_div(ct_mul(Scol, ct_sub(X, ct__mx_mT(X))), E);
        gA = ct_matmul(ret, Vh);
        if (n > k) {
          ct_tensor *SinvgVh = ct_div(gVh, Scol);
          gA = ct_add(gA, ct_sub(SinvgVh, ct_matmul(ct_matmul(SinvgVh, V), Vh)));
        }
        gA = ct_matmul(U, gA);
      }
    }
    r = ct_keep(gA);
  }
  return r;
}
/* eigvalsh: V diag(grad) V^T, with V from the eigenvectors' op (so it is differentiable again) */
static ct_tensor *ct__linalg_eigvalsh_backward(ct_tensor *grad, ct_tensor *A, const char *uplo) {
  ct_tensor *r = NULL;
  CT_SCOPE {
    ct_tensor *V = ct_linalg_eigh_vectors(A, uplo);
    r = ct_keep(ct_matmul(ct_mul(V, ct_unsqueeze(grad, -2)), ct__mx_mT(V)));
  }
  return r;
}
/* eigenvectors: dV = V (F o (V^T dA V)) with F_ij = 1 / (L_j - L_i) off the diagonal, 0 on it, so for
 * symmetric dA, gA = V (F o skew(V^T gV)) V^T: symmetric, PyTorch's (repeated eigenvalues give inf/NaN, as there) */
static ct_tensor *ct__linalg_eigh_vectors_backward(ct_tensor *grad, ct_tensor *V, ct_tensor *A, const char *uplo) {
  int64_t n = A->sizes[A->ndim - 1];
  ct_tensor *r = NULL;
  CT_SCOPE {
    ct_tensor *L = ct_linalg_eigvalsh(A, uplo), *eye = ct_eye_ex(n, (ct_dtype)A->dtype, A->device);
    ct_tensor *E = ct_sub(ct_unsqueeze(L, -2), ct_unsqueeze(L, -1)); /* E_ij = L_j - L_i */
    ct_tensor *F = ct_sub(ct_reciprocal(ct_add(E, eye)), eye); /* (1 / (0 + 1) - 1 = 0 on the diagonal) */
    ct_tensor *M = ct_matmul(ct__mx_mT(V), grad);
    M = ct_mul_scalar(ct_sub(M, ct__mx_mT(M)), ct_float(0.5));
    r = ct_keep(ct_matmul(ct_matmul(V, ct_mul(F, M)), ct__mx_mT(V)));
  }
  return r;
}

/* qr (Liao et al. 2019, as PyTorch): for m >= n, A = Q R,
 *   gA = (gQ + Q copyltu(M)) R^{-T},  M = R gR^T - gQ^T Q,  copyltu(M) = tril(M) + tril(M, -1)^T;
 * for m < n, A = (X | Y), R = (U | V): X's gradient with gQ + Y gV^T and gU, and Y's is Q gV.
 * is_q: grad is gQ (gR = 0), else gR (gQ = 0). Q and R come from the ops, so this is differentiable again. */
static ct_tensor *ct__linalg_qr_backward_square(ct_tensor *gQ, ct_tensor *gR, ct_tensor *Q, ct_tensor *R) {
  ct_tensor *M = ct_sub(ct_matmul(R, ct__mx_mT(gR)), ct_matmul(ct__mx_mT(gQ), Q));
  ct_tensor *b = ct_add(gQ, ct_matmul(Q, ct_add(ct_tril(M, 0), ct__mx_mT(ct_tril(M, -1)))));
  return ct_linalg_solve(ct__mx_mT(R), b, false);
}
static ct_tensor *ct__linalg_qr_backward(ct_tensor *grad, ct_tensor *A, const char *mode, int is_q) {
  int64_t m = A->sizes[A->ndim - 2], n = A->sizes[A->ndim - 1];
  ct_tensor *r = NULL;
  if (!strcmp(mode, "r"))
    return ct_fail(CT_ERR_UNSUPPORTED, "linalg.qr", "The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please use "
                   "linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr."),
           (ct_tensor *)NULL;
  if (!strcmp(mode, "complete") && m > n)
    return ct_fail(CT_ERR_UNSUPPORTED, "linalg.qr", "The QR decomposition is not differentiable when mode='complete' and nrows > ncols."),
           (ct_tensor *)NULL;
  CT_SCOPE {
    ct_tensor *Q = ct_linalg_qr_Q(A, mode), *R = ct_linalg_qr_R(A, mode);
    ct_tensor *gQ = is_q ? grad : ct_zeros_like(Q), *gR = is_q ? ct_zeros_like(R) : grad;
    if (Q && R && gQ && gR) {
      if (m >= n) {
        r = ct_keep(ct__linalg_qr_backward_square(gQ, gR, Q, R));
      } else {
        ct_tensor *parts[2], *Y = ct_narrow(A, -1, m, n - m), *gV = ct_narrow(gR, -1, m, n - m);
        parts[0] = ct__linalg_qr_backward_square(ct_add(gQ, ct_matmul(Y, ct__mx_mT(gV))), ct_narrow(gR, -1, 0, m), Q,
                                                 ct_narrow(R, -1, 0, m));
        parts[1] = ct_matmul(Q, gV);
        if (parts[0] && parts[1]) r = ct_keep(ct_cat(2, parts, -1));
      }
    }
  }
  return r;
}

/* pinv (PyTorch's pinv_backward), with X = pinv(A), for m <= n:
 *   K = G^T X;  gA = -(X K)^T + K X^T - (A X) K X^T + (X^T X)(G^T - K A)
 * and for m > n: K = X G^T;  gA = -(K X)^T + (G^T - A K) X X^T + X^T K - X^T K X A */
static ct_tensor *ct__linalg_pinv_backward(ct_tensor *grad, ct_tensor *X, ct_tensor *A) {
  int64_t m = A->sizes[A->ndim - 2], n = A->sizes[A->ndim - 1];
  ct_tensor *r = NULL;
  CT_SCOPE {
    ct_tensor *Xt = ct__mx_mT(X), *Gt = ct__mx_mT(grad), *g;
    if (m <= n) {
      ct_tensor *K = ct_matmul(Gt, X), *KXt = ct_matmul(K, Xt);
      g = ct_add(ct_sub(ct_neg(ct__mx_mT(ct_matmul(X, K))), ct_matmul(ct_matmul(A, X), KXt)), KXt);
      g = ct_add(g, ct_matmul(ct_matmul(Xt, X), ct_sub(Gt, ct_matmul(K, A))));
    } else {
      ct_tensor *K = ct_matmul(X, Gt), *XtK = ct_matmul(Xt, K);
      g = ct_add(ct_neg(ct__mx_mT(ct_matmul(K, X))), ct_matmul(ct_matmul(ct_sub(Gt, ct_matmul(A, K)), X), Xt));
      g = ct_add(g, ct_sub(XtK, ct_matmul(ct_matmul(XtK, X), A)));
    }
    r = ct_keep(g);
  }
  return r;
}

CT_EXTERN_C_END
#endif /* CT__OPS_MATRIX_IMPL */
