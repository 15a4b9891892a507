// An adaptive plan's patches (schemes/catmull_clark/adaptive_patches.hpp) and selective
// refinement: the patches tile each base face; the regular ones, evaluated here from their 16
// points of R_adaptive P0 by the cubic B-spline basis (reflected beyond their sides as
// docs/adaptive.md says), are the limit surface (limit_at_samples); the other kinds list the
// points their evaluation reads; a selection refines its faces to the isolation level and leaves
// the surface as it was; the patch file holds what the patches do.
#include "adaptive_common.hpp"
#include "schemes/catmull_clark/patch_file.hpp"
#include "schemes/catmull_clark/selective_mesh.hpp"

#include <doctest/doctest.h>

#include <array>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

namespace spmesh::test::adaptive_tests {

// Uniform cubic B-spline basis at t (Catmull and Clark 1978), written out.
std::array<double, 4> cubic_bspline(double t) {
  const double s = 1 - t;
  return {s * s * s / 6, (3 * t * t * t - 6 * t * t + 4) / 6, (-3 * t * t * t + 3 * t * t + 3 * t + 1) / 6, t * t * t / 6};
}

// A regular or boundary patch's surface at (s, t) from its grid of points (rows along t), the
// points beyond the sides in `sides` made as the file documents: rows 0 and 3 first (2 P_1 - P_2
// inward), in the columns not beyond a side, then columns 0 and 3, every row.
std::array<double, 3> grid_patch(const Dense<double>& points, const index_t* grid, int sides, double s, double t) {
  std::array<std::array<double, 3>, 16> P{};
  for (int g = 0; g < 16; ++g)
    if (grid[g] >= 0)
      for (int k = 0; k < 3; ++k) P[g][k] = points(grid[g], k);
  auto reflect = [&](int to, int near_, int far_) {
    for (int k = 0; k < 3; ++k) P[to][k] = 2 * P[near_][k] - P[far_][k];
  };
  const bool beyond[4] = {(sides & 1) != 0, (sides & 2) != 0, (sides & 4) != 0, (sides & 8) != 0};
  for (int col = 0; col < 4; ++col) {
    if ((col == 0 && beyond[3]) || (col == 3 && beyond[1])) continue;
    if (beyond[0]) reflect(col, 4 + col, 8 + col);
    if (beyond[2]) reflect(12 + col, 8 + col, 4 + col);
  }
  for (int row = 0; row < 4; ++row) {
    if (beyond[3]) reflect(4 * row, 4 * row + 1, 4 * row + 2);
    if (beyond[1]) reflect(4 * row + 3, 4 * row + 2, 4 * row + 1);
  }
  const auto bs = cubic_bspline(s), bt = cubic_bspline(t);
  std::array<double, 3> at{};
  for (int row = 0; row < 4; ++row)
    for (int col = 0; col < 4; ++col)
      for (int k = 0; k < 3; ++k) at[k] += bt[row] * bs[col] * P[4 * row + col][k];
  return at;
}

// The patches on the host, with the plan's points (R_adaptive P0) and its limit at a point in
// each patch, and what the checks found.
struct PatchCheck {
  cc::AdaptivePatches<linalg::Host> patches;
  Dense<double> points;
  index_t regular = 0, others = 0;
  double difference = 0;  // the regular patches' largest over the diagonal
};

template <class B, class Plan>
PatchCheck check_patches(typename B::Exec& exec, const meshops::PolyMesh& mesh, const Plan& plan) {
  PatchCheck c;
  const auto on_device = cc::adaptive_patches(exec, plan);
  auto& p = c.patches;
  p = {B::download(on_device.base_face), B::download(on_device.u0),   B::download(on_device.v0),
       B::download(on_device.level),     B::download(on_device.face), B::download(on_device.kind),
       B::download(on_device.detail),    B::download(on_device.offsets), B::download(on_device.points)};
  const auto P0 = B::upload(mesh.positions);
  c.points = B::download(linalg::spmm(exec, cc::refinement_matrix<double>(exec, plan), P0));
  // Tiling: per base face the patches' areas, 4^-level, add up to its domain's (n / 4 quarter
  // squares for an n-gon's sub-faces, 1 for a quad), each inside it.
  std::vector<double> area(std::size_t(mesh.face_count()), 0);
  for (index_t i = 0; i < p.size(); ++i) {
    const index_t f = p.base_face[i];
    REQUIRE(f >= 0);
    REQUIRE(f < mesh.face_count());
    const double size = std::ldexp(1.0, -int(p.level[i]));
    area[std::size_t(f)] += size * size;
    CHECK(p.u0[i] >= 0);
    CHECK(p.v0[i] >= 0);
  }
  for (index_t f = 0; f < mesh.face_count(); ++f) {
    const index_t n = mesh.M.offsets[f + 1] - mesh.M.offsets[f];
    CHECK(area[std::size_t(f)] == (n == 4 ? 1.0 : double(n) / 4));
  }
  // A sample in each patch, at (0.3, 0.7) of it: the limit there.
  std::vector<index_t> faces;
  std::vector<double> u, v;
  const double s = 0.3, t = 0.7;
  for (index_t i = 0; i < p.size(); ++i) {
    const double size = std::ldexp(1.0, -int(p.level[i]));
    faces.push_back(p.base_face[i]), u.push_back(p.u0[i] + s * size), v.push_back(p.v0[i] + t * size);
  }
  const auto limits = cc::limit_at_samples(exec, plan, B::upload(Array<index_t>(faces)), B::upload(Array<double>(u)),
                                           B::upload(Array<double>(v)), P0, true);
  const auto limit = B::download(limits.position);
  const double diag = diagonal(mesh.positions);
  index_t approximated = 0;
  for (index_t i = 0; i < p.size(); ++i) {
    const auto kind = cc::FaceHolder(p.kind[i]);
    const index_t begin = p.offsets[i], n = p.offsets[i + 1] - begin;
    const index_t* points = p.points.data() + begin;
    for (index_t j = 0; j < n; ++j) {
      CHECK(points[j] >= (kind == cc::FaceHolder::boundary_patch ? -1 : 0));
      CHECK(points[j] < plan.points());
    }
    approximated += kind == cc::FaceHolder::none ? 1 : 0;
    if (kind == cc::FaceHolder::patch || kind == cc::FaceHolder::boundary_patch) {
      REQUIRE(n == 16);
      const auto at = grid_patch(c.points, points, kind == cc::FaceHolder::patch ? 0 : p.detail[i], s, t);
      for (int k = 0; k < 3; ++k) c.difference = std::max(c.difference, std::abs(at[k] - limit(i, k)) / diag);
      ++c.regular;
    } else {
      ++c.others;
      const index_t expected = kind == cc::FaceHolder::smooth_corner ? 9 : kind == cc::FaceHolder::none ? 4 : 0;
      if (expected) CHECK(n == expected);
      if (kind == cc::FaceHolder::stam) CHECK((n - 8) % 2 == 0);
      if (kind == cc::FaceHolder::boundary_fan) CHECK((n - 3) % 6 == 0);
    }
  }
  CHECK(approximated == limits.approximated);  // the samples approximated are those where no patch is
  return c;
}

}  // namespace spmesh::test::adaptive_tests

namespace spmesh::test {

using namespace adaptive_tests;

TEST_CASE_TEMPLATE("an adaptive plan's patches tile its base faces and their B-splines are its limit surface", B,
                   SPMESH_TEST_BACKENDS) {
  auto meshes = bundled_meshes();
  meshes.push_back(meshops::parse_obj(meshops::read_file(SPMESH_DATA_DIR "/meshes/cube.obj") + "t crease 2/1/0 0 1 10\n",
                                      "cube with a dart"));
  const std::string character = SPMESH_SHARED_DIR "/meshes/characters/Bigguy.obj";
  if (std::filesystem::exists(character)) meshes.push_back(meshops::read_obj(character));  // patches of 4 levels
  index_t regular = 0;
  for (const auto& mesh : meshes) {
    CAPTURE(mesh.source);
    typename B::Exec exec;
    const auto plan = plan_of<B>(exec, mesh, 3);
    const auto c = check_patches<B>(exec, mesh, plan);
    MESSAGE(mesh.source << ": " << c.patches.size() << " patches, " << c.regular << " regular, largest difference "
                        << c.difference << " of the diagonal");
    regular += c.regular;
    CHECK(c.difference <= 1e-12);
    // Without a selection the leaves are patch_counts' faces held, and on the last level those left.
    const auto counts = cc::patch_counts(exec, plan);
    std::vector<cc::PatchCounts> found(counts.size(), cc::PatchCounts{});
    for (index_t i = 0; i < c.patches.size(); ++i)
      ++found[std::size_t(c.patches.level[i] - plan.first_level())][c.patches.kind[i]];
    for (std::size_t l = 0; l < counts.size(); ++l)
      for (std::size_t k = 0; k < counts[l].size(); ++k)
        CHECK(found[l][k] == (k == 0 && l + 1 < counts.size() ? 0 : counts[l][k]));
    if constexpr (!std::is_same_v<B, CpuBackend>) {  // the GPU's patches are the CPU's
      CpuBackend::Exec cpu;
      const auto on_cpu = check_patches<CpuBackend>(cpu, mesh, plan_of<CpuBackend>(cpu, mesh, 3));
      CHECK(same_values(on_cpu.patches.points, c.patches.points));
      CHECK(same_values(on_cpu.patches.u0, c.patches.u0));
      CHECK(same_values(on_cpu.patches.kind, c.patches.kind));
    }
  }
  CHECK(regular > 500);  // the B-spline check above is not idle
}

// Rings round the refined faces: more patches, of deeper levels, still tiling every base face,
// each B-spline still the limit.
TEST_CASE_TEMPLATE("an adaptive plan widened by rings: more patches, tiling the base faces, the same limit", B,
                   SPMESH_TEST_BACKENDS) {
  auto meshes = bundled_meshes();
  const std::string character = SPMESH_SHARED_DIR "/meshes/characters/Bigguy.obj";
  if (std::filesystem::exists(character)) meshes.push_back(meshops::read_obj(character));
  for (const auto& mesh : meshes) {
    CAPTURE(mesh.source);
    typename B::Exec exec;
    index_t patches = check_patches<B>(exec, mesh, plan_of<B>(exec, mesh, 3)).patches.size();
    for (int rings = 1; rings <= 2; ++rings) {
      CAPTURE(rings);
      const auto plan = plan_of<B>(exec, mesh, 3, {}, rings);
      const auto c = check_patches<B>(exec, mesh, plan);
      CHECK(c.difference <= 1e-12);
      CHECK(c.patches.size() >= patches);
      patches = c.patches.size();
      // The widening stays among the faces samples reach: a refined face's parent was refined.
      for (std::size_t l = 1; l < plan.steps.size(); ++l) {
        if (plan.steps[l - 1].whole) continue;
        const auto refined = B::download(plan.steps[l].refined);
        const auto faces = B::download(plan.steps[l].faces);
        const auto parents = B::download(plan.steps[l - 1].refined);
        for (index_t i = 0; i < refined.size(); ++i)
          if (refined[i]) CHECK(parents[faces[i] >> 2] != 0);
      }
    }
    // With a selection (face 0) too: its neighbours' patches a level deeper, the tiling the same.
    std::vector<std::uint8_t> first(std::size_t(mesh.face_count()), 0);
    first[0] = 1;
    const auto selected = check_patches<B>(exec, mesh, plan_of<B>(exec, mesh, 2, first));
    const auto widened = check_patches<B>(exec, mesh, plan_of<B>(exec, mesh, 2, first, 1));
    CHECK(widened.difference <= 1e-12);
    CHECK(widened.patches.size() >= selected.patches.size());
  }
}

// A selection refines its faces to the isolation level whatever they hold, 4^L patches a quad
// (n 4^(L - 1) an n-gon); the other faces' patches are the plan's without it, and the limits the
// same.
TEST_CASE_TEMPLATE("a selection refines its faces to the isolation level, the surface the same", B, SPMESH_TEST_BACKENDS) {
  for (const char* name : {"torus.obj", "lantern.obj", "holed_plate.obj"}) {
    const auto mesh = meshops::read_obj(std::string(SPMESH_DATA_DIR "/meshes/") + name);
    CAPTURE(mesh.source);
    std::vector<std::uint8_t> selected(std::size_t(mesh.face_count()), 0);
    selected[0] = selected[std::size_t(mesh.face_count() / 2)] = 1;
    typename B::Exec exec;
    const int L = 3;
    const auto plan = plan_of<B>(exec, mesh, L, selected);
    const auto c = check_patches<B>(exec, mesh, plan);
    CHECK(c.difference <= 1e-12);
    const auto plain = check_patches<B>(exec, mesh, plan_of<B>(exec, mesh, L));
    // Per base face its patches' (level, u0, v0, kind).
    using Patch = std::array<double, 4>;
    auto by_face = [&](const cc::AdaptivePatches<linalg::Host>& p) {
      std::map<index_t, std::vector<Patch>> faces;
      for (index_t i = 0; i < p.size(); ++i)
        faces[p.base_face[i]].push_back({double(p.level[i]), p.u0[i], p.v0[i], double(p.kind[i])});
      for (auto& [f, patches] : faces) std::sort(patches.begin(), patches.end());
      return faces;
    };
    const auto with = by_face(c.patches), without = by_face(plain.patches);
    for (index_t f = 0; f < mesh.face_count(); ++f) {
      CAPTURE(f);
      const auto& patches = with.at(f);
      if (selected[std::size_t(f)]) {
        const index_t n = mesh.M.offsets[f + 1] - mesh.M.offsets[f];
        CHECK(index_t(patches.size()) == (n == 4 ? 64 : n * 16));
        for (const Patch& patch : patches) CHECK(patch[0] == L);
      } else {
        CHECK(patches == without.at(f));
      }
    }
    // The surface: the limits at every face's samples, with and without the selection.
    const Samples s = samples_on(mesh, false);
    const auto faces = B::upload(Array<index_t>(s.faces));
    const auto u = B::upload(Array<double>(s.u)), v = B::upload(Array<double>(s.v));
    const auto P0 = B::upload(mesh.positions);
    const auto a = B::download(cc::limit_at_samples(exec, plan, faces, u, v, P0, true).position);
    const auto b = B::download(cc::limit_at_samples(exec, plan_of<B>(exec, mesh, L), faces, u, v, P0, true).position);
    double difference = 0;
    for (index_t i = 0; i < a.rows; ++i)
      for (int k = 0; k < 3; ++k) difference = std::max(difference, std::abs(a(i, k) - b(i, k)));
    CHECK(difference <= 1e-12 * diagonal(mesh.positions));
  }
  typename B::Exec exec;
  const auto mesh = meshops::read_obj(SPMESH_DATA_DIR "/meshes/torus.obj");
  CHECK_THROWS_WITH_AS(plan_of<B>(exec, mesh, 2, std::vector<std::uint8_t>(3, 1)),
                       doctest::Contains("a selection of 3 faces, the mesh has"), DimensionError);
}

// Selective refinement as a polygon mesh: no selection is the base mesh (its limit points), every
// face selected the tessellation at rate 2^L bit for bit, and between them the refined faces'
// points are the tessellation's and every edge is one or two facets' (closed stays closed), the
// transition faces holding their selected neighbours' side points.
TEST_CASE_TEMPLATE("a selective mesh is crack-free, between the base mesh and the tessellation at 2^L", B,
                   SPMESH_TEST_BACKENDS) {
  for (const char* name : {"torus.obj", "lantern.obj", "holed_plate.obj"}) {
    const auto mesh = meshops::read_obj(std::string(SPMESH_DATA_DIR "/meshes/") + name);
    CAPTURE(mesh.source);
    const index_t F = mesh.face_count();
    typename B::Exec exec;
    const int L = 2;
    const auto plan = plan_of<B>(exec, mesh, L);
    const auto M = B::upload(mesh.M);
    const auto P0 = B::upload(mesh.positions);
    auto selective = [&](const std::vector<std::uint8_t>& marks) {
      auto r = cc::selective_mesh(exec, plan, M, P0, B::upload(Array<std::uint8_t>(marks)), true);
      return std::pair{B::download(r.position), B::download(r.facets)};
    };
    const auto full = cc::tessellate(exec, plan, M, P0, 1 << L, true);
    const auto full_points = B::download(full.position);
    const auto full_facets = B::download(full.facets);
    {
      const auto [points, facets] = selective(std::vector<std::uint8_t>(std::size_t(F), 1));
      CHECK(same_values(points.data, full_points.data));
      CHECK(same_values(facets.indices, full_facets.indices));
    }
    {
      const auto [points, facets] = selective(std::vector<std::uint8_t>(std::size_t(F), 0));
      CHECK(facets.faces == F);
      CHECK(same_values(facets.offsets, mesh.M.offsets));
      CHECK(points.rows == mesh.vertex_count());
    }
    std::vector<std::uint8_t> marks(std::size_t(F), 0);
    for (index_t f = 0; f < F; f += 3) marks[std::size_t(f)] = 1;
    const auto [points, facets] = selective(marks);
    std::set<std::array<double, 3>> on_surface;
    for (index_t i = 0; i < full_points.rows; ++i) on_surface.insert({full_points(i, 0), full_points(i, 1), full_points(i, 2)});
    for (index_t i = 0; i < points.rows; ++i) CHECK(on_surface.count({points(i, 0), points(i, 1), points(i, 2)}) == 1);
    // Every edge of the result is one facet's or two facets' in opposite directions; the
    // boundary's edges are the base boundary's, each split where its face is selected.
    std::map<std::pair<index_t, index_t>, int> edges;
    for (index_t f = 0; f < facets.faces; ++f)
      for (index_t c = facets.offsets[f]; c < facets.offsets[f + 1]; ++c) {
        const index_t a = facets.indices[c], b = facets.indices[c + 1 < facets.offsets[f + 1] ? c + 1 : facets.offsets[f]];
        CHECK(a != b);
        ++edges[{a, b}];
      }
    index_t boundary = 0;
    for (const auto& [edge, count] : edges) {
      CHECK(count == 1);
      boundary += edges.count({edge.second, edge.first}) ? 0 : 1;
    }
    index_t expected = 0;
    std::map<std::pair<index_t, index_t>, index_t> base_edges;  // directed edge -> face
    for (index_t f = 0; f < F; ++f)
      for (index_t c = mesh.M.offsets[f]; c < mesh.M.offsets[f + 1]; ++c)
        base_edges[{mesh.M.indices[c], mesh.M.indices[c + 1 < mesh.M.offsets[f + 1] ? c + 1 : mesh.M.offsets[f]]}] = f;
    for (const auto& [edge, f] : base_edges)
      if (!base_edges.count({edge.second, edge.first})) expected += marks[std::size_t(f)] ? (1 << L) : 1;
    CHECK(boundary == expected);
    if (std::string(name) == "torus.obj") CHECK(boundary == 0);
  }
}

// The patch file: its sections' counts, each patch's line as the patches say.
TEST_CASE("the patch file holds the points, the levels' rows and one patch a line") {
  const auto mesh = meshops::read_obj(SPMESH_DATA_DIR "/meshes/lantern.obj");
  CpuBackend::Exec exec;
  const auto plan = plan_of<CpuBackend>(exec, mesh, 2);
  const auto c = check_patches<CpuBackend>(exec, mesh, plan);
  std::ostringstream out;
  cc::write_patch_file(out, "lantern", c.points, plan.level_rows(), c.patches);
  std::istringstream in(out.str());
  std::string line, word;
  std::getline(in, line);
  CHECK(line == "# spmesh adaptive patches 1");
  std::getline(in, line);
  CHECK(line == "# lantern");
  index_t rows = 0, columns = 0, levels = 0, patches = 0;
  in >> word >> rows >> columns;
  CHECK(word == "points");
  CHECK(rows == plan.points());
  CHECK(columns == 3);
  double x = 0;
  for (index_t i = 0; i < rows * columns; ++i) in >> x;
  CHECK(x == c.points(rows - 1, 2));  // shortest round trip
  in >> word >> levels;
  CHECK(word == "levels");
  CHECK(levels == index_t(plan.levels.size()));
  for (index_t l = 0; l < levels; ++l) {
    index_t level = 0, first = 0, count = 0;
    in >> word >> level >> first >> count;
    CHECK(level == l);
    CHECK(first == plan.level_rows()[std::size_t(l)]);
    CHECK(count == (l == 0 ? plan.base_vertices : plan.levels[std::size_t(l)].vertices));
  }
  in >> word >> patches;
  CHECK(word == "patches");
  REQUIRE(patches == c.patches.size());
  for (index_t p = 0; p < patches; ++p) {
    std::string kind;
    index_t base_face = 0, level = 0, face = 0, detail = 0, n = 0;
    double u0 = 0, v0 = 0;
    in >> kind >> base_face >> u0 >> v0 >> level >> face >> detail >> n;
    CHECK(kind == cc::patch_kind_name(cc::FaceHolder(c.patches.kind[p])));
    CHECK(base_face == c.patches.base_face[p]);
    CHECK(u0 == c.patches.u0[p]);
    CHECK(v0 == c.patches.v0[p]);
    CHECK(level == c.patches.level[p]);
    CHECK(face == c.patches.face[p]);
    CHECK(detail == c.patches.detail[p]);
    REQUIRE(n == c.patches.offsets[p + 1] - c.patches.offsets[p]);
    for (index_t j = 0; j < n; ++j) {
      index_t point = 0;
      in >> point;
      CHECK(point == c.patches.points[c.patches.offsets[p] + j]);
    }
  }
  CHECK(!(in >> word));
}

}  // namespace spmesh::test
