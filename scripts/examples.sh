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
shopt -s nullglob
for exe in "$dir"/bin/example_*; do
  if [ ! -f "$exe" ] || [ ! -x "$exe" ]; then continue; fi
  count=$((count + 1))
  echo "=== $exe"
  if timeout 300 "$exe"; then
    echo "--- ok: $(basename "$exe")"
  else
    rc=$?
    echo "--- FAILED (exit $rc): $(basename "$exe")"
    failed+=("$(basename "$exe")")
  fi
done

# The Python examples, against the module the build made (when it made one).
for py in examples/*.py; do
  if [ ! -d "$dir/python/opdispatch" ]; then break; fi
  count=$((count + 1))
  echo "=== $py"
  if PYTHONPATH="$dir/python" timeout 300 /usr/bin/python3 "$py"; then
    echo "--- ok: $(basename "$py")"
  else
    rc=$?
    echo "--- FAILED (exit $rc): $(basename "$py")"
    failed+=("$(basename "$py")")
  fi
done

echo "examples: $count run, ${#failed[@]} failed${failed:+: ${failed[*]}}"
[ ${#failed[@]} -eq 0 ]
