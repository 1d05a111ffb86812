#!/usr/bin/python3
"""Runs every model tools/export_aten_graph.py knows through tools/opd-run and
writes docs/models.md's table: which models run (with the max relative error
of their outputs against PyTorch's) and which do not (with the operators the
library lacks, or the error).

    /usr/bin/python3 tools/models_report.py --opd-run build/rel/bin/opd-run [--write docs/models.md] [model ...]

Each model is exported (batch 1, the export script's default input size, seed
0) into a temporary folder, `opd-run --missing` lists the operators without a
CPU kernel, and when there are none `opd-run --io` runs it and compares
(relative 1e-4). Models over --max-params parameters are listed as not run.
With --write, the table replaces what lies between the markers
<!-- models-table begin --> and <!-- models-table end --> in that file.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import export_aten_graph as eg  # noqa: E402

BEGIN, END = "<!-- models-table begin -->", "<!-- models-table end -->"


def run_model(name, opd_run, directory, max_params):
    """(status, detail, nodes): status 'runs', 'off', 'missing', 'fails' or 'not run'."""
    model, _ = eg.build(name)
    params = sum(p.numel() for p in model.parameters())
    del model
    if params > max_params:
        return "not run", f"{params / 1e6:.0f}M parameters (over --max-params)", None
    try:
        nodes = eg.export(name, directory)
    except Exception as e:  # noqa: BLE001 -- any failure of the capture
        return "not run", f"export failed: {type(e).__name__}: {e}", None
    graph = os.path.join(directory, name + ".json")
    missing = subprocess.run([opd_run, graph, "--missing"], capture_output=True, text=True)
    if missing.returncode == 3:
        ops = [line.strip() for line in missing.stdout.splitlines() if line.strip()]
        return "missing", ops, nodes
    if missing.returncode != 0:
        return "fails", (missing.stderr.strip().splitlines() or ["?"])[-1], nodes
    run = subprocess.run([opd_run, graph, "--io", os.path.join(directory, name + ".io.json"), "--rtol", "1e-4"],
                         capture_output=True, text=True)
    errors = [float(e) for e in re.findall(r"max relative error ([0-9.e+-]+|inf|nan)", run.stdout)]
    worst = max(errors) if errors else None
    if run.returncode == 0:
        return "runs", worst, nodes
    if worst is not None and not run.stderr.strip():
        return "off", worst, nodes
    return "fails", (run.stderr.strip().splitlines() or ["?"])[-1], nodes


def table(results):
    lines = ["| model | nodes | status | max relative error / what is missing |", "|---|---|---|---|"]
    for name, (status, detail, nodes) in results:
        n = "" if nodes is None else str(nodes)
        if status in ("runs", "off"):
            text = "?" if detail is None else f"{detail:.2g}"
            lines.append(f"| {name} | {n} | {'runs' if status == 'runs' else 'OFF (over 1e-4)'} | {text} |")
        elif status == "missing":
            lines.append(f"| {name} | {n} | missing operators | {', '.join('`' + d + '`' for d in detail)} |")
        else:
            lines.append(f"| {name} | {n} | {status} | {str(detail).replace('|', '/')} |")
    ran = sum(1 for _, r in results if r[0] == "runs")
    missing = {}
    for name, (status, detail, _) in results:
        if status == "missing":
            for op in detail:
                missing.setdefault(op.split(" ")[0], []).append(name)
    summary = [f"{ran} of {len(results)} models run and match PyTorch (relative 1e-4).", ""]
    if missing:
        summary += ["The operators the others lack, with the models each one blocks:", "",
                    "| operator | models |", "|---|---|"]
        for op, models in sorted(missing.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            summary.append(f"| `{op}` | {', '.join(models)} |")
        summary.append("")
    return "\n".join(summary + lines) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("models", nargs="*", help="default: every model export_aten_graph.py --list names")
    p.add_argument("--opd-run", required=True)
    p.add_argument("--write", help="the markdown file whose table to replace")
    p.add_argument("--max-params", type=float, default=1e9)
    a = p.parse_args()
    models = a.models or eg.torchvision_models() + sorted(eg.NN_MODELS)
    eg.torch.set_num_threads(1)
    results = []
    for name in models:
        start = time.time()
        with tempfile.TemporaryDirectory() as d:
            r = run_model(name, os.path.abspath(a.opd_run), d, a.max_params)
        results.append((name, r))
        print(f"{name}: {r[0]} {r[1]} ({time.time() - start:.1f} s)", flush=True)
    text = table(results)
    if a.write:
        with open(a.write) as f:
            doc = f.read()
        if BEGIN not in doc or END not in doc:
            sys.exit(f"models_report: {a.write} lacks the markers {BEGIN} / {END}")
        head, rest = doc.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
        with open(a.write, "w") as f:
            f.write(head + BEGIN + "\n" + text + END + tail)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
