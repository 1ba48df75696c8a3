/* ctorch/ops/nn.h - reference kernels: softmax family, losses, normalisation, dropout.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * The ops are declared in gen/ops/nn.spec and their derivatives in
 * gen/derivatives/nn.spec; the frontends are generated (docs/ops.md).
 */
#ifndef CT_OPS_NN_H
#define CT_OPS_NN_H

#include "../ops.h"

#endif /* CT_OPS_NN_H */

/* ==== implementation ==== */
#if defined(CT__IMPLEMENT) && !defined(CT__OPS_NN_IMPL)
#define CT__OPS_NN_IMPL
#include <math.h>
CT_EXTERN_C_BEGIN

CT_EXTERN_C_END
#endif /* CT__OPS_NN_IMPL */
