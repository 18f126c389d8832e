#pragma once
/// Backward Euler (Chen thesis Eq. 2.8) as the minimization of the incremental potential
///   Phi(x) = 1/(2h^2) |x - q_n - h v_n|_M^2 + U(x) + 1/(2h) |x - q_n|_D^2,
/// whose stationarity condition is M (v_{n+1} - v_n) = h (f(x) - D v_{n+1}) with
/// v_{n+1} = (x - q_n)/h (the survey's unified recipe). Solved by projected Newton with
/// backtracking line search from x = q_n + h v_n. D is frozen over the step (rest stiffness, or
/// K(q_n) for "current"). Convergence on the thesis' velocity residual
/// |v - v_n - h M^-1 f| <= tolerance, with M lumped for the norm, or a Newton update that
/// changes no velocity by more than the tolerance.
#include "integrate/integrator.hpp"

namespace simrun {

class BackwardEuler final : public Integrator {
 public:
  explicit BackwardEuler(const IntegratorSettings& settings);
  std::string_view name() const override { return "be"; }
  Status step(const Model& model, State& state, double h, StepStats& stats) override;

 private:
  IntegratorSettings m_settings;
  std::unique_ptr<LinearSolver> m_solver;
  SpMat m_D, m_K;
};

}  // namespace simrun
