#!/usr/bin/python3
"""PyTorch 1.13's Lazy Tensor Core (TorchScript backend) on the programs of
bench/lazy/bench_lazy.cpp, one thread (Debian's python3-torch: run with
/usr/bin/python3).

Prints:
  ltc_trace_per_op_us <value>   tracing only, per operator: relu(x * y + 1) chains on 8x8
  ltc_mlp_step_us <value>       a 3-layer MLP forward (32x256, 256x256 weights): input
                                transfer, trace, mark_step, result read (cache hits)
  ltc_chain8_us <n> <value>     8 elementwise operators on n floats, traced and mark_step
  eager_mlp_step_us <value>     the same MLP step in eager PyTorch (for reference)
  ltc_cached_compile / ltc_uncached_compile  LTC's counters after the MLP steps
Medians of several repetitions, wall time (time.perf_counter): LTC runs its
graphs on a thread of its own and OpenBLAS's threads spin, so the process's CPU
time says less than the wall time; compare with Google Benchmark's real time.
"""
import statistics
import time

import torch
import torch._lazy
import torch._lazy.metrics
import torch._lazy.ts_backend

torch.set_num_threads(1)
torch._lazy.ts_backend.init()
DEV = "lazy"
CHAIN_OPS = 96


def median_time(fn, reps=7, min_time=0.2):
    fn()  # warm-up (compiles)
    times = []
    for _ in range(reps):
        n = 0
        start = time.perf_counter()
        while True:
            fn()
            n += 1
            el = time.perf_counter() - start
            if el >= min_time / reps:
                break
        times.append(el / n)
    return statistics.median(times)


def trace_chain(x, y):
    a = x
    for _ in range(CHAIN_OPS // 3):
        a = torch.relu(a * y + 1)
    return a


def main():
    x = torch.randn(8, 8, device=DEV)
    y = torch.randn(8, 8, device=DEV)
    torch._lazy.mark_step()

    def trace_only():
        trace_chain(x, y)  # dropped unrun (as the C++ row)

    per_op = median_time(trace_only) / CHAIN_OPS
    print(f"ltc_trace_per_op_us {per_op * 1e6:.3f}")

    ws = [torch.randn(256, 256) * 0.0625 for _ in range(3)]
    bs = [torch.randn(256) * 0.1 for _ in range(3)]
    wl = [w.to(DEV) for w in ws]
    bl = [b.to(DEV) for b in bs]
    xc = torch.randn(32, 256)

    def mlp(inp, w, b):
        for i in range(3):
            inp = torch.nn.functional.linear(inp, w[i], b[i])
            if i < 2:
                inp = torch.relu(inp)
        return inp

    def lazy_step():
        out = mlp(xc.to(DEV), wl, bl)
        torch._lazy.mark_step()
        return out.cpu()

    def eager_step():
        return mlp(xc, ws, bs)

    torch._lazy.metrics.reset()
    lazy_us = median_time(lazy_step) * 1e6
    eager_us = median_time(eager_step) * 1e6
    print(f"ltc_mlp_step_us {lazy_us:.1f}")
    print(f"eager_mlp_step_us {eager_us:.1f}")
    print(f"ltc_uncached_compile {torch._lazy.metrics.counter_value('UncachedCompile')}")
    print(f"ltc_cached_compile {torch._lazy.metrics.counter_value('CachedCompile')}")

    for n in (1000, 1000000):
        cx = torch.randn(n, device=DEV)
        cy = torch.randn(n, device=DEV)
        torch._lazy.mark_step()
        keep = [None]

        def chain8():
            a = cx * cy
            b = a + cx
            c = torch.relu(b)
            d = c * 1.5
            e = d - cy
            m = e > 0
            f = torch.where(m, e, cx)
            keep[0] = f + 1
            torch._lazy.mark_step()

        print(f"ltc_chain8_us {n} {median_time(chain8) * 1e6:.1f}")


if __name__ == "__main__":
    main()
