// Krylov expv and phi_1 against dense matrix exponentials: symmetric, non-symmetric, with a zero
// block (the first-order elastodynamics shape), a happy breakdown, and the substep count
// growing with |A| (what the thesis' Table 4.1 counts).
#include "solve/krylov_expv.hpp"

#include <gtest/gtest.h>

#include <random>
#include <unsupported/Eigen/MatrixFunctions>

namespace simrun {
namespace {

MatX random_matrix(int n, unsigned seed, double scale) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal;
  MatX A(n, n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) A(i, j) = scale * normal(rng);
  return A;
}

LinearOperator dense_operator(const MatX& A) {
  return [A](const VecX& x, VecX& y) { y = A * x; };
}

double inf_norm(const MatX& A) { return A.cwiseAbs().rowwise().sum().maxCoeff(); }

/// Dense t phi_1(t A) b from the augmented exponential.
VecX dense_phi1(double t, const MatX& A, const VecX& b) {
  const Eigen::Index n = A.rows();
  MatX augmented = MatX::Zero(n + 1, n + 1);
  augmented.topLeftCorner(n, n) = A;
  augmented.topRightCorner(n, 1) = b;
  const MatX E = (t * augmented).exp();
  return E.topRightCorner(n, 1);
}

void expect_close(const VecX& a, const VecX& b, double relative, const std::string& what) {
  EXPECT_LT((a - b).norm(), relative * b.norm()) << what << ": " << (a - b).norm() / b.norm();
}

TEST(KrylovExpv, MatchesDenseExpOnSymmetricNegativeDefinite) {
  const int n = 120;
  MatX B = random_matrix(n, 1, 1.0);
  const MatX A = -(B * B.transpose()) / n - MatX::Identity(n, n);  // eigenvalues in [-~5, -1]
  const VecX v = VecX::LinSpaced(n, -1.0, 2.0);
  VecX w;
  const KrylovStats stats = expv(0.7, dense_operator(A), inf_norm(A), v, w);
  ASSERT_EQ(stats.status, Status::kSuccess);
  // Expokit's tolerance is an estimate of the local error per unit time: the default 1e-7 (the
  // errors here are orders of magnitude smaller; t <= 1.3 in these tests).
  expect_close(w, (0.7 * A).exp() * v, 1e-7, "symmetric");
  EXPECT_GE(stats.substeps, 1);
}

TEST(KrylovExpv, MatchesDenseExpOnNonSymmetric) {
  const int n = 80;
  const MatX A = random_matrix(n, 2, 0.3) - 2.0 * MatX::Identity(n, n);
  const VecX v = VecX::Ones(n);
  VecX w;
  const KrylovStats stats = expv(1.3, dense_operator(A), inf_norm(A), v, w);
  ASSERT_EQ(stats.status, Status::kSuccess);
  expect_close(w, (1.3 * A).exp() * v, 1e-7 * 1.3, "non-symmetric");
}

TEST(KrylovExpv, Phi1OfAFirstOrderOscillatorWithAZeroBlock) {
  // J = [[0, I], [-K, -D]]: the shape of the elastodynamics Jacobian (M = I), K SPD.
  const int n = 40;
  MatX B = random_matrix(n, 3, 1.0);
  const MatX K = B * B.transpose() / n + 0.5 * MatX::Identity(n, n);
  const MatX D = 0.01 * MatX::Identity(n, n) + 0.01 * K;
  MatX J = MatX::Zero(2 * n, 2 * n);
  J.topRightCorner(n, n).setIdentity();
  J.bottomLeftCorner(n, n) = -K;
  J.bottomRightCorner(n, n) = -D;
  const VecX b = VecX::LinSpaced(2 * n, 1.0, -1.0);
  VecX y;
  const double h = 0.05;
  const KrylovStats stats = phi1v(h, dense_operator(J), inf_norm(J), b, y);
  ASSERT_EQ(stats.status, Status::kSuccess);
  expect_close(y, dense_phi1(h, J, b), 1e-7, "phi1");
  // A zero operator: t phi_1(0) b = t b exactly (the Krylov space is {b}).
  VecX z;
  const KrylovStats zero = phi1v(h, dense_operator(MatX::Zero(2 * n, 2 * n)), 0.0, b, z);
  ASSERT_EQ(zero.status, Status::kSuccess);
  expect_close(z, h * b, 1e-14, "phi1 of zero");
  EXPECT_TRUE(zero.happy_breakdown);
}

TEST(KrylovExpv, SmallSystemsEndInAHappyBreakdown) {
  const int n = 6;  // fewer than m = 30: the Krylov space is all of R^6
  const MatX A = random_matrix(n, 4, 1.0);
  const VecX v = VecX::Ones(n);
  VecX w;
  const KrylovStats stats = expv(0.5, dense_operator(A), inf_norm(A), v, w);
  ASSERT_EQ(stats.status, Status::kSuccess);
  EXPECT_TRUE(stats.happy_breakdown);
  EXPECT_EQ(stats.substeps, 1);
  expect_close(w, (0.5 * A).exp() * v, 1e-12, "exact in the invariant subspace");
}

TEST(KrylovExpv, SubstepsGrowWithTheNorm) {
  // The thesis' observation (Table 4.1): tau grows with |A| (stiffness over mass).
  const int n = 200;
  MatX B = random_matrix(n, 5, 1.0);
  const MatX S = B * B.transpose() / n;
  const VecX v = VecX::Ones(n);
  int previous = 0;
  for (double scale : {1.0, 100.0, 10000.0}) {
    const MatX A = -scale * S;
    VecX w;
    const KrylovStats stats = expv(1.0, dense_operator(A), inf_norm(A), v, w);
    ASSERT_EQ(stats.status, Status::kSuccess) << scale;
    EXPECT_GE(stats.substeps, previous) << scale;
    previous = stats.substeps;
    // exp(A) v decays strongly here: judge the error against |v| (tolerance 1e-7 per unit time).
    EXPECT_LT((w - A.exp() * v).norm(), 1e-5 * v.norm()) << scale;
  }
  EXPECT_GT(previous, 1);
}

}  // namespace
}  // namespace simrun
