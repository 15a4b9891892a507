// What the two halves of libspmesh_bench_calls (bench/python_calls.cpp) share: a call, its
// inputs on the host, and the calls on any executor. The CPU's calls are compiled by the host
// compiler (python_calls.cpp), as the Python module's CPU functions are (bindings.cpp): under
// nvcc the library's CPU loops run slower, through its __host__ __device__ lambdas' wrappers
// (bench/RESULTS.md, "Machines and commands"). The GPU's are compiled by nvcc
// (cuda/python_calls.cu), as the module's (bindings_cuda.cu).
#pragma once

#include "linalg/formats.hpp"
#include "meshops/laplacian.hpp"
#include "meshops/mesh.hpp"
#include "meshops/smoothing.hpp"

#include <memory>
#include <string>

namespace spmesh::bench {

struct Call {
  virtual ~Call() = default;
  virtual void once() = 0;  // one call, its result dropped, the executor synchronised
  long long result_size = 0;
};

// A call's inputs on the host: a triangle mesh (the mesh algorithms) or R and P0 (replay).
struct CallInputs {
  std::string what;
  meshops::PolyMesh triangles;
  linalg::Csr<double> R;
  linalg::Dense<double> P0;
};

// implicit smoothing's time step (bench/python_overhead.py passes the same).
constexpr double smoothing_step = 1e-3;

// "cotangent_laplacian" or "implicit_smoothing" of a triangle mesh.
template <class Exec, class Mesh, class Points>
struct MeshAlgorithm final : Call {
  Exec exec;
  Mesh M;
  Points P;
  bool smoothing;
  MeshAlgorithm(Mesh mesh, Points points, bool implicit_smoothing)
      : M(std::move(mesh)), P(std::move(points)), smoothing(implicit_smoothing) {
    result_size = smoothing ? static_cast<long long>(P.rows) * 3 : meshops::cotangent_laplacian(exec, M, P).nnz();
  }
  void once() override {
    if (smoothing) {
      if (!meshops::implicit_smoothing(exec, M, P, smoothing_step).solve.converged)
        throw Error("implicit_smoothing: CG did not converge");
    } else {
      meshops::cotangent_laplacian(exec, M, P);
    }
    exec.synchronize();
  }
};

// "replay": R P0 into a new block.
template <class Exec, class Matrix, class Points>
struct Replay final : Call {
  Exec exec;
  Matrix R;
  Points P0;
  Replay(Matrix matrix, Points points) : R(std::move(matrix)), P0(std::move(points)) {
    result_size = static_cast<long long>(R.rows) * 3;
  }
  void once() override {
    linalg::spmm(exec, R, P0);
    exec.synchronize();
  }
};

// The call on the GPU (cuda/python_calls.cu; a library built without CUDA refuses).
std::unique_ptr<Call> call_on_gpu(CallInputs inputs);

}  // namespace spmesh::bench
