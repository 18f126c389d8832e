#include "integrate/corrected_stage.hpp"

#include "core/pattern_algebra.hpp"
#include "solve/solver_meter.hpp"

namespace simrun {

CorrectedStageSolver::CorrectedStageSolver(const IntegratorSettings& settings)
    : m_settings(settings), m_solver(settings.linear_solver()) {}

Status CorrectedStageSolver::begin_step(Model& model, const VecX& q_lin, StepStats& stats) {
  model.refresh_pattern();
  m_constant = model.is_quadratic() && model.damping_is_constant();
  // A quadratic model keeps K, D and the modes: nothing to assemble after the first step.
  if (!(m_constant && m_assembled && m_settings.eigenfit->has_modes())) {
    // The modes are the elastic stiffness' (the correction acts on the elastic force only),
    // with element Hessians projected to PSD (Chen et al. 2019 (EigenFit), Sec. 3.3.1); one pass
    // gives both, in the steps whose modes are not kept.
    if (m_settings.eigenfit->needs_stiffness(m_constant, model.num_free())) {
      model.stiffness_and_projected_elastic(q_lin, m_K, m_K_modes);
    } else {
      model.stiffness(q_lin, m_K, /*project_psd=*/false);
      m_K_modes = SpMat();  // not read: the modes are kept this step
    }
    if (model.has_damping()) model.damping_matrix(m_K, m_D);
    m_assembled = true;
  }
  return m_settings.eigenfit->update(model, q_lin, m_K_modes, m_constant, stats);
}

Status CorrectedStageSolver::factorize(Model& model, const ImplicitStage& stage, const VecX& x,
                                       StepStats& stats) {
  const EigenFitCorrection& fit = *m_settings.eigenfit;
  if (m_constant && m_factor_version == fit.version() && m_factor_tau == stage.tau &&
      m_factor_sigma == stage.damping_tau)
    return Status::kSuccess;  // quadratic model: the same matrix as last time
  model.stiffness(x, m_K, /*project_psd=*/false);
  SpMat& A = m_K;  // M / tau^2 + K + D / sigma, in place
  add_scaled(A, 1.0 / (stage.tau * stage.tau), model.mass());
  if (model.has_damping()) add_scaled(A, 1.0 / stage.damping_tau, m_D);
  Status status = m_solver->factorize(A);
  if (status == Status::kSuccess) {
    // K' + D' / sigma - (K + D / sigma) = Y Z^T + (beta / sigma) Y_d Z_d^T.
    MatX left, right;
    fit.system_update(1.0, model.has_damping() ? 1.0 / stage.damping_tau : 0.0,
                      model.damping().stiffness, left, right);
    const Eigen::Index k = left.cols();
    status = m_update.setup(*m_solver, left, MatX::Identity(k, k), right);
    stats.solves += static_cast<int>(k);
  }
  m_factor_version = status == Status::kSuccess ? fit.version() : -1;
  m_factor_tau = stage.tau;
  m_factor_sigma = stage.damping_tau;
  return status;
}

Status CorrectedStageSolver::solve(Model& model, const ImplicitStage& stage, VecX& x,
                                   StepStats& stats) {
  const SolverMeter meter(*m_solver, stats);
  const EigenFitCorrection& fit = *m_settings.eigenfit;
  const NewtonSettings& newton = m_settings.newton;
  const double beta = model.damping().stiffness;
  VecX g, g_elastic, R, dx;
  for (int iteration = 0; iteration <= newton.max_iterations; ++iteration) {
    model.potential_gradient(x, g, g_elastic);
    R = model.apply_mass(x - stage.predicted) / (stage.tau * stage.tau) + g;
    VecX y = fit.reduce(g_elastic);
    if (model.has_damping()) {
      const VecX dc = x - stage.damping_anchor;
      R += m_D * dc / stage.damping_tau;
      if (fit.damping_shares_modes())
        y += (beta / stage.damping_tau) * (fit.Z().transpose() * dc);
      else
        R += (beta / stage.damping_tau) * fit.damping_correction(dc);
    }
    R += fit.lift_correction(y);
    stats.residual = stage.tau * R.cwiseQuotient(model.lumped_mass()).norm();
    if (!std::isfinite(stats.residual)) return Status::kNumericalIssue;
    if (stats.residual <= newton.tolerance) return Status::kSuccess;
    if (iteration == newton.max_iterations) break;
    if (const Status s = factorize(model, stage, x, stats); s != Status::kSuccess) return s;
    m_update.solve(R, dx);
    if (!dx.allFinite()) return Status::kNumericalIssue;
    x -= dx;
    stats.newton_iters += 1;
    if (dx.norm() <= stage.tau * newton.tolerance) return Status::kSuccess;
  }
  return Status::kNotConverging;
}

}  // namespace simrun
