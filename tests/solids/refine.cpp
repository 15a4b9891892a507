// One level of Catmull-Clark solid refinement (solids/refine.hpp) against independent references:
// inside a perturbed regular grid the tricubic B-spline's refinement (a tensor product of the
// cubic B-spline's 1-D rule), on the boundary the Catmull-Clark surface refinement of the
// boundary surface (spmesh's schemes, which match OpenSubdiv), and the refined mesh's counts,
// cells and orientation. The same source runs on the GPU (cuda/solids.cu), compared with the CPU.
#include "../backends.hpp"
#include "linalg/cpu/executor.hpp"
#include "schemes/catmull_clark/scheme.hpp"
#include "schemes/schemes.hpp"
#include "solids/medit.hpp"
#include "solids/plan.hpp"
#include "solids/refine.hpp"

#include "generated.hpp"
#include "hex_meshes.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <random>
#include <vector>

namespace spmesh::test::solid_refine {

using solids::CellMesh;
using linalg::column_of;
using linalg::sign_of;

template <class B, class T>
solids::SolidLevel<T, linalg::Host> refine_on(const CellMesh<>& mesh, const linalg::Dense<T>& X,
                                              const solids::RefineOptions& options = {}) {
  typename B::Exec exec;
  const auto on = upload_cells<B>(mesh);
  const auto ops = solids::boundary_operators(exec, on);
  const auto level = solids::refine(exec, on, ops, B::upload(X), options);
  return {CellMesh<>{level.cells.vertices, B::download(level.cells.offsets), B::download(level.cells.indices)},
          B::download(level.positions)};
}

// The cubic B-spline's refinement in 1-D: fine point I from coarse points i (weight w).
std::vector<std::pair<int, double>> bspline_rule(int fine) {
  const int i = fine / 2;
  if (fine % 2) return {{i, 0.5}, {i + 1, 0.5}};
  return {{i - 1, 0.125}, {i, 0.75}, {i + 1, 0.125}};
}

TEST_CASE_TEMPLATE("Catmull-Clark solids refine a perturbed regular grid as the tricubic "
                   "B-spline inside (1e-12)", B, SPMESH_TEST_BACKENDS) {
  const int n = 6;
  const CellMesh<> mesh = grid_cells(n);
  // The grid's own coordinates (refined, they name each fine point) and a random perturbation
  // of them (the positions refined).
  linalg::Dense<double> grid(mesh.vertices, 3), P(mesh.vertices, 3);
  std::mt19937 random(11);
  std::uniform_real_distribution<double> jitter(-0.3, 0.3);
  for (index_t v = 0; v < mesh.vertices; ++v) {
    const int coords[3] = {int(v % (n + 1)), int(v / (n + 1) % (n + 1)), int(v / ((n + 1) * (n + 1)))};
    for (int x = 0; x < 3; ++x) grid(v, x) = coords[x], P(v, x) = coords[x] + jitter(random);
  }
  const auto where = refine_on<B>(mesh, grid);
  const auto refined = refine_on<B>(mesh, P);
  REQUIRE(refined.positions.rows == where.positions.rows);
  index_t checked = 0;
  double worst = 0;
  for (index_t r = 0; r < refined.positions.rows; ++r) {
    int fine[3];
    bool inside = true;
    for (int x = 0; x < 3; ++x) {
      fine[x] = int(std::lround(2 * where.positions(r, x)));
      // An even coordinate 2i is a coarse grid line: inside if its neighbours i +- 1 exist and
      // it is not the boundary's.
      if (fine[x] % 2 == 0) inside &= fine[x] / 2 >= 1 && fine[x] / 2 <= n - 1;
    }
    if (!inside) continue;
    double expected[3] = {0, 0, 0};
    for (const auto& [i, wi] : bspline_rule(fine[0]))
      for (const auto& [j, wj] : bspline_rule(fine[1]))
        for (const auto& [k, wk] : bspline_rule(fine[2]))
          for (int x = 0; x < 3; ++x) expected[x] += wi * wj * wk * P(i + (n + 1) * (j + (n + 1) * k), x);
    for (int x = 0; x < 3; ++x) worst = std::max(worst, std::abs(refined.positions(r, x) - expected[x]));
    ++checked;
  }
  CHECK(checked == 11 * 11 * 11);  // fine points 2..12 in each direction
  CHECK(worst < 1e-12);
}

// The cubic B-spline curve's refinement with interpolated ends (the 1-D rule of the solid's
// boundary layers): values along a line of points, refined once.
std::vector<double> refine_curve(const std::vector<double>& c) {
  const std::size_t last = c.size() - 1;
  std::vector<double> fine(2 * last + 1);
  for (std::size_t i = 0; i <= last; ++i)
    fine[2 * i] = i == 0 || i == last ? c[i] : (c[i - 1] + 6 * c[i] + c[i + 1]) / 8;
  for (std::size_t i = 0; i < last; ++i) fine[2 * i + 1] = (c[i] + c[i + 1]) / 2;
  return fine;
}

// The surface extruded outward into `layers` layers of cells (a thick shell with no side walls):
// every vertical edge at a vertex of valence n != 4 is an extraordinary edge of valence n, so
// each inner vertex there is on one extraordinary edge line. Refined `levels` times, every point
// must equal the tensor product of Catmull-Clark on the surface and the cubic B-spline across the
// layers (the default rule, to 1e-12); the Joy-MacCracken rule misses it on those lines.
template <class B>
void check_extruded(const Surface& surface, int levels, unsigned seed) {
  CAPTURE(levels);
  std::mt19937 random(seed);
  linalg::cpu::Executor cpu;
  const index_t S = surface.M.vertices, layers = 3;
  const CellMesh<> mesh = extrude(surface.M, layers);
  // Data: the surface's positions (constant across the layers: they name a point of the refined
  // surface), the layer (it names a refined layer), and three random columns.
  const index_t width = 7;
  linalg::Dense<double> X(mesh.vertices, width);
  std::uniform_real_distribution<double> value(-1, 1);
  for (index_t l = 0; l <= layers; ++l)
    for (index_t v = 0; v < S; ++v) {
      for (int x = 0; x < 3; ++x) X(v + S * l, x) = surface.positions(v, x);
      X(v + S * l, 3) = double(l);
      for (int x = 4; x < width; ++x) X(v + S * l, x) = value(random);
    }

  // The product: the random columns refined along each vertex's line of layers, then each
  // refined layer (and the naming positions) by Catmull-Clark on the surface.
  std::vector<std::vector<double>> along(std::size_t(S * 3));  // (vertex, column): values by layer
  for (index_t v = 0; v < S; ++v)
    for (int x = 0; x < 3; ++x) {
      std::vector<double> line;
      for (index_t l = 0; l <= layers; ++l) line.push_back(X(v + S * l, 4 + x));
      for (int level = 0; level < levels; ++level) line = refine_curve(line);
      along[std::size_t(3 * v + x)] = line;
    }
  const index_t fine_layers = index_t(along[0].size());
  linalg::Dense<double> surface_data(S, 3 + 3 * fine_layers);
  for (index_t v = 0; v < S; ++v) {
    for (int x = 0; x < 3; ++x) surface_data(v, x) = surface.positions(v, x);
    for (index_t l = 0; l < fine_layers; ++l)
      for (int x = 0; x < 3; ++x) surface_data(v, 3 + 3 * l + x) = along[std::size_t(3 * v + x)][std::size_t(l)];
  }
  const auto product = schemes::build_and_eval<schemes::CatmullClark>(
      cpu, surface.M.clone(), schemes::smooth_sharpness(S), levels, surface_data).data;

  // Through build_and_eval: the refined levels' operators by index arithmetic.
  auto refine_levels = [&](const solids::RefineOptions& options) {
    typename B::Exec exec;
    return B::download(solids::build_and_eval(exec, upload_cells<B>(mesh), B::upload(X), levels, options).positions);
  };
  const auto tensor = refine_levels({}), joy = refine_levels({solids::VertexRule::joy_maccracken});
  // Each refined point's layer and refined surface point, named by its naming columns under the
  // default rule (either rule makes the same points in the same order).
  REQUIRE(tensor.rows == product.rows * fine_layers);
  std::vector<index_t> layer_of(std::size_t(tensor.rows)), point_of(std::size_t(tensor.rows));
  for (index_t r = 0; r < tensor.rows; ++r) {
    const double layer = tensor(r, 3) * (1 << levels);
    REQUIRE(std::abs(layer - std::round(layer)) < 1e-9);
    layer_of[std::size_t(r)] = index_t(std::lround(layer));
    double best = 1e300;
    for (index_t p = 0; p < product.rows; ++p) {
      double d = 0;
      for (int x = 0; x < 3; ++x) d += (tensor(r, x) - product(p, x)) * (tensor(r, x) - product(p, x));
      if (d < best) best = d, point_of[std::size_t(r)] = p;
    }
    REQUIRE(best < 1e-18);
  }
  // The largest difference from the product, over every refined point.
  auto worst_difference = [&](const linalg::Dense<double>& P) {
    double worst = 0;
    for (index_t r = 0; r < P.rows; ++r)
      for (int x = 0; x < 3; ++x)
        worst = std::max(worst, std::abs(P(r, 4 + x) - product(point_of[std::size_t(r)], 3 + 3 * layer_of[std::size_t(r)] + x)));
    return worst;
  };
  CHECK(worst_difference(tensor) < 1e-12);
  CHECK(worst_difference(joy) > 1e-3);
}

TEST_CASE_TEMPLATE("an extruded surface refines as the tensor product of Catmull-Clark and the cubic "
                   "B-spline at extraordinary edges of valence 3, 5, 6 (1e-12, Joy-MacCracken's vertex "
                   "rule does not), pentagonal prisms (polyhedra) included",
                   B, SPMESH_TEST_BACKENDS) {
  for (int n : {3, 5, 6}) {
    CAPTURE(n);
    const Surface surface = refined_bipyramid(n);
    check_extruded<B>(surface, 1, 200 + unsigned(n));
    check_extruded<B>(surface, 2, 300 + unsigned(n));
  }
  // A pole cut off: pentagons around a pentagon, so pentagonal prisms above them, and edges of
  // valence 3, 4 and 5.
  std::mt19937 random(11);
  const Surface cut = truncate_vertex(bipyramid(5, random), 0);
  check_extruded<B>(cut, 1, 400);
  check_extruded<B>(cut, 2, 401);
}

// The boundary faces of a volume mesh as a surface over its boundary vertices, each face turned
// outward; `surface_vertex` maps the mesh's vertex ids to the surface's (-1 inside).
struct Boundary {
  linalg::MeshMatrix<> M;
  std::vector<index_t> surface_vertex, faces;  // faces: the volume faces they are
};

Boundary boundary_of(const solids::BoundaryOperators<>& ops) {
  std::vector<int> holders(std::size_t(ops.faces()), 0), sign(std::size_t(ops.faces()), 0);
  for (index_t p = 0; p < ops.d3.nnz(); ++p) {
    ++holders[std::size_t(column_of(ops.d3.columns[p]))];
    sign[std::size_t(column_of(ops.d3.columns[p]))] = sign_of(ops.d3.columns[p]);
  }
  Boundary b;
  b.surface_vertex.assign(std::size_t(ops.vertices()), -1);
  std::vector<index_t> offsets{0}, indices;
  index_t next = 0;
  for (index_t f = 0; f < ops.faces(); ++f) {
    if (holders[std::size_t(f)] != 1) continue;
    std::vector<index_t> cycle;
    for (index_t p = ops.d2.offsets[f]; p < ops.d2.offsets[f + 1]; ++p) {
      const index_t e = column_of(ops.d2.columns[p]);
      const index_t low = column_of(ops.d1.columns[2 * e]), high = column_of(ops.d1.columns[2 * e + 1]);
      cycle.push_back(sign_of(ops.d2.columns[p]) > 0 ? low : high);
    }
    if (sign[std::size_t(f)] < 0) std::reverse(cycle.begin(), cycle.end());
    for (index_t v : cycle) {
      if (b.surface_vertex[std::size_t(v)] < 0) b.surface_vertex[std::size_t(v)] = next++;
      indices.push_back(b.surface_vertex[std::size_t(v)]);
    }
    offsets.push_back(index_t(indices.size()));
    b.faces.push_back(f);
  }
  linalg::Array<index_t> o(index_t(offsets.size())), i(index_t(indices.size()));
  std::copy(offsets.begin(), offsets.end(), o.begin());
  std::copy(indices.begin(), indices.end(), i.begin());
  b.M = linalg::MeshMatrix<>(next, std::move(o), std::move(i));
  return b;
}

// The largest distance from a point of `a` to its nearest point of `b`, and back.
double set_distance(const std::vector<std::array<double, 3>>& a, const std::vector<std::array<double, 3>>& b) {
  auto one_way = [](const auto& from, const auto& to) {
    double worst = 0;
    for (const auto& p : from) {
      double best = 1e300;
      for (const auto& q : to)
        best = std::min(best, (p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) + (p[2] - q[2]) * (p[2] - q[2]));
      worst = std::max(worst, std::sqrt(best));
    }
    return worst;
  };
  return std::max(one_way(a, b), one_way(b, a));
}

template <class B>
void check_boundary_is_catmull_clark(const CellMesh<>& mesh, const linalg::Dense<double>& X, int levels,
                                     const solids::SolidSharpness<>* sharpness = nullptr) {
  linalg::cpu::Executor cpu;
  const auto ops0 = solids::boundary_operators(cpu, mesh);
  const Boundary b = boundary_of(ops0);
  REQUIRE(b.M.faces > 0);
  // Catmull-Clark of the boundary surface, with the solid's sharpness on its edges and vertices.
  linalg::Dense<double> surface(b.M.vertices, 3);
  for (index_t v = 0; v < mesh.vertices; ++v)
    if (const index_t s = b.surface_vertex[std::size_t(v)]; s >= 0)
      for (int x = 0; x < 3; ++x) surface(s, x) = X(v, x);
  auto tags = schemes::smooth_sharpness(b.M.vertices);
  if (sharpness) {
    std::vector<index_t> rows, cols;
    std::vector<float> values;
    for (index_t e = 0; e < ops0.edges(); ++e) {
      if (sharpness->edges[e] <= 0) continue;
      const index_t u = b.surface_vertex[std::size_t(column_of(ops0.d1.columns[2 * e]))],
                    w = b.surface_vertex[std::size_t(ops0.d1.columns[2 * e + 1])];
      REQUIRE((u >= 0 && w >= 0));
      rows.push_back(std::min(u, w)), cols.push_back(std::max(u, w)), values.push_back(sharpness->edges[e]);
    }
    tags.edges = linalg::Coo<float>{b.M.vertices, b.M.vertices, linalg::Array<index_t>(rows), linalg::Array<index_t>(cols),
                                    linalg::Array<float>(values)};
    for (index_t v = 0; v < mesh.vertices; ++v)
      if (const index_t s = b.surface_vertex[std::size_t(v)]; s >= 0) tags.vertices[s] = sharpness->vertices[v];
  }
  const auto cc = schemes::build_and_eval<schemes::CatmullClark>(cpu, b.M.clone(), std::move(tags), levels, surface);
  std::vector<std::array<double, 3>> expected, got;
  for (index_t r = 0; r < cc.data.rows; ++r) expected.push_back({cc.data(r, 0), cc.data(r, 1), cc.data(r, 2)});
  // The solid refined as often (build_and_eval on B); its points on the last parent's boundary
  // faces: their vertex, edge and face points.
  typename B::Exec exec;
  using S = typename B::Exec::space;
  std::optional<solids::SolidSharpness<S>> on_b;
  if (sharpness) on_b = solids::SolidSharpness<S>{B::upload(sharpness->edges), B::upload(sharpness->vertices)};
  auto result = solids::build_and_eval(exec, upload_cells<B>(mesh),
                                       B::upload(X), levels, {}, std::move(on_b));
  const auto P = B::download(result.positions);
  const solids::BoundaryOperators<> ops{
      {result.last_parent.d3.rows, result.last_parent.d3.cols, B::download(result.last_parent.d3.offsets), B::download(result.last_parent.d3.columns)},
      {result.last_parent.d2.rows, result.last_parent.d2.cols, B::download(result.last_parent.d2.offsets), B::download(result.last_parent.d2.columns)},
      {result.last_parent.d1.rows, result.last_parent.d1.cols, B::download(result.last_parent.d1.offsets), B::download(result.last_parent.d1.columns)}};
  std::vector<char> taken(std::size_t(P.rows), 0);
  const index_t V = ops.vertices(), E = ops.edges();
  for (index_t f : boundary_of(ops).faces) {
    taken[std::size_t(V + E + f)] = 1;
    for (index_t p = ops.d2.offsets[f]; p < ops.d2.offsets[f + 1]; ++p) {
      const index_t e = column_of(ops.d2.columns[p]);
      taken[std::size_t(V + e)] = 1;
      taken[std::size_t(column_of(ops.d1.columns[2 * e]))] = 1;
      taken[std::size_t(column_of(ops.d1.columns[2 * e + 1]))] = 1;
    }
  }
  for (index_t r = 0; r < P.rows; ++r)
    if (taken[std::size_t(r)]) got.push_back({P(r, 0), P(r, 1), P(r, 2)});
  REQUIRE(got.size() == expected.size());
  double lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300};
  for (const auto& p : expected)
    for (int x = 0; x < 3; ++x) lo[x] = std::min(lo[x], p[x]), hi[x] = std::max(hi[x], p[x]);
  const double diagonal = std::hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  CHECK(set_distance(got, expected) <= 1e-12 * diagonal);
}

TEST_CASE_TEMPLATE("the boundary of a refined solid is the Catmull-Clark refinement of its "
                   "boundary (a perturbed grid and a shell of polyhedra, 1 and 2 levels, the team's hex meshes, "
                   "1 level)",
                   B, SPMESH_TEST_BACKENDS) {
  const CellMesh<> mesh = grid_cells(3);
  const auto P = perturbed_grid(3, 5);
  check_boundary_is_catmull_clark<B>(mesh, P, 1);
  check_boundary_is_catmull_clark<B>(mesh, P, 2);
  const auto [shell, X] = polyhedral_shell();  // pentagons on its boundary
  check_boundary_is_catmull_clark<B>(shell, X, 1);
  check_boundary_is_catmull_clark<B>(shell, X, 2);

  const auto dir = hex_mesh_folder();
  if (!dir) return;
  for (const char* file : team_hex_meshes) {
    CAPTURE(file);
    const auto m = solids::read_medit((*dir / file).string());
    check_boundary_is_catmull_clark<B>(m.cells, m.positions, 1);
  }
}

// Tags on a mesh's boundary: about a quarter of its boundary edges sharp or semi-sharp (0.5,
// 1.5, 2.5 or infinite), one boundary vertex a corner and one semi-sharp (1.5).
TEST_CASE_TEMPLATE("with creases and corners on its boundary, a refined solid's boundary is "
                   "Catmull-Clark's refinement of its boundary with the same tags (sharp, semi-sharp, "
                   "corners, 1 and 2 levels, a perturbed grid and the team's hex meshes)",
                   B, SPMESH_TEST_BACKENDS) {
  const CellMesh<> mesh = grid_cells(3);
  const auto P = perturbed_grid(3, 15);
  for (unsigned seed : {1u, 2u, 3u}) {
    CAPTURE(seed);
    const auto sharpness = random_boundary_sharpness(mesh, seed);
    check_boundary_is_catmull_clark<B>(mesh, P, 1, &sharpness);
    check_boundary_is_catmull_clark<B>(mesh, P, 2, &sharpness);
  }
  const auto dir = hex_mesh_folder();
  if (!dir) return;
  for (const char* file : team_hex_meshes) {
    CAPTURE(file);
    const auto m = solids::read_medit((*dir / file).string());
    const auto sharpness = random_boundary_sharpness(m.cells, 7);
    check_boundary_is_catmull_clark<B>(m.cells, m.positions, 2, &sharpness);
  }
}

TEST_CASE("sharp tags are refused where no edge or vertex is, naming them") {
  const CellMesh<> mesh = grid_cells(2);  // vertex (i, j, k) = i + 3 j + 9 k: 13 is the middle
  linalg::cpu::Executor cpu;
  const auto ops = solids::boundary_operators(cpu, mesh);
  CHECK_NOTHROW(solids::tagged_sharpness(ops, {{0, 1}, {13, 14}}, {0, 13}, "g.mesh"));
  CHECK_THROWS_WITH_AS(solids::tagged_sharpness(ops, {{0, 4}}, {}, "g.mesh"),
                       "g.mesh: the sharp edge 0-4 (ids count from 0) is no edge of a cell", InputError);
  CHECK_THROWS_WITH_AS(solids::tagged_sharpness(ops, {}, {27}, "g.mesh"),
                       "g.mesh: the corner 27 is no vertex (0 to 26; ids count from 0)", InputError);
  CHECK_THROWS_WITH_AS(solids::tagged_sharpness(ops, {{0, 1}}, {}, "g.mesh", {-1.0f}),
                       "g.mesh: the sharp edge 0-1 (ids count from 0) has sharpness -1.000000 (a finite number >= 0 is "
                       "needed)",
                       InputError);
}

// Levels of a grid's refinement on backend B with the given sharpness (null: smooth).
template <class B>
linalg::Dense<double> refined_with(const CellMesh<>& mesh, const linalg::Dense<double>& P, int levels,
                                   const solids::SolidSharpness<>* sharpness) {
  typename B::Exec exec;
  using S = typename B::Exec::space;
  std::optional<solids::SolidSharpness<S>> sharp;
  if (sharpness) sharp = solids::SolidSharpness<S>{B::upload(sharpness->edges), B::upload(sharpness->vertices)};
  return B::download(solids::build_and_eval(exec, upload_cells<B>(mesh),
                                            B::upload(P), levels, {}, std::move(sharp))
                         .positions);
}

// Vertex (i, 3, 3) of grid_cells(6) (vertex (i, j, k) = i + 7 (j + 7 k)), the edges of the
// line through those vertices from i = first to i = last, and a weighted sum of rows of P.
index_t line_vertex(index_t i) { return i + 7 * (3 + 7 * 3); }
std::vector<std::array<index_t, 2>> line_edges(index_t first, index_t last) {
  std::vector<std::array<index_t, 2>> line;
  for (index_t i = first; i < last; ++i) line.push_back({line_vertex(i), line_vertex(i + 1)});
  return line;
}
std::array<double, 3> combination(const linalg::Dense<double>& P, std::initializer_list<std::pair<index_t, double>> terms) {
  std::array<double, 3> out{0, 0, 0};
  for (const auto& [v, w] : terms)
    for (int x = 0; x < 3; ++x) out[std::size_t(x)] += w * P(v, x);
  return out;
}

TEST_CASE_TEMPLATE("a crease line inside the volume refines along itself by the crease rule (edge points its "
                   "midpoints, its vertices (u + 6 V + w) / 8, its ends smooth, 1e-12), and a semi-sharp one (1.5) "
                   "is the sharp one after a level and halfway to the smooth rule after two",
                   B, SPMESH_TEST_BACKENDS) {
  const CellMesh<> mesh = grid_cells(6);
  const auto P = perturbed_grid(6, 31);
  linalg::cpu::Executor cpu;
  const auto ops = solids::boundary_operators(cpu, mesh);
  const auto line = line_edges(1, 5);
  const auto at = line_vertex;
  const auto sharp = solids::tagged_sharpness(ops, line, {}, "line");
  const auto semi = solids::tagged_sharpness(ops, line, {}, "line", std::vector<float>(4, 1.5f));
  const auto smooth1 = refined_with<B>(mesh, P, 1, nullptr), sharp1 = refined_with<B>(mesh, P, 1, &sharp),
             semi1 = refined_with<B>(mesh, P, 1, &semi);
  const index_t V = ops.vertices();
  double worst = 0;
  auto near = [&](const linalg::Dense<double>& A, index_t row, const std::array<double, 3>& expected) {
    for (int x = 0; x < 3; ++x) worst = std::max(worst, std::abs(A(row, x) - expected[std::size_t(x)]));
  };
  auto combine = [&](std::initializer_list<std::pair<index_t, double>> terms) { return combination(P, terms); };
  for (index_t i = 1; i <= 5; ++i) {
    if (i >= 2 && i <= 4) near(sharp1, at(i), combine({{at(i - 1), 0.125}, {at(i), 0.75}, {at(i + 1), 0.125}}));
    if (i < 5) near(sharp1, V + solids::find_edge(ops.d1.view(), at(i), at(i + 1)), combine({{at(i), 0.5}, {at(i + 1), 0.5}}));
  }
  near(sharp1, at(1), {smooth1(at(1), 0), smooth1(at(1), 1), smooth1(at(1), 2)});  // the ends: darts, smooth
  near(sharp1, at(5), {smooth1(at(5), 0), smooth1(at(5), 1), smooth1(at(5), 2)});
  near(sharp1, 0, {smooth1(0, 0), smooth1(0, 1), smooth1(0, 2)});  // far from the line: smooth
  CHECK(worst <= 1e-12);
  CHECK(relative_difference(semi1, sharp1) <= 1e-14);
  // Two levels: the semi-sharp crease (0.5 after the first) blends the crease rule with the
  // smooth rule half and half, both on the first level's points; its vertex and edge points are
  // the mean of the sharp crease's and of the smooth rule on the sharp first level.
  const auto sharp2 = refined_with<B>(mesh, P, 2, &sharp), semi2 = refined_with<B>(mesh, P, 2, &semi);
  typename B::Exec exec;
  const auto level1 = solids::build(exec, upload_cells<B>(mesh), 1);
  const CellMesh<> cells1{level1.refined.vertices, B::download(level1.refined.offsets), B::download(level1.refined.indices)};
  const auto ops1 = solids::boundary_operators(cpu, cells1);
  const auto smooth_on_sharp1 = solids::refine(cpu, cells1, ops1, sharp1).positions;
  double off = 0, moved = 0;
  for (index_t r = 0; r < ops1.vertices() + ops1.edges(); ++r)
    for (int x = 0; x < 3; ++x) {
      off = std::max(off, std::abs(semi2(r, x) - (sharp2(r, x) + smooth_on_sharp1(r, x)) / 2));
      moved = std::max(moved, std::abs(sharp2(r, x) - smooth_on_sharp1(r, x)));
    }
  CHECK(off <= 1e-12);
  CHECK(moved > 1e-3);  // the crease does move points at the second level
}

TEST_CASE_TEMPLATE("a crease line inside the volume that reaches the boundary keeps the boundary's rules at its end "
                   "(the refined boundary as without the crease) and its own rule up to it (1e-12)",
                   B, SPMESH_TEST_BACKENDS) {
  const CellMesh<> mesh = grid_cells(6);
  const auto P = perturbed_grid(6, 37);
  linalg::cpu::Executor cpu;
  const auto ops = solids::boundary_operators(cpu, mesh);
  const auto line = line_edges(0, 4);  // (0, 3, 3), on the face x = 0, to (4, 3, 3) inside
  const auto at = line_vertex;
  const auto sharp = solids::tagged_sharpness(ops, line, {}, "line");
  const auto smooth1 = refined_with<B>(mesh, P, 1, nullptr), sharp1 = refined_with<B>(mesh, P, 1, &sharp);
  const auto flags = solids::boundary_flags(cpu, ops, solids::transposes(cpu, ops));
  const index_t V = ops.vertices(), E = ops.edges();
  double worst = 0;
  auto near = [&](index_t row, const std::array<double, 3>& expected) {
    for (int x = 0; x < 3; ++x) worst = std::max(worst, std::abs(sharp1(row, x) - expected[std::size_t(x)]));
  };
  auto of = [&](const linalg::Dense<double>& A, index_t row) { return std::array<double, 3>{A(row, 0), A(row, 1), A(row, 2)}; };
  auto combine = [&](std::initializer_list<std::pair<index_t, double>> terms) { return combination(P, terms); };
  // Along the line: the crease rule, the vertex next to the boundary reading the boundary end's
  // old point; the edge points midpoints, the one reaching the boundary too.
  for (index_t i = 1; i <= 3; ++i) near(at(i), combine({{at(i - 1), 0.125}, {at(i), 0.75}, {at(i + 1), 0.125}}));
  for (index_t i = 0; i < 4; ++i)
    near(V + solids::find_edge(ops.d1.view(), at(i), at(i + 1)), combine({{at(i), 0.5}, {at(i + 1), 0.5}}));
  near(at(4), of(smooth1, at(4)));  // the inside end, a dart: smooth
  // Every point of the boundary (vertex, edge and face points) as without the crease: the
  // boundary's rules read the boundary surface only.
  index_t on_boundary = 0;
  for (index_t v = 0; v < V; ++v)
    if (flags.vertices[v]) near(v, of(smooth1, v)), ++on_boundary;
  for (index_t e = 0; e < E; ++e)
    if (flags.edges[e]) near(V + e, of(smooth1, V + e)), ++on_boundary;
  for (index_t f = 0; f < ops.faces(); ++f)
    if (flags.faces[f]) near(V + E + f, of(smooth1, V + E + f)), ++on_boundary;
  CHECK(on_boundary > 0);
  CHECK(flags.vertices[at(0)] != 0);
  CHECK(worst <= 1e-12);
  // The crease does change the refinement inside (a check that the tags were read).
  CHECK(std::abs(sharp1(at(2), 0) - smooth1(at(2), 0)) + std::abs(sharp1(at(2), 1) - smooth1(at(2), 1)) > 1e-6);
}

TEST_CASE_TEMPLATE("a perturbed grid whose box edges are sharp refines as the tensor product of the "
                   "cubic B-spline with interpolated ends everywhere, boundary included (1e-12, 1 level)",
                   B, SPMESH_TEST_BACKENDS) {
  const int n = 4;
  const CellMesh<> mesh = grid_cells(n);
  linalg::Dense<double> grid(mesh.vertices, 3), P(mesh.vertices, 3);
  std::mt19937 random(21);
  std::uniform_real_distribution<double> jitter(-0.3, 0.3);
  auto coordinate = [&](index_t v, int x) { return int(x == 0 ? v % (n + 1) : x == 1 ? v / (n + 1) % (n + 1) : v / ((n + 1) * (n + 1))); };
  for (index_t v = 0; v < mesh.vertices; ++v)
    for (int x = 0; x < 3; ++x) grid(v, x) = coordinate(v, x), P(v, x) = coordinate(v, x) + jitter(random);
  // The box's edges: both ends with two coordinates on the box's faces.
  linalg::cpu::Executor cpu;
  const auto ops = solids::boundary_operators(cpu, mesh);
  std::vector<std::array<index_t, 2>> rims;
  auto on_rim = [&](index_t v) {
    int extreme = 0;
    for (int x = 0; x < 3; ++x) extreme += coordinate(v, x) == 0 || coordinate(v, x) == n;
    return extreme >= 2;
  };
  for (index_t e = 0; e < ops.edges(); ++e) {
    const index_t a = column_of(ops.d1.columns[2 * e]), b = ops.d1.columns[2 * e + 1];
    int same = 0;  // a rim edge runs along the box: its ends share their two extreme coordinates
    for (int x = 0; x < 3; ++x) same += coordinate(a, x) == coordinate(b, x) && (coordinate(a, x) == 0 || coordinate(a, x) == n);
    if (on_rim(a) && on_rim(b) && same == 2) rims.push_back({a, b});
  }
  CHECK(rims.size() == 12 * n);
  const auto sharpness = solids::tagged_sharpness(ops, rims, {}, "grid");
  auto refine_sharp = [&](const linalg::Dense<double>& X) {
    typename B::Exec exec;
    using S = typename B::Exec::space;
    return B::download(solids::build_and_eval(exec, upload_cells<B>(mesh),
                                              B::upload(X), 1, {},
                                              solids::SolidSharpness<S>{B::upload(sharpness.edges), B::upload(sharpness.vertices)})
                           .positions);
  };
  const auto where = refine_sharp(grid), refined = refine_sharp(P);
  // The 1-D rule with interpolated ends.
  auto rule = [&](int fine) -> std::vector<std::pair<int, double>> {
    const int i = fine / 2;
    if (fine % 2) return {{i, 0.5}, {i + 1, 0.5}};
    if (i == 0 || i == n) return {{i, 1.0}};
    return {{i - 1, 0.125}, {i, 0.75}, {i + 1, 0.125}};
  };
  double worst = 0;
  for (index_t r = 0; r < refined.rows; ++r) {
    int fine[3];
    for (int x = 0; x < 3; ++x) fine[x] = int(std::lround(2 * where(r, x)));
    double expected[3] = {0, 0, 0};
    for (const auto& [i, wi] : rule(fine[0]))
      for (const auto& [j, wj] : rule(fine[1]))
        for (const auto& [k, wk] : rule(fine[2]))
          for (int x = 0; x < 3; ++x) expected[x] += wi * wj * wk * P(i + (n + 1) * (j + (n + 1) * k), x);
    for (int x = 0; x < 3; ++x) worst = std::max(worst, std::abs(refined(r, x) - expected[x]));
  }
  CHECK(refined.rows == (2 * n + 1) * (2 * n + 1) * (2 * n + 1));
  CHECK(worst < 1e-12);
}

// Counts, all hexahedra, the Euler characteristic kept, and every child right-handed: the
// refined mesh's boundary operators accept it (no child inverted against a neighbour) and each
// child's corner 0 frame has a positive volume.
template <class B>
void check_refined_mesh(const CellMesh<>& mesh, const linalg::Dense<double>& X) {
  linalg::cpu::Executor cpu;
  const auto ops = solids::boundary_operators(cpu, mesh);
  const auto level = refine_on<B>(mesh, X);
  const index_t V = ops.vertices(), E = ops.edges(), F = ops.faces(), C = ops.cells();
  CHECK(level.positions.rows == V + E + F + C);
  CHECK(level.cells.vertices == V + E + F + C);
  REQUIRE(level.cells.cells() == mesh.indices.size());
  const auto refined_ops = solids::boundary_operators(cpu, level.cells);
  // E' = 2E + nnz(d2) + nnz(d3) and F' = sum over faces of their corners + sum over cells of
  // their edges: every edge is split, each face gets an edge a side, each cell one a face.
  CHECK(refined_ops.edges() == 2 * E + ops.d2.nnz() + ops.d3.nnz());
  CHECK(V - E + F - C == refined_ops.vertices() - refined_ops.edges() + refined_ops.faces() - refined_ops.cells());
  const auto& P = level.positions;
  index_t inverted = 0;
  for (index_t c = 0; c < level.cells.cells(); ++c) {
    const index_t* h = level.cells.indices.begin() + 8 * c;
    double a[3], b[3], d[3];
    for (int x = 0; x < 3; ++x) a[x] = P(h[1], x) - P(h[0], x), b[x] = P(h[3], x) - P(h[0], x), d[x] = P(h[4], x) - P(h[0], x);
    const double volume = (a[1] * b[2] - a[2] * b[1]) * d[0] + (a[2] * b[0] - a[0] * b[2]) * d[1] + (a[0] * b[1] - a[1] * b[0]) * d[2];
    inverted += volume <= 0;
  }
  CHECK(inverted == 0);
  for (index_t i = 0; i < P.data.size(); ++i) REQUIRE(std::isfinite(P.data[i]));
}

TEST_CASE_TEMPLATE("refined solids: counts, all hexahedra, Euler characteristic kept, no child "
                   "inverted (hexahedra, prisms, tetrahedra)",
                   B, SPMESH_TEST_BACKENDS) {
  const CellMesh<> grid = grid_cells(2);
  linalg::Dense<double> G(grid.vertices, 3);
  for (index_t v = 0; v < grid.vertices; ++v)
    for (int x = 0; x < 3; ++x) G(v, x) = double(x == 0 ? v % 3 : x == 1 ? v / 3 % 3 : v / 9);
  check_refined_mesh<B>(grid, G);
  // The same grid with a vertex in no cell: it stays where it is.
  CellMesh<> loose{grid.vertices + 1, grid.offsets.clone(), grid.indices.clone()};
  linalg::Dense<double> L(grid.vertices + 1, 3);
  std::copy(G.data.begin(), G.data.end(), L.data.begin());
  L(grid.vertices, 0) = 7, L(grid.vertices, 1) = -2, L(grid.vertices, 2) = 0.5;
  check_refined_mesh<B>(loose, L);
  const auto kept = refine_on<B>(loose, L);
  CHECK(kept.positions(grid.vertices, 0) == 7);
  CHECK(kept.positions(grid.vertices, 1) == -2);
  CHECK(kept.positions(grid.vertices, 2) == 0.5);
  // A hexahedron, two prisms beside it and a tetrahedron on one of them.
  const auto [mixed, X] = mixed_cells();
  check_refined_mesh<B>(mixed, X);
}

TEST_CASE_TEMPLATE("solid refinement is the same bits run to run, and the CPU's on every backend "
                   "(cells exactly, positions to 1e-12 in double and 1e-6 in float)",
                   B, SPMESH_TEST_BACKENDS) {
  const CellMesh<> mesh = grid_cells(4);
  linalg::Dense<double> P(mesh.vertices, 3);
  linalg::Dense<float> Pf(mesh.vertices, 3);
  std::mt19937 random(3);
  std::uniform_real_distribution<double> value(-1, 1);
  for (index_t i = 0; i < P.data.size(); ++i) P.data[i] = value(random), Pf.data[i] = float(P.data[i]);
  const auto a = refine_on<B>(mesh, P), b = refine_on<B>(mesh, P), cpu = refine_on<CpuBackend>(mesh, P);
  const auto af = refine_on<B>(mesh, Pf), cpuf = refine_on<CpuBackend>(mesh, Pf);
  CHECK(std::equal(a.positions.data.begin(), a.positions.data.end(), b.positions.data.begin()));
  CHECK(std::equal(a.cells.indices.begin(), a.cells.indices.end(), cpu.cells.indices.begin()));
  CHECK(relative_difference(a.positions, cpu.positions) <= 1e-12);
  CHECK(relative_difference(af.positions, cpuf.positions) <= 1e-6);
}

TEST_CASE_TEMPLATE("build then eval gives build_and_eval's bits, on every backend the CPU's (cells "
                   "exactly, points to 1e-12), and a plan of no level the input",
                   B, SPMESH_TEST_BACKENDS) {
  typename B::Exec exec;
  const CellMesh<> mesh = grid_cells(3);
  linalg::Dense<double> X(mesh.vertices, 2);
  std::mt19937 random(9);
  std::uniform_real_distribution<double> value(-1, 1);
  for (index_t i = 0; i < X.data.size(); ++i) X.data[i] = value(random);
  auto on = [&] { return upload_cells<B>(mesh); };
  for (int levels : {0, 1, 2}) {
    CAPTURE(levels);
    const auto plan = solids::build(exec, on(), levels);
    const auto dynamic = solids::build_and_eval(exec, on(), B::upload(X), levels);
    const auto evaluated = B::download(solids::eval(exec, plan, B::upload(X)));
    const auto positions = B::download(dynamic.positions);
    CHECK(std::equal(evaluated.data.begin(), evaluated.data.end(), positions.data.begin(), positions.data.end()));
    const auto cells = B::download(plan.refined.indices), dynamic_cells = B::download(dynamic.cells.indices);
    CHECK(std::equal(cells.begin(), cells.end(), dynamic_cells.begin(), dynamic_cells.end()));
    linalg::cpu::Executor cpu;
    const auto reference = solids::build_and_eval(cpu, CellMesh<>{mesh.vertices, mesh.offsets.clone(), mesh.indices.clone()},
                                                  X.clone(), levels);
    CHECK(std::equal(cells.begin(), cells.end(), reference.cells.indices.begin(), reference.cells.indices.end()));
    CHECK(relative_difference(positions, reference.positions) <= 1e-12);
    if (levels == 0) CHECK(relative_difference(positions, X) == 0);
  }
}

}  // namespace spmesh::test::solid_refine
