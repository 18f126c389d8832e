#pragma once
/// The surfaces that IPC contact acts on (Trusty et al. Eq. 2's B and Sec. 4; Ascher et al.
/// survey, Sec. 5): the boundary triangles of every tet object, their edges and vertices, in the
/// model's full vertex numbering, with each primitive's object so that filters can skip pairs.
#include <array>
#include <vector>

#include "core/types.hpp"

namespace simrun {

struct CollisionMesh {
  std::vector<int> vertices;              ///< full vertex ids on a surface, ascending
  MatX3i faces;                           ///< boundary triangles, outward (full vertex ids)
  std::vector<std::array<int, 2>> edges;  ///< unique surface edges, (low, high) full ids
  std::vector<int> face_object;           ///< per face: its scene object
  std::vector<int> edge_object;           ///< per edge: its scene object
  std::vector<int> vertex_object;         ///< per entry of `vertices`: its scene object
  std::vector<bool> self_contact;         ///< per object: may it touch itself
  /// Per object: a static obstacle surface (its vertices never move); two static objects never
  /// pair. Empty: none is.
  std::vector<bool> is_static;
  /// Rest lengths of the edges (the edge-edge mollifier's eps_x uses them).
  std::vector<double> edge_rest_length;

  int num_vertices() const { return static_cast<int>(vertices.size()); }
  int num_faces() const { return static_cast<int>(faces.rows()); }
  int num_edges() const { return static_cast<int>(edges.size()); }
};

/// A candidate primitive pair from the broad phase. vertex-face: (index into `vertices`, face
/// index); edge-edge: (edge index, edge index) with the first < the second.
struct ContactCandidates {
  std::vector<std::array<int, 2>> vertex_face;
  std::vector<std::array<int, 2>> edge_edge;

  size_t size() const { return vertex_face.size() + edge_edge.size(); }
};

/// The filters every pair obeys: no pair sharing a vertex (a vertex of its own face, two edges
/// with a common end), no pair inside one object unless that object has self contact, and no
/// pair of two static obstacles.
bool vertex_face_allowed(const CollisionMesh& mesh, int vertex_entry, int face);
bool edge_edge_allowed(const CollisionMesh& mesh, int edge_a, int edge_b);

}  // namespace simrun
