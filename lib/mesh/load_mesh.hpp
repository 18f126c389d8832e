#pragma once
/// Loading a tetrahedral mesh from any supported file.
#include <filesystem>

#include "mesh/decimate.hpp"
#include "mesh/tet_mesh.hpp"

namespace simrun {

/// Loads a tet mesh by extension (case-insensitive): .node/.ele (TetGen), .mesh (Medit),
/// .msh (Gmsh), or a surface .off/.obj/.stl that is tetrahedralized with TetGen using
/// `quality_ratio`, `max_volume` and `target_tets` (see tetrahedralize()). Tets come out
/// positively oriented; the number the reader had to flip is stored in `num_flipped` if given.
/// Throws InputError naming the path for a missing or unreadable file or an unknown extension.
/// `surface_faces` > 0 first simplifies a surface file to at most that many triangles
/// (decimate_surface); `decimation` (if given) receives what that did.
TetMesh load_mesh_file(const std::filesystem::path& path, double quality_ratio, double max_volume,
                       int target_tets, int* num_flipped = nullptr, int surface_faces = 0,
                       DecimationResult* decimation = nullptr);

}  // namespace simrun
