# spmesh's Medit reader against meshio's: the same points (bit for bit) and the same volume
# cells, in file order, for every file given. Run by meshio_check.sh, which finds a Python with
# meshio (Debian: python3-meshio).
#   meshio_check.py MEDIT_DUMP FILE.mesh...
import subprocess
import sys

import meshio

dump, files = sys.argv[1], sys.argv[2:]
volume = ("tetra", "wedge", "hexahedron")
failures = 0
for path in files:
    lines = subprocess.run([dump, path], check=True, capture_output=True, text=True).stdout.splitlines()
    n = int(lines[0].split()[1])
    points = [tuple(float(x) for x in line.split()) for line in lines[1:1 + n]]
    cells = [tuple(int(x) for x in line.split()) for line in lines[2 + n:]]
    mesh = meshio.read(path)
    expected_points = [tuple(float(x) for x in p) for p in mesh.points]
    expected_cells = [tuple(int(x) for x in c) for block in mesh.cells if block.type in volume for c in block.data]
    problems = []
    if points != expected_points:
        problems.append(f"points differ ({len(points)} read, meshio {len(expected_points)})")
    if cells != expected_cells:
        problems.append(f"cells differ ({len(cells)} read, meshio {len(expected_cells)})")
    print(f"{path}: {len(points)} points, {len(cells)} cells: " + ("; ".join(problems) or "same as meshio"))
    failures += bool(problems)
sys.exit(1 if failures else 0)
