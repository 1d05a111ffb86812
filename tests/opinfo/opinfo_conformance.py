#!/usr/bin/python3
"""PyTorch 1.13's own OpInfo samples as the library's conformance suite.

Every entry of torch.testing._internal.common_methods_invocations.op_db runs
on CPU for the dtypes it supports; a TorchDispatchMode sees each ATen call a
sample makes below autograd (the calls a backend receives). Each call whose
overload the library has is replayed at once through the Python module
(`opdispatch.ops.aten.<name>.<overload>`) on copies of its arguments, made
before PyTorch's call (one new storage per distinct storage, views rebuilt
with as_strided, so strides and aliasing between arguments stay), and its
results and its tensor arguments after the call are compared with PyTorch's:
sizes, dtype and values (float32 rtol 1.3e-6 / atol 1e-5, float64 1e-7 /
1e-7, half types torch.testing's defaults, integers and bool exact, NaN
equal to NaN; operators with random or uninitialized results: sizes and dtype
only).

A call is counted, per overload, as
  seen            PyTorch made it
  has             the library has the overload (else: not in the library)
  dtype           it involves a dtype the library does not have (probed at
                  run time: the library's copy_ refuses it), not run
  unsupported     another input the library does not take (sparse, quantized, a conjugate or
                  negative view: the library has no such bits), not run
  correct / wrong the library's results against PyTorch's
  accurate        beyond the tolerance, but each value within PyTorch's own
                  largest error in that tensor, both measured against the call
                  computed in float64 / complex128 (float32, complex64 and half
                  types only: the library summed in another order or a wider type)
  torch_wrong     PyTorch's result is wrong (PYTORCH_WRONG: the library's equals
                  the value computed another way, PyTorch's does not)
  error           the library raised where PyTorch succeeded
  refused         an error listed in REFUSALS below (deliberate, with a reason)
  crash           the process died (or hung) in this call
Chunks of entries run in child processes (fork): a child that dies is
recorded with the entry, dtype, sample and call it was in, and the run goes
on with the next unit. The suite fails on any wrong, error or crash.

    PYTHONPATH=build/rel/python /usr/bin/python3 tests/opinfo/opinfo_conformance.py            # full sweep
    ... opinfo_conformance.py --subset ci --report report.json                                # CTest's subset
    ... opinfo_conformance.py --ops '^linspace$' --verbose                                    # one entry

docs/conformance.md has the figures.
"""
import argparse
import collections
import json
import os
import re
import signal
import sys
import tempfile
import time
import traceback
import warnings
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))

# Deliberate refusals: (overload, regex on the library's message) -> why the
# library refuses an input PyTorch accepts. Keep minimal.
_NO_COMPLEX32_MATH = ("the library converts, fills and moves complex32 (ComplexHalf) and computes add/sub/mul "
                      "on it, its selects, comparisons, neg and nonzero, not these, which PyTorch 1.13 computes (docs/kernels.md)")
REFUSALS = {
    (ov, r"not implemented for 'ComplexHalf'"): _NO_COMPLEX32_MATH
    for ov in ("aten::abs", "aten::sgn", "aten::index_put", "aten::index_put_",
               "aten::randn", "aten::rand", "aten::conj_physical", "aten::any", "aten::all",
               "aten::count_nonzero", "aten::native_dropout")
}

# Results that are not values: uninitialized memory (no tag says so in 1.13;
# operators tagged nondeterministic_seeded are found from their tags).
UNINITIALIZED = {
    "aten::empty.memory_format", "aten::empty.out", "aten::empty_like", "aten::empty_strided",
    "aten::new_empty", "aten::new_empty_strided", "aten::resize_", "aten::resize_as_",
}

# torch.testing's default tolerances (rtol, atol) per dtype name; the others are compared exactly.
TOLERANCES = {
    "float32": (1.3e-6, 1e-5), "float64": (1e-7, 1e-7), "float16": (1e-3, 1e-5), "bfloat16": (1.6e-2, 1e-5),
    "complex64": (1.3e-6, 1e-5), "complex128": (1e-7, 1e-7), "complex32": (1e-3, 1e-5),
}

CI_DTYPES = ("float32", "float64", "int64", "bool")
COUNTERS = ("seen", "has", "dtype", "unsupported", "correct", "accurate", "torch_wrong", "wrong", "error", "refused",
            "crash")

# Calls where PyTorch 1.13 (Debian's build) is wrong: overload -> (the dtypes, why, the value computed another
# way from the arguments). A mismatch there counts as torch_wrong when the library equals that value and
# PyTorch does not.
PYTORCH_WRONG = {
    "aten::dot": (("complex64", "complex128"), "Debian's libtorch 1.13 returns 0 for every complex dot",
                  lambda args, kwargs: (args[0] * args[1]).sum()),
}


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--subset", choices=("all", "ci"), default="all",
                   help="all: every dtype of every entry; ci: per entry the first of "
                        + "/".join(CI_DTYPES) + " it supports (or its first dtype) and --max-samples")
    p.add_argument("--max-samples", type=int, default=None, help="samples per entry and dtype (ci: 4)")
    p.add_argument("--ops", default=None, help="regex on the entry's name (name.variant)")
    p.add_argument("--dtypes", default=None, help="regex on the unit's dtype name (complex32, float16, ...)")
    p.add_argument("--jobs", type=int, default=1, help="child processes at once")
    p.add_argument("--chunk", type=int, default=200, help="entry/dtype units per child")
    p.add_argument("--hang-seconds", type=float, default=300, help="a child silent this long is killed (a crash)")
    p.add_argument("--report", default=None, help="write the JSON report here")
    p.add_argument("--verbose", action="store_true", help="print every failing call")
    a = p.parse_args(argv)
    if a.subset == "ci" and a.max_samples is None:
        a.max_samples = 1000000
    return a


# ---------------------------------------------------------------- the child

class Replayer:
    """Replays PyTorch's calls through the library and counts them."""

    def __init__(self, opd, torch, progress_fd, verbose):
        self.opd, self.torch = opd, torch
        self.progress_fd = progress_fd
        self.verbose = verbose
        self.lib_ops = {}        # overload -> the library's OpOverload or None
        self.dtype_ok = {}       # torch dtype -> does the library have it
        self.counts = collections.defaultdict(lambda: dict.fromkeys(COUNTERS, 0))
        self.failures = []
        self.where = ""
        self.accurate = False

    # -- what the library has

    def lib_op(self, func):
        name = func._schema.name
        overload = func._schema.overload_name or "default"
        key = name + ("." + func._schema.overload_name if func._schema.overload_name else "")
        if key not in self.lib_ops:
            ns, _, op = name.partition("::")
            try:
                self.lib_ops[key] = getattr(getattr(getattr(self.opd.ops, ns), op), overload)
            except Exception:  # noqa: BLE001 (AttributeError or the module's lookup error: not there)
                self.lib_ops[key] = None
        return key, self.lib_ops[key]

    def has_dtype(self, dt):
        """The library has a dtype when its copy_ takes it (run time, not a list)."""
        if dt not in self.dtype_ok:
            torch = self.torch
            try:
                a, b = torch.zeros(2, dtype=dt), torch.ones(2, dtype=dt)
                self.opd.ops.aten.copy_.default(a, b)
                # (compared as bytes: 1.13's equal has no complex32)
                self.dtype_ok[dt] = bool(torch.equal(a.view(torch.uint8), b.view(torch.uint8)))
            except Exception:  # noqa: BLE001
                self.dtype_ok[dt] = False
        return self.dtype_ok[dt]

    # -- copies that keep strides and aliasing

    def copy_tree(self, obj, bases, wrap=False):
        """obj with each tensor copied (wrap: made the library's tensor over the same memory)."""
        torch = self.torch
        if isinstance(obj, torch.Tensor):
            return self.wrap_tensor(obj) if wrap else self.copy_tensor(obj, bases)
        if isinstance(obj, (list, tuple)):
            return type(obj)(self.copy_tree(x, bases, wrap) for x in obj)
        if isinstance(obj, dict):
            return {k: self.copy_tree(v, bases, wrap) for k, v in obj.items()}
        return obj

    def wrap_tensor(self, t):
        """The library's tensor over t's memory, with t's strides: PyTorch's
        to_dlpack writes stride 1 for dimensions of size 1, which checks on
        every stride (view_as_complex's) would see."""
        w = self.opd.as_tensor(t)
        if t.dim() > 0 and tuple(w.stride()) != tuple(t.stride()):
            w = self.opd.ops.aten.as_strided.default(w, list(t.size()), list(t.stride()), w.storage_offset())
        return w

    def copy_tensor(self, t, bases):
        if t.layout != self.torch.strided or t.is_conj() or t.is_neg():
            return t.clone()
        storage = t.storage()
        n = storage.nbytes() // t.element_size()
        key = (storage.data_ptr(), storage.nbytes(), t.dtype)
        if n == 0 or key not in bases:
            base = t.as_strided((n,), (1,), 0).clone()
            if n == 0:
                return base.as_strided(t.size(), t.stride(), t.storage_offset())
            bases[key] = base
        return bases[key].as_strided(t.size(), t.stride(), t.storage_offset())

    # -- one call

    def has_narrow_float(self, tree):
        torch = self.torch
        narrow = (torch.float32, torch.float16, torch.bfloat16, torch.complex64)
        return any(isinstance(x, torch.Tensor) and x.dtype in narrow for x in self.leaves(tree))

    def within_torch_error(self, func, pristine, got, lib_args, out, torch_args):
        """Whether the library's results are within PyTorch's own error (compare's ref)."""
        try:
            ref_args = self.widen(pristine)
            ref_out = func(*ref_args[0], **ref_args[1])
        except Exception:  # noqa: BLE001 (no float64 kernel: no reference)
            return False
        self.accurate = False
        return (self.compare(got, out, True, "result", ref_out) is None
                and self.compare(lib_args, torch_args, True, "arguments", ref_args) is None and self.accurate)

    def pytorch_is_wrong(self, key, got, out, args, kwargs):
        """PYTORCH_WRONG: the library's result equals the value computed another way, PyTorch's does not."""
        if key not in PYTORCH_WRONG or not isinstance(out, self.torch.Tensor):
            return False
        dtypes, _why, other_way = PYTORCH_WRONG[key]
        if str(out.dtype).rpartition(".")[2] not in dtypes:
            return False
        expected = other_way(args, kwargs)
        return (self.compare(got, expected, True, "result") is None
                and self.compare(out, expected, True, "result") is not None)

    def widen(self, tree):
        """tree with float32/16/bfloat16 tensors as float64 (the reference computation)."""
        torch = self.torch
        if isinstance(tree, torch.Tensor):
            if tree.dtype == torch.complex64:
                return tree.to(torch.complex128)
            return tree.double() if tree.dtype in (torch.float32, torch.float16, torch.bfloat16) else tree
        if isinstance(tree, (list, tuple)):
            return type(tree)(self.widen(x) for x in tree)
        if isinstance(tree, dict):
            return {k: self.widen(v) for k, v in tree.items()}
        return tree

    def leaves(self, *trees):
        """The values in nested lists, tuples and dicts."""
        stack = list(trees)
        while stack:
            x = stack.pop()
            if isinstance(x, (list, tuple)):
                stack.extend(x)
            elif isinstance(x, dict):
                stack.extend(x.values())
            else:
                yield x

    def dtypes_in(self, *trees):
        torch = self.torch
        return {x.dtype if isinstance(x, torch.Tensor) else x for x in self.leaves(*trees)
                if isinstance(x, (torch.Tensor, torch.dtype))}

    def layouts_ok(self, *trees):
        torch = self.torch
        # (a conjugate or negative view: the library has no such bits)
        return not any(isinstance(x, torch.Tensor) and (x.layout != torch.strided or x.device.type != "cpu"
                                                        or x.is_quantized or x.is_conj() or x.is_neg())
                       for x in self.leaves(*trees))

    def to_torch(self, x):
        torch, opd = self.torch, self.opd
        if isinstance(x, opd.Tensor):
            dt = str(x.dtype).rpartition(".")[2]
            t = torch.from_dlpack(x)
            if dt == "bool" and t.dtype != torch.bool:
                t = t.view(torch.bool)
            return t
        if isinstance(x, (list, tuple)):
            return type(x)(self.to_torch(v) for v in x)
        if isinstance(x, dict):
            return {k: self.to_torch(v) for k, v in x.items()}
        return x

    def compare(self, got, want, values, path, ref=None):
        """None when equal, else what differs. With `ref` (the same tree from the
        call computed in float64): a floating value beyond the tolerance still
        counts when it is within PyTorch's own largest error in that tensor
        (self.accurate is set): the library summed in another order or in a
        wider type, and is at least as close to the exact result."""
        torch = self.torch
        if isinstance(want, torch.Tensor):
            if not isinstance(got, torch.Tensor):
                return f"{path}: a {type(got).__name__} where PyTorch gives a Tensor"
            if got.dtype != want.dtype:
                return f"{path}: dtype {got.dtype}, PyTorch {want.dtype}"
            if tuple(got.shape) != tuple(want.shape):
                return f"{path}: sizes {tuple(got.shape)}, PyTorch {tuple(want.shape)}"
            if not values or want.numel() == 0:
                return None
            name = str(want.dtype).rpartition(".")[2]
            if name in TOLERANCES:
                rtol, atol = TOLERANCES[name]
                a, b = got, want
                if not want.is_complex():
                    a, b = got.double(), want.double()
                elif want.dtype == torch.complex32:   # 1.13 has no isclose for it: its exact complex64 values
                    a, b = got.cfloat(), want.cfloat()
                close = torch.isclose(a, b, rtol=rtol, atol=atol, equal_nan=True)
            else:
                close = got == want
            if bool(close.all()):
                return None
            if isinstance(ref, torch.Tensor) and (want.is_floating_point() or want.is_complex()) \
                    and want.dtype not in (torch.float64, torch.complex128) and tuple(ref.shape) == tuple(want.shape):
                wide = torch.complex128 if want.is_complex() else torch.float64
                r = ref.to(wide)
                own = (want.to(wide) - r).abs().nan_to_num(0.0).max()
                ok = close | ((got.to(wide) - r).abs() <= atol + rtol * r.abs() + own)
                if bool(ok.all()):
                    self.accurate = True
                    return None
            bad = (~close).nonzero()
            first = tuple(bad[0].tolist())
            return (f"{path}: {bad.shape[0]} of {want.numel()} values differ, first at {list(first)}: "
                    f"{got[first].item()!r}, PyTorch {want[first].item()!r}")
        if isinstance(want, dict):
            for k in want:
                d = self.compare(got[k], want[k], values, f"{path}.{k}", ref[k] if isinstance(ref, dict) else None)
                if d:
                    return d
            return None
        if isinstance(want, (list, tuple)):
            if not isinstance(got, (list, tuple)) or len(got) != len(want):
                return f"{path}: {got!r:.80}, PyTorch {len(want)} values"
            for i, (g, w) in enumerate(zip(got, want)):
                r = ref[i] if isinstance(ref, (list, tuple)) and len(ref) == len(want) else None
                d = self.compare(g, w, values, f"{path}[{i}]", r)
                if d:
                    return d
            return None
        if isinstance(got, self.torch.Tensor):
            return f"{path}: a Tensor where PyTorch gives {want!r:.80}"
        if not values or path.startswith("arguments"):   # arguments: only tensors can be written
            return None
        if got == want:
            return None
        if isinstance(want, float) and isinstance(got, (int, float)):
            if want != want and got != got:
                return None
            return None if abs(got - want) <= 1e-5 + 1.3e-6 * abs(want) else f"{path}: {got!r}, PyTorch {want!r}"
        return None if got == want else f"{path}: {got!r:.80}, PyTorch {want!r:.80}"

    def fail(self, kind, key, detail):
        rec = {"kind": kind, "overload": key, "where": self.where, "detail": detail}
        if len(self.failures) < 2000:
            self.failures.append(rec)
        if self.verbose:
            print(f"{kind.upper()}: {key} at {self.where}: {detail}", flush=True)

    def mark(self, text):
        data = text.encode()
        os.lseek(self.progress_fd, 0, os.SEEK_SET)
        os.write(self.progress_fd, data)
        os.ftruncate(self.progress_fd, len(data))

    def call(self, func, args, kwargs):
        """PyTorch's call, and its replay through the library."""
        torch = self.torch
        key, op = self.lib_op(func)
        c = self.counts[key]
        if op is None:
            c["seen"] += 1
            return func(*args, **kwargs)
        try:
            copies = self.copy_tree((args, kwargs), {})
        except Exception:  # noqa: BLE001 (an argument that cannot be copied: not replayed)
            copies = None
        out = func(*args, **kwargs)   # PyTorch's error, if any, is the sample's: the call is not counted
        c["seen"] += 1
        c["has"] += 1
        if not all(self.has_dtype(dt) for dt in self.dtypes_in(args, kwargs, out)):
            c["dtype"] += 1
            return out
        if copies is None or not self.layouts_ok(args, kwargs, out):
            c["unsupported"] += 1
            return out
        self.mark(f"{self.where} {key}")
        try:
            # The library's own tensors over the copies' memory: an in-place view
            # (transpose_, resize_) changes their sizes, which DLPack cannot carry back.
            pristine = self.copy_tree(copies, {}) if self.has_narrow_float((args, kwargs)) else None
            lib_args = self.copy_tree(copies, None, wrap=True)
            got = op(*lib_args[0], **lib_args[1])
        except Exception as e:  # noqa: BLE001 (every library error is counted)
            msg = f"{type(e).__name__}: {e}"
            for (ov, pattern), why in REFUSALS.items():
                if ov == key and re.search(pattern, msg):
                    c["refused"] += 1
                    return out
            c["error"] += 1
            self.fail("error", key, msg[:500])
            return out
        values = key not in UNINITIALIZED and torch.Tag.nondeterministic_seeded not in func.tags
        try:
            got, lib_args = self.to_torch(got), self.to_torch(lib_args)
            diff = self.compare(got, out, values, "result")
            if diff is None:
                diff = self.compare(lib_args, (args, kwargs), values, "arguments")
            if diff is not None and self.pytorch_is_wrong(key, got, out, args, kwargs):
                c["torch_wrong"] += 1
                return out
            if diff is not None and pristine is not None and self.within_torch_error(
                    func, pristine, got, lib_args, out, (args, kwargs)):
                c["accurate"] += 1
                return out
        except Exception as e:  # noqa: BLE001 (an unreadable result is wrong)
            diff = f"comparing: {type(e).__name__}: {e}"
        if diff is None:
            c["correct"] += 1
        else:
            c["wrong"] += 1
            self.fail("wrong", key, diff[:500])
        return out


def run_units(units, progress_path, results_path, a):
    """The child: runs each (entry index, dtype name) unit, one JSON line each."""
    import torch
    import opdispatch as opd
    from torch.utils._python_dispatch import TorchDispatchMode
    from torch.testing._internal.common_methods_invocations import op_db
    torch.set_num_threads(1)
    warnings.simplefilter("ignore")   # PyTorch's deprecation notes from its own samples
    fd = os.open(progress_path, os.O_WRONLY | os.O_CREAT, 0o644)
    rp = Replayer(opd, torch, fd, a.verbose)

    class Recorder(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            return rp.call(func, args, kwargs or {})

    with open(results_path, "a") as results:
        for index, dtype_name in units:
            info = op_db[index]
            name = entry_name(info)
            dtype = getattr(torch, dtype_name)
            rp.counts.clear()
            rp.failures = []
            unit = {"index": index, "entry": name, "dtype": dtype_name, "samples": 0, "sample_errors": 0}
            torch.manual_seed(zlib.crc32(f"{name}/{dtype_name}".encode()))
            rp.where = f"{name} {dtype_name} (samples)"
            rp.mark(f"{index} {dtype_name} -1 {rp.where}")
            try:
                samples = list(info.sample_inputs("cpu", dtype, requires_grad=False))
            except Exception as e:  # noqa: BLE001 (PyTorch's own sample generator)
                samples = []
                unit["sample_generation_error"] = f"{type(e).__name__}: {e}"[:300]
            if a.max_samples is not None:
                samples = samples[:a.max_samples]
            for s_index, sample in enumerate(samples):
                rp.where = f"{name} {dtype_name} sample {s_index}"
                rp.mark(f"{index} {dtype_name} {s_index} {rp.where}")
                unit["samples"] += 1
                try:
                    with Recorder():
                        info(sample.input, *sample.args, **sample.kwargs)
                except Exception:  # noqa: BLE001 (PyTorch refused its own sample: the calls before count)
                    unit["sample_errors"] += 1
            unit["counts"] = {k: v for k, v in rp.counts.items()}
            unit["failures"] = rp.failures
            results.write(json.dumps(unit) + "\n")
            results.flush()
    os.close(fd)


def entry_name(info):
    return info.name + ("." + info.variant_test_name if info.variant_test_name else "")


# ---------------------------------------------------------------- the parent

def select_units(op_db, torch, a):
    units = []
    pattern = re.compile(a.ops) if a.ops else None
    for index, info in enumerate(op_db):
        if pattern and not pattern.search(entry_name(info)):
            continue
        dtypes = sorted((str(d).rpartition(".")[2] for d in info.supported_dtypes("cpu")))
        if a.subset == "ci":
            chosen = [d for d in CI_DTYPES if d in dtypes][:1] or dtypes[:1]
            dtypes = chosen
        if a.dtypes:
            dtypes = [d for d in dtypes if re.fullmatch(a.dtypes, d)]
        units.extend((index, d) for d in dtypes)
    return units


def run_child(units, a, tmp, serial):
    """Forks a child over units; returns (pid, progress path, results path)."""
    progress = os.path.join(tmp, f"progress.{serial}")
    results = os.path.join(tmp, f"results.{serial}")
    open(progress, "w").close()
    open(results, "w").close()
    sys.stdout.flush()
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            run_units(units, progress, results, a)
        except BaseException:  # noqa: BLE001 (reported by the parent from the exit code)
            traceback.print_exc()
            code = 3
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    return pid, progress, results


def main(argv):
    a = parse_args(argv)
    sys.path.insert(0, os.path.join(HERE, "stubs"))   # expecttest, for this script only
    sys.argv = sys.argv[:1]                           # common_utils parses the command line on import
    import torch
    from torch.testing._internal.common_methods_invocations import op_db

    units = select_units(op_db, torch, a)
    start = time.time()
    pending = [units[i:i + a.chunk] for i in range(0, len(units), a.chunk)]
    running = {}
    unit_results = []
    crashes = []
    serial = 0
    with tempfile.TemporaryDirectory(prefix="opd-opinfo-") as tmp:
        while pending or running:
            while pending and len(running) < a.jobs:
                chunk = pending.pop(0)
                serial += 1
                pid, progress, results = run_child(chunk, a, tmp, serial)
                running[pid] = (chunk, progress, results, time.time(), "")
            time.sleep(0.05)
            for pid in list(running):
                chunk, progress, results, seen_at, last = running[pid]
                done, status = os.waitpid(pid, os.WNOHANG)
                if not done:
                    with open(progress) as f:
                        now = f.read()
                    if now != last:
                        running[pid] = (chunk, progress, results, time.time(), now)
                    elif time.time() - seen_at > a.hang_seconds:
                        os.kill(pid, signal.SIGKILL)
                    continue
                del running[pid]
                with open(results) as f:
                    finished = [json.loads(line) for line in f if line.endswith("\n")]
                unit_results.extend(finished)
                if len(finished) < len(chunk):
                    with open(progress) as f:
                        where = f.read()
                    code = os.waitstatus_to_exitcode(status)
                    crashed = chunk[len(finished)]
                    parts = where.split(" ")
                    overload = parts[-1] if "::" in parts[-1] else None
                    crashes.append({"index": crashed[0], "entry": entry_name(op_db[crashed[0]]),
                                    "dtype": crashed[1], "exit": code, "at": where})
                    print(f"CRASH (exit {code}) in {where}", flush=True)
                    if overload:
                        unit_results.append({"index": crashed[0], "entry": entry_name(op_db[crashed[0]]),
                                             "dtype": crashed[1], "samples": 0, "sample_errors": 0,
                                             "counts": {overload: {"crash": 1}}, "failures": []})
                    rest = chunk[len(finished) + 1:]
                    if rest:
                        pending.insert(0, rest)
    elapsed = time.time() - start

    totals = collections.defaultdict(lambda: dict.fromkeys(COUNTERS, 0))
    failures = []
    for u in unit_results:
        for ov, c in u.get("counts", {}).items():
            for k, v in c.items():
                totals[ov][k] += v
        failures.extend(u.get("failures", []))
    summary = dict.fromkeys(COUNTERS, 0)
    for c in totals.values():
        for k in COUNTERS:
            summary[k] += c[k]
    summary.update({
        "entries": len({u["index"] for u in unit_results}),
        "units": len(unit_results),
        "samples": sum(u["samples"] for u in unit_results),
        "overloads_seen": len(totals),
        "overloads_in_library": sum(1 for c in totals.values() if c["has"]),
        "overloads_all_correct": sum(1 for c in totals.values()
                                     if c["has"] and c["correct"] and not (c["wrong"] or c["error"] or c["crash"])),
        "seconds": round(elapsed, 1),
    })

    print(f"{'overload':60s} " + " ".join(f"{k:>11s}" for k in COUNTERS))
    for ov in sorted(totals):
        c = totals[ov]
        print(f"{ov:60s} " + " ".join(f"{c[k]:11d}" for k in COUNTERS))
    print()
    for f in failures[:200]:
        print(f"{f['kind'].upper()}: {f['overload']} at {f['where']}: {f['detail']}")
    for c in crashes:
        print(f"CRASH: {c}")
    print(json.dumps(summary))
    if a.report:
        with open(a.report, "w") as f:
            json.dump({"summary": summary, "overloads": dict(sorted(totals.items())), "failures": failures,
                       "crashes": crashes, "refusals": [f"{k[0]} /{k[1]}/: {v}" for k, v in REFUSALS.items()],
                       "arguments": vars(a)}, f, indent=1)
            f.write("\n")
    bad = summary["wrong"] + summary["error"] + summary["crash"] + len(crashes)
    print("FAIL" if bad else "PASS", f"({summary['correct']} calls correct, {summary['wrong']} wrong, "
          f"{summary['error']} errors, {len(crashes)} crashes, {elapsed:.1f} s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
