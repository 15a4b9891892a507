// Face adjacency and connected components as matrix operations (any executor, the same result
// every run):
//   face_adjacency        A_F = M^T M {the two faces share a side}: faces x faces, A_F(f, g) the
//                         number of sides (edges) faces f and g share, f != g. Row f gathers, for
//                         each side (a, b) of f, the faces around a (M by rows) whose corner after
//                         or before a is b: either orientation, and every face of a non-manifold
//                         edge.
//   connected_components  of any square matrix's pattern taken as an undirected graph (entries
//                         (i, j) and (j, i) alike): labels by min-label propagation, the product
//                         y = A {val -> 1} x over the (min, x) semiring, x the labels (a mapped
//                         SpMV with reduce::Min), each round followed by pointer jumping
//                         (l_i <- l_{l_i}) until nothing changes; each component is then
//                         numbered by the order of its smallest member.
//   vertex_components     of the edge matrix E (vertices joined by an edge);
//   face_components       of A_F (faces joined across an edge; faces meeting at a vertex only
//                         are apart).
// A label's invariant: it is a member of the item's component and no larger than the item, so
// at the fixed point every component holds its smallest member (docs/algebra.md says why).
#pragma once

#include "linalg/convert.hpp"
#include "linalg/maps.hpp"
#include "linalg/mesh_matrix.hpp"
#include "linalg/spmv.hpp"
#include "meshops/topology.hpp"

#include <string>
#include <utility>

namespace spmesh::meshops {

template <class S>
struct Components {
  linalg::Array<index_t, S> component;  // each item's component, 0 .. count - 1
  index_t count = 0;
  index_t rounds = 0;  // propagation rounds taken
};

namespace detail {

// Row f of A_F (a build_rows producer): for each side of face f, the faces around its first
// corner that hold the side too.
struct FacesAcrossSides {
  linalg::MeshView m;
  linalg::CompressedView<index_t> by_vertex;  // M by rows: the faces around a vertex, slot as value

  SPMESH_HD std::int64_t bound(index_t f) const {
    std::int64_t faces = 0;
    for (index_t p = m.begin(f); p < m.end(f); ++p) faces += by_vertex.end(m.index(p)) - by_vertex.begin(m.index(p));
    return faces;
  }
  template <class Sink>
  SPMESH_HD void operator()(index_t f, Sink&& sink) const {
    const index_t begin = m.begin(f), corners = m.end(f) - begin;
    for (index_t s = 0; s < corners; ++s) {
      const index_t a = m.index(begin + s), b = m.index(begin + (s + 1 == corners ? 0 : s + 1));
      for (index_t q = by_vertex.begin(a); q < by_vertex.end(a); ++q) {
        const index_t g = by_vertex.index(q), slot = by_vertex.values[q];
        if (g == f) continue;
        const index_t lo = m.begin(g), c = m.end(g) - lo;
        const index_t next = m.index(lo + (slot + 1 == c ? 0 : slot + 1)), before = m.index(lo + (slot == 0 ? c - 1 : slot - 1));
        if (next == b || before == b) sink(g, index_t(1));
      }
    }
  }
};

}  // namespace detail

template <class Exec, class S = typename Exec::space>
linalg::Csr<index_t, S> face_adjacency(Exec& exec, const linalg::MeshMatrix<S>& M) {
  const auto by_vertex = linalg::to_csr(exec, M);
  return linalg::assemble_rows<index_t>(exec, M.faces, M.faces, detail::FacesAcrossSides{M.view(), by_vertex.view()});
}

template <class Exec, class T, class S = typename Exec::space>
Components<S> connected_components(Exec& exec, const linalg::Csr<T, S>& A) {
  if (A.rows != A.cols)
    throw DimensionError("connected_components: the matrix is " + std::to_string(A.rows) + " x " +
                         std::to_string(A.cols) + "; a graph's adjacency is square");
  const index_t n = A.rows;
  // The pattern both ways: A + A^T's, so a one-sided entry joins its ends too.
  const auto by_columns = linalg::to_csc(exec, A);
  linalg::Array<index_t, S> label(n), hooked(n), from_rows(n), from_columns(n);
  index_t *l = label.data(), *h = hooked.data(), *r = from_rows.data(), *c = from_columns.data();
  exec.for_each(n, [=] SPMESH_HD(index_t i) { l[i] = i; });
  Components<S> out{linalg::Array<index_t, S>(n), 0, 0};
  const auto one = linalg::map::constant(index_t(1));
  for (;;) {
    ++out.rounds;
    linalg::spmv(exec, A, label, from_rows, one, linalg::reduce::Min{});
    linalg::spmv_t(exec, by_columns, label, from_columns, one, linalg::reduce::Min{});
    exec.for_each(n, [=] SPMESH_HD(index_t i) {
      const index_t smallest = r[i] < c[i] ? r[i] : c[i];
      h[i] = smallest < l[i] ? smallest : l[i];
    });
    // Pointer jumping, and whether any label moved.
    const index_t moved = exec.count_if(n, [=] SPMESH_HD(index_t i) { return h[h[i]] != l[i]; });
    exec.for_each(n, [=] SPMESH_HD(index_t i) { r[i] = h[h[i]]; });
    exec.copy(r, n, l);
    if (moved == 0) break;
  }
  // Number the roots (l_i == i) in order; every item takes its root's number.
  index_t* number = out.component.data();
  exec.for_each(n, [=] SPMESH_HD(index_t i) { h[i] = l[i] == i ? 1 : 0; });
  out.count = exec.exclusive_scan(h, h, n);
  exec.for_each(n, [=] SPMESH_HD(index_t i) { number[i] = h[l[i]]; });
  return out;
}

template <class Exec, class S = typename Exec::space>
Components<S> vertex_components(Exec& exec, const linalg::MeshMatrix<S>& M) {
  return connected_components(exec, edge_matrix(exec, M));
}

template <class Exec, class S = typename Exec::space>
Components<S> face_components(Exec& exec, const linalg::MeshMatrix<S>& M) {
  return connected_components(exec, face_adjacency(exec, M));
}

}  // namespace spmesh::meshops
