/* tests/test_print.c - ct_format / ct_print against the text PyTorch prints.
 *
 * The expected strings come from torch 1.13 (tests/fixtures/print_cases.h,
 * written by tests/gen_print_cases.py); each case is rebuilt here from the
 * same values, dtype, shape and transpose. */
#include <stdlib.h>

#include "fixtures/print_cases.h"

/* Builds the tensor of a fixture case (a new reference, or NULL). */
static ct_tensor *print_build(const print_case *pc) {
  ct_tensor *t, *v;
  unsigned char *data;
  int64_t i, n = pc->numel;
  size_t es = ct_dtype_size(pc->dtype);
  if (pc->meta) return ct_empty_opts(pc->ndim, pc->sizes, ct_opts(pc->dtype, CT_META));
  data = (unsigned char *)malloc((size_t)(n > 0 ? n : 1) * es);
  if (!data) return NULL;
  for (i = 0; i < n; i++) {
    unsigned char *p = data + (size_t)i * es;
    double f = pc->fvals ? pc->fvals[i] : 0.0;
    int64_t k = pc->ivals ? pc->ivals[i] : 0;
    switch (pc->dtype) {
    case CT_F32: { float x = (float)f; memcpy(p, &x, sizeof x); } break;
    case CT_F64: memcpy(p, &f, sizeof f); break;
    case CT_F16: { uint16_t x = ct_f32_to_f16((float)f); memcpy(p, &x, sizeof x); } break;
    case CT_BF16: { uint16_t x = ct_f32_to_bf16((float)f); memcpy(p, &x, sizeof x); } break;
    case CT_I64: memcpy(p, &k, sizeof k); break;
    case CT_I32: { int32_t x = (int32_t)k; memcpy(p, &x, sizeof x); } break;
    case CT_U8: *p = (unsigned char)k; break;
    case CT_BOOL: *p = (unsigned char)(k != 0); break;
    default: break;
    }
  }
  t = ct_from_array(pc->ndim, pc->sizes, pc->dtype, data);
  free(data);
  if (t && pc->transpose0 >= 0) {
    v = ct_transpose(t, pc->transpose0, pc->transpose1);
    ct_release(t);
    t = v;
  }
  return t;
}

/* Formats t and compares with torch's text; reports `what` on a mismatch. */
static void print_expect(const char *file, int line, const char *what, const ct_tensor *t, const char *expected) {
  char small[4096], *buf = small;
  size_t n, need;
  if (!t) {
    harness_fail(file, line, "%s: could not build the tensor: %s", what, ct_last_error_message());
    return;
  }
  n = ct_format(t, small, sizeof small);
  if (n >= sizeof small) {
    buf = (char *)malloc(n + 1);
    if (!buf) {
      harness_fail(file, line, "%s: out of memory", what);
      return;
    }
    need = ct_format(t, buf, n + 1);
    CHECK(need == n);
  }
  if (n != strlen(expected) || strcmp(buf, expected) != 0)
    harness_fail(file, line, "%s: ct_format gave (%zu chars)\n%s\nbut PyTorch prints (%zu chars)\n%s", what, n, buf,
                 strlen(expected), expected);
  if (buf != small) free(buf);
}
#define PRINT_EXPECT(what, t, expected) print_expect(__FILE__, __LINE__, what, t, expected)

static void print_run_cases(const char *prefix) {
  size_t i, plen = strlen(prefix), seen = 0;
  for (i = 0; i < sizeof print_cases / sizeof print_cases[0]; i++) {
    const print_case *pc = &print_cases[i];
    ct_tensor *t;
    if (strncmp(pc->name, prefix, plen) != 0) continue;
    t = print_build(pc);
    PRINT_EXPECT(pc->name, t, pc->expected);
    ct_release(t);
    seen++;
  }
  CHECK(seen > 0);
}

TEST(print_int_mode) { print_run_cases("int_mode_"); }
TEST(print_fixed_mode) { print_run_cases("fixed_"); }
TEST(print_sci_mode) { print_run_cases("sci_"); }
TEST(print_nonfinite) {
  print_run_cases("nan_");
  print_run_cases("nonfinite_");
}
TEST(print_integer_and_bool_dtypes) {
  print_run_cases("int64");
  print_run_cases("int32");
  print_run_cases("uint8");
  print_run_cases("bool");
}
TEST(print_float_dtypes) {
  print_run_cases("f64_");
  print_run_cases("f16");
  print_run_cases("bf16");
}
TEST(print_zero_dim) { print_run_cases("scalar_"); }
TEST(print_empty) { print_run_cases("empty_"); }
TEST(print_rank_and_views) {
  print_run_cases("rank");
  print_run_cases("transposed_");
  print_run_cases("single_");
  print_run_cases("column_");
}
TEST(print_line_wrapping) { print_run_cases("wrap_"); }
TEST(print_summary) { print_run_cases("summary_"); }
TEST(print_meta) { print_run_cases("meta_"); }

TEST(print_every_case_is_covered) {
  static const char *const prefixes[] = {"int_mode_", "fixed_", "sci_",    "nan_",   "nonfinite_", "int64",
                                         "int32",     "uint8",  "bool",    "f64_",   "f16",        "bf16",
                                         "scalar_",   "empty_", "rank",    "transposed_", "single_", "column_",
                                         "wrap_",     "summary_", "meta_"};
  size_t i, j;
  for (i = 0; i < sizeof print_cases / sizeof print_cases[0]; i++) {
    int found = 0;
    for (j = 0; j < sizeof prefixes / sizeof prefixes[0]; j++)
      if (strncmp(print_cases[i].name, prefixes[j], strlen(prefixes[j])) == 0) found = 1;
    if (!found) harness_fail(__FILE__, __LINE__, "fixture case %s is run by no test", print_cases[i].name);
  }
}

TEST(print_library_built_tensors) {
  static const float src[] = {0.1f, 0.2f, 65504.0f, -1.5f};
  const int64_t two_three[] = {2, 3}, four[] = {4};
  ct_tensor *a = ct_arange(0, 6, 1, CT_F32);
  ct_tensor *m = ct_reshape(a, 2, two_three);
  ct_tensor *mt = ct_transpose(m, 0, 1);
  ct_tensor *ai = ct_arange(0, 10, 1, CT_I64);
  ct_tensor *af = ct_arange(-1, 1, 0.25, CT_F32);
  ct_tensor *as = ct_arange(0, 1, 0.0005, CT_F64);
  ct_tensor *f = ct_from_array(1, four, CT_F32, src);
  ct_tensor *h = ct_to_dtype(f, CT_F16);
  ct_tensor *b = ct_to_dtype(f, CT_BF16);
  ct_tensor *d = ct_to_dtype(f, CT_F64);
  PRINT_EXPECT("arange reshape", m, print_expected_arange_2x3);
  PRINT_EXPECT("arange reshape transpose", mt, print_expected_arange_2x3_t);
  PRINT_EXPECT("arange int64", ai, print_expected_arange_int64);
  PRINT_EXPECT("arange fixed", af, print_expected_arange_fixed);
  PRINT_EXPECT("arange summary f64", as, print_expected_arange_summary_f64);
  PRINT_EXPECT("to f16", h, print_expected_to_f16);
  PRINT_EXPECT("to bf16", b, print_expected_to_bf16);
  PRINT_EXPECT("to f64", d, print_expected_to_f64);
  ct_release(a);
  ct_release(m);
  ct_release(mt);
  ct_release(ai);
  ct_release(af);
  ct_release(as);
  ct_release(f);
  ct_release(h);
  ct_release(b);
  ct_release(d);
}

TEST(print_format_truncates_like_snprintf) {
  const char *expected = print_cases[0].expected; /* a 2x2 matrix over two lines */
  size_t len = strlen(expected);
  char buf[256];
  ct_tensor *t = print_build(&print_cases[0]);
  CHECK(t != NULL);
  CHECK(ct_format(t, NULL, 0) == len);
  memset(buf, 'x', sizeof buf);
  CHECK(ct_format(t, buf, 0) == len);
  CHECK(buf[0] == 'x'); /* cap 0: nothing written */
  CHECK(ct_format(t, buf, 1) == len);
  CHECK(buf[0] == '\0');
  CHECK(ct_format(t, buf, 5) == len);
  CHECK(strcmp(buf, "tens") == 0);
  CHECK(ct_format(t, buf, len) == len); /* one short: the last ')' is cut */
  CHECK(strlen(buf) == len - 1 && strncmp(buf, expected, len - 1) == 0);
  CHECK(ct_format(t, buf, len + 1) == len);
  CHECK(strcmp(buf, expected) == 0);
  CHECK(ct_last_error() == CT_OK);
  ct_release(t);
}

TEST(print_errors) {
  char buf[16] = "junk";
  const int64_t two[] = {2};
  static const float vals[] = {1, 2};
  ct_tensor *t = ct_from_array(1, two, CT_F32, vals);
  CHECK_ERR(ct_format(NULL, buf, sizeof buf), CT_ERR_NULL, "ct_format");
  CHECK(buf[0] == '\0');
  CHECK_ERR(ct_format(t, NULL, 8), CT_ERR_NULL, "ct_format");
  CHECK_ERR(ct_print(NULL), CT_ERR_NULL, "ct_print");
  CHECK_ERR(ct_fprint(NULL, t), CT_ERR_NULL, "ct_fprint");
  CHECK_ERR(ct_fprint(stderr, NULL), CT_ERR_NULL, "ct_fprint");
  CHECK(ct_format(NULL, NULL, 0) == 0);
  ct_clear_error();
  ct_release(t);
}

/* ct_fprint writes the text and a newline; long texts take the heap path. */
TEST(print_fprint) {
  size_t i, longest = 0;
  FILE *f = tmpfile();
  if (!f) {
    harness_skip("tmpfile() is unavailable");
    return;
  }
  for (i = 1; i < sizeof print_cases / sizeof print_cases[0]; i++)
    if (strlen(print_cases[i].expected) > strlen(print_cases[longest].expected)) longest = i;
  CHECK(strlen(print_cases[longest].expected) > 1024);
  {
    const print_case *cases[2];
    size_t k;
    cases[0] = &print_cases[0];
    cases[1] = &print_cases[longest];
    for (k = 0; k < 2; k++) {
      ct_tensor *t = print_build(cases[k]);
      CHECK_OK(ct_fprint(f, t));
      ct_release(t);
    }
    {
      size_t n0 = strlen(cases[0]->expected), n1 = strlen(cases[1]->expected), total = n0 + n1 + 2;
      char *got = (char *)malloc(total + 1);
      CHECK(got != NULL);
      if (got) {
        rewind(f);
        CHECK(fread(got, 1, total + 1, f) == total);
        CHECK(memcmp(got, cases[0]->expected, n0) == 0 && got[n0] == '\n');
        CHECK(memcmp(got + n0 + 1, cases[1]->expected, n1) == 0 && got[total - 1] == '\n');
        free(got);
      }
    }
  }
  fclose(f);
}
