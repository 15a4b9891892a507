// Catmull-Clark's last levels by patches (paper section 4.2-4.4's specialised kernels, taken
// several levels at once). Where a face's 1-ring is a smooth regular grid of 4 x 4 points (its
// corners inside the mesh with 4 edges each, no sharp edge at them, none of them a special
// vertex with a crease mask), Catmull-Clark is the tensor product of cubic B-spline
// subdivision (Catmull and Clark 1978; Stam 1998), so every point that the face's
// descendants `depth` levels down carry is a fixed combination of the 16: A_d (x) A_d, with A_d
// the (2^d + 1) x 4 matrix of d curve subdivisions of the middle span. One tile of the executor
// loads the 4 x 4 grids of a run of consecutive faces, refines their rows to each grid column,
// and writes the points each face owns in the level-(k + d) numbering, which is arithmetic on
// the face's (quads.hpp: face points, edge points, the children of edges and the inner edges
// all lie in blocks that follow the parent's order), so that a run of consecutive faces writes
// runs of consecutive rows. None of the levels between is written. The other faces (irregular, and
// their neighbours, whose points they read) take the level-by-level eval restricted to them
// (quad_eval.hpp's Region): the levels between before the patches, the last level after them
// and on the irregular faces only. A point is written by the face that owns it on the
// level-by-level path (its half-edge along, its vertex_edge); an irregular face's are written
// last by the region.
#pragma once

#include "linalg/formats.hpp"
#include "schemes/catmull_clark/quad_eval.hpp"
#include "schemes/catmull_clark/patches.hpp"
#include "schemes/catmull_clark/plan.hpp"
#include "schemes/catmull_clark/quads.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

namespace spmesh::schemes::catmull_clark {

namespace detail {

// The control points of a regular face f of a level around its corner a, as vertices: corner a,
// the corners of the face across edge a (from corner a to a + 1) beyond corner a and beyond
// corner a + 1 (the twin's slots b + 2 and b + 3), and the corner of the face diagonal to
// corner a. Where they lie in f's 4 x 4 grid of control points (s = 4 row + column): 4 bits
// each, in that order, 16 bits per corner (corner_places).
inline constexpr std::uint64_t corner_places = 0xC489FDEA3B760215ull;
SPMESH_HD inline linalg::Index4 corner_controls(const QuadView& q, index_t f, int a) {
  const index_t h = 4 * f + a, t = linalg::ldg(q.twin + h);
  const linalg::Index4 across = linalg::load4(q.corners + (t & ~index_t(3)));
  const int b = t & 3;
  const auto slot = [&](int j) {
    return j == 0 ? across.v[0] : j == 1 ? across.v[1] : j == 2 ? across.v[2] : across.v[3];
  };
  const index_t u = linalg::ldg(q.twin + next_half(t));  // in the face diagonal to corner a
  return {{linalg::ldg(q.corners + h), slot((b + 2) & 3), slot((b + 3) & 3),
           linalg::ldg(q.corners + prev_half(u))}};
}

// What a tile keeps of each of its faces.
struct PatchFace {
  linalg::Index4 corners, codes;
  int starts;
  PatchKind kind;
};

// The points of the patches of a tile of consecutive faces of level k, d = D levels down, W
// components at a time, in three phases per chunk of components:
// 0. load each face's 4 x 4 control points (a thread per corner; zeros for an irregular face),
//    with A_d and where each grid point is staged;
// 1. a thread per face and grid column x: refine the control rows to column x (4 points, in
//    registers), then make the column's points A_d[y] Q, y = 0 .. 2^D (weights known at compile
//    time), into the staging area: a point inside the face in the order of its rows, a point on
//    its sides (side a from corner a, the corner first) in a block per face;
// 2. write the staging area out: the points inside a word per thread (their categories' rows
//    are blocks, whole lines per warp), the points on the sides a point per thread, where the
//    face owns them (the face of an edge's half-edge along, of a corner's vertex_edge).
// An irregular face's points are the region's: its sides are left to it, the rows inside it
// are written here (from zeros) and again by the region's last level, after.
template <class T, index_t W, int D>
struct PatchPoints {
  static constexpr int threads = tuning::patch_threads, side = 1 << D, n = side + 1,
                       inner = (n - 2) * (n - 2);
  static constexpr std::size_t max_bytes = tuning::patch_tile_bytes;
  using Layout = PatchLayout<T>;
  using Category = typename Layout::Category;
  QuadView q;
  const std::uint8_t* starts;
  const PatchKind* kind;
  const Layout* layout;  // executor memory: too large to pass by value to a kernel
  const T* P;            // level k
  T* out;                // level k + D
  index_t k;

  // What a tile keeps in shared memory, in this order. Grid point (x, y) of face p is staged at
  // row (at >> 5) + (p << (at & 31)), at = at[n y + x]: the rows of the categories inside a face
  // (faces << shift rows each), then the sides (faces << (D + 2) rows).
  struct Shared {
    PatchFace* face;                      // [faces]
    Category* category;                   // [max_categories]
    T *A, *control, *staging;             // [4 n], [faces][16][W], [faces n^2][W]
    std::uint32_t* at;                    // [n^2]
  };
  static constexpr std::size_t bytes(int tile) {
    return tile * sizeof(PatchFace) + sizeof(Category) * Layout::max_categories +
           sizeof(T) * (4 * n + tile * W * (16 + n * n)) + sizeof(std::uint32_t) * n * n;
  }
  // Faces per tile: a column each for most of the threads, as far as max_bytes allow.
  static constexpr int tile_faces() {
    int f = threads / n;
    while (f > 1 && bytes(f) > max_bytes) --f;
    return f;
  }
  static constexpr int faces = tile_faces();
  static_assert(bytes(faces) <= max_bytes, "PatchPoints: a face's tile is over max_bytes");
  SPMESH_HD static Shared carve(std::byte* at) {
    Shared s;
    s.face = reinterpret_cast<PatchFace*>(at);
    s.category = reinterpret_cast<Category*>(s.face + faces);
    s.A = reinterpret_cast<T*>(s.category + Layout::max_categories);
    s.control = s.A + 4 * n;
    s.staging = s.control + faces * 16 * W;
    s.at = reinterpret_cast<std::uint32_t*>(s.staging + faces * n * n * W);
    return s;
  }
  int phases() const { return 3 * static_cast<int>((k + W - 1) / W); }

  // Where grid point i = n y + x is staged (Shared::at).
  SPMESH_HD std::uint32_t staged_at(int i) const {
    const int x = i % n, y = i / n;
    if (x == 0 || y == 0 || x == side || y == side) {  // side a, t from corner a
      const int a = y == 0 && x < side ? 0 : x == side && y < side ? 1 : y == side && x > 0 ? 2 : 3;
      const int t = a == 0 ? x : a == 1 ? y : a == 2 ? side - x : side - y;
      return std::uint32_t(faces * inner + a * side + t) << 5 | std::uint32_t(D + 2);
    }
    const int cell = layout->cell[i];
    const auto& C = layout->category[cell >> 8];
    return std::uint32_t(faces * C.first + (cell & 255)) << 5 | std::uint32_t(C.shift);
  }

  // b_r q + b_{r+1} u, b = A_D[y], leaving out a term whose weight is 0 (known at compile time;
  // the curve's weights are 0 only at a span's far ends, never both of a pair).
  template <int y, int r>
  SPMESH_HD static T pair(T q, T u) {
    constexpr T b = T(curve_weight(D, y, r)), c = T(curve_weight(D, y, r + 1));
    if constexpr (b == T(0)) return c * u;
    else if constexpr (c == T(0)) return b * q;
    else return b * q + c * u;
  }
  // Point y of a column whose refined control rows are Q, to its place in the staging area.
  template <int y>
  SPMESH_HD static void column_point(const T (&Q)[4][W], std::uint32_t at, int p, T* staging) {
    T* to = staging + ((at >> 5) + (std::uint32_t(p) << (at & 31))) * W;
#pragma unroll
    for (index_t w = 0; w < W; ++w)
      to[w] = pair<y, 0>(Q[0][w], Q[1][w]) + pair<y, 2>(Q[2][w], Q[3][w]);
  }

  // A whole tile's block of category C (W of W columns), from the staging area.
  template <InnerCategory C>
  SPMESH_HD void copy_block(const T* staging, std::int64_t base, index_t first, int thread) const {
    constexpr int words = (faces << C.shift) * W;
    const T* from = staging + faces * C.first * W;
    T* y = out + (base + (std::int64_t(first) << C.shift)) * W;
#pragma unroll
    for (int w = 0; w < words; w += threads)
      if (w + thread < words) y[w + thread] = from[w + thread];
  }

  SPMESH_HD void operator()(int phase, index_t tile, int thread, std::byte* shared) const {
    const Shared sh = carve(shared);
    const index_t first = tile * faces, c = W * (phase / 3);
    const index_t m = k - c < W ? k - c : W;
    const int live = static_cast<int>(q.faces - first < faces ? q.faces - first : index_t(faces));
    if (phase % 3 == 0) {
      if (c == 0) {
        for (int i = thread; i < 4 * n; i += threads) sh.A[i] = layout->A[i];
        for (int i = thread; i < layout->categories; i += threads)
          sh.category[i] = layout->category[i];
        for (int i = thread; i < n * n; i += threads) sh.at[i] = staged_at(i);
      }
      for (int i = thread; i < 4 * live; i += threads) {  // a thread per face and corner
        const int p = i >> 2, a = i & 3;
        const index_t f = first + p;
        const PatchKind kd = kind[f];
        const bool skip = kd == PatchKind::irregular;
        if (c == 0 && a == 0)
          sh.face[p] = {skip ? linalg::Index4{} : linalg::load4(q.corners + 4 * f),
                        skip ? linalg::Index4{} : linalg::load4(q.edge_code + 4 * f),
                        skip ? 0 : starts[f], kd};
        const linalg::Index4 v = skip ? linalg::Index4{} : corner_controls(q, f, a);
        const unsigned places = unsigned(corner_places >> (16 * a));
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          T* to = sh.control + (p * 16 + ((places >> (4 * j)) & 15)) * W;
          const T* x = P + std::int64_t(v.v[j]) * k + c;
#pragma unroll
          for (index_t w = 0; w < W; ++w) to[w] = !skip && w < m ? linalg::ldg(x + w) : T(0);
        }
      }
      return;
    }
    if (phase % 3 == 1) {
      for (int i = thread; i < n * live; i += threads) {
        const int p = i / n, x = i % n;
        T Q[4][W];  // the control rows refined to column x
        const T* a = sh.A + 4 * x;
#pragma unroll
        for (int r = 0; r < 4; ++r) {
          const T* g = sh.control + (p * 16 + 4 * r) * W;
#pragma unroll
          for (index_t w = 0; w < W; ++w)
            Q[r][w] = (a[0] * g[w] + a[1] * g[W + w]) + (a[2] * g[2 * W + w] + a[3] * g[3 * W + w]);
        }
        [&]<int... y>(std::integer_sequence<int, y...>) {
          (column_point<y>(Q, sh.at[n * y + x], p, sh.staging), ...);
        }(std::make_integer_sequence<int, n>{});
      }
      return;
    }
    // Phase 2: the categories inside the faces, block by block, a word per thread (whole lines
    // per warp; in a whole tile of xyz data the blocks' sizes are known at compile time)...
    const int staged = layout->staged;
    if (live == faces && m == W && k == W) {
      [&]<int... i>(std::integer_sequence<int, i...>) {
        (copy_block<inner_category(D, i)>(sh.staging, sh.category[i].base, first, thread), ...);
      }(std::make_integer_sequence<int, inner_categories(D)>{});
    } else {  // ... or a row's m words at a time
      for (int cat = 0; cat < staged; ++cat) {
        const auto& C = sh.category[cat];
        const T* from = sh.staging + faces * C.first * W;
        const std::int64_t row0 = C.base + (std::int64_t(first) << C.shift);
        for (int w = thread; w < (live << C.shift) * int(m); w += threads) {
          const int r = w / int(m), j = w % int(m);
          out[(row0 + r) * k + c + j] = from[r * W + j];
        }
      }
    }
    // ... then the points on the faces' sides that they own, a point per thread.
    const T* sides = sh.staging + faces * inner * W;
    const auto* edge = sh.category + staged - 1;  // edge[j]: edge points of level k + j
    for (int i = thread; i < live << (D + 2); i += threads) {
      const int p = i >> (D + 2), a = (i >> D) & 3, t = i & (side - 1);
      const PatchFace& fc = sh.face[p];
      if (fc.kind == PatchKind::irregular) continue;
      std::int64_t row;
      if (t == 0) {  // corner a, owned by the face of its vertex_edge
        if (!((fc.starts >> a) & 1)) continue;
        row = fc.corners.v[a];
      } else {  // piece t / 2^(D - j + 1) of edge a's points of level k + j, owned by the face
                // of its half-edge along
        const index_t code = fc.codes.v[a];
        if (code & 1) continue;
        const int zeros = linalg::trailing_zeros(unsigned(t)), j = D - zeros;
        row = edge[j].base + (std::int64_t(code >> 1) << (j - 1)) + (t >> (zeros + 1));
      }
      const T* from = sides + i * W;
      T* y = out + row * k + c;
#pragma unroll
      for (index_t w = 0; w < W; ++w)
        if (w < m) y[w] = from[w];
    }
  }
};

}  // namespace detail

// The last levels of a plan by patches: levels[0 .. depth) are the plan's levels k .. k + d - 1
// (quad levels), P level k's vertex data. The region takes the level-by-level kernels
// restricted to it (each level's output only where the region owns it): its levels but the last
// first, then the patches write every point that a face owns (an irregular face's from zeros),
// then the region's last level, restricted to its irregular faces, writes theirs (its bordering
// faces are there only for the levels between, whose points the irregular faces read).
template <class Exec, class T, class S = typename Exec::space>
linalg::Dense<T, S> eval_patches(Exec& exec, const QuadLevel<S>* const* levels,
                                 const Patches<S>& patches, const linalg::Dense<T, S>& P) {
  const int d = patches.depth;
  const QuadLevel<S>& L = *levels[0];
  check_vertex_data(P.rows, L.vertices, "Catmull-Clark eval");
  const index_t k = P.cols;
  linalg::Dense<T, S> out(levels[d - 1]->child_vertices(), k), held;
  const linalg::Dense<T, S>* in = &P;
  const auto* kind = patches.kind.data();
  for (int j = 0; j + 1 < d && patches.region_count > 0; ++j) {
    linalg::Dense<T, S> next(levels[j]->child_vertices(), k);
    detail::subdivide_into(exec, *levels[j], *in, j > 0 ? levels[j - 1] : nullptr,
                           detail::Region{patches.region.data(), kind, patches.region_count, j},
                           next);
    held = std::move(next), in = &held;
  }
  copy_unused(exec, L, P.data.data(), out.data.data(), k);
  const auto launch = [&]<index_t W, int D>() {
    using Kernel = detail::PatchPoints<T, W, D>;
    constexpr int faces = Kernel::faces;
    const Kernel kernel{view(L), L.starts.data(), reinterpret_cast<const PatchKind*>(kind),
                        patches.template layout<T>(), P.data.data(), out.data.data(), k};
    exec.template for_each_tile<Kernel::threads>((L.faces + faces - 1) / faces, kernel.phases(),
                                                 Kernel::bytes(faces), kernel);
  };
  const auto launch_depth = [&]<index_t W>() {
    switch (d) {
      case 1: return launch.template operator()<W, 1>();
      case 2: return launch.template operator()<W, 2>();
      case 3: return launch.template operator()<W, 3>();
      default: return launch.template operator()<W, 4>();
    }
  };
  static_assert(max_patch_depth == 4, "eval_patches: a kernel per depth");
  with_width(k, launch_depth);
  if (patches.irregular_count > 0)
    detail::subdivide_into(exec, *levels[d - 1], *in, d > 1 ? levels[d - 2] : nullptr,
                           detail::Region{patches.irregular.data(), kind, patches.irregular_count,
                                          d - 1, std::uint8_t(PatchKind::irregular)},
                           out);
  return out;
}

}  // namespace spmesh::schemes::catmull_clark
