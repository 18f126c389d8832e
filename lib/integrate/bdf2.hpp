#pragma once
/// BDF2 (Ascher et al. survey, Sec. 3.1, Eq. 7; its u_0 + u_{-1} is a typo for u_0 - u_{-1}:
/// u_{n+1} = (4u_n - u_{n-1})/3 + (2h/3) F(u_{n+1}); Chen thesis Sec. 6.2) and SBDF2 (survey
/// Eq. 22 with G = 0: one Newton step linearized at u_n). One recipe stage per step with
///   a = ((1+w)^2 u_n - w^2 u_{n-1}) / (1+2w),   tau = h (1+w)/(1+2w),   w = h / h_prev,
/// the variable-step BDF2 (reduces to a = (4u_n - u_{n-1})/3, tau = 2h/3 at w = 1), so that
/// step halving and changes of h keep the method second order (zero-stable for w < 1+sqrt(2);
/// halving gives w = 1/2 and then w = 2).
/// Start-up (the survey does not specify it): the first step, and any step whose input state is
/// not the one this integrator produced last (a restart), is one backward Euler step (BE for
/// bdf2, SI for sbdf2). Its O(h^2) local error keeps the global error second order.
/// Orders: BDF2 2 (L-stable); SBDF2 2 on linear problems (where it equals BDF2), 1 in general
/// (Chen thesis Sec. 6.2: linearizing BDF2 "reduces the ... order of accuracy from 2 to 1").
#include "integrate/implicit_stage.hpp"

namespace simrun {

class Bdf2 : public ImplicitIntegrator {
 public:
  Bdf2(const IntegratorSettings& settings, bool linearized)
      : ImplicitIntegrator(settings), m_stage_solver(settings), m_linearized(linearized) {}
  explicit Bdf2(const IntegratorSettings& settings) : Bdf2(settings, false) {}
  std::string_view name() const override { return m_linearized ? "sbdf2" : "bdf2"; }
  /// Uses `previous` as u_{n-1} (a step h_previous before) for the next step from `current`,
  /// instead of the BE start-up; set_history(u_0, h) with current = u_0 is the survey's
  /// u_{-1} = u_0 start (Example 2).
  void set_history(const State& current, double h_previous, const State& previous);
  void set_history(const State& current, double h_previous) {
    set_history(current, h_previous, current);
  }
  IntegratorHistory history() const override;
  void restore_history(const IntegratorHistory& history) override;

 protected:
  Status attempt(Model& model, State& state, double h, StepStats& stats) override;

 private:
  ImplicitStageSolver m_stage_solver;
  bool m_linearized;
  bool m_has_history = false;
  VecX m_prev_q, m_prev_v;  ///< u_{n-1}
  double m_prev_h = 0.0;
  State m_last;  ///< the state this integrator produced last (u_n if the history is valid)
};

class Sbdf2 final : public Bdf2 {
 public:
  explicit Sbdf2(const IntegratorSettings& settings) : Bdf2(settings, true) {}
};

}  // namespace simrun
