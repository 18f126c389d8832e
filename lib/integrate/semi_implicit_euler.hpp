#pragma once
/// Semi-implicit (linearly implicit) backward Euler, Baraff-Witkin 1998; Chen thesis Eq. (2.10):
///   (M + h D + h^2 K) dv = h (f(q_n) - D v_n - h K v_n),  v_{n+1} = v_n + dv,
///   q_{n+1} = q_n + h v_{n+1},
/// with K = K(q_n). One linear solve per step; identical to BE for linear forces. When K and D
/// are constant (quadratic energy, rest-stiffness damping) the matrix is factored once and the
/// force comes from one product with K (see the .cpp).
///
/// With EigenFit (settings.eigenfit) the elastic force and stiffness are the corrected ones,
/// f' = f + Y U^T f and K' = K + Y Z^T (Chen et al. 2019 (EigenFit), Sec. 3.4, Eqs. 15c, 16), and
/// stiffness-proportional damping uses K' as the authors' code does (the paper does not say):
///   (M + h D + h^2 K + (h^2 + h beta) Y Z^T) dv
///       = -h (g + (D + h K) v + Y (U^T g_elastic + (beta + h) Z^T v)),
/// solved by Sherman-Morrison-Woodbury on the factorization of M + h D + h^2 K (s + 1
/// back-solves). Rest-stiffness damping on a nonlinear model corrects D with the rest modes
/// instead, beta Y_r Z_r^T (dissipative; coarsen/eigenfit_correction.hpp): rank 2s. For a quadratic
/// model the modes, A^-1 Y and U^T K_elastic are computed once.
#include "core/symmetric_product.hpp"
#include "integrate/integrator.hpp"
#include "solve/low_rank_update.hpp"

namespace simrun {

class SemiImplicitEuler final : public Integrator {
 public:
  explicit SemiImplicitEuler(const IntegratorSettings& settings);
  std::string_view name() const override { return "si"; }
  Status step(Model& model, State& state, double h, StepStats& stats) override;
  std::string failure_detail() const override {
    return m_eigenfit ? m_eigenfit->failure_detail() : std::string();
  }
  /// The constant path's reference point (q_ref, g_ref): the affine force is evaluated about
  /// it, so a resumed run must keep it to take bit-identical steps.
  IntegratorHistory history() const override;
  void restore_history(const IntegratorHistory& history) override;

 private:
  /// Assembles K(q) and D, factorizes M + h D + h^2 K, and keeps D + h K unless `constant`.
  Status refactor(Model& model, const State& state, double h, bool constant, StepStats& stats);
  /// EigenFit's modes at q (after the factorization, which the subspace tracking iterates
  /// with) and, on the constant path, the elastic stiffness times them.
  Status update_eigenfit(Model& model, const State& state, bool constant, StepStats& stats);
  /// m_g_ref = dU/dq at q and, with EigenFit, m_reduced = U^T g_elastic(q), in one pass.
  void gradient(const Model& model, const VecX& q);

  std::unique_ptr<LinearSolver> m_solver;
  SpMat m_K;
  SpMat m_modes_stiffness;      ///< EigenFit: the projected elastic stiffness, when assembled
  SymmetricOperator m_product;  ///< K (constant path) or D + h K, applied every step
  double m_factored_h = 0.0;
  bool m_factored = false;
  bool m_factored_constant = false;  ///< the factorization and m_product are the constant path's
  long m_pattern_version = -1;       ///< the model pattern the factorization was built in
  /// Quadratic U: the gradient at q_ref, valid while the model's potential_version holds.
  VecX m_q_ref, m_g_ref;
  long m_potential_version = -1;
  bool m_has_reference = false;
  bool m_adopt_potential_version = false;  ///< a restored reference: take the model's version
  VecX m_work, m_rhs, m_dv;                ///< step workspaces (no allocation per step)
  std::shared_ptr<EigenFitCorrection> m_eigenfit;
  LowRankUpdate m_corrected;  ///< (M + h D + h^2 K') by Woodbury on m_solver
  MatX m_elastic_KU;          ///< constant path: K_elastic U
  VecX m_reduced_ref;         ///< constant path: U^T g_elastic(q_ref)
  VecX m_reduced;             ///< U^T g_elastic(q) of the step
};

}  // namespace simrun
