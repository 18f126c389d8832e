#include "integrate/implicit_midpoint.hpp"

namespace simrun {

ImplicitMidpoint::ImplicitMidpoint(const IntegratorSettings& settings)
    : ImplicitIntegrator(settings), m_stage_solver(settings) {
  if (settings.eigenfit) m_corrected = std::make_unique<CorrectedStageSolver>(settings);
}

Status ImplicitMidpoint::attempt(Model& model, State& state, double h, StepStats& stats) {
  const double tau = 0.5 * h;
  VecX x = state.q + tau * state.v;  // q_w
  Status status;
  if (m_corrected) {
    status = m_corrected->begin_step(model, x, stats);
    if (status == Status::kSuccess)
      status = m_corrected->solve(model, recipe_stage(state.q, state.v, tau), x, stats);
  } else {
    m_stage_solver.begin_step(model, state.q);
    status = m_stage_solver.solve(model, recipe_stage(state.q, state.v, tau), x, stats);
  }
  if (status != Status::kSuccess) return status;
  const VecX v_w = (x - state.q) / tau;
  state.q = 2.0 * x - state.q;
  state.v = 2.0 * v_w - state.v;
  state.t += h;
  return Status::kSuccess;
}

}  // namespace simrun
