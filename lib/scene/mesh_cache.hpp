#pragma once
/// TetGen meshes of surface files cached on disk (docs/caches.md): simplifying a large surface
/// and tetrahedralizing it takes seconds on every run of a scene, for the same mesh each time.
#include <filesystem>
#include <string>

#include "mesh/load_mesh.hpp"

namespace simrun {

/// load_mesh_file (same arguments and errors), with the result for a surface file (.off, .obj,
/// .stl: simplified and tetrahedralized) read from `cache_dir` when this build meshed the same
/// file contents with the same settings before, else computed and stored there. Volume mesh
/// files are read as they are; an empty cache_dir caches nothing. `note` (if given) receives
/// "reused the TetGen mesh ..." or "" (a new entry is not worth a log line).
TetMesh load_mesh_file_cached(const std::filesystem::path& cache_dir,
                              const std::filesystem::path& path, double quality_ratio,
                              double max_volume, int target_tets, int* num_flipped,
                              int surface_faces, DecimationResult* decimation,
                              std::string* note = nullptr);

}  // namespace simrun
