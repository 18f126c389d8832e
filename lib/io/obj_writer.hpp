#pragma once
/// Wavefront OBJ output of triangle surfaces (the boundary surface per output step, or a
/// surface mesh for inspection). Vertices as "v x y z", faces as "f i j k" with 1-based indices.
#include <filesystem>
#include <string>

#include "core/types.hpp"
#include "mesh/tet_mesh.hpp"

namespace simrun {

/// The OBJ text for `faces` over `positions` (coordinates in shortest round-trip form).
/// Throws std::invalid_argument when a face refers to a vertex outside `positions`.
std::string obj_document(const MatX3& positions, const MatX3i& faces);

/// Writes obj_document(...) to `path` atomically (see write_file_atomically for errors).
/// `positions` may have more rows than the faces use (e.g. all mesh vertices, deformed).
void write_obj(const std::filesystem::path& path, const MatX3& positions, const MatX3i& faces);

/// Writes a surface mesh at its own vertex positions.
inline void write_obj(const std::filesystem::path& path, const SurfaceMesh& surface) {
  write_obj(path, surface.vertices, surface.faces);
}

}  // namespace simrun
