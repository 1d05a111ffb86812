#!/usr/bin/env bash
# Full test run, three builds that between them cover both compilers, both
# ways of consuming the library and both build types:
#   gcc          g++, Debug, instrumented with ASan+UBSan (OPD_SANITIZE=
#                address, still -Werror), against the compiled library
#                (libopdispatch): every test, the benchmark programs (run
#                once, briefly) and the nested TSan build of the concurrency
#                tests;
#   clang        clang++-14 (clang-14 for the C test program), Debug, against the header-only target
#                (OPD_HEADER_ONLY_TESTS=ON): every test but the sanitizers,
#                and the nvcc header check (run in this build only);
#   gcc-release  g++, Release: the library, tools, examples and every test
#                program build warning-free (-Werror) and the runtime tests
#                pass; checks that only compile (header self-containment, the C
#                ABI derivation, compile-fail tests) are not repeated.
# Env: OPD_BUILD_TYPE (Debug: the first two builds' type), OPD_JOBS (default 2),
#      OPD_FAIL_FAST=1 to stop after the first failing build.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

bash scripts/setup.sh || { echo "test.sh: setup failed" >&2; exit 1; }

BUILD_TYPE=${OPD_BUILD_TYPE:-Debug}
JOBS=${OPD_JOBS:-2}
status=0
summaries=()

run_one() {  # <label> <build dir> <c++ compiler> <build type> <extra cmake options> [ctest args...]
  local label=$1 dir=$2 cxx=$3 type=$4 options=$5
  shift 5
  local log="$dir/ctest.log"
  echo "=== [$label] configure ($cxx, $dir)"
  # shellcheck disable=SC2086
  if ! cmake -S . -B "$dir" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" \
         -DCMAKE_BUILD_TYPE="$type" $options; then
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
failed() { [ "$status" -ne 0 ] && [ "${OPD_FAIL_FAST:-0}" = 1 ]; }
# UBSan reports stop the test (-fno-sanitize-recover); print where they came from.
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
# Debug builds keep line tables only (-g1): enough for sanitizer and crash
# backtraces, and 5-10% less compile time than full debug information.
DEBUG_INFO="-DCMAKE_CXX_FLAGS_DEBUG=-g1"
# The Release build tests at -O2 (as distributions build; scripts/
# release-o2.cmake): -O3, CMake's default, costs more compile time for the
# same checks.
RELEASE_FLAGS="-C scripts/release-o2.cmake"
# The nvcc header check (80 s) is the same in every build: it runs in the clang one.
run_one gcc build/gcc g++ "$BUILD_TYPE" "$DEBUG_INFO -DOPD_BUILD_BENCH=ON -DOPD_SANITIZE=address -DOPD_CUDA_TESTS=OFF -DOPD_HEADERS_CHECK=OFF" || status=1
failed || run_one clang build/clang clang++-14 "$BUILD_TYPE" "$DEBUG_INFO -DCMAKE_C_COMPILER=clang-14 -DOPD_HEADER_ONLY_TESTS=ON -DOPD_TEST_PCH=ON" -LE sanitizer || status=1
failed || run_one gcc-release build/gcc-release g++ Release "$RELEASE_FLAGS -DOPD_SANITIZER_TESTS=OFF -DOPD_COMPILE_CHECKS=OFF -DOPD_CUDA_TESTS=OFF" -L runtime || status=1

echo
echo "=== summary ($((SECONDS - start)) s)"
for s in "${summaries[@]}"; do echo "$s"; done
if [ "$status" -ne 0 ]; then echo "test.sh: FAILED"; else echo "test.sh: OK"; fi
exit "$status"
