#!/usr/bin/env bash
# Instructions per call of each dispatch path, opd and c10, under callgrind:
# (Ir(N=2*n) - Ir(N=n)) / n, with n = 100000 by default.
#
#   bench/callgrind.sh <build-dir>/bin/opd_dispatch_callgrind [n]
#
# SIDES="opd" (or "c10") limits the run to one side (default: both when the
# driver was built with libtorch).
set -euo pipefail
bin=${1:?usage: $0 path/to/opd_dispatch_callgrind [n]}
n=${2:-100000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

total() {  # side path N -> total Ir of the whole run
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$bin" "$1" "$2" "$3" >/dev/null 2>"$tmp/log"
  sed -n 's/^summary: *//p' "$tmp/cg.out"
}

sides=${SIDES:-opd}
if [ -z "${SIDES:-}" ] && "$bin" c10 direct 1 2>/dev/null; then sides="opd c10"; fi
printf '%-6s %-13s %14s\n' side path "Ir per call"
for side in $sides; do
  for path in direct typed boxed boxed_owning to_boxed; do
    if [ "$side" = c10 ] && [ "$path" = boxed_owning ]; then continue; fi  # opd only
    a=$(total "$side" "$path" "$n")
    b=$(total "$side" "$path" $((2 * n)))
    awk -v a="$a" -v b="$b" -v n="$n" -v s="$side" -v p="$path" 'BEGIN { printf "%-6s %-13s %14.1f\n", s, p, (b - a) / n }'
  done
done
