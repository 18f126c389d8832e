#include "solve/low_rank_update.hpp"

#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <random>

#include "test_matrices.hpp"

namespace simrun {
namespace {

MatX random_matrix(int rows, int cols, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  MatX m(rows, cols);
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i) m(i, j) = u(rng);
  return m;
}

TEST(LowRankUpdate, MatchesADenseSolveOfTheUpdatedMatrix) {
  const int n = 40, k = 3;
  const SpMat A = test::laplacian_1d_dirichlet(n);
  auto solver = make_cholmod_solver();
  ASSERT_EQ(solver->factorize(A), Status::kSuccess);
  const MatX U = random_matrix(n, k, 1), V = random_matrix(n, k, 2);
  MatX C = random_matrix(k, k, 3);
  C(2, 2) = 0.0;
  C.row(2).setZero();  // singular C: the form used never inverts it
  const VecX b = random_matrix(n, 1, 4);
  const MatX dense = MatX(A) + U * C * V.transpose();
  const VecX expected = dense.partialPivLu().solve(b);

  LowRankUpdate update;
  ASSERT_EQ(update.setup(*solver, U, C, V), Status::kSuccess);
  VecX x;
  update.solve(b, x);
  // Both sides are backward stable; cond(dense) ~ 1e3 here.
  EXPECT_LT((x - expected).cwiseAbs().maxCoeff(), 1e-10 * expected.cwiseAbs().maxCoeff());
  EXPECT_EQ(update.rank(), k);

  // Symmetric update (V = U), aliasing b and x.
  const MatX S = C * C.transpose();
  ASSERT_EQ(update.setup(*solver, U, S), Status::kSuccess);
  VecX y = b;
  update.solve(y, y);
  const VecX expected_sym = (MatX(A) + U * S * U.transpose()).ldlt().solve(b);
  EXPECT_LT((y - expected_sym).cwiseAbs().maxCoeff(), 1e-10 * expected_sym.cwiseAbs().maxCoeff());
}

// setup_solved() takes Z = A^-1 U from the caller: the same solves as setup(), and a wrong Z
// (U itself instead of A^-1 U) gives a different answer.
TEST(LowRankUpdate, SetupSolvedEqualsSetupWithTheCallersSolve) {
  const int n = 40, k = 3;
  const SpMat A = test::laplacian_1d_dirichlet(n);
  auto solver = make_cholmod_solver();
  ASSERT_EQ(solver->factorize(A), Status::kSuccess);
  const MatX U = random_matrix(n, k, 5), V = random_matrix(n, k, 6), C = random_matrix(k, k, 7);
  const VecX b = random_matrix(n, 1, 8);
  LowRankUpdate reference, given;
  ASSERT_EQ(reference.setup(*solver, U, C, V), Status::kSuccess);
  MatX Z;
  solver->solve(U, Z);
  const int solves_before = solver->stats().solves;
  ASSERT_EQ(given.setup_solved(*solver, Z, C, V), Status::kSuccess);
  EXPECT_EQ(solver->stats().solves, solves_before);  // no solve in the setup
  VecX x, y;
  reference.solve(b, x);
  given.solve(b, y);
  EXPECT_LT((x - y).cwiseAbs().maxCoeff(), 1e-13 * x.cwiseAbs().maxCoeff());
  LowRankUpdate wrong;
  ASSERT_EQ(wrong.setup_solved(*solver, U, C, V), Status::kSuccess);
  wrong.solve(b, y);
  EXPECT_GT((x - y).cwiseAbs().maxCoeff(), 1e-3 * x.cwiseAbs().maxCoeff());
  EXPECT_THROW(given.setup_solved(*solver, Z, C, MatX(n, k + 1)), std::invalid_argument);
}

TEST(LowRankUpdate, ReportsASingularUpdatedMatrix) {
  // A = I, U = e_0, C = -1: A + U C U^T has a zero on the diagonal.
  SpMat A(3, 3);
  A.setIdentity();
  auto solver = make_cholmod_solver();
  ASSERT_EQ(solver->factorize(A), Status::kSuccess);
  MatX U = MatX::Zero(3, 1);
  U(0, 0) = 1.0;
  LowRankUpdate update;
  EXPECT_EQ(update.setup(*solver, U, -MatX::Identity(1, 1)), Status::kNumericalIssue);
}

}  // namespace
}  // namespace simrun
