// Catmull-Clark eval of a quad level through its parent's faces (quads.hpp's numbering). A quad
// level whose parent is a quad level too comes in groups: parent face f gave the four quads
// 4 f + a, around its face point, between its edges' points and its corners' vertex points.
// One thread per group (on the GPU four, a lane per corner) reads those 9 points and the
// parent's corners, edge codes and twins, a quarter of the level's own, and makes without a
// ring walk: the group's 4 face points (Eq. 6), the points of its 4 inner edges (Eq. 2) and of
// the halves of the parent edges it owns (with the two face points across, from the twin
// face's centre and edge points), the vertex points of its centre and of its owned edges'
// points (valence 4, Eq. 14).
// The vertex points of the parent's vertices (any valence) then take a ring walk on the
// parent, a quarter of the level's vertices. Special vertices and sharp edges are redone after
// (quad_eval.hpp). One writer per output: the same bits every run.
#pragma once

#include "schemes/catmull_clark/plan.hpp"
#include "schemes/catmull_clark/quads.hpp"
#include "schemes/half_edges/points.hpp"
#include "schemes/tuning.hpp"

#include <cstdint>

namespace spmesh::schemes::catmull_clark {

namespace detail {

// Where a quad level's points lie, from its parent Q's view: the level's vertices are Q's
// vertex points [0, V_Q), face points [V_Q, V_Q + F_Q) and edge points; the child's (out) are
// the level's vertex points, then one face point per Q corner, then edge points (Q edge e's
// halves 2 e, 2 e + 1, then corner h's inner edge 2 E_Q + h).
struct GroupRows {
  index_t centres, edge_points;  // in the level: Q's face points and edge points
  index_t face_points, child_edges;  // in the child
  SPMESH_HD explicit GroupRows(const QuadView& q)
      : centres(q.vertices), edge_points(q.vertices + q.faces),
        face_points(q.vertices + q.faces + q.edges),
        child_edges(q.vertices + q.faces + q.edges + 4 * q.faces) {}
  SPMESH_HD index_t edge_point(index_t code) const { return edge_points + (code >> 1); }
};

// The face point of a child quad from its corners in order: vertex point, the edge point after
// it, face centre, the edge point before it (so that the twin face's point across an edge,
// made here again, has the bits its own group writes).
template <class T>
SPMESH_HD T face_point(T vertex, T after, T centre, T before) {
  return T(0.25) * ((vertex + after) + (centre + before));
}
// The smooth point of an edge with ends a, b between faces with points f0, f1 (Eq. 2).
template <class T>
SPMESH_HD T edge_point(T a, T b, T f0, T f1) {
  return T(0.25) * (a + b) + T(0.25) * (f0 + f1);
}

// What a group's thread or lane writes (W components from column c, m of them used).
template <class T, index_t W>
struct GroupPoints : GroupData<QuadView, T, W> {
  using Base = GroupData<QuadView, T, W>;
  using Base::q, Base::k, Base::row, Base::out_row, Base::load;

  // Corner h's child: its face point fp and the point of its inner edge, from the point E of
  // h's edge to the centre C, between fp and the next corner's fn.
  SPMESH_HD void corner(index_t h, const T* fp, const T* fn, const T* E, const T* C, index_t c,
                        index_t m) const {
    const GroupRows at(q);
    T *y = out_row(at.face_points + h) + c, *inner = out_row(at.child_edges + 2 * q.edges + h) + c;
    for (index_t j = 0; j < m; ++j) y[j] = fp[j], inner[j] = edge_point(E[j], C[j], fp[j], fn[j]);
  }

  // Component j of the vertex point of face f's centre C (valence 4), from the sums of the
  // group's edge points and face points.
  SPMESH_HD void centre(index_t f, index_t c, index_t j, T C, T ends, T faces) const {
    const VertexMask four = SmoothMask{}(4);
    out_row(GroupRows(q).centres + f)[c + j] =
        static_cast<T>(four.self) * C + static_cast<T>(four.ring) * (ends + faces);
  }

  // The rows across Q half-edge g (its twin face's centre, and the points of the edges after
  // and before g there), for the faces across a parent edge; g = -1: none, a boundary.
  struct Across {
    index_t centre = -1, after = 0, before = 0;
  };
  SPMESH_HD Across across(index_t g) const {
    if (g < 0) return {};
    const GroupRows at(q);
    const index_t b = g & 3, gf = g >> 2;
    const linalg::Index4 codes = linalg::load4(q.edge_code + 4 * gf);
    return {at.centres + gf, at.edge_point(codes.v[(b + 1) & 3]), at.edge_point(codes.v[(b + 3) & 3])};
  }
  // Their points (x[0] centre, x[1] after, x[2] before).
  SPMESH_HD void load(T (*x)[W], const Across& a, index_t c, index_t m) const {
    if (a.centre < 0) return;
    load(x[0], a.centre, c, m), load(x[1], a.after, c, m), load(x[2], a.before, c, m);
  }

  // Parent edge e, from corner U0 to U1 with point Ee, owned by this group (faces f0, f1 at
  // its ends, centre C), with x the points across (a boundary where `boundary`): its halves'
  // points and its point's vertex point (valence 4). Across, the twin face's children at
  // corners next(g) (at U0) and g (at U1) have the face points g0, g1.
  SPMESH_HD void owned_edge(const T* U0, const T* U1, const T* Ee, const T* C, const T* f0,
                            const T* f1, index_t e, bool boundary, const T (*x)[W], index_t c,
                            index_t m) const {
    const auto rows = this->edge_rows(GroupRows(q), e, c);
    if (boundary) return Base::boundary_edge(rows, U0, U1, Ee, m);
    const auto [first, second, vertex] = rows;
    const VertexMask four = SmoothMask{}(4);
    const T self = static_cast<T>(four.self), ring = static_cast<T>(four.ring);
#pragma unroll
    for (index_t j = 0; j < W; ++j) {
      if (j >= m) continue;
      const T Cg = x[0][j], g0 = face_point(U0[j], x[1][j], Cg, Ee[j]),
              g1 = face_point(U1[j], Ee[j], Cg, x[2][j]);
      first[j] = edge_point(U0[j], Ee[j], f0[j], g0);
      second[j] = edge_point(Ee[j], U1[j], f1[j], g1);
      vertex[j] = self * Ee[j] + ring * (((U0[j] + U1[j]) + (C[j] + Cg)) + ((f0[j] + f1[j]) + (g0 + g1)));
    }
  }
};

// One group per thread (the CPU).
template <class T, index_t W>
struct QuadGroupPoints : GroupPoints<T, W> {
  SPMESH_HD void operator()(index_t f) const {
    const GroupRows at(this->q);
    const linalg::Index4 code = linalg::load4(this->q.edge_code + 4 * f),
                         twin = linalg::load4(this->q.twin + 4 * f);
    const linalg::Index4 u = linalg::load4(this->q.corners + 4 * f);
    for (index_t c = 0; c < this->k; c += W) {
      const index_t m = this->k - c < W ? this->k - c : W;
      T U[4][W], E[4][W], C[W], fp[4][W];
      this->load(C, at.centres + f, c, m);
#pragma unroll
      for (index_t a = 0; a < 4; ++a)
        this->load(U[a], u.v[a], c, m), this->load(E[a], at.edge_point(code.v[a]), c, m);
#pragma unroll
      for (index_t a = 0; a < 4; ++a)
#pragma unroll
        for (index_t j = 0; j < W; ++j) fp[a][j] = face_point(U[a][j], E[a][j], C[j], E[(a + 3) & 3][j]);
#pragma unroll
      for (index_t a = 0; a < 4; ++a) this->corner(4 * f + a, fp[a], fp[(a + 1) & 3], E[a], C, c, m);
      for (index_t j = 0; j < m; ++j)  // in QuadGroupLanes' order
        this->centre(f, c, j, C[j], (E[0][j] + E[1][j]) + (E[2][j] + E[3][j]),
                     (fp[0][j] + fp[1][j]) + (fp[2][j] + fp[3][j]));
      for (index_t a = 0; a < 4; ++a) {
        if (code.v[a] & 1) continue;
        T x[3][W] = {};
        this->load(x, this->across(twin.v[a]), c, m);
        this->owned_edge(U[a], U[(a + 1) & 3], E[a], C, fp[a], fp[(a + 1) & 3], code.v[a] >> 1,
                         twin.v[a] < 0, x, c, m);
      }
    }
  }
};

// A lane per corner (executors with 4 or more lanes, the GPU): lane a loads corner a's vertex
// and edge point, and takes the neighbours' and the group's sums by shuffles.
template <class T, index_t W>
struct QuadGroupLanes : GroupPoints<T, W> {
  SPMESH_HD void operator()(index_t f, int a) const {
    const GroupRows at(this->q);
    const bool live = f < this->q.faces;  // lanes past the end only take part in the shuffles
    const index_t h = 4 * f + a, u = live ? linalg::ldg(this->q.corners + h) : 0,
                  code = live ? linalg::ldg(this->q.edge_code + h) : 1,
                  g = live ? linalg::ldg(this->q.twin + h) : -1;
    const bool owns = (code & 1) == 0;
    const auto across = owns ? this->across(g) : typename GroupPoints<T, W>::Across{};
    for (index_t c = 0; c < this->k; c += W) {
      const index_t m = this->k - c < W ? this->k - c : W;
      T U[W], E[W], C[W], fp[W], Un[W], fn[W], x[3][W] = {};
      this->load(C, live ? at.centres + f : 0, c, m);
      this->load(U, u, c, m);
      this->load(E, live ? at.edge_point(code) : 0, c, m);
      this->load(x, across, c, m);
      T ends[W], faces[W];
#pragma unroll
      for (index_t j = 0; j < W; ++j) {
        fp[j] = face_point(U[j], E[j], C[j], linalg::lane_get<4>(E[j], (a + 3) & 3));
        fn[j] = linalg::lane_get<4>(fp[j], (a + 1) & 3);
        Un[j] = linalg::lane_get<4>(U[j], (a + 1) & 3);
        ends[j] = linalg::lane_all_sum<4>(E[j]), faces[j] = linalg::lane_all_sum<4>(fp[j]);
      }
      if (!live) continue;
      this->corner(h, fp, fn, E, C, c, m);
#pragma unroll
      for (index_t j = 0; j < W; ++j)
        if (j < m && j % 4 == a) this->centre(f, c, j, C[j], ends[j], faces[j]);
      if (owns) this->owned_edge(U, Un, E, C, fp, fn, code >> 1, g < 0, x, c, m);
    }
  }
};

// A parent vertex's ring sums for its vertex point in the level (RingSums' interface, walked on
// the parent Q): the level's ring is the points of Q's edges at the vertex, its faces the
// children at its corners, whose face points are in out.
template <class T, index_t W>
struct ParentRingSums {
  static constexpr int min_blocks_per_sm = tuning::quad_parent_ring_min_blocks_per_sm;
  index_t edges = 0;
  T ring[W] = {}, faces[W] = {};
  SPMESH_HD T total(index_t j) const { return ring[j] + faces[j]; }

  SPMESH_HD ParentRingSums(const QuadView& q, index_t first, const T* P, const T* out, index_t k,
                           index_t c, index_t m) {
    const GroupRows at(q);
    q.for_each_edge_from(first, [&](index_t h, index_t, index_t face) {
      ++edges;
      const T* p = P + std::int64_t(at.edge_point(linalg::ldg(q.edge_code + h))) * k + c;
#pragma unroll
      for (index_t j = 0; j < W; ++j)
        if (j < m) ring[j] += linalg::ldg(p + j);
      if (face < 0) return;
      const T* g = out + std::int64_t(at.face_points + h) * k + c;  // the child at corner h
#pragma unroll
      for (index_t j = 0; j < W; ++j)
        if (j < m) faces[j] += linalg::ldg(g + j);
    });
  }
};

}  // namespace detail

}  // namespace spmesh::schemes::catmull_clark
