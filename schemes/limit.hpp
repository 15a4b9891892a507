// Limit surfaces at the vertices of a level (issue 25's "limit at vertices"): the position on
// the limit surface of every vertex of level L of a mesh, and its two tangents, from the
// vertex's limit masks on level L (half_edges/limits.hpp with the scheme's Scheme::LimitMask):
// what OpenSubdiv's Far::PrimvarRefiner::Limit gives on its level L, in spmesh's vertex order
// (that of build/eval and `spmesh subdivide`), with creases, corners and both boundary modes.
//
// The masks are the limit where a vertex's edges follow the rules they assume; OpenSubdiv's, and
// so these, take a dart (a crease's end inside the mesh) by the smooth masks and a semi-sharp
// feature that has not decayed at level L by the sharp ones, which are near its limit only: there
// a deeper level comes closer (exact evaluation at any parameter is limit evaluation's next step).
//
// Catmull-Clark's masks hold for quads: where the base mesh has other faces, level 0's limits
// are those of its vertices' level-1 vertex points (the same points of the limit surface; the
// tangents are level 1's masks', whose sizes differ from level 0's), where OpenSubdiv's Limit
// applies the quad masks to the polygons' corners as they are, which is not their limit.
#pragma once

#include "linalg/spgemm.hpp"
#include "schemes/half_edges/limits.hpp"
#include "schemes/subdivision.hpp"

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace spmesh::schemes {

template <class T, class S = linalg::Host>
struct VertexLimits {
  RefinedMesh<S> mesh;  // level L's faces
  linalg::Dense<T, S> position, tangent1, tangent2;
};

namespace detail {

// The half-edge build's sink of the limits (here and catmull_clark/limit_at.hpp): every level in
// a plan, the last one with its topology and rules, and the first one's table of sharp edges.
template <class Exec, class PlanT, class Level>
struct KeepLevelsAndLast : KeepLevels<PlanT> {
  static constexpr bool keeps_last_level = true;
  using S = typename Exec::space;
  Exec& exec;
  std::optional<Level>& last;
  std::optional<SharpTable<S>>& table;

  void first(const HalfEdgeLevel<S>& L) {
    if (!table) table.emplace(sharp_table(exec, L));
  }
  template <class L>
  void ready(const L& level) { first(level); }
  template <class L>
  void last_level(L&& level) {
    first(level);
    last.emplace(std::forward<L>(level));
  }
};

// The first `rows` rows of X.
template <class Exec, class T, class S>
linalg::Dense<T, S> first_rows(Exec& exec, const linalg::Dense<T, S>& X, index_t rows) {
  linalg::Dense<T, S> out(rows, X.cols);
  exec.copy(X.data.data(), rows * X.cols, out.data.data());
  return out;
}

// The first `rows` rows of A.
template <class Exec, class T, class S>
linalg::Csr<T, S> first_rows(Exec& exec, const linalg::Csr<T, S>& A, index_t rows) {
  const index_t nnz = exec.read(A.offsets.data() + rows);
  linalg::Array<index_t, S> offsets(rows + 1), indices(nnz);
  linalg::Array<T, S> values(nnz);
  exec.copy(A.offsets.data(), rows + 1, offsets.data());
  exec.copy(A.indices.data(), nnz, indices.data());
  exec.copy(A.values.data(), nnz, values.data());
  return linalg::Csr<T, S>(rows, A.cols, std::move(offsets), std::move(indices), std::move(values));
}

// A copy of M.
template <class Exec, class S>
linalg::MeshMatrix<S> copy_mesh(Exec& exec, const linalg::MeshMatrix<S>& M) {
  linalg::Array<index_t, S> offsets(M.offsets.size()), indices(M.indices.size());
  exec.copy(M.offsets.data(), M.offsets.size(), offsets.data());
  exec.copy(M.indices.data(), M.indices.size(), indices.data());
  return linalg::MeshMatrix<S>(M.vertices, std::move(offsets), std::move(indices));
}

// OpenSubdiv starts the ring of an edge's child vertex at the child edge toward the end of the
// edge that its first face runs to; spmesh at the end of the edge's half-edge along. They differ
// where the half-edge along lies in the edge's second face (an inner edge's only), and the
// child's ring, and that of every vertex point below it, then starts half way round (2 of 4 edges,
// 3 of 6); every other vertex's ring starts as OpenSubdiv's does. An edge's first face is the one
// of lower index but for the inner edges that Mask::last_inner_edge_turned says (Catmull-Clark's
// inner edge of a face's last corner runs from the last corner's child to the first's) and the
// edges below them.
// Marks those vertices of level L (`levels` its parents, levels[0] the first) in `turned`.
// ring_starts' step at one level L: marks the edge points of its inner edges whose half-edge
// along lies in their second face (`later`: per edge, its first face is its later; null: none
// is), and returns the child level's `later` where `child` asks (a half of an edge inherits it;
// an inner edge, one per half-edge here numbered after the halves, of a face's last corner is
// turned where the scheme's are).
template <class Mask, class Exec, class L, class S = typename Exec::space>
linalg::Array<std::uint8_t, S> mark_turned(Exec& exec, const L& level, const std::uint8_t* later, std::uint8_t* mark,
                                           bool child) {
  const auto t = view(level);
  const index_t E = level.edges, halves = level.twin.size(), first_edge_point = level.child_vertices() - E;
  exec.for_each(halves, [=] SPMESH_HD(index_t h) {
    const index_t code = t.edge_code[h], twin = t.twin[h];
    if ((code & 1) || twin < 0) return;
    const index_t face = t.face(h), other = t.face(twin);
    const bool first = later && later[code >> 1] ? face > other : face < other;
    if (!first) mark[first_edge_point + (code >> 1)] = 1;
  });
  linalg::Array<std::uint8_t, S> out(child ? 2 * E + halves : 0);
  std::uint8_t* own = out.data();
  exec.for_each(out.size(), [=] SPMESH_HD(index_t c) {
    if (c < 2 * E) {
      own[c] = later ? later[c >> 1] : 0;
    } else {
      const index_t h = c - 2 * E, f = t.face(h);
      own[c] = Mask::last_inner_edge_turned && h - t.begin(f) == t.size(f) - 1;
    }
  });
  return out;
}

// The vertices of level L (`levels` its parents) whose ring starts half way round (above).
template <class Mask, class Exec, class Level, class S = typename Exec::space>
linalg::Array<std::uint8_t, S> ring_starts(Exec& exec, const std::vector<Level>& levels, index_t vertices) {
  linalg::Array<std::uint8_t, S> turned(vertices), later;
  std::uint8_t* mark = turned.data();
  exec.for_each(vertices, [=] SPMESH_HD(index_t v) { mark[v] = 0; });
  for (std::size_t l = 0; l < levels.size(); ++l)
    visit_level(levels[l], [&](const auto& L) {
      if constexpr (std::is_base_of_v<HalfEdgeLevel<S>, std::remove_cvref_t<decltype(L)>>)
        later = mark_turned<Mask>(exec, L, l == 0 ? nullptr : later.data(), mark, l + 1 < levels.size());
    });
  return turned;
}

// The build behind limit_at_vertices and limit_matrices: the plan of `levels` levels and its
// last level with its topology and rules; f(plan, L, terms) with that level L and its
// LimitTerms.
template <class Scheme, class Exec, class F, class S = typename Exec::space>
void with_limit_terms(Exec& exec, linalg::MeshMatrix<S> M, const Sharpness<S>& C, int levels,
                      const Options& options, F&& f) {
  using Level = typename Scheme::template Level<S>;
  using Mask = typename Scheme::LimitMask;
  Plan<Scheme, S> plan;
  plan.options = options;
  std::optional<Level> last;
  std::optional<SharpTable<S>> table;
  KeepLevelsAndLast<Exec, Plan<Scheme, S>, Level> sink{{plan}, exec, last, table};
  build_half_edges<Scheme>(exec, std::move(M), C, levels, options, sink);
  visit_level(*last, [&](auto& L) {
    if constexpr (std::is_base_of_v<HalfEdgeLevel<S>, std::remove_cvref_t<decltype(L)>>) {
      const auto turned = ring_starts<Mask>(exec, plan.levels, L.vertices);
      linalg::Array<float, S> sharpness;
      f(plan, L, limit_terms<Mask>(exec, L, table->at(levels), turned, sharpness));
    }
  });
}

// Whether level 0 of M is taken at level 1 (Catmull-Clark's polygons: above).
template <class Scheme, class Exec, class S>
bool polygons_at_level_0(Exec& exec, const linalg::MeshMatrix<S>& M, int levels) {
  return levels == 0 && !Scheme::triangles_only && linalg::has_faces_other_than(exec, M, 4);
}


}  // namespace detail

// The limit positions and tangents of the vertices of level `levels` of mesh M (level-0
// sharpness C, vertex data P0: base vertices x k), for a scheme with limit masks
// (Scheme::LimitMask: Catmull-Clark, Loop).
template <class Scheme, class Exec, class T, class S = typename Exec::space>
VertexLimits<T, S> limit_at_vertices(Exec& exec, linalg::MeshMatrix<S> M, Sharpness<S> C, int levels,
                                     const linalg::Dense<T, S>& P0, Options options = {}) {
  detail::check_input<Scheme>(exec, M, C, levels, false);
  check_vertex_data(P0.rows, M.vertices, "limit_at_vertices");
  if (detail::polygons_at_level_0<Scheme>(exec, M, levels)) {
    const index_t V = M.vertices;
    auto at_one = limit_at_vertices<Scheme>(exec, detail::copy_mesh(exec, M), std::move(C), 1, P0, options);
    return {RefinedMesh<S>(std::move(M)), detail::first_rows(exec, at_one.position, V),
            detail::first_rows(exec, at_one.tangent1, V), detail::first_rows(exec, at_one.tangent2, V)};
  }
  VertexLimits<T, S> out;
  detail::with_limit_terms<Scheme>(exec, std::move(M), C, levels, options, [&](const auto& plan, auto& L, const auto& terms) {
    vertex_limits(exec, terms, eval_by_levels(exec, plan, P0), out.position, out.tangent1, out.tangent2);
    out.mesh = RefinedMesh<S>(std::move(L.M));
  });
  return out;
}

// The same as sparse matrices of the base vertices: W (level-L vertices x base vertices) for the
// positions and each tangent, so that limit_at_vertices' positions are W_position P0, one SpMV
// a pose (the level's masks composed with the refinement matrix R, in double, stored as T).
template <class T, class S>
struct LimitMatrices {
  linalg::Csr<T, S> position, tangent1, tangent2;
};
template <class T, class Scheme, class Exec, class S = typename Exec::space>
LimitMatrices<T, S> limit_matrices(Exec& exec, linalg::MeshMatrix<S> M, Sharpness<S> C, int levels,
                                   Options options = {}) {
  detail::check_input<Scheme>(exec, M, C, levels, false);
  if (detail::polygons_at_level_0<Scheme>(exec, M, levels)) {
    const index_t V = M.vertices;
    auto at_one = limit_matrices<T, Scheme>(exec, std::move(M), std::move(C), 1, options);
    return {detail::first_rows(exec, at_one.position, V), detail::first_rows(exec, at_one.tangent1, V),
            detail::first_rows(exec, at_one.tangent2, V)};
  }
  LimitMatrices<T, S> out;
  detail::with_limit_terms<Scheme>(exec, std::move(M), C, levels, options, [&](const auto& plan, auto& L, const auto& terms) {
    auto W = limit_matrices(exec, terms, L.vertices);
    if (levels > 0) {  // the plan's levels (its refined mesh is L's, left empty by the build)
      const auto R = refinement_matrix<double>(exec, plan);
      for (auto& w : W) w = linalg::spgemm(exec, w, R);
    }
    out.position = linalg::cast_values<T>(exec, std::move(W[0]));
    out.tangent1 = linalg::cast_values<T>(exec, std::move(W[1]));
    out.tangent2 = linalg::cast_values<T>(exec, std::move(W[2]));
  });
  return out;
}

// Unit normals a x b of two blocks of tangents (rows of 3), on the executor, in double before
// rounding to T; zero where the tangents are parallel or zero. Those of limit_at_vertices'
// tangents, and of limit_at_samples' u and v derivatives.
template <class T>
struct UnitNormals {
  const T *a, *b;
  T* normal;
  SPMESH_HD void operator()(index_t p) const {
    const double x[3] = {double(a[3 * p]), double(a[3 * p + 1]), double(a[3 * p + 2])};
    const double y[3] = {double(b[3 * p]), double(b[3 * p + 1]), double(b[3 * p + 2])};
    const double cross[3] = {x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]};
    const double length = sqrt(cross[0] * cross[0] + cross[1] * cross[1] + cross[2] * cross[2]);
    for (int c = 0; c < 3; ++c) normal[3 * p + c] = length > 0 ? T(cross[c] / length) : T(0);
  }
};
template <class Exec, class T, class S = typename Exec::space>
linalg::Dense<T, S> unit_normals(Exec& exec, const linalg::Dense<T, S>& a, const linalg::Dense<T, S>& b) {
  if (a.cols != 3 || b.cols != 3 || a.rows != b.rows)
    throw DimensionError("unit_normals: tangents of " + std::to_string(a.rows) + " x " + std::to_string(a.cols) +
                         " and " + std::to_string(b.rows) + " x " + std::to_string(b.cols) + ", not two blocks of n x 3");
  linalg::Dense<T, S> normal(a.rows, 3);
  exec.for_each(a.rows, UnitNormals<T>{a.data.data(), b.data.data(), normal.data.data()});
  return normal;
}

}  // namespace spmesh::schemes
