#!/usr/bin/env bash
# The host-memory guard end to end:
# 1. spmesh's host estimate (what read_input checks, what --dry-run prints) bounds the peak
#    resident memory of `subdivide` and `build` on the CPU, in float and double, at every level
#    of the benchmark meshes that runs in about a second: the bundled meshes and, where
#    SHARED_DIR has them, the character meshes (Catmull-Clark; Loop and sqrt3 on triangulated
#    ones), and of `subdivide` on volume meshes (Catmull-Clark solids with their boundary
#    surface and picture: the bundled block, the shared sphere, and the shared extruded disc
#    with its curves sharp). A table of peak / estimate goes to stdout.
# 2. A run whose estimate exceeds the process limit (ulimit -v) is refused before any work:
#    exit 1, one line naming both sizes and the limit, no output file.
#   tests/apps/host_memory.sh SPMESH PROBE DATA_DIR [SHARED_DIR]
set -uo pipefail
spmesh=$1 probe=$2 data=$3 shared=${4:-}
if [[ -n ${SPMESH_SANITIZED:-} ]]; then  # AddressSanitizer's shadow memory is not spmesh's
  echo "skipped: a sanitized build's memory is the sanitizer's as much as spmesh's"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0 cases=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
mib() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }

# check COMMAND MESH LEVELS PRECISION [OPTIONS...]: the estimate bounds the measured peak.
check() {
  local command=$1 mesh=$2 levels=$3 precision=$4; shift 4
  local out=$tmp/out.obj; [[ $command == build ]] && out=$tmp/out.spr
  local args=("$mesh" --levels "$levels" --precision "$precision" -o "$out" "$@")
  local estimate
  estimate=$("$probe" estimate "$command" "${args[@]}") || { fail "$command ${args[*]}: no estimate"; return; }
  if [[ $command == subdivide ]]; then  # --dry-run prints the same estimate
    "$spmesh" subdivide "${args[@]}" --dry-run >"$tmp/dry.txt" 2>&1
    grep -q "about $(mib "$estimate") MiB of host memory, .* MiB available (.*): fits" "$tmp/dry.txt" ||
      fail "$command ${args[*]} --dry-run: $(tail -1 "$tmp/dry.txt"), expected $(mib "$estimate") MiB"
  fi
  "$probe" peak "$tmp/peak" "$spmesh" "$command" "${args[@]}" >/dev/null 2>"$tmp/stderr" ||
    { fail "$command ${args[*]}: $(cat "$tmp/stderr")"; return; }
  local peak; peak=$(cat "$tmp/peak")
  cases=$((cases + 1))
  local scheme; scheme=$(echo "$*" | sed -n 's/.*--scheme \([a-z0-9]*\).*/\1/p')
  printf '%-16s %-9s %-7s L%-2s %-6s peak %8s MiB  estimate %8s MiB  %s\n' "$(basename "$mesh")" \
    "$command" "${scheme:-catmark}" "$levels" "$precision" \
    "$(mib "$peak")" "$(mib "$estimate")" "$(awk -v p="$peak" -v e="$estimate" 'BEGIN { printf "%.2f", p / e }')"
  ((peak <= estimate)) || fail "$command ${args[*]}: peak $(mib "$peak") MiB over the estimate $(mib "$estimate") MiB"
}

# levels MESH COMMAND MAX [OPTIONS...]: check at levels 0..MAX, float and double.
levels() {
  local mesh=$1 command=$2 max=$3; shift 3
  for ((l = 0; l <= max; ++l)); do
    for precision in float double; do check "$command" "$mesh" "$l" "$precision" "$@"; done
  done
}

# The bundled meshes (sqrt3 on the tent and the torus: the character meshes have creases).
levels "$data/meshes/cube.obj" subdivide 8
check subdivide "$data/meshes/cube.obj" 9 float  # 1.6M faces, about 120 MiB
levels "$data/meshes/cube.obj" build 6
levels "$data/meshes/creased_cube.obj" build 5
levels "$data/meshes/torus.obj" subdivide 5
levels "$data/meshes/torus.obj" build 4
levels "$data/meshes/tent.obj" subdivide 5 --scheme loop --triangulate fan
levels "$data/meshes/tent.obj" build 5 --scheme sqrt3 --triangulate shortest-diagonal
levels "$data/meshes/torus.obj" subdivide 4 --scheme sqrt3 --triangulate fan

# volume MESH MAX [ARGS...]: Catmull-Clark solids (subdivide of a .mesh, with its boundary surface
# and picture, and ARGS) at levels 0..MAX, float and double: the estimate --dry-run prints bounds
# the measured peak.
volume() {
  local mesh=$1 max=$2; shift 2
  for ((l = 0; l <= max; ++l)); do
    for precision in float double; do
      local args=("$mesh" --levels "$l" --precision "$precision" -o "$tmp/out.vtu" --surface "$tmp/out.ply"
                  --picture "$tmp/out.svg" "$@")
      "$spmesh" subdivide "${args[@]}" --dry-run >"$tmp/dry.txt" 2>&1 || { fail "volume ${args[*]} --dry-run: $(cat "$tmp/dry.txt")"; continue; }
      local estimate
      estimate=$(sed -n 's/.*about \([0-9.]*\) MiB of host memory.*/\1/p' "$tmp/dry.txt" | awk '{ printf "%.0f", $1 * 1048576 }')
      "$probe" peak "$tmp/peak" "$spmesh" subdivide "${args[@]}" >/dev/null 2>"$tmp/stderr" ||
        { fail "volume ${args[*]}: $(cat "$tmp/stderr")"; continue; }
      local peak; peak=$(cat "$tmp/peak")
      cases=$((cases + 1))
      printf '%-16s %-9s %-7s L%-2s %-6s peak %8s MiB  estimate %8s MiB  %s\n' "$(basename "$mesh")" subdivide \
        ccsolid "$l" "$precision" "$(mib "$peak")" "$(mib "$estimate")" \
        "$(awk -v p="$peak" -v e="$estimate" 'BEGIN { printf "%.2f", p / e }')"
      ((peak <= estimate)) || fail "volume ${args[*]}: peak $(mib "$peak") MiB over the estimate $(mib "$estimate") MiB"
    done
  done
}
volume "$data/meshes/block.mesh" 4

# The character meshes, where the shared folder is present.
characters=$shared/meshes/characters
if [[ -n $shared && -f $characters/Bigguy.obj ]]; then
  levels "$characters/Bigguy.obj" subdivide 3
  levels "$characters/Bigguy.obj" build 2
  levels "$characters/ArmorGuy.obj" subdivide 2
  levels "$characters/ArmorGuy.obj" build 1
  levels "$characters/Rook.obj" build 3
  levels "$characters/bigguyT.obj" subdivide 3 --scheme loop
  levels "$characters/rookT.obj" build 3 --scheme loop
else
  echo "note: no $characters; the character meshes are skipped"
fi
if [[ -n $shared && -f $shared/meshes/hex/sphere_allhex.mesh ]]; then
  volume "$shared/meshes/hex/sphere_allhex.mesh" 3
  volume "$shared/meshes/hex/disc_extrude.mesh" 3 --sharp-edges  # creases: its curves
fi

# Refused before any work under a process limit: cube 10 levels needs about 600 MiB.
(
  ulimit -v 400000  # KiB: 390 MiB of address space
  "$spmesh" subdivide "$data/meshes/cube.obj" --levels 10 -o "$tmp/refused.obj" \
    >"$tmp/stdout" 2>"$tmp/stderr"
  echo $? >"$tmp/rc"
)
[[ $(cat "$tmp/rc") -eq 1 ]] || fail "over the limit: exit code $(cat "$tmp/rc"), expected 1"
[[ $(wc -l <"$tmp/stderr") -eq 1 ]] || fail "over the limit: stderr is not one line: $(cat "$tmp/stderr")"
grep -Eq "cube.obj: catmark 10 levels need about [0-9.]+ MiB of host memory; [0-9.]+ MiB is available \(the process limit\)" "$tmp/stderr" ||
  fail "over the limit: $(cat "$tmp/stderr")"
[[ ! -e $tmp/refused.obj ]] || fail "over the limit: wrote the output"
ls "$tmp" | grep -q tmp- && fail "over the limit: left a temporary file"
echo "ok: refused under ulimit -v: $(cat "$tmp/stderr")"

# --dry-run under the same limit says it does not fit, and exits 0.
(
  ulimit -v 400000
  "$spmesh" subdivide "$data/meshes/cube.obj" --levels 10 -o "$tmp/refused.obj" --dry-run >"$tmp/dry.txt"
) || fail "dry-run under the limit failed"
grep -q "MiB available (the process limit): does not fit" "$tmp/dry.txt" || fail "dry-run under the limit: $(cat "$tmp/dry.txt")"

echo "$cases cases, $failures failures"
((failures == 0))
