#!/usr/bin/python3
"""Lists the ATen overloads a model reaches below autograd in PyTorch 1.13,
with tools/export_aten_graph.py's Recorder (the calls a backend such as
opdispatch receives; eval mode, torch.no_grad(), random weights, seed 0).

Prints "<count> <overload>" per model, or with --json writes
{model: {overload: count}}; --check FILE reads the library's operator names,
one per line (`opd-ops | cut -f1`), and marks each overload as present or
missing. To capture a model as a graph that tools/opd-run runs, use
tools/export_aten_graph.py.

    /usr/bin/python3 tools/record_aten_calls.py resnet18 mobilenet_v2 squeezenet1_0
    /usr/bin/python3 tools/record_aten_calls.py --size 64 --check names.txt resnet18 lstm
"""
import argparse
import collections
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import export_aten_graph as eg  # noqa: E402


def record(model_name, size=224, batch=1, seed=0):
    """{overload: count} of one run of the model."""
    model, inputs = eg.build(model_name, batch, size, seed)
    rec, _ = eg.record(model, inputs)
    return collections.Counter(n["op"] for n in rec.nodes)


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
            have = {line.split()[0] for line in f if line.strip()}
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
