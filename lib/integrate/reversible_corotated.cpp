#include "integrate/reversible_corotated.hpp"

#include "core/error.hpp"
#include "core/pattern_algebra.hpp"
#include "model/corotational_split.hpp"
#include "solve/solver_meter.hpp"

namespace simrun {

ReversibleCorotated::ReversibleCorotated(const IntegratorSettings& settings)
    : m_solver(settings.linear_solver()), m_mass(settings.linear_solver) {}

Status ReversibleCorotated::step(Model& model, State& state, double h, StepStats& stats) {
  if (!all_elastic_terms_corotated(model))
    throw InputError("reversible_corotated needs every object's material to be 'corotated'");
  model.refresh_pattern();
  const VecX x_k = model.full_positions(state.q);
  // A = M + (h^2/4) (K_R(k) + K_other(q_k)).
  SpMat A;
  model.non_elastic_stiffness(state.q, A);
  add_corotational_stiffness(model, x_k, 1.0, A);
  Eigen::Map<VecX>(A.valuePtr(), A.nonZeros()) *= 0.25 * h * h;
  add_scaled(A, 1.0, model.mass());
  VecX g;
  model.potential_gradient(state.q, g);
  const VecX rhs = model.apply_mass(state.v) - 0.5 * h * g;
  VecX v;
  {
    const SolverMeter meter(*m_solver, stats);
    if (const Status s = m_solver->factorize(A); s != Status::kSuccess) return s;
    m_solver->solve(rhs, v);
  }
  if (!v.allFinite()) return Status::kNumericalIssue;
  const VecX q_next = state.q + h * v;
  const VecX q_mid = state.q + 0.5 * h * v;
  // p_{k+1} = M v - (h/2) (g_R(k+1)(q_mid) + g_ext(q_mid)), R from q_{k+1}.
  VecX g_rot_full = VecX::Zero(model.dofs().num_full());
  add_corotational_gradient(model, model.full_positions(q_next), model.full_positions(q_mid),
                            g_rot_full);
  VecX g_other;
  model.non_elastic_gradient(q_mid, g_other);
  const VecX force = model.restrict_vector(g_rot_full) + g_other;
  const VecX p_next = model.apply_mass(v) - 0.5 * h * force;
  VecX v_next;
  if (const Status s = m_mass.solve_mass(model, p_next, v_next, stats); s != Status::kSuccess)
    return s;
  if (!v_next.allFinite()) return Status::kNumericalIssue;
  state.q = q_next;
  state.v = std::move(v_next);
  state.t += h;
  return Status::kSuccess;
}

}  // namespace simrun
