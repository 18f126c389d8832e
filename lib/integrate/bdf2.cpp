#include "integrate/bdf2.hpp"

namespace simrun {

void Bdf2::set_history(const State& current, double h_previous, const State& previous) {
  m_prev_q = previous.q;
  m_prev_v = previous.v;
  m_prev_h = h_previous;
  m_last = current;
  m_has_history = true;
}

Status Bdf2::attempt(Model& model, State& state, double h, StepStats& stats) {
  const bool history = m_has_history && same_state(state, m_last);
  VecX a_q, a_v;
  double tau;
  if (history) {
    const double w = h / m_prev_h;
    const double c0 = (1 + w) * (1 + w) / (1 + 2 * w), c1 = w * w / (1 + 2 * w);
    a_q = c0 * state.q - c1 * m_prev_q;
    a_v = c0 * state.v - c1 * m_prev_v;
    tau = h * (1 + w) / (1 + 2 * w);
  } else {  // start-up: one BE (SI) step
    a_q = state.q;
    a_v = state.v;
    tau = h;
  }
  m_stage_solver.begin_step(model, state.q);
  ImplicitStage stage = recipe_stage(a_q, a_v, tau);
  stage.start = state.q;
  VecX x = a_q + tau * state.v;  // guess v = v_n
  const Status status = m_linearized
                            ? m_stage_solver.solve_linearized(model, stage, state.q, x, stats)
                            : m_stage_solver.solve(model, stage, x, stats);
  if (status != Status::kSuccess) return status;
  m_prev_q = state.q;
  m_prev_v = state.v;
  m_prev_h = h;
  state.v = (x - a_q) / tau;
  state.q = x;
  state.t += h;
  m_last = state;
  m_has_history = true;
  return Status::kSuccess;
}

IntegratorHistory Bdf2::history() const {
  return two_step_history(m_has_history, m_prev_q, m_prev_v, m_prev_h, m_last);
}

void Bdf2::restore_history(const IntegratorHistory& h) {
  m_has_history = restore_two_step_history(h, m_prev_q, m_prev_v, m_prev_h, m_last);
}

}  // namespace simrun
