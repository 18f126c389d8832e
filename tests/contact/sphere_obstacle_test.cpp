// The sphere obstacle's projection (Chen thesis Sec. 4.2): a free vertex inside goes to the
// closest surface point and loses its inward normal velocity; everything else is untouched.
#include "contact/sphere_obstacle.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace simrun {
namespace {

TEST(SphereObstacle, InsideVertexGoesToTheClosestSurfacePointAndLosesInwardVelocity) {
  const SphereObstacle sphere(Vec3(1, 0, 0), 0.5);
  VecX x(3), v(3);
  x << 1.0, 0.24, 0.32;  // r = 0.4: 0.1 inside, normal (0, 0.6, 0.8)
  v << 2.0, -1.0, 0.5;   // normal part 0.6 * -1 + 0.8 * 0.5 = -0.2 (inward)
  const Vec3 n(0, 0.6, 0.8);
  const int moved = sphere.project(DofMap(1, {}), x, v);
  EXPECT_EQ(moved, 1);
  EXPECT_LT((Vec3(x.segment<3>(0)) - (Vec3(1, 0, 0) + 0.5 * n)).norm(), 1e-15);
  EXPECT_NEAR(sphere.signed_distance(x.segment<3>(0)), 0.0, 1e-15);
  EXPECT_NEAR(v.segment<3>(0).dot(n), 0.0, 1e-15);  // no inward normal velocity left
  // The tangential part is kept: v - (v.n) n with v.n = -0.2.
  EXPECT_LT((Vec3(v.segment<3>(0)) - (Vec3(2.0, -1.0, 0.5) + 0.2 * n)).norm(), 1e-15);
}

TEST(SphereObstacle, OutwardVelocityOfAnInsideVertexIsKept) {
  const SphereObstacle sphere(Vec3::Zero(), 1.0);
  VecX x(3), v(3);
  x << 0.0, 0.9, 0.0;
  v << 0.1, 3.0, 0.0;  // already leaving: the collision is inelastic, not sticky
  EXPECT_EQ(sphere.project(DofMap(1, {}), x, v), 1);
  EXPECT_NEAR(x[1], 1.0, 1e-15);
  EXPECT_EQ(v, (VecX(3) << 0.1, 3.0, 0.0).finished());
}

TEST(SphereObstacle, VerticesOnOrOutsideAndConstrainedVerticesAreUntouched) {
  const SphereObstacle sphere(Vec3::Zero(), 1.0);
  VecX x(9), v(9);
  x << 0, 1.0, 0, /**/ 2, 0, 0, /**/ 0, 0.5, 0;  // on, outside, inside but constrained
  v << 0, -1, 0, /**/ -3, 0, 0, /**/ 0, -2, 0;
  const VecX x0 = x, v0 = v;
  EXPECT_EQ(sphere.project(DofMap(3, {2}), x, v), 0);
  EXPECT_EQ(x, x0);
  EXPECT_EQ(v, v0);
}

TEST(SphereObstacle, VertexAtTheCenterGoesToTheTop) {
  const SphereObstacle sphere(Vec3(0, 1, 0), 0.25);
  VecX x(3), v(3);
  x << 0, 1, 0;
  v << 0, -1, 0;
  EXPECT_EQ(sphere.project(DofMap(1, {}), x, v), 1);
  EXPECT_EQ(x, (VecX(3) << 0, 1.25, 0).finished());
  EXPECT_EQ(v, VecX::Zero(3));
}

TEST(SphereObstacle, CountsEveryMovedVertex) {
  const SphereObstacle sphere(Vec3::Zero(), 1.0);
  VecX x = VecX::Zero(12), v = VecX::Zero(12);
  x << 0.1, 0, 0, /**/ 0, -0.5, 0, /**/ 0, 0, 3, /**/ 0.2, 0.2, 0.2;
  EXPECT_EQ(sphere.project(DofMap(4, {}), x, v), 3);
  for (int i = 0; i < 4; ++i) EXPECT_GE(sphere.signed_distance(x.segment<3>(3 * i)), -1e-15);
}

TEST(SphereObstacle, RejectsNonPositiveRadius) {
  EXPECT_THROW(SphereObstacle(Vec3::Zero(), 0.0), std::invalid_argument);
  EXPECT_THROW(SphereObstacle(Vec3::Zero(), -1.0), std::invalid_argument);
}

}  // namespace
}  // namespace simrun
