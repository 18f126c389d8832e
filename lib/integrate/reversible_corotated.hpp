#pragma once
/// Kharevych's time-reversible corotational integrator (thesis Sec. 3.4.2, Eq. 3.33, with the
/// typo of its printed p-update fixed, below), for objects of the `corotated` material. The exact
/// symplectic midpoint would need the element rotations at t_{k+1/2}; this scheme takes them at
/// t_k for the velocity solve and at t_{k+1} for the momentum update (model/corotational_split):
///   [M + (h^2/4) K_R(k)] v = p_k - (h/2) g(q_k)
///   q_{k+1} = q_k + h v
///   p_{k+1} = M v - (h/2) (g_R(k+1)(q_k + (h/2) v) + g_ext(q_k + (h/2) v))
/// with g(q_k) = dU/dq at q_k (at R_k the elastic part is g_R(k)(q_k) = K_R(k) q_k - f_0(k)) and
/// g_ext the gradient of the other terms (gravity, ...; their stiffness joins K_R). The typo:
/// the printed p-update leaves -sum R K q_0 outside the (h/2) factor; by symmetry with the
/// v-solve it is inside. Reversible in (q, R): stepping back with -h retraces the steps; energy
/// and angular momentum stay bounded rather than exactly conserved, and linear momentum is kept
/// (every g_R sums to zero). The state keeps v = M^-1 p_k. M + (h^2/4) K_R changes every step: a
/// numeric refactorization on the solver's fixed symbolic analysis.
#include "integrate/acceleration.hpp"
#include "integrate/integrator.hpp"

namespace simrun {

class ReversibleCorotated final : public Integrator {
 public:
  explicit ReversibleCorotated(const IntegratorSettings& settings);
  std::string_view name() const override { return "reversible_corotated"; }
  Status step(Model& model, State& state, double h, StepStats& stats) override;

 private:
  std::unique_ptr<LinearSolver> m_solver;
  AccelerationSolver m_mass;
};

}  // namespace simrun
