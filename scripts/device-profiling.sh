# Sourced by the device profiling scripts (device-profile.sh, device-ncu-details.sh,
# device-ncu-source.sh, device-profile-solids.sh), run on the device machine after
# scripts/device-test.sh has built build/device: $out (made), the unpacked Debian libraries on
# the library path, and bench_on MESH:LEVEL, which sets "${bench[@]}" to spmesh_bench_subdivision on that one level,
# GPU only, as briefly as it runs (the command ncu profiles).
out=${OUT:-build/device-out}
mkdir -p "$out"
prefix=$(realpath "${SPMESH_DEPS:-.device-deps}/usr" 2>/dev/null || true)
[[ -n $prefix ]] && export LD_LIBRARY_PATH="$prefix/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
bench_on() {
  bench=(build/device/bench/spmesh_bench_subdivision --mesh "$1" --min-level "${1##*:}"
         --cpu-max-level 0 --peer-max-level 0 --compose-max-level 0 --budget-ms 1)
}
