#include "integrate/velocity_verlet.hpp"

#include "core/pattern_algebra.hpp"
#include "model/viscous_damping.hpp"
#include "solve/solver_meter.hpp"

namespace simrun {

Status VelocityVerlet::step(Model& model, State& state, double h, StepStats& stats) {
  VecX a;
  if (m_last_potential == model.potential_version() && m_last_q.size() == state.q.size() &&
      m_last_q == state.q) {
    // The last step's final gradient (first same as last): a = M^-1 (-g - D v).
    VecX f = -m_last_g;
    if (model.has_damping()) f -= m_acceleration.damping(model, state.q) * state.v;
    if (const Status s = m_acceleration.solve_mass(model, f, a, stats); s != Status::kSuccess)
      return s;
  } else if (const Status s = m_acceleration.evaluate(model, state.q, state.v, a, stats);
             s != Status::kSuccess) {
    return s;
  }
  const VecX v_half = state.v + 0.5 * h * a;
  const VecX q1 = state.q + h * v_half;
  VecX g;
  model.potential_gradient(q1, g);
  VecX v1;
  if (!model.has_damping()) {
    VecX a1;
    if (const Status s = m_acceleration.solve_mass(model, -g, a1, stats); s != Status::kSuccess)
      return s;
    v1 = v_half + 0.5 * h * a1;
  } else {
    // (M + h/2 D(q1)) v1 = M v_half - h/2 g(q1); refactorized when h or D changes.
    const SpMat& D = m_acceleration.damping(model, q1);
    SpMat A = model.mass();
    add_scaled(A, 0.5 * h, D);
    const SolverMeter meter(*m_kick_solver, stats);
    if (h != m_kick_h || !same_matrix(A, m_kick_matrix)) {
      if (const Status s = m_kick_solver->factorize(A); s != Status::kSuccess) {
        m_kick_h = 0.0;
        return s;
      }
      m_kick_h = h;
      m_kick_matrix = std::move(A);
    }
    const VecX rhs = model.apply_mass(v_half) - 0.5 * h * g;
    m_kick_solver->solve(rhs, v1);
  }
  if (m_viscous_k_d > 0.0) {
    // Kharevych's explicit visco-elastic damping F_dampExp(q_n, q_{n+1}), the interval's
    // F^{d+} (model/viscous_damping.hpp): v_{n+1} += M^-1 impulse.
    VecX dv;
    if (const Status s = m_acceleration.solve_mass(
            model, viscous_impulse(model, m_viscous_k_d, state.q, q1), dv, stats);
        s != Status::kSuccess)
      return s;
    v1 += dv;
  }
  if (!v1.allFinite()) return Status::kNumericalIssue;
  m_last_q = q1;
  m_last_g = std::move(g);
  m_last_potential = model.potential_version();
  state.q = q1;
  state.v = v1;
  state.t += h;
  return Status::kSuccess;
}

}  // namespace simrun
