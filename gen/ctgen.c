/* gen/ctgen.c - ctorch's code generator (make gen).
 *
 * Reads the two spec files, the single source of truth for built-in ops:
 *   gen/ops.spec          schemas, C names, kernels per key (native_functions.yaml)
 *   gen/derivatives.spec  derivative formulas per input (derivatives.yaml)
 * and writes, into ctorch/generated/ and docs/:
 *   functions.h           typed frontends (ct_add, ct_add_, ct_add_out, ...), one
 *                         dispatch function per C signature (ct__call_<code>: kernel
 *                         lookup, unboxed or boxed call) and a one-line dispatch
 *                         function per op over it (frontends and redispatch use it)
 *   autograd_functions.h  autograd nodes (what each formula needs saved), their
 *                         backward functions and the autograd kernels that record them
 *   registration.h        boxing adapters (one per C signature), one definition
 *                         record per op (schema, kernels per key, adapter) that
 *                         its first use defines it from, and their index
 *   docs/ops.md           the API reference
 *
 * Schemas are parsed with ctorch's own parser (ctorch/dispatch.h), so the
 * signature codes here are exactly the ones the runtime looks adapters up by.
 * Usage: ctgen <repo root>. Output is deterministic; CI regenerates and diffs.
 */
/* Only the schema parser is needed (base.h + schema.h, embedded privately). */
#define CT_STATIC
#define CT__IMPLEMENT
#include "../ctorch/base.h"
#include "../ctorch/schema.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OPS 2048
#define MAX_KERNELS 6
#define MAX_FORMULAS 8

typedef struct kernel_line {
  char keys[128]; /* "CPU Meta" */
  char fn[96];
} kernel_line;

typedef struct deriv {
  char name[64];
  int nformulas;
  char arg[MAX_FORMULAS][32];
  char formula[MAX_FORMULAS][512];
  int nondiff_output; /* output_differentiability: false */
  char grad_fn[64];   /* grad_fn: the node's name when it is not <Op>Backward0 (PyTorch's, for an op built differently) */
  const char *file;
  int line;
} deriv;

typedef struct op {
  char text[512];   /* the schema as written */
  ct_schema s;
  char full[96];    /* add.Tensor */
  char handle[96];  /* add_Tensor */
  char cname[64];   /* add */
  char shortargs[256];
  int has_short;
  char doc[256];
  kernel_line kernels[MAX_KERNELS];
  int nkernels;
  int cia;          /* CompositeImplicitAutograd: no autograd kernel of its own */
  int device_rule;  /* device_check: 0 strict, 1 cpu_scalars, 2 no (dispatch.h, ct__device_joins) */
  int dynamic_shape; /* tags: dynamic_output_shape (the result's shape depends on the data) */
  int kind;         /* K_FUNCTIONAL, K_VIEW, K_INPLACE, K_OUT */
  char meta[96];    /* structured: the meta step (on the out= op; ctorch/ops/structured.h) */
  char delegate[96]; /* structured_delegate: the out= op whose meta and impls this variant runs */
  struct op *st;    /* structured ops: the out= op of the family (itself for the out= op) */
  kernel_line impls[MAX_KERNELS]; /* structured out= ops: the impl step per key */
  int nimpls;
  deriv *d;
  const char *file;
  int line;
} op;
enum { K_FUNCTIONAL, K_VIEW, K_INPLACE, K_OUT };

static op ops[MAX_OPS];
static int nops;
static deriv derivs[MAX_OPS];
static int nderivs;
static const char *root;

/* _Noreturn: every caller relies on it (a NULL from strchr, a full table),
 * and the static analysers (make lint) need to know. */
static _Noreturn void die(const char *file, int line, const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "%s:%d: ", file, line);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  exit(1);
}

static char *trim(char *s) {
  char *e;
  while (isspace((unsigned char)*s)) s++;
  e = s + strlen(s);
  while (e > s && isspace((unsigned char)e[-1])) *--e = 0;
  return s;
}

static void copy(char *dst, size_t cap, const char *src, const char *file, int line) {
  if (strlen(src) >= cap) die(file, line, "value too long: %s", src);
  strcpy(dst, src);
}

/* ---- spec reading: "key: value" lines; an entry starts at its first key.
 * `include: FILE` reads FILE (relative to gen/) at that point, so each area
 * of the op library keeps its own spec files (gen/ops/, gen/derivatives/). */
static const char *gen_path(const char *rel) {
  static char paths[64][1024];
  static int n;
  if (n == 64) die(rel, 0, "too many spec files");
  snprintf(paths[n], sizeof paths[n], "%s/gen/%s", root, rel);
  return paths[n++];
}

static void read_ops(const char *path) {
  FILE *f = fopen(path, "r");
  char buf[1024];
  int line = 0;
  op *cur = NULL;
  int file_rule = 0; /* default_device_check: for the ops of this file that follow */
  if (!f) die(path, 0, "cannot open");
  while (fgets(buf, sizeof buf, f)) {
    char *s = trim(buf), *colon, *key, *val;
    line++;
    if (!*s || *s == '#') continue;
    colon = strchr(s, ':');
    if (!colon) die(path, line, "expected 'key: value'");
    *colon = 0;
    key = trim(s);
    val = trim(colon + 1);
    if (!strcmp(key, "include")) { /* another spec file, relative to gen/ */
      read_ops(gen_path(val));
      cur = NULL;
      continue;
    }
    if (!strcmp(key, "default_device_check")) {
      if (strcmp(val, "cpu_scalars")) die(path, line, "default_device_check: only 'cpu_scalars' is known");
      file_rule = 1;
      continue;
    }
    if (!strcmp(key, "func")) {
      if (nops == MAX_OPS) die(path, line, "too many ops");
      cur = &ops[nops++];
      cur->device_rule = file_rule;
      cur->file = path;
      cur->line = line;
      copy(cur->text, sizeof cur->text, val, path, line);
      if (ct_schema_parse(val, &cur->s) != CT_OK) die(path, line, "%s", ct_last_error_message());
      {
        ct_schema *sc = &cur->s; /* (a local: gcc's -Wrestrict cannot see the fields are disjoint) */
        char full[96], handle[96];
        snprintf(full, sizeof full, "%s%s%s", sc->name, sc->overload[0] ? "." : "", sc->overload);
        snprintf(handle, sizeof handle, "%s%s%s", sc->name, sc->overload[0] ? "_" : "", sc->overload);
        strcpy(cur->full, full);
        strcpy(cur->handle, handle);
      }
      continue;
    }
    if (!cur) die(path, line, "'%s' before the first func:", key);
    if (!strcmp(key, "c")) copy(cur->cname, sizeof cur->cname, val, path, line);
    else if (!strcmp(key, "short")) copy(cur->shortargs, sizeof cur->shortargs, val, path, line), cur->has_short = 1;
    else if (!strcmp(key, "doc")) copy(cur->doc, sizeof cur->doc, val, path, line);
    else if (!strcmp(key, "structured")) copy(cur->meta, sizeof cur->meta, val, path, line);
    else if (!strcmp(key, "structured_delegate")) copy(cur->delegate, sizeof cur->delegate, val, path, line);
    else if (!strcmp(key, "device_check")) {
      if (!strcmp(val, "no")) cur->device_rule = 2;
      else if (!strcmp(val, "cpu_scalars")) cur->device_rule = 1;
      else die(path, line, "device_check: 'no' or 'cpu_scalars' (strict is the default)");
    }
    else if (!strcmp(key, "tags")) {
      if (strcmp(val, "dynamic_output_shape")) die(path, line, "tags: only 'dynamic_output_shape' is known");
      cur->dynamic_shape = 1;
    }
    else if (!strcmp(key, "kernel")) {
      char *eq = strchr(val, '=');
      kernel_line *k;
      if (!eq) die(path, line, "kernel: expected 'KEYS = function'");
      if (cur->nkernels == MAX_KERNELS) die(path, line, "too many kernel lines");
      k = &cur->kernels[cur->nkernels++];
      *eq = 0;
      copy(k->keys, sizeof k->keys, trim(val), path, line);
      copy(k->fn, sizeof k->fn, trim(eq + 1), path, line);
      if (strstr(k->keys, "CompositeImplicitAutograd")) cur->cia = 1;
    } else die(path, line, "unknown key '%s'", key);
  }
  fclose(f);
}

static void read_derivs(const char *path) {
  FILE *f = fopen(path, "r");
  char buf[1024];
  int line = 0;
  deriv *cur = NULL;
  if (!f) die(path, 0, "cannot open");
  while (fgets(buf, sizeof buf, f)) {
    char *s = trim(buf), *colon, *key, *val;
    line++;
    if (!*s || *s == '#') continue;
    colon = strchr(s, ':');
    if (!colon) die(path, line, "expected 'key: value'");
    *colon = 0;
    key = trim(s);
    val = trim(colon + 1);
    if (!strcmp(key, "include")) {
      read_derivs(gen_path(val));
      cur = NULL;
      continue;
    }
    if (!strcmp(key, "name")) {
      if (nderivs == MAX_OPS) die(path, line, "too many entries");
      cur = &derivs[nderivs++];
      cur->file = path;
      cur->line = line;
      copy(cur->name, sizeof cur->name, val, path, line);
      continue;
    }
    if (!cur) die(path, line, "'%s' before the first name:", key);
    if (!strcmp(key, "output_differentiability")) {
      cur->nondiff_output = !strcmp(val, "false");
      continue;
    }
    if (!strcmp(key, "grad_fn")) {
      copy(cur->grad_fn, sizeof cur->grad_fn, val, path, line);
      continue;
    }
    if (cur->nformulas == MAX_FORMULAS) die(path, line, "too many formulas");
    copy(cur->arg[cur->nformulas], sizeof cur->arg[0], key, path, line);
    copy(cur->formula[cur->nformulas], sizeof cur->formula[0], val, path, line);
    cur->nformulas++;
  }
  fclose(f);
}

/* ---- schema helpers ---- */
static int is_tensor(const ct_arg *a) { return a->type == CT_TYPE_TENSOR; }
static int is_out_arg(const op *o, int i) { return o->s.args[i].is_write && i > 0; }
/* ct__device_joins' `how` for an argument: 2 written, 0 an input of an op that takes CPU scalars, 1 any other input */
static int how(const op *o, const ct_arg *a) { return a->is_write ? 2 : o->device_rule == 1 ? 0 : 1; }
/* in-place and out= ops (every return a written argument) return ct_status */
static int returns_status(const op *o) { return o->s.nrets >= 1 && o->s.rets[0].is_write; }
static int returns_list(const op *o) { return o->s.nrets == 1 && o->s.rets[0].type == CT_TYPE_TENSOR_LIST; }
/* Returns after the first of a tuple `-> (Tensor values, Tensor indices)`:
 * trailing `ct_tensor **NAME` parameters. */
static int nextra(const op *o) { return returns_status(o) || returns_list(o) ? 0 : o->s.nrets - 1; }
static const char *ret_name(const op *o, int i) {
  static char buf[CT_MAX_RETURNS][32];
  if (o->s.rets[i].name[0]) return o->s.rets[i].name;
  snprintf(buf[i], sizeof buf[i], "result%d", i);
  return buf[i];
}

static const char *kernel_ctype(const ct_arg *a) {
  switch (a->type) {
  case CT_TYPE_TENSOR: return "ct_tensor *";
  case CT_TYPE_INT: return "int64_t ";
  case CT_TYPE_FLOAT: return "double ";
  case CT_TYPE_BOOL: return "bool ";
  case CT_TYPE_SCALAR: return "ct_scalar ";
  case CT_TYPE_SCALAR_TYPE: return "ct_dtype ";
  case CT_TYPE_INT_LIST: return "ct_int_list ";
  case CT_TYPE_FLOAT_LIST: return "ct_float_list ";
  case CT_TYPE_TENSOR_LIST: return "ct_tensor_list ";
  case CT_TYPE_STR: return "const char *";
  case CT_TYPE_GENERATOR: return "ct_generator *";
  case CT_TYPE_DEVICE: return "ct_device ";
  }
  return "?";
}
static const char *ret_ctype(const op *o) {
  return returns_status(o) ? "ct_status " : returns_list(o) ? "int64_t " : "ct_tensor *";
}
static const char *fail_value(const op *o) {
  return returns_status(o) ? "ct_last_error()" : returns_list(o) ? "(int64_t)-1" : "(ct_tensor *)NULL";
}

/* Does identifier `id` occur as a whole word in text? */
static int uses(const char *text, const char *id) {
  size_t n = strlen(id);
  const char *at = text;
  while ((at = strstr(at, id)) != NULL) {
    int before = at > text && (isalnum((unsigned char)at[-1]) || at[-1] == '_');
    int after = isalnum((unsigned char)at[n]) || at[n] == '_';
    if (!before && !after) return 1;
    at += n;
  }
  return 0;
}
static int deriv_uses(const deriv *d, const char *id) {
  int i;
  for (i = 0; d && i < d->nformulas; i++)
    if (uses(d->formula[i], id)) return 1;
  return 0;
}
/* A formula's key names one input ("self") or several ("input, weight": one
 * call computes their gradients together, derivatives.spec). The position
 * of name in key (0, 1, ...), or -1. */
static int key_position(const char *key, const char *name) {
  size_t n = strlen(name);
  int pos = 0;
  for (;;) {
    while (*key == ' ') key++;
    if (!strncmp(key, name, n) && (key[n] == ',' || key[n] == ' ' || key[n] == '\0')) return pos;
    if (!(key = strchr(key, ','))) return -1;
    key++, pos++;
  }
}

/* The C default for a schema default value (the parser, ctorch/schema.h,
 * has checked that it is valid for its type). */
static const char *c_float(const char *v) { /* inf, -inf, nan or a C literal */
  return !strcmp(v, "inf") ? "INFINITY" : !strcmp(v, "-inf") ? "-INFINITY" : !strcmp(v, "nan") ? "NAN" : v;
}
static const char *c_int(const char *v) { /* an int64 literal C accepts */
  return !strcmp(v, "9223372036854775807") ? "INT64_MAX" : !strcmp(v, "-9223372036854775808") ? "INT64_MIN" : v;
}
static void c_default(const op *o, const ct_arg *a, char *out, size_t cap) {
  const char *v = a->default_value;
  if (!v[0] && a->type == CT_TYPE_BOOL) v = "False"; /* a flag the short form leaves out (batch_norm's cudnn_enabled) */
  if (!v[0]) die(o->file, o->line, "%s: argument '%s' has no default, so the short form must take it", o->full, a->name);
  switch (a->type) {
  case CT_TYPE_SCALAR:
    if (!strcmp(v, "None")) snprintf(out, cap, "ct__scalar_none()");
    else if (!strcmp(v, "True") || !strcmp(v, "False")) snprintf(out, cap, "ct_bool(%s)", v[0] == 'T' ? "true" : "false");
    else if (strpbrk(v, ".eEn")) snprintf(out, cap, "ct_float(%s)", c_float(v)); /* n: inf, nan */
    else snprintf(out, cap, "ct_int(%s)", c_int(v));
    return;
  case CT_TYPE_BOOL: snprintf(out, cap, "%s", !strcmp(v, "None") ? "false" : !strcmp(v, "True") ? "true" : "false"); return;
  case CT_TYPE_SCALAR_TYPE: {
    static const char *const names[][2] = {{"float", "CT_F32"}, {"double", "CT_F64"}, {"half", "CT_F16"}, {"bfloat16", "CT_BF16"},
                                           {"long", "CT_I64"},  {"int", "CT_I32"},    {"uint8", "CT_U8"},  {"bool", "CT_BOOL"}};
    size_t i;
    for (i = 0; i < sizeof names / sizeof names[0]; i++)
      if (!strcmp(v, names[i][0])) {
        snprintf(out, cap, "%s", names[i][1]);
        return;
      }
    snprintf(out, cap, "CT_DTYPE_NONE");
    return;
  }
  case CT_TYPE_INT:
    if (!strcmp(v, "None")) snprintf(out, cap, "CT_INT_NONE");
    else if (!strcmp(v, "Mean")) snprintf(out, cap, "1"); /* at::Reduction */
    else if (!strcmp(v, "Sum")) snprintf(out, cap, "2");
    else snprintf(out, cap, "%s", c_int(v));
    return;
  case CT_TYPE_FLOAT: snprintf(out, cap, "%s", !strcmp(v, "None") ? "(double)NAN" : c_float(v)); return;
  case CT_TYPE_TENSOR:
  case CT_TYPE_GENERATOR: snprintf(out, cap, "NULL"); return;
  case CT_TYPE_DEVICE: snprintf(out, cap, "CT_NO_DEVICE"); return;
  case CT_TYPE_STR:
    if (!strcmp(v, "None")) snprintf(out, cap, "NULL");
    else if (v[0] == '"' || v[0] == '\'') snprintf(out, cap, "\"%.*s\"", (int)strlen(v) - 2, v + 1);
    else die(o->file, o->line, "%s: bad str default %s", o->full, v);
    return;
  default: die(o->file, o->line, "%s: no C default for argument '%s'", o->full, a->name);
  }
}

/* The elements of an int[] default: "[1, 2]" -> "1, 2"; a bare "1" for
 * int[2] -> "1, 1" (PyTorch repeats it). */
static const char *int_list_default(const op *o, const ct_arg *a) {
  static char buf[1024];
  const char *v = a->default_value;
  size_t n = 0;
  int i;
  if (v[0] == '[') {
    snprintf(buf, sizeof buf, "%.*s", (int)strlen(v) - 2, v + 1);
    return buf;
  }
  if (a->list_size <= 0) die(o->file, o->line, "%s: int[] default '%s' needs a sized list", o->full, v);
  buf[0] = 0;
  for (i = 0; i < a->list_size; i++) {
    int k = snprintf(buf + n, sizeof buf - n, "%s%s", i ? ", " : "", c_int(v));
    if (k < 0 || (size_t)k >= sizeof buf - n) die(o->file, o->line, "%s: int[] default of '%s' too long", o->full, a->name);
    n += (size_t)k;
  }
  return buf;
}

/* Is argument i in the short form? Written arguments (out=) and arguments
 * without a default always are (but a `short:` list may leave out a bool
 * without one: False): the short form passes defaults for the rest, and
 * there is none for them (check_frontends refuses a `short:` list that
 * leaves one out). */
static int in_short_list(const op *o, const char *name) {
  char list[256], *tok;
  strcpy(list, o->shortargs);
  for (tok = strtok(list, ", "); tok; tok = strtok(NULL, ", "))
    if (!strcmp(tok, name)) return 1;
  return 0;
}
static int in_short(const op *o, int i) {
  const ct_arg *a = &o->s.args[i];
  if (a->is_write || (!a->default_value[0] && (a->type != CT_TYPE_BOOL || !o->has_short))) return 1;
  if (o->has_short) return in_short_list(o, a->name);
  return !a->kwarg_only;
}
/* A factory: a `Device? device` argument and no Tensor argument; it gets a
 * BackendSelect kernel that dispatches on the device. */
static int is_factory(const op *o) {
  int i, dev = 0;
  for (i = 0; i < o->s.nargs; i++) {
    const ct_arg *a = &o->s.args[i];
    if (a->type == CT_TYPE_TENSOR || a->type == CT_TYPE_TENSOR_LIST) return 0;
    if (a->type == CT_TYPE_DEVICE && !strcmp(a->name, "device")) dev = 1;
  }
  return dev;
}
static int has_ex(const op *o) {
  int i;
  for (i = 0; i < o->s.nargs; i++)
    if (!in_short(o, i)) return 1;
  return 0;
}

/* ---- output helpers ---- */
static FILE *out;
static void p(const char *fmt, ...) CT__PRINTF(1, 2);
static void p(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfprintf(out, fmt, ap);
  va_end(ap);
}

static FILE *open_out(const char *rel) {
  char path[1024];
  FILE *f;
  snprintf(path, sizeof path, "%s/%s", root, rel);
  f = fopen(path, "w");
  if (!f) die(path, 0, "cannot write");
  return f;
}

/* Public parameter list: write args other than self first (out=), then the
 * schema order; int[] and Tensor[] become (length, pointer) pairs. */
static void public_params(const op *o, int ex) {
  int i, first = 1, pass;
  for (pass = 0; pass < 2; pass++)
    for (i = 0; i < o->s.nargs; i++) {
      const ct_arg *a = &o->s.args[i];
      if ((pass == 0) != is_out_arg(o, i)) continue;
      if (!ex && !in_short(o, i)) continue;
      p("%s", first ? "" : ", ");
      first = 0;
      if (a->type == CT_TYPE_INT_LIST) p("int %s_len, const int64_t *%s", a->name, a->name);
      else if (a->type == CT_TYPE_FLOAT_LIST) p("int %s_len, const double *%s", a->name, a->name);
      else if (a->type == CT_TYPE_TENSOR_LIST) p("int %s_len, ct_tensor *const *%s", a->name, a->name);
      else p("%s%s", kernel_ctype(a), a->name);
    }
  for (i = 1; i <= nextra(o); i++) p("%sct_tensor **%s", first ? "" : ", ", ret_name(o, i)), first = 0;
  if (returns_list(o)) p("%sint64_t cap, ct_tensor **out", first ? "" : ", "), first = 0;
  if (first) p("void");
}
/* The trailing kernel parameters of tuple and Tensor[] returns. */
static void extra_param_types(const op *o) {
  int i;
  for (i = 1; i <= nextra(o); i++) p(", ct_tensor **");
  if (returns_list(o)) p(", int64_t, ct_tensor **");
}

static void kernel_param_types(const op *o) {
  int i;
  p("ct_keyset");
  for (i = 0; i < o->s.nargs; i++) p(", %s", kernel_ctype(&o->s.args[i]));
  extra_param_types(o);
}
static void fnptr_cast(const op *o) {
  p("(%s(*)(", ret_ctype(o));
  kernel_param_types(o);
  p("))");
}
static void kernel_params(const op *o) {
  int i;
  p("ct_keyset ks");
  for (i = 0; i < o->s.nargs; i++) p(", %s%s", kernel_ctype(&o->s.args[i]), o->s.args[i].name);
  for (i = 1; i <= nextra(o); i++) p(", ct_tensor **%s", ret_name(o, i));
  if (returns_list(o)) p(", int64_t cap, ct_tensor **out");
}
static void call_args(const op *o) {
  int i;
  for (i = 0; i < o->s.nargs; i++) p(", %s", o->s.args[i].name);
  for (i = 1; i <= nextra(o); i++) p(", %s", ret_name(o, i));
  if (returns_list(o)) p(", cap, out");
}

static void sig_ident(const char *sig, char *buf);
static void impl_param_types(const op *t);
/* int[] and float[]: (length, pointer) pairs in the public form, None as length -1 */
static int is_number_list(const ct_arg *a) { return a->type == CT_TYPE_INT_LIST || a->type == CT_TYPE_FLOAT_LIST; }
static void box_value(const ct_arg *a, const char *n) {
  switch (a->type) {
  case CT_TYPE_TENSOR: p("ct_value_tensor(%s)", n); break;
  case CT_TYPE_INT:
    if (a->optional) p("%s == CT_INT_NONE ? ct_value_none() : ct_value_int(%s)", n, n);
    else p("ct_value_int(%s)", n);
    break;
  case CT_TYPE_FLOAT:
    if (a->optional) p("%s != %s ? ct_value_none() : ct_value_double(%s)", n, n, n);
    else p("ct_value_double(%s)", n);
    break;
  case CT_TYPE_GENERATOR: p("ct_value_generator(%s)", n); break;
  case CT_TYPE_DEVICE: p("ct_value_device(%s)", n); break;
  case CT_TYPE_BOOL: p("ct_value_bool(%s)", n); break;
  case CT_TYPE_SCALAR:
    if (a->optional) p("%s.kind == CT_SCALAR_NONE ? ct_value_none() : ct_value_scalar(%s)", n, n);
    else p("ct_value_scalar(%s)", n);
    break;
  case CT_TYPE_SCALAR_TYPE: p("ct_value_dtype(%s)", n); break;
  case CT_TYPE_INT_LIST: p("%s.n < 0 ? ct_value_none() : ct_value_int_list(%s.data, %s.n)", n, n, n); break;
  case CT_TYPE_TENSOR_LIST: p("ct_value_tensor_list(%s.data, %s.n)", n, n); break;
  case CT_TYPE_FLOAT_LIST: p("%s.n < 0 ? ct_value_none() : ct_value_float_list(%s.data, %s.n)", n, n, n); break;
  case CT_TYPE_STR: p("ct_value_string(%s)", n); break;
  }
}

static const char *camel(const char *name, char *buf) {
  int up = 1, j = 0;
  for (; *name; name++) {
    if (*name == '_') { /* _to_copy -> ToCopy, as PyTorch's node names */
      up = 1;
      continue;
    }
    buf[j++] = (char)(up ? toupper((unsigned char)*name) : *name);
    up = 0;
  }
  buf[j] = 0;
  return buf;
}

static void ex_name(const op *o, char *buf, size_t cap) {
  size_t n = strlen(o->cname);
  if (n && o->cname[n - 1] == '_') snprintf(buf, cap, "%.*s_ex_", (int)(n - 1), o->cname);
  else snprintf(buf, cap, "%s_ex", o->cname);
}

/* The dispatch of one C signature (ct__call_<code>), shared by every op
 * with that signature: the kernel for the call's keys, called unboxed, or
 * boxed through ct__finish_* when the kernel has no unboxed entry. Ops of one
 * signature code box their arguments alike (checked here). */
static void call_ident(const op *o, char *buf) { sig_ident(o->s.signature, buf); }
static void call_fingerprint(const op *o, char *buf, size_t cap) {
  int j;
  size_t n;
  snprintf(buf, cap, "%s|%d|%d|%d|", ret_ctype(o), returns_status(o), returns_list(o), nextra(o));
  for (j = 0; j < o->s.nargs; j++) {
    const ct_arg *a = &o->s.args[j];
    n = strlen(buf);
    snprintf(buf + n, cap - n, "%s%d%d,", kernel_ctype(a), (int)a->type, /* (optional boxes as None for these) */
             a->optional && (a->type == CT_TYPE_INT || a->type == CT_TYPE_FLOAT || a->type == CT_TYPE_SCALAR));
  }
}
static void gen_calls(void) {
  static char seen[MAX_OPS][96], print[MAX_OPS][512];
  int nseen = 0, i, j;
  p("/* ---- dispatch, one function per C signature: kernel lookup, then the kernel unboxed (or boxed) ---- */\n");
  for (i = 0; i < nops; i++) {
    op *o = &ops[i];
    int st = returns_status(o), dup = -1;
    char id[96], fp[512], name[16];
    call_ident(o, id);
    call_fingerprint(o, fp, sizeof fp);
    for (j = 0; j < nseen; j++)
      if (!strcmp(seen[j], id)) dup = j;
    if (dup >= 0) {
      if (strcmp(print[dup], fp)) die(o->file, o->line, "%s: signature %s boxes unlike another op's", o->full, o->s.signature);
      continue;
    }
    strcpy(seen[nseen], id);
    strcpy(print[nseen++], fp);
    p("/* %s */\nstatic %sct__call_%s(const ct_op *ct__o, ct_keyset ks", o->s.signature, ret_ctype(o), id);
    for (j = 0; j < o->s.nargs; j++) p(", %sa%d", kernel_ctype(&o->s.args[j]), j);
    for (j = 1; j <= nextra(o); j++) p(", ct_tensor **x%d", j);
    if (returns_list(o)) p(", int64_t cap, ct_tensor **out");
    p(") {\n  const ct_kernel *ct__k = ct__kernel_for(ct__o, &ks);\n  %sct__res;\n", ret_ctype(o));
    p("  if (CT_UNLIKELY(!ct__k)) return %s;\n", fail_value(o));
    p("  ct__tls.depth++;\n  if (CT_LIKELY(ct__k->unboxed != NULL)) {\n    ct__res = (");
    fnptr_cast(o);
    p("ct__k->unboxed)(ks");
    for (j = 0; j < o->s.nargs; j++) p(", a%d", j);
    for (j = 1; j <= nextra(o); j++) p(", x%d", j);
    if (returns_list(o)) p(", cap, out");
    p(");\n  } else {\n");
    p("    ct_value ct__v[%d];\n", o->s.nargs ? o->s.nargs : 1);
    if (nextra(o)) {
      p("    ct_tensor **ct__extra[%d];\n", nextra(o));
      for (j = 1; j <= nextra(o); j++) p("    ct__extra[%d] = x%d;\n", j - 1, j);
    }
    for (j = 0; j < o->s.nargs; j++) {
      snprintf(name, sizeof name, "a%d", j);
      p("    ct__v[%d] = ", j);
      box_value(&o->s.args[j], name);
      p(";\n");
    }
    if (returns_list(o)) p("    ct__res = ct__finish_list(ct__o, ct__k, ks, ct__v, %d, cap, out);\n", o->s.nargs);
    else if (nextra(o)) p("    ct__res = ct__finish_tuple(ct__o, ct__k, ks, ct__v, %d, %d, ct__extra);\n", o->s.nargs, o->s.nrets);
    else p("    ct__res = %s(ct__o, ct__k, ks, ct__v, %d);\n", st ? "ct__finish_mut" : "ct__finish_new", o->s.nargs);
    p("  }\n  CT__DISPATCH_DONE(%s);\n  return ct__res;\n}\n",
      st ? "ct__res == CT_OK" : returns_list(o) ? "ct__res >= 0" : "ct__res != NULL");
    /* the first call of an op of this signature: defines the op, then calls (out of the
     * dispatch functions, whose arguments pass on in their registers: no spill there) */
    p("static CT__COLD %sct__first_%s(const ct__op_def *ct__d, ct_keyset ks", ret_ctype(o), id);
    for (j = 0; j < o->s.nargs; j++) p(", %sa%d", kernel_ctype(&o->s.args[j]), j);
    for (j = 1; j <= nextra(o); j++) p(", ct_tensor **x%d", j);
    if (returns_list(o)) p(", int64_t cap, ct_tensor **out");
    p(") {\n  const ct_op *ct__o = ct__materialize(ct__d);\n  if (!ct__o) return %s;\n  return ct__call_%s(ct__o, ks", fail_value(o), id);
    for (j = 0; j < o->s.nargs; j++) p(", a%d", j);
    for (j = 1; j <= nextra(o); j++) p(", x%d", j);
    if (returns_list(o)) p(", cap, out");
    p(");\n}\n");
  }
  p("\n/* ---- dispatch, one function per op: its signature's, with the op ---- */\n");
}

/* A frontend's Tensor arguments (shared form): inline, the common case
 * (every required one given, all on the first one's device), else
 * ct__frontend_keys with the op's rules. */
static void gen_frontend_keys(const op *o, int nt, const char *fail) {
  int j, n = 0, req = -1;
  const char *sep = "";
  for (j = 0; j < o->s.nargs; j++)
    if (is_tensor(&o->s.args[j]) && !o->s.args[j].optional && req < 0) req = j;
  if (req >= 0) {
    p("  if (CT_LIKELY(");
    for (j = 0; j < o->s.nargs; j++)
      if (is_tensor(&o->s.args[j]) && !o->s.args[j].optional) p("%s%s", sep, o->s.args[j].name), sep = " && ";
    for (j = 0; j < o->s.nargs && o->device_rule < 2; j++) {
      const ct_arg *a = &o->s.args[j];
      if (!is_tensor(a) || j == req) continue;
      if (a->optional) p(" && (!%s || ct__same_device(%s, %s))", a->name, o->s.args[req].name, a->name);
      else p(" && ct__same_device(%s, %s)", o->s.args[req].name, a->name);
    }
    p("))\n    ct__keys = ct__call_keys(");
    for (j = 0, sep = ""; j < o->s.nargs; j++) {
      const ct_arg *a = &o->s.args[j];
      if (!is_tensor(a)) continue;
      if (a->optional) p("%s(%s ? %s->keys : 0)", sep, a->name, a->name);
      else p("%s%s->keys", sep, a->name);
      sep = " | ";
    }
    p(");\n  else {\n");
  } else
    p("  {\n");
  p("    ct_tensor *const ct__t[%d] = {", nt);
  for (j = 0; j < o->s.nargs; j++)
    if (is_tensor(&o->s.args[j])) p("%s%s", n++ ? ", " : "", o->s.args[j].name);
  /* (into a block-local: the call's ct__keys itself is never address-taken, so it stays in a register) */
  p("};\n    ct_keyset ct__ks;\n    if (!ct__frontend_keys(&ct__fa_%s, ct__t, &ct__ks)) return %s;\n    ct__keys = ct__ks;\n  }\n",
    o->handle, fail);
}

/* ================= functions.h ================= */
static void gen_functions(void) {
  int i, j;
  out = open_out("ctorch/generated/functions.h");
  p("/* ctorch/generated/functions.h - GENERATED by gen/ctgen.c from gen/ops.spec; do not edit (make gen).\n"
    " * Typed frontends for every built-in op. Each frontend checks its tensor\n"
    " * arguments, computes the call's key set and calls the op's dispatch\n"
    " * function, which picks the kernel (typed, or boxed through the adapter).\n"
    " * Autograd kernels redispatch through the same functions with the keys\n"
    " * below autograd. See docs/ops.md for the list with schemas. */\n");
  p("#ifndef CT_GENERATED_FUNCTIONS_H\n#define CT_GENERATED_FUNCTIONS_H\n\n#include \"../dispatch.h\"\n\nCT_EXTERN_C_BEGIN\n\n");
  for (i = 0; i < nops; i++) {
    op *o = &ops[i];
    char ex[96];
    p("/* %s%s%s */\n", o->text, o->doc[0] ? "\n * " : "", o->doc);
    p("CTDEF %sct_%s(", ret_ctype(o), o->cname);
    public_params(o, 0);
    p(");\n");
    if (has_ex(o)) {
      ex_name(o, ex, sizeof ex);
      p("CTDEF %sct_%s(", ret_ctype(o), ex);
      public_params(o, 1);
      p(");\n");
    }
  }
  p("\n/* ---- kernel types ----\n"
    " * ct_kernel_<op>: the C function type of the op's kernels; declare a backend's\n"
    " * kernel with it (`static ct_kernel_mm my_mm;`) and the compiler checks the\n"
    " * definition. CT__OPNAME_<op> / CT__OPSIG_<op>: the op's name and C signature\n"
    " * code, for CT_BACKEND_KERNEL (ctorch/backend.h). ct_impl_<op>: the impl step\n"
    " * of a structured family (its out= op), for ct_set_structured_impl. */\n");
  for (i = 0; i < nops; i++) {
    op *o = &ops[i];
    p("typedef %sct_kernel_%s(", ret_ctype(o), o->handle);
    kernel_param_types(o);
    p(");\n#define CT__OPNAME_%s \"%s\"\n#define CT__OPSIG_%s \"%s\"\n", o->handle, o->full, o->handle, o->s.signature);
    if (o->st == o) { /* a structured family's impl step (ct_set_structured_impl) */
      p("typedef ct_status ct_impl_%s(", o->handle);
      impl_param_types(o);
      p(");\n");
    }
  }
  p("\n/* the built-in ops: the first CT__NUM_BUILTIN_OPS of the registry (ct_op_at), in spec order */\n"
    "#define CT__NUM_BUILTIN_OPS %d\n", nops);
  p("\nCT_EXTERN_C_END\n#endif /* CT_GENERATED_FUNCTIONS_H */\n\n");
  p("/* ==== implementation ==== */\n#if defined(CT__IMPLEMENT) && !defined(CT__GENERATED_FUNCTIONS_IMPL)\n"
    "#define CT__GENERATED_FUNCTIONS_IMPL\nCT_EXTERN_C_BEGIN\n\n");
  p("/* the registered op of every schema: NULL until its first use defines it from its record\n"
    " * (ct__materialize, dispatch.h; the records are in registration.h) */\nstatic struct {\n");
  for (i = 0; i < nops; i++) p("  ct_op *%s;\n", ops[i].handle);
  p("} ct__op;\n");
  for (i = 0; i < nops; i++) p("static const ct__op_def *ct__def_%s(void);\n", ops[i].handle);
  p("\n");

  /* dispatch: one call function per C signature, one forwarder per op */
  gen_calls();
  for (i = 0; i < nops; i++) {
    op *o = &ops[i];
    char id[96];
    call_ident(o, id);
    p("/* %s */\n", o->text);
    /* (always inlined, as the one-line forwarder it was: a call level would cost more than the check) */
    p("static CT__HOT_INLINE %sct__dispatch_%s(", ret_ctype(o), o->handle);
    kernel_params(o);
    p(") {\n  const ct_op *ct__o = ct__atomic_load(&ct__op.%s);\n", o->handle);
    p("  if (CT_UNLIKELY(!ct__o)) return ct__first_%s(ct__def_%s(), ks", id, o->handle);
    call_args(o);
    p(");\n  return ct__call_%s(ct__o, ks", id);
    call_args(o);
    p(");\n}\n");
  }

  /* BackendSelect kernels of the factories */
  p("\n/* ---- BackendSelect: a factory goes to its device's backend ---- */\n");
  for (i = 0; i < nops; i++) {
    op *o = &ops[i];
    if (!is_factory(o)) continue;
    p("static %sct__backend_select_%s(", ret_ctype(o), o->handle);
    kernel_params(o);
    p(") {\n");
    for (j = 0; j < o->s.nargs; j++) /* no device but a generator: the generator's device */
      if (o->s.args[j].type == CT_TYPE_GENERATOR)
        p("  if (ct_device_is_none(device) && %s) device = ct_generator_device(%s);\n", o->s.args[j].name, o->s.args[j].name);
    p("  if (!(ks = ct__backend_select(\"%s\", ks, &device))) return %s;\n  return ct__dispatch_%s(ks", o->full, fail_value(o),
      o->handle);
    call_args(o);
    p(");\n}\n");
  }

  /* frontends */
  p("\n/* ---- frontends ---- */\n");
  for (i = 0; i < nops; i++) {
    op *o = &ops[i];
    int st = returns_status(o), ex = has_ex(o), lst = returns_list(o), shared = 0, nt = 0, first_t = -1, last_t = -1;
    char exn[96];
    const char *fail = fail_value(o);
    /* The Tensor arguments are checked by ct__frontend_keys in one call when
     * that keeps the order of every check: no Tensor[], and no int[] (checked
     * here) between two Tensors. */
    for (j = 0; j < o->s.nargs; j++)
      if (is_tensor(&o->s.args[j])) nt++, last_t = j, first_t = first_t < 0 ? j : first_t;
    if (nt > 0 && nt <= 6 /* CT__FRONTEND_TENSORS */) {
      shared = 1;
      for (j = 0; j < o->s.nargs; j++)
        if (o->s.args[j].type == CT_TYPE_TENSOR_LIST || (is_number_list(&o->s.args[j]) && j > first_t && j < last_t)) shared = 0;
    }
    ex_name(o, exn, sizeof exn);
    if (shared) { /* the Tensor arguments, for ct__frontend_keys */
      int n = 0;
      p("static const ct__frontend_args ct__fa_%s = {\"%s\", %d, {", o->handle, o->full, nt);
      for (j = 0; j < o->s.nargs; j++)
        if (is_tensor(&o->s.args[j]))
          p("%s%d", n++ ? ", " : "", (o->device_rule < 2 ? how(o, &o->s.args[j]) : 3) | (o->s.args[j].optional ? 4 : 0));
      p("}, {");
      for (j = 0, n = 0; j < o->s.nargs; j++)
        if (is_tensor(&o->s.args[j])) p("%s\"%s\"", n++ ? ", " : "", o->s.args[j].name);
      p("}};\n");
    }
    p("CTDEF %sct_%s(", ret_ctype(o), ex ? exn : o->cname);
    public_params(o, 1);
    p(") {\n");
    /* lists as (len, ptr) */
    for (j = 0; j < o->s.nargs; j++) {
      const ct_arg *a = &o->s.args[j];
      if (is_number_list(a)) p("  %s%s_l;\n", kernel_ctype(a), a->name);
      if (a->type == CT_TYPE_TENSOR_LIST) p("  ct_tensor_list %s_l;\n  int64_t %s_i;\n", a->name, a->name);
    }
    if (shared) p("  ct_keyset ct__keys;\n");
    else {
      p("  ct_keyset ct__keys = 0;\n");
      if (o->device_rule < 2 && !is_factory(o)) p("  ct__device_join ct__dev = {{0, 0}, NULL};\n");
    }
    if (is_factory(o)) p("  if (CT_UNLIKELY(!ct__initialized)) ct__init(); /* (a factory may be the program's first call) */\n");
    if (nextra(o)) {
      p("  ct_tensor *ct__r, *ct__x[%d] = {NULL", nextra(o));
      for (j = 1; j < nextra(o); j++) p(", NULL");
      p("};\n");
      for (j = 1; j <= nextra(o); j++) p("  if (%s) *%s = NULL;\n", ret_name(o, j), ret_name(o, j));
    }
    if (lst) p("  int64_t ct__n, ct__i;\n  if (CT_UNLIKELY(cap < 0 || (cap > 0 && !out))) return ct__fail_null(\"%s\", \"out\"), %s;\n", o->full, fail);
    for (j = 0; j < o->s.nargs; j++) {
      const ct_arg *a = &o->s.args[j];
      if (shared && a->type == CT_TYPE_TENSOR) { /* all of them at the first, in order */
        if (j == first_t) gen_frontend_keys(o, nt, fail);
      } else if (a->type == CT_TYPE_TENSOR && !a->optional) {
        p("  if (CT_UNLIKELY(!%s)) return ct__fail_null(\"%s\", \"%s\"), %s;\n", a->name, o->full, a->name, fail);
        p("  ct__keys |= %s->keys;\n", a->name);
        if (o->device_rule < 2)
          p("  if (CT_UNLIKELY(!ct__device_joins(&ct__dev, %s, %d, \"%s\", \"%s\"))) return %s;\n", a->name, how(o, a), o->full,
            a->name, fail);
      } else if (a->type == CT_TYPE_TENSOR) {
        p("  if (%s) ct__keys |= %s->keys;\n", a->name, a->name);
        if (o->device_rule < 2)
          p("  if (CT_UNLIKELY(%s && !ct__device_joins(&ct__dev, %s, %d, \"%s\", \"%s\"))) return %s;\n", a->name, a->name,
            how(o, a), o->full, a->name, fail);
      } else if (is_number_list(a)) {
        p("  if (CT_UNLIKELY(%s_len > 0 && !%s)) return ct__fail_null(\"%s\", \"%s\"), %s;\n", a->name, a->name, o->full,
          a->name, fail);
        p("  if (CT_UNLIKELY(%s_len < 0))\n"
          "    return ct_fail(CT_ERR_INVALID, \"%s\", \"%s: negative length %%d\", %s_len), %s;\n",
          a->name, o->full, a->name, a->name, fail);
        if (a->optional) p("  %s_l.data = %s;\n  %s_l.n = %s ? %s_len : -1;\n", a->name, a->name, a->name, a->name, a->name);
        else p("  %s_l.data = %s;\n  %s_l.n = %s_len;\n", a->name, a->name, a->name, a->name);
      } else if (a->type == CT_TYPE_TENSOR_LIST) {
        p("  if (CT_UNLIKELY(%s_len < 0 || (%s_len > 0 && !%s))) return ct__fail_null(\"%s\", \"%s\"), %s;\n", a->name,
          a->name, a->name, o->full, a->name, fail);
        p("  for (%s_i = 0; %s_i < %s_len; %s_i++) {\n", a->name, a->name, a->name, a->name);
        p("    if (CT_UNLIKELY(!%s[%s_i])) return ct__fail_null(\"%s\", \"%s\"), %s;\n", a->name, a->name, o->full, a->name,
          fail);
        p("    ct__keys |= %s[%s_i]->keys;\n", a->name, a->name);
        if (o->device_rule < 2)
          p("    if (CT_UNLIKELY(!ct__device_joins(&ct__dev, %s[%s_i], %d, \"%s\", \"%s\"))) return %s;\n", a->name, a->name,
            how(o, a), o->full, a->name, fail);
        p("  }\n");
        p("  %s_l.data = %s;\n  %s_l.n = %s_len;\n", a->name, a->name, a->name, a->name);
      }
    }
    {
      const char *keys = shared ? "ct__keys" : "ct__call_keys(ct__keys)";
      if (st) p("  return ct__dispatch_%s(%s", o->handle, keys);
      else if (nextra(o) || lst) p("  %s = ct__dispatch_%s(%s", lst ? "ct__n" : "ct__r", o->handle, keys);
      else p("  return ct__track(ct__dispatch_%s(%s", o->handle, keys);
    }
    for (j = 0; j < o->s.nargs; j++) {
      const ct_arg *a = &o->s.args[j];
      if (is_number_list(a) || a->type == CT_TYPE_TENSOR_LIST) p(", %s_l", a->name);
      else p(", %s", a->name);
    }
    for (j = 1; j <= nextra(o); j++) p(", &ct__x[%d]", j - 1);
    if (lst) {
      /* results are tracked like any frontend's; out == NULL asks for the count */
      p(", cap, out);\n  for (ct__i = 0; out && ct__i < ct__n && ct__i < cap; ct__i++) ct__track(out[ct__i]);\n"
        "  for (ct__i = 0; out && ct__n < 0 && ct__i < cap; ct__i++) out[ct__i] = NULL; /* no garbage after an error */\n"
        "  return ct__n;\n}\n");
    } else if (nextra(o)) {
      p(");\n  if (!ct__r) {\n");
      for (j = 1; j <= nextra(o); j++) p("    ct_release(ct__x[%d]);\n    if (%s) *%s = NULL;\n", j - 1, ret_name(o, j), ret_name(o, j));
      p("    return NULL;\n  }\n");
      for (j = 1; j <= nextra(o); j++)
        p("  if (%s) *%s = ct__track(ct__x[%d]);\n  else ct_release(ct__x[%d]);\n", ret_name(o, j), ret_name(o, j), j - 1,
          j - 1);
      p("  return ct__track(ct__r);\n}\n");
    } else p(st ? ");\n}\n" : "));\n}\n");
    if (ex) { /* the short form: schema defaults for the rest */
      int first = 1, pass;
      for (j = 0; j < o->s.nargs; j++) { /* int[] defaults other than None and [] */
        const ct_arg *a = &o->s.args[j];
        if (a->type != CT_TYPE_INT_LIST || in_short(o, j) || !strcmp(a->default_value, "None") ||
            !strcmp(a->default_value, "[]"))
          continue;
        p("static const int64_t ct__default_%s_%s[] = {%s};\n", o->handle, a->name, int_list_default(o, a));
      }
      p("CTDEF %sct_%s(", ret_ctype(o), o->cname);
      public_params(o, 0);
      p(") {\n  return ct_%s(", exn);
      for (pass = 0; pass < 2; pass++)
        for (j = 0; j < o->s.nargs; j++) {
          const ct_arg *a = &o->s.args[j];
          char def[96];
          if ((pass == 0) != is_out_arg(o, j)) continue;
          p("%s", first ? "" : ", ");
          first = 0;
          if (in_short(o, j)) {
            if (is_number_list(a) || a->type == CT_TYPE_TENSOR_LIST) p("%s_len, %s", a->name, a->name);
            else p("%s", a->name);
          } else {
            if (a->type == CT_TYPE_TENSOR_LIST || a->type == CT_TYPE_FLOAT_LIST) {
              p("0, NULL"); /* the parser allows only [] */
            } else if (a->type == CT_TYPE_INT_LIST) {
              if (!strcmp(a->default_value, "None") || !strcmp(a->default_value, "[]")) p("0, NULL");
              else p("(int)(sizeof ct__default_%s_%s / sizeof(int64_t)), ct__default_%s_%s", o->handle, a->name, o->handle, a->name);
            } else {
              c_default(o, a, def, sizeof def);
              p("%s", def);
            }
          }
        }
      for (j = 1; j <= nextra(o); j++) p("%s%s", first ? "" : ", ", ret_name(o, j)), first = 0;
      if (lst) p("%scap, out", first ? "" : ", ");
      p(");\n}\n");
    }
  }
  p("\nCT_EXTERN_C_END\n#endif /* CT__GENERATED_FUNCTIONS_IMPL */\n");
  fclose(out);
}

/* ================= autograd_functions.h ================= */
/* Tensor inputs that get edges: every Tensor argument except out= ones. */
static int edge_index(const op *o, int arg) {
  int i, e = 0;
  for (i = 0; i < arg; i++)
    if (is_tensor(&o->s.args[i]) && !is_out_arg(o, i)) e++;
  return e;
}
static int num_edges(const op *o) { return edge_index(o, o->s.nargs); }

static void gen_record_condition(const op *o) {
  int i, first = 1;
  p("ct__grad_mode() && (");
  for (i = 0; i < o->s.nargs; i++)
    if (is_tensor(&o->s.args[i]) && !is_out_arg(o, i)) {
      p("%sct__needs_grad(%s)", first ? "" : " || ", o->s.args[i].name);
      first = 0;
    }
  p(")");
}

static void gen_redispatch(const op *o, const char *lhs) {
  p("  excluded = ct__below_autograd_begin();\n");
  p("  %s = ct__dispatch_%s(ks & CT__BELOW_AUTOGRAD", lhs, o->handle);
  call_args(o);
  p(");\n  ct__below_autograd_end(excluded);\n");
}

/* The autograd kernel's inputs: the Tensor arguments that get edges. */
static void gen_record_inputs(const op *o) {
  int j, n = 0;
  if (!num_edges(o)) die(o->file, o->line, "%s: differentiable, but no Tensor input", o->full);
  if (o->kind == K_INPLACE && (o->s.nargs < 1 || strcmp(o->s.args[0].name, "self") || !is_tensor(&o->s.args[0])))
    die(o->file, o->line, "%s: an in-place op's first argument must be Tensor self", o->full);
  p("  ct_tensor *const ct__in[%d] = {", num_edges(o));
  for (j = 0; j < o->s.nargs; j++)
    if (is_tensor(&o->s.args[j]) && !is_out_arg(o, j)) p("%s%s", n++ ? ", " : "", o->s.args[j].name);
  p("};\n");
}
/* ct__record: the node (into var), or the kernel fails. */
static void gen_record_call(const op *o, const char *kind, const char *size, const char *var) {
  char inplace[128];
  if (o->kind == K_INPLACE) snprintf(inplace, sizeof inplace, "\"%s\"", o->full);
  else strcpy(inplace, "NULL");
  p("  %s = NULL;\n  if (", var);
  gen_record_condition(o);
  if (returns_status(o))
    p(" &&\n      (r = ct__record(&%s, %s, %s, %s, %d, ct__in)) != CT_OK)\n    return r;\n", var, kind, size, inplace, num_edges(o));
  else
    p(" &&\n      ct__record(&%s, %s, %s, %s, %d, ct__in) != CT_OK)\n    return %s;\n", var, kind, size, inplace, num_edges(o),
      fail_value(o));
}
/* After the redispatch: the result's history (no saved outputs). */
static void gen_record_end(const op *o, const char *node, int unused) {
  (void)unused;
  if (!returns_status(o)) p("  if (ct__nd) r = ct__record_result(r, %s);\n", node);
  else if (o->kind == K_INPLACE) p("  if (ct__nd) r = ct__record_inplace(r, self, %s);\n", node);
  else p("  if (ct__nd) {\n    if (r == CT_OK) r = ct__set_history(self, %s, 0);\n    ct__node_release(%s);\n  }\n", node, node);
}
/* Does the node save one of the extra outputs (after the redispatch)? */
static int nextra_saved(const op *o, const deriv *d) {
  int j;
  for (j = 1; j <= nextra(o); j++)
    if (deriv_uses(d, ret_name(o, j))) return 1;
  return 0;
}

static void gen_autograd(void) {
  int i, j;
  out = open_out("ctorch/generated/autograd_functions.h");
  p("/* ctorch/generated/autograd_functions.h - GENERATED by gen/ctgen.c from gen/ops.spec and\n"
    " * gen/derivatives.spec; do not edit (make gen).\n"
    " * Per differentiable op: a node struct holding what its formulas need, the\n"
    " * backward function (the formulas, written with ct ops, so they are\n"
    " * differentiable themselves), and the autograd kernel that records the node\n"
    " * and redispatches below autograd. See ctorch/autograd.h for the engine. */\n");
  p("#ifndef CT_GENERATED_AUTOGRAD_FUNCTIONS_H\n#define CT_GENERATED_AUTOGRAD_FUNCTIONS_H\n#include \"../autograd.h\"\n"
    "#endif\n\n");
  p("/* ==== implementation ==== */\n#if defined(CT__IMPLEMENT) && !defined(CT__GENERATED_AUTOGRAD_IMPL)\n"
    "#define CT__GENERATED_AUTOGRAD_IMPL\nCT_EXTERN_C_BEGIN\n");
  for (i = 0; i < nops; i++) {
    op *o = &ops[i];
    deriv *d = o->d;
    int st = returns_status(o), save_result;
    char cam[96], nodename[128], kindname[160];
    FILE *saves;
    if (o->cia || is_factory(o)) continue; /* (a factory has no tensor input: nothing to record) */
    p("\n/* ---- %s ---- */\n", o->text);
    if (o->kind == K_OUT) {
      p("static ct_status ct__autograd_%s(", o->handle);
      kernel_params(o);
      p(") {\n  ct_keyset excluded;\n  ct_status r;\n  if (");
      {
        int first = 1;
        p("ct__grad_mode() && (");
        for (j = 0; j < o->s.nargs; j++)
          if (is_tensor(&o->s.args[j])) {
            p("%sct__needs_grad(%s)", first ? "" : " || ", o->s.args[j].name);
            first = 0;
          }
        p(")");
      }
      p(") return ct__out_not_differentiable(\"%s\");\n", o->full);
      gen_redispatch(o, "r");
      p("  return r;\n}\n");
      continue;
    }
    if (d && d->nondiff_output) { /* e.g. detach: never recorded */
      p("static %sct__autograd_%s(", ret_ctype(o), o->handle);
      kernel_params(o);
      p(") {\n  ct_keyset excluded;\n  %sr;\n", ret_ctype(o));
      gen_redispatch(o, "r");
      p("  return r;\n}\n");
      continue;
    }
    if (!d) { /* no formula: record a node that fails if backward reaches it */
      p("static %sct__autograd_%s(", ret_ctype(o), o->handle);
      kernel_params(o);
      p(") {\n");
      gen_record_inputs(o);
      p("  ct_node *ct__nd;\n  ct_keyset excluded;\n  %sr;\n", ret_ctype(o));
      gen_record_call(o, "&ct__not_impl_kind", "sizeof(ct__not_impl_node)", "ct__nd");
      p("  if (ct__nd) ((ct__not_impl_node *)ct__nd)->op = \"%s\";\n", o->full);
      gen_redispatch(o, "r");
      gen_record_end(o, "ct__nd", 0);
      p("  return r;\n}\n");
      continue;
    }
    /* the node */
    snprintf(nodename, sizeof nodename, "ct__node_%s", o->handle);
    camel(o->s.name, cam); /* add_ -> Add: in-place ops share their functional node's name */
    save_result = deriv_uses(d, "result");
    p("typedef struct %s {\n  ct_node base;\n", nodename);
    for (j = 0; j < o->s.nargs; j++) {
      const ct_arg *a = &o->s.args[j];
      char id[64];
      if (is_out_arg(o, j)) continue;
      if (deriv_uses(d, a->name)) {
        switch (a->type) {
        case CT_TYPE_TENSOR: p("  ct__saved %s;\n", a->name); break;
        case CT_TYPE_INT_LIST: p("  ct__saved_ints %s;\n", a->name); break;
        case CT_TYPE_TENSOR_LIST: die(d->file, d->line, "%s: Tensor[] formulas unsupported", o->full); break;
        case CT_TYPE_FLOAT_LIST: die(d->file, d->line, "%s: float[] formulas unsupported (make the op a composite)", o->full); break;
        case CT_TYPE_STR: p("  char %s[32];\n  bool %s_given;\n", a->name, a->name); break; /* a copy: the caller's string may not live */
        default: p("  %s%s;\n", kernel_ctype(a), a->name);
        }
      }
      snprintf(id, sizeof id, "%s_sizes", a->name);
      if (is_tensor(a) && deriv_uses(d, id)) p("  ct__shape %s_sizes;\n", a->name);
      snprintf(id, sizeof id, "%s_geometry", a->name);
      if (is_tensor(a) && deriv_uses(d, id)) p("  ct__geometry %s_geometry;\n", a->name);
      snprintf(id, sizeof id, "%s_dtype", a->name);
      if (is_tensor(a) && deriv_uses(d, id)) p("  ct_dtype %s_dtype;\n", a->name);
      snprintf(id, sizeof id, "%s_device", a->name);
      if (is_tensor(a) && deriv_uses(d, id)) p("  ct_device %s_device;\n", a->name);
    }
    if (save_result) p("  ct__saved result;\n");
    for (j = 1; j <= nextra(o); j++)
      if (deriv_uses(d, ret_name(o, j))) p("  ct__saved %s;\n", ret_name(o, j));
    p("} %s;\n\n", nodename);
    /* release_saved */
    {
      int any = save_result;
      for (j = 0; j < o->s.nargs; j++)
        if (is_tensor(&o->s.args[j]) && !is_out_arg(o, j) && deriv_uses(d, o->s.args[j].name)) any = 1;
      for (j = 1; j <= nextra(o); j++) any |= deriv_uses(d, ret_name(o, j));
      if (any) {
        p("static void ct__release_%s(ct_node *node) {\n  %s *ct__nd = (%s *)node;\n", o->handle, nodename, nodename);
        for (j = 0; j < o->s.nargs; j++)
          if (is_tensor(&o->s.args[j]) && !is_out_arg(o, j) && deriv_uses(d, o->s.args[j].name))
            p("  ct__saved_reset(&ct__nd->%s);\n", o->s.args[j].name);
        if (save_result) p("  ct__saved_reset(&ct__nd->result);\n");
        for (j = 1; j <= nextra(o); j++)
          if (deriv_uses(d, ret_name(o, j))) p("  ct__saved_reset(&ct__nd->%s);\n", ret_name(o, j));
        p("}\n");
      }
      /* backward */
      p("static ct_status ct__backward_%s(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {\n", o->handle);
      p("  %s *ct__nd = (%s *)node;\n", nodename, nodename);
      if (deriv_uses(d, "grad")) p("  ct_tensor *grad = grads[0];\n");
      for (j = 0; j < o->s.nargs; j++) {
        const ct_arg *a = &o->s.args[j];
        if (is_out_arg(o, j) || !deriv_uses(d, a->name)) continue;
        if (a->type == CT_TYPE_TENSOR) p("  ct_tensor *%s = NULL;\n", a->name);
        else if (a->type == CT_TYPE_INT_LIST) p("  ct_int_list %s = ct__ints(&ct__nd->%s);\n", a->name, a->name);
        else if (a->type == CT_TYPE_STR) p("  const char *%s = ct__nd->%s_given ? ct__nd->%s : NULL;\n", a->name, a->name, a->name);
        else p("  %s%s = ct__nd->%s;\n", kernel_ctype(a), a->name, a->name);
      }
      for (j = 0; j < o->s.nargs; j++) {
        const ct_arg *a = &o->s.args[j];
        char id[64];
        if (!is_tensor(a) || is_out_arg(o, j)) continue;
        snprintf(id, sizeof id, "%s_sizes", a->name);
        if (deriv_uses(d, id)) p("  const ct__shape %s_sizes = ct__nd->%s_sizes;\n", a->name, a->name);
        snprintf(id, sizeof id, "%s_geometry", a->name);
        if (deriv_uses(d, id)) p("  const ct__geometry *%s_geometry = &ct__nd->%s_geometry;\n", a->name, a->name);
        snprintf(id, sizeof id, "%s_dtype", a->name);
        if (deriv_uses(d, id)) p("  const ct_dtype %s_dtype = ct__nd->%s_dtype;\n", a->name, a->name);
        snprintf(id, sizeof id, "%s_device", a->name);
        if (deriv_uses(d, id)) p("  const ct_device %s_device = ct__nd->%s_device;\n", a->name, a->name);
      }
      if (save_result) p("  ct_tensor *result = NULL;\n");
      for (j = 1; j <= nextra(o); j++)
        if (deriv_uses(d, ret_name(o, j))) p("  ct_tensor *%s = NULL;\n", ret_name(o, j));
      /* Saved tensors are unpacked (and version-checked) only for the inputs
       * that need a gradient, as PyTorch does: a saved tensor modified in
       * place is an error only if a formula that reads it runs. */
      {
        const char *names[2 * CT_MAX_ARGS];
        int optional[2 * CT_MAX_ARGS], nn = 0, k, f;
        for (j = 0; j < o->s.nargs; j++) {
          const ct_arg *a = &o->s.args[j];
          if (a->type != CT_TYPE_TENSOR || is_out_arg(o, j) || !deriv_uses(d, a->name)) continue;
          optional[nn] = a->optional, names[nn++] = a->name;
        }
        if (save_result) optional[nn] = 0, names[nn++] = "result";
        for (j = 1; j <= nextra(o); j++)
          if (deriv_uses(d, ret_name(o, j))) optional[nn] = 0, names[nn++] = ret_name(o, j);
        for (k = 0; k < nn; k++) {
          int first = 1;
          for (f = 0; f < d->nformulas; f++) {
            int a, found = -1;
            if (!uses(d->formula[f], names[k])) continue;
            for (a = 0; a < o->s.nargs; a++) {
              if (key_position(d->arg[f], o->s.args[a].name) < 0) continue;
              found = a;
              p("%sct_node_needs_input_grad(node, %d)", first ? "  if (" : " || ", edge_index(o, found));
              first = 0;
            }
            if (found < 0) continue; /* reported below */
          }
          if (first) continue;
          p(") {\n    %s = ct__unpack(&ct__nd->%s, node, \"%s\");\n", names[k], names[k], names[k]);
          if (optional[k]) /* NULL is None, unless the node was released or the check failed */
            p("    if (!%s && (node->released || ct__nd->%s.t)) return ct_last_error();\n  }\n", names[k], names[k]);
          else p("    if (!%s) return ct_last_error();\n  }\n", names[k]);
        }
      }
      p("  (void)ct__nd;\n  (void)grads;\n  (void)grad_inputs;\n");
      for (j = 0; j < d->nformulas; j++) {
        int k, found = -1;
        if (strchr(d->arg[j], ',')) { /* several inputs, one call: it fills grad_outs[i] where grad_input_mask[i] */
          int edges[CT_MAX_ARGS], n = 0, m;
          for (m = 0;; m++) {
            found = -1;
            for (k = 0; k < o->s.nargs; k++)
              if (key_position(d->arg[j], o->s.args[k].name) == m) found = k;
            if (found < 0) break;
            if (!is_tensor(&o->s.args[found])) die(d->file, d->line, "%s: '%s' is not a Tensor argument", o->full, o->s.args[found].name);
            edges[n++] = edge_index(o, found);
          }
          for (k = 0, m = 1; d->arg[j][k]; k++) m += d->arg[j][k] == ',';
          if (n != m) die(d->file, d->line, "%s: '%s' names an input the op does not have", o->full, d->arg[j]);
          for (m = 0; m < n; m++) p("%sct_node_needs_input_grad(node, %d)", m ? " || " : "  if (", edges[m]);
          p(") {\n    const bool grad_input_mask[%d] = {", n);
          for (m = 0; m < n; m++) p("%sct_node_needs_input_grad(node, %d)", m ? ", " : "", edges[m]);
          p("};\n    ct_tensor *grad_outs[%d] = {NULL", n);
          for (m = 1; m < n; m++) p(", NULL");
          p("};\n    if (%s != CT_OK) return ct_last_error();\n", d->formula[j]);
          for (m = 0; m < n; m++) p("    grad_inputs[%d] = grad_outs[%d];\n", edges[m], m);
          p("  }\n");
          continue;
        }
        for (k = 0; k < o->s.nargs; k++)
          if (!strcmp(o->s.args[k].name, d->arg[j])) found = k;
        if (found < 0 || !is_tensor(&o->s.args[found]))
          die(d->file, d->line, "%s: '%s' is not a Tensor argument", o->full, d->arg[j]);
        if (!strcmp(d->formula[j], "not_implemented"))
          p("  if (ct_node_needs_input_grad(node, %d))\n    return ct_fail(CT_ERR_UNSUPPORTED, \"%s\", "
            "\"the derivative for '%s' is not implemented\");\n",
            edge_index(o, found), o->full, d->arg[j]);
        else if (!strcmp(d->formula[j], "non_differentiable"))
          p("  if (ct_node_needs_input_grad(node, %d))\n    return ct_fail(CT_ERR_STATE, \"%s\", "
            "\"'%s' is not differentiable\");\n",
            edge_index(o, found), o->full, d->arg[j]);
        else
          p("  if (ct_node_needs_input_grad(node, %d)) grad_inputs[%d] = %s;\n", edge_index(o, found), edge_index(o, found),
            d->formula[j]);
      }
      p("  return CT_OK;\n}\n");
      if (d->grad_fn[0]) snprintf(cam, sizeof cam, "%s", d->grad_fn);
      else snprintf(cam + strlen(cam), sizeof cam - strlen(cam), "Backward0");
      if (any) p("static const ct_node_kind ct__kind_%s = {\"%s\", ct__backward_%s, ct__release_%s};\n\n", o->handle, cam,
                 o->handle, o->handle);
      else p("static const ct_node_kind ct__kind_%s = {\"%s\", ct__backward_%s, NULL};\n\n", o->handle, cam, o->handle);
    }
    /* the autograd kernel */
    p("static %sct__autograd_%s(", ret_ctype(o), o->handle);
    kernel_params(o);
    p(") {\n");
    gen_record_inputs(o);
    p("  %s *ct__nd;\n  ct_node *ct__n;\n  ct_keyset excluded;\n  %sr;\n", nodename, ret_ctype(o));
    snprintf(kindname, sizeof kindname, "&ct__kind_%s", o->handle);
    gen_record_call(o, kindname, "sizeof *ct__nd", "ct__n");
    p("  ct__nd = (%s *)ct__n;\n", nodename);
    saves = out; /* the node's saved values, if any, under if (ct__nd) */
    if (!(out = tmpfile())) die(o->file, o->line, "no temporary file");
    for (j = 0; j < o->s.nargs; j++) {
      const ct_arg *a = &o->s.args[j];
      char id[64];
      if (is_out_arg(o, j)) continue;
      if (deriv_uses(d, a->name)) {
        if (a->type == CT_TYPE_TENSOR && o->kind == K_INPLACE && j == 0) { /* a copy, only if a formula that runs reads it */
          int f, k, first = 1;
          for (f = 0; f < d->nformulas; f++) {
            if (!uses(d->formula[f], a->name)) continue;
            for (k = 0; k < o->s.nargs; k++)
              if (key_position(d->arg[f], o->s.args[k].name) >= 0) {
                p("%sct_node_needs_input_grad(&ct__nd->base, %d)", first ? "    if ((" : " || ", edge_index(o, k));
                first = 0;
              }
          }
          p("%sct__save_clone(&ct__nd->%s, %s) != CT_OK) return ct__node_release(&ct__nd->base), %s;\n",
            first ? "    if (" : ") && ", a->name, a->name, st ? "ct_last_error()" : "(ct_tensor *)NULL");
        }
        else if (a->type == CT_TYPE_TENSOR) p("    ct__save(&ct__nd->%s, %s);\n", a->name, a->name);
        else if (a->type == CT_TYPE_INT_LIST)
          p("    if (ct__save_ints(&ct__nd->%s, %s, \"%s\") != CT_OK) return ct__node_release(&ct__nd->base), %s;\n", a->name, a->name,
            o->full, st ? "ct_last_error()" : "(ct_tensor *)NULL");
        else if (a->type == CT_TYPE_STR) {
          p("    if (%s && strlen(%s) >= sizeof ct__nd->%s)\n      return ct__node_release(&ct__nd->base), ct_fail(CT_ERR_INVALID, \"%s\", "
            "\"%s: string too long\"), %s;\n", a->name, a->name, a->name, o->full, a->name, st ? "ct_last_error()" : "(ct_tensor *)NULL");
          p("    if ((ct__nd->%s_given = %s != NULL)) strcpy(ct__nd->%s, %s);\n", a->name, a->name, a->name, a->name);
        } else p("    ct__nd->%s = %s;\n", a->name, a->name);
      }
      snprintf(id, sizeof id, "%s_sizes", a->name);
      if (is_tensor(a) && deriv_uses(d, id)) p("    ct__save_shape(&ct__nd->%s_sizes, %s);\n", a->name, a->name);
      snprintf(id, sizeof id, "%s_geometry", a->name);
      if (is_tensor(a) && deriv_uses(d, id)) p("    ct__save_geometry(&ct__nd->%s_geometry, %s);\n", a->name, a->name);
      snprintf(id, sizeof id, "%s_dtype", a->name);
      if (is_tensor(a) && deriv_uses(d, id)) p("    ct__nd->%s_dtype = (ct_dtype)%s->dtype;\n", a->name, a->name);
      snprintf(id, sizeof id, "%s_device", a->name);
      if (is_tensor(a) && deriv_uses(d, id)) p("    ct__nd->%s_device = %s->device;\n", a->name, a->name);
    }
    {
      long n = ftell(out);
      char *buf = (char *)malloc((size_t)n + 1);
      if (!buf || n < 0) die(o->file, o->line, "out of memory");
      rewind(out);
      if (fread(buf, 1, (size_t)n, out) != (size_t)n) die(o->file, o->line, "cannot read a temporary file");
      buf[n] = 0;
      fclose(out);
      out = saves;
      if (n) p("  if (ct__nd) {\n%s  }\n", buf);
      free(buf);
    }
    gen_redispatch(o, "r");
    if (!save_result && (st ? o->kind == K_INPLACE : !nextra_saved(o, d))) {
      gen_record_end(o, "&ct__nd->base", 0);
      p("  return r;\n}\n");
      continue;
    }
    p("  if (ct__nd) {\n");
    if (st) {
      p("    if (r == CT_OK) r = %s(self, &ct__nd->base%s);\n", o->kind == K_INPLACE ? "ct__rebase_history" : "ct__set_history",
        o->kind == K_INPLACE ? "" : ", 0");
      if (save_result) p("    if (r == CT_OK) r = ct__save_output(&ct__nd->result, self);\n");
    } else {
      p("    if (r && ct__set_history(r, &ct__nd->base, 0) != CT_OK) ct_release(r), r = NULL;\n");
      if (save_result) p("    if (r && ct__save_output(&ct__nd->result, r) != CT_OK) ct_release(r), r = NULL;\n");
      for (j = 1; j <= nextra(o); j++) /* only the first output is differentiable: the others are saved as data */
        if (deriv_uses(d, ret_name(o, j)))
          p("    if (r) ct__save(&ct__nd->%s, *%s);\n", ret_name(o, j), ret_name(o, j));
    }
    p("    ct__node_release(&ct__nd->base);\n  }\n  return r;\n}\n");
  }
  p("\nCT_EXTERN_C_END\n#endif /* CT__GENERATED_AUTOGRAD_IMPL */\n");
  fclose(out);
}

/* ================= registration.h ================= */
static void sig_ident(const char *sig, char *buf) {
  int j = 0;
  for (; *sig; sig++) {
    if (*sig == ',') continue;
    if (*sig == '-' && sig[1] == '>') {
      buf[j++] = '_';
      sig++;
      continue;
    }
    buf[j++] = (char)(*sig == '?' ? 'o' : *sig);
  }
  buf[j] = 0;
}

static const char *unbox_expr(const ct_arg *a, int i, char *buf, size_t cap) {
  switch (a->type) {
  case CT_TYPE_TENSOR: snprintf(buf, cap, "ct__unbox_tensor(&a[%d])", i); break;
  case CT_TYPE_INT: snprintf(buf, cap, "a[%d].v.i", i); break;
  case CT_TYPE_FLOAT: snprintf(buf, cap, "a[%d].v.d", i); break;
  case CT_TYPE_BOOL: snprintf(buf, cap, "a[%d].v.b", i); break;
  case CT_TYPE_SCALAR: snprintf(buf, cap, "a[%d].v.scalar", i); break;
  case CT_TYPE_SCALAR_TYPE: snprintf(buf, cap, "a[%d].v.dtype", i); break;
  case CT_TYPE_INT_LIST: snprintf(buf, cap, "ct__value_int_list(&a[%d])", i); break;
  case CT_TYPE_TENSOR_LIST: snprintf(buf, cap, "a[%d].v.tensors", i); break;
  case CT_TYPE_FLOAT_LIST: snprintf(buf, cap, "a[%d].v.floats", i); break;
  case CT_TYPE_STR: snprintf(buf, cap, "a[%d].tag == CT_VALUE_STRING ? a[%d].v.str : NULL", i, i); break;
  case CT_TYPE_GENERATOR: snprintf(buf, cap, "a[%d].tag == CT_VALUE_GENERATOR ? a[%d].v.gen : NULL", i, i); break;
  case CT_TYPE_DEVICE: snprintf(buf, cap, "a[%d].v.device", i); break;
  }
  return buf;
}

/* the key names of a kernel: line as written ("CPU Meta" -> CPU, Meta) */
static void key_spec_list(const char *keys, char names[][48], int max, int *n) {
  char buf[128], *tok;
  *n = 0;
  snprintf(buf, sizeof buf, "%s", keys);
  for (tok = strtok(buf, ", "); tok; tok = strtok(NULL, ", ")) {
    if (*n == max) die("gen/ops.spec", 0, "more than %d keys in '%s'", max, keys);
    snprintf(names[(*n)++], 48, "%s", tok);
  }
}

static void key_list(const char *keys, char names[][48], int max, int *n) {
  char buf[128], *tok;
  static const struct {
    const char *spec, *c;
  } map[] = {{"CPU", "CT_KEY_CPU"},
             {"CUDA", "CT_KEY_CUDA"},
             {"Meta", "CT_KEY_META"},
             {"PrivateUse1", "CT_KEY_PRIVATEUSE1"},
             {"PrivateUse2", "CT_KEY_PRIVATEUSE2"},
             {"PrivateUse3", "CT_KEY_PRIVATEUSE3"},
             {"CompositeImplicitAutograd", "CT_KEY_COMPOSITE_IMPLICIT_AUTOGRAD"},
             {"CompositeExplicitAutograd", "CT_KEY_COMPOSITE_EXPLICIT_AUTOGRAD"},
             /* not keys: every device type with a pointwise (ops/pointwise.h), reduction (ops/reduce.h),
              * index (ops/shape.h) or random (ops/random.h) loop */
             {"Pointwise", "CT__ENGINE_POINTWISE"},
             {"Reduction", "CT__ENGINE_REDUCTION"},
             {"Index", "CT__ENGINE_INDEX"},
             {"Random", "CT__ENGINE_RANDOM"}};
  *n = 0;
  strcpy(buf, keys);
  for (tok = strtok(buf, ", "); tok; tok = strtok(NULL, ", ")) {
    size_t m;
    for (m = 0; m < sizeof map / sizeof map[0]; m++)
      if (!strcmp(map[m].spec, tok)) break;
    if (m == sizeof map / sizeof map[0]) die("gen/ops.spec", 0, "unknown key '%s'", tok);
    if (*n == max) die("gen/ops.spec", 0, "more than %d keys in '%s'", max, keys);
    strcpy(names[(*n)++], map[m].c);
  }
}

/* one op's strings (gen_registration): each distinct one once, by offset into the block */
static char opstrs[2 * (CT_MAX_ARGS + CT_MAX_RETURNS) + 3][96];
static int nopstrs, opstrs_len;
static int opstr_at[2 * (CT_MAX_ARGS + CT_MAX_RETURNS) + 3];
static void op_strs_reset(void) { nopstrs = opstrs_len = 0; }
static int op_str(const char *t) {
  int i;
  for (i = 0; i < nopstrs; i++)
    if (!strcmp(opstrs[i], t)) return opstr_at[i];
  if (strlen(t) >= sizeof opstrs[0]) die("gen/ops.spec", 0, "schema string too long: '%s'", t);
  strcpy(opstrs[nopstrs], t);
  opstr_at[nopstrs++] = opstrs_len;
  opstrs_len += (int)strlen(t) + 1;
  if (opstrs_len > 65535) die("gen/ops.spec", 0, "an op's strings exceed 64 KiB");
  return opstr_at[nopstrs - 1];
}

/* a C string literal of t */
static void c_string(const char *t) {
  p("\"");
  for (; *t; t++) p("%s%c", *t == '"' || *t == '\\' ? "\\" : "", *t);
  p("\"");
}

/* What a boxed frontend depends on (gen_registration): the public C
 * parameter types in order, the boxed argument each comes from, the return
 * and the discarded extra results. Ops alike share one function. */
static char fe_key[MAX_OPS][160];
static int fe_index[MAX_OPS], nfe;
static void frontend_shape(const op *o, char *buf, size_t cap) {
  int pass, j;
  size_t n;
  snprintf(buf, cap, "%s%d:", returns_status(o) ? "st" : "T", nextra(o));
  for (pass = 0; pass < 2; pass++)
    for (j = 0; j < o->s.nargs; j++) {
      const ct_arg *a = &o->s.args[j];
      if ((pass == 0) != is_out_arg(o, j)) continue;
      n = strlen(buf);
      snprintf(buf + n, cap - n, "%s%d%s", j ? " " : "", (int)a->type, a->optional ? "?" : "");
      n = strlen(buf);
      snprintf(buf + n, cap - n, "@%d", j);
    }
  if (strlen(buf) + 1 >= cap) die(o->file, o->line, "%s: frontend shape too long", o->full);
  if (returns_status(o)) {
    for (j = 0; j < o->s.nargs && !o->s.args[j].is_write; j++) {
    }
    n = strlen(buf);
    snprintf(buf + n, cap - n, " w%d", j);
  }
}

/* The types of a structured family's impl step: its inputs, then one
 * ct_tensor * per output. */
static int st_variant(const op *o) { return returns_status(o) ? (o->s.args[0].is_write ? 1 : 2) : 0; }
static int st_is_input(const op *o, int j) { return st_variant(o) == 1 || !o->s.args[j].is_write; }
static void impl_param_types(const op *t) {
  int j, n = 0;
  for (j = 0; j < t->s.nargs; j++)
    if (!t->s.args[j].is_write) p("%s%s", n++ ? ", " : "", kernel_ctype(&t->s.args[j]));
  for (j = 0; j < t->s.nrets; j++) p("%sct_tensor *", n++ ? ", " : "");
}

/* The glue of a structured family (ctorch/ops/structured.h), per variant:
 * begin, the meta step, the impl step of the output's device type, finish;
 * and the Meta device's (the meta step alone). The impl steps per device
 * type sit in a table per family, the CPU's from the spec. */
static void gen_structured_glue(void) {
  int i, j, k;
  p("/* ---- structured kernels: meta step, outputs, impl step (ctorch/ops/structured.h) ---- */\n");
  p("/* each family's impl step per device type: the CPU's, others set by backends */\n");
  for (i = 0; i < nops; i++)
    if (ops[i].st == &ops[i])
      p("static ct_unboxed_fn ct__impls_%s[CT_DEVICE_NUM] = {CT_FN(%s)};\n", ops[i].handle, ops[i].impls[0].fn);
  for (i = 0; i < nops; i++) {
    op *o = &ops[i], *t = o->st;
    int variant, nin = 0, nout;
    if (!t) continue;
    variant = st_variant(o);
    for (j = 0; j < o->s.nargs; j++) nin += is_tensor(&o->s.args[j]) && st_is_input(o, j);
    nout = variant == 1 ? 1 : t->s.nrets;
    if (variant == 1 && t->s.nrets != 1) die(o->file, o->line, "%s: an in-place structured op has one output", o->full);
    if (variant == 0 && nextra(o) > 2) die(o->file, o->line, "%s: at most 3 outputs", o->full);
    for (k = 0; k < 2; k++) {
      int meta_only = k == 1, m;
      p("static %s%s(", ret_ctype(o), o->kernels[k].fn);
      kernel_params(o);
      p(") {\n");
      if (nin) {
        p("  ct_tensor *const ct__in[%d] = {", nin);
        for (j = 0, m = 0; j < o->s.nargs; j++)
          if (is_tensor(&o->s.args[j]) && st_is_input(o, j)) p("%s%s", m++ ? ", " : "", o->s.args[j].name);
        p("};\n");
      }
      p("  ct__structured st;\n  ct_status s;\n");
      if (!meta_only) p("  ct_unboxed_fn impl;\n");
      p("  (void)ks;\n  ct__st_begin(&st, \"%s\", %s, %d, %d, %s);\n", o->s.name,
        variant == 0 ? "CT__ST_FUNCTIONAL" : variant == 1 ? "CT__ST_INPLACE" : "CT__ST_OUT", meta_only, nin, nin ? "ct__in" : "NULL");
      if (variant == 1) p("  st.given[0] = self;\n");
      if (variant == 2)
        for (j = 0, m = 0; j < o->s.nargs; j++)
          if (o->s.args[j].is_write) p("  st.given[%d] = %s;\n", m++, o->s.args[j].name);
      p("  s = %s(&st", t->meta);
      for (j = 0; j < o->s.nargs; j++)
        if (st_is_input(o, j)) p(", %s", o->s.args[j].name);
      p(");\n");
      if (!meta_only) {
        const char *engine = !strcmp(t->impls[0].keys, "CPU Pointwise")   ? "ct__st_engine_pointwise"
                             : !strcmp(t->impls[0].keys, "CPU Reduction") ? "ct__st_engine_reduction"
                             : !strcmp(t->impls[0].keys, "CPU Index")     ? "ct__st_engine_index"
                             : !strcmp(t->impls[0].keys, "CPU Random")    ? "ct__st_engine_random"
                                                                          : NULL;
        if (engine)
          p("  if (s == CT_OK && (impl = ct__st_impl(&st, ct__impls_%s, %s, CT_FN(%s))) == NULL) s = ct_last_error();\n", t->handle,
            engine, t->impls[0].fn);
        else p("  if (s == CT_OK && (impl = ct__st_impl(&st, ct__impls_%s, NULL, NULL)) == NULL) s = ct_last_error();\n", t->handle);
        p("  if (s == CT_OK) s = ((ct_status (*)(");
        impl_param_types(t);
        p("))impl)(");
        for (j = 0, m = 0; j < o->s.nargs; j++)
          if (st_is_input(o, j)) p("%s%s", m++ ? ", " : "", o->s.args[j].name);
        for (j = 0; j < nout; j++) p("%sst.out[%d]", m++ ? ", " : "", j);
        p(");\n");
      }
      if (variant == 0) {
        p("  return ct__st_result(&st, s, %d", nout);
        for (j = 1; j <= 2; j++) p(", %s", j <= nextra(o) ? ret_name(o, j) : "NULL");
        p(");\n}\n");
      } else p("  return ct__st_finish(&st, s, %d);\n}\n", nout);
    }
  }
  p("\n/* ---- structured families: each variant's glue and its family's impls per device type\n"
    " * (ct_set_structured_impl registers the glue at a device type's backend key) ---- */\n");
  p("static const struct {\n  const char *family;\n  ct_op **op;\n  ct_unboxed_fn glue;\n  ct_unboxed_fn *impls;\n}"
    " ct__generated_structured[] = {\n");
  for (i = 0; i < nops; i++)
    if (ops[i].st)
      p("    {\"%s\", &ct__op.%s, CT_FN(%s), ct__impls_%s},\n", ops[i].st->full, ops[i].handle, ops[i].kernels[0].fn,
        ops[i].st->handle);
  p("};\n\n");
}

static void gen_registration(void) {
  int i, j, k;
  char seen[MAX_OPS][96];
  int nseen = 0;
  out = open_out("ctorch/generated/registration.h");
  p("/* ctorch/generated/registration.h - GENERATED by gen/ctgen.c from gen/ops.spec; do not edit (make gen).\n"
    " * The boxing adapter of every C signature, and each op's definition record\n"
    " * (schema, kernels per key, autograd kernel, adapter, boxed frontend) that\n"
    " * its first use defines it from (ct__materialize, dispatch.h). */\n");
  p("#ifndef CT_GENERATED_REGISTRATION_H\n#define CT_GENERATED_REGISTRATION_H\n#include \"../dispatch.h\"\n#endif\n\n");
  p("/* ==== implementation ==== */\n#if defined(CT__IMPLEMENT) && !defined(CT__GENERATED_REGISTRATION_IMPL)\n"
    "#define CT__GENERATED_REGISTRATION_IMPL\nCT_EXTERN_C_BEGIN\n\n");
  p("/* ---- boxing adapters: stack -> typed kernel -> stack ---- */\n");
  for (i = 0; i < nops; i++) {
    op *o = &ops[i];
    char id[96], ub[96];
    int dup = 0, st = returns_status(o), w = -1;
    for (j = 0; j < nseen; j++) dup |= !strcmp(seen[j], o->s.signature);
    if (dup) continue;
    strcpy(seen[nseen++], o->s.signature);
    sig_ident(o->s.signature, id);
    for (j = 0; j < o->s.nargs; j++)
      if (o->s.args[j].is_write) w = j;
    p("/* %s */\nstatic ct_status ct__adapt_%s(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {\n",
      o->s.signature, id);
    p("  ct_value *a = s->items + s->size - %d;\n", o->s.nargs);
    if (returns_list(o)) { /* ask for the count, then fill an owned array */
      int pass;
      p("  int64_t n = 0, m = -1;\n  ct_tensor **items = NULL;\n  (void)op;\n");
      for (pass = 0; pass < 2; pass++) {
        p(pass ? "  items = (ct_tensor **)CT_MALLOC(sizeof(ct_tensor *) * (size_t)(n > 0 ? n : 1));\n"
                 "  if (items) m = ("
               : "  n = (");
        fnptr_cast(o);
        p("k->unboxed)(ks");
        for (j = 0; j < o->s.nargs; j++) p(", %s", unbox_expr(&o->s.args[j], j, ub, sizeof ub));
        p(pass ? ", n, items);\n" : ", 0, NULL);\n  if (n < 0) return ct_stack_drop(s, %d), ct_last_error();\n", o->s.nargs);
      }
      p("  ct_stack_drop(s, %d);\n", o->s.nargs);
      p("  if (!items) return ct_fail(CT_ERR_OOM, op->full_name, \"out of memory for %%lld results\", (long long)n);\n");
      p("  if (m != n) {\n    CT_FREE(items);\n    return m < 0 ? ct_last_error() : "
        "ct_fail(CT_ERR_STATE, op->full_name, \"kernel returned %%lld tensors, then %%lld\", (long long)n, (long long)m);\n  }\n");
      p("  return ct__push_list(s, n, items);\n}\n");
      continue;
    }
    if (st && o->s.nrets == 1) p("  ct_tensor *w = a[%d].v.tensor;\n  ct_status r;\n", w);
    else if (st) { /* several written arguments, pushed in order once the kernel returns */
      int first = 1;
      p("  ct_tensor *w[%d] = {", o->s.nrets);
      for (j = 0; j < o->s.nargs; j++)
        if (o->s.args[j].is_write) p("%sa[%d].v.tensor", first ? "" : ", ", j), first = 0;
      p("};\n  ct_status r;\n  int i;\n");
    }
    else p("  ct_tensor *r;\n");
    if (nextra(o)) {
      p("  ct_tensor *x[%d] = {NULL", nextra(o));
      for (j = 1; j < nextra(o); j++) p(", NULL");
      p("};\n  ct_status st;\n");
    }
    p("  (void)op;\n  r = (");
    fnptr_cast(o);
    p("k->unboxed)(ks");
    for (j = 0; j < o->s.nargs; j++) p(", %s", unbox_expr(&o->s.args[j], j, ub, sizeof ub));
    for (j = 1; j <= nextra(o); j++) p(", &x[%d]", j - 1);
    p(");\n  ct_stack_drop(s, %d);\n", o->s.nargs);
    if (st && o->s.nrets == 1) {
      p("  if (r != CT_OK) return r;\n  return ct_stack_push(s, ct_value_tensor(w));\n}\n");
    } else if (st) {
      p("  if (r != CT_OK) return r;\n  for (i = 0; i < %d; i++)\n    if ((r = ct_stack_push(s, ct_value_tensor(w[i]))) != CT_OK) return r;\n"
        "  return CT_OK;\n}\n", o->s.nrets);
    }
    else if (nextra(o)) {
      p("  if (!r) {\n");
      for (j = 1; j <= nextra(o); j++) p("    ct_release(x[%d]);\n", j - 1);
      p("    return ct_last_error();\n  }\n  st = ct__push_owned(s, r);\n");
      for (j = 1; j <= nextra(o); j++) p("  if (st == CT_OK) st = ct__push_owned(s, x[%d]);\n  else ct_release(x[%d]);\n", j - 1, j - 1);
      p("  return st;\n}\n");
    } else
      p("  if (!r) return ct_last_error();\n  return ct__push_owned(s, r);\n}\n");
  }
  p("\n");
  p("/* ---- typed frontends called from boxed values (ct_op.frontend, for opcheck): one function per public\n"
    " * C signature, given the op's frontend (ct_op.frontend_fn) ---- */\n");
  for (i = 0; i < nops; i++) {
    op *o = &ops[i];
    char ub[96];
    int pass, first = 1, f;
    if (returns_list(o)) continue; /* no single result to compare: opcheck skips the frontend */
    frontend_shape(o, fe_key[i], sizeof fe_key[i]);
    for (f = 0; f < i && (returns_list(&ops[f]) || strcmp(fe_key[f], fe_key[i])); f++) {
    }
    fe_index[i] = f < i ? fe_index[f] : nfe++;
    if (f < i) continue;
    p("/* %s */\nstatic ct_status ct__frontend_%d(ct_unboxed_fn fn, const ct_value *a, ct_tensor **r) {\n", fe_key[i], fe_index[i]);
    p(returns_status(o) ? "  ct_status st = ((ct_status (*)(" : "  *r = ((ct_tensor *(*)(");
    for (pass = 0; pass < 2; pass++) /* the public parameter types: written arguments first */
      for (j = 0; j < o->s.nargs; j++) {
        const ct_arg *a = &o->s.args[j];
        if ((pass == 0) != is_out_arg(o, j)) continue;
        p("%s", first ? "" : ", ");
        first = 0;
        if (a->type == CT_TYPE_INT_LIST) p("int, const int64_t *");
        else if (a->type == CT_TYPE_FLOAT_LIST) p("int, const double *");
        else if (a->type == CT_TYPE_TENSOR_LIST) p("int, ct_tensor *const *");
        else p("%s", kernel_ctype(a));
      }
    for (j = 1; j <= nextra(o); j++) p("%sct_tensor **", first ? "" : ", "), first = 0;
    if (first) p("void");
    p("))fn)(");
    first = 1;
    for (pass = 0; pass < 2; pass++)
      for (j = 0; j < o->s.nargs; j++) {
        const ct_arg *a = &o->s.args[j];
        if ((pass == 0) != is_out_arg(o, j)) continue;
        p("%s", first ? "" : ", ");
        first = 0;
        if (a->type == CT_TYPE_INT_LIST)
          p("a[%d].tag == CT_VALUE_NONE ? 0 : (int)ct__value_int_list((ct_value *)&a[%d]).n, a[%d].tag == CT_VALUE_NONE ? NULL : "
            "ct__value_int_list((ct_value *)&a[%d]).data", j, j, j, j);
        else if (a->type == CT_TYPE_TENSOR_LIST) p("(int)a[%d].v.tensors.n, a[%d].v.tensors.data", j, j);
        else if (a->type == CT_TYPE_FLOAT_LIST)
          p("a[%d].tag == CT_VALUE_NONE ? 0 : (int)a[%d].v.floats.n, a[%d].tag == CT_VALUE_NONE ? NULL : a[%d].v.floats.data", j, j, j, j);
        else p("%s", unbox_expr(a, j, ub, sizeof ub));
      }
    for (j = 1; j <= nextra(o); j++) p("%s(ct_tensor **)NULL", first ? "" : ", "), first = 0; /* the first result only */
    if (returns_status(o)) {
      int w = -1;
      for (j = 0; j < o->s.nargs; j++)
        if (o->s.args[j].is_write && w < 0) w = j;
      p(");\n  *r = st == CT_OK ? a[%d].v.tensor : NULL;\n  return st;\n}\n", w);
    } else {
      p(");\n  return *r ? CT_OK : ct_last_error();\n}\n");
    }
  }
  gen_structured_glue();
  /* one definition record per op (ct__op_def, dispatch.h), each reached from its op's dispatch
   * function alone, and the index of them all (ct__materialize_all, the only reader) */
  p("/* ---- ops, in spec order: each op's definition record (ct__op_def, dispatch.h): its pre-parsed\n"
    " * schema (arguments then returns), its kernels (key, function, where it comes from), its\n"
    " * signature's adapter, its boxed frontend, device rule and dynamic output shape ---- */\n");
  for (i = 0; i < nops; i++) {
    op *o = &ops[i];
    const ct_schema *sc = &o->s;
    char id[96], exn[96];
    int nk = 0, so, ss, an[CT_MAX_ARGS + CT_MAX_RETURNS] = {0}, ad[CT_MAX_ARGS + CT_MAX_RETURNS] = {0}; /* (zeroed: clang-analyzer) */
    /* the op's strings, one block: name, overload, signature, then each argument's name and
     * default once (offsets from the block's start) */
    op_strs_reset();
    op_str(sc->name);
    so = op_str(sc->overload);
    ss = op_str(sc->signature);
    for (k = 0; k < sc->nargs + sc->nrets; k++) {
      const ct_arg *a = k < sc->nargs ? &sc->args[k] : &sc->rets[k - sc->nargs];
      an[k] = op_str(a->name);
      ad[k] = op_str(a->default_value);
    }
    p("/* %s */\nstatic const char ct__strs_%s[] =", o->full, o->handle);
    for (k = 0; k < nopstrs; k++) { /* ("\0" a literal of its own: before a digit it would read as octal) */
      p("%s", k % 6 ? " " : "\n    ");
      if (opstrs[k][0] || k == nopstrs - 1) c_string(opstrs[k]);
      if (k < nopstrs - 1) p("%s\"\\0\"", opstrs[k][0] ? " " : "");
    }
    p(";\nstatic const ct__arg_def ct__args_%s[] = {", o->handle);
    for (k = 0; k < sc->nargs + sc->nrets; k++) {
      const ct_arg *a = k < sc->nargs ? &sc->args[k] : &sc->rets[k - sc->nargs];
      p("%s{%d, %d, %d, %d, %d, %d}", k ? ", " : "", an[k], ad[k], (int)a->type,
        (a->optional ? 1 : 0) | (a->is_write ? 2 : 0) | (a->kwarg_only ? 4 : 0), (int)a->alias, a->list_size);
    }
    if (!k) p("{0, 0, 0, 0, 0, 0}");
    p("};\nstatic const ct__kernel_def ct__kernels_%s[] = {", o->handle);
    for (k = 0; k < o->nkernels; k++) {
      char names[8][48];
      int n;
      key_list(o->kernels[k].keys, names, (int)(sizeof names / sizeof names[0]), &n);
      for (j = 0; j < n; j++)
        if (strncmp(names[j], "CT__ENGINE_", 11))
          p("\n    {CT_FN(%s), %s, %s},", o->kernels[k].fn, names[j],
            strstr(names[j], "COMPOSITE") ? "CT__SOURCE_COMPOSITE" : o->st ? "CT__SOURCE_STRUCTURED" : "CT__SOURCE_REFERENCE"), nk++;
    }
    if (is_factory(o)) p("\n    {CT_FN(ct__backend_select_%s), CT_KEY_BACKEND_SELECT, CT__SOURCE_BACKEND_SELECT},", o->handle), nk++;
    if (!nk) die(o->file, o->line, "%s: no kernel but an autograd one", o->full); /* (the array is never empty) */
    if (!o->cia && !is_factory(o)) p("\n    CT__AUTOGRAD_KERNEL(ct__autograd_%s)", o->handle); /* (none with CT_NO_AUTOGRAD) */
    sig_ident(sc->signature, id);
    p("};\nstatic const ct__op_def *ct__def_%s(void) {\n  static const ct__op_def d = {&ct__op.%s, %d, {ct__strs_%s, ct__args_%s, %d, %d, %d, %d},\n"
      "    ct__adapt_%s, ", o->handle, o->handle, i, o->handle, o->handle, so, ss, sc->nargs, sc->nrets, id);
    if (returns_list(o)) p("NULL, NULL");
    else {
      ex_name(o, exn, sizeof exn);
      p("ct__frontend_%d, CT_FN(ct_%s)", fe_index[i], has_ex(o) ? exn : o->cname);
    }
    p(", ct__kernels_%s, (unsigned char)(sizeof ct__kernels_%s / sizeof ct__kernels_%s[0]), %d, %d};\n  return &d;\n}\n",
      o->handle, o->handle, o->handle, o->device_rule, o->dynamic_shape);
  }
  /* CT_NO_AUTOGRAD: the records hold no autograd kernel; the kernels still compile (warning-free)
   * and reach the linker from one function nothing calls, so it drops them */
  p("#ifdef CT_NO_AUTOGRAD\n/* An inference-only build (CT_NO_AUTOGRAD, init.h) links no autograd kernel: they are\n"
    " * compiled and referenced from this function alone, which nothing calls. */\n"
    "CTDEF ct_unboxed_fn ct__unlinked_autograd_kernel(int i);\n"
    "CTDEF ct_unboxed_fn ct__unlinked_autograd_kernel(int i) {\n  static const ct_unboxed_fn k[] = {");
  for (i = 0, k = 0; i < nops; i++)
    if (!ops[i].cia && !is_factory(&ops[i])) p("%s\n      CT_FN(ct__autograd_%s)", k++ ? "," : "", ops[i].handle);
  p("};\n  return i >= 0 && i < (int)(sizeof k / sizeof k[0]) ? k[i] : NULL;\n}\n#endif\n");
  p("\n/* ---- every op's record, in spec order: read by ct__materialize_all alone ---- */\n"
    "static const ct__op_def *(*const ct__generated_ops[CT__NUM_BUILTIN_OPS])(void) = {\n");
  for (i = 0; i < nops; i++) p("    ct__def_%s,\n", ops[i].handle);
  p("};\n\n");
  p("/* ---- the engines' kernels: registered at the backend key of every device type that sets a\n"
    " * pointwise loop (ct_set_pointwise_loop; spec key Pointwise) or a reduction loop\n"
    " * (ct_set_reduction_loop; spec key Reduction) ---- */\n");
  p("static const struct {\n  ct_op **op;\n  ct_unboxed_fn fn;\n  int engine;\n} ct__generated_engine_kernels[] = {\n");
  for (i = 0; i < nops; i++) {
    op *o = &ops[i];
    for (k = 0; k < o->nkernels; k++) {
      char names[8][48];
      int n;
      key_list(o->kernels[k].keys, names, (int)(sizeof names / sizeof names[0]), &n);
      for (j = 0; j < n; j++)
        if (!strncmp(names[j], "CT__ENGINE_", 11)) p("    {&ct__op.%s, CT_FN(%s), %s},\n", o->handle, o->kernels[k].fn, names[j]);
    }
  }
  p("};\n\nCT_EXTERN_C_END\n#endif /* CT__GENERATED_REGISTRATION_IMPL */\n");
  fclose(out);
}

/* ================= docs/ops.md ================= */
/* Text inside a code span in a table cell: only '|' needs escaping there
 * (GitHub's tables split cells first); any other backslash would show. */
static void md_escape(const char *s) {
  for (; *s; s++) {
    if (*s == '|') p("\\|");
    else fputc(*s, out);
  }
}
/* A frontend's C prototype, as functions.h declares it (less CTDEF). */
static void md_prototype(const op *o, int ex) {
  char exn[96];
  ex_name(o, exn, sizeof exn);
  p("`%sct_%s(", ret_ctype(o), ex ? exn : o->cname);
  public_params(o, ex);
  p(");`");
}
static void gen_docs(void) {
  int i, j, k;
  out = open_out("docs/ops.md");
  p("# ctorch operator reference\n\n");
  p("Generated by `gen/ctgen.c` from `gen/ops.spec` and `gen/derivatives.spec` (`make gen`); do not edit.\n\n");
  p("Every op is dispatched: the C functions below compute the call's key set and pick the kernel from the op's table "
    "(`ct_op_dump(ct_op_find(\"name\"), ...)` prints it). Functional forms return a new tensor or NULL; in-place (`_`) "
    "and out= forms return `ct_status`. `_ex` forms take every schema argument; the short forms use the schema's "
    "defaults. Lists are passed as (length, pointer) pairs.\n\n");
  p("Each row is one schema (in-place and out= variants are schemas of their own) with the C prototypes of its "
    "frontends, exactly as `ctorch/generated/functions.h` declares them (there each starts with `CTDEF`: `extern`, or "
    "`static` under `CT_STATIC`).\n\n");
  p("%d schemas.\n\n", nops);
  p("| C prototype | schema | kernels | derivative |\n|---|---|---|---|\n");
  for (i = 0; i < nops; i++) {
    op *o = &ops[i];
    p("| ");
    md_prototype(o, 0);
    if (has_ex(o)) {
      p("<br>");
      md_prototype(o, 1);
    }
    p(" | `");
    md_escape(o->text);
    p("` | ");
    for (k = 0; k < o->nkernels; k++) p("%s%s", k ? "; " : "", o->kernels[k].keys);
    p(" | ");
    if (o->cia) p("from the ops it calls");
    else if (o->kind == K_OUT) p("not differentiable (out=)");
    else if (!o->d) p("not implemented");
    else if (o->d->nondiff_output) p("output not differentiable");
    else
      for (j = 0; j < o->d->nformulas; j++) {
        p("%s%s: `", j ? "<br>" : "", o->d->arg[j]);
        md_escape(o->d->formula[j]);
        p("`");
      }
    p(" |\n");
  }
  fclose(out);
}

/* ================= docs/coverage.md: per PyTorch op, its schemas, derivative and backends ================= */
static int keys_have(const op *o, const char *key) {
  int k;
  for (k = 0; k < o->nkernels; k++) {
    const char *s = o->kernels[k].keys;
    size_t n = strlen(key);
    for (; (s = strstr(s, key)) != NULL; s += n)
      if ((s == o->kernels[k].keys || s[-1] == ' ') && (s[n] == 0 || s[n] == ' ')) return 1;
  }
  return 0;
}
/* The aten op a schema belongs to: its name less the overload and an in-place '_' (add_.Tensor -> add). */
static void base_name(const op *o, char *buf, size_t cap) {
  size_t n = strlen(o->s.name);
  int j;
  if (o->kind == K_INPLACE && n > 1 && o->s.name[n - 1] == '_') /* (copy_, uniform_: no functional op, the name stays) */
    for (j = 0; j < nops; j++)
      if (ops[j].kind != K_INPLACE && strlen(ops[j].s.name) == n - 1 && !strncmp(ops[j].s.name, o->s.name, n - 1)) {
        n--;
        break;
      }
  snprintf(buf, cap, "%.*s", (int)n, o->s.name);
}
/* The kernels the separately compiled backends register (CT_BACKEND_KERNEL(handle, CT_KEY_..., fn) in their
 * sources): which handles a backend file names for key. */
static char backend_handles[2][MAX_OPS][96];
static int nbackend_handles[2];
static void read_backend(int which, const char *rel, const char *key) {
  char path[1024], line[1024];
  FILE *f;
  snprintf(path, sizeof path, "%s/%s", root, rel);
  if (!(f = fopen(path, "r"))) die(path, 0, "cannot read (docs/coverage.md lists its kernels)");
  while (fgets(line, sizeof line, f)) {
    char *b = strstr(line, "CT_BACKEND_KERNEL("), *c;
    if (!b || line[0] == '#') continue;
    b += strlen("CT_BACKEND_KERNEL(");
    if (!(c = strchr(b, ',')) || strncmp(c + 1 + strspn(c + 1, " "), key, strlen(key))) continue;
    if (nbackend_handles[which] < MAX_OPS) snprintf(backend_handles[which][nbackend_handles[which]++], 96, "%.*s", (int)(c - b), b);
  }
  fclose(f);
}
static int backend_has(int which, const op *o) {
  int i;
  for (i = 0; i < nbackend_handles[which]; i++)
    if (!strcmp(backend_handles[which][i], o->handle)) return 1;
  return 0;
}
static const char *cov_backend(const op *o, int cuda) {
  if (o->cia) return "composite";
  if (cuda && backend_has(1, o)) return "native (cuBLAS / CUDA)";
  if (!cuda && backend_has(0, o)) return "native; BLIS";
  if (keys_have(o, "CompositeExplicitAutograd")) return "composite (explicit)";
  if (!cuda) return keys_have(o, "CPU") ? "native" : "-";
  if (keys_have(o, "CUDA")) return "native";
  if (keys_have(o, "Pointwise") || keys_have(o, "Reduction") || keys_have(o, "Index") || keys_have(o, "Random")) return "engine";
  return "CPU fallback";
}
static const char *cov_derivative(const op *o) {
  int j;
  if (o->cia) return "composite";
  if (o->kind == K_OUT) return "(out=)";
  if (!o->d) return "none";
  if (o->d->nondiff_output) return "not differentiable";
  for (j = 0; j < o->d->nformulas; j++)
    if (!strcmp(o->d->formula[j], "not_implemented")) return "partly not implemented";
  return "formula";
}
static void gen_coverage(void) {
  int i, j, ngroups = 0;
  char name[96], other[96];
  static char done[MAX_OPS];
  memset(done, 0, sizeof done);
  read_backend(0, "backends/cpu_blis/cpu_blis.c", "CT_KEY_CPU");
  read_backend(1, "backends/cuda/cuda_device.c", "CT_KEY_CUDA");
  out = open_out("docs/coverage.md");
  p("# ctorch operator coverage\n\n");
  p("Generated by `gen/ctgen.c` from `gen/ops.spec` and `gen/derivatives.spec` (`make gen`); do not edit. "
    "The schemas with their C prototypes and formulas: [ops.md](ops.md).\n\n");
  p("One row per PyTorch (aten) op: its overloads as ctorch registers them (aten's names), "
    "how its gradient comes (**formula**: an entry of gen/derivatives.spec, so double backward works; **composite**: "
    "recorded through the ops it calls; **none**: not differentiable, as in PyTorch), and how each backend runs it:\n\n"
    "- **native**: a kernel of the backend itself (**BLIS**: the optional BLIS backend, backends/cpu_blis, replaces it; "
    "**cuBLAS / CUDA**: registered by backends/cuda);\n"
    "- **engine**: a kernel of the pointwise, reduction, index or random engine, which runs on every device that sets "
    "that engine's loop (the CUDA backend sets all four; functions its loop does not know run through host staging);\n"
    "- **composite**: one kernel for every backend, written with other ops;\n"
    "- **CPU fallback**: the device's tensors are copied to the host, the CPU kernel runs, the results come back;\n"
    "- **Meta**: shapes and dtypes without data (`refused` for ops whose result shape depends on the data).\n\n");
  p("| PyTorch op | overloads | derivative | CPU | CUDA | Meta |\n|---|---|---|---|---|---|\n");
  for (i = 0; i < nops; i++) {
    const op *o = &ops[i], *lead = NULL;
    if (done[i]) continue;
    base_name(o, name, sizeof name);
    p("| `%s` | ", name);
    for (j = i; j < nops; j++) {
      base_name(&ops[j], other, sizeof other);
      if (strcmp(name, other)) continue;
      done[j] = 1;
      p("%s`%s`", lead ? ", " : "", ops[j].full);
      if (!lead || (lead->kind != K_FUNCTIONAL && lead->kind != K_VIEW && (ops[j].kind == K_FUNCTIONAL || ops[j].kind == K_VIEW)))
        lead = &ops[j];
    }
    ngroups++;
    if (!lead) lead = o; /* (never: ops[i] itself is one of the group) */
    p(" | %s | %s | %s | %s |\n", cov_derivative(lead), cov_backend(lead, 0), cov_backend(lead, 1),
      lead->dynamic_shape ? "refused" : lead->cia || keys_have(lead, "Meta") || keys_have(lead, "CompositeExplicitAutograd") ? "yes" : "-");
  }
  p("\n%d PyTorch ops, %d schemas.\n", ngroups, nops);
  fclose(out);
}

/* ================= README.md: the op list between the markers ================= */
/* The area of an op: its spec file's name (gen/ops/unary.spec -> unary). */
static void area_of(const op *o, char *buf, size_t cap) {
  const char *b = strrchr(o->file, '/'), *dot;
  b = b ? b + 1 : o->file;
  dot = strchr(b, '.');
  snprintf(buf, cap, "%.*s", (int)(dot ? dot - b : (long)strlen(b)), b);
  if (!strcmp(buf, "ops")) snprintf(buf, cap, "core");
}
/* Listed by name in the README: functional ops and views, and in-place or
 * out= ops that have no functional form (copy_, uniform_, the factories). */
static int listed(const op *o) {
  size_t nl;
  int j;
  if (o->kind == K_FUNCTIONAL || o->kind == K_VIEW) return 1;
  nl = strlen(o->s.name) - (o->kind == K_INPLACE);
  for (j = 0; j < nops; j++)
    if ((ops[j].kind == K_FUNCTIONAL || ops[j].kind == K_VIEW) && strlen(ops[j].s.name) == nl && !strncmp(ops[j].s.name, o->s.name, nl))
      return 0;
  return 1;
}
static void gen_readme_list(void) {
  static const char *begin = "<!-- ops:begin (generated by make gen from gen/ops.spec) -->", *end = "<!-- ops:end -->";
  char path[1024], area[64], prev[64] = "";
  FILE *f;
  long n;
  char *text, *b, *e;
  int i, j, nfun = 0;
  snprintf(path, sizeof path, "%s/README.md", root);
  if (!(f = fopen(path, "rb"))) return; /* a scratch tree without README (the staleness check) */
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  text = (char *)malloc((size_t)n + 1);
  if (!text || fread(text, 1, (size_t)n, f) != (size_t)n) die(path, 0, "cannot read");
  text[n] = 0;
  fclose(f);
  b = strstr(text, begin);
  e = b ? strstr(b, end) : NULL;
  if (!b || !e) die(path, 0, "no op-list markers");
  out = open_out("README.md");
  fwrite(text, 1, (size_t)(b - text) + strlen(begin), out);
  for (i = 0; i < nops; i++) nfun += ops[i].kind == K_FUNCTIONAL || ops[i].kind == K_VIEW;
  p("\n%d schemas (%d functional); per op: overloads, then `_` (in-place) and `out` variants.\n", nops, nfun);
  for (i = 0; i < nops; i++) {
    const op *o = &ops[i];
    int inplace = 0, outv = 0, first = 1;
    if (!listed(o)) continue;
    for (j = 0; j < i; j++) /* each name once, at its first listed overload */
      if (listed(&ops[j]) && !strcmp(ops[j].s.name, o->s.name)) break;
    if (j < i) continue;
    area_of(o, area, sizeof area);
    if (strcmp(area, prev)) p("\n- **%s**:", area), strcpy(prev, area);
    else p(",");
    p(" `%s`", o->s.name);
    for (j = 0; j < nops; j++) {
      const op *v = &ops[j];
      size_t nl = strlen(o->s.name);
      if (listed(v) && !strcmp(v->s.name, o->s.name) && v->s.overload[0])
        p("%s%s", first ? " (" : " ", v->s.overload), first = 0;
      if (v->kind == K_INPLACE && !strncmp(v->s.name, o->s.name, nl) && !strcmp(v->s.name + nl, "_")) inplace = 1;
      if (v->kind == K_OUT && !strcmp(v->s.name, o->s.name)) outv = 1;
    }
    if (!first) p(")");
    if (inplace || outv) p(" [%s%s%s]", inplace ? "_" : "", inplace && outv ? " " : "", outv ? "out" : "");
  }
  p("\n");
  fputs(e, out);
  fclose(out);
  free(text);
}

/* Structured families (ctorch/ops/structured.h): the out= op names the meta
 * step and the CPU's impl step; it and its delegates (functional, in-place)
 * get generated glue at CPU (the impl of the output's device type: the
 * CPU's, or one a backend sets with ct_set_structured_impl) and at Meta
 * (the meta step alone). */
static void link_structured(void) {
  int i, j, k, pass;
  for (pass = 0; pass < 2; pass++) /* the out= ops first: their delegates take their impls */
  for (i = 0; i < nops; i++) {
    op *o = &ops[i], *t = NULL;
    if (o->meta[0] && pass == 0) {
      if (o->s.nargs && o->s.args[0].is_write) /* (an op without an out= form is a family of one) */
        die(o->file, o->line, "%s: structured: goes on the out= op of the family", o->full);
      if (returns_list(o) || (!returns_status(o) && o->s.rets[0].alias)) die(o->file, o->line, "%s: structured ops return new tensors", o->full);
      if (o->delegate[0]) die(o->file, o->line, "%s: structured and structured_delegate", o->full);
      if (o->nkernels != 1 || strncmp(o->kernels[0].keys, "CPU", 3) ||
          (o->kernels[0].keys[3] && strcmp(o->kernels[0].keys + 3, " Pointwise") && strcmp(o->kernels[0].keys + 3, " Reduction") &&
           strcmp(o->kernels[0].keys + 3, " Index") && strcmp(o->kernels[0].keys + 3, " Random")))
        die(o->file, o->line, "%s: a structured op has one kernel: line, `CPU = impl` (other devices: ct_set_structured_impl), or "
            "`CPU ENGINE = impl` for an impl made of one engine's calls (it runs on every device type with that engine's loop)", o->full);
      t = o;
      o->impls[0] = o->kernels[0];
      o->nimpls = 1;
    } else if (o->delegate[0] && pass == 1) {
      for (j = 0; j < nops; j++)
        if (!strcmp(ops[j].full, o->delegate)) t = &ops[j];
      if (!t || !t->meta[0]) die(o->file, o->line, "%s: structured_delegate: '%s' is not a structured op", o->full, o->delegate);
      if (o->nkernels) die(o->file, o->line, "%s: a structured_delegate takes its kernels from %s", o->full, t->full);
      for (j = 0, k = 0; j < t->s.nargs; j++) { /* the delegate's arguments are the out= op's inputs, in order */
        if (t->s.args[j].is_write) continue;
        if (k >= o->s.nargs || strcmp(o->s.args[k].name, t->s.args[j].name) || o->s.args[k].type != t->s.args[j].type)
          die(o->file, o->line, "%s: arguments differ from %s's inputs", o->full, t->full);
        k++;
      }
      if (k != o->s.nargs) die(o->file, o->line, "%s: arguments differ from %s's inputs", o->full, t->full);
    } else continue;
    o->st = t;
    o->nkernels = 2;
    snprintf(o->kernels[0].keys, sizeof o->kernels[0].keys, "%s", t->impls[0].keys); /* CPU, and an engine's devices */
    snprintf(o->kernels[0].fn, sizeof o->kernels[0].fn, "ct__st_%.80s", o->handle);
    snprintf(o->kernels[1].keys, sizeof o->kernels[1].keys, "Meta");
    snprintf(o->kernels[1].fn, sizeof o->kernels[1].fn, "ct__st_%.80s_meta", o->handle);
  }
}

static void link_ops(void) {
  int i, j;
  link_structured();
  for (i = 0; i < nops; i++) {
    op *o = &ops[i];
    int nw = 0;
    if (!o->cname[0]) die(o->file, o->line, "%s: missing c:", o->full);
    if (!o->nkernels) die(o->file, o->line, "%s: no kernel", o->full);
    if (o->s.nrets < 1) die(o->file, o->line, "%s: ops must return a tensor", o->full);
    for (j = 0; j < o->s.nrets; j++)
      if (o->s.rets[j].type != CT_TYPE_TENSOR && !(o->s.nrets == 1 && o->s.rets[j].type == CT_TYPE_TENSOR_LIST))
        die(o->file, o->line, "%s: ops return Tensor, (Tensor, ...) or Tensor[]", o->full);
    for (j = 0; j < o->s.nargs; j++) nw += o->s.args[j].is_write;
    if (nw && !o->s.rets[0].is_write) die(o->file, o->line, "%s: a written argument must be returned", o->full);
    for (j = 1; j < o->s.nrets; j++)
      if (o->s.rets[j].is_write != o->s.rets[0].is_write)
        die(o->file, o->line, "%s: a tuple returns written arguments only, or none", o->full);
    if (nw && nw != o->s.nrets) die(o->file, o->line, "%s: each written argument is returned once", o->full);
    if (returns_list(o) && !o->cia) die(o->file, o->line, "%s: Tensor[] returns need CompositeImplicitAutograd", o->full);
    o->kind = o->s.args[0].is_write && o->s.nargs && nw ? K_INPLACE
              : nw                                       ? K_OUT
              : o->s.rets[0].alias                       ? K_VIEW
                                                         : K_FUNCTIONAL;
    for (j = 0; j < i; j++)
      if (!strcmp(ops[j].full, o->full) || !strcmp(ops[j].cname, o->cname))
        die(o->file, o->line, "%s: duplicate op or C name", o->full);
    for (j = 0; j < nderivs; j++)
      if (!strcmp(derivs[j].name, o->full)) o->d = &derivs[j];
    if (!o->d && o->kind == K_INPLACE) { /* add_.Tensor uses add.Tensor's formulas: the functional op */
      size_t n = strlen(o->s.name);         /* of the same name whose arguments match (pow_.Scalar is */
      int k;                                /* pow.Tensor_Scalar's in-place form, not pow.Scalar's) */
      for (k = 0; k < nops && !o->d && o->s.name[n - 1] == '_'; k++) {
        const op *f = &ops[k];
        int a, w = 0;
        if (strlen(f->s.name) != n - 1 || strncmp(f->s.name, o->s.name, n - 1) || f->s.nargs != o->s.nargs) continue;
        for (a = 0; a < f->s.nargs; a++) {
          const ct_arg *x = &f->s.args[a], *y = &o->s.args[a];
          w |= x->is_write;
          if (x->type != y->type || x->optional != y->optional || strcmp(x->name, y->name)) break;
        }
        if (a < f->s.nargs || w) continue;
        for (j = 0; j < nderivs; j++)
          if (!strcmp(derivs[j].name, f->full)) o->d = &derivs[j];
      }
    }
    if (o->d && o->cia) die(o->d->file, o->d->line, "%s is CompositeImplicitAutograd: no formula", o->full);
  }
  for (j = 0; j < nderivs; j++) {
    int found = 0;
    for (i = 0; i < nops; i++) found |= !strcmp(ops[i].full, derivs[j].name);
    if (!found) die(derivs[j].file, derivs[j].line, "no op '%s' in gen/ops.spec", derivs[j].name);
  }
}

/* Does the C parameter list `params` have a parameter named `name`? */
static int has_param(const char *params, const char *name) {
  size_t n = strlen(name);
  const char *q = params;
  while ((q = strstr(q, name)) != NULL) {
    int before = q > params && (q[-1] == '*' || q[-1] == ' ');
    if (before && (q[n] == ',' || q[n] == '\0')) return 1;
    q += n;
  }
  return 0;
}
/* The public parameter list of a frontend form, as generated (ex: the _ex form). */
static void frontend_params(const op *o, int ex, char *buf, size_t cap) {
  FILE *saved = out, *f = tmpfile();
  size_t n;
  if (!f) die(o->file, o->line, "tmpfile failed");
  out = f;
  public_params(o, ex);
  out = saved;
  rewind(f);
  n = fread(buf, 1, cap - 1, f);
  buf[n] = '\0';
  fclose(f);
  if (n >= cap - 1) die(o->file, o->line, "%s: parameter list too long", o->full);
}
/* Every frontend can be called: a `short:` list names only arguments of the
 * schema and leaves out no written argument (out=, in-place self) and no
 * argument without a default; the short form and the _ex form of every op
 * take every written argument, and the short form every argument without a
 * default (an out= frontend without its out can only fail). */
static void check_frontends(void) {
  int i, j, ex;
  for (i = 0; i < nops; i++) {
    const op *o = &ops[i];
    char params[2048];
    if (o->has_short) {
      char list[256], *tok;
      strcpy(list, o->shortargs);
      for (tok = strtok(list, ", "); tok; tok = strtok(NULL, ", ")) {
        for (j = 0; j < o->s.nargs && strcmp(o->s.args[j].name, tok); j++) {
        }
        if (j == o->s.nargs) die(o->file, o->line, "%s: short: names '%s', which is not an argument", o->full, tok);
      }
      for (j = 0; j < o->s.nargs; j++) {
        const ct_arg *a = &o->s.args[j];
        if ((a->is_write || (!a->default_value[0] && a->type != CT_TYPE_BOOL)) && !in_short_list(o, a->name))
          die(o->file, o->line, "%s: short: leaves out '%s', which %s", o->full, a->name,
              a->is_write ? "is written (the form could only fail)" : "has no default (only a bool may be left out: False)");
      }
    }
    for (ex = 0; ex <= has_ex(o); ex++) {
      frontend_params(o, ex, params, sizeof params);
      for (j = 0; j < o->s.nargs; j++) {
        const ct_arg *a = &o->s.args[j];
        if ((ex || a->is_write || (!a->default_value[0] && a->type != CT_TYPE_BOOL)) && !has_param(params, a->name))
          die(o->file, o->line, "%s: ct_%s%s(%s) does not take argument '%s'", o->full, o->cname, ex ? " (_ex)" : "", params,
              a->name);
      }
    }
  }
}

int main(int argc, char **argv) {
  root = argc > 1 ? argv[1] : ".";
  read_ops(gen_path("ops.spec"));
  read_derivs(gen_path("derivatives.spec"));
  link_ops();
  check_frontends();
  gen_functions();
  gen_autograd();
  gen_registration();
  gen_docs();
  gen_coverage();
  gen_readme_list();
  fprintf(stderr, "ctgen: %d ops, %d derivative entries\n", nops, nderivs);
  return 0;
}
