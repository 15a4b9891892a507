// The README's GPU example as a program: the refinement matrix R of a mesh (by default
// data/meshes/creased_cube.obj, Catmull-Clark 3 levels, built on the CPU) applied on the GPU,
// and the edge matrix E made there by the implicit M M^T, both checked against the CPU.
// Without a usable GPU it exits 77, which ctest reports as skipped.
#include "examples/expect.hpp"
#include "linalg/cpu/executor.hpp"
#include "linalg/cuda/executor.cuh"
#include "meshops/io.hpp"
#include "meshops/topology.hpp"
#include "schemes/catmull_clark/scheme.hpp"
#include "schemes/tags.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

using examples::expect;

// The collide function of E = M M^T {Q_c + Q_c^(c-1)}: each face side joining two vertices
// counts 1 (Eq. 8). SPMESH_HD makes it callable in the GPU's kernels too.
struct Ones {
  SPMESH_HD spmesh::index_t operator()(const spmesh::linalg::Collision&) const { return 1; }
};

template <class T>
bool same_array(const spmesh::linalg::Array<T>& a, const spmesh::linalg::Array<T>& b) {
  return a.size() == b.size() && std::equal(a.data(), a.data() + a.size(), b.data());
}

int main(int argc, char** argv) {
  // Not at file scope in a .cu file: there spmesh::cuda would make the `cuda::` of nvcc's own
  // generated code (CUDA's namespace cuda) ambiguous. For the same reason the GPU backend is
  // linalg::cuda below: `cuda` alone names both.
  using namespace spmesh;
  using schemes::CatmullClark;
  if (!linalg::cuda::device_available()) {
    std::fprintf(stderr, "skipped: no CUDA device available\n");
    return 77;
  }
  const std::string path = argc > 1 ? argv[1] : "data/meshes/creased_cube.obj";
  cpu::Executor exec;
  auto mesh = meshops::read_mesh(path);
  auto tags = schemes::read_tags(mesh);
  auto plan = schemes::build<CatmullClark>(exec, mesh.M.clone(), std::move(tags.sharpness), 3,
                                         schemes::options_from(tags));
  auto R = schemes::refinement_matrix<float>(exec, plan);
  linalg::Dense<float> P(mesh.vertex_count(), 3);
  for (index_t p = 0; p < P.data.size(); ++p)
    P.data[p] = static_cast<float>(mesh.positions.data[p]);  // float data for the GPU

  linalg::cuda::Executor gpu;                         // one stream, CUB temp storage
  auto R_d = linalg::cuda::to_device(R);              // transfers are explicit
  linalg::Dense<float, linalg::Device> P_d = linalg::cuda::to_device(P), Q_d(R.rows, 3);
  linalg::spmm(gpu, R_d, P_d, Q_d);                   // Q = R P: one writer per row, no atomics
  auto M_d = linalg::cuda::to_device(mesh.M);
  auto E_d = linalg::mmt(gpu, M_d, linalg::Circulant{1, -1}, Ones{});  // E of Eq. 8 on the GPU

  // The CPU's results: GPU and CPU sums of float agree to 1e-6 of the largest coordinate (the
  // rounding of a sum is relative to its terms); integer matrices agree exactly.
  const auto Q = linalg::cuda::to_host(Q_d);
  const auto Q_cpu = linalg::spmm(exec, R, P);
  double largest = 0;
  for (index_t p = 0; p < Q_cpu.data.size(); ++p)
    largest = std::max(largest, double(std::abs(Q_cpu.data[p])));
  expect(examples::max_difference(Q, Q_cpu) <= 1e-6 * largest,
         "R P on the GPU gives the CPU's points to 1e-6");
  const auto E = linalg::cuda::to_host(E_d);
  const auto E_cpu = meshops::edge_matrix(exec, mesh.M);
  expect(E.rows == E_cpu.rows && same_array(E.offsets, E_cpu.offsets) &&
             same_array(E.indices, E_cpu.indices) && same_array(E.values, E_cpu.values),
         "M M^T with Ones on the GPU gives the CPU's edge matrix");

  std::printf("%s: R P on the GPU (%d x %d, %d non-zeros) within %.2g of the CPU; E (%d "
              "non-zeros) the CPU's\n",
              path.c_str(), R.rows, R.cols, R.nnz(), examples::max_difference(Q, Q_cpu), E.nnz());
  return 0;
}
