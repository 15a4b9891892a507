// The limit in irregular cells (solids/irregular_cells.hpp) against deep subdivision. The mesh: a
// cube inside a cube, the space between them six frusta, so that each inner corner is an
// extraordinary vertex of 4 cells and 4 edges of valence 3 (seed 000's Figure 6 kind of corner)
// and each outer corner a boundary vertex of 3 cells whose edge inward has valence 3, its points
// moved a little, refined twice by spmesh so that the cells at those corners are self-similar; a
// box's corners (three smooth rims) and a shell's cells where its extraordinary edges reach the
// boundary are irregular cells too. Their samples evaluated by the tables (the child away from the corner k levels
// down, its net as G_r A^k of the cell's ring) equal the limit two levels further down, where
// the same points lie in cells with tricubic or layered nets (positions and derivatives turned
// back: refined_samples.hpp), and the same point evaluated in the cell and in its child at the
// corner (a level down, its own irregular cell) agrees at depths to 30; W P equals the direct
// evaluation.
#include "../backends.hpp"
#include "linalg/spmv.hpp"
#include "solids/limit_at.hpp"
#include "solids/plan.hpp"
#include "solids/refined_samples.hpp"

#include "generated.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <vector>

namespace spmesh::test::irregular_cells {

using solids::CellMesh;

// The cube [-1, 1]^3 (vertices 0-7, VTK's corner order) inside [-3, 3]^3 (8-15), a hexahedron in
// the middle and a frustum on each of its faces, every cell's (u, v, w) along (x, y, z).
std::pair<CellMesh<>, linalg::Dense<double>> cube_in_cube(unsigned seed) {
  std::vector<index_t> indices;
  auto vertex = [](int sx, int sy, int sz, bool outer) {
    return index_t(solids::detail::hexahedron_corner(sx > 0, sy > 0, sz > 0) + (outer ? 8 : 0));
  };
  for (int k = 0; k < 8; ++k)
    indices.push_back(index_t(k));
  for (int axis = 0; axis < 3; ++axis)
    for (int sign : {-1, 1})
      for (int k = 0; k < 8; ++k) {
        int bits[3];
        for (int a = 0; a < 3; ++a) bits[a] = solids::detail::hexahedron_coordinate(k, a);
        // Along the frustum's axis the coordinate runs from -3 to -1 or from 1 to 3: outer at its
        // low end below the cube, at its high end above it.
        const bool outer = sign < 0 ? bits[axis] == 0 : bits[axis] == 1;
        int s[3];
        for (int a = 0; a < 3; ++a) s[a] = a == axis ? sign : (bits[a] ? 1 : -1);
        indices.push_back(vertex(s[0], s[1], s[2], outer));
      }
  CellMesh<> mesh{16, linalg::Array<index_t>(8), linalg::Array<index_t>(indices)};
  for (index_t c = 0; c <= 7; ++c) mesh.offsets[c] = 8 * c;
  linalg::Dense<double> P(16, 3);
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> jitter(-0.1, 0.1);
  for (index_t v = 0; v < 16; ++v)
    for (int a = 0; a < 3; ++a)
      P(v, a) = (v >= 8 ? 3 : 1) * (solids::detail::hexahedron_coordinate(int(v % 8), a) ? 1 : -1) + jitter(random);
  return {std::move(mesh), std::move(P)};
}

struct Level {
  CellMesh<> cells;
  linalg::Dense<double> points;
};
Level refined(const Level& base, int levels) {
  linalg::cpu::Executor cpu;
  auto r = solids::build_and_eval(cpu, base.cells.clone(), base.points.clone(), levels);
  return {std::move(r.cells), std::move(r.positions)};
}

template <class B>
solids::CellNets<typename B::Exec::space> nets_of(typename B::Exec& exec, const CellMesh<>& cells) {
  const auto on = upload_cells<B>(cells);
  return solids::cell_nets(exec, on, solids::boundary_operators(exec, on));
}

std::vector<std::uint8_t> kinds_of(const solids::CellNets<>& nets) { return {nets.kinds.begin(), nets.kinds.end()}; }

// The limit at samples (cells, at) of `level` on backend B (its nets made there), as double on
// the host.
template <class B, class T>
solids::CellLimits<double> evaluate(const Level& level, const std::vector<index_t>& cells,
                                    const std::vector<std::array<double, 3>>& at,
                                    solids::LimitKernel kernel = solids::LimitKernel::automatic) {
  typename B::Exec exec;
  const auto nets = nets_of<B>(exec, level.cells);
  std::vector<double> u, v, w;
  for (const auto& x : at) u.push_back(x[0]), v.push_back(x[1]), w.push_back(x[2]);
  linalg::Dense<T> P(level.points.rows, 3);
  for (index_t i = 0; i < P.data.size(); ++i) P.data[i] = T(level.points.data[i]);
  const auto limits = solids::limit_at_cells(exec, nets, B::upload(linalg::Array<index_t>(cells)),
                                             B::upload(linalg::Array<double>(u)), B::upload(linalg::Array<double>(v)),
                                             B::upload(linalg::Array<double>(w)), B::upload(P), kernel);
  auto widen = [](const auto& on_exec) {
    const auto host = B::download(on_exec);
    linalg::Dense<double> out(host.rows, host.cols);
    for (index_t i = 0; i < out.data.size(); ++i) out.data[i] = double(host.data[i]);
    return out;
  };
  return {widen(limits.position), widen(limits.du), widen(limits.dv), widen(limits.dw)};
}

// The largest difference between two sets of limits (positions and derivatives) over `scale`.
double difference(const solids::CellLimits<double>& a, const solids::CellLimits<double>& b, double scale) {
  double worst = 0;
  const linalg::Dense<double>* x[4] = {&a.position, &a.du, &a.dv, &a.dw};
  const linalg::Dense<double>* y[4] = {&b.position, &b.du, &b.dv, &b.dw};
  for (int m = 0; m < 4; ++m)
    for (index_t i = 0; i < x[m]->data.size(); ++i) worst = std::max(worst, std::abs(x[m]->data[i] - y[m]->data[i]));
  return worst / scale;
}

// The samples carried `levels` levels down whose cells there `keep` takes: their indices, their
// cells and parameters there, and how to turn their derivatives back.
struct Carried {
  std::vector<index_t> rows, cells;
  std::vector<std::array<double, 3>> at;
  std::vector<solids::RefinedSample> samples;
};
template <class Keep>
Carried carried_to(const CellMesh<>& mesh, const std::vector<index_t>& cells, const std::vector<double>& u,
                   const std::vector<double>& v, const std::vector<double>& w, int levels, Keep&& keep) {
  Carried out;
  const auto down = solids::refined_samples(mesh, cells, u, v, w, levels);
  for (std::size_t s = 0; s < down.size(); ++s) {
    if (!keep(down[s].cell)) continue;
    out.rows.push_back(index_t(s)), out.samples.push_back(down[s]), out.cells.push_back(down[s].cell);
    out.at.push_back({down[s].at[0], down[s].at[1], down[s].at[2]});
  }
  return out;
}

// The limits' rows `rows`.
solids::CellLimits<double> rows_of(const solids::CellLimits<double>& limits, const std::vector<index_t>& rows) {
  auto pick = [&](const linalg::Dense<double>& from) {
    linalg::Dense<double> out(index_t(rows.size()), from.cols);
    for (std::size_t i = 0; i < rows.size(); ++i)
      for (index_t x = 0; x < from.cols; ++x) out(index_t(i), x) = from(rows[i], x);
    return out;
  };
  return {pick(limits.position), pick(limits.du), pick(limits.dv), pick(limits.dw)};
}

// The irregular cells of `level2` (`count` of them): their samples, at random and toward the
// extraordinary corner (halved 1 to 30 times), against the limit two levels down where their
// points lie in cells with other nets, and a level down in their children at the corner, in
// double (1e-13 of the points' bounding-box diagonal) and float (2e-6); every layout the same
// bits; W P the direct evaluation.
template <class B>
void check_irregular(const Level& level2, std::size_t count) {
  const Level level3 = refined(level2, 1), deep = refined(level2, 2);
  linalg::cpu::Executor cpu;
  const auto kinds2 = kinds_of(nets_of<test::CpuBackend>(cpu, level2.cells));
  std::vector<index_t> irregular;
  for (index_t c = 0; c < index_t(kinds2.size()); ++c)
    if (solids::is_irregular_net(kinds2[std::size_t(c)])) irregular.push_back(c);
  CHECK(irregular.size() == count);
  REQUIRE(!irregular.empty());

  // Samples at random, toward the extraordinary corner (halved 1 to 30 times), and on the three
  // faces through it (a parameter at V's own; not on its edges, where a derivative across an
  // extraordinary edge depends on the way there).
  std::mt19937 random(11);
  std::uniform_real_distribution<double> unit(0, 1);
  std::vector<index_t> at_cells;
  std::vector<std::array<double, 3>> at;
  for (const index_t c : irregular) {
    const int l = kinds2[std::size_t(c)] - solids::irregular_net(0);
    for (int s = 0; s < 15; ++s) {
      std::array<double, 3> x{unit(random), unit(random), unit(random)};
      const double toward = s < 6 || s >= 12 ? 1 : std::ldexp(1.0, -5 * (s - 5));  // 2^-5 to 2^-30 of the cell
      for (int a = 0; a < 3; ++a) {
        const bool far = solids::detail::hexahedron_coordinate(l, a) == 1;
        // Toward the corner no parameter below half the scale: none reaches the clamp at 2^-33.
        double from_corner = toward * (s < 6 || s >= 12 ? x[std::size_t(a)] : 0.5 + 0.5 * x[std::size_t(a)]);
        if (a == s - 12) from_corner = 0;  // on a face through V
        x[std::size_t(a)] = far ? 1 - from_corner : from_corner;
      }
      at_cells.push_back(c), at.push_back(x);
    }
  }
  std::vector<double> u, v, w;
  for (const auto& x : at) u.push_back(x[0]), v.push_back(x[1]), w.push_back(x[2]);
  double low[3] = {1e300, 1e300, 1e300}, high[3] = {-1e300, -1e300, -1e300};
  for (index_t p = 0; p < level2.points.rows; ++p)
    for (int a = 0; a < 3; ++a) low[a] = std::min(low[a], level2.points(p, a)), high[a] = std::max(high[a], level2.points(p, a));
  const double diagonal = std::hypot(high[0] - low[0], high[1] - low[1], high[2] - low[2]);
  for (const bool single : {false, true}) {
    const auto got = single ? evaluate<B, float>(level2, at_cells, at) : evaluate<B, double>(level2, at_cells, at);
    // Two levels down: the samples there whose cells have tricubic or layered nets.
    const auto deep_kinds = kinds_of(nets_of<test::CpuBackend>(cpu, deep.cells));
    const auto kept = carried_to(level2.cells, at_cells, u, v, w, 2, [&](index_t cell) {
      const std::uint8_t kind = deep_kinds[std::size_t(cell)];
      return kind != solids::no_net && !solids::is_irregular_net(kind);
    });
    CHECK(kept.rows.size() >= at.size() / 3);
    auto reference = evaluate<test::CpuBackend, double>(deep, kept.cells, kept.at);
    solids::to_input_axes(kept.samples, reference);
    CHECK(difference(rows_of(got, kept.rows), reference, diagonal) <= (single ? 2e-6 : 1e-13));
    // Each layout (the automatic one above makes the children's nets once, to depth 4, deeper
    // samples summed over the ring; per_sample sums every sample over the ring): the same bits.
    for (const auto kernel : {solids::LimitKernel::per_sample, solids::LimitKernel::gathered_nets}) {
      const auto other = single ? evaluate<B, float>(level2, at_cells, at, kernel)
                                : evaluate<B, double>(level2, at_cells, at, kernel);
      CHECK(difference(other, got, 1.0) == 0);
    }

    // The same points in the children at the corner, a level down (irregular cells themselves).
    const auto kinds3 = kinds_of(nets_of<test::CpuBackend>(cpu, level3.cells));
    const auto near = carried_to(level2.cells, at_cells, u, v, w, 1,
                                 [&](index_t cell) { return solids::is_irregular_net(kinds3[std::size_t(cell)]); });
    CHECK(near.rows.size() >= at.size() / 3);
    auto in_child = single ? evaluate<B, float>(level3, near.cells, near.at)
                           : evaluate<B, double>(level3, near.cells, near.at);
    solids::to_input_axes(near.samples, in_child);
    CHECK(difference(rows_of(got, near.rows), in_child, diagonal) <= (single ? 2e-6 : 1e-13));
  }

  // W P is the direct evaluation, to rounding of the weights' sizes (toward the corner a
  // derivative's weights grow as 2^k and cancel: some 200 units of rounding at the boundary's).
  typename B::Exec exec;
  const auto nets = nets_of<B>(exec, level2.cells);
  const auto on_cells = B::upload(linalg::Array<index_t>(at_cells));
  const auto on_u = B::upload(linalg::Array<double>(u)), on_v = B::upload(linalg::Array<double>(v)),
             on_w = B::upload(linalg::Array<double>(w));
  const auto P = B::upload(level2.points);
  const auto direct = solids::limit_at_cells(exec, nets, on_cells, on_u, on_v, on_w, P);
  const auto W = solids::limit_matrices_at_cells<double>(exec, nets, on_cells, on_u, on_v, on_w, level2.cells.vertices);
  double largest = 0;
  for (const double x : level2.points.data) largest = std::max(largest, std::abs(x));
  for (const auto& [matrix, expected] : {std::pair{&W.position, &direct.position}, std::pair{&W.du, &direct.du},
                                         std::pair{&W.dw, &direct.dw}}) {
    const auto rows = B::download(*matrix);
    const auto product = B::download(linalg::spmm(exec, *matrix, P)), want = B::download(*expected);
    double worst = 0;
    for (index_t r = 0; r < rows.rows; ++r) {
      double size = 0;
      for (index_t e = rows.offsets[r]; e < rows.offsets[r + 1]; ++e) size += std::abs(rows.values[e]) * largest;
      for (index_t x = 0; x < 3; ++x) worst = std::max(worst, std::abs(product(r, x) - want(r, x)) / size);
    }
    CHECK(worst <= 1e-13);
  }
}

TEST_CASE_TEMPLATE("Catmull-Clark solids' limit in irregular cells (an extraordinary corner of 4 edges of valence 3 "
                   "inside, and the outer corners where such edges reach the boundary) is the limit two levels down, "
                   "where their points lie in tricubic, layered and rim cells, and agrees with their children's at "
                   "the corner at depths to 30",
                   B, SPMESH_TEST_BACKENDS) {
  auto [cells, points] = cube_in_cube(7);
  const Level base{std::move(cells), std::move(points)};
  // The cells at the 8 extraordinary corners inside, 4 each, and at the 8 outer corners, 3 each
  // (the outer cube's corner is a boundary vertex of 3 edges there, its edge inward of valence 3):
  // every cell of level 2. At level 0 none (the corners share cells).
  const Level level2 = refined(base, 2);
  linalg::cpu::Executor cpu;
  const auto kinds2 = kinds_of(nets_of<test::CpuBackend>(cpu, level2.cells));
  CHECK(std::count(kinds2.begin(), kinds2.end(), solids::no_net) == 0);
  const auto kinds0 = kinds_of(nets_of<test::CpuBackend>(cpu, base.cells));
  CHECK(std::count_if(kinds0.begin(), kinds0.end(), solids::is_irregular_net) == 0);
  check_irregular<B>(level2, 8 * 4 + 8 * 3);
}

TEST_CASE_TEMPLATE("Catmull-Clark solids' limit at a box's smooth corners (three smooth rims meeting) is that of "
                   "irregular cells, the limit two levels down in rim and tricubic cells",
                   B, SPMESH_TEST_BACKENDS) {
  // A perturbed 4 x 3 x 5 box: its 8 corner cells, self-similar at level 0.
  check_irregular<B>({box_cells(4, 3, 5), perturbed_box(4, 3, 5, 13)}, 8);
}

TEST_CASE_TEMPLATE("Catmull-Clark solids' limit where an extraordinary edge reaches the boundary is that of "
                   "irregular cells, the limit two levels down in layered and tricubic cells",
                   B, SPMESH_TEST_BACKENDS) {
  // A shell of 4 layers round the refined bipyramid of valence 5: the cells of its inner and outer
  // layers at the ends of its extraordinary edges (valence 5 at the poles, 3 at the others).
  const Surface surface = refined_bipyramid(5);
  const Level shell{extrude(surface.M, 4), shell_positions(surface, 4)};
  linalg::cpu::Executor cpu;
  const auto kinds = kinds_of(nets_of<test::CpuBackend>(cpu, shell.cells));
  const auto corners = std::count_if(kinds.begin(), kinds.end(), solids::is_irregular_net);
  CHECK(corners > 0);
  check_irregular<B>(shell, std::size_t(corners));
}

}  // namespace spmesh::test::irregular_cells
