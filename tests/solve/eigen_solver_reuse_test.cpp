// GeneralizedEigenSolver keeps its symbolic analysis and warm-starts from its last eigenvectors.
#include <gtest/gtest.h>

#include "solve/eigen_solver.hpp"
#include "test_matrices.hpp"

namespace simrun {
namespace {

/// A 2D grid Laplacian plus a diagonal shift: well separated, slowly changing eigenpairs.
SpMat grid_stiffness(int n, double shift) {
  test::Triplets t;
  auto id = [n](int i, int j) { return i + n * j; };
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      if (i + 1 < n) test::add_edge(t, id(i, j), id(i + 1, j), 1.0);
      if (j + 1 < n) test::add_edge(t, id(i, j), id(i, j + 1), 1.0);
      t.emplace_back(id(i, j), id(i, j), shift * (1.0 + 0.01 * i));
    }
  return test::from_triplets(n * n, t);
}

TEST(GeneralizedEigenSolver, ReusesTheAnalysisAndWarmStarts) {
  const int n = 40;
  SpMat M(n * n, n * n);
  M.setIdentity();
  GeneralizedEigenSolver solver;
  const GeneralizedEigenResult first = solver.compute(grid_stiffness(n, 1e-3), M, 6);
  ASSERT_EQ(first.status, Status::kSuccess);
  EXPECT_FALSE(first.warm_started);
  // A slightly changed K (as K(q) from one time step to the next): same pattern.
  const SpMat K2 = grid_stiffness(n, 1.02e-3);
  const GeneralizedEigenResult second = solver.compute(K2, M, 6);
  ASSERT_EQ(second.status, Status::kSuccess);
  EXPECT_TRUE(second.warm_started);
  EXPECT_EQ(solver.solver_stats().symbolic_analyses, 1);
  EXPECT_EQ(solver.solver_stats().factorizations, 2);
  EXPECT_LT(second.operator_products, first.operator_products);
  // The warm start changes the path, not the answer.
  const GeneralizedEigenResult cold = smallest_generalized_eigenpairs(K2, M, 6);
  EXPECT_LT((second.values - cold.values).cwiseAbs().maxCoeff(), 1e-10 * cold.values.maxCoeff());
}

// A caller's factorization of A = scale (K - sigma M), sigma below the spectrum (SIERE's
// M + tau D + tau^2 K): the same eigenpairs as with the solver's own shift, no factorization of
// its own. A wrong scale would scale every Ritz value nu of (K - sigma M)^-1 M and shift the
// eigenvalues sigma + 1/nu before Rayleigh-Ritz; a wrong operator would not converge to them.
TEST(GeneralizedEigenSolver, ShiftInvertsWithALentFactorization) {
  const int n = 30;
  SpMat M(n * n, n * n);
  M.setIdentity();
  M *= 2.0;
  const SpMat K = grid_stiffness(n, 1e-3);
  const double tau = 0.5, sigma = -1.0 / (tau * tau), scale = tau * tau;
  const SpMat A = SpMat(scale * K) + SpMat(-sigma * scale * M);  // M + tau^2 K
  auto lent = make_cholmod_solver();
  ASSERT_EQ(lent->factorize(A), Status::kSuccess);
  GeneralizedEigenSolver solver;
  const GeneralizedEigenResult got = solver.compute_factorized(K, M, 6, *lent, sigma, scale);
  ASSERT_EQ(got.status, Status::kSuccess);
  EXPECT_TRUE(got.borrowed_factorization);
  EXPECT_EQ(solver.solver_stats().factorizations, 0);
  EXPECT_EQ(lent->stats().solves, got.operator_products);
  const GeneralizedEigenResult own = smallest_generalized_eigenpairs(K, M, 6);
  ASSERT_EQ(own.status, Status::kSuccess);
  // Spectra's tolerance 1e-8 on the Ritz values, squared by the Rayleigh-Ritz step.
  EXPECT_LT((got.values - own.values).cwiseAbs().maxCoeff(), 1e-10 * own.values.maxCoeff());
  // Eigenvectors (M-orthonormal) agree up to sign: |u_got^T M u_own| = 1.
  const MatX overlap = got.vectors.transpose() * (M * own.vectors);
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(std::abs(overlap(i, i)), 1.0, 1e-8) << i;
  EXPECT_THROW(solver.compute_factorized(K, M, 6, *lent, sigma, 0.0), std::invalid_argument);
}

}  // namespace
}  // namespace simrun
