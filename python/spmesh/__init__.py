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
converge).

On the GPU (a package built with CUDA, spmesh.cuda_available()): `device="cuda"` builds plans,
subdivides, evaluates limits (results in NumPy) and runs the mesh algorithms there. GPU arrays go
in and out through DLPack without a host copy: a GPU plan's eval and replay, and spmv, take CuPy
arrays or PyTorch tensors (any DLPack array of the current GPU) and give back the same kind;
NumPy arrays given to a GPU plan are copied up and its result copied down (spmv runs where its x
is). The algorithms take the mesh's positions or `positions=` (a GPU array on the GPU: no host
copy; the mesh's topology goes to the GPU once and stays with the mesh); their GPU results are
CuPy arrays (PyTorch's for PyTorch positions) and cupyx.scipy.sparse matrices (CuPy needed).
GPU calls return without waiting for the GPU, as CuPy's and PyTorch's do: their work is ordered
before the stream that takes the result (DLPack's stream argument), so the result is read after
it is written. `python -m spmesh` is the command line.
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
    check_mesh,
    info,
    read_mesh,
    triangulate,
    write_mesh,
)

__all__ = [
    "Error", "InputError", "DimensionError", "Mesh", "Plan", "read_mesh", "write_mesh", "info", "check_mesh", "triangulate", "mesh",
    "cuda_available", "subdivide", "build", "refinement_matrix", "limit", "limit_at",
    "cotangent_laplacian", "mass_matrix", "uniform_laplacian", "face_adjacency",
    "vertex_normals", "vertex_areas", "angle_defects", "mean_curvature", "heat_geodesic",
    "implicit_smoothing", "vertex_components", "face_components", "spmv", "spgemm",
]
__version__ = "0.1.0"

_DLPACK_CUDA = 2  # DLPack's device type of CUDA memory


def cuda_available() -> bool:
    """Whether this package was built with CUDA and a GPU answers."""
    return bool(_spmesh.cuda_built) and _spmesh._cuda_devices() > 0


def _suffix(device: str) -> str:
    """The C++ functions' suffix for `device` ("cpu" or "cuda"), or an error saying why not."""
    if device == "cpu":
        return ""
    if device != "cuda":
        raise ValueError(f"device '{device}' (cpu or cuda)")
    if not _spmesh.cuda_built:
        raise RuntimeError("device 'cuda': this spmesh package was built without CUDA (no nvcc when it was built)")
    if _spmesh._cuda_devices() == 0:
        raise RuntimeError("device 'cuda': no CUDA GPU answers on this machine")
    return "_cuda"


def _on_device(name: str, device: str, *args):
    """The module's function `_name` for `device` (`_name_cuda` on the GPU), called with args."""
    return getattr(_spmesh, f"_{name}" + _suffix(device))(*args)


def _on_gpu(array) -> bool:
    return hasattr(array, "__dlpack_device__") and array.__dlpack_device__()[0] == _DLPACK_CUDA


def _framework(array) -> str:
    return type(array).__module__.split(".")[0]


def _float64(array):
    """A C-ordered float64 array: NumPy's for host data, the same framework's for a GPU array (a
    copy only where the dtype or the order differs)."""
    if not _on_gpu(array):
        return np.ascontiguousarray(array, dtype=np.float64)
    if _framework(array) == "torch":
        import torch
        return array.to(torch.float64).contiguous()
    if _framework(array) == "cupy":
        import cupy
        return cupy.ascontiguousarray(array, dtype=cupy.float64)
    return array  # another DLPack producer: taken as it is (float64, C order)


def _gpu_array(array, like=None):
    """A DLPack tensor from spmesh's GPU side as an array of `like`'s framework (PyTorch or CuPy;
    CuPy when there is no `like`), without a copy."""
    if like is not None and _framework(like) == "torch":
        import torch
        return torch.from_dlpack(array)
    try:
        import cupy
    except ImportError as missing:
        raise RuntimeError("spmesh's GPU results are CuPy arrays here: install cupy (e.g. cupy-cuda13x)") from missing
    return cupy.from_dlpack(array)


def _result(array, like=None):
    """spmesh's result: a NumPy array as it is, a GPU one in `like`'s framework (else CuPy's)."""
    return array if isinstance(array, np.ndarray) else _gpu_array(array, like)


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


def _csr(parts):
    """CSR arrays from spmesh as scipy.sparse.csr_array (host) or cupyx.scipy.sparse.csr_matrix
    (GPU), without a copy. cupyx's (data, indices, indptr) constructor checks the arrays' contents,
    which waits for the GPU: a GPU matrix is made from spmesh's arrays without it (valid by
    construction; their work may still run, ordered before CuPy's stream), by cupyx's
    `_from_parts` where this CuPy has it, else made empty and given the arrays (which costs
    three small allocations and fills: about 50 us)."""
    values, indices, offsets, shape = parts
    if isinstance(values, np.ndarray):
        return scipy.sparse.csr_array((values, indices, offsets), shape=shape, copy=False)
    import cupyx.scipy.sparse
    csr = cupyx.scipy.sparse.csr_matrix
    data, indices, indptr = _gpu_array(values), _gpu_array(indices), _gpu_array(offsets)
    if hasattr(csr, "_from_parts"):
        try:
            return csr._from_parts(data, indices, indptr, tuple(shape))
        except TypeError:  # another signature than the one known here
            pass
    A = csr(shape, dtype=np.float64)
    A.data, A.indices, A.indptr = data, indices, indptr
    return A


class Plan:
    """A subdivision's topology, built once (spmesh.build) on the CPU or the GPU: eval a pose
    through every level, the refinement matrix R (R @ P0 = eval(P0)) and replay by one sparse
    product. A GPU plan takes NumPy arrays (result in NumPy) or GPU arrays (result on the GPU,
    in the same framework)."""

    def __init__(self, plan: _spmesh.Plan):
        self._plan = plan
        self._R = None

    @property
    def device(self) -> str:
        return self._plan.device

    @property
    def vertex_count(self) -> int:
        return self._plan.vertex_count

    @property
    def faces(self):
        return _faces(*self._plan.refined_faces())

    def eval(self, positions):
        """The refined positions of base positions (V0 x 3)."""
        return _result(self._plan.eval(_float64(positions)), positions)

    def refinement_matrix(self) -> scipy.sparse.csr_array:
        """R, refined vertices x base vertices, on the host (read-only; made once, then kept)."""
        if self._R is None:
            self._R = _csr(self._plan.refinement_matrix())
        return self._R

    def replay(self, positions):
        """R @ positions: a pose of the base mesh refined by one sparse product (spmesh's), on
        the plan's device; R is made by the first call and kept there."""
        return _result(self._plan.replay(_float64(positions)), positions)

    def mesh(self, positions) -> Mesh:
        """The refined mesh of these base positions (on the host)."""
        refined = self.eval(positions)
        return mesh(refined if isinstance(refined, np.ndarray) else _host(refined), self.faces)


def _host(array) -> np.ndarray:
    if _framework(array) == "torch":
        return array.cpu().numpy()
    return array.get()


def build(mesh: Mesh, levels: int, scheme: str = "catmark", device: str = "cpu") -> Plan:
    """Builds the plan of `levels` levels of `scheme` ("catmark", "loop", "sqrt3") for the
    mesh's topology and its crease and corner tags, on `device` ("cpu" or "cuda")."""
    return Plan(_on_device("build", device, mesh, levels, scheme))


def subdivide(mesh: Mesh, levels: int, scheme: str = "catmark", device: str = "cpu") -> Mesh:
    """The mesh refined `levels` times by `scheme` on `device`: a Mesh whose .positions and
    .faces are NumPy arrays. Faces tagged `t hole` take part in the rules; what descends from
    them is left out of .faces (every refined point stays, as OpenSubdiv's)."""
    return _on_device("subdivide", device, mesh, levels, scheme)


def refinement_matrix(mesh: Mesh, levels: int, scheme: str = "catmark", device: str = "cpu") -> scipy.sparse.csr_array:
    """R of `levels` levels of `scheme`: refined positions = R @ base positions (on the host)."""
    return build(mesh, levels, scheme, device).refinement_matrix()


def limit(mesh: Mesh, level: int = 0, scheme: str = "catmark", device: str = "cpu"):
    """The limit surface at the vertices of level `level` (Catmull-Clark or Loop, with the mesh's
    creases), computed on `device`: (a Mesh of that level with the limit positions, their unit
    normals V x 3), on the host."""
    positions, normals, offsets, indices = _on_device("limit", device, mesh, level, scheme)
    return _spmesh._mesh_from_parts(positions, offsets, indices), normals


def limit_at(mesh: Mesh, faces, u, v, scheme: str = "catmark", depth: int = 3, approximate: bool = False,
             device: str = "cpu", adaptive: bool = False):
    """The limit and its derivatives at samples (faces[i], u[i], v[i]) of the base mesh's faces
    (0-based; a quad's (u, v) in [0, 1]^2, a triangle's barycentric (u, v)), computed on `device`:
    (positions, d/du, d/dv), each n x 3 NumPy. Irregular faces are evaluated by Stam's method or
    down to `depth` levels; with approximate=True a sample that no patch holds at that depth is
    interpolated instead of refused. adaptive=True (Catmull-Clark) goes down through the
    feature-adaptive plan of isolation level `depth`: the same limits, refining only near the
    features (docs/adaptive.md)."""
    positions, du, dv, _ = _on_device("limit_at", device, mesh, np.ascontiguousarray(faces, dtype=np.int32),
                                      np.ascontiguousarray(u, dtype=np.float64),
                                      np.ascontiguousarray(v, dtype=np.float64), scheme, depth, approximate, adaptive)
    return positions, du, dv


def _positions(positions):
    return None if positions is None else _float64(positions)


def cotangent_laplacian(mesh: Mesh, positions=None, device: str = "cpu"):
    """The cotangent Laplacian of a triangle mesh (negative semi-definite, libigl's sign), at the
    mesh's positions or at `positions` (V x 3; on the GPU a GPU array too)."""
    return _csr(_on_device("cotangent_laplacian", device, mesh, _positions(positions)))


def mass_matrix(mesh: Mesh, kind: str = "barycentric", positions=None, device: str = "cpu"):
    """The mass matrix of a triangle mesh: "barycentric" (lumped) or "full"."""
    return _csr(_on_device("mass_matrix", device, mesh, kind, _positions(positions)))


def uniform_laplacian(mesh: Mesh, device: str = "cpu"):
    """The graph Laplacian of any polygon mesh: 1 on each edge, minus the degree on the diagonal."""
    return _csr(_on_device("uniform_laplacian", device, mesh))


def face_adjacency(mesh: Mesh, device: str = "cpu"):
    """Faces x faces: the number of edges two faces share."""
    return _csr(_on_device("face_adjacency", device, mesh))


def vertex_normals(mesh: Mesh, positions=None, device: str = "cpu"):
    """Unit area-weighted vertex normals, N = M A (V x 3)."""
    return _result(_on_device("vertex_normals", device, mesh, _positions(positions)), positions)


def vertex_areas(mesh: Mesh, positions=None, device: str = "cpu"):
    """A third of each vertex's triangles' area (V)."""
    return _result(_on_device("vertex_areas", device, mesh, _positions(positions)), positions)


def angle_defects(mesh: Mesh, positions=None, device: str = "cpu"):
    """Integrated Gaussian curvature: 2 pi - the angles (pi - on the boundary) (V)."""
    return _result(_on_device("angle_defects", device, mesh, _positions(positions)), positions)


def mean_curvature(mesh: Mesh, positions=None, device: str = "cpu"):
    """Mean curvature -1/2 (M^-1 L P) . N, signed by the normals (V)."""
    return _result(_on_device("mean_curvature", device, mesh, _positions(positions)), positions)


def heat_geodesic(mesh: Mesh, sources, time_factor: float = 1.0, positions=None, device: str = "cpu"):
    """Geodesic distance from the source vertices (0-based) by the heat method (V)."""
    return _result(_on_device("heat_geodesic", device, mesh, np.ascontiguousarray(sources, dtype=np.int32), time_factor,
                              _positions(positions)), positions)


def implicit_smoothing(mesh: Mesh, t: float, positions=None, device: str = "cpu"):
    """One backward Euler step (M - t L) X = M P of the mean curvature flow (V x 3)."""
    return _result(_on_device("implicit_smoothing", device, mesh, t, _positions(positions)), positions)


def vertex_components(mesh: Mesh, device: str = "cpu"):
    """(count, each vertex's component), numbered by their smallest vertex."""
    count, labels = _on_device("vertex_components", device, mesh)
    return count, _result(labels)


def face_components(mesh: Mesh, device: str = "cpu"):
    """(count, each face's component) across edges, numbered by their smallest face."""
    count, labels = _on_device("face_components", device, mesh)
    return count, _result(labels)


def _csr_arrays(A, on_gpu: bool):
    """A's CSR arrays (float64 values, int32 indices), read in place where they already are."""
    if on_gpu:
        import cupy
        import cupyx.scipy.sparse
        A = A if cupyx.scipy.sparse.isspmatrix_csr(A) else cupyx.scipy.sparse.csr_matrix(A)
        convert = lambda a, dtype: cupy.ascontiguousarray(a, dtype=dtype)  # noqa: E731
    else:
        A = A if isinstance(A, (scipy.sparse.csr_array, scipy.sparse.csr_matrix)) else scipy.sparse.csr_array(A)
        convert = lambda a, dtype: np.ascontiguousarray(a, dtype=dtype)  # noqa: E731
    return (convert(A.data, np.float64), convert(A.indices, np.int32), convert(A.indptr, np.int32), A.shape[0],
            A.shape[1])


def spmv(A, x, map: str = "identity"):
    """y = A x by spmesh's SpMV (each row summed in order: the same bits every run); x a vector
    or a block of columns; map "ones" takes every stored value as 1. A scipy.sparse matrix with
    NumPy x on the CPU; a cupyx.scipy.sparse matrix with a CuPy (or PyTorch) x on the GPU. CSR
    arrays of float64 values and int32 indices are read in place."""
    on_gpu = _on_gpu(x)
    return _result(_on_device("spmv", "cuda" if on_gpu else "cpu", *_csr_arrays(A, on_gpu), _float64(x), map), x)


def spgemm(A, B) -> scipy.sparse.csr_array:
    """C = A B by spmesh's SpGEMM (CPU)."""
    return _csr(_spmesh._spgemm(*_csr_arrays(A, False), *_csr_arrays(B, False)))
