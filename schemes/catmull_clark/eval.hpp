// Catmull-Clark eval (paper section 3.2, Fig. 3): a general level's vertex data as mapped
// products on the operators its build made; a plan's eval with its last levels by patches
// (eval_with_patches, the scheme's eval_plan) and build_and_eval's sink that does the same. P
// is n x k row-major data of any width k (positions, colours, UVs), float or double.
#pragma once

#include "linalg/spmv.hpp"
#include "schemes/catmull_clark/patch_eval.hpp"
#include "schemes/catmull_clark/plan.hpp"
#include "schemes/catmull_clark/quad_eval.hpp"
#include "schemes/crease_rules.hpp"
#include "schemes/subdivision.hpp"

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace spmesh::schemes::catmull_clark {

// One level on the general path: P (L.vertices x k) -> the child's vertex data
// (L.child_vertices() x k).
template <class Exec, class T, class S = typename Exec::space>
linalg::Dense<T, S> level_points(Exec& exec, const Level<S>& L, const linalg::Dense<T, S>& P) {
  namespace map = linalg::map;
  const index_t V = L.vertices, F = L.faces, k = P.cols;
  linalg::Dense<T, S> out(L.child_vertices(), k);
  auto face_points = linalg::row_block(out, V, F);
  auto vertex_points = linalg::row_block(out, 0, V);

  // Eq. 6: f = M^T P, val_i,* -> 1/c_i.
  linalg::spmm_t(exec, L.M, P, face_points, map::per_column(L.inv_order));
  // Eq. 2: edge points from E's enumeration and the faces F gives each edge.
  exec.for_each(L.edges, EdgePoints<T, detail::EdgeWeights>{
                             L.edge_from.data(), L.edge_to.data(), L.edge_face0.data(),
                             L.edge_face1.data(), L.rules.edge_crease.data(), {}, P.data.data(),
                             face_points.data, out.data.data() + std::int64_t(V + F) * k, k});
  // Eq. 16: s2 = E P, val_i,* -> b_i (1/n_i^2 where smooth).
  linalg::spmm(exec, L.E, P, vertex_points, map::per_row(L.rules.vertex_ring));
  // Eq. 17: s3 = M f, val_i,* -> b_i.
  linalg::Dense<T, S> s3(V, k);
  linalg::spmm(exec, L.M_rows, face_points, s3, map::per_row(L.rules.vertex_ring));
  // Eq. 14 and the crease repair (Eq. 4 generalised): v = a p + s2 + s3 + d (p_u + p_w).
  const auto& r = L.rules;
  exec.for_each(V, VertexPoints<T>{r.vertex_self.data(), r.vertex_crease.data(),
                                   r.crease_u.data(), r.crease_w.data(), P.data.data(),
                                   s3.data.data(), vertex_points.data, k});
  return out;
}

// All levels of a plan (the scheme's eval_plan): the last ones by the plan's patches
// (patch_eval.hpp), those before one at a time; P0 (base vertices x k) -> the last level's
// vertex data.
template <class Exec, class T, class S = typename Exec::space>
linalg::Dense<T, S> eval_with_patches(Exec& exec, const Plan<S>& plan,
                                      const linalg::Dense<T, S>& P0) {
  const auto& patches = plan.patches;
  if (!patches) return eval_by_levels(exec, plan, P0);
  if (patches.level + patches.depth != static_cast<int>(plan.levels.size()))
    throw DimensionError("Catmull-Clark eval: the plan's patches are not of its last levels");
  const QuadLevel<S>* levels[max_patch_depth];
  for (int j = 0; j < patches.depth; ++j) levels[j] = &std::get<QuadLevel<S>>(plan.levels[patches.level + j]);
  if (patches.level == 0) return eval_patches(exec, levels, patches, P0);
  linalg::Dense<T, S> P = schemes::subdivide(exec, plan, 0, P0);
  for (int l = 1; l < patches.level; ++l) P = schemes::subdivide(exec, plan, l, P);
  return eval_patches(exec, levels, patches, P);
}

namespace detail {

// build_and_eval's sink (subdivision.hpp): the levels before the patch level go as EvalAsBuilt's;
// from the patch level on (chosen as choose_patches chooses: the first candidate level, from
// max_patch_depth to min_chosen_depth levels up, whose region is small enough) it holds that
// level's data and the levels until the last is ready, then takes them by their patches:
// eval(build(...))'s bits, holding the patch levels' operators (a quarter of the next level's
// each) besides.
template <class Exec, class T>
class EvalWithPatches {
public:
  using S = typename Exec::space;
  EvalWithPatches(Exec& exec, const linalg::Dense<T, S>& P0, int levels)
      : exec_(exec), P0_(P0), before_(exec, P0), levels_(levels) {}

  template <class Level>
  void ready(const Level& L) {
    if constexpr (std::is_same_v<Level, QuadLevel<S>>) {
      if (!by_patches_ && l_ >= levels_ - max_patch_depth && l_ <= levels_ - min_chosen_depth) {
        patches_ = find_patches(exec_, L, l_, levels_ - l_, max_region_share);
        by_patches_ = bool(patches_);
        if (by_patches_ && l_ > 0) data_ = std::move(before_).data();
      }
      if (by_patches_ && l_ == levels_ - 1) {
        const QuadLevel<S>* levels[max_patch_depth];
        for (std::size_t j = 0; j < held_.size(); ++j) levels[j] = &held_[j];
        levels[held_.size()] = &L;
        P_ = eval_patches(exec_, levels, patches_, patches_.level > 0 ? data_ : P0_);
        held_.clear(), data_ = {}, patches_ = {};  // before the last level is refined
      }
    }
    if (!by_patches_) before_.ready(L);
    ++l_;
  }
  template <class Level>
  void keep(Level L) {
    if (!by_patches_) before_.keep(std::move(L));
    else if constexpr (std::is_same_v<Level, QuadLevel<S>>)
      if (l_ < levels_) held_.push_back(std::move(L));  // l_: the level after the one kept
  }
  linalg::Dense<T, S> data() && { return by_patches_ ? std::move(P_) : std::move(before_).data(); }

private:
  Exec& exec_;
  const linalg::Dense<T, S>& P0_;
  EvalAsBuilt<QuadLevel<S>, Exec, T> before_;
  int levels_, l_ = 0;
  bool by_patches_ = false;
  Patches<S> patches_;
  std::vector<QuadLevel<S>> held_;
  linalg::Dense<T, S> data_, P_;
};

}  // namespace detail

}  // namespace spmesh::schemes::catmull_clark
