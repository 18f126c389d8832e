#include "material/linear_elastic.hpp"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <random>

#include "support/finite_difference.hpp"

namespace simrun {
namespace {

using testing::fd_gradient;
using testing::fd_jacobian;
using testing::relative_error;

Mat3 random_deformation(std::mt19937& rng, double amplitude) {
  std::uniform_real_distribution<double> u(-amplitude, amplitude);
  Mat3 F = Mat3::Identity();
  for (int i = 0; i < 9; ++i) F.data()[i] += u(rng);
  return F;
}

class LinearElasticTest : public ::testing::Test {
 protected:
  LinearElastic material;
  LameParameters p = lame_from_young_poisson(1e6, 0.3);
};

TEST_F(LinearElasticTest, StressIsEnergyDerivativeAtLargeDeformation) {
  std::mt19937 rng(1);
  for (int trial = 0; trial < 10; ++trial) {
    const Mat3 F = random_deformation(rng, 0.6);
    auto psi = [&](const VecX& f) {
      return material.energy_density(Eigen::Map<const Mat3>(f.data()), p);
    };
    const VecX f = Eigen::Map<const Vec9>(F.data());
    const Mat3 P = material.first_piola(F, p);
    // psi is quadratic: central differences are exact up to round-off of psi ~ 1e6 * h^-1 eps.
    const VecX fd = fd_gradient(psi, f, 1e-4);
    EXPECT_LT(relative_error(Eigen::Map<const Vec9>(P.data()), fd), 1e-7) << "trial " << trial;
  }
}

TEST_F(LinearElasticTest, TangentIsStressDerivative) {
  std::mt19937 rng(2);
  const Mat3 F = random_deformation(rng, 0.6);
  auto stress = [&](const VecX& f) {
    const Mat3 P = material.first_piola(Eigen::Map<const Mat3>(f.data()), p);
    return VecX(Eigen::Map<const Vec9>(P.data()));
  };
  const VecX f = Eigen::Map<const Vec9>(F.data());
  const MatX fd = fd_jacobian(stress, f, 1e-4);
  EXPECT_LT(relative_error(material.first_piola_derivative(F, p), fd), 1e-8);
}

TEST_F(LinearElasticTest, RestIsStressFreeAndTangentIsPsdWithSkewNullspace) {
  EXPECT_DOUBLE_EQ(material.energy_density(Mat3::Identity(), p), 0.0);
  EXPECT_LT(material.first_piola(Mat3::Identity(), p).norm(), 1e-9);
  Eigen::SelfAdjointEigenSolver<Mat9> eig(material.first_piola_derivative(Mat3::Identity(), p));
  // Three skew-symmetric directions (infinitesimal rotations) have zero stiffness, six are > 0.
  const Vec9 values = eig.eigenvalues();
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(values[i], 0.0, 1e-9 * p.mu);
  for (int i = 3; i < 9; ++i) EXPECT_GT(values[i], 0.5 * p.mu);
}

TEST(ProjectPsd, ClampsNegativeEigenvaluesAndKeepsPsdMatrices) {
  std::mt19937 rng(3);
  std::normal_distribution<double> n01;
  Mat9 A;
  for (int i = 0; i < 81; ++i) A.data()[i] = n01(rng);
  A = (A + A.transpose()).eval();
  ASSERT_LT(Eigen::SelfAdjointEigenSolver<Mat9>(A).eigenvalues().minCoeff(), 0.0);
  const Mat9 projected = project_psd(A, 1e-3);
  const Vec9 values = Eigen::SelfAdjointEigenSolver<Mat9>(projected).eigenvalues();
  // Round-off of the reconstruction U diag U^T is ~1e-15 * |A|.
  EXPECT_GT(values.minCoeff(), 1e-3 - 1e-12);
  const Mat9 psd = A * A.transpose();
  EXPECT_EQ(project_psd(psd, 1e-3), psd);  // untouched, bit for bit
}

}  // namespace
}  // namespace simrun
