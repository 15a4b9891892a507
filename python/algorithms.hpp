// The mesh algorithms of meshops/ for Python, on any executor: bind_algorithms<Exec>(module,
// suffix) defines _cotangent_laplacian<suffix>, ... (bindings.cpp: the CPU's, no suffix;
// bindings_cuda.cu: the GPU's, "_cuda"), which spmesh/__init__.py calls by the `device` asked.
// The mesh's topology is read where the executor keeps it (Side<Exec>::topology), its positions
// are the mesh's own or those given (`positions`: NumPy, or on the GPU a GPU array too); results
// come back where they were made (NumPy on the CPU, DLPack tensors on the GPU).
#pragma once

#include "meshops/components.hpp"
#include "meshops/curvature.hpp"
#include "meshops/geodesics.hpp"
#include "meshops/laplacian.hpp"
#include "meshops/normals.hpp"
#include "meshops/smoothing.hpp"
#include "python/mesh.hpp"
#include "python/side.hpp"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include <optional>
#include <string>

namespace spmesh::python {

template <class Exec>
void bind_algorithms(nb::module_& module, const std::string& suffix) {
  using namespace nb::literals;
  using X = Side<Exec>;
  auto def = [&](const char* name, auto&& f, auto... extra) {
    module.def((std::string(name) + suffix).c_str(), std::forward<decltype(f)>(f), extra...);
  };
  // f(exec, M, P) of a mesh (P: the positions given, or the mesh's own), its result handed out.
  auto on_mesh = [](const char* what, auto f) {
    return [what, f](const Mesh& mesh, const std::optional<AnyPoints>& positions) {
      Exec& exec = thread_executor<Exec>();
      return X::with_positions(mesh, positions, what, [&](const auto& P) { return out<Exec>(f(exec, X::topology(mesh), P)); });
    };
  };
  auto components = [](auto f) {
    return [f](const Mesh& mesh) {
      Exec& exec = thread_executor<Exec>();
      auto c = f(exec, X::topology(mesh));
      return nb::make_tuple(c.count, out<Exec>(std::move(c.component)));
    };
  };
  const auto positions_arg = (nb::arg("positions") = nb::none());

  def("_cotangent_laplacian", on_mesh("cotangent_laplacian", [](Exec& e, const auto& M, const auto& P) {
        return meshops::cotangent_laplacian(e, M, P);
      }), "mesh"_a, positions_arg);
  def("_mass_matrix", [](const Mesh& mesh, const std::string& kind, const std::optional<AnyPoints>& positions) {
    if (kind != "barycentric" && kind != "full")
      throw InputError("mass_matrix: kind '" + kind + "' (barycentric or full)");
    Exec& exec = thread_executor<Exec>();
    return X::with_positions(mesh, positions, "mass_matrix", [&](const auto& P) {
      return out<Exec>(meshops::mass_matrix(exec, X::topology(mesh), P,
                                            kind == "full" ? meshops::MassMatrix::full : meshops::MassMatrix::barycentric));
    });
  }, "mesh"_a, "kind"_a, positions_arg);
  def("_uniform_laplacian", [](const Mesh& mesh) {
    Exec& exec = thread_executor<Exec>();
    return out<Exec>(meshops::uniform_laplacian(exec, X::topology(mesh)));
  });
  def("_face_adjacency", [](const Mesh& mesh) {
    Exec& exec = thread_executor<Exec>();
    return out<Exec>(linalg::cast_values<double>(exec, meshops::face_adjacency(exec, X::topology(mesh))));
  });
  def("_vertex_normals", on_mesh("vertex_normals", [](Exec& e, const auto& M, const auto& P) {
        return meshops::vertex_normals(e, M, P);
      }), "mesh"_a, positions_arg);
  def("_vertex_areas", on_mesh("vertex_areas", [](Exec& e, const auto& M, const auto& P) {
        return meshops::vertex_areas(e, M, P);
      }), "mesh"_a, positions_arg);
  def("_angle_defects", on_mesh("angle_defects", [](Exec& e, const auto& M, const auto& P) {
        return meshops::angle_defects(e, M, P);
      }), "mesh"_a, positions_arg);
  def("_mean_curvature", on_mesh("mean_curvature", [](Exec& e, const auto& M, const auto& P) {
        return meshops::mean_curvature(e, M, P);
      }), "mesh"_a, positions_arg);
  def("_heat_geodesic", [](const Mesh& mesh, const Indices& sources, double time_factor,
                           const std::optional<AnyPoints>& positions) {
    Exec& exec = thread_executor<Exec>();
    meshops::HeatGeodesicOptions options;
    options.time_factor = time_factor;
    return X::with_positions(mesh, positions, "heat_geodesic", [&](const auto& P) {
      return out<Exec>(meshops::heat_geodesic(exec, X::topology(mesh), P, X::up(copy_array<index_t>(sources)), options).distance);
    });
  }, "mesh"_a, "sources"_a, "time_factor"_a, positions_arg);
  def("_implicit_smoothing", [](const Mesh& mesh, double t, const std::optional<AnyPoints>& positions) {
    Exec& exec = thread_executor<Exec>();
    return X::with_positions(mesh, positions, "implicit_smoothing", [&](const auto& P) {
      auto result = meshops::implicit_smoothing(exec, X::topology(mesh), P, t);
      if (!result.solve.converged)
        throw Error("implicit_smoothing: CG did not converge in " + std::to_string(result.solve.iterations) +
                    " iterations (relative residual " + std::to_string(result.solve.relative_residual) + ")");
      return out<Exec>(std::move(result.points));
    });
  }, "mesh"_a, "t"_a, positions_arg);
  def("_vertex_components", components([](Exec& e, const auto& M) { return meshops::vertex_components(e, M); }));
  def("_face_components", components([](Exec& e, const auto& M) { return meshops::face_components(e, M); }));
}

}  // namespace spmesh::python
