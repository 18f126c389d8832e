#include "integrate/exponential_rosenbrock_euler.hpp"

#include <sstream>

namespace simrun {

Status first_order_phi1(Model& model, FirstOrderSystem& system, const VecX& v, double t,
                        const KrylovSettings& krylov, VecX& y, StepStats& stats,
                        std::string& failure) {
  const Eigen::Index n = v.size();
  VecX F(2 * n), acceleration;
  F.head(n) = v;
  if (const Status s = system.mass_solve(model, system.force(), acceleration, stats);
      s != Status::kSuccess) {
    failure = "the mass matrix could not be factorized";
    return s;
  }
  F.tail(n) = acceleration;
  const LinearOperator J = [&](const VecX& w, VecX& Jw) {
    system.jacobian_times(model, w, Jw, stats);
  };
  const KrylovStats k = phi1v(t, J, system.jacobian_norm_estimate(model), F, y, krylov);
  stats.krylov_substeps += k.substeps;
  stats.krylov_vectors += k.vectors;
  if (k.status != Status::kSuccess) {
    std::ostringstream why;
    if (k.status == Status::kNotConverging && k.substeps >= krylov.max_substeps)
      why << "Krylov expv used its " << krylov.max_substeps
          << " substeps (integrator/krylov/max_substeps) before covering the step: its cost "
             "grows with the stiffness |M^-1 K| h; a smaller dt, a larger krylov dimension or "
             "siere would do";
    else
      why << "Krylov expv did not reach tolerance " << krylov.tolerance << " (dimension "
          << krylov.dimension << ", " << k.substeps << " substeps, " << k.rejections
          << " rejections)";
    failure = why.str();
  }
  return k.status;
}

ExponentialRosenbrockEuler::ExponentialRosenbrockEuler(const IntegratorSettings& settings)
    : m_system(settings.linear_solver, projects_damping(settings)), m_krylov(settings.krylov) {}

Status ExponentialRosenbrockEuler::step(Model& model, State& state, double h, StepStats& stats) {
  m_failure.clear();
  if (const Status s = m_system.linearize(model, state); s != Status::kSuccess) {
    m_failure = "the force at the start of the step is not finite";
    return s;
  }
  VecX y;
  if (const Status s = first_order_phi1(model, m_system, state.v, h, m_krylov, y, stats, m_failure);
      s != Status::kSuccess)
    return s;
  const Eigen::Index n = state.q.size();
  state.q += y.head(n);
  state.v += y.tail(n);
  state.t += h;
  return Status::kSuccess;
}

}  // namespace simrun
