#include "integrate/variational_alpha.hpp"

#include <cmath>

#include "model/viscous_damping.hpp"

namespace simrun {

VariationalAlpha::VariationalAlpha(const IntegratorSettings& settings, double alpha,
                                   std::string_view name)
    : ImplicitIntegrator(settings),
      m_alpha(alpha),
      m_name(name),
      m_mass(settings.linear_solver),
      m_stage_solver(settings) {}

Status VariationalAlpha::solve_implicit(Model& model, const State& state, double h, VecX& x,
                                        StepStats& stats) {
  // Phi(x) of the header: the stage q_a = q_k + alpha h v with inertia step
  // tau = sqrt(alpha (1 - alpha)) h, prediction q_k + alpha h M^-1 p_k and sigma = alpha h.
  ImplicitStage stage;
  stage.predicted = state.q + m_alpha * h * state.v;
  stage.tau = std::sqrt(m_alpha * (1.0 - m_alpha)) * h;
  stage.damping_anchor = state.q;
  stage.damping_tau = m_alpha * h;
  m_stage_solver.begin_step(model, state.q);
  x = stage.predicted;  // the explicit guess v = M^-1 p_k
  return m_stage_solver.solve(model, stage, x, stats);
}

Status VariationalAlpha::attempt(Model& model, State& state, double h, StepStats& stats) {
  const bool damped = model.has_damping();
  VecX v;        // the interval's velocity v_{k+1} = (q_{k+1} - q_k) / h
  VecX q_a;      // the quadrature point
  VecX impulse;  // h (dW/dq(q_a) + D v): the total force impulse of the step
  if (m_alpha == 0.0) {
    // q_a = q_k: M v = p_k - h (dW/dq(q_k) + D v_k).
    q_a = state.q;
    model.potential_gradient(q_a, impulse);
    if (damped) impulse += m_mass.damping(model, state.q) * state.v;
    impulse *= h;
    VecX dv;
    if (const Status s = m_mass.solve_mass(model, impulse, dv, stats); s != Status::kSuccess)
      return s;
    v = state.v - dv;
  } else if (m_alpha == 1.0) {
    // M v = p_k: v = M^-1 p_k, q_a = q_{k+1}.
    v = state.v;
    q_a = state.q + h * v;
    model.potential_gradient(q_a, impulse);
    if (damped) impulse += m_mass.damping(model, state.q) * v;
    impulse *= h;
  } else {
    if (const Status s = solve_implicit(model, state, h, q_a, stats); s != Status::kSuccess)
      return s;
    v = (q_a - state.q) / (m_alpha * h);
    model.potential_gradient(q_a, impulse);
    if (damped) impulse += m_mass.damping(model, state.q) * v;
    impulse *= h;
  }
  // p_{k+1} = p_k - impulse (re-injected), or M v - alpha impulse (Eq. 3.11 with F^{d+}).
  VecX p_next = m_settings.reinject_residual ? VecX(model.apply_mass(state.v) - impulse)
                                             : VecX(model.apply_mass(v) - m_alpha * impulse);
  if (m_settings.viscous_k_d > 0.0) {
    // F^{d+} of this interval = F_dampExp(q_k, q_{k+1}) (thesis Sec. 3.2.9, digest 004 Sec. 5.4:
    // the impulse as defined, not multiplied by h), applied at q_{k+1}.
    VecX impulse_full = VecX::Zero(model.dofs().num_full());
    add_viscous_impulse(model, m_settings.viscous_k_d, model.full_positions(state.q),
                        model.full_positions(state.q + h * v), impulse_full);
    p_next += model.restrict_vector(impulse_full);
  }
  VecX v_next;
  if (const Status s = m_mass.solve_mass(model, p_next, v_next, stats); s != Status::kSuccess)
    return s;
  if (!v_next.allFinite() || !v.allFinite()) return Status::kNumericalIssue;
  state.q += h * v;
  state.v = std::move(v_next);
  state.t += h;
  return Status::kSuccess;
}

}  // namespace simrun
