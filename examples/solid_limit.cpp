// The README's solid limit example as a program: a volume mesh (by default data/meshes/block.mesh)
// refined once by Catmull-Clark solids, then the limit at the centre of every refined cell whose
// limit spmesh evaluates (a tricubic net: inside, or one face on the boundary), directly and as a
// matrix W of the refined points. Each result is checked.
#include "examples/expect.hpp"
#include "linalg/cpu/executor.hpp"
#include "linalg/spmv.hpp"
#include "solids/limit_at.hpp"
#include "solids/refine.hpp"
#include "solids/volume_io.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

using namespace spmesh;
using examples::expect;

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : "data/meshes/block.mesh";
  cpu::Executor exec;
  const auto volume = solids::read_volume(path);
  const auto level = solids::refine(exec, volume.cells, solids::boundary_operators(exec, volume.cells),
                                    volume.positions);

  // The cells whose limit is a tricubic B-spline, and the limit at their centres: positions and
  // the derivatives along u, v, w; the same as matrices W of the points (one SpMV a pose).
  const auto nets = solids::cell_nets(exec, level.cells, solids::boundary_operators(exec, level.cells));
  std::vector<index_t> cells;
  for (index_t c = 0; c < level.cells.cells(); ++c)
    if (nets.kinds[c] != solids::no_net) cells.push_back(c);
  const index_t n = index_t(cells.size());
  const linalg::Array<double> u(n, 0.5), v(n, 0.5), w(n, 0.5);
  const auto limit = solids::limit_at_cells(exec, nets, linalg::Array<index_t>(cells), u, v, w, level.positions);
  const auto W = solids::limit_matrices_at_cells<double>(exec, nets, linalg::Array<index_t>(cells), u, v, w,
                                                         level.positions.rows);
  const auto again = linalg::spmm(exec, W.position, level.positions);

  expect(n == nets.cells && n > 0, "every cell with a net evaluated");
  expect(examples::max_difference(again, limit.position) <= 1e-12, "W P is the limit");
  // At each cell's centre the derivatives span a volume turned as the cell is (the block's limit
  // is not inverted there).
  for (index_t s = 0; s < n; ++s) {
    const double* du = &limit.du(s, 0);
    const double* dv = &limit.dv(s, 0);
    const double* dw = &limit.dw(s, 0);
    const double jacobian = du[0] * (dv[1] * dw[2] - dv[2] * dw[1]) - du[1] * (dv[0] * dw[2] - dv[2] * dw[0]) +
                            du[2] * (dv[0] * dw[1] - dv[1] * dw[0]);
    expect(jacobian > 0, "a positive Jacobian at every cell's centre");
  }
  std::printf("%s refined once: the limit at the centres of %d of its %d cells\n", path.c_str(), int(n),
              int(level.cells.cells()));
  return 0;
}
