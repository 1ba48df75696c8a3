/* ctorch/ops/random.h - reference kernels: Philox generators, factories and random sampling.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * The ops are declared in gen/ops/random.spec and their derivatives in
 * gen/derivatives/random.spec; the frontends are generated (docs/ops.md).
 */
#ifndef CT_OPS_RANDOM_H
#define CT_OPS_RANDOM_H

#include "../ops.h"

#endif /* CT_OPS_RANDOM_H */

/* ==== implementation ==== */
#if defined(CT__IMPLEMENT) && !defined(CT__OPS_RANDOM_IMPL)
#define CT__OPS_RANDOM_IMPL
#include <math.h>
CT_EXTERN_C_BEGIN

CT_EXTERN_C_END
#endif /* CT__OPS_RANDOM_IMPL */
