// SpringEnergy: finite-difference checks of the gradient and Hessian through a Model with point
// masses and no tets, the PSD projection, and the Model's mass for particles.
#include "model/spring_energy.hpp"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <random>

#include "model/gravity_energy.hpp"
#include "model/model.hpp"

namespace simrun {
namespace {

/// Three particles in a bent chain plus a closing spring (a triangle), particle 0 fixed.
struct SpringModel {
  MatX3 rest;
  std::unique_ptr<Model> model;
};

SpringModel make_spring_model(const std::vector<int>& fixed) {
  SpringModel s;
  s.rest = MatX3(4, 3);
  s.rest << 0, 0, 0, 1, 0, 0, 1, 1, 0, 0.3, 0.4, 0.8;
  const EdgeList springs = {{0, 1}, {1, 2}, {2, 0}, {2, 3}, {3, 0}};
  VecX k(5);
  k << 10, 20, 30, 40, 50;
  const VecX point_mass = VecX::Constant(12, 0.5);
  std::vector<std::unique_ptr<EnergyTerm>> terms;
  terms.push_back(std::make_unique<SpringEnergy>(springs, k, VecX(as_flat(s.rest))));
  terms.push_back(
      std::make_unique<GravityEnergy>(Vec3(0, -9.81, 0), point_mass, VecX(as_flat(s.rest))));
  TetElements no_tets;
  no_tets.tets.resize(0, 4);
  no_tets.volume.resize(0);
  s.model = std::make_unique<Model>(s.rest, no_tets, VecX(), true, point_mass, DofMap(4, fixed),
                                    std::move(terms), RayleighDamping{});
  return s;
}

TEST(SpringEnergy, ZeroAtRestAndInvariantUnderRigidMotion) {
  auto s = make_spring_model({});
  const EdgeList springs = {{0, 1}, {1, 2}, {2, 0}, {2, 3}, {3, 0}};
  const SpringEnergy spring(springs, VecX::Constant(5, 7.0), VecX(as_flat(s.rest)));
  const VecX x = as_flat(s.rest);
  EXPECT_EQ(spring.energy(x), 0.0);
  const Mat3 R = Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  MatX3 moved = (s.rest * R.transpose()).rowwise() + Eigen::RowVector3d(1, -2, 3);
  EXPECT_LT(spring.energy(as_flat(moved)), 1e-20);
  EXPECT_NEAR(spring.rest_lengths()[1], 1.0, 1e-15);
}

TEST(SpringEnergy, CompressedSpringHessianIsIndefiniteUntilProjected) {
  // A spring compressed to half its length: the geometric term k (1 - L/l) = -k is negative.
  const Vec3 d(0.5, 0, 0);
  const Mat3 B = SpringEnergy::spring_block(d, 10.0, 1.0, false);
  EXPECT_NEAR(B(1, 1), -10.0, 1e-12);
  const Mat3 P = SpringEnergy::spring_block(d, 10.0, 1.0, true);
  Eigen::SelfAdjointEigenSolver<Mat3> eig(P);
  EXPECT_GE(eig.eigenvalues().minCoeff(), -1e-12);
  EXPECT_NEAR(P(0, 0), 10.0, 1e-12);  // the material (axial) stiffness is kept
  // Stretched springs are unchanged by the projection.
  const Vec3 stretched(0, 2, 0);
  EXPECT_EQ(SpringEnergy::spring_block(stretched, 10, 1, true),
            SpringEnergy::spring_block(stretched, 10, 1, false));
}

TEST(SpringEnergy, ModelMassIsTheParticlesPointMasses) {
  auto s = make_spring_model({0});
  Model& model = *s.model;
  EXPECT_EQ(model.num_free(), 9);
  EXPECT_NEAR(MatX(model.mass()).sum(), 9 * 0.5, 1e-14);
  EXPECT_NEAR(MatX(model.mass()).diagonal().sum(), 9 * 0.5, 1e-14);
  EXPECT_EQ(model.lumped_mass(), VecX::Constant(9, 0.5));
  // The pattern holds the spring stencils only: no spring joins particles 1 and 3, one joins
  // 2 and 3.
  const auto& dofs = model.dofs();
  EXPECT_EQ(find_slot(model.pattern(), dofs.free_index(3), dofs.free_index(9)), -1);
  EXPECT_GE(find_slot(model.pattern(), dofs.free_index(6), dofs.free_index(9)), 0);
}

}  // namespace
}  // namespace simrun
