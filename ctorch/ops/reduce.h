/* ctorch/ops/reduce.h - reference kernels: reductions, scans, sort and topk.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * The ops are declared in gen/ops/reduce.spec and their derivatives in
 * gen/derivatives/reduce.spec; the frontends are generated (docs/ops.md).
 */
#ifndef CT_OPS_REDUCE_H
#define CT_OPS_REDUCE_H

#include "../ops.h"

#endif /* CT_OPS_REDUCE_H */

/* ==== implementation ==== */
#if defined(CT__IMPLEMENT) && !defined(CT__OPS_REDUCE_IMPL)
#define CT__OPS_REDUCE_IMPL
#include <math.h>
CT_EXTERN_C_BEGIN

CT_EXTERN_C_END
#endif /* CT__OPS_REDUCE_IMPL */
