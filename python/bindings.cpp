// spmesh._spmesh: the C++ library for Python (nanobind). Arrays go out without a copy and come
// in copied once or read in place (arrays.hpp, side.hpp); sparse matrices go out as their CSR
// arrays, which spmesh/__init__.py wraps in scipy.sparse (or cupyx.scipy.sparse) without a copy.
// spmesh's exceptions become Python's: InputError and DimensionError a ValueError, any other
// spmesh::Error a RuntimeError, with spmesh's message. The CPU's operations are defined here; a
// build with CUDA adds the GPU's (bindings_cuda.cu: the same names with "_cuda").
#include "linalg/spgemm.hpp"
#include "linalg/spmv.hpp"
#include "meshops/checks.hpp"
#include "meshops/info.hpp"
#include "meshops/io.hpp"
#include "meshops/triangulate.hpp"
#include "python/algorithms.hpp"
#include "python/limits.hpp"
#include "python/plans.hpp"
#include "python/spmv.hpp"

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>

#include <string>
#include <utility>

namespace spmesh::python {

#ifdef SPMESH_PYTHON_CUDA
void bind_cuda(nb::module_& module);  // bindings_cuda.cu
#endif

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

nb::dict info(const Mesh& mesh) {
  linalg::cpu::Executor exec;
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
  using namespace nb::literals;
  using Cpu = linalg::cpu::Executor;
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
            return nb::ndarray<nb::numpy, const index_t>(m.mesh.M.offsets.data(), 1, &n, nb::handle());
          },
          nb::rv_policy::reference_internal, "Where each face starts in face_indices (F + 1; read-only)")
      .def_prop_ro(
          "face_indices",
          [](Mesh& m) {
            const std::size_t n = std::size_t(m.mesh.M.indices.size());
            return nb::ndarray<nb::numpy, const index_t>(m.mesh.M.indices.data(), 1, &n, nb::handle());
          },
          nb::rv_policy::reference_internal, "Every face's vertex ids, face after face (read-only: a mesh's topology is fixed)");

  module.def("read_mesh", [](const std::string& path) { return Mesh{meshops::read_mesh(path), nullptr}; }, "path"_a,
             "Reads .obj, .off or .ply (with OBJ's crease and corner tags)");
  module.def("write_mesh", [](const Mesh& mesh, const std::string& path) { meshops::write_mesh(path, mesh.mesh.positions, mesh.mesh.M); },
             "mesh"_a, "path"_a, "Writes .obj or .ply");
  module.def("info", &info, "mesh"_a, "Counts and problems, as `spmesh info` prints them");
  module.def("check_mesh", [](const Mesh& mesh) { meshops::check_mesh(mesh.mesh); }, "mesh"_a,
             "Raises ValueError naming the first problem subdivision would refuse");
  module.def("triangulate", [](const Mesh& mesh) { return Mesh{meshops::triangulate(mesh.mesh), nullptr}; }, "mesh"_a,
             "Every face of more than three corners cut into a fan of triangles");
  module.def("_mesh_from_parts", [](const Points& positions, const Indices& offsets, const Indices& indices) {
    return make_mesh(positions, offsets, indices);
  });

  nb::class_<Plan>(module, "Plan", "The topology of a subdivision, built once: eval, refinement matrix, replay")
      .def_prop_ro("vertex_count", &Plan::vertex_count)
      .def_prop_ro("base_vertex_count", [](const Plan& p) { return p.base_vertices; })
      .def_prop_ro("device", [](const Plan& p) { return p.device; })
      .def("refined_faces", &Plan::refined_faces, "The refined faces as (offsets, indices)")
      .def("eval", &Plan::eval, "positions"_a, "The refined positions of base positions (V0 x 3) through every level")
      .def("replay", &Plan::replay, "positions"_a, "R positions by one SpMM (R made at the first call, then kept)")
      .def("refinement_matrix", &Plan::refinement_matrix, "R as host CSR arrays (R P0 = eval(P0)), read-only");
  module.def("_build", &build_plan<Cpu>, "mesh"_a, "levels"_a, "scheme"_a,
             "A plan of `levels` levels of `scheme` (catmark, loop, sqrt3) for the mesh's topology and tags");
  module.def("_subdivide", &subdivide_mesh<Cpu>, "mesh"_a, "levels"_a, "scheme"_a,
             "The mesh refined `levels` times by `scheme`, keeping no plan");

  bind_algorithms<Cpu>(module, "");
  bind_spmv<Cpu>(module, "");
  module.def("_spgemm", [](const Values& a_values, const Indices& a_indices, const Indices& a_offsets, index_t a_rows,
                           index_t a_cols, const Values& b_values, const Indices& b_indices, const Indices& b_offsets,
                           index_t b_rows, index_t b_cols) {
    Cpu exec;
    const auto a = csr_ref<linalg::Host>(a_values, a_indices, a_offsets, a_rows, a_cols);
    const auto b = csr_ref<linalg::Host>(b_values, b_indices, b_offsets, b_rows, b_cols);
    linalg::validate(exec, a), linalg::validate(exec, b);
    auto copy = [](const linalg::CsrRef<double>& A) {
      return linalg::Csr<double>(A.rows, A.cols, copy_array(A.offsets, std::size_t(A.rows) + 1),
                                 copy_array(A.indices, std::size_t(A.nnz())), copy_array(A.values, std::size_t(A.nnz())));
    };
    return out<Cpu>(linalg::spgemm(exec, copy(a), copy(b)));
  });
  bind_limits(module);

#ifdef SPMESH_PYTHON_CUDA
  module.attr("cuda_built") = true;
  bind_cuda(module);
#else
  module.attr("cuda_built") = false;
#endif
}
