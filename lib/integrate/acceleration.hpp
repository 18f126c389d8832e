#pragma once
/// a = M^-1 f_tot(q, v) = M^-1 (-dU/dq(q) - D v) for the explicit integrators and for the
/// explicit parts of trapezoidal / TR-BDF2 / SDIRK / generalized-alpha. M (lumped or
/// consistent) is factorized with CHOLMOD once and kept while the model's mass matrix is
/// unchanged (for lumped mass it is diagonal and the factorization is trivial).
#include "integrate/integrator.hpp"

namespace simrun {

class AccelerationSolver {
 public:
  explicit AccelerationSolver(const LinearSolverFactory& make_solver);
  /// a = M^-1 (-dU/dq(q) - D(q) v).
  Status evaluate(Model& model, const VecX& q, const VecX& v, VecX& a, StepStats& stats);
  /// x = M^-1 b.
  Status solve_mass(Model& model, const VecX& b, VecX& x, StepStats& stats);
  /// D at q (rest stiffness, or K(q) for "current" Rayleigh damping); zero pattern if undamped.
  const SpMat& damping(Model& model, const VecX& q);

 private:
  Status refresh(Model& model, StepStats& stats);
  std::unique_ptr<LinearSolver> m_solver;
  SpMat m_mass;  ///< the factorized M (to notice a different model or pattern)
  bool m_factored = false;
  SpMat m_D, m_K;
};

}  // namespace simrun
