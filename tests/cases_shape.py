"""tests/cases_shape.py - PyTorch fixture cases of gen/ops/shape.spec (tests/opcases.py).

Run: /usr/bin/python3 tests/cases_shape.py  (writes tests/fixtures/cases_shape.h)
Scatter-like cases use unique indices wherever gradients are checked (duplicates
make torch's forward order-dependent); gather/index_select/index/embedding use
duplicates, whose gradients accumulate.
"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import opcases  # noqa: E402

cs = opcases.Cases("shape")
R = cs.randn
L = torch.long


def g(t):
    return t.detach().clone().requires_grad_()


def idx(*v, shape=None):
    t = torch.tensor(v, dtype=L)
    return t.view(shape) if shape is not None else t


# ---- cat / stack ----
a, b = R(2, 3), R(2, 4)
# ct_opcheck takes Tensor[] arguments (each element is a gradcheck input) and Tensor[] results
# (flattened and concatenated); tests/test_ops_shape.c checks these ops directly as well.
# Ops without a derivative (legacy scatter reductions) skip gradcheck.
NOCHECK = dict()
cs.add("cat", [g(a), g(b)], 1, **NOCHECK)
cs.add("cat", [g(a), g(R(3, 2)).t()], 0, name="cat_noncontig")
cs.add("cat", [g(a), g(R(0)), g(R(1, 3))], -2, name="cat_legacy_empty_skipped")
cs.add("cat", [a.float(), b], 1, name="cat_promote_f32_f64")
cs.add("cat", [cs.randint(-5, 5, 2, 2), a[:, :2].float()], 0, name="cat_promote_int_float")
cs.add("cat", [torch.tensor([True, False]), cs.randint(0, 9, 3, dtype=torch.int32)], 0, name="cat_bool_int")
cs.add("cat", [R(0, 3), R(2, 3)], 0, name="cat_zero_size")
cs.add("cat", [R(2, 3, dtype=torch.float16), R(2, 1, dtype=torch.float16)], 1, name="cat_f16")
cs.add("cat", [R(3, dtype=torch.bfloat16), R(2, dtype=torch.bfloat16)], 0, name="cat_bf16")
cs.add("cat", [R(0), R(0)], 0, name="cat_only_empty")
cs.error("cat", [a, R(3, 3)], 1, code="CT_ERR_SHAPE")
cs.error("cat", [a, R(3)], 0, code="CT_ERR_SHAPE")
cs.error("cat", [a, R(())], 0, code="CT_ERR_RANK")
cs.error("cat", [a, b], 2, code="CT_ERR_INDEX")
cs.add("stack", [g(a), g(R(3, 2)).t()], 0, **NOCHECK)
cs.add("stack", [g(a), g(a * 2)], -1, name="stack_last")
cs.add("stack", [R(()), R(())], 0, name="stack_0dim")
cs.add("stack", [a.float(), cs.randint(0, 5, 2, 3)], 1, name="stack_promote")
cs.error("stack", [a, b], 0, code="CT_ERR_SHAPE")
cs.error("stack", [a, a], 3, code="CT_ERR_INDEX")

# ---- flip / roll / repeat / tile ----
x3 = R(2, 3, 4)
cs.add("flip", g(x3), [0, -1])
cs.add("flip", g(R(4, 3)).t(), [1], name="flip_noncontig")
cs.add("flip", cs.randint(-9, 9, 3, 2), [0, 1], name="flip_int")
cs.add("flip", torch.tensor([True, False, False]), [0], name="flip_bool")
cs.add("flip", R(2, 3, dtype=torch.float16), [1], name="flip_f16")
cs.add("flip", g(R(())), [], name="flip_0dim")
cs.add("flip", R(0, 3), [0, 1], name="flip_zero_size")
cs.error("flip", x3, [0, 0], code="CT_ERR_INVALID")
cs.error("flip", x3, [3], code="CT_ERR_INDEX")
cs.add("roll", g(x3), [1, -5], [0, 2])
cs.add("roll", g(R(3, 4)).t(), [3], [], name="roll_flat_noncontig")
cs.add("roll", g(R(5)), [7], name="roll_1d_default_dims")
cs.add("roll", cs.randint(0, 9, 2, 3), [1], [1], name="roll_int")
cs.add("roll", R(0, 3), [2], [0], name="roll_zero_size")
cs.error("roll", x3, [1, 2], [0], code="CT_ERR_INVALID")
cs.add("repeat", g(R(2, 3)), [2, 1, 3])
cs.add("repeat", g(R(3, 2)).t(), [2, 2], name="repeat_noncontig")
cs.add("repeat", g(R(())), [3], name="repeat_0dim")
cs.add("repeat", g(R(2, 3)), [0, 1], name="repeat_zero")
cs.add("repeat", cs.randint(0, 9, 2), [2, 2], name="repeat_int")
cs.error("repeat", a, [2], code="CT_ERR_INVALID")
cs.error("repeat", a, [-1, 2], code="CT_ERR_INVALID")
cs.add("tile", g(R(2, 3)), [2])
cs.add("tile", g(R(3)), [2, 2], name="tile_more_dims")

# ---- padding ----
cs.add("constant_pad_nd", g(x3), [1, 2, -1, 0], 0.5)
cs.add("constant_pad_nd", g(R(3, 2)).t(), [2, 0], name="constant_pad_nd_noncontig")
cs.add("constant_pad_nd", cs.randint(0, 9, 2, 2), [1, 1, 1, 1], 7, name="constant_pad_nd_int")
cs.add("constant_pad_nd", R(0, 2), [1, 1], name="constant_pad_nd_zero_size")
cs.error("constant_pad_nd", a, [1], code="CT_ERR_INVALID")
cs.error("constant_pad_nd", a, [-2, -2], code="CT_ERR_INVALID")
cs.error("constant_pad_nd", a, [1, 1, 1, 1, 1, 1], code="CT_ERR_INVALID")
for name, x, p in [("reflection_pad1d", R(2, 5), [2, 3]), ("reflection_pad1d", R(2, 3, 4), [-1, 2]),
                   ("reflection_pad2d", R(2, 3, 4), [1, 2, 2, 1]), ("reflection_pad2d", R(1, 2, 3, 3), [2, 0, 1, 2]),
                   ("reflection_pad3d", R(1, 2, 3, 3), [1, 1, 2, 0, 1, 1]), ("reflection_pad3d", R(1, 1, 2, 3, 2), [1, 0, 2, 1, 1, 1]),
                   ("replication_pad1d", R(2, 3), [2, 3]), ("replication_pad1d", R(2, 3, 4), [1, -1]),
                   ("replication_pad2d", R(2, 3, 4), [3, 1, 0, 2]), ("replication_pad2d", R(1, 2, 3, 3), [1, 1, 2, 2]),
                   ("replication_pad3d", R(1, 2, 3, 2), [1, 0, 1, 0, 2, 1]), ("replication_pad3d", R(1, 1, 2, 3, 2), [0, 1, 1, 0, 2, 2])]:
    cs.add(name, g(x), p)
    y = torch.ops.aten.__getattr__(name)(x, p)
    cs.add(name + "_backward", g(R(tuple(y.shape))), g(x), p)
cs.add("reflection_pad2d", g(R(3, 4, 2).transpose(0, 2)), [1, 1, 1, 1], name="reflection_pad2d_noncontig")
cs.add("replication_pad1d", R(0, 2, 3), [1, 1], name="replication_pad1d_zero_batch")
cs.add("reflection_pad1d", R(2, 3, dtype=torch.float32), [1, 1], name="reflection_pad1d_f32")
cs.error("reflection_pad1d", R(2, 3), [3, 0], code="CT_ERR_INVALID")
cs.error("reflection_pad2d", R(2, 3), [1, 1, 1, 1], code="CT_ERR_RANK")
cs.error("reflection_pad1d", R(2, 0, 3), [1, 1], code="CT_ERR_SHAPE")
cs.error("reflection_pad1d", cs.randint(0, 5, 2, 3), [1, 1], code="CT_ERR_DTYPE")
cs.add("pad", g(x3), [1, 2, 0, 1])
cs.add("pad", g(x3), [1, 2], "constant", 2.5, name="pad_value")
cs.add("pad", g(x3), [1, 2], "reflect", name="pad_reflect1d")
cs.add("pad", g(R(1, 2, 3, 4)), [1, 2, 2, 1], "reflect", name="pad_reflect2d")
cs.add("pad", g(R(1, 2, 2, 3)), [1, 1, 0, 2, 1, 0], "replicate", name="pad_replicate3d")
cs.add("pad", g(x3), [2, 1], "circular", name="pad_circular1d")
cs.add("pad", g(R(1, 2, 3, 4)), [1, 2, 3, 0], "circular", name="pad_circular2d")
cs.error("pad", x3, [1, 1], "reflect", 1.0, code="CT_ERR_INVALID")
cs.error("pad", x3, [1, 1], "wrap", code="CT_ERR_INVALID")
cs.error("pad", x3, [1, 1, 1, 1, 1, 1, 1, 1], "replicate", code="CT_ERR_INVALID")

# ---- tril / triu ----
cs.add("tril", g(x3), 1)
cs.add("tril", g(R(4, 3)).t(), -1, name="tril_noncontig")
cs.add("tril", torch.ones(3, 3, dtype=torch.bool), 0, name="tril_bool")
cs.add("tril", cs.randint(0, 9, 2, 4), 5, name="tril_int_big_diag")
cs.add("triu", g(x3), -1)
cs.add("triu", R(0, 3), 0, name="triu_zero_size")
cs.add("triu", R(3, 4, dtype=torch.bfloat16), 2, name="triu_bf16")
cs.error("tril", R(3), 0, code="CT_ERR_RANK")

# ---- gather / scatter ----
m = R(3, 4)
i_dup = idx(2, 0, 1, 1, 0, 0, shape=(3, 2))
i_uniq = idx(1, 0, 2, 0, 2, 1, shape=(2, 3))  # per column: distinct rows
cs.add("gather", g(m), 1, i_dup)
cs.add("gather", g(m), 0, idx(2, 0, 1, 1, 0, 0, 1, 2, shape=(2, 4)), name="gather_dim0")
cs.add("gather", g(R(4, 3)).t(), -1, i_dup, name="gather_noncontig")
cs.add("gather", cs.randint(0, 9, 3, 4), 1, i_dup, name="gather_int")
cs.add("gather", g(R(())), 0, idx(0).view(()), name="gather_0dim")
cs.add("gather", R(3, 4), 1, torch.zeros(3, 0, dtype=L), name="gather_empty_index")
cs.error("gather", m, 1, i_dup.int(), code="CT_ERR_DTYPE")
cs.error("gather", m, 1, idx(4, shape=(1, 1)), code="CT_ERR_INDEX")
cs.error("gather", m, 0, idx(-1, shape=(1, 1)), code="CT_ERR_INDEX")
cs.error("gather", m, 0, idx(1), code="CT_ERR_SHAPE")
cs.error("gather", m, 0, torch.zeros(1, 5, dtype=L), code="CT_ERR_SHAPE")
cs.error("gather", m, 2, idx(0, shape=(1, 1)), code="CT_ERR_INDEX")
src = R(2, 3)
cs.add("scatter.src", g(m), 0, i_uniq, g(src))
cs.add("scatter.src", g(m), 0, i_uniq, R(3, 4), name="scatter_src_larger")  # torch 1.13 cannot backprop to a larger src
cs.add("scatter.value", g(m), 1, idx(3, 0, 1, 2, shape=(2, 2)), 2.5)
cs.add("scatter.value", cs.randint(0, 9, 3, 4), 1, idx(3, 0, 1, 2, shape=(2, 2)), 7, name="scatter_value_int")
cs.add("scatter_add", g(m), 0, i_uniq, g(src))
cs.add("scatter_add", g(m), 1, i_dup, g(R(3, 2)), name="scatter_add_dup")
cs.add("scatter_add", g(R(4, 3)).t(), 1, i_dup, g(R(3, 2)), name="scatter_add_noncontig")
cs.add("scatter_add", cs.randint(0, 9, 3, 4), 1, i_dup, cs.randint(0, 9, 3, 2), name="scatter_add_int")
cs.add("scatter_add", R(3, 4, dtype=torch.float16), 1, i_dup, R(3, 2, dtype=torch.float16), name="scatter_add_f16")
cs.error("scatter.src", m, 0, i_uniq, src.float(), code="CT_ERR_DTYPE")
cs.error("scatter_add", m, 1, torch.zeros(4, 1, dtype=L), R(4, 1), code="CT_ERR_SHAPE")
cs.error("scatter_add", m, 1, i_dup, R(3, 1), code="CT_ERR_SHAPE")
cs.error("scatter.value", m, 1, i_dup.int(), 1.0, code="CT_ERR_DTYPE")
i_red = torch.zeros(2, 3, dtype=L)
for red in ["sum", "prod", "mean", "amax", "amin"]:
    for inc in [True, False]:
        cs.add("scatter_reduce.two", g(m), 0, i_red, g(src), red, include_self=inc, name="scatter_reduce_%s_%d" % (red, inc))
cs.add("scatter_reduce.two", cs.randint(-9, 9, 3, 4), 0, i_red, cs.randint(-9, 9, 2, 3), "mean", name="scatter_reduce_int_mean")
cs.error("scatter_reduce.two", m, 0, i_red, src, "max", code="CT_ERR_INVALID")
cs.add("scatter.reduce", m, 0, i_uniq, src, reduce="multiply", gradcheck=False)
cs.add("scatter.value_reduce", m, 0, i_uniq, 1.5, reduce="add", gradcheck=False)

# ---- index_select / index_add / index_copy / index_fill ----
cs.add("index_select", g(x3), 1, idx(2, 0, 2))
cs.add("index_select", g(R(4, 3)).t(), 0, idx(1, 1).int(), name="index_select_int32_noncontig")
cs.add("index_select", g(R(())), 0, idx(0), name="index_select_0dim")
cs.add("index_select", R(3, 2), 0, torch.zeros(0, dtype=L), name="index_select_empty")
cs.add("index_select", torch.tensor([True, False, True]), 0, idx(2, 1), name="index_select_bool")
cs.error("index_select", x3, 1, idx(3), code="CT_ERR_INDEX")
cs.error("index_select", x3, 1, idx(-1), code="CT_ERR_INDEX")
cs.error("index_select", x3, 1, idx(0, shape=(1, 1)), code="CT_ERR_SHAPE")
cs.error("index_select", x3, 1, torch.zeros(1), code="CT_ERR_DTYPE")
cs.add("index_add", g(R(3, 4)), 0, idx(2, 0, 2), g(R(3, 4)))
cs.add("index_add", g(R(3, 4)), 1, idx(1, 3).int(), g(R(3, 2)), alpha=2.5, name="index_add_alpha")
cs.add("index_add", cs.randint(0, 9, 3, 4), 1, idx(1, 3), cs.randint(0, 9, 3, 2), alpha=3, name="index_add_int")
cs.error("index_add", m, 0, idx(0), R(1, 4).float(), code="CT_ERR_DTYPE")
cs.error("index_add", m, 0, idx(0, 1), R(1, 4), code="CT_ERR_SHAPE")
cs.add("index_copy", g(R(3, 4)), 1, idx(3, 0), g(R(3, 2)))
cs.error("index_copy", m, 1, idx(3, 0).int(), R(3, 2), code="CT_ERR_DTYPE")
cs.add("index_fill.int_Scalar", g(x3), -1, idx(3, 1), -2.0)
cs.add("index_fill.int_Scalar", cs.randint(0, 9, 3, 4), 0, idx(1), 5, name="index_fill_int")
cs.add("index_fill.int_Tensor", g(R(3, 4)), 1, idx(1, 1, 3), g(R(())))
cs.add("index_fill.int_Tensor", R(3, 4), 0, idx(2), cs.randint(0, 9, ()), name="index_fill_tensor_int_value")
cs.error("index_fill.int_Tensor", R(3, 4), 0, idx(2), R(1), code="CT_ERR_RANK")

# ---- advanced indexing ----
cs.add("index.Tensor", g(x3), [idx(1, 0, 1)])
cs.add("index.Tensor", g(x3), [idx(1, 0, 1, 1, shape=(2, 2)), idx(-1, 0)], name="index_broadcast_neg")
cs.add("index.Tensor", g(R(4, 3)).t(), [idx(2), idx(3, 0, 1)], name="index_noncontig")
cs.add("index.Tensor", g(x3), [idx(1), idx(2), idx(3)], name="index_all_dims")
cs.add("index.Tensor", g(x3), [torch.tensor([True, False])], name="index_bool_mask")
cs.add("index.Tensor", g(m), [m > 0], name="index_bool_mask_2d")
cs.add("index.Tensor", cs.randint(0, 9, 3, 4), [idx(0, 2)], name="index_int")
cs.add("index.Tensor", R(3, 4), [torch.zeros(0, dtype=L)], name="index_empty")
cs.error("index.Tensor", x3, [idx(2)], code="CT_ERR_INDEX")
cs.error("index.Tensor", x3, [idx(0).int()], code="CT_ERR_DTYPE")
cs.error("index.Tensor", x3, [idx(0), idx(0), idx(0), idx(0)], code="CT_ERR_INDEX")
cs.error("index.Tensor", x3, [idx(0, 1), idx(0, 1, 2)], code="CT_ERR_INDEX")
cs.add("index_put", g(x3), [idx(1, 0)], g(R(3, 4)))
cs.add("index_put", g(x3), [idx(1, 1), idx(2, 2)], g(R(2, 4)), True, name="index_put_accumulate_dup")
cs.add("index_put", g(m), [m > 0], g(R(())), name="index_put_mask_scalar")
cs.add("index_put_", R(3, 4), [idx(2, 0)], R(4))
cs.add("index_put_", cs.randint(0, 9, 3, 4), [idx(1, 1), idx(0, 0)], idx(5, 6), True, name="index_put__accumulate_int")
cs.error("index_put", x3, [idx(0)], R(5))
cs.error("index_put", x3, [idx(0)], R(4).float(), code="CT_ERR_DTYPE")

# ---- take_along_dim, one_hot, embedding ----
cs.add("take_along_dim", g(m), idx(2, 0, 1, 1, 0, 0, shape=(3, 2)), 1)
cs.add("take_along_dim", g(m), idx(0, 2, 1, shape=(1, 3)), 1, name="take_along_dim_broadcast")
cs.add("take_along_dim", g(m), idx(11, 0, 5), name="take_along_dim_flat")
cs.error("take_along_dim", m, idx(0, shape=(1, 1)).int(), 0, code="CT_ERR_DTYPE")
cs.error("take_along_dim", m, idx(0), 0, code="CT_ERR_SHAPE")
cs.add("one_hot", idx(0, 3, 1, 3, shape=(2, 2)), 5)
cs.add("one_hot", idx(0, 2, 1), name="one_hot_infer")
cs.add("one_hot", torch.zeros(0, dtype=L), 3, name="one_hot_empty")
cs.error("one_hot", idx(0, 3), 3, code="CT_ERR_INDEX")
cs.error("one_hot", idx(0, -1), 3, code="CT_ERR_INDEX")
cs.error("one_hot", idx(0, 1).int(), 3, code="CT_ERR_DTYPE")
w = R(5, 3)
ids = idx(4, 1, 1, 0, shape=(2, 2))
cs.add("embedding", g(w), ids)
cs.add("embedding", g(w), ids, 1, name="embedding_padding_idx")
cs.add("embedding", g(w), ids.int(), -1, True, name="embedding_scale_grad_by_freq")
cs.add("embedding", g(R(3, 5)).t(), idx(2, 0), name="embedding_noncontig")
cs.add("embedding", w, idx(0, 2, 1).view(()).expand(2) if False else idx(3), name="embedding_1d")
cs.error("embedding", w, idx(5), code="CT_ERR_INDEX")
cs.error("embedding", w, torch.zeros(2), code="CT_ERR_DTYPE")
cs.add("embedding_dense_backward", g(R(2, 2, 3)), ids, 5, 1, False)
# torch 1.13's double backward ignores scale_grad_by_freq (embedding_dense_double_backward); ctorch's
# scales (gradcheck passes): compare the forward only
cs.add("embedding_dense_backward", R(2, 2, 3), ids, 5, -1, True, name="embedding_dense_backward_scale")

# ---- split / chunk / unbind (lists of views) ----
y = R(4, 5)
cs.add("split.Tensor", g(y), 2, 1, **NOCHECK)
cs.add("split.Tensor", g(y), 3, name="split_dim0")
cs.add("split.Tensor", R(0, 3), 0, name="split_zero")
cs.error("split.Tensor", y, -1, code="CT_ERR_INVALID")
cs.error("split.Tensor", R(()), 1, code="CT_ERR_RANK")
cs.add("split_with_sizes", g(y), [1, 0, 4], 1, **NOCHECK)
cs.error("split_with_sizes", y, [1, 2], 1, code="CT_ERR_SHAPE")
cs.add("expand_as", g(R(3, 1)), R(2, 3, 4))
cs.error("expand_as", R(3, 2), R(3, 4), code="CT_ERR_SHAPE")
cs.add("view_as", g(R(2, 6)), R(3, 4))
cs.add("reshape_as", g(R(4, 3).t()), R(2, 6))
cs.add("movedim.int", g(R(2, 3, 4)), 0, 2)
cs.add("movedim.int", R(2, 3, 4), -1, 0, name="movedim_negative")
cs.add("movedim.intlist", g(R(2, 3, 4, 5)), [0, 1], [3, 0])
cs.add("movedim.intlist", R(2, 3), [], [], name="movedim_none")
cs.error("movedim.intlist", R(2, 3, 4), [0, 1], [0], code="CT_ERR_INVALID")
cs.error("movedim.intlist", R(2, 3, 4), [0, 0], [1, 2], code="CT_ERR_INVALID")
cs.error("movedim.intlist", R(2, 3, 4), [0, 1], [1, 1], code="CT_ERR_INVALID")
cs.error("movedim.int", R(2, 3, 4), 3, 0, code="CT_ERR_INDEX")
cs.add("split.sizes", g(y), [2, 3], 1, **NOCHECK)
cs.error("split.sizes", y, [2, 2], 1, code="CT_ERR_SHAPE")
cs.add("narrow.Tensor", g(y), 1, torch.tensor(1), 3)
cs.add("narrow.Tensor", y, 0, torch.tensor(-2, dtype=torch.int32), 2, name="narrow_tensor_negative")
cs.error("narrow.Tensor", y, 1, torch.tensor([1]), 3, code="CT_ERR_INVALID")
cs.error("narrow.Tensor", y, 1, torch.tensor(1.0), 3, code="CT_ERR_INVALID")
cs.add("chunk", g(y), 3, 1, **NOCHECK)
cs.add("chunk", g(R(6)), 4, name="chunk_fewer")
cs.add("chunk", R(0, 2), 3, name="chunk_zero")
cs.error("chunk", y, 0, code="CT_ERR_INVALID")
cs.add("unbind.int", g(y), 1, **NOCHECK)
cs.add("unbind.int", g(R(3, 2)).t(), name="unbind_noncontig")
cs.error("unbind.int", y, 2, code="CT_ERR_INDEX")

# ---- half precision: data movement is exact, accumulation runs in float32 ----
H, B = torch.float16, torch.bfloat16
cs.add("reflection_pad1d", R(2, 4, dtype=H), [2, 1], name="reflection_pad1d_f16")
cs.add("replication_pad2d", R(1, 3, 3, dtype=B), [1, 0, 0, 2], name="replication_pad2d_bf16")
cs.add("constant_pad_nd", R(2, 2, dtype=B), [1, 1], 0.5, name="constant_pad_nd_bf16")
cs.add("gather", R(3, 4, dtype=B), 1, i_dup, name="gather_bf16")
cs.add("index_select", R(3, 4, dtype=H), 0, idx(2, 2, 0), name="index_select_f16")
cs.add("index_add", R(3, 4, dtype=H), 0, idx(2, 2, 0), R(3, 4, dtype=H), name="index_add_f16_dup")
cs.add("index.Tensor", R(3, 4, dtype=B), [idx(1, -1)], name="index_bf16")
cs.add("index_put", R(3, 4, dtype=H), [idx(1, 1)], R(4, dtype=H), True, name="index_put_f16_accumulate")
cs.add("embedding", R(4, 3, dtype=H), idx(3, 0, 3), name="embedding_f16")
cs.add("roll", R(2, 3, dtype=B), [1], [1], name="roll_bf16")
cs.add("repeat", R(2, dtype=H), [2, 2], name="repeat_f16")
cs.add("tril", R(3, 3, dtype=H), 0, name="tril_f16")
cs.add("scatter_reduce.two", R(3, 4, dtype=B), 0, i_red, R(2, 3, dtype=B), "mean", name="scatter_reduce_bf16_mean")

cs.write()
