/* ctorch/ops/linalg.h - reference kernels: dot, mv, mm, bmm, matmul, addmm, baddbmm, outer, linear.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * The ops are declared in gen/ops/linalg.spec and their derivatives in
 * gen/derivatives/linalg.spec; the frontends are generated (docs/ops.md).
 */
#ifndef CT_OPS_LINALG_H
#define CT_OPS_LINALG_H

#include "../ops.h"

#endif /* CT_OPS_LINALG_H */

/* ==== implementation ==== */
#if defined(CT__IMPLEMENT) && !defined(CT__OPS_LINALG_IMPL)
#define CT__OPS_LINALG_IMPL
#include <math.h>
CT_EXTERN_C_BEGIN

CT_EXTERN_C_END
#endif /* CT__OPS_LINALG_IMPL */
