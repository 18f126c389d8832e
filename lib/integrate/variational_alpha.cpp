#include "integrate/variational_alpha.hpp"

#include <cmath>
#include <limits>
#include <memory>

#include "core/parallel.hpp"
#include "core/pattern_algebra.hpp"
#include "model/viscous_damping.hpp"
#include "solve/solver_meter.hpp"

namespace simrun {

namespace {

/// c W_d(q_k, q_k + (x - q_k) / alpha) over the stage's unknown x = q_a (variational_alpha.hpp).
class ImplicitViscousDamping final : public StageTerm {
 public:
  ImplicitViscousDamping(const Model& model, const VecX& q, double alpha, double c)
      : m_model(model), m_q(q), m_a(model.full_positions(q)), m_alpha(alpha), m_c(c) {}
  double value(const VecX& x) const override {
    return m_c * viscous_potential(m_model, m_a, end(x));
  }
  void add_gradient(const VecX& x, VecX& g) const override {
    // d/dx = (1/alpha) grad_b W_d, and viscous_impulse() is -grad_b W_d for k_d = 1.
    g -= (m_c / m_alpha) * viscous_impulse(m_model, 1.0, m_q, next(x));
  }
  void add_hessian(const VecX& x, SpMat& H, bool project_psd) const override {
    add_viscous_hessian(m_model, m_a, end(x), m_c / (m_alpha * m_alpha), H, project_psd);
  }

 private:
  /// q_{k+1} = q_k + (x - q_k) / alpha, free and full.
  VecX next(const VecX& x) const { return m_q + (x - m_q) / m_alpha; }
  VecX end(const VecX& x) const { return m_model.full_positions(next(x)); }
  const Model& m_model;
  VecX m_q, m_a;
  double m_alpha, m_c;
};

}  // namespace

VariationalAlpha::VariationalAlpha(const IntegratorSettings& settings, double alpha,
                                   std::string_view name)
    : ImplicitIntegrator(settings),
      m_alpha(alpha),
      m_name(name),
      m_mass(settings.linear_solver),
      m_stage_solver(settings),
      m_linear_solver(settings.linear_solver()) {}

Status VariationalAlpha::linear_step(Model& model, State& state, double h, StepStats& stats) {
  const SolverMeter meter(*m_linear_solver, stats);
  const double a = m_alpha, b = 1.0 - m_alpha;
  if (h != m_linear_h || model.pattern_version() != m_linear_pattern) {
    // A = M + (1 - alpha) h D + alpha (1 - alpha) h^2 K, factorized once.
    SpMat K, D;
    model.stiffness(state.q, K, /*project_psd=*/false);
    SpMat A = K;
    Eigen::Map<VecX>(A.valuePtr(), A.nonZeros()) *= a * b * h * h;
    add_scaled(A, 1.0, model.mass());
    if (model.has_damping()) {
      model.damping_matrix(K, D);
      add_scaled(A, b * h, D);
    }
    m_linear_h = 0.0;
    if (const Status s = m_linear_solver->factorize(A); s != Status::kSuccess) return s;
    m_K.assign(K, thread_count());
    m_linear_h = h;
    m_linear_pattern = model.pattern_version();
    m_linear_potential = -1;
  }
  if (model.potential_version() != m_linear_potential) {
    model.potential_gradient(state.q, m_g_ref);
    m_q_ref = state.q;
    m_linear_potential = model.potential_version();
  }
  // g(q_k) = g_ref + K (q_k - q_ref); rhs = M v_k - (1 - alpha) h g(q_k).
  VecX g;
  m_K.multiply(state.q - m_q_ref, g);
  g += m_g_ref;
  const VecX rhs = model.apply_mass(state.v) - b * h * g;
  VecX v;
  m_linear_solver->solve(rhs, v);
  if (!v.allFinite()) return Status::kNumericalIssue;
  remember_step(v, state.q + m_alpha * h * v);
  state.q += h * v;
  state.v = (v - a * state.v) / b;
  state.t += h;
  return Status::kSuccess;
}

Status VariationalAlpha::solve_implicit(Model& model, const State& state, double h, VecX& x,
                                        StepStats& stats) {
  // Phi(x) of the header: the stage q_a = q_k + alpha h v with inertia step
  // tau = sqrt(alpha (1 - alpha)) h, prediction q_k + alpha h M^-1 p_k and sigma = alpha h.
  ImplicitStage stage;
  stage.predicted = state.q + m_alpha * h * state.v;
  stage.tau = std::sqrt(m_alpha * (1.0 - m_alpha)) * h;
  stage.damping_anchor = state.q;
  stage.damping_tau = m_alpha * h;
  std::unique_ptr<ImplicitViscousDamping> damping;
  if (m_settings.viscous_k_d > 0.0 && m_settings.viscous_implicit) {
    const double c = m_alpha / (1.0 - m_alpha) * m_settings.viscous_k_d / h;
    damping = std::make_unique<ImplicitViscousDamping>(model, state.q, m_alpha, c);
    stage.extra = damping.get();
  }
  m_stage_solver.begin_step(model, state.q);
  x = stage.predicted;  // the explicit guess v = M^-1 p_k
  return m_stage_solver.solve(model, stage, x, stats);
}

Status VariationalAlpha::attempt(Model& model, State& state, double h, StepStats& stats) {
  model.refresh_pattern();
  if (m_alpha > 0.0 && m_alpha < 1.0 && m_settings.viscous_k_d == 0.0 && model.is_quadratic() &&
      model.damping_is_constant())
    return linear_step(model, state, h, stats);
  // v = (q_{k+1} - q_k) / h, the quadrature point q_a, and the velocity the Rayleigh force is
  // taken at (v, or v_k = M^-1 p_k for the explicit alpha = 0).
  VecX v, q_a, damped_velocity;
  const SpMat* D = nullptr;
  if (m_alpha == 0.0) {
    q_a = state.q;
    damped_velocity = state.v;
  } else if (m_alpha == 1.0) {
    v = state.v;  // M v = p_k
    q_a = state.q + h * v;
    damped_velocity = v;
  } else {
    if (const Status s = solve_implicit(model, state, h, q_a, stats); s != Status::kSuccess)
      return s;
    v = (q_a - state.q) / (m_alpha * h);
    damped_velocity = v;
    D = &m_stage_solver.damping_matrix();  // the D the minimization used
  }
  // impulse = h (dW/dq(q_a) + D v): the step's total force impulse.
  VecX impulse;
  model.potential_gradient(q_a, impulse);
  if (model.has_damping()) {
    if (!D) D = &m_mass.damping(model, state.q);
    impulse += *D * damped_velocity;
  }
  impulse *= h;
  if (m_alpha == 0.0) {
    VecX dv;  // M v = p_k - impulse
    if (const Status s = m_mass.solve_mass(model, impulse, dv, stats); s != Status::kSuccess)
      return s;
    v = state.v - dv;
  }
  // p_{k+1} = p_k - impulse + F_damp (re-injected), or M v - alpha impulse (Eq. 3.11) + F_damp.
  // F_damp: the explicit form's F^{d+} = F_dampExp(q_k, q_{k+1}) (thesis Sec. 3.2.9; F^{d+-} is
  // a step's total forcing, Sec. 3.2.6: the impulse as defined, not multiplied by h), or the
  // implicit form's F^{d-}, which M v already holds and only the re-injected update adds.
  const bool reinject = m_settings.reinject_residual;
  VecX p_next = reinject ? VecX(model.apply_mass(state.v) - impulse)
                         : VecX(model.apply_mass(v) - m_alpha * impulse);
  if (m_settings.viscous_k_d > 0.0 && (reinject || !m_settings.viscous_implicit))
    p_next += viscous_impulse(model, m_settings.viscous_k_d, state.q, state.q + h * v);
  VecX v_next;
  if (const Status s = m_mass.solve_mass(model, p_next, v_next, stats); s != Status::kSuccess)
    return s;
  if (!v_next.allFinite() || !v.allFinite()) return Status::kNumericalIssue;
  remember_step(v, q_a);
  state.q += h * v;
  state.v = std::move(v_next);
  state.t += h;
  return Status::kSuccess;
}

void VariationalAlpha::remember_step(const VecX& v, const VecX& q_a) {
  m_last_v = v;
  m_last_q_a = q_a;
}

double VariationalAlpha::discrete_energy(const Model& model) const {
  // L_d = (h/2) v^T M v - h W(q_a) with q_a = q_k + alpha h v: -dL_d/dh at fixed q_k, q_k+1.
  if (m_last_v.size() == 0) return std::numeric_limits<double>::quiet_NaN();
  return 0.5 * m_last_v.dot(model.apply_mass(m_last_v)) + model.potential_energy(m_last_q_a);
}

}  // namespace simrun
