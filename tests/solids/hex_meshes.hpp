// The team's hex meshes (../shared/meshes/hex), which tests read where the folder is present.
#pragma once

#include <doctest/doctest.h>

#include <filesystem>
#include <optional>

namespace spmesh::test {

inline constexpr const char* team_hex_meshes[] = {"hex_demo.mesh", "disc_extrude.mesh", "sphere_allhex.mesh"};

// Their folder, or none (and a message saying the test skips them) where it is absent.
inline std::optional<std::filesystem::path> hex_mesh_folder() {
  const std::filesystem::path dir = std::filesystem::path(SPMESH_SHARED_DIR) / "meshes/hex";
  if (std::filesystem::exists(dir)) return dir;
  MESSAGE("skipped the team's hex meshes: " << dir.string() << " is absent");
  return std::nullopt;
}

}  // namespace spmesh::test
