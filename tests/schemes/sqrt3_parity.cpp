// sqrt(3) against CGAL 5.5 (Sqrt3_subdivision) and OpenMesh 9 (Sqrt3T), levels 1-4: the same
// vertex positions within 1e-6 of the bounding-box diagonal as matched point sets (vertex
// orders differ), and the same triangles under that matching, orientation included. Closed
// meshes (an icosahedron, a triangulated torus, bigguyT, monsterfrogT, OpenSubdiv's
// loop_tetrahedron and loop_cube) check the interior rules (Eq. 29-31 and the flip); meshes
// with boundary (the bundled tent, carT and rookT without their crease tags, OpenSubdiv's
// loop_saddle_edgeonly, loop_triangle_edgeonly and loop_xord_interior) check Kobbelt's boundary
// rule, which both references implement the same way: boundary vertices fixed on the first,
// third, ... level, every boundary edge cut in three with (4, 19, 4) / 27 vertex smoothing on
// the second, fourth.
#include "bench/peers/sqrt3.hpp"
#include "linalg/cpu/executor.hpp"
#include "meshops/obj.hpp"
#include "meshops/triangulate.hpp"
#include "schemes/sqrt3/scheme.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace {

using namespace spmesh;
using test::PeerMesh;

const std::filesystem::path shared = std::filesystem::path(SPMESH_SHARED_DIR) / "meshes";

double diagonal(const linalg::Dense<double>& P) {
  double lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300};
  for (index_t i = 0; i < P.rows; ++i)
    for (int c = 0; c < 3; ++c) lo[c] = std::min(lo[c], P(i, c)), hi[c] = std::max(hi[c], P(i, c));
  return std::hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
}

// The vertex of `peer` at each of spmesh's vertices P: the nearest unmatched one within `tol`
// (candidates found by x in a sorted order); -1 where there is none. `worst` gets the largest
// distance matched.
std::vector<index_t> match(const linalg::Dense<double>& P, const PeerMesh& peer, double tol,
                           double& worst) {
  const index_t n = peer.vertices();
  std::vector<index_t> by_x(n);
  for (index_t i = 0; i < n; ++i) by_x[i] = i;
  const auto x = [&](index_t i) { return peer.positions[3 * i]; };
  std::sort(by_x.begin(), by_x.end(), [&](index_t a, index_t b) { return x(a) < x(b); });
  std::vector<char> used(n, 0);
  std::vector<index_t> m(P.rows, -1);
  for (index_t i = 0; i < P.rows; ++i) {
    auto it = std::lower_bound(by_x.begin(), by_x.end(), P(i, 0) - tol,
                               [&](index_t a, double v) { return x(a) < v; });
    double best = tol;
    for (; it != by_x.end() && x(*it) <= P(i, 0) + tol; ++it) {
      if (used[*it]) continue;
      const double* q = &peer.positions[3 * *it];
      const double d = std::hypot(P(i, 0) - q[0], P(i, 1) - q[1], P(i, 2) - q[2]);
      if (d <= best) best = d, m[i] = *it;
    }
    if (m[i] >= 0) used[m[i]] = 1, worst = std::max(worst, best);
  }
  return m;
}

// Triangles as sorted keys, each rotated to start at its smallest vertex (orientation kept).
std::vector<std::array<index_t, 3>> canonical(std::vector<std::array<index_t, 3>> t) {
  for (auto& f : t)
    while (f[0] > f[1] || f[0] > f[2]) f = {f[1], f[2], f[0]};
  std::sort(t.begin(), t.end());
  return t;
}

struct Peer {
  const char* name;
  std::function<PeerMesh(const meshops::PolyMesh&, int)> refine;
};

const std::vector<Peer> peers = {
#if defined(SPMESH_HAVE_CGAL)
    {"CGAL", test::cgal_sqrt3},
#endif
#if defined(SPMESH_HAVE_OPENMESH)
    {"OpenMesh", test::openmesh_sqrt3},
#endif
};

// Levels 1-4 of `mesh` by spmesh and by every peer; returns the largest position difference
// over the diagonal.
double compare(const meshops::PolyMesh& mesh) {
  linalg::cpu::Executor exec;
  const int levels = 4;
  const auto plan = schemes::build<schemes::Sqrt3>(exec, mesh.M.clone(),
                                          schemes::smooth_sharpness(mesh.vertex_count()), levels);
  const double diag = diagonal(mesh.positions), tol = 1e-6 * diag;
  double worst = 0;
  linalg::Dense<double> P = mesh.positions.clone();
  for (int l = 1; l <= levels; ++l) {
    P = schemes::subdivide(exec, plan.levels[l - 1], P);
    // Level l's triangles (on the half-edge path, a reduced mesh matrix).
    const auto [faces, corners] =
        l < levels ? std::visit([](const auto& L) { return std::pair(L.M.faces, L.M.indices.data()); },
                                plan.levels[l])
                   : std::pair(plan.refined.faces, plan.refined.indices.data());
    for (const auto& peer : peers) {
      CAPTURE(peer.name);
      CAPTURE(l);
      const PeerMesh ref = peer.refine(mesh, l);
      REQUIRE(ref.vertices() == P.rows);
      REQUIRE(ref.faces() == faces);
      const auto m = match(P, ref, tol, worst);
      REQUIRE_MESSAGE(std::count(m.begin(), m.end(), -1) == 0,
                      "vertices without a match within 1e-6 of the diagonal");
      std::vector<std::array<index_t, 3>> ours(faces), theirs(faces);
      for (index_t f = 0; f < faces; ++f) {
        const index_t* v = corners + 3 * f;
        ours[f] = {m[v[0]], m[v[1]], m[v[2]]};
        theirs[f] = {ref.triangles[3 * f], ref.triangles[3 * f + 1], ref.triangles[3 * f + 2]};
      }
      CHECK_MESSAGE(canonical(ours) == canonical(theirs), "the triangles differ");
    }
  }
  return worst / diag;
}

meshops::PolyMesh icosahedron() {
  const double t = (1 + std::sqrt(5.0)) / 2;
  const double p[12][3] = {{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0}, {0, -1, t}, {0, 1, t},
                           {0, -1, -t}, {0, 1, -t}, {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
  const std::vector<index_t> f = {0, 11, 5, 0, 5, 1, 0, 1, 7, 0, 7, 10, 0, 10, 11, 1, 5, 9,
                                  5, 11, 4, 11, 10, 2, 10, 7, 6, 7, 1, 8, 3, 9, 4, 3, 4, 2,
                                  3, 2, 6, 3, 6, 8, 3, 8, 9, 4, 9, 5, 2, 4, 11, 6, 2, 10,
                                  8, 6, 7, 9, 8, 1};
  meshops::PolyMesh mesh;
  mesh.positions = linalg::Dense<double>(12, 3);
  for (index_t i = 0; i < 12; ++i)
    for (int c = 0; c < 3; ++c) mesh.positions(i, c) = p[i][c];
  std::vector<index_t> offsets(21);
  for (index_t k = 0; k <= 20; ++k) offsets[k] = 3 * k;
  mesh.M = linalg::MeshMatrix<>(12, linalg::Array<index_t>(offsets), linalg::Array<index_t>(f));
  mesh.source = "icosahedron";
  return mesh;
}

meshops::PolyMesh triangulated(const std::string& path) {
  return meshops::triangulate(meshops::read_obj(path), meshops::Triangulation::shortest_diagonal);
}

}  // namespace

TEST_CASE("sqrt3 matches CGAL and OpenMesh on closed meshes and meshes with boundary, levels 1-4") {
  REQUIRE_MESSAGE(!peers.empty(), "built without CGAL and OpenMesh");
  std::vector<meshops::PolyMesh> meshes;
  meshes.push_back(icosahedron());
  meshes.push_back(triangulated(SPMESH_DATA_DIR "/meshes/torus.obj"));
  meshes.push_back(triangulated(SPMESH_DATA_DIR "/meshes/tent.obj"));
  if (std::filesystem::is_directory(shared)) {
    for (const char* name : {"bigguyT", "monsterfrogT", "carT", "rookT"})
      meshes.push_back(meshops::read_obj((shared / "characters" / (std::string(name) + ".obj")).string()));
    for (const char* name : {"loop_saddle_edgeonly", "loop_triangle_edgeonly", "loop_xord_interior",
                             "loop_tetrahedron", "loop_cube"})
      meshes.push_back(meshops::read_obj((shared / "opensubdiv" / (std::string(name) + ".obj")).string()));
  } else {
    MESSAGE("the shared meshes are not compared: " << shared << " not found");
  }
  double worst = 0;
  for (const auto& mesh : meshes) {
    CAPTURE(mesh.source);
    const double error = compare(mesh);
    MESSAGE(mesh.source << ": largest difference " << error << " of the diagonal");
    CHECK(error <= 1e-6);
    worst = std::max(worst, error);
  }
  MESSAGE("compared " << meshes.size() << " meshes with " << peers.size()
                      << " references; largest difference " << worst << " of the diagonal");
}
