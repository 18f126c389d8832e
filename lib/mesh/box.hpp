#pragma once
/// Structured tetrahedral mesh of an axis-aligned box.
#include "mesh/tet_mesh.hpp"

namespace simrun {

/// Box [0, size] with cells(0) x cells(1) x cells(2) cubes, each split into `tets_per_cube`
/// tets: 6 (Kuhn/Freudenthal split along the main diagonal) or 5 (a central tet plus four
/// corners, mirrored by cell parity (i + j + k) % 2 so face diagonals match). Both are conforming
/// and every tet is positively oriented. Vertex (i, j, k) has index i + (nx+1) * (j + (ny+1) * k).
/// Throws InputError for a non-positive size or cell count or a split other than 5 or 6.
TetMesh make_box(const Vec3& size, const Eigen::Vector3i& cells, int tets_per_cube);

}  // namespace simrun
