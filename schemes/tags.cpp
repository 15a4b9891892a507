// Tag interpretation: OpenSubdiv's shape-file conventions (rules.md "Creases in the OBJ shape
// format") turned into level-0 sharpness and options, with file:line on every error.
#include "schemes/tags.hpp"

#include <cmath>
#include <cstdint>
#include <map>
#include <unordered_set>
#include <utility>

namespace spmesh::schemes {

namespace {

std::uint64_t edge_key(index_t a, index_t b) {
  if (a > b) std::swap(a, b);
  return (static_cast<std::uint64_t>(a) << 32) | static_cast<std::uint32_t>(b);
}

std::unordered_set<std::uint64_t> mesh_edges(const linalg::MeshMatrix<>& M) {
  std::unordered_set<std::uint64_t> edges;
  for (index_t f = 0; f < M.faces; ++f) {
    const index_t lo = M.offsets[f], c = M.offsets[f + 1] - lo;
    for (index_t a = 0; a < c; ++a)
      edges.insert(edge_key(M.indices[lo + a], M.indices[lo + (a + 1) % c]));
  }
  return edges;
}

class Reader {
public:
  Reader(const meshops::PolyMesh& mesh, bool keep_holes) : mesh_(mesh), keep_holes_(keep_holes) {}

  TagSettings read() {
    for (const meshops::Tag& t : mesh_.tags) {
      tag_ = &t;
      if (t.name == "crease") crease();
      else if (t.name == "corner") corner();
      else if (t.name == "interpolateboundary") boundary();
      else if (t.name == "creasemethod") crease_method();
      else if (t.name == "smoothtriangles") smooth_triangles();
      else if (t.name == "hole") hole();
      else if (t.name.starts_with("facevarying"))
        out_.ignored.push_back(where() + "tag '" + t.name + "' (face-varying data only)");
      else fail("tag '" + t.name + "' is not supported");
    }
    return finish();
  }

private:
  std::string where() const { return mesh_.source + ":" + std::to_string(tag_->line) + ": "; }
  [[noreturn]] void fail(const std::string& what) const { throw InputError(where() + what); }

  index_t vertex(int v) const {
    if (v < 0 || v >= mesh_.vertex_count())
      fail("tag '" + tag_->name + "' names vertex " + std::to_string(v) + ", but the mesh has " +
           std::to_string(mesh_.vertex_count()) + " vertices (ids are 0-based)");
    return v;
  }

  // The k-th of n sharpness values: one value for all, or one each.
  float sharpness(std::size_t k, std::size_t n) const {
    const auto& f = tag_->floats;
    if (f.size() != 1 && f.size() != n)
      fail("tag '" + tag_->name + "' has " + std::to_string(f.size()) +
           " sharpness values for " + std::to_string(n) + " items (give 1 or " +
           std::to_string(n) + ")");
    const double s = f.size() == 1 ? f[0] : f[k];
    if (!std::isfinite(s) || s < 0)
      fail("sharpness " + std::to_string(s) + " is not a finite value >= 0");
    return static_cast<float>(s);
  }

  // t crease ints/1/0 v0 v1 ... s: the chain of edges v0-v1, v1-v2, ...
  void crease() {
    const auto& v = tag_->ints;
    if (v.size() < 2) fail("crease needs at least two vertices");
    if (edges_.empty()) edges_ = mesh_edges(mesh_.M);
    for (std::size_t k = 0; k + 1 < v.size(); ++k) {
      const index_t a = vertex(v[k]), b = vertex(v[k + 1]);
      if (!edges_.contains(edge_key(a, b)))
        fail("crease names edge " + std::to_string(a) + "-" + std::to_string(b) +
             ", but no face has that edge");
      creases_[{std::min(a, b), std::max(a, b)}] = sharpness(k, v.size() - 1);
    }
  }

  void corner() {
    const auto& v = tag_->ints;
    if (v.empty()) fail("corner needs at least one vertex");
    for (std::size_t k = 0; k < v.size(); ++k) corners_[vertex(v[k])] = sharpness(k, v.size());
  }

  // 0 none, 1 edge-and-corner, 2 edge-only (OpenSubdiv's shape files).
  void boundary() {
    if (tag_->ints.size() != 1) fail("interpolateboundary needs one integer");
    switch (tag_->ints[0]) {
      case 0:
        // Uniform refinement computes the same points as edge-only; "none" only drops the
        // boundary faces from the limit surface, which spmesh does not draw.
        out_.ignored.push_back(where() + "interpolateboundary 0 (none) refines as edge-only");
        out_.boundary = Boundary::edge_only;
        break;
      case 1: out_.boundary = Boundary::edge_and_corner; break;
      case 2: out_.boundary = Boundary::edge_only; break;
      default: fail("interpolateboundary " + std::to_string(tag_->ints[0]) + " (expected 0-2)");
    }
  }

  void crease_method() {
    const auto& s = tag_->strings;
    if (s.size() == 1 && s[0] == "chaikin") out_.crease = CreaseMethod::chaikin;
    else if (s.size() == 1 && (s[0] == "uniform" || s[0] == "normal"))
      out_.crease = CreaseMethod::uniform;
    else fail("creasemethod expects 'chaikin' or 'uniform'");
  }

  // t smoothtriangles 0/0/1 catmark|smooth: Catmull-Clark's own triangle rule, or OpenSubdiv's
  // smooth one.
  void smooth_triangles() {
    const auto& s = tag_->strings;
    if (s.size() == 1 && s[0] == "catmark") out_.triangles = TriangleRule::catmark;
    else if (s.size() == 1 && s[0] == "smooth") out_.triangles = TriangleRule::smooth;
    else fail("smoothtriangles expects 'catmark' or 'smooth'");
  }

  // t hole N/0/0 f0 f1 ...: faces of the input (before any triangulation) that are holes.
  void hole() {
    if (!keep_holes_)
      fail("tag 'hole' is kept by subdivide, build, replay and limit (Catmull-Clark and Loop) only, not yet here");
    if (tag_->ints.empty()) fail("hole needs at least one face");
    const auto& input = mesh_.input_faces;
    const index_t inputs = input.empty() ? mesh_.face_count() : input.back() + 1;  // each input face gave one or more
    std::vector<char> named(std::size_t(inputs), 0);
    for (int f : tag_->ints) {
      if (f < 0 || f >= inputs)
        fail("tag 'hole' names face " + std::to_string(f) + ", but the mesh has " + std::to_string(inputs) +
             " faces (ids are 0-based)");
      named[std::size_t(f)] = 1;
    }
    out_.holes.resize(std::size_t(mesh_.face_count()), 0);
    for (index_t f = 0; f < mesh_.face_count(); ++f)
      if (named[std::size_t(input.empty() ? f : input[std::size_t(f)])]) out_.holes[std::size_t(f)] = 1;
  }

  TagSettings finish() {
    std::vector<index_t> rows, cols;
    std::vector<float> values;
    for (const auto& [edge, s] : creases_) {
      if (s == creasing::none) continue;
      rows.push_back(edge.first), cols.push_back(edge.second), values.push_back(s);
    }
    const index_t n = mesh_.vertex_count();
    out_.sharpness.edges = linalg::Coo<float>{n, n, linalg::Array<index_t>(rows),
                                              linalg::Array<index_t>(cols),
                                              linalg::Array<float>(values)};
    out_.sharpness.vertices = linalg::Array<float>(n, creasing::none);
    for (const auto& [v, s] : corners_) out_.sharpness.vertices[v] = s;
    return std::move(out_);
  }

  const meshops::PolyMesh& mesh_;
  const bool keep_holes_;
  const meshops::Tag* tag_ = nullptr;
  std::unordered_set<std::uint64_t> edges_;
  std::map<std::pair<index_t, index_t>, float> creases_;  // ordered: C comes out row-major
  std::map<index_t, float> corners_;
  TagSettings out_;
};

}  // namespace

TagSettings read_tags(const meshops::PolyMesh& mesh, bool keep_holes) { return Reader(mesh, keep_holes).read(); }

Options options_from(const TagSettings& tags, std::optional<Boundary> boundary,
                     std::optional<CreaseMethod> crease) {
  Options o;
  o.boundary = boundary.value_or(tags.boundary.value_or(o.boundary));
  o.crease = crease.value_or(tags.crease.value_or(o.crease));
  o.triangles = tags.triangles.value_or(o.triangles);
  return o;
}

Sharpness<> smooth_sharpness(index_t vertices) {
  return {linalg::Coo<float>{vertices, vertices, {}, {}, {}},
          linalg::Array<float>(vertices, creasing::none)};
}

}  // namespace spmesh::schemes
