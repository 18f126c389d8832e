#include "scene/scene_obstacles.hpp"

#include <algorithm>
#include <cstdio>
#include <numbers>

#include "contact/penalty_plane.hpp"
#include "contact/sphere_obstacle.hpp"
#include "core/error.hpp"
#include "mesh/boundary.hpp"
#include "mesh/embedding.hpp"

namespace simrun {

namespace {

/// The vertex that starts deepest inside an obstacle (signed distance < -tolerance), if any.
struct Violation {
  int vertex = -1;  ///< global
  double distance = 0.0;
  int count = 0;
};

template <class SignedDistance>
Violation deepest_violation(const MergedObjects& objects, const SignedDistance& distance) {
  Violation worst;
  const MatX3& x = objects.initial_positions;
  for (int i = 0; i < objects.num_vertices(); ++i) {
    const Vec3 p = x.row(i).transpose();
    // Strictly inside, up to the rounding of the coordinates (a cloth laid exactly on a tilted
    // plane may compute -1e-17).
    const double tolerance = 1e-12 * std::max(1.0, p.cwiseAbs().maxCoeff());
    const double d = distance(p);
    if (!(d < -tolerance)) continue;
    ++worst.count;
    if (worst.vertex < 0 || d < worst.distance) {
      worst.vertex = i;
      worst.distance = d;
    }
  }
  return worst;
}

/// A tet (global index) that holds the point `center` at the initial positions, -1 if none:
/// a sphere whose centre lies inside a body starts inside it even when no vertex of the body is
/// inside the sphere. (Faces may cut into a sphere: it acts on vertices only, so a box resting
/// on a ball by its corners is a valid start.)
int tet_containing(const MergedObjects& objects, const Vec3& center) {
  const MatX3& x = objects.initial_positions;
  const int last_object_tet = objects.tet_offset.empty() ? 0 : objects.tet_offset.back();
  for (int t = 0; t < last_object_tet; ++t) {
    const auto corner = [&](int k) -> Vec3 { return x.row(objects.mesh.tets(t, k)).transpose(); };
    if (point_tet_distance(center, corner(0), corner(1), corner(2), corner(3)) == 0.0) return t;
  }
  return -1;
}

std::string vertices(int count) {
  return std::to_string(count) + (count == 1 ? " vertex" : " vertices");
}

/// The object whose range [offsets[i], offsets[i + 1]) holds a global vertex or tet index.
size_t object_holding(const std::vector<int>& offsets, size_t num_objects, int index) {
  size_t object = 0;
  while (object + 1 < num_objects && index >= offsets[object + 1]) ++object;
  return object;
}

/// "vertex 12 of object 'ball' (/objects/0)" for a global vertex index.
std::string describe_vertex(const SceneConfig& scene, const MergedObjects& objects, int vertex) {
  const size_t object = object_holding(objects.vertex_offset, scene.objects.size(), vertex);
  return "vertex " + std::to_string(vertex - objects.vertex_offset[object]) + " of object '" +
         scene.objects[object].name + "' (" + object_pointer(object) + ")";
}

}  // namespace

double default_plane_stiffness(double max_vertex_mass, double dt) {
  const double omega = 2.0 * std::numbers::pi / (10.0 * dt);
  return max_vertex_mass * omega * omega;
}

SceneObstacles make_obstacles(const SceneConfig& scene, const MergedObjects& objects,
                              const VecX& nodal_mass) {
  SceneObstacles out;
  int planes = 0, spheres = 0;
  for (size_t k = 0; k < scene.obstacles.size(); ++k) {
    const ObstacleConfig& o = scene.obstacles[k];
    const std::string at = scene.source.string() + ": /obstacles/" + std::to_string(k) + ": ";
    if (o.kind == ObstacleConfig::Kind::kMesh) continue;  // scene/obstacle_surfaces.hpp
    if (o.kind == ObstacleConfig::Kind::kPlane) {
      require(o.normal.norm() > 0.0,
              at + "plane/normal: expected a non-zero normal, found [0,0,0]");
      if (scene.contact) continue;  // an IPC barrier plane (scene/contact_terms.hpp)
      std::unique_ptr<PenaltyPlane> plane;
      if (o.pressure_stiffness > 0.0) {
        // k_i = k_A A_i: the pressure k_A d on the boundary, lumped to its vertices.
        const VecX area = boundary_vertex_areas(objects.mesh);
        VecX vertex_k = o.pressure_stiffness * area;
        require(vertex_k.maxCoeff() > 0.0, at + "plane/pressure_stiffness: the objects have no "
                                                "boundary area to weigh the penalty by");
        double k_min = vertex_k.maxCoeff();
        for (Eigen::Index i = 0; i < vertex_k.size(); ++i)
          if (vertex_k[i] > 0.0) k_min = std::min(k_min, vertex_k[i]);
        out.notes.push_back("obstacles: /obstacles/" + std::to_string(k) +
                            "/plane: pressure stiffness " + short_number(o.pressure_stiffness) +
                            " Pa/m on " + short_number(area.sum()) +
                            " m^2 of boundary: vertex stiffness " + short_number(k_min) + " to " +
                            short_number(vertex_k.maxCoeff()) + " N/m");
        plane = std::make_unique<PenaltyPlane>(o.point, o.normal, std::move(vertex_k));
      } else {
        double stiffness = o.stiffness;
        if (stiffness == 0.0) {
          stiffness = default_plane_stiffness(nodal_mass.size() ? nodal_mass.maxCoeff() : 0.0,
                                              scene.time.dt);
          require(stiffness > 0.0, at + "plane/stiffness: no vertex has mass to derive a default "
                                        "from; give the stiffness [N/m]");
          out.notes.push_back("obstacles: /obstacles/" + std::to_string(k) +
                              "/plane/stiffness not given: " + short_number(stiffness) +
                              " N/m (the heaviest vertex, " + short_number(nodal_mass.maxCoeff()) +
                              " kg, oscillates on it with a period of 10 steps)");
        }
        plane =
            std::make_unique<PenaltyPlane>(o.point, o.normal, stiffness, objects.num_vertices());
      }
      const Violation v =
          deepest_violation(objects, [&](const Vec3& x) { return plane->signed_distance(x); });
      require(v.vertex < 0, at + describe_vertex(scene, objects, v.vertex) + " starts " +
                                short_number(-v.distance) + " m below the plane (" +
                                vertices(v.count) +
                                " below it at t = 0): every vertex must start on or above it (move "
                                "the object or the plane's point)");
      out.terms.push_back(std::move(plane));
      ++planes;
    } else {
      require(o.radius > 0.0,
              at + "sphere/radius: expected a number > 0, found " + short_number(o.radius));
      auto sphere = std::make_unique<SphereObstacle>(o.center, o.radius);
      const Violation v =
          deepest_violation(objects, [&](const Vec3& x) { return sphere->signed_distance(x); });
      require(v.vertex < 0,
              at + describe_vertex(scene, objects, v.vertex) + " starts " +
                  short_number(-v.distance) + " m inside the sphere (" + vertices(v.count) +
                  " inside it at t = 0): every vertex must start on or outside it (move "
                  "the object or the sphere)");
      if (const int tet = tet_containing(objects, o.center); tet >= 0) {
        const size_t object = object_holding(objects.tet_offset, scene.objects.size(), tet);
        throw InputError(at + "the sphere starts inside object '" + scene.objects[object].name +
                         "' (" + object_pointer(object) + "): its centre lies in tet " +
                         std::to_string(tet - objects.tet_offset[object]) +
                         " at t = 0, with no vertex inside the sphere: the body must start "
                         "outside it (move the object or the sphere)");
      }
      out.projections.push_back(std::move(sphere));
      ++spheres;
    }
  }
  if (planes + spheres > 0)
    out.notes.push_back("obstacles: " + std::to_string(planes) + " penalty plane(s), " +
                        std::to_string(spheres) + " projected sphere(s)");
  return out;
}

}  // namespace simrun
