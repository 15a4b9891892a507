// Input checks: operands whose shapes do not fit throw DimensionError naming the op, tables of
// per-row / per-column maps that do not cover the matrix throw, containers refuse inconsistent
// arrays, and linalg::validate names the bad row, column or face.
#include "common.hpp"

namespace spmesh::test::errors_tests {

namespace {

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("spmv and spmm with operands of the wrong size throw DimensionError naming the op") {
  cpu::Executor exec;
  const Csr<double> A = csr_of<double>(random_triplets<double>(7, 5, {}, 901));
  const HostArray<double> x(5, 1.0), wrong_x(6, 1.0);
  HostArray<double> y(7), wrong_y(5);
  std::string msg = thrown_message<DimensionError>([&] { (void)la::spmv(exec, A, wrong_x); });
  CHECK(contains(msg, "spmv"));
  CHECK(contains(msg, "x is 6 x 1, expected 5 x 1"));
  msg = thrown_message<DimensionError>([&] { la::spmv(exec, A, x, wrong_y); });
  CHECK(contains(msg, "spmv"));
  CHECK(contains(msg, "y is 5 x 1, expected 7 x 1"));
  const Dense<double> X(5, 3), wrong_X(4, 3);
  Dense<double> Y(7, 3), wrong_Y(7, 2);
  msg = thrown_message<DimensionError>([&] { (void)la::spmm(exec, A, wrong_X); });
  CHECK(contains(msg, "spmm"));
  msg = thrown_message<DimensionError>([&] { la::spmm(exec, A, X, wrong_Y); });
  CHECK(contains(msg, "spmm"));
  CHECK(contains(msg, "Y is 7 x 2, expected 7 x 3"));
  la::spmm(exec, A, X, Y);  // the right shapes pass
}

TEST_CASE("spmv_t and spmm_t with operands of the wrong size throw DimensionError naming the op") {
  cpu::Executor exec;
  const Csc<double> A = csc_of<double>(random_triplets<double>(7, 5, {}, 903));
  const la::MeshMatrix<> M = mesh_matrix(random_mesh(6, 4, 3, 5, 904));
  std::string msg =
      thrown_message<DimensionError>([&] { (void)la::spmv_t(exec, A, HostArray<double>(5)); });
  CHECK(contains(msg, "spmv_t"));
  CHECK(contains(msg, "x is 5 x 1, expected 7 x 1"));
  HostArray<double> y(7);
  msg = thrown_message<DimensionError>([&] { la::spmv_t(exec, A, HostArray<double>(7, 0.0), y); });
  CHECK(contains(msg, "spmv_t"));
  msg = thrown_message<DimensionError>([&] { (void)la::spmm_t(exec, M, Dense<double>(4, 3)); });
  CHECK(contains(msg, "spmm_t"));
  CHECK(contains(msg, "X is 4 x 3, expected 6 x 3"));
  Dense<double> Y(3, 3);
  msg = thrown_message<DimensionError>([&] { la::spmm_t(exec, M, Dense<double>(6, 3), Y); });
  CHECK(contains(msg, "spmm_t"));
  CHECK(contains(msg, "Y is 3 x 3, expected 4 x 3"));
}

TEST_CASE("per_row and per_column tables shorter than the matrix throw DimensionError") {
  cpu::Executor exec;
  const auto t = random_triplets<double>(7, 5, {}, 905);
  const Csr<double> A = csr_of<double>(t);
  const Csc<double> B = csc_of<double>(t);
  const HostArray<double> short_rows(6, 1.0), short_cols(4, 1.0), rows(7, 1.0), cols(5, 1.0);
  const HostArray<double> x(5, 1.0), xt(7, 1.0);
  std::string msg = thrown_message<DimensionError>(
      [&] { (void)la::spmv(exec, A, x, la::map::per_row(short_rows)); });
  CHECK(contains(msg, "spmv"));
  CHECK(contains(msg, "per-row map has 6 entries but the matrix has 7 rows"));
  msg = thrown_message<DimensionError>(
      [&] { (void)la::spmv(exec, A, x, la::map::per_column(short_cols)); });
  CHECK(contains(msg, "per-column map has 4 entries but the matrix has 5 columns"));
  msg = thrown_message<DimensionError>(
      [&] { (void)la::spmm_t(exec, B, Dense<double>(7, 2), la::map::per_row(short_rows)); });
  CHECK(contains(msg, "spmm_t"));
  msg = thrown_message<DimensionError>(
      [&] { (void)la::spmv_t(exec, B, xt, la::map::per_column(short_cols)); });
  CHECK(contains(msg, "spmv_t"));
  // Tables of exactly the right length, or longer, pass.
  CHECK_NOTHROW((void)la::spmv(exec, A, x, la::map::per_row(rows)));
  CHECK_NOTHROW((void)la::spmv_t(exec, B, xt, la::map::per_column(HostArray<double>(9, 1.0))));
}

TEST_CASE("containers refuse arrays that do not match their shape") {
  CHECK_THROWS_AS((Csr<double>(3, 2, HostArray<index_t>{0, 1, 2}, HostArray<index_t>{0, 1},
                               HostArray<double>{1, 2})),
                  DimensionError);  // 3 rows need 4 offsets
  CHECK_THROWS_AS(
      (Csr<double>(1, 2, HostArray<index_t>{0, 2}, HostArray<index_t>{0, 1}, HostArray<double>{1})),
      DimensionError);  // 2 indices, 1 value
  CHECK_THROWS_AS(
      (Csr<double>(-1, 2, HostArray<index_t>{0}, HostArray<index_t>{}, HostArray<double>{})),
      DimensionError);
  CHECK_THROWS_AS((Dense<double>(2, 3, HostArray<double>(5))), DimensionError);
  CHECK_THROWS_AS((la::ReducedMeshMatrix<>(4, 4, HostArray<index_t>{0, 1, 2, 3, 0})),
                  DimensionError);
  CHECK_THROWS_AS((la::ReducedMeshMatrix<>(4, 2, HostArray<index_t>{0, 1})), DimensionError);
  CHECK_THROWS_AS(checked_index(std::int64_t{1} << 31, "test"), CapacityError);
  CHECK(checked_index((std::int64_t{1} << 31) - 1, "test") == max_index);
}

TEST_CASE("validate accepts well-formed matrices") {
  cpu::Executor exec(4);
  const auto t = random_triplets<double>(5000, 300, {}, 907);
  CHECK_NOTHROW(la::validate(exec, csr_of<double>(t)));
  CHECK_NOTHROW(la::validate(exec, csc_of<double>(t)));
  const PolyMesh mesh = random_mesh(100, 3000, 4, 4, 908);
  CHECK_NOTHROW(la::validate(exec, mesh_matrix(mesh)));
  CHECK_NOTHROW(la::validate(exec, reduced_mesh_matrix(mesh, 4)));
  CHECK_NOTHROW(la::validate(exec, Csr<float>()));
}

TEST_CASE("validate throws InputError naming the first row, column or face with a bad index") {
  cpu::Executor exec(4);
  const auto t = random_triplets<double>(5000, 300, {}, 909);
  SUBCASE("CSR column out of range") {
    Csr<double> A = csr_of<double>(t);
    A.indices[A.offsets[3]] = 300;
    A.indices[A.offsets[4000]] = 301;
    const std::string msg = thrown_message<InputError>([&] { la::validate(exec, A); });
    CHECK(contains(msg, "row 3 holds index 300, outside [0, 300)"));
  }
  SUBCASE("CSR negative column") {
    Csr<double> A = csr_of<double>(t);
    A.indices[A.offsets[4321]] = -2;
    CHECK(contains(thrown_message<InputError>([&] { la::validate(exec, A); }),
                   "row 4321 holds index -2"));
  }
  SUBCASE("CSC row out of range") {
    Csc<double> A = csc_of<double>(t);
    A.indices[A.offsets[2] + 1] = 5000;
    CHECK(contains(thrown_message<InputError>([&] { la::validate(exec, A); }),
                   "column 2 holds index 5000"));
  }
  SUBCASE("offsets that do not run from 0 to nnz") {
    Csr<double> A = csr_of<double>(t);
    A.offsets[5000] -= 1;
    CHECK(contains(thrown_message<InputError>([&] { la::validate(exec, A); }), "offsets"));
    Csr<double> B = csr_of<double>(t);
    B.offsets[0] = 1;
    CHECK(contains(thrown_message<InputError>([&] { la::validate(exec, B); }), "offsets"));
  }
  SUBCASE("decreasing offsets") {
    Csr<double> A = csr_of<double>(t);
    A.offsets[10] = A.offsets[11] + 1;
    CHECK(contains(thrown_message<InputError>([&] { la::validate(exec, A); }),
                   "row 10 has decreasing offsets"));
  }
  SUBCASE("mesh matrix vertex out of range") {
    la::MeshMatrix<> M = mesh_matrix(random_mesh(100, 3000, 3, 6, 911));
    M.indices[M.offsets[2500] + 2] = 100;
    CHECK(contains(thrown_message<InputError>([&] { la::validate(exec, M); }),
                   "face 2500 holds index 100"));
    la::ReducedMeshMatrix<> R = reduced_mesh_matrix(random_mesh(100, 3000, 4, 4, 912), 4);
    R.indices[4 * 17 + 3] = -1;
    CHECK(contains(thrown_message<InputError>([&] { la::validate(exec, R); }),
                   "face 17 holds index -1"));
  }
}

}  // namespace spmesh::test::errors_tests
