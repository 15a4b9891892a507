#!/usr/bin/env bash
# On the device machine, after scripts/device-test.sh has built build/device: each kernel's time
# and DRAM bytes (Nsight Compute) over one build and eval of a volume mesh to a level
# (spmesh_bench_solids --profile), summed by kernel by scripts/ncu_summary.py. Writes
# $OUT/ncu_solids.csv (raw) and $OUT/ncu_solids.txt (the summary).
#   PROFILE_MESH  path:level (default: the cylinder of bench/meshes/cylinder_hex.geo, level 3)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/device-profiling.sh
ncu --clock-control none --csv --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum \
  build/device/bench/spmesh_bench_solids --profile "${PROFILE_MESH:-.device-shared/bench/cylinder_hex.mesh:3}" \
  > "$out/ncu_solids.csv"
scripts/ncu_summary.py "$out/ncu_solids.csv" | tee "$out/ncu_solids.txt"
