#!/usr/bin/env bash
# The README's test command: install what is missing, build with warnings as errors, run every
# test with ctest. The Python environment of common.sh (PyPI: numpy, scipy, pytest, libigl,
# nanobind) serves the libigl cross-checks and the Python package, which the build then
# includes (its pytest suite is ctest's python_package). SPMESH_PRESET=cpu builds without the
# CUDA backend even where nvcc exists; SPMESH_SKIP_PYTHON=1 leaves Python out (the sanitizer
# run: a Python module cannot load ASan's runtime). Where no GPU answers (nvidia-smi), the GPU
# tests and the benchmarks' GPU halves are not built (unless SPMESH_BUILD_GPU_TESTS=ON): they could
# only be skipped, and they are most of nvcc's compile time.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh
preset=${SPMESH_PRESET:-ci}
spmesh_install_missing
if [[ ${SPMESH_SKIP_PYTHON:-0} != 1 ]]; then
  SPMESH_PYTHON=$(spmesh_python_env)
  export SPMESH_PYTHON
  SPMESH_CMAKE_ARGS="-DSPMESH_BUILD_PYTHON=ON -DPython_EXECUTABLE=$SPMESH_PYTHON"
fi
gpu_tests=${SPMESH_BUILD_GPU_TESTS:-}
if [[ -z $gpu_tests ]]; then
  gpu_tests=ON
  if ! nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
    gpu_tests=OFF
    echo "test.sh: no GPU answers here: GPU tests and GPU benchmarks not built (SPMESH_BUILD_GPU_TESTS=ON builds them)"
  fi
fi
SPMESH_CMAKE_ARGS="${SPMESH_CMAKE_ARGS:-} -DSPMESH_BUILD_GPU_TESTS=$gpu_tests"
spmesh_build "$preset"
ctest --preset "$preset" -j "$(nproc)"
