/* ctorch/schema.h - operator schemas in PyTorch's notation, and their parser.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * `add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor`:
 * name, overload, typed arguments (Tensor(a!) written, Tensor(a) aliased,
 * T? optional, int[N] lists, defaults, '*' for keyword-only) and returns.
 * The parser also derives the C signature code ("T,T,S->T") that picks a
 * boxing adapter. It needs nothing but base.h, so gen/ctgen.c parses the
 * spec files with this very code.
 */
#ifndef CT_SCHEMA_H
#define CT_SCHEMA_H

#include "base.h"

CT_EXTERN_C_BEGIN

#define CT_MAX_ARGS 16
#define CT_MAX_RETURNS 4

/* ---- schemas ---- */
typedef enum ct_type {
  CT_TYPE_TENSOR = 1,
  CT_TYPE_INT,
  CT_TYPE_FLOAT,
  CT_TYPE_BOOL,
  CT_TYPE_SCALAR,
  CT_TYPE_SCALAR_TYPE,
  CT_TYPE_INT_LIST,
  CT_TYPE_TENSOR_LIST,
  CT_TYPE_STR,
  CT_TYPE_GENERATOR,
  CT_TYPE_DEVICE,
  CT_TYPE_FLOAT_LIST /* float[] (upsampling's scale_factors); a None default only */
} ct_type;

typedef struct ct_arg {
  ct_type type;
  bool optional;    /* T? : may be None */
  bool is_write;    /* Tensor(a!) : mutated and returned */
  char alias;       /* the alias set letter, 0 if none */
  bool kwarg_only;  /* after the '*' */
  int list_size;    /* int[2] -> 2; 0 if unsized */
  char name[32];
  char default_value[32]; /* text of the default, "" if none */
} ct_arg;

typedef struct ct_schema {
  char name[64];     /* "add" or "myns::op" */
  char overload[32]; /* "Tensor", "" for the default overload */
  int nargs, nrets;
  ct_arg args[CT_MAX_ARGS];
  ct_arg rets[CT_MAX_RETURNS];
  char signature[96]; /* codes of the C signature, e.g. "T,T,S->T": picks the boxing adapter */
} ct_schema;

/* Parse a schema; on failure returns CT_ERR_SCHEMA naming the position. */
CTDEF ct_status ct_schema_parse(const char *text, ct_schema *out);

CT_EXTERN_C_END
#endif /* CT_SCHEMA_H */

/* ==== implementation ==== */
#if defined(CT__IMPLEMENT) && !defined(CT__SCHEMA_IMPL)
#define CT__SCHEMA_IMPL
#include <stdarg.h>
#include <stdio.h>
CT_EXTERN_C_BEGIN

/* ---- schema parser ----
 * A strict parser of PyTorch's schema grammar, as ctorch supports it:
 *   schema   := [ident '::'] ident ['.' ident] '(' [arg {',' arg}] ')' '->' returns
 *   arg      := '*' | type ident ['=' default]      ('*' at most once, followed by arguments)
 *   type     := base ['(' letter ['!'] ')'] ['[' [N] ']'] ['?']
 *   returns  := ret | '(' [ret {',' ret}] ')'        ret := type [ident]
 * base: Tensor int SymInt float bool Scalar ScalarType str Generator Device; lists
 * are int[] and Tensor[], N in 1..CT__MAX_LIST_SIZE; identifiers are
 * [A-Za-z_][A-Za-z0-9_]*. Defaults must parse for their type:
 *   int         -?(0|[1-9][0-9]*) within int64, or Mean / Sum (at::Reduction)
 *   float       an int, a decimal float (1.5, .5, 1., 1e-05) in range, inf, -inf, nan
 *   Scalar      an int or float default, True or False
 *   bool        True or False
 *   str         'text' or "text" (printable, no quotes or backslashes inside)
 *   ScalarType  float double half bfloat16 long int uint8 bool
 *   int[N]      [a, b, ...] with 0 or N ints, or one int (repeated, as PyTorch)
 *   int[]       [a, b, ...];   Tensor[]  []
 *   None        only for optional types (T?), for every type.
 * Errors name the offset and what was expected there. */
#define CT__MAX_LIST_SIZE 64

typedef struct ct__parser {
  const char *text, *p;
  const char *err; /* points at msg once set */
  char msg[200];
} ct__parser;

static int ct__perr(ct__parser *ps, const char *fmt, ...) CT__PRINTF(2, 3);
static int ct__perr(ct__parser *ps, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(ps->msg, sizeof ps->msg, fmt, ap);
  va_end(ap);
  ps->err = ps->msg;
  return 0;
}
static void ct__skip_ws(ct__parser *ps) {
  while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r') ps->p++;
}
static int ct__is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static int ct__is_digit(char c) { return c >= '0' && c <= '9'; }
static int ct__is_ident(char c) { return ct__is_ident_start(c) || ct__is_digit(c); }
/* length of the identifier at s (0: none) */
static size_t ct__ident_len(const char *s) {
  size_t n = 0;
  if (!ct__is_ident_start(*s)) return 0;
  while (ct__is_ident(s[n])) n++;
  return n;
}
/* a printable rendering of the text at p for messages: "'abc'", "end of schema" */
static const char *ct__found(const char *p, char *buf, size_t cap) {
  size_t n = 0;
  if (!*p) return "the end of the schema";
  while (n < 12 && p[n] && p[n] != ',' && p[n] != ')' && p[n] != '(' && p[n] != ' ' && (unsigned char)p[n] >= 0x20 && (unsigned char)p[n] < 0x7f) n++;
  if (!n) {
    if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f) snprintf(buf, cap, "byte 0x%02x", (unsigned)(unsigned char)*p);
    else snprintf(buf, cap, "'%c'", *p);
  } else {
    snprintf(buf, cap, "'%.*s'", (int)n, p);
  }
  return buf;
}
/* an identifier at the current position (after optional whitespace) into out */
static int ct__ident(ct__parser *ps, char *out, size_t cap, const char *what) {
  size_t n;
  char fb[24];
  ct__skip_ws(ps);
  n = ct__ident_len(ps->p);
  if (!n) return ct__perr(ps, "expected %s, found %s", what, ct__found(ps->p, fb, sizeof fb));
  if (n >= cap) return ct__perr(ps, "%s too long (at most %d characters)", what, (int)cap - 1);
  memcpy(out, ps->p, n);
  out[n] = '\0';
  ps->p += n;
  return 1;
}
static int ct__expect(ct__parser *ps, char c, const char *what) {
  char fb[24];
  ct__skip_ws(ps);
  if (*ps->p != c) return ct__perr(ps, "expected %s, found %s", what, ct__found(ps->p, fb, sizeof fb));
  ps->p++;
  return 1;
}

/* The operator name: [namespace::]name[.overload], no spaces inside. */
static int ct__parse_name(ct__parser *ps, ct_schema *out) {
  char first[64];
  ct__skip_ws(ps);
  if (!ct__ident(ps, first, sizeof first, "an operator name")) return 0;
  if (ps->p[0] == ':') {
    char rest[64];
    int n;
    if (ps->p[1] != ':') return ct__perr(ps, "expected '::' after the namespace '%s'", first);
    ps->p += 2;
    if (!ct__ident_len(ps->p)) {
      char fb[24];
      return ct__perr(ps, "expected an operator name after '%s::', found %s", first, ct__found(ps->p, fb, sizeof fb));
    }
    if (!ct__ident(ps, rest, sizeof rest, "an operator name")) return 0;
    n = snprintf(out->name, sizeof out->name, "%s::%s", first, rest);
    if (n < 0 || (size_t)n >= sizeof out->name)
      return ct__perr(ps, "qualified operator name too long (at most %d characters)", (int)sizeof out->name - 1);
    if (ps->p[0] == ':') return ct__perr(ps, "expected one namespace ('ns::name'), found another '::'");
  } else {
    memcpy(out->name, first, strlen(first) + 1);
  }
  if (ps->p[0] == '.') {
    ps->p++;
    if (!ct__ident_len(ps->p)) {
      char fb[24];
      return ct__perr(ps, "expected an overload name after '.', found %s", ct__found(ps->p, fb, sizeof fb));
    }
    if (!ct__ident(ps, out->overload, sizeof out->overload, "an overload name")) return 0;
  }
  return 1;
}

static int ct__parse_type(ct__parser *ps, ct_arg *a) {
  char word[32];
  const char *start;
  size_t n;
  char fb[24];
  ct__skip_ws(ps);
  start = ps->p;
  n = ct__ident_len(ps->p);
  if (!n) return ct__perr(ps, "expected a type, found %s", ct__found(ps->p, fb, sizeof fb));
  if (n >= sizeof word) return ct__perr(ps, "unknown type '%.*s'", (int)(n > 40 ? 40 : n), ps->p);
  memcpy(word, ps->p, n);
  word[n] = '\0';
  if (!strcmp(word, "Tensor")) a->type = CT_TYPE_TENSOR;
  else if (!strcmp(word, "int") || !strcmp(word, "SymInt")) a->type = CT_TYPE_INT;
  else if (!strcmp(word, "float")) a->type = CT_TYPE_FLOAT;
  else if (!strcmp(word, "bool")) a->type = CT_TYPE_BOOL;
  else if (!strcmp(word, "Scalar")) a->type = CT_TYPE_SCALAR;
  else if (!strcmp(word, "ScalarType")) a->type = CT_TYPE_SCALAR_TYPE;
  else if (!strcmp(word, "str")) a->type = CT_TYPE_STR;
  else if (!strcmp(word, "Generator")) a->type = CT_TYPE_GENERATOR;
  else if (!strcmp(word, "Device")) a->type = CT_TYPE_DEVICE;
  else
    return ct__perr(ps, "unknown type '%s' (expected Tensor, int, SymInt, float, bool, Scalar, ScalarType, str, Generator or Device)",
                    word);
  ps->p += n;
  if (*ps->p == '(') { /* alias annotation (a) or (a!) */
    ps->p++;
    if (*ps->p < 'a' || *ps->p > 'z')
      return ct__perr(ps, "expected an alias letter a-z in the annotation, found %s", ct__found(ps->p, fb, sizeof fb));
    a->alias = *ps->p++;
    if (*ps->p == '!') {
      a->is_write = true;
      ps->p++;
    }
    if (*ps->p != ')') return ct__perr(ps, "expected ')' after alias annotation, found %s", ct__found(ps->p, fb, sizeof fb));
    ps->p++;
    if (a->type != CT_TYPE_TENSOR) {
      ps->p = start;
      return ct__perr(ps, "alias annotation on a non-tensor ('%s')", word);
    }
  }
  if (*ps->p == '[') { /* list, optionally sized */
    const char *num = ++ps->p;
    if (*ps->p == '0') return ct__perr(ps, "list size must be in [1, %d]", CT__MAX_LIST_SIZE);
    while (ct__is_digit(*ps->p)) {
      if (a->list_size > CT__MAX_LIST_SIZE) break; /* no int overflow however long the number */
      a->list_size = a->list_size * 10 + (*ps->p++ - '0');
    }
    if (a->list_size > CT__MAX_LIST_SIZE) {
      ps->p = num;
      return ct__perr(ps, "list size must be in [1, %d]", CT__MAX_LIST_SIZE);
    }
    if (*ps->p != ']') return ct__perr(ps, "expected a list size or ']', found %s", ct__found(ps->p, fb, sizeof fb));
    ps->p++;
    if (a->type == CT_TYPE_INT) a->type = CT_TYPE_INT_LIST;
    else if (a->type == CT_TYPE_TENSOR) a->type = CT_TYPE_TENSOR_LIST;
    else if (a->type == CT_TYPE_FLOAT && !a->list_size) a->type = CT_TYPE_FLOAT_LIST;
    else {
      ps->p = start;
      return ct__perr(ps, "only int[], float[] and Tensor[] lists are supported, not %s[%s]", word, a->list_size ? "N" : "");
    }
    if (a->type == CT_TYPE_TENSOR_LIST && a->list_size) {
      ps->p = start;
      return ct__perr(ps, "Tensor lists cannot be sized");
    }
  }
  if (*ps->p == '?') {
    a->optional = true;
    ps->p++;
    if (*ps->p == '[') return ct__perr(ps, "lists of optionals (%s?[]) are not supported", word);
  }
  if (a->is_write && a->optional) {
    ps->p = start;
    return ct__perr(ps, "a written tensor (Tensor(%c!)) cannot be optional", a->alias);
  }
  return 1;
}

/* ---- default values ---- */
/* an integer literal -?(0|[1-9][0-9]*) of n chars within int64; 1 if so, 0 if not one, -1 if out of range */
static int ct__int_literal(const char *s, size_t n, int64_t *v) {
  uint64_t mag = 0, lim;
  size_t i = 0;
  int neg = 0;
  if (i < n && s[i] == '-') neg = 1, i++;
  if (i == n || !ct__is_digit(s[i]) || (s[i] == '0' && n - i > 1)) return 0;
  lim = neg ? (uint64_t)INT64_MAX + 1u : (uint64_t)INT64_MAX;
  for (; i < n; i++) {
    if (!ct__is_digit(s[i])) return 0;
    if (mag > (lim - (uint64_t)(s[i] - '0')) / 10u) {
      for (; i < n; i++)
        if (!ct__is_digit(s[i])) return 0;
      return -1;
    }
    mag = mag * 10u + (uint64_t)(s[i] - '0');
  }
  if (v) *v = neg ? (mag == (uint64_t)INT64_MAX + 1u ? INT64_MIN : -(int64_t)mag) : (int64_t)mag;
  return 1;
}
/* a decimal float literal -?(0|[1-9][0-9]*)[.[0-9]*] | -?.[0-9]+, then [eE][+-]?[0-9]+;
 * 1 if so, 0 if not one, -1 if out of double's range (by its decimal exponent:
 * |x| must be 0 or within about 1e-307 .. 1e307, so no literal rounds to inf or 0) */
static int ct__float_literal(const char *s, size_t n) {
  size_t i = 0, int_digits = 0, frac_zeros = 0;
  long exp10 = 0, e = 0;
  int nonzero = 0, any = 0, eneg = 0, lead = 1;
  if (i < n && s[i] == '-') i++;
  if (i < n && s[i] == '0' && i + 1 < n && ct__is_digit(s[i + 1])) return 0; /* no leading zeros */
  for (; i < n && ct__is_digit(s[i]); i++) {
    any = 1;
    if (s[i] != '0') nonzero = 1;
    if (nonzero) int_digits++;
  }
  if (i < n && s[i] == '.') {
    for (i++; i < n && ct__is_digit(s[i]); i++) {
      any = 1;
      if (s[i] != '0' && !nonzero) nonzero = 1, lead = 0;
      if (!nonzero && lead) frac_zeros++;
    }
  }
  if (!any) return 0;
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    int edigits = 0;
    i++;
    if (i < n && (s[i] == '+' || s[i] == '-')) eneg = s[i] == '-', i++;
    for (; i < n && ct__is_digit(s[i]); i++, edigits++)
      if (e < 100000) e = e * 10 + (s[i] - '0');
    if (!edigits) return 0;
  }
  if (i != n) return 0;
  if (!nonzero) return 1;
  /* the value is d.ddd * 10^exp10 */
  exp10 = (eneg ? -e : e) + (int_digits ? (long)int_digits - 1 : -(long)frac_zeros - 1);
  return exp10 > 307 || exp10 < -307 ? -1 : 1;
}
/* ScalarType default names and their dtypes */
static const char *const ct__schema_dtype_names[] = {"float", "double", "half", "bfloat16", "long", "int", "uint8", "bool"};

/* One default value for argument a, ending at ',' or ')'; stored in a->default_value. */
static int ct__parse_default(ct__parser *ps, ct_arg *a) {
  const char *start, *p;
  size_t n, i;
  char fb[24];
  const char *tname = a->type == CT_TYPE_INT ? "int" : a->type == CT_TYPE_FLOAT ? "float" : a->type == CT_TYPE_BOOL ? "bool"
                    : a->type == CT_TYPE_SCALAR ? "Scalar" : a->type == CT_TYPE_SCALAR_TYPE ? "ScalarType"
                    : a->type == CT_TYPE_STR ? "str" : a->type == CT_TYPE_GENERATOR ? "Generator" : a->type == CT_TYPE_DEVICE ? "Device"
                    : a->type == CT_TYPE_INT_LIST ? "int[]" : a->type == CT_TYPE_TENSOR_LIST ? "Tensor[]" : a->type == CT_TYPE_FLOAT_LIST ? "float[]" : "Tensor";
  ct__skip_ws(ps);
  start = p = ps->p;
  if (*p == '[') { /* a list: [], [a, b, ...] */
    int count = 0;
    p++;
    while (*p == ' ') p++;
    if (a->type != CT_TYPE_INT_LIST && a->type != CT_TYPE_TENSOR_LIST)
      return ct__perr(ps, "a list default for %s argument '%s'", tname, a->name);
    if (*p != ']') {
      for (;;) {
        const char *e = p;
        int r;
        if (a->type == CT_TYPE_TENSOR_LIST) {
          ps->p = p;
          return ct__perr(ps, "a Tensor[] default must be [] (argument '%s')", a->name);
        }
        while (*e == '-' || ct__is_ident(*e) || *e == '.' || *e == '+') e++;
        r = ct__int_literal(p, (size_t)(e - p), NULL);
        if (r <= 0) {
          ps->p = p;
          if (r < 0) return ct__perr(ps, "integer %.*s in the default of '%s' is out of range for int64", (int)(e - p), p, a->name);
          return ct__perr(ps, "expected an integer in the list default of '%s', found %s", a->name, ct__found(p, fb, sizeof fb));
        }
        count++;
        p = e;
        while (*p == ' ') p++;
        if (*p == ']') break;
        if (*p != ',') {
          ps->p = p;
          return ct__perr(ps, "expected ',' or ']' in the list default of '%s', found %s", a->name, ct__found(p, fb, sizeof fb));
        }
        p++;
        while (*p == ' ') p++;
      }
    }
    p++;
    if (a->list_size > 0 && count != 0 && count != a->list_size) {
      ps->p = start;
      return ct__perr(ps, "the default of '%s' has %d values, int[%d] takes %d (or [] or one int)", a->name, count, a->list_size,
                      a->list_size);
    }
  } else if (*p == '\'' || *p == '"') { /* a string */
    char q = *p++;
    while (*p && *p != q) {
      if (*p == '\\' || *p == '\'' || *p == '"' || (unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f) {
        ps->p = p;
        return ct__perr(ps, "unsupported character in the string default of '%s' (printable ASCII without quotes or backslashes)",
                        a->name);
      }
      p++;
    }
    if (!*p) return ct__perr(ps, "unterminated string default for '%s'", a->name);
    p++;
    if (a->type != CT_TYPE_STR) return ct__perr(ps, "a string default for %s argument '%s'", tname, a->name);
  } else { /* a word: number, name */
    while (*p && *p != ',' && *p != ')' && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r' && *p != '[' && *p != ']' &&
           *p != '(')
      p++;
    n = (size_t)(p - start);
    if (!n) return ct__perr(ps, "expected a default value for '%s', found %s", a->name, ct__found(start, fb, sizeof fb));
    if (n == 4 && !memcmp(start, "None", 4)) {
      if (!a->optional) return ct__perr(ps, "None is the default of '%s', whose type %s is not optional (write %s?)", a->name, tname, tname);
    } else {
      int ok = 0, r;
      switch (a->type) {
      case CT_TYPE_INT:
        r = ct__int_literal(start, n, NULL);
        if (r < 0) return ct__perr(ps, "default %.*s of '%s' is out of range for int64", (int)(n > 40 ? 40 : n), start, a->name);
        ok = r > 0 || (n == 4 && !memcmp(start, "Mean", 4)) || (n == 3 && !memcmp(start, "Sum", 3));
        if (!ok)
          return ct__perr(ps, "invalid default %s for int argument '%s': expected an integer (or Mean, Sum)",
                          ct__found(start, fb, sizeof fb), a->name);
        break;
      case CT_TYPE_INT_LIST:
        r = ct__int_literal(start, n, NULL);
        if (r < 0) return ct__perr(ps, "default %.*s of '%s' is out of range for int64", (int)(n > 40 ? 40 : n), start, a->name);
        if (r == 0)
          return ct__perr(ps, "invalid default %s for int[] argument '%s': expected [ints]%s", ct__found(start, fb, sizeof fb),
                          a->name, a->list_size ? " or one int" : "");
        if (!a->list_size)
          return ct__perr(ps, "a single-int default needs a sized list (int[N]) for '%s'; write [%.*s]", a->name,
                          (int)(n > 24 ? 24 : n), start);
        break;
      case CT_TYPE_FLOAT:
      case CT_TYPE_SCALAR:
        r = ct__int_literal(start, n, NULL);
        if (r == 0) r = ct__float_literal(start, n);
        if (r < 0) return ct__perr(ps, "default %.*s of '%s' is out of range", (int)(n > 40 ? 40 : n), start, a->name);
        ok = r > 0 || (n == 3 && (!memcmp(start, "inf", 3) || !memcmp(start, "nan", 3))) || (n == 4 && !memcmp(start, "-inf", 4));
        if (!ok && a->type == CT_TYPE_SCALAR) ok = (n == 4 && !memcmp(start, "True", 4)) || (n == 5 && !memcmp(start, "False", 5));
        if (!ok)
          return ct__perr(ps, "invalid default %s for %s argument '%s': expected a number%s, inf, -inf or nan",
                          ct__found(start, fb, sizeof fb), tname, a->name, a->type == CT_TYPE_SCALAR ? ", True, False" : "");
        break;
      case CT_TYPE_BOOL:
        if (!((n == 4 && !memcmp(start, "True", 4)) || (n == 5 && !memcmp(start, "False", 5))))
          return ct__perr(ps, "invalid default %s for bool argument '%s': expected True or False", ct__found(start, fb, sizeof fb),
                          a->name);
        break;
      case CT_TYPE_SCALAR_TYPE:
        for (i = 0; i < sizeof ct__schema_dtype_names / sizeof ct__schema_dtype_names[0] && !ok; i++)
          ok = strlen(ct__schema_dtype_names[i]) == n && !memcmp(start, ct__schema_dtype_names[i], n);
        if (!ok)
          return ct__perr(ps, "invalid default %s for ScalarType argument '%s': expected float, double, half, bfloat16, long, "
                          "int, uint8 or bool", ct__found(start, fb, sizeof fb), a->name);
        break;
      case CT_TYPE_STR:
        return ct__perr(ps, "invalid default %s for str argument '%s': expected a quoted string", ct__found(start, fb, sizeof fb),
                        a->name);
      default:
        return ct__perr(ps, "invalid default %s for %s argument '%s': expected None", ct__found(start, fb, sizeof fb), tname,
                        a->name);
      }
    }
  }
  n = (size_t)(p - start);
  if (n >= sizeof a->default_value)
    return ct__perr(ps, "default value of '%s' too long (at most %d characters)", a->name, (int)sizeof a->default_value - 1);
  memcpy(a->default_value, start, n);
  a->default_value[n] = '\0';
  ps->p = p;
  return 1;
}

static const char *ct__type_code(const ct_arg *a) {
  switch (a->type) {
  case CT_TYPE_TENSOR: return a->is_write ? "Tw" : a->optional ? "T?" : "T";
  case CT_TYPE_INT: return a->optional ? "i?" : "i";
  case CT_TYPE_FLOAT: return a->optional ? "f?" : "f";
  case CT_TYPE_BOOL: return a->optional ? "b?" : "b";
  case CT_TYPE_SCALAR: return a->optional ? "S?" : "S";
  case CT_TYPE_SCALAR_TYPE: return "D"; /* ct_dtype, CT_DTYPE_NONE for None */
  case CT_TYPE_INT_LIST: return "I";    /* ct_int_list; None is data NULL, n -1 */
  case CT_TYPE_TENSOR_LIST: return "L";
  case CT_TYPE_STR: return a->optional ? "s?" : "s";
  case CT_TYPE_GENERATOR: return "G"; /* ct_generator *, NULL for the default */
  case CT_TYPE_DEVICE: return "V";    /* ct_device, CT_NO_DEVICE for None */
  case CT_TYPE_FLOAT_LIST: return "F"; /* ct_float_list; None is data NULL, n -1 */
  }
  return "?";
}

static ct_status ct__schema_parse(const char *op, const char *text, ct_schema *out);
/* Appends sep and code to buf (holding *len chars) if both fit with the terminator. */
static int ct__sig_append(char *buf, size_t cap, size_t *len, const char *sep, const char *code) {
  size_t a = strlen(sep), b = strlen(code);
  char *d = buf + *len;
  if (*len + a + b >= cap) return 0;
  while (*sep) *d++ = *sep++;
  while (*code) *d++ = *code++;
  *d = 0;
  *len += a + b;
  return 1;
}
CTDEF ct_status ct_schema_parse(const char *text, ct_schema *out) { return ct__schema_parse("ct_schema_parse", text, out); }
static ct_status ct__schema_parse(const char *op, const char *text, ct_schema *out) {
  ct__parser ps;
  int kw = 0, star_last = 0, i, j;
  size_t len = 0;
  char fb[24];
  if (!text) return ct__fail_null(op, "schema");
  if (!out) return ct__fail_null(op, "out");
  memset(out, 0, sizeof *out);
  ps.text = ps.p = text;
  ps.err = NULL;
  ps.msg[0] = '\0';
  if (!ct__parse_name(&ps, out)) goto fail;
  if (!ct__expect(&ps, '(', "'(' after the operator name")) goto fail;
  ct__skip_ws(&ps);
  if (*ps.p != ')') {
    for (;;) {
      ct_arg *a;
      ct__skip_ws(&ps);
      if (*ps.p == '*') {
        if (kw) {
          ct__perr(&ps, "'*' given twice");
          goto fail;
        }
        kw = star_last = 1;
        ps.p++;
      } else {
        star_last = 0;
        if (out->nargs >= CT_MAX_ARGS) {
          ct__perr(&ps, "too many arguments (at most %d)", CT_MAX_ARGS);
          goto fail;
        }
        a = &out->args[out->nargs];
        if (!ct__parse_type(&ps, a)) goto fail;
        if (!ct__ident(&ps, a->name, sizeof a->name, "an argument name")) goto fail;
        a->kwarg_only = kw != 0;
        for (i = 0; i < out->nargs; i++) {
          if (!strcmp(out->args[i].name, a->name)) {
            ps.p -= strlen(a->name);
            ct__perr(&ps, "duplicate argument name '%s'", a->name);
            goto fail;
          }
        }
        ct__skip_ws(&ps);
        if (*ps.p == '=') {
          ps.p++;
          if (!ct__parse_default(&ps, a)) goto fail;
        }
        out->nargs++;
      }
      ct__skip_ws(&ps);
      if (*ps.p == ',') {
        ps.p++;
        ct__skip_ws(&ps);
        if (*ps.p == ')') {
          ct__perr(&ps, "expected an argument after ',', found ')'");
          goto fail;
        }
        continue;
      }
      if (*ps.p == ')') break;
      if (out->nargs && !star_last)
        ct__perr(&ps, "expected ',' or ')' after argument '%s', found %s", out->args[out->nargs - 1].name,
                 ct__found(ps.p, fb, sizeof fb));
      else ct__perr(&ps, "expected ',' or ')', found %s", ct__found(ps.p, fb, sizeof fb));
      goto fail;
    }
    if (star_last) {
      ct__perr(&ps, "'*' must be followed by keyword-only arguments");
      goto fail;
    }
  }
  ps.p++;
  ct__skip_ws(&ps);
  if (ps.p[0] != '-' || ps.p[1] != '>') {
    ct__perr(&ps, "expected '->', found %s", ct__found(ps.p, fb, sizeof fb));
    goto fail;
  }
  ps.p += 2;
  ct__skip_ws(&ps);
  if (*ps.p == '(') { /* tuple of returns, possibly empty */
    ps.p++;
    ct__skip_ws(&ps);
    if (*ps.p != ')') {
      for (;;) {
        ct_arg *r;
        ct__skip_ws(&ps);
        if (out->nrets >= CT_MAX_RETURNS) {
          ct__perr(&ps, "too many returns (at most %d)", CT_MAX_RETURNS);
          goto fail;
        }
        r = &out->rets[out->nrets];
        if (!ct__parse_type(&ps, r)) goto fail;
        ct__skip_ws(&ps);
        if (ct__is_ident_start(*ps.p)) {
          if (!ct__ident(&ps, r->name, sizeof r->name, "a return name")) goto fail;
          for (j = 0; j < out->nrets; j++)
            if (!strcmp(r->name, out->rets[j].name)) {
              ps.p -= strlen(r->name);
              ct__perr(&ps, "duplicate return name '%s'", r->name);
              goto fail;
            }
        }
        out->nrets++;
        ct__skip_ws(&ps);
        if (*ps.p == '=') {
          ct__perr(&ps, "returns cannot have defaults");
          goto fail;
        }
        if (*ps.p == ',') {
          ps.p++;
          continue;
        }
        if (*ps.p == ')') break;
        ct__perr(&ps, "expected ',' or ')' in the returns, found %s", ct__found(ps.p, fb, sizeof fb));
        goto fail;
      }
    }
    ps.p++;
  } else {
    if (!ct__parse_type(&ps, &out->rets[0])) goto fail;
    ct__skip_ws(&ps);
    if (ct__is_ident_start(*ps.p) && !ct__ident(&ps, out->rets[0].name, sizeof out->rets[0].name, "a return name")) goto fail;
    out->nrets = 1;
  }
  ct__skip_ws(&ps);
  if (*ps.p) {
    ct__perr(&ps, "unexpected text after the returns: %s", ct__found(ps.p, fb, sizeof fb));
    goto fail;
  }
  /* every return's alias set is an argument's, with the same mutability */
  for (i = 0; i < out->nrets; i++) {
    const ct_arg *r = &out->rets[i];
    if (!r->alias) continue;
    for (j = 0; j < out->nargs; j++)
      if (out->args[j].alias == r->alias && out->args[j].is_write == r->is_write) break;
    if (j == out->nargs) {
      ct__perr(&ps, "return %d is annotated Tensor(%c%s), but no argument is", i, r->alias, r->is_write ? "!" : "");
      goto fail;
    }
  }
  /* C signature code: argument codes, "->", return codes (appended by hand:
   * every op's schema is parsed at start-up, and snprintf was half its cost) */
  for (i = 0; i < out->nargs; i++)
    if (!ct__sig_append(out->signature, sizeof out->signature, &len, i ? "," : "", ct__type_code(&out->args[i]))) break;
  for (i = 0; i < out->nrets; i++)
    if (!ct__sig_append(out->signature, sizeof out->signature, &len, i ? "," : "->", ct__type_code(&out->rets[i]))) break;
  if (out->nrets == 0 && len + 2 < sizeof out->signature) memcpy(out->signature + len, "->", 3);
  return CT_OK;
fail: {
  int at = (int)(ps.p - ps.text), tlen = (int)strlen(text);
  memset(out, 0, sizeof *out); /* no half-parsed schema */
  if (tlen > 160) /* the reason must fit the message: long schemas are shown around the offset */
    return ct_fail(CT_ERR_SCHEMA, op, "malformed schema '...%.100s...' at offset %d: %s", text + (at > 60 ? at - 60 : 0), at,
                   ps.err ? ps.err : "syntax error");
  return ct_fail(CT_ERR_SCHEMA, op, "malformed schema '%s' at offset %d: %s", text, at, ps.err ? ps.err : "syntax error");
}
}

CT_EXTERN_C_END
#endif /* CT__SCHEMA_IMPL */
