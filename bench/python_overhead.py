"""The Python package's cost over the C++ library's (issue 27's target: under 5% at 1M faces),
and SciPy as the Python peer, side by side in one run.

The mesh (default: ArmorGuy refined LEVELS=3 times by Catmull-Clark, then cut into triangles:
about 1.1M triangles) goes through
  - the cotangent Laplacian: spmesh.cotangent_laplacian (CPU: a scipy.sparse matrix; GPU, with
    the positions as a CuPy array: a cupyx matrix), the same in NumPy/SciPy (libigl's
    triplets, scipy.sparse.coo -> csr), and libigl's own igl.cotmatrix where it is installed;
  - replay: Plan.replay of the base positions through the LEVELS levels' R (CPU: NumPy; GPU:
    CuPy in, CuPy out);
  - 100 CG iterations of implicit smoothing's (M - tL) x = M p (SciPy's cg, one column) for the
    Python peer of spmesh_bench_algebra's CG row.
The C++ side is spmesh_bench_algebra on the same mesh and levels in the same run (--cxx), whose
rows the Python calls are divided by. Each spmesh row is timed twice in this process: the
package's call (spmesh.X) and the module's alone (spmesh._spmesh, without the package's wrapping
into scipy/cupyx objects), so that the binding's own cost shows beside the run-to-run spread of
the CPU. Times are medians of --repeats calls after one warm-up; a GPU call's time runs until the
GPU has finished its work (spmesh's GPU calls return before that, as the C++ rows' calls do, which
are timed to their executor's synchronize()).

    python3 bench/python_overhead.py [--cxx build/device/bench/spmesh_bench_algebra] \
        [--mesh ArmorGuy.obj] [--levels 3] [--repeats 11] [--json out.json]
(spmesh importable: PYTHONPATH=BUILD/python.)
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import scipy.sparse
import scipy.sparse.linalg

import spmesh


def median_ms(repeats, f):
    f()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        f()
        times.append((time.perf_counter() - start) * 1e3)
    return sorted(times)[len(times) // 2]


def scipy_cotangent_laplacian(positions, triangles):
    """libigl's cotmatrix in NumPy/SciPy: half the cotangent of each corner's angle on its opposite
    edge, off the diagonal, and minus that on the diagonal."""
    rows, cols, values = [], [], []
    for corner in range(3):
        o, a, b = (triangles[:, (corner + k) % 3] for k in range(3))
        e, g = positions[a] - positions[o], positions[b] - positions[o]
        half_cot = np.einsum("ij,ij->i", e, g) / np.linalg.norm(np.cross(e, g), axis=1) / 2
        rows += [a, b, a, b]
        cols += [b, a, a, b]
        values += [half_cot, half_cot, -half_cot, -half_cot]
    n = len(positions)
    return scipy.sparse.coo_matrix((np.concatenate(values), (np.concatenate(rows), np.concatenate(cols))),
                                   shape=(n, n)).tocsr()


def cxx_rows(cxx, mesh_path, levels, repeats):
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "algebra.json")
        subprocess.run([cxx, f"{mesh_path}:{levels}", "--repeats", str(repeats), "--json", out], check=True,
                       stdout=sys.stderr)
        with open(out) as f:
            return {(row["what"], row["target"]): row["ms"] for row in json.load(f)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cxx", help="spmesh_bench_algebra of the same build (without it: no C++ rows)")
    parser.add_argument("--mesh", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "meshes",
                                                       "characters", "ArmorGuy.obj"))
    parser.add_argument("--levels", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=11)
    parser.add_argument("--json")
    args = parser.parse_args()

    base = spmesh.read_mesh(args.mesh)
    triangles = spmesh.triangulate(spmesh.subdivide(base, args.levels))
    name = f"{os.path.basename(args.mesh)} L{args.levels}"
    print(f"{name}: {triangles.vertex_count} vertices, {triangles.face_count} triangles", flush=True)
    cxx = cxx_rows(args.cxx, args.mesh, args.levels, args.repeats) if args.cxx else {}
    rows = []

    def row(what, target, ms, cxx_key=None, module_ms=None):
        entry = {"mesh": name, "what": what, "target": target, "ms": ms}
        note = ""
        if module_ms is not None:
            entry["module_ms"] = module_ms
            note = f"module call alone {module_ms:.3f} ms; "
        if cxx_key in cxx:
            entry["cxx_ms"] = cxx[cxx_key]
            entry["overhead"] = ms / cxx[cxx_key] - 1
            note += f"C++ {cxx[cxx_key]:.3f} ms, binding overhead {100 * entry['overhead']:+.1f}%"
        rows.append(entry)
        print(f"{what:<28} {target:<30} {ms:10.3f}  {note}", flush=True)

    P, F = triangles.positions, triangles.faces
    module = spmesh._spmesh
    row("cotangent Laplacian", "spmesh CPU from Python",
        median_ms(args.repeats, lambda: spmesh.cotangent_laplacian(triangles)), ("cotangent Laplacian", "spmesh CPU"),
        median_ms(args.repeats, lambda: module._cotangent_laplacian(triangles, None)))
    row("cotangent Laplacian", "SciPy (libigl's triplets)",
        median_ms(args.repeats, lambda: scipy_cotangent_laplacian(P, F)))
    try:
        import igl  # libigl's Python bindings (PyPI libigl), where installed
    except ImportError:
        igl = None
        print("libigl's Python bindings not installed: no libigl row", flush=True)
    if igl is not None:
        F64 = np.ascontiguousarray(F, dtype=np.int64)
        L_igl = igl.cotmatrix(P, F64)
        L_spmesh = spmesh.cotangent_laplacian(triangles)
        difference = abs(L_igl - L_spmesh).max()
        print(f"  libigl's and spmesh's cotangent Laplacians differ by at most {difference:.2e}, "
              f"{difference / abs(L_spmesh).max():.1e} of the largest entry", flush=True)
        row("cotangent Laplacian", "libigl (Python)", median_ms(args.repeats, lambda: igl.cotmatrix(P, F64)))
    plan = spmesh.build(base, args.levels)
    row("replay R P0", "spmesh CPU from Python", median_ms(args.repeats, lambda: plan.replay(base.positions)),
        ("replay R P0", "spmesh CPU"), median_ms(args.repeats, lambda: plan._plan.replay(base.positions)))

    # SciPy's CG on one column, 100 iterations (tolerance 0), as spmesh_bench_algebra's Eigen row.
    L, mass = spmesh.cotangent_laplacian(triangles), spmesh.mass_matrix(triangles)
    A = (mass - 1e-3 * L).tocsr()
    b = mass @ P[:, 0]

    def scipy_cg():
        try:
            scipy.sparse.linalg.cg(A, b, x0=P[:, 0].copy(), rtol=0, atol=0, maxiter=100)
        except TypeError:  # SciPy before 1.12
            scipy.sparse.linalg.cg(A, b, x0=P[:, 0].copy(), tol=0, atol=0, maxiter=100)

    row("CG 100 iterations x 1", "SciPy cg", median_ms(max(3, args.repeats // 3), scipy_cg))

    if spmesh.cuda_available():
        import cupy
        from cupyx.scipy.sparse import csr_matrix as cupyx_csr

        def waited(f):
            """f, then a wait for the GPU: spmesh's GPU calls return before their work is done, as
            the C++ rows' calls do, which are timed up to their executor's synchronize()."""
            return lambda: (f(), cupy.cuda.runtime.deviceSynchronize())

        P_gpu = cupy.asarray(P)
        row("cotangent Laplacian", "spmesh GPU from Python (CuPy)",
            median_ms(args.repeats, waited(lambda: spmesh.cotangent_laplacian(triangles, positions=P_gpu, device="cuda"))),
            ("cotangent Laplacian", "spmesh GPU"),
            median_ms(args.repeats, waited(lambda: module._cotangent_laplacian_cuda(triangles, P_gpu))))
        gpu_plan = spmesh.build(base, args.levels, device="cuda")
        P0_gpu = cupy.asarray(base.positions)
        row("replay R P0", "spmesh GPU from Python (CuPy)", median_ms(args.repeats, waited(lambda: gpu_plan.replay(P0_gpu))),
            ("replay R P0", "spmesh GPU"), median_ms(args.repeats, waited(lambda: gpu_plan._plan.replay(P0_gpu))))
        # cupyx's own constructor from (data, indices, indptr), which the package does not use: it
        # checks the arrays' contents, waiting for the GPU.
        d, i, p, shape = module._cotangent_laplacian_cuda(triangles, P_gpu)
        d, i, p = cupy.from_dlpack(d), cupy.from_dlpack(i), cupy.from_dlpack(p)
        row("cupyx csr_matrix((d, i, p))", "CuPy", median_ms(args.repeats, lambda: cupyx_csr((d, i, p), shape=shape)))
    for (what, target), ms in sorted(cxx.items()):
        print(f"  C++: {what:<26} {target:<26} {ms:10.3f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rows": rows, "cxx": [{"what": k[0], "target": k[1], "ms": v} for k, v in cxx.items()]}, f, indent=1)


if __name__ == "__main__":
    main()
