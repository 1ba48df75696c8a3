/* fuzz/op_sequence.c - the op-sequence fuzzer (issue 12, "Fuzzers").
 *
 * The input bytes are a program over NSLOT tensor slots: tensor creations
 * (rank 0-4, sizes including 0 and 1, all eight dtypes, CPU or meta, random
 * or extreme contents, requires_grad on floating leaves), views that give
 * odd strides (transpose, slice with a step, select, expand, as_strided,
 * unsqueeze, permute, reshape), then calls drawn from about 250 entry points
 * of the op library in their functional, in-place `_` and `_out` forms, with
 * outs that alias inputs (the same tensor, an overlapping view, a 0-dim out,
 * another dtype), guards (no-grad, enable-grad, inference mode, temporaries
 * scopes, kept in a stack and closed in order), backward and
 * ct_autograd_grad with retain_graph / create_graph (so a later backward is
 * a double backward), boxed calls with arbitrary values and printing.
 *
 * The rule every call is held to: it succeeds, or it returns NULL / a
 * negative status / a negative count AND leaves an error message
 * (ct_last_error() != CT_OK, non-empty text). The error is cleared before
 * every call. Every tensor a call returns (and every out= tensor after a
 * successful call) must be well formed: valid dtype and rank, sizes >= 0,
 * numel = product of sizes, every element inside its storage, bool elements
 * 0 or 1. At the end of each input every slot is released, the guards are
 * closed, and ctorch's live tensor and storage counts must be back to where
 * they were, grad mode and the thread's key state restored. Crashes, ASan,
 * UBSan and LeakSanitizer reports are findings; a broken rule aborts with a
 * "FINDING:" line.
 *
 * FZ_TRACE=1 in the environment prints each decoded call (for writing a
 * minimal C reproducer of a crash).
 */
#include "fuzz_common.h"
#include "ctorch.h" /* the implementation is fuzz/ctorch_impl.c, built with the same flags */

#define NSLOT 12
#define MAX_STEPS 48
#define MAX_CREATE_NUMEL 4096

static ct_tensor *S[NSLOT];
static ct_guard G[8];
static int gkind[8], ng, nscopes;
static ct_generator *gen;
static fz_in *IN;
static int trace;
static int64_t start_tensors, start_storages;

#define TR(...)                                   \
  do {                                            \
    if (trace) fprintf(stderr, "  " __VA_ARGS__); \
  } while (0)

static void finding(const char *what, const char *detail) {
  char key[256];
  fprintf(stderr, "FINDING: %s: %s (last error: %s)\n", what, detail, ct_last_error_message());
  snprintf(key, sizeof key, "FINDING: %s: %.40s", what, detail); /* counts after the first 40 characters do not make a new key */
  fz_triage_save(key);
  if (!FZ_TRIAGE_CONTINUE) abort();
}

/* ---- names for the trace ---- */
static const char *dn(int d) { return ct_dtype_name((ct_dtype)d); }
static const char *desc(const ct_tensor *t) {
  static char bufs[4][160];
  static int k;
  char *b = bufs[k++ & 3];
  int i, n;
  if (!t) return "NULL";
  n = snprintf(b, 160, "%s%s[", dn(t->dtype), t->device.type == CT_DEVICE_META ? "(meta)" : "");
  for (i = 0; i < t->ndim && n < 120; i++) n += snprintf(b + n, (size_t)(160 - n), "%s%lld", i ? "," : "", (long long)t->sizes[i]);
  n += snprintf(b + n, (size_t)(160 - n), "]s(");
  for (i = 0; i < t->ndim && n < 140; i++) n += snprintf(b + n, (size_t)(160 - n), "%s%lld", i ? "," : "", (long long)t->strides[i]);
  snprintf(b + n, (size_t)(160 - n), ")+%lld @%03x%s", (long long)t->offset, (unsigned)(((uintptr_t)t->storage >> 6) & 0xfff),
           ct_requires_grad(t) ? " rg" : "");
  return b;
}

/* ---- invariants ---- */
#define BAD(msg)      \
  do {                \
    finding(what, msg); \
    return;           \
  } while (0)
static void check_tensor(const char *what, const ct_tensor *t) {
  int i;
  int64_t n = 1, lo = 0, hi = 0;
  if (t->refcount <= 0) BAD("result has refcount <= 0");
  if (!ct_dtype_valid((ct_dtype)t->dtype)) BAD("result has an invalid dtype");
  if (t->ndim < 0 || t->ndim > CT_MAX_DIMS) BAD("result has an invalid rank");
  if (!t->storage) BAD("result has no storage");
  for (i = 0; i < t->ndim; i++) {
    if (t->sizes[i] < 0) BAD("result has a negative size");
    if (t->sizes[i] == 0) n = 0;
  }
  for (i = 0; i < t->ndim && n; i++)
    if (__builtin_mul_overflow(n, t->sizes[i], &n)) BAD("result's numel overflows");
  if (n != t->numel) BAD("result's numel is not the product of its sizes");
  if (n == 0 || t->device.type != CT_DEVICE_CPU) return;
  for (i = 0; i < t->ndim; i++) {
    int64_t ext;
    if (t->sizes[i] <= 1) continue;
    if (__builtin_mul_overflow(t->sizes[i] - 1, t->strides[i], &ext)) BAD("result's extent overflows");
    if (ext < 0) lo += ext;
    else hi += ext;
  }
  if (t->offset + lo < 0) BAD("result reaches before its storage");
  if (!t->storage->data) BAD("CPU result with elements has no data");
  if ((uint64_t)(t->offset + hi + 1) * ct_dtype_size((ct_dtype)t->dtype) > (uint64_t)t->storage->nbytes)
    BAD("result reaches past the end of its storage");
  { /* touch every element (ASan checks the storage really is that large); bools must be 0 or 1 */
    int64_t idx[CT_MAX_DIMS] = {0}, k, off = t->offset, cap = 1 << 16;
    size_t es = ct_dtype_size((ct_dtype)t->dtype);
    const unsigned char *base = (const unsigned char *)t->storage->data;
    volatile unsigned acc = 0;
    for (k = 0; k < n && k < cap; k++) {
      const unsigned char *e = base + (size_t)off * es;
      size_t b;
      for (b = 0; b < es; b++) acc += e[b];
      if (t->dtype == CT_BOOL && e[0] > 1) BAD("bool result holds a byte that is neither 0 nor 1");
      for (i = t->ndim - 1; i >= 0; i--) {
        if (++idx[i] < t->sizes[i]) {
          off += t->strides[i];
          break;
        }
        off -= (t->sizes[i] - 1) * t->strides[i];
        idx[i] = 0;
      }
    }
    (void)acc;
  }
}
#undef BAD

static void expect_error(const char *what) {
  if (ct_last_error() == CT_OK) finding(what, "failed without recording an error");
  if (!ct_last_error_message()[0]) finding(what, "failed with an empty error message");
  TR("   -> error: %s\n", ct_last_error_message());
  ct_clear_error();
}

/* A tensor the program now owns: inside a temporaries scope the scope owns
 * what a call returned, so the slot takes its own reference. */
static ct_tensor *own(ct_tensor *t) { return (t && nscopes) ? ct_retain(t) : t; }
/* References dropped during a step are released when the step ends: a slot
 * overwritten while building a call's arguments may still be one of them. */
static ct_tensor *grave[256];
static int ngrave;
static ct_tensor *temp(ct_tensor *t) {
  if (!t) return t;
  if (ngrave == (int)(sizeof grave / sizeof grave[0])) finding("harness", "too many temporaries in one step");
  grave[ngrave++] = t;
  return t;
}
static void flush_temps(void) {
  while (ngrave) ct_release(grave[--ngrave]);
}
/* PyTorch semantics, not a bug (see fuzz/README.md, F2): after a backward
 * with create_graph, a leaf's .grad can hold history that leads back to the
 * leaf (leaf -> .grad -> grad_fn -> leaf), a reference cycle that PyTorch
 * has too and documents; the fix is to reset the .grad (ct_set_grad(leaf,
 * NULL), ctorch/autograd.h). So the harness remembers every tensor it made
 * require grad and, when create_graph or set_grad was used, resets their
 * .grad at teardown, as the documentation tells users to do. */
static ct_tensor *grad_tensors[256];
static int ngrad_tensors, used_create_graph, used_set_grad;
static void track_grad_tensor(ct_tensor *t) {
  if (t && ngrad_tensors < (int)(sizeof grad_tensors / sizeof grad_tensors[0])) grad_tensors[ngrad_tensors++] = ct_retain(t);
}
static void put(int i, ct_tensor *t) {
  temp(S[i]);
  S[i] = t;
}
/* result of a call returning a new tensor */
static void res(const char *what, ct_tensor *t, int dst) {
  if (!t) {
    expect_error(what);
    return;
  }
  check_tensor(what, t);
  TR("   -> S%d = %s\n", dst, desc(t));
  put(dst, own(t));
  ct_clear_error();
}
/* The out= tensor of the current call as it was before the call: ctorch
 * promises that "no state changes on failure" (ctorch/base.h), so a failed
 * out= call must leave its out's shape, strides, offset, dtype and storage
 * as they were. */
static struct {
  const ct_tensor *t;
  ct_tensor meta;
  size_t nbytes;
} out_snap;
static void snap_out(const ct_tensor *t) {
  out_snap.t = t;
  if (t) out_snap.meta = *t, out_snap.nbytes = t->storage ? t->storage->nbytes : 0;
}
static int out_changed(const ct_tensor *t) {
  const ct_tensor *m = &out_snap.meta;
  int i, same;
  if (!t || t != out_snap.t) return 0;
  same = t->ndim == m->ndim && t->dtype == m->dtype && t->offset == m->offset && t->storage == m->storage &&
         (t->storage ? t->storage->nbytes : 0) == out_snap.nbytes;
  for (i = 0; same && i < t->ndim; i++) same = t->sizes[i] == m->sizes[i] && t->strides[i] == m->strides[i];
  return !same;
}
static void check_unchanged(const char *what, const ct_tensor *t) {
  if (out_changed(t)) {
    char b[200];
    snprintf(b, sizeof b, "a failed call changed its out= tensor (now %s); ctorch promises no state change on failure", desc(t));
    finding(what, b);
  }
}

/* result of a call returning a status; `written` is checked on success */
static int rst(const char *what, ct_status st, const ct_tensor *written) {
  if (st != CT_OK) {
    int changed = out_changed(written);
    if (st > 0) finding(what, "returned a positive status");
    expect_error(what);
    if (changed) check_unchanged(what, written);
    out_snap.t = NULL;
    return 0;
  }
  out_snap.t = NULL;
  if (written) {
    check_tensor(what, written);
    TR("   -> ok %s\n", desc(written));
  }
  ct_clear_error();
  return 0;
}

/* ---- argument makers ---- */
static unsigned pslot(void) { return fz_pick(IN, NSLOT); }
/* The device of the first tensor a step picks: the tensors the harness makes
 * for that step (second operands, outs, indices) are made on it, so most
 * calls are all-CPU or all-meta; slots of the other device still mix in
 * (ctorch must refuse the mix with an error, as PyTorch does). */
static int step_dev = -1;
/* the operands of this step, kept alive until the step ends */
static ct_tensor *picked[64];
static int npicked;
static ct_tensor *note(ct_tensor *t) {
  if (t && npicked < (int)(sizeof picked / sizeof picked[0])) picked[npicked++] = ct_retain(t);
  return t;
}
static void end_step_notes(void) {
  while (npicked) ct_release(picked[--npicked]);
}
static ct_tensor *pk(void) {
  ct_tensor *t = S[pslot()];
  if (!t) return NULL;
  if (step_dev < 0) step_dev = t->device.type;
  return note(t);
}
static ct_dtype pdtype(void) { return (ct_dtype)fz_pick(IN, CT_DTYPE_NUM); }
static ct_scalar pscalar(void) {
  switch (fz_pick(IN, 5)) {
  case 0:
  case 1: return ct_float(fz_double(IN));
  case 2: return ct_int(fz_int(IN));
  case 3: return ct_int(fz_ints[fz_pick(IN, FZ_NINTS)]);
  default: return ct_bool(fz_bit(IN));
  }
}
static const char *sc_desc(ct_scalar s) {
  static char b[4][48];
  static int k;
  char *p = b[k++ & 3];
  if (s.kind == CT_SCALAR_FLOAT) snprintf(p, 48, "ct_float(%.17g)", s.v.f);
  else if (s.kind == CT_SCALAR_INT) snprintf(p, 48, "ct_int(%lld)", (long long)s.v.i);
  else if (s.kind == CT_SCALAR_BOOL) snprintf(p, 48, "ct_bool(%d)", (int)s.v.b);
  else snprintf(p, 48, "none");
  return p;
}
/* a list of up to 4 dims / ints */
static int pdims(int64_t *d, int max) {
  int n = (int)fz_pick(IN, (unsigned)max + 1), i;
  for (i = 0; i < n; i++) d[i] = fz_int(IN);
  return n;
}
static const char *ilist(int n, const int64_t *d) {
  static char b[4][160];
  static int k;
  char *p = b[k++ & 3];
  int i, m = snprintf(p, 160, "{");
  for (i = 0; i < n && m < 140; i++) m += snprintf(p + m, (size_t)(160 - m), "%s%lld", i ? "," : "", (long long)d[i]);
  snprintf(p + m, (size_t)(160 - m), "}");
  return p;
}

/* contents for a new tensor: numel elements of dtype into buf */
static unsigned char databuf[MAX_CREATE_NUMEL * 8];
static void fill_data(ct_dtype dt, int64_t numel, unsigned mode) {
  int64_t i;
  for (i = 0; i < numel; i++) {
    double d;
    int64_t v;
    switch (mode % 6) {
    case 0: d = (double)((int)(fz_rand() % 7) - 3); break;
    case 1: d = fz_unit() * 4 - 2; break;
    case 2: d = (fz_rand() % 6 == 0) ? fz_doubles[fz_rand() % FZ_NDOUBLES] : fz_unit() * 10 - 5; break;
    case 3: d = (double)i; break;
    case 4: d = 0; break;
    default: d = (double)(int64_t)(fz_rand() % 5); break; /* small non-negative: index-like */
    }
    if (mode % 6 == 2 && (fz_rand() & 1)) v = fz_ints[fz_rand() % FZ_NINTS];
    else v = (isfinite(d) && fabs(d) < 1e18) ? (int64_t)d : 0;
    switch (dt) {
    case CT_F32: ((float *)databuf)[i] = (float)d; break; /* out-of-range doubles become inf: defined in IEEE */
    case CT_F64: ((double *)databuf)[i] = d; break;
    case CT_F16: ((uint16_t *)databuf)[i] = ct_f32_to_f16((float)d); break;
    case CT_BF16: ((uint16_t *)databuf)[i] = ct_f32_to_bf16((float)d); break;
    case CT_I64: ((int64_t *)databuf)[i] = v; break;
    case CT_I32: ((int32_t *)databuf)[i] = (int32_t)(uint32_t)(uint64_t)v; break;
    case CT_U8: ((uint8_t *)databuf)[i] = (uint8_t)(uint64_t)v; break;
    default: ((uint8_t *)databuf)[i] = (uint8_t)(v != 0); break;
    }
  }
}


/* sizes: valid ones are capped so numel <= MAX_CREATE_NUMEL */
static int psizes(int64_t *s, int nd) {
  int i, valid = 1;
  int64_t n = 1;
  for (i = 0; i < nd; i++) {
    s[i] = fz_size(IN);
    if (s[i] < 0 || s[i] > 64) valid = 0;
  }
  if (!valid) return 0;
  for (i = 0; i < nd; i++) n *= s[i];
  for (i = 0; n > MAX_CREATE_NUMEL && i < nd; i++) {
    n /= s[i];
    s[i] = 1;
  }
  return 1;
}

/* A tensor with contents, for the harness's own arguments: sizes outside
 * [0, 64] become 1 and the element count is capped. NULL only when ctorch
 * fails (with an error). */
static ct_tensor *make_tensor(int nd, const int64_t *sizes, ct_dtype dt, unsigned mode) {
  int64_t n = 1, s[CT_MAX_DIMS];
  int i;
  if (nd < 0 || nd > 4) nd = 0;
  for (i = 0; i < nd; i++) s[i] = sizes[i] < 0 || sizes[i] > 64 ? 1 : sizes[i], n *= s[i];
  for (i = 0; n > MAX_CREATE_NUMEL && i < nd; i++) n /= s[i], s[i] = 1;
  if (step_dev == CT_DEVICE_META) return ct_empty_opts(nd, s, ct_opts(dt, CT_META));
  fill_data(dt, n, mode);
  return ct_from_array(nd, s, dt, databuf);
}


static ct_tensor *fresh_shape(int nd, const int64_t *s, ct_dtype dt) {
  ct_tensor *t = make_tensor(nd, s, dt, fz_u8(IN));
  if (!t) expect_error("fresh_shape");
  return note(temp(own(t)));
}
/* An index tensor for a dim of extent `bound`: int64 (sometimes another
 * dtype), mostly in range, sometimes -1 or bound. */
static ct_tensor *make_index(int nd, const int64_t *sizes, int64_t bound) {
  int64_t n = 1, i;
  int k;
  ct_dtype dt = fz_pick(IN, 8) ? CT_I64 : pdtype();
  unsigned bad = fz_pick(IN, 8);
  ct_tensor *t;
  for (k = 0; k < nd; k++) {
    if (sizes[k] < 0 || sizes[k] > MAX_CREATE_NUMEL) return NULL;
    n *= sizes[k];
    if (n > MAX_CREATE_NUMEL) return NULL;
  }
  if (bound < 0) return NULL;
  for (i = 0; i < n; i++) {
    int64_t v = bound > 0 ? (int64_t)(fz_rand() % (uint64_t)bound) : 0;
    if (bad == 0 && (fz_rand() & 3) == 0) v = (fz_rand() & 1) ? -1 - (int64_t)(fz_rand() % 2) * bound : bound;
    if (dt == CT_I64) ((int64_t *)databuf)[i] = v;
    else if (dt == CT_I32) ((int32_t *)databuf)[i] = (int32_t)v;
    else if (dt == CT_F32) ((float *)databuf)[i] = (float)v;
    else if (dt == CT_F64) ((double *)databuf)[i] = (double)v;
    else if (dt == CT_BOOL) databuf[i] = (uint8_t)(v & 1);
    else if (dt == CT_U8) databuf[i] = (uint8_t)v;
    else ((uint16_t *)databuf)[i] = 0;
  }
  t = step_dev == CT_DEVICE_META ? ct_empty_opts(nd, sizes, ct_opts(dt, CT_META)) : ct_from_array(nd, sizes, dt, databuf);
  if (!t) expect_error("make_index");
  return note(temp(own(t)));
}
static int64_t dim_size(const ct_tensor *t, int64_t d) {
  if (!t || t->ndim == 0) return 1;
  d = ((d % t->ndim) + t->ndim) % t->ndim;
  return t->sizes[d];
}

/* The out= tensor: the input itself, any slot (often an overlapping view),
 * or a new one (same shape, 0-dim, or random) of a random dtype. New outs
 * are stored in slot `dst`. */
static ct_tensor *pout(ct_tensor *like, int dst) {
  ct_tensor *t;
  unsigned k = fz_pick(IN, 6);
  switch (k) {
  case 0: TR("   out = the input %s\n", desc(like)); snap_out(like); return like;
  case 1: t = pk(); TR("   out = slot %s\n", desc(t)); snap_out(t); return t;
  case 2: t = like ? make_tensor(like->ndim, like->sizes, fz_pick(IN, 3) ? (ct_dtype)like->dtype : pdtype(), 4) : NULL; break;
  case 3: t = make_tensor(0, NULL, pdtype(), 4); break;
  default: {
    int64_t s[4];
    int nd = (int)fz_pick(IN, 4);
    if (!psizes(s, nd)) nd = 0;
    t = make_tensor(nd, s, pdtype(), 4);
    break;
  }
  }
  if (!t) {
    ct_clear_error();
    snap_out(like);
    return like;
  }
  put(dst, own(t));
  TR("   out S%d = %s\n", dst, desc(t));
  snap_out(t);
  return S[dst];
}

/* ---- op tables ---- */
typedef ct_tensor *(*fn_t)(ct_tensor *);
typedef ct_status (*fn_i)(ct_tensor *);
typedef ct_status (*fn_o)(ct_tensor *, ct_tensor *);
static const struct {
  const char *name;
  fn_t f;
  fn_i fi;
  fn_o fo;
} unary[] = {
    {"neg", ct_neg, ct_neg_, ct_neg_out},
    {"abs", ct_abs, ct_abs_, ct_abs_out},
    {"sign", ct_sign, ct_sign_, ct_sign_out},
    {"square", ct_square, ct_square_, ct_square_out},
    {"exp", ct_exp, ct_exp_, ct_exp_out},
    {"log", ct_log, ct_log_, ct_log_out},
    {"log1p", ct_log1p, ct_log1p_, ct_log1p_out},
    {"expm1", ct_expm1, ct_expm1_, ct_expm1_out},
    {"sqrt", ct_sqrt, ct_sqrt_, ct_sqrt_out},
    {"rsqrt", ct_rsqrt, ct_rsqrt_, ct_rsqrt_out},
    {"reciprocal", ct_reciprocal, ct_reciprocal_, ct_reciprocal_out},
    {"sin", ct_sin, ct_sin_, ct_sin_out},
    {"tanh", ct_tanh, ct_tanh_, ct_tanh_out},
    {"erf", ct_erf, ct_erf_, ct_erf_out},
    {"sigmoid", ct_sigmoid, ct_sigmoid_, ct_sigmoid_out},
    {"relu", ct_relu, ct_relu_, ct_relu_out},
    {"gelu", ct_gelu, ct_gelu_, ct_gelu_out},
    {"silu", ct_silu, ct_silu_, ct_silu_out},
    {"mish", ct_mish, ct_mish_, ct_mish_out},
    {"floor", ct_floor, ct_floor_, ct_floor_out},
    {"round", ct_round, ct_round_, ct_round_out},
    {"trunc", ct_trunc, ct_trunc_, ct_trunc_out},
    {"logical_not", ct_logical_not, ct_logical_not_, ct_logical_not_out},
};
typedef ct_tensor *(*fn_tt)(ct_tensor *, ct_tensor *);
typedef ct_status (*fn_tti)(ct_tensor *, ct_tensor *);
typedef ct_status (*fn_tto)(ct_tensor *, ct_tensor *, ct_tensor *);
static const struct {
  const char *name;
  fn_tt f;
  fn_tti fi;
  fn_tto fo;
} binary[] = {
    {"add", ct_add, ct_add_, ct_add_out},
    {"sub", ct_sub, ct_sub_, ct_sub_out},
    {"mul", ct_mul, ct_mul_, ct_mul_out},
    {"div", ct_div, ct_div_, ct_div_out},
    {"floor_divide", ct_floor_divide, ct_floor_divide_, ct_floor_divide_out},
    {"remainder", ct_remainder, ct_remainder_, ct_remainder_out},
    {"fmod", ct_fmod, ct_fmod_, ct_fmod_out},
    {"pow", ct_pow, ct_pow_, ct_pow_out},
    {"atan2", ct_atan2, ct_atan2_, ct_atan2_out},
    {"maximum", ct_maximum, NULL, ct_maximum_out},
    {"minimum", ct_minimum, NULL, ct_minimum_out},
    {"eq", ct_eq, ct_eq_, ct_eq_out},
    {"ne", ct_ne, ct_ne_, ct_ne_out},
    {"lt", ct_lt, ct_lt_, ct_lt_out},
    {"ge", ct_ge, ct_ge_, ct_ge_out},
    {"logical_and", ct_logical_and, ct_logical_and_, ct_logical_and_out},
    {"logical_xor", ct_logical_xor, ct_logical_xor_, ct_logical_xor_out},
    {"mm", ct_mm, NULL, ct_mm_out},
    {"bmm", ct_bmm, NULL, ct_bmm_out},
    {"matmul", ct_matmul, NULL, ct_matmul_out},
    {"mv", ct_mv, NULL, ct_mv_out},
    {"dot", ct_dot, NULL, ct_dot_out},
    {"outer", ct_outer, NULL, ct_outer_out},
};
#define BIN_MATMUL_FIRST 17
typedef ct_tensor *(*fn_ts)(ct_tensor *, ct_scalar);
typedef ct_status (*fn_tsi)(ct_tensor *, ct_scalar);
typedef ct_status (*fn_tso)(ct_tensor *, ct_tensor *, ct_scalar);
static const struct {
  const char *name;
  fn_ts f;
  fn_tsi fi;
  fn_tso fo;
} bscalar[] = {
    {"add_scalar", ct_add_scalar, ct_add_scalar_, NULL},
    {"sub_scalar", ct_sub_scalar, ct_sub_scalar_, NULL},
    {"mul_scalar", ct_mul_scalar, ct_mul_scalar_, NULL},
    {"div_scalar", ct_div_scalar, ct_div_scalar_, NULL},
    {"floor_divide_scalar", ct_floor_divide_scalar, ct_floor_divide_scalar_, NULL},
    {"remainder_scalar", ct_remainder_scalar, ct_remainder_scalar_, ct_remainder_scalar_out},
    {"fmod_scalar", ct_fmod_scalar, ct_fmod_scalar_, ct_fmod_scalar_out},
    {"pow_scalar", ct_pow_scalar, ct_pow_scalar_, ct_pow_scalar_out},
    {"eq_scalar", ct_eq_scalar, ct_eq_scalar_, ct_eq_scalar_out},
    {"lt_scalar", ct_lt_scalar, ct_lt_scalar_, ct_lt_scalar_out},
    {"clamp_min", ct_clamp_min, ct_clamp_min_, ct_clamp_min_out},
    {"clamp_max", ct_clamp_max, ct_clamp_max_, ct_clamp_max_out},
    {"leaky_relu", ct_leaky_relu, ct_leaky_relu_, ct_leaky_relu_out},
    {"fill", NULL, ct_fill_, NULL},
};

/* ---- groups of operations ---- */
static void op_create(int dst) {
  int64_t s[4];
  int nd = (int)fz_pick(IN, 5), valid;
  ct_dtype dt = pdtype();
  unsigned mode = fz_u8(IN), dev = fz_pick(IN, 16);
  ct_tensor *t;
  valid = psizes(s, nd);
  if (dev == 0) {
    TR("S%d = ct_empty_opts(%d, %s, meta %s)\n", dst, nd, ilist(nd, s), dn(dt));
    t = ct_empty_opts(nd, s, ct_opts(dt, CT_META));
  } else if (valid) {
    TR("S%d = ct_from_array(%d, %s, %s, mode %u)\n", dst, nd, ilist(nd, s), dn(dt), mode % 6);
    t = make_tensor(nd, s, dt, mode);
  } else {
    static const unsigned char dummy[64];
    TR("S%d = ct_from_array(%d, %s, %s, dummy)\n", dst, nd, ilist(nd, s), dn(dt));
    t = ct_from_array(nd, s, dt, dummy); /* an invalid shape must be refused before the data is read */
  }
  if (!t) {
    expect_error("create");
    return;
  }
  check_tensor("create", t);
  if (ct_dtype_is_floating(dt) && fz_bit(IN)) {
    ct_status st = ct_set_requires_grad(t, true);
    TR("ct_set_requires_grad(S%d, true)\n", dst);
    rst("set_requires_grad", st, NULL);
    track_grad_tensor(t);
  }
  put(dst, own(t));
}

static void op_factory(int dst) {
  int64_t s[4];
  int nd = (int)fz_pick(IN, 5);
  ct_dtype dt = pdtype();
  ct_scalar v = pscalar();
  ct_tensor *x = pk();
  unsigned which = fz_pick(IN, 7);
  if (!psizes(s, nd)) { /* keep the invalid sizes: they must be refused */
  }
  switch (which) {
  case 0:
    TR("ct_full(%d, %s, %s, %s)\n", nd, ilist(nd, s), sc_desc(v), dn(dt));
    res("full", ct_full(nd, s, v, dt), dst);
    break;
  case 1: {
    double a = fz_double(IN), b = fz_double(IN), st = fz_double(IN);
    TR("ct_arange(%.17g, %.17g, %.17g, %s)\n", a, b, st, dn(dt));
    res("arange", ct_arange(a, b, st, dt), dst);
    break;
  }
  case 2:
    TR("ct_zeros(%d, %s, %s)\n", nd, ilist(nd, s), dn(dt));
    res("zeros", ct_zeros(nd, s, dt), dst);
    break;
  case 3:
    TR("ct_full_like(%s, %s)\n", desc(x), sc_desc(v));
    res("full_like", ct_full_like(x, v), dst);
    break;
  case 4:
    TR("ct_scalar_tensor(%s, %s)\n", sc_desc(v), dn(dt));
    res("scalar_tensor", ct_scalar_tensor(v, dt), dst);
    break;
  case 5:
    TR("ct_ones_like(%s)\n", desc(x));
    res("ones_like", ct_ones_like(x), dst);
    break;
  default: {
    int64_t n = fz_int(IN), m = fz_int(IN);
    ct_tensor *o = pout(x, dst);
    unsigned w = fz_pick(IN, 4);
    TR("eye/linspace/randperm/randint out=%s n=%lld m=%lld (%u)\n", desc(o), (long long)n, (long long)m, w);
    if (w == 0) rst("eye_m_out", ct_eye_m_out(o, n, m), o);
    else if (w == 1) rst("linspace_out", ct_linspace_out(o, v, pscalar(), n), o);
    else if (w == 2) rst("randperm_out", ct_randperm_out(o, n, gen), o);
    else rst("randint_out", ct_randint_out(o, n, m, nd, s, gen), o);
    break;
  }
  }
}

static void op_view(int dst) {
  ct_tensor *x = pk();
  int64_t a = fz_int(IN), b = fz_int(IN), c, d[4];
  int n;
  switch (fz_pick(IN, 11)) {
  case 0:
    TR("ct_transpose(%s, %lld, %lld)\n", desc(x), (long long)a, (long long)b);
    res("transpose", ct_transpose(x, a, b), dst);
    break;
  case 1: {
    int64_t dim = fz_int(IN);
    c = fz_pick(IN, 4) ? (int64_t)fz_pick(IN, 3) + 1 : fz_int(IN);
    if (fz_pick(IN, 8) == 0) b = INT64_MAX;
    TR("ct_slice(%s, dim %lld, %lld, %lld, step %lld)\n", desc(x), (long long)dim, (long long)a, (long long)b, (long long)c);
    res("slice", ct_slice(x, dim, a, b, c), dst);
    break;
  }
  case 2:
    TR("ct_select(%s, %lld, %lld)\n", desc(x), (long long)a, (long long)b);
    res("select", ct_select(x, a, b), dst);
    break;
  case 3: {
    int i;
    n = (int)fz_pick(IN, 5);
    for (i = 0; i < n; i++) d[i] = fz_pick(IN, 4) ? (int64_t)fz_pick(IN, 5) - 1 : fz_size(IN);
    TR("ct_expand(%s, %d, %s)\n", desc(x), n, ilist(n, d));
    res("expand", ct_expand(x, n, d), dst);
    break;
  }
  case 4: { /* as_strided: within the storage most of the time */
    int64_t st[4], off = (int64_t)fz_pick(IN, 4), cap = x && x->storage ? (int64_t)(x->storage->nbytes / ct_dtype_size((ct_dtype)x->dtype)) : 0;
    int i, wild = fz_pick(IN, 4) == 0;
    n = (int)fz_pick(IN, 4);
    for (i = 0; i < n; i++) {
      d[i] = wild ? fz_size(IN) : (int64_t)fz_pick(IN, 4);
      st[i] = wild ? fz_int(IN) : (int64_t)fz_pick(IN, 3);
    }
    if (!wild) { /* shrink until the last element is inside the storage */
      for (i = 0; i < n; i++) {
        int64_t hi = off, k;
        for (k = 0; k < n; k++) hi += d[k] ? (d[k] - 1) * st[k] : 0;
        if (hi < cap) break;
        d[i] = d[i] > 1 ? 1 : d[i];
      }
      if (off >= cap) off = 0;
    } else off = fz_int(IN);
    TR("ct_as_strided(%s, %d, %s, %s, %lld)\n", desc(x), n, ilist(n, d), ilist(n, st), (long long)off);
    res("as_strided", ct_as_strided(x, n, d, n, st, off), dst);
    break;
  }
  case 5:
    TR("ct_unsqueeze(%s, %lld)\n", desc(x), (long long)a);
    res("unsqueeze", ct_unsqueeze(x, a), dst);
    break;
  case 6:
    TR("ct_squeeze_dim(%s, %lld) / flatten\n", desc(x), (long long)a);
    if (fz_bit(IN)) res("squeeze_dim", ct_squeeze_dim(x, a), dst);
    else res("flatten", ct_flatten(x, a, b), dst);
    break;
  case 7: { /* permute: usually a permutation of the rank */
    int i, r = x ? x->ndim : 0;
    n = r;
    for (i = 0; i < r && i < 4; i++) d[i] = i;
    for (i = r - 1; i > 0 && i < 4; i--) {
      int j = (int)fz_pick(IN, (unsigned)i + 1);
      int64_t t = d[i];
      d[i] = d[j], d[j] = t;
    }
    if (fz_pick(IN, 6) == 0) n = pdims(d, 4);
    if (n > 4) n = 4;
    TR("ct_permute(%s, %d, %s)\n", desc(x), n, ilist(n, d));
    res("permute", ct_permute(x, n, d), dst);
    break;
  }
  case 8: {
    int i;
    n = (int)fz_pick(IN, 4);
    for (i = 0; i < n; i++) d[i] = fz_pick(IN, 5) ? (int64_t)fz_pick(IN, 6) - 1 : fz_size(IN);
    TR("ct_view/reshape(%s, %d, %s)\n", desc(x), n, ilist(n, d));
    if (fz_bit(IN)) res("view", ct_view(x, n, d), dst);
    else res("reshape", ct_reshape(x, n, d), dst);
    break;
  }
  case 9:
    switch (fz_pick(IN, 5)) {
    case 0: TR("ct_detach(%s)\n", desc(x)); res("detach", ct_detach(x), dst); break;
    case 1: TR("ct_alias(%s)\n", desc(x)); res("alias", ct_alias(x), dst); break;
    case 2: TR("ct_clone(%s)\n", desc(x)); res("clone", ct_clone(x), dst); break;
    case 3: TR("ct_contiguous(%s)\n", desc(x)); res("contiguous", ct_contiguous(x), dst); break;
    default: TR("ct_t(%s)\n", desc(x)); res("t", ct_t(x), dst); break;
    }
    break;
  default: {
    ct_dtype dt = pdtype();
    TR("ct_to_dtype(%s, %s)\n", desc(x), dn(dt));
    res("to_dtype", ct_to_dtype(x, dt), dst);
    break;
  }
  }
}

static void op_unary(int dst) {
  unsigned k = fz_pick(IN, sizeof unary / sizeof unary[0]), form = fz_pick(IN, 3);
  ct_tensor *x = pk();
  if (form == 0) {
    TR("ct_%s(%s)\n", unary[k].name, desc(x));
    res(unary[k].name, unary[k].f(x), dst);
  } else if (form == 1) {
    TR("ct_%s_(%s)\n", unary[k].name, desc(x));
    rst(unary[k].name, unary[k].fi(x), x);
  } else {
    ct_tensor *o = pout(x, dst);
    TR("ct_%s_out(%s, %s)\n", unary[k].name, desc(o), desc(x));
    rst(unary[k].name, unary[k].fo(o, x), o);
  }
}

/* a second operand: a slot, or a new tensor shaped to match (broadcast or for matmul) */
static ct_tensor *second(ct_tensor *a, int matmul, int dst) {
  if (!a || fz_pick(IN, 3) == 0) return pk();
  {
    int64_t s[4];
    int nd = a->ndim > 4 ? 4 : a->ndim, i;
    ct_dtype dt = fz_pick(IN, 4) ? (ct_dtype)a->dtype : pdtype();
    ct_tensor *t;
    for (i = 0; i < nd; i++) s[i] = a->sizes[i];
    if (matmul && nd >= 1) { /* [.., k] x [k, n] */
      int64_t k = s[nd - 1];
      if (nd == 1) s[0] = k, nd = fz_bit(IN) ? 1 : 2, s[1] = (int64_t)fz_pick(IN, 4);
      else s[nd - 2] = k, s[nd - 1] = (int64_t)fz_pick(IN, 5);
    } else
      for (i = 0; i < nd; i++)
        if (fz_pick(IN, 4) == 0) s[i] = 1; /* broadcast */
    if (fz_pick(IN, 4) == 0 && nd > 0 && !matmul) { /* drop a leading dim: still broadcastable */
      for (i = 1; i < nd; i++) s[i - 1] = s[i];
      nd--;
    }
    t = make_tensor(nd, s, dt, fz_u8(IN));
    if (!t) {
      ct_clear_error();
      return pk();
    }
    if (ct_dtype_is_floating(dt) && fz_pick(IN, 4) == 0) ct_set_requires_grad(t, true), ct_clear_error(), track_grad_tensor(t);
    put(dst, own(t));
    return note(S[dst]);
  }
}



static void op_binary(int dst) {
  unsigned k = fz_pick(IN, sizeof binary / sizeof binary[0]), form = fz_pick(IN, 3);
  ct_tensor *a = pk(), *b = second(a, k >= BIN_MATMUL_FIRST, (dst + 1) % NSLOT);
  if (form == 1 && !binary[k].fi) form = 0;
  if (form == 0) {
    TR("ct_%s(%s, %s)\n", binary[k].name, desc(a), desc(b));
    res(binary[k].name, binary[k].f(a, b), dst);
  } else if (form == 1) {
    TR("ct_%s_(%s, %s)\n", binary[k].name, desc(a), desc(b));
    rst(binary[k].name, binary[k].fi(a, b), a);
  } else {
    ct_tensor *o = pout(fz_bit(IN) ? a : b, dst);
    TR("ct_%s_out(%s, %s, %s)%s\n", binary[k].name, desc(o), desc(a), desc(b), o == a || o == b ? " [out aliases]" : "");
    rst(binary[k].name, binary[k].fo(o, a, b), o);
  }
}

static void op_bscalar(int dst) {
  unsigned k = fz_pick(IN, sizeof bscalar / sizeof bscalar[0]), form = fz_pick(IN, 3);
  ct_tensor *a = pk();
  ct_scalar s = pscalar();
  if (form == 0 && !bscalar[k].f) form = 1;
  if (form == 2 && !bscalar[k].fo) form = 1;
  if (form == 0) {
    TR("ct_%s(%s, %s)\n", bscalar[k].name, desc(a), sc_desc(s));
    res(bscalar[k].name, bscalar[k].f(a, s), dst);
  } else if (form == 1) {
    TR("ct_%s_(%s, %s)\n", bscalar[k].name, desc(a), sc_desc(s));
    rst(bscalar[k].name, bscalar[k].fi(a, s), a);
  } else {
    ct_tensor *o = pout(a, dst);
    TR("ct_%s_out(%s, %s, %s)\n", bscalar[k].name, desc(o), desc(a), sc_desc(s));
    rst(bscalar[k].name, bscalar[k].fo(o, a, s), o);
  }
}

static void op_pointwise_misc(int dst) {
  ct_tensor *a = pk(), *b = second(a, 0, (dst + 1) % NSLOT), *c = fz_bit(IN) ? pk() : second(a, 0, (dst + 2) % NSLOT), *o;
  ct_scalar s1 = pscalar(), s2 = fz_pick(IN, 4) ? pscalar() : ct_scalar_none();
  unsigned form = fz_pick(IN, 3);
  static const char *modes[] = {"trunc", "floor", NULL, "bogus"};
  switch (fz_pick(IN, 12)) {
  case 0:
    TR("ct_where(%s, %s, %s) form %u\n", desc(a), desc(b), desc(c), form);
    if (form == 2) o = pout(b, dst), rst("where_out", ct_where_out(o, a, b, c), o);
    else if (form == 1) res("where_scalar_other", ct_where_scalar_other(a, b, s1), dst);
    else res("where", ct_where(a, b, c), dst);
    break;
  case 1:
    TR("ct_masked_fill(%s, %s, %s) form %u\n", desc(a), desc(b), sc_desc(s1), form);
    if (form == 0) res("masked_fill", ct_masked_fill(a, b, s1), dst);
    else if (form == 1) rst("masked_fill_", ct_masked_fill_(a, b, s1), a);
    else o = pout(a, dst), rst("masked_fill_out", ct_masked_fill_out(o, a, b, s1), o);
    break;
  case 2:
    TR("ct_masked_fill_tensor(%s, %s, %s) form %u\n", desc(a), desc(b), desc(c), form);
    if (form == 0) res("masked_fill_tensor", ct_masked_fill_tensor(a, b, c), dst);
    else rst("masked_fill_tensor_", ct_masked_fill_tensor_(a, b, c), a);
    break;
  case 3:
    TR("ct_lerp(%s, %s, %s) form %u\n", desc(a), desc(b), sc_desc(s1), form);
    if (form == 0) res("lerp", ct_lerp(a, b, s1), dst);
    else if (form == 1) rst("lerp_", ct_lerp_(a, b, s1), a);
    else o = pout(a, dst), rst("lerp_tensor_out", ct_lerp_tensor_out(o, a, b, c), o);
    break;
  case 4:
    TR("ct_addcmul/addcdiv(%s, %s, %s) form %u\n", desc(a), desc(b), desc(c), form);
    if (form == 0) res("addcdiv", ct_addcdiv(a, b, c), dst);
    else if (form == 1) rst("addcmul_ex_", ct_addcmul_ex_(a, b, c, s1), a);
    else o = pout(a, dst), rst("addcmul_out", ct_addcmul_out(o, a, b, c), o);
    break;
  case 5:
    TR("ct_clamp(%s, %s, %s) form %u\n", desc(a), sc_desc(s1), sc_desc(s2), form);
    if (form == 0) res("clamp", ct_clamp(a, fz_bit(IN) ? s1 : ct_scalar_none(), s2), dst);
    else if (form == 1) rst("clamp_", ct_clamp_(a, s1, s2), a);
    else o = pout(a, dst), rst("clamp_out", ct_clamp_out(o, a, s1, s2), o);
    break;
  case 6:
    TR("ct_clamp_tensor(%s, %s, %s) form %u\n", desc(a), desc(b), desc(c), form);
    if (form == 0) res("clamp_tensor", ct_clamp_tensor(a, b, fz_bit(IN) ? c : NULL), dst);
    else if (form == 1) rst("clamp_tensor_", ct_clamp_tensor_(a, fz_bit(IN) ? b : NULL, c), a);
    else o = pout(a, dst), rst("clamp_tensor_out", ct_clamp_tensor_out(o, a, b, c), o);
    break;
  case 7: {
    const char *m = modes[fz_pick(IN, 4)];
    TR("ct_div_mode(%s, %s, %s) form %u\n", desc(a), desc(b), m ? m : "NULL", form);
    if (form == 0) res("div_mode", ct_div_mode(a, b, m), dst);
    else if (form == 1) rst("div_mode_", ct_div_mode_(a, b, m), a);
    else o = pout(a, dst), rst("div_mode_out", ct_div_mode_out(o, a, b, m), o);
    break;
  }
  case 8: {
    double x = fz_double(IN), y = fz_double(IN), z = fz_double(IN);
    TR("ct_nan_to_num(%s, %g, %g, %g) form %u\n", desc(a), x, y, z, form);
    if (form == 0) res("nan_to_num", ct_nan_to_num(a, x, y, z), dst);
    else if (form == 1) rst("nan_to_num_", ct_nan_to_num_(a, x, y, z), a);
    else o = pout(a, dst), rst("nan_to_num_out", ct_nan_to_num_out(o, a, x, y, z), o);
    break;
  }
  case 9: {
    int64_t dec = fz_int(IN);
    TR("ct_round_decimals(%s, %lld) form %u\n", desc(a), (long long)dec, form);
    if (form == 0) res("round_decimals", ct_round_decimals(a, dec), dst);
    else if (form == 1) rst("round_decimals_", ct_round_decimals_(a, dec), a);
    else o = pout(a, dst), rst("round_decimals_out", ct_round_decimals_out(o, a, dec), o);
    break;
  }
  case 10:
    TR("ct_hardtanh/pow_scalar_self/remainder_scalar_self(%s, %s, %s) form %u\n", desc(a), sc_desc(s1), sc_desc(s2), form);
    if (form == 0) res("hardtanh", ct_hardtanh(a, s1, s2), dst);
    else if (form == 1) res("pow_scalar_self", ct_pow_scalar_self(s1, a), dst);
    else o = pout(a, dst), rst("remainder_scalar_self_out", ct_remainder_scalar_self_out(o, s1, a), o);
    break;
  default:
    TR("ct_add_ex/sub_out_ex/copy_(%s, %s, %s) form %u\n", desc(a), desc(b), sc_desc(s1), form);
    if (form == 0) res("add_ex", ct_add_ex(a, b, s1), dst);
    else if (form == 1) rst("copy_", ct_copy_(a, b), a);
    else o = pout(a, dst), rst("sub_out_ex", ct_sub_out_ex(o, a, b, s1), o);
    break;
  }
}

static void op_reduce(int dst) {
  ct_tensor *x = pk(), *o, *idx = NULL, *r;
  int64_t d[4], dim = fz_int(IN);
  int nd = pdims(d, 3);
  bool keep = fz_bit(IN), flag = fz_bit(IN);
  unsigned form = fz_pick(IN, 3);
  int dst2 = (dst + 1) % NSLOT;
  switch (fz_pick(IN, 17)) {
  case 0:
    TR("sum(%s) dims %s keep %d form %u\n", desc(x), ilist(nd, d), keep, form);
    if (form == 0) res("sum", ct_sum(x), dst);
    else if (form == 1) res("sum_dim", ct_sum_dim(x, nd, d, keep), dst);
    else o = pout(x, dst), rst(flag ? "sum_all_out" : "sum_out", flag ? ct_sum_all_out(o, x) : ct_sum_out(o, x, nd, d, keep), o);
    break;
  case 1:
    TR("mean(%s) dims %s keep %d form %u\n", desc(x), ilist(nd, d), keep, form);
    if (form == 0) res("mean", ct_mean(x), dst);
    else if (form == 1) res("mean_dim", ct_mean_dim(x, nd, d, keep), dst);
    else o = pout(x, dst), rst("mean_out", ct_mean_out(o, x, nd, d, keep), o);
    break;
  case 2:
    TR("prod(%s) dim %lld keep %d form %u\n", desc(x), (long long)dim, keep, form);
    if (form == 0) res("prod", ct_prod(x), dst);
    else if (form == 1) res("prod_dim", ct_prod_dim(x, dim, keep), dst);
    else o = pout(x, dst), rst("prod_all_out", flag ? ct_prod_all_out(o, x) : ct_prod_out(o, x, dim, keep), o);
    break;
  case 3:
    TR("amax/amin(%s) dims %s keep %d form %u\n", desc(x), ilist(nd, d), keep, form);
    if (form == 0) res("amax", ct_amax(x, nd, d, keep), dst);
    else if (form == 1) res(flag ? "max" : "min", flag ? ct_max(x) : ct_min(x), dst);
    else o = pout(x, dst), rst("amin_out", ct_amin_out(o, x, nd, d, keep), o);
    break;
  case 4:
    TR("var/std(%s) dims %s unbiased %d keep %d form %u\n", desc(x), ilist(nd, d), flag, keep, form);
    if (form == 0) res("var_dim", ct_var_dim(x, nd, d, flag, keep), dst);
    else if (form == 1) res("std_unbiased", ct_std_unbiased(x, flag), dst);
    else o = pout(x, dst), rst("std_dim_out", ct_std_dim_out(o, x, nd, d, flag, keep), o);
    break;
  case 5: {
    ct_scalar p = fz_bit(IN) ? ct_float(fz_double(IN)) : ct_int((int64_t)fz_pick(IN, 4));
    TR("norm(%s, %s) dims %s keep %d form %u\n", desc(x), sc_desc(p), ilist(nd, d), keep, form);
    if (form == 0) res("norm", ct_norm(x, p), dst);
    else if (form == 1) res("linalg_vector_norm", ct_linalg_vector_norm(x, p, nd, d, keep), dst);
    else o = pout(x, dst), rst("norm_dim_out", ct_norm_dim_out(o, x, p, nd, d, keep), o);
    break;
  }
  case 6:
    TR("logsumexp(%s) dims %s keep %d form %u\n", desc(x), ilist(nd, d), keep, form);
    if (form == 2) o = pout(x, dst), rst("logsumexp_out", ct_logsumexp_out(o, x, nd, d, keep), o);
    else res("logsumexp", ct_logsumexp(x, nd, d, keep), dst);
    break;
  case 7:
    TR("all/any(%s) dim %lld keep %d form %u\n", desc(x), (long long)dim, keep, form);
    if (form == 0) res(flag ? "all" : "any", flag ? ct_all(x) : ct_any(x), dst);
    else if (form == 1) res("all_dim", flag ? ct_all_dim(x, dim, keep) : ct_any_dim(x, dim, keep), dst);
    else o = pout(x, dst), rst("any_out", flag ? ct_any_all_out(o, x) : ct_any_out(o, x, dim, keep), o);
    break;
  case 8:
    TR("argmax/argmin(%s) dim %lld keep %d form %u\n", desc(x), (long long)dim, keep, form);
    if (form == 0) res("argmax", ct_argmax(x, dim, keep), dst);
    else if (form == 1) res("argmin", ct_argmin(x, dim, keep), dst);
    else o = pout(x, dst), rst("argmax_out", ct_argmax_out(o, x, dim, keep), o);
    break;
  case 9:
    TR("cumsum/cumprod(%s, %lld) form %u\n", desc(x), (long long)dim, form);
    if (form == 0) res(flag ? "cumsum" : "cumprod", flag ? ct_cumsum(x, dim) : ct_cumprod(x, dim), dst);
    else if (form == 1) rst("cumsum_", flag ? ct_cumsum_(x, dim) : ct_cumprod_(x, dim), x);
    else o = pout(x, dst), rst("cumsum_out", flag ? ct_cumsum_out(o, x, dim) : ct_logcumsumexp_out(o, x, dim), o);
    break;
  case 10:
    TR("max_dim/min_dim(%s, %lld, %d) form %u\n", desc(x), (long long)dim, keep, form);
    if (form < 2) {
      r = flag ? ct_max_dim(x, dim, keep, &idx) : ct_min_dim(x, dim, keep, &idx);
      if (r && !idx) finding("max_dim", "values without indices");
      if (!r && idx) finding("max_dim", "indices after an error");
      if (idx) check_tensor("max_dim indices", idx), put(dst2, own(idx));
      res("max_dim", r, dst);
    } else {
      ct_tensor *o2;
      o = pout(x, dst);
      o2 = pout(x, dst2);
      rst("max_dim_out", ct_max_dim_out(o, o2, x, dim, keep), o);
    }
    break;
  case 11:
    TR("sort/topk/kthvalue(%s, %lld) form %u\n", desc(x), (long long)dim, form);
    if (form == 0) r = ct_sort(x, dim, flag, &idx);
    else if (form == 1) r = ct_topk(x, fz_int(IN), dim, flag, keep, &idx);
    else r = ct_kthvalue(x, fz_int(IN), dim, keep, &idx);
    if (idx) check_tensor("sort indices", idx), put(dst2, own(idx));
    res("sort", r, dst);
    break;
  case 12:
    TR("median/nanmedian(%s, %lld) form %u\n", desc(x), (long long)dim, form);
    if (form == 0) res("median", flag ? ct_median(x) : ct_nanmedian(x), dst);
    else {
      r = ct_median_dim(x, dim, keep, &idx);
      if (idx) check_tensor("median indices", idx), put(dst2, own(idx));
      res("median_dim", r, dst);
    }
    break;
  case 13:
    TR("nansum/nanmean/count_nonzero(%s) dims %s form %u\n", desc(x), ilist(nd, d), form);
    if (form == 0) res("nansum", ct_nansum(x, nd, d, keep), dst);
    else if (form == 1) res("nanmean", ct_nanmean(x, nd, d, keep), dst);
    else res("count_nonzero_dims", ct_count_nonzero_dims(x, nd, d), dst);
    break;
  case 14:
    TR("var_mean/std_mean/aminmax(%s) dims %s form %u\n", desc(x), ilist(nd, d), form);
    if (form == 0) r = ct_var_mean(x, nd, d, &idx);
    else if (form == 1) r = ct_std_mean(x, nd, d, &idx);
    else r = ct_aminmax(x, &idx);
    if (idx) check_tensor("var_mean second", idx), put(dst2, own(idx));
    res("var_mean", r, dst);
    break;
  case 15:
    TR("cummax/argsort(%s, %lld) form %u\n", desc(x), (long long)dim, form);
    if (form == 0) {
      r = ct_cummax(x, dim, &idx);
      if (idx) check_tensor("cummax indices", idx), put(dst2, own(idx));
      res("cummax", r, dst);
    } else if (form == 1) res("argsort", ct_argsort(x, dim, flag), dst);
    else o = pout(x, dst), rst("var_out", ct_var_out(o, x, nd, d), o);
    break;
  default: {
    /* full reduction of a zero-size tensor with non-trivial other dims (issue 12, item 1) */
    int64_t s[3];
    ct_dtype dt = pdtype();
    ct_tensor *z;
    s[0] = (int64_t)fz_pick(IN, 6), s[1] = (int64_t)fz_pick(IN, 5), s[2] = 0;
    z = ct_zeros(3, s, dt);
    if (!z) {
      expect_error("zeros");
      break;
    }
    put(dst, own(z));
    z = S[dst];
    TR("zero-size reductions of %s form %u\n", desc(z), form);
    if (form == 0) res("sum0", fz_bit(IN) ? ct_sum(z) : ct_mean(z), dst2);
    else if (form == 1) res("amax0", fz_bit(IN) ? ct_prod(z) : ct_amax(z, nd, d, keep), dst2);
    else res("std0", fz_bit(IN) ? ct_std_unbiased(z, flag) : ct_logsumexp(z, nd, d, keep), dst2);
    break;
  }
  }
}

static void op_linalg(int dst) {
  ct_tensor *a = pk(), *b, *c, *o;
  unsigned form = fz_pick(IN, 3);
  if (fz_pick(IN, 3) == 0) {
    op_binary(dst); /* mm / bmm / matmul / mv / dot / outer share the binary table */
    return;
  }
  b = second(a, 1, (dst + 1) % NSLOT);
  c = fz_bit(IN) ? pk() : NULL;
  switch (fz_pick(IN, 3)) {
  case 0: {
    ct_scalar beta = pscalar(), alpha = pscalar();
    TR("addmm(%s, %s, %s) form %u\n", desc(c), desc(a), desc(b), form);
    if (form == 0) res("addmm", ct_addmm(c, a, b), dst);
    else if (form == 1) rst("addmm_ex_", ct_addmm_ex_(c, a, b, beta, alpha), c);
    else o = pout(c ? c : a, dst), rst("addmm_out", ct_addmm_out(o, c, a, b), o);
    break;
  }
  case 1: {
    ct_tensor *w = b && b->ndim == 2 && fz_bit(IN) ? ct_t(b) : b; /* linear takes [out, in] */
    if (w != b) {
      if (!w) expect_error("t");
      else temp(own(w));
    }
    TR("linear(%s, %s, %s) form %u\n", desc(a), desc(w), desc(c), form);
    if (form < 2) res("linear", ct_linear(a, w, c), dst);
    else o = pout(a, dst), rst("linear_out", ct_linear_out(o, a, w, c), o);
    break;
  }
  default:
    TR("baddbmm(%s, %s, %s) form %u\n", desc(c), desc(a), desc(b), form);
    if (form == 0) res("baddbmm", ct_baddbmm(c, a, b), dst);
    else if (form == 1) rst("baddbmm_", ct_baddbmm_(c, a, b), c);
    else o = pout(c ? c : a, dst), rst("baddbmm_out", ct_baddbmm_out(o, c, a, b), o);
    break;
  }
}

static void op_shape(int dst) {
  ct_tensor *x = pk(), *list[4], *o;
  int64_t d[4], dim = fz_int(IN);
  int n, i;
  unsigned form = fz_pick(IN, 2);
  switch (fz_pick(IN, 9)) {
  case 0:
  case 1:
    n = 1 + (int)fz_pick(IN, 4);
    for (i = 0; i < n; i++) list[i] = fz_pick(IN, 3) ? x : pk();
    if (fz_pick(IN, 16) == 0) n = 0;
    TR("cat/stack(%d: %s %s ...) dim %lld form %u\n", n, desc(list[0]), n > 1 ? desc(list[1]) : "", (long long)dim, form);
    if (fz_bit(IN)) {
      if (form == 0) res("cat", ct_cat(n, list, dim), dst);
      else o = pout(x, dst), rst("cat_out", ct_cat_out(o, n, list, dim), o);
    } else {
      if (form == 0) res("stack", ct_stack_tensors(n, list, dim), dst);
      else o = pout(x, dst), rst("stack_out", ct_stack_tensors_out(o, n, list, dim), o);
    }
    break;
  case 2: {
    ct_tensor *parts[8] = {0};
    int64_t cnt, arg = fz_int(IN), cap = (int64_t)fz_pick(IN, 9);
    unsigned w = fz_pick(IN, 4);
    TR("split/chunk/unbind(%s, %lld, dim %lld, cap %lld) kind %u\n", desc(x), (long long)arg, (long long)dim, (long long)cap, w);
    if (w == 0) cnt = ct_split(x, arg, dim, cap, parts);
    else if (w == 1) cnt = ct_chunk(x, arg, dim, cap, parts);
    else if (w == 2) cnt = ct_unbind(x, dim, cap, parts);
    else n = pdims(d, 3), cnt = ct_split_with_sizes(x, n, d, dim, cap, parts);
    if (cnt < 0) {
      for (i = 0; i < 8; i++)
        if (parts[i]) finding("split", "pieces written after an error");
      expect_error("split");
      break;
    }
    for (i = 0; i < 8 && i < cnt && i < cap; i++) {
      if (!parts[i]) finding("split", "missing piece");
      check_tensor("split piece", parts[i]);
      put((dst + i) % NSLOT, own(parts[i]));
    }
    ct_clear_error();
    break;
  }
  case 3:
    n = pdims(d, 3);
    TR("flip/roll(%s, %s) form %u\n", desc(x), ilist(n, d), form);
    if (fz_bit(IN)) {
      if (form == 0) res("flip", ct_flip(x, n, d), dst);
      else o = pout(x, dst), rst("flip_out", ct_flip_out(o, x, n, d), o);
    } else {
      int64_t sh[4];
      int ns = pdims(sh, 3);
      if (fz_bit(IN)) ns = n;
      if (form == 0) res("roll", ct_roll(x, ns, sh, n, d), dst);
      else o = pout(x, dst), rst("roll_out", ct_roll_out(o, x, ns, sh, n, d), o);
    }
    break;
  case 4: {
    static const char *modes[] = {"constant", "reflect", "replicate", "circular", "bogus"};
    const char *m = modes[fz_pick(IN, 5)];
    double v = fz_double(IN);
    n = (int)fz_pick(IN, 7);
    for (i = 0; i < n && i < 4; i++) d[i] = fz_pick(IN, 6) ? (int64_t)fz_pick(IN, 5) - 1 : fz_int(IN);
    if (n > 4) n = 4;
    TR("pad(%s, %s, %s, %g) form %u\n", desc(x), ilist(n, d), m, v, form);
    if (form == 0) res("pad", ct_pad(x, n, d, m, v), dst);
    else o = pout(x, dst), rst("constant_pad_nd_out", ct_constant_pad_nd_out(o, x, n, d, ct_float(v)), o);
    break;
  }
  case 5:
    n = pdims(d, 4);
    for (i = 0; i < n; i++)
      if (fz_bit(IN)) d[i] = (int64_t)fz_pick(IN, 3);
    TR("repeat/tile(%s, %s) form %u\n", desc(x), ilist(n, d), form);
    if (form == 0) res("repeat", ct_repeat(x, n, d), dst);
    else res("tile", ct_tile(x, n, d), dst);
    break;
  case 6:
    TR("tril/triu(%s, %lld) form %u\n", desc(x), (long long)dim, form);
    if (form == 0) res("tril", ct_tril(x, dim), dst);
    else if (fz_bit(IN)) rst("triu_", ct_triu_(x, dim), x);
    else o = pout(x, dst), rst("triu_out", ct_triu_out(o, x, dim), o);
    break;
  case 7:
    TR("one_hot(%s, %lld)\n", desc(x), (long long)dim);
    res("one_hot", ct_one_hot(x, dim), dst);
    break;
  default: { /* advanced indexing */
    ct_tensor *ix[3];
    int64_t s1 = (int64_t)fz_pick(IN, 4);
    n = 1 + (int)fz_pick(IN, 2);
    for (i = 0; i < n; i++) ix[i] = fz_pick(IN, 4) ? make_index(1, &s1, dim_size(x, i)) : NULL;
    TR("index/index_put(%s, %d indices of [%lld]) form %u\n", desc(x), n, (long long)s1, form);
    if (form == 0) res("index", ct_index(x, n, ix), dst);
    else {
      ct_tensor *v = second(x, 0, (dst + 1) % NSLOT);
      rst("index_put_", ct_index_put_(x, n, ix, v, fz_bit(IN)), x);
    }
    break;
  }
  }
}

static void op_index(int dst) {
  ct_tensor *x = pk(), *ix, *src, *o;
  int64_t dim = fz_pick(IN, 4) ? (int64_t)fz_pick(IN, 3) : fz_int(IN), bound = dim_size(x, dim), s[4] = {0, 0, 0, 0};
  int nd = x ? x->ndim : 0, i;
  unsigned form = fz_pick(IN, 3), w = fz_pick(IN, 7);
  static const char *reds[] = {"sum", "prod", "mean", "amax", "amin", "bogus"};
  if (nd > 4) nd = 4;
  if (w <= 3) { /* gather / scatter family: index of the same rank, no larger than x */
    for (i = 0; i < nd; i++) s[i] = x->sizes[i] ? (int64_t)fz_pick(IN, (unsigned)(x->sizes[i] < 4096 ? x->sizes[i] + 1 : 4097)) : 0;
    if (fz_pick(IN, 6) == 0) nd = (int)fz_pick(IN, 3);
  } else
    nd = 1, s[0] = (int64_t)fz_pick(IN, 5);
  ix = fz_pick(IN, 8) ? make_index(nd, s, bound) : pk();
  src = fz_bit(IN) ? pk() : (x ? fresh_shape(x->ndim > 4 ? 0 : x->ndim, x->sizes, (ct_dtype)x->dtype) : NULL);
  TR("index op %u (%s, dim %lld, idx %s, src %s) form %u\n", w, desc(x), (long long)dim, desc(ix), desc(src), form);
  switch (w) {
  case 0:
    if (form == 0) res("gather", ct_gather(x, dim, ix), dst);
    else if (form == 1) res("take_along_dim", ct_take_along_dim(x, ix, dim), dst);
    else o = pout(x, dst), rst("gather_out", ct_gather_out(o, x, dim, ix), o);
    break;
  case 1:
    if (form == 0) res("scatter", ct_scatter(x, dim, ix, src), dst);
    else if (form == 1) rst("scatter_", ct_scatter_(x, dim, ix, src), x);
    else o = pout(x, dst), rst("scatter_out", ct_scatter_out(o, x, dim, ix, src), o);
    break;
  case 2:
    if (form == 0) res("scatter_add", ct_scatter_add(x, dim, ix, src), dst);
    else if (form == 1) rst("scatter_value_", ct_scatter_value_(x, dim, ix, pscalar()), x);
    else o = pout(x, dst), rst("scatter_add_out", ct_scatter_add_out(o, x, dim, ix, src), o);
    break;
  case 3: {
    const char *r = reds[fz_pick(IN, 6)];
    if (form == 0) res("scatter_reduce", ct_scatter_reduce(x, dim, ix, src, r), dst);
    else if (form == 1) rst("scatter_reduce_ex_", ct_scatter_reduce_ex_(x, dim, ix, src, r, fz_bit(IN)), x);
    else o = pout(x, dst), rst("scatter_reduce_out", ct_scatter_reduce_out(o, x, dim, ix, src, r), o);
    break;
  }
  case 4:
    if (form == 0) res("index_select", ct_index_select(x, dim, ix), dst);
    else o = pout(x, dst), rst("index_select_out", ct_index_select_out(o, x, dim, ix), o);
    break;
  case 5: {
    ct_tensor *srcb = src;
    if (x && ix && fz_bit(IN) && x->ndim <= 4) { /* source shaped like x with dim replaced by the index length */
      int64_t ss[4];
      int64_t dd = x->ndim ? ((dim % x->ndim) + x->ndim) % x->ndim : 0;
      for (i = 0; i < x->ndim; i++) ss[i] = i == dd ? ix->numel : x->sizes[i];
      srcb = fresh_shape(x->ndim, ss, (ct_dtype)x->dtype);
    }
    if (form == 0) res("index_add", ct_index_add(x, dim, ix, srcb), dst);
    else if (form == 1) rst("index_add_ex_", ct_index_add_ex_(x, dim, ix, srcb, pscalar()), x);
    else o = pout(x, dst), rst("index_copy_out", ct_index_copy_out(o, x, dim, ix, srcb), o);
    break;
  }
  default:
    if (form == 0) res("index_fill", ct_index_fill(x, dim, ix, pscalar()), dst);
    else if (form == 1) rst("index_fill_", ct_index_fill_(x, dim, ix, pscalar()), x);
    else rst("index_copy_", ct_index_copy_(x, dim, ix, src), x);
    break;
  }
}

static void op_nn(int dst) {
  ct_tensor *x = pk(), *o, *w = NULL, *b = NULL, *r;
  int64_t dim = fz_int(IN);
  unsigned form = fz_pick(IN, 3);
  ct_dtype dt = fz_pick(IN, 3) ? CT_DTYPE_NONE : pdtype();
  int i;
  switch (fz_pick(IN, 10)) {
  case 0:
    TR("softmax/log_softmax(%s, %lld, %s) form %u\n", desc(x), (long long)dim, dt == CT_DTYPE_NONE ? "none" : dn(dt), form);
    if (form == 0) res("softmax", ct_softmax(x, dim, dt), dst);
    else if (form == 1) res("log_softmax", ct_log_softmax(x, dim, dt), dst);
    else o = pout(x, dst), rst("softmax_out", fz_bit(IN) ? ct_softmax_out(o, x, dim, dt) : ct_log_softmax_out(o, x, dim, dt), o);
    break;
  case 1: { /* layer_norm over the trailing dims */
    int64_t ns[2];
    int n = (int)fz_pick(IN, 3);
    double eps = fz_pick(IN, 4) ? 1e-5 : fz_double(IN);
    for (i = 0; i < n; i++) ns[i] = x && x->ndim > n - 1 - i && fz_pick(IN, 5) ? x->sizes[x->ndim - n + i] : fz_size(IN);
    if (fz_bit(IN)) w = fresh_shape(n, ns, x ? (ct_dtype)x->dtype : CT_F32);
    if (fz_bit(IN)) b = fresh_shape(n, ns, x ? (ct_dtype)x->dtype : CT_F32);
    TR("layer_norm(%s, %s, w %s, b %s, eps %g)\n", desc(x), ilist(n, ns), desc(w), desc(b), eps);
    if (form == 2) res("rms_norm", ct_rms_norm(x, n, ns, w, eps), dst);
    else res("layer_norm", ct_layer_norm(x, n, ns, w, b, eps), dst);
    break;
  }
  case 2: { /* batch_norm: [N, C, ...] with per-channel tensors */
    int64_t c = dim_size(x, 1) ;
    ct_tensor *rm = NULL, *rv = NULL;
    bool training = fz_bit(IN);
    double mom = fz_pick(IN, 4) ? 0.1 : fz_double(IN), eps = fz_pick(IN, 4) ? 1e-5 : fz_double(IN);
    if (fz_pick(IN, 6) == 0) c = fz_size(IN);
    if (c < 0 || c > 64) c = 1;
    if (fz_bit(IN)) w = fresh_shape(1, &c, CT_F32);
    if (fz_bit(IN)) b = fresh_shape(1, &c, CT_F32);
    if (fz_bit(IN)) rm = fresh_shape(1, &c, fz_pick(IN, 4) ? CT_F32 : pdtype());
    if (fz_bit(IN)) rv = fresh_shape(1, &c, CT_F32);
    TR("batch_norm(%s, w %s, b %s, rm %s, rv %s, train %d, mom %g, eps %g)\n", desc(x), desc(w), desc(b), desc(rm), desc(rv),
       training, mom, eps);
    res("batch_norm", ct_batch_norm(x, w, b, rm, rv, training, mom, eps), dst);
    break;
  }
  case 3: { /* conv2d: weight [O, C/groups, kh, kw] */
    int64_t ws[4], st[2], pd[2], dl[2], groups = fz_pick(IN, 4) ? 1 : fz_int(IN);
    int nst = 2, npd = 2, ndl = 2;
    ws[0] = (int64_t)fz_pick(IN, 4) + 1;
    ws[1] = x && x->ndim >= 3 ? dim_size(x, -3) / (groups > 0 ? groups : 1) : (int64_t)fz_pick(IN, 3);
    ws[2] = (int64_t)fz_pick(IN, 3) + 1;
    ws[3] = (int64_t)fz_pick(IN, 3) + 1;
    if (ws[1] > 64) ws[1] = 1;
    for (i = 0; i < 2; i++) {
      st[i] = fz_pick(IN, 5) ? (int64_t)fz_pick(IN, 3) + 1 : fz_int(IN);
      pd[i] = fz_pick(IN, 5) ? (int64_t)fz_pick(IN, 3) : fz_int(IN);
      dl[i] = fz_pick(IN, 5) ? 1 : fz_int(IN);
    }
    if (fz_pick(IN, 8) == 0) nst = (int)fz_pick(IN, 3), npd = (int)fz_pick(IN, 3), ndl = (int)fz_pick(IN, 3);
    w = fresh_shape(4, ws, x && fz_pick(IN, 4) ? (ct_dtype)x->dtype : pdtype());
    if (fz_bit(IN)) b = fresh_shape(1, ws, CT_F32);
    TR("conv2d(%s, %s, %s, stride %s, pad %s, dil %s, groups %lld)\n", desc(x), desc(w), desc(b), ilist(nst, st), ilist(npd, pd),
       ilist(ndl, dl), (long long)groups);
    res("conv2d", ct_conv2d(x, w, b, nst, st, npd, pd, ndl, dl, groups), dst);
    break;
  }
  case 4: {
    int64_t k[2], st[2], pd[2], dl[2];
    bool ceil = fz_bit(IN);
    for (i = 0; i < 2; i++) {
      k[i] = fz_pick(IN, 6) ? (int64_t)fz_pick(IN, 3) + 1 : fz_int(IN);
      st[i] = fz_pick(IN, 6) ? (int64_t)fz_pick(IN, 3) + 1 : fz_int(IN);
      pd[i] = fz_pick(IN, 6) ? (int64_t)fz_pick(IN, 2) : fz_int(IN);
      dl[i] = fz_pick(IN, 6) ? 1 : fz_int(IN);
    }
    TR("pool2d(%s, k %s, s %s, p %s, d %s, ceil %d) form %u\n", desc(x), ilist(2, k), ilist(2, st), ilist(2, pd), ilist(2, dl), ceil, form);
    if (form == 0) res("max_pool2d", ct_max_pool2d(x, 2, k, (int)fz_pick(IN, 3), st, 2, pd, 2, dl, ceil), dst);
    else if (form == 1) res("avg_pool2d", ct_avg_pool2d(x, 2, k, 2, st, 2, pd, ceil, fz_bit(IN), fz_pick(IN, 4) ? CT_INT_NONE : fz_int(IN)), dst);
    else res("adaptive_avg_pool2d", ct_adaptive_avg_pool2d(x, 2, k), dst);
    break;
  }
  case 5: { /* embedding(weight [V, D], indices) */
    int64_t ws[2];
    ws[0] = (int64_t)fz_pick(IN, 6);
    ws[1] = (int64_t)fz_pick(IN, 4);
    w = fz_bit(IN) ? fresh_shape(2, ws, fz_pick(IN, 4) ? CT_F32 : pdtype()) : NULL;
    if (!w) w = x;
    {
      int64_t is[2];
      int ni = (int)fz_pick(IN, 3);
      is[0] = (int64_t)fz_pick(IN, 4), is[1] = (int64_t)fz_pick(IN, 3);
      b = make_index(ni, is, dim_size(w, 0));
    }
    TR("embedding(%s, %s)\n", desc(w), desc(b));
    if (form == 2) {
      ct_tensor *o = pout(w, dst);
      rst("embedding_out", ct_embedding_out(o, w, b), o);
    }
    else res("embedding", ct_embedding(w, b), dst);
    break;
  }
  case 6: { /* cross_entropy / nll_loss: input [N, C], target [N] class indices */
    int64_t n = dim_size(x, 0), c = x && x->ndim >= 2 ? x->sizes[1] : dim_size(x, 0), red = fz_pick(IN, 5) ? (int64_t)fz_pick(IN, 3) : fz_int(IN);
    int64_t ign = fz_pick(IN, 4) ? -100 : fz_int(IN);
    double ls = fz_pick(IN, 3) ? 0.0 : fz_double(IN);
    b = make_index(x && x->ndim >= 2 ? 1 : 0, &n, c);
    if (fz_pick(IN, 4) == 0) w = fresh_shape(1, &c, CT_F32);
    TR("cross_entropy/nll_loss(%s, %s, w %s, red %lld, ign %lld, ls %g) form %u\n", desc(x), desc(b), desc(w), (long long)red,
       (long long)ign, ls, form);
    if (form == 0) res("cross_entropy", ct_cross_entropy(x, b, w, red, ign, ls), dst);
    else if (form == 1) res("nll_loss", ct_nll_loss(x, b, w, red, ign), dst);
    else res("mse_loss", ct_mse_loss(x, second(x, 0, (dst + 1) % NSLOT), red), dst);
    break;
  }
  case 7: { /* dropout with the program's generator */
    double p = fz_pick(IN, 3) ? (double)fz_pick(IN, 5) / 4 : fz_double(IN);
    bool train = fz_pick(IN, 4) != 0;
    TR("dropout(%s, p %g, train %d) form %u\n", desc(x), p, train, form);
    if (form == 0) res("dropout_ex", ct_dropout_ex(x, p, train, gen), dst);
    else {
      ct_tensor *mask = NULL;
      r = ct_native_dropout_ex(x, p, train, fz_bit(IN) ? gen : NULL, &mask);
      if (r && !mask) finding("native_dropout", "no mask");
      if (mask) check_tensor("dropout mask", mask), put((dst + 1) % NSLOT, own(mask));
      res("native_dropout_ex", r, dst);
    }
    break;
  }
  case 8: { /* random fills with the program's generator */
    double a = fz_double(IN), c = fz_double(IN);
    TR("random fill %u (%s, %g, %g)\n", form, desc(x), a, c);
    if (form == 0) rst("uniform_ex_", ct_uniform_ex_(x, a, c, gen), x);
    else if (form == 1) rst("normal_ex_", ct_normal_ex_(x, a, c, gen), x);
    else if (fz_bit(IN)) rst("bernoulli_float_ex_", ct_bernoulli_float_ex_(x, a, gen), x);
    else rst("random_from_ex_", ct_random_from_ex_(x, fz_int(IN), fz_int(IN), gen), x);
    break;
  }
  default: {
    ct_tensor *y = second(x, 0, (dst + 1) % NSLOT);
    int64_t red = fz_pick(IN, 5) ? (int64_t)fz_pick(IN, 3) : fz_int(IN);
    TR("losses(%s, %s, red %lld) form %u\n", desc(x), desc(y), (long long)red, form);
    if (form == 0) res("binary_cross_entropy", ct_binary_cross_entropy(x, y, NULL, red), dst);
    else if (form == 1) res("smooth_l1_loss", ct_smooth_l1_loss(x, y, red, fz_double(IN)), dst);
    else res("kl_div", ct_kl_div(x, y, red), dst);
    break;
  }
  }
}

/* ---- guards ---- */
static void op_guard_push(void) {
  unsigned k = fz_pick(IN, 4);
  if (ng >= 8) return;
  G[ng] = ct__guard_zero();
  gkind[ng] = (int)k;
  TR("guard begin %s\n", k == 0 ? "NO_GRAD" : k == 1 ? "ENABLE_GRAD" : k == 2 ? "INFERENCE_MODE" : "SCOPE");
  if (k == 0) ct_no_grad_begin(&G[ng]);
  else if (k == 1) ct_enable_grad_begin(&G[ng]);
  else if (k == 2) ct_inference_mode_begin(&G[ng]);
  else ct_scope_begin(&G[ng]), nscopes++;
  ng++;
}
static void op_guard_pop(void) {
  if (!ng) return;
  ng--;
  TR("guard end\n");
  ct_guard_end(&G[ng]);
  if (gkind[ng] == 3) nscopes--;
}

/* ---- autograd ---- */
static ct_status hook_fn(ct_tensor *g, ct_tensor **replace, void *ctx) {
  (void)g;
  (void)replace;
  if (ctx == (void *)1) return ct_fail(CT_ERR_INVALID, "fuzz_hook", "hook refused the gradient");
  return CT_OK;
}
static int hook_tokens[2];

static void op_autograd(int dst) {
  ct_tensor *x = pk(), *root = NULL;
  bool retain = fz_bit(IN), create = fz_pick(IN, 3) == 0;
  unsigned w = fz_pick(IN, 6);
  if (create && (w <= 1 || w == 5)) used_create_graph = 1;
  if (w <= 1) { /* root: the tensor itself when it has one element, else its sum */
    if (x && x->numel == 1 && fz_bit(IN)) root = temp(ct_retain(x));
    else {
      root = ct_sum(x);
      if (!root) {
        expect_error("sum for backward");
        return;
      }
      root = temp(own(root));
    }
  }
  switch (w) {
  case 0: {
    ct_tensor *go = fz_pick(IN, 4) ? NULL : pk();
    TR("ct_backward_ex(root of %s, go %s, retain %d, create %d)\n", desc(x), desc(go), retain, create);
    rst("backward_ex", ct_backward_ex(root, go, retain, create), NULL);
    break;
  }
  case 1: {
    ct_tensor *inputs[3], *grads[3] = {0};
    ct_backward_desc d;
    int n = 1 + (int)fz_pick(IN, 3), i;
    ct_status st;
    for (i = 0; i < n; i++) inputs[i] = fz_pick(IN, 4) ? x : pk();
    memset(&d, 0, sizeof d);
    d.num_outputs = 1;
    d.outputs = &root;
    d.retain_graph = retain;
    d.create_graph = create;
    d.allow_unused = fz_bit(IN);
    TR("ct_autograd_grad(root of %s, %d inputs (%s, ...), retain %d, create %d, unused %d)\n", desc(x), n, desc(inputs[0]), retain,
       create, d.allow_unused);
    st = ct_autograd_grad(&d, n, inputs, grads);
    if (st != CT_OK) {
      for (i = 0; i < n; i++)
        if (grads[i]) finding("autograd_grad", "gradient returned after an error");
      rst("autograd_grad", st, NULL);
      break;
    }
    for (i = 0; i < n; i++) {
      if (!grads[i] && !d.allow_unused) finding("autograd_grad", "missing gradient without allow_unused");
      if (grads[i]) check_tensor("autograd_grad result", grads[i]), put((dst + i) % NSLOT, grads[i]);
    }
    ct_clear_error();
    break;
  }
  case 2: { /* .grad: take it into a slot, or drop it */
    ct_tensor *g = ct_grad(x);
    TR("ct_grad(%s) = %s\n", desc(x), desc(g));
    if (g) check_tensor("grad", g);
    if (fz_bit(IN)) {
      if (g) put(dst, ct_retain(g));
    } else {
      /* ct_set_grad(x, x) (or x.grad = y, y.grad = x) is a reference cycle the
       * program made itself, as in PyTorch: the harness breaks it at teardown */
      track_grad_tensor(x);
      used_set_grad = 1;
      rst("set_grad", ct_set_grad(x, fz_bit(IN) ? NULL : pk()), NULL);
    }
    ct_clear_error();
    break;
  }
  case 3:
    TR("ct_set_requires_grad(%s) / retain_grad\n", desc(x));
    track_grad_tensor(x);
    if (fz_bit(IN)) rst("set_requires_grad", ct_set_requires_grad(x, fz_pick(IN, 4) != 0), NULL);
    else rst("retain_grad", ct_retain_grad(x), NULL);
    break;
  case 4:
    TR("ct_register_hook(%s)\n", desc(x));
    rst("register_hook", ct_register_hook(x, hook_fn, fz_pick(IN, 4) ? &hook_tokens[0] : (void *)1), NULL);
    break;
  default: /* a small chain with gradients: x * x summed, then backward (double backward when x has history) */
    TR("chain backward on %s create %d\n", desc(x), create);
    {
      ct_tensor *y = ct_mul(x, x), *s;
      if (!y) {
        expect_error("mul");
        break;
      }
      temp(own(y));
      s = ct_mean(y);
      if (!s) expect_error("mean");
      else {
        temp(own(s));
        rst("backward chain", ct_backward_ex(s, NULL, retain, create), NULL);
      }
    }
    break;
  }
}

/* ---- boxed calls with arbitrary values ---- */
static void op_boxed(void) {
  static const char *names[] = {"add.Tensor", "mul.Tensor", "sum",      "cat",        "relu",     "softmax.int", "split.Tensor",
                                "mm",         "where.self", "index.Tensor", "clamp",  "add_.Tensor", "add.out",    "max.dim",
                                "unbind.int", "fill_.Scalar", "view",   "to.dtype", "full",       "sort",     "nonexistent.op"};
  static int64_t ints[4] = {0, 1, -1, 2};
  ct_value vals[12];
  ct_stack st;
  const ct_op *op;
  int n = (int)fz_pick(IN, 7), i;
  const char *name = names[fz_pick(IN, sizeof names / sizeof names[0])];
  ct_tensor *lst[3];
  ct_status s;
  op = ct_op_find(name);
  ct_clear_error();
  for (i = 0; i < 3; i++) lst[i] = pk();
  ct_stack_init(&st, vals, 12);
  for (i = 0; i < n; i++) {
    ct_value v;
    switch (fz_pick(IN, 12)) {
    case 0:
    case 1: v = ct_value_tensor(pk()); break;
    case 2: v = ct_value_int(fz_int(IN)); break;
    case 3: v = ct_value_double(fz_double(IN)); break;
    case 4: v = ct_value_bool(fz_bit(IN)); break;
    case 5: v = ct_value_scalar(pscalar()); break;
    case 6: v = ct_value_dtype(fz_pick(IN, 4) ? pdtype() : (ct_dtype)(int)fz_int(IN)); break;
    case 7: v = ct_value_int_list(fz_pick(IN, 8) ? ints : NULL, (int64_t)fz_pick(IN, 5)); break;
    case 8: v = ct_value_tensor_list(fz_pick(IN, 8) ? lst : NULL, (int64_t)fz_pick(IN, 4)); break;
    case 9: v = ct_value_string(fz_bit(IN) ? "floor" : NULL); break;
    case 10: v = ct_value_generator(fz_bit(IN) ? gen : NULL); break;
    default: v = ct_value_none(); break;
    }
    ct_stack_push(&st, v);
  }
  TR("ct_call_boxed(%s, %d values)\n", name, n);
  if (op) {
    s = ct_call_boxed(op, &st);
    if (s != CT_OK) expect_error("call_boxed");
    else
      for (i = 0; i < st.size; i++)
        if (st.items[i].tag == CT_VALUE_TENSOR && st.items[i].owned) check_tensor("boxed result", st.items[i].v.tensor);
  }
  ct_stack_free(&st);
  ct_clear_error();
}

static void op_misc(int dst) {
  ct_tensor *x = pk();
  switch (fz_pick(IN, 6)) {
  case 0: {
    static char buf[4096];
    size_t caps[] = {0, 1, 16, 4096};
    size_t cap = caps[fz_pick(IN, 4)];
    TR("ct_format(%s, cap %zu)\n", desc(x), cap);
    ct_format(x, cap ? buf : NULL, cap);
    ct_clear_error();
    break;
  }
  case 1:
    TR("release S%d\n", dst);
    put(dst, NULL);
    break;
  case 2: /* ct_keep: the scope's reference moves out; the slot keeps its own */
    if (nscopes && x) {
      ct_tensor *y = ct_relu(x);
      TR("ct_keep(ct_relu(%s))\n", desc(x));
      if (!y) {
        expect_error("relu");
        break;
      }
      ct_keep(y);
      if (nscopes >= 2) ct_retain(y); /* kept into the enclosing scope, which will release it */
      put(dst, y);
    }
    break;
  case 3: {
    int n = 1 + (int)fz_pick(IN, 2);
    TR("ct_set_num_threads(%d)\n", n);
    ct_set_num_threads(n);
    break;
  }
  case 4: {
    double v;
    int64_t i = fz_int(IN);
    TR("ct_get/ct_set/ct_item(%s, %lld)\n", desc(x), (long long)i);
    if (x) {
      v = ct_get(x, i);
      (void)v;
      ct_clear_error();
      if (ct_set(x, i, fz_double(IN)) != CT_OK) expect_error("ct_set");
      if (ct_item(x, &v) != CT_OK) expect_error("ct_item");
    }
    ct_clear_error();
    break;
  }
  default:
    op_boxed();
    break;
  }
}

static ct_keyset start_keys;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_in in;
  int step, i;
  ct_memory_stats ms;
  static int inited;
  in.p = data, in.n = size, in.i = 0;
  IN = &in;
  fz_triage_begin(data, size);
  if (!inited) {
    inited = 1;
    trace = getenv("FZ_TRACE") != NULL;
    ct_set_num_threads(1);
    gen = ct_generator_new(CT_CPU);
    start_keys = ct_dispatch_keys(0);
  }
  ms = ct_memory_stats_get();
  start_tensors = ms.live_tensors;
  start_storages = ms.live_storages;
  ct_manual_seed(gen, fz_u16(IN));
  fz_seed(fz_u32(IN));
  ct_clear_error();
  /* a few tensors first, so that the program has something to work on */
  for (i = 0, step = 1 + (int)fz_pick(IN, 4); i < step; i++) op_create(i);
  for (step = 0; step < MAX_STEPS && fz_more(IN); step++) {
    int dst = (int)pslot();
    step_dev = -1;
    switch (fz_pick(IN, 20)) {
    case 0:
    case 1: op_create(dst); break;
    case 2: op_factory(dst); break;
    case 3:
    case 4: op_view(dst); break;
    case 5: op_unary(dst); break;
    case 6:
    case 7: op_binary(dst); break;
    case 8: op_bscalar(dst); break;
    case 9: op_pointwise_misc(dst); break;
    case 10:
    case 11: op_reduce(dst); break;
    case 12: op_linalg(dst); break;
    case 13: op_shape(dst); break;
    case 14: op_index(dst); break;
    case 15: op_nn(dst); break;
    case 16: op_guard_push(); break;
    case 17: op_guard_pop(); break;
    case 18: op_autograd(dst); break;
    default: op_misc(dst); break;
    }
    if (ct_last_error() != CT_OK) finding("program", "an error was left pending by the harness"); /* harness bug guard */
    end_step_notes();
    flush_temps();
  }
  /* teardown: close the guards (innermost first), release every slot */
  while (ng) op_guard_pop();
  if (used_create_graph || used_set_grad) /* create_graph / the program's own cycles: reset every .grad */
    for (i = 0; i < ngrad_tensors; i++) ct_set_grad(grad_tensors[i], NULL);
  for (i = 0; i < ngrad_tensors; i++) ct_release(grad_tensors[i]);
  ngrad_tensors = used_create_graph = used_set_grad = 0;
  end_step_notes();
  for (i = 0; i < NSLOT; i++) put(i, NULL);
  flush_temps();
  ct_clear_error();
  ct_set_num_threads(1);
  if (!ct_is_grad_enabled()) finding("teardown", "grad mode not restored after the guards ended");
  if (ct_dispatch_keys(0) != start_keys) finding("teardown", "thread key state not restored after the guards ended");
  ms = ct_memory_stats_get();
  if (ms.live_tensors != start_tensors || ms.live_storages != start_storages) {
    char b[160];
    snprintf(b, sizeof b, "live tensors %lld -> %lld, storages %lld -> %lld after releasing everything", (long long)start_tensors,
             (long long)ms.live_tensors, (long long)start_storages, (long long)ms.live_storages);
    finding("leak", b);
  }
  ct_clear_error();
  return 0;
}
