// SI and BE are both first order and coincide for linear forces (Chen thesis Sec. 6.2): on a
// linear-elastic cantilever under gravity their trajectories must agree, and the difference must
// shrink with dt. BE is run with a tight Newton tolerance so its solve error does not dominate.
#include <gtest/gtest.h>

#include "scene/factory.hpp"
#include "scene_builders.hpp"

namespace simrun {
namespace {

VecX tip_trajectory_end(const std::string& integrator, double dt, double t_end) {
  SceneConfig scene = testing::box_scene(Vec3(1.0, 0.1, 0.1), Eigen::Vector3i(8, 1, 1), 6, 1e5, 0.3,
                                         1000.0, true, true);
  scene.gravity = Vec3(0, -9.81, 0);
  BuiltModel built = build_model(scene);
  IntegratorSettings settings;
  settings.newton.tolerance = 1e-10;
  auto stepper = make_integrator(integrator, settings);
  State state = built.initial;
  const int steps = static_cast<int>(std::lround(t_end / dt));
  for (int i = 0; i < steps; ++i) {
    StepStats stats;
    EXPECT_EQ(stepper->step(*built.model, state, dt, stats), Status::kSuccess);
  }
  return state.q;
}

TEST(SiBeAgreement, LinearMaterialTrajectoriesCoincide) {
  const double t_end = 0.2;
  for (double dt : {0.02, 0.01, 0.005}) {
    const VecX si = tip_trajectory_end("si", dt, t_end);
    const VecX be = tip_trajectory_end("be", dt, t_end);
    const VecX rest = tip_trajectory_end("si", dt, 0.0);
    const double motion = (si - rest).cwiseAbs().maxCoeff();
    ASSERT_GT(motion, 1e-3);  // the bar really moved
    // Same linear system each step: only BE's Newton tolerance separates them.
    EXPECT_LT((si - be).cwiseAbs().maxCoeff(), 1e-6 * motion) << "dt " << dt;
  }
}

TEST(SiBeAgreement, BothConvergeAtFirstOrderAsDtShrinks) {
  const double t_end = 0.2;
  const VecX reference = tip_trajectory_end("be", 0.000625, t_end);
  double previous = 0.0;
  for (double dt : {0.01, 0.005, 0.0025}) {
    const double error = (tip_trajectory_end("si", dt, t_end) - reference).cwiseAbs().maxCoeff();
    if (previous > 0.0) {
      // First order: halving dt halves the error (ratio 2; accept 1.6..2.6 for the
      // pre-asymptotic range and the reference's own error).
      EXPECT_GT(previous / error, 1.6) << "dt " << dt;
      EXPECT_LT(previous / error, 2.6) << "dt " << dt;
    }
    previous = error;
  }
}

}  // namespace
}  // namespace simrun
