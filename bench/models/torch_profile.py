#!/usr/bin/python3
"""libtorch's time per ATen operator for a model of opd_bench_models: the
other column of `opd-run --profile` (docs/benchmarks.md, "Whole models").

Runs the TorchScript trace that tools/export_aten_graph.py --torchscript saved
(<model>.pt, libtorch's side of the benchmark) on the inputs of <model>.io.json,
under torch.profiler, and prints, for each operator of the opd graph
(<model>.json), libtorch's time in the profiler events of that name (total,
children included, so that aten::convolution holds its mkldnn call), per run.

    /usr/bin/python3 bench/models/torch_profile.py build/rel/bench/models/graphs/resnet18_b1 --threads 1
"""
import argparse
import ctypes
import json
import os

import numpy as np
import torch


def load_inputs(base):
    with open(base + ".io.json") as f:
        io = json.load(f)
    with open(os.path.join(os.path.dirname(base), io["data"]), "rb") as f:
        data = f.read()
    out = []
    for spec in io["inputs"]:
        assert spec["dtype"] == "float32", spec["dtype"]
        a = np.frombuffer(data, dtype=np.float32, count=spec["nbytes"] // 4, offset=spec["offset"])
        out.append(torch.from_numpy(a.copy()).as_strided(spec["sizes"], spec["strides"]))
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("base", help="the export's path without extension, e.g. graphs/resnet18_b1")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--warmup", type=int, default=3)
    a = p.parse_args()
    torch.set_num_threads(a.threads)
    # torch.set_num_threads leaves Debian's OpenBLAS (libtorch's GEMMs) at its
    # own count, every core: set it as opd_bench_models's aten side does.
    ctypes.CDLL("libopenblas.so.0").openblas_set_num_threads(a.threads)
    with open(a.base + ".json") as f:
        ops = {n["op"].split(".")[0] for n in json.load(f)["nodes"]}
    model = torch.jit.load(a.base + ".pt").eval()
    inputs = load_inputs(a.base)
    with torch.inference_mode():
        for _ in range(a.warmup):
            model(*inputs)
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
            for _ in range(a.repeat):
                model(*inputs)
    as_graph = {"aten::_convolution": "aten::convolution"}
    rows = [(e.cpu_time_total / 1e3 / a.repeat, e.count // a.repeat, as_graph.get(e.key, e.key))
            for e in prof.key_averages() if as_graph.get(e.key, e.key) in ops]
    rows.sort(reverse=True)
    for ms, calls, name in rows:
        print(f"{ms:10.3f} ms {calls:6d} {name}")


if __name__ == "__main__":
    main()
