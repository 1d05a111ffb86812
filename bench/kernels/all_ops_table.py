#!/usr/bin/env python3
"""opd against ATen for every operator, from opd_kernels_all_ops's JSON.

    build/rel/bin/opd_kernels_all_ops --benchmark_min_time=0.05 --benchmark_repetitions=3 \\
        --benchmark_format=json > all_ops.json
    python3 bench/kernels/all_ops_table.py all_ops.json              # Markdown table on stdout
    python3 bench/kernels/all_ops_table.py all_ops.json --docs docs/kernels.md

A partial re-run (--benchmark_filter over some operators) is merged into a
full one with --merge: its benchmarks replace the full run's of the same
operator and n (opd and aten both, so a ratio never mixes two runs), and the
generated section names the re-run (its date and load):

    python3 bench/kernels/all_ops_table.py all_ops.json --merge rerun.json --docs docs/kernels.md

Times are CPU ns per call: the median of the repetitions when there are
some, else the single run. --docs rewrites, in that file,

- the generated section between "<!-- all_ops_table:begin -->" and
  "<!-- all_ops_table:end -->": when and where it was measured, the rows over
  the issue's targets, the table, the refused cases and the operators without
  a case (with the reason given in NO_CASE_REASONS below);
- every table cell that ends in "<!-- all_ops: NAME ... -->": its text becomes
  the range of opd/aten over the named operators, per n ("aten::eq.Tensor"
  names one overload, "aten::where" the one without an overload name,
  "aten::eq.*" every measured overload of eq).

Standard library only.
"""
import argparse
import json
import math
import re
import sys

# Registered functional operators the program has no case for, and why.
NO_CASE_REASONS = {
    "aten::to.device": "takes a Device argument, which the harness's Value has no kind for "
                       "(to.dtype, to.dtype_layout and _to_copy time the same conversion)",
}

# Rows whose ratio compares different work, and why (printed under the table).
NOTES = {
    "aten::copy": "ATen 1.13's functional `copy` is `src.to(self)` (expanded to self's sizes when they differ), "
                  "which copies nothing when the dtypes match; the case's src is int32 into a float self, so that "
                  "both sides convert every element",
}

# The targets (issue 15): opd's time at most this fraction of ATen's.
TARGET_ONE = 0.5      # n = 1
TARGET_LARGE = 1.0    # n = 1e6, and the fixed larger shapes


def load(path):
    with open(path) as f:
        text = f.read()
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        # A run still in progress: close the benchmark list after the last complete entry.
        cut = text.rfind("\n    },")
        return json.loads(text[:cut] + "\n    }\n  ]\n}\n")


def run_parts(b):
    """["BM_add_Tensor_1t", "opd", "1"] for "BM_add_Tensor_1t/opd/1" (and "BM_add_Tensor_mt/opd/1/real_time")."""
    parts = b.get("run_name", b["name"]).split("/")
    return parts[:3] if len(parts) == 3 or (len(parts) == 4 and parts[3] == "real_time") else None


def run_key(b):
    """("BM_add_Tensor_1t", 1) for "BM_add_Tensor_1t/opd/1" (and its aggregates)."""
    parts = run_parts(b)
    return (parts[0], parts[2]) if parts else None


def merge(data, part):
    """data's benchmarks with every (operator, n) that `part` measured replaced by part's."""
    by_key = {}
    for b in part["benchmarks"]:
        by_key.setdefault(run_key(b), []).append(b)
    keys = set(by_key) - {None}
    merged, placed = [], set()
    for b in data["benchmarks"]:  # the full run's order kept: part's rows where the old ones were
        k = run_key(b)
        if k not in keys:
            merged.append(b)
        elif k not in placed:
            merged += by_key[k]
            placed.add(k)
    merged += [b for k in by_key if k in keys and k not in placed for b in by_key[k]]
    data["benchmarks"] = merged
    ctx = part.get("context", {})
    note = "%d rows re-run at %s, load %s" % (len(keys), ctx.get("date", "?"),
                                             ", ".join("%.2f" % x for x in ctx.get("load_avg", [])) or "?")
    prev = data.setdefault("context", {}).get("rerun")
    data["context"]["rerun"] = prev + "; " + note if prev else note


def collect(data):
    """{(base, n): {"name", "shape", "opd", "aten", "opd_bps", "aten_bps"}} and the refusals, in run
    order; the memcpy reference rows go to memcpy_rows(), not here."""
    rows, refused, medians = {}, [], set()
    for b in data["benchmarks"]:
        parts = run_parts(b)
        if not parts or parts[0].startswith("BM_memcpy_"):
            continue
        base, side, n = parts[0], parts[1], int(parts[2])
        key = (base, n)
        if b.get("error_occurred"):
            msg = b.get("error_message", "")
            if (key, side) not in [(r[0], r[1]) for r in refused]:
                refused.append((key, side, msg))
            continue
        all_threads = base.endswith("_mt")
        row = rows.setdefault(key, {"name": base, "shape": "", "n": n, "threads": "mt" if all_threads else "1"})
        label = b.get("label", "")
        if " | " in label:
            row["name"], row["shape"] = label.split(" | ", 1)
        unit = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
        # _mt rows: real time (the workers' CPU time is not the caller's).
        t = b["real_time" if all_threads else "cpu_time"] * unit
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                row[side] = t
                row[side + "_bps"] = traffic(b, t)
                medians.add((key, side))
        elif (key, side) not in medians and b.get("repetitions", 1) <= 1:
            row[side] = t
            row[side + "_bps"] = traffic(b, t)
    for key, side, msg in refused:
        rows.setdefault(key, {"name": msg.split(" refused by ")[0], "shape": "", "n": key[1],
                              "threads": "mt" if key[0].endswith("_mt") else "1"})
        rows[key].setdefault("refused", []).append(msg)
    return rows


def traffic(b, t_ns):
    """Bytes per second of one benchmark at the time t_ns per call (the one the table shows: an _mt row's
    real time), or None. Google Benchmark divides by CPU time; its bytes per call are recovered first."""
    bps = b.get("bytes_per_second")
    if not bps:
        return None
    unit = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
    per_call = bps * b["cpu_time"] * unit * 1e-9
    return per_call / (t_ns * 1e-9) if t_ns > 0 else None


def memcpy_rows(data):
    """{("1" or "mt", footprint bytes): bytes per second} of the BM_memcpy_* reference rows (medians)."""
    refs = {}
    for b in data["benchmarks"]:
        parts = run_parts(b)
        if not parts or not parts[0].startswith("BM_memcpy_") or b.get("error_occurred"):
            continue
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        threads = "mt" if parts[0].endswith("_mt") else "1"
        unit = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
        t = b["real_time" if threads == "mt" else "cpu_time"] * unit
        refs[(threads, int(parts[2]))] = traffic(b, t)
    return refs


def reference_bps(refs, threads, nbytes):
    """The memcpy row whose footprint is nearest nbytes (in ratio), as (footprint, bytes per second)."""
    near = [(abs(math.log(f / nbytes)), f, bps) for (th, f), bps in refs.items() if th == threads and bps]
    if not near or nbytes <= 0:
        return None
    _, f, bps = min(near)
    return f, bps


def traffic_table(rows, refs):
    """The rows over the target at the larger sizes, with each side's memory traffic beside memcpy's."""
    out = []
    for row in rows.values():
        if row["n"] == 1 or not over_target(row) or not row.get("opd_bps") or not row.get("aten_bps"):
            continue
        nbytes = row["opd_bps"] * row["opd"] * 1e-9
        ref = reference_bps(refs, row["threads"], nbytes)
        if ref is None:
            continue
        f, bps = ref
        out.append("| `%s` | %s | %.1f MB | %.1f | %.1f | %.1f (%.0f MiB) | %.0f%% | %.0f%% |" % (
            row["name"], row["threads"], nbytes / 1e6, row["opd_bps"] / 1e9, row["aten_bps"] / 1e9, bps / 1e9,
            f / 2**20, 100 * row["opd_bps"] / bps, 100 * row["aten_bps"] / bps))
    if not out:
        return []
    return ["Memory traffic of the rows over the targets at the larger sizes: the bytes one call cannot avoid "
            "(its tensor arguments and new results), in GB/s at each side's time, beside `memcpy`'s at the nearest "
            "footprint in the same run (`BM_memcpy_<1t|mt>/machine/<bytes>`). A row at which both sides move about "
            "what `memcpy` does is bound by memory traffic on both.",
            "",
            "| operator | threads | bytes per call | opd GB/s | aten GB/s | memcpy GB/s (footprint) | opd / memcpy | aten / memcpy |",
            "|---|---|---:|---:|---:|---:|---:|---:|"] + out + [""]


def ratio(row):
    if "opd" in row and "aten" in row and row["aten"] > 0:
        return row["opd"] / row["aten"]
    return None


def over_target(row):
    r = ratio(row)
    if r is None:
        return False
    return r > (TARGET_ONE if row["n"] == 1 else TARGET_LARGE)


def fmt_ns(v):
    return "-" if v is None else ("%.0f" % v if v >= 100 else "%.1f" % v)


def table(rows):
    out = ["| operator | threads | n | arguments at n | opd ns | aten ns | opd/aten |", "|---|---|---|---|---|---|---|"]
    for row in rows.values():
        r = ratio(row)
        if row.get("refused"):
            cell = "refused: " + "; ".join(m.split(" refused by ", 1)[-1] for m in row["refused"])
            cell = cell.replace("|", "\\|")
        else:
            cell = "**%.2f**" % r if r is not None and over_target(row) else ("%.2f" % r if r is not None else "-")
        out.append("| `%s` | %s | %d | %s | %s | %s | %s |" % (row["name"], row["threads"], row["n"], row["shape"].replace("|", "\\|"),
                                                        fmt_ns(row.get("opd")), fmt_ns(row.get("aten")), cell))
    return "\n".join(out)


def flagged(rows):
    over = [row for row in rows.values() if over_target(row)]
    if not over:
        return "No row is over the targets."
    def mt(row):
        return " (mt)" if row["threads"] == "mt" else ""
    ones = ", ".join("`%s`%s %.2f" % (row["name"], mt(row), ratio(row)) for row in over if row["n"] == 1)
    large = ", ".join("`%s`%s%s %.2f" % (row["name"], mt(row), "" if row["n"] == 1000000 else " (n = %d)" % row["n"],
                                         ratio(row))
                      for row in over if row["n"] != 1)
    lines = []
    if ones:
        lines.append("- over %.1fx at 1 element: %s" % (TARGET_ONE, ones))
    if large:
        lines.append("- over %.1fx at 10^6 elements (or the fixed larger shape): %s" % (TARGET_LARGE, large))
    return "\n".join(lines)


def no_case(data):
    names = data.get("context", {}).get("no_case", "-")
    names = [] if names in ("", "-") else names.split()
    return ["- `%s`: %s" % (n, NO_CASE_REASONS.get(n, "no case in bench/kernels/all_ops.cpp yet")) for n in names]


def section(data, rows):
    ctx = data.get("context", {})
    refused = [row for row in rows.values() if row.get("refused")]
    parts = [
        "Generated by `bench/kernels/all_ops_table.py` from a run of `opd_kernels_all_ops` "
        "(%s, host %s, %s CPUs, load average at its start %s). Time per call, median of "
        "the repetitions: CPU time on one thread (threads 1), real time on all the CPUs (threads mt, both "
        "sides set to the CPU count); opd/aten over the issue's targets (%.1f at 1 element, %.1f at 10^6 "
        "and the larger fixed shapes) in bold." % (ctx.get("date", "?"), ctx.get("host_name", "?"), ctx.get("num_cpus", "?"),
                                                   ", ".join("%.2f" % x for x in ctx.get("load_avg", [])) or "?",
                                                   TARGET_ONE, TARGET_LARGE)
        + (" Merged in: %s." % ctx["rerun"] if ctx.get("rerun") else ""),
        "",
        "Over the targets:",
        "",
        flagged(rows),
        "",
    ] + traffic_table(rows, memcpy_rows(data)) + [
        table(rows),
        "",
        "Notes: " + ("none." if not any(row["name"] in NOTES for row in rows.values()) else ""),
    ] + ["- `%s`: %s." % (name, note) for name, note in NOTES.items() if any(r["name"] == name for r in rows.values())] + [
        "",
        "Refused cases: " + (", ".join("`%s`" % row["name"] for row in refused) if refused else "none") + ".",
        "",
        "Registered functional operators without a case:" + ("" if no_case(data) else " none."),
    ]
    parts += no_case(data)
    return "\n".join(parts)


def summary(rows, names):
    """opd/aten over the operators `names` on one thread, as "n = 1: 0.31-0.45; n = 10^6: 0.62-1.20"."""
    by_n = {}
    for row in rows.values():
        if row["threads"] != "1":
            continue
        op = row["name"].split(".")[0]
        if row["name"] in names or op + ".*" in names:
            r = ratio(row)
            if r is not None:
                by_n.setdefault(row["n"], []).append(r)
            elif row.get("refused"):
                by_n.setdefault(row["n"], []).append(None)
    if not by_n:
        return "not measured (no case)"
    cells = []
    for n in sorted(by_n):
        rs = [r for r in by_n[n] if r is not None]
        label = "1" if n == 1 else ("10^6" if n == 1000000 else str(n))
        if not rs:
            cells.append("n = %s: refused" % label)
        elif "%.2f" % min(rs) == "%.2f" % max(rs):
            cells.append("n = %s: %.2f" % (label, rs[0]))
        else:
            cells.append("n = %s: %.2f–%.2f" % (label, min(rs), max(rs)))
    noted = sorted(n for n in NOTES if n in names or n.split(".")[0] + ".*" in names)
    note = "; see the note on %s" % ", ".join("`%s`" % n for n in noted) if noted else ""
    return "; ".join(cells) + " ([each](#every-operator-against-aten)%s)" % note


CELL = re.compile(r"\|([^|]*?)(<!-- all_ops: ([^>]*?) -->)")
BEGIN, END = "<!-- all_ops_table:begin -->", "<!-- all_ops_table:end -->"


def rewrite_docs(path, data, rows):
    with open(path) as f:
        text = f.read()
    if BEGIN not in text or END not in text:
        sys.exit("%s: no %s ... %s section" % (path, BEGIN, END))
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    text = head + BEGIN + "\n" + section(data, rows) + "\n" + END + tail

    def fill(m):
        names = set(m.group(3).split())
        return "| " + summary(rows, names) + " " + m.group(2)

    text = CELL.sub(fill, text)
    with open(path, "w") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("json")
    ap.add_argument("--merge", action="append", help="a partial run whose operators replace the full run's")
    ap.add_argument("--docs", help="rewrite this file's generated section and ratio cells (docs/kernels.md)")
    args = ap.parse_args()
    data = load(args.json)
    for path in args.merge or []:
        merge(data, load(path))
    rows = collect(data)
    if args.docs:
        rewrite_docs(args.docs, data, rows)
    else:
        print(section(data, rows))


if __name__ == "__main__":
    main()
