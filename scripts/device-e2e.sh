#!/usr/bin/env bash
# The command line end to end on the GPU machine (bench/RESULTS.md "Command line end to end"):
# subdivide to a PLY against writing the same number of bytes alone, build's refinement file
# (size, time) and replay of 1 and of 50 poses, each timed as a user would see it beside dd
# writing the same bytes.
#   scripts/device-e2e.sh SPMESH SHARED_DIR OUT_DIR [LEVEL]   (LEVEL: default 6)
set -uo pipefail
spmesh=$1 shared=$2 out=$3 level=${4:-6}
mesh=$shared/meshes/characters/ArmorGuy.obj
work=${E2E_DIR:-build/e2e}
rm -rf "$work" && mkdir -p "$work"
calc() { python3 -c "print(f'{$1:.3f}')"; }
seconds() { local t0=$(date +%s.%N); "$@" >"$work/last.log" 2>&1; local rc=$?; calc "$(date +%s.%N) - $t0"; return $rc; }
report() { echo "$*" | tee -a "$out/e2e.txt"; }
: >"$out/e2e.txt"
nproc | xargs -I{} echo "cores: {}" | tee -a "$out/e2e.txt"

# Twice each, alternating: the spread between runs is part of what a user sees.
for device in cuda cpu cuda cpu; do
  t=$(seconds "$spmesh" subdivide "$mesh" --levels "$level" -o "$work/out.ply" --device "$device") ||
    { cat "$work/last.log"; exit 1; }
  report "subdivide ArmorGuy L$level --device $device -o out.ply: $t s; $(tail -1 "$work/last.log")"
  bytes=$(stat -c %s "$work/out.ply")
  rm -f "$work/out.ply"
  # The same bytes written alone, as one stream from memory (dd from /dev/zero, 16 MiB blocks).
  w=$(seconds dd if=/dev/zero of="$work/alone.bin" bs=16M count=$(((bytes + 16777215) / 16777216)))
  report "  write $bytes bytes alone: $w s; ratio $(calc "$t / $w")"
  rm -f "$work/alone.bin"
done

t=$(seconds "$spmesh" build "$mesh" --levels "$level" -o "$work/r.spr" --device cuda) ||
  { cat "$work/last.log"; exit 1; }
report "build ArmorGuy L$level --device cuda: $t s, $(stat -c %s "$work/r.spr") bytes; $(tail -1 "$work/last.log")"
# replay_poses FILE LEVEL COUNT: COUNT poses (links to the mesh) replayed to PLY in one call,
# then the same bytes written alone by dd, one file a pose.
replay_poses() {
  rm -rf "$work/poses" "$work/frames" && mkdir -p "$work/poses" "$work/frames"
  for k in $(seq -w 1 "$3"); do ln -s "$(realpath "$mesh")" "$work/poses/pose$k.obj"; done
  t=$(seconds "$spmesh" replay "$1" "$work/poses"/*.obj -o "$work/frames" --format ply --device cuda) ||
    { cat "$work/last.log"; exit 1; }
  report "replay $3 poses at L$2 --device cuda: $t s; $(tail -1 "$work/last.log")"
  local bytes=$(stat -c %s "$(ls "$work"/frames/*.ply | head -1)")
  rm -rf "$work/frames" && mkdir -p "$work/frames"
  w=$(seconds bash -c "for k in \$(seq $3); do dd if=/dev/zero of=$work/frames/\$k.bin bs=16M \
        count=$(((bytes + 16777215) / 16777216)) 2>/dev/null || exit 1; done")
  report "  write $3 x $bytes bytes alone: $w s; ratio $(calc "$t / $w")"
  rm -rf "$work/frames"
}
replay_poses "$work/r.spr" "$level" 1
# 50 poses of level 6 write 51 GB: past the page cache's dirty limit, writes wait for the disk,
# for dd as for spmesh. Where the disk lacks the room, 50 poses of the level below.
# (The level's PLY is as large as subdivide's above: $bytes.)
if (($(df --output=avail -B1 "$work" | tail -1) > 50 * bytes + (4 << 30))); then
  replay_poses "$work/r.spr" "$level" 50
else
  report "replay 50 poses at L$level: not run, $(df -h --output=avail "$work" | tail -1) free on the disk"
  rm -f "$work/r.spr"
  "$spmesh" build "$mesh" --levels $((level - 1)) -o "$work/r.spr" --device cuda >/dev/null || exit 1
  replay_poses "$work/r.spr" $((level - 1)) 50
fi
rm -rf "$work"
