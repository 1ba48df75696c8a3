/* ctorch/ops/conv.h - reference kernels: convolution, pooling, attention.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * The ops are declared in gen/ops/conv.spec and their derivatives in
 * gen/derivatives/conv.spec; the frontends are generated (docs/ops.md).
 */
#ifndef CT_OPS_CONV_H
#define CT_OPS_CONV_H

#include "../ops.h"

#endif /* CT_OPS_CONV_H */

/* ==== implementation ==== */
#if defined(CT__IMPLEMENT) && !defined(CT__OPS_CONV_IMPL)
#define CT__OPS_CONV_IMPL
#include <math.h>
CT_EXTERN_C_BEGIN

CT_EXTERN_C_END
#endif /* CT__OPS_CONV_IMPL */
