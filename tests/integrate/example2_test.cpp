// Ascher et al. survey, Sec. 3.1, Example 2: u' = -1000 u, u(0) = 1, h = 0.1 (z = h lambda = -100).
// The first-order decay is realized by the real integrators on q'' + 1001 q' + 1000 q = 0
// (lumped mass m, spring k = 1000 m, Rayleigh mass damping 1001 / s), whose first-order form has
// eigenvalues -1 and -1000. Starting on the lambda = -1000 eigenvector (v = -1000 q), every
// linear one-step/multistep method keeps u = (q, v) on it and multiplies it by its stability
// function, so q_1/q_0 is exactly what the survey computes for the scalar ODE.
#include <gtest/gtest.h>

#include <cmath>

#include "integrate/bdf2.hpp"
#include "integrate/sdirk2.hpp"
#include "integrate/tr_bdf2.hpp"
#include "model/model.hpp"

namespace simrun {
namespace {

/// Test-only isotropic spring k/2 |x_3 - X_3|^2 on vertex 3.
class AnchorSpring final : public EnergyTerm {
 public:
  AnchorSpring(double k, const Vec3& anchor) : m_k(k), m_anchor(anchor) {}
  std::string name() const override { return "spring"; }
  double energy(const VecX& x) const override {
    return 0.5 * m_k * (x.segment<3>(9) - m_anchor).squaredNorm();
  }
  void add_gradient(const VecX& x, VecX& g) const override {
    g.segment<3>(9) += m_k * (x.segment<3>(9) - m_anchor);
  }
  void bind(const SpMat& pattern, const DofMap&) override {
    // Free DOFs are vertex 3's x, y, z (0..2); find the diagonal entries' value slots.
    for (int d = 0; d < 3; ++d)
      for (SpMat::InnerIterator it(pattern, d); it; ++it)
        if (it.row() == d) m_slot[d] = static_cast<int>(&it.value() - pattern.valuePtr());
  }
  void add_hessian(const VecX&, double* values, bool) const override {
    for (int d = 0; d < 3; ++d) values[m_slot[d]] += m_k;
  }
  bool is_quadratic() const override { return true; }

 private:
  double m_k;
  Vec3 m_anchor;
  int m_slot[3] = {0, 0, 0};
};

struct StiffDecay {
  std::unique_ptr<Model> model;
  VecX rest;
  StiffDecay() {
    MatX3 vertices(4, 3);
    vertices << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1;
    TetMesh mesh;
    Eigen::MatrixX4i tets(1, 4);
    tets << 0, 1, 2, 3;
    const TetElements elements = precompute_tet_elements(vertices, tets);
    const double rho = 24.0;  // m = rho V / 4 = 24 / 6 / 4 = 1 kg per DOF
    std::vector<std::unique_ptr<EnergyTerm>> terms;
    terms.push_back(std::make_unique<AnchorSpring>(1000.0, Vec3(0, 0, 1)));
    model = std::make_unique<Model>(vertices, elements, VecX::Constant(1, rho), true,
                                    DofMap(4, {0, 1, 2}), std::move(terms),
                                    RayleighDamping{1001.0, 0.0, true});
    rest = Vec3(0, 0, 1);
  }
  /// On the fast eigenvector: displacement u0 along x, velocity -1000 u0.
  State initial(double u0) const {
    return State{rest + Vec3(u0, 0, 0), Vec3(-1000 * u0, 0, 0), 0.0};
  }
};

constexpr double kH = 0.1, kZ = -100.0;

IntegratorSettings tight() {
  IntegratorSettings s;
  s.newton.tolerance = 1e-12;
  return s;
}

TEST(SurveyExample2, Bdf2StepIsPositive) {
  // The survey's setting: one BDF2 step with the starting value u_{-1} = u_0.
  const StiffDecay sys;
  ASSERT_NEAR(sys.model->lumped_mass()[0], 1.0, 1e-14);
  Bdf2 bdf2(tight());
  State s = sys.initial(1.0);
  bdf2.set_history(s, kH);
  StepStats stats;
  ASSERT_EQ(bdf2.step(*sys.model, s, kH, stats), Status::kSuccess);
  const double u = s.q[0] - sys.rest[0];
  std::printf("bdf2 u_1 = %.4f (u_-1 = u_0)\n", u);
  // Survey Example 2: u_1 > 0, close to 0; here 1/(1 - 2z/3) = 0.0148.
  EXPECT_NEAR(u, 1.0 / (1.0 - 2.0 * kZ / 3.0), 1e-9);
  EXPECT_GT(u, 0.0);
  EXPECT_NEAR(s.v[0], -1000.0 * u, 1e-9);  // stays on the fast eigenvector
}

TEST(SurveyExample2, Bdf2WithBackwardEulerStartUpDecays) {
  // The integrator's own start-up (one BE step, u_1 = 1/(1 - z) = 1/101). BDF2's parasitic
  // root then makes the sign alternate at a tiny amplitude (u_2 = -0.0047), but every step
  // shrinks |u| by a factor > 10, as L-stability promises.
  const StiffDecay sys;
  Bdf2 bdf2(tight());
  State s = sys.initial(1.0);
  double previous = 1.0;
  for (int n = 1; n <= 10; ++n) {
    StepStats stats;
    ASSERT_EQ(bdf2.step(*sys.model, s, kH, stats), Status::kSuccess);
    const double u = s.q[0] - sys.rest[0];
    if (n == 1) {
      EXPECT_NEAR(u, 1.0 / 101.0, 1e-9);
    }
    EXPECT_LT(std::abs(u), 0.5 * std::abs(previous)) << "step " << n;
    previous = u;
  }
  EXPECT_LT(std::abs(previous), 1e-11);
}

TEST(SurveyExample2, TrapezoidalStageOfTrBdf2GoesNearMinusOne) {
  const StiffDecay sys;
  TrBdf2 trbdf2(tight());
  State s = sys.initial(1.0);
  StepStats stats;
  ASSERT_EQ(trbdf2.step(*sys.model, s, kH, stats), Status::kSuccess);
  const double stage = trbdf2.stage_value().q[0] - sys.rest[0];
  std::printf("tr_bdf2 u_1/2 = %.4f, u_1 = %.4f\n", stage, s.q[0] - sys.rest[0]);
  // Survey Example 2, u ~ -1: u_{1/2} = (1 + z/4)/(1 - z/4) = -24/26 = -0.923.
  EXPECT_NEAR(stage, (1 + kZ / 4) / (1 - kZ / 4), 1e-9);
  EXPECT_LT(stage, -0.9);
}

TEST(SurveyExample2, SdirkStageGoesNearMinusOne) {
  const StiffDecay sys;
  Sdirk2 sdirk(tight());
  State s = sys.initial(1.0);
  StepStats stats;
  ASSERT_EQ(sdirk.step(*sys.model, s, kH, stats), Status::kSuccess);
  const double gamma = 2 - std::sqrt(2.0);
  const double stage = sdirk.stage_value().q[0] - sys.rest[0];
  std::printf("sdirk2 u_gamma = %.4f\n", stage);
  // Survey Example 2, u_gamma ~ -1: u_gamma = (1 + g z/2)/(1 - g z/2) = -0.934.
  EXPECT_NEAR(stage, (1 + gamma * kZ / 2) / (1 - gamma * kZ / 2), 1e-9);
  EXPECT_LT(stage, -0.9);
}

}  // namespace
}  // namespace simrun
