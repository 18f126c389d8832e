#pragma once
/// TR-BDF2, gamma = 1/2 (Ascher et al. survey, Sec. 3.1, Eq. 8): a trapezoidal stage to t_n + h/2,
///   u_{1/2} = u_n + (h/4)(F(u_n) + F(u_{1/2}))         recipe: a = u_n + (h/4) F(u_n), tau = h/4
/// then BDF2 over the two half steps,
///   u_{n+1} = (4 u_{1/2} - u_n)/3 + (h/3) F(u_{n+1})   recipe: a = (4u_{1/2} - u_n)/3, tau = h/3.
/// Second order, L-stable (z R(z) -> 5). Each stage is a full Newton solve started from the most
/// recent stage value (one Newton step from it is the survey's S-version, Sec. 3.1, Eq. 26a).
#include "integrate/acceleration.hpp"
#include "integrate/implicit_stage.hpp"

namespace simrun {

class TrBdf2 final : public ImplicitIntegrator {
 public:
  explicit TrBdf2(const IntegratorSettings& settings)
      : ImplicitIntegrator(settings),
        m_stage_solver(settings),
        m_acceleration(settings.linear_solver) {}
  std::string_view name() const override { return "tr_bdf2"; }
  /// The trapezoidal stage u_{1/2} of the last successful step (for the Example 2 test).
  const State& stage_value() const { return m_stage; }

 protected:
  Status attempt(Model& model, State& state, double h, StepStats& stats) override;

 private:
  ImplicitStageSolver m_stage_solver;
  AccelerationSolver m_acceleration;
  State m_stage;
};

}  // namespace simrun
