#pragma once
/// Kharevych's time-adaptive variational integrators (thesis Secs. 3.3-3.4)
/// in position-momentum form. The scene's dt is the fixed "fictitious" step h; each step takes
/// the real step dt_k+1 = t_k+1 - t_k = h sigma(q_k, q_k+1) (Eq. 3.22) and sets state.t itself.
/// The state is (q_k, p_k) with State::v = M^-1 p_k, as for the fixed-step variational
/// integrators. With L the quadrature Lagrangian (integrate/adaptive_lagrangian.hpp) and
/// sigma_a, sigma_b the derivatives of sigma(q_k, q_k+1) in its two slots, a step solves for
/// (q_k+1, dt, lambda_k):
///   p_k = -D1 L(q_k, q_k+1, dt) + h lambda_k sigma_a          (Eq. 3.25, split at q_k)
///   dt  = h sigma(q_k, q_k+1)                                 (Eq. 3.27)
///   lambda_k = E_k+1 - E_1                                    (Eq. 3.26, summed)
/// and sets p_k+1 = D2 L(q_k, q_k+1, dt) - h lambda_k sigma_b. Eq. 3.25 is exactly "the p_k+1
/// of one step is the p_k of the next"; the h on the lambda terms is Eq. 3.25's (the thesis'
/// examples drop it). lambda's off-by-one (Sec. 3.3.3, after Eq. 3.27): the thesis bootstraps with
/// lambda_0 = 0, and its recursion lambda_k = lambda_k-1 + E_k+1 - E_k then gives
/// lambda_k = E_k+1 - E_1 (not E_k+1 - E_0 as the text says). Here the first step is solved with
/// lambda_0 = 0, its discrete energy E_1 = E(q_0, q_1, dt_1) becomes the reference, and
/// lambda_k = E_k+1 - E_1 after: the recursion's convention.
///
/// Schemes: "symplectic" as above. "naive" (Sec. 3.3.2) and "reversible" (Eqs. 3.30-3.32) drop
/// lambda: the usual variational update p_k = -D1 L with dt = h sigma; with sigma at q_k
/// ("start") and an explicit left force (verlet, symplectic_euler) that is an explicit step
/// (Skeel's naive Verlet), otherwise q_k+1 and dt are solved together. "reversible" is the same
/// with a symmetric sigma (at the midpoint) and a symmetric Lagrangian (Eq. 3.29), which makes
/// the update time-reversible: from (q_k+1, -p_k+1) it steps back to (q_k, -p_k).
///
/// The implicit steps solve the n + 2 (n + 1 without lambda) equations by Newton with a dense
/// LU (Eigen::PartialPivLU) of the Jacobian, in which, as the thesis does (Sec. 3.3.7), the
/// second derivatives of sigma (h lambda d sigma_a / d q_k+1) are dropped: lambda is O(h^2),
/// so Newton still converges, linearly at a small rate. The Jacobian is non-symmetric. Dense
/// means small systems (the thesis' point masses and springs); adaptive_dense_dof_limit() caps
/// the free DOFs the scene builder accepts for implicit adaptive steps.
///
/// Forces (Sec. 3.3.5, Lagrange-d'Alembert with time variations): Rayleigh damping F = -D v,
/// D = alpha M + beta K frozen at q_k, with v = (q_k+1 - q_k) / dt, split between the slots by
/// the quadrature's weights, F- = -c D v and F+ = -(1 - c) D v with c = sum_i w_i (1 - alpha_i)
/// (the fixed-step variational integrators' split). Eq. 3.25 gains the impulses dt F-, dt F+:
///   p_k = -D1 L + h lambda_k sigma_a - dt F-,      p_k+1 = D2 L - h lambda_k sigma_b + dt F+
/// (dt F- = -c D (q_k+1 - q_k): independent of dt), and Eq. 3.26 the work of the forces,
///   lambda_k = lambda_k-1 + (E_k+1 - E_k) - F+_k-1,k . (q_k - q_k-1) - F-_k,k+1 . (q_k+1 - q_k),
/// summed: lambda_k = E_k+1 - E_1 - W_k, W_k the work since the reference (the first step's F-
/// is before it). So lambda stays near 0 while damping removes energy. A damped step is always
/// implicit. The Kharevych viscous damping, moving boundaries and time-dependent loads are
/// refused by the scene checks.
#include <memory>

#include "integrate/acceleration.hpp"
#include "integrate/adaptive_lagrangian.hpp"
#include "integrate/adaptive_settings.hpp"
#include "integrate/adaptive_sigma.hpp"
#include "integrate/integrator.hpp"

namespace simrun {

class AdaptiveVariational final : public Integrator {
 public:
  /// `type`: the fixed-step integrator whose Lagrangian is used (AdaptiveLagrangian).
  AdaptiveVariational(std::string_view type, const IntegratorSettings& integrator,
                      const AdaptiveSettings& adaptive);
  std::string_view name() const override { return m_name; }
  /// `h` is the fictitious step; advances state.t by h sigma.
  Status step(Model& model, State& state, double h, StepStats& stats) override;
  std::string failure_detail() const override { return m_failure; }
  IntegratorHistory history() const override;
  void restore_history(const IntegratorHistory& history) override;

  /// True when a step solves a dense system (not the explicit naive update); `damped`: the
  /// model has Rayleigh damping (always implicit).
  bool implicit(bool damped = false) const;
  /// lambda_k of the last step (0 for naive / reversible, and for the first step).
  double lambda() const { return m_lambda; }
  /// The last step's real size t_k+1 - t_k and discrete energy E_k+1 = -D3 L.
  double last_step() const { return m_last_dt; }
  double discrete_energy() const { return m_last_energy; }
  bool has_discrete_energy() const override { return true; }
  double discrete_energy(const Model& /*model*/) const override {
    return m_steps > 0 ? m_last_energy : std::numeric_limits<double>::quiet_NaN();
  }
  /// E_1, the energy lambda is measured from (NaN before the first step).
  double reference_energy() const { return m_reference_energy; }
  /// W_k: the work of the damping forces counted into lambda so far (<= 0).
  double force_work() const { return m_work; }
  int last_iterations() const { return m_last_iterations; }

 private:
  /// sigma at (a, b) per settings.sigma_at, and the slot weights of its gradient.
  VecX sigma_point(const VecX& a, const VecX& b) const;
  Status explicit_step(Model& model, const VecX& a, const VecX& p, double h, VecX& b, double& dt);
  Status implicit_step(Model& model, const VecX& a, const VecX& p, double h, VecX& b, double& dt,
                       double& lambda, const MatX& D);

  std::string m_name;
  AdaptiveSettings m_settings;
  AdaptiveLagrangian m_lagrangian;
  std::unique_ptr<SigmaRule> m_sigma;
  double m_weight_a = 1.0, m_weight_b = 0.0;  ///< sigma's point = w_a q_k + w_b q_k+1
  bool m_with_lambda = false;
  AccelerationSolver m_mass;
  long m_steps = 0;
  double m_lambda = 0.0;
  double m_reference_energy;
  double m_initial_energy = 0.0;
  double m_work = 0.0;  ///< W_k above
  double m_last_dt = 0.0, m_last_energy = 0.0;
  int m_last_iterations = 0;
  std::string m_failure;
};

/// Whether fixed-step integrator `type` takes "time.adaptive".
bool accepts_adaptive(std::string_view type);
/// The largest free-DOF count for implicit adaptive steps (dense LU).
int adaptive_dense_dof_limit();

}  // namespace simrun
