#include "scene/obstacle_display.hpp"

#include <Eigen/Geometry>  // cross
#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

namespace simrun {

FrameData::Obstacle plane_square(const Vec3& center, const Vec3& normal, double half) {
  const Vec3 n = normal.normalized();
  // t1 any unit vector orthogonal to n, t2 = n x t1, so that t1 x t2 = n.
  const Vec3 helper = std::abs(n.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  const Vec3 t1 = n.cross(helper).normalized();
  const Vec3 t2 = n.cross(t1);
  FrameData::Obstacle square;
  square.mesh = false;
  square.vertices.resize(4, 3);
  square.vertices.row(0) = center - half * t1 - half * t2;
  square.vertices.row(1) = center + half * t1 - half * t2;
  square.vertices.row(2) = center + half * t1 + half * t2;
  square.vertices.row(3) = center - half * t1 + half * t2;
  square.faces = MatX3i{{0, 1, 2}, {0, 2, 3}};
  return square;
}

FrameData::Obstacle uv_sphere(const Vec3& center, double radius, int rings, int segments) {
  FrameData::Obstacle sphere;
  sphere.mesh = false;
  // Vertex 0 the north pole, then (rings - 1) circles of `segments`, then the south pole.
  const int n_vertices = 2 + (rings - 1) * segments;
  sphere.vertices.resize(n_vertices, 3);
  sphere.vertices.row(0) = center + radius * Vec3::UnitZ();
  for (int r = 1; r < rings; ++r) {
    const double theta = std::numbers::pi * r / rings;
    for (int s = 0; s < segments; ++s) {
      const double phi = 2.0 * std::numbers::pi * s / segments;
      const Vec3 direction(std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi),
                           std::cos(theta));
      sphere.vertices.row(1 + (r - 1) * segments + s) = center + radius * direction;
    }
  }
  const int south = n_vertices - 1;
  sphere.vertices.row(south) = center - radius * Vec3::UnitZ();
  auto ring_vertex = [&](int r, int s) { return 1 + (r - 1) * segments + (s % segments); };
  std::vector<std::array<int, 3>> faces;
  for (int s = 0; s < segments; ++s) faces.push_back({0, ring_vertex(1, s), ring_vertex(1, s + 1)});
  for (int r = 1; r + 1 < rings; ++r)
    for (int s = 0; s < segments; ++s) {
      faces.push_back({ring_vertex(r, s), ring_vertex(r + 1, s), ring_vertex(r + 1, s + 1)});
      faces.push_back({ring_vertex(r, s), ring_vertex(r + 1, s + 1), ring_vertex(r, s + 1)});
    }
  for (int s = 0; s < segments; ++s)
    faces.push_back({south, ring_vertex(rings - 1, s + 1), ring_vertex(rings - 1, s)});
  sphere.faces.resize(static_cast<Eigen::Index>(faces.size()), 3);
  for (size_t f = 0; f < faces.size(); ++f)
    for (int k = 0; k < 3; ++k) sphere.faces(static_cast<Eigen::Index>(f), k) = faces[f][k];
  return sphere;
}

std::vector<FrameData::Obstacle> displayed_obstacles(const SceneConfig& scene,
                                                     const MergedObjects& objects) {
  // The objects' rest box (mesh obstacles' vertices, appended after them, excluded).
  const Eigen::Index n_object_vertices =
      objects.vertex_offset.empty() ? objects.mesh.vertices.rows() : objects.vertex_offset.back();
  Vec3 lo = Vec3::Zero(), hi = Vec3::Zero();
  if (n_object_vertices > 0) {
    const auto rest = objects.mesh.vertices.topRows(n_object_vertices);
    lo = rest.colwise().minCoeff().transpose();
    hi = rest.colwise().maxCoeff().transpose();
  }
  const Vec3 box_center = 0.5 * (lo + hi);
  const double half = std::max(2.0 * (hi - lo).norm(), 1e-3);

  std::vector<FrameData::Obstacle> shown;
  for (size_t k = 0; k < scene.obstacles.size(); ++k) {
    const ObstacleConfig& o = scene.obstacles[k];
    FrameData::Obstacle surface;
    if (o.kind == ObstacleConfig::Kind::kPlane) {
      const Vec3 n = o.normal.normalized();
      surface = plane_square(box_center - (box_center - o.point).dot(n) * n, n, half);
    } else if (o.kind == ObstacleConfig::Kind::kSphere) {
      surface = uv_sphere(o.center, o.radius, 16, 32);
    } else {
      const auto placed =
          std::find_if(objects.obstacle_surfaces.begin(), objects.obstacle_surfaces.end(),
                       [&](const ObstacleSurface& s) { return s.obstacle == static_cast<int>(k); });
      if (placed == objects.obstacle_surfaces.end()) continue;
      surface.vertices =
          objects.mesh.vertices.middleRows(placed->first_vertex, placed->num_vertices);
      surface.faces = placed->faces.array() - placed->first_vertex;
      if (o.motion) surface.first_vertex = placed->first_vertex;
    }
    surface.index = static_cast<int>(k);
    shown.push_back(std::move(surface));
  }
  return shown;
}

}  // namespace simrun
