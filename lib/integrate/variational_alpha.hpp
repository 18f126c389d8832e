#pragma once
/// Variational integrators of the one-point quadrature discrete Lagrangian (Kharevych thesis
/// Sec. 3.2.3, Eq. 3.4; Secs. 3.2.5-3.2.9)
///   L_d(q_k, q_{k+1}) = (h/2) v^T M v - h W(q_a),   v = (q_{k+1} - q_k)/h,
///   q_a = (1 - alpha) q_k + alpha q_{k+1} = q_k + alpha h v,
/// in position-momentum form (discrete Hamilton-Pontryagin, Eqs. 3.9-3.13): the state is
/// (q_k, p_k), kept in State as q and v = M^-1 p_k, so energy.csv's momentum columns (M v) are
/// the Pontryagin momentum p_k the thesis' conservation laws are about (Sec. 3.2.12). A step:
///   M v + (1 - alpha) h (dW/dq(q_a) + D v) = p_k            (forced DEL, F^{d-})
///   q_{k+1} = q_k + h v
///   p_{k+1} = p_k - h (dW/dq(q_a) + D v)                     (= M v - alpha h (...), F^{d+})
/// Rayleigh damping -D v enters by the discrete Pontryagin-d'Alembert principle (Eq. 3.13) with
/// the quadrature's weights: F^{d-} = -(1 - alpha) h D v, F^{d+} = -alpha h D v, D frozen at
/// q_k. For 0 < alpha < 1 the first line is the stationarity condition of the thesis' "Lilyan"
/// (Eq. 3.17; Sec. 3.2.8's example is alpha = 1/2), minimized over x = q_a by the shared projected
/// Newton with line search (integrate/implicit_stage.hpp): multiplied by alpha / (1 - alpha),
///   Phi(x) = |x - (q_k + alpha h M^-1 p_k)|_M^2 / (2 alpha (1 - alpha) h^2) + W(x)
///            + |x - q_k|_D^2 / (2 alpha h),
/// i.e. a stage with tau = sqrt(alpha (1 - alpha)) h and sigma = alpha h. alpha = 1/2 is the
/// variational midpoint rule (second order, symmetric; for linear elasticity the energy
/// 1/2 p^T M^-1 p + W(q) is conserved exactly); other alpha are first order. alpha = 1 and
/// alpha = 0 are explicit (the two symplectic Euler methods); at alpha = 0 the damping impulse
/// is taken at v_k = M^-1 p_k instead of v (keeping the step explicit).
///
/// The momentum update uses the force at the solution, p_{k+1} = p_k - h (...), which is the
/// thesis' residual re-injection (Sec. 3.2.11: the Lilyan's residual r at the returned v is
/// carried into p_{k+1} = M v - alpha h (...) - r): internal forces sum to zero, so linear
/// momentum is kept to round-off however loose the Newton tolerance. "reinject_residual": false
/// gives the plain update p_{k+1} = M v - alpha h (...) (the same step when Newton converged).
///
/// With settings.viscous_k_d > 0 the Kharevych visco-elastic damping impulse
/// F_dampExp(q_k, q_{k+1}) = -k_D grad W_d(q_k, q_{k+1}) (model/viscous_damping.hpp) is this
/// interval's F^{d+}, added to p_{k+1}: torque-free about q_{k+1}, so momentum is kept.
///
/// Linear elasticity (every term quadratic, constant damping, no viscous damping; thesis
/// Sec. 3.4.2, the update above Eq. 3.33): with g(q) = g_ref + K (q - q_ref) the first line is
/// linear, [M + (1 - alpha) h D + alpha (1 - alpha) h^2 K] v = M v_k - (1 - alpha) h g(q_k),
/// factorized once (M + h^2/4 K for the midpoint), two products with K and one back-solve per
/// step; then p_{k+1} = (M v - alpha p_k) / (1 - alpha), i.e. v_{k+1} = (v - alpha v_k) /
/// (1 - alpha) with no mass solve.
/// With settings.viscous_implicit (0 < alpha < 1) it is instead the thesis' integrable
/// F_dampImpApprox(q_k, v) = -k_D grad_b W_d(q_k, q_k + h v) as F^{d-}, inside the first line,
/// i.e. (k_D / h) W_d(q_k, q_k + h v) added to the Lilyan (Sec. 3.2.9): in x = q_a,
/// c W_d(q_k, q_k + (x - q_k) / alpha) with c = alpha / (1 - alpha) k_D / h. It sums to zero
/// (linear momentum kept) but is torque-free about q_{k+1}, not q_k: angular momentum is not
/// exactly kept (the thesis: its oscillations stay bounded).
#include "core/symmetric_product.hpp"
#include "integrate/acceleration.hpp"
#include "integrate/implicit_stage.hpp"

namespace simrun {

class VariationalAlpha final : public ImplicitIntegrator {
 public:
  /// `name` is the registered name ("variational_midpoint" fixes alpha = 1/2).
  VariationalAlpha(const IntegratorSettings& settings, double alpha, std::string_view name);
  std::string_view name() const override { return m_name; }

 protected:
  Status attempt(Model& model, State& state, double h, StepStats& stats) override;

 public:
  /// E_d(q_k, q_k+1) = -dL_d/dh = 1/2 v^T M v + W(q_a) of the last step (the energy the
  /// discrete Lagrangian's time invariance defines: thesis Sec. 3.2.12, Eq. 3.26's E_k).
  bool has_discrete_energy() const override { return true; }
  double discrete_energy(const Model& model) const override;

 private:
  /// The last step's v = (q_k+1 - q_k) / h and quadrature point q_a, for discrete_energy().
  void remember_step(const VecX& v, const VecX& q_a);
  VecX m_last_v, m_last_q_a;

  /// The Lilyan minimization for 0 < alpha < 1: q_a into x.
  Status solve_implicit(Model& model, const State& state, double h, VecX& x, StepStats& stats);
  /// The linear-elasticity step (0 < alpha < 1, quadratic model, constant damping).
  Status linear_step(Model& model, State& state, double h, StepStats& stats);

  double m_alpha;
  std::string m_name;
  AccelerationSolver m_mass;  ///< M^-1 p, and D at q_k for the explicit alphas
  ImplicitStageSolver m_stage_solver;
  // The linear path's prefactored matrix and K, kept while h, the pattern and the potential
  // (prescribed positions, loads) are unchanged: g(q) = g_ref + K (q - q_ref).
  std::unique_ptr<LinearSolver> m_linear_solver;
  SymmetricOperator m_K;
  double m_linear_h = 0.0;
  long m_linear_pattern = -1, m_linear_potential = -1;
  VecX m_q_ref, m_g_ref;
};

}  // namespace simrun
