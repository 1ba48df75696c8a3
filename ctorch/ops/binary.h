/* ctorch/ops/binary.h - reference kernels: pointwise binary and ternary ops, comparisons, logical ops, where, clamp.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * The ops are declared in gen/ops/binary.spec and their derivatives in
 * gen/derivatives/binary.spec; the frontends are generated (docs/ops.md).
 */
#ifndef CT_OPS_BINARY_H
#define CT_OPS_BINARY_H

#include "../ops.h"

#endif /* CT_OPS_BINARY_H */

/* ==== implementation ==== */
#if defined(CT__IMPLEMENT) && !defined(CT__OPS_BINARY_IMPL)
#define CT__OPS_BINARY_IMPL
#include <math.h>
CT_EXTERN_C_BEGIN

CT_EXTERN_C_END
#endif /* CT__OPS_BINARY_IMPL */
