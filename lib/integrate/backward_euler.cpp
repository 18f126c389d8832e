#include "integrate/backward_euler.hpp"

namespace simrun {

namespace {

class IncrementalPotential final : public NewtonObjective {
 public:
  IncrementalPotential(const Model& model, const State& start, double h, const SpMat& D,
                       bool project_psd)
      : m_model(model),
        m_q0(start.q),
        m_predicted(start.q + h * start.v),
        m_h(h),
        m_D(D),
        m_project(project_psd) {}

  double value(const VecX& x) override {
    const VecX dx = x - m_predicted;
    double phi = 0.5 / (m_h * m_h) * dx.dot(m_model.mass() * dx) + m_model.potential_energy(x);
    if (m_model.has_damping()) {
      const VecX step = x - m_q0;
      phi += 0.5 / m_h * step.dot(m_D * step);
    }
    return phi;
  }

  void gradient(const VecX& x, VecX& g) override {
    m_model.potential_gradient(x, g);
    g += m_model.mass() * (x - m_predicted) / (m_h * m_h);
    if (m_model.has_damping()) g += m_D * (x - m_q0) / m_h;
  }

  void hessian(const VecX& x, SpMat& H) override {
    m_model.stiffness(x, H, m_project);
    const Eigen::Index nnz = H.nonZeros();
    Eigen::Map<VecX> values(H.valuePtr(), nnz);
    values += Eigen::Map<const VecX>(m_model.mass().valuePtr(), nnz) / (m_h * m_h);
    if (m_model.has_damping()) values += Eigen::Map<const VecX>(m_D.valuePtr(), nnz) / m_h;
  }

  /// Thesis residual r = v - v_n - h M^-1 f_tot = h M^-1 grad Phi (lumped M).
  double residual_norm(const VecX& g) const override {
    return m_h * g.cwiseQuotient(m_model.lumped_mass()).norm();
  }

 private:
  const Model& m_model;
  VecX m_q0, m_predicted;
  double m_h;
  const SpMat& m_D;
  bool m_project;
};

}  // namespace

BackwardEuler::BackwardEuler(const IntegratorSettings& settings)
    : m_settings(settings), m_solver(make_cholmod_solver()) {}

Status BackwardEuler::step(const Model& model, State& state, double h, StepStats& stats) {
  if (model.has_damping()) {
    if (!model.damping().stiffness_at_rest && model.damping().stiffness != 0.0) {
      model.stiffness(state.q, m_K, /*project_psd=*/false);
    }
    model.damping_matrix(m_K, m_D);
  }
  IncrementalPotential phi(model, state, h, m_D, m_settings.project_psd);
  VecX x = state.q + h * state.v;
  const LinearSolverStats before = m_solver->stats();
  // Companion stopping test (as in the GAUSS code): the Newton update changes no velocity by
  // more than the tolerance. Needed for stiff bodies, where round-off in h M^-1 f keeps the
  // absolute residual above 1e-6 m/s.
  NewtonSettings newton_settings = m_settings.newton;
  if (newton_settings.step_tolerance == 0.0) newton_settings.step_tolerance = h * newton_settings.tolerance;
  const NewtonStats newton = newton_minimize(phi, x, *m_solver, newton_settings);
  stats.newton_iterations += newton.iterations;
  stats.line_search_steps += newton.line_search_steps;
  stats.factorizations += m_solver->stats().factorizations - before.factorizations;
  stats.solves += m_solver->stats().solves - before.solves;
  stats.ldlt_fallbacks += m_solver->stats().ldlt_fallbacks - before.ldlt_fallbacks;
  stats.residual = newton.residual;
  if (newton.status != Status::kSuccess) return newton.status;
  state.v = (x - state.q) / h;
  state.q = x;
  state.t += h;
  return Status::kSuccess;
}

}  // namespace simrun
