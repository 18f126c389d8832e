#pragma once
/// Material-stiffness semi-implicit Euler, MSSI (Chen thesis Sec. 5.1, Eqs. 5.2-5.8): the IMEX
/// step u_{n+1} = u_n + h (I - h J_H)^-1 F(u_n) (Eq. 5.4, whose last line misprints the inverse
/// as (hI - hJ_H)^-1) with only the material stiffness K_s implicit (springs: k s^ s^T; the
/// geometric part (1 - l0/l)(I - s^ s^T) is explicit; other terms keep their full Hessian, so
/// MSSI is SI on a scene without springs):
///   derived (default):  (M + h D + h^2 K_s) dv = h (f - h K_s v_n),   f = -dU/dq - D v_n
///   literal (eq. 5.8):  (M + h^2 K_s) dv = h f
/// then v_{n+1} = v_n + dv, q_{n+1} = q_n + h v_{n+1}. The derived form puts damping in J_H like
/// SI and SIERE do (the thesis' eq. 5.8 has neither the damping nor the -h K_s v_n term).
#include "integrate/integrator.hpp"

namespace simrun {

class MaterialStiffnessSemiImplicit final : public Integrator {
 public:
  explicit MaterialStiffnessSemiImplicit(const IntegratorSettings& settings);
  std::string_view name() const override { return "mssi"; }
  Status step(Model& model, State& state, double h, StepStats& stats) override;

 private:
  std::unique_ptr<LinearSolver> m_solver;
  bool m_literal;
  SpMat m_Ks, m_D, m_system, m_projected;
  bool m_project_damping;
};

}  // namespace simrun
