#include "integrate/semi_implicit_euler.hpp"

#include "core/parallel.hpp"
#include "core/pattern_algebra.hpp"
#include "core/symmetric_product.hpp"
#include "solve/solver_meter.hpp"

namespace simrun {

SemiImplicitEuler::SemiImplicitEuler(const IntegratorSettings& settings)
    : m_solver(settings.linear_solver()) {}

Status SemiImplicitEuler::refactor(Model& model, const State& state, double h, bool constant) {
  model.stiffness(state.q, m_K, /*project_psd=*/false);
  // Peak memory matters on large meshes: D only with damping, and M + h D + h^2 K is built in
  // the storage of K once the operator applied every step has its copy.
  SpMat D;
  if (model.has_damping()) model.damping_matrix(m_K, D);
  if (constant) {
    m_product.assign(m_K, thread_count());
  } else {
    SpMat velocity_matrix = m_K;  // D + h K
    Eigen::Map<VecX>(velocity_matrix.valuePtr(), velocity_matrix.nonZeros()) *= h;
    if (model.has_damping()) add_scaled(velocity_matrix, 1.0, D);
    m_product.assign(velocity_matrix, thread_count());
  }
  SpMat& system = m_K;  // M + h D + h^2 K, in place
  Eigen::Map<VecX>(system.valuePtr(), system.nonZeros()) *= h * h;
  add_scaled(system, 1.0, model.mass());
  if (model.has_damping()) add_scaled(system, h, D);
  m_pattern_version = model.pattern_version();
  m_has_reference = false;
  const Status status = m_solver->factorize(system);
  if (constant) m_K = SpMat();  // factorized once: only the operator copy is needed
  m_factored = status == Status::kSuccess;
  m_factored_h = h;
  m_factored_constant = constant;  // m_product is K (constant path) or D + h K
  return status;
}

Status SemiImplicitEuler::step(Model& model, State& state, double h, StepStats& stats) {
  model.refresh_pattern();  // a term's new stencils invalidate a kept factorization
  const bool constant = model.is_quadratic() && model.damping_is_constant();
  const SolverMeter meter(*m_solver, stats);
  if (!constant || !m_factored || h != m_factored_h || !m_factored_constant ||
      m_pattern_version != model.pattern_version()) {
    if (const Status s = refactor(model, state, h, constant); s != Status::kSuccess) return s;
  }
  if (constant) {
    // Quadratic U with the prescribed boundary and loads unchanged since q_ref: the force is
    // affine, g(q) = g_ref + K (q - q_ref), and with D = alpha M + beta K the right-hand side
    //   h (-g - D v - h K v) = -h (g_ref + K (q - q_ref + (beta + h) v) + alpha M v)
    // costs one product with K (no element loop), plus a diagonal one for lumped M.
    if (!m_has_reference || m_potential_version != model.potential_version()) {
      model.potential_gradient(state.q, m_g_ref);
      m_q_ref = state.q;
      m_potential_version = model.potential_version();
      m_has_reference = true;
    }
    const RayleighDamping& damping = model.damping();
    m_work = state.q - m_q_ref + (damping.stiffness + h) * state.v;
    m_product.multiply(m_work, m_rhs);
    if (damping.mass != 0.0) m_rhs += damping.mass * model.apply_mass(state.v);
  } else {
    model.potential_gradient(state.q, m_g_ref);
    m_product.multiply(state.v, m_rhs);
  }
  m_rhs = -h * (m_rhs + m_g_ref);
  m_solver->solve(m_rhs, m_dv);
  if (!m_dv.allFinite()) return Status::kNumericalIssue;
  state.v += m_dv;
  state.q += h * state.v;
  state.t += h;
  return Status::kSuccess;
}

}  // namespace simrun
