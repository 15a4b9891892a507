// The VTK legacy and gmsh 4.1 readers (solids/volume_io.hpp) on small files written here, ASCII
// and binary: a hexahedron, two prisms and a tetrahedron (topology.cpp's mixed mesh), read back in
// cells.hpp's order, which the boundary operators and the geometry checks accept; and bad files
// refused naming the line, the byte or the cell. meshio_check.py checks both readers on meshio's
// and gmsh's conversions of the team's meshes.
#include "linalg/cpu/executor.hpp"
#include "solids/checks.hpp"
#include "solids/topology.hpp"
#include "solids/volume_io.hpp"

#include <doctest/doctest.h>

#include <bit>
#include <cstdint>
#include <cstring>
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

std::string refusal(const std::string& text, const std::string& name) {
  try {
    name.ends_with(".vtk") ? solids::parse_vtk(text, name) : solids::parse_msh(text, name);
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
        "p.vtk: cell 5 is a polyhedron (VTK type 42): general polyhedra are not read yet");
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
