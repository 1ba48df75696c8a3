#!/usr/bin/python3
"""tests/gen_nn_fixtures.py - PyTorch's modules on fixed inputs, for tests/test_nn.c.

Run with Debian's python3-torch (PyTorch 1.13): /usr/bin/python3 tests/gen_nn_fixtures.py
Writes tests/fixtures/nn_cases.h. Each case builds a torch.nn module (its
parameters perturbed where PyTorch's init is trivial, e.g. LayerNorm's ones),
runs it on fixed inputs, and takes loss = sum_k sum(out_k * proj_k) with
fixed random projections. A case is a list of named tensors:
  state.NAME  the module's state dict (loaded into the ctorch module by name)
  in.NAME     forward inputs          out.NAME  forward outputs
  proj.NAME   the projection of out.NAME in the loss
  grad.NAME   d loss / d (input or parameter NAME)
  after.NAME  a buffer after the forward (BatchNorm's running statistics)
The C side builds the same module with ctorch/nn.h, loads state.*, and
compares everything else."""
import os
import torch
import torch.nn as nn

torch.manual_seed(0)
CASES = []


def perturb(m):
    with torch.no_grad():
        for p in m.parameters():
            p.add_(0.2 * torch.randn_like(p))
    return m


def run(name, m, inputs, forward, train=True, grad_inputs=(), after=()):
    """inputs: dict name -> tensor; forward(m, **inputs) -> dict of outputs"""
    m.train(train)
    m.zero_grad(set_to_none=True)
    state = {k: v.detach().clone() for k, v in m.state_dict().items()}
    ins = {}
    for k, v in inputs.items():
        v = v.clone()
        if k in grad_inputs:
            v.requires_grad_(True)
        ins[k] = v
    outs = forward(m, **ins)
    projs = {k: torch.randn_like(v) for k, v in outs.items()}
    loss = sum((outs[k] * projs[k]).sum() for k in outs)
    loss.backward()
    entries = []
    for k, v in state.items():
        entries.append(("state." + k, v))
    for k, v in ins.items():
        entries.append(("in." + k, v.detach()))
    for k, v in outs.items():
        entries.append(("out." + k, v.detach()))
        entries.append(("proj." + k, projs[k]))
    for k in grad_inputs:
        entries.append(("grad." + k, ins[k].grad.clone()))
    for k, p in m.named_parameters():
        entries.append(("grad." + k, p.grad.clone() if p.grad is not None else torch.zeros_like(p)))
    for k in after:
        entries.append(("after." + k, m.state_dict()[k].detach().clone()))
    CASES.append((name, entries))


def out1(m, x):
    return {"y": m(x)}


# ---- layers with one input ----
run("linear", nn.Linear(5, 4), {"x": torch.randn(2, 3, 5)}, out1, grad_inputs=["x"])
run("linear_nobias", nn.Linear(3, 2, bias=False), {"x": torch.randn(4, 3)}, out1, grad_inputs=["x"])
run("conv1d", nn.Conv1d(4, 6, 3, stride=2, padding=1, groups=2), {"x": torch.randn(2, 4, 9)}, out1, grad_inputs=["x"])
run("conv2d", nn.Conv2d(3, 4, (3, 2), stride=(1, 2), padding=(1, 0), dilation=(2, 1)), {"x": torch.randn(2, 3, 7, 6)}, out1,
    grad_inputs=["x"])
run("embedding", nn.Embedding(10, 4, padding_idx=1), {"x": torch.tensor([[0, 1, 3], [9, 1, 3]])}, out1)
run("layer_norm", perturb(nn.LayerNorm([3, 4])), {"x": torch.randn(2, 3, 4)}, out1, grad_inputs=["x"])
run("batch_norm2d_train", perturb(nn.BatchNorm2d(3)), {"x": torch.randn(4, 3, 5, 5)}, out1, grad_inputs=["x"],
    after=["running_mean", "running_var", "num_batches_tracked"])
bn = perturb(nn.BatchNorm2d(3, momentum=None))
with torch.no_grad():
    bn.running_mean.copy_(torch.randn(3))
    bn.running_var.copy_(torch.rand(3) + 0.5)
    bn.num_batches_tracked.fill_(3)
run("batch_norm2d_cumulative", bn, {"x": torch.randn(2, 3, 4, 4)}, out1, grad_inputs=["x"],
    after=["running_mean", "running_var", "num_batches_tracked"])
run("batch_norm2d_eval", bn, {"x": torch.randn(2, 3, 4, 4)}, out1, train=False, grad_inputs=["x"])
run("mlp", nn.Sequential(nn.Linear(4, 8), nn.GELU(approximate="tanh"), nn.Linear(8, 6), nn.SiLU(), nn.Flatten(0, 1), nn.Tanh()),
    {"x": torch.randn(3, 4)}, out1, grad_inputs=["x"])
run("dropout_eval", nn.Sequential(nn.Dropout(0.5), nn.Sigmoid()), {"x": torch.randn(3, 4)}, out1, train=False, grad_inputs=["x"])

# ---- recurrent ----
run("gru_cell", nn.GRUCell(3, 5), {"x": torch.randn(4, 3), "h": torch.randn(4, 5)},
    lambda m, x, h: {"h1": m(x, h)}, grad_inputs=["x", "h"])
run("lstm_cell", nn.LSTMCell(3, 4), {"x": torch.randn(2, 3), "h": torch.randn(2, 4), "c": torch.randn(2, 4)},
    lambda m, x, h, c: dict(zip(["h1", "c1"], m(x, (h, c)))), grad_inputs=["x", "h", "c"])
run("gru_bidir_batch_first", nn.GRU(3, 5, num_layers=2, bidirectional=True, batch_first=True),
    {"x": torch.randn(2, 4, 3), "h0": torch.randn(4, 2, 5)},
    lambda m, x, h0: dict(zip(["y", "h_n"], m(x, h0))), grad_inputs=["x", "h0"])
run("lstm_two_layers", nn.LSTM(3, 4, num_layers=2), {"x": torch.randn(5, 2, 3), "h0": torch.randn(2, 2, 4), "c0": torch.randn(2, 2, 4)},
    lambda m, x, h0, c0: (lambda y, hc: {"y": y, "h_n": hc[0], "c_n": hc[1]})(*m(x, (h0, c0))), grad_inputs=["x", "h0", "c0"])
run("lstm_unbatched", nn.LSTM(3, 4), {"x": torch.randn(6, 3)},
    lambda m, x: (lambda y, hc: {"y": y, "h_n": hc[0], "c_n": hc[1]})(*m(x)), grad_inputs=["x"])

# ---- attention ----
mha = nn.MultiheadAttention(8, 2)
with torch.no_grad():
    mha.in_proj_bias.normal_()
    mha.out_proj.bias.normal_()
kpm = torch.tensor([[False, False, True, False, False, True], [False, False, False, False, False, False]])
run("mha_masks", mha, {"q": torch.randn(4, 2, 8), "k": torch.randn(6, 2, 8), "v": torch.randn(6, 2, 8),
                       "key_padding_mask": kpm, "attn_mask": torch.randn(4, 6)},
    lambda m, q, k, v, key_padding_mask, attn_mask: dict(zip(["y", "w"], m(q, k, v, key_padding_mask=key_padding_mask,
                                                                           attn_mask=attn_mask))),
    grad_inputs=["q", "k", "v"])
causal = torch.triu(torch.ones(5, 5, dtype=torch.bool), 1)
run("mha_batch_first_bool_mask", nn.MultiheadAttention(6, 3, batch_first=True), {"x": torch.randn(2, 5, 6), "attn_mask": causal},
    lambda m, x, attn_mask: dict(zip(["y", "w"], m(x, x, x, attn_mask=attn_mask, average_attn_weights=False))),
    grad_inputs=["x"])
run("encoder_layer", perturb(nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0)),
    {"x": torch.randn(5, 2, 8), "src_mask": torch.randn(5, 5), "kpm": torch.tensor([[False] * 4 + [True], [False] * 5])},
    lambda m, x, src_mask, kpm: {"y": m(x, src_mask=src_mask, src_key_padding_mask=kpm)}, grad_inputs=["x"])
run("encoder_layer_norm_first_gelu", perturb(nn.TransformerEncoderLayer(6, 3, dim_feedforward=12, dropout=0.0, activation="gelu",
                                                                         batch_first=True, norm_first=True)),
    {"x": torch.randn(2, 4, 6)}, out1, grad_inputs=["x"])


# RMSNorm is not in PyTorch 1.13: its formula (torch 2.4's nn.RMSNorm) on a stand-in module
class RMSNorm(nn.Module):
    def __init__(self, shape, eps=None):
        super().__init__()
        self.shape, self.eps = shape, eps
        self.weight = nn.Parameter(torch.ones(shape))

    def forward(self, x):
        eps = torch.finfo(x.dtype).eps if self.eps is None else self.eps
        dims = tuple(range(-len(self.shape), 0))
        return x * torch.rsqrt(x.pow(2).mean(dims, keepdim=True) + eps) * self.weight


run("rms_norm", perturb(RMSNorm([4])), {"x": torch.randn(3, 4)}, out1, grad_inputs=["x"])
run("rms_norm_eps", perturb(RMSNorm([2, 3], eps=1e-2)), {"x": torch.randn(2, 2, 3)}, out1, grad_inputs=["x"])


def fmt(v):
    s = "%.9g" % v
    if s in ("inf", "-inf", "nan"):
        return {"inf": "INFINITY", "-inf": "-INFINITY", "nan": "NAN"}[s]
    return s + ("f" if ("." in s or "e" in s) else ".0f")


def main():
    pool, lines = [], []
    for name, entries in CASES:
        rows = []
        for ename, t in entries:
            t = t.detach()
            kind = 0 if t.dtype.is_floating_point else (2 if t.dtype == torch.bool else 1)
            sizes = list(t.shape) + [0] * (4 - t.dim())
            rows.append('{"%s", %d, {%s}, %d, %d}' % (ename, t.dim(), ", ".join(map(str, sizes)), kind, len(pool)))
            pool.extend(t.double().reshape(-1).tolist())
        lines.append('  {"%s", %d, (const nn_fx_tensor[]){%s}},' % (name, len(rows), ",\n    ".join(rows)))
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "nn_cases.h")
    with open(path, "w") as f:
        f.write("/* tests/fixtures/nn_cases.h - GENERATED by tests/gen_nn_fixtures.py with PyTorch %s; do not edit. */\n" % torch.__version__)
        f.write("typedef struct nn_fx_tensor {\n  const char *name;\n  int ndim;\n  int64_t sizes[4];\n"
                "  int kind; /* 0 float, 1 int64, 2 bool */\n  int offset; /* into nn_fx_pool */\n} nn_fx_tensor;\n")
        f.write("typedef struct nn_fx_case {\n  const char *name;\n  int n;\n  const nn_fx_tensor *tensors;\n} nn_fx_case;\n")
        f.write("static const float nn_fx_pool[%d] = {\n" % len(pool))
        for i in range(0, len(pool), 8):
            f.write("  " + ", ".join(fmt(v) for v in pool[i:i + 8]) + ",\n")
        f.write("};\nstatic const nn_fx_case nn_fx_cases[] = {\n")
        f.write("\n".join(lines))
        f.write("\n};\n")
    print("wrote %s: %d cases, %d values" % (path, len(CASES), len(pool)))


main()
