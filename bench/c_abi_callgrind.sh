#!/usr/bin/env bash
# Instructions per call of the C ABI's paths (bench/c_abi_callgrind.cpp) under
# callgrind: (Ir(2N) - Ir(N)) / N with N = 20000 calls by default, and the
# ratio the issue sets a target for (c_boxed / c_shim <= 2).
#
#   bench/c_abi_callgrind.sh <build-dir>/bin/opd_c_abi_callgrind [N]
set -euo pipefail
bin=${1:?usage: $0 path/to/opd_c_abi_callgrind [N]}
calls=${2:-20000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

total() {  # path calls -> total Ir of the whole run
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$bin" "$1" "$2" >/dev/null 2>"$tmp/log"
  sed -n 's/^summary: *//p' "$tmp/cg.out"
}

declare -A per_call
printf '%-16s %14s\n' path "Ir per call"
for path in ${PATHS:-opd_call c_shim c_boxed c_boxed_handle}; do
  a=$(total "$path" "$calls")
  b=$(total "$path" $((2 * calls)))
  per_call[$path]=$(awk -v a="$a" -v b="$b" -v n="$calls" 'BEGIN { printf "%.1f", (b - a) / n }')
  printf '%-16s %14s\n' "$path" "${per_call[$path]}"
done
if [ -n "${per_call[c_shim]:-}" ] && [ -n "${per_call[c_boxed]:-}" ]; then
  awk -v s="${per_call[c_shim]}" -v b="${per_call[c_boxed]}" 'BEGIN { printf "c_boxed / c_shim: %.2f (target <= 2)\n", b / s }'
fi
