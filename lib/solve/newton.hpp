#pragma once
/// Projected Newton with backtracking line search for min_x Phi(x) (incremental potentials).
#include "core/status.hpp"
#include "core/types.hpp"
#include "solve/linear_solver.hpp"

namespace simrun {

/// The function being minimized. The Hessian must be symmetric positive (semi)definite where the
/// caller wants Newton directions (terms project their element Hessians when asked).
class NewtonObjective {
 public:
  virtual ~NewtonObjective() = default;
  virtual double value(const VecX& x) = 0;
  virtual void gradient(const VecX& x, VecX& g) = 0;
  /// Fills H (the same sparsity pattern every call, so symbolic analysis is reused).
  virtual void hessian(const VecX& x, SpMat& H) = 0;
  /// The norm used for the convergence test; by default the 2-norm of the gradient.
  virtual double residual_norm(const VecX& g) const { return g.norm(); }
};

struct NewtonSettings {
  double tolerance = 1e-6;    ///< converged when residual_norm(g) <= tolerance
  double step_tolerance = 0;  ///< or when max|dx| <= step_tolerance (0 disables)
  int max_iterations = 20;
  bool line_search = true;  ///< backtracking (Armijo) on Phi; off = full Newton steps
  int max_line_search_steps = 30;
  double armijo = 1e-4;  ///< sufficient decrease constant c1
};

struct NewtonStats {
  Status status = Status::kSuccess;
  int iterations = 0;         ///< Newton iterations (Hessian solves)
  int line_search_steps = 0;  ///< step halvings over all iterations
  double residual = 0.0;      ///< residual_norm at exit
};

/// Minimizes `objective` from the initial guess x (overwritten with the result).
/// Each iteration: g = grad Phi(x); stop with kSuccess when residual_norm(g) <= tolerance;
/// dx = -H^{-1} g. When the factorization fails or dx is not a descent direction
/// (g.dot(dx) >= 0), dx falls back to Jacobi-scaled steepest descent dx_i = -g_i / |H_ii|, a
/// descent direction with displacement units, so an indefinite Hessian slows Newton down
/// instead of aborting the time step. A Newton step with max|dx| <= step_tolerance ends with
/// kSuccess (x is left before that step). Line search: alpha = 1, 1/2, 1/4, ... until
/// Phi(x + alpha dx) <= Phi(x) + armijo alpha g.dx (up to a 16 ulp noise floor on Phi);
/// more than max_line_search_steps halvings -> kNotConverging. Non-finite g or Phi(x) ->
/// kNumericalIssue; a non-finite trial Phi only shortens the step. max_iterations reached ->
/// kNotConverging. stats.residual is the residual of the returned x.
/// `hessian_workspace`, when given, holds the Hessian between calls so its pattern is not
/// reallocated (and copied) for every minimization.
NewtonStats newton_minimize(NewtonObjective& objective, VecX& x, LinearSolver& solver,
                            const NewtonSettings& settings, SpMat* hessian_workspace = nullptr);

}  // namespace simrun
