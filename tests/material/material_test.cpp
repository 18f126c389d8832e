/// Generic checks run for every model make_material knows (material_names()): a model is covered
/// the moment it is registered.
#include "material/material.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "material/linear_elastic.hpp"
#include "material/principal_stretch.hpp"
#include "material/voigt.hpp"
#include "support/finite_difference.hpp"

namespace simrun {
namespace {

using testing::fd_gradient;
using testing::fd_jacobian;
using testing::relative_error;

const LameParameters kIsotropicLame = lame_from_young_poisson(1e6, 0.3);
// The models that read a 6x6 tensor (needs_stiffness_tensor) get the isotropic one of the same
// mu, lambda, so the checks below (and the small-strain limits) are the isotropic models' ones;
// tests/material/anisotropic_material_test.cpp covers genuinely anisotropic tensors.
const VoigtTensor kIsotropicStiffness = isotropic_voigt(kIsotropicLame.mu, kIsotropicLame.lambda);
const MaterialParameters kLame{kIsotropicLame.mu, kIsotropicLame.lambda, &kIsotropicStiffness};

// Step for central differences in F (entries of order 1). Truncation error ~ h^2/6 |psi'''|,
// and with |sigma| in [~0.2, ~2] (det F > 0.2 or |s_i + s_j| > 0.2) the third derivatives are
// at most ~1e2 times the second, so ~1e-8 relative; round-off ~ 1e-16 |psi| / h ~ 1e-11.
constexpr double kStep = 1e-5;
// Hence a 1e-6 tolerance on max |error| / max |reference| leaves two orders of margin while an
// actual formula error (a wrong factor or sign in one term) shows up at >= 1e-3.
constexpr double kFdTolerance = 1e-6;

Vec9 vec(const Mat3& A) { return Eigen::Map<const Vec9>(A.data()); }
Mat3 unvec(const VecX& f) { return Eigen::Map<const Mat3>(f.data()); }

Mat3 random_rotation(std::mt19937& rng) {
  std::normal_distribution<double> n01;
  return Eigen::Quaterniond(n01(rng), n01(rng), n01(rng), n01(rng)).normalized().toRotationMatrix();
}

Mat3 random_deformation(std::mt19937& rng, double amplitude) {
  std::uniform_real_distribution<double> u(-amplitude, amplitude);
  Mat3 F = Mat3::Identity();
  for (int i = 0; i < 9; ++i) F.data()[i] += u(rng);
  return F;
}

// The SVD-based models (corotated, ARAP) are not differentiable where s_i + s_j = 0 for the
// signed singular values; FD needs to stay away from there, as from J = 0 for log-J models.
double min_pair_sum(const Mat3& F) {
  const Vec3 s = signed_svd(F).sigma;
  return std::min({s[0] + s[1], s[0] + s[2], s[1] + s[2]});
}

struct Sample {
  std::string label;
  Mat3 F;
};

/// F = I, 10 random large deformations (amplitude 0.5, det F > 0.2, pair sums > 0.2),
/// near-repeated and repeated singular values, and, for models that allow inversion, 6
/// inverted deformations (det F < -0.2).
std::vector<Sample> samples(const Material& m) {
  std::vector<Sample> out = {{"rest", Mat3::Identity()}};
  std::mt19937 rng(42);
  while (out.size() < 11) {
    const Mat3 F = random_deformation(rng, 0.5);
    if (F.determinant() > 0.2 && min_pair_sum(F) > 0.2)
      out.push_back({"random " + std::to_string(out.size()), F});
  }
  const Mat3 R1 = random_rotation(rng), R2 = random_rotation(rng);
  out.push_back({"near-repeated", R1 * Vec3(1.2, 1.2 + 1e-7, 0.9).asDiagonal() * R2});
  out.push_back({"repeated", R1 * Vec3(1.2, 1.2, 0.9).asDiagonal() * R2});
  out.push_back({"repeated smallest", R2 * Vec3(1.3, 0.8, 0.8).asDiagonal() * R1});
  out.push_back({"rotated rest", R1});
  if (m.allows_inversion()) {
    const Mat3 flip = Vec3(1.0, 1.0, -1.0).asDiagonal();
    int inverted = 0;
    while (inverted < 6) {
      const Mat3 F = random_deformation(rng, 0.5) * flip;
      if (F.determinant() < -0.2 && min_pair_sum(F) > 0.2)
        out.push_back({"inverted " + std::to_string(inverted++), F});
    }
    out.push_back({"inverted near-repeated", R1 * Vec3(1.2, 1.2 + 1e-7, -0.7).asDiagonal() * R2});
  }
  return out;
}

class MaterialTest : public ::testing::TestWithParam<std::string> {
 protected:
  std::unique_ptr<Material> m = make_material(GetParam());
};

TEST_P(MaterialTest, NameRoundTrips) { EXPECT_EQ(m->name(), GetParam()); }

TEST_P(MaterialTest, StressIsEnergyGradient) {
  for (const auto& [label, F] : samples(*m)) {
    auto psi = [&](const VecX& f) { return m->energy_density(unvec(f), kLame); };
    const VecX fd = fd_gradient(psi, vec(F), kStep);
    // Floor mu: at rest P = 0 and the FD reference is round-off.
    EXPECT_LT(relative_error(vec(m->first_piola(F, kLame)), fd, kLame.mu), kFdTolerance) << label;
  }
}

TEST_P(MaterialTest, TangentIsStressJacobianAndSymmetric) {
  for (const auto& [label, F] : samples(*m)) {
    auto stress = [&](const VecX& f) { return VecX(vec(m->first_piola(unvec(f), kLame))); };
    const MatX fd = fd_jacobian(stress, vec(F), kStep);
    const Mat9 D = m->first_piola_derivative(F, kLame);
    EXPECT_LT(relative_error(D, fd, kLame.mu), kFdTolerance) << label;
    EXPECT_LT(relative_error(D, D.transpose(), kLame.mu), 1e-12) << label;
  }
}

TEST_P(MaterialTest, RestIsStressFreeWithZeroEnergy) {
  EXPECT_NEAR(m->energy_density(Mat3::Identity(), kLame), 0.0, 1e-12 * kLame.mu);
  EXPECT_LT(m->first_piola(Mat3::Identity(), kLame).cwiseAbs().maxCoeff(), 1e-12 * kLame.mu);
}

TEST_P(MaterialTest, EnergyIsRotationInvariant) {
  if (GetParam() == "linear" || GetParam() == "anisotropic_linear")
    GTEST_SKIP() << "small-strain linear elasticity is not frame invariant";
  std::mt19937 rng(7);
  for (const auto& [label, F] : samples(*m)) {
    const Mat3 R = random_rotation(rng);
    const double psi = m->energy_density(F, kLame);
    // psi is a sum of terms of size ~mu; round-off ~1e-15 mu.
    EXPECT_NEAR(m->energy_density(R * F, kLame), psi, 1e-10 * kLame.mu) << label;
    // P(R F) = R P(F) follows; it checks the signed SVD's handling of the rotation.
    EXPECT_LT(relative_error(m->first_piola(R * F, kLame), R * m->first_piola(F, kLame), kLame.mu),
              1e-10)
        << label;
  }
}

// The small-strain limit: dP/dF(I) is the linear material's tangent with the Lame parameters
// below (the documented conventions of each model).
TEST_P(MaterialTest, LinearizationAtRestMatchesDocumentedLameParameters) {
  const double mu = kLame.mu, lambda = kLame.lambda;
  const std::map<std::string, LameParameters> linearized = {
      {"linear", {mu, lambda}},
      {"corotated", {mu, lambda}},
      {"stvk", {mu, lambda}},
      {"neohookean", {mu, lambda}},
      {"stable_neohookean", {mu, lambda}},
      // C1 = mu/2: shear modulus mu; D1 = lambda/2: bulk modulus lambda = (lambda - 2/3 mu) + 2/3
      // mu.
      {"neohookean_isochoric", {mu, lambda - 2.0 / 3.0 * mu}},
      {"arap", {mu, 0.0}},                      // k = mu, no volume term
      {"anisotropic_linear", {mu, lambda}},     // given the isotropic tensor of (mu, lambda)
      {"anisotropic_corotated", {mu, lambda}},  // likewise
  };
  const auto it = linearized.find(GetParam());
  ASSERT_NE(it, linearized.end()) << "add the new model's small-strain Lame parameters here";
  const Mat9 expected = LinearElastic().first_piola_derivative(Mat3::Identity(), it->second);
  EXPECT_LT(relative_error(m->first_piola_derivative(Mat3::Identity(), kLame), expected), 1e-10);
}

TEST_P(MaterialTest, InversionBehaviourIsTheDocumentedOne) {
  const Mat3 F = Vec3(1.1, 0.9, -0.8).asDiagonal();
  const double psi = m->energy_density(F, kLame);
  const Mat3 P = m->first_piola(F, kLame);
  const Mat9 D = m->first_piola_derivative_psd(F, kLame);
  if (m->allows_inversion()) {
    EXPECT_TRUE(std::isfinite(psi));
    EXPECT_TRUE(P.allFinite());
    EXPECT_TRUE(D.allFinite());
  } else {
    // +inf energy (rejected by line searches), NaN stress and tangent (a visible divergence).
    EXPECT_EQ(psi, std::numeric_limits<double>::infinity());
    EXPECT_TRUE(P.array().isNaN().all());
    EXPECT_TRUE(D.array().isNaN().all());
    EXPECT_EQ(m->energy_density(Mat3::Zero(), kLame), std::numeric_limits<double>::infinity());
  }
}

TEST_P(MaterialTest, PsdProjectionIsPsdAndMatchesEigenClamp) {
  int clamped = 0;
  for (const auto& [label, F] : samples(*m)) {
    const Mat9 D = m->first_piola_derivative(F, kLame);
    const Mat9 projected = m->first_piola_derivative_psd(F, kLame);
    const double scale = D.cwiseAbs().maxCoeff();
    const Vec9 values =
        Eigen::SelfAdjointEigenSolver<Mat9>(0.5 * (projected + projected.transpose()))
            .eigenvalues();
    // Eigenvalues of the reconstruction carry round-off ~1e-15 scale.
    EXPECT_GE(values.minCoeff(), -1e-9 * scale) << label;
    // The analytic projection (if the model has one) is the same matrix as the generic clamp;
    // both are accurate to ~1e-14 scale except where eigenvalues nearly coincide, hence 1e-8.
    EXPECT_LT(relative_error(projected, project_psd(D, kPsdEpsilon), scale), 1e-8) << label;
    const double min_unprojected = Eigen::SelfAdjointEigenSolver<Mat9>(D).eigenvalues().minCoeff();
    if (min_unprojected >= 0.0) {
      EXPECT_LT(relative_error(projected, D, scale), 1e-12)
          << label << ": already PSD, must be unchanged";
    } else if (min_unprojected < -1e-6 * scale) {
      ++clamped;
    }
  }
  RecordProperty("clamped_samples", clamped);
  // Nonlinear models are indefinite at some of these samples, so the comparison with the
  // generic clamp above has exercised the clamping itself, not only the PSD pass-through.
  if (!m->is_quadratic()) {
    EXPECT_GT(clamped, 0);
  }
}

TEST_P(MaterialTest, TangentPairIsTheTwoTangentsBitForBit) {
  // first_piola_derivative_pair shares one decomposition between dP/dF and its projection
  // (EigenFit's two stiffnesses in one pass): the same matrices as the two separate calls, and
  // "nothing clamped" exactly when the projection is dP/dF itself.
  int clamped = 0;
  for (const auto& [label, F] : samples(*m)) {
    const Mat9 D = m->first_piola_derivative(F, kLame);
    const Mat9 projected = m->first_piola_derivative_psd(F, kLame);
    Mat9 pair_D, pair_projected;
    const bool differs = m->first_piola_derivative_pair(F, kLame, pair_D, pair_projected);
    EXPECT_TRUE(pair_D == D) << label;
    EXPECT_TRUE(pair_projected == projected) << label;
    EXPECT_EQ(differs, projected != D) << label;
    clamped += differs;
  }
  if (!m->is_quadratic()) {
    EXPECT_GT(clamped, 0);
  }
  if (!m->allows_inversion()) {
    // Undefined (inverted) F: both all NaN, as from the separate calls, and "nothing clamped".
    Mat9 D, D_psd;
    EXPECT_FALSE(
        m->first_piola_derivative_pair(Vec3(1.0, 1.0, -1.0).asDiagonal(), kLame, D, D_psd));
    EXPECT_TRUE(D.array().isNaN().all() && D_psd.array().isNaN().all());
  }
}

TEST_P(MaterialTest, PsdProjectionKeepsRestTangentAndItsRigidZeros) {
  const Mat9 D = m->first_piola_derivative(Mat3::Identity(), kLame);
  const Mat9 projected = m->first_piola_derivative_psd(Mat3::Identity(), kLame);
  EXPECT_LT(relative_error(projected, D, kLame.mu), 1e-12);
  // Three infinitesimal rotations have zero stiffness and stay zero (not clamped to epsilon).
  const Vec9 values = Eigen::SelfAdjointEigenSolver<Mat9>(projected).eigenvalues();
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(values[i], 0.0, 1e-9 * kLame.mu);
  if (GetParam() != "arap") {  // ARAP has no volume term but all six strain modes are stiff
    for (int i = 3; i < 9; ++i) EXPECT_GT(values[i], 0.1 * kLame.mu);
  }
}

INSTANTIATE_TEST_SUITE_P(AllModels, MaterialTest, ::testing::ValuesIn(material_names()),
                         [](const auto& info) { return info.param; });

TEST(MaterialRegistry, UnknownNameListsTheModels) {
  try {
    make_material("neohookian");
    FAIL() << "expected an error";
  } catch (const std::exception& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("neohookian"), std::string::npos) << what;
    EXPECT_NE(what.find("stable_neohookean"), std::string::npos) << what;
    EXPECT_NE(what.find("did you mean 'neohookean'"), std::string::npos) << what;
  }
}

TEST(MaterialRegistry, KnowsEveryModelOfTheIssue) {
  for (const char* name : {"linear", "corotated", "stvk", "neohookean", "neohookean_isochoric",
                           "stable_neohookean", "arap"}) {
    EXPECT_NO_THROW(make_material(name)) << name;
  }
}

}  // namespace
}  // namespace simrun
