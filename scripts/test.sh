#!/usr/bin/env bash
# Full test run: g++ (build/gcc, everything including the sanitizer builds
# and the benchmark programs),
# then clang++-14 (build/clang, without the sanitizer tests).
# Env: OPD_BUILD_TYPE (default Debug), OPD_JOBS (default 2),
#      OPD_FAIL_FAST=1 to stop after the first failing compiler.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

bash scripts/setup.sh || { echo "test.sh: setup failed" >&2; exit 1; }

BUILD_TYPE=${OPD_BUILD_TYPE:-Debug}
JOBS=${OPD_JOBS:-2}
status=0
summaries=()

run_one() {  # <label> <build dir> <c++ compiler> <extra cmake options> [ctest args...]
  local label=$1 dir=$2 cxx=$3 options=$4
  shift 4
  local log="$dir/ctest.log"
  echo "=== [$label] configure ($cxx, $dir)"
  # shellcheck disable=SC2086
  if ! cmake -S . -B "$dir" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" \
         -DCMAKE_BUILD_TYPE="$BUILD_TYPE" $options; then
    summaries+=("[$label] configure FAILED"); return 1
  fi
  echo "=== [$label] build"
  if ! cmake --build "$dir" --parallel "$JOBS"; then
    summaries+=("[$label] build FAILED"); return 1
  fi
  echo "=== [$label] ctest"
  local rc=0
  ctest --test-dir "$dir" --output-on-failure --parallel "$JOBS" "$@" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  local s
  s=$(grep -E 'tests passed|tests failed|No tests were found|Total Test time' "$log" | tr '\n' ' ')
  summaries+=("[$label] ${s:-no ctest summary} (exit $rc)")
  return "$rc"
}

start=$SECONDS
# The g++ build also builds the benchmark programs and runs each once,
# briefly (the bench.* CTests), so that they keep compiling and working.
run_one gcc build/gcc g++ "-DOPD_BUILD_BENCH=ON" || status=1
if [ "$status" -ne 0 ] && [ "${OPD_FAIL_FAST:-0}" = 1 ]; then
  :
else
  run_one clang build/clang clang++-14 "" -LE sanitizer || status=1
fi

echo
echo "=== summary ($((SECONDS - start)) s)"
for s in "${summaries[@]}"; do echo "$s"; done
if [ "$status" -ne 0 ]; then echo "test.sh: FAILED"; else echo "test.sh: OK"; fi
exit "$status"
