#pragma once
/// Classical 4-stage Runge-Kutta on u = (q, v), u' = F(u) = (v, M^-1 f(q, v)) (Chen thesis
/// Sec. 4.2.2: the ground truth of Ch. 4 at small steps). Fourth order, explicit; stable for
/// h w_max < 2.83 on an undamped oscillator.
#include "integrate/acceleration.hpp"
#include "integrate/integrator.hpp"

namespace simrun {

class RungeKutta4 final : public Integrator {
 public:
  explicit RungeKutta4(const IntegratorSettings& settings)
      : m_acceleration(settings.linear_solver) {}
  std::string_view name() const override { return "rk4"; }
  Status step(Model& model, State& state, double h, StepStats& stats) override;

 private:
  AccelerationSolver m_acceleration;
};

}  // namespace simrun
