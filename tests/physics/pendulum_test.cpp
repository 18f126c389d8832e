// A stiff-spring pendulum (Chen thesis Fig. 5.2: m = 1 kg, k = 1e4 N/m, L = 1 m) swinging at a
// small amplitude has the period 2 pi sqrt(L'/g) of the simple pendulum, L' = L + m g / k the
// length stretched by the bob's weight.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "scene/factory.hpp"

namespace simrun {
namespace {

SceneConfig pendulum_scene(double angle_deg) {
  SceneConfig scene;
  scene.name = "pendulum";
  ObjectConfig object;
  object.name = "pendulum";
  object.mesh.kind = MeshConfig::Kind::kRope;
  object.mesh.rope_particles = 2;
  object.mesh.rope_length = 1.0;
  object.mesh.transform.rotate_deg = angle_deg;  // about z through the pivot
  object.material.model = "mass_spring";
  object.material.stiffness = 1e4;
  object.material.particle_mass = 1.0;
  DirichletConfig pivot;
  pivot.select.kind = Selection::Kind::kVertices;
  pivot.select.vertices = {0};
  object.dirichlet.push_back(pivot);
  scene.objects.push_back(object);
  return scene;
}

TEST(Pendulum, SmallAmplitudePeriodMatchesSimplePendulum) {
  const SceneConfig scene = pendulum_scene(3.0);  // 0.052 rad: (theta^2/16) = 1.7e-4 period shift
  BuiltModel built = build_model(scene);
  ASSERT_EQ(built.model->num_free(), 3);
  IntegratorSettings settings;
  settings.newton.tolerance = 1e-10;
  auto im = make_integrator("im", settings);  // implicit midpoint: no numerical damping
  const double h = 0.002;
  State state = built.initial;
  // Times of downward zero crossings of x (the bob passes under the pivot moving -x).
  std::vector<double> crossings;
  double previous_x = state.q[0];
  for (int i = 1; i <= 3000; ++i) {  // 6 s, about 3 periods
    StepStats stats;
    ASSERT_EQ(im->step(*built.model, state, h, stats), Status::kSuccess);
    const double x = state.q[0];
    if (previous_x > 0.0 && x <= 0.0)
      crossings.push_back((i - 1) * h + h * previous_x / (previous_x - x));
    previous_x = x;
  }
  ASSERT_GE(crossings.size(), 2u);
  const double period = (crossings.back() - crossings.front()) / (crossings.size() - 1);
  const double g = 9.81, stretched = 1.0 + 1.0 * g / 1e4;
  const double expected = 2 * std::numbers::pi * std::sqrt(stretched / g);
  // Error budget: the finite amplitude lengthens the period by theta0^2/16 = 1.7e-4 relative;
  // IM's phase error is (omega h)^2/12 = 3e-6 for the swing; crossing interpolation and the
  // bob's fast radial oscillation (omega = 100 rad/s, amplitude ~ m g / k = 1 mm) add jitter of
  // order 1e-4 s per crossing. 1e-3 relative bounds all of them with margin.
  EXPECT_NEAR(period / expected, 1.0, 1e-3) << "period " << period << " expected " << expected;
}

}  // namespace
}  // namespace simrun
