# spmesh's volume-mesh files against meshio: for every Medit file given, what spmesh reads equals
# what meshio reads (points bit for bit, volume cells in order), and the .vtu, .vtk and .mesh
# files spmesh writes of it read back, in meshio and in spmesh, as the same points and cells.
# Each is also converted, by meshio to VTK 5.1 (ASCII and binary) and to .vtu (ASCII, base64,
# base64 zlib-compressed), and, where gmsh is installed, by gmsh to VTK 2.0 and gmsh 4.1 (ASCII
# and binary), and spmesh's reading of each conversion must equal meshio's; hexagonal prisms (VTK
# polyhedra) go both ways through .vtu. Run by
# meshio_check.sh, which finds a Python with meshio (Debian: python3-meshio).
#   meshio_check.py VOLUME_DUMP FILE.mesh...
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile

import meshio

dump, files = sys.argv[1], sys.argv[2:]
volume = ("tetra", "wedge", "hexahedron")


def spmesh_reading(*args):
    lines = subprocess.run([dump, *args], check=True, capture_output=True, text=True).stdout.splitlines()
    n = int(lines[0].split()[1])
    points = [tuple(float(x) for x in line.split()) for line in lines[1:1 + n]]
    cells = [tuple(int(x) for x in line.split()) for line in lines[2 + n:]]
    return points, cells


def meshio_reading(path):
    mesh = meshio.read(path)
    points = [tuple(float(x) for x in p) for p in mesh.points]
    cells = [tuple(int(x) for x in c) for block in mesh.cells if block.type in volume for c in block.data]
    return points, cells


def compare(what, got, expected):
    problems = [f"{name} differ ({len(g)} against {len(e)})" for name, g, e in
                (("points", got[0], expected[0]), ("cells", got[1], expected[1])) if g != e]
    print(f"{what}: {len(got[0])} points, {len(got[1])} cells: " + ("; ".join(problems) or "the same"))
    return bool(problems)


failures = 0
with tempfile.TemporaryDirectory() as folder:
    for path in files:
        read = spmesh_reading(path)
        failures += compare(f"{path} read by spmesh and by meshio", read, meshio_reading(path))
        for extension in (".vtu", ".vtk", ".mesh"):
            out = os.path.join(folder, "written" + extension)
            spmesh_reading(path, out)
            failures += compare(f"  written as {extension}, read by meshio", meshio_reading(out), read)
            failures += compare(f"  written as {extension}, read by spmesh", spmesh_reading(out), read)
        source = meshio.read(path)
        conversions = []
        for binary in (False, True):
            out = os.path.join(folder, f"meshio{int(binary)}.vtk")
            meshio.write(out, source, binary=binary)
            conversions.append((f"VTK 5.1 {'binary' if binary else 'ASCII'} by meshio", out))
        for binary, compression in ((False, None), (True, None), (True, "zlib")):
            out = os.path.join(folder, f"meshio{int(binary)}{compression or ''}.vtu")
            meshio.write(out, source, binary=binary, compression=compression)
            conversions.append((f".vtu {'base64' if binary else 'ASCII'}{' zlib' if compression else ''} by meshio", out))
        if shutil.which("gmsh"):
            for extension, form in ((".vtk", "vtk"), (".msh", "msh41")):
                for flags in ([], ["-bin"]):
                    out = os.path.join(folder, f"gmsh{len(flags)}{extension}")
                    subprocess.run(["gmsh", path, "-save", "-format", form, *flags, "-o", out], check=True,
                                   capture_output=True)
                    conversions.append((f"{form} {'binary' if flags else 'ASCII'} by gmsh", out))
        else:
            print("  (no gmsh: its VTK 2.0 and gmsh 4.1 conversions are not checked)")
        for what, out in conversions:
            failures += compare(f"  {what}, read by spmesh and by meshio", spmesh_reading(out), meshio_reading(out))
        # Each hexahedron as a polyhedron (its six faces, VTK's), written as .vtu by meshio: spmesh
        # reads the hexahedra (each cell's vertex set: its corners may start elsewhere).
        hexes = [tuple(int(x) for x in c) for block in source.cells if block.type == "hexahedron" for c in block.data]
        if hexes:
            def faces(c):
                return [[c[0], c[3], c[2], c[1]], [c[4], c[5], c[6], c[7]], [c[0], c[1], c[5], c[4]],
                        [c[1], c[2], c[6], c[5]], [c[2], c[3], c[7], c[6]], [c[3], c[0], c[4], c[7]]]
            out = os.path.join(folder, "polyhedra.vtu")
            meshio.write(out, meshio.Mesh(source.points, [("polyhedron8", [faces(c) for c in hexes])]), binary=False)
            points, cells = spmesh_reading(out)
            failures += compare("  its hexahedra as polyhedra in a .vtu by meshio, read by spmesh",
                                (points, sorted(tuple(sorted(c)) for c in cells)),
                                ([tuple(float(x) for x in p) for p in meshio.read(out).points],
                                 sorted(tuple(sorted(c)) for c in hexes)))
    # The bundled honeycomb's hexagonal prisms (VTK polyhedra of 12 corners and 8 faces, side faces
    # shared; scripts/make_meshes.py), written by meshio as .vtu (ASCII and base64): spmesh reads
    # the same points and cells; the .vtu spmesh writes of them, meshio reads with the same faces,
    # each turned as given (outward).
    spec = importlib.util.spec_from_file_location(
        "make_meshes", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "make_meshes.py"))
    make_meshes = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_meshes)
    points, prisms = make_meshes.honeycomb_cells()

    def cycles(cells):  # each cell's faces, each started at its lowest vertex, sorted
        return [sorted(tuple(f[f.index(min(f)):] + f[:f.index(min(f))]) for f in ([int(v) for v in face] for face in c))
                for c in cells]

    prism_mesh = meshio.Mesh(points, [("polyhedron12", prisms)])
    for binary in (False, True):
        given = os.path.join(folder, f"prisms{int(binary)}.vtu")
        meshio.write(given, prism_mesh, binary=binary)
        read = spmesh_reading(given)
        failures += compare(f"hexagonal prisms (polyhedra) in a .vtu by meshio ({'base64' if binary else 'ASCII'}), "
                            "read by spmesh", (read[0], sorted(tuple(sorted(c)) for c in read[1])),
                            ([tuple(float(x) for x in p) for p in meshio.read(given).points],
                             sorted(tuple(sorted({v for f in c for v in f})) for c in prisms)))
    written = os.path.join(folder, "prisms_spmesh.vtu")
    spmesh_reading(given, written)
    back = meshio.read(written)
    faces = [c for block in back.cells if block.type.startswith("polyhedron") for c in block.data]
    same = cycles(faces) == cycles(prisms)
    print(f"  written by spmesh as .vtu, read by meshio: {len(faces)} polyhedra, faces " + ("the same" if same else "differ"))
    failures += not same
sys.exit(1 if failures else 0)
