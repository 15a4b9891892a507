#!/usr/bin/env bash
# scripts/fuzz.sh [SECONDS_PER_TARGET]: builds the libFuzzer targets (fuzz/: one per reader)
# with Debian's clang, ASan and UBSan, and runs each for SECONDS_PER_TARGET (default 30) on a
# scratch copy of its seed corpus (fuzz/corpus/<target>/, left unchanged). Any crash, leak,
# timeout, out-of-memory or sanitizer report fails the run and leaves the input that caused it
# in build/fuzz/artifacts/ (keep it as a test or seed once fixed).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh
seconds=${1:-30}
build=${SPMESH_FUZZ_BUILD:-build/fuzz}

# clang with its sanitizer and libFuzzer runtimes, and OpenMP for clang (the libraries use it).
SPMESH_PACKAGES+=(clang libclang-rt-dev libomp-dev)
spmesh_install_missing

CXX=${SPMESH_FUZZ_CXX:-clang++} cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DSPMESH_CUDA=OFF -DSPMESH_WERROR=ON -DSPMESH_SANITIZE=ON -DSPMESH_BUILD_FUZZ=ON \
  -DSPMESH_BUILD_TESTS=OFF -DSPMESH_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j "$(nproc)" --target fuzz

mkdir -p "$build/artifacts"
failed=()
while read -r target; do
  [[ -n $target ]] || continue
  name=${target#fuzz_}
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  echo "spmesh: fuzzing $name for ${seconds}s"
  # -timeout: one input taking over 10 s is a hang; -rss_limit_mb: a reader that takes over
  # 2 GB for a few kB of input is a finding too.
  if ! "$build/fuzz/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -artifact_prefix="$build/artifacts/$name-" -print_final_stats=1 \
      "$scratch" "fuzz/corpus/$name" 2>"$build/artifacts/$name.log"; then
    tail -40 "$build/artifacts/$name.log"
    failed+=("$name")
  else
    grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb)" "$build/artifacts/$name.log" |
      sed "s/^/spmesh: $name /"
  fi
  rm -rf "$scratch"
done <"$build/fuzz/fuzz_targets.txt"

if ((${#failed[@]})); then
  echo "spmesh: fuzzing found a problem in: ${failed[*]} (inputs in $build/artifacts/)" >&2
  exit 1
fi
echo "spmesh: fuzzing passed"
