// Loop eval of a triangle level through its parent's faces (triangles.hpp's numbering), as
// Catmull-Clark's group_eval.hpp: parent face f gave the four triangles 4 f + a, between its
// corners' vertex points U_a and its edges' points E_a. One thread per group (on the GPU a lane
// per corner) reads those 6 points and the parent's corners, edge codes and twins, and makes
// without a ring walk: the points of the middle triangle's 3 edges and of the halves of the
// parent edges it owns (Eq. 35, with the two vertices across from the twin face's edge
// points), and the vertex points of its owned edges' points (valence 6, Eq. 33). The vertex
// points of the parent's vertices then take a ring walk on the parent. Special vertices and
// sharp edges are redone after (triangle_eval.hpp). One writer per output: the same bits every
// run.
#pragma once

#include "linalg/lanes.hpp"
#include "schemes/half_edges/points.hpp"
#include "schemes/loop/plan.hpp"
#include "schemes/loop/triangles.hpp"
#include "schemes/tuning.hpp"

#include <cstdint>

namespace spmesh::schemes::loop::detail {

// Where a triangle level's points lie, from its parent Q's view: the level's vertices are Q's
// vertex points [0, V_Q), then its edge points; the child's (out) are the level's vertex points,
// then edge points (Q edge e's halves 2 e, 2 e + 1, then the inner edges 2 E_Q + 3 f + s).
struct GroupRows {
  index_t edge_points, child_edges;
  SPMESH_HD explicit GroupRows(const TriangleView& q)
      : edge_points(q.vertices), child_edges(q.vertices + q.edges) {}
  SPMESH_HD index_t edge_point(index_t code) const { return edge_points + (code >> 1); }
};

// The smooth point of an edge with ends a, b and opposite vertices o0, o1 (TriangleEdgePoints').
template <class T>
SPMESH_HD T edge_point(T a, T b, T o0, T o1) {
  return T(0.375) * (a + b) + T(0.125) * (o0 + o1);
}

// What a group's thread or lane writes (W components from column c, m of them used).
template <class T, index_t W>
struct GroupPoints : GroupData<TriangleView, T, W> {
  using Base = GroupData<TriangleView, T, W>;
  using Base::q, Base::k, Base::row, Base::out_row, Base::load;

  // The inner edge at corner a of face f (the middle triangle's edge from E_(a-1) to E_a, the
  // corner's U_a and E_(a+1) opposite).
  SPMESH_HD void inner(index_t f, index_t a, const T* U, const T* E, const T* Eprev,
                       const T* Enext, index_t c, index_t m) const {
    T* y = out_row(GroupRows(q).child_edges + 2 * q.edges + 3 * f + (a + 1) % 3) + c;
    for (index_t j = 0; j < m; ++j) y[j] = edge_point(Eprev[j], E[j], U[j], Enext[j]);
  }

  // The rows across Q half-edge g: the points of the twin face's edges after and before g,
  // opposite the halves of g's edge; g = -1: none, a boundary.
  struct Across {
    index_t after = -1, before = 0;
  };
  SPMESH_HD Across across(index_t g) const {
    if (g < 0) return {};
    const GroupRows at(q);
    return {at.edge_point(linalg::ldg(q.edge_code + q.next(g))),
            at.edge_point(linalg::ldg(q.edge_code + q.prev(g)))};
  }
  SPMESH_HD void load(T (*x)[W], const Across& a, index_t c, index_t m) const {
    if (a.after < 0) return;
    load(x[0], a.after, c, m), load(x[1], a.before, c, m);
  }

  // Parent edge e, from corner U0 to U1 with point Ee, owned by this group (the group's other
  // edge points: Eprev at U0, Enext at U1), with x the points across (a boundary where
  // `boundary`): its halves' points and its point's vertex point (valence 6).
  SPMESH_HD void owned_edge(const T* U0, const T* U1, const T* Ee, const T* Eprev,
                            const T* Enext, index_t e, bool boundary, const T (*x)[W], index_t c,
                            index_t m) const {
    const auto rows = this->edge_rows(GroupRows(q), e, c);
    if (boundary) return Base::boundary_edge(rows, U0, U1, Ee, m);
    const auto [first, second, vertex] = rows;
    const VertexMask six = SmoothMask{}(6);
    const T self = static_cast<T>(six.self), ring = static_cast<T>(six.ring);
#pragma unroll
    for (index_t j = 0; j < W; ++j) {
      if (j >= m) continue;
      first[j] = edge_point(U0[j], Ee[j], Eprev[j], x[0][j]);
      second[j] = edge_point(Ee[j], U1[j], Enext[j], x[1][j]);
      vertex[j] = self * Ee[j] + ring * (((U0[j] + U1[j]) + (Eprev[j] + Enext[j])) + (x[0][j] + x[1][j]));
    }
  }
};

// One group per thread (the CPU).
template <class T, index_t W>
struct TriangleGroupPoints : GroupPoints<T, W> {
  SPMESH_HD void operator()(index_t f) const {
    const GroupRows at(this->q);
    index_t u[3], code[3], twin[3];
    for (index_t a = 0; a < 3; ++a) {
      const index_t h = 3 * f + a;
      u[a] = linalg::ldg(this->q.corners + h), code[a] = linalg::ldg(this->q.edge_code + h),
      twin[a] = linalg::ldg(this->q.twin + h);
    }
    for (index_t c = 0; c < this->k; c += W) {
      const index_t m = this->k - c < W ? this->k - c : W;
      T U[3][W], E[3][W];
      for (index_t a = 0; a < 3; ++a)
        this->load(U[a], u[a], c, m), this->load(E[a], at.edge_point(code[a]), c, m);
      for (index_t a = 0; a < 3; ++a) {
        const index_t n = (a + 1) % 3, p = (a + 2) % 3;
        this->inner(f, a, U[a], E[a], E[p], E[n], c, m);
        if (code[a] & 1) continue;
        T x[2][W] = {};
        this->load(x, this->across(twin[a]), c, m);
        this->owned_edge(U[a], U[n], E[a], E[p], E[n], code[a] >> 1, twin[a] < 0, x, c, m);
      }
    }
  }
};

// A lane per corner (executors with 4 or more lanes, the GPU; the fourth lane only takes part
// in the shuffles): lane a loads corner a's vertex and edge point and takes its neighbours' by
// shuffles.
template <class T, index_t W>
struct TriangleGroupLanes : GroupPoints<T, W> {
  SPMESH_HD void operator()(index_t f, int a) const {
    const GroupRows at(this->q);
    const bool live = f < this->q.faces && a < 3;
    const index_t h = 3 * f + a, u = live ? linalg::ldg(this->q.corners + h) : 0,
                  code = live ? linalg::ldg(this->q.edge_code + h) : 1,
                  g = live ? linalg::ldg(this->q.twin + h) : -1;
    const bool owns = (code & 1) == 0;
    const auto across = owns ? this->across(g) : typename GroupPoints<T, W>::Across{};
    const int n = (a + 1) % 3, p = (a + 2) % 3;
    for (index_t c = 0; c < this->k; c += W) {
      const index_t m = this->k - c < W ? this->k - c : W;
      T U[W], E[W], Un[W], En[W], Ep[W], x[2][W] = {};
      this->load(U, u, c, m);
      this->load(E, live ? at.edge_point(code) : 0, c, m);
      this->load(x, across, c, m);
#pragma unroll
      for (index_t j = 0; j < W; ++j) {
        Un[j] = linalg::lane_get<4>(U[j], n);
        En[j] = linalg::lane_get<4>(E[j], n), Ep[j] = linalg::lane_get<4>(E[j], p);
      }
      if (!live) continue;
      this->inner(f, a, U, E, Ep, En, c, m);
      if (owns) this->owned_edge(U, Un, E, Ep, En, code >> 1, g < 0, x, c, m);
    }
  }
};

// A parent vertex's ring sum for its vertex point in the level (RingSum's interface, walked on
// the parent Q): the level's ring is the points of Q's edges at the vertex.
template <class T, index_t W>
struct ParentRingSum {
  static constexpr int min_blocks_per_sm = tuning::triangle_ring_min_blocks_per_sm;  // its walks
  index_t edges = 0;
  T sum[W] = {};
  SPMESH_HD T total(index_t j) const { return sum[j]; }

  SPMESH_HD ParentRingSum(const TriangleView& q, index_t first, const T* P, const T*, index_t k,
                          index_t c, index_t m) {
    const GroupRows at(q);
    q.for_each_edge_from(first, [&](index_t h, index_t, index_t) {
      ++edges;
      const T* p = P + std::int64_t(at.edge_point(linalg::ldg(q.edge_code + h))) * k + c;
#pragma unroll
      for (index_t j = 0; j < W; ++j)
        if (j < m) sum[j] += linalg::ldg(p + j);
    });
  }
};

}  // namespace spmesh::schemes::loop::detail
