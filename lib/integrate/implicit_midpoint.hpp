#pragma once
/// Implicit midpoint (Chen thesis Sec. 2.2.1, Eqs. 2.11-2.12, which have typos: the midpoint q is
/// q_n + (h/4)(v_n + v_{n+1}), the damping term (h/2) M^-1 D; Ascher et al. survey, Sec. 3.2):
/// with w = (u_n + u_{n+1})/2,
///   q_w = q_n + (h/2) v_w,   M (v_w - v_n) = (h/2) (f(q_w) - D v_w),   u_{n+1} = 2 w - u_n,
/// i.e. the recipe stage a = u_n, tau = h/2 (implicit_stage.hpp). Second order,
/// symmetric and symplectic: no numerical damping; conserves the energy of a linear system.
#include "integrate/corrected_stage.hpp"
#include "integrate/implicit_stage.hpp"

namespace simrun {

///
/// With EigenFit (settings.eigenfit) the stage uses the corrected force, with the modes taken
/// at the first midpoint iterate q_n + (h/2) v_n and frozen (corrected_stage.hpp).
class ImplicitMidpoint final : public ImplicitIntegrator {
 public:
  explicit ImplicitMidpoint(const IntegratorSettings& settings);
  std::string_view name() const override { return "im"; }
  std::string failure_detail() const override {
    return m_corrected ? m_corrected->failure_detail() : std::string();
  }

 protected:
  Status attempt(Model& model, State& state, double h, StepStats& stats) override;

 private:
  ImplicitStageSolver m_stage_solver;
  std::unique_ptr<CorrectedStageSolver> m_corrected;  ///< EigenFit only
};

}  // namespace simrun
