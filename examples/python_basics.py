"""The README's Python tour (ctest example_python): read, subdivide, build and replay, the
cotangent Laplacian, geodesic distance and the limit surface, each checked on the way."""
import os
import sys

import numpy as np
import spmesh

os.chdir(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

mesh = spmesh.read_mesh("data/meshes/cube.obj")
fine = spmesh.subdivide(mesh, levels=3, scheme="catmark")  # .positions (V x 3), .faces (F x 4)
plan = spmesh.build(mesh, levels=3)                         # topology once
R = plan.refinement_matrix()                                # scipy.sparse, 386 x 8 (read-only)
pose = plan.replay(mesh.positions * 2)                      # R @ P for any pose
L = spmesh.cotangent_laplacian(spmesh.triangulate(mesh))    # scipy.sparse
d = spmesh.heat_geodesic(spmesh.triangulate(fine), np.array([0], dtype=np.int32))
limit_mesh, normals = spmesh.limit(mesh, level=2)           # limit positions at level 2's vertices
points, du, dv = spmesh.limit_at(mesh, [0, 3], [0.5, 0.1], [0.5, 0.9])  # at (face, u, v)

assert fine.positions.shape == (386, 3) and fine.faces.shape == (384, 4) and R.shape == (386, 8)
assert np.allclose(pose, 2 * fine.positions) and np.allclose(L.sum(axis=1), 0)
assert d[0] == 0 and (d[1:] > 0).all()
assert limit_mesh.vertex_count == spmesh.subdivide(mesh, 2).vertex_count and points.shape == (2, 3)
print("example_python_basics: ok")
