#pragma once
/// The scene's obstacles as triangle surfaces for the frames (OUT/obstacles.pvd): mesh obstacles
/// as placed (moving ones tied to their kinematic vertices), analytic planes as squares and
/// spheres as UV spheres, so that ParaView shows what the bodies touch.
#include <vector>

#include "scene/merged_objects.hpp"
#include "scene/scene_config.hpp"
#include "sim/simulated_system.hpp"

namespace simrun {

/// One surface per obstacle of the scene, in its order. A plane is drawn as a square of side
/// four times the objects' rest bounding-box diagonal, centred at the box centre's projection
/// onto the plane, its triangles facing the plane's normal; a sphere as a 16 x 32 UV sphere.
/// Mesh obstacles need append_obstacle_surfaces to have run on `objects`.
std::vector<FrameData::Obstacle> displayed_obstacles(const SceneConfig& scene,
                                                     const MergedObjects& objects);

/// A square of half side `half` in the plane through `center` with unit normal `normal`; its two
/// triangles are counter-clockwise seen from the normal's side.
FrameData::Obstacle plane_square(const Vec3& center, const Vec3& normal, double half);

/// A UV sphere with `rings` latitude bands and `segments` longitude sectors, outward-facing.
FrameData::Obstacle uv_sphere(const Vec3& center, double radius, int rings, int segments);

}  // namespace simrun
