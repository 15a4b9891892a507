"""spmesh's cotangent Laplacian, mass matrices and uniform Laplacian (meshops/laplacian.hpp) and
vertex normals (meshops/normals.hpp) against libigl's Python bindings (PyPI `libigl`): cotmatrix,
massmatrix (barycentric, full), adjacency_matrix less the degrees, each to 1e-12 of its largest
entry, and per_vertex_normals (area-weighted) to 1e-12.
  libigl_check.py LAPLACIAN_DUMP MESH..."""
import os
import subprocess
import sys
import tempfile

import igl
import numpy as np
import scipy.sparse as sp


def read(path, n):
    data = np.loadtxt(path, ndmin=2)
    return sp.csr_matrix((data[:, 2], (data[:, 0].astype(int), data[:, 1].astype(int))), shape=(n, n))


def read_obj(path):
    v, f = [], []
    for line in open(path):
        parts = line.split()
        if parts and parts[0] == "v":
            v.append([float(x) for x in parts[1:4]])
        elif parts and parts[0] == "f":
            f.append([int(x) - 1 for x in parts[1:4]])
    return np.array(v), np.array(f, dtype=np.int64)


def main():
    dump, meshes = sys.argv[1], sys.argv[2:]
    failed = False
    for mesh in meshes:
        with tempfile.TemporaryDirectory() as out:
            subprocess.run([dump, mesh, out], check=True)
            V, F = read_obj(os.path.join(out, "mesh.obj"))
            n = len(V)
            degree = igl.adjacency_matrix(F)
            expected = {
                "cotangent": igl.cotmatrix(V, F),
                "barycentric": igl.massmatrix(V, F, igl.MASSMATRIX_TYPE_BARYCENTRIC),
                "full": igl.massmatrix(V, F, igl.MASSMATRIX_TYPE_FULL),
                "uniform": degree - sp.diags(np.asarray(degree.sum(axis=1)).ravel()),
            }
            for name, want in expected.items():
                got = read(os.path.join(out, name + ".txt"), n)
                want = sp.csr_matrix(want)
                failed |= not report(mesh, n, len(F), name + " (of the largest entry)", abs(got - want).max() / abs(want).max())
            normals = np.loadtxt(os.path.join(out, "normals.txt"), ndmin=2)
            want = igl.per_vertex_normals(V, F, igl.PER_VERTEX_NORMALS_WEIGHTING_TYPE_AREA)
            failed |= not report(mesh, n, len(F), "vertex normals", np.abs(normals - want).max())
    return 1 if failed else 0


def report(mesh, n, faces, name, difference):
    ok = difference <= 1e-12
    print(f"{'ok' if ok else 'FAIL'}: {os.path.basename(mesh)} ({n} vertices, {faces} triangles) {name}: "
          f"largest difference {difference:.2e}")
    return ok


if __name__ == "__main__":
    sys.exit(main())
