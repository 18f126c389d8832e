/// The anisotropic models (anisotropic_linear, anisotropic_corotated) and the Voigt helpers:
/// isotropic tensors reproduce `linear` and `corotated`, finite-difference checks with a random
/// anisotropic SPD tensor, frame invariance, tensor validation, and a layered material.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "material/anisotropic_corotated.hpp"
#include "material/anisotropic_linear.hpp"
#include "material/corotated.hpp"
#include "material/linear_elastic.hpp"
#include "material/principal_stretch.hpp"
#include "material/voigt.hpp"
#include "support/finite_difference.hpp"

namespace simrun {
namespace {

using testing::fd_gradient;
using testing::fd_jacobian;
using testing::relative_error;

const LameParameters kLame = lame_from_young_poisson(1e6, 0.3);
// Both models compute the isotropic case through different arithmetic (Voigt products vs
// closed forms) from the same signed SVD; agreement is round-off, ~1e-15 relative. 1e-11 leaves
// margin for the 1/(s_i + s_j) quotients (|s_i + s_j| >= 0.2 below) and still catches any formula
// slip (a wrong factor on a shear term is O(1)).
constexpr double kRoundOff = 1e-11;
// Central differences as in material_test.cpp: step 1e-5 on entries of order 1, truncation
// ~1e-8 relative for stretches in [0.2, 2], round-off ~1e-11; a formula error shows at >= 1e-3.
constexpr double kStep = 1e-5;
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

// The corotated tangent is singular where s_i + s_j = 0; FD and comparisons stay away from it.
double min_pair_sum(const Mat3& F) {
  const Vec3 s = signed_svd(F).sigma;
  return std::min({s[0] + s[1], s[0] + s[2], s[1] + s[2]});
}

struct Sample {
  std::string label;
  Mat3 F;
};

/// Rest, 4 small deformations (amplitude 0.05), 4 large ones (0.5), 4 inverted ones
/// (det F < -0.2, moderately: pair sums > 0.2), repeated singular values, a pure rotation.
std::vector<Sample> samples() {
  std::mt19937 rng(11);
  std::vector<Sample> out = {{"rest", Mat3::Identity()}};
  for (int n = 0; n < 4; ++n)
    out.push_back({"near " + std::to_string(n), random_deformation(rng, 0.05)});
  for (int n = 0; n < 4;) {
    const Mat3 F = random_deformation(rng, 0.5);
    if (F.determinant() > 0.2 && min_pair_sum(F) > 0.2)
      out.push_back({"far " + std::to_string(n++), F});
  }
  const Mat3 flip = Vec3(1.0, 1.0, -1.0).asDiagonal();
  for (int n = 0; n < 4;) {
    const Mat3 F = random_deformation(rng, 0.5) * flip;
    if (F.determinant() < -0.2 && min_pair_sum(F) > 0.2)
      out.push_back({"inverted " + std::to_string(n++), F});
  }
  const Mat3 R1 = random_rotation(rng), R2 = random_rotation(rng);
  out.push_back({"repeated", R1 * Vec3(1.2, 1.2, 0.9).asDiagonal() * R2});
  out.push_back({"inverted repeated", R1 * Vec3(1.1, 1.1, -0.6).asDiagonal() * R2});
  out.push_back({"rotation", R1});
  return out;
}

/// A random SPD tensor of size ~1e6 with no symmetry: M M^T / 6 + 0.2 I, M uniform in [-1, 1].
VoigtTensor random_anisotropic_tensor(unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  VoigtTensor M;
  for (int i = 0; i < 36; ++i) M.data()[i] = u(rng);
  return 1e6 * (M * M.transpose() / 6.0 + 0.2 * VoigtTensor::Identity());
}

/// Transversely isotropic about z from engineering constants (compliance, then C = S^-1): a
/// stack of z-layers, equal parts E = 1e6 and 3e6: in-plane E_p = 2e6 (parallel, Voigt mean),
/// across E_z = 1.5e6 (series, Reuss mean).
VoigtTensor layered_tensor() {
  const double Ep = 2e6, Ez = 1.5e6, nu_p = 0.3, nu_zp = 0.25, G_zp = 0.5e6;
  VoigtTensor S = VoigtTensor::Zero();
  S(0, 0) = S(1, 1) = 1.0 / Ep;
  S(2, 2) = 1.0 / Ez;
  S(0, 1) = S(1, 0) = -nu_p / Ep;
  S(0, 2) = S(2, 0) = S(1, 2) = S(2, 1) = -nu_zp / Ez;
  S(3, 3) = S(4, 4) = 1.0 / G_zp;
  S(5, 5) = 2.0 * (1.0 + nu_p) / Ep;
  return S.inverse();
}

// ---- Voigt helpers ----

TEST(Voigt, IsotropicTensorGivesTheLameEnergyAndStress) {
  const VoigtTensor C = isotropic_voigt(kLame.mu, kLame.lambda);
  std::mt19937 rng(3);
  for (int n = 0; n < 5; ++n) {
    const Mat3 A = random_deformation(rng, 0.3) - Mat3::Identity();
    const Mat3 eps = 0.5 * (A + A.transpose());
    const Vec6 e = engineering_strain(eps);
    const double expected =
        kLame.mu * eps.squaredNorm() + 0.5 * kLame.lambda * eps.trace() * eps.trace();
    EXPECT_NEAR(0.5 * e.dot(C * e), expected, 1e-12 * kLame.mu);
    const Mat3 sigma = 2.0 * kLame.mu * eps + kLame.lambda * eps.trace() * Mat3::Identity();
    EXPECT_LT(relative_error(stress_from_voigt(C * e), sigma, kLame.mu), 1e-14);
  }
}

TEST(Voigt, OrderAndEngineeringShear) {
  Mat3 eps;
  eps << 1, 6, 5,  //
      6, 2, 4,     //
      5, 4, 3;
  const Vec6 e = engineering_strain(eps);
  EXPECT_EQ(e, (Vec6() << 1, 2, 3, 8, 10, 12).finished());
  // Stresses carry no factor 2: s23 = s[3], s13 = s[4], s12 = s[5].
  const Mat3 sigma = stress_from_voigt((Vec6() << 1, 2, 3, 4, 5, 6).finished());
  EXPECT_EQ(sigma, eps);
}

TEST(Voigt, StrainOperatorMatchesEngineeringStrain) {
  const VoigtStrainOperator B = engineering_strain_operator();
  std::mt19937 rng(5);
  for (int n = 0; n < 3; ++n) {
    const Mat3 A = random_deformation(rng, 1.0);
    EXPECT_LT(relative_error(B * vec(A), engineering_strain(A)), 1e-15);
    const Vec6 s = B * vec(A);
    EXPECT_LT(relative_error(B.transpose() * s, vec(stress_from_voigt(s))), 1e-15);
  }
}

TEST(Voigt, CheckAcceptsSpdTensors) {
  EXPECT_NO_THROW(check_voigt_tensor(isotropic_voigt(kLame.mu, kLame.lambda), "/x"));
  EXPECT_NO_THROW(check_voigt_tensor(random_anisotropic_tensor(1), "/x"));
  EXPECT_NO_THROW(check_voigt_tensor(layered_tensor(), "/x"));
}

std::string check_message(const VoigtTensor& C, const std::string& where) {
  try {
    check_voigt_tensor(C, where);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Voigt, CheckRejectsNonSymmetricTensorNamingWhere) {
  VoigtTensor C = random_anisotropic_tensor(2);
  C(0, 4) += 1e-6 * C(0, 0);  // well above the 1e-10 relative tolerance
  const std::string what = check_message(C, "/objects/2/material/stiffness");
  EXPECT_NE(what.find("/objects/2/material/stiffness"), std::string::npos) << what;
  EXPECT_NE(what.find("not symmetric"), std::string::npos) << what;
  // Asymmetry at round-off level (1e-14 relative) is accepted.
  VoigtTensor nearly = random_anisotropic_tensor(2);
  nearly(0, 4) *= 1.0 + 1e-14;
  EXPECT_NO_THROW(check_voigt_tensor(nearly, "/x"));
}

TEST(Voigt, CheckRejectsIndefiniteTensorGivingTheEigenvalue) {
  // lambda < -2/3 mu: the bulk modulus lambda + 2/3 mu is negative, eigenvalue 3 lambda + 2 mu.
  const VoigtTensor C = isotropic_voigt(1e6, -1e6);
  const std::string what = check_message(C, "/objects/0/material");
  EXPECT_NE(what.find("/objects/0/material"), std::string::npos) << what;
  EXPECT_NE(what.find("not positive definite"), std::string::npos) << what;
  EXPECT_NE(what.find("-1e+06"), std::string::npos) << what;
  // Singular (a zero-stiffness shear) is rejected too.
  VoigtTensor singular = isotropic_voigt(1e6, 1e6);
  singular(4, 4) = 0.0;
  EXPECT_NE(check_message(singular, "/w").find("smallest eigenvalue 0"), std::string::npos);
  VoigtTensor nan = isotropic_voigt(1e6, 1e6);
  nan(1, 1) = std::nan("");
  EXPECT_NE(check_message(nan, "/w").find("non-finite"), std::string::npos);
}

// ---- Isotropic tensors reproduce the isotropic models ----

TEST(AnisotropicLinear, IsotropicTensorIsLinearElastic) {
  const VoigtTensor C = isotropic_voigt(kLame.mu, kLame.lambda);
  const MaterialParameters p{kLame.mu, kLame.lambda, &C};
  const AnisotropicLinear anisotropic;
  const LinearElastic linear;
  for (const auto& [label, F] : samples()) {
    EXPECT_NEAR(anisotropic.energy_density(F, p), linear.energy_density(F, kLame),
                kRoundOff * kLame.mu)
        << label;
    EXPECT_LT(relative_error(anisotropic.first_piola(F, p), linear.first_piola(F, kLame), kLame.mu),
              kRoundOff)
        << label;
    EXPECT_LT(relative_error(anisotropic.first_piola_derivative(F, p),
                             linear.first_piola_derivative(F, kLame), kLame.mu),
              kRoundOff)
        << label;
  }
}

TEST(AnisotropicCorotated, IsotropicTensorIsCorotated) {
  const VoigtTensor C = isotropic_voigt(kLame.mu, kLame.lambda);
  const MaterialParameters p{kLame.mu, kLame.lambda, &C};
  const AnisotropicCorotated anisotropic;
  const CorotatedLinear corotated;
  for (const auto& [label, F] : samples()) {
    EXPECT_NEAR(anisotropic.energy_density(F, p), corotated.energy_density(F, kLame),
                kRoundOff * kLame.mu)
        << label;
    EXPECT_LT(
        relative_error(anisotropic.first_piola(F, p), corotated.first_piola(F, kLame), kLame.mu),
        kRoundOff)
        << label;
    EXPECT_LT(relative_error(anisotropic.first_piola_derivative(F, p),
                             corotated.first_piola_derivative(F, kLame), kLame.mu),
              kRoundOff)
        << label;
  }
}

// ---- Finite differences with a general anisotropic tensor ----

class AnisotropicModelTest : public ::testing::TestWithParam<std::string> {
 protected:
  std::unique_ptr<Material> m = make_material(GetParam());
  VoigtTensor C = random_anisotropic_tensor(17);
  MaterialParameters p{0.0, 0.0, &C};
  double scale = C.cwiseAbs().maxCoeff();
};

TEST_P(AnisotropicModelTest, NeedsATensorAndRefusesToRunWithout) {
  EXPECT_TRUE(m->needs_stiffness_tensor());
  EXPECT_TRUE(m->allows_inversion());
  EXPECT_THROW(m->energy_density(Mat3::Identity(), kLame), std::invalid_argument);
}

TEST_P(AnisotropicModelTest, StressIsEnergyGradient) {
  for (const auto& [label, F] : samples()) {
    auto psi = [&](const VecX& f) { return m->energy_density(unvec(f), p); };
    const VecX fd = fd_gradient(psi, vec(F), kStep);
    EXPECT_LT(relative_error(vec(m->first_piola(F, p)), fd, scale), kFdTolerance) << label;
  }
}

TEST_P(AnisotropicModelTest, TangentIsStressJacobianWithMajorSymmetry) {
  for (const auto& [label, F] : samples()) {
    auto stress = [&](const VecX& f) { return VecX(vec(m->first_piola(unvec(f), p))); };
    const MatX fd = fd_jacobian(stress, vec(F), kStep);
    const Mat9 D = m->first_piola_derivative(F, p);
    EXPECT_LT(relative_error(D, fd, scale), kFdTolerance) << label;
    // Major symmetry dP_ij/dF_kl = dP_kl/dF_ij (a Hessian), exact by construction.
    EXPECT_EQ(D, D.transpose()) << label;
  }
}

TEST_P(AnisotropicModelTest, RestIsStressFreeAndLinearizesToTheTensor) {
  EXPECT_NEAR(m->energy_density(Mat3::Identity(), p), 0.0, 1e-12 * scale);
  EXPECT_LT(m->first_piola(Mat3::Identity(), p).cwiseAbs().maxCoeff(), 1e-12 * scale);
  // Small-strain limit of both: B^T C B.
  const VoigtStrainOperator B = engineering_strain_operator();
  const Mat9 expected = B.transpose() * C * B;
  EXPECT_LT(relative_error(m->first_piola_derivative(Mat3::Identity(), p), expected), 1e-12);
}

TEST_P(AnisotropicModelTest, PsdProjectionIsPsd) {
  for (const auto& [label, F] : samples()) {
    const Mat9 projected = m->first_piola_derivative_psd(F, p);
    const double min_value = Eigen::SelfAdjointEigenSolver<Mat9>(projected).eigenvalues()[0];
    EXPECT_GE(min_value, -1e-9 * scale) << label;  // reconstruction round-off ~1e-15 scale
  }
}

INSTANTIATE_TEST_SUITE_P(Anisotropic, AnisotropicModelTest,
                         ::testing::Values("anisotropic_linear", "anisotropic_corotated"),
                         [](const auto& info) { return info.param; });

TEST(AnisotropicCorotated, IsRotationInvariantAndTurnsTheStress) {
  const VoigtTensor C = random_anisotropic_tensor(23);
  const MaterialParameters p{0.0, 0.0, &C};
  const AnisotropicCorotated m;
  std::mt19937 rng(29);
  for (const auto& [label, F] : samples()) {
    const Mat3 Q = random_rotation(rng);
    const double psi = m.energy_density(F, p);
    // psi sums terms of size ~|C| |e|^2 <~ 1e6; round-off ~1e-15 of that.
    EXPECT_NEAR(m.energy_density(Q * F, p), psi, 1e-10 * C.cwiseAbs().maxCoeff()) << label;
    EXPECT_LT(relative_error(m.first_piola(Q * F, p), Q * m.first_piola(F, p), 1e6), 1e-10)
        << label;
  }
  // A pure rotation is stress free; the linear model is not frame invariant and stresses it.
  const Mat3 R = random_rotation(rng);
  EXPECT_LT(m.first_piola(R, p).cwiseAbs().maxCoeff(), 1e-9 * C.cwiseAbs().maxCoeff());
  EXPECT_GT(AnisotropicLinear().energy_density(R, p), 1e-3 * C.cwiseAbs().maxCoeff());
}

// ---- A layered material is stiffer in-plane than across the layers ----

TEST(AnisotropicMaterial, LayeredTensorIsStifferAlongTheLayersThanAcross) {
  const VoigtTensor C = layered_tensor();
  const MaterialParameters p{0.0, 0.0, &C};
  const double delta = 1e-3;  // uniaxial strain
  const Mat3 Fx = Mat3::Identity() + delta * Vec3::UnitX() * Vec3::UnitX().transpose();
  const Mat3 Fz = Mat3::Identity() + delta * Vec3::UnitZ() * Vec3::UnitZ().transpose();
  const AnisotropicLinear linear;
  const double sxx = linear.first_piola(Fx, p)(0, 0);
  const double szz = linear.first_piola(Fz, p)(2, 2);
  // Uniaxial strain stress is C11 delta resp. C33 delta: the constrained moduli differ.
  EXPECT_NEAR(sxx, C(0, 0) * delta, 1e-12 * C(0, 0));
  EXPECT_NEAR(szz, C(2, 2) * delta, 1e-12 * C(0, 0));
  EXPECT_GT(sxx, 1.2 * szz);  // E_p / E_z = 4/3 drives C11 / C33 above 1.2 here
  RecordProperty("C11_over_C33", std::to_string(C(0, 0) / C(2, 2)));
  // The isotropic tensor gives the same stress along both axes.
  const VoigtTensor iso = isotropic_voigt(kLame.mu, kLame.lambda);
  const MaterialParameters q{0.0, 0.0, &iso};
  EXPECT_NEAR(linear.first_piola(Fx, q)(0, 0), linear.first_piola(Fz, q)(2, 2), 1e-12 * kLame.mu);
  // The corotated model carries the layers with the element: a z-stretch rotated by Q has the
  // z-stretch's energy, not the x-stretch's.
  const AnisotropicCorotated corotated;
  const Mat3 Q = Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  const double psi_z = corotated.energy_density(Fz, p);
  EXPECT_NEAR(corotated.energy_density(Q * Fz, p), psi_z, 1e-9 * psi_z);
  EXPECT_GT(corotated.energy_density(Fx, p), 1.2 * psi_z);
}

}  // namespace
}  // namespace simrun
