"""spmesh: mesh subdivision and mesh algorithms as sparse linear algebra.

The names users reach first::

    import spmesh
    mesh = spmesh.read_mesh("cube.obj")
    fine = spmesh.subdivide(mesh, levels=3, scheme="catmark")   # .positions, .faces: NumPy
    plan = spmesh.build(mesh, levels=3)                          # topology once
    R = plan.refinement_matrix()                                 # scipy.sparse CSR
    pose = plan.replay(new_positions)                            # R @ P, any pose
    L = spmesh.cotangent_laplacian(spmesh.triangulate(mesh))     # scipy.sparse CSR

Arrays come back as NumPy arrays that own spmesh's buffers (no copy); sparse matrices as
scipy.sparse.csr_array over them (no copy). spmesh's errors keep its messages: ValueError for bad
input (spmesh.InputError, spmesh.DimensionError: a file that cannot be read, a face that is not a
triangle, a shape that does not fit), RuntimeError otherwise (spmesh.Error: a solve that did not
converge). The work runs on the CPU; `python -m spmesh` is the command
line, with its GPU path where the package was built with CUDA.
"""
from __future__ import annotations

import numpy as np
import scipy.sparse

from . import _spmesh
from ._spmesh import (
    DimensionError,
    Error,
    InputError,
    Mesh,
    angle_defects,
    check_mesh,
    face_components,
    heat_geodesic,
    implicit_smoothing,
    info,
    mean_curvature,
    read_mesh,
    triangulate,
    vertex_areas,
    vertex_components,
    vertex_normals,
    write_mesh,
)

__all__ = [
    "Error", "InputError", "DimensionError", "Mesh", "Plan", "read_mesh", "write_mesh", "info", "check_mesh", "triangulate", "mesh",
    "subdivide", "build", "refinement_matrix",
    "cotangent_laplacian", "mass_matrix", "uniform_laplacian", "face_adjacency",
    "vertex_normals", "vertex_areas", "angle_defects", "mean_curvature", "heat_geodesic",
    "implicit_smoothing", "vertex_components", "face_components", "spmv", "spgemm",
]
__version__ = "0.1.0"


def _faces(offsets: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """Faces as an F x k array when every face has k corners, else a list of arrays."""
    counts = np.diff(offsets)
    if len(counts) and np.all(counts == counts[0]):
        return indices.reshape(-1, int(counts[0]))
    return np.split(indices, offsets[1:-1])


def _faces_property(self: Mesh):
    """The faces: F x k (0-based vertex ids) when every face has k corners, else a list of
    arrays (face_offsets and face_indices always hold them)."""
    return _faces(self.face_offsets, self.face_indices)


Mesh.faces = property(_faces_property)


def mesh(positions, faces) -> Mesh:
    """A mesh from positions (V x 3) and faces: an F x k array of 0-based vertex ids, or a list
    of faces of any sizes. Checked as spmesh checks a file (ValueError naming the problem)."""
    positions = np.ascontiguousarray(positions, dtype=np.float64)
    if isinstance(faces, np.ndarray) and faces.ndim == 2:
        indices = np.ascontiguousarray(faces, dtype=np.int32).ravel()
        offsets = np.arange(0, indices.size + 1, max(faces.shape[1], 1), dtype=np.int32)[: faces.shape[0] + 1]
    else:
        faces = [np.asarray(f, dtype=np.int32) for f in faces]
        offsets = np.zeros(len(faces) + 1, dtype=np.int32)
        offsets[1:] = np.cumsum([len(f) for f in faces])
        indices = np.concatenate(faces) if faces else np.zeros(0, dtype=np.int32)
    return _spmesh._mesh_from_parts(positions, offsets, np.ascontiguousarray(indices, dtype=np.int32))


def _csr(parts) -> scipy.sparse.csr_array:
    values, indices, offsets, shape = parts
    return scipy.sparse.csr_array((values, indices, offsets), shape=shape, copy=False)


def _csr_parts(A):
    A = scipy.sparse.csr_array(A)
    A.sort_indices()
    return (np.ascontiguousarray(A.data, dtype=np.float64), np.ascontiguousarray(A.indices, dtype=np.int32),
            np.ascontiguousarray(A.indptr, dtype=np.int32), A.shape[0], A.shape[1])


class Plan:
    """A subdivision's topology, built once (spmesh.build): eval a pose through every level,
    the refinement matrix R (R @ P0 = eval(P0)) and replay by one sparse product."""

    def __init__(self, plan: _spmesh.Plan):
        self._plan = plan
        self._R = None

    @property
    def vertex_count(self) -> int:
        return self._plan.vertex_count

    @property
    def faces(self):
        return _faces(*self._plan.refined_faces())

    def eval(self, positions) -> np.ndarray:
        """The refined positions of base positions (V0 x 3)."""
        return self._plan.eval(np.ascontiguousarray(positions, dtype=np.float64))

    def refinement_matrix(self) -> scipy.sparse.csr_array:
        """R, refined vertices x base vertices (made once, then kept)."""
        if self._R is None:
            self._R = _csr(self._plan.refinement_matrix())
        return self._R

    def replay(self, positions) -> np.ndarray:
        """R @ positions: a pose of the base mesh refined by one sparse product (spmesh's)."""
        positions = np.ascontiguousarray(positions, dtype=np.float64)
        if positions.shape != (self._plan.base_vertex_count, 3):
            raise ValueError(f"replay: positions are {positions.shape}, the plan's base mesh has "
                             f"{self._plan.base_vertex_count} vertices (x 3 expected)")
        R = self.refinement_matrix()
        return np.stack([spmv(R, positions[:, x]) for x in range(3)], axis=1)

    def mesh(self, positions) -> Mesh:
        """The refined mesh of these base positions."""
        return mesh(self.eval(positions), self.faces)


def build(mesh: Mesh, levels: int, scheme: str = "catmark") -> Plan:
    """Builds the plan of `levels` levels of `scheme` ("catmark", "loop", "sqrt3") for the
    mesh's topology and its crease and corner tags."""
    return Plan(_spmesh.build(mesh, levels, scheme))


def subdivide(mesh: Mesh, levels: int, scheme: str = "catmark") -> Mesh:
    """The mesh refined `levels` times by `scheme`: a Mesh whose .positions and .faces are NumPy
    arrays."""
    return _spmesh._subdivide(mesh, levels, scheme)


def refinement_matrix(mesh: Mesh, levels: int, scheme: str = "catmark") -> scipy.sparse.csr_array:
    """R of `levels` levels of `scheme`: refined positions = R @ base positions."""
    return build(mesh, levels, scheme).refinement_matrix()


def cotangent_laplacian(mesh: Mesh) -> scipy.sparse.csr_array:
    """The cotangent Laplacian of a triangle mesh (negative semi-definite, libigl's sign)."""
    return _csr(_spmesh._cotangent_laplacian(mesh))


def mass_matrix(mesh: Mesh, kind: str = "barycentric") -> scipy.sparse.csr_array:
    """The mass matrix of a triangle mesh: "barycentric" (lumped) or "full"."""
    return _csr(_spmesh._mass_matrix(mesh, kind))


def uniform_laplacian(mesh: Mesh) -> scipy.sparse.csr_array:
    """The graph Laplacian of any polygon mesh: 1 on each edge, minus the degree on the diagonal."""
    return _csr(_spmesh._uniform_laplacian(mesh))


def face_adjacency(mesh: Mesh) -> scipy.sparse.csr_array:
    """Faces x faces: the number of edges two faces share."""
    return _csr(_spmesh._face_adjacency(mesh))


def spmv(A, x, map: str = "identity") -> np.ndarray:
    """y = A x by spmesh's SpMV (each row summed in order: the same bits every run); map "ones"
    takes every stored value as 1."""
    return _spmesh._spmv(*_csr_parts(A), np.ascontiguousarray(x, dtype=np.float64), map)


def spgemm(A, B) -> scipy.sparse.csr_array:
    """C = A B by spmesh's SpGEMM."""
    return _csr(_spmesh._spgemm(*_csr_parts(A), *_csr_parts(B)))
