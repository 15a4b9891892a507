// The volume writers: a refined mesh written as .mesh reads back with the same cells and the
// same positions (every bit, float and double); .vtu has the layout VTK's XML format says, with
// point and cell data where given; bad input is refused before a file exists. (meshio reads both
// back: ctest solids_meshio.)
#include "solids/volume_io.hpp"
#include "solids/write.hpp"

#include "linalg/cpu/executor.hpp"
#include "solids/medit.hpp"
#include "solids/refine.hpp"

#include "../meshops/temp_dir.hpp"
#include "generated.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

namespace spmesh::test::solid_write {

using solids::CellMesh;

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A tetrahedron, refined once: 4 hexahedra over 15 vertices.
template <class T>
solids::SolidLevel<T, linalg::Host> refined_tetrahedron() {
  CellMesh<> tet;
  tet.vertices = 4;
  tet.offsets = linalg::Array<index_t>{0, 4};
  tet.indices = linalg::Array<index_t>{0, 1, 2, 3};
  linalg::Dense<T> X(4, 3, linalg::Array<T>{T(0.1), T(0.2), T(0.3), T(1.7), 0, 0, 0, T(1.3), 0, 0, 0, T(2.9)});
  linalg::cpu::Executor exec;
  return solids::refine(exec, tet, solids::boundary_operators(exec, tet), X);
}

TEST_CASE_TEMPLATE("volume writers: .mesh and .vtk read back bit for bit, .vtu holds the arrays "
                   "VTK's XML format names",
                   T, float, double) {
  const test::TempDir dir;
  const auto level = refined_tetrahedron<T>();
  solids::write_volume(dir / "t.mesh", level.positions, level.cells);
  const auto back = solids::read_medit(dir / "t.mesh");
  REQUIRE(back.vertex_count() == 15);
  REQUIRE(back.cell_count() == 4);
  for (index_t i = 0; i < level.positions.data.size(); ++i) CHECK(T(back.positions.data[i]) == level.positions.data[i]);
  CHECK(std::equal(back.cells.indices.begin(), back.cells.indices.end(), level.cells.indices.begin()));

  solids::write_volume(dir / "t.vtk", level.positions, level.cells);
  const auto vtk = solids::read_volume(dir / "t.vtk");
  REQUIRE(vtk.vertex_count() == 15);
  for (index_t i = 0; i < level.positions.data.size(); ++i) CHECK(T(vtk.positions.data[i]) == level.positions.data[i]);
  CHECK(std::equal(vtk.cells.indices.begin(), vtk.cells.indices.end(), level.cells.indices.begin(), level.cells.indices.end()));

  solids::write_volume(dir / "t.vtu", level.positions, level.cells);
  const std::string vtu = file_text(dir / "t.vtu");
  CHECK(vtu.starts_with("<?xml version=\"1.0\"?>\n<VTKFile type=\"UnstructuredGrid\""));
  CHECK(vtu.find(std::is_same_v<T, float> ? "type=\"Float32\" Name=\"Points\"" : "type=\"Float64\" Name=\"Points\"") !=
        std::string::npos);
  CHECK(vtu.find("NumberOfPoints=\"15\" NumberOfCells=\"4\"") != std::string::npos);
  // The appended data: 4 arrays, each a 64-bit byte count and its bytes, then the closing tags.
  const std::size_t data = vtu.find("<AppendedData encoding=\"raw\">\n_") + 31;
  const std::size_t bytes = 4 * 8 + sizeof(T) * 45 + 4 * 32 + 4 * 4 + 4;
  CHECK(vtu.size() == data + bytes + std::string("\n</AppendedData>\n</VTKFile>\n").size());
  CHECK(vtu.ends_with("\n</AppendedData>\n</VTKFile>\n"));
  const std::size_t types = vtu.size() - std::string("\n</AppendedData>\n</VTKFile>\n").size() - 4;
  for (std::size_t c = 0; c < 4; ++c) CHECK(int(vtu[types + c]) == 12);  // the cells' types: hexahedra
}

// Each cell's vertex set and its faces as vertex-id cycles (each started at its lowest vertex,
// in ascending order): what a reader must give back, whatever order it lists corners and faces in.
std::vector<std::vector<std::vector<index_t>>> cells_and_faces(const CellMesh<>& cells) {
  std::vector<std::vector<std::vector<index_t>>> out;
  const auto view = cells.view();
  for (index_t c = 0; c < cells.cells(); ++c) {
    auto& cell = out.emplace_back();
    const auto shape = view.shape(c);
    for (int f = 0; f < shape.faces(); ++f) {
      std::vector<index_t> face;
      for (int k = 0; k < shape.face_size(f); ++k) face.push_back(view.vertex(c, shape.corner(f, k)));
      std::rotate(face.begin(), std::min_element(face.begin(), face.end()), face.end());
      cell.push_back(face);
    }
    std::sort(cell.begin(), cell.end());
    cell.emplace_back(cells.indices.begin() + cells.offsets[c], cells.indices.begin() + cells.offsets[c + 1]);
    std::sort(cell.back().begin(), cell.back().end());
  }
  return out;
}

TEST_CASE("polyhedra are written as VTK's type 42 with their faces (.vtu, .vtk) and read back as the same "
          "cells and faces, and Medit's .mesh, which holds none, is refused") {
  const test::TempDir dir;
  const auto [shell, X] = polyhedral_shell();
  for (const char* name : {"s.vtu", "s.vtk"}) {
    CAPTURE(name);
    solids::write_volume(dir / name, X, shell);
    const auto back = solids::read_volume(dir / name);
    CHECK(back.positions.data.size() == X.data.size());
    CHECK(std::equal(back.positions.data.begin(), back.positions.data.end(), X.data.begin()));
    CHECK(cells_and_faces(back.cells) == cells_and_faces(shell));
  }
  // .vtu's connectivity keeps each polyhedron's corner order.
  const auto vtu = solids::read_volume(dir / "s.vtu");
  CHECK(std::equal(vtu.cells.indices.begin(), vtu.cells.indices.end(), shell.indices.begin(), shell.indices.end()));
  CHECK_THROWS_WITH_AS(solids::write_volume(dir / "s.mesh", X, shell),
                       doctest::Contains(": cell 0 is a polyhedron of 7 faces: Medit's .mesh holds no polyhedra"), InputError);
  CHECK(!std::filesystem::exists(dir / "s.mesh"));
}

// Array `name`'s values in a .vtu spmesh wrote: its offset in the header, then its byte count
// and bytes in the appended data.
template <class V>
std::vector<V> appended_values(const std::string& vtu, const std::string& name) {
  const std::size_t tag = vtu.find("Name=\"" + name + "\"");
  const std::size_t offset = vtu.find("offset=\"", tag) + 8;
  const std::size_t at = vtu.find("<AppendedData encoding=\"raw\">\n_") + 31 + std::stoul(vtu.substr(offset));
  std::uint64_t bytes = 0;
  std::memcpy(&bytes, vtu.data() + at, 8);
  std::vector<V> out(bytes / sizeof(V));
  std::memcpy(out.data(), vtu.data() + at + 8, bytes);
  return out;
}

TEST_CASE("the .vtu writer adds named point and cell data (Float32, Float64, Int32) that read back as given, the "
          "mesh still reading back the same, and refuses other formats and arrays of another length") {
  const test::TempDir dir;
  const auto level = refined_tetrahedron<double>();
  solids::VolumeData data;
  std::vector<double> height;
  for (index_t v = 0; v < 15; ++v) height.push_back(level.positions(v, 2));
  data.points.push_back({"height", height});
  data.points.push_back({"index", std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}});
  data.cells.push_back({"cell", std::vector<std::int32_t>{3, 2, 1, 0}});
  {
    meshops::OutputFiles outputs;
    outputs.add(dir / "d.vtu");
    solids::write_volume(outputs, dir / "d.vtu", solids::VolumeFormat::vtu, "t", level.positions, level.cells, data);
    outputs.commit();
  }
  const std::string vtu = file_text(dir / "d.vtu");
  CHECK(vtu.find("<PointData>\n<DataArray type=\"Float64\" Name=\"height\"") != std::string::npos);
  CHECK(vtu.find("<DataArray type=\"Float32\" Name=\"index\"") != std::string::npos);
  CHECK(vtu.find("<CellData>\n<DataArray type=\"Int32\" Name=\"cell\"") != std::string::npos);
  CHECK(appended_values<double>(vtu, "height") == height);
  CHECK(appended_values<float>(vtu, "index")[14] == 14.0f);
  CHECK(appended_values<std::int32_t>(vtu, "cell") == std::vector<std::int32_t>{3, 2, 1, 0});
  const auto back = solids::read_volume(dir / "d.vtu");
  CHECK(std::equal(back.positions.data.begin(), back.positions.data.end(), level.positions.data.begin()));
  CHECK(std::equal(back.cells.indices.begin(), back.cells.indices.end(), level.cells.indices.begin(),
                   level.cells.indices.end()));

  meshops::OutputFiles outputs;
  outputs.add(dir / "d.mesh");
  CHECK_THROWS_WITH_AS(solids::write_volume(outputs, dir / "d.mesh", solids::VolumeFormat::medit, "t", level.positions,
                                            level.cells, data),
                       (dir / "d.mesh" +
                        ": the point data 'height' is written to .vtu only (give a path ending in .vtu)")
                           .c_str(),
                       InputError);
  outputs.add(dir / "e.vtu");
  data.cells.front().values = std::vector<std::int32_t>{0, 1};
  CHECK_THROWS_WITH_AS(solids::write_volume(outputs, dir / "e.vtu", solids::VolumeFormat::vtu, "t", level.positions,
                                            level.cells, data),
                       (dir / "e.vtu" + ": the data 'cell' has 2 values for 4 cells").c_str(), DimensionError);
}

TEST_CASE("volume writers refuse bad input before a file exists") {
  const test::TempDir dir;
  const auto level = refined_tetrahedron<double>();
  CHECK_THROWS_WITH_AS(solids::write_volume(dir / "t.stl", level.positions, level.cells),
                       (dir / "t.stl" + ": cannot write a volume mesh with extension '.stl' (spmesh writes .vtu, .vtk and .mesh)").c_str(),
                       InputError);
  auto P = level.positions.clone();
  P(7, 2) = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH_AS(solids::write_volume(dir / "t.vtu", P, level.cells), doctest::Contains("vertex 7"), InputError);
  CellMesh<> pyramid;
  pyramid.vertices = 15;
  pyramid.offsets = linalg::Array<index_t>{0, 5};
  pyramid.indices = linalg::Array<index_t>{0, 1, 2, 3, 4};
  CHECK_THROWS_WITH_AS(solids::write_volume(dir / "t.mesh", level.positions, pyramid),
                       (dir / "t.mesh" + ": cell 0 is a pyramid, which spmesh does not write (ids count from 0)").c_str(),
                       InputError);
  const linalg::Dense<double> short_positions(3, 3);
  CHECK_THROWS_AS(solids::write_volume(dir / "t.mesh", short_positions, level.cells), DimensionError);
  CHECK(dir.names().empty());
}

}  // namespace spmesh::test::solid_write
