// Implicit mapped M M^T (paper section 4.2, Eq. 8-13, 28): A = M M^T {Q}[lambda] without ever
// forming M^T. M(i,k) meets M^T(k,j) exactly when vertices i and j share face k, so every
// collision happens inside one column of M. Q is a sum of circulant maps Q_c^r (Eq. 10):
// Q_c^r(a, b) = 1 iff b = (a + r) mod c, a and b slots (0-based positions) in a face of order
// c. Rather than testing every slot pair against Q, each slot loads only the partners Q names.
//
// Examples: E = M M^T {Q_c + Q_c^(c-1)} counts the faces on each edge (Eq. 8: circulant {1, -1},
// collide -> 1, sum); F = M M^T {Q_c}[gamma] stores the face of each oriented edge
// (Eq. 12, 13: circulant {1}, collide -> k).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>

#include "linalg/convert.hpp"
#include "linalg/maps.hpp"
#include "linalg/mesh_matrix.hpp"

namespace spmesh::linalg {

// Q = sum of Q_c^r over the listed powers r (negative r counts backwards: -1 == c - 1).
struct Circulant {
  static constexpr int capacity = 8;
  int count = 0;
  index_t powers[capacity] = {};

  Circulant() = default;
  Circulant(std::initializer_list<index_t> rs) {
    if (rs.size() > capacity)
      throw DimensionError("Circulant: at most " + std::to_string(capacity) + " powers");
    for (index_t r : rs) powers[count++] = r;
  }
};

// One collision of M(i,k) with M^T(k,j): vertex i at slot_i and vertex j at slot_j of face k,
// a face of `order` vertices.
struct Collision {
  index_t i, j, k, slot_i, slot_j, order;
};

// The value type a collision function produces.
template <class Collide>
using collide_t = decltype(detail::as_emit(std::declval<Collide>()(Collision{})).value);

// A = M M^T {Q}[collide]: collide(Collision) returns a value or an Emit<R>; contributions to
// one A(i,j) are combined by `reduce` in face order, then slot order, then power order.
//
// Row i of A gathers the collisions of vertex i: its positions in M grouped by vertex (a stable
// counting sort: faces ascending, then slots), each position emitting one product per power of
// Q, then sorted by column and reduced (linalg/detail/compress.hpp). Nothing is formed but the
// result and nnz(M) x |Q| products.
template <class Exec, class MeshMatrixT, class Collide, class Reduce = reduce::Sum>
Csr<collide_t<Collide>, typename Exec::space> mmt(Exec& exec, const MeshMatrixT& M, Circulant Q,
                                                  Collide collide, Reduce reduce = {}) {
  using S = typename Exec::space;
  using R = collide_t<Collide>;
  const auto m = M.view();
  const index_t n = M.vertices, nnz = M.nnz(), powers = Q.count;
  const index_t products =
      checked_index(static_cast<std::int64_t>(nnz) * powers, "mmt: collisions (nnz(M) x powers)");
  detail::Segments<R, S> seg{Array<index_t, S>(n + 1), Array<index_t, S>(products),
                             Array<R, S>(products)};
  Array<index_t, S> by_vertex(nnz);
  exec.group_by_key(m.indices, nnz, n, seg.offsets.data(), by_vertex.data());
  const Array<index_t, S> face_of = detail::line_of_positions(exec, m, nnz);
  index_t *so = seg.offsets.data(), *ks = seg.keys.data();
  R* vs = seg.values.data();
  const index_t *bv = by_vertex.data(), *fo = face_of.data();
  exec.for_each(nnz, [=] SPMESH_HD(index_t q) {
    const index_t p = bv[q], k = fo[p], lo = m.begin(k), c = m.end(k) - lo, a = p - lo;
    const index_t i = m.index(p);
    for (int r = 0; r < powers; ++r) {
      const index_t b = ((a + Q.powers[r]) % c + c) % c;
      const index_t j = m.index(lo + b);
      const auto e = detail::as_emit(collide(Collision{i, j, k, a, b, c}));
      ks[q * powers + r] = e.emitted ? j : detail::absent;
      vs[q * powers + r] = e.value;
    }
  });
  exec.for_each(n + 1, [=] SPMESH_HD(index_t i) { so[i] *= powers; });
  return detail::compress(exec, n, n, seg, reduce);
}

}  // namespace spmesh::linalg
