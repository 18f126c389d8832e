#pragma once
/// IPC's lagged smoothed friction as an energy term (Li et al. 2020; Trusty et al. Eq. 2's D;
/// Ascher et al. survey, Sec. 5.2, Eqs. 32-34; issue 14 part 4):
///   D(x) = sum_k mu lambda_k f0(|T_k^T Gamma_k (x - x^n)|)
/// over the barrier's pairs closer than d_hat at the step's start x^n. The normal forces
/// lambda_k, the tangent bases T_k and the closest-point weights Gamma_k are lagged: computed in
/// begin_step(x^n) and held for the whole step (one lag update per step, the usual practical
/// choice; IPC allows more). The per-pair mathematics is in friction_pair.hpp.
///
/// Units: simrun's implicit stage adds the potential unscaled (not multiplied by h^2 as in IPC),
/// and the barrier's kappa is scaled by 1/h^2 to match (contact_barrier.hpp). So the barrier's
/// d(kappa b)/dd is a force [N], lambda_k is that force, D is an energy [J] and -grad D the
/// friction force [N]: mu lambda_k in sliding, opposing the tangential displacement over the
/// step. The sticking threshold is a displacement, s = eps_v h: the step h is the scene's dt
/// (given at construction), for BDF2 too (x - x^n over a step of length h is ~ h v, whereas
/// BDF2's stage tau = 2h/3 relates x to its predictor, not to x^n). Sub-steps of step halving
/// keep s = eps_v dt (a smaller threshold velocity is only a sharper smoothing).
#include <vector>

#include "contact/contact_barrier.hpp"
#include "contact/friction_pair.hpp"

namespace simrun {

struct FrictionSettings {
  double mu = 0.0;     ///< friction coefficient
  double epsv = 1e-3;  ///< smoothing velocity eps_v [m/s]
  double dt = 1e-2;    ///< the step h [s]: s = eps_v h
};

class FrictionTerm final : public EnergyTerm {
 public:
  /// barrier: the scene's contact term (must outlive this term); its pairs, kappa, d_hat and
  /// planes at x^n define the lagged quantities.
  FrictionTerm(const ContactBarrier& barrier, FrictionSettings settings);

  std::string name() const override { return "friction"; }
  double energy(const VecX& x) const override;
  void add_gradient(const VecX& x, VecX& g) const override;
  void bind(const SpMat& pattern, const DofMap& dofs) override;
  void add_hessian(const VecX& x, double* values, bool project_psd) const override;
  bool is_quadratic() const override { return false; }

  void begin_step(const VecX& x) override;
  void on_iterate(const VecX& x) override;
  /// Re-lags the normal forces, tangent bases and closest points at x (the displacement stays
  /// x - x^n); the scene's "lag_updates" extra solves.
  bool update_lagged(const VecX& x) override;
  void add_stencils(StencilList& stencils) const override;
  long pattern_version() const override { return m_pattern_version; }
  void add_step_stats(StepStats& stats) const override;

  const std::vector<FrictionPair>& pairs() const { return m_pairs; }
  /// s = eps_v h [m].
  double threshold() const { return m_settings.epsv * m_settings.dt; }
  /// sum_k mu lambda_k f1(y_k) y_k at x: the work of the lagged friction forces over x - x^n [J].
  double work(const VecX& x) const;

 private:
  FrictionVec12 pair_displacement(const FrictionPair& pair, const VecX& x) const;
  /// The lagged pairs from the barrier's pairs at x.
  void lag_at(const VecX& x);

  const ContactBarrier& m_barrier;
  FrictionSettings m_settings;
  VecX m_start;  ///< x^n
  std::vector<FrictionPair> m_pairs;
  std::vector<Stencil> m_stencils;
  long m_pattern_version = 0;
  const SpMat* m_pattern = nullptr;
  const DofMap* m_dofs = nullptr;
  double m_step_work = 0.0;      ///< work(x) at the last accepted iterate
  mutable ContactTimes m_times;  ///< this step's (reset in begin_step)
};

}  // namespace simrun
