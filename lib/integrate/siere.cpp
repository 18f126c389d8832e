#include "integrate/siere.hpp"

#include "solve/solver_meter.hpp"

namespace simrun {

std::string split_failure(Status status, bool in_eigensolve, int modes) {
  if (in_eigensolve)
    return "the eigensolve of the " + std::to_string(modes) +
           " lowest modes did not converge";
  return status == Status::kNumericalIssue
             ? "M + tau D + tau^2 K (or its low-rank update) is singular"
             : "the linear solve failed";
}

Siere::Siere(const IntegratorSettings& settings, bool bdf2)
    : m_system(settings.linear_solver, settings.newton.projection != HessianProjection::kNever),
      m_inverse(settings.linear_solver),
      m_split(settings.modes, settings.eigen_refresh, settings.linear_solver),
      m_bdf2(bdf2) {}

Status Siere::step(Model& model, State& state, double h, StepStats& stats) {
  m_failure.clear();
  const SolverMeter meter(m_inverse.solver(), stats);
  if (const Status s = m_system.linearize(model, state); s != Status::kSuccess) {
    m_failure = "the force at the start of the step is not finite";
    return s;
  }
  if (const Status s = m_split.update(model, m_system, stats); s != Status::kSuccess) {
    m_failure = split_failure(s, true, m_split.modes());
    return s;
  }
  const Eigen::Index n = state.q.size();
  VecX r_q, p_v, dq, dp;
  m_split.high_part(state.v, m_system.force(), r_q, p_v);
  m_split.exponential_part(state.v, m_system.force(), h, dq, dp);

  // The right-hand side in momentum form [b_q; M b_v].
  const bool multistep = m_bdf2 && m_has_history && same_state(state, m_last);
  double tau = h, c = 0.0;
  if (multistep) {
    const double w = h / m_prev_h;
    tau = h * (1.0 + w) / (1.0 + 2.0 * w);
    c = w * w / (1.0 + 2.0 * w);
  }
  VecX b(2 * n);
  b.head(n) = tau * r_q + (tau / h) * dq;
  b.tail(n) = tau * p_v + (tau / h) * dp;
  if (multistep) {
    b.head(n) += c * (state.q - m_prev_q);
    b.tail(n) += c * model.apply_mass(state.v - m_prev_v);
  }

  if (const Status s = m_inverse.factorize(model, m_system, tau); s != Status::kSuccess) {
    m_failure = split_failure(s, false, m_split.modes());
    return s;
  }
  VecX x;
  if (const Status s = m_split.solve(m_inverse, tau, b, x); s != Status::kSuccess) {
    m_failure = split_failure(s, false, m_split.modes());
    return s;
  }
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

}  // namespace simrun
