// Every product on matrices of awkward shapes (0 x n, n x 0, 1 x 1, empty rows and columns,
// tall, wide) and on one large enough for the OpenMP paths, against Eigen in double.
// Conversions run on the same shapes in convert.cpp.
#include "common.hpp"

using namespace spmesh;
using namespace spmesh::test;

namespace {

template <class T>
void check_gathers(cpu::Executor& exec, const Triplets<T>& t) {
  const Csr<T> A = csr_of<T>(t);
  const Csc<T> B = csc_of<T>(t);
  const Identity weight;
  const auto w = weights_of(t, weight);
  for (const RefReduce* r : {&ref_sum, &ref_min}) {
    INFO("reduction " << r->name);
    const HostArray<T> x = random_array<T>(t.cols, 801), xt = random_array<T>(t.rows, 802);
    const Dense<T> X = random_dense<T>(t.cols, 3, 803), Xt = random_dense<T>(t.rows, 2, 804);
    const EigenDense xe = eigen_of(x), xte = eigen_of(xt), Xe = eigen_of(X), Xte = eigen_of(Xt);
    auto run = [&](auto reduce) {
      check_dense(la::spmv(exec, A, x, la::map::Identity{}, reduce).data(),
                  reference_gather(t, w, xe, *r, false), reference_scale(t, w, xe, false), "spmv");
      check_dense(la::spmm(exec, A, X, la::map::Identity{}, reduce),
                  reference_gather(t, w, Xe, *r, false), reference_scale(t, w, Xe, false), "spmm");
      check_dense(la::spmv_t(exec, B, xt, la::map::Identity{}, reduce).data(),
                  reference_gather(t, w, xte, *r, true), reference_scale(t, w, xte, true),
                  "spmv_t");
      check_dense(la::spmm_t(exec, B, Xt, la::map::Identity{}, reduce),
                  reference_gather(t, w, Xte, *r, true), reference_scale(t, w, Xte, true),
                  "spmm_t");
    };
    if (r->is_sum)
      run(la::reduce::Sum{});
    else
      run(la::reduce::Min{});
  }
}

}  // namespace

TEST_CASE_TEMPLATE("spmv, spmm, spmv_t and spmm_t equal Eigen on every shape", T, float, double) {
  cpu::Executor exec(4);
  for (const Shape& s : shapes()) {
    INFO(s.name);
    check_gathers(exec, random_triplets<T>(s.rows, s.cols, s.options, 811));
  }
}

TEST_CASE_TEMPLATE("spgemm equals Eigen's A B and A A^T on every shape", T, float, double) {
  cpu::Executor exec(4);
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
      check_csr(la::spgemm(exec, A, csr_of<T>(*other)), a.rows, other->cols, ref_entries(ref, mag),
                other == &b ? "A B" : "A A^T");
    }
  }
}
