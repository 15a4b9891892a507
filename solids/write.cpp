// The volume writers (write.hpp): .vtu and .vtk laid out (meshops/layout.hpp: their size is known,
// so each is reserved whole and filled in parallel), .mesh formatted in parallel and streamed.
#include "solids/write.hpp"

#include "meshops/checks.hpp"
#include "meshops/emit.hpp"
#include "meshops/io.hpp"
#include "meshops/layout.hpp"
#include "solids/polyhedra.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <type_traits>
#include <variant>

namespace spmesh::solids {

namespace {

static_assert(std::endian::native == std::endian::little, "the .vtu writer stores little-endian bytes");

// VTK's cell type and the order VTK lists a cell's vertices in, from spmesh's (cells.hpp).
int vtk_type(const CellShape& shape) {
  return shape.polyhedron() ? 42 : shape.corners == 4 ? 10 : shape.corners == 6 ? 13 : 12;
}
int vtk_corner(const CellShape& shape, int k) {
  constexpr int wedge[6] = {0, 2, 1, 3, 5, 4};
  return !shape.polyhedron() && shape.corners == 6 ? wedge[k] : k;
}

// Each cell's VTK face stream, [face count, n_0, ids of face 0..., n_1, ...], for a polyhedron;
// empty for a kind, and for every cell of a mesh without polyhedra.
std::vector<std::vector<std::int32_t>> vtk_face_streams(const CellMesh<>& cells) {
  std::vector<std::vector<std::int32_t>> out(cells.has_polyhedra() ? std::size_t(cells.cells()) : 0);
  const CellsView view = cells.view();
  for (std::size_t c = 0; c < out.size(); ++c) {
    const CellShape shape = view.shape(index_t(c));
    if (!shape.polyhedron()) continue;
    out[c].push_back(shape.faces());
    for (int f = 0; f < shape.faces(); ++f) {
      out[c].push_back(shape.face_size(f));
      for (int k = 0; k < shape.face_size(f); ++k) out[c].push_back(std::int32_t(view.vertex(index_t(c), shape.corner(f, k))));
    }
  }
  return out;
}

// A layout section of values it keeps.
template <class V>
void add_owned(meshops::FileLayout& layout, std::vector<V> values) {
  const auto held = std::make_shared<std::vector<V>>(std::move(values));
  layout.add(sizeof(V) * held->size(), [held](char* out, std::size_t b, std::size_t e) {
    std::memcpy(out, reinterpret_cast<const char*>(held->data()) + b, e - b);
  });
}

template <class T>
void check_volume(const std::string& source, const linalg::Dense<T>& positions, const CellMesh<>& cells) {
  if (positions.rows != cells.vertices || positions.cols != 3)
    throw DimensionError(source + ": positions are " + std::to_string(positions.rows) + " x " +
                         std::to_string(positions.cols) + ", the cells need " +
                         std::to_string(cells.vertices) + " x 3");
  try {
    check_polyhedra(cells);
  } catch (const InputError& e) {
    throw InputError(source + ": " + e.what());
  }
  for (index_t c = 0; c < cells.cells(); ++c) {
    const CellShape shape = cells.view().shape(c);
    if (!shape.polyhedron() && cell_faces(shape.corners) == 0)
      throw InputError(source + ": cell " + std::to_string(c) + " is " + describe_cell(shape.corners) +
                       ", which spmesh does not write (ids count from 0)");
    for (index_t p = cells.offsets[c]; p < cells.offsets[c + 1]; ++p)
      if (cells.indices[p] < 0 || cells.indices[p] >= cells.vertices)
        throw InputError(source + ": cell " + std::to_string(c) + " names vertex " +
                         std::to_string(cells.indices[p]) + ", out of range (ids count from 0)");
  }
  meshops::check_finite(source, positions);
}

// A data array's VTK type, its values' bytes and their count.
struct ValuesView {
  const char* type;
  const void* bytes;
  std::size_t count, size;
};
ValuesView values_view(const NamedValues& named) {
  return std::visit(
      [](const auto& v) {
        using V = typename std::decay_t<decltype(v)>::value_type;
        const char* type = std::is_same_v<V, float> ? "Float32" : std::is_same_v<V, double> ? "Float64" : "Int32";
        return ValuesView{type, static_cast<const void*>(v.data()), v.size(), sizeof(V) * v.size()};
      },
      named.values);
}

// The .vtu file: an XML header naming each array's place in the appended data, then each array
// as a 64-bit byte count and its little-endian bytes: the points, the cells' arrays, then
// `data`'s (PointData and CellData, before Points in the header as VTK writes them).
template <class T>
meshops::FileLayout vtu_layout(const linalg::Dense<T>& positions, const CellMesh<>& cells, const VolumeData& data) {
  const index_t count = cells.cells();
  // The polyhedra's face streams and, for every cell, where its stream ends (-1 for a kind).
  std::vector<std::int32_t> faces, face_ends;
  for (const auto& stream : vtk_face_streams(cells)) {
    faces.insert(faces.end(), stream.begin(), stream.end());
    face_ends.push_back(stream.empty() ? -1 : std::int32_t(faces.size()));
  }
  const int arrays = cells.has_polyhedra() ? 6 : 4;
  const std::size_t sizes[6] = {sizeof(T) * 3 * std::size_t(positions.rows), 4 * std::size_t(cells.indices.size()),
                                4 * std::size_t(count), std::size_t(count), 4 * faces.size(), 4 * face_ends.size()};
  std::size_t at[6], next = 0;
  for (int a = 0; a < arrays; ++a) at[a] = next, next += 8 + sizes[a];
  // The data arrays' elements, each at its place after the mesh's arrays.
  std::vector<ValuesView> data_views;
  auto data_section = [&](const char* tag, const std::vector<NamedValues>& list) {
    if (list.empty()) return std::string();
    std::string xml = std::string("<") + tag + ">\n";
    for (const auto& named : list) {
      const ValuesView values = values_view(named);
      xml += std::string("<DataArray type=\"") + values.type + "\" Name=\"" + named.name +
             "\" format=\"appended\" offset=\"" + std::to_string(next) + "\"/>\n";
      next += 8 + values.size;
      data_views.push_back(values);
    }
    return xml + "</" + tag + ">\n";
  };
  const std::string point_data = data_section("PointData", data.points);
  const std::string cell_data = data_section("CellData", data.cells);
  const char* real = std::is_same_v<T, float> ? "Float32" : "Float64";
  std::string head =
      "<?xml version=\"1.0\"?>\n"
      "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n"
      "<UnstructuredGrid>\n<Piece NumberOfPoints=\"" + std::to_string(positions.rows) +
      "\" NumberOfCells=\"" + std::to_string(count) + "\">\n" + point_data + cell_data +
      "<Points>\n<DataArray type=\"" + real +
      "\" Name=\"Points\" NumberOfComponents=\"3\" format=\"appended\" offset=\"" + std::to_string(at[0]) +
      "\"/>\n</Points>\n<Cells>\n"
      "<DataArray type=\"Int32\" Name=\"connectivity\" format=\"appended\" offset=\"" + std::to_string(at[1]) + "\"/>\n"
      "<DataArray type=\"Int32\" Name=\"offsets\" format=\"appended\" offset=\"" + std::to_string(at[2]) + "\"/>\n"
      "<DataArray type=\"UInt8\" Name=\"types\" format=\"appended\" offset=\"" + std::to_string(at[3]) + "\"/>\n" +
      (arrays == 6 ? "<DataArray type=\"Int32\" Name=\"faces\" format=\"appended\" offset=\"" + std::to_string(at[4]) +
                         "\"/>\n<DataArray type=\"Int32\" Name=\"faceoffsets\" format=\"appended\" offset=\"" +
                         std::to_string(at[5]) + "\"/>\n"
                   : "") +
      "</Cells>\n</Piece>\n</UnstructuredGrid>\n<AppendedData encoding=\"raw\">\n_";
  auto byte_count = [](std::size_t n) {
    const std::uint64_t bytes = n;
    return std::string(reinterpret_cast<const char*>(&bytes), 8);
  };
  std::string counts[6], tail = "\n</AppendedData>\n</VTKFile>\n";
  for (int a = 0; a < arrays; ++a) counts[a] = byte_count(sizes[a]);
  meshops::FileLayout layout;
  auto text = [&layout](std::string s) {
    const std::size_t n = s.size();
    layout.add(n, [s = std::move(s)](char* out, std::size_t b, std::size_t e) { std::memcpy(out, s.data() + b, e - b); });
  };
  const index_t *offsets = cells.offsets.data(), *indices = cells.indices.data();
  const CellsView view = cells.view();
  text(std::move(head));
  text(counts[0]);
  layout.add_bytes(positions.data.data(), sizes[0]);
  text(counts[1]);
  layout.add_records(
      count, [offsets](index_t c) { return 4 * std::size_t(offsets[c]); },
      [offsets, indices, view](char* out, index_t c) {
        const CellShape shape = view.shape(c);
        for (int k = 0; k < shape.corners; ++k) {
          const std::int32_t v = indices[offsets[c] + vtk_corner(shape, k)];
          std::memcpy(out + 4 * k, &v, 4);
        }
      });
  text(counts[2]);
  layout.add_bytes(offsets + 1, sizes[2]);  // each cell's end: VTK's offsets
  text(counts[3]);
  layout.add_records(
      count, [](index_t c) { return std::size_t(c); },
      [view](char* out, index_t c) { *out = static_cast<char>(vtk_type(view.shape(c))); });
  if (arrays == 6) {
    text(counts[4]);
    add_owned(layout, std::move(faces));
    text(counts[5]);
    add_owned(layout, std::move(face_ends));
  }
  for (const ValuesView& values : data_views) {
    text(byte_count(values.size));
    layout.add_bytes(values.bytes, values.size);
  }
  text(std::move(tail));
  return layout;
}

// A value's bytes in big-endian order, as VTK legacy binary files hold them.
template <class V>
void put_big_endian(char* out, V value) {
  std::memcpy(out, &value, sizeof(V));
  std::reverse(out, out + sizeof(V));
}

// The .vtk file (legacy 4.2, binary, which every VTK reads): POINTS, then CELLS as each cell's
// vertex count and ids, then CELL_TYPES, all big-endian.
template <class T>
meshops::FileLayout vtk_layout(const linalg::Dense<T>& positions, const CellMesh<>& cells) {
  const index_t count = cells.cells(), vertices = positions.rows;
  meshops::FileLayout layout;
  auto text = [&layout](std::string s) {
    const std::size_t n = s.size();
    layout.add(n, [s = std::move(s)](char* out, std::size_t b, std::size_t e) { std::memcpy(out, s.data() + b, e - b); });
  };
  const index_t *offsets = cells.offsets.data(), *indices = cells.indices.data();
  const CellsView view = cells.view();
  const T* p = positions.data.data();
  // Where each cell's entry starts in CELLS (in values): a count, then its ids or, for a
  // polyhedron, its face stream.
  const auto streams = std::make_shared<const std::vector<std::vector<std::int32_t>>>(vtk_face_streams(cells));
  std::vector<std::size_t> entry_at;
  if (!streams->empty()) {
    entry_at.push_back(0);
    for (index_t c = 0; c < count; ++c) {
      const auto& stream = (*streams)[std::size_t(c)];
      entry_at.push_back(entry_at.back() + 1 + (stream.empty() ? std::size_t(view.corners(c)) : stream.size()));
    }
  }
  const std::size_t values = entry_at.empty() ? std::size_t(count) + std::size_t(cells.indices.size()) : entry_at.back();
  text("# vtk DataFile Version 4.2\nspmesh\nBINARY\nDATASET UNSTRUCTURED_GRID\nPOINTS " + std::to_string(vertices) +
       (std::is_same_v<T, float> ? " float\n" : " double\n"));
  layout.add_records(
      vertices, [](index_t v) { return 3 * sizeof(T) * std::size_t(v); },
      [p](char* out, index_t v) {
        for (int x = 0; x < 3; ++x) put_big_endian(out + sizeof(T) * x, p[3 * std::size_t(v) + x]);
      });
  text("\nCELLS " + std::to_string(count) + " " + std::to_string(values) + "\n");
  layout.add_records(
      count,
      [offsets, entry_at = std::move(entry_at)](index_t c) {
        return 4 * (entry_at.empty() ? std::size_t(offsets[c]) + std::size_t(c) : entry_at[std::size_t(c)]);
      },
      [offsets, indices, view, streams](char* out, index_t c) {
        const CellShape shape = view.shape(c);
        if (shape.polyhedron()) {
          const auto& stream = (*streams)[std::size_t(c)];
          put_big_endian(out, std::int32_t(stream.size()));
          for (std::size_t k = 0; k < stream.size(); ++k) put_big_endian(out + 4 * (k + 1), stream[k]);
          return;
        }
        put_big_endian(out, std::int32_t(shape.corners));
        for (int k = 0; k < shape.corners; ++k)
          put_big_endian(out + 4 * (k + 1), std::int32_t(indices[offsets[c] + vtk_corner(shape, k)]));
      });
  text("\nCELL_TYPES " + std::to_string(count) + "\n");
  layout.add_records(
      count, [](index_t c) { return 4 * std::size_t(c); },
      [view](char* out, index_t c) { put_big_endian(out, std::int32_t(vtk_type(view.shape(c)))); });
  text("\n");
  return layout;
}

template <class T>
void put_real(std::string& text, T x) {
  char s[40];
  const auto r = std::to_chars(s, s + sizeof s, x, std::chars_format::general, std::numeric_limits<T>::max_digits10);
  text.append(s, r.ptr);
}

// The .mesh file: the vertices, then a section per kind of cell, ids from 1.
template <class T>
void emit_medit(std::ostream& out, const linalg::Dense<T>& positions, const CellMesh<>& cells) {
  out << "MeshVersionFormatted 2\nDimension 3\nVertices\n" << positions.rows << "\n";
  meshops::emit_in_parallel(out, positions.rows, 80, [&](std::string& text, index_t begin, index_t end) {
    for (index_t v = begin; v < end; ++v) {
      for (index_t c = 0; c < 3; ++c) put_real(text, positions(v, c)), text += ' ';
      text += "0\n";
    }
  });
  // A section per kind, in the order the kinds first appear: cells grouped by kind keep their order.
  std::vector<index_t> kinds;
  for (index_t c = 0; c < cells.cells(); ++c)
    if (const index_t n = cells.offsets[c + 1] - cells.offsets[c]; std::find(kinds.begin(), kinds.end(), n) == kinds.end())
      kinds.push_back(n);
  for (const index_t corners : kinds) {
    std::vector<index_t> kind;
    for (index_t c = 0; c < cells.cells(); ++c)
      if (cells.offsets[c + 1] - cells.offsets[c] == corners) kind.push_back(c);
    out << (corners == 4 ? "Tetrahedra" : corners == 6 ? "Prisms" : "Hexahedra") << "\n" << kind.size() << "\n";
    meshops::emit_in_parallel(out, index_t(kind.size()), std::size_t(12 * corners + 4),
                              [&](std::string& text, index_t begin, index_t end) {
                                char s[16];
                                for (index_t i = begin; i < end; ++i) {
                                  const index_t c = kind[std::size_t(i)];
                                  for (index_t p = cells.offsets[c]; p < cells.offsets[c + 1]; ++p)
                                    text.append(s, std::to_chars(s, s + sizeof s, cells.indices[p] + 1).ptr), text += ' ';
                                  text += "0\n";
                                }
                              });
  }
  out << "End\n";
}

// Checks `data` against the points and cells it goes with and the format it is written in.
void check_data(const std::string& path, VolumeFormat format, index_t points, index_t cells, const VolumeData& data) {
  for (const auto* list : {&data.points, &data.cells})
    for (const NamedValues& named : *list) {
      const bool at_points = list == &data.points;
      if (format != VolumeFormat::vtu)
        throw InputError(path + ": the " + (at_points ? "point" : "cell") + " data '" + named.name +
                         "' is written to .vtu only (give a path ending in .vtu)");
      if (named.name.empty() || named.name.find_first_of("\"<>&") != std::string::npos)
        throw InputError(path + ": the data array name '" + named.name + "' is empty or needs XML escapes");
      const std::size_t count = values_view(named).count, want = std::size_t(at_points ? points : cells);
      if (count != want)
        throw DimensionError(path + ": the data '" + named.name + "' has " + std::to_string(count) + " values for " +
                             std::to_string(want) + (at_points ? " points" : " cells"));
    }
}

template <class T>
void write_to(meshops::OutputFiles& outputs, const std::string& path, VolumeFormat format,
              const std::string& source, const linalg::Dense<T>& positions, const CellMesh<>& cells,
              const VolumeData& data) {
  check_volume(source, positions, cells);
  check_data(path, format, positions.rows, cells.cells(), data);
  if (const index_t c = first_polyhedron(cells); format == VolumeFormat::medit && c >= 0)
    throw InputError(source + ": cell " + std::to_string(c) + " is " + describe_cell(cells.view().shape(c)) +
                     ": Medit's .mesh holds no polyhedra (write .vtu or .vtk, or refine a level first; ids count "
                     "from 0)");
  if (format == VolumeFormat::vtu)
    outputs.write(path, vtu_layout(positions, cells, data));
  else if (format == VolumeFormat::vtk)
    outputs.write(path, vtk_layout(positions, cells));
  else
    outputs.write(path, [&](std::ostream& out) { emit_medit(out, positions, cells); });
}

template <class T>
void write_file(const std::string& path, const linalg::Dense<T>& positions, const CellMesh<>& cells) {
  const VolumeFormat format = volume_output_format(path);
  meshops::OutputFiles outputs;
  outputs.add(path);
  write_to(outputs, path, format, path, positions, cells, {});
  outputs.commit();
}

}  // namespace

VolumeFormat volume_output_format(const std::string& path) {
  const std::string ext = meshops::extension(path);
  if (ext == ".vtu") return VolumeFormat::vtu;
  if (ext == ".mesh") return VolumeFormat::medit;
  if (ext == ".vtk") return VolumeFormat::vtk;
  throw InputError(path + ": cannot write a volume mesh with " + meshops::describe_extension(ext) +
                   " (spmesh writes .vtu, .vtk and .mesh)");
}

void write_volume(meshops::OutputFiles& outputs, const std::string& path, VolumeFormat format,
                  const std::string& source, const linalg::Dense<double>& positions, const CellMesh<>& cells,
                  const VolumeData& data) {
  write_to(outputs, path, format, source, positions, cells, data);
}
void write_volume(meshops::OutputFiles& outputs, const std::string& path, VolumeFormat format,
                  const std::string& source, const linalg::Dense<float>& positions, const CellMesh<>& cells,
                  const VolumeData& data) {
  write_to(outputs, path, format, source, positions, cells, data);
}
void write_volume(const std::string& path, const linalg::Dense<double>& positions, const CellMesh<>& cells) {
  write_file(path, positions, cells);
}
void write_volume(const std::string& path, const linalg::Dense<float>& positions, const CellMesh<>& cells) {
  write_file(path, positions, cells);
}

}  // namespace spmesh::solids
