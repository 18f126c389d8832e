// Rest-state modes against an independent FEM code (CalculiX / numpy, copied from the shared
// reference into tests/data/reference) and against Euler-Bernoulli beam theory.
#include "sim/modes.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <numbers>
#include <sstream>

#include "scene/factory.hpp"
#include "scene_builders.hpp"
#include "support/test_paths.hpp"

namespace simrun {
namespace {

std::vector<double> reference_eigenvalues(const std::string& name) {
  std::ifstream in(std::string(SIMRUN_TEST_DATA) + "/reference/" + name);
  EXPECT_TRUE(in.good()) << name;
  std::string line;
  std::getline(in, line);  // header mode,eigenvalue,frequency_hz
  std::vector<double> values;
  while (std::getline(in, line)) {
    std::stringstream row(line);
    std::string mode, value;
    std::getline(row, mode, ',');
    std::getline(row, value, ',');
    values.push_back(std::stod(value));
  }
  return values;
}

/// The reference bar: [0,0.5]x[0,0.1]x[0,0.1], 10x2x2 cells x 5 tets, E 1e6, nu 0.3, rho 1200.
VecX bar_modes(bool fixed, bool lumped, int count) {
  const SceneConfig scene = testing::box_scene(Vec3(0.5, 0.1, 0.1), Eigen::Vector3i(10, 2, 2), 5,
                                               1e6, 0.3, 1200.0, fixed, lumped);
  const BuiltModel built = build_model(scene);
  const GeneralizedEigenResult result = rest_modes(*built.model, count);
  EXPECT_EQ(result.status, Status::kSuccess);
  return result.values;
}

// The meshes are identical (same vertices and tets), so only solver round-off separates the
// codes; the reference itself agrees with a numpy code to ~1e-11. 1e-7 leaves room for the
// shift-invert Lanczos tolerance.
constexpr double kReferenceTolerance = 1e-7;

TEST(Modes, CantileverConsistentMassMatchesCalculix) {
  const auto reference = reference_eigenvalues("cantilever_consistent.csv");
  const VecX values = bar_modes(true, false, 10);
  ASSERT_EQ(values.size(), 10);
  for (int i = 0; i < 10; ++i) {
    EXPECT_NEAR(values[i], reference[i], kReferenceTolerance * reference[i]) << "mode " << i + 1;
  }
}

TEST(Modes, CantileverLumpedMassMatchesNumpy) {
  const auto reference = reference_eigenvalues("cantilever_lumped_numpy.csv");
  const VecX values = bar_modes(true, true, 10);
  for (int i = 0; i < 10; ++i) {
    EXPECT_NEAR(values[i], reference[i], kReferenceTolerance * reference[i]) << "mode " << i + 1;
  }
}

TEST(Modes, FreeBodyHasSixZeroModesThenTheElasticOnes) {
  const auto reference = reference_eigenvalues("free_consistent.csv");
  const VecX values = bar_modes(false, false, 12);
  const double first_elastic = reference[6];
  // Rigid modes are zero up to round-off relative to the stiffest scale (~1e9 here).
  for (int i = 0; i < 6; ++i)
    EXPECT_LT(std::abs(values[i]), 1e-6 * first_elastic) << "mode " << i + 1;
  for (int i = 6; i < 12; ++i) {
    EXPECT_NEAR(values[i], reference[i], kReferenceTolerance * reference[i]) << "mode " << i + 1;
  }
}

// Euler-Bernoulli cantilever: f1 = (beta1 L)^2 / (2 pi L^2) sqrt(E I / (rho A)), beta1 L = 1.8751.
double euler_bernoulli_f1(double L, double side, double E, double rho) {
  const double beta_l = 1.87510406871196;
  const double I = std::pow(side, 4) / 12.0, A = side * side;
  return beta_l * beta_l / (2 * std::numbers::pi * L * L) * std::sqrt(E * I / (rho * A));
}

TEST(Modes, CantileverFirstBendingFrequencyConvergesTowardEulerBernoulli) {
  const double L = 1.0, side = 0.05, E = 1e6, rho = 1000;
  const double f_eb = euler_bernoulli_f1(L, side, E, rho);
  std::vector<double> errors;
  for (int refine : {1, 2, 4, 8}) {
    const SceneConfig scene =
        testing::box_scene(Vec3(L, side, side), Eigen::Vector3i(10 * refine, refine, refine), 6, E,
                           0.0, rho, true, false);
    const BuiltModel built = build_model(scene);
    const GeneralizedEigenResult result = rest_modes(*built.model, 1);
    ASSERT_EQ(result.status, Status::kSuccess);
    const double f1 = std::sqrt(result.values[0]) / (2 * std::numbers::pi);
    errors.push_back(std::abs(f1 - f_eb) / f_eb);
    // Galerkin eigenvalues are upper bounds: P1 tets are too stiff (Chen thesis Sec. 2.2.2).
    EXPECT_GT(f1, f_eb * (1 - 0.01)) << "refine " << refine;
  }
  // Monotone convergence with the error shrinking at least 2.5x per halving (P1 locking in bending
  // makes the coarse meshes far off; the asymptotic ratio is 4, measured 2.8-3.3 here), and the
  // finest mesh (slenderness 20, nu = 0 so no Poisson stiffening) within 10% of beam theory.
  for (size_t i = 1; i < errors.size(); ++i) {
    EXPECT_GT(errors[i - 1] / errors[i], 2.5) << "refinement step " << i;
  }
  EXPECT_LT(errors.back(), 0.10) << "finest error " << errors.back();
}

}  // namespace
}  // namespace simrun
