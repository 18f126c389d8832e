// The obstacles drawn for obstacles.pvd (scene/obstacle_display.hpp): a plane's square lies in
// the plane and faces its normal; a sphere's surface is closed, outward-facing and on the sphere.
#include "scene/obstacle_display.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <map>
#include <numbers>

namespace simrun {
namespace {

Vec3 vertex(const FrameData::Obstacle& o, int f, int k) {
  return o.vertices.row(o.faces(f, k)).transpose();
}

/// (b - a) x (c - a) of face f.
Vec3 face_normal(const FrameData::Obstacle& o, int f) {
  return (vertex(o, f, 1) - vertex(o, f, 0)).cross(vertex(o, f, 2) - vertex(o, f, 0));
}

TEST(ObstacleDisplay, APlanesSquareLiesInThePlaneAndFacesItsNormal) {
  const Vec3 normal = Vec3(1.0, 2.0, -0.5).normalized();
  const Vec3 center(0.3, -0.2, 1.0);
  const FrameData::Obstacle square = plane_square(center, normal, 2.0);
  ASSERT_EQ(square.faces.rows(), 2);
  EXPECT_FALSE(square.mesh);
  for (Eigen::Index v = 0; v < square.vertices.rows(); ++v) {
    const Vec3 x = square.vertices.row(v).transpose();
    EXPECT_NEAR((x - center).dot(normal), 0.0, 1e-12);
    EXPECT_NEAR((x - center).norm(), 2.0 * std::sqrt(2.0), 1e-12);  // a corner of a 4 x 4 square
  }
  for (int f = 0; f < 2; ++f) {
    const Vec3 n = face_normal(square, f);
    EXPECT_NEAR(n.normalized().dot(normal), 1.0, 1e-12);
    EXPECT_NEAR(n.norm(), 16.0, 1e-9);  // twice the triangle's area, 8 m^2
  }
}

TEST(ObstacleDisplay, AUvSphereIsClosedOutwardAndOnTheSphere) {
  const Vec3 center(1.0, 2.0, 3.0);
  const double radius = 0.5;
  const FrameData::Obstacle sphere = uv_sphere(center, radius, 16, 32);
  EXPECT_EQ(sphere.vertices.rows(), 2 + 15 * 32);
  EXPECT_EQ(sphere.faces.rows(), 2 * 32 + 2 * 14 * 32);
  for (Eigen::Index v = 0; v < sphere.vertices.rows(); ++v)
    EXPECT_NEAR((sphere.vertices.row(v).transpose() - center).norm(), radius, 1e-12);
  // Enclosed volume by the divergence theorem: positive (outward) and close to 4/3 pi r^3.
  double volume = 0.0;
  for (int f = 0; f < sphere.faces.rows(); ++f) {
    volume += (vertex(sphere, f, 0) - center).dot(face_normal(sphere, f)) / 6.0;
    EXPECT_GT((vertex(sphere, f, 0) - center).dot(face_normal(sphere, f)), 0.0) << f;
  }
  const double exact = 4.0 / 3.0 * std::numbers::pi * radius * radius * radius;
  EXPECT_NEAR(volume, exact, 0.02 * exact);
  // Closed: every edge is used by exactly two faces, once in each direction.
  std::map<std::pair<int, int>, int> directed;
  for (int f = 0; f < sphere.faces.rows(); ++f)
    for (int k = 0; k < 3; ++k) ++directed[{sphere.faces(f, k), sphere.faces(f, (k + 1) % 3)}];
  for (const auto& [edge, count] : directed) {
    EXPECT_EQ(count, 1);
    EXPECT_EQ(directed.count({edge.second, edge.first}), 1u);
  }
}

}  // namespace
}  // namespace simrun
