#include "integrate/backward_euler.hpp"

namespace simrun {

Status BackwardEuler::attempt(Model& model, State& state, double h, StepStats& stats) {
  m_stage_solver.begin_step(model, state.q);
  VecX x = state.q + h * state.v;
  // Constant-acceleration predictor: q_n + h v_n + h^2 a with a = (v_n - v_{n-1}) / h_{n-1},
  // when the input is the state this integrator produced last (no restart since).
  if (m_settings.extrapolate_guess && m_has_previous && state.q == m_last.q && state.v == m_last.v)
    x += h * (state.v - m_prev_v) * (h / m_prev_h);
  const VecX v_n = state.v;
  ImplicitStage stage = recipe_stage(state.q, state.v, h);
  stage.start = state.q;
  const Status status = m_stage_solver.solve(model, stage, x, stats);
  if (status != Status::kSuccess) return status;
  state.v = (x - state.q) / h;
  state.q = x;
  state.t += h;
  m_prev_v = v_n;  // the history changes only with a taken step (a failed one leaves it)
  m_prev_h = h;
  m_last = state;
  m_has_previous = true;
  return Status::kSuccess;
}

IntegratorHistory BackwardEuler::history() const {
  IntegratorHistory h;
  if (!m_has_previous) return h;
  h.vectors["prev_v"] = m_prev_v;
  h.numbers["prev_h"] = m_prev_h;
  h.put("last", m_last);
  return h;
}

void BackwardEuler::restore_history(const IntegratorHistory& h) {
  const auto prev_v = h.vectors.find("prev_v");
  const auto prev_h = h.numbers.find("prev_h");
  m_has_previous = prev_v != h.vectors.end() && prev_h != h.numbers.end() && h.get("last", m_last);
  if (!m_has_previous) return;
  m_prev_v = prev_v->second;
  m_prev_h = prev_h->second;
}
}  // namespace simrun
