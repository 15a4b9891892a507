// Feature-adaptive Catmull-Clark (issue 28; AlSub section 3.4, Eq. 22-25, after Niessner et al.
// 2012): each level refines only the faces whose limit no patch takes on it, with the rings round
// them that their children's patches and rules read. The limit at (face, u, v) is then the
// uniform plan's (limit_at.hpp, bit for bit but for the order of sums) on levels that grow with
// the features, not four times a level.
//
// Level l (the base mesh if it is all quads, else its level 1) holds the faces that the previous
// level refined, and rings round them. The faces it refines, T_l, are those among the children of
// T_(l-1) (every face on the first level) that the samples go down from (limit_at.hpp's held_by:
// none; irregular features, creases not yet decayed), and where asked the faces within a number of
// rings of those (still children of T_(l-1), itself widened as much). Its region E_l is T_l and
// two rings of faces round it (extraction.hpp's faces_within: the indicator propagated with the
// mesh matrix), extracted as a mesh, X M X-ring (Eq. 25), with its vertex data X P (Eq. 24), and
// refined one level as any mesh is. Two rings make every point, edge and sharpness that level
// l + 1 reads about T_l's children exact:
//  - a child vertex is exact where its rule reads faces of E_l only: the vertex points of T_l's
//    corners read their stars (one ring), the edge points of their edges two faces;
//  - the children's patches read their 1-rings, exact with one ring; a boundary fan's net reads
//    the 3 x 3 grids of every quad at the fan's vertex, whose far corners' points read stars two
//    rings from T_l, and so does Chaikin's decay at the far ends of the edges at T_l's corners;
//  - level l + 1's own region, two rings round T_(l+1), lies in the children of one ring round
//    T_l, whose points, topology and sharpness two rings make exact.
// The outer faces' children are not exact (their outer vertices see a boundary that the mesh has
// not) and nothing reads them.
#pragma once

#include "linalg/search.hpp"
#include "schemes/catmull_clark/extraction.hpp"
#include "schemes/catmull_clark/limit_at.hpp"
#include "schemes/catmull_clark/tessellation.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace spmesh::schemes::catmull_clark {

// The rings of faces round the refined ones that each level's region holds (above: two make it
// exact).
inline constexpr int adaptive_rings = 2;

// Level l of an adaptive plan to level l + 1: the region (X, X-ring) refined by a plan of one
// level; or, for a polygon base mesh's first level, the whole mesh (`whole`: X the identity).
template <class S>
struct AdaptiveStep {
  bool whole = false;
  linalg::Array<index_t, S> source;    // per vertex of the region, its vertex on level l (X)
  linalg::Array<index_t, S> position;  // per face of level l, its place in the region or -1 (X-ring)
  linalg::Array<index_t, S> faces;     // per face of the region, its face on level l (position's inverse)
  linalg::Array<std::uint8_t, S> refined;  // per face of the region: in T_l (its children are read)
  index_t refined_faces = 0;               // |T_l|
  Plan<S> plan;                            // the region's one level, its rules made
};

// What build_adaptive makes: per level its quads with their topology, rules, vertex kinds and
// sharp sides (level 0 unused for a polygon base mesh, whose samples start on level 1), and the
// steps between them; the last level's table of sharp edges (its limit masks, where samples are
// approximated) and its depth in that table.
template <class S>
struct AdaptivePlan {
  Options options;
  int isolation = 0;
  index_t base_vertices = 0, base_faces = 0;
  bool polygons = false;
  std::vector<QuadLevel<S>> levels;
  std::vector<linalg::Array<index_t, S>> kinds;
  std::vector<linalg::Array<std::uint8_t, S>> sharp_sides;
  std::vector<AdaptiveStep<S>> steps;
  std::optional<SharpTable<S>> last_table;  // of the build that made the last level
  int last_depth = 0;                        // 1, or 0 where that is the base's build

  int first_level() const { return polygons ? 1 : 0; }
  // The vertices (points) of every level, the memory the vertex data takes per column.
  index_t points() const {
    index_t n = base_vertices;
    for (std::size_t l = 1; l < levels.size(); ++l) n += levels[l].vertices;
    return n;
  }
  // Where each level's points start among them (refinement_matrix's rows): level 0's (the base
  // vertices) at 0, level 1's after them, and so on.
  std::vector<index_t> level_rows() const {
    std::vector<index_t> rows(levels.size(), 0);
    for (std::size_t l = 1; l < rows.size(); ++l) rows[l] = l == 1 ? base_vertices : rows[l - 1] + levels[l - 1].vertices;
    return rows;
  }
};

namespace detail {

// T_l: the faces of level L (`first`: its first level; else the children of T_(l-1), `parent`'s
// marks per face of its region) that no patch holds, or that descend from a selected face
// (`chosen`, per face of L; null: none).
struct FacesToRefine {
  SampleLevel level;
  const std::uint8_t* parent;
  const std::uint8_t* chosen;
  std::uint8_t* refine;
  SPMESH_HD void operator()(index_t f) const {
    const bool candidate = !parent || parent[f >> 2];
    refine[f] = candidate && ((chosen && chosen[f]) || held_by(level, f).holder == FaceHolder::none);
  }
};

// A selection of base faces (one mark a face) on the first level of an adaptive plan: the same
// for a quad mesh; a polygon mesh's level-1 faces are its faces' children, face F's from
// offsets[F] on.
template <class Exec, class S = typename Exec::space>
linalg::Array<std::uint8_t, S> chosen_on_first_level(Exec& exec, const linalg::Array<std::uint8_t, S>& selected,
                                                      const linalg::MeshMatrix<S>& M, bool polygons) {
  const index_t n = polygons ? M.nnz() : M.faces, faces = M.faces;
  linalg::Array<std::uint8_t, S> chosen(n);
  const std::uint8_t* marks = selected.data();
  const index_t* offsets = M.offsets.data();
  std::uint8_t* out = chosen.data();
  exec.for_each(n, [=] SPMESH_HD(index_t f) { out[f] = marks[polygons ? linalg::row_of(offsets, faces, f) : f]; });
  return chosen;
}

// Whether vertex v's walk round its edges misses some of its corners (`corners_at`): its faces
// make more than one fan (a non-manifold vertex or edge, or neighbours of opposite orientation).
template <class View>
struct MissedCorners {
  View view;
  const index_t* corners_at;
  SPMESH_HD bool operator()(index_t v) const {
    index_t faces = 0;
    view.for_each_edge(v, [&](index_t, index_t, index_t face) { faces += face >= 0 ? 1 : 0; });
    return faces != corners_at[v];
  }
};

// InputError naming the first vertex of the first level L whose faces make more than one fan: the
// regions' extraction (and the rings it reads) needs a manifold mesh, as the front door's
// check_mesh asks.
template <class Exec, class Level, class S = typename Exec::space>
void check_manifold(Exec& exec, const Level& L) {
  linalg::Array<index_t, S> corners_at(L.vertices), count(1);
  index_t* at = corners_at.data();
  const index_t* corners = L.M.indices.data();
  exec.for_each(L.vertices, [=] SPMESH_HD(index_t v) { at[v] = 0; });
  exec.for_each(L.M.indices.size(), [=] SPMESH_HD(index_t h) { linalg::atomic_add(at + corners[h], 1); });
  const MissedCorners<decltype(view(L))> missed{view(L), at};
  if (exec.count_if(L.vertices, missed) == 0) return;
  linalg::Array<index_t, S> vertices(L.vertices);
  exec.select_positions(L.vertices, vertices.data(), count.data(), missed);
  throw InputError("build_adaptive: the faces at vertex " + std::to_string(exec.read(vertices.data())) +
                   " make more than one fan (a non-manifold vertex or edge, or neighbours of opposite "
                   "orientation); adaptive refinement takes manifold meshes");
}

// One level of mesh M into `step` (its plan) and the level it makes, with its table.
template <class Exec, class S = typename Exec::space>
QuadLevel<S> refine_region(Exec& exec, linalg::MeshMatrix<S> M, const Sharpness<S>& C, const Options& options,
                           AdaptiveStep<S>& step, std::optional<SharpTable<S>>& table) {
  step.plan.options = options;
  std::optional<AnyLevel<S>> last;
  table.reset();
  schemes::detail::KeepLevelsAndLast<Exec, Plan<S>, AnyLevel<S>> sink{{step.plan}, exec, last, table};
  schemes::detail::build_half_edges<CatmullClark>(exec, std::move(M), C, 1, options, sink);
  return std::get<QuadLevel<S>>(std::move(*last));
}

}  // namespace detail

// The adaptive plan of mesh M (level-0 sharpness C) to `isolation` levels (0 to
// max_sample_depth; a polygon mesh goes to 1 at least, its first level refined whole): the build
// of limit_at_samples(exec, plan, ...), which evaluates it for any vertex data. Refines while
// some face is refined (fewer levels where every face is held sooner). `selected` (one mark per
// base face, or empty) asks for selective refinement: those faces are refined to the isolation
// level too, their patches (adaptive_patches.hpp) 4^L a face, the surface the same. `rings` (0 or
// more) widens each level's refined faces by that many rings of faces round them: more patches of
// the deeper levels round each feature, the same surface. Throws as limit_at_samples does for
// input the half-edge build does not take.
template <class Exec, class S = typename Exec::space>
AdaptivePlan<S> build_adaptive(Exec& exec, linalg::MeshMatrix<S> M, const Sharpness<S>& C, int isolation,
                               Options options = {}, const linalg::Array<std::uint8_t, S>& selected = {},
                               int rings = 0) {
  schemes::detail::check_input<CatmullClark>(exec, M, C, isolation, false);
  if (isolation < 0 || isolation > max_sample_depth)
    throw InputError("build_adaptive: isolation level " + std::to_string(isolation) + ", not 0 to " +
                     std::to_string(max_sample_depth));
  if (rings < 0)
    throw InputError("build_adaptive: " + std::to_string(rings) + " rings round the refined faces, not 0 or more");
  if (selected.size() != 0 && selected.size() != M.faces)
    throw DimensionError("build_adaptive: a selection of " + std::to_string(selected.size()) + " faces, the mesh has " +
                         std::to_string(M.faces));
  AdaptivePlan<S> plan;
  plan.options = options;
  plan.base_vertices = M.vertices, plan.base_faces = M.faces;
  plan.polygons = linalg::has_faces_other_than(exec, M, 4);
  plan.isolation = plan.polygons && isolation == 0 ? 1 : isolation;
  // Per face of the current level, whether it descends from a selected face.
  linalg::Array<std::uint8_t, S> chosen;
  if (selected.size() != 0) chosen = detail::chosen_on_first_level(exec, selected, M, plan.polygons);
  if (plan.polygons) {  // level 1 whole: the samples start there
    plan.levels.emplace_back();
    plan.steps.emplace_back().whole = true;
    plan.levels.push_back(detail::refine_region(exec, std::move(M), C, options, plan.steps[0], plan.last_table));
    plan.last_depth = 1;
    detail::check_manifold(exec, std::get<PolygonLevel<S>>(plan.steps[0].plan.levels[0]));
  } else {
    Plan<S> none;
    std::optional<AnyLevel<S>> last;
    schemes::detail::KeepLevelsAndLast<Exec, Plan<S>, AnyLevel<S>> sink{{none}, exec, last, plan.last_table};
    schemes::detail::build_half_edges<CatmullClark>(exec, std::move(M), C, 0, options, sink);
    detail::check_manifold(exec, plan.levels.emplace_back(std::get<QuadLevel<S>>(std::move(*last))));
  }
  plan.kinds.resize(plan.levels.size()), plan.sharp_sides.resize(plan.levels.size());
  for (int l = plan.first_level();; ++l) {
    const QuadLevel<S>& L = plan.levels[std::size_t(l)];
    linalg::Array<index_t, S> near;
    auto& kinds = plan.kinds[std::size_t(l)] = irregular_vertices(exec, L, near, &plan.sharp_sides[std::size_t(l)]);
    if (l == plan.isolation) break;
    const detail::SampleLevel level{view(L), kinds.data(), plan.sharp_sides[std::size_t(l)].data()};
    linalg::Array<std::uint8_t, S> refine(L.faces);
    const std::uint8_t* parent = l == plan.first_level() ? nullptr : plan.steps[std::size_t(l - 1)].refined.data();
    exec.for_each(L.faces, detail::FacesToRefine{level, parent, chosen.size() ? chosen.data() : nullptr, refine.data()});
    // Widened: r rings of children lie in the children of r rings of parents, so the faces
    // refined stay among the children of the (widened) faces refined before.
    if (rings > 0) refine = faces_within(exec, L, refine, rings);
    const std::uint8_t* marks = refine.data();
    const index_t refined_faces = exec.count_if(L.faces, [=] SPMESH_HD(index_t f) { return marks[f] != 0; });
    if (refined_faces == 0) break;
    auto region = extract_region(exec, L, faces_within(exec, L, refine, adaptive_rings));
    AdaptiveStep<S>& step = plan.steps.emplace_back();
    step.refined_faces = refined_faces;
    const index_t region_size = region.faces.size();
    step.refined = linalg::Array<std::uint8_t, S>(region_size);
    std::uint8_t* refined = step.refined.data();
    const index_t* region_faces = region.faces.data();
    exec.for_each(region_size, [=] SPMESH_HD(index_t i) { refined[i] = marks[region_faces[i]]; });
    if (chosen.size()) {  // the children's marks: their region face's
      linalg::Array<std::uint8_t, S> children(4 * region_size);
      const std::uint8_t* parent_chosen = chosen.data();
      std::uint8_t* child_chosen = children.data();
      exec.for_each(4 * region_size, [=] SPMESH_HD(index_t f) { child_chosen[f] = parent_chosen[region_faces[f >> 2]]; });
      chosen = std::move(children);
    }
    step.source = std::move(region.source), step.position = std::move(region.position);
    step.faces = std::move(region.faces);
    plan.levels.push_back(detail::refine_region(exec, std::move(region.M), region.C, options, step, plan.last_table));
    plan.last_depth = 1;
    plan.kinds.emplace_back(), plan.sharp_sides.emplace_back();
  }
  return plan;
}

// The samples go down an adaptive plan (samples.hpp's step_points and step_matrix): level l's
// points to level l + 1's through the region, X P (Eq. 24) refined; and as a matrix, the region's
// level matrix times X.
template <class Exec, class T, class S>
linalg::Dense<T, S> step_points(Exec& exec, const AdaptivePlan<S>& plan, std::size_t l, const linalg::Dense<T, S>& P) {
  const AdaptiveStep<S>& step = plan.steps.at(l);
  if (step.whole) return schemes::subdivide(exec, step.plan, 0, P);
  const index_t rows = step.source.size(), k = P.cols;
  linalg::Dense<T, S> region(rows, k);
  const index_t* source = step.source.data();
  const T* from = P.data.data();
  T* to = region.data.data();
  exec.for_each(rows * k, [=] SPMESH_HD(index_t i) { to[i] = from[std::int64_t(source[i / k]) * k + i % k]; });
  return schemes::subdivide(exec, step.plan, 0, region);
}
template <class Exec, class S>
linalg::Csr<double, S> step_matrix(Exec& exec, const AdaptivePlan<S>& plan, std::size_t l) {
  const AdaptiveStep<S>& step = plan.steps.at(l);
  auto R = schemes::level_matrix(exec, step.plan.levels[0]);
  if (step.whole) return R;
  const index_t rows = step.source.size();
  const index_t columns = l == 0 ? plan.base_vertices : plan.levels[l].vertices;
  linalg::Array<index_t, S> offsets(rows + 1), indices(rows);
  linalg::Array<double, S> ones(rows);
  index_t *o = offsets.data(), *c = indices.data();
  double* w = ones.data();
  const index_t* source = step.source.data();
  exec.for_each(rows + 1, [=] SPMESH_HD(index_t i) {
    o[i] = i;
    if (i < rows) c[i] = source[i], w[i] = 1;
  });
  const linalg::Csr<double, S> X(rows, columns, std::move(offsets), std::move(indices), std::move(ones));
  return linalg::spgemm(exec, R, X);
}

namespace detail {

// A ring_starts (limit.hpp) that turns none of `vertices`. (Not in with_adaptive_terms, which is
// instantiated with local types.)
template <class Exec, class S = typename Exec::space>
linalg::Array<std::uint8_t, S> no_vertex_turned(Exec& exec, index_t vertices) {
  linalg::Array<std::uint8_t, S> turned(vertices);
  std::uint8_t* t = turned.data();
  exec.for_each(vertices, [=] SPMESH_HD(index_t i) { t[i] = 0; });
  return turned;
}

// with_sample_terms on an adaptive plan's levels: each level's faces, kinds and the places of
// its refined faces' children.
template <class Exec, class F, class S = typename Exec::space>
index_t with_adaptive_terms(Exec& exec, const AdaptivePlan<S>& plan, const linalg::Array<index_t, S>& faces,
                            const linalg::Array<double, S>& u, const linalg::Array<double, S>& v, bool approximate,
                            F&& f) {
  schemes::detail::check_samples(plan.isolation, faces, u, v);
  SampleTerms terms = samples_on(faces, u, v, plan.base_faces, approximate);
  terms.levels = int(plan.levels.size());
  const int first = plan.first_level();
  if (plan.polygons)
    terms.polygon_offsets = std::get<PolygonLevel<S>>(plan.steps[0].plan.levels[0]).M.offsets.data();
  for (int l = first; l < terms.levels; ++l) {
    const auto ul = std::size_t(l);
    terms.level[l] = {view(plan.levels[ul]), plan.kinds[ul].data(), plan.sharp_sides[ul].data(),
                      ul < plan.steps.size() ? plan.steps[ul].position.data() : nullptr,
                      l > first ? plan.steps[ul - 1].refined.data() : nullptr};
  }
  // The last level's limit masks, for the samples that no patch holds: positions only (bilinear
  // reads no tangent, so where each vertex's ring starts does not matter: none is turned).
  linalg::Array<std::uint8_t, S> turned;
  linalg::Array<float, S> vertex_sharpness;
  if (approximate) {
    const QuadLevel<S>& L = plan.levels.back();
    turned = no_vertex_turned(exec, L.vertices);
    terms.last = limit_terms<LimitMask>(exec, L, plan.last_table->at(plan.last_depth), turned, vertex_sharpness);
  }
  return with_tables(exec, plan, terms, first, faces, u, v, plan.isolation, f);
}

}  // namespace detail

// limit_at_samples (limit_at.hpp) on an adaptive plan of isolation level L: the same limits as the
// uniform plan's of depth L, for any vertex data P0 of the plan's base mesh.
template <class Exec, class T, class S = typename Exec::space>
SampleLimits<T, S> limit_at_samples(Exec& exec, const AdaptivePlan<S>& plan, const linalg::Array<index_t, S>& faces,
                                    const linalg::Array<double, S>& u, const linalg::Array<double, S>& v,
                                    const linalg::Dense<T, S>& P0, bool approximate = false) {
  check_vertex_data(P0.rows, plan.base_vertices, "limit_at_samples");
  return schemes::detail::limits_by_terms(exec, P0, faces.size(), [&](auto&& f) {
    return detail::with_adaptive_terms(exec, plan, faces, u, v, approximate, f);
  });
}

// limit_at_samples_matrices on an adaptive plan: W (samples x base vertices) per position and
// derivative, the adaptive refinement composed with the patches' weights.
template <class T, class Exec, class S = typename Exec::space>
SampleMatrices<T, S> limit_at_samples_matrices(Exec& exec, const AdaptivePlan<S>& plan,
                                               const linalg::Array<index_t, S>& faces,
                                               const linalg::Array<double, S>& u, const linalg::Array<double, S>& v,
                                               bool approximate = false) {
  return schemes::detail::matrices_by_terms<T>(exec, plan.base_vertices, faces.size(), [&](auto&& f) {
    return detail::with_adaptive_terms(exec, plan, faces, u, v, approximate, f);
  });
}

// R_adaptive: every level's points of an adaptive plan (plan.points() rows, level by level, level
// 0's the base vertices) from the base vertices, in double and stored as T, so that a pose's
// points are one SpMV (AlSub Eq. 27 through the extractions: each level's matrix times its X).
template <class T, class Exec, class S = typename Exec::space>
linalg::Csr<T, S> refinement_matrix(Exec& exec, const AdaptivePlan<S>& plan) {
  index_t first[max_sample_depth + 1];
  return linalg::cast_values<T>(
      exec, schemes::detail::stacked_levels(exec, plan, int(plan.levels.size()), plan.base_vertices, first));
}

// Every level's points of an adaptive plan for base vertex data P0, level 0's P0 (a copy).
template <class Exec, class T, class S = typename Exec::space>
std::vector<linalg::Dense<T, S>> level_points(Exec& exec, const AdaptivePlan<S>& plan, const linalg::Dense<T, S>& P0) {
  check_vertex_data(P0.rows, plan.base_vertices, "level_points");
  std::vector<linalg::Dense<T, S>> points;
  points.push_back(schemes::detail::copy(exec, P0));
  for (std::size_t l = 0; l < plan.steps.size(); ++l) points.push_back(step_points(exec, plan, l, points.back()));
  return points;
}

// What each level of an adaptive plan does with the faces samples reach: per FaceHolder, how
// many it takes by that patch; FaceHolder::none counts the faces refined (on the last level, those
// left to approximation or refusal).
using PatchCounts = std::array<index_t, 6>;
template <class Exec, class S = typename Exec::space>
std::vector<PatchCounts> patch_counts(Exec& exec, const AdaptivePlan<S>& plan) {
  std::vector<PatchCounts> counts;
  const int first = plan.first_level();
  for (int l = first; l < int(plan.levels.size()); ++l) {
    const auto ul = std::size_t(l);
    const detail::SampleLevel level{view(plan.levels[ul]), plan.kinds[ul].data(), plan.sharp_sides[ul].data()};
    const std::uint8_t* reached = l > first ? plan.steps[ul - 1].refined.data() : nullptr;
    PatchCounts& c = counts.emplace_back();
    for (std::size_t k = 0; k < c.size(); ++k) {
      const auto holder = FaceHolder(k);
      c[k] = exec.count_if(plan.levels[ul].faces, [=] SPMESH_HD(index_t f) {
        return (!reached || reached[f >> 2]) && detail::held_by(level, f).holder == holder;
      });
    }
  }
  return counts;
}

// tessellate (tessellation.hpp) on an adaptive plan of base mesh M (the plan's): the layout of M
// at `rate`, its points by the plan.
template <class Exec, class T, class S = typename Exec::space>
Tessellation<T, S> tessellate(Exec& exec, const AdaptivePlan<S>& plan, const linalg::MeshMatrix<S>& M,
                              const linalg::Dense<T, S>& P0, int rate, bool approximate = false) {
  check_tessellated_data(P0);
  if (M.vertices != plan.base_vertices || M.faces != plan.base_faces)
    throw DimensionError("tessellate: a mesh of " + std::to_string(M.vertices) + " vertices and " +
                         std::to_string(M.faces) + " faces, the plan's base has " + std::to_string(plan.base_vertices) +
                         " and " + std::to_string(plan.base_faces));
  auto layout = tessellation_samples(exec, M, rate);
  return evaluated(exec, std::move(layout), [&](const auto& faces, const auto& u, const auto& v) {
    return limit_at_samples(exec, plan, faces, u, v, P0, approximate);
  });
}

}  // namespace spmesh::schemes::catmull_clark
