#pragma once
/// Backward Euler (Chen thesis Eq. 2.8; survey eq. 5 and its optimization form eq. 13):
///   q_{n+1} = q_n + h v_{n+1},   M (v_{n+1} - v_n) = h (f(q_{n+1}) - D v_{n+1}),
/// one stage of the shared incremental-potential solver (implicit_stage.hpp) with a = u_n,
/// tau = h, started from x = q_n + h v_n. First order, L-stable, heavy numerical damping.
#include "integrate/implicit_stage.hpp"

namespace simrun {

class BackwardEuler final : public ImplicitIntegrator {
 public:
  explicit BackwardEuler(const IntegratorSettings& settings)
      : ImplicitIntegrator(settings), m_stage_solver(settings) {}
  std::string_view name() const override { return "be"; }

 protected:
  Status attempt(Model& model, State& state, double h, StepStats& stats) override;

 private:
  ImplicitStageSolver m_stage_solver;
};

}  // namespace simrun
