// Mesh validity checks: face sides bucketed by their lower vertex give the edges (manifold,
// orientation), and a union-find over corners joined across those edges gives the fans.
#include "meshops/checks.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <span>
#include <vector>

namespace spmesh::meshops {

namespace {

[[noreturn]] void fail(const std::string& source, const std::string& what) {
  throw InputError(source + ": " + what);
}

std::string str(index_t i) { return std::to_string(i); }

// How check_mesh names a mesh and its faces: ids count from 0 (the messages say so), and a
// face of a triangulated mesh is also named by the input face it came from.
struct Names {
  const std::string& source;
  const std::vector<index_t>& input_faces;

  std::string face(index_t f) const {
    if (input_faces.empty()) return str(f);
    return str(f) + " (of input face " + str(input_faces[static_cast<std::size_t>(f)]) + ")";
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(source + ": " + what + " (ids count from 0)");
  }
};

void check_finite(const Names& names, const PolyMesh& mesh) {
  const char* axis[] = {"x", "y", "z"};
  for (index_t v = 0; v < mesh.positions.rows; ++v)
    for (index_t c = 0; c < 3; ++c)
      if (!std::isfinite(mesh.positions(v, c)))
        names.fail("vertex " + str(v) + " has a non-finite coordinate (" + axis[c] + " = " +
                              std::to_string(mesh.positions(v, c)) + ")");
}

// A marker per vertex (the last face seen there) finds repeats in O(nnz), even in huge faces.
void check_simple_faces(const Names& names, const linalg::MeshMatrix<>& M) {
  std::vector<index_t> seen_in(M.vertices, -1);
  for (index_t f = 0; f < M.faces; ++f)
    for (index_t p = M.offsets[f]; p < M.offsets[f + 1]; ++p) {
      const index_t v = M.indices[p];
      if (seen_in[v] == f) names.fail("face " + names.face(f) + " lists vertex " + str(v) + " twice");
      seen_in[v] = f;
    }
}

// The face sides of M: side p runs from corner p (vertex indices[p]) to corner next[p] of the
// same face, and sides on the same undirected edge are adjacent in `order`.
struct Sides {
  const linalg::MeshMatrix<>& M;
  std::vector<index_t> face, next, order;

  index_t from(index_t p) const { return M.indices[p]; }
  index_t to(index_t p) const { return M.indices[next[p]]; }
  index_t lo(index_t p) const { return std::min(from(p), to(p)); }
  index_t hi(index_t p) const { return std::max(from(p), to(p)); }
};

// Counting sort by the lower vertex, then a sort by the higher one inside each (small) bucket:
// O(nnz + sum b log b) rather than one O(nnz log nnz) sort of all sides.
Sides face_sides(const linalg::MeshMatrix<>& M) {
  const index_t nnz = M.nnz();
  Sides s{M, std::vector<index_t>(nnz), std::vector<index_t>(nnz), std::vector<index_t>(nnz)};
  for (index_t f = 0; f < M.faces; ++f)
    for (index_t p = M.offsets[f]; p < M.offsets[f + 1]; ++p) {
      s.face[p] = f;
      s.next[p] = p + 1 < M.offsets[f + 1] ? p + 1 : M.offsets[f];
    }
  std::vector<index_t> start(static_cast<std::size_t>(M.vertices) + 1, 0);
  for (index_t p = 0; p < nnz; ++p) ++start[s.lo(p) + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<index_t> fill(start.begin(), start.end() - 1);
  for (index_t p = 0; p < nnz; ++p) s.order[fill[s.lo(p)]++] = p;
  for (index_t v = 0; v < M.vertices; ++v)
    std::sort(s.order.begin() + start[v], s.order.begin() + start[v + 1],
              [&](index_t a, index_t b) { return std::pair(s.hi(a), a) < std::pair(s.hi(b), b); });
  return s;
}

// Calls visit(sides) once per undirected edge with the sides on it, in (lo, hi) order.
template <class Visit>
void for_each_edge(const Sides& s, Visit&& visit) {
  const std::size_t n = s.order.size();
  for (std::size_t b = 0; b < n;) {
    std::size_t e = b + 1;
    while (e < n && s.lo(s.order[e]) == s.lo(s.order[b]) && s.hi(s.order[e]) == s.hi(s.order[b]))
      ++e;
    visit(std::span<const index_t>(s.order.data() + b, e - b));
    b = e;
  }
}

std::string face_list(const Names& names, const Sides& s, std::span<const index_t> sides) {
  constexpr std::size_t shown = 6;
  std::string out;
  for (std::size_t k = 0; k < std::min(sides.size(), shown); ++k)
    out += (k ? ", " : "") + names.face(s.face[sides[k]]);
  if (sides.size() > shown) out += " and " + std::to_string(sides.size() - shown) + " more";
  return out;
}

// Edges on more than two face sides first: orientation means nothing around such an edge.
void check_edges(const Names& names, const Sides& s) {
  for_each_edge(s, [&](std::span<const index_t> sides) {
    if (sides.size() > 2)
      names.fail("non-manifold edge " + str(s.lo(sides[0])) + "-" + str(s.hi(sides[0])) + ": on " +
                 std::to_string(sides.size()) + " faces (" + face_list(names, s, sides) + ")");
  });
  for_each_edge(s, [&](std::span<const index_t> sides) {
    if (sides.size() == 2 && s.from(sides[0]) == s.from(sides[1]))
      names.fail("inconsistent orientation: faces " + names.face(s.face[sides[0]]) + " and " +
                 names.face(s.face[sides[1]]) + " both have the directed edge " +
                 str(s.from(sides[0])) + " -> " + str(s.to(sides[0])));
  });
}

index_t find(std::vector<index_t>& parent, index_t c) {
  while (parent[c] != c) c = parent[c] = parent[parent[c]];  // path halving
  return c;
}

// Corners p (face s.face[p] at vertex indices[p]) are joined when their faces share an edge at
// that vertex; the corners at one vertex must end up in one set, a single fan.
void check_fans(const Names& names, const Sides& s) {
  std::vector<index_t> parent(s.order.size());
  std::iota(parent.begin(), parent.end(), 0);
  auto join = [&](index_t a, index_t b) { parent[find(parent, a)] = find(parent, b); };
  for_each_edge(s, [&](std::span<const index_t> sides) {
    if (sides.size() != 2) return;
    const index_t a = sides[0], b = sides[1];  // a: i -> j, b: j -> i
    join(a, s.next[b]);                        // the two corners at i
    join(s.next[a], b);                        // the two corners at j
  });
  std::vector<index_t> fan(s.M.vertices, -1), fan_face(s.M.vertices, -1);
  for (index_t p = 0; p < static_cast<index_t>(parent.size()); ++p) {
    const index_t v = s.from(p), root = find(parent, p);
    if (fan[v] < 0)
      fan[v] = root, fan_face[v] = s.face[p];
    else if (fan[v] != root)
      names.fail("non-manifold vertex " + str(v) + ": its faces form more than one fan (faces " +
                 names.face(fan_face[v]) + " and " + names.face(s.face[p]) +
                 " meet there without a path of shared edges around it)");
  }
}

}  // namespace

void check_mesh_matrix(const std::string& source, const linalg::MeshMatrix<>& M,
                       index_t position_rows, index_t position_cols) {
  if (position_rows != M.vertices || position_cols != 3)
    throw DimensionError(source + ": positions are " + str(position_rows) + " x " +
                         str(position_cols) + ", the mesh matrix needs " + str(M.vertices) +
                         " x 3");
  if (M.offsets.size() != M.faces + 1) {
    if (M.faces == 0 && M.nnz() == 0) return;  // default-constructed: no faces at all
    fail(source,
         "mesh matrix has " + str(M.offsets.size()) + " offsets for " + str(M.faces) + " faces");
  }
  if (M.offsets[0] != 0 || M.offsets[M.faces] != M.nnz())
    fail(source, "mesh matrix offsets run from " + str(M.offsets[0]) + " to " +
                     str(M.offsets[M.faces]) + ", expected 0 to " + str(M.nnz()));
  // Orders first: once all are >= 3 the offsets rise from 0 to nnz, so every run is in bounds.
  // Each pass finds the lowest bad face in parallel (the writers check meshes of 10^8 faces).
  index_t short_face = M.faces;
#pragma omp parallel for reduction(min : short_face) schedule(static)
  for (index_t f = 0; f < M.faces; ++f)
    if (M.offsets[f + 1] - M.offsets[f] < 3 && f < short_face) short_face = f;
  if (const index_t f = short_face; f < M.faces)
    fail(source, "face " + str(f) + " has " + str(M.offsets[f + 1] - M.offsets[f]) +
                     " vertices, needs at least 3 (ids count from 0)");
  index_t bad_face = M.faces;
#pragma omp parallel for reduction(min : bad_face) schedule(static)
  for (index_t f = 0; f < M.faces; ++f)
    for (index_t p = M.offsets[f]; p < M.offsets[f + 1]; ++p)
      if ((M.indices[p] < 0 || M.indices[p] >= M.vertices) && f < bad_face) bad_face = f;
  if (const index_t f = bad_face; f < M.faces)
    for (index_t p = M.offsets[f]; p < M.offsets[f + 1]; ++p)
      if (M.indices[p] < 0 || M.indices[p] >= M.vertices)
        fail(source, "face " + str(f) + " has vertex index " + str(M.indices[p]) +
                         ", out of range (the mesh has " + str(M.vertices) +
                         " vertices; ids count from 0)");
}

namespace {

template <class T>
index_t first_non_finite_row(const linalg::Dense<T>& P) {
  index_t first = P.rows;
#pragma omp parallel for reduction(min : first) schedule(static)
  for (index_t v = 0; v < P.rows; ++v)
    for (index_t c = 0; c < P.cols; ++c)
      if (!std::isfinite(P(v, c)) && v < first) first = v;
  return first == P.rows ? -1 : first;
}

template <class T>
void check_finite_positions(const std::string& source, const linalg::Dense<T>& P) {
  const index_t v = first_non_finite_row(P);
  if (v < 0) return;
  fail(source, "vertex " + str(v) + " (0-based) is (" + std::to_string(P(v, 0)) + ", " +
                   std::to_string(P(v, 1)) + ", " + std::to_string(P(v, 2)) +
                   "): not finite, not written");
}

}  // namespace

index_t first_non_finite(const linalg::Dense<double>& positions) {
  return first_non_finite_row(positions);
}
index_t first_non_finite(const linalg::Dense<float>& positions) {
  return first_non_finite_row(positions);
}
void check_finite(const std::string& source, const linalg::Dense<double>& positions) {
  check_finite_positions(source, positions);
}
void check_finite(const std::string& source, const linalg::Dense<float>& positions) {
  check_finite_positions(source, positions);
}

void check_mesh(const PolyMesh& mesh) {
  check_mesh_matrix(mesh.source, mesh.M, mesh.positions.rows, mesh.positions.cols);
  const Names names{mesh.source, mesh.input_faces};
  check_finite(names, mesh);
  check_simple_faces(names, mesh.M);
  const Sides sides = face_sides(mesh.M);
  check_edges(names, sides);
  check_fans(names, sides);
}

}  // namespace spmesh::meshops
