#pragma once
/// Symplectic Euler (textbook; Kharevych thesis Ch. 1, single-spring example): v_{n+1} = v_n +
/// h M^-1 f(q_n, v_n), q_{n+1} = q_n + h v_{n+1}. Explicit, first order, symplectic (bounded
/// energy error, no drift) for h < 2 / w_max.
#include "integrate/acceleration.hpp"
#include "integrate/integrator.hpp"

namespace simrun {

class SymplecticEuler final : public Integrator {
 public:
  explicit SymplecticEuler(const IntegratorSettings& settings)
      : m_acceleration(settings.linear_solver) {}
  std::string_view name() const override { return "symplectic_euler"; }
  Status step(Model& model, State& state, double h, StepStats& stats) override;

 private:
  AccelerationSolver m_acceleration;
};

}  // namespace simrun
