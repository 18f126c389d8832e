// Energy behaviour the literature predicts (Ascher et al. survey, Secs. 3.1-3.2; Chen thesis
// Sec. 6.2; Kharevych thesis Ch. 1, Sec. 3.2.12): IM conserves the energy of a linear system,
// symplectic Euler and Verlet keep it bounded without drift, BE and SI dissipate it monotonically.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "integrate/oscillator.hpp"
#include "integrate/sdirk2.hpp"

namespace simrun {
namespace {

/// Total energy after each of `steps` steps from a state exciting every mode.
std::vector<double> energy_history(const char* name, double h_omega_max, int steps,
                                   double* e0 = nullptr) {
  const testing::Cantilever osc;
  IntegratorSettings settings;
  settings.newton.tolerance = 1e-10;
  auto integrator = make_integrator(name, settings);
  const VecX c = VecX::LinSpaced(osc.omega.size(), 1e-3, -1e-3);
  const VecX d = VecX::LinSpaced(osc.omega.size(), 0.1, 0.3);
  State s = osc.modal_state(c, d, 0.0);
  if (e0) *e0 = osc.total_energy(s);
  const double h = h_omega_max / osc.omega.maxCoeff();
  std::vector<double> energies;
  for (int i = 0; i < steps; ++i) {
    StepStats stats;
    EXPECT_EQ(integrator->step(osc.model(), s, h, stats), Status::kSuccess);
    energies.push_back(osc.total_energy(s));
  }
  return energies;
}

/// Max relative energy change over 3000 steps at h w_max = 2: large steps, where a dissipative
/// method would lose most of the energy.
double max_energy_change_of_linear_body(const char* name) {
  double e0;
  const auto e = energy_history(name, 2.0, 3000, &e0);
  double worst = 0.0;
  for (double x : e) worst = std::max(worst, std::abs(x - e0) / e0);
  std::printf("%s: max relative energy change over 3000 steps %.3e\n", name, worst);
  return worst;
}

// For linear forces IM conserves the quadratic energy exactly; what remains is the Newton
// tolerance (1e-10 m/s on velocities ~0.3 m/s) and round-off accumulated over 3000 steps.
TEST(EnergyBehaviour, ImplicitMidpointConservesEnergyOfLinearBody) {
  EXPECT_LT(max_energy_change_of_linear_body("im"), 1e-8);
}

// Kharevych thesis Secs. 3.2.12 and 3.4.2: for quadratic W the variational
// midpoint conserves 1/2 p^T M^-1 p + W(q) exactly (its prefactored linear path: round-off only).
TEST(EnergyBehaviour, VariationalMidpointConservesEnergyOfLinearBody) {
  EXPECT_LT(max_energy_change_of_linear_body("variational_midpoint"), 1e-8);
}

/// Max |E - E0| / E0 over [begin, end) of the history.
double max_deviation(const std::vector<double>& e, double e0, size_t begin, size_t end) {
  double worst = 0.0;
  for (size_t i = begin; i < end; ++i) worst = std::max(worst, std::abs(e[i] - e0) / e0);
  return worst;
}

void expect_bounded_without_drift(const char* name) {
  double e0;
  // h w_max = 1, inside the explicit stability limit 2.
  const auto e = energy_history(name, 1.0, 3000, &e0);
  const size_t third = e.size() / 3;
  const double first = max_deviation(e, e0, 0, third);
  const double last = max_deviation(e, e0, 2 * third, e.size());
  std::printf("%s: max relative energy deviation first third %.3e, last third %.3e\n", name, first,
              last);
  // Symplectic: the energy error oscillates with an O(h w) amplitude (about 1 for symplectic
  // Euler at h w_max = 1, whose energy mixes kinetic and potential energy of staggered times;
  // 0.16 for Verlet) and does not grow. A drift of even 1e-4 per step would give a last-third
  // deviation well above 1.2x the first.
  EXPECT_LT(first, 1.5) << name;
  EXPECT_LT(last, 1.2 * first) << name;
  EXPECT_GT(last, 0.5 * first) << name;  // and it does not die out (no dissipation)
}

TEST(EnergyBehaviour, SymplecticEulerIsBoundedWithoutDrift) {
  expect_bounded_without_drift("symplectic_euler");
}
TEST(EnergyBehaviour, VerletIsBoundedWithoutDrift) { expect_bounded_without_drift("verlet"); }

void expect_monotone_loss(const char* name) {
  double e0;
  const auto e = energy_history(name, 1.0, 2000, &e0);
  double previous = e0;
  for (size_t i = 0; i < e.size(); ++i) {
    // 1e-12 relative: round-off in the energy sum, not a physical increase.
    ASSERT_LE(e[i], previous * (1 + 1e-12)) << name << " step " << i;
    previous = e[i];
  }
  std::printf("%s: energy after 2000 steps %.3e of the initial\n", name, e.back() / e0);
  // BE damping d/w = ln(1 + (h w)^2)/(h w) (Chen thesis Fig. 6.1) removes most of the energy.
  EXPECT_LT(e.back(), 0.5 * e0) << name;
}

TEST(EnergyBehaviour, BackwardEulerLosesEnergyMonotonically) { expect_monotone_loss("be"); }
TEST(EnergyBehaviour, SemiImplicitEulerLosesEnergyMonotonically) { expect_monotone_loss("si"); }

// The linear-elastic midpoint (Kharevych Sec. 3.4.2): M + h^2/4 K factorized once, one
// back-solve per step, and the same states as the Newton-based implicit midpoint (the two are
// the same rule on (q, p = M v): Kharevych Sec. 3.2.5's midpoint example).
TEST(VariationalMidpoint, PrefactoredOnLinearBodyAndEqualToImplicitMidpoint) {
  const testing::Cantilever osc;
  IntegratorSettings settings;
  settings.newton.tolerance = 1e-12;
  auto variational = make_integrator("variational_midpoint", settings);
  auto im = make_integrator("im", settings);
  const VecX c = VecX::LinSpaced(osc.omega.size(), 1e-3, -1e-3);
  const VecX d = VecX::LinSpaced(osc.omega.size(), 0.1, 0.3);
  State s = osc.modal_state(c, d, 0.0), r = s;
  const double h = 1.0 / osc.omega.maxCoeff();
  for (int i = 0; i < 50; ++i) {
    StepStats stats, im_stats;
    ASSERT_EQ(variational->step(osc.model(), s, h, stats), Status::kSuccess);
    ASSERT_EQ(im->step(osc.model(), r, h, im_stats), Status::kSuccess);
    EXPECT_EQ(stats.factorizations, i == 0 ? 1 : 0) << "step " << i;
    EXPECT_EQ(stats.solves, 1) << "step " << i;
    EXPECT_EQ(stats.newton_iters, 0) << "step " << i;
  }
  // IM's Newton stops at 1e-12 m/s on velocities ~0.3 m/s; 50 steps of round-off on top.
  EXPECT_LT((s.q - r.q).norm(), 1e-9 * r.q.norm());
  EXPECT_LT((s.v - r.v).norm(), 1e-9 * r.v.norm());
}

TEST(Sdirk2, OneFactorizationPerStepOnLinearBody) {
  // Survey Sec. 3.1: both stages share the matrix M + tau D + tau^2 K.
  const testing::Cantilever osc;
  Sdirk2 sdirk(IntegratorSettings{});
  const VecX c = VecX::Constant(osc.omega.size(), 1e-4), d = VecX::Zero(osc.omega.size());
  State s = osc.modal_state(c, d, 0.0);
  for (int i = 0; i < 5; ++i) {
    StepStats stats;
    ASSERT_EQ(sdirk.step(osc.model(), s, 1e-3, stats), Status::kSuccess);
    // The stage matrix once per step; M^-1 for F(u_n) needs no factorization (lumped mass).
    ASSERT_TRUE(osc.model().mass_is_lumped());
    EXPECT_EQ(stats.factorizations, 1) << "step " << i;
    EXPECT_EQ(stats.newton_iters, 2) << "step " << i;  // one exact Newton step per stage
  }
}

}  // namespace
}  // namespace simrun
