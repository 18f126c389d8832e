#include "integrate/semi_implicit_euler.hpp"

namespace simrun {

SemiImplicitEuler::SemiImplicitEuler(const IntegratorSettings&) : m_solver(make_cholmod_solver()) {}

Status SemiImplicitEuler::step(const Model& model, State& state, double h, StepStats& stats) {
  const bool constant = model.is_quadratic() && model.damping_is_constant();
  if (!constant || !m_factored || h != m_factored_h) {
    model.stiffness(state.q, m_K, /*project_psd=*/false);
    model.damping_matrix(m_K, m_D);
    const Eigen::Index nnz = m_K.nonZeros();
    m_system = m_K;
    m_velocity_matrix = m_K;
    Eigen::Map<VecX> a(m_system.valuePtr(), nnz), b(m_velocity_matrix.valuePtr(), nnz);
    const Eigen::Map<const VecX> k(m_K.valuePtr(), nnz), d(m_D.valuePtr(), nnz),
        m(model.mass().valuePtr(), nnz);
    a = m + h * d + h * h * k;
    b = d + h * k;
    const int fallbacks_before = m_solver->stats().ldlt_fallbacks;
    const Status status = m_solver->factorize(m_system);
    ++stats.factorizations;
    stats.ldlt_fallbacks += m_solver->stats().ldlt_fallbacks - fallbacks_before;
    if (status != Status::kSuccess) {
      m_factored = false;
      return status;
    }
    m_factored = true;
    m_factored_h = h;
  }
  VecX g;
  model.potential_gradient(state.q, g);
  const VecX rhs = h * (-g - m_velocity_matrix * state.v);
  VecX dv;
  m_solver->solve(rhs, dv);
  ++stats.solves;
  if (!dv.allFinite()) return Status::kNumericalIssue;
  state.v += dv;
  state.q += h * state.v;
  state.t += h;
  return Status::kSuccess;
}

}  // namespace simrun
