// Prints what spmesh reads of a volume file (.mesh, .vtk, .msh: points, then cells as vertex
// lists counted from 0), for meshio_check.py to compare with meshio's reading of the same file;
// with OUT (.vtu or .mesh), also writes what it read there, for meshio to read back.
#include "solids/volume_io.hpp"
#include "solids/write.hpp"

#include <cstdio>

int main(int argc, char** argv) {
  if (argc != 2 && argc != 3) return std::fprintf(stderr, "usage: volume_dump FILE.mesh|.vtk|.msh [OUT.vtu|OUT.mesh]\n"), 2;
  try {
    const auto mesh = spmesh::solids::read_volume(argv[1]);
    if (argc == 3) spmesh::solids::write_volume(argv[2], mesh.positions, mesh.cells);
    std::printf("points %d\n", mesh.vertex_count());
    for (spmesh::index_t v = 0; v < mesh.vertex_count(); ++v)
      std::printf("%.17g %.17g %.17g\n", mesh.positions(v, 0), mesh.positions(v, 1), mesh.positions(v, 2));
    std::printf("cells %d\n", mesh.cell_count());
    for (spmesh::index_t c = 0; c < mesh.cell_count(); ++c) {
      for (auto p = mesh.cells.offsets[c]; p < mesh.cells.offsets[c + 1]; ++p)
        std::printf(p == mesh.cells.offsets[c] ? "%d" : " %d", mesh.cells.indices[p]);
      std::printf("\n");
    }
  } catch (const std::exception& e) {
    return std::fprintf(stderr, "%s\n", e.what()), 1;
  }
}
