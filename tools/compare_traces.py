#!/usr/bin/python3
"""The first node where opd-run's outputs depart from PyTorch's.

    /usr/bin/python3 tools/export_aten_graph.py --trace -o g/ maxvit_t
    build/rel/bin/opd-run g/maxvit_t.json --inputs g/maxvit_t.io.json --trace > g/maxvit_t.opd.txt
    /usr/bin/python3 tools/compare_traces.py g/maxvit_t.trace.txt g/maxvit_t.opd.txt

Both files hold "node <i> <op>: <v> ..." lines (each float32 output's sum
weighted by position); a value departs when |opd - torch| > rtol * max(1, |torch|).
Exit status 0 when none departs, 1 otherwise (the node printed).
"""
import argparse
import sys


def lines(path):
    out = {}
    with open(path) as f:
        for line in f:
            if line.startswith("node ") and ": " in line:
                head, vals = line.rstrip("\n").split(": ", 1)
                out[int(head.split()[1])] = (head, vals.split())
            elif line.startswith("node ") and line.rstrip().endswith(":"):
                head = line.rstrip().rstrip(":")
                out[int(head.split()[1])] = (head, [])
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("torch_trace")
    p.add_argument("opd_trace")
    p.add_argument("--rtol", type=float, default=1e-3)
    a = p.parse_args()
    ref, ours = lines(a.torch_trace), lines(a.opd_trace)
    for i in sorted(ref):
        if i not in ours:
            print(f"node {i}: not in {a.opd_trace}")
            return 1
        (rh, rv), (oh, ov) = ref[i], ours[i]
        if rh != oh:
            print(f"node {i}: {rh} in PyTorch's trace, {oh} in opd's")
            return 1
        for k, (r, o) in enumerate(zip(rv, ov)):
            if r == "-" or o == "-":
                continue
            if abs(float(o) - float(r)) > a.rtol * max(1.0, abs(float(r))):
                print(f"{rh}: output {k} departs: opd {o}, PyTorch {r}")
                return 1
    print(f"{len(ref)} nodes agree (rtol {a.rtol})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
