#include "integrate/trapezoidal.hpp"

namespace simrun {

Status Trapezoidal::attempt(Model& model, State& state, double h, StepStats& stats) {
  const double tau = 0.5 * h;
  VecX a0;
  if (const Status s = m_acceleration.evaluate(model, state.q, state.v, a0, stats);
      s != Status::kSuccess)
    return s;
  m_stage_solver.begin_step(model, state.q);
  const VecX a_q = state.q + tau * state.v;
  const VecX a_v = state.v + tau * a0;
  VecX x = a_q + tau * state.v;  // guess v = v_n
  const Status status = m_stage_solver.solve(model, recipe_stage(a_q, a_v, tau), x, stats);
  if (status != Status::kSuccess) return status;
  state.v = (x - a_q) / tau;
  state.q = x;
  state.t += h;
  return Status::kSuccess;
}

}  // namespace simrun
