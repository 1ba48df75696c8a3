/* fuzz/schema.c - the schema-parser fuzzer (issue 12, "Fuzzers").
 *
 * The input bytes (up to the first NUL) are a schema string. It goes to
 * ct_schema_parse (ctorch/schema.h) and to ct_def. The rules:
 *  - a refusal is CT_ERR_SCHEMA with a message; no crash, no UB;
 *  - anything accepted is internally consistent: nargs in [0, CT_MAX_ARGS],
 *    nrets in [0, CT_MAX_RETURNS], every name non-empty and NUL-terminated
 *    inside its array, types valid, list sizes >= 0, alias letters a-z with
 *    `!` only on tensors, argument names unique, keyword-only arguments
 *    last, and the C signature code equal to one derived here from the
 *    arguments;
 *  - it round-trips: printed back with the printer below and parsed again,
 *    it gives the same ct_schema, byte for byte;
 *  - ct_def agrees with the parser (fails with CT_ERR_SCHEMA exactly when
 *    the parser does; otherwise defines the op or refuses a duplicate with
 *    CT_ERR_REGISTRATION); a defined op is found by ct_op_find under its
 *    full name with the parsed schema, refuses a second ct_def, takes a
 *    boxed kernel at CPU, and a boxed call with values of the schema's
 *    types either succeeds (leaving one value per return) or fails with a
 *    message. ct_def registrations are permanent, so at most FZ_MAX_DEFS
 *    ops are defined per process (after that only the parser runs).
 *  - PyTorch's rules for op names (no empty namespace or name) and default
 *    values (valid for their type); FZ_SCHEMA_STRICT=0 turns them off.
 * A broken rule aborts with a "FINDING:" line.
 */
#include "fuzz_common.h"
#include "ctorch.h" /* the implementation is fuzz/ctorch_impl.c */

#define FZ_MAX_DEFS 20000

static int ndefs;

static void finding(const char *what, const char *text) {
  char key[256];
  fprintf(stderr, "FINDING: %s (schema '%s'; last error: %s)\n", what, text, ct_last_error_message());
  snprintf(key, sizeof key, "FINDING: %s", what);
  fz_triage_save(key);
  if (!FZ_TRIAGE_CONTINUE) abort();
}

static int terminated(const char *s, size_t cap) { return memchr(s, '\0', cap) != NULL; }

static const char *type_word(ct_type t) {
  switch (t) {
  case CT_TYPE_TENSOR:
  case CT_TYPE_TENSOR_LIST: return "Tensor";
  case CT_TYPE_INT:
  case CT_TYPE_INT_LIST: return "int";
  case CT_TYPE_FLOAT:
  case CT_TYPE_FLOAT_LIST: return "float";
  case CT_TYPE_BOOL: return "bool";
  case CT_TYPE_SCALAR: return "Scalar";
  case CT_TYPE_SCALAR_TYPE: return "ScalarType";
  case CT_TYPE_STR: return "str";
  case CT_TYPE_GENERATOR: return "Generator";
  case CT_TYPE_DEVICE: return "Device";
  }
  return NULL;
}
/* the C signature code of an argument, as documented in ctorch/schema.h */
static const char *type_code(const ct_arg *a) {
  switch (a->type) {
  case CT_TYPE_TENSOR: return a->is_write ? "Tw" : a->optional ? "T?" : "T";
  case CT_TYPE_INT: return a->optional ? "i?" : "i";
  case CT_TYPE_FLOAT: return a->optional ? "f?" : "f";
  case CT_TYPE_BOOL: return a->optional ? "b?" : "b";
  case CT_TYPE_SCALAR: return a->optional ? "S?" : "S";
  case CT_TYPE_SCALAR_TYPE: return "D";
  case CT_TYPE_INT_LIST: return "I";
  case CT_TYPE_TENSOR_LIST: return "L";
  case CT_TYPE_STR: return a->optional ? "s?" : "s";
  case CT_TYPE_GENERATOR: return "G";
  case CT_TYPE_DEVICE: return "V";
  case CT_TYPE_FLOAT_LIST: return "F";
  }
  return "?";
}

/* ---- printer: ct_schema back to text ---- */
typedef struct {
  char *p;
  size_t n, cap;
} sbuf;
static void put(sbuf *b, const char *s) {
  size_t k = strlen(s);
  if (b->n + k + 1 > b->cap) k = b->cap - b->n - 1;
  memcpy(b->p + b->n, s, k);
  b->n += k;
  b->p[b->n] = '\0';
}
static void put_arg(sbuf *b, const ct_arg *a, int with_name) {
  char tmp[64];
  put(b, type_word(a->type));
  if (a->alias) {
    snprintf(tmp, sizeof tmp, "(%c%s)", a->alias, a->is_write ? "!" : "");
    put(b, tmp);
  }
  if (a->type == CT_TYPE_INT_LIST || a->type == CT_TYPE_TENSOR_LIST || a->type == CT_TYPE_FLOAT_LIST) {
    if (a->list_size) snprintf(tmp, sizeof tmp, "[%d]", a->list_size);
    else snprintf(tmp, sizeof tmp, "[]");
    put(b, tmp);
  }
  if (a->optional) put(b, "?");
  if (with_name && a->name[0]) {
    put(b, " ");
    put(b, a->name);
  }
  if (a->default_value[0]) {
    put(b, "=");
    put(b, a->default_value);
  }
}
static void print_schema(const ct_schema *s, char *out, size_t cap) {
  sbuf b;
  int i, kw = 0, tuple;
  b.p = out, b.n = 0, b.cap = cap;
  out[0] = '\0';
  put(&b, s->name);
  if (s->overload[0]) put(&b, "."), put(&b, s->overload);
  put(&b, "(");
  for (i = 0; i < s->nargs; i++) {
    if (i) put(&b, ", ");
    if (s->args[i].kwarg_only && !kw) put(&b, "*, "), kw = 1;
    put_arg(&b, &s->args[i], 1);
  }
  put(&b, ") -> ");
  tuple = s->nrets != 1 || s->rets[0].name[0];
  if (tuple) put(&b, "(");
  for (i = 0; i < s->nrets; i++) {
    if (i) put(&b, ", ");
    put_arg(&b, &s->rets[i], 1);
  }
  if (tuple) put(&b, ")");
}

/* ---- equality of two parsed schemas (strings compared as strings: bytes
 * after a terminator, e.g. trimmed spaces of a default, do not count) ---- */
static int arg_equal(const ct_arg *a, const ct_arg *b) {
  return a->type == b->type && a->optional == b->optional && a->is_write == b->is_write && a->alias == b->alias &&
         a->kwarg_only == b->kwarg_only && a->list_size == b->list_size && !strcmp(a->name, b->name) &&
         !strcmp(a->default_value, b->default_value);
}
static int schema_equal(const ct_schema *a, const ct_schema *b) {
  int i;
  if (strcmp(a->name, b->name) || strcmp(a->overload, b->overload) || a->nargs != b->nargs || a->nrets != b->nrets ||
      strcmp(a->signature, b->signature))
    return 0;
  for (i = 0; i < a->nargs; i++)
    if (!arg_equal(&a->args[i], &b->args[i])) return 0;
  for (i = 0; i < a->nrets; i++)
    if (!arg_equal(&a->rets[i], &b->rets[i])) return 0;
  return 1;
}

/* ---- the strict checks (on unless FZ_SCHEMA_STRICT=0): PyTorch's rules for
 * op names and default values ---- */
static int is_int_literal(const char *s) {
  if (*s == '-') s++;
  if (!*s) return 0;
  for (; *s; s++)
    if (*s < '0' || *s > '9') return 0;
  return 1;
}
static int is_float_literal(const char *s) {
  char *end;
  if (!strcmp(s, "inf") || !strcmp(s, "-inf") || !strcmp(s, "nan")) return 1;
  if (!*s || !((*s >= '0' && *s <= '9') || *s == '-' || *s == '.')) return 0;
  strtod(s, &end);
  return *end == '\0';
}
static int valid_default(const ct_arg *a) {
  const char *d = a->default_value;
  if (!d[0]) return 1;
  if (!strcmp(d, "None")) return a->optional;
  switch (a->type) {
  case CT_TYPE_INT: return is_int_literal(d) || !strcmp(d, "Mean") || !strcmp(d, "Sum"); /* reduction=Mean, as PyTorch */
  case CT_TYPE_FLOAT: return is_float_literal(d);
  case CT_TYPE_BOOL: return !strcmp(d, "True") || !strcmp(d, "False");
  case CT_TYPE_SCALAR: return is_float_literal(d) || !strcmp(d, "True") || !strcmp(d, "False");
  case CT_TYPE_INT_LIST: {
    char buf[sizeof a->default_value], *tok, *comma;
    size_t n = strlen(d);
    if (is_int_literal(d)) return 1; /* int[2] stride=1 */
    if (n < 2 || d[0] != '[' || d[n - 1] != ']') return 0;
    memcpy(buf, d + 1, n - 2);
    buf[n - 2] = '\0';
    if (strspn(buf, " \t\n") == n - 2) return 1; /* [] (spaces between tokens, as PyTorch's lexer) */
    for (tok = buf; tok; tok = comma ? comma + 1 : NULL) {
      size_t len;
      if ((comma = strchr(tok, ','))) *comma = '\0';
      tok += strspn(tok, " \t\n");
      for (len = strlen(tok); len && strchr(" \t\n", tok[len - 1]); len--) tok[len - 1] = '\0';
      if (!is_int_literal(tok)) return 0;
    }
    return 1;
  }
  case CT_TYPE_STR: return (d[0] == '"' || d[0] == '\'') && strlen(d) >= 2 && d[strlen(d) - 1] == d[0];
  case CT_TYPE_SCALAR_TYPE: { /* PyTorch's dtype names in schemas (dtype=long) */
    static const char *names[] = {"float", "double", "half", "bfloat16", "long", "int", "uint8", "bool"};
    size_t i;
    for (i = 0; i < sizeof names / sizeof names[0]; i++)
      if (!strcmp(d, names[i])) return 1;
    return 0;
  }
  case CT_TYPE_TENSOR_LIST: /* [] only, spaces allowed (PyTorch parses an empty list of any element type) */
    return strlen(d) >= 2 && d[0] == '[' && d[strlen(d) - 1] == ']' && strspn(d + 1, " \t\n") == strlen(d) - 2;
  default: return 0; /* Tensor, Generator, Device: only None */
  }
}
static void strict_checks(const ct_schema *s, const char *text) {
  int i;
  size_t n = strlen(s->name);
  if (!strncmp(s->name, "::", 2) || (n >= 2 && !strcmp(s->name + n - 2, "::")) || strstr(s->name, "::::"))
    finding("strict: op name with an empty namespace or name accepted", text);
  for (i = 0; i < s->nargs; i++)
    if (!valid_default(&s->args[i])) finding("strict: default value not valid for its type accepted", text);
}

/* ---- consistency of a parsed schema ---- */
static void check_arg(const ct_arg *a, int is_ret, const char *text) {
  if (!terminated(a->name, sizeof a->name)) finding("argument name not NUL-terminated", text);
  if (!terminated(a->default_value, sizeof a->default_value)) finding("default value not NUL-terminated", text);
  if (!is_ret && !a->name[0]) finding("argument without a name", text);
  if (!type_word(a->type)) finding("argument with an invalid type", text);
  if (a->list_size < 0) finding("negative list size", text);
  if (a->list_size && a->type != CT_TYPE_INT_LIST && a->type != CT_TYPE_TENSOR_LIST && a->type != CT_TYPE_FLOAT_LIST) finding("list size on a non-list", text);
  if (a->alias && (a->alias < 'a' || a->alias > 'z')) finding("alias letter outside a-z", text);
  if (a->is_write && !a->alias) finding("written argument without an alias set", text);
  if (a->alias && a->type != CT_TYPE_TENSOR && a->type != CT_TYPE_TENSOR_LIST) finding("alias annotation on a non-tensor", text);
  if (is_ret && a->default_value[0]) finding("return with a default value", text);
}
static void check_schema(const ct_schema *s, const char *text) {
  int i, j, kw = 0;
  char sig[sizeof s->signature];
  size_t len = 0;
  if (s->nargs < 0 || s->nargs > CT_MAX_ARGS) finding("nargs out of range", text);
  if (s->nrets < 0 || s->nrets > CT_MAX_RETURNS) finding("nrets out of range", text);
  if (!terminated(s->name, sizeof s->name) || !s->name[0]) finding("empty or unterminated op name", text);
  if (!terminated(s->overload, sizeof s->overload)) finding("unterminated overload name", text);
  if (!terminated(s->signature, sizeof s->signature)) finding("unterminated signature", text);
  for (i = 0; i < s->nargs; i++) {
    check_arg(&s->args[i], 0, text);
    if (kw && !s->args[i].kwarg_only) finding("positional argument after a keyword-only one", text);
    kw |= s->args[i].kwarg_only;
    for (j = 0; j < i; j++)
      if (!strcmp(s->args[i].name, s->args[j].name)) finding("duplicate argument names accepted", text);
  }
  for (i = 0; i < s->nrets; i++) check_arg(&s->rets[i], 1, text);
  /* the signature code, derived here the way ctorch/schema.h documents it */
  sig[0] = '\0';
  for (i = 0; i < s->nargs; i++) {
    int n = snprintf(sig + len, sizeof sig - len, "%s%s", i ? "," : "", type_code(&s->args[i]));
    if (n < 0 || (size_t)n >= sizeof sig - len) break;
    len += (size_t)n;
  }
  for (i = 0; i < s->nrets; i++) {
    int n = snprintf(sig + len, sizeof sig - len, "%s%s", i ? "," : "->", type_code(&s->rets[i]));
    if (n < 0 || (size_t)n >= sizeof sig - len) break;
    len += (size_t)n;
  }
  if (s->nrets == 0 && len + 2 < sizeof sig) memcpy(sig + len, "->", 3);
  if (strcmp(sig, s->signature) != 0) finding("signature code does not match the arguments", text);
}

/* ---- a boxed kernel for defined ops: takes the arguments, returns one value per return ---- */
static ct_tensor *arg_tensor;
static ct_status boxed_kernel(const ct_kernel *self, const ct_op *op, ct_keyset ks, ct_stack *st) {
  int i;
  (void)self;
  (void)ks;
  if (st->size < op->schema.nargs) return ct_fail(CT_ERR_STATE, "fuzz_kernel", "fewer values than arguments");
  ct_stack_drop(st, op->schema.nargs);
  for (i = 0; i < op->schema.nrets; i++) {
    ct_value v = ct_value_none();
    if (op->schema.rets[i].type == CT_TYPE_TENSOR && !op->schema.rets[i].is_write) {
      v = ct_value_tensor(ct_zeros(CT_DIMS(2), CT_F32));
      v.owned = 1;
    }
    if (ct_stack_push(st, v) != CT_OK) {
      ct_value_release(&v);
      return ct_last_error();
    }
  }
  return CT_OK;
}
static ct_value value_for(const ct_arg *a, unsigned variant) {
  static const int64_t ints[4] = {1, 2, 3, 4};
  static const double halves[2] = {0.5, 0.5};
  static ct_tensor *list[2];
  list[0] = list[1] = arg_tensor;
  if (a->optional && (variant & 1)) return ct_value_none();
  switch (a->type) {
  case CT_TYPE_TENSOR: return ct_value_tensor(arg_tensor);
  case CT_TYPE_INT: return ct_value_int(variant & 2 ? -1 : 1);
  case CT_TYPE_FLOAT: return ct_value_double(0.5);
  case CT_TYPE_BOOL: return ct_value_bool(variant & 2);
  case CT_TYPE_SCALAR: return ct_value_scalar(ct_int(1));
  case CT_TYPE_SCALAR_TYPE: return ct_value_dtype(CT_F32);
  case CT_TYPE_INT_LIST: return ct_value_int_list(ints, a->list_size > 0 && a->list_size <= 4 ? a->list_size : 2);
  case CT_TYPE_TENSOR_LIST: return ct_value_tensor_list(list, 2);
  case CT_TYPE_STR: return ct_value_string("x");
  case CT_TYPE_GENERATOR: return ct_value_none();
  case CT_TYPE_DEVICE: return ct_value_device(variant & 2 ? CT_META : CT_CPU);
  case CT_TYPE_FLOAT_LIST: return ct_value_float_list(halves, 2);
  }
  return ct_value_none();
}

static void try_def(const char *text, const ct_schema *parsed, ct_status parse_st) {
  ct_op *op;
  ct_status st;
  if (parse_st == CT_OK && ndefs >= FZ_MAX_DEFS) return;
  ct_clear_error();
  op = ct_def(text);
  if (!op) {
    st = ct_last_error();
    if (!ct_last_error_message()[0]) finding("ct_def failed without a message", text);
    if (parse_st != CT_OK && st != parse_st) finding("ct_def and ct_schema_parse disagree on a malformed schema", text);
    if (parse_st == CT_OK && st == CT_ERR_SCHEMA) finding("ct_def refused a schema the parser accepts", text);
    ct_clear_error();
    return;
  }
  if (parse_st != CT_OK) finding("ct_def accepted a schema the parser refuses", text);
  ndefs++;
  if (!schema_equal(&op->schema, parsed)) finding("ct_def stored another schema than the parser's", text);
  {
    char full[100];
    snprintf(full, sizeof full, "%s%s%s", parsed->name, parsed->overload[0] ? "." : "", parsed->overload);
    if (strcmp(full, op->full_name) != 0) finding("full name is not name.overload", text);
    if (ct_op_find(full) != op) finding("ct_op_find does not find the defined op", text);
    ct_clear_error();
    if (ct_def(text) != NULL || ct_last_error() != CT_ERR_REGISTRATION) finding("a second ct_def was not refused as a duplicate", text);
    ct_clear_error();
    if (ct_impl(full, CT_KEY_CPU, ct_kernel_boxed(boxed_kernel, NULL)) != CT_OK) {
      if (!ct_last_error_message()[0]) finding("ct_impl failed without a message", text);
      ct_clear_error();
      return;
    }
  }
  { /* a boxed call with values of the schema's types */
    ct_value buf[CT_MAX_ARGS + 2];
    ct_stack s;
    int i, base;
    unsigned variant = (unsigned)strlen(text);
    ct_stack_init(&s, buf, CT_MAX_ARGS + 2);
    ct_stack_push(&s, ct_value_int(7)); /* a value below the arguments must survive */
    base = s.size;
    for (i = 0; i < parsed->nargs; i++) ct_stack_push(&s, value_for(&parsed->args[i], variant >> (i % 8)));
    st = ct_call_boxed(op, &s);
    if (st != CT_OK) {
      if (!ct_last_error_message()[0]) finding("boxed call failed without a message", text);
    } else {
      if (s.size != base + parsed->nrets) finding("boxed call left a wrong number of values", text);
      if (s.items[0].tag != CT_VALUE_INT || s.items[0].v.i != 7) finding("boxed call clobbered the value below its arguments", text);
    }
    ct_stack_free(&s);
    ct_clear_error();
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static char text[8192], again[16384];
  static ct_schema s1, s2;
  size_t n = size < sizeof text - 1 ? size : sizeof text - 1;
  ct_status st;
  static int strict = -1;
  fz_triage_begin(data, size);
  if (strict < 0) strict = !getenv("FZ_SCHEMA_STRICT") || atoi(getenv("FZ_SCHEMA_STRICT")) > 0;
  if (!arg_tensor) arg_tensor = ct_zeros(CT_DIMS(2), CT_F32);
  memcpy(text, data, n);
  text[n] = '\0';
  ct_clear_error();
  st = ct_schema_parse(text, &s1);
  if (st != CT_OK) {
    if (st != CT_ERR_SCHEMA) finding("parse failed with another status than CT_ERR_SCHEMA", text);
    if (ct_last_error() != st || !ct_last_error_message()[0]) finding("parse failed without a message", text);
  } else {
    check_schema(&s1, text);
    if (strict) strict_checks(&s1, text);
    print_schema(&s1, again, sizeof again);
    ct_clear_error();
    if (ct_schema_parse(again, &s2) != CT_OK) {
      fprintf(stderr, "printed: %s\n", again);
      finding("printed schema does not parse again", text);
    } else if (!schema_equal(&s1, &s2)) {
      fprintf(stderr, "printed: %s\n", again);
      finding("printed schema parses to another schema (no round trip)", text);
    }
  }
  try_def(text, &s1, st);
  ct_clear_error();
  return 0;
}
