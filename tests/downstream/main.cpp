// A downstream program built against the installed spmesh package: Catmull-Clark of the mesh
// given (a closed quad mesh) two levels deep, then its cotangent Laplacian on the refined mesh cut
// into triangles; the counts and the Laplacian's zero row sums checked. Exit 0 when they hold.
#include "linalg/cpu/executor.hpp"
#include "meshops/io.hpp"
#include "meshops/laplacian.hpp"
#include "meshops/triangulate.hpp"
#include "schemes/catmull_clark/scheme.hpp"
#include "schemes/tags.hpp"

#include <cmath>
#include <cstdio>
#include <exception>

int main(int argc, char** argv) {
  using namespace spmesh;
  if (argc != 2) return std::fprintf(stderr, "usage: downstream MESH.obj\n"), 2;
  try {
    cpu::Executor exec;
    auto mesh = meshops::read_mesh(argv[1]);
    auto tags = schemes::read_tags(mesh);
    auto plan = schemes::build<schemes::CatmullClark>(exec, mesh.M.clone(), std::move(tags.sharpness), 2,
                                                      schemes::options_from(tags));
    const meshops::PolyMesh refined{schemes::eval(exec, plan, mesh.positions), plan.refined.mesh(), {}, "refined"};
    const auto triangles = meshops::triangulate(refined);
    const auto L = meshops::cotangent_laplacian(exec, triangles.M, triangles.positions);
    double worst_row_sum = 0;
    for (index_t i = 0; i < L.rows; ++i) {
      double sum = 0;
      for (index_t p = L.offsets[i]; p < L.offsets[i + 1]; ++p) sum += L.values[p];
      worst_row_sum = std::max(worst_row_sum, std::abs(sum));
    }
    std::printf("downstream: %d -> %d faces, L %d x %d with %d entries, largest row sum %.1e\n", mesh.face_count(),
                refined.face_count(), L.rows, L.cols, L.nnz(), worst_row_sum);
    return refined.face_count() == 16 * mesh.face_count() && L.rows == refined.vertex_count() && worst_row_sum < 1e-12 ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "downstream: %s\n", e.what());
    return 1;
  }
}
