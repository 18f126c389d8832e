#pragma once
/// Newmark (beta, gamma) in the generalized-alpha form (Chung-Hulbert 1993, cited by the Ascher
/// et al. survey, Sec. 3.4, Eq. 15), with alpha_m = alpha_f = 0 for plain Newmark:
///   M [(1-a_m) a_1 + a_m a_0] = f((1-a_f) q_1 + a_f q_0, (1-a_f) v_1 + a_f v_0)
///   q_1 = q_0 + h v_0 + h^2 [(1/2 - beta) a_0 + beta a_1],   v_1 = v_0 + h [(1-gamma) a_0 + gamma
///   a_1]
/// Solved as one incremental-potential stage over x = (1-a_f) q_1 + a_f q_0 (derivation in
/// newmark.cpp). a_0 is the acceleration the method carries; on the first step (or after a
/// restart: an input state this integrator did not produce) a_0 = M^-1 f(q_0, v_0).
/// Newmark: second order iff gamma = 1/2; beta = 1/4, gamma = 1/2 (average acceleration) has no
/// numerical dissipation and is unconditionally stable.
#include "integrate/acceleration.hpp"
#include "integrate/implicit_stage.hpp"

namespace simrun {

class Newmark : public ImplicitIntegrator {
 public:
  /// Plain Newmark with settings.newmark_beta, settings.newmark_gamma.
  explicit Newmark(const IntegratorSettings& settings);
  std::string_view name() const override { return m_name; }
  IntegratorHistory history() const override;
  void restore_history(const IntegratorHistory& history) override;

 protected:
  Newmark(const IntegratorSettings& settings, const char* name, double alpha_m, double alpha_f,
          double beta, double gamma);
  Status attempt(Model& model, State& state, double h, StepStats& stats) override;

 private:
  const char* m_name;
  double m_alpha_m, m_alpha_f, m_beta, m_gamma;
  ImplicitStageSolver m_stage_solver;
  AccelerationSolver m_acceleration;
  bool m_has_acceleration = false;
  VecX m_a;      ///< a_n
  State m_last;  ///< the state this integrator produced last
};

}  // namespace simrun
