// OpenSubdiv 3.5's Bfr (its limit surface a face at a time), the reference of the tests of limit
// evaluation at (face, u, v) and the peer of the tessellation benchmark: Bfr::Surface from a
// RefinerSurfaceFactory over the same level-0 refiner as opensubdiv.hpp's, with irregular regions
// approximated at one chosen level for smooth and sharp regions alike (Bfr's SetApproxLevelSmooth
// and SetApproxLevelSharp; its defaults are 2 and 6).
#pragma once

#include "bench/peers/opensubdiv.hpp"

#include <memory>
#include <vector>

namespace spmesh::test {

// Positions and u and v derivatives at points, points x 3 each.
struct BfrPoints {
  std::vector<double> position, du, dv;
};

// The limit at samples (faces[s], u[s], v[s]) of the refiner's base mesh (`points`: its
// vertices x 3) in Bfr's parameterization of each face. Error (std::runtime_error) for a face
// without a limit surface (a hole) or out of range.
BfrPoints bfr_at_samples(const OpenSubdiv::Far::TopologyRefiner& refiner, const std::vector<double>& points,
                         const std::vector<index_t>& faces, const std::vector<double>& u,
                         const std::vector<double>& v, int approx_level);

// Every face tessellated at uniform rate N, laid out as spmesh's tessellation is in kind, not in
// numbering: a point at each vertex (every vertex: spmesh skips those on no face), then N - 1
// along each of the refiner's edges (from its first vertex to its second, in Far's edge order),
// then each face's inner points; each point evaluated once, by the lowest-numbered face at it;
// unit normals (du x dv); `facets` the faces' quads (or triangles) of those points, 4 indices each
// (a triangle's fourth -1). OpenMP over the faces, as Bfr's tutorials do. std::runtime_error for
// a face without a limit surface (a hole: spmesh takes none) or more points than an int holds.
struct BfrTessellation {
  std::vector<double> position, normal;
  std::vector<int> facets;
};

// Made once for a mesh's topology and rate (the factory, each face's surface, pattern and the
// points it owns), then evaluate() tessellates any positions of those vertices: what a Bfr user
// re-tessellating an animated mesh keeps between frames.
class BfrTessellator {
public:
  BfrTessellator(const OpenSubdiv::Far::TopologyRefiner& refiner, int rate, int approx_level = 2);
  ~BfrTessellator();
  // Positions and normals (no facets: they are the same every frame).
  BfrTessellation evaluate(const std::vector<double>& points) const;
  const std::vector<int>& facets() const;

private:
  struct Faces;
  std::unique_ptr<Faces> faces_;
};

// BfrTessellator(refiner, rate, approx_level).evaluate(points): everything from the refiner.
BfrTessellation bfr_tessellate(const OpenSubdiv::Far::TopologyRefiner& refiner, const std::vector<double>& points,
                               int rate, int approx_level = 2);

}  // namespace spmesh::test
