#pragma once
/// An implicit stage with EigenFit's corrected elastic force (Chen et al. 2019 (EigenFit),
/// Sec. 3.4; IM as the authors' code runs it for Sec. 4.1.1): the stage of implicit_stage.hpp,
///   R(x) = M (x - p) / tau^2 + g'(x) + D' (x - c) / sigma = 0,
///   g'(x) = g(x) + Y U^T g_elastic(x),  D' = D + beta Y_d Z_d^T,
/// (Y_d, Z_d) = (Y, Z), or the rest modes' (Y_r, Z_r) for rest-stiffness damping on a nonlinear
/// model (coarsen/eigenfit_correction.hpp: dissipative),
/// with the modes U (hence Y, Z) computed once per step at the linearization point and frozen
/// over the iterations, as the authors' code does (the paper is silent). g' is not the gradient of
/// an energy, so the stage is solved by Newton on the residual without line search: each
/// iteration factorizes M / tau^2 + K(x) + D / sigma and adds the rank-s (or 2s) term
/// Y Z^T + (beta / sigma) Y_d Z_d^T by Woodbury (the correction's Jacobian at the linearization
/// point, Y U^T K = Y Z^T; the authors' code leaves it out). Linear materials: one iteration, one
/// factorization per run.
#include "integrate/implicit_stage.hpp"
#include "solve/low_rank_update.hpp"

namespace simrun {

class CorrectedStageSolver {
 public:
  explicit CorrectedStageSolver(const IntegratorSettings& settings);

  /// Freezes D and EigenFit's modes for the step: K(q_lin) and its s lowest modes.
  Status begin_step(Model& model, const VecX& q_lin, StepStats& stats);
  /// Newton on R from the guess x (overwritten); converged when tau |M_lumped^-1 R| <= tolerance
  /// or an update moves x by <= tau * tolerance.
  Status solve(Model& model, const ImplicitStage& stage, VecX& x, StepStats& stats);
  std::string failure_detail() const { return m_settings.eigenfit->failure_detail(); }

 private:
  Status factorize(Model& model, const ImplicitStage& stage, const VecX& x, StepStats& stats);

  IntegratorSettings m_settings;
  std::unique_ptr<LinearSolver> m_solver;
  LowRankUpdate m_update;
  SpMat m_K, m_D, m_K_damping;
  SpMat m_K_modes;  ///< the projected elastic stiffness at the linearization point (the modes)
  bool m_constant = false;
  bool m_assembled = false;  ///< m_K and m_D hold an assembly (kept on the constant path)
  double m_factor_tau = 0.0, m_factor_sigma = 0.0;
  long m_factor_version = -1;  ///< EigenFit version of a kept factorization (constant path)
};

}  // namespace simrun
