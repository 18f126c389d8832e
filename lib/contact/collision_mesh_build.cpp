#include "contact/collision_mesh_build.hpp"

#include <algorithm>
#include <map>

#include "mesh/boundary.hpp"

namespace simrun {

CollisionMesh build_collision_mesh(const TetMesh& mesh, const std::vector<int>& tet_object,
                                   const std::vector<bool>& self_contact) {
  CollisionMesh c;
  c.self_contact = self_contact;
  // Object of each vertex (a vertex belongs to one object: objects do not share vertices).
  std::vector<int> object_of(mesh.num_vertices(), -1);
  for (int e = 0; e < mesh.num_tets(); ++e)
    for (int a = 0; a < 4; ++a) object_of[mesh.tets(e, a)] = tet_object[e];
  c.faces = boundary_faces(mesh);
  std::map<std::array<int, 2>, int> edges;
  std::vector<int> on_surface;
  for (int f = 0; f < c.faces.rows(); ++f) {
    c.face_object.push_back(object_of[c.faces(f, 0)]);
    for (int k = 0; k < 3; ++k) {
      const int a = c.faces(f, k), b = c.faces(f, (k + 1) % 3);
      edges.emplace(std::array<int, 2>{std::min(a, b), std::max(a, b)}, 0);
      on_surface.push_back(a);
    }
  }
  std::sort(on_surface.begin(), on_surface.end());
  on_surface.erase(std::unique(on_surface.begin(), on_surface.end()), on_surface.end());
  c.vertices = on_surface;
  for (int v : c.vertices) c.vertex_object.push_back(object_of[v]);
  for (const auto& [edge, unused] : edges) {
    c.edges.push_back(edge);
    c.edge_object.push_back(object_of[edge[0]]);
    c.edge_rest_length.push_back((mesh.vertices.row(edge[0]) - mesh.vertices.row(edge[1])).norm());
  }
  return c;
}

int append_static_surface(CollisionMesh& c, const MatX3i& faces, const MatX3& rest) {
  const int object = static_cast<int>(c.self_contact.size());
  c.is_static.resize(c.self_contact.size(), false);
  c.self_contact.push_back(false);
  c.is_static.push_back(true);
  std::map<std::array<int, 2>, int> edges;
  std::vector<int> on_surface;
  const Eigen::Index first = c.faces.rows();
  c.faces.conservativeResize(first + faces.rows(), 3);
  c.faces.bottomRows(faces.rows()) = faces;
  for (int f = 0; f < faces.rows(); ++f) {
    c.face_object.push_back(object);
    for (int k = 0; k < 3; ++k) {
      const int a = faces(f, k), b = faces(f, (k + 1) % 3);
      edges.emplace(std::array<int, 2>{std::min(a, b), std::max(a, b)}, 0);
      on_surface.push_back(a);
    }
  }
  std::sort(on_surface.begin(), on_surface.end());
  on_surface.erase(std::unique(on_surface.begin(), on_surface.end()), on_surface.end());
  // Obstacle vertices come after every object's: `vertices` stays ascending.
  for (int v : on_surface) {
    c.vertices.push_back(v);
    c.vertex_object.push_back(object);
  }
  for (const auto& [edge, unused] : edges) {
    c.edges.push_back(edge);
    c.edge_object.push_back(object);
    c.edge_rest_length.push_back((rest.row(edge[0]) - rest.row(edge[1])).norm());
  }
  return object;
}

}  // namespace simrun
