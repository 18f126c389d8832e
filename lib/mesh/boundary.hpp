#pragma once
/// Boundary of a tetrahedral mesh.
#include <vector>

#include "mesh/tet_mesh.hpp"

namespace simrun {

/// Triangles used by exactly one tet, counter-clockwise seen from outside (outward normal by
/// the right-hand rule), assuming positively oriented tets. Ordered by tet, then local face.
MatX3i boundary_faces(const TetMesh& mesh);

/// Sorted indices of the vertices of boundary_faces(mesh).
std::vector<int> boundary_vertices(const TetMesh& mesh);

}  // namespace simrun
