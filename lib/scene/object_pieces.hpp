#pragma once
/// One scene object on its own: its mesh (loaded or generated, transformed), per-tet material
/// fields with the regions applied, Dirichlet groups and initial positions, in the object's own
/// vertex numbering (merge_objects puts them into the global one).
#include <string>
#include <vector>

#include "material/material_parameters.hpp"
#include "mesh/tet_mesh.hpp"
#include "model/dirichlet_motion.hpp"
#include "scene/scene_config.hpp"

namespace simrun {

struct ObjectPieces {
  TetMesh mesh;
  MatX3 initial_positions;
  VecX youngs, poisson, density;
  /// Per tet of a coarsened object (scene/object_coarsening.hpp): its homogenized anisotropic
  /// tensor; empty otherwise.
  std::vector<VoigtTensor> stiffness;
  /// A coarsened object's Galerkin stiffness K_c = P^T K_f P (3N x 3N, object numbering), in
  /// place of an elastic material; empty otherwise.
  SpMat galerkin_stiffness;
  std::vector<int> material_region;    ///< 1 + index of the last scene region covering a tet, or 0
  VecX spring_stiffness;               ///< per spring (mesh.edges) of a mass-spring object [N/m]
  VecX particle_mass;                  ///< per vertex of a mass-spring object [kg]
  std::vector<DirichletGroup> groups;  ///< one per dirichlet entry (object vertex numbering)
};

/// "/objects/<index>", the JSON pointer of an object in messages.
inline std::string object_pointer(size_t index) { return "/objects/" + std::to_string(index); }

/// The scene's motion as the model's PrescribedMotion of the vertices at `x0` (rows; a twist
/// without a point turns about their centroid); `steps` counts in steps of dt.
PrescribedMotion prescribed_motion(const MotionConfig& m, const MatX3& x0, double dt);

/// Builds object `index` of the scene file `scene_file`; notes get its mesh size and fixes.
/// Throws InputError naming the object's JSON pointer for problems only visible with the mesh
/// (an empty selection, a bad E field).
ObjectPieces build_object(const ObjectConfig& object, size_t index, const std::string& scene_file,
                          double dt, std::vector<std::string>& notes);

}  // namespace simrun
