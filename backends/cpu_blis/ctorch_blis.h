/* backends/cpu_blis/ctorch_blis.h - the BLIS backend's own API (optional).
 * The backend registers itself at startup; these are for programs that want
 * to register explicitly (static links without -Wl,-u,ct_cpu_blis_anchor)
 * or to tune it. */
#ifndef CTORCH_BLIS_H
#define CTORCH_BLIS_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
int ct_cpu_blis_register(void);                  /* ct_status; idempotent */
extern int ct_cpu_blis_anchor;                   /* -Wl,-u,ct_cpu_blis_anchor keeps the object */
extern const char ct_cpu_blis_version[];
int64_t ct_cpu_blis_set_small_flops(int64_t v);  /* m*n*k below which plain C runs instead of BLIS */
int64_t ct_cpu_blis_set_thread_flops(int64_t v); /* m*n*k from which BLIS gets ct_get_num_threads() threads */
const char *ct_cpu_blis_arch(void);              /* BLIS's sub-configuration ("zen3", "skx", "generic", ...) */
#ifdef __cplusplus
}
#endif
#endif
