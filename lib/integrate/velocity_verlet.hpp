#pragma once
/// Velocity Verlet (Stormer-Verlet, kick-drift-kick; standard, e.g. Hairer-Lubich-Wanner GNI
/// Sec. I.1.4):
///   v_{1/2} = v_n + (h/2) M^-1 f(q_n, v_n),   q_{n+1} = q_n + h v_{1/2},
///   (M + (h/2) D) v_{n+1} = M v_{1/2} - (h/2) dU/dq(q_{n+1})
/// The last kick treats the (linear) damping force at v_{n+1} implicitly so that the method stays
/// second order with damping; without damping it is the explicit, symplectic, second-order
/// Verlet method, stable for h < 2 / w_max. With settings.viscous_k_d > 0 the Kharevych explicit
/// visco-elastic damping impulse is added to M v_{n+1} (the thesis' "explicit variational"
/// integrator with damping, Figs. 3.4-3.5). The gradient at q_{n+1} is kept for the next
/// step's first kick (one gradient evaluation per step) while the potential is unchanged.
#include "integrate/acceleration.hpp"
#include "integrate/integrator.hpp"

namespace simrun {

class VelocityVerlet final : public Integrator {
 public:
  explicit VelocityVerlet(const IntegratorSettings& settings)
      : m_acceleration(settings.linear_solver),
        m_kick_solver(settings.linear_solver()),
        m_viscous_k_d(settings.viscous_k_d) {}
  std::string_view name() const override { return "verlet"; }
  Status step(Model& model, State& state, double h, StepStats& stats) override;

 private:
  AccelerationSolver m_acceleration;
  std::unique_ptr<LinearSolver> m_kick_solver;
  double m_kick_h = 0.0;
  SpMat m_kick_matrix;   ///< the factorized M + h/2 D
  double m_viscous_k_d;  ///< Kharevych damping k_D [s] (0: none)
  // dU/dq at m_last_q, valid while the model's potential version is m_last_potential.
  VecX m_last_q, m_last_g;
  long m_last_potential = -1;
};

}  // namespace simrun
