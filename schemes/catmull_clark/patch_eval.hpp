// Catmull-Clark's last levels by patches (paper section 4.2-4.4's specialised kernels, taken
// several levels at once). Where a face's 1-ring is a smooth regular grid of 4 x 4 points (its
// corners inside the mesh with 4 edges each, no sharp edge at them, none of them a special
// vertex with a crease mask), Catmull-Clark is the tensor product of cubic B-spline
// subdivision (Catmull and Clark 1978; Stam 1998), so every point that the face's
// descendants `depth` levels down carry is a fixed combination of the 16: A_d (x) A_d, with A_d
// the (2^d + 1) x 4 matrix of d curve subdivisions of the middle span. One tile of the executor
// loads the 4 x 4 grids of a run of consecutive faces, refines their rows, and writes the
// points each face owns in the level-(k + d) numbering, which is arithmetic on the face's
// (quads.hpp: face points, edge points, the children of edges and the inner edges all lie in
// blocks that follow the parent's order), so that a block of consecutive faces writes runs of
// consecutive rows. None of the levels between is written. The other faces (irregular, and
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

// The points of the patches of a tile of consecutive faces of level k, W components at a time.
// Per chunk of components: load the 4 x 4 control points; refine each of their rows to side + 1
// points (rows = control A_d^T); then, category by category, compute the points A_d[y] rows[x]:
// a staged category (its rows a block for the tile's faces) into shared memory in row order,
// written out by the next phase a word per thread (whole lines; an irregular face's rows are
// read back from the output, which the region holds already), the other categories (f's edges
// and corners) straight to their rows where f owns them.
template <class T, index_t W>
struct PatchPoints {
  static constexpr int threads = 256;
  static constexpr std::size_t max_bytes = 32 * 1024;
  QuadView q;
  const std::uint8_t* starts;
  const PatchKind* kind;
  const PatchLayout<T>* layout;  // executor memory: too large to pass by value to a kernel
  const T* P;                    // level k
  T* out;                        // level k + d
  index_t k;
  int depth, staged, faces_log2;

  // The bytes of a tile of 2^faces_log2 faces: per face its PatchFace, control points and rows,
  // and two staging buffers of the largest staged category.
  SPMESH_HD static std::size_t bytes(int depth, int faces_log2) {
    const std::size_t n = (std::size_t(1) << depth) + 1, faces = std::size_t(1) << faces_log2;
    return faces * (sizeof(PatchFace) + sizeof(T) * W * (16 + 4 * n + 2 * (std::size_t(1) << (2 * depth - 2))));
  }
  // As many faces a tile, up to 128 / 2^depth, as max_bytes hold.
  static int tile_faces_log2(int depth) {
    int f = 7 - depth;
    while (f > 0 && bytes(depth, f) > max_bytes) --f;
    return f;
  }
  int phases() const { return static_cast<int>((k + W - 1) / W) * (3 + staged); }

  SPMESH_HD void operator()(int phase, index_t tile, int thread, std::byte* shared) const {
    const int n = (1 << depth) + 1, faces = 1 << faces_log2, per_chunk = 3 + staged;
    auto* face = reinterpret_cast<PatchFace*>(shared);
    T* control = reinterpret_cast<T*>(face + faces);  // [face][16][W]
    T* rows = control + faces * 16 * W;               // [face][4 rows][n][W]
    T* buffer = rows + faces * 4 * n * W;             // 2 x [face << (2 depth - 2)][m]
    const index_t first = tile << faces_log2, c = W * (phase / per_chunk);
    const index_t m = k - c < W ? k - c : W;
    const int step = phase % per_chunk;
    if (step == 0) {
      for (int i = thread; i < 16 * faces; i += threads) {
        const int p = i >> 4, s = i & 15;
        const index_t f = first + p;
        const PatchKind kd = f < q.faces ? kind[f] : PatchKind::irregular;
        const bool skip = kd == PatchKind::irregular;
        if (c == 0 && s == 0)
          face[p] = {skip ? Index4{} : load4(q.corners + 4 * f), skip ? Index4{} : load4(q.edge_code + 4 * f),
                     skip ? 0 : starts[f], f < q.faces ? kd : PatchKind::regular};
        if (skip) continue;
        const T* x = P + std::int64_t(control_vertex(q, f, s)) * k + c;
#pragma unroll
        for (index_t w = 0; w < W; ++w)
          if (w < m) control[(p * 16 + s) * W + w] = ldg(x + w);
      }
      return;
    }
    if (step == 1) {
      for (int i = thread; i < 4 * n * faces; i += threads) {
        const int p = i / (4 * n), x = i % n;
        if (face[p].kind == PatchKind::irregular) continue;
        const T* a = layout->A + 4 * x;
        const T* g = control + (p * 16 + 4 * ((i / n) % 4)) * W;
        T* y = rows + i * W;
#pragma unroll
        for (index_t w = 0; w < W; ++w)
          y[w] = (a[0] * g[w] + a[1] * g[W + w]) + (a[2] * g[2 * W + w] + a[3] * g[3 * W + w]);
      }
      return;
    }
    const int s = step - 2;  // write out staged category s - 1, make s (or the rest)
    const int block = faces << (2 * depth - 2);
    if (s > 0) write_out(layout->category[s - 1], buffer + ((s - 1) & 1) * block * W, first, c, m, thread);
    if (s < staged) {
      const auto C = layout->category[s];
      T* staging = buffer + (s & 1) * block * W;
      for (int i = thread; i < faces << C.shift; i += threads) {
        const int p = i >> C.shift;
        if (first + p >= q.faces) break;
        T* y = staging + i * m;
        if (face[p].kind == PatchKind::irregular) {  // the region's rows, as they are
          const T* r = out + (C.base + (std::int64_t(first) << C.shift) + i) * k + c;
          for (index_t w = 0; w < m; ++w) y[w] = r[w];
          continue;
        }
        point(C, p, i & ((1 << C.shift) - 1), rows, y, m);
      }
      return;
    }
    for (int cat = staged, begin = 0, i = thread; cat < layout->categories; ++cat) {
      const auto C = layout->category[cat];
      const int end = begin + (faces << C.shift);
      for (; i < end; i += threads) {
        const int p = (i - begin) >> C.shift, j = (i - begin) & ((1 << C.shift) - 1);
        const PatchFace& fc = face[p];
        if (first + p >= q.faces || fc.kind == PatchKind::irregular) continue;
        std::int64_t row;
        if (C.what == PatchLayout<T>::corner) {
          if (!((fc.starts >> j) & 1)) continue;  // corner j belongs to the face of its vertex_edge
          row = fc.corners.v[j];
        } else {  // piece of edge a: the face of its half-edge along owns it
          const int a = j >> (C.j - 1);
          const index_t code = fc.codes.v[a];
          if (code & 1) continue;
          row = C.base + (std::int64_t(code >> 1) << (C.j - 1)) + (j & ((1 << (C.j - 1)) - 1));
        }
        T value[W];
        point(C, p, j, rows, value, m);
        T* y = out + row * k + c;
        for (index_t w = 0; w < m; ++w) y[w] = value[w];
      }
      begin = end;
    }
  }

  // Point j of category C on face p of the tile: A_d[y] rows[x], into y (m components).
  SPMESH_HD void point(const typename PatchLayout<T>::Category& C, int p, int j, const T* rows,
                       T* y, index_t m) const {
    const int n = (1 << depth) + 1, xy = layout->point[C.first + j];
    const T* a = layout->A + 4 * (xy >> 8);
    const T* r = rows + (p * 4 * n + (xy & 255)) * W;
#pragma unroll
    for (index_t w = 0; w < W; ++w) {
      const T v = (a[0] * r[w] + a[1] * r[n * W + w]) + (a[2] * r[2 * n * W + w] + a[3] * r[3 * n * W + w]);
      if (w < m) y[w] = v;
    }
  }

  // A staged category's block of rows, from `staging` (point i's m components at i m), a word
  // per thread: consecutive threads write consecutive words.
  SPMESH_HD void write_out(const typename PatchLayout<T>::Category& C, const T* staging,
                           index_t first, index_t c, index_t m, int thread) const {
    const index_t faces = index_t(1) << faces_log2;
    const index_t points = (first + faces <= q.faces ? faces : q.faces - first) << C.shift;
    const std::int64_t row0 = C.base + (std::int64_t(first) << C.shift);
    if (m == k) {  // the block is contiguous
      T* y = out + row0 * k;
      for (std::int64_t w = thread; w < std::int64_t(points) * k; w += threads) y[w] = staging[w];
      return;
    }
    for (std::int64_t w = thread; w < std::int64_t(points) * m; w += threads)
      out[(row0 + w / m) * k + c + w % m] = staging[w];
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
    const int faces_log2 = Kernel::tile_faces_log2(d);
    const Kernel kernel{view(L), L.starts.data(), reinterpret_cast<const PatchKind*>(patches.kind.data()),
                        patches.template layout<T>(), P.data.data(), out.data.data(), k, d,
                        patches.staged, faces_log2};
    exec.template for_each_tile<Kernel::threads>((L.faces + (index_t(1) << faces_log2) - 1) >> faces_log2,
                                                 kernel.phases(), Kernel::bytes(d, faces_log2), kernel);
  };
  if (k % 3 == 0) launch.template operator()<3>();
  else launch.template operator()<4>();
  return out;
}

}  // namespace spmesh::schemes::catmull_clark
