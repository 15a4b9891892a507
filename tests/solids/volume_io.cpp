// The VTK legacy, VTK XML (.vtu) and gmsh 4.1 readers (solids/volume_io.hpp) on small files
// written here, ASCII and binary: a hexahedron, two prisms and a tetrahedron (topology.cpp's mixed
// mesh), read back in cells.hpp's order, which the boundary operators and the geometry checks
// accept; the same cells as VTK polyhedra (their faces), read as the same cells turned
// right-handed; and bad files refused naming the line, the byte or the cell. meshio_check.py
// checks the readers on meshio's and gmsh's conversions of the team's meshes.
#include "linalg/cpu/executor.hpp"
#include "solids/cells.hpp"
#include "solids/checks.hpp"
#include "solids/topology.hpp"
#include "solids/volume_io.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <bit>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

namespace spmesh::test::volume_io {

const double points[13][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1},
                              {0, 1, 1}, {2, 0, 0}, {2, 1, 0}, {2, 0, 1}, {2, 1, 1}, {1.5, 0.5, 2}};
// In cells.hpp's order: a hexahedron, two prisms, a tetrahedron.
const std::vector<std::vector<std::int64_t>> cells = {
    {0, 1, 2, 3, 4, 5, 6, 7}, {1, 8, 9, 5, 10, 11}, {1, 9, 2, 5, 11, 6}, {5, 10, 11, 12}};
// VTK's wedge has its base triangle the other way round.
std::vector<std::int64_t> in_vtk_order(const std::vector<std::int64_t>& cell) {
  if (cell.size() != 6) return cell;
  return {cell[0], cell[2], cell[1], cell[3], cell[5], cell[4]};
}
int vtk_type(std::size_t corners) { return corners == 4 ? 10 : corners == 6 ? 13 : 12; }

// What was read equals the cells and points above, and passes the checks of the cells.
void check_read(const solids::VolumeMesh& mesh) {
  REQUIRE(mesh.vertex_count() == 13);
  for (index_t v = 0; v < 13; ++v)
    for (int x = 0; x < 3; ++x) CHECK(mesh.positions(v, x) == points[v][x]);
  REQUIRE(mesh.cell_count() == 4);
  for (index_t c = 0; c < 4; ++c) {
    std::vector<std::int64_t> read(mesh.cells.indices.begin() + mesh.cells.offsets[c],
                                   mesh.cells.indices.begin() + mesh.cells.offsets[c + 1]);
    CHECK(read == cells[std::size_t(c)]);
  }
  linalg::cpu::Executor cpu;
  CHECK_NOTHROW(solids::boundary_operators(cpu, mesh.cells));
  CHECK_NOTHROW(solids::check_geometry("read", mesh.positions, mesh.cells));
}

std::string vtk_ascii(bool legacy_cells, const std::string& extra_cell = "", int extra_type = 0) {
  std::string s = std::string("# vtk DataFile Version ") + (legacy_cells ? "2.0" : "5.1") +
                  "\nfour cells\nASCII\nDATASET UNSTRUCTURED_GRID\nPOINTS 13 double\n";
  for (const auto& p : points) s += std::to_string(p[0]) + " " + std::to_string(p[1]) + " " + std::to_string(p[2]) + "\n";
  std::vector<std::vector<std::int64_t>> all;
  for (const auto& c : cells) all.push_back(in_vtk_order(c));
  all.push_back({0, 1, 2});  // a triangle: skipped
  std::string list;
  std::int64_t size = 0;
  std::vector<int> types;
  for (const auto& c : all) types.push_back(c.size() == 3 ? 5 : vtk_type(c.size()));
  if (!extra_cell.empty()) types.push_back(extra_type);
  if (legacy_cells) {
    for (const auto& c : all) {
      list += std::to_string(c.size());
      for (auto id : c) list.append(" ").append(std::to_string(id));
      list += "\n";
      size += std::int64_t(c.size()) + 1;
    }
    if (!extra_cell.empty()) list += extra_cell + "\n", size += 1 + std::count(extra_cell.begin(), extra_cell.end(), ' ');
    s += "CELLS " + std::to_string(types.size()) + " " + std::to_string(size) + "\n" + list;
  } else {
    std::string offsets = "0\n", connectivity;
    std::int64_t at = 0;
    for (const auto& c : all) {
      at += std::int64_t(c.size());
      offsets += std::to_string(at) + "\n";
      for (auto id : c) connectivity.append(std::to_string(id)).append(" ");
    }
    s += "CELLS " + std::to_string(all.size() + 1) + " " + std::to_string(at) + "\nOFFSETS vtktypeint64\n" + offsets +
         "CONNECTIVITY vtktypeint64\n" + connectivity + "\n";
  }
  s += "CELL_TYPES " + std::to_string(types.size()) + "\n";
  for (int t : types) s += std::to_string(t) + "\n";
  return s + "CELL_DATA 5\nSCALARS region int 1\nLOOKUP_TABLE default\n1 1 1 1 1\n";
}

// Values in a byte order, as binary files hold them.
template <class T>
void put(std::string& s, T value, bool big_endian) {
  unsigned char raw[sizeof(T)];
  std::memcpy(raw, &value, sizeof(T));
  if (big_endian == (std::endian::native == std::endian::little)) std::reverse(raw, raw + sizeof(T));
  s.append(reinterpret_cast<const char*>(raw), sizeof(T));
}

std::string vtk_binary() {
  std::string s = "# vtk DataFile Version 5.1\nfour cells\nBINARY\nDATASET UNSTRUCTURED_GRID\nPOINTS 13 double\n";
  for (const auto& p : points)
    for (double x : p) put(s, x, true);
  std::string offsets, connectivity;
  std::int64_t at = 0;
  put(offsets, at, true);
  for (const auto& c : cells) {
    at += std::int64_t(c.size());
    put(offsets, at, true);
    for (auto id : in_vtk_order(c)) put(connectivity, id, true);
  }
  s += "\nCELLS 5 " + std::to_string(at) + "\nOFFSETS vtktypeint64\n" + offsets + "\nCONNECTIVITY vtktypeint64\n" +
       connectivity + "\nCELL_TYPES 4\n";
  for (const auto& c : cells) put(s, std::int32_t(vtk_type(c.size())), true);
  return s + "\n";
}

// Vertex v has node tag 10 (v + 1); one block per kind, and a triangle block (skipped).
std::string msh(bool binary, const std::string& version = "4.1") {
  std::string s = "$MeshFormat\n" + version + (binary ? " 1 8\n" : " 0 8\n");
  auto size = [&](std::uint64_t v) { binary ? put(s, v, false) : (void)(s += std::to_string(v) + " "); };
  auto integer = [&](std::int32_t v) { binary ? put(s, v, false) : (void)(s += std::to_string(v) + " "); };
  auto real = [&](double v) { binary ? put(s, v, false) : (void)(s += std::to_string(v) + " "); };
  auto newline = [&] { if (!binary) s += "\n"; };
  if (binary) integer(1);
  if (binary) s += "\n";
  s += "$EndMeshFormat\n$PhysicalNames\n1\n3 1 \"solid\"\n$EndPhysicalNames\n$Nodes\n";
  size(1), size(13), size(10), size(130), newline();
  integer(3), integer(1), integer(0), size(13), newline();
  for (int v = 0; v < 13; ++v) size(std::uint64_t(10 * (v + 1))), newline();
  for (const auto& p : points) real(p[0]), real(p[1]), real(p[2]), newline();
  if (binary) s += "\n";
  s += "$EndNodes\n$Elements\n";
  size(4), size(5), size(1), size(5), newline();
  std::uint64_t tag = 1;
  for (const auto& [type, first, count] : std::vector<std::array<int, 3>>{{5, 0, 1}, {6, 1, 2}, {4, 3, 1}}) {
    integer(3), integer(1), integer(type), size(std::uint64_t(count)), newline();
    for (int c = first; c < first + count; ++c) {
      size(tag++);
      for (auto id : cells[std::size_t(c)]) size(std::uint64_t(10 * (id + 1)));
      newline();
    }
  }
  integer(2), integer(1), integer(2), size(1), newline();
  size(tag), size(10), size(20), size(30), newline();
  if (binary) s += "\n";
  return s + "$EndElements\n";
}

// Each cell's outward faces (cells.hpp's tables), as a VTK face stream; the hexahedron's listed
// from its top face, so that a reader taking the first face as the bottom must turn it over.
std::vector<std::int64_t> face_stream(const std::vector<std::int64_t>& cell) {
  const int corners = int(cell.size());
  std::vector<std::int64_t> stream{solids::cell_faces(corners)};
  for (int f = 0; f < solids::cell_faces(corners); ++f) {
    const int k = corners == 8 ? (f + 1) % 6 : f;
    const int n = solids::face_corner(corners, k, 3) < 0 ? 3 : 4;
    stream.push_back(n);
    for (int m = 0; m < n; ++m) stream.push_back(cell[std::size_t(solids::face_corner(corners, k, m))]);
  }
  return stream;
}

std::string base64(const std::string& bytes) {
  const char* digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
    unsigned v = 0;
    for (std::size_t b = 0; b < 3; ++b) v = v << 8 | (b < n ? static_cast<unsigned char>(bytes[i + b]) : 0u);
    for (std::size_t c = 0; c < 4; ++c) out += c <= n ? digits[v >> (18 - 6 * c) & 63] : '=';
  }
  return out;
}

// The mesh as a .vtu: points ASCII, or inline base64 with a 64-bit header in big-endian order
// (its header and data encoded apart, as VTK does); cells ASCII, as polyhedra where asked, with
// an extra cell of `extra_type` (vertices `extra`) where given.
std::string vtu(bool binary_points, bool polyhedra, const std::string& extra = "", int extra_type = 0) {
  std::string s = std::string("<?xml version=\"1.0\"?>\n<!-- made by a test -->\n<VTKFile type=\"UnstructuredGrid\" ") +
                  (binary_points ? "byte_order=\"BigEndian\" header_type=\"UInt64\"" : "byte_order=\"LittleEndian\"") +
                  ">\n<UnstructuredGrid>\n<Piece NumberOfPoints=\"13\" NumberOfCells=\"" +
                  std::to_string(cells.size() + 1 + !extra.empty()) + "\">\n<Points>\n<DataArray type=\"Float64\" "
                  "NumberOfComponents=\"3\" format=\"" + (binary_points ? "binary" : "ascii") + "\">\n";
  if (binary_points) {
    std::string data, header;
    for (const auto& p : points)
      for (double x : p) put(data, x, true);
    put(header, std::uint64_t(data.size()), true);
    s += base64(header) + base64(data);
  } else {
    for (const auto& p : points) s += std::to_string(p[0]) + " " + std::to_string(p[1]) + " " + std::to_string(p[2]) + "\n";
  }
  std::string connectivity, offsets, types, faces, face_offsets;
  std::int64_t at = 0, face_at = 0;
  auto add = [&](const std::vector<std::int64_t>& ids, int type, const std::vector<std::int64_t>& stream) {
    for (auto id : ids) connectivity += std::to_string(id) + " ";
    at += std::int64_t(ids.size());
    offsets += std::to_string(at) + " ", types += std::to_string(type) + " ";
    for (auto v : stream) faces += std::to_string(v) + " ";
    face_at += std::int64_t(stream.size());
    face_offsets += std::to_string(stream.empty() ? -1 : face_at) + " ";
  };
  for (const auto& c : cells)
    polyhedra ? add(c, 42, face_stream(c)) : add(in_vtk_order(c), vtk_type(c.size()), {});
  add({0, 1, 2}, 5, {});  // a triangle: skipped
  if (!extra.empty()) {
    std::vector<std::int64_t> ids;
    for (std::size_t p = 0, q; p < extra.size(); p = q + 1) {
      q = std::min(extra.find(' ', p), extra.size());
      ids.push_back(std::stoll(extra.substr(p, q - p)));
    }
    extra_type == 42 ? add({}, 42, ids) : add(ids, extra_type, {});
  }
  auto array = [&](const char* name, const char* type, const std::string& values) {
    return std::string("<DataArray type=\"") + type + "\" Name=\"" + name + "\" format=\"ascii\">" + values + "</DataArray>\n";
  };
  s += "</DataArray>\n</Points>\n<Cells>\n" + array("connectivity", "Int64", connectivity) +
       array("offsets", "Int64", offsets) + array("types", "UInt8", types);
  if (polyhedra || extra_type == 42) s += array("faces", "Int64", faces) + array("faceoffsets", "Int64", face_offsets);
  return s + "</Cells>\n<CellData><DataArray type=\"Int32\" Name=\"region\" format=\"ascii\">1 1 1 1 1</DataArray></CellData>\n"
             "</Piece>\n</UnstructuredGrid>\n</VTKFile>\n";
}

// What was read has the cells' vertex sets, turned right-handed (the geometry checks pass).
void check_same_cells(const solids::VolumeMesh& mesh) {
  REQUIRE(mesh.cell_count() == index_t(cells.size()));
  for (index_t c = 0; c < mesh.cell_count(); ++c) {
    std::vector<std::int64_t> read(mesh.cells.indices.begin() + mesh.cells.offsets[c],
                                   mesh.cells.indices.begin() + mesh.cells.offsets[c + 1]);
    auto expected = cells[std::size_t(c)];
    std::sort(read.begin(), read.end()), std::sort(expected.begin(), expected.end());
    CHECK(read == expected);
  }
  linalg::cpu::Executor cpu;
  CHECK_NOTHROW(solids::boundary_operators(cpu, mesh.cells));
  CHECK_NOTHROW(solids::check_geometry("read", mesh.positions, mesh.cells));
}

std::string refusal(const std::string& text, const std::string& name) {
  try {
    name.ends_with(".vtk") ? solids::parse_vtk(text, name)
    : name.ends_with(".vtu") ? solids::parse_vtu(text, name)
                             : solids::parse_msh(text, name);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(none)";
}

TEST_CASE("VTK legacy files: counts before each cell (2.0) or OFFSETS (5.1), ASCII or binary, "
          "wedges turned into cells.hpp's order, boundary parts skipped") {
  check_read(solids::parse_vtk(vtk_ascii(true), "a.vtk"));
  check_read(solids::parse_vtk(vtk_ascii(false), "b.vtk"));
  check_read(solids::parse_vtk(vtk_binary(), "c.vtk"));
}

TEST_CASE("VTK XML files: ASCII, inline base64 (64-bit headers, big-endian) and appended raw data (spmesh's "
          "writer), wedges turned, boundary parts and attributes skipped") {
  check_read(solids::parse_vtu(vtu(false, false), "a.vtu"));
  check_read(solids::parse_vtu(vtu(true, false), "b.vtu"));
}

TEST_CASE("VTK polyhedra whose faces make a tetrahedron, prism or hexahedron are read as those cells, "
          "turned right-handed (.vtu, and legacy face streams), and refine as the cells do") {
  const auto read = solids::parse_vtu(vtu(false, true), "p.vtu");
  check_same_cells(read);
  // The same polyhedra in VTK 9.4's layout: every face once in face_connectivity (its end in
  // face_offsets), each cell's faces in polyhedron_to_faces (its end in polyhedron_offsets, the
  // triangle's list empty).
  std::string points_of_faces, face_ends;
  std::vector<std::vector<std::int64_t>> faces_of(cells.size() + 1);  // the triangle's last, empty
  std::int64_t face = 0, point_at = 0;
  for (std::size_t c = 0; c < cells.size(); ++c) {
    const auto stream = face_stream(cells[c]);
    for (std::size_t at = 1; at < stream.size(); at += std::size_t(stream[at]) + 1) {
      for (std::int64_t k = 1; k <= stream[at]; ++k) points_of_faces += std::to_string(stream[at + std::size_t(k)]) + " ";
      point_at += stream[at], face_ends += std::to_string(point_at) + " ";
      faces_of[c].push_back(face++);
    }
  }
  auto layout_94 = [&](const std::vector<std::vector<std::int64_t>>& lists, std::size_t entries) {
    std::string cell_faces, cell_ends, text = vtu(false, true);
    std::size_t end = 0;
    for (std::size_t c = 0; c < entries; ++c) {
      for (auto f : lists[c]) cell_faces += std::to_string(f) + " ";
      end += lists[c].size(), cell_ends += std::to_string(end) + " ";
    }
    auto array = [](const char* name, const std::string& values) {
      return std::string("<DataArray type=\"Int64\" Name=\"") + name + "\" format=\"ascii\">" + values + "</DataArray>\n";
    };
    const std::size_t from = text.find("<DataArray type=\"Int64\" Name=\"faces\""), to = text.find("</Cells>");
    return text.replace(from, to - from, array("face_connectivity", points_of_faces) + array("face_offsets", face_ends) +
                                             array("polyhedron_to_faces", cell_faces) +
                                             array("polyhedron_offsets", cell_ends));
  };
  check_same_cells(solids::parse_vtu(layout_94(faces_of, faces_of.size()), "p94.vtu"));
  // ... refused by name where a cell's list names a face that is not there or one of two cells'
  // already, or the offsets are not one a cell.
  auto bad = faces_of;
  bad[0][0] = 99;
  CHECK(refusal(layout_94(bad, bad.size()), "p94.vtu") ==
        "p94.vtu: cell 0: face 99 is not one of face_offsets' " + std::to_string(face));
  bad = faces_of;
  bad[1][0] = bad[2][0] = 0;
  CHECK(refusal(layout_94(bad, bad.size()), "p94.vtu") == "p94.vtu: cell 2: face 0 bounds a third cell");
  CHECK(refusal(layout_94(faces_of, faces_of.size() - 1), "p94.vtu") ==
        "p94.vtu: polyhedron_offsets has 4 entries for 5 cells (one a cell)");
  // A version 2 legacy file's CELLS entry of a polyhedron is its face stream.
  std::string legacy = "# vtk DataFile Version 2.0\npolyhedra\nASCII\nDATASET UNSTRUCTURED_GRID\nPOINTS 13 double\n";
  for (const auto& p : points) legacy += std::to_string(p[0]) + " " + std::to_string(p[1]) + " " + std::to_string(p[2]) + "\n";
  std::string list;
  std::size_t size = 0;
  for (const auto& c : cells) {
    const auto stream = face_stream(c);
    list += std::to_string(stream.size());
    for (auto v : stream) list.append(" ").append(std::to_string(v));
    list += "\n", size += stream.size() + 1;
  }
  legacy += "CELLS 4 " + std::to_string(size) + "\n" + list + "CELL_TYPES 4\n42\n42\n42\n42\n";
  check_same_cells(solids::parse_vtk(legacy, "p.vtk"));
  // A version 5.1 file's CONNECTIVITY holds the same face streams, OFFSETS their ends.
  std::string v51 = legacy.substr(0, legacy.find("CELLS"));
  v51.replace(v51.find("2.0"), 3, "5.1");
  std::string offsets = "0", connectivity;
  std::size_t end = 0;
  for (const auto& c : cells) {
    const auto stream = face_stream(c);
    for (auto v : stream) connectivity.append(std::to_string(v)).append(" ");
    offsets.append(" ").append(std::to_string(end += stream.size()));
  }
  v51.append("CELLS 5 ").append(std::to_string(end)).append("\nOFFSETS vtktypeint64\n").append(offsets);
  v51.append("\nCONNECTIVITY vtktypeint64\n").append(connectivity).append("\nCELL_TYPES 4\n42\n42\n42\n42\n");
  check_same_cells(solids::parse_vtk(v51, "p51.vtk"));
}

TEST_CASE("VTK's own version 5.1 legacy files of polyhedra (ASCII and binary, by VTK 9.1's writer) read as the "
          "version 4.2 file they were made from") {
  const std::string folder = SPMESH_DATA_DIR "/../tests/solids/data/";
  const auto source = solids::read_volume(SPMESH_DATA_DIR "/meshes/honeycomb.vtk");
  REQUIRE(source.cells.has_polyhedra());
  for (const char* name : {"honeycomb_vtk51_ascii.vtk", "honeycomb_vtk51_binary.vtk"}) {
    CAPTURE(name);
    const auto read = solids::read_volume(folder + name);
    CHECK(read.positions.data.to_vector() == source.positions.data.to_vector());
    CHECK(read.cells.offsets.to_vector() == source.cells.offsets.to_vector());
    CHECK(read.cells.indices.to_vector() == source.cells.indices.to_vector());
    CHECK(read.cells.face_offsets.to_vector() == source.cells.face_offsets.to_vector());
    CHECK(read.cells.face_streams.to_vector() == source.cells.face_streams.to_vector());
  }
}

// A pentagonal prism (corners 0-4 at z = 0, 5-9 above) as a legacy file's polyhedron, its
// faces as `faces` lists them.
std::string pentagonal_prism(const std::vector<std::vector<std::int64_t>>& faces) {
  std::ostringstream s;
  s << "# vtk DataFile Version 2.0\nprism\nASCII\nDATASET UNSTRUCTURED_GRID\nPOINTS 10 double\n";
  s.precision(17);
  for (int z = 0; z < 2; ++z)
    for (int k = 0; k < 5; ++k) s << std::cos(0.4 * M_PI * k) << ' ' << std::sin(0.4 * M_PI * k) << ' ' << z << '\n';
  std::size_t size = 1;
  for (const auto& face : faces) size += face.size() + 1;
  s << "CELLS 1 " << size + 1 << '\n' << size << ' ' << faces.size();
  for (const auto& face : faces) {
    s << ' ' << face.size();
    for (auto v : face) s << ' ' << v;
  }
  s << "\nCELL_TYPES 1\n42\n";
  return s.str();
}

TEST_CASE("VTK polyhedra of other shapes are read with their faces, turned alike and outward, and pass the "
          "topology and geometry checks") {
  // Outward; then with the bottom and two sides turned in; then all turned in.
  const std::vector<std::vector<std::int64_t>> outward = {{4, 3, 2, 1, 0}, {5, 6, 7, 8, 9}, {0, 1, 6, 5}, {1, 2, 7, 6},
                                                          {2, 3, 8, 7}, {3, 4, 9, 8}, {4, 0, 5, 9}};
  auto some_in = outward, all_in = outward;
  for (auto* face : {&some_in[0], &some_in[3], &some_in[5]}) std::reverse(face->begin(), face->end());
  for (auto& face : all_in) std::reverse(face.begin(), face.end());
  for (const auto* faces : {&outward, static_cast<const decltype(outward)*>(&some_in), static_cast<const decltype(outward)*>(&all_in)}) {
    const auto mesh = solids::parse_vtk(pentagonal_prism(*faces), "p.vtk");
    REQUIRE(mesh.cell_count() == 1);
    const auto shape = mesh.cells.view().shape(0);
    REQUIRE(shape.polyhedron());
    CHECK(shape.faces() == 7);
    std::vector<index_t> corners(mesh.cells.indices.begin(), mesh.cells.indices.end());
    const std::vector<index_t> first_seen((*faces)[0].begin(), (*faces)[0].end());
    CHECK(std::equal(first_seen.begin(), first_seen.end(), corners.begin()));  // in the order they first appear
    std::sort(corners.begin(), corners.end());
    CHECK(corners == std::vector<index_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
    // Every face as the outward list gives it (the corners name vertex ids through the cell's list).
    for (int f = 0; f < 7; ++f) {
      std::vector<std::int64_t> face;
      for (int k = 0; k < shape.face_size(f); ++k) face.push_back(mesh.cells.indices[shape.corner(f, k)]);
      const auto& expected = outward[std::size_t(f)];
      std::rotate(face.begin(), std::find(face.begin(), face.end(), expected[0]), face.end());
      CHECK(face == expected);
    }
    linalg::cpu::Executor cpu;
    CHECK_NOTHROW(solids::boundary_operators(cpu, mesh.cells));
    CHECK_NOTHROW(solids::check_geometry("p.vtk", mesh.positions, mesh.cells));
  }
  // One side left out: the surface does not close.
  CHECK(refusal(pentagonal_prism({outward.begin(), outward.end() - 1}), "p.vtk") ==
        "p.vtk: cell 0 (a VTK polyhedron, type 42): its edge from vertex 4 to vertex 9 is in one face only (its faces "
        "do not close) (ids count from 0)");
}

TEST_CASE("bad .vtu files are refused naming the byte or the cell") {
  CHECK(refusal(vtu(false, false, "0 1 2 3 12", 14), "p.vtu") ==
        "p.vtu: cell 5 is a pyramid (VTK type 14): a pyramid does not subdivide into hexahedra");
  // A pyramid given by its faces: its apex joins four.
  CHECK(refusal(vtu(false, false, "5 4 0 1 2 3 3 0 1 12 3 1 2 12 3 2 3 12 3 3 0 12", 42), "p.vtu") ==
        "p.vtu: cell 5 (a VTK polyhedron, type 42): its corner at vertex 12 joins 4 faces: a corner's child is a "
        "hexahedron only where three faces meet (a pyramid's apex joins four) (ids count from 0)");
  std::string cut = vtu(true, false);
  cut.erase(cut.find("</DataArray>") - 40, 40);
  CHECK(refusal(cut, "c.vtu").ends_with("DataArray 'Points': its 312 bytes run past the file's end"));
  std::string lz4 = vtu(false, false);
  lz4.replace(lz4.find("byte_order"), 0, "compressor=\"vtkLZ4DataCompressor\" ");
  CHECK(refusal(lz4, "z.vtu") ==
        "z.vtu: byte 46: compressor vtkLZ4DataCompressor: spmesh reads zlib-compressed and uncompressed data");
  // A compressed block's table that claims more than deflate can give (1032 to 1) is refused before
  // any memory is taken for it (it allocated the 2 GiB named; found by fuzz_vtu).
  std::string huge = vtu(true, false), table;
  for (std::uint64_t v : {std::uint64_t(1), std::uint64_t(1) << 31, std::uint64_t(1) << 31, std::uint64_t(12)})
    put(table, v, true);
  const std::size_t points_at = huge.find("format=\"binary\">\n") + 17;
  huge.replace(points_at, huge.find("</DataArray>") - points_at, base64(table) + base64("twelve bytes"));
  huge.replace(huge.find("byte_order"), 0, "compressor=\"vtkZLibDataCompressor\" ");
  CHECK(refusal(huge, "h.vtu").ends_with("DataArray 'Points': its compressed block 0 of 12 bytes cannot inflate to "
                                         "the 2147483648 bytes its header names"));
  std::string poly = vtu(false, false);
  poly.replace(poly.find("UnstructuredGrid\" "), 16, "PolyData");
  CHECK(refusal(poly, "q.vtu").ends_with("a VTK XML file of type 'PolyData': spmesh reads volume meshes, type "
                                         "UnstructuredGrid (.vtu)"));
  std::string word = vtu(false, false);
  word.replace(word.find("2.000000 1.000000 1.000000"), 8, "two");
  CHECK(refusal(word, "w.vtu").ends_with("DataArray 'Points': expected a number, found 'two'"));
  std::string real = vtu(false, false);  // a NaN cast to an index was undefined (found by fuzz_vtu)
  real.replace(real.find("\"Int64\" Name=\"offsets\""), 7, "\"Float64\"");
  CHECK(refusal(real, "r.vtu").ends_with("DataArray 'offsets': holds Float64 values where integers (indices, offsets, "
                                         "cell types) belong"));
}

TEST_CASE("gmsh 4.1 files: sparse node tags, ASCII or binary, other sections skipped") {
  check_read(solids::parse_msh(msh(false), "a.msh"));
  check_read(solids::parse_msh(msh(true), "b.msh"));
}

TEST_CASE("bad VTK and gmsh files are refused naming the line, the byte or the cell") {
  CHECK(refusal(vtk_ascii(true, "5 0 1 2 3 12", 14), "p.vtk") ==
        "p.vtk: cell 5 is a pyramid (VTK type 14): a pyramid does not subdivide into hexahedra");
  CHECK(refusal(vtk_ascii(true, "3 0 1 13", 5), "p.vtk") == "(none)");  // a skipped triangle is not checked
  CHECK(refusal(vtk_ascii(true, "4 0 1 2 13", 10), "p.vtk") ==
        "p.vtk: cell 5: vertex 13 out of range (0 to 12; ids count from 0)");
  CHECK(refusal(vtk_ascii(true, "2 0 1", 4), "p.vtk") == "(none)");
  CHECK(refusal(vtk_ascii(true, "4 0 1 2 3", 42), "p.vtk") ==
        "p.vtk: cell 5 (a VTK polyhedron, type 42): its face stream does not hold its face count's faces");
  CHECK(refusal(vtk_ascii(true, "3 0 1 2", 10), "p.vtk") == "p.vtk: cell 5 (VTK type 10) has 3 vertices, not 4");
  std::string polydata = vtk_ascii(true);
  polydata.replace(polydata.find("UNSTRUCTURED_GRID"), 17, "POLYDATA");
  CHECK(refusal(polydata, "p.vtk") == "p.vtk:4: DATASET POLYDATA: spmesh reads volume meshes, DATASET UNSTRUCTURED_GRID");
  std::string word = vtk_ascii(true);
  word.replace(word.find("0.000000 1.000000 0.000000"), 8, "zero");
  CHECK(refusal(word, "p.vtk") == "p.vtk:9: expected POINTS, found 'zero'");
  const std::string binary = vtk_binary();
  CHECK(refusal(binary.substr(0, 100), "t.vtk") == "t.vtk:5: POINTS: 13 is more than the rest of the file holds");
  const std::string cut_vtk = refusal(binary.substr(0, binary.find("CELL_TYPES") - 20), "t.vtk");
  CHECK(cut_vtk.starts_with("t.vtk: byte "));
  CHECK(cut_vtk.ends_with(": truncated: the file ends before CONNECTIVITY"));
  CHECK(refusal(msh(false, "2.2"), "v.msh") == "v.msh:2: gmsh format 2.2: spmesh reads version 4.1 (gmsh -format msh41)");
  std::string missing = msh(false);
  missing.replace(missing.find("\n1 10 20 30 40"), 14, "\n1 10 20 30 45");
  CHECK(refusal(missing, "m.msh") == "m.msh: element 1 names node 45, which $Nodes does not have");
  std::string pyramid = msh(false);
  pyramid.replace(pyramid.find("3 1 4 1"), 7, "3 1 7 1");
  CHECK(refusal(pyramid, "y.msh").ends_with("pyramids (element type 7): a pyramid does not subdivide into hexahedra"));
  const std::string cut = msh(true);
  CHECK(refusal(cut.substr(0, cut.find("$EndNodes") - 40), "c.msh") ==
        "c.msh: byte 138: a node block: 13 is more than the rest of the file holds");
  const std::string cut_msh = refusal(cut.substr(0, cut.find("$EndElements") - 60), "c.msh");
  CAPTURE(cut_msh);
  CHECK(cut_msh.starts_with("c.msh: byte "));
  CHECK(cut_msh.ends_with(": truncated: the file ends before an element's node"));
  CHECK(refusal("solid\n", "n.msh") == "n.msh:1: expected a section ($Name), found 'solid'");
}

}  // namespace spmesh::test::volume_io
