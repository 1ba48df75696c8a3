/* examples/infer.c - batch-1 inference every frame of a game loop.
 *
 * Loads the spiral classifier that examples/train.c saved, then classifies
 * one point per frame (a point circling the origin): 20000 frames in a
 * tight loop and 120 frames paced at 60 Hz. After a warm-up a frame makes
 * no allocation at all: ctorch's counters and a count of every malloc,
 * calloc and realloc of the process (glibc) prove it. Prints the per-frame
 * latency percentiles of both loops.
 *   ./build/examples/infer [weights.safetensors]
 * (exit status 0 when the weights load and no frame allocates) */
#define _POSIX_C_SOURCE 199309L /* NOLINT(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp): clock_gettime, nanosleep */
#define CTORCH_IMPLEMENTATION
#include "ctorch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* ---- a malloc counter (glibc: the program's definitions wrap glibc's) ---- */
/* NOLINTBEGIN: replacing malloc means glibc's reserved names and its declarations */
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
#define COUNT_MALLOCS 1
extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t m);
extern void *__libc_realloc(void *p, size_t n);
extern void __libc_free(void *p);
static long mallocs;
void *malloc(size_t n) { return mallocs++, __libc_malloc(n); }
void *calloc(size_t n, size_t m) { return mallocs++, __libc_calloc(n, m); }
void *realloc(void *p, size_t n) { return mallocs++, __libc_realloc(p, n); }
void free(void *p) { __libc_free(p); }
#else
#define COUNT_MALLOCS 0
static long mallocs;
#endif
/* NOLINTEND */

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}
static void report(const char *what, double *us, int n) {
  qsort(us, (size_t)n, sizeof *us, by_value);
  printf("%-22s frames %5d  p50 %6.2f us  p90 %6.2f us  p99 %6.2f us  max %7.2f us\n", what, n, us[n / 2], us[n * 9 / 10],
         us[n * 99 / 100], us[n - 1]);
}

/* the game's per-frame work: classify the point (px, py) */
static int classify(ct_module *net, ct_tensor *input, float px, float py) {
  int64_t cls = -1;
  float *in = (float *)ct_data_ptr(input);
  in[0] = px, in[1] = py;
  CT_INFERENCE_MODE CT_SCOPE { cls = ct_get_int(ct_argmax(ct_module_forward(net, input), 1, false), 0); }
  return (int)cls;
}

int main(int argc, char **argv) {
  enum { WARMUP = 100, TIGHT = 20000, PACED = 120 };
  const char *weights = argc > 1 ? argv[1] : "build/spiral.safetensors";
  static double tight_us[TIGHT], paced_us[PACED];
  ct_module *net = ct_nn_sequential(5, (ct_module *[]){ct_nn_linear(2, 64, true), ct_nn_relu(), ct_nn_linear(64, 64, true), ct_nn_relu(),
                                                       ct_nn_linear(64, 3, true)});
  ct_tensor *input = ct_zeros(CT_DIMS(1, 2), CT_F32);
  ct_memory_stats before, after;
  long mallocs_before, frame_mallocs;
  int f, counts[3] = {0, 0, 0}, late = 0;
  double next;

  if (!net || !input || ct_module_load(net, weights, true) != CT_OK) {
    fprintf(stderr, "infer: %s (run ./build/examples/train first)\n", ct_last_error_message());
    return 1;
  }
  ct_module_eval(net);
  for (f = 0; f < WARMUP; f++) classify(net, input, 0.5f, 0.5f);

  before = ct_memory_stats_get(), mallocs_before = mallocs;
  for (f = 0; f < TIGHT; f++) {
    double t0 = now(), a = 0.01 * f;
    int c = classify(net, input, (float)(0.8 * cos(a)), (float)(0.8 * sin(a)));
    tight_us[f] = 1e6 * (now() - t0);
    if (c >= 0 && c < 3) counts[c]++;
  }
  next = now();
  for (f = 0; f < PACED; f++) { /* 60 Hz: do the frame's work, then sleep until the next frame is due */
    struct timespec ts;
    double t0 = now(), wait;
    classify(net, input, (float)(0.5 * cos(0.05 * f)), (float)(0.5 * sin(0.05 * f)));
    paced_us[f] = 1e6 * (now() - t0);
    next += 1.0 / 60;
    wait = next - now();
    if (wait < 0) late++, wait = 0;
    ts.tv_sec = (time_t)wait, ts.tv_nsec = (long)(1e9 * (wait - (double)ts.tv_sec));
    nanosleep(&ts, NULL);
  }
  after = ct_memory_stats_get(), frame_mallocs = mallocs - mallocs_before;

  printf("classes seen in the tight loop: %d / %d / %d\n", counts[0], counts[1], counts[2]);
  report("tight loop", tight_us, TIGHT);
  report("paced at 60 Hz", paced_us, PACED);
  printf("60 Hz frames late: %d\n", late);
  printf("ctorch: %lld system allocations and %lld frees in %d frames; %lld live tensors; %lld bytes cached\n",
         (long long)(after.system_allocs - before.system_allocs), (long long)(after.system_frees - before.system_frees),
         TIGHT + PACED, (long long)after.live_tensors, (long long)after.cached_bytes);
  if (COUNT_MALLOCS) printf("process: %ld mallocs in %d frames (%.3f per frame)\n", frame_mallocs, TIGHT + PACED,
                            (double)frame_mallocs / (TIGHT + PACED));
  ct_release(input);
  ct_module_free(net);
  return frame_mallocs == 0 && after.system_allocs == before.system_allocs ? 0 : 1;
}
