/* ctorch/ops/unary.h - reference kernels: pointwise unary ops and activations.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * The ops are declared in gen/ops/unary.spec and their derivatives in
 * gen/derivatives/unary.spec; the frontends are generated (docs/ops.md).
 */
#ifndef CT_OPS_UNARY_H
#define CT_OPS_UNARY_H

#include "../ops.h"

#endif /* CT_OPS_UNARY_H */

/* ==== implementation ==== */
#if defined(CT__IMPLEMENT) && !defined(CT__OPS_UNARY_IMPL)
#define CT__OPS_UNARY_IMPL
#include <math.h>
CT_EXTERN_C_BEGIN

CT_EXTERN_C_END
#endif /* CT__OPS_UNARY_IMPL */
