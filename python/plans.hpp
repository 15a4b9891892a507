// Subdivision plans for Python on any executor: build once, then eval, the refinement matrix R,
// and replay (R P0 by one SpMM, R kept on the executor after its first use). A GPU plan takes
// positions as NumPy arrays (copied up, the result copied down) or as GPU arrays through DLPack
// (read in place by replay, the result left on the GPU).
#pragma once

#include "meshops/checks.hpp"
#include "python/mesh.hpp"
#include "python/side.hpp"
#include "schemes/holes.hpp"
#include "schemes/schemes.hpp"
#include "schemes/tags.hpp"

#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>

#include <memory>
#include <string>

namespace spmesh::python {

// What a plan of any scheme on any executor offers Python.
struct Plan {
  virtual ~Plan() = default;
  virtual index_t vertex_count() const = 0;
  virtual nb::tuple refined_faces() const = 0;  // host (offsets, indices)
  virtual nb::object eval(const AnyPoints& P0) = 0;
  virtual nb::object replay(const AnyPoints& P0) = 0;
  virtual nb::object refinement_matrix() = 0;  // host CSR arrays
  index_t base_vertices = 0;
  std::string device;
  // The base mesh and its holes (TagSettings::holes), whose descendants refined_faces leaves out.
  linalg::MeshMatrix<> base;
  std::vector<char> holes;
};

template <class Scheme, class Exec>
struct PlanOf final : Plan {
  using S = typename Exec::space;
  using X = Side<Exec>;
  Exec exec;
  schemes::Plan<Scheme, S> plan;
  std::shared_ptr<linalg::Csr<double, S>> R;  // made by the first replay or refinement_matrix

  explicit PlanOf(schemes::Plan<Scheme, S> p) : plan(std::move(p)) { device = X::name; }
  index_t vertex_count() const override { return plan.refined.vertices; }
  nb::tuple refined_faces() const override {
    auto M = schemes::without_holes(Scheme::name, X::refined_mesh(plan.refined), base, holes, int(plan.levels.size()));
    return nb::make_tuple(out<linalg::cpu::Executor>(std::move(M.offsets)),
                          out<linalg::cpu::Executor>(std::move(M.indices)));
  }
  nb::object eval(const AnyPoints& P0) override {
    auto P = X::points(P0, "eval", base_vertices);
    return X::out_like(P0, schemes::eval(exec, plan, P));
  }
  const linalg::Csr<double, S>& matrix() {
    if (!R) R = std::make_shared<linalg::Csr<double, S>>(schemes::refinement_matrix<double>(exec, plan));
    return *R;
  }
  nb::object replay(const AnyPoints& P0) override {
    const auto& A = matrix();
    linalg::Dense<double, S> Y(A.rows, 3);
    X::with_rows(P0, "replay", base_vertices, [&](const auto& rows) { linalg::spmm(exec, A, rows, Y); });
    return X::out_like(P0, std::move(Y));
  }
  nb::object refinement_matrix() override { return X::host_csr(matrix(), R); }
};

// f.template operator()<Scheme>(exec, M, C, options, holes): the mesh's matrix and sharpness (its
// tags) in Exec's memory, for the scheme called `scheme`, and its holes (schemes/holes.hpp:
// refused by a scheme that keeps none).
template <class Exec, class F>
decltype(auto) with_mesh_on(const Mesh& mesh, const std::string& scheme, F&& f) {
  using X = Side<Exec>;
  meshops::check_mesh(mesh.mesh);
  auto tags = schemes::read_tags(mesh.mesh, true);
  const auto options = schemes::options_from(tags);
  return schemes::with_scheme(scheme, [&]<class Scheme>() -> decltype(auto) {
    Exec exec;
    auto sharpness = schemes::Sharpness<typename Exec::space>{X::own(tags.sharpness.edges), X::own(tags.sharpness.vertices)};
    schemes::check_holes_kept(scheme, tags.holes, mesh.mesh.source);
    return f.template operator()<Scheme>(exec, X::own(mesh.mesh.M), std::move(sharpness), options, tags.holes);
  });
}

// A plan of `levels` levels of `scheme` on Exec for the mesh's topology and tags.
template <class Exec>
std::shared_ptr<Plan> build_plan(const Mesh& mesh, int levels, const std::string& scheme) {
  return with_mesh_on<Exec>(mesh, scheme, [&]<class Scheme>(Exec& exec, auto M, auto C, const auto& options,
                                                           const std::vector<char>& holes) {
    auto out = std::make_shared<PlanOf<Scheme, Exec>>(schemes::build<Scheme>(exec, std::move(M), std::move(C), levels, options));
    out->base_vertices = mesh.mesh.vertex_count();
    out->base = mesh.mesh.M.clone(), out->holes = holes;
    return std::shared_ptr<Plan>(std::move(out));
  });
}

// The mesh refined `levels` times on Exec, keeping no plan (build_and_eval), back on the host.
template <class Exec>
Mesh subdivide_mesh(const Mesh& mesh, int levels, const std::string& scheme) {
  using X = Side<Exec>;
  return with_mesh_on<Exec>(mesh, scheme, [&]<class Scheme>(Exec& exec, auto M, auto C, const auto& options,
                                                           const std::vector<char>& holes) {
    auto refined = schemes::build_and_eval<Scheme>(exec, std::move(M), std::move(C), levels,
                                                   X::up(mesh.mesh.positions), options);
    Mesh out;
    out.mesh.positions = X::down(std::move(refined.data));
    out.mesh.M = schemes::without_holes(scheme, X::refined_mesh(refined.mesh), mesh.mesh.M, holes, levels);
    out.mesh.source = mesh.mesh.source + " (" + scheme + ", " + std::to_string(levels) + " levels)";
    return out;
  });
}

}  // namespace spmesh::python
