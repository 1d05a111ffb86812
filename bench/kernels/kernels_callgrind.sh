#!/usr/bin/env bash
# Instructions per functional call of a kernel operator under callgrind:
# (Ir(2N) - Ir(N)) / N with N = 20000 calls by default (N / 1000 at 1e6).
#
#   bench/kernels/kernels_callgrind.sh <build-dir>/bin/opd_kernels_callgrind [N]
#
# OPS (default "mul exp lt softmax") and SIZES (default "1 1000") limit the runs.
set -euo pipefail
bin=${1:?usage: $0 path/to/opd_kernels_callgrind [N]}
calls=${2:-20000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

total() {  # op n calls -> total Ir of the whole run
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$bin" "$1" "$2" "$3" >/dev/null 2>"$tmp/log"
  sed -n 's/^summary: *//p' "$tmp/cg.out"
}

printf '%-8s %9s %14s\n' op n "Ir per call"
for op in ${OPS:-mul exp lt softmax}; do
  for n in ${SIZES:-1 1000}; do
    c=$calls
    if [ "$n" -ge 100000 ]; then c=$((calls / 1000 > 0 ? calls / 1000 : 1)); fi
    a=$(total "$op" "$n" "$c")
    b=$(total "$op" "$n" $((2 * c)))
    awk -v a="$a" -v b="$b" -v c="$c" -v o="$op" -v n="$n" 'BEGIN { printf "%-8s %9s %14.1f\n", o, n, (b - a) / c }'
  done
done
