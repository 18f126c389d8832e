#include "integrate/mssi.hpp"

#include "core/pattern_algebra.hpp"
#include "core/symmetric_product.hpp"
#include "solve/solver_meter.hpp"

namespace simrun {

MaterialStiffnessSemiImplicit::MaterialStiffnessSemiImplicit(const IntegratorSettings& settings)
    : m_solver(settings.linear_solver()),
      m_literal(settings.mssi_literal),
      m_project_damping(projects_damping(settings)) {}

Status MaterialStiffnessSemiImplicit::step(Model& model, State& state, double h, StepStats& stats) {
  const SolverMeter meter(*m_solver, stats);
  model.material_stiffness(state.q, m_Ks);
  VecX f;
  model.potential_gradient(state.q, f);
  f = -f;
  const bool damped = model.has_damping();
  if (damped) {
    model.damping_matrix_at(state.q, m_project_damping, m_projected, m_D);
    VecX Dv;
    symmetric_multiply(m_D, state.v, Dv);
    f -= Dv;
  }
  // M + h D + h^2 K_s (derived) or M + h^2 K_s (literal).
  assign_combination(m_system, {{h * h, &m_Ks}});
  add_scaled(m_system, 1.0, model.mass());
  if (damped && !m_literal) add_scaled(m_system, h, m_D);
  if (const Status s = m_solver->factorize(m_system); s != Status::kSuccess) return s;
  VecX rhs = f;
  if (!m_literal) {
    VecX Kv;
    symmetric_multiply(m_Ks, state.v, Kv);
    rhs -= h * Kv;
  }
  rhs *= h;
  VecX dv;
  m_solver->solve(rhs, dv);
  if (!dv.allFinite()) return Status::kNumericalIssue;
  state.v += dv;
  state.q += h * state.v;
  state.t += h;
  return Status::kSuccess;
}

}  // namespace simrun
