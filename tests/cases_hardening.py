"""tests/cases_hardening.py - PyTorch fixture cases of the hardening sweeps (issue 12; tests/opcases.py).

Every reduction and scan on zero-size inputs of every dtype, with and
without dims and keepdim, and their out= forms: ctorch must give PyTorch's
results or refuse what PyTorch refuses.

Run with Debian's torch: /usr/bin/python3 tests/cases_hardening.py
"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import opcases  # noqa: E402

cs = opcases.Cases("hardening")
F64, F32, F16, BF16 = torch.float64, torch.float32, torch.float16, torch.bfloat16
I64, I32, U8, B = torch.int64, torch.int32, torch.uint8, torch.bool
DTYPES = [F32, F64, F16, BF16, I64, I32, U8, B]
SHAPES = [(5, 4, 0), (0, 3), (3, 0, 2)]


def attempt(op, *args, **kwargs):
    """A case PyTorch accepts, else an error case."""
    try:
        opcases._aten(op)(*args, **kwargs)
    except (RuntimeError, IndexError, ValueError, TypeError) as e:
        if "not implemented for" in str(e) and any(
                isinstance(a, torch.Tensor) and a.dtype in (F16, BF16) for a in args):
            pass  # opcases computes the reference in float32
        else:
            cs.error(op, *args, **kwargs)
            return
    cs.add(op, *args, opcheck=False, **kwargs)


def out_like(op, *args, **kwargs):
    """The out= form with a 0-element out of the functional result's dtype (or float32 when it fails)."""
    try:
        r = opcases._aten(op)(*args, **kwargs)
        r = r[0] if isinstance(r, (tuple, list)) else r
        return torch.empty(0, dtype=r.dtype)
    except (RuntimeError, IndexError, ValueError, TypeError):
        return torch.empty(0, dtype=args[0].dtype if args[0].is_floating_point() else F32)


# ---- reductions over int[1]? dim (None: all), keepdim ----
for shape in SHAPES:
    for dt in DTYPES:
        x = torch.zeros(shape, dtype=dt)
        for dims in (None, [0], [-1], [0, -1]):
            for keep in (False, True):
                attempt("sum.dim_IntList", x, dims, keep)
                attempt("mean.dim", x, dims, keep)
                attempt("nansum", x, dims, keep)
                attempt("nanmean", x, dims, keep)
                attempt("var.correction", x, dims, correction=1, keepdim=keep)
                attempt("std.correction", x, dims, correction=0, keepdim=keep)
                attempt("var_mean.correction", x, dims, correction=1, keepdim=keep)
                attempt("std_mean.correction", x, dims, correction=1, keepdim=keep)
                attempt("linalg_vector_norm", x, 2, dims, keep)
                attempt("linalg_vector_norm", x, float("inf"), dims, keep)
                attempt("linalg_vector_norm", x, 0, dims, keep)
                attempt("amax", x, dims or [], keep)
                attempt("amin", x, dims or [], keep)
                if dims is not None:
                    attempt("logsumexp", x, dims, keep)
                    attempt("norm.ScalarOpt_dim", x, 2, dims, keep)
                    attempt("count_nonzero.dim_IntList", x, dims)
        # full reductions
        for op in ("sum", "mean", "prod", "max", "min", "all", "any", "median", "nanmedian", "count_nonzero",
                   "norm.Scalar", "msort"):
            attempt(op, x)
        attempt("var", x, True)
        attempt("std", x, False)
        attempt("sum", x, dtype=F64)
        attempt("argmax", x)
        attempt("argmin", x)
        attempt("aminmax", x)
        # over one int dim
        for dim in (0, -1):
            for keep in (False, True):
                attempt("prod.dim_int", x, dim, keep)
                attempt("all.dim", x, dim, keep)
                attempt("any.dim", x, dim, keep)
                attempt("max.dim", x, dim, keep)
                attempt("min.dim", x, dim, keep)
                attempt("argmax", x, dim, keep)
                attempt("argmin", x, dim, keep)
                attempt("median.dim", x, dim, keep)
                attempt("nanmedian.dim", x, dim, keep)
                attempt("kthvalue", x, 1, dim, keep)
                attempt("aminmax", x, dim=dim, keepdim=keep)
            attempt("count_nonzero", x, dim)
            attempt("cumsum", x, dim)
            attempt("cumprod", x, dim)
            attempt("logcumsumexp", x, dim)
            attempt("cummax", x, dim)
            attempt("cummin", x, dim)
            attempt("sort", x, dim)
            attempt("argsort", x, dim)
            attempt("topk", x, 0, dim)
            attempt("topk", x, 1, dim)
        # out= forms (an empty out of the result's dtype is resized)
        for op, fn, args in (("sum.out", "sum", (x,)), ("prod.out", "prod", (x,)), ("all.all_out", "all", (x,)),
                             ("any.all_out", "any", (x,)), ("median.out", "median", (x,)),
                             ("norm.Scalar_out", "norm.Scalar", (x, 2)),
                             ("sum.IntList_out", "sum.dim_IntList", (x, [0], True)), ("mean.out", "mean.dim", (x, None)),
                             ("amax.out", "amax", (x, [-1])), ("logsumexp.out", "logsumexp", (x, [0])),
                             ("linalg_vector_norm.out", "linalg_vector_norm", (x,)),
                             ("var.correction_out", "var.correction", (x, None)),
                             ("count_nonzero.out", "count_nonzero", (x,)), ("argmax.out", "argmax", (x,)),
                             ("cumsum.out", "cumsum", (x, 0)), ("logcumsumexp.out", "logcumsumexp", (x, -1))):
            if op == "var.correction_out":
                attempt(op, x, None, correction=1, out=out_like(fn, x, None, correction=1))
            else:
                attempt(op, *args, out=out_like(fn, *args))

cs.write()
