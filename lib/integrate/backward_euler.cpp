#include "integrate/backward_euler.hpp"

namespace simrun {

Status BackwardEuler::attempt(Model& model, State& state, double h, StepStats& stats) {
  m_stage_solver.begin_step(model, state.q);
  VecX x = state.q + h * state.v;
  const Status status = m_stage_solver.solve(model, recipe_stage(state.q, state.v, h), x, stats);
  if (status != Status::kSuccess) return status;
  state.v = (x - state.q) / h;
  state.q = x;
  state.t += h;
  return Status::kSuccess;
}

}  // namespace simrun
