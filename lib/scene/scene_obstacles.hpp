#pragma once
/// The scene's "obstacles" (docs/obstacles.md): penalty planes become energy terms of the Model,
/// spheres become projections the step loop applies after each step.
#include <memory>
#include <string>
#include <vector>

#include "model/energy_term.hpp"
#include "model/state_projection.hpp"
#include "scene/merged_objects.hpp"

namespace simrun {

struct SceneObstacles {
  std::vector<std::unique_ptr<EnergyTerm>> terms;             ///< one PenaltyPlane per plane
  std::vector<std::unique_ptr<StateProjection>> projections;  ///< one SphereObstacle per sphere
  std::vector<std::string> notes;                             ///< a log line when there are any
};

/// Builds the obstacles over every vertex of `objects`. Throws InputError
/// "<file>: /obstacles/N: vertex V of object 'name' (/objects/i) starts D m below the plane ..."
/// when a vertex starts (at its initial position) below a plane or inside a sphere by more than
/// rounding: the penalty would fire a huge force at t = 0 and the projection would teleport it.
SceneObstacles make_obstacles(const SceneConfig& scene, const MergedObjects& objects);

}  // namespace simrun
