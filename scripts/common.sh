# Shared by run.sh and test.sh: install missing Debian packages, then configure and build.
# Sourced, not executed.

# Debian 12 packages spmesh needs to build and test (OpenSubdiv, CGAL, OpenMesh: the parity
# tests and benchmark peers; meshio: the volume-mesh readers' reference; gmsh: the volume
# meshes' other writer, whose files the readers are checked on, and the benchmark's mesh maker;
# zlib: compressed .vtu input; python3-venv: the Python package's environment; CUDA is optional
# and not installed here).
SPMESH_PACKAGES=(g++ cmake ninja-build libeigen3-dev libfmt-dev doctest-dev libosd-dev libcgal-dev
                 libopenmesh-dev python3 python3-meshio python3-venv gmsh zlib1g-dev)

spmesh_install_missing() {
  local missing=()
  for p in "${SPMESH_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]})); then
    echo "spmesh: installing missing packages: ${missing[*]}"
    local sudo=""
    [[ $(id -u) -ne 0 ]] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
}

# spmesh_build PRESET [TARGET...]: configure (once; SPMESH_CMAKE_ARGS are added to it) and build
# (everything, or the targets) with every core.
spmesh_build() {
  local preset=$1; shift
  cmake --preset "$preset" ${SPMESH_CMAKE_ARGS:-} >/dev/null
  cmake --build --preset "$preset" -j "$(nproc)" ${1:+--target "$@"}
}

# spmesh_python_env: a virtual environment (build/venv, SPMESH_VENV elsewhere) with what the
# Python package and the libigl cross-checks need from PyPI (numpy, scipy, pytest, libigl, and
# the package's build backend), made once; prints its python.
spmesh_python_env() {
  local venv=${SPMESH_VENV:-build/venv}
  if [[ ! -x $venv/bin/python ]] || ! "$venv/bin/python" -c "import numpy, scipy, pytest, igl" 2>/dev/null; then
    python3 -m venv "$venv" >&2
    "$venv/bin/pip" install -q numpy scipy pytest libigl scikit-build-core nanobind >&2
  fi
  echo "$(cd "$venv/bin" && pwd)/python"  # not realpath: the link is what makes it the venv's
}
