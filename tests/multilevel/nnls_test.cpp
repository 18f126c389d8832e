/// Lawson-Hanson NNLS (multilevel/nnls.hpp).
#include "multilevel/nnls.hpp"

#include <gtest/gtest.h>

#include <Eigen/QR>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <utility>

#include "core/error.hpp"

namespace simrun {
namespace {

MatX random_matrix(int rows, int cols, std::mt19937_64& rng) {
  std::normal_distribution<double> normal;
  MatX A(rows, cols);
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i) A(i, j) = normal(rng);
  return A;
}

VecX random_vector(int size, std::mt19937_64& rng) { return random_matrix(size, 1, rng).col(0); }

/// The KKT conditions of min |A x - b|, x >= 0: x >= 0, w = A^T (b - A x) <= tol everywhere and
/// |w_j| <= tol where x_j > 0. tol is relative to |A^T b| (the solver's own scale, with margin).
void expect_kkt(const MatX& A, const VecX& b, const VecX& x, double relative_tolerance) {
  const VecX w = A.transpose() * (b - A * x);
  const double tol = relative_tolerance * (A.transpose() * b).cwiseAbs().maxCoeff();
  for (int j = 0; j < x.size(); ++j) {
    EXPECT_GE(x[j], 0.0) << "x[" << j << "]";
    EXPECT_LE(w[j], tol) << "gradient component " << j << " with x = " << x[j];
    if (x[j] > 0.0) {
      EXPECT_LE(std::abs(w[j]), tol) << "passive column " << j;
    }
  }
}

TEST(Nnls, RecoversAnExactNonNegativeSolution) {
  std::mt19937_64 rng(7);
  const MatX A = random_matrix(20, 8, rng);
  VecX x_true(8);
  x_true << 0.5, 0.0, 2.0, 0.0, 1e-3, 3.0, 0.0, 0.25;
  const VecX b = A * x_true;
  const NnlsResult result = solve_nnls(A, b);
  EXPECT_TRUE(result.converged);
  // A random Gaussian 20 x 8 matrix has condition ~ 10, so x is accurate to ~1e-14.
  EXPECT_LT((result.x - x_true).cwiseAbs().maxCoeff(), 1e-12) << result.x.transpose();
  EXPECT_LT(result.relative_residual, 1e-13);
  for (int j : {1, 3, 6}) EXPECT_EQ(result.x[j], 0.0) << "inactive column " << j;
}

TEST(Nnls, SatisfiesKktWithActiveConstraints) {
  std::mt19937_64 rng(11);
  const MatX A = random_matrix(12, 7, rng);
  VecX x_signed(7);
  x_signed << 1.0, -2.0, 0.5, -1.0, 3.0, -0.5, 1.5;
  const VecX b = A * x_signed + 0.1 * random_vector(12, rng);
  const NnlsResult result = solve_nnls(A, b);
  EXPECT_TRUE(result.converged);
  int active = 0;
  for (int j = 0; j < 7; ++j) active += result.x[j] == 0.0;
  EXPECT_GE(active, 1) << "the negative entries of x_signed should force active constraints";
  EXPECT_LE(active, 6);
  EXPECT_GT(result.relative_residual, 1e-3);
  expect_kkt(A, b, result.x, 1e-12);
}

/// The optimum by enumeration: over all column subsets S, the unconstrained least-squares
/// solution on S when it is non-negative; the best residual among those is the NNLS optimum
/// (the optimal x is the least-squares solution on its own support).
double brute_force_residual(const MatX& A, const VecX& b, VecX& best_x) {
  const int n = static_cast<int>(A.cols());
  double best = (b).norm();
  best_x = VecX::Zero(n);
  for (int mask = 1; mask < (1 << n); ++mask) {
    std::vector<int> subset;
    for (int j = 0; j < n; ++j)
      if (mask & (1 << j)) subset.push_back(j);
    MatX As(A.rows(), subset.size());
    for (std::size_t c = 0; c < subset.size(); ++c) As.col(c) = A.col(subset[c]);
    const VecX z = As.colPivHouseholderQr().solve(b);
    if (z.minCoeff() < 0.0) continue;
    const double residual = (As * z - b).norm();
    if (residual < best) {
      best = residual;
      best_x.setZero();
      for (std::size_t c = 0; c < subset.size(); ++c) best_x[subset[c]] = z[c];
    }
  }
  return best;
}

TEST(Nnls, MatchesBruteForceEnumerationOnSmallRandomProblems) {
  std::mt19937_64 rng(2024);
  int with_active = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const MatX A = random_matrix(6, 4, rng);
    const VecX b = random_vector(6, rng);
    VecX best_x;
    const double best = brute_force_residual(A, b, best_x);
    const NnlsResult result = solve_nnls(A, b);
    ASSERT_TRUE(result.converged) << "trial " << trial;
    const double residual = (A * result.x - b).norm();
    // Both are backward-stable least-squares solves on the same support: agreement to rounding.
    EXPECT_NEAR(residual, best, 1e-12 * b.norm()) << "trial " << trial;
    EXPECT_LT((result.x - best_x).cwiseAbs().maxCoeff(), 1e-10) << "trial " << trial;
    with_active += best_x.minCoeff() == 0.0;
  }
  EXPECT_GT(with_active, 50) << "the random problems should exercise active constraints";
}

TEST(Nnls, HandlesRankDeficientMatrices) {
  std::mt19937_64 rng(5);
  MatX A = random_matrix(10, 6, rng);
  A.col(3) = A.col(0);                   // duplicate column
  A.col(4) = 2.0 * A.col(1) + A.col(2);  // positive combination
  A.col(5) = A.col(0) - 0.5 * A.col(2);  // mixed-sign combination
  VecX x_true = VecX::Zero(6);
  x_true << 1.0, 0.5, 0.25, 0.0, 0.0, 0.0;
  const VecX b = A * x_true;
  const NnlsResult result = solve_nnls(A, b);
  EXPECT_TRUE(result.converged);
  EXPECT_LT(result.relative_residual, 1e-12);  // b is in the cone of the columns
  expect_kkt(A, b, result.x, 1e-12);

  // Every column equal: any non-negative x summing to 2 is optimal; the solver must find one.
  const VecX a = random_vector(8, rng);
  const MatX same = a.replicate(1, 5);
  const NnlsResult repeated = solve_nnls(same, 2.0 * a);
  EXPECT_TRUE(repeated.converged);
  EXPECT_NEAR(repeated.x.sum(), 2.0, 1e-12);
  EXPECT_GE(repeated.x.minCoeff(), 0.0);
  EXPECT_LT(repeated.relative_residual, 1e-14);
}

TEST(Nnls, ZeroColumnsStayZero) {
  std::mt19937_64 rng(9);
  const MatX reduced = random_matrix(9, 3, rng);
  MatX A = MatX::Zero(9, 5);
  A.col(1) = reduced.col(0);
  A.col(2) = reduced.col(1);
  A.col(4) = reduced.col(2);
  const VecX b = random_vector(9, rng);
  const NnlsResult full = solve_nnls(A, b);
  const NnlsResult small = solve_nnls(reduced, b);
  EXPECT_TRUE(full.converged);
  EXPECT_EQ(full.x[0], 0.0);
  EXPECT_EQ(full.x[3], 0.0);
  EXPECT_NEAR(full.x[1], small.x[0], 1e-13);
  EXPECT_NEAR(full.x[2], small.x[1], 1e-13);
  EXPECT_NEAR(full.x[4], small.x[2], 1e-13);
  EXPECT_NEAR(full.relative_residual, small.relative_residual, 1e-13);

  const NnlsResult all_zero = solve_nnls(MatX::Zero(4, 3), VecX::Ones(4));
  EXPECT_TRUE(all_zero.converged);
  EXPECT_EQ(all_zero.x, VecX::Zero(3));
  EXPECT_DOUBLE_EQ(all_zero.relative_residual, 1.0);
}

TEST(Nnls, ZeroRightHandSideGivesZero) {
  std::mt19937_64 rng(3);
  const NnlsResult result = solve_nnls(random_matrix(5, 4, rng), VecX::Zero(5));
  EXPECT_TRUE(result.converged);
  EXPECT_EQ(result.x, VecX::Zero(4));
  EXPECT_EQ(result.relative_residual, 0.0);
  EXPECT_EQ(result.iterations, 0);
}

TEST(Nnls, NegativeCorrelationGivesZero) {
  // Every column has a non-positive inner product with b: x = 0 is optimal.
  MatX A(3, 2);
  A << 1, 0, 0, 1, 0, 0;
  const VecX b = -VecX::Ones(3);
  const NnlsResult result = solve_nnls(A, b);
  EXPECT_TRUE(result.converged);
  EXPECT_EQ(result.x, VecX::Zero(2));
  EXPECT_DOUBLE_EQ(result.relative_residual, 1.0);
}

TEST(Nnls, IllConditionedMomentFitReachesTightResidual) {
  // A moment fit like the cubature's: non-negative weights at equispaced points of [0, 1]
  // integrating x^0..x^degree exactly. The monomial rows are badly conditioned, so the normal
  // equations (which square the condition number) would lose the 1e-9 target, and so does a KKT
  // test on A^T r relative to |A^T b| (an earlier version stopped at 2e-8 and 4e-8 on the first
  // two cases); QR on the transformed system keeps the residual near rounding.
  for (const auto& [degree, points] : {std::pair{9, 60}, std::pair{9, 1000}, std::pair{12, 200}}) {
    SCOPED_TRACE("degree " + std::to_string(degree) + ", " + std::to_string(points) + " points");
    MatX A(degree + 1, points);
    for (int k = 0; k < points; ++k) {
      const double x = (k + 0.5) / points;
      for (int d = 0; d <= degree; ++d) A(d, k) = std::pow(x, d);
    }
    VecX b(degree + 1);
    for (int d = 0; d <= degree; ++d) b[d] = 1.0 / (d + 1);  // integral of x^d over [0, 1]
    const NnlsResult result = solve_nnls(A, b);
    EXPECT_TRUE(result.converged);
    EXPECT_LT(result.relative_residual, 1e-13);
    EXPECT_GE(result.x.minCoeff(), 0.0);
    int support = 0;
    for (int k = 0; k < points; ++k) support += result.x[k] > 0.0;
    EXPECT_LE(support, degree + 1) << "a basic NNLS solution has at most rank(A) nonzeros";
  }
}

TEST(Nnls, StopsAtTheIterationCap) {
  std::mt19937_64 rng(13);
  const MatX A = random_matrix(10, 8, rng);
  const VecX b = A * VecX::Ones(8);  // needs all 8 columns
  const NnlsResult capped = solve_nnls(A, b, 2);
  EXPECT_FALSE(capped.converged);
  EXPECT_EQ(capped.iterations, 2);
  EXPECT_GE(capped.x.minCoeff(), 0.0);
  EXPECT_GT(capped.relative_residual, 1e-3);
  const NnlsResult full = solve_nnls(A, b);
  EXPECT_TRUE(full.converged);
  EXPECT_LT(full.relative_residual, 1e-13);
}

TEST(Nnls, RejectsMismatchedSizes) {
  EXPECT_THROW(solve_nnls(MatX::Ones(3, 2), VecX::Ones(4)), InputError);
}

}  // namespace
}  // namespace simrun
