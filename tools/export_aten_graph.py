#!/usr/bin/python3
"""Captures a model as an ATen graph with PyTorch 1.13, for tools/opd-run.

The model runs once, in eval mode under torch.no_grad(), inside a
TorchDispatchMode (the Recorder below) that sees every call reaching a backend
kernel: the calls a backend such as opdispatch receives, with autograd and the
composite operators already decomposed. Each call becomes a graph node: the
operator's name and overload, every argument of its schema in schema order
(defaults filled in), and its outputs. Tensors that no recorded call produced
are the graph's inputs (the model's arguments) or its weights (parameters,
buffers, constants made outside the dispatcher), saved as raw data.

    /usr/bin/python3 tools/export_aten_graph.py -o graphs/ resnet18 lstm
    /usr/bin/python3 tools/export_aten_graph.py -o graphs/ --size 224 --batch 8 --suffix _b8 resnet18
    /usr/bin/python3 tools/export_aten_graph.py --list

A model is a torchvision 0.14 classification model (random weights) or one of
torch.nn's layers named in NN_MODELS. Per model, in the output folder:

    <model>.json, <model>.bin        the graph and its weights' bytes (format: docs/models.md)
    <model>.io.json, <model>.io.bin  the example inputs and PyTorch's outputs (opd-run --inputs/--expect)
    <model>.pt                       with --torchscript: torch.jit.trace of the model (libtorch's side of
                                     bench/models)
    <model>.trace.txt                with --trace: each node's float outputs as `opd-run --trace` prints
                                     them (tools/compare_traces.py finds the first node that departs)

The file formats are described in docs/models.md; tools/opd-run reads them.
tools/record_aten_calls.py counts the overloads with the same Recorder.
"""
import argparse
import json
import os
import sys

import torch
import torchvision
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_flatten

GRAPH_FORMAT = "opd-aten-graph-1"
TENSORS_FORMAT = "opd-tensors-1"

DTYPE_NAMES = {torch.uint8: "uint8", torch.int8: "int8", torch.int16: "int16", torch.int32: "int32",
               torch.int64: "int64", torch.float16: "float16", torch.float32: "float32", torch.float64: "float64",
               torch.bool: "bool", torch.bfloat16: "bfloat16", torch.complex64: "complex64",
               torch.complex128: "complex128"}
MEMORY_FORMAT_NAMES = {torch.contiguous_format: "contiguous_format", torch.preserve_format: "preserve_format",
                       torch.channels_last: "channels_last", torch.channels_last_3d: "channels_last_3d"}
LAYOUT_NAMES = {torch.strided: "strided", torch.sparse_coo: "sparse_coo"}


def overload_name(func):
    schema = func._schema
    return schema.name + ("." + schema.overload_name if schema.overload_name else "")


class Recorder(TorchDispatchMode):
    """Records every call that reaches a backend as a node
    {"op", "args", "outputs"}; the calls themselves run unchanged.

    Tensors are numbered by identity (value ids): a tensor an earlier call
    returned refers to that call's output, any other one is new to the graph
    (an input if it was declared with add_input, else a weight, whose data is
    captured when first seen). Every tensor seen is kept alive so that id()
    stays unique."""

    def __init__(self, names=None):
        super().__init__()
        self.ids = {}           # id(tensor) -> value id
        self.keep = []          # every tensor seen
        self.inputs = []        # value ids, in argument order
        self.weights = []       # (value id, name or None, tensor snapshot)
        self.nodes = []
        self.names = names or {}  # id(parameter or buffer) -> its name in the module
        self.trace = None         # a file: one trace_line per node (--trace)

    def _new_value(self, t):
        self.ids[id(t)] = len(self.ids)
        self.keep.append(t)
        return self.ids[id(t)]

    def add_input(self, t):
        self.inputs.append(self._new_value(t))

    def value(self, t):
        v = self.ids.get(id(t))
        if v is None:
            v = self._new_value(t)
            self.weights.append((v, self.names.get(id(t)), t.detach().clone()))
        return v

    def encode(self, v):
        if isinstance(v, torch.Tensor):
            return {"tensor": self.value(v)}
        if v is None:
            return {"none": None}
        if isinstance(v, bool):
            return {"bool": v}
        if isinstance(v, int):
            return {"int": v}
        if isinstance(v, float):
            return {"float": v}
        if isinstance(v, str):
            return {"str": v}
        if isinstance(v, torch.dtype):
            return {"dtype": DTYPE_NAMES[v]}
        if isinstance(v, torch.layout):
            return {"layout": LAYOUT_NAMES[v]}
        if isinstance(v, torch.memory_format):
            return {"memory_format": MEMORY_FORMAT_NAMES[v]}
        if isinstance(v, torch.device):
            return {"device": str(v)}
        if isinstance(v, (list, tuple)):
            if v and any(isinstance(x, torch.Tensor) for x in v):  # Tensor[] or Tensor?[]
                return {"tensors": [None if x is None else self.value(x) for x in v]}
            if v and all(isinstance(x, bool) for x in v):
                return {"bools": list(v)}
            if all(isinstance(x, int) for x in v):
                return {"ints": list(v)}
            if all(isinstance(x, (int, float)) for x in v):
                return {"floats": [float(x) for x in v]}
        raise TypeError(f"cannot encode an argument of type {type(v).__name__}")

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        schema = func._schema
        full = []
        for i, a in enumerate(schema.arguments):
            if not a.kwarg_only and i < len(args):
                full.append(args[i])
            elif a.name in kwargs:
                full.append(kwargs[a.name])
            else:
                full.append(a.default_value if a.has_default_value() else None)
        for i, a in enumerate(schema.arguments):
            # A Python number where the schema takes a Tensor (`x / 8.0` reaching
            # div.Tensor as a wrapped number): saved as a 0-dim tensor of the
            # default dtype, which type promotion treats the same way.
            if isinstance(a.type, torch._C.TensorType) and isinstance(full[i], (bool, int, float)):
                full[i] = torch.tensor(full[i])
        encoded = [self.encode(v) for v in full]
        out = func(*args, **kwargs)
        outs = out if isinstance(out, tuple) else (out,)
        encoded_outs = []
        for o in outs:
            if isinstance(o, torch.Tensor):
                encoded_outs.append(self.ids[id(o)] if id(o) in self.ids else self._new_value(o))
            elif isinstance(o, list) and all(isinstance(x, torch.Tensor) for x in o):
                encoded_outs.append([self.ids[id(x)] if id(x) in self.ids else self._new_value(x) for x in o])
            else:
                encoded_outs.append(None)  # a non-tensor result: not referred to by the graph
        self.nodes.append({"op": overload_name(func), "args": encoded, "outputs": encoded_outs})
        if self.trace is not None:
            self.trace.write(trace_line(len(self.nodes) - 1, self.nodes[-1]["op"], outs))
        return out


def trace_line(index, op, outs):
    """opd-run --trace's line for a node: each float32 output's sum weighted
    by position (1 + i mod 7, row-major), "-" for other outputs."""
    flat = []
    for o in outs:
        flat += o if isinstance(o, list) else [o]
    cols = []
    for t in flat:
        if isinstance(t, torch.Tensor) and t.dtype == torch.float32:
            w = (torch.arange(t.numel()) % 7 + 1).double()
            cols.append("%.6g" % (t.detach().double().contiguous().reshape(-1) * w).sum().item())
        elif isinstance(t, torch.Tensor):
            cols.append("-")
    return f"node {index} {op}:" + "".join(" " + c for c in cols) + "\n"


# torch.nn layers, small (the operators and paths are those of larger ones):
# name -> (constructor, input shapes for a batch b).
def _transformer_encoder():
    # sequence first (batch_first=False): the layers' operators, not the fused fast path
    layer = torch.nn.TransformerEncoderLayer(d_model=64, nhead=4, dim_feedforward=128)
    return torch.nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)


def _transformer_encoder_fastpath():
    # batch_first, eval, no grad: PyTorch 1.13 runs each layer as one fused
    # aten::_transformer_encoder_layer_fwd (the "fast path")
    layer = torch.nn.TransformerEncoderLayer(d_model=64, nhead=4, dim_feedforward=128, batch_first=True)
    return torch.nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)


def _vit_tiny():
    # torchvision's VisionTransformer (vit_b_16's class and operators) at 2
    # layers of width 64: vit_b_16 itself is 86M parameters
    from torchvision.models.vision_transformer import VisionTransformer
    return VisionTransformer(image_size=32, patch_size=16, num_layers=2, num_heads=4, hidden_dim=64, mlp_dim=128)


def _transformer_decoder():
    layer = torch.nn.TransformerDecoderLayer(d_model=64, nhead=4, dim_feedforward=128, batch_first=True)
    return torch.nn.TransformerDecoder(layer, num_layers=2)


NN_MODELS = {
    "transformer_encoder": (_transformer_encoder, lambda b: [(16, b, 64)]),
    "transformer_encoder_fastpath": (_transformer_encoder_fastpath, lambda b: [(b, 16, 64)]),
    "transformer_decoder": (_transformer_decoder, lambda b: [(b, 12, 64), (b, 16, 64)]),
    "lstm": (lambda: torch.nn.LSTM(32, 64, num_layers=2, batch_first=True), lambda b: [(b, 16, 32)]),
    "gru": (lambda: torch.nn.GRU(32, 64, num_layers=2, batch_first=True), lambda b: [(b, 16, 32)]),
    "vit_tiny": (_vit_tiny, lambda b: [(b, 3, 32, 32)]),
}


def torchvision_models():
    return sorted(torchvision.models.list_models(module=torchvision.models))


def default_size(name, size):
    """The input side a torchvision model is captured at: `size`, raised to
    what the model's architecture needs."""
    if name == "inception_v3":
        return max(size, 75)
    if name.startswith("maxvit"):
        return 224
    if name == "vit_h_14":  # patches of 14
        return 14 * max(1, round(size / 14))
    return size


def build(name, batch=1, size=64, seed=0):
    """(model, example inputs): random weights from `seed`, eval mode."""
    torch.manual_seed(seed)
    if name in NN_MODELS:
        make, shapes = NN_MODELS[name]
        model = make()
        inputs = [torch.randn(*s) for s in shapes(batch)]
    else:
        if name not in torchvision_models():
            raise SystemExit(f"export_aten_graph: unknown model {name!r} (--list names them)")
        kwargs = {"weights": None}
        size = default_size(name, size)
        if name.startswith("vit_"):
            kwargs["image_size"] = size  # a ViT's position embedding is made for its image size
        if name in ("googlenet", "inception_v3"):
            kwargs["init_weights"] = True
        model = getattr(torchvision.models, name)(**kwargs)
        inputs = [torch.randn(batch, 3, size, size)]
    # torchvision's ViT zero-initializes its classifier (heads.head): its
    # logits would be 0 whatever the input, and a comparison of them empty.
    head = getattr(getattr(model, "heads", None), "head", None)
    if isinstance(head, torch.nn.Linear):
        with torch.no_grad():
            torch.nn.init.normal_(head.weight, std=0.02)
            torch.nn.init.normal_(head.bias, std=0.02)
    return model.eval(), inputs


def record(model, inputs, trace=None):
    """Runs the model once under the Recorder: (recorder, outputs flattened)."""
    names = {id(p): n for n, p in model.named_parameters()}
    names.update({id(b): n for n, b in model.named_buffers()})
    rec = Recorder(names)
    rec.trace = trace
    with torch.no_grad():
        for x in inputs:
            rec.add_input(x)
        with rec:
            out = model(*inputs)
    outs, _ = tree_flatten(out)
    return rec, [o for o in outs if isinstance(o, torch.Tensor)]


class Blob:
    """The raw bytes of tensors, appended one after another."""

    def __init__(self):
        self.data = bytearray()

    def put(self, t):
        """Appends t's elements, from its storage offset to the last one its
        strides reach (a dense tensor's elements, an expanded one's fewer),
        and returns the spec: dtype, sizes, strides (in elements, relative to
        the first element saved), byte offset, byte count."""
        if t.dtype not in DTYPE_NAMES:
            raise TypeError(f"cannot save a tensor of dtype {t.dtype}")
        if t.is_contiguous():
            flat, strides = t.contiguous().reshape(-1), list(t.stride())
        else:
            extent = 0 if t.numel() == 0 else 1 + sum((s - 1) * st for s, st in zip(t.shape, t.stride()))
            flat, strides = t.as_strided((extent,), (1,)).clone(), list(t.stride())
        if flat.dtype == torch.bfloat16:
            flat = flat.view(torch.int16)
        elif flat.is_complex():
            flat = torch.view_as_real(flat)
        raw = flat.numpy().tobytes()
        offset = len(self.data)
        self.data.extend(raw)
        return {"dtype": DTYPE_NAMES[t.dtype], "sizes": list(t.shape), "strides": strides,
                "offset": offset, "nbytes": len(raw)}


def export(name, directory, batch=1, size=64, seed=0, suffix="", torchscript=False, trace=False):
    """Writes <name><suffix>.json/.bin and .io.json/.io.bin into directory
    (and with trace, <name><suffix>.trace.txt: PyTorch's side of opd-run
    --trace); returns the graph's node count."""
    model, inputs = build(name, batch, size, seed)
    base = name + suffix
    os.makedirs(directory, exist_ok=True)
    trace_file = open(os.path.join(directory, base + ".trace.txt"), "w") if trace else None
    try:
        rec, outputs = record(model, inputs, trace_file)
    finally:
        if trace_file:
            trace_file.close()

    weights = Blob()
    graph = {
        "format": GRAPH_FORMAT,
        "model": name,
        "data": base + ".bin",
        "inputs": [{"value": v, "dtype": DTYPE_NAMES[x.dtype], "sizes": list(x.shape)}
                   for v, x in zip(rec.inputs, inputs)],
        "weights": [dict(value=v, name=n, **weights.put(t)) for v, n, t in rec.weights],
        "nodes": rec.nodes,
        "outputs": [rec.ids[id(o)] for o in outputs],
    }
    with open(os.path.join(directory, base + ".json"), "w") as f:
        json.dump(graph, f, separators=(",", ":"))
        f.write("\n")
    with open(os.path.join(directory, base + ".bin"), "wb") as f:
        f.write(weights.data)

    io = Blob()
    tensors = {"format": TENSORS_FORMAT, "data": base + ".io.bin",
               "inputs": [io.put(x) for x in inputs], "outputs": [io.put(o) for o in outputs]}
    with open(os.path.join(directory, base + ".io.json"), "w") as f:
        json.dump(tensors, f, indent=1)
        f.write("\n")
    with open(os.path.join(directory, base + ".io.bin"), "wb") as f:
        f.write(io.data)

    if torchscript:
        with torch.no_grad():
            traced = torch.jit.trace(model, tuple(inputs), check_trace=False)
        traced.save(os.path.join(directory, base + ".pt"))
    return len(rec.nodes)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("models", nargs="*")
    p.add_argument("-o", "--output", default=".", help="folder the files are written to")
    p.add_argument("--size", type=int, default=64, help="input side of torchvision models (default 64)")
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--suffix", default="", help="appended to the model's name in the file names")
    p.add_argument("--torchscript", action="store_true", help="also save torch.jit.trace(model) as <model>.pt")
    p.add_argument("--trace", action="store_true",
                   help="also write <model>.trace.txt, each node's outputs as opd-run --trace prints them")
    p.add_argument("--list", action="store_true", help="print the models this script knows")
    p.add_argument("--keep-going", action="store_true",
                   help="on a model that fails to export, report it and go on (exit status 1 at the end)")
    a = p.parse_args()
    if a.list:
        print("\n".join(torchvision_models() + sorted(NN_MODELS)))
        return 0
    if not a.models:
        p.error("no model named")
    torch.set_num_threads(1)  # the capture's outputs do not depend on it; a shared machine does
    status = 0
    for m in a.models:
        try:
            n = export(m, a.output, a.batch, a.size, a.seed, a.suffix, a.torchscript, a.trace)
        except Exception as e:  # noqa: BLE001 -- any failure of one model's capture
            if not a.keep_going:
                raise
            print(f"{m}: export FAILED: {type(e).__name__}: {e}", file=sys.stderr)
            status = 1
            continue
        print(f"{m}: {n} nodes exported to {os.path.join(a.output, m + a.suffix)}.json", flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
