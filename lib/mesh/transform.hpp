#pragma once
/// Rigid-plus-scale placement of a mesh in the scene.
#include "mesh/tet_mesh.hpp"

namespace simrun {

/// x <- R(axis, deg) * diag(scale) * x + translate, row by row: scale first, then rotate about
/// `rotate_axis` through the origin (right-hand rule), then translate. Throws InputError for a
/// zero or non-finite scale component or a zero axis with a non-zero angle.
void transform_vertices(MatX3& x, const Vec3& scale, const Vec3& rotate_axis, double rotate_deg,
                        const Vec3& translate);

/// transform_vertices() on the mesh, then orient_tets() since a negative scale product mirrors
/// the mesh; returns the number of tets flipped (all of them for a mirror, else 0).
int transform_mesh(TetMesh& mesh, const Vec3& scale, const Vec3& rotate_axis, double rotate_deg,
                   const Vec3& translate);

}  // namespace simrun
