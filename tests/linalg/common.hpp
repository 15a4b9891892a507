// Shared helpers of the linalg tests: random triplets, meshes and dense blocks; containers built
// by hand from triplets (so a test of one op never relies on linalg's conversions); references
// computed in double with Eigen or by plain loops; tolerant comparisons that report the first miss;
// running an op on a test backend (and, in a CUDA compile, comparing the GPU with the CPU).
//
// Every source that includes this is also compiled by nvcc (tests/linalg/cuda/*.cu): keep code in
// named namespaces under spmesh::test (no `using namespace spmesh` at global scope: nvcc's stubs
// name ::cuda::std), and give the GPU only SPMESH_HD functors (no host lambdas as maps, collide
// functions, reductions or predicates).
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "../backends.hpp"
#include "linalg/eigen.hpp"
#include "linalg/linalg.hpp"

namespace spmesh::test {

namespace la = spmesh::linalg;
using la::Coo;
using la::Csc;
using la::Csr;
using la::Dense;
using la::HostArray;

using EigenRows = Eigen::SparseMatrix<double, Eigen::RowMajor, index_t>;
using EigenDense = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Relative tolerance of a T result against a double reference (float 1e-5, double 1e-12),
// relative to the magnitude sum_j |a_ij x_j| of the terms, so cancellation does not fail a
// correct result.
template <class T>
constexpr double tolerance() {
  return std::is_same_v<T, float> ? 1e-5 : 1e-12;
}

inline bool close(double got, double ref, double scale, double tol) {
  if (got == ref) return true;  // also exact identities such as +inf for an empty Min row
  return std::abs(got - ref) <= tol * std::max(scale, std::abs(ref));
}

// ---- random data --------------------------------------------------------------------------------

template <class V>
struct Triplets {
  index_t rows = 0, cols = 0;
  std::vector<index_t> i, j;
  std::vector<V> v;

  index_t size() const { return static_cast<index_t>(v.size()); }
  void add(index_t r, index_t c, V x) {
    i.push_back(r);
    j.push_back(c);
    v.push_back(x);
  }
};

struct RandomOptions {
  double per_row = 4;     // mean entries of a non-empty row
  double empty_rows = 0;  // fraction of rows left empty
  double empty_cols = 0;  // fraction of columns never used
  double duplicates = 0;  // extra entries repeating a (row, column), as a fraction of nnz
  bool codes = false;     // values are the integers 0..7 (for map::value_table), else in [-1, 1]
  bool shuffled = false;  // entries in random order instead of row by row
};

// Random entries with distinct (row, column) unless options.duplicates > 0.
template <class V>
Triplets<V> random_triplets(index_t rows, index_t cols, RandomOptions o, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0), value(-1.0, 1.0);
  auto draw = [&] {
    return o.codes ? static_cast<V>(static_cast<int>(unit(rng) * 8)) : static_cast<V>(value(rng));
  };
  Triplets<V> t;
  t.rows = rows;
  t.cols = cols;
  std::vector<index_t> usable;
  for (index_t c = 0; c < cols; ++c)
    if (unit(rng) >= o.empty_cols) usable.push_back(c);
  if (usable.empty()) return t;
  std::uniform_int_distribution<std::size_t> pick(0, usable.size() - 1);
  std::vector<index_t> line;
  for (index_t r = 0; r < rows; ++r) {
    if (unit(rng) < o.empty_rows) continue;
    const auto want = std::min<std::size_t>(
        usable.size(), 1 + static_cast<std::size_t>(unit(rng) * (2 * o.per_row - 1)));
    line.clear();
    while (line.size() < want) {
      const index_t c = usable[pick(rng)];
      if (std::find(line.begin(), line.end(), c) == line.end()) line.push_back(c);
    }
    for (index_t c : line) t.add(r, c, draw());
  }
  const index_t distinct = t.size();
  const auto extra = static_cast<index_t>(o.duplicates * distinct);
  if (distinct > 0) {
    std::uniform_int_distribution<index_t> entry(0, distinct - 1);
    for (index_t e = 0; e < extra; ++e) {
      const index_t p = entry(rng);
      t.add(t.i[p], t.j[p], draw());
    }
  }
  if (o.shuffled) {
    std::vector<index_t> perm(t.v.size());
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), rng);
    Triplets<V> s;
    s.rows = rows;
    s.cols = cols;
    for (index_t p : perm) s.add(t.i[p], t.j[p], t.v[p]);
    return s;
  }
  return t;
}

// The same positions with fresh values (a matrix whose structure did not change).
template <class V>
Triplets<V> with_new_values(Triplets<V> t, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  for (auto& x : t.v) x = static_cast<V>(value(rng));
  return t;
}

template <class T>
Dense<T> random_dense(index_t rows, index_t cols, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  Dense<T> X(rows, cols);
  for (auto& x : X.data) x = static_cast<T>(value(rng));
  return X;
}

template <class T>
HostArray<T> random_array(index_t n, std::uint64_t seed, double lo = -1.0, double hi = 1.0) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> value(lo, hi);
  HostArray<T> x(n);
  for (auto& e : x) e = static_cast<T>(value(rng));
  return x;
}

// A polygon mesh as a face list; faces hold distinct vertex ids in cyclic order.
struct PolyMesh {
  index_t vertices = 0;
  std::vector<std::vector<index_t>> faces;
};

inline PolyMesh random_mesh(index_t vertices, index_t faces, int min_order, int max_order,
                            std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> order(min_order, max_order);
  std::uniform_int_distribution<index_t> vertex(0, vertices - 1);
  PolyMesh m;
  m.vertices = vertices;
  for (index_t f = 0; f < faces; ++f) {
    std::vector<index_t> face;
    const auto c = static_cast<std::size_t>(order(rng));
    while (face.size() < c) {
      const index_t v = vertex(rng);
      if (std::find(face.begin(), face.end(), v) == face.end()) face.push_back(v);
    }
    m.faces.push_back(std::move(face));
  }
  return m;
}

inline la::MeshMatrix<> mesh_matrix(const PolyMesh& m) {
  std::vector<index_t> offsets{0}, indices;
  for (const auto& f : m.faces) {
    indices.insert(indices.end(), f.begin(), f.end());
    offsets.push_back(static_cast<index_t>(indices.size()));
  }
  return la::MeshMatrix<>(m.vertices, HostArray<index_t>(offsets), HostArray<index_t>(indices));
}

// Faces must all have `order` vertices.
inline la::ReducedMeshMatrix<> reduced_mesh_matrix(const PolyMesh& m, index_t order) {
  std::vector<index_t> indices;
  for (const auto& f : m.faces) indices.insert(indices.end(), f.begin(), f.end());
  REQUIRE(static_cast<std::size_t>(order) * m.faces.size() == indices.size());
  return la::ReducedMeshMatrix<>(m.vertices, order, HostArray<index_t>(indices));
}

// M as triplets (vertex, face, slot): the mesh matrix of paper section 3.2.
inline Triplets<index_t> mesh_triplets(const PolyMesh& m) {
  Triplets<index_t> t;
  t.rows = m.vertices;
  t.cols = static_cast<index_t>(m.faces.size());
  for (index_t f = 0; f < t.cols; ++f)
    for (std::size_t s = 0; s < m.faces[f].size(); ++s)
      t.add(m.faces[f][s], f, static_cast<index_t>(s));
  return t;
}

// ---- containers built by hand
// ---------------------------------------------------------------------

// Compressed arrays of the entries, by `outer` lines; within a line, entries sorted by `inner`
// when sort_inner, else kept in input order. Duplicates stay separate entries.
template <class T, la::Major M, class V>
la::Compressed<T, M> compress(const Triplets<V>& t, bool sort_inner) {
  const bool by_row = M == la::Major::row;
  const auto& outer = by_row ? t.i : t.j;
  const auto& inner = by_row ? t.j : t.i;
  const index_t lines = by_row ? t.rows : t.cols;
  std::vector<index_t> order(t.v.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](index_t a, index_t b) {
    if (outer[a] != outer[b]) return outer[a] < outer[b];
    return sort_inner && inner[a] < inner[b];
  });
  HostArray<index_t> offsets(lines + 1, 0), indices(t.size());
  HostArray<T> values(t.size());
  for (index_t p = 0; p < t.size(); ++p) {
    ++offsets[outer[order[p]] + 1];
    indices[p] = inner[order[p]];
    values[p] = static_cast<T>(t.v[order[p]]);
  }
  for (index_t o = 0; o < lines; ++o) offsets[o + 1] += offsets[o];
  return la::Compressed<T, M>(t.rows, t.cols, std::move(offsets), std::move(indices),
                              std::move(values));
}

template <class T, class V>
Csr<T> csr_of(const Triplets<V>& t, bool sort_inner = true) {
  return compress<T, la::Major::row>(t, sort_inner);
}
template <class T, class V>
Csc<T> csc_of(const Triplets<V>& t, bool sort_inner = true) {
  return compress<T, la::Major::column>(t, sort_inner);
}

template <class T, class V>
Coo<T> coo_of(const Triplets<V>& t) {
  Coo<T> A;
  A.rows = t.rows;
  A.cols = t.cols;
  A.row_indices = HostArray<index_t>(t.i);
  A.col_indices = HostArray<index_t>(t.j);
  A.values = HostArray<T>(t.size());
  for (index_t p = 0; p < t.size(); ++p) A.values[p] = static_cast<T>(t.v[p]);
  return A;
}

// ---- references
// -----------------------------------------------------------------------------------

struct Identity {
  template <class V>
  double operator()(V v, index_t, index_t) const {
    return static_cast<double>(v);
  }
};

// Eigen matrix (double) holding weight(v, i, j) for every entry; duplicates are summed.
template <class V, class Weight = Identity>
EigenRows eigen_of(const Triplets<V>& t, Weight weight = {}) {
  std::vector<Eigen::Triplet<double, index_t>> e;
  e.reserve(t.v.size());
  for (index_t p = 0; p < t.size(); ++p)
    e.emplace_back(t.i[p], t.j[p], static_cast<double>(weight(t.v[p], t.i[p], t.j[p])));
  EigenRows A(t.rows, t.cols);
  A.setFromTriplets(e.begin(), e.end());
  return A;
}

template <class T>
EigenDense eigen_of(const Dense<T>& X) {
  EigenDense E(X.rows, X.cols);
  for (index_t r = 0; r < X.rows; ++r)
    for (index_t c = 0; c < X.cols; ++c) E(r, c) = static_cast<double>(X(r, c));
  return E;
}

template <class T>
EigenDense eigen_of(const HostArray<T>& x) {
  EigenDense E(x.size(), 1);
  for (index_t r = 0; r < x.size(); ++r) E(r, 0) = static_cast<double>(x[r]);
  return E;
}

// A reduction written without linalg: identity and a binary operator on doubles.
struct RefReduce {
  const char* name;
  double identity;
  double (*op)(double, double);
  bool is_sum;
};
inline const RefReduce ref_sum{"sum", 0.0, [](double a, double b) { return a + b; }, true};
inline const RefReduce ref_min{"min", std::numeric_limits<double>::infinity(),
                               [](double a, double b) { return std::min(a, b); }, false};
inline const RefReduce ref_max{"max", -std::numeric_limits<double>::infinity(),
                               [](double a, double b) { return std::max(a, b); }, false};
// The user monoid of the tests: max with identity -1000 (below every product in [-1, 1]).
inline const RefReduce ref_monoid_max{"monoid max", -1000.0,
                                      [](double a, double b) { return std::max(a, b); }, false};

// weight(v, i, j) of every entry, in entry order.
template <class V, class Weight>
std::vector<double> weights_of(const Triplets<V>& t, Weight weight) {
  std::vector<double> w(t.v.size());
  for (index_t p = 0; p < t.size(); ++p) w[p] = static_cast<double>(weight(t.v[p], t.i[p], t.j[p]));
  return w;
}

// Eigen matrix of the positions of t holding the values w (duplicates summed).
template <class V>
EigenRows eigen_with(const Triplets<V>& t, const std::vector<double>& w) {
  std::vector<Eigen::Triplet<double, index_t>> e;
  e.reserve(w.size());
  for (index_t p = 0; p < t.size(); ++p) e.emplace_back(t.i[p], t.j[p], w[p]);
  EigenRows A(t.rows, t.cols);
  A.setFromTriplets(e.begin(), e.end());
  return A;
}

// Y = W X (or W^T X when transposed) under reduction r, W holding the weights w of the
// entries of t: y(i, :) = r over the entries (i, j) of w * x(j, :). Sum uses Eigen, the others
// a loop. Not a template of the weight, so it compiles once.
template <class V>
EigenDense reference_gather(const Triplets<V>& t, const std::vector<double>& w, const EigenDense& X,
                            const RefReduce& r, bool transposed) {
  const index_t out_rows = transposed ? t.cols : t.rows;
  if (r.is_sum) {
    const EigenRows W = eigen_with(t, w);
    if (transposed) return EigenDense(W.transpose() * X);
    return EigenDense(W * X);
  }
  EigenDense Y = EigenDense::Constant(out_rows, X.cols(), r.identity);
  for (index_t p = 0; p < t.size(); ++p) {
    const index_t out = transposed ? t.j[p] : t.i[p], in = transposed ? t.i[p] : t.j[p];
    for (Eigen::Index c = 0; c < X.cols(); ++c) Y(out, c) = r.op(Y(out, c), w[p] * X(in, c));
  }
  return Y;
}

// sum_j |w_ij| |x_j|: the magnitude a result's rounding error is relative to.
template <class V>
EigenDense reference_scale(const Triplets<V>& t, const std::vector<double>& w, const EigenDense& X,
                           bool transposed) {
  std::vector<double> magnitude(w.size());
  std::transform(w.begin(), w.end(), magnitude.begin(), [](double x) { return std::abs(x); });
  const EigenRows W = eigen_with(t, magnitude);  // duplicates add up their magnitudes
  if (transposed) return EigenDense(W.transpose() * X.cwiseAbs());
  return EigenDense(W * X.cwiseAbs());
}

// got (row-major rows x cols) against ref within tolerance<T>() of scale.
template <class T>
void check_dense(const T* got, const EigenDense& ref, const EigenDense& scale,
                 const std::string& what) {
  index_t bad = 0;
  std::ostringstream first;
  for (Eigen::Index r = 0; r < ref.rows(); ++r)
    for (Eigen::Index c = 0; c < ref.cols(); ++c) {
      const double g = static_cast<double>(got[r * ref.cols() + c]);
      if (!close(g, ref(r, c), scale(r, c), tolerance<T>())) {
        if (bad++ == 0)
          first << what << ": (" << r << ", " << c << ") is " << g << ", expected " << ref(r, c);
      }
    }
  CHECK_MESSAGE(bad == 0, first.str() << " (" << bad << " mismatches)");
}

template <class T>
void check_dense(const Dense<T>& Y, const EigenDense& ref, const EigenDense& scale,
                 const std::string& what) {
  REQUIRE(Y.rows == ref.rows());
  REQUIRE(Y.cols == ref.cols());
  check_dense(Y.data.data(), ref, scale, what);
}

// One expected entry of a sparse result.
struct RefEntry {
  index_t i, j;
  double value, scale;
  bool operator<(const RefEntry& o) const { return std::tie(i, j) < std::tie(o.i, o.j); }
};

// Entries of `value` with the magnitudes of `scale`, which must have the same structure
// (e.g. A B and |A| |B|).
inline std::vector<RefEntry> ref_entries(const EigenRows& value, const EigenRows& scale) {
  std::vector<RefEntry> out;
  bool same_structure = value.rows() == scale.rows() && value.cols() == scale.cols();
  for (Eigen::Index r = 0; same_structure && r < value.outerSize(); ++r) {
    EigenRows::InnerIterator v(value, r), s(scale, r);
    for (; v && s && s.col() == v.col(); ++v, ++s)
      out.push_back(
          {static_cast<index_t>(r), static_cast<index_t>(v.col()), v.value(), std::abs(s.value())});
    same_structure = !v && !s;
  }
  REQUIRE_MESSAGE(same_structure, "reference values and magnitudes differ in structure");
  std::sort(out.begin(), out.end());
  return out;
}

inline std::vector<RefEntry> ref_entries(const EigenRows& value) {
  return ref_entries(value, EigenRows(value.cwiseAbs()));
}

// C is canonical (columns strictly increasing in every row), holds exactly the positions of
// `ref` (sorted by row, column) and values within tolerance<T>().
template <class T>
void check_csr(const Csr<T>& C, index_t rows, index_t cols, const std::vector<RefEntry>& ref,
               const std::string& what) {
  REQUIRE(C.rows == rows);
  REQUIRE(C.cols == cols);
  REQUIRE(C.offsets.size() == rows + 1);
  CHECK(C.offsets[0] == 0);
  REQUIRE(C.offsets[rows] == C.nnz());
  index_t unsorted = 0;
  for (index_t i = 0; i < rows; ++i)
    for (index_t p = C.offsets[i] + 1; p < C.offsets[i + 1]; ++p)
      unsorted += C.indices[p - 1] < C.indices[p] ? 0 : 1;
  CHECK_MESSAGE(unsorted == 0, what << ": " << unsorted << " entries out of column order");
  REQUIRE_MESSAGE(C.nnz() == static_cast<index_t>(ref.size()),
                  what << ": nnz " << C.nnz() << ", expected " << ref.size());
  index_t bad = 0;
  std::ostringstream first;
  std::size_t e = 0;
  for (index_t i = 0; i < rows; ++i)
    for (index_t p = C.offsets[i]; p < C.offsets[i + 1]; ++p, ++e) {
      const RefEntry& r = ref[e];
      const double g = static_cast<double>(C.values[p]);
      if (r.i != i || r.j != C.indices[p] || !close(g, r.value, r.scale, tolerance<T>())) {
        if (bad++ == 0)
          first << what << ": entry " << p << " is (" << i << ", " << C.indices[p] << ") = " << g
                << ", expected (" << r.i << ", " << r.j << ") = " << r.value;
      }
    }
  CHECK_MESSAGE(bad == 0, first.str() << " (" << bad << " mismatches)");
}

// Exact comparison of compressed arrays with an Eigen matrix of the same storage order.
template <class T, la::Major M, class E>
void check_same_arrays(const la::Compressed<T, M>& A, const E& ref) {
  REQUIRE(A.rows == ref.rows());
  REQUIRE(A.cols == ref.cols());
  REQUIRE(A.nnz() == ref.nonZeros());
  REQUIRE(ref.isCompressed());
  CHECK(std::equal(A.offsets.begin(), A.offsets.end(), ref.outerIndexPtr()));
  CHECK(std::equal(A.indices.begin(), A.indices.end(), ref.innerIndexPtr()));
  CHECK(std::equal(A.values.begin(), A.values.end(), ref.valuePtr()));
}

// Bit-identical arrays.
template <class T, class S>
bool same_bits(const la::Array<T, S>& a, const la::Array<T, S>& b) {
  return a.size() == b.size() &&
         (a.size() == 0 || std::memcmp(a.data(), b.data(), sizeof(T) * a.size()) == 0);
}
template <class T, la::Major M>
bool same_bits(const la::Compressed<T, M>& a, const la::Compressed<T, M>& b) {
  return a.rows == b.rows && a.cols == b.cols && same_bits(a.offsets, b.offsets) &&
         same_bits(a.indices, b.indices) && same_bits(a.values, b.values);
}

// The message of the exception of type E that f throws, or "" (and a failed check) if none.
template <class E, class F>
std::string thrown_message(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  FAIL_CHECK("no exception thrown");
  return "";
}

// ---- shapes
// ----------------------------------------------------------------------------------------

struct Shape {
  const char* name;
  index_t rows, cols;
  RandomOptions options;
};

// The shapes every op is run on: degenerate, skinny, and one large enough that every
// OpenMP path (loops over 2048 elements, multi-block scans and sorts) runs.
inline std::vector<Shape> shapes() {
  RandomOptions holes;
  holes.per_row = 3;
  holes.empty_rows = 0.3;
  holes.empty_cols = 0.3;
  RandomOptions one;
  one.per_row = 1;
  RandomOptions tall;
  tall.per_row = 3;
  RandomOptions wide;
  wide.per_row = 60;
  RandomOptions large;
  large.per_row = 5;
  large.empty_rows = 0.05;
  return {{"empty rows and columns 40 x 30", 40, 30, holes},
          {"0 x 7", 0, 7, {}},
          {"7 x 0", 7, 0, {}},
          {"0 x 0", 0, 0, {}},
          {"1 x 1", 1, 1, one},
          {"tall 1000 x 10", 1000, 10, tall},
          {"wide 10 x 1000", 10, 1000, wide},
          {"large 50000 x 40000", 50000, 40000, large}};
}

// ---- device-callable functors shared by the tests
// -----------------------------------------------------------------

// Binary operators for reduce::monoid (host and device).
struct MaxOf {
  template <class T>
  SPMESH_HD T operator()(T a, T b) const {
    return a > b ? a : b;
  }
};
struct TimesOf {
  template <class T>
  SPMESH_HD T operator()(T a, T b) const {
    return a * b;
  }
};

// ---- backends
// ---------------------------------------------------------------------------------------

// A test type of TEST_CASE_TEMPLATE: the backend it runs on and a type parameter (a scalar, a
// key type). Named "<backend, type>" in test names (see the end of this file).
template <class B, class T>
struct On {
  using Backend = B;
  using type = T;
};

template <class B>
inline constexpr bool is_cpu = std::is_same_v<B, CpuBackend>;

// The host copy of an op's result: containers downloaded, numbers as they are, tuples and pairs
// element by element.
template <class Backend, class X>
auto fetch(const X& x) {
  if constexpr (std::is_arithmetic_v<X>)
    return x;
  else if constexpr (requires { std::tuple_size<X>::value; })
    return std::apply([](const auto&... e) { return std::make_tuple(fetch<Backend>(e)...); }, x);
  else
    return Backend::download(x);
}

// GPU against CPU (design.md "Determinism and precision"): integers and index arrays exactly;
// floating point within 1e-6 (float) or 1e-12 (double) relative to the largest finite magnitude of
// the CPU result (rounding of a sum is relative to its terms, not to a result that cancels), and
// non-finite entries (the +-inf of empty Min / Max rows, NaN) identical. The blocks of one tuple
// share that magnitude: they are one op's results from the same inputs (a limit's positions and
// its tangents, which are sums of those positions with weights summing to 0).
template <class T>
constexpr double backend_tolerance() {
  return std::is_same_v<T, float> ? 1e-6 : 1e-12;
}

template <class T>
double largest_finite(const T* values, index_t n) {
  double norm = 0;
  if constexpr (std::is_floating_point_v<T>)
    for (index_t p = 0; p < n; ++p)
      if (std::isfinite(values[p])) norm = std::max(norm, std::abs(static_cast<double>(values[p])));
  return norm;
}

// The largest finite magnitude of a floating-point block (Dense), 0 for anything else.
template <class X>
double largest_finite_of(const X& x) {
  if constexpr (requires { x.data.data(); x.rows; x.cols; })
    return largest_finite(x.data.data(), x.data.size());
  else
    return 0;
}

// norm: the magnitude the tolerance is relative to (default: the CPU values' largest).
template <class T>
void check_same_values(const T* got, const T* cpu, index_t n, const std::string& what, double norm = -1) {
  index_t bad = 0;
  std::ostringstream first;
  if (norm < 0) norm = largest_finite(cpu, n);
  for (index_t p = 0; p < n; ++p) {
    bool ok;
    if constexpr (std::is_floating_point_v<T>) {
      const double g = got[p], c = cpu[p];
      ok = std::isfinite(c) ? std::abs(g - c) <= backend_tolerance<T>() * norm
                            : (g == c || (std::isnan(g) && std::isnan(c)));
    } else if constexpr (std::is_integral_v<T>) {
      ok = got[p] == cpu[p];
    } else {
      ok = std::memcmp(&got[p], &cpu[p], sizeof(T)) == 0;
    }
    if (!ok && bad++ == 0) {
      first << what << ": element " << p << " differs";
      if constexpr (std::is_arithmetic_v<T>)
        first << " (" << +got[p] << " vs cpu " << +cpu[p] << ")";
    }
  }
  CHECK_MESSAGE(bad == 0, first.str() << " (" << bad << " of " << n << " differ)");
}

// Results of one op from two backends: same shapes, same structure, values as above.
// norm: as check_same_values's, for the floating-point blocks (a tuple's members share theirs).
template <class X>
void check_same_as_cpu(const X& got, const X& cpu, const std::string& what, double norm = -1) {
  if constexpr (std::is_arithmetic_v<X>) {
    check_same_values(&got, &cpu, 1, what);
  } else if constexpr (requires { std::tuple_size<X>::value; }) {
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      const double shared = std::max({0.0, largest_finite_of(std::get<I>(cpu))...});
      (check_same_as_cpu(std::get<I>(got), std::get<I>(cpu), what + " [" + std::to_string(I) + "]",
                         largest_finite_of(std::get<I>(cpu)) > 0 ? shared : -1),
       ...);
    }
    (std::make_index_sequence<std::tuple_size_v<X>>{});
  } else if constexpr (requires {
                         got.offsets;
                         got.indices;
                         got.values;
                       }) {  // CSR, CSC
    REQUIRE_MESSAGE((got.rows == cpu.rows && got.cols == cpu.cols),
                    what << ": " << got.shape() << ", cpu " << cpu.shape());
    REQUIRE_MESSAGE(got.nnz() == cpu.nnz(), what << ": nnz " << got.nnz() << ", cpu " << cpu.nnz());
    check_same_values(got.offsets.data(), cpu.offsets.data(), got.offsets.size(),
                      what + " offsets");
    check_same_values(got.indices.data(), cpu.indices.data(), got.nnz(), what + " indices");
    check_same_values(got.values.data(), cpu.values.data(), got.nnz(), what + " values");
  } else if constexpr (requires {
                         got.data;
                         got.rows;
                         got.cols;
                       }) {  // Dense
    REQUIRE_MESSAGE((got.rows == cpu.rows && got.cols == cpu.cols), what << ": shape differs");
    check_same_values(got.data.data(), cpu.data.data(), got.data.size(), what, norm);
  } else {  // Array
    REQUIRE_MESSAGE(got.size() == cpu.size(),
                    what << ": " << got.size() << " elements, cpu " << cpu.size());
    check_same_values(got.data(), cpu.data(), got.size(), what);
  }
}

// Runs op(exec, inputs...) on the backend, the inputs being backend copies (mutable lvalues) of
// the host objects `in`, and returns the host copy of its result. In a CUDA compile the same op
// also runs on cpu::Executor with host copies, and the two results must agree (check_same_as_cpu).
// The op makes its maps from the arrays it is given: table maps hold pointers of one memory space.
template <class Backend, class Exec, class Op, class... In>
auto run_on(Exec& exec, [[maybe_unused]] const std::string& what, Op&& op, const In&... in) {
  auto args = std::make_tuple(Backend::upload(in)...);
  auto got = fetch<Backend>(std::apply([&](auto&... a) { return op(exec, a...); }, args));
#if defined(__CUDACC__)
  if constexpr (!is_cpu<Backend>) {
    cpu::Executor host;
    auto host_args = std::make_tuple(CpuBackend::upload(in)...);
    const auto cpu =
        fetch<CpuBackend>(std::apply([&](auto&... a) { return op(host, a...); }, host_args));
    check_same_as_cpu(got, cpu, what + " (" + Backend::name + " vs cpu)");
  }
#endif
  return got;
}

// run_on with a fresh executor of the backend.
template <class Backend, class Op, class... In>
auto run(const std::string& what, Op&& op, const In&... in) {
  typename Backend::Exec exec;
  return run_on<Backend>(exec, what, std::forward<Op>(op), in...);
}

// For results a test builds step by step on the backend (a pattern refilled in place): in a
// CUDA compile, cpu_result(cpu::Executor&) builds the same on the CPU and must agree with `got`.
template <class Backend, class X, class F>
void compare_with_cpu([[maybe_unused]] const X& got, [[maybe_unused]] const std::string& what,
                      [[maybe_unused]] F&& cpu_result) {
#if defined(__CUDACC__)
  if constexpr (!is_cpu<Backend>) {
    cpu::Executor host;
    check_same_as_cpu(got, fetch<CpuBackend>(cpu_result(host)),
                      what + " (" + Backend::name + " vs cpu)");
  }
#endif
}

// Bit-identical results of any shape fetch() returns.
template <class T, class S>
bool same_bits(const la::Dense<T, S>& a, const la::Dense<T, S>& b) {
  return a.rows == b.rows && a.cols == b.cols && same_bits(a.data, b.data);
}
template <class X>
requires std::is_arithmetic_v<X>
bool same_bits(const X& a, const X& b) { return std::memcmp(&a, &b, sizeof(X)) == 0; }
template <class... X>
bool same_bits(const std::tuple<X...>& a, const std::tuple<X...>& b) {
  return std::apply(
      [&](const auto&... x) {
        return std::apply([&](const auto&... y) { return (same_bits(x, y) && ...); }, b);
      },
      a);
}

// Runs op(exec, inputs...) `repeats` times on one executor of the backend, each time on fresh
// copies of the inputs (ops may work in place); every result must be bit-identical to the first.
template <class Backend, class Op, class... In>
void check_repeatable(int repeats, const std::string& what, Op&& op, const In&... in) {
  typename Backend::Exec exec;
  auto once = [&] {
    auto args = std::make_tuple(Backend::upload(in)...);
    return fetch<Backend>(std::apply([&](auto&... a) { return op(exec, a...); }, args));
  };
  const auto first = once();
  int differ = 0;
  for (int r = 1; r < repeats; ++r) differ += same_bits(once(), first) ? 0 : 1;
  CHECK_MESSAGE(differ == 0, what << " on " << Backend::name << ": " << differ << " of "
                                  << repeats - 1 << " repeats differ from the first run");
}

}  // namespace spmesh::test

// Test names: "<cpu, float>", "<cuda, uint64>", ... and "<cpu>" / "<cuda>" for backend-only tests.
#define SPMESH_TEST_NAME_TYPES(B, name)                                   \
  TYPE_TO_STRING_AS(name, B);                                             \
  TYPE_TO_STRING_AS(name ", float", spmesh::test::On<B, float>);          \
  TYPE_TO_STRING_AS(name ", double", spmesh::test::On<B, double>);        \
  TYPE_TO_STRING_AS(name ", uint32", spmesh::test::On<B, std::uint32_t>); \
  TYPE_TO_STRING_AS(name ", uint64", spmesh::test::On<B, std::uint64_t>); \
  TYPE_TO_STRING_AS(name ", int32", spmesh::test::On<B, std::int32_t>)
SPMESH_TEST_NAME_TYPES(spmesh::test::CpuBackend, "cpu");
#if defined(__CUDACC__)
SPMESH_TEST_NAME_TYPES(spmesh::test::CudaBackend, "cuda");
#endif

// Type lists of TEST_CASE_TEMPLATE for this compilation's backend (SPMESH_TEST_BACKENDS):
// float and double; the key types of the radix sorts.
#define SPMESH_TEST_REALS \
  spmesh::test::On<SPMESH_TEST_BACKENDS, float>, spmesh::test::On<SPMESH_TEST_BACKENDS, double>
#define SPMESH_TEST_KEYS                                     \
  spmesh::test::On<SPMESH_TEST_BACKENDS, std::uint32_t>,     \
      spmesh::test::On<SPMESH_TEST_BACKENDS, std::uint64_t>, \
      spmesh::test::On<SPMESH_TEST_BACKENDS, std::int32_t>
