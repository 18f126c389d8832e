#pragma once
/// EigenFit's per-step correction of the elastic force and stiffness (Chen et al. 2019 (EigenFit),
/// Secs. 3.3.2-3.4). With the s lowest modes of the current stiffness, K U = M U Lambda,
/// U^T M U = I, and the rest-state ratios R = diag(r_i):
///   f' = f + M U (R - I) U^T f                                  (eq. 15c; f elastic only)
///   K' = K + M U (R - I) Lambda U^T M = K + Y Z^T,
///        Y = M U (R - I),  Z = M U Lambda                         (eqs. 15b, 16a-b)
/// so K' has eigenvalues r_i lambda_i on the fitted modes and K's elsewhere. Integrators solve
/// with K' by Sherman-Morrison-Woodbury on their factorization of the uncorrected matrix
/// (solve/low_rank_update.hpp). For a quadratic model the modes, Y and Z are computed once.
///
/// The modes are those of the projected elastic stiffness (Chen et al. 2019 (EigenFit),
/// Sec. 3.3.1): every element's dP/dF has its negative eigenvalues clamped
/// (Model::elastic_stiffness(q, K, true); material/material.hpp: negative eigenvalues become
/// kPsdEpsilon = 0, the rigid zeros are kept), so an indefinite K(q) (neo-Hookean in compression)
/// gives no negative eigenvalues to fit.
///
/// Stiffness-proportional damping uses the corrected stiffness (as the authors' code does):
/// D' = alpha M + beta K'_D, with K'_D the corrected version of the stiffness D is built from.
///   - damping on the current stiffness (or a quadratic model, whose K is the rest one):
///     D' = D + beta Y Z^T, the same modes as K';
///   - rest-stiffness damping on a nonlinear model: D' = D + beta Y_r Z_r^T with the rest modes,
///     K_e,rest U_r = M U_r Lambda_r (the elastic rest stiffness), Y_r = M U_r (R - I),
///     Z_r = M U_r Lambda_r. Then K_e,rest + Y_r Z_r^T has eigenvalues r_i lambda_r,i on U_r and
///     K_e,rest's elsewhere, so D' is positive semidefinite whenever D is and r_i > 0:
///     dissipative (docs/eigenfit.md). (The current modes would give
///     v^T D' v = v^T D v - beta sum_i (1 - r_i) lambda_i(q) (u_i^T M v)^2, negative once the
///     material stiffens along u_i by more than 1 / (1 - r_i).) The system matrices then carry a
///     rank-2s term, [Y, Y_r] [Z, Z_r]^T (system_update()).
///
/// The modes come from a warm-started Lanczos solve (its own shift-invert factorization) every
/// `refresh_every` steps; in between they are kept, or, with `track_subspace` and the step's
/// factorized M + h D + h^2 K at hand (SI), followed by one block subspace iteration with a
/// Rayleigh-Ritz step on (K, M) (solve/subspace_tracking.hpp; s + p back-solves, no
/// factorization), the integrator setting "eigen_update": "subspace".
#include <string>

#include "core/step_stats.hpp"
#include "model/model.hpp"
#include "solve/eigen_solver.hpp"

namespace simrun {

struct EigenFitSettings {
  VecX ratios;            ///< r_i per mode, rigid ones first (1)
  MatX rest_modes;        ///< U_{s,r}: the coarse rest modes (tracking test, rest damping)
  VecX rest_eigenvalues;  ///< Lambda_r of rest_modes; when missing and rest-stiffness damping
                          ///< needs them, update() computes both from the model's rest state
  int rigid = 0;          ///< leading rigid modes (not part of the tracking test)
  bool plain_on_tracking_failure = false;
};

/// How the per-step modes are brought up to date (the integrator's eigen_refresh, eigen_update).
struct EigenModeUpdate {
  int refresh_every = 1;                 ///< a Lanczos solve every this many update() calls
  bool track_subspace = false;           ///< in between: subspace iteration (given the step matrix)
  GeneralizedEigenSettings eigensolver;  ///< the Lanczos solves' iteration cap and tolerance
};

class EigenFitCorrection {
 public:
  EigenFitCorrection(EigenFitSettings settings, LinearSolverFactory make_solver,
                     EigenModeUpdate mode_update = {});

  /// The modes of (K, M) at this step, K the projected elastic stiffness at the step's
  /// linearization point q (Model::elastic_stiffness(q, K, true), assembled by the integrator).
  /// When `constant` (a quadratic model whose K does not change) the kept modes are reused after
  /// the first call. Runs the tracking test (EigenFit Sec. 3.5; for a free body after aligning
  /// the rest modes with the body's best rotation, tracking_column_maxima) and counts it in
  /// stats. kNotConverging when an eigensolve fails. `step_matrix`: solves with this step's
  /// factorized M + h D + h^2 K, for the subspace tracking between Lanczos solves.
  Status update(Model& model, const VecX& q, const SpMat& K, bool constant, StepStats& stats,
                InverseOperator* step_matrix = nullptr);

  /// Whether the next update() reads K: false when it keeps the modes (a quadratic model's
  /// after the first call, or "lanczos" modes between refreshes), so callers can skip assembling
  /// the projected stiffness.
  bool needs_stiffness(bool constant, int num_free) const;

  /// New ratios and rest modes (constraints changed at a release): the next update()
  /// computes the modes afresh (a Lanczos solve).
  void reset(EigenFitSettings settings);

  /// False for a step where the correction is off (tracking failed with the plain fallback).
  bool active() const { return m_active; }
  int size() const { return static_cast<int>(m_U.cols()); }
  /// True once update() computed modes that a constant (quadratic) model keeps.
  bool has_modes() const { return m_have_modes; }

  /// U^T x (reduced coordinates of a force or gradient).
  VecX reduce(const VecX& x) const { return m_U.transpose() * x; }
  /// M U (R - I) y: the correction of a vector whose reduced coordinates are y; for y = U^T f
  /// this is f' - f (eq. 15c). Zero when inactive.
  VecX lift_correction(const VecX& y) const;
  /// Y = M U (R - I) and Z = M U Lambda, K' = K + Y Z^T (eq. 16). Zero columns when inactive.
  const MatX& Y() const { return m_Y; }
  const MatX& Z() const { return m_Z; }
  /// True when D' = D + beta Y Z^T (see the header comment); false when the damping correction
  /// takes the rest modes, D' = D + beta Y_r Z_r^T.
  bool damping_shares_modes() const { return !m_rest_damping; }
  /// The damping correction's factors: (Y, Z) or (Y_r, Z_r).
  const MatX& damping_Y() const { return m_rest_damping ? m_Yr : m_Y; }
  const MatX& damping_Z() const { return m_rest_damping ? m_Zr : m_Z; }
  /// (D' - D) v / beta = Y_d Z_d^T v.
  VecX damping_correction(const VecX& v) const {
    return damping_Y() * (damping_Z().transpose() * v);
  }
  /// The low-rank part of a K (weight a) plus D (weight b) system matrix:
  ///   a K' + b D' = a K + b D + left right^T,  left right^T = a Y Z^T + b beta Y_d Z_d^T
  /// (rank s when damping shares the modes or beta = 0, else 2s).
  void system_update(double a, double b, double beta, MatX& left, MatX& right) const;
  const VecX& eigenvalues() const { return m_lambda; }
  const MatX& modes() const { return m_U; }
  /// Increments whenever U, Y or Z change (holders of a Woodbury setup redo it).
  long version() const { return m_version; }
  std::string failure_detail() const { return m_failure; }

 private:
  /// Whether the next update_modes() runs a Lanczos solve.
  bool solves_next(int num_free) const;
  /// The modes at this step: a Lanczos solve when due, else tracked or kept (header comment).
  Status update_modes(Model& model, const SpMat& K, StepStats& stats, InverseOperator* step_matrix);

  EigenFitSettings m_settings;
  EigenModeUpdate m_mode_update;
  GeneralizedEigenSolver m_eigen;
  MatX m_W;                  ///< tracking: the s + p Ritz vectors (M-orthonormal), U = the first s
  long m_calls = 0;          ///< update() calls since the last reset (refresh schedule)
  MatX m_MW;                 ///< M m_W (track_lowest_modes)
  MatX m_U, m_MU, m_Y, m_Z;  ///< m_MU = M m_U, set by update_modes with the modes
  MatX m_MUr, m_Yr, m_Zr;    ///< M U_r and the rest-mode damping factors (m_rest_damping)
  VecX m_lambda;
  bool m_active = true;
  bool m_have_modes = false;
  bool m_rest_damping = false;
  long m_version = 0;
  std::string m_failure;
};

}  // namespace simrun
