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
/// nodal_mass: lumped mass per full DOF [kg] (for the planes' default stiffness).
SceneObstacles make_obstacles(const SceneConfig& scene, const MergedObjects& objects,
                              const VecX& nodal_mass);

/// A plane's default penalty stiffness: the heaviest vertex on it oscillates with a period of
/// 10 steps, k = m_max (2 pi / (10 dt))^2 [N/m].
double default_plane_stiffness(double max_vertex_mass, double dt);

}  // namespace simrun
