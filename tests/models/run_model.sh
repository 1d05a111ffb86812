#!/bin/sh
# One model test: runs <graph dir>/<model>.json through opd-run and compares
# its outputs with PyTorch's (<model>.io.json, relative 1e-4).
#   run_model.sh <opd-run> <graph dir> <model>
# Exit 77 (the test's SKIP_RETURN_CODE) when the graph was not exported (no
# /usr/bin/python3 with torch and torchvision: see <graph dir>/export.log) or
# when the library lacks operators of the model (opd-run exits 3 and lists
# them); otherwise opd-run's status.
run=$1 dir=$2 model=$3
if [ ! -f "$dir/$model.json" ]; then
  echo "$model: no graph in $dir (the export needs /usr/bin/python3 with torch and torchvision; see $dir/export.log)"
  exit 77
fi
"$run" "$dir/$model.json" --io "$dir/$model.io.json" --rtol 1e-4
rc=$?
if [ "$rc" -eq 3 ]; then
  echo "$model: skipped, the library lacks the operators listed above (docs/models.md)"
  exit 77
fi
exit "$rc"
