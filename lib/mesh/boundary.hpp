#pragma once
/// Boundary of a tetrahedral mesh.
#include <array>
#include <vector>

#include "mesh/tet_mesh.hpp"

namespace simrun {

/// Triangles used by exactly one tet, counter-clockwise seen from outside (outward normal by
/// the right-hand rule), assuming positively oriented tets. Ordered by tet, then local face.
MatX3i boundary_faces(const TetMesh& mesh);

/// A triangle that is a face of more than two tets: the tets overlap there (a duplicated tet, or
/// two tets on the same side of a face), which no valid tet mesh has.
struct OversharedFace {
  std::array<int, 3> vertices;  ///< sorted
  std::vector<int> tets;        ///< ascending
};
/// Every triangle that is a face of more than two tets (none for a valid mesh). As long as
/// there is none, the boundary faces of any tet mesh form closed surfaces: around an edge, the
/// tets form fans through shared faces, and each fan that does not close into a cycle has
/// exactly two boundary faces at the edge. So this is what an "open" tet mesh boundary is.
std::vector<OversharedFace> overshared_faces(const TetMesh& mesh);

/// Sorted indices of the vertices of boundary_faces(mesh).
std::vector<int> boundary_vertices(const TetMesh& mesh);

/// Per vertex, its share of the boundary area at the rest positions: a third of the area of every
/// boundary triangle it is a corner of (zero for interior vertices). The lumped weights that turn
/// a pressure on the surface into vertex forces; they sum to the boundary's area [m^2].
VecX boundary_vertex_areas(const TetMesh& mesh);

}  // namespace simrun
