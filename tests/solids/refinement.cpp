// The refinement matrix of Catmull-Clark solids (solids/refinement.hpp) against eval: R P_0
// equals eval(plan, P_0) on every rule's mesh (inside, boundary, creases and corners, one
// extraordinary edge line under both vertex rules, tetrahedra and prisms, a vertex in no cell),
// R's rows sum to 1 (the rules are affine), and zero levels give the identity; and its file
// (solids/refinement_file.hpp): a round trip keeps R, the cells, sharpness and options, and a
// file that does not hold together is refused by name. The same source runs on the GPU
// (cuda/solids.cu), whose R is compared with the CPU's.
#include "../backends.hpp"
#include "../meshops/temp_dir.hpp"
#include "linalg/cpu/executor.hpp"
#include "linalg/spmv.hpp"
#include "solids/plan.hpp"
#include "solids/refinement.hpp"
#include "solids/refinement_file.hpp"

#include "generated.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <filesystem>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace spmesh::test::solid_refinement {

// A volume mesh to refine, with its data and sharpness.
struct Case {
  std::string name;
  CellMesh<> cells;
  linalg::Dense<double> X;
  std::optional<solids::SolidSharpness<>> sharpness;
  solids::RefineOptions options;
};

linalg::Dense<double> random_data(index_t rows, index_t width, unsigned seed) {
  linalg::Dense<double> X(rows, width);
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> value(-1, 1);
  for (index_t i = 0; i < X.data.size(); ++i) X.data[i] = value(random);
  return X;
}

std::vector<Case> cases() {
  std::vector<Case> out;
  const CellMesh<> grid = grid_cells(3);
  out.push_back({"perturbed grid", grid.clone(), perturbed_grid(3, 5), std::nullopt, {}});
  out.push_back({"grid with creases and corners", grid.clone(), perturbed_grid(3, 6),
                 random_boundary_sharpness(grid, 2), {}});
  solids::RefineOptions chaikin;
  chaikin.crease = schemes::CreaseMethod::chaikin;
  out.push_back({"grid with creases, chaikin", grid.clone(), perturbed_grid(3, 7), random_boundary_sharpness(grid, 3),
                 chaikin});
  std::mt19937 random(4);
  const auto pyramid = bipyramid(5, random);
  const CellMesh<> shell = extrude(pyramid.M, 3);
  out.push_back({"extruded valence 5, tensor product", shell.clone(), random_data(shell.vertices, 3, 8), std::nullopt, {}});
  solids::RefineOptions joy;
  joy.vertex_rule = solids::VertexRule::joy_maccracken;
  out.push_back({"extruded valence 5, Joy-MacCracken", shell.clone(), random_data(shell.vertices, 3, 9), std::nullopt,
                 joy});
  // A crease inside the volume: a semi-sharp line (1, 2, 2)-(2, 2, 2)-(3, 2, 2) and a corner.
  const CellMesh<> block = grid_cells(4);
  linalg::cpu::Executor cpu;
  const auto block_ops = solids::boundary_operators(cpu, block);
  out.push_back({"a crease and a corner inside", block.clone(), perturbed_grid(4, 12),
                 solids::tagged_sharpness(block_ops, {{61, 62}, {62, 63}}, {32}, "inside", {2.5f, 2.5f}), {}});
  auto [mixed, positions] = mixed_cells();
  out.push_back({"tetrahedron, prisms, hexahedron", mixed.clone(), positions.clone(), std::nullopt, {}});
  auto [polyhedra, shell_points] = polyhedral_shell();
  out.push_back({"pentagonal prisms (polyhedra) and hexahedra", polyhedra.clone(), shell_points.clone(), std::nullopt, {}});
  // The grid with a vertex in no cell, which stays where it is.
  out.push_back({"a vertex in no cell", CellMesh<>{grid.vertices + 1, grid.offsets.clone(), grid.indices.clone()},
                 random_data(grid.vertices + 1, 2, 10), std::nullopt, {}});
  return out;
}

template <class B>
struct OnBackend {
  using Exec = typename B::Exec;
  using S = typename Exec::space;
  Exec exec;

  solids::SolidPlan<S> plan(const Case& c, int levels) {
    std::optional<solids::SolidSharpness<S>> sharp;
    if (c.sharpness) sharp = solids::SolidSharpness<S>{B::upload(c.sharpness->edges), B::upload(c.sharpness->vertices)};
    return solids::build(exec, upload_cells<B>(c.cells),
                         levels, c.options, std::move(sharp));
  }
};

TEST_CASE_TEMPLATE("R P_0 of a solid's refinement matrix equals eval on every rule's mesh (0 to 3 "
                   "levels, 1e-12 in double, 1e-5 in float), and its rows sum to 1",
                   B, SPMESH_TEST_BACKENDS) {
  OnBackend<B> on;
  for (const auto& c : cases()) {
    CAPTURE(c.name);
    for (int levels = 0; levels <= (c.name == "perturbed grid" ? 3 : 2); ++levels) {
      CAPTURE(levels);
      const auto plan = on.plan(c, levels);
      const auto evaluated = B::download(solids::eval(on.exec, plan, B::upload(c.X)));
      const auto R = solids::refinement_matrix<double>(on.exec, plan);
      const auto replayed = B::download(linalg::spmm(on.exec, R, B::upload(c.X)));
      REQUIRE(replayed.rows == evaluated.rows);
      CHECK(relative_difference(replayed, evaluated) <= 1e-12);
      const auto host = B::download(R);
      double worst = 0;
      for (index_t r = 0; r < host.rows; ++r) {
        double sum = 0;
        for (index_t p = host.offsets[r]; p < host.offsets[r + 1]; ++p) sum += host.values[p];
        worst = std::max(worst, std::abs(sum - 1));
      }
      CHECK(worst <= 1e-13);
      if (levels == 0) CHECK(host.nnz() == host.rows);

      // In float: R composed in double, stored as float.
      linalg::Dense<float> Xf(c.X.rows, c.X.cols);
      for (index_t i = 0; i < Xf.data.size(); ++i) Xf.data[i] = float(c.X.data[i]);
      const auto Rf = solids::refinement_matrix<float>(on.exec, plan);
      const auto replayed_float = B::download(linalg::spmm(on.exec, Rf, B::upload(Xf)));
      linalg::Dense<float> reference(evaluated.rows, evaluated.cols);
      for (index_t i = 0; i < reference.data.size(); ++i) reference.data[i] = float(evaluated.data[i]);
      CHECK(relative_difference(replayed_float, reference) <= 1e-5);
    }
  }
}

TEST_CASE_TEMPLATE("a solid's refinement matrix is the same on every backend as on the CPU (pattern "
                   "exactly, weights to 1e-15) and the same bits run to run",
                   B, SPMESH_TEST_BACKENDS) {
  OnBackend<B> on;
  OnBackend<CpuBackend> cpu;
  for (const auto& c : cases()) {
    CAPTURE(c.name);
    const auto R = B::download(solids::refinement_matrix<double>(on.exec, on.plan(c, 2)));
    const auto again = B::download(solids::refinement_matrix<double>(on.exec, on.plan(c, 2)));
    const auto reference = solids::refinement_matrix<double>(cpu.exec, cpu.plan(c, 2));
    REQUIRE(R.nnz() == reference.nnz());
    CHECK(std::equal(R.offsets.begin(), R.offsets.end(), reference.offsets.begin()));
    CHECK(std::equal(R.indices.begin(), R.indices.end(), reference.indices.begin()));
    CHECK(std::equal(R.values.begin(), R.values.end(), again.values.begin()));
    double worst = 0;
    for (index_t p = 0; p < R.nnz(); ++p) worst = std::max(worst, std::abs(R.values[p] - reference.values[p]));
    CHECK(worst <= 1e-15);
  }
}

// The record `spmesh build` saves for a case, built on the CPU.
schemes::Refinement<double> record_of(const Case& c, int levels) {
  OnBackend<CpuBackend> cpu;
  const auto plan = cpu.plan(c, levels);
  const auto ops = solids::boundary_operators(cpu.exec, c.cells);
  return solids::refinement_record<double>(c.cells, ops, c.sharpness, c.options, levels,
                                           schemes::encode_refinement(cpu.exec, solids::refinement_matrix<double>(cpu.exec, plan)),
                                           plan.refined.clone());
}

std::string bytes_of(const schemes::Refinement<double>& r) {
  std::ostringstream out;
  schemes::write_refinement(out, r);
  return std::move(out).str();
}

TEST_CASE("a solid's refinement file round trip keeps R, the base and refined cells, the sharpness and the "
          "options, and replay from it equals eval (1e-12)") {
  OnBackend<CpuBackend> cpu;
  for (const auto& c : cases()) {
    CAPTURE(c.name);
    const auto record = record_of(c, 2);
    const auto bytes = bytes_of(record);
    auto parts = schemes::parse_refinement_parts<double>(bytes, "memory.spr");
    const auto cells = solids::rebuild_cells(parts.r, parts.refined);
    CHECK(cells.vertices == record.refined.vertices);
    CHECK(std::equal(cells.indices.begin(), cells.indices.end(), record.refined.indices.begin(),
                     record.refined.indices.end()));
    CHECK(bytes[8] == (c.cells.has_polyhedra() ? 3 : 2));  // the version: 3 holds polyhedra's faces
    CHECK(std::equal(parts.r.base_face_streams.begin(), parts.r.base_face_streams.end(), c.cells.face_streams.begin(),
                     c.cells.face_streams.end()));
    const auto stored = solids::stored_solid(parts.r, parts.refined);
    CHECK(stored.options.vertex_rule == c.options.vertex_rule);
    CHECK(stored.options.crease == c.options.crease);
    CHECK(stored.sharpness.has_value() == c.sharpness.has_value());
    if (c.sharpness) {
      CHECK(std::equal(stored.sharpness->edges.begin(), stored.sharpness->edges.end(), c.sharpness->edges.begin()));
      CHECK(std::equal(stored.sharpness->vertices.begin(), stored.sharpness->vertices.end(),
                       c.sharpness->vertices.begin()));
    }
    const auto evaluated = solids::eval(cpu.exec, cpu.plan(c, 2), c.X);
    const auto replayed = std::visit([&](const auto& R) { return linalg::spmm(cpu.exec, R, c.X); }, parts.r.R);
    CHECK(relative_difference(replayed, evaluated) <= 1e-12);
  }
  // Through a file on disk, and as float.
  // A folder of this run's own: test_solids and test_solids_cuda may run this at once.
  const TempDir temp;
  const auto path = temp.path / "round_trip.spr";
  const auto all = cases();
  const auto& c = all[1];
  schemes::save_refinement(path.string(), record_of(c, 1));
  const auto loaded = solids::load_refinement<float>(path.string());
  CHECK(loaded.scheme == schemes::solid_scheme);
  CHECK(loaded.refined.faces == 8 * c.cells.cells());
  CHECK_THROWS_WITH_AS(schemes::load_refinement<float>(path.string()),
                       (path.string() + ": a Catmull-Clark solid's refinement (load it with solids::load_refinement)").c_str(),
                       InputError);
}

TEST_CASE("a solid's refinement file that does not hold together is refused, naming the file and the problem") {
  const auto all = cases();
  const auto& c = all[1];  // a grid with creases
  // The header's levels changed: the refined sizes no longer follow from the base cells.
  auto more = record_of(c, 1);
  more.levels = 2;
  auto parts = schemes::parse_refinement_parts<double>(bytes_of(more), "more.spr");
  CHECK_THROWS_WITH_AS(solids::rebuild_cells(parts.r, parts.refined),
                       "more.spr: 2 levels of the stored base cells make 2197 vertices and 1728 cells, but the header "
                       "says 343 and 216",
                       InputError);
  // A sharp tag on no edge.
  auto nowhere = record_of(c, 1);
  nowhere.sharpness.edges.row_indices[0] = 0, nowhere.sharpness.edges.col_indices[0] = 21;  // (0, 0, 0)-(1, 1, 1)
  parts = schemes::parse_refinement_parts<double>(bytes_of(nowhere), "nowhere.spr");
  CHECK_THROWS_WITH_AS(solids::rebuild_cells(parts.r, parts.refined),
                       "nowhere.spr: the stored base cells: the stored sharpness: the sharp edge 0-21 (ids count from "
                       "0) is no edge of a cell",
                       InputError);
  // A base cell turned another way: its refined cells are not those the file's hash names.
  auto moved = record_of(c, 1);
  std::swap(moved.base.indices[0], moved.base.indices[1]);
  parts = schemes::parse_refinement_parts<double>(bytes_of(moved), "moved.spr");
  CHECK_THROWS_AS(solids::rebuild_cells(parts.r, parts.refined), InputError);
  // A surface's file.
  auto surface = record_of(c, 1);
  surface.scheme = "catmark";
  CHECK_THROWS_AS(schemes::parse_refinement_parts<double>(bytes_of(surface), "surface.spr"), Error);
  // Polyhedra (a version 3 file): face offsets that do not span the streams, a stream whose
  // polyhedron does not close, and polyhedra's faces in a surface's file.
  const auto polyhedra = std::find_if(all.begin(), all.end(), [](const Case& k) { return k.cells.has_polyhedra(); });
  REQUIRE(polyhedra != all.end());
  auto offsets = record_of(*polyhedra, 1);
  offsets.base_face_offsets[1] = offsets.base_face_streams.size() + 1;
  CHECK_THROWS_WITH_AS(schemes::parse_refinement_parts<double>(bytes_of(offsets), "offsets.spr"),
                       "offsets.spr: the base cells' face offsets do not span their face streams in order", InputError);
  auto open = record_of(*polyhedra, 1);
  std::swap(open.base_face_streams[1], open.base_face_streams[2]);  // the first face's first two corners
  parts = schemes::parse_refinement_parts<double>(bytes_of(open), "open.spr");
  CHECK_THROWS_WITH_AS(solids::rebuild_cells(parts.r, parts.refined),
                       doctest::Contains("open.spr: the stored base cells: cell "), InputError);
  auto faces = record_of(*polyhedra, 1);
  faces.scheme = "catmark";
  CHECK_THROWS_WITH_AS(schemes::parse_refinement_parts<double>(bytes_of(faces), "faces.spr"),
                       doctest::Contains("version 3 holds a solid's polyhedra"), InputError);
}

}  // namespace spmesh::test::solid_refinement
