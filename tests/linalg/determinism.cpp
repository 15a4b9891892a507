// Determinism (design.md "Determinism and precision"): every output element is reduced by one
// thread in a fixed order, so repeated runs give bit-identical results: 10 runs on the GPU
// (cuda/determinism.cu), 3 on the CPU plus runs with 1, 2, 3 and 8 threads. Inputs are large
// enough that every parallel path runs.
#include "common.hpp"

namespace spmesh::test::determinism_tests {

RandomOptions options(double per_row) {
  RandomOptions o;
  o.per_row = per_row;
  o.empty_rows = 0.05;
  return o;
}

template <class B>
constexpr int repeats = is_cpu<B> ? 3 : 10;

// op(exec, inputs...) repeated on one executor of the backend; on the CPU also on executors of
// 1, 2, 3 and 8 threads, every result bit-identical to the first.
template <class B, class Op, class... In>
void check_deterministic(const std::string& what, const Op& op, const In&... in) {
  check_repeatable<B>(repeats<B>, what, op, in...);
  if constexpr (is_cpu<B>) {
    auto once = [&](cpu::Executor& exec) {
      auto args = std::make_tuple(CpuBackend::upload(in)...);
      return fetch<CpuBackend>(std::apply([&](auto&... a) { return op(exec, a...); }, args));
    };
    cpu::Executor one(1);
    const auto first = once(one);
    for (int threads : {2, 3, 8}) {
      cpu::Executor exec(threads);
      CHECK_MESSAGE(same_bits(once(exec), first), what << ": " << threads << " threads");
    }
  }
}

// The ops, as functors over either memory space.
struct Spmv {
  template <class E, class M, class X>
  auto operator()(E& exec, const M& m, const X& x) const {
    return la::spmv(exec, m, x);
  }
};
struct Spmm {
  template <class E, class M, class X>
  auto operator()(E& exec, const M& m, const X& x) const {
    return la::spmm(exec, m, x);
  }
};
struct SpmvT {
  template <class E, class M, class X>
  auto operator()(E& exec, const M& m, const X& x) const {
    return la::spmv_t(exec, m, x);
  }
};
struct FaceAverages {  // spmv_t on a mesh matrix with val -> 1/4 per face
  template <class E, class M, class X, class A>
  auto operator()(E& exec, const M& m, const X& x, const A& inv) const {
    return la::spmv_t(exec, m, x, la::map::per_column(inv));
  }
};
struct Spgemm {
  template <class E, class A, class B>
  auto operator()(E& exec, const A& a, const B& b) const {
    return la::spgemm(exec, a, b);
  }
};
struct SymbolicThenNumeric {
  template <class E, class A, class B>
  auto operator()(E& exec, const A& a, const B& b) const {
    auto C = la::spgemm_symbolic(exec, a, b);
    la::spgemm_numeric(exec, a, b, C);
    return C;
  }
};
struct InverseFace {  // float weights whose sums depend on the order of addition
  SPMESH_HD float operator()(la::Collision c) const { return 1.0f / static_cast<float>(c.k + 1); }
};
struct FaceOf {
  SPMESH_HD index_t operator()(la::Collision c) const { return c.k; }
};
struct EdgeWeights {
  template <class E, class M>
  auto operator()(E& exec, const M& m) const {
    return la::mmt(exec, m, la::Circulant{1, -1}, InverseFace{});
  }
};
struct FirstFaces {
  template <class E, class M>
  auto operator()(E& exec, const M& m) const {
    return la::mmt(exec, m, la::Circulant{1}, FaceOf{}, la::reduce::First{});
  }
};
struct ToCsr {
  template <class E, class A>
  auto operator()(E& exec, const A& a) const {
    return la::to_csr(exec, a);
  }
};
struct ToCsc {
  template <class E, class A>
  auto operator()(E& exec, const A& a) const {
    return la::to_csc(exec, a);
  }
};
struct SortPairs {
  template <class E, class K, class V>
  auto operator()(E& exec, K& keys, V& values) const {
    exec.sort_pairs(keys.data(), values.data(), keys.size());
    return std::make_pair(std::move(keys), std::move(values));
  }
};

TEST_CASE_TEMPLATE("spmv, spmm and spmv_t are bit-identical run to run", P, SPMESH_TEST_REALS) {
  using B = typename P::Backend;
  using T = typename P::type;
  const auto t = random_triplets<T>(60000, 50000, options(8), 1101);
  const Csr<T> A = csr_of<T>(t);
  const Csc<T> C = csc_of<T>(t);
  const HostArray<T> x = random_array<T>(t.cols, 1102), xt = random_array<T>(t.rows, 1103);
  check_deterministic<B>("spmv", Spmv{}, A, x);
  check_deterministic<B>("spmm, k = 3", Spmm{}, A, random_dense<T>(t.cols, 3, 1104));
  check_deterministic<B>("spmm, k = 5", Spmm{}, A, random_dense<T>(t.cols, 5, 1104));
  const Csr<T> long_rows = csr_of<T>(random_triplets<T>(20000, 5000, options(30), 1107));
  check_deterministic<B>("spmm on long rows, k = 3", Spmm{}, long_rows,
                         random_dense<T>(5000, 3, 1108));
  check_deterministic<B>("spmv_t", SpmvT{}, C, xt);
  const PolyMesh mesh = random_mesh(20000, 30000, 3, 6, 1105);
  const HostArray<T> p = random_array<T>(mesh.vertices, 1106);
  const HostArray<T> inv(static_cast<index_t>(mesh.faces.size()), T(0.25));
  check_deterministic<B>("spmv_t on a mesh matrix", FaceAverages{}, mesh_matrix(mesh), p, inv);
}

TEST_CASE_TEMPLATE("spgemm is bit-identical run to run", P, SPMESH_TEST_REALS) {
  using B = typename P::Backend;
  using T = typename P::type;
  const auto a = random_triplets<T>(30000, 20000, options(6), 1111);
  const auto b = random_triplets<T>(20000, 25000, options(6), 1112);
  const Csr<T> A = csr_of<T>(a), Bm = csr_of<T>(b);
  check_deterministic<B>("spgemm", Spgemm{}, A, Bm);
  check_deterministic<B>("spgemm_symbolic then spgemm_numeric", SymbolicThenNumeric{}, A, Bm);
  if constexpr (is_cpu<B>) {
    // Numeric refill into a symbolic pattern from another thread count.
    cpu::Executor other(3), one(1);
    auto refill = [&](cpu::Executor& e) {
      auto C = la::spgemm_symbolic(other, A, Bm);
      la::spgemm_numeric(e, A, Bm, C);
      return C;
    };
    const Csr<T> first = refill(one);
    for (int threads : {2, 8}) {
      cpu::Executor exec(threads);
      CHECK_MESSAGE(same_bits(refill(exec), first), "refill, " << threads << " threads");
    }
  }
}

TEST_CASE_TEMPLATE("mmt is bit-identical run to run", B, SPMESH_TEST_BACKENDS) {
  const PolyMesh mesh = random_mesh(20000, 40000, 3, 6, 1121);
  const auto M = mesh_matrix(mesh);
  check_deterministic<B>("mmt, float sums", EdgeWeights{}, M);
  check_deterministic<B>("mmt, first face", FirstFaces{}, M);
}

TEST_CASE_TEMPLATE("to_csr of COO and to_csc are bit-identical run to run", P, SPMESH_TEST_REALS) {
  using B = typename P::Backend;
  using T = typename P::type;
  RandomOptions o = options(5);
  o.duplicates = 0.5;
  o.shuffled = true;
  const auto t = random_triplets<T>(50000, 30000, o, 1131);
  check_deterministic<B>("to_csr(COO)", ToCsr{}, coo_of<T>(t));
  check_deterministic<B>("to_csc", ToCsc{},
                         csr_of<T>(random_triplets<T>(50000, 30000, options(5), 1132)));
}

TEST_CASE_TEMPLATE("sort_pairs is bit-identical run to run", B, SPMESH_TEST_BACKENDS) {
  // Many equal keys: only a stable sort puts their values in one order.
  std::mt19937_64 rng(1151);
  HostArray<std::uint64_t> keys(300000);
  HostArray<double> values(keys.size());
  for (auto& k : keys) k = rng() % 1000 * 0x100000001ull;
  for (auto& v : values) v = static_cast<double>(rng() % 1000000) / 7.0;
  check_deterministic<B>("sort_pairs", SortPairs{}, keys, values);
}

#if !defined(__CUDACC__)
// CUB's decoupled look-back scan may associate a floating-point sum differently from run to run,
// and no default path scans floating point (only counts); so this holds on the CPU only.
TEST_CASE("exclusive_scan of doubles is bit-identical run to run on one executor") {
  // Block sums depend on the number of blocks, which depends on the thread count: only runs on
  // the same executor are promised the same bits for floating-point scans.
  const HostArray<double> in = random_array<double>(300000, 1141);
  for (int threads : {1, 4}) {
    cpu::Executor exec(threads);
    HostArray<double> a(in.size()), b(in.size());
    const double ta = exec.exclusive_scan(in.data(), a.data(), in.size());
    const double tb = exec.exclusive_scan(in.data(), b.data(), in.size());
    CHECK(std::memcmp(&ta, &tb, sizeof(double)) == 0);
    CHECK(same_bits(a, b));
  }
}
#endif

}  // namespace spmesh::test::determinism_tests
