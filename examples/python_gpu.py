"""The README's Python GPU tour (ctest example_python_gpu; exits 77, skipped, without a GPU or
CuPy): a plan and the cotangent Laplacian on the GPU, CuPy arrays in and out, checked against the
CPU."""
import os
import sys

import numpy as np
import spmesh

try:
    import cupy
except ImportError:
    sys.exit(77)
if not spmesh.cuda_available():
    sys.exit(77)
os.chdir(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
mesh = spmesh.read_mesh("data/meshes/cube.obj")
tri = spmesh.triangulate(spmesh.subdivide(mesh, levels=2))

plan = spmesh.build(mesh, levels=3, device="cuda")
pose = plan.replay(cupy.asarray(mesh.positions))            # a CuPy array, on the GPU
L = spmesh.cotangent_laplacian(tri, positions=cupy.asarray(tri.positions), device="cuda")

assert isinstance(pose, cupy.ndarray) and np.allclose(pose.get(), spmesh.subdivide(mesh, 3).positions)
assert abs(L.get() - spmesh.cotangent_laplacian(tri)).max() < 1e-12
print("example_python_gpu: ok")
