#!/usr/bin/python3
"""Generate tests/fixtures/fixtures.h: reference results computed by PyTorch.

Run with the interpreter that has torch (Debian's python3-torch):

    /usr/bin/python3 tests/gen_fixtures.py

The output is deterministic (hand-picked inputs and torch.manual_seed) and is
checked by tests/test_fixtures.c. Each case records an op name, its inputs
(dtype, shape, logical row-major values as doubles and a layout tag saying
which non-contiguous view to build), its scalar argument, and either the
expected dtype/shape/values or an expected-error flag (PyTorch raised).

Layout tags (the C test rebuilds the same views from a bigger contiguous base):
  FX_CONTIG      the values as a contiguous tensor
  FX_TRANSPOSED  base has the last two dims swapped; view = transpose(-2, -1)
  FX_STEP2       base has the last dim doubled (odd slots hold FX_SENTINEL);
                 view = slice(last dim, 0, end, step 2)
  FX_EXPANDED    base has shape `bsizes` (size-1 dims where the view repeats);
                 view = expand(sizes)
"""
import math
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "fixtures", "fixtures.h")

SENTINEL = 77  # fills the skipped slots of FX_STEP2 bases (exact in every dtype but bool)

F32, F64, F16, BF16 = torch.float32, torch.float64, torch.float16, torch.bfloat16
I64, I32, U8, BOOL = torch.int64, torch.int32, torch.uint8, torch.bool
ALL = [F32, F64, F16, BF16, I64, I32, U8, BOOL]
CNAME = {F32: "CT_F32", F64: "CT_F64", F16: "CT_F16", BF16: "CT_BF16",
         I64: "CT_I64", I32: "CT_I32", U8: "CT_U8", BOOL: "CT_BOOL"}
SHORT = {F32: "f32", F64: "f64", F16: "f16", BF16: "bf16", I64: "i64", I32: "i32", U8: "u8", BOOL: "bool"}
FLOATS = (F32, F64, F16, BF16)

# ---------------------------------------------------------------- formatting
def fmt(x):
    x = float(x)
    if math.isnan(x):
        return "NAN"
    if math.isinf(x):
        return "INFINITY" if x > 0 else "-INFINITY"
    if x == 0:
        return "-0.0" if math.copysign(1.0, x) < 0 else "0"
    if x == int(x) and abs(x) < 2 ** 53:
        return str(int(x))
    r = repr(x)  # shortest round-trip form, a valid C double literal
    assert float(r) == x
    return r


def cstr(s):
    s = s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")
    return '"' + s + '"'


def comment(s):
    return s.replace("*/", "* /").replace("\n", " ")[:160]


class Pool:
    """Deduplicated static value arrays."""

    def __init__(self):
        self.names = {}
        self.order = []

    def get(self, vals):
        key = tuple(fmt(v) for v in vals)
        if not key:
            return "NULL"
        if key not in self.names:
            name = "fx_v%d" % len(self.names)
            self.names[key] = name
            self.order.append((name, key))
        return self.names[key]

    def emit(self, w):
        for name, key in self.order:
            lines, line = [], ""
            for s in key:
                if len(line) + len(s) > 100:
                    lines.append(line)
                    line = ""
                line += s + ", "
            lines.append(line)
            w("static const double %s[%d] = {%s};\n" % (name, len(key), "\n    ".join(l.rstrip() for l in lines)))


POOL = Pool()


class TensorPool:
    """Deduplicated static fx_tensor descriptors; cases point at them."""

    def __init__(self):
        self.names = {}
        self.order = []

    def get(self, dtype, sizes, layout, bsizes, vals):
        n = len(sizes)
        assert n <= 4
        key = (CNAME[dtype], n, tuple(sizes), layout, tuple(bsizes or ()), len(vals), POOL.get(vals))
        if key not in self.names:
            name = "fx_t%d" % len(self.names)
            self.names[key] = name
            self.order.append((name, key))
        return "&" + self.names[key]

    def emit(self, w):
        for name, (dt, n, sizes, layout, bsizes, numel, v) in self.order:
            w("static const fx_tensor %s = {%s, %d, {%s}, %s, {%s}, %d, %s};\n" % (
                name, dt, n, ", ".join(map(str, sizes)) or "0", layout, ", ".join(map(str, bsizes)) or "0", numel, v))


TPOOL = TensorPool()


def values_of(t):
    return [float(v) for v in t.detach().reshape(-1).to(torch.float64).tolist()] if t.numel() else []


# ---------------------------------------------------------------- inputs
class Inp:
    """An input tensor spec plus the actual torch tensor (with the same view)."""

    def __init__(self, dtype, logical, layout="FX_CONTIG", bsizes=None):
        self.dtype = dtype
        self.layout = layout
        self.logical = logical.to(dtype).contiguous()
        self.sizes = list(self.logical.shape)
        self.bsizes = bsizes
        self.vals = values_of(self.logical)

    def make(self):
        """A fresh torch tensor with this layout (fresh: in-place cases write to it)."""
        L = self.logical
        if self.layout == "FX_CONTIG":
            t = L.clone()
        elif self.layout == "FX_TRANSPOSED":
            base = L.transpose(-2, -1).contiguous()
            t = base.transpose(-2, -1)
            assert not t.is_contiguous()
        elif self.layout == "FX_STEP2":
            k = L.shape[-1]
            base = torch.full(list(L.shape[:-1]) + [2 * k], SENTINEL if self.dtype != BOOL else 1, dtype=self.dtype)
            base[..., 0::2] = L
            t = base[..., 0::2]
            assert not t.is_contiguous()
        elif self.layout == "FX_EXPANDED":
            idx = tuple(slice(0, 1) if b == 1 and s != 1 else slice(None) for b, s in zip(self.bsizes, self.sizes))
            base = L[idx].contiguous()
            assert list(base.shape) == list(self.bsizes)
            t = base.expand(self.sizes)
            assert torch.equal(t, L)
        else:
            raise ValueError(self.layout)
        assert t.dtype == self.dtype and list(t.shape) == self.sizes
        return t

    def c(self):
        return TPOOL.get(self.dtype, self.sizes, self.layout, self.bsizes, self.vals)


def T(dtype, vals, shape=None, layout="FX_CONTIG"):
    t = torch.tensor(vals, dtype=torch.float64)
    if shape is not None:
        t = t.reshape(shape)
    return Inp(dtype, t, layout)


def EXP(dtype, base_vals, bshape, shape):
    base = torch.tensor(base_vals, dtype=torch.float64).reshape(bshape)
    return Inp(dtype, base.expand(shape).contiguous(), "FX_EXPANDED", list(bshape))


def OUTSPEC(dtype, shape, layout="FX_CONTIG"):
    return Inp(dtype, torch.zeros(shape, dtype=torch.float64), layout)


def pyscalar(kind, v):
    return {"f": float, "i": int, "b": bool}[kind](v)


# ---------------------------------------------------------------- running ops
BIN = {"add": torch.add, "sub": torch.sub, "mul": torch.mul, "div": torch.div}
UN = {"neg": torch.neg, "relu": torch.relu, "exp": torch.exp}


def run(op, ins, sk=None, sv=None, dims=None, keepdim=False):
    """Returns the tensor PyTorch produces for this case (for in-place/out: self/out)."""
    ts = [i.make() for i in ins]
    s = pyscalar(sk, sv) if sk else None
    name = op
    if name in ("sum",):
        return torch.sum(ts[0])
    if name == "sum_dim":
        return torch.sum(ts[0], dim=list(dims), keepdim=keepdim)
    if name == "mm":
        return torch.mm(ts[0], ts[1])
    if name == "mm_out":
        torch.mm(ts[0], ts[1], out=ts[2])
        return ts[2]
    base = name.split("_")[0]
    suffix = name[len(base):]
    if base in UN:
        f = UN[base]
        if suffix == "":
            return f(ts[0])
        if suffix == "_":
            getattr(ts[0], base + "_")()
            return ts[0]
        if suffix == "_out":
            f(ts[0], out=ts[1])
            return ts[1]
    if base in BIN:
        f = BIN[base]
        kw = {"alpha": s} if suffix in ("_ex", "_ex_") else {}
        if suffix in ("", "_ex"):
            return f(ts[0], ts[1], **kw)
        if suffix in ("_", "_ex_"):
            getattr(ts[0], base + "_")(ts[1], **kw)
            return ts[0]
        if suffix == "_out":
            f(ts[0], ts[1], out=ts[2])
            return ts[2]
        if suffix == "_scalar":
            return f(ts[0], s)
        if suffix == "_scalar_":
            getattr(ts[0], base + "_")(s)
            return ts[0]
    raise ValueError(op)


class Case:
    def __init__(self, op, ins, sk=None, sv=None, dims=None, keepdim=False, needle=None, note=""):
        self.op, self.ins, self.sk, self.sv = op, ins, sk, sv
        self.dims, self.keepdim, self.needle, self.note = dims, keepdim, needle, note
        self.err = None
        try:
            r = run(op, ins, sk, sv, dims, keepdim)
            self.res = r
        except (RuntimeError, TypeError, ValueError, IndexError) as e:
            self.err = str(e).split("\n")[0]
            self.res = None
        if self.err is not None and "not implemented for 'Half'" in self.err:
            # PyTorch 1.13 lacks some Half CPU kernels (exp, clamp_min); newer
            # releases compute them in float32 and round, which we reproduce.
            up = [Inp(F32 if i.dtype == F16 else i.dtype, i.logical.double(), i.layout, i.bsizes) for i in ins]
            self.res = run(op, up, sk, sv, dims, keepdim).to(F16)
            self.err = None
            self.note = (note + "; " if note else "") + "1.13 has no Half CPU kernel: computed in f32, rounded"
        if needle is not None:
            assert self.err is not None and needle in self.err, (op, self.err)

    def describe(self):
        d = self.op + "(" + ", ".join(
            "%s%s%s" % (SHORT[i.dtype], str(i.sizes).replace(" ", ""),
                        "" if i.layout == "FX_CONTIG" else " " + i.layout[3:].lower())
            for i in self.ins)
        if self.sk:
            d += ", %s:%s" % (self.sk, fmt(self.sv))
        if self.dims is not None:
            d += ", dims=%s%s" % (str(list(self.dims)).replace(" ", ""), ",keepdim" if self.keepdim else "")
        d += ")"
        if self.err:
            d += " -> error: " + self.err[:80]
        else:
            d += " -> %s%s" % (SHORT[self.res.dtype], str(list(self.res.shape)).replace(" ", ""))
        if self.note:
            d += " [" + self.note + "]"
        return d

    def c(self):
        p = [".op = " + cstr(self.op), ".in = {%s}" % ", ".join(i.c() for i in self.ins)]
        if self.sk:
            p.append(".sk = '%s', .sv = %s" % (self.sk, fmt(self.sv)))
        if self.dims is not None:
            p.append(".ndims = %d" % len(self.dims))
            if self.dims:
                p.append(".dims = {%s}" % ", ".join(str(d) for d in self.dims))
            if self.keepdim:
                p.append(".keepdim = 1")
        if self.err is not None:
            p.append(".err = 1")
            if self.needle:
                p.append(".needle = %s" % cstr(self.needle))
        else:
            r = self.res
            vals = values_of(r)
            p.append(".want = %s" % TPOOL.get(r.dtype, list(r.shape), "FX_CONTIG", None, vals))
        p.append(".desc = %s" % cstr(self.describe()))
        return "  {%s}" % ", ".join(p)


# ---------------------------------------------------------------- value sets
A23 = {  # first operands, shape [2, 3]
    "f": [-1.5, 0.25, 2.0, 3.75, -0.5, 1.0],
    "i": [-3, 0, 2, 7, -1, 5],
    "u": [0, 1, 2, 5, 9, 200],
    "b": [1, 0, 1, 1, 0, 0],
}
B23 = {  # second operands: no zeros except bool (div uses B23_DIV)
    "f": [2.0, -0.5, 4.0, 0.25, 8.0, -1.25],
    "i": [2, -3, 4, 1, 8, -5],
    "u": [2, 3, 4, 1, 8, 5],
    "b": [1, 1, 0, 1, 0, 1],
}
B23_DIV = dict(B23, b=[1, 1, 1, 1, 1, 1])
ZERO_DIM = {"f": -2.5, "i": 3, "u": 3, "b": 1}
U1 = {  # unary inputs
    "f": [-2.0, -0.5, 0.0, 0.5, 1.25, 3.0],
    "i": [-3, -1, 0, 1, 2, 5],
    "u": [0, 1, 2, 5, 9, 200],
    "b": [1, 0, 1, 0, 0, 1],
}


def cat(dt):
    if dt in FLOATS:
        return "f"
    if dt == U8:
        return "u"
    if dt == BOOL:
        return "b"
    return "i"


def a23(dt, layout="FX_CONTIG"):
    return T(dt, A23[cat(dt)], [2, 3], layout)


def b23(dt, op="add", layout="FX_CONTIG"):
    return T(dt, (B23_DIV if op == "div" else B23)[cat(dt)], [2, 3], layout)


def zd(dt, v=None):
    return T(dt, ZERO_DIM[cat(dt)] if v is None else v, [])


def ar(dt, shape, scale=0.5, offset=None):
    """Deterministic exact values: arange * scale - offset."""
    n = 1
    for s in shape:
        n *= s
    off = (n // 2) * scale if offset is None else offset
    vals = [i * scale - off for i in range(n)]
    return T(dt, vals, shape)


# ---------------------------------------------------------------- groups
def g_promotion():
    cs = []
    ops = ["add", "sub", "mul", "div"]
    # tensor op tensor, same shape [2, 3], every dtype pair
    for op in ops:
        for da in ALL:
            for db in ALL:
                cs.append(Case(op, [a23(da), b23(db, op)]))
    # tensor [2, 3] op 0-dim tensor: the 0-dim operand only wins across categories
    for op in ops:
        for da in ALL:
            for db in ALL:
                cs.append(Case(op, [a23(da), zd(db)], note="0-dim other"))
    # 0-dim op tensor (other order) and 0-dim op 0-dim
    for da in ALL:
        for db in ALL:
            cs.append(Case("add", [zd(da), b23(db)], note="0-dim self"))
    for op in ("add", "div"):
        for da in ALL:
            for db in ALL:
                cs.append(Case(op, [zd(da), zd(db, 2 if cat(db) != "b" else 1)], note="0-dim both"))
    # tensor op python scalar (wrapped numbers never raise the category's width)
    for op in ops:
        for da in ALL:
            for sk, sv in (("i", 3), ("f", 2.5), ("b", True)):
                cs.append(Case(op + "_scalar", [a23(da)], sk, sv))
            if op != "div":
                for sk, sv in (("i", -2), ("f", -0.75)):
                    cs.append(Case(op + "_scalar", [a23(da)], sk, sv))
    for da in ALL:
        for sk, sv in (("i", 3), ("f", 2.5), ("b", True)):
            cs.append(Case("add_scalar", [zd(da)], sk, sv, note="0-dim self"))
    # integer wrap-around as PyTorch does it
    cs.append(Case("add", [T(U8, [200, 250, 5]), T(U8, [100, 10, 3])], note="uint8 wraps"))
    cs.append(Case("sub", [T(U8, [3, 0, 5]), T(U8, [5, 1, 3])], note="uint8 wraps"))
    cs.append(Case("mul", [T(U8, [16, 200, 3]), T(U8, [16, 2, 3])], note="uint8 wraps"))
    cs.append(Case("add", [T(U8, [1, 2, 0]), T(I64, -2, [])], note="uint8 + int64 0-dim -2 wraps"))
    cs.append(Case("add_scalar", [T(U8, [1, 2, 0])], "i", -2, note="uint8 + python -2 wraps"))
    # division by zero: true division always, IEEE results
    cs.append(Case("div", [T(I32, [1, -1, 0, 6]), T(I32, [0, 0, 0, 4])], note="int/int true division by zero"))
    cs.append(Case("div", [T(F32, [1, -1, 0, 6]), T(F32, [0, 0, 0, 4])], note="float division by zero"))
    cs.append(Case("div", [T(BOOL, [1, 0, 1]), T(BOOL, [1, 1, 0])], note="bool/bool -> float32"))
    cs.append(Case("div_scalar", [T(I64, [1, -1, 0])], "i", 0, note="int / python 0"))
    return cs


def g_broadcast():
    cs = []
    shapes = [
        ([3, 1], [1, 4]),
        ([2, 3, 4], [4]),
        ([5, 1, 3], [2, 1]),
        ([], [2, 3]),
        ([2, 3], []),
        ([0, 3], [1, 3]),
        ([1, 3], [0, 3]),
        ([2, 0, 3], [3]),
        ([4], [3, 1]),
        ([1], [2, 2]),
        ([2, 1, 1], [1, 3, 1]),
        ([1, 2, 1, 3], [4, 1, 2, 1]),
    ]
    for op in ("add", "sub", "mul", "div"):
        for sa, sb in shapes:
            a = ar(F32, sa, 0.5)
            b = ar(F32, sb, 0.25, offset=-0.125)  # never zero: (i + 0.5) / 4
            cs.append(Case(op, [a, b]))
    # mixed dtypes with broadcasting
    cs.append(Case("add", [ar(I32, [3, 1], 1), ar(F64, [1, 4], 0.5)]))
    cs.append(Case("mul", [ar(U8, [2, 1, 3], 1, 0), ar(I64, [4, 1], 1)]))
    cs.append(Case("div", [ar(I64, [2, 3], 1), T(I32, [1, 2, 4])]))
    cs.append(Case("sub", [ar(F16, [3, 1], 0.5), ar(BF16, [2, 1, 4], 0.25)]))
    cs.append(Case("add", [T(BOOL, [1, 0], [2, 1]), T(BOOL, [0, 1, 1], [3])]))
    cs.append(Case("mul", [ar(F32, [2, 3], 0.5), T(I64, 4, [])]))
    cs.append(Case("add", [T(I32, 7, []), ar(U8, [0, 2], 1)], note="0-dim + zero-size"))
    # shapes that do not broadcast
    for sa, sb in (([2, 3], [4]), ([2, 3], [3, 2]), ([3], [2, 1, 4]), ([0, 3], [2, 3])):
        cs.append(Case("add", [ar(F32, sa), ar(F32, sb)]))
    cs.append(Case("mul", [ar(I32, [2, 3]), ar(F64, [2])]))
    return cs


def g_noncontig():
    cs = []
    t_f32 = lambda lay: T(F32, [-1.5, 0.25, 2.0, 3.75, -0.5, 1.0, 4.5, -2.25, 0.125, 6.0, -3.0, 1.75], [3, 4], lay)
    c_f32 = T(F32, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], [3, 4])
    for op in ("add", "sub", "mul", "div"):
        cs.append(Case(op, [t_f32("FX_TRANSPOSED"), c_f32]))
        cs.append(Case(op, [c_f32, t_f32("FX_STEP2")]))
    cs.append(Case("add", [t_f32("FX_TRANSPOSED"), t_f32("FX_STEP2")]))
    cs.append(Case("mul", [t_f32("FX_TRANSPOSED"), t_f32("FX_TRANSPOSED")]))
    cs.append(Case("add", [EXP(F32, [1, 2, 3, 4], [1, 4], [3, 4]), t_f32("FX_TRANSPOSED")]))
    cs.append(Case("sub", [EXP(F32, [1, 2, 3], [3, 1], [3, 4]), EXP(F32, [0.5, 1.5, 2.5, 3.5], [1, 4], [3, 4])]))
    cs.append(Case("mul", [EXP(I32, [2, -3, 4], [3, 1], [3, 4]), t_f32("FX_STEP2")]))
    cs.append(Case("add", [T(I32, list(range(12)), [3, 4], "FX_TRANSPOSED"), T(F16, [0.5] * 12, [3, 4], "FX_STEP2")]))
    cs.append(Case("div", [T(I64, list(range(1, 13)), [3, 4], "FX_STEP2"), T(U8, [2] * 12, [3, 4], "FX_TRANSPOSED")]))
    cs.append(Case("add", [T(F64, [1, 2, 3, 4, 5], [5], "FX_STEP2"), T(F64, [10, 20, 30, 40, 50], [5])]))
    cs.append(Case("add", [T(BOOL, [1, 0, 0, 1, 1, 0], [2, 3], "FX_TRANSPOSED"), T(BOOL, [0, 0, 1, 1, 0, 1], [2, 3], "FX_STEP2")]))
    # 3-d views broadcast against smaller operands
    t3 = T(F32, [i * 0.5 - 3 for i in range(24)], [2, 3, 4], "FX_TRANSPOSED")
    cs.append(Case("add", [t3, T(F32, [1, 2, 3, 4], [4])]))
    cs.append(Case("mul", [T(F32, [i * 0.25 for i in range(24)], [2, 3, 4], "FX_STEP2"), T(F32, [1, -1, 2], [3, 1])]))
    # unary and reductions on views
    cs.append(Case("neg", [t_f32("FX_TRANSPOSED")]))
    cs.append(Case("exp", [t_f32("FX_STEP2")]))
    cs.append(Case("relu", [EXP(F32, [-1, 2, -3, 4], [1, 4], [3, 4])]))
    cs.append(Case("exp", [T(I32, [0, 1, 2, -1, -2, 3], [2, 3], "FX_TRANSPOSED")]))
    cs.append(Case("sum", [t_f32("FX_TRANSPOSED")]))
    cs.append(Case("sum_dim", [t_f32("FX_TRANSPOSED")], dims=[0]))
    cs.append(Case("sum_dim", [t_f32("FX_STEP2")], dims=[1], keepdim=True))
    cs.append(Case("sum_dim", [EXP(I32, [1, 2, 3], [3, 1], [3, 4])], dims=[-1]))
    cs.append(Case("sum_dim", [t3], dims=[0, 2]))
    return cs


def g_inplace_out():
    cs = []
    # alpha
    cs.append(Case("add_ex", [a23(F32), b23(F32)], "f", 2.5))
    cs.append(Case("add_ex", [a23(F64), b23(F64)], "f", -0.5))
    cs.append(Case("add_ex", [a23(I64), b23(I64)], "i", 3))
    cs.append(Case("add_ex", [a23(I32), b23(F32)], "f", 2.5))
    cs.append(Case("add_ex", [a23(U8), b23(U8)], "i", 2))
    cs.append(Case("add_ex", [a23(F16), b23(BF16)], "i", -2))
    cs.append(Case("add_ex", [a23(BOOL), b23(BOOL)], "b", True))
    cs.append(Case("add_ex", [a23(BOOL), b23(BOOL)], "b", False))
    cs.append(Case("add_ex", [a23(F32), b23(F32)], "b", True, note="bool alpha, float result"))
    cs.append(Case("add_ex", [a23(I64), b23(I64)], "f", 2.5, note="float alpha on ints"))
    cs.append(Case("add_ex", [a23(I32), b23(U8)], "b", True, note="bool alpha on ints"))
    cs.append(Case("add_ex", [ar(F32, [3, 1]), ar(F32, [1, 4])], "f", 0.5))
    cs.append(Case("sub_ex", [a23(F32), b23(F32)], "f", 2.5))
    cs.append(Case("sub_ex", [a23(I32), b23(I64)], "i", -2))
    cs.append(Case("sub_ex", [a23(F64), b23(I32)], "i", 4))
    cs.append(Case("sub_ex", [a23(I32), b23(I32)], "f", 0.5))
    cs.append(Case("sub_ex", [a23(BOOL), b23(BOOL)], "b", True))
    # in-place: the result keeps self's dtype and shape; other must cast to it
    cs.append(Case("add_", [a23(F32), b23(I64)]))
    cs.append(Case("add_", [a23(F32), b23(F64)]))
    cs.append(Case("add_", [a23(F16), b23(F32)]))
    cs.append(Case("add_", [a23(I32), b23(F32)], needle="can't be cast"))
    cs.append(Case("add_", [a23(I64), zd(F64)], needle="can't be cast"))
    cs.append(Case("add_", [a23(U8), zd(I64)]))
    cs.append(Case("add_", [a23(I32), b23(BOOL)]))
    cs.append(Case("add_", [a23(BOOL), b23(BOOL)]))
    cs.append(Case("add_", [a23(BOOL), b23(I32)], needle="can't be cast"))
    cs.append(Case("add_", [ar(F32, [3, 4]), ar(F32, [4])]))
    cs.append(Case("add_", [ar(F32, [3, 1]), ar(F32, [1, 4])], note="self would have to grow"))
    cs.append(Case("add_", [T(F32, list(range(12)), [3, 4], "FX_TRANSPOSED"), ar(F32, [3, 4])], note="self is a view"))
    cs.append(Case("add_", [T(F64, list(range(12)), [3, 4], "FX_STEP2"), T(I32, [1, 2, 3, 4], [4])], note="self is a view"))
    cs.append(Case("add_", [EXP(F32, [1, 2, 3, 4], [1, 4], [3, 4]), ar(F32, [3, 4])], note="self is expanded"))
    cs.append(Case("mul_scalar_", [EXP(I64, [1, 2, 3], [3, 1], [3, 4])], "i", 2, note="self is expanded"))
    cs.append(Case("add_ex_", [a23(F32), b23(F32)], "f", -2.0))
    cs.append(Case("add_ex_", [a23(I64), b23(I32)], "i", 3))
    cs.append(Case("add_ex_", [a23(I64), b23(I32)], "f", 3.5))
    cs.append(Case("sub_", [a23(F32), b23(I32)]))
    cs.append(Case("sub_", [a23(I32), b23(F64)], needle="can't be cast"))
    cs.append(Case("sub_", [a23(BOOL), b23(BOOL)]))
    cs.append(Case("sub_ex_", [a23(F64), b23(F64)], "f", 0.25))
    cs.append(Case("mul_", [a23(I32), b23(I64)]))
    cs.append(Case("mul_", [a23(BF16), b23(F32)]))
    cs.append(Case("mul_", [a23(I32), b23(F16)], needle="can't be cast"))
    cs.append(Case("div_", [a23(F32), b23(I32, "div")]))
    cs.append(Case("div_", [a23(I32), b23(I32, "div")], needle="can't be cast"))
    cs.append(Case("div_", [a23(F16), b23(U8, "div")]))
    # in-place with python scalars
    cs.append(Case("add_scalar_", [a23(F32)], "i", 3))
    cs.append(Case("add_scalar_", [a23(I32)], "i", 3))
    cs.append(Case("add_scalar_", [a23(I32)], "f", 2.5, needle="can't be cast"))
    cs.append(Case("add_scalar_", [a23(U8)], "b", True))
    cs.append(Case("add_scalar_", [a23(BOOL)], "i", 1, needle="can't be cast"))
    cs.append(Case("sub_scalar_", [a23(F64)], "f", 0.5))
    cs.append(Case("sub_scalar_", [a23(I64)], "f", 0.5, needle="can't be cast"))
    cs.append(Case("mul_scalar_", [a23(F16)], "i", 3))
    cs.append(Case("mul_scalar_", [a23(I64)], "i", -2))
    cs.append(Case("div_scalar_", [a23(F32)], "i", 4))
    cs.append(Case("div_scalar_", [a23(I64)], "i", 2, needle="can't be cast"))
    # out variants: compute in the inputs' common dtype, then cast to out
    cs.append(Case("add_out", [a23(F32), b23(F32), OUTSPEC(F32, [2, 3])]))
    cs.append(Case("add_out", [a23(I32), b23(I32), OUTSPEC(F64, [2, 3])]))
    cs.append(Case("add_out", [a23(F32), b23(F32), OUTSPEC(F64, [2, 3])]))
    cs.append(Case("add_out", [a23(F32), b23(F32), OUTSPEC(I32, [2, 3])], needle="can't be cast"))
    cs.append(Case("add_out", [ar(F32, [3, 1]), ar(F32, [1, 4]), OUTSPEC(F32, [3, 4], "FX_TRANSPOSED")]))
    cs.append(Case("add_out", [a23(U8), zd(I64), OUTSPEC(I64, [2, 3])]))
    cs.append(Case("sub_out", [a23(F64), b23(I64), OUTSPEC(F64, [2, 3])]))
    cs.append(Case("sub_out", [a23(I64), b23(I64), OUTSPEC(F16, [2, 3])]))
    cs.append(Case("sub_out", [a23(BOOL), b23(BOOL), OUTSPEC(I64, [2, 3])]))
    cs.append(Case("mul_out", [a23(I32), b23(U8), OUTSPEC(I32, [2, 3])]))
    cs.append(Case("mul_out", [a23(F32), b23(F32), OUTSPEC(BF16, [2, 3])]))
    cs.append(Case("mul_out", [a23(BOOL), b23(BOOL), OUTSPEC(BOOL, [2, 3])]))
    cs.append(Case("div_out", [a23(I32), b23(I32, "div"), OUTSPEC(F32, [2, 3])]))
    cs.append(Case("div_out", [a23(I32), b23(I32, "div"), OUTSPEC(F64, [2, 3])]))
    cs.append(Case("div_out", [a23(I32), b23(I32, "div"), OUTSPEC(I64, [2, 3])], needle="can't be cast"))
    return cs


def g_unary():
    cs = []
    for op in ("neg", "relu", "exp"):
        for dt in ALL:
            cs.append(Case(op, [T(dt, U1[cat(dt)], [2, 3])]))
    cs.append(Case("exp", [T(F32, [-100, 100, 0], [3])], note="underflow / overflow"))
    cs.append(Case("relu", [T(F64, [], [0])], note="zero-size"))
    cs.append(Case("neg", [T(I64, 5, [])], note="0-dim"))
    for op in ("neg_", "relu_", "exp_"):
        for dt in (F32, F64, F16, BF16, I64, I32, U8, BOOL):
            cs.append(Case(op, [T(dt, U1[cat(dt)], [2, 3])]))
    cs.append(Case("neg_", [T(F32, U1["f"] * 2, [3, 4], "FX_TRANSPOSED")], note="self is a view"))
    cs.append(Case("exp_", [T(F64, U1["f"] * 2, [3, 4], "FX_STEP2")], note="self is a view"))
    cs.append(Case("neg_out", [T(F32, U1["f"], [2, 3]), OUTSPEC(F32, [2, 3])]))
    cs.append(Case("neg_out", [T(I32, U1["i"], [2, 3]), OUTSPEC(F64, [2, 3])]))
    cs.append(Case("neg_out", [T(F32, U1["f"], [2, 3]), OUTSPEC(I64, [2, 3])], note="neg does not cast to out"))
    cs.append(Case("neg_out", [T(F32, U1["f"], [2, 3]), OUTSPEC(F32, [2, 3], "FX_TRANSPOSED")]))
    cs.append(Case("exp_out", [T(F32, U1["f"], [2, 3]), OUTSPEC(F32, [2, 3])]))
    cs.append(Case("exp_out", [T(I64, U1["i"], [2, 3]), OUTSPEC(F64, [2, 3])],
                   note="common dtype float32, then cast to out"))
    cs.append(Case("exp_out", [T(F32, U1["f"], [2, 3]), OUTSPEC(F64, [2, 3])],
                   note="computed in float32, then cast to out"))
    cs.append(Case("exp_out", [T(I32, U1["i"], [2, 3]), OUTSPEC(I32, [2, 3])], needle="can't be cast"))
    cs.append(Case("exp_out", [T(F16, U1["f"], [2, 3]), OUTSPEC(F16, [2, 3])]))
    return cs


def g_reductions():
    cs = []
    for dt in ALL:
        cs.append(Case("sum", [T(dt, A23[cat(dt)], [2, 3])]))
    vals24 = [i * 0.5 - 5.5 for i in range(24)]
    for dt in (F32, F64, I32, F16, BF16):
        x = T(dt, vals24 if dt in FLOATS else [i - 11 for i in range(24)], [2, 3, 4])
        for dims in ([0], [1], [2], [-1], [0, 1], [0, 2], [-1, -3], [1, 2], [0, 1, 2], [2, 0]):
            for kd in (False, True):
                if dt not in (F32, I32) and (len(dims) > 1 or kd):
                    continue
                cs.append(Case("sum_dim", [x], dims=dims, keepdim=kd))
    bx = T(BOOL, [1, 0, 1, 1, 0, 0, 1, 1, 1, 0, 0, 1], [3, 4])
    cs.append(Case("sum_dim", [bx], dims=[0]))
    cs.append(Case("sum_dim", [bx], dims=[1], keepdim=True))
    cs.append(Case("sum_dim", [T(U8, [200, 100, 50, 250], [2, 2])], dims=[0], note="uint8 sums in int64"))
    cs.append(Case("sum_dim", [T(I64, [1, 2, 3, 4, 5, 6], [2, 3])], dims=[-2, -1], keepdim=True))
    cs.append(Case("sum_dim", [T(F32, [1, 2, 3, 4, 5, 6], [2, 3])], dims=[], note="empty dim list: all dims"))
    # zero-size and 0-dim
    cs.append(Case("sum", [T(F32, [], [0, 3])]))
    cs.append(Case("sum", [T(I32, [], [0])]))
    cs.append(Case("sum_dim", [T(F32, [], [0, 3])], dims=[0]))
    cs.append(Case("sum_dim", [T(F32, [], [0, 3])], dims=[1]))
    cs.append(Case("sum_dim", [T(F64, [], [2, 0])], dims=[1], keepdim=True))
    cs.append(Case("sum", [T(F64, 2.5, [])]))
    cs.append(Case("sum_dim", [T(F32, 2.5, [])], dims=[0]))
    cs.append(Case("sum_dim", [T(I32, 4, [])], dims=[-1], keepdim=True))
    # errors
    cs.append(Case("sum_dim", [ar(F32, [2, 3])], dims=[2]))
    cs.append(Case("sum_dim", [ar(F32, [2, 3])], dims=[-3]))
    cs.append(Case("sum_dim", [ar(F32, [2, 3])], dims=[0, 0]))
    cs.append(Case("sum_dim", [ar(F32, [2, 3])], dims=[1, -1]))
    # long sums: exact inputs (multiples of 1/64 resp. 1/8) so only the
    # accumulator matters; PyTorch accumulates f16/bf16 in float32.
    g = torch.Generator().manual_seed(1234)
    v16 = (torch.randint(-128, 128, (512,), generator=g).double() / 64).tolist()
    cs.append(Case("sum", [T(F16, v16, [512])], note="accumulates in float32"))
    cs.append(Case("sum", [T(BF16, v16, [512])], note="accumulates in float32"))
    cs.append(Case("sum_dim", [T(F16, v16, [8, 64])], dims=[1]))
    cs.append(Case("sum_dim", [T(BF16, v16, [64, 8])], dims=[0]))
    v32 = (torch.randint(-800, 800, (1000,), generator=g).double() / 8).tolist()
    cs.append(Case("sum", [T(F32, v32, [1000])]))
    cs.append(Case("sum_dim", [T(F32, v32, [10, 100])], dims=[1]))
    vi = torch.randint(-1000000, 1000000, (300,), generator=g).tolist()
    cs.append(Case("sum", [T(I32, vi, [300])]))
    return cs


def g_mm():
    cs = []
    g = torch.Generator().manual_seed(42)
    r = lambda *s: torch.randn(*s, generator=g, dtype=torch.float64)
    h = lambda *s: (torch.randint(-8, 9, s, generator=g).double() / 4)  # exact in bf16

    def I(dt, t, layout="FX_CONTIG"):
        return Inp(dt, t, layout)

    cs.append(Case("mm", [I(F32, h(2, 3)), I(F32, h(3, 4))]))
    cs.append(Case("mm", [I(F32, r(4, 5)), I(F32, r(5, 3))]))
    cs.append(Case("mm", [I(F64, r(3, 2)), I(F64, r(2, 5))]))
    cs.append(Case("mm", [I(F64, r(6, 7)), I(F64, r(7, 6))]))
    cs.append(Case("mm", [I(F32, r(3, 4), "FX_TRANSPOSED"), I(F32, r(4, 2))], note="transposed a"))
    cs.append(Case("mm", [I(F32, r(3, 4)), I(F32, r(4, 2), "FX_TRANSPOSED")], note="transposed b"))
    cs.append(Case("mm", [I(F64, r(2, 3), "FX_TRANSPOSED"), I(F64, r(3, 3), "FX_TRANSPOSED")], note="both transposed"))
    cs.append(Case("mm", [I(F32, r(3, 4), "FX_STEP2"), I(F32, r(4, 2))], note="strided a"))
    cs.append(Case("mm", [I(F32, r(1, 4)), I(F32, r(4, 1))]))
    cs.append(Case("mm", [I(F32, r(2, 0)), I(F32, r(0, 3))], note="k = 0 gives zeros"))
    cs.append(Case("mm", [I(F32, r(0, 3)), I(F32, r(3, 2))]))
    cs.append(Case("mm", [I(BF16, h(2, 4)), I(BF16, h(4, 3))]))
    cs.append(Case("mm", [I(I64, h(2, 3) * 4), I(I64, h(3, 2) * 4)]))
    # errors
    cs.append(Case("mm", [I(F32, r(2, 3)), I(F64, r(3, 2))], note="dtype mismatch"))
    cs.append(Case("mm", [I(F32, r(2, 3)), I(F32, r(2, 3))], note="inner sizes differ"))
    cs.append(Case("mm", [I(F32, r(3)), I(F32, r(3, 2))], note="1-d operand"))
    # out
    cs.append(Case("mm_out", [I(F32, h(2, 3)), I(F32, h(3, 4)), OUTSPEC(F32, [2, 4])]))
    cs.append(Case("mm_out", [I(F64, r(3, 3)), I(F64, r(3, 2)), OUTSPEC(F64, [3, 2], "FX_TRANSPOSED")]))
    return cs


GROUPS = [
    ("promotion", g_promotion),
    ("broadcast", g_broadcast),
    ("noncontig", g_noncontig),
    ("inplace_out", g_inplace_out),
    ("unary", g_unary),
    ("reductions", g_reductions),
    ("mm", g_mm),
]


def main():
    torch.manual_seed(0)
    groups = [(name, fn()) for name, fn in GROUPS]
    body = []
    w = body.append
    total = 0
    for name, cases in groups:
        total += len(cases)
        nerr = sum(1 for c in cases if c.err is not None)
        w("\n/* ---- %s: %d cases, %d expected errors ---- */\n" % (name, len(cases), nerr))
        w("static const fx_case fx_%s[] = {\n" % name)
        w(",\n".join(c.c() for c in cases))
        w("\n};\n")
    head = []
    h = head.append
    h("/* generated by tests/gen_fixtures.py from PyTorch %s; do not edit */\n" % torch.__version__)
    h("/* Regenerate: /usr/bin/python3 tests/gen_fixtures.py  (%d cases) */\n" % total)
    h("#ifndef CT_TEST_FIXTURES_H\n#define CT_TEST_FIXTURES_H\n#include <math.h>\n#include <stdint.h>\n\n")
    h("enum { FX_CONTIG = 0, FX_TRANSPOSED, FX_STEP2, FX_EXPANDED };\n")
    h("#define FX_SENTINEL %d /* fills the odd slots of FX_STEP2 bases (1 for bool) */\n\n" % SENTINEL)
    h("typedef struct fx_tensor {\n"
      "  int dtype;         /* ct_dtype */\n"
      "  int ndim;\n"
      "  int64_t sizes[4];\n"
      "  int layout;        /* FX_* */\n"
      "  int64_t bsizes[4]; /* FX_EXPANDED: the base's sizes (same rank) */\n"
      "  int64_t n;         /* numel */\n"
      "  const double *v;   /* logical row-major values (NULL when n == 0) */\n"
      "} fx_tensor;\n\n")
    h("typedef struct fx_case {\n"
      "  const char *op;          /* add, add_ex, add_, add_ex_, add_out, add_scalar, add_scalar_ (same for sub;\n"
      "                              mul/div without _ex), neg, neg_, neg_out (relu, exp), sum, sum_dim, mm, mm_out */\n"
      "  const fx_tensor *in[3];  /* inputs; for *_out ops the last one is the out tensor (zeros) */\n"
      "  char sk;                 /* scalar argument or alpha: 'f' float, 'i' int, 'b' bool, 0 none */\n"
      "  double sv;\n"
      "  int ndims;               /* sum_dim */\n"
      "  int64_t dims[4];\n"
      "  int keepdim;\n"
      "  int err;                 /* PyTorch raises: ctorch must fail too */\n"
      "  const char *needle;      /* substring the error message must contain, or NULL */\n"
      "  const fx_tensor *want;   /* expected result (in-place: self after; out: out after); NULL if err */\n"
      "  const char *desc;        /* human-readable summary, PyTorch's error message when err */\n"
      "} fx_case;\n\n")
    pool = []
    POOL.emit(pool.append)
    pool.append("\n")
    TPOOL.emit(pool.append)
    text = "".join(head) + "".join(pool) + "".join(body)
    text += "\n#define FX_NUM_CASES %d\n#endif /* CT_TEST_FIXTURES_H */\n" % total
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        f.write(text)
    sys.stderr.write("wrote %s: %d cases, %d bytes\n" % (OUT, total, len(text)))
    for name, cases in groups:
        sys.stderr.write("  %-12s %4d cases, %3d errors\n" % (name, len(cases), sum(c.err is not None for c in cases)))


if __name__ == "__main__":
    main()
