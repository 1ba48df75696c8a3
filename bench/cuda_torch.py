#!/usr/bin/env python3
"""bench/cuda_torch.py - the PyTorch side of bench/cuda.c, on cuda:0.

Measures what bench/cuda.c measures, with PyTorch eager from Python:
  tiny  host time per call of a 1-element f32 add on the GPU: functional
        (r = torch.add(x, x)) and out= (torch.add(x, x, out=out)); BENCH_CALLS
        calls (default 20000) on the host clock, one synchronize at the end
  mlp   training step of a 32-64-64-8 MLP (nn.Linear, ReLU, nn.MSELoss,
        backward, SGD as p.sub_(p.grad, alpha=lr) under no_grad, grads set
        to None) at batch 1 and 256: host time per step, synchronize at the
        end of each timed block; cudaMalloc calls per steady-state step (the
        caching allocator's "segment.all.allocated" over the timed steps)
  reduce  sum over rows, columns and all of 16M f32, amax, var, argmax over
        rows of [4096, 4096]: GB/s of input read (synchronized blocks)
  gemm  torch.mm(a, b, out=c), square n = 1024, 4096, 8192 (BENCH_GEMM_MAX
        caps it), f32 without TF32 and bf16: TFLOP/s from CUDA events
Each figure is the median of BENCH_REPEATS (default 7) timed blocks (the
tiny variants interleaved, order rotated each repeat); MLP blocks are sized
to about BENCH_MS ms (default 40), GEMM blocks to half that, with
2 * BENCH_REPEATS + 1 repeats. Same knobs as bench/cuda.c.

Output: one line per figure, "torch KEY VALUE", for bench/cuda.c to read:
  python3 bench/cuda_torch.py > build/torch_cuda.txt
  CT_BENCH_TORCH=build/torch_cuda.txt build/bench_cuda
Without torch or without a CUDA device it prints one "SKIP: ..." line and
exits 0.
"""
import os
import statistics
import sys
import time


def env_int(name, default):
    try:
        v = int(os.environ.get(name, ""))
        return v if v > 0 else default
    except ValueError:
        return default


def env_float(name, default):
    try:
        v = float(os.environ.get(name, ""))
        return v if v > 0 else default
    except ValueError:
        return default


REPS = min(env_int("BENCH_REPEATS", 7), 64)
TARGET_MS = env_float("BENCH_MS", 40.0)
TINY_CALLS = env_int("BENCH_CALLS", 20000)
GEMM_MAX = env_int("BENCH_GEMM_MAX", 8192)


TIMING = [False]  # set while measure() runs the timed repeats


def emit(key, value):
    if isinstance(value, float):
        print(f"torch {key} {value:.6g}", flush=True)
    else:
        print(f"torch {key} {value}", flush=True)


def measure(fns, calls, warm, reps=None, target_ms=None):
    """fns: callables f(calls) -> ns. calls[i] <= 0: size the block to
    about target_ms (default TARGET_MS). reps (default REPS) repeats, the
    blocks interleaved. Returns the median ns per call of each."""
    reps = reps or REPS
    target_ms = target_ms or TARGET_MS
    calls = list(calls)
    for i, f in enumerate(fns):
        f(warm)
        if calls[i] <= 0:
            c = 1
            while True:
                t = f(c)
                if t > target_ms * 1e6 / 4 or c > (1 << 22):
                    break
                c *= 4
            calls[i] = max(1, int(c * (target_ms * 1e6 / max(t, 1.0))))
    v = [[] for _ in fns]
    TIMING[0] = True
    for r in range(reps):
        for j in range(len(fns)):
            i = (j + r) % len(fns)
            v[i].append(fns[i](calls[i]) / calls[i])
    TIMING[0] = False
    return [statistics.median(x) for x in v], calls


def main():
    try:
        import torch
    except Exception as e:  # noqa: BLE001 - any import failure means no torch
        print(f"SKIP: torch is not importable ({e.__class__.__name__}: {e})")
        return 0
    if not torch.cuda.is_available() or torch.cuda.device_count() == 0:
        print("SKIP: torch sees no CUDA device")
        return 0

    dev = torch.device("cuda", 0)
    torch.cuda.set_device(dev)
    torch.backends.cuda.matmul.allow_tf32 = False  # f32 GEMMs in full f32, as bench/cuda.c
    sync = torch.cuda.synchronize
    now = time.perf_counter_ns

    emit("version", torch.__version__)
    emit("cuda", torch.version.cuda)
    emit("device", torch.cuda.get_device_name(dev))
    emit("repeats", REPS)

    # ---- tiny: host time per 1-element add ----
    x = torch.ones(1, device=dev)
    out = torch.empty(1, device=dev)

    def tiny_add(n):
        add = torch.add
        r = None
        sync()
        t0 = now()
        for _ in range(n):
            r = add(x, x)
        del r
        sync()
        return now() - t0

    def tiny_add_out(n):
        add = torch.add
        sync()
        t0 = now()
        for _ in range(n):
            add(x, x, out=out)
        sync()
        return now() - t0

    warm = max(TINY_CALLS // 4, 1000)
    (t_add, t_out), _ = measure([tiny_add, tiny_add_out], [TINY_CALLS, TINY_CALLS], warm)
    emit("tiny_add_us", t_add / 1e3)
    emit("tiny_add_out_us", t_out / 1e3)
    del x, out

    # ---- reductions: GB/s of f32 input read ----
    g = torch.Generator(device=dev)
    g.manual_seed(7)
    cases = [
        ("red_sum_rows", (4096, 4096), lambda t: torch.sum(t, 1)),
        ("red_sum_cols", (4096, 4096), lambda t: torch.sum(t, 0)),
        ("red_sum_all", (16777216,), lambda t: torch.sum(t)),
        ("red_amax_rows", (4096, 4096), lambda t: torch.amax(t, 1)),
        ("red_var_rows", (4096, 4096), lambda t: torch.var(t, 1)),
        ("red_argmax_rows", (4096, 4096), lambda t: torch.argmax(t, 1)),
    ]
    for key, shape, fn in cases:
        t = torch.rand(shape, device=dev, generator=g) - 0.5

        def run(n, t=t, fn=fn):
            sync()
            t0 = now()
            for _ in range(n):
                fn(t)
            sync()
            return now() - t0

        (ns,), _ = measure([run], [0], 3)
        emit(f"{key}_gbs", t.numel() * 4 / ns)
        del t

    # ---- mlp: training step ----
    nn = torch.nn
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 8)).to(dev)
    params = list(model.parameters())
    loss_fn = nn.MSELoss()
    lr = 0.01

    def step(xb, yb):
        loss = loss_fn(model(xb), yb)
        loss.backward()
        with torch.no_grad():
            for p in params:
                p.sub_(p.grad, alpha=lr)
        for p in params:
            p.grad = None

    for batch in (1, 256):
        xb = torch.rand(batch, 32, device=dev) - 0.5
        yb = torch.rand(batch, 8, device=dev) - 0.5
        counted = {"steps": 0, "mallocs": 0}

        def run(n, xb=xb, yb=yb, counted=counted):
            sync()
            m0 = torch.cuda.memory_stats(dev).get("segment.all.allocated", 0)
            t0 = now()
            for _ in range(n):
                step(xb, yb)
            sync()
            t1 = now()
            if TIMING[0]:  # count the timed steps only
                counted["steps"] += n
                counted["mallocs"] += torch.cuda.memory_stats(dev).get("segment.all.allocated", 0) - m0
            return t1 - t0

        (t,), _ = measure([run], [0], 20)
        emit(f"mlp_step_us_b{batch}", t / 1e3)
        emit(f"mlp_mallocs_per_step_b{batch}", counted["mallocs"] / max(counted["steps"], 1))
    del model, params

    # ---- gemm: torch.mm TFLOP/s ----
    e0 = torch.cuda.Event(enable_timing=True)
    e1 = torch.cuda.Event(enable_timing=True)
    for n in (1024, 4096, 8192):
        if n > GEMM_MAX:
            continue
        g = torch.Generator(device=dev)
        g.manual_seed(n)
        a32 = torch.rand(n, n, device=dev, generator=g) - 0.5
        b32 = torch.rand(n, n, device=dev, generator=g) - 0.5
        for name, dt in (("f32", torch.float32), ("bf16", torch.bfloat16)):
            a = a32.to(dt)
            b = b32.to(dt)
            c = torch.empty(n, n, device=dev, dtype=dt)

            def run(k, a=a, b=b, c=c):
                sync()
                e0.record()
                for _ in range(k):
                    torch.mm(a, b, out=c)
                e1.record()
                e1.synchronize()
                return e0.elapsed_time(e1) * 1e6  # ms -> ns

            # as bench/cuda.c: twice the repeats (+1) of half-length blocks
            (t,), _ = measure([run], [0], 3, reps=min(2 * REPS + 1, 63), target_ms=TARGET_MS / 2)
            emit(f"mm_tflops_{name}_{n}", 2.0 * n * n * n / t / 1e3)
            del a, b, c
        del a32, b32
        torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
