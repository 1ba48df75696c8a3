"""tests/cases_unary.py - PyTorch cases of gen/ops/unary.spec (tests/opcases.py).

Run with Debian's torch:  /usr/bin/python3 tests/cases_unary.py
Writes tests/fixtures/cases_unary.h, run by tests/test_opcases.c.
"""
import math
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import opcases  # noqa: E402

cs = opcases.Cases("unary")
f64, f32, f16, bf16 = torch.float64, torch.float32, torch.float16, torch.bfloat16
i64, i32, u8, b8 = torch.int64, torch.int32, torch.uint8, torch.bool
nan, inf = float("nan"), float("inf")


def g(t):
    return t.detach().clone().requires_grad_()


def away_from_zero(t, eps=0.1):
    """values with |x| >= eps: no kinks (relu, abs) and no 0 (sign, reciprocal) in gradient cases"""
    return torch.where(t.abs() < eps, torch.where(t < 0, t - eps, t + eps), t)


def domain(op):
    """inputs (3, 4) float64 inside the op's domain"""
    if op in ("log", "log2", "sqrt", "rsqrt"):
        return cs.rand(3, 4, lo=0.3, hi=3.0)
    if op == "log1p":
        return cs.rand(3, 4, lo=-0.7, hi=3.0)
    if op == "reciprocal":
        return away_from_zero(cs.randn(3, 4), 0.3)
    if op == "tan":
        return cs.rand(3, 4, lo=-1.2, hi=1.2)
    return away_from_zero(cs.randn(3, 4) * 1.5)


# ---- float functions: integers and bool give float32 ----
FLOAT_OPS = ["exp", "exp2", "log", "log2", "log1p", "expm1", "sqrt", "rsqrt", "reciprocal",
             "sin", "cos", "tan", "tanh", "erf", "sigmoid"]
for op in FLOAT_OPS:
    x = domain(op)
    cs.add(op, g(x))                                   # float64 with gradient (opcheck)
    cs.add(op, g(x.to(f32)).t())                       # non-contiguous float32
    cs.add(op, g(x[:, ::2].to(f32)))                   # strided slice
    cs.add(op, x[:1].to(f32).expand(3, 4))             # broadcast (stride 0) input
    cs.add(op, g(x[0, 0]))                             # 0-dim
    cs.add(op, torch.empty(0, 3, dtype=f64))           # zero-size
    cs.add(op, x.to(f16))
    cs.add(op, x.to(bf16))
    lo = 1 if op in ("log", "log2", "sqrt", "rsqrt", "reciprocal") else -3
    cs.add(op, cs.randint(lo, 4, 2, 3))                # int64 -> float32
    cs.add(op, cs.randint(1, 4, 5, dtype=u8))
    cs.add(op, torch.tensor([True, False, True]))      # bool -> float32
    cs.add(op + "_", x.clone().to(f32), opcheck=False)  # in-place (opcheck covers the variants of op)
    # out= casts within floating types: computed in float32, so float32's tolerance
    cs.add(op + ".out", x.to(f32), out=torch.empty(3, 4, dtype=f64), atol=1e-5, rtol=1e-5, opcheck=False)
    cs.add(op + ".out", cs.randint(1, 4, 2, 3), out=torch.empty(0, dtype=f32), opcheck=False)  # resized
    cs.error(op + "_", cs.randint(1, 4, 3), code="CT_ERR_DTYPE")      # Float can't be cast to Long
    cs.error(op + ".out", x, out=torch.empty(3, 4, dtype=i64), code="CT_ERR_DTYPE")
special = torch.tensor([-inf, -30.0, -1.0, -0.0, 0.0, 0.5, 30.0, 100.0, inf, nan], dtype=f64)
for op in FLOAT_OPS:
    cs.add(op, special, name=op + "_special")
    cs.add(op, special.to(f32), name=op + "_special_f32")

# ---- sign and magnitude: integer dtypes kept ----
for op in ("neg", "abs", "sign", "square"):
    x = away_from_zero(cs.randn(3, 4) * 2)
    cs.add(op, g(x))
    cs.add(op, g(x.to(f32)).t())
    cs.add(op, x[:1].expand(2, 4))
    cs.add(op, g(x[1, 1]))
    cs.add(op, torch.empty(2, 0, dtype=f32))
    cs.add(op, x.to(f16))
    cs.add(op, x.to(bf16))
    cs.add(op, cs.randint(-100, 100, 2, 5))
    cs.add(op, torch.tensor([-2147483648, -7, 0, 9, 2147483647], dtype=i32))
    cs.add(op, torch.tensor([0, 1, 5, 200, 255], dtype=u8))
    cs.add(op, special, name=op + "_special")
    cs.add(op + "_", x.clone(), opcheck=False)
    cs.add(op + "_", cs.randint(-9, 9, 4))
    cs.add(op + ".out", x, out=torch.empty(3, 4, dtype=f64), opcheck=False)
    cs.error(op + ".out", x, out=torch.empty(3, 4, dtype=f32), code="CT_ERR_DTYPE")  # Found dtype Float but expected Double
cs.add("sign", torch.tensor([True, False]))
cs.add("square", torch.tensor([True, False]))       # int64
cs.error("square_", torch.tensor([True, False]), code="CT_ERR_DTYPE")
cs.error("neg", torch.tensor([True, False]), code="CT_ERR_DTYPE")
cs.error("abs", torch.tensor([True, False]), code="CT_ERR_DTYPE")

# ---- activations ----
x = away_from_zero(cs.randn(3, 4) * 2)
wide = away_from_zero(cs.randn(4, 5) * 4)           # crosses hardtanh/relu6/softplus bounds
for dt in (f64, f32):
    cs.add("relu", g(x.to(dt)))
    cs.add("relu", g(x.to(dt)).t())
    cs.add("hardtanh", g(wide.to(dt)))
    cs.add("hardtanh", g(wide.to(dt)), -0.5, 2.5)
    cs.add("relu6", g(wide.to(dt) * 2))
    cs.add("leaky_relu", g(x.to(dt)))
    cs.add("leaky_relu", g(x.to(dt)).t(), 0.2)
    cs.add("elu", g(x.to(dt)))
    cs.add("elu", g(x.to(dt)), 1.5, 2.0, 0.5)
    cs.add("gelu", g(x.to(dt)))
    cs.add("gelu", g(x.to(dt)).t(), approximate="tanh")
    cs.add("silu", g(x.to(dt)))
    cs.add("mish", g(x.to(dt)))
    cs.add("softplus", g(wide.to(dt)))
    cs.add("softplus", g(wide.to(dt)), 2.0, 3.0)
    cs.add("softplus", g(wide.to(dt)), 0.5, 1)
for op, args, kw in [("relu", (), {}), ("hardtanh", (-1.0, 2.0), {}), ("relu6", (), {}), ("leaky_relu", (0.1,), {}),
                     ("elu", (1.0, 1.0, 1.0), {}), ("gelu", (), {}), ("gelu", (), {"approximate": "tanh"}),
                     ("silu", (), {}), ("mish", (), {}), ("softplus", (1.0, 20.0), {})]:
    cs.add(op, g(x[0, 0]), *args, **kw)                       # 0-dim
    cs.add(op, torch.empty(0, dtype=f64), *args, **kw)       # zero-size
    cs.add(op, x[:1].expand(3, 4), *args, **kw)              # broadcast input
    cs.add(op, special, *args, name=op + "_special", **kw)
    cs.add(op, x.to(bf16), *args, **kw)
    cs.add(op, x.to(f16), *args, **kw)
    if op != "relu6":
        cs.add(op + ".out", x, *args, out=torch.empty(0, dtype=f64), opcheck=False, **kw)
        if op not in ("softplus",):
            cs.add(op + "_", x.clone(), *args, opcheck=False, **kw)
for op, args, kw in [("leaky_relu", (), {}), ("elu", (), {}), ("gelu", (), {}), ("silu", (), {}),
                     ("softplus", (), {}), ("mish", (), {})]:
    cs.error(op, cs.randint(-3, 3, 4), *args, code="CT_ERR_DTYPE", **kw)            # floating only
    cs.error(op + ".out", x, *args, out=torch.empty(3, 4, dtype=f32), code="CT_ERR_DTYPE", **kw)
cs.error("gelu", x, approximate="exact", code="CT_ERR_INVALID")
# integers: relu, hardtanh, relu6 keep the dtype
for dt in (i64, i32, u8):
    xi = cs.randint(0 if dt == u8 else -9, 10, 3, 4, dtype=dt)
    cs.add("relu", xi)
    cs.add("relu6", xi)
    cs.add("hardtanh", xi, 0, 5)
cs.add("hardtanh", cs.randint(-9, 10, 3, 4), -1.5, 2.5)     # bounds truncated to integers
cs.add("relu_", cs.randint(-9, 10, 6), opcheck=False)
cs.error("relu", torch.tensor([True, False]), code="CT_ERR_DTYPE")
cs.error("hardtanh", torch.tensor([True, False]), code="CT_ERR_DTYPE")
cs.error("hardtanh", torch.tensor([1, 2], dtype=u8), -1, 1, code="CT_ERR_INVALID")

# ---- rounding: integer tensors return their values ----
halves = torch.tensor([[-2.5, -1.5, -0.5, 0.5], [1.5, 2.5, 3.49, -3.51], [0.2, -0.7, 7.0, 1e10]], dtype=f64)
smooth = cs.randn(3, 4) * 3   # gradients away from the steps
for op in ("floor", "ceil", "round", "trunc"):
    cs.add(op, g(smooth))
    cs.add(op, halves)
    cs.add(op, g(halves.to(f32)).t())
    cs.add(op, halves.to(bf16))
    cs.add(op, halves.to(f16)[:, :3])
    cs.add(op, g(halves[0, 0]))
    cs.add(op, torch.empty(0, 2, dtype=f64))
    cs.add(op, special, name=op + "_special")
    for dt in (i64, i32, u8):
        cs.add(op, cs.randint(0 if dt == u8 else -50, 50, 2, 3, dtype=dt))
    cs.add(op + "_", halves.clone(), opcheck=False)
    cs.add(op + ".out", halves, out=torch.empty(0, dtype=f64), opcheck=False)
    cs.error(op, torch.tensor([True, False]), code="CT_ERR_DTYPE")
    cs.error(op + ".out", halves, out=torch.empty(3, 4, dtype=f32), code="CT_ERR_DTYPE")
dec = torch.tensor([1.25, 0.125, -2.675, 15.0, 25.0, 1234.5678, -0.05, 2.5], dtype=f64)
cs.add("round.decimals", g(smooth), decimals=1)
for d in (0, 1, 2, -1, -2):
    cs.add("round.decimals", dec, decimals=d)
    cs.add("round.decimals", dec.to(f32), decimals=d)
for d in (1, -1):
    cs.add("round.decimals", dec.to(bf16), decimals=d)   # bfloat16 arithmetic, as torch
    cs.add("round.decimals", dec.to(f16), decimals=d)    # float32 arithmetic (torch has no half kernel)
cs.add("round_.decimals", dec.clone(), decimals=2, opcheck=False)
cs.add("round.decimals_out", dec, decimals=1, out=torch.empty(0, dtype=f64), opcheck=False)
cs.error("round.decimals", cs.randint(0, 9, 3), decimals=1, code="CT_ERR_DTYPE")

# ---- nan_to_num ----
nonfinite = torch.tensor([[nan, inf, -inf, 1.5], [-2.0, nan, 0.25, inf]], dtype=f64)
for dt in (f64, f32, f16, bf16):
    cs.add("nan_to_num", nonfinite.to(dt))
    cs.add("nan_to_num", nonfinite.to(dt), 1.0, 2.0, -3.0)
    cs.add("nan_to_num", nonfinite.to(dt).t(), posinf=100.0)
cs.add("nan_to_num", g(nonfinite))
cs.add("nan_to_num", g(nonfinite), 0.5, None, -7.0)
cs.add("nan_to_num", nonfinite.to(f32), 1e300, 1e300, 1e300)   # overflows to inf in float32
cs.add("nan_to_num", cs.randint(-5, 5, 2, 3), 1.0, 2.0, 3.0)
cs.add("nan_to_num", torch.tensor([True, False]))
cs.add("nan_to_num", torch.empty(0, dtype=f32))
cs.add("nan_to_num_", nonfinite.clone(), 9.0, opcheck=False)
cs.add("nan_to_num.out", nonfinite, out=torch.empty(0, dtype=f64), opcheck=False)
cs.error("nan_to_num.out", nonfinite, out=torch.empty(2, 4, dtype=f32), code="CT_ERR_DTYPE")

# ---- second round of activations (appended: the cases above keep their random inputs) ----
def away_from(t, points, eps=0.1):
    """values at least eps from each kink in points (gradient and gradcheck cases)"""
    for pt in points:
        t = torch.where((t - pt).abs() < eps, torch.where(t < pt, t - eps, t + eps), t)
    return t


x = away_from(cs.randn(3, 4) * 2, (0.0,))
wide = away_from(cs.randn(4, 5) * 4, (-3.0, 3.0, -0.5, 0.5, 1.0))   # crosses the kinks, off them
for dt in (f64, f32):
    cs.add("hardswish", g(wide.to(dt)))
    cs.add("hardswish", g(wide.to(dt)).t())
    cs.add("hardsigmoid", g(wide.to(dt)))
    cs.add("selu", g(x.to(dt)))
    cs.add("celu", g(x.to(dt)))
    cs.add("celu", g(x.to(dt)).t(), 2.0)
    cs.add("log_sigmoid", g(wide.to(dt)))
    cs.add("hardshrink", g(wide.to(dt)))
    cs.add("hardshrink", g(wide.to(dt)).t(), 1.0)
    cs.add("softshrink", g(wide.to(dt)))
    cs.add("softshrink", g(wide.to(dt)), 1.0)
    cs.add("threshold", g(wide.to(dt)), 1.0, -2.0)
    cs.add("threshold", g(wide.to(dt)).t(), -0.5, 7)
    cs.add("softsign", g(x.to(dt)), ref=F.softsign)
    cs.add("tanhshrink", g(x.to(dt)), ref=F.tanhshrink)
# boundaries: hardswish/hardsigmoid at +-3, the shrinks at |x| == lambd, threshold at x == threshold;
# gradients there are PyTorch's one-sided choices (no gradcheck at a kink)
edges = torch.tensor([-3.5, -3.0, -2.5, -1.0, -0.5, -0.25, 0.0, 0.25, 0.5, 1.0, 2.5, 3.0, 3.5], dtype=f64)
cs.add("hardswish", g(edges), opcheck=False)
cs.add("hardsigmoid", g(edges), opcheck=False)
cs.add("hardshrink", g(edges), opcheck=False)
cs.add("hardshrink", g(edges), 1.0, opcheck=False)
cs.add("softshrink", g(edges), opcheck=False)
cs.add("softshrink", g(edges), 0.0, opcheck=False)
cs.add("threshold", g(edges), 0.5, 9.0, opcheck=False)
cs.add("threshold", g(edges.to(f32)), 0.1, 9.0, opcheck=False)     # the threshold in float32
cs.add("hardshrink", edges.to(f32), 0.1)                              # lambd in float32
cs.add("hardshrink", edges, -1.0)                                     # negative lambd: nothing shrunk
for op, args, ref in [("hardswish", (), None), ("hardsigmoid", (), None), ("selu", (), None), ("celu", (1.5,), None),
                      ("log_sigmoid", (), None), ("hardshrink", (0.5,), None), ("softshrink", (0.5,), None),
                      ("threshold", (0.5, -1.0), None), ("softsign", (), F.softsign),
                      ("tanhshrink", (), F.tanhshrink)]:
    cs.add(op, g(x[0, 0]), *args, ref=ref)                       # 0-dim
    cs.add(op, torch.empty(0, dtype=f64), *args, ref=ref)       # zero-size
    cs.add(op, x[:1].expand(3, 4), *args, ref=ref)              # broadcast input
    cs.add(op, special, *args, ref=ref, name=op + "_special")
    cs.add(op, special.to(f32), *args, ref=ref, name=op + "_special_f32")
    cs.add(op, x.to(bf16), *args, ref=ref)
    cs.add(op, x.to(f16), *args, ref=ref)
    if ref is None and op != "selu":
        cs.add(op + ".out", x, *args, out=torch.empty(0, dtype=f64), opcheck=False)
        cs.add(op + ".out", x.to(f32), *args, out=torch.empty(3, 4, dtype=f32), opcheck=False)
    if op in ("hardswish", "hardsigmoid", "selu", "celu", "threshold"):
        cs.add(op + "_", x.clone(), *args, opcheck=False)
        cs.add(op + "_", x.clone().t(), *args, opcheck=False)
for op, args in [("hardswish", ()), ("hardsigmoid", ()), ("selu", ()), ("celu", ()), ("log_sigmoid", ()),
                 ("hardshrink", ()), ("softshrink", ())]:
    for dt in (i64, i32, u8, b8):
        cs.error(op, cs.randint(0, 3, 4).to(dt), *args, code="CT_ERR_DTYPE")    # floating only
    if op not in ("log_sigmoid", "hardshrink", "softshrink"):
        cs.error(op + "_", cs.randint(-3, 3, 4), *args, code="CT_ERR_DTYPE")
    if op not in ("selu", "celu"):
        cs.error(op + ".out", x, *args, out=torch.empty(3, 4, dtype=f32), code="CT_ERR_DTYPE")
# celu.out is aten's generated out= of a composite: out of any dtype takes a copy
cs.add("celu.out", x, 1.0, out=torch.empty(3, 4, dtype=f32), opcheck=False)
cs.add("celu.out", x * 3, 1.0, out=torch.empty(0, dtype=i64), opcheck=False)
cs.add("selu", g(x), ref=F.selu, name="selu_F")                         # torch.nn.functional agrees
cs.add("celu", g(x), 0.5, ref=lambda t, a: F.celu(t, a), name="celu_F")
cs.add("log_sigmoid", g(x), ref=F.logsigmoid, name="log_sigmoid_F")
cs.add("log_sigmoid", torch.tensor([-800.0, -40.0, 40.0, 800.0], dtype=f64))   # no overflow either side
cs.add("log_sigmoid", torch.tensor([-100.0, -20.0, 20.0, 100.0], dtype=f32))
cs.error("celu", x, 0.0, code="CT_ERR_INVALID")                         # alpha cannot be 0
cs.error("celu_", x.clone(), 0, code="CT_ERR_INVALID")
cs.error("softshrink", x, -1.0, code="CT_ERR_INVALID")                  # lambda must be >= 0
cs.error("softshrink.out", x, -0.5, out=torch.empty(3, 4, dtype=f64), code="CT_ERR_INVALID")
# threshold keeps integer dtypes; the scalars converted to the tensor's (floats truncated, checked)
for dt in (i64, i32, u8):
    xi = cs.randint(0 if dt == u8 else -9, 10, 3, 4, dtype=dt)
    cs.add("threshold", xi, 2, 100)
    cs.add("threshold", xi, 1.5, 2.5)
    cs.add("threshold_", xi.clone(), 4, 0, opcheck=False)
    cs.add("threshold.out", xi, 4, -1 if dt != u8 else 1, out=torch.empty(0, dtype=dt), opcheck=False)
cs.add("threshold", torch.tensor([-3, 0, 1, 2, 5]).to(u8), 1, 2)       # uint8 wraps -3 to 253 first
cs.add("threshold", torch.tensor([-3, 0, 1, 2, 5]).to(u8), -3, 2)      # an int threshold wraps as well
cs.error("threshold", torch.tensor([1, 2], dtype=u8), 300, 0, code="CT_ERR_INVALID")   # overflow
cs.error("threshold", torch.tensor([1, 2], dtype=u8), 1, 300, code="CT_ERR_INVALID")
cs.error("threshold", torch.tensor([True, False]), 0, 1, code="CT_ERR_DTYPE")
cs.add("threshold.out", x, 0.0, 1.0, out=torch.empty(3, 4, dtype=f32), opcheck=False)         # cast into out=
cs.add("threshold.out", cs.randint(-5, 5, 6), 0, 1, out=torch.empty(0, dtype=f32), opcheck=False)
cs.error("threshold.out", cs.randint(-5, 5, 6), 0, 1, out=torch.empty(6, dtype=b8), code="CT_ERR_DTYPE")
# composites: integers give float32 (true division / tanh); bool is refused
cs.add("softsign", cs.randint(-5, 5, 2, 3), ref=F.softsign)
cs.add("tanhshrink", cs.randint(-5, 5, 2, 3), ref=F.tanhshrink)
cs.error("softsign", torch.tensor([True, False]), code="CT_ERR_DTYPE", torch_raises=False)     # abs of bool (F.softsign raises)
cs.error("tanhshrink", torch.tensor([True, False]), code="CT_ERR_DTYPE", torch_raises=False)   # bool - float (F.tanhshrink raises)

# ---- inverse trigonometric, hyperbolic and special functions (appended: earlier inputs unchanged) ----
def math_domain(op):
    if op in ("asin", "acos", "atanh", "erfinv"):
        return cs.rand(3, 4, lo=-0.9, hi=0.9)
    if op == "acosh":
        return cs.rand(3, 4, lo=1.2, hi=4.0)
    if op == "log10":
        return cs.rand(3, 4, lo=0.3, hi=3.0)
    if op in ("lgamma", "digamma"):
        return cs.rand(3, 4, lo=0.2, hi=5.0)
    if op == "logit":
        return cs.rand(3, 4, lo=0.05, hi=0.95)
    return away_from_zero(cs.randn(3, 4) * 1.5)


MATH_OPS = ["asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "log10", "erfc", "erfinv",
            "lgamma", "digamma", "i0", "special_i1", "sinc", "logit", "deg2rad", "rad2deg"]
NO_GRAD = ()
for op in MATH_OPS:
    x = math_domain(op)
    gr = (lambda t: t) if op in NO_GRAD else g
    cs.add(op, gr(x), gradcheck=op not in NO_GRAD)       # float64 (opcheck)
    cs.add(op, gr(x.to(f32)).t())                         # non-contiguous float32
    cs.add(op, x[:1].to(f32).expand(3, 4))                # broadcast input
    cs.add(op, gr(x[0, 0]))                               # 0-dim
    cs.add(op, torch.empty(0, 3, dtype=f64))              # zero-size
    cs.add(op, x.to(bf16))
    cs.add(op, x.to(f16))
    lo = 1 if op in ("acosh", "log10", "lgamma", "digamma") else -1 if op in ("atanh", "asin", "acos", "erfinv") else -3
    cs.add(op, cs.randint(lo, 2 if lo == -1 else 4, 2, 3))  # int64 -> float32
    cs.add(op, torch.tensor([True, False, True]))         # bool -> float32
    if op != "special_i1":    # (no in-place form)
        cs.add(op + "_", x.clone().to(f32), opcheck=False)
    cs.add(op + ".out", x.to(f32), out=torch.empty(3, 4, dtype=f64), atol=1e-5, rtol=1e-5, opcheck=False)
    cs.add(op + ".out", cs.randint(1, 2, 2, 3), out=torch.empty(0, dtype=f32), opcheck=False)  # resized
    if op != "special_i1":
        cs.error(op + "_", cs.randint(1, 4, 3), code="CT_ERR_DTYPE")      # Float can't be cast to Long
    cs.error(op + ".out", x, out=torch.empty(3, 4, dtype=i64), code="CT_ERR_DTYPE")
    cs.add(op, special, name=op + "_special")
    cs.add(op, special.to(f32), name=op + "_special_f32")
# special points of each function
cs.add("erfinv", torch.tensor([-1.0, -0.999, -0.7, -0.3, 0.0, 0.3, 0.7, 0.999, 1.0, 1.5], dtype=f64), name="erfinv_edges")
cs.add("lgamma", torch.tensor([-2.5, -1.5, -1.0, -0.5, 0.5, 1.0, 1.5, 2.0, 10.0, 171.5, 1e10], dtype=f64), name="lgamma_edges")
cs.add("digamma", torch.tensor([-2.5, -1.5, -1.0, -0.5, -0.0, 0.0, 0.5, 1.0, 1.4616321, 9.0, 10.0, 11.5, 1e6, 1e18], dtype=f64),
       name="digamma_edges")
cs.add("digamma", torch.tensor([-2.5, -1.0, -0.0, 0.0, 0.5, 10.0, 12.5, 1e6], dtype=f32), name="digamma_edges_f32")
cs.add("i0", torch.tensor([-1e10, -50.0, -10.0, -1.0, 0.0, 1e-3, 1.0, 8.0, 30.0, 300.0, 700.0, 1e10], dtype=f64), name="i0_edges")
cs.add("i0", torch.tensor([-20.0, -1.0, 0.0, 1.0, 8.0, 30.0, 80.0, 100.0], dtype=f32), name="i0_edges_f32")
cs.add("special_i1", torch.tensor([-1e10, -800.0, -50.0, -1.0, -0.0, 0.0, 1e-3, 1.0, 8.0, 30.0, 700.0, 800.0, 1e10], dtype=f64), name="i1_edges")
cs.add("special_i1", torch.tensor([-100.0, -8.0, 0.0, 1.0, 8.0, 30.0, 80.0], dtype=f32), name="i1_edges_f32")
cs.add("special_i1", g(torch.tensor([-1.5, 0.0, 0.5, 2.0], dtype=f64)), name="i1_grad_at_zero", opcheck=False)
cs.add("i0", g(torch.tensor([-1.5, 0.0, 0.5, 2.0], dtype=f64)), name="i0_grad_at_zero", opcheck=False)
cs.add("sinc", g(torch.tensor([-2.5, -1.0, -0.5, 0.0, 0.5, 1.0, 2.5], dtype=f64)), name="sinc_zero", opcheck=False)
cs.add("atanh", torch.tensor([-1.0, -0.5, 0.0, 0.5, 1.0], dtype=f64), name="atanh_edges")
cs.add("acosh", torch.tensor([0.5, 1.0, 2.0, 1e300], dtype=f64), name="acosh_edges")
cs.add("cosh", torch.tensor([-800.0, -1.0, 0.0, 700.0, 800.0], dtype=f64), name="cosh_overflow")
# polygamma(n, x): digamma, trigamma, then n! zeta(n + 1, x) with the sign (-1)^(n+1)
xp = cs.rand(3, 4, lo=0.3, hi=4.0)
pg = torch.tensor([-2.5, -1.0, -0.0, 0.0, 0.3, 1.0, 2.5, 10.0, 1e3, inf, nan], dtype=f64)
for n in (0, 1, 2, 3, 5):
    cs.add("polygamma", n, g(xp.clone()), opcheck=n == 2)
    cs.add("polygamma", n, pg, name="polygamma_%d_special" % n)
cs.add("polygamma", 1, g(xp.to(f32).t()))
cs.add("polygamma", 2, xp.to(bf16))
cs.add("polygamma", 1, xp.to(f16))
cs.add("polygamma", 3, g(xp[0, 0]))
cs.add("polygamma", 2, torch.empty(0, dtype=f64))
cs.add("polygamma", 1, cs.randint(1, 5, 2, 3))      # int64 -> float32
cs.add("polygamma", 2, torch.tensor([True, False]))
cs.add("polygamma", 4, torch.tensor([-3.5, -1.5, 0.5, 1.5, 3.5], dtype=f32), name="polygamma_4_f32")
cs.add("polygamma_", xp.clone(), 2, opcheck=False)
cs.add("polygamma.out", 1, xp, out=torch.empty(0, dtype=f32), opcheck=False)
cs.error("polygamma", -1, xp, code="CT_ERR_INVALID")
cs.error("polygamma_", cs.randint(1, 4, 3), 1, code="CT_ERR_DTYPE")
cs.error("polygamma.out", 1, xp, out=torch.empty(3, 4, dtype=i64), code="CT_ERR_DTYPE")
# logit: eps clamps to [eps, 1 - eps] (gradient 0 outside); eps < 0 is None
xl = torch.tensor([-0.5, 0.0, 0.02, 0.3, 0.5, 0.7, 0.98, 1.0, 1.5, nan], dtype=f64)
cs.add("logit", xl, name="logit_none")
cs.add("logit", xl, 0.1, name="logit_eps")
cs.add("logit", xl.to(f32), 0.25, name="logit_eps_f32")
cs.add("logit", xl, -1.0, name="logit_eps_negative")
xg = torch.tensor([-0.5, 0.02, 0.3, 0.5, 0.7, 0.98, 1.5], dtype=f64)
cs.add("logit", g(xg), 0.1, name="logit_eps_grad", opcheck=True)
cs.add("logit", g(xg), name="logit_none_grad", opcheck=False)
cs.add("logit", g(cs.rand(2, 3, lo=0.2, hi=0.8).t()), 0.3)
cs.add("logit_", cs.rand(3, 4, lo=-0.2, hi=1.2), 0.05, opcheck=False)
cs.add("logit.out", xl, 0.1, out=torch.empty(0, dtype=f32), opcheck=False)
# frac: floating tensors only
xf = cs.randn(3, 4) * 5
cs.add("frac", g(xf))
cs.add("frac", g(xf.to(f32)).t())
cs.add("frac", g(xf[0, 0]))
cs.add("frac", torch.empty(0, dtype=f64))
cs.add("frac", xf.to(bf16))
cs.add("frac", xf.to(f16))
cs.add("frac", special, name="frac_special")
cs.add("frac_", xf.clone(), opcheck=False)
cs.add("frac.out", xf, out=torch.empty(0, dtype=f64), opcheck=False)
for dt in (i64, i32, u8, b8):
    cs.error("frac", cs.randint(0, 3, 4).to(dt), code="CT_ERR_DTYPE")
cs.error("frac_", cs.randint(0, 3, 4), code="CT_ERR_DTYPE")
cs.error("frac.out", xf.to(f32), out=torch.empty(3, 4, dtype=f64), code="CT_ERR_DTYPE")    # out= must match
# deg2rad / rad2deg keep float16 (PyTorch multiplies)
cs.add("deg2rad", torch.tensor([-180.0, -90.0, 0.0, 45.0, 360.0], dtype=f16), name="deg2rad_f16")
cs.add("rad2deg", torch.tensor([-3.0, 0.0, 0.5, 3.1416], dtype=f32), name="rad2deg_f32")

# ---- predicates: bool for every dtype ----
PREDICATES = ["isnan", "isinf", "isfinite", "isposinf", "isneginf"]
for op in PREDICATES:
    cs.add(op, special, name=op + "_special")
    cs.add(op, special.to(f32).reshape(2, 5).t(), name=op + "_special_f32_t")
    cs.add(op, special.to(f16), name=op + "_special_f16")
    cs.add(op, special.to(bf16)[::2], name=op + "_special_bf16")
    cs.add(op, special[3])                                  # 0-dim
    cs.add(op, torch.empty(0, 2, dtype=f32))
    cs.add(op, special[:1].expand(3, 2))
    cs.add(op, cs.randint(-5, 5, 2, 3))
    cs.add(op, cs.randint(0, 5, 4, dtype=u8))
    cs.add(op, torch.tensor([True, False]))
    if op != "isfinite":
        cs.add(op + ".out", special, out=torch.empty(0, dtype=b8), opcheck=False)
        cs.add(op + ".out", cs.randint(-5, 5, 4, dtype=i32), out=torch.empty(4, dtype=b8), opcheck=False)
cs.add("isnan.out", special, out=torch.empty(0, dtype=f32), opcheck=False)     # out= casts (aten's ne.out)
cs.add("isinf.out", special, out=torch.empty(0, dtype=i64), opcheck=False)
cs.error("isposinf.out", special, out=torch.empty(10, dtype=f64), code="CT_ERR_DTYPE")   # must be bool
cs.error("isneginf.out", special, out=torch.empty(10, dtype=u8), code="CT_ERR_DTYPE")


# ---- frexp ----
cs.add("frexp.Tensor", cs.randn(3, 4).t().requires_grad_())
cs.add("frexp.Tensor", torch.tensor([0., -0., 1., 8., -3., float("inf"), float("-inf"), float("nan"), 1e-310, 0.75], dtype=torch.float64))
cs.add("frexp.Tensor", cs.randn(5, dtype=torch.float32) * 1000)
cs.add("frexp.Tensor", torch.tensor([0.5, 3, 6e-8, 65504], dtype=torch.float16))
cs.add("frexp.Tensor", torch.tensor([0.5, 3, 1e-38], dtype=torch.bfloat16))
cs.add("frexp.Tensor", cs.randn(0, 2))
cs.error("frexp.Tensor", torch.tensor([1, 2]), code="CT_ERR_DTYPE")

cs.write()
