// What Stam's evaluation keeps per valence (catmull_clark/stam.hpp, loop/stam.hpp), as kernels
// read it. Around an extraordinary vertex of n edges, a face's K control points C subdivide into
// the K of its child at that vertex, C' = A C, and into the P points of each of its three other
// children's regular patches, G_r C. A sample m levels down in child r is
//   x = b G_r A^(m-1) C = sum_i lambda_i^(m-1) [b G_r V]_i [V^-1 C]_i,  A = V diag(lambda) V^-1
// (Stam 1998, Eq. 9 and 13): constant time at any depth. Within tuning::stam_tabled_levels of
// the vertex the P x K matrices G_r A^(m-1) are kept too, so that a sample there is b times one
// of them.
#pragma once

#include "linalg/array.hpp"
#include "linalg/atomics.hpp"
#include "linalg/base.hpp"
#include "linalg/intrinsics.hpp"
#include "schemes/half_edges/vertex_kinds.hpp"
#include "schemes/tuning.hpp"

#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace spmesh::schemes {

// x^k for k >= 0 by squaring (m is most often 1 to 3: no pow's transcendentals a term).
SPMESH_HD inline double integer_power(double x, int k) {
  double result = 1;
  for (; k > 0; k >>= 1, x *= x)
    if (k & 1) result *= x;
  return result;
}

// The number of edges of the inner vertex where half-edge `first` starts (the walk stops past
// `most`, or at the boundary).
template <class View>
SPMESH_HD int inner_valence(const View& view, index_t first, int most) {
  int n = 0;
  index_t h = first;
  do {
    ++n;
    h = linalg::ldg(view.twin + view.prev(h));
  } while (h != first && h >= 0 && n <= most);
  return n;
}

// The corner at which Stam's evaluation holds face f of corners c (its only `stam` corner, the
// others regular), n that vertex's edges (3 to max_valence); -1 if none.
template <class View>
SPMESH_HD int stam_corner(const View& view, index_t f, const FaceCorners& c, int max_valence, int& n) {
  if (c.extraordinary < 0 || c.others > 0 || c.on_boundary > 0) return -1;
  n = inner_valence(view, View::corners_per_face * f + c.extraordinary, max_valence);
  return n >= 3 && n <= max_valence ? c.extraordinary : -1;
}

// One valence's eigenstructure, host, A = V B V^-1 (eigenstructure.hpp): B's eigenvalues in
// decreasing order (1 first, the subdominant pair next) and its superdiagonal (1 where a vector
// continues a Jordan chain of two: Loop at valence 3; else 0), children[r - 1][p][i] = (G_r V)_{p i}
// (P points a child), inverse = V^-1 (K x K), and powers[m - 1][r - 1][k][p] = (G_r A^(m-1))_{p k}
// for m = 1 .. tuning::stam_tabled_levels.
struct StamStructure {
  int valence = 0, size = 0;
  std::vector<double> eigenvalues, superdiagonal, children, inverse, powers;
};

// Terms c[d][e] of row vectors in V's basis times B^p (B = diag(lambda) + the chains'
// superdiagonal: (c B^p)_e = c_e lambda_e^p + chain_e c_(e-1) p lambda_e^(p-1)); rows 1 and 2 (the
// derivatives) then times sign 2^m (ldexp: no 2^m that overflows before the powers shrink it).
template <int N>
SPMESH_HD void times_power(const double* lambda, const double* chain, int K, int p, int m, double sign,
                           double (&c)[3][N]) {
  for (int e = K - 1; e >= 0; --e) {
    const double power = integer_power(lambda[e], p);
    const double link = e > 0 && chain[e] != 0 && p > 0 ? chain[e] * p * integer_power(lambda[e], p - 1) : 0.0;
    for (int d = 0; d < 3; ++d) {
      const double value = c[d][e] * power + (link != 0 ? link * c[d][e - 1] : 0.0);
      c[d][e] = d == 0 ? value : sign * std::ldexp(value, m);
    }
  }
}

// Per vertex of a level of vertex_kind::stam (a smooth inner extraordinary vertex):
// present[n] = 1 for its valence n, 3 to max_valence.
template <class View>
struct StamValences {
  View q;
  const index_t* irregular;
  index_t* present;
  int max_valence;
  SPMESH_HD void operator()(index_t v) const {
    if (irregular[v] != vertex_kind::stam) return;
    index_t n = 0;
    q.for_each_edge(v, [&](index_t, index_t, index_t) { ++n; });
    if (n >= 3 && n <= max_valence) linalg::atomic_max(present + n, index_t(1));
  }
};

// Every valence's structure in one array of a memory space, and per valence 0 .. max where it
// starts (-1: none).
template <class S>
struct StamTables {
  linalg::Array<double, S> values;
  linalg::Array<std::int64_t, S> start;
};

// The tables as kernels read them, for K = PerEdge n + Extra control points round a vertex of n
// edges and P points a regular child (Catmull-Clark: 2n + 8 and 16; Loop: n + 6 and 12). Per
// valence: eigenvalues (K), chains (K: B's superdiagonal), children (3 x P x K), inverse (K x K)
// and powers (tuning::stam_tabled_levels x 3 x K x P), one after another.
template <int P, int PerEdge, int Extra>
struct StamTableView {
  const double* values = nullptr;
  const std::int64_t* start = nullptr;

  SPMESH_HD static constexpr int size(int n) { return PerEdge * n + Extra; }
  SPMESH_HD const double* eigenvalues(int n) const { return values + start[n]; }
  SPMESH_HD const double* chains(int n) const { return eigenvalues(n) + size(n); }
  SPMESH_HD const double* children(int n) const { return chains(n) + size(n); }
  SPMESH_HD const double* inverse(int n) const { return children(n) + 3 * P * size(n); }
  SPMESH_HD const double* powers(int n) const { return inverse(n) + std::int64_t(size(n)) * size(n); }
  // Terms c[d][e] in V's basis (the position's and two derivatives', d = 0 to 2) as the control
  // points' weights: visit(k, c[0] V^-1's column k, c[1] V^-1's, c[2] V^-1's).
  template <int N, class Visit>
  SPMESH_HD void project(int n, const double (&c)[3][N], Visit&& visit) const {
    const int K = size(n);
    const double* inv = inverse(n);
    for (int k = 0; k < K; ++k) {
      double w[3] = {0, 0, 0};
      for (int e = 0; e < K; ++e) {
        const double v = inv[std::int64_t(e) * K + k];
        w[0] += c[0][e] * v, w[1] += c[1][e] * v, w[2] += c[2][e] * v;
      }
      visit(k, w[0], w[1], w[2]);
    }
  }
  // G_r A^(m-1) for valence n, child r (1 to 3), level m (1 to tuning::stam_tabled_levels): its
  // K x P weights, control point k's P from k P.
  SPMESH_HD const double* power(int n, int m, int r) const {
    return powers(n) + std::int64_t(3 * (m - 1) + r - 1) * P * size(n);
  }
};

// Stam's nets (samples.hpp) `depth` levels deep: the first of the P rows of a face's slot `slot`
// that hold child r's patch points m levels down, G_r A^(m-1) C (m up to depth).
template <int P>
SPMESH_HD constexpr index_t stam_net_row(index_t slot, int depth, int m, int r) {
  return ((slot * depth + m - 1) * 3 + r - 1) * P;
}

// A scheme's view (a StamTableView) of tables in the executor's memory.
template <class View, class S>
View stam_view(const StamTables<S>& tables) {
  View view;
  view.values = tables.values.data(), view.start = tables.start.data();
  return view;
}

// Tables per count n (a valence, a fan's quads) for the n flagged in `present` (host; n from 0 to
// its size - 1), append(n, values) appending n's, uploaded to the executor's memory as one array
// with where each n's starts (-1: none).
template <class Exec, class Append, class S = typename Exec::space>
StamTables<S> tables_by_count(Exec& exec, std::span<const index_t> present, Append&& append) {
  std::vector<double> values;
  std::vector<std::int64_t> start(present.size(), -1);
  for (std::size_t n = 0; n < present.size(); ++n) {
    if (!present[n]) continue;
    start[n] = std::int64_t(values.size());
    append(int(n), values);
  }
  auto upload = [&](const auto& host) {
    linalg::Array<typename std::remove_cvref_t<decltype(host)>::value_type, S> to(index_t(host.size()));
    exec.write(to.data(), host.data(), index_t(host.size()));
    return to;
  };
  return {upload(values), upload(start)};
}

// The structures (structure(n), made once a process) of the valences flagged in `present` (host;
// valences 3 .. its size - 1), uploaded to the executor's memory.
template <class Exec, class Structure, class S = typename Exec::space>
StamTables<S> stam_tables(Exec& exec, std::span<const index_t> present, Structure&& structure) {
  return tables_by_count(exec, present, [&](int n, std::vector<double>& values) {
    if (n < 3) throw Error("stam_tables: valence " + std::to_string(n) + " has no eigenstructure");
    const StamStructure& made = structure(n);
    for (const auto* part : {&made.eigenvalues, &made.superdiagonal, &made.children, &made.inverse, &made.powers})
      values.insert(values.end(), part->begin(), part->end());
  });
}

// The same with `present` an array of max_valence + 1 on the executor: a scheme's StamValences
// over every level a sample may stop at.
template <class Exec, class Structure, class S = typename Exec::space>
StamTables<S> stam_tables(Exec& exec, const linalg::Array<index_t, S>& present_on_exec, int max_valence,
                          Structure&& structure) {
  std::vector<index_t> present(static_cast<std::size_t>(max_valence + 1));
  exec.read(present_on_exec.data(), max_valence + 1, present.data());
  return stam_tables(exec, std::span<const index_t>(present), structure);
}

}  // namespace spmesh::schemes
