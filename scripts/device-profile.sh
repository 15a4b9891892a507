#!/usr/bin/env bash
# On the device machine: per-kernel GPU time, registers, occupancy and DRAM bytes (Nsight
# Compute, ncu) of one spmesh_bench_subdivision level, after scripts/device-test.sh has built
# build/device. Writes $OUT/ncu.csv (raw) and prints a summary of the kernels over 20 us.
#   PROFILE_MESH    mesh:level (default: ArmorGuy level 6)
#   PROFILE_KERNELS ncu kernel-name regex (default: the Catmull-Clark quad path)
#   PROFILE_ARGS    more bench arguments (e.g. --scheme loop)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-build/device-out}
mkdir -p "$out"
prefix=$(realpath "${SPMESH_DEPS:-.device-deps}/usr" 2>/dev/null || true)
[[ -n $prefix ]] && export LD_LIBRARY_PATH="$prefix/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
mesh=${PROFILE_MESH:-.device-shared/meshes/characters/ArmorGuy.obj:6}
ncu --kernel-name-base demangled -k "regex:${PROFILE_KERNELS:-Quad|Refine}" \
  --metrics gpu__time_duration.sum,launch__registers_per_thread,dram__bytes.sum,launch__grid_size,sm__warps_active.avg.pct_of_peak_sustained_active \
  --csv --page raw build/device/bench/spmesh_bench_subdivision --mesh "$mesh" --min-level "${mesh##*:}" \
  --cpu-max-level 0 --peer-max-level 0 --compose-max-level 0 --budget-ms 1 ${PROFILE_ARGS:-} \
  > "$out/ncu.csv"
python3 - "$out/ncu.csv" <<'PY'
import csv, re, sys
lines = open(sys.argv[1]).read().splitlines()
rows = list(csv.reader(lines[next(i for i, l in enumerate(lines) if l.startswith('"ID"')):]))
head = rows[0]
col = {n: head.index(n) for n in ["Kernel Name", "gpu__time_duration.sum", "launch__registers_per_thread",
                                  "dram__bytes.sum", "launch__grid_size",
                                  "sm__warps_active.avg.pct_of_peak_sustained_active"]}
seen = set()
for r in rows[2:]:
    if len(r) <= col["gpu__time_duration.sum"]: continue
    name = re.sub(r"\(.*$", "", r[col["Kernel Name"]])[-70:]
    key = (name, r[col["launch__grid_size"]])
    us = float(r[col["gpu__time_duration.sum"]].replace(",", "")) / 1e3
    if key in seen or us < 20: continue
    seen.add(key)
    print(f"{us:9.1f} us  {float(r[col['dram__bytes.sum']].replace(',', '')) / 1e6:8.0f} MB  "
          f"regs {r[col['launch__registers_per_thread']]:>3}  occupancy {r[col['sm__warps_active.avg.pct_of_peak_sustained_active']]:>6}%  "
          f"grid {r[col['launch__grid_size']]:>8}  {name}")
PY
