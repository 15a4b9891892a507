// The subdivision schemes as types, for code that runs any of them (the command line, the
// benchmark, the tests): each names its build, eval, build_and_eval, refinement matrix and size
// estimate
// (from the base mesh's vertices, faces, face corners, edges and boundary edges); with_scheme
// picks one by name.
#pragma once

#include "schemes/catmull_clark/build.hpp"
#include "schemes/catmull_clark/eval.hpp"
#include "schemes/catmull_clark/refinement.hpp"
#include "schemes/loop/build.hpp"
#include "schemes/loop/eval.hpp"
#include "schemes/loop/refinement.hpp"
#include "schemes/sqrt3/build.hpp"
#include "schemes/sqrt3/eval.hpp"
#include "schemes/sqrt3/refinement.hpp"

#include <cstdint>
#include <string>
#include <utility>

namespace spmesh::schemes {

struct CatmullClark {
  static constexpr const char* name = "catmark";
  static constexpr bool triangles_only = false;
  static constexpr bool crease_rules = true;  // takes sharpness and Options
  template <class S>
  using Plan = catmull_clark::Plan<S>;
  template <class... A>
  static auto build(A&&... a) { return catmull_clark::build(std::forward<A>(a)...); }
  template <class... A>
  static auto eval(A&&... a) { return catmull_clark::eval(std::forward<A>(a)...); }
  template <class... A>
  static auto subdivide(A&&... a) { return catmull_clark::subdivide(std::forward<A>(a)...); }
  template <class... A>
  static auto build_and_eval(A&&... a) { return catmull_clark::build_and_eval(std::forward<A>(a)...); }
  template <class T, class Exec, class P>
  static auto refinement_matrix(Exec& exec, const P& plan) {
    return catmull_clark::refinement_matrix<T>(exec, plan);
  }
  static SizeEstimate estimate_size(std::int64_t V, std::int64_t F, std::int64_t corners,
                                    std::int64_t E, std::int64_t, int levels, int columns,
                                    int scalar_bytes) {
    return catmull_clark::estimate_size(V, F, corners, E, levels, columns, scalar_bytes);
  }
};

struct Loop {
  static constexpr const char* name = "loop";
  static constexpr bool triangles_only = true;
  static constexpr bool crease_rules = true;
  template <class S>
  using Plan = loop::Plan<S>;
  template <class... A>
  static auto build(A&&... a) { return loop::build(std::forward<A>(a)...); }
  template <class... A>
  static auto eval(A&&... a) { return loop::eval(std::forward<A>(a)...); }
  template <class... A>
  static auto subdivide(A&&... a) { return loop::subdivide(std::forward<A>(a)...); }
  template <class... A>
  static auto build_and_eval(A&&... a) { return loop::build_and_eval(std::forward<A>(a)...); }
  template <class T, class Exec, class P>
  static auto refinement_matrix(Exec& exec, const P& plan) {
    return loop::refinement_matrix<T>(exec, plan);
  }
  static SizeEstimate estimate_size(std::int64_t V, std::int64_t F, std::int64_t,
                                    std::int64_t E, std::int64_t, int levels, int columns,
                                    int scalar_bytes) {
    return loop::estimate_size(V, F, E, levels, columns, scalar_bytes);
  }
};

// sqrt(3) has no crease rules and one boundary rule (Kobbelt's): it takes no sharpness and
// ignores Options.
struct Sqrt3 {
  static constexpr const char* name = "sqrt3";
  static constexpr bool triangles_only = true;
  static constexpr bool crease_rules = false;
  template <class S>
  using Plan = sqrt3::Plan<S>;
  template <class... A>
  static auto build(A&&... a) { return sqrt3::build(std::forward<A>(a)...); }
  template <class... A>
  static auto eval(A&&... a) { return sqrt3::eval(std::forward<A>(a)...); }
  template <class... A>
  static auto subdivide(A&&... a) { return sqrt3::subdivide(std::forward<A>(a)...); }
  template <class... A>
  static auto build_and_eval(A&&... a) { return sqrt3::build_and_eval(std::forward<A>(a)...); }
  template <class T, class Exec, class P>
  static auto refinement_matrix(Exec& exec, const P& plan) {
    return sqrt3::refinement_matrix<T>(exec, plan);
  }
  static SizeEstimate estimate_size(std::int64_t V, std::int64_t F, std::int64_t,
                                    std::int64_t E, std::int64_t boundary_edges, int levels,
                                    int columns, int scalar_bytes) {
    return sqrt3::estimate_size(V, F, E, boundary_edges, levels, columns, scalar_bytes);
  }
};

// f.template operator()<Scheme>() for the scheme called `name` ("catmark", "loop" or "sqrt3").
template <class F>
decltype(auto) with_scheme(const std::string& name, F&& f) {
  if (name == Loop::name) return f.template operator()<Loop>();
  if (name == Sqrt3::name) return f.template operator()<Sqrt3>();
  if (name != CatmullClark::name)
    throw InputError("unknown scheme '" + name + "' (catmark, loop or sqrt3)");
  return f.template operator()<CatmullClark>();
}

}  // namespace spmesh::schemes
