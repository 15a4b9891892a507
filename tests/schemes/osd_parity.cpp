// Catmull-Clark and Loop against OpenSubdiv 3.5 on every catmark_* and loop_* shape of
// ../shared/meshes/opensubdiv: levels 1-4, the boundary mode and crease method the tags ask for
// (both boundary modes where they ask none), positions within 1e-6 of the bounding-box diagonal
// and identical faces under the vertex correspondence below; for Catmull-Clark also the last
// level by patches (patch_eval.hpp), 1 to 4 levels deep.
//
// Vertex correspondence: OpenSubdiv numbers a refined level's vertices as spmesh does (vertex
// points, face points for Catmull-Clark, edge points) and its faces as spmesh does (children
// of face 0 in order, ...); only the edge numbering differs (spmesh: E's upper triangle;
// OpenSubdiv: its own edge list). So vertex i of level l is OpenSubdiv's m_l[i]: m_0 =
// identity, and m_(l+1)[v] = m_l[v], m_(l+1)[V + f] = V + f (Catmull-Clark), and the edge point
// of e, at P + e (P = V + F, or V for Loop), is P + e' where e' is OpenSubdiv's edge between
// m_l[from(e)] and m_l[to(e)].
//
// Not compared, because spmesh rejects them by name (the test checks that exactly these are):
// the non-manifold loop_nonman_edge100, loop_nonman_verts and loop_val2_interior; non-manifold
// meshes (catmark_fan, catmark_gregory_test4, catmark_nonman_edge100,
// catmark_nonman_edges, catmark_nonman_verts, catmark_val2_nonman; catmark_nonman_quadpole8 and
// _quadpole360 also repeat a vertex in a face) and hierarchical edits (catmark_square_hedit0-4).
// catmark_smoothtris1 asks for OpenSubdiv's smooth triangle rule, which Far is given too
// (spmesh builds it on the general path; its limit refuses it, so the limit parity skips it).
// catmark_edgenone
// (`interpolateboundary 0`) is compared with OpenSubdiv's VTX_BOUNDARY_NONE, which spmesh refines
// as edge-only. The `hole` shapes (catmark_hole_test1, 2, 4) are compared with their holes given
// to Far: the same points, and at every level a face is Far's hole exactly where spmesh's
// numbering (Scheme::base_face) says it descends from one, so schemes::without_holes keeps
// Far's faces that are no holes.
#include "bench/peers/opensubdiv.hpp"
#include "bench/peers/opensubdiv_bfr.hpp"
#include "linalg/cpu/executor.hpp"
#include "linalg/spmv.hpp"
#include "meshops/checks.hpp"
#include "meshops/io.hpp"
#include "meshops/obj.hpp"
#include "meshops/triangulate.hpp"
#include "schemes/catmull_clark/limit_at.hpp"
#include "schemes/catmull_clark/tessellation.hpp"
#include "schemes/holes.hpp"
#include "schemes/limit.hpp"
#include "schemes/loop/limit_at.hpp"
#include "schemes/loop/tessellation.hpp"
#include "schemes/schemes.hpp"
#include "wavy_fan.hpp"

#include <doctest/doctest.h>
#include <opensubdiv/bfr/parameterization.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <variant>
#include <vector>

namespace {

using namespace spmesh;
namespace cc = spmesh::schemes::catmull_clark;
using schemes::Boundary;
using OpenSubdiv::Sdc::SchemeType;

// What the comparison needs to know of a scheme.
struct CatmullClark {
  using Traits = schemes::CatmullClark;
  static constexpr const char* prefix = "catmark_";
  static constexpr SchemeType osd = OpenSubdiv::Sdc::SCHEME_CATMARK;
  // The last level by the plan's patches `depth` levels deep (patch_eval.hpp).
  template <class Plan>
  static linalg::Dense<double> by_patches(linalg::cpu::Executor& exec, Plan& plan, int depth,
                                          const linalg::Dense<double>& P0) {
    plan.patches = cc::find_patches(exec, plan, depth);
    return schemes::eval(exec, plan, P0);
  }
  // Visits a plan's level (polygon or quad) with its face-point count.
  template <class Level, class Visit>
  static void visit(const Level& level, Visit&& f) {
    std::visit([&](const auto& L) { f(L, L.faces); }, level);
  }
};
struct Loop {
  using Traits = schemes::Loop;
  static constexpr const char* prefix = "loop_";
  static constexpr SchemeType osd = OpenSubdiv::Sdc::SCHEME_LOOP;
  template <class Level, class Visit>
  static void visit(const Level& level, Visit&& f) {
    std::visit([&](const auto& L) { f(L, index_t(0)); }, level);
  }
};

// Each edge's ends, in the level's edge order.
template <class Level>
void edge_ends(const Level& L, std::vector<index_t>& from, std::vector<index_t>& to) {
  from.assign(L.edge_from.begin(), L.edge_from.end()), to.assign(L.edge_to.begin(), L.edge_to.end());
}
template <class Level>
requires std::is_base_of_v<schemes::HalfEdgeLevel<linalg::Host>, Level>
void edge_ends(const Level& L, std::vector<index_t>& from, std::vector<index_t>& to) {
  const auto t = view(L);
  from.assign(L.edges, -1), to.assign(L.edges, -1);
  for (index_t h = 0; h < L.edge_code.size(); ++h)
    if (L.edge_code[h] % 2 == 0)
      from[L.edge_code[h] / 2] = t.corners[h], to[L.edge_code[h] / 2] = t.corners[t.next(h)];
}

const std::filesystem::path shapes = std::filesystem::path(SPMESH_SHARED_DIR) / "meshes/opensubdiv";

double diagonal(const linalg::Dense<double>& P) {
  double lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300};
  for (index_t i = 0; i < P.rows; ++i)
    for (int c = 0; c < 3; ++c) lo[c] = std::min(lo[c], P(i, c)), hi[c] = std::max(hi[c], P(i, c));
  return std::hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
}

schemes::Sharpness<> clone(const schemes::Sharpness<>& s) {
  return {{s.edges.rows, s.edges.cols, s.edges.row_indices.clone(), s.edges.col_indices.clone(),
           s.edges.values.clone()},
          s.vertices.clone()};
}

// The shapes of one scheme (file names starting with `prefix`), sorted.
std::vector<std::filesystem::path> shapes_of(const std::string& prefix) {
  std::vector<std::filesystem::path> out;
  for (const auto& f : std::filesystem::directory_iterator(shapes))
    if (f.path().filename().string().starts_with(prefix)) out.push_back(f.path());
  std::sort(out.begin(), out.end());
  return out;
}

// The vertex correspondence (above) of level 0.
std::vector<index_t> identity_map(const meshops::PolyMesh& mesh) {
  std::vector<index_t> m(mesh.vertex_count());
  for (index_t i = 0; i < mesh.vertex_count(); ++i) m[i] = i;
  return m;
}
// m, level l - 1's correspondence, made level l's.
template <class Scheme, class Plan>
void extend_map(const Plan& plan, const test::OsdRefinement& osd, int l, std::vector<index_t>& m) {
  const auto& parent = osd.level(l - 1);
  Scheme::visit(plan.levels[l - 1], [&](const auto& L, index_t face_points) {
    std::vector<index_t> from, to;
    edge_ends(L, from, to);
    const index_t first_edge_point = L.vertices + face_points;
    m.resize(L.child_vertices());
    for (index_t e = 0; e < L.edges; ++e) {
      const int osd_edge = parent.FindEdge(m[from[e]], m[to[e]]);
      REQUIRE(osd_edge >= 0);
      m[first_edge_point + e] = first_edge_point + osd_edge;
    }
    for (index_t f = 0; f < face_points; ++f) m[L.vertices + f] = L.vertices + f;
  });
}

struct Checked {
  double max_error = 0;  // over all levels, relative to the diagonal
  int levels = 0;
  double patch_error = 0;  // the last level by patches (Catmull-Clark), every depth
};

// Refines `mesh` with spmesh and OpenSubdiv and compares every level (positions and faces).
template <class Scheme>
Checked compare(const meshops::PolyMesh& mesh, const schemes::TagSettings& tags,
                const schemes::Options& options, int levels, bool none) {
  linalg::cpu::Executor exec;
  auto plan = schemes::build<typename Scheme::Traits>(exec, mesh.M.clone(), clone(tags.sharpness),
                                                      levels, options);
  const auto osd = test::osd_refine(mesh, tags.sharpness, options, levels, none, Scheme::osd, tags.holes);
  const double diag = diagonal(mesh.positions);

  auto m = identity_map(mesh);
  linalg::Dense<double> P = mesh.positions.clone();
  Checked out;
  for (int l = 1; l <= levels; ++l) {
    extend_map<Scheme>(plan, osd, l, m);
    P = schemes::subdivide(exec, plan, l - 1, P);
    const auto& child = osd.level(l);
    REQUIRE(P.rows == child.GetNumVertices());
    const auto& Q = osd.positions[l];
    for (index_t i = 0; i < P.rows; ++i)
      for (int c = 0; c < 3; ++c)
        out.max_error = std::max(out.max_error, std::abs(P(i, c) - Q[3 * m[i] + c]) / diag);

    auto same_faces = [&](const auto& M) {
      REQUIRE(M.faces == child.GetNumFaces());
      const auto v = M.view();
      for (index_t f = 0; f < M.faces; ++f) {
        const auto osd_face = child.GetFaceVertices(f);
        REQUIRE(osd_face.size() == v.end(f) - v.begin(f));
        for (int a = 0; a < osd_face.size(); ++a)
          REQUIRE_MESSAGE(m[v.index(v.begin(f) + a)] == osd_face[a], "level ", l, " face ", f);
      }
    };
    if (l == levels) same_faces(plan.refined.mesh());
    else Scheme::visit(plan.levels[l], [&](const auto& L, index_t) { same_faces(L.M); });
    if (!tags.holes.empty()) {  // Far's holes are the faces that descend from spmesh's
      std::vector<int> open_faces;
      for (index_t f = 0; f < child.GetNumFaces(); ++f) {
        REQUIRE(child.IsFaceHole(f) == bool(tags.holes[std::size_t(Scheme::Traits::base_face(mesh.M, f, l))]));
        if (!child.IsFaceHole(f)) open_faces.push_back(int(f));
      }
      REQUIRE(open_faces.size() < std::size_t(child.GetNumFaces()));
      if (l == levels) {  // without_holes keeps Far's other faces, in order
        const auto open = schemes::without_holes<typename Scheme::Traits>(plan.refined.mesh(), mesh.M, tags.holes, l);
        REQUIRE(open.faces == index_t(open_faces.size()));
        for (index_t f = 0; f < open.faces; ++f) {
          const auto osd_face = child.GetFaceVertices(open_faces[std::size_t(f)]);
          REQUIRE(osd_face.size() == open.offsets[f + 1] - open.offsets[f]);
          for (int a = 0; a < osd_face.size(); ++a) CHECK(m[open.indices[open.offsets[f] + a]] == osd_face[a]);
        }
      }
    }
    out.levels = l;
  }
  if constexpr (requires { Scheme::by_patches(exec, plan, 1, P); })
    if (options.triangles != schemes::TriangleRule::smooth)  // a general-path plan: no patch levels
    for (int depth = 1; depth <= cc::max_patch_depth; ++depth) {
      const auto Pd = Scheme::by_patches(exec, plan, depth, mesh.positions);
      const auto& Q = osd.positions[levels];
      for (index_t i = 0; i < Pd.rows; ++i)
        for (int c = 0; c < 3; ++c)
          out.patch_error = std::max(out.patch_error, std::abs(Pd(i, c) - Q[3 * m[i] + c]) / diag);
    }
  return out;
}

// The largest differences of spmesh's limit positions and tangents at level `level`'s vertices
// (schemes/limit.hpp) from OpenSubdiv's Far::PrimvarRefiner::Limit there, over the diagonal; a
// Catmull-Clark base of polygons is compared at level 0 with OpenSubdiv's level 1 (its vertex
// points: limit.hpp says why).
struct LimitChecked {
  double position = 0, tangent = 0;
};
template <class Scheme>
LimitChecked compare_limits(const meshops::PolyMesh& mesh, const schemes::TagSettings& tags,
                            const schemes::Options& options, int level, bool none) {
  linalg::cpu::Executor exec;
  const auto got = schemes::limit_at_vertices<typename Scheme::Traits>(exec, mesh.M.clone(), clone(tags.sharpness), level,
                                                                      mesh.positions, options);
  const bool polygons = level == 0 && linalg::has_faces_other_than(exec, mesh.M, 4);
  const int osd_level = polygons && Scheme::osd == OpenSubdiv::Sdc::SCHEME_CATMARK ? 1 : level;
  const auto osd = test::osd_refine(mesh, tags.sharpness, options, osd_level, none, Scheme::osd);
  const auto expected = test::osd_limit(osd);
  const auto plan = schemes::build<typename Scheme::Traits>(exec, mesh.M.clone(), clone(tags.sharpness), osd_level, options);
  auto m = identity_map(mesh);
  for (int l = 1; l <= osd_level; ++l) extend_map<Scheme>(plan, osd, l, m);
  const double diag = diagonal(mesh.positions);
  LimitChecked out;
  REQUIRE(got.position.rows <= index_t(m.size()));
  for (index_t i = 0; i < got.position.rows; ++i)
    for (int c = 0; c < 3; ++c) {
      const std::size_t at = 3 * std::size_t(m[i]) + std::size_t(c);
      out.position = std::max(out.position, std::abs(got.position(i, c) - expected.position[at]) / diag);
      out.tangent = std::max({out.tangent, std::abs(got.tangent1(i, c) - expected.tangent1[at]) / diag,
                              std::abs(got.tangent2(i, c) - expected.tangent2[at]) / diag});
    }
  return out;
}

// The shapes of a scheme that spmesh takes, each in every boundary mode it asks for (both
// where it asks none): f(name, mesh, tags, options, none); returns the rejected names.
template <class Scheme, class F>
std::vector<std::string> for_each_shape(F&& f) {
  std::vector<std::string> rejected;
  for (const auto& path : shapes_of(Scheme::prefix)) {
    const auto mesh = meshops::read_obj(path.string());
    schemes::TagSettings tags;
    try {
      meshops::check_mesh(mesh);
      tags = schemes::read_tags(mesh, true);
    } catch (const InputError& e) {
      MESSAGE("not compared (rejected by spmesh): " << std::string(e.what()));
      rejected.push_back(path.stem().string());
      continue;
    }
    const bool none = std::any_of(mesh.tags.begin(), mesh.tags.end(), [](const meshops::Tag& t) {
      return t.name == "interpolateboundary" && t.ints == std::vector<int>{0};
    });
    std::vector<Boundary> modes = {Boundary::edge_only, Boundary::edge_and_corner};
    if (tags.boundary) modes = {*tags.boundary};
    for (Boundary mode : modes) {
      CAPTURE(path.filename().string());
      CAPTURE(mode == Boundary::edge_only ? "edge-only" : "edge-and-corner");
      f(mesh, tags, schemes::options_from(tags, mode), none);
    }
  }
  return rejected;
}

// Limits at levels 0 to 3 of every shape against OpenSubdiv's: positions and tangents within
// 1e-9 of the diagonal.
template <class Scheme>
void limit_parity(int expected_compared) {
  int compared = 0;
  LimitChecked worst;
  for_each_shape<Scheme>([&](const meshops::PolyMesh& mesh, const schemes::TagSettings& tags,
                             const schemes::Options& options, bool none) {
    if (options.triangles == schemes::TriangleRule::smooth) {  // refused by name, not compared
      linalg::cpu::Executor exec;
      CHECK_THROWS_AS(schemes::limit_at_vertices<typename Scheme::Traits>(exec, mesh.M.clone(), clone(tags.sharpness), 1,
                                                                          mesh.positions, options),
                      InputError);
      return;
    }
    for (int level = 0; level <= 3; ++level) {
      CAPTURE(level);
      const auto r = compare_limits<Scheme>(mesh, tags, options, level, none);
      CHECK(r.position <= 1e-9);
      CHECK(r.tangent <= 1e-9);
      worst.position = std::max(worst.position, r.position), worst.tangent = std::max(worst.tangent, r.tangent);
    }
    ++compared;
  });
  MESSAGE("compared " << compared << " shape/boundary combinations at levels 0-3; largest differences "
                      << worst.position << " (positions) and " << worst.tangent << " (tangents) of the diagonal");
  CHECK(compared == expected_compared);
}

// Compares every shape of the scheme; returns the names of those spmesh rejects.
template <class Scheme>
std::vector<std::string> parity(int expected_compared) {
  int compared = 0;
  double worst = 0;
  const auto rejected = for_each_shape<Scheme>([&](const meshops::PolyMesh& mesh, const schemes::TagSettings& tags,
                                                   const schemes::Options& options, bool none) {
    const Checked r = compare<Scheme>(mesh, tags, options, 4, none);
    CHECK(r.levels == 4);
    CHECK(r.max_error <= 1e-6);
    CHECK(r.patch_error <= 1e-6);
    worst = std::max({worst, r.max_error, r.patch_error});
    ++compared;
  });
  MESSAGE("compared " << compared << " shape/boundary combinations; largest error " << worst
                      << " of the diagonal");
  CHECK(compared == expected_compared);
  return rejected;
}

}  // namespace

TEST_CASE("Catmull-Clark matches OpenSubdiv 3.5 on every catmark shape, levels 1-4") {
  if (!std::filesystem::is_directory(shapes)) {
    MESSAGE("skipped: " << shapes << " not found");
    return;
  }
  const auto rejected = parity<CatmullClark>(90);
  const std::vector<std::string> expected = {
      "catmark_fan", "catmark_gregory_test4", "catmark_nonman_edge100", "catmark_nonman_edges",
      "catmark_nonman_quadpole360", "catmark_nonman_quadpole8", "catmark_nonman_verts",
      "catmark_square_hedit0", "catmark_square_hedit1",
      "catmark_square_hedit2", "catmark_square_hedit3", "catmark_square_hedit4",
      "catmark_val2_nonman"};
  CHECK(rejected == expected);
}

TEST_CASE("Catmull-Clark limit positions and tangents at the vertices of levels 0-3 are OpenSubdiv 3.5's "
          "(Far::PrimvarRefiner::Limit) on every catmark shape") {
  if (!std::filesystem::is_directory(shapes)) {
    MESSAGE("skipped: " << shapes << " not found");
    return;
  }
  limit_parity<CatmullClark>(88);
}

TEST_CASE("Loop limit positions and tangents at the vertices of levels 0-3 are OpenSubdiv 3.5's "
          "(Far::PrimvarRefiner::Limit) on every loop shape") {
  if (!std::filesystem::is_directory(shapes)) {
    MESSAGE("skipped: " << shapes << " not found");
    return;
  }
  limit_parity<Loop>(32);
}

TEST_CASE("Loop matches OpenSubdiv 3.5 on every loop shape, levels 1-4") {
  if (!std::filesystem::is_directory(shapes)) {
    MESSAGE("skipped: " << shapes << " not found");
    return;
  }
  const auto rejected = parity<Loop>(32);
  CHECK(rejected == std::vector<std::string>{"loop_nonman_edge100", "loop_nonman_verts",
                                             "loop_val2_interior"});
}

TEST_CASE("holes by Catmull-Clark (the bundled cube, two holes) and Loop (the cube in triangles, a hole a quad "
          "wide): OpenSubdiv's points, and its holes where base_face says, levels 1-4") {
  const std::string cube = meshops::read_file(SPMESH_DATA_DIR "/meshes/cube.obj");
  const auto quads = meshops::parse_obj(cube + "t hole 2/0/0 1 4\n", "holed cube");
  const auto quad_tags = schemes::read_tags(quads, true);
  CHECK(compare<CatmullClark>(quads, quad_tags, schemes::options_from(quad_tags), 4, false).max_error <= 1e-12);
  const auto triangles =
      meshops::triangulate(meshops::parse_obj(cube + "t hole 1/0/0 3\n", "holed cube"), meshops::Triangulation::fan);
  const auto triangle_tags = schemes::read_tags(triangles, true);
  REQUIRE(std::count(triangle_tags.holes.begin(), triangle_tags.holes.end(), 1) == 2);
  CHECK(compare<Loop>(triangles, triangle_tags, schemes::options_from(triangle_tags), 4, false).max_error <= 1e-12);
}

// A tessellation (points, facets) against Bfr's of the same mesh at rate N (its approximation
// level 10, where every tessellation point but the vertices lies outside its approximated
// regions): the same points, to rounding, and the same facets once spmesh's points are matched to
// Bfr's by position.
// `float_centres` of them may be 1e-7 apart: Bfr puts a triangle's centre (rate N a multiple of 3)
// at 1/3 in float, (0.3333333432674408, 0.3333333432674408), where spmesh takes 1/3 in double.
template <class Tessellation>
void check_same_as_bfr(const Tessellation& ours, const test::BfrTessellation& bfr, double diagonal_length,
                       index_t float_centres = 0) {
  const index_t P = ours.position.rows;
  REQUIRE(bfr.position.size() == 3 * std::size_t(P));
  REQUIRE(bfr.facets.size() == 4 * std::size_t(ours.facets.faces));
  // Each of spmesh's points is one of Bfr's (the nearest, within 1e-12 of the diagonal).
  const double tolerance = 1e-12 * diagonal_length;
  index_t centres = 0;
  std::vector<int> to_bfr(static_cast<std::size_t>(P), -1);
  std::vector<int> taken(static_cast<std::size_t>(P), 0);
  for (index_t p = 0; p < P; ++p) {
    double best = 1e300;
    for (index_t q = 0; q < P; ++q) {
      double d = 0;
      for (int c = 0; c < 3; ++c) d = std::max(d, std::abs(ours.position(p, c) - bfr.position[3 * std::size_t(q) + c]));
      if (d < best) best = d, to_bfr[std::size_t(p)] = int(q);
    }
    if (best > tolerance && best <= 1e-7 * diagonal_length) ++centres;
    else CHECK(best <= tolerance);
    ++taken[std::size_t(to_bfr[std::size_t(p)])];
  }
  CHECK(centres <= float_centres);
  CHECK(std::count(taken.begin(), taken.end(), 1) == P);
  // The facets, each as its corners from the smallest on (a triangle's fourth Bfr index -1).
  auto canonical = [](std::vector<int> corners) {
    std::rotate(corners.begin(), std::min_element(corners.begin(), corners.end()), corners.end());
    return corners;
  };
  std::map<std::vector<int>, int> bfr_facets;
  for (std::size_t f = 0; f < bfr.facets.size(); f += 4) {
    std::vector<int> corners(bfr.facets.begin() + std::ptrdiff_t(f), bfr.facets.begin() + std::ptrdiff_t(f + 4));
    if (corners[3] < 0) corners.pop_back();
    ++bfr_facets[canonical(corners)];
  }
  index_t matched = 0;
  for (index_t f = 0; f < ours.facets.faces; ++f) {
    std::vector<int> corners;
    for (index_t k = ours.facets.offsets[f]; k < ours.facets.offsets[f + 1]; ++k)
      corners.push_back(to_bfr[std::size_t(ours.facets.indices[k])]);
    matched += bfr_facets[canonical(corners)]-- == 1 ? 1 : 0;
  }
  CHECK(matched == ours.facets.faces);
}

// Catmull-Clark's tessellation against Bfr's (Bfr::Tessellation with preserved quads, each
// point evaluated once): the same points and facets (quads, and at odd rates a polygon's
// triangles), on quads, polygons at even and odd rates and both sides of a crease.
TEST_CASE("Catmull-Clark's tessellation is Bfr's: the same points and the same facets, polygons and odd rates "
          "included") {
  for (const char* file : {"lantern.obj", "cube.obj", "creased_torus.obj", "tent.obj", "holed_plate.obj"})
    for (int N = 1; N <= (std::string(file) == "creased_torus.obj" ? 3 : 6); ++N) {
      CAPTURE(file);
      CAPTURE(N);
      const auto mesh = meshops::read_obj(std::string(SPMESH_DATA_DIR "/meshes/") + file);
      const auto sharpness = schemes::read_tags(mesh).sharpness;
      linalg::cpu::Executor exec;
      const auto ours = cc::tessellate(exec, mesh.M.clone(), schemes::Sharpness<>{sharpness.edges.clone(), sharpness.vertices.clone()},
                                       mesh.positions, N, 3);
      const auto refiner = test::osd_refiner(mesh, sharpness, schemes::Options{});
      const std::vector<double> points(mesh.positions.data.begin(), mesh.positions.data.end());
      check_same_as_bfr(ours, test::bfr_tessellate(*refiner, points, N, 10), diagonal(mesh.positions));
    }
}

// Loop's tessellation against Bfr's (SCHEME_LOOP): the same points (but Bfr's float centres) and
// the same triangles at rates 1 to 6, on the triangulated lantern (vertices of 3 to 8 edges) and
// OpenSubdiv's loop shapes, and 1 to 3 on both sides of the triangulated torus's crease.
TEST_CASE("Loop's tessellation is Bfr's: the same points and the same triangles") {
  std::vector<meshops::PolyMesh> meshes;
  meshes.push_back(meshops::triangulate(meshops::read_obj(SPMESH_DATA_DIR "/meshes/lantern.obj")));
  meshes.push_back(meshops::triangulate(meshops::read_obj(SPMESH_DATA_DIR "/meshes/creased_torus.obj")));
  for (const char* shape : {"loop_tetrahedron", "loop_icosahedron"}) {
    const std::string path = std::string(SPMESH_SHARED_DIR "/meshes/opensubdiv/") + shape + ".obj";
    if (std::filesystem::exists(path)) meshes.push_back(meshops::read_obj(path));
  }
  for (const auto& mesh : meshes)
    for (int N = 1; N <= (mesh.source.ends_with("creased_torus.obj") ? 3 : 6); ++N) {
      CAPTURE(mesh.source);
      CAPTURE(N);
      const auto sharpness = schemes::read_tags(mesh).sharpness;
      linalg::cpu::Executor exec;
      const auto ours = schemes::loop::tessellate(
          exec, mesh.M.clone(), schemes::Sharpness<>{sharpness.edges.clone(), sharpness.vertices.clone()}, mesh.positions,
          N, 3);
      const auto refiner = test::osd_refiner(mesh, sharpness, schemes::Options{}, false, OpenSubdiv::Sdc::SCHEME_LOOP);
      const std::vector<double> points(mesh.positions.data.begin(), mesh.positions.data.end());
      check_same_as_bfr(ours, test::bfr_tessellate(*refiner, points, N, 10), diagonal(mesh.positions),
                        N % 3 == 0 ? mesh.face_count() : 0);
    }
}

// spmesh's samples `ours` against Bfr's at its approximation levels 2 (its default), 6 and 10
// (its deepest: beyond 2^-10 of an extraordinary vertex, every sample here but the vertices, it
// is exact): the largest differences over the diagonal of the positions and, not at the corners
// (where spmesh's derivatives at an extraordinary vertex are the tangents' directions, not a
// patch's), of the derivatives.
template <class Samples>
void bfr_differences(const OpenSubdiv::Far::TopologyRefiner& refiner, const std::vector<double>& points,
                     const std::vector<index_t>& faces, const std::vector<double>& u, const std::vector<double>& v,
                     const std::vector<bool>& corner, const Samples& ours, double diag, double (&difference)[3],
                     double (&derivative)[3]) {
  const int levels[3] = {2, 6, 10};
  for (int at = 0; at < 3; ++at) {
    const auto bfr = test::bfr_at_samples(refiner, points, faces, u, v, levels[at]);
    for (std::size_t s = 0; s < faces.size(); ++s)
      for (int c = 0; c < 3; ++c) {
        const auto r = index_t(s);
        difference[at] = std::max(difference[at], std::abs(ours.position(r, c) - bfr.position[3 * s + std::size_t(c)]) / diag);
        const double du = std::abs(ours.du(r, c) - bfr.du[3 * s + std::size_t(c)]) / diag,
                     dv = std::abs(ours.dv(r, c) - bfr.dv[3 * s + std::size_t(c)]) / diag;
        if (!corner[s]) derivative[at] = std::max(derivative[at], std::max(du, dv));
      }
  }
}

// Catmull-Clark's limit at (face, u, v) against OpenSubdiv's Bfr::Surface and Far's
// LimitStencilTable (Far::PatchTable's patches) at the same samples, quads and polygons (Bfr's
// sub-faces, Far's Ptex faces): where their surface is a regular bicubic patch (every face of the
// torus, and on both sides of an infinitely sharp crease round it: crease patches) all are exact,
// and agree to rounding (Far but at the crease, which it isolates); at extraordinary vertices
// spmesh is exact (Stam; at boundary vertices of 4 or more edges, the holed plate's and the open
// fan's, and at pinned ones, boundary_fan.hpp) and they approximate the irregular region within 2^-level of the vertex
// by patches of their approximation or isolation level, so the difference shrinks as the level
// grows, and at level 10 (their deepest) none of these samples but the vertices is in that
// region: exact, equal to rounding (the differences are printed for Bfr's levels 2, its default,
// 6 and 10, and Far's isolation 6 and 10).
TEST_CASE("Catmull-Clark's limit at (face, u, v) of quads and polygons is Bfr's and Far's on regular faces, within "
          "their approximation at extraordinary vertices, and theirs at level 10") {
  std::vector<meshops::PolyMesh> meshes;
  for (const char* name : {"torus.obj", "cube.obj", "lantern.obj", "creased_torus.obj", "tent.obj", "holed_plate.obj"})
    meshes.push_back(meshops::read_obj(std::string(SPMESH_DATA_DIR "/meshes/") + name));
  meshes.push_back(test::wavy_fan(5, false));  // a boundary vertex of 5 quads
  // The plate pinned by corner tags at a boundary vertex of 3 edges (vertex 3: 2 quads) and at a
  // hole's corner (vertex 16: 3 quads): pinned boundary fans.
  meshes.push_back(meshops::parse_obj(meshops::read_file(SPMESH_DATA_DIR "/meshes/holed_plate.obj") +
                                          "t corner 1/1/0 3 10\nt corner 1/1/0 16 10\n",
                                      "holed plate, pinned"));
  if (std::filesystem::exists(SPMESH_SHARED_DIR "/meshes/characters/Bigguy.obj"))
    meshes.push_back(meshops::read_obj(SPMESH_SHARED_DIR "/meshes/characters/Bigguy.obj"));
  for (const auto& mesh : meshes) {
    const std::string& path = mesh.source;
    CAPTURE(path);
    const index_t V = mesh.vertex_count();
    const schemes::Sharpness<> sharpness = schemes::read_tags(mesh).sharpness;  // the creased torus's creases
    std::vector<index_t> faces;
    std::vector<double> u, v;
    std::vector<bool> corner;  // at a corner of the face or of a polygon's sub-face
    // A grid a face (a polygon: a grid a sub-face, on its tile of Bfr's parameterization),
    // corners and edges included, denser near the corners: Bfr's patches are exact but within
    // 2^-level of an extraordinary vertex (and at the vertex itself).
    const double places[] = {0, 0.005, 0.02, 0.1, 0.35, 0.65, 0.9, 0.98, 0.995, 1};
    for (index_t f = 0; f < mesh.face_count(); ++f) {
      const index_t n = mesh.M.offsets[f + 1] - mesh.M.offsets[f];
      const OpenSubdiv::Bfr::Parameterization bfr(OpenSubdiv::Sdc::SCHEME_CATMARK, int(n));
      for (index_t sub = 0; sub < (n == 4 ? 1 : n); ++sub)
        for (const double at_u : places)
          for (const double at_v : places) {
            double uv[2] = {at_u, at_v};
            if (n != 4) bfr.ConvertNormalizedSubFaceToCoord(int(sub), uv, uv);
            faces.push_back(f), u.push_back(uv[0]), v.push_back(uv[1]);
            corner.push_back((at_u == 0 || at_u == 1) && (at_v == 0 || at_v == 1));
          }
    }
    linalg::cpu::Executor exec;
    const auto ours = cc::limit_at_samples(exec, mesh.M.clone(), schemes::Sharpness<>{sharpness.edges.clone(), sharpness.vertices.clone()},
                                           linalg::Array<index_t>(faces), linalg::Array<double>(u),
                                           linalg::Array<double>(v), mesh.positions, 3);
    const auto refiner = test::osd_refiner(mesh, sharpness, schemes::Options{});
    const std::vector<double> points(mesh.positions.data.begin(), mesh.positions.data.end());
    const double diag = diagonal(mesh.positions);
    double difference[3] = {}, derivative[3] = {};
    bfr_differences(*refiner, points, faces, u, v, corner, ours, diag, difference, derivative);
    MESSAGE(path << ": largest difference from Bfr over the diagonal at its levels 2, 6, 10: positions "
                 << difference[0] << ", " << difference[1] << ", " << difference[2] << "; derivatives away from the corners "
                 << derivative[0] << ", " << derivative[1] << ", " << derivative[2]);
    CHECK(difference[2] <= 1e-14);
    CHECK(derivative[2] <= 1e-12);
    // Far's LimitStencilTable (the other peer) at the same samples, isolated 6 and 10 levels deep:
    // Far::PatchTable's patches, the same on regular faces, Gregory patches at the last level.
    double far_difference[2] = {};
    for (int at = 0; at < 2; ++at) {
      const test::FarLimitStencils far(mesh, sharpness, schemes::Options{}, faces, u, v, at == 0 ? 6 : 10);
      const auto by_far = far.evaluate(points);
      for (std::size_t s = 0; s < faces.size(); ++s)
        for (int c = 0; c < 3; ++c)
          far_difference[at] = std::max(far_difference[at], std::abs(ours.position(index_t(s), c) -
                                                                     by_far.position[3 * s + std::size_t(c)]) / diag);
    }
    MESSAGE(path << ": largest difference from Far's LimitStencilTable at isolation 6, 10: " << far_difference[0] << ", "
                 << far_difference[1]);
    // Far's patch table (PatchTableFactory's defaults, without infinitely sharp patches)
    // isolates an infinitely sharp crease as it does an irregular feature, Gregory patches at the
    // last level: closer a level, not exact, where Bfr's crease patches and spmesh's are. At the
    // tent's smooth corner (vertex 14, in its pentagon alone, edge-only), the holed plate's outer
    // corner at vertex 0 and the open fan's vertex (5 quads) Far's last-level patch is not the
    // limit at the vertex itself (4.0e-8, 1.8e-8 and 9.1e-9 of the diagonal at isolation 10, at no
    // other sample), where Bfr and spmesh agree to rounding and spmesh's is the limit mask's.
    const bool creased = sharpness.edges.nnz() > 0;
    const bool open = path.ends_with("tent.obj") || path.ends_with("holed_plate.obj") || path.starts_with("open fan of quads") ||
                      path.starts_with("holed plate");
    if (creased || open) CHECK(far_difference[1] < far_difference[0] / 8);
    else CHECK(far_difference[1] <= 1e-14);
    // Bfr's tessellation (the benchmark's peer) at rate 4: spmesh's point count, quad count and,
    // at the vertices (where both are exact), its points.
    const auto bfr_tessellation = test::bfr_tessellate(*refiner, points, 4);
    const auto tessellation = cc::tessellate(exec, mesh.M.clone(), schemes::Sharpness<>{sharpness.edges.clone(), sharpness.vertices.clone()},
                                             mesh.positions, 4, 3);
    CHECK(bfr_tessellation.position.size() == 3 * std::size_t(tessellation.position.rows));
    CHECK(bfr_tessellation.facets.size() == std::size_t(tessellation.facets.nnz()));
    double at_vertices = 0;
    for (index_t p = 0; p < V; ++p)
      for (int c = 0; c < 3; ++c)
        at_vertices = std::max(at_vertices, std::abs(tessellation.position(p, c) - bfr_tessellation.position[3 * std::size_t(p) + std::size_t(c)]));
    CHECK(at_vertices <= 1e-12 * diag);
    if (path.ends_with("torus.obj")) {  // no extraordinary vertex: Bfr exact at every level (the creased one too)
      CHECK(difference[0] <= 1e-14);
      CHECK(derivative[0] <= 1e-13);
      if (!creased) CHECK(far_difference[0] <= 1e-14);
    } else {
      CHECK(difference[1] < difference[0]);
    }
  }
}

// A 5 x 6 grid of squares cut by one diagonal on a wavy surface, and its triangles that touch
// none of its four corners (boundary vertices of 2 and 3 edges, which no patch takes).
struct TriangleGrid {
  meshops::PolyMesh mesh;
  std::vector<index_t> inner_faces;
};
TriangleGrid triangle_grid() {
  constexpr int rows = 5, columns = 6;
  std::string obj;
  for (int r = 0; r <= rows; ++r)
    for (int c = 0; c <= columns; ++c)
      obj += "v " + std::to_string(c + 0.5 * r) + " " + std::to_string(0.8 * r) + " " +
             std::to_string(0.3 * std::sin(1.3 * c + 0.7 * r)) + "\n";
  auto at = [&](int r, int c) { return 1 + r * (columns + 1) + c; };
  TriangleGrid grid;
  const std::set<int> corners = {at(0, 0), at(0, columns), at(rows, 0), at(rows, columns)};
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < columns; ++c)
      for (const auto& triangle : {std::array{at(r, c), at(r, c + 1), at(r + 1, c)},
                                   std::array{at(r, c + 1), at(r + 1, c + 1), at(r + 1, c)}}) {
        bool touches = false;
        for (int corner : triangle) touches |= corners.count(corner) > 0;
        if (!touches) grid.inner_faces.push_back(index_t(2 * (r * columns + c) + (triangle[0] == at(r, c) ? 0 : 1)));
        obj += "f " + std::to_string(triangle[0]) + " " + std::to_string(triangle[1]) + " " + std::to_string(triangle[2]) + "\n";
      }
  grid.mesh = meshops::parse_obj(obj, "triangle grid");
  return grid;
}

// Loop's limit at (face, u, v) against Bfr::Surface of SCHEME_LOOP at the same samples: where
// Bfr's surface is the box spline (every face of the triangulated torus; the grid's, boundary
// vertices of 4 edges among them; both sides of an infinitely sharp crease round the tube) both
// are exact and agree to rounding; at extraordinary vertices
// (valences 3 to 8 here) spmesh is exact (Stam) and Bfr approximates the region within 2^-level
// of the vertex, so at its level 10 none of these samples but the vertices is in it: equal to
// rounding (the differences at levels 2, its default, and 6 are printed).
TEST_CASE("Loop's limit at (face, u, v) is Bfr's on box-spline triangles, within its approximation at extraordinary "
          "vertices, and its own at level 10") {
  std::vector<std::pair<meshops::PolyMesh, std::vector<index_t>>> meshes;  // and the faces sampled (none: all)
  meshes.emplace_back(meshops::triangulate(meshops::read_obj(SPMESH_DATA_DIR "/meshes/torus.obj")), std::vector<index_t>{});
  meshes.emplace_back(meshops::triangulate(meshops::read_obj(SPMESH_DATA_DIR "/meshes/lantern.obj")), std::vector<index_t>{});
  meshes.emplace_back(meshops::triangulate(meshops::read_obj(SPMESH_DATA_DIR "/meshes/creased_torus.obj")),
                      std::vector<index_t>{});
  auto grid = triangle_grid();
  meshes.emplace_back(std::move(grid.mesh), std::move(grid.inner_faces));
  for (const char* shape : {"loop_cube", "loop_icosahedron", "loop_tetrahedron", "loop_toroidal_tet", "loop_pole8"}) {
    const std::string path = std::string(SPMESH_SHARED_DIR "/meshes/opensubdiv/") + shape + ".obj";
    if (std::filesystem::exists(path)) meshes.emplace_back(meshops::read_obj(path), std::vector<index_t>{});
  }
  for (auto& [mesh, sampled] : meshes) {
    CAPTURE(mesh.source);
    if (sampled.empty())
      for (index_t f = 0; f < mesh.face_count(); ++f) sampled.push_back(f);
    const schemes::Sharpness<> sharpness = schemes::read_tags(mesh).sharpness;
    std::vector<index_t> faces;
    std::vector<double> u, v;
    std::vector<bool> corner;
    const double places[] = {0, 0.005, 0.02, 0.1, 0.35, 0.65, 0.9, 0.98, 0.995, 1};
    for (const index_t f : sampled)
      for (const double at_u : places)
        for (const double at_v : places) {
          if (at_u + at_v > 1) continue;
          faces.push_back(f), u.push_back(at_u), v.push_back(at_v);
          corner.push_back((at_u == 0 && at_v == 0) || at_u == 1 || at_v == 1);
        }
    linalg::cpu::Executor exec;
    const auto ours = schemes::loop::limit_at_samples(
        exec, mesh.M.clone(), schemes::Sharpness<>{sharpness.edges.clone(), sharpness.vertices.clone()},
        linalg::Array<index_t>(faces), linalg::Array<double>(u), linalg::Array<double>(v), mesh.positions, 3);
    const auto refiner = test::osd_refiner(mesh, sharpness, schemes::Options{}, false, OpenSubdiv::Sdc::SCHEME_LOOP);
    const std::vector<double> points(mesh.positions.data.begin(), mesh.positions.data.end());
    const double diag = diagonal(mesh.positions);
    double difference[3] = {}, derivative[3] = {};
    bfr_differences(*refiner, points, faces, u, v, corner, ours, diag, difference, derivative);
    MESSAGE(mesh.source << ": largest difference from Bfr (Loop) over the diagonal at its levels 2, 6, 10: positions "
                        << difference[0] << ", " << difference[1] << ", " << difference[2]
                        << "; derivatives away from the corners " << derivative[0] << ", " << derivative[1] << ", "
                        << derivative[2]);
    CHECK(difference[2] <= 1e-14);
    CHECK(derivative[2] <= 1e-12);
    // Box splines (both sides of the creased torus's crease too, once its semi-sharp one decays):
    // Bfr exact at every level.
    if (mesh.source.ends_with("torus.obj") || mesh.source == "triangle grid") {
      CHECK(difference[0] <= 1e-14);
      CHECK(derivative[0] <= 1e-13);
    } else {
      CHECK(difference[1] < difference[0]);
    }
  }
}
