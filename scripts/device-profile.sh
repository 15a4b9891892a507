#!/usr/bin/env bash
# On the device machine: per-kernel GPU time, registers, occupancy, DRAM, L2 and L1 bytes,
# instructions and throughput (Nsight Compute, ncu) of spmesh_bench_subdivision levels, after
# scripts/device-test.sh has built build/device. Writes $OUT/ncu_<mesh>.csv (raw) and prints a
# summary of the kernels over 5 us.
#   PROFILE_MESH    mesh:level, several separated by spaces (default: ArmorGuy level 6)
#   PROFILE_KERNELS ncu kernel-name regex (default: the Catmull-Clark quad path)
#   PROFILE_COUNT   profile at most this many kernel launches per mesh (default: no limit)
#   PROFILE_ARGS    more bench arguments (e.g. --scheme loop)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/device-profiling.sh
metrics=gpu__time_duration.sum,launch__registers_per_thread,dram__bytes.sum,lts__t_bytes.sum,l1tex__t_bytes.sum
metrics+=,launch__grid_size,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
metrics+=,gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed
for mesh in ${PROFILE_MESH:-.device-shared/meshes/characters/ArmorGuy.obj:6}; do
  csv="$out/ncu_$(basename "${mesh%:*}" .obj)_${mesh##*:}.csv"
  bench_on "$mesh"
  ncu --kernel-name-base demangled -k "regex:${PROFILE_KERNELS:-Quad|Refine}" \
    ${PROFILE_COUNT:+-c "$PROFILE_COUNT"} --metrics "$metrics" --csv --page raw \
    "${bench[@]}" ${PROFILE_ARGS:-} > "$csv"
  echo "== $mesh"
  python3 - "$csv" <<'PY'
import csv, re, sys
lines = open(sys.argv[1]).read().splitlines()
rows = list(csv.reader(lines[next(i for i, l in enumerate(lines) if l.startswith('"ID"')):]))
head = rows[0]
def num(r, name):
    return float(r[head.index(name)].replace(",", "") or 0)
seen = set()
for r in rows[2:]:
    if len(r) < len(head): continue
    name = re.sub(r"\(.*$", "", r[head.index("Kernel Name")])[-70:]
    key = (name, r[head.index("launch__grid_size")])
    us = num(r, "gpu__time_duration.sum") / 1e3
    if key in seen or us < 5: continue
    seen.add(key)
    print(f"{us:9.1f} us  DRAM {num(r, 'dram__bytes.sum') / 1e6:7.0f} MB  L2 {num(r, 'lts__t_bytes.sum') / 1e6:7.0f} MB  "
          f"L1 {num(r, 'l1tex__t_bytes.sum') / 1e6:7.0f} MB  inst {num(r, 'smsp__inst_executed.sum') / 1e6:6.1f}M  "
          f"mem {num(r, 'gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed'):5.1f}%  "
          f"regs {r[head.index('launch__registers_per_thread')]:>3}  "
          f"occupancy {num(r, 'sm__warps_active.avg.pct_of_peak_sustained_active'):5.1f}%  "
          f"grid {r[head.index('launch__grid_size')]:>8}  {name}")
PY
done
