// What subdivide and build read and check before any work: the mesh, its tags, the options the
// command line asks for, and the size of its levels.
#pragma once

#include "apps/args.hpp"
#include "apps/host_estimate.hpp"
#include "apps/host_memory.hpp"
#include "meshops/mesh.hpp"
#include "meshops/triangulate.hpp"
#include "schemes/schemes.hpp"
#include "schemes/tags.hpp"

#include <optional>
#include <string>

namespace spmesh::apps {

struct Input {
  std::string scheme;
  meshops::PolyMesh mesh;
  schemes::TagSettings tags;
  schemes::Options options;
  schemes::SizeEstimate size;
  HostEstimate host;         // the host memory the command takes at most
  HostAvailable available;   // what the process may still take
};

// --triangulate, if given.
std::optional<meshops::Triangulation> triangulation(const Args& args);

// The mesh, its tags and options, and the memory estimates: the executor's (build_and_eval's,
// one_pass, for subdivide; a plan's for build) and the host's (host_estimate.hpp). Throws
// CapacityError before any work if the levels cannot be indexed or held: on the GPU, or on the
// host (more than host_available()), unless --dry-run. Hole tags are read where `keep_holes`
// (subdivide, build and limit, whose outputs and replays leave their descendants out) and
// refused by name elsewhere.
Input read_input(const Args& args, int levels, bool one_pass, bool keep_holes = false);

// --dry-run: every level's size, the bytes needed on the executor (and on the GPU, what is
// free) and on the host, with what is available.
int dry_run(const Input& in, const std::string& device);

}  // namespace spmesh::apps
