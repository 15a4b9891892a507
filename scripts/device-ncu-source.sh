#!/usr/bin/env bash
# On the device machine, after build/device has spmesh_bench_subdivision: Nsight Compute's
# instruction counts per SASS instruction (its source page) of the first launch of the kernel
# matching PROFILE_KERNELS (default: the patch kernel) at MESH:LEVEL (PROFILE_MESH, default
# ArmorGuy level 6). Writes $OUT/ncu_source.csv and prints the totals per opcode and the
# instructions executed most.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/device-profiling.sh
bench_on "${PROFILE_MESH:-.device-shared/meshes/characters/ArmorGuy.obj:6}"
ncu --kernel-name-base demangled -k "regex:${PROFILE_KERNELS:-PatchPoints}" -c 1 \
  --section SourceCounters --page source --print-source sass --csv "${bench[@]}" > "$out/ncu_source.csv"
python3 - "$out/ncu_source.csv" <<'PY'
import csv, collections, sys
lines = open(sys.argv[1]).read().splitlines()
start = next(i for i, l in enumerate(lines) if l.startswith('"Address"') or l.startswith('"#"'))
rows = list(csv.DictReader(lines[start:]))
head = list(rows[0].keys())
print("columns:", head)
count = next(h for h in head if h.startswith("Instructions Executed"))
source = next(h for h in head if h == "Source")
def num(s):
    try: return float(s.replace(",", ""))
    except ValueError: return 0.0
total = sum(num(r[count]) for r in rows)
by_op = collections.Counter()
for r in rows:
    tokens = r[source].split() or ["?"]
    op = tokens[1] if tokens[0].startswith("@") and len(tokens) > 1 else tokens[0]
    by_op[op.split(".")[0]] += num(r[count])
print(f"total warp instructions executed: {total:.4g}")
for op, n in by_op.most_common(25): print(f"  {op:12s} {n / total * 100:5.1f}%")
print("most executed:")
for i, r in sorted(enumerate(rows), key=lambda x: -num(x[1][count]))[:50]:
    print(f"  {i:5d} {num(r[count]):10.4g}  {r[source]}")
PY
