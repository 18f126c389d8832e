#pragma once
/// The "SDIRK" of the Ascher et al. survey (Sec. 3.1, Eq. 9): TR-BDF2-like with gamma = 2 -
/// sqrt(2), beta = sqrt(2)/4 = (1 - gamma/2)/2 (its tableau's beta-bar in one row must be beta):
///   u_g = u_n + (g h/2)(F(u_g) + F(u_n))         recipe: a = u_n + (g h/2) F(u_n), tau = g h/2
///   u_1 = u_n + (2 beta/g)(u_g - u_n) + (g h/2) F(u_1)
///                                                recipe: a = u_n + (2 beta/g)(u_g - u_n), tau = g
///                                                h/2
/// Both stages have the same matrix M + tau D + tau^2 K: it is factorized once per step, at
/// stage 1's starting guess, and reused by both stages (simplified Newton; exact Newton for
/// quadratic energies, so one factorization per step on linear elasticity). Second order,
/// L-stable (z R(z) -> 2 + 2 sqrt(2)).
#include "integrate/acceleration.hpp"
#include "integrate/implicit_stage.hpp"

namespace simrun {

class Sdirk2 final : public ImplicitIntegrator {
 public:
  explicit Sdirk2(const IntegratorSettings& settings)
      : ImplicitIntegrator(settings),
        m_stage_solver(settings),
        m_acceleration(settings.linear_solver) {}
  std::string_view name() const override { return "sdirk2"; }
  /// The stage u_gamma of the last successful step (for the Example 2 test).
  const State& stage_value() const { return m_stage; }

 protected:
  Status attempt(Model& model, State& state, double h, StepStats& stats) override;

 private:
  ImplicitStageSolver m_stage_solver;
  AccelerationSolver m_acceleration;
  State m_stage;
};

}  // namespace simrun
