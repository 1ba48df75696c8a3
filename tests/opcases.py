"""tests/opcases.py - PyTorch calls turned into ctorch fixture cases.

Each area of the op library has a script tests/cases_AREA.py:

    import torch, opcases
    cs = opcases.Cases("unary")                    # -> tests/fixtures/cases_unary.h
    x = cs.randn(3, 4)                             # float64 by default
    cs.add("exp", x.t().requires_grad_())          # torch.ops.aten.exp.default
    cs.add("add.Tensor", a, b, alpha=2)            # kwargs by schema name
    cs.add("my_op", a, ref=lambda a: a * 2)        # no aten overload of that name
    cs.error("add.Tensor", a, cs.randn(5), code="CT_ERR_SHAPE")
    cs.write()

and is run with Debian's torch:  /usr/bin/python3 tests/cases_AREA.py

A case calls PyTorch once and records, for tests/test_opcases.c:
  - the arguments in the order given, positional then keyword; ctorch fills
    the rest from its own schema's defaults. Tensors keep their sizes,
    strides and storage offset (x.t(), x[:, ::2], x.expand(...) are
    non-contiguous cases); the same tensor object passed twice stays one
    tensor. Python ints/floats/bools become int/float/bool/Scalar values as
    the schema says; lists of ints, lists of floats (float[]), lists of tensors, torch dtypes, strings
    and None as themselves.
  - what PyTorch returned (a tensor, a tuple or a list of tensors);
  - for inputs with requires_grad: the gradients of the first output against
    a random grad_output (torch.autograd.grad).
ctorch must return the same dtypes and shapes and values within the
tolerance of each dtype (below), then pass ct_opcheck on the same arguments.

error(...) records arguments PyTorch rejects (it must raise here, unless
torch_raises=False for a restriction of ctorch's own; ref= as for add, for
ops with no aten overload); ctorch must fail,
with `code` when given ("CT_ERR_SHAPE", ...), and leak nothing.

Options of add: atol=, rtol= (override the dtype's), opcheck= (default: the
first case of each op in the file), gradcheck= (opcheck's gradcheck, default
True), name= (a label; default op + counter).

float16 / bfloat16: PyTorch 1.13 lacks many CPU half kernels. When an op
raises "not implemented for 'Half'", the reference is computed in float32
from the same (exactly representable) inputs and rounded back, which is
what ctorch does (f32 accumulation), so the tolerance stays the dtype's.

Tolerances, relative to |expected| plus absolute, with unit roundoff u:
  float64 (u = 1.1e-16):  rtol 1e-10, atol 1e-12  (summation order, libm vs
                          vectorised transcendentals: a few ulps, x n terms)
  float32 (u = 6.0e-8):   rtol 1e-5,  atol 1e-5   (~100 ulps: f32 sums of
                          tens of terms in another order, exp/log ulp error)
  float16 (u = 4.9e-4):   rtol 2e-3,  atol 1e-3   (2 ulps: one rounding of
                          an f32 result each side)
  bfloat16 (u = 3.9e-3):  rtol 1.6e-2, atol 1e-2  (2 ulps)
  integers and bool:      exact
Gradients get twice the forward tolerance (one more rounded op per term).
"""
import math
import os
import sys
import zlib

import numpy as np
import torch

DTYPES = {
    torch.float32: "f32",
    torch.float64: "f64",
    torch.float16: "f16",
    torch.bfloat16: "bf16",
    torch.int64: "i64",
    torch.int32: "i32",
    torch.uint8: "u8",
    torch.bool: "b",
}
LOW = (torch.float16, torch.bfloat16)
HERE = os.path.dirname(os.path.abspath(__file__))
LINE = 1000  # characters per C string piece (ISO C99 guarantees 4095)


def _num(v, dtype):
    """Shortest text that reads back to the exact value in `dtype`."""
    if dtype == torch.bool:
        return "1" if v else "0"
    if not dtype.is_floating_point:
        return str(int(v))
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if dtype == torch.float64:
        return repr(v)
    if dtype == torch.float16:
        return str(np.float16(v))
    return str(np.float32(v))  # float32, and bfloat16 (exact in float32)


def _values(t):
    """Row-major values of a tensor, as Python numbers."""
    t = t.detach()
    if t.dtype == torch.bfloat16:
        t = t.float()
    return t.reshape(-1).tolist()


def _tensor_tokens(t):
    """dtype ndim sizes strides offset n base-values: the storage span the view reads."""
    if t.dtype not in DTYPES:
        raise ValueError("dtype %s has no ctorch counterpart" % t.dtype)
    span = 0 if t.numel() == 0 else 1 + sum((s - 1) * st for s, st in zip(t.shape, t.stride()))
    base = t.detach().as_strided((span,), (1,), t.storage_offset())
    toks = [DTYPES[t.dtype], str(t.dim())] + [str(s) for s in t.shape] + [str(s) for s in t.stride()]
    toks += ["0", str(span)] + [_num(v, t.dtype) for v in _values(base)]
    return toks


def _result_tokens(tag, t):
    toks = [tag, DTYPES[t.dtype], str(t.dim())] + [str(s) for s in t.shape] + [str(t.numel())]
    return toks + [_num(v, t.dtype) for v in _values(t)]


def _upcast(x):
    if isinstance(x, torch.Tensor) and x.dtype in LOW:
        y = x.detach().float()
        return y.requires_grad_(x.requires_grad) if y.is_floating_point() else y
    if isinstance(x, (list, tuple)):
        return type(x)(_upcast(v) for v in x)
    return x


def _aten(op):
    name, _, overload = op.partition(".")
    packet = getattr(torch.ops.aten, name)
    return getattr(packet, overload or "default")


def _flat_outputs(out):
    if isinstance(out, torch.Tensor):
        return [out]
    outs = []
    for o in out:
        if isinstance(o, torch.Tensor):
            outs.append(o)
        elif isinstance(o, (list, tuple)):
            outs.extend(o)
    return outs


class Cases:
    def __init__(self, area):
        self.area = area
        self.cases = []
        self.gen = torch.Generator().manual_seed(zlib.crc32(area.encode()))
        self.count = {}

    # deterministic inputs ------------------------------------------------
    @staticmethod
    def _shape(shape):
        return tuple(shape[0]) if len(shape) == 1 and isinstance(shape[0], (tuple, list, torch.Size)) else tuple(shape)

    def randn(self, *shape, dtype=torch.float64):
        """randn(2, 3), randn((2, 3)) or randn(()) for 0-dim."""
        return torch.randn(self._shape(shape), generator=self.gen, dtype=torch.float64).to(dtype)

    def rand(self, *shape, lo=0.0, hi=1.0, dtype=torch.float64):
        return (lo + (hi - lo) * torch.rand(self._shape(shape), generator=self.gen, dtype=torch.float64)).to(dtype)

    def randint(self, lo, hi, *shape, dtype=torch.int64):
        return torch.randint(lo, hi, self._shape(shape), generator=self.gen).to(dtype)

    # cases ---------------------------------------------------------------
    def _encode_args(self, args, kwargs, table):
        toks = []

        def tensor_ref(t):
            for i, u in enumerate(table):
                if u is t:
                    return str(i)
            table.append(t)
            return str(len(table) - 1)

        def value(v):
            if isinstance(v, torch.Tensor):
                return ["t", tensor_ref(v)]
            if v is None:
                return ["n"]
            if isinstance(v, bool):
                return ["b", "1" if v else "0"]
            if isinstance(v, int):
                return ["i", str(v)]
            if isinstance(v, float):
                return ["f", _num(v, torch.float64)]
            if isinstance(v, torch.dtype):
                return ["d", DTYPES[v]]
            if isinstance(v, str):
                if not v or any(c.isspace() for c in v):
                    raise ValueError("strings must be one word: %r" % v)
                return ["s", v]
            if isinstance(v, (list, tuple)):
                if all(isinstance(e, torch.Tensor) for e in v) and len(v) > 0:
                    return ["L", str(len(v))] + [tensor_ref(e) for e in v]
                if all(isinstance(e, int) and not isinstance(e, bool) for e in v):
                    return ["l", str(len(v))] + [str(e) for e in v]
                if all(isinstance(e, float) for e in v):  # float[]
                    return ["F", str(len(v))] + [_num(e, torch.float64) for e in v]
            raise ValueError("unsupported argument %r" % (v,))

        for a in args:
            toks += ["a"] + value(a)
        for k, v in kwargs.items():
            toks += ["k", k] + value(v)
        return toks

    def _label(self, op, name):
        n = self.count.get(op, 0)
        self.count[op] = n + 1
        return name or "%s#%d" % (op, n), n

    def add(self, op, *args, ref=None, atol=None, rtol=None, opcheck=None, gradcheck=True, name=None, **kwargs):
        label, n = self._label(op, name)
        table = []
        arg_toks = self._encode_args(args, kwargs, table)
        tensor_toks = []
        for t in table:  # before the call: in-place ops change their inputs
            tensor_toks += ["T"] + _tensor_tokens(t) + ["g" if t.requires_grad else "-"]
        fn = ref or _aten(op)
        if op.endswith("_") and any(t.requires_grad for t in table):
            raise ValueError("%s: in-place cases cannot have inputs requiring grad" % label)
        leaves = table
        try:
            out = fn(*args, **kwargs)
            low = None
        except RuntimeError as e:
            if "not implemented for" not in str(e) or not any(t.dtype in LOW for t in table):
                raise
            # the float32 reference: the same inputs, upcast once each
            low = next(t.dtype for t in table if t.dtype in LOW)
            up = {id(t): _upcast(t) for t in table}

            def conv(v):
                if isinstance(v, torch.Tensor):
                    return up[id(v)]
                if isinstance(v, (list, tuple)):
                    return type(v)(conv(e) for e in v)
                return v
            leaves = [up[id(t)] for t in table]
            out = fn(*[conv(a) for a in args], **{k: conv(v) for k, v in kwargs.items()})
        outs = _flat_outputs(out)
        results = [o.detach().to(low) if low is not None and o.dtype == torch.float32 else o.detach() for o in outs]
        toks = ["op", op, "name", label]
        if atol is not None or rtol is not None:
            toks += ["tol", _num(atol if atol is not None else -1, torch.float64),
                     _num(rtol if rtol is not None else -1, torch.float64)]
        if opcheck if opcheck is not None else n == 0:
            toks += ["opcheck", "1" if gradcheck else "0"]
        toks += tensor_toks + arg_toks
        for r in results:
            toks += _result_tokens("o", r)
        inputs = [i for i, t in enumerate(table) if t.requires_grad]
        if inputs and outs and outs[0].requires_grad:
            g = self.randn(tuple(outs[0].shape)).to(results[0].dtype)
            grads = torch.autograd.grad([outs[0]], [leaves[i] for i in inputs], [g.to(outs[0].dtype)], allow_unused=True)
            toks += _result_tokens("go", g)
            for i, gr in zip(inputs, grads):
                if gr is None:
                    toks += ["gi", str(i), "none"]
                else:
                    toks += ["gi", str(i)] + _result_tokens("v", gr.detach().to(table[i].dtype))[1:]
        self.cases.append((label, toks))

    def error(self, op, *args, code=None, torch_raises=True, ref=None, name=None, **kwargs):
        label, _ = self._label(op, name)
        table = []
        arg_toks = self._encode_args(args, kwargs, table)
        if torch_raises:
            try:
                (ref or _aten(op))(*args, **kwargs)
            except (RuntimeError, IndexError, ValueError, TypeError) as e:
                del e
            else:
                raise AssertionError("%s: PyTorch accepted the arguments of an error case" % label)
        toks = ["op", op, "name", label, "err", code or "any"]
        for t in table:
            toks += ["T"] + _tensor_tokens(t) + ["-"]
        self.cases.append((label, toks + arg_toks))

    # output ----------------------------------------------------------------
    def write(self):
        path = os.path.join(HERE, "fixtures", "cases_%s.h" % self.area)
        lines = ["/* tests/fixtures/cases_%s.h - GENERATED by /usr/bin/python3 tests/cases_%s.py (torch %s); do not edit."
                 % (self.area, self.area, torch.__version__),
                 " * Each case is a list of string pieces holding one token stream (tests/opcases.py). */"]
        names = []
        for i, (label, toks) in enumerate(self.cases):
            pieces, cur = [], ""
            for tok in toks:
                if len(cur) + len(tok) + 1 > LINE:
                    pieces.append(cur)
                    cur = ""
                cur += tok + " "
            pieces.append(cur)
            var = "cases_%s_%d" % (self.area, i)
            names.append(var)
            lines.append("static const char *const %s[] = {" % var)
            lines += ['    "%s",' % p.replace("\\", "\\\\").replace('"', '\\"') for p in pieces]
            lines.append("    NULL};")
        lines.append("static const char *const *const cases_%s[] = {" % self.area)
        lines += ["    %s," % v for v in names]
        lines.append("    NULL};")
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        print("%s: %d cases, %d bytes" % (path, len(self.cases), os.path.getsize(path)), file=sys.stderr)
