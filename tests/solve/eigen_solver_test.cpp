#include "solve/eigen_solver.hpp"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <numbers>
#include <random>
#include <stdexcept>

#include "test_matrices.hpp"

namespace simrun {
namespace {

struct DenseEigs {
  VecX values;
  MatX vectors;
};

DenseEigs dense_reference(const SpMat& K, const SpMat& M) {
  const Eigen::GeneralizedSelfAdjointEigenSolver<MatX> es{MatX(K), MatX(M)};
  EXPECT_EQ(es.info(), Eigen::Success);
  return {es.eigenvalues(), es.eigenvectors()};
}

/// U^T M U = I: Rayleigh-Ritz makes it exact up to roundoff (~1e-15 for these well-scaled M),
/// so 1e-10 catches any missing normalization or mixed-up columns.
void expect_m_orthonormal(const MatX& U, const SpMat& M) {
  const MatX G = U.transpose() * (M * U);
  EXPECT_LT((G - MatX::Identity(U.cols(), U.cols())).cwiseAbs().maxCoeff(), 1e-10);
}

/// Graph Laplacian of `sizes.size()` disconnected, internally connected components (a ring plus
/// random chords each, weights in [1, 10]): nullspace = the component indicators.
SpMat disconnected_laplacian(const std::vector<int>& sizes, std::mt19937& rng) {
  std::uniform_real_distribution<double> w(1.0, 10.0);
  test::Triplets t;
  int offset = 0, n = 0;
  for (int s : sizes) n += s;
  for (int s : sizes) {
    std::uniform_int_distribution<int> node(0, s - 1);
    for (int i = 0; i < s; ++i) {
      test::add_edge(t, offset + i, offset + (i + 1) % s, w(rng));
      const int j = node(rng);
      if (j != i) test::add_edge(t, offset + i, offset + j, w(rng));
    }
    offset += s;
  }
  return test::from_triplets(n, t);
}

TEST(GeneralizedEigen, MatchesDenseOnRandomSpdPair) {
  std::mt19937 rng(11);
  const SpMat K = 100.0 * test::random_spd(60, rng, 0.5);
  const SpMat M = test::random_spd(60, rng, 2.0);
  const GeneralizedEigenResult r = smallest_generalized_eigenpairs(K, M, 8);
  ASSERT_EQ(r.status, Status::kSuccess);
  ASSERT_EQ(r.values.size(), 8);
  ASSERT_EQ(r.vectors.cols(), 8);
  EXPECT_GT(r.iterations, 0);
  EXPECT_GE(r.seconds, 0.0);

  const DenseEigs ref = dense_reference(K, M);
  for (int i = 0; i < 8; ++i) {
    // Spectra converges Ritz values to 1e-10 relative and the Rayleigh-Ritz step is more
    // accurate still; the dense reference is good to ~eps cond(M); 1e-8 has a 100x margin.
    EXPECT_NEAR(r.values[i], ref.values[i], 1e-8 * ref.values[i]) << "mode " << i;
    if (i > 0) {
      EXPECT_LE(r.values[i - 1], r.values[i]);
    }
    // Eigenvectors agree up to sign when the eigenvalue is simple: the angle error is about
    // (value error) / (relative gap), here gaps are > 1e-3, so |cos| = 1 to ~1e-6.
    const double gap_lo = i > 0 ? ref.values[i] - ref.values[i - 1] : 1e300;
    const double gap_hi = ref.values[i + 1] - ref.values[i];
    ASSERT_GT(std::min(gap_lo, gap_hi), 1e-3 * ref.values[i]);
    const double cosine = ref.vectors.col(i).dot(M * r.vectors.col(i));
    EXPECT_NEAR(std::abs(cosine), 1.0, 1e-6) << "mode " << i;
  }
  expect_m_orthonormal(r.vectors, M);
}

// An indefinite K (a stiffness away from rest): the smallest eigenvalues are the most negative,
// which a shift near zero would miss (it finds those nearest zero). Also a warm second call from
// the last shift, and a K that becomes definite again.
TEST(GeneralizedEigen, FindsTheMostNegativeEigenvaluesOfAnIndefiniteK) {
  std::mt19937 rng(5);
  const SpMat M = test::random_spd(80, rng, 2.0);
  const SpMat A = 100.0 * test::random_spd(80, rng, 0.5);
  VecX shifts = VecX::Zero(80);
  shifts.head(3) << -9e4, -3e3, -40.0;  // three negative directions of very different depth
  const SpMat K = A - test::diagonal(-shifts);
  const DenseEigs ref = dense_reference(K, M);
  ASSERT_LT(ref.values[1], 0.0);
  GeneralizedEigenSolver solver;
  for (int call = 0; call < 2; ++call) {
    const GeneralizedEigenResult r = solver.compute(K, M, 5);
    ASSERT_EQ(r.status, Status::kSuccess);
    EXPECT_LT(r.shift, ref.values[0]);
    EXPECT_GT(r.shift, 1.2 * ref.values[0] - 1e-9);  // within the 1.2 bracket ratio
    if (call == 1) {
      EXPECT_LE(r.shift_probes, 3) << "the warm start probes from the last shift";
    }
    for (int i = 0; i < 5; ++i)
      EXPECT_NEAR(r.values[i], ref.values[i], 1e-8 * std::abs(ref.values[i])) << "mode " << i;
    expect_m_orthonormal(r.vectors, M);
  }
  const GeneralizedEigenResult definite = solver.compute(A, M, 3);
  ASSERT_EQ(definite.status, Status::kSuccess);
  EXPECT_EQ(definite.shift_probes, 0);
  EXPECT_NEAR(definite.values[0], dense_reference(A, M).values[0], 1e-8 * definite.values[0]);
}

TEST(GeneralizedEigen, FindsNullspaceOfFreeBody) {
  std::mt19937 rng(12);
  const SpMat K = 1e3 * disconnected_laplacian({20, 25, 15}, rng);
  const SpMat M = test::random_spd(60, rng, 1.0);
  const GeneralizedEigenResult r = smallest_generalized_eigenpairs(K, M, 8);
  ASSERT_EQ(r.status, Status::kSuccess);
  ASSERT_EQ(r.values.size(), 8);

  const DenseEigs ref = dense_reference(K, M);
  const double lambda_max = ref.values.maxCoeff();
  ASSERT_GT(ref.values[3], 1e-5 * lambda_max);  // setup check: exactly 3 zero modes
  for (int i = 0; i < 3; ++i) {
    // Exact value 0; roundoff in K and the shift-invert puts it at ~eps lambda_max.
    EXPECT_LT(std::abs(r.values[i]), 1e-8 * lambda_max) << "rigid mode " << i;
    // And the vector really is in the nullspace: |K u| / (lambda_max |M u|) at roundoff.
    EXPECT_LT((K * r.vectors.col(i)).norm(), 1e-8 * lambda_max * (M * r.vectors.col(i)).norm());
  }
  for (int i = 3; i < 8; ++i)  // elastic modes: tolerance as in MatchesDenseOnRandomSpdPair
    EXPECT_NEAR(r.values[i], ref.values[i], 1e-8 * ref.values[i]) << "mode " << i;
  expect_m_orthonormal(r.vectors, M);
}

/// lambda_k of tridiag(-1, 2, -1) (Dirichlet) or of the path Laplacian (free), times `scale`.
double laplacian_eigenvalue(int n, int k, bool free, double scale) {
  const double s = free ? std::sin(k * std::numbers::pi / (2.0 * n))
                        : std::sin((k + 1) * std::numbers::pi / (2.0 * (n + 1)));
  return scale * 4.0 * s * s;
}

TEST(GeneralizedEigen, HandlesStiffSpreadConstrainedAndFree) {
  // n = 4966: lambda_1 / lambda_max = sin^2(pi / (2 (n + 1))) ~ 1e-7, so with
  // K/M = 2.5e8 the spectrum spans ~1e2 .. 1e9, like a stiff constrained solid.
  const int n = 4966;
  const double mass = 2.0, stiffness = 5e8;  // scale = stiffness / mass = 2.5e8
  SpMat M(n, n);
  M.setIdentity();
  M *= mass;
  for (const bool free : {false, true}) {
    const SpMat K =
        stiffness * (free ? test::laplacian_1d_free(n) : test::laplacian_1d_dirichlet(n));
    const GeneralizedEigenResult r = smallest_generalized_eigenpairs(K, M, 6);
    ASSERT_EQ(r.status, Status::kSuccess) << "free = " << free;
    ASSERT_EQ(r.values.size(), 6);
    const double scale = stiffness / mass;
    if (!free) {
      ASSERT_NEAR(r.values[0], 100.0, 5.0);  // the spread the test is meant to have
    }
    for (int k = 0; k < 6; ++k) {
      const double exact = laplacian_eigenvalue(n, k, free, scale);
      if (free && k == 0) {
        EXPECT_LT(std::abs(r.values[0]), 1e-8 * 4.0 * scale);  // rigid mode vs lambda_max
        continue;
      }
      // Absolute error ~ eps * lambda_max = 2e-7, relative to lambda ~ 1e2 this is ~2e-9;
      // 1e-8 keeps a 5x margin and is 1e4x tighter than the gaps between modes.
      EXPECT_NEAR(r.values[k], exact, 1e-8 * exact) << "free = " << free << ", mode " << k;
    }
    expect_m_orthonormal(r.vectors, M);
  }
}

TEST(GeneralizedEigen, FullSpectrumUsesDenseSolverAndBadCountsThrow) {
  std::mt19937 rng(13);
  const SpMat K = test::random_spd(10, rng, 1.0);
  const SpMat M = test::random_spd(10, rng, 1.0);
  const GeneralizedEigenResult r = smallest_generalized_eigenpairs(K, M, 10);
  ASSERT_EQ(r.status, Status::kSuccess);
  const DenseEigs ref = dense_reference(K, M);
  // Same dense algorithm on the same matrices: equal up to a few ulps.
  EXPECT_LT((r.values - ref.values).norm(), 1e-12 * ref.values.norm());
  expect_m_orthonormal(r.vectors, M);

  EXPECT_THROW(smallest_generalized_eigenpairs(K, M, 11), std::invalid_argument);
  EXPECT_THROW(smallest_generalized_eigenpairs(K, M, 0), std::invalid_argument);
  EXPECT_THROW(smallest_generalized_eigenpairs(K, SpMat(9, 9), 2), std::invalid_argument);
}

}  // namespace
}  // namespace simrun
