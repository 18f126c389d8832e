#pragma once
/// Backward Euler (Chen thesis Eq. 2.8; survey eq. 5 and its optimization form eq. 13):
///   q_{n+1} = q_n + h v_{n+1},   M (v_{n+1} - v_n) = h (f(q_{n+1}) - D v_{n+1}),
/// one stage of the shared incremental-potential solver (implicit_stage.hpp) with a = u_n,
/// tau = h, started from x = q_n + h v_n, or with settings.extrapolate_guess (the scene default)
/// from q_n + h v_n + h^2 (v_n - v_{n-1}) / h_{n-1}, the constant-acceleration prediction, which
/// saved 10-33 % of the Newton iterations on five scenes (docs/architecture.md). First order,
/// L-stable, heavy numerical damping.
#include "integrate/implicit_stage.hpp"

namespace simrun {

class BackwardEuler final : public ImplicitIntegrator {
 public:
  explicit BackwardEuler(const IntegratorSettings& settings)
      : ImplicitIntegrator(settings), m_stage_solver(settings) {}
  std::string_view name() const override { return "be"; }
  IntegratorHistory history() const override;
  void restore_history(const IntegratorHistory& history) override;

 protected:
  Status attempt(Model& model, State& state, double h, StepStats& stats) override;

 private:
  ImplicitStageSolver m_stage_solver;
  VecX m_prev_v;
  double m_prev_h = 0.0;
  State m_last;
  bool m_has_previous = false;
};

}  // namespace simrun
