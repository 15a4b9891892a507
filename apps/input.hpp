// What subdivide and build read and check before any work: the mesh, its tags, the options the
// command line asks for, and the size of its levels.
#pragma once

#include "apps/args.hpp"
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
};

// --triangulate, if given.
std::optional<meshops::Triangulation> triangulation(const Args& args);

// The mesh, its tags and options, and the memory estimate: build_and_eval's (one_pass, for
// subdivide) or a plan's (for build). Throws before any work if the levels cannot be indexed
// or, on the GPU, held.
Input read_input(const Args& args, int levels, bool one_pass);

// --dry-run: every level's size and the bytes needed (and on the GPU, what is free).
int dry_run(const Input& in, const std::string& device);

}  // namespace spmesh::apps
