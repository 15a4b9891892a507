"""spmesh's cotangent Laplacian, mass matrices and uniform Laplacian (meshops/laplacian.hpp)
against libigl's Python bindings (PyPI `libigl`): cotmatrix, massmatrix (barycentric, full) and
adjacency_matrix less the degrees, each to 1e-12 of its largest entry.
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
                scale = abs(want).max()
                difference = abs(got - want).max() / scale
                ok = difference <= 1e-12
                failed |= not ok
                print(f"{'ok' if ok else 'FAIL'}: {os.path.basename(mesh)} ({n} vertices, {len(F)} triangles) {name}: "
                      f"largest difference {difference:.2e} of the largest entry")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
