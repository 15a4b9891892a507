// The command line's volume meshes (volume.cpp): which inputs are volumes, and the commands on them.
#pragma once

#include "apps/args.hpp"

#include <string>

namespace spmesh::apps {

// Whether `path` names a volume mesh spmesh reads (.mesh, .vtk, .vtu, .msh: solids/volume_io.hpp).
bool is_volume_file(const std::string& path);

// Options of volume meshes that mean nothing for a surface: refused by name rather than ignored.
void refuse_volume_options(const Args& args);

// spmesh subdivide on a volume mesh: Catmull-Clark solids on the CPU or the GPU, written as .vtu
// or .mesh.
int subdivide_volume(const Args& args);

// spmesh build on a volume mesh: the refinement matrix R of Catmull-Clark solids, saved as a
// refinement file (solids/refinement_file.hpp).
int build_volume(const Args& args);

// spmesh replay of a solid's refinement file: P_L = R P_0 for each pose (a volume mesh with the
// base cells), written as .vtu, .vtk or .mesh.
int replay_volume(const Args& args);

// spmesh limit on a volume mesh: the solid's limit at samples (cell, u, v, w) of SAMPLES.txt,
// written a line a sample, or on a K x K x K grid of samples in each cell, written as a volume
// mesh; on the CPU or the GPU, on the input or on its refinement L levels down (--refine L).
int limit_volume(const Args& args);

// spmesh info on a volume mesh: counts, Euler characteristic, boundary faces, cell kinds, edge
// valences, extraordinary edges, vertices in no cell, and the first geometry problem.
int info_volume(const std::string& path);

}  // namespace spmesh::apps
