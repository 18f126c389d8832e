#pragma once
/// Trapezoidal rule (Ascher et al. survey, Secs. 3.1-3.2): u_{n+1} = u_n + (h/2)(F(u_n) +
/// F(u_{n+1})), the recipe stage a = u_n + (h/2) F(u_n), tau = h/2 (implicit_stage.hpp), with
/// F(u_n) = (v_n, M^-1 f(q_n, v_n)). Second order, A-stable but not L-stable (R(-inf) = -1,
/// see the Example 2 test), no numerical damping.
#include "integrate/acceleration.hpp"
#include "integrate/implicit_stage.hpp"

namespace simrun {

class Trapezoidal final : public ImplicitIntegrator {
 public:
  explicit Trapezoidal(const IntegratorSettings& settings)
      : ImplicitIntegrator(settings),
        m_stage_solver(settings),
        m_acceleration(settings.linear_solver) {}
  std::string_view name() const override { return "trapezoidal"; }

 protected:
  Status attempt(Model& model, State& state, double h, StepStats& stats) override;

 private:
  ImplicitStageSolver m_stage_solver;
  AccelerationSolver m_acceleration;
};

}  // namespace simrun
