"""tests/cases_random.py - PyTorch cases for gen/ops/random.spec (writes tests/fixtures/cases_random.h).

Run with Debian's torch: /usr/bin/python3 tests/cases_random.py
PyTorch's CPU generator (mt19937) is not ctorch's (Philox, ctorch/ops/random.h), so
only cases whose values do not depend on the stream are here: degenerate
distributions (from == to, std == 0, p in {0, 1}, one-value ranges), empty
results, the factories without randomness (eye, linspace) and dropout in
evaluation. tests/test_ops_random.c tests the streams themselves.
"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import opcases  # noqa: E402

cs = opcases.Cases("random")
rn = cs.randn
f32, f16, bf16, i64, i32, u8 = torch.float32, torch.float16, torch.bfloat16, torch.int64, torch.int32, torch.uint8

# ---- sampling with one possible value ----
cs.add("uniform_", rn(3, 4), 2.5, 2.5)
cs.add("uniform_", rn(4, 3, dtype=f32).t(), -1.0, -1.0)                 # non-contiguous self
cs.add("uniform_", rn(0, 3), 0.0, 1.0)                                  # empty
cs.add("normal_", rn(2, 3), 1.5, 0.0)
cs.add("normal_", rn(5, dtype=f32), -2.0, 0.0)
cs.add("random_.from", cs.randint(0, 9, 2, 3), 3, 4)
cs.add("random_.from", rn(2, 3, dtype=f32), -7, -6)
cs.add("random_.from", cs.randint(0, 9, 4, dtype=u8), 200, 201)
cs.add("random_.to", cs.randint(0, 9, 2, 3), 1)
cs.add("random_.to", rn(3, dtype=f32), 1)
cs.add("random_", rn(0, 2))
cs.add("random_", cs.randint(0, 9, 0, dtype=u8))
cs.add("bernoulli_.float", rn(2, 3), 0.0)
cs.add("bernoulli_.float", cs.randint(0, 9, 5), 1.0)
cs.add("bernoulli_.float", rn(3) > 0, 1.0)
cs.add("bernoulli", torch.tensor([[0.0, 1.0, 1.0], [1.0, 0.0, 0.0]], dtype=torch.float64), gradcheck=False)  # p +- eps leaves [0, 1]
cs.add("bernoulli", torch.tensor([1.0, 0.0, 1.0, 1.0], dtype=f32)[::2])
# PyTorch defines normal's gradients as zero (not the pathwise mean/std derivative), so finite
# differences disagree by design: no gradcheck
cs.add("normal.Tensor_float", rn(2, 3), 0.0, gradcheck=False)
cs.add("normal.float_Tensor", 1.5, torch.zeros(4, dtype=f32), gradcheck=False)
cs.add("normal.Tensor_Tensor", rn(2, 1), torch.zeros(3, dtype=torch.float64), gradcheck=False)
cs.error("normal.Tensor_float", rn(3), -1.0, code="CT_ERR_INVALID")
cs.error("normal.float_Tensor", 0.0, torch.tensor([1.0, -1.0], dtype=torch.float64), code="CT_ERR_INVALID")
cs.error("normal.Tensor_Tensor", rn(2), rn(3).abs(), code="CT_ERR_SHAPE")
cs.error("normal.Tensor_float", cs.randint(0, 5, 3), 1.0, code="CT_ERR_DTYPE")
cs.add("rand_like", rn(0, 3))
cs.add("randn_like", rn(2, 0, dtype=f32), dtype=torch.float64)
cs.error("rand_like", cs.randint(0, 5, 3), code="CT_ERR_DTYPE")
cs.add("bernoulli.p", rn(2, 3), 1.0)
cs.add("bernoulli.p", cs.randint(0, 9, 3), 0.0)

# ---- factories: empty or one-valued results, eye, linspace ----
cs.add("rand.generator_out", [0, 3], generator=None, out=torch.empty(2))
cs.add("randn.generator_out", [0], generator=None, out=torch.empty(0, dtype=torch.float64))
cs.add("randint.low_generator_out", 5, 6, [2, 3], generator=None, out=torch.empty(0, dtype=i64))
cs.add("randint.low_generator_out", -3, -2, [4], generator=None, out=torch.empty(0, dtype=f32))
cs.add("randperm.generator_out", 1, generator=None, out=torch.empty(0, dtype=i64))
cs.add("randperm.generator_out", 0, generator=None, out=torch.empty(3, dtype=i64))
cs.add("eye.out", 3, out=torch.empty(0))
cs.add("eye.out", 0, out=torch.empty(0, dtype=torch.float64))
cs.add("eye.m_out", 2, 4, out=torch.empty(1, dtype=i64))
cs.add("eye.m_out", 4, 2, out=torch.empty(0, dtype=torch.bool))
cs.add("linspace.out", -1, 1, 7, out=torch.empty(0))
cs.add("linspace.out", 0.1, 0.7, 5, out=torch.empty(0))
cs.add("linspace.out", -3.7, 11.2, 9, out=torch.empty(0, dtype=torch.float64))
cs.add("linspace.out", 3, -4, 4, out=torch.empty(0, dtype=i32))
cs.add("linspace.out", 0, 10, 5, out=torch.empty(0, dtype=i64))
cs.add("linspace.out", 2.5, 9.0, 1, out=torch.empty(0))
cs.add("linspace.out", 2.5, 9.0, 0, out=torch.empty(2))
# the functional factories (dispatched through BackendSelect; the stream-free cases)
cs.add("rand", [0, 3])
cs.add("randn", [2, 0], dtype=torch.float64)
cs.add("randint.low", 5, 6, [2, 3])
cs.add("randint.low", -3, -2, [4], dtype=f32)
cs.add("randperm", 1)
cs.add("randperm", 0, dtype=i32)
cs.add("eye", 3)
cs.add("eye", 0, dtype=torch.float64)
cs.add("eye.m", 2, 4, dtype=i64)
cs.add("eye.m", 4, 2, dtype=torch.bool)
cs.add("linspace", -1, 1, 7)
cs.add("linspace", 0, 10, 5, dtype=i64)
cs.add("linspace", 2.5, 9.0, 1, dtype=torch.float64)
cs.add("arange.start_step", 0, 5, 1)                                   # integer bounds: int64
cs.add("arange.start_step", 0, 5, 0.5)                                 # a float bound: float32
cs.add("arange.start_step", -3, 2.5, 0.7, dtype=torch.float64)
cs.add("arange.start_step", 10, 0, -3, dtype=i32)
cs.add("arange.start_step", 0, 0, 1)
cs.add("arange.start_step", 0.5, 7, 2, dtype=i64)                      # integer dtype: the bounds truncate
cs.add("arange.start_step", 1, 4, 1, dtype=u8)
cs.add("arange.start_out", 0, 4, 1, out=torch.empty(0, dtype=i64))
cs.add("arange.start_out", 0.5, 3, 0.25, out=torch.empty(2))
cs.add("arange.start_out", -1, 1, 0.5, out=torch.empty(4, dtype=torch.float64))  # the right size already

# ---- dropout without randomness ----
cs.add("native_dropout", rn(2, 3).requires_grad_(), 0.3, False)          # evaluation: copy, all-true mask
cs.add("native_dropout", rn(3, 2, dtype=f32).t(), 0.5, False)
cs.add("native_dropout_backward", rn(2, 3).requires_grad_(), torch.tensor([[True, False, True], [False, False, True]]), 2.0)
cs.add("native_dropout_backward", rn(4, dtype=f32), torch.tensor([True, False, True, True]), 0.5)
cs.add("dropout", rn(2, 3).requires_grad_(), 0.4, False)
cs.add("dropout", rn(2, 3).requires_grad_(), 0.0, True)
cs.add("dropout", rn(2, 3).requires_grad_(), 1.0, True)                  # zeros

# ---- errors ----
cs.error("uniform_", rn(3), 1.0, 0.0, code="CT_ERR_INVALID")
cs.error("uniform_", cs.randint(0, 5, 3), 0.0, 1.0, code="CT_ERR_DTYPE")
cs.error("normal_", rn(3), 0.0, -1.0, code="CT_ERR_INVALID")
cs.error("random_.from", cs.randint(0, 5, 3), 5, 5, code="CT_ERR_INVALID")
cs.error("random_.from", cs.randint(0, 5, 3, dtype=u8), 0, 300, code="CT_ERR_INVALID")
cs.error("random_.to", cs.randint(0, 5, 3), 0, code="CT_ERR_INVALID")
cs.error("bernoulli_.float", rn(3), 1.5, code="CT_ERR_INVALID")
cs.error("bernoulli", torch.tensor([0.5, 1.5], dtype=torch.float64), code="CT_ERR_INVALID")
cs.error("randperm.generator_out", -1, generator=None, out=torch.empty(0, dtype=i64), code="CT_ERR_INVALID")
cs.error("randint.low_generator_out", 3, 3, [2], generator=None, out=torch.empty(0, dtype=i64), code="CT_ERR_INVALID")
cs.error("eye.out", -1, out=torch.empty(0), code="CT_ERR_INVALID")
cs.error("eye.m_out", 2, -1, out=torch.empty(0), code="CT_ERR_INVALID")
cs.error("linspace.out", 0, 1, -1, out=torch.empty(0), code="CT_ERR_INVALID")
cs.error("arange.start_step", 0, 5, 0, code="CT_ERR_INVALID")
cs.error("arange.start_step", 0, 5, -1, code="CT_ERR_INVALID")
cs.error("arange.start_step", 0.0, float("inf"), 1, code="CT_ERR_INVALID")
cs.error("arange.start_out", 0, 3, 1, out=torch.empty(0, dtype=torch.bool), code="CT_ERR_DTYPE")
cs.error("eye", -1, code="CT_ERR_INVALID")
cs.error("randperm", -1, code="CT_ERR_INVALID")
cs.error("randint.low", 3, 3, [2], code="CT_ERR_INVALID")
cs.error("linspace", 0, 1, -1, code="CT_ERR_INVALID")
cs.error("dropout", rn(3), 1.5, True, code="CT_ERR_INVALID")
cs.error("native_dropout", rn(3), -0.5, True, code="CT_ERR_INVALID")

cs.write()
