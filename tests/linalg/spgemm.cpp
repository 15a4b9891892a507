// Mapped SpGEMM against Eigen's A B (sum of products) and against a dense loop over the
// triplets (maps that drop collisions or return indices, min/max/first reductions); pattern
// reuse through spgemm_symbolic + spgemm_numeric, and the errors of both phases. Every backend
// (cuda/spgemm.cu: on the GPU, each result also compared with the CPU's) except the host-side
// dimension checks.
#include "common.hpp"

namespace spmesh::test::spgemm_tests {

// Triplet positions sorted by (row, column), stable: the order a canonical CSR stores them in.
template <class V>
std::vector<index_t> row_major_order(const Triplets<V>& t) {
  std::vector<index_t> order(t.v.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](index_t a, index_t b) {
    return std::tie(t.i[a], t.j[a]) < std::tie(t.i[b], t.j[b]);
  });
  return order;
}

struct Contribution {
  index_t i, j;
  double value;
};

// Combines contributions, in their order, per (i, j) with r into a dense m x p grid; returns
// the entries that received any. Not a template, so it compiles once.
inline std::vector<RefEntry> combine_dense(index_t m, index_t p,
                                           const std::vector<Contribution>& contributions,
                                           const RefReduce& r) {
  const std::size_t n = static_cast<std::size_t>(m) * static_cast<std::size_t>(p);
  std::vector<RefEntry> grid(n, RefEntry{0, 0, 0.0, -1.0});  // scale < 0: no contribution yet
  for (const Contribution& c : contributions) {
    RefEntry& e = grid[static_cast<std::size_t>(c.i) * p + c.j];
    e = e.scale < 0 ? RefEntry{c.i, c.j, c.value, std::abs(c.value)}
                    : RefEntry{c.i, c.j, r.op(e.value, c.value), e.scale + std::abs(c.value)};
  }
  std::vector<RefEntry> out;
  for (const RefEntry& e : grid)
    if (e.scale >= 0) out.push_back(e);
  return out;
}

// C = A B by a loop over the triplets: every collision (a_ik, b_kj) is offered to
// `contribute`, which returns {emitted, value}; the emitted values of one (i, j) are combined
// by r in the order k ascending, then column of B. Small matrices only (a dense grid).
template <class V, class Contribute>
std::vector<RefEntry> dense_product(const Triplets<V>& a, const Triplets<V>& b,
                                    Contribute contribute, const RefReduce& r) {
  std::vector<Contribution> contributions;
  const auto a_order = row_major_order(a), b_order = row_major_order(b);
  for (index_t ea : a_order)
    for (index_t eb : b_order) {
      if (b.i[eb] != a.j[ea]) continue;
      const auto [emitted, value] = contribute(a.v[ea], b.v[eb], a.i[ea], a.j[ea], b.j[eb]);
      if (emitted) contributions.push_back({a.i[ea], b.j[eb], value});
    }
  return combine_dense(a.rows, b.cols, contributions, r);
}

// Eigen's A B with |A| |B| as magnitudes (duplicates enter |A| one by one: they may cancel in A).
template <class V>
std::vector<RefEntry> eigen_product(const Triplets<V>& a, const Triplets<V>& b) {
  auto magnitude = [](V v, index_t, index_t) { return std::abs(static_cast<double>(v)); };
  return ref_entries(EigenRows(eigen_of(a) * eigen_of(b)),
                     EigenRows(eigen_of(a, magnitude) * eigen_of(b, magnitude)));
}

RandomOptions density(double per_row, double empty_rows = 0, double empty_cols = 0) {
  RandomOptions o;
  o.per_row = per_row;
  o.empty_rows = empty_rows;
  o.empty_cols = empty_cols;
  return o;
}

const RefReduce ref_first{"first", 0.0, [](double a, double) { return a; }, false};

// SpGEMM maps (device-callable): products off the diagonal only, and the index k of the
// collision (a result type other than the operands').
template <class T>
struct OffDiagonal {
  SPMESH_HD la::Emit<T> operator()(T x, T y, index_t i, index_t, index_t j) const {
    return i != j ? la::emit(x * y) : la::nothing<T>();
  }
};
struct MiddleIndex {
  template <class A, class B>
  SPMESH_HD index_t operator()(A, B, index_t, index_t k, index_t) const {
    return k;
  }
};

// C = A B under a map and a reduction, as an op of run(); the symbolic phase alone; a symbolic
// pattern refilled by the numeric phase (map and reduction of the numeric phase given).
template <class Map = la::map::Multiply, class Reduce = la::reduce::Sum>
struct Spgemm {
  Map map;
  Reduce reduce;
  template <class E, class A, class B>
  auto operator()(E& exec, const A& a, const B& b) const {
    return la::spgemm(exec, a, b, map, reduce);
  }
};
template <class Map = la::map::Multiply>
struct Symbolic {  // (offsets, indices): the values of a symbolic result are not filled in
  Map map;
  template <class E, class A, class B>
  auto operator()(E& exec, const A& a, const B& b) const {
    auto C = la::spgemm_symbolic(exec, a, b, map);
    return std::make_pair(std::move(C.offsets), std::move(C.indices));
  }
};
template <class Map = la::map::Multiply, class Reduce = la::reduce::Sum>
struct SymbolicThenNumeric {
  Map map;
  Reduce reduce;
  template <class E, class A, class B>
  auto operator()(E& exec, const A& a, const B& b) const {
    auto C = la::spgemm_symbolic(exec, a, b);
    la::spgemm_numeric(exec, a, b, C, map, reduce);
    return C;
  }
};

TEST_CASE_TEMPLATE("spgemm equals Eigen's A B: structural pattern, canonical rows, values", P,
                   SPMESH_TEST_REALS) {
  using B = typename P::Backend;
  using T = typename P::type;
  struct Case {
    const char* name;
    index_t m, n, p;
    RandomOptions a, b;
  };
  const Case cases[] = {
      {"empty rows and columns", 60, 45, 50, density(3, 0.3, 0.3), density(3, 0.3, 0.3)},
      // ~150 products per row: the per-row sort takes its heapsort branch (> 24 entries)
      {"dense rows", 200, 150, 180, density(12), density(12)},
      {"outer-product like: tall times wide", 1000, 10, 1000, density(3), density(60)},
      {"inner-product like: wide times tall", 10, 1000, 10, density(60), density(3)},
      {"parallel: 20000 rows", 20000, 15000, 12000, density(4, 0.05), density(4, 0.05)},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const auto a = random_triplets<T>(c.m, c.n, c.a, 501),
               b = random_triplets<T>(c.n, c.p, c.b, 502);
    const Csr<T> C = run<B>(c.name, Spgemm<>{}, csr_of<T>(a), csr_of<T>(b));
    check_csr(C, c.m, c.p, eigen_product(a, b), c.name);
  }
}

TEST_CASE_TEMPLATE("spgemm's rows wider than its scratch, folded in batches of any size, give the same bits "
                   "(one row a batch, a few rows, all at once) and Eigen's A B",
                   P, SPMESH_TEST_REALS) {
  using B = typename P::Backend;
  using T = typename P::type;
  typename B::Exec exec;
  // About 150 products a row over more than spgemm_row_capacity columns: every row spills.
  const auto a = random_triplets<T>(200, 150, density(12), 561), b = random_triplets<T>(150, 180, density(12), 562);
  const auto A = B::upload(csr_of<T>(a)), Bm = B::upload(csr_of<T>(b));
  auto product = [&](std::int64_t batch) {
    return B::download(la::detail::build_rows<la::tuning::spgemm_row_capacity, T>(
        exec, A.rows, Bm.cols, la::detail::ProductsOfRow<T, T, la::map::Multiply>{A.view(), Bm.view(), {}},
        la::reduce::Sum{}, batch));
  };
  const Csr<T> whole = product(la::tuning::spill_batch_contributions);
  check_csr(whole, a.rows, b.cols, eigen_product(a, b), "one batch");
  for (const std::int64_t batch : {std::int64_t(1), std::int64_t(700), std::int64_t(9000)}) {
    INFO("batch " << batch);
    CHECK(same_bits(product(batch), whole));
  }
}

TEST_CASE_TEMPLATE(
    "spgemm of non-canonical operands (unsorted, duplicate entries) equals Eigen's "
    "A B of the summed matrices",
    P, SPMESH_TEST_REALS) {
  using B = typename P::Backend;
  using T = typename P::type;
  RandomOptions o = density(6, 0.1);
  o.duplicates = 0.4;
  o.shuffled = true;
  const auto a = random_triplets<T>(3000, 800, o, 511), b = random_triplets<T>(800, 900, o, 512);
  const Csr<T> C = run<B>("non-canonical", Spgemm<>{}, csr_of<T>(a, false), csr_of<T>(b, false));
  check_csr(C, a.rows, b.cols, eigen_product(a, b), "non-canonical");
}

TEST_CASE_TEMPLATE(
    "spgemm_numeric refills a pattern from spgemm_symbolic with new values of the "
    "same structure",
    P, SPMESH_TEST_REALS) {
  using B = typename P::Backend;
  using T = typename P::type;
  typename B::Exec exec;
  const auto a = random_triplets<T>(5000, 3000, density(4, 0.1), 521);
  const auto b = random_triplets<T>(3000, 4000, density(4, 0.1), 522);
  auto C = la::spgemm_symbolic(exec, B::upload(csr_of<T>(a)), B::upload(csr_of<T>(b)));
  const Csr<T> pattern = B::download(C);
  for (std::uint64_t round = 0; round < 2; ++round) {
    INFO("round " << round);
    const auto a2 = with_new_values(a, 530 + round), b2 = with_new_values(b, 540 + round);
    la::spgemm_numeric(exec, B::upload(csr_of<T>(a2)), B::upload(csr_of<T>(b2)), C);
    const Csr<T> got = B::download(C);
    check_csr(got, a.rows, b.cols, eigen_product(a2, b2), "numeric refill");
    CHECK(same_bits(got.offsets, pattern.offsets));  // the pattern is untouched
    CHECK(same_bits(got.indices, pattern.indices));
    // The values have spgemm's bits: the same contributions folded in the same order.
    const Csr<T> direct =
        B::download(la::spgemm(exec, B::upload(csr_of<T>(a2)), B::upload(csr_of<T>(b2))));
    CHECK(same_bits(got.values, direct.values));
    compare_with_cpu<B>(got, "numeric refill", [&](cpu::Executor& host) {
      auto Ch = la::spgemm_symbolic(host, csr_of<T>(a), csr_of<T>(b));
      la::spgemm_numeric(host, csr_of<T>(a2), csr_of<T>(b2), Ch);
      return Ch;
    });
  }
}

TEST_CASE_TEMPLATE(
    "spgemm with a map that emits only off-diagonal collisions has exactly the "
    "emitting entries",
    P, SPMESH_TEST_REALS) {
  using B = typename P::Backend;
  using T = typename P::type;
  // Square products with many diagonal collisions (A B and A A^T-like shapes).
  const auto a = random_triplets<T>(120, 90, density(6), 551),
             b = random_triplets<T>(90, 120, density(6), 552);
  const OffDiagonal<T> off_diagonal;
  const auto ref = dense_product(
      a, b,
      [](T x, T y, index_t i, index_t, index_t j) {
        return std::pair<bool, double>{i != j, double(x) * double(y)};
      },
      ref_sum);
  const Csr<T> C =
      run<B>("off-diagonal", Spgemm<OffDiagonal<T>>{off_diagonal, {}}, csr_of<T>(a), csr_of<T>(b));
  check_csr(C, a.rows, b.cols, ref, "off-diagonal");
  // The pattern alone, from the symbolic phase, is the same set of positions.
  const auto [offsets, indices] = run<B>(
      "off-diagonal pattern", Symbolic<OffDiagonal<T>>{off_diagonal}, csr_of<T>(a), csr_of<T>(b));
  CHECK(same_bits(offsets, C.offsets));
  CHECK(same_bits(indices, C.indices));
  index_t diagonal = 0;
  for (index_t i = 0; i < C.rows; ++i)
    for (index_t q = C.offsets[i]; q < C.offsets[i + 1]; ++q) diagonal += C.indices[q] == i;
  CHECK(diagonal == 0);
}

TEST_CASE_TEMPLATE(
    "spgemm reductions Min, Max and a user monoid combine the products of each "
    "entry",
    P, SPMESH_TEST_REALS) {
  using B = typename P::Backend;
  using T = typename P::type;
  const auto a = random_triplets<T>(150, 100, density(8, 0.1), 561);
  const auto b = random_triplets<T>(100, 130, density(8, 0.1), 562);
  const Csr<T> A = csr_of<T>(a), Bm = csr_of<T>(b);
  auto product = [](T x, T y, index_t, index_t, index_t) {
    return std::pair<bool, double>{true, double(x) * double(y)};
  };
  using Mul = la::map::Multiply;
  check_csr(run<B>("min", Spgemm<Mul, la::reduce::Min>{}, A, Bm), a.rows, b.cols,
            dense_product(a, b, product, ref_min), "min");
  check_csr(run<B>("max", Spgemm<Mul, la::reduce::Max>{}, A, Bm), a.rows, b.cols,
            dense_product(a, b, product, ref_max), "max");
  const auto monoid = la::reduce::monoid(MaxOf{}, -1000.0);
  check_csr(run<B>("monoid max", Spgemm<Mul, decltype(monoid)>{{}, monoid}, A, Bm), a.rows, b.cols,
            dense_product(a, b, product, ref_monoid_max), "monoid max");
}

TEST_CASE_TEMPLATE(
    "spgemm with a map returning the index k (another result type) under Sum, Min, Max, "
    "First",
    B, SPMESH_TEST_BACKENDS) {
  const auto a = random_triplets<double>(150, 100, density(8, 0.1), 571);
  const auto b = random_triplets<double>(100, 130, density(8, 0.1), 572);
  const Csr<double> A = csr_of<double>(a), Bm = csr_of<double>(b);
  auto ref_k = [](double, double, index_t, index_t k, index_t) {
    return std::pair<bool, double>{true, static_cast<double>(k)};
  };
  const Csr<index_t> sum = run<B>("sum of k", Spgemm<MiddleIndex>{}, A, Bm);
  static_assert(std::is_same_v<typename decltype(sum.values)::value_type, index_t>);
  check_csr(sum, a.rows, b.cols, dense_product(a, b, ref_k, ref_sum), "sum of k");
  check_csr(run<B>("min k", Spgemm<MiddleIndex, la::reduce::Min>{}, A, Bm), a.rows, b.cols,
            dense_product(a, b, ref_k, ref_min), "min k");
  check_csr(run<B>("max k", Spgemm<MiddleIndex, la::reduce::Max>{}, A, Bm), a.rows, b.cols,
            dense_product(a, b, ref_k, ref_max), "max k");
  // First keeps the first collision in k order: with canonical A, the smallest k.
  const Csr<index_t> first = run<B>("first k", Spgemm<MiddleIndex, la::reduce::First>{}, A, Bm);
  check_csr(first, a.rows, b.cols, dense_product(a, b, ref_k, ref_first), "first k");
  check_csr(first, a.rows, b.cols, dense_product(a, b, ref_k, ref_min), "first k is min k");
}

TEST_CASE_TEMPLATE("spgemm_numeric gives pattern entries that receive no contribution the identity",
                   B, SPMESH_TEST_BACKENDS) {
  const auto a = random_triplets<double>(80, 60, density(6), 581),
             b = random_triplets<double>(60, 80, density(6), 582);
  // The pattern of the symbolic phase includes the diagonal collisions.
  const Csr<double> C = run<B>("min without the diagonal",
                               SymbolicThenNumeric<OffDiagonal<double>, la::reduce::Min>{},
                               csr_of<double>(a), csr_of<double>(b));
  auto ref = dense_product(
      a, b,
      [](double x, double y, index_t i, index_t, index_t j) {
        return std::pair<bool, double>{true,
                                       i != j ? x * y : std::numeric_limits<double>::infinity()};
      },
      ref_min);
  check_csr(C, a.rows, b.cols, ref, "min without the diagonal");
}

TEST_CASE_TEMPLATE(
    "spgemm_numeric throws InputError when a product falls outside the symbolic pattern", B,
    SPMESH_TEST_BACKENDS) {
  typename B::Exec exec;
  const auto a = random_triplets<double>(50, 40, density(3), 591);
  auto b = random_triplets<double>(40, 60, density(3), 592);
  const Csr<double> A = csr_of<double>(a);
  const auto a_on = B::upload(A);
  auto C_on = la::spgemm_symbolic(exec, a_on, B::upload(csr_of<double>(b)));
  const Csr<double> C = B::download(C_on);
  // A new entry B(k, j) where A(0, k) is stored and C(0, j) is not.
  const index_t k = A.indices[A.offsets[0]];
  index_t j = 0;
  while (std::find(C.indices.begin() + C.offsets[0], C.indices.begin() + C.offsets[1], j) !=
         C.indices.begin() + C.offsets[1])
    ++j;
  REQUIRE(j < b.cols);
  b.add(k, j, 1.0);
  const auto b_on = B::upload(csr_of<double>(b));
  const std::string msg =
      thrown_message<InputError>([&] { la::spgemm_numeric(exec, a_on, b_on, C_on); });
  CHECK(msg.find("spgemm_numeric") != std::string::npos);
}

TEST_CASE_TEMPLATE(
    "spgemm of a float and a double matrix gives double products of the float values", B,
    SPMESH_TEST_BACKENDS) {
  const auto a = random_triplets<float>(2000, 1500, density(5, 0.1), 611);
  const auto b = random_triplets<double>(1500, 1800, density(5, 0.1), 612);
  const Csr<double> C = run<B>("float x double", Spgemm<>{}, csr_of<float>(a), csr_of<double>(b));
  const EigenRows Ea = eigen_of(a), Eb = eigen_of(b);
  check_csr(C, a.rows, b.cols,
            ref_entries(EigenRows(Ea * Eb),
                        EigenRows(EigenRows(Ea.cwiseAbs()) * EigenRows(Eb.cwiseAbs()))),
            "float x double");
}

#if !defined(__CUDACC__)  // host-side checks, before any work
TEST_CASE("spgemm with inner dimensions that differ throws DimensionError naming the op") {
  cpu::Executor exec;
  const Csr<double> A = csr_of<double>(random_triplets<double>(3, 4, {}, 601));
  const Csr<double> B = csr_of<double>(random_triplets<double>(5, 2, {}, 602));
  std::string msg = thrown_message<DimensionError>([&] { (void)la::spgemm(exec, A, B); });
  CHECK(msg.find("spgemm") != std::string::npos);
  CHECK(msg.find("3 x 4") != std::string::npos);
  CHECK(msg.find("5 x 2") != std::string::npos);
  msg = thrown_message<DimensionError>([&] { (void)la::spgemm_symbolic(exec, A, B); });
  CHECK(msg.find("spgemm") != std::string::npos);
  const Csr<double> B2 = csr_of<double>(random_triplets<double>(4, 2, {}, 603));
  Csr<double> C = la::spgemm_symbolic(exec, A, B2);
  msg = thrown_message<DimensionError>([&] { la::spgemm_numeric(exec, A, B, C); });
  CHECK(msg.find("spgemm_numeric") != std::string::npos);
  Csr<double> wrong =
      la::spgemm_symbolic(exec, B2, csr_of<double>(random_triplets<double>(2, 4, {}, 604)));
  msg = thrown_message<DimensionError>([&] { la::spgemm_numeric(exec, A, B2, wrong); });
  CHECK(msg.find("spgemm_numeric: C is 4 x 4") != std::string::npos);
}
#endif

}  // namespace spmesh::test::spgemm_tests
