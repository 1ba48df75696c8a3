/* tests/test_view_programs.c - a differential test of autograd through views
 * and in-place ops: replays the programs of tests/fixtures/view_programs.h
 * (written from PyTorch 1.13 by tests/gen_view_programs.py, whose header
 * describes the little register language) through ctorch and compares:
 *   - PyTorch raised at instruction K: ctorch must fail (any error) at K;
 *   - otherwise ctorch must not fail anywhere, and at the end every `val`
 *     register has PyTorch's dtype, requires_grad, shape and values, and
 *     every leaf has PyTorch's .grad (None or a tensor of the same dtype,
 *     shape and values), or like PyTorch is no longer a leaf.
 * Tolerances: float64 |a-b| <= 1e-12 + 1e-9 |b|, float32 1e-5 + 1e-5 |b|
 * (and float64 too in a program that computes in float32 anywhere: libm's
 * float32 results may differ from PyTorch's by an ulp), integers and bool
 * exact. Each program must also release everything it made.
 *
 * TEST(view_programs_differential) runs them all and prints one line per
 * differing program (the first 30; CT_VIEWPROG=all prints every one), then a
 * count. CT_VIEWPROG=N replays program N alone, printing every instruction,
 * its result and each expectation.
 *
 * Included into the unity runner after ctorch.h and harness.h.
 */
#include <stdlib.h>

#include "fixtures/view_programs.h"

#define VP_MAX_REGS 128
#define VP_MAX_TOKS 512
#define VP_MAX_LINE 4096
#define VP_MAX_ELEMS 1024
#define VP_MAX_OUTS 64

typedef struct vp_state {
  ct_tensor *reg[VP_MAX_REGS];
  unsigned char written[VP_MAX_REGS];
  ct_guard nograd;
  int in_nograd, verbose;
  int rounds_in_f32; /* the program computes in float32 somewhere: its float64 values carry f32 rounding */
  char why[512]; /* the first mismatch, or the interpreter's complaint */
} vp_state;

enum { VP_OK = 0, VP_CT_FAILED = 1, VP_BAD = 2 };

static int vp_split(char *line, char **tok) {
  int n = 0;
  char *p = line;
  while (*p) {
    while (*p == ' ') *p++ = '\0';
    if (!*p) break;
    if (n == VP_MAX_TOKS) return -1;
    tok[n++] = p;
    while (*p && *p != ' ') p++;
  }
  return n;
}

/* The next line of a program (without '\n') into buf; returns the rest or NULL at the end. */
static const char *vp_next_line(const char *p, char *buf) {
  const char *e;
  size_t n;
  if (!p || !*p) return NULL;
  e = strchr(p, '\n');
  n = e ? (size_t)(e - p) : strlen(p);
  if (n >= VP_MAX_LINE) n = VP_MAX_LINE - 1;
  memcpy(buf, p, n);
  buf[n] = '\0';
  return e ? e + 1 : p + n;
}

/* Copies at most cap - 1 characters of src and terminates dst. */
static void vp_copy(char *dst, size_t cap, const char *src) {
  size_t n = strlen(src);
  if (n >= cap) n = cap - 1;
  memcpy(dst, src, n);
  dst[n] = '\0';
}

static int vp_is_expectation(const char *op) {
  return !strcmp(op, "val") || !strcmp(op, "leafgrad") || !strcmp(op, "error");
}

static int vp_bad(vp_state *S, const char *fmt, const char *arg) {
  snprintf(S->why, sizeof S->why, fmt, arg);
  return VP_BAD;
}

static int vp_int(const char *s, int64_t *v) {
  char *e;
  long long x = strtoll(s, &e, 10);
  if (e == s || *e) return 0;
  *v = (int64_t)x;
  return 1;
}

static int vp_regno(const char *s) {
  int64_t v;
  if (s[0] != 'r' || !vp_int(s + 1, &v) || v < 0 || v >= VP_MAX_REGS) return -1;
  return (int)v;
}

static ct_dtype vp_dtype(const char *s, int *ok) {
  *ok = 1;
  if (!strcmp(s, "f32")) return CT_F32;
  if (!strcmp(s, "f64")) return CT_F64;
  if (!strcmp(s, "i64")) return CT_I64;
  if (!strcmp(s, "i32")) return CT_I32;
  if (!strcmp(s, "u8")) return CT_U8;
  if (!strcmp(s, "b")) return CT_BOOL;
  *ok = 0;
  return CT_F32;
}

static const char *vp_dtype_tok(ct_dtype d) {
  switch (d) {
  case CT_F32: return "f32";
  case CT_F64: return "f64";
  case CT_I64: return "i64";
  case CT_I32: return "i32";
  case CT_U8: return "u8";
  case CT_BOOL: return "b";
  default: return ct_dtype_name(d);
  }
}

/* As PyTorch types Python numbers: '.', 'e' or 'n' (inf, nan) make a float. */
static ct_scalar vp_scalar(const char *s) {
  if (strpbrk(s, ".en")) return ct_float(strtod(s, NULL));
  return ct_int((int64_t)strtoll(s, NULL, 10));
}

static void vp_print_tensor(const ct_tensor *t) {
  int64_t i;
  char buf[160];
  if (!t) {
    printf("None");
    return;
  }
  printf("%s %s rg=%d leaf=%d grad_fn=%s [", vp_dtype_tok((ct_dtype)t->dtype), ct_shape_format(t->ndim, t->sizes, buf, sizeof buf),
         (int)ct_requires_grad(t), (int)ct_is_leaf(t), ct_grad_fn_name(t) ? ct_grad_fn_name(t) : "-");
  for (i = 0; i < t->numel && i < 16; i++) printf("%s%.10g", i ? " " : "", ct_get(t, i));
  printf("%s]", t->numel > 16 ? " ..." : "");
}

/* ---- one instruction ------------------------------------------------------ */
typedef struct vp_instr {
  vp_state *S;
  char **tok;
  int ntok;
} vp_instr;

/* Register operand i: a written, non-None tensor, or NULL after vp_bad. */
static ct_tensor *vp_in(vp_instr *I, int i, int *bad) {
  int r;
  if (i >= I->ntok || (r = vp_regno(I->tok[i])) < 0 || !I->S->written[r] || !I->S->reg[r]) {
    *bad = 1;
    vp_bad(I->S, "operand %s is not a live register", i < I->ntok ? I->tok[i] : "(missing)");
    return NULL;
  }
  return I->S->reg[r];
}

static int vp_out(vp_instr *I, int i, ct_tensor *t) {
  int r = i < I->ntok ? vp_regno(I->tok[i]) : -1;
  if (r < 0) {
    ct_release(t);
    return vp_bad(I->S, "bad destination register %s", i < I->ntok ? I->tok[i] : "(missing)");
  }
  ct_release(I->S->reg[r]);
  I->S->reg[r] = t;
  I->S->written[r] = 1;
  if (I->S->verbose) {
    printf("        -> %s = ", I->tok[i]);
    vp_print_tensor(t);
    printf("\n");
  }
  return VP_OK;
}

/* n integers from tok[i..i+n) into v. */
static int vp_ints(vp_instr *I, int i, int n, int64_t *v) {
  int k;
  if (n < 0 || n > CT_MAX_DIMS * 2 + 1 || i + n > I->ntok) return 0;
  for (k = 0; k < n; k++)
    if (!vp_int(I->tok[i + k], &v[k])) return 0;
  return 1;
}

static int vp_leaf(vp_instr *I) {
  static double vals[VP_MAX_ELEMS];
  int64_t nd, sizes[CT_MAX_DIMS], numel = 1, rg, k;
  int ok;
  ct_dtype dt;
  ct_tensor *t, *c;
  if (I->ntok < 5) return vp_bad(I->S, "%s", "short leaf");
  dt = vp_dtype(I->tok[2], &ok);
  if (!ok || !vp_int(I->tok[3], &rg) || !vp_int(I->tok[4], &nd) || nd < 0 || nd > CT_MAX_DIMS ||
      !vp_ints(I, 5, (int)nd, sizes) || 5 + nd >= I->ntok || strcmp(I->tok[5 + nd], ":"))
    return vp_bad(I->S, "%s", "malformed leaf");
  for (k = 0; k < nd; k++) numel *= sizes[k];
  if (numel > VP_MAX_ELEMS || I->ntok - (6 + nd) != numel) return vp_bad(I->S, "%s", "leaf: wrong number of values");
  for (k = 0; k < numel; k++) vals[k] = strtod(I->tok[6 + nd + k], NULL);
  t = ct_from_array((int)nd, sizes, CT_F64, vals);
  if (t && dt != CT_F64) {
    c = ct_to_dtype(t, dt);
    ct_release(t);
    t = c;
  }
  if (t && rg && ct_set_requires_grad(t, true) != CT_OK) {
    ct_release(t);
    t = NULL;
  }
  if (!t) return VP_CT_FAILED;
  return vp_out(I, 1, t);
}

static int vp_multi(vp_instr *I, const char *op) {
  ct_tensor *outs[VP_MAX_OUTS];
  int bad = 0;
  ct_tensor *a = vp_in(I, 2, &bad);
  int64_t p[3] = {0, 0, 0}, n, k, want;
  int np = !strcmp(op, "unbind") ? 2 : 3;
  if (bad) return VP_BAD;
  if (!vp_ints(I, 3, np, p)) return vp_bad(I->S, "malformed %s", op);
  if (!strcmp(op, "unbind")) n = ct_unbind(a, p[0], VP_MAX_OUTS, outs);
  else if (!strcmp(op, "split")) n = ct_split(a, p[0], p[1], VP_MAX_OUTS, outs);
  else n = ct_chunk(a, p[0], p[1], VP_MAX_OUTS, outs);
  if (n < 0) return VP_CT_FAILED;
  want = p[np - 1];
  for (k = 0; k < n && k < VP_MAX_OUTS; k++) /* keep the output PyTorch's program picked */
    if (k != want) ct_release(outs[k]);
  if (want < 0 || want >= n || want >= VP_MAX_OUTS) {
    if (ct_last_error() == CT_OK)
      ct_fail(CT_ERR_INDEX, op, "returned %lld outputs, PyTorch has an output %lld", (long long)n, (long long)want);
    return VP_CT_FAILED;
  }
  return vp_out(I, 1, outs[want]);
}

static int vp_autograd_grad(vp_instr *I) {
  ct_tensor *ins[16], *res[16], *out, *go = NULL;
  int64_t n, create;
  int bad = 0, k, i;
  ct_backward_desc d;
  ct_status st;
  if (!vp_int(I->tok[1], &n) || n < 1 || n > 16 || I->ntok != 5 + 2 * (int)n) return vp_bad(I->S, "%s", "malformed autograd_grad");
  out = vp_in(I, 2 + (int)n, &bad);
  if (strcmp(I->tok[3 + n], "-")) go = vp_in(I, 3 + (int)n, &bad);
  if (!vp_int(I->tok[4 + n], &create)) return vp_bad(I->S, "%s", "malformed autograd_grad");
  for (k = 0; k < n; k++) ins[k] = vp_in(I, 5 + (int)n + k, &bad), res[k] = NULL;
  if (bad) return VP_BAD;
  memset(&d, 0, sizeof d);
  d.num_outputs = 1;
  d.outputs = &out;
  d.grad_outputs = go ? &go : NULL;
  d.retain_graph = create != 0;
  d.create_graph = create != 0;
  d.allow_unused = true;
  st = ct_autograd_grad(&d, (int)n, ins, res);
  if (st != CT_OK) {
    for (k = 0; k < n; k++) ct_release(res[k]);
    return VP_CT_FAILED;
  }
  for (k = 0; k < n; k++) {
    i = vp_out(I, 2 + k, res[k]);
    res[k] = NULL;
    if (i != VP_OK) {
      for (; k < n; k++) ct_release(res[k]);
      return i;
    }
  }
  return VP_OK;
}

/* Runs one instruction: VP_OK, VP_CT_FAILED (ctorch reported an error) or VP_BAD. */
static int vp_exec(vp_state *S, char **tok, int ntok) {
  vp_instr I;
  const char *op = tok[0];
  int bad = 0;
  int64_t p[2 * CT_MAX_DIMS + 2];
  ct_tensor *a = NULL, *b = NULL, *r = NULL;
  ct_status st = CT_OK;
  int is_status = 0;
  I.S = S, I.tok = tok, I.ntok = ntok;
  memset(p, 0, sizeof p);

  if (!strcmp(op, "leaf")) return vp_leaf(&I);
  if (!strcmp(op, "unbind") || !strcmp(op, "split") || !strcmp(op, "chunk")) return vp_multi(&I, op);
  if (!strcmp(op, "autograd_grad")) return vp_autograd_grad(&I);
  if (!strcmp(op, "nograd")) {
    if (S->in_nograd) return vp_bad(S, "%s", "nested nograd");
    ct_no_grad_begin(&S->nograd);
    S->in_nograd = 1;
    return VP_OK;
  }
  if (!strcmp(op, "endnograd")) {
    if (!S->in_nograd) return vp_bad(S, "%s", "endnograd without nograd");
    ct_guard_end(&S->nograd);
    S->in_nograd = 0;
    return VP_OK;
  }
  /* functional ops: dst in tok[1], source in tok[2] */
  if (!strcmp(op, "mul") || !strcmp(op, "add") || !strcmp(op, "sub") || !strcmp(op, "div")) {
    a = vp_in(&I, 2, &bad), b = vp_in(&I, 3, &bad);
    if (bad) return VP_BAD;
    r = op[0] == 'm' ? ct_mul(a, b) : op[0] == 'a' ? ct_add(a, b) : op[0] == 's' ? ct_sub(a, b) : ct_div(a, b);
  } else if (!strcmp(op, "muls") || !strcmp(op, "adds")) {
    a = vp_in(&I, 2, &bad);
    if (bad || ntok != 4) return bad ? VP_BAD : vp_bad(S, "malformed %s", op);
    r = op[0] == 'm' ? ct_mul_scalar(a, vp_scalar(tok[3])) : ct_add_scalar(a, vp_scalar(tok[3]));
  } else if (!strcmp(op, "exp") || !strcmp(op, "sum") || !strcmp(op, "t") || !strcmp(op, "squeeze") ||
             !strcmp(op, "detach") || !strcmp(op, "clone")) {
    a = vp_in(&I, 2, &bad);
    if (bad) return VP_BAD;
    r = !strcmp(op, "exp") ? ct_exp(a) : !strcmp(op, "sum") ? ct_sum(a) : !strcmp(op, "t") ? ct_t(a)
        : !strcmp(op, "squeeze") ? ct_squeeze(a) : !strcmp(op, "detach") ? ct_detach(a) : ct_clone(a);
  } else if (!strcmp(op, "slice") || !strcmp(op, "select") || !strcmp(op, "transpose") || !strcmp(op, "unsqueeze") ||
             !strcmp(op, "squeezed") || !strcmp(op, "narrow") || !strcmp(op, "flatten") || !strcmp(op, "diagonal")) {
    int np = !strcmp(op, "slice") ? 4 : (!strcmp(op, "narrow") || !strcmp(op, "diagonal")) ? 3
             : (!strcmp(op, "unsqueeze") || !strcmp(op, "squeezed")) ? 1 : 2;
    a = vp_in(&I, 2, &bad);
    if (bad) return VP_BAD;
    if (ntok != 3 + np || !vp_ints(&I, 3, np, p)) return vp_bad(S, "malformed %s", op);
    if (!strcmp(op, "slice")) r = ct_slice(a, p[0], p[1], p[2], p[3]);
    else if (!strcmp(op, "select")) r = ct_select(a, p[0], p[1]);
    else if (!strcmp(op, "transpose")) r = ct_transpose(a, p[0], p[1]);
    else if (!strcmp(op, "unsqueeze")) r = ct_unsqueeze(a, p[0]);
    else if (!strcmp(op, "squeezed")) r = ct_squeeze_dim(a, p[0]);
    else if (!strcmp(op, "narrow")) r = ct_narrow(a, p[0], p[1], p[2]);
    else if (!strcmp(op, "diagonal")) r = ct_diagonal(a, p[0], p[1], p[2]);
    else r = ct_flatten(a, p[0], p[1]);
  } else if (!strcmp(op, "permute") || !strcmp(op, "view") || !strcmp(op, "reshape") || !strcmp(op, "expand")) {
    int64_t n;
    a = vp_in(&I, 2, &bad);
    if (bad) return VP_BAD;
    if (ntok < 4 || !vp_int(tok[3], &n) || n < 0 || n > CT_MAX_DIMS || ntok != 4 + n || !vp_ints(&I, 4, (int)n, p))
      return vp_bad(S, "malformed %s", op);
    if (!strcmp(op, "permute")) r = ct_permute(a, (int)n, p);
    else if (!strcmp(op, "view")) r = ct_view(a, (int)n, p);
    else if (!strcmp(op, "reshape")) r = ct_reshape(a, (int)n, p);
    else r = ct_expand(a, (int)n, p);
  } else if (!strcmp(op, "as_strided")) {
    int64_t n;
    a = vp_in(&I, 2, &bad);
    if (bad) return VP_BAD;
    if (ntok < 4 || !vp_int(tok[3], &n) || n < 0 || n > CT_MAX_DIMS || ntok != 5 + 2 * n || !vp_ints(&I, 4, 2 * (int)n + 1, p))
      return vp_bad(S, "%s", "malformed as_strided");
    /* cppcheck-suppress negativeIndex ; n >= 0 was checked above (cppcheck loses it across the || chain) */
    r = ct_as_strided(a, (int)n, p, (int)n, p + n, p[2 * n]);
  } else if (!strcmp(op, "to")) {
    int ok;
    ct_dtype dt;
    a = vp_in(&I, 2, &bad);
    if (bad) return VP_BAD;
    dt = ntok == 4 ? vp_dtype(tok[3], &ok) : (ok = 0, CT_F32);
    if (!ok) return vp_bad(S, "%s", "malformed to");
    r = ct_to_dtype(a, dt);
  } else {
    /* in-place ops and backward: the target in tok[1] */
    is_status = 1;
    a = vp_in(&I, 1, &bad);
    if (bad) return VP_BAD;
    if (!strcmp(op, "mul_") || !strcmp(op, "add_") || !strcmp(op, "sub_") || !strcmp(op, "div_") || !strcmp(op, "copy_")) {
      b = vp_in(&I, 2, &bad);
      if (bad) return VP_BAD;
      st = !strcmp(op, "mul_") ? ct_mul_(a, b) : !strcmp(op, "add_") ? ct_add_(a, b) : !strcmp(op, "sub_") ? ct_sub_(a, b)
           : !strcmp(op, "div_") ? ct_div_(a, b) : ct_copy_(a, b);
    } else if (!strcmp(op, "muls_") || !strcmp(op, "adds_") || !strcmp(op, "subs_") || !strcmp(op, "divs_") ||
               !strcmp(op, "fill_")) {
      ct_scalar c;
      if (ntok != 3) return vp_bad(S, "malformed %s", op);
      c = vp_scalar(tok[2]);
      st = !strcmp(op, "muls_") ? ct_mul_scalar_(a, c) : !strcmp(op, "adds_") ? ct_add_scalar_(a, c)
           : !strcmp(op, "subs_") ? ct_sub_scalar_(a, c) : !strcmp(op, "divs_") ? ct_div_scalar_(a, c) : ct_fill_(a, c);
    } else if (!strcmp(op, "zero_")) {
      st = ct_fill_(a, ct_int(0));
    } else if (!strcmp(op, "exp_")) {
      st = ct_exp_(a);
    } else if (!strcmp(op, "clamp_")) {
      if (ntok != 4) return vp_bad(S, "%s", "malformed clamp_");
      st = ct_clamp_(a, vp_scalar(tok[2]), vp_scalar(tok[3]));
    } else if (!strcmp(op, "backward")) {
      int64_t retain;
      if (ntok != 4 || !vp_int(tok[3], &retain)) return vp_bad(S, "%s", "malformed backward");
      if (strcmp(tok[2], "-")) {
        b = vp_in(&I, 2, &bad);
        if (bad) return VP_BAD;
      }
      st = ct_backward_ex(a, b, retain != 0, false);
    } else {
      return vp_bad(S, "unknown instruction %s", op);
    }
  }
  if (is_status) {
    if (st != CT_OK || ct_last_error() != CT_OK) return VP_CT_FAILED;
    if (S->verbose) {
      printf("        -> %s = ", tok[1]);
      vp_print_tensor(a);
      printf("\n");
    }
    return VP_OK;
  }
  if (!r || ct_last_error() != CT_OK) {
    ct_release(r);
    return VP_CT_FAILED;
  }
  return vp_out(&I, 1, r);
}

/* ---- expectations ----------------------------------------------------------- */
static int vp_close(double got, double want, ct_dtype dt, int rounds_in_f32) {
  double atol = 0, rtol = 0;
  if (isnan(want)) return isnan(got);
  if (isinf(want)) return got == want;
  if (dt == CT_F64 && !rounds_in_f32) atol = 1e-12, rtol = 1e-9;
  else if (dt == CT_F64 || dt == CT_F32) atol = 1e-5, rtol = 1e-5; /* (f32 libm results may differ by an ulp) */
  return fabs(got - want) <= atol + rtol * fabs(want);
}

/* tok[i..]: "DT [RG] N sizes.. : values.."; compare t with it. with_rg: the RG field is there. */
static int vp_match(vp_state *S, const char *what, const ct_tensor *t, char **tok, int ntok, int i, int with_rg) {
  int ok;
  int64_t rg = 0, nd, sizes[CT_MAX_DIMS], numel = 1, k;
  const char *dtok = tok[i];
  ct_dtype dt = vp_dtype(dtok, &ok);
  char b1[160], b2[160];
  if (!ok || (with_rg && !vp_int(tok[i + 1], &rg)) || !vp_int(tok[i + 1 + with_rg], &nd) || nd < 0 || nd > CT_MAX_DIMS) {
    vp_bad(S, "malformed expectation for %s", what);
    return VP_BAD;
  }
  i += 2 + with_rg;
  if (i + nd >= ntok || !vp_ints(&(vp_instr){S, tok, ntok}, i, (int)nd, sizes) || strcmp(tok[i + nd], ":")) {
    vp_bad(S, "malformed expectation for %s", what);
    return VP_BAD;
  }
  for (k = 0; k < nd; k++) numel *= sizes[k];
  i += (int)nd + 1;
  if (ntok - i != numel) {
    vp_bad(S, "malformed expectation for %s", what);
    return VP_BAD;
  }
  if (!t) {
    snprintf(S->why, sizeof S->why, "%s: ctorch has None, PyTorch a %s %s tensor", what, dtok,
             ct_shape_format((int)nd, sizes, b1, sizeof b1));
    return VP_CT_FAILED;
  }
  if ((ct_dtype)t->dtype != dt) {
    snprintf(S->why, sizeof S->why, "%s: dtype %s, PyTorch %s", what, vp_dtype_tok((ct_dtype)t->dtype), vp_dtype_tok(dt));
    return VP_CT_FAILED;
  }
  if (with_rg && (int64_t)ct_requires_grad(t) != rg) {
    snprintf(S->why, sizeof S->why, "%s: requires_grad %d, PyTorch %d", what, (int)ct_requires_grad(t), (int)rg);
    return VP_CT_FAILED;
  }
  if (t->ndim != nd || memcmp(t->sizes, sizes, (size_t)nd * sizeof sizes[0])) {
    snprintf(S->why, sizeof S->why, "%s: shape %s, PyTorch %s", what, ct_shape_format(t->ndim, t->sizes, b1, sizeof b1),
             ct_shape_format((int)nd, sizes, b2, sizeof b2));
    return VP_CT_FAILED;
  }
  for (k = 0; k < numel; k++) {
    double want = strtod(tok[i + k], NULL), got = ct_get(t, k);
    if (!vp_close(got, want, dt, S->rounds_in_f32)) {
      snprintf(S->why, sizeof S->why, "%s: element %lld is %.10g, PyTorch %.10g", what, (long long)k, got, want);
      return VP_CT_FAILED;
    }
  }
  return VP_OK;
}

/* One expectation line; VP_OK, VP_CT_FAILED (a difference, in S->why) or VP_BAD. */
static int vp_expect(vp_state *S, char **tok, int ntok) {
  int r = ntok >= 3 ? vp_regno(tok[1]) : -1;
  ct_tensor *t;
  char what[64];
  if (r < 0 || !S->written[r]) return vp_bad(S, "expectation names an unwritten register %s", ntok > 1 ? tok[1] : "?");
  t = S->reg[r];
  if (!strcmp(tok[0], "val")) {
    snprintf(what, sizeof what, "%s", tok[1]);
    if (!strcmp(tok[2], "none")) {
      if (!t) return VP_OK;
      snprintf(S->why, sizeof S->why, "%s: ctorch has a tensor, PyTorch None", what);
      return VP_CT_FAILED;
    }
    return vp_match(S, what, t, tok, ntok, 2, 1);
  }
  /* leafgrad */
  snprintf(what, sizeof what, "%s.grad", tok[1]);
  if (!t) return vp_bad(S, "leafgrad of an empty register %s", tok[1]);
  if (!strcmp(tok[2], "nonleaf")) {
    if (!ct_is_leaf(t)) return VP_OK;
    snprintf(S->why, sizeof S->why, "%s is still a leaf (grad_fn None), PyTorch gave it a grad_fn", tok[1]);
    return VP_CT_FAILED;
  }
  if (!ct_is_leaf(t)) {
    snprintf(S->why, sizeof S->why, "%s has grad_fn %s, PyTorch's is a leaf", tok[1], ct_grad_fn_name(t) ? ct_grad_fn_name(t) : "?");
    return VP_CT_FAILED;
  }
  if (!strcmp(tok[2], "none")) {
    if (!ct_grad(t)) return VP_OK;
    snprintf(S->why, sizeof S->why, "%s: ctorch has a gradient, PyTorch None", what);
    return VP_CT_FAILED;
  }
  return vp_match(S, what, ct_grad(t), tok, ntok, 2, 0);
}

/* ---- one program ------------------------------------------------------------- */
/* Returns 1 when ctorch matched PyTorch; else fills line (one line, no '\n'). */
static int vp_run(int index, int verbose, char *out, size_t outcap) {
  static vp_state S;
  static char line[VP_MAX_LINE];
  char *tok[VP_MAX_TOKS];
  char cat[48] = "?", pt_msg[160] = "", ct_msg[200] = "";
  const char *p;
  int ntok, k = 0, want_err = -1, got_err = -1, result = 1, rc = VP_OK, i;
  ct_memory_stats before, after;

  memset(&S, 0, sizeof S);
  S.verbose = verbose;
  S.rounds_in_f32 = strstr(view_programs[index], " f32 ") != NULL;
  out[0] = '\0';
  /* pass 1: category, and PyTorch's error if any */
  for (p = view_programs[index]; (p = vp_next_line(p, line)) != NULL;) {
    if (line[0] == '#') {
      vp_copy(cat, sizeof cat, line + (line[1] == ' ' ? 2 : 1));
      continue;
    }
    if (!strncmp(line, "error ", 6)) {
      char *e;
      want_err = (int)strtol(line + 6, &e, 10);
      vp_copy(pt_msg, sizeof pt_msg, *e ? e + 1 : "");
    }
  }
  if (verbose) {
    printf("    program %d [%s]", index, cat);
    if (want_err >= 0) printf(": PyTorch raises at instruction %d: %s", want_err, pt_msg);
    printf("\n");
  }

  ct_clear_error();
  before = ct_memory_stats_get();
  /* pass 2: run */
  for (p = view_programs[index]; rc == VP_OK && (p = vp_next_line(p, line)) != NULL;) {
    if (!line[0] || line[0] == '#') continue;
    if (!strncmp(line, "val ", 4) || !strncmp(line, "leafgrad ", 9) || !strncmp(line, "error ", 6)) break;
    if (verbose) printf("    [%d] %s\n", k, line);
    ntok = vp_split(line, tok);
    if (ntok <= 0) {
      rc = vp_bad(&S, "%s", "unparsable line");
      break;
    }
    ct_clear_error();
    rc = vp_exec(&S, tok, ntok);
    if (rc == VP_CT_FAILED) {
      got_err = k;
      vp_copy(ct_msg, sizeof ct_msg, ct_last_error() != CT_OK ? ct_last_error_message() : "(no message)");
      if (verbose) printf("        -> ctorch error: %s\n", ct_msg);
      ct_clear_error();
    }
    k++;
  }
  if (rc == VP_BAD) {
    snprintf(out, outcap, "program %d [%s] (instr %d): bad program: %s", index, cat, k, S.why);
    result = 0;
  } else if (want_err >= 0 || got_err >= 0) {
    if (want_err >= 0 && got_err == want_err) {
      if (verbose) printf("    both fail at instruction %d, as PyTorch (%s)\n", got_err, pt_msg);
    } else if (want_err < 0) {
      snprintf(out, outcap, "program %d [%s] (instr %d): ctorch failed, PyTorch ran on: %.150s", index, cat, got_err, ct_msg);
      result = 0;
    } else if (got_err < 0) {
      snprintf(out, outcap, "program %d [%s] (instr %d): PyTorch raised, ctorch ran on: %.120s", index, cat, want_err, pt_msg);
      result = 0;
    } else {
      snprintf(out, outcap, "program %d [%s] (instr %d): ctorch failed here, PyTorch at instr %d (%.60s): %.100s", index,
               cat, got_err, want_err, pt_msg, ct_msg);
      result = 0;
    }
  } else {
    /* pass 3: the expectations */
    for (p = view_programs[index]; (p = vp_next_line(p, line)) != NULL;) {
      int e;
      if (!line[0] || line[0] == '#') continue;
      ntok = vp_split(line, tok);
      if (ntok <= 0 || !vp_is_expectation(tok[0])) continue;
      e = vp_expect(&S, tok, ntok);
      if (verbose) printf("    check %s %s: %s%s\n", tok[0], tok[1], e == VP_OK ? "ok" : "DIFFERS: ", e == VP_OK ? "" : S.why);
      if (e != VP_OK && result) {
        snprintf(out, outcap, "program %d [%s] (end): %s%s", index, cat, e == VP_BAD ? "bad program: " : "", S.why);
        result = 0;
      }
      ct_clear_error();
    }
  }
  /* clean up: leave no guard, tensor or error behind */
  if (S.in_nograd) ct_guard_end(&S.nograd);
  for (i = 0; i < VP_MAX_REGS; i++) ct_release(S.reg[i]), S.reg[i] = NULL;
  ct_clear_error();
  after = ct_memory_stats_get();
  if (after.live_tensors != before.live_tensors || after.live_storages != before.live_storages) {
    size_t n = strlen(out);
    snprintf(out + n, outcap - n, "%sprogram %d [%s] (end): leaked %lld tensors and %lld storages", n ? "; " : "", index,
             cat, (long long)(after.live_tensors - before.live_tensors),
             (long long)(after.live_storages - before.live_storages));
    result = 0;
  }
  if (verbose) printf("    %s\n", result ? "matches PyTorch" : "differs from PyTorch");
  return result;
}

TEST(view_programs_differential) {
  const char *env = getenv("CT_VIEWPROG");
  char msg[1024];
  int i, differ = 0, shown = 0, cap = 30, expected_errors = 0;
  if (env && *env && strcmp(env, "all")) {
    int64_t n;
    if (!vp_int(env, &n) || n < 0 || n >= VIEW_PROGRAMS_COUNT) {
      harness_fail(__FILE__, __LINE__, "CT_VIEWPROG=%s: expected a program number below %d or 'all'", env,
                   (int)VIEW_PROGRAMS_COUNT);
      return;
    }
    if (!vp_run((int)n, 1, msg, sizeof msg)) harness_fail(__FILE__, __LINE__, "%s", msg);
    return;
  }
  if (env && !strcmp(env, "all")) cap = VIEW_PROGRAMS_COUNT;
  for (i = 0; i < VIEW_PROGRAMS_COUNT; i++) {
    if (strstr(view_programs[i], "\nerror ")) expected_errors++;
    if (vp_run(i, 0, msg, sizeof msg)) continue;
    differ++;
    if (shown++ < cap) printf("    %s\n", msg);
  }
  printf("    view programs: %d of %d match PyTorch (%d end in a PyTorch error); %d differ%s\n",
         VIEW_PROGRAMS_COUNT - differ, (int)VIEW_PROGRAMS_COUNT, expected_errors, differ,
         differ > cap ? " (CT_VIEWPROG=all lists every one, CT_VIEWPROG=N replays one)" : "");
  if (differ) harness_fail(__FILE__, __LINE__, "%d of %d view programs differ from PyTorch", differ, (int)VIEW_PROGRAMS_COUNT);
}
