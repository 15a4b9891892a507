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
// `interpolateboundary 0` shapes as edge-only; the parity test checks that this agrees).
std::unique_ptr<OpenSubdiv::Far::TopologyRefiner> osd_refiner(
    const meshops::PolyMesh& mesh, const schemes::Sharpness<>& sharpness,
    const schemes::Options& options, bool boundary_none = false,
    OpenSubdiv::Sdc::SchemeType scheme = OpenSubdiv::Sdc::SCHEME_CATMARK);

// Uniform refinement with every level's positions (PrimvarRefinerReal<double>).
struct OsdRefinement {
  std::unique_ptr<OpenSubdiv::Far::TopologyRefiner> refiner;
  std::vector<std::vector<double>> positions;  // per level, vertices x 3 (level 0 = input)

  const OpenSubdiv::Far::TopologyLevel& level(int l) const { return refiner->GetLevel(l); }
};

OsdRefinement osd_refine(const meshops::PolyMesh& mesh, const schemes::Sharpness<>& sharpness,
                         const schemes::Options& options, int levels, bool boundary_none = false,
                         OpenSubdiv::Sdc::SchemeType scheme = OpenSubdiv::Sdc::SCHEME_CATMARK);

// Far::PrimvarRefiner::Limit on the refinement's last level: the limit positions and both
// tangents of its vertices, vertices x 3 each.
struct OsdLimits {
  std::vector<double> position, tangent1, tangent2;
};
OsdLimits osd_limit(const OsdRefinement& r);

}  // namespace spmesh::test
