#pragma once
/// Every object of a scene in one global vertex and tet numbering (objects in scene order), as
/// the Model, the frames and the energy terms need them.
#include <vector>

#include "fem/tet_pattern.hpp"
#include "mesh/tet_mesh.hpp"
#include "model/dirichlet_motion.hpp"
#include "model/kinematic_target.hpp"
#include "scene/object_pieces.hpp"

namespace simrun {

/// A static obstacle surface of IPC contact (scene/obstacle_surfaces.hpp).
struct ObstacleSurface {
  int obstacle = -1;     ///< index in the scene's "obstacles"
  MatX3i faces;          ///< triangles over full vertex ids
  int first_vertex = 0;  ///< its vertices: [first_vertex, first_vertex + num_vertices)
  int num_vertices = 0;
};

struct MergedObjects {
  TetMesh mesh;  ///< rest positions, tets, region tags and spring edges of every object
  MatX3 initial_positions;
  VecX youngs, poisson, density;  ///< per tet
  /// Per tet when some object is coarsened (its tensors; zero for the other objects' tets),
  /// else empty.
  std::vector<VoigtTensor> stiffness;
  std::vector<SpMat> galerkin_stiffness;  ///< per object (empty matrix: a material's energy)
  std::vector<int> material_region;       ///< per tet
  std::vector<DirichletGroup> groups;
  std::vector<int> vertex_offset, tet_offset;  ///< object i: [offset[i], offset[i + 1])
  VecX point_mass;                             ///< per DOF: particles of mass-spring objects [kg]
  EdgeList springs;
  VecX spring_stiffness;  ///< per spring [N/m]
  /// Mesh obstacles: their vertices follow every object's (beyond vertex_offset.back()), fixed
  /// (a Dirichlet group) or, with a motion, kinematic (`kinematic`).
  std::vector<ObstacleSurface> obstacle_surfaces;
  std::vector<KinematicGroup> kinematic;

  int num_vertices() const { return static_cast<int>(mesh.vertices.rows()); }
  int num_tets() const { return static_cast<int>(mesh.tets.rows()); }
};

/// Concatenates the objects' pieces (objects[i] belongs to the scene's objects[i]).
MergedObjects merge_objects(const std::vector<ObjectPieces>& objects);

}  // namespace simrun
