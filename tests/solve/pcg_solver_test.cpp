#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

#include "solve/linear_solver.hpp"
#include "test_matrices.hpp"

namespace simrun {
namespace {

SpMat full(const SpMat& lower_or_full) { return lower_or_full.selfadjointView<Eigen::Lower>(); }

double relative_residual(const SpMat& A, const VecX& x, const VecX& b) {
  return (full(A) * x - b).norm() / b.norm();
}

/// A badly scaled SPD matrix: a 2D Laplacian whose rows and columns are scaled by factors
/// spanning four decades, which the Jacobi preconditioner undoes.
SpMat scaled_laplacian(int nx, int ny, std::mt19937& rng, VecX& scale) {
  std::uniform_real_distribution<double> exponent(-2.0, 2.0);
  scale.resize(nx * ny);
  for (auto& s : scale) s = std::pow(10.0, exponent(rng));
  const SpMat L = test::laplacian_2d_dirichlet(nx, ny);
  return test::diagonal(scale) * L * test::diagonal(scale);
}

TEST(PcgSolver, ReachesTheToleranceOnAnSpdSystemAndCountsIterations) {
  std::mt19937 rng(3);
  VecX scale;
  const SpMat A = scaled_laplacian(20, 20, rng, scale);
  const VecX b = VecX::Random(A.rows());
  for (const double tolerance : {1e-4, 1e-10}) {
    auto solver = make_pcg_solver({tolerance, 10000});
    ASSERT_EQ(solver->factorize_positive_definite(A), Status::kSuccess);
    VecX x;
    solver->solve(b, x);
    EXPECT_LE(relative_residual(A, x, b), 1.1 * tolerance);
    // The residual the solver reports is the true one of its returned x, not the recurrence's.
    EXPECT_NEAR(solver->stats().residual, relative_residual(A, x, b), 1e-6 * tolerance);
    EXPECT_GT(solver->stats().iterations, 5);
    EXPECT_EQ(solver->stats().capped_solves, 0);
    EXPECT_EQ(solver->stats().solves, 1);
    EXPECT_EQ(solver->stats().factorizations, 1);
  }
}

TEST(PcgSolver, JacobiMakesTheIterationCountIndependentOfDiagonalScaling) {
  // D L D with the Jacobi preconditioner is CG on L with the preconditioner diag(L)^-1 = I/4:
  // the same Krylov iterates up to the scaling, so the same count as the unscaled Laplacian.
  std::mt19937 rng(4);
  VecX scale;
  const SpMat scaled = scaled_laplacian(15, 15, rng, scale);
  const SpMat plain = test::laplacian_2d_dirichlet(15, 15);
  const VecX b_plain = VecX::Random(plain.rows());
  const VecX b_scaled = scale.cwiseProduct(b_plain);
  auto a = make_pcg_solver({1e-8, 10000}), c = make_pcg_solver({1e-8, 10000});
  VecX x;
  ASSERT_EQ(a->factorize(plain), Status::kSuccess);
  a->solve(b_plain, x);
  ASSERT_EQ(c->factorize(scaled), Status::kSuccess);
  c->solve(b_scaled, x);
  EXPECT_NEAR(a->stats().iterations, c->stats().iterations, 2);
}

TEST(PcgSolver, StopsAtTheIterationCapAndReportsTheResidual) {
  const SpMat A = test::laplacian_2d_dirichlet(30, 30);
  const VecX b = VecX::Ones(A.rows());
  auto solver = make_pcg_solver({1e-12, 7});
  ASSERT_EQ(solver->factorize(A), Status::kSuccess);
  VecX x;
  solver->solve(b, x);
  EXPECT_EQ(solver->stats().iterations, 7);
  EXPECT_EQ(solver->stats().capped_solves, 1);
  EXPECT_GT(solver->stats().residual, 1e-3);
  EXPECT_NEAR(solver->stats().residual, relative_residual(A, x, b), 1e-10);
}

TEST(PcgSolver, ReadsOnlyTheLowerTriangleAndSolvesBlocks) {
  std::mt19937 rng(5);
  const SpMat A = test::random_spd(40, rng);
  const SpMat lower = SpMat(A.triangularView<Eigen::Lower>());
  const MatX B = MatX::Random(40, 3);
  auto solver = make_pcg_solver({1e-11, 1000});
  ASSERT_EQ(solver->factorize(lower), Status::kSuccess);
  MatX X;
  solver->solve(B, X);
  for (int j = 0; j < 3; ++j)
    EXPECT_LT(relative_residual(A, X.col(j), B.col(j)), 1e-11) << "column " << j;
  EXPECT_EQ(solver->stats().solves, 3);
}

TEST(PcgSolver, IndefiniteMatricesGiveADescentDirection) {
  // A = diag(1..n) - 0.5 n e1 e1^T-like shift: one negative eigenvalue with a positive diagonal
  // (factorize_positive_definite cannot tell), so CG meets negative curvature. The truncated
  // iterate x must still satisfy b.x > 0 (x = A^-1 b approximately on the positive part), the
  // property Newton needs from -x as a step along the gradient b.
  const int n = 30;
  Eigen::MatrixXd dense = Eigen::MatrixXd::Zero(n, n);
  for (int i = 0; i < n; ++i) dense(i, i) = 1.0 + i;
  dense(0, 1) = dense(1, 0) = 3.0;  // [[1, 3], [3, 2]] has eigenvalues 1.5 +- 3.04
  const SpMat A = dense.sparseView();
  VecX b = VecX::Ones(n);
  auto solver = make_pcg_solver({1e-12, 1000});
  ASSERT_EQ(solver->factorize_positive_definite(A), Status::kSuccess);
  VecX x;
  solver->solve(b, x);
  EXPECT_GT(b.dot(x), 0.0);
  EXPECT_TRUE(x.allFinite());
  // The non-positive curvature proved A indefinite: reported, so Newton's `auto` projects.
  EXPECT_TRUE(solver->solve_proved_indefinite());
  // The next solve starts afresh: an SPD matrix is not reported.
  Eigen::MatrixXd spd = dense;
  spd(0, 1) = spd(1, 0) = 0.5;
  ASSERT_EQ(solver->factorize_positive_definite(SpMat(spd.sparseView())), Status::kSuccess);
  solver->solve(b, x);
  EXPECT_FALSE(solver->solve_proved_indefinite());
  // Set up without the positive definite requirement (a projected or `never` matrix), the same
  // truncation is not reported.
  ASSERT_EQ(solver->factorize(A), Status::kSuccess);
  solver->solve(b, x);
  EXPECT_FALSE(solver->solve_proved_indefinite());
}

TEST(PcgSolver, RejectsNonPositiveDiagonalsAndSolvesOnlyAfterASuccess) {
  Eigen::MatrixXd dense = Eigen::MatrixXd::Identity(4, 4);
  dense(2, 2) = -1.0;
  const SpMat negative = dense.sparseView();
  auto solver = make_pcg_solver();
  EXPECT_EQ(solver->factorize_positive_definite(negative), Status::kNumericalIssue);
  VecX x;
  EXPECT_THROW(solver->solve(VecX::Ones(4), x), std::logic_error);
  EXPECT_EQ(solver->factorize(negative), Status::kSuccess);  // indefinite but usable
  dense(2, 2) = 0.0;
  EXPECT_EQ(solver->factorize(SpMat(dense.sparseView())), Status::kNumericalIssue);
}

TEST(PcgSolver, IsRegisteredWithItsSettings) {
  const SpMat A = test::laplacian_2d_dirichlet(20, 20);
  auto solver = linear_solver_factory("pcg", {1e-12, 3})();
  ASSERT_EQ(solver->factorize(A), Status::kSuccess);
  VecX x;
  solver->solve(VecX::Ones(A.rows()), x);
  EXPECT_EQ(solver->stats().iterations, 3);
}

}  // namespace
}  // namespace simrun
