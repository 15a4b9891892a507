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
#include "schemes/catmull_clark/plan.hpp"
#include "schemes/catmull_clark/quads.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace spmesh::schemes::catmull_clark {

// Where each point of a patch goes: the level-(k + d) rows of the points on a level-k face f,
// as categories of points that lie in blocks of rows (face points, points of inner edges and
// of the children of f's edges, f's corners), and A_d. Made on the host from level k's counts.
template <class T>
struct PatchLayout {
  static constexpr int max_side = 1 << max_patch_depth, max_categories = 1 + 3 * max_patch_depth +
                                                                         max_patch_depth * (max_patch_depth - 1) / 2;
  enum What : std::uint8_t { face_point, inner_edge, outer_edge, corner };
  // A category's points: `count` per face, of which point i of face f goes to row
  // base + per_face * f + i (face points and inner edges), base + per_edge * e + i % per_edge
  // on edge i / per_edge of the face (outer edges), or the corner's vertex (corners). j: the
  // level (k + j) that made them; from: the level (k + from) that made an inner edge.
  struct Category {
    What what;
    std::int8_t j, from;
    index_t count;
    std::int64_t base, per_face;
  };
  int depth = 0, side = 0, categories = 0;  // side: 2^depth, the grid's cells per face side
  index_t points = 0;                       // per face: (side + 1)^2
  Category category[max_categories] = {};
  T A[(max_side + 1) * 4] = {};  // A_d, row x: the weights of the 4 control points of a span

  PatchLayout() = default;
  // Level k's vertices, faces and edges.
  PatchLayout(int d, std::int64_t V, std::int64_t F, std::int64_t E) : depth(d), side(1 << d) {
    points = (side + 1) * (side + 1);
    std::int64_t v[max_patch_depth + 1], f[max_patch_depth + 1], e[max_patch_depth + 1];
    v[0] = V, f[0] = F, e[0] = E;
    for (int l = 0; l < d; ++l)  // quads.hpp: a quad level gives V + F + E, 4F and 2E + 4F
      v[l + 1] = v[l] + f[l] + e[l], f[l + 1] = 4 * f[l], e[l + 1] = 2 * e[l] + 4 * f[l];
    auto add = [&](What what, int j, int from, index_t count, std::int64_t base, std::int64_t per_face) {
      category[categories++] = {what, std::int8_t(j), std::int8_t(from), count, base, per_face};
    };
    for (int j = 1; j <= d; ++j) {
      const std::int64_t edge_points = v[j - 1] + f[j - 1];
      add(face_point, j, 0, 1 << (2 * (j - 1)), v[j - 1], std::int64_t(1) << (2 * (j - 1)));
      for (int i = 1; i < j; ++i) {  // inner edges of level k + i, halved j - 1 - i times
        const std::int64_t pieces = std::int64_t(1) << (j - 1 - i), count = (std::int64_t(1) << (2 * i)) * pieces;
        add(inner_edge, j, i, index_t(count), edge_points + pieces * 2 * e[i - 1], count);
      }
      add(outer_edge, j, 0, 4 << (j - 1), edge_points, std::int64_t(1) << (j - 1));
    }
    add(corner, d, 0, 4, 0, 0);
    // A_d: d rounds of the curve rules (vertex (1, 6, 1)/8, edge (1, 1)/2) on a span and one
    // point each side; rows 1 .. side + 1 of the last round are the span's points.
    double w[max_side + 3][4] = {}, next[max_side + 3][4];
    for (int c = 0; c < 4; ++c) w[c][c] = 1;
    for (int n = 1; n < side; n *= 2) {
      for (int i = 0; i <= n + 1; ++i)
        for (int c = 0; c < 4; ++c) next[2 * i][c] = (w[i][c] + w[i + 1][c]) / 2;
      for (int i = 0; i <= n; ++i)
        for (int c = 0; c < 4; ++c) next[2 * i + 1][c] = (w[i][c] + 6 * w[i + 1][c] + w[i + 2][c]) / 8;
      for (int i = 0; i < 2 * n + 3; ++i)
        for (int c = 0; c < 4; ++c) w[i][c] = next[i][c];
    }
    for (int x = 0; x <= side; ++x)
      for (int c = 0; c < 4; ++c) A[4 * x + c] = static_cast<T>(w[x + 1][c]);
  }
};

namespace detail {

// The grid of a patch: f's corner a at (0,0), (s,0), (s,s), (0,s) (s = side, half-edge a runs
// from corner a to corner a + 1); its 4 x 4 control points at rows y and columns x -1 .. 2 of
// the unit grid, f's corners at 0 and 1.
struct GridPoint {
  int x, y;
};
SPMESH_HD inline GridPoint corner_at(int a, int s) {
  return {a == 1 || a == 2 ? s : 0, a >= 2 ? s : 0};
}
// The corner of the descendant of f numbered `r` among the 4^t of t levels down (base-4 digits,
// the first the child of f: child a of a quad lies at its corner a, turned as its parent).
SPMESH_HD inline GridPoint descendant(index_t r, int t, int& s) {
  GridPoint o{0, 0};
  for (int step = t - 1; step >= 0; --step) {
    const int q = static_cast<int>((r >> (2 * step)) & 3);
    s /= 2;
    o.x += q == 1 || q == 2 ? s : 0, o.y += q >= 2 ? s : 0;
  }
  return o;
}

// The vertex of control point (row, column) of f's 4 x 4 grid, on a level whose face f is
// regular: f's corners inside, the faces across its edges (their corners from the twin's slot
// b: b + 2 beyond corner a, b + 3 beyond corner a + 1) on the sides, the faces diagonal to
// its corners at the grid's corners.
SPMESH_HD inline index_t control_vertex(const QuadView& q, index_t f, int s) {
  // Per control point: 0 a corner, 1 a side (slot 2 or 3 across edge a), 2 a diagonal.
  constexpr std::uint8_t kind[16] = {2, 1, 1, 2, 1, 0, 0, 1, 1, 0, 0, 1, 2, 1, 1, 2};
  constexpr std::uint8_t at[16] = {0, 0, 0, 1, 3, 0, 1, 1, 3, 3, 2, 1, 3, 2, 2, 2};
  constexpr std::uint8_t slot[16] = {0, 2, 3, 0, 3, 0, 0, 2, 2, 0, 0, 3, 0, 3, 2, 0};
  const index_t h = 4 * f + at[s];
  if (kind[s] == 0) return ldg(q.corners + h);
  const index_t t = ldg(q.twin + h);
  if (kind[s] == 1) return ldg(q.corners + ((t & ~index_t(3)) | ((t + slot[s]) & 3)));
  const index_t u = ldg(q.twin + next_half(t));  // in the face diagonal to corner a
  return ldg(q.corners + prev_half(u));
}

// What a tile keeps of each of its faces.
struct PatchFace {
  Index4 corners, codes;
  int starts;
  PatchKind kind;
};

// The points of the patches of a tile of `faces` consecutive faces of level k, W components at
// a time (phases 3c, 3c + 1, 3c + 2 for components W c ..): load the 4 x 4 control points,
// refine each of their rows to side + 1 points (Q = control A_d^T), then write every point the
// face owns, A_d[y] Q[x], category by category so that consecutive threads write consecutive
// rows. Irregular faces write nothing.
template <class T, index_t W>
struct PatchPoints {
  static constexpr int threads = 256;
  QuadView q;
  const std::uint8_t* starts;
  const PatchKind* kind;
  const T* P;  // level k
  T* out;      // level k + d
  index_t k;
  index_t faces;  // per tile
  PatchLayout<T> layout;

  static index_t faces_per_tile(int depth) { return index_t(128) >> depth; }
  static std::size_t bytes(int depth) {
    const std::size_t n = (std::size_t(1) << depth) + 1;
    return faces_per_tile(depth) * (sizeof(PatchFace) + sizeof(T) * W * (16 + 4 * n));
  }
  int phases() const { return 3 * static_cast<int>((k + W - 1) / W); }

  SPMESH_HD void operator()(int phase, index_t tile, int thread, std::byte* shared) const {
    const int n = layout.side + 1;
    auto* face = reinterpret_cast<PatchFace*>(shared);
    T* control = reinterpret_cast<T*>(face + faces);  // [face][16][W]
    T* rows = control + faces * 16 * W;               // [face][4 rows][n][W]
    const index_t first = tile * faces, c = W * (phase / 3);
    const index_t m = k - c < W ? k - c : W;
    if (phase % 3 == 0) {
      for (index_t i = thread; i < 16 * faces; i += threads) {
        const index_t p = i / 16, f = first + p;
        const int s = static_cast<int>(i % 16);
        const PatchKind kd = f < q.faces ? kind[f] : PatchKind::irregular;
        if (c == 0 && s == 0)
          face[p] = {kd == PatchKind::irregular ? Index4{} : load4(q.corners + 4 * f),
                     kd == PatchKind::irregular ? Index4{} : load4(q.edge_code + 4 * f),
                     kd == PatchKind::irregular ? 0 : starts[f], kd};
        if (kd == PatchKind::irregular) continue;
        const T* x = P + std::int64_t(control_vertex(q, f, s)) * k + c;
        for (index_t w = 0; w < m; ++w) control[(p * 16 + s) * W + w] = ldg(x + w);
      }
    } else if (phase % 3 == 1) {
      for (index_t i = thread; i < 4 * n * faces; i += threads) {
        const index_t p = i / (4 * n), r = (i / n) % 4, x = i % n;
        if (face[p].kind == PatchKind::irregular) continue;
        const T* a = layout.A + 4 * x;
        const T* g = control + (p * 16 + 4 * r) * W;
        T* y = rows + ((p * 4 + r) * n + x) * W;
        for (index_t w = 0; w < m; ++w)
          y[w] = (a[0] * g[w] + a[1] * g[W + w]) + (a[2] * g[2 * W + w] + a[3] * g[3 * W + w]);
      }
    } else {
      index_t i = thread, begin = 0;
      for (int cat = 0; cat < layout.categories; ++cat) {
        const auto& C = layout.category[cat];
        const index_t end = begin + C.count * faces;
        for (; i < end; i += threads) {
          const index_t p = (i - begin) / C.count, j = (i - begin) % C.count;
          if (face[p].kind == PatchKind::irregular) continue;
          std::int64_t row;
          const GridPoint g = place(C, face[p], first + p, j, row);
          if (row < 0) continue;  // a point another face owns
          const T* a = layout.A + 4 * g.y;
          const T* r = rows + (p * 4 * n + g.x) * W;
          T* y = out + row * k + c;
          for (index_t w = 0; w < m; ++w)
            y[w] = (a[0] * r[w] + a[1] * r[n * W + w]) + (a[2] * r[2 * n * W + w] + a[3] * r[3 * n * W + w]);
        }
        begin = end;
      }
    }
  }

  // Point j of category C on face f: its place on the grid, and its row (-1 where f does not
  // own it: the points of an edge belong to the face of its half-edge along, a corner to the
  // face of its vertex_edge).
  SPMESH_HD GridPoint place(const typename PatchLayout<T>::Category& C, const PatchFace& fc,
                            index_t f, index_t j, std::int64_t& row) const {
    using L = PatchLayout<T>;
    const int side = layout.side;
    if (C.what == L::corner) {
      const int a = static_cast<int>(j);
      row = (fc.starts >> a) & 1 ? fc.corners.v[a] : -1;
      return corner_at(a, side);
    }
    if (C.what == L::outer_edge) {  // piece i of edge a, from corner a (the edge runs along)
      const index_t per_edge = index_t(C.per_face), a = j / per_edge, i = j % per_edge;
      const index_t code = fc.codes.v[a];
      row = code & 1 ? -1 : C.base + C.per_face * (code >> 1) + i;
      const GridPoint from = corner_at(int(a), side), to = corner_at(int((a + 1) & 3), side);
      const int step = (side >> C.j) * (2 * int(i) + 1);
      return {from.x + (to.x - from.x) / side * step, from.y + (to.y - from.y) / side * step};
    }
    row = C.base + C.per_face * f + j;
    if (C.what == L::face_point) {
      int s = side;
      const GridPoint o = descendant(j, C.j - 1, s);
      return {o.x + s / 2, o.y + s / 2};
    }
    // Piece i of the inner edge of corner a of descendant g of level k + from - 1, from the
    // point of g's edge a to g's centre (the inner edge runs along that way).
    const index_t pieces = index_t(1) << (C.j - 1 - C.from), r = j / pieces, i = j % pieces;
    int s = side;
    const GridPoint o = descendant(r >> 2, C.from - 1, s);
    const int a = static_cast<int>(r & 3);
    const GridPoint u = corner_at(a, s), v = corner_at((a + 1) & 3, s);
    const GridPoint mid{o.x + (u.x + v.x) / 2, o.y + (u.y + v.y) / 2}, centre{o.x + s / 2, o.y + s / 2};
    const int step = (side >> C.j) * (2 * int(i) + 1), half = s / 2;
    return {mid.x + (centre.x - mid.x) / half * step, mid.y + (centre.y - mid.y) / half * step};
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
    const Kernel kernel{view(L), L.starts.data(), reinterpret_cast<const PatchKind*>(patches.kind.data()),
                        P.data.data(), out.data.data(), k, Kernel::faces_per_tile(d),
                        PatchLayout<T>(d, L.vertices, L.faces, L.edges)};
    const index_t tiles = (L.faces + kernel.faces - 1) / kernel.faces;
    exec.template for_each_tile<Kernel::threads>(tiles, kernel.phases(), Kernel::bytes(d), kernel);
  };
  if (k % 3 == 0) launch.template operator()<3>();
  else launch.template operator()<4>();
  return out;
}

}  // namespace spmesh::schemes::catmull_clark
