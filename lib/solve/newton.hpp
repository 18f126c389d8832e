#pragma once
/// Newton's method for the implicit stages: minimization of an incremental potential Phi with a
/// backtracking line search, or (NewtonMode::kResidual) Newton on a residual r(x) = 0 with a
/// merit-function line search for forces that have no potential (EigenFit's corrected force,
/// non-integrable damping). The only Newton iteration in simrun: every integrator reaches it
/// through integrate/implicit_stage.
#include "core/status.hpp"
#include "core/types.hpp"
#include "solve/hessian_parts.hpp"
#include "solve/linear_solver.hpp"

namespace simrun {

/// Which Hessian Newton factorizes (scene "integrator.newton.projection").
enum class HessianProjection {
  kAlways,  ///< per-element PSD projection every iteration (robust; linear convergence near x*)
  kNever,   ///< the true Hessian (an indefinite one goes to the solver's LDL^T fallback)
  kAuto,    ///< the true Hessian while it is positive definite, the projected one otherwise
};

enum class NewtonMode {
  kMinimize,  ///< minimize value(); gradient() is its gradient
  kResidual,  ///< drive gradient() (a residual r) to zero; value() is not used
};

/// The function being minimized, or the residual being zeroed. value(x) must depend on x only
/// (the hooks may update caches, never the function).
class NewtonObjective {
 public:
  virtual ~NewtonObjective() = default;
  /// Phi(x) (minimization mode only).
  virtual double value(const VecX& x) = 0;
  /// grad Phi(x), or the residual r(x).
  virtual void gradient(const VecX& x, VecX& g) = 0;
  /// The Hessian of Phi (the Jacobian of r) into H, element-wise PSD-projected when `project`.
  /// Keeps H's pattern between calls when it can (symbolic analyses are reused).
  virtual void hessian(const VecX& x, SpMat& H, bool project) = 0;
  /// The same Hessian in parts (solve/hessian_parts.hpp), for solvers that ask for them
  /// (LinearSolver::uses_hessian_parts): fresh and, when it has a cubature rule,
  /// elastic_cubature at x; elastic_lagged only when refresh_elastic (else it is kept). False
  /// when the objective cannot split its Hessian (Newton then assembles it whole).
  virtual bool hessian_parts(const VecX& /*x*/, bool /*project*/, bool /*refresh_elastic*/,
                             HessianParts& /*parts*/) {
    return false;
  }
  /// The norm used for the convergence test; by default the 2-norm.
  virtual double residual_norm(const VecX& g) const { return g.norm(); }
  /// The scale of value(x)'s rounding error over eps (see EnergyTerm::energy_magnitude).
  virtual double value_magnitude(const VecX& x);
  /// Largest alpha in [0, 1] with x + s dx admissible for 0 <= s <= alpha (CCD, inversion).
  virtual double max_step(const VecX& /*x*/, const VecX& /*dx*/) { return 1.0; }
  /// False for an inadmissible trial point (the line search then shortens the step).
  virtual bool is_valid(const VecX& /*x*/) { return true; }
  /// Called with the start point of every line search, and with the point it accepted (or,
  /// when it found none, the start point again).
  virtual void begin_line_search(const VecX& /*x*/) {}
  virtual void end_line_search(const VecX& /*x*/) {}
  /// Called with the initial guess and every accepted iterate.
  virtual void on_iterate(const VecX& /*x*/) {}
};

struct NewtonSettings {
  double tolerance = 1e-6;    ///< converged when residual_norm(g) <= tolerance
  double step_tolerance = 0;  ///< or when max|dx| <= step_tolerance (0 disables)
  int max_iterations = 20;
  bool line_search = true;  ///< backtracking (Armijo) on Phi or on the merit; off = full steps
  int max_line_search_steps = 30;
  double armijo = 1e-4;  ///< sufficient decrease constant c1
  HessianProjection projection = HessianProjection::kAuto;
  NewtonMode mode = NewtonMode::kMinimize;
  /// Simplified Newton: factorize once (when the workspace holds no factorization yet) and
  /// solve with that factorization at every iteration. A direction that is not a descent
  /// direction then ends the solve with kNotConverging (the caller falls back to full Newton).
  bool reuse_factorization = false;
  /// Adaptive reuse (0 = off): solve with the factorization the workspace holds (from an
  /// earlier iteration or an earlier solve) as long as each such iteration shrinks the residual
  /// to at most this fraction of the last one; otherwise, or when it gives no descent
  /// direction, factorize afresh. Converges to the same tolerance as exact Newton, with fewer
  /// factorizations and usually more (cheaper) iterations.
  /// Adaptively kept iterations are not counted against max_iterations (each shrinks the
  /// residual, so they end), but at most 4 max_iterations iterations run in all; a kept
  /// factorization whose direction the line search rejects is replaced by a fresh one.
  double reuse_contraction = 0.0;
  /// Trusty et al.'s stop (Sec. 3.9, Alg. 1; 0 disables): after a step along dx is taken,
  /// converged when |d| <= direction_tolerance, with d the solver's subspace direction
  /// (LinearSolver::subspace_direction(), the multilevel solver's d_s) or dx for solvers without
  /// one, and |.| the direction_norm below over direction_count (|V|).
  double direction_tolerance = 0.0;
  enum class DirectionNorm {
    kL2OverCount,      ///< |d|_2 / |V| (the paper as printed)
    kL2OverSqrtCount,  ///< |d|_2 / sqrt(|V|) (an RMS per vertex, mesh-size independent)
    kInf,              ///< max |d_i| (IPC's own rule)
  } direction_norm = DirectionNorm::kL2OverCount;
  int direction_count = 1;
  /// With a solver that takes the Hessian in parts: when its elastic part is refreshed.
  ElasticLagSettings elastic_lag;
};

/// The norm of `d` that NewtonSettings::direction_norm names.
double direction_norm(const VecX& d, NewtonSettings::DirectionNorm norm, int count);

struct NewtonStats {
  Status status = Status::kSuccess;
  int iterations = 0;            ///< Newton iterations (linear solves)
  int line_search_steps = 0;     ///< step halvings over all iterations
  int projected_iterations = 0;  ///< iterations that used the PSD-projected Hessian
  int reused_iterations = 0;     ///< iterations that solved with a kept factorization
  double residual = 0.0;         ///< residual_norm at exit
  /// Wall seconds in the objective's calls (the linear solver times its own work): gradients
  /// (residuals) at accepted iterates, Hessian assemblies (projected ones included), and line
  /// searches (feasible-step limits, trial values or residuals, and the line-search hooks).
  double gradient_seconds = 0.0;
  double hessian_seconds = 0.0;
  double line_search_seconds = 0.0;
  /// Hessians in parts: refreshes of the lagged elastic Hessian, and the seconds of those
  /// refreshes and of the cubature assemblies (both also in hessian_seconds).
  int elastic_refreshes = 0;
  double elastic_refresh_seconds = 0.0;
  double cubature_seconds = 0.0;
};

/// What a Newton solve keeps between calls: the Hessian (its pattern is not reallocated) and
/// whether the solver holds a factorization that reuse_factorization may use.
struct NewtonWorkspace {
  SpMat H;
  bool factorized = false;
  HessianParts parts;     ///< the Hessian in parts (solvers that use them)
  ElasticLagTrigger lag;  ///< when parts.elastic_lagged is refreshed
};

/// The rounding-noise allowance of the Armijo test: energy changes within
/// kArmijoNoiseFactor * eps * value_magnitude(x) of the predicted decrease are accepted.
/// Measured on converged backward-Euler steps of a 1 m cantilever (linear, StVK, neo-Hookean):
/// the evaluation noise of U was at most 0.0064 times eps * energy_magnitude (and up to 390
/// times eps |U|), so a factor of 1 covers the difference of two noisy values many times over
/// while keeping the allowance as small as the bound allows.
inline constexpr double kArmijoNoiseFactor = 1.0;

/// Solves from the initial guess x (overwritten with the result; on failure x is the last
/// accepted iterate). Each iteration: g = gradient(x); stop with kSuccess when
/// residual_norm(g) <= tolerance; otherwise a direction dx = -H^{-1} g.
///
/// Minimization: when the factorization fails or dx is not a descent direction (g.dx >= 0),
/// dx falls back to Jacobi-scaled steepest descent dx_i = -g_i / |H_ii|, so an indefinite
/// Hessian slows Newton down instead of aborting the time step. A Newton step with
/// max|dx| <= step_tolerance is taken and ends with kSuccess. Line search: alpha starts at
/// min(1, max_step(x, dx)) and halves until x + alpha dx is valid and
/// Phi(x + alpha dx) <= Phi(x) + armijo alpha g.dx + noise, where noise covers Phi's rounding
/// error: 16 eps |Phi(x)|, or kArmijoNoiseFactor eps value_magnitude(x) when that is larger
/// (evaluated only when the first test fails). More than max_line_search_steps halvings ->
/// kNotConverging; non-finite g or Phi(x) -> kNumericalIssue; a non-finite trial Phi only
/// shortens the step.
///
/// Residual mode: dx = -J^{-1} r (J from hessian(x, J, false); the linear solvers read its lower
/// triangle, so J must be symmetric or a symmetric approximation), and the line search asks
/// m(x + alpha dx) <= (1 - 2 armijo alpha) m(x) for the merit m = residual_norm(r)^2 / 2.
///
/// max_iterations reached -> kNotConverging.
///
/// On return, x is the last accepted iterate: the converged point on kSuccess, the best point
/// reached on failure (never a rejected trial). stats.residual is residual_norm of the gradient
/// at the returned x, except after a step-tolerance exit, where it is the residual before that
/// final (negligible) Newton step.
NewtonStats newton_solve(NewtonObjective& objective, VecX& x, LinearSolver& solver,
                         const NewtonSettings& settings, NewtonWorkspace& workspace);

/// newton_solve with a workspace of its own (nothing kept between calls).
NewtonStats newton_minimize(NewtonObjective& objective, VecX& x, LinearSolver& solver,
                            const NewtonSettings& settings);

}  // namespace simrun
