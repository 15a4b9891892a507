// The front door of every subdivision scheme (docs/design.md "Build, eval, replay"), written
// once over a scheme's traits (schemes.hpp lists them; catmull_clark/scheme.hpp is one):
//   build<Scheme>(exec, M, C, levels)      topology only: a Plan of levels
//   eval(exec, plan, P0)                   vertex data through every level of a plan
//   subdivide(exec, plan, l, P)            level l only (or subdivide(exec, level, P))
//   build_and_eval<Scheme>(exec, M, C, levels, P0)   both in one pass, keeping no plan
//   level_matrix(exec, level)              one level's eval as a matrix S_l
//   refinement_matrix<T>(exec, plan)       R = S_L ... S_1: P_L = R P_0 is one SpMV
//   estimate_size<Scheme>(counts, levels)  sizes and bytes before any work (size_estimate.hpp)
// A scheme's traits say only what differs between schemes: its levels, its one-level builds,
// its smooth mask (or its own rules, without crease rules), its size rules and, where it has
// them, its own eval (Catmull-Clark's patches).
// Its level types bring, found by argument-dependent lookup, level_points(exec, L, P) (one
// level's vertex data; a level evaluated through its parent takes &parent last) and
// level_matrix(exec, L).
#pragma once

#include "linalg/convert.hpp"
#include "linalg/spgemm.hpp"
#include "schemes/half_edges/rules.hpp"
#include "schemes/plan.hpp"
#include "schemes/size_estimate.hpp"
#include "schemes/triangles.hpp"

#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace spmesh::schemes {

namespace detail {

template <class T>
inline constexpr bool is_variant = false;
template <class... T>
inline constexpr bool is_variant<std::variant<T...>> = true;

// f(level) for a level, or for the level a variant holds.
template <class Level, class F>
decltype(auto) visit_level(Level&& level, F&& f) {
  if constexpr (is_variant<std::remove_cvref_t<Level>>)
    return std::visit(std::forward<F>(f), std::forward<Level>(level));
  else
    return f(std::forward<Level>(level));
}

template <class Exec, class T, class S = typename Exec::space>
linalg::Dense<T, S> copy(Exec& exec, const linalg::Dense<T, S>& P0) {
  linalg::Dense<T, S> P(P0.rows, P0.cols);
  const T* in = P0.data.data();
  T* out = P.data.data();
  exec.for_each(P0.data.size(), [=] SPMESH_HD(index_t i) { out[i] = in[i]; });
  return P;
}

// A scheme without crease rules refuses sharpness: throws InputError naming what C holds.
template <class Scheme, class Exec, class S = typename Exec::space>
void check_smooth(Exec& exec, const Sharpness<S>& C) {
  const float* vs = C.vertices.data();
  const index_t corners =
      exec.count_if(C.vertices.size(), [=] SPMESH_HD(index_t i) { return vs[i] != 0; });
  if (C.edges.nnz() > 0 || corners > 0)
    throw InputError(std::string(Scheme::title) +
                     " subdivision has no crease rules, but the input has " +
                     std::to_string(C.edges.nnz()) + " sharp edges and " + std::to_string(corners) +
                     " sharp vertices");
}

// The checks of a build's input that its levels do not make themselves: sharpness where the
// scheme has no crease rules; with `faces`, triangles where it takes only those (the
// half-edge path's first level finds other faces in its own pass).
template <class Scheme, class Exec, class S = typename Exec::space>
void check_input(Exec& exec, const linalg::MeshMatrix<S>& M, const Sharpness<S>& C, int levels,
                 bool faces) {
  check_level_count(levels);
  if constexpr (!Scheme::crease_rules) check_smooth<Scheme>(exec, C);
  if constexpr (Scheme::triangles_only)
    if (faces) check_triangles(exec, M, Scheme::title);
}

// Throws CapacityError, once a build's first level knows its edges, if a later level would
// exceed 32-bit indices (estimate_size says the same before any work).
template <class Scheme, class Level>
void check_capacity(const Level& L, std::int64_t corners, int levels) {
  SizeEstimate::Counts base{L.vertices, L.faces, corners, L.edges};
  if constexpr (requires { L.boundary_edges; }) base.boundary_edges = L.boundary_edges;
  estimate_size<Scheme>(base, levels).check_indices();
}

// The step that makes each half-edge level's rules: for a scheme with crease rules, the shared
// ones (half_edges/rules.hpp) with its smooth mask (Scheme::SmoothMask); else its own
// (Scheme::level_rules).
template <class Scheme, class Exec, class Level>
auto level_rules(Exec& exec, const Level& first, const Options& options) {
  if constexpr (Scheme::crease_rules)
    return crease_rules_by_level<typename Scheme::SmoothMask>(exec, first, options);
  else
    return Scheme::level_rules(exec, first, options);
}

// Whether M must be built on the general path for `options`: the smooth triangle rule
// (TriangleRule::smooth, a scheme with triangle_rules) is there only, so a base mesh with
// triangles under it is built there.
template <class Scheme, class Exec, class S>
bool needs_general_path(Exec& exec, const linalg::MeshMatrix<S>& M, const Options& options) {
  if constexpr (requires { Scheme::triangle_rules; })
    return options.triangles == TriangleRule::smooth && linalg::has_faces_of(exec, M, 3);
  else
    return false;
}

// The half-edge build of `levels` levels of mesh M with level-0 sharpness C into `sink`: the
// scheme's first level, then per level its rules (level_rules' step), sink.ready(L),
// the child (Scheme::refine, with the child's own topology unless it is the last), and
// sink.keep(L); returns the refined mesh (M itself for zero levels). A sink that keeps the last
// level (Sink::keeps_last_level: limit.hpp's) has it refined with its topology and rules too
// and takes it, its mesh included, at sink.last_level(L) (the refined mesh returned is empty).
template <class Scheme, class Exec, class Sink, class S = typename Exec::space>
RefinedMesh<S> build_half_edges(Exec& exec, linalg::MeshMatrix<S> M, const Sharpness<S>& C,
                                int levels, const Options& options, Sink& sink) {
  constexpr bool keep_last = requires { Sink::keeps_last_level; };
  if (levels == 0 && !keep_last) return RefinedMesh<S>(std::move(M));
  if (needs_general_path<Scheme>(exec, M, options))
    throw InputError(std::string(Scheme::title) + ": the smooth triangle rule (`t smoothtriangles ... smooth`) is "
                     "taken by subdivide, build and replay, not yet by limit evaluation or tessellation");
  const std::int64_t corners = M.nnz();
  return visit_level(Scheme::first_level(exec, std::move(M), C), [&](auto&& first) {
    check_capacity<Scheme>(first, corners, levels);
    const auto rules = level_rules<Scheme>(exec, first, options);
    rules(exec, first, 0);
    if constexpr (keep_last)
      if (levels == 0) {
        sink.last_level(std::move(first));
        return RefinedMesh<S>();
      }
    sink.ready(first);
    auto L = Scheme::refine(exec, first, levels > 1 || keep_last);
    sink.keep(std::move(first));
    for (int l = 1; l < levels; ++l) {
      rules(exec, L, l);
      sink.ready(L);
      auto child = Scheme::refine(exec, L, l + 1 < levels || keep_last);
      sink.keep(std::move(L));
      L = std::move(child);
    }
    if constexpr (keep_last) {
      rules(exec, L, levels);
      sink.last_level(std::move(L));
      return RefinedMesh<S>();
    } else {
      return RefinedMesh<S>(std::move(L.M));
    }
  });
}

// The half-edge build's sink that keeps every level in a plan.
template <class PlanT>
struct KeepLevels {
  PlanT& plan;
  template <class Level>
  void ready(const Level&) {}
  template <class Level>
  void keep(Level L) { plan.levels.emplace_back(std::move(L)); }
};

}  // namespace detail

// One level: P (L.vertices x k) -> the child's vertex data (L.child_vertices() x k); L is a
// level of a plan, of any scheme.
template <class Exec, class Level, class T, class S = typename Exec::space>
linalg::Dense<T, S> subdivide(Exec& exec, const Level& L, const linalg::Dense<T, S>& P) {
  return detail::visit_level(L, [&](const auto& level) {
    check_vertex_data(P.rows, level.vertices, "subdivide");
    return level_points(exec, level, P);
  });
}

// The same through its parent's faces, for a level type that the scheme evaluates so
// (Scheme::GroupedLevel: its parent is one too).
template <class Exec, class Level, class T, class S = typename Exec::space>
linalg::Dense<T, S> subdivide(Exec& exec, const Level& parent, const Level& L,
                              const linalg::Dense<T, S>& P) {
  check_vertex_data(P.rows, L.vertices, "subdivide");
  if (parent.child_vertices() != L.vertices || parent.child_faces() != L.faces)
    throw DimensionError("subdivide: the parent level given is not the level's");
  return level_points(exec, L, P, &parent);
}

// Level l of a plan: level l's data P -> level l + 1's; through its parent where both are the
// scheme's GroupedLevel.
template <class Scheme, class Exec, class T, class S = typename Exec::space>
linalg::Dense<T, S> subdivide(Exec& exec, const Plan<Scheme, S>& plan, std::size_t l,
                              const linalg::Dense<T, S>& P) {
  using Grouped = typename Scheme::template GroupedLevel<S>;
  const auto* L = std::get_if<Grouped>(&plan.levels.at(l));
  const auto* parent = l > 0 ? std::get_if<Grouped>(&plan.levels[l - 1]) : nullptr;
  if (L && parent) return subdivide(exec, *parent, *L, P);
  return subdivide(exec, plan.levels[l], P);
}

// Every level of a plan, one at a time: P0 (base vertices x k) -> the last level's vertex
// data (P0's copy for a plan of zero levels).
template <class Scheme, class Exec, class T, class S = typename Exec::space>
linalg::Dense<T, S> eval_by_levels(Exec& exec, const Plan<Scheme, S>& plan,
                                   const linalg::Dense<T, S>& P0) {
  if (plan.levels.empty()) return detail::copy(exec, P0);
  linalg::Dense<T, S> P = subdivide(exec, plan, 0, P0);
  for (std::size_t l = 1; l < plan.levels.size(); ++l) P = subdivide(exec, plan, l, P);
  return P;
}

// Every level of a plan: P0 (base vertices x k) -> the last level's vertex data; level by
// level, or as the scheme evaluates its plans (Scheme::eval_plan: Catmull-Clark's last levels
// by patches).
template <class Scheme, class Exec, class T, class S = typename Exec::space>
linalg::Dense<T, S> eval(Exec& exec, const Plan<Scheme, S>& plan, const linalg::Dense<T, S>& P0) {
  if constexpr (requires { Scheme::eval_plan(exec, plan, P0); })
    return Scheme::eval_plan(exec, plan, P0);
  else
    return eval_by_levels(exec, plan, P0);
}

// All topology work for `levels` levels of mesh M with level-0 sharpness C: on half-edges, or
// with Path::general every level on the general path (Scheme::build_level). Throws InputError
// for input the scheme does not take (not triangles; sharpness without crease rules), and
// CapacityError after the first level's edges are known if a later level would exceed 32-bit
// indices; estimate_size says the same, and the bytes, before any work.
template <class Scheme, class Exec, class S = typename Exec::space>
Plan<Scheme, S> build(Exec& exec, linalg::MeshMatrix<S> M, Sharpness<S> C, int levels,
                      Options options = {}, Path path = Path::half_edges) {
  const bool general = path == Path::general || (levels > 0 && detail::needs_general_path<Scheme>(exec, M, options));
  detail::check_input<Scheme>(exec, M, C, levels, general || levels == 0);
  Plan<Scheme, S> plan;
  plan.options = options;
  if (!general) {
    detail::KeepLevels<Plan<Scheme, S>> sink{plan};
    plan.refined = detail::build_half_edges<Scheme>(exec, std::move(M), C, levels, options, sink);
    if constexpr (requires { Scheme::finish(exec, plan); }) Scheme::finish(exec, plan);
    return plan;
  }
  const std::int64_t corners = M.nnz();
  for (int l = 0; l < levels; ++l) {
    auto r = Scheme::build_level(exec, std::move(M), C, options, l);
    if (l == 0) detail::check_capacity<Scheme>(r.level, corners, levels);
    plan.levels.emplace_back(std::move(r.level));
    M = std::move(r.child), C = std::move(r.child_sharpness);
  }
  plan.refined = std::move(M);
  return plan;
}

// The sink of build_and_eval for callers that keep no plan (topology that changes every
// frame): it evaluates each level as soon as it is ready (through its parent where both are
// Grouped, as subdivide(exec, plan, l, P)) and holds a level only until its child has been
// evaluated, so that at most two levels' operators and two levels' data are alive, not the whole
// plan (the refined mesh comes last, after the data of the level before it is gone).
template <class Grouped, class Exec, class T>
class EvalAsBuilt {
public:
  using S = typename Exec::space;
  EvalAsBuilt(Exec& exec, const linalg::Dense<T, S>& P0) : exec_(exec), P0_(P0) {}

  template <class Level>
  void ready(const Level& L) {
    const auto& P = started_ ? P_ : P0_;
    if constexpr (std::is_same_v<Level, Grouped>)
      P_ = parent_ ? subdivide(exec_, *parent_, L, P) : subdivide(exec_, L, P);
    else
      P_ = subdivide(exec_, L, P);
    started_ = true;
    parent_.reset();  // its child's data is made: nothing reads it again
  }
  template <class Level>
  void keep(Level L) {
    if constexpr (std::is_same_v<Level, Grouped>) parent_ = std::move(L);
  }
  // The last level's data (P0's copy where there were no levels).
  linalg::Dense<T, S> data() && {
    parent_.reset();
    return started_ ? std::move(P_) : detail::copy(exec_, P0_);
  }

private:
  Exec& exec_;
  const linalg::Dense<T, S>& P0_;
  linalg::Dense<T, S> P_;
  bool started_ = false;
  std::optional<Grouped> parent_;
};

// Build and eval of `levels` levels in one pass, keeping no plan: what
// eval(exec, build<Scheme>(exec, M, C, levels, options), P0) gives, bit for bit, with the
// refined mesh, in less memory. The levels go to the scheme's sink (Scheme::EvalSink, made
// from exec, P0 and levels), or to EvalAsBuilt.
template <class Scheme, class Exec, class T, class S = typename Exec::space>
Subdivided<T, S> build_and_eval(Exec& exec, linalg::MeshMatrix<S> M, Sharpness<S> C, int levels,
                                const linalg::Dense<T, S>& P0, Options options = {}) {
  if (levels > 0 && detail::needs_general_path<Scheme>(exec, M, options)) {
    auto plan = build<Scheme>(exec, std::move(M), std::move(C), levels, options, Path::general);
    auto data = eval(exec, plan, P0);
    return Subdivided<T, S>{std::move(plan.refined), std::move(data)};
  }
  detail::check_input<Scheme>(exec, M, C, levels, levels == 0);
  auto run = [&](auto sink) {
    auto mesh = detail::build_half_edges<Scheme>(exec, std::move(M), C, levels, options, sink);
    auto data = std::move(sink).data();
    check_vertex_data(data.rows, mesh.vertices, "build_and_eval");  // zero levels: P0 unchecked
    return Subdivided<T, S>{std::move(mesh), std::move(data)};
  };
  if constexpr (requires { typename Scheme::template EvalSink<Exec, T>; })
    return run(typename Scheme::template EvalSink<Exec, T>(exec, P0, levels));
  else
    return run(EvalAsBuilt<typename Scheme::template GroupedLevel<S>, Exec, T>(exec, P0));
}

// S_l of one level of a plan, of whichever kind it is.
template <class Exec, class... Levels, class S = typename Exec::space>
linalg::Csr<double, S> level_matrix(Exec& exec, const std::variant<Levels...>& level) {
  return std::visit([&](const auto& L) { return level_matrix(exec, L); }, level);
}

// R = S_L ... S_1 with S_l the level's level_matrix (rows: the last level's vertices, columns:
// the base vertices), composed in double by SpGEMM and stored as T. Zero levels give the
// identity.
template <class T, class Scheme, class Exec, class S = typename Exec::space>
linalg::Csr<T, S> refinement_matrix(Exec& exec, const Plan<Scheme, S>& plan) {
  if (plan.levels.empty())
    return linalg::cast_values<T>(exec, linalg::identity<double>(exec, plan.refined.vertices));
  auto R = level_matrix(exec, plan.levels[0]);
  for (std::size_t l = 1; l < plan.levels.size(); ++l)
    R = linalg::spgemm(exec, level_matrix(exec, plan.levels[l]), R);
  return linalg::cast_values<T>(exec, std::move(R));
}

}  // namespace spmesh::schemes
