// Feature-adaptive Catmull-Clark (schemes/catmull_clark/adaptive.hpp) against the uniform plan's
// limit at the same (face, u, v) (limit_at.hpp, itself Bfr's to rounding: osd_parity.cpp): the
// same positions and derivatives to 1e-12 of the diagonal, the same samples approximated, on the
// bundled meshes, every OpenSubdiv shape the uniform plan takes and the shared characters; the
// region extraction on its own (a pinch split, creases carried); and the levels' growth.
#include "adaptive_common.hpp"
#include "meshops/checks.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

namespace spmesh::test::adaptive_tests {

// What one comparison found.
struct Comparison {
  double position = 0, derivative = 0;  // largest differences over the diagonal
  index_t uniform_approximated = 0, adaptive_approximated = 0;
  index_t uniform_faces = 0, adaptive_faces = 0;  // on the last level
  index_t adaptive_points = 0;
  Dense<double> positions;  // the adaptive limits, on the host
};

// Both plans' limits at every face's samples on backend B, approximating where no patch holds
// (both the same way), compared; the adaptive plan's refined faces widened by `rings`.
template <class B>
Comparison compare(const meshops::PolyMesh& mesh, int isolation, bool dense = true, int rings = 0) {
  const auto tags = schemes::read_tags(mesh);
  const schemes::Options options = schemes::options_from(tags);
  const Samples s = samples_on(mesh, dense);
  typename B::Exec exec;
  auto upload_sharpness = [&] {
    return schemes::Sharpness<typename B::Exec::space>{B::upload(tags.sharpness.edges), B::upload(tags.sharpness.vertices)};
  };
  const auto faces = B::upload(Array<index_t>(s.faces));
  const auto u = B::upload(Array<double>(s.u)), v = B::upload(Array<double>(s.v));
  const auto P0 = B::upload(mesh.positions);
  const auto uniform = cc::limit_at_samples(exec, B::upload(mesh.M), upload_sharpness(), faces, u, v, P0, isolation,
                                            options, true);
  const auto plan = cc::build_adaptive(exec, B::upload(mesh.M), upload_sharpness(), isolation, options, {}, rings);
  const auto adaptive = cc::limit_at_samples(exec, plan, faces, u, v, P0, true);
  Comparison c;
  c.uniform_approximated = uniform.approximated, c.adaptive_approximated = adaptive.approximated;
  c.adaptive_faces = plan.levels.back().faces, c.adaptive_points = plan.points();
  // The uniform plan's last level: 4^L faces a quad (4^(L - 1) a polygon's corner).
  c.uniform_faces = plan.polygons ? mesh.M.nnz() << (2 * (plan.levels.size() - 2)) : mesh.face_count() << (2 * (plan.levels.size() - 1));
  const double diag = diagonal(mesh.positions);
  const auto a = B::download(adaptive.position), b = B::download(uniform.position);
  const auto adu = B::download(adaptive.du), bdu = B::download(uniform.du);
  const auto adv = B::download(adaptive.dv), bdv = B::download(uniform.dv);
  for (index_t i = 0; i < a.rows; ++i)
    for (int k = 0; k < 3; ++k) {
      c.position = std::max(c.position, std::abs(a(i, k) - b(i, k)) / diag);
      c.derivative = std::max(c.derivative, std::max(std::abs(adu(i, k) - bdu(i, k)), std::abs(adv(i, k) - bdv(i, k))) / diag);
    }
  c.positions = a.clone();
  return c;
}

// Where a comparison must agree: the same samples approximated, positions to 1e-12 of the
// diagonal, derivatives (scaled by 2^level down the levels) to 1e-9.
void check_agrees(const Comparison& c) {
  CHECK(c.adaptive_approximated == c.uniform_approximated);
  CHECK(c.position <= 1e-12);
  CHECK(c.derivative <= 1e-9);
}

}  // namespace spmesh::test::adaptive_tests

namespace spmesh::test {

using namespace adaptive_tests;

TEST_CASE_TEMPLATE("an adaptive plan's limit at (face, u, v) is the uniform plan's (bundled meshes, isolation 1 to 4)",
                   B, SPMESH_TEST_BACKENDS) {
  for (const auto& mesh : bundled_meshes())
    for (int isolation = 1; isolation <= 4; ++isolation) {
      CAPTURE(mesh.source);
      CAPTURE(isolation);
      const Comparison c = compare<B>(mesh, isolation);
      check_agrees(c);
      if constexpr (!std::is_same_v<B, CpuBackend>) {  // the GPU's limits are the CPU's
        const Comparison on_cpu = compare<CpuBackend>(mesh, isolation);
        double difference = 0;
        for (index_t i = 0; i < c.positions.rows; ++i)
          for (int k = 0; k < 3; ++k) difference = std::max(difference, std::abs(c.positions(i, k) - on_cpu.positions(i, k)));
        CHECK(difference <= 1e-12 * diagonal(mesh.positions));
        CHECK(c.adaptive_points == on_cpu.adaptive_points);
      }
    }
}

TEST_CASE_TEMPLATE("an adaptive plan's refined faces widened by rings: more points, the same limit as the uniform plan",
                   B, SPMESH_TEST_BACKENDS) {
  for (const auto& mesh : bundled_meshes()) {
    CAPTURE(mesh.source);
    index_t points = compare<B>(mesh, 3).adaptive_points;
    bool grew = false;
    for (int rings = 1; rings <= 2; ++rings) {
      CAPTURE(rings);
      const Comparison c = compare<B>(mesh, 3, true, rings);
      check_agrees(c);
      CHECK(c.adaptive_points >= points);
      grew |= c.adaptive_points > points;
      points = c.adaptive_points;
    }
    // Widening stops where the refined faces cover the mesh (then the plan is the uniform one).
    CHECK((grew || points == compare<B>(mesh, 3, true, 8).adaptive_points));
  }
  // Characters, whose refined faces are a small part of the mesh, widened by 4 rings: the regions
  // reach far from the features and stay exact.
  const std::filesystem::path characters = SPMESH_SHARED_DIR "/meshes/characters";
  for (const char* name : {"Bigguy", "Monsterfrog"}) {
    const auto path = characters / (std::string(name) + ".obj");
    if (!std::filesystem::exists(path)) continue;  // ../shared absent: nothing to read
    CAPTURE(path);
    const meshops::PolyMesh mesh = meshops::read_obj(path.string());
    const Comparison narrow = compare<B>(mesh, 3, false), wide = compare<B>(mesh, 3, false, 4);
    check_agrees(wide);
    CHECK(wide.adaptive_points > narrow.adaptive_points);
  }
  typename B::Exec exec;
  const auto meshes = bundled_meshes();
  const auto tags = schemes::read_tags(meshes.front());
  const schemes::Sharpness<typename B::Exec::space> C{B::upload(tags.sharpness.edges), B::upload(tags.sharpness.vertices)};
  CHECK_THROWS_WITH_AS(cc::build_adaptive(exec, B::upload(meshes.front().M), C, 2, schemes::options_from(tags), {}, -1),
                       "build_adaptive: -1 rings round the refined faces, not 0 or more", InputError);
}

TEST_CASE_TEMPLATE("an adaptive plan's limit is the uniform plan's on OpenSubdiv's shapes and the characters (isolation 3)",
                   B, SPMESH_TEST_BACKENDS) {
  const std::filesystem::path shared = SPMESH_SHARED_DIR "/meshes";
  if (!std::filesystem::exists(shared / "opensubdiv")) return;  // ../shared absent: nothing to read
  std::vector<std::filesystem::path> paths;
  for (const auto& entry : std::filesystem::directory_iterator(shared / "opensubdiv"))
    if (entry.path().filename().string().starts_with("catmark_")) paths.push_back(entry.path());
  std::sort(paths.begin(), paths.end());
  for (const char* name : {"Bigguy", "Bishop", "Car", "Monsterfrog", "Rook", "ArmorGuy"})
    paths.push_back(shared / "characters" / (std::string(name) + ".obj"));
  int compared = 0, refused = 0;
  for (const auto& path : paths) {
    CAPTURE(path);
    const bool character = path.parent_path().filename() == "characters";
    const meshops::PolyMesh mesh = meshops::read_obj(path.string());
    bool manifold = true;
    try {
      meshops::check_mesh(mesh);
    } catch (const InputError&) {
      manifold = false;
    }
    Comparison c;
    try {  // the shapes spmesh refuses: holes, hierarchical edits, the smooth triangle rule
      c = compare<B>(mesh, 3, !character);
    } catch (const InputError& e) {
      const std::string why = e.what();
      MESSAGE(path.filename().string() << " refused: " << why);
      // the non-manifold ones by name, as the front door's check refuses them
      CHECK(manifold == (why.find("make more than one fan") == std::string::npos));
      refused += manifold ? 0 : 1;
      continue;
    }
    CHECK(manifold);
    ++compared;
    MESSAGE(path.filename().string() << ": differences " << c.position << " (positions), " << c.derivative
                                     << " (derivatives) of the diagonal; " << c.adaptive_approximated
                                     << " approximated; last level " << c.adaptive_faces << " faces (uniform "
                                     << c.uniform_faces << ")");
    check_agrees(c);
  }
  CHECK(compared >= 50);
  CHECK(refused >= 4);
}

// A dart (a crease ending inside the mesh) has no exact patch: the faces at it are refined to
// the isolation level, and the samples there approximated, the same in both plans; the levels
// grow by the faces near the darts, not 4x.
TEST_CASE_TEMPLATE("an adaptive plan grows with its features: a cube with a dart at each end of a crease, isolation 6",
                   B, SPMESH_TEST_BACKENDS) {
  const auto mesh = meshops::parse_obj(meshops::read_file(SPMESH_DATA_DIR "/meshes/cube.obj") + "t crease 2/1/0 0 1 10\n",
                                       "cube with a dart");
  const Comparison c = compare<B>(mesh, 6);
  MESSAGE("faces " << c.adaptive_faces << " of " << c.uniform_faces << ", points " << c.adaptive_points);
  check_agrees(c);
  CHECK(c.adaptive_approximated > 0);
  CHECK(c.uniform_faces == 6 * 4096);
  CHECK(c.adaptive_faces * 20 < c.uniform_faces);
  CHECK(c.adaptive_points * 20 < c.uniform_faces);
  // patch_counts: a level's faces reached are its parent's refined ones' children, and those
  // refined are the step's; the darts' faces are left on the last level.
  typename B::Exec exec;
  const auto plan = plan_of<B>(exec, mesh, 6);
  const auto counts = cc::patch_counts(exec, plan);
  REQUIRE(counts.size() == 7);
  const auto refined = std::size_t(cc::FaceHolder::none);
  for (std::size_t l = 0; l < counts.size(); ++l) {
    index_t reached = 0;
    for (index_t n : counts[l]) reached += n;
    CHECK(reached == (l == 0 ? mesh.face_count() : 4 * plan.steps[l - 1].refined_faces));
    if (l + 1 < counts.size()) CHECK(counts[l][refined] == plan.steps[l].refined_faces);
  }
  CHECK(counts.back()[refined] > 0);
  CHECK(counts.back()[std::size_t(cc::FaceHolder::patch)] > 0);
}

// W P0 (the samples' matrices of the base vertices through the adaptive levels) is the limits.
TEST_CASE_TEMPLATE("an adaptive plan's sample matrices give its limits", B, SPMESH_TEST_BACKENDS) {
  const auto mesh = meshops::read_obj(SPMESH_DATA_DIR "/meshes/creased_torus.obj");
  const Samples s = samples_on(mesh);
  typename B::Exec exec;
  const auto faces = B::upload(Array<index_t>(s.faces));
  const auto u = B::upload(Array<double>(s.u)), v = B::upload(Array<double>(s.v));
  const auto P0 = B::upload(mesh.positions);
  const auto plan = plan_of<B>(exec, mesh, 4);
  const auto limits = cc::limit_at_samples(exec, plan, faces, u, v, P0, true);
  const auto W = cc::limit_at_samples_matrices<double>(exec, plan, faces, u, v, true);
  CHECK(W.approximated == limits.approximated);
  const double diag = diagonal(mesh.positions);
  auto check = [&](const auto& matrix, const auto& expected) {
    const auto by_matrix = B::download(linalg::spmm(exec, matrix, P0));
    const auto want = B::download(expected);
    double difference = 0;
    for (index_t i = 0; i < want.rows; ++i)
      for (int k = 0; k < 3; ++k) difference = std::max(difference, std::abs(by_matrix(i, k) - want(i, k)));
    CHECK(difference <= 1e-12 * diag);
  };
  check(W.position, limits.position);
  check(W.du, limits.du);
  check(W.dv, limits.dv);
}

// R_adaptive P0 is every level's points, one SpMV; building and evaluating twice gives the same
// bits.
TEST_CASE_TEMPLATE("an adaptive plan's refinement matrix gives every level's points, and the same bits run to run", B,
                   SPMESH_TEST_BACKENDS) {
  const auto mesh = meshops::parse_obj(meshops::read_file(SPMESH_DATA_DIR "/meshes/lantern.obj") + "t crease 2/1/0 0 1 3.5\n",
                                       "lantern with a crease");
  typename B::Exec exec;
  auto build = [&] { return plan_of<B>(exec, mesh, 5); };
  const auto plan = build();
  const auto P0 = B::upload(mesh.positions);
  const auto R = cc::refinement_matrix<double>(exec, plan);
  CHECK(R.rows == plan.points());
  CHECK(R.cols == mesh.vertex_count());
  const auto replayed = B::download(linalg::spmm(exec, R, P0));
  const auto levels = cc::level_points(exec, plan, P0);
  REQUIRE(levels.size() == plan.levels.size());
  CHECK(levels.size() > 3);  // the crease decays over 4 levels
  double difference = 0;
  index_t row = 0;
  for (const auto& level : levels) {
    const auto points = B::download(level);
    for (index_t i = 0; i < points.rows; ++i, ++row)
      for (int k = 0; k < 3; ++k) difference = std::max(difference, std::abs(points(i, k) - replayed(row, k)));
  }
  CHECK(row == R.rows);
  CHECK(difference <= 1e-13 * diagonal(mesh.positions));
  // Run to run: the plan's topology and the limits, bit for bit.
  const Samples s = samples_on(mesh);
  const auto faces = B::upload(Array<index_t>(s.faces));
  const auto u = B::upload(Array<double>(s.u)), v = B::upload(Array<double>(s.v));
  const auto first = B::download(cc::limit_at_samples(exec, plan, faces, u, v, P0, true).position);
  for (int run = 0; run < 3; ++run) {
    const auto again = build();
    REQUIRE(again.levels.size() == plan.levels.size());
    for (std::size_t l = 1; l < plan.levels.size(); ++l)
      CHECK(same_values(B::download(again.steps[l - 1].source), B::download(plan.steps[l - 1].source)));
    const auto limits = B::download(cc::limit_at_samples(exec, again, faces, u, v, P0, true).position);
    CHECK(same_values(limits.data, first.data));
  }
}

// The extraction on its own: two faces of a 3 x 3 grid that meet at one vertex only make a
// region pinched there, whose vertex is split, one copy a face; a crease between two of the
// region's vertices is carried, one between a region vertex and another is not.
TEST_CASE_TEMPLATE("a region is extracted as a manifold mesh: a pinch split, its creases carried", B, SPMESH_TEST_BACKENDS) {
  std::string obj;
  for (int y = 0; y <= 3; ++y)
    for (int x = 0; x <= 3; ++x) obj += "v " + std::to_string(x) + " " + std::to_string(y) + " 0\n";
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 3; ++x) {
      const int a = 4 * y + x + 1;
      obj += "f " + std::to_string(a) + " " + std::to_string(a + 1) + " " + std::to_string(a + 5) + " " + std::to_string(a + 4) + "\n";
    }
  // vertex 5 = (1, 1) is shared by faces 0 and 4 alone; edge 5-6 is face 4's, edge 1-2 neither's
  obj += "t crease 2/1/0 5 6 2.5\nt crease 2/1/0 1 2 3\nt corner 1/1/0 5 1.5\n";
  const auto mesh = meshops::parse_obj(obj, "grid");
  const auto tags = schemes::read_tags(mesh);
  typename B::Exec exec;
  const auto plan = cc::build_adaptive(exec, B::upload(mesh.M),
                                       schemes::Sharpness<typename B::Exec::space>{B::upload(tags.sharpness.edges),
                                                                                 B::upload(tags.sharpness.vertices)},
                                       0);
  std::vector<std::uint8_t> marks(9, 0);
  marks[0] = marks[4] = 1;
  const auto region = cc::extract_region(exec, plan.levels[0], B::upload(Array<std::uint8_t>(marks)));
  const auto M = B::download(region.M);
  const auto source = B::download(region.source), position = B::download(region.position), faces = B::download(region.faces);
  const auto crease_from = B::download(region.C.edges.row_indices), crease_to = B::download(region.C.edges.col_indices);
  const auto crease_values = B::download(region.C.edges.values);
  const auto vertex_sharpness = B::download(region.C.vertices);
  REQUIRE(M.faces == 2);
  CHECK(M.vertices == 8);  // 7 vertices, the pinched one twice
  CHECK(faces[0] == 0);
  CHECK(faces[1] == 4);
  for (index_t f = 0; f < 9; ++f) CHECK(position[f] == (f == 0 ? 0 : f == 4 ? 1 : -1));
  // Each region corner is a copy of the level's corner; the two faces share none.
  const index_t corners[2][4] = {{0, 1, 5, 4}, {5, 6, 10, 9}};
  std::vector<index_t> seen;
  for (index_t f = 0; f < 2; ++f)
    for (index_t a = 0; a < 4; ++a) {
      const index_t vertex = M.indices[4 * f + a];
      CHECK(source[vertex] == corners[f][a]);
      CHECK(std::find(seen.begin(), seen.end(), vertex) == seen.end());
      seen.push_back(vertex);
    }
  REQUIRE(crease_values.size() == 1);
  const index_t from = source[crease_from[0]], to = source[crease_to[0]];
  CHECK(std::min(from, to) == 5);
  CHECK(std::max(from, to) == 6);
  CHECK(crease_values[0] == doctest::Approx(2.5));
  for (index_t i = 0; i < M.vertices; ++i) CHECK(vertex_sharpness[i] == doctest::Approx(source[i] == 5 ? 1.5 : 0));
  meshops::PolyMesh extracted;
  extracted.M = M.clone();
  extracted.positions = Dense<double>(M.vertices, 3);
  CHECK_NOTHROW(meshops::check_mesh(extracted));  // manifold
}

}  // namespace spmesh::test
