#!/usr/bin/python3
"""Lists the ATen overloads a torchvision model reaches below autograd, and
exports the calls as a trace that tests/kernels/model_replay_test.cpp replays
through opdispatch's boxed dispatcher.

PyTorch 1.13 (Debian's python3-torch / python3-torchvision): the model runs in
eval mode under torch.no_grad() inside a TorchDispatchMode, which sees every
call that reaches a backend kernel (the calls a backend such as opdispatch
receives). Prints "<count> <overload>" per model, or with --json writes
{model: {overload: count}} (and --check FILE reads the library's operator
names, one per line, and marks each overload as present or missing).

    /usr/bin/python3 tools/record_aten_calls.py resnet18 mobilenet_v2 squeezenet1_0
    /usr/bin/python3 tools/record_aten_calls.py --size 64 --check names.txt resnet18
    /usr/bin/python3 tools/record_aten_calls.py --size 64 --export traces/ resnet18 squeezenet1_0

--export DIR writes DIR/<model>.json and DIR/<model>.bin per model (random
weights, seed 0, eval mode, batch --batch, --size x --size input):

  {"format": "opd-aten-trace-1", "model": ..., "input": id, "output": id,
   "constants": [{"id", "dtype", "sizes", "offset", "nbytes"}],   # contiguous bytes in <model>.bin
   "expected": {"dtype", "sizes", "offset", "nbytes"},            # PyTorch's output
   "nodes": [{"op": "aten::convolution", "args": [arg, ...], "outputs": [id or null, ...]}]}

Every argument of the schema is present, in schema order (defaults filled
in): {"tensor": id}, {"tensors": [id, ...]}, {"int": n}, {"float": x},
{"bool": b}, {"ints": [...]}, {"floats": [...]}, {"none": true},
{"dtype": c10 ScalarType code}, {"layout": code}, {"memory_format": code},
{"device": "cpu"}, {"str": s}. A tensor id names a constant (weights, the
input) or an earlier node's output; an in-place call's output is its input.
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


DTYPE_CODES = {torch.uint8: 0, torch.int8: 1, torch.int16: 2, torch.int32: 3, torch.int64: 4, torch.float16: 5,
               torch.float32: 6, torch.float64: 7, torch.bool: 11, torch.bfloat16: 15}
MEMORY_FORMAT_CODES = {torch.contiguous_format: 0, torch.preserve_format: 1, torch.channels_last: 2,
                       torch.channels_last_3d: 3}


class Exporter(TorchDispatchMode):
    """Records every call with its arguments normalized to the schema."""

    def __init__(self):
        super().__init__()
        self.ids = {}        # id(tensor) -> trace id
        self.keep = []       # every tensor seen, alive so that id() stays unique
        self.constants = []  # (trace id, tensor)
        self.nodes = []

    def tensor_id(self, t):
        key = id(t)
        if key not in self.ids:  # not produced by an earlier call: a constant
            self.ids[key] = len(self.ids)
            self.keep.append(t)
            self.constants.append((self.ids[key], t.detach().clone()))
        return self.ids[key]

    def encode(self, v):
        if isinstance(v, torch.Tensor):
            return {"tensor": self.tensor_id(v)}
        if v is None:
            return {"none": True}
        if isinstance(v, bool):
            return {"bool": v}
        if isinstance(v, int):
            return {"int": v}
        if isinstance(v, float):
            return {"float": v}
        if isinstance(v, str):
            return {"str": v}
        if isinstance(v, torch.dtype):
            return {"dtype": DTYPE_CODES[v]}
        if isinstance(v, torch.layout):
            return {"layout": 0}
        if isinstance(v, torch.memory_format):
            return {"memory_format": MEMORY_FORMAT_CODES[v]}
        if isinstance(v, torch.device):
            return {"device": str(v)}
        if isinstance(v, (list, tuple)):
            if all(isinstance(x, torch.Tensor) for x in v) and v:
                return {"tensors": [self.tensor_id(x) for x in v]}
            if all(isinstance(x, bool) for x in v) and v:
                return {"bools": list(v)}
            if all(isinstance(x, int) for x in v):
                return {"ints": list(v)}
            return {"floats": [float(x) for x in v]}
        raise TypeError(f"cannot encode {type(v)}")

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        schema = func._schema
        name = schema.name + ("." + schema.overload_name if schema.overload_name else "")
        full = []
        for i, a in enumerate(schema.arguments):
            if not a.kwarg_only and i < len(args):
                full.append(args[i])
            elif a.name in kwargs:
                full.append(kwargs[a.name])
            else:
                full.append(a.default_value if a.has_default_value() else None)
        encoded = [self.encode(v) for v in full]
        out = func(*args, **kwargs)
        outs = out if isinstance(out, (tuple, list)) else (out,)
        out_ids = []
        for o in outs:
            if isinstance(o, torch.Tensor):
                if id(o) not in self.ids:
                    self.ids[id(o)] = len(self.ids)
                    self.keep.append(o)
                out_ids.append(self.ids[id(o)])
            else:
                out_ids.append(None)
        self.nodes.append({"op": name, "args": encoded, "outputs": out_ids})
        return out


def export(model_name, directory, size=224, batch=1, seed=0):
    import os
    torch.manual_seed(seed)
    model = getattr(torchvision.models, model_name)(weights=None).eval()
    x = torch.randn(batch, 3, size, size)
    ex = Exporter()
    with torch.no_grad():
        input_id = ex.tensor_id(x)  # outside the mode: its own copy is not a call of the model
        with ex:
            y = model(x)
        output_id = ex.ids[id(y)]
    os.makedirs(directory, exist_ok=True)
    blobs = bytearray()

    def put(t):
        t = t.contiguous()
        offset = len(blobs)
        data = t.numpy().tobytes() if t.dtype != torch.bfloat16 else t.view(torch.int16).numpy().tobytes()
        blobs.extend(data)
        return {"dtype": DTYPE_CODES[t.dtype], "sizes": list(t.shape), "offset": offset, "nbytes": len(data)}

    constants = [dict(id=i, **put(t)) for i, t in ex.constants]
    trace = {"format": "opd-aten-trace-1", "model": model_name, "input_size": [batch, 3, size, size],
             "input": input_id, "output": output_id, "constants": constants, "expected": put(y),
             "nodes": ex.nodes}
    with open(os.path.join(directory, model_name + ".json"), "w") as f:
        json.dump(trace, f)
    with open(os.path.join(directory, model_name + ".bin"), "wb") as f:
        f.write(blobs)
    return len(ex.nodes)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("models", nargs="+")
    p.add_argument("--size", type=int, default=224)
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--json", help="write {model: {overload: count}} here")
    p.add_argument("--check", help="file of registered operator names, one per line")
    p.add_argument("--export", help="write <model>.json and <model>.bin traces into this directory")
    a = p.parse_args()
    if a.export:
        for m in a.models:
            n = export(m, a.export, a.size, a.batch)
            print(f"{m}: {n} calls exported to {a.export}")
        return 0
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
