#!/usr/bin/env bash
# Run on the CI-like Debian machine: unpacks the Debian packages the GPU machine lacks (it has no
# package registry) into .device-deps/, which git ignores and the device tool carries. CGAL and
# Boost are too large to carry whole: only the headers the CGAL peer includes are copied.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=.device-deps
rm -rf "$dir" && mkdir -p "$dir/debs"
(cd "$dir/debs" && apt-get download libeigen3-dev libfmt-dev libfmt9 doctest-dev libosd-dev \
  libosdcpu3.5.0 libopenmesh-dev libopenmesh1)
for deb in "$dir"/debs/*.deb; do dpkg -x "$deb" "$dir"; done
rm -rf "$dir/debs" "$dir/usr/share/doc"
# PyPI's libigl for the GPU machine's python (DEVICE_PYTHON, default 3.12; the wheel is abi3), the
# Python peer of bench/python_overhead.py: device-test.sh installs what is in wheels/.
pip download -q --no-deps --only-binary=:all: --python-version "${DEVICE_PYTHON:-3.12}" \
  --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 -d "$dir/wheels" libigl ||
  echo "device-deps: no libigl wheel (no PyPI here): bench/python_overhead.py will have no libigl row"
g++ -std=c++20 -I. -M bench/peers/cgal_sqrt3.cpp | tr ' \\' '\n\n' |
  grep -E '^/usr/include/(boost|CGAL)/' | sort -u | while read -r header; do
    mkdir -p "$dir/$(dirname "$header")" && cp "$header" "$dir/$header"
  done
du -sh "$dir"
