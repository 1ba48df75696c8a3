/* tests/test_safetensors.c - ctorch/safetensors.h: round trips of every
 * dtype, files written in Python (tests/gen_safetensors_fixtures.py ->
 * tests/fixtures/safetensors/ and tests/fixtures/safetensors_cases.h), the
 * reference layout byte for byte, zero-copy loading and the mapping's
 * lifetime, state dicts, and malformed files (built in memory). */
#include "fixtures/safetensors_cases.h"
#if defined(__unix__) || defined(__unix) || (defined(__APPLE__) && defined(__MACH__))
#include <unistd.h>
#define ST_PID() ((long)getpid())
#ifdef CT_NO_MMAP
#define ST_MAPS 0
#else
#define ST_MAPS 1 /* files are memory-mapped */
#endif
#else
#define ST_PID() 0L
#define ST_MAPS 0
#endif

#define ST_FIXTURES "tests/fixtures/safetensors/"

/* a scratch file under build/ (the suite runs from the repository root) */
static const char *st_tmp(char *buf, size_t cap, const char *tag) {
  snprintf(buf, cap, "build/st_test_%ld_%s.safetensors", ST_PID(), tag);
  return buf;
}

static unsigned char *st_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  unsigned char *b = NULL;
  size_t n = 0, cap = 0, r;
  *len = 0;
  if (!f) return NULL;
  do {
    if (n == cap) {
      unsigned char *nb = (unsigned char *)realloc(b, cap = cap ? cap * 2 : 4096);
      if (!nb) {
        free(b);
        fclose(f);
        return NULL;
      }
      b = nb;
    }
    r = fread(b + n, 1, cap - n, f);
    n += r;
  } while (r > 0);
  fclose(f);
  *len = n;
  return b;
}

/* A file: the 8-byte length of header, the header, data_len bytes (0, 1, 2, ...). */
static unsigned char *st_build(const char *header, size_t hlen, size_t data_len, size_t *len) {
  unsigned char *b = (unsigned char *)malloc(8 + hlen + data_len + 1);
  size_t i;
  *len = 0;
  if (!b) return NULL;
  for (i = 0; i < 8; i++) b[i] = (unsigned char)((uint64_t)hlen >> (8 * i));
  memcpy(b + 8, header, hlen);
  for (i = 0; i < data_len; i++) b[8 + hlen + i] = (unsigned char)i;
  *len = 8 + hlen + data_len;
  return b;
}
/* 1 if the header (with data_len bytes of data) opens; the handle is closed at once */
static int st_try(const char *header, size_t data_len) {
  size_t len;
  unsigned char *b = st_build(header, strlen(header), data_len, &len);
  ct_safetensors *st = b ? ct_safetensors_from_buffer(b, len) : NULL;
  free(b);
  ct_safetensors_close(st);
  return st != NULL;
}

/* t's elements, row-major, as bytes (through a contiguous copy when needed;
 * its own scope, so callers may hold a scope open) */
static int st_same_bytes(ct_tensor *t, const void *bytes, size_t nbytes) {
  int ok = 0;
  CT_SCOPE {
    ct_tensor *c = ct_contiguous(t);
    ok = c && (size_t)c->numel * ct_dtype_size((ct_dtype)c->dtype) == nbytes &&
         (nbytes == 0 || memcmp(ct_data_ptr(c), bytes, nbytes) == 0);
  }
  return ok;
}
static int st_same_tensor(ct_tensor *a, ct_tensor *b) {
  int ok = 0;
  if (!a || !b || a->dtype != b->dtype || !ct_same_shape(a, b)) return 0;
  CT_SCOPE {
    ct_tensor *c = ct_contiguous(b);
    ok = c && st_same_bytes(a, ct_data_ptr(c), (size_t)c->numel * ct_dtype_size((ct_dtype)c->dtype));
  }
  return ok;
}
/* whether t's data lies in the file's byte buffer (a zero-copy tensor) */
static int st_in_file(const ct_safetensors *st, const ct_tensor *t) {
  size_t n;
  const char *d = (const char *)ct_safetensors_data(st, &n), *p = (const char *)ct_data_ptr(t);
  return p && d && p >= d && p < d + n;
}

TEST(safetensors_dtype_names) {
  CHECK(!strcmp(ct_safetensors_dtype_name(CT_F32), "F32"));
  CHECK(!strcmp(ct_safetensors_dtype_name(CT_F64), "F64"));
  CHECK(!strcmp(ct_safetensors_dtype_name(CT_F16), "F16"));
  CHECK(!strcmp(ct_safetensors_dtype_name(CT_BF16), "BF16"));
  CHECK(!strcmp(ct_safetensors_dtype_name(CT_I64), "I64"));
  CHECK(!strcmp(ct_safetensors_dtype_name(CT_I32), "I32"));
  CHECK(!strcmp(ct_safetensors_dtype_name(CT_U8), "U8"));
  CHECK(!strcmp(ct_safetensors_dtype_name(CT_BOOL), "BOOL"));
  CHECK(ct_safetensors_dtype_name(CT_DTYPE_NONE) == NULL);
  CHECK(ct_safetensors_dtype_name((ct_dtype)CT_DTYPE_NUM) == NULL);
}

/* every dtype, 0-dim, zero-size and non-contiguous tensors: save_buffer ->
 * from_buffer and save -> open (mapped) give the same tensors back */
TEST(safetensors_roundtrip_every_dtype) {
  static const float f32[6] = {1.5f, -2.0f, 0.0f, -0.0f, 3e38f, 1e-45f};
  static const double f64[3] = {-1.0 / 3, 1e308, 4.9e-324};
  static const int64_t i64[3] = {INT64_MIN, 0, INT64_MAX};
  static const int32_t i32[2] = {INT32_MIN, INT32_MAX};
  static const uint8_t u8[5] = {0, 1, 127, 128, 255};
  static const bool bl[4] = {true, false, false, true};
  uint16_t f16[4], bf16[4];
  const char *names[12] = {"f32", "f64", "f16", "bf16", "i64", "i32", "u8", "bool", "scalar", "empty", "transposed", "strided"};
  const char *keys[2] = {"format", "who"}, *values[2] = {"pt", "ctorch \303\251"};
  ct_tensor *t[12], *base, *v1, *v2;
  int i, k, live0 = ct__atomic_load(&ct__st_live_buffers);
  char path[128];
  for (i = 0; i < 4; i++) f16[i] = ct_f32_to_f16((float)i - 1.5f), bf16[i] = ct_f32_to_bf16((float)i * 1e30f);
  f16[3] = 0x7e00; /* nan */
  t[0] = ct_from_array(CT_DIMS(2, 3), CT_F32, f32);
  t[1] = ct_from_array(CT_DIMS(3), CT_F64, f64);
  t[2] = ct_from_array(CT_DIMS(2, 2), CT_F16, f16);
  t[3] = ct_from_array(CT_DIMS(4), CT_BF16, bf16);
  t[4] = ct_from_array(CT_DIMS(3, 1), CT_I64, i64);
  t[5] = ct_from_array(CT_DIMS(2), CT_I32, i32);
  t[6] = ct_from_array(CT_DIMS(5), CT_U8, u8);
  t[7] = ct_from_array(CT_DIMS(2, 2), CT_BOOL, bl);
  t[8] = ct_from_array(0, NULL, CT_F64, f64);
  t[9] = ct_zeros(CT_DIMS(3, 0, 2), CT_I32);
  base = ct_arange(0, 24, 1, CT_F32);
  v1 = ct_view(base, CT_DIMS(4, 6));
  v2 = ct_view(base, CT_DIMS(4, 6));
  t[10] = ct_t(v1);                  /* [6, 4], non-contiguous */
  t[11] = ct_slice(v2, 1, 1, 6, 2); /* [4, 3], a step */
  for (i = 0; i < 12; i++) CHECK(t[i] != NULL);
  CHECK(!ct_is_contiguous(t[10]) && !ct_is_contiguous(t[11]));
  CT_SCOPE {
    void *buf = NULL;
    size_t len = 0;
    ct_safetensors *st;
    CHECK_OK(ct_safetensors_save_buffer(12, names, t, 2, keys, values, &buf, &len));
    CHECK(buf && len > 8 && ((const unsigned char *)buf)[8] == '{');
    st = ct_safetensors_from_buffer(buf, len);
    ct_safetensors_free_buffer(buf); /* (from_buffer copied it) */
    CHECK(st != NULL);
    CHECK(ct_safetensors_count(st) == 12);
    CHECK(!ct_safetensors_is_mapped(st));
    for (i = 1; i < ct_safetensors_count(st); i++) CHECK(strcmp(ct_safetensors_name(st, i - 1), ct_safetensors_name(st, i)) < 0);
    CHECK(ct_safetensors_name(st, 12) == NULL && ct_safetensors_name(st, -1) == NULL);
    for (i = 0; i < 12; i++) {
      ct_tensor *g = ct_safetensors_get(st, names[i]);
      ct_safetensors_info info;
      int idx = ct_safetensors_find(st, names[i]);
      CHECK(g != NULL && st_same_tensor(g, t[i]));
      CHECK(idx >= 0 && !strcmp(ct_safetensors_name(st, idx), names[i]));
      CHECK_OK(ct_safetensors_tensor_info(st, idx, &info));
      CHECK(info.dtype == (ct_dtype)t[i]->dtype && info.ndim == t[i]->ndim && !strcmp(info.name, names[i]));
      CHECK(!strcmp(info.format_dtype, ct_safetensors_dtype_name((ct_dtype)t[i]->dtype)));
      CHECK(info.nbytes == (uint64_t)t[i]->numel * ct_dtype_size((ct_dtype)t[i]->dtype));
      for (k = 0; k < t[i]->ndim; k++) CHECK(info.sizes[k] == t[i]->sizes[k]);
      if (g && g->numel) CHECK(st_in_file(st, g)); /* zero-copy: the writer aligns every tensor */
      if (g) CHECK(ct_is_contiguous(g) && g->device.type == CT_DEVICE_CPU && !ct_requires_grad(g));
    }
    CHECK(ct_safetensors_metadata_count(st) == 2);
    CHECK(!strcmp(ct_safetensors_metadata_key(st, 0), "format") && !strcmp(ct_safetensors_metadata(st, "format"), "pt"));
    CHECK(!strcmp(ct_safetensors_metadata(st, "who"), "ctorch \303\251"));
    CHECK(ct_safetensors_metadata(st, "nope") == NULL && ct_safetensors_metadata_key(st, 2) == NULL);
    CHECK(ct_safetensors_find(st, "nope") == -1);
    ct_safetensors_close(st); /* the scope's tensors still hold the copy */
  }
  CHECK(ct__atomic_load(&ct__st_live_buffers) == live0);
  /* through a file: mapped */
  st_tmp(path, sizeof path, "roundtrip");
  CHECK_OK(ct_safetensors_save(path, 12, names, t, 0, NULL, NULL));
  {
    ct_safetensors *st = ct_safetensors_open(path);
    ct_tensor *g[12];
    CHECK(st != NULL);
    if (st) {
#if ST_MAPS
      CHECK(ct_safetensors_is_mapped(st));
#else
      CHECK(!ct_safetensors_is_mapped(st));
#endif
      CHECK(ct_safetensors_metadata_count(st) == 0);
      for (i = 0; i < 12; i++) {
        g[i] = ct_safetensors_get(st, names[i]);
        CHECK(st_same_tensor(g[i], t[i]));
        if (g[i] && g[i]->numel) CHECK(st_in_file(st, g[i]));
      }
      ct_safetensors_close(st);
      remove(path); /* the mapping outlives the file's name, the handle and the descriptor */
      CHECK(ct__atomic_load(&ct__st_live_buffers) == live0 + 1);
      for (i = 0; i < 12; i++) CHECK(st_same_tensor(g[i], t[i]));
      for (i = 0; i < 12; i++) ct_release(g[i]);
    }
  }
  remove(path);
  CHECK(ct__atomic_load(&ct__st_live_buffers) == live0);
  for (i = 0; i < 12; i++) ct_release(t[i]);
  ct_release(base), ct_release(v1), ct_release(v2);
}

/* files written in Python: every dtype's bytes, metadata, names with escapes */
TEST(safetensors_reads_python_files) {
  size_t i, k;
  ct_safetensors *st = ct_safetensors_open(ST_FIXTURES "all_dtypes.safetensors");
  CHECK(st != NULL);
  if (!st) return;
  CHECK(ct_safetensors_count(st) == (int)(sizeof st_all_tensors / sizeof st_all_tensors[0]));
  for (i = 0; i < sizeof st_all_tensors / sizeof st_all_tensors[0]; i++) {
    const st_case_tensor *c = &st_all_tensors[i];
    ct_tensor *t = ct_safetensors_get(st, c->name);
    ct_safetensors_info info;
    CHECK(!strcmp(ct_safetensors_name(st, (int)i), c->name));
    CHECK_OK(ct_safetensors_tensor_info(st, (int)i, &info));
    CHECK(!strcmp(info.format_dtype, c->format_dtype) && (int)info.dtype == c->dtype && info.nbytes == c->nbytes);
    CHECK(t != NULL);
    if (!t) continue;
    CHECK(t->dtype == c->dtype && t->ndim == c->ndim);
    for (k = 0; k < (size_t)c->ndim; k++) CHECK(t->sizes[k] == c->sizes[k]);
    if (!st_same_bytes(t, c->bytes, c->nbytes)) harness_fail(__FILE__, __LINE__, "tensor '%s': bytes differ from PyTorch's", c->name);
    if (t->numel) CHECK(st_in_file(st, t));
    ct_release(t);
  }
  { /* a few values read back as numbers */
    ct_tensor *f16 = ct_safetensors_get(st, "f16"), *bf16 = ct_safetensors_get(st, "bf16"), *i64 = ct_safetensors_get(st, "i64");
    ct_tensor *s = ct_safetensors_get(st, "scalar"), *b = ct_safetensors_get(st, "bool");
    double v = 0;
    CHECK(ct_get(f16, 0) == 1.5 && ct_get(f16, 2) == 65504 && isinf(ct_get(f16, 3)) && signbit(ct_get(f16, 1)));
    CHECK(ct_get(bf16, 1) == -3.140625 && isnan(ct_get(bf16, 2)) && ct_get(bf16, 4) == -INFINITY);
    CHECK(ct_get_int(i64, 0) == INT64_MIN && ct_get_int(i64, 3) == INT64_MAX);
    CHECK_OK(ct_item(s, &v));
    CHECK(v == 3.5 && s->ndim == 0);
    CHECK(ct_get(b, 0) == 1 && ct_get(b, 1) == 0 && ct_get(b, 5) == 1);
    ct_release(f16), ct_release(bf16), ct_release(i64), ct_release(s), ct_release(b);
  }
  CHECK(ct_safetensors_metadata_count(st) == (int)(sizeof st_all_meta / sizeof st_all_meta[0]));
  for (i = 0; i < sizeof st_all_meta / sizeof st_all_meta[0]; i++) {
    const char *v = ct_safetensors_metadata(st, st_all_meta[i].key);
    CHECK(!strcmp(ct_safetensors_metadata_key(st, (int)i), st_all_meta[i].key));
    CHECK(v && !strcmp(v, st_all_meta[i].value));
  }
  ct_safetensors_close(st);
}

/* an older writer's layout: unpadded indented header with \u escapes, an
 * unknown field, misaligned F32/F64 (copied), I16 (no ctorch dtype), a BOOL
 * byte 2 (read as true, copied) */
TEST(safetensors_reads_unaligned_python_file) {
  size_t i;
  ct_safetensors *st = ct_safetensors_open(ST_FIXTURES "unaligned.safetensors");
  CHECK(st != NULL);
  if (!st) return;
  CHECK(ct_safetensors_count(st) == (int)(sizeof st_unaligned_tensors / sizeof st_unaligned_tensors[0]));
  for (i = 0; i < sizeof st_unaligned_tensors / sizeof st_unaligned_tensors[0]; i++) {
    const st_case_tensor *c = &st_unaligned_tensors[i];
    ct_safetensors_info info;
    ct_tensor *t;
    CHECK(!strcmp(ct_safetensors_name(st, (int)i), c->name));
    CHECK_OK(ct_safetensors_tensor_info(st, (int)i, &info));
    CHECK(!strcmp(info.format_dtype, c->format_dtype) && (int)info.dtype == c->dtype);
    if (c->dtype == CT_DTYPE_NONE) {
      CHECK_ERR(ct_safetensors_get(st, c->name), CT_ERR_DTYPE, "tensor 'c_i16' is I16, which has no ctorch dtype");
      continue;
    }
    t = ct_safetensors_get(st, c->name);
    CHECK(t != NULL);
    if (!t) continue;
    if (c->dtype == CT_BOOL) {
      static const unsigned char normalized[3] = {0, 1, 1};
      CHECK(st_same_bytes(t, normalized, 3));
      CHECK(!st_in_file(st, t)); /* a copy: the byte 2 is not a bool */
    } else {
      CHECK(st_same_bytes(t, c->bytes, c->nbytes));
      if (ct_dtype_size((ct_dtype)c->dtype) > 1) CHECK(!st_in_file(st, t)); /* misaligned: copied */
      else CHECK(st_in_file(st, t));
    }
    ct_release(t);
  }
  CHECK(ct_safetensors_metadata_count(st) == 1);
  CHECK(!strcmp(ct_safetensors_metadata(st, "writer"), st_unaligned_meta[0].value));
  ct_safetensors_close(st);
}

/* the tensors of expected_c.safetensors (gen_safetensors_fixtures.py's expected_c) */
#define ST_EXPECTED_N 10
static void st_expected_tensors(ct_tensor **t) {
  static const float w[6] = {-1, -0.5f, 0, 0.5f, 1, 1.5f};
  static const double bias[3] = {0.25, -0.5, 1};
  static const int64_t step = 1000000007;
  static const int32_t ids[4] = {-2, -1, 0, INT32_MAX};
  static const uint8_t pixels[4] = {0, 255, 17, 3};
  static const bool mask[3] = {true, false, true};
  uint16_t half[2], brain[2];
  half[0] = ct_f32_to_f16(0.5f), half[1] = ct_f32_to_f16(-2.0f);
  brain[0] = ct_f32_to_bf16(1.0f), brain[1] = ct_f32_to_bf16(-0.5f);
  t[0] = ct_from_array(CT_DIMS(2, 3), CT_F32, w);
  t[1] = ct_t(t[0]); /* non-contiguous */
  t[2] = ct_from_array(CT_DIMS(3), CT_F64, bias);
  t[3] = ct_from_array(0, NULL, CT_I64, &step);
  t[4] = ct_from_array(CT_DIMS(4), CT_I32, ids);
  t[5] = ct_from_array(CT_DIMS(2), CT_F16, half);
  t[6] = ct_from_array(CT_DIMS(2), CT_BF16, brain);
  t[7] = ct_from_array(CT_DIMS(2, 2), CT_U8, pixels);
  t[8] = ct_from_array(CT_DIMS(3), CT_BOOL, mask);
  t[9] = ct_zeros(CT_DIMS(0), CT_F32);
}
static const char *const st_expected_names[ST_EXPECTED_N] = {"weight", "weight_t", "bias", "step", "ids",
                                                             "half", "brain", "pixels", "mask", "none"};

/* C -> Python: ct_safetensors_save writes what the reference library writes */
TEST(safetensors_save_matches_python_bytes) {
  const char *keys[2] = {"format", "b"}, *values[2] = {"pt", "x\"y\\z\n\t\001\303\251"};
  ct_tensor *t[ST_EXPECTED_N];
  size_t want_len = 0, got_len = 0;
  unsigned char *want = st_read_file(ST_FIXTURES "expected_c.safetensors", &want_len), *got;
  void *buf = NULL;
  size_t len = 0;
  char path[128];
  int i;
  CHECK(want != NULL);
  st_expected_tensors(t);
  CHECK_OK(ct_safetensors_save_buffer(ST_EXPECTED_N, st_expected_names, t, 2, keys, values, &buf, &len));
  CHECK(want && buf && len == want_len && memcmp(buf, want, len) == 0);
  ct_safetensors_free_buffer(buf);
  st_tmp(path, sizeof path, "expected_c");
  CHECK_OK(ct_safetensors_save(path, ST_EXPECTED_N, st_expected_names, t, 2, keys, values));
  got = st_read_file(path, &got_len);
  CHECK(want && got && got_len == want_len && memcmp(got, want, got_len) == 0);
  free(got);
  remove(path);
  if (getenv("CT_TEST_SAFETENSORS_OUT")) /* for tests/gen_safetensors_fixtures.py --check */
    CHECK_OK(ct_safetensors_save(getenv("CT_TEST_SAFETENSORS_OUT"), ST_EXPECTED_N, st_expected_names, t, 2, keys, values));
  free(want);
  for (i = 0; i < ST_EXPECTED_N; i++) ct_release(t[i]);
}

/* the reference library's own test vectors (safetensors/src/tensor.rs) */
TEST(safetensors_save_matches_reference_vectors) {
  static const float v[6] = {0, 1, 2, 3, 4, 5};
  static const char attn[] = "{\"attn.0\":{\"dtype\":\"F32\",\"shape\":[1,2,3],\"data_offsets\":[0,24]}}";
  static const char attn0[] = "{\"attn0\":{\"dtype\":\"F32\",\"shape\":[1,1,2,3],\"data_offsets\":[0,24]}}       ";
  static const char empty[] = "{}      ";
  static const char framework[] = "{\"__metadata__\":{\"framework\":\"pt\"}}     ";
  const char *names[1] = {"attn.0"}, *names0[1] = {"attn0"}, *k[1] = {"framework"}, *val[1] = {"pt"};
  ct_tensor *a = ct_from_array(CT_DIMS(1, 2, 3), CT_F32, v), *a0 = ct_from_array(CT_DIMS(1, 1, 2, 3), CT_F32, v);
  unsigned char want[128];
  void *buf;
  size_t len, n;
  {  /* (64 bytes of header: no padding) */
    unsigned char *b = st_build(attn, sizeof attn - 1, 0, &len);
    if (b) memcpy(want, b, len), free(b);
    memcpy(want + len, v, 24);
    n = len + 24;
  }
  CHECK_OK(ct_safetensors_save_buffer(1, names, &a, 0, NULL, NULL, &buf, &len));
  CHECK(len == n && want[0] == 64 && memcmp(buf, want, n) == 0);
  ct_safetensors_free_buffer(buf);
  {
    unsigned char *b = st_build(attn0, sizeof attn0 - 1, 0, &len);
    if (b) memcpy(want, b, len), free(b);
    memcpy(want + len, v, 24);
    n = len + 24;
  }
  CHECK_OK(ct_safetensors_save_buffer(1, names0, &a0, 0, NULL, NULL, &buf, &len));
  CHECK(len == n && want[0] == 72 && memcmp(buf, want, n) == 0);
  ct_safetensors_free_buffer(buf);
  {
    unsigned char *b = st_build(empty, 8, 0, &n);
    CHECK_OK(ct_safetensors_save_buffer(0, NULL, NULL, 0, NULL, NULL, &buf, &len));
    CHECK(b && len == n && memcmp(buf, b, n) == 0);
    free(b), ct_safetensors_free_buffer(buf);
    b = st_build(framework, 40, 0, &n);
    CHECK_OK(ct_safetensors_save_buffer(0, NULL, NULL, 1, k, val, &buf, &len));
    CHECK(b && len == n && memcmp(buf, b, n) == 0);
    free(b), ct_safetensors_free_buffer(buf);
  }
  ct_release(a), ct_release(a0);
}

/* zero-copy: the same bytes for two gets; writes stay in the process; the
 * mapping lives until the last tensor (or view) dies */
TEST(safetensors_zero_copy_lifetime) {
  ct_tensor *t[ST_EXPECTED_N], *a, *b, *view;
  int i, live0 = ct__atomic_load(&ct__st_live_buffers);
  char path[128];
  ct_safetensors *st;
  st_expected_tensors(t);
  st_tmp(path, sizeof path, "lifetime");
  CHECK_OK(ct_safetensors_save(path, ST_EXPECTED_N, st_expected_names, t, 0, NULL, NULL));
  for (i = 0; i < ST_EXPECTED_N; i++) ct_release(t[i]);
  st = ct_safetensors_open(path);
  CHECK(st != NULL);
  if (!st) return;
  a = ct_safetensors_get(st, "weight");
  b = ct_safetensors_get(st, "weight");
  CHECK(a && b && a != b && ct_data_ptr(a) == ct_data_ptr(b) && st_in_file(st, a));
  CHECK_OK(ct_set(a, 0, 42));
  CHECK(ct_get(b, 0) == 42); /* the same bytes: documented */
  view = ct_slice(b, 1, 1, 3, 1);
  ct_release(a), ct_release(b);
  ct_safetensors_close(st);
  CHECK(ct__atomic_load(&ct__st_live_buffers) == live0 + 1); /* the view holds the mapping */
  CHECK(ct_get(view, 0) == -0.5 && ct_get(view, 3) == 1.5);
  ct_release(view);
  CHECK(ct__atomic_load(&ct__st_live_buffers) == live0);
  st = ct_safetensors_open(path); /* the write never reached the file */
  a = ct_safetensors_get(st, "weight");
  CHECK(a && ct_get(a, 0) == -1);
  ct_safetensors_close(st);
  CHECK(ct__atomic_load(&ct__st_live_buffers) == live0 + 1);
  ct_release(a);
  CHECK(ct__atomic_load(&ct__st_live_buffers) == live0);
  /* a tensor got inside a scope is the scope's */
  st = ct_safetensors_open(path);
  CT_SCOPE { CHECK(ct_safetensors_get(st, "bias") != NULL); }
  /* saving over the mapped file, from its own mapped tensors: the new file
   * replaces the old one whole, the mapping keeps the old bytes */
  {
    const char *one[1] = {"bias2"};
    ct_safetensors *again;
    ct_tensor *w2;
    a = ct_safetensors_get(st, "bias");
    ct_safetensors_close(st);
    CHECK_OK(ct_safetensors_save(path, 1, one, &a, 0, NULL, NULL));
    CHECK(ct_get(a, 0) == 0.25 && ct_get(a, 2) == 1);
    again = ct_safetensors_open(path);
    CHECK(again && ct_safetensors_count(again) == 1);
    w2 = ct_safetensors_get(again, "bias2");
    CHECK(w2 && st_same_tensor(w2, a));
    ct_release(w2), ct_release(a);
    ct_safetensors_close(again);
  }
  CHECK(ct__atomic_load(&ct__st_live_buffers) == live0);
  remove(path);
}

static int st_deleter_calls;
static void st_count_deleter(void *data, void *ctx) {
  (void)ctx;
  st_deleter_calls++;
  free(data);
}

/* ct_safetensors_from_memory borrows: zero-copy into the caller's bytes, the
 * deleter once at the end, never on failure */
TEST(safetensors_from_memory_borrows) {
  ct_tensor *t[ST_EXPECTED_N], *w;
  void *buf;
  size_t len;
  int i;
  ct_safetensors *st;
  st_expected_tensors(t);
  CHECK_OK(ct_safetensors_save_buffer(ST_EXPECTED_N, st_expected_names, t, 0, NULL, NULL, &buf, &len));
  for (i = 0; i < ST_EXPECTED_N; i++) ct_release(t[i]);
  {
    void *mine = malloc(len); /* (the deleter frees with free) */
    memcpy(mine, buf, len);
    ct_safetensors_free_buffer(buf);
    st_deleter_calls = 0;
    st = ct_safetensors_from_memory(mine, len, st_count_deleter, NULL);
    CHECK(st != NULL);
    w = ct_safetensors_get(st, "ids");
    CHECK(w && (const char *)ct_data_ptr(w) > (const char *)mine && (const char *)ct_data_ptr(w) < (const char *)mine + len);
    ct_safetensors_close(st);
    CHECK(st_deleter_calls == 0);
    CHECK(ct_get_int(w, 3) == INT32_MAX);
    ct_release(w);
    CHECK(st_deleter_calls == 1);
  }
  {
    unsigned char *bad = (unsigned char *)malloc(4);
    memset(bad, 0, 4);
    CHECK_ERR(ct_safetensors_from_memory(bad, 4, st_count_deleter, NULL), CT_ERR_INVALID, "too short");
    CHECK(st_deleter_calls == 1);
    free(bad);
  }
  CHECK_ERR(ct_safetensors_from_memory(NULL, 3, NULL, NULL), CT_ERR_NULL, "data");
  CHECK_ERR(ct_safetensors_from_buffer(NULL, 3), CT_ERR_NULL, "data");
}

/* load_state_dict: strict and not, missing / unexpected, shape and dtype
 * checks before any copy, parameters that require grad, non-contiguous and
 * device destinations */
TEST(safetensors_load_into_state_dict) {
  static const float w[6] = {1, 2, 3, 4, 5, 6}, b[2] = {-1, -2};
  static const int64_t steps = 7;
  const char *names[3] = {"w", "b", "steps"};
  ct_tensor *src[3], *dst[4], *wt_base, *slice_base;
  bool missing[4], unexpected[3];
  void *buf;
  size_t len;
  ct_safetensors *st;
  int i;
  tdev_init();
  src[0] = ct_from_array(CT_DIMS(2, 3), CT_F32, w);
  src[1] = ct_from_array(CT_DIMS(2), CT_F32, b);
  src[2] = ct_from_array(0, NULL, CT_I64, &steps);
  CHECK_OK(ct_safetensors_save_buffer(3, names, src, 0, NULL, NULL, &buf, &len));
  st = ct_safetensors_from_buffer(buf, len);
  ct_safetensors_free_buffer(buf);
  CHECK(st != NULL);
  if (!st) return;
  dst[0] = ct_zeros(CT_DIMS(2, 3), CT_F32);
  CHECK_OK(ct_set_requires_grad(dst[0], true));
  wt_base = ct_zeros(CT_DIMS(3, 2), CT_F32);
  slice_base = ct_zeros(CT_DIMS(4), CT_F32);
  dst[1] = ct_slice(slice_base, 0, 0, 4, 2); /* non-contiguous */
  dst[2] = ct_empty_opts(0, NULL, ct_opts(CT_I64, TDEV(0)));    /* on a device */
  dst[3] = ct_zeros(CT_DIMS(1), CT_F32);
  /* strict, exact match */
  {
    const char *n3[3] = {"steps", "w", "b"};
    ct_tensor *d3[3];
    d3[0] = dst[2], d3[1] = dst[0], d3[2] = dst[1];
    CHECK_OK(ct_safetensors_load_into(st, 3, n3, d3, true, missing, unexpected));
    CHECK(!missing[0] && !missing[1] && !missing[2] && !unexpected[0] && !unexpected[1] && !unexpected[2]);
    CHECK(st_same_tensor(dst[0], src[0]) && ct_requires_grad(dst[0]) && ct_is_leaf(dst[0]));
    CHECK(ct_get(dst[1], 0) == -1 && ct_get(dst[1], 1) == -2);
    CHECK(ct_get_int(dst[2], 0) == 7);
  }
  /* strict with a missing and an unexpected name: refused, nothing copied */
  {
    const char *n2[2] = {"w", "extra"};
    ct_tensor *d2[2];
    d2[0] = wt_base, d2[1] = dst[3];
    CHECK_ERR(ct_safetensors_load_into(st, 2, n2, d2, true, missing, unexpected), CT_ERR_INVALID,
              "Error(s) in loading state_dict: Missing key(s) in state_dict: \"extra\". Unexpected key(s) in state_dict: \"b\", \"steps\".");
    CHECK(!missing[0] && missing[1]);
    CHECK(unexpected[0] && unexpected[1] && !unexpected[2]); /* file order: b, steps, w */
    CHECK(ct_get(dst[3], 0) == 0);
    /* non-strict: the same call loads what matches... but w has the wrong shape here */
    CHECK_ERR(ct_safetensors_load_into(st, 2, n2, d2, false, missing, unexpected), CT_ERR_SHAPE,
              "size mismatch for w: copying a param with shape [2, 3] from checkpoint, the shape in current model is [3, 2].");
    CHECK(ct_get(wt_base, 0) == 0);
  }
  /* non-strict: only matching names, flags filled */
  {
    const char *n2[2] = {"w", "nothere"};
    ct_tensor *d2[2];
    ct_tensor *fresh = ct_zeros(CT_DIMS(2, 3), CT_F32);
    d2[0] = fresh, d2[1] = dst[3];
    CHECK_OK(ct_safetensors_load_into(st, 2, n2, d2, false, missing, unexpected));
    CHECK(!missing[0] && missing[1] && unexpected[0] && unexpected[1] && !unexpected[2]);
    CHECK(st_same_tensor(fresh, src[0]) && ct_get(dst[3], 0) == 0);
    CHECK_OK(ct_safetensors_load_into(st, 2, n2, d2, false, NULL, NULL));
    ct_release(fresh);
  }
  /* dtype mismatch, checked before the first copy */
  {
    const char *n2[2] = {"b", "steps"};
    ct_tensor *d2[2], *f = ct_zeros(CT_DIMS(2), CT_F32), *wrong = ct_zeros(0, NULL, CT_F64);
    d2[0] = f, d2[1] = wrong;
    CHECK_ERR(ct_safetensors_load_into(st, 2, n2, d2, false, NULL, NULL), CT_ERR_DTYPE,
              "dtype mismatch for steps: the checkpoint has I64 (int64), the tensor is float64");
    CHECK(ct_get(f, 0) == 0); /* b was not copied either */
    ct_release(f), ct_release(wrong);
  }
  CHECK_ERR(ct_safetensors_load_into(st, 1, names, NULL, true, NULL, NULL), CT_ERR_INVALID, "1 tensors");
  {
    ct_tensor *none[1] = {NULL};
    CHECK_ERR(ct_safetensors_load_into(st, 1, names, none, true, NULL, NULL), CT_ERR_NULL, "tensors[0] ('w') is NULL");
  }
  CHECK_ERR(ct_safetensors_load_into(NULL, 0, NULL, NULL, true, NULL, NULL), CT_ERR_NULL, "st");
  ct_safetensors_close(st);
  for (i = 0; i < 3; i++) ct_release(src[i]);
  for (i = 0; i < 4; i++) ct_release(dst[i]);
  ct_release(wt_base), ct_release(slice_base);
}

/* saving: device tensors are copied to the host, bad arguments refused
 * before anything is written */
TEST(safetensors_save_devices_and_errors) {
  static const float v[4] = {1, 2, 3, 4};
  ct_tensor *cpu = ct_from_array(CT_DIMS(2, 2), CT_F32, v), *on_dev, *dev, *meta, *g;
  const char *one[1] = {"x"}, *two[2] = {"x", "x"}, *reserved[1] = {"__metadata__"}, *badutf[1] = {"\xff"};
  const char *k2[2] = {"k", "k"}, *v2[2] = {"a", "b"}, *kbad[1] = {"k"}, *vbad[1] = {"\xc0\xaf"};
  ct_tensor *pair[2];
  void *buf = NULL;
  size_t len = 0;
  ct_safetensors *st;
  char path[128];
  FILE *f;
  tdev_init();
  on_dev = ct_to_device(cpu, TDEV(1));
  dev = ct_t(on_dev); /* on a device and non-contiguous */
  CHECK_OK(ct_safetensors_save_buffer(1, one, &dev, 0, NULL, NULL, &buf, &len));
  st = ct_safetensors_from_buffer(buf, len);
  ct_safetensors_free_buffer(buf);
  g = ct_safetensors_get(st, "x");
  CHECK(g && g->device.type == CT_DEVICE_CPU && ct_get(g, 1) == 3 && ct_get(g, 2) == 2);
  ct_release(g);
  ct_safetensors_close(st);
  meta = ct_empty_opts(CT_DIMS(2), ct_opts(CT_F32, CT_META));
  CHECK_ERR(ct_safetensors_save_buffer(1, one, &meta, 0, NULL, NULL, &buf, &len), CT_ERR_DEVICE, "meta device");
  CHECK(buf == NULL && len == 0);
  pair[0] = cpu, pair[1] = cpu;
  CHECK_ERR(ct_safetensors_save_buffer(2, two, pair, 0, NULL, NULL, &buf, &len), CT_ERR_INVALID, "tensor name 'x' appears twice");
  CHECK_ERR(ct_safetensors_save_buffer(1, reserved, &cpu, 0, NULL, NULL, &buf, &len), CT_ERR_INVALID, "reserved");
  CHECK_ERR(ct_safetensors_save_buffer(1, badutf, &cpu, 0, NULL, NULL, &buf, &len), CT_ERR_INVALID, "not valid UTF-8");
  CHECK_ERR(ct_safetensors_save_buffer(1, one, &cpu, 2, k2, v2, &buf, &len), CT_ERR_INVALID, "metadata key 'k' appears twice");
  CHECK_ERR(ct_safetensors_save_buffer(1, one, &cpu, 1, kbad, vbad, &buf, &len), CT_ERR_INVALID, "not valid UTF-8");
  CHECK_ERR(ct_safetensors_save_buffer(-1, one, &cpu, 0, NULL, NULL, &buf, &len), CT_ERR_INVALID, "-1 tensors");
  CHECK_ERR(ct_safetensors_save_buffer(1, one, &cpu, 1, NULL, NULL, &buf, &len), CT_ERR_INVALID, "metadata");
  pair[1] = NULL;
  CHECK_ERR(ct_safetensors_save_buffer(2, v2, pair, 0, NULL, NULL, &buf, &len), CT_ERR_NULL, "tensors[1] ('b') is NULL");
  CHECK_ERR(ct_safetensors_save_buffer(1, one, &cpu, 0, NULL, NULL, NULL, &len), CT_ERR_NULL, "data");
  /* a refused save leaves an existing file alone */
  st_tmp(path, sizeof path, "refused");
  f = fopen(path, "wb");
  if (f) fputs("keep", f), fclose(f);
  CHECK_ERR(ct_safetensors_save(path, 1, one, &meta, 0, NULL, NULL), CT_ERR_DEVICE, "meta device");
  {
    size_t n;
    unsigned char *b = st_read_file(path, &n);
    CHECK(b && n == 4 && !memcmp(b, "keep", 4));
    free(b);
  }
  remove(path);
  CHECK_ERR(ct_safetensors_save("build/no/such/dir/x.safetensors", 1, one, &cpu, 0, NULL, NULL), CT_ERR_INVALID, "cannot create");
  CHECK_ERR(ct_safetensors_save(NULL, 1, one, &cpu, 0, NULL, NULL), CT_ERR_NULL, "path");
  ct_release(cpu), ct_release(on_dev), ct_release(dev), ct_release(meta);
}

TEST(safetensors_open_errors) {
  CHECK_ERR(ct_safetensors_open("tests/fixtures/safetensors/no_such_file.safetensors"), CT_ERR_INVALID,
            "cannot open 'tests/fixtures/safetensors/no_such_file.safetensors'");
  CHECK_ERR(ct_safetensors_open("tests/fixtures"), CT_ERR_INVALID, "tests/fixtures");
  CHECK_ERR(ct_safetensors_open(NULL), CT_ERR_NULL, "path");
  CHECK_ERR(ct_safetensors_get(NULL, "x"), CT_ERR_NULL, "st");
  CHECK(ct_safetensors_count(NULL) == 0 && ct_safetensors_name(NULL, 0) == NULL && ct_safetensors_find(NULL, "x") == -1);
  CHECK(ct_safetensors_metadata(NULL, "x") == NULL && !ct_safetensors_is_mapped(NULL));
  ct_safetensors_close(NULL);
  { /* an empty file: too short (not mappable: read instead) */
    char path[128];
    FILE *f = fopen(st_tmp(path, sizeof path, "empty"), "wb");
    if (f) fclose(f);
    CHECK_ERR(ct_safetensors_open(path), CT_ERR_INVALID, "0 bytes, too short");
    remove(path);
  }
  {
    size_t len;
    unsigned char *b = st_build("{\"a\":{\"dtype\":\"U8\",\"shape\":[2],\"data_offsets\":[0,2]}}", 53, 2, &len);
    ct_safetensors *st = ct_safetensors_from_buffer(b, len);
    ct_safetensors_info info;
    free(b);
    CHECK(st != NULL);
    CHECK_ERR(ct_safetensors_get(st, "b"), CT_ERR_INVALID, "no tensor named 'b' in the file (1 tensors)");
    CHECK_ERR(ct_safetensors_get(st, NULL), CT_ERR_NULL, "name");
    CHECK_ERR(ct_safetensors_tensor_info(st, 1, &info), CT_ERR_INDEX, "index 1 out of range");
    CHECK_ERR(ct_safetensors_tensor_info(st, 0, NULL), CT_ERR_NULL, "out");
    ct_safetensors_close(st);
  }
}

/* the 8-byte prefix */
TEST(safetensors_malformed_prefix) {
  static const unsigned char ok[16] = {8, 0, 0, 0, 0, 0, 0, 0, '{', '}', ' ', ' ', ' ', ' ', ' ', ' '};
  unsigned char b[16];
  ct_safetensors *st;
  size_t n;
  for (n = 0; n < 8; n++) CHECK_ERR(ct_safetensors_from_buffer(ok, n), CT_ERR_INVALID, "too short for the 8-byte header length");
  for (n = 8; n < 16; n++) CHECK_ERR(ct_safetensors_from_buffer(ok, n), CT_ERR_INVALID, "runs past the end");
  st = ct_safetensors_from_buffer(ok, 16);
  CHECK(st && ct_safetensors_count(st) == 0);
  ct_safetensors_close(st);
  memcpy(b, ok, 16);
  b[0] = 0, b[1] = 0xE1, b[2] = 0xF5, b[3] = 0x05; /* 100,000,000: the limit itself, past this end */
  CHECK_ERR(ct_safetensors_from_buffer(b, 16), CT_ERR_INVALID, "header length 100000000 runs past the end of the 16-byte file");
  b[0] = 1; /* 100,000,001 */
  CHECK_ERR(ct_safetensors_from_buffer(b, 16), CT_ERR_INVALID, "header length 100000001 exceeds the limit of 100000000 bytes");
  memset(b, 0xFF, 8);
  CHECK_ERR(ct_safetensors_from_buffer(b, 16), CT_ERR_INVALID, "header length 18446744073709551615 exceeds");
  memset(b, 0, 8); /* an empty header: not an object */
  CHECK_ERR(ct_safetensors_from_buffer(b, 16), CT_ERR_INVALID, "starting with '{'");
}

typedef struct st_bad {
  const char *header;
  size_t data;
  ct_status code;
  const char *needle;
} st_bad;

/* every malformed header: a clear error, nothing leaked (the harness checks
 * tensors; ASan and valgrind check the rest) */
TEST(safetensors_malformed_headers) {
#define E(dt, shape, off) "{\"dtype\":\"" dt "\",\"shape\":" shape ",\"data_offsets\":" off "}"
  static const st_bad cases[] = {
      /* JSON syntax */
      {"{\"a\":" E("F32", "[1]", "[0,4]"), 4, CT_ERR_INVALID, "the JSON ends where '}' was expected"},
      {"{} x", 0, CT_ERR_INVALID, "trailing characters after the header object"},
      {"{}{}", 0, CT_ERR_INVALID, "trailing characters"},
      {"{\"a\" 1}", 0, CT_ERR_INVALID, "expected ':' after a key, found '1'"},
      {"{\"a", 0, CT_ERR_INVALID, "unterminated string"},
      {"{\"a\\", 0, CT_ERR_INVALID, "unterminated string"},
      {"{\"a\\x\":1}", 0, CT_ERR_INVALID, "invalid escape '\\x'"},
      {"{\"\\u12G4\":1}", 0, CT_ERR_INVALID, "\\u must be followed by 4 hex digits"},
      {"{\"\\u12\":1}", 0, CT_ERR_INVALID, "\\u must be followed by 4 hex digits"},
      {"{\"\\ud800\":1}", 0, CT_ERR_INVALID, "high surrogate \\ud800 without a low surrogate"},
      {"{\"\\ud800\\u0041\":1}", 0, CT_ERR_INVALID, "without a low surrogate"},
      {"{\"\\udc00\":1}", 0, CT_ERR_INVALID, "lone low surrogate \\udc00"},
      {"{\"a\\u0000b\":1}", 0, CT_ERR_INVALID, "cannot hold NUL characters"},
      {"{\"a\nb\":1}", 0, CT_ERR_INVALID, "control character 0x0a in a string"},
      {"{\"\xff\":1}", 0, CT_ERR_INVALID, "invalid UTF-8 at byte 2 of the JSON"},
      {"{\"\xc0\xaf\":1}", 0, CT_ERR_INVALID, "invalid UTF-8 at byte 2"},
      {"{\"\xed\xa0\x80\":1}", 0, CT_ERR_INVALID, "invalid UTF-8"},     /* an encoded surrogate */
      {"{\"\xf4\x90\x80\x80\":1}", 0, CT_ERR_INVALID, "invalid UTF-8"}, /* above U+10FFFF */
      {"{\"\xe2\x82\":1}", 0, CT_ERR_INVALID, "invalid UTF-8"},         /* truncated sequence */
      {"{\"a\":" E("F32", "[01]", "[0,4]") "}", 4, CT_ERR_INVALID, "a shape's size has a leading zero"},
      {"{\"a\":" E("F32", "[1.5]", "[0,4]") "}", 4, CT_ERR_INVALID, "a shape's size must be an integer, not a fraction"},
      {"{\"a\":" E("F32", "[1e3]", "[0,4]") "}", 4, CT_ERR_INVALID, "not a fraction"},
      {"{\"a\":" E("F32", "[-1]", "[0,4]") "}", 4, CT_ERR_INVALID, "a shape's size must not be negative"},
      {"{\"a\":" E("F32", "[99999999999999999999]", "[0,4]") "}", 4, CT_ERR_INVALID, "does not fit in int64"},
      {"{\"a\":" E("F32", "[9223372036854775808]", "[0,4]") "}", 4, CT_ERR_INVALID, "does not fit in int64"},
      {"{\"a\":" E("F32", "[\"1\"]", "[0,4]") "}", 4, CT_ERR_INVALID, "a shape's size must be an integer"},
      {"{\"a\":" E("F32", "1", "[0,4]") "}", 4, CT_ERR_INVALID, "a shape's size must be an array of integers"},
      {"{\"a\":" E("F32", "[1,]", "[0,4]") "}", 4, CT_ERR_INVALID, "must be an integer"},
      {"{\"a\":" E("U8", "[1]", "[0,1]") ",}", 1, CT_ERR_INVALID, "expected a string"},
      {"{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1],\"x\":tru}}", 1, CT_ERR_INVALID, "invalid literal"},
      {"{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1],\"x\":-}}", 1, CT_ERR_INVALID, "expected a JSON value"},
      {"{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1],\"x\":1.}}", 1, CT_ERR_INVALID, "a digit must follow '.'"},
      {"{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1],\"x\":1e+}}", 1, CT_ERR_INVALID, "a digit must follow the exponent"},
      {"{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1],\"x\":[1 2]}}", 1, CT_ERR_INVALID, "or ',' in an array"},
      {"{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1],\"x\":{1:2}}}", 1, CT_ERR_INVALID, "expected a string"},
      /* not an object */
      {"[1,2]", 0, CT_ERR_INVALID, "the header must be a JSON object starting with '{'"},
      {"\"s\"", 0, CT_ERR_INVALID, "starting with '{'"},
      {"42", 0, CT_ERR_INVALID, "starting with '{'"},
      {" {}", 0, CT_ERR_INVALID, "starting with '{'"},
      {"", 0, CT_ERR_INVALID, "starting with '{'"},
      {"{\"a\":3}", 0, CT_ERR_INVALID, "tensor 'a': expected an object with dtype, shape and data_offsets"},
      {"{\"a\":[]}", 0, CT_ERR_INVALID, "expected an object"},
      /* missing or repeated fields */
      {"{\"a\":{\"shape\":[1],\"data_offsets\":[0,4]}}", 4, CT_ERR_INVALID, "tensor 'a': the entry has no dtype"},
      {"{\"a\":{\"dtype\":\"F32\",\"data_offsets\":[0,4]}}", 4, CT_ERR_INVALID, "the entry has no shape"},
      {"{\"a\":{\"dtype\":\"F32\",\"shape\":[1]}}", 4, CT_ERR_INVALID, "the entry has no data_offsets"},
      {"{\"a\":{}}", 0, CT_ERR_INVALID, "the entry has no dtype"},
      {"{\"a\":{\"dtype\":\"F32\",\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}", 4, CT_ERR_INVALID, "'dtype' appears twice"},
      {"{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"shape\":[1],\"data_offsets\":[0,4]}}", 4, CT_ERR_INVALID, "'shape' appears twice"},
      {"{\"a\":" E("U8", "[1]", "[0,1]") ",\"a\":" E("U8", "[1]", "[1,2]") "}", 2, CT_ERR_INVALID, "tensor name 'a' appears twice"},
      /* dtypes */
      {"{\"a\":" E("F31", "[1]", "[0,4]") "}", 4, CT_ERR_DTYPE, "tensor 'a': unknown dtype 'F31'"},
      {"{\"a\":" E("f32", "[1]", "[0,4]") "}", 4, CT_ERR_DTYPE, "unknown dtype 'f32'"},
      {"{\"a\":{\"dtype\":5,\"shape\":[1],\"data_offsets\":[0,4]}}", 4, CT_ERR_INVALID, "dtype must be a string"},
      {"{\"a\":" E("F4", "[3]", "[0,1]") "}", 1, CT_ERR_INVALID, "shape [3] of F4 is not a whole number of bytes"},
      /* shapes against sizes */
      {"{\"a\":" E("F32", "[2]", "[0,4]") "}", 4, CT_ERR_INVALID, "tensor 'a': shape [2] of F32 needs 8 bytes, its data_offsets [0, 4] hold 4"},
      {"{\"a\":" E("F32", "[]", "[0,0]") "}", 0, CT_ERR_INVALID, "shape [] of F32 needs 4 bytes"},
      {"{\"a\":" E("F32", "[4611686018427387904,4]", "[0,0]") "}", 0, CT_ERR_SIZE, "tensor 'a': shape [4611686018427387904, 4] of F32 overflows"},
      {"{\"a\":" E("F64", "[2305843009213693952]", "[0,0]") "}", 0, CT_ERR_SIZE, "overflows"},
      {"{\"a\":" E("U8", "[1,1,1,1,1,1,1,1,1]", "[0,1]") "}", 1, CT_ERR_RANK, "more than 8 dimensions"},
      /* offsets */
      {"{\"a\":" E("F32", "[1]", "[0,4]") "}", 0, CT_ERR_INVALID, "the tensors cover 4 bytes, the byte buffer has 0 (truncated file?)"},
      {"{\"a\":" E("F32", "[1]", "[0,4]") "}", 8, CT_ERR_INVALID, "the tensors cover 4 bytes, the byte buffer has 8"},
      {"{}", 3, CT_ERR_INVALID, "3 bytes of data after a header with no tensors"},
      {"{\"a\":" E("F32", "[2]", "[0,8]") ",\"b\":" E("F32", "[2]", "[4,12]") "}", 12, CT_ERR_INVALID, "tensor 'b': data_offsets [4, 12] overlap another tensor"},
      {"{\"a\":" E("F32", "[1]", "[0,4]") ",\"b\":" E("F32", "[1]", "[8,12]") "}", 12, CT_ERR_INVALID, "tensor 'b': data_offsets [8, 12] leave a gap"},
      {"{\"a\":" E("F32", "[1]", "[4,8]") "}", 8, CT_ERR_INVALID, "data_offsets [4, 8] leave a gap"},
      {"{\"a\":" E("U8", "[1]", "[0,1]") ",\"b\":" E("U8", "[1]", "[0,1]") "}", 2, CT_ERR_INVALID, "overlap another tensor"},
      {"{\"a\":" E("F32", "[1]", "[0]") "}", 4, CT_ERR_INVALID, "data_offsets must be [begin, end], got 1 numbers"},
      {"{\"a\":" E("F32", "[1]", "[0,4,8]") "}", 4, CT_ERR_INVALID, "data_offsets has more than 2 items"},
      {"{\"a\":" E("F32", "[0]", "[4,0]") "}", 4, CT_ERR_INVALID, "data_offsets [4, 0] end before they begin"},
      {"{\"a\":" E("F32", "[1]", "[0,-4]") "}", 4, CT_ERR_INVALID, "data_offsets must not be negative"},
      {"{\"a\":" E("F32", "[1]", "[0,18446744073709551620]") "}", 4, CT_ERR_INVALID, "does not fit in int64"},
      /* metadata */
      {"{\"__metadata__\":{\"k\":1}}", 0, CT_ERR_INVALID, "__metadata__ value of 'k' is not a string"},
      {"{\"__metadata__\":{\"k\":null}}", 0, CT_ERR_INVALID, "is not a string"},
      {"{\"__metadata__\":{\"k\":{\"x\":\"y\"}}}", 0, CT_ERR_INVALID, "is not a string"},
      {"{\"__metadata__\":[1]}", 0, CT_ERR_INVALID, "__metadata__ must be an object of strings"},
      {"{\"__metadata__\":\"x\"}", 0, CT_ERR_INVALID, "must be an object of strings"},
      {"{\"__metadata__\":{},\"__metadata__\":{}}", 0, CT_ERR_INVALID, "__metadata__ appears twice"},
      {"{\"__metadata__\":{\"k\":\"a\",\"k\":\"b\"}}", 0, CT_ERR_INVALID, "__metadata__ key 'k' appears twice"},
      {"{\"__metadata__\":{\"k\":\"a\\u0000\"}}", 0, CT_ERR_INVALID, "NUL"},
      {"{\"__metadata__\":{\"k\":\"a\"", 0, CT_ERR_INVALID, "the JSON ends"},
  };
#undef E
  size_t i;
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int opened;
    ct_clear_error();
    opened = st_try(cases[i].header, cases[i].data);
    if (opened || ct_last_error() != cases[i].code || !strstr(ct_last_error_message(), cases[i].needle))
      harness_fail(__FILE__, __LINE__, "case %d (%s): expected %s containing \"%s\", got %s \"%s\"", (int)i, cases[i].header,
                   ct_status_name(cases[i].code), cases[i].needle, opened ? "success" : ct_status_name(ct_last_error()),
                   ct_last_error_message());
  }
  ct_clear_error();
}

/* what the strict parser must still accept */
TEST(safetensors_accepts_valid_variants) {
  char deep[600];
  size_t i, n = 0;
  ct_safetensors *st;
  /* nesting: 61 arrays in an unknown field (64 levels with the header object, the entry and the field) is fine, more is refused */
  n += (size_t)snprintf(deep + n, sizeof deep - n, "{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1],\"x\":");
  for (i = 0; i < 61; i++) deep[n++] = '[';
  for (i = 0; i < 61; i++) deep[n++] = ']';
  memcpy(deep + n, "}}", 3);
  CHECK(st_try(deep, 1));
  n = (size_t)snprintf(deep, sizeof deep, "{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1],\"x\":");
  for (i = 0; i < 200; i++) deep[n++] = '[';
  for (i = 0; i < 200; i++) deep[n++] = ']';
  memcpy(deep + n, "}}", 3);
  CHECK_ERR(st_try(deep, 1), CT_ERR_INVALID, "nested deeper than 64 levels");
  CHECK(st_try("{}", 0));
  CHECK(st_try("{ } \t\r\n ", 0));
  CHECK(st_try("{\"__metadata__\":null}", 0));
  CHECK(st_try("{\"__metadata__\":{}}", 0));
  CHECK(st_try("{ \"a\" : { \"data_offsets\" : [ 0 , 2 ] , \"shape\" : [ 2 ] , \"dtype\" : \"U8\" , \"x\" : {\"y\":[true,false,null,-0.5e-3,0,1E+2,\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\"]} } }", 2));
  /* zero-size tensors anywhere; a zero in the shape makes any other size fine */
  {
    static const char h[] = "{\"e\":{\"dtype\":\"F64\",\"shape\":[0,9223372036854775807,9223372036854775807],\"data_offsets\":[0,0]},"
                            "\"z\":{\"dtype\":\"F32\",\"shape\":[3,0],\"data_offsets\":[0,0]},"
                            "\"a\":{\"dtype\":\"U8\",\"shape\":[2],\"data_offsets\":[0,2]},"
                            "\"y\":{\"dtype\":\"I32\",\"shape\":[0],\"data_offsets\":[2,2]},"
                            "\"i\":{\"dtype\":\"I16\",\"shape\":[1],\"data_offsets\":[2,4]},"
                            "\"f4\":{\"dtype\":\"F4\",\"shape\":[2,3],\"data_offsets\":[4,7]}}";
    unsigned char *b = st_build(h, sizeof h - 1, 7, &n);
    ct_tensor *e, *a;
    st = ct_safetensors_from_buffer(b, n);
    free(b);
    CHECK(st != NULL && ct_safetensors_count(st) == 6);
    e = ct_safetensors_get(st, "e");
    CHECK(e && e->numel == 0 && e->sizes[1] == INT64_MAX && e->dtype == CT_F64);
    a = ct_safetensors_get(st, "a");
    CHECK(a && ct_get(a, 0) == 0 && ct_get(a, 1) == 1);
    CHECK_ERR(ct_safetensors_get(st, "i"), CT_ERR_DTYPE, "I16");
    CHECK_ERR(ct_safetensors_get(st, "f4"), CT_ERR_DTYPE, "tensor 'f4' is F4, which has no ctorch dtype");
    ct_release(e), ct_release(a);
    ct_safetensors_close(st);
  }
  /* names with escapes decode to UTF-8; the file order is by offset, the names' order is by bytes */
  {
    static const char h[] = "{\"\\u00e9\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]},"
                            "\"\\ud83d\\ude00\\n\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[1,2]},"
                            "\"B\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[2,3]}}";
    unsigned char *b = st_build(h, sizeof h - 1, 3, &n);
    ct_tensor *t;
    st = ct_safetensors_from_buffer(b, n);
    free(b);
    CHECK(st && ct_safetensors_count(st) == 3);
    CHECK(!strcmp(ct_safetensors_name(st, 0), "B") && !strcmp(ct_safetensors_name(st, 1), "\303\251") &&
          !strcmp(ct_safetensors_name(st, 2), "\360\237\230\200\n"));
    t = ct_safetensors_get(st, "\360\237\230\200\n");
    CHECK(t && ct_get(t, 0) == 1);
    ct_release(t);
    ct_safetensors_close(st);
  }
}

/* every truncation of a valid file fails; every byte changed three ways
 * either loads (and every tensor can be taken) or fails with a message */
TEST(safetensors_truncations_and_corruptions) {
  ct_tensor *t[ST_EXPECTED_N];
  const char *keys[1] = {"k"}, *values[1] = {"v"};
  unsigned char *file, *b;
  void *buf;
  size_t len, i, v;
  int k, loaded = 0, refused = 0;
  st_expected_tensors(t);
  CHECK_OK(ct_safetensors_save_buffer(ST_EXPECTED_N, st_expected_names, t, 1, keys, values, &buf, &len));
  for (k = 0; k < ST_EXPECTED_N; k++) ct_release(t[k]);
  file = (unsigned char *)buf;
  for (i = 0; i < len; i++) {
    ct_safetensors *st;
    ct_clear_error();
    st = ct_safetensors_from_buffer(file, i);
    CHECK(st == NULL && ct_last_error() != CT_OK && ct_last_error_message()[0]);
    ct_safetensors_close(st);
  }
  b = (unsigned char *)malloc(len);
  for (i = 0; b && i < len; i++) {
    for (v = 0; v < 3; v++) {
      ct_safetensors *st;
      memcpy(b, file, len);
      b[i] = v == 0 ? 0 : v == 1 ? 0xFF : (unsigned char)(b[i] ^ 0x01);
      ct_clear_error();
      st = ct_safetensors_from_buffer(b, len);
      if (!st) {
        CHECK(ct_last_error() != CT_OK && ct_last_error_message()[0]);
        refused++;
        continue;
      }
      loaded++;
      for (k = 0; k < ct_safetensors_count(st); k++) {
        ct_tensor *x = ct_safetensors_get(st, ct_safetensors_name(st, k));
        if (x) {
          ct_tensor *s = ct_to_dtype(x, CT_F64); /* read every element */
          ct_release(s);
        }
        ct_release(x);
      }
      ct_safetensors_close(st);
    }
  }
  ct_clear_error();
  CHECK(loaded > 0 && refused > 0);
  free(b);
  ct_safetensors_free_buffer(buf);
}
