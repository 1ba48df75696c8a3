#!/usr/bin/python3
"""Generate tests/fixtures/autograd_cases.h: first- and second-order gradient
reference values computed by PyTorch autograd.

Run with the interpreter that has torch (Debian's python3-torch; the python3
first on PATH may not have it):

    /usr/bin/python3 tests/gen_autograd_fixtures.py            # writes the header
    /usr/bin/python3 tests/gen_autograd_fixtures.py --stdout > tests/fixtures/autograd_cases.h

Everything is float64 and seeded with torch.manual_seed(0), so the output is
deterministic; doubles are printed with repr(), which round-trips exactly.

For each case, with inputs x_i (requires_grad):
    y   = f(x_1, ..., x_n)
    v   = random grad_output, shape of y
    g_i = autograd.grad(y, x_i, v, create_graph=True)      (first order, VJP)
    u_i = random, shape of x_i                              ("grad_grad")
    s   = sum_i sum(g_i * u_i)
    h_j = autograd.grad(s, x_j, allow_unused=True)          (second order; zeros if unused)
"""
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "fixtures", "autograd_cases.h")
DT = torch.float64


def uni(*shape):
    """Uniform in [-1, 1)."""
    return torch.rand(tuple(shape), dtype=DT) * 2 - 1


def away(lo, hi):
    """Magnitude uniform in [lo, hi), random sign."""
    def gen(*shape):
        mag = torch.rand(tuple(shape), dtype=DT) * (hi - lo) + lo
        sign = torch.where(torch.rand(tuple(shape), dtype=DT) < 0.5,
                           torch.tensor(-1.0, dtype=DT), torch.tensor(1.0, dtype=DT))
        return mag * sign
    return gen


NONZERO = away(0.5, 1.5)   # divisors
NOTNEAR0 = away(0.05, 1.0)  # relu inputs (kink at 0)

# (name, [(shape, generator), ...], function)
CASES = [
    ("tanh", [((3, 4), uni)], torch.tanh),
    ("sigmoid", [((3, 4), uni)], torch.sigmoid),
    ("exp", [((5,), uni)], torch.exp),
    ("neg", [((2, 3), uni)], torch.neg),
    ("relu", [((4, 3), NOTNEAR0)], torch.relu),
    ("mul", [((3, 4), uni), ((3, 4), uni)], lambda x, y: x * y),
    ("mul_bcast", [((3, 1), uni), ((4,), uni)], lambda x, y: x * y),
    ("add", [((2, 3), uni), ((2, 3), uni)], lambda x, y: x + y),
    ("add_alpha", [((2, 3), uni), ((3,), uni)], lambda x, y: torch.add(x, y, alpha=2.5)),
    ("sub", [((2, 3), uni), ((2, 3), uni)], lambda x, y: x - y),
    ("div", [((3, 4), uni), ((3, 4), NONZERO)], lambda x, y: x / y),
    ("div_bcast", [((2, 3), uni), ((1, 3), NONZERO)], lambda x, y: x / y),
    ("mm", [((3, 4), uni), ((4, 5), uni)], torch.mm),
    ("matmul", [((2, 3), uni), ((3, 2), uni)], torch.matmul),
    ("tanh_mm", [((2, 3), uni), ((3, 4), uni)], lambda x, y: torch.tanh(x @ y)),
    ("sum", [((3, 4), uni)], lambda x: x.sum()),
    ("sum_dim", [((3, 4), uni)], lambda x: x.sum(dim=1)),
    ("sum_dim_keep", [((3, 4), uni)], lambda x: x.sum(dim=0, keepdim=True)),
    ("mean", [((3, 4), uni)], lambda x: x.mean()),
    ("mean_dim", [((2, 5), uni)], lambda x: x.mean(dim=1)),
    ("sigmoid_mul", [((6,), uni)], lambda x: torch.sigmoid(x) * x),
    ("mlp", [((2, 3), uni), ((3, 4), uni), ((4,), uni)],
     lambda x, w, b: torch.tanh(x @ w + b)),
]


def compute(fn, specs):
    xs = [gen(*shape).requires_grad_(True) for shape, gen in specs]
    y = fn(*xs)
    v = uni(*y.shape)
    gs = torch.autograd.grad(y, xs, v, create_graph=True)
    us = [uni(*x.shape) for x in xs]
    s = sum((g * u).sum() for g, u in zip(gs, us))
    if s.requires_grad:
        hs = torch.autograd.grad(s, xs, allow_unused=True)
    else:  # every g_i is constant (linear f): all second derivatives vanish
        hs = [None] * len(xs)
    hs = [torch.zeros_like(x) if h is None else h for h, x in zip(hs, xs)]
    d = lambda t: t.detach().to(DT).contiguous()
    return ([d(x) for x in xs], d(y), d(v), [d(g) for g in gs], [d(u) for u in us],
            [d(h) for h in hs])


def fmt(x):
    r = repr(float(x))
    if r in ("inf", "-inf", "nan"):
        raise ValueError("non-finite value in fixture")
    return r


def main():
    torch.manual_seed(0)
    arrays = []  # lines of array definitions
    entries = []
    zero_second = []

    def arr(name, t):
        vals = [fmt(v) for v in t.reshape(-1).tolist()]
        lines, line = [], "  "
        for s in vals:
            piece = s + ", "
            if len(line) + len(piece) > 100:
                lines.append(line.rstrip())
                line = "  "
            line += piece
        lines.append(line.rstrip().rstrip(","))
        arrays.append("static const double %s[] = {\n%s\n};" % (name, "\n".join(lines)))
        sizes = list(t.shape) + [0] * (4 - t.dim())
        return "{%d, {%s}, %s}" % (t.dim(), ", ".join(str(s) for s in sizes), name)

    zero = "{0, {0, 0, 0, 0}, NULL}"
    for ci, (name, specs, fn) in enumerate(CASES):
        xs, y, v, gs, us, hs = compute(fn, specs)
        n = len(xs)
        p = "ag_case%d_" % ci
        ins = [arr(p + "in%d" % i, x) for i, x in enumerate(xs)]
        out = arr(p + "out", y)
        gout = arr(p + "gout", v)
        gin = [arr(p + "gin%d" % i, g) for i, g in enumerate(gs)]
        gg = [arr(p + "gg%d" % i, u) for i, u in enumerate(us)]
        sec = [arr(p + "second%d" % i, h) for i, h in enumerate(hs)]
        pad = lambda lst: ", ".join(lst + [zero] * (3 - n))
        entries.append(
            "  {\"%s\", %d,\n    {%s},\n    %s,\n    %s,\n    {%s},\n    {%s},\n    {%s}}"
            % (name, n, pad(ins), out, gout, pad(gin), pad(gg), pad(sec)))
        zs = [i for i, h in enumerate(hs) if not bool(h.any())]
        if zs:
            zero_second.append("%s(%s)" % (name, ",".join("in%d" % i for i in zs)))

    o = []
    o.append("/* generated by tests/gen_autograd_fixtures.py from PyTorch %s; do not edit */"
             % torch.__version__)
    o.append("/* Regenerate: /usr/bin/python3 tests/gen_autograd_fixtures.py  (%d cases) */"
             % len(CASES))
    o.append("#ifndef CT_TEST_AUTOGRAD_CASES_H")
    o.append("#define CT_TEST_AUTOGRAD_CASES_H")
    o.append("#include <stddef.h>")
    o.append("#include <stdint.h>")
    o.append("")
    o.append("/* Per case: y = f(inputs); v = grad_output; g_i = vjp(v) wrt input i;")
    o.append("   u_i = grad_grad; h_i = d(sum_j <g_j, u_j>)/d input_i (second order).")
    o.append("   All float64, seed 0. Identically-zero second-order results (expected:")
    o.append("   linear ops, and relu whose second derivative is 0 away from the kink):")
    line = "  "
    for z in zero_second or ["none"]:
        if len(line) + len(z) + 1 > 95:
            o.append(line)
            line = "  "
        line += " " + z
    o.append(line + " */")
    o.append("""
typedef struct autograd_fixture_tensor {
  int ndim;
  int64_t sizes[4];
  const double *data; /* row-major, numel = product of sizes (1 for ndim 0) */
} autograd_fixture_tensor;

typedef struct autograd_case {
  const char *name;                      /* one of the case names */
  int num_inputs;                        /* 1..3 */
  autograd_fixture_tensor input[3];
  autograd_fixture_tensor output;        /* y = f(inputs) */
  autograd_fixture_tensor grad_output;   /* v, shape of output */
  autograd_fixture_tensor grad_input[3]; /* g_i: vjp of v, shape of input i */
  autograd_fixture_tensor grad_grad[3];  /* u_i, shape of input i */
  autograd_fixture_tensor second[3];     /* h_i = d(sum_j <g_j, u_j>)/d input_i */
} autograd_case;
""")
    o.extend(arrays)
    o.append("")
    o.append("static const autograd_case autograd_cases[] = {")
    o.append(",\n".join(entries))
    o.append("};")
    o.append("#define AUTOGRAD_NUM_CASES (sizeof autograd_cases / sizeof autograd_cases[0])")
    o.append("")
    o.append("#endif /* CT_TEST_AUTOGRAD_CASES_H */")
    text = "\n".join(o) + "\n"

    if "--stdout" in sys.argv[1:]:
        sys.stdout.write(text)
    else:
        with open(OUT, "w") as f:
            f.write(text)
        sys.stderr.write("wrote %s (%d cases, %d bytes)\n" % (OUT, len(CASES), len(text)))


if __name__ == "__main__":
    main()
