#pragma once
/// Forward Euler on u = (q, v), u_{n+1} = u_n + h F(u_n) (textbook; Kharevych thesis Ch. 1; the
/// explicit half of Chen thesis Eq. 5.2): q_{n+1} = q_n + h v_n, v_{n+1} = v_n + h M^-1 f(q_n,
/// v_n). First order; unconditionally unstable for an undamped oscillator (|1 + i h w| > 1): a
/// test reference only.
#include "integrate/acceleration.hpp"
#include "integrate/integrator.hpp"

namespace simrun {

class ForwardEuler final : public Integrator {
 public:
  explicit ForwardEuler(const IntegratorSettings& settings)
      : m_acceleration(settings.linear_solver) {}
  std::string_view name() const override { return "fe"; }
  Status step(Model& model, State& state, double h, StepStats& stats) override;

 private:
  AccelerationSolver m_acceleration;
};

}  // namespace simrun
