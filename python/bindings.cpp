// spmesh._spmesh: the C++ library for Python (nanobind). Arrays come back as NumPy arrays that
// own spmesh's own buffers (no copy: a capsule frees them); arrays going in are copied once into
// spmesh's arrays (they own their memory). Sparse matrices come back as their CSR arrays, which
// spmesh/__init__.py wraps in scipy.sparse without a copy. spmesh's exceptions become Python's:
// InputError and DimensionError a ValueError, any other spmesh::Error a RuntimeError, with
// spmesh's message. CPU executor; the GPU path is the command line's (`python -m spmesh`).
#include "linalg/cpu/executor.hpp"
#include "linalg/spgemm.hpp"
#include "linalg/spmv.hpp"
#include "meshops/checks.hpp"
#include "meshops/components.hpp"
#include "meshops/curvature.hpp"
#include "meshops/geodesics.hpp"
#include "meshops/info.hpp"
#include "meshops/io.hpp"
#include "meshops/normals.hpp"
#include "meshops/smoothing.hpp"
#include "meshops/triangulate.hpp"
#include "schemes/schemes.hpp"
#include "schemes/tags.hpp"

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>

#include <cstring>
#include <memory>
#include <string>
#include <utility>

namespace nb = nanobind;
using namespace nb::literals;

namespace spmesh::python {

using Exec = linalg::cpu::Executor;
template <class T>
using Numpy = nb::ndarray<nb::numpy, T>;
using Points = nb::ndarray<const double, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
using Indices = nb::ndarray<const index_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using Values = nb::ndarray<const double, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

// A NumPy array that owns `values` (moved, not copied), of the given shape.
template <class T>
Numpy<T> to_numpy(linalg::Array<T>&& values, std::initializer_list<std::size_t> shape) {
  auto* held = new linalg::Array<T>(std::move(values));
  nb::capsule owner(held, [](void* p) noexcept { delete static_cast<linalg::Array<T>*>(p); });
  return Numpy<T>(held->data(), shape.size(), shape.begin(), owner);
}
template <class T>
Numpy<T> to_numpy(linalg::Dense<T>&& block) {
  const auto rows = std::size_t(block.rows), cols = std::size_t(block.cols);
  return to_numpy(std::move(block.data), {rows, cols});
}
template <class T>
Numpy<T> to_numpy(linalg::Array<T>&& values) {
  const auto n = std::size_t(values.size());
  return to_numpy(std::move(values), {n});
}

// A CSR matrix as (values, column indices, row offsets, (rows, cols)).
template <class T>
nb::tuple to_numpy(linalg::Csr<T>&& A) {
  const index_t rows = A.rows, cols = A.cols;
  return nb::make_tuple(to_numpy(std::move(A.values)), to_numpy(std::move(A.indices)), to_numpy(std::move(A.offsets)),
                        nb::make_tuple(rows, cols));
}

template <class T, class Source>
linalg::Array<T> copy_array(const Source& source) {
  linalg::Array<T> out(index_t(source.size()));
  std::memcpy(out.data(), source.data(), sizeof(T) * source.size());
  return out;
}

linalg::Dense<double> copy_points(const Points& points, const char* what, index_t rows = -1) {
  if (points.shape(1) != 3 || (rows >= 0 && index_t(points.shape(0)) != rows))
    throw DimensionError(std::string(what) + ": " + std::to_string(points.shape(0)) + " x " +
                         std::to_string(points.shape(1)) + " points given; " +
                         (rows >= 0 ? std::to_string(rows) : std::string("n")) + " x 3 expected");
  linalg::Dense<double> out(index_t(points.shape(0)), 3);
  std::memcpy(out.data.data(), points.data(), sizeof(double) * points.size());
  return out;
}

// A CSR matrix from its arrays (copied), checked as spmesh checks its own.
linalg::Csr<double> copy_csr(const Values& values,
                             const Indices& indices, const Indices& offsets, index_t rows, index_t cols) {
  if (index_t(offsets.size()) != rows + 1 || values.size() != indices.size())
    throw DimensionError("a " + std::to_string(rows) + " x " + std::to_string(cols) + " CSR matrix needs " +
                         std::to_string(rows + 1) + " row offsets (" + std::to_string(offsets.size()) +
                         " given) and as many values as column indices (" + std::to_string(values.size()) + " and " +
                         std::to_string(indices.size()) + ")");
  return linalg::Csr<double>(rows, cols, copy_array<index_t>(offsets), copy_array<index_t>(indices),
                             copy_array<double>(values));
}

// A mesh as Python holds it: spmesh's PolyMesh.
struct Mesh {
  meshops::PolyMesh mesh;
};

Mesh make_mesh(const Points& positions, const Indices& offsets, const Indices& indices) {
  Mesh out;
  out.mesh.positions = copy_points(positions, "Mesh");
  const index_t vertices = out.mesh.positions.rows;
  if (offsets.size() < 1) throw DimensionError("Mesh: the face offsets need faces + 1 entries (at least one)");
  out.mesh.M = linalg::MeshMatrix<>(vertices, copy_array<index_t>(offsets), copy_array<index_t>(indices));
  out.mesh.source = "the mesh given";
  meshops::check_mesh(out.mesh);
  return out;
}

Mesh from_parts(linalg::Dense<double>&& positions, linalg::MeshMatrix<>&& M, std::string source) {
  Mesh out;
  out.mesh.positions = std::move(positions);
  out.mesh.M = std::move(M);
  out.mesh.source = std::move(source);
  return out;
}

// What a plan of any scheme offers Python.
struct PlanBase {
  virtual ~PlanBase() = default;
  virtual index_t vertex_count() const = 0;
  virtual linalg::MeshMatrix<> refined_mesh() const = 0;
  virtual linalg::Dense<double> eval(const linalg::Dense<double>& P0) const = 0;
  virtual linalg::Csr<double> refinement_matrix() const = 0;
  index_t base_vertices = 0;
};
template <class Scheme>
struct PlanOf final : PlanBase {
  mutable Exec exec;
  schemes::Plan<Scheme, linalg::Host> plan;
  explicit PlanOf(schemes::Plan<Scheme, linalg::Host> p) : plan(std::move(p)) {}
  index_t vertex_count() const override { return plan.refined.vertices; }
  linalg::MeshMatrix<> refined_mesh() const override { return plan.refined.mesh(); }
  linalg::Dense<double> eval(const linalg::Dense<double>& P0) const override { return schemes::eval(exec, plan, P0); }
  linalg::Csr<double> refinement_matrix() const override { return schemes::refinement_matrix<double>(exec, plan); }
};
struct Plan {
  std::shared_ptr<PlanBase> plan;
};

Plan build(const Mesh& mesh, int levels, const std::string& scheme) {
  meshops::check_mesh(mesh.mesh);
  auto tags = schemes::read_tags(mesh.mesh);
  const auto options = schemes::options_from(tags);
  auto make = [&]<class Scheme>() -> Plan {
    Exec exec;
    auto plan = schemes::build<Scheme>(exec, mesh.mesh.M.clone(), std::move(tags.sharpness), levels, options);
    Plan out{std::make_shared<PlanOf<Scheme>>(std::move(plan))};
    out.plan->base_vertices = mesh.mesh.vertex_count();
    return out;
  };
  return schemes::with_scheme(scheme, make);
}

nb::dict info(const Mesh& mesh) {
  Exec exec;
  const auto i = meshops::mesh_info(exec, mesh.mesh);
  nb::dict out;
  out["vertices"] = i.vertices, out["edges"] = i.edges, out["faces"] = i.faces;
  out["boundary_edges"] = i.boundary_edges, out["nonmanifold_edges"] = i.nonmanifold_edges;
  out["isolated_vertices"] = i.isolated_vertices, out["degenerate_sides"] = i.degenerate_sides;
  out["non_finite_vertices"] = i.non_finite_vertices, out["euler_characteristic"] = i.euler_characteristic();
  out["problem"] = i.problem;
  nb::dict orders, valences;
  for (const auto& [order, count] : i.face_orders) orders[nb::int_(order)] = count;
  for (const auto& [valence, count] : i.valences) valences[nb::int_(valence)] = count;
  out["face_orders"] = orders, out["valences"] = valences;
  return out;
}

}  // namespace spmesh::python

NB_MODULE(_spmesh, module) {
  using namespace spmesh;
  using namespace spmesh::python;
  module.doc() = "spmesh: mesh subdivision and mesh algorithms as sparse linear algebra (C++ core)";

  // The most derived last: nanobind tries the translators newest first.
  nb::exception<Error>(module, "Error", PyExc_RuntimeError);
  nb::exception<InputError>(module, "InputError", PyExc_ValueError);
  nb::exception<DimensionError>(module, "DimensionError", PyExc_ValueError);

  nb::class_<Mesh>(module, "Mesh", "A polygon mesh: positions (V x 3) and faces (each a cycle of vertex ids, 0-based)")
      .def(nb::new_(&make_mesh), "positions"_a, "face_offsets"_a, "face_indices"_a,
           "A mesh from its positions (V x 3, float64), face offsets (F + 1) and face vertex ids, checked")
      .def_prop_ro("vertex_count", [](const Mesh& m) { return m.mesh.vertex_count(); })
      .def_prop_ro("face_count", [](const Mesh& m) { return m.mesh.face_count(); })
      .def_prop_ro("source", [](const Mesh& m) { return m.mesh.source; })
      .def_prop_ro(
          "positions",
          [](Mesh& m) {
            return Numpy<double>(m.mesh.positions.data.data(), 2,
                                 std::array<std::size_t, 2>{std::size_t(m.mesh.positions.rows), 3}.data(), nb::handle());
          },
          nb::rv_policy::reference_internal, "The positions, V x 3 (a view of the mesh's own)")
      .def_prop_ro(
          "face_offsets",
          [](Mesh& m) {
            const std::size_t n = std::size_t(m.mesh.M.offsets.size());
            return Numpy<index_t>(m.mesh.M.offsets.data(), 1, &n, nb::handle());
          },
          nb::rv_policy::reference_internal, "Where each face starts in face_indices (F + 1)")
      .def_prop_ro(
          "face_indices",
          [](Mesh& m) {
            const std::size_t n = std::size_t(m.mesh.M.indices.size());
            return Numpy<index_t>(m.mesh.M.indices.data(), 1, &n, nb::handle());
          },
          nb::rv_policy::reference_internal, "Every face's vertex ids, face after face");

  module.def("read_mesh", [](const std::string& path) { return Mesh{meshops::read_mesh(path)}; }, "path"_a,
        "Reads .obj, .off or .ply (with OBJ's crease and corner tags)");
  module.def("write_mesh", [](const Mesh& mesh, const std::string& path) { meshops::write_mesh(path, mesh.mesh.positions, mesh.mesh.M); },
        "mesh"_a, "path"_a, "Writes .obj or .ply");
  module.def("info", &info, "mesh"_a, "Counts and problems, as `spmesh info` prints them");
  module.def("check_mesh", [](const Mesh& mesh) { meshops::check_mesh(mesh.mesh); }, "mesh"_a,
        "Raises ValueError naming the first problem subdivision would refuse");
  module.def("triangulate", [](const Mesh& mesh) { return Mesh{meshops::triangulate(mesh.mesh)}; }, "mesh"_a,
        "Every face of more than three corners cut into a fan of triangles");

  nb::class_<Plan>(module, "Plan", "The topology of a subdivision, built once: eval, refinement matrix, replay")
      .def_prop_ro("vertex_count", [](const Plan& p) { return p.plan->vertex_count(); })
      .def_prop_ro("base_vertex_count", [](const Plan& p) { return p.plan->base_vertices; })
      .def("refined_faces",
           [](const Plan& p) {
             auto M = p.plan->refined_mesh();
             return nb::make_tuple(to_numpy(std::move(M.offsets)), to_numpy(std::move(M.indices)));
           },
           "The refined faces as (offsets, indices)")
      .def("eval",
           [](const Plan& p, const Points& positions) {
             return to_numpy(p.plan->eval(copy_points(positions, "eval", p.plan->base_vertices)));
           },
           "positions"_a, "The refined positions of base positions (V0 x 3) through every level")
      .def("refinement_matrix", [](const Plan& p) { return to_numpy(p.plan->refinement_matrix()); },
           "R as CSR arrays (R P0 = eval(P0))");
  module.def("build", &build, "mesh"_a, "levels"_a, "scheme"_a = "catmark",
        "Builds a plan of `levels` levels of `scheme` (catmark, loop, sqrt3) for the mesh's topology and tags");

  // Mesh algorithms (meshops/), on the CPU.
  // f(exec, M, P) of a mesh, its result handed to NumPy.
  auto on_mesh = [](auto f) {
    return [f](const Mesh& mesh) {
      Exec exec;
      return to_numpy(f(exec, mesh.mesh.M, mesh.mesh.positions));
    };
  };
  module.def("_cotangent_laplacian", on_mesh([](Exec& e, auto& M, auto& P) { return meshops::cotangent_laplacian(e, M, P); }));
  module.def("_mass_matrix", [](const Mesh& mesh, const std::string& kind) {
    if (kind != "barycentric" && kind != "full")
      throw InputError("mass_matrix: kind '" + kind + "' (barycentric or full)");
    Exec exec;
    return to_numpy(meshops::mass_matrix(exec, mesh.mesh.M, mesh.mesh.positions,
                                         kind == "full" ? meshops::MassMatrix::full : meshops::MassMatrix::barycentric));
  });
  module.def("_uniform_laplacian", [](const Mesh& mesh) {
    Exec exec;
    return to_numpy(meshops::uniform_laplacian(exec, mesh.mesh.M));
  });
  module.def("_face_adjacency", [](const Mesh& mesh) {
    Exec exec;
    return to_numpy(linalg::cast_values<double>(exec, meshops::face_adjacency(exec, mesh.mesh.M)));
  });
  module.def("vertex_normals", on_mesh([](Exec& e, auto& M, auto& P) { return meshops::vertex_normals(e, M, P); }),
        "mesh"_a, "Unit area-weighted vertex normals, N = M A (V x 3)");
  module.def("vertex_areas", on_mesh([](Exec& e, auto& M, auto& P) { return meshops::vertex_areas(e, M, P); }),
        "mesh"_a, "A third of each vertex's triangles' area (V)");
  module.def("angle_defects", on_mesh([](Exec& e, auto& M, auto& P) { return meshops::angle_defects(e, M, P); }),
        "mesh"_a, "Integrated Gaussian curvature: 2 pi - the angles (pi - on the boundary) (V)");
  module.def("mean_curvature", on_mesh([](Exec& e, auto& M, auto& P) { return meshops::mean_curvature(e, M, P); }),
        "mesh"_a, "Mean curvature -1/2 (M^-1 L P) . N, signed by the normals (V)");
  module.def("heat_geodesic",
        [](const Mesh& mesh, const Indices& sources, double time_factor) {
          Exec exec;
          meshops::HeatGeodesicOptions options;
          options.time_factor = time_factor;
          return to_numpy(
              meshops::heat_geodesic(exec, mesh.mesh.M, mesh.mesh.positions, copy_array<index_t>(sources), options).distance);
        },
        "mesh"_a, "sources"_a, "time_factor"_a = 1.0, "Geodesic distance from the source vertices by the heat method (V)");
  module.def("implicit_smoothing",
        [](const Mesh& mesh, double t) {
          Exec exec;
          auto result = meshops::implicit_smoothing(exec, mesh.mesh.M, mesh.mesh.positions, t);
          if (!result.solve.converged)
            throw Error("implicit_smoothing: CG did not converge in " + std::to_string(result.solve.iterations) +
                        " iterations (relative residual " + std::to_string(result.solve.relative_residual) + ")");
          return to_numpy(std::move(result.points));
        },
        "mesh"_a, "t"_a, "One backward Euler step (M - t L) X = M P of the mean curvature flow (V x 3)");
  auto components = [](auto f) {
    return [f](const Mesh& mesh) {
      Exec exec;
      auto c = f(exec, mesh.mesh.M);
      return nb::make_tuple(c.count, to_numpy(std::move(c.component)));
    };
  };
  module.def("vertex_components", components([](Exec& e, auto& M) { return meshops::vertex_components(e, M); }), "mesh"_a,
        "(count, each vertex's component), numbered by their smallest vertex");
  module.def("face_components", components([](Exec& e, auto& M) { return meshops::face_components(e, M); }), "mesh"_a,
        "(count, each face's component) across edges, numbered by their smallest face");

  // The linalg layer on CSR arrays.
  module.def("_spmv",
        [](Values values, Indices indices, Indices offsets,
           index_t rows, index_t cols, Values x,
           const std::string& map) {
          if (index_t(x.shape(0)) != cols)
            throw DimensionError("spmv: x has " + std::to_string(x.shape(0)) + " entries, A " + std::to_string(cols) +
                                 " columns");
          Exec exec;
          const auto A = copy_csr(values, indices, offsets, rows, cols);
          linalg::Array<double> in = copy_array<double>(x), out(rows);
          if (map == "identity") linalg::spmv(exec, A, in, out);
          else if (map == "ones") linalg::spmv(exec, A, in, out, linalg::map::constant(1.0));
          else throw InputError("spmv: map '" + map + "' (identity or ones)");
          return to_numpy(std::move(out));
        });
  module.def("_spgemm", [](Values a_values, Indices a_indices,
                      Indices a_offsets, index_t a_rows, index_t a_cols,
                      Values b_values, Indices b_indices,
                      Indices b_offsets, index_t b_rows, index_t b_cols) {
    Exec exec;
    const auto A = copy_csr(a_values, a_indices, a_offsets, a_rows, a_cols);
    const auto B = copy_csr(b_values, b_indices, b_offsets, b_rows, b_cols);
    return to_numpy(linalg::spgemm(exec, A, B));
  });

  module.def("_subdivide", [](const Mesh& mesh, int levels, const std::string& scheme) {
    auto plan = build(mesh, levels, scheme);
    return from_parts(plan.plan->eval(mesh.mesh.positions), plan.plan->refined_mesh(),
                      mesh.mesh.source + " (" + scheme + ", " + std::to_string(levels) + " levels)");
  });
  module.def("_mesh_from_parts", [](const Points& positions, const Indices& offsets, const Indices& indices) {
    return make_mesh(positions, offsets, indices);
  });
}
