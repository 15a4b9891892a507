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
g++ -std=c++20 -I. -M bench/peers/cgal_sqrt3.cpp | tr ' \\' '\n\n' |
  grep -E '^/usr/include/(boost|CGAL)/' | sort -u | while read -r header; do
    mkdir -p "$dir/$(dirname "$header")" && cp "$header" "$dir/$header"
  done
du -sh "$dir"
