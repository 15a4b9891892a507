// The README's "Using the library" example as a program: Catmull-Clark of a mesh (by default
// data/meshes/creased_cube.obj) three levels deep by build and eval, by the refinement matrix R,
// by a recorded eval and by build_and_eval, each checked against the others.
#include "examples/expect.hpp"
#include "linalg/cpu/executor.hpp"
#include "meshops/checks.hpp"
#include "meshops/io.hpp"
#include "schemes/catmull_clark/scheme.hpp"
#include "schemes/tags.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <set>
#include <string>
#include <utility>

using namespace spmesh;
using schemes::CatmullClark;
using examples::expect;

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : "data/meshes/creased_cube.obj";

  cpu::Executor exec;                                   // every operation takes an executor first
  auto mesh = meshops::read_mesh(path);
  meshops::check_mesh(mesh);                            // input checks before any work
  auto tags = schemes::read_tags(mesh);                 // creases, corners, boundary mode
  auto plan = schemes::build<CatmullClark>(exec, mesh.M.clone(), std::move(tags.sharpness), 3,
                                         schemes::options_from(tags));  // topology only
  auto P3 = schemes::eval(exec, plan, mesh.positions);  // vertex data: level by level, the last
                                                        // 3-4 levels of regular faces by patches;
                                                        // a level: subdivide(exec, plan, l, P)
  auto R = schemes::refinement_matrix<double>(exec, plan);  // R = S_3 S_2 S_1
  auto Q3 = linalg::spmm(exec, R, mesh.positions);      // replay: the same points, one SpMV
  auto frame_eval = exec.record([&] { return schemes::eval(exec, plan, mesh.positions); });
  const auto& P3_again = frame_eval.replay();           // eval again on the positions' present
                                                        // contents (GPU: one graph launch)

  // Each level of Catmull-Clark adds a point per face and per edge and makes a quad of every
  // face corner: V + F + E vertices, `corners` faces and 2E + corners edges.
  std::set<std::pair<index_t, index_t>> sides;  // the base mesh's edges, counted by hand
  for (index_t f = 0; f < mesh.face_count(); ++f) {
    const index_t first = mesh.M.offsets[f], order = mesh.M.offsets[f + 1] - first;
    for (index_t a = 0; a < order; ++a) {
      const index_t i = mesh.M.indices[first + a], j = mesh.M.indices[first + (a + 1) % order];
      sides.insert({std::min(i, j), std::max(i, j)});
    }
  }
  std::int64_t V = mesh.vertex_count(), F = mesh.face_count(), C = mesh.M.nnz();
  std::int64_t E = std::int64_t(sides.size());
  for (int level = 0; level < 3; ++level) {
    const std::int64_t vertices = V + F + E, faces = C, edges = 2 * E + C;
    V = vertices, F = faces, C = 4 * faces, E = edges;
  }
  expect(plan.refined.vertices == V && P3.rows == V, "eval gives V + F + E vertices per level");
  expect(plan.refined.faces == F, "every face corner becomes a quad");
  expect(R.rows == P3.rows && R.cols == mesh.vertex_count(),
         "R maps the base vertices to the refined ones");
  expect(examples::max_difference(Q3, P3) <= 1e-12, "R P0 gives eval's points to 1e-12");
  expect(examples::same_bits(P3_again, P3), "a replay of the recorded eval gives eval's bits");

  // Vertex points keep their ids (they come first at every level), and the top face's rim
  // (vertices 1, 5, 7, 3 of creased_cube.obj, tagged infinitely sharp, all at z = 1) is a
  // crease curve whose masks only mix points of the rim: it stays in the plane z = 1.
  if (path.ends_with("creased_cube.obj"))
    for (index_t rim : {1, 3, 5, 7})
      expect(std::abs(P3(rim, 2) - 1.0) <= 1e-12, "the infinitely sharp rim stays at z = 1");

  // Topology that changes every frame: build and eval in one pass, keeping no plan (the same
  // bits as eval(build(...)); at most two levels held at once, so less memory).
  auto frame = meshops::read_mesh(path);
  auto frame_tags = schemes::read_tags(frame);
  auto options = schemes::options_from(frame_tags);
  auto [faces, P] = schemes::build_and_eval<CatmullClark>(exec, std::move(frame.M),
                                                        std::move(frame_tags.sharpness), 3,
                                                        frame.positions, options);  // a RefinedMesh

  expect(examples::same_bits(P, P3), "build_and_eval gives eval(build(...))'s bits");
  expect(faces.faces == plan.refined.faces && faces.order == plan.refined.order &&
             faces.indices.size() == plan.refined.indices.size() &&
             std::equal(faces.indices.data(), faces.indices.data() + faces.indices.size(),
                        plan.refined.indices.data()),
         "build_and_eval gives the plan's refined faces");

  std::printf("%s, Catmull-Clark 3 levels: %d -> %d vertices, %d -> %d faces; R %d x %d, %d "
              "non-zeros, max |R P0 - eval| = %.2g; replay and build_and_eval: eval's bits\n",
              path.c_str(), mesh.vertex_count(), P3.rows, mesh.face_count(), plan.refined.faces,
              R.rows, R.cols, R.nnz(), examples::max_difference(Q3, P3));
  return 0;
}
