/* ctorch/print.h - tensors as text, character for character as PyTorch prints them.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * The text is what torch 1.13's repr(tensor) / str(tensor) gives with the
 * default print options (precision 4, threshold 1000, edgeitems 3, linewidth
 * 80): floats in integer mode ("1.", "-0."), fixed mode ("0.5000") or
 * scientific mode ("1.0000e+05") chosen by torch's _Formatter rules, a common
 * width, nan/inf, True/False, "..." summaries of tensors over 1000 elements,
 * rows wrapped at 80 columns, and the dtype / device / size suffixes
 * (", dtype=torch.float64", "tensor(..., device='meta', size=(2, 3))").
 */
#ifndef CT_PRINT_H
#define CT_PRINT_H

#include "tensor.h"
#include <stdio.h>

CT_EXTERN_C_BEGIN

/* Writes the text into buf as snprintf does: at most cap - 1 characters and
 * a NUL when cap > 0 (buf may be NULL when cap is 0). Returns the length the
 * whole text needs, so a return >= cap means it was cut short; 0 on error. */
CTDEF size_t ct_format(const ct_tensor *t, char *buf, size_t cap);
/* The text and a newline, to stdout / to f, as Python's print(t). */
CTDEF ct_status ct_print(const ct_tensor *t);
CTDEF ct_status ct_fprint(FILE *f, const ct_tensor *t);

CT_EXTERN_C_END
#endif /* CT_PRINT_H */

/* ==== implementation ==== */
#if defined(CT__IMPLEMENT) && !defined(CT__PRINT_IMPL)
#define CT__PRINT_IMPL
#include <math.h>
CT_EXTERN_C_BEGIN

/* torch._tensor_str.PRINT_OPTS defaults */
#define CT__PRINT_PRECISION 4
#define CT__PRINT_THRESHOLD 1000
#define CT__PRINT_EDGEITEMS 3
#define CT__PRINT_LINEWIDTH 80

typedef struct ct__print_ctx {
  const ct_tensor *t;   /* a CPU tensor with data */
  int summarize;        /* numel > threshold: show edgeitems per dimension */
  int64_t cstride[CT_MAX_DIMS]; /* row-major strides of the logical index */
  /* the formatter (torch._tensor_str._Formatter) */
  char kind;            /* 'f' floating, 'i' integer, 'b' bool */
  int int_mode, sci_mode, width;
  int64_t nonzero_finite;
  double min_abs, max_abs;
  /* the output, snprintf style */
  char *buf;
  size_t cap, len, line_start; /* line_start: just after the last '\n' */
} ct__print_ctx;

static void ct__print_put(ct__print_ctx *c, const char *s, size_t n) {
  size_t i;
  for (i = n; i > 0; i--) {
    if (s[i - 1] == '\n') {
      c->line_start = c->len + i;
      break;
    }
  }
  if (c->cap > 0 && c->len < c->cap - 1) {
    size_t room = c->cap - 1 - c->len;
    memcpy(c->buf + c->len, s, n < room ? n : room);
  }
  c->len += n;
}
static void ct__print_puts(ct__print_ctx *c, const char *s) { ct__print_put(c, s, strlen(s)); }
static void ct__print_spaces(ct__print_ctx *c, int n) {
  static const char spaces[] = "                                ";
  while (n > 0) {
    int k = n < 32 ? n : 32;
    ct__print_put(c, spaces, (size_t)k);
    n -= k;
  }
}

/* Number of shown entries along a dimension of size n, and the k-th of them. */
static int64_t ct__print_count(const ct__print_ctx *c, int64_t n) {
  return c->summarize && n > 2 * CT__PRINT_EDGEITEMS ? 2 * CT__PRINT_EDGEITEMS : n;
}
static int64_t ct__print_pick(const ct__print_ctx *c, int64_t n, int64_t k) {
  if (c->summarize && n > 2 * CT__PRINT_EDGEITEMS && k >= CT__PRINT_EDGEITEMS) return n - 2 * CT__PRINT_EDGEITEMS + k;
  return k;
}

/* Python's "{:.Nf}" / "{:.Ne}" for a finite double; "nan", "inf", "-inf" otherwise. */
static int ct__print_number(double v, char conv, int precision, char *s, size_t cap) {
  int n;
  if (isnan(v)) n = snprintf(s, cap, "nan");
  else if (isinf(v)) n = snprintf(s, cap, v > 0 ? "inf" : "-inf");
  else n = snprintf(s, cap, conv == 'e' ? "%.*e" : "%.*f", precision, v);
  if (n < 0) n = 0;
  if ((size_t)n >= cap) n = (int)cap - 1;
  return n;
}

/* The element at logical index idx as the formatter writes it, unpadded. */
static int ct__print_raw(const ct__print_ctx *c, int64_t idx, char *s, size_t cap) {
  int n;
  if (c->kind == 'b') {
    n = snprintf(s, cap, "%s", ct_get(c->t, idx) != 0 ? "True" : "False");
  } else if (c->kind == 'i') {
    n = snprintf(s, cap, "%lld", (long long)ct_get_int(c->t, idx));
  } else {
    double v = ct_get(c->t, idx);
    if (c->sci_mode) return ct__print_number(v, 'e', CT__PRINT_PRECISION, s, cap);
    if (!c->int_mode) return ct__print_number(v, 'f', CT__PRINT_PRECISION, s, cap);
    n = ct__print_number(v, 'f', 0, s, cap);
    if (isfinite(v) && (size_t)n + 1 < cap) {
      s[n++] = '.';
      s[n] = '\0';
    }
    return n;
  }
  if (n < 0) n = 0;
  if ((size_t)n >= cap) n = (int)cap - 1;
  return n;
}

/* Formatter passes over the shown elements: 0 gathers the statistics of the
 * nonzero finite floats, 1 measures widths once the mode is known. */
static void ct__print_scan(ct__print_ctx *c, int dim, int64_t base, int pass) {
  const ct_tensor *t = c->t;
  int64_t n, k, count;
  if (dim == t->ndim) {
    char s[512];
    int len;
    if (c->kind == 'f') {
      double v = ct_get(t, base);
      if (!isfinite(v) || v == 0) return;
      if (pass == 0) {
        double a = fabs(v);
        if (c->nonzero_finite == 0 || a < c->min_abs) c->min_abs = a;
        if (c->nonzero_finite == 0 || a > c->max_abs) c->max_abs = a;
        if (v != ceil(v)) c->int_mode = 0;
        c->nonzero_finite++;
        return;
      }
    }
    len = ct__print_raw(c, base, s, sizeof s);
    if (len > c->width) c->width = len;
    return;
  }
  n = t->sizes[dim];
  count = ct__print_count(c, n);
  for (k = 0; k < count; k++) ct__print_scan(c, dim + 1, base + ct__print_pick(c, n, k) * c->cstride[dim], pass);
}

static void ct__print_element(ct__print_ctx *c, int64_t idx) {
  char s[512];
  int len = ct__print_raw(c, idx, s, sizeof s);
  ct__print_spaces(c, c->width - len);
  ct__print_put(c, s, (size_t)len);
}

/* _tensor_str_with_formatter: the sub-tensor from dimension dim on. */
static void ct__print_tensor(ct__print_ctx *c, int dim, int64_t base, int indent) {
  const ct_tensor *t = c->t;
  int rest = t->ndim - dim;
  int64_t n, k, count;
  if (rest == 0) {
    ct__print_element(c, base);
    return;
  }
  n = t->sizes[dim];
  count = ct__print_count(c, n);
  ct__print_puts(c, "[");
  if (rest == 1) { /* _vector_str */
    int per_line = (CT__PRINT_LINEWIDTH - indent) / (c->width + 2);
    int64_t item = 0;
    if (per_line < 1) per_line = 1;
    for (k = 0; k < count; k++) {
      int dots = count < n && k == CT__PRINT_EDGEITEMS;
      int j;
      for (j = dots ? 0 : 1; j < 2; j++, item++) {
        if (item > 0) {
          if (item % per_line == 0) {
            ct__print_puts(c, ",\n");
            ct__print_spaces(c, indent + 1);
          } else {
            ct__print_puts(c, ", ");
          }
        }
        if (j == 0) ct__print_puts(c, " ...");
        else ct__print_element(c, base + ct__print_pick(c, n, k) * c->cstride[dim]);
      }
    }
  } else {
    for (k = 0; k < count; k++) {
      int dots = count < n && k == CT__PRINT_EDGEITEMS;
      int j, r;
      for (j = dots ? 0 : 1; j < 2; j++) {
        if (k > 0 || j == 0) {
          ct__print_puts(c, ",");
          for (r = 0; r < rest - 1; r++) ct__print_puts(c, "\n");
          ct__print_spaces(c, indent + 1);
        }
        if (j == 0) ct__print_puts(c, "...");
        else ct__print_tensor(c, dim + 1, base + ct__print_pick(c, n, k) * c->cstride[dim], indent + 1);
      }
    }
  }
  ct__print_puts(c, "]");
}

/* _tensor_str for a CPU tensor with at least one element. */
static void ct__print_body(ct__print_ctx *c, const ct_tensor *t, int indent) {
  ct_dtype dt = (ct_dtype)t->dtype;
  int64_t s = 1;
  int i;
  c->t = t;
  c->summarize = t->numel > CT__PRINT_THRESHOLD;
  for (i = t->ndim - 1; i >= 0; i--) {
    c->cstride[i] = s;
    s = ct__mul_sat(s, t->sizes[i]);
  }
  c->kind = (char)(dt == CT_BOOL ? 'b' : ct_dtype_is_floating(dt) ? 'f' : 'i');
  c->int_mode = 1;
  c->sci_mode = 0;
  c->width = 1;
  c->nonzero_finite = 0;
  c->min_abs = c->max_abs = 0;
  if (c->kind == 'f') {
    ct__print_scan(c, 0, 0, 0);
    if (c->nonzero_finite > 0) {
      c->sci_mode = c->max_abs / c->min_abs > 1000.0 || c->max_abs > 1.0e8 || (!c->int_mode && c->min_abs < 1.0e-4);
      ct__print_scan(c, 0, 0, 1); /* in integer mode the '.' counts, as in torch */
    }
  } else {
    ct__print_scan(c, 0, 0, 1);
  }
  ct__print_tensor(c, 0, 0, indent);
}

/* "size=(2, 3)", "size=(5,)" or "size=()": str(tuple(t.shape)). Fits in 256. */
static void ct__print_shape(char *s, size_t cap, const ct_tensor *t) {
  char num[32];
  int i;
  s[0] = '\0';
  strncat(s, "size=(", cap - 1);
  for (i = 0; i < t->ndim; i++) {
    snprintf(num, sizeof num, "%lld", (long long)t->sizes[i]);
    if (i) strncat(s, ", ", cap - 1 - strlen(s));
    strncat(s, num, cap - 1 - strlen(s));
  }
  strncat(s, t->ndim == 1 ? ",)" : ")", cap - 1 - strlen(s));
}

/* _add_suffixes: ", suffix", or on a new line when it would pass column 80. */
static void ct__print_suffixes(ct__print_ctx *c, char (*suffixes)[256], int n, int indent) {
  size_t last = c->len - c->line_start + 2; /* as torch counts it */
  int i;
  for (i = 0; i < n; i++) {
    size_t sl = strlen(suffixes[i]);
    if (last + sl + 2 > CT__PRINT_LINEWIDTH) {
      ct__print_puts(c, ",\n");
      ct__print_spaces(c, indent);
      last = (size_t)indent + sl;
    } else {
      ct__print_puts(c, ", ");
      last += sl + 2;
    }
    ct__print_puts(c, suffixes[i]);
  }
  ct__print_puts(c, ")");
}

CTDEF size_t ct_format(const ct_tensor *t, char *buf, size_t cap) {
  static const char *const op = "ct_format";
  static const char prefix[] = "tensor(";
  const int indent = (int)sizeof prefix - 1;
  char suffixes[4][256];
  int nsuffix = 0;
  ct__print_ctx c;
  ct_dtype dt;
  ct_device_type dev;
  ct_tensor *cpu = NULL;
  if (cap > 0 && buf) buf[0] = '\0';
  if (!t) {
    ct__fail_null(op, "t");
    return 0;
  }
  if (!buf && cap > 0) {
    ct__fail_null(op, "buf");
    return 0;
  }
  dt = (ct_dtype)t->dtype;
  dev = (ct_device_type)t->device.type;
  if (!ct_dtype_valid(dt)) {
    ct_fail(CT_ERR_DTYPE, op, "invalid dtype %d", (int)t->dtype);
    return 0;
  }
  if ((unsigned)dev >= CT_DEVICE_NUM) {
    ct_fail(CT_ERR_DEVICE, op, "invalid device type %d", (int)t->device.type);
    return 0;
  }
  memset(&c, 0, sizeof c);
  c.buf = buf;
  c.cap = cap;

  /* suffixes in torch's order: device, size, dtype, requires_grad */
  if (dev == CT_DEVICE_META)
    snprintf(suffixes[nsuffix++], sizeof suffixes[0], "device='meta'");
  else if (dev != CT_DEVICE_CPU)
    snprintf(suffixes[nsuffix++], sizeof suffixes[0], "device='%s:%d'", ct_device_type_name(dev), (int)t->device.index);
  if (dev == CT_DEVICE_META || (t->numel == 0 && t->ndim != 1)) ct__print_shape(suffixes[nsuffix++], sizeof suffixes[0], t);
  if ((dev == CT_DEVICE_META || t->numel == 0) ? dt != CT_F32 : (dt != CT_F32 && dt != CT_I64 && dt != CT_BOOL))
    snprintf(suffixes[nsuffix++], sizeof suffixes[0], "dtype=torch.%s", ct_dtype_name(dt));
  if (t->flags & CT_TENSOR_REQUIRES_GRAD) snprintf(suffixes[nsuffix++], sizeof suffixes[0], "requires_grad=True");

  ct__print_puts(&c, prefix);
  if (dev == CT_DEVICE_META) {
    ct__print_puts(&c, "...");
  } else if (t->numel == 0) {
    ct__print_puts(&c, "[]");
  } else {
    const ct_tensor *src = t;
    if (dev != CT_DEVICE_CPU) { /* read a copy, as torch does for xla/lazy tensors */
      cpu = ct__empty(op, t->ndim, t->sizes, dt, CT_CPU);
      if (!cpu || ct_to_array(t, dt, ct_data_ptr(cpu)) != CT_OK) {
        ct_release(cpu);
        if (cap > 0) buf[0] = '\0';
        return 0;
      }
      src = cpu;
    }
    ct__print_body(&c, src, indent);
  }
  ct__print_suffixes(&c, suffixes, nsuffix, indent);
  ct_release(cpu);
  if (cap > 0) buf[c.len < cap ? c.len : cap - 1] = '\0';
  return c.len;
}

static ct_status ct__print_to(FILE *f, const ct_tensor *t, const char *op) {
  char small[1024];
  char *text = small;
  size_t n;
  int ok;
  if (!t) return ct__fail_null(op, "t");
  n = ct_format(t, small, sizeof small);
  if (n == 0) return ct_last_error() != CT_OK ? ct_last_error() : ct_fail(CT_ERR_STATE, op, "formatting failed");
  if (n >= sizeof small) {
    text = (char *)CT_MALLOC(n + 1);
    if (!text) return ct_fail(CT_ERR_OOM, op, "out of memory formatting a tensor (%llu bytes)", (unsigned long long)n + 1);
    ct_format(t, text, n + 1);
  }
  ok = fwrite(text, 1, n, f) == n && fputc('\n', f) != EOF;
  if (text != small) CT_FREE(text);
  if (!ok) return ct_fail(CT_ERR_STATE, op, "writing the text failed");
  return CT_OK;
}

CTDEF ct_status ct_fprint(FILE *f, const ct_tensor *t) {
  if (!f) return ct__fail_null("ct_fprint", "f");
  return ct__print_to(f, t, "ct_fprint");
}
CTDEF ct_status ct_print(const ct_tensor *t) { return ct__print_to(stdout, t, "ct_print"); }

CT_EXTERN_C_END
#endif /* CT__PRINT_IMPL */
