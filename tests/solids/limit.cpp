// The limit of Catmull-Clark solids at (cell, u, v, w) (solids/limit_at.hpp) against independent
// references: in a perturbed grid the tricubic B-spline of the grid's points, written here in
// closed form over the grid's indices (no topology; beyond a boundary face the reflected layer
// 2 P_0 - P_1), with cells given in turned corner orders; a level-1 cell's limit at its corners
// against the base's (spmesh's refinement, its boundary rule included, and the B-spline are one
// function); in layered cells of an extruded surface, the surface's limit (Stam's, checked against
// OpenSubdiv's Bfr in tests/schemes) times the cubic B-spline written here, and the limit of the
// cells three levels down (deep subdivision: spmesh's refinement, the samples in regular cells
// there); W; the refusals. The same source runs on the GPU (cuda/solids.cu).
#include "../backends.hpp"
#include "linalg/cpu/executor.hpp"
#include "schemes/catmull_clark/scheme.hpp"
#include "schemes/schemes.hpp"
#include "solids/classes.hpp"
#include "linalg/spgemm.hpp"
#include "linalg/spmv.hpp"
#include "solids/limit_at.hpp"
#include "solids/limit_on_grids.hpp"
#include "solids/plan.hpp"
#include "solids/refine.hpp"
#include "solids/refinement.hpp"
#include "schemes/catmull_clark/limit_at.hpp"
#include "schemes/tags.hpp"

#include "generated.hpp"

#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <optional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace spmesh::test::solid_limit {

using solids::CellMesh;

constexpr int n = 6;  // grid_cells(n): (n + 1)^3 vertices

// box_cells' grid: its cells along each axis, its vertices' coordinates.
struct Box {
  int n[3];
  index_t vertex(const int (&g)[3]) const { return g[0] + (n[0] + 1) * (g[1] + (n[1] + 1) * g[2]); }
  std::array<int, 3> coordinates(index_t v) const {
    return {int(v % (n[0] + 1)), int(v / (n[0] + 1) % (n[1] + 1)), int(v / ((n[0] + 1) * (n[1] + 1)))};
  }
};
constexpr Box cube{{n, n, n}};

std::array<int, 3> grid_coordinates(index_t vertex) { return cube.coordinates(vertex); }

// The mesh with cell c's corners turned for c % 3 = 1 (a quarter turn about w: corner (a, b, c)
// takes the vertex at (b, 1 - a, c)) and c % 3 = 2 (the axes cycled: at (c, a, b)); both keep
// the corner order right-handed.
CellMesh<> turned(CellMesh<> mesh) {
  for (index_t c = 0; c < mesh.cells(); ++c) {
    if (c % 3 == 0) continue;
    std::array<index_t, 8> old;
    for (int i = 0; i < 8; ++i) old[std::size_t(i)] = mesh.indices[8 * c + i];
    for (int i = 0; i < 8; ++i) {
      const int a = solids::detail::hexahedron_coordinate(i, 0), b = solids::detail::hexahedron_coordinate(i, 1),
                z = solids::detail::hexahedron_coordinate(i, 2);
      const int from = c % 3 == 1 ? solids::detail::hexahedron_corner(b, 1 - a, z)
                                  : solids::detail::hexahedron_corner(z, a, b);
      mesh.indices[8 * c + i] = old[std::size_t(from)];
    }
  }
  return mesh;
}
CellMesh<> turned_grid() { return turned(grid_cells(n)); }

// The uniform cubic B-spline centred at 0 and its slope.
double bspline(double t) {
  t = std::abs(t);
  return t < 1 ? (4 - 6 * t * t + 3 * t * t * t) / 6 : t < 2 ? (2 - t) * (2 - t) * (2 - t) / 6 : 0;
}
double bspline_slope(double t) {
  const double a = std::abs(t), sign = t < 0 ? -1 : 1;
  return sign * (a < 1 ? (-12 * a + 9 * a * a) / 6 : a < 2 ? -(2 - a) * (2 - a) / 2 : 0);
}

// Grid point (i, j, k) of P, column x, and one step beyond a face of the grid (an index -1 or
// n + 1) the reflection 2 P_0 - P_1 across it, along each axis that is beyond in turn (beyond an
// edge or a corner of the grid: the tensor product); 0 farther out (unused: its weight is 0).
double extended(const Box& box, const linalg::Dense<double>& P, const int (&ijk)[3], int x) {
  for (int a = 0; a < 3; ++a) {
    if (ijk[a] >= 0 && ijk[a] <= box.n[a]) continue;
    if (ijk[a] < -1 || ijk[a] > box.n[a] + 1) return 0;
    int face[3] = {ijk[0], ijk[1], ijk[2]}, in[3] = {ijk[0], ijk[1], ijk[2]};
    face[a] = ijk[a] < 0 ? 0 : box.n[a], in[a] = ijk[a] < 0 ? 1 : box.n[a] - 1;
    return 2 * extended(box, P, face, x) - extended(box, P, in, x);
  }
  return P(box.vertex(ijk), x);
}

// The tricubic B-spline of the grid's points P at grid coordinates X: value and gradient, of
// column x.
struct Closed {
  double value = 0, gradient[3] = {0, 0, 0};
};
Closed closed_form(const Box& box, const linalg::Dense<double>& P, const double X[3], int x) {
  Closed out;
  const int base[3] = {int(std::floor(X[0])), int(std::floor(X[1])), int(std::floor(X[2]))};
  for (int k = base[2] - 2; k <= base[2] + 2; ++k)
    for (int j = base[1] - 2; j <= base[1] + 2; ++j)
      for (int i = base[0] - 2; i <= base[0] + 2; ++i) {
        const double p = extended(box, P, {i, j, k}, x);
        const double bi = bspline(X[0] - i), bj = bspline(X[1] - j), bk = bspline(X[2] - k);
        out.value += bi * bj * bk * p;
        out.gradient[0] += bspline_slope(X[0] - i) * bj * bk * p;
        out.gradient[1] += bi * bspline_slope(X[1] - j) * bk * p;
        out.gradient[2] += bi * bj * bspline_slope(X[2] - k) * p;
      }
  return out;
}
Closed closed_form(const linalg::Dense<double>& P, const double X[3], int x) { return closed_form(cube, P, X, x); }

// Whether the B-spline above is the limit at X: X in the grid, at most one coordinate within 1 of
// its faces (a cell at a boundary edge of the grid is neither kind).
bool evaluable(const double X[3]) {
  int near = 0;
  for (int a = 0; a < 3; ++a) {
    if (X[a] < 0 || X[a] > n) return false;
    near += X[a] < 1 || X[a] > n - 1;
  }
  return near <= 1;
}

// The nets of `mesh` (with `sharpness`, host tags, where given) in B's memory.
template <class B>
solids::CellNets<typename B::Exec::space> nets_of(typename B::Exec& exec, const CellMesh<>& mesh,
                                                  const solids::SolidSharpness<>* sharpness) {
  using S = typename B::Exec::space;
  const auto on = upload_cells<B>(mesh);
  const auto ops = solids::boundary_operators(exec, on);
  std::optional<solids::SolidSharpness<S>> sharp;
  if (sharpness) sharp = solids::SolidSharpness<S>{B::upload(sharpness->edges), B::upload(sharpness->vertices)};
  return solids::cell_nets(exec, on, ops, sharp ? &*sharp : nullptr);
}

template <class B, class T>
solids::CellLimits<T> evaluate(const CellMesh<>& mesh, const linalg::Dense<double>& P, const std::vector<index_t>& cells,
                               const std::vector<std::array<double, 3>>& at, index_t* with_nets = nullptr,
                               solids::LimitKernel kernel = solids::LimitKernel::automatic,
                               const solids::SolidSharpness<>* sharpness = nullptr,
                               std::vector<std::uint8_t>* kinds = nullptr) {
  typename B::Exec exec;
  const auto nets = nets_of<B>(exec, mesh, sharpness);
  if (with_nets) *with_nets = nets.cells;
  if (kinds) {
    const auto host = B::download(nets.kinds);
    kinds->assign(host.begin(), host.end());
  }
  linalg::Dense<T> points(P.rows, P.cols);
  for (index_t p = 0; p < P.data.size(); ++p) points.data[p] = T(P.data[p]);
  std::vector<double> us, vs, ws;
  for (const auto& [u, v, w] : at) us.push_back(u), vs.push_back(v), ws.push_back(w);
  const auto limits = solids::limit_at_cells(exec, nets, B::upload(linalg::Array<index_t>(cells)),
                                             B::upload(linalg::Array<double>(us)), B::upload(linalg::Array<double>(vs)),
                                             B::upload(linalg::Array<double>(ws)), B::upload(points), kernel);
  return {B::download(limits.position), B::download(limits.du), B::download(limits.dv), B::download(limits.dw)};
}

// Sample s of `at` in its cell: its grid coordinates (the cell's corner 0 plus u, v, w along its
// edges from there).
std::array<double, 3> in_grid(const Box& box, const CellMesh<>& mesh, index_t c, const std::array<double, 3>& uvw) {
  const auto c0 = box.coordinates(mesh.indices[8 * c]), c1 = box.coordinates(mesh.indices[8 * c + 1]),
             c3 = box.coordinates(mesh.indices[8 * c + 3]), c4 = box.coordinates(mesh.indices[8 * c + 4]);
  std::array<double, 3> X;
  for (std::size_t a = 0; a < 3; ++a)
    X[a] = c0[a] + uvw[0] * (c1[a] - c0[a]) + uvw[1] * (c3[a] - c0[a]) + uvw[2] * (c4[a] - c0[a]);
  return X;
}

// The largest difference of the limits at samples (cells, at) from the closed form, positions
// and derivatives (the closed form's gradient along the cell's u, v, w edges).
template <class T>
double largest_error(const Box& box, const CellMesh<>& mesh, const linalg::Dense<double>& P,
                     const std::vector<index_t>& cells, const std::vector<std::array<double, 3>>& at,
                     const solids::CellLimits<T>& limits) {
  double worst = 0;
  for (std::size_t s = 0; s < cells.size(); ++s) {
    const index_t c = cells[s];
    std::array<double, 3> axis[3];  // the cell's u, v, w directions in grid coordinates
    const auto c0 = box.coordinates(mesh.indices[8 * c]), c1 = box.coordinates(mesh.indices[8 * c + 1]),
               c3 = box.coordinates(mesh.indices[8 * c + 3]), c4 = box.coordinates(mesh.indices[8 * c + 4]);
    for (std::size_t a = 0; a < 3; ++a)
      axis[0][a] = c1[a] - c0[a], axis[1][a] = c3[a] - c0[a], axis[2][a] = c4[a] - c0[a];
    const std::array<double, 3> X = in_grid(box, mesh, c, at[s]);
    for (int x = 0; x < 3; ++x) {
      const Closed expected = closed_form(box, P, X.data(), x);
      const double got[4] = {double(limits.position(index_t(s), x)), double(limits.du(index_t(s), x)),
                             double(limits.dv(index_t(s), x)), double(limits.dw(index_t(s), x))};
      worst = std::max(worst, std::abs(got[0] - expected.value));
      for (int d = 0; d < 3; ++d) {
        double along = 0;
        for (std::size_t a = 0; a < 3; ++a) along += expected.gradient[a] * axis[d][a];
        worst = std::max(worst, std::abs(got[1 + d] - along));
      }
    }
  }
  return worst;
}

// A cell's samples: its corners, centre, a point on an edge and `random` points inside.
template <class Random>
std::vector<std::array<double, 3>> samples_in_cell(Random& random, int count = 4) {
  std::uniform_real_distribution<double> unit(0, 1);
  std::vector<std::array<double, 3>> mine = {{0, 0, 0}, {1, 1, 1}, {1, 0, 0.25}, {0.5, 0.5, 0.5}};
  for (int r = 0; r < count; ++r) mine.push_back({unit(random), unit(random), unit(random)});
  return mine;
}

template <class B, class T>
void check_grid(solids::LimitKernel kernel) {
  CAPTURE(sizeof(T));
  CAPTURE(int(kernel));
  const CellMesh<> mesh = turned_grid();
  const linalg::Dense<double> P = perturbed_grid(n, 5);
  // Samples: each cell's corners, centre and random points, in the cells with a net: all corners
  // inside the grid, or one face on a face of the grid and no boundary edge of the grid.
  std::mt19937 random(3);
  std::vector<index_t> cells;
  std::vector<std::array<double, 3>> at;
  index_t expected_cells = 0;
  for (index_t c = 0; c < mesh.cells(); ++c) {
    bool with_net = true;
    for (int i = 0; i < 8; ++i) {
      const auto g = grid_coordinates(mesh.indices[8 * c + i]);
      const double X[3] = {double(g[0]), double(g[1]), double(g[2])};
      with_net &= evaluable(X);
    }
    if (!with_net) continue;
    ++expected_cells;
    for (const auto& uvw : samples_in_cell(random)) cells.push_back(c), at.push_back(uvw);
  }
  REQUIRE(expected_cells == (n - 2) * (n - 2) * (n - 2) + 6 * (n - 2) * (n - 2));  // inside, at the faces
  index_t with_nets = 0;
  const auto limits = evaluate<B, T>(mesh, P, cells, at, &with_nets, kernel);
  // ... and the cells at the grid's edges (rim nets, below) and at its corners (irregular cells).
  CHECK(with_nets == expected_cells + 12 * (n - 2) + 8);
  const double tolerance = std::is_same_v<T, float> ? 1e-5 : 1e-12;
  CHECK(largest_error(cube, mesh, P, cells, at, limits) <= tolerance * n);
}

// The edges along the box's edges (both ends on the same two of the box's faces), and how many
// faces on the box's boundary cell c of box_cells has.
std::vector<std::array<index_t, 2>> box_rims(const Box& box, const solids::BoundaryOperators<>& ops) {
  std::vector<std::array<index_t, 2>> rims;
  for (index_t e = 0; e < ops.edges(); ++e) {
    const index_t a = linalg::column_of(ops.d1.columns[2 * e]), b = ops.d1.columns[2 * e + 1];
    const auto ga = box.coordinates(a), gb = box.coordinates(b);
    int shared = 0;
    for (std::size_t x = 0; x < 3; ++x) shared += ga[x] == gb[x] && (ga[x] == 0 || ga[x] == box.n[x]);
    if (shared >= 2) rims.push_back({a, b});
  }
  return rims;
}
int boundary_faces(const Box& box, const CellMesh<>& mesh, index_t c) {
  int low[3] = {1 << 20, 1 << 20, 1 << 20}, high[3] = {-1, -1, -1};
  for (int i = 0; i < 8; ++i) {
    const auto g = box.coordinates(mesh.indices[8 * c + i]);
    for (std::size_t a = 0; a < 3; ++a) low[a] = std::min(low[a], g[a]), high[a] = std::max(high[a], g[a]);
  }
  int faces = 0;
  for (std::size_t a = 0; a < 3; ++a) faces += (low[a] == 0) + (high[a] == box.n[a]);
  return faces;
}

// A box whose edges are infinitely sharp refines as the tricubic B-spline with interpolated ends
// across every face (tests/solids/refine.cpp), so every cell's limit is the B-spline of its net
// with the layer beyond each of its boundary faces reflected: at the rims, at the corners, and
// across a slab one cell thick (1 x 1 x 1: the trilinear map of the corners).
template <class B, class T>
void check_sharp_box(const Box& box, unsigned seed, solids::LimitKernel kernel) {
  CAPTURE(sizeof(T));
  CAPTURE(int(kernel));
  const std::string size = std::to_string(box.n[0]) + " x " + std::to_string(box.n[1]) + " x " + std::to_string(box.n[2]);
  CAPTURE(size);
  const CellMesh<> mesh = turned(box_cells(box.n[0], box.n[1], box.n[2]));
  const linalg::Dense<double> P = perturbed_box(box.n[0], box.n[1], box.n[2], seed);
  linalg::cpu::Executor cpu;
  const auto ops = solids::boundary_operators(cpu, mesh);
  const auto sharpness = solids::tagged_sharpness(ops, box_rims(box, ops), {}, "box");
  std::mt19937 random(seed);
  std::vector<index_t> cells;
  std::vector<std::array<double, 3>> at;
  index_t folded = 0;  // cells with two faces on the boundary or more
  for (index_t c = 0; c < mesh.cells(); ++c) {
    folded += boundary_faces(box, mesh, c) >= 2;
    for (const auto& uvw : samples_in_cell(random, 6)) cells.push_back(c), at.push_back(uvw);
  }
  index_t with_nets = 0;
  std::vector<std::uint8_t> kinds;
  const auto limits = evaluate<B, T>(mesh, P, cells, at, &with_nets, kernel, &sharpness, &kinds);
  CHECK(with_nets == mesh.cells());
  CHECK(std::count_if(kinds.begin(), kinds.end(), solids::is_folded_net) == folded);
  CHECK(std::all_of(kinds.begin(), kinds.end(), solids::is_tricubic_net));
  const double tolerance = std::is_same_v<T, float> ? 1e-5 : 1e-12;
  CHECK(largest_error(box, mesh, P, cells, at, limits) <= tolerance * 8);
}

TEST_CASE_TEMPLATE("Catmull-Clark solids' limit in cells of grid stars is the tricubic B-spline of the grid, "
                   "positions and derivatives, in turned corner orders",
                   B, SPMESH_TEST_BACKENDS) {
  for (const auto kernel : {solids::LimitKernel::per_sample, solids::LimitKernel::gathered_nets,
                            solids::LimitKernel::gathered_pairs}) {
    check_grid<B, double>(kernel);
    check_grid<B, float>(kernel);
  }
}

TEST_CASE_TEMPLATE("Catmull-Clark solids' limit at a box's sharp rims and corners, and across a slab one cell "
                   "thick, is the tricubic B-spline with the layers beyond the box reflected",
                   B, SPMESH_TEST_BACKENDS) {
  for (const auto kernel : {solids::LimitKernel::per_sample, solids::LimitKernel::gathered_nets,
                            solids::LimitKernel::gathered_pairs})
    for (const Box& box : {Box{{4, 3, 5}}, Box{{4, 3, 1}}, Box{{1, 1, 1}}}) {
      check_sharp_box<B, double>(box, 7, kernel);
      check_sharp_box<B, float>(box, 7, kernel);
    }
}

TEST_CASE_TEMPLATE("Catmull-Clark solids' limit has rim nets at a box's smooth rims, irregular nets at its smooth "
                   "corners, no net at its semi-sharp rims or a rim vertex tagged a corner",
                   B, SPMESH_TEST_BACKENDS) {
  const Box box{{3, 3, 3}};
  const CellMesh<> mesh = box_cells(3, 3, 3);
  const linalg::Dense<double> P = perturbed_box(3, 3, 3, 2);
  linalg::cpu::Executor cpu;
  const auto ops = solids::boundary_operators(cpu, mesh);
  const auto rims = box_rims(box, ops);
  REQUIRE(rims.size() == 12 * 3);
  auto nets_with = [&](const solids::SolidSharpness<>* sharpness) {
    index_t with_nets = 0;
    evaluate<B, double>(mesh, P, {13}, {{0.5, 0.5, 0.5}}, &with_nets, solids::LimitKernel::automatic, sharpness);
    return with_nets;
  };
  // 27 cells: the middle one and the 6 at the box's faces have nets whatever the rims are; where
  // the rims are smooth, the 12 at the rims too (rim nets) and the 8 at the box's corners
  // (irregular nets, irregular_cells.hpp: not tried where the mesh has sharp features).
  CHECK(nets_with(nullptr) == 27);
  const auto semi = solids::tagged_sharpness(ops, rims, {}, "box", std::vector<float>(rims.size(), 2.0f));
  CHECK(nets_with(&semi) == 7);
  const auto sharp = solids::tagged_sharpness(ops, rims, {}, "box");
  CHECK(nets_with(&sharp) == 27);
  // A rim vertex (0, 0, 1) tagged a corner: the two cells at it.
  const auto cornered = solids::tagged_sharpness(ops, rims, {box.vertex({0, 0, 1})}, "box");
  CHECK(nets_with(&cornered) == 25);
}

// The kernels of limit_at_cells, and the choice between them, give the same bits, in blocks of
// 3 columns and of 4 (5 columns: a block of 4 and one of 1); samples at random, 3 a cell, so
// that pairs of samples fall in one cell and across two.
template <class B, class T>
void check_kernels_agree(index_t columns) {
  CAPTURE(sizeof(T));
  CAPTURE(columns);
  const CellMesh<> mesh = turned_grid();
  const linalg::Dense<double> xyz = perturbed_grid(n, 11);
  linalg::Dense<double> P(xyz.rows, columns);
  for (index_t v = 0; v < P.rows; ++v)
    for (index_t x = 0; x < columns; ++x) P(v, x) = xyz(v, x % 3) * (1 + x / 3) + 0.25 * x;
  std::mt19937 random(17);
  std::uniform_real_distribution<double> unit(0, 1);
  std::vector<index_t> cells;
  std::vector<std::array<double, 3>> at;
  for (index_t c = 0; c < mesh.cells(); ++c) {
    bool with_net = true;  // (the cells check_grid samples)
    for (int i = 0; i < 8; ++i) {
      const auto g = grid_coordinates(mesh.indices[8 * c + i]);
      const double X[3] = {double(g[0]), double(g[1]), double(g[2])};
      with_net &= evaluable(X);
    }
    for (int r = 0; r < 3 && with_net; ++r) cells.push_back(c), at.push_back({unit(random), unit(random), unit(random)});
  }
  const auto by_sample = evaluate<B, T>(mesh, P, cells, at, nullptr, solids::LimitKernel::per_sample);
  const auto gathered = evaluate<B, T>(mesh, P, cells, at, nullptr, solids::LimitKernel::gathered_nets);
  const auto pairs = evaluate<B, T>(mesh, P, cells, at, nullptr, solids::LimitKernel::gathered_pairs);
  const auto chosen = evaluate<B, T>(mesh, P, cells, at);  // (2.2 samples a cell of the mesh)
  index_t differing = 0;
  for (const auto* other : {&gathered, &pairs, &chosen}) {
    const linalg::Dense<T>* a[4] = {&by_sample.position, &by_sample.du, &by_sample.dv, &by_sample.dw};
    const linalg::Dense<T>* b[4] = {&other->position, &other->du, &other->dv, &other->dw};
    for (int m = 0; m < 4; ++m) {
      REQUIRE(b[m]->data.size() == index_t(cells.size()) * columns);
      for (index_t i = 0; i < a[m]->data.size(); ++i) differing += a[m]->data[i] != b[m]->data[i];
    }
  }
  CHECK(differing == 0);
}

TEST_CASE_TEMPLATE("Catmull-Clark solids' limit: the per-sample and the gathered-nets kernels give the same bits",
                   B, SPMESH_TEST_BACKENDS) {
  for (const index_t columns : {3, 5}) {
    check_kernels_agree<B, double>(columns);
    check_kernels_agree<B, float>(columns);
  }
}

TEST_CASE_TEMPLATE("Catmull-Clark solids' limit at a refined cell's corners is the base cell's at the same "
                   "point: the refinement and the evaluation are one function",
                   B, SPMESH_TEST_BACKENDS) {
  const CellMesh<> mesh = turned_grid();
  const linalg::Dense<double> P = perturbed_grid(n, 9);
  linalg::Dense<double> grid(mesh.vertices, 3);
  for (index_t v = 0; v < mesh.vertices; ++v)
    for (int a = 0; a < 3; ++a) grid(v, a) = grid_coordinates(v)[std::size_t(a)];
  // Level 1: the perturbed points refined, and the grid coordinates refined (each fine vertex's
  // place on the base grid).
  typename B::Exec exec;
  const auto on = upload_cells<B>(mesh);
  const auto ops = solids::boundary_operators(exec, on);
  const auto fine = solids::refine(exec, on, ops, B::upload(P));
  const auto place = solids::refine(exec, on, ops, B::upload(grid));
  const CellMesh<> level1{fine.cells.vertices, B::download(fine.cells.offsets), B::download(fine.cells.indices)};
  const linalg::Dense<double> P1 = B::download(fine.positions), X1 = B::download(place.positions);
  // Every level-1 cell whose corners lie where the base's B-spline is the limit, at its corners.
  std::vector<index_t> cells;
  std::vector<std::array<double, 3>> at;
  std::vector<index_t> vertex;
  for (index_t c = 0; c < level1.cells(); ++c) {
    bool whole = true;
    for (int i = 0; i < 8; ++i) {
      const index_t v = level1.indices[8 * c + i];
      const double X[3] = {X1(v, 0), X1(v, 1), X1(v, 2)};
      whole &= evaluable(X);
    }
    if (!whole) continue;
    for (int i = 0; i < 8; ++i) {
      cells.push_back(c), vertex.push_back(level1.indices[8 * c + i]);
      at.push_back({double(solids::detail::hexahedron_coordinate(i, 0)),
                    double(solids::detail::hexahedron_coordinate(i, 1)),
                    double(solids::detail::hexahedron_coordinate(i, 2))});
    }
  }
  const std::size_t inner = 2 * (n - 2);  // level-1 cells along an inner base cell
  REQUIRE(cells.size() == 8 * (inner * inner * inner + 6 * 2 * inner * inner));
  const auto limits = evaluate<B, double>(level1, P1, cells, at);
  double worst = 0;
  for (std::size_t s = 0; s < cells.size(); ++s) {
    const double X[3] = {X1(vertex[s], 0), X1(vertex[s], 1), X1(vertex[s], 2)};
    for (int x = 0; x < 3; ++x)
      worst = std::max(worst, std::abs(limits.position(index_t(s), x) - closed_form(P, X, x).value));
  }
  CHECK(worst <= 1e-12 * n);
}

// The largest difference of two host matrices of the same shape, over the largest entry of b.
template <class T>
double relative_to(const linalg::Dense<T>& a, const linalg::Dense<T>& b) {
  double worst = 0, size = 0;
  for (index_t i = 0; i < a.data.size(); ++i)
    worst = std::max(worst, std::abs(double(a.data[i]) - double(b.data[i]))), size = std::max(size, std::abs(double(b.data[i])));
  return worst / size;
}

TEST_CASE_TEMPLATE("Catmull-Clark solids' limit as matrices: W P is limit_at_cells', and W R evaluates a refined "
                   "level's cells from the base's points",
                   B, SPMESH_TEST_BACKENDS) {
  const CellMesh<> mesh = turned_grid();
  const linalg::Dense<double> P = perturbed_grid(n, 13);
  typename B::Exec exec;
  const auto plan = solids::build(exec, upload_cells<B>(mesh), 1);
  const auto R = solids::refinement_matrix<double>(exec, plan);
  const auto P0 = B::upload(P);
  const auto P1 = linalg::spmm(exec, R, P0);
  const auto ops = solids::boundary_operators(exec, plan.refined);
  const auto nets = solids::cell_nets(exec, plan.refined, ops);
  // Two random samples in every level-1 cell that has a net.
  const auto kinds = B::download(nets.kinds);
  const auto net_offsets = B::download(nets.offsets);
  std::mt19937 random(7);
  std::uniform_real_distribution<double> unit(0, 1);
  std::vector<index_t> cells;
  std::vector<double> us, vs, ws;
  for (index_t c = 0; c < plan.refined.cells(); ++c)
    for (int r = 0; r < 2 && kinds[c] != solids::no_net; ++r)
      cells.push_back(c), us.push_back(unit(random)), vs.push_back(unit(random)), ws.push_back(unit(random));
  REQUIRE(nets.cells == 12 * 12 * 12);  // every cell of level 1, its corners' irregular
  const auto on_cells = B::upload(linalg::Array<index_t>(cells));
  const auto u = B::upload(linalg::Array<double>(us)), v = B::upload(linalg::Array<double>(vs)),
             w = B::upload(linalg::Array<double>(ws));
  const auto direct = solids::limit_at_cells(exec, nets, on_cells, u, v, w, P1);
  const auto W = solids::limit_matrices_at_cells<double>(exec, nets, on_cells, u, v, w, plan.refined.vertices);
  const auto host_W = B::download(W.position);
  REQUIRE(host_W.rows == index_t(cells.size()));
  bool ascending = true;
  index_t boundary_rows = 0;
  for (index_t s = 0; s < host_W.rows; ++s) {
    const index_t length = host_W.offsets[s + 1] - host_W.offsets[s];
    const std::uint8_t kind = kinds[cells[std::size_t(s)]];
    const index_t net = net_offsets[cells[std::size_t(s)] + 1] - net_offsets[cells[std::size_t(s)]];
    ascending &= length == (solids::is_rim_net(kind)         ? solids::rim_net_entries
                            : solids::is_irregular_net(kind) ? net  // the ring
                                                             : solids::tricubic_net_entries(kind));
    boundary_rows += length == 48;
    for (index_t p = host_W.offsets[s] + 1; p < host_W.offsets[s + 1]; ++p) ascending &= host_W.indices[p - 1] < host_W.indices[p];
  }
  CHECK(ascending);
  CHECK(boundary_rows == 2 * 6 * 10 * 10);
  const std::pair<const linalg::Csr<double, typename B::Exec::space>*, const linalg::Dense<double, typename B::Exec::space>*>
      parts[4] = {{&W.position, &direct.position}, {&W.du, &direct.du}, {&W.dv, &direct.dv}, {&W.dw, &direct.dw}};
  for (const auto& [matrix, expected] : parts) {
    CHECK(relative_to(B::download(linalg::spmm(exec, *matrix, P1)), B::download(*expected)) <= 1e-13);
    // Composed with R: the samples as a matrix of the base's points.
    const auto WR = linalg::spgemm(exec, *matrix, R);
    CHECK(WR.cols == mesh.vertices);
    CHECK(relative_to(B::download(linalg::spmm(exec, WR, P0)), B::download(*expected)) <= 1e-13);
  }
}

TEST_CASE_TEMPLATE("Catmull-Clark solids' limit refuses, naming the sample, a cell without a grid-star net, a "
                   "cell out of range and (u, v, w) outside the cell",
                   B, SPMESH_TEST_BACKENDS) {
  // A mesh of a hexahedron, prisms and a tetrahedron: no cell has a net.
  const auto [mixed, positions] = mixed_cells();
  index_t with_nets = -1;
  std::string message = "no error";
  try {
    evaluate<B, double>(mixed, positions, {0}, {{0.5, 0.5, 0.5}}, &with_nets);
  } catch (const schemes::SampleError& e) {
    message = e.what();
  }
  CHECK(message.find("sample 0 (cell 0, u 0.500000") != std::string::npos);
  CHECK(with_nets == 0);
  // In the grid with semi-sharp rims, cell 0 (a corner cell) has no net; the sample before it is
  // evaluated.
  const CellMesh<> grid = turned_grid();
  const linalg::Dense<double> P = perturbed_grid(n, 1);
  linalg::cpu::Executor cpu;
  const auto grid_ops = solids::boundary_operators(cpu, grid);
  const auto rims = box_rims(cube, grid_ops);
  const auto semi = solids::tagged_sharpness(grid_ops, rims, {}, "grid", std::vector<float>(rims.size(), 2.0f));
  const index_t middle = 1 + n * (1 + n * 1);  // cell (1, 1, 1): its net lies in the grid
  auto in_grid = [&](index_t cell, std::array<double, 3> uvw) {
    try {
      evaluate<B, double>(grid, P, {middle, cell}, {{0.5, 0.5, 0.5}, uvw}, nullptr, solids::LimitKernel::automatic,
                          &semi);
    } catch (const schemes::SampleError& e) {
      CHECK(e.sample == 1);
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(in_grid(0, {0.5, 0.5, 0.5}) ==
        "limit_at_cells: sample 1 (cell 0, u 0.500000, v 0.500000, w 0.500000): the cell is not a hexahedron "
        "whose corners all have the grid's star (6 edges, each in 4 quads, 8 hexahedra round it), nor one with "
        "faces on the boundary and the boundary grid's star at its corners there (5 edges, 4 of them on the "
        "boundary) or, where two or three of its faces meet, infinitely sharp edges of two faces (sharp rims "
        "and corners) or a smooth rim (its two faces' edge, of two faces, and that edge's ends with 4 edges), "
        "nor one inside with one extraordinary edge, both of whose ends are on one extraordinary "
        "edge line, and the grid's star at its other corners, nor one with one extraordinary corner whose "
        "neighbourhood is its child's there (irregular: refining once usually makes it so); spmesh evaluates "
        "the limit only in such cells so far");
  CHECK(in_grid(n * n * n, {0.5, 0.5, 0.5}).find("the mesh has cells 0 to 215") != std::string::npos);
  CHECK(in_grid(middle, {0.5, 1.5, 0.5}).find("(u, v, w) is outside the cell") != std::string::npos);
  CHECK(in_grid(middle, {std::nan(""), 0.5, 0.5}).find("outside the cell ([0, 1]^3) or not finite") !=
        std::string::npos);
  CHECK(in_grid(middle, {0.5, 0.5, 1.0}) == "no error");
}

// A shell of 5 layers of cells round the refined bipyramid of poles of valence n (refined once:
// its extraordinary vertices, of valence n and 3, are apart), random data: each cell in the
// middle three layers is layered (one extraordinary edge, the line through it inside), those in
// the outer two reach the boundary with theirs.
struct LayeredShell {
  Surface surface;
  CellMesh<> mesh;
  linalg::Dense<double> P;
  static constexpr index_t layers = 5;
};
LayeredShell layered_shell(int valence, unsigned seed) {
  LayeredShell shell{refined_bipyramid(valence), {}, {}};
  shell.mesh = extrude(shell.surface.M, LayeredShell::layers);
  shell.P = linalg::Dense<double>(shell.mesh.vertices, 3);
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> value(-1, 1);
  for (double& x : shell.P.data) x = value(random);
  return shell;
}

// Samples in every layered cell (by its net's kind): its corners, centre, random points, and
// points near and on its extraordinary edge.
void layered_samples(const std::vector<std::uint8_t>& kinds, std::vector<index_t>& cells,
                     std::vector<std::array<double, 3>>& at, bool (*of_kind)(std::uint8_t) = solids::is_layered_net) {
  std::mt19937 random(11);
  std::uniform_real_distribution<double> unit(0, 1);
  for (index_t c = 0; c < index_t(kinds.size()); ++c) {
    if (!of_kind(kinds[std::size_t(c)])) continue;
    const solids::LayeredFrame frame(kinds[std::size_t(c)]);
    std::vector<std::array<double, 3>> mine = {{0, 0, 0}, {1, 1, 1}, {1, 0, 0.25}, {0.5, 0.5, 0.5}};
    for (int r = 0; r < 3; ++r) mine.push_back({unit(random), unit(random), unit(random)});
    for (const auto& [s, t] : {std::pair{0.0, 0.0}, {1e-3, 0.0}, {2e-4, 7e-4}, {0.3, 1e-6}}) {
      std::array<double, 3> x;
      x[std::size_t(frame.s_axis)] = frame.s_side ? 1 - s : s, x[std::size_t(frame.t_axis)] = frame.t_side ? 1 - t : t;
      x[std::size_t(frame.line)] = unit(random);
      mine.push_back(x);
    }
    for (const auto& x : mine) cells.push_back(c), at.push_back(x);
  }
}

// limit_on_grids against limit_at_cells at the same samples: the grids of K parameters `t` in
// every cell with a net (`sharpness`: the mesh's tags, or none). The largest difference over the
// four outputs; the cells evaluated.
template <class B, class T>
double grids_against_samples(const CellMesh<>& mesh, const linalg::Dense<double>& P, const std::vector<double>& t,
                             const solids::SolidSharpness<>* sharpness, index_t& evaluated) {
  typename B::Exec exec;
  using S = typename B::Exec::space;
  const auto nets = nets_of<B>(exec, mesh, sharpness);
  const auto kinds = B::download(nets.kinds);
  std::vector<index_t> cells;
  for (index_t c = mesh.cells() - 1; c >= 0; --c)  // (descending: the grids follow the list, not the ids)
    if (kinds[c] != solids::no_net) cells.push_back(c);
  evaluated = index_t(cells.size());
  const index_t K = index_t(t.size());
  std::vector<index_t> sample_cells;
  std::vector<double> us, vs, ws;
  for (index_t c : cells)
    for (index_t l = 0; l < K; ++l)
      for (index_t j = 0; j < K; ++j)
        for (index_t i = 0; i < K; ++i)
          sample_cells.push_back(c), us.push_back(t[std::size_t(i)]), vs.push_back(t[std::size_t(j)]),
              ws.push_back(t[std::size_t(l)]);
  linalg::Dense<T> points(P.rows, P.cols);
  for (index_t p = 0; p < P.data.size(); ++p) points.data[p] = T(P.data[p]);
  const auto on_points = B::upload(points);
  const auto grids = solids::limit_on_grids(exec, nets, B::upload(linalg::Array<index_t>(cells)),
                                            B::upload(linalg::Array<double>(t)), on_points);
  const auto samples = solids::limit_at_cells(exec, nets, B::upload(linalg::Array<index_t>(sample_cells)),
                                              B::upload(linalg::Array<double>(us)), B::upload(linalg::Array<double>(vs)),
                                              B::upload(linalg::Array<double>(ws)), on_points);
  double worst = 0;
  const linalg::Dense<T, S>* a[4] = {&grids.position, &grids.du, &grids.dv, &grids.dw};
  const linalg::Dense<T, S>* b[4] = {&samples.position, &samples.du, &samples.dv, &samples.dw};
  for (int m = 0; m < 4; ++m) {
    const auto x = B::download(*a[m]), y = B::download(*b[m]);
    REQUIRE(x.rows == index_t(sample_cells.size()));
    REQUIRE(y.rows == x.rows);
    for (index_t i = 0; i < x.data.size(); ++i) worst = std::max(worst, std::abs(double(x.data[i]) - double(y.data[i])));
  }
  return worst;
}

TEST_CASE_TEMPLATE("Catmull-Clark solids' limit on grids of samples equals the limit at the same samples: tricubic "
                   "cells inside, at faces, sharp rims and corners, and layered cells among them",
                   B, SPMESH_TEST_BACKENDS) {
  const std::vector<std::vector<double>> grids = {{0.5}, {0.0, 0.3, 1.0}, {0.125, 0.375, 0.625, 0.875}};
  for (const auto& t : grids) {
    CAPTURE(t.size());
    index_t evaluated = 0;
    const linalg::Dense<double> P = perturbed_grid(n, 5);
    CHECK(grids_against_samples<B, double>(turned_grid(), P, t, nullptr, evaluated) <= 1e-12);
    CHECK(evaluated == n * n * n);
    CHECK(grids_against_samples<B, float>(turned_grid(), P, t, nullptr, evaluated) <= 2e-5);

    const Box box{{4, 3, 2}};
    const CellMesh<> mesh = turned(box_cells(4, 3, 2));
    linalg::cpu::Executor cpu;
    const auto ops = solids::boundary_operators(cpu, mesh);
    const auto sharp = solids::tagged_sharpness(ops, box_rims(box, ops), {}, "box");
    const linalg::Dense<double> Q = perturbed_box(4, 3, 2, 3);
    CHECK(grids_against_samples<B, double>(mesh, Q, t, &sharp, evaluated) <= 1e-12);
    CHECK(evaluated == 24);
    CHECK(grids_against_samples<B, float>(mesh, Q, t, &sharp, evaluated) <= 2e-5);

    // The layered shell (its cells with nets all layered), and refined once: each layered cell's
    // children are one layered and seven tricubic cells, in the list among each other.
    const LayeredShell shell = layered_shell(5, 4);
    CHECK(grids_against_samples<B, double>(shell.mesh, shell.P, t, nullptr, evaluated) <= 1e-12);
    // The middle three layers layered, the inner and outer ones irregular where their
    // extraordinary edges reach the boundary.
    CHECK(evaluated == 5 * shell.surface.M.faces);
    const auto level = solids::refine(cpu, shell.mesh, solids::boundary_operators(cpu, shell.mesh), shell.P);
    CHECK(grids_against_samples<B, double>(level.cells, level.positions, t, nullptr, evaluated) <= 1e-12);
    CHECK(evaluated > 0);
    CHECK(grids_against_samples<B, float>(level.cells, level.positions, t, nullptr, evaluated) <= 2e-5);
  }
}

// More than four columns are summed a block of four at a time (five: blocks of four and one),
// here with 12 samples an axis in a grid of 5^3 cells.
TEST_CASE_TEMPLATE("Catmull-Clark solids' limit on grids equals the limit at the same samples with five columns and "
                   "12 samples an axis",
                   B, SPMESH_TEST_BACKENDS) {
  std::vector<double> t;
  for (int i = 0; i < 12; ++i) t.push_back(0.08 * i + 0.03 * (i % 3));
  constexpr int side = 5;
  const CellMesh<> mesh = turned(grid_cells(side));
  const linalg::Dense<double> P = perturbed_grid(side, 7);
  linalg::Dense<double> wide(P.rows, 5);
  for (index_t v = 0; v < P.rows; ++v) {
    for (index_t x = 0; x < 3; ++x) wide(v, x) = P(v, x);
    wide(v, 3) = P(v, 0) * P(v, 1), wide(v, 4) = P(v, 2) - 0.5 * P(v, 0);
  }
  const linalg::Dense<double>* three_and_five[] = {&P, &wide};
  for (const linalg::Dense<double>* columns : three_and_five) {
    const linalg::Dense<double>& points = *columns;
    CAPTURE(points.cols);
    index_t evaluated = 0;
    CHECK(grids_against_samples<B, double>(mesh, points, t, nullptr, evaluated) <= 1e-12);
    CHECK(evaluated == side * side * side);
    CHECK(grids_against_samples<B, float>(mesh, points, t, nullptr, evaluated) <= 2e-5);
  }
}

TEST_CASE_TEMPLATE("Catmull-Clark solids' limit on grids refuses, naming it, a cell without a net or out of range, "
                   "and a parameter outside [0, 1]",
                   B, SPMESH_TEST_BACKENDS) {
  typename B::Exec exec;
  const CellMesh<> mesh = grid_cells(n);
  const auto on = upload_cells<B>(mesh);
  // Semi-sharp rims: the cells at them without a net, cell 0 among them.
  linalg::cpu::Executor cpu;
  const auto ops = solids::boundary_operators(cpu, mesh);
  const auto rims = box_rims(cube, ops);
  const auto semi = solids::tagged_sharpness(ops, rims, {}, "grid", std::vector<float>(rims.size(), 2.0f));
  const auto nets = nets_of<B>(exec, mesh, &semi);
  const auto P = B::upload(perturbed_grid(n, 1));
  const index_t middle = 1 + n * (1 + n * 1);
  auto refusal = [&](std::vector<index_t> cells, std::vector<double> t) {
    try {
      solids::limit_on_grids(exec, nets, B::upload(linalg::Array<index_t>(cells)), B::upload(linalg::Array<double>(t)), P);
    } catch (const schemes::SampleError& e) {
      return std::string(e.what()) + " @" + std::to_string(e.sample);
    }
    return std::string("no error");
  };
  CHECK(refusal({middle, 0}, {0.5, 1.0}) ==
        "limit_on_grids: cell 1 of the grids (0) has no net (limit_at_cells says which cells have one) @8");
  CHECK(refusal({middle, n * n * n}, {0.5}) ==
        "limit_on_grids: cell 1 of the grids (216) is not one of the mesh's cells 0 to 215 @1");
  CHECK(refusal({middle}, {0.5, 1.5}) == "limit_on_grids: parameter 1 is 1.500000, not in [0, 1] @1");
  CHECK(refusal({middle}, {0.0, 1.0}) == "no error");
}

TEST_CASE_TEMPLATE("Catmull-Clark solids' limit in layered cells is the surface's limit (Stam's at valence 3, 5 "
                   "and 6) times the cubic B-spline across the layers, positions and derivatives, and W",
                   B, SPMESH_TEST_BACKENDS) {
  for (int valence : {3, 5, 6}) {
    CAPTURE(valence);
    const LayeredShell shell = layered_shell(valence, unsigned(20 + valence));
    const index_t S = shell.surface.M.vertices, F = shell.surface.M.faces, layers = LayeredShell::layers;
    typename B::Exec exec;
    const auto on = upload_cells<B>(shell.mesh);
    const auto nets = solids::cell_nets(exec, on, solids::boundary_operators(exec, on));
    const auto kinds = B::download(nets.kinds);
    const auto offsets = B::download(nets.offsets);
    CHECK(nets.cells == 5 * F);  // the inner and outer layers' irregular (irregular.cpp)
    CHECK(std::count_if(kinds.begin(), kinds.end(), solids::is_layered_net) == 3 * F);
    std::vector<index_t> cells;
    std::vector<std::array<double, 3>> at;
    layered_samples(std::vector<std::uint8_t>(kinds.begin(), kinds.end()), cells, at);
    // The reference: the surface's limit of each layer's points at the cell's face (extrude keeps
    // the face's corners as the cell's first four: (u, v) is the face's), times the B-spline.
    std::vector<index_t> faces;
    std::vector<double> us, vs, ws;
    for (std::size_t s = 0; s < cells.size(); ++s)
      faces.push_back(cells[s] % F), us.push_back(at[s][0]), vs.push_back(at[s][1]), ws.push_back(at[s][2]);
    linalg::Dense<double> by_layer(S, 3 * (layers + 1));
    for (index_t l = 0; l <= layers; ++l)
      for (index_t v = 0; v < S; ++v)
        for (int x = 0; x < 3; ++x) by_layer(v, 3 * l + x) = shell.P(v + S * l, x);
    linalg::cpu::Executor cpu;
    const auto surface = schemes::catmull_clark::limit_at_samples(
        cpu, shell.surface.M.clone(), schemes::smooth_sharpness(S), linalg::Array<index_t>(faces),
        linalg::Array<double>(us), linalg::Array<double>(vs), by_layer, 2);
    for (const bool single : {false, true}) {
      CAPTURE(single);
      const auto limits = single ? [&] {
        const auto f = evaluate<B, float>(shell.mesh, shell.P, cells, at);
        auto widen = [](const linalg::Dense<float>& a) {
          linalg::Dense<double> out(a.rows, a.cols);
          for (index_t i = 0; i < a.data.size(); ++i) out.data[i] = a.data[i];
          return out;
        };
        return solids::CellLimits<double>{widen(f.position), widen(f.du), widen(f.dv), widen(f.dw)};
      }() : evaluate<B, double>(shell.mesh, shell.P, cells, at);
      double worst = 0;
      for (std::size_t s = 0; s < cells.size(); ++s) {
        const index_t layer = cells[s] / F, row = index_t(s);
        for (int x = 0; x < 3; ++x) {
          double expected[4] = {0, 0, 0, 0};
          for (index_t i = 0; i < 4; ++i) {
            const double z = at[s][2] + 1 - double(i), b = bspline(z);
            const index_t column = 3 * (layer - 1 + i) + x;
            expected[0] += b * surface.position(row, column), expected[1] += b * surface.du(row, column);
            expected[2] += b * surface.dv(row, column), expected[3] += bspline_slope(z) * surface.position(row, column);
          }
          const double got[4] = {limits.position(row, x), limits.du(row, x), limits.dv(row, x), limits.dw(row, x)};
          for (int d = 0; d < 4; ++d) worst = std::max(worst, std::abs(got[d] - expected[d]));
        }
      }
      CHECK(worst <= (single ? 2e-5 : 1e-12));
    }
    // W: rows of the nets' 4 (2n + 8) points, ascending; W P is the direct evaluation.
    const auto on_cells = B::upload(linalg::Array<index_t>(cells));
    std::vector<double> u_at, v_at, w_at;
    for (const auto& [u, v, w] : at) u_at.push_back(u), v_at.push_back(v), w_at.push_back(w);
    const auto u = B::upload(linalg::Array<double>(u_at)), v = B::upload(linalg::Array<double>(v_at)),
               w = B::upload(linalg::Array<double>(w_at));
    const auto P = B::upload(shell.P);
    const auto direct = solids::limit_at_cells(exec, nets, on_cells, u, v, w, P);
    const auto W = solids::limit_matrices_at_cells<double>(exec, nets, on_cells, u, v, w, shell.mesh.vertices);
    const auto host_W = B::download(W.position);
    bool rows_right = true;
    for (index_t s = 0; s < host_W.rows; ++s) {
      const index_t c = cells[std::size_t(s)];
      rows_right &= host_W.offsets[s + 1] - host_W.offsets[s] == offsets[c + 1] - offsets[c];
      for (index_t p = host_W.offsets[s] + 1; p < host_W.offsets[s + 1]; ++p) rows_right &= host_W.indices[p - 1] < host_W.indices[p];
    }
    CHECK(rows_right);
    CHECK(relative_to(B::download(linalg::spmm(exec, W.position, P)), B::download(direct.position)) <= 1e-13);
    CHECK(relative_to(B::download(linalg::spmm(exec, W.dw, P)), B::download(direct.dw)) <= 1e-13);
  }
}

// Where sample (c, at) of level `mesh` (its operators `ops`) lies in the next level `fine`: its child
// cell (the one at the cell's corner nearest the sample), its parameters there, and the child's
// u, v and w directions in the cell's (u, v, w) (each half a parent axis, signed).
struct InChild {
  index_t cell;
  std::array<double, 3> at;
  double axes[3][3];
};
InChild in_child(const CellMesh<>& mesh, const solids::BoundaryOperators<>& ops, const CellMesh<>& fine, index_t c,
                 const std::array<double, 3>& at) {
  using linalg::column_of;
  const index_t V = ops.vertices(), E = ops.edges(), F = ops.faces();
  auto corner_place = [&](index_t vertex, double (&x)[3]) {
    for (int k = 0; k < 8; ++k)
      if (mesh.indices[8 * c + k] == vertex)
        for (int a = 0; a < 3; ++a) x[a] += solids::detail::hexahedron_coordinate(k, a);
  };
  // A child vertex's place in the cell: a corner, an edge's middle, a face's centre, the centre.
  auto place = [&](index_t child_vertex) {
    std::array<double, 3> out{0.5, 0.5, 0.5};
    double x[3] = {0, 0, 0};
    int count = 0;
    if (child_vertex < V) {
      corner_place(child_vertex, x), count = 1;
    } else if (child_vertex < V + E) {
      const index_t e = child_vertex - V;
      corner_place(column_of(ops.d1.columns[2 * e]), x), corner_place(ops.d1.columns[2 * e + 1], x), count = 2;
    } else if (child_vertex < V + E + F) {
      const index_t f = child_vertex - V - E;
      std::vector<index_t> corners;
      for (index_t p = ops.d2.offsets[f]; p < ops.d2.offsets[f + 1]; ++p) {
        const index_t e = column_of(ops.d2.columns[p]);
        for (index_t end : {column_of(ops.d1.columns[2 * e]), ops.d1.columns[2 * e + 1]})
          if (std::find(corners.begin(), corners.end(), end) == corners.end()) corners.push_back(end);
      }
      for (index_t corner : corners) corner_place(corner, x);
      count = int(corners.size());
    }
    if (count > 0)
      for (int a = 0; a < 3; ++a) out[std::size_t(a)] = x[a] / count;
    return out;
  };
  const int k = solids::detail::hexahedron_corner(at[0] >= 0.5, at[1] >= 0.5, at[2] >= 0.5);
  InChild out;
  out.cell = mesh.offsets[c] + k;
  const index_t* child = fine.indices.data() + 8 * out.cell;
  const auto origin = place(child[0]);
  for (int d = 0; d < 3; ++d) {
    const auto to = place(child[d == 0 ? 1 : d == 1 ? 3 : 4]);
    double along = 0;
    for (int a = 0; a < 3; ++a) {
      out.axes[d][a] = to[std::size_t(a)] - origin[std::size_t(a)];
      along += (at[std::size_t(a)] - origin[std::size_t(a)]) * out.axes[d][a];
    }
    out.at[std::size_t(d)] = std::clamp(along / 0.25, 0.0, 1.0);
  }
  return out;
}

// The largest difference of the limit at samples in line-net cells (`kinds` of the mesh) from the
// limit of the mesh refined `levels` times at the same points (deep subdivision: spmesh's
// refinement, the samples in the cells there that hold them), positions and derivatives on the
// base's scale; `regular`: how many of those cells have tricubic nets inside or at the boundary.
// On the line the derivatives across it are a layered net's directions (Stam's corner) and a rim
// net's the boundary curve's (smooth_corner.hpp): only the one along it is compared there.
template <class B>
double deep_difference(const CellMesh<>& mesh, const linalg::Dense<double>& P0, const std::vector<std::uint8_t>& kinds,
                       const std::vector<index_t>& cells, const std::vector<std::array<double, 3>>& at, int levels,
                       index_t& regular) {
  linalg::cpu::Executor cpu;
  std::vector<CellMesh<>> meshes;
  meshes.push_back(mesh.clone());
  std::vector<solids::BoundaryOperators<>> ops;
  linalg::Dense<double> P = P0.clone();
  for (int level = 0; level < levels; ++level) {
    ops.push_back(solids::boundary_operators(cpu, meshes.back()));
    auto fine = solids::refine(cpu, meshes.back(), ops.back(), P);
    meshes.push_back(std::move(fine.cells)), P = std::move(fine.positions);
  }
  std::vector<index_t> deep_cells;
  std::vector<std::array<double, 3>> deep_at;
  std::vector<std::array<std::array<double, 3>, 3>> deep_axes;  // the deep cell's axes in the base cell's
  for (std::size_t s = 0; s < cells.size(); ++s) {
    index_t c = cells[s];
    std::array<double, 3> x = at[s];
    double axes[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int level = 0; level < levels; ++level) {
      const InChild down = in_child(meshes[std::size_t(level)], ops[std::size_t(level)], meshes[std::size_t(level) + 1], c, x);
      double composed[3][3] = {};
      for (int d = 0; d < 3; ++d)
        for (int a = 0; a < 3; ++a)
          for (int b = 0; b < 3; ++b) composed[d][a] += down.axes[d][b] * axes[b][a];
      std::copy(&composed[0][0], &composed[0][0] + 9, &axes[0][0]);
      c = down.cell, x = down.at;
    }
    deep_cells.push_back(c), deep_at.push_back(x);
    deep_axes.push_back({{{axes[0][0], axes[0][1], axes[0][2]}, {axes[1][0], axes[1][1], axes[1][2]}, {axes[2][0], axes[2][1], axes[2][2]}}});
  }
  const auto deep_kinds = solids::cell_nets(cpu, meshes.back(), solids::boundary_operators(cpu, meshes.back())).kinds;
  regular = 0;
  for (index_t c : deep_cells) regular += solids::is_tricubic_net(deep_kinds[c]);
  const auto base = evaluate<B, double>(mesh, P0, cells, at);
  const auto deep = evaluate<B, double>(meshes.back(), P, deep_cells, deep_at);
  const double scale = std::ldexp(1.0, levels);
  double worst = 0;
  for (std::size_t s = 0; s < cells.size(); ++s) {
    const solids::LayeredFrame frame(kinds[std::size_t(cells[s])]);
    const bool on_line = at[s][std::size_t(frame.s_axis)] == frame.s_side && at[s][std::size_t(frame.t_axis)] == frame.t_side;
    for (int x = 0; x < 3; ++x) {
      const index_t row = index_t(s);
      const double gradient[3] = {base.du(row, x), base.dv(row, x), base.dw(row, x)};
      const double got[3] = {deep.du(row, x), deep.dv(row, x), deep.dw(row, x)};
      worst = std::max(worst, std::abs(deep.position(row, x) - base.position(row, x)));
      for (int d = 0; d < 3; ++d) {
        double along = 0;  // the deep cell's derivative from the base cell's gradient
        for (int a = 0; a < 3; ++a) along += deep_axes[s][std::size_t(d)][std::size_t(a)] * gradient[a];
        if (!on_line || d == frame.line) worst = std::max(worst, std::abs(got[d] - along) * scale);
      }
    }
  }
  return worst;
}

TEST_CASE_TEMPLATE("Catmull-Clark solids' limit in layered cells is the limit of their cells three levels down "
                   "(deep subdivision by spmesh's refinement, regular cells there but by the line)",
                   B, SPMESH_TEST_BACKENDS) {
  const LayeredShell shell = layered_shell(5, 3);
  linalg::cpu::Executor cpu;
  // Samples in the middle layer's layered cells.
  const auto kinds = solids::cell_nets(cpu, shell.mesh, solids::boundary_operators(cpu, shell.mesh)).kinds;
  std::vector<std::uint8_t> middle(std::size_t(kinds.size()), solids::no_net);
  const index_t F = shell.surface.M.faces;
  for (index_t c = 2 * F; c < 3 * F; ++c) middle[std::size_t(c)] = kinds[c];
  std::vector<index_t> cells;
  std::vector<std::array<double, 3>> at;
  layered_samples(middle, cells, at);
  REQUIRE(cells.size() == std::size_t(11 * F));
  index_t regular = 0;
  const double worst = deep_difference<B>(shell.mesh, shell.P, middle, cells, at, 3, regular);
  CHECK(regular >= index_t(6 * F));  // all but those by the line (near it, on it, and some corners)
  CHECK(worst <= 1e-12);
}

TEST_CASE_TEMPLATE("Catmull-Clark solids' limit in rim cells (a box's smooth edges) is the limit of their cells "
                   "three levels down (deep subdivision by spmesh's refinement, regular cells there but by the rim)",
                   B, SPMESH_TEST_BACKENDS) {
  const Box box{{4, 3, 5}};
  const CellMesh<> mesh = turned(box_cells(box.n[0], box.n[1], box.n[2]));
  const linalg::Dense<double> P = perturbed_box(box.n[0], box.n[1], box.n[2], 13);
  linalg::cpu::Executor cpu;
  const auto nets = solids::cell_nets(cpu, mesh, solids::boundary_operators(cpu, mesh));
  const std::vector<std::uint8_t> kinds(nets.kinds.begin(), nets.kinds.end());
  // The cells at the box's edges but its corners: 4 (n_a - 2) along each axis.
  index_t rim_cells = 0;
  for (index_t c = 0; c < mesh.cells(); ++c) rim_cells += boundary_faces(box, mesh, c) == 2;
  CHECK(std::count_if(kinds.begin(), kinds.end(), solids::is_rim_net) == rim_cells);
  CHECK(rim_cells == 4 * (2 + 1 + 3));
  std::vector<index_t> cells;
  std::vector<std::array<double, 3>> at;
  layered_samples(kinds, cells, at, solids::is_rim_net);
  REQUIRE(cells.size() == std::size_t(11 * rim_cells));
  index_t regular = 0;
  const double worst = deep_difference<B>(mesh, P, kinds, cells, at, 3, regular);
  CHECK(regular >= index_t(6 * rim_cells));  // all but those by the rim (near it, on it)
  CHECK(worst <= 1e-12);
}

TEST_CASE("Cells with tricubic nets are classify_cells' regular cells in a grid, inside and at the boundary, "
          "its box edges smooth or sharp") {
  const CellMesh<> mesh = turned_grid();
  linalg::cpu::Executor cpu;
  const auto ops = solids::boundary_operators(cpu, mesh);
  const auto classes = solids::classify_cells(mesh, ops);
  // And the cells at the grid's smooth edges, layered of valence 2 (an edge of two faces on the
  // boundary), with rim nets, and at its corners, irregular (irregular_cells.hpp).
  CHECK(solids::cell_nets(cpu, mesh, ops).cells ==
        classes.regular_interior + classes.regular_boundary + classes.layered.at(2) + classes.irregular);
  CHECK(classes.irregular == 8);
  CHECK(classes.layered.at(2) == 12 * (n - 2));
  CHECK(classes.regular_boundary == 6 * (n - 2) * (n - 2));
  const auto sharp = solids::tagged_sharpness(ops, box_rims(cube, ops), {}, "grid");
  const auto nets = solids::cell_nets(cpu, mesh, ops, &sharp);
  const auto at_rims = solids::classify_cells(mesh, ops, &sharp);
  CHECK(nets.cells == at_rims.regular_interior + at_rims.regular_boundary);
  CHECK(nets.cells == n * n * n);
  CHECK(std::count_if(nets.kinds.begin(), nets.kinds.end(), solids::is_folded_net) == at_rims.regular_at_rims);
}

}  // namespace spmesh::test::solid_limit
