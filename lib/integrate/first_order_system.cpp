#include "integrate/first_order_system.hpp"

#include "core/pattern_algebra.hpp"
#include "solve/solver_meter.hpp"

namespace simrun {

FirstOrderSystem::FirstOrderSystem(const LinearSolverFactory& make_solver, bool project_damping)
    : m_mass_solver(make_solver()), m_project_damping(project_damping) {}

Status FirstOrderSystem::linearize(Model& model, const State& state) {
  model.stiffness(state.q, m_K, /*project_psd=*/false);
  m_damped = model.has_damping();
  if (m_damped && m_project_damping && !model.damping_is_constant()) {
    model.damping_matrix_at(state.q, /*project_psd=*/true, m_projected, m_D);
  } else if (m_damped) {
    model.damping_matrix(m_K, m_D);  // rest stiffness, or the unprojected K(q)
  } else {
    m_D = SpMat();
  }
  model.potential_gradient(state.q, m_f);
  m_f = -m_f;
  if (m_damped) {
    VecX Dv;
    damping_times(state.v, Dv);
    m_f -= Dv;
  }
  return m_f.allFinite() ? Status::kSuccess : Status::kNumericalIssue;
}

void FirstOrderSystem::damping_times(const VecX& x, VecX& y) const {
  if (!m_damped) {
    y = VecX::Zero(x.size());
    return;
  }
  symmetric_multiply(m_D, x, y);
}

Status FirstOrderSystem::mass_solve(const Model& model, const VecX& b, VecX& x, StepStats& stats) {
  if (model.mass_is_lumped()) {
    x = b.cwiseQuotient(model.lumped_mass());
    return Status::kSuccess;
  }
  const SolverMeter meter(*m_mass_solver, stats);
  if (!same_matrix(model.mass(), m_factored_mass)) {
    if (const Status s = m_mass_solver->factorize(model.mass()); s != Status::kSuccess) return s;
    m_factored_mass = model.mass();
  }
  m_mass_solver->solve(b, x);
  return Status::kSuccess;
}

void FirstOrderSystem::jacobian_times(const Model& model, const VecX& w, VecX& y,
                                      StepStats& stats) {
  const Eigen::Index n = m_f.size();
  VecX Kq, Dv, a;
  stiffness_times(w.head(n), Kq);
  damping_times(w.tail(n), Dv);
  mass_solve(model, -(Kq + Dv), a, stats);
  y.resize(2 * n);
  y.head(n) = w.tail(n);
  y.tail(n) = a;
}

double FirstOrderSystem::jacobian_norm_estimate(const Model& model) const {
  const VecX& m = model.lumped_mass();
  VecX row_sums = VecX::Zero(m.size());
  // Column sums of a symmetric matrix are its row sums.
  for (int c = 0; c < m_K.outerSize(); ++c)
    for (SpMat::InnerIterator it(m_K, c); it; ++it) row_sums[c] += std::abs(it.value());
  if (m_damped)
    for (int c = 0; c < m_D.outerSize(); ++c)
      for (SpMat::InnerIterator it(m_D, c); it; ++it) row_sums[c] += std::abs(it.value());
  return std::max(1.0, row_sums.cwiseQuotient(m).maxCoeff());
}

FirstOrderInverse::FirstOrderInverse(const LinearSolverFactory& make_solver)
    : m_solver(make_solver()) {}

Status FirstOrderInverse::factorize(const Model& model, const FirstOrderSystem& system,
                                    double tau) {
  m_system = &system;
  m_tau = tau;
  // S = M + tau D + tau^2 K (K may be indefinite: the solver's LDL^T fallback takes it).
  assign_combination(m_S, {{tau * tau, &system.stiffness()}});
  add_scaled(m_S, 1.0, model.mass());
  if (system.damped()) add_scaled(m_S, tau, system.damping());
  return m_solver->factorize(m_S);
}

void FirstOrderInverse::solve(const VecX& b, VecX& x) {
  const Eigen::Index n = b.size() / 2;
  VecX Kr, rhs(n), y_v;
  m_system->stiffness_times(b.head(n), Kr);
  rhs = b.tail(n) - m_tau * Kr;
  m_solver->solve(rhs, y_v);
  VecX out(2 * n);
  out.head(n) = b.head(n) + m_tau * y_v;
  out.tail(n) = y_v;
  x = std::move(out);
}

void FirstOrderInverse::solve(const MatX& B, MatX& X) {
  const Eigen::Index n = B.rows() / 2;
  MatX rhs(n, B.cols()), Y;
  VecX Kr;
  for (Eigen::Index c = 0; c < B.cols(); ++c) {
    m_system->stiffness_times(B.col(c).head(n), Kr);
    rhs.col(c) = B.col(c).tail(n) - m_tau * Kr;
  }
  m_solver->solve(rhs, Y);
  MatX out(2 * n, B.cols());
  out.topRows(n) = B.topRows(n) + m_tau * Y;
  out.bottomRows(n) = Y;
  X = std::move(out);
}

}  // namespace simrun
