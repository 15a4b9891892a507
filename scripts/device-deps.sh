#!/usr/bin/env bash
# Run on the CI-like Debian machine: unpacks the Debian packages the GPU machine lacks (it has no
# package registry) into .device-deps/, which git ignores and the device tool carries.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=.device-deps
rm -rf "$dir" && mkdir -p "$dir/debs"
(cd "$dir/debs" && apt-get download libeigen3-dev libfmt-dev libfmt9 doctest-dev libosd-dev libosdcpu3.5.0)
for deb in "$dir"/debs/*.deb; do dpkg -x "$deb" "$dir"; done
rm -rf "$dir/debs" "$dir/usr/share/doc"
du -sh "$dir"
