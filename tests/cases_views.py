"""tests/cases_views.py - PyTorch cases for the diagonal view and the *_scatter ops of gen/ops.spec
(writes tests/fixtures/cases_views.h).

Run with Debian's torch: /usr/bin/python3 tests/cases_views.py
"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import opcases  # noqa: E402

cs = opcases.Cases("views")
rn = cs.randn
g = lambda t: t.requires_grad_()  # noqa: E731
f32, f16, bf16, i64, i32, u8, b = torch.float32, torch.float16, torch.bfloat16, torch.int64, torch.int32, torch.uint8, torch.bool

# ---- diagonal: a view ----
cs.add("diagonal", g(rn(3, 4)))
cs.add("diagonal", g(rn(3, 4)), 1)
cs.add("diagonal", g(rn(3, 4)), -2)
cs.add("diagonal", g(rn(4, 3).t()), 1)                         # transposed
cs.add("diagonal", g(rn(2, 3, 4)), 0, 2, 0)                     # batch dim kept, diag last
cs.add("diagonal", g(rn(2, 3, 4)), -1, -1, 1)
cs.add("diagonal", g(rn(3, 4)), 10)                             # beyond: empty
cs.add("diagonal", g(rn(3, 4)), -10)
cs.add("diagonal", g(rn(0, 4)))
cs.add("diagonal", rn(5, 5, dtype=f32)[::2, 1:], 0)             # strided
cs.add("diagonal", cs.randint(-9, 9, 3, 3), 1)
cs.add("diagonal", torch.rand(3, 3) > 0.5)
cs.error("diagonal", rn(3), code="CT_ERR_INDEX")
cs.error("diagonal", rn(3, 4), 0, 1, 1, code="CT_ERR_INVALID")
cs.error("diagonal", rn(3, 4), 0, 0, 2, code="CT_ERR_INDEX")

cs.add("diagonal_backward", g(rn(3)), [3, 4], 0, 0, 1)
cs.add("diagonal_backward", g(rn(2, 2)), [2, 3, 4], 1, 2, 1)
cs.add("diagonal_backward", g(rn(0)), [3, 4], 5, 0, 1)

# ---- diag_embed ----
cs.add("diag_embed", g(rn(3)))
cs.add("diag_embed", g(rn(2, 3)), 1)
cs.add("diag_embed", g(rn(2, 3)), -1, 0, 2)
cs.add("diag_embed", g(rn(2, 3)), 0, 2, 0)                      # dims swapped: the transpose
cs.add("diag_embed", g(rn(3, 2).t()), 2)                        # non-contiguous
cs.add("diag_embed", g(rn(0)))
cs.add("diag_embed", cs.randint(-5, 5, 2, 2, dtype=i32))
cs.add("diag_embed", torch.tensor([True, False, True]))
cs.add("diag_embed", rn(3, dtype=f16))
cs.error("diag_embed", rn(3), 0, 0, 0, code="CT_ERR_INVALID")
cs.error("diag_embed", rn(()), code="CT_ERR_INDEX")
cs.error("diag_embed", rn(2, 3), 0, 0, 3, code="CT_ERR_INDEX")

# ---- diag: CompositeImplicitAutograd ----
cs.add("diag", g(rn(3)))
cs.add("diag", g(rn(3)), 1)
cs.add("diag", g(rn(3)), -2)
cs.add("diag", g(rn(3, 4)))
cs.add("diag", g(rn(3, 4)), 2)
cs.add("diag", g(rn(4, 3).t()), -1)
cs.add("diag", g(rn(0)))
cs.add("diag", cs.randint(-5, 5, 4, dtype=i64), 1)
cs.add("diag", cs.randint(0, 5, 3, 3, dtype=u8))
cs.error("diag", rn(2, 3, 4), code="CT_ERR_RANK")
cs.error("diag", rn(()), code="CT_ERR_RANK")

# ---- trace ----
cs.add("trace", g(rn(3, 4)))
cs.add("trace", g(rn(4, 3).t()))
cs.add("trace", g(rn(0, 3)))
cs.add("trace", rn(5, 5, dtype=f32))
cs.add("trace", cs.randint(-9, 9, 3, 3, dtype=i32))             # int64 result
cs.add("trace", cs.randint(0, 9, 3, 3, dtype=u8))
cs.error("trace", rn(3), code="CT_ERR_RANK")
cs.error("trace", rn(2, 3, 3), code="CT_ERR_RANK")
cs.error("trace", torch.ones(2, 2, dtype=b), code="CT_ERR_DTYPE")

# ---- select_scatter, slice_scatter, diagonal_scatter ----
cs.add("select_scatter", g(rn(3, 4)), g(rn(4)), 0, 1)
cs.add("select_scatter", g(rn(3, 4)), g(rn(3)), 1, -1)
cs.add("select_scatter", g(rn(4, 3).t()), g(rn(6)[::2]), 1, 0)  # non-contiguous self and src
cs.add("select_scatter", g(rn(2, 3, 4)), g(rn(2, 4)), -2, 2)
cs.add("select_scatter", rn(3, 4, dtype=f32), rn(4), 0, 0)      # src cast to self's dtype
cs.add("select_scatter", cs.randint(-5, 5, 3, 2), cs.randint(-5, 5, 2), 0, 2)
cs.add("select_scatter", g(rn(3)), g(rn(())), 0, 1)             # 0-dim slice
cs.add("select_scatter", g(rn(0, 3)), g(rn(0)), 1, 1)
cs.error("select_scatter", rn(3, 4), rn(1), 0, 1, code="CT_ERR_SHAPE")  # no broadcast
cs.error("select_scatter", rn(3, 4), rn(4), 0, 3, code="CT_ERR_INDEX")
cs.error("select_scatter", rn(3, 4), rn(4), 2, 0, code="CT_ERR_INDEX")

cs.add("slice_scatter", g(rn(6, 3)), g(rn(2, 3)), 0, 1, 5, 2)
cs.add("slice_scatter", g(rn(3, 6)), g(rn(3, 2)), 1, None, None, 3)
cs.add("slice_scatter", g(rn(3, 6)), g(rn(3, 4)), 1, -4)
cs.add("slice_scatter", g(rn(3, 6)), g(rn(3, 2)), 1, None, 2)
cs.add("slice_scatter", g(rn(4, 3)), g(rn(4, 3)))               # the whole tensor
cs.add("slice_scatter", g(rn(6, 4).t()), g(rn(4, 3)), 1, 3, 100)
cs.add("slice_scatter", cs.randint(-5, 5, 5), cs.randint(-5, 5, 0), 0, 3, 3)
cs.add("slice_scatter", rn(4, dtype=f32), cs.randint(-5, 5, 2), 0, 0, 2)
cs.error("slice_scatter", rn(4, 3), rn(2, 3), 0, 0, 4, 0, code="CT_ERR_INVALID")
cs.error("slice_scatter", rn(4, 3), rn(3, 3), 0, 0, 2, code="CT_ERR_SHAPE")

cs.add("diagonal_scatter", g(rn(3, 4)), g(rn(3)))
cs.add("diagonal_scatter", g(rn(3, 4)), g(rn(2)), 2)
cs.add("diagonal_scatter", g(rn(3, 4)), g(rn(2)), -1)
cs.add("diagonal_scatter", g(rn(2, 3, 4)), g(rn(2, 3)), 0, 1, 2)
cs.add("diagonal_scatter", g(rn(4, 3).t()), g(rn(3)), 1)
cs.add("diagonal_scatter", cs.randint(-5, 5, 3, 3), cs.randint(-5, 5, 3))
cs.add("diagonal_scatter", g(rn(3, 4)), g(rn(0)), 9)
cs.error("diagonal_scatter", rn(3, 4), rn(2), code="CT_ERR_SHAPE")
cs.error("diagonal_scatter", rn(3, 4), rn(3), 0, 1, 1, code="CT_ERR_INVALID")


# ---- meshgrid, cartesian_prod ----
cs.add("meshgrid", [g(rn(2)), g(rn(3))])
cs.add("meshgrid.indexing", [g(rn(2)), g(rn(3)), g(rn(4))], indexing="xy")
cs.add("meshgrid.indexing", [g(rn(2)), g(rn(3))], indexing="ij")
cs.add("meshgrid.indexing", [g(rn(())), g(rn(3)[::2])], indexing="xy")      # 0-dim, strided
cs.add("meshgrid.indexing", [g(rn(3))], indexing="xy")                      # one tensor: no swap
cs.add("meshgrid", [cs.randint(0, 9, 2), cs.randint(0, 9, 0)])
cs.error("meshgrid", [rn(2, 2)], code="CT_ERR_RANK")
cs.error("meshgrid", [rn(2), rn(3, dtype=f32)], code="CT_ERR_DTYPE")
cs.error("meshgrid.indexing", [rn(2), rn(3)], indexing="ab", code="CT_ERR_INVALID")
cs.error("meshgrid", [], code="CT_ERR_INVALID")
cs.add("cartesian_prod", [g(rn(2)), g(rn(3))])
cs.add("cartesian_prod", [g(rn(2)), g(rn(1)), g(rn(2))])
cs.add("cartesian_prod", [cs.randint(0, 9, 3)])
cs.add("cartesian_prod", [cs.randint(0, 9, 3), cs.randint(0, 9, 0)])
cs.error("cartesian_prod", [rn(2, 2)], code="CT_ERR_RANK")
cs.error("cartesian_prod", [rn(2), rn(3, dtype=f32)], code="CT_ERR_DTYPE")


# ---- slice.Tensor: start and end are optional (None), as aten's SymInt? ----
cs.add("slice.Tensor", g(rn(5, 4)), 0, None, None, 2)
cs.add("slice.Tensor", g(rn(5, 4)), 1, 1, None)
cs.add("slice.Tensor", g(rn(5, 4)), 1, None, -1)
cs.add("slice.Tensor", g(rn(5, 4).t()), 0, -3, 100, 1)
cs.add("slice.Tensor", g(rn(5)), 0, 4, 2)
cs.error("slice.Tensor", rn(5), 0, None, None, 0, code="CT_ERR_INVALID")
cs.error("slice.Tensor", rn(()), 0, code="CT_ERR_RANK")

cs.write()
