#include "integrate/tr_bdf2.hpp"

namespace simrun {

Status TrBdf2::attempt(Model& model, State& state, double h, StepStats& stats) {
  VecX a0;
  if (const Status s = m_acceleration.evaluate(model, state.q, state.v, a0, stats);
      s != Status::kSuccess)
    return s;
  m_stage_solver.begin_step(model, state.q);

  // Stage 1: trapezoidal rule over h/2 (survey eq. 8a).
  const double tau1 = 0.25 * h;
  const VecX a1_q = state.q + tau1 * state.v;
  const VecX a1_v = state.v + tau1 * a0;
  VecX x = a1_q + tau1 * state.v;
  if (const Status s = m_stage_solver.solve(model, recipe_stage(a1_q, a1_v, tau1), x, stats);
      s != Status::kSuccess)
    return s;
  State half{x, (x - a1_q) / tau1, state.t + 0.5 * h};

  // Stage 2: BDF2 over the half steps (survey eq. 8b).
  const double tau2 = h / 3.0;
  const VecX a2_q = (4.0 * half.q - state.q) / 3.0;
  const VecX a2_v = (4.0 * half.v - state.v) / 3.0;
  x = a2_q + tau2 * half.v;
  if (const Status s = m_stage_solver.solve(model, recipe_stage(a2_q, a2_v, tau2), x, stats);
      s != Status::kSuccess)
    return s;
  m_stage = std::move(half);
  state.v = (x - a2_q) / tau2;
  state.q = x;
  state.t += h;
  return Status::kSuccess;
}

}  // namespace simrun
