// Model::apply_mass and kinetic_energy take shortcuts (a diagonal for lumped mass, a row-major
// product and an element sum for consistent mass); they must equal the stored matrix's
// products for both mass kinds, with constrained vertices.
#include <gtest/gtest.h>

#include "model_fixture.hpp"

namespace simrun {
namespace {

TEST(ApplyMass, EqualsTheMassMatrixProductForLumpedAndConsistentMass) {
  for (bool lumped : {true, false}) {
    auto box =
        testing::make_box_model(Vec3(1, 0.5, 0.5), Eigen::Vector3i(3, 2, 2), 5, lumped, {0, 1});
    const VecX x = VecX::LinSpaced(box.model->num_free(), -1.0, 2.0);
    const VecX expected = box.model->mass() * x;
    // Same sums, possibly in another order: round-off of ~1e-16 relative.
    EXPECT_LT((box.model->apply_mass(x) - expected).cwiseAbs().maxCoeff(),
              1e-13 * expected.cwiseAbs().maxCoeff())
        << "lumped " << lumped;
    EXPECT_EQ(box.model->mass_is_lumped(), lumped);
    // 1/2 v^T M v over the free DOFs.
    const double kinetic = 0.5 * x.dot(expected);
    EXPECT_NEAR(box.model->kinetic_energy(x), kinetic, 1e-13 * kinetic) << "lumped " << lumped;
  }
}

}  // namespace
}  // namespace simrun
