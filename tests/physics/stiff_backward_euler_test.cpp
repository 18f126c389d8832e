// Backward Euler must converge on stiff bodies: with E = 2e11 Pa the velocity residual's
// round-off floor lies above the thesis' absolute 1e-6 m/s, so the Newton-update test has to end
// the iteration (regression: this scene used to fail at step 1 with dt = 0.1).
#include <gtest/gtest.h>

#include "scene/factory.hpp"
#include "scene_builders.hpp"

namespace simrun {
namespace {

TEST(StiffBackwardEuler, SteelCantileverConvergesEveryStep) {
  SceneConfig scene = testing::box_scene(Vec3(1.0, 0.1, 0.1), Eigen::Vector3i(20, 2, 2), 6, 2e11,
                                         0.3, 7800.0, true, true);
  scene.gravity = Vec3(0, -9.81, 0);
  for (double dt : {0.01, 0.1}) {
    BuiltModel built = build_model(scene);
    auto be = make_integrator("be", integrator_settings(scene));
    State state = built.initial;
    for (int step = 1; step <= 20; ++step) {
      StepStats stats;
      ASSERT_EQ(be->step(*built.model, state, dt, stats), Status::kSuccess)
          << "dt " << dt << " step " << step;
      EXPECT_LE(stats.newton_iters, 3);  // linear forces: one Newton step solves it
    }
    // The tip sags under gravity (static deflection of this bar is ~7e-6 m).
    EXPECT_TRUE(state.q.allFinite());
  }
}

}  // namespace
}  // namespace simrun
