#!/usr/bin/env bash
# tests/downstream/check.sh BUILD MESH: installs the spmesh build BUILD into a scratch prefix,
# configures and builds tests/downstream against it with find_package(spmesh) (and asks for a
# component the build lacks, which must fail), then runs the program on MESH.
set -euo pipefail
build=$1 mesh=$2
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cmake --install "$build" --prefix "$scratch/prefix" > "$scratch/install.log"
test -f "$scratch/prefix/lib/cmake/spmesh/spmeshConfig.cmake"
test -f "$scratch/prefix/include/spmesh/linalg/formats.hpp"
test -x "$scratch/prefix/bin/spmesh"
cmake -S "$here" -B "$scratch/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$scratch/prefix" \
  > "$scratch/configure.log" || { cat "$scratch/configure.log"; exit 1; }
cmake --build "$scratch/build" > "$scratch/build.log" || { cat "$scratch/build.log"; exit 1; }
"$scratch/build/downstream" "$mesh"
# With the Python package: the installed one imports and subdivides (the python that built it).
python=$(sed -n 's/^Python_EXECUTABLE:[A-Z]*=//p' "$build/CMakeCache.txt")
if grep -q "set(spmesh_python_FOUND ON)" "$scratch/prefix/lib/cmake/spmesh/spmeshConfig.cmake"; then
  PYTHONPATH="$(echo "$scratch"/prefix/lib*/spmesh/python)" "$python" -c "
import spmesh, sys
fine = spmesh.subdivide(spmesh.read_mesh(sys.argv[1]), levels=1)
assert fine.faces.shape[0] == 4 * spmesh.read_mesh(sys.argv[1]).faces.shape[0]
print('downstream: the installed Python package subdivides', spmesh.__file__)" "$mesh"
fi
# A component the package does not have is refused at find_package: cuda or python where the
# build lacks one, else one that no build has.
config="$scratch/prefix/lib/cmake/spmesh/spmeshConfig.cmake"
missing=imaginary
for component in cuda python; do
  grep -q "set(spmesh_${component}_FOUND ON)" "$config" || { missing=$component; break; }
done
mkdir -p "$scratch/want"
printf 'cmake_minimum_required(VERSION 3.25)\nproject(want LANGUAGES CXX)\nfind_package(spmesh REQUIRED COMPONENTS %s)\n' \
  "$missing" > "$scratch/want/CMakeLists.txt"
if cmake -S "$scratch/want" -B "$scratch/want/build" -DCMAKE_PREFIX_PATH="$scratch/prefix" > "$scratch/want.log" 2>&1; then
  echo "find_package(spmesh COMPONENTS $missing) succeeded on a package without it"; exit 1
fi
grep -q "$missing" "$scratch/want.log" || { echo "find_package(spmesh) failed for another reason:"; cat "$scratch/want.log"; exit 1; }
echo "downstream: find_package(spmesh COMPONENTS $missing) refused, as it should be"
