"""spmesh's mesh algorithms against libigl's Python bindings (PyPI `libigl`), on what geometry_dump
writes:
- the cotangent Laplacian, mass matrices and uniform Laplacian (meshops/laplacian.hpp): cotmatrix,
  massmatrix (barycentric, full), adjacency_matrix less the degrees, each to 1e-12 of its largest
  entry; vertex normals (meshops/normals.hpp): per_vertex_normals (area-weighted) to 1e-12;
- the curvatures (meshops/curvature.hpp): the angle defects at inside vertices against
  gaussian_curvature, the mean curvature against libigl's own -1/2 M^-1 L V . N (its tutorial's
  mean curvature normal from cotmatrix, massmatrix and per_vertex_normals), to 1e-12 of the
  largest;
- face adjacency and components (meshops/components.hpp): the face pairs across an edge of
  triangle_triangle_adjacency; vertex_components and facet_components as the same partition;
- the heat method's distance from vertex 0 (meshops/geodesics.hpp): its mean error against the
  exact polyhedral distance (exact_geodesic) no more than 1.25x that of libigl's heat method
  (heat_geodesics_solve) at the same t = h^2, plus 1e-3 of the largest distance.
  libigl_check.py GEOMETRY_DUMP MESH..."""
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
            failed |= not check_curvatures(out, mesh, V, F, expected["cotangent"], want)
            failed |= not check_components(out, mesh, V, F)
            failed |= not check_distance(out, mesh, V, F)
    return 1 if failed else 0


def check_curvatures(out, mesh, V, F, L, N):
    n, ok = len(V), True
    boundary = np.zeros(n, dtype=bool)  # the ends of edges on one triangle
    edges = np.sort(np.concatenate([F[:, [0, 1]], F[:, [1, 2]], F[:, [2, 0]]]), axis=1)
    unique, counts = np.unique(edges, axis=0, return_counts=True)
    boundary[unique[counts == 1].ravel()] = True
    defects = np.loadtxt(os.path.join(out, "defects.txt"))
    want = igl.gaussian_curvature(V, F)
    ok &= report(mesh, n, len(F), "angle defects inside (of the largest)",
                 np.abs(defects - want)[~boundary].max() / np.abs(want[~boundary]).max())
    mass = sp.csr_matrix(igl.massmatrix(V, F, igl.MASSMATRIX_TYPE_BARYCENTRIC)).diagonal()
    mean_normal = -0.5 * (sp.csr_matrix(L) @ V) / mass[:, None]
    want = np.einsum("ij,ij->i", mean_normal, N)
    mean = np.loadtxt(os.path.join(out, "mean.txt"))
    ok &= report(mesh, n, len(F), "mean curvature (of the largest)", np.abs(mean - want).max() / np.abs(want).max())
    return ok


def same_partition(a, b):
    """Whether labels a and b cut the items into the same sets."""
    pairs = np.unique(np.stack([a, b], axis=1), axis=0)
    return len(pairs) == len(np.unique(a)) == len(np.unique(b))


def check_components(out, mesh, V, F):
    n, ok = len(V), True
    TT, _ = igl.triangle_triangle_adjacency(F)
    rows = np.repeat(np.arange(len(F)), 3)
    cols = TT.ravel()
    keep = cols >= 0
    want = sp.csr_matrix((np.ones(keep.sum()), (rows[keep], cols[keep])), shape=(len(F), len(F)))
    got = read(os.path.join(out, "faces.txt"), len(F))
    ok &= report(mesh, n, len(F), "face adjacency", abs(got - want).max())
    vertex = np.loadtxt(os.path.join(out, "vertex_components.txt")).astype(int)
    used = np.zeros(n, dtype=bool)
    used[F.ravel()] = True  # libigl's vertex_components labels the vertices of F
    ok &= report(mesh, n, len(F), "vertex components", 0.0 if same_partition(vertex[used], igl.vertex_components(F)[used]) else 1.0)
    face = np.loadtxt(os.path.join(out, "face_components.txt"), ndmin=1).astype(int)
    ok &= report(mesh, n, len(F), "face components", 0.0 if same_partition(face, igl.facet_components(F)[1]) else 1.0)
    return ok


def check_distance(out, mesh, V, F):
    distance = np.loadtxt(os.path.join(out, "distance.txt"))
    exact = igl.exact_geodesic(V, F, np.array([0]), np.array([], dtype=np.int64), np.arange(len(V)), np.array([], dtype=np.int64))
    edges = np.concatenate([F[:, [0, 1]], F[:, [1, 2]], F[:, [2, 0]]])
    h = np.linalg.norm(V[edges[:, 0]] - V[edges[:, 1]], axis=1).mean()
    data = igl.HeatGeodesicsData()
    igl.heat_geodesics_precompute(V, F, h * h, data)
    libigl = igl.heat_geodesics_solve(data, np.array([0]))
    reached = np.isfinite(exact) & (exact < 1e30)
    largest = exact[reached].max()
    ours = np.abs(distance - exact)[reached].mean() / largest
    theirs = np.abs(libigl - exact)[reached].mean() / largest
    print(f"     heat-method distance, mean error of the largest: spmesh {ours:.2e}, libigl {theirs:.2e}")
    return report(mesh, len(V), len(F), "heat distance's mean error over libigl's + 1e-3", max(0.0, ours - 1.25 * theirs - 1e-3))


def report(mesh, n, faces, name, difference):
    ok = difference <= 1e-12
    print(f"{'ok' if ok else 'FAIL'}: {os.path.basename(mesh)} ({n} vertices, {faces} triangles) {name}: "
          f"largest difference {difference:.2e}")
    return ok


if __name__ == "__main__":
    sys.exit(main())
