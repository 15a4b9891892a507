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
// (quad_eval.hpp's Region), before the patches; a point is written by the face that owns it
// on the level-by-level path (its half-edge along, its vertex_edge), so the two parts
// partition the output.
#pragma once

#include "linalg/formats.hpp"
#include "schemes/catmull_clark/quad_eval.hpp"
#include "schemes/catmull_clark/patches.hpp"
#include "schemes/catmull_clark/plan.hpp"
#include "schemes/catmull_clark/quads.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace spmesh::schemes::catmull_clark {

namespace detail {

// The vertex of control point s = 4 row + column of f's 4 x 4 grid, on a level whose face f is
// regular: f's corners inside, the faces across its edges (their corners from the twin's slot
// b: b + 2 beyond corner a, b + 3 beyond corner a + 1) on the sides, the faces diagonal to
// its corners at the grid's corners.
SPMESH_HD inline index_t control_vertex(const QuadView& q, index_t f, int s) {
  // Per control point, 2 bits each (tables in registers, not memory): its kind (0 a corner, 1 a
  // side, 2 a diagonal: 2 1 1 2 / 1 0 0 1 / 1 0 0 1 / 2 1 1 2), its corner or edge a (0 0 0 1 /
  // 3 0 1 1 / 3 3 2 1 / 3 2 2 2) and a side's slot across (- 2 3 - / 3 - - 2 / 2 - - 3 / - 3 2 -).
  const int two = 2 * s, kind = (0x96414196u >> two) & 3, at = (0xab6f5340u >> two) & 3,
            slot = (0x2cc28338u >> two) & 3;
  const index_t h = 4 * f + at;
  if (kind == 0) return ldg(q.corners + h);
  const index_t t = ldg(q.twin + h);
  if (kind == 1) return ldg(q.corners + ((t & ~index_t(3)) | ((t + slot) & 3)));
  const index_t u = ldg(q.twin + next_half(t));  // in the face diagonal to corner a
  return ldg(q.corners + prev_half(u));
}

// What a tile keeps of each of its faces.
struct PatchFace {
  Index4 corners, codes;
  int starts;
  PatchKind kind;
};

// The points of the patches of a tile of consecutive faces of level k, W components at a time,
// in three phases per chunk of components:
// 0. load each face's 4 x 4 control points (a thread per point), with A_d, the layout's cells
//    and categories;
// 1. a thread per face and grid column x: refine the control rows to column x (4 points, in
//    registers), then make the column's points A_d[y] Q, y = 0 .. side: a point inside the face
//    into a staging area in row order, a point of an edge or corner straight to its row where the
//    face owns it (the face of the edge's half-edge along, of the corner's vertex_edge);
// 2. write the staging area out a word per thread (its categories' rows are blocks, whole lines
//    per warp). An irregular face stages the rows the region wrote.
template <class T, index_t W>
struct PatchPoints {
  static constexpr int threads = 256;
  static constexpr std::size_t max_bytes = 40 * 1024;
  using Layout = PatchLayout<T>;
  QuadView q;
  const std::uint8_t* starts;
  const PatchKind* kind;
  const Layout* layout;  // executor memory: too large to pass by value to a kernel
  const T* P;            // level k
  T* out;                // level k + d
  index_t k;
  int depth, faces;      // faces per tile

  // What a tile keeps in shared memory, in this order; per grid point, where it goes: a staged
  // point at staging row (at >> 5) + (p << (at & 31)) of face p, else (bit 31) category
  // (at & 255) and its index (at >> 8 & 255).
  struct Shared {
    PatchFace* face;                       // [faces]
    typename Layout::Category* category;   // [max_categories]
    T *A, *control, *staging;              // [4 n], [faces][16][W], [faces (side - 1)^2][W]
    std::uint32_t* at;                     // [n^2]
  };
  static constexpr std::uint32_t direct = 1u << 31;
  SPMESH_HD static std::size_t bytes(int depth, int faces) {
    const std::size_t n = (std::size_t(1) << depth) + 1, inner = (n - 2) * (n - 2);
    return faces * sizeof(PatchFace) + sizeof(typename Layout::Category) * Layout::max_categories +
           sizeof(T) * (4 * n + faces * W * (16 + inner)) + sizeof(std::uint32_t) * n * n;
  }
  SPMESH_HD static Shared carve(std::byte* at, int depth, int faces) {
    const int n = (1 << depth) + 1;
    Shared s;
    s.face = reinterpret_cast<PatchFace*>(at);
    s.category = reinterpret_cast<typename Layout::Category*>(s.face + faces);
    s.A = reinterpret_cast<T*>(s.category + Layout::max_categories);
    s.control = s.A + 4 * n;
    s.staging = s.control + faces * 16 * W;
    s.at = reinterpret_cast<std::uint32_t*>(s.staging + faces * (n - 2) * (n - 2) * W);
    return s;
  }
  // Faces per tile: a column each for most of the threads, as far as max_bytes allow.
  static int tile_faces(int depth) {
    int f = threads / ((1 << depth) + 1);
    while (f > 1 && bytes(depth, f) > max_bytes) --f;
    return f;
  }
  int phases() const { return 3 * static_cast<int>((k + W - 1) / W); }

  SPMESH_HD void operator()(int phase, index_t tile, int thread, std::byte* shared) const {
    const int n = (1 << depth) + 1;
    const Shared sh = carve(shared, depth, faces);
    const index_t first = tile * faces, c = W * (phase / 3);
    const index_t m = k - c < W ? k - c : W;
    const int live = static_cast<int>(q.faces - first < faces ? q.faces - first : faces);
    if (phase % 3 == 0) {
      if (c == 0) {
        for (int i = thread; i < 4 * n; i += threads) sh.A[i] = layout->A[i];
        for (int i = thread; i < layout->categories; i += threads) sh.category[i] = layout->category[i];
        for (int i = thread; i < n * n; i += threads) {
          const int cell = layout->cell[i], cat = cell >> 8, j = cell & 255;
          const auto& C = layout->category[cat];
          sh.at[i] = cat < layout->staged ? std::uint32_t(faces * C.first + j) << 5 | std::uint32_t(C.shift)
                                          : direct | std::uint32_t(j) << 8 | std::uint32_t(cat);
        }
      }
      for (int i = thread; i < 16 * live; i += threads) {
        const int p = i >> 4, s = i & 15;
        const index_t f = first + p;
        const PatchKind kd = kind[f];
        const bool skip = kd == PatchKind::irregular;
        if (c == 0 && s == 0)
          sh.face[p] = {skip ? Index4{} : load4(q.corners + 4 * f),
                        skip ? Index4{} : load4(q.edge_code + 4 * f), skip ? 0 : starts[f], kd};
        if (skip) continue;
        const T* x = P + std::int64_t(control_vertex(q, f, s)) * k + c;
#pragma unroll
        for (index_t w = 0; w < W; ++w)
          if (w < m) sh.control[(p * 16 + s) * W + w] = ldg(x + w);
      }
      return;
    }
    if (phase % 3 == 1) {
      for (int i = thread; i < n * live; i += threads) {
        const int p = i / n, x = i % n;
        const PatchFace& fc = sh.face[p];  // in shared memory: its arrays are indexed at run time
        if (fc.kind == PatchKind::irregular) {  // the region's rows inside the face, as they are
          for (int y = 1; y + 1 < n; ++y) {
            if (x == 0 || x + 1 == n) break;
            const int cell = layout->cell[n * y + x];
            const auto& C = sh.category[cell >> 8];
            const std::int64_t row = C.base + (std::int64_t(first + p) << C.shift) + (cell & 255);
            const std::uint32_t to = sh.at[n * y + x];
            T* y_at = sh.staging + ((to >> 5) + (std::uint32_t(p) << (to & 31))) * m;
            for (index_t w = 0; w < m; ++w) y_at[w] = out[row * k + c + w];
          }
          continue;
        }
        T Q[4][W];  // the control rows refined to column x
        const T* a = sh.A + 4 * x;
#pragma unroll
        for (int r = 0; r < 4; ++r) {
          const T* g = sh.control + (p * 16 + 4 * r) * W;
#pragma unroll
          for (index_t w = 0; w < W; ++w)
            Q[r][w] = (a[0] * g[w] + a[1] * g[W + w]) + (a[2] * g[2 * W + w] + a[3] * g[3 * W + w]);
        }
        for (int y = 0; y < n; ++y) {
          const T* b = sh.A + 4 * y;
          T v[W];
#pragma unroll
          for (index_t w = 0; w < W; ++w) v[w] = (b[0] * Q[0][w] + b[1] * Q[1][w]) + (b[2] * Q[2][w] + b[3] * Q[3][w]);
          const std::uint32_t at = sh.at[n * y + x];
          T* to;
          if (!(at & direct)) {
            to = sh.staging + ((at >> 5) + (std::uint32_t(p) << (at & 31))) * m;
          } else {
            const auto& C = sh.category[at & 255];
            const int j = (at >> 8) & 255;
            std::int64_t row;
            if (C.what == Layout::corner) {  // the face of its vertex_edge owns a corner
              if (!((fc.starts >> j) & 1)) continue;
              row = fc.corners.v[j];
            } else {  // the face of its half-edge along owns a piece of an edge
              const index_t code = fc.codes.v[j >> (C.j - 1)];
              if (code & 1) continue;
              row = C.base + (std::int64_t(code >> 1) << (C.j - 1)) + (j & ((1 << (C.j - 1)) - 1));
            }
            to = out + row * k + c;
          }
#pragma unroll
          for (index_t w = 0; w < W; ++w)
            if (w < m) to[w] = v[w];
        }
      }
      return;
    }
    // Phase 2: the staged categories' blocks, a word per thread.
    for (int cat = 0; cat < layout->staged; ++cat) {
      const auto& C = sh.category[cat];
      const T* from = sh.staging + std::int64_t(faces) * C.first * m;
      const std::int64_t row0 = C.base + (std::int64_t(first) << C.shift), words = std::int64_t(live << C.shift) * m;
      if (m == k) {  // the block is contiguous
        T* y = out + row0 * k;
        for (std::int64_t w = thread; w < words; w += threads) y[w] = from[w];
      } else {
        for (std::int64_t w = thread; w < words; w += threads) out[(row0 + w / m) * k + c + w % m] = from[w];
      }
    }
  }
};

}  // namespace detail

// The last levels of a plan by patches: levels[0 .. depth) are the plan's levels k .. k + d - 1
// (quad levels), P level k's vertex data. The region takes the level-by-level kernels
// restricted to it (each level's output only where the region owns it), then the patches
// write every point that a regular face owns.
template <class Exec, class T, class S = typename Exec::space>
linalg::Dense<T, S> eval_patches(Exec& exec, const QuadLevel<S>* const* levels,
                                 const Patches<S>& patches, const linalg::Dense<T, S>& P) {
  const int d = patches.depth;
  const QuadLevel<S>& L = *levels[0];
  if (P.rows != L.vertices)
    throw DimensionError("catmull_clark::eval: vertex data has " + std::to_string(P.rows) +
                         " rows, the level has " + std::to_string(L.vertices) + " vertices");
  const index_t k = P.cols;
  linalg::Dense<T, S> out(levels[d - 1]->child_vertices(), k);
  if (patches.region_count > 0) {
    linalg::Dense<T, S> held;
    const linalg::Dense<T, S>* in = &P;
    for (int j = 0; j < d; ++j) {
      const detail::Region region{patches.region.data(), patches.kind.data(), patches.region_count, j};
      const QuadLevel<S>* parent = j > 0 ? levels[j - 1] : nullptr;
      if (j + 1 == d) {
        detail::subdivide_into(exec, *levels[j], *in, parent, region, out);
      } else {
        linalg::Dense<T, S> next(levels[j]->child_vertices(), k);
        detail::subdivide_into(exec, *levels[j], *in, parent, region, next);
        held = std::move(next), in = &held;
      }
    }
  }
  copy_unused(exec, L, P.data.data(), out.data.data(), k);
  const auto launch = [&]<index_t W>() {
    using Kernel = detail::PatchPoints<T, W>;
    const int faces = Kernel::tile_faces(d);
    const Kernel kernel{view(L), L.starts.data(), reinterpret_cast<const PatchKind*>(patches.kind.data()),
                        patches.template layout<T>(), P.data.data(), out.data.data(), k, d, faces};
    exec.template for_each_tile<Kernel::threads>((L.faces + faces - 1) / faces, kernel.phases(),
                                                 Kernel::bytes(d, faces), kernel);
  };
  if (k % 3 == 0) launch.template operator()<3>();
  else launch.template operator()<4>();
  return out;
}

}  // namespace spmesh::schemes::catmull_clark
