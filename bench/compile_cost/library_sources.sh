#!/usr/bin/env bash
# What the compiled library's sources cost to compile, and the share of the
# derivative formulas (issue 27's budget: the formula sources at most 25% on
# top of the rest of the library).
#
#   bench/compile_cost/library_sources.sh <build-dir> [jobs]    (default 1 job)
#
# Recompiles every source of libopdispatch with the build's own command line
# (ninja -t commands; ccache left out) into a scratch folder, `jobs` at a
# time, and prints one line per source, `<user s> <sys s> <peak MB> <source>`,
# slowest first, then the totals: user CPU seconds of the formula sources
# (src/autograd_formulas*.cpp), of the rest, and the first over the second.
# More than one job is faster but each compile then shares the cores: compare
# figures taken with the same number of jobs on a machine equally loaded.
# ONLY=<regex> keeps the sources whose path matches it (e.g. ONLY=autograd_formulas).
set -euo pipefail
build=${1:?usage: $0 <build-dir> [jobs]}
jobs=${2:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
lib=$(ninja -C "$build" -t targets all | sed -n 's/^\([^:]*libopdispatch[^:]*\): CXX_\(SHARED\|STATIC\)_LIBRARY_LINKER.*/\1/p' | head -1)
[ -n "$lib" ] || { echo "no libopdispatch target in $build" >&2; exit 1; }
# One compile command per library source; the object goes to the scratch folder.
ninja -C "$build" -t commands "$lib" | grep -E ' -c [^ ]*/src/[^ ]*\.cpp$' | grep -E "${ONLY:-.}" | sed -e 's/^ccache //' > "$work/commands"
i=0
while read -r line; do
  i=$((i + 1))
  src=${line##* -c }
  cmd=$(sed -e "s# -o [^ ]*# -o $work/o$i.o#" -e "s# -MF [^ ]*# -MF $work/d$i#" <<< "$line")
  echo "cd '$build' && /usr/bin/time -f '%U %S %M' -o '$work/t$i' $cmd && echo \"\$(cat '$work/t$i') $src\" > '$work/r$i'" > "$work/job$i"
done < "$work/commands"
ls "$work"/job* | xargs -P "$jobs" -I{} bash {}
cat "$work"/r* | awk '{printf "%.2f %.2f %d %s\n", $1, $2, $3 / 1024, $4}' | sort -rn
cat "$work"/r* | awk '
  $4 ~ /\/src\/autograd_formulas[^\/]*\.cpp$/ {f += $1; nf++; next}
  {r += $1; nr++}
  END {printf "formula sources: %d, %.1f user s; the rest: %d, %.1f user s; formulas on the rest: %+.1f%%\n", nf, f, nr, r, 100 * f / r}'
