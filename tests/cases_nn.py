#!/usr/bin/python3
"""tests/cases_nn.py - PyTorch fixture cases of gen/ops/nn.spec (softmax family,
losses, normalisation): `/usr/bin/python3 tests/cases_nn.py` writes
tests/fixtures/cases_nn.h (tests/opcases.py; run by tests/test_opcases.c).

Loss weights get gradients in ctorch but not in PyTorch: they never require
grad here (the C side's gradcheck still differentiates them). batch_norm's
running stats are not differentiable: its eval cases skip gradcheck.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch
import torch.nn.functional as F
import opcases

cs = opcases.Cases("nn")
g = cs.gen
D, S, H = torch.float64, torch.float32, torch.bfloat16


def rn(*shape, dtype=D, grad=True, lo=None, hi=None):
    if lo is not None:
        t = (torch.rand(*shape, dtype=torch.float64, generator=g) * (hi - lo) + lo).to(dtype)
    else:
        t = torch.randn(*shape, dtype=torch.float64, generator=g).to(dtype)
    return t.requires_grad_() if grad and dtype.is_floating_point else t


def idx(*shape, n, ignore=None):
    t = torch.randint(0, n, shape, generator=g)
    if ignore is not None and t.numel() > 1:
        t.view(-1)[0] = ignore
    return t


# ---- softmax / log_softmax ----
for op in ("softmax.int", "log_softmax.int"):
    cs.add(op, rn(3, 4), 1)
    cs.add(op, rn(3, 4), 0)
    cs.add(op, rn(2, 3, 4), -1)
    cs.add(op, rn(2, 3, 4), 1)
    cs.add(op, rn(4, 3).t(), 1)                        # non-contiguous
    cs.add(op, rn(2, 6)[:, ::2], 0)                     # strided
    cs.add(op, rn(3, 1).expand(3, 4), 1)                # broadcast (stride 0)
    cs.add(op, rn(()), 0)                               # 0-dim
    cs.add(op, rn(2, 0), 1)                             # zero-size dim
    cs.add(op, rn(0, 3), 1)
    cs.add(op, rn(3, 4) * 300, 1)                       # stable: large logits
    cs.add(op, rn(3, 4, dtype=S), 1)
    cs.add(op, rn(3, 4, dtype=S), 1, dtype=D)           # dtype casts first
    cs.add(op, torch.randint(0, 5, (2, 3), generator=g), 1, dtype=S)
    cs.add(op, rn(3, 4, dtype=H), 1)
    cs.add(op, rn(3, 4, dtype=torch.float16), 1)       # f16: f32 reference (no CPU Half kernel in torch 1.13)
    cs.add(op, torch.tensor([[-math.inf, -math.inf], [0.0, 1.0]], dtype=D), 1)   # an all -inf row gives nan
    cs.error(op, torch.randint(0, 5, (2, 3), generator=g), 1, code="CT_ERR_DTYPE")
    cs.error(op, rn(3, 4), 2, code="CT_ERR_INDEX")
    cs.error(op, rn(3, 4), -3, code="CT_ERR_INDEX")

# ---- nll_loss ----
for red in (0, 1, 2):
    cs.add("nll_loss", rn(5, 4), idx(5, n=4), None, red)
    cs.add("nll_loss", rn(5, 4), idx(5, n=4), rn(4, grad=False, lo=0.2, hi=2), red)
    cs.add("nll_loss", rn(5, 4), idx(5, n=4, ignore=1), rn(4, grad=False, lo=0.2, hi=2), red, ignore_index=1)
    cs.add("nll_loss", rn(4), torch.tensor(2), None, red)                         # 1-D input, 0-dim target
    cs.add("nll_loss", rn(2, 3, 4), idx(2, 4, n=3), rn(3, grad=False, lo=0.2, hi=2), red,
           ref=lambda x, t, w, r: F.nll_loss(x, t, w, reduction=["none", "mean", "sum"][r]))   # N-D
    cs.add("nll_loss", rn(2, 3, 2, 2), idx(2, 2, 2, n=3, ignore=-100), None, red,
           ref=lambda x, t, w, r: F.nll_loss(x, t, w, reduction=["none", "mean", "sum"][r]))
cs.add("nll_loss", rn(4, 5).t(), idx(5, n=4))                                     # non-contiguous
cs.add("nll_loss", rn(5, 4, dtype=S), idx(5, n=4), rn(4, dtype=S, grad=False, lo=0.5, hi=1))
cs.add("nll_loss", rn(5, 4, dtype=H), idx(5, n=4))
cs.add("nll_loss", rn(5, 4, dtype=torch.float16), idx(5, n=4), rn(4, dtype=torch.float16, grad=False, lo=0.5, hi=1))
cs.add("nll_loss", rn(3, 4), torch.full((3,), -100), gradcheck=False)               # all ignored: nan
cs.add("nll_loss", rn(0, 4), idx(0, n=4), gradcheck=False)                          # empty mean: nan
cs.add("nll_loss", rn(0, 4), idx(0, n=4), None, 0)
cs.error("nll_loss", rn(3, 4), idx(3, n=4).int(), code="CT_ERR_DTYPE")
cs.error("nll_loss", rn(3, 4), idx(3, n=4).double(), code="CT_ERR_DTYPE")
cs.error("nll_loss", rn(3, 4), torch.tensor([0, 4, 1]), code="CT_ERR_INDEX")
cs.error("nll_loss", rn(3, 4), torch.tensor([0, -1, 1]), code="CT_ERR_INDEX")
cs.error("nll_loss", rn(3, 4), idx(2, n=4), code="CT_ERR_SHAPE")
cs.error("nll_loss", rn(3, 4), idx(3, n=4), rn(3, grad=False), code="CT_ERR_SHAPE")
cs.error("nll_loss", rn(()), torch.tensor(0), code="CT_ERR_RANK")
cs.error("nll_loss", torch.ones(3, 4, dtype=torch.long), idx(3, n=4), code="CT_ERR_DTYPE")
cs.add("nll_loss_nd", rn(2, 3, 4), idx(2, 4, n=3, ignore=-100), rn(3, grad=False, lo=0.2, hi=2), 1)
cs.add("nll_loss_nd", rn(2, 3, 2, 2), idx(2, 2, 2, n=3), None, 0)
cs.add("nll_loss_nd", rn(5, 4), idx(5, n=4), None, 2)
cs.error("nll_loss_nd", rn(2, 3, 4), idx(2, 5, n=3), code="CT_ERR_SHAPE")
go = rn(5, grad=True)
cs.add("nll_loss_backward", go, rn(5, 4), idx(5, n=4), None, 0, -100, torch.tensor(5.0, dtype=D))
cs.add("nll_loss_backward", rn((), grad=True), rn(5, 4), idx(5, n=4, ignore=2), rn(4, grad=False, lo=0.5, hi=1), 1, 2,
       torch.tensor(2.5, dtype=D))

# ---- cross_entropy_loss ----
for red in (0, 1, 2):
    cs.add("cross_entropy_loss", rn(5, 4), idx(5, n=4), None, red)
    cs.add("cross_entropy_loss", rn(5, 4), idx(5, n=4, ignore=3), rn(4, grad=False, lo=0.2, hi=2), red, 3)
    cs.add("cross_entropy_loss", rn(5, 4), idx(5, n=4, ignore=-100), rn(4, grad=False, lo=0.2, hi=2), red, -100, 0.2)
    cs.add("cross_entropy_loss", rn(5, 4), idx(5, n=4), None, red, -100, 0.1)
    cs.add("cross_entropy_loss", rn(5, 4), torch.softmax(rn(5, 4, grad=False), 1).requires_grad_(), None, red)   # probabilities
    cs.add("cross_entropy_loss", rn(5, 4), torch.softmax(rn(5, 4, grad=False), 1), rn(4, grad=False, lo=0.2, hi=2), red, -100, 0.3)
    cs.add("cross_entropy_loss", rn(2, 3, 4), idx(2, 4, n=3, ignore=-100), None, red, -100, 0.2)    # N-D
    cs.add("cross_entropy_loss", rn(4), torch.tensor(1), None, red)                               # 1-D
cs.add("cross_entropy_loss", rn(4, 5).t(), idx(5, n=4))
cs.add("cross_entropy_loss", rn(5, 4, dtype=S), idx(5, n=4))
cs.add("cross_entropy_loss", rn(0, 4), torch.rand(0, 4, dtype=D, generator=g), gradcheck=False)     # empty mean: nan
cs.error("cross_entropy_loss", rn(5, 4), idx(5, n=4), None, 1, -100, 1.5, code="CT_ERR_INVALID")
cs.error("cross_entropy_loss", rn(5, 4), torch.rand(5, 4, dtype=D, generator=g), None, 1, 1, code="CT_ERR_INVALID")
cs.error("cross_entropy_loss", rn(5, 4), torch.ones(5, 4, dtype=torch.long), code="CT_ERR_DTYPE")
cs.error("cross_entropy_loss", rn(5, 4), idx(5, n=4).int(), code="CT_ERR_DTYPE")
cs.error("cross_entropy_loss", rn(5, 4), idx(3, n=4), code="CT_ERR_SHAPE")
cs.error("cross_entropy_loss", rn(5, 4), torch.tensor([0, 1, 2, 3, 4]), code="CT_ERR_INDEX")
cs.error("cross_entropy_loss", torch.ones(5, 4, dtype=torch.long), idx(5, n=4), code="CT_ERR_DTYPE")

# ---- pointwise losses ----
for red in (0, 1, 2):
    cs.add("mse_loss", rn(3, 4), rn(3, 4), red)
    cs.add("l1_loss", rn(3, 4), rn(3, 4), red)
    for beta in (1.0, 0.5, 0.0):
        cs.add("smooth_l1_loss", rn(3, 4), rn(3, 4), red, beta)
    cs.add("kl_div", rn(3, 4), rn(3, 4, lo=0.05, hi=1), red)
    cs.add("kl_div", rn(3, 4), rn(3, 4), red, log_target=True)
cs.add("mse_loss", rn(4, 3).t(), rn(3, 1), 0)                     # broadcast target, non-contiguous
cs.add("mse_loss", rn(3, 4, dtype=S), rn(3, 4, dtype=S))
cs.add("mse_loss", rn(3, 4, dtype=S, grad=False), rn(3, 4, grad=False))  # promotes to double (torch cannot differentiate it)
cs.add("mse_loss", rn(()), rn(()))
cs.add("mse_loss", rn(0, 3), rn(0, 3), gradcheck=False)            # empty mean: nan
for red in (0, 1, 2):                                              # its derivative (double backward of mse_loss)
    cs.add("mse_loss_backward", rn(3, 4) if red == 0 else rn(()), rn(3, 4), rn(3, 4), red)
# broadcast target: norm over the broadcast numel (aten's double backward uses target.numel() for target's
# gradient, which differs; mse_loss itself never reaches it with unequal shapes: F.mse_loss expands them first)
cs.add("mse_loss_backward", rn(()), rn(4, 3).t(), rn(3, 1, grad=False), 1)
cs.add("mse_loss_backward", rn((), dtype=S), rn(2, 3, dtype=S), rn(2, 3, dtype=S), 1)
cs.add("l1_loss", rn(3, 4), rn(4), 2)
cs.add("l1_loss", torch.randint(0, 5, (3,), generator=g), torch.randint(0, 5, (3,), generator=g), 2)
cs.add("l1_loss", torch.tensor([1, 5, 200], dtype=torch.uint8), torch.tensor([3, 2, 250], dtype=torch.uint8), 0)  # wraps like torch
cs.add("smooth_l1_loss", rn(2, 3), rn(3), 0, 2.0)
cs.add("kl_div", rn(2, 3), torch.tensor([0.0, 0.5, 1.0], dtype=D), 0)    # xlogy(0, 0) = 0
cs.error("mse_loss", torch.ones(3, dtype=torch.long), torch.ones(3, dtype=torch.long), code="CT_ERR_DTYPE")
cs.error("mse_loss", rn(3), rn(4), code="CT_ERR_SHAPE")
cs.error("l1_loss", rn(3), rn(2), code="CT_ERR_SHAPE")
cs.error("smooth_l1_loss", rn(3), rn(3), 1, -1.0, code="CT_ERR_INVALID")
cs.error("smooth_l1_loss", torch.ones(3, dtype=torch.long), torch.ones(3, dtype=torch.long), code="CT_ERR_DTYPE")
cs.error("kl_div", torch.ones(3, dtype=torch.long), torch.ones(3, dtype=torch.long), code="CT_ERR_DTYPE")

# ---- binary cross entropy ----
for red in (0, 1, 2):
    cs.add("binary_cross_entropy", rn(3, 4, lo=0.02, hi=0.98), rn(3, 4, lo=0, hi=1), None, red)
    cs.add("binary_cross_entropy", rn(3, 4, lo=0.02, hi=0.98), rn(3, 4, lo=0, hi=1), rn(4, grad=False, lo=0.5, hi=2), red)
    cs.add("binary_cross_entropy_with_logits", rn(3, 4), rn(3, 4, lo=0, hi=1), None, None, red)
    cs.add("binary_cross_entropy_with_logits", rn(3, 4), rn(3, 4, lo=0, hi=1), rn(3, 1, grad=False, lo=0.5, hi=2),
           rn(4, grad=False, lo=0.5, hi=3), red)
cs.add("binary_cross_entropy", torch.tensor([0.0, 1.0, 0.0, 1.0], dtype=D), torch.tensor([0.0, 1.0, 1.0, 0.0], dtype=D), None, 0)  # clamp -100
cs.add("binary_cross_entropy", rn(4, 3, lo=0.1, hi=0.9).t(), rn(3, 4, lo=0, hi=1), None, 1)
cs.add("binary_cross_entropy", rn(3, 4, dtype=S, lo=0.1, hi=0.9), rn(3, 4, dtype=S, lo=0, hi=1))
cs.add("binary_cross_entropy_with_logits", rn(4) * 100, rn(4, lo=0, hi=1), None, None, 0)               # stable
cs.add("binary_cross_entropy_with_logits", rn(4, 3).t(), rn(3, 4, lo=0, hi=1), None, rn(4, grad=False, lo=1, hi=2), 1)
cs.add("binary_cross_entropy_with_logits", rn(3, 4, dtype=S), rn(3, 4, dtype=S, lo=0, hi=1))
cs.add("binary_cross_entropy_with_logits", rn(3, 4, dtype=H), rn(3, 4, dtype=H, lo=0, hi=1))
cs.add("binary_cross_entropy_with_logits", rn(0, 4), rn(0, 4, lo=0, hi=1), gradcheck=False)
cs.error("binary_cross_entropy", torch.tensor([1.5], dtype=D), torch.tensor([1.0], dtype=D), code="CT_ERR_INVALID")
cs.error("binary_cross_entropy", rn(3, lo=0, hi=1), rn(2, lo=0, hi=1), code="CT_ERR_SHAPE")
cs.error("binary_cross_entropy", rn(3, lo=0, hi=1), rn(3, lo=0, hi=1, dtype=S), code="CT_ERR_DTYPE")
cs.error("binary_cross_entropy", torch.ones(3, dtype=torch.long), torch.ones(3, dtype=torch.long), code="CT_ERR_DTYPE")
cs.error("binary_cross_entropy_with_logits", rn(3), rn(2, 1), code="CT_ERR_SHAPE")

# ---- normalisation ----
cs.add("layer_norm", rn(3, 4), [4], rn(4), rn(4))
cs.add("layer_norm", rn(2, 3, 4), [3, 4], rn(3, 4), rn(3, 4), 1e-3)
cs.add("layer_norm", rn(2, 3, 4), [4])
cs.add("layer_norm", rn(4, 3).t(), [4], rn(4), None)
cs.add("layer_norm", rn(0, 4), [4], rn(4), rn(4))
cs.add("layer_norm", rn(3, 4, dtype=S), [4], rn(4, dtype=S), rn(4, dtype=S))
cs.add("layer_norm", rn(3, 4, dtype=H), [4], rn(4, dtype=H), rn(4, dtype=H))
cs.add("layer_norm", rn(3, 4, dtype=torch.float16), [4], rn(4, dtype=torch.float16), rn(4, dtype=torch.float16))
cs.error("layer_norm", rn(3, 4), [3], code="CT_ERR_SHAPE")
cs.error("layer_norm", rn(3, 4), [4], rn(3), code="CT_ERR_SHAPE")
cs.error("layer_norm", rn(3, 4), [], code="CT_ERR_SHAPE")
cs.error("layer_norm", torch.ones(3, 4, dtype=torch.long), [4], code="CT_ERR_DTYPE")

cs.add("group_norm", rn(2, 4, 3), 2, rn(4), rn(4))
cs.add("group_norm", rn(2, 6, 2, 2), 3, rn(6), None, 1e-3)
cs.add("group_norm", rn(3, 4), 4)
cs.add("group_norm", rn(3, 4, 2).transpose(0, 2), 1, rn(4), rn(4))
cs.add("group_norm", rn(2, 4, 3, dtype=S), 2, rn(4, dtype=S), rn(4, dtype=S))
cs.add("group_norm", rn(2, 4, 3, dtype=H), 2, rn(4, dtype=H), rn(4, dtype=H))
cs.add("group_norm", rn(0, 4, 3), 2, rn(4), rn(4))
cs.error("group_norm", rn(2, 3, 4), 2, code="CT_ERR_SHAPE")
cs.error("group_norm", rn(2, 4, 4), 2, rn(3), code="CT_ERR_SHAPE")
cs.error("group_norm", rn(4), 2, code="CT_ERR_RANK")

# training: running stats updated in place (momentum, unbiased variance)
cs.add("batch_norm", rn(5, 3), rn(3), rn(3), torch.zeros(3, dtype=D), torch.ones(3, dtype=D), True, 0.1, 1e-5, False)
cs.add("batch_norm", rn(2, 3, 4), None, None, torch.rand(3, dtype=D, generator=g), torch.rand(3, dtype=D, generator=g) + 0.5,
       True, 0.3, 1e-5, False)
cs.add("batch_norm", rn(2, 3, 2, 2), rn(3), rn(3), None, None, True, 0.1, 1e-3, False)
cs.add("batch_norm", rn(3, 5).t(), rn(3), None, None, None, True, 0.1, 1e-5, False)
cs.add("batch_norm", rn(4, 3, dtype=S), rn(3, dtype=S), rn(3, dtype=S), torch.zeros(3), torch.ones(3), True, 0.1, 1e-5, False)
# eval: the running stats normalise (they are constants: no gradcheck)
cs.add("batch_norm", rn(4, 3), rn(3), rn(3), torch.rand(3, dtype=D, generator=g), torch.rand(3, dtype=D, generator=g) + 0.5,
       False, 0.1, 1e-5, False, gradcheck=False)
cs.add("batch_norm", rn(2, 3, 4), None, rn(3), torch.rand(3, dtype=D, generator=g), torch.rand(3, dtype=D, generator=g) + 0.5,
       False, 0.1, 1e-5, False, gradcheck=False)
cs.error("batch_norm", rn(4, 3), None, None, None, None, False, 0.1, 1e-5, False, code="CT_ERR_INVALID")
cs.error("batch_norm", rn(4, 3), rn(2), None, None, None, True, 0.1, 1e-5, False, code="CT_ERR_SHAPE")
cs.error("batch_norm", torch.ones(4, 3, dtype=torch.long), None, None, None, None, True, 0.1, 1e-5, False, code="CT_ERR_DTYPE")


# rms_norm: torch 2.x semantics, written out (PyTorch 1.13 has no rms_norm)
def rms_norm_ref(x, shape, weight=None, eps=None):
    if len(shape) == 0 or list(x.shape[x.dim() - len(shape):]) != list(shape):
        raise RuntimeError("Given normalized_shape=%s, expected input with shape [*, ...], but got input of size%s" % (shape, list(x.shape)))
    dims = tuple(range(x.dim() - len(shape), x.dim()))
    opmath = torch.float64 if x.dtype == torch.float64 else torch.float32
    if eps is None:
        eps = torch.finfo(opmath).eps
    xu = x.to(opmath)
    y = (xu * torch.rsqrt(xu.pow(2).mean(dims, keepdim=True) + eps)).to(x.dtype)
    return y * weight if weight is not None else y


cs.add("rms_norm", rn(3, 4), [4], rn(4), ref=rms_norm_ref)
cs.add("rms_norm", rn(2, 3, 4), [3, 4], None, 1e-3, ref=rms_norm_ref)
cs.add("rms_norm", rn(4, 3).t(), [4], rn(4), ref=rms_norm_ref)
cs.add("rms_norm", rn(3, 4, dtype=S), [4], rn(4, dtype=S), ref=rms_norm_ref)
cs.add("rms_norm", rn(3, 4, dtype=H), [4], None, ref=rms_norm_ref)
cs.error("rms_norm", rn(3, 4), [3], code="CT_ERR_SHAPE", torch_raises=False)  # no aten rms_norm in 1.13


# scaled_dot_product_attention: PyTorch 2.x's math path written out (1.13 has none)
def sdpa_ref(q, k, v, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None):
    L, S = q.size(-2), k.size(-2)
    s = 1.0 / math.sqrt(q.size(-1)) if scale is None else scale
    attn = q @ k.transpose(-2, -1) * s
    if is_causal:
        attn = attn.masked_fill(~torch.ones(L, S, dtype=torch.bool).tril(), float("-inf"))
    if attn_mask is not None:
        attn = attn.masked_fill(~attn_mask, float("-inf")) if attn_mask.dtype == torch.bool else attn + attn_mask
    return torch.softmax(attn, -1) @ v


cs.add("scaled_dot_product_attention", rn(3, 4), rn(5, 4), rn(5, 2), ref=sdpa_ref)
cs.add("scaled_dot_product_attention", rn(2, 3, 4), rn(2, 5, 4), rn(2, 5, 3), None, 0.0, False, scale=0.3, ref=sdpa_ref)
cs.add("scaled_dot_product_attention", rn(2, 2, 4, 3), rn(2, 2, 4, 3), rn(2, 2, 4, 3), None, 0.0, True, ref=sdpa_ref)
cs.add("scaled_dot_product_attention", rn(2, 3, 4), rn(5, 4, grad=False).expand(2, 5, 4), rn(2, 5, 2),
       torch.tensor([[True, False, True, True, False]] * 3), ref=sdpa_ref)
cs.add("scaled_dot_product_attention", rn(1, 3, 4), rn(1, 4, 4), rn(1, 4, 2), rn(3, 4, grad=False), ref=sdpa_ref)
cs.add("scaled_dot_product_attention", rn(3, 4, dtype=S), rn(5, 4, dtype=S), rn(5, 2, dtype=S), None, 0.0, True, ref=sdpa_ref)
cs.add("scaled_dot_product_attention", rn(4, 3).t(), rn(5, 4), rn(2, 5).t(), ref=sdpa_ref)
cs.add("scaled_dot_product_attention", rn(3, 4, grad=False), rn(5, 4, grad=False), rn(5, 2, grad=False), None, 1.0,
       ref=lambda q, k, v, m, p: torch.zeros(3, 2, dtype=D), opcheck=False)  # dropout_p=1 drops everything
cs.error("scaled_dot_product_attention", rn(3, 4), rn(5, 3), rn(5, 2), code="CT_ERR_SHAPE", torch_raises=False)
cs.error("scaled_dot_product_attention", rn(3, 4), rn(5, 4), rn(5, 2), torch.ones(3, 5, dtype=torch.bool), 0.0, True,
         code="CT_ERR_INVALID", torch_raises=False)
cs.error("scaled_dot_product_attention", rn(3, 4), rn(5, 4), rn(5, 2), None, 1.5, code="CT_ERR_INVALID", torch_raises=False)
cs.error("scaled_dot_product_attention", rn(3, 4), rn(5, 4, dtype=S), rn(5, 2), code="CT_ERR_DTYPE", torch_raises=False)

# ---- softmin (F.softmin: softmax of -self) and glu (appended: the cases above keep their inputs) ----
softmin = lambda t, dim, dtype=None: F.softmin(t, dim, dtype=dtype)  # noqa: E731
cs.add("softmin", rn(3, 5), 1, ref=softmin)
cs.add("softmin", rn(3, 5).t(), 0, ref=softmin)
cs.add("softmin", rn(2, 3, 4, dtype=S), -1, ref=softmin)
cs.add("softmin", rn(2, 3, dtype=S), 0, D, ref=softmin)                # dtype: cast after the negation
cs.add("softmin", rn(4), 0, ref=softmin)
cs.add("softmin", rn(4, dtype=H, grad=False), 0, ref=softmin)
cs.add("softmin", torch.tensor([1, 5, -2]), 0, D, ref=softmin)          # integers with a dtype
cs.add("softmin", torch.tensor([[0.0, float("inf")], [float("-inf"), 1.0]], dtype=D), 1, ref=softmin)
cs.error("softmin", torch.tensor([True, False]), 0, code="CT_ERR_DTYPE", torch_raises=False)  # -bool (F.softmin raises)
cs.error("softmin", rn(3, 4), 2, code="CT_ERR_INDEX", torch_raises=False)                      # dim (F.softmin raises)
cs.add("glu", rn(3, 4))
cs.add("glu", rn(4, 3), 0)
cs.add("glu", rn(2, 6, 2).transpose(0, 1), 1)
cs.add("glu", rn(3, 4, dtype=S), -2 + 1)
cs.add("glu", rn(2, 4, dtype=H, grad=False))
cs.add("glu", rn(2, 4, dtype=torch.float16, grad=False))
cs.add("glu", torch.empty(0, 4, dtype=D), 1)
cs.add("glu", torch.tensor([[1.0, float("inf"), -float("inf"), float("nan")]], dtype=D).repeat(1, 2))
cs.add("glu.out", rn(3, 4, grad=False), out=torch.empty(0, dtype=D), opcheck=False)
cs.add("glu.out", rn(3, 4, grad=False), 1, out=torch.empty(3, 2, dtype=S), opcheck=False)   # cast into out
cs.error("glu.out", rn(3, 4, grad=False), out=torch.empty(3, 2, dtype=torch.int64), code="CT_ERR_DTYPE")
cs.error("glu", rn(3, 3), 1, code="CT_ERR_SHAPE")                     # halving dimension must be even
cs.error("glu", rn(3, 4), 2, code="CT_ERR_INDEX")
cs.error("glu", torch.tensor(1.0, dtype=D), code="CT_ERR_INVALID")    # 0-dim
for dt in (torch.int64, torch.int32, torch.uint8, torch.bool):
    cs.error("glu", torch.ones(2, 4, dtype=dt), code="CT_ERR_DTYPE")

# ---- more losses and distances (appended: the cases above keep their inputs) ----
RED = ["none", "mean", "sum"]


def pm1(*shape):  # targets of -1 and 1
    return torch.where(torch.rand(*shape, generator=g) < 0.5, -1.0, 1.0).to(D)


for red in (0, 1, 2):
    cs.add("huber_loss", rn(3, 4) * 2, rn(3, 4), red)
    cs.add("soft_margin_loss", rn(3, 4), pm1(3, 4), red)
    cs.add("margin_ranking_loss", rn(5), rn(5), pm1(5), 0.3, red)
    cs.add("hinge_embedding_loss", rn(2, 4), pm1(2, 4), 1.0, red)
    cs.add("multilabel_soft_margin_loss", rn(3, 4), rn(3, 4, grad=False, lo=0, hi=1).round(), rn(4, grad=False, lo=0.5, hi=2), red,
           ref=lambda x, t, w, r: F.multilabel_soft_margin_loss(x, t, w, reduction=RED[r]))
    cs.add("multi_margin_loss", rn(4, 5), idx(4, n=5), 1, 1, None, red)
    cs.add("multi_margin_loss", rn(4, 5), idx(4, n=5), 2, 0.7, rn(5, grad=False, lo=0.5, hi=2), red)
    cs.add("triplet_margin_loss", rn(4, 3), rn(4, 3), rn(4, 3), 1.0, 2.0, 1e-6, False, red)
    cs.add("cosine_embedding_loss", rn(4, 3), rn(4, 3), pm1(4), 0.2, red)
    cs.add("poisson_nll_loss", rn(3, 4), rn(3, 4, grad=False, lo=0, hi=4).round(), True, False, 1e-8, red)
    cs.add("gaussian_nll_loss", rn(3, 4), rn(3, 4), rn(3, 4, lo=0.1, hi=2), False, 1e-6, red,
           ref=lambda x, t, v, f, e, r: F.gaussian_nll_loss(x, t, v, full=f, eps=e, reduction=RED[r]))
# huber_loss: delta, broadcasting (both ways), self's dtype, zero-size, out=
cs.add("huber_loss", rn(2, 3) * 2, rn(3), 0, 0.5)
cs.add("huber_loss", rn(3, grad=False), rn(2, 3), 0, 2.0)
cs.add("huber_loss", rn(4, 3).t() * 2, rn(3, 4), 1, 1.5)
cs.add("huber_loss", rn(3, 4, dtype=S, grad=False), rn(3, 4, grad=False), 0)          # result in self's dtype
cs.add("huber_loss", rn(3, 4, dtype=S), rn(3, 4, dtype=S), 1)
cs.add("huber_loss", rn(3, 4, dtype=H), rn(3, 4, dtype=H), 0)
cs.add("huber_loss", rn(0, 3), rn(0, 3), 2)
cs.add("huber_loss", torch.tensor([-1.0, 1.0, 0.0, 2.5], dtype=D), torch.zeros(4, dtype=D), 0)   # |d| == delta, d == 0
cs.add("huber_loss.out", rn(3, 4, grad=False), rn(3, 4, grad=False), 0, 0.5, out=torch.empty(0, dtype=D), opcheck=False)
cs.add("huber_loss.out", rn(3, 4, grad=False), rn(3, 4, grad=False), out=torch.empty((), dtype=D), opcheck=False)
cs.error("huber_loss", rn(3), rn(3), 1, 0.0, code="CT_ERR_INVALID")
cs.error("huber_loss", rn(3), rn(3), 1, -1.0, code="CT_ERR_INVALID")
cs.error("huber_loss", torch.ones(3, dtype=torch.long), torch.ones(3, dtype=torch.long), code="CT_ERR_DTYPE")
cs.error("huber_loss", rn(3), rn(4), code="CT_ERR_SHAPE")
cs.error("huber_loss", rn(3), rn(3), 3, code="CT_ERR_INVALID", torch_raises=False)      # aten takes it as none
# soft_margin_loss: target broadcast to self (not self to target), self's dtype
cs.add("soft_margin_loss", rn(2, 3), pm1(3), 0)
cs.add("soft_margin_loss", rn(3, 2).t(), rn(2, 3, grad=False), 1)
cs.add("soft_margin_loss", rn(3, 4, dtype=S), pm1(3, 4), 0)                            # float result
cs.add("soft_margin_loss", rn(3) * 50, pm1(3), 0)                                      # large margins
cs.add("soft_margin_loss", rn(0, 2), pm1(0, 2), 2)
cs.add("soft_margin_loss.out", rn(3, 4, grad=False), pm1(3, 4), 0, out=torch.empty(0, dtype=D), opcheck=False)
cs.error("soft_margin_loss", rn(3), pm1(2, 3), 0, code="CT_ERR_SHAPE")
cs.error("soft_margin_loss", torch.ones(3, dtype=torch.long), torch.ones(3, dtype=torch.long), code="CT_ERR_DTYPE")
# margin_ranking_loss / hinge_embedding_loss: broadcasting, integers, the target's other values
cs.add("margin_ranking_loss", rn(2, 3), rn(3), pm1(2, 1).requires_grad_(), 0.0, 0)
cs.add("margin_ranking_loss", rn(3, dtype=S), rn(3, dtype=S), pm1(3).float(), 0.5, 1)
cs.add("margin_ranking_loss", torch.tensor([1, 4, 2]), torch.tensor([3, 1, 2]), torch.tensor([1, 1, -1]), 0.0, 2)
cs.add("margin_ranking_loss", rn(0), rn(0), pm1(0), 0.0, 2)
cs.add("hinge_embedding_loss", rn(2, 3), torch.tensor([1.0, -1.0, 0.0], dtype=D), 0.5, 0)  # 0: both terms
cs.add("hinge_embedding_loss", rn(3, 1), pm1(3, 4), 1.0, 2)
cs.add("hinge_embedding_loss", rn(3, 4, dtype=S), pm1(3, 4).float(), 2.0, 1)
cs.add("hinge_embedding_loss", rn(0, 4), pm1(0, 4), 1.0, 1, gradcheck=False)             # empty mean: nan
cs.error("hinge_embedding_loss", rn(3), pm1(2), code="CT_ERR_SHAPE")
cs.error("margin_ranking_loss", rn(3), rn(3), pm1(2), code="CT_ERR_SHAPE")
# multilabel_soft_margin_loss (F's)
mlsm = lambda x, t, w=None, r=1: F.multilabel_soft_margin_loss(x, t, w, reduction=RED[r])  # noqa: E731
cs.add("multilabel_soft_margin_loss", rn(5), rn(5, lo=0, hi=1), ref=mlsm)                # 1-D: one sample; soft targets
cs.add("multilabel_soft_margin_loss", rn(2, 3, 4), rn(4, grad=False, lo=0, hi=1).round(), None, 0, ref=mlsm)
cs.add("multilabel_soft_margin_loss", rn(3, 4, dtype=S), rn(3, 4, dtype=S, grad=False, lo=0, hi=1).round(), ref=mlsm)
cs.add("multilabel_soft_margin_loss", rn(2, 0), rn(2, 0), None, 0, ref=mlsm)              # 0 classes: 0 / 0
cs.error("multilabel_soft_margin_loss", rn(()), rn(()), code="CT_ERR_INDEX", ref=mlsm)
cs.error("multilabel_soft_margin_loss", rn(2, 3), rn(2, 3), rn(2, grad=False), code="CT_ERR_SHAPE", ref=mlsm)
cs.error("multilabel_soft_margin_loss", torch.ones(2, 3, dtype=torch.long), torch.ones(2, 3, dtype=torch.long), code="CT_ERR_DTYPE",
         ref=mlsm)
# multi_margin_loss: 1-D and 0-dim inputs, margins in the hinge's kink region, out=
cs.add("multi_margin_loss", rn(5), torch.tensor([2]), 1, 1, None, 0)                     # (1,) result
cs.add("multi_margin_loss", rn(5), torch.tensor(3), 2, 1, None, 0)                       # 0-dim result
cs.add("multi_margin_loss", rn(()), torch.tensor(0), 1, 1, None, 0)
cs.add("multi_margin_loss", rn(5, 4).t(), idx(4, n=5), 1, 0.2, rn(5, grad=False, lo=0.5, hi=2), 1)
cs.add("multi_margin_loss", rn(3, 4, dtype=S), idx(3, n=4), 2, 1, rn(4, dtype=S, grad=False, lo=0.5, hi=2), 2)
cs.add("multi_margin_loss", rn(0, 3), idx(0, n=3), 1, 1, None, 0)
cs.add("multi_margin_loss.out", rn(4, 5, grad=False), idx(4, n=5), out=torch.empty(0, dtype=D), opcheck=False)
cs.add("multi_margin_loss.out", rn(4, 5, grad=False), idx(4, n=5), 2, 1, None, 0, out=torch.empty(0, dtype=D), opcheck=False)
cs.error("multi_margin_loss", rn(2, 3), torch.tensor([0, 3]), code="CT_ERR_INDEX")
cs.error("multi_margin_loss", rn(2, 3), torch.tensor([0, -1]), code="CT_ERR_INDEX")
cs.error("multi_margin_loss", rn(2, 3), torch.tensor([0, 1, 2]), code="CT_ERR_SHAPE")
cs.error("multi_margin_loss", rn(2, 3), torch.tensor([[0], [1]]), code="CT_ERR_SHAPE")
cs.error("multi_margin_loss", rn(2, 3), torch.tensor([0, 1], dtype=torch.int32), code="CT_ERR_DTYPE")
cs.error("multi_margin_loss", rn(2, 3), torch.tensor([0, 1]), 3, code="CT_ERR_INVALID")
cs.error("multi_margin_loss", rn(2, 3), torch.tensor([0, 1]), 1, 1, rn(2, grad=False), code="CT_ERR_SHAPE",
         torch_raises=False)  # aten 1.13 does not check the weight's size (it reads weight[target])
cs.error("multi_margin_loss", rn(2, 3), torch.tensor([0, 1]), 1, 1, rn(3, dtype=S, grad=False), code="CT_ERR_DTYPE")
cs.error("multi_margin_loss", rn(2, 0), torch.tensor([0, 1]), code="CT_ERR_SHAPE")
cs.error("multi_margin_loss", rn(2, 3, 4), torch.tensor([0, 1]), code="CT_ERR_SHAPE")
cs.error("multi_margin_loss", torch.ones(2, 3, dtype=torch.long), torch.tensor([0, 1]), code="CT_ERR_DTYPE")
# triplet_margin_loss: p, swap, 1-D, broadcasting
cs.add("triplet_margin_loss", rn(4, 3), rn(4, 3), rn(4, 3), 0.5, 1.0, 1e-6, True, 1)
cs.add("triplet_margin_loss", rn(4, 3), rn(4, 3), rn(4, 3), 2.0, 3.0, 1e-6, True, 0)
cs.add("triplet_margin_loss", rn(5), rn(5), rn(5), 1.0, 2.0, 1e-6, False, 0)
cs.add("triplet_margin_loss", rn(2, 3, dtype=S), rn(2, 3, dtype=S), rn(2, 3, dtype=S))
cs.add("triplet_margin_loss", rn(4, 3), rn(1, 3), rn(4, 3), 1.0, 2.0, 1e-6, False, 2)
cs.error("triplet_margin_loss", rn(2, 3), rn(2, 3), rn(3), code="CT_ERR_SHAPE")
# cosine_embedding_loss: 1-D inputs with a 0-dim target, other target values, broadcasting, integers
cs.add("cosine_embedding_loss", rn(5), rn(5), torch.tensor(-1.0, dtype=D), -0.5, 0)
cs.add("cosine_embedding_loss", rn(3, 4), rn(1, 4), torch.tensor([1.0, 0.0, -1.0], dtype=D), 0.0, 0)
cs.add("cosine_embedding_loss", rn(3, 4, dtype=S), rn(3, 4, dtype=S), torch.tensor([1, -1, 1]), 0.1, 1)
cs.add("cosine_embedding_loss", torch.tensor([[1, 2], [3, 0]]), torch.tensor([[2, 2], [0, 1]]), torch.tensor([1, -1]), 0.0, 0)
cs.error("cosine_embedding_loss", rn(2, 3), rn(2, 3), pm1(2, 2), code="CT_ERR_SHAPE")
cs.error("cosine_embedding_loss", rn(2, 3), rn(2, 3), pm1(()), code="CT_ERR_SHAPE")
cs.error("cosine_embedding_loss", rn(3), rn(3), pm1(2), code="CT_ERR_SHAPE")
cs.error("cosine_embedding_loss", rn(2, 3), rn(2, 3), pm1(3), code="CT_ERR_SHAPE")
# poisson_nll_loss: log_input False (eps), full (Stirling's term where target > 1), broadcasting, integers
cs.add("poisson_nll_loss", rn(3, 4, lo=0.1, hi=3), rn(3, 4, grad=False, lo=0, hi=5).round(), False, False, 1e-8, 1)
cs.add("poisson_nll_loss", rn(3, 4), rn(3, 4, lo=1.5, hi=5), True, True, 1e-8, 0)
cs.add("poisson_nll_loss", rn(3, 4, lo=0.1, hi=3), rn(4, grad=False, lo=0, hi=5).round(), False, True, 1e-3, 2)
cs.add("poisson_nll_loss", rn(3, dtype=S), rn(3, dtype=S, lo=0, hi=3), True, False, 1e-8, 1)
cs.add("poisson_nll_loss", torch.tensor([1, 2, 3]), torch.tensor([0, 2, 5]), False, True, 1e-8, 0)
cs.add("poisson_nll_loss", rn(0, 2), rn(0, 2), True, False, 1e-8, 2)
# gaussian_nll_loss (F's): var one dim short or with a last dim of 1, clamped at eps, full
gnll = lambda x, t, v, full=False, eps=1e-6, r=1: F.gaussian_nll_loss(x, t, v, full=full, eps=eps, reduction=RED[r])  # noqa: E731
cs.add("gaussian_nll_loss", rn(3, 4), rn(3, 4), rn(3, lo=0.1, hi=2), True, 1e-6, 0, ref=gnll)
cs.add("gaussian_nll_loss", rn(3, 4), rn(4), rn(3, 1, lo=0.1, hi=2), False, 1e-6, 2, ref=gnll)
cs.add("gaussian_nll_loss", rn(2, 3), rn(2, 3), torch.tensor([[0.0, 1e-3, 0.5]] * 2, dtype=D).requires_grad_(), False, 1e-2, 0,
       ref=gnll)                                                                              # clamped: the gradient passes
cs.add("gaussian_nll_loss", rn(3, dtype=S), rn(3, dtype=S), rn(3, dtype=S, lo=0.1, hi=2), ref=gnll)
cs.add("gaussian_nll_loss", rn(0, 2), rn(0, 2), rn(0, 2, lo=0.1, hi=1), False, 1e-6, 2, ref=gnll)
cs.add("gaussian_nll_loss", rn(()), rn(()), rn(1, lo=0.1, hi=1), False, 1e-6, 0, ref=gnll)   # 0-dim input, var (1,)
cs.error("gaussian_nll_loss", rn(2, 3), rn(2, 3), rn(2, 3, lo=-2, hi=-1), code="CT_ERR_INVALID", ref=gnll)
cs.error("gaussian_nll_loss", rn(2, 3), rn(2, 3), rn(2, 2, lo=0.1, hi=1), code="CT_ERR_SHAPE", ref=gnll)
cs.error("gaussian_nll_loss", rn(2, 3), rn(2, 3), rn(3, lo=0.1, hi=1), code="CT_ERR_SHAPE", ref=gnll)
cs.error("gaussian_nll_loss", torch.ones(2, 3, dtype=torch.long), torch.ones(2, 3, dtype=torch.long), torch.ones(2, 3, dtype=torch.long),
         code="CT_ERR_DTYPE", ref=gnll)

# ---- distances ----
cs.add("cosine_similarity", rn(3, 4), rn(3, 4))
cs.add("cosine_similarity", rn(3, 4), rn(4), 1, 1e-8)                   # broadcasting
cs.add("cosine_similarity", rn(2, 3, 4), rn(2, 1, 4), -1, 1e-8)
cs.add("cosine_similarity", rn(4, 3).t(), rn(3, 4), 0, 1e-8)
cs.add("cosine_similarity", rn(3, 2) * 1e-9, rn(3, 2), 1, 1e-8)          # the norm clamped at eps
cs.add("cosine_similarity", torch.zeros(2, 3, dtype=D, requires_grad=True), rn(2, 3), 1, 1e-8)
cs.add("cosine_similarity", rn(3, 4, dtype=S), rn(3, 4, dtype=S))
cs.add("cosine_similarity", torch.tensor([[1, 2], [0, 3]]), rn(2, 2, grad=False))    # integers cast to the common dtype
cs.add("cosine_similarity", rn(()), rn(()), 0, 1e-8)
cs.add("cosine_similarity", rn(2, 0), rn(2, 0), 1, 1e-8, gradcheck=False)
cs.error("cosine_similarity", torch.ones(2, 3, dtype=torch.long), torch.ones(2, 3, dtype=torch.long), code="CT_ERR_DTYPE")
cs.error("cosine_similarity", rn(2, 3), rn(4, 3), code="CT_ERR_SHAPE")
cs.error("cosine_similarity", rn(2, 3), rn(2, 3), 2, code="CT_ERR_INDEX")
cs.add("pairwise_distance", rn(4, 3), rn(4, 3))
cs.add("pairwise_distance", rn(4, 3), rn(3), 1.0, 1e-6, True)
cs.add("pairwise_distance", rn(2, 4, 3), rn(2, 4, 3), 3.0)
cs.add("pairwise_distance", rn(4, 3), rn(4, 3), float("inf"))
cs.add("pairwise_distance", rn(4, 3), rn(4, 3), 0.5, 1e-3)
cs.add("pairwise_distance", rn(5), rn(5), 2.0, 0.0)
cs.add("pairwise_distance", rn(()), rn(()))
cs.add("pairwise_distance", rn(3, 4, dtype=S), rn(3, 4, dtype=S))
cs.add("pairwise_distance", torch.tensor([[1, 2, 3]]), torch.tensor([[1, 0, 3]]))  # integers: + eps makes them float
cs.add("pairwise_distance", rn(0, 3), rn(0, 3))
cs.error("pairwise_distance", rn(3), rn(4), code="CT_ERR_SHAPE")
cs.add("cdist", rn(4, 3), rn(5, 3))
cs.add("cdist", rn(4, 3), rn(5, 3), 1.0)
cs.add("cdist", rn(4, 3), rn(5, 3), 0.5)
cs.add("cdist", rn(4, 3), rn(5, 3), 3.0)
cs.add("cdist", rn(4, 3), rn(5, 3), float("inf"))
cs.add("cdist", rn(4, 3), rn(5, 3), 0.0, gradcheck=False)
cs.add("cdist", rn(2, 4, 3), rn(1, 5, 3), 2.0)                          # batch dims broadcast
cs.add("cdist", rn(3, 4).t(), rn(5, 3), 2.0, 2)                         # compute_mode 2: never the matrix product
cs.add("cdist", rn(4, 3), rn(5, 3), 2.0, 1)                             # compute_mode 1: the matrix product
cs.add("cdist", rn(30, 3), rn(6, 3))                                    # more than 25 rows: the matrix product
cs.add("cdist", rn(2, 30, 2), rn(3, 2), 2.0, 0)
x = rn(3, 2)
cs.add("cdist", x, torch.cat([x.detach(), rn(2, 2, grad=False)]), 2.0, 1, gradcheck=False)   # zero distances: subgradient 0
cs.add("cdist", x, torch.cat([x.detach(), rn(2, 2, grad=False)]), 2.0, 2, gradcheck=False)
cs.add("cdist", rn(4, 3, dtype=S), rn(5, 3, dtype=S))
cs.add("cdist", rn(0, 3), rn(5, 3))
cs.add("cdist", rn(2, 0), rn(4, 0))
cs.error("cdist", rn(3), rn(2, 3), code="CT_ERR_RANK")
cs.error("cdist", rn(2, 3), rn(3), code="CT_ERR_RANK")
cs.error("cdist", rn(2, 3), rn(2, 4), code="CT_ERR_SHAPE")
cs.error("cdist", rn(2, 3), rn(2, 3), -1.0, code="CT_ERR_INVALID")
cs.error("cdist", rn(2, 3), rn(2, 3), 2.0, 3, code="CT_ERR_INVALID")
cs.error("cdist", torch.ones(2, 3, dtype=torch.long), torch.ones(2, 3, dtype=torch.long), code="CT_ERR_DTYPE")
cs.error("cdist", rn(2, 3), rn(2, 3, dtype=S), code="CT_ERR_DTYPE")
cs.error("cdist", rn(2, 2, 3), rn(3, 2, 3), code="CT_ERR_SHAPE")
cs.add("multi_margin_loss", rn(3, 4), idx(3, n=4), 2.5, 1, None, 0)   # p truncated to an int (aten's p.toInt())


# ---- prelu, rrelu (evaluation), instance_norm, bilinear ----
cs.add("prelu", rn(2, 3, 4), rn(3))
cs.add("prelu", rn(2, 3), rn(1))
cs.add("prelu", rn(4, 3).t(), rn(4))                                 # non-contiguous
cs.add("prelu", rn(3), rn(1))
cs.add("prelu", rn(()), rn(1))
cs.add("prelu", rn(2, 3, 4), rn(()))
cs.add("prelu", torch.tensor([-1.0, 0.0, 2.0], dtype=D, requires_grad=True), torch.tensor([0.25], dtype=D, requires_grad=True))
cs.add("prelu", rn(2, 3, dtype=S), rn(3, dtype=S))
cs.add("prelu", rn(0, 3), rn(3))
cs.error("prelu", rn(2, 3), rn(2), code="CT_ERR_SHAPE")
cs.error("prelu", rn(3), rn(3), code="CT_ERR_SHAPE")
cs.error("prelu", rn(2, 3), rn(1, 1), code="CT_ERR_RANK")
cs.error("prelu", rn(()), rn(2), code="CT_ERR_RANK")
cs.error("prelu", rn(2, 3), rn(3, dtype=S), code="CT_ERR_DTYPE")
cs.error("prelu", torch.ones(3, dtype=torch.int64), torch.ones(1, dtype=torch.int64), code="CT_ERR_DTYPE")
cs.add("rrelu", rn(3, 4))
cs.add("rrelu", rn(3, 4), 0.1, 0.3)
cs.add("rrelu", rn(5, dtype=S), 0.0, 1.0, False)
cs.error("rrelu", rn(3), 0.5, 0.1, code="CT_ERR_INVALID", torch_raises=False)

cs.add("instance_norm", rn(2, 3, 4), rn(3), rn(3), None, None, True, 0.1, 1e-5, False)
cs.add("instance_norm", rn(2, 3, 2, 2), None, None, torch.zeros(3, dtype=D), torch.ones(3, dtype=D), True, 0.1, 1e-5, False)
cs.add("instance_norm", rn(2, 3, 5), rn(3), rn(3), torch.rand(3, dtype=D, generator=g), torch.rand(3, dtype=D, generator=g) + 0.5,
       False, 0.1, 1e-5, False, gradcheck=False)
cs.add("instance_norm", rn(3, 2, 4).transpose(0, 1), None, None, None, None, True, 0.1, 1e-5, False)
cs.add("instance_norm", rn(2, 3, 4, dtype=S), rn(3, dtype=S), rn(3, dtype=S), None, None, True, 0.1, 1e-5, False)
cs.error("instance_norm", rn(2, 3, 4), None, None, None, None, False, 0.1, 1e-5, False, code="CT_ERR_INVALID")

cs.add("bilinear", rn(4, 3), rn(4, 2), rn(5, 3, 2), rn(5))
cs.add("bilinear", rn(2, 4, 3), rn(2, 4, 2), rn(5, 3, 2))
cs.add("bilinear", rn(3), rn(2), rn(5, 3, 2), rn(5))
cs.add("bilinear", rn(3, 4).t(), rn(4, 2), rn(1, 3, 2))
cs.add("bilinear", rn(4, 3, dtype=S), rn(4, 2, dtype=S), rn(5, 3, 2, dtype=S), rn(5, dtype=S))
cs.error("bilinear", rn(4, 3), rn(4, 2, 1), rn(5, 3, 2), code="CT_ERR_RANK")
cs.error("bilinear", rn(4, 3), rn(3, 2), rn(5, 3, 2), code="CT_ERR_SHAPE")
cs.error("bilinear", rn(4, 4), rn(4, 2), rn(5, 3, 2), code="CT_ERR_SHAPE")
cs.error("bilinear", rn(4, 3), rn(4, 2), rn(5, 3, 2), rn(4), code="CT_ERR_SHAPE")


# ---- embedding_bag (aten's 4 outputs; the last three as PyTorch's CPU kernel fills them) ----
eb_idx = torch.tensor([1, 2, 4, 5, 4, 3, 2, 0])
eb_off = torch.tensor([0, 2, 2, 5])
for mode in (0, 1, 2):
    cs.add("embedding_bag", rn(6, 3), eb_idx, eb_off, False, mode)
    cs.add("embedding_bag", rn(6, 3), eb_idx, torch.tensor([0, 2, 2, 5, 8]), False, mode, False, None, True)   # include_last_offset
    cs.add("embedding_bag.padding_idx", rn(6, 3), eb_idx, eb_off, False, mode, False, None, False, 4)
    cs.add("embedding_bag", rn(6, 3, dtype=S), eb_idx.int(), eb_off.int(), False, mode)
    cs.add("embedding_bag", rn(6, 3), torch.tensor([], dtype=torch.int64), torch.tensor([0, 0]), False, mode)
cs.add("embedding_bag", rn(6, 3), eb_idx, eb_off, False, 0, False, rn(8))                                   # per_sample_weights
# (scale_grad_by_freq: PyTorch 1.13's CPU backward divides some rows' gradients by another index's count
# (rows 3, 4, 5 of this case get 1/2, 2, 1/2 of the sum); ctorch divides by the row's own count, as
# F.embedding does: tests/test_ops_nn.c nn_embedding_bag_scale_grad_by_freq)
cs.add("embedding_bag", rn(3, 6).t(), eb_idx, eb_off, False, 1)                                             # a transposed weight
cs.add("embedding_bag", torch.ones(4, 2, dtype=D, requires_grad=True), torch.tensor([3, 1, 2]), torch.tensor([0]), False, 2)  # ties: the first
cs.error("embedding_bag", rn(6, 3), torch.tensor([0, 9]), torch.tensor([0]), code="CT_ERR_INDEX", torch_raises=True)
cs.error("embedding_bag", rn(6, 3), torch.tensor([0, 1]), torch.tensor([1]), code="CT_ERR_INVALID")
cs.error("embedding_bag", rn(6, 3), torch.tensor([0, 1]), torch.tensor([0]), False, 1, False, rn(2), code="CT_ERR_INVALID")
cs.error("embedding_bag", rn(6, 3), torch.tensor([0.0, 1.0]), torch.tensor([0]), code="CT_ERR_DTYPE")


# ---- ctc_loss ----
def lsm(*shape, dtype=D):
    return torch.randn(*shape, dtype=torch.float64, generator=g).log_softmax(-1).to(dtype).requires_grad_()


def ctc_ref(tensor_lengths=False):
    """aten's _ctc_loss with log_alpha's entries it leaves unwritten (t >= input length, s >= 2 L + 1
    past the first frame) set to -inf, as ctorch writes them"""
    def f(lp, tg, il, tl, blank=0, zero_infinity=False):
        op = torch.ops.aten._ctc_loss.Tensor if tensor_lengths else torch.ops.aten._ctc_loss.default
        nll, la = op(lp, tg, il, tl, blank, zero_infinity)
        la = la.detach().clone()
        for b, (ti, tt) in enumerate(zip(list(il), list(tl))):
            la[b, int(ti):, :] = float("-inf")
            la[b, 1:, 2 * int(tt) + 1:] = float("-inf")
        return nll, la
    return f


# (the gradient is PyTorch's, which assumes log_probs normalised (log_softmax): its exp(log_probs)
# term cancels in log_softmax's backward; so gradcheck against perturbed log_probs does not apply)
ctc_t = torch.tensor([[1, 2, 2, 0], [3, 1, 0, 0]])                 # padded (N, S)
cs.add("_ctc_loss", lsm(6, 2, 4), ctc_t, [6, 5], [3, 2], ref=ctc_ref(), gradcheck=False)
cs.add("_ctc_loss", lsm(6, 2, 4), torch.tensor([1, 2, 2, 3, 1]), [6, 4], [3, 2], 0, True, ref=ctc_ref())   # 1-D targets
cs.add("_ctc_loss", lsm(5, 2, 4), ctc_t, [5, 5], [0, 2], 3, ref=ctc_ref())   # blank 3 (targets avoid it), an empty target
cs.add("_ctc_loss", lsm(6, 2, 4, dtype=S), ctc_t.int(), [6, 5], [3, 2], ref=ctc_ref())
ctc_lp = lsm(6, 2, 4)
ctc_nll, ctc_la = torch.ops.aten._ctc_loss(ctc_lp, ctc_t, [6, 5], [3, 2])
cs.add("_ctc_loss_backward", rn(2, grad=False), ctc_lp.detach(), ctc_t, [6, 5], [3, 2], ctc_nll.detach(), ctc_la.detach(), 0, gradcheck=False)
cs.add("_ctc_loss_backward", rn(2, grad=False), ctc_lp.detach(), ctc_t, [6, 5], [3, 2], ctc_nll.detach(), ctc_la.detach(), 0, True)
for red in (0, 1, 2):
    cs.add("ctc_loss.IntList", lsm(6, 2, 4), ctc_t, [6, 5], [3, 2], 0, red, gradcheck=False)
cs.add("ctc_loss.IntList", lsm(3, 2, 4), ctc_t, [3, 2], [3, 2], 0, 1, True)    # infeasible: inf zeroed
cs.add("ctc_loss.IntList", lsm(3, 2, 4), ctc_t, [3, 2], [3, 2], 0, 0, False)   # infeasible: inf
cs.add("ctc_loss.IntList", lsm(6, 4), torch.tensor([1, 2, 2]), [6], [3])       # unbatched
cs.add("ctc_loss.Tensor", lsm(6, 2, 4), ctc_t, torch.tensor([6, 5]), torch.tensor([3, 2]), gradcheck=False)
cs.add("_ctc_loss.Tensor", lsm(6, 2, 4), ctc_t, torch.tensor([6, 5]), torch.tensor([3, 2]), ref=ctc_ref(True), gradcheck=False)
cs.error("ctc_loss.IntList", lsm(6, 2, 4), ctc_t, [7, 5], [3, 2], code="CT_ERR_INVALID")
cs.error("ctc_loss.IntList", lsm(6, 2, 4), ctc_t, [6, 5], [5, 2], code="CT_ERR_SHAPE")
cs.error("ctc_loss.IntList", lsm(6, 2, 4), ctc_t, [6], [3, 2], code="CT_ERR_SHAPE")
cs.error("ctc_loss.IntList", lsm(6, 2, 4), ctc_t.double(), [6, 5], [3, 2], code="CT_ERR_DTYPE", torch_raises=False)  # (PyTorch reads them as ints)
cs.error("ctc_loss.IntList", lsm(6, 2, 4), ctc_t, [6, 5], [3, 2], 9, code="CT_ERR_INDEX")


# ---- normalize, local_response_norm (torch.nn.functional composites: no aten op) ----
nz = lambda x, p=2.0, dim=1, eps=1e-12: F.normalize(x, p, dim, eps)  # noqa: E731
cs.add("normalize", rn(3, 4), ref=nz)
cs.add("normalize", rn(3, 4), 1.0, 0, ref=nz)
cs.add("normalize", rn(2, 3, 4).transpose(0, 2), 3.0, -1, ref=nz)
cs.add("normalize", torch.zeros(2, 3, dtype=D, requires_grad=True), ref=nz, gradcheck=False)   # eps: zeros stay zero
cs.add("normalize", rn(3, 4, dtype=S), ref=nz)
lrn = lambda x, size, alpha=1e-4, beta=0.75, k=1.0: F.local_response_norm(x, size, alpha, beta, k)  # noqa: E731
cs.add("local_response_norm", rn(2, 5, 4), 3, ref=lrn)
cs.add("local_response_norm", rn(2, 5, 3, 3), 2, 0.1, 0.5, 2.0, ref=lrn)
cs.add("local_response_norm", rn(2, 4, 2, 2, 2), 5, ref=lrn)
cs.add("local_response_norm", rn(3, 2, 4).transpose(0, 1), 4, 1.0, ref=lrn)
cs.add("local_response_norm", rn(2, 5, 4, dtype=S), 3, ref=lrn)
cs.error("local_response_norm", rn(5, 4), 3, code="CT_ERR_RANK", ref=lrn, torch_raises=False)   # (F raises ValueError)

cs.write()
