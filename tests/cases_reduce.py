"""tests/cases_reduce.py - PyTorch fixture cases of gen/ops/reduce.spec (tests/opcases.py).

Run with Debian's torch: /usr/bin/python3 tests/cases_reduce.py
"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import opcases  # noqa: E402

cs = opcases.Cases("reduce")
F64, F32, F16, BF16 = torch.float64, torch.float32, torch.float16, torch.bfloat16
I64, I32, U8, B = torch.int64, torch.int32, torch.uint8, torch.bool


def g(t):
    return t.requires_grad_()


def distinct(*shape, dtype=F64):
    """values without ties (for max/sort/topk gradients and indices)"""
    n = 1
    for s in shape:
        n *= s
    perm = torch.randperm(n, generator=cs.gen).to(F64)
    return ((perm - n / 2) / 3 + cs.rand(n, lo=0, hi=0.1)).reshape(shape).to(dtype)


x = cs.randn(3, 4)
x3 = cs.randn(2, 3, 4)
s0 = cs.randn(())
e = cs.randn(2, 0)
xi = cs.randint(-5, 6, 3, 4)
xi32 = cs.randint(-5, 6, 3, 4, dtype=I32)
xu8 = cs.randint(0, 4, 3, 4, dtype=U8)
xb = cs.randint(0, 2, 3, 4, dtype=B)

# ---- sum ----
cs.add("sum", g(x.clone()))
cs.add("sum", g(x.t()))
cs.add("sum", g(s0.clone()))
cs.add("sum", x.float())
cs.add("sum", x.half())
cs.add("sum", x.bfloat16())
cs.add("sum", xi)
cs.add("sum", xi32)
cs.add("sum", xb)
cs.add("sum", xu8, dtype=F32)
cs.add("sum", x, dtype=I64)
cs.add("sum", e)
cs.add("sum.dim_IntList", g(x3.clone()), [0, 2])
cs.add("sum.dim_IntList", g(x3.transpose(0, 2)), [-1], True)
cs.add("sum.dim_IntList", g(x3[:, ::2]), [])
cs.add("sum.dim_IntList", g(x.expand(2, 3, 4)), [0])
cs.add("sum.dim_IntList", g(s0.clone()), [0], True)
cs.add("sum.dim_IntList", e, [1])
cs.add("sum.dim_IntList", e, [0], True)
cs.add("sum.dim_IntList", xi32, [1], dtype=F64)
cs.add("sum.dim_IntList", x.float()[:, 1:], [0])
cs.add("sum.dim_IntList", x3.half(), [1, 2])
cs.error("sum.dim_IntList", x, [0, -2], code="CT_ERR_INVALID")
cs.error("sum.dim_IntList", x, [2], code="CT_ERR_INDEX")

# ---- mean ----
cs.add("mean", g(x.t()))
cs.add("mean", x.float())
cs.add("mean", e)
cs.add("mean", xi, dtype=F64)
cs.add("mean.dim", g(x3.clone()), [1], True)
cs.add("mean.dim", g(x3.permute(2, 0, 1)), [0, -1])
cs.add("mean.dim", g(x3.clone()), None)
cs.add("mean.dim", e, [1])
cs.add("mean.dim", x3.bfloat16(), [2])
cs.error("mean", xi, code="CT_ERR_DTYPE")
cs.error("mean.dim", x, [1], dtype=I64, code="CT_ERR_DTYPE")
cs.error("mean.dim", x, [1, 1], code="CT_ERR_INVALID")

# ---- prod ----
p = cs.rand(3, 4, lo=0.5, hi=1.5)
cs.add("prod", g(p.clone()))
cs.add("prod", g(p.t()))
cs.add("prod", xi)
cs.add("prod", xb)
cs.add("prod", e)
cs.add("prod", p.float(), dtype=F64)
cs.add("prod.dim_int", g(p.clone()), 1)
cs.add("prod.dim_int", g(p.t()), 0, True)
cs.add("prod.dim_int", g(p.expand(2, 3, 4)), -1, False)
cs.add("prod.dim_int", xi32, 0)
cs.add("prod.dim_int", e, 1)
pz = p.clone()
pz[1, 2] = 0
pz[2, 0] = 0
pz[2, 3] = 0
cs.add("prod.dim_int", g(pz.clone()), 1, name="prod_zeros", gradcheck=False, opcheck=True)
cs.add("prod", g(pz.clone()), name="prod_zeros_all", gradcheck=False, opcheck=True)
cs.error("prod.dim_int", x, 2, code="CT_ERR_INDEX")

# ---- amax / amin / max / min ----
d = distinct(3, 4)
d3 = distinct(2, 3, 4)
ties = torch.tensor([[1.0, 3.0, 3.0, 2.0], [0.5, 0.5, 0.5, -1.0]], dtype=F64)
nan = torch.tensor([[1.0, float("nan"), 3.0], [2.0, -1.0, 0.0]], dtype=F64)
cs.add("amax", g(d3.clone()), [0, 2])
cs.add("amax", g(d3.transpose(1, 2)), [1], True)
cs.add("amax", g(d.clone()))
cs.add("amax", g(ties.clone()), [1])
cs.add("amax", g(ties.clone()))
cs.add("amax", nan, [1])
cs.add("amax", xi, [0])
cs.add("amax", xb, [1])
cs.add("amax", e, [0])
cs.add("amax", x.half(), [1])
cs.add("amin", g(d3.clone()), [-1])
cs.add("amin", g(ties.clone()), [1], True)
cs.add("amin", nan, [1])
cs.add("amin", xu8, [])
cs.add("max", g(d.t()))
cs.add("max", g(ties.clone()))
cs.add("max", nan)
cs.add("max", xi32)
cs.add("max", s0)
cs.add("min", g(d3.clone()))
cs.add("min", xb)
cs.error("amax", e, [1], code="CT_ERR_INDEX")
cs.error("amax", e, code="CT_ERR_INVALID")
cs.error("max", e, code="CT_ERR_INVALID")
cs.error("amin", x, [0, 0], code="CT_ERR_INVALID")

# ---- max.dim / min.dim / argmax / argmin ----
cs.add("max.dim", g(d3.clone()), 1)
cs.add("max.dim", g(d3.transpose(0, 2)), -1, True)
cs.add("max.dim", nan, 1)
cs.add("max.dim", xi, 0)
cs.add("max.dim", s0, 0)
cs.add("min.dim", g(d.clone()), 0)
cs.add("min.dim", nan, 1, True)
cs.add("min.dim", xb, 1)
cs.add("argmax", d3)
cs.add("argmax", d3, 1)
cs.add("argmax", d3.transpose(0, 1), -1, True)
cs.add("argmax", ties, 1)
cs.add("argmax", nan)
cs.add("argmax", xi, None, True)
cs.add("argmax", e, 0)
cs.add("argmin", d3, 2)
cs.add("argmin", ties, 1)
cs.add("argmin", xu8)
cs.error("max.dim", e, 1, code="CT_ERR_INDEX")
cs.error("argmax", e, code="CT_ERR_INVALID")
cs.error("argmin", x, 2, code="CT_ERR_INDEX")

# ---- var / std ----
cs.add("var.correction", g(x3.clone()), [1], correction=None)
cs.add("var.correction", g(x3.transpose(0, 2)), [0, 1], correction=0, keepdim=True)
cs.add("var.correction", g(x.clone()), None, correction=2)
cs.add("var.correction", x.float(), [1], correction=1)
cs.add("var.correction", x3.half(), [2], correction=1)
cs.add("var.correction", e, [1], correction=1)
cs.add("var.correction", cs.randn(1, 3), [0], correction=1)
cs.add("std.correction", g(x3.clone()), [1], correction=None)
cs.add("std.correction", g(x.t()), None, correction=0)
cs.add("std.correction", g(x3[:, :, 1:]), [-1, 0], correction=2, keepdim=True)
cs.add("std.correction", x.float(), [0], correction=1)
cs.add("var", g(x.clone()))
cs.add("var", g(x.clone()), False)
cs.add("var.dim", g(x3.clone()), [1, 2], True, True)
cs.add("std", g(x.clone()), True)
cs.add("std.dim", g(x3.clone()), [0], False, False)
cs.error("var.correction", xi, [1], correction=1, code="CT_ERR_DTYPE")
cs.error("std.correction", x, [3], correction=1, code="CT_ERR_INDEX")

# ---- norms ----
nz = x3 + 0.1 * torch.sign(x3)  # away from 0 (|x|^p kinks)
cs.add("linalg_vector_norm", g(x3.clone()))
cs.add("linalg_vector_norm", g(x3.transpose(0, 1)), 2, [1], True)
cs.add("linalg_vector_norm", g(nz.clone()), 1, [0, 2])
cs.add("linalg_vector_norm", g(d3.clone()), float("inf"), [2])
cs.add("linalg_vector_norm", g(d3.clone()), float("-inf"), [1], True)
cs.add("linalg_vector_norm", g(nz.clone()), 3, [-1])
cs.add("linalg_vector_norm", g(nz.clone()), 0.5, None)
cs.add("linalg_vector_norm", g(nz.clone()), -1.5, [1])
cs.add("linalg_vector_norm", x3, 0, [1])
cs.add("linalg_vector_norm", x.float(), 2, [1], dtype=F64)
cs.add("linalg_vector_norm", x.half(), 2, [1])
cs.add("linalg_vector_norm", e, 2, [1])
cs.add("linalg_vector_norm", g(torch.zeros(2, 3, dtype=F64)), 2, [1], name="norm_of_zeros", opcheck=False)
cs.add("norm.Scalar", g(x.clone()))
cs.add("norm.Scalar", g(nz[0].clone()), 1)
cs.add("norm.ScalarOpt_dim", g(x3.clone()), 2, [1])
cs.add("norm.ScalarOpt_dim", g(d3.clone()), float("inf"), [0, 2], True)
cs.error("linalg_vector_norm", xi, code="CT_ERR_DTYPE")
cs.error("linalg_vector_norm", x, 2, None, False, dtype=I64, code="CT_ERR_DTYPE")
cs.error("linalg_vector_norm", e, float("inf"), code="CT_ERR_INVALID")
cs.error("linalg_vector_norm", e, float("inf"), [1], code="CT_ERR_INVALID")

# ---- logsumexp ----
big = x3 * 300
ninf = torch.tensor([[float("-inf"), float("-inf")], [float("-inf"), 1.0], [2.0, 0.5]], dtype=F64)
cs.add("logsumexp", g(x3.clone()), [1])
cs.add("logsumexp", g(x3.transpose(0, 2)), [0, 2], True)
cs.add("logsumexp", g(big.clone()), [2])
cs.add("logsumexp", ninf, [1])
cs.add("logsumexp", xi, [1])
cs.add("logsumexp", x.float(), [0])
cs.add("logsumexp", e, [1])
cs.add("logsumexp", e, [0])
cs.error("logsumexp", x, [2], code="CT_ERR_INDEX")

# ---- all / any ----
af = torch.tensor([[1.0, 0.0, 2.0], [3.0, 4.0, float("nan")]], dtype=F64)
cs.add("all", af)
cs.add("all", xb)
cs.add("all", xu8)
cs.add("all", e)
cs.add("all.dim", af, 1)
cs.add("all.dim", xb.t(), 0, True)
cs.add("all.dim", xi, -1)
cs.add("any", af)
cs.add("any", torch.zeros(3, dtype=F32))
cs.add("any", e)
cs.add("any.dim", af, 0)
cs.add("any.dim", xu8, 1, True)
cs.add("any.dim", e, 1)
cs.error("all.dim", x, 2, code="CT_ERR_INDEX")

# ---- cumsum / cumprod ----
cs.add("cumsum", g(x3.clone()), 1)
cs.add("cumsum", g(x3.transpose(0, 2)), -1)
cs.add("cumsum", g(s0.clone()), 0)
cs.add("cumsum", xi32, 0)
cs.add("cumsum", xb, 1)
cs.add("cumsum", x.float(), 1, dtype=F64)
cs.add("cumsum", x.half(), 1)
cs.add("cumsum", e, 1)
cs.add("cumsum_", x.clone(), 0)
cs.add("cumsum_", xi.clone(), 1)
cs.add("cumprod", g(p.clone()), 1)
cs.add("cumprod", g(p.t()), 0)
cs.add("cumprod", g(pz.clone()), 1, name="cumprod_zeros", opcheck=True, gradcheck=False)
cs.add("cumprod", xu8, 0)
cs.add("cumprod", e, 0)
cs.add("cumprod_", p.clone(), 1)
cs.error("cumsum", x, 2, code="CT_ERR_INDEX")
cs.error("cumsum_", x.clone(), 0, dtype=F32, code="CT_ERR_DTYPE")

# ---- sort / topk ----
cs.add("sort", g(d3.clone()))
cs.add("sort", g(d3.transpose(0, 2)), 1, True)
cs.add("sort", nan, 1)
cs.add("sort", nan, 1, True)
cs.add("sort", xi32, 0)
cs.add("sort", s0)
cs.add("sort", e, 1)
cs.add("sort.stable", g(d.clone()), stable=False, dim=0)
cs.add("sort.stable", ties, stable=True, dim=1)
cs.add("sort.stable", ties, stable=True, dim=1, descending=True)
cs.add("sort.stable", xi, stable=True, dim=0)
cs.add("topk", g(d3.clone()), 2)
cs.add("topk", g(d3.transpose(1, 2)), 3, 1, False)
cs.add("topk", g(d.clone()), 1, 0, True, True)
cs.add("topk", xi32.t(), 2, 0)
cs.add("topk", d, 0, 1)
cs.add("topk", nan, 2, 1)
cs.error("topk", d, 5, code="CT_ERR_INDEX")
cs.error("topk", d, -1, code="CT_ERR_INDEX")
cs.error("sort", d, 2, code="CT_ERR_INDEX")

# ---- value selection (derivative ops) ----
idx = torch.randint(0, 4, (2, 3), generator=cs.gen)
cs.add("value_selecting_reduction_backward", g(cs.randn(2, 3)), 2, idx, [2, 3, 4], False)
cs.add("value_selecting_reduction_backward", g(cs.randn(2, 3, 1)), -1, idx.unsqueeze(-1), [2, 3, 4], True)
cs.add("_rd_gather", g(d3.clone()), 2, idx, False,
       ref=lambda s, dim, i, keepdim: torch.gather(s, dim, i if keepdim else i.unsqueeze(dim)).squeeze(dim)
       if not keepdim else torch.gather(s, dim, i))
cs.add("_rd_gather", g(d3.clone()), 1, torch.tensor([[[2, 0, 1, 1]], [[0, 0, 2, 1]]]), True,
       ref=lambda s, dim, i, keepdim: torch.gather(s, dim, i))

cs.write()
