// The penalty plane's energy, force and Hessian on hand-computed cases (the finite-difference
// check over every term, tests/model/energy_term_fd_test.cpp, covers it at random states too).
#include "contact/penalty_plane.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "fem/tet_pattern.hpp"

namespace simrun {
namespace {

/// Three vertices: 0 at height -0.02 (penetrating), 1 at +0.1 (above), 2 at -0.05 (below, but
/// constrained in the DOF maps the Hessian tests use), on a plane through (0, 1, 0) with normal
/// (0, 2, 0): the normal is normalized, so the heights are y - 1.
VecX three_vertices() {
  VecX x(9);
  x << 0.3, 0.98, -0.2, /**/ 1.0, 1.1, 0.5, /**/ -0.4, 0.95, 0.0;
  return x;
}

TEST(PenaltyPlane, EnergyAndGradientOfPenetratingVerticesOnly) {
  const double k = 2e4;
  const PenaltyPlane plane(Vec3(0, 1, 0), Vec3(0, 2, 0), k, 3);
  const VecX x = three_vertices();
  EXPECT_NEAR(plane.signed_distance(x.segment<3>(0)), -0.02, 1e-15);
  EXPECT_NEAR(plane.signed_distance(x.segment<3>(3)), 0.1, 1e-15);
  // E = k/2 (0.02^2 + 0.05^2) = 1e4 * 0.0029 = 29 J (the constrained vertex counts too: the
  // energy is over full positions, like every term's).
  EXPECT_NEAR(plane.energy(x), 0.5 * k * (0.02 * 0.02 + 0.05 * 0.05), 1e-10);
  VecX g = VecX::Zero(9);
  plane.add_gradient(x, g);
  // dE/dx_i = k d_i n: the force -k d_i n pushes up (along +y) with k |d_i|.
  VecX expected = VecX::Zero(9);
  expected[1] = k * -0.02;
  expected[7] = k * -0.05;
  EXPECT_LT((g - expected).cwiseAbs().maxCoeff(), 1e-9);
  EXPECT_FALSE(plane.is_quadratic());
  EXPECT_EQ(plane.name(), "obstacles");
}

TEST(PenaltyPlane, TiltedNormalIsNormalized) {
  const Vec3 n = Vec3(1, 1, 0).normalized();
  const PenaltyPlane plane(Vec3::Zero(), Vec3(3, 3, 0), 10.0, 1);
  VecX x(3);
  x << -0.1, -0.1, 0.7;  // depth 0.1 sqrt(2) along n
  const double d = -0.1 * std::sqrt(2.0);
  EXPECT_NEAR(plane.signed_distance(x.segment<3>(0)), d, 1e-15);
  EXPECT_NEAR(plane.energy(x), 0.5 * 10.0 * d * d, 1e-14);
  VecX g = VecX::Zero(3);
  plane.add_gradient(x, g);
  EXPECT_LT((g - 10.0 * d * n).cwiseAbs().maxCoeff(), 1e-14);
  EXPECT_DOUBLE_EQ(plane.normal().norm(), 1.0);
}

TEST(PenaltyPlane, HessianIsKnnOnTheDiagonalBlocksOfPenetratingFreeVertices) {
  const double k = 500.0;
  const Vec3 normal = Vec3(0.0, 3.0, 4.0);  // unit (0, 0.6, 0.8)
  PenaltyPlane plane(Vec3(0, 1, 0), normal, k, 3);
  VecX x = three_vertices();
  x[2] = x[5] = x[8] = 0.0;   // heights 0.6 (y - 1): -0.012, +0.06, -0.03
  const DofMap dofs(3, {2});  // vertex 2 constrained
  const SpMat pattern = build_tet_pattern(MatX4i(0, 4), dofs);
  plane.bind(pattern, dofs);
  SpMat H = pattern;
  plane.add_hessian(x, H.valuePtr(), false);
  MatX expected = MatX::Zero(6, 6);
  const Vec3 n = normal.normalized();
  expected.block<3, 3>(0, 0) = k * n * n.transpose();  // vertex 0 only
  EXPECT_LT((MatX(H) - expected).cwiseAbs().maxCoeff(), 1e-12);
  // project_psd changes nothing: k n n^T is already positive semidefinite.
  SpMat P = pattern;
  plane.add_hessian(x, P.valuePtr(), true);
  EXPECT_EQ(MatX(P), MatX(H));
}

TEST(PenaltyPlane, NoForceOnOrAboveThePlane) {
  const PenaltyPlane plane(Vec3::Zero(), Vec3::UnitY(), 1e6, 2);
  VecX x(6);
  x << 0, 0.0, 0, /**/ 1, 1e-9, 1;  // exactly on it, and just above
  EXPECT_EQ(plane.energy(x), 0.0);
  VecX g = VecX::Zero(6);
  plane.add_gradient(x, g);
  EXPECT_EQ(g, VecX::Zero(6));
}

TEST(PenaltyPlane, RejectsZeroNormalAndNonPositiveStiffness) {
  EXPECT_THROW(PenaltyPlane(Vec3::Zero(), Vec3::Zero(), 1.0, 1), std::invalid_argument);
  EXPECT_THROW(PenaltyPlane(Vec3::Zero(), Vec3::UnitY(), 0.0, 1), std::invalid_argument);
  EXPECT_THROW(PenaltyPlane(Vec3::Zero(), Vec3::UnitY(), -5.0, 1), std::invalid_argument);
}

}  // namespace
}  // namespace simrun
