#pragma once
/// The one Newton solver shared by every implicit stage (Ascher et al. survey, Sec. 3.3, Eqs.
/// 13-14, carried over there to trapezoidal and DIRK stages). A stage u_s = a + tau F(u_s), i.e.
///   q_s = a_q + tau v_s,   M (v_s - a_v) = tau (f(q_s) - D v_s),
/// is the stationarity condition of the incremental potential over x = q_s
///   Phi(x) = 1/(2 tau^2) |x - p|_M^2 + U(x) + 1/(2 sigma) |x - c|_D^2
/// with p = a_q + tau a_v (inertial prediction), c = a_q and sigma = tau (recipe_stage()).
/// Newmark / generalized-alpha map onto the same Phi with other p, c, tau, sigma (newmark.cpp).
/// D is frozen over the step (survey Sec. 3.3: "freezing D"), evaluated by begin_step().
#include "integrate/integrator.hpp"

namespace simrun {

/// An extra potential of a stage's unknown x, added to Phi: the variational integrators'
/// implicit visco-elastic damping (integrate/variational_alpha.hpp). Its Hessian goes into the
/// model's shared pattern (the H that Model::stiffness fills).
class StageTerm {
 public:
  virtual ~StageTerm() = default;
  virtual double value(const VecX& x) const = 0;
  virtual void add_gradient(const VecX& x, VecX& g) const = 0;
  virtual void add_hessian(const VecX& x, SpMat& H, bool project_psd) const = 0;
};

struct ImplicitStage {
  VecX predicted;                    ///< p [m]
  double tau = 0.0;                  ///< effective step of the inertia term [s]
  VecX damping_anchor;               ///< c: the damping force is -D (x - c) / sigma
  double damping_tau = 0.0;          ///< sigma [s]
  const StageTerm* extra = nullptr;  ///< added to Phi when set
  /// The step's start q_n (a feasible state) when set: a guess that a term's
  /// max_feasible_step forbids (a predictor through a contact) is pulled back along the segment
  /// from it (IPC: every iterate stays intersection-free).
  VecX start;
};

/// The recipe's stage for q = a_q + tau v, M (v - a_v) = tau (f - D v).
ImplicitStage recipe_stage(const VecX& a_q, const VecX& a_v, double tau);

class ImplicitStageSolver {
 public:
  explicit ImplicitStageSolver(const IntegratorSettings& settings);

  /// Freezes D for the step starting at q (rest stiffness, or K(q) for "current" damping) and
  /// forgets any factorization kept for reuse, unless settings.reuse_across_steps carries it
  /// into this step.
  void begin_step(Model& model, const VecX& q);
  /// D as begin_step() froze it (empty without damping).
  const SpMat& damping_matrix() const { return m_D; }

  /// Full (projected) Newton on Phi from the guess x (overwritten). Converged when the stage's
  /// velocity residual tau |M_lumped^-1 grad Phi| <= tolerance (thesis Ch. 4 residual, the
  /// BE special case being |v - v_n - h M^-1 f|) or a Newton update moves x by <= tau * tolerance.
  /// With step_halving, a residual that has not decreased after 3 iterations returns
  /// kNotConverging at once so that the caller halves the step (thesis Ch. 4).
  Status solve(Model& model, const ImplicitStage& stage, VecX& x, StepStats& stats);

  /// Like solve(), but with the Hessian factorized once and kept for later stages of the same
  /// step with the same tau and sigma (simplified Newton; SDIRK's shared stage matrix, survey
  /// Sec. 3.1). For quadratic U this is exact Newton. Falls back to solve() if the frozen
  /// iteration does not converge within newton.max_iterations (every frozen iteration counts).
  Status solve_reusing_factorization(Model& model, const ImplicitStage& stage, VecX& x,
                                     StepStats& stats);

  /// Exactly one Newton step with U replaced by its quadratic model at q_lin (unprojected K):
  /// the semi-implicit ("S") version of a stage (survey Sec. 3.1 "S-prefix"; SBDF2, eq. 22 G = 0).
  Status solve_linearized(Model& model, const ImplicitStage& stage, const VecX& q_lin, VecX& x,
                          StepStats& stats);

 private:
  IntegratorSettings m_settings;
  std::unique_ptr<LinearSolver> m_solver;
  SpMat m_D, m_K;
  NewtonWorkspace m_newton;  ///< Hessian storage; `factorized` marks a reusable factorization
  double m_factor_tau = 0.0, m_factor_sigma = 0.0;
  long m_factor_pattern = -1;  ///< model pattern of the kept factorization
};

/// Base of the Newton-based integrators: step() takes the step with attempt() and, with
/// settings.step_halving, retakes a failed step as two half steps, recursively up to
/// settings.max_halvings levels (Chen thesis Ch. 4 numerical continuation).
class ImplicitIntegrator : public Integrator {
 public:
  explicit ImplicitIntegrator(const IntegratorSettings& settings) : m_settings(settings) {}
  Status step(Model& model, State& state, double h, StepStats& stats) final;

 protected:
  /// One step of size h; on failure leaves state (and any history) unchanged.
  virtual Status attempt(Model& model, State& state, double h, StepStats& stats) = 0;
  IntegratorSettings m_settings;

 private:
  Status step_recursive(Model& model, State& state, double h, int depth, StepStats& stats);
};

}  // namespace simrun
