"""The Python package's cost over the C++ library's (issue 27's target: under 5% at 1M faces),
and SciPy as the Python peer, side by side in one run.

The mesh (default: ArmorGuy refined LEVELS=3 times by Catmull-Clark, then cut into triangles:
about 1.1M triangles) goes through
  - the cotangent Laplacian: spmesh.cotangent_laplacian (CPU: a scipy.sparse matrix; GPU, with
    the positions as a CuPy array: a cupyx matrix), the same in NumPy/SciPy (libigl's
    triplets, scipy.sparse.coo -> csr), and libigl's own igl.cotmatrix where it is installed;
  - replay: Plan.replay of the base positions through the LEVELS levels' R (CPU: NumPy; GPU:
    CuPy in, CuPy out);
  - implicit smoothing, (M - tL) X = M P solved by conjugate gradients to spmesh's default
    tolerance (spmesh.implicit_smoothing: the matrices made, then the solve), t = 1e-3;
  - 100 CG iterations of that system (SciPy's cg, one column) for the Python peer of
    spmesh_bench_algebra's CG row.
The C++ side is libspmesh_bench_calls (bench/python_calls.cpp, --calls), the same library calls
made from C++ and timed there, loaded into this process by ctypes, so that the C++ call, the
module's call (spmesh._spmesh, without the package's wrapping into scipy/cupyx objects) and the
package's (spmesh.X) run with the same threads, allocator and caches. They are made in turn,
call by call (--repeats rounds after one warm-up each), so that a drift of the machine's speed
falls on all three alike; each time is the median of its rounds. (Before, the C++ side was
spmesh_bench_algebra, a process of its own, and the CPU's times moved 15-30% between the two
processes.) A GPU call's time runs until the GPU has finished its work (spmesh's GPU calls
return before that; the C++ calls are timed to their executor's synchronize()).

    python3 bench/python_overhead.py [--calls BUILD/bench/libspmesh_bench_calls.so] \
        [--mesh ArmorGuy.obj] [--levels 3] [--repeats 11] [--peer-repeats N] [--json out.json]
(spmesh importable: PYTHONPATH=BUILD/python.)
"""
import argparse
import ctypes
import json
import os
import time

import numpy as np
import scipy.sparse
import scipy.sparse.linalg

import spmesh


# implicit smoothing's time step, as libspmesh_bench_calls' (bench/python_calls.cpp).
smoothing_step = 1e-3


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


class CxxCalls:
    """libspmesh_bench_calls: a call opened once (its inputs made and moved to the executor), then
    timed by C++ one call at a time."""

    def __init__(self, path):
        self.lib = ctypes.CDLL(path)
        self.lib.spmesh_calls_open.restype = ctypes.c_void_p
        self.lib.spmesh_calls_open.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_int]
        self.lib.spmesh_calls_time_ms.restype = ctypes.c_double
        self.lib.spmesh_calls_time_ms.argtypes = [ctypes.c_void_p]
        self.lib.spmesh_calls_result_size.restype = ctypes.c_longlong
        self.lib.spmesh_calls_result_size.argtypes = [ctypes.c_void_p]
        self.lib.spmesh_calls_close.argtypes = [ctypes.c_void_p]
        self.lib.spmesh_calls_error.restype = ctypes.c_char_p

    def open(self, what, mesh_path, levels, gpu, result_size):
        """The call `what` on the mesh as the package's call sees it; its result must have
        `result_size` entries (the same matrix or block as the package's)."""
        call = self.lib.spmesh_calls_open(what.encode(), mesh_path.encode(), levels, int(gpu))
        if not call:
            raise RuntimeError(self.lib.spmesh_calls_error().decode())
        opened = CxxCall(self.lib, call)
        size = self.lib.spmesh_calls_result_size(call)
        if size != result_size:
            opened.close()
            raise RuntimeError(f"C++ {what}: a result of {size} entries, the package's has {result_size}")
        return opened


class CxxCall:
    """An opened call: calling it makes one call and returns its time in ms (timed in C++);
    close() frees its inputs."""

    def __init__(self, lib, call):
        self.lib, self.call = lib, call

    def __call__(self):
        ms = self.lib.spmesh_calls_time_ms(self.call)
        if ms < 0:
            raise RuntimeError(self.lib.spmesh_calls_error().decode())
        return ms

    def close(self):
        self.lib.spmesh_calls_close(self.call)


def timed(f):
    """f as a call that returns its time in ms."""
    def once():
        start = time.perf_counter()
        f()
        return (time.perf_counter() - start) * 1e3
    return once


def interleaved_ms(repeats, calls):
    """The median ms of each of `calls` (name -> a call returning its time), made in turn
    `repeats` times after one warm-up each."""
    times = {name: [] for name in calls}
    for once in calls.values():
        once()
    for _ in range(repeats):
        for name, once in calls.items():
            times[name].append(once())
    return {name: sorted(t)[len(t) // 2] for name, t in times.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", help="libspmesh_bench_calls of the same build (without it: no C++ rows)")
    parser.add_argument("--mesh", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "meshes",
                                                       "characters", "ArmorGuy.obj"))
    parser.add_argument("--levels", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=11)
    parser.add_argument("--smoothing", action=argparse.BooleanOptionalAction, default=True,
                        help="the implicit smoothing rows (CG to 1e-10 needs 557 Jacobi iterations at ArmorGuy L3, "
                             "past the default 1,000 from L4 on)")
    parser.add_argument("--peer-repeats", type=int, help="the SciPy and libigl rows' repeats (default: --repeats)")
    parser.add_argument("--json")
    args = parser.parse_args()
    peer_repeats = args.peer_repeats or args.repeats

    base = spmesh.read_mesh(args.mesh)
    triangles = spmesh.triangulate(spmesh.subdivide(base, args.levels))
    name = f"{os.path.basename(args.mesh)} L{args.levels}"
    print(f"{name}: {triangles.vertex_count} vertices, {triangles.face_count} triangles", flush=True)
    calls = CxxCalls(args.calls) if args.calls else None
    rows = []

    def row(what, target, ms, cxx_ms=None, module_ms=None):
        entry = {"mesh": name, "what": what, "target": target, "ms": ms}
        note = ""
        if module_ms is not None:
            entry["module_ms"] = module_ms
            note = f"module call alone {module_ms:.3f} ms; "
        if cxx_ms is not None:
            entry["cxx_ms"] = cxx_ms
            entry["overhead"] = ms / cxx_ms - 1
            note += f"C++ {cxx_ms:.3f} ms, binding overhead {100 * entry['overhead']:+.1f}%"
        rows.append(entry)
        print(f"{what:<28} {target:<30} {ms:10.3f}  {note}", flush=True)

    def binding_row(what, target, cxx_call, module_call, package_call, **more):
        """The package's call, the module's and (with --calls) the C++ call, in turn; `more`:
        other calls timed in the same rounds, printed below the row."""
        timed_calls = {"package": package_call, "module": module_call, **more}
        cxx = cxx_call() if calls is not None else None
        if cxx is not None:
            timed_calls["C++"] = cxx
        try:
            ms = interleaved_ms(args.repeats, timed_calls)
        finally:
            if cxx is not None:
                cxx.close()
        row(what, target, ms["package"], ms.get("C++"), ms["module"])
        for part in more:
            print(f"  {part:<56} {ms[part]:10.3f}", flush=True)
            rows[-1][part] = ms[part]

    P, F = triangles.positions, triangles.faces
    module = spmesh._spmesh
    L = spmesh.cotangent_laplacian(triangles)
    binding_row("cotangent Laplacian", "spmesh CPU from Python",
                lambda: calls.open("cotangent_laplacian", args.mesh, args.levels, False, L.nnz),
                timed(lambda: module._cotangent_laplacian(triangles, None)),
                timed(lambda: spmesh.cotangent_laplacian(triangles)))
    row("cotangent Laplacian", "SciPy (libigl's triplets)",
        median_ms(peer_repeats, lambda: scipy_cotangent_laplacian(P, F)))
    try:
        import igl  # libigl's Python bindings (PyPI libigl), where installed
    except ImportError:
        igl = None
        print("libigl's Python bindings not installed: no libigl row", flush=True)
    if igl is not None:
        F64 = np.ascontiguousarray(F, dtype=np.int64)
        L_igl = igl.cotmatrix(P, F64)
        difference = abs(L_igl - L).max()
        print(f"  libigl's and spmesh's cotangent Laplacians differ by at most {difference:.2e}, "
              f"{difference / abs(L).max():.1e} of the largest entry", flush=True)
        row("cotangent Laplacian", "libigl (Python)", median_ms(peer_repeats, lambda: igl.cotmatrix(P, F64)))
    plan = spmesh.build(base, args.levels)
    binding_row("replay R P0", "spmesh CPU from Python",
                lambda: calls.open("replay", args.mesh, args.levels, False, plan.vertex_count * 3),
                timed(lambda: plan._plan.replay(base.positions)), timed(lambda: plan.replay(base.positions)))

    smoothed = spmesh.implicit_smoothing(triangles, smoothing_step) if args.smoothing else None
    if args.smoothing:
        binding_row("implicit smoothing (CG)", "spmesh CPU from Python",
                    lambda: calls.open("implicit_smoothing", args.mesh, args.levels, False, smoothed.size),
                    timed(lambda: module._implicit_smoothing(triangles, smoothing_step, None)),
                    timed(lambda: spmesh.implicit_smoothing(triangles, smoothing_step)))

    # SciPy's CG on one column, 100 iterations (tolerance 0), as spmesh_bench_algebra's Eigen row.
    mass = spmesh.mass_matrix(triangles)
    A = (mass - smoothing_step * L).tocsr()
    b = mass @ P[:, 0]

    def scipy_cg():
        try:
            scipy.sparse.linalg.cg(A, b, x0=P[:, 0].copy(), rtol=0, atol=0, maxiter=100)
        except TypeError:  # SciPy before 1.12
            scipy.sparse.linalg.cg(A, b, x0=P[:, 0].copy(), tol=0, atol=0, maxiter=100)

    row("CG 100 iterations x 1", "SciPy cg", median_ms(peer_repeats, scipy_cg))

    if spmesh.cuda_available():
        import cupy
        from cupyx.scipy.sparse import csr_matrix as cupyx_csr

        def waited(f):
            """f timed until the GPU has finished (spmesh's GPU calls return before their work
            is done)."""
            return timed(lambda: (f(), cupy.cuda.runtime.deviceSynchronize()))

        P_gpu = cupy.asarray(P)
        # Where the package's time over the module's goes: the three arrays' DLPack exchanges
        # (cupy.from_dlpack) and cupyx's matrix object (spmesh._csr).
        print(f"  cupyx matrices made by {'csr_matrix._from_parts' if hasattr(cupyx_csr, '_from_parts') else 'an empty csr_matrix given the arrays'} (CuPy {cupy.__version__})", flush=True)
        binding_row("cotangent Laplacian", "spmesh GPU from Python (CuPy)",
                    lambda: calls.open("cotangent_laplacian", args.mesh, args.levels, True, L.nnz),
                    waited(lambda: module._cotangent_laplacian_cuda(triangles, P_gpu)),
                    waited(lambda: spmesh.cotangent_laplacian(triangles, positions=P_gpu, device="cuda")),
                    **{"module call and cupy.from_dlpack of its 3 arrays": waited(
                        lambda: [cupy.from_dlpack(a) for a in module._cotangent_laplacian_cuda(triangles, P_gpu)[:3]])})
        if args.smoothing:
            binding_row("implicit smoothing (CG)", "spmesh GPU from Python (CuPy)",
                        lambda: calls.open("implicit_smoothing", args.mesh, args.levels, True, smoothed.size),
                        waited(lambda: module._implicit_smoothing_cuda(triangles, smoothing_step, P_gpu)),
                        waited(lambda: spmesh.implicit_smoothing(triangles, smoothing_step, positions=P_gpu,
                                                                 device="cuda")))
        gpu_plan = spmesh.build(base, args.levels, device="cuda")
        P0_gpu = cupy.asarray(base.positions)
        binding_row("replay R P0", "spmesh GPU from Python (CuPy)",
                    lambda: calls.open("replay", args.mesh, args.levels, True, gpu_plan.vertex_count * 3),
                    waited(lambda: gpu_plan._plan.replay(P0_gpu)), waited(lambda: gpu_plan.replay(P0_gpu)))
        # cupyx's own constructor from (data, indices, indptr), which the package does not use: it
        # checks the arrays' contents, waiting for the GPU.
        d, i, p, shape = module._cotangent_laplacian_cuda(triangles, P_gpu)
        d, i, p = cupy.from_dlpack(d), cupy.from_dlpack(i), cupy.from_dlpack(p)
        row("cupyx csr_matrix((d, i, p))", "CuPy", median_ms(args.repeats, lambda: cupyx_csr((d, i, p), shape=shape)))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
