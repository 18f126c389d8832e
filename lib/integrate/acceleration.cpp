#include "integrate/acceleration.hpp"

#include "core/pattern_algebra.hpp"
#include "solve/solver_meter.hpp"

namespace simrun {

AccelerationSolver::AccelerationSolver(const LinearSolverFactory& make_solver)
    : m_solver(make_solver()) {}

Status AccelerationSolver::refresh(Model& model, StepStats& stats) {
  const SpMat& M = model.mass();
  if (m_factored && same_matrix(M, m_mass)) {
    return Status::kSuccess;
  }
  const SolverMeter meter(*m_solver, stats);
  const Status status = m_solver->factorize(M);
  m_factored = status == Status::kSuccess;
  if (m_factored) m_mass = M;
  return status;
}

const SpMat& AccelerationSolver::damping(Model& model, const VecX& q) {
  model.damping_matrix_at(q, /*project_psd=*/false, m_K, m_D);
  return m_D;
}

Status AccelerationSolver::solve_mass(Model& model, const VecX& b, VecX& x, StepStats& stats) {
  if (model.mass_is_lumped()) {
    // Diagonal M: no factorization (it would be a full supernodal solve in the K pattern).
    x = b.cwiseQuotient(model.lumped_mass());
    return x.allFinite() ? Status::kSuccess : Status::kNumericalIssue;
  }
  if (const Status s = refresh(model, stats); s != Status::kSuccess) return s;
  const SolverMeter meter(*m_solver, stats);
  m_solver->solve(b, x);
  return x.allFinite() ? Status::kSuccess : Status::kNumericalIssue;
}

Status AccelerationSolver::evaluate(Model& model, const VecX& q, const VecX& v, VecX& a,
                                    StepStats& stats) {
  VecX f;
  model.potential_gradient(q, f);
  f = -f;
  if (model.has_damping()) f -= damping(model, q) * v;
  return solve_mass(model, f, a, stats);
}

}  // namespace simrun
