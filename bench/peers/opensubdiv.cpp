// OpenSubdiv as reference and peer (see opensubdiv.hpp).
#include "bench/peers/opensubdiv.hpp"

#include <opensubdiv/bfr/parameterization.h>
#include <opensubdiv/far/patchMap.h>
#include <opensubdiv/far/patchTableFactory.h>
#include <opensubdiv/far/primvarRefiner.h>
#include <opensubdiv/far/ptexIndices.h>
#include <opensubdiv/far/stencilTable.h>
#include <opensubdiv/far/stencilTableFactory.h>
#include <opensubdiv/far/topologyDescriptor.h>
#include <opensubdiv/far/topologyRefinerFactory.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace spmesh::test {

namespace {

using namespace OpenSubdiv;

struct Point {
  double x[3];
  void Clear() { x[0] = x[1] = x[2] = 0; }
  void AddWithWeight(const Point& p, double w) {
    for (int c = 0; c < 3; ++c) x[c] += w * p.x[c];
  }
};

Sdc::Options sdc_options(const schemes::Options& o, bool boundary_none) {
  Sdc::Options s;
  s.SetVtxBoundaryInterpolation(boundary_none ? Sdc::Options::VTX_BOUNDARY_NONE
                                : o.boundary == schemes::Boundary::edge_and_corner
                                    ? Sdc::Options::VTX_BOUNDARY_EDGE_AND_CORNER
                                    : Sdc::Options::VTX_BOUNDARY_EDGE_ONLY);
  s.SetCreasingMethod(o.crease == schemes::CreaseMethod::chaikin ? Sdc::Options::CREASE_CHAIKIN
                                                                 : Sdc::Options::CREASE_UNIFORM);
  s.SetTriangleSubdivision(o.triangles == schemes::TriangleRule::smooth ? Sdc::Options::TRI_SUB_SMOOTH
                                                                         : Sdc::Options::TRI_SUB_CATMARK);
  return s;
}

}  // namespace

std::unique_ptr<Far::TopologyRefiner> osd_refiner(const meshops::PolyMesh& mesh,
                                                  const schemes::Sharpness<>& sharpness,
                                                  const schemes::Options& options,
                                                  bool boundary_none, Sdc::SchemeType scheme,
                                                  const std::vector<char>& holes) {
  const auto& M = mesh.M;
  std::vector<int> counts(M.faces), verts(M.indices.begin(), M.indices.end());
  for (index_t f = 0; f < M.faces; ++f) counts[f] = M.offsets[f + 1] - M.offsets[f];
  const auto& C = sharpness.edges;
  std::vector<int> crease_pairs;
  for (index_t k = 0; k < C.nnz(); ++k)
    crease_pairs.push_back(C.row_indices[k]), crease_pairs.push_back(C.col_indices[k]);
  std::vector<int> corners;
  std::vector<float> corner_weights;
  for (index_t v = 0; v < mesh.vertex_count(); ++v)
    if (sharpness.vertices[v] > 0) corners.push_back(v), corner_weights.push_back(sharpness.vertices[v]);

  Far::TopologyDescriptor d;
  d.numVertices = mesh.vertex_count();
  d.numFaces = M.faces;
  d.numVertsPerFace = counts.data();
  d.vertIndicesPerFace = verts.data();
  d.numCreases = C.nnz();
  d.creaseVertexIndexPairs = crease_pairs.data();
  d.creaseWeights = C.values.data();
  d.numCorners = static_cast<int>(corners.size());
  d.cornerVertexIndices = corners.data();
  d.cornerWeights = corner_weights.data();
  std::vector<int> hole_faces;
  for (std::size_t f = 0; f < holes.size(); ++f)
    if (holes[f]) hole_faces.push_back(int(f));
  d.numHoles = int(hole_faces.size());
  d.holeIndices = hole_faces.data();

  using Factory = Far::TopologyRefinerFactory<Far::TopologyDescriptor>;
  return std::unique_ptr<Far::TopologyRefiner>(
      Factory::Create(d, Factory::Options(scheme, sdc_options(options, boundary_none))));
}

OsdRefinement osd_refine(const meshops::PolyMesh& mesh, const schemes::Sharpness<>& sharpness,
                         const schemes::Options& options, int levels, bool boundary_none,
                         Sdc::SchemeType scheme, const std::vector<char>& holes) {
  OsdRefinement r;
  r.refiner = osd_refiner(mesh, sharpness, options, boundary_none, scheme, holes);
  Far::TopologyRefiner::UniformOptions uniform(levels);
  uniform.fullTopologyInLastLevel = true;  // for Limit (osd_limit)
  r.refiner->RefineUniform(uniform);

  r.positions.emplace_back(mesh.positions.data.begin(), mesh.positions.data.end());
  Far::PrimvarRefinerReal<double> primvars(*r.refiner);
  for (int l = 1; l <= levels; ++l) {
    std::vector<double> child(3 * r.refiner->GetLevel(l).GetNumVertices());
    auto* src = reinterpret_cast<const Point*>(r.positions.back().data());
    auto* dst = reinterpret_cast<Point*>(child.data());
    primvars.Interpolate(l, src, dst);
    r.positions.push_back(std::move(child));
  }
  return r;
}

OsdLimits osd_limit(const OsdRefinement& r) {
  const std::size_t n = r.positions.back().size();
  OsdLimits out{std::vector<double>(n), std::vector<double>(n), std::vector<double>(n)};
  auto* position = reinterpret_cast<Point*>(out.position.data());
  auto* tangent1 = reinterpret_cast<Point*>(out.tangent1.data());
  auto* tangent2 = reinterpret_cast<Point*>(out.tangent2.data());
  Far::PrimvarRefinerReal<double>(*r.refiner)
      .Limit(reinterpret_cast<const Point*>(r.positions.back().data()), position, tangent1, tangent2);
  return out;
}

// Far locates samples by Ptex face: a quad is one, a polygon of n sides n, its sub-faces, whose
// Ptex (s, t) are Bfr's normalized sub-face coordinates (twice the face's (u, v) from the tile, so
// a derivative there is scaled by 2).
void ptex_locations(const Far::TopologyRefiner& refiner, const std::vector<index_t>& faces, const std::vector<double>& u,
                    const std::vector<double>& v, std::vector<int>& ptex_face, std::vector<double>& s_at,
                    std::vector<double>& t_at, std::vector<double>& derivative_scale) {
  const Far::PtexIndices ptex(refiner);
  const auto& level = refiner.GetLevel(0);
  ptex_face.resize(faces.size()), s_at = u, t_at = v;
  derivative_scale.assign(faces.size(), 1.0);
  for (std::size_t s = 0; s < faces.size(); ++s) {
    const int f = int(faces[s]), n = level.GetFaceVertices(f).size();
    ptex_face[s] = ptex.GetFaceId(f);
    if (n == 4) continue;
    const double uv[2] = {u[s], v[s]};
    double st[2];
    ptex_face[s] += Bfr::Parameterization(Sdc::SCHEME_CATMARK, n).ConvertCoordToNormalizedSubFace(uv, st);
    s_at[s] = st[0], t_at[s] = st[1], derivative_scale[s] = 2;
  }
}

struct FarLimitStencils::Table {
  std::unique_ptr<Far::TopologyRefiner> refiner;
  std::unique_ptr<const Far::LimitStencilTableReal<double>> stencils;
  std::vector<double> derivative_scale;  // a sample's: 2 on a polygon's sub-face (its Ptex face)
};

FarLimitStencils::FarLimitStencils(const meshops::PolyMesh& mesh, const schemes::Sharpness<>& sharpness,
                                   const schemes::Options& options, const std::vector<index_t>& faces,
                                   const std::vector<double>& u, const std::vector<double>& v, int isolation)
    : table_(std::make_unique<Table>()) {
  table_->refiner = osd_refiner(mesh, sharpness, options);
  table_->refiner->RefineAdaptive(Far::TopologyRefiner::AdaptiveOptions(isolation));
  std::vector<int> ptex_face;
  std::vector<double> s_at, t_at;
  ptex_locations(*table_->refiner, faces, u, v, ptex_face, s_at, t_at, table_->derivative_scale);
  // A location array a run of samples on one Ptex face, in the samples' order.
  Far::LimitStencilTableFactoryReal<double>::LocationArrayVec locations;
  for (std::size_t s = 0; s < faces.size();) {
    std::size_t end = s + 1;
    while (end < faces.size() && ptex_face[end] == ptex_face[s]) ++end;
    Far::LimitStencilTableFactoryReal<double>::LocationArray run;
    run.ptexIdx = ptex_face[s], run.numLocations = int(end - s), run.s = s_at.data() + s, run.t = t_at.data() + s;
    locations.push_back(run);
    s = end;
  }
  table_->stencils.reset(Far::LimitStencilTableFactoryReal<double>::Create(*table_->refiner, locations));
  // Far leaves out a location it finds no patch for (a hole): evaluate() pairs stencils with samples.
  if (std::size_t(table_->stencils->GetNumStencils()) != faces.size())
    throw std::runtime_error("FarLimitStencils: " + std::to_string(table_->stencils->GetNumStencils()) +
                             " stencils for " + std::to_string(faces.size()) + " samples");
}

FarLimitStencils::~FarLimitStencils() = default;

OsdLimits FarLimitStencils::evaluate(const std::vector<double>& points) const {
  const std::size_t n = 3 * std::size_t(table_->stencils->GetNumStencils());
  OsdLimits out{std::vector<double>(n), std::vector<double>(n), std::vector<double>(n)};
  const auto* from = reinterpret_cast<const Point*>(points.data());
  table_->stencils->UpdateValues(from, reinterpret_cast<Point*>(out.position.data()));
  table_->stencils->UpdateDerivs(from, reinterpret_cast<Point*>(out.tangent1.data()),
                                 reinterpret_cast<Point*>(out.tangent2.data()));
  for (std::size_t s = 0; s < table_->derivative_scale.size(); ++s)
    for (std::size_t c = 0; c < 3; ++c)
      out.tangent1[3 * s + c] *= table_->derivative_scale[s], out.tangent2[3 * s + c] *= table_->derivative_scale[s];
  return out;
}

std::size_t FarLimitStencils::entries() const { return table_->stencils->GetWeights().size(); }

struct FarAdaptive::Table {
  std::unique_ptr<Far::TopologyRefiner> refiner;
  std::unique_ptr<Far::PatchTable> patches;
  std::unique_ptr<Far::PatchMap> map;
};

FarAdaptive::FarAdaptive(const meshops::PolyMesh& mesh, const schemes::Sharpness<>& sharpness,
                         const schemes::Options& options, int isolation)
    : table_(std::make_unique<Table>()) {
  table_->refiner = osd_refiner(mesh, sharpness, options);
  table_->refiner->RefineAdaptive(Far::TopologyRefiner::AdaptiveOptions(isolation));
  table_->patches.reset(Far::PatchTableFactory::Create(*table_->refiner, Far::PatchTableFactory::Options(isolation)));
  table_->map = std::make_unique<Far::PatchMap>(*table_->patches);
}

FarAdaptive::~FarAdaptive() = default;

std::size_t FarAdaptive::patches() const { return std::size_t(table_->patches->GetNumPatchesTotal()); }
std::size_t FarAdaptive::points() const {
  return std::size_t(table_->refiner->GetNumVerticesTotal() + table_->patches->GetNumLocalPoints());
}

OsdLimits FarAdaptive::evaluate(const std::vector<double>& points, const std::vector<index_t>& faces,
                                const std::vector<double>& u, const std::vector<double>& v) const {
  const Far::TopologyRefiner& refiner = *table_->refiner;
  std::vector<Point> all(this->points());
  std::copy(points.begin(), points.end(), &all[0].x[0]);
  Far::PrimvarRefinerReal<double> primvars(refiner);
  Point* from = all.data();
  for (int level = 1; level <= refiner.GetMaxLevel(); ++level) {
    Point* to = from + refiner.GetLevel(level - 1).GetNumVertices();
    primvars.Interpolate(level, from, to);
    from = to;
  }
  table_->patches->ComputeLocalPointValues(all.data(), all.data() + refiner.GetNumVerticesTotal());
  std::vector<int> ptex_face;
  std::vector<double> s_at, t_at, scale;
  ptex_locations(refiner, faces, u, v, ptex_face, s_at, t_at, scale);
  const std::size_t n = faces.size();
  OsdLimits out{std::vector<double>(3 * n), std::vector<double>(3 * n), std::vector<double>(3 * n)};
  double w[20], ws[20], wt[20];
  for (std::size_t s = 0; s < n; ++s) {
    const Far::PatchTable::PatchHandle* handle = table_->map->FindPatch(ptex_face[s], s_at[s], t_at[s]);
    if (!handle) throw std::runtime_error("FarAdaptive: no patch at sample " + std::to_string(s));
    table_->patches->EvaluateBasis(*handle, s_at[s], t_at[s], w, ws, wt);
    const Far::ConstIndexArray cvs = table_->patches->GetPatchVertices(*handle);
    for (int i = 0; i < cvs.size(); ++i)
      for (int c = 0; c < 3; ++c) {
        const double x = all[std::size_t(cvs[i])].x[c];
        out.position[3 * s + std::size_t(c)] += w[i] * x;
        out.tangent1[3 * s + std::size_t(c)] += scale[s] * ws[i] * x;
        out.tangent2[3 * s + std::size_t(c)] += scale[s] * wt[i] * x;
      }
  }
  return out;
}

}  // namespace spmesh::test
