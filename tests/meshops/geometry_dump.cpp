// geometry_dump MESH OUT_DIR: the mesh (cut into triangles: meshops::triangulate, fan) as
// OUT_DIR/mesh.obj and what spmesh computes of it on the CPU, every double to 17 digits, for
// libigl_check.py to compare with libigl: the cotangent Laplacian, barycentric and full mass
// matrices, uniform Laplacian and face adjacency as OUT_DIR/{cotangent,barycentric,full,uniform,
// faces}.txt (a line "i j value" an entry); a line a vertex of the vertex normals (normals.txt,
// "x y z"), angle defects, mean curvature, heat-method distance from vertex 0 and vertex
// components (defects.txt, mean.txt, distance.txt, vertex_components.txt); a line a face of the
// face components (face_components.txt).
#include "linalg/cpu/executor.hpp"
#include "meshops/components.hpp"
#include "meshops/curvature.hpp"
#include "meshops/geodesics.hpp"
#include "meshops/io.hpp"
#include "meshops/laplacian.hpp"
#include "meshops/normals.hpp"
#include "meshops/triangulate.hpp"

#include <cstdio>
#include <exception>
#include <string>

using namespace spmesh;

namespace {

template <class T>
void write(const std::string& path, const linalg::Csr<T>& A) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) throw Error(path + ": cannot be written");
  for (index_t i = 0; i < A.rows; ++i)
    for (index_t p = A.offsets[i]; p < A.offsets[i + 1]; ++p) std::fprintf(f, "%d %d %.17g\n", i, A.indices[p], double(A.values[p]));
  std::fclose(f);
}

template <class T>
void write(const std::string& path, const linalg::Array<T>& values) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) throw Error(path + ": cannot be written");
  for (index_t i = 0; i < values.size(); ++i) std::fprintf(f, "%.17g\n", double(values[i]));
  std::fclose(f);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: geometry_dump MESH OUT_DIR\n");
    return 2;
  }
  try {
    const std::string out = argv[2];
    const auto mesh = meshops::triangulate(meshops::read_mesh(argv[1]));
    std::FILE* obj = std::fopen((out + "/mesh.obj").c_str(), "w");
    if (!obj) throw Error(out + "/mesh.obj: cannot be written");
    for (index_t v = 0; v < mesh.vertex_count(); ++v)
      std::fprintf(obj, "v %.17g %.17g %.17g\n", mesh.positions(v, 0), mesh.positions(v, 1), mesh.positions(v, 2));
    for (index_t f = 0; f < mesh.face_count(); ++f) {
      const index_t* corner = mesh.M.indices.data() + mesh.M.offsets[f];
      std::fprintf(obj, "f %d %d %d\n", corner[0] + 1, corner[1] + 1, corner[2] + 1);
    }
    std::fclose(obj);
    linalg::cpu::Executor exec;
    write(out + "/cotangent.txt", meshops::cotangent_laplacian(exec, mesh.M, mesh.positions));
    write(out + "/barycentric.txt", meshops::mass_matrix(exec, mesh.M, mesh.positions));
    write(out + "/full.txt", meshops::mass_matrix(exec, mesh.M, mesh.positions, meshops::MassMatrix::full));
    write(out + "/uniform.txt", meshops::uniform_laplacian(exec, mesh.M));
    const auto N = meshops::vertex_normals(exec, mesh.M, mesh.positions);
    std::FILE* normals = std::fopen((out + "/normals.txt").c_str(), "w");
    if (!normals) throw Error(out + "/normals.txt: cannot be written");
    for (index_t v = 0; v < N.rows; ++v) std::fprintf(normals, "%.17g %.17g %.17g\n", N(v, 0), N(v, 1), N(v, 2));
    std::fclose(normals);
    write(out + "/defects.txt", meshops::angle_defects(exec, mesh.M, mesh.positions));
    write(out + "/mean.txt", meshops::mean_curvature(exec, mesh.M, mesh.positions));
    linalg::Array<index_t> source(1);
    source[0] = 0;
    write(out + "/distance.txt", meshops::heat_geodesic(exec, mesh.M, mesh.positions, source).distance);
    write(out + "/faces.txt", meshops::face_adjacency(exec, mesh.M));
    write(out + "/vertex_components.txt", meshops::vertex_components(exec, mesh.M).component);
    write(out + "/face_components.txt", meshops::face_components(exec, mesh.M).component);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "geometry_dump: %s\n", e.what());
    return 1;
  }
  return 0;
}
