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
#include "linalg/maps.hpp"
#include "linalg/mesh_matrix.hpp"

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

// A = M M^T {Q}[collide]: collide(Collision) returns a value or an Emit<R>; contributions to
// one A(i,j) are combined by `reduce` in face order, then slot order, then power order.
template <class Exec, class MeshMatrixT, class Collide, class Reduce = reduce::Sum>
Csr<collide_t<Collide>, typename Exec::space> mmt(Exec& exec, const MeshMatrixT& M, Circulant Q,
                                                  Collide collide, Reduce reduce = {}) {
  using S = typename Exec::space;
  using R = collide_t<Collide>;
  const auto m = M.view();
  const index_t n = M.vertices;
  const index_t slots = checked_index(static_cast<std::int64_t>(M.nnz()) * Q.count,
                                      "mmt: collisions (nnz(M) x powers)");
  // Every (slot, power) pair may emit; record each with a flag, then compact.
  Array<std::uint64_t, S> keys(slots);
  Array<R, S> values(slots);
  Array<unsigned char, S> emitted(slots);
  std::uint64_t* ks = keys.data();
  R* vs = values.data();
  unsigned char* em = emitted.data();
  const index_t base = M.faces == 0 ? 0 : m.begin(0);
  exec.for_each(m.outer, [=] SPMESH_HD(index_t k) {
    const index_t lo = m.begin(k), c = m.end(k) - lo;
    for (index_t a = 0; a < c; ++a)
      for (int r = 0; r < Q.count; ++r) {
        const index_t b = ((a + Q.powers[r]) % c + c) % c;
        const index_t i = m.index(lo + a), j = m.index(lo + b);
        const auto e = detail::as_emit(collide(Collision{i, j, k, a, b, c}));
        const std::int64_t at = static_cast<std::int64_t>(lo - base + a) * Q.count + r;
        ks[at] = static_cast<std::uint64_t>(i) * static_cast<std::uint64_t>(n) + j;
        vs[at] = e.value;
        em[at] = e.emitted ? 1 : 0;
      }
  });
  const index_t count = exec.count_if(slots, [=] SPMESH_HD(index_t p) { return em[p] != 0; });
  Array<std::uint64_t, S> kept_keys(count);
  Array<R, S> kept_values(count);
  exec.select_if(ks, slots, kept_keys.data(), [=] SPMESH_HD(index_t p) { return em[p] != 0; });
  exec.select_if(vs, slots, kept_values.data(), [=] SPMESH_HD(index_t p) { return em[p] != 0; });
  return detail::assemble(exec, n, n, std::move(kept_keys), kept_values.data(), reduce);
}

}  // namespace spmesh::linalg
