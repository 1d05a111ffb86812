#!/usr/bin/env python3
"""Which of the library's aten:: operators the differential tests reach.

    OPD_DIFF_LOG=/tmp/diff.log ctest --test-dir build -R torch_diff
    python3 tests/kernels/diff/coverage.py /tmp/diff.log

The operators are the schema strings of include/kernels/ops*.hpp
("aten::name.overload(...)"); the log is what the harness appends per case
(tests/kernels/diff/diff.cpp, log_case). An overload counts as computed when
at least one case ran on both sides without an error; as refused only when
every case of it was refused by both. Prints the counts and, for each overload no
case computed, which other test reaches it or why none can.
"""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parents[3]
declared = set()
for header in sorted((root / "include" / "kernels").glob("ops*.hpp")):
    for m in re.finditer(r'"aten::([a-z_0-9]+)(?:\.([A-Za-z_0-9]+))?\(', header.read_text()):
        declared.add((m.group(1), m.group(2) or ""))

computed, refused = set(), set()
for line in open(sys.argv[1]):
    op, overload, result = line.rstrip("\n").split("\t")
    key = (op.removeprefix("aten::"), overload)
    (computed if result == "computed" else refused).add(key)

# Overloads that other differential tests reach, outside this harness.
views_test = (root / "tests" / "kernels" / "views_torch_diff_test.cpp").read_text()
elsewhere = {}
for name, overload in declared - computed:
    if f'{{"{name}", "{overload}",' in views_test:
        elsewhere[(name, overload)] = "views_torch_diff_test.cpp (sizes, strides, aliasing, values)"
for name in ("add", "sub", "mul", "div"):
    elsewhere[(name, "out")] = "torch_diff_test.cpp (typed: functional, in-place, out= over random shapes and dtypes)"
    elsewhere[(name, "Scalar_out")] = "no peer: an ATen 2.x overload, absent from libtorch 1.13"
for name in ("empty", "empty_strided"):
    for overload in ("memory_format", ""):
        elsewhere[(name, overload)] = "values unspecified: sizes, strides and dtypes in views_test.cpp / ops_test.cpp"
elsewhere[("to", "device")] = "the harness has no Device values: views_test.cpp (typed, against expected values)"

missing = sorted(declared - computed)
reached_elsewhere = [key for key in missing if key in elsewhere]
print(f"{len(declared)} aten:: overloads declared; {len(declared & computed)} computed by at least one case here; "
      f"{len(reached_elsewhere)} elsewhere or not comparable; {len(missing) - len(reached_elsewhere)} not reached")
for name, overload in missing:
    status = elsewhere.get((name, overload)) or ("refused only" if (name, overload) in refused else "NOT REACHED")
    print(f"  {name}{'.' + overload if overload else ''}\t{status}")
