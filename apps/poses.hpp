// What `spmesh replay` of a surface and of a volume share: where each pose's result goes.
#pragma once

#include "apps/args.hpp"
#include "meshops/output.hpp"

#include <string>
#include <vector>

namespace spmesh::apps {

// replay's outputs, one a pose (OUTDIR/<pose's stem>.<format>), each reserved in `outputs` before
// any work (none an input or another pose's output); Error unless --output is a folder.
std::vector<std::string> reserve_pose_outputs(const Args& args, const std::string& format,
                                              meshops::OutputFiles& outputs);

}  // namespace spmesh::apps
