#!/usr/bin/env bash
# The README's main job: install what is missing, build, and run spmesh on a bundled mesh.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh
spmesh_install_missing
spmesh_build release
./build/release/apps/spmesh info "${1:-data/meshes/torus.obj}"
