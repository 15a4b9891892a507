# Shared by run.sh and test.sh: install missing Debian packages, then configure and build.
# Sourced, not executed.

# Debian 12 packages spmesh needs to build and test (OpenSubdiv, CGAL, OpenMesh: the parity
# tests and benchmark peers; meshio: the volume-mesh readers' reference; gmsh: the volume
# meshes' other writer, whose files the readers are checked on, and the benchmark's mesh maker;
# zlib: compressed .vtu input; CUDA is optional and not installed here).
SPMESH_PACKAGES=(g++ cmake ninja-build libeigen3-dev libfmt-dev doctest-dev libosd-dev libcgal-dev
                 libopenmesh-dev python3 python3-meshio gmsh zlib1g-dev)

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

# spmesh_build PRESET [TARGET...]: configure (once) and build (everything, or the targets) with
# every core.
spmesh_build() {
  local preset=$1; shift
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j "$(nproc)" ${1:+--target "$@"}
}
