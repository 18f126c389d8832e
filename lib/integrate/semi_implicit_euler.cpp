#include "integrate/semi_implicit_euler.hpp"

#include "core/pattern_algebra.hpp"
#include "solve/solver_meter.hpp"

namespace simrun {

SemiImplicitEuler::SemiImplicitEuler(const IntegratorSettings& settings)
    : m_solver(settings.linear_solver()) {}

Status SemiImplicitEuler::step(Model& model, State& state, double h, StepStats& stats) {
  model.refresh_pattern();  // a term's new stencils invalidate a kept factorization
  const bool constant = model.is_quadratic() && model.damping_is_constant();
  const SolverMeter meter(*m_solver, stats);
  if (!constant || !m_factored || h != m_factored_h ||
      m_pattern_version != model.pattern_version()) {
    model.stiffness(state.q, m_K, /*project_psd=*/false);
    model.damping_matrix(m_K, m_D);
    assign_combination(m_system, {{1.0, &model.mass()}, {h, &m_D}, {h * h, &m_K}});
    assign_combination(m_velocity_matrix, {{1.0, &m_D}, {h, &m_K}});
    m_pattern_version = model.pattern_version();
    const Status status = m_solver->factorize(m_system);
    if (status != Status::kSuccess) {
      m_factored = false;
      return status;
    }
    m_factored = true;
    m_factored_h = h;
  }
  VecX g;
  model.potential_gradient(state.q, g);
  const VecX rhs = h * (-g - m_velocity_matrix * state.v);
  VecX dv;
  m_solver->solve(rhs, dv);
  if (!dv.allFinite()) return Status::kNumericalIssue;
  state.v += dv;
  state.q += h * state.v;
  state.t += h;
  return Status::kSuccess;
}

}  // namespace simrun
