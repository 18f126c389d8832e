#include "integrate/siere.hpp"

#include "solve/solver_meter.hpp"

namespace simrun {

std::string split_failure(Status status, bool in_eigensolve, int modes) {
  if (in_eigensolve)
    return "the eigensolve of the " + std::to_string(modes) + " lowest modes did not converge";
  return status == Status::kNumericalIssue
             ? "M + tau D + tau^2 K (or its low-rank update) is singular"
             : "the linear solve failed";
}

Siere::Siere(const IntegratorSettings& settings, bool bdf2)
    : m_system(settings.linear_solver, settings.newton.projection != HessianProjection::kNever),
      m_inverse(settings.linear_solver),
      m_split(settings.modes > 0 ? settings.modes + settings.rigid_modes : 0,
              settings.eigen_refresh, settings.linear_solver, settings.eigen_tracking),
      m_bdf2(bdf2),
      m_printed_phi_argument(settings.printed_phi_argument) {}

Status Siere::step(Model& model, State& state, double h, StepStats& stats) {
  m_failure.clear();
  const SolverMeter meter(m_inverse.solver(), stats);
  if (const Status s = m_system.linearize(model, state); s != Status::kSuccess) {
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
  // M + tau D + tau^2 K first: the split's subspace tracking iterates with it.
  if (const Status s = m_inverse.factorize(model, m_system, tau); s != Status::kSuccess) {
    m_failure = split_failure(s, false, m_split.modes());
    return s;
  }
  if (const Status s = m_split.update(model, m_system, stats, &m_inverse); s != Status::kSuccess) {
    m_failure = split_failure(s, true, m_split.modes());
    return s;
  }
  // The exponential part enters with BDF2's weight tau as (tau / t) delta_G(t), delta_G(t) =
  // t phi_1(t J_G) G. Printed (eq. 22): t = h. Consistent: t = 2h, so that (tau / t) delta_G(t)
  // = tau (I + h J_G + ...) G matches tau G(u_{n+1}) to second order. SIERE's step: t = h (the
  // exact flow over the step).
  const double t = multistep && !m_printed_phi_argument ? 2.0 * h : h;
  VecX r_q, p_v, dq, dp;
  m_split.high_part(state.v, m_system.force(), r_q, p_v);
  m_split.exponential_part(state.v, m_system.force(), t, dq, dp);

  // The right-hand side in momentum form [b_q; M b_v].
  VecX b(2 * n);
  b.head(n) = tau * r_q + (tau / t) * dq;
  b.tail(n) = tau * p_v + (tau / t) * dp;
  if (multistep) {
    b.head(n) += c * (state.q - m_prev_q);
    b.tail(n) += c * model.apply_mass(state.v - m_prev_v);
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
