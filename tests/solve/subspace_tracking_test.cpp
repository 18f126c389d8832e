// track_lowest_modes: repeated calls converge to the lowest modes of (K, M), and the M W it keeps
// between calls gives the same iterates as recomputing M W every call.
#include "solve/subspace_tracking.hpp"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>

#include "solve/linear_solver.hpp"
#include "test_matrices.hpp"

namespace simrun {
namespace {

using test::laplacian_2d_dirichlet;

TEST(SubspaceTracking, KeptMassProductsGiveTheSameIteratesAndTheLowestModes) {
  const SpMat K = laplacian_2d_dirichlet(12, 10);  // 120 unknowns, distinct low eigenvalues
  const int n = static_cast<int>(K.rows());
  // A non-diagonal M (a mass-like SPD matrix): M = I + 0.1 K / |K|.
  SpMat I(n, n);
  I.setIdentity();
  const SpMat M = I + (0.1 / K.diagonal().maxCoeff()) * K;
  const double tau = 2.0;  // mode i converges by (1 + tau^2 lambda_i) / (1 + tau^2 lambda_8)
  const SpMat A = M + tau * tau * K;
  auto solver = make_cholmod_solver();
  ASSERT_EQ(solver->factorize(A), Status::kSuccess);
  const auto mass = [&](const MatX& X) -> MatX { return M * X; };
  int mass_products = 0;
  const auto counted_mass = [&](const MatX& X) -> MatX {
    ++mass_products;
    return M * X;
  };
  const auto stiffness = [&](const MatX& X) -> MatX { return K * X; };

  const int s = 4, p = subspace_guard_vectors(s);
  MatX W_kept = MatX::Random(n, s + p), W_fresh = W_kept, MW, MW_unused;
  VecX values_kept, values_fresh;
  for (int call = 0; call < 60; ++call) {
    ASSERT_EQ(track_lowest_modes(*solver, counted_mass, stiffness, W_kept, MW, values_kept).status,
              Status::kSuccess);
    MW_unused.resize(0, 0);  // recomputed every call
    ASSERT_EQ(track_lowest_modes(*solver, mass, stiffness, W_fresh, MW_unused, values_fresh).status,
              Status::kSuccess);
  }
  // M W once for the first call, then M Y once per call (the Rayleigh-Ritz step).
  EXPECT_EQ(mass_products, 1 + 60);
  // M Y c against M (Y c): the same product in another order, round-off ~1e-15 relative per
  // call; 1e-12 leaves room for 60 calls and fails at the first stale M W (an O(1) error).
  EXPECT_LT((MW - M * W_kept).norm(), 1e-12 * MW.norm());
  // The two iterations differ only by that round-off, which the iteration damps.
  EXPECT_LT((values_kept - values_fresh).norm(), 1e-10 * values_fresh.norm());

  // After 60 calls the slowest wanted mode has converged by ~0.6^60 ~ 1e-13 in angle, so its
  // Ritz value by the square: 1e-8 is loose for round-off and tight for an unconverged mode.
  const Eigen::GeneralizedSelfAdjointEigenSolver<MatX> dense{MatX(K), MatX(M)};
  for (int i = 0; i < s; ++i)
    EXPECT_NEAR(values_kept[i], dense.eigenvalues()[i], 1e-8 * dense.eigenvalues()[i]) << i;
  // M-orthonormal Ritz vectors.
  EXPECT_LT((W_kept.transpose() * M * W_kept - MatX::Identity(s + p, s + p)).norm(), 1e-10);
}

}  // namespace
}  // namespace simrun
