#pragma once
/// Exponential Rosenbrock-Euler (Chen thesis Ch. 4, eq. 4.4; survey eq. 17):
///   u_{n+1} = u_n + h phi_1(h J_n) F(u_n),   u = [q; v],   F = [v; M^-1 f],
/// J_n the first-order Jacobian at u_n with its damping block, K(q_n) unprojected (ERE needs no
/// definite K). phi_1(h J) F comes from Krylov expv on the augmented operator of Chen thesis
/// Eq. 4.5 with F(u_n) in c_n's place, applied to [0; 1] (the vector exponentiated holds F, not
/// the absolute positions); the substeps (tau) and Krylov vectors go to stats.csv. Exact on
/// linear systems; its cost grows with |M^-1 K|.
#include <string>

#include "integrate/first_order_system.hpp"
#include "solve/krylov_expv.hpp"

namespace simrun {

class ExponentialRosenbrockEuler final : public Integrator {
 public:
  explicit ExponentialRosenbrockEuler(const IntegratorSettings& settings);
  std::string_view name() const override { return "ere"; }
  Status step(Model& model, State& state, double h, StepStats& stats) override;
  std::string failure_detail() const override { return m_failure; }

 private:
  FirstOrderSystem m_system;
  KrylovSettings m_krylov;
  std::string m_failure;
};

/// y = t phi_1(t J) [v; M^-1 f] for the system's Jacobian, with the Krylov cost added to stats;
/// shared by ERE and the exponential parts of the other integrators. On failure `failure` says
/// why.
Status first_order_phi1(Model& model, FirstOrderSystem& system, const VecX& v, double t,
                        const KrylovSettings& krylov, VecX& y, StepStats& stats,
                        std::string& failure);

}  // namespace simrun
