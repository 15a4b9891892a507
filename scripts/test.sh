#!/usr/bin/env bash
# The README's test command: install what is missing, build with warnings as errors, run every
# test. SPMESH_PRESET=cpu builds without the CUDA backend even where nvcc exists.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh
preset=${SPMESH_PRESET:-ci}
spmesh_install_missing
spmesh_build "$preset"
ctest --preset "$preset" -j "$(nproc)"
