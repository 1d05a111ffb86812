#!/usr/bin/env bash
# What a user translation unit costs to compile, in each way of consuming the
# library (compiled: libopdispatch; header-only: -DOPD_HEADER_ONLY).
#
#   bench/compile_cost/run.sh [runs]      (default 3 runs per file)
#
# For each .cpp here: g++ -std=c++20 -O2 -c, the median CPU time (user+sys,
# from GNU time) and peak memory over the runs, and the code it emits (text +
# data of the object, from size). Prints a Markdown table (docs/benchmarks.md,
# "Compile cost of a user translation unit"). CXX picks the compiler (default
# g++); EXTRA adds flags.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
runs=${1:-3}
CXX=${CXX:-g++}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "| translation unit | mode | CPU s (median of $runs) | peak MB | code emitted (bytes) |"
echo "|---|---|---|---|---|"
for src in include_dispatcher one_operator add_call add_call_plain register_arithmetic register_cpu; do
  for mode in compiled header-only; do
    flags=()
    [ "$mode" = header-only ] && flags+=(-DOPD_HEADER_ONLY)
    [ "$src" = add_call_plain ] && [ "$mode" = header-only ] && continue
    cpu=(); mem=0
    for ((i = 0; i < runs; i++)); do
      /usr/bin/time -f "%U %S %M" -o "$work/t" "$CXX" -std=c++20 -O2 -I"$root/include" "${flags[@]}" ${EXTRA:-} \
        -c "$here/$src.cpp" -o "$work/$src.o"
      read -r u s m < "$work/t"
      cpu+=("$(awk -v u="$u" -v s="$s" 'BEGIN {printf "%.2f", u + s}')")
      [ "$m" -gt "$mem" ] && mem=$m
    done
    median=$(printf '%s\n' "${cpu[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p")
    code=$(size "$work/$src.o" | awk 'NR == 2 {print $1 + $2}')
    echo "| $src.cpp | $mode | $median | $((mem / 1024)) | $code |"
  done
done
