"""tests/cases_conv.py - PyTorch fixture cases of gen/ops/conv.spec (tests/opcases.py).
Run: /usr/bin/python3 tests/cases_conv.py  (writes tests/fixtures/cases_conv.h)"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch  # noqa: E402
import opcases  # noqa: E402

cs = opcases.Cases("conv")
R = cs.randn
f32 = torch.float32


def g(t):
    return t.requires_grad_()


def conv_bwd(which):
    """reference of convolution_backward_input / _weight through aten.convolution_backward"""
    def ref(gy, other, size, stride, padding, dilation, groups):
        nsp = len(size) - 2
        inp = torch.zeros(size, dtype=gy.dtype) if which == "input" else other
        w = other if which == "input" else torch.zeros(size, dtype=gy.dtype)
        # grad_output may cover fewer positions: pad it to the full output with zeros
        full = torch.ops.aten.convolution(inp.detach(), w.detach(), None, stride, padding, dilation, False, [0] * nsp, groups)
        pads = []
        for d in reversed(range(nsp)):
            pads += [0, full.shape[2 + d] - gy.shape[2 + d]]
        gyp = torch.nn.functional.pad(gy, pads)
        gi, gw, _ = torch.ops.aten.convolution_backward(gyp, inp, w, None, stride, padding, dilation, False, [0] * nsp,
                                                        groups, [which == "input", which == "weight", False])
        return gi if which == "input" else gw
    return ref


# ---- convolution: the op with the derivative ----
x, w, b = R(1, 4, 4, 5), R(4, 2, 3, 2), R(4)
cs.add("convolution", g(x), g(w), g(b), [2, 1], [1], [1, 2], False, [0], 2)
cs.add("convolution", g(R(2, 3, 7)), g(R(2, 3, 3)), None, [2], [1], [2], False, [0], 1)
cs.add("convolution", g(R(1, 4, 2, 3)), g(R(4, 1, 2, 3)), g(R(2)), [2], [1, 0], [1], True, [1, 0], 2)
cs.add("convolution", g(R(1, 2, 4)), g(R(2, 3, 3)), g(R(3)), [3], [1], [2], True, [2], 1)  # output_padding >= stride < dilation
cs.add("convolution", g(R(0, 4, 5, 6)), g(R(6, 4, 3, 3)), g(R(6)), [1], [0], [1], False, [0], 1)  # zero batch
cs.add("convolution", R(1, 3, 5, 6, dtype=f32).requires_grad_(), R(4, 3, 3, 3, dtype=f32).requires_grad_(),
       R(4, dtype=f32).requires_grad_(), [1], [1], [1], False, [0], 1)
# bfloat16 against the float32 result rounded once (what ctorch computes): PyTorch's own bfloat16 CPU
# convolution rounds differently from one machine to another (its kernels depend on the CPU)
cs.add("convolution", R(1, 3, 5, 6, dtype=torch.bfloat16), R(4, 3, 3, 3, dtype=torch.bfloat16), None, [1], [1], [1], False,
       [0], 1, ref=lambda x, w, *a: torch.ops.aten.convolution(x.float(), w.float(), *a).bfloat16())
cs.add("convolution", R(1, 3, 5, 6, dtype=torch.float16), R(4, 3, 3, 3, dtype=torch.float16), R(4, dtype=torch.float16),
       [1], [1], [1], False, [0], 1)
cs.add("convolution", cs.randint(-3, 4, 2, 3, 5, 5), cs.randint(-3, 4, 4, 3, 2, 2), cs.randint(-3, 4, 4), [1], [0], [1],
       False, [0], 1)
xt = R(1, 5, 4, 3).transpose(1, 3)  # non-contiguous input (1, 3, 4, 5)
cs.add("convolution", g(xt), g(R(4, 3, 2, 2)[:, :, :, :]), None, [1], [0], [1], False, [0], 1)
cs.add("convolution", g(R(1, 3, 4, 5)), g(R(3, 2, 3, 3).transpose(0, 1)), None, [1], [1], [1], False, [0], 1)  # strided weight
cs.add("convolution", g(R(1, 2, 5, 5)), g(R(2, 1, 3, 3)), g(R(1).expand(2)), [1], [0], [1], False, [0], 2)  # expanded bias
# error cases: small float32 tensors (the values do not matter)
def E(*shape, dtype=f32):
    return R(*shape, dtype=dtype)


cs.error("convolution", E(1, 4, 3, 3), E(2, 3, 2, 2), None, [1], [0], [1], False, [0], 1, code="CT_ERR_SHAPE")
cs.error("convolution", E(1, 4, 3, 3), E(2, 4, 2), None, [1], [0], [1], False, [0], 1, code="CT_ERR_RANK")
cs.error("convolution", E(1, 4, 3, 3), E(2, 4, 2, 2), None, [1, 1, 1], [0], [1], False, [0], 1, code="CT_ERR_INVALID")
cs.error("convolution", E(1, 4, 3, 3), E(2, 4, 2, 2), None, [1], [0], [], False, [0], 1, code="CT_ERR_INVALID")
cs.error("convolution", E(1, 4, 3, 3), E(4, 1, 2, 2), None, [1], [0], [1], True, [-1], 1, code="CT_ERR_INVALID")
cs.error("convolution", E(1, 4, 3, 3), E(4, 1, 3, 3), None, [1], [5], [1], True, [0], 1, code="CT_ERR_SHAPE")
cs.error("convolution", E(1, 4, 0, 3), E(4, 1, 3, 3), None, [1], [0], [1], True, [0], 1, code="CT_ERR_SHAPE")
cs.error("convolution", E(1, 4, 3, 3).bool(), E(2, 4, 2, 2).bool(), None, [1], [0], [1], False, [0], 1, code="CT_ERR_DTYPE")

# ---- the backward ops (no aten op of that name: reference via aten.convolution_backward) ----
gy = R(1, 4, 2, 4)
cs.add("convolution_backward_input", g(gy), g(R(4, 2, 3, 2)), [1, 4, 4, 5], [2, 1], [1], [1, 2], 2,
       ref=conv_bwd("input"))
cs.add("convolution_backward_input", g(R(2, 4, 2)), g(R(4, 3, 3)), [2, 3, 7], [2], [1], [2], 1, ref=conv_bwd("input"))
cs.add("convolution_backward_input", g(R(2, 4, 2)), g(R(4, 3, 3)), [2, 3, 9], [2], [1], [2], 1, ref=conv_bwd("input"),
       name="convolution_backward_input_partial")  # grad_output covers 2 of 3 positions
cs.add("convolution_backward_weight", g(gy), g(R(1, 4, 4, 5)), [4, 2, 3, 2], [2, 1], [1], [1, 2], 2,
       ref=conv_bwd("weight"))
cs.add("convolution_backward_weight", g(R(2, 4, 2)), g(R(2, 3, 9)), [4, 3, 3], [2], [1], [2], 1, ref=conv_bwd("weight"))
cs.error("convolution_backward_input", E(1, 2, 4, 4), E(2, 1, 2, 2), [1, 1, 3, 3], [1], [0], [1], 1, torch_raises=False,
         code="CT_ERR_SHAPE")  # grad_output larger than the convolution's output
cs.error("convolution_backward_weight", E(1, 2, 2, 2), E(1, 1, 3, 3, dtype=torch.float64), [2, 1, 2, 2], [1], [0], [1], 1,
         torch_raises=False, code="CT_ERR_DTYPE")

# ---- conv1d / conv2d / padding modes / conv_transpose2d (composite) ----
cs.add("conv1d", g(R(2, 4, 9)), g(R(6, 2, 3)), g(R(6)), [2], [1], [2], 2)
cs.add("conv1d", g(R(4, 9)), g(R(6, 4, 3)), None)  # unbatched, defaults
cs.add("conv1d.padding", g(R(2, 3, 6)), g(R(4, 3, 4)), g(R(4)), [1], "same", [1], 1)  # even kernel: asymmetric
cs.add("conv1d.padding", g(R(1, 3, 6)), g(R(4, 3, 3)), None, [1], "same", [2], 1)
cs.add("conv1d.padding", g(R(3, 8)), g(R(4, 3, 3)), None, [1], "valid", [1], 1)
cs.add("conv2d", g(R(2, 2, 4, 4)), g(R(3, 2, 3, 3)), g(R(3)), [2, 1], [1, 2], [1, 2], 1)
cs.add("conv2d", g(R(4, 4, 4)), g(R(2, 2, 3, 2)), g(R(2)), [1], [1], [2], 2)  # unbatched, groups
cs.add("conv2d", g(R(1, 3, 4, 4)), g(R(3, 1, 3, 3)), None, [1], [1], [1], 3)  # depthwise
cs.add("conv2d", R(1, 3, 7, 7, dtype=f32).requires_grad_(), R(4, 3, 3, 3, dtype=f32).requires_grad_(), None, stride=[2])
cs.add("conv2d.padding", g(R(1, 3, 4, 5)), g(R(2, 3, 2, 3)), g(R(2)), [1], "same", [1], 1)
cs.add("conv2d.padding", g(R(1, 4, 4, 4)), g(R(2, 2, 2, 2)), None, [1], "same", [2, 1], 2)
cs.add("conv2d.padding", g(R(1, 3, 4, 5)), g(R(2, 3, 2, 3)), None, [1], "valid", [1], 1)
cs.add("conv_transpose2d.input", g(R(1, 4, 2, 3)), g(R(4, 1, 3, 2)), g(R(2)), [2, 1], [1, 0], [1, 0], 2, [1, 2])
cs.add("conv_transpose2d.input", g(R(4, 2, 3)), g(R(4, 2, 2, 2)), None)  # unbatched, defaults
cs.add("conv_transpose2d.input", g(R(1, 1, 3, 2)), g(R(1, 2, 3, 3)), g(R(2)), [3], [1], [2], 1, [1])
cs.error("conv2d", E(3, 3), E(2, 4, 2, 2), code="CT_ERR_RANK")
cs.error("conv2d", E(1, 4, 3, 3), E(2, 4, 4, 4), code="CT_ERR_SHAPE")
cs.error("conv2d", E(1, 4, 3, 3), E(2, 4, 2, 2), None, [0], code="CT_ERR_INVALID")
cs.error("conv2d", E(1, 4, 3, 3), E(2, 4, 2, 2), None, [1], [-1], code="CT_ERR_INVALID")
cs.error("conv2d", E(1, 4, 3, 3), E(2, 4, 2, 2), None, [1], [0], [0], code="CT_ERR_INVALID")
cs.error("conv2d", E(1, 4, 3, 3), E(2, 4, 2, 2), None, [1], [0], [1], 0, code="CT_ERR_INVALID")
cs.error("conv2d", E(1, 4, 3, 3), E(6, 1, 2, 2), None, [1], [0], [1], 4, code="CT_ERR_SHAPE")
cs.error("conv2d", E(1, 4, 3, 3), E(2, 4, 2, 2), E(5), code="CT_ERR_SHAPE")
cs.error("conv2d", E(1, 4, 3, 3), E(2, 4, 2, 2, dtype=torch.float64), code="CT_ERR_DTYPE")
cs.error("conv1d", E(5), E(2, 4, 3), code="CT_ERR_RANK")
cs.error("conv1d.padding", E(1, 4, 5), E(2, 4, 3), None, [2], "same", code="CT_ERR_INVALID")
cs.error("conv2d.padding", E(1, 4, 3, 3), E(2, 4, 2, 2), None, [1], "full", code="CT_ERR_INVALID")
cs.error("conv_transpose2d.input", E(1, 4, 3, 3), E(4, 1, 2, 2), None, [1], [0], [1], code="CT_ERR_INVALID")
cs.error("conv_transpose2d.input", E(1, 4, 3, 3), E(3, 1, 2, 2), code="CT_ERR_SHAPE")
cs.error("conv_transpose2d.input", E(3, 3), E(4, 1, 2, 2), code="CT_ERR_RANK")

# ---- pooling ----
A = torch.ops.aten


def mp_gather(grad, self, k, s, p, d, c, idx):
    return grad.flatten(-2).gather(-1, idx.flatten(-2)).view_as(idx)


cs.add("adaptive_avg_pool2d", g(R(1, 2, 7, 6)), [3, 4])
cs.add("adaptive_avg_pool2d", g(R(2, 5, 5)), [2, 2])  # unbatched
cs.add("adaptive_avg_pool2d", g(R(2, 2, 3, 4)), [1, 1])
cs.add("adaptive_avg_pool2d", g(R(1, 2, 3, 4)), [5, 6])  # upsampling: overlapping windows
cs.add("adaptive_avg_pool2d", g(R(0, 2, 3, 4)), [2, 2])  # zero batch
cs.add("adaptive_avg_pool2d", R(1, 2, 3, 4), [0, 2])
cs.add("adaptive_avg_pool2d", R(1, 2, 5, 5, dtype=f32).requires_grad_(), [2, 3])
cs.add("adaptive_avg_pool2d", R(1, 2, 5, 5, dtype=torch.bfloat16), [2, 3])
cs.add("adaptive_avg_pool2d", R(1, 2, 5, 5, dtype=torch.float16), [2, 3])
cs.add("adaptive_avg_pool2d", g(R(1, 5, 4, 3).permute(0, 3, 2, 1)), [2, 3])  # non-contiguous (2, 3, 4, 5)
cs.add("_adaptive_avg_pool2d", g(R(1, 2, 7, 6)), [3, 4])
cs.add("_adaptive_avg_pool2d_backward", g(R(1, 2, 3, 4)), R(1, 2, 7, 6))
cs.error("adaptive_avg_pool2d", E(1, 2, 3, 3), [3], code="CT_ERR_INVALID")
cs.error("adaptive_avg_pool2d", E(1, 2, 3, 3), [-1, 3], code="CT_ERR_INVALID")
cs.error("adaptive_avg_pool2d", E(3, 3), [2, 2], code="CT_ERR_RANK")
cs.error("adaptive_avg_pool2d", E(1, 2, 0, 3), [2, 2], code="CT_ERR_SHAPE")
cs.error("adaptive_avg_pool2d", E(1, 2, 3, 3).long(), [2, 2], code="CT_ERR_DTYPE")

x = R(1, 2, 7, 6)
y, ind = A.max_pool2d_with_indices(x, [3, 2], [2, 1], [1, 1], [1, 2], True)
cs.add("max_pool2d_with_indices_backward", g(R(*y.shape)), x, [3, 2], [2, 1], [1, 1], [1, 2], True, ind)
x1 = R(2, 5, 5)
y1, ind1 = A.max_pool2d_with_indices(x1, [2, 2])
cs.add("max_pool2d_with_indices_backward", g(R(*y1.shape)), x1, [2, 2], [2, 2], [0], [1], False, ind1)
cs.add("max_pool2d_with_indices_backward.grad_input", R(*y1.shape), x1, [2, 2], [2, 2], [0], [1], False, ind1,
       grad_input=torch.empty(0, dtype=torch.float64))
cs.add("max_pool2d_double_backward", g(R(*x.shape)), x, [3, 2], [2, 1], [1, 1], [1, 2], True, ind, ref=mp_gather)
cs.error("max_pool2d_with_indices_backward", R(*y1.shape), x1, [2, 2], [2, 2], [0], [1], False, ind1.int(), torch_raises=False,
         code="CT_ERR_DTYPE")
cs.error("max_pool2d_with_indices_backward", R(*y1.shape), x1, [2, 2], [2, 2], [0], [1], False, ind1 + 100,
         torch_raises=False, code="CT_ERR_INDEX")
cs.error("max_pool2d_with_indices_backward", R(2, 2, 3), x1, [2, 2], [2, 2], [0], [1], False, ind1, code="CT_ERR_SHAPE")

x = R(1, 2, 7, 6)
cs.add("max_pool2d_with_indices", g(x), [3, 2], [2, 1], [1, 1], [1, 2], True)
cs.add("max_pool2d_with_indices", g(R(2, 5, 5)), [2, 2])  # unbatched, stride = kernel_size
cs.add("max_pool2d_with_indices", g(R(0, 2, 4, 4)), [2, 2], [1])  # zero batch
cs.add("max_pool2d_with_indices", g(R(1, 6, 5, 2).transpose(1, 3)), [2], [1], [1])  # non-contiguous (1, 2, 5, 6)
cs.add("max_pool2d_with_indices", R(1, 2, 5, 5, dtype=f32).requires_grad_(), [3, 3], [2], [1], [1], False)
cs.add("max_pool2d_with_indices", R(1, 2, 5, 5, dtype=torch.bfloat16), [3, 3], [2], [1], [1], True)
cs.add("max_pool2d_with_indices", R(1, 2, 5, 5, dtype=torch.float16), [3, 3], [2], [1], [1], True)
ties = torch.tensor([[[[1.0, 1.0, 0.0], [float("nan"), 2.0, float("nan")], [-float("inf"), -float("inf"), 3.0]]]],
                    dtype=torch.float64)
cs.add("max_pool2d_with_indices", ties, [2, 2], [1])  # ties keep the first, NaN wins (the last one)
cs.add("max_pool2d", g(R(1, 2, 7, 6)), [3, 3], [2], [1], [2], True)
cs.add("max_pool2d", g(R(2, 5, 5)), [2])
cs.error("max_pool2d", E(1, 2, 5, 5), [3, 3], [2], [2], code="CT_ERR_INVALID")  # pad > kernel / 2
cs.error("max_pool2d", E(1, 2, 5, 5), [0, 3], code="CT_ERR_INVALID")
cs.error("max_pool2d", E(1, 2, 5, 5), [3, 3], [1], [-1], code="CT_ERR_INVALID")
cs.error("max_pool2d", E(1, 2, 5, 5), [3, 3], [1], [0], [0], code="CT_ERR_INVALID")
cs.error("max_pool2d", E(1, 2, 5, 5), [3, 3, 3], code="CT_ERR_INVALID")
cs.error("max_pool2d", E(1, 2, 5, 5), [3], [1, 1, 1], code="CT_ERR_INVALID")
cs.error("max_pool2d", E(1, 2, 5, 5), [6, 6], code="CT_ERR_SHAPE")
cs.error("max_pool2d", E(1, 0, 5, 5), [2, 2], code="CT_ERR_SHAPE")
cs.error("max_pool2d", E(5, 5), [2, 2], code="CT_ERR_RANK")
cs.error("max_pool2d_with_indices", E(1, 2, 5, 5).long(), [2, 2], code="CT_ERR_DTYPE")

cs.add("avg_pool2d", g(R(1, 1, 7, 6)), [3, 2], [2, 1], [1, 1], True, True)
cs.add("avg_pool2d", g(R(1, 1, 7, 6)), [3, 2], [2, 1], [1, 1], True, False)  # count_include_pad=False
cs.add("avg_pool2d", g(R(1, 1, 7, 6)), [3, 3], [2], [1], False, True, 5)  # divisor_override
cs.add("avg_pool2d", g(R(2, 5, 5)), [2])  # unbatched, defaults
cs.add("avg_pool2d", g(R(1, 6, 5, 2).transpose(1, 3)), [2], [1], [1])  # non-contiguous
cs.add("avg_pool2d", g(R(0, 2, 4, 4)), [2, 2])
cs.add("avg_pool2d", R(1, 2, 5, 5, dtype=f32).requires_grad_(), [3, 3], [2], [1], True)
cs.add("avg_pool2d", R(1, 2, 5, 5, dtype=torch.bfloat16), [3, 3], [2], [1], True)
cs.add("avg_pool2d", R(1, 2, 5, 5, dtype=torch.float16), [3, 3], [2], [1], True)
cs.add("avg_pool2d", cs.randint(-9, 9, 1, 2, 5, 5), [2, 2], [2], [1], False, True)  # int64: truncating division
cs.add("avg_pool2d", cs.randint(-9, 9, 1, 2, 5, 5), [3, 3], [2], [1], True, False, 2)
cs.add("avg_pool2d_backward", g(R(1, 1, 4, 7)), R(1, 1, 7, 6), [3, 2], [2, 1], [1, 1], True, False, None)
cs.add("avg_pool2d_backward", g(R(1, 1, 4, 3)), R(1, 1, 7, 6), [3, 3], [2], [1], False, True, 5)
cs.add("avg_pool2d_backward.grad_input", R(1, 1, 4, 3), R(1, 1, 7, 6), [3, 3], [2], [1], False, True, 5,
       grad_input=torch.empty(0, dtype=torch.float64))
cs.error("avg_pool2d", E(1, 2, 5, 5), [3, 3], [2], [2], code="CT_ERR_INVALID")
cs.error("avg_pool2d", E(1, 2, 5, 5), [3, 3], [0], code="CT_ERR_INVALID")
cs.error("avg_pool2d", E(1, 2, 5, 5), [3, 3], [1], [1], False, True, 0, code="CT_ERR_INVALID")
cs.error("avg_pool2d", E(1, 2, 5, 5), [6, 6], code="CT_ERR_SHAPE")
cs.error("avg_pool2d", E(1, 2, 5, 5).int(), [2, 2], code="CT_ERR_DTYPE")
cs.error("avg_pool2d", E(1, 0, 5, 5), [2, 2], code="CT_ERR_SHAPE")

# ---- 1-D pooling: composites over the 2-D ops ----
cs.add("max_pool1d_with_indices", g(R(2, 3, 9)), [3], [2], [1], [2], True)  # opcheck case
cs.add("max_pool1d_with_indices", g(R(3, 8)), [2])  # unbatched, stride = kernel_size
cs.add("max_pool1d_with_indices", g(R(2, 9, 3).transpose(1, 2)), [4], [1], [2])  # non-contiguous
cs.add("max_pool1d_with_indices", g(R(0, 2, 5)), [2])
cs.add("max_pool1d_with_indices", R(1, 2, 7, dtype=f32).requires_grad_(), [3], [2], [1], [1], True)
cs.add("max_pool1d_with_indices", torch.tensor([[[1.0, float("nan"), 3.0, 3.0, -float("inf")]]], dtype=torch.float64), [2], [1])
cs.add("max_pool1d", g(R(2, 3, 9)), [3], [2], [1], [2], True)
cs.add("max_pool1d", g(R(3, 8)), 2)
cs.add("max_pool1d", R(1, 2, 7, dtype=torch.bfloat16), [3], [2], [1])
cs.error("max_pool1d", E(1, 2, 3, 8), [2], code="CT_ERR_RANK")
cs.error("max_pool1d", E(8), [2], code="CT_ERR_RANK")
cs.error("max_pool1d", E(2, 8), [2, 2], code="CT_ERR_INVALID")
cs.error("max_pool1d", E(2, 8), [0], code="CT_ERR_INVALID")
cs.error("max_pool1d", E(2, 8), [3], [1], [2], code="CT_ERR_INVALID")
cs.error("max_pool1d", E(2, 8), [3], [0], code="CT_ERR_INVALID")
cs.error("max_pool1d", E(2, 8), [9], torch_raises=False, code="CT_ERR_SHAPE")  # PyTorch: empty without grad, this error with grad
cs.error("max_pool1d_with_indices", E(2, 8).long(), [2], code="CT_ERR_DTYPE")
cs.add("avg_pool1d", g(R(2, 3, 9)), [3], [2], [1], True, False)  # opcheck case
cs.add("avg_pool1d", g(R(3, 8)), [2])
cs.add("avg_pool1d", g(R(2, 9, 3).transpose(1, 2)), [4], [1], [2], False, True)
cs.add("avg_pool1d", g(R(0, 2, 5)), [2])
cs.add("avg_pool1d", R(1, 2, 7, dtype=f32).requires_grad_(), [3], [2], [1], True)
cs.add("avg_pool1d", cs.randint(-9, 9, 1, 2, 7), [3], [2], [1])
cs.error("avg_pool1d", E(1, 2, 3, 8), [2], code="CT_ERR_RANK")
cs.error("avg_pool1d", E(2, 8), [2, 2], code="CT_ERR_INVALID")
cs.error("avg_pool1d", E(2, 8), [3], [1], [2], code="CT_ERR_INVALID")
cs.error("avg_pool1d", E(2, 8), [9], code="CT_ERR_SHAPE")
cs.add("adaptive_avg_pool1d", g(R(2, 3, 9)), [4])  # opcheck case
cs.add("adaptive_avg_pool1d", g(R(3, 5)), [7])  # unbatched, overlapping windows
cs.add("adaptive_avg_pool1d", g(R(2, 9, 3).transpose(1, 2)), [1])
cs.add("adaptive_avg_pool1d", g(R(0, 2, 5)), [2])
cs.add("adaptive_avg_pool1d", R(1, 2, 7, dtype=f32).requires_grad_(), [3])
cs.error("adaptive_avg_pool1d", E(1, 2, 3, 8), [2], code="CT_ERR_RANK")
cs.error("adaptive_avg_pool1d", E(2, 8), [2, 2], code="CT_ERR_INVALID")
cs.error("adaptive_avg_pool1d", E(2, 0), [2], code="CT_ERR_SHAPE")
cs.error("adaptive_avg_pool1d", E(2, 8).long(), [2], code="CT_ERR_DTYPE")

# ---- adaptive max pooling ----
cs.add("adaptive_max_pool2d", g(R(2, 3, 7, 6)), [3, 4])  # opcheck case
cs.add("adaptive_max_pool2d", g(R(2, 5, 5)), [2, 2])  # unbatched
cs.add("adaptive_max_pool2d", g(R(1, 2, 3, 4)), [5, 6])  # overlapping windows
cs.add("adaptive_max_pool2d", g(R(1, 5, 4, 3).permute(0, 3, 2, 1)), [2, 3])  # non-contiguous (1, 3, 4, 5)
cs.add("adaptive_max_pool2d", g(R(0, 2, 3, 4)), [2, 2])
cs.add("adaptive_max_pool2d", R(1, 2, 3, 4), [0, 2])
cs.add("adaptive_max_pool2d", R(1, 2, 5, 5, dtype=f32).requires_grad_(), [2, 3])
cs.add("adaptive_max_pool2d", R(1, 2, 5, 5, dtype=torch.bfloat16), [2, 3])
cs.add("adaptive_max_pool2d", torch.tensor([[[1.0, float("nan"), 3.0, 3.0, float("nan"), -float("inf")],
                                             [-float("inf")] * 6]], dtype=torch.float64), [2, 2])
cs.add("adaptive_max_pool2d.out", R(1, 2, 5, 5), [2, 3], out=torch.empty(0, dtype=torch.float64),
       indices=torch.empty(0, dtype=torch.long))
cs.error("adaptive_max_pool2d", E(3, 3), [2, 2], code="CT_ERR_RANK")
cs.error("adaptive_max_pool2d", E(1, 2, 0, 3), [2, 2], code="CT_ERR_SHAPE")
cs.error("adaptive_max_pool2d", E(1, 2, 3, 3), [3], code="CT_ERR_INVALID")
cs.error("adaptive_max_pool2d", E(1, 2, 3, 3), [-1, 3], code="CT_ERR_SIZE")
cs.error("adaptive_max_pool2d", E(1, 2, 3, 3).long(), [2, 2], code="CT_ERR_DTYPE")
x = R(2, 3, 7, 6)
y, ind = A.adaptive_max_pool2d(x, [3, 4])
cs.add("adaptive_max_pool2d_backward", g(R(*y.shape)), x, ind)
x1 = R(2, 5, 5)
y1, ind1 = A.adaptive_max_pool2d(x1, [3, 3])
cs.add("adaptive_max_pool2d_backward", g(R(*y1.shape)), x1, ind1)
cs.add("adaptive_max_pool2d_backward.grad_input", R(*y1.shape), x1, ind1, grad_input=torch.empty(0, dtype=torch.float64))
cs.error("adaptive_max_pool2d_backward", R(*y1.shape), x1, ind1.int(), torch_raises=False, code="CT_ERR_DTYPE")
cs.error("adaptive_max_pool2d_backward", R(*y1.shape), x1, ind1 + 100, torch_raises=False, code="CT_ERR_INDEX")
cs.error("adaptive_max_pool2d_backward", R(2, 2, 3), x1, ind1, torch_raises=False, code="CT_ERR_SHAPE")
cs.add("adaptive_max_pool1d", g(R(2, 3, 9)), [4])  # opcheck case
cs.add("adaptive_max_pool1d", g(R(3, 5)), [7])
cs.add("adaptive_max_pool1d", g(R(2, 9, 3).transpose(1, 2)), [2])
cs.add("adaptive_max_pool1d", R(1, 2, 7, dtype=f32).requires_grad_(), [3])
cs.error("adaptive_max_pool1d", E(5), [3], code="CT_ERR_RANK")
cs.error("adaptive_max_pool1d", E(2, 5), [3, 1], code="CT_ERR_INVALID")

# ---- max_unpool2d / max_unpool3d (indices from max_pool: distinct within each plane) ----
xu = R(2, 3, 6, 5)
yu, iu = A.max_pool2d_with_indices(xu, [2, 2], [2, 2], [1, 1], [1, 1], True)
cs.add("max_unpool2d", g(R(*yu.shape)), iu, [6, 5])  # opcheck case
cs.add("max_unpool2d", g(R(*yu.shape)), iu, [7, 6], name="max_unpool2d_larger")  # a larger plane: indices keep their flat position
yu1, iu1 = A.max_pool2d_with_indices(R(3, 4, 4), [2, 2])
cs.add("max_unpool2d", g(R(*yu1.shape)), iu1, [4, 4])  # unbatched
cs.add("max_unpool2d", g(R(*yu1.shape[::-1]).permute(2, 1, 0)), iu1, [4, 4])  # non-contiguous
cs.add("max_unpool2d", R(0, 2, 2, 2), iu[:0, :2, :2, :2], [4, 4])
cs.add("max_unpool2d", R(*yu1.shape), iu1, [0, 4])  # empty output: indices unchecked, as PyTorch
cs.add("max_unpool2d", R(*yu1.shape, dtype=f32).requires_grad_(), iu1, [4, 4])
cs.add("max_unpool2d.out", R(*yu1.shape), iu1, [4, 4], out=torch.empty(0, dtype=torch.float64))
cs.error("max_unpool2d", E(*yu1.shape), iu1.int(), [4, 4], code="CT_ERR_DTYPE")
cs.error("max_unpool2d", E(*yu1.shape), iu1, [4], code="CT_ERR_INVALID")
cs.error("max_unpool2d", E(2, 2), iu1[0], [4, 4], code="CT_ERR_RANK")
cs.error("max_unpool2d", E(*yu1.shape), iu1[:1], [4, 4], code="CT_ERR_SHAPE")
cs.error("max_unpool2d", E(*yu1.shape), iu1, [2, 2], code="CT_ERR_INDEX")
cs.error("max_unpool2d", E(*yu1.shape), iu1 - 100, [4, 4], code="CT_ERR_INDEX")
cs.error("max_unpool2d", E(*yu1.shape).long(), iu1, [4, 4], code="CT_ERR_DTYPE")
cs.error("max_unpool2d", E(3, 0, 2), iu1[:, :0], [4, 4], code="CT_ERR_SHAPE")
x3 = R(2, 2, 4, 5, 4)
y3, i3 = A.max_pool3d_with_indices(x3, [2, 2, 2], [2, 2, 2], [0, 1, 0])
cs.add("max_unpool3d", g(R(*y3.shape)), i3, [4, 5, 4], [2, 2, 2], [0, 1, 0])  # opcheck case
y31, i31 = A.max_pool3d_with_indices(R(2, 4, 4, 4), [2, 2, 2])
cs.add("max_unpool3d", g(R(*y31.shape)), i31, [4, 4, 4], [2, 2, 2], [0, 0, 0])  # unbatched
cs.add("max_unpool3d", g(R(*y31.shape)), i31, [5, 4, 4], [2, 2, 2], [0, 0, 0], name="max_unpool3d_larger")
cs.add("max_unpool3d", R(*y31.shape, dtype=f32).requires_grad_(), i31, [4, 4, 4], [2, 2, 2], [0, 0, 0])
cs.add("max_unpool3d.out", R(*y31.shape), i31, [4, 4, 4], [2, 2, 2], [0, 0, 0], out=torch.empty(0, dtype=torch.float64))
cs.error("max_unpool3d", E(*y31.shape), i31, [4, 4, 4], [0, 2, 2], [0, 0, 0], code="CT_ERR_INVALID")
cs.error("max_unpool3d", E(*y31.shape), i31, [4, 4, 4], [2, 2], [0, 0, 0], code="CT_ERR_INVALID")
cs.error("max_unpool3d", E(*y31.shape), i31, [4, 4, 4], [2, 2, 2], [0, 0], code="CT_ERR_INVALID")
cs.error("max_unpool3d", E(*y31.shape), i31, [4, 4], [2, 2, 2], [0, 0, 0], code="CT_ERR_INVALID")
cs.error("max_unpool3d", E(*y31.shape), i31, [1, 4, 4], [2, 2, 2], [0, 0, 0], code="CT_ERR_INDEX")
cs.error("max_unpool3d", E(2, 2, 2), i31[0], [4, 4, 4], [2, 2, 2], [0, 0, 0], code="CT_ERR_RANK")

# ---- 3-D adaptive pooling (the 2-D mechanism over D x H x W) ----
cs.add("adaptive_avg_pool3d", g(R(2, 2, 5, 4, 6)), [3, 2, 4])  # opcheck case
cs.add("adaptive_avg_pool3d", g(R(2, 3, 3, 4)), [4, 2, 5])  # unbatched, overlapping windows
cs.add("adaptive_avg_pool3d", g(R(1, 4, 3, 5, 2).permute(0, 4, 2, 3, 1)), [1, 2, 2])  # non-contiguous (1, 2, 3, 5, 4)
cs.add("adaptive_avg_pool3d", g(R(0, 2, 3, 3, 3)), [2, 2, 2])
cs.add("adaptive_avg_pool3d", R(1, 2, 3, 3, 3), [0, 2, 2])
cs.add("adaptive_avg_pool3d", R(1, 2, 5, 5, 4, dtype=f32).requires_grad_(), [2, 3, 3])
cs.add("adaptive_avg_pool3d.out", R(1, 2, 5, 5, 4), [2, 3, 3], out=torch.empty(0, dtype=torch.float64))
cs.add("_adaptive_avg_pool3d", g(R(1, 2, 5, 4, 6)), [3, 2, 4])
cs.add("_adaptive_avg_pool3d_backward", g(R(1, 2, 3, 2, 4)), R(1, 2, 5, 4, 6))
cs.error("adaptive_avg_pool3d", E(1, 2, 3, 3, 3), [3, 3], code="CT_ERR_INVALID")
cs.error("adaptive_avg_pool3d", E(1, 2, 3, 3, 3), [2, -1, 3], code="CT_ERR_INVALID")
cs.error("adaptive_avg_pool3d", E(3, 3, 3), [2, 2, 2], code="CT_ERR_RANK")
cs.error("adaptive_avg_pool3d", E(1, 2, 3, 0, 3), [2, 2, 2], code="CT_ERR_SHAPE")
cs.error("adaptive_avg_pool3d", E(1, 2, 3, 3, 3).long(), [2, 2, 2], code="CT_ERR_DTYPE")
cs.add("adaptive_max_pool3d", g(R(2, 2, 5, 4, 6)), [3, 2, 4])  # opcheck case
cs.add("adaptive_max_pool3d", g(R(2, 3, 3, 4)), [4, 2, 5])
cs.add("adaptive_max_pool3d", g(R(1, 4, 3, 5, 2).permute(0, 4, 2, 3, 1)), [1, 2, 2])
cs.add("adaptive_max_pool3d", g(R(0, 2, 3, 3, 3)), [2, 2, 2])
cs.add("adaptive_max_pool3d", R(1, 2, 5, 5, 4, dtype=f32).requires_grad_(), [2, 3, 3])
cs.add("adaptive_max_pool3d.out", R(1, 2, 5, 5, 4), [2, 3, 3], out=torch.empty(0, dtype=torch.float64),
       indices=torch.empty(0, dtype=torch.long))
cs.error("adaptive_max_pool3d", E(3, 3, 3), [2, 2, 2], code="CT_ERR_RANK")
cs.error("adaptive_max_pool3d", E(1, 2, 3, 0, 3), [2, 2, 2], code="CT_ERR_SHAPE")
cs.error("adaptive_max_pool3d", E(1, 2, 3, 3, 3), [2, 2], code="CT_ERR_INVALID")
cs.error("adaptive_max_pool3d", E(1, 2, 3, 3, 3).long(), [2, 2, 2], code="CT_ERR_DTYPE")
x3a = R(2, 2, 5, 4, 6)
y3a, i3a = A.adaptive_max_pool3d(x3a, [3, 2, 4])
cs.add("adaptive_max_pool3d_backward", g(R(*y3a.shape)), x3a, i3a)
cs.add("adaptive_max_pool3d_backward.grad_input", R(*y3a.shape), x3a, i3a, grad_input=torch.empty(0, dtype=torch.float64))
cs.error("adaptive_max_pool3d_backward", R(*y3a.shape), x3a, i3a + 1000, torch_raises=False, code="CT_ERR_INDEX")

# ---- max_pool3d / avg_pool3d (the 2-D mechanism over D x H x W) ----
cs.add("max_pool3d_with_indices", g(R(2, 2, 5, 6, 5)), [3, 2, 3], [2, 1, 2], [1, 1, 0], [1, 2, 1], True)  # opcheck case
cs.add("max_pool3d_with_indices", g(R(2, 4, 4, 4)), [2])  # unbatched, stride = kernel_size
cs.add("max_pool3d_with_indices", g(R(1, 4, 3, 5, 2).permute(0, 4, 2, 3, 1)), [2], [1], [1])  # non-contiguous (1, 2, 3, 5, 4)
cs.add("max_pool3d_with_indices", g(R(0, 2, 4, 4, 4)), [2, 2, 2])
cs.add("max_pool3d_with_indices", R(1, 2, 5, 5, 5, dtype=f32).requires_grad_(), [3, 3, 3], [2], [1], [1], False)
cs.add("max_pool3d_with_indices", R(1, 2, 5, 5, 5, dtype=torch.bfloat16), [3, 3, 3], [2], [1], [1], True)
ties3 = torch.tensor([[[[[1.0, float("nan")], [3.0, 3.0]], [[-float("inf"), 2.0], [3.0, float("nan")]]]]], dtype=torch.float64)
cs.add("max_pool3d_with_indices", ties3, [2, 2, 2], [1])
cs.add("max_pool3d_with_indices.out", R(1, 2, 4, 4, 4), [2, 2, 2], out=torch.empty(0, dtype=torch.float64),
       indices=torch.empty(0, dtype=torch.long))
cs.add("max_pool3d", g(R(1, 2, 5, 6, 5)), [3, 3, 3], [2], [1], [1], True)
cs.add("max_pool3d", g(R(2, 4, 4, 4)), [2])
cs.error("max_pool3d", E(1, 2, 5, 5, 5), [3, 3, 3], [2], [2], code="CT_ERR_INVALID")
cs.error("max_pool3d", E(1, 2, 5, 5, 5), [0, 3, 3], code="CT_ERR_INVALID")
cs.error("max_pool3d", E(1, 2, 5, 5, 5), [3, 3], code="CT_ERR_INVALID")
cs.error("max_pool3d", E(1, 2, 5, 5, 5), [3], [1, 1], code="CT_ERR_INVALID")
cs.error("max_pool3d", E(1, 2, 5, 5, 5), [3], [1], [0], [0], code="CT_ERR_INVALID")
cs.error("max_pool3d", E(1, 2, 5, 5, 5), [6, 2, 2], code="CT_ERR_SHAPE")
cs.error("max_pool3d", E(1, 0, 5, 5, 5), [2], code="CT_ERR_SHAPE")
cs.error("max_pool3d", E(5, 5, 5), [2], code="CT_ERR_RANK")
cs.error("max_pool3d_with_indices", E(1, 2, 5, 5, 5).long(), [2], code="CT_ERR_DTYPE")
x3m = R(2, 2, 5, 6, 5)
y3m, i3m = A.max_pool3d_with_indices(x3m, [3, 2, 3], [2, 1, 2], [1, 1, 0], [1, 2, 1], True)
cs.add("max_pool3d_with_indices_backward", g(R(*y3m.shape)), x3m, [3, 2, 3], [2, 1, 2], [1, 1, 0], [1, 2, 1], True, i3m)
cs.add("max_pool3d_with_indices_backward.grad_input", R(*y3m.shape), x3m, [3, 2, 3], [2, 1, 2], [1, 1, 0], [1, 2, 1], True, i3m,
       grad_input=torch.empty(0, dtype=torch.float64))
cs.error("max_pool3d_with_indices_backward", R(*y3m.shape), x3m, [3, 2, 3], [2, 1, 2], [1, 1, 0], [1, 2, 1], True, i3m + 1000,
         torch_raises=False, code="CT_ERR_INDEX")
cs.add("avg_pool3d", g(R(1, 2, 5, 6, 5)), [3, 2, 3], [2, 1, 2], [1, 1, 0], True, True)  # opcheck case
cs.add("avg_pool3d", g(R(1, 2, 5, 6, 5)), [3, 2, 3], [2, 1, 2], [1, 1, 0], True, False)  # count_include_pad=False
cs.add("avg_pool3d", g(R(1, 2, 5, 6, 5)), [3, 3, 3], [2], [1], False, True, 5)  # divisor_override
cs.add("avg_pool3d", g(R(2, 4, 4, 4)), [2])  # unbatched
cs.add("avg_pool3d", g(R(1, 4, 3, 5, 2).permute(0, 4, 2, 3, 1)), [2], [1], [1])
cs.add("avg_pool3d", g(R(0, 2, 4, 4, 4)), [2])
cs.add("avg_pool3d", R(1, 2, 5, 5, 5, dtype=f32).requires_grad_(), [3], [2], [1], True)
cs.add("avg_pool3d", cs.randint(-9, 9, 1, 2, 5, 5, 5), [2], [2], [1], False, True)  # int64: truncating division
cs.add("avg_pool3d.out", R(1, 2, 4, 4, 4), [2], out=torch.empty(0, dtype=torch.float64))
xa3 = R(1, 2, 5, 6, 5)
ya3 = A.avg_pool3d(xa3, [3, 2, 3], [2, 1, 2], [1, 1, 0], True, False)
cs.add("avg_pool3d_backward", g(R(*ya3.shape)), xa3, [3, 2, 3], [2, 1, 2], [1, 1, 0], True, False, None)
cs.add("avg_pool3d_backward.grad_input", R(1, 2, 3, 3, 3), R(1, 2, 5, 6, 5), [3, 3, 3], [2], [1], False, True, 5,
       grad_input=torch.empty(0, dtype=torch.float64))
cs.error("avg_pool3d", E(1, 2, 5, 5, 5), [3], [2], [2], code="CT_ERR_INVALID")
cs.error("avg_pool3d", E(1, 2, 5, 5, 5), [3], [1], [1], False, True, 0, code="CT_ERR_INVALID")
cs.error("avg_pool3d", E(1, 2, 5, 5, 5), [6], code="CT_ERR_SHAPE")
cs.error("avg_pool3d", E(1, 2, 5, 5, 5).int(), [2], code="CT_ERR_DTYPE")
cs.error("avg_pool3d", E(5, 5, 5), [2], code="CT_ERR_RANK")

# ---- upsampling ----
UP = [("upsample_nearest1d", 1, False), ("upsample_nearest2d", 2, False), ("upsample_nearest3d", 3, False),
      ("_upsample_nearest_exact1d", 1, False), ("_upsample_nearest_exact2d", 2, False), ("_upsample_nearest_exact3d", 3, False),
      ("upsample_linear1d", 1, True), ("upsample_bilinear2d", 2, True), ("upsample_trilinear3d", 3, True),
      ("upsample_bicubic2d", 2, True)]
IN = {1: [5], 2: [4, 3], 3: [3, 2, 4]}       # input spatial sizes
UPS = {1: [12], 2: [7, 8], 3: [5, 3, 7]}     # enlarged (odd ratios)
DOWN = {1: [3], 2: [3, 2], 3: [2, 1, 3]}     # reduced
SC = {1: [2.5], 2: [1.75, 2.5], 3: [1.7, 2.0, 1.5]}  # scales given with output_size = floor(in * scale)


def up_args(op, n, ac, out, align=False, scales=None):
    return ([out] + ([align] if ac else []) + (list(scales) if scales else []))


for op, n, ac in UP:
    x = R(2, 3, *IN[n])
    cs.add(op, g(x), *up_args(op, n, ac, UPS[n]))  # opcheck case
    cs.add(op, g(R(2, *IN[n])[None]), *up_args(op, n, ac, DOWN[n]))  # downsampling
    outs = [int(i * s) for i, s in zip(IN[n], SC[n])]
    cs.add(op, g(R(1, 2, *IN[n])), *up_args(op, n, ac, outs, False, SC[n]), name=op + "_scales")  # 1/scale, not in/out
    if ac:
        cs.add(op, g(R(1, 2, *IN[n])), *up_args(op, n, ac, UPS[n], True), name=op + "_align")
        cs.add(op, g(R(1, 2, *IN[n])), *up_args(op, n, ac, DOWN[n], True, SC[n]), name=op + "_align_scales")  # scales ignored
        cs.add(op, g(R(1, 2, *IN[n])), *up_args(op, n, ac, [1] * n, True), name=op + "_align_one")
    cs.add(op, g(R(*IN[n][::-1], 3, 2).permute(*range(n + 1, n - 1, -1), *range(n - 1, -1, -1))),
           *up_args(op, n, ac, UPS[n]), name=op + "_noncontig")
    cs.add(op, g(R(0, 2, *IN[n])), *up_args(op, n, ac, UPS[n]), name=op + "_zero_batch")
    cs.add(op, R(1, 2, *IN[n], dtype=f32).requires_grad_(), *up_args(op, n, ac, UPS[n], False, SC[n] if n == 1 else None),
           name=op + "_f32")
    # PyTorch 1.13's bfloat16 kernels keep the weights in bfloat16; ctorch computes in float32 and rounds once
    cs.add(op, R(1, 2, *IN[n], dtype=torch.bfloat16), *up_args(op, n, ac, UPS[n]), name=op + "_bf16",
           ref=lambda x, *a, op=op: getattr(A, op)(x.float(), *a).bfloat16())
    cs.add(op, R(1, 2, *IN[n], dtype=torch.float16), *up_args(op, n, ac, UPS[n]), name=op + "_f16")
    cs.add(op, g(R(1, 2, *IN[n])), *up_args(op, n, ac, IN[n], False, [2.0] * n), name=op + "_same_size_scales")
    cs.add(op + ".out", R(1, 2, *IN[n]), *up_args(op, n, ac, UPS[n]), out=torch.empty(0, dtype=torch.float64))
    full = [2, 3] + IN[n]
    y = R(2, 3, *UPS[n])
    cs.add(op + "_backward", g(y), UPS[n], full, *up_args(op, n, ac, UPS[n])[1:])
    cs.add(op + "_backward", g(R(1, 2, *outs)), outs, [1, 2] + IN[n], *up_args(op, n, ac, outs, False, SC[n])[1:],
           name=op + "_backward_scales")
    cs.add(op + "_backward", g(R(1, 2, *IN[n])), IN[n], [1, 2] + IN[n], *up_args(op, n, ac, IN[n], False, [2.0] * n)[1:],
           name=op + "_backward_same_size_scales")  # nearest / bicubic: a copy, unlike their forward
    doubled = [2 * i for i in IN[n]]
    cs.add(op + "_backward", g(R(1, 2, *doubled)), doubled, [1, 2] + IN[n], *up_args(op, n, ac, doubled, False, [3.0] * n)[1:],
           name=op + "_backward_doubled_scales")  # nearest: index o >> 1 whatever the scale
    cs.add(op + "_backward.grad_input", R(2, 3, *UPS[n]), UPS[n], full, *up_args(op, n, ac, UPS[n])[1:],
           grad_input=torch.empty(0, dtype=torch.float64))
    cs.add(op + "_backward", R(1, 2, *UPS[n], dtype=f32), UPS[n], [1, 2] + IN[n], *up_args(op, n, ac, UPS[n])[1:],
           name=op + "_backward_f32")
    # errors
    cs.error(op, E(2, *IN[n]), *up_args(op, n, ac, UPS[n]), code="CT_ERR_RANK")
    cs.error(op, E(1, 2, *IN[n]), *up_args(op, n, ac, UPS[n] + [2]), code="CT_ERR_INVALID")
    cs.error(op, E(1, 2, *IN[n]), *up_args(op, n, ac, [0] * n), code="CT_ERR_INVALID")
    cs.error(op, E(1, 2, *IN[n]), *up_args(op, n, ac, [-1] + UPS[n][1:]), code="CT_ERR_INVALID")
    cs.error(op, E(1, 2, *([0] + IN[n][1:])), *up_args(op, n, ac, UPS[n]), code="CT_ERR_SHAPE")
    cs.error(op, E(1, 0, *IN[n]), *up_args(op, n, ac, UPS[n]), code="CT_ERR_SHAPE")
    cs.error(op, E(1, 2, *IN[n]).long(), *up_args(op, n, ac, UPS[n]), code="CT_ERR_DTYPE")
    cs.error(op + "_backward", E(1, 2, *UPS[n]), UPS[n], [1, 3] + IN[n], *up_args(op, n, ac, UPS[n])[1:], code="CT_ERR_SHAPE")
    cs.error(op + "_backward", E(2, *UPS[n]), UPS[n], [1, 2] + IN[n], *up_args(op, n, ac, UPS[n])[1:], code="CT_ERR_RANK")
    cs.error(op + "_backward", E(1, 2, *UPS[n]), UPS[n], [1, 2] + IN[n][1:], *up_args(op, n, ac, UPS[n])[1:],
             code="CT_ERR_INVALID")
    cs.error(op + "_backward", E(1, 2, *UPS[n]), UPS[n], [1, 2] + [0] * n, *up_args(op, n, ac, UPS[n])[1:], code="CT_ERR_SHAPE")

# the .vec overloads (F.interpolate): output_size, or scale_factors (size floor(in * factor), index from 1/factor)
VSC = {1: [2.3], 2: [1.6, 2.7], 3: [1.5, 0.7, 2.3]}  # (no size exactly 2 in: nearest's backward shortcut)
for op, n, ac in UP:
    acs = [False] if ac else []
    vec, bvec = op + ".vec", op + "_backward.vec"
    cs.add(vec, g(R(2, 3, *IN[n])), None, *acs, VSC[n])  # opcheck case
    cs.add(vec, g(R(1, 2, *IN[n])), UPS[n], *acs, None, name=vec + "_size")
    if ac:
        cs.add(vec, g(R(1, 2, *IN[n])), None, True, VSC[n], name=vec + "_align")
    cs.add(vec, R(1, 2, *IN[n], dtype=f32).requires_grad_(), None, *acs, VSC[n], name=vec + "_f32")
    cs.add(op + ".vec_out", R(1, 2, *IN[n]), None, *acs, VSC[n], out=torch.empty(0, dtype=torch.float64))
    vout = [int(i * f) for i, f in zip(IN[n], VSC[n])]
    cs.add(bvec, g(R(2, 3, *vout)), None, [2, 3] + IN[n], *acs, VSC[n])
    cs.add(bvec, g(R(1, 2, *UPS[n])), UPS[n], [1, 2] + IN[n], *acs, None, name=bvec + "_size")
    cs.add(op + "_backward.vec_out", R(1, 2, *vout), None, [1, 2] + IN[n], *acs, VSC[n],
           out=torch.empty(0, dtype=torch.float64))
    cs.error(vec, E(1, 2, *IN[n]), UPS[n], *acs, VSC[n], code="CT_ERR_INVALID")
    cs.error(vec, E(1, 2, *IN[n]), None, *acs, None, code="CT_ERR_INVALID")
    cs.error(vec, E(1, 2, *IN[n]), None, *acs, VSC[n] + [2.0], code="CT_ERR_INVALID")
    cs.error(vec, E(1, 2, *IN[n]), None, *acs, [-1.5] * n, code="CT_ERR_INVALID")
    cs.error(vec, E(1, 2, *IN[n]), None, *acs, [0.1] * n, code="CT_ERR_INVALID")  # size 0
    cs.error(vec, E(1, 2, 3, *IN[n]), None, *acs, VSC[n], code="CT_ERR_RANK")
    cs.error(bvec, E(1, 2, *vout), None, [1, 2] + IN[n], *acs, None, code="CT_ERR_INVALID")

# uint8: the nearest forwards only, as PyTorch
for op, n, ac in UP[:6]:
    cs.add(op, cs.randint(0, 255, 1, 2, *IN[n]).to(torch.uint8), UPS[n], name=op + "_u8")
cs.error("upsample_nearest2d_backward", E(1, 2, 7, 8).to(torch.uint8), [7, 8], [1, 2, 4, 3], code="CT_ERR_DTYPE")
cs.error("upsample_bilinear2d", E(1, 2, 4, 3).to(torch.uint8), [7, 8], False, code="CT_ERR_DTYPE")
cs.error("upsample_nearest2d", E(1, 2, 4, 3).int(), [7, 8], code="CT_ERR_DTYPE")

# values checked exactly: float32 nearest indices (float index math), and bicubic's negative source index
cs.add("upsample_nearest1d", torch.arange(7.0, dtype=f32)[None, None], [10], 0.7)
cs.add("_upsample_nearest_exact1d", torch.arange(7.0, dtype=f32)[None, None], [10])
cs.add("upsample_bicubic2d", g(R(1, 1, 2, 2)), [5, 5], False)

# ---- Tensor.unfold (a view), unfold_backward, pixel_shuffle / pixel_unshuffle ----
cs.add("unfold", g(R(3, 7, 2)), 1, 3, 2)  # opcheck case
cs.add("unfold", g(R(3, 7)), -1, 2, 1)  # overlapping windows
cs.add("unfold", g(R(4, 5).t()), 0, 5, 1)  # non-contiguous, one window
cs.add("unfold", g(R(6)), 0, 2, 4)  # step past the last window: trailing elements dropped
cs.add("unfold", g(R(3, 4)), 1, 0, 1)  # empty windows
cs.add("unfold", g(R(0, 4)), 1, 2, 2)
cs.add("unfold", g(R(())), 0, 1, 1)  # 0-dim
cs.add("unfold", g(R(())), -1, 0, 1)
cs.add("unfold", R(2, 9, dtype=f32).requires_grad_(), 1, 4, 3)
cs.add("unfold", cs.randint(-5, 5, 2, 6), 1, 3, 1)
cs.error("unfold", E(3, 4), 1, 5, 1, code="CT_ERR_INVALID")
cs.error("unfold", E(3, 4), 1, 2, 0, code="CT_ERR_INVALID")
cs.error("unfold", E(3, 4), 1, -1, 1, code="CT_ERR_INVALID")
cs.error("unfold", E(3, 4), 2, 1, 1, code="CT_ERR_INDEX")
cs.error("unfold", E(()), 0, 2, 1, code="CT_ERR_INVALID")
cs.add("unfold_backward", g(R(3, 3, 2, 3)), [3, 7, 2], 1, 3, 2)
cs.add("unfold_backward", g(R(3, 6, 2)), [3, 7], -1, 2, 1)
cs.add("unfold_backward", g(R(1)), [], 0, 1, 1)
cs.add("unfold_backward", R(2, 2, 4, dtype=f32), [2, 9], 1, 4, 3)
cs.add("unfold_backward", cs.randint(-5, 5, 2, 4, 3), [2, 6], 1, 3, 1)
cs.add("unfold_backward.out", R(3, 6, 2), [3, 7], 1, 2, 1, out=torch.empty(0, dtype=torch.float64))
cs.error("unfold_backward", E(3, 5, 2), [3, 7], 1, 2, 1, torch_raises=False, code="CT_ERR_SHAPE")  # PyTorch reads past grad_in
cs.error("unfold_backward", E(3, 6, 2).int(), [3, 7], 1, 2, 1, torch_raises=False, code="CT_ERR_DTYPE")
cs.error("unfold_backward", E(3, 6, 2), [3, 7], 1, 2, 0, torch_raises=False, code="CT_ERR_INVALID")  # PyTorch 1.13 divides by zero (SIGFPE)

cs.add("pixel_shuffle", g(R(2, 8, 3, 2)), 2)  # opcheck case
cs.add("pixel_shuffle", g(R(18, 2, 3)), 3)  # unbatched
cs.add("pixel_shuffle", g(R(2, 1, 4, 2, 3)), 2)  # two leading dims
cs.add("pixel_shuffle", g(R(2, 3, 2, 4).transpose(1, 3)), 2)  # non-contiguous (2, 4, 2, 3)
cs.add("pixel_shuffle", g(R(2, 3, 4, 5)), 1)
cs.add("pixel_shuffle", R(0, 4, 2, 2), 2)  # (PyTorch 1.13's backward of a zero batch fails its shape check)
cs.add("pixel_shuffle", cs.randint(-5, 5, 1, 4, 2, 2), 2)
cs.add("pixel_shuffle.out", R(1, 4, 2, 3), 2, out=torch.empty(0, dtype=torch.float64))
cs.error("pixel_shuffle", E(4, 2), 2, code="CT_ERR_RANK")
cs.error("pixel_shuffle", E(7, 2, 2), 2, code="CT_ERR_SHAPE")
cs.error("pixel_shuffle", E(8, 2, 2), 0, code="CT_ERR_INVALID")
cs.add("pixel_unshuffle", g(R(2, 2, 6, 4)), 2)  # opcheck case
cs.add("pixel_unshuffle", g(R(1, 6, 9)), 3)
cs.add("pixel_unshuffle", g(R(2, 4, 6, 3).permute(0, 3, 1, 2)), 2)  # non-contiguous (2, 3, 4, 6)
cs.add("pixel_unshuffle", g(R(2, 3, 4, 5)), 1)
cs.add("pixel_unshuffle", R(1, 2, 4, 4, dtype=f32), 4)
cs.add("pixel_unshuffle.out", R(1, 2, 4, 2), 2, out=torch.empty(0, dtype=torch.float64))
cs.error("pixel_unshuffle", E(4, 2), 2, code="CT_ERR_RANK")
cs.error("pixel_unshuffle", E(2, 3, 4), 2, code="CT_ERR_SHAPE")
cs.error("pixel_unshuffle", E(2, 4, 3), 2, code="CT_ERR_SHAPE")
cs.error("pixel_unshuffle", E(2, 4, 4), -1, code="CT_ERR_INVALID")

# ---- im2col / col2im ----
cs.add("im2col", g(R(1, 2, 4, 5)), [2, 3], [1, 2], [1, 0], [2, 1])
cs.add("im2col", g(R(1, 4, 5)), [2, 2], [1, 1], [0, 0], [2, 1])  # unbatched
cs.add("im2col", g(R(0, 2, 4, 5)), [2, 2], [1, 1], [0, 0], [1, 1])
cs.add("im2col", g(R(1, 4, 3, 2).transpose(1, 3)), [2, 2], [1, 1], [1, 1], [2, 2])  # non-contiguous
cs.add("im2col", R(1, 1, 4, 5, dtype=torch.float16), [2, 2], [1, 1], [0, 0], [1, 1])
cs.add("col2im", g(R(1, 12, 3)), [4, 5], [2, 3], [1, 2], [1, 0], [2, 1])
cs.add("col2im", g(R(4, 12)), [4, 5], [2, 2], [1, 1], [0, 0], [1, 1])  # unbatched
cs.add("col2im", g(R(1, 15, 8).transpose(1, 2)), [5, 4], [2, 2], [2, 1], [1, 0], [1, 1])  # non-contiguous (1, 8, 15)
cs.add("col2im", R(1, 4, 12, dtype=torch.bfloat16), [4, 5], [2, 2], [1, 1], [0, 0], [1, 1])
cs.error("im2col", E(1, 2, 4, 5), [2], [1, 1], [0, 0], [1, 1], code="CT_ERR_INVALID")
cs.error("im2col", E(1, 2, 4, 5), [0, 2], [1, 1], [0, 0], [1, 1], code="CT_ERR_INVALID")
cs.error("im2col", E(1, 2, 4, 5), [5, 2], [1, 1], [0, 0], [1, 1], code="CT_ERR_SHAPE")
cs.error("im2col", E(4, 5), [2, 2], [1, 1], [0, 0], [1, 1], code="CT_ERR_SHAPE")
cs.error("im2col", E(1, 2, 4, 5).long(), [2, 2], [1, 1], [0, 0], [1, 1], code="CT_ERR_DTYPE")
cs.error("col2im", E(1, 13, 12), [4, 5], [2, 2], [1, 1], [0, 0], [1, 1], code="CT_ERR_SHAPE")
cs.error("col2im", E(1, 12, 11), [4, 5], [2, 2], [1, 1], [0, 0], [1, 1], code="CT_ERR_SHAPE")


# ---- conv3d, conv_transpose1d, conv_transpose3d (composites of the 2-D ops) ----
cs.add("conv3d", g(R(2, 3, 5, 4, 4)), g(R(4, 3, 2, 3, 2)), g(R(4)))
cs.add("conv3d", g(R(1, 4, 6, 5, 5)), g(R(6, 2, 3, 2, 2)), None, [2, 1, 2], [1, 0, 1], [2, 1, 1], 2)   # groups, stride, padding, dilation
cs.add("conv3d", g(R(3, 4, 4, 4)), g(R(2, 3, 1, 2, 2)), g(R(2)), 1, 1)                                 # unbatched, int lists
cs.add("conv3d", g(R(2, 5, 4, 4, 3).transpose(1, 2)), g(R(2, 4, 2, 2, 2)))                            # non-contiguous
cs.add("conv3d", R(1, 2, 4, 4, 4, dtype=f32), R(3, 2, 3, 3, 3, dtype=f32), R(3, dtype=f32), 1, 1)
cs.error("conv3d", R(2, 3, 4, 4), R(4, 3, 2, 2, 2, 2), code="CT_ERR_RANK")
cs.error("conv3d", R(1, 3, 2, 4, 4), R(4, 3, 3, 2, 2), code="CT_ERR_SHAPE")
cs.error("conv3d", R(1, 3, 4, 4, 4), R(4, 2, 2, 2, 2), code="CT_ERR_SHAPE")
cs.add("conv_transpose1d", g(R(2, 3, 5)), g(R(3, 4, 3)), g(R(4)))
cs.add("conv_transpose1d", g(R(1, 4, 6)), g(R(4, 3, 2)), None, 2, 1, 1, 2, 2)          # stride, padding, output_padding, groups, dilation
cs.add("conv_transpose1d", g(R(3, 5)), g(R(3, 2, 3)))                                   # unbatched
cs.add("conv_transpose3d.input", g(R(2, 3, 3, 4, 4)), g(R(3, 2, 2, 3, 2)), g(R(2)))
cs.add("conv_transpose3d.input", g(R(1, 4, 3, 3, 3)), g(R(4, 2, 3, 2, 2)), None, [2, 1, 2], [1, 0, 1], [1, 0, 1], 2, [1, 2, 1])
cs.add("conv_transpose3d.input", g(R(3, 2, 3, 3)), g(R(3, 2, 2, 2, 2)), None, 1, 1)          # unbatched
cs.add("conv_transpose3d.input", R(1, 2, 3, 3, 3, dtype=f32), R(2, 3, 3, 3, 3, dtype=f32), R(3, dtype=f32), 2, 1, 1)
cs.error("conv_transpose3d.input", R(1, 3, 3, 3, 3), R(2, 2, 2, 2, 2), code="CT_ERR_SHAPE")
cs.error("conv_transpose3d.input", R(1, 3, 3, 3, 3), R(3, 2, 2, 2, 2), None, 1, 0, 2, code="CT_ERR_INVALID")


# ---- affine_grid_generator, grid_sampler_2d ----
def grid(*shape, scale=1.1):
    return (torch.rand(*shape, dtype=torch.float64, generator=cs.gen) * 2 - 1) * scale


cs.add("affine_grid_generator", g(R(2, 2, 3)), [2, 3, 4, 5], False)
cs.add("affine_grid_generator", g(R(2, 2, 3)), [2, 3, 4, 5], True)
cs.add("affine_grid_generator", g(R(1, 2, 3)), [1, 1, 1, 3], False)
cs.add("affine_grid_generator", g(R(2, 3, 4)), [2, 1, 2, 3, 4], False)
cs.add("affine_grid_generator", R(2, 2, 3, dtype=f32), [2, 3, 4, 5], True)
cs.error("affine_grid_generator", R(2, 2, 3), [2, 3, 4], False, code="CT_ERR_INVALID")
cs.error("affine_grid_generator", R(2, 3, 3), [2, 3, 4, 5], False, code="CT_ERR_SHAPE")
for interp in (0, 1, 2):
    for pad in (0, 1, 2):
        for ac in (False, True):
            cs.add("grid_sampler_2d", g(R(2, 3, 4, 5)), g(grid(2, 3, 6, 2)), interp, pad, ac,
                   gradcheck=interp != 1)   # (nearest: piecewise constant in grid)
cs.add("grid_sampler_2d", g(R(1, 2, 5, 4).transpose(2, 3)), g(grid(1, 4, 2, 2, scale=3.0)), 0, 2, False)   # far outside: reflections
cs.add("grid_sampler_2d", g(R(1, 2, 3, 3)), g(grid(1, 2, 2, 2, scale=3.0)), 2, 2, True)
cs.add("grid_sampler_2d", R(1, 2, 3, 3, dtype=f32), grid(1, 2, 2, 2).float(), 0, 0, False)
cs.add("grid_sampler_2d", g(R(1, 1, 1, 1)), g(grid(1, 2, 2, 2)), 0, 1, True)
cs.add("grid_sampler", g(R(2, 3, 4, 5)), g(grid(2, 3, 6, 2)), 0, 0, False)
nan_grid = grid(1, 2, 2, 2)
nan_grid[0, 0, 1, 0] = float("nan")
nan_grid[0, 1, 0, 1] = float("inf")
for interp in (0, 1, 2):
    cs.add("grid_sampler_2d", R(1, 2, 3, 3), nan_grid, interp, 0, False)     # NaN / inf positions: zeros
for interp in (0, 1):
    for pad in (0, 1, 2):
        for ac in (False, True):
            cs.add("grid_sampler_3d", g(R(2, 2, 3, 4, 3)), g(grid(2, 2, 3, 2, 3)), interp, pad, ac, gradcheck=interp != 1)
cs.add("grid_sampler_3d", g(R(1, 2, 3, 3, 4).transpose(3, 4)), g(grid(1, 2, 2, 2, 3, scale=3.0)), 0, 2, False)
cs.add("grid_sampler", g(R(1, 2, 3, 3, 3)), g(grid(1, 2, 2, 2, 3)), 0, 0, True)
cs.error("grid_sampler_3d", R(1, 2, 3, 3, 3), grid(1, 2, 2, 2, 3), 2, 0, False, code="CT_ERR_INVALID")
cs.error("grid_sampler_2d", R(2, 3, 4, 5), grid(1, 3, 6, 2), 0, 0, False, code="CT_ERR_SHAPE")
cs.error("grid_sampler_2d", R(2, 3, 4, 5), grid(2, 3, 6, 2).float(), 0, 0, False, code="CT_ERR_DTYPE")
cs.error("grid_sampler_2d", R(2, 3, 0, 5), grid(2, 3, 6, 2), 0, 0, False, code="CT_ERR_SHAPE")

# max_pool2d's 2-D dilation-1 path (at the end: the cases above keep their random draws): whole windows
# inside the input, clipped ones at the borders, ceil_mode's partial last windows
cs.add("max_pool2d_with_indices", R(2, 3, 7, 9, dtype=f32), [2, 2], [2], [0], [1], True)
cs.add("max_pool2d_with_indices", R(1, 3, 8, 6, dtype=f32), [3, 3], [2], [1], [1], False)
cs.add("max_pool2d_with_indices", R(1, 2, 7, 8), [3, 2], [1, 2], [1, 0], [1], True)
cs.add("max_pool2d_with_indices", R(1, 2, 6, 7), [1, 4], [3, 1], [0, 2], [1], False)
nanties = torch.tensor([[[[1.0, 1.0, 2.0, 2.0, float("nan"), 0.0],
                          [0.0, 1.0, 2.0, float("nan"), float("nan"), 5.0],
                          [-0.0, 0.0, float("inf"), -float("inf"), 3.0, 3.0],
                          [0.0, -0.0, float("nan"), 7.0, 3.0, 3.0]]]], dtype=f32)
cs.add("max_pool2d_with_indices", nanties, [2, 2])  # whole 2x2 windows: first of the ties, last NaN, signed zeros
cs.add("max_pool2d_with_indices", nanties, [3, 3], [1], [1], [1], True)

cs.write()
