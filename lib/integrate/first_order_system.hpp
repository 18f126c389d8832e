#pragma once
/// The first-order form u = [q; v], du/dt = F(u) = [v; M^-1 f(q, v)], f = -dU/dq - D v, that the
/// exponential integrators work on (Chen thesis eq. 2.6; survey eq. 4), with its Jacobian at u_n,
///   J = [[0, I], [-M^-1 K, -M^-1 D]]     (K = K(q_n) unprojected: J tolerates indefinite K),
/// and the solve with (I - tau J) (Chen thesis Eq. 6.8's I - hJ) through the Schur complement:
///   (M + tau D + tau^2 K) y_v = M r_v - tau K r_q,   y_q = r_q + tau y_v.
/// Vectors are over free DOFs, stacked [q-part; v-part] (2n).
#include <memory>

#include "core/step_stats.hpp"
#include "core/symmetric_product.hpp"
#include "integrate/integrator.hpp"
#include "solve/linear_solver.hpp"

namespace simrun {

/// K, D and f at one state, and the products the exponential integrators take with them.
class FirstOrderSystem {
 public:
  /// project_damping: with "current" Rayleigh damping, D = alpha M + beta K(q) uses the
  /// PSD-projected K(q) (an indefinite D would feed energy in); J's own K stays unprojected.
  FirstOrderSystem(const LinearSolverFactory& make_solver, bool project_damping);

  /// Assembles K(q) (unprojected), D (Rayleigh, rest or current stiffness) and
  /// f = -dU/dq(q) - D v. kNumericalIssue when f is not finite.
  Status linearize(Model& model, const State& state);

  int size() const { return static_cast<int>(m_f.size()); }
  const VecX& force() const { return m_f; }
  const SpMat& stiffness() const { return m_K; }
  bool damped() const { return m_damped; }
  const SpMat& damping() const { return m_D; }
  /// M x, K x, D x.
  VecX mass_times(const Model& model, const VecX& x) const { return model.apply_mass(x); }
  void stiffness_times(const VecX& x, VecX& y) const { symmetric_multiply(m_K, x, y); }
  void damping_times(const VecX& x, VecX& y) const;
  /// x = M^-1 b (lumped: a division; consistent: a kept Cholesky factorization of M).
  Status mass_solve(const Model& model, const VecX& b, VecX& x, StepStats& stats);
  /// y = J w on w = [w_q; w_v].
  void jacobian_times(const Model& model, const VecX& w, VecX& y, StepStats& stats);
  /// An estimate of |J|_inf from the lumped masses: max_i (sum_j |K_ij| + |D_ij|) / m_i, and 1
  /// for the identity block (Expokit only needs the order of magnitude).
  double jacobian_norm_estimate(const Model& model) const;

 private:
  std::unique_ptr<LinearSolver> m_mass_solver;
  SpMat m_factored_mass;        ///< the M the mass solver holds (consistent mass)
  SpMat m_K, m_D, m_projected;  ///< m_projected: K(q) projected, for current damping
  VecX m_f;
  bool m_damped = false;
  bool m_project_damping;
};

/// (I - tau J)^-1 for the J of a FirstOrderSystem, applied to [r_q; p_v] where p_v = M r_v is
/// given in momentum form (so that no M^-1 is needed): one factorization of M + tau D + tau^2 K.
/// Returns [y_q; y_v] in ordinary form.
class FirstOrderInverse final : public InverseOperator {
 public:
  explicit FirstOrderInverse(const LinearSolverFactory& make_solver);
  /// Factorizes M + tau D + tau^2 K for the system's current K and D (an LDL^T fallback takes
  /// an indefinite K). The caller meters solver() into its step's counters.
  Status factorize(const Model& model, const FirstOrderSystem& system, double tau);
  void solve(const VecX& b, VecX& x) override;
  void solve(const MatX& B, MatX& X) override;
  const LinearSolver& solver() const { return *m_solver; }
  /// The factorization of M + tau D + tau^2 K itself (SIERE's eigensolve shift-inverts with it).
  LinearSolver& factorized_solver() { return *m_solver; }

 private:
  std::unique_ptr<LinearSolver> m_solver;
  const FirstOrderSystem* m_system = nullptr;
  double m_tau = 0.0;
  SpMat m_S;
};

}  // namespace simrun
