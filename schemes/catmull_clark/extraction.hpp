// A region of a quad level as a mesh of its own (AlSub section 3.4, Eq. 22-25): the faces within
// some rings of a set of faces, found by propagating an indicator with the mesh matrix, and
// extracted with their vertices, creases and corners, so that any build refines them as it would
// any mesh. adaptive.hpp refines level by level only such regions.
#pragma once

#include "linalg/array.hpp"
#include "linalg/atomics.hpp"
#include "linalg/base.hpp"
#include "linalg/mesh_matrix.hpp"
#include "linalg/select_ranges.hpp"
#include "schemes/catmull_clark/quads.hpp"
#include "schemes/creasing.hpp"
#include "schemes/tags.hpp"

#include <cstdint>
#include <utility>

namespace spmesh::schemes::catmull_clark {

namespace detail {

// x = M q (Eq. 23): a vertex is marked where a face round it is.
struct VerticesOfFaces {
  QuadView q;
  const std::uint8_t* face_marked;
  std::uint8_t* vertex_marked;
  SPMESH_HD void operator()(index_t v) const {
    std::uint8_t any = 0;
    q.for_each_edge(v, [&](index_t, index_t, index_t face) {
      if (face >= 0 && face_marked[face]) any = 1;
    });
    vertex_marked[v] = any;
  }
};
// q = M^T x (Eq. 22): a face is marked where a corner of it is.
struct FacesAtVertices {
  const index_t* corners;
  const std::uint8_t* vertex_marked;
  std::uint8_t* face_marked;
  SPMESH_HD void operator()(index_t f) const {
    std::uint8_t any = 0;
    for (int a = 0; a < 4; ++a) any |= vertex_marked[linalg::ldg(corners + 4 * f + a)];
    face_marked[f] = any;
  }
};

// Round a vertex, corner h (the half-edge out of it in its face) follows corner next(twin(h)) of
// the face across h; h starts a fan of the region where that face is not in it.
SPMESH_HD inline bool starts_fan(const index_t* twin, const std::uint8_t* in_region, index_t h) {
  const index_t t = linalg::ldg(twin + h);
  return t < 0 || !in_region[t >> 2];
}

// Corner h's walk back round its vertex to the corner that starts its fan; -1 where there is
// none (the faces round the vertex make a cycle: all of them, or a sheet of a non-manifold
// vertex). A corner's predecessor is unique, so the walk ends at a start or back at h.
SPMESH_HD inline index_t fan_start(const index_t* twin, const std::uint8_t* in_region, index_t h) {
  index_t at = h;
  while (!starts_fan(twin, in_region, at)) {
    at = next_half(linalg::ldg(twin + at));
    if (at == h) return -1;
  }
  return at;
}

}  // namespace detail

// A region extracted as a mesh: its quads (in the level's order) on its own vertices, its creases
// and corners; per vertex of it its vertex on the level (X, Eq. 24: a pinched vertex has a copy a
// fan), per face of the level its place among the region's faces or -1 (X-ring, Eq. 25), and the
// region's faces on the level.
template <class S>
struct ExtractedRegion {
  linalg::MeshMatrix<S> M;
  Sharpness<S> C;
  linalg::Array<index_t, S> source, position, faces;
};

// The faces within `rings` rings of the faces marked in `marked` (per face of L), as marks per
// face: the indicator propagated with the mesh matrix, x = M q, q = M^T x, once a ring.
template <class Exec, class S = typename Exec::space>
linalg::Array<std::uint8_t, S> faces_within(Exec& exec, const QuadLevel<S>& L, const linalg::Array<std::uint8_t, S>& marked,
                                            int rings) {
  const auto q = view(L);
  linalg::Array<std::uint8_t, S> faces(L.faces), vertices(L.vertices);
  exec.copy(marked.data(), L.faces, faces.data());
  for (int r = 0; r < rings; ++r) {
    exec.for_each(L.vertices, detail::VerticesOfFaces{q, faces.data(), vertices.data()});
    exec.for_each(L.faces, detail::FacesAtVertices{q.corners, vertices.data(), faces.data()});
  }
  return faces;
}

// The faces of quad level L marked in `in_region` as a mesh (ExtractedRegion), with the level's
// creases (C.edges: inner edges of some sharpness with a face in the region) and vertex sharpness
// (its special vertices'; boundary corners pinned as L's rules pinned them, which the same
// boundary mode pins again). One wait, for the counts.
template <class Exec, class S = typename Exec::space>
ExtractedRegion<S> extract_region(Exec& exec, const QuadLevel<S>& L, const linalg::Array<std::uint8_t, S>& in_region) {
  using linalg::Array;
  using linalg::range;
  const auto q = view(L);
  const index_t V = L.vertices, F = L.faces, sharp = L.C.edges.size();
  const std::uint8_t* in = in_region.data();
  const index_t *twin = q.twin, *corners = q.corners, *halves = L.C.halves.data();
  const float* edge_values = L.C.edge_values.data();
  // Per vertex, the fans of the region round it (`starts`: the corners starting one; 2 or more
  // make a pinch, whose copies are one a fan) and whether it is in the region (`used`: 1; 2
  // where, pinched, some of its faces also make a cycle, which takes the vertex's own copy).
  Array<index_t, S> starts(V), used(V);
  index_t *fan_starts = starts.data(), *in_use = used.data();
  exec.for_each(V, [=] SPMESH_HD(index_t v) { fan_starts[v] = 0, in_use[v] = 0; });
  exec.for_each(4 * F, [=] SPMESH_HD(index_t h) {
    if (!in[h >> 2]) return;
    const index_t v = corners[h];
    linalg::atomic_max(in_use + v, 1);
    if (detail::starts_fan(twin, in, h)) linalg::atomic_add(fan_starts + v, 1);
  });
  exec.for_each(4 * F, [=] SPMESH_HD(index_t h) {
    const index_t v = corners[h];
    if (in[h >> 2] && fan_starts[v] >= 2 && detail::fan_start(twin, in, h) < 0) linalg::atomic_max(in_use + v, 2);
  });
  // The region's faces, its vertices of one copy, the corners that start a pinched vertex's fans,
  // and its creases.
  const auto chosen = linalg::select_ranges(
      exec,
      range(F, [=] SPMESH_HD(index_t f) { return in[f] != 0; },
      range(V, [=] SPMESH_HD(index_t v) { return in_use[v] == 2 || (in_use[v] == 1 && fan_starts[v] <= 1); },
      range(4 * F,
            [=] SPMESH_HD(index_t h) {
              return in[h >> 2] && fan_starts[corners[h]] >= 2 && detail::starts_fan(twin, in, h);
            },
      range(sharp, [=] SPMESH_HD(index_t j) {
        const index_t h = halves[j], t = twin[h];
        return creasing::is_sharp(edge_values[j]) && t >= 0 && (in[h >> 2] || in[t >> 2]);
      })))));
  enum { faces_range, vertices_range, pinches_range, creases_range };
  const index_t faces = chosen.count(faces_range), singles = chosen.count(vertices_range),
                pinches = chosen.count(pinches_range), creases = chosen.count(creases_range);
  const index_t vertices = singles + pinches;
  ExtractedRegion<S> out;
  out.faces = Array<index_t, S>(faces), out.position = Array<index_t, S>(F), out.source = Array<index_t, S>(vertices);
  Array<index_t, S> vertex_id(V), pinch_id(pinches > 0 ? 4 * F : 0);
  const index_t* pos = chosen.positions.data();
  const index_t first_face = chosen.first[faces_range], first_vertex = chosen.first[vertices_range],
                first_pinch = chosen.first[pinches_range], first_crease = chosen.first[creases_range];
  const index_t start_vertex = chosen.start[vertices_range], start_pinch = chosen.start[pinches_range],
                start_crease = chosen.start[creases_range];
  index_t *region_faces = out.faces.data(), *position = out.position.data(), *source = out.source.data(),
          *ids = vertex_id.data(), *pinch_ids = pinch_id.data();
  exec.for_each(F, [=] SPMESH_HD(index_t f) { position[f] = -1; });
  // Numbering: the faces in order; the vertices of one copy in order, then a copy per fan of the
  // pinched ones, in the order of the corners that start their fans.
  exec.for_each(faces + vertices, [=] SPMESH_HD(index_t i) {
    if (i < faces) {
      const index_t f = region_faces[i] = pos[first_face + i];
      position[f] = i;
    } else if (i < faces + singles) {
      const index_t k = i - faces, v = pos[first_vertex + k] - start_vertex;
      source[k] = v, ids[v] = k;
    } else {
      const index_t k = i - faces - singles, h = pos[first_pinch + k] - start_pinch;
      source[singles + k] = corners[h], pinch_ids[h] = singles + k;
    }
  });
  // The region's quads on its own vertices: a pinched corner takes the copy of the fan it is in,
  // the one its walk back round the vertex starts.
  Array<index_t, S> offsets(faces + 1), indices(4 * faces);
  index_t *face_offsets = offsets.data(), *face_corners = indices.data();
  exec.for_each(4 * faces + 1, [=] SPMESH_HD(index_t i) {
    if (i % 4 == 0) face_offsets[i / 4] = i;
    if (i == 4 * faces) return;
    const index_t h = 4 * region_faces[i >> 2] + (i & 3), v = corners[h];
    const index_t start = fan_starts[v] >= 2 ? detail::fan_start(twin, in, h) : -1;
    face_corners[i] = start >= 0 ? pinch_ids[start] : ids[v];
  });
  // The creases between the region's vertices (read from a face of the edge in the region) and
  // every vertex's sharpness.
  Array<index_t, S> rows(creases), cols(creases);
  Array<float, S> values(creases), level_sharpness(V), vertex_sharpness(vertices);
  index_t *crease_from = rows.data(), *crease_to = cols.data();
  float *crease_value = values.data(), *sharpness_of = level_sharpness.data(), *region_sharpness = vertex_sharpness.data();
  exec.for_each(creases > V ? creases : V, [=] SPMESH_HD(index_t i) {
    if (i < V) sharpness_of[i] = creasing::none;
    if (i >= creases) return;
    const index_t j = pos[first_crease + i] - start_crease, h = halves[j];
    const index_t g = in[h >> 2] ? h : twin[h];  // the edge's half-edge in a face of the region
    const index_t at = 4 * position[g >> 2];
    crease_from[i] = face_corners[at + (g & 3)], crease_to[i] = face_corners[at + ((g + 1) & 3)];
    crease_value[i] = edge_values[j];
  });
  const index_t specials = L.C.special.size();
  const index_t* special = L.C.special.data();
  const float* special_values = L.C.special_values.data();
  exec.for_each(specials, [=] SPMESH_HD(index_t k) { sharpness_of[special[k]] = special_values[k]; });
  exec.for_each(vertices, [=] SPMESH_HD(index_t i) { region_sharpness[i] = sharpness_of[source[i]]; });
  out.M = linalg::MeshMatrix<S>(vertices, std::move(offsets), std::move(indices));
  out.C.edges = linalg::Coo<float, S>{vertices, vertices, std::move(rows), std::move(cols), std::move(values)};
  out.C.vertices = std::move(vertex_sharpness);
  return out;
}

}  // namespace spmesh::schemes::catmull_clark
