#include "contact/collision_mesh.hpp"

namespace simrun {

namespace {
bool both_static(const CollisionMesh& mesh, int a, int b) {
  return !mesh.is_static.empty() && mesh.is_static[a] && mesh.is_static[b];
}
}  // namespace

bool vertex_face_allowed(const CollisionMesh& mesh, int vertex_entry, int face) {
  const int v = mesh.vertices[vertex_entry];
  if (mesh.faces(face, 0) == v || mesh.faces(face, 1) == v || mesh.faces(face, 2) == v)
    return false;
  const int object = mesh.vertex_object[vertex_entry];
  if (both_static(mesh, object, mesh.face_object[face])) return false;
  return object != mesh.face_object[face] || mesh.self_contact[object];
}

bool edge_edge_allowed(const CollisionMesh& mesh, int edge_a, int edge_b) {
  const auto& a = mesh.edges[edge_a];
  const auto& b = mesh.edges[edge_b];
  if (a[0] == b[0] || a[0] == b[1] || a[1] == b[0] || a[1] == b[1]) return false;
  const int object = mesh.edge_object[edge_a];
  if (both_static(mesh, object, mesh.edge_object[edge_b])) return false;
  return object != mesh.edge_object[edge_b] || mesh.self_contact[object];
}

}  // namespace simrun
