#pragma once
/// EigenFit's per-step correction of the elastic force and stiffness (Chen et al. 2019,
/// digest 003 Secs. 6-7). With the s lowest modes of the current stiffness, K U = M U Lambda,
/// U^T M U = I, and the rest-state ratios R = diag(r_i):
///   f' = f + M U (R - I) U^T f                                  (eq. 15c; f elastic only)
///   K' = K + M U (R - I) Lambda U^T M = K + Y Z^T,
///        Y = M U (R - I),  Z = M U Lambda                         (eqs. 15b, 16a-b)
/// so K' has eigenvalues r_i lambda_i on the fitted modes and K's elsewhere. Integrators solve
/// with K' by Sherman-Morrison-Woodbury on their factorization of the uncorrected matrix
/// (solve/low_rank_update.hpp). For a quadratic model the modes, Y and Z are computed once.
#include <string>

#include "core/step_stats.hpp"
#include "model/model.hpp"
#include "solve/eigen_solver.hpp"

namespace simrun {

struct EigenFitSettings {
  VecX ratios;      ///< r_i per mode, rigid ones first (1)
  MatX rest_modes;  ///< U_{s,r}: the coarse rest modes (tracking test)
  int rigid = 0;    ///< leading rigid modes (not part of the tracking test)
  bool plain_on_tracking_failure = false;
};

class EigenFitCorrection {
 public:
  EigenFitCorrection(EigenFitSettings settings, LinearSolverFactory make_solver);

  /// The modes of (K, M) at this step, K the model's elastic stiffness at the step's linearization
  /// point (assembled by the integrator). When `constant` (a quadratic model whose K does not
  /// change) the kept modes are reused after the first call. Runs the tracking test (digest Sec. 8,
  /// test 1) and counts it in stats. kNotConverging when the eigensolve fails.
  Status update(const Model& model, const SpMat& K, bool constant, StepStats& stats);

  /// New ratios and rest modes (constraints changed at a release): the next update()
  /// computes the modes afresh.
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
  const VecX& eigenvalues() const { return m_lambda; }
  const MatX& modes() const { return m_U; }
  /// Increments whenever U, Y or Z change (holders of a Woodbury setup redo it).
  long version() const { return m_version; }
  std::string failure_detail() const { return m_failure; }

 private:
  EigenFitSettings m_settings;
  GeneralizedEigenSolver m_eigen;
  MatX m_U, m_MU, m_Y, m_Z;
  VecX m_lambda;
  bool m_active = true;
  bool m_have_modes = false;
  long m_version = 0;
  std::string m_failure;
};

}  // namespace simrun
