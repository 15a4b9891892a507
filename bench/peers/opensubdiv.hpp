// OpenSubdiv 3.5 (Far), the parity reference of the scheme tests and the peer of the
// subdivision benchmark: the same mesh, sharpness and options handed to
// TopologyRefinerFactory<TopologyDescriptor>.
#pragma once

#include "meshops/mesh.hpp"
#include "schemes/tags.hpp"

#include <opensubdiv/far/topologyRefiner.h>

#include <memory>
#include <vector>

namespace spmesh::test {

// The level-0 refiner of a mesh for `scheme` (SCHEME_CATMARK or SCHEME_LOOP; not yet refined).
// boundary_none: OpenSubdiv's VTX_BOUNDARY_NONE instead of options.boundary (spmesh refines
// `interpolateboundary 0` shapes as edge-only; the parity test checks that this agrees);
// holes: a flag per face (TagSettings::holes), its faces tagged as Far's holes.
std::unique_ptr<OpenSubdiv::Far::TopologyRefiner> osd_refiner(
    const meshops::PolyMesh& mesh, const schemes::Sharpness<>& sharpness,
    const schemes::Options& options, bool boundary_none = false,
    OpenSubdiv::Sdc::SchemeType scheme = OpenSubdiv::Sdc::SCHEME_CATMARK, const std::vector<char>& holes = {});

// Uniform refinement with every level's positions (PrimvarRefinerReal<double>).
struct OsdRefinement {
  std::unique_ptr<OpenSubdiv::Far::TopologyRefiner> refiner;
  std::vector<std::vector<double>> positions;  // per level, vertices x 3 (level 0 = input)

  const OpenSubdiv::Far::TopologyLevel& level(int l) const { return refiner->GetLevel(l); }
};

OsdRefinement osd_refine(const meshops::PolyMesh& mesh, const schemes::Sharpness<>& sharpness,
                         const schemes::Options& options, int levels, bool boundary_none = false,
                         OpenSubdiv::Sdc::SchemeType scheme = OpenSubdiv::Sdc::SCHEME_CATMARK,
                         const std::vector<char>& holes = {});

// Far::PrimvarRefiner::Limit on the refinement's last level: the limit positions and both
// tangents of its vertices, vertices x 3 each.
struct OsdLimits {
  std::vector<double> position, tangent1, tangent2;
};
OsdLimits osd_limit(const OsdRefinement& r);

// Far's limit at samples (faces[s], u[s], v[s]) in Bfr's parameterization of each face (moved to
// Far's Ptex faces: a polygon's sub-faces), as a LimitStencilTable on the base vertices (double)
// from a refiner refined adaptively to `isolation` levels (PatchTableFactory's defaults: Gregory
// end caps), made once; evaluate() applies it (UpdateValues, UpdateDerivs: one thread) to any
// positions of those vertices, samples x 3 each. What a Far user re-evaluating an animated
// mesh's samples keeps.
class FarLimitStencils {
public:
  FarLimitStencils(const meshops::PolyMesh& mesh, const schemes::Sharpness<>& sharpness,
                   const schemes::Options& options, const std::vector<index_t>& faces,
                   const std::vector<double>& u, const std::vector<double>& v, int isolation);
  ~FarLimitStencils();
  OsdLimits evaluate(const std::vector<double>& points) const;  // position, tangent1 = du, tangent2 = dv
  std::size_t entries() const;                                  // the table's weights, a block

private:
  struct Table;
  std::unique_ptr<Table> table_;
};

// OpenSubdiv's feature-adaptive path (issue 28's peer): the build, RefineAdaptive(isolation) and
// PatchTableFactory's table (its defaults: Gregory end caps at the isolation level) and PatchMap;
// evaluate(), at samples (faces[s], u[s], v[s]) in Bfr's parameterization (a polygon's
// sub-faces as Far's Ptex faces), the refined vertices (PrimvarRefiner::Interpolate level by
// level), the patches' local points, and each sample's patch (EvaluateBasis on its points), one
// thread, double. What a Far user evaluating an animated mesh's adaptive patches does a frame.
class FarAdaptive {
public:
  FarAdaptive(const meshops::PolyMesh& mesh, const schemes::Sharpness<>& sharpness, const schemes::Options& options,
              int isolation);
  ~FarAdaptive();
  OsdLimits evaluate(const std::vector<double>& points, const std::vector<index_t>& faces, const std::vector<double>& u,
                     const std::vector<double>& v) const;  // position, tangent1 = du, tangent2 = dv
  std::size_t patches() const;
  std::size_t points() const;  // refined vertices and local points

private:
  struct Table;
  std::unique_ptr<Table> table_;
};

}  // namespace spmesh::test
