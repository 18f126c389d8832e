#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <stdexcept>

#include "solve/linear_solver.hpp"
#include "test_matrices.hpp"

namespace simrun {
namespace {

double relative_residual(const SpMat& A, const VecX& x, const VecX& b) {
  const VecX r = SpMat(A.selfadjointView<Eigen::Lower>()) * x - b;
  return r.norm() / b.norm();
}

/// 2D Laplacian plus a random positive diagonal: the Laplacian's eigenvalues lie in (0, 8) and
/// the diagonal adds [0.5, 1.5], so A is SPD with cond(A) < 9.5 / 0.5 = 19.
SpMat spd_2d(int nx, int ny, std::mt19937& rng) {
  std::uniform_real_distribution<double> d(0.5, 1.5);
  VecX diag(nx * ny);
  for (auto& v : diag) v = d(rng);
  return test::laplacian_2d_dirichlet(nx, ny) + test::diagonal(diag);
}

TEST(CholmodSolver, SolvesSpdSystemToRoundoff) {
  std::mt19937 rng(1);
  const SpMat A = spd_2d(30, 25, rng);
  const VecX b = VecX::Random(A.rows());
  auto solver = make_cholmod_solver();
  ASSERT_EQ(solver->factorize(A), Status::kSuccess);
  VecX x;
  solver->solve(b, x);
  // Cholesky is backward stable: |r| <~ c n eps |A| |x| <= c n eps cond(A) |b|, with cond < 20
  // here; 1e-12 leaves room for the constant while catching any wrong factor (O(1) residual).
  EXPECT_LT(relative_residual(A, x, b), 1e-12);
  EXPECT_EQ(solver->stats().symbolic_analyses, 1);
  EXPECT_EQ(solver->stats().factorizations, 1);
  EXPECT_EQ(solver->stats().solves, 1);
  EXPECT_EQ(solver->stats().ldlt_fallbacks, 0);
  EXPECT_GE(solver->stats().factor_seconds, 0.0);
}

TEST(CholmodSolver, ReusesSymbolicAnalysisForSamePattern) {
  std::mt19937 rng(2);
  const SpMat A1 = spd_2d(20, 20, rng);
  const SpMat A2 = spd_2d(20, 20, rng);  // same pattern (diagonal + 5-point), new values
  ASSERT_GT((A1 - A2).norm(), 1.0);
  const VecX b = VecX::Random(A1.rows());
  auto solver = make_cholmod_solver();
  VecX x;
  ASSERT_EQ(solver->factorize(A1), Status::kSuccess);
  ASSERT_EQ(solver->factorize(A2), Status::kSuccess);
  solver->solve(b, x);
  EXPECT_LT(relative_residual(A2, x, b), 1e-12);  // uses the new values (tolerance: see above)
  EXPECT_EQ(solver->stats().symbolic_analyses, 1);
  EXPECT_EQ(solver->stats().factorizations, 2);

  // A different pattern (an extra coupling entry) must trigger a new analysis.
  test::Triplets t{{0, 5, 0.1}, {5, 0, 0.1}};
  const SpMat A3 = A2 + test::from_triplets(static_cast<int>(A2.rows()), t);
  ASSERT_EQ(solver->factorize(A3), Status::kSuccess);
  solver->solve(b, x);
  EXPECT_LT(relative_residual(A3, x, b), 1e-12);
  EXPECT_EQ(solver->stats().symbolic_analyses, 2);
  EXPECT_EQ(solver->stats().factorizations, 3);

  solver->reset_stats();
  EXPECT_EQ(solver->stats().factorizations, 0);
}

TEST(CholmodSolver, FallsBackToLuWhenLdltMeetsAZeroPivot) {
  // tridiag(-1, 2, -1) - I: eigenvalues 4 sin^2(k pi / (2(n+1))) - 1, both signs. Its second
  // leading minor is exactly 0 (pivots 1, 1 - 1/1 = 0), so LDL' without pivoting breaks down in
  // the natural (= minimum-degree) order and only the pivoting LU can factor it.
  const int n = 60;
  const SpMat L = test::laplacian_1d_dirichlet(n);
  SpMat I(n, n);
  I.setIdentity();
  const SpMat A = L - I;
  double gap = 1e300;
  for (int k = 1; k <= n; ++k) {
    const double s = std::sin(k * std::numbers::pi / (2.0 * (n + 1)));
    gap = std::min(gap, std::abs(4.0 * s * s - 1.0));
  }
  ASSERT_GT(gap, 1e-2);  // nonsingular: cond(A) <= 3 / gap < 300

  const VecX b = VecX::Random(n);
  auto solver = make_cholmod_solver();
  ASSERT_EQ(solver->factorize(A), Status::kSuccess);
  EXPECT_EQ(solver->stats().ldlt_fallbacks, 1);
  EXPECT_EQ(solver->stats().lu_fallbacks, 1);
  VecX x;
  solver->solve(b, x);
  // LU with partial pivoting is backward stable in practice: |r| <~ n eps |A| |x| with
  // cond < 300 gives ~1e-13; a wrong factor gives O(1).
  EXPECT_LT(relative_residual(A, x, b), 1e-10);

  // Back to an SPD matrix with the same pattern: LLT again, no new fallback.
  const SpMat B = L + I;
  ASSERT_EQ(solver->factorize(B), Status::kSuccess);
  solver->solve(b, x);
  EXPECT_LT(relative_residual(B, x, b), 1e-12);  // SPD, cond < 5 (Cholesky bound as above)
  EXPECT_EQ(solver->stats().ldlt_fallbacks, 1);
  EXPECT_EQ(solver->stats().lu_fallbacks, 1);
  EXPECT_EQ(solver->stats().symbolic_analyses, 2);  // supernodal + the fallback's simplicial
}

TEST(CholmodSolver, FallsBackToLuForMatrixNeeding2x2Pivots) {
  // [[0 1][1 0]] blocks: nonsingular (eigenvalues +-1) but every symmetric pivot order starts
  // with a zero diagonal.
  test::Triplets t;
  for (int i = 0; i < 10; i += 2) {
    t.emplace_back(i, i + 1, 1.0);
    t.emplace_back(i + 1, i, 1.0);
  }
  const SpMat A = test::from_triplets(10, t);
  const VecX b = VecX::LinSpaced(10, 1.0, 10.0);
  auto solver = make_cholmod_solver();
  ASSERT_EQ(solver->factorize(A), Status::kSuccess);
  EXPECT_EQ(solver->stats().lu_fallbacks, 1);
  VecX x;
  solver->solve(b, x);
  EXPECT_LT(relative_residual(A, x, b), 1e-15);  // a permutation: the solve is exact
}

TEST(CholmodSolver, FallsBackToLdltFor2dShiftedLaplacian) {
  // 5-point Laplacian minus 3.3 I: about 40% negative eigenvalues, a denser fill than 1D.
  const int nx = 25, ny = 20;
  SpMat I(nx * ny, nx * ny);
  I.setIdentity();
  const SpMat A = test::laplacian_2d_dirichlet(nx, ny) - 3.3 * I;
  double gap = 1e300;
  for (int i = 1; i <= nx; ++i)
    for (int j = 1; j <= ny; ++j)
      gap = std::min(gap, std::abs(4.0 - 2.0 * std::cos(i * std::numbers::pi / (nx + 1)) -
                                   2.0 * std::cos(j * std::numbers::pi / (ny + 1)) - 3.3));
  ASSERT_GT(gap, 1e-3);  // nonsingular: cond(A) <= 4.7 / gap
  const VecX b = VecX::Random(A.rows());
  auto solver = make_cholmod_solver();
  ASSERT_EQ(solver->factorize(A), Status::kSuccess);
  EXPECT_EQ(solver->stats().ldlt_fallbacks, 1);
  EXPECT_EQ(solver->stats().lu_fallbacks, 0);  // LDL' alone suffices here
  VecX x;
  solver->solve(b, x);
  // cond(A) < 5e3 (gap above); a correct solve leaves ~1e-13, a wrong factor O(1).
  EXPECT_LT(relative_residual(A, x, b), 1e-10);
}

TEST(CholmodSolver, ReportsSingularMatrix) {
  auto solver = make_cholmod_solver();
  // Path graph Laplacian: positive semidefinite, constants in the nullspace.
  EXPECT_EQ(solver->factorize(test::laplacian_1d_free(40)), Status::kNumericalIssue);
  VecX x, b = VecX::Ones(40);
  EXPECT_THROW(solver->solve(b, x), std::logic_error);

  // A zero diagonal entry with no coupling: exactly singular and indefinite-looking to LLT.
  VecX d = VecX::LinSpaced(10, 1.0, 10.0);
  d[4] = 0.0;
  EXPECT_EQ(solver->factorize(test::diagonal(d)), Status::kNumericalIssue);

  // 2D free (Neumann) Laplacian: singular only up to roundoff in the elimination.
  SpMat L2 = test::laplacian_2d_dirichlet(12, 12);
  for (int i = 0; i < L2.rows(); ++i) L2.coeffRef(i, i) = -(L2.col(i).sum() - L2.coeff(i, i));
  ASSERT_LT((L2 * VecX::Ones(L2.rows())).norm(), 1e-12);
  EXPECT_EQ(solver->factorize(L2), Status::kNumericalIssue);

  // Recovers on the next (nonsingular) matrix.
  EXPECT_EQ(solver->factorize(test::laplacian_1d_dirichlet(40)), Status::kSuccess);
  solver->solve(b, x);
  EXPECT_LT(relative_residual(test::laplacian_1d_dirichlet(40), x, b), 1e-12);
}

TEST(CholmodSolver, FullAndLowerStorageAgree) {
  std::mt19937 rng(3);
  const SpMat full = test::random_spd(200, rng);
  const SpMat lower = full.triangularView<Eigen::Lower>();
  ASSERT_LT(lower.nonZeros(), full.nonZeros());
  const VecX b = VecX::Random(200);
  auto solver = make_cholmod_solver();
  VecX x_full, x_lower;
  ASSERT_EQ(solver->factorize(full), Status::kSuccess);
  solver->solve(b, x_full);
  ASSERT_EQ(solver->factorize(lower), Status::kSuccess);
  solver->solve(b, x_lower);
  // CHOLMOD reads only the lower triangle, so both are the same factorization of the same
  // numbers; allow a few ulps in case the orderings differ.
  EXPECT_LT((x_full - x_lower).norm(), 1e-13 * x_full.norm());
  EXPECT_LT(relative_residual(full, x_full, b), 1e-12);  // diagonally dominant, cond < ~10

  // Uncompressed storage (after insert) is accepted too.
  SpMat uncompressed = lower;
  uncompressed.uncompress();
  ASSERT_FALSE(uncompressed.isCompressed());
  VecX x_unc;
  ASSERT_EQ(solver->factorize(uncompressed), Status::kSuccess);
  solver->solve(b, x_unc);
  EXPECT_LT((x_unc - x_lower).norm(), 1e-13 * x_lower.norm());
}

TEST(CholmodSolver, SolvesSeveralRightHandSides) {
  std::mt19937 rng(4);
  const SpMat A = spd_2d(15, 15, rng);
  const MatX B = MatX::Random(A.rows(), 4);
  auto solver = make_cholmod_solver();
  ASSERT_EQ(solver->factorize(A), Status::kSuccess);
  MatX X;
  solver->solve(B, X);
  ASSERT_EQ(X.rows(), A.rows());
  ASSERT_EQ(X.cols(), 4);
  for (int j = 0; j < 4; ++j) {
    VecX xj;
    solver->solve(VecX(B.col(j)), xj);
    EXPECT_LT(relative_residual(A, X.col(j), B.col(j)), 1e-12);  // cond < 20, as above
    EXPECT_LT((X.col(j) - xj).norm(), 1e-13 * xj.norm());        // same factor, same sweeps
  }
  // Aliasing input and output is allowed.
  VecX y = B.col(0);
  solver->solve(y, y);
  EXPECT_LT((y - X.col(0)).norm(), 1e-13 * y.norm());
}

TEST(CholmodSolver, RejectsWrongSizes) {
  auto solver = make_cholmod_solver();
  EXPECT_THROW(solver->factorize(SpMat(3, 4)), std::invalid_argument);
  ASSERT_EQ(solver->factorize(test::laplacian_1d_dirichlet(5)), Status::kSuccess);
  VecX x;
  EXPECT_THROW(solver->solve(VecX::Ones(4), x), std::invalid_argument);
}

}  // namespace
}  // namespace simrun
