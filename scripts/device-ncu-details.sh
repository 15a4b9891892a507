#!/usr/bin/env bash
# On the device machine, after build/device exists: Nsight Compute's details (speed of light,
# warp states, memory workload) of the first launch of the kernels matching PROFILE_KERNELS on
# spmesh_bench_subdivision's level MESH:LEVEL; prints them and writes $OUT/ncu_details_<mesh>.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-build/device-out}
prefix=$(realpath "${SPMESH_DEPS:-.device-deps}/usr" 2>/dev/null || true)
[[ -n $prefix ]] && export LD_LIBRARY_PATH="$prefix/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
for mesh in ${PROFILE_MESH:-.device-shared/meshes/characters/ArmorGuy.obj:6}; do
  ncu --kernel-name-base demangled -k "regex:${PROFILE_KERNELS:-tile}" -c "${PROFILE_COUNT:-1}" \
    --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis --section Occupancy \
    build/device/bench/spmesh_bench_subdivision --mesh "$mesh" --min-level "${mesh##*:}" \
    --cpu-max-level 0 --peer-max-level 0 --compose-max-level 0 --budget-ms 1 ${PROFILE_ARGS:-} \
    | tee "$out/ncu_details_$(basename "${mesh%:*}" .obj)_${mesh##*:}.txt" | grep -vE "^\s*$|----" | tail -80
done
