"""tests/cases_matrix.py - PyTorch cases for gen/ops/matrix.spec (writes tests/fixtures/cases_matrix.h).

Run with Debian's torch: /usr/bin/python3 tests/cases_matrix.py
ctorch factors in double (float32 too), PyTorch with LAPACK in the dtype:
the matrices are kept well conditioned (wc: randn + n I), so float32 results
agree to a few ulps times the condition number, within the dtype tolerance.
The _ex forms at singular matrices (info, inf/NaN values) are checked in
tests/test_ops_matrix.c.
"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import opcases  # noqa: E402

cs = opcases.Cases("matrix")
rn = cs.randn
g = lambda t: t.requires_grad_()  # noqa: E731
f32, f16, bf16, i64, i32, u8 = torch.float32, torch.float16, torch.bfloat16, torch.int64, torch.int32, torch.uint8


def wc(*batch_n, dtype=torch.float64):
    """wc(*batch, n): a batch of well-conditioned n x n matrices."""
    n = batch_n[-1]
    return (rn(*batch_n, n) + n * torch.eye(n, dtype=torch.float64)).to(dtype)


# ---- linalg_cross, cross ----
cs.add("linalg_cross", g(rn(4, 3)), g(rn(4, 3)))
cs.add("linalg_cross", g(rn(2, 1, 3)), g(rn(1, 4, 3)))             # broadcast batch
cs.add("linalg_cross", g(rn(3, 5)), g(rn(3, 5)), dim=0)
cs.add("linalg_cross", g(rn(3, 4).t()), g(rn(4, 3)))                # transposed
cs.add("linalg_cross", g(rn(1, 3).expand(5, 3)), g(rn(5, 6)[:, ::2]))  # expanded, strided
cs.add("linalg_cross", rn(2, 3, dtype=f32), rn(2, 3, dtype=f32), dim=-1)
cs.add("linalg_cross", rn(2, 3, dtype=bf16), rn(2, 3, dtype=bf16))
cs.add("linalg_cross", cs.randint(-9, 9, 2, 3), cs.randint(-9, 9, 2, 3))
cs.add("linalg_cross", cs.randint(-9, 9, 3, 2, dtype=i32), cs.randint(-9, 9, 3, 2, dtype=i32), dim=0)
cs.add("linalg_cross", cs.randint(0, 200, 2, 3, dtype=u8), cs.randint(0, 200, 2, 3, dtype=u8))  # wraps
cs.add("linalg_cross", g(rn(0, 3)), g(rn(0, 3)))
cs.add("linalg_cross", g(rn(3)), g(rn(3)))
cs.error("linalg_cross", rn(2, 3), rn(3), code="CT_ERR_RANK")
cs.error("linalg_cross", rn(2, 3), rn(2, 3), dim=0, code="CT_ERR_SHAPE")
cs.error("linalg_cross", rn(2, 3), rn(4, 3), code="CT_ERR_SHAPE")
cs.error("linalg_cross", rn(2, 3), rn(2, 3, dtype=f32), code="CT_ERR_DTYPE")
cs.error("linalg_cross", rn(2, 3, dtype=f16), rn(2, 3, dtype=f16), code="CT_ERR_DTYPE")
cs.error("linalg_cross", rn(2, 3) > 0, rn(2, 3) > 0, code="CT_ERR_DTYPE")
cs.error("linalg_cross", rn(2, 3), rn(2, 3), dim=2, code="CT_ERR_INDEX")
cs.error("linalg_cross", rn(()), rn(()), code="CT_ERR_INDEX")
cs.add("linalg_cross.out", rn(2, 3), rn(2, 3), out=torch.empty(0, dtype=torch.float64))
cs.add("linalg_cross.out", rn(3, 2), rn(3, 2), dim=0, out=torch.empty(3, 2, dtype=torch.float64))
cs.error("linalg_cross.out", rn(2, 3), rn(2, 3), out=torch.empty(0, dtype=f32), code="CT_ERR_DTYPE")

cs.add("cross", g(rn(3, 4)), g(rn(3, 4)))                           # dim None: the first of size 3
cs.add("cross", g(rn(4, 3, 3)), g(rn(4, 3, 3)), 2)
cs.add("cross", rn(2, 3, dtype=f32), rn(1, 3, dtype=f32))
cs.error("cross", rn(2, 2), rn(2, 2), code="CT_ERR_SHAPE")
cs.error("cross", rn(3, 3), rn(1, 3), code="CT_ERR_SHAPE")          # dim None picks self's dim 0
cs.add("cross.out", rn(3, 4), rn(3, 4), out=torch.empty(0, dtype=torch.float64))
cs.add("cross.out", rn(2, 3), rn(2, 3), 1, out=torch.empty(0, dtype=torch.float64))

# ---- linalg_det, det ----
cs.add("linalg_det", g(rn(3, 3)))
cs.add("linalg_det", g(rn(2, 4, 4)))
cs.add("linalg_det", g(rn(3, 3).t()))                               # not contiguous: A itself is factored
cs.add("linalg_det", g(rn(2, 1, 2, 2).expand(2, 3, 2, 2)))
cs.add("linalg_det", g(rn(1, 1)))
cs.add("linalg_det", g(wc(5)))
cs.add("linalg_det", wc(2, 5, dtype=f32))
cs.add("linalg_det", g(rn(0, 0)))                                   # 1
cs.add("linalg_det", g(rn(2, 0, 0)))
cs.add("linalg_det", g(rn(0, 3, 3)))
cs.add("linalg_det", torch.ones(3, 3, dtype=torch.float64))         # singular: 0 (no gradient there)
cs.add("linalg_det", torch.tensor([[0., 1], [1, 0]], dtype=torch.float64))  # a swap: -1
cs.error("linalg_det", cs.randint(-3, 3, 3, 3), code="CT_ERR_DTYPE")
cs.error("linalg_det", rn(3, 3, dtype=f16), code="CT_ERR_DTYPE")
cs.error("linalg_det", rn(2, 3), code="CT_ERR_SHAPE")
cs.error("linalg_det", rn(3), code="CT_ERR_RANK")
cs.error("linalg_det", cs.randint(-3, 3, 2, 3), code="CT_ERR_SHAPE")  # the shape is checked first
cs.add("linalg_det.out", rn(2, 3, 3), out=torch.empty(0, dtype=torch.float64))
cs.add("det", g(rn(2, 3, 3)))
cs.add("det", wc(4, dtype=f32))

# ---- slogdet: _linalg_logabsdet (ctorch's, logabsdet first) and aten's forms ----
logabs = lambda A: tuple(reversed(torch.linalg.slogdet(A)))  # noqa: E731
cs.add("_linalg_logabsdet", g(rn(3, 3)), ref=logabs)
cs.add("_linalg_logabsdet", g(rn(3, 4, 4)), ref=logabs)            # some negative determinants
cs.add("_linalg_logabsdet", g(rn(4, 4).t()), ref=logabs)
cs.add("_linalg_logabsdet", g(rn(0, 0)), ref=logabs)
cs.add("_linalg_logabsdet", wc(2, 6, dtype=f32), ref=logabs)
cs.add("_linalg_logabsdet", torch.ones(2, 2, dtype=torch.float64), ref=logabs)  # (-inf, 0)
cs.add("_linalg_logabsdet", (rn(8, 8) * 1e40), ref=logabs)         # det overflows; log|det| does not
cs.error("_linalg_logabsdet", rn(3, 3, dtype=bf16), ref=logabs, code="CT_ERR_DTYPE")
cs.error("_linalg_logabsdet", cs.randint(-3, 3, 3, 3), ref=logabs, code="CT_ERR_DTYPE")
cs.add("linalg_slogdet", rn(2, 3, 3), gradcheck=False)              # sign first: not differentiable
cs.add("linalg_slogdet", rn(3, 3, dtype=f32), gradcheck=False)
cs.add("linalg_slogdet", -torch.eye(3, dtype=torch.float64), gradcheck=False)
cs.error("linalg_slogdet", rn(2, 3), code="CT_ERR_SHAPE")
cs.add("slogdet", rn(4, 4), gradcheck=False)
cs.add("linalg_slogdet.out", rn(2, 3, 3), sign=torch.empty(0, dtype=torch.float64), logabsdet=torch.empty(0, dtype=torch.float64),
       gradcheck=False)
cs.add("slogdet.out", rn(3, 3), sign=torch.empty(0, dtype=torch.float64), logabsdet=torch.empty(0, dtype=torch.float64),
       gradcheck=False)

# ---- linalg_inv_ex, linalg_inv, inverse ----
cs.add("linalg_inv_ex", g(wc(3)))
cs.add("linalg_inv_ex", g(wc(2, 4)))
cs.add("linalg_inv_ex", g(wc(4).t()))
cs.add("linalg_inv_ex", wc(3, dtype=f32), check_errors=True)
cs.add("linalg_inv_ex", g(rn(0, 0)))
cs.add("linalg_inv_ex", g(rn(3, 0, 0)))
cs.error("linalg_inv_ex", torch.stack([torch.eye(3), torch.ones(3, 3)]).double(), check_errors=True, code="CT_ERR_INVALID")
cs.add("linalg_inv_ex.inverse", wc(2, 3), inverse=torch.empty(0, dtype=torch.float64), info=torch.empty(0, dtype=i32))
cs.add("linalg_inv", g(wc(4)))
cs.add("linalg_inv", g(wc(2, 1, 3).expand(2, 2, 3, 3)))
cs.add("linalg_inv", g(torch.tensor([[0., 2], [3, 0]], dtype=torch.float64)))  # pivoting
cs.add("linalg_inv", wc(5, dtype=f32))
cs.error("linalg_inv", torch.ones(3, 3, dtype=torch.float64), code="CT_ERR_INVALID")
cs.error("linalg_inv", torch.stack([torch.eye(2), torch.zeros(2, 2)]).double(), code="CT_ERR_INVALID")
cs.error("linalg_inv", cs.randint(-3, 3, 3, 3), code="CT_ERR_DTYPE")
cs.error("linalg_inv", rn(3, 3, dtype=f16), code="CT_ERR_DTYPE")
cs.error("linalg_inv", rn(2, 3), code="CT_ERR_SHAPE")
cs.error("linalg_inv", rn(3), code="CT_ERR_RANK")
cs.add("linalg_inv.out", wc(3), out=torch.empty(0, dtype=torch.float64))
cs.add("inverse", g(wc(3)))
cs.add("inverse.out", wc(2, 2), out=torch.empty(0, dtype=torch.float64))

# ---- linalg_solve_ex, linalg_solve ----
cs.add("linalg_solve_ex", g(wc(3)), g(rn(3, 2)))
cs.add("linalg_solve_ex", g(wc(2, 3)), g(rn(3)))                    # 1-D B: vectors, broadcast
cs.add("linalg_solve_ex", g(wc(2, 3)), g(rn(2, 3)))                 # B of A's shape less one dim: vectors
cs.add("linalg_solve_ex", g(wc(2, 3)), g(rn(4, 1, 3, 2)))           # broadcast batch
cs.add("linalg_solve_ex", g(wc(1, 3)), g(rn(2, 3, 3)))
cs.add("linalg_solve_ex", g(wc(3)), g(rn(5, 3)), left=False)        # X A = B
cs.add("linalg_solve_ex", g(wc(2, 3)), g(rn(2, 4, 3)), left=False)
cs.add("linalg_solve_ex", g(wc(3).t()), g(rn(2, 3).t()))            # transposed A and B
cs.add("linalg_solve_ex", g(wc(3).t()), g(rn(3, 2).t()), left=False)
cs.add("linalg_solve_ex", wc(4, dtype=f32), rn(4, 3, dtype=f32), check_errors=True)
cs.add("linalg_solve_ex", g(rn(0, 0)), g(rn(0)))
cs.add("linalg_solve_ex", g(rn(2, 0, 0)), g(rn(0, 4)))
cs.add("linalg_solve_ex", g(wc(3)), g(rn(3, 0)))
cs.error("linalg_solve_ex", torch.ones(2, 3, 3, dtype=torch.float64), rn(3), check_errors=True, code="CT_ERR_INVALID")
cs.add("linalg_solve", g(wc(3)), g(rn(3, 2)))
cs.add("linalg_solve", g(wc(2, 3)), g(rn(3)))
cs.add("linalg_solve", g(wc(3)), g(rn(2, 3)), left=False)
cs.add("linalg_solve", wc(3, dtype=f32), rn(3, dtype=f32))
cs.error("linalg_solve", torch.ones(3, 3, dtype=torch.float64), rn(3), code="CT_ERR_INVALID")
cs.error("linalg_solve", torch.ones(2, 3, 3, dtype=torch.float64), rn(3), code="CT_ERR_INVALID")
cs.error("linalg_solve", rn(2, 3, 3), rn(2, 3), left=False, code="CT_ERR_SHAPE")   # vectors: XA = B is (3x1)
cs.error("linalg_solve", rn(1, 1), rn(1), left=False, code="CT_ERR_SHAPE")         # vectors with left=False
cs.error("linalg_solve", rn(2, 3, 3), rn(4, 2, 3), code="CT_ERR_SHAPE")
cs.error("linalg_solve", rn(2, 3, 3), rn(3, 5), left=False, code="CT_ERR_SHAPE")
cs.error("linalg_solve", rn(2, 3, 3), rn(4), code="CT_ERR_SHAPE")
cs.error("linalg_solve", rn(2, 3, 3), rn(3, 3, 2), code="CT_ERR_SHAPE")          # batch dims do not broadcast
cs.error("linalg_solve", rn(3, 3), rn(3, dtype=f32), code="CT_ERR_DTYPE")
cs.error("linalg_solve", cs.randint(-3, 3, 3, 3), cs.randint(-3, 3, 3), code="CT_ERR_DTYPE")
cs.error("linalg_solve", rn(3, 3, dtype=f16), rn(3, dtype=f16), code="CT_ERR_DTYPE")
cs.error("linalg_solve", rn(3), rn(3), code="CT_ERR_RANK")
cs.error("linalg_solve", rn(2, 3), rn(2), code="CT_ERR_SHAPE")
cs.error("linalg_solve", rn(3, 3), rn(()), code="CT_ERR_RANK")
cs.add("linalg_solve.out", wc(3), rn(3, 2), out=torch.empty(0, dtype=torch.float64))
cs.add("linalg_solve_ex.out", wc(3), rn(3), result=torch.empty(0, dtype=torch.float64), info=torch.empty(0, dtype=i32))

# ---- linalg_cholesky_ex, linalg_cholesky, cholesky ----
def spd(*batch_n, dtype=torch.float64):
    """spd(*batch, n): symmetric positive-definite matrices X X^T + n I."""
    n = batch_n[-1]
    x = rn(*batch_n, n)
    return (x @ x.transpose(-2, -1) + n * torch.eye(n, dtype=torch.float64)).to(dtype)


# opcheck's gradcheck perturbs A off the symmetric matrices, where PyTorch's (symmetrized) gradient is
# not the derivative: tests/test_ops_matrix.c checks it through A -> (A + A^T) / 2
cs.add("linalg_cholesky_ex", g(spd(3)), gradcheck=False)
cs.add("linalg_cholesky_ex", g(spd(2, 4)), upper=True)
cs.add("linalg_cholesky_ex", g(spd(4).t()))
cs.add("linalg_cholesky_ex", g(spd(1)))
cs.add("linalg_cholesky_ex", spd(2, 5, dtype=f32), check_errors=True)
cs.add("linalg_cholesky_ex", g(rn(0, 0)))
cs.add("linalg_cholesky_ex", g(rn(2, 0, 0)), upper=True)
cs.add("linalg_cholesky_ex", torch.tensor([[4., 1], [3, 3]], dtype=torch.float64))               # only the lower triangle is read
cs.add("linalg_cholesky_ex", torch.tensor([[4., 1], [3, 3]], dtype=torch.float64), upper=True)   # only the upper one
cs.add("linalg_cholesky_ex", torch.tensor([[1., 2, 0], [2, 1, 0], [0, 0, 1]], dtype=torch.float64))  # info 2 (LAPACK's values)
cs.add("linalg_cholesky_ex", torch.tensor([[-1., 2], [2, 1]], dtype=torch.float64))                   # info 1
cs.error("linalg_cholesky_ex", torch.tensor([[1., 2], [2, 1]], dtype=torch.float64), check_errors=True, code="CT_ERR_INVALID")
cs.add("linalg_cholesky_ex.L", spd(2, 3), L=torch.empty(0, dtype=torch.float64), info=torch.empty(0, dtype=i32))
cs.add("linalg_cholesky", g(spd(3)), gradcheck=False)
cs.add("linalg_cholesky", g(spd(2, 3)), upper=True)
cs.add("linalg_cholesky", spd(4, dtype=f32))
cs.error("linalg_cholesky", torch.tensor([[1., 2], [2, 1]]), code="CT_ERR_INVALID")
cs.error("linalg_cholesky", torch.stack([torch.eye(2), torch.tensor([[1., 2], [2, 1]])]), code="CT_ERR_INVALID")
cs.error("linalg_cholesky", torch.tensor([[float("nan"), 0], [0, 1]]), code="CT_ERR_INVALID")
cs.error("linalg_cholesky", cs.randint(1, 3, 3, 3), code="CT_ERR_DTYPE")
cs.error("linalg_cholesky", spd(3, dtype=f16), code="CT_ERR_DTYPE")
cs.error("linalg_cholesky", rn(2, 3), code="CT_ERR_SHAPE")
cs.error("linalg_cholesky", rn(3), code="CT_ERR_RANK")
cs.add("linalg_cholesky.out", spd(3), out=torch.empty(0, dtype=torch.float64))
cs.add("cholesky", g(spd(3)), gradcheck=False)
cs.add("cholesky", g(spd(2, 3)), True)
cs.add("cholesky", rn(0, 3))                                                                     # empty: back unchecked
cs.error("cholesky", torch.tensor([[1., 2], [2, 1]]), code="CT_ERR_INVALID")
cs.error("cholesky", cs.randint(1, 3, 2, 2), code="CT_ERR_DTYPE")
cs.error("cholesky", rn(2, 3), code="CT_ERR_SHAPE")
cs.add("cholesky.out", spd(3), out=torch.empty(0, dtype=torch.float64))

# ---- linalg_matrix_exp, matrix_exp ----
cs.add("linalg_matrix_exp", g(rn(3, 3)))
cs.add("linalg_matrix_exp", g(rn(2, 4, 4)))
cs.add("linalg_matrix_exp", g(rn(3, 3).t()))
cs.add("linalg_matrix_exp", g(rn(3, 3) * 4))                       # 1-norm past theta_13: scaled and squared
cs.add("linalg_matrix_exp", g(rn(1, 1)))
cs.add("linalg_matrix_exp", g(rn(4, 4) * 1e-3))                    # tiny norm
cs.add("linalg_matrix_exp", rn(2, 3, 3, dtype=f32))
cs.add("linalg_matrix_exp", g(rn(0, 0)))
cs.add("linalg_matrix_exp", g(rn(0, 2, 2)))
cs.error("linalg_matrix_exp", cs.randint(-3, 3, 3, 3), code="CT_ERR_DTYPE")
cs.error("linalg_matrix_exp", rn(3, 3, dtype=f16), code="CT_ERR_DTYPE")
cs.error("linalg_matrix_exp", rn(3, 3, dtype=bf16), code="CT_ERR_DTYPE", torch_raises=False)  # ctorch's own restriction
cs.error("linalg_matrix_exp", rn(2, 3), code="CT_ERR_SHAPE")
cs.error("linalg_matrix_exp", rn(3), code="CT_ERR_RANK")
cs.add("linalg_matrix_exp.out", rn(3, 3), out=torch.empty(0, dtype=torch.float64))
cs.add("matrix_exp", g(rn(2, 3, 3)))
cs.add("matrix_exp", rn(4, 4, dtype=f32))

# ---- linalg_matrix_power, matrix_power ----
cs.add("linalg_matrix_power", g(wc(3)), 5)
cs.add("linalg_matrix_power", g(wc(2, 3)), 0)                       # the identity: a zero gradient
cs.add("linalg_matrix_power", g(wc(3).t()), 1)
cs.add("linalg_matrix_power", g(wc(3)), 2)
cs.add("linalg_matrix_power", g(wc(2, 3)), 3)
cs.add("linalg_matrix_power", g(wc(3)), 6)
cs.add("linalg_matrix_power", g(wc(3)), -1)
cs.add("linalg_matrix_power", g(wc(2, 3)), -2)
cs.add("linalg_matrix_power", g(wc(3)), -5)
cs.add("linalg_matrix_power", wc(3, dtype=f32), 4)
cs.add("linalg_matrix_power", cs.randint(-3, 3, 3, 3), 3)
cs.add("linalg_matrix_power", cs.randint(-3, 3, 2, 2, dtype=i32), 0)
cs.add("linalg_matrix_power", rn(3, 3) > 0, 0)
cs.add("linalg_matrix_power", rn(3, 3, dtype=f16) / 2, 2)             # (PyTorch's CPU has no half matmul: float32 reference)
cs.add("linalg_matrix_power", g(rn(0, 0)), 3)
cs.add("linalg_matrix_power", g(rn(2, 0, 0)), -2)
cs.error("linalg_matrix_power", cs.randint(-3, 3, 3, 3), -1, code="CT_ERR_DTYPE")
cs.error("linalg_matrix_power", rn(3, 3) > 0, 2, code="CT_ERR_DTYPE")
cs.error("linalg_matrix_power", rn(2, 3), 2, code="CT_ERR_SHAPE")
cs.error("linalg_matrix_power", rn(3), 2, code="CT_ERR_RANK")
cs.error("linalg_matrix_power", torch.ones(3, 3, dtype=torch.float64), -2, code="CT_ERR_INVALID")
cs.add("linalg_matrix_power.out", wc(3), 3, out=torch.empty(0, dtype=torch.float64))
cs.add("matrix_power", g(wc(3)), 4)
cs.add("matrix_power.out", wc(3), -2, out=torch.empty(0, dtype=torch.float64))

# ---- linalg_svdvals ----
cs.add("linalg_svdvals", g(rn(4, 3)))
cs.add("linalg_svdvals", g(rn(2, 3, 5)))                            # wide: through the transpose
cs.add("linalg_svdvals", g(rn(5, 4).t()))
cs.add("linalg_svdvals", g(rn(3, 3)))
cs.add("linalg_svdvals", g(rn(1, 4)))
cs.add("linalg_svdvals", rn(2, 6, 4, dtype=f32))
cs.add("linalg_svdvals", rn(3, 3) * 1e200)                          # scaled: no overflow in the squares
cs.add("linalg_svdvals", torch.tensor([[1., 2], [2, 4]], dtype=torch.float64))  # rank 1: an exact zero
cs.add("linalg_svdvals", g(rn(0, 3)))
cs.add("linalg_svdvals", g(rn(2, 0, 3)))
cs.add("linalg_svdvals", torch.tensor([[float("inf"), 1], [1, 1]], dtype=torch.float64))  # NaN, as LAPACK
cs.error("linalg_svdvals", torch.tensor([[float("nan"), 1], [1, 1]], dtype=torch.float64), code="CT_ERR_INVALID")
cs.error("linalg_svdvals", cs.randint(-3, 3, 3, 3), code="CT_ERR_DTYPE")
cs.error("linalg_svdvals", rn(3, 3, dtype=f16), code="CT_ERR_DTYPE")
cs.error("linalg_svdvals", rn(3), code="CT_ERR_RANK")
cs.error("linalg_svdvals", rn(3, 3), driver="gesvd", code="CT_ERR_INVALID")
cs.add("linalg_svdvals.out", rn(3, 2), out=torch.empty(0, dtype=torch.float64))

# ---- linalg_matrix_norm ----
cs.add("linalg_matrix_norm", g(rn(3, 4)), 1)
cs.add("linalg_matrix_norm", g(rn(2, 3, 4)), -1)
cs.add("linalg_matrix_norm", g(rn(3, 4)), float("inf"))
cs.add("linalg_matrix_norm", g(rn(2, 3, 4)), float("-inf"), keepdim=True)
cs.add("linalg_matrix_norm", g(rn(3, 4)), 2)
cs.add("linalg_matrix_norm", g(rn(2, 4, 3)), -2)
cs.add("linalg_matrix_norm", g(rn(3, 2, 4)), 2, dim=[0, 2], keepdim=True)
cs.add("linalg_matrix_norm", g(rn(3, 2, 4)), 1, dim=[2, 0])
cs.add("linalg_matrix_norm", g(rn(3, 2, 4)), float("inf"), dim=[-1, 0], keepdim=True)
cs.add("linalg_matrix_norm", g(rn(4, 3).t()), -2)
cs.add("linalg_matrix_norm", rn(3, 3, dtype=f32), 1, dtype=torch.float64)
cs.add("linalg_matrix_norm", rn(3, 3, dtype=f16), 1)
cs.add("linalg_matrix_norm", rn(3, 3, dtype=f32), 2)
cs.add("linalg_matrix_norm", rn(0, 3), 1)
cs.add("linalg_matrix_norm", rn(0, 3), -1)
cs.add("linalg_matrix_norm", rn(3, 0), float("inf"))
cs.error("linalg_matrix_norm", rn(0, 3), 2, code="CT_ERR_INDEX")   # no singular value to take the max of
cs.error("linalg_matrix_norm", rn(3, 0), 1, code="CT_ERR_INDEX")     # amax of nothing
cs.error("linalg_matrix_norm", rn(3, 3), 3, code="CT_ERR_INVALID")
cs.error("linalg_matrix_norm", rn(3, 3), 0.5, code="CT_ERR_INVALID")
cs.error("linalg_matrix_norm", cs.randint(-3, 3, 3, 3), 1, code="CT_ERR_DTYPE")
cs.error("linalg_matrix_norm", rn(3, 3, dtype=f16), 2, code="CT_ERR_DTYPE")
cs.error("linalg_matrix_norm", rn(3, 3), 1, dim=[0], code="CT_ERR_INVALID")
cs.error("linalg_matrix_norm", rn(3, 3), 1, dim=[0, -2], code="CT_ERR_INVALID")
cs.error("linalg_matrix_norm", rn(3, 3), 1, dim=[0, 2], code="CT_ERR_INDEX")
cs.error("linalg_matrix_norm", rn(3), 1, code="CT_ERR_RANK")
cs.error("linalg_matrix_norm", rn(3, 3, dtype=f32), 1, dtype=torch.float16, code="CT_ERR_DTYPE")
cs.error("linalg_matrix_norm", rn(3, 3), 1, dtype=torch.float32, code="CT_ERR_DTYPE")
cs.error("linalg_matrix_norm", rn(3, 3), 1, dtype=torch.int64, code="CT_ERR_DTYPE")
cs.add("linalg_matrix_norm.out", rn(2, 3, 3), 1, out=torch.empty(0, dtype=torch.float64))
cs.add("linalg_matrix_norm.str_ord", g(rn(3, 4)))
cs.add("linalg_matrix_norm.str_ord", g(rn(2, 3, 4)), "nuc")
cs.add("linalg_matrix_norm.str_ord", g(rn(2, 3, 4)), "fro", dim=[0, 2], keepdim=True)
cs.add("linalg_matrix_norm.str_ord", g(rn(3, 2, 4)), "nuc", dim=[2, 0], keepdim=True)
cs.add("linalg_matrix_norm.str_ord", rn(3, 3, dtype=f32), "fro", dtype=torch.float64)
cs.add("linalg_matrix_norm.str_ord", rn(3, 3, dtype=f16))
cs.add("linalg_matrix_norm.str_ord", rn(0, 3), "nuc")
cs.error("linalg_matrix_norm.str_ord", rn(3, 3), "abc", code="CT_ERR_INVALID")
cs.error("linalg_matrix_norm.str_ord", rn(3, 3, dtype=f16), "nuc", code="CT_ERR_DTYPE")
cs.add("linalg_matrix_norm.str_ord_out", rn(3, 3), "nuc", out=torch.empty(0, dtype=torch.float64))

# ---- linalg_norm ----
cs.add("linalg_norm", g(rn(2, 3, 4)))                               # ord None: the 2-norm of everything
cs.add("linalg_norm", g(rn(3, 4)), 1)                               # 2-D, ord: a matrix norm
cs.add("linalg_norm", g(rn(4)), 1)                                  # 1-D: a vector norm
cs.add("linalg_norm", g(rn(3, 4)), 3, [1])                          # one dim: a vector norm
cs.add("linalg_norm", g(rn(2, 3, 4)), float("inf"), [2, 0], True)
cs.add("linalg_norm", g(rn(2, 3, 4)), None, [0, 1])
cs.add("linalg_norm", g(rn(3, 4)), -2)
cs.add("linalg_norm", rn(3, 4, dtype=f32), 2, dtype=torch.float64)
cs.error("linalg_norm", rn(2, 3, 4), 2, code="CT_ERR_RANK")
cs.error("linalg_norm", rn(2, 3, 4), None, [0, 1, 2], code="CT_ERR_INVALID")
cs.error("linalg_norm", rn(3, 4), 3, code="CT_ERR_INVALID")
cs.error("linalg_norm", cs.randint(-3, 3, 3, 4), code="CT_ERR_DTYPE")
cs.add("linalg_norm.out", rn(3, 4), 1, out=torch.empty(0, dtype=torch.float64))
cs.add("linalg_norm.ord_str", g(rn(3, 4)), "fro")
cs.add("linalg_norm.ord_str", g(rn(2, 3, 4)), "nuc", [0, 2])
cs.error("linalg_norm.ord_str", rn(3), "fro", [0], code="CT_ERR_RANK")    # a str ord is always a matrix norm
cs.error("linalg_norm.ord_str", rn(2, 3, 4), "fro", code="CT_ERR_RANK")
cs.error("linalg_norm.ord_str", rn(3, 4), "abc", code="CT_ERR_INVALID")
cs.add("linalg_norm.ord_str_out", rn(3, 4), "nuc", out=torch.empty(0, dtype=torch.float64))

# ---- linalg_eigvalsh ----
def sym(*batch_n, dtype=torch.float64):
    """sym(*batch, n): symmetric matrices."""
    x = rn(*batch_n, batch_n[-1])
    return (x + x.transpose(-2, -1)).to(dtype)


# opcheck's gradcheck perturbs one triangle's entries alone, where the (symmetric) gradient is not the
# derivative: tests/test_ops_matrix.c checks it through A -> (A + A^T) / 2
cs.add("linalg_eigvalsh", g(sym(4)), gradcheck=False)
cs.add("linalg_eigvalsh", g(sym(2, 3)), "U")
cs.add("linalg_eigvalsh", g(sym(5).t()))
cs.add("linalg_eigvalsh", g(rn(3, 3)), "L")                          # only the lower triangle is read
cs.add("linalg_eigvalsh", g(rn(3, 3)), "u")                          # only the upper one; either case
cs.add("linalg_eigvalsh", sym(2, 6, dtype=f32))
cs.add("linalg_eigvalsh", g(rn(1, 1)))
cs.add("linalg_eigvalsh", sym(3) * 1e250)                           # scaled: no overflow
cs.add("linalg_eigvalsh", g(rn(0, 0)))
cs.add("linalg_eigvalsh", g(rn(2, 0, 0)))
cs.add("linalg_eigvalsh", torch.tensor([[float("inf"), 1], [1, 1]], dtype=torch.float64))  # NaN
cs.error("linalg_eigvalsh", sym(3), "X", code="CT_ERR_INVALID")
cs.error("linalg_eigvalsh", sym(3), "LU", code="CT_ERR_INVALID")
cs.error("linalg_eigvalsh", cs.randint(-3, 3, 3, 3), code="CT_ERR_DTYPE")
cs.error("linalg_eigvalsh", sym(3, dtype=f16), code="CT_ERR_DTYPE")
cs.error("linalg_eigvalsh", rn(2, 3), code="CT_ERR_SHAPE")
cs.error("linalg_eigvalsh", rn(3), code="CT_ERR_RANK")
cs.add("linalg_eigvalsh.out", sym(2, 3), "U", out=torch.empty(0, dtype=torch.float64))

# ---- linalg_eigh: eigenvectors have no unique sign; ctorch makes each one's largest |component|
# positive, so the reference applies the same convention to PyTorch's ----
def eigh_ref(A, UPLO="L"):
    L, V = torch.linalg.eigh(A, UPLO)
    if V.numel() == 0:
        return L, V
    s = torch.sign(V.gather(-2, V.abs().argmax(-2, keepdim=True)))
    return L, V * s


vec_ref = lambda A, UPLO="L": eigh_ref(A, UPLO)[1]  # noqa: E731
cs.add("_linalg_eigh_vectors", g(sym(4)), ref=vec_ref, gradcheck=False)  # (symmetric gradient: see eigvalsh)
cs.add("_linalg_eigh_vectors", g(sym(2, 3)), "U", ref=vec_ref)
cs.add("_linalg_eigh_vectors", g(rn(3, 3)), ref=vec_ref)
cs.add("_linalg_eigh_vectors", sym(5, dtype=f32), ref=vec_ref)
cs.add("_linalg_eigh_vectors", g(rn(0, 0)), ref=vec_ref)
cs.error("_linalg_eigh_vectors", sym(3), "X", ref=vec_ref, code="CT_ERR_INVALID")
cs.add("linalg_eigh", g(sym(4)), ref=eigh_ref, gradcheck=False)
cs.add("linalg_eigh", g(sym(2, 3)), "U", ref=eigh_ref)
cs.add("linalg_eigh", sym(3, dtype=f32), ref=eigh_ref)
cs.error("linalg_eigh", cs.randint(-3, 3, 3, 3), code="CT_ERR_DTYPE")
cs.error("linalg_eigh", rn(2, 3), code="CT_ERR_SHAPE")
cs.add("linalg_eigh.eigvals", sym(3), eigvals=torch.empty(0, dtype=torch.float64), eigvecs=torch.empty(0, dtype=torch.float64),
       ref=lambda A, eigvals, eigvecs: eigh_ref(A))

# ---- linalg_qr: Householder with LAPACK's signs, so Q and R are PyTorch's exactly ----
qr_Q = lambda A, mode="reduced": torch.linalg.qr(A, mode).Q  # noqa: E731
qr_R = lambda A, mode="reduced": torch.linalg.qr(A, mode).R  # noqa: E731
cs.add("_linalg_qr_Q", g(rn(4, 3)), ref=qr_Q)
cs.add("_linalg_qr_Q", g(rn(3, 5)), ref=qr_Q)                       # wide
cs.add("_linalg_qr_Q", g(rn(2, 3, 3)), ref=qr_Q)
cs.add("_linalg_qr_Q", g(rn(3, 4).t()), ref=qr_Q)
cs.add("_linalg_qr_Q", g(rn(3, 3)), "complete", ref=qr_Q)
cs.add("_linalg_qr_Q", g(rn(2, 4)), "complete", ref=qr_Q)
cs.add("_linalg_qr_Q", rn(5, 3), "complete", ref=qr_Q)               # (not differentiable: m > n)
cs.add("_linalg_qr_Q", rn(5, 3), "r", ref=qr_Q)                      # empty
cs.add("_linalg_qr_Q", rn(2, 5, 4, dtype=f32), ref=qr_Q)
cs.add("_linalg_qr_Q", torch.tensor([[0., 1], [0, 2]], dtype=torch.float64), ref=qr_Q)  # zero columns: identity reflectors
cs.add("_linalg_qr_Q", g(rn(0, 3)), ref=qr_Q)
cs.add("_linalg_qr_Q", g(rn(3, 0)), ref=qr_Q)
cs.error("_linalg_qr_Q", rn(3, 3), "X", ref=qr_Q, code="CT_ERR_INVALID")
cs.add("_linalg_qr_R", g(rn(4, 3)), ref=qr_R)
cs.add("_linalg_qr_R", g(rn(3, 5)), ref=qr_R)
cs.add("_linalg_qr_R", g(rn(2, 3, 3)), ref=qr_R)
cs.add("_linalg_qr_R", g(rn(2, 4)), "complete", ref=qr_R)
cs.add("_linalg_qr_R", rn(5, 3), "complete", ref=qr_R)
cs.add("_linalg_qr_R", rn(5, 3), "r", ref=qr_R)
cs.add("_linalg_qr_R", rn(3, 4, dtype=f32), ref=qr_R)
cs.add("_linalg_qr_R", g(rn(0, 3)), ref=qr_R)
cs.add("linalg_qr", g(rn(4, 3)))
cs.add("linalg_qr", g(rn(2, 3, 5)))
cs.add("linalg_qr", rn(4, 3), "complete")
cs.add("linalg_qr", rn(4, 3), "r")
cs.error("linalg_qr", cs.randint(-3, 3, 3, 3), code="CT_ERR_DTYPE")
cs.error("linalg_qr", rn(3, 3, dtype=f16), code="CT_ERR_DTYPE")
cs.error("linalg_qr", rn(3), code="CT_ERR_RANK")
cs.error("linalg_qr", rn(3, 3), "X", code="CT_ERR_INVALID")
cs.add("linalg_qr.out", rn(4, 3), Q=torch.empty(0, dtype=torch.float64), R=torch.empty(0, dtype=torch.float64))

# ---- linalg_svd: singular vectors have no unique sign; ctorch makes the largest |component| of each
# column of U (tall or square A) or row of Vh (wide A) positive; the reference does the same to
# PyTorch's. With full_matrices and m != n the completion is arbitrary: tests/test_ops_matrix.c ----
def svd_ref(A, full_matrices=True):
    U, S, Vh = torch.linalg.svd(A, full_matrices=full_matrices)
    m, n = A.shape[-2:]
    k = min(m, n)
    if k == 0:
        return U, S, Vh
    if m >= n:
        key = U[..., :, :k]
        s = torch.sign(key.gather(-2, key.abs().argmax(-2, keepdim=True)))             # (*, 1, k)
    else:
        key = Vh[..., :k, :]
        s = torch.sign(key.gather(-1, key.abs().argmax(-1, keepdim=True))).transpose(-2, -1)  # (*, 1, k)
    U = torch.cat([U[..., :, :k] * s, U[..., :, k:]], -1)
    Vh = torch.cat([Vh[..., :k, :] * s.transpose(-2, -1), Vh[..., k:, :]], -2)
    return U, S, Vh


svd_U = lambda A, full_matrices=True: svd_ref(A, full_matrices)[0]  # noqa: E731
svd_Vh = lambda A, full_matrices=True: svd_ref(A, full_matrices)[2]  # noqa: E731
cs.add("_linalg_svd_U", g(rn(4, 3)), False, ref=svd_U)
cs.add("_linalg_svd_U", g(rn(3, 5)), False, ref=svd_U)
cs.add("_linalg_svd_U", g(rn(2, 3, 3)), ref=svd_U)
cs.add("_linalg_svd_U", g(rn(3, 4).t()), False, ref=svd_U)
cs.add("_linalg_svd_U", rn(2, 5, 4, dtype=f32), False, ref=svd_U)
cs.add("_linalg_svd_U", g(rn(0, 3)), False, ref=svd_U)
cs.add("_linalg_svd_Vh", g(rn(4, 3)), False, ref=svd_Vh)
cs.add("_linalg_svd_Vh", g(rn(3, 5)), False, ref=svd_Vh)
cs.add("_linalg_svd_Vh", g(rn(2, 3, 3)), ref=svd_Vh)
cs.add("_linalg_svd_Vh", rn(4, 6, dtype=f32), False, ref=svd_Vh)
cs.add("_linalg_svd_Vh", g(rn(3, 0)), False, ref=svd_Vh)
cs.error("_linalg_svd_Vh", torch.tensor([[float("nan"), 1], [1, 1]], dtype=torch.float64), ref=svd_Vh, code="CT_ERR_INVALID")
cs.add("linalg_svd", g(rn(3, 3)), ref=svd_ref)
cs.add("linalg_svd", g(rn(2, 4, 3)), False, ref=svd_ref)
cs.add("linalg_svd", rn(3, 5, dtype=f32), False, ref=svd_ref)
cs.error("linalg_svd", rn(3, 3), driver="gesvd", code="CT_ERR_INVALID")
cs.error("linalg_svd", cs.randint(-3, 3, 3, 3), code="CT_ERR_DTYPE")
cs.error("linalg_svd", rn(3), code="CT_ERR_RANK")
cs.add("linalg_svd.U", rn(3, 3), U=torch.empty(0, dtype=torch.float64), S=torch.empty(0, dtype=torch.float64),
       Vh=torch.empty(0, dtype=torch.float64), ref=lambda A, U, S, Vh: svd_ref(A))

# ---- linalg_pinv ----
cs.add("linalg_pinv.atol_rtol_tensor", g(rn(4, 3)))
cs.add("linalg_pinv.atol_rtol_tensor", g(rn(2, 3, 5)))
cs.add("linalg_pinv.atol_rtol_tensor", g(rn(3, 3).t()))
cs.add("linalg_pinv.atol_rtol_tensor", g(sym(4)), hermitian=True)
cs.add("linalg_pinv.atol_rtol_tensor", g(torch.tensor([[1., 2, 3], [2, 4, 6], [1, 0, 1], [0, 1, 1]], dtype=torch.float64)))  # rank 2 of 3... full
cs.add("linalg_pinv.atol_rtol_tensor", g(torch.tensor([[1., 2], [2, 4], [3, 6]], dtype=torch.float64)))  # rank 1: the cut-off
cs.add("linalg_pinv.atol_rtol_tensor", rn(3, 4), atol=torch.tensor(0.5, dtype=torch.float64))
cs.add("linalg_pinv.atol_rtol_tensor", rn(2, 3, 4), rtol=torch.tensor(0.3, dtype=torch.float64))
cs.add("linalg_pinv.atol_rtol_tensor", rn(3, 3, dtype=f32))
cs.add("linalg_pinv.atol_rtol_tensor", g(rn(0, 3)))
cs.add("linalg_pinv.atol_rtol_tensor", g(rn(2, 3, 0)))
cs.error("linalg_pinv.atol_rtol_tensor", cs.randint(-3, 3, 3, 3), code="CT_ERR_DTYPE")
cs.error("linalg_pinv.atol_rtol_tensor", rn(3, 3, dtype=f16), code="CT_ERR_DTYPE")
cs.error("linalg_pinv.atol_rtol_tensor", rn(3), code="CT_ERR_RANK")
cs.add("linalg_pinv.atol_rtol_tensor_out", rn(3, 2), out=torch.empty(0, dtype=torch.float64))
cs.add("linalg_pinv.atol_rtol_float", g(rn(3, 4)))
cs.add("linalg_pinv.atol_rtol_float", rn(3, 4), atol=0.4, rtol=0.1)
cs.add("linalg_pinv.atol_rtol_float", rn(4, 4), rtol=0.5, hermitian=True)
cs.add("linalg_pinv.atol_rtol_float_out", rn(3, 2), atol=0.1, out=torch.empty(0, dtype=torch.float64))
cs.add("linalg_pinv", g(rn(3, 5)), 0.2)
cs.add("linalg_pinv", sym(3), 0.1, True)
cs.add("linalg_pinv.out", rn(3, 5), 0.2, out=torch.empty(0, dtype=torch.float64))
# (opcheck's gradcheck would differentiate rcond too, which has no derivative, as in PyTorch)
cs.add("linalg_pinv.rcond_tensor", g(rn(2, 3, 3)), torch.tensor(0.3, dtype=torch.float64), gradcheck=False)
cs.add("linalg_pinv.out_rcond_tensor", rn(3, 3), torch.tensor(0.1, dtype=torch.float64), out=torch.empty(0, dtype=torch.float64))

# ---- svd (deprecated torch.svd) ----
def tsvd_ref(A, some=True, compute_uv=True):
    if not compute_uv:
        return torch.svd(A, some, False)
    U, S, Vh = svd_ref(A, not some)
    return U, S, Vh.transpose(-2, -1)


cs.add("svd", g(rn(4, 3)), ref=tsvd_ref)
cs.add("svd", g(rn(2, 3, 5)), ref=tsvd_ref)
cs.add("svd", g(rn(3, 3)), False, ref=tsvd_ref)
cs.add("svd", rn(4, 3), True, False, ref=tsvd_ref)
cs.add("svd", rn(3, 5, dtype=f32), ref=tsvd_ref)
cs.error("svd", rn(3), code="CT_ERR_RANK")
cs.add("svd.U", rn(3, 2), U=torch.empty(0, dtype=torch.float64), S=torch.empty(0, dtype=torch.float64),
       V=torch.empty(0, dtype=torch.float64), ref=lambda A, U, S, V: tsvd_ref(A))

# ---- linalg_lstsq ----
cs.add("linalg_lstsq", g(rn(5, 3)), g(rn(5, 2)))
cs.add("linalg_lstsq", g(rn(5, 3)), g(rn(5, 2)), driver="gelsd")
cs.add("linalg_lstsq", g(rn(5, 3)), g(rn(5, 2)), driver="gelss")
cs.add("linalg_lstsq", g(rn(5, 3)), g(rn(5, 2)), driver="gels")
cs.add("linalg_lstsq", g(rn(5, 3)), g(rn(5, 2)), driver="gelsy")
cs.add("linalg_lstsq", g(rn(3, 5)), g(rn(3, 2)), driver="gelsd")    # underdetermined: the least-norm solution
cs.add("linalg_lstsq", rn(2, 5, 3), rn(2, 5), driver="gelsd")  # vectors (PyTorch 1.13's backward fails for them)
cs.add("linalg_lstsq", rn(5, 3), rn(5))
cs.add("linalg_lstsq", g(rn(1, 5, 3)), g(rn(3, 5, 2)), driver="gelsd")  # broadcast batch; rank and values: A's
cs.add("linalg_lstsq", g(rn(3, 5).t()), g(rn(5, 2)))                   # transposed A
cs.add("linalg_lstsq", rn(5, 3), rn(5, 2), 0.5, driver="gelsd")       # rcond: rank 3 or less
cs.add("linalg_lstsq", torch.ones(4, 3, dtype=torch.float64), rn(4, 2), driver="gelsd")  # rank 1: no residuals
cs.add("linalg_lstsq", rn(6, 4, dtype=f32), rn(6, 3, dtype=f32), driver="gelsd")
cs.add("linalg_lstsq", rn(0, 3), rn(0, 2))
cs.error("linalg_lstsq", rn(5, 3), rn(4, 2), code="CT_ERR_SHAPE")
cs.error("linalg_lstsq", rn(2, 5, 3), rn(5, 2), code="CT_ERR_SHAPE")
cs.error("linalg_lstsq", rn(5, 3), rn(1, 1, 5, 2), code="CT_ERR_RANK")
cs.error("linalg_lstsq", rn(3), rn(3), code="CT_ERR_RANK")
cs.error("linalg_lstsq", rn(5, 3), rn(5, 2, dtype=f32), code="CT_ERR_DTYPE")
cs.error("linalg_lstsq", cs.randint(-3, 3, 5, 3), cs.randint(-3, 3, 5, 2), code="CT_ERR_DTYPE")
cs.error("linalg_lstsq", rn(5, 3), rn(5, 2), driver="xx", code="CT_ERR_INVALID")
cs.add("linalg_lstsq.out", rn(5, 3), rn(5, 2), driver="gelsd", solution=torch.empty(0, dtype=torch.float64),
       residuals=torch.empty(0, dtype=torch.float64), rank=torch.empty(0, dtype=i64), singular_values=torch.empty(0, dtype=torch.float64))

cs.write()
