#!/usr/bin/python3
"""Lists the ATen overloads a torchvision model reaches below autograd.

PyTorch 1.13 (Debian's python3-torch / python3-torchvision): the model runs in
eval mode under torch.no_grad() inside a TorchDispatchMode, which sees every
call that reaches a backend kernel (the calls a backend such as opdispatch
receives). Prints "<count> <overload>" per model, or with --json writes
{model: {overload: count}} (and --check FILE reads the library's operator
names, one per line, and marks each overload as present or missing).

    /usr/bin/python3 tools/record_aten_calls.py resnet18 mobilenet_v2 squeezenet1_0
    /usr/bin/python3 tools/record_aten_calls.py --size 64 --check names.txt resnet18
"""
import argparse
import collections
import json
import sys

import torch
import torchvision
from torch.utils._python_dispatch import TorchDispatchMode


class Recorder(TorchDispatchMode):
    """Counts each OpOverload by its schema name ("aten::convolution",
    "aten::add.Tensor", ...); the calls themselves are run unchanged."""

    def __init__(self):
        super().__init__()
        self.counts = collections.Counter()
        self.calls = []  # (overload name, func, args, kwargs) when keep=True
        self.keep = False

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        name = func._schema.name
        if func._schema.overload_name:
            name += "." + func._schema.overload_name
        self.counts[name] += 1
        out = func(*args, **kwargs)
        if self.keep:
            self.calls.append((name, func, args, kwargs, out))
        return out


def record(model_name, size=224, batch=1, seed=0):
    torch.manual_seed(seed)
    model = getattr(torchvision.models, model_name)(weights=None).eval()
    x = torch.randn(batch, 3, size, size)
    rec = Recorder()
    with torch.no_grad(), rec:
        model(x)
    return rec.counts


def main():
    p = argparse.ArgumentParser()
    p.add_argument("models", nargs="+")
    p.add_argument("--size", type=int, default=224)
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--json", help="write {model: {overload: count}} here")
    p.add_argument("--check", help="file of registered operator names, one per line")
    a = p.parse_args()
    have = None
    if a.check:
        with open(a.check) as f:
            have = {line.strip() for line in f if line.strip()}
    result = {}
    for m in a.models:
        counts = record(m, a.size, a.batch)
        result[m] = dict(sorted(counts.items()))
        print(f"{m}: {sum(counts.values())} calls, {len(counts)} overloads")
        for name, n in sorted(counts.items()):
            mark = "" if have is None else ("  ok" if name in have else "  MISSING")
            print(f"  {n:4d} {name}{mark}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(result, f, indent=1, sort_keys=True)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
