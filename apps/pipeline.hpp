// The work behind `spmesh subdivide / build / replay`, written once over the executor and
// instantiated for the CPU (spmesh.cpp) and the GPU (pipeline_cuda.cu). Host meshes in, host
// results out; what crosses to the executor's memory goes through to_exec / to_host.
#pragma once

#include "linalg/spmv.hpp"
#include "meshops/mesh.hpp"
#include "schemes/refinement_file.hpp"
#include "schemes/schemes.hpp"

#include <chrono>
#include <cstddef>
#include <string>

namespace spmesh::apps {

// How long each stage took (ms) and the most executor memory held at once (bytes; 0 if the
// executor does not count it).
struct Stages {
  double upload = 0, build = 0, build_and_eval = 0, eval = 0, compose = 0, download = 0;
  std::size_t peak_bytes = 0;
};

inline double elapsed_ms(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since).count();
}

template <class T>
struct Subdivided {
  linalg::Dense<T> positions;
  linalg::MeshMatrix<> mesh;
};

// Host data for the executor and back: on the CPU a copy, on the GPU a transfer.
template <class Exec>
struct Transfer;

using schemes::with_scheme;

// A plan's refined mesh as a host mesh matrix.
template <class X, class S>
linalg::MeshMatrix<> refined_mesh(const schemes::RefinedMesh<S>& r) {
  schemes::RefinedMesh<linalg::Host> host;
  host.vertices = r.vertices, host.faces = r.faces, host.order = r.order;
  host.offsets = X::down(r.offsets), host.indices = X::down(r.indices);
  return host.mesh();
}

// The refined mesh and its vertex positions after `levels` levels of Scheme.
template <class T, class Scheme, class Exec>
Subdivided<T> subdivide(Exec& exec, const meshops::PolyMesh& mesh, const schemes::Sharpness<>& C,
                        const schemes::Options& options, int levels, Stages& stages) {
  using X = Transfer<Exec>;
  auto t = std::chrono::steady_clock::now();
  linalg::Dense<T> P0(mesh.vertex_count(), 3);
  for (index_t p = 0; p < P0.data.size(); ++p) P0.data[p] = static_cast<T>(mesh.positions.data[p]);
  auto M = X::up(mesh.M);
  auto sharpness = schemes::Sharpness<typename Exec::space>{X::up(C.edges), X::up(C.vertices)};
  auto P = X::up(P0);
  exec.synchronize();
  stages.upload = elapsed_ms(t);

  t = std::chrono::steady_clock::now();
  const auto refined =
      schemes::build_and_eval<Scheme>(exec, std::move(M), std::move(sharpness), levels, P, options);
  exec.synchronize();
  stages.build_and_eval = elapsed_ms(t);

  t = std::chrono::steady_clock::now();
  Subdivided<T> out{X::down(refined.data), refined_mesh<X>(refined.mesh)};
  stages.download = elapsed_ms(t);
  stages.peak_bytes = X::peak_bytes();
  return out;
}

// The refinement matrix R of `levels` levels with its base and refined meshes, for replay.
template <class T, class Scheme, class Exec>
schemes::Refinement<T> build_refinement(Exec& exec, const meshops::PolyMesh& mesh,
                                        const schemes::Sharpness<>& C,
                                        const schemes::Options& options, int levels,
                                        Stages& stages) {
  using X = Transfer<Exec>;
  auto t = std::chrono::steady_clock::now();
  auto sharpness = schemes::Sharpness<typename Exec::space>{X::up(C.edges), X::up(C.vertices)};
  const auto plan =
      schemes::build<Scheme>(exec, X::up(mesh.M), std::move(sharpness), levels, options);
  exec.synchronize();
  stages.build = elapsed_ms(t);
  t = std::chrono::steady_clock::now();
  const auto R = schemes::refinement_matrix<T>(exec, plan);
  exec.synchronize();
  stages.compose = elapsed_ms(t);
  stages.peak_bytes = X::peak_bytes();
  return {Scheme::name, levels, options, X::down(R), mesh.M.clone(), refined_mesh<X>(plan.refined)};
}

// P_L = R P_0 for one pose.
template <class T, class Exec>
linalg::Dense<T> replay(Exec& exec, const linalg::Csr<T, typename Exec::space>& R,
                        const linalg::Dense<T>& P0, Stages& stages) {
  using X = Transfer<Exec>;
  const auto P = X::up(P0);
  auto t = std::chrono::steady_clock::now();
  const auto Q = linalg::spmm(exec, R, P);
  exec.synchronize();
  stages.eval = elapsed_ms(t);
  stages.peak_bytes = X::peak_bytes();
  return X::down(Q);
}

}  // namespace spmesh::apps
