// Implicit stages start Newton at the inertial prediction q_n + h v_n. For neo-Hookean that
// guess may invert elements (infinite energy); the stage solver must pull it back toward the
// feasible anchor instead of failing the step (review finding: every BE step failed here).
#include <gtest/gtest.h>

#include <memory>

#include "fem/tet_elements.hpp"
#include "integrate/integrator.hpp"
#include "material/material.hpp"
#include "mesh/box.hpp"
#include "mesh/selection.hpp"
#include "model/elastic_energy.hpp"

namespace simrun {
namespace {

TEST(InfeasibleGuess, NeoHookeanBarRushingIntoItsFixedEndStillSteps) {
  const TetMesh mesh = make_box(Vec3(1.0, 0.2, 0.2), Eigen::Vector3i(5, 1, 1), 6);
  const TetElements elements = precompute_tet_elements(mesh.vertices, mesh.tets);
  Selection fixed_end;
  fixed_end.kind = Selection::Kind::kSide;
  fixed_end.side = "-x";
  std::vector<std::unique_ptr<EnergyTerm>> terms;
  terms.push_back(std::make_unique<ElasticEnergy>(
      elements, std::shared_ptr<const Material>(make_material("neohookean")),
      std::vector<LameParameters>(mesh.num_tets(), lame_from_young_poisson(1e6, 0.3)),
      mesh.num_vertices()));
  Model model(mesh.vertices, elements, VecX::Constant(mesh.num_tets(), 1000.0), true,
              DofMap(mesh.num_vertices(), select_vertices(mesh.vertices, fixed_end)),
              std::move(terms), RayleighDamping{});
  for (const char* name : {"be", "im", "bdf2", "tr_bdf2", "sdirk2"}) {
    State state;
    state.q = model.restrict_vector(model.rest_positions());
    state.v = VecX::Zero(state.q.size());
    for (Eigen::Index i = 0; i < state.v.size(); i += 3) state.v[i] = -25.0;  // toward -x
    const double h =
        0.01;  // the prediction moves every free vertex 0.25 m: the first cells (0.2 m) invert
    ASSERT_FALSE(std::isfinite(model.potential_energy(state.q + h * state.v))) << name;
    auto integrator = make_integrator(name, {});
    StepStats stats;
    EXPECT_EQ(integrator->step(model, state, h, stats), Status::kSuccess) << name;
    EXPECT_TRUE(std::isfinite(model.potential_energy(state.q))) << name;
  }
}

}  // namespace
}  // namespace simrun
