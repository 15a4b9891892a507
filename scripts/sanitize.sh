#!/usr/bin/env bash
# The CPU test suite built with AddressSanitizer and UndefinedBehaviorSanitizer (the `sanitize`
# preset: no CUDA, no benchmarks) and run: any memory error, leak or undefined behaviour aborts
# its test, which fails. Also proves the project builds and passes without CUDA.
set -euo pipefail
cd "$(dirname "$0")/.."
# Stack traces for UBSan; ASan's defaults already abort on the first report.
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
export ASAN_OPTIONS=${ASAN_OPTIONS:-strict_string_checks=1:detect_stack_use_after_return=1}
SPMESH_PRESET=sanitize SPMESH_SKIP_PYTHON=1 exec scripts/test.sh
