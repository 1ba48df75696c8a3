"""tests/cases_linalg.py - PyTorch cases for gen/ops/linalg.spec (writes tests/fixtures/cases_linalg.h).

Run with Debian's torch: /usr/bin/python3 tests/cases_linalg.py
Products of a few terms: the dtype tolerances of tests/opcases.py hold
(float32 sums of <= 8 terms in another order are within a few ulps).
"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import opcases  # noqa: E402

cs = opcases.Cases("linalg")
rn = cs.randn
g = lambda t: t.requires_grad_()  # noqa: E731
f32, f16, bf16, i64, i32, u8 = torch.float32, torch.float16, torch.bfloat16, torch.int64, torch.int32, torch.uint8

# ---- dot ----
cs.add("dot", g(rn(5)), g(rn(5)))
cs.add("dot", g(rn(10)[::2]), g(rn(5)))                       # strided
cs.add("dot", rn(4, dtype=f32), rn(4, dtype=f32))
cs.add("dot", cs.randint(-5, 5, 6), cs.randint(-5, 5, 6))
cs.add("dot", cs.randint(0, 9, 4, dtype=u8), cs.randint(0, 9, 4, dtype=u8))
cs.add("dot", rn(6, dtype=bf16), rn(6, dtype=bf16))
cs.add("dot", rn(6, dtype=f16), rn(6, dtype=f16))
cs.add("dot", g(rn(0)), g(rn(0)))                              # zero-size: 0
cs.add("dot", g(rn(1).expand(3)), g(rn(3)))                     # expanded
cs.error("dot", rn(3), rn(4), code="CT_ERR_SHAPE")
cs.error("dot", rn(2, 3), rn(2, 3), code="CT_ERR_RANK")
cs.error("dot", rn(()), rn(3), code="CT_ERR_RANK")
cs.error("dot", rn(3), rn(3, dtype=f32), code="CT_ERR_DTYPE")
cs.error("dot", rn(3) > 0, rn(3) > 0, code="CT_ERR_DTYPE")

# ---- mv ----
cs.add("mv", g(rn(3, 4)), g(rn(4)))
cs.add("mv", g(rn(4, 3).t()), g(rn(8)[::2]))                   # transposed matrix, strided vector
cs.add("mv", rn(2, 5, dtype=f32), rn(5, dtype=f32))
cs.add("mv", cs.randint(-4, 4, 3, 2), cs.randint(-4, 4, 2))
cs.add("mv", rn(3, 4, dtype=bf16), rn(4, dtype=bf16))
cs.add("mv", g(rn(0, 3)), g(rn(3)))
cs.add("mv", g(rn(2, 0)), g(rn(0)))
cs.error("mv", rn(2, 3), rn(4), code="CT_ERR_SHAPE")
cs.error("mv", rn(3), rn(3), code="CT_ERR_RANK")
cs.error("mv", rn(2, 3), rn(3, 1), code="CT_ERR_RANK")
cs.error("mv", rn(2, 3), rn(3, dtype=f32), code="CT_ERR_DTYPE")

# ---- mm ----
cs.add("mm", g(rn(2, 3)), g(rn(3, 4)))
cs.add("mm", g(rn(3, 2).t()), g(rn(4, 3).t()))                 # both transposed
cs.add("mm", g(rn(2, 6)[:, ::2]), g(rn(3, 1).expand(3, 4)))     # strided, expanded
cs.add("mm", rn(4, 5, dtype=f32), rn(5, 3, dtype=f32))
cs.add("mm", rn(3, 4, dtype=f16), rn(4, 2, dtype=f16))
cs.add("mm", rn(3, 4, dtype=bf16), rn(4, 2, dtype=bf16))
cs.add("mm", cs.randint(-9, 9, 3, 4), cs.randint(-9, 9, 4, 2))
cs.add("mm", cs.randint(-9, 9, 2, 3, dtype=i32), cs.randint(-9, 9, 3, 2, dtype=i32))
cs.add("mm", cs.randint(0, 9, 2, 3, dtype=u8), cs.randint(0, 9, 3, 2, dtype=u8))
cs.add("mm", g(rn(2, 0)), g(rn(0, 3)))                          # k = 0: zeros
cs.add("mm", g(rn(0, 3)), g(rn(3, 2)))
cs.add("mm", g(rn(2, 3)), g(rn(3, 130)))                        # more columns than one block (128)
cs.error("mm", rn(2, 3), rn(4, 5), code="CT_ERR_SHAPE")
cs.error("mm", rn(3), rn(3, 2), code="CT_ERR_RANK")
cs.error("mm", rn(2, 3), rn(3), code="CT_ERR_RANK")
cs.error("mm", rn(2, 3), rn(3, 2, dtype=f32), code="CT_ERR_DTYPE")
cs.error("mm", rn(2, 3) > 0, rn(3, 2) > 0, code="CT_ERR_DTYPE")

# ---- bmm ----
cs.add("bmm", g(rn(2, 3, 4)), g(rn(2, 4, 5)))
cs.add("bmm", g(rn(2, 4, 3).transpose(1, 2)), g(rn(4, 2, 5).transpose(0, 1)))
cs.add("bmm", g(rn(1, 3, 4).expand(3, 3, 4)), g(rn(3, 4, 2)))   # stride-0 batch
cs.add("bmm", rn(2, 2, 3, dtype=f32), rn(2, 3, 2, dtype=f32))
cs.add("bmm", rn(2, 2, 3, dtype=bf16), rn(2, 3, 2, dtype=bf16))
cs.add("bmm", cs.randint(-5, 5, 2, 2, 3), cs.randint(-5, 5, 2, 3, 2))
cs.add("bmm", g(rn(0, 2, 3)), g(rn(0, 3, 4)))
cs.add("bmm", g(rn(2, 2, 0)), g(rn(2, 0, 3)))
cs.error("bmm", rn(2, 2, 3), rn(2, 4, 2), code="CT_ERR_SHAPE")
cs.error("bmm", rn(2, 2, 3), rn(3, 3, 2), code="CT_ERR_SHAPE")
cs.error("bmm", rn(2, 3), rn(2, 3, 2), code="CT_ERR_RANK")
cs.error("bmm", rn(2, 2, 3), rn(3, 2), code="CT_ERR_RANK")
cs.error("bmm", rn(2, 2, 3), rn(2, 3, 2, dtype=f32), code="CT_ERR_DTYPE")

# ---- addmm ----
cs.add("addmm", g(rn(2, 4)), g(rn(2, 3)), g(rn(3, 4)))
cs.add("addmm", g(rn(4)), g(rn(2, 3)), g(rn(3, 4)), beta=0.5, alpha=-2)       # broadcast self
cs.add("addmm", g(rn(2, 1)), g(rn(3, 2).t()), g(rn(3, 4)), beta=2, alpha=0.25)
cs.add("addmm", g(rn(())), g(rn(2, 3)), g(rn(3, 4)))
cs.add("addmm", torch.full((2, 2), float("nan"), dtype=torch.float64), g(rn(2, 3)), g(rn(3, 2)), beta=0)  # NaN ignored
cs.add("addmm", rn(2, 2, dtype=f32), rn(2, 3, dtype=f32), rn(3, 2, dtype=f32), beta=-1, alpha=3)
cs.add("addmm", rn(2, 2, dtype=bf16), rn(2, 3, dtype=bf16), rn(3, 2, dtype=bf16))
cs.add("addmm", cs.randint(-5, 5, 2, 2), cs.randint(-5, 5, 2, 3), cs.randint(-5, 5, 3, 2), beta=2, alpha=-3)
cs.add("addmm", g(rn(2, 3)), g(rn(2, 0)), g(rn(0, 3)), beta=3)
cs.error("addmm", rn(3), rn(2, 3), rn(3, 2), code="CT_ERR_SHAPE")
cs.error("addmm", rn(1, 2, 2), rn(2, 3), rn(3, 2), code="CT_ERR_SHAPE")
cs.error("addmm", rn(2, 2), rn(2, 3), rn(4, 2), code="CT_ERR_SHAPE")
cs.error("addmm", rn(2, 2), rn(3), rn(3, 2), code="CT_ERR_RANK")
cs.error("addmm", rn(2, 2, dtype=f32), rn(2, 3), rn(3, 2), code="CT_ERR_DTYPE")
cs.error("addmm", rn(2, 2), rn(2, 3), rn(3, 2, dtype=f32), code="CT_ERR_DTYPE")
cs.error("addmm_", rn(2), rn(2, 3), rn(3, 2), code="CT_ERR_SHAPE")

# ---- baddbmm ----
cs.add("baddbmm", g(rn(2, 2, 4)), g(rn(2, 2, 3)), g(rn(2, 3, 4)))
cs.add("baddbmm", g(rn(4)), g(rn(2, 2, 3)), g(rn(2, 3, 4)), beta=0.5, alpha=-1.5)
cs.add("baddbmm", g(rn(1, 2, 1)), g(rn(3, 3, 2).transpose(1, 2)), g(rn(3, 3, 2)), beta=-1, alpha=2)
cs.add("baddbmm", torch.full((2, 2, 2), float("nan"), dtype=torch.float64), g(rn(2, 2, 3)), g(rn(2, 3, 2)), beta=0)
cs.add("baddbmm", rn(2, 2, 2, dtype=f32), rn(2, 2, 3, dtype=f32), rn(2, 3, 2, dtype=f32), beta=2)
cs.add("baddbmm", cs.randint(-5, 5, 2, 2, 2), cs.randint(-5, 5, 2, 2, 3), cs.randint(-5, 5, 2, 3, 2), alpha=2)
cs.add("baddbmm", g(rn(0, 2, 2)), g(rn(0, 2, 3)), g(rn(0, 3, 2)))
cs.add("baddbmm", cs.randint(-3, 3, 2, 2, 2), rn(2, 2, 3, dtype=f32), rn(2, 3, 2, dtype=f32))  # self cast to batch1's dtype
cs.add("baddbmm", rn(2, 1, 2, dtype=f32), cs.randint(-3, 3, 2, 2, 3), cs.randint(-3, 3, 2, 3, 2))
cs.error("baddbmm_", rn(2, 2, 2), rn(2, 2, 3, dtype=f32), rn(2, 3, 2, dtype=f32), code="CT_ERR_DTYPE")
cs.error("baddbmm", rn(2, 3), rn(3, 2, 3), rn(3, 3, 2), code="CT_ERR_SHAPE")
cs.error("baddbmm", rn(3, 2, 2), rn(3, 2, 3), rn(3, 4, 2), code="CT_ERR_SHAPE")
cs.error("baddbmm", rn(3, 2, 2), rn(2, 3), rn(3, 3, 2), code="CT_ERR_RANK")
cs.error("baddbmm", rn(3, 2, 2), rn(3, 2, 3), rn(3, 3, 2, dtype=f32), code="CT_ERR_DTYPE")
cs.error("baddbmm_", rn(2), rn(3, 2, 3), rn(3, 3, 2), code="CT_ERR_SHAPE")

# ---- outer (composite: self.reshape(n, 1) * vec2) ----
cs.add("outer", g(rn(3)), g(rn(4)))
cs.add("outer", g(rn(6)[::2]), g(rn(1).expand(2)))
cs.add("outer", cs.randint(-3, 3, 2), rn(3, dtype=f32))           # promotes like mul
cs.add("outer", rn(2) > 0, rn(3) > 0)
cs.add("outer", g(rn(0)), g(rn(3)))
cs.error("outer", rn(2, 2), rn(3), code="CT_ERR_RANK")
cs.error("outer", rn(2), rn(()), code="CT_ERR_RANK")

# ---- matmul (composite): every shape case ----
shapes = [
    ((4,), (4,)), ((3, 4), (4,)), ((4,), (4, 2)), ((3, 4), (4, 2)),
    ((2, 3, 4), (4,)), ((2, 3, 4), (4, 5)), ((4,), (2, 4, 5)), ((3, 4), (2, 4, 5)),
    ((2, 3, 4), (2, 4, 5)), ((2, 1, 3, 4), (5, 4, 2)), ((1, 3, 4), (2, 2, 4, 5)),
    ((2, 2, 3, 4), (4,)), ((4,), (2, 2, 4, 3)), ((2, 0, 4), (4, 3)), ((2, 3, 0), (0, 2)),
]
for sa, sb in shapes:
    cs.add("matmul", g(rn(*sa)), g(rn(*sb)))
cs.add("matmul", g(rn(2, 4, 3).transpose(1, 2)), g(rn(4, 5)))         # no fold: batch not mergeable
cs.add("matmul", rn(2, 3, 4), g(rn(4, 5)))                            # fold because the matrix requires grad
cs.add("matmul", g(rn(3, 4)), rn(2, 4, 5))                            # transposed fold
cs.add("matmul", rn(2, 3, 4, dtype=f32), rn(4, 2, dtype=f32))
cs.add("matmul", cs.randint(-4, 4, 2, 2, 3), cs.randint(-4, 4, 3))
cs.error("matmul", rn(()), rn(3), code="CT_ERR_RANK")
cs.error("matmul", rn(3, 4), rn(5), code="CT_ERR_SHAPE")
cs.error("matmul", rn(3), rn(5, 2), code="CT_ERR_SHAPE")
cs.error("matmul", rn(2, 3, 4), rn(2, 5, 2), code="CT_ERR_SHAPE")
cs.error("matmul", rn(2, 3, 4), rn(3, 4, 2), code="CT_ERR_SHAPE")
cs.error("matmul", rn(3, 4), rn(4, dtype=f32), code="CT_ERR_DTYPE")
cs.error("matmul", rn(3, 4) > 0, rn(4, 2) > 0, code="CT_ERR_DTYPE")

# ---- linear (composite) ----
cs.add("linear", g(rn(4, 3)), g(rn(2, 3)), g(rn(2)))                  # addmm
cs.add("linear", g(rn(5, 4, 3)), g(rn(2, 3)), g(rn(2)))               # contiguous 3-D: folded addmm
cs.add("linear", g(rn(4, 5, 3).transpose(0, 1)), g(rn(2, 3)), g(rn(2)))  # matmul + add_
cs.add("linear", g(rn(3)), g(rn(2, 3)), g(rn(2)))
cs.add("linear", g(rn(4, 3)), g(rn(2, 3)))
cs.add("linear", g(rn(2, 3, 4, 3)), g(rn(2, 3)), g(rn(2)))            # 4-D contiguous: folded
cs.add("linear", g(rn(2, 4, 3)), g(rn(2, 3)))                         # 3-D, no bias
cs.add("linear", g(rn(0, 3)), g(rn(2, 3)), g(rn(2)))                  # empty batch
cs.add("linear", g(rn(2, 0, 3)), g(rn(2, 3)), g(rn(2)))
cs.add("linear", g(rn(4, 0)), g(rn(2, 0)), g(rn(2)))                  # no inner dim: the bias alone
cs.add("linear", g(rn(4, 3)), g(rn(3, 2).t()), g(rn(2)))              # a transposed weight
cs.add("linear", g(rn(4, 3)), g(rn(2, 3)), g(rn(4, 2)))              # bias as big as the output
cs.add("linear", g(rn(2, 2, 4, 3)), g(rn(3)))                         # 1-D weight
cs.add("linear", rn(4, 3, dtype=f32), rn(2, 3, dtype=f32), rn(2, dtype=f32))
cs.add("linear", rn(3, dtype=f32), rn(2, 3, dtype=f32), rn(2))                      # bias of another dtype: add_ keeps float32
cs.add("linear", rn(5, 4, 3, dtype=f32).transpose(0, 1), rn(2, 3, dtype=f32), rn(2))
cs.error("linear", rn(4, 3, dtype=f32), rn(2, 3, dtype=f32), rn(2), code="CT_ERR_DTYPE")  # addmm: self and mat2 dtypes
cs.error("linear", rn(4, 3), rn(2, 4), rn(2), code="CT_ERR_SHAPE")
cs.error("linear", rn(()), rn(2, 3), rn(2), code="CT_ERR_RANK")
cs.error("linear", rn(3), rn(2, 3), rn(3, 2), code="CT_ERR_SHAPE")


# ---- addmv ----
cs.add("addmv", g(rn(2)), g(rn(2, 3)), g(rn(3)))
cs.add("addmv", g(rn(2)), g(rn(2, 3)), g(rn(3)), beta=0.5, alpha=2.0)
cs.add("addmv", g(rn(1)), g(rn(3, 2).t()), g(rn(9)[::3]))       # broadcast self, transposed mat, strided vec
cs.add("addmv", g(rn(())), g(rn(4, 3)), g(rn(3)), alpha=-1)
cs.add("addmv", torch.full((2,), float("nan")), g(rn(2, 3)), g(rn(3)), beta=0)  # beta 0 ignores NaN
cs.add("addmv", rn(2, dtype=f32), rn(2, 3, dtype=f32), rn(3, dtype=f32))
cs.add("addmv", rn(2), rn(2, 3, dtype=f32), rn(3, dtype=f32))    # self's dtype follows mat's
cs.add("addmv", cs.randint(-5, 5, 2), cs.randint(-5, 5, 2, 3), cs.randint(-5, 5, 3), beta=2, alpha=3)
cs.add("addmv", g(rn(2)), g(rn(2, 0)), g(rn(0)))                 # k = 0: beta * self
cs.add("addmv", g(rn(0)), g(rn(0, 3)), g(rn(3)))
cs.error("addmv", rn(3), rn(2, 3), rn(3), code="CT_ERR_SHAPE")
cs.error("addmv", rn(2), rn(2, 3), rn(4), code="CT_ERR_SHAPE")
cs.error("addmv", rn(2), rn(3), rn(3), code="CT_ERR_RANK")
cs.error("addmv", rn(2), rn(2, 3), rn(3, dtype=f32), code="CT_ERR_DTYPE")

# ---- addr ----
cs.add("addr", g(rn(2, 3)), g(rn(2)), g(rn(3)))
cs.add("addr", g(rn(2, 3)), g(rn(2)), g(rn(3)), beta=0.5, alpha=2.0)
cs.add("addr", g(rn(3)), g(rn(4)[::2]), g(rn(3)))               # broadcast self, strided vec1
cs.add("addr", g(rn(3, 2).t()), g(rn(2)), g(rn(3)), alpha=-1)
cs.add("addr", torch.full((2, 3), float("nan")), g(rn(2)), g(rn(3)), beta=0)
cs.add("addr", rn(2, 3, dtype=f32), rn(2, dtype=f32), rn(3))     # promoted to float64
cs.add("addr", rn(2, 3), rn(2, dtype=f32), rn(3, dtype=f32))
cs.add("addr", rn(()), rn(2, dtype=f32), rn(3, dtype=f32))  # a 0-dim self does not promote
cs.add("addr", cs.randint(-5, 5, 2, 3), cs.randint(-5, 5, 2), cs.randint(-5, 5, 3), beta=2, alpha=3)
cs.add("addr", torch.rand(2, 3) > 0.5, torch.tensor([True, False]), torch.tensor([True, False, True]))
cs.add("addr", torch.rand(2, 3) > 0.5, torch.tensor([True, False]), torch.tensor([True, False, True]), beta=False)
cs.add("addr", g(rn(0, 3)), g(rn(0)), g(rn(3)))
cs.error("addr", rn(3, 2), rn(2), rn(3), code="CT_ERR_SHAPE")
cs.error("addr", rn(2, 3), rn(2, 1), rn(3), code="CT_ERR_RANK")
cs.error("addr", cs.randint(-5, 5, 2, 3), cs.randint(-5, 5, 2), cs.randint(-5, 5, 3), beta=0.5, code="CT_ERR_INVALID")

# ---- addbmm ----
cs.add("addbmm", g(rn(2, 3)), g(rn(4, 2, 5)), g(rn(4, 5, 3)))
cs.add("addbmm", g(rn(2, 3)), g(rn(4, 2, 5)), g(rn(4, 5, 3)), beta=0.5, alpha=2.0)
cs.add("addbmm", g(rn(3)), g(rn(4, 5, 2).transpose(1, 2)), g(rn(5, 4, 3).transpose(0, 1)))  # broadcast self, permuted batches
cs.add("addbmm", torch.full((2, 3), float("nan"), dtype=torch.float64), g(rn(1, 2, 5)), g(rn(1, 5, 3)), beta=0)
cs.add("addbmm", rn(2, 3, dtype=f32), rn(3, 2, 4, dtype=f32), rn(3, 4, 3, dtype=f32))
cs.add("addbmm", cs.randint(-5, 5, 2, 2), cs.randint(-5, 5, 3, 2, 2), cs.randint(-5, 5, 3, 2, 2), beta=2)
cs.add("addbmm", g(rn(2, 3)), g(rn(0, 2, 5)), g(rn(0, 5, 3)))    # no batches: beta * self
cs.add("addbmm", g(rn(2, 3)), g(rn(3, 2, 0)), g(rn(3, 0, 3)))
cs.error("addbmm", rn(2, 3), rn(4, 2, 5), rn(3, 5, 3), code="CT_ERR_SHAPE")
cs.error("addbmm", rn(2, 3), rn(2, 5), rn(5, 3), code="CT_ERR_RANK")
cs.error("addbmm", rn(3, 2), rn(4, 2, 5), rn(4, 5, 3), code="CT_ERR_SHAPE")
cs.error("addbmm", rn(2, 3, dtype=f32), rn(4, 2, 5), rn(4, 5, 3), code="CT_ERR_DTYPE")


# ---- tensordot, kron, einsum (composites) ----
cs.add("tensordot", g(rn(3, 4, 5)), g(rn(4, 3, 2)), [1, 0], [0, 1])
cs.add("tensordot", g(rn(3, 4)), g(rn(4, 5)), [-1], [0])
cs.add("tensordot", g(rn(2, 3)), g(rn(4)), [], [])                       # outer product
cs.add("tensordot", g(rn(3, 1)), g(rn(5, 3)), [1], [0])                  # a size-1 side: the other is summed
cs.add("tensordot", g(rn(4, 3).t()), g(rn(2, 4)), [1], [1])
cs.add("tensordot", cs.randint(-5, 5, 2, 3), cs.randint(-5, 5, 3, 2), [1], [0])
cs.add("tensordot", rn(2, 0, dtype=f32), rn(0, 3, dtype=f32), [1], [0])
cs.error("tensordot", rn(3, 4), rn(5, 3), [1], [0], code="CT_ERR_SHAPE")
cs.error("tensordot", rn(3, 4), rn(4, 3), [1, 1], [0, 0], code="CT_ERR_INVALID")
cs.error("tensordot", rn(3, 4), rn(4, 3), [1], [0, 1], code="CT_ERR_SHAPE")
cs.error("tensordot", rn(3, 4), rn(4, 3), [2], [0], code="CT_ERR_INDEX")

cs.add("kron", g(rn(2, 3)), g(rn(2, 2)))
cs.add("kron", g(rn(3)), g(rn(2, 2)))                                  # ranks padded
cs.add("kron", g(rn(2, 3).t()), g(rn(())))
cs.add("kron", cs.randint(-5, 5, 2, 2), cs.randint(-5, 5, 2))
cs.add("kron", rn(2, 1, 2, dtype=f32), rn(1, 2, 2))                     # promoted
cs.add("kron", g(rn(0, 2)), g(rn(2, 2)))

ein = [
    ("ij,jk->ik", (3, 4), (4, 5)),
    ("bij,bjk->bik", (2, 3, 4), (2, 4, 5)),
    ("ij,jk", (3, 4), (4, 5)),                          # implicit output
    ("ba,Ab", (2, 3), (4, 2)),                          # upper case first
    ("ii->i", (3, 3)),
    ("ii", (3, 3)),
    ("iij->ji", (3, 3, 2)),
    ("ij->ji", (2, 3)),
    ("i,i->", (3,), (3,)),
    ("i,j->ij", (3,), (1,)),
    ("i,i->i", (3,), (1,)),                             # size 1 broadcasts
    ("...ij,jk->...ik", (2, 3, 4), (4, 5)),
    ("...ij,jk->ik", (2, 3, 4), (4, 5)),                # ellipsis summed
    ("...,...->...", (2, 1), (3,)),
    ("ij...,j...->i...", (2, 3), (3,)),
    ("bn,anm,bm->ba", (2, 3), (4, 3, 5), (2, 5)),
    ("i...j->j", (2, 5, 3)),                             # an ellipsis between labels, summed
    ("i->", (0,)),
    ("ij,ij->ij", (2, 3), (2, 3)),
    ("abc,cd,db->a", (2, 3, 4), (4, 5), (5, 3)),
]
for eq, *shapes in ein:
    cs.add("einsum", eq, [g(rn(*sh)) for sh in shapes])
cs.add("einsum", "->", [g(rn(()))])
cs.add("einsum", "ij,jk->ik", [rn(3, 2).t(), rn(3, 4)[:, ::2]])          # non-contiguous
cs.add("einsum", "ij,jk->ik", [rn(2, 3, dtype=f32), rn(3, 2, dtype=f32)])
cs.add("einsum", "i,i", [cs.randint(-5, 5, 3), cs.randint(-5, 5, 3)])
cs.error("einsum", "i,i->i", [rn(3), rn(2)], code="CT_ERR_SHAPE")
cs.error("einsum", "ij->ji", [rn(2, 3, 4)], code="CT_ERR_SHAPE")
cs.error("einsum", "ij->k", [rn(2, 3)], code="CT_ERR_INVALID")
cs.error("einsum", "ij->ii", [rn(2, 3)], code="CT_ERR_INVALID")
cs.error("einsum", "ij", [rn(2, 3), rn(2)], code="CT_ERR_INVALID")
cs.error("einsum", "i,i", [rn(3), rn(3, dtype=f32)], code="CT_ERR_DTYPE")
cs.error("einsum", "i1", [rn(3, 3)], code="CT_ERR_INVALID")
cs.error("einsum", "ii", [rn(2, 3)], code="CT_ERR_SHAPE")

cs.write()
