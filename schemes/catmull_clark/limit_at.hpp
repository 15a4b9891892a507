// Catmull-Clark's limit surface at any (face, u, v) of a quad base mesh where it is a bicubic
// B-spline patch (issue 25's "regular faces, exact"), in OpenSubdiv's Bfr parameterization of a
// quad: corner 0 at (0, 0), 1 at (1, 0), 2 at (1, 1), 3 at (0, 1). A face whose corners are all
// inside the mesh with 4 edges, no sharp edge and no crease mask at them (patch_build.hpp's
// regular faces) is, on the limit surface, the tensor product of cubic B-splines of the 4 x 4
// points around it (Catmull and Clark 1978; patches.hpp's grid, corner_controls). Elsewhere the
// sample goes down the levels, to the child quad that holds it (child a of a quad lies at its
// corner a, turned as its parent: (u, v) -> (2u - i, 2v - j)), until that child is regular; the
// limit there is exact at every level, and a derivative in the base face's parameters is the
// child's times 2^level. Samples that reach no regular child within the levels asked (at an
// extraordinary vertex, on the boundary, at a crease) are not evaluated: Stam's evaluation and
// boundary and crease patches are limit evaluation's next steps.
#pragma once

#include "schemes/catmull_clark/patch_build.hpp"
#include "schemes/catmull_clark/patch_eval.hpp"
#include "schemes/catmull_clark/scheme.hpp"
#include "schemes/limit.hpp"
#include "schemes/patches/basis.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace spmesh::schemes::catmull_clark {

// The limit points and the derivatives along u and v of samples, a row each.
template <class T, class S = linalg::Host>
struct SampleLimits {
  linalg::Dense<T, S> position, du, dv;
};

// The deepest level a sample goes down to.
inline constexpr int max_sample_depth = 12;

namespace detail {

// A level as the samples read it: its quads, its irregular vertices, its points.
template <class T>
struct SampleLevel {
  QuadView q;
  const index_t* irregular = nullptr;
  const T* P = nullptr;
};

// One thread per sample: down the levels to the first regular quad, then the patch.
// status: 0 evaluated, 1 no regular quad within the levels, 2 a face out of range, 3 (u, v)
// outside [0, 1] or not finite.
template <class T>
struct SampleKernel {
  SampleLevel<T> level[max_sample_depth + 1];
  int levels = 0;  // level[0 .. levels - 1]
  const index_t* face;
  const double *u, *v;
  T *position, *du, *dv;
  std::uint8_t* status;
  index_t k;

  SPMESH_HD void operator()(index_t s) const {
    index_t f = face[s];
    double x = u[s], y = v[s];
    if (f < 0 || f >= level[0].q.faces) return void(status[s] = 2);
    if (!(x >= 0 && x <= 1 && y >= 0 && y <= 1)) return void(status[s] = 3);
    for (int l = 0; l < levels; ++l) {
      const SampleLevel<T>& L = level[l];
      bool regular = true;
      for (int a = 0; a < 4; ++a) regular = regular && L.irregular[L.q.corners[4 * f + a]] == 0;
      if (regular) return evaluate(L, f, x, y, double(1 << l), s);
      // The child holding (x, y): child a lies at corner a.
      const int i = x >= 0.5, j = y >= 0.5;
      f = 4 * f + (j ? 3 - i : i), x = 2 * x - i, y = 2 * y - j;
    }
    status[s] = 1;
  }

  // The bicubic patch of quad f of level L at (x, y); derivatives times `scale`.
  SPMESH_HD void evaluate(const SampleLevel<T>& L, index_t f, double x, double y, double scale, index_t s) const {
    index_t grid[16];
    for (int a = 0; a < 4; ++a) {
      const linalg::Index4 c = corner_controls(L.q, f, a);
      const unsigned places = unsigned(corner_places >> (16 * a));
      for (int j = 0; j < 4; ++j) grid[(places >> (4 * j)) & 15] = c.v[j];
    }
    double bx[4], dbx[4], by[4], dby[4];  // along u (the grid's columns), along v (its rows)
    patches::basis_functions(patches::Basis::bspline, 3, nullptr, x, bx, dbx);
    patches::basis_functions(patches::Basis::bspline, 3, nullptr, y, by, dby);
    for (index_t c = 0; c < k; ++c) {
      double p = 0, pu = 0, pv = 0;
      for (int row = 0; row < 4; ++row)
        for (int col = 0; col < 4; ++col) {
          const double point = double(L.P[std::int64_t(grid[4 * row + col]) * k + c]);
          p += by[row] * bx[col] * point, pu += by[row] * dbx[col] * point, pv += dby[row] * bx[col] * point;
        }
      position[std::int64_t(s) * k + c] = T(p), du[std::int64_t(s) * k + c] = T(scale * pu),
                                 dv[std::int64_t(s) * k + c] = T(scale * pv);
    }
    status[s] = 0;
  }
};

}  // namespace detail

// The limit points and their u and v derivatives at samples (faces[s], u[s], v[s]) of quad mesh
// M (level-0 sharpness C, vertex data P0), going down at most `depth` levels (0 to
// max_sample_depth). InputError naming the first sample that is out of range, or that reaches no
// regular quad within `depth` levels; for a base mesh with other faces than quads (Bfr's
// parameterization of their sub-faces is not built yet).
template <class Exec, class T, class S = typename Exec::space>
SampleLimits<T, S> limit_at_samples(Exec& exec, linalg::MeshMatrix<S> M, Sharpness<S> C,
                                    const linalg::Array<index_t, S>& faces, const linalg::Array<double, S>& u,
                                    const linalg::Array<double, S>& v, const linalg::Dense<T, S>& P0, int depth,
                                    Options options = {}) {
  schemes::detail::check_input<CatmullClark>(exec, M, C, depth, false);
  check_vertex_data(P0.rows, M.vertices, "limit_at_samples");
  if (depth < 0 || depth > max_sample_depth)
    throw InputError("limit_at_samples: depth " + std::to_string(depth) + ", not 0 to " +
                     std::to_string(max_sample_depth));
  if (M.nnz() != 4 * std::int64_t(M.faces))
    throw InputError("limit_at_samples: the mesh has faces other than quads; samples on them are not evaluated "
                     "yet (Bfr's parameterization of a polygon's sub-faces)");
  const index_t n = faces.size();
  if (u.size() != n || v.size() != n)
    throw DimensionError("limit_at_samples: " + std::to_string(n) + " faces, " + std::to_string(u.size()) +
                         " u and " + std::to_string(v.size()) + " v");
  // Every level to `depth` with its topology and rules, and its points.
  const index_t base_faces = M.faces;
  Plan<S> plan;
  std::optional<AnyLevel<S>> last;
  std::optional<SharpTable<S>> table;
  schemes::detail::KeepLevelsAndLast<Exec, Plan<S>, AnyLevel<S>> sink{{plan}, exec, last, table};
  schemes::detail::build_half_edges<CatmullClark>(exec, std::move(M), C, depth, options, sink);
  std::vector<linalg::Dense<T, S>> points;
  points.push_back(schemes::detail::copy(exec, P0));
  for (int l = 0; l < depth; ++l) points.push_back(schemes::subdivide(exec, plan, std::size_t(l), points.back()));
  std::vector<linalg::Array<index_t, S>> irregular;
  linalg::Array<index_t, S> near;
  detail::SampleKernel<T> kernel{};
  kernel.levels = depth + 1;
  for (int l = 0; l <= depth; ++l) {
    const auto& L = std::get<QuadLevel<S>>(l < depth ? plan.levels[std::size_t(l)] : *last);
    irregular.push_back(irregular_vertices(exec, L, near));
    kernel.level[l] = {view(L), irregular.back().data(), points[std::size_t(l)].data.data()};
  }
  SampleLimits<T, S> out{linalg::Dense<T, S>(n, P0.cols), linalg::Dense<T, S>(n, P0.cols),
                         linalg::Dense<T, S>(n, P0.cols)};
  linalg::Array<std::uint8_t, S> status(n);
  kernel.face = faces.data(), kernel.u = u.data(), kernel.v = v.data();
  kernel.position = out.position.data.data(), kernel.du = out.du.data.data(), kernel.dv = out.dv.data.data();
  kernel.status = status.data(), kernel.k = P0.cols;
  exec.for_each(n, kernel);
  // The first sample not evaluated, named.
  std::vector<std::uint8_t> host(static_cast<std::size_t>(n));
  if (n > 0) exec.read(status.data(), n, host.data());
  for (index_t s = 0; s < n; ++s) {
    if (host[std::size_t(s)] == 0) continue;
    index_t f = 0;
    double at[2] = {0, 0};
    exec.read(faces.data() + s, 1, &f), exec.read(u.data() + s, 1, at), exec.read(v.data() + s, 1, at + 1);
    const std::string sample = "limit_at_samples: sample " + std::to_string(s) + " (face " + std::to_string(f) +
                               ", u " + std::to_string(at[0]) + ", v " + std::to_string(at[1]) + ")";
    switch (host[std::size_t(s)]) {
      case 2: throw InputError(sample + ": the mesh has faces 0 to " + std::to_string(base_faces - 1));
      case 3: throw InputError(sample + ": u and v are in [0, 1]");
      default:
        throw InputError(sample + ": no regular quad holds it within " + std::to_string(depth) +
                         " levels (an extraordinary vertex, the boundary or a crease is near; their patches "
                         "are not evaluated yet)");
    }
  }
  return out;
}

}  // namespace spmesh::schemes::catmull_clark
