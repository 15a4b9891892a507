// Mesh files by extension, whole-file reading, and the tokens the text readers share.
#include "meshops/io.hpp"

#include "meshops/checks.hpp"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

namespace spmesh::meshops {

namespace {

// The extension in lower case, with its dot (".obj"); "" when there is none.
std::string extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

// For messages: "extension '.stl'" or "no extension".
std::string describe(const std::string& ext) {
  return ext.empty() ? "no extension" : "extension '" + ext + "'";
}

template <class T>
void write_by_extension(const std::string& path, const linalg::Dense<T>& positions,
                        const linalg::MeshMatrix<>& M) {
  const std::string ext = extension(path);
  if (ext == ".obj")
    write_obj(path, positions, M);
  else if (ext == ".ply")
    write_ply(path, positions, M);
  else
    throw InputError(path + ": cannot write a mesh file with " + describe(ext) +
                     " (write_mesh knows .obj and .ply)");
}

}  // namespace

std::string_view next_token(std::string_view& s) {
  std::size_t b = s.find_first_not_of(" \t\r\f\v");
  if (b == std::string_view::npos) return s = {}, std::string_view{};
  std::size_t e = s.find_first_of(" \t\r\f\v", b);
  if (e == std::string_view::npos) e = s.size();
  std::string_view tok = s.substr(b, e - b);
  s.remove_prefix(e);
  return tok;
}

std::string read_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw InputError(path + ": is a directory, not a mesh file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open for reading");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) throw InputError(path + ": read error");
  return std::move(bytes).str();
}

PolyMesh read_mesh(const std::string& path) {
  const std::string ext = extension(path);
  if (ext == ".obj") return read_obj(path);
  if (ext == ".off") return read_off(path);
  if (ext == ".ply") return read_ply(path);
  throw InputError(path + ": unknown mesh format, " + describe(ext) +
                   " (read_mesh knows .obj, .off and .ply)");
}

void write_mesh(const std::string& path, const linalg::Dense<double>& positions,
                const linalg::MeshMatrix<>& M) {
  write_by_extension(path, positions, M);
}
void write_mesh(const std::string& path, const linalg::Dense<float>& positions,
                const linalg::MeshMatrix<>& M) {
  write_by_extension(path, positions, M);
}

}  // namespace spmesh::meshops
