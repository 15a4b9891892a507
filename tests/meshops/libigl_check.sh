#!/usr/bin/env bash
# Runs libigl_check.py with a Python that has libigl and SciPy (PyPI `libigl`; SPMESH_PYTHON names
# one, e.g. a virtual environment's); exits 77 (ctest: skipped) where none has them.
for py in ${SPMESH_PYTHON:-} python3 /usr/bin/python3; do
  if "$py" -c "import igl, scipy" 2>/dev/null; then exec "$py" "$(dirname "$0")/libigl_check.py" "$@"; fi
done
echo "skipped: no python3 with libigl and scipy (pip install libigl scipy; SPMESH_PYTHON=that python3)"
exit 77
