#!/usr/bin/env bash
# The Python package as a user installs it from a clean clone: `pip install .` into the virtual
# environment of spmesh_python_env (common.sh), then pytest over tests/python against the
# installed package (ctest's python_package runs the same tests on a build's staged package; this
# checks the wheel: pyproject.toml, the install rules). The bindings run on the CPU, so
# the package is built without CUDA here (SPMESH_PYTHON_CUDA=AUTO builds it where nvcc is, as
# a user's `pip install .` does); SPMESH_PYTHON_BUILD_DIR keeps the build between runs (default:
# a fresh one, as on a clean clone).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh
python=$(spmesh_python_env)
build_dir=${SPMESH_PYTHON_BUILD_DIR:-$(mktemp -d)}
"$python" -m pip install -q --no-build-isolation . \
  --config-settings=cmake.define.SPMESH_CUDA="${SPMESH_PYTHON_CUDA:-OFF}" \
  --config-settings=build-dir="$build_dir"
# From outside the source tree, so that `import spmesh` is the installed package.
cd tests/python && "$python" -m pytest -q -p no:cacheprovider .
