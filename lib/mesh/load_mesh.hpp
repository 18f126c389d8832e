#pragma once
/// Loading a tetrahedral mesh from any supported file.
#include <filesystem>

#include "mesh/tet_mesh.hpp"

namespace simrun {

/// Loads a tet mesh by extension (case-insensitive): .node/.ele (TetGen), .mesh (Medit),
/// .msh (Gmsh), or a surface .off/.obj/.stl that is tetrahedralized with TetGen using
/// `quality_ratio`, `max_volume` and `target_tets` (see tetrahedralize()). Tets come out
/// positively oriented; the number the reader had to flip is stored in `num_flipped` if given.
/// Throws InputError naming the path for a missing or unreadable file or an unknown extension.
TetMesh load_mesh_file(const std::filesystem::path& path, double quality_ratio, double max_volume,
                       int target_tets, int* num_flipped = nullptr);

}  // namespace simrun
