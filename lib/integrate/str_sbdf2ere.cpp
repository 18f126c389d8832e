#include "integrate/str_sbdf2ere.hpp"

#include "integrate/siere.hpp"
#include "solve/solver_meter.hpp"

namespace simrun {

StrSbdf2Ere::StrSbdf2Ere(const IntegratorSettings& settings)
    : m_system(settings.linear_solver, settings.newton.projection != HessianProjection::kNever),
      m_inverse(settings.linear_solver),
      m_split(settings.modes > 0 ? settings.modes + settings.rigid_modes : 0,
              settings.eigen_refresh, settings.linear_solver, settings.eigen_tracking),
      m_printed_phi_argument(settings.printed_phi_argument) {}

Status StrSbdf2Ere::step(Model& model, State& state, double h, StepStats& stats) {
  m_failure.clear();
  const SolverMeter meter(m_inverse.solver(), stats);
  const Eigen::Index n = state.q.size();
  const State start = state;

  // Stage 1 (26a): x = (I - (h/4) J)^-1 (h/2) F(u_0); in momentum form (h/2) [v; f].
  if (const Status s = m_system.linearize(model, start); s != Status::kSuccess) {
    m_failure = "the force at the start of the step is not finite";
    return s;
  }
  VecX b(2 * n), x;
  b.head(n) = 0.5 * h * start.v;
  b.tail(n) = 0.5 * h * m_system.force();
  if (const Status s = m_inverse.factorize(model, m_system, h / 4.0); s != Status::kSuccess) {
    m_failure = split_failure(s, false, m_split.modes());
    return s;
  }
  m_inverse.solve(b, x);
  if (!x.allFinite()) {
    m_failure = "the first stage produced non-finite values";
    return Status::kNumericalIssue;
  }
  State half = start;
  half.q += x.head(n);
  half.v += x.tail(n);

  // Stage 2 (26b, 26c) at u_1/2.
  if (const Status s = m_system.linearize(model, half); s != Status::kSuccess) {
    m_failure = "the force at the half step is not finite";
    return s;
  }
  if (const Status s = m_inverse.factorize(model, m_system, h / 3.0); s != Status::kSuccess) {
    m_failure = split_failure(s, false, m_split.modes());
    return s;
  }
  if (const Status s = m_split.update(model, m_system, stats, &m_inverse); s != Status::kSuccess) {
    m_failure = split_failure(s, true, m_split.modes());
    return s;
  }
  VecX r_q, p_v, dq, dp;
  m_split.high_part(half.v, m_system.force(), r_q, p_v);
  // (h/3) phi_1(t J_G) G = (h / 3t) delta_G(t): printed t = h/2 (26c), consistent t = h, so
  // that it matches (h/3) G(u_1) = (h/3)(I + (h/2) J_G + ...) G to second order.
  const double t = m_printed_phi_argument ? 0.5 * h : h;
  m_split.exponential_part(half.v, m_system.force(), t, dq, dp);
  const double weight = h / (3.0 * t);
  b.head(n) = (half.q - start.q) / 3.0 + (h / 3.0) * r_q + weight * dq;
  b.tail(n) = model.apply_mass(half.v - start.v) / 3.0 + (h / 3.0) * p_v + weight * dp;
  if (const Status s = m_split.solve(m_inverse, h / 3.0, b, x); s != Status::kSuccess) {
    m_failure = split_failure(s, false, m_split.modes());
    return s;
  }
  state.q = half.q + x.head(n);
  state.v = half.v + x.tail(n);
  state.t = start.t + h;
  return Status::kSuccess;
}

}  // namespace simrun
