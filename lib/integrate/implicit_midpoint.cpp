#include "integrate/implicit_midpoint.hpp"

namespace simrun {

Status ImplicitMidpoint::attempt(Model& model, State& state, double h, StepStats& stats) {
  const double tau = 0.5 * h;
  m_stage_solver.begin_step(model, state.q);
  VecX x = state.q + tau * state.v;  // q_w
  const Status status = m_stage_solver.solve(model, recipe_stage(state.q, state.v, tau), x, stats);
  if (status != Status::kSuccess) return status;
  const VecX v_w = (x - state.q) / tau;
  state.q = 2.0 * x - state.q;
  state.v = 2.0 * v_w - state.v;
  state.t += h;
  return Status::kSuccess;
}

}  // namespace simrun
