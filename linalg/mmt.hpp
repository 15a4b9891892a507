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

#include "linalg/convert.hpp"
#include "linalg/executor.hpp"
#include "linalg/maps.hpp"
#include "linalg/mesh_matrix.hpp"
#include "linalg/tuning.hpp"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>

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

namespace detail {

// The collisions of vertex i in contribution order (a build_rows producer): its positions in M
// (grouped by vertex: faces ascending, then slots), each meeting the partner of every power.
template <class View, class Collide>
struct CollisionsOfVertex {
  View m;
  const index_t* first;  // vertex i's positions are position[first[i] .. first[i+1])
  const index_t* position;
  const index_t* face_of;  // face of each position (a reduced matrix needs none)
  Circulant Q;
  Collide collide;

  SPMESH_HD std::int64_t bound(index_t i) const {
    return static_cast<std::int64_t>(first[i + 1] - first[i]) * Q.count;
  }
  template <class Sink>
  SPMESH_HD void operator()(index_t i, Sink&& sink) const {
    for (index_t q = first[i]; q < first[i + 1]; ++q) {
      const index_t p = position[q];
      index_t k;
      if constexpr (requires { m.order; })
        k = p / m.order;
      else
        k = face_of[p];
      const index_t lo = m.begin(k), c = m.end(k) - lo, a = p - lo;
#pragma unroll
      for (int r = 0; r < Circulant::capacity; ++r) {
        if (r == Q.count) break;
        const index_t shift = Q.powers[r] % c;
        index_t b = a + (shift < 0 ? shift + c : shift);
        if (b >= c) b -= c;
        const index_t j = m.index(lo + b);
        const auto e = as_emit(collide(Collision{i, j, k, a, b, c}));
        if (e.emitted) sink(j, e.value);
      }
    }
  }
};

}  // namespace detail

// A = M M^T {Q}[collide]: collide(Collision) returns a value or an Emit<R>; contributions to
// one A(i,j) are combined by `reduce` in face order, then slot order, then power order.
// Row i gathers vertex i's collisions from M's positions grouped by vertex; nothing else is
// formed (no M^T, no product list).
template <Executor Exec, class MeshMatrixT, class Collide, class Reduce = reduce::Sum>
Csr<collide_t<Collide>, typename Exec::space> mmt(Exec& exec, const MeshMatrixT& M, Circulant Q,
                                                  Collide collide, Reduce reduce = {}) {
  using S = typename Exec::space;
  const auto m = M.view();
  const index_t n = M.vertices, nnz = M.nnz();
  Array<index_t, S> first(n + 1), position(nnz), face_of;
  exec.group_by_key(m.indices, nnz, n, first.data(), position.data());
  if constexpr (!requires { m.order; }) face_of = detail::line_of_positions(exec, m, nnz);
  const detail::CollisionsOfVertex<decltype(m), Collide> collisions{
      m, first.data(), position.data(), face_of.data(), Q, collide};
  return detail::build_rows<tuning::mmt_row_capacity, collide_t<Collide>>(exec, n, n, collisions,
                                                                          reduce);
}

}  // namespace spmesh::linalg
