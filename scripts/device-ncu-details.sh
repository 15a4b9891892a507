#!/usr/bin/env bash
# On the device machine, after build/device exists: Nsight Compute's details (speed of light,
# warp states, memory workload) of the first launch of the kernels matching PROFILE_KERNELS on
# spmesh_bench_subdivision's level MESH:LEVEL; prints them and writes $OUT/ncu_details_<mesh>.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/device-profiling.sh
for mesh in ${PROFILE_MESH:-.device-shared/meshes/characters/ArmorGuy.obj:6}; do
  bench_on "$mesh"
  ncu --kernel-name-base demangled -k "regex:${PROFILE_KERNELS:-tile}" -c "${PROFILE_COUNT:-1}" \
    --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis --section Occupancy \
    "${bench[@]}" ${PROFILE_ARGS:-} | tee "$out/ncu_details_$(basename "${mesh%:*}" .obj)_${mesh##*:}.txt" | grep -vE "^\s*$|----" | tail -80
done
