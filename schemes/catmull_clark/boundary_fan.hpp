// Catmull-Clark's limit near a boundary vertex of k >= 3 quads (k + 1 edges) whose mask is the
// crease rule along the boundary, (P_prev + 6 P + P_next) / 8 (vertex_kind::boundary_fan; either
// boundary mode gives it: corners are vertices of one quad), or of k >= 2 quads pinned by a
// corner tag, the corner rule (vertex_kind::pinned_fan). An unpinned boundary vertex of 2 quads is
// a bicubic boundary patch's (limit_at.hpp), one of 1 quad the smooth corner's (smooth_corner.hpp),
// a pinned one of 1 quad a boundary patch's again. Pinned, the vertex keeps its place and A its
// row; the children's nets are the same (a child's boundary side next to the vertex is the
// boundary curve's B-spline either way: its refinement reads the vertex's point, not its rule).
//
// The fan: spokes 0 to k, the vertex's edges in order from one boundary edge (spoke 0) to the
// other (spoke k), sector j the quad between spokes j and j + 1, s along spoke j and t along spoke
// j + 1 (its corner at the vertex turned so: StamView::Turn). Where every other vertex of those
// quads is regular (the ends of spokes 0 and k boundary vertices of 3 edges, the others inner ones
// of 4), the K = 6k + 3 points of the sectors' 3 x 3 grids (fan_place) subdivide into the same K
// of the child fan, C' = A C, and into the 4 x 4 bicubic nets of each sector's three other
// children, G_(j,r) C (a net's points beyond sector j are sector j - 1's or j + 1's, or beyond the
// boundary the reflection 2 P_0 - P_1, as at any smooth boundary). A has Jordan chains, so its
// powers are tabled (eigenstructure.hpp's tabled_powers, as the smooth corner's): a sample whose
// larger parameter is 2^-(d+1) to 2^-d lies in child r of sector j's quad d levels down, whose net
// is G_(j,r) A^d C = G_(j,r) E^d C + 1 l^T C, l^T the limit at the vertex's weights. The rows of
// G_(j,r) E^d are kept for d below tuning::boundary_fan_tabled_levels (T), deeper ones are those
// times E^(T 2^b) for the bits b of floor(d / T), kept for b below tuning::boundary_fan_powers;
// nearer the vertex than that a sample is taken at that depth, and at the vertex itself its
// position is l^T C, its derivatives those at that depth (the tangents' directions) divided by
// (2 lambda)^depth, lambda E's largest eigenvalue: scaled as a regular vertex's, as Stam's are
// (stam.hpp). A and G_(j,r) are read off spmesh's own refinement of an open fan
// (boundary_fan.cpp), per k and pinned or not, made on first use and kept.
#pragma once

#include "linalg/array.hpp"
#include "linalg/base.hpp"
#include "linalg/intrinsics.hpp"
#include "schemes/catmull_clark/smooth_corner.hpp"
#include "schemes/catmull_clark/stam.hpp"
#include "schemes/half_edges/vertex_kinds.hpp"
#include "schemes/stam_tables.hpp"
#include "schemes/tuning.hpp"

#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

namespace spmesh::schemes::catmull_clark {

// The quads a fan takes: 3 (2 pinned) to this (a boundary vertex of more edges is approximated,
// or refused).
inline constexpr int max_fan_faces = 11;
// Where a fan's tables start in the tables of every fan (tables_by_count's counts): per quad
// count, the crease rule's, then the pinned ones'.
SPMESH_HD constexpr int fan_table(int faces, bool pinned) { return faces + (pinned ? max_fan_faces + 1 : 0); }
inline constexpr int fan_tables_count = 2 * (max_fan_faces + 1);
SPMESH_HD constexpr int fan_ring_size(int faces) { return 6 * faces + 3; }
inline constexpr int max_fan_ring = fan_ring_size(max_fan_faces);
// The deepest level a sample is carried to toward the vertex.
inline constexpr int fan_depth = (tuning::boundary_fan_tabled_levels << tuning::boundary_fan_powers) - 1;

// Sector j's grid place (i, t), 0 to 2 each, in the fan's ring: the vertex first, then per sector
// spoke j's two points and the sector's inner four, then spoke k's two.
SPMESH_HD constexpr int fan_place(int sector, int i, int t) {
  return i == 0 && t == 0 ? 0
         : t == 0         ? 1 + 6 * sector + i - 1
         : i == 0         ? 1 + 6 * (sector + 1) + t - 1
                          : 1 + 6 * sector + 2 + (i - 1) + 2 * (t - 1);
}

// The values of k quads' tables: l^T (K), then per depth d below T, sector j and child r (1 to 3)
// the K x 16 entries of G_(j,r) E^d (point-major), then E^(T 2^b) (K x K) for b below the
// powers, then 1 / (2 lambda) (eigenstructure.hpp's tabled_powers).
SPMESH_HD constexpr std::int64_t fan_net_values(int faces) {
  return std::int64_t(tuning::boundary_fan_tabled_levels) * 3 * faces * 16 * fan_ring_size(faces);
}

// k quads' tables (above), pinned or not, made on first use and kept (thread-safe); InputError for
// k outside [1, max_fan_faces]. (The smooth corner's are those of k = 1 unpinned to depth 48 with
// no powers, its ring order i + 3 t: smooth_corner.hpp.)
const std::vector<double>& boundary_fan_tables(int faces, bool pinned = false);

// Where the boundary fan holds quad f: its corner at the fan's vertex (-1: none), the fan's quads,
// f's sector, the half-edge leaving the vertex along spoke 0 (in sector 0) and whether the vertex
// is pinned.
struct FanPlace {
  int corner = -1, faces = 0, sector = 0;
  index_t first = -1;
  bool pinned = false;
};

// Quad f's FanPlace: a corner of vertex_kind::boundary_fan (pinned_fan) whose fan has 3 (2) to
// max_fan_faces quads and whose other vertices in them are regular (spokes 0's and k's ends
// vertex_kind::boundary).
SPMESH_HD inline FanPlace boundary_fan_at(const QuadView& q, const index_t* kinds, index_t f) {
  auto kind = [&](index_t h) { return kinds[linalg::ldg(q.corners + h)]; };
  auto twin = [&](index_t h) { return linalg::ldg(q.twin + h); };
  FanPlace place;
  for (int a = 0; a < 4; ++a) {
    const bool pinned = kind(4 * f + a) == vertex_kind::pinned_fan;
    if (kind(4 * f + a) != vertex_kind::boundary_fan && !pinned) continue;
    index_t h = 4 * f + a;  // back to spoke 0: across the quad's spoke j to sector j - 1's
    int sector = 0;
    for (; twin(h) >= 0 && sector < max_fan_faces; ++sector) h = next_half(twin(h));
    if (twin(h) >= 0) return place;
    const index_t first = h;
    for (int j = 0;; ++j) {
      const bool spoke = kind(next_half(h)) == (j == 0 ? vertex_kind::boundary : vertex_kind::regular);
      if (!spoke || kind(next_half(next_half(h))) != vertex_kind::regular || j + 1 > max_fan_faces) return place;
      const index_t next = twin(prev_half(h));
      if (next < 0) {
        if (kind(prev_half(h)) != vertex_kind::boundary || j + 1 < (pinned ? 2 : 3)) return place;
        return {a, j + 1, sector, first, pinned};
      }
      h = next;
    }
  }
  return place;
}

// The K points of the fan from its spoke-0 half-edge `first`: visit(fan_place, vertex), a spoke's
// points once.
template <class Visit>
SPMESH_HD void boundary_fan_points(const QuadView& q, index_t first, int faces, Visit&& visit) {
  index_t h = first;
  for (int j = 0; j < faces; ++j, h = linalg::ldg(q.twin + prev_half(h)))
    quadrant_points(q, h, [&](int i, int t, index_t vertex) {
      if (t > 0 || j == 0) visit(fan_place(j, i, t), vertex);
    });
}

// The tables of the fans flagged in `present` (host, fan_tables_count: by fan_table) in the
// executor's memory (tables_by_count's layout).
template <class Exec, class S = typename Exec::space>
StamTables<S> boundary_fan_tables(Exec& exec, std::span<const index_t> present) {
  return tables_by_count(exec, present, [](int table, std::vector<double>& values) {
    const std::vector<double>& tables = boundary_fan_tables(table % (max_fan_faces + 1), table > max_fan_faces);
    values.insert(values.end(), tables.begin(), tables.end());
  });
}

// The tables as kernels read them.
struct BoundaryFanView {
  const double* values = nullptr;
  const std::int64_t* start = nullptr;

  // The limit at (x, y) of sector `sector`'s quad of a fan of `faces` quads, pinned or not, whose
  // corner a is the fan's vertex: visit(j, weight, x derivative's, y derivative's) on fan_place's
  // point j, derivatives times `scale`.
  template <class Visit>
  SPMESH_HD void weights(int faces, bool pinned, int sector, int a, double x, double y, double scale,
                         Visit&& visit) const {
    constexpr int T = tuning::boundary_fan_tabled_levels;
    const int K = fan_ring_size(faces);
    const double* limit = values + start[fan_table(faces, pinned)];
    StamView::Turn turn(a, x, y);
    const bool at_vertex = turn.s == 0 && turn.t == 0;
    const double nearest = std::ldexp(1.0, -(fan_depth + 1));
    if (turn.s < nearest && turn.t < nearest) turn.s = nearest, turn.t = nearest;
    const StamView::Child child(turn, fan_depth);
    const StamView::Tabled tabled(turn, child, scale);
    const int depth = child.m - 1, q = depth / T;
    const double* rows = limit + K + (std::int64_t(depth % T) * 3 * faces + 3 * sector + child.r - 1) * 16 * K;
    if (q == 0) {
      auto plus_limit = [&](int p, double w, double wx, double wy) { visit(p, limit[p] + w, wx, wy); };
      for (int p = 0; p < K; ++p) tabled.weights(rows + 16 * p, p, plus_limit);
      return;
    }
    // The weights of G_(j,r) E^(d mod T), then times E^(T 2^b) for each bit b of q, the last
    // product's column by column into visit.
    double weights[2][3][max_fan_ring];
    auto keep = [&](int p, double w, double wx, double wy) {
      weights[0][0][p] = w, weights[0][1][p] = wx, weights[0][2][p] = wy;
    };
    for (int p = 0; p < K; ++p) tabled.weights(rows + 16 * p, p, keep);
    const double* powers = limit + K + fan_net_values(faces);
    const double growth = powers[std::int64_t(tuning::boundary_fan_powers) * K * K];  // 1 / (2 lambda)
    const double to_vertex = at_vertex ? integer_power(growth, depth) : 1.0;
    int from = 0;
    for (int bit = 0; (q >> bit) != 0; ++bit) {
      if (!((q >> bit) & 1)) continue;
      const double* power = powers + std::int64_t(bit) * K * K;
      const bool last = (q >> (bit + 1)) == 0;
      for (int c = 0; c < K; ++c) {
        double w[3] = {0, 0, 0};
        for (int p = 0; p < K; ++p) {
          const double e = power[std::int64_t(p) * K + c];
          w[0] += weights[from][0][p] * e, w[1] += weights[from][1][p] * e, w[2] += weights[from][2][p] * e;
        }
        if (!last) {
          for (int d = 0; d < 3; ++d) weights[1 - from][d][c] = w[d];
        } else if (at_vertex) {  // the position l^T's alone, the derivatives scaled
          visit(c, limit[c], to_vertex * w[1], to_vertex * w[2]);
        } else {
          visit(c, limit[c] + w[0], w[1], w[2]);
        }
      }
      from = 1 - from;
    }
  }

  // The same on quad f of a level (boundary_fan_at's place): visit(vertex, weight, x derivative's,
  // y derivative's).
  template <class Visit>
  SPMESH_HD void limit(const QuadView& q, const FanPlace& place, double x, double y, double scale,
                       Visit&& visit) const {
    index_t ring[max_fan_ring];
    boundary_fan_points(q, place.first, place.faces, [&](int j, index_t vertex) { ring[j] = vertex; });
    weights(place.faces, place.pinned, place.sector, place.corner, x, y, scale,
            [&](int j, double w, double wx, double wy) { visit(ring[j], w, wx, wy); });
  }
};

}  // namespace spmesh::schemes::catmull_clark
