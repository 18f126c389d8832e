#pragma once
/// Builds the CollisionMesh of a model's tet objects.
#include <vector>

#include "contact/collision_mesh.hpp"
#include "mesh/tet_mesh.hpp"

namespace simrun {

/// The boundary of `mesh` (all objects' tets over the full vertex numbering; spring edges are
/// ignored), with tet_object[e] the object of tet e and self_contact[o] per object.
CollisionMesh build_collision_mesh(const TetMesh& mesh, const std::vector<int>& tet_object,
                                   const std::vector<bool>& self_contact);

/// Appends a static obstacle surface as a new object (without self contact, marked static):
/// `faces` over full vertex ids, `rest` the full rest positions (edge lengths). Returns the
/// object's index.
int append_static_surface(CollisionMesh& mesh, const MatX3i& faces, const MatX3& rest);

}  // namespace simrun
