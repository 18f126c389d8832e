// Model::apply_mass and kinetic_energy take shortcuts (a diagonal for lumped mass, a row-major
// product and an element sum for consistent mass); they must equal the stored matrix's
// products for both mass kinds, with constrained vertices.
#include <gtest/gtest.h>

#include <Eigen/Geometry>

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

// Model::momentum's element sums must equal p = M v from the stored matrix (a free body: the
// free DOFs are all DOFs), summed and crossed with the positions vertex by vertex.
TEST(Momentum, EqualsTheMassMatrixProductForLumpedAndConsistentMass) {
  for (bool lumped : {true, false}) {
    auto box = testing::make_box_model(Vec3(1, 0.5, 0.5), Eigen::Vector3i(3, 2, 2), 5, lumped, {});
    const int n = box.model->num_free();
    const VecX q = box.model->rest_positions() + 0.1 * VecX::LinSpaced(n, -1.0, 1.0);
    const VecX v = VecX::LinSpaced(n, -1.0, 2.0).array().sin();
    const VecX p = box.model->mass() * v;
    Vec3 linear = Vec3::Zero(), angular = Vec3::Zero();
    for (int i = 0; i < n / 3; ++i) {
      linear += p.segment<3>(3 * i);
      angular += q.segment<3>(3 * i).cross(Vec3(p.segment<3>(3 * i)));
    }
    const Momentum m = box.model->momentum(q, v);
    // Same sums in another order: round-off relative to the sizes of the summands.
    const double scale = p.cwiseAbs().sum() * (1.0 + q.cwiseAbs().maxCoeff());
    EXPECT_LT((m.linear - linear).norm(), 1e-13 * scale) << "lumped " << lumped;
    EXPECT_LT((m.angular - angular).norm(), 1e-13 * scale) << "lumped " << lumped;
    EXPECT_GT(angular.norm(), 1e-3 * scale) << "the test needs a non-zero angular momentum";
  }
}

// Prescribed vertices contribute their prescribed velocity's momentum.
TEST(Momentum, CountsThePrescribedVelocityOfConstrainedVertices) {
  auto box = testing::make_box_model(Vec3(1, 0.5, 0.5), Eigen::Vector3i(3, 2, 2), 5, true, {0});
  const VecX x = box.model->rest_positions();
  VecX u = VecX::Zero(x.size());
  u.segment<3>(0) = Vec3(0, 0, 2.0);
  box.model->set_constrained_state(x, u);
  const VecX q = box.model->restrict_vector(x), v = VecX::Zero(box.model->num_free());
  const Momentum m = box.model->momentum(q, v);
  // The vertex's lumped mass m0 from its prescribed kinetic energy 1/2 m0 |u0|^2.
  const double m0 = box.model->constrained_kinetic_energy() / 2.0;
  ASSERT_GT(m0, 0.0);
  EXPECT_NEAR(m.linear.z(), 2.0 * m0, 1e-14 * m0);
  EXPECT_EQ(m.linear.x(), 0.0);
  EXPECT_EQ(m.linear.y(), 0.0);
  // L = x0 x p0 = (y0 pz - z0 py, z0 px - x0 pz, x0 py - y0 px).
  EXPECT_NEAR(m.angular.x(), x[1] * 2.0 * m0, 1e-14 * m0);
  EXPECT_NEAR(m.angular.y(), -x[0] * 2.0 * m0, 1e-14 * m0);
}

}  // namespace
}  // namespace simrun
