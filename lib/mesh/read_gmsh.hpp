#pragma once
/// Reader for Gmsh .msh files (ASCII, format 2.2 and 4.1).
#include <filesystem>

#include "mesh/tet_mesh.hpp"

namespace simrun {

/// Reads the 4-node tetrahedra (element type 4) of an ASCII Gmsh mesh, format 2.2 or 4.1; all
/// other elements are ignored, and only nodes used by a tet are kept (renumbered 0.. in the order
/// of the $Nodes section, since node tags may be non-contiguous). Region: the physical tag in 2.2;
/// in 4.1 the volume's first physical group from $Entities if it has one, else its entity tag.
/// Tets are re-oriented with orient_tets(); the number flipped is stored in `num_flipped` if given.
/// Binary files and other versions throw InputError; every error names file:line.
TetMesh read_gmsh(const std::filesystem::path& path, int* num_flipped = nullptr);

}  // namespace simrun
