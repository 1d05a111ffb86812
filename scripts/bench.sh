#!/usr/bin/env bash
# Builds and runs the dispatch benchmarks (docs/benchmarks.md):
#   1. opd_dispatch_overhead (Google Benchmark, medians of 5 repetitions,
#      with the overhead / ratio summary at the end),
#   2. instructions per call under callgrind (bench/callgrind.sh; slow: every
#      run loads libtorch under valgrind, about a minute each),
#   3. opd_elementwise (Google Benchmark: add through the dispatcher, opd's
#      derived variants, hand-written ones and ATen, medians of 5 repetitions,
#      with the ratio summary at the end),
#   4. optionally the compile-time benchmark (bench/schema_compile/run.sh).
# Env: OPD_BENCH_DIR (default build/bench), OPD_JOBS (default 2),
#      OPD_BENCH_ARGS (extra Google Benchmark flags),
#      SKIP_CALLGRIND=1, SKIP_ELEMENTWISE=1, WITH_COMPILE=1.
set -euo pipefail
cd "$(dirname "$0")/.."

dir=${OPD_BENCH_DIR:-build/bench}
jobs=${OPD_JOBS:-2}

cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DOPD_BUILD_BENCH=ON \
  -DOPD_BUILD_TESTS=OFF -DOPD_BUILD_EXAMPLES=OFF -DOPD_BUILD_TOOLS=OFF -DOPD_INSTALL=OFF
cmake --build "$dir" --parallel "$jobs" --target opd_dispatch_overhead opd_dispatch_callgrind opd_elementwise

echo "=== opd_dispatch_overhead"
# shellcheck disable=SC2086
"$dir/bin/opd_dispatch_overhead" --benchmark_repetitions=5 --benchmark_min_time=0.2 \
  --benchmark_enable_random_interleaving=true --benchmark_report_aggregates_only=true ${OPD_BENCH_ARGS:-}

if [ -z "${SKIP_CALLGRIND:-}" ] && command -v valgrind >/dev/null; then
  echo "=== instructions per call (callgrind)"
  bench/callgrind.sh "$dir/bin/opd_dispatch_callgrind" 100000
fi

if [ -z "${SKIP_ELEMENTWISE:-}" ]; then
  echo "=== opd_elementwise"
  # shellcheck disable=SC2086
  "$dir/bin/opd_elementwise" --benchmark_repetitions=5 --benchmark_min_time=0.2 \
    --benchmark_enable_random_interleaving=true --benchmark_report_aggregates_only=true ${OPD_BENCH_ARGS:-}
fi

if [ -n "${WITH_COMPILE:-}" ]; then
  echo "=== compile time"
  bench/schema_compile/run.sh
fi
