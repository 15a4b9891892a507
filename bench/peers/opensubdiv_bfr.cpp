// OpenSubdiv's Bfr as reference and peer (see opensubdiv_bfr.hpp).
#include "bench/peers/opensubdiv_bfr.hpp"

#include <opensubdiv/bfr/refinerSurfaceFactory.h>
#include <opensubdiv/bfr/surface.h>
#include <opensubdiv/bfr/surfaceFactoryCache.h>
#include <opensubdiv/bfr/tessellation.h>
#include <opensubdiv/far/topologyRefiner.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
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

// Per face: its surface, its pattern's coordinates and, per coordinate, the point it is and
// whether this face evaluates it; the facets of every face in points.
struct BfrTessellator::Faces {
  std::unique_ptr<Factory> factory;
  std::vector<Bfr::Surface<double>> surfaces;
  std::vector<std::vector<double>> coords;
  std::vector<std::vector<int>> point;  // -1: another face evaluates it
  std::vector<int> facets;
  int points = 0;
};

BfrTessellator::BfrTessellator(const Far::TopologyRefiner& refiner, int rate, int approx_level)
    : faces_(std::make_unique<Faces>()) {
  Faces& out = *faces_;
  out.factory = std::make_unique<Factory>(refiner, factory_options(approx_level));
  const Far::TopologyLevel& base = refiner.GetLevel(0);
  const int faces = base.GetNumFaces(), edges = base.GetNumEdges(), vertices = base.GetNumVertices();
  const int N = rate;
  const auto options = Bfr::Tessellation::Options().PreserveQuads(true).SetFacetSize(4);
  const Sdc::SchemeType scheme = refiner.GetSchemeType();
  // Each face's inner points and facets, from its size alone.
  std::vector<std::int64_t> inner(std::size_t(faces) + 1, 0), facet_start(std::size_t(faces) + 1, 0);
  for (int f = 0; f < faces; ++f) {
    const Bfr::Tessellation pattern(Bfr::Parameterization(scheme, base.GetFaceVertices(f).size()), N, options);
    inner[std::size_t(f) + 1] = inner[std::size_t(f)] + pattern.GetNumInteriorCoords();
    facet_start[std::size_t(f) + 1] = facet_start[std::size_t(f)] + pattern.GetNumFacets();
  }
  const std::int64_t total = std::int64_t(vertices) + std::int64_t(edges) * (N - 1) + inner.back();
  if (total > std::numeric_limits<int>::max() || 4 * std::int64_t(facet_start.back()) > std::numeric_limits<int>::max())
    throw std::runtime_error("bfr_tessellate: " + std::to_string(total) + " points, more than an int holds");
  const int first_inner = vertices + edges * (N - 1);
  out.points = int(total);
  out.surfaces.resize(std::size_t(faces)), out.coords.resize(std::size_t(faces)), out.point.resize(std::size_t(faces));
  out.facets.assign(4 * std::size_t(facet_start.back()), -1);
  auto lowest = [](Far::ConstIndexArray around) { return *std::min_element(around.begin(), around.end()); };
  std::string failure;
#pragma omp parallel for schedule(dynamic, 16)
  for (int f = 0; f < faces; ++f) {
    auto& surface = out.surfaces[std::size_t(f)];
    if (!out.factory->InitVertexSurface(f, &surface)) {  // a hole: its shared points would have no owner
#pragma omp critical
      failure = "face " + std::to_string(f) + " has no limit surface";
      continue;
    }
    const Bfr::Tessellation pattern(surface.GetParameterization(), N, options);
    const Far::ConstIndexArray corners = base.GetFaceVertices(f), sides = base.GetFaceEdges(f);
    const int size = corners.size(), boundary = pattern.GetNumBoundaryCoords(), count = pattern.GetNumCoords();
    auto& coords = out.coords[std::size_t(f)];
    coords.resize(2 * std::size_t(count));
    pattern.GetCoords(coords.data());
    // The boundary's coordinates: corner a, then edge a's N - 1, corner a + 1, ...
    if (boundary != size * N) {
#pragma omp critical
      failure = "face " + std::to_string(f) + ": " + std::to_string(boundary) + " boundary points, not " +
                std::to_string(size * N);
      continue;
    }
    std::vector<int> global(static_cast<std::size_t>(count));
    std::vector<bool> owned(std::size_t(count), true);
    for (int a = 0; a < size; ++a) {
      global[std::size_t(a * N)] = corners[a], owned[std::size_t(a * N)] = lowest(base.GetVertexFaces(corners[a])) == f;
      const int e = sides[a];
      const bool forward = base.GetEdgeVertices(e)[0] == corners[a], mine = lowest(base.GetEdgeFaces(e)) == f;
      for (int k = 1; k < N; ++k)
        global[std::size_t(a * N + k)] = vertices + e * (N - 1) + (forward ? k - 1 : N - 1 - k),
                                     owned[std::size_t(a * N + k)] = mine;
    }
    for (int i = boundary; i < count; ++i) global[std::size_t(i)] = int(first_inner + inner[std::size_t(f)] + i - boundary);
    auto& point = out.point[std::size_t(f)];
    point.resize(std::size_t(count));
    for (int i = 0; i < count; ++i) point[std::size_t(i)] = owned[std::size_t(i)] ? global[std::size_t(i)] : -1;
    std::vector<int> facets(4 * std::size_t(pattern.GetNumFacets()));
    pattern.GetFacets(facets.data());
    int* to = &out.facets[4 * std::size_t(facet_start[std::size_t(f)])];
    for (std::size_t i = 0; i < facets.size(); ++i) to[i] = facets[i] < 0 ? -1 : global[std::size_t(facets[i])];
  }
  if (!failure.empty()) throw std::runtime_error("bfr_tessellate: " + failure);
}

BfrTessellator::~BfrTessellator() = default;

const std::vector<int>& BfrTessellator::facets() const { return faces_->facets; }

BfrTessellation BfrTessellator::evaluate(const std::vector<double>& points) const {
  const Faces& in = *faces_;
  BfrTessellation out{std::vector<double>(3 * std::size_t(in.points)), std::vector<double>(3 * std::size_t(in.points)), {}};
#pragma omp parallel
  {
    std::vector<double> patch_points;
#pragma omp for schedule(dynamic, 16)
    for (int f = 0; f < int(in.surfaces.size()); ++f) {
      const auto& surface = in.surfaces[std::size_t(f)];
      if (!surface.IsValid()) continue;
      patch_points.resize(std::size_t(3 * surface.GetNumPatchPoints()));
      surface.PreparePatchPoints(points.data(), 3, patch_points.data(), 3);
      const auto& point = in.point[std::size_t(f)];
      for (std::size_t i = 0; i < point.size(); ++i) {
        if (point[i] < 0) continue;
        const std::size_t g = 3 * std::size_t(point[i]);
        double du[3], dv[3];
        surface.Evaluate(&in.coords[std::size_t(f)][2 * i], patch_points.data(), 3, &out.position[g], du, dv);
        const double normal[3] = {du[1] * dv[2] - du[2] * dv[1], du[2] * dv[0] - du[0] * dv[2], du[0] * dv[1] - du[1] * dv[0]};
        const double length = std::sqrt(normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]);
        for (int c = 0; c < 3; ++c) out.normal[g + std::size_t(c)] = length > 0 ? normal[c] / length : 0;
      }
    }
  }
  return out;
}

BfrTessellation bfr_tessellate(const Far::TopologyRefiner& refiner, const std::vector<double>& points, int rate,
                               int approx_level) {
  BfrTessellator tessellator(refiner, rate, approx_level);
  BfrTessellation out = tessellator.evaluate(points);
  out.facets = tessellator.facets();
  return out;
}

}  // namespace spmesh::test
