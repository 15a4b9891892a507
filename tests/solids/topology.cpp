// Boundary operators of volume meshes (solids/topology.hpp), checked on the host against what
// the cells say independently: counts and the Euler characteristic, d3 d2 = 0 and d2 d1 = 0,
// each face row of d2 a closed cycle, each face oriented outward from the cells that own it
// (by the geometry of the cells), and every bad cell named. The same source runs on the GPU
// (cuda/solids.cu), where the operators must equal the CPU's bit for bit.
#include "../backends.hpp"
#include "solids/refine.hpp"
#include "solids/refined_topology.hpp"
#include "solids/topology.hpp"

#include "generated.hpp"
#include "hex_meshes.hpp"
#include "solids/medit.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace spmesh::test::solid_topology {

using solids::BoundaryOperators;
using solids::CellMesh;
using Point = std::array<double, 3>;
using linalg::column_of;
using linalg::sign_of;

// `streams`, where given, a face stream per cell (empty for a kind).
CellMesh<> cell_mesh(index_t vertices, const std::vector<std::vector<index_t>>& cells,
                     const std::vector<std::vector<index_t>>& streams = {}) {
  CellMesh<> mesh;
  mesh.vertices = vertices;
  mesh.offsets = linalg::Array<index_t>(index_t(cells.size()) + 1);
  std::vector<index_t> flat;
  mesh.offsets[0] = 0;
  for (std::size_t c = 0; c < cells.size(); ++c) {
    flat.insert(flat.end(), cells[c].begin(), cells[c].end());
    mesh.offsets[index_t(c) + 1] = index_t(flat.size());
  }
  mesh.indices = linalg::Array<index_t>(index_t(flat.size()));
  for (std::size_t p = 0; p < flat.size(); ++p) mesh.indices[index_t(p)] = flat[p];
  if (!streams.empty()) {
    std::vector<index_t> offsets{0}, all;
    for (const auto& stream : streams) all.insert(all.end(), stream.begin(), stream.end()), offsets.push_back(index_t(all.size()));
    mesh.face_offsets = linalg::Array<index_t>(offsets), mesh.face_streams = linalg::Array<index_t>(all);
  }
  return mesh;
}

// nx x ny x nz unit hexahedra; vertex (i, j, k) is i + (nx + 1) (j + (ny + 1) k), at (i, j, k).
struct Block {
  int nx, ny, nz;
  CellMesh<> mesh;
  std::vector<Point> points;

  Block(int x, int y, int z) : nx(x), ny(y), nz(z) {
    auto id = [&](int i, int j, int k) { return index_t(i + (nx + 1) * (j + (ny + 1) * k)); };
    std::vector<std::vector<index_t>> cells;
    for (int k = 0; k < nz; ++k)
      for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i)
          cells.push_back({id(i, j, k), id(i + 1, j, k), id(i + 1, j + 1, k), id(i, j + 1, k),
                           id(i, j, k + 1), id(i + 1, j, k + 1), id(i + 1, j + 1, k + 1), id(i, j + 1, k + 1)});
    for (int k = 0; k <= nz; ++k)
      for (int j = 0; j <= ny; ++j)
        for (int i = 0; i <= nx; ++i) points.push_back({double(i), double(j), double(k)});
    mesh = cell_mesh(index_t(points.size()), cells);
  }
};

// A hexahedron, two prisms filling the unit cube beside it, and a tetrahedron on one prism.
struct Mixed {
  std::vector<Point> points = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1},
                               {1, 0, 1}, {1, 1, 1}, {0, 1, 1}, {2, 0, 0}, {2, 1, 0},
                               {2, 0, 1}, {2, 1, 1}, {1.5, 0.5, 2}};
  CellMesh<> mesh = cell_mesh(13, {{0, 1, 2, 3, 4, 5, 6, 7}, {1, 8, 9, 5, 10, 11},
                                   {1, 9, 2, 5, 11, 6}, {5, 10, 11, 12}});
};

template <class B>
linalg::Ternary<> to_host(const linalg::Ternary<typename B::Exec::space>& t) {
  return {t.rows, t.cols, B::download(t.offsets), B::download(t.columns)};
}

template <class B>
BoundaryOperators<> operators_on(const CellMesh<>& mesh) {
  typename B::Exec exec;
  const auto on = upload_cells<B>(mesh);
  const auto ops = solids::boundary_operators(exec, on);
  return {to_host<B>(ops.d3), to_host<B>(ops.d2), to_host<B>(ops.d1)};
}

// The number of non-zero entries of A B, A and B ternary, summed entry by entry.
index_t nonzeros_of_product(const linalg::Ternary<>& A, const linalg::Ternary<>& B) {
  index_t count = 0;
  for (index_t i = 0; i < A.rows; ++i) {
    std::map<index_t, int> row;
    for (index_t p = A.offsets[i]; p < A.offsets[i + 1]; ++p) {
      const index_t k = column_of(A.columns[p]);
      for (index_t q = B.offsets[k]; q < B.offsets[k + 1]; ++q)
        row[column_of(B.columns[q])] += sign_of(A.columns[p]) * sign_of(B.columns[q]);
    }
    for (const auto& [j, value] : row) count += value != 0;
  }
  return count;
}

// Face f's vertices in the order of its cycle, from d2 and d1: the tail of each signed edge.
std::vector<index_t> face_cycle(const BoundaryOperators<>& ops, index_t f) {
  std::vector<index_t> cycle;
  for (index_t p = ops.d2.offsets[f]; p < ops.d2.offsets[f + 1]; ++p) {
    const index_t e = column_of(ops.d2.columns[p]);
    const index_t low = column_of(ops.d1.columns[ops.d1.offsets[e]]);
    const index_t high = column_of(ops.d1.columns[ops.d1.offsets[e] + 1]);
    cycle.push_back(sign_of(ops.d2.columns[p]) > 0 ? low : high);
  }
  return cycle;
}

// Everything that must hold of a valid mesh's operators; `points` place the vertices.
void check_operators(const BoundaryOperators<>& ops, const CellMesh<>& mesh, const std::vector<Point>& points) {
  REQUIRE(ops.cells() == mesh.cells());
  REQUIRE(ops.vertices() == mesh.vertices);
  CHECK(ops.d3.cols == ops.faces());
  CHECK(ops.d2.cols == ops.edges());
  CHECK(nonzeros_of_product(ops.d3, ops.d2) == 0);
  CHECK(nonzeros_of_product(ops.d2, ops.d1) == 0);
  // d1: lower vertex -1, higher +1; edges in (lower, higher) order, each once.
  for (index_t e = 0; e < ops.edges(); ++e) {
    REQUIRE(ops.d1.offsets[e + 1] - ops.d1.offsets[e] == 2);
    const index_t a = ops.d1.columns[2 * e], b = ops.d1.columns[2 * e + 1];
    CHECK(sign_of(a) < 0);
    CHECK(sign_of(b) > 0);
    CHECK(column_of(a) < column_of(b));
    if (e > 0) {
      const auto before = std::make_pair(column_of(ops.d1.columns[2 * e - 2]), column_of(ops.d1.columns[2 * e - 1]));
      CHECK(before < std::make_pair(column_of(a), column_of(b)));
    }
  }
  // d2: each row a closed cycle, each edge's head the next edge's tail.
  for (index_t f = 0; f < ops.faces(); ++f) {
    const auto cycle = face_cycle(ops, f);
    REQUIRE(cycle.size() >= 3);
    for (std::size_t k = 0; k < cycle.size(); ++k) {
      const index_t e = column_of(ops.d2.columns[ops.d2.offsets[f] + index_t(k)]);
      const index_t low = column_of(ops.d1.columns[2 * e]), high = column_of(ops.d1.columns[2 * e + 1]);
      const index_t head = sign_of(ops.d2.columns[ops.d2.offsets[f] + index_t(k)]) > 0 ? high : low;
      CHECK(head == cycle[(k + 1) % cycle.size()]);
    }
  }
  // d3: a cell's faces in its local order, each face in one or two cells and of opposite signs
  // in two; + faces turn outward from the cell, - faces inward (Newell's normal against the
  // direction from the cell's centroid to the face's).
  std::vector<std::vector<int>> signs(std::size_t(ops.faces()));
  for (index_t c = 0; c < ops.cells(); ++c) {
    CHECK(ops.d3.offsets[c + 1] - ops.d3.offsets[c] == mesh.view().shape(c).faces());
    Point centre{};
    for (index_t p = mesh.offsets[c]; p < mesh.offsets[c + 1]; ++p)
      for (int x = 0; x < 3; ++x) centre[x] += points[std::size_t(mesh.indices[p])][x] / double(mesh.offsets[c + 1] - mesh.offsets[c]);
    for (index_t p = ops.d3.offsets[c]; p < ops.d3.offsets[c + 1]; ++p) {
      const index_t f = column_of(ops.d3.columns[p]);
      signs[std::size_t(f)].push_back(sign_of(ops.d3.columns[p]));
      const auto cycle = face_cycle(ops, f);
      Point normal{}, middle{};
      for (std::size_t k = 0; k < cycle.size(); ++k) {
        const Point& a = points[std::size_t(cycle[k])];
        const Point& b = points[std::size_t(cycle[(k + 1) % cycle.size()])];
        normal[0] += (a[1] - b[1]) * (a[2] + b[2]);
        normal[1] += (a[2] - b[2]) * (a[0] + b[0]);
        normal[2] += (a[0] - b[0]) * (a[1] + b[1]);
        for (int x = 0; x < 3; ++x) middle[x] += a[x] / double(cycle.size());
      }
      double outward = 0;
      for (int x = 0; x < 3; ++x) outward += normal[x] * (middle[x] - centre[x]);
      CHECK_MESSAGE(outward * sign_of(ops.d3.columns[p]) > 0, "cell " << c << ", face " << f);
    }
  }
  for (const auto& s : signs) {
    REQUIRE((s.size() == 1 || s.size() == 2));
    if (s.size() == 2) CHECK(s[0] + s[1] == 0);
  }
}

index_t boundary_faces(const BoundaryOperators<>& ops) {
  std::vector<int> holders(std::size_t(ops.faces()), 0);
  for (index_t p = 0; p < ops.d3.nnz(); ++p) ++holders[std::size_t(column_of(ops.d3.columns[p]))];
  return index_t(std::count(holders.begin(), holders.end(), 1));
}

TEST_CASE("solid cells: each kind's faces walk every edge once each way and turn outward") {
  const std::vector<std::pair<index_t, std::vector<Point>>> kinds = {
      {4, {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}},
      {6, {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}}},
      {8, {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}}}};
  for (const auto& [corners, points] : kinds) {
    CAPTURE(corners);
    std::map<std::pair<int, int>, int> walked;
    for (int f = 0; f < solids::cell_faces(corners); ++f) {
      const int n = solids::face_corner(corners, f, 3) < 0 ? 3 : 4;
      for (int k = 0; k < n; ++k) ++walked[{solids::face_corner(corners, f, k), solids::face_corner(corners, f, (k + 1) % n)}];
    }
    for (const auto& [edge, times] : walked) {
      CHECK(times == 1);
      CHECK(walked.count({edge.second, edge.first}) == 1);
    }
    std::vector<index_t> cell;
    for (index_t v = 0; v < corners; ++v) cell.push_back(v);
    const auto mesh = cell_mesh(corners, {cell});
    check_operators(operators_on<CpuBackend>(mesh), mesh, points);
  }
}

TEST_CASE_TEMPLATE("boundary operators of a block of hexahedra: counts, Euler characteristic 1, "
                   "d3 d2 = 0, d2 d1 = 0, cycles, outward faces",
                   B, SPMESH_TEST_BACKENDS) {
  for (const auto& size : std::vector<std::array<int, 3>>{{1, 1, 1}, {3, 2, 1}, {4, 3, 5}}) {
    const auto [nx, ny, nz] = size;
    CAPTURE(nx);
    CAPTURE(ny);
    CAPTURE(nz);
    const Block block(nx, ny, nz);
    const auto ops = operators_on<B>(block.mesh);
    const index_t V = (nx + 1) * (ny + 1) * (nz + 1), C = nx * ny * nz;
    const index_t E = nx * (ny + 1) * (nz + 1) + (nx + 1) * ny * (nz + 1) + (nx + 1) * (ny + 1) * nz;
    const index_t F = nx * ny * (nz + 1) + nx * (ny + 1) * nz + (nx + 1) * ny * nz;
    CHECK(ops.vertices() == V);
    CHECK(ops.edges() == E);
    CHECK(ops.faces() == F);
    CHECK(ops.cells() == C);
    CHECK(V - E + F - C == 1);
    CHECK(boundary_faces(ops) == 2 * (nx * ny + ny * nz + nz * nx));
    check_operators(ops, block.mesh, block.points);
  }
}

TEST_CASE_TEMPLATE("boundary operators of a mesh of a hexahedron, prisms and a tetrahedron", B,
                   SPMESH_TEST_BACKENDS) {
  const Mixed mixed;
  const auto ops = operators_on<B>(mixed.mesh);
  CHECK(ops.vertices() == 13);
  CHECK(ops.edges() == 25);  // the cube's 12, 8 more and 2 diagonals beside it, 3 to the apex
  CHECK(ops.faces() == 17);  // 20 cell faces, 3 of them shared
  CHECK(ops.cells() == 4);
  CHECK(boundary_faces(ops) == 14);
  check_operators(ops, mixed.mesh, mixed.points);
}

std::vector<Point> points_of(const linalg::Dense<double>& X) {
  std::vector<Point> points(std::size_t(X.rows));
  for (index_t v = 0; v < X.rows; ++v)
    for (int x = 0; x < 3; ++x) points[std::size_t(v)][x] = X(v, x);
  return points;
}

TEST_CASE_TEMPLATE("boundary operators of a shell of pentagonal prisms (polyhedra given by their faces) and "
                   "hexahedra: counts, Euler characteristic 2, d3 d2 = 0, d2 d1 = 0, cycles, outward faces",
                   B, SPMESH_TEST_BACKENDS) {
  const auto [mesh, X] = polyhedral_shell();
  const auto ops = operators_on<B>(mesh);
  // The surface: a bipyramid's 12 vertices, 20 edges and 10 quads, less a pole of valence 5 and
  // plus a pentagon in its place: 16, 25, 11. Three layers of it, two of cells.
  CHECK(ops.vertices() == 3 * 16);
  CHECK(ops.edges() == 3 * 25 + 2 * 16);
  CHECK(ops.faces() == 3 * 11 + 2 * 25);
  CHECK(ops.cells() == 2 * 11);
  CHECK(ops.vertices() - ops.edges() + ops.faces() - ops.cells() == 2);  // a sphere times an interval
  CHECK(boundary_faces(ops) == 2 * 11);
  index_t polyhedra = 0;
  for (index_t c = 0; c < mesh.cells(); ++c) polyhedra += mesh.view().shape(c).polyhedron();
  CHECK(polyhedra == 2 * 6);
  check_operators(ops, mesh, points_of(X));
}

TEST_CASE_TEMPLATE("boundary operators are the same bits run to run and on every backend", B,
                   SPMESH_TEST_BACKENDS) {
  const Block block(5, 4, 3);
  const auto first = operators_on<B>(block.mesh), again = operators_on<B>(block.mesh);
  const auto cpu = operators_on<CpuBackend>(block.mesh);
  for (const auto* other : {&again, &cpu}) {
    for (const auto& [a, b] : {std::make_pair(&first.d3, &other->d3), std::make_pair(&first.d2, &other->d2),
                               std::make_pair(&first.d1, &other->d1)}) {
      CHECK(a->rows == b->rows);
      CHECK(a->cols == b->cols);
      CHECK(std::equal(a->offsets.begin(), a->offsets.end(), b->offsets.begin(), b->offsets.end()));
      CHECK(std::equal(a->columns.begin(), a->columns.end(), b->columns.begin(), b->columns.end()));
    }
  }
}

// The message of the InputError that building the operators of `mesh` throws, or "(none)".
template <class B>
std::string refusal(const CellMesh<>& mesh) {
  try {
    operators_on<B>(mesh);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(none)";
}

TEST_CASE_TEMPLATE("bad cells are refused naming the cell: pyramids, other counts, repeated or "
                   "missing vertices, a face in three cells, an inverted cell",
                   B, SPMESH_TEST_BACKENDS) {
  const std::vector<index_t> hex = {0, 1, 2, 3, 4, 5, 6, 7};
  CHECK(refusal<B>(cell_mesh(9, {hex, {0, 1, 2, 3, 8}})) ==
        "cell 1 (vertices 0 1 2 3 8) is a pyramid (spmesh subdivides tetrahedra, prisms, "
        "hexahedra and polyhedra given by their faces; a pyramid does not subdivide into hexahedra) "
        "(ids count from 0)");
  CHECK(refusal<B>(cell_mesh(8, {{0, 1, 2, 3, 4, 5, 6}})) ==
        "cell 0 (vertices 0 1 2 3 4 5 6) is a cell of 7 vertices (spmesh subdivides tetrahedra, "
        "prisms, hexahedra and polyhedra given by their faces) (ids count from 0)");
  CHECK(refusal<B>(cell_mesh(8, {{0, 1, 2, 3, 4, 5, 6, 6}})) ==
        "cell 0 (vertices 0 1 2 3 4 5 6 6) names a vertex out of range (the mesh has 8) or one "
        "vertex twice (ids count from 0)");
  CHECK(refusal<B>(cell_mesh(8, {{0, 1, 2, 3, 4, 5, 6, 8}})).starts_with("cell 0 (vertices 0 1 2 3 4 5 6 8) names a vertex out of range"));
  // Three hexahedra on the top face 4 5 6 7 of the first.
  CHECK(refusal<B>(cell_mesh(16, {hex, {4, 5, 6, 7, 8, 9, 10, 11}, {4, 5, 6, 7, 12, 13, 14, 15}})) ==
        "the face of vertices 4 5 6 7 is held by cells 0 1 2 and maybe more: a face is in one or "
        "two cells (ids count from 0)");
  // The second hexahedron upside down: it sees the shared face turning as the first does.
  CHECK(refusal<B>(cell_mesh(12, {hex, {8, 9, 10, 11, 4, 5, 6, 7}})) ==
        "cells 0 and 1 see their shared face turning the same way: one of them is inverted (its "
        "vertices in mirrored order; ids count from 0)");
  // Upright, the same two are fine.
  CHECK(refusal<B>(cell_mesh(12, {hex, {4, 5, 6, 7, 8, 9, 10, 11}})) == "(none)");
}

TEST_CASE_TEMPLATE("bad polyhedra are refused naming the cell and the problem: a pyramid's apex, an open or "
                   "mis-turned surface, two surfaces, a hole, offsets that do not span the faces",
                   B, SPMESH_TEST_BACKENDS) {
  const std::vector<index_t> hex = {0, 1, 2, 3, 4, 5, 6, 7};
  // A pentagonal prism: corners 0-4 below, 5-9 above.
  const std::vector<index_t> prism5 = {5, 4, 3, 2, 1, 0, 5, 5, 6, 7, 8, 9, 4, 0, 1, 6, 5, 4, 1, 2, 7, 6,
                                       4, 2, 3, 8, 7, 4, 3, 4, 9, 8, 4, 4, 0, 5, 9};
  const std::vector<index_t> ten = {10, 11, 12, 13, 14, 15, 16, 17, 18, 19};
  CHECK(refusal<B>(cell_mesh(20, {hex, ten}, {{}, prism5})) == "(none)");
  auto polyhedron = [&](std::vector<index_t> stream) { return cell_mesh(20, {hex, ten}, {{}, std::move(stream)}); };
  // Its top face split into two by a chord from 5 to 7: corners 5 and 7 join four faces.
  CHECK(refusal<B>(polyhedron({5, 4, 3, 2, 1, 0, 3, 5, 6, 7, 4, 5, 7, 8, 9, 4, 0, 1, 6, 5, 4, 1, 2, 7, 6, 4, 2, 3,
                               8, 7, 4, 3, 4, 9, 8, 4, 4, 0, 5, 9})) ==
        "cell 1 (a polyhedron): its corner at vertex 15 joins 4 faces: a corner's child is a hexahedron only where "
        "three faces meet (a pyramid's apex joins four) (ids count from 0)");
  std::vector<index_t> open(prism5.begin(), prism5.end() - 5);  // its last side left out
  CHECK(refusal<B>(polyhedron(open)) ==
        "cell 1 (a polyhedron): its edge from vertex 10 to vertex 14 is in one face only (its faces do not "
        "close) (ids count from 0)");
  auto turned = prism5;
  std::reverse(turned.begin() + 7, turned.begin() + 12);  // the top walks its edges as the sides do
  CHECK(refusal<B>(polyhedron(turned)) ==
        "cell 1 (a polyhedron): its edge from vertex 15 to vertex 19 is walked the same way by two faces (faces "
        "turned unlike, or more than two at an edge) (ids count from 0)");
  CHECK(refusal<B>(polyhedron({3, 0, 1, 2, 3, 0, 2, 3, 3, 0, 3, 1, 3, 1, 3, 2})).starts_with(
      "cell 1 (a polyhedron): its vertex 14 is in none of its faces"));
  CHECK(refusal<B>(polyhedron({5, 4, 3, 2, 1, 0, 5, 5, 6, 7, 8, 9, 4, 0, 1, 6, 5, 4, 1, 2, 7, 6, 4, 2, 3, 8, 7, 4, 3,
                               4, 9, 8, 4, 4, 0, 5, 9, 2, 0})) ==
        "cell 1 (a polyhedron): its face stream ends inside face 7 (ids count from 0)");
  // Two tetrahedra in one cell; a torus of four hexagons (a brick wall wrapped both ways).
  CHECK(refusal<B>(cell_mesh(16, {hex, {8, 9, 10, 11, 12, 13, 14, 15}},
                             {{}, {3, 0, 2, 1, 3, 0, 1, 3, 3, 1, 2, 3, 3, 2, 0, 3, 3, 4, 6, 5, 3, 4, 5, 7, 3, 5, 6, 7, 3, 6, 4, 7}})) ==
        "cell 1 (a polyhedron): its faces make more than one surface (ids count from 0)");
  CHECK(refusal<B>(cell_mesh(16, {hex, {8, 9, 10, 11, 12, 13, 14, 15}},
                             {{}, {6, 0, 1, 2, 6, 5, 4, 6, 2, 3, 0, 4, 7, 6, 6, 5, 6, 7, 3, 2, 1, 6, 7, 4, 5, 1, 0, 3}})) ==
        "cell 1 (a polyhedron): its faces make a surface of Euler characteristic 0, not a ball's (2): a cell with a "
        "hole (ids count from 0)");
  auto offsets = polyhedron(prism5);
  offsets.face_offsets[2] -= 1;
  CHECK(refusal<B>(offsets) ==
        "the polyhedra's face offsets (3 for 2 cells) do not span their face streams in order");
}

// A face's vertex cycle as its cell sees it from outside (reversed where d3 says -), started at
// its lowest vertex: equal for two numberings of the same face.
std::vector<index_t> outward_cycle(const BoundaryOperators<>& ops, index_t p) {
  auto cycle = face_cycle(ops, column_of(ops.d3.columns[p]));
  if (sign_of(ops.d3.columns[p]) < 0) std::reverse(cycle.begin(), cycle.end());
  std::rotate(cycle.begin(), std::min_element(cycle.begin(), cycle.end()), cycle.end());
  return cycle;
}

// `levels` levels on backend B, each level's operators made by index arithmetic from the
// last (refined_operators): each must be valid (check_operators, on the refined positions) and
// equal boundary_operators of the refined cells but for the faces' numbering: the same edges,
// each cell's faces the same cycles with the same signs. Every level's transposes, the input's
// as boundary_operators leaves them and the refined levels' by index arithmetic, must be
// transposes() of its operators entry for entry.
template <class B>
void check_refined_operators(CellMesh<> mesh, std::vector<Point> points, int levels) {
  typename B::Exec exec;
  auto same = [](const auto& on_exec, const auto& expected_on_exec) {
    const auto A = to_host<B>(on_exec), T = to_host<B>(expected_on_exec);
    return A.rows == T.rows && A.cols == T.cols &&
           std::equal(A.offsets.begin(), A.offsets.end(), T.offsets.begin(), T.offsets.end()) &&
           std::equal(A.columns.begin(), A.columns.end(), T.columns.begin(), T.columns.end());
  };
  auto cells = upload_cells<B>(mesh);
  solids::Transposes<typename B::Exec::space> identified;
  auto ops = solids::boundary_operators(exec, cells, &identified);
  const auto input_sorted = solids::transposes(exec, ops);
  CHECK(same(identified.t1, input_sorted.t1));
  CHECK(same(identified.t2, input_sorted.t2));
  CHECK(same(identified.t3, input_sorted.t3));
  for (int level = 1; level <= levels; ++level) {
    CAPTURE(level);
    linalg::Dense<double> X(index_t(points.size()), 3);
    for (index_t v = 0; v < X.rows; ++v)
      for (int x = 0; x < 3; ++x) X(v, x) = points[std::size_t(v)][x];
    const auto transposed = solids::transposes(exec, ops);
    auto next = solids::refine(exec, cells, ops, transposed, B::upload(X));
    auto refined = solids::refined_operators(exec, cells, ops, transposed);
    const CellMesh<> host{next.cells.vertices, B::download(next.cells.offsets), B::download(next.cells.indices)};
    const auto P = B::download(next.positions);
    points.assign(std::size_t(P.rows), Point{});
    for (index_t v = 0; v < P.rows; ++v)
      for (int x = 0; x < 3; ++x) points[std::size_t(v)][x] = P(v, x);
    const BoundaryOperators<> got{to_host<B>(refined.d3), to_host<B>(refined.d2), to_host<B>(refined.d1)};
    const auto expected = operators_on<CpuBackend>(host);
    check_operators(got, host, points);
    CHECK(got.faces() == expected.faces());
    CHECK(std::equal(got.d1.columns.begin(), got.d1.columns.end(), expected.d1.columns.begin(), expected.d1.columns.end()));
    REQUIRE(got.d3.nnz() == expected.d3.nnz());
    index_t differ = 0;
    for (index_t p = 0; p < got.d3.nnz(); ++p)
      differ += outward_cycle(got, p) != outward_cycle(expected, p) || sign_of(got.d3.columns[p]) != sign_of(expected.d3.columns[p]);
    CHECK(differ == 0);
    // Their transposes by index arithmetic: transposes() of them, entry for entry.
    const auto arithmetic = solids::refined_transposes(exec, cells, ops, transposed);
    const auto sorted = solids::transposes(exec, refined);
    CHECK(same(arithmetic.t1, sorted.t1));
    CHECK(same(arithmetic.t2, sorted.t2));
    CHECK(same(arithmetic.t3, sorted.t3));
    cells = std::move(next.cells), ops = std::move(refined);
  }
}

TEST_CASE_TEMPLATE("refined levels' operators by index arithmetic are boundary_operators' of the "
                   "refined cells but for the faces' numbering, and every level's transposes transposes' (2 levels of a "
                   "block, of "
                   "hexahedra, prisms and a tetrahedron, and of a shell of polyhedra, 1 of the team's hex meshes)",
                   B, SPMESH_TEST_BACKENDS) {
  const Block block(3, 2, 2);
  check_refined_operators<B>(CellMesh<>{block.mesh.vertices, block.mesh.offsets.clone(), block.mesh.indices.clone()},
                             block.points, 2);
  const Mixed mixed;
  check_refined_operators<B>(CellMesh<>{mixed.mesh.vertices, mixed.mesh.offsets.clone(), mixed.mesh.indices.clone()},
                             mixed.points, 2);
  auto [shell, X] = polyhedral_shell();
  check_refined_operators<B>(std::move(shell), points_of(X), 2);
  const auto dir = hex_mesh_folder();
  if (!dir) return;
  for (const char* file : team_hex_meshes) {
    CAPTURE(file);
    const auto m = solids::read_medit((*dir / file).string());
    std::vector<Point> points(std::size_t(m.positions.rows));
    for (index_t v = 0; v < m.positions.rows; ++v)
      for (int x = 0; x < 3; ++x) points[std::size_t(v)][x] = m.positions(v, x);
    check_refined_operators<B>(CellMesh<>{m.cells.vertices, m.cells.offsets.clone(), m.cells.indices.clone()}, points, 1);
  }
}

}  // namespace spmesh::test::solid_topology
