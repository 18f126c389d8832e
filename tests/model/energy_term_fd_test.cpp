// One finite-difference test for every energy term (tests/model/term_cases.hpp): gradient and
// Hessian against central differences at rest and at random states, symmetry, the projected
// Hessian's definiteness, the rounding-magnitude bound and the protocol's defaults.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <random>

#include "support/finite_difference.hpp"
#include "term_cases.hpp"

namespace simrun {
namespace {

using testing::TermCase;

class EnergyTermFd : public ::testing::TestWithParam<TermCase> {};

/// Free positions of a state: "rest", a small random perturbation, or a large deformation
/// (rotation, stretch and shear plus noise) that stays uninverted for the inversion-free models.
VecX state_named(const Model& model, const std::string& kind, unsigned seed) {
  const VecX rest = model.restrict_vector(model.rest_positions());
  if (kind == "rest") return rest;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  VecX x = model.rest_positions();
  if (kind == "large") {
    Mat3 A;
    A << 1.3, 0.2, -0.1, 0.1, 0.8, 0.15, -0.05, 0.1, 1.1;
    const Mat3 R = Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()).toRotationMatrix();
    for (Eigen::Index v = 0; v < x.size() / 3; ++v)
      x.segment<3>(3 * v) = R * A * x.segment<3>(3 * v);
  }
  const double noise = kind == "large" ? 0.02 : 0.05;
  for (Eigen::Index i = 0; i < x.size(); ++i) x[i] += noise * u(rng);
  return model.restrict_vector(x);
}

TEST_P(EnergyTermFd, GradientHessianAndProtocolDefaults) {
  const TermCase& c = GetParam();
  std::unique_ptr<Model> model_ptr = c.make();
  Model& model = *model_ptr;
  for (const std::string kind : {"rest", "small", "large"}) {
    const VecX q = state_named(model, kind, 17);
    const double U = model.potential_energy(q);
    ASSERT_TRUE(std::isfinite(U)) << kind;
    VecX g;
    model.potential_gradient(q, g);
    // Central differences with h = 1e-6 m on a 1 m body: truncation ~ h^2 |U'''| stays below
    // 1e-6 of the force scale; rounding is ~ eps energy_magnitude / h (the energy's own rounding
    // error over the step), which dominates where the forces vanish (at rest).
    const double h = 1e-6;
    const double rounding = 10.0 * 2.2e-16 * model.energy_magnitude(q) / h;
    const double scale = std::max(1.0, g.cwiseAbs().maxCoeff());
    const VecX fd =
        testing::fd_gradient([&](const VecX& x) { return model.potential_energy(x); }, q, h);
    EXPECT_LT((g - fd).cwiseAbs().maxCoeff(), 1e-6 * scale + rounding) << c.name << " at " << kind;

    SpMat K;
    model.stiffness(q, K, /*project_psd=*/false);
    const MatX Kd = MatX(K);
    const MatX fdK = testing::fd_jacobian(
        [&](const VecX& x) {
          VecX gx;
          model.potential_gradient(x, gx);
          return gx;
        },
        q, h);
    const double kscale = std::max(1.0, fdK.cwiseAbs().maxCoeff());
    EXPECT_LT((Kd - fdK).cwiseAbs().maxCoeff(), 1e-6 * kscale) << c.name << " at " << kind;
    EXPECT_LT((Kd - Kd.transpose()).cwiseAbs().maxCoeff(), 1e-10 * kscale) << c.name;

    // The projected Hessian is positive semidefinite (to round-off of its entries).
    SpMat P;
    model.stiffness(q, P, /*project_psd=*/true);
    const Eigen::SelfAdjointEigenSolver<MatX> eig(MatX(P).selfadjointView<Eigen::Lower>());
    EXPECT_GE(eig.eigenvalues().minCoeff(), -1e-9 * kscale) << c.name << " at " << kind;

    // Rounding-error scale: at least |U|. The protocol's defaults change nothing.
    EXPECT_GE(model.energy_magnitude(q), std::abs(U)) << c.name;
    const VecX dq = VecX::Constant(q.size(), 0.01);
    EXPECT_EQ(model.max_feasible_step(q, dq), 1.0) << c.name;
    EXPECT_TRUE(model.is_valid(q)) << c.name;
    const long version = model.pattern_version();
    model.begin_step(q);
    model.begin_line_search(q);
    model.end_line_search(q);
    model.on_iterate(q);
    EXPECT_FALSE(model.refresh_pattern()) << c.name;
    EXPECT_EQ(model.pattern_version(), version);
    EXPECT_EQ(model.potential_energy(q), U) << c.name;
  }
}

INSTANTIATE_TEST_SUITE_P(EveryTerm, EnergyTermFd, ::testing::ValuesIn(testing::term_cases()),
                         [](const ::testing::TestParamInfo<TermCase>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace simrun
