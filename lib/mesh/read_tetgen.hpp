#pragma once
/// Reader for TetGen's .node/.ele pair.
#include <filesystem>

#include "mesh/tet_mesh.hpp"

namespace simrun {

/// Reads a TetGen mesh given the path of its .node or its .ele file (the other is found beside
/// it with the same stem). Handles '#' comments, 0- or 1-based numbering (taken from the first
/// point index of the .node file), point attributes and boundary markers; the first element
/// attribute, if any, becomes TetMesh::regions. Tets are re-oriented with orient_tets(); the
/// number flipped is stored in `num_flipped` if given.
/// Throws InputError naming file:line for malformed input.
TetMesh read_tetgen(const std::filesystem::path& path, int* num_flipped = nullptr);

}  // namespace simrun
