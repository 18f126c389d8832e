#include "integrate/sdirk2.hpp"

#include <cmath>

namespace simrun {

Status Sdirk2::attempt(Model& model, State& state, double h, StepStats& stats) {
  const double gamma = 2.0 - std::sqrt(2.0), beta = std::sqrt(2.0) / 4.0;
  const double tau = 0.5 * gamma * h;
  VecX a0;
  if (const Status s = m_acceleration.evaluate(model, state.q, state.v, a0, stats);
      s != Status::kSuccess)
    return s;
  m_stage_solver.begin_step(model, state.q);

  // Stage 1 (survey eq. 9a).
  const VecX a1_q = state.q + tau * state.v;
  const VecX a1_v = state.v + tau * a0;
  VecX x = a1_q + tau * state.v;
  if (const Status s = m_stage_solver.solve_reusing_factorization(
          model, recipe_stage(a1_q, a1_v, tau), x, stats);
      s != Status::kSuccess)
    return s;
  State stage{x, (x - a1_q) / tau, state.t + gamma * h};

  // Stage 2 (survey eq. 9b), same tau: the factorization of stage 1 is reused.
  const double c = 2.0 * beta / gamma;
  const VecX a2_q = state.q + c * (stage.q - state.q);
  const VecX a2_v = state.v + c * (stage.v - state.v);
  x = a2_q + tau * stage.v;
  if (const Status s = m_stage_solver.solve_reusing_factorization(
          model, recipe_stage(a2_q, a2_v, tau), x, stats);
      s != Status::kSuccess)
    return s;
  m_stage = std::move(stage);
  state.v = (x - a2_q) / tau;
  state.q = x;
  state.t += h;
  return Status::kSuccess;
}

}  // namespace simrun
