#!/usr/bin/env bash
# Regenerates the compile-time benchmark translation units and measures them.
#
#   bench/schema_compile/run.sh [work-dir]        (default: build/schema_compile)
#
# 1. All 2493 schemas of PyTorch 1.13's native_functions.yaml as opd::op
#    structs with every kernel type derived (generate.py schemas), compiled
#    with g++ and clang++ (-fsyntax-only -O0, and -c -O2); the first 100, 500
#    and 1000 too, for the scaling.
# 2. 100 operators declared and registered with a trivial typed kernel each,
#    opd next to libtorch's TORCH_LIBRARY (generate.py opd-ops / torch-ops),
#    -O2 -c, one run each; both are then linked and run once (libtorch checks
#    each kernel's inferred schema against its m.def when registering).
#
# Prints one line per compile: wall seconds, user+sys CPU seconds and peak
# memory (GNU time's "Maximum resident set size"), and writes them as TSV to
# <work-dir>/results.tsv. On a loaded machine compare the CPU seconds: wall
# time then includes waiting for a core.
#
# Environment: CXX_GCC (g++), CXX_CLANG (clang++-14), SIZES ("100 500 1000"),
# SKIP_CLANG=1, SKIP_O2=1, SKIP_TORCH=1, OPS_EXCLUDE (words; see below).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${1:-$root/build/schema_compile}
mkdir -p "$work"
CXX_GCC=${CXX_GCC:-g++}
CXX_CLANG=${CXX_CLANG:-clang++-14}
SIZES=${SIZES:-"100 500 1000"}
# Words whose schemas are left out of the 100-operator comparison, on both
# sides (none by default: the first 100 schemas of the file).
OPS_EXCLUDE=${OPS_EXCLUDE:-}
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "needs GNU time at /usr/bin/time (apt-get install -y time)" >&2; exit 1; }

torch_inc=/usr/include/torch/csrc/api/include
torch_libs="-ltorch -ltorch_cpu -lc10"

results=$work/results.tsv
printf 'what\tcompiler\tflags\twall_s\tcpu_s\tmax_rss_mb\tstatus\n' >"$results"

# measure <what> <compiler> <flags...> -- <file>: one compile under GNU time.
measure() {
  local what=$1 cxx=$2
  shift 2
  local log=$work/time.$$.log status=ok
  if ! "$TIME" -f '%e %U %S %M' -o "$log" "$cxx" "$@" >"$work/compile.$$.out" 2>&1; then
    status=FAILED
    tail -5 "$work/compile.$$.out" >&2
  fi
  read -r wall user sys rss <"$log"
  local cpu mb
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
  mb=$(awk -v k="$rss" 'BEGIN { printf "%.0f", k / 1024 }')
  local flags="$*"
  flags=${flags//$root\//}
  flags=${flags//$work\//}
  printf '%-24s %-12s wall %7.2f s  cpu %7.2f s  %6s MB  %s\n' "$what" "$(basename "$cxx")" "$wall" "$cpu" "$mb" "$status"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$what" "$(basename "$cxx")" "$flags" "$wall" "$cpu" "$mb" "$status" >>"$results"
  rm -f "$log" "$work/compile.$$.out"
}

gen() { python3 "$here/generate.py" "$@"; }

echo "== generating (into $work)"
gen schemas -o "$work/schemas_all.cpp"
for n in $SIZES; do gen schemas --count "$n" -o "$work/schemas_$n.cpp"; done
excl=()
for w in $OPS_EXCLUDE; do excl+=(--exclude "$w"); done
gen opd-ops --count 100 "${excl[@]}" -o "$work/ops100_opd.cpp"
gen torch-ops --count 100 "${excl[@]}" -o "$work/ops100_torch.cpp"

inc=(-I"$root/include")
echo "== baseline: the headers alone"
printf '#include "dispatch/op.hpp"\n#include "dispatch/schema/cpp_types.hpp"\n' >"$work/schemas_0.cpp"
measure "schemas 0 (headers)" "$CXX_GCC" -std=c++20 -O0 -fsyntax-only "${inc[@]}" "$work/schemas_0.cpp"

echo "== all schemas, and the scaling"
for n in $SIZES all; do
  measure "schemas $n" "$CXX_GCC" -std=c++20 -O0 -fsyntax-only "${inc[@]}" "$work/schemas_$n.cpp"
done
if [ -z "${SKIP_O2:-}" ]; then
  measure "schemas all -O2 -c" "$CXX_GCC" -std=c++20 -O2 -c "${inc[@]}" "$work/schemas_all.cpp" -o "$work/schemas_all.o"
fi
if [ -z "${SKIP_CLANG:-}" ] && command -v "$CXX_CLANG" >/dev/null; then
  measure "schemas 0 (headers)" "$CXX_CLANG" -std=c++20 -O0 -fsyntax-only "${inc[@]}" "$work/schemas_0.cpp"
  for n in $SIZES all; do
    measure "schemas $n" "$CXX_CLANG" -std=c++20 -O0 -fsyntax-only "${inc[@]}" "$work/schemas_$n.cpp"
  done
  if [ -z "${SKIP_O2:-}" ]; then
    measure "schemas all -O2 -c" "$CXX_CLANG" -std=c++20 -O2 -c "${inc[@]}" "$work/schemas_all.cpp" -o "$work/schemas_all.o"
  fi
fi

echo "== 100 operators: opd vs libtorch (-O2 -c)"
measure "ops100 opd" "$CXX_GCC" -std=c++20 -O2 -c "${inc[@]}" "$work/ops100_opd.cpp" -o "$work/ops100_opd.o"
"$CXX_GCC" "$work/ops100_opd.o" -o "$work/ops100_opd" && "$work/ops100_opd" && echo "   ops100_opd: registered, ran OK"
if [ -z "${SKIP_TORCH:-}" ] && [ -f /usr/include/torch/library.h ]; then
  measure "ops100 libtorch" "$CXX_GCC" -std=c++20 -O2 -c -I"$torch_inc" "$work/ops100_torch.cpp" -o "$work/ops100_torch.o"
  # shellcheck disable=SC2086
  "$CXX_GCC" "$work/ops100_torch.o" -o "$work/ops100_torch" $torch_libs && "$work/ops100_torch" &&
    echo "   ops100_torch: registered (schemas checked by libtorch), ran OK"
  awk -F'\t' '$1 == "ops100 opd" { o = $5 } $1 == "ops100 libtorch" { t = $5 }
              END { if (o && t) printf "   opd / libtorch compile CPU time: %.2f\n", o / t }' "$results"
fi
echo "== results: $results"
