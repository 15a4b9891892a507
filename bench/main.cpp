// spmesh_bench: CPU mapped SpMV, SpMM, SpGEMM and implicit M M^T against Eigen on generated
// mesh-like matrices, with achieved bandwidth against each op's byte floor and a host copy.
// Prints a table; --json PATH writes the same figures for plotting.
#include "bench/suite.hpp"

#include <Eigen/Core>
#include <fmt/format.h>

#include <omp.h>
#include <sys/resource.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <string>
#include <vector>

namespace {

using namespace spmesh;
using namespace spmesh::bench;

constexpr const char* usage = R"(usage: spmesh_bench [options]
  --max-rows N         largest size step, in rows of the refinement matrix R (default 1e6;
                       the documented full run uses 1e7)
  --min-rows N         smallest size step (default 1e4)
  --precision P        float, double or both (default both)
  --repeats N          timed samples of SpMV and SpMM, after one warm-up (default 10)
  --slow-repeats N     timed samples of SpGEMM and M M^T, after one warm-up (default 3)
  --spgemm-max-rows N  skip SpGEMM at size steps above N rows of R (default 1e7)
  --threads N          OpenMP threads for spmesh and Eigen (default OMP_NUM_THREADS or all)
  --copy-mib N         buffer of the copy-bandwidth reference (default 512)
  --flip F             fraction of grid cells split the other way, making valence 5 and 7
                       (default 0.02)
  --seed N             seed of the flipped cells and of the random order (default 1)
  --busy-retries N     re-time a case up to N times while other processes take more than
                       5% of the CPU during it (default 3); the least disturbed try is kept
  --quiet-wait S       before a retry wait up to S seconds for a whole second in which other
                       processes use at most 5% of the CPU (default 30)
  --no-check           do not compare results with Eigen
  --json PATH          also write every figure as JSON
Size steps are 1e4, 3e4, 1e5, 3e5, 1e6, 3e6, 1e7 rows of R within [min, max].
)";

constexpr const char* legend =
    "ops (spmesh call  |  Eigen peer):\n"
    "  spmv            spmv(R, x), R the Loop-like refinement (V+E) x V  |  y.noalias() = R * x, "
    "SparseMatrix<RowMajor>\n"
    "  spmv_per_row    spmv(R, x, map::per_row(w)), a_ij -> w_i  |  the same on a copy of R "
    "whose values were set to w_i (copy not timed)\n"
    "  spmv_random     spmv on R with rows and columns randomly permuted  |  the same matrix\n"
    "  spmm3           spmm(R, X), X n x 3 row-major  |  R * Matrix<Dynamic, 3, RowMajor>\n"
    "  spgemm          spgemm(S, S), S the Loop vertex stencil V x V  |  S * S, sparse * sparse "
    "(Eigen: one thread)\n"
    "  spgemm_numeric  spgemm_numeric(S, S, C) into a pattern from spgemm_symbolic  |  the full "
    "Eigen S * S\n"
    "  mmt             mmt(M, Circulant{1, -1}, -> 1) = edge matrix E, no diagonal  |  M * "
    "M.transpose() with M (V x F) of ones, diagonal included (Eigen: one thread)\n";

struct Config {
  std::int64_t min_rows = 10'000, max_rows = 1'000'000;
  bool run_float = true, run_double = true;
  int threads = 0;
  std::int64_t copy_mib = 512;
  double flip = 0.02;
  std::uint64_t seed = 1;
  std::string json;
  Options options;
};

std::int64_t parse_count(const std::string& flag, const std::string& s) {
  std::size_t used = 0;
  const double v = std::stod(s, &used);  // accepts 1e6
  if (used != s.size() || v < 0 || v != std::floor(v) || v > 9.0e18)
    throw Error(flag + " expects a non-negative whole number, got '" + s + "'");
  return static_cast<std::int64_t>(v);
}

Config parse(int argc, char** argv) {
  Config c;
  for (int a = 1; a < argc; ++a) {
    const std::string flag = argv[a];
    if (flag == "-h" || flag == "--help") {
      std::fputs(usage, stdout);
      std::exit(0);
    }
    if (flag == "--no-check") {
      c.options.check = false;
      continue;
    }
    if (a + 1 >= argc) throw Error("unknown option or missing value: " + flag);
    const std::string v = argv[++a];
    if (flag == "--max-rows")
      c.max_rows = parse_count(flag, v);
    else if (flag == "--min-rows")
      c.min_rows = parse_count(flag, v);
    else if (flag == "--repeats")
      c.options.repeats = static_cast<int>(parse_count(flag, v));
    else if (flag == "--slow-repeats")
      c.options.slow_repeats = static_cast<int>(parse_count(flag, v));
    else if (flag == "--spgemm-max-rows")
      c.options.spgemm_max_rows = parse_count(flag, v);
    else if (flag == "--busy-retries")
      c.options.busy_retries = static_cast<int>(parse_count(flag, v));
    else if (flag == "--quiet-wait")
      c.options.quiet_wait_s = std::stod(v);
    else if (flag == "--threads")
      c.threads = static_cast<int>(parse_count(flag, v));
    else if (flag == "--copy-mib")
      c.copy_mib = parse_count(flag, v);
    else if (flag == "--seed")
      c.seed = static_cast<std::uint64_t>(parse_count(flag, v));
    else if (flag == "--flip")
      c.flip = std::stod(v);
    else if (flag == "--json")
      c.json = v;
    else if (flag == "--precision") {
      if (v != "float" && v != "double" && v != "both")
        throw Error("--precision expects float, double or both, got '" + v + "'");
      c.run_float = v != "double";
      c.run_double = v != "float";
    } else
      throw Error("unknown option " + flag);
  }
  if (c.min_rows > c.max_rows) throw Error("--min-rows is larger than --max-rows");
  if (c.options.repeats < 1 || c.options.slow_repeats < 1) throw Error("repeats must be >= 1");
  return c;
}

std::vector<std::int64_t> size_steps(const Config& c) {
  std::vector<std::int64_t> steps;
  for (std::int64_t s : {10'000, 30'000, 100'000, 300'000, 1'000'000, 3'000'000, 10'000'000})
    if (s >= c.min_rows && s <= c.max_rows) steps.push_back(s);
  if (steps.empty() || steps.back() != c.max_rows) steps.push_back(c.max_rows);
  return steps;
}

double gbs(double bytes, const Timing& t) { return bytes / (t.median_ms * 1e6); }

std::string check_text(const Result& r) {
  if (!r.checked) return "-";
  if (!r.pattern_matches) return "PATTERN DIFFERS";
  std::string s = r.max_rel_diff == 0 ? "equal" : fmt::format("{:.0e}", r.max_rel_diff);
  return s + (r.bit_identical ? ", det" : ", NONDETERMINISTIC");
}

void print_header_row() {
  fmt::print(
      "{:<15} {:<6} {:>9} {:>9} {:>9} {:>10} {:>10} {:>8} {:>9} {:>9} {:>6} {:>9} {:>6} {:>6}  "
      "{:<16} {}\n",
      "op", "T", "rows", "cols", "nnz", "spmesh ms", "Eigen ms", "spm/Eig", "floor MB", "spm GB/s",
      "%copy", "Eig GB/s", "%copy", "other%", "check",
      "page faults/call spmesh / Eigen; out nnz spmesh / Eigen");
}

void print_row(const Result& r, double copy_gbs, double busy_threshold) {
  const double s = gbs(r.floor_bytes, r.spmesh), e = gbs(r.floor_bytes, r.eigen);
  std::string notes =
      fmt::format("{:.0f} / {:.0f}", r.spmesh.page_faults_per_call, r.eigen.page_faults_per_call);
  if (r.nnz_out_spmesh >= 0) notes += fmt::format("; {} / {}", r.nnz_out_spmesh, r.nnz_out_eigen);
  if (r.attempts > 1) notes += fmt::format("; {} tries", r.attempts);
  const double others = std::max(r.spmesh.others_cpu, r.eigen.others_cpu);
  fmt::print(
      "{:<15} {:<6} {:>9} {:>9} {:>9} {:>10.3f} {:>10.3f} {:>8.2f} {:>9.1f} {:>9.2f} {:>5.0f}% "
      "{:>9.2f} {:>5.0f}% {:>5.0f}%{} {:<16} {}\n",
      r.op, r.precision, r.rows, r.cols, r.nnz, r.spmesh.median_ms, r.eigen.median_ms,
      r.spmesh.median_ms / r.eigen.median_ms, r.floor_bytes / 1e6, s, 100 * s / copy_gbs, e,
      100 * e / copy_gbs, 100 * others, others > busy_threshold ? "!" : " ", check_text(r), notes);
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out + "\"";
}

std::string json_timing(const Timing& t, double floor_bytes, double copy_gbs) {
  const double g = gbs(floor_bytes, t);
  return fmt::format(
      "{{\"median_ms\": {:.6g}, \"min_ms\": {:.6g}, \"max_ms\": {:.6g}, \"samples\": {}, "
      "\"calls_per_sample\": {}, \"page_faults_per_call\": {:.6g}, \"others_cpu\": {:.3g}, "
      "\"gbs\": {:.6g}, \"fraction_of_copy\": {:.6g}}}",
      t.median_ms, t.min_ms, t.max_ms, t.samples, t.calls_per_sample, t.page_faults_per_call,
      t.others_cpu, g, g / copy_gbs);
}

void write_json(const std::string& path, const std::string& command, const Config& c, int threads,
                const CopyBandwidth& copy, double peak_mib, const std::vector<Result>& results) {
  std::ofstream f(path);
  if (!f) throw Error("cannot write " + path);
  f << "{\n  \"tool\": \"spmesh_bench\",\n  \"command\": " << json_string(command) << ",\n";
  f << fmt::format(
      "  \"machine\": {{\"cpu\": {}, \"logical_cores\": {}, \"threads\": {}, "
      "\"eigen_threads\": {}, \"eigen_version\": \"{}.{}.{}\"}},\n",
      json_string(cpu_model()), omp_get_num_procs(), threads, Eigen::nbThreads(),
      EIGEN_WORLD_VERSION, EIGEN_MAJOR_VERSION, EIGEN_MINOR_VERSION);
  f << fmt::format(
      "  \"copy\": {{\"buffer_mib\": {}, \"counted\": \"read + write\", \"single_thread_gbs\": "
      "{:.6g}, \"threaded_gbs\": {:.6g}, \"reference_gbs\": {:.6g}, \"others_cpu\": {:.3g}}},\n",
      copy.buffer_mib, copy.single_thread_gbs, copy.threaded_gbs, copy.reference_gbs(),
      copy.others_cpu);
  f << fmt::format(
      "  \"config\": {{\"repeats\": {}, \"slow_repeats\": {}, \"spgemm_max_rows\": {}, "
      "\"flip\": {}, \"seed\": {}, \"busy_threshold\": {}, \"busy_retries\": {}, "
      "\"quiet_wait_s\": {}, \"index_bytes\": 4}},\n",
      c.options.repeats, c.options.slow_repeats, c.options.spgemm_max_rows, c.flip, c.seed,
      c.options.busy_threshold, c.options.busy_retries, c.options.quiet_wait_s);
  f << fmt::format("  \"peak_resident_mib\": {:.0f},\n", peak_mib);
  f << "  \"results\": [\n";
  for (std::size_t i = 0; i < results.size(); ++i) {
    const Result& r = results[i];
    f << fmt::format(
        "    {{\"op\": {}, \"matrix\": {}, \"precision\": \"{}\", \"target_rows\": {}, "
        "\"rows\": {}, \"cols\": {}, \"nnz\": {}, \"nnz_out_spmesh\": {}, \"nnz_out_eigen\": {}, "
        "\"floor_bytes\": {:.0f}, \"eigen_peer\": {},\n     \"spmesh\": {},\n     \"eigen\": {},\n"
        "     \"time_ratio_spmesh_over_eigen\": {:.6g}, \"attempts\": {}, \"check\": "
        "{{\"checked\": {}, "
        "\"pattern_matches\": {}, \"max_rel_diff\": {:.3g}, \"bit_identical\": {}}}}}{}\n",
        json_string(r.op), json_string(r.matrix), r.precision, r.target_rows, r.rows, r.cols, r.nnz,
        r.nnz_out_spmesh, r.nnz_out_eigen, r.floor_bytes, json_string(r.eigen_peer),
        json_timing(r.spmesh, r.floor_bytes, copy.reference_gbs()),
        json_timing(r.eigen, r.floor_bytes, copy.reference_gbs()),
        r.spmesh.median_ms / r.eigen.median_ms, r.attempts, r.checked, r.pattern_matches,
        r.max_rel_diff, r.bit_identical, i + 1 < results.size() ? "," : "");
  }
  f << "  ]\n}\n";
}

int run(int argc, char** argv) {
  const Config c = parse(argc, argv);
  std::string command = "spmesh_bench";
  for (int a = 1; a < argc; ++a) command += std::string(" ") + argv[a];

  if (c.threads > 0) omp_set_num_threads(c.threads);
  const int threads = omp_get_max_threads();
  Eigen::setNbThreads(threads);
  cpu::Executor exec(threads);

  fmt::print("spmesh_bench: CPU mapped sparse products vs Eigen {}.{}.{}\n", EIGEN_WORLD_VERSION,
             EIGEN_MAJOR_VERSION, EIGEN_MINOR_VERSION);
  fmt::print("command: {}\n", command);
  fmt::print("cpu: {} ({} logical cores); threads: spmesh {}, Eigen {} (OpenMP)\n", cpu_model(),
             omp_get_num_procs(), exec.threads(), Eigen::nbThreads());
  const CopyBandwidth copy =
      measure_copy(static_cast<std::size_t>(c.copy_mib) << 20, threads, 10,
                   c.options.busy_threshold, c.options.busy_retries, c.options.quiet_wait_s);
  fmt::print(
      "host copy, {:.0f} MiB buffer, bytes read + written: 1 thread {:.2f} GB/s, "
      "{} threads {:.2f} GB/s (other processes {:.0f}%); %copy below is against {:.2f} "
      "GB/s\n",
      copy.buffer_mib, copy.single_thread_gbs, threads, copy.threaded_gbs, 100 * copy.others_cpu,
      copy.reference_gbs());
  fmt::print(
      "timing: median of {} samples (SpMV, SpMM) or {} (SpGEMM, M M^T) after one "
      "warm-up, spmesh and Eigen samples alternating; calls under 5 ms are batched per "
      "sample\n",
      c.options.repeats, c.options.slow_repeats);
  fmt::print(
      "spm/Eig = spmesh time / Eigen time (< 1: spmesh faster); floor MB = bytes the op "
      "must move (bench/suite_impl.hpp); GB/s = floor / median time; other% = CPU taken "
      "by other processes while timing (a busy machine distorts every figure; ! = still "
      "over 5% after the retries: distrust that row); check: spmesh vs Eigen max rel "
      "diff, det = bit-identical run to run\n");

  fmt::print("{}", legend);

  std::vector<Result> results;
  for (const std::int64_t target : size_steps(c)) {
    // R has 4 V rows on a torus (V vertex rows, E = 3 V edge rows), V = n^2.
    const index_t n =
        std::max<index_t>(3, static_cast<index_t>(std::lround(std::sqrt(target / 4.0))));
    const double t0 = now_ms();
    const TorusMesh mesh = make_torus(n, c.flip, c.seed);
    const linalg::Csr<double> R = loop_refinement(exec, mesh);
    const linalg::Csr<double> R_random = random_permuted(exec, R, c.seed + 1);
    const linalg::Csr<double> S = loop_smoothing(exec, mesh);
    const linalg::ReducedMeshMatrix<> M = mesh_matrix(mesh);
    const Inputs in{target, &mesh, &R, &R_random, &S, &M};
    fmt::print(
        "\n== size step {} rows of R: torus {} x {}, V {}, F {}, E {}, {} irregular "
        "vertices; R {} x {}, {:.2f} nnz/row; S {} x {}; inputs built in {:.1f} s ==\n",
        target, n, n, mesh.vertices, mesh.faces(), mesh.edges(), mesh.irregular_vertices, R.rows,
        R.cols, double(R.nnz()) / R.rows, S.rows, S.cols, (now_ms() - t0) / 1e3);
    if (target > c.options.spgemm_max_rows)
      fmt::print("   (SpGEMM skipped at this size: above --spgemm-max-rows {})\n",
                 c.options.spgemm_max_rows);
    print_header_row();
    std::fflush(stdout);
    const std::size_t first = results.size();
    if (c.run_float) run_suite<float>(exec, in, c.options, results);
    if (c.run_double) run_suite<double>(exec, in, c.options, results);
    for (std::size_t i = first; i < results.size(); ++i)
      print_row(results[i], copy.reference_gbs(), c.options.busy_threshold);
    std::fflush(stdout);
  }
  rusage self{};
  getrusage(RUSAGE_SELF, &self);
  const double peak_mib = static_cast<double>(self.ru_maxrss) / 1024;  // ru_maxrss is in KiB
  fmt::print("\npeak resident memory: {:.0f} MiB\n", peak_mib);
  if (!c.json.empty()) {
    write_json(c.json, command, c, threads, copy, peak_mib, results);
    fmt::print("\nwrote {}\n", c.json);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    fmt::print(stderr, "spmesh_bench: {}\n", e.what());
    return 1;
  }
}
