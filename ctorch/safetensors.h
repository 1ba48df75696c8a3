/* ctorch/safetensors.h - loading and saving tensors in the safetensors format.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * THE FORMAT (huggingface/safetensors)
 *   8 bytes    N, the header's length, unsigned little-endian
 *   N bytes    a JSON object in UTF-8: for each tensor
 *                "name": {"dtype": "F32", "shape": [2, 3], "data_offsets": [begin, end]}
 *              and optionally "__metadata__": {"key": "value", ...} (strings only)
 *   the rest   the byte buffer: each tensor's elements, row-major, little-endian,
 *              at [begin, end) of the buffer
 *
 * LOADING
 *   ct_safetensors *f = ct_safetensors_open("model.safetensors");
 *   ct_tensor *w = ct_safetensors_get(f, "layer0.weight");  // a new reference
 *   ct_safetensors_close(f);                                // w stays valid
 *
 *   ct_safetensors_open maps the file (mmap, POSIX) and checks the whole
 *   header before it returns; ct_safetensors_get then makes a tensor over
 *   the mapped bytes without copying them when its bytes are aligned to its
 *   element size (always, for files written by the reference library or by
 *   ct_safetensors_save: their data starts on a multiple of 8 and tensors
 *   are ordered by decreasing alignment). Otherwise (an unaligned offset, a
 *   big-endian host, a BOOL tensor with bytes other than 0 and 1, which are
 *   read as true) it copies into a fresh tensor. Every zero-copy tensor holds
 *   a reference on the mapping: it stays mapped until the ct_safetensors
 *   and every such tensor (and view of one) are gone, whatever the order.
 *   The mapping is private and writable (copy-on-write): in-place ops on a
 *   loaded tensor never reach the file, but two gets of one name return two
 *   tensors over the same bytes, so a write through one shows in the other
 *   (ct_clone gives an independent copy). Where mmap is unavailable (not
 *   POSIX, CT_NO_MMAP defined, or the call fails: a pipe, an empty file) the
 *   file is read into memory instead and the same rules hold for that copy.
 *   As with any mapped file, truncating it while it is mapped makes reads of
 *   the lost pages fault (SIGBUS).
 *
 *   A safetensors dtype without a ctorch counterpart (I8, I16, U16, U32,
 *   U64, the F8 / F6 / F4 types, C64) is accepted in a file: its entry is
 *   listed with dtype CT_DTYPE_NONE and ct_safetensors_get refuses it. An
 *   unknown dtype string is a malformed file.
 *
 * SAVING
 *   ct_safetensors_save(path, n, names, tensors, nmeta, keys, values) writes
 *   the layout of the reference library (safetensors' `serialize`): tensors
 *   sorted by the format's dtype order, descending (I64, F64, F32, I32,
 *   BF16, F16, U8, BOOL for ctorch's dtypes), then by name (byte order);
 *   offsets contiguous from 0; the header is compact JSON ("__metadata__"
 *   first, its keys sorted by byte order here as the reference's map order is
 *   unspecified) padded with spaces to a multiple of 8. So the file is byte
 *   for byte what `safetensors.torch.save_file` writes for the same tensors
 *   and metadata (up to the order of metadata keys, which the reference
 *   leaves to its hash map; tests/test_safetensors.c checks this against a
 *   file written in Python, tests/gen_safetensors_fixtures.py). Non-contiguous
 *   tensors and tensors on other devices are written from contiguous CPU
 *   copies, one at a time. Tensors that share memory are each written whole.
 *
 * STATE DICTS
 *   ct_safetensors_load_into copies the file's tensors into existing tensors
 *   by name, as torch.nn.Module.load_state_dict (strict or not), checking
 *   every shape and dtype before it copies anything.
 *
 * ERRORS AND LIMITS
 *   A malformed file is refused whole, with an error naming what is wrong
 *   and where (CT_ERR_INVALID for the structure, CT_ERR_DTYPE for an unknown
 *   dtype, CT_ERR_SIZE for a shape whose size overflows, CT_ERR_RANK for a
 *   rank above CT_MAX_DIMS): a short file, a header length past the end or
 *   above CT_SAFETENSORS_MAX_HEADER (100,000,000 bytes, the reference's
 *   limit), a header that is not UTF-8 or not strict JSON (RFC 8259, nested
 *   at most 64 deep) or not an object, a missing or repeated field, a
 *   negative or non-integer shape or offset, offsets out of order, with
 *   holes or overlaps or not covering the buffer exactly (the spec's rule),
 *   a byte count that disagrees with shape and dtype, a repeated tensor
 *   name, metadata that is not a map of strings, a string holding \u0000.
 *   Unknown fields inside a tensor's entry are skipped, as by the reference.
 *
 * THREADS
 *   An open ct_safetensors is only read: any number of threads may get
 *   tensors from it at once (the mapping's reference count is atomic).
 *   Closing it while another thread uses it is a race, as freeing anything.
 *
 * CONFIGURATION
 *   CT_NO_MMAP                     always read files into memory
 *   CT_SAFETENSORS_MAX_HEADER      the largest header accepted (bytes)
 */
#ifndef CT_SAFETENSORS_H
#define CT_SAFETENSORS_H

#include "generated/functions.h"
#include "guard.h"

CT_EXTERN_C_BEGIN

typedef struct ct_safetensors ct_safetensors;

/* Opens and checks a file: mapped where possible (see LOADING). NULL on
 * error (the file cannot be opened or read, or is malformed). */
CTDEF ct_safetensors *ct_safetensors_open(const char *path);
/* The same from bytes in memory. The bytes are copied: data may be freed as
 * soon as the call returns. Zero-copy tensors point into that copy. */
CTDEF ct_safetensors *ct_safetensors_from_buffer(const void *data, size_t len);
/* From bytes in memory, borrowed (no copy): zero-copy tensors point into
 * data, so in-place ops on them write there. deleter(data, ctx) runs when
 * the ct_safetensors and every zero-copy tensor are gone; with a NULL
 * deleter the memory must outlive them all. On failure (NULL) the deleter
 * is not called: the caller still owns data. */
CTDEF ct_safetensors *ct_safetensors_from_memory(void *data, size_t len, void (*deleter)(void *data, void *ctx), void *ctx);
/* Frees the handle (NULL is fine). Tensors already taken stay valid. */
CTDEF void ct_safetensors_close(ct_safetensors *st);

/* ---- what the file holds: tensors in name order (byte order, as the
 * Python library's keys()), indices 0 .. count-1 ---- */
CTDEF int ct_safetensors_count(const ct_safetensors *st);
CTDEF const char *ct_safetensors_name(const ct_safetensors *st, int i); /* NULL when out of range */
CTDEF int ct_safetensors_find(const ct_safetensors *st, const char *name); /* its index, or -1 (no error set) */

typedef struct ct_safetensors_info {
  const char *name;
  const char *format_dtype;   /* the file's dtype string: "F32", "I16", ... */
  ct_dtype dtype;             /* CT_DTYPE_NONE: ctorch has no such dtype (ct_safetensors_get refuses it) */
  int ndim;
  int64_t sizes[CT_MAX_DIMS];
  uint64_t offset;            /* data_offsets[0]: from the start of the byte buffer */
  uint64_t nbytes;            /* data_offsets[1] - data_offsets[0] */
} ct_safetensors_info;
CTDEF ct_status ct_safetensors_tensor_info(const ct_safetensors *st, int i, ct_safetensors_info *out);

/* The tensor called name, on the CPU: a new reference (tracked by an open
 * CT_SCOPE, as any factory's result), zero-copy where possible (see
 * LOADING). NULL with an error when there is no such tensor or its dtype
 * has no ctorch counterpart. */
CTDEF ct_tensor *ct_safetensors_get(ct_safetensors *st, const char *name);

/* ---- "__metadata__": a map of strings, keys in byte order ---- */
CTDEF int ct_safetensors_metadata_count(const ct_safetensors *st);
CTDEF const char *ct_safetensors_metadata_key(const ct_safetensors *st, int i); /* NULL when out of range */
CTDEF const char *ct_safetensors_metadata(const ct_safetensors *st, const char *key); /* NULL when absent (no error set) */

/* ---- the bytes behind the tensors ---- */
/* true when the file is memory-mapped (ct_safetensors_open with mmap) */
CTDEF bool ct_safetensors_is_mapped(const ct_safetensors *st);
/* The byte buffer (after the header) and its length in *nbytes (may be
 * NULL): a zero-copy tensor's ct_data_ptr lies inside it. */
CTDEF const void *ct_safetensors_data(const ct_safetensors *st, size_t *nbytes);

/* ---- state dicts ----
 * load_state_dict: copies the file's tensor names[i] into tensors[i] for
 * every i whose name the file holds, under no-grad (so into parameters that
 * require grad too), converting nothing: the file's dtype and shape must be
 * the tensor's (CT_ERR_DTYPE, CT_ERR_SHAPE otherwise). Every check is made
 * before the first copy, so a refused call changes no tensor.
 *   strict: every name must be in the file and every tensor of the file
 *           among names, else CT_ERR_INVALID listing the missing and
 *           unexpected names (PyTorch's message).
 *   missing (NULL, or n bools): missing[i] = names[i] is not in the file.
 *   unexpected (NULL, or ct_safetensors_count(st) bools): unexpected[j] =
 *           the file's tensor j is not among names.
 * Both are filled in either mode, also when the call fails a check (not on
 * a NULL argument). The destination may be on any device and any layout. */
CTDEF ct_status ct_safetensors_load_into(ct_safetensors *st, int n, const char *const *names, ct_tensor *const *tensors,
                                         bool strict, bool *missing, bool *unexpected);

/* ---- saving (layout: see SAVING) ----
 * n tensors names[i] -> tensors[i]; nmeta metadata pairs (0 and NULLs for
 * none: then no "__metadata__" is written). Names and metadata must be
 * UTF-8, names unique and not "__metadata__", keys unique. A tensor on the
 * meta device has no data and is refused. ct_safetensors_save checks
 * everything first, writes a new file beside path and renames it over path
 * at the end, so path is replaced whole or not at all (even when the
 * tensors being saved are mapped from the file at path). */
CTDEF ct_status ct_safetensors_save(const char *path, int n, const char *const *names, ct_tensor *const *tensors, int nmeta,
                                    const char *const *meta_keys, const char *const *meta_values);
/* The same into a new buffer: *data (free it with ct_safetensors_free_buffer)
 * holds *len bytes. */
CTDEF ct_status ct_safetensors_save_buffer(int n, const char *const *names, ct_tensor *const *tensors, int nmeta,
                                           const char *const *meta_keys, const char *const *meta_values, void **data,
                                           size_t *len);
CTDEF void ct_safetensors_free_buffer(void *data);

/* The safetensors name of a ctorch dtype ("F32", "BF16", "BOOL", ...);
 * NULL for an invalid dtype. */
CTDEF const char *ct_safetensors_dtype_name(ct_dtype t);

#ifndef CT_SAFETENSORS_MAX_HEADER /* (a configuration macro: public, so a program sees the value its library uses) */
#define CT_SAFETENSORS_MAX_HEADER 100000000u
#endif

CT_EXTERN_C_END
#endif /* CT_SAFETENSORS_H */

/* ==== implementation ==== */
#if defined(CT__IMPLEMENT) && !defined(CT__SAFETENSORS_IMPL)
#define CT__SAFETENSORS_IMPL
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#if defined(__unix__) || defined(__unix) || (defined(__APPLE__) && defined(__MACH__))
#include <unistd.h>
#define CT__ST_UNIX 1
#ifndef CT_NO_MMAP
#define CT__ST_MMAP 1
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#endif
#endif
CT_EXTERN_C_BEGIN

#define CT__ST_MAX_DEPTH 64
#define CT__ST_METADATA "__metadata__"

/* ---- dtypes ----
 * The format's dtypes in the reference library's enum order, which is its
 * layout rank (tensors are written by descending rank, then by name).
 * Sizes are in bits (F4 and F6 pack elements below a byte). */
typedef struct ct__st_dtype_desc {
  const char *name;
  int bits;
  int dtype; /* ct_dtype or CT_DTYPE_NONE */
} ct__st_dtype_desc;
static const ct__st_dtype_desc ct__st_dtypes[] = {
    {"BOOL", 8, CT_BOOL},          {"F4", 4, CT_DTYPE_NONE},      {"F6_E2M3", 6, CT_DTYPE_NONE},
    {"F6_E3M2", 6, CT_DTYPE_NONE}, {"U8", 8, CT_U8},              {"I8", 8, CT_DTYPE_NONE},
    {"F8_E5M2", 8, CT_DTYPE_NONE}, {"F8_E4M3", 8, CT_DTYPE_NONE}, {"F8_E8M0", 8, CT_DTYPE_NONE},
    {"I16", 16, CT_DTYPE_NONE},    {"U16", 16, CT_DTYPE_NONE},    {"F16", 16, CT_F16},
    {"BF16", 16, CT_BF16},         {"I32", 32, CT_I32},           {"U32", 32, CT_DTYPE_NONE},
    {"F32", 32, CT_F32},           {"C64", 64, CT_DTYPE_NONE},    {"F64", 64, CT_F64},
    {"I64", 64, CT_I64},           {"U64", 64, CT_DTYPE_NONE}};
#define CT__ST_NDTYPES ((int)(sizeof ct__st_dtypes / sizeof ct__st_dtypes[0]))

/* the rank (index above) of a ctorch dtype; -1 if invalid */
static int ct__st_rank_of(ct_dtype t) {
  int i;
  for (i = 0; i < CT__ST_NDTYPES; i++)
    if (ct__st_dtypes[i].dtype == (int)t && t != CT_DTYPE_NONE) return i;
  return -1;
}
CTDEF const char *ct_safetensors_dtype_name(ct_dtype t) {
  int r = ct__st_rank_of(t);
  return r < 0 ? NULL : ct__st_dtypes[r].name;
}

static bool ct__st_host_little_endian(void) {
  const uint16_t one = 1;
  unsigned char b;
  memcpy(&b, &one, 1);
  return b == 1;
}

/* ---- the bytes: a mapping, a malloc'd copy or the caller's memory, shared
 * by the ct_safetensors and its zero-copy tensors' storages ---- */
enum { CT__ST_OWNED = 0, CT__ST_MAPPED = 1, CT__ST_USER = 2 };
typedef struct ct__st_buffer {
  int32_t refcount;
  int kind;
  unsigned char *base;
  size_t len;
  void (*deleter)(void *data, void *ctx); /* CT__ST_USER */
  void *ctx;
} ct__st_buffer;
static int32_t ct__st_live_buffers; /* buffers not yet freed (for the tests) */

static void ct__st_buffer_release(ct__st_buffer *b) {
  if (!b || !ct__unref(&b->refcount)) return;
  if (b->kind == CT__ST_MAPPED) {
#ifdef CT__ST_MMAP
    munmap(b->base, b->len);
#endif
  } else if (b->kind == CT__ST_USER) {
    if (b->deleter) b->deleter(b->base, b->ctx);
  } else {
    CT_FREE(b->base);
  }
  CT_FREE(b);
  ct__atomic_add(&ct__st_live_buffers, -1);
}
/* a zero-copy tensor's storage deleter */
static void ct__st_storage_deleter(void *data, void *ctx) {
  (void)data;
  ct__st_buffer_release((ct__st_buffer *)ctx);
}
static ct__st_buffer *ct__st_buffer_new(int kind, void *base, size_t len, const char *op) {
  ct__st_buffer *b = (ct__st_buffer *)CT_MALLOC(sizeof *b);
  if (!b) return ct_fail(CT_ERR_OOM, op, "out of memory"), (ct__st_buffer *)NULL;
  memset(b, 0, sizeof *b);
  b->refcount = 1;
  b->kind = kind;
  b->base = (unsigned char *)base;
  b->len = len;
  ct__atomic_add(&ct__st_live_buffers, 1);
  return b;
}

/* ---- the parsed header ---- */
typedef struct ct__st_entry {
  char *name;
  int st_dtype; /* index into ct__st_dtypes */
  int ndim;
  int64_t sizes[CT_MAX_DIMS];
  int64_t numel;
  uint64_t begin, end; /* data_offsets */
} ct__st_entry;

struct ct_safetensors {
  ct__st_buffer *buf;
  unsigned char *data; /* the byte buffer: buf->base + 8 + header length */
  size_t data_len;
  int n, cap;
  ct__st_entry *entries; /* sorted by name once parsed */
  int nmeta, meta_cap;
  char **meta_keys, **meta_values; /* sorted by key once parsed */
};

static void ct__st_free(ct_safetensors *st) {
  int i;
  if (!st) return;
  for (i = 0; i < st->n; i++) CT_FREE(st->entries[i].name);
  for (i = 0; i < st->nmeta; i++) CT_FREE(st->meta_keys[i]), CT_FREE(st->meta_values[i]);
  CT_FREE(st->entries);
  CT_FREE(st->meta_keys);
  CT_FREE(st->meta_values);
  ct__st_buffer_release(st->buf);
  CT_FREE(st);
}
CTDEF void ct_safetensors_close(ct_safetensors *st) { ct__st_free(st); }

/* ---- UTF-8: the header, names and metadata must be valid (RFC 3629: no
 * overlong forms, no surrogates, nothing above U+10FFFF). Returns the
 * offset of the first invalid byte, or n. ---- */
static size_t ct__st_utf8_check(const unsigned char *s, size_t n) {
  size_t i = 0;
  while (i < n) {
    unsigned c = s[i], lo = 0x80, hi = 0xBF;
    size_t more, k;
    if (c < 0x80) {
      i++;
      continue;
    }
    if (c >= 0xC2 && c <= 0xDF) more = 1;
    else if (c >= 0xE0 && c <= 0xEF) more = 2, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    else if (c >= 0xF0 && c <= 0xF4) more = 3, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    else return i;
    if (more > n - i - 1) return i;
    if (s[i + 1] < lo || s[i + 1] > hi) return i;
    for (k = 2; k <= more; k++)
      if ((s[i + k] & 0xC0) != 0x80) return i;
    i += more + 1;
  }
  return n;
}

/* ---- a strict JSON reader (RFC 8259) over the header ---- */
typedef struct ct__stj {
  const unsigned char *s, *p, *end;
  const char *op;
  const char *tensor; /* the entry being read, for messages (NULL: none) */
} ct__stj;

static CT__PRINTF(3, 4) ct_status ct__stj_fail(ct__stj *j, ct_status code, const char *fmt, ...) {
  char what[320];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  if (j->tensor)
    return ct_fail(code, j->op, "malformed safetensors header at byte %lld of the JSON: tensor '%.64s': %s",
                   (long long)(j->p - j->s), j->tensor, what);
  return ct_fail(code, j->op, "malformed safetensors header at byte %lld of the JSON: %s", (long long)(j->p - j->s), what);
}
static void ct__stj_ws(ct__stj *j) {
  while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r')) j->p++;
}
/* skips whitespace; true (and consumes it) when the next character is c */
static bool ct__stj_eat(ct__stj *j, char c) {
  ct__stj_ws(j);
  if (j->p < j->end && *j->p == (unsigned char)c) {
    j->p++;
    return true;
  }
  return false;
}
static ct_status ct__stj_expect(ct__stj *j, char c, const char *where) {
  if (ct__stj_eat(j, c)) return CT_OK;
  if (j->p >= j->end) return ct__stj_fail(j, CT_ERR_INVALID, "the JSON ends where '%c' was expected %s", c, where);
  return ct__stj_fail(j, CT_ERR_INVALID, "expected '%c' %s, found '%c'", c, where, *j->p < 0x20 || *j->p >= 0x7f ? '?' : (char)*j->p);
}
static int ct__stj_hex4(const unsigned char *p) {
  int v = 0, k;
  for (k = 0; k < 4; k++) {
    int c = p[k];
    v <<= 4;
    if (c >= '0' && c <= '9') v |= c - '0';
    else if (c >= 'a' && c <= 'f') v |= c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') v |= c - 'A' + 10;
    else return -1;
  }
  return v;
}
/* A string (after whitespace), decoded into a new NUL-terminated block in
 * *out, or only checked when out is NULL. The header was checked as UTF-8
 * already; escapes are decoded to UTF-8 (surrogate pairs joined, lone
 * surrogates refused); \u0000 is refused (names and values are C strings). */
static ct_status ct__stj_string(ct__stj *j, char **out) {
  const unsigned char *p, *q;
  char *buf = NULL;
  size_t n = 0;
  if (out) *out = NULL;
  ct__stj_ws(j);
  if (j->p >= j->end || *j->p != '"')
    return ct__stj_fail(j, CT_ERR_INVALID, j->p >= j->end ? "the JSON ends where a string was expected" : "expected a string");
  for (q = j->p + 1; q < j->end && *q != '"'; q++) /* the closing quote */
    if (*q == '\\' && q + 1 < j->end) q++;
  if (q >= j->end) return ct__stj_fail(j, CT_ERR_INVALID, "unterminated string");
  if (out && !(buf = (char *)CT_MALLOC((size_t)(q - j->p)))) return ct_fail(CT_ERR_OOM, j->op, "out of memory");
  for (p = j->p + 1; p < q;) {
    unsigned c = *p;
    long cp;
    if (c < 0x20) {
      j->p = p;
      CT_FREE(buf);
      return ct__stj_fail(j, CT_ERR_INVALID, "control character 0x%02x in a string (it must be escaped)", c);
    }
    if (c != '\\') {
      if (buf) buf[n] = (char)c;
      n++, p++;
      continue;
    }
    j->p = p;
    switch (p[1]) {
    case '"': cp = '"'; break;
    case '\\': cp = '\\'; break;
    case '/': cp = '/'; break;
    case 'b': cp = '\b'; break;
    case 'f': cp = '\f'; break;
    case 'n': cp = '\n'; break;
    case 'r': cp = '\r'; break;
    case 't': cp = '\t'; break;
    case 'u':
      if (q - p < 6 || (cp = ct__stj_hex4(p + 2)) < 0) {
        CT_FREE(buf);
        return ct__stj_fail(j, CT_ERR_INVALID, "\\u must be followed by 4 hex digits");
      }
      if (cp >= 0xDC00 && cp <= 0xDFFF) {
        CT_FREE(buf);
        return ct__stj_fail(j, CT_ERR_INVALID, "lone low surrogate \\u%04lx", (unsigned long)cp);
      }
      if (cp >= 0xD800 && cp <= 0xDBFF) {
        int lo = q - p >= 12 && p[6] == '\\' && p[7] == 'u' ? ct__stj_hex4(p + 8) : -1;
        if (lo < 0xDC00 || lo > 0xDFFF) {
          CT_FREE(buf);
          return ct__stj_fail(j, CT_ERR_INVALID, "high surrogate \\u%04lx without a low surrogate after it", (unsigned long)cp);
        }
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        p += 6;
      }
      if (cp == 0) {
        CT_FREE(buf);
        return ct__stj_fail(j, CT_ERR_INVALID, "\\u0000 in a string: names and metadata cannot hold NUL characters");
      }
      p += 4;
      break;
    default:
      CT_FREE(buf);
      return ct__stj_fail(j, CT_ERR_INVALID, "invalid escape '\\%c'", p[1] < 0x20 || p[1] >= 0x7f ? '?' : (char)p[1]);
    }
    p += 2;
    if (cp < 0x80) {
      if (buf) buf[n] = (char)cp;
      n += 1;
    } else if (cp < 0x800) {
      if (buf) buf[n] = (char)(0xC0 | (cp >> 6)), buf[n + 1] = (char)(0x80 | (cp & 0x3F));
      n += 2;
    } else if (cp < 0x10000) {
      if (buf) buf[n] = (char)(0xE0 | (cp >> 12)), buf[n + 1] = (char)(0x80 | ((cp >> 6) & 0x3F)), buf[n + 2] = (char)(0x80 | (cp & 0x3F));
      n += 3;
    } else {
      if (buf)
        buf[n] = (char)(0xF0 | (cp >> 18)), buf[n + 1] = (char)(0x80 | ((cp >> 12) & 0x3F)),
        buf[n + 2] = (char)(0x80 | ((cp >> 6) & 0x3F)), buf[n + 3] = (char)(0x80 | (cp & 0x3F));
      n += 4;
    }
  }
  if (buf) buf[n] = '\0'; /* (decoded text is never longer than the escaped text: n < q - j->p) */
  j->p = q + 1;
  if (out) *out = buf;
  return CT_OK;
}
/* A non-negative integer (a JSON number without sign, fraction or
 * exponent) no larger than INT64_MAX. */
static ct_status ct__stj_uint(ct__stj *j, const char *what, uint64_t *v) {
  uint64_t x = 0;
  ct__stj_ws(j);
  if (j->p < j->end && *j->p == '-') return ct__stj_fail(j, CT_ERR_INVALID, "%s must not be negative", what);
  if (j->p >= j->end || *j->p < '0' || *j->p > '9') return ct__stj_fail(j, CT_ERR_INVALID, "%s must be an integer", what);
  if (*j->p == '0' && j->p + 1 < j->end && j->p[1] >= '0' && j->p[1] <= '9')
    return ct__stj_fail(j, CT_ERR_INVALID, "%s has a leading zero (not JSON)", what);
  while (j->p < j->end && *j->p >= '0' && *j->p <= '9') {
    unsigned d = (unsigned)(*j->p - '0');
    if (x > ((uint64_t)INT64_MAX - d) / 10) return ct__stj_fail(j, CT_ERR_INVALID, "%s does not fit in int64", what);
    x = x * 10 + d;
    j->p++;
  }
  if (j->p < j->end && (*j->p == '.' || *j->p == 'e' || *j->p == 'E'))
    return ct__stj_fail(j, CT_ERR_INVALID, "%s must be an integer, not a fraction", what);
  *v = x;
  return CT_OK;
}
/* Any JSON value, checked and skipped (fields the format does not define). */
static ct_status ct__stj_skip(ct__stj *j, int depth) {
  ct_status s;
  ct__stj_ws(j);
  if (j->p >= j->end) return ct__stj_fail(j, CT_ERR_INVALID, "the JSON ends where a value was expected");
  switch (*j->p) {
  case '{':
  case '[': {
    char close = *j->p == '{' ? '}' : ']';
    int object = close == '}';
    if (depth >= CT__ST_MAX_DEPTH) return ct__stj_fail(j, CT_ERR_INVALID, "nested deeper than %d levels", CT__ST_MAX_DEPTH);
    j->p++;
    if (ct__stj_eat(j, close)) return CT_OK;
    for (;;) {
      if (object && ((s = ct__stj_string(j, NULL)) != CT_OK || (s = ct__stj_expect(j, ':', "after a key")) != CT_OK)) return s;
      if ((s = ct__stj_skip(j, depth + 1)) != CT_OK) return s;
      if (ct__stj_eat(j, ',')) continue;
      return ct__stj_expect(j, close, object ? "or ',' in an object" : "or ',' in an array");
    }
  }
  case '"': return ct__stj_string(j, NULL);
  case 't':
  case 'f':
  case 'n': {
    const char *word = *j->p == 't' ? "true" : *j->p == 'f' ? "false" : "null";
    size_t len = strlen(word);
    if ((size_t)(j->end - j->p) < len || memcmp(j->p, word, len) != 0) return ct__stj_fail(j, CT_ERR_INVALID, "invalid literal");
    j->p += len;
    return CT_OK;
  }
  default: { /* a number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
    const unsigned char *p = j->p, *e = j->end;
    if (p < e && *p == '-') p++;
    if (p >= e || *p < '0' || *p > '9') return ct__stj_fail(j, CT_ERR_INVALID, "expected a JSON value");
    if (*p == '0') p++;
    else
      while (p < e && *p >= '0' && *p <= '9') p++;
    if (p < e && *p == '.') {
      if (++p >= e || *p < '0' || *p > '9') return j->p = p, ct__stj_fail(j, CT_ERR_INVALID, "a digit must follow '.'");
      while (p < e && *p >= '0' && *p <= '9') p++;
    }
    if (p < e && (*p == 'e' || *p == 'E')) {
      if (++p < e && (*p == '+' || *p == '-')) p++;
      if (p >= e || *p < '0' || *p > '9') return j->p = p, ct__stj_fail(j, CT_ERR_INVALID, "a digit must follow the exponent");
      while (p < e && *p >= '0' && *p <= '9') p++;
    }
    j->p = p;
    return CT_OK;
  }
  }
}

/* ---- the header's structure ---- */
static ct_status ct__st_grow(void **p, int *cap, int need, size_t elem, const char *op) {
  void *q;
  int c;
  if (need <= *cap) return CT_OK;
  c = *cap ? *cap * 2 : 8;
  if (c < need) c = need;
  if (!(q = CT_REALLOC(*p, (size_t)c * elem))) return ct_fail(CT_ERR_OOM, op, "out of memory");
  *p = q;
  *cap = c;
  return CT_OK;
}

/* "__metadata__": {"key": "value", ...} (null: none) */
static ct_status ct__st_parse_metadata(ct__stj *j, ct_safetensors *st) {
  ct_status s;
  ct__stj_ws(j);
  if (j->end - j->p >= 4 && memcmp(j->p, "null", 4) == 0) {
    j->p += 4;
    return CT_OK;
  }
  if (!ct__stj_eat(j, '{')) return ct__stj_fail(j, CT_ERR_INVALID, "__metadata__ must be an object of strings");
  if (ct__stj_eat(j, '}')) return CT_OK;
  for (;;) {
    char *key = NULL, *value = NULL;
    if ((s = ct__stj_string(j, &key)) != CT_OK) return s;
    if ((s = ct__stj_expect(j, ':', "after a key")) != CT_OK) return CT_FREE(key), s;
    ct__stj_ws(j);
    if (j->p < j->end && *j->p != '"') {
      s = ct__stj_fail(j, CT_ERR_INVALID, "__metadata__ value of '%.64s' is not a string (metadata is a map of strings)", key);
      CT_FREE(key);
      return s;
    }
    if ((s = ct__stj_string(j, &value)) != CT_OK) return CT_FREE(key), s;
    if (st->nmeta == st->meta_cap) { /* (keys and values grow together) */
      int cap = st->meta_cap ? st->meta_cap * 2 : 8;
      char **k2 = (char **)CT_REALLOC(st->meta_keys, sizeof(char *) * (size_t)cap), **v2;
      if (k2) st->meta_keys = k2;
      v2 = k2 ? (char **)CT_REALLOC(st->meta_values, sizeof(char *) * (size_t)cap) : NULL;
      if (v2) st->meta_values = v2, st->meta_cap = cap;
      if (!v2) {
        CT_FREE(key), CT_FREE(value);
        return ct_fail(CT_ERR_OOM, j->op, "out of memory");
      }
    }
    st->meta_keys[st->nmeta] = key;
    st->meta_values[st->nmeta++] = value;
    if (ct__stj_eat(j, ',')) continue;
    return ct__stj_expect(j, '}', "or ',' in __metadata__");
  }
}

/* an integer array: shape (up to CT_MAX_DIMS items) or data_offsets (2) */
static ct_status ct__st_parse_ints(ct__stj *j, const char *what, int max, uint64_t *v, int *count) {
  ct_status s;
  int n = 0;
  if (!ct__stj_eat(j, '[')) return ct__stj_fail(j, CT_ERR_INVALID, "%s must be an array of integers", what);
  if (!ct__stj_eat(j, ']')) {
    for (;;) {
      uint64_t x = 0;
      if ((s = ct__stj_uint(j, what, &x)) != CT_OK) return s;
      if (n == max) {
        if (max == CT_MAX_DIMS)
          return ct__stj_fail(j, CT_ERR_RANK, "a shape of more than %d dimensions (CT_MAX_DIMS)", CT_MAX_DIMS);
        return ct__stj_fail(j, CT_ERR_INVALID, "%s has more than %d items", what, max);
      }
      v[n++] = x;
      if (ct__stj_eat(j, ',')) continue;
      if ((s = ct__stj_expect(j, ']', "or ',' in an array of integers")) != CT_OK) return s;
      break;
    }
  }
  *count = n;
  return CT_OK;
}

/* {"dtype": ..., "shape": [...], "data_offsets": [b, e]} in any order */
static ct_status ct__st_parse_entry(ct__stj *j, ct__st_entry *e) {
  ct_status s;
  bool have_dtype = false, have_shape = false, have_offsets = false;
  if (!ct__stj_eat(j, '{')) return ct__stj_fail(j, CT_ERR_INVALID, "expected an object with dtype, shape and data_offsets");
  if (!ct__stj_eat(j, '}')) {
    for (;;) {
      char *key = NULL;
      const unsigned char *at;
      if ((s = ct__stj_string(j, &key)) != CT_OK) return s;
      if ((s = ct__stj_expect(j, ':', "after a key")) != CT_OK) return CT_FREE(key), s;
      ct__stj_ws(j);
      at = j->p;
      if (!strcmp(key, "dtype") || !strcmp(key, "shape") || !strcmp(key, "data_offsets")) {
        bool *have = key[0] == 'd' && key[1] == 't' ? &have_dtype : key[0] == 's' ? &have_shape : &have_offsets;
        if (*have) {
          s = ct__stj_fail(j, CT_ERR_INVALID, "'%s' appears twice", key);
          CT_FREE(key);
          return s;
        }
        *have = true;
        if (have == &have_dtype) {
          char *d = NULL;
          int k;
          if (j->p < j->end && *j->p != '"') s = ct__stj_fail(j, CT_ERR_INVALID, "dtype must be a string");
          else s = ct__stj_string(j, &d);
          for (k = 0; s == CT_OK && k < CT__ST_NDTYPES && strcmp(d, ct__st_dtypes[k].name) != 0; k++) {
          }
          if (s == CT_OK && k == CT__ST_NDTYPES) {
            j->p = at;
            s = ct__stj_fail(j, CT_ERR_DTYPE, "unknown dtype '%.32s'", d);
          }
          e->st_dtype = k;
          CT_FREE(d);
        } else if (have == &have_shape) {
          uint64_t v[CT_MAX_DIMS];
          int n = 0, k;
          s = ct__st_parse_ints(j, "a shape's size", CT_MAX_DIMS, v, &n);
          e->ndim = n;
          for (k = 0; k < n; k++) e->sizes[k] = (int64_t)v[k];
        } else {
          uint64_t v[2] = {0, 0};
          int n = 0;
          if ((s = ct__st_parse_ints(j, "data_offsets", 2, v, &n)) == CT_OK && n != 2) {
            j->p = at;
            s = ct__stj_fail(j, CT_ERR_INVALID, "data_offsets must be [begin, end], got %d numbers", n);
          }
          e->begin = v[0], e->end = v[1];
        }
      } else {
        s = ct__stj_skip(j, 3); /* (the header object, this entry, the field) */
      }
      CT_FREE(key);
      if (s != CT_OK) return s;
      if (ct__stj_eat(j, ',')) continue;
      if ((s = ct__stj_expect(j, '}', "or ',' in a tensor's entry")) != CT_OK) return s;
      break;
    }
  }
  if (!have_dtype || !have_shape || !have_offsets)
    return ct__stj_fail(j, CT_ERR_INVALID, "the entry has no %s", !have_dtype ? "dtype" : !have_shape ? "shape" : "data_offsets");
  return CT_OK;
}

static int ct__st_cmp_entry_name(const void *a, const void *b) {
  return strcmp(((const ct__st_entry *)a)->name, ((const ct__st_entry *)b)->name);
}
typedef struct ct__st_span {
  uint64_t begin, end;
  int index; /* into the entries (in name order: ties sort by name) */
} ct__st_span;
static int ct__st_cmp_span(const void *a, const void *b) {
  const ct__st_span *x = (const ct__st_span *)a, *y = (const ct__st_span *)b;
  if (x->begin != y->begin) return x->begin < y->begin ? -1 : 1;
  if (x->end != y->end) return x->end < y->end ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}
typedef struct ct__st_kv {
  char *key, *value;
} ct__st_kv;
static int ct__st_cmp_kv(const void *a, const void *b) { return strcmp(((const ct__st_kv *)a)->key, ((const ct__st_kv *)b)->key); }

/* The tensors' byte counts against their shapes, and their offsets against
 * the buffer: sorted by offsets, they must tile [0, data_len) exactly. */
static ct_status ct__st_validate(ct_safetensors *st, const char *op) {
  ct__st_span *order;
  uint64_t at = 0;
  int i;
  for (i = 0; i < st->n; i++) {
    ct__st_entry *e = &st->entries[i];
    const ct__st_dtype_desc *d = &ct__st_dtypes[e->st_dtype];
    int64_t numel = 1, bits;
    char shape[160];
    int k;
    bool overflow = false, zero = false;
    for (k = 0; k < e->ndim; k++) zero = zero || e->sizes[k] == 0;
    for (k = 0; k < e->ndim && !zero && !overflow; k++) overflow = ct__mul_ovf(numel, e->sizes[k], &numel);
    if (zero) numel = 0; /* (an empty tensor's other sizes may multiply past int64, as in ctorch) */
    if (overflow || ct__mul_ovf(numel, d->bits, &bits) || numel > CT__MAX_ELEMENTS)
      return ct_fail(CT_ERR_SIZE, op, "malformed safetensors header: tensor '%.64s': shape %s of %s overflows", e->name,
                     ct_shape_format(e->ndim, e->sizes, shape, sizeof shape), d->name);
    if (bits % 8)
      return ct_fail(CT_ERR_INVALID, op, "malformed safetensors header: tensor '%.64s': shape %s of %s is not a whole number of bytes",
                     e->name, ct_shape_format(e->ndim, e->sizes, shape, sizeof shape), d->name);
    if (e->end < e->begin)
      return ct_fail(CT_ERR_INVALID, op, "malformed safetensors header: tensor '%.64s': data_offsets [%llu, %llu] end before they begin",
                     e->name, (unsigned long long)e->begin, (unsigned long long)e->end);
    if (e->end - e->begin != (uint64_t)(bits / 8))
      return ct_fail(CT_ERR_INVALID, op,
                     "malformed safetensors header: tensor '%.64s': shape %s of %s needs %lld bytes, its data_offsets [%llu, %llu] hold %llu",
                     e->name, ct_shape_format(e->ndim, e->sizes, shape, sizeof shape), d->name, (long long)(bits / 8),
                     (unsigned long long)e->begin, (unsigned long long)e->end, (unsigned long long)(e->end - e->begin));
    e->numel = numel;
  }
  if (st->n <= 0) {
    if (st->data_len != 0)
      return ct_fail(CT_ERR_INVALID, op, "malformed safetensors file: %llu bytes of data after a header with no tensors",
                     (unsigned long long)st->data_len);
    return CT_OK;
  }
  if (!(order = (ct__st_span *)CT_MALLOC(sizeof(ct__st_span) * (size_t)st->n))) return ct_fail(CT_ERR_OOM, op, "out of memory");
  for (i = 0; i < st->n; i++) order[i].begin = st->entries[i].begin, order[i].end = st->entries[i].end, order[i].index = i;
  qsort(order, (size_t)st->n, sizeof(ct__st_span), ct__st_cmp_span);
  for (i = 0; i < st->n; i++) {
    const ct__st_entry *e = &st->entries[order[i].index];
    if (e->begin != at) {
      ct_status s =
          ct_fail(CT_ERR_INVALID, op,
                  "malformed safetensors header: tensor '%.64s': data_offsets [%llu, %llu] %s: the tensors must cover the byte "
                  "buffer without gaps or overlaps (the previous one ends at %llu)",
                  e->name, (unsigned long long)e->begin, (unsigned long long)e->end, e->begin < at ? "overlap another tensor" : "leave a gap",
                  (unsigned long long)at);
      CT_FREE(order);
      return s;
    }
    at = e->end;
  }
  CT_FREE(order);
  if (at != st->data_len)
    return ct_fail(CT_ERR_INVALID, op, "malformed safetensors file: the tensors cover %llu bytes, the byte buffer has %llu%s",
                   (unsigned long long)at, (unsigned long long)st->data_len, at > st->data_len ? " (truncated file?)" : "");
  return CT_OK;
}

/* The whole file in st->buf: the length prefix, the header, the checks. */
static ct_status ct__st_parse(ct_safetensors *st, const char *op) {
  unsigned char *b = st->buf->base;
  size_t len = st->buf->len;
  uint64_t hlen = 0;
  size_t bad;
  ct__stj j;
  ct_status s;
  int i;
  if (len < 8) return ct_fail(CT_ERR_INVALID, op, "malformed safetensors file: %zu bytes, too short for the 8-byte header length", len);
  for (i = 7; i >= 0; i--) hlen = hlen << 8 | b[i];
  if (hlen > (uint64_t)CT_SAFETENSORS_MAX_HEADER)
    return ct_fail(CT_ERR_INVALID, op, "malformed safetensors file: header length %llu exceeds the limit of %llu bytes",
                   (unsigned long long)hlen, (unsigned long long)CT_SAFETENSORS_MAX_HEADER);
  if (hlen > len - 8)
    return ct_fail(CT_ERR_INVALID, op, "malformed safetensors file: header length %llu runs past the end of the %zu-byte file",
                   (unsigned long long)hlen, len);
  st->data = b + 8 + hlen;
  st->data_len = len - 8 - (size_t)hlen;
  if ((bad = ct__st_utf8_check(b + 8, (size_t)hlen)) != (size_t)hlen)
    return ct_fail(CT_ERR_INVALID, op, "malformed safetensors header: invalid UTF-8 at byte %zu of the JSON", bad);
  j.s = j.p = b + 8;
  j.end = b + 8 + hlen;
  j.op = op;
  j.tensor = NULL;
  if (j.p >= j.end || *j.p != '{') return ct__stj_fail(&j, CT_ERR_INVALID, "the header must be a JSON object starting with '{'");
  j.p++;
  if (!ct__stj_eat(&j, '}')) {
    bool have_metadata = false;
    for (;;) {
      char *key = NULL;
      if ((s = ct__stj_string(&j, &key)) != CT_OK) return s;
      if ((s = ct__stj_expect(&j, ':', "after a key")) != CT_OK) return CT_FREE(key), s;
      if (!strcmp(key, CT__ST_METADATA)) {
        CT_FREE(key);
        if (have_metadata) return ct__stj_fail(&j, CT_ERR_INVALID, "__metadata__ appears twice");
        have_metadata = true;
        if ((s = ct__st_parse_metadata(&j, st)) != CT_OK) return s;
      } else {
        ct__st_entry *e;
        if ((s = ct__st_grow((void **)&st->entries, &st->cap, st->n + 1, sizeof(ct__st_entry), op)) != CT_OK) return CT_FREE(key), s;
        e = &st->entries[st->n++];
        memset(e, 0, sizeof *e);
        e->name = key;
        j.tensor = key;
        if ((s = ct__st_parse_entry(&j, e)) != CT_OK) return s;
        j.tensor = NULL;
      }
      if (ct__stj_eat(&j, ',')) continue;
      if ((s = ct__stj_expect(&j, '}', "or ',' in the header object")) != CT_OK) return s;
      break;
    }
  }
  ct__stj_ws(&j);
  if (j.p != j.end) return ct__stj_fail(&j, CT_ERR_INVALID, "trailing characters after the header object");
  /* names and keys: sorted, unique */
  if (st->n > 1) qsort(st->entries, (size_t)st->n, sizeof *st->entries, ct__st_cmp_entry_name);
  for (i = 1; i < st->n; i++)
    if (!strcmp(st->entries[i - 1].name, st->entries[i].name))
      return ct_fail(CT_ERR_INVALID, op, "malformed safetensors header: tensor name '%.64s' appears twice", st->entries[i].name);
  if (st->nmeta > 1) {
    ct__st_kv *kv = (ct__st_kv *)CT_MALLOC(sizeof *kv * (size_t)st->nmeta);
    if (!kv) return ct_fail(CT_ERR_OOM, op, "out of memory");
    for (i = 0; i < st->nmeta; i++) kv[i].key = st->meta_keys[i], kv[i].value = st->meta_values[i];
    qsort(kv, (size_t)st->nmeta, sizeof *kv, ct__st_cmp_kv);
    for (i = 0; i < st->nmeta; i++) st->meta_keys[i] = kv[i].key, st->meta_values[i] = kv[i].value;
    CT_FREE(kv);
    for (i = 1; i < st->nmeta; i++)
      if (!strcmp(st->meta_keys[i - 1], st->meta_keys[i]))
        return ct_fail(CT_ERR_INVALID, op, "malformed safetensors header: __metadata__ key '%.64s' appears twice", st->meta_keys[i]);
  }
  return ct__st_validate(st, op);
}

/* A handle over buf (whose reference it takes; released on failure unless
 * keep_on_failure, when the buffer struct is freed but not its bytes). */
static ct_safetensors *ct__st_make(ct__st_buffer *buf, const char *op, bool keep_on_failure) {
  ct_safetensors *st = (ct_safetensors *)CT_MALLOC(sizeof *st);
  if (!st) {
    if (keep_on_failure) buf->deleter = NULL;
    ct__st_buffer_release(buf);
    return ct_fail(CT_ERR_OOM, op, "out of memory"), (ct_safetensors *)NULL;
  }
  memset(st, 0, sizeof *st);
  st->buf = buf;
  if (ct__st_parse(st, op) != CT_OK) {
    if (keep_on_failure) buf->deleter = NULL;
    ct__st_free(st);
    return NULL;
  }
  return st;
}

CTDEF ct_safetensors *ct_safetensors_from_buffer(const void *data, size_t len) {
  static const char *op = "ct_safetensors_from_buffer";
  ct__st_buffer *buf;
  void *copy;
  if (!data && len) return ct__fail_null(op, "data"), (ct_safetensors *)NULL;
  if (!(copy = CT_MALLOC(len ? len : 1))) return ct_fail(CT_ERR_OOM, op, "out of memory copying %zu bytes", len), (ct_safetensors *)NULL;
  if (len) memcpy(copy, data, len);
  if (!(buf = ct__st_buffer_new(CT__ST_OWNED, copy, len, op))) return CT_FREE(copy), (ct_safetensors *)NULL;
  return ct__st_make(buf, op, false);
}

CTDEF ct_safetensors *ct_safetensors_from_memory(void *data, size_t len, void (*deleter)(void *data, void *ctx), void *ctx) {
  static const char *op = "ct_safetensors_from_memory";
  ct__st_buffer *buf;
  if (!data && len) return ct__fail_null(op, "data"), (ct_safetensors *)NULL;
  if (!(buf = ct__st_buffer_new(CT__ST_USER, data, len, op))) return NULL;
  buf->deleter = deleter;
  buf->ctx = ctx;
  return ct__st_make(buf, op, true);
}

/* ---- files ---- */
#ifdef CT__ST_MMAP
/* the rest of fd into a growing buffer (hint: the expected size) */
static ct_status ct__st_read_fd(int fd, size_t hint, const char *path, const char *op, unsigned char **out, size_t *len) {
  size_t cap = hint ? hint + 1 : 4096, n = 0;
  unsigned char *b = (unsigned char *)CT_MALLOC(cap), *nb;
  if (!b) return ct_fail(CT_ERR_OOM, op, "out of memory reading '%s'", path);
  for (;;) {
    ssize_t r;
    if (n == cap) {
      if (cap > SIZE_MAX / 2 || !(nb = (unsigned char *)CT_REALLOC(b, cap * 2))) {
        CT_FREE(b);
        return ct_fail(CT_ERR_OOM, op, "out of memory reading '%s'", path);
      }
      b = nb, cap *= 2;
    }
    r = read(fd, b + n, cap - n);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      ct_status s = ct_fail(CT_ERR_INVALID, op, "cannot read '%s': %s", path, strerror(errno));
      CT_FREE(b);
      return s;
    }
    if (r == 0) break;
    n += (size_t)r;
  }
  *out = b, *len = n;
  return CT_OK;
}
#else
static ct_status ct__st_read_file(FILE *f, const char *path, const char *op, unsigned char **out, size_t *len) {
  size_t cap = 4096, n = 0;
  unsigned char *b = (unsigned char *)CT_MALLOC(cap), *nb;
  if (!b) return ct_fail(CT_ERR_OOM, op, "out of memory reading '%s'", path);
  for (;;) {
    size_t r;
    if (n == cap) {
      if (cap > SIZE_MAX / 2 || !(nb = (unsigned char *)CT_REALLOC(b, cap * 2))) {
        CT_FREE(b);
        return ct_fail(CT_ERR_OOM, op, "out of memory reading '%s'", path);
      }
      b = nb, cap *= 2;
    }
    r = fread(b + n, 1, cap - n, f);
    n += r;
    if (r == 0) break;
  }
  if (ferror(f)) {
    CT_FREE(b);
    return ct_fail(CT_ERR_INVALID, op, "cannot read '%s'", path);
  }
  *out = b, *len = n;
  return CT_OK;
}
#endif

CTDEF ct_safetensors *ct_safetensors_open(const char *path) {
  static const char *op = "ct_safetensors_open";
  unsigned char *bytes = NULL;
  size_t len = 0;
  ct__st_buffer *buf;
  int kind = CT__ST_OWNED;
  if (!path) return ct__fail_null(op, "path"), (ct_safetensors *)NULL;
#ifdef CT__ST_MMAP
  {
#ifdef O_CLOEXEC
    int fd = open(path, O_RDONLY | O_CLOEXEC);
#else
    int fd = open(path, O_RDONLY);
#endif
    struct stat sb;
    size_t hint = 0;
    ct_status s;
    if (fd < 0) return ct_fail(CT_ERR_INVALID, op, "cannot open '%s': %s", path, strerror(errno)), (ct_safetensors *)NULL;
    if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0 && (uint64_t)sb.st_size <= (uint64_t)SIZE_MAX) {
      /* private and writable: in-place ops on loaded tensors stay in this process (copy-on-write) */
      void *m = mmap(NULL, (size_t)sb.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
      hint = (size_t)sb.st_size;
      if (m != MAP_FAILED) bytes = (unsigned char *)m, len = (size_t)sb.st_size, kind = CT__ST_MAPPED;
    }
    s = kind == CT__ST_MAPPED ? CT_OK : ct__st_read_fd(fd, hint, path, op, &bytes, &len);
    close(fd); /* (a mapping outlives its descriptor) */
    if (s != CT_OK) return NULL;
  }
#else
  {
    FILE *f = fopen(path, "rb");
    ct_status s;
    if (!f) return ct_fail(CT_ERR_INVALID, op, "cannot open '%s': %s", path, strerror(errno)), (ct_safetensors *)NULL;
    s = ct__st_read_file(f, path, op, &bytes, &len);
    fclose(f);
    if (s != CT_OK) return NULL;
  }
#endif
  if (!(buf = ct__st_buffer_new(kind, bytes, len, op))) {
#ifdef CT__ST_MMAP
    if (kind == CT__ST_MAPPED) munmap(bytes, len);
    else
#endif
      CT_FREE(bytes);
    return NULL;
  }
  return ct__st_make(buf, op, false);
}

/* ---- queries ---- */
CTDEF int ct_safetensors_count(const ct_safetensors *st) { return st ? st->n : 0; }
CTDEF const char *ct_safetensors_name(const ct_safetensors *st, int i) {
  return st && i >= 0 && i < st->n ? st->entries[i].name : NULL;
}
CTDEF int ct_safetensors_find(const ct_safetensors *st, const char *name) {
  int lo = 0, hi;
  if (!st || !name) return -1;
  hi = st->n - 1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2, c = strcmp(st->entries[mid].name, name);
    if (c == 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
CTDEF ct_status ct_safetensors_tensor_info(const ct_safetensors *st, int i, ct_safetensors_info *out) {
  static const char *op = "ct_safetensors_tensor_info";
  const ct__st_entry *e;
  int k;
  if (!st) return ct__fail_null(op, "st");
  if (!out) return ct__fail_null(op, "out");
  if (i < 0 || i >= st->n) return ct_fail(CT_ERR_INDEX, op, "index %d out of range: the file holds %d tensors", i, st->n);
  e = &st->entries[i];
  memset(out, 0, sizeof *out);
  out->name = e->name;
  out->format_dtype = ct__st_dtypes[e->st_dtype].name;
  out->dtype = (ct_dtype)ct__st_dtypes[e->st_dtype].dtype;
  out->ndim = e->ndim;
  for (k = 0; k < e->ndim; k++) out->sizes[k] = e->sizes[k];
  out->offset = e->begin;
  out->nbytes = e->end - e->begin;
  return CT_OK;
}
CTDEF int ct_safetensors_metadata_count(const ct_safetensors *st) { return st ? st->nmeta : 0; }
CTDEF const char *ct_safetensors_metadata_key(const ct_safetensors *st, int i) {
  return st && i >= 0 && i < st->nmeta ? st->meta_keys[i] : NULL;
}
CTDEF const char *ct_safetensors_metadata(const ct_safetensors *st, const char *key) {
  int lo = 0, hi;
  if (!st || !key) return NULL;
  hi = st->nmeta - 1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2, c = strcmp(st->meta_keys[mid], key);
    if (c == 0) return st->meta_values[mid];
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return NULL;
}
CTDEF bool ct_safetensors_is_mapped(const ct_safetensors *st) { return st && st->buf->kind == CT__ST_MAPPED; }
CTDEF const void *ct_safetensors_data(const ct_safetensors *st, size_t *nbytes) {
  if (nbytes) *nbytes = st ? st->data_len : 0;
  return st ? (const void *)st->data : NULL;
}

/* ---- tensors ---- */
/* Entry e as a tensor: untracked new reference. */
static ct_tensor *ct__st_tensor(ct_safetensors *st, const ct__st_entry *e, const char *op) {
  const ct__st_dtype_desc *d = &ct__st_dtypes[e->st_dtype];
  ct_dtype dtype = (ct_dtype)d->dtype;
  unsigned char *src = st->data + e->begin;
  size_t es, nbytes = (size_t)(e->end - e->begin);
  bool little = ct__st_host_little_endian();
  bool copy;
  ct_tensor *t;
  if (dtype == CT_DTYPE_NONE)
    return ct_fail(CT_ERR_DTYPE, op, "tensor '%.64s' is %s, which has no ctorch dtype", e->name, d->name), (ct_tensor *)NULL;
  es = ct_dtype_size(dtype);
  if (e->numel == 0) return ct__empty(op, e->ndim, e->sizes, dtype, CT_CPU);
  copy = (uintptr_t)src % es != 0 || (!little && es > 1);
  if (dtype == CT_BOOL && !copy) {
    size_t k;
    for (k = 0; k < nbytes && src[k] <= 1; k++) {
    }
    copy = k < nbytes;
  }
  if (!copy) {
    /* the storage gets its deleter only once the tensor exists, so a failure frees nothing of ours */
    if (!(t = ct__from_blob(src, e->ndim, e->sizes, NULL, dtype, NULL, NULL))) return NULL;
    ct__atomic_add(&st->buf->refcount, 1);
    t->storage->deleter = ct__st_storage_deleter;
    t->storage->deleter_ctx = st->buf;
    return t;
  }
  if (!(t = ct__empty(op, e->ndim, e->sizes, dtype, CT_CPU))) return NULL;
  {
    unsigned char *dst = (unsigned char *)ct_data_ptr(t);
    size_t k, b;
    if (dtype == CT_BOOL) {
      for (k = 0; k < nbytes; k++) dst[k] = src[k] != 0;
    } else if (little || es == 1) {
      memcpy(dst, src, nbytes);
    } else {
      for (k = 0; k < nbytes; k += es)
        for (b = 0; b < es; b++) dst[k + b] = src[k + es - 1 - b];
    }
  }
  return t;
}

CTDEF ct_tensor *ct_safetensors_get(ct_safetensors *st, const char *name) {
  static const char *op = "ct_safetensors_get";
  int i;
  if (!st) return ct__fail_null(op, "st"), (ct_tensor *)NULL;
  if (!name) return ct__fail_null(op, "name"), (ct_tensor *)NULL;
  if ((i = ct_safetensors_find(st, name)) < 0)
    return ct_fail(CT_ERR_INVALID, op, "no tensor named '%.200s' in the file (%d tensors)", name, st->n), (ct_tensor *)NULL;
  return ct__track(ct__st_tensor(st, &st->entries[i], op));
}

/* ---- state dicts ---- */
/* appends "name" items to msg (bounded), PyTorch's style */
static void ct__st_append(char *msg, size_t cap, const char *text) {
  size_t n = strlen(msg), t = strlen(text);
  if (n + 1 >= cap) return;
  if (t > cap - n - 1) {
    memcpy(msg + n, text, cap - n - 1);
    msg[cap - 1] = '\0';
    if (cap >= 4) memcpy(msg + cap - 4, "...", 3);
    return;
  }
  memcpy(msg + n, text, t + 1);
}

CTDEF ct_status ct_safetensors_load_into(ct_safetensors *st, int n, const char *const *names, ct_tensor *const *tensors,
                                         bool strict, bool *missing, bool *unexpected) {
  static const char *op = "ct_safetensors_load_into";
  int *index = NULL, i, nmissing = 0, nunexpected = 0;
  bool *used = NULL;
  ct_status s = CT_OK;
  if (!st) return ct__fail_null(op, "st");
  if (n < 0 || (n > 0 && (!names || !tensors))) return ct_fail(CT_ERR_INVALID, op, "%d tensors at names %p, tensors %p", n, (const void *)names, (const void *)tensors);
  for (i = 0; i < n; i++) {
    if (!names[i]) return ct_fail(CT_ERR_NULL, op, "names[%d] is NULL", i);
    if (!tensors[i]) return ct_fail(CT_ERR_NULL, op, "tensors[%d] ('%.64s') is NULL", i, names[i]);
  }
  index = (int *)CT_MALLOC(sizeof(int) * (size_t)(n ? n : 1));
  used = (bool *)CT_MALLOC(sizeof(bool) * (size_t)(st->n ? st->n : 1));
  if (!index || !used) {
    CT_FREE(index), CT_FREE(used);
    return ct_fail(CT_ERR_OOM, op, "out of memory");
  }
  memset(used, 0, sizeof(bool) * (size_t)(st->n ? st->n : 1));
  for (i = 0; i < n; i++) {
    index[i] = ct_safetensors_find(st, names[i]);
    if (index[i] >= 0) used[index[i]] = true;
    else nmissing++;
    if (missing) missing[i] = index[i] < 0;
  }
  for (i = 0; i < st->n; i++) {
    if (!used[i]) nunexpected++;
    if (unexpected) unexpected[i] = !used[i];
  }
  if (strict && (nmissing || nunexpected)) {
    char msg[480] = "Error(s) in loading state_dict:", item[160];
    int k, shown;
    if (nmissing) {
      ct__st_append(msg, sizeof msg, " Missing key(s) in state_dict: ");
      for (k = 0, shown = 0; k < n; k++)
        if (index[k] < 0) {
          snprintf(item, sizeof item, "%s\"%.100s\"", shown++ ? ", " : "", names[k]);
          ct__st_append(msg, sizeof msg, item);
        }
      ct__st_append(msg, sizeof msg, ".");
    }
    if (nunexpected) {
      ct__st_append(msg, sizeof msg, " Unexpected key(s) in state_dict: ");
      for (k = 0, shown = 0; k < st->n; k++)
        if (!used[k]) {
          snprintf(item, sizeof item, "%s\"%.100s\"", shown++ ? ", " : "", st->entries[k].name);
          ct__st_append(msg, sizeof msg, item);
        }
      ct__st_append(msg, sizeof msg, ".");
    }
    s = ct_fail(CT_ERR_INVALID, op, "%s", msg);
  }
  for (i = 0; i < n && s == CT_OK; i++) { /* every check before the first copy */
    const ct__st_entry *e;
    const ct_tensor *t = tensors[i];
    ct_dtype fd;
    if (index[i] < 0) continue;
    e = &st->entries[index[i]];
    fd = (ct_dtype)ct__st_dtypes[e->st_dtype].dtype;
    if (fd != (ct_dtype)t->dtype)
      s = ct_fail(CT_ERR_DTYPE, op, "dtype mismatch for %.64s: the checkpoint has %s (%s), the tensor is %s", names[i],
                  ct__st_dtypes[e->st_dtype].name, fd == CT_DTYPE_NONE ? "no ctorch dtype" : ct_dtype_name(fd),
                  ct_dtype_name((ct_dtype)t->dtype));
    else if (e->ndim != t->ndim || memcmp(e->sizes, t->sizes, sizeof(int64_t) * (size_t)e->ndim) != 0) {
      char a[160], b[160];
      s = ct_fail(CT_ERR_SHAPE, op,
                  "size mismatch for %.64s: copying a param with shape %s from checkpoint, the shape in current model is %s.",
                  names[i], ct_shape_format(e->ndim, e->sizes, a, sizeof a), ct_shape_format(t->ndim, t->sizes, b, sizeof b));
    }
  }
  if (s == CT_OK) {
    ct_guard g;
    ct_no_grad_begin(&g);
    for (i = 0; i < n && s == CT_OK; i++) {
      ct_tensor *src;
      if (index[i] < 0) continue;
      if (!(src = ct__st_tensor(st, &st->entries[index[i]], op))) {
        s = ct_last_error();
        break;
      }
      s = ct_copy_(tensors[i], src);
      ct_release(src);
    }
    ct_guard_end(&g);
  }
  CT_FREE(index);
  CT_FREE(used);
  return s;
}

/* ---- saving ---- */
typedef struct ct__st_sb { /* a growing string */
  char *p;
  size_t n, cap;
  bool oom;
} ct__st_sb;
static void ct__st_sb_put(ct__st_sb *b, const char *s, size_t n) {
  if (b->oom) return;
  if (b->n + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    char *p;
    while (cap < b->n + n + 1) cap *= 2;
    if (!(p = (char *)CT_REALLOC(b->p, cap))) {
      b->oom = true;
      return;
    }
    b->p = p, b->cap = cap;
  }
  memcpy(b->p + b->n, s, n);
  b->n += n;
  b->p[b->n] = '\0';
}
static void ct__st_sb_str(ct__st_sb *b, const char *s) { ct__st_sb_put(b, s, strlen(s)); }
/* a JSON string as serde_json and Python's json.dumps(ensure_ascii=False)
 * write it: '"', '\\' and control characters escaped, the rest as is */
static void ct__st_sb_json(ct__st_sb *b, const char *s) {
  static const char hex[] = "0123456789abcdef";
  ct__st_sb_put(b, "\"", 1);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    char esc[7];
    if (c == '"') ct__st_sb_put(b, "\\\"", 2);
    else if (c == '\\') ct__st_sb_put(b, "\\\\", 2);
    else if (c == '\n') ct__st_sb_put(b, "\\n", 2);
    else if (c == '\r') ct__st_sb_put(b, "\\r", 2);
    else if (c == '\t') ct__st_sb_put(b, "\\t", 2);
    else if (c == '\b') ct__st_sb_put(b, "\\b", 2);
    else if (c == '\f') ct__st_sb_put(b, "\\f", 2);
    else if (c < 0x20) {
      memcpy(esc, "\\u00", 4);
      esc[4] = hex[c >> 4], esc[5] = hex[c & 15], esc[6] = '\0';
      ct__st_sb_put(b, esc, 6);
    } else ct__st_sb_put(b, (const char *)&c, 1);
  }
  ct__st_sb_put(b, "\"", 1);
}
static void ct__st_sb_u64(ct__st_sb *b, uint64_t v) {
  char num[24];
  snprintf(num, sizeof num, "%llu", (unsigned long long)v);
  ct__st_sb_str(b, num);
}

typedef struct ct__st_item {
  const char *name;
  ct_tensor *t;
  int rank;
  uint64_t nbytes;
} ct__st_item;
/* the reference's order: dtype rank descending, then name */
static int ct__st_cmp_item(const void *a, const void *b) {
  const ct__st_item *x = (const ct__st_item *)a, *y = (const ct__st_item *)b;
  if (x->rank != y->rank) return x->rank > y->rank ? -1 : 1;
  return strcmp(x->name, y->name);
}
typedef struct ct__st_ckv {
  const char *key, *value;
} ct__st_ckv;
static int ct__st_cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }
static int ct__st_cmp_ckv(const void *a, const void *b) { return strcmp(((const ct__st_ckv *)a)->key, ((const ct__st_ckv *)b)->key); }

/* A prepared save: the items in file order and the padded header. */
typedef struct ct__st_plan {
  int n;
  ct__st_item *items;
  ct__st_sb header;
  uint64_t data_len;
} ct__st_plan;
static void ct__st_plan_free(ct__st_plan *p) {
  CT_FREE(p->items);
  CT_FREE(p->header.p);
}

static ct_status ct__st_prepare(const char *op, int n, const char *const *names, ct_tensor *const *tensors, int nmeta,
                                const char *const *keys, const char *const *values, ct__st_plan *plan) {
  ct__st_ckv *meta = NULL;
  uint64_t at = 0;
  int i;
  memset(plan, 0, sizeof *plan);
  if (n < 0 || (n > 0 && (!names || !tensors)))
    return ct_fail(CT_ERR_INVALID, op, "%d tensors at names %p, tensors %p", n, (const void *)names, (const void *)tensors);
  if (nmeta < 0 || (nmeta > 0 && (!keys || !values)))
    return ct_fail(CT_ERR_INVALID, op, "%d metadata entries at keys %p, values %p", nmeta, (const void *)keys, (const void *)values);
  for (i = 0; i < n; i++) {
    const ct_tensor *t = tensors[i];
    size_t len;
    if (!names[i]) return ct_fail(CT_ERR_NULL, op, "names[%d] is NULL", i);
    len = strlen(names[i]);
    if (!t) return ct_fail(CT_ERR_NULL, op, "tensors[%d] ('%.64s') is NULL", i, names[i]);
    if (ct__st_utf8_check((const unsigned char *)names[i], len) != len) return ct_fail(CT_ERR_INVALID, op, "names[%d] is not valid UTF-8", i);
    if (!strcmp(names[i], CT__ST_METADATA)) return ct_fail(CT_ERR_INVALID, op, "names[%d]: '__metadata__' is reserved for the metadata", i);
    if (t->device.type == CT_DEVICE_META)
      return ct_fail(CT_ERR_DEVICE, op, "tensor '%.64s' is on the meta device: it has no data to save", names[i]);
    if (ct__st_rank_of((ct_dtype)t->dtype) < 0) return ct_fail(CT_ERR_DTYPE, op, "tensor '%.64s' has an invalid dtype", names[i]);
  }
  for (i = 0; i < nmeta; i++) {
    size_t kl, vl;
    if (!keys[i] || !values[i]) return ct_fail(CT_ERR_NULL, op, "metadata %s[%d] is NULL", keys[i] ? "values" : "keys", i);
    kl = strlen(keys[i]), vl = strlen(values[i]);
    if (ct__st_utf8_check((const unsigned char *)keys[i], kl) != kl || ct__st_utf8_check((const unsigned char *)values[i], vl) != vl)
      return ct_fail(CT_ERR_INVALID, op, "metadata entry %d ('%.64s') is not valid UTF-8", i, keys[i]);
  }
  if (!(plan->items = (ct__st_item *)CT_MALLOC(sizeof(ct__st_item) * (size_t)(n ? n : 1))) ||
      (nmeta && !(meta = (ct__st_ckv *)CT_MALLOC(sizeof(ct__st_ckv) * (size_t)nmeta)))) {
    ct__st_plan_free(plan);
    return ct_fail(CT_ERR_OOM, op, "out of memory");
  }
  plan->n = n;
  for (i = 0; i < n; i++) {
    ct__st_item *it = &plan->items[i];
    it->name = names[i];
    it->t = tensors[i];
    it->rank = ct__st_rank_of((ct_dtype)tensors[i]->dtype);
    it->nbytes = (uint64_t)tensors[i]->numel * ct_dtype_size((ct_dtype)tensors[i]->dtype);
  }
  qsort(plan->items, (size_t)n, sizeof *plan->items, ct__st_cmp_item);
  for (i = 0; i < nmeta; i++) meta[i].key = keys[i], meta[i].value = values[i];
  if (nmeta) qsort(meta, (size_t)nmeta, sizeof *meta, ct__st_cmp_ckv);
  { /* unique names: sorted by name, equal ones are adjacent */
    const char **sorted = (const char **)CT_MALLOC(sizeof(char *) * (size_t)(n ? n : 1));
    if (!sorted) {
      CT_FREE(meta);
      ct__st_plan_free(plan);
      return ct_fail(CT_ERR_OOM, op, "out of memory");
    }
    for (i = 0; i < n; i++) sorted[i] = names[i];
    qsort((void *)sorted, (size_t)n, sizeof *sorted, ct__st_cmp_str);
    for (i = 1; i < n && strcmp(sorted[i - 1], sorted[i]) != 0; i++) {
    }
    if (i < n) {
      ct_status s = ct_fail(CT_ERR_INVALID, op, "tensor name '%.64s' appears twice", sorted[i]);
      CT_FREE(sorted);
      CT_FREE(meta);
      ct__st_plan_free(plan);
      return s;
    }
    CT_FREE(sorted);
  }
  for (i = 1; i < nmeta; i++)
    if (!strcmp(meta[i - 1].key, meta[i].key)) {
      ct_status s = ct_fail(CT_ERR_INVALID, op, "metadata key '%.64s' appears twice", meta[i].key);
      CT_FREE(meta);
      ct__st_plan_free(plan);
      return s;
    }
  /* the header, compact, as the reference writes it */
  ct__st_sb_put(&plan->header, "{", 1);
  if (nmeta) {
    ct__st_sb_json(&plan->header, CT__ST_METADATA);
    ct__st_sb_put(&plan->header, ":{", 2);
    for (i = 0; i < nmeta; i++) {
      if (i) ct__st_sb_put(&plan->header, ",", 1);
      ct__st_sb_json(&plan->header, meta[i].key);
      ct__st_sb_put(&plan->header, ":", 1);
      ct__st_sb_json(&plan->header, meta[i].value);
    }
    ct__st_sb_put(&plan->header, "}", 1);
  }
  CT_FREE(meta);
  for (i = 0; i < n; i++) {
    const ct__st_item *it = &plan->items[i];
    int k;
    if (i || nmeta) ct__st_sb_put(&plan->header, ",", 1);
    ct__st_sb_json(&plan->header, it->name);
    ct__st_sb_str(&plan->header, ":{\"dtype\":");
    ct__st_sb_json(&plan->header, ct__st_dtypes[it->rank].name);
    ct__st_sb_str(&plan->header, ",\"shape\":[");
    for (k = 0; k < it->t->ndim; k++) {
      if (k) ct__st_sb_put(&plan->header, ",", 1);
      ct__st_sb_u64(&plan->header, (uint64_t)it->t->sizes[k]);
    }
    ct__st_sb_str(&plan->header, "],\"data_offsets\":[");
    ct__st_sb_u64(&plan->header, at);
    ct__st_sb_put(&plan->header, ",", 1);
    ct__st_sb_u64(&plan->header, at + it->nbytes);
    ct__st_sb_str(&plan->header, "]}");
    at += it->nbytes;
  }
  ct__st_sb_put(&plan->header, "}", 1);
  while (!plan->header.oom && plan->header.n % 8) ct__st_sb_put(&plan->header, " ", 1);
  if (plan->header.oom) {
    ct__st_plan_free(plan);
    return ct_fail(CT_ERR_OOM, op, "out of memory");
  }
  plan->data_len = at;
  return CT_OK;
}

/* where the bytes go: a file or a buffer */
typedef struct ct__st_sink {
  FILE *f;
  unsigned char *buf;
  size_t at;
} ct__st_sink;
static ct_status ct__st_emit(ct__st_sink *k, const void *p, size_t n, const char *op) {
  if (!n) return CT_OK;
  if (k->f) {
    if (fwrite(p, 1, n, k->f) != n) return ct_fail(CT_ERR_INVALID, op, "write failed: %s", strerror(errno));
  } else {
    memcpy(k->buf + k->at, p, n);
  }
  k->at += n;
  return CT_OK;
}

/* the length prefix, the header, then each tensor's bytes (little-endian) */
static ct_status ct__st_write(const ct__st_plan *plan, ct__st_sink *k, const char *op) {
  unsigned char prefix[8];
  uint64_t hlen = plan->header.n;
  bool little = ct__st_host_little_endian();
  ct_status s;
  ct_guard ng;
  int i, b;
  for (b = 0; b < 8; b++) prefix[b] = (unsigned char)(hlen >> (8 * b));
  if ((s = ct__st_emit(k, prefix, 8, op)) != CT_OK || (s = ct__st_emit(k, plan->header.p, plan->header.n, op)) != CT_OK) return s;
  ct_no_grad_begin(&ng); /* (the copies below are not part of any graph) */
  for (i = 0; i < plan->n && s == CT_OK; i++) {
    const ct__st_item *it = &plan->items[i];
    ct_tensor *c = it->t;
    size_t es = ct_dtype_size((ct_dtype)c->dtype);
    ct_guard sc;
    if (!it->nbytes) continue;
    ct_scope_begin(&sc); /* the copies are temporaries of this scope */
    if (c->device.type != CT_DEVICE_CPU) c = ct_to_device(c, CT_CPU);
    if (c && !ct_is_contiguous(c)) c = ct_contiguous(c);
    if (!c) {
      s = ct_last_error();
    } else if (little || es == 1) {
      s = ct__st_emit(k, ct_data_ptr(c), (size_t)it->nbytes, op);
    } else { /* a big-endian host: swap, a chunk at a time */
      const unsigned char *src = (const unsigned char *)ct_data_ptr(c);
      unsigned char tmp[4096]; /* (a multiple of every element size) */
      size_t total = (size_t)it->nbytes, done, e, q;
      for (done = 0; done < total && s == CT_OK;) {
        size_t chunk = total - done;
        if (chunk > sizeof tmp) chunk = sizeof tmp;
        for (e = 0; e < chunk; e += es)
          for (q = 0; q < es; q++) tmp[e + q] = src[done + e + es - 1 - q];
        s = ct__st_emit(k, tmp, chunk, op);
        done += chunk;
      }
    }
    ct_guard_end(&sc);
  }
  ct_guard_end(&ng);
  return s;
}

CTDEF ct_status ct_safetensors_save_buffer(int n, const char *const *names, ct_tensor *const *tensors, int nmeta,
                                           const char *const *meta_keys, const char *const *meta_values, void **data,
                                           size_t *len) {
  static const char *op = "ct_safetensors_save_buffer";
  ct__st_plan plan;
  ct__st_sink sink;
  uint64_t total;
  ct_status s;
  if (!data) return ct__fail_null(op, "data");
  if (!len) return ct__fail_null(op, "len");
  *data = NULL, *len = 0;
  if ((s = ct__st_prepare(op, n, names, tensors, nmeta, meta_keys, meta_values, &plan)) != CT_OK) return s;
  total = 8 + (uint64_t)plan.header.n + plan.data_len;
  memset(&sink, 0, sizeof sink);
  if (total < plan.data_len || total > (uint64_t)SIZE_MAX || !(sink.buf = (unsigned char *)CT_MALLOC((size_t)total))) {
    ct__st_plan_free(&plan);
    return ct_fail(CT_ERR_OOM, op, "out of memory for a %llu-byte file", (unsigned long long)total);
  }
  s = ct__st_write(&plan, &sink, op);
  ct__st_plan_free(&plan);
  if (s != CT_OK) {
    CT_FREE(sink.buf);
    return s;
  }
  *data = sink.buf, *len = (size_t)total;
  return CT_OK;
}
CTDEF void ct_safetensors_free_buffer(void *data) { CT_FREE(data); }

/* The file is written beside path under a new name and renamed over path
 * at the end: a reader (or a mapping of the old file, whose tensors may be
 * the ones being saved) never sees a partial file, and a failed save leaves
 * path as it was. */
static unsigned ct__st_tmp_counter;
CTDEF ct_status ct_safetensors_save(const char *path, int n, const char *const *names, ct_tensor *const *tensors, int nmeta,
                                    const char *const *meta_keys, const char *const *meta_values) {
  static const char *op = "ct_safetensors_save";
  ct__st_plan plan;
  ct__st_sink sink;
  ct_status s;
  size_t cap;
  char *tmp;
  unsigned long pid = 0;
  int tries;
  if (!path) return ct__fail_null(op, "path");
  if ((s = ct__st_prepare(op, n, names, tensors, nmeta, meta_keys, meta_values, &plan)) != CT_OK) return s;
  cap = strlen(path) + 64;
  if (!(tmp = (char *)CT_MALLOC(cap))) {
    ct__st_plan_free(&plan);
    return ct_fail(CT_ERR_OOM, op, "out of memory");
  }
#ifdef CT__ST_UNIX
  pid = (unsigned long)getpid();
#endif
  memset(&sink, 0, sizeof sink);
  for (tries = 0; tries < 64 && !sink.f; tries++) { /* "x": C11's exclusive create, never another's file */
    snprintf(tmp, cap, "%s.%lu.%u.tmp", path, pid, ct__atomic_add(&ct__st_tmp_counter, 1u));
    sink.f = fopen(tmp, "wbx");
#ifdef EEXIST
    if (!sink.f && errno != EEXIST) break;
#endif
  }
  if (!sink.f) {
    s = ct_fail(CT_ERR_INVALID, op, "cannot create '%s': %s", tmp, strerror(errno));
    ct__st_plan_free(&plan);
    CT_FREE(tmp);
    return s;
  }
  s = ct__st_write(&plan, &sink, op);
  ct__st_plan_free(&plan);
  if (fclose(sink.f) != 0 && s == CT_OK) s = ct_fail(CT_ERR_INVALID, op, "cannot write '%s': %s", tmp, strerror(errno));
  if (s == CT_OK && rename(tmp, path) != 0) {
#ifndef CT__ST_UNIX
    if (remove(path) != 0 || rename(tmp, path) != 0) /* (rename does not replace an existing file everywhere) */
#endif
      s = ct_fail(CT_ERR_INVALID, op, "cannot rename '%s' to '%s': %s", tmp, path, strerror(errno));
  }
  if (s != CT_OK) remove(tmp);
  CT_FREE(tmp);
  return s;
}

CT_EXTERN_C_END
#endif /* CT__SAFETENSORS_IMPL */
