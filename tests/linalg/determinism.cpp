// Determinism (design.md "Determinism and precision"): every output element is reduced by one
// thread in a fixed order, so repeated runs, and runs with a different number of threads, give
// bit-identical results. Inputs are large enough that every parallel path runs.
#include "common.hpp"

using namespace spmesh;
using namespace spmesh::test;

namespace {

RandomOptions options(double per_row) {
  RandomOptions o;
  o.per_row = per_row;
  o.empty_rows = 0.05;
  return o;
}

// Runs make(exec) on executors of 1, 2, 3 and 8 threads, twice on the first, and checks
// every result is bit-identical to the first.
template <class Make>
void check_same_bits_across_threads(Make make) {
  cpu::Executor one(1);
  const auto first = make(one);
  CHECK_MESSAGE(same_bits(make(one), first), "second run, 1 thread");
  for (int threads : {2, 3, 8}) {
    cpu::Executor exec(threads);
    CHECK_MESSAGE(same_bits(make(exec), first), threads << " threads");
    CHECK_MESSAGE(same_bits(make(exec), first), threads << " threads, second run");
  }
}

}  // namespace

TEST_CASE_TEMPLATE("spmv, spmm and spmv_t are bit-identical across runs and thread counts", T,
                   float, double) {
  const auto t = random_triplets<T>(60000, 50000, options(8), 1101);
  const Csr<T> A = csr_of<T>(t);
  const Csc<T> B = csc_of<T>(t);
  const HostArray<T> x = random_array<T>(t.cols, 1102), xt = random_array<T>(t.rows, 1103);
  const Dense<T> X = random_dense<T>(t.cols, 5, 1104);
  check_same_bits_across_threads([&](cpu::Executor& e) { return la::spmv(e, A, x); });
  check_same_bits_across_threads([&](cpu::Executor& e) { return la::spmm(e, A, X).data; });
  check_same_bits_across_threads([&](cpu::Executor& e) { return la::spmv_t(e, B, xt); });
  const PolyMesh mesh = random_mesh(20000, 30000, 3, 6, 1105);
  const auto M = mesh_matrix(mesh);
  const HostArray<T> p = random_array<T>(mesh.vertices, 1106);
  const HostArray<T> inv(static_cast<index_t>(mesh.faces.size()), T(0.25));
  check_same_bits_across_threads(
      [&](cpu::Executor& e) { return la::spmv_t(e, M, p, la::map::per_column(inv)); });
}

TEST_CASE_TEMPLATE("spgemm is bit-identical across runs and thread counts", T, float, double) {
  const auto a = random_triplets<T>(30000, 20000, options(6), 1111);
  const auto b = random_triplets<T>(20000, 25000, options(6), 1112);
  const Csr<T> A = csr_of<T>(a), B = csr_of<T>(b);
  check_same_bits_across_threads([&](cpu::Executor& e) { return la::spgemm(e, A, B); });
  // Numeric refill into a symbolic pattern from another thread count.
  check_same_bits_across_threads([&](cpu::Executor& e) {
    cpu::Executor other(3);
    auto C = la::spgemm_symbolic(other, A, B);
    la::spgemm_numeric(e, A, B, C);
    return C;
  });
}

TEST_CASE("mmt is bit-identical across runs and thread counts") {
  const PolyMesh mesh = random_mesh(20000, 40000, 3, 6, 1121);
  const auto M = mesh_matrix(mesh);
  check_same_bits_across_threads([&](cpu::Executor& e) {
    return la::mmt(e, M, la::Circulant{1, -1}, [](la::Collision c) { return 1.0f / (c.k + 1); });
  });
  check_same_bits_across_threads([&](cpu::Executor& e) {
    return la::mmt(
        e, M, la::Circulant{1}, [](la::Collision c) { return c.k; }, la::reduce::First{});
  });
}

TEST_CASE_TEMPLATE("to_csr of COO and to_csc are bit-identical across runs and thread counts", T,
                   float, double) {
  RandomOptions o = options(5);
  o.duplicates = 0.5;
  o.shuffled = true;
  const auto t = random_triplets<T>(50000, 30000, o, 1131);
  const Coo<T> coo = coo_of<T>(t);
  check_same_bits_across_threads([&](cpu::Executor& e) { return la::to_csr(e, coo); });
  const Csr<T> A = csr_of<T>(random_triplets<T>(50000, 30000, options(5), 1132));
  check_same_bits_across_threads([&](cpu::Executor& e) { return la::to_csc(e, A); });
}

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
