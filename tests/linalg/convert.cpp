// Format changes against Eigen's own compressed storage: CSR <-> CSC, the O(1) transpose,
// COO assembly with each reduction of duplicates, and mesh matrices as vertex-face incidence.
// Every backend (cuda/convert.cu runs them on the GPU and compares with the CPU), except the
// host-only container transpose.
#include <map>

#include "common.hpp"

namespace spmesh::test::convert_tests {

// Eigen matrix of type T holding the triplets (duplicates summed), compressed and sorted.
template <class T, int Options, class V>
Eigen::SparseMatrix<T, Options, index_t> eigen_typed(const Triplets<V>& t) {
  std::vector<Eigen::Triplet<T, index_t>> e;
  for (index_t p = 0; p < t.size(); ++p) e.emplace_back(t.i[p], t.j[p], static_cast<T>(t.v[p]));
  Eigen::SparseMatrix<T, Options, index_t> A(t.rows, t.cols);
  A.setFromTriplets(e.begin(), e.end());
  A.makeCompressed();
  return A;
}

template <class V>
Triplets<V> transpose(const Triplets<V>& t) {
  Triplets<V> r;
  r.rows = t.cols;
  r.cols = t.rows;
  r.i = t.j;
  r.j = t.i;
  r.v = t.v;
  return r;
}

// Expected assembly of COO triplets under a reduction given as "combine(old, new)", applied in
// input order (so First keeps the first entry of the input).
template <class V, class Combine>
std::vector<RefEntry> reduce_duplicates(const Triplets<V>& t, Combine combine) {
  std::map<std::pair<index_t, index_t>, double> acc;
  for (index_t p = 0; p < t.size(); ++p) {
    const auto key = std::make_pair(t.i[p], t.j[p]);
    const auto it = acc.find(key);
    if (it == acc.end())
      acc.emplace(key, static_cast<double>(t.v[p]));
    else
      it->second = combine(it->second, static_cast<double>(t.v[p]));
  }
  std::vector<RefEntry> out;
  for (const auto& [key, value] : acc)
    out.push_back({key.first, key.second, value, std::abs(value)});
  return out;
}

// The conversions as ops of run().
struct ToCsc {
  template <class E, class A>
  auto operator()(E& exec, const A& a) const {
    return la::to_csc(exec, a);
  }
};
struct ToCsr {
  template <class E, class A>
  auto operator()(E& exec, const A& a) const {
    return la::to_csr(exec, a);
  }
};
struct RoundTrip {  // CSR -> CSC -> CSR
  template <class E, class A>
  auto operator()(E& exec, const A& a) const {
    return la::to_csr(exec, la::to_csc(exec, a));
  }
};
template <class Reduce>
struct CooToCsr {
  Reduce reduce;
  template <class E, class A>
  auto operator()(E& exec, const A& a) const {
    return la::to_csr(exec, a, reduce);
  }
};

TEST_CASE_TEMPLATE("to_csc stores the same matrix as Eigen's column-major form", P,
                   SPMESH_TEST_REALS) {
  using B = typename P::Backend;
  using T = typename P::type;
  for (const Shape& s : shapes()) {
    INFO(s.name);
    const auto t = random_triplets<T>(s.rows, s.cols, s.options, 101);
    const Csc<T> C = run<B>("to_csc", ToCsc{}, csr_of<T>(t));
    check_same_arrays(C, eigen_typed<T, Eigen::ColMajor>(t));
  }
}

TEST_CASE_TEMPLATE("to_csr of a CSC stores the same matrix as Eigen's row-major form", P,
                   SPMESH_TEST_REALS) {
  using B = typename P::Backend;
  using T = typename P::type;
  for (const Shape& s : shapes()) {
    INFO(s.name);
    const auto t = random_triplets<T>(s.rows, s.cols, s.options, 103);
    const Csr<T> R = run<B>("to_csr(CSC)", ToCsr{}, csc_of<T>(t));
    check_same_arrays(R, eigen_typed<T, Eigen::RowMajor>(t));
  }
}

TEST_CASE_TEMPLATE("to_csc then to_csr gives back the original canonical CSR", P,
                   SPMESH_TEST_REALS) {
  using B = typename P::Backend;
  using T = typename P::type;
  for (const Shape& s : shapes()) {
    INFO(s.name);
    const auto t = random_triplets<T>(s.rows, s.cols, s.options, 107);
    const Csr<T> A = csr_of<T>(t);
    CHECK(same_bits(run<B>("to_csr(to_csc)", RoundTrip{}, A), A));
  }
}

TEST_CASE_TEMPLATE("to_csc of a CSR with unsorted columns still sorts each column by row", B,
                   SPMESH_TEST_BACKENDS) {
  RandomOptions o;
  o.shuffled = true;
  const auto t = random_triplets<double>(300, 200, o, 109);
  const Csc<double> C = run<B>("to_csc", ToCsc{}, csr_of<double>(t, /*sort_inner=*/false));
  check_same_arrays(C, eigen_typed<double, Eigen::ColMajor>(t));
}

#if !defined(__CUDACC__)  // host containers only
TEST_CASE_TEMPLATE("transposed reinterprets CSR of A as CSC of A^T and back", T, float, double) {
  for (const Shape& s : shapes()) {
    INFO(s.name);
    const auto t = random_triplets<T>(s.rows, s.cols, s.options, 113);
    Csc<T> At = la::transposed(csr_of<T>(t));
    check_same_arrays(At, eigen_typed<T, Eigen::ColMajor>(transpose(t)));
    Csr<T> A = la::transposed(std::move(At));
    check_same_arrays(A, eigen_typed<T, Eigen::RowMajor>(t));
    Csr<T> Bt = la::transposed(csc_of<T>(t));
    check_same_arrays(Bt, eigen_typed<T, Eigen::RowMajor>(transpose(t)));
  }
}
#endif

TEST_CASE_TEMPLATE("to_csr of COO sums duplicates like Eigen's setFromTriplets", P,
                   SPMESH_TEST_REALS) {
  using B = typename P::Backend;
  using T = typename P::type;
  for (const Shape& s : shapes()) {
    INFO(s.name);
    RandomOptions o = s.options;
    o.duplicates = 0.5;
    o.shuffled = true;
    const auto t = random_triplets<T>(s.rows, s.cols, o, 127);
    const Csr<T> A = run<B>("to_csr(COO)", ToCsr{}, coo_of<T>(t));
    const EigenRows magnitude =
        eigen_of(t, [](T v, index_t, index_t) { return std::abs(double(v)); });
    check_csr(A, s.rows, s.cols, ref_entries(eigen_of(t), magnitude), "to_csr(COO)");
  }
}

TEST_CASE_TEMPLATE("to_csr of COO reduces duplicates by Min, Max and First (first in input order)",
                   P, SPMESH_TEST_REALS) {
  using B = typename P::Backend;
  using T = typename P::type;
  // Most positions repeat, many more than twice; 20000 rows run the parallel paths.
  auto each = [&](auto reduce, auto combine, const char* what) {
    for (index_t rows : {1, 50, 20000}) {
      INFO("rows " << rows);
      RandomOptions o;
      o.per_row = 3;
      o.duplicates = 1.5;
      o.shuffled = true;
      const auto t = random_triplets<T>(rows, 37, o, 131 + rows);
      check_csr(run<B>(what, CooToCsr<decltype(reduce)>{reduce}, coo_of<T>(t)), rows, 37,
                reduce_duplicates(t, combine), what);
    }
  };
  SUBCASE("min") {
    each(
        la::reduce::Min{}, [](double a, double b) { return std::min(a, b); }, "min");
  }
  SUBCASE("max") {
    each(
        la::reduce::Max{}, [](double a, double b) { return std::max(a, b); }, "max");
  }
  SUBCASE("first") {
    each(
        la::reduce::First{}, [](double a, double) { return a; }, "first");
  }
  SUBCASE("user monoid (product)") {
    each(
        la::reduce::monoid(TimesOf{}, 1), [](double a, double b) { return a * b; }, "product");
  }
}

TEST_CASE_TEMPLATE(
    "to_csr of COO assembles matrices whose rows x cols exceeds 2^32 (keys wider than 32 bits)", B,
    SPMESH_TEST_BACKENDS) {
  RandomOptions o;
  o.per_row = 2;
  o.empty_rows = 0.9;
  o.duplicates = 0.5;
  o.shuffled = true;
  const auto t = random_triplets<double>(300000, 200000, o, 141);  // 6e10 positions
  auto magnitude = [](double v, index_t, index_t) { return std::abs(v); };
  const Coo<double> coo = coo_of<double>(t);
  check_csr(run<B>("wide keys", ToCsr{}, coo), t.rows, t.cols,
            ref_entries(eigen_of(t), eigen_of(t, magnitude)), "wide keys");
  check_csr(run<B>("wide keys, first", CooToCsr<la::reduce::First>{}, coo), t.rows, t.cols,
            reduce_duplicates(t, [](double a, double) { return a; }), "wide keys, first");
}

TEST_CASE_TEMPLATE("to_csr of COO rejects entries outside the matrix with InputError", B,
                   SPMESH_TEST_BACKENDS) {
  const auto t = random_triplets<double>(20, 10, {}, 137);
  struct Bad {
    const char* name;
    index_t row, col;
  };
  for (const Bad& b : {Bad{"negative row", -1, 0}, Bad{"row = rows", 20, 3},
                       Bad{"negative column", 4, -3}, Bad{"column = cols", 5, 10}}) {
    INFO(b.name);
    auto bad = t;
    bad.add(b.row, b.col, 1.0);
    const auto coo = coo_of<double>(bad);
    const std::string msg =
        thrown_message<InputError>([&] { (void)run<B>("to_csr(bad COO)", ToCsr{}, coo); });
    CHECK(msg.find("to_csr") != std::string::npos);
    CHECK(msg.find("20 x 10") != std::string::npos);
  }
}

TEST_CASE_TEMPLATE("to_csr of COO with index arrays of different lengths throws DimensionError", B,
                   SPMESH_TEST_BACKENDS) {
  auto coo = coo_of<double>(random_triplets<double>(20, 10, {}, 139));
  coo.col_indices = HostArray<index_t>(coo.nnz() - 1);
  CHECK_THROWS_AS((void)run<B>("to_csr(short COO)", ToCsr{}, coo), DimensionError);
}

TEST_CASE_TEMPLATE("to_csr of a mesh matrix is the vertex-face incidence with slots as values", B,
                   SPMESH_TEST_BACKENDS) {
  for (index_t faces : {0, 1, 40, 30000}) {
    INFO("faces " << faces);
    const PolyMesh mesh = random_mesh(std::max<index_t>(6, faces / 2), faces, 3, 6, 139 + faces);
    const auto ref = eigen_typed<index_t, Eigen::RowMajor>(mesh_triplets(mesh));
    check_same_arrays(run<B>("to_csr(mesh matrix)", ToCsr{}, mesh_matrix(mesh)), ref);
  }
}

TEST_CASE_TEMPLATE(
    "to_csr of a reduced quad or triangle matrix is the vertex-face incidence with slots", B,
    SPMESH_TEST_BACKENDS) {
  for (int order : {3, 4}) {
    const PolyMesh mesh = random_mesh(500, 2000, order, order, 149 + order);
    const auto ref = eigen_typed<index_t, Eigen::RowMajor>(mesh_triplets(mesh));
    check_same_arrays(
        run<B>("to_csr(reduced mesh matrix)", ToCsr{}, reduced_mesh_matrix(mesh, order)), ref);
  }
}

}  // namespace spmesh::test::convert_tests
