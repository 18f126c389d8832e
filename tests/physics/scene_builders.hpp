#pragma once
/// SceneConfig builders for the physics tests (what a scene file would say, without the file).
#include "scene/scene_config.hpp"

namespace simrun::testing {

/// A single box object of linear material, min corner at the origin.
inline SceneConfig box_scene(const Vec3& size, const Eigen::Vector3i& cells, int split, double E,
                             double nu, double density, bool fix_minus_x, bool lumped) {
  SceneConfig scene;
  scene.name = "test";
  ObjectConfig object;
  object.name = "bar";
  object.mesh.kind = MeshConfig::Kind::kBox;
  object.mesh.box_size = size;
  object.mesh.box_cells = cells;
  object.mesh.box_split = split;
  object.material.model = "linear";
  object.material.E = E;
  object.material.nu = nu;
  object.material.density = density;
  if (fix_minus_x) {
    DirichletConfig fixed;
    fixed.select.kind = Selection::Kind::kSide;
    fixed.select.side = "-x";
    fixed.select.tol = 1e-9;
    object.dirichlet.push_back(fixed);
  }
  scene.objects.push_back(object);
  scene.gravity = Vec3::Zero();
  scene.lumped_mass = lumped;
  return scene;
}

}  // namespace simrun::testing
