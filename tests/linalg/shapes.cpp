// Every product on matrices of awkward shapes (0 x n, n x 0, 1 x 1, empty rows and columns,
// tall, wide) and on one large enough for the parallel paths, against Eigen in double, on every
// backend (cuda/shapes.cu: on the GPU, each result also compared with the CPU's).
// Conversions run on the same shapes in convert.cpp.
#include "common.hpp"

namespace spmesh::test::shapes_tests {

// The four gathers with the identity map under one reduction, as ops of run().
template <class Reduce>
struct Spmv {
  template <class E, class M, class X>
  auto operator()(E& exec, const M& m, const X& x) const {
    return la::spmv(exec, m, x, la::map::Identity{}, Reduce{});
  }
};
template <class Reduce>
struct Spmm {
  template <class E, class M, class X>
  auto operator()(E& exec, const M& m, const X& x) const {
    return la::spmm(exec, m, x, la::map::Identity{}, Reduce{});
  }
};
template <class Reduce>
struct SpmvT {
  template <class E, class M, class X>
  auto operator()(E& exec, const M& m, const X& x) const {
    return la::spmv_t(exec, m, x, la::map::Identity{}, Reduce{});
  }
};
template <class Reduce>
struct SpmmT {
  template <class E, class M, class X>
  auto operator()(E& exec, const M& m, const X& x) const {
    return la::spmm_t(exec, m, x, la::map::Identity{}, Reduce{});
  }
};
struct Spgemm {
  template <class E, class A, class B>
  auto operator()(E& exec, const A& a, const B& b) const {
    return la::spgemm(exec, a, b);
  }
};

template <class B, class T>
void check_gathers(const Triplets<T>& t) {
  const Csr<T> A = csr_of<T>(t);
  const Csc<T> C = csc_of<T>(t);
  const Identity weight;
  const auto w = weights_of(t, weight);
  for (const RefReduce* r : {&ref_sum, &ref_min}) {
    INFO("reduction " << r->name);
    const HostArray<T> x = random_array<T>(t.cols, 801), xt = random_array<T>(t.rows, 802);
    const Dense<T> X = random_dense<T>(t.cols, 3, 803), Xt = random_dense<T>(t.rows, 2, 804);
    const EigenDense xe = eigen_of(x), xte = eigen_of(xt), Xe = eigen_of(X), Xte = eigen_of(Xt);
    auto check = [&](auto reduce) {
      using R = decltype(reduce);
      check_dense(run<B>("spmv", Spmv<R>{}, A, x).data(), reference_gather(t, w, xe, *r, false),
                  reference_scale(t, w, xe, false), "spmv");
      check_dense(run<B>("spmm", Spmm<R>{}, A, X), reference_gather(t, w, Xe, *r, false),
                  reference_scale(t, w, Xe, false), "spmm");
      check_dense(run<B>("spmv_t", SpmvT<R>{}, C, xt).data(), reference_gather(t, w, xte, *r, true),
                  reference_scale(t, w, xte, true), "spmv_t");
      check_dense(run<B>("spmm_t", SpmmT<R>{}, C, Xt), reference_gather(t, w, Xte, *r, true),
                  reference_scale(t, w, Xte, true), "spmm_t");
    };
    if (r->is_sum)
      check(la::reduce::Sum{});
    else
      check(la::reduce::Min{});
  }
}

TEST_CASE_TEMPLATE("spmv, spmm, spmv_t and spmm_t equal Eigen on every shape", P,
                   SPMESH_TEST_REALS) {
  using B = typename P::Backend;
  using T = typename P::type;
  for (const Shape& s : shapes()) {
    INFO(s.name);
    check_gathers<B>(random_triplets<T>(s.rows, s.cols, s.options, 811));
  }
}

TEST_CASE_TEMPLATE("spgemm equals Eigen's A B and A A^T on every shape", P, SPMESH_TEST_REALS) {
  using B = typename P::Backend;
  using T = typename P::type;
  auto magnitude = [](T v, index_t, index_t) { return std::abs(static_cast<double>(v)); };
  for (const Shape& s : shapes()) {
    INFO(s.name);
    const auto a = random_triplets<T>(s.rows, s.cols, s.options, 821);
    auto b = random_triplets<T>(s.cols, s.rows, s.options, 822);
    auto at = a;  // A^T
    std::swap(at.rows, at.cols);
    std::swap(at.i, at.j);
    const Csr<T> A = csr_of<T>(a);
    for (const Triplets<T>* other : {&b, &at}) {
      const EigenRows ref = eigen_of(a) * eigen_of(*other);
      const EigenRows mag = eigen_of(a, magnitude) * eigen_of(*other, magnitude);
      const char* what = other == &b ? "A B" : "A A^T";
      check_csr(run<B>(what, Spgemm{}, A, csr_of<T>(*other)), a.rows, other->cols,
                ref_entries(ref, mag), what);
    }
  }
}

}  // namespace spmesh::test::shapes_tests
