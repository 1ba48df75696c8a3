"""tests/cases_factory.py - PyTorch cases for the _like and new_ factories of gen/ops/factory.spec
(writes tests/fixtures/cases_factory.h). empty_like and new_empty (uninitialised) are checked in
tests/test_core.c instead.

Run with Debian's torch: /usr/bin/python3 tests/cases_factory.py
"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import opcases  # noqa: E402

cs = opcases.Cases("factory")
rn = cs.randn
f32, f64, i64, i32, u8, b = torch.float32, torch.float64, torch.int64, torch.int32, torch.uint8, torch.bool

for op in ("zeros_like", "ones_like"):
    cs.add(op, rn(2, 3))
    cs.add(op, rn(3, 2).t())                        # a transpose: its layout is kept
    cs.add(op, rn(1, 3).expand(4, 3))                # expanded: contiguous
    cs.add(op, cs.randint(0, 9, 4, dtype=i32))
    cs.add(op, rn(2, 2), dtype=i64)
    cs.add(op, torch.rand(3) > 0.5, dtype=f32)
    cs.add(op, rn(()))
    cs.add(op, rn(0, 3))
cs.add("full_like", rn(2, 3), 2.5)
cs.add("full_like", cs.randint(0, 9, 3, dtype=i32), 7)
cs.add("full_like", cs.randint(0, 9, 3, dtype=i32), 2.9)      # cast to self's dtype
cs.add("full_like", rn(3), True)
cs.add("full_like", rn(4, 2).t(), -1, dtype=i64)
cs.add("full_like", rn(0), 3.0)
cs.error("full_like", cs.randint(0, 9, 3, dtype=u8), 300, code="CT_ERR_INVALID")

cs.add("new_zeros", rn(2, 3), [4])
cs.add("new_zeros", cs.randint(0, 9, 3, dtype=i32), [2, 2])
cs.add("new_zeros", rn(2), [3], dtype=b)
cs.add("new_zeros", rn(2), [])
cs.add("new_ones", rn(2, 3), [1, 5])
cs.add("new_ones", cs.randint(0, 9, 3, dtype=u8), [3], dtype=f64)
cs.add("new_ones", rn(2), [0, 2])
cs.add("new_full", rn(2, 3), [2, 2], 1.5)
cs.add("new_full", cs.randint(0, 9, 3, dtype=i32), [3], 4)
cs.add("new_full", rn(3, dtype=f32), [2], 7)                  # self's dtype, not the value's
cs.add("new_full", rn(3), [2], 3, dtype=i64)
cs.error("new_zeros", rn(2), [-1], code="CT_ERR_SIZE")
cs.add("new_full", cs.randint(0, 9, 3, dtype=u8), [2], -1)                  # wraps, as c10's checked_convert allows


cs.add("tril_indices", 3, 4, 1)
cs.add("tril_indices", 4, 3)
cs.add("tril_indices", 3, 4, -5)
cs.add("tril_indices", 0, 4)
cs.add("tril_indices", 3, 3, dtype=i32)
cs.add("triu_indices", 3, 4, -1)
cs.add("triu_indices", 4, 4, 2)
cs.add("triu_indices", 2, 5, 9)
cs.add("triu_indices", 3, 3, dtype=i32)
cs.add("tril_indices.out", 3, 4, 1, out=torch.empty(0, dtype=i64))
cs.add("triu_indices.out", 4, 3, -1, out=torch.empty(2, 1, dtype=i32))
cs.error("tril_indices", -1, 4, code="CT_ERR_INVALID")
cs.error("triu_indices", 3, -2, code="CT_ERR_INVALID")
cs.error("tril_indices", 3, 3, dtype=f32, code="CT_ERR_DTYPE")
cs.error("triu_indices", 3, 3, dtype=u8, code="CT_ERR_DTYPE")

cs.write()
