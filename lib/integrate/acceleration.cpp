#include "integrate/acceleration.hpp"

namespace simrun {

AccelerationSolver::AccelerationSolver() : m_solver(make_cholmod_solver()) {}

Status AccelerationSolver::refresh(const Model& model, StepStats& stats) {
  const SpMat& M = model.mass();
  const Eigen::Map<const VecX> values(M.valuePtr(), M.nonZeros());
  if (m_factored && m_mass_values.size() == values.size() && m_mass_values == values) {
    return Status::kSuccess;
  }
  const Status status = m_solver->factorize(M);
  ++stats.factorizations;
  m_factored = status == Status::kSuccess;
  if (m_factored) m_mass_values = values;
  return status;
}

const SpMat& AccelerationSolver::damping(const Model& model, const VecX& q) {
  model.damping_matrix_at(q, /*project_psd=*/false, m_K, m_D);
  return m_D;
}

Status AccelerationSolver::solve_mass(const Model& model, const VecX& b, VecX& x,
                                      StepStats& stats) {
  if (model.mass_is_lumped()) {
    // Diagonal M: no factorization (it would be a full supernodal solve in the K pattern).
    x = b.cwiseQuotient(model.lumped_mass());
    return x.allFinite() ? Status::kSuccess : Status::kNumericalIssue;
  }
  if (const Status s = refresh(model, stats); s != Status::kSuccess) return s;
  m_solver->solve(b, x);
  ++stats.solves;
  return x.allFinite() ? Status::kSuccess : Status::kNumericalIssue;
}

Status AccelerationSolver::evaluate(const Model& model, const VecX& q, const VecX& v, VecX& a,
                                    StepStats& stats) {
  VecX f;
  model.potential_gradient(q, f);
  f = -f;
  if (model.has_damping()) f -= damping(model, q) * v;
  return solve_mass(model, f, a, stats);
}

}  // namespace simrun
