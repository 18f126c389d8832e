#include "coarsen/eigenfit_correction.hpp"

#include <chrono>

#include "coarsen/eigen_ratios.hpp"
#include "core/pattern_algebra.hpp"
#include "core/symmetric_product.hpp"
#include "solve/subspace_tracking.hpp"

namespace simrun {

EigenFitCorrection::EigenFitCorrection(EigenFitSettings settings, LinearSolverFactory make_solver,
                                       EigenModeUpdate mode_update)
    : m_settings(std::move(settings)),
      m_mode_update(mode_update),
      m_eigen(std::move(make_solver), mode_update.eigensolver) {
  m_mode_update.refresh_every = std::max(1, m_mode_update.refresh_every);
}

void EigenFitCorrection::reset(EigenFitSettings settings) {
  m_settings = std::move(settings);
  m_failure.clear();
  m_have_modes = false;
  m_active = true;
  m_rest_damping = false;
  m_eigen.forget_subspace();
  m_calls = 0;
  m_W.resize(0, 0);
  m_MW.resize(0, 0);
  m_U.resize(0, 0);
  m_MU.resize(0, 0);
  m_MUr.resize(0, 0);
  ++m_version;
}

bool EigenFitCorrection::solves_next(int n) const {
  return m_calls % m_mode_update.refresh_every == 0 || m_U.rows() != n ||
         (m_mode_update.track_subspace && m_W.rows() != n);
}

bool EigenFitCorrection::needs_stiffness(bool constant, int n) const {
  if (constant && m_have_modes && m_U.rows() == n) return false;  // kept for the run
  return solves_next(n) || m_mode_update.track_subspace;
}

Status EigenFitCorrection::update_modes(Model& model, const SpMat& K, StepStats& stats,
                                        InverseOperator* step_matrix) {
  const int s = static_cast<int>(m_settings.ratios.size());
  const int n = model.num_free();
  const bool track = m_mode_update.track_subspace;
  const bool due = solves_next(n);
  ++m_calls;
  if (!due) {
    if (!track || step_matrix == nullptr) return Status::kSuccess;  // the kept modes
    const auto start = std::chrono::steady_clock::now();
    VecX values;
    const TrackedModes tracked = track_lowest_modes(
        *step_matrix, [&](const MatX& X) { return model.apply_mass_block(X); },
        [&](const MatX& X) { return symmetric_product_block(K, X); }, m_W, m_MW, values);
    stats.eigen_products += tracked.back_solves;
    stats.eigen_s +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (tracked.status != Status::kSuccess) {
      m_failure = "EigenFit: the subspace tracking of the " + std::to_string(s) +
                  " lowest modes failed (a non-finite back-solve or Rayleigh-Ritz step)";
      return tracked.status;
    }
    m_U = m_W.leftCols(s);
    m_MU = m_MW.leftCols(s);
    m_lambda = values.head(s);
    return Status::kSuccess;
  }
  // Guard vectors speed up the tracking in the steps that follow (subspace_tracking.hpp).
  const int wanted = track ? std::min(s + subspace_guard_vectors(s), n) : s;
  const GeneralizedEigenResult r = m_eigen.compute(K, model.mass(), wanted);
  stats.eigen_solves += 1;
  stats.eigen_iters += r.iterations;
  stats.eigen_products += r.operator_products;
  stats.eigen_s += r.seconds;
  stats.factorizations += 1 + r.shift_probes;
  if (r.status != Status::kSuccess || r.values.size() < wanted) {
    m_failure =
        "EigenFit: the eigensolve of the " + std::to_string(s) + " lowest modes did not converge";
    return Status::kNotConverging;
  }
  m_U = r.vectors.leftCols(s);
  m_lambda = r.values.head(s);
  if (track) {
    m_W = r.vectors;
    m_MW = model.apply_mass_block(m_W);  // also the next tracking step's M W
    m_MU = m_MW.leftCols(s);
  } else {
    m_MU = model.apply_mass_block(m_U);
  }
  return Status::kSuccess;
}

Status EigenFitCorrection::update(Model& model, const VecX& q, const SpMat& K, bool constant,
                                  StepStats& stats, InverseOperator* step_matrix) {
  const int s = static_cast<int>(m_settings.ratios.size());
  m_failure.clear();
  if (constant && m_have_modes && m_U.rows() == model.num_free()) {
    stats.eigenpairs = s;
    return Status::kSuccess;
  }
  // Rest-stiffness damping on a nonlinear model: the damping correction takes the rest modes
  // (header). A quadratic model's K is the rest one, so its current modes serve both.
  const RayleighDamping& damping = model.damping();
  m_rest_damping = !constant && damping.stiffness != 0.0 && damping.stiffness_at_rest;
  if (m_rest_damping &&
      (m_settings.rest_modes.rows() != model.num_free() || m_settings.rest_modes.cols() != s ||
       m_settings.rest_eigenvalues.size() != s)) {
    SpMat K_rest;
    model.rest_elastic_stiffness(K_rest);
    const GeneralizedEigenResult rest = smallest_generalized_eigenpairs(K_rest, model.mass(), s);
    stats.eigen_solves += 1;
    stats.eigen_s += rest.seconds;
    if (rest.status != Status::kSuccess || rest.values.size() < s) {
      m_failure = "EigenFit: the rest eigensolve of the " + std::to_string(s) +
                  " lowest modes (for the rest-stiffness damping) did not converge";
      return Status::kNotConverging;
    }
    m_settings.rest_modes = rest.vectors;
    m_settings.rest_eigenvalues = rest.values;
    m_MUr.resize(0, 0);
  }

  if (const Status st = update_modes(model, K, stats, step_matrix); st != Status::kSuccess)
    return st;
  m_have_modes = true;
  stats.eigenpairs = s;

  // Tracking test on the elastic modes: does each still look like one of the rest modes? A free
  // body compares them in its current orientation (the rest modes turned by its best rotation).
  const int rigid = m_settings.rigid;
  m_active = true;
  if (s > rigid && m_settings.rest_modes.rows() == m_U.rows()) {
    const Mat3 rotation = rigid > 0 ? best_rotation(model, q) : Mat3::Identity();
    const VecX maxima = tracking_column_maxima_of_mass_modes(
        model, m_MU.rightCols(s - rigid), m_settings.rest_modes.rightCols(s - rigid), rotation);
    stats.eigenfit_tracked = columns_passing(maxima);
    if (!passes_mode_test(maxima)) {
      stats.eigenfit_tracking_failed = 1;
      if (m_settings.plain_on_tracking_failure) m_active = false;
    }
  }
  const VecX r_minus_1 = m_active ? VecX(m_settings.ratios.array() - 1.0) : VecX::Zero(s);
  m_Y = m_MU * r_minus_1.asDiagonal();
  m_Z = m_MU * m_lambda.asDiagonal();
  if (m_rest_damping) {
    if (m_MUr.rows() != model.num_free()) {
      m_MUr = model.apply_mass_block(m_settings.rest_modes);
      m_Zr = m_MUr * m_settings.rest_eigenvalues.asDiagonal();
    }
    m_Yr = m_MUr * r_minus_1.asDiagonal();
  }
  ++m_version;
  return Status::kSuccess;
}

VecX EigenFitCorrection::lift_correction(const VecX& y) const {
  return m_Y * y;  // M U (R - I) y
}

void EigenFitCorrection::system_update(double a, double b, double beta, MatX& left,
                                       MatX& right) const {
  if (!m_rest_damping || beta == 0.0 || b == 0.0) {
    left = (a + b * beta) * m_Y;
    right = m_Z;
    return;
  }
  const Eigen::Index n = m_Y.rows(), s = m_Y.cols();
  left.resize(n, 2 * s);
  right.resize(n, 2 * s);
  left << a * m_Y, (b * beta) * m_Yr;
  right << m_Z, m_Zr;
}

}  // namespace simrun
