// StencilCsr (shared weight lists): encoding keeps every entry exactly, rows with the same
// weights share one table entry, and spmm on it equals spmm on the CSR it came from; on every
// backend (cuda/stencil_csr.cu: GPU encodings must equal the CPU's exactly).
#include "common.hpp"
#include "linalg/stencil_csr.hpp"

#include <algorithm>
#include <array>
#include <tuple>

namespace spmesh::test::stencil_tests {

// Rows made from three weight lists (one row in ten empty), each on its own columns, listed
// in column order: 4 distinct lists.
template <class T>
Triplets<T> three_stencils(index_t rows, index_t cols) {
  const std::array<std::array<double, 4>, 3> lists = {
      {{0.5, 0.25, 0.125, 0.125}, {0.75, 0.125, 0.125, 0}, {1.0 / 3, 1.0 / 3, 1.0 / 3, 0}}};
  Triplets<T> t;
  t.rows = rows, t.cols = cols;
  for (index_t r = 0; r < rows; ++r) {
    if (r % 10 == 9) continue;
    const auto& w = lists[r % 3];
    std::vector<std::pair<index_t, T>> row;
    for (int e = 0; e < 4 && w[e] != 0; ++e)
      row.emplace_back((7 * r + 13 * e + r / 5) % cols, static_cast<T>(w[(e + r) % (r % 3 == 0 ? 4 : 3)]));
    std::sort(row.begin(), row.end());
    for (const auto& [c, v] : row) t.add(r, c, v);
  }
  return t;
}

template <class Column>
struct Encode {
  template <class E, class M>
  auto operator()(E& exec, const M& A) const {
    auto s = la::encode_stencils<Column>(exec, A);
    return std::make_tuple(std::move(s.offsets), std::move(s.columns), std::move(s.shift),
                           std::move(s.table), s.stencils);
  }
};

template <class Column>
struct EncodeAndMultiply {
  template <class E, class M, class X>
  auto operator()(E& exec, const M& A, const X& x) const {
    return la::spmm(exec, la::encode_stencils<Column>(exec, A), x);
  }
};

struct Multiply {
  template <class E, class M, class X>
  auto operator()(E& exec, const M& A, const X& x) const {
    return la::spmm(exec, A, x);
  }
};

// The entries (row, column, weight) of an encoding, in CSR order, against A's.
template <class T, class Column>
void check_entries(const Csr<T>& A, const HostArray<index_t>& offsets,
                   const HostArray<Column>& columns, const HostArray<index_t>& shift,
                   const HostArray<T>& table) {
  REQUIRE(offsets.size() == A.rows + 1);
  REQUIRE(columns.size() == A.nnz());
  index_t differ = 0;
  for (index_t r = 0; r < A.rows; ++r) {
    REQUIRE(offsets[r + 1] - offsets[r] == A.offsets[r + 1] - A.offsets[r]);
    std::vector<std::pair<index_t, T>> got, want;
    for (index_t p = offsets[r]; p < offsets[r + 1]; ++p) got.emplace_back(columns[p], table[shift[r] + p]);
    for (index_t p = A.offsets[r]; p < A.offsets[r + 1]; ++p) want.emplace_back(A.indices[p], A.values[p]);
    std::sort(got.begin(), got.end());
    differ += got == want ? 0 : 1;
  }
  CHECK_MESSAGE(differ == 0, differ << " rows differ from the matrix encoded");
}

template <class B, class T, class Column>
void check_encoding(const Triplets<T>& t, index_t expected_stencils) {
  const Csr<T> A = csr_of<T>(t);
  const auto [offsets, columns, shift, table, stencils] = run<B>("encode", Encode<Column>{}, A);
  check_entries(A, offsets, columns, shift, table);
  if (expected_stencils >= 0) CHECK(stencils == expected_stencils);
  for (const index_t k : {1, 3, 5}) {
    CAPTURE(k);
    const auto X = random_dense<T>(t.cols, k, 301);
    const auto plain = run<B>("spmm", Multiply{}, A, X);
    const auto coded = run<B>("spmm on stencils", EncodeAndMultiply<Column>{}, A, X);
    double worst = 0, scale = 0;
    for (index_t p = 0; p < plain.data.size(); ++p) {
      worst = std::max(worst, std::abs(double(plain.data[p]) - double(coded.data[p])));
      scale = std::max(scale, std::abs(double(plain.data[p])));
    }
    CHECK(worst <= tolerance<T>() * std::max(scale, 1.0));
  }
}

TEST_CASE_TEMPLATE("encode_stencils keeps every entry and shares repeated weight lists, spmm "
                   "on it equals spmm on the CSR",
                   P, SPMESH_TEST_REALS) {
  using B = typename P::Backend;
  using T = typename P::type;
  SUBCASE("three weight lists and empty rows: 4 table entries, 16-bit columns") {
    check_encoding<B, T, std::uint16_t>(three_stencils<T>(5000, 700), 4);
  }
  SUBCASE("random weights: one table entry per non-empty row, 32-bit columns") {
    RandomOptions o;
    o.per_row = 14;
    o.empty_rows = 0.1;
    const auto t = random_triplets<T>(3000, 100000, o, 302);
    index_t nonempty = 0;
    std::vector<char> seen(t.rows, 0);
    for (const index_t r : t.i) nonempty += seen[r] ? 0 : 1, seen[r] = 1;
    check_encoding<B, T, index_t>(t, nonempty + 1);  // + the empty row's list
  }
  SUBCASE("long rows (on the GPU: several lanes per row)") {
    RandomOptions o;
    o.per_row = 30;
    o.codes = true;  // weights 0..7: many rows share their multiset
    check_encoding<B, T, std::uint16_t>(random_triplets<T>(4000, 60000, o, 303), -1);
  }
}

TEST_CASE_TEMPLATE("encode_stencils and spmm on it are bit-identical run to run", P,
                   SPMESH_TEST_REALS) {
  using B = typename P::Backend;
  using T = typename P::type;
  RandomOptions o;
  o.per_row = 9;
  o.codes = true;
  const Csr<T> A = csr_of<T>(random_triplets<T>(20000, 3000, o, 311));
  check_repeatable<B>(is_cpu<B> ? 3 : 10, "encode", Encode<std::uint16_t>{}, A);
  check_repeatable<B>(is_cpu<B> ? 3 : 10, "spmm", EncodeAndMultiply<std::uint16_t>{}, A,
                      random_dense<T>(3000, 3, 312));
}

#if !defined(__CUDACC__)
TEST_CASE("encode_stencils refuses columns its column type cannot number") {
  cpu::Executor exec;
  const Csr<float> A = csr_of<float>(three_stencils<float>(10, 70000));
  CHECK_THROWS_WITH_AS(la::encode_stencils<std::uint16_t>(exec, A),
                       "encode_stencils: 70000 columns do not fit a 16-bit column index",
                       CapacityError);
}
#endif

}  // namespace spmesh::test::stencil_tests
