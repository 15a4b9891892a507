// libspmesh_bench_calls: the C++ calls that bench/python_overhead.py divides the Python package's
// calls by, loaded into the Python process itself (ctypes), so that both run with the same
// threads, allocator and caches, interleaved call by call: the binding's cost is then not lost
// in the spread between two processes (15-30% on the CPU when the C++ side was a program of its
// own). Each call is made as the package makes it, a new result each time:
//   - "cotangent_laplacian": meshops::cotangent_laplacian of the mesh read, refined `levels`
//     times by Catmull-Clark and cut into triangles (meshops::triangulate's default, as
//     spmesh.triangulate(spmesh.subdivide(mesh, levels)));
//   - "implicit_smoothing": meshops::implicit_smoothing of that mesh at t = 1e-3 (its matrices
//     made, then conjugate gradients to the default tolerance), as spmesh.implicit_smoothing;
//   - "replay": R P0 by one SpMM, R of `levels` Catmull-Clark levels of the mesh read (as
//     spmesh.build(mesh, levels).replay(mesh.positions)).
// On the GPU (gpu = 1: cuda/python_calls.cu, in a library built with CUDA) the inputs are on
// the device before the first call; every call's time runs to its executor's synchronize().
//
//   void* spmesh_calls_open(const char* what, const char* mesh, int levels, int gpu);
//   double spmesh_calls_time_ms(void* call);          // one call, timed; -1 on error
//   long long spmesh_calls_result_size(void* call);   // the result's entries (nnz, or rows x 3)
//   void spmesh_calls_close(void* call);
//   const char* spmesh_calls_error(void);             // why the last open or call failed
#include "bench/python_calls.hpp"
#include "linalg/cpu/executor.hpp"
#include "meshops/io.hpp"
#include "meshops/triangulate.hpp"
#include "schemes/schemes.hpp"
#include "schemes/tags.hpp"

#include <chrono>

namespace spmesh::bench {
namespace {

std::string last_error;

meshops::PolyMesh refined_triangles(const std::string& path, int levels) {
  auto mesh = meshops::read_mesh(path);
  linalg::cpu::Executor exec;
  auto tags = schemes::read_tags(mesh);
  auto refined = schemes::build_and_eval<schemes::CatmullClark>(exec, mesh.M.clone(), std::move(tags.sharpness), levels,
                                                                mesh.positions, schemes::options_from(tags));
  mesh.M = std::move(refined.mesh).mesh();
  mesh.positions = std::move(refined.data);
  mesh.tags.clear();
  return meshops::triangulate(mesh);
}

CallInputs inputs(const std::string& what, const std::string& path, int levels) {
  CallInputs in{what, {}, {}, {}};
  if (what == "cotangent_laplacian" || what == "implicit_smoothing") {
    in.triangles = refined_triangles(path, levels);
  } else if (what == "replay") {
    auto base = meshops::read_mesh(path);
    linalg::cpu::Executor exec;
    auto tags = schemes::read_tags(base);
    const auto plan = schemes::build<schemes::CatmullClark>(exec, base.M.clone(), std::move(tags.sharpness), levels,
                                                            schemes::options_from(tags));
    in.R = schemes::refinement_matrix<double>(exec, plan);
    in.P0 = std::move(base.positions);
  } else {
    throw Error("libspmesh_bench_calls: no call named '" + what + "' (cotangent_laplacian, implicit_smoothing, replay)");
  }
  return in;
}

std::unique_ptr<Call> call_on_cpu(CallInputs in) {
  using linalg::cpu::Executor;
  if (in.what == "replay")
    return std::make_unique<Replay<Executor, linalg::Csr<double>, linalg::Dense<double>>>(std::move(in.R),
                                                                                         std::move(in.P0));
  return std::make_unique<MeshAlgorithm<Executor, linalg::MeshMatrix<>, linalg::Dense<double>>>(
      std::move(in.triangles.M), std::move(in.triangles.positions), in.what == "implicit_smoothing");
}

}  // namespace

#if !defined(SPMESH_BENCH_GPU)
std::unique_ptr<Call> call_on_gpu(CallInputs) {
  throw Error("libspmesh_bench_calls: built without CUDA (no GPU calls)");
}
#endif

}  // namespace spmesh::bench

extern "C" {

void* spmesh_calls_open(const char* what, const char* mesh, int levels, int gpu) {
  using namespace spmesh::bench;
  try {
    auto in = inputs(what, mesh, levels);
    return (gpu ? call_on_gpu(std::move(in)) : call_on_cpu(std::move(in))).release();
  } catch (const std::exception& e) {
    last_error = e.what();
    return nullptr;
  }
}

double spmesh_calls_time_ms(void* call) {
  try {
    const auto start = std::chrono::steady_clock::now();
    static_cast<spmesh::bench::Call*>(call)->once();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  } catch (const std::exception& e) {
    spmesh::bench::last_error = e.what();
    return -1;
  }
}

long long spmesh_calls_result_size(void* call) { return static_cast<spmesh::bench::Call*>(call)->result_size; }

void spmesh_calls_close(void* call) { delete static_cast<spmesh::bench::Call*>(call); }

const char* spmesh_calls_error(void) { return spmesh::bench::last_error.c_str(); }
}
