#include "scene/obstacle_surfaces.hpp"

#include <Eigen/Geometry>  // cross
#include <algorithm>
#include <array>
#include <map>

#include "core/error.hpp"
#include "mesh/read_surface.hpp"
#include "mesh/transform.hpp"
#include "scene/object_pieces.hpp"

namespace simrun {

namespace {

/// Degenerate triangles (area below this times the surface's bounding-box diagonal squared) have
/// no normal: the distance classification and CCD would meet 0/0.
constexpr double kDegenerateArea = 1e-12;

/// The checks that make a triangle soup a surface IPC can use: at least one triangle, none
/// degenerate, no edge in more than two triangles. Open surfaces (a ground patch) are fine.
void require_obstacle_surface(const SurfaceMesh& s, const std::string& where) {
  require(s.num_faces() > 0, where + ": no triangles (an obstacle mesh must be a surface)");
  const double diagonal =
      (s.vertices.colwise().maxCoeff() - s.vertices.colwise().minCoeff()).norm();
  std::map<std::array<int, 2>, int> edge_faces;
  for (int f = 0; f < s.num_faces(); ++f) {
    const Vec3 a = s.vertices.row(s.faces(f, 0)), b = s.vertices.row(s.faces(f, 1)),
               c = s.vertices.row(s.faces(f, 2));
    const double area = 0.5 * (b - a).cross(c - a).norm();
    require(area > kDegenerateArea * diagonal * diagonal,
            where + ": triangle " + std::to_string(f) + " (vertices " +
                std::to_string(s.faces(f, 0)) + ", " + std::to_string(s.faces(f, 1)) + ", " +
                std::to_string(s.faces(f, 2)) + ") is degenerate (area " + short_number(area) +
                " m^2): remove it");
    for (int k = 0; k < 3; ++k) {
      const int u = s.faces(f, k), v = s.faces(f, (k + 1) % 3);
      const int count = ++edge_faces[{std::min(u, v), std::max(u, v)}];
      require(count <= 2, where + ": edge (" + std::to_string(std::min(u, v)) + ", " +
                              std::to_string(std::max(u, v)) +
                              ") is shared by more than two triangles: not a surface "
                              "(split the mesh into several obstacles)");
    }
  }
}

}  // namespace

void append_obstacle_surfaces(const SceneConfig& scene, MergedObjects& objects,
                              std::vector<std::string>& notes) {
  for (size_t k = 0; k < scene.obstacles.size(); ++k) {
    const ObstacleConfig& o = scene.obstacles[k];
    if (o.kind != ObstacleConfig::Kind::kMesh) continue;
    const std::string pointer = "/obstacles/" + std::to_string(k) + "/mesh";
    const std::string where = scene.source.string() + ": " + pointer + ": " + o.file.string();
    require(scene.contact.has_value(),
            scene.source.string() + ": " + pointer +
                ": mesh obstacles need IPC contact: add \"contact\": {} to the scene");
    SurfaceMesh surface = read_surface(o.file);  // InputError naming the file and line
    require_obstacle_surface(surface, where);
    const TransformConfig& t = o.transform;
    transform_vertices(surface.vertices, t.scale, t.rotate_axis, t.rotate_deg, t.translate);

    const int first = objects.num_vertices(), n = surface.num_vertices();
    objects.mesh.vertices.conservativeResize(first + n, 3);
    objects.mesh.vertices.bottomRows(n) = surface.vertices;
    objects.initial_positions.conservativeResize(first + n, 3);
    objects.initial_positions.bottomRows(n) = surface.vertices;
    objects.point_mass.conservativeResize(3 * (first + n));
    objects.point_mass.tail(3 * n).setZero();
    std::vector<int> ids;
    for (int v = 0; v < n; ++v) ids.push_back(first + v);
    if (o.motion) {
      objects.kinematic.push_back(
          {ids, surface.vertices, prescribed_motion(*o.motion, surface.vertices, scene.time.dt)});
    } else {
      DirichletGroup fixed;
      fixed.vertices = std::move(ids);
      objects.groups.push_back(std::move(fixed));
    }
    ObstacleSurface placed;
    placed.obstacle = static_cast<int>(k);
    placed.faces = surface.faces.array() + first;
    placed.first_vertex = first;
    placed.num_vertices = n;
    objects.obstacle_surfaces.push_back(std::move(placed));
    notes.push_back("obstacle " + std::to_string(k) + ": " + o.file.filename().string() + ", " +
                    std::to_string(surface.num_faces()) + " triangles, " + std::to_string(n) +
                    (o.motion ? " kinematic (moving) vertices" : " fixed vertices"));
  }
}

}  // namespace simrun
