#pragma once
/// Orientation and validity of tetrahedra.
#include <string>

#include "mesh/tet_mesh.hpp"

namespace simrun {

/// Six times the signed volume of tet `t` over `vertices`: det([x1 - x0, x2 - x0, x3 - x0]).
double signed_volume6(const MatX3& vertices, const MatX4i& tets, int t);
/// The same at the mesh's own vertices.
inline double signed_volume6(const TetMesh& mesh, int t) {
  return signed_volume6(mesh.vertices, mesh.tets, t);
}

/// Makes every tet positively oriented (det([x1-x0, x2-x0, x3-x0]) > 0) by swapping its last two
/// vertices where needed; returns how many were flipped. Throws InputError naming `source_name`,
/// the 0-based element index and its vertices for an index out of range, a repeated vertex or a
/// degenerate tet (|6V| <= 1e-12 * (longest edge)^3), and for a region list of the wrong length.
int orient_tets(TetMesh& mesh, const std::string& source_name = "mesh");

}  // namespace simrun
