/* ctorch/ops/shape.h - reference kernels: joining, splitting, reordering and indexing ops.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * The ops are declared in gen/ops/shape.spec and their derivatives in
 * gen/derivatives/shape.spec; the frontends are generated (docs/ops.md).
 */
#ifndef CT_OPS_SHAPE_H
#define CT_OPS_SHAPE_H

#include "../ops.h"

#endif /* CT_OPS_SHAPE_H */

/* ==== implementation ==== */
#if defined(CT__IMPLEMENT) && !defined(CT__OPS_SHAPE_IMPL)
#define CT__OPS_SHAPE_IMPL
#include <math.h>
CT_EXTERN_C_BEGIN

CT_EXTERN_C_END
#endif /* CT__OPS_SHAPE_IMPL */
