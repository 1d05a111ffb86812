#!/usr/bin/env bash
# Build (g++, build/gcc) and run every build/gcc/bin/example_* executable and
# every examples/*.py (PYTHONPATH=build/gcc/python).
# Env: OPD_BUILD_DIR (default build/gcc), OPD_CXX (default g++),
#      OPD_BUILD_TYPE (default Debug), OPD_JOBS (default 2).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh

dir=${OPD_BUILD_DIR:-build/gcc}
cmake -S . -B "$dir" -G Ninja -DCMAKE_CXX_COMPILER="${OPD_CXX:-g++}" \
  -DCMAKE_BUILD_TYPE="${OPD_BUILD_TYPE:-Debug}" -DOPD_BUILD_EXAMPLES=ON
cmake --build "$dir" --parallel "${OPD_JOBS:-2}"

failed=()
count=0
run_example() {  # <name> <command...>
  count=$((count + 1))
  echo "=== $1"
  if timeout 300 "${@:2}"; then
    echo "--- ok: $1"
  else
    echo "--- FAILED (exit $?): $1"
    failed+=("$1")
  fi
}
shopt -s nullglob
for exe in "$dir"/bin/example_*; do
  if [ ! -f "$exe" ] || [ ! -x "$exe" ]; then continue; fi
  run_example "$(basename "$exe")" "$exe"
done
# The Python examples, against the module the build made (when it made one).
if [ -d "$dir/python/opdispatch" ]; then
  for py in examples/*.py; do
    run_example "$(basename "$py")" env PYTHONPATH="$dir/python" /usr/bin/python3 "$py"
  done
fi

echo "examples: $count run, ${#failed[@]} failed${failed:+: ${failed[*]}}"
[ ${#failed[@]} -eq 0 ]
