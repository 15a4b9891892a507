#!/usr/bin/env bash
# Runs meshio_check.py with a Python that has meshio (the first python3 on PATH may be another
# one than Debian's); exits 77 (ctest: skipped) where none has it.
for py in python3 /usr/bin/python3; do
  if "$py" -c "import meshio" 2>/dev/null; then exec "$py" "$(dirname "$0")/meshio_check.py" "$@"; fi
done
echo "skipped: no python3 with meshio (Debian package python3-meshio)"
exit 77
