#!/usr/bin/env bash
# Instructions per add call through a fallback on a toy device, under
# callgrind: opd::cpu_fallback (boxed) against hand-written typed fallbacks
# (typed), per variant and size:
# (Ir(2N) - Ir(N)) / N with N = 20000 calls by default (N / 1000 for the
# 1,000,000-element case).
#
#   bench/cpu_fallback_callgrind.sh <build-dir>/bin/opd_cpu_fallback_callgrind [N]
#
# SIDES (default "boxed typed"), VARIANTS (default "functional
# inplace out") and SIZES (default "1 1000") limit the runs.
set -euo pipefail
bin=${1:?usage: $0 path/to/opd_cpu_fallback_callgrind [N]}
calls=${2:-20000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

total() {  # side variant n calls -> total Ir of the whole run
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$bin" "$1" "$2" "$3" "$4" >/dev/null 2>"$tmp/log"
  sed -n 's/^summary: *//p' "$tmp/cg.out"
}

printf '%-16s %-11s %9s %14s\n' side variant n "Ir per call"
for side in ${SIDES:-boxed typed}; do
  for variant in ${VARIANTS:-functional inplace out}; do
    for n in ${SIZES:-1 1000}; do
      c=$calls
      if [ "$n" -ge 100000 ]; then c=$((calls / 1000 > 0 ? calls / 1000 : 1)); fi
      a=$(total "$side" "$variant" "$n" "$c")
      b=$(total "$side" "$variant" "$n" $((2 * c)))
      awk -v a="$a" -v b="$b" -v c="$c" -v s="$side" -v v="$variant" -v n="$n" \
        'BEGIN { printf "%-16s %-11s %9s %14.1f\n", s, v, n, (b - a) / c }'
    done
  done
done
