"""tests/cases_binary.py - PyTorch fixture cases of gen/ops/binary.spec (and of
add/sub/mul/div's promotion rules): /usr/bin/python3 tests/cases_binary.py
writes tests/fixtures/cases_binary.h (tests/opcases.py)."""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import opcases  # noqa: E402

cs = opcases.Cases("binary")
_add, _error = cs.add, cs.error  # labels are one token: spaces become underscores
cs.add = lambda op, *a, name=None, **k: _add(op, *a, name=name and name.replace(" ", "_"), **k)
cs.error = lambda op, *a, name=None, **k: _error(op, *a, name=name and name.replace(" ", "_"), **k)
F32, F64, F16, BF16 = torch.float32, torch.float64, torch.float16, torch.bfloat16
I64, I32, U8, BOOL = torch.int64, torch.int32, torch.uint8, torch.bool


def g(t):
    return t.requires_grad_()


def away(t, lo=0.3):
    """values at least lo from zero (divisors, log arguments)"""
    return torch.where(t.abs() < lo, torch.full_like(t, lo) * torch.sign(t + 1e-3), t)


def ints(lo, hi, *shape, dtype=I64, nonzero=False):
    t = cs.randint(lo, hi, *shape, dtype=I64)
    if nonzero:
        t = torch.where(t == 0, torch.ones_like(t), t)
    return t.to(dtype)


# ---- add / sub / mul / div: promotion and broadcasting (ctorch/ops.h) ----
a = cs.randn(2, 3, dtype=F32)
cs.add("add.Tensor", a, cs.randn((), dtype=F64), name="add f32 + f64 0-dim stays f32")
cs.add("add.Scalar", ints(-5, 5, 2, 3), 2.5, name="add int + 2.5 is f32")
cs.add("add.Tensor", ints(0, 200, 4, dtype=U8), torch.tensor(-1), name="add u8 + i64 0-dim wraps in u8")
cs.add("add.Tensor", ints(-5, 5, 3, dtype=I32), ints(-5, 5, 2, 1), name="add i32 + i64 broadcast")
cs.add("add.Tensor", ints(0, 2, 3, dtype=BOOL), ints(0, 2, 3, dtype=BOOL), name="add bool + bool is or")
cs.add("add.Tensor", ints(0, 2, 3, dtype=BOOL), torch.tensor(3), name="add bool + i64 0-dim is i64")
cs.add("add.Tensor", cs.randn(3, dtype=F16), cs.randn(3, dtype=BF16), name="add f16 + bf16 is f32")
cs.add("add.Tensor", ints(-5, 5, 3), cs.randn(3, dtype=F32), alpha=2, name="add i64 + f32 alpha")
cs.add("sub.Tensor", ints(-5, 5, 3, dtype=I32), ints(-5, 5, 3, dtype=U8), name="sub i32 - u8 is i32")
cs.add("mul.Tensor", ints(0, 2, 3, dtype=BOOL), ints(0, 2, 3, dtype=BOOL), name="mul bool and")
cs.add("mul.Scalar", ints(0, 2, 3, dtype=BOOL), 3, name="mul bool * 3 is i64")
cs.add("mul.Scalar", cs.randn(3, dtype=F16), 2.5, name="mul f16 * number stays f16")
cs.add("div.Tensor", ints(-9, 9, 2, 3), ints(1, 4, 3), name="div ints is f32")
cs.add("div.Tensor", ints(0, 2, 3, dtype=BOOL), ints(1, 2, 3, dtype=BOOL), name="div bool is f32")
cs.add("div.Scalar", ints(-9, 9, 4, dtype=U8), 2, name="div u8 by int is f32")
cs.add("div.Tensor", cs.randn(2, 3, dtype=F32), cs.randn((), dtype=F64), name="div f32 / f64 0-dim is f32")
cs.add("div.Tensor", ints(-9, 9, 3), cs.randn((), dtype=F64), name="div int / f64 0-dim is f64")
cs.add("div.Tensor", ints(-9, 9, 4), torch.tensor([0, 0, 1, 2]), name="div ints by zero is inf/nan")
cs.add("mul.Tensor", torch.tensor([2 ** 62, -(2 ** 63), 3]), torch.tensor([4, -1, 5]), name="mul i64 wraps")
cs.add("add.Tensor", ints(0, 250, 4, dtype=U8), ints(0, 250, 4, dtype=U8), name="add u8 wraps")
cs.add("add.Scalar", ints(0, 2, 3, dtype=BOOL), True, ref=lambda a, b: a + b, name="add bool + True stays bool")
cs.add("add.Scalar", ints(0, 2, 3, dtype=BOOL), 2.5, name="add bool + 2.5 is f32")
cs.add("sub.Scalar", cs.randn(3, dtype=BF16), 1, name="sub bf16 - int stays bf16")
cs.add("add.Tensor", cs.randn((), dtype=F64), ints(-3, 3, 3, dtype=I32), name="add f64 0-dim + i32 is f64")
cs.add("add.Tensor", cs.randn((), dtype=F16), cs.randn((), dtype=F64), name="add f16 0-dim + f64 0-dim is f64")
cs.add("add.Tensor", ints(-3, 3, (), dtype=I32), ints(-3, 3, (), dtype=U8), name="add i32 0-dim + u8 0-dim is i32")
cs.add("mul.Tensor", cs.randn(2, 3, dtype=F32).t(), cs.randn(2, dtype=F64), name="mul f32 x f64 non-contiguous is f64")
cs.add("add_.Tensor", ints(-5, 5, 3), ints(-5, 5, (), dtype=I32), name="add_ i64 += i32 0-dim")
cs.error("add_.Tensor", ints(-5, 5, 3), cs.randn(3, dtype=F32), code="CT_ERR_DTYPE")
cs.error("mul_.Tensor", cs.randn(3), cs.randn(2, 3), code="CT_ERR_SHAPE")
cs.error("sub.Tensor", ints(0, 2, 3, dtype=BOOL), ints(0, 2, 3, dtype=BOOL), code="CT_ERR_DTYPE")
cs.error("add.Tensor", ints(-5, 5, 3), ints(-5, 5, 3), alpha=2.5, code="CT_ERR_DTYPE")

# ---- div with a rounding mode ----
# x / y stays 0.2 away from integers, so finite differences do not cross a jump
y = away(cs.randn(4))
x = y * (cs.randint(-3, 3, 3, 4).double() + cs.rand(3, 4, lo=0.2, hi=0.8))
for mode in ("floor", "trunc"):
    cs.add("div.Tensor_mode", g(x.clone()), g(y.clone()), rounding_mode=mode)
    cs.add("div.Tensor_mode", ints(-20, 20, 3, 4), ints(-5, 5, 4, nonzero=True), rounding_mode=mode)
    cs.add("div.Tensor_mode", ints(-20, 20, 3, 4, dtype=I32), ints(-5, 5, 4, nonzero=True, dtype=I32), rounding_mode=mode)
    cs.add("div.Tensor_mode", ints(0, 250, 6, dtype=U8), ints(1, 7, 6, dtype=U8), rounding_mode=mode)
    cs.add("div.Scalar_mode", g(x.t().clone().t()), -0.7, rounding_mode=mode)
    cs.add("div.Scalar_mode", ints(-20, 20, 5), 3, rounding_mode=mode)
    cs.add("div.Tensor_mode", x.to(F32), y.to(F32), rounding_mode=mode)
    cs.add("div.Tensor_mode", x.to(F16), y.to(F16), rounding_mode=mode)
    cs.add("div.Tensor_mode", x.to(BF16), y.to(BF16), rounding_mode=mode)
    cs.add("div.Tensor_mode", torch.tensor([5.0, -5.0, 0.0, -0.0]), torch.tensor([0.0, 0.0, 0.0, 2.0]), rounding_mode=mode)
    cs.error("div.Tensor_mode", ints(-5, 5, 3), torch.tensor([1, 0, 2]), rounding_mode=mode, code="CT_ERR_INVALID")
    cs.error("div.Scalar_mode", ints(-5, 5, 3), 0, rounding_mode=mode, code="CT_ERR_INVALID")
    cs.error("div.Tensor_mode", ints(0, 2, 3, dtype=BOOL), ints(1, 2, 3, dtype=BOOL), rounding_mode=mode, code="CT_ERR_DTYPE")
cs.add("div.Tensor_mode", g(x.clone()), g(away(cs.randn(3, 1))), rounding_mode=None)
cs.add("div.Tensor_mode", ints(-20, 20, 3, 4), ints(-5, 5, 4, nonzero=True), rounding_mode=None)
cs.add("div.Scalar_mode", g(x.clone()), 4, rounding_mode=None)
cs.add("div.Tensor_mode", x[:, ::2], y[1::2], rounding_mode="floor", name="div floor non-contiguous")
cs.add("div.Tensor_mode", cs.randn(0, 3), y[:3], rounding_mode="floor", name="div floor zero-size")
cs.add("div.Tensor_mode", cs.randn(()), cs.randn(()), rounding_mode="trunc", name="div trunc 0-dim")
cs.add("div.Tensor_mode", ints(-9, 9, 3, dtype=I32), torch.tensor(2.5, dtype=F64), rounding_mode="floor",
       name="div floor i32 / f64 0-dim is f64")
cs.add("div.Scalar_mode", ints(-9, 9, 3), 2.5, rounding_mode="floor", name="div floor int by 2.5 is f32")
big = torch.tensor([-(2 ** 63), 7, -7])
# INT64_MIN by -1: PyTorch 1.13 dies with SIGFPE; ctorch wraps (tests/test_ops_binary.c)
cs.add("div.Scalar_mode", big, 3, rounding_mode="floor", name="div floor INT64_MIN")
cs.error("div.Tensor_mode", x, y, rounding_mode="round", code="CT_ERR_INVALID")
cs.add("div_.Tensor_mode", x.clone(), y.clone(), rounding_mode="floor")
cs.add("div_.Tensor_mode", ints(-20, 20, 3, 4), ints(-5, 5, 4, nonzero=True), rounding_mode="trunc", name="div_ trunc ints")
cs.add("div_.Scalar_mode", x.clone(), 0.6, rounding_mode="trunc")
cs.add("div_.Scalar_mode", x.clone(), 0.6, rounding_mode=None, name="div_ true division")
cs.error("div_.Tensor_mode", ints(-20, 20, 3, 4), ints(-5, 5, 4, nonzero=True), rounding_mode=None, code="CT_ERR_DTYPE")

cs.add("floor_divide", x.clone(), y.clone(), gradcheck=False)  # not differentiable, as PyTorch
cs.add("floor_divide", ints(-20, 20, 3, 4), ints(-5, 5, 4, nonzero=True))
cs.add("floor_divide.Scalar", x.t(), -0.7, gradcheck=False)
cs.add("floor_divide.Scalar", ints(-20, 20, 5, dtype=I32), 3)
cs.add("floor_divide_.Tensor", x.clone(), y.clone())
cs.add("floor_divide_.Scalar", ints(-20, 20, 5), 3)
cs.error("floor_divide", ints(-5, 5, 3), torch.tensor([1, 0, 2]), code="CT_ERR_INVALID")

# ---- pow ----
base = cs.rand(3, 4, lo=0.3, hi=2.0)
cs.add("pow.Tensor_Tensor", g(base.clone()), g(cs.randn(4)))
cs.add("pow.Tensor_Tensor", g(cs.randn(3, 4)), torch.tensor([0.0, 1.0, 2.0, 3.0], dtype=F64), name="pow negative base, integral exponents")
cs.add("pow.Tensor_Tensor", g(torch.tensor([0.0, 0.0, 2.0, 0.0], dtype=F64)), g(torch.tensor([2.0, 0.0, 0.0, 1.5], dtype=F64)),
       name="pow zero base and zero exponent")
cs.add("pow.Tensor_Tensor", base.t(), cs.randn(4, 1), name="pow non-contiguous broadcast")
cs.add("pow.Tensor_Tensor", base.to(F32), cs.randn(4, dtype=F32))
cs.add("pow.Tensor_Tensor", base.to(F16), cs.randn(4).to(F16))
cs.add("pow.Tensor_Tensor", base.to(BF16), cs.randn(4).to(BF16))
cs.add("pow.Tensor_Tensor", ints(-4, 4, 3, 4), ints(0, 5, 4))
cs.add("pow.Tensor_Tensor", torch.tensor([2, 3, 1, -1, -1, 0]), torch.tensor([-1, 2, -5, -3, -2, 0]), name="pow ints negative exponents")
cs.add("pow.Tensor_Tensor", ints(-4, 4, 5, dtype=I32), ints(0, 4, 5, dtype=I32))
cs.add("pow.Tensor_Tensor", ints(0, 6, 5, dtype=U8), ints(0, 6, 5, dtype=U8), name="pow u8 wraps")
cs.add("pow.Tensor_Tensor", ints(-4, 4, 3), cs.randn(3, dtype=F32), name="pow int ** f32 is f32")
cs.add("pow.Tensor_Tensor", ints(1, 4, 3), cs.randn((), dtype=F64), name="pow int ** f64 0-dim is f64")
cs.add("pow.Tensor_Tensor", cs.randn(0, 4), cs.randn(4), name="pow zero-size")
cs.add("pow.Tensor_Scalar", g(cs.randn(3, 4)), 3)
cs.add("pow.Tensor_Scalar", g(base.clone()), -1.5)
cs.add("pow.Tensor_Scalar", g(base.clone()), 0.5)
cs.add("pow.Tensor_Scalar", g(cs.randn(3, 4)), 0, name="pow exponent 0")
cs.add("pow.Tensor_Scalar", g(cs.randn(3, 4)), 2.0)
cs.add("pow.Tensor_Scalar", ints(-5, 5, 6), 3)
cs.add("pow.Tensor_Scalar", ints(-5, 5, 6), 0.5, name="pow int ** 0.5 is f32")
cs.add("pow.Tensor_Scalar", ints(0, 2, 4, dtype=BOOL), 2, name="pow bool ** 2 is i64")
cs.add("pow.Tensor_Scalar", cs.randn(3, dtype=F32), 2)
cs.add("pow.Tensor_Scalar", cs.randn((), dtype=F64), 2, name="pow 0-dim")
cs.error("pow.Tensor_Scalar", ints(-5, 5, 6), -1, code="CT_ERR_INVALID")
cs.error("pow.Tensor_Tensor", ints(0, 2, 3, dtype=BOOL), ints(0, 2, 3, dtype=BOOL), code="CT_ERR_DTYPE")
# the in-place overloads' names do not follow the functional ones' (pow_.Tensor is pow.Tensor_Tensor's)
cs.add("pow_.Tensor", base.clone(), cs.randn(4))
cs.add("pow_.Tensor", ints(-4, 4, 3, 4), ints(0, 4, 4), name="pow_ ints")
cs.add("pow_.Scalar", base.clone(), -0.5)
cs.add("pow_.Scalar", ints(-4, 4, 5, dtype=I32), 2, name="pow_ i32")
cs.error("pow_.Scalar", ints(-4, 4, 5), 0.5, code="CT_ERR_DTYPE")
cs.error("pow_.Tensor", cs.randn(4), cs.randn(3, 4), code="CT_ERR_SHAPE")
cs.add("pow.Scalar", 2.5, g(cs.randn(3, 4)))
cs.add("pow.Scalar", 2, ints(0, 5, 4), name="pow 2 ** ints is i64")
cs.add("pow.Scalar", -2, torch.tensor([-1, 0, 3]), name="pow -2 ** ints with negatives")
cs.add("pow.Scalar", 2.5, ints(0, 5, 4), name="pow 2.5 ** ints is f32")
cs.add("pow.Scalar", 3, cs.randn(4, dtype=F32))
cs.add("pow.Scalar", 0.0, g(torch.tensor([-1.0, 0.0, 2.0], dtype=F64)), name="pow 0 ** x")

# ---- remainder (Python sign) and fmod (C sign) ----
for op in ("remainder", "fmod"):
    cs.add(op + ".Tensor", g(x.clone()), g(y.clone()))
    cs.add(op + ".Tensor", g(x.t()), g(away(cs.randn(4, 1))), name=op + " non-contiguous broadcast")
    cs.add(op + ".Tensor", ints(-20, 20, 3, 4), ints(-6, 6, 4, nonzero=True))
    cs.add(op + ".Tensor", ints(-20, 20, 3, 4, dtype=I32), ints(-6, 6, 4, nonzero=True, dtype=I32))
    cs.add(op + ".Tensor", ints(0, 250, 6, dtype=U8), ints(1, 9, 6, dtype=U8))
    cs.add(op + ".Tensor", x.to(F32), y.to(F32))
    cs.add(op + ".Tensor", x.to(F16), y.to(F16))
    cs.add(op + ".Tensor", x.to(BF16), y.to(BF16))
    cs.add(op + ".Tensor", torch.tensor([5.0, -5.0, 3.0]), torch.tensor([0.0, 0.0, float("inf")]), name=op + " float by zero, by inf")
    cs.add(op + ".Tensor", ints(-9, 9, 3), cs.randn((), dtype=F64), name=op + " int by f64 0-dim is f64")
    cs.add(op + ".Tensor", cs.randn(0), cs.randn(1), name=op + " zero-size")
    cs.add(op + ".Scalar", g(x.clone()), -0.7)
    cs.add(op + ".Scalar", ints(-20, 20, 6), 4)
    cs.add(op + ".Scalar", ints(-20, 20, 6), -1.5, name=op + " int by -1.5 is f32")
    cs.add(op + ".Scalar", big, 3, name=op + " INT64_MIN")
    cs.error(op + ".Tensor", ints(-5, 5, 3), torch.tensor([1, 0, 2]), code="CT_ERR_INVALID")
    cs.error(op + ".Scalar", ints(-5, 5, 3, dtype=U8), 0, code="CT_ERR_INVALID")
    cs.error(op + ".Tensor", ints(0, 2, 3, dtype=BOOL), ints(1, 2, 3, dtype=BOOL), code="CT_ERR_DTYPE")
cs.add("remainder.Scalar_Tensor", 3, ints(-5, 5, 6, nonzero=True))
cs.add("remainder.Scalar_Tensor", 3.5, y.clone(), gradcheck=False)
cs.add("remainder.Scalar_Tensor", 3.5, ints(-5, 5, 6, nonzero=True), name="remainder 3.5 by ints is f32")
cs.error("remainder.Scalar_Tensor", 3, torch.tensor([1, 0]), code="CT_ERR_INVALID")

# ---- maximum / minimum / atan2 ----
p = cs.randn(3, 4)
q = cs.randn(4)
tie = p.clone()
tie[:, 1] = q[1]
for op in ("maximum", "minimum"):
    cs.add(op, g(p.clone()), g(q.clone()))
    cs.add(op, g(tie.clone()), g(q.clone()), name=op + " ties split the gradient")
    cs.add(op, g(p.t()), g(cs.randn(3)), name=op + " non-contiguous")
    cs.add(op, torch.tensor([1.0, float("nan"), 3.0, float("nan")]), torch.tensor([2.0, 0.0, float("nan"), float("nan")]),
           name=op + " NaN propagates")
    cs.add(op, torch.tensor([0.0, -0.0]), torch.tensor([-0.0, 0.0]), name=op + " signed zeros")
    cs.add(op, ints(-9, 9, 3, 4), ints(-9, 9, 4))
    cs.add(op, ints(-9, 9, 5, dtype=I32), ints(0, 9, 5, dtype=U8), name=op + " i32 u8 is i32")
    cs.add(op, ints(0, 2, 4, dtype=BOOL), ints(0, 2, 4, dtype=BOOL))
    cs.add(op, ints(-9, 9, 4), cs.randn(4, dtype=F32), name=op + " int f32 is f32")
    cs.add(op, p.to(F32), cs.randn((), dtype=F64), name=op + " f32 with f64 0-dim is f32")
    cs.add(op, p.to(F16), q.to(F16))
    cs.add(op, p.to(BF16), q.to(BF16))
    cs.add(op, cs.randn(2, 0), cs.randn(1), name=op + " zero-size")
cs.add("atan2", g(p.clone()), g(q.clone()))
cs.add("atan2", g(p[:, ::2]), g(cs.randn(3, 1)), name="atan2 non-contiguous broadcast")
cs.add("atan2", torch.tensor([0.0, -0.0, 1.0, -1.0]), torch.tensor([-0.0, -1.0, 0.0, float("inf")]), name="atan2 signed zeros")
cs.add("atan2", ints(-5, 5, 4), ints(-5, 5, 4), name="atan2 ints is f32")
cs.add("atan2", ints(0, 2, 4, dtype=BOOL), ints(0, 2, 4, dtype=BOOL), name="atan2 bool is f32")
cs.add("atan2", p.to(F32), q.to(F32))
cs.add("atan2", p.to(F16), q.to(F16))
cs.add("atan2", cs.randn(()), cs.randn(()), name="atan2 0-dim")

# ---- comparisons ----
cmp_a = torch.tensor([[1.0, 2.0, float("nan")], [-1.0, 0.0, 2.0]], dtype=F64)
cmp_b = torch.tensor([1.0, 3.0, float("nan")], dtype=F64)
for op in ("eq", "ne", "lt", "le", "gt", "ge"):
    cs.add(op + ".Tensor", cmp_a, cmp_b)
    cs.add(op + ".Tensor", cmp_a.t(), cs.randn(2), name=op + " non-contiguous broadcast")
    cs.add(op + ".Tensor", ints(-3, 3, 2, 3), ints(-3, 3, 3, dtype=I32))
    cs.add(op + ".Tensor", ints(-3, 3, 5), cs.rand(5, lo=-3, hi=3, dtype=F32), name=op + " int vs f32")
    cs.add(op + ".Tensor", ints(0, 2, 4, dtype=BOOL), ints(0, 2, 4, dtype=BOOL))
    cs.add(op + ".Tensor", ints(0, 2, 4, dtype=BOOL), torch.tensor(0.5), name=op + " bool vs f32 0-dim")
    cs.add(op + ".Tensor", ints(0, 255, 4, dtype=U8), torch.tensor(-1), name=op + " u8 vs i64 0-dim -1 wraps to 255")
    cs.add(op + ".Tensor", cmp_a.to(F16), cmp_b.to(F16))
    cs.add(op + ".Tensor", cmp_a.to(BF16), cmp_b.to(BF16))
    cs.add(op + ".Tensor", cs.randn(0, 3), cmp_b, name=op + " zero-size")
    cs.add(op + ".Scalar", cmp_a, 1.0)
    cs.add(op + ".Scalar", ints(-3, 3, 6), 1.5, name=op + " int vs 1.5 compares in f32")
    cs.add(op + ".Scalar", ints(-3, 3, 6, dtype=U8), 2)
    cs.add(op + ".Scalar", ints(0, 2, 4, dtype=BOOL), True)
    cs.add(op + ".Scalar", cs.randn(()), 0.0, name=op + " 0-dim")
    cs.error(op + ".Tensor", cs.randn(2, 3), cs.randn(4), code="CT_ERR_SHAPE")

# ---- logical ops ----
la = torch.tensor([[1.0, 0.0, float("nan")], [-2.0, 0.0, 0.5]], dtype=F64)
lb = torch.tensor([3, 0, 0], dtype=I64)
for op in ("logical_and", "logical_or", "logical_xor"):
    cs.add(op, la, lb)
    cs.add(op, la.t(), ints(0, 2, 2, dtype=BOOL), name=op + " non-contiguous broadcast")
    cs.add(op, ints(0, 2, 5, dtype=BOOL), ints(0, 2, 5, dtype=BOOL))
    cs.add(op, ints(0, 3, 5, dtype=U8), ints(-1, 2, 5, dtype=I32))
    cs.add(op, la.to(F16), lb.to(BF16))
    cs.add(op, cs.randn(0, 3), lb, name=op + " zero-size")
    cs.error(op, la, cs.randn(2), code="CT_ERR_SHAPE")
cs.add("logical_not", la)
cs.add("logical_not", la.t(), name="logical_not non-contiguous")
cs.add("logical_not", ints(-2, 3, 5, dtype=I32))
cs.add("logical_not", ints(0, 2, 5, dtype=BOOL))
cs.add("logical_not", la.to(BF16))
cs.add("logical_not", cs.randn(()), name="logical_not 0-dim")

# ---- where ----
cond = cs.rand(3, 4) > 0.5
cs.add("where.self", cond, g(cs.randn(3, 4)), g(cs.randn(4)))
cs.add("where.self", cond.t(), g(cs.randn(4, 1)), g(cs.randn(3)), name="where non-contiguous broadcast")
cs.add("where.self", cond[0], ints(-5, 5, 3, 4), cs.randn(4, dtype=F32), name="where int and f32 is f32")
cs.add("where.self", cond, ints(-5, 5, 3, 4, dtype=I32), torch.tensor(7), name="where i32 and i64 0-dim is i32")
cs.add("where.self", cond, cs.randn(3, 4, dtype=F32), cs.randn((), dtype=F64), name="where f32 and f64 0-dim is f32")
cs.add("where.self", cond, ints(0, 2, 3, 4, dtype=BOOL), ints(0, 2, 4, dtype=BOOL))
cs.add("where.self", cond, cs.randn(3, 4, dtype=F16), cs.randn(3, 4, dtype=F16))
cs.add("where.self", cond, cs.randn(3, 4, dtype=BF16), cs.randn(3, 4, dtype=F32), name="where bf16 and f32")
cs.add("where.self", cond.to(U8), ints(0, 9, 3, 4, dtype=U8), ints(0, 9, 4, dtype=U8), name="where uint8 condition")
cs.add("where.self", torch.zeros(0, 4, dtype=BOOL), cs.randn(4), cs.randn(1), name="where zero-size")
cs.add("where.self", torch.tensor(True), g(cs.randn(())), g(cs.randn(2)), name="where 0-dim condition")
cs.error("where.self", cs.randn(3, 4), cs.randn(3, 4), cs.randn(3, 4), code="CT_ERR_DTYPE")
cs.error("where.self", cond, cs.randn(3, 4), cs.randn(3), code="CT_ERR_SHAPE")
cs.add("where.ScalarSelf", cond, 0.5, g(cs.randn(3, 4)))
cs.add("where.ScalarSelf", cond, 2, ints(-5, 5, 4, dtype=I32), name="where 2 and i32 is i32")
cs.add("where.ScalarOther", cond, g(cs.randn(4)), -1)
cs.add("where.ScalarOther", cond, ints(-5, 5, 4), 2.5, name="where int and 2.5 is f32")
cs.add("where.Scalar", cond, 1, 2.5, name="where numbers 1 and 2.5 is f32")
cs.add("where.Scalar", cond, 1, 2, name="where numbers 1 and 2 is i64")
# A bool number stays bool, as in Python (torch.where(c, True, False) is bool); torch.ops.aten's
# Scalar overloads would make it int64 (the same for add.Scalar below).
cs.add("where.Scalar", cond, True, False, ref=lambda c, a, b: torch.where(c, a, b), name="where bool numbers are bool")
cs.add("where.ScalarOther", cond, ints(0, 2, 4, dtype=BOOL), False, ref=lambda c, a, b: torch.where(c, a, b),
       name="where bool tensor and False is bool")
cs.add("where.ScalarOther", cond, cs.randn(4, dtype=F16), 2.5, name="where f16 and number is f16")
cs.error("where.ScalarOther", cond, ints(0, 9, 4, dtype=U8), 300, code="CT_ERR_INVALID")
cs.error("where.ScalarSelf", cond, 1e300, cs.randn(4, dtype=F32), code="CT_ERR_INVALID")

# ---- masked_fill ----
mask = cs.rand(3, 4) > 0.5
cs.add("masked_fill.Scalar", g(cs.randn(3, 4)), mask, -1.5)
cs.add("masked_fill.Scalar", g(cs.randn(3, 4).t()), mask.t(), 2, name="masked_fill non-contiguous")
cs.add("masked_fill.Scalar", g(cs.randn(4)), mask, 0.5, name="masked_fill mask broadcasts self")
cs.add("masked_fill.Scalar", cs.randn(3, 4), mask[0], float("nan"), name="masked_fill NaN value, broadcast mask")
cs.add("masked_fill.Scalar", ints(-5, 5, 3, 4), mask, 3.7, name="masked_fill int with 3.7 truncates")
cs.add("masked_fill.Scalar", ints(0, 9, 3, 4, dtype=U8), mask, 255)
cs.error("masked_fill.Scalar", ints(0, 9, 3, 4, dtype=U8), mask, 300, code="CT_ERR_INVALID")
cs.error("masked_fill.Scalar", ints(0, 9, 3, 4, dtype=I32), mask, -2 ** 40, code="CT_ERR_INVALID")
cs.error("masked_fill.Scalar", cs.randn(3, 4, dtype=F16), mask, 1e6, code="CT_ERR_INVALID")
cs.add("masked_fill.Scalar", ints(0, 2, 3, 4, dtype=BOOL), mask, True)
cs.add("masked_fill.Scalar", cs.randn(3, 4, dtype=F16), mask, 2.5)
cs.add("masked_fill.Scalar", cs.randn(3, 4, dtype=BF16), mask, -2.5)
cs.add("masked_fill.Scalar", cs.randn(0, 4), mask[0], 1.0, name="masked_fill zero-size")
cs.add("masked_fill.Tensor", g(cs.randn(3, 4)), mask, g(cs.randn(())))
cs.add("masked_fill.Tensor", g(cs.randn(4)), mask, g(cs.randn(())), name="masked_fill.Tensor broadcast")
cs.add("masked_fill.Tensor", ints(-5, 5, 3, 4), mask, torch.tensor(9))
cs.add("masked_fill.Tensor", cs.randn(3, 4, dtype=F32), mask, torch.tensor(2.5, dtype=F64), name="masked_fill f32 with f64 value")
cs.add("masked_fill.Scalar", cs.randn(3, 4), mask.to(U8), 1.0, name="masked_fill uint8 mask (deprecated)")
# PyTorch 1.13 reads a float or int64 mask's bytes as bools (garbage); ctorch refuses it
cs.error("masked_fill.Scalar", cs.randn(3, 4), mask.to(F32), 1.0, code="CT_ERR_DTYPE", torch_raises=False)
cs.error("masked_fill.Scalar", cs.randn(3, 4), mask.to(I64), 1.0, code="CT_ERR_DTYPE", torch_raises=False)
cs.error("masked_fill.Tensor", cs.randn(3, 4), mask, cs.randn(1), code="CT_ERR_SHAPE")
cs.error("masked_fill.Scalar", cs.randn(3, 4), mask[:, :3], 1.0, code="CT_ERR_SHAPE")

# ---- lerp ----
s_, e_ = cs.randn(3, 4), cs.randn(4)
cs.add("lerp.Scalar", g(s_.clone()), g(e_.clone()), 0.3)
cs.add("lerp.Scalar", g(s_.clone()), g(e_.clone()), 0.8)
cs.add("lerp.Scalar", g(s_.t()), g(cs.randn(4, 1)), -1.5, name="lerp non-contiguous broadcast, weight < 0")
cs.add("lerp.Scalar", s_.to(F32), e_.to(F32), 0.6)
cs.add("lerp.Scalar", s_.to(F16), e_.to(F16), 0.25)
cs.add("lerp.Scalar", s_.to(BF16), e_.to(BF16), 0.75)
cs.add("lerp.Scalar", cs.randn(0, 4), e_, 0.5, name="lerp zero-size")
cs.add("lerp.Scalar", cs.randn(()), cs.randn(()), 2, name="lerp 0-dim, int weight")
cs.add("lerp.Tensor", g(s_.clone()), g(e_.clone()), g(cs.rand(3, 1, lo=-0.5, hi=1.5)))
cs.add("lerp.Tensor", g(cs.randn(4)), g(cs.randn(3, 4)), g(cs.rand((), lo=0, hi=1)), name="lerp.Tensor broadcast self")
cs.add("lerp.Tensor", s_.to(F32), e_.to(F32), cs.rand(3, 4, dtype=F32))
cs.add("lerp.Tensor", s_.to(F16), e_.to(F16), cs.rand(4, dtype=F16))
cs.error("lerp.Scalar", s_.to(F32), e_, 0.5, code="CT_ERR_DTYPE")
cs.error("lerp.Tensor", s_, e_, cs.rand(4, dtype=F32), code="CT_ERR_DTYPE")
cs.error("lerp.Scalar", ints(0, 5, 3), ints(0, 5, 3), 0.5, code="CT_ERR_DTYPE")
cs.error("lerp.Scalar", s_, cs.randn(3), 0.5, code="CT_ERR_SHAPE")

# ---- addcmul / addcdiv ----
t1, t2 = cs.randn(3, 1), cs.randn(4)
cs.add("addcmul", g(cs.randn(3, 4)), g(t1.clone()), g(t2.clone()))
cs.add("addcmul", g(cs.randn(4, 3).t()), g(t1.clone()), g(t2.clone()), value=-0.5, name="addcmul non-contiguous value")
cs.add("addcmul", g(cs.randn(())), g(cs.randn(3)), g(cs.randn(3)), value=2, name="addcmul 0-dim self broadcasts")
cs.add("addcmul", ints(-5, 5, 3, 4), ints(-5, 5, 4), ints(-5, 5, 3, 1), value=2)
cs.add("addcmul", ints(-5, 5, 3, 4), ints(-5, 5, 4), ints(-5, 5, 3, 1), value=2.5, name="addcmul int with value 2.5 truncates")
cs.add("addcmul", cs.randn(3, 4, dtype=F32), ints(-5, 5, 4), ints(-5, 5, 3, 1), value=2.5, name="addcmul f32 with ints")
cs.add("addcmul", cs.randn(3, 4, dtype=F16), cs.randn(4, dtype=F16), cs.randn(3, 1, dtype=F16))
cs.add("addcmul", cs.randn(3, 4, dtype=BF16), cs.randn(4, dtype=BF16), cs.randn(3, 1, dtype=BF16), value=0.5)
cs.add("addcmul", cs.randn(0, 4), t2, t2, name="addcmul zero-size")
cs.error("addcmul", ints(0, 2, 3, dtype=BOOL), ints(0, 2, 3, dtype=BOOL), ints(0, 2, 3, dtype=BOOL), code="CT_ERR_DTYPE")
cs.error("addcmul", cs.randn(3, 4), cs.randn(3), cs.randn(4), code="CT_ERR_SHAPE")
d2 = away(cs.randn(4))
cs.add("addcdiv", g(cs.randn(3, 4)), g(t1.clone()), g(d2.clone()))
cs.add("addcdiv", g(cs.randn(4, 3).t()), g(t1.clone()), g(d2.clone()), value=3, name="addcdiv non-contiguous value")
cs.add("addcdiv", cs.randn(3, 4, dtype=F32), ints(-5, 5, 4), d2.to(F32), value=0.5, name="addcdiv int tensor1")
cs.add("addcdiv", cs.randn(3, 4, dtype=F16), cs.randn(4, dtype=F16), d2.to(F16))
cs.add("addcdiv", cs.randn(3, 4, dtype=BF16), cs.randn(4, dtype=BF16), d2.to(BF16))
cs.error("addcdiv", cs.randn(3, 4), ints(-5, 5, 4), ints(1, 5, 4), code="CT_ERR_DTYPE")
cs.error("addcdiv", cs.randn(3, 4), cs.randn(3), d2, code="CT_ERR_SHAPE")

# ---- clamp ----
cv = torch.tensor([[-2.0, -0.5, 0.0, 0.5], [1.0, 1.5, float("nan"), 3.0], [0.2, -0.2, 0.7, -0.7]], dtype=F64)
cs.add("clamp", g(cs.randn(3, 4)), -0.5, 0.5)
cs.add("clamp", g(cv.clone()), -0.5, 1.0, name="clamp at the bounds")
cs.add("clamp", g(cs.randn(3, 4).t()), None, 0.2, name="clamp max only, non-contiguous")
cs.add("clamp", g(cs.randn(3, 4)), -0.2, None, name="clamp min only")
cs.add("clamp", cv, 1.0, -1.0, name="clamp min > max gives max")
cs.add("clamp", cv, float("nan"), None, name="clamp NaN number bound is ignored")
cs.add("clamp", ints(-9, 9, 6), -3, 4)
cs.add("clamp", ints(-9, 9, 6, dtype=I32), 0.5, None, name="clamp i32 with 0.5 is f32")
cs.add("clamp", ints(0, 250, 6, dtype=U8), 10, 100)
cs.add("clamp", ints(0, 2, 4, dtype=BOOL), 0, None, name="clamp bool with int is i64")
cs.add("clamp", cs.randn(3, 4, dtype=F32), torch.tensor(0.1).item(), 0.3)
cs.add("clamp", cs.randn(3, 4, dtype=F16), -0.5, 0.5)
cs.add("clamp", cs.randn(3, 4, dtype=BF16), -0.5, 0.5)
cs.add("clamp", cs.randn(0, 4), -0.5, 0.5, name="clamp zero-size")
cs.add("clamp", cs.randn(()), -0.5, 0.5, name="clamp 0-dim")
cs.error("clamp", cs.randn(3), None, None, code="CT_ERR_INVALID")
# torch.clamp(bool, True) raises ("clamp_min_cpu" not implemented for 'Bool'); aten's Scalar overload would give int64
cs.error("clamp", ints(0, 2, 4, dtype=BOOL), True, None, code="CT_ERR_DTYPE", torch_raises=False)
cs.error("clamp", ints(0, 9, 4, dtype=U8), None, 300, code="CT_ERR_INVALID")
cs.error("clamp_min", ints(0, 9, 4, dtype=U8), 300, code="CT_ERR_INVALID")
cs.error("addcmul", ints(0, 9, 4, dtype=U8), ints(0, 9, 4, dtype=U8), ints(0, 9, 4, dtype=U8), value=300, code="CT_ERR_INVALID")
cs.add("eq.Scalar", ints(0, 250, 6, dtype=U8), 300, name="eq u8 with 300 (wraps to 44)")
cs.add("remainder.Scalar", ints(0, 250, 6, dtype=U8), 300, name="remainder u8 by 300 (wraps to 44)")
lo, hi = cs.rand(4, lo=-1, hi=0), cs.rand(3, 1, lo=0, hi=1)
cs.add("clamp.Tensor", g(cs.randn(3, 4)), g(lo.clone()), g(hi.clone()))
cs.add("clamp.Tensor", g(cs.randn(3, 4)), g(cs.rand(4, lo=0.2, hi=1)), g(cs.rand(3, 1, lo=-1, hi=0)), name="clamp.Tensor min > max")
cs.add("clamp.Tensor", g(cv.clone()), g(torch.full((4,), -0.5, dtype=F64)), None, name="clamp.Tensor min only at the bound")
cs.add("clamp.Tensor", g(cs.randn(4, 3).t()), None, g(hi.clone()), name="clamp.Tensor max only, non-contiguous")
cs.add("clamp.Tensor", cv, torch.tensor([0.0, float("nan"), 0.0, 0.0], dtype=F64), None, name="clamp.Tensor NaN bound propagates")
cs.add("clamp.Tensor", ints(-9, 9, 3, 4), ints(-5, 0, 4), ints(0, 5, 3, 1))
cs.add("clamp.Tensor", ints(-9, 9, 3, 4), cs.rand(4, lo=-1, hi=0, dtype=F32), None, name="clamp.Tensor int with f32 bound")
cs.add("clamp.Tensor", ints(0, 2, 4, dtype=BOOL), ints(0, 2, 4, dtype=BOOL), None)
cs.add("clamp.Tensor", cs.randn(3, 4, dtype=F32), torch.tensor(-0.5, dtype=F64), torch.tensor(0.5, dtype=F64),
       name="clamp.Tensor f32 with f64 0-dim bounds stays f32")
cs.add("clamp.Tensor", cs.randn(3, 4, dtype=F16), lo.to(F16), hi.to(F16))
cs.error("clamp.Tensor", cs.randn(3, 4), None, None, code="CT_ERR_INVALID")
cs.error("clamp.Tensor", cs.randn(3, 4), cs.randn(3), None, code="CT_ERR_SHAPE")
for op, arg in (("clamp_min", -0.3), ("clamp_max", 0.3)):
    cs.add(op, g(cs.randn(3, 4)), arg)
    cs.add(op, g(cv.clone()), 0.5, name=op + " at the bound")
    cs.add(op, ints(-9, 9, 6), 2)
    cs.add(op, ints(-9, 9, 6), 2.5, name=op + " int with 2.5 is f32")
    cs.add(op, cs.randn(3, 4, dtype=F32), arg)
    cs.add(op + ".Tensor", g(cs.randn(3, 4)), g(cs.randn(4)))
    cs.add(op + ".Tensor", g(cs.randn(4, 3).t()), g(cs.randn(3, 1)), name=op + ".Tensor non-contiguous broadcast")
    cs.add(op + ".Tensor", cv, torch.tensor([0.0, float("nan"), 0.0, 0.0], dtype=F64), name=op + ".Tensor NaN bound")
    cs.add(op + ".Tensor", ints(-9, 9, 6, dtype=I32), ints(-3, 3, 6))
    cs.error(op + ".Tensor", cs.randn(3, 4), cs.randn(3), code="CT_ERR_SHAPE")

# ---- every binary op rejects mismatched shapes ----
for op in ("pow.Tensor_Tensor", "remainder.Tensor", "fmod.Tensor", "maximum", "minimum", "atan2"):
    cs.error(op, cs.rand(2, 3, lo=0.5, hi=1), cs.rand(2, 4, lo=0.5, hi=1), code="CT_ERR_SHAPE")
cs.error("div.Tensor_mode", cs.randn(2, 3), away(cs.randn(2)), rounding_mode="floor", code="CT_ERR_SHAPE")
# ---- binary math functions (appended: earlier inputs unchanged) ----
nan, inf = float("nan"), float("inf")
SP_A = torch.tensor([-inf, -inf, -2.0, -0.0, 0.0, 0.0, 1.5, inf, inf, nan, 3.0, nan], dtype=F64)
SP_B = torch.tensor([-inf, 1.0, -0.0, 2.0, -0.0, nan, inf, inf, -1.0, 2.0, nan, nan], dtype=F64)


def pos(*shape):
    return cs.rand(*shape, lo=0.3, hi=3.0)


def spread(*shape):
    return away(cs.randn(*shape) * 2, 0.2)


def pair(op):
    """(self, other) float64 inputs where the op is smooth"""
    if op == "xlogy":
        return spread(3, 4), pos(3, 4)
    if op in ("fmax", "fmin"):   # no ties
        a = cs.randn(3, 4)
        return a, a + away(cs.randn(3, 4), 0.2)
    return spread(3, 4), spread(3, 4)


MATH2 = {  # op: (overload of the Tensor form, in-place?, TO_FLOAT (ints -> float32) / FLOAT_ONLY / ALL)
    "hypot": ("hypot", True, "float_only"), "copysign": ("copysign.Tensor", True, "to_float"),
    "nextafter": ("nextafter", True, "float_only"), "fmax": ("fmax", False, "all"), "fmin": ("fmin", False, "all"),
    "xlogy": ("xlogy.Tensor", True, "to_float"), "logaddexp": ("logaddexp", False, "float_only"),
    "logaddexp2": ("logaddexp2", False, "float_only"),
}
NOGRAD2 = ("nextafter",)
for op, (ov, inplace, rule) in MATH2.items():
    gr = (lambda t: t) if op in NOGRAD2 else g
    a, b = pair(op)
    out_ov = {"copysign": "copysign.out", "xlogy": "xlogy.OutTensor"}.get(op, op + ".out")
    ip_ov = {"copysign": "copysign_.Tensor", "xlogy": "xlogy_.Tensor"}.get(op, op + "_")
    cs.add(ov, gr(a.clone()), gr(b.clone()), gradcheck=op not in NOGRAD2, name=op + " f64")
    cs.add(ov, gr(a.clone().t()), gr(b[:, 0].clone()), name=op + " non-contiguous broadcast")
    cs.add(ov, gr(a[:, :1].clone()), gr(b[:1].clone()), name=op + " broadcast both")
    cs.add(ov, a.to(F32), b.to(F32), name=op + " f32")
    cs.add(ov, a.to(F32), b.to(F64), name=op + " f32 f64 promotes")
    cs.add(ov, a.to(F32), torch.tensor(1.5, dtype=F64), name=op + " f32 with f64 0-dim stays f32")
    if op == "nextafter":   # PyTorch 1.13 has no float16 nextafter (a float32 step rounded back would be a no-op)
        cs.error(ov, a.to(F16), b.to(F16), code="CT_ERR_DTYPE", name=op + " f16 refused")
    else:
        cs.add(ov, a.to(F16), b.to(F16), name=op + " f16")
    cs.add(ov, a.to(BF16), b.to(BF16), name=op + " bf16")
    cs.add(ov, gr(a[0, 0].clone()), gr(b[1, 1].clone()), name=op + " 0-dim")
    cs.add(ov, torch.empty(0, 3, dtype=F64), torch.empty(1, 3, dtype=F64), name=op + " zero-size")
    cs.add(ov, SP_A, SP_B, name=op + " specials")
    cs.add(ov, SP_A.to(F32), SP_B.to(F32), name=op + " specials f32")
    cs.add(ov, ints(-4, 4, 2, 3), ints(1, 4, 2, 3).to(F32), name=op + " int and f32")
    if rule == "float_only":
        cs.error(ov, ints(-4, 4, 3), ints(-4, 4, 3), code="CT_ERR_DTYPE", name=op + " ints refused")
        cs.error(ov, ints(0, 2, 3, dtype=BOOL), ints(0, 2, 3, dtype=BOOL), code="CT_ERR_DTYPE", name=op + " bool refused")
    else:
        cs.add(ov, ints(-4, 4, 2, 3), ints(1, 4, 2, 3), name=op + " ints")
        cs.add(ov, ints(0, 9, 4, dtype=U8), ints(0, 9, 4, dtype=I32), name=op + " u8 i32")
        cs.add(ov, ints(0, 2, 4, dtype=BOOL), ints(0, 2, 4, dtype=BOOL), name=op + " bool")
    cs.add(out_ov, a.to(F32), b.to(F32), out=torch.empty(0, dtype=F64), opcheck=False, atol=1e-5, rtol=1e-5,
           name=op + " out= f64 from f32")
    cs.add(out_ov, a, b, out=torch.empty(3, 4, dtype=F64), opcheck=False, name=op + " out=")
    cs.error(out_ov, a, b, out=torch.empty(3, 4, dtype=I64), code="CT_ERR_DTYPE", name=op + " out= int refused")
    cs.error(ov, cs.randn(2, 3), cs.randn(2, 4), code="CT_ERR_SHAPE", name=op + " shapes")
    if inplace:
        cs.add(ip_ov, a.clone(), b.clone(), opcheck=False, name=op + "_")
        cs.add(ip_ov, a.to(F32).t().clone().t(), b[0].to(F64), opcheck=False, name=op + "_ non-contiguous f32 with f64")
        cs.error(ip_ov, a[0, :1].clone(), b.clone(), code="CT_ERR_SHAPE", name=op + "_ cannot broadcast self")
        if rule == "to_float":
            cs.error(ip_ov, ints(-4, 4, 3), ints(1, 4, 3), code="CT_ERR_DTYPE", name=op + "_ int self")
# nextafter steps one unit in the computing dtype, both directions, through zero and to the infinities
na = torch.tensor([1.0, 1.0, 0.0, -0.0, 0.0, -1e-300, 3.0, 1e308, -inf, 2.0], dtype=F64)
nb = torch.tensor([2.0, 0.0, 1.0, -1.0, -1.0, 0.0, 3.0, inf, 0.0, -inf], dtype=F64)
cs.add("nextafter", na, nb, name="nextafter steps f64")
cs.add("nextafter", na.to(F32), nb.to(F32), name="nextafter steps f32")
cs.add("nextafter", na.to(BF16), nb.to(BF16), name="nextafter steps bf16")
# copysign, Scalar overloads
cp = spread(3, 4)
cs.add("copysign.Scalar", g(cp.clone()), -1.0, name="copysign Scalar")
cs.add("copysign.Scalar", cp, -0.0, name="copysign Scalar -0.0")
cs.add("copysign.Scalar", ints(-3, 3, 4), 2, name="copysign Scalar ints")
cs.add("copysign_.Scalar", cp.clone(), -2, opcheck=False, name="copysign_ Scalar")
cs.add("copysign.Scalar_out", cp, 1, out=torch.empty(0, dtype=F32), opcheck=False, name="copysign Scalar out")
cs.add("copysign.Tensor", g(torch.tensor([0.0, -0.0, 2.0, -3.0], dtype=F64)), torch.tensor([-1.0, 1.0, -0.0, 0.0], dtype=F64),
       opcheck=False, name="copysign zeros gradient")
cs.error("copysign_.Scalar", ints(-3, 3, 4), 1.0, code="CT_ERR_DTYPE", name="copysign_ Scalar int self")
# fmax / fmin: NaN loses, ties split as PyTorch's masks (self takes the gradient of a tie)
fa = torch.tensor([1.0, nan, 2.0, nan, -1.0, 3.0], dtype=F64)
fb = torch.tensor([nan, 1.0, 2.0, nan, -2.0, 4.0], dtype=F64)
cs.add("fmax", g(fa.clone()), g(fb.clone()), opcheck=False, name="fmax NaN and ties")
cs.add("fmin", g(fa.clone()), g(fb.clone()), opcheck=False, name="fmin NaN and ties")
cs.add("fmax", ints(0, 200, 4, dtype=U8), torch.tensor(300), name="fmax u8 with i64 0-dim wraps")
# heaviside: one dtype for both; values taken at 0
hx = torch.tensor([-2.0, -0.0, 0.0, 1.5, nan, -inf, inf], dtype=F64)
hv = torch.tensor([0.5, 0.25, 2.0, 7.0, 3.0, 1.0, 1.0], dtype=F64)
cs.add("heaviside", hx, hv, gradcheck=False, name="heaviside f64")
cs.add("heaviside", hx.to(F32).reshape(7, 1), torch.tensor([0.5], dtype=F32), name="heaviside broadcast f32")
cs.add("heaviside", hx.to(F16), hv.to(F16), name="heaviside f16")
cs.add("heaviside", hx.to(BF16)[::2], hv.to(BF16)[::2], name="heaviside bf16 strided")
cs.add("heaviside", ints(-3, 3, 2, 4), ints(5, 9, 2, 4), name="heaviside ints")
cs.add("heaviside", ints(0, 3, 5, dtype=U8), ints(5, 9, 5, dtype=U8), name="heaviside u8")
cs.add("heaviside", ints(0, 2, 4, dtype=BOOL), ints(0, 2, 4, dtype=BOOL), name="heaviside bool")
cs.add("heaviside", torch.tensor(0.0, dtype=F64), torch.tensor(0.5, dtype=F64), name="heaviside 0-dim")
cs.add("heaviside", torch.empty(0, dtype=F32), torch.empty(0, dtype=F32), name="heaviside zero-size")
cs.add("heaviside_", hx.clone(), hv, opcheck=False, name="heaviside_")
cs.add("heaviside.out", hx, hv, out=torch.empty(0, dtype=F64), opcheck=False, name="heaviside out")
cs.error("heaviside.out", ints(-3, 3, 4), ints(5, 9, 4), out=torch.empty(0, dtype=F32), code="CT_ERR_DTYPE", name="heaviside out of another dtype")
cs.error("heaviside", hx, hv.to(F32), code="CT_ERR_DTYPE", name="heaviside dtypes differ")
cs.error("heaviside", hx.to(F32), torch.tensor(0.5, dtype=F64), code="CT_ERR_DTYPE", name="heaviside 0-dim of another dtype")
cs.error("heaviside", hx, hv[:3], code="CT_ERR_SHAPE", name="heaviside shapes")
# xlogy: 0 * log(anything but NaN) is 0; Scalar overloads
xa = torch.tensor([0.0, 0.0, 0.0, 1.0, 2.0, -1.0, 0.0, nan], dtype=F64)
xb = torch.tensor([0.0, inf, nan, 0.0, 0.5, 2.0, -1.0, 1.0], dtype=F64)
cs.add("xlogy.Tensor", xa, xb, name="xlogy zeros")
xs, xo = spread(3, 4), pos(3, 4)
cs.add("xlogy.Scalar_Other", g(xs.clone()), 2.5, name="xlogy Scalar_Other")
cs.add("xlogy.Scalar_Other", ints(-3, 3, 4), 3, name="xlogy Scalar_Other ints")
cs.add("xlogy.Scalar_Self", 2.0, g(xo.clone()), name="xlogy Scalar_Self")
cs.add("xlogy.Scalar_Self", 0, xb, name="xlogy Scalar_Self 0")
cs.add("xlogy.Scalar_Self", 3, ints(1, 5, 4), name="xlogy Scalar_Self ints")
cs.add("xlogy_.Scalar_Other", xs.clone(), 0.5, opcheck=False, name="xlogy_ Scalar_Other")
cs.add("xlogy.OutScalar_Other", xs, 2, out=torch.empty(0, dtype=F64), opcheck=False, name="xlogy OutScalar_Other")
cs.add("xlogy.OutScalar_Self", 2, xo, out=torch.empty(3, 4, dtype=F32), opcheck=False, name="xlogy OutScalar_Self")
cs.error("xlogy_.Scalar_Other", ints(-3, 3, 4), 2, code="CT_ERR_DTYPE", name="xlogy_ Scalar_Other int self")
# logaddexp: infinities of one sign give themselves
la = torch.tensor([-inf, inf, -inf, 1000.0, -1000.0, 0.0], dtype=F64)
lb = torch.tensor([-inf, inf, 0.0, 1000.0, -1001.0, 0.0], dtype=F64)
cs.add("logaddexp", la, lb, name="logaddexp infinities")
cs.add("logaddexp2", la, lb, name="logaddexp2 infinities")
# float_power: pow in float64 whatever the inputs
fp, fe = pos(3, 4), cs.rand(3, 4, lo=-2.0, hi=2.0)
cs.add("float_power.Tensor_Tensor", g(fp.clone()), g(fe.clone()), name="float_power f64")
cs.add("float_power.Tensor_Tensor", g(fp.to(F32).t()), fe[:, 0].to(F32), name="float_power f32 -> f64")
cs.add("float_power.Tensor_Tensor", ints(1, 5, 2, 3), ints(-2, 3, 2, 3), name="float_power ints (negative powers fine)")
cs.add("float_power.Tensor_Tensor", ints(0, 2, 3, dtype=BOOL), fe[0, :3].to(F16), name="float_power bool f16")
cs.add("float_power.Tensor_Tensor", torch.empty(0, dtype=F32), torch.empty(0, dtype=I64), name="float_power zero-size")
cs.add("float_power.Tensor_Scalar", g(fp.clone()), 2.5, name="float_power Tensor_Scalar")
cs.add("float_power.Tensor_Scalar", ints(-3, 4, 5), -1, name="float_power int to -1")
cs.add("float_power.Tensor_Scalar", fp.to(F32), 3, name="float_power f32 Scalar")
cs.add("float_power.Scalar", 2, g(fe.clone()), name="float_power Scalar")
cs.add("float_power.Scalar", 1.5, ints(-2, 3, 4), name="float_power Scalar ints")
cs.add("float_power_.Tensor", fp.clone(), fe, opcheck=False, name="float_power_")
cs.add("float_power_.Scalar", fp.clone(), 0.5, opcheck=False, name="float_power_ Scalar")
cs.add("float_power.Tensor_Tensor_out", fp.to(F32), fe, out=torch.empty(0, dtype=F64), opcheck=False, name="float_power out")
cs.add("float_power.Tensor_Scalar_out", fp, 2, out=torch.empty(3, 4, dtype=F64), opcheck=False, name="float_power Scalar out")
cs.add("float_power.Scalar_out", 3, fe, out=torch.empty(0, dtype=F64), opcheck=False, name="float_power Scalar_out")
cs.error("float_power_.Tensor", fp.to(F32), fe, code="CT_ERR_DTYPE", name="float_power_ f32 self")
cs.error("float_power_.Scalar", ints(1, 3, 4), 2, code="CT_ERR_DTYPE", name="float_power_ int self")
cs.error("float_power.Tensor_Tensor_out", fp, fe, out=torch.empty(3, 4, dtype=F32), code="CT_ERR_DTYPE", name="float_power out f32")
cs.error("float_power.Tensor_Tensor", fp, cs.rand(2, 3), code="CT_ERR_SHAPE", name="float_power shapes")
# ---- aten's aliases: true_divide, rsub ----
cs.add("true_divide.Tensor", g(cs.randn(2, 3)), g(away(cs.randn(3))))
cs.add("true_divide.Tensor", ints(-9, 9, 2, 3), ints(1, 4, 3), name="true_divide ints is f32")
cs.add("true_divide.Scalar", g(cs.randn(2, 3)), 4)
cs.add("true_divide.out", cs.randn(3), away(cs.randn(3)), out=torch.empty(0, dtype=F64))
cs.add("rsub.Tensor", g(cs.randn(2, 3)), g(cs.randn(3)), alpha=2)
cs.add("rsub.Tensor", ints(-5, 5, 3, dtype=I32), ints(-5, 5, 3), name="rsub i32 i64")
cs.error("rsub.Tensor", ints(0, 2, 3, dtype=BOOL), ints(0, 2, 3, dtype=BOOL), name="rsub bool refused")

# ---- bitwise ops, shifts, gcd, lcm (integers and bool) ----
xs = torch.tensor([-8, -1, 0, 1, 5, 100, 2 ** 40, -(2 ** 62)])
for op in ("bitwise_and", "bitwise_or", "bitwise_xor"):
    cs.add(op + ".Tensor", xs, torch.tensor([3, -1, 7, 0, 6, -100, 2 ** 41 - 1, 5]))
    cs.add(op + ".Tensor", ints(-99, 99, 3, 4, dtype=I32), ints(-99, 99, 4, dtype=I32).expand(3, 4))
    cs.add(op + ".Tensor", ints(0, 255, 2, 3, dtype=U8).t(), ints(-99, 99, 3, 1, dtype=I32))   # promoted to int32
    cs.add(op + ".Tensor", torch.tensor([True, True, False, False]), torch.tensor([True, False, True, False]))
    cs.add(op + ".Tensor", ints(0, 255, 4, dtype=U8), torch.tensor(-1))                            # 0-dim int64: stays uint8
    cs.add(op + ".Scalar", ints(0, 255, 4, dtype=U8), -3)
    cs.add(op + ".Scalar", torch.tensor([True, False]), 3)                                         # bool with an int: int64
    cs.add(op + ".Scalar_Tensor", 6, ints(-9, 9, 5))
    cs.add(op + ".Tensor", ints(0, 9, 0, 3), ints(0, 9, 3))
    cs.error(op + ".Tensor", cs.randn(3), ints(0, 9, 3), code="CT_ERR_DTYPE")
    cs.error(op + ".Scalar", ints(0, 9, 3), 1.5, code="CT_ERR_DTYPE")
counts = torch.tensor([0, 1, 63, 64, -1, 7, 70, 31])
for op in ("bitwise_left_shift", "bitwise_right_shift"):
    for dt in (I64, I32, U8):
        cs.add(op + ".Tensor", xs.to(dt), counts.to(dt), name="%s %s" % (op, dt))
    cs.add(op + ".Tensor_Scalar", xs, 3)
    cs.add(op + ".Tensor_Scalar", ints(0, 255, 6, dtype=U8), 70)
    cs.add(op + ".Scalar_Tensor", -5, ints(0, 9, 4))
    cs.add(op + ".Tensor", ints(-99, 99, 3, 2, dtype=I32).t(), ints(0, 5, 3, dtype=I64))
    cs.add(op + ".Tensor_Scalar", torch.tensor([True, False]), 1)
    cs.error(op + ".Tensor", cs.randn(3), ints(0, 9, 3), code="CT_ERR_DTYPE")
gx = torch.tensor([12, -18, 0, 0, 7, -(2 ** 63), -(2 ** 63), 2 ** 40, 9])
gy = torch.tensor([8, 12, 0, -5, 0, 0, 6, 3 * 2 ** 30, -6])
for op in ("gcd", "lcm"):
    cs.add(op, gx, gy)
    cs.add(op, ints(-99, 99, 3, 4, dtype=I32), ints(-99, 99, 4, dtype=I32))
    cs.add(op, ints(0, 255, 5, dtype=U8), ints(-99, 99, 5, dtype=I32))
    cs.add(op, ints(0, 255, 4, dtype=U8), ints(0, 255, 4, dtype=U8))
    cs.add(op, ints(-99, 99, 2, 3).t(), torch.tensor(12))
    cs.error(op, cs.randn(3), cs.randn(3), code="CT_ERR_DTYPE")
    cs.error(op, torch.tensor([True]), torch.tensor([True]), code="CT_ERR_DTYPE")
cs.add("bitwise_not", xs)
cs.add("bitwise_not", ints(0, 255, 3, 2, dtype=U8).t())
cs.add("bitwise_not", ints(-99, 99, 4, dtype=I32))
cs.add("bitwise_not", torch.tensor([True, False]))
cs.add("bitwise_not", ints(0, 9, 0))
cs.error("bitwise_not", cs.randn(3), code="CT_ERR_DTYPE")


# ---- ldexp ----
cs.add("ldexp.Tensor", g(cs.randn(3, 4)), ints(-5, 5, 4))
cs.add("ldexp.Tensor", ints(-5, 5, 3), ints(-3, 3, 3))                    # integers: float32
cs.add("ldexp.Tensor", cs.randn(3, dtype=F16), ints(-3, 3, 3))            # float16 with int64: float32 (pow(2., int) is float32)
cs.add("ldexp.Tensor", g(cs.randn(2, 3).t()), g(cs.randn(3, 1)))           # float exponent, broadcast
cs.error("ldexp.Tensor", cs.randn(3), cs.randn(4), code="CT_ERR_SHAPE")

cs.write()
