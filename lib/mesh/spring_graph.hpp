#pragma once
/// Mass-spring graphs (Chen thesis Ch. 4 rope, cloth and pendulum): particles joined by springs,
/// stored as a TetMesh with vertices and edges and no tets.
#include "mesh/tet_mesh.hpp"

namespace simrun {

/// `particles` (>= 2) equally spaced along -y from the origin over `length` [m]; springs join
/// consecutive particles (particles - 1 springs). Throws InputError for bad sizes.
TetMesh make_rope(int particles, double length);

/// nx x nz particles (each >= 2) on [0, sx] x {0} x [0, sz], particle (i, j) at index i + nx j.
/// Structural springs join neighbours along x and z (nz (nx-1) + nx (nz-1)); with `shear`, both
/// diagonals of every cell too (2 (nx-1)(nz-1)).
TetMesh make_cloth(const Eigen::Vector2d& size, const Eigen::Vector2i& particles, bool shear);

}  // namespace simrun
