/* fuzz/safetensors.c - the safetensors loader fuzzer (ctorch/safetensors.h).
 *
 * The input bytes are a whole file. They go to ct_safetensors_from_buffer
 * (a copy, so zero-copy tensors point into an aligned block) and to
 * ct_safetensors_from_memory (borrowed: the input itself). The rules:
 *  - both agree on acceptance; a refusal sets an error with a message, and
 *    the borrowed bytes' deleter is not called;
 *  - an accepted file is consistent: names in strictly increasing byte
 *    order, each found by ct_safetensors_find at its index, its info within
 *    the byte buffer with nbytes = numel * element size, metadata keys in
 *    strictly increasing order with their values found by key;
 *  - every tensor with a ctorch dtype loads with the file's shape and
 *    dtype; its bytes are the file's (BOOL bytes other than 0 read as 1);
 *    a tensor whose bytes are in the buffer is there at its offset; the
 *    others are refused with CT_ERR_DTYPE;
 *  - it round-trips: the loadable tensors and the metadata saved with
 *    ct_safetensors_save_buffer load back the same (names, shapes, bytes,
 *    metadata), and that file is written again byte for byte the same;
 *  - ct_safetensors_load_into (non-strict) into zeroed tensors of the
 *    file's shapes copies the same bytes, with the missing / unexpected
 *    flags right (one made-up name among them);
 *  - at the end no tensor or storage is alive and the borrowed bytes'
 *    deleter ran exactly once (after the last zero-copy tensor died).
 * A broken rule aborts with a "FINDING:" line.
 */
#include "fuzz_common.h"
#include "ctorch.h" /* the implementation is fuzz/ctorch_impl.c */

#define FZ_MAX_TENSORS 64

static void finding(const char *what) {
  char key[256];
  fprintf(stderr, "FINDING: %s (last error: %s)\n", what, ct_last_error_message());
  snprintf(key, sizeof key, "FINDING: %s", what);
  fz_triage_save(key);
  if (!FZ_TRIAGE_CONTINUE) abort();
}

static int deleter_calls;
static void count_deleter(void *data, void *ctx) {
  (void)data, (void)ctx;
  deleter_calls++;
}

/* t's bytes against the file's entry (BOOL: nonzero reads as 1) */
static int same_as_entry(ct_tensor *t, const ct_safetensors *st, const ct_safetensors_info *info) {
  size_t n;
  const unsigned char *d = (const unsigned char *)ct_safetensors_data(st, &n) + info->offset, *p;
  size_t k;
  if (!ct_is_contiguous(t) || (uint64_t)t->numel * ct_dtype_size((ct_dtype)t->dtype) != info->nbytes) return 0;
  if (!info->nbytes) return 1;
  p = (const unsigned char *)ct_data_ptr(t);
  if (t->dtype == CT_BOOL) {
    for (k = 0; k < info->nbytes; k++)
      if (p[k] != (d[k] != 0)) return 0;
    return 1;
  }
  return memcmp(p, d, (size_t)info->nbytes) == 0;
}

static void check_file(ct_safetensors *st) {
  const char *names[FZ_MAX_TENSORS + 1], *keys[FZ_MAX_TENSORS], *values[FZ_MAX_TENSORS];
  ct_tensor *ts[FZ_MAX_TENSORS + 1];
  bool missing[FZ_MAX_TENSORS + 1], unexpected[FZ_MAX_TENSORS * 4], listed[FZ_MAX_TENSORS * 4];
  size_t data_len;
  const char *data = (const char *)ct_safetensors_data(st, &data_len);
  int n = ct_safetensors_count(st), nm = ct_safetensors_metadata_count(st), i, k, nload = 0;
  for (i = 0; i < nm; i++) {
    const char *key = ct_safetensors_metadata_key(st, i), *v = ct_safetensors_metadata(st, key);
    if (!key || !v) finding("a metadata key or its value is missing");
    if (i && strcmp(ct_safetensors_metadata_key(st, i - 1), key) >= 0) finding("metadata keys not strictly increasing");
    if (i < FZ_MAX_TENSORS) keys[i] = key, values[i] = v;
  }
  memset(listed, 0, sizeof listed);
  for (i = 0; i < n; i++) {
    ct_safetensors_info info;
    const char *name = ct_safetensors_name(st, i);
    ct_tensor *t;
    int64_t numel = 1;
    if (!name || ct_safetensors_find(st, name) != i) finding("a name is not found at its index");
    if (i && strcmp(ct_safetensors_name(st, i - 1), name) >= 0) finding("names not strictly increasing");
    if (ct_safetensors_tensor_info(st, i, &info) != CT_OK) finding("tensor_info failed on a valid index");
    if (info.offset > data_len || info.nbytes > data_len - info.offset) finding("a tensor's bytes lie outside the buffer");
    if (info.ndim < 0 || info.ndim > CT_MAX_DIMS) finding("rank out of range");
    for (k = 0; k < info.ndim; k++) {
      if (info.sizes[k] < 0) finding("negative size");
      if (info.sizes[k] == 0) numel = 0;
    }
    for (k = 0; k < info.ndim && numel; k++) numel *= info.sizes[k]; /* (fits: nbytes is in the buffer) */
    if (info.dtype != CT_DTYPE_NONE && (uint64_t)numel * ct_dtype_size(info.dtype) != info.nbytes)
      finding("nbytes is not numel * element size");
    ct_clear_error();
    t = ct_safetensors_get(st, name);
    if (info.dtype == CT_DTYPE_NONE) {
      if (t || ct_last_error() != CT_ERR_DTYPE) finding("a tensor without a ctorch dtype was not refused with CT_ERR_DTYPE");
      ct_release(t);
      continue;
    }
    if (!t) {
      if (ct_last_error() != CT_ERR_OOM) finding("a valid tensor did not load");
      continue;
    }
    if (t->dtype != (int8_t)info.dtype || t->ndim != info.ndim) finding("loaded dtype or rank differs");
    for (k = 0; k < info.ndim; k++)
      if (t->sizes[k] != info.sizes[k]) finding("loaded shape differs");
    if (!same_as_entry(t, st, &info)) finding("loaded bytes differ from the file's");
    if (t->numel && ct_data_ptr(t) >= (const void *)data && ct_data_ptr(t) < (const void *)(data + data_len) &&
        (const char *)ct_data_ptr(t) != data + info.offset)
      finding("a zero-copy tensor points at the wrong bytes");
    if (nload < FZ_MAX_TENSORS) {
      if (i < FZ_MAX_TENSORS * 4) listed[i] = true;
      names[nload] = name, ts[nload++] = t;
    } else {
      ct_release(t);
    }
  }
  /* round trip */
  {
    void *buf = NULL, *buf2 = NULL;
    size_t len = 0, len2 = 0;
    int nmeta = nm < FZ_MAX_TENSORS ? nm : FZ_MAX_TENSORS;
    ct_safetensors *back;
    ct_clear_error();
    if (ct_safetensors_save_buffer(nload, names, ts, nmeta, keys, values, &buf, &len) != CT_OK) {
      if (ct_last_error() != CT_ERR_OOM) finding("saving loaded tensors failed");
    } else if (!(back = ct_safetensors_from_buffer(buf, len))) {
      if (ct_last_error() != CT_ERR_OOM) finding("a file ct_safetensors_save_buffer wrote does not load");
    } else {
      if (ct_safetensors_count(back) != nload || ct_safetensors_metadata_count(back) != nmeta) finding("round trip: counts differ");
      for (i = 0; i < nload; i++) {
        ct_tensor *t = ct_safetensors_get(back, names[i]);
        ct_safetensors_info info;
        int j = ct_safetensors_find(back, names[i]);
        if (!t || j < 0 || ct_safetensors_tensor_info(back, j, &info) != CT_OK) {
          if (ct_last_error() != CT_ERR_OOM) finding("round trip: a tensor is missing");
        } else if (t->dtype != ts[i]->dtype || !ct_same_shape(t, ts[i]) || !same_as_entry(ts[i], back, &info)) {
          finding("round trip: a tensor differs");
        }
        ct_release(t);
      }
      for (i = 0; i < nmeta; i++) {
        const char *v = ct_safetensors_metadata(back, keys[i]);
        if (!v || strcmp(v, values[i]) != 0) finding("round trip: metadata differs");
      }
      if (ct_safetensors_save_buffer(nload, names, ts, nmeta, keys, values, &buf2, &len2) == CT_OK &&
          (len2 != len || memcmp(buf, buf2, len) != 0))
        finding("saving the same tensors twice gave different bytes");
      ct_safetensors_free_buffer(buf2);
      ct_safetensors_close(back);
    }
    ct_safetensors_free_buffer(buf);
  }
  /* load_into, non-strict, with one name the file lacks */
  {
    ct_tensor *dst[FZ_MAX_TENSORS + 1];
    int ok = 1;
    for (i = 0; i < nload; i++) {
      dst[i] = ct_zeros(ts[i]->ndim, ts[i]->sizes, (ct_dtype)ts[i]->dtype);
      if (!dst[i]) ok = 0;
    }
    names[nload] = "\x01not in any file";
    dst[nload] = ct_zeros(0, NULL, CT_F32);
    if (!dst[nload]) ok = 0;
    ct_clear_error();
    if (ok && n <= FZ_MAX_TENSORS * 4) {
      if (ct_safetensors_load_into(st, nload + 1, names, dst, false, missing, unexpected) != CT_OK) {
        if (ct_last_error() != CT_ERR_OOM) finding("load_into failed on the file's own shapes and dtypes");
      } else {
        for (i = 0; i < nload; i++) {
          ct_safetensors_info info;
          if (missing[i]) finding("load_into: a present name flagged missing");
          if (ct_safetensors_tensor_info(st, ct_safetensors_find(st, names[i]), &info) != CT_OK || !same_as_entry(dst[i], st, &info))
            finding("load_into copied other bytes");
        }
        if (!missing[nload]) finding("load_into: the made-up name was not flagged missing");
        for (i = 0; i < n; i++)
          if (unexpected[i] != !listed[i]) finding("load_into: wrong unexpected flag");
      }
    }
    for (i = 0; i <= nload; i++) ct_release(dst[i]);
  }
  for (i = 0; i < nload; i++) ct_release(ts[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ct_memory_stats before = ct_memory_stats_get(), after;
  ct_safetensors *copy, *borrowed;
  fz_triage_begin(data, size);
  ct_clear_error();
  copy = ct_safetensors_from_buffer(data, size);
  if (!copy && (ct_last_error() == CT_OK || !ct_last_error_message()[0])) finding("refused without an error message");
  deleter_calls = 0;
  ct_clear_error();
  borrowed = ct_safetensors_from_memory((void *)(uintptr_t)data, size, count_deleter, NULL);
  if (!borrowed && (ct_last_error() == CT_OK || !ct_last_error_message()[0])) finding("refused without an error message");
  if (!copy != !borrowed && ct_last_error() != CT_ERR_OOM) finding("from_buffer and from_memory disagree");
  if (!borrowed && deleter_calls) finding("a refused from_memory called the deleter");
  if (copy) check_file(copy);
  if (borrowed) check_file(borrowed);
  ct_safetensors_close(copy);
  ct_safetensors_close(borrowed);
  if (borrowed && deleter_calls != 1) finding("the borrowed bytes' deleter did not run exactly once");
  after = ct_memory_stats_get();
  if (after.live_tensors != before.live_tensors || after.live_storages != before.live_storages) finding("tensors leaked");
  ct_clear_error();
  return 0;
}
