#include "coarsen/eigenfit_correction.hpp"

#include "coarsen/eigen_ratios.hpp"

namespace simrun {

EigenFitCorrection::EigenFitCorrection(EigenFitSettings settings, LinearSolverFactory make_solver)
    : m_settings(std::move(settings)), m_eigen(std::move(make_solver)) {}

void EigenFitCorrection::reset(EigenFitSettings settings) {
  m_settings = std::move(settings);
  m_failure.clear();
  m_have_modes = false;
  m_active = true;
  m_eigen.forget_subspace();
  m_U.resize(0, 0);
  ++m_version;
}

Status EigenFitCorrection::update(const Model& model, const SpMat& K, bool constant,
                                  StepStats& stats) {
  const int s = static_cast<int>(m_settings.ratios.size());
  m_failure.clear();
  if (constant && m_have_modes && m_U.rows() == model.num_free()) {
    stats.eigenpairs = s;
    return Status::kSuccess;
  }
  const GeneralizedEigenResult r = m_eigen.compute(K, model.mass(), s);
  stats.eigen_solves += 1;
  stats.eigen_iters += r.iterations;
  stats.eigen_products += r.operator_products;
  stats.eigen_s += r.seconds;
  stats.factorizations += 1 + r.shift_probes;
  if (r.status != Status::kSuccess || r.values.size() < s) {
    m_failure =
        "EigenFit: the eigensolve of the " + std::to_string(s) + " lowest modes did not converge";
    return Status::kNotConverging;
  }
  m_U = r.vectors;
  m_lambda = r.values;
  m_MU.resize(m_U.rows(), s);
  for (int c = 0; c < s; ++c) m_MU.col(c) = model.apply_mass(m_U.col(c));
  m_have_modes = true;
  stats.eigenpairs = s;

  // Tracking test on the elastic modes: does each still look like one of the rest modes?
  const int rigid = m_settings.rigid;
  m_active = true;
  if (s > rigid && m_settings.rest_modes.rows() == m_U.rows()) {
    const VecX maxima = tracking_column_maxima(model, m_U.rightCols(s - rigid),
                                               m_settings.rest_modes.rightCols(s - rigid));
    stats.eigenfit_tracked = columns_passing(maxima);
    if (!passes_mode_test(maxima)) {
      stats.eigenfit_tracking_failed = 1;
      if (m_settings.plain_on_tracking_failure) m_active = false;
    }
  }
  const VecX r_minus_1 = m_active ? VecX(m_settings.ratios.array() - 1.0) : VecX::Zero(s);
  m_Y = m_MU * r_minus_1.asDiagonal();
  m_Z = m_MU * m_lambda.asDiagonal();
  ++m_version;
  return Status::kSuccess;
}

VecX EigenFitCorrection::lift_correction(const VecX& y) const {
  return m_Y * y;  // M U (R - I) y
}

}  // namespace simrun
