#!/usr/bin/env bash
# Instructions per call of each autograd row, opd and ATen, under callgrind:
# (Ir(2n) - Ir(n)) / n. Prints `<row> <opd instructions> <aten instructions>`.
#
#   bench/autograd_callgrind.sh <build-dir>/bin/opd_bench_autograd [n]
#   SIDES=opd bench/autograd_callgrind.sh <build-dir>/bin/opd_autograd_callgrind [n]   (no libtorch: fast)
#
# Rows: add|mul|transpose _ nograd|grad|inference (forward, 1-element float),
# add_noautograd (opd only: no autograd registered), chain_add_100 / chain_mul_100
# (a whole chain of 100 nodes and its backward, per node).
set -euo pipefail
bin=${1:?usage: $0 path/to/opd_bench_autograd [n]}
n=${2:-2000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
total() {  # row side n -> total Ir
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$bin" callgrind "$1" "$2" "$3" >/dev/null 2>"$tmp/log" || { echo 0; return; }
  sed -n 's/^summary: *//p' "$tmp/cg.out"
}
per() {  # row side calls divisor
  local a b
  a=$(total "$1" "$2" "$3")
  b=$(total "$1" "$2" $((2 * $3)))
  awk -v a="$a" -v b="$b" -v c="$3" -v d="$4" 'BEGIN { if (a == 0 || b == 0) print "-"; else printf "%.1f", (b - a) / c / d }'
}
sides=${SIDES:-opd aten}
for row in ${ROWS:-add_noautograd add_nograd add_inference add_grad mul_nograd mul_inference mul_grad transpose_nograd transpose_inference transpose_grad}; do
  o=-; a=-
  for s in $sides; do
    v=$(per "$row" "$s" "$n" 1)
    if [ "$s" = opd ]; then o=$v; else a=$v; fi
  done
  echo "$row $o $a"
done
for row in ${CHAINS:-chain_add_100 chain_mul_100}; do
  o=-; a=-
  for s in $sides; do
    v=$(per "$row" "$s" $((n / 100 > 0 ? n / 100 : 1)) 100)
    if [ "$s" = opd ]; then o=$v; else a=$v; fi
  done
  echo "$row $o $a"
done
