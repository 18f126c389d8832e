#pragma once
/// Reader for Medit .mesh (ASCII), as written by Gmsh, MMG, CGAL and TetGen.
#include <filesystem>

#include "mesh/tet_mesh.hpp"

namespace simrun {

/// Reads the Vertices and Tetrahedra sections of an ASCII Medit .mesh file (Dimension 3); the
/// reference number of each tetrahedron becomes its region. Other sections (Triangles, Edges,
/// Corners, ...) are skipped, one entry per line. Tets are re-oriented with orient_tets(); the
/// number flipped is stored in `num_flipped` if given. Throws InputError naming file:line.
TetMesh read_medit(const std::filesystem::path& path, int* num_flipped = nullptr);

}  // namespace simrun
