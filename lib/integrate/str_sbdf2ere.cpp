#include "integrate/str_sbdf2ere.hpp"

#include "solve/solver_meter.hpp"

namespace simrun {

StrSbdf2Ere::StrSbdf2Ere(const IntegratorSettings& settings)
    : m_solver(settings), m_printed_phi_argument(settings.printed_phi_argument) {}

Status StrSbdf2Ere::step(Model& model, State& state, double h, StepStats& stats) {
  m_failure.clear();
  FirstOrderSystem& system = m_solver.system;
  const SolverMeter meter(m_solver.inverse.solver(), stats);
  const Eigen::Index n = state.q.size();
  const State start = state;

  // Stage 1 (26a): x = (I - (h/4) J)^-1 (h/2) F(u_0); in momentum form (h/2) [v; f].
  if (const Status s = system.linearize(model, start); s != Status::kSuccess) {
    m_failure = "the force at the start of the step is not finite";
    return s;
  }
  VecX b(2 * n), x;
  b.head(n) = 0.5 * h * start.v;
  b.tail(n) = 0.5 * h * system.force();
  if (const Status s = m_solver.inverse.factorize(model, system, h / 4.0); s != Status::kSuccess) {
    m_failure = "M + (h/4) D + (h/4)^2 K is singular";
    return s;
  }
  m_solver.inverse.solve(b, x);
  if (!x.allFinite()) {
    m_failure = "the first stage produced non-finite values";
    return Status::kNumericalIssue;
  }
  State half = start;
  half.q += x.head(n);
  half.v += x.tail(n);

  // Stage 2 (26b, 26c) at u_1/2.
  if (const Status s = system.linearize(model, half); s != Status::kSuccess) {
    m_failure = "the force at the half step is not finite";
    return s;
  }
  if (const Status s = m_solver.prepare(model, h / 3.0, stats, m_failure); s != Status::kSuccess)
    return s;
  // (h/3) phi_1(t J_G) G: printed t = h/2 (26c), consistent t = h, so that it matches
  // (h/3) G(u_1) = (h/3)(I + (h/2) J_G + ...) G to second order.
  const double t = m_printed_phi_argument ? 0.5 * h : h;
  b = m_solver.split_force(half.v, h / 3.0, t);
  b.head(n) += (half.q - start.q) / 3.0;
  b.tail(n) += model.apply_mass(half.v - start.v) / 3.0;
  if (const Status s = m_solver.solve(h / 3.0, b, x, m_failure); s != Status::kSuccess) return s;
  state.q = half.q + x.head(n);
  state.v = half.v + x.tail(n);
  state.t = start.t + h;
  return Status::kSuccess;
}

}  // namespace simrun
