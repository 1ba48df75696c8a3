#!/usr/bin/python3
"""tests/gen_view_programs.py - random autograd programs through views and
in-place ops, run in PyTorch, written out as tests/fixtures/view_programs.h.

Regenerate (deterministic, seeded; needs Debian's PyTorch 1.13):
    /usr/bin/python3 tests/gen_view_programs.py > tests/fixtures/view_programs.h
Statistics (programs per category, error classes) go to stderr.

Each program is a few lines of a tiny register language. The generator picks
an instruction, runs it in PyTorch at once (so later choices see real shapes,
dtypes and requires_grad flags), and appends its text; the text alone is the
program (every program is replayed from its text at the end and must give
the same expectations). tests/test_view_programs.c replays the same text
through ctorch. Registers are SSA: `rN` is written once.

Instructions (PyTorch meaning; the C interpreter calls the ct_ op named):
  leaf rD DT RG N s1..sN : v..     torch.tensor(v, float64).reshape(s).to(DT, copy=True) (a true
                                   leaf, not a view), requires_grad_(RG)   ct_from_array + ct_to_dtype
  mul|add|sub|div rD rA rB         torch.mul/add/sub/div(a, b)        ct_mul/ct_add/ct_sub/ct_div
  muls|adds rD rA c                a * c, a + c                        ct_mul_scalar/ct_add_scalar
  exp rD rA / sum rD rA            torch.exp(a) / a.sum()              ct_exp / ct_sum
  slice rD rA dim start end step   a[..., start:end:step] (at dim)     ct_slice
  select rD rA dim i               a.select(dim, i)                    ct_select
  transpose rD rA d0 d1 / t rD rA  a.transpose(d0, d1) / a.t()         ct_transpose / ct_t
  diagonal rD rA off d1 d2         a.diagonal(off, d1, d2)             ct_diagonal
  permute rD rA N d..              a.permute(d)                        ct_permute
  view|reshape|expand rD rA N s..  a.view(s) / a.reshape(s) / a.expand(s)
  unsqueeze rD rA dim              a.unsqueeze(dim)                    ct_unsqueeze
  squeeze rD rA / squeezed rD rA d a.squeeze() / a.squeeze(d)          ct_squeeze / ct_squeeze_dim
  narrow rD rA dim start len       a.narrow(dim, start, len)           ct_narrow
  flatten rD rA s e                a.flatten(s, e)                     ct_flatten
  unbind rD rA dim i               a.unbind(dim)[i]                    ct_unbind
  split rD rA size dim i           a.split(size, dim)[i]               ct_split
  chunk rD rA n dim i              a.chunk(n, dim)[i]                  ct_chunk
  as_strided rD rA N s.. st.. off  a.as_strided(s, st, off)            ct_as_strided
  detach|clone rD rA               a.detach() / a.clone()
  to rD rA DT                      a.to(DT)                            ct_to_dtype
  mul_|add_|sub_|div_|copy_ rA rB  a.OP(b)                             ct_mul_ ... ct_copy_
  muls_|adds_|subs_|divs_ rA c     a.mul_(c) ...                       ct_mul_scalar_ ...
  fill_ rA c / zero_ rA / exp_ rA  a.fill_(c) / a.zero_() / a.exp_()   ct_fill_ / ct_fill_(0) / ct_exp_
  clamp_ rA lo hi                  a.clamp_(lo, hi)                    ct_clamp_
  nograd / endnograd               torch.set_grad_enabled(False/True)  ct_no_grad_begin / ct_guard_end
  backward rR rG|- RETAIN          r.backward(g, retain_graph=RETAIN)  ct_backward_ex(r, g, retain, false)
  autograd_grad N rD.. rO rG|- CREATE rI..
        torch.autograd.grad(o, [i..], g, create_graph=CREATE, allow_unused=True) -> rD..
        (retain_graph = CREATE)                                        ct_autograd_grad
A scalar token with '.', 'e' or 'n' is a float (ct_float), else an integer
(ct_int); PyTorch types Python numbers the same way.

Expectations (after the instructions):
  error K message       PyTorch raised RuntimeError at instruction K (0-based)
  val rN DT RG N s.. : v..   rN's dtype, requires_grad, shape and values
  val rN none           rN is None (an unused autograd_grad input)
  leafgrad rN DT N s.. : v.. / leafgrad rN none / leafgrad rN nonleaf
                        the .grad of the tensor a `leaf` instruction made (or:
                        it got a grad_fn since, so it is no longer a leaf)
Values: float64 '%.12g', float32 '%.8g' (inside the test's tolerances).
The first line of each program is '# category'.

Programs are dropped (and the next seed tried) when PyTorch warns, when it
fails with an INTERNAL ASSERT, when a program would not fit in one string
literal, and when PyTorch gives a non-view op a non-contiguous result (it
keeps the input's layout where ctorch's results are contiguous, so views,
reshape-or-copy and as_strided after it would test memory layout, not
autograd), and when torch.autograd.grad writes a leaf's .grad (a PyTorch 1.13
bug through CopySlices of a copy_; ctorch does not copy it). Errors other than
RuntimeError are generator bugs and stop it.
"""
import collections
import random
import sys
import warnings

import torch

SEED = 1913
MAXLEN = 3900  # each program is one C string literal; -Wpedantic allows 4095

CATEGORIES = [  # name, programs
    ("view_inplace", 110),
    ("base_inplace", 45),
    ("copy_buf", 25),
    ("cast", 35),
    ("nograd", 32),
    ("multi_output", 28),
    ("as_strided", 30),
    ("leaf_view", 12),
    ("double_backward", 30),
    ("retain", 25),
    ("random", 28),
]

DTYPES = {"f32": torch.float32, "f64": torch.float64, "i64": torch.int64, "i32": torch.int32,
          "u8": torch.uint8, "b": torch.bool}
DTNAME = {v: k for k, v in DTYPES.items()}
FLOATS = ("f32", "f64")


class Stop(Exception):
    def __init__(self, k, msg):
        Exception.__init__(self, msg)
        self.k, self.msg = k, msg


def scal(tok):
    return float(tok) if any(c in tok for c in ".en") else int(tok)


def R(i):
    return "r%d" % i


def prod(s):
    n = 1
    for v in s:
        n *= v
    return n


# ---- the interpreter (PyTorch side) ----------------------------------------
class Machine:
    def __init__(self):
        self.regs = {}
        self.n = 0
        self.interplay = False  # an in-place op wrote memory that another register sees
        # PyTorch gave a non-view op a non-contiguous result (it keeps its input's
        # layout; ctorch's results are contiguous): later views, reshape-or-copy
        # and as_strided would depend on memory layout, so the program is dropped
        self.layout_dependent = False
        # PyTorch 1.13 bug: torch.autograd.grad(create_graph=True) through a
        # CopySlices whose in-place op was copy_ accumulates into the source
        # leaf's .grad (autograd.grad must not touch .grad); such programs
        # are dropped rather than asking ctorch to copy the bug
        self.grad_leak = False

    def note_interplay(self, t):
        if not t[0].endswith("_"):
            return
        x = self.regs.get(int(t[1][1:]))
        if x is None or not x.numel():
            return
        p = x.storage().data_ptr()
        for i, y in self.regs.items():
            if i != int(t[1][1:]) and y is not None and y.numel() and y.storage().data_ptr() == p:
                self.interplay = True

    def get(self, tok):
        v = self.regs[int(tok[1:])]
        if v is None:
            raise ValueError("register %s is None" % tok)
        return v

    def run(self, line):
        t = line.split()
        k = self.n
        self.n += 1
        self.note_interplay(t)
        try:
            self._run(t)
            if t[0] in ("mul", "add", "sub", "div", "muls", "adds", "exp", "clone", "to"):
                y = self.regs[int(t[1][1:])]
                if not y.is_contiguous():
                    self.layout_dependent = True
        except RuntimeError as e:
            torch.set_grad_enabled(True)
            raise Stop(k, str(e).strip().split("\n")[0])

    def _run(self, t):
        op, G = t[0], self.get

        def put(tok, v):
            i = int(tok[1:])
            assert i not in self.regs, "SSA"
            self.regs[i] = v

        def ints(lst):
            return [int(x) for x in lst]

        if op == "leaf":
            nd = int(t[4])
            sizes = ints(t[5:5 + nd])
            assert t[5 + nd] == ":"
            vals = [float(x) for x in t[6 + nd:]]
            x = torch.tensor(vals, dtype=torch.float64).reshape(sizes).to(DTYPES[t[2]], copy=True)
            assert x._base is None
            if int(t[3]):
                x.requires_grad_()
            put(t[1], x)
        elif op in ("mul", "add", "sub", "div"):
            put(t[1], getattr(torch, op)(G(t[2]), G(t[3])))
        elif op == "muls":
            put(t[1], G(t[2]) * scal(t[3]))
        elif op == "adds":
            put(t[1], G(t[2]) + scal(t[3]))
        elif op == "exp":
            put(t[1], torch.exp(G(t[2])))
        elif op == "sum":
            put(t[1], G(t[2]).sum())
        elif op == "slice":
            dim, st, en, step = ints(t[3:7])
            put(t[1], G(t[2])[(slice(None),) * dim + (slice(st, en, step),)])
        elif op == "select":
            put(t[1], G(t[2]).select(int(t[3]), int(t[4])))
        elif op == "transpose":
            put(t[1], G(t[2]).transpose(int(t[3]), int(t[4])))
        elif op == "t":
            put(t[1], G(t[2]).t())
        elif op == "diagonal":
            put(t[1], G(t[2]).diagonal(*ints(t[3:6])))
        elif op in ("permute", "view", "reshape", "expand"):
            n = int(t[3])
            put(t[1], getattr(G(t[2]), op)(ints(t[4:4 + n])))
        elif op == "unsqueeze":
            put(t[1], G(t[2]).unsqueeze(int(t[3])))
        elif op == "squeeze":
            put(t[1], G(t[2]).squeeze())
        elif op == "squeezed":
            put(t[1], G(t[2]).squeeze(int(t[3])))
        elif op == "narrow":
            put(t[1], G(t[2]).narrow(*ints(t[3:6])))
        elif op == "flatten":
            put(t[1], G(t[2]).flatten(int(t[3]), int(t[4])))
        elif op == "unbind":
            put(t[1], G(t[2]).unbind(int(t[3]))[int(t[4])])
        elif op == "split":
            put(t[1], G(t[2]).split(int(t[3]), int(t[4]))[int(t[5])])
        elif op == "chunk":
            put(t[1], G(t[2]).chunk(int(t[3]), int(t[4]))[int(t[5])])
        elif op == "as_strided":
            n = int(t[3])
            put(t[1], G(t[2]).as_strided(ints(t[4:4 + n]), ints(t[4 + n:4 + 2 * n]), int(t[4 + 2 * n])))
        elif op == "detach":
            put(t[1], G(t[2]).detach())
        elif op == "clone":
            put(t[1], G(t[2]).clone())
        elif op == "to":
            put(t[1], G(t[2]).to(DTYPES[t[3]]))
        elif op in ("mul_", "add_", "sub_", "div_", "copy_"):
            getattr(G(t[1]), op)(G(t[2]))
        elif op in ("muls_", "adds_", "subs_", "divs_"):
            getattr(G(t[1]), op[:-2] + "_")(scal(t[2]))
        elif op == "fill_":
            G(t[1]).fill_(scal(t[2]))
        elif op == "zero_":
            G(t[1]).zero_()
        elif op == "exp_":
            G(t[1]).exp_()
        elif op == "clamp_":
            G(t[1]).clamp_(scal(t[2]), scal(t[3]))
        elif op == "nograd":
            torch.set_grad_enabled(False)
        elif op == "endnograd":
            torch.set_grad_enabled(True)
        elif op == "backward":
            go = None if t[2] == "-" else G(t[2])
            G(t[1]).backward(gradient=go, retain_graph=bool(int(t[3])))
        elif op == "autograd_grad":
            n = int(t[1])
            dsts = t[2:2 + n]
            out, go, create = t[2 + n], t[3 + n], bool(int(t[4 + n]))
            ins = [G(x) for x in t[5 + n:5 + 2 * n]]
            before = [(x, x.grad) for x in self.regs.values() if isinstance(x, torch.Tensor) and x.is_leaf]
            res = torch.autograd.grad(G(out), ins, grad_outputs=None if go == "-" else G(go),
                                      create_graph=create, allow_unused=True)
            if any(x.grad is not g0 for x, g0 in before):
                self.grad_leak = True
            for d, r in zip(dsts, res):
                put(d, r)
        else:
            raise ValueError("unknown op " + op)


def fmt_vals(x):
    x = x.detach().reshape(-1)
    if x.dtype == torch.bool:
        return [str(int(v)) for v in x.tolist()]
    if not x.is_floating_point():
        return [str(v) for v in x.tolist()]
    f = "%.12g" if x.dtype == torch.float64 else "%.8g"
    return [f % v for v in x.tolist()]


def val_line(M, r):
    x = M.regs[r]
    if x is None:
        return "val %s none" % R(r)
    return " ".join(["val", R(r), DTNAME[x.dtype], str(int(x.requires_grad)), str(x.dim())] +
                    [str(s) for s in x.shape] + [":"] + fmt_vals(x))


def leafgrad_line(M, r):
    x = M.regs[r]
    if not x.is_leaf:
        return "leafgrad %s nonleaf" % R(r)
    if x.grad is None:
        return "leafgrad %s none" % R(r)
    g = x.grad
    return " ".join(["leafgrad", R(r), DTNAME[g.dtype], str(g.dim())] + [str(s) for s in g.shape] + [":"] +
                    fmt_vals(g))


def rg(x):
    """x.requires_grad; False where PyTorch refuses to say (a multi-output
    view whose base was modified in place raises on any grad_fn access)."""
    try:
        return x.requires_grad
    except RuntimeError:
        return False


def leafp(x):
    try:
        return x.is_leaf
    except RuntimeError:
        return False


def shadow(x):
    """A plain tensor with x's geometry (for shape questions that must not touch x's autograd state)."""
    return torch.empty(max(x.storage().size(), 1)).as_strided(x.size(), x.stride(), x.storage_offset())


def storage_ptr(x):
    return x.storage().data_ptr()


def broadcasts_to(src_shape, dst_shape):
    try:
        return tuple(torch.broadcast_shapes(tuple(src_shape), tuple(dst_shape))) == tuple(dst_shape)
    except RuntimeError:
        return False


# ---- the generator -----------------------------------------------------------
class Gen:
    def __init__(self, rng, cat):
        self.rng = rng
        self.cat = cat
        self.M = Machine()
        self.lines = []
        self.nreg = 0
        self.leaves = []
        self.focus = []
        self.in_ng = False
        self.roots_done = 0

    # -- basics
    def T(self, r):
        return self.M.regs.get(r)

    def emit(self, *toks):
        line = " ".join(str(x) for x in toks)
        self.lines.append(line)
        self.M.run(line)

    def newreg(self):
        r = self.nreg
        self.nreg += 1
        return r

    def live(self, pred=None):
        out = []
        for r in range(self.nreg):
            x = self.T(r)
            if x is not None and (pred is None or pred(x)):
                out.append(r)
        return out

    def chance(self, p):
        return self.rng.random() < p

    def fscal(self, choices=(2.0, -1.5, 0.5, 3.0, -0.5, 1.5, -2.0, 0.25)):
        return repr(self.rng.choice(choices))

    # -- leaves
    def rand_shape(self, maxnumel=24):
        rng = self.rng
        nd = rng.choice([1, 1, 2, 2, 2, 3])
        while True:
            s = [rng.randint(1, 4) for _ in range(nd)]
            if prod(s) <= maxnumel:
                break
        if rng.random() < 0.05:
            s[rng.randrange(nd)] = 0
        return s

    def rand_vals(self, n, dt):
        rng = self.rng
        if dt in FLOATS:
            return ["%g" % (rng.randint(-8, 8) / 4.0) for _ in range(n)]
        if dt == "u8":
            return [str(rng.randint(0, 5)) for _ in range(n)]
        if dt == "b":
            return [str(rng.randint(0, 1)) for _ in range(n)]
        return [str(rng.randint(-3, 3)) for _ in range(n)]

    def leaf(self, shape=None, dt=None, rg=None, vals=None):
        assert not self.in_ng
        if shape is None:
            shape = self.rand_shape()
        if dt is None:
            dt = self.rng.choice(["f32", "f64", "f64"])
        if rg is None:
            rg = self.chance(0.6)
        if dt not in FLOATS:
            rg = False
        if vals is None:
            vals = self.rand_vals(prod(shape), dt)
        d = self.newreg()
        self.emit("leaf", R(d), dt, int(bool(rg)), len(shape), *(list(shape) + [":"] + list(vals)))
        self.leaves.append(d)
        return d

    def rg_leaf(self, shape=None, dt=None):
        return self.leaf(shape=shape, dt=dt, rg=True)

    # -- functional ops
    def unop(self, op, a):
        d = self.newreg()
        self.emit(op, R(d), R(a))
        return d

    def binop(self, op, a, b):
        d = self.newreg()
        self.emit(op, R(d), R(a), R(b))
        return d

    def scalop(self, op, a, c):
        d = self.newreg()
        self.emit(op, R(d), R(a), c)
        return d

    def compatible_operand(self, target_shape, exclude_storage=None, float_only=False, for_inplace=True):
        """An existing register whose shape broadcasts to target_shape."""
        cands = []
        for r in self.live():
            x = self.T(r)
            if float_only and not x.is_floating_point():
                continue
            if exclude_storage is not None and x.numel() and storage_ptr(x) == exclude_storage:
                continue
            if for_inplace:
                if broadcasts_to(x.shape, target_shape):
                    cands.append(r)
            else:
                try:
                    torch.broadcast_shapes(tuple(x.shape), tuple(target_shape))
                    cands.append(r)
                except RuntimeError:
                    pass
        return self.rng.choice(cands) if cands else None

    def operand_shape(self, shape):
        """shape, or a shape that broadcasts to it (fewer dims, some dims 1)."""
        s = list(shape)
        if self.chance(0.3) and s:
            s = s[self.rng.randint(0, len(s)):]
            s = [1 if self.chance(0.3) else v for v in s]
        return s

    def nonleaf(self, src):
        """A non-leaf computed from src."""
        x = self.T(src)
        k = self.rng.choice(["muls1", "muls1", "muls1", "mul", "mul", "adds", "clone", "sub"] +
                            (["exp"] if self.chance(0.15) else []))
        if k == "muls1":
            return self.scalop("muls", src, "1.0")
        if k == "adds":
            return self.scalop("adds", src, self.fscal())
        if k == "exp":
            return self.unop("exp", src)
        if k == "clone":
            return self.unop("clone", src)
        if self.in_ng:
            o = self.compatible_operand(x.shape, float_only=True)
            if o is None:
                return self.scalop("muls", src, "1.0")
        else:
            o = self.leaf(shape=self.operand_shape(x.shape), dt=DTNAME[x.dtype] if x.is_floating_point() else None)
        return self.binop("mul" if k == "mul" else "sub", src, o)

    def functional(self, a=None):
        """A random out-of-place op on a (or on a random register)."""
        if a is None:
            a = self.rng.choice(self.live())
        x = self.T(a)
        rng = self.rng
        k = rng.choice(["mul", "add", "muls", "exp", "sum", "adds"])
        if k in ("exp",) and x.dtype == torch.bool:
            k = "muls"
        if k == "muls":
            return self.scalop("muls", a, self.fscal() if x.is_floating_point() or self.chance(0.5) else "2")
        if k == "adds":
            return self.scalop("adds", a, self.fscal())
        if k in ("exp", "sum"):
            return self.unop(k, a)
        o = self.compatible_operand(x.shape, for_inplace=False, float_only=x.dtype == torch.bool)
        if o is None or (not self.in_ng and self.chance(0.4)):
            if self.in_ng:
                return self.scalop("muls", a, "2.0")
            o = self.leaf(shape=self.operand_shape(x.shape))
        return self.binop(k, a, o)

    # -- views
    def view_candidates(self, src, multi=True, strided=True):
        x = self.T(src)
        s = list(x.shape)
        nd = len(s)
        rng = self.rng
        c = []
        if nd >= 1:
            dim = rng.randrange(nd)
            n = s[dim]
            st = rng.randint(0, max(n - 1, 0))
            en = rng.randint(st, n) if n else 0
            if en == st and n and rng.random() < 0.7:
                en = min(n, st + 1)
            step = rng.choice([1, 1, 2, 3])
            c.append(("slice", dim, st, en, step))
            dim = rng.randrange(nd)
            if s[dim] >= 1:
                c.append(("select", dim, rng.randrange(s[dim])))
            dim = rng.randrange(nd)
            if s[dim] >= 1:
                st = rng.randrange(s[dim])
                c.append(("narrow", dim, st, rng.randint(0, s[dim] - st)))
            c.append(("unsqueeze", rng.randint(0, nd)))
            if 1 in s:
                c.append(("squeeze",))
                c.append(("squeezed", rng.choice([i for i in range(nd) if s[i] == 1])))
            if multi:
                dim = rng.randrange(nd)
                if s[dim] >= 1:
                    c.append(("unbind", dim, rng.randrange(s[dim])))
                    sz = rng.randint(1, s[dim])
                    c.append(("split", sz, dim, rng.randrange(-(-s[dim] // sz))))
                    ch = rng.randint(1, 3)
                    nch = len(shadow(x).chunk(ch, dim))
                    c.append(("chunk", ch, dim, rng.randrange(nch)))
        if nd >= 2:
            d0, d1 = rng.sample(range(nd), 2)
            c.append(("transpose", d0, d1))
            c.append(("diagonal", rng.choice([0, 0, 1, -1]), d0, d1))
            p = list(range(nd))
            rng.shuffle(p)
            c.append(("permute", nd) + tuple(p))
            if nd == 2:
                c.append(("t",))
            e = rng.randrange(nd - 1)
            c.append(("flatten", e, e + 1 + rng.randrange(nd - 1 - e)))
        if nd == 1:
            c.append(("t",))
        # view / reshape shapes
        numel = prod(s)
        shapes = [[numel], [1] + s, s + [1]]
        if nd >= 2:
            shapes.append([s[0] * s[1]] + s[2:])
            shapes.append([-1] + s[1:])
        for f in (2, 3):
            if numel and numel % f == 0 and numel // f > 1:
                shapes.append([f, numel // f])
                shapes.append([numel // f, -1])
        if not numel:
            shapes = [v for v in shapes if -1 not in v]
        shp = rng.choice(shapes)
        try:
            shadow(x).view(shp)
            c.append(("view", len(shp)) + tuple(shp))
        except RuntimeError:
            pass
        shp = rng.choice(shapes)
        c.append(("reshape", len(shp)) + tuple(shp))
        # expand: size-1 dims grow, maybe a new leading dim
        es = [rng.choice([2, 3]) if v == 1 and rng.random() < 0.7 else (v if rng.random() < 0.7 else -1) for v in s]
        if rng.random() < 0.4 or not nd:
            es = [rng.choice([1, 2, 3])] + es
        c.append(("expand", len(es)) + tuple(es))
        if strided:
            g = self.strided_geometry(x)
            if g:
                c.append(g)
        return c

    def strided_geometry(self, x, overlap_bias=0.4):
        N = x.storage().size()
        if N < 1:
            return None
        rng = self.rng
        for _ in range(20):
            nd = rng.choice([1, 2, 2])
            sizes = [rng.randint(1, 3) for _ in range(nd)]
            if nd == 2 and rng.random() < overlap_bias:
                strides = [1, 1] if rng.random() < 0.6 else [rng.choice([0, 1]), rng.choice([0, 1, 2])]
            else:
                strides = [rng.choice([1, 2, 3]) for _ in range(nd)]
                if nd == 2 and rng.random() < 0.6:
                    strides = [sizes[1] * rng.choice([1, 2]), 1]
            last = sum((a - 1) * b for a, b in zip(sizes, strides))
            if last > N - 1:
                continue
            off = rng.randint(0, N - 1 - last)
            return ("as_strided", nd) + tuple(sizes) + tuple(strides) + (off,)
        return None

    def view_of(self, src, kinds=None, multi=True, strided=True, exclude=()):
        c = self.view_candidates(src, multi=multi, strided=strided)
        c = [v for v in c if v[0] not in exclude] or c
        if kinds:
            c2 = [v for v in c if v[0] in kinds]
            if c2:
                c = c2
        v = self.rng.choice(c)
        d = self.newreg()
        self.emit(v[0], R(d), R(src), *v[1:])
        return d

    def view_chain(self, src, n=None, **kw):
        if n is None:
            n = 1 if self.chance(0.6) else 2
        r = src
        for _ in range(n):
            r = self.view_of(r, **kw)
        return r

    # -- in-place
    def inplace(self, target, ops=None, rg_prob=0.65):
        x = self.T(target)
        rng = self.rng
        if x.is_floating_point():
            table = [("mul_", 4), ("add_", 3), ("copy_", 3), ("muls_", 2), ("adds_", 2), ("sub_", 1), ("subs_", 1),
                     ("div_", 1), ("divs_", 1), ("fill_", 1), ("zero_", 1), ("exp_", 0.6), ("clamp_", 1)]
        elif x.dtype == torch.bool:
            table = [("fill_", 1), ("zero_", 1), ("copy_", 2)]
        else:
            table = [("mul_", 2), ("add_", 2), ("sub_", 1), ("muls_", 1), ("adds_", 1), ("fill_", 1), ("zero_", 1),
                     ("copy_", 2)]
        if ops:
            t2 = [(o, w) for o, w in table if o in ops]
            if t2:
                table = t2
        op = rng.choices([o for o, _ in table], [w for _, w in table])[0]
        isf = x.is_floating_point()
        if op in ("muls_", "adds_", "subs_", "divs_"):
            c = self.fscal() if isf else str(rng.choice([2, -1, 3]))
            self.emit(op, R(target), c)
        elif op == "fill_":
            c = self.fscal() if isf else str(rng.randint(0, 1 if x.dtype == torch.bool else 3))
            self.emit(op, R(target), c)
        elif op in ("zero_", "exp_"):
            self.emit(op, R(target))
        elif op == "clamp_":
            lo = rng.choice([-1.9, -1.1, -0.6, 0.1])
            self.emit(op, R(target), repr(lo), repr(lo + rng.choice([0.5, 1.0, 2.0])))
        else:
            o = self.inplace_operand(target, op, rg_prob)
            if op == "div_":
                o = self.unop("exp", o)
            self.emit(op, R(target), R(o))

    def inplace_operand(self, target, op, rg_prob):
        x = self.T(target)
        isf = x.is_floating_point()
        excl = storage_ptr(x) if x.numel() else None
        o = None
        if self.in_ng or self.chance(0.3):
            o = self.compatible_operand(x.shape, exclude_storage=excl, float_only=op == "div_")
            if o is not None and op != "copy_":
                ox = self.T(o)
                if not torch.can_cast(torch.result_type(x, ox), x.dtype):
                    o = None
        if o is None and self.in_ng:
            o = self.compatible_operand(x.shape, exclude_storage=excl, float_only=True)
            if o is not None and not isf and op != "copy_":
                o = None
        if o is None:
            if self.in_ng:
                # no leaves inside no-grad: a constant made from the target itself
                o = self.scalop("muls", target, "2.0" if isf else "2")
                o = self.unop("clone", o)
            else:
                if isf or op == "div_":
                    dt = DTNAME[x.dtype] if (isf and self.chance(0.8)) else self.rng.choice(FLOATS)
                    if not isf and op != "copy_":
                        dt = DTNAME[x.dtype]
                    o = self.leaf(shape=self.operand_shape(x.shape), dt=dt, rg=self.chance(rg_prob))
                else:
                    o = self.leaf(shape=self.operand_shape(x.shape), dt="i64" if op != "copy_" else
                                  self.rng.choice(["i64", "f64", "f32"]))
        return o

    # -- casts
    def cast(self, src, dt=None):
        x = self.T(src)
        v = x.data.double()
        finite = bool(torch.isfinite(v).all()) if v.numel() else True
        opts = ["f32", "f64", "b"]
        if finite and (not v.numel() or float(v.abs().max()) < 2 ** 30):
            opts += ["i64", "i32", "i64"]
            if not v.numel() or (float(v.min()) >= 0 and float(v.max()) < 255):
                opts.append("u8")
        if dt is None or dt not in opts:
            dt = self.rng.choice(opts)
        d = self.newreg()
        self.emit("to", R(d), R(src), dt)
        return d

    # -- no-grad blocks
    def nograd(self):
        self.emit("nograd")
        self.in_ng = True

    def endnograd(self):
        self.emit("endnograd")
        self.in_ng = False

    # -- random steps
    def random_step(self):
        rng = self.rng
        k = rng.choice(["func", "func", "view", "view", "inplace", "inplace", "cast", "detach", "nograd"])
        regs = self.live()
        if k == "func":
            return self.functional()
        if k == "view":
            src = rng.choice(regs)
            return self.view_of(src)
        if k == "inplace":
            cands = [r for r in regs if not (rg(self.T(r)) and (leafp(self.T(r)) or self.chance(0.5)))
                     and not self.view_of_rg_leaf(r)]
            return self.inplace(rng.choice(cands)) if cands else self.functional()
        if k == "cast":
            return self.cast(rng.choice(regs))
        if k == "detach":
            return self.unop("detach", rng.choice(regs))
        if k == "nograd" and not self.in_ng:
            self.nograd()
            for _ in range(rng.randint(1, 2)):
                if rng.random() < 0.5:
                    self.view_of(rng.choice(self.live()))
                else:
                    regs = self.live()
                    cands = [r for r in regs if not rg(self.T(r)) or self.chance(0.3)] or regs
                    self.inplace(rng.choice(cands))
            self.endnograd()

    # -- the end: backward and what to check
    def view_of_rg_leaf(self, r):
        b = self.T(r)._base
        return b is not None and b.is_leaf and b.requires_grad and self.chance(0.8)

    def grad_cands(self):
        return [r for r in self.live(lambda x: rg(x) and x.is_floating_point())]

    def make_root(self, prefer=()):
        """A scalar loss over 1-3 registers that require grad, or (root, grad_output)."""
        cands = self.grad_cands()
        if not cands:
            return None
        rng = self.rng
        pref = [r for r in prefer if r in cands]
        if rng.random() < 0.4:
            r = rng.choice(pref) if pref and rng.random() < 0.7 else rng.choice(cands)
            x = self.T(r)
            if x.dim() > 0:
                go = self.leaf(shape=list(x.shape), dt=DTNAME[x.dtype], rg=False)
                return (r, go)
            return (r, None)
        k = rng.randint(1, min(3, len(cands)))
        picks = []
        for r in pref:
            if len(picks) < k and rng.random() < 0.7:
                picks.append(r)
        while len(picks) < k:
            r = rng.choice(cands)
            if r not in picks:
                picks.append(r)
            elif len(set(cands)) <= len(picks):
                break
        root = None
        for r in picks:
            s = self.unop("sum", r)
            if self.chance(0.3):
                s = self.unop("sum", self.binop("mul", r, r)) if self.T(r).dim() else self.binop("mul", s, s)
            root = s if root is None else self.binop("add", root, s)
        return (root, None)

    def backward(self, root_go, retain=False):
        r, go = root_go
        self.emit("backward", R(r), R(go) if go is not None else "-", int(retain))
        self.roots_done += 1

    def finish(self, prefer=(), retain=None):
        if self.in_ng:
            self.endnograd()
        rt = self.make_root(prefer)
        if rt is not None:
            if retain is None:
                retain = self.chance(0.12)
            self.backward(rt, retain)
            if retain:
                if self.chance(0.4):
                    self.random_step()
                self.backward(rt, self.chance(0.2))

    def expectations(self):
        out = []
        shown = []
        first = [r for r in self.focus if r in self.M.regs]
        pool = [r for r in self.M.regs if r not in first and r not in self.leaves]
        rest = self.rng.sample(pool, min(len(pool), self.rng.randint(1, 2)))
        for r in first + rest:
            if r in shown:
                continue
            x = self.M.regs[r]
            if x is not None and x.numel() > 36:
                continue
            try:
                line = val_line(self.M, r)
            except RuntimeError:  # a view PyTorch no longer lets anyone use
                continue
            shown.append(r)
            if len(shown) > 5:
                break
            out.append(line)
        for r in self.leaves:
            out.append(leafgrad_line(self.M, r))
        return out


# ---- categories --------------------------------------------------------------
def cat_view_inplace(g):
    rng = g.rng
    x = g.rg_leaf()
    base = g.leaf(shape=list(g.T(x).shape), rg=False) if g.chance(0.3) else g.nonleaf(x)
    v = g.view_chain(base, multi=False, strided=g.chance(0.3), exclude=() if g.chance(0.1) else ("expand",))
    g.focus += [base, v]
    g.inplace(v, rg_prob=0.75)
    if g.chance(0.3):
        g.inplace(base)
    if g.chance(0.25):
        v2 = g.view_of(base, multi=False, strided=False, exclude=("expand",))
        g.focus.append(v2)
        g.inplace(v2)
    if g.chance(0.3):
        g.focus.append(g.functional(rng.choice([v, base])))
    for _ in range(rng.randint(0, 1)):
        g.random_step()
    g.finish(prefer=[base, v])


def cat_base_inplace(g):
    x = g.rg_leaf()
    a = g.nonleaf(x)
    v = g.view_chain(a, multi=False, strided=g.chance(0.2))
    g.focus += [a, v]
    if g.chance(0.3):
        g.focus.append(g.functional(v))
    g.inplace(a, rg_prob=0.7)
    if g.chance(0.3):
        g.inplace(a)
    u = g.functional(v) if g.chance(0.6) else v
    g.focus.append(u)
    g.finish(prefer=[v, u, a])


def cat_copy_buf(g):
    rng = g.rng
    x = g.rg_leaf()
    h = g.nonleaf(x)
    hs = list(g.T(h).shape)
    dt = rng.choice(FLOATS)
    k = rng.randint(1, 3)
    buf = g.leaf(shape=[k] + hs, dt=dt, rg=False, vals=["0"] * (k * prod(hs)))
    g.focus.append(buf)
    rows = list(range(k))
    rng.shuffle(rows)
    for i in rows[:rng.randint(1, k)]:
        if g.chance(0.7):
            d = g.newreg()
            g.emit("select", R(d), R(buf), 0, i)
        else:
            d = g.newreg()
            g.emit("slice", R(d), R(buf), 0, i, i + 1, 1)
        g.emit("copy_", R(d), R(h))
        g.focus.append(d)
        if g.chance(0.3):
            h = g.nonleaf(g.rg_leaf(shape=hs))
    if g.chance(0.3):
        g.inplace(buf)
    g.finish(prefer=[buf])


def cat_cast(g):
    rng = g.rng
    x = g.rg_leaf()
    a = g.nonleaf(x) if g.chance(0.7) else x
    c = g.cast(a)
    g.focus += [c]
    if g.chance(0.5):
        c2 = g.cast(c, dt=rng.choice(FLOATS))
        g.focus.append(c2)
        c = c2
    if g.chance(0.4):
        g.inplace(c)
    if g.chance(0.5):
        o = g.functional(c)
        g.focus.append(o)
    if g.chance(0.4):
        v = g.view_of(c, multi=False, strided=False)
        g.focus.append(v)
        if g.chance(0.5):
            g.inplace(v)
    g.finish(prefer=g.focus)


def cat_nograd(g):
    rng = g.rng
    x = g.rg_leaf()
    base = g.nonleaf(x) if g.chance(0.6) else (x if g.chance(0.3) else g.leaf(shape=list(g.T(x).shape), rg=False))
    g.focus.append(base)
    mode = rng.choice(["view_in_ng", "view_in_ng", "inplace_in_ng", "both_in_ng"])
    if mode == "inplace_in_ng":
        v = g.view_chain(base, multi=g.chance(0.3))
        g.nograd()
        g.inplace(v)
        g.endnograd()
    else:
        g.nograd()
        v = g.view_chain(base, multi=g.chance(0.3))
        if mode == "both_in_ng":
            g.inplace(v)
        g.endnograd()
    g.focus.append(v)
    if g.chance(0.45):
        g.inplace(v, rg_prob=0.7)
    elif g.chance(0.5):
        g.focus.append(g.functional(v))
    if g.chance(0.3):
        g.random_step()
    g.finish(prefer=[v, base])


def cat_multi(g):
    x = g.rg_leaf()
    if not g.T(x).numel():
        x = g.rg_leaf(shape=[2, 3])
    base = g.nonleaf(x) if g.chance(0.7) else g.leaf(shape=list(g.T(x).shape), rg=False)
    ng = g.chance(0.2)
    if ng:
        g.nograd()
    u = g.view_of(base, kinds=("unbind", "split", "chunk"))
    g.focus += [base, u]
    if g.chance(0.5):
        g.inplace(u, rg_prob=0.6)
    if ng:
        g.endnograd()
    if g.chance(0.25):
        g.inplace(u)
    else:
        g.focus.append(g.functional(u))
    g.finish(prefer=[u, base])


def cat_as_strided(g):
    rng = g.rng
    x = g.rg_leaf(shape=g.rand_shape() if g.chance(0.5) else [rng.randint(4, 8)])
    base = g.nonleaf(x) if g.chance(0.6) else (x if g.chance(0.4) else g.leaf(shape=list(g.T(x).shape), rg=False))
    geo = g.strided_geometry(g.T(base), overlap_bias=0.5)
    if geo is None:
        base = g.nonleaf(g.rg_leaf(shape=[6]))
        geo = g.strided_geometry(g.T(base), overlap_bias=0.5)
    s = g.newreg()
    g.emit(geo[0], R(s), R(base), *geo[1:])
    g.focus += [base, s]
    k = rng.choice(["use", "inplace_s", "inplace_s", "inplace_base"])
    if k == "inplace_s":
        g.inplace(s)
    elif k == "inplace_base":
        g.inplace(base)
        g.focus.append(g.functional(s))
    else:
        g.focus.append(g.functional(s))
    if g.chance(0.3):
        g.focus.append(g.view_of(s, multi=False))
    g.finish(prefer=[s, base])


def cat_leaf_view(g):
    rng = g.rng
    x = g.rg_leaf()
    g.focus.append(x)
    k = rng.choice(["view", "view", "leaf", "nograd_view", "detach"])
    if k == "view":
        v = g.view_chain(x, multi=g.chance(0.3))
        g.focus.append(v)
        g.inplace(v)
    elif k == "leaf":
        g.inplace(x)
    elif k == "nograd_view":
        g.nograd()
        v = g.view_of(x)
        g.inplace(v)
        g.endnograd()
        g.focus.append(v)
    else:
        y = g.functional(x)
        d = g.unop("detach", x)
        g.focus.append(y)
        g.inplace(g.view_of(d, multi=False) if g.chance(0.5) else d)
    g.finish(prefer=g.focus)


def cat_double(g):
    rng = g.rng
    x = g.rg_leaf(dt="f64" if g.chance(0.8) else "f32")
    if not g.T(x).numel():
        x = g.rg_leaf(shape=[3])
    xs = list(g.T(x).shape)
    k = rng.choice(["mul", "mul", "mulw", "exp"])
    if k == "mul":
        a = g.binop("mul", x, x)
    elif k == "mulw":
        a = g.binop("mul", x, g.rg_leaf(shape=g.operand_shape(xs)))
    else:  # exp saves its output: scale it, so that in-place ops on a leave that alone
        a = g.scalop("muls", g.unop("exp", x), g.fscal())
    v = g.view_chain(a, multi=False, strided=g.chance(0.2))
    g.focus += [a, v]
    k = rng.choice(["inplace_view", "inplace_view", "inplace_base", "none"])
    y = None
    if k == "inplace_view":
        y = g.rg_leaf(shape=g.operand_shape(g.T(v).shape))
        g.emit(rng.choice(["mul_", "add_", "copy_"]), R(v), R(y))
    elif k == "inplace_base":
        g.inplace(a, ops=("mul_", "muls_", "add_", "exp_"))
    out = g.binop("mul", a, a) if g.chance(0.5) else a
    ins = [x] + ([y] if y is not None and g.chance(0.6) else [])
    o = g.T(out)
    go = None
    if o.dim() > 0 and g.chance(0.5):
        go = g.leaf(shape=list(o.shape), dt=DTNAME[o.dtype], rg=False)
    elif o.dim() > 0:
        out = g.unop("sum", out)
    gs = [g.newreg() for _ in ins]
    g.emit("autograd_grad", len(ins), *[R(r) for r in gs], R(out), R(go) if go is not None else "-", 1,
           *[R(r) for r in ins])
    g.focus += gs
    live = [r for r in gs if g.T(r) is not None and rg(g.T(r))]
    if live:
        r0 = rng.choice(live)
        h = g.binop("mul", r0, r0) if g.chance(0.5) else g.binop("mul", r0, x) if g.T(r0).shape == tuple(xs) \
            else g.unop("exp", r0)
        s = g.unop("sum", h)
        if rg(g.T(s)):
            g.backward((s, None), False)


def cat_retain(g):
    x = g.rg_leaf()
    base = g.nonleaf(x)
    v = g.view_chain(base, multi=False)
    g.focus += [base, v]
    if g.chance(0.6):
        g.inplace(v)
    g.finish(prefer=[base, v], retain=True)


def cat_random(g):
    g.rg_leaf()
    g.leaf()
    for _ in range(g.rng.randint(3, 7)):
        g.random_step()
    g.focus += g.rng.sample(g.live(), min(2, len(g.live())))
    g.finish()


CAT_FUNCS = {"view_inplace": cat_view_inplace, "base_inplace": cat_base_inplace, "copy_buf": cat_copy_buf,
             "cast": cat_cast, "nograd": cat_nograd, "multi_output": cat_multi, "as_strided": cat_as_strided,
             "leaf_view": cat_leaf_view, "double_backward": cat_double, "retain": cat_retain, "random": cat_random}


def error_class(msg):
    if "returns multiple views" in msg:
        return "multi_output_view"
    if "created in no_grad mode" in msg:
        return "no_grad_view"
    if "a view of a leaf Variable" in msg:
        return "view_of_leaf"
    if "a leaf Variable that requires grad" in msg:
        return "leaf_inplace"
    if "modified by an inplace operation" in msg:
        return "version_counter"
    if "single memory location" in msg:
        return "overlap"
    if "does not require grad" in msg:
        return "root_without_grad"
    if "can't be cast" in msg:
        return "dtype"
    return "other"


def run_program(cat, seed):
    """(lines, info) for one program, or None when it must be discarded."""
    rng = random.Random(seed)
    g = Gen(rng, cat)
    torch.set_grad_enabled(True)
    err = None
    with warnings.catch_warnings(record=True) as W:
        warnings.simplefilter("always")
        try:
            CAT_FUNCS[cat](g)
        except Stop as e:
            err = e
        torch.set_grad_enabled(True)
        if W:
            return None, "warning: %s" % W[0].message
        if g.M.layout_dependent:
            return None, "layout-dependent"
        if g.M.grad_leak:
            return None, "pytorch bug: autograd.grad wrote a .grad"
        if err is None:
            exp = g.expectations()
        else:
            if "INTERNAL ASSERT" in err.msg:
                return None, "internal assert"
            msg = "".join(ch if 32 <= ord(ch) < 127 else "?" for ch in err.msg)[:110]
            exp = ["error %d %s" % (err.k, msg)]
    lines = ["# " + cat] + g.lines + exp
    info = {"cat": cat, "error": error_class(err.msg) if err else None, "ninstr": len(g.lines),
            "interplay": g.M.interplay,
            "flow": err is None and any(l.startswith("leafgrad") and ":" in l for l in exp)}
    return lines, info


def replay(lines):
    """Run a program from its text alone; returns its expectation lines."""
    M = Machine()
    instrs = [l for l in lines[1:] if l.split()[0] not in ("val", "leafgrad", "error")]
    exp_lines = [l for l in lines[1:] if l.split()[0] in ("val", "leafgrad", "error")]
    torch.set_grad_enabled(True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            for l in instrs:
                M.run(l)
        except Stop as e:
            msg = "".join(ch if 32 <= ord(ch) < 127 else "?" for ch in e.msg)[:110]
            return ["error %d %s" % (e.k, msg)], exp_lines
    torch.set_grad_enabled(True)
    out = []
    for l in exp_lines:
        t = l.split()
        r = int(t[1][1:])
        out.append(val_line(M, r) if t[0] == "val" else leafgrad_line(M, r))
    return out, exp_lines


def c_string(line):
    return '"' + line.replace("\\", "\\\\").replace('"', '\\"') + '\\n"'


def main():
    torch.set_num_threads(1)
    progs = []
    stats = collections.Counter()
    errs = collections.Counter()
    discards = collections.Counter()
    for ci, (cat, n) in enumerate(CATEGORIES):
        sub = 0
        made = 0
        while made < n:
            seed = SEED * 100003 + ci * 10007 + sub
            sub += 1
            try:
                lines, info = run_program(cat, seed)
            except Exception as e:  # a generator bug: never silently
                sys.stderr.write("generator bug in %s seed %d: %r\n" % (cat, seed, e))
                raise
            if lines is None:
                discards[info] += 1
                continue
            if sum(len(l) + 3 for l in lines) > MAXLEN:
                discards["too long"] += 1
                continue
            got, want = replay(lines)
            if got != want:
                raise SystemExit("replay of %s seed %d differs:\n%s\n%s" % (cat, seed, got, want))
            progs.append((lines, info))
            made += 1
            stats[cat] += 1
            if info["error"]:
                errs[info["error"]] += 1
    # statistics
    total = len(progs)
    nerr = sum(1 for _, i in progs if i["error"])
    niv = sum(1 for _, i in progs if i["interplay"] and i["flow"])
    sys.stderr.write("%d programs; %d end in an error (%.0f%%); %d write in place through a view or into a base "
                     "with live views and get gradients into leaves (%.0f%%)\n" %
                     (total, nerr, 100.0 * nerr / total, niv, 100.0 * niv / total))
    sys.stderr.write("categories: %s\n" % ", ".join("%s %d" % kv for kv in stats.items()))
    sys.stderr.write("errors: %s\n" % ", ".join("%s %d" % kv for kv in sorted(errs.items())))
    sys.stderr.write("discarded: %s\n" % dict(discards))
    # the header
    w = sys.stdout.write
    w("/* tests/fixtures/view_programs.h - GENERATED by tests/gen_view_programs.py from PyTorch %s; do not edit.\n"
      " * Regenerate: /usr/bin/python3 tests/gen_view_programs.py > tests/fixtures/view_programs.h\n"
      " * %d programs through views, in-place ops, casts, no-grad regions and backward; the\n"
      " * language and the expectation lines are described in the generator's header.\n"
      " * Replayed by tests/test_view_programs.c. */\n" % (torch.__version__, total))
    w("#ifndef CT_TESTS_VIEW_PROGRAMS_H\n#define CT_TESTS_VIEW_PROGRAMS_H\n\n")
    w("#define VIEW_PROGRAMS_COUNT %d\n\n" % total)
    w("static const char *const view_programs[VIEW_PROGRAMS_COUNT] = {\n")
    for i, (lines, info) in enumerate(progs):
        w("  /* %d */\n" % i)
        for j, l in enumerate(lines):
            w("  " + c_string(l) + (",\n" if j == len(lines) - 1 else "\n"))
    w("};\n\n#endif\n")


if __name__ == "__main__":
    main()
