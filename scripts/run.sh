#!/usr/bin/env bash
# The README's main job: install what is missing, build, and subdivide a bundled mesh with
# creases four levels (Catmull-Clark); writes the refined mesh and an SVG picture of it.
#   scripts/run.sh [MESH [LEVELS]]     (default data/meshes/creased_cube.obj, 4)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh
spmesh_install_missing
spmesh_build release spmesh
mesh=${1:-data/meshes/creased_cube.obj}
levels=${2:-4}
out=build/main-job
mkdir -p "$out"
name=$(basename "${mesh%.*}")
./build/release/apps/spmesh info "$mesh"
./build/release/apps/spmesh subdivide "$mesh" --levels "$levels" -o "$out/$name-L$levels.obj" \
  --picture "$out/$name-L$levels.svg"
echo "refined mesh: $out/$name-L$levels.obj; open $out/$name-L$levels.svg in a browser to look at it"
