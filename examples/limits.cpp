// The README's limit and patch example as a program: the limit surface at the vertices of a
// mesh's level 2 (by default data/meshes/creased_cube.obj), as points and tangents and as
// matrices W of the base vertices; and a batch of bicubic Bezier patches on a grid, their
// levels 3 and 2 kept between evaluations. Each result is checked.
#include "examples/expect.hpp"
#include "linalg/cpu/executor.hpp"
#include "linalg/spmv.hpp"
#include "meshops/checks.hpp"
#include "meshops/io.hpp"
#include "schemes/catmull_clark/scheme.hpp"
#include "schemes/limit.hpp"
#include "schemes/patches/evaluator.hpp"
#include "schemes/tags.hpp"

#include <cmath>
#include <string>
#include <utility>

using namespace spmesh;
using schemes::CatmullClark;
using examples::expect;

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : "data/meshes/creased_cube.obj";
  cpu::Executor exec;
  auto mesh = meshops::read_mesh(path);
  meshops::check_mesh(mesh);
  auto tags = schemes::read_tags(mesh);
  const auto options = schemes::options_from(tags);
  auto sharpness = [&] {
    auto& s = tags.sharpness;
    return schemes::Sharpness<>{{s.edges.rows, s.edges.cols, s.edges.row_indices.clone(), s.edges.col_indices.clone(),
                                 s.edges.values.clone()},
                                s.vertices.clone()};
  };

  // The limit surface at level 2's vertices: positions and both tangents (OpenSubdiv's limit
  // masks, in subdivide's vertex order), and the same masks as matrices of the base vertices.
  auto limit = schemes::limit_at_vertices<CatmullClark>(exec, mesh.M.clone(), sharpness(), 2, mesh.positions,
                                                        options);
  auto W = schemes::limit_matrices<double, CatmullClark>(exec, mesh.M.clone(), sharpness(), 2, options);
  auto moved = linalg::spmm(exec, W.position, mesh.positions);  // a pose's limit: one SpMV

  // Bicubic Bezier patches, 64 x 64 points each with their u-derivatives; the basis at the grid
  // (level 2) and the binomials (level 3) are made once and kept while the grid stays.
  schemes::patches::GridEvaluator<double> grids;
  const schemes::patches::Grid u{schemes::patches::Basis::bernstein, 3, 64}, v = u;
  linalg::Dense<double> nets(2 * 16, 3);  // two patches' 4 x 4 control points, row by row
  for (index_t p = 0; p < nets.rows; ++p)
    for (index_t c = 0; c < 3; ++c) nets(p, c) = c == 2 ? double((p * 7) % 5) : double(c == 0 ? p % 4 : p / 4 % 4);
  auto points = grids.evaluate(exec, {u, v}, 2, nets);
  auto du = grids.evaluate(exec, {u, v}, 2, nets, {1, 0, 0});

  expect(limit.position.rows == limit.mesh.vertices && limit.mesh.faces == 16 * mesh.face_count(),
         "a limit point for every vertex of level 2");
  expect(examples::max_difference(moved, limit.position) <= 1e-12, "W P0 is the limit at the vertices");
  for (index_t i = 0; i < limit.position.rows; ++i) {
    double cross[3];
    for (int c = 0; c < 3; ++c)
      cross[c] = limit.tangent1(i, (c + 1) % 3) * limit.tangent2(i, (c + 2) % 3) -
                 limit.tangent1(i, (c + 2) % 3) * limit.tangent2(i, (c + 1) % 3);
    expect(std::hypot(cross[0], cross[1], cross[2]) > 0, "the tangents span a plane at every vertex");
  }
  expect(points.rows == 2 * 64 * 64 && du.rows == points.rows, "64 x 64 points a patch");
  for (index_t p = 0; p < 2; ++p)  // a Bezier patch passes through its corner control points
    for (index_t c = 0; c < 3; ++c)
      expect(points(p * 4096, c) == nets(p * 16, c) && points(p * 4096 + 4095, c) == nets(p * 16 + 15, c),
             "the patches interpolate their corners");
  expect(grids.counts().bases == 1 && grids.counts().binomials == 1, "one basis for both directions, kept");
  std::printf("limit: %d vertices; patches: %d points\n", int(limit.position.rows), int(points.rows));
  return 0;
}
