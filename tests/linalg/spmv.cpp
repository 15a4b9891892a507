// Mapped SpMV / SpMM (spmv, spmm on CSR; spmv_t, spmm_t on CSC and mesh matrices) against
// Eigen (sum) or a loop over the triplets (min, max, user monoid), for every kind of action map,
// on every backend (cuda/spmv.cu: on the GPU, each result also compared with the CPU's).
// The reference weight of each map is written here from its definition, not by calling it.
#include "common.hpp"

namespace spmesh::test::spmv_tests {

const index_t widths[] = {0, 1, 2, 3, 4, 5, 7};  // k > 4 (and 0) take the dynamic-width path

// Tables for the table-driven maps: per row, per column, per stored value (codes 0..7).
template <class T>
struct Tables {
  HostArray<T> rows, cols, codes;
};
template <class T>
Tables<T> make_tables(index_t rows, index_t cols, std::uint64_t seed) {
  return {random_array<T>(rows, seed, 0.5, 2.0), random_array<T>(cols, seed + 1, -2.0, 2.0),
          random_array<T>(8, seed + 2, -1.0, 1.0)};
}

// A map of (value, i, j) that uses all three (map::function's test functor). The reference
// applies it to the triplets: its definition is the specification.
template <class T>
struct Mix {
  template <class V>
  SPMESH_HD T operator()(V v, index_t i, index_t j) const {
    return static_cast<T>(v) * static_cast<T>(1 + i % 3) -
           static_cast<T>(0.5) * static_cast<T>(j % 2);
  }
};

// The maps under test, made from the tables in the memory space of the backend that runs them
// (rows, cols, codes): the maps of the table kinds hold pointers.
struct MakeIdentity {
  template <class A>
  la::map::Identity operator()(const A&, const A&, const A&) const {
    return {};
  }
};
template <class T>
struct MakeConstant {
  template <class A>
  la::map::Constant<T> operator()(const A&, const A&, const A&) const {
    return la::map::constant(T(0.25));
  }
};
struct MakeValueTable {
  template <class A>
  auto operator()(const A&, const A&, const A& codes) const {
    return la::map::value_table(codes);
  }
};
struct MakePerRow {
  template <class A>
  auto operator()(const A& rows, const A&, const A&) const {
    return la::map::per_row(rows);
  }
};
struct MakePerColumn {
  template <class A>
  auto operator()(const A&, const A& cols, const A&) const {
    return la::map::per_column(cols);
  }
};
template <class T>
struct MakeMix {
  template <class A>
  la::map::Function<Mix<T>> operator()(const A&, const A&, const A&) const {
    return la::map::function(Mix<T>{});
  }
};

// Calls run(make_map, weight, name, needs_codes, reduce, reference reduction) for every map kind
// under Sum, then for Min, Max and a user monoid under map::function. make_map(rows, cols, codes)
// makes the map from the tables; weight(v, i, j) is the value the map must give entry (i, j)
// holding v, computed in T; needs_codes: the stored values must be table indices. (Maps and
// reductions are independent in the kernel; crossing all of them would multiply compile time
// for no extra coverage.)
template <class T, class Run>
void for_each_case(const Tables<T>& tb, Run&& run) {
  const T *rw = tb.rows.data(), *cw = tb.cols.data(), *code = tb.codes.data();
  const la::reduce::Sum sum;
  run(
      MakeIdentity{}, [](auto v, index_t, index_t) { return static_cast<T>(v); }, "identity", false,
      sum, ref_sum);
  run(
      MakeConstant<T>{}, [](auto, index_t, index_t) { return T(0.25); }, "constant", false, sum,
      ref_sum);
  run(
      MakeValueTable{}, [=](auto v, index_t, index_t) { return code[static_cast<index_t>(v)]; },
      "value_table", true, sum, ref_sum);
  run(
      MakePerRow{}, [=](auto, index_t i, index_t) { return rw[i]; }, "per_row", false, sum,
      ref_sum);
  run(
      MakePerColumn{}, [=](auto, index_t, index_t j) { return cw[j]; }, "per_column", false, sum,
      ref_sum);
  run(MakeMix<T>{}, Mix<T>{}, "function", false, sum, ref_sum);
  run(MakeMix<T>{}, Mix<T>{}, "function", false, la::reduce::Min{}, ref_min);
  run(MakeMix<T>{}, Mix<T>{}, "function", false, la::reduce::Max{}, ref_max);
  run(MakeMix<T>{}, Mix<T>{}, "function", false, la::reduce::monoid(MaxOf{}, -1000.0),
      ref_monoid_max);
}

// The products as ops of run(): the returning form, the output-argument form (Y given), and the
// vector forms; each makes its map from the tables it is given.
template <class Make, class Reduce>
struct Spmm {
  Make make;
  Reduce reduce;
  template <class E, class M, class X, class A>
  auto operator()(E& exec, const M& m, const X& x, const A& rows, const A& cols,
                  const A& codes) const {
    return la::spmm(exec, m, x, make(rows, cols, codes), reduce);
  }
  template <class E, class M, class X, class A>
  X operator()(E& exec, const M& m, const X& x, X& y, const A& rows, const A& cols,
               const A& codes) const {
    la::spmm(exec, m, x, y, make(rows, cols, codes), reduce);
    return std::move(y);
  }
};
template <class Make, class Reduce>
struct SpmmT {
  Make make;
  Reduce reduce;
  template <class E, class M, class X, class A>
  auto operator()(E& exec, const M& m, const X& x, const A& rows, const A& cols,
                  const A& codes) const {
    return la::spmm_t(exec, m, x, make(rows, cols, codes), reduce);
  }
  template <class E, class M, class X, class A>
  X operator()(E& exec, const M& m, const X& x, X& y, const A& rows, const A& cols,
               const A& codes) const {
    la::spmm_t(exec, m, x, y, make(rows, cols, codes), reduce);
    return std::move(y);
  }
};
template <class Make, class Reduce>
struct Spmv {
  Make make;
  Reduce reduce;
  template <class E, class M, class X, class A>
  auto operator()(E& exec, const M& m, const X& x, const A& rows, const A& cols,
                  const A& codes) const {
    return la::spmv(exec, m, x, make(rows, cols, codes), reduce);
  }
};
template <class Make, class Reduce>
struct SpmvT {
  Make make;
  Reduce reduce;
  template <class E, class M, class X, class A>
  auto operator()(E& exec, const M& m, const X& x, const A& rows, const A& cols,
                  const A& codes) const {
    return la::spmv_t(exec, m, x, make(rows, cols, codes), reduce);
  }
};

template <class T>
Dense<T> nan_dense(index_t rows, index_t cols) {  // every entry must be written
  Dense<T> Y(rows, cols);
  for (auto& y : Y.data) y = std::numeric_limits<T>::quiet_NaN();
  return Y;
}

// Y = A X with A in CSR: the returning and output-argument forms of spmm for every width, and spmv.
template <class B, class T, class V, class Make, class Reduce>
void check_row_products(const Csr<T>& A, const Triplets<V>& t, const Tables<T>& tb, Make make,
                        const std::vector<double>& weight, Reduce reduce, const RefReduce& rr,
                        const std::string& what) {
  const Spmm<Make, Reduce> spmm{make, reduce};
  for (index_t k : widths) {
    INFO(what << ", k = " << k);
    const Dense<T> X = random_dense<T>(t.cols, k, 300 + k);
    const EigenDense x = eigen_of(X);
    const EigenDense ref = reference_gather(t, weight, x, rr, false);
    const EigenDense scale = reference_scale(t, weight, x, false);
    check_dense(run<B>("spmm " + what, spmm, A, X, tb.rows, tb.cols, tb.codes), ref, scale,
                "spmm " + what);
    check_dense(run<B>("spmm (output argument) " + what, spmm, A, X, nan_dense<T>(t.rows, k),
                       tb.rows, tb.cols, tb.codes),
                ref, scale, "spmm (output argument) " + what);
  }
  const HostArray<T> x = random_array<T>(t.cols, 311);
  const EigenDense xe = eigen_of(x);
  const HostArray<T> y =
      run<B>("spmv " + what, Spmv<Make, Reduce>{make, reduce}, A, x, tb.rows, tb.cols, tb.codes);
  REQUIRE(y.size() == t.rows);
  check_dense(y.data(), reference_gather(t, weight, xe, rr, false),
              reference_scale(t, weight, xe, false), "spmv " + what);
}

// Y = A^T X with A stored by columns (CSC or a mesh matrix): spmm_t for every width, and spmv_t.
template <class B, class T, class Matrix, class V, class Make, class Reduce>
void check_column_products(const Matrix& A, const Triplets<V>& t, const Tables<T>& tb, Make make,
                           const std::vector<double>& weight, Reduce reduce, const RefReduce& rr,
                           const std::string& what) {
  const SpmmT<Make, Reduce> spmm_t{make, reduce};
  for (index_t k : widths) {
    INFO(what << ", k = " << k);
    const Dense<T> X = random_dense<T>(t.rows, k, 400 + k);
    const EigenDense x = eigen_of(X);
    const EigenDense ref = reference_gather(t, weight, x, rr, true);
    const EigenDense scale = reference_scale(t, weight, x, true);
    check_dense(run<B>("spmm_t " + what, spmm_t, A, X, tb.rows, tb.cols, tb.codes), ref, scale,
                "spmm_t " + what);
    check_dense(run<B>("spmm_t (output argument) " + what, spmm_t, A, X, nan_dense<T>(t.cols, k),
                       tb.rows, tb.cols, tb.codes),
                ref, scale, "spmm_t (output argument) " + what);
  }
  const HostArray<T> x = random_array<T>(t.rows, 411);
  const EigenDense xe = eigen_of(x);
  const HostArray<T> y =
      run<B>("spmv_t " + what, SpmvT<Make, Reduce>{make, reduce}, A, x, tb.rows, tb.cols, tb.codes);
  REQUIRE(y.size() == t.cols);
  check_dense(y.data(), reference_gather(t, weight, xe, rr, true),
              reference_scale(t, weight, xe, true), "spmv_t " + what);
}

// 3000 x 700 with 30% empty rows (they must get the reduction's identity) and 20% empty
// columns (empty outputs of the transposed products); 3000 lines run the parallel loop.
template <class T>
Triplets<T> matrix_with_holes(bool codes, std::uint64_t seed) {
  RandomOptions o;
  o.per_row = 5;
  o.empty_rows = 0.3;
  o.empty_cols = 0.2;
  o.codes = codes;
  return random_triplets<T>(3000, 700, o, seed);
}

// Plain products for the tests of defaults and mixed types.
struct PlainSpmv {
  template <class E, class M, class X>
  auto operator()(E& exec, const M& m, const X& x) const {
    return la::spmv(exec, m, x);
  }
};
struct PlainSpmvT {
  template <class E, class M, class X>
  auto operator()(E& exec, const M& m, const X& x) const {
    return la::spmv_t(exec, m, x);
  }
};
struct PlainSpmm {
  template <class E, class M, class X>
  auto operator()(E& exec, const M& m, const X& x) const {
    return la::spmm(exec, m, x);
  }
};

// Face centroids F = M^T P with val -> 1/c (Eq. 6), and face orders c = M^T 1 with val -> 1 (Eq.
// 5).
struct Centroids {
  template <class E, class M, class X, class A>
  auto operator()(E& exec, const M& m, const X& p, const A& inv_order) const {
    return la::spmm_t(exec, m, p, la::map::per_column(inv_order));
  }
};
struct FaceOrders {
  template <class E, class M, class X>
  auto operator()(E& exec, const M& m, const X& ones) const {
    return la::spmv_t(exec, m, ones, la::map::constant(1.0));
  }
};

TEST_CASE_TEMPLATE(
    "spmv and spmm on CSR equal Eigen for every map and reduction, empty rows get "
    "the identity",
    P, SPMESH_TEST_REALS) {
  using B = typename P::Backend;
  using T = typename P::type;
  const auto t = matrix_with_holes<T>(false, 201), tc = matrix_with_holes<T>(true, 202);
  const Csr<T> A = csr_of<T>(t), Ac = csr_of<T>(tc);
  const Tables<T> tables = make_tables<T>(t.rows, t.cols, 203);
  for_each_case(tables, [&](auto make, auto weight, const char* name, bool codes, auto reduce,
                            const RefReduce& rr) {
    check_row_products<B>(codes ? Ac : A, codes ? tc : t, tables, make,
                          weights_of(codes ? tc : t, weight), reduce, rr,
                          std::string(name) + " / " + rr.name);
  });
}

TEST_CASE_TEMPLATE(
    "spmv and spmm on CSR with long rows (on the GPU: 2 and 4 lanes per row) equal Eigen "
    "for every map and reduction",
    P, SPMESH_TEST_REALS) {
  using B = typename P::Backend;
  using T = typename P::type;
  for (const double per_row : {9.0, 14.0, 16.0, 30.0}) {
    INFO("entries per row " << per_row);
    RandomOptions o;
    o.per_row = per_row;
    o.empty_rows = 0.05;
    const auto t = random_triplets<T>(1500, 700, o, 241);
    o.codes = true;
    const auto tc = random_triplets<T>(1500, 700, o, 242);
    const Csr<T> A = csr_of<T>(t), Ac = csr_of<T>(tc);
    const Tables<T> tables = make_tables<T>(t.rows, t.cols, 243);
    for_each_case(tables, [&](auto make, auto weight, const char* name, bool codes, auto reduce,
                              const RefReduce& rr) {
      check_row_products<B>(codes ? Ac : A, codes ? tc : t, tables, make,
                            weights_of(codes ? tc : t, weight), reduce, rr,
                            std::string(name) + " / " + rr.name);
    });
  }
}

TEST_CASE_TEMPLATE(
    "spmv_t and spmm_t on CSC equal Eigen's A^T X for every map and reduction, "
    "maps see (i, j) of A",
    P, SPMESH_TEST_REALS) {
  using B = typename P::Backend;
  using T = typename P::type;
  const auto t = matrix_with_holes<T>(false, 211), tc = matrix_with_holes<T>(true, 212);
  const Csc<T> A = csc_of<T>(t), Ac = csc_of<T>(tc);
  const Tables<T> tables = make_tables<T>(t.rows, t.cols, 213);
  for_each_case(tables, [&](auto make, auto weight, const char* name, bool codes, auto reduce,
                            const RefReduce& rr) {
    check_column_products<B>(codes ? Ac : A, codes ? tc : t, tables, make,
                             weights_of(codes ? tc : t, weight), reduce, rr,
                             std::string(name) + " / " + rr.name);
  });
}

TEST_CASE_TEMPLATE(
    "spmv_t and spmm_t on a polygon mesh matrix equal Eigen's M^T X with slots as "
    "values, for every map and reduction",
    P, SPMESH_TEST_REALS) {
  using B = typename P::Backend;
  using T = typename P::type;
  const PolyMesh mesh = random_mesh(2000, 3000, 3, 6, 221);
  const auto M = mesh_matrix(mesh);
  const auto t = mesh_triplets(mesh);
  const Tables<T> tables = make_tables<T>(t.rows, t.cols, 223);  // codes: one weight per slot
  for_each_case(tables, [&](auto make, auto weight, const char* name, bool, auto reduce,
                            const RefReduce& rr) {
    check_column_products<B>(M, t, tables, make, weights_of(t, weight), reduce, rr,
                             std::string(name) + " / " + rr.name);
  });
}

TEST_CASE_TEMPLATE(
    "spmv_t and spmm_t on a reduced quad or triangle matrix equal Eigen's M^T X, for "
    "every map and reduction",
    P, SPMESH_TEST_REALS) {
  using B = typename P::Backend;
  using T = typename P::type;
  for (int order : {3, 4}) {
    INFO("order " << order);
    const PolyMesh mesh = random_mesh(1500, 2500, order, order, 231 + order);
    const auto M = reduced_mesh_matrix(mesh, order);
    const auto t = mesh_triplets(mesh);
    const Tables<T> tables = make_tables<T>(t.rows, t.cols, 233);
    for_each_case(tables, [&](auto make, auto weight, const char* name, bool, auto reduce,
                              const RefReduce& rr) {
      check_column_products<B>(M, t, tables, make, weights_of(t, weight), reduce, rr,
                               std::string(name) + " / " + rr.name);
    });
  }
}

TEST_CASE_TEMPLATE("the default map and reduction give the plain product A x", P,
                   SPMESH_TEST_REALS) {
  using B = typename P::Backend;
  using T = typename P::type;
  const auto t = matrix_with_holes<T>(false, 241);
  const Csr<T> A = csr_of<T>(t);
  const Csc<T> C = csc_of<T>(t);
  const EigenRows E = eigen_of(t);
  const EigenRows Eabs = EigenRows(E.cwiseAbs());
  const HostArray<T> x = random_array<T>(t.cols, 242), xt = random_array<T>(t.rows, 243);
  const Dense<T> X = random_dense<T>(t.cols, 3, 244);
  const EigenDense xe = eigen_of(x), xte = eigen_of(xt), Xe = eigen_of(X);
  check_dense(run<B>("spmv", PlainSpmv{}, A, x).data(), EigenDense(E * xe),
              EigenDense(Eabs * xe.cwiseAbs()), "spmv");
  check_dense(run<B>("spmv_t", PlainSpmvT{}, C, xt).data(), EigenDense(E.transpose() * xte),
              EigenDense(Eabs.transpose() * xte.cwiseAbs()), "spmv_t");
  check_dense(run<B>("spmm", PlainSpmm{}, A, X), EigenDense(E * Xe),
              EigenDense(Eabs * Xe.cwiseAbs()), "spmm");
}

TEST_CASE_TEMPLATE("spmv and spmv_t accept non-canonical input: unsorted and duplicate entries", P,
                   SPMESH_TEST_REALS) {
  using B = typename P::Backend;
  using T = typename P::type;
  RandomOptions o;
  o.per_row = 6;
  o.empty_rows = 0.1;
  o.duplicates = 0.4;
  o.shuffled = true;
  const auto t = random_triplets<T>(2500, 900, o, 251);
  const Csr<T> A = csr_of<T>(t, /*sort_inner=*/false);
  const Csc<T> C = csc_of<T>(t, /*sort_inner=*/false);
  const Tables<T> tables = make_tables<T>(t.rows, t.cols, 253);
  for_each_case(tables, [&](auto make, auto weight, const char* name, bool codes, auto reduce,
                            const RefReduce& rr) {
    if (codes) return;  // the values are not table indices
    const auto w = weights_of(t, weight);
    const std::string what = std::string(name) + " / " + rr.name;
    check_row_products<B>(A, t, tables, make, w, reduce, rr, what);
    check_column_products<B>(C, t, tables, make, w, reduce, rr, what);
  });
}

TEST_CASE_TEMPLATE(
    "a float matrix times double vectors gives the double product of the float values", B,
    SPMESH_TEST_BACKENDS) {
  const auto t = matrix_with_holes<float>(false, 261);
  const Csr<float> A = csr_of<float>(t);
  const HostArray<double> x = random_array<double>(t.cols, 262);
  const EigenDense xe = eigen_of(x);
  const auto w = weights_of(t, Identity{});
  // Tolerance of double: the float values enter exactly.
  check_dense(run<B>("mixed spmv", PlainSpmv{}, A, x).data(),
              reference_gather(t, w, xe, ref_sum, false), reference_scale(t, w, xe, false),
              "mixed spmv");
}

// Y's rows [2, 5) = A X, written in place into a 7-row block whose other rows stay as they were;
// X itself a row range of a larger block.
struct SpmmIntoRows {
  template <class E, class M, class X, class Y>
  auto operator()(E& exec, const M& A, const X& X_all, Y& Y_all) const {
    la::spmm(exec, A, la::row_block(X_all, 1, A.cols), la::row_block(Y_all, 2, A.rows));
    return std::move(Y_all);
  }
};

TEST_CASE_TEMPLATE("spmm reads and writes row ranges of larger blocks in place", B,
                   SPMESH_TEST_BACKENDS) {
  // A (3 x 2) = [[1, 2], [0, 3], [4, 0]]; X rows 1..2 of a 4-row block; Y rows 2..4 of 7.
  const Csr<double> A(3, 2, HostArray<index_t>{0, 2, 3, 4}, HostArray<index_t>{0, 1, 1, 0},
                      HostArray<double>{1, 2, 3, 4});
  const Dense<double> X(4, 2, HostArray<double>{9, 9, 1, 10, 2, 20, 9, 9});
  Dense<double> Y(7, 2, HostArray<double>(14, -1.0));
  const Dense<double> got = run<B>("spmm into rows", SpmmIntoRows{}, A, X, Y);
  const std::vector<double> expected = {-1, -1, -1, -1, 5, 50, 6, 60, 4, 40, -1, -1, -1, -1};
  CHECK(got.data.to_vector() == expected);
  CHECK_THROWS_AS(la::row_block(Y, 5, 3), DimensionError);
}

TEST_CASE_TEMPLATE("spmv_t with val -> 1/c per face gives face centroids (Eq. 6)", B,
                   SPMESH_TEST_BACKENDS) {
  // A hand-made mesh: a quad and a triangle sharing the edge 1-2.
  const la::MeshMatrix<> M(5, HostArray<index_t>{0, 4, 7}, HostArray<index_t>{0, 1, 2, 3, 1, 4, 2});
  const HostArray<double> inv_order{0.25, 1.0 / 3.0};
  const Dense<double> P(5, 2, HostArray<double>{0, 0, 1, 0, 1, 1, 0, 1, 2, 0.5});
  const Dense<double> F = run<B>("centroids", Centroids{}, M, P, inv_order);
  CHECK(F(0, 0) == doctest::Approx(0.5));
  CHECK(F(0, 1) == doctest::Approx(0.5));
  CHECK(F(1, 0) == doctest::Approx(4.0 / 3.0));
  CHECK(F(1, 1) == doctest::Approx(0.5));
  // Face orders c = M^T 1 with val -> 1 (Eq. 5).
  const HostArray<double> c = run<B>("face orders", FaceOrders{}, M, HostArray<double>(5, 1.0));
  CHECK(c.to_vector() == std::vector<double>{4, 3});
}

// A random ternary matrix (some rows empty) and the same matrix in Eigen, entries +1 and -1.
struct RandomTernary {
  index_t rows = 37, cols = 23;
  HostArray<index_t> offsets = HostArray<index_t>(rows + 1), columns;
  EigenRows eigen = EigenRows(rows, cols);

  explicit RandomTernary(std::uint64_t seed) {
    std::mt19937_64 random(seed);
    std::vector<index_t> stored;
    std::vector<Eigen::Triplet<double, index_t>> triplets;
    offsets[0] = 0;
    for (index_t i = 0; i < rows; ++i) {
      for (index_t j = 0; j < cols; ++j)
        if (random() % 5 == 0 && i % 7 != 3) {  // rows 3, 10, 17, ... stay empty
          const int sign = random() % 2 ? 1 : -1;
          stored.push_back(la::signed_column(j, sign));
          triplets.emplace_back(i, j, double(sign));
        }
      offsets[i + 1] = index_t(stored.size());
    }
    columns = HostArray<index_t>(stored);
    eigen.setFromTriplets(triplets.begin(), triplets.end());
  }
};

TEST_CASE_TEMPLATE("spmm on a ternary matrix equals Eigen's with the sign as the value (identity, "
                   "pattern, per-row maps), and transpose is Eigen's transpose",
                   B, SPMESH_TEST_BACKENDS) {
  using S = typename B::Exec::space;
  typename B::Exec exec;
  const RandomTernary t(17);
  const la::Ternary<S> A{t.rows, t.cols, B::upload(t.offsets), B::upload(t.columns)};
  const auto X = random_dense<double>(t.cols, 3, 5);
  const HostArray<double> w = random_array<double>(t.rows, 9, 0.5, 2.0);
  const auto w_on = B::upload(w);
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> Xe(t.cols, 3);
  for (index_t j = 0; j < t.cols; ++j)
    for (index_t c = 0; c < 3; ++c) Xe(j, c) = X(j, c);
  const EigenRows pattern = t.eigen.cwiseAbs();
  const Eigen::VectorXd we = Eigen::Map<const Eigen::VectorXd>(w.begin(), t.rows);
  const std::pair<std::string, Eigen::MatrixXd> expected[] = {
      {"identity", t.eigen * Xe}, {"pattern", pattern * Xe}, {"per row", we.asDiagonal() * (pattern * Xe)}};
  for (const auto& [name, E] : expected) {
    CAPTURE(name);
    la::Dense<double, S> Y(t.rows, 3);
    const auto X_on = B::upload(X);
    if (name == "identity") la::spmm(exec, A, X_on, Y);
    else if (name == "pattern") la::spmm(exec, A, X_on, Y, la::map::constant(1.0));
    else la::spmm(exec, A, X_on, Y, la::map::per_row(w_on));
    const auto got = B::download(Y);
    double worst = 0;
    for (index_t i = 0; i < t.rows; ++i)
      for (index_t c = 0; c < 3; ++c) worst = std::max(worst, std::abs(got(i, c) - E(i, c)));
    CHECK(worst <= 1e-12);
  }
  const auto T = la::transpose(exec, A);
  const HostArray<index_t> offsets = B::download(T.offsets), columns = B::download(T.columns);
  const EigenRows Et = t.eigen.transpose();
  REQUIRE(T.rows == t.cols);
  REQUIRE(T.cols == t.rows);
  for (index_t j = 0; j <= t.cols; ++j) CHECK(offsets[j] == Et.outerIndexPtr()[j]);
  for (index_t p = 0; p < Et.nonZeros(); ++p) {
    CHECK(la::column_of(columns[p]) == Et.innerIndexPtr()[p]);
    CHECK(la::sign_of(columns[p]) == int(Et.valuePtr()[p]));
  }
}

}  // namespace spmesh::test::spmv_tests
