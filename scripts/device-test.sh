#!/usr/bin/env bash
# On a machine with an NVIDIA GPU and nvcc but no package registry: configure a CUDA build,
# run every test (GPU tests included), run the benchmarks; logs and JSON go to $OUT.
#   SPMESH_DEPS   folder made by scripts/device-deps.sh (default .device-deps)
#   CUDA_ARCH     CMAKE_CUDA_ARCHITECTURES (default 90, H100)
#   BENCH_ARGS    extra arguments for spmesh_bench (CPU against Eigen; default: none)
#   CUDA_BENCH_ARGS  extra arguments for spmesh_bench_cuda (GPU against cuSPARSE; default: none)
#   SUBDIV_BENCH_ARGS extra arguments for spmesh_bench_subdivision (Catmull-Clark against
#                    OpenSubdiv; default: ArmorGuy 1-6 and Bigguy 1-7)
#   LOOP_BENCH_ARGS  extra arguments for spmesh_bench_subdivision --scheme loop (default:
#                    ArmorGuyT and bigguyT 1-5)
#   SQRT3_BENCH_ARGS extra arguments for spmesh_bench_subdivision --scheme sqrt3 (default:
#                    ArmorGuyT and bigguyT 1-6)
#   SKIP_SUBDIV_BENCH / SKIP_LOOP_BENCH / SKIP_SQRT3_BENCH  set to 1 to skip the Catmull-Clark /
#                    Loop / sqrt3 benchmark
#   SKIP_PHASES      set to 1 to skip spmesh_build_phases (the half-edge build step by step:
#                    Catmull-Clark ArmorGuy level 6 and Bigguy level 7, Loop ArmorGuyT 3 and 5,
#                    sqrt(3) ArmorGuyT 6)
#   SKIP_LAUNCH      set to 1 to skip spmesh_bench_launch (the host's cost per CUDA call)
#   SKIP_CPU_BENCH   set to 1 to run only the GPU benchmarks
#   SKIP_LINALG_BENCH set to 1 to skip spmesh_bench_cuda
#   SKIP_SOLIDS_BENCH set to 1 to skip spmesh_bench_solids (Catmull-Clark solids: sphere_allhex
#                    1-5 and, where the shared folder has bench/cylinder_hex.mesh, made by gmsh
#                    from bench/meshes/cylinder_hex.geo, the cylinder 1-3)
#   SKIP_SANITIZERS  set to 1 to skip compute-sanitizer memcheck and racecheck over the GPU test
#                    executables (SANITIZER_EXECUTABLES: grep -E pattern of their names,
#                    default: all; SANITIZER_TESTS: doctest -tc filter for them, default: all;
#                    SANITIZER_SECONDS: start no run after this many seconds, and fail)
#   SKIP_LIMITS_BENCH set to 1 to skip spmesh_bench_limits (the limit at the vertices of
#                    ArmorGuy and Bigguy levels 0-6, GPU and CPU, against OpenSubdiv)
#   SKIP_SOLID_LIMITS_BENCH set to 1 to skip spmesh_bench_solid_limits (the limit of Catmull-Clark
#                    solids at 4^3 and 8^3 samples a cell, GPU float and double and CPU double, by
#                    class and whole: sphere_allhex and disc_extrude levels 0-1 and a 47^3 grid;
#                    SOLID_LIMITS_BENCH_ARGS: extra arguments, e.g. --bandwidth-gbs for another GPU)
#   SKIP_PATCHES_BENCH set to 1 to skip spmesh_bench_patches (tensor-product Bezier surfaces in
#                    seed 001's setting, GPU and CPU; PATCHES_BENCH_ARGS: extra arguments)
#   SKIP_E2E         set to 1 to skip scripts/device-e2e.sh (the command line end to end;
#                    E2E_LEVEL, default 6)
#   SKIP_PYTHON_BENCH set to 1 to skip bench/python_overhead.py (the Python binding's cost over the
#                    C++ calls in the same process, SciPy and libigl as the peers, ArmorGuy at the
#                    levels PYTHON_BENCH_LEVELS, default "3 4 5": 1.1M, 4.4M and 17.6M triangles;
#                    needs the Python package: the build includes it where python3 has nanobind,
#                    and ctest then runs its pytest suite, GPU half included where CuPy is; libigl
#                    from the wheels of device-deps.sh, installed under build/device/site)
#   TESTS_REGEX      run only the tests whose names match (ctest -R); default: every test
#   SKIP_TESTS       set to 1 to run no test
#   BUILD_TARGETS    build only these targets (e.g. spmesh_bench_subdivision, for a profile)
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-build/device-out}
mkdir -p "$out"
deps=${SPMESH_DEPS:-.device-deps}
args=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DSPMESH_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCH:-90}")
if [[ -d $deps/usr ]]; then
  prefix=$(realpath "$deps/usr")
  export LD_LIBRARY_PATH="$prefix/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
  # doctest's CMake files name /usr/include; the include flag points at the unpacked headers.
  args+=(-DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_FLAGS="-isystem $prefix/include"
         -DCMAKE_CUDA_FLAGS="-isystem $prefix/include")
fi
if python3 -c "import nanobind" 2>/dev/null; then
  args+=(-DSPMESH_BUILD_PYTHON=ON -DPython_EXECUTABLE="$(command -v python3)")
fi
shared=../shared
[[ -d .device-shared ]] && shared=.device-shared && args+=(-DSPMESH_SHARED_DIR="$(realpath .device-shared)")

status=0
step() {  # step NAME COMMAND...: run, log to $out/NAME.log, remember failure
  local name=$1; shift
  echo "== $name: $*"
  "$@" 2>&1 | tee "$out/$name.log"
  local rc=${PIPESTATUS[0]}
  [[ $rc -eq 0 ]] || { echo "== $name FAILED ($rc)"; status=1; }
  return $rc
}

nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee "$out/gpu.txt"
step configure cmake -S . -B build/device "${args[@]}" || exit 1
step build cmake --build build/device -j "$(nproc)" ${BUILD_TARGETS:+--target $BUILD_TARGETS} || exit 1
# GPU tests share one device: a few processes at a time keep their memory pools from
# exhausting it (each caches what it freed; at 6 at a time one process once found no memory
# left to create its context).
[[ ${SKIP_TESTS:-0} == 1 ]] ||
  step tests ctest --test-dir build/device --output-on-failure -j 4 ${TESTS_REGEX:+-R "$TESTS_REGEX"}
[[ ${SKIP_E2E:-0} == 1 ]] ||
  step e2e scripts/device-e2e.sh build/device/apps/spmesh "$shared" "$out" "${E2E_LEVEL:-6}"
# The GPU tests under compute-sanitizer: memcheck (out of bounds, misaligned, leaks) and
# racecheck (shared-memory hazards). Each executable's failures fail the step.
[[ ${SKIP_SANITIZERS:-0} == 1 ]] ||
  step sanitizers bash -c 'status=0 start=$SECONDS
    for test in $(find build/device/tests -name "test_*_cuda*" -type f -executable | sort |
                  grep -E "${SANITIZER_EXECUTABLES:-.}"); do
      for tool in memcheck racecheck; do
        if ((SECONDS - start > ${SANITIZER_SECONDS:-100000})); then
          echo "-- $tool $test NOT RUN (past SANITIZER_SECONDS)"; status=1; continue
        fi
        echo "-- $tool $test"
        # memcheck: out-of-bounds and misaligned accesses, leaks; not the CUDA API errors that
        # the error tests provoke on purpose (they check those themselves).
        leaks=""; [[ $tool == memcheck ]] && leaks="--leak-check full --report-api-errors no"
        compute-sanitizer --tool $tool --error-exitcode 97 $leaks "$test" \
          ${SANITIZER_TESTS:+-tc="$SANITIZER_TESTS"} >"/tmp/sanitizer.log" 2>&1
        rc=$?
        tail -3 /tmp/sanitizer.log
        [[ $rc -eq 0 || $rc -eq 77 ]] || { echo "-- $tool $test FAILED ($rc)"; grep -m20 -E "=========" /tmp/sanitizer.log; status=1; }
      done
    done
    exit $status'
[[ ${SKIP_SUBDIV_BENCH:-0} == 1 ]] ||
  step bench_subdivision build/device/bench/spmesh_bench_subdivision \
    --json "$out/bench_subdivision.json" ${SUBDIV_BENCH_ARGS:-}
[[ ${SKIP_PHASES:-0} == 1 ]] ||
  step phases bash -c "for m in ArmorGuy:6 Bigguy:7; do
    build/device/bench/spmesh_build_phases $shared/meshes/characters/\${m%:*}.obj \${m#*:} || exit 1
  done
  for m in ArmorGuyT:3 ArmorGuyT:5; do
    build/device/bench/spmesh_build_phases $shared/meshes/characters/\${m%:*}.obj \${m#*:} --scheme loop || exit 1
  done
  build/device/bench/spmesh_build_phases $shared/meshes/characters/ArmorGuyT.obj 6 --scheme sqrt3"
[[ ${SKIP_LAUNCH:-0} == 1 ]] || step launch build/device/bench/spmesh_bench_launch
[[ ${SKIP_LOOP_BENCH:-0} == 1 ]] ||
  step bench_loop build/device/bench/spmesh_bench_subdivision --scheme loop \
    --json "$out/bench_loop.json" ${LOOP_BENCH_ARGS:-}
[[ ${SKIP_SQRT3_BENCH:-0} == 1 ]] ||
  step bench_sqrt3 build/device/bench/spmesh_bench_subdivision --scheme sqrt3 \
    --json "$out/bench_sqrt3.json" ${SQRT3_BENCH_ARGS:-}
[[ ${SKIP_LINALG_BENCH:-0} == 1 ]] ||
  step bench_cuda build/device/bench/spmesh_bench_cuda --json "$out/bench_cuda.json" ${CUDA_BENCH_ARGS:-}
[[ ${SKIP_SOLIDS_BENCH:-0} == 1 ]] ||
  step bench_solids bash -c "build/device/bench/spmesh_bench_solids --json $out/bench_solids_sphere.json \
      --cpu-max-level 5 $shared/meshes/hex/sphere_allhex.mesh:5 || exit 1
    [[ ! -f $shared/bench/cylinder_hex.mesh ]] || build/device/bench/spmesh_bench_solids \
      --json $out/bench_solids_cylinder.json --cpu-max-level 3 --cpu-compose-max-level 1 \
      $shared/bench/cylinder_hex.mesh:3"
[[ ${SKIP_LIMITS_BENCH:-0} == 1 ]] ||
  step bench_limits build/device/bench/spmesh_bench_limits --json "$out/bench_limits.json" \
    $shared/meshes/characters/ArmorGuy.obj:6 $shared/meshes/characters/Bigguy.obj:6
[[ ${SKIP_SOLID_LIMITS_BENCH:-0} == 1 ]] ||
  step bench_solid_limits build/device/bench/spmesh_bench_solid_limits --json "$out/bench_solid_limits.json" \
    ${SOLID_LIMITS_BENCH_ARGS:-} $shared/meshes/hex/sphere_allhex.mesh:1 $shared/meshes/hex/disc_extrude.mesh:1
[[ ${SKIP_PATCHES_BENCH:-0} == 1 ]] ||
  step bench_patches build/device/bench/spmesh_bench_patches --json "$out/bench_patches.json" \
    ${PATCHES_BENCH_ARGS:-}
# The wheels device-deps.sh brought (libigl), for the Python benchmark's peers.
site=build/device/site
if compgen -G "$deps/wheels/*.whl" > /dev/null; then
  python3 -m pip install -q --no-deps --no-index --upgrade --target "$site" "$deps"/wheels/*.whl ||
    echo "== the wheels in $deps/wheels did not install: no libigl row"
fi
[[ ${SKIP_PYTHON_BENCH:-0} == 1 || ! -d build/device/python/spmesh ]] ||
  step python_overhead bash -c "for level in ${PYTHON_BENCH_LEVELS:-3 4 5}; do
    # The binding's target is at 1M faces (L3); L4 and L5 are the peers' sizes, with fewer
    # repeats and no smoothing rows (CG to 1e-10 needs more than its 1,000 iterations there).
    more=(--repeats 11); ((level < 4)) || more=(--repeats \$((level < 5 ? 5 : 1)) --no-smoothing)
    PYTHONPATH=build/device/python:$site python3 bench/python_overhead.py \
      --calls build/device/bench/libspmesh_bench_calls.so --mesh $shared/meshes/characters/ArmorGuy.obj \
      --levels \$level \${more[@]} --json $out/python_overhead_L\$level.json || exit 1
  done"
[[ ${SKIP_CPU_BENCH:-0} == 1 ]] || step bench build/device/bench/spmesh_bench --json "$out/bench.json" ${BENCH_ARGS:-}
[[ ${SKIP_TESTS:-0} == 1 ]] || echo "== summary: tests $(grep -E 'tests passed|tests failed' "$out/tests.log" | tail -1)"
exit $status
