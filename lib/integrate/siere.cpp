#include "integrate/siere.hpp"

#include "solve/solver_meter.hpp"

namespace simrun {

Siere::Siere(const IntegratorSettings& settings, bool bdf2)
    : m_solver(settings), m_bdf2(bdf2), m_printed_phi_argument(settings.printed_phi_argument) {}

Status Siere::step(Model& model, State& state, double h, StepStats& stats) {
  m_failure.clear();
  const SolverMeter meter(m_solver.inverse.solver(), stats);
  if (const Status s = m_solver.system.linearize(model, state); s != Status::kSuccess) {
    m_failure = "the force at the start of the step is not finite";
    return s;
  }
  const Eigen::Index n = state.q.size();
  const bool multistep = m_bdf2 && m_has_history && same_state(state, m_last);
  double tau = h, c = 0.0;
  if (multistep) {
    const double w = h / m_prev_h;
    tau = h * (1.0 + w) / (1.0 + 2.0 * w);
    c = w * w / (1.0 + 2.0 * w);
  }
  if (const Status s = m_solver.prepare(model, tau, stats, m_failure); s != Status::kSuccess)
    return s;
  // The exponential part enters with BDF2's weight tau as tau phi_1(t J_G) G. Printed (eq. 22):
  // t = h. Consistent: t = 2h, so that tau phi_1(t J_G) G = tau (I + h J_G + ...) G matches
  // tau G(u_{n+1}) to second order. SIERE's step: t = h (the exact flow over the step).
  const double t = multistep && !m_printed_phi_argument ? 2.0 * h : h;
  // The right-hand side in momentum form [b_q; M b_v].
  VecX b = m_solver.split_force(state.v, tau, t);
  if (multistep) {
    b.head(n) += c * (state.q - m_prev_q);
    b.tail(n) += c * model.apply_mass(state.v - m_prev_v);
  }

  VecX x;
  if (const Status s = m_solver.solve(tau, b, x, m_failure); s != Status::kSuccess) return s;
  if (m_bdf2) {
    m_prev_q = state.q;
    m_prev_v = state.v;
    m_prev_h = h;
  }
  state.q += x.head(n);
  state.v += x.tail(n);
  state.t += h;
  if (m_bdf2) {
    m_last = state;
    m_has_history = true;
  }
  return Status::kSuccess;
}

IntegratorHistory Siere::history() const {
  return two_step_history(m_has_history, m_prev_q, m_prev_v, m_prev_h, m_last);
}

void Siere::restore_history(const IntegratorHistory& h) {
  m_has_history = restore_two_step_history(h, m_prev_q, m_prev_v, m_prev_h, m_last);
}

}  // namespace simrun
