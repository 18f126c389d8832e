#pragma once
/// Semi-implicit (linearly implicit) backward Euler, Baraff-Witkin 1998; Chen thesis Eq. (2.10):
///   (M + h D + h^2 K) dv = h (f(q_n) - D v_n - h K v_n),  v_{n+1} = v_n + dv,
///   q_{n+1} = q_n + h v_{n+1},
/// with K = K(q_n). One linear solve per step; identical to BE for linear forces. When K and D
/// are constant (quadratic energy, rest-stiffness damping) the matrix is factored once.
#include "integrate/integrator.hpp"

namespace simrun {

class SemiImplicitEuler final : public Integrator {
 public:
  explicit SemiImplicitEuler(const IntegratorSettings& settings);
  std::string_view name() const override { return "si"; }
  Status step(Model& model, State& state, double h, StepStats& stats) override;

 private:
  std::unique_ptr<LinearSolver> m_solver;
  SpMat m_K, m_D;
  SpMat m_system;           ///< M + h D + h^2 K
  SpMat m_velocity_matrix;  ///< D + h K (applied to v_n on the right-hand side)
  double m_factored_h = 0.0;
  long m_pattern_version = -1;  ///< the model pattern the factorization was built in
  bool m_factored = false;
};

}  // namespace simrun
