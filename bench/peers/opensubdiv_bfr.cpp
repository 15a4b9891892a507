// OpenSubdiv's Bfr as reference and peer (see opensubdiv_bfr.hpp).
#include "bench/peers/opensubdiv_bfr.hpp"

#include <opensubdiv/bfr/refinerSurfaceFactory.h>
#include <opensubdiv/bfr/surface.h>
#include <opensubdiv/bfr/surfaceFactoryCache.h>
#include <opensubdiv/bfr/tessellation.h>
#include <opensubdiv/far/topologyRefiner.h>

#include <algorithm>
#include <cmath>
#include <mutex>
#include <shared_mutex>
#include <stdexcept>
#include <string>

namespace spmesh::test {

namespace {

using namespace OpenSubdiv;

// A factory whose cache of irregular patches the threads share, as Bfr's tutorials declare it.
using SharedCache =
    Bfr::SurfaceFactoryCacheThreaded<std::shared_mutex, std::shared_lock<std::shared_mutex>, std::unique_lock<std::shared_mutex>>;
using Factory = Bfr::RefinerSurfaceFactory<SharedCache>;

Factory::Options factory_options(int approx_level) {
  Factory::Options options;
  options.SetApproxLevelSmooth(approx_level).SetApproxLevelSharp(approx_level);
  return options;
}

// A face's surface and its patch points from the mesh's points.
struct FaceSurface {
  Bfr::Surface<double> surface;
  std::vector<double> patch_points;

  bool init(const Factory& factory, int face, const std::vector<double>& points) {
    if (!factory.InitVertexSurface(face, &surface)) return false;
    patch_points.resize(std::size_t(3 * surface.GetNumPatchPoints()));
    surface.PreparePatchPoints(points.data(), 3, patch_points.data(), 3);
    return true;
  }
  void evaluate(const double uv[2], double* p, double* du, double* dv) const {
    surface.Evaluate(uv, patch_points.data(), 3, p, du, dv);
  }
};

}  // namespace

BfrPoints bfr_at_samples(const Far::TopologyRefiner& refiner, const std::vector<double>& points,
                         const std::vector<index_t>& faces, const std::vector<double>& u,
                         const std::vector<double>& v, int approx_level) {
  const Factory factory(refiner, factory_options(approx_level));
  const std::size_t n = faces.size();
  BfrPoints out{std::vector<double>(3 * n), std::vector<double>(3 * n), std::vector<double>(3 * n)};
  FaceSurface at;
  index_t current = -1;
  for (std::size_t s = 0; s < n; ++s) {
    if (faces[s] != current) {
      current = faces[s];
      if (current < 0 || current >= refiner.GetLevel(0).GetNumFaces() || !at.init(factory, current, points))
        throw std::runtime_error("bfr_at_samples: face " + std::to_string(current) + " has no limit surface");
    }
    const double uv[2] = {u[s], v[s]};
    at.evaluate(uv, &out.position[3 * s], &out.du[3 * s], &out.dv[3 * s]);
  }
  return out;
}

BfrTessellation bfr_tessellate(const Far::TopologyRefiner& refiner, const std::vector<double>& points, int rate,
                               int approx_level) {
  const Factory factory(refiner, factory_options(approx_level));
  const Far::TopologyLevel& base = refiner.GetLevel(0);
  const int faces = base.GetNumFaces(), edges = base.GetNumEdges(), vertices = base.GetNumVertices();
  const int N = rate;
  const auto options = Bfr::Tessellation::Options().PreserveQuads(true).SetFacetSize(4);
  const Sdc::SchemeType scheme = refiner.GetSchemeType();
  // Each face's inner points and facets, from its size alone.
  std::vector<int> inner(std::size_t(faces) + 1, 0), facet_start(std::size_t(faces) + 1, 0);
  for (int f = 0; f < faces; ++f) {
    const Bfr::Tessellation pattern(Bfr::Parameterization(scheme, base.GetFaceVertices(f).size()), N, options);
    inner[std::size_t(f) + 1] = inner[std::size_t(f)] + pattern.GetNumInteriorCoords();
    facet_start[std::size_t(f) + 1] = facet_start[std::size_t(f)] + pattern.GetNumFacets();
  }
  const int first_inner = vertices + edges * (N - 1), total = first_inner + inner.back();
  BfrTessellation out{std::vector<double>(3 * std::size_t(total)), std::vector<double>(3 * std::size_t(total)),
                      std::vector<int>(4 * std::size_t(facet_start.back()))};
  auto lowest = [](Far::ConstIndexArray around) { return *std::min_element(around.begin(), around.end()); };
  std::string failure;
#pragma omp parallel
  {
    FaceSurface at;
    std::vector<double> coords;
    std::vector<int> global, facets;
#pragma omp for schedule(dynamic, 16)
    for (int f = 0; f < faces; ++f) {
      if (!at.init(factory, f, points)) continue;  // a hole: no points, no facets
      const Bfr::Tessellation pattern(at.surface.GetParameterization(), N, options);
      const Far::ConstIndexArray corners = base.GetFaceVertices(f), sides = base.GetFaceEdges(f);
      const int size = corners.size(), boundary = pattern.GetNumBoundaryCoords(), count = pattern.GetNumCoords();
      coords.resize(2 * std::size_t(count)), global.resize(std::size_t(count));
      pattern.GetCoords(coords.data());
      // The boundary's coordinates: corner a, then edge a's N - 1, corner a + 1, ...
      if (boundary != size * N) {
#pragma omp critical
        failure = "face " + std::to_string(f) + ": " + std::to_string(boundary) + " boundary points, not " +
                  std::to_string(size * N);
        continue;
      }
      std::vector<bool> owned(std::size_t(count), true);
      for (int a = 0; a < size; ++a) {
        global[std::size_t(a * N)] = corners[a], owned[std::size_t(a * N)] = lowest(base.GetVertexFaces(corners[a])) == f;
        const int e = sides[a];
        const bool forward = base.GetEdgeVertices(e)[0] == corners[a], mine = lowest(base.GetEdgeFaces(e)) == f;
        for (int k = 1; k < N; ++k)
          global[std::size_t(a * N + k)] = vertices + e * (N - 1) + (forward ? k - 1 : N - 1 - k),
                                       owned[std::size_t(a * N + k)] = mine;
      }
      for (int i = boundary; i < count; ++i) global[std::size_t(i)] = first_inner + inner[std::size_t(f)] + i - boundary;
      for (int i = 0; i < count; ++i) {
        if (!owned[std::size_t(i)]) continue;
        const std::size_t g = 3 * std::size_t(global[std::size_t(i)]);
        double du[3], dv[3];
        at.evaluate(&coords[2 * std::size_t(i)], &out.position[g], du, dv);
        const double normal[3] = {du[1] * dv[2] - du[2] * dv[1], du[2] * dv[0] - du[0] * dv[2], du[0] * dv[1] - du[1] * dv[0]};
        const double length = std::sqrt(normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]);
        for (int c = 0; c < 3; ++c) out.normal[g + std::size_t(c)] = length > 0 ? normal[c] / length : 0;
      }
      facets.resize(4 * std::size_t(pattern.GetNumFacets()));
      pattern.GetFacets(facets.data());
      int* to = &out.facets[4 * std::size_t(facet_start[std::size_t(f)])];
      for (std::size_t i = 0; i < facets.size(); ++i) to[i] = facets[i] < 0 ? -1 : global[std::size_t(facets[i])];
    }
  }
  if (!failure.empty()) throw std::runtime_error("bfr_tessellate: " + failure);
  return out;
}

}  // namespace spmesh::test
