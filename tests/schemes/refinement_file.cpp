// The refinement file (schemes/refinement_file.hpp): the round trip keeps R's every weight and
// column, the base mesh and its sharpness, and rebuilds the plan's refined mesh; files edited
// byte by byte (their checksum fixed) are refused naming the problem; the size against the
// version 1 layout (R as CSR with both meshes).
#include "../linalg/common.hpp"
#include "../meshops/temp_dir.hpp"
#include "meshops/obj.hpp"
#include "meshops/triangulate.hpp"
#include "schemes/refinement_file.hpp"
#include "schemes/schemes.hpp"

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace spmesh::test::refinement_file_tests {

using schemes::Refinement;

// The bundled tent with creases of every kind (fractional, semi-sharp, infinite) and a
// semi-sharp corner.
schemes::Sharpness<> tent_sharpness() {
  HostArray<float> corners(14, 0.0f);
  corners[4] = 1.5f;
  return {la::Coo<float>{14, 14, {0, 0, 1, 2}, {1, 2, 2, 8}, {2.5f, 0.6f, 1.3f, 10.0f}},
          std::move(corners)};
}

schemes::Sharpness<> copy(const schemes::Sharpness<>& C) {
  return {{C.edges.rows, C.edges.cols, C.edges.row_indices.clone(), C.edges.col_indices.clone(),
           C.edges.values.clone()},
          C.vertices.clone()};
}

// Scheme's refinement of `levels` levels of `mesh`, as `spmesh build` makes it, with R as CSR.
template <class T, class Scheme>
std::pair<Refinement<T>, Csr<T>> refinement(const meshops::PolyMesh& mesh,
                                            const schemes::Sharpness<>& C, int levels,
                                            schemes::Options options = {}) {
  cpu::Executor exec;
  const auto plan = schemes::build<Scheme>(exec, mesh.M.clone(), copy(C), levels, options);
  auto R = schemes::refinement_matrix<T>(exec, plan);
  Refinement<T> r{Scheme::name, levels, options, schemes::encode_refinement(exec, R),
                  mesh.M.clone(), copy(C), plan.refined.mesh()};
  return {std::move(r), std::move(R)};
}

template <class T>
std::string file_bytes(const Refinement<T>& r) {
  std::ostringstream out;
  schemes::write_refinement(out, r);
  return std::move(out).str();
}

// Row o's (column, weight bits) pairs, sorted: a representation-free view of a sparse row.
template <class T>
using Entries = std::vector<std::pair<index_t, std::uint64_t>>;

template <class T>
std::uint64_t bits(T w) {
  std::uint64_t b = 0;
  std::memcpy(&b, &w, sizeof w);
  return b;
}

template <class T>
std::vector<Entries<T>> rows_of(const Csr<T>& A) {
  std::vector<Entries<T>> out(static_cast<std::size_t>(A.rows));
  for (index_t o = 0; o < A.rows; ++o) {
    for (index_t p = A.offsets[o]; p < A.offsets[o + 1]; ++p)
      out[o].emplace_back(A.indices[p], bits(A.values[p]));
    std::sort(out[o].begin(), out[o].end());
  }
  return out;
}

template <class T>
std::vector<Entries<T>> rows_of(const schemes::RefinementMatrix<T>& R) {
  return std::visit(
      [](const auto& A) {
        std::vector<Entries<T>> out(static_cast<std::size_t>(A.rows));
        const auto v = A.view();
        for (index_t o = 0; o < A.rows; ++o) {
          for (index_t p = v.begin(o); p < v.end(o); ++p) out[o].emplace_back(v.index(p), bits(v.value(o, p)));
          std::sort(out[o].begin(), out[o].end());
        }
        return out;
      },
      R);
}

template <class T>
Dense<T> product(const schemes::RefinementMatrix<T>& R, const Dense<T>& P) {
  cpu::Executor exec;
  Dense<T> Q(schemes::rows(R), P.cols);
  std::visit([&](const auto& A) { la::spmm(exec, A, P, Q); }, R);
  return Q;
}

const std::string tent_path = SPMESH_DATA_DIR "/meshes/tent.obj";

TEST_CASE_TEMPLATE("a refinement file round-trips R's every entry, the base mesh, its sharpness "
                   "and the refined mesh",
                   T, float, double) {
  const auto tent = meshops::read_obj(tent_path);
  const schemes::Options options{schemes::Boundary::edge_and_corner, schemes::CreaseMethod::chaikin};
  const auto [r, R] = refinement<T, schemes::CatmullClark>(tent, tent_sharpness(), 3, options);
  const std::string bytes = file_bytes(r);
  CHECK(bytes.size() == schemes::refinement_file_size(r));
  const auto back = schemes::parse_refinement<T>(bytes, "tent.spr");

  CHECK(back.scheme == "catmark");
  CHECK(back.levels == 3);
  CHECK(back.options.boundary == options.boundary);
  CHECK(back.options.crease == options.crease);
  // Lossless: every row holds the CSR's columns with its weights to the last bit, and the
  // product is the saved table's, bit for bit.
  CHECK(rows_of(back.R) == rows_of(R));
  const auto P = [&] {
    Dense<T> X(tent.vertex_count(), 3);
    for (index_t i = 0; i < X.data.size(); ++i) X.data[i] = static_cast<T>(tent.positions.data[i]);
    return X;
  }();
  CHECK(same_bits(product(back.R, P), product(r.R, P)));
  // ... and equals the CSR's product up to the order of the sums.
  cpu::Executor exec;
  const auto csr_product = la::spmm(exec, R, P);
  const auto stencil_product = product(back.R, P);
  for (index_t i = 0; i < P.data.size(); ++i)
    CHECK(stencil_product.data[i] == doctest::Approx(csr_product.data[i]).epsilon(1e-5));
  // The refined mesh is rebuilt on load: the plan's, exactly.
  CHECK(back.refined.vertices == r.refined.vertices);
  CHECK(same_bits(back.refined.offsets, r.refined.offsets));
  CHECK(same_bits(back.refined.indices, r.refined.indices));
  CHECK(same_bits(back.base.offsets, r.base.offsets));
  CHECK(same_bits(back.base.indices, r.base.indices));
  CHECK(same_bits(back.sharpness.edges.values, r.sharpness.edges.values));
  CHECK(same_bits(back.sharpness.edges.col_indices, r.sharpness.edges.col_indices));
  CHECK(same_bits(back.sharpness.vertices, r.sharpness.vertices));

  // Through a file, and into the other scalar type (weights converted). A folder of this run's
  // own: the float and double cases may run at once.
  const TempDir temp;
  const auto& dir = temp.path;
  const std::string path = temp / "tent.spr";
  schemes::save_refinement(path, r);
  CHECK(std::filesystem::file_size(path) == bytes.size());
  const auto loaded = schemes::load_refinement<T>(path);
  CHECK(rows_of(loaded.R) == rows_of(R));
  using Other = std::conditional_t<std::is_same_v<T, float>, double, float>;
  const auto other = schemes::load_refinement<Other>(path);
  const auto& table = std::get<0>(loaded.R).table;
  const auto& other_table = std::get<0>(other.R).table;
  REQUIRE(other_table.size() == table.size());
  for (index_t i = 0; i < table.size(); ++i) CHECK(other_table[i] == static_cast<Other>(table[i]));

  // A save into a folder that does not exist fails and leaves nothing behind.
  const auto missing = dir / "no" / "such" / "dir" / "r.spr";
  CHECK_THROWS_AS(schemes::save_refinement(missing.string(), r), Error);
  CHECK(!std::filesystem::exists(missing.parent_path()));
}

TEST_CASE("Loop and sqrt(3) refinements round-trip too") {
  const auto triangles = meshops::triangulate(meshops::read_obj(tent_path),
                                              meshops::Triangulation::shortest_diagonal);
  {
    const auto [r, R] = refinement<double, schemes::Loop>(triangles, tent_sharpness(), 2);
    const auto back = schemes::parse_refinement<double>(file_bytes(r), "loop.spr");
    CHECK(back.scheme == "loop");
    CHECK(rows_of(back.R) == rows_of(R));
    CHECK(same_bits(back.refined.indices, r.refined.indices));
  }
  const auto [r, R] = refinement<float, schemes::Sqrt3>(triangles, schemes::smooth_sharpness(14), 3);
  const auto back = schemes::parse_refinement<float>(file_bytes(r), "sqrt3.spr");
  CHECK(rows_of(back.R) == rows_of(R));
  CHECK(same_bits(back.refined.indices, r.refined.indices));
}

// ---- Files edited byte by byte, their checksum fixed: the layout of refinement_file.hpp ----


template <class X>
X field(const std::string& bytes, std::size_t at) {
  X x;
  std::memcpy(&x, bytes.data() + at, sizeof x);
  return x;
}
template <class X>
void set_field(std::string& bytes, std::size_t at, X x) {
  std::memcpy(bytes.data() + at, &x, sizeof x);
}

constexpr std::size_t pad8(std::size_t n) { return (n + 7) / 8 * 8; }

// Where each section starts: stencil lengths, table, ids, columns (header fields at 60..104).
struct Layout {
  std::size_t lengths, table, ids, columns;
  explicit Layout(const std::string& b) {
    const auto scalar = field<std::uint32_t>(b, 12), column_bytes = field<std::uint32_t>(b, 60),
               id_bytes = field<std::uint32_t>(b, 64);
    const auto rows = field<std::int64_t>(b, 72), stencils = field<std::int64_t>(b, 96),
               table_length = field<std::int64_t>(b, 104);
    lengths = 176;
    table = lengths + pad8(4 * stencils);
    ids = table + pad8(scalar * table_length);
    columns = ids + pad8(id_bytes * rows);
    (void)column_bytes;
  }
};

void fix_checksum(std::string& bytes) {
  set_field(bytes, bytes.size() - 8, schemes::refinement_checksum(bytes));
}

std::string refused(const std::string& bytes) {
  return thrown_message<InputError>([&] { schemes::parse_refinement<float>(bytes, "edited.spr"); });
}

TEST_CASE("the smooth triangle rule reaches R, which replays as eval does, and its file keeps the rule") {
  const auto triangles = meshops::triangulate(meshops::read_obj(tent_path), meshops::Triangulation::shortest_diagonal);
  schemes::Options smooth;
  smooth.triangles = schemes::TriangleRule::smooth;
  const auto [r, R] = refinement<double, schemes::CatmullClark>(triangles, tent_sharpness(), 2, smooth);
  const auto [catmark, R_catmark] = refinement<double, schemes::CatmullClark>(triangles, tent_sharpness(), 2);
  CHECK(rows_of(R) != rows_of(R_catmark));
  cpu::Executor exec;
  const auto plan = schemes::build<schemes::CatmullClark>(exec, triangles.M.clone(), tent_sharpness(), 2, smooth);
  const auto by_eval = schemes::eval(exec, plan, triangles.positions);
  Dense<double> by_R(R.rows, 3);
  la::spmm(exec, R, triangles.positions, by_R);
  double largest = 0;
  for (index_t i = 0; i < by_R.rows; ++i)
    for (int c = 0; c < 3; ++c) largest = std::max(largest, std::abs(by_R(i, c) - by_eval(i, c)));
  CHECK(largest < 1e-13);
  const std::string bytes = file_bytes(r);
  CHECK(field<std::uint32_t>(bytes, 68) == 1);  // the header's rule word
  const auto back = schemes::parse_refinement<double>(bytes, "smooth.spr");
  CHECK(back.options.triangles == schemes::TriangleRule::smooth);
  CHECK(rows_of(back.R) == rows_of(R));
  CHECK(schemes::parse_refinement<double>(file_bytes(catmark), "catmark.spr").options.triangles ==
        schemes::TriangleRule::catmark);
}

TEST_CASE("holes make a version 4 file that keeps their flags, and a flag other than 0 or 1, or flags for "
          "another face count, are refused") {
  auto [r, R] = refinement<float, schemes::CatmullClark>(meshops::read_obj(tent_path), tent_sharpness(), 2);
  const std::size_t v2_size = file_bytes(r).size();
  r.holes.assign(std::size_t(r.base.faces), 0);
  r.holes[1] = 1;
  const std::string bytes = file_bytes(r);
  CHECK(bytes.size() == v2_size + 16 + pad8(std::size_t(r.base.faces)));  // header fields, flags
  CHECK(schemes::refinement_file_size(r) == bytes.size());
  CHECK(field<std::uint32_t>(bytes, 8) == 4);
  const auto back = schemes::parse_refinement<float>(bytes, "holes.spr");
  CHECK(back.holes == r.holes);
  CHECK(rows_of(back.R) == rows_of(R));
  CHECK(same_bits(back.refined.indices, r.refined.indices));  // every refined face, holes too
  // The flags follow the base indices: offsets (faces + 1) and indices (corners) from there.
  const std::size_t flags = bytes.size() - 8 - pad8(4 * std::size_t(r.base.vertices)) -
                            3 * pad8(4 * std::size_t(r.sharpness.edges.nnz())) - pad8(std::size_t(r.base.faces));
  std::string two = bytes;
  two[flags + 1] = 2;
  fix_checksum(two);
  CHECK(refused(two) == "edited.spr: base face 1's hole flag is 2 (0 or 1)");
  std::string fewer = bytes;
  set_field<std::int64_t>(fewer, 184, r.base.faces - 1);  // refused by the header, before the checksum
  CHECK(refused(fewer) == "edited.spr: version 4 with 11 hole flags for 12 base faces (version 4 flags every base "
                          "face, the others none)");
  r.holes.pop_back();
  CHECK_THROWS_AS(file_bytes(r), Error);
}

TEST_CASE("a refinement file edited byte by byte is refused, naming the file and the problem") {
  const auto [r, R] =
      refinement<float, schemes::CatmullClark>(meshops::read_obj(tent_path), tent_sharpness(), 2);
  const std::string good = file_bytes(r);
  REQUIRE_NOTHROW(schemes::parse_refinement<float>(good, "edited.spr"));
  const Layout at(good);
  REQUIRE(field<std::uint32_t>(good, 60) == 2);  // 16-bit columns
  REQUIRE(field<std::uint32_t>(good, 64) == 2);  // 16-bit stencil ids

  SUBCASE("a flipped bit: checksum") {
    std::string b = good;
    b[at.columns + 3] ^= 0x10;
    CHECK(refused(b) == "edited.spr: checksum mismatch: the file is corrupt");
  }
  SUBCASE("cut short or grown: the header's sizes against the length, before allocating") {
    CHECK(refused(good.substr(0, good.size() - 9)).find("edited.spr: truncated: the header's sizes need") == 0);
    CHECK(refused(good.substr(0, 100)) ==
          "edited.spr: truncated: the header needs 176 bytes, the file has 100");
    CHECK(refused(good + "x").find("unexpected bytes at the end") != std::string::npos);
    std::string huge = good;
    set_field<std::int64_t>(huge, 88, std::int64_t(1) << 40);  // nnz
    CHECK(refused(huge) == "edited.spr: R's non-zeros in the header, 1099511627776, is outside "
                           "[0, 2^31 - 1)");
    set_field<std::int64_t>(huge, 88, std::int64_t(2'000'000'000));
    CHECK(refused(huge).find("truncated: the header's sizes need 40000") != std::string::npos);
  }
  SUBCASE("not a refinement file, version 1, a later version") {
    CHECK(refused("OBJ file, not a refinement") ==
          "edited.spr: not an spmesh refinement file (no SPMESH-R magic number)");
    std::string v1 = good;
    set_field<std::uint32_t>(v1, 8, 1);
    CHECK(refused(v1) == "edited.spr: version 1, an earlier spmesh's format (R as CSR); rebuild "
                         "it with this spmesh's `spmesh build` (version 2)");
    std::string future = good;
    set_field<std::uint32_t>(future, 8, 9);
    CHECK(refused(future) == "edited.spr: version 9; this spmesh reads versions 2 to 4");
  }
  SUBCASE("a NaN or infinite weight, checksum valid: the stencil and its first row") {
    std::string b = good;
    // The weights of the stencil the first row uses.
    const auto s0 = field<std::uint16_t>(good, at.ids);
    std::size_t start = 0;
    for (std::uint16_t s = 0; s < s0; ++s) start += field<std::int32_t>(good, at.lengths + 4 * s);
    set_field(b, at.table + 4 * (start + 1), std::numeric_limits<float>::quiet_NaN());
    fix_checksum(b);
    CHECK(refused(b) == "edited.spr: R's weight 1 of stencil " + std::to_string(s0) +
                            " (first used by row 0) is nan");
    set_field(b, at.table + 4 * (start + 1), -std::numeric_limits<float>::infinity());
    fix_checksum(b);
    CHECK(refused(b).find("is -inf") != std::string::npos);
  }
  SUBCASE("a column out of range") {
    std::string b = good;
    const std::size_t entry = 5;
    set_field<std::uint16_t>(b, at.columns + 2 * entry, 14);
    fix_checksum(b);
    const auto row = std::upper_bound(R.offsets.begin(), R.offsets.end(), index_t(entry)) -
                     R.offsets.begin() - 1;
    CHECK(refused(b) == "edited.spr: R's column 14 at entry 5 (row " + std::to_string(row) +
                            ", byte " + std::to_string(at.columns + 10) + ") is outside [0, 14)");
  }
  SUBCASE("a stencil id out of range, a stencil length that does not add up") {
    std::string b = good;
    const auto stencils = field<std::int64_t>(good, 96);
    set_field<std::uint16_t>(b, at.ids + 2 * 7, static_cast<std::uint16_t>(stencils));
    fix_checksum(b);
    CHECK(refused(b) == "edited.spr: row 7 of R names stencil " + std::to_string(stencils) +
                            " (byte " + std::to_string(at.ids + 14) + "); there are " +
                            std::to_string(stencils));
    b = good;
    set_field<std::int32_t>(b, at.lengths, field<std::int32_t>(good, at.lengths) + 1);
    fix_checksum(b);
    CHECK(refused(b).find("the stencil lengths sum to") != std::string::npos);
  }
  SUBCASE("more levels than the refined mesh's sizes say: refused before any rebuild") {
    // The fuzzer's finding: 11 levels of a cube asked the rebuild for 25M faces and timed out.
    std::string b = good;
    set_field<std::uint32_t>(b, 48, 11);  // Header::levels
    fix_checksum(b);
    const std::string message = refused(b);
    CHECK(message.starts_with("edited.spr: 11 levels of the stored base mesh make "));
    CHECK(message.find("faces, but the header says") != std::string::npos);
    set_field<std::uint32_t>(b, 48, 17);  // the header is checked before the checksum
    CHECK(refused(b) == "edited.spr: 17 levels in the header (at most 16)");
  }
  SUBCASE("a refined mesh that the base mesh no longer rebuilds: another spmesh's file") {
    std::string b = good;
    set_field<std::uint64_t>(b, 144, field<std::uint64_t>(good, 144) ^ 1);
    fix_checksum(b);
    CHECK(refused(b).find("differs from the one R was built for") != std::string::npos);
  }
  SUBCASE("a base mesh vertex out of range") {
    std::string b = good;
    // Base offsets follow the columns; the first base index after the 14 + 1 offsets... found
    // by its value: the tent's first face's first vertex.
    const auto nnz = field<std::int64_t>(good, 88), faces = field<std::int64_t>(good, 120);
    const std::size_t indices = at.columns + pad8(2 * nnz) + pad8(4 * (faces + 1));
    REQUIRE(field<std::int32_t>(good, indices) == r.base.indices[0]);
    set_field<std::int32_t>(b, indices, 99);
    fix_checksum(b);
    CHECK(refused(b) == "edited.spr: the base mesh: vertex 99 at corner 0 (byte " +
                            std::to_string(indices) + ") is outside [0, 14)");
  }
}

// Version 1's bytes for the same refinement: R as CSR (i32 offsets and indices, scalar
// values) with both meshes.
template <class T>
std::size_t version1_bytes(const Refinement<T>& r, const std::string& scheme) {
  auto mesh = [](const la::MeshMatrix<>& M) { return 12 + 4 * std::size_t(M.faces + 1) + 4 * std::size_t(M.nnz()); };
  const std::size_t rows = schemes::rows(r.R), nnz = schemes::nnz(r.R);
  return 8 + 8 + 4 + scheme.size() + 12 + 12 + 4 * (rows + 1) + (4 + sizeof(T)) * nnz +
         mesh(r.base) + mesh(r.refined) + 8;
}

TEST_CASE("a refinement file is at most a quarter of version 1's bytes") {
  for (const std::string name : {"cube", "creased_cube", "torus"}) {
    const auto mesh = meshops::read_obj(SPMESH_DATA_DIR "/meshes/" + name + ".obj");
    for (int levels : {3, 4, 5}) {
      const auto [r, R] = refinement<float, schemes::CatmullClark>(
          mesh, schemes::smooth_sharpness(mesh.vertex_count()), levels);
      const double v2 = double(schemes::refinement_file_size(r)), v1 = double(version1_bytes(r, "catmark"));
      INFO(name << " L" << levels << ": v1 " << v1 << " bytes, v2 " << v2 << " (" << v2 / v1 << ")");
      CHECK(v2 <= v1 / 4);
    }
  }
}

}  // namespace spmesh::test::refinement_file_tests

namespace spmesh::test::refinement_file_tests {

TEST_CASE("a file's parts load without the refined mesh, which rebuild_refined makes and its "
          "check accepts, the check refuses another mesh naming the file, the header's sizes") {
  const auto tent = meshops::read_obj(tent_path);
  const auto [r, R] = refinement<double, schemes::CatmullClark>(tent, tent_sharpness(), 2);
  const TempDir temp;
  const auto& dir = temp.path;
  const std::string path = temp / "tent.spr";
  schemes::save_refinement(path, r);

  auto stored = schemes::load_refinement_parts<double>(path);
  CHECK(stored.r.refined.faces == 0);  // not rebuilt
  CHECK(stored.refined.file == path);
  CHECK(stored.refined.faces == r.refined.faces);
  CHECK(stored.refined.corners == r.refined.nnz());
  CHECK(rows_of(stored.r.R) == rows_of(R));
  const auto rebuilt = schemes::rebuild_refined(stored.r, stored.refined);
  CHECK(same_bits(rebuilt.offsets, r.refined.offsets));
  CHECK(same_bits(rebuilt.indices, r.refined.indices));

  // Another mesh of the same sizes (two corners swapped) is not the one the file was built for.
  auto other = r.refined.clone();
  std::swap(other.indices[0], other.indices[1]);
  CHECK_THROWS_WITH_AS(stored.refined.check(other), doctest::Contains(path.c_str()), InputError);
  CHECK_THROWS_WITH_AS(stored.refined.check(other), doctest::Contains("differs"), InputError);
  // ... nor one level less.
  auto one_less = refinement<double, schemes::CatmullClark>(tent, tent_sharpness(), 1);
  CHECK_THROWS_AS(stored.refined.check(one_less.first.refined), InputError);

  const auto shape = schemes::refinement_shape(path);
  CHECK(shape.rows == R.rows);
  CHECK(shape.cols == R.cols);
  CHECK(shape.nnz == R.nnz());
  CHECK(shape.scalar_bytes == 8);
  CHECK(shape.base_faces == tent.M.faces);
  CHECK(shape.refined_faces == r.refined.faces);
  CHECK(shape.refined_corners == r.refined.nnz());
  CHECK(shape.file_bytes == std::int64_t(std::filesystem::file_size(path)));
  CHECK_THROWS_WITH_AS(schemes::refinement_shape((dir / "none.spr").string()),
                       doctest::Contains("none.spr"), InputError);
}

}  // namespace spmesh::test::refinement_file_tests
