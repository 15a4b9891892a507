"""spmesh's GPU side from Python against its CPU side (the reference): plans built on the GPU,
eval and replay of CuPy arrays (left on the GPU) and of NumPy arrays, spmv on cupyx matrices,
every mesh algorithm with device="cuda". Skipped without a GPU or without CuPy (the GPU machine
runs it: scripts/device-test.sh)."""
import os

import numpy as np
import pytest
import scipy.sparse

import spmesh

cupy = pytest.importorskip("cupy")
cupyx_sparse = pytest.importorskip("cupyx.scipy.sparse")
if not spmesh.cuda_available():
    pytest.skip("no CUDA GPU, or spmesh built without CUDA", allow_module_level=True)

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data", "meshes")


def data(name):
    return os.path.join(DATA, name)


@pytest.mark.parametrize("name,scheme", [("creased_cube.obj", "catmark"), ("torus.obj", "loop"), ("torus.obj", "sqrt3")])
def test_gpu_plans_equal_cpu_plans_and_keep_gpu_arrays_on_the_gpu(name, scheme):
    mesh = spmesh.read_mesh(data(name))
    if scheme != "catmark":
        mesh = spmesh.triangulate(mesh)
    cpu, gpu = spmesh.build(mesh, 3, scheme), spmesh.build(mesh, 3, scheme, device="cuda")
    assert gpu.device == "cuda" and gpu.vertex_count == cpu.vertex_count
    np.testing.assert_array_equal(gpu.faces, cpu.faces)
    want = cpu.eval(mesh.positions)
    pose = cupy.asarray(mesh.positions)
    got = gpu.eval(pose)
    assert isinstance(got, cupy.ndarray) and got.device.id == pose.device.id
    np.testing.assert_allclose(got.get(), want, rtol=0, atol=1e-12)
    np.testing.assert_allclose(gpu.eval(mesh.positions), want, rtol=0, atol=1e-12)  # NumPy in, NumPy out
    replayed = gpu.replay(pose)
    assert isinstance(replayed, cupy.ndarray)
    np.testing.assert_allclose(replayed.get(), cpu.replay(mesh.positions), rtol=0, atol=1e-12)
    assert isinstance(gpu.replay(mesh.positions), np.ndarray)
    R_gpu, R_cpu = gpu.refinement_matrix(), cpu.refinement_matrix()
    assert abs(R_gpu - R_cpu).max() <= 1e-14
    np.testing.assert_allclose(spmesh.subdivide(mesh, 2, scheme, device="cuda").positions,
                               spmesh.subdivide(mesh, 2, scheme).positions, rtol=0, atol=1e-12)
    with pytest.raises(ValueError, match="5 x 3 points given"):
        gpu.replay(cupy.zeros((5, 3)))


def test_spmv_on_cupyx_matrices_equals_the_cpu_and_refuses_bad_arrays():
    A = scipy.sparse.random(500, 300, density=0.02, format="csr", random_state=3)
    x = np.random.default_rng(5).standard_normal((300, 3))
    A_gpu = cupyx_sparse.csr_matrix(A)
    y = spmesh.spmv(A_gpu, cupy.asarray(x))
    assert isinstance(y, cupy.ndarray)
    np.testing.assert_allclose(y.get(), spmesh.spmv(A, x), rtol=0, atol=1e-14)
    np.testing.assert_allclose(spmesh.spmv(A_gpu, cupy.asarray(x[:, 0]), map="ones").get(),
                               spmesh.spmv(A, x[:, 0], map="ones"), rtol=0, atol=1e-13)
    bad = A_gpu.copy()
    bad.indices[0] = 10_000
    row = int(np.searchsorted(A.indptr, 0, side="right") - 1)
    with pytest.raises(ValueError, match=f"row {row} holds index 10000, outside \\[0, 300\\)"):
        spmesh.spmv(bad, cupy.asarray(x))
    with pytest.raises(ValueError, match="on the host given to a GPU operation"):
        spmesh._spmesh._spmv_cuda(A.data, A.indices, A.indptr, 500, 300, cupy.asarray(x), "identity")


def test_every_algorithm_on_the_gpu_equals_the_cpu():
    torus = spmesh.triangulate(spmesh.read_mesh(data("torus.obj")))
    for name in ("cotangent_laplacian", "uniform_laplacian", "face_adjacency", "mass_matrix"):
        cpu, gpu = getattr(spmesh, name)(torus), getattr(spmesh, name)(torus, device="cuda")
        assert isinstance(gpu, cupyx_sparse.csr_matrix) and gpu.shape == cpu.shape
        assert abs(gpu.get() - cpu).max() <= 1e-12 * abs(cpu).max(), name
    for name in ("vertex_normals", "vertex_areas", "angle_defects", "mean_curvature"):
        cpu, gpu = getattr(spmesh, name)(torus), getattr(spmesh, name)(torus, device="cuda")
        assert isinstance(gpu, cupy.ndarray)
        np.testing.assert_allclose(gpu.get(), cpu, rtol=0, atol=1e-12, err_msg=name)
    # Positions on the GPU for the mesh's topology (kept on the GPU after its first use): no host copy.
    moved = cupy.asarray(torus.positions) * cupy.asarray([1.0, 2.0, 0.5])
    got = spmesh.vertex_normals(torus, positions=moved, device="cuda")
    assert isinstance(got, cupy.ndarray)
    np.testing.assert_allclose(got.get(), spmesh.vertex_normals(torus, positions=moved.get()), rtol=0, atol=1e-12)
    np.testing.assert_allclose(spmesh.heat_geodesic(torus, [0], device="cuda").get(), spmesh.heat_geodesic(torus, [0]),
                               rtol=0, atol=1e-9)
    np.testing.assert_allclose(spmesh.implicit_smoothing(torus, 0.01, device="cuda").get(),
                               spmesh.implicit_smoothing(torus, 0.01), rtol=0, atol=1e-9)
    for name in ("vertex_components", "face_components"):
        (n_cpu, cpu), (n_gpu, gpu) = getattr(spmesh, name)(torus), getattr(spmesh, name)(torus, device="cuda")
        assert n_cpu == n_gpu and (gpu.get() == cpu).all()
    with pytest.raises(ValueError, match="face 0 has 4 corners"):
        spmesh.cotangent_laplacian(spmesh.read_mesh(data("cube.obj")), device="cuda")


def test_pytorch_tensors_go_in_and_come_back_as_tensors():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch without CUDA")
    cube = spmesh.read_mesh(data("cube.obj"))
    plan = spmesh.build(cube, 2, device="cuda")
    got = plan.replay(torch.tensor(cube.positions, device="cuda"))
    assert isinstance(got, torch.Tensor) and got.is_cuda
    np.testing.assert_allclose(got.cpu().numpy(), spmesh.build(cube, 2).replay(cube.positions), rtol=0, atol=1e-12)


def test_results_are_ordered_before_the_stream_that_reads_them():
    """A GPU call returns while its work may still run; a result read on another stream still
    sees it written: on CuPy's default (the legacy default stream) by CUDA's own ordering, on a
    non-blocking stream (which nothing orders with spmesh's implicitly) because the DeviceArray
    makes the reader's stream wait (DLPack's stream argument). A large matrix product queued
    first keeps the GPU busy for milliseconds, so a read that did not wait would see the buffer
    before it is written."""
    cube = spmesh.read_mesh(data("cube.obj"))
    plan, cpu = spmesh.build(cube, 4, device="cuda"), spmesh.build(cube, 4)
    busy = cupy.ones((6000, 6000))
    for reader in (cupy.cuda.Stream.null, cupy.cuda.Stream(non_blocking=True)):
        for scale in (2.0, 3.0, 5.0):
            pose = cupy.asarray(cube.positions * scale)
            busy @ busy  # on the legacy default stream, which spmesh's work follows
            with reader:
                got = plan.replay(pose).get()  # copied down on `reader`
            np.testing.assert_allclose(got, cpu.replay(cube.positions * scale), rtol=0, atol=1e-12)
            busy @ busy
            with reader:
                L = spmesh.uniform_laplacian(cube, device="cuda")
                got = L.get()
            assert abs(got - spmesh.uniform_laplacian(cube)).max() == 0


def test_limits_on_the_gpu_equal_the_cpus():
    cube = spmesh.read_mesh(data("creased_cube.obj"))
    (mesh_cpu, normals_cpu), (mesh_gpu, normals_gpu) = spmesh.limit(cube, 2), spmesh.limit(cube, 2, device="cuda")
    assert isinstance(normals_gpu, np.ndarray)
    np.testing.assert_array_equal(mesh_gpu.faces, mesh_cpu.faces)
    np.testing.assert_allclose(mesh_gpu.positions, mesh_cpu.positions, rtol=0, atol=1e-12)
    np.testing.assert_allclose(normals_gpu, normals_cpu, rtol=0, atol=1e-12)
    rng = np.random.default_rng(7)
    for mesh, scheme in ((cube, "catmark"), (spmesh.triangulate(spmesh.read_mesh(data("torus.obj"))), "loop")):
        faces = rng.integers(0, mesh.face_count, 200)
        u = rng.uniform(0, 0.5, 200)
        v = rng.uniform(0, 0.5, 200)
        # approximate: samples next to the cube's creases that no patch holds are interpolated, on both.
        want = spmesh.limit_at(mesh, faces, u, v, scheme, approximate=True)
        got = spmesh.limit_at(mesh, faces, u, v, scheme, approximate=True, device="cuda")
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, rtol=0, atol=1e-12, err_msg=scheme)
        if scheme == "catmark":  # through the adaptive plan on the GPU: the same limits
            adaptive = spmesh.limit_at(mesh, faces, u, v, scheme, approximate=True, device="cuda", adaptive=True)
            for a, w in zip(adaptive, want):
                np.testing.assert_allclose(a, w, rtol=0, atol=1e-12, err_msg="adaptive")
    with pytest.raises(ValueError, match="sample 0 names face 99"):
        spmesh.limit_at(cube, [99], [0.5], [0.5], device="cuda")
