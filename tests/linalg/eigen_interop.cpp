// Eigen interop: zero-copy views of CSR, CSC and dense blocks read as the matrices they hold,
// and csr_from_eigen / csc_from_eigen copy any Eigen sparse matrix (either storage order,
// compressed or not) into canonical arrays.
#include "common.hpp"

namespace spmesh::test::eigen_interop_tests {

namespace {

template <class T, int Options>
using EigenT = Eigen::SparseMatrix<T, Options, index_t>;

// An Eigen matrix filled by insert() in random order: left uncompressed (free space per line).
template <class T, int Options>
EigenT<T, Options> uncompressed(const Triplets<T>& t) {
  EigenT<T, Options> E(t.rows, t.cols);
  E.reserve(Eigen::VectorXi::Constant(Options == Eigen::RowMajor ? t.rows : t.cols, 12));
  for (index_t p = 0; p < t.size(); ++p) E.insert(t.i[p], t.j[p]) = t.v[p];
  return E;
}

}  // namespace

TEST_CASE_TEMPLATE("eigen_view of CSR and CSC reads as the matrix of the triplets", T, float,
                   double) {
  const auto t = random_triplets<T>(300, 200, {}, 1001);
  const EigenRows ref = eigen_of(t);
  const Csr<T> A = csr_of<T>(t);
  const Csc<T> B = csc_of<T>(t);
  const auto va = la::eigen_view(A);
  const auto vb = la::eigen_view(B);
  CHECK(va.nonZeros() == t.size());
  CHECK(vb.nonZeros() == t.size());
  CHECK((EigenRows(va.template cast<double>()) - ref).norm() == 0.0);
  CHECK((EigenRows(vb.template cast<double>()) - ref).norm() == 0.0);
  // Zero copy: the view's arrays are A's.
  CHECK(va.valuePtr() == A.values.data());
  CHECK(va.innerIndexPtr() == A.indices.data());
}

TEST_CASE_TEMPLATE("csr_from_eigen(eigen_view(A)) and csc_from_eigen round trip bit for bit", T,
                   float, double) {
  RandomOptions o;
  o.empty_rows = 0.2;
  const auto t = random_triplets<T>(400, 250, o, 1003);
  const Csr<T> A = csr_of<T>(t);
  const Csc<T> B = csc_of<T>(t);
  CHECK(same_bits(la::csr_from_eigen(la::eigen_view(A)), A));
  CHECK(same_bits(la::csc_from_eigen(la::eigen_view(B)), B));
  // Across storage orders: CSR -> Eigen -> CSC equals the hand-built CSC.
  CHECK(same_bits(la::csc_from_eigen(la::eigen_view(A)), B));
  CHECK(same_bits(la::csr_from_eigen(la::eigen_view(B)), A));
}

TEST_CASE_TEMPLATE("Eigen round trips hold on every shape", T, float, double) {
  for (const Shape& s : shapes()) {
    INFO(s.name);
    const auto t = random_triplets<T>(s.rows, s.cols, s.options, 1004);
    const Csr<T> A = csr_of<T>(t);
    const Csc<T> B = csc_of<T>(t);
    CHECK(same_bits(la::csr_from_eigen(la::eigen_view(A)), A));
    CHECK(same_bits(la::csc_from_eigen(la::eigen_view(A)), B));
    CHECK(same_bits(la::csr_from_eigen(la::eigen_view(B)), A));
  }
}

TEST_CASE_TEMPLATE(
    "csr_from_eigen and csc_from_eigen accept uncompressed Eigen matrices of either "
    "storage order",
    T, float, double) {
  RandomOptions o;
  o.empty_rows = 0.2;
  o.shuffled = true;
  const auto t = random_triplets<T>(400, 250, o, 1005);
  const Csr<T> A = csr_of<T>(t);
  const Csc<T> B = csc_of<T>(t);
  const auto rows = uncompressed<T, Eigen::RowMajor>(t);
  const auto cols = uncompressed<T, Eigen::ColMajor>(t);
  REQUIRE(!rows.isCompressed());
  REQUIRE(!cols.isCompressed());
  CHECK(same_bits(la::csr_from_eigen(rows), A));
  CHECK(same_bits(la::csr_from_eigen(cols), A));
  CHECK(same_bits(la::csc_from_eigen(rows), B));
  CHECK(same_bits(la::csc_from_eigen(cols), B));
  CHECK(!rows.isCompressed());  // the input is left as it was
}

TEST_CASE("eigen_view of a dense block is its row-major data, zero copy") {
  const Dense<double> X = random_dense<double>(7, 3, 1007);
  const auto E = la::eigen_view(X);
  REQUIRE(E.rows() == 7);
  REQUIRE(E.cols() == 3);
  CHECK(E.data() == X.data.data());
  bool same = true;
  for (index_t r = 0; r < 7; ++r)
    for (index_t c = 0; c < 3; ++c) same = same && E(r, c) == X.data[r * 3 + c];
  CHECK(same);
}

TEST_CASE_TEMPLATE("spmv through eigen_view agrees with Eigen's own product", T, float, double) {
  cpu::Executor exec(4);
  const auto t = random_triplets<T>(3000, 2000, {}, 1009);
  const Csr<T> A = csr_of<T>(t);
  const HostArray<T> x = random_array<T>(2000, 1010);
  const Eigen::Map<const Eigen::Matrix<T, Eigen::Dynamic, 1>> xe(x.data(), x.size());
  const Eigen::Matrix<T, Eigen::Dynamic, 1> ye = la::eigen_view(A) * xe;
  const HostArray<T> y = la::spmv(exec, A, x);
  const EigenDense xd = eigen_of(x);
  const EigenDense scale = EigenRows(eigen_of(t).cwiseAbs()) * xd.cwiseAbs();
  check_dense(y.data(), ye.template cast<double>(), scale, "spmv vs Eigen");
}

}  // namespace spmesh::test::eigen_interop_tests
