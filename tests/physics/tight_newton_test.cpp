// Tight Newton tolerances must converge with the line search on, as they do without it. The
// Armijo test used to allow 16 eps |Phi| of rounding noise, while Phi's rounding error grows
// with the element energies and positions it sums: at a converged backward-Euler step of this
// neo-Hookean cantilever the evaluation noise was ~1e-13 J against an allowance of ~1e-15 J,
// and tolerances of 1e-8 and 1e-10 failed with not_converging (at steps 7 and 2).
#include <gtest/gtest.h>

#include "scene/factory.hpp"
#include "scene_builders.hpp"

namespace simrun {
namespace {

SceneConfig neo_hookean_cantilever() {
  // scenes/cantilever_be.json with a neo-Hookean material: 1 m bar, 40x4x4 cells, consistent
  // mass, gravity, stiffness damping 0.002 s.
  SceneConfig scene = testing::box_scene(Vec3(1.0, 0.1, 0.1), Eigen::Vector3i(40, 4, 4), 6, 1e6,
                                         0.3, 1000.0, true, /*lumped=*/false);
  scene.objects[0].material.model = "neohookean";
  scene.gravity = Vec3(0, -9.81, 0);
  scene.damping.stiffness = 0.002;
  return scene;
}

TEST(TightNewton, LineSearchConvergesAtTolerancesOf1e8And1e10) {
  for (double tolerance : {1e-8, 1e-10}) {
    SceneConfig scene = neo_hookean_cantilever();
    scene.integrator.newton.tolerance = tolerance;
    BuiltModel built = build_model(scene);
    auto be = make_integrator("be", integrator_settings(scene));
    State state = built.initial;
    for (int step = 1; step <= 12; ++step) {
      StepStats stats;
      ASSERT_EQ(be->step(*built.model, state, 0.005, stats), Status::kSuccess)
          << "tolerance " << tolerance << " step " << step;
    }
  }
}

}  // namespace
}  // namespace simrun
