// Sharp features of a solid: a sharpness per edge and per vertex on OpenSubdiv's scale
// (schemes/creasing.hpp: 0 smooth, 10 or more infinitely sharp, semi-sharp between), and the
// rules they give one level of refinement, from the Catmull-Clark crease rules (schemes/
// crease_rules.hpp, the same code the surface schemes run):
//   - on the boundary surface, the surface's rules, so that the refined solid's boundary is
//     Catmull-Clark's refinement of the control mesh's boundary with the same tags;
//   - inside the volume (a crease curve such as a material interface), the crease rule along the
//     curve: a sharp edge's point is its midpoint, a vertex on two sharp edges (u, w) takes
//     (u + 6 V + w) / 8, on three or more (or tagged a corner) stays, and a semi-sharp feature
//     blends these with the solid's smooth rule by OpenSubdiv's weights. An inside crease that
//     reaches the boundary surface leaves the boundary's own rules as they are there.
#pragma once

#include "schemes/catmull_clark/masks.hpp"
#include "solids/refined_topology.hpp"
#include "solids/topology.hpp"

#include <array>
#include <limits>
#include <string>
#include <vector>

namespace spmesh::solids {

template <class S = linalg::Host>
struct SolidSharpness {
  linalg::Array<float, S> edges;     // a level's edges (d1's rows)
  linalg::Array<float, S> vertices;  // its vertices
};

// What a level's sharpness does to its refinement: each vertex's mask (VertexMask's self, ring,
// crease and the crease's ends u, w: on the boundary the surface rule's whole mask; inside only
// the crease rule's part, and `smooth`, the part left to the solid's smooth rule), each edge's
// crease weight w (0 smooth, 1 crease, between: the blend), and the next level's sharpness.
template <class S = linalg::Host>
struct SharpRules {
  linalg::Array<double, S> self, ring, crease, smooth, edge_crease;
  linalg::Array<index_t, S> crease_u, crease_w;
  SolidSharpness<S> child;
};

// The sharpness of `ops`' level (host arrays) from tagged edges
// (vertex pairs) and corner vertices, on the boundary surface or inside, each of the sharpness
// its `*_values` entry gives, or infinitely sharp where those are empty. Throws InputError naming
// a pair that is no edge of a cell, a vertex out of range, or a sharpness that is not a finite
// number >= 0.
inline SolidSharpness<> tagged_sharpness(const BoundaryOperators<>& ops, const std::vector<std::array<index_t, 2>>& edges,
                                         const std::vector<index_t>& corners, const std::string& source,
                                         const std::vector<float>& edge_values = {},
                                         const std::vector<float>& corner_values = {}) {
  using linalg::column_of;
  const index_t V = ops.vertices(), E = ops.edges();
  SolidSharpness<> s{linalg::Array<float>(E), linalg::Array<float>(V)};
  std::fill(s.edges.begin(), s.edges.end(), schemes::creasing::none);
  std::fill(s.vertices.begin(), s.vertices.end(), schemes::creasing::none);
  auto value = [&](const std::vector<float>& values, std::size_t i, const std::string& named) {
    if (values.empty()) return schemes::creasing::infinite;
    if (!(values[i] >= 0 && values[i] < std::numeric_limits<float>::infinity()))
      throw InputError(source + ": " + named + " has sharpness " + std::to_string(values[i]) +
                       " (a finite number >= 0 is needed)");
    return values[i];
  };
  const auto d1 = ops.d1.view();
  for (std::size_t i = 0; i < edges.size(); ++i) {
    const auto [a, b] = edges[i];
    const index_t e = find_edge(d1, a, b);
    const bool found = a != b && e < E && column_of(ops.d1.columns[2 * e]) == std::min(a, b) &&
                       ops.d1.columns[2 * e + 1] == std::max(a, b);
    const std::string named = "the sharp edge " + std::to_string(a) + "-" + std::to_string(b) + " (ids count from 0)";
    if (!found) throw InputError(source + ": " + named + " is no edge of a cell");
    s.edges[e] = value(edge_values, i, named);
  }
  for (std::size_t i = 0; i < corners.size(); ++i) {
    const index_t v = corners[i];
    if (v < 0 || v >= V)
      throw InputError(source + ": the corner " + std::to_string(v) + " is no vertex (0 to " + std::to_string(V - 1) +
                       "; ids count from 0)");
    s.vertices[v] = value(corner_values, i, "the corner " + std::to_string(v));
  }
  return s;
}

// The rules of `sharpness` on the level of `ops`, and the sharpness of the level
// refined_operators makes: each half of an edge takes the child sharpness at its end, new edges
// and points are smooth.
template <class Exec, class S = typename Exec::space>
SharpRules<S> sharp_rules(Exec& exec, const BoundaryOperators<S>& ops, const Transposes<S>& transposed,
                          const SolidSharpness<S>& sharpness, schemes::CreaseMethod method) {
  using linalg::Array;
  namespace creasing = schemes::creasing;
  const index_t V = ops.vertices(), E = ops.edges();
  const index_t edges = 2 * E + ops.d2.nnz() + ops.d3.nnz(), vertices = V + E + ops.faces() + ops.cells();
  SharpRules<S> r{Array<double, S>(V), Array<double, S>(V), Array<double, S>(V), Array<double, S>(V),
                  Array<double, S>(E), Array<index_t, S>(V), Array<index_t, S>(V),
                  {Array<float, S>(edges), Array<float, S>(vertices)}};
  double *self = r.self.data(), *ring = r.ring.data(), *crease = r.crease.data(), *smooth = r.smooth.data(),
         *w = r.edge_crease.data();
  index_t *u = r.crease_u.data(), *other_end = r.crease_w.data();
  float *child_edge = r.child.edges.data(), *child_vertex = r.child.vertices.data();
  const float *es = sharpness.edges.data(), *vs = sharpness.vertices.data();
  const auto d1v = ops.d1.view(), t1v = transposed.t1.view();
  const auto flags = boundary_flags(exec, ops, transposed);
  const char *edge_on = flags.edges.data(), *vertex_on = flags.vertices.data();
  // The halves of a vertex's edges at it are t1's entries: each decays uniformly unless the
  // vertex's rules below say otherwise (an inside edge at a boundary vertex keeps this).
  exec.for_each(edges, [=] SPMESH_HD(index_t e) {
    child_edge[e] = e < t1v.offsets[V] ? creasing::decrement(es[t1v.index(e)]) : creasing::none;
  });
  exec.for_each(vertices, [=] SPMESH_HD(index_t v) { child_vertex[v] = creasing::none; });
  const schemes::Options options{schemes::Boundary::edge_only, method};
  // On the boundary: the surface's rules over the vertex's boundary edges. Inside: the crease
  // rules over all its edges with a zero smooth mask, so that the mask is the crease rule's part
  // alone and the rest, 1 less its weights, is left to the solid's smooth rule.
  exec.for_each(V, [=] SPMESH_HD(index_t v) {
    float vertex = vs[v];
    child_vertex[v] = creasing::decrement(vertex);
    const bool on = vertex_on[v];
    auto walk = [&](auto&& f) {
      for (index_t p = t1v.begin(v); p < t1v.end(v); ++p) {
        const index_t e = t1v.index(p);
        if (on && !edge_on[e]) continue;
        const index_t low = linalg::column_of(d1v.columns[2 * e]), high = d1v.columns[2 * e + 1];
        f(es[e], false, low == v ? high : low, p);
      }
    };
    auto child = [&](index_t p, float c) { child_edge[p] = c; };
    schemes::VertexMask m;
    if (on) {
      m = schemes::vertex_rules(vertex, options, schemes::catmull_clark::SmoothMask{}, walk, child);
    } else {
      m = schemes::vertex_rules(vertex, options, [](index_t) { return schemes::VertexMask{0, 0, 0}; }, walk, child);
      if (t1v.end(v) == t1v.begin(v)) m = schemes::VertexMask{0, 0, 0};  // in no cell: the solid's rule keeps it
    }
    self[v] = m.self, ring[v] = m.ring, crease[v] = m.crease, u[v] = m.u, other_end[v] = m.w;
    smooth[v] = on ? 0.0 : 1.0 - m.self - 2 * m.crease;
  });
  // An edge whose children at both ends stay sharp is a crease; one that decays blends by s.
  exec.for_each(E, [=] SPMESH_HD(index_t e) {
    const float s = es[e];
    const index_t low = linalg::column_of(d1v.columns[2 * e]), high = d1v.columns[2 * e + 1];
    const float c0 = child_edge[detail::position_in_row(t1v, low, e)], c1 = child_edge[detail::position_in_row(t1v, high, e)];
    w[e] = !creasing::is_sharp(s) ? 0.0 : creasing::is_sharp(c0) && creasing::is_sharp(c1) ? 1.0 : double(s);
  });
  return r;
}

}  // namespace spmesh::solids
