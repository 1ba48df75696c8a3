/* fuzz/diff_blis.c - the differential fuzzer's BLIS side: the exported ctorch
 * instance, into which backends/cpu_blis (linked as an object) registers its
 * kernels at load time. */
#define FZ_STANDALONE_DONE /* the standalone driver's main lives in differential.c */
#include "fuzz_common.h"
#define CTORCH_IMPLEMENTATION
#include "ctorch.h"
#include "backends/cpu_blis/ctorch_blis.h"
#define DF_SIDE(x) df_blis_##x
#include "diff_side.h"

int64_t df_blis_set_small_flops(int64_t v) { return ct_cpu_blis_set_small_flops(v); }
int df_blis_registered(void) {
  const ct_backend *b = ct_backend_find("cpu_blis");
  return b && b->status == CT_OK && b->ninstalled > 0;
}
