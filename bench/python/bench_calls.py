#!/usr/bin/env python3
"""Per-call cost of opdispatch's Python binding beside PyTorch's, in one run.

Prints one line per row, `<row> <µs per call>` (the minimum over repeats of
the mean of `number` calls; 1-element float32 tensors):
  opd_add_tensor      opdispatch.ops.aten.add.Tensor(a, b)   on opdispatch tensors
  opd_add_packet      opdispatch.ops.aten.add(a, b)          the overload resolved from the arguments
  opd_add_torch_args  opdispatch.ops.aten.add.Tensor(ta, tb) on torch tensors (imported through DLPack)
  torch_add           torch.add(ta, tb)
  torch_ops_add       torch.ops.aten.add.Tensor(ta, tb)

Usage: PYTHONPATH=<build>/python python3 bench/python/bench_calls.py [--number N] [--repeat R]
"""
import argparse
import timeit

import opdispatch as opd
import torch


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--number", type=int, default=20000)
    p.add_argument("--repeat", type=int, default=7)
    args = p.parse_args()
    torch.set_num_threads(1)
    a = opd.tensor([1.0])
    b = opd.tensor([2.0])
    ta = torch.ones(1)
    tb = torch.ones(1)
    add_tensor = opd.ops.aten.add.Tensor
    add_packet = opd.ops.aten.add
    torch_add = torch.add
    torch_ops_add = torch.ops.aten.add.Tensor
    rows = [
        ("opd_add_tensor", lambda: add_tensor(a, b)),
        ("opd_add_packet", lambda: add_packet(a, b)),
        ("opd_add_torch_args", lambda: add_tensor(ta, tb)),
        ("torch_add", lambda: torch_add(ta, tb)),
        ("torch_ops_add", lambda: torch_ops_add(ta, tb)),
    ]
    # The lambda's own call, measured and subtracted, so each row is the operator call alone.
    empty = min(timeit.repeat(lambda: None, number=args.number, repeat=args.repeat)) / args.number
    for name, fn in rows:
        fn()
        t = min(timeit.repeat(fn, number=args.number, repeat=args.repeat)) / args.number
        print(f"{name} {(t - empty) * 1e6:.3f}")


if __name__ == "__main__":
    main()
