// What every scheme's limit at samples (face, u, v) shares (catmull_clark/limit_at.hpp,
// loop/limit_at.hpp): a scheme gives its levels and its Terms, an object that says per sample
// what its limit is, status and terms f(level, vertex, position weight, u derivative's, v
// derivative's) over the control points of the patch that holds it; here those terms are summed
// over each level's points, or written as rows of a sparse W composed with the levels'
// refinement matrices, and the first sample not evaluated is named.
//
// From a level's points (sample_points), the faces that Stam's evaluation holds get Stam's nets
// first: their children's patch control points m = 1 to d levels towards the extraordinary vertex
// (G_r A^(m-1) C, stam_tables.hpp; d from the samples a face, stam_net_depth), made once a face,
// so that a sample there is one patch of contiguous points, as cheap as a regular face's.
//
// Statuses: 0 evaluated exactly; 4 approximated (on request, where no patch holds it within the
// levels); 1 no patch within the levels; 2 a face out of range; 3 (u, v) outside the face's
// domain or not finite.
#pragma once

#include "linalg/convert.hpp"
#include "linalg/spgemm.hpp"
#include "schemes/stam_tables.hpp"
#include "schemes/subdivision.hpp"
#include "schemes/tuning.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace spmesh::schemes {

// The limit points and the derivatives along u and v of samples, a row each.
template <class T, class S = linalg::Host>
struct SampleLimits {
  linalg::Dense<T, S> position, du, dv;
  index_t approximated = 0;  // samples that no patch held, approximated (limit_at_samples)
};

// The same as sparse matrices of the base vertices (samples x base vertices), for the positions
// and each derivative, so that re-evaluating moved vertices is one SpMV.
template <class T, class S>
struct SampleMatrices {
  linalg::Csr<T, S> position, du, dv;
  index_t approximated = 0;
};

// The deepest level a sample goes down to.
inline constexpr int max_sample_depth = 12;

// A sample that is not evaluated, and which one (its index in the arrays given).
class SampleError : public InputError {
public:
  SampleError(const std::string& what, index_t sample_) : InputError(what), sample(sample_) {}
  index_t sample;
};

// Stam's nets as a scheme's terms read them: per level (null: none), per face 4 slot + a where
// Stam's evaluation holds the face at its corner a, else -1, and the nets' depth d. Slot s's patch
// of child r (1 to 3) m levels down (1 to d) is P rows (points) from stam_net_row<P>(s, d, m, r)
// on (stam_tables.hpp), of the points that the terms name as level stam_net_level(l).
SPMESH_HD constexpr int stam_net_level(int level) { return max_sample_depth + 1 + level; }
struct StamNets {
  const index_t* corner[max_sample_depth + 1] = {};
  int depth[max_sample_depth + 1] = {};

  // Whether level l's nets hold sample (x, y) of face f (`stam`: the scheme's StamView); then
  // terms(level, row, weights) on their rows, derivatives times `scale`.
  template <class Stam, class Terms>
  SPMESH_HD bool terms(const Stam& stam, int l, index_t f, double x, double y, double scale, Terms&& terms) const {
    if (!corner[l]) return false;
    const index_t code = linalg::ldg(corner[l] + f);
    return code >= 0 && stam.limit_from_net(int(code & 3), code >> 2, depth[l], x, y, scale,
                                            [&](index_t row, double p, double pu, double pv) {
                                              terms(stam_net_level(l), row, p, pu, pv);
                                            });
  }
};

namespace detail {

// The samples' limits from each level's points (P[l]: level l's, k columns) and Stam's nets
// (nets[l]: level l's, k columns; terms.stam_nets).
template <class Terms, class T>
struct SamplePoints {
  static constexpr int min_blocks_per_sm = tuning::sample_min_blocks_per_sm;
  Terms terms;
  const T *P[max_sample_depth + 1], *nets[max_sample_depth + 1];
  T *position, *du, *dv;
  std::uint8_t* status;
  index_t k;

  // One walk down the levels a block of four columns.
  SPMESH_HD void operator()(index_t s) const {
    constexpr int block = 4;
    for (index_t c0 = 0; c0 < k; c0 += block) {
      const int n = int(k - c0 < block ? k - c0 : block);
      double sum[3][block] = {};
      status[s] = terms(s, [&](int l, index_t vertex, double wp, double wu, double wv) {
        const std::int64_t row = std::int64_t(vertex) * k + c0;
        for (int c = 0; c < n; ++c) {
          const double x = double(l <= max_sample_depth ? P[l][row + c] : nets[l - stam_net_level(0)][row + c]);
          sum[0][c] += wp * x, sum[1][c] += wu * x, sum[2][c] += wv * x;
        }
      });
      T* out[3] = {position, du, dv};
      for (int m = 0; m < 3; ++m)
        for (int c = 0; c < n; ++c) out[m][std::int64_t(s) * k + c0 + c] = T(sum[m][c]);
    }
  }
};

// Flags the faces of level `level` that Stam's evaluation holds (Terms::stam_corner).
template <class Terms>
struct StamFaces {
  Terms terms;
  int level;
  index_t* flag;
  SPMESH_HD void operator()(index_t f) const {
    int n = 0;
    flag[f] = terms.stam_corner(level, f, n) >= 0;
  }
};

// Those faces' slots: corner[f] holds the flags' exclusive scan (f's slot) and becomes StamNets'
// code, 4 slot + a, or -1; face[slot] = f.
template <class Terms>
struct StamSlots {
  Terms terms;
  int level;
  index_t *corner, *face;
  SPMESH_HD void operator()(index_t f) const {
    int n = 0;
    const int a = terms.stam_corner(level, f, n);
    if (a < 0) {
      corner[f] = -1;
      return;
    }
    face[corner[f]] = f;
    corner[f] = 4 * corner[f] + a;
  }
};

// How many levels deep a level of `faces` faces gets Stam's nets for `samples` samples: 0 (none)
// below tuning::stam_net_samples_per_face samples a face, else floor(log4) of the samples a face,
// at most tuning::stam_net_levels.
inline int stam_net_depth(index_t samples, index_t faces) {
  if (faces == 0 || std::int64_t(faces) * tuning::stam_net_samples_per_face > samples) return 0;
  int depth = 1;
  while (depth < tuning::stam_net_levels && (std::int64_t(faces) << (2 * depth + 2)) <= samples) ++depth;
  return depth;
}

// One row of the nets, a thread each: point p of child r's patch m levels down (1 to depth) of a
// slot's face, the P rules' column p of G_r A^(m-1) over its ring's points (the level's, k
// columns).
template <class Terms, class T>
struct StamNetPoints {
  static constexpr int P = Terms::stam_points;
  Terms terms;
  int level, depth;
  const index_t *corner, *face;
  const T* points;
  T* nets;
  index_t k;
  SPMESH_HD void operator()(index_t row) const {
    const int per_slot = depth * 3 * P;
    const index_t f = face[row / per_slot];
    const int within = int(row % per_slot), m = 1 + within / (3 * P), r = 1 + within / P % 3, p = within % P;
    const int a = int(corner[f] & 3);
    int n = 0;
    terms.stam_corner(level, f, n);
    const double* rules = terms.stam.power(n, m, r);  // K x P
    for (index_t c0 = 0; c0 < k; c0 += 4) {
      const int width = int(k - c0 < 4 ? k - c0 : 4);
      double sum[4] = {0, 0, 0, 0};
      terms.stam_ring(level, f, a, n, [&](int j, index_t vertex) {
        const double w = rules[j * P + p];
        for (int c = 0; c < width; ++c) sum[c] += w * double(points[std::int64_t(vertex) * k + c0 + c]);
      });
      for (int c = 0; c < width; ++c) nets[std::int64_t(row) * k + c0 + c] = T(sum[c]);
    }
  }
};

// Each sample's status alone.
template <class Terms>
struct SampleStatus {
  Terms terms;
  std::uint8_t* status;
  SPMESH_HD void operator()(index_t s) const { status[s] = terms(s, [](int, index_t, double, double, double) {}); }
};

// One of the samples' weights as rows of a matrix of every level's vertices, level l's from
// column first[l] on (assemble_rows' producer); `which` 0 the position's, 1 and 2 the derivatives'.
template <class Terms>
struct SampleRows {
  Terms terms;
  index_t first[max_sample_depth + 1];
  int which;
  SPMESH_HD std::int64_t bound(index_t s) const {
    std::int64_t n = 0;
    terms(s, [&](int, index_t, double, double, double) { ++n; });
    return n;
  }
  template <class Sink>
  SPMESH_HD void operator()(index_t s, Sink&& sink) const {
    terms(s, [&](int l, index_t vertex, double wp, double wu, double wv) {
      const double w = which == 0 ? wp : which == 1 ? wu : wv;
      if (w != 0) sink(first[l] + vertex, w);
    });
  }
};

// Whether sample s was not evaluated; whether it was approximated.
struct Refused {
  const std::uint8_t* status;
  SPMESH_HD bool operator()(index_t s) const { return status[s] != 0 && status[s] != 4; }
};
struct Approximated {
  const std::uint8_t* status;
  SPMESH_HD bool operator()(index_t s) const { return status[s] == 4; }
};

// InputError for a depth out of [0, max_sample_depth]; DimensionError unless u and v are as long
// as faces.
template <class S>
void check_samples(int depth, const linalg::Array<index_t, S>& faces, const linalg::Array<double, S>& u,
                   const linalg::Array<double, S>& v) {
  if (depth < 0 || depth > max_sample_depth)
    throw InputError("limit_at_samples: depth " + std::to_string(depth) + ", not 0 to " +
                     std::to_string(max_sample_depth));
  if (u.size() != faces.size() || v.size() != faces.size())
    throw DimensionError("limit_at_samples: " + std::to_string(faces.size()) + " faces, " + std::to_string(u.size()) +
                         " u and " + std::to_string(v.size()) + " v");
}

// How many samples were approximated; or SampleError naming the first not evaluated (the statuses
// read back only when there is one): `scheme` starts the message, `domain` says a face's domain,
// `no_patch` why none held it within `depth` levels.
template <class Exec, class S = typename Exec::space>
index_t count_or_refuse(Exec& exec, const linalg::Array<std::uint8_t, S>& status, const linalg::Array<index_t, S>& faces,
                        const linalg::Array<double, S>& u, const linalg::Array<double, S>& v, index_t base_faces,
                        bool approximate, const std::string& domain, const std::string& no_patch) {
  const index_t n = status.size();
  if (exec.count_if(n, Refused{status.data()}) == 0)
    return approximate ? exec.count_if(n, Approximated{status.data()}) : 0;
  std::vector<std::uint8_t> host(static_cast<std::size_t>(n));
  exec.read(status.data(), n, host.data());
  for (index_t s = 0; s < n; ++s) {
    if (host[std::size_t(s)] == 0 || host[std::size_t(s)] == 4) continue;
    index_t at = 0;
    double uv[2] = {0, 0};
    exec.read(faces.data() + s, 1, &at), exec.read(u.data() + s, 1, uv), exec.read(v.data() + s, 1, uv + 1);
    const std::string sample = "limit_at_samples: sample " + std::to_string(s) + " (face " + std::to_string(at) +
                               ", u " + std::to_string(uv[0]) + ", v " + std::to_string(uv[1]) + ")";
    switch (host[std::size_t(s)]) {
      case 2: throw SampleError(sample + ": the mesh has faces 0 to " + std::to_string(base_faces - 1), s);
      case 3: throw SampleError(sample + ": (u, v) is outside the face (" + domain + ")", s);
      default: throw SampleError(sample + ": " + no_patch, s);
    }
  }
  return 0;
}

// A plan's levels as the samples go down them: level l's points to level l + 1's, and the same as
// a matrix. (An adaptive plan, catmull_clark/adaptive.hpp, has its own, found by its namespace.)
template <class Scheme, class Exec, class T, class S>
linalg::Dense<T, S> step_points(Exec& exec, const Plan<Scheme, S>& plan, std::size_t l, const linalg::Dense<T, S>& P) {
  return subdivide(exec, plan, l, P);
}
template <class Scheme, class Exec, class S>
linalg::Csr<double, S> step_matrix(Exec& exec, const Plan<Scheme, S>& plan, std::size_t l) {
  return level_matrix(exec, plan.levels[l]);
}

// The samples' limits (out's arrays, sized) from P0 by `terms` on `plan`'s levels: every level's
// points subdivided; Stam's nets of the levels with samples enough (stam_net_depth; one wait for
// their sizes); then one thread a sample.
template <class Exec, class Plan, class Terms, class T, class S = typename Exec::space>
void sample_points(Exec& exec, const Plan& plan, const Terms& terms, std::uint8_t* status,
                   const linalg::Dense<T, S>& P0, SampleLimits<T, S>& out) {
  const int levels = terms.levels;
  const index_t n = out.position.rows, k = P0.cols;
  std::vector<linalg::Dense<T, S>> points;  // every level's
  points.push_back(copy(exec, P0));
  for (int l = 1; l < levels; ++l) points.push_back(step_points(exec, plan, std::size_t(l - 1), points.back()));
  SamplePoints<Terms, T> kernel{terms, {}, {}, out.position.data.data(), out.du.data.data(), out.dv.data.data(),
                                status, k};
  for (int l = 0; l < levels; ++l) kernel.P[l] = points[std::size_t(l)].data.data();
  // Stam's nets: per level the faces' slots, then the rows.
  std::vector<linalg::Array<index_t, S>> corners(static_cast<std::size_t>(levels)), faces(corners.size());
  std::vector<linalg::Array<T, S>> nets(corners.size());
  std::vector<index_t> slots(corners.size(), 0);
  linalg::Array<index_t, S> slots_on_exec(levels);
  bool any = false;
  for (int l = 0; l < levels; ++l) {
    const index_t level_faces = terms.faces(l);
    if (stam_net_depth(n, level_faces) == 0) continue;
    if (!any) {  // zeroes on the executor (a write from the host would wait for the levels)
      index_t* zeroes = slots_on_exec.data();
      exec.for_each(levels, [=] SPMESH_HD(index_t i) { zeroes[i] = 0; });
      any = true;
    }
    corners[std::size_t(l)] = linalg::Array<index_t, S>(level_faces);
    index_t* corner = corners[std::size_t(l)].data();
    exec.for_each(level_faces, StamFaces<Terms>{terms, l, corner});
    exec.exclusive_scan(corner, corner, level_faces, slots_on_exec.data() + l);
  }
  if (any) exec.read(slots_on_exec.data(), levels, slots.data());
  using Rows = StamNetPoints<Terms, T>;
  for (int l = 0; l < levels; ++l) {
    const int depth = stam_net_depth(n, terms.faces(l));
    const std::int64_t rows = std::int64_t(slots[std::size_t(l)]) * depth * 3 * Rows::P;
    if (rows == 0 || rows * k > std::int64_t(max_index)) continue;  // none; or too many: the rings instead
    index_t* corner = corners[std::size_t(l)].data();
    faces[std::size_t(l)] = linalg::Array<index_t, S>(slots[std::size_t(l)]);
    nets[std::size_t(l)] = linalg::Array<T, S>(index_t(rows * k));
    exec.for_each(terms.faces(l), StamSlots<Terms>{terms, l, corner, faces[std::size_t(l)].data()});
    exec.for_each(index_t(rows), Rows{terms, l, depth, corner, faces[std::size_t(l)].data(), kernel.P[l],
                                      nets[std::size_t(l)].data(), k});
    kernel.nets[l] = nets[std::size_t(l)].data();
    kernel.terms.stam_nets.corner[l] = corner, kernel.terms.stam_nets.depth[l] = depth;
  }
  exec.for_each(n, kernel);
}

// The rows of matrices A_0 .. A_{n-1} (of the same columns), one after another.
template <class Exec, class T, class S>
linalg::Csr<T, S> stacked(Exec& exec, const std::vector<linalg::Csr<T, S>>& parts) {
  index_t rows = 0, nnz = 0;
  for (const auto& A : parts) rows += A.rows, nnz += A.nnz();
  linalg::Array<index_t, S> offsets(rows + 1), indices(nnz);
  linalg::Array<T, S> values(nnz);
  index_t row = 0, at = 0;
  for (const auto& A : parts) {
    const index_t* from = A.offsets.data();
    index_t* to = offsets.data() + row;
    const index_t shift = at;
    exec.for_each(A.rows + 1, [=] SPMESH_HD(index_t i) { to[i] = from[i] + shift; });
    exec.copy(A.indices.data(), A.nnz(), indices.data() + at);
    exec.copy(A.values.data(), A.nnz(), values.data() + at);
    row += A.rows, at += A.nnz();
  }
  return linalg::Csr<T, S>(rows, parts.empty() ? 0 : parts[0].cols, std::move(offsets), std::move(indices),
                           std::move(values));
}

// The refinement matrices of a plan's first `levels` levels from its `base` vertices (of level 0
// to level levels - 1), stacked: the rows of R_0 = I, R_1 = S_0 R_0, ... (step_matrix's S_l);
// first[l] the row where level l's start.
template <class Exec, class Plan, class S = typename Exec::space>
linalg::Csr<double, S> stacked_levels(Exec& exec, const Plan& plan, int levels, index_t base, index_t* first) {
  std::vector<linalg::Csr<double, S>> R;
  R.push_back(linalg::identity<double>(exec, base));
  for (int l = 1; l < levels; ++l) R.push_back(linalg::spgemm(exec, step_matrix(exec, plan, std::size_t(l - 1)), R.back()));
  for (int l = 0; l < levels; ++l) first[l] = l == 0 ? 0 : first[l - 1] + R[std::size_t(l - 1)].rows;
  return stacked(exec, R);
}

// The samples' weights as matrices of the `base` base vertices: the terms' weights on every
// level's vertices composed with that level's refinement matrix (level_matrix of the plan's
// levels, stacked; in double, stored as T).
template <class T, class Exec, class Plan, class Terms, class S = typename Exec::space>
void sample_matrices(Exec& exec, const Plan& plan, const Terms& terms, std::uint8_t* status, index_t base, index_t n,
                     SampleMatrices<T, S>& out) {
  SampleRows<Terms> rows{terms, {}, 0};
  const auto all = stacked_levels(exec, plan, terms.levels, base, rows.first);
  exec.for_each(n, SampleStatus<Terms>{terms, status});
  auto weights = [&](int which) {
    rows.which = which;
    return linalg::cast_values<T>(exec, linalg::spgemm(exec, linalg::assemble_rows<double>(exec, n, all.rows, rows), all));
  };
  out.position = weights(0), out.du = weights(1), out.dv = weights(2);
}

// A scheme's limit_at_samples and limit_at_samples_matrices, given its with_sample_terms as
// `with_terms(f)`: f(plan, terms, statuses) on its levels, returning how many were approximated.
template <class Exec, class T, class S, class WithTerms>
SampleLimits<T, S> limits_by_terms(Exec& exec, const linalg::Dense<T, S>& P0, index_t n, WithTerms&& with_terms) {
  SampleLimits<T, S> out{linalg::Dense<T, S>(n, P0.cols), linalg::Dense<T, S>(n, P0.cols),
                         linalg::Dense<T, S>(n, P0.cols)};
  out.approximated = with_terms([&](const auto& plan, const auto& terms, std::uint8_t* status) {
    sample_points(exec, plan, terms, status, P0, out);
  });
  return out;
}
template <class T, class Exec, class WithTerms, class S = typename Exec::space>
SampleMatrices<T, S> matrices_by_terms(Exec& exec, index_t base, index_t n, WithTerms&& with_terms) {
  SampleMatrices<T, S> out;
  out.approximated = with_terms([&](const auto& plan, const auto& terms, std::uint8_t* status) {
    sample_matrices<T>(exec, plan, terms, status, base, n, out);
  });
  return out;
}

}  // namespace detail

}  // namespace spmesh::schemes
