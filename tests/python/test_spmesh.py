"""The Python package spmesh (pip install .) against independent references: counts by hand,
the refinement matrix against eval, the cotangent Laplacian against a face loop in NumPy,
scipy's products for spmv/spgemm, Gauss-Bonnet, and the errors users see. Run by
scripts/python-test.sh (CI) with pytest."""
import os
import re
import subprocess
import sys

import numpy as np
import pytest
import scipy.sparse

import spmesh

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data", "meshes")


def data(name):
    return os.path.join(DATA, name)


def test_read_mesh_gives_numpy_positions_and_faces_and_info_counts():
    cube = spmesh.read_mesh(data("cube.obj"))
    assert cube.positions.shape == (8, 3) and cube.positions.dtype == np.float64
    assert cube.faces.shape == (6, 4)
    assert cube.faces[0].tolist() == [0, 1, 3, 2]  # OBJ's 1-based ids, 0-based here
    info = spmesh.info(cube)
    assert (info["vertices"], info["edges"], info["faces"], info["euler_characteristic"]) == (8, 12, 6, 2)
    assert info["face_orders"] == {4: 6} and info["problem"] == ""


def test_subdivide_build_and_replay_agree_and_count_as_catmull_clark_does():
    cube = spmesh.read_mesh(data("cube.obj"))
    fine = spmesh.subdivide(cube, levels=2)
    # Catmull-Clark: V + F + E vertices and 4x the faces a level (8 -> 26 -> 98).
    assert fine.positions.shape == (98, 3) and fine.faces.shape == (96, 4)
    plan = spmesh.build(cube, levels=2)
    R = plan.refinement_matrix()
    assert isinstance(R, scipy.sparse.csr_array) and R.shape == (98, 8)
    np.testing.assert_allclose(R @ cube.positions, fine.positions, atol=1e-14)
    np.testing.assert_array_equal(plan.eval(cube.positions), fine.positions)
    np.testing.assert_array_equal(plan.faces, fine.faces)
    # A pose replayed is the subdivision of the moved mesh.
    pose = cube.positions * [1.0, 2.0, 0.5] + [0.1, 0.0, -0.3]
    moved = spmesh.mesh(pose, cube.faces)
    np.testing.assert_allclose(plan.replay(pose), spmesh.subdivide(moved, levels=2).positions, atol=1e-14)
    np.testing.assert_allclose(R.sum(axis=1), 1.0, atol=1e-14)  # affine: rows sum to 1


def test_holes_keep_every_point_and_leave_their_faces_out(tmp_path):
    holed = tmp_path / "holed.obj"
    holed.write_text(open(data("cube.obj")).read() + "t hole 1/0/0 2\n")
    cube, with_hole = spmesh.read_mesh(data("cube.obj")), spmesh.read_mesh(str(holed))
    whole, fine = spmesh.subdivide(cube, levels=2), spmesh.subdivide(with_hole, levels=2)
    np.testing.assert_array_equal(fine.positions, whole.positions)  # a hole takes part in the rules
    assert fine.faces.shape == (96 - 16, 4)
    assert {tuple(f) for f in fine.faces} < {tuple(f) for f in whole.faces}
    plan = spmesh.build(with_hole, levels=2)
    np.testing.assert_array_equal(plan.faces, fine.faces)
    np.testing.assert_allclose(plan.replay(with_hole.positions), fine.positions, atol=1e-14)
    limit, _ = spmesh.limit(with_hole, level=2)
    np.testing.assert_array_equal(limit.faces, fine.faces)
    with pytest.raises(spmesh.InputError, match="is on face 2, a hole"):
        spmesh.limit_at(with_hole, [2], [0.5], [0.5])
    with pytest.raises(spmesh.InputError, match="sqrt3 keeps no hole tags"):
        spmesh.subdivide(spmesh.triangulate(with_hole), levels=1, scheme="sqrt3")


@pytest.mark.parametrize("scheme,faces", [("loop", 12 * 16), ("sqrt3", 12 * 9)])
def test_triangle_schemes(scheme, faces):
    triangles = spmesh.triangulate(spmesh.read_mesh(data("cube.obj")))
    fine = spmesh.subdivide(triangles, levels=2, scheme=scheme)
    assert fine.faces.shape == (faces, 3)
    np.testing.assert_allclose(spmesh.refinement_matrix(triangles, 2, scheme) @ triangles.positions, fine.positions,
                               atol=1e-14)


def cotangent_laplacian_by_faces(positions, faces):
    """The cotangent Laplacian assembled triangle by triangle in NumPy."""
    n = len(positions)
    rows, cols, values = [], [], []
    for f in faces:
        for corner in range(3):
            o, a, b = f[corner], f[(corner + 1) % 3], f[(corner + 2) % 3]
            e, g = positions[a] - positions[o], positions[b] - positions[o]
            cot = np.dot(e, g) / np.linalg.norm(np.cross(e, g))  # the angle at o, opposite edge ab
            rows += [a, b, a, b]
            cols += [b, a, a, b]
            values += [cot / 2, cot / 2, -cot / 2, -cot / 2]
    return scipy.sparse.csr_array((values, (rows, cols)), shape=(n, n))


def test_cotangent_laplacian_is_scipy_sparse_without_a_copy_and_equals_a_face_loop():
    torus = spmesh.triangulate(spmesh.read_mesh(data("torus.obj")))
    L = spmesh.cotangent_laplacian(torus)
    assert isinstance(L, scipy.sparse.csr_array) and L.shape == (torus.vertex_count,) * 2
    assert not L.data.flags.owndata  # spmesh's own buffer
    want = cotangent_laplacian_by_faces(torus.positions, torus.faces)
    assert abs(L - want).max() <= 1e-12 * abs(want).max()
    np.testing.assert_allclose(L.sum(axis=1), 0, atol=1e-12)
    M = spmesh.mass_matrix(torus)
    areas = np.linalg.norm(np.cross(*(torus.positions[torus.faces[:, k]] - torus.positions[torus.faces[:, 0]]
                                      for k in (1, 2))), axis=1) / 2
    assert M.sum() == pytest.approx(areas.sum(), rel=1e-12)
    np.testing.assert_allclose(spmesh.vertex_areas(torus), M.diagonal(), rtol=1e-12)
    full = spmesh.mass_matrix(torus, "full")
    assert full.sum() == pytest.approx(areas.sum(), rel=1e-12)
    # Other positions on the same topology: cotangents do not change with scale, areas by its square.
    scaled = 2 * torus.positions
    assert abs(spmesh.cotangent_laplacian(torus, positions=scaled) - L).max() <= 1e-12 * abs(L).max()
    np.testing.assert_allclose(spmesh.vertex_areas(torus, positions=scaled), 4 * M.diagonal(), rtol=1e-12)
    with pytest.raises(ValueError, match="5 x 3 points given; 400 x 3 expected|points given"):
        spmesh.vertex_normals(torus, positions=np.zeros((5, 3)))
    with pytest.raises(ValueError, match="read-only"):
        torus.face_indices[0] = 1  # a mesh's topology is fixed (its GPU copy is kept)


def test_curvature_geodesics_smoothing_components():
    torus = spmesh.triangulate(spmesh.read_mesh(data("torus.obj")))
    assert spmesh.angle_defects(torus).sum() == pytest.approx(0, abs=1e-10)  # 2 pi chi, chi = 0
    normals = spmesh.vertex_normals(torus)
    np.testing.assert_allclose(np.linalg.norm(normals, axis=1), 1, atol=1e-14)
    assert spmesh.mean_curvature(torus).shape == (torus.vertex_count,)
    distance = spmesh.heat_geodesic(torus, np.array([0], dtype=np.int32))
    assert distance[0] == pytest.approx(0, abs=1e-9) and (distance[1:] > 0).all()
    smoothed = spmesh.implicit_smoothing(torus, 0.01)
    assert smoothed.shape == torus.positions.shape
    # Two tori side by side: two components of vertices and of faces.
    two = spmesh.mesh(np.vstack([torus.positions, torus.positions + 5]),
                      np.vstack([torus.faces, torus.faces + torus.vertex_count]))
    count, labels = spmesh.vertex_components(two)
    assert count == 2 and (labels[: torus.vertex_count] == 0).all() and (labels[torus.vertex_count:] == 1).all()
    assert spmesh.face_components(two)[0] == 2
    A = spmesh.face_adjacency(torus)
    np.testing.assert_array_equal(A.sum(axis=1), 3)  # a closed triangle mesh: 3 neighbours a face
    U = spmesh.uniform_laplacian(torus)
    np.testing.assert_allclose(U.sum(axis=1), 0)


def test_spmv_and_spgemm_equal_scipy():
    rng = np.random.default_rng(4)
    A = scipy.sparse.random(60, 40, density=0.1, format="csr", random_state=1)
    B = scipy.sparse.random(40, 30, density=0.1, format="csr", random_state=2)
    x = rng.standard_normal(40)
    np.testing.assert_allclose(spmesh.spmv(A, x), A @ x, atol=1e-14)
    X = rng.standard_normal((40, 3))
    np.testing.assert_allclose(spmesh.spmv(A, X), A @ X, atol=1e-14)  # a block: one SpMM
    ones = A.copy()
    ones.data[:] = 1
    np.testing.assert_allclose(spmesh.spmv(A, x, map="ones"), ones @ x, atol=1e-14)
    assert abs(spmesh.spgemm(A, B) - A @ B).max() <= 1e-14


def test_csr_arrays_read_in_place_are_validated_first():
    """spmv reads scipy's arrays in place, so arrays that would send it outside them are refused
    before any product, naming the row."""
    A = scipy.sparse.csr_array((np.ones(3), np.array([0, 2, 1], dtype=np.int32), np.array([0, 1, 3, 3], dtype=np.int32)),
                               shape=(3, 3))
    A.indices[2] = 300  # scipy does not check arrays changed after construction
    with pytest.raises(ValueError, match="row 1 holds index 300, outside \\[0, 3\\)"):
        spmesh.spmv(A, np.ones(3))
    A.indices[2] = 1
    A.indptr[1], A.indptr[2] = 3, 2  # offsets 0, 3, 2, 3: row 1 runs backwards
    with pytest.raises(ValueError, match="row 1 has decreasing offsets"):
        spmesh.spmv(A, np.ones(3))
    with pytest.raises(ValueError, match="A has 3 columns"):
        spmesh.spmv(scipy.sparse.identity(3, format="csr"), np.ones(4))


def test_refinement_matrix_is_the_plans_own_read_only_and_replay_uses_it():
    cube = spmesh.read_mesh(data("cube.obj"))
    plan = spmesh.build(cube, levels=3)
    R = plan.refinement_matrix()
    assert not R.data.flags.writeable and not R.data.flags.owndata  # shared with the plan, not copied
    poses = [cube.positions * s for s in (1.0, 0.5, 2.0)]
    for pose in poses:
        np.testing.assert_allclose(plan.replay(pose), R @ pose, rtol=0, atol=1e-14)
        np.testing.assert_allclose(plan.replay(pose), plan.eval(pose), rtol=0, atol=1e-13)


def regular_limit_positions(positions, faces):
    """Catmull-Clark's limit at a regular vertex (valence 4, quads): (16 v + 4 sum of edge
    neighbours + sum of diagonal neighbours) / 36, summed here face by face (each edge neighbour
    lies in two faces of the vertex)."""
    total = 16 * positions.copy()
    for face in faces:
        for k in range(4):
            v, after, opposite, before = (face[(k + j) % 4] for j in range(4))
            total[v] += 2 * (positions[after] + positions[before]) + positions[opposite]
    return total / 36


def test_limit_at_vertices_and_samples_agree_with_the_closed_form_and_each_other():
    torus = spmesh.read_mesh(data("torus.obj"))  # every vertex regular
    level0, normals = spmesh.limit(torus, level=0)
    want = regular_limit_positions(torus.positions, torus.faces)
    np.testing.assert_allclose(level0.positions, want, rtol=0, atol=1e-14)
    np.testing.assert_array_equal(level0.faces, torus.faces)
    np.testing.assert_allclose(np.linalg.norm(normals, axis=1), 1, atol=1e-14)
    assert (np.einsum("ij,ij->i", normals, spmesh.vertex_normals(spmesh.triangulate(torus))) > 0.9).all()
    level1, _ = spmesh.limit(torus, level=1)
    assert level1.vertex_count == spmesh.subdivide(torus, 1).vertex_count
    # At a face's corner (u, v) = (0, 0), the limit is its first vertex's limit point.
    faces = np.arange(torus.face_count)
    corners, du, dv = spmesh.limit_at(torus, faces, np.zeros(len(faces)), np.zeros(len(faces)))
    np.testing.assert_allclose(corners, want[torus.faces[:, 0]], rtol=0, atol=1e-13)
    # The derivatives are the positions' central differences (bicubic: error O(h^2)).
    u, v, h = np.full(len(faces), 0.3), np.full(len(faces), 0.6), 1e-4
    middle, du, dv = spmesh.limit_at(torus, faces, u, v)
    ahead, _, _ = spmesh.limit_at(torus, faces, u + h, v)
    behind, _, _ = spmesh.limit_at(torus, faces, u - h, v)
    np.testing.assert_allclose((ahead - behind) / (2 * h), du, rtol=0, atol=1e-7)
    ahead, _, _ = spmesh.limit_at(torus, faces, u, v + h)
    behind, _, _ = spmesh.limit_at(torus, faces, u, v - h)
    np.testing.assert_allclose((ahead - behind) / (2 * h), dv, rtol=0, atol=1e-7)


def test_limit_at_adaptive_is_the_uniform_limit():
    lantern = spmesh.read_mesh(data("lantern.obj"))  # polygons and extraordinary vertices
    faces = np.repeat(np.arange(lantern.face_count), 3)
    u, v = np.tile([0.0, 0.2, 0.45], lantern.face_count), np.tile([0.0, 0.3, 0.1], lantern.face_count)
    uniform = spmesh.limit_at(lantern, faces, u, v, depth=4)
    adaptive = spmesh.limit_at(lantern, faces, u, v, depth=4, adaptive=True)
    for a, b in zip(adaptive, uniform):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-12)
    with pytest.raises(spmesh.InputError, match="adaptive refinement is not built"):
        spmesh.limit_at(spmesh.triangulate(lantern), faces[:1], u[:1], v[:1], scheme="loop", adaptive=True)


def test_errors_are_python_exceptions_with_spmesh_messages():
    with pytest.raises(ValueError, match="nothing.obj: cannot open for reading"):
        spmesh.read_mesh(data("nothing.obj"))
    cube = spmesh.read_mesh(data("cube.obj"))
    with pytest.raises(ValueError, match="face 0 has 4 corners"):
        spmesh.cotangent_laplacian(cube)
    with pytest.raises(ValueError, match="vertex"):
        spmesh.mesh(np.zeros((3, 3)), np.array([[0, 1, 7]]))
    with pytest.raises(ValueError, match="unknown scheme 'butterfly'"):
        spmesh.subdivide(cube, levels=1, scheme="butterfly")
    with pytest.raises(ValueError, match="5 x 3 points given; 8 x 3 expected"):
        spmesh.build(cube, 1).replay(np.zeros((5, 3)))
    with pytest.raises(ValueError, match="device 'gpu' \\(cpu or cuda\\)"):
        spmesh.build(cube, 1, device="gpu")
    if not spmesh.cuda_available():
        with pytest.raises(RuntimeError, match="device 'cuda'"):
            spmesh.subdivide(cube, 1, device="cuda")
    with pytest.raises(ValueError, match="loop's limit|Loop"):
        spmesh.limit_at(cube, [0], [0.5], [0.5], scheme="loop")  # quads: Loop takes triangles
    with pytest.raises(ValueError, match="sample 1 names face 6"):
        spmesh.limit_at(cube, [0, 6], [0.5, 0.5], [0.5, 0.5])


def test_python_m_spmesh_is_the_command_line(tmp_path):
    run = subprocess.run([sys.executable, "-m", "spmesh", "info", data("cube.obj")], capture_output=True, text=True)
    assert run.returncode == 0 and re.search(r"^vertices\s+8$", run.stdout, re.M), run.stdout
    out = tmp_path / "fine.obj"
    run = subprocess.run([sys.executable, "-m", "spmesh", "subdivide", data("cube.obj"), "-o", str(out), "--levels",
                          "2", "--precision", "double"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    written = spmesh.read_mesh(str(out))
    np.testing.assert_allclose(written.positions, spmesh.subdivide(spmesh.read_mesh(data("cube.obj")), 2).positions,
                               atol=1e-12)
    run = subprocess.run([sys.executable, "-m", "spmesh", "subdivide", data("nothing.obj"), "-o", str(out),
                          "--levels", "1"], capture_output=True, text=True)
    assert run.returncode == 1 and "nothing.obj" in run.stderr
