// Kharevych time adaptivity (thesis Secs. 3.3-3.4; the integrator in
// integrate/adaptive_variational.hpp): sigma == 1 is the fixed-step integrator; on Skeel's
// spring the naive scheme's energy error grows and the symplectic one's does not; lambda follows
// the recursion's convention; the reversible scheme steps back to its start.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "integrate/adaptive_systems.hpp"
#include "integrate/adaptive_variational.hpp"

namespace simrun {
namespace {

AdaptiveSettings settings_for(const std::string& rule, const std::string& scheme,
                              const std::string& sigma_at = "start") {
  AdaptiveSettings s;
  s.rule = rule;
  s.scheme = scheme;
  s.sigma_at = sigma_at;
  return s;
}

double total_energy(const Model& model, const State& s) {
  return model.kinetic_energy(s.v) + model.potential_energy(s.q);
}

/// Relative difference of two states' positions and velocities.
double state_difference(const State& a, const State& b) {
  return std::max((a.q - b.q).norm() / b.q.norm(), (a.v - b.v).norm() / b.v.norm());
}

TEST(AdaptiveScheme, SigmaOneIsTheFixedStepIntegrator) {
  // sigma = c = 1 gives the fixed step (Eq. 3.22). The adaptive code computes the same update
  // in another order (M^-1 (p - h/2 g) instead of v - h/2 M^-1 g, Newton on (q, dt, lambda)
  // instead of the Lilyan), so "exactly" is to round-off for the explicit ones and to the
  // Newton tolerances (1e-12 here, 1e-13 for the Lilyan) for the implicit ones. Compared one
  // step at a time from the same states along a 1000-step trajectory of the nonlinear chain
  // (over a whole run its chaos amplifies round-off to ~1e-10): 1e-13 relative for the explicit
  // steps, 1e-10 for the implicit ones; a wrong factor or sign gives O(h) = 1e-3 or more.
  struct Case {
    const char* type;
    const char* scheme;
    double tolerance;
  };
  for (const Case& c :
       {Case{"verlet", "naive", 1e-13}, Case{"symplectic_euler", "naive", 1e-13},
        Case{"verlet", "symplectic", 1e-10}, Case{"variational_midpoint", "symplectic", 1e-10},
        Case{"variational_midpoint", "reversible", 1e-10}}) {
    test::AdaptiveChain chain = test::three_masses();
    IntegratorSettings fixed_settings;
    fixed_settings.newton.tolerance = 1e-13;
    auto fixed = make_integrator(c.type, fixed_settings);
    AdaptiveSettings s = settings_for("constant", c.scheme,
                                      std::string(c.scheme) == "reversible" ? "midpoint" : "start");
    AdaptiveVariational adaptive(c.type, IntegratorSettings{}, s);
    State a = chain.initial;
    const double h = 0.005;
    double worst = 0.0;
    for (int k = 0; k < 1000; ++k) {
      State b = a;
      StepStats stats;
      ASSERT_EQ(fixed->step(*chain.model, a, h, stats), Status::kSuccess) << c.type;
      ASSERT_EQ(adaptive.step(*chain.model, b, h, stats), Status::kSuccess) << c.type;
      ASSERT_NEAR(adaptive.last_step(), h, 1e-16);
      worst = std::max(worst, state_difference(b, a));
    }
    EXPECT_LT(worst, c.tolerance) << c.type << " " << c.scheme;
  }
}

TEST(AdaptiveScheme, DampedSigmaOneIsTheFixedStepDampedIntegrator) {
  // The forced form (Sec. 3.3.5) at sigma = 1: Rayleigh damping splits between the slots as in
  // the fixed-step variational integrators (F- = -(1 - alpha) D v, F+ = -alpha D v, D at q_k),
  // so the steps agree to the Newton tolerances, one step at a time along a damped trajectory.
  // Both a symmetric (alpha = 1/2) and an asymmetric (alpha = 1/4) split; damping strong enough
  // to take most of the energy in the 1000 steps, so a wrong sign or factor shows at O(1e-3).
  // Measured: 1.9e-13 and 2.0e-13.
  for (const double alpha : {0.5, 0.25}) {
    test::AdaptiveChain chain = test::three_masses(1000.0, RayleighDamping{0.5, 2e-3, true});
    IntegratorSettings fixed_settings;
    fixed_settings.newton.tolerance = 1e-13;
    fixed_settings.variational_alpha = alpha;
    auto fixed = make_integrator("variational_alpha", fixed_settings);
    IntegratorSettings adaptive_settings;
    adaptive_settings.variational_alpha = alpha;
    AdaptiveVariational adaptive("variational_alpha", adaptive_settings,
                                 settings_for("constant", "symplectic"));
    State a = chain.initial;
    const double e0 = total_energy(*chain.model, a), h = 0.005;
    double worst = 0.0;
    for (int k = 0; k < 1000; ++k) {
      State b = a;
      StepStats stats;
      ASSERT_EQ(fixed->step(*chain.model, a, h, stats), Status::kSuccess) << alpha;
      ASSERT_EQ(adaptive.step(*chain.model, b, h, stats), Status::kSuccess) << alpha;
      worst = std::max(worst, state_difference(b, a));
    }
    EXPECT_LT(worst, 1e-10) << alpha;
    EXPECT_LT(total_energy(*chain.model, a), 0.5 * e0) << alpha;  // the damping did work
  }
}

TEST(AdaptiveScheme, DampedLambdaStaysNearZeroWhileTheEnergyDecays) {
  // Eq. 3.26 with forces: lambda_k = E_k+1 - E_1 - W_k, W_k the work of the damping forces.
  // Energy leaves, but the balance holds, so lambda stays O(h^2) (without the work terms it
  // would follow E_k+1 - E_1, down to about -E_0 here). Measured: E_0 = 20.26 J, 0.015 J left
  // after 2000 steps, W = -20.24 J, max |lambda| = 8.8e-3 J = 4.4e-4 E_0. Also checked: W_k <= 0
  // and decreasing, and the sigma-varying steps stay positive. Symplectic midpoint, the thesis'
  // sigma = 1 / (W / 10 + 1) at the midpoint, on the damped nonlinear chain.
  test::AdaptiveChain chain = test::three_masses(1000.0, RayleighDamping{0.3, 1e-3, true});
  AdaptiveVariational integrator("variational_midpoint", IntegratorSettings{},
                                 settings_for("energy", "symplectic", "midpoint"));
  State state = chain.initial;
  const double e0 = total_energy(*chain.model, state);
  double max_lambda = 0.0, previous_work = 0.0;
  for (int k = 0; k < 2000; ++k) {
    StepStats stats;
    ASSERT_EQ(integrator.step(*chain.model, state, 0.004, stats), Status::kSuccess) << k;
    max_lambda = std::max(max_lambda, std::abs(integrator.lambda()));
    EXPECT_LE(integrator.force_work(), previous_work) << k;
    previous_work = integrator.force_work();
  }
  const double left = total_energy(*chain.model, state);
  EXPECT_LT(left, 0.01 * e0);                                  // the damping took nearly all of it
  EXPECT_NEAR(integrator.force_work(), left - e0, 0.01 * e0);  // W_k says how much
  EXPECT_LT(max_lambda, 1e-3 * e0) << "e0 " << e0;             // while lambda stayed small
}

/// Max |E - E_0| / E_0 over the first and the last quarter of a run of `steps` steps.
struct EnergyErrors {
  double first = 0.0, last = 0.0;
};

EnergyErrors skeel_run(const std::string& scheme, int steps) {
  test::AdaptiveChain spring = test::skeel_spring();
  // sigma = 1 / (W / 1 J + 1) + 1e-3: the step shrinks to about 2/3 at the turning points (W =
  // E = 0.5 J) and comes back at the centre, twice per period: the step changes in step with
  // the motion, Skeel's destabilizing case for Verlet.
  AdaptiveSettings s = settings_for("energy", scheme);
  s.energy_scale = 1.0;
  AdaptiveVariational integrator("verlet", IntegratorSettings{}, s);
  State state = spring.initial;
  const double e0 = total_energy(*spring.model, state);
  EnergyErrors errors;
  for (int k = 1; k <= steps; ++k) {
    StepStats stats;
    EXPECT_EQ(integrator.step(*spring.model, state, 0.01, stats), Status::kSuccess);
    const double error = std::abs(total_energy(*spring.model, state) - e0) / e0;
    if (k <= steps / 4) errors.first = std::max(errors.first, error);
    if (k > steps - steps / 4) errors.last = std::max(errors.last, error);
  }
  return errors;
}

TEST(AdaptiveScheme, NaiveEnergyGrowsOnSkeelsSpringSymplecticStaysBounded) {
  // 8000 steps of h = 0.01 (about 100 s at the mean step, 130 periods). Measured (this
  // setting): naive 8.8e-3 in the first quarter, 2.8e-2 in the last (the error grows linearly:
  // the varying step breaks symplecticity and the energy drifts, Sec. 3.3.2); symplectic
  // 6.4e-4 in both (the modified energy lambda sigma is conserved, Sec. 3.3.4). They separate
  // because only the naive error accumulates: thresholds at about half the measured growth and
  // twice the measured bound.
  const EnergyErrors naive = skeel_run("naive", 8000);
  const EnergyErrors symplectic = skeel_run("symplectic", 8000);
  EXPECT_GT(naive.last, 1.5 * naive.first) << naive.first << " -> " << naive.last;
  EXPECT_GT(naive.last, 1.5e-2);
  EXPECT_LT(symplectic.last, 1.05 * symplectic.first)
      << symplectic.first << " -> " << symplectic.last;
  EXPECT_LT(symplectic.last, 1.5e-3);
}

TEST(AdaptiveScheme, LambdaIsDiscreteEnergyMinusTheFirstStepsEnergy) {
  // The convention (adaptive_variational.hpp): lambda_0 = 0 and lambda_k = lambda_k-1 + E_k+1 -
  // E_k, i.e. lambda_k = E_k+1 - E_1, not E_k+1 - E_0 with E_0 the initial 1/2 p0' M^-1 p0 +
  // W(q0). Checked step by step through the recursion, on the nonlinear 3-mass chain with the
  // thesis' sigma = 1 / (W / 10 + 1) at the midpoint.
  test::AdaptiveChain chain = test::three_masses();
  AdaptiveVariational integrator("variational_midpoint", IntegratorSettings{},
                                 settings_for("energy", "symplectic", "midpoint"));
  State state = chain.initial;
  const double e0 = total_energy(*chain.model, state);
  StepStats stats;
  ASSERT_EQ(integrator.step(*chain.model, state, 0.004, stats), Status::kSuccess);
  EXPECT_EQ(integrator.lambda(), 0.0);
  EXPECT_EQ(integrator.reference_energy(), integrator.discrete_energy());
  double previous_lambda = 0.0, previous_energy = integrator.discrete_energy();
  double max_lambda = 0.0;
  for (int k = 1; k < 2000; ++k) {
    ASSERT_EQ(integrator.step(*chain.model, state, 0.004, stats), Status::kSuccess);
    // Newton converges the lambda row to 1e-12 of the energy scale (~30 J here).
    EXPECT_NEAR(integrator.lambda() - previous_lambda,
                integrator.discrete_energy() - previous_energy, 1e-9);
    previous_lambda = integrator.lambda();
    previous_energy = integrator.discrete_energy();
    max_lambda = std::max(max_lambda, std::abs(integrator.lambda()));
  }
  // lambda ~ E_k+1 - E_1 stays small (O(h^2)) but is not zero: the test sees real steps. The
  // other convention differs by E_1 - E_0, which is not zero either.
  EXPECT_GT(max_lambda, 0.0);
  EXPECT_LT(max_lambda, 1e-2 * e0);
  EXPECT_NE(integrator.reference_energy(), e0);
}

TEST(AdaptiveScheme, ReversibleSchemeStepsBackToItsStart) {
  // Eqs. 3.30-3.32: a symmetric Lagrangian and sigma at the midpoint. 300 steps forward, the
  // momentum negated, 300 steps again: back at q_0 with -p_0 after the same total time. The
  // tolerance: Newton stops at a scaled residual of 1e-12 per step; 600 steps of that, 1e-9.
  for (const char* type : {"variational_midpoint", "verlet"}) {
    // Two rules that keep the real steps near 2 ms on this chain: sigma ~ 0.4 for "energy"
    // (W = 15 J) and 1/sqrt(E_0 - W) ~ 0.5 for "equispaced_poses". (The acceleration and
    // phase-space rules grow like 1/eps where the force vanishes: their steps are not bounded
    // above, and a step through the equilibrium can be far beyond Verlet's stability limit.)
    for (const auto& [rule, h] :
         {std::pair<const char*, double>{"energy", 0.004}, {"equispaced_poses", 0.004}}) {
      test::AdaptiveChain chain = test::three_masses();
      AdaptiveVariational integrator(type, IntegratorSettings{},
                                     settings_for(rule, "reversible", "midpoint"));
      State state = chain.initial;
      StepStats stats;
      double forward = 0.0, backward = 0.0;
      for (int k = 0; k < 300; ++k) {
        ASSERT_EQ(integrator.step(*chain.model, state, h, stats), Status::kSuccess);
        forward += integrator.last_step();
      }
      EXPECT_GT((state.q - chain.initial.q).norm(), 0.1) << rule;  // it went somewhere
      state.v = -state.v;
      for (int k = 0; k < 300; ++k) {
        ASSERT_EQ(integrator.step(*chain.model, state, h, stats), Status::kSuccess);
        backward += integrator.last_step();
      }
      state.v = -state.v;
      EXPECT_LT(state_difference(state, chain.initial), 1e-9) << type << " " << rule;
      EXPECT_NEAR(backward, forward, 1e-9 * forward) << type << " " << rule;
    }
  }
}

TEST(AdaptiveScheme, NaiveExplicitSigmaIsNotReversible) {
  // The control for the test above: sigma at q_k (not symmetric) does not step back.
  test::AdaptiveChain chain = test::three_masses();
  AdaptiveVariational integrator("variational_midpoint", IntegratorSettings{},
                                 settings_for("energy", "naive", "start"));
  State state = chain.initial;
  StepStats stats;
  for (int k = 0; k < 300; ++k)
    ASSERT_EQ(integrator.step(*chain.model, state, 0.004, stats), Status::kSuccess);
  state.v = -state.v;
  for (int k = 0; k < 300; ++k)
    ASSERT_EQ(integrator.step(*chain.model, state, 0.004, stats), Status::kSuccess);
  state.v = -state.v;
  EXPECT_GT(state_difference(state, chain.initial), 1e-6);
}

TEST(AdaptiveScheme, HistoryResumesTheSameSteps) {
  // A checkpoint keeps lambda's reference energy and the rule's E_0: a fresh integrator given
  // the history takes the same steps as the one that ran on.
  test::AdaptiveChain chain = test::three_masses();
  const AdaptiveSettings s = settings_for("equispaced_poses", "symplectic", "midpoint");
  AdaptiveVariational first("variational_midpoint", IntegratorSettings{}, s);
  State state = chain.initial;
  StepStats stats;
  for (int k = 0; k < 50; ++k)
    ASSERT_EQ(first.step(*chain.model, state, 0.004, stats), Status::kSuccess);
  AdaptiveVariational resumed("variational_midpoint", IntegratorSettings{}, s);
  resumed.restore_history(first.history());
  State copy = state;
  for (int k = 0; k < 50; ++k) {
    ASSERT_EQ(first.step(*chain.model, state, 0.004, stats), Status::kSuccess);
    ASSERT_EQ(resumed.step(*chain.model, copy, 0.004, stats), Status::kSuccess);
  }
  EXPECT_EQ(copy.q, state.q);
  EXPECT_EQ(copy.v, state.v);
  EXPECT_EQ(resumed.lambda(), first.lambda());
}

}  // namespace
}  // namespace simrun
