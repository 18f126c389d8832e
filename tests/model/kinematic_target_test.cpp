// The kinematic obstacle vertices' augmented Lagrangian (model/kinematic_target.hpp): one
// multiplier update removes the lag a constant force leaves, the gradient is the energy's, and
// the multipliers start every step at zero.
#include "model/kinematic_target.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace simrun {
namespace {

/// One vertex at the origin translating at 1 m/s along x; k = 100 N/m.
KinematicTarget moving_vertex() {
  KinematicGroup group;
  group.vertices = {0};
  group.rest = MatX3::Zero(1, 3);
  group.motion.kind = PrescribedMotion::Kind::kTranslate;
  group.motion.velocity = Vec3::UnitX();
  return KinematicTarget({group}, 100.0);
}

TEST(KinematicTarget, OneMultiplierUpdateRemovesTheLagOfAConstantForce) {
  KinematicTarget target = moving_vertex();
  const VecX start = VecX::Zero(3);
  target.begin_step(start);
  target.set_time(1.0);                            // the target p = (1, 0, 0)
  EXPECT_DOUBLE_EQ(target.lag_tolerance(), 1e-3);  // 1e-3 of the step's 1 m of motion
  // With a force f = (3, 0, 0) on the vertex, the penalty minimizer is p + f / k.
  const Vec3 f(3.0, 0.0, 0.0);
  const VecX penalty_minimizer = Vec3(1.0 + 3.0 / 100.0, 0.0, 0.0);
  VecX g = -f;
  target.add_gradient(penalty_minimizer, g);
  EXPECT_LT(g.norm(), 1e-12);
  EXPECT_TRUE(target.update_multipliers(penalty_minimizer));  // lag 0.03 m > 1e-3 m
  EXPECT_TRUE(target.multipliers().isApprox(-f, 1e-12)) << target.multipliers().transpose();
  // The new minimizer is p itself: the gradient of E - f.x vanishes there, and no update follows.
  const VecX p = Vec3::UnitX();
  g = -f;
  target.add_gradient(p, g);
  EXPECT_LT(g.norm(), 1e-12);
  EXPECT_FALSE(target.update_multipliers(p));
  // The next step starts from the penalty again.
  target.begin_step(p);
  EXPECT_EQ(target.multipliers().norm(), 0.0);
}

TEST(KinematicTarget, GradientIsTheEnergysWithMultipliers) {
  KinematicTarget target = moving_vertex();
  target.begin_step(VecX::Zero(3));
  target.set_time(0.5);
  ASSERT_TRUE(target.update_multipliers(Vec3(0.9, 0.2, -0.1)));
  const VecX x = Vec3(0.7, -0.3, 0.25);
  VecX g = VecX::Zero(3);
  target.add_gradient(x, g);
  const double h = 1e-6;
  for (int i = 0; i < 3; ++i) {
    VecX plus = x, minus = x;
    plus[i] += h;
    minus[i] -= h;
    const double fd = (target.energy(plus) - target.energy(minus)) / (2.0 * h);
    EXPECT_NEAR(g[i], fd, 1e-6 * (1.0 + std::abs(fd))) << i;
  }
}

TEST(KinematicTarget, AStillStepHoldsTheVerticesToTheSizeFloor) {
  KinematicGroup group;
  group.vertices = {0, 1};
  group.rest = MatX3{{0.0, 0.0, 0.0}, {3.0, 4.0, 0.0}};  // rest box diagonal 5 m
  KinematicTarget target({group}, 1.0);                  // a fixed motion: no movement
  VecX at_rest(6);
  at_rest << 0.0, 0.0, 0.0, 3.0, 4.0, 0.0;
  target.begin_step(at_rest);
  target.set_time(1.0);
  EXPECT_DOUBLE_EQ(target.lag_tolerance(), 5e-9);
}

}  // namespace
}  // namespace simrun
