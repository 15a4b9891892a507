// What every scheme's plan does with its levels (design.md "Build, eval, replay"): build runs
// the scheme's one-level build, each child feeding the next; eval applies the scheme's
// one-level step level by level; R is the product S_L ... S_1 of the per-level matrices. A plan
// of zero levels gives the data back (eval) and the identity (R).
#pragma once

#include "linalg/spgemm.hpp"
#include "schemes/tags.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace spmesh::schemes {

namespace detail {
// The kernels of eval_levels and compose_levels.
template <class Exec, class T, class S = typename Exec::space>
linalg::Dense<T, S> copy(Exec& exec, const linalg::Dense<T, S>& P0) {
  linalg::Dense<T, S> P(P0.rows, P0.cols);
  const T* in = P0.data.data();
  T* out = P.data.data();
  exec.for_each(P0.data.size(), [=] SPMESH_HD(index_t i) { out[i] = in[i]; });
  return P;
}

template <class Exec, class S = typename Exec::space>
linalg::Csr<double, S> identity(Exec& exec, index_t n) {
  linalg::Array<index_t, S> offsets(n + 1), indices(n);
  linalg::Array<double, S> values(n);
  index_t *o = offsets.data(), *ix = indices.data();
  double* v = values.data();
  exec.for_each(n + 1, [=] SPMESH_HD(index_t i) {
    o[i] = i;
    if (i < n) ix[i] = i, v[i] = 1.0;
  });
  return linalg::Csr<double, S>(n, n, std::move(offsets), std::move(indices), std::move(values));
}

template <class T, class Exec, class S = typename Exec::space>
linalg::Csr<T, S> cast(Exec& exec, linalg::Csr<double, S> R) {
  if constexpr (std::is_same_v<T, double>) {
    return R;
  } else {
    linalg::Array<T, S> values(R.nnz());
    const double* in = R.values.data();
    T* out = values.data();
    exec.for_each(R.nnz(), [=] SPMESH_HD(index_t p) { out[p] = static_cast<T>(in[p]); });
    return linalg::Csr<T, S>(R.rows, R.cols, std::move(R.offsets), std::move(R.indices),
                             std::move(values));
  }
}
}  // namespace detail

// Sizes of every level of a plan before any work (each scheme's estimate_size), and the bytes
// its build and eval need on an executor: the operators of every level (the first with its
// build's temporaries, measured per scheme as bytes per face corner), the refined mesh, eval's
// last two levels of `columns` values with one temporary, and the GPU's slabs of small arrays
// (linalg/cuda/memory.hpp), held whole: a few of 4 MiB. one_pass() is the same for
// build_and_eval. The device benchmark checks that the estimate stays above the measured GPU
// peak, tests/schemes that it does above the host's.
struct SizeEstimate {
  struct Counts {
    std::int64_t vertices, faces, corners, edges;
  };
  SizeEstimate() = default;
  explicit SizeEstimate(const char* scheme_name) : scheme(scheme_name) {}

  const char* scheme = "";
  std::vector<Counts> levels;  // levels[0] is the base mesh
  std::int64_t bytes = 0;
  std::vector<std::int64_t> operators;  // per level, with the first level's build temporaries
  std::int64_t refined = 0, data = 0, data_before = 0;  // add_eval's parts
  // How many consecutive levels' operators build_and_eval holds at most, and what eval holds
  // besides its data (Catmull-Clark: the levels its patches take, their faces' kinds, region and
  // temporaries).
  int window = 2;
  std::int64_t extra = 0;

  // Adds the next level's operators.
  void add_operators(std::int64_t level_bytes) {
    operators.push_back(level_bytes);
    bytes += level_bytes;
  }
  // The estimate for build_and_eval (its sinks): `window` consecutive levels' operators at
  // most, with the last level's data and the data before it (the last eval), or the last level's
  // operators with its data and the refined mesh (the last refinement).
  SizeEstimate one_pass() const {
    std::int64_t held = 0;
    for (std::size_t l = 0; l < operators.size(); ++l) {
      std::int64_t sum = 0;
      for (std::size_t i = l + 1 - std::min<std::size_t>(l + 1, window); i <= l; ++i) sum += operators[i];
      held = std::max(held, sum);
    }
    const std::int64_t last = operators.empty() ? 0 : operators.back();
    SizeEstimate s = *this;
    s.bytes = std::max(held + data + 2 * data_before + extra, last + data + refined) + margin;
    return s;
  }

  // Throws CapacityError naming the first level whose matrices exceed 32-bit indices.
  void check_indices() const {
    for (std::size_t l = 0; l < levels.size(); ++l) {
      const auto& c = levels[l];
      const std::int64_t largest = std::max({c.vertices + 1, c.corners, 2 * c.edges});
      if (largest > max_index)
        throw CapacityError(std::string(scheme) + " level " + std::to_string(l) + " needs " +
                            std::to_string(largest) +
                            " entries in one matrix, over the 32-bit index limit (2147483647)");
    }
  }
  // Adds the refined mesh and eval's data (the last level's, and twice the level's before: its
  // data and one temporary) to `bytes`, with the margin.
  static constexpr std::int64_t margin = std::int64_t(18) << 20;  // 2 MiB, and 4 slabs
  void add_eval(int columns, int scalar_bytes) {
    const auto& last = levels.back();
    const auto& before = levels[levels.size() > 1 ? levels.size() - 2 : 0];
    refined = 4 * (last.faces + 1) + 4 * last.corners;
    data = std::int64_t(columns) * scalar_bytes * last.vertices;
    data_before = std::int64_t(columns) * scalar_bytes * before.vertices;
    bytes += refined + data + 2 * data_before + extra + margin;
  }
};

// Which path a scheme's build takes: half-edge levels (half_edges.hpp; the default where the
// scheme has them), or the general path of mapped products for every level (the reference the
// half-edge path is tested against).
enum class Path { half_edges, general };

// A plan's refined mesh: its faces' vertices, and where each face starts; `offsets` stays
// empty where every face has `order` corners (the half-edge paths' last level: the offsets
// would be the largest array after the faces, 4 bytes a face, and a kernel to write them).
// mesh() gives it as a mesh matrix (host memory; GPU plans copy it down first).
template <class S = linalg::Host>
struct RefinedMesh {
  index_t vertices = 0, faces = 0, order = 0;  // order 0: faces of any size, at offsets
  linalg::Array<index_t, S> offsets, indices;

  RefinedMesh() = default;
  RefinedMesh(linalg::MeshMatrix<S> M)
      : vertices(M.vertices), faces(M.faces), offsets(std::move(M.offsets)), indices(std::move(M.indices)) {}
  RefinedMesh(linalg::ReducedMeshMatrix<S> M)
      : vertices(M.vertices), faces(M.faces), order(M.order), indices(std::move(M.indices)) {}

  linalg::MeshMatrix<S> mesh() const requires std::is_same_v<S, linalg::Host> {
    if (order == 0) return linalg::MeshMatrix<S>(vertices, offsets.clone(), indices.clone());
    linalg::Array<index_t, S> o(faces + 1);
    for (index_t f = 0; f <= faces; ++f) o[f] = order * f;
    return linalg::MeshMatrix<S>(vertices, std::move(o), indices.clone());
  }
};

// A scheme's plan: levels[l] refines level l into level l + 1; `refined` is the last mesh.
template <class LevelT, class S>
struct LevelPlan {
  Options options;
  std::vector<LevelT> levels;
  RefinedMesh<S> refined;
};

inline void check_level_count(int levels) {
  if (levels < 0)
    throw InputError("subdivision build: negative level count " + std::to_string(levels));
}

// What the half-edge builds hand each level to as they make it, a *sink*: ready(L) once L's
// rules are made, before its child is refined; keep(L) after, when the build is done with it.
// KeepLevels puts them in a plan.
template <class PlanT>
struct KeepLevels {
  PlanT& plan;
  template <class Level>
  void ready(const Level&) {}
  template <class Level>
  void keep(Level L) { plan.levels.emplace_back(std::move(L)); }
};

// The sink of build_and_eval, for callers that keep no plan (topology that changes every
// frame): it evaluates each level as soon as it is ready (through its parent where both are
// Grouped, as subdivide_in_plan) and holds a level only until its child has been evaluated, so
// that at most two levels' operators and two levels' data are alive, not the whole plan (the
// refined mesh comes last, after the data of the level before it is gone).
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

// A refined mesh with its vertex data (build_and_eval).
template <class T, class S>
struct Subdivided {
  RefinedMesh<S> mesh;
  linalg::Dense<T, S> data;
};

// build_and_eval of a scheme whose build_into(sink) runs its half-edge build into a sink and
// returns the refined mesh; the sink's data() is the last level's data (EvalAsBuilt's, or a
// scheme's own sink).
template <class Sink, class BuildInto>
auto eval_as_built(Sink sink, index_t base_rows, BuildInto build_into) {
  auto mesh = build_into(sink);
  auto data = std::move(sink).data();
  if (data.rows != mesh.vertices)  // zero levels: no subdivide has checked P0
    throw DimensionError("build_and_eval: vertex data has " + std::to_string(base_rows) +
                         " rows, the mesh has " + std::to_string(mesh.vertices) + " vertices");
  return Subdivided<typename decltype(data)::value_type, typename decltype(data)::space>{
      std::move(mesh), std::move(data)};
}
template <class Grouped, class Exec, class T, class BuildInto>
Subdivided<T, typename Exec::space> eval_as_built(Exec& exec,
                                                  const linalg::Dense<T, typename Exec::space>& P0,
                                                  BuildInto build_into) {
  return eval_as_built(EvalAsBuilt<Grouped, Exec, T>(exec, P0), P0.rows, build_into);
}

// What a scheme's one-level build returns: the level's operators, the child mesh and the
// child's sharpness.
template <class LevelT>
struct LevelResult {
  using space = typename decltype(LevelT::M)::space;
  LevelT level;
  linalg::MeshMatrix<space> child;
  Sharpness<space> child_sharpness;
};

// `levels` runs of build_level(exec, M, C, options, l) -> {level, child, child_sharpness} for
// l = 0, 1, ..., each child feeding the next; first_level(level) sees the first one (e.g. to check later sizes).
template <class PlanT, class Exec, class BuildLevel, class FirstLevel>
PlanT build_levels(Exec& exec, linalg::MeshMatrix<typename Exec::space> M,
                   Sharpness<typename Exec::space> C, int levels, const Options& options,
                   BuildLevel build_level, FirstLevel first_level) {
  check_level_count(levels);
  PlanT plan;
  plan.options = options;
  for (int l = 0; l < levels; ++l) {
    auto r = build_level(exec, std::move(M), C, options, l);
    if (l == 0) first_level(r.level);
    plan.levels.push_back(std::move(r.level));
    M = std::move(r.child);
    C = std::move(r.child_sharpness);
  }
  plan.refined = std::move(M);
  return plan;
}

// P0 -> the last level's data: step(l, P) -> level l + 1's data, for every level l.
template <class Exec, class PlanT, class T, class Step>
linalg::Dense<T, typename Exec::space> eval_levels(Exec& exec, const PlanT& plan,
                                                   const linalg::Dense<T, typename Exec::space>& P0,
                                                   Step step) {
  if (plan.levels.empty()) return detail::copy(exec, P0);
  linalg::Dense<T, typename Exec::space> P = step(std::size_t(0), P0);
  for (std::size_t l = 1; l < plan.levels.size(); ++l) P = step(l, P);
  return P;
}
// ... each step the scheme's subdivide(exec, level, P) (found by argument-dependent lookup on
// the level type).
template <class Exec, class PlanT, class T>
linalg::Dense<T, typename Exec::space> eval_levels(Exec& exec, const PlanT& plan,
                                                   const linalg::Dense<T, typename Exec::space>& P0) {
  return eval_levels(exec, plan, P0, [&](std::size_t l, const auto& P) {
    return subdivide(exec, plan.levels[l], P);
  });
}

// Level l of a plan: level l's data P -> level l + 1's. Where level l and its parent are both a
// Grouped level, the scheme's subdivide(exec, parent, level, P), which evaluates a level through
// its parent's faces; else its subdivide(exec, level, P) (both found by argument-dependent
// lookup).
template <class Grouped, class Exec, class PlanT, class T>
linalg::Dense<T, typename Exec::space> subdivide_in_plan(Exec& exec, const PlanT& plan,
                                                         std::size_t l,
                                                         const linalg::Dense<T, typename Exec::space>& P) {
  const auto* L = std::get_if<Grouped>(&plan.levels.at(l));
  const auto* parent = l > 0 ? std::get_if<Grouped>(&plan.levels[l - 1]) : nullptr;
  if (L && parent) return subdivide(exec, *parent, *L, P);
  return subdivide(exec, plan.levels[l], P);
}

// R = S_L ... S_1 with S_l the scheme's level_matrix(exec, level) (double; found like
// subdivide), composed in double by SpGEMM and stored as T. Zero levels give the identity.
template <class T, class Exec, class PlanT>
linalg::Csr<T, typename Exec::space> compose_levels(Exec& exec, const PlanT& plan) {
  if (plan.levels.empty())
    return detail::cast<T>(exec, detail::identity(exec, plan.refined.vertices));
  auto R = level_matrix(exec, plan.levels[0]);
  for (std::size_t l = 1; l < plan.levels.size(); ++l)
    R = linalg::spgemm(exec, level_matrix(exec, plan.levels[l]), R);
  return detail::cast<T>(exec, std::move(R));
}

}  // namespace spmesh::schemes
