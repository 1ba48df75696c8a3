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
  CT_TYPE_GENERATOR
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
#include <stdio.h>
CT_EXTERN_C_BEGIN

/* ---- schema parser ----
 * name[.overload](Type name[=default], ..., *, ...) -> Ret | (Ret, Ret) */
typedef struct ct__parser {
  const char *text, *p;
  const char *err;
} ct__parser;

static void ct__skip_ws(ct__parser *ps) {
  while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n') ps->p++;
}
static int ct__is_ident(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
static int ct__ident(ct__parser *ps, char *out, size_t cap, int allow_ns) {
  size_t n = 0;
  ct__skip_ws(ps);
  while (ct__is_ident(*ps->p) || (allow_ns && ps->p[0] == ':' && ps->p[1] == ':')) {
    int w = (*ps->p == ':') ? 2 : 1;
    if (n + (size_t)w >= cap) {
      ps->err = "name too long";
      return 0;
    }
    memcpy(out + n, ps->p, (size_t)w);
    n += (size_t)w;
    ps->p += w;
  }
  out[n] = '\0';
  if (!n) ps->err = "expected a name";
  return n > 0;
}
static int ct__expect(ct__parser *ps, char c, const char *what) {
  ct__skip_ws(ps);
  if (*ps->p != c) {
    ps->err = what;
    return 0;
  }
  ps->p++;
  return 1;
}

static int ct__parse_type(ct__parser *ps, ct_arg *a) {
  char word[32];
  if (!ct__ident(ps, word, sizeof word, 0)) {
    ps->err = "expected a type";
    return 0;
  }
  if (!strcmp(word, "Tensor")) a->type = CT_TYPE_TENSOR;
  else if (!strcmp(word, "int") || !strcmp(word, "SymInt")) a->type = CT_TYPE_INT;
  else if (!strcmp(word, "float")) a->type = CT_TYPE_FLOAT;
  else if (!strcmp(word, "bool")) a->type = CT_TYPE_BOOL;
  else if (!strcmp(word, "Scalar")) a->type = CT_TYPE_SCALAR;
  else if (!strcmp(word, "ScalarType")) a->type = CT_TYPE_SCALAR_TYPE;
  else if (!strcmp(word, "str")) a->type = CT_TYPE_STR;
  else if (!strcmp(word, "Generator")) a->type = CT_TYPE_GENERATOR;
  else {
    ps->err = "unknown type";
    ps->p -= strlen(word);
    return 0;
  }
  if (*ps->p == '(') { /* alias annotation (a) or (a!) */
    ps->p++;
    if (*ps->p < 'a' || *ps->p > 'z') {
      ps->err = "expected an alias letter";
      return 0;
    }
    a->alias = *ps->p++;
    if (*ps->p == '!') {
      a->is_write = true;
      ps->p++;
    }
    if (*ps->p++ != ')') {
      ps->p--;
      ps->err = "expected ')' after alias annotation";
      return 0;
    }
    if (a->type != CT_TYPE_TENSOR) {
      ps->err = "alias annotation on a non-tensor";
      return 0;
    }
  }
  if (*ps->p == '[') { /* list, optionally sized */
    ps->p++;
    while (*ps->p >= '0' && *ps->p <= '9') a->list_size = a->list_size * 10 + (*ps->p++ - '0');
    if (*ps->p++ != ']') {
      ps->p--;
      ps->err = "expected ']'";
      return 0;
    }
    if (a->type == CT_TYPE_INT) a->type = CT_TYPE_INT_LIST;
    else if (a->type == CT_TYPE_TENSOR) a->type = CT_TYPE_TENSOR_LIST;
    else {
      ps->err = "only int[] and Tensor[] lists are supported";
      return 0;
    }
  }
  if (*ps->p == '?') {
    a->optional = true;
    ps->p++;
  }
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
  }
  return "?";
}

static ct_status ct__schema_parse(const char *op, const char *text, ct_schema *out);
CTDEF ct_status ct_schema_parse(const char *text, ct_schema *out) { return ct__schema_parse("ct_schema_parse", text, out); }
static ct_status ct__schema_parse(const char *op, const char *text, ct_schema *out) {
  ct__parser ps;
  int kw = 0, i;
  size_t len = 0;
  if (!text) return ct__fail_null(op, "schema");
  if (!out) return ct__fail_null(op, "out");
  memset(out, 0, sizeof *out);
  ps.text = ps.p = text;
  ps.err = NULL;
  if (!ct__ident(&ps, out->name, sizeof out->name, 1)) goto fail;
  if (*ps.p == '.') {
    ps.p++;
    if (!ct__ident(&ps, out->overload, sizeof out->overload, 0)) goto fail;
  }
  if (!ct__expect(&ps, '(', "expected '('")) goto fail;
  ct__skip_ws(&ps);
  while (*ps.p != ')') {
    ct_arg *a;
    if ((out->nargs || kw) && !ct__expect(&ps, ',', "expected ',' or ')'")) goto fail;
    ct__skip_ws(&ps);
    if (*ps.p == '*') {
      if (kw) {
        ps.err = "'*' given twice";
        goto fail;
      }
      kw = 1;
      ps.p++;
      ct__skip_ws(&ps);
      continue;
    }
    if (out->nargs >= CT_MAX_ARGS) {
      ps.err = "too many arguments";
      goto fail;
    }
    a = &out->args[out->nargs];
    if (!ct__parse_type(&ps, a)) goto fail;
    if (!ct__ident(&ps, a->name, sizeof a->name, 0)) goto fail;
    a->kwarg_only = kw != 0;
    for (i = 0; i < out->nargs; i++) {
      if (!strcmp(out->args[i].name, a->name)) {
        ps.err = "duplicate argument name";
        goto fail;
      }
    }
    ct__skip_ws(&ps);
    if (*ps.p == '=') {
      size_t n = 0;
      int depth = 0;
      ps.p++;
      ct__skip_ws(&ps);
      while (*ps.p && (depth > 0 || (*ps.p != ',' && *ps.p != ')'))) {
        if (*ps.p == '[' || *ps.p == '(') depth++;
        if (*ps.p == ']' || *ps.p == ')') depth--;
        if (n + 1 >= sizeof a->default_value) {
          ps.err = "default value too long";
          goto fail;
        }
        a->default_value[n++] = *ps.p++;
      }
      while (n && a->default_value[n - 1] == ' ') n--;
      a->default_value[n] = '\0';
      if (!n) {
        ps.err = "expected a default value";
        goto fail;
      }
    }
    out->nargs++;
    ct__skip_ws(&ps);
    if (!*ps.p) {
      ps.err = "expected ',' or ')'";
      goto fail;
    }
  }
  ps.p++;
  ct__skip_ws(&ps);
  if (ps.p[0] != '-' || ps.p[1] != '>') {
    ps.err = "expected '->'";
    goto fail;
  }
  ps.p += 2;
  ct__skip_ws(&ps);
  if (*ps.p == '(') { /* tuple of returns, possibly empty */
    ps.p++;
    ct__skip_ws(&ps);
    while (*ps.p != ')') {
      if (out->nrets && !ct__expect(&ps, ',', "expected ',' or ')' in returns")) goto fail;
      if (out->nrets >= CT_MAX_RETURNS) {
        ps.err = "too many returns";
        goto fail;
      }
      if (!ct__parse_type(&ps, &out->rets[out->nrets])) goto fail;
      ct__skip_ws(&ps);
      if (ct__is_ident(*ps.p) && !ct__ident(&ps, out->rets[out->nrets].name, sizeof out->rets[0].name, 0)) goto fail;
      out->nrets++;
      ct__skip_ws(&ps);
      if (!*ps.p) {
        ps.err = "expected ')' after returns";
        goto fail;
      }
    }
    ps.p++;
  } else {
    if (!ct__parse_type(&ps, &out->rets[0])) goto fail;
    out->nrets = 1;
  }
  ct__skip_ws(&ps);
  if (*ps.p) {
    ps.err = "unexpected text after the returns";
    goto fail;
  }
  /* C signature code: argument codes, "->", return codes */
  for (i = 0; i < out->nargs; i++) {
    int n = snprintf(out->signature + len, sizeof out->signature - len, "%s%s", i ? "," : "", ct__type_code(&out->args[i]));
    if (n < 0 || (size_t)n >= sizeof out->signature - len) break;
    len += (size_t)n;
  }
  for (i = 0; i < out->nrets; i++) {
    int n = snprintf(out->signature + len, sizeof out->signature - len, "%s%s", i ? "," : "->", ct__type_code(&out->rets[i]));
    if (n < 0 || (size_t)n >= sizeof out->signature - len) break;
    len += (size_t)n;
  }
  if (out->nrets == 0 && len + 2 < sizeof out->signature) memcpy(out->signature + len, "->", 3);
  return CT_OK;
fail:
  return ct_fail(CT_ERR_SCHEMA, op, "malformed schema '%s' at offset %d: %s", text, (int)(ps.p - ps.text),
                 ps.err ? ps.err : "syntax error");
}

CT_EXTERN_C_END
#endif /* CT__SCHEMA_IMPL */
