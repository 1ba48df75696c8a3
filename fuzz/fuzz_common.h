/* fuzz/fuzz_common.h - shared by ctorch's fuzzers (see fuzz/README.md).
 *
 * Include this BEFORE ctorch.h in a fuzzer's translation unit: it installs
 * CT_MALLOC / CT_REALLOC / CT_FREE wrappers that refuse requests above
 * FZ_ALLOC_LIMIT (returning NULL, which ctorch must turn into CT_ERR_OOM).
 * Why: a program may legitimately ask for a tensor of 2^40 elements; a
 * real allocation of that size would trip libFuzzer's malloc limit (a false
 * "OOM" finding) or make runs slow. Refusing it instead exercises ctorch's
 * out-of-memory paths, which must clean up and report an error.
 *
 * Also: a byte reader (reads past the end give zeros, so every input is a
 * valid program), tables of interesting values, and a standalone main()
 * (build with -DFZ_STANDALONE) that runs files through the fuzzer entry
 * point without libFuzzer, for reproducing with any compiler.
 */
#ifndef FZ_COMMON_H
#define FZ_COMMON_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define FZ_UNUSED __attribute__((unused))
#else
#define FZ_UNUSED
#endif

#ifndef FZ_ALLOC_LIMIT
#define FZ_ALLOC_LIMIT ((size_t)64 << 20) /* 64 MiB per allocation */
#endif

static FZ_UNUSED void *fz_malloc(size_t n) { return n > FZ_ALLOC_LIMIT ? NULL : malloc(n); }
static FZ_UNUSED void *fz_realloc(void *p, size_t n) { return n > FZ_ALLOC_LIMIT ? NULL : realloc(p, n); }
#ifndef FZ_NO_ALLOC_WRAP
#define CT_MALLOC(n) fz_malloc(n)
#define CT_REALLOC(p, n) fz_realloc((p), (n))
#define CT_FREE(p) free(p)
#endif

/* ---- input bytes ---- */
typedef struct fz_in {
  const uint8_t *p;
  size_t n, i;
} fz_in;

static FZ_UNUSED unsigned fz_u8(fz_in *in) { return in->i < in->n ? in->p[in->i++] : 0u; }
static FZ_UNUSED unsigned fz_u16(fz_in *in) { return fz_u8(in) | (fz_u8(in) << 8); }
static FZ_UNUSED uint32_t fz_u32(fz_in *in) { return (uint32_t)fz_u16(in) | ((uint32_t)fz_u16(in) << 16); }
static FZ_UNUSED int fz_more(const fz_in *in) { return in->i < in->n; }
/* a choice among n (n >= 1) */
static FZ_UNUSED unsigned fz_pick(fz_in *in, unsigned n) { return n ? fz_u8(in) % n : 0; }
static FZ_UNUSED int fz_bit(fz_in *in) { return fz_u8(in) & 1; }

/* ---- a small PRNG for bulk data (seeded from the input: deterministic) ---- */
static uint64_t fz_rng_state = 1;
static FZ_UNUSED void fz_seed(uint64_t s) { fz_rng_state = s * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull; }
static FZ_UNUSED uint64_t fz_rand(void) {
  uint64_t x = fz_rng_state;
  x ^= x << 13, x ^= x >> 7, x ^= x << 17;
  return fz_rng_state = x;
}
static FZ_UNUSED double fz_unit(void) { return (double)(fz_rand() >> 11) / 9007199254740992.0; } /* [0, 1) */

/* ---- interesting values ---- */
static const double fz_doubles[] = {
    0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, 7.0, 1e-3, 100.0, 255.0, 256.0, -129.0, 127.5, 65504.0, 70000.0,
    1e10, 1e20, 3.4e38, 1e300, -1e300, INFINITY, -INFINITY, NAN, 5e-324, 1e-40, 2147483647.0, 2147483648.0,
    9.2e18, 9.3e18, -9.3e18, -1e-7};
#define FZ_NDOUBLES ((unsigned)(sizeof fz_doubles / sizeof fz_doubles[0]))
static const int64_t fz_ints[] = {0, 1, -1, 2, 3, -2, 7, 8, 100, 127, 128, 255, 256, -128, -129, 65536,
                                  INT32_MAX, (int64_t)INT32_MAX + 1, INT32_MIN, (int64_t)INT32_MIN - 1,
                                  INT64_MAX, INT64_MIN, INT64_MIN + 1, (int64_t)1 << 53, ((int64_t)1 << 53) + 1,
                                  (int64_t)1 << 62, -((int64_t)1 << 62), (int64_t)1 << 31};
#define FZ_NINTS ((unsigned)(sizeof fz_ints / sizeof fz_ints[0]))

/* A double: mostly small and plain, sometimes from the table. */
static FZ_UNUSED double fz_double(fz_in *in) {
  unsigned b = fz_u8(in);
  if (b < 128) return (double)((int)(b % 16) - 8) / ((b & 16) ? 4.0 : 1.0);
  return fz_doubles[b % FZ_NDOUBLES];
}
/* An int parameter (dim, index, count): mostly in [-4, 4], sometimes extreme. */
static FZ_UNUSED int64_t fz_int(fz_in *in) {
  unsigned b = fz_u8(in);
  if (b < 200) return (int64_t)(b % 9) - 4;
  return fz_ints[b % FZ_NINTS];
}
/* A size: mostly 0..5, sometimes a bit larger, rarely invalid or huge
 * (every huge one overflows numel * 8, so it must be refused, never allocated). */
static FZ_UNUSED int64_t fz_size(fz_in *in) {
  static const int64_t odd[] = {-1, -2, INT64_MIN, INT64_MAX, (int64_t)1 << 62, ((int64_t)1 << 61) + 1, 8, 9, 16, 33};
  unsigned b = fz_u8(in);
  if (b < 232) return (int64_t)(b % 6);
  return odd[b % (sizeof odd / sizeof odd[0])];
}

/* ---- triage mode (FZ_TRIAGE builds, with recoverable sanitizers) ----
 * With FZ_TRIAGE_DIR set, every distinct finding (a "FINDING:" of the
 * harness, an ASan report, a UBSan report; keyed by kind and place) keeps
 * the smallest input that produced it as DIR/<key hash>.bin beside its key
 * text, and fuzzing goes on: one long run lists every distinct problem
 * instead of stopping at the first. See fuzz/README.md. */
#ifdef FZ_TRIAGE
static const uint8_t *fz_cur_data;
static size_t fz_cur_size;
static FZ_UNUSED void fz_triage_save(const char *key) {
  const char *dir = getenv("FZ_TRIAGE_DIR");
  char path[512];
  uint64_t h = 1469598103934665603ull;
  const char *k;
  FILE *f;
  long old = -1;
  if (!dir || !fz_cur_data) return;
  for (k = key; *k; k++) h = (h ^ (unsigned char)*k) * 1099511628211ull;
  snprintf(path, sizeof path, "%s/%016llx.bin", dir, (unsigned long long)h);
  if ((f = fopen(path, "rb"))) {
    fseek(f, 0, SEEK_END);
    old = ftell(f);
    fclose(f);
  }
  if (old >= 0 && (size_t)old <= fz_cur_size) return;
  if ((f = fopen(path, "wb"))) fwrite(fz_cur_data, 1, fz_cur_size, f), fclose(f);
  snprintf(path, sizeof path, "%s/%016llx.txt", dir, (unsigned long long)h);
  if ((f = fopen(path, "w"))) fprintf(f, "%s\n", key), fclose(f);
}
#include <sanitizer/asan_interface.h>
static FZ_UNUSED void fz_asan_report(const char *report) {
  const char *s = strstr(report, "SUMMARY: ");
  char key[256];
  size_t n = 0;
  if (!s) s = report;
  while (s[n] && s[n] != '\n' && n < sizeof key - 1) n++;
  memcpy(key, s, n);
  key[n] = '\0';
  fz_triage_save(key);
}
void __ubsan_get_current_report_data(const char **kind, const char **msg, const char **file, unsigned *line, unsigned *col,
                                     char **addr);
void __ubsan_on_report(void);
void __ubsan_on_report(void) {
  const char *kind = "", *msg = "", *file = "";
  unsigned line = 0, col = 0;
  char *addr = NULL, key[512];
  __ubsan_get_current_report_data(&kind, &msg, &file, &line, &col, &addr);
  snprintf(key, sizeof key, "UBSan %s %s:%u: %.200s", kind, file, line, msg);
  fz_triage_save(key);
}
static FZ_UNUSED void fz_triage_begin(const uint8_t *d, size_t n) {
  static int inited;
  if (!inited) inited = 1, __asan_set_error_report_callback(fz_asan_report);
  fz_cur_data = d, fz_cur_size = n;
}
#define FZ_TRIAGE_CONTINUE 1
#else
#define fz_triage_begin(d, n) ((void)(d), (void)(n))
#define fz_triage_save(key) ((void)(key))
#define FZ_TRIAGE_CONTINUE 0
#endif

#endif /* FZ_COMMON_H */

/* ---- standalone driver: cc -DFZ_STANDALONE ... ; ./fuzzer file... ---- */
#if defined(FZ_STANDALONE) && !defined(FZ_STANDALONE_DONE)
#define FZ_STANDALONE_DONE
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int main(int argc, char **argv) {
  int i;
  for (i = 1; i < argc; i++) {
    FILE *f = fopen(argv[i], "rb");
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0, r;
    if (!f) {
      perror(argv[i]);
      return 2;
    }
    do {
      if (n == cap) {
        uint8_t *nb = (uint8_t *)realloc(buf, cap = cap ? cap * 2 : 4096);
        if (!nb) return 2;
        buf = nb;
      }
      r = fread(buf + n, 1, cap - n, f);
      n += r;
    } while (r > 0);
    fclose(f);
    fprintf(stderr, "running %s (%zu bytes)\n", argv[i], n);
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
  }
  return 0;
}
#endif
